/* dit_runtime.h: the C ABI that lowered dit code calls (crate dit-runtime, src/abi.rs).
 *
 * Link: libdit_runtime.a (target/<profile>/ of `cargo build -p dit-runtime`) with
 * -lpthread -ldl -lm on Linux.
 *
 * Error model: errors are sticky. The first failure (a contract violation of an op, bad
 * arguments, a NULL pointer, a dims mismatch, a backend failure) records a message in the
 * context; from then on every call does nothing, and calls that return a tensor handle return a
 * dummy handle, never NULL, so a caller's releases stay balanced. A caller runs its whole graph
 * and checks dit_rt_status / dit_context_error once at the end. No call crashes on bad input it
 * can detect: NULL pointers, stale, released or foreign tensor handles and destroyed contexts
 * are detected (handles are numbers looked up in the context, not addresses).
 *
 * Threads: a context and its tensors are used from one thread at a time (CANN binds its device
 * to the thread that created the context). Distinct contexts are independent.
 *
 * Element types are aclDataType codes: 0 f32, 1 f16, 2 i8, 3 i32, 9 i64, 12 i1 (bool, one
 * byte), 27 bf16, 29 i4 (two per byte, low nibble first), 35 f8E5M2, 36 f8E4M3FN, 37 f8E8M0FNU,
 * 40 f4E2M1FN (two per byte, low nibble first). Element counts, strides and offsets are in
 * elements (for the packed 4-bit types, in nibbles). Rank is at most 8.
 */
#ifndef DIT_RUNTIME_H
#define DIT_RUNTIME_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A runtime context: a backend ("cpu" or "cann"), its tensors, and the first error. */
typedef struct dit_context dit_context;

/** A tensor handle: a view (element type, dims, strides, offset) on reference-counted
 *  storage. Opaque; never dereference it. */
typedef struct dit_rt_tensor dit_rt_tensor;

/** A tensor in the caller's memory. */
typedef struct {
  void *data;          /* first element, (0, .., 0); may be NULL only when a dim is 0 */
  int32_t dtype;       /* aclDataType code */
  int32_t rank;        /* 0..8 */
  int64_t dims[8];     /* outermost first; entries past rank are ignored */
  int64_t strides[8];  /* in elements, >= 0 (row-major contiguous: the usual products);
                          strides of dims of size 0 or 1 are ignored */
} dit_tensor_desc;

/** Creates a context. backend: "cpu" (the reference implementation of every dit op) or
 *  "cann" (aclnn through CANN, loaded at run time from cann_dir when not NULL, else from
 *  $ASCEND_HOME_PATH/lib64 and its per-architecture lib64 directories). Never returns NULL:
 *  when the backend cannot be created the context is returned in the error state and
 *  dit_context_error says why (for CANN it names ASCEND_HOME_PATH). */
dit_context *dit_context_create(const char *backend, const char *cann_dir);

/** Destroys a context and frees every tensor still alive in it. NULL and already destroyed
 *  contexts are ignored. */
void dit_context_destroy(dit_context *ctx);

/** NULL while no error happened; otherwise the first error's message, valid until the context
 *  is destroyed. A NULL or destroyed ctx gives a message saying so. */
const char *dit_context_error(const dit_context *ctx);

/** 0 while no error happened, 1 after one (also for a NULL or destroyed ctx). Waits for every
 *  queued launch first: on CANN this is the call's one stream synchronisation when no result was
 *  copied out yet, so an error of a kernel still running is reported here. */
int32_t dit_rt_status(dit_context *ctx);

/** A new tensor holding a copy of the caller's tensor, read through desc's strides. */
dit_rt_tensor *dit_rt_wrap(dit_context *ctx, const dit_tensor_desc *desc);

/** A new zero-filled contiguous tensor, to be passed as an output of dit_rt_launch.
 *  dims holds rank entries (may be NULL when rank is 0). */
dit_rt_tensor *dit_rt_alloc(dit_context *ctx, int32_t dtype, int32_t rank, const int64_t *dims);

/** A new tensor from nbytes bytes: either the full contiguous storage of dims (row-major,
 *  storage encoding), or exactly one element's storage bytes, repeated to every element (a
 *  splat; one byte for the 4-bit types, whose low nibble is the element). When both readings
 *  fit, the full one wins. bytes may be NULL when nbytes is 0. */
dit_rt_tensor *dit_rt_constant(dit_context *ctx, int32_t dtype, int32_t rank, const int64_t *dims,
                               const uint8_t *bytes, int64_t nbytes);

