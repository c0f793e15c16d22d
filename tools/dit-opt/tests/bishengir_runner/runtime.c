/* The host runtime bishengir's CPU runner output calls (issue 15: a second numerical judge).
 *
 * `bishengir-compile --enable-cpu-runner-after=<pass>,wrapper-name=main_wrapper` (AscendNPU-IR
 * 1.2.0) emits LLVM-dialect MLIR with `main_wrapper(in_path, out_path)`, which fills every
 * buffer of the HOST entry with getData<T>, prints them all to in_path, calls the entry and
 * prints the buffers again, results last, to out_path. The wheel ships no library for these
 * calls (shared/ASCENDNPU_IR.md, "CPU runner"); this is ours:
 *
 *  - getData<T> reads the next buffer from the raw file named by $DIT_RUNNER_INPUT (the
 *    arguments in order, row-major, the dtype's storage encoding: what `dit-run --save-inputs`
 *    writes). Once that file is used up, buffers (the destinations bishengir adds for the
 *    results) are filled with 0xFF bytes, a NaN in every float type, so a result element the
 *    kernel never writes cannot pass. A file that ends inside a buffer is an error.
 *  - printData<T> appends one record: i64 rank, i64 sizes[rank], i64 bytes per element, then the
 *    elements row-major (strides followed), so the test can read any layout back.
 *  - memrefCopy, which MLIR's memref.copy lowers to (upstream's libmlir_c_runner_utils has it;
 *    a strided copy here keeps the test free of that library).
 *  - __truncsfbf2 (f32 -> bf16, round to nearest even), which the lowered bf16 casts call.
 *
 * Memref descriptors follow MLIR's C interface (llvm.emit_c_interface): an unranked memref is
 * {rank, pointer to {allocated, aligned, offset, sizes[rank], strides[rank]}}.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  int64_t rank;
  void *descriptor;
} UnrankedMemRef;

typedef struct {
  void *allocated;
  char *aligned;
  int64_t offset;
  int64_t rest[]; /* sizes[rank], then strides[rank] */
} Descriptor;

static FILE *input_file;
static int input_done;

static void fail(const char *what) {
  fprintf(stderr, "dit bishengir runner: %s\n", what);
  exit(2);
}

static FILE *input(void) {
  if (!input_file && !input_done) {
    const char *path = getenv("DIT_RUNNER_INPUT");
    if (!path)
      fail("DIT_RUNNER_INPUT is not set");
    input_file = fopen(path, "rb");
    if (!input_file)
      fail("cannot open $DIT_RUNNER_INPUT");
  }
  return input_file;
}

/* Calls f(element address) for every element of m, row-major. */
static void each_element(UnrankedMemRef *m, int64_t bytes, void (*f)(char *, int64_t, void *),
                         void *data) {
  Descriptor *d = (Descriptor *)m->descriptor;
  int64_t rank = m->rank;
  int64_t *sizes = d->rest, *strides = d->rest + rank;
  int64_t index[16] = {0};
  if (rank > 16)
    fail("rank above 16");
  for (int64_t i = 0; i < rank; i++)
    if (sizes[i] == 0)
      return;
  for (;;) {
    int64_t at = d->offset;
    for (int64_t i = 0; i < rank; i++)
      at += index[i] * strides[i];
    f(d->aligned + at * bytes, bytes, data);
    int64_t i = rank - 1;
    while (i >= 0 && ++index[i] == sizes[i])
      index[i--] = 0;
    if (i < 0)
      return;
  }
}

static void read_element(char *at, int64_t bytes, void *data) {
  int *first = (int *)data;
  FILE *f = input();
  if (f && fread(at, 1, (size_t)bytes, f) == (size_t)bytes) {
    *first = 0;
    return;
  }
  if (f && !*first)
    fail("$DIT_RUNNER_INPUT ends inside a buffer");
  if (f) {
    fclose(f);
    input_file = NULL;
    input_done = 1;
  }
  memset(at, 0xFF, (size_t)bytes);
}

