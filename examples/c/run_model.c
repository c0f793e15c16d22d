/* A C program that runs a model compiled by `dit-opt --emit=obj` on the runtime's CPU
 * backend: it reads each input as raw bytes (in_<i>.bin, row-major, the dtype's storage
 * encoding), and uses the model in two phases, as a serving process would: the init entry
 * (ENTRY_init: the load-time pre-pack of the weights, kept in the context) once, then the
 * per-call entry (ENTRY) CALLS times on the same context (2 by default; each call must give
 * the same bytes). It writes each output (out_<j>.bin). The backend is $DIT_BACKEND ("cpu"
 * by default, or "cann").
 *
 * Build (see README.md, "Running the compiled model from C"):
 *   dit-opt model.mlir --fuse-all --emit=obj -o model.o
 *   dit-opt model.mlir --fuse-all --emit=header -o model.h
 *   cc -std=c11 -I lowering/runtime/include -I . -DMODEL_HEADER='"model.h"' \
 *      -DENTRY=my_func -DPREFIX=MY_FUNC examples/c/run_model.c model.o \
 *      target/debug/libdit_runtime.a -lpthread -ldl -lm -o run_model
 *   ./run_model IN_DIR OUT_DIR
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include MODEL_HEADER

#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define NUM_INPUTS CAT(PREFIX, _NUM_INPUTS)
#define NUM_OUTPUTS CAT(PREFIX, _NUM_OUTPUTS)
#define INIT CAT(ENTRY, _init)
#ifndef CALLS
#define CALLS 2
#endif

/* Storage bits per element of an aclDataType code (the runtime's dtypes). */
static int64_t dtype_bits(int32_t code) {
  switch (code) {
  case 0: case 3: return 32;        /* f32, i32 */
  case 1: case 27: return 16;       /* f16, bf16 */
  case 2: case 12: case 35: case 36: case 37: return 8; /* i8, bool, fp8 */
  case 9: return 64;                /* i64 */
  case 29: case 40: return 4;       /* i4, fp4 (packed) */
  default: return -1;
  }
}

static int fill_desc(dit_tensor_desc *d, int32_t dtype, int32_t rank, const int64_t *dims,
                     size_t *bytes) {
  int64_t count = 1;
  d->dtype = dtype;
  d->rank = rank;
  for (int i = 7; i >= 0; i--) {
    d->dims[i] = i < rank ? dims[i] : 0;
    d->strides[i] = 0;
  }
  for (int i = rank - 1; i >= 0; i--) {
    d->strides[i] = count;
    count *= dims[i];
  }
  int64_t bits = dtype_bits(dtype);
  if (bits < 0) return -1;
  *bytes = (size_t)((count * bits + 7) / 8);
  d->data = calloc(*bytes ? *bytes : 1, 1);
  return d->data ? 0 : -1;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s IN_DIR OUT_DIR\n", argv[0]);
    return 2;
  }
  dit_tensor_desc inputs[NUM_INPUTS > 0 ? NUM_INPUTS : 1];
  dit_tensor_desc outputs[NUM_OUTPUTS > 0 ? NUM_OUTPUTS : 1];
  size_t out_bytes[NUM_OUTPUTS > 0 ? NUM_OUTPUTS : 1];
  char path[4096];
  for (int i = 0; i < NUM_INPUTS; i++) {
    size_t bytes;
    if (fill_desc(&inputs[i], CAT(PREFIX, _INPUT_DTYPES)[i], CAT(PREFIX, _INPUT_RANKS)[i],
                  CAT(PREFIX, _INPUT_DIMS)[i], &bytes) != 0) {
      fprintf(stderr, "error: input %d: unsupported dtype or out of memory\n", i);
      return 1;
    }
    snprintf(path, sizeof path, "%s/in_%d.bin", argv[1], i);
    FILE *f = fopen(path, "rb");
    if (!f || fread(inputs[i].data, 1, bytes, f) != bytes) {
      fprintf(stderr, "error: cannot read %zu bytes from %s\n", bytes, path);
      return 1;
    }
    fclose(f);
  }
  for (int j = 0; j < NUM_OUTPUTS; j++) {
    if (fill_desc(&outputs[j], CAT(PREFIX, _OUTPUT_DTYPES)[j], CAT(PREFIX, _OUTPUT_RANKS)[j],
                  CAT(PREFIX, _OUTPUT_DIMS)[j], &out_bytes[j]) != 0) {
      fprintf(stderr, "error: output %d: unsupported dtype or out of memory\n", j);
      return 1;
    }
  }
  /* DIT_BACKEND=cann runs on the NPU (CANN from $ASCEND_HOME_PATH; dit.fused kernels from
   * $DIT_ASCENDC_KERNELS, the library the --emit=ascendc project builds). */
  const char *backend = getenv("DIT_BACKEND");
  dit_context *ctx = dit_context_create(backend ? backend : "cpu", NULL);
  /* Load time: the weight re-layouts run once and stay in the context. */
  int32_t status = INIT(ctx, inputs);
  unsigned char *first[NUM_OUTPUTS > 0 ? NUM_OUTPUTS : 1] = {0};
  for (int call = 0; status == 0 && call < CALLS; call++) {
    status = ENTRY(ctx, inputs, outputs);
    for (int j = 0; status == 0 && j < NUM_OUTPUTS; j++) {
      if (call == 0) {
        first[j] = malloc(out_bytes[j] ? out_bytes[j] : 1);
        if (!first[j]) {
          fprintf(stderr, "error: out of memory\n");
          return 1;
        }
        memcpy(first[j], outputs[j].data, out_bytes[j]);
      } else if (memcmp(first[j], outputs[j].data, out_bytes[j]) != 0) {
        fprintf(stderr, "error: call %d gave other bytes for output %d\n", call + 1, j);
        return 1;
      }
    }
  }
  if (status != 0) {
    const char *e = dit_context_error(ctx);
    fprintf(stderr, "error: %s\n", e ? e : "the model failed");
    dit_context_destroy(ctx);
    return 1;
  }
  dit_context_destroy(ctx);
  for (int j = 0; j < NUM_OUTPUTS; j++) free(first[j]);
  printf("init once, then %d calls with equal outputs\n", CALLS);
  for (int j = 0; j < NUM_OUTPUTS; j++) {
    snprintf(path, sizeof path, "%s/out_%d.bin", argv[2], j);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(outputs[j].data, 1, out_bytes[j], f) != out_bytes[j]) {
      fprintf(stderr, "error: cannot write %s\n", path);
      return 1;
    }
    fclose(f);
    printf("output %d: %zu bytes -> %s\n", j, out_bytes[j], path);
  }
  for (int i = 0; i < NUM_INPUTS; i++) free(inputs[i].data);
  for (int j = 0; j < NUM_OUTPUTS; j++) free(outputs[j].data);
  return 0;
}
