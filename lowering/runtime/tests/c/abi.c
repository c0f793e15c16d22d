/* A C program against include/dit_runtime.h and libdit_runtime.a, run by tests/abi_c.rs: what
 * lowered code does (wrap, alloc, views, launch, copy out, release) plus the sticky-error
 * contract, seen from C. Prints "ok" and exits 0 on success. */
#include "dit_runtime.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
_Static_assert(sizeof(dit_tensor_desc) == 144, "dit_tensor_desc is 144 bytes");
_Static_assert(offsetof(dit_tensor_desc, dims) == 16, "dims at 16");
_Static_assert(offsetof(dit_tensor_desc, strides) == 80, "strides at 80");
#endif

enum { F32 = 0 };

static int failures = 0;

#define CHECK(cond)                                                  \
  do {                                                               \
    if (!(cond)) {                                                   \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
      failures++;                                                    \
    }                                                                \
  } while (0)

static dit_tensor_desc contiguous(void *data, int32_t rank, const int64_t *dims) {
  dit_tensor_desc d;
  int64_t acc = 1;
  memset(&d, 0, sizeof d);
  d.data = data;
  d.dtype = F32;
  d.rank = rank;
  for (int k = rank - 1; k >= 0; k--) {
    d.dims[k] = dims[k];
    d.strides[k] = acc;
    acc *= dims[k];
  }
  return d;
}

static void expect_no_error(dit_context *ctx, int line) {
  const char *e = dit_context_error(ctx);
  if (e != NULL || dit_rt_status(ctx) != 0) {
    fprintf(stderr, "line %d: unexpected error: %s\n", line, e ? e : "(status 1)");
    failures++;
  }
}

int main(void) {
  dit_context *ctx = dit_context_create("cpu", NULL);
  CHECK(ctx != NULL);
  expect_no_error(ctx, __LINE__);

  /* y = x + b (b broadcast over rows), then the right column block as a view, transposed. */
  float x[6] = {1, 2, 3, 4, 5, 6};
  float b[3] = {10, 20, 30};
  const int64_t dims23[2] = {2, 3};
  const int64_t dims3[1] = {3};
  dit_tensor_desc dx = contiguous(x, 2, dims23);
  dit_tensor_desc db = contiguous(b, 1, dims3);
  dit_rt_tensor *tx = dit_rt_wrap(ctx, &dx);
  dit_rt_tensor *tb = dit_rt_wrap(ctx, &db);
  dit_rt_tensor *ty = dit_rt_alloc(ctx, F32, 2, dims23);
  dit_rt_tensor *const ins[2] = {tx, tb};
  dit_rt_tensor *const outs[1] = {ty};
  dit_rt_launch(ctx, "dit.add", "aclnnAdd", "{}", ins, 2, outs, 1);
  expect_no_error(ctx, __LINE__);

  const int64_t dims22[2] = {2, 2};
  const int64_t strides22[2] = {3, 1};
  dit_rt_tensor *right = dit_rt_view(ctx, ty, F32, 2, dims22, strides22, 1);
  const int64_t tstrides[2] = {1, 2};
  dit_rt_tensor *rt = dit_rt_view(ctx, right, F32, 2, dims22, tstrides, 0);
  dit_rt_release(ctx, ty); /* the views keep the storage alive */
  dit_rt_release(ctx, right);

  float got[4] = {0, 0, 0, 0};
  dit_tensor_desc dg = contiguous(got, 2, dims22);
  dit_rt_copy_out(ctx, rt, &dg);
  expect_no_error(ctx, __LINE__);
  /* y = [[11, 22, 33], [14, 25, 36]]; right = [[22, 33], [25, 36]]; transposed. */
  CHECK(got[0] == 22 && got[1] == 25 && got[2] == 33 && got[3] == 36);

  /* rms_norm with a splat gamma. */
  const float one = 1.0f;
  dit_rt_tensor *gamma = dit_rt_constant(ctx, F32, 1, dims3, (const uint8_t *)&one, sizeof one);
  dit_rt_tensor *tn = dit_rt_alloc(ctx, F32, 2, dims23);
  dit_rt_tensor *const nin[2] = {tx, gamma};
  dit_rt_tensor *const nout[1] = {tn};
  dit_rt_launch(ctx, "dit.rms_norm", "aclnnRmsNorm", "{\"epsilon\": 0.0}", nin, 2, nout, 1);
  float norm[6];
  dit_tensor_desc dn = contiguous(norm, 2, dims23);
  dit_rt_copy_out(ctx, tn, &dn);
  expect_no_error(ctx, __LINE__);
  /* Row 0: x / sqrt(mean(x^2)) with mean = 14/3. */
  CHECK(norm[0] > 0.4629f && norm[0] < 0.4630f);

  dit_rt_release(ctx, tx);
  dit_rt_release(ctx, tb);
  dit_rt_release(ctx, rt);
  dit_rt_release(ctx, gamma);
  dit_rt_release(ctx, tn);
  expect_no_error(ctx, __LINE__);

  /* Errors: a bad dtype code is recorded, handles stay non-NULL, everything after is a no-op
   * and the first message stays. */
  dit_rt_tensor *bad = dit_rt_alloc(ctx, 99, 1, dims3);
  CHECK(bad != NULL);
  CHECK(dit_rt_status(ctx) == 1);
  const char *e = dit_context_error(ctx);
  CHECK(e != NULL && strstr(e, "aclDataType code 99") != NULL);
  dit_rt_tensor *after = dit_rt_alloc(ctx, F32, 9, NULL);
  CHECK(after != NULL);
  dit_rt_launch(ctx, NULL, NULL, NULL, NULL, -1, NULL, -1);
  dit_rt_release(ctx, bad);
  dit_rt_release(ctx, after);
  CHECK(strcmp(dit_context_error(ctx), e) == 0);
  dit_context_destroy(ctx);

  /* NULL and destroyed contexts do not crash. */
  CHECK(dit_rt_status(NULL) == 1);
  CHECK(dit_rt_alloc(NULL, F32, 0, NULL) != NULL);
  dit_context_destroy(ctx);

  /* A backend that cannot load gives a context that says why. */
  dit_context *none = dit_context_create("nope", NULL);
  CHECK(none != NULL && dit_rt_status(none) == 1);
  CHECK(strstr(dit_context_error(none), "unknown backend") != NULL);
  dit_context_destroy(none);

  if (failures != 0) {
    fprintf(stderr, "%d checks failed\n", failures);
    return 1;
  }
  printf("ok\n");
  return 0;
}