static void get_data(UnrankedMemRef *m, int64_t bytes) {
  int first = 1;
  each_element(m, bytes, read_element, &first);
}

static void write_element(char *at, int64_t bytes, void *data) {
  if (fwrite(at, 1, (size_t)bytes, (FILE *)data) != (size_t)bytes)
    fail("cannot write an output element");
}

static void print_data(void *handle, UnrankedMemRef *m, int64_t bytes) {
  FILE *f = (FILE *)handle;
  Descriptor *d = (Descriptor *)m->descriptor;
  fwrite(&m->rank, sizeof(int64_t), 1, f);
  fwrite(d->rest, sizeof(int64_t), (size_t)m->rank, f);
  fwrite(&bytes, sizeof(int64_t), 1, f);
  each_element(m, bytes, write_element, f);
}

/* MLIR's memref.copy: src and dst have the same shape, any strides. */
void memrefCopy(int64_t bytes, UnrankedMemRef *src, UnrankedMemRef *dst) {
  Descriptor *s = (Descriptor *)src->descriptor, *d = (Descriptor *)dst->descriptor;
  int64_t rank = src->rank;
  int64_t *sizes = s->rest, *ss = s->rest + rank, *ds = d->rest + rank;
  int64_t index[16] = {0};
  if (rank > 16 || dst->rank != rank)
    fail("memrefCopy: ranks differ or exceed 16");
  for (int64_t i = 0; i < rank; i++)
    if (sizes[i] == 0)
      return;
  for (;;) {
    int64_t from = s->offset, to = d->offset;
    for (int64_t i = 0; i < rank; i++) {
      from += index[i] * ss[i];
      to += index[i] * ds[i];
    }
    memmove(d->aligned + to * bytes, s->aligned + from * bytes, (size_t)bytes);
    int64_t i = rank - 1;
    while (i >= 0 && ++index[i] == sizes[i])
      index[i--] = 0;
    if (i < 0)
      return;
  }
}

void *getFileHandle(const char *path) {
  FILE *f = fopen(path, "wb");
  if (!f)
    fail("cannot open an output file");
  return f;
}

void closeFileHandle(void *handle) { fclose((FILE *)handle); }

#define TYPE(NAME, BYTES)                                                                   \
  void _mlir_ciface_getData##NAME(UnrankedMemRef *m) { get_data(m, BYTES); }               \
  void _mlir_ciface_printData##NAME(void *handle, UnrankedMemRef *m) {                     \
    print_data(handle, m, BYTES);                                                           \
  }
TYPE(F32, 4)
TYPE(F16, 2)
TYPE(BF16, 2)
TYPE(I64, 8)
TYPE(I32, 4)
TYPE(I16, 2)
TYPE(I8, 1)
TYPE(I1, 1)

/* f32 -> bf16 with round to nearest even; NaN stays a quiet NaN. LLVM's `fptrunc ... to bfloat`
 * libcall takes the result from the low 16 bits of an SSE register on x86-64 (the psABI's rule
 * for __bf16). GCC 12, CI's compiler, has no __bf16 type, so the bits are returned as the low
 * half of a float, which lands in the same register. */
#if defined(__x86_64__)
float __truncsfbf2(float x) {
  uint32_t u, out;
  float f;
  memcpy(&u, &x, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u)
    out = (u >> 16) | 0x40u;
  else
    out = (u + 0x7fffu + ((u >> 16) & 1u)) >> 16;
  memcpy(&f, &out, 4);
  return f;
}
#endif

int main(int argc, char **argv) {
  extern void main_wrapper(const char *, const char *);
  if (argc != 3) {
    fprintf(stderr, "usage: %s IN_DUMP OUT_DUMP (inputs from $DIT_RUNNER_INPUT)\n", argv[0]);
    return 2;
  }
  main_wrapper(argv[1], argv[2]);
  return 0;
}
