/*
 * A stand-in for CANN's three libraries (libascendcl.so, libnnopbase.so, libopapi.so), for
 * testing the dit-runtime CANN backend on a machine without CANN or an NPU.
 *
 * It checks the calling protocol, and computes only through the runtime: device memory is host
 * memory, and phase two of an aclnn operator calls the compute callback the runtime registers
 * with dit_standin_set_compute (the dit-runtime CANN backend does when the loaded libopapi
 * exports that symbol; real CANN never does). The callback maps the call back to its dit op
 * through the runtime's kernel table and runs dit's own CPU reference on the recorded
 * arguments. So values on the stand-in come from dit's CPU reference, not from CANN: a model
 * compared against the CPU backend proves the data path (argument slots, views and strides,
 * device residency, uploads/downloads, kernel launches), never CANN's numerics. Without a
 * callback, or with $DIT_CANN_STANDIN_PROTOCOL_ONLY set, kernels leave their outputs as they
 * are (aclrtMalloc zero-fills, so outputs read back as zeros and in-place tensors unchanged).
 * Generated Ascend C kernels are not launched through the stand-in: the runtime calls the host
 * stubs of the kernel library directly, and a CPU-model build of that library computes on the
 * stand-in's "device" pointers because they are host memory. What it checks: every object handed to an
 * aclnn function is a live object of the kind the documented prototype wants (tensor, tensor
 * list, scalar, int array, executor, stream, device memory), tensor views fit their storage and
 * their device allocation, phase two gets the executor of its own phase one and a workspace of
 * at least the size phase one asked for, and memory copies stay inside device allocations.
 * Each aclnn call appends one line to the file named by $DIT_CANN_STANDIN_LOG (format below);
 * a failed check appends an "ERROR" line and returns a nonzero status. For error-path tests,
 * $DIT_CANN_STANDIN_FAIL / $DIT_CANN_STANDIN_FAIL_RUN name an operator whose phase one / phase
 * two then fails.
 *
 * The prototypes are written by hand from the CANN 8.1.RC1 headers and the aclnn reference
 * pages, independently of the Rust kernel table, so that the test compares two readings.
 *
 * Log lines (fields separated by one space, no spaces inside a field):
 *   CALL <symbol>GetWorkspaceSize <name>=<value>... ws=<bytes> exec=<id>
 *   RUN <symbol> exec=<id> ws=<bytes>
 *   INIT | SET_DEVICE <id> | CREATE_STREAM | SYNC | DESTROY_STREAM | RESET_DEVICE <id> |
 *   FINALIZE live_device=<n> | ERROR <where>: <why>
 *   MALLOC bytes=<n> ptr=<p> | FREE ptr=<p>                     (aclrtMalloc, aclrtFree)
 *   MEMCPY H2D bytes=<n> src=<host p> dst=<device p>             (aclrtMemcpy host to device)
 *   MEMCPY D2H bytes=<n> src=<device p> dst=<host p>             (aclrtMemcpy device to host)
 *   The RUN line also carries wsptr=<p>, the workspace address (0x0 for none).
 * Values: T{dt=<aclDataType>,fmt=<aclFormat>,view=[d,..],stride=[s,..],off=<n>,storage=[d,..]}
 *   (tensor), L[<tensor>;..] (tensor list), S{dt=<code>,v=<value>} (scalar), A[v,..] (int
 *   array), I:<int64>, I8:<int8>, B:<0|1>, D:<double %.17g>, E:<aclDataType>, C:"<string>",
 *   null (a null pointer where the prototype allows one).
 */
#ifndef DIT_STANDIN_H
#define DIT_STANDIN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int aclError;
typedef int32_t aclnnStatus;
typedef void *aclrtStream;
typedef int aclDataType;
typedef int aclFormat;

#define STANDIN_MAX_DIMS 8

/* Magic tags: the first word of every object. A destroyed object gets DEAD. */
#define MAGIC_TENSOR 0x54454e53u /* "TENS" */
#define MAGIC_LIST 0x4c495354u   /* "LIST" */
#define MAGIC_SCALAR 0x5343414cu /* "SCAL" */
#define MAGIC_ARRAY 0x41525259u  /* "ARRY" */
#define MAGIC_EXEC 0x45584543u   /* "EXEC" */
#define MAGIC_STREAM 0x5354524du /* "STRM" */
#define MAGIC_DEAD 0x44454144u   /* "DEAD" */
#define MAGIC_DEVICE 0x4445564943454d45ull /* "DEVICEME": header of a device allocation */