/** A new view on base: element (i0, .., in) of the view is element offset + sum(ik*strides[k])
 *  of base in base's logical row-major element order (as if base were contiguous). strides and
 *  offset are in elements and >= 0; the view must stay inside base. dtype must be base's (use
 *  dit_rt_reshape to bitcast). No data moves when base is contiguous; when base is itself a
 *  non-contiguous view the runtime first makes a contiguous copy of it. Used for split and
 *  slice (offset + strides), transpose (permuted strides) and broadcast (stride 0). A view of a
 *  contiguous base shares its storage: it sees what a later launch writes into base. */
dit_rt_tensor *dit_rt_view(dit_context *ctx, dit_rt_tensor *base, int32_t dtype, int32_t rank,
                           const int64_t *dims, const int64_t *strides, int64_t offset);

/** A new tensor with base's elements and new dims, and for a bitcast a new dtype (the total size
 *  in bits must match; i1 cannot be bitcast). Shares base's storage when base is contiguous;
 *  copies first otherwise. */
dit_rt_tensor *dit_rt_reshape(dit_context *ctx, dit_rt_tensor *base, int32_t dtype, int32_t rank,
                              const int64_t *dims);

/** Runs one dit op and fills its outputs.
 *  op: the dit op name, e.g. "dit.rms_norm".
 *  kernel: the aclnn symbol from the kernel table (e.g. "aclnnRmsNorm"); when not empty it must
 *    be one of the aclnn calls the table selects for op, attrs and filled slots ("" skips the
 *    check). For "dit.fused": the generated kernel's name ("" or equal to attrs "kernel").
 *  attrs_json: the op's attributes as a JSON object ("{}" for none): bool, integer, float,
 *    string or integer-array values. For "dit.fused" it is
 *      {"kernel": "fused_f_0",
 *       "body": {"args": [{"dtype": "bf16", "shape": [1, 4, 8]}, ...],
 *                "ops": [{"name": "dit.mul", "operands": [0, 1], "attrs": {...},
 *                         "results": [{"dtype": "bf16", "shape": [1, 4, 8]}]}, ...],
 *                "yield": [5, 7]}}
 *    where body arguments are value ids 0..args-1 (the launch inputs, in order), each op's
 *    results take the next ids in op order, an operand may be null (an empty optional slot),
 *    and "yield" lists one value id per output. dtypes are MLIR names ("bf16", "f8E4M3FN").
 *    The CPU backend runs the body op by op; the CANN backend reports that the generated
 *    kernel is not built yet.
 *  inputs: n_inputs entries, one per operand slot of the op's contract (a variadic slot such
 *    as dit.concat's takes one entry per value), NULL for an empty optional slot.
 *  outputs: n_outputs distinct tensors (normally from dit_rt_alloc) whose dtype and dims are
 *    the op's result types; they must not be broadcast views. */
void dit_rt_launch(dit_context *ctx, const char *op, const char *kernel, const char *attrs_json,
                   dit_rt_tensor *const *inputs, int32_t n_inputs, dit_rt_tensor *const *outputs,
                   int32_t n_outputs);

/** Releases a handle. The storage is freed when the last view on it is released, in any order
 *  (releasing a base before its views is fine). */
void dit_rt_release(dit_context *ctx, dit_rt_tensor *t);

/** What a context has done so far. */
typedef struct {
  uint64_t launches;     /* kernel launches: each aclnn call, each generated kernel */
  uint64_t packed_bytes; /* bytes init entries pre-packed (kept for later calls) */
} dit_counters;

/** Writes ctx's counters to out (zeros for a NULL, destroyed or failed context). */
void dit_context_counters(dit_context *ctx, dit_counters *out);

/** Keeps t in the context under key (what an init entry `f_init` pre-packed, keyed "f#k"), for
 *  later calls; storing the same key again replaces it. The caller still releases t. On CANN
 *  the kept tensor stays in device memory until the key is replaced or the context goes. */
void dit_rt_pack_store(dit_context *ctx, const char *key, dit_rt_tensor *t);

/** A copy of t re-laid into FRACTAL_NZ (zero-padded 16 x 32-byte fractals), t's logical type
 *  kept: an init entry's re-layout of a weight whose kernel takes NZ (aclnnQuantMatmulWeightNz,
 *  aclnnGroupedMatmulSwigluQuantWeightNZ). Counted as one launch. Only a kernel that takes that
 *  operand in NZ accepts it; it has no views. */
dit_rt_tensor *dit_rt_to_nz(dit_context *ctx, dit_rt_tensor *t);

/** A new handle on the tensor stored under key, released by the caller. An error when no
 *  init entry stored it on this context ("call f_init ... before f"). */
dit_rt_tensor *dit_rt_pack_load(dit_context *ctx, const char *key);

/** Writes t's elements into out->data through out's strides. out's dtype and dims must be t's,
 *  and its strides must not make two elements share memory. */
void dit_rt_copy_out(dit_context *ctx, dit_rt_tensor *t, dit_tensor_desc *out);

#ifdef __cplusplus
}
#endif

#endif /* DIT_RUNTIME_H */