typedef struct aclTensor {
    uint32_t magic;
    aclDataType dtype;
    aclFormat format;
    int64_t offset;
    uint64_t ndim;
    int64_t dims[STANDIN_MAX_DIMS];
    int64_t strides[STANDIN_MAX_DIMS];
    uint64_t nstorage;
    int64_t storage[STANDIN_MAX_DIMS];
    void *data;
} aclTensor;

typedef struct aclTensorList {
    uint32_t magic;
    uint64_t size;
    aclTensor **items;
} aclTensorList;

typedef struct aclScalar {
    uint32_t magic;
    aclDataType dtype;
    unsigned char value[8];
} aclScalar;

typedef struct aclIntArray {
    uint32_t magic;
    uint64_t size;
    int64_t *values;
} aclIntArray;

/* The most arguments an aclnn phase one takes (aclnnFusedInferAttentionScoreV2 has 39). */
#define STANDIN_MAX_ARGS 48

/* What phase one recorded of one argument, in prototype order, for the compute callback. */
enum {
    STANDIN_ARG_NULL = 0, /* a NULL pointer (an empty optional tensor, list, array or string) */
    STANDIN_ARG_TENSOR,   /* tensor */
    STANDIN_ARG_LIST,     /* n tensors at items */
    STANDIN_ARG_SCALAR,   /* d (and i for an integer scalar), dtype */
    STANDIN_ARG_INTS,     /* n values at ints */
    STANDIN_ARG_INT,      /* i: int64_t or int8_t */
    STANDIN_ARG_BOOL,     /* i: 0 or 1 */
    STANDIN_ARG_DOUBLE,   /* d */
    STANDIN_ARG_DTYPE,    /* i: an aclDataType */
    STANDIN_ARG_STR,      /* s */
};

typedef struct dit_standin_arg {
    int32_t kind;
    int32_t dtype;
    int64_t i;
    double d;
    const char *s;
    uint64_t n;
    const struct aclTensor *tensor;
    struct aclTensor *const *items;
    const int64_t *ints;
} dit_standin_arg;

/* The compute callback: the phase-two symbol and the arguments its phase one recorded (the
 * objects they point at are alive during the call). 0 on success; nonzero fails phase two. */
typedef int (*dit_standin_compute_fn)(const char *symbol, const dit_standin_arg *args,
                                      uint64_t nargs);

typedef struct aclOpExecutor {
    uint32_t magic;
    char symbol[96];
    uint64_t workspace;
    uint64_t id;
    uint64_t nargs;
    dit_standin_arg args[STANDIN_MAX_ARGS];
} aclOpExecutor;

typedef struct Stream {
    uint32_t magic;
} Stream;

/* A device allocation is host memory after this header. */
typedef struct DeviceHeader {
    uint64_t magic;
    uint64_t size;
} DeviceHeader;

static inline DeviceHeader *standin_device_header(const void *p) {
    if (p == NULL) {
        return NULL;
    }
    DeviceHeader *h = (DeviceHeader *)((char *)p - sizeof(DeviceHeader));
    return h->magic == MAGIC_DEVICE ? h : NULL;
}

/* Storage bits of an aclDataType (acl_base.h codes); 0 for codes the stand-in does not know. */
static inline unsigned standin_dtype_bits(aclDataType dt) {
    switch (dt) {
    case 0: case 3: case 8: return 32;          /* FLOAT, INT32, UINT32 */
    case 1: case 6: case 7: case 27: return 16; /* FLOAT16, INT16, UINT16, BF16 */
    case 2: case 4: case 12: return 8;          /* INT8, UINT8, BOOL */
    case 9: case 10: case 11: return 64;        /* INT64, UINT64, DOUBLE */
    case 29: case 40: return 4;                 /* INT4, FLOAT4_E2M1 */
    case 35: case 36: case 37: return 8;        /* FLOAT8_E5M2, FLOAT8_E4M3FN, FLOAT8_E8M0 */
    default: return 0;
    }
}

/* Appends one line to $DIT_CANN_STANDIN_LOG (opened per line, so the three libraries and
 * several test runs can share the file). */
static inline void standin_log(const char *line) {
    const char *path = getenv("DIT_CANN_STANDIN_LOG");
    if (path == NULL || *path == '\0') {
        return;
    }
    FILE *f = fopen(path, "a");
    if (f == NULL) {
        return;
    }
    fputs(line, f);
    fputc('\n', f);
    fclose(f);
}

#endif
