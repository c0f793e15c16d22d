/*
 * Stand-in libopapi.so: every aclnn operator the dit kernel table uses, with its documented
 * two-phase prototype written out by hand (sources: CANN 8.1.RC1 aclnnop/ headers; for newer
 * operators the ops-nn / ops-transformer docs and op_api headers; aclnnKvRmsNormRopeCache from
 * the hiascend API reference). See standin.h: it checks the calling protocol, and computes only
 * through the compute callback the runtime registers (dit's own CPU reference: the values prove
 * the data path, not CANN's numerics); without one, outputs are left as they are.
 *
 * Phase one checks each argument's kind against the prototype (a required tensor must be a
 * live aclTensor, an optional one NULL or a live aclTensor, and so on), logs one CALL line,
 * and hands out an executor remembering the symbol and the workspace size it asked for.
 * Phase two checks it gets that executor (once), a stream, and a workspace of at least that
 * size, logs one RUN line, and then calls the compute callback with the arguments phase one
 * recorded (unless $DIT_CANN_STANDIN_PROTOCOL_ONLY is set).
 */
#include <stdarg.h>

#include "rules.h"
#include "standin.h"

#define ACLNN_SUCCESS 0
#define ACLNN_ERR_PARAM_NULLPTR 161001
#define ACLNN_ERR_PARAM_INVALID 161002
#define ACLNN_ERR_INNER 561000

/* Workspace sizes the stand-in asks for: none for simple elementwise kernels (so the backend's
 * "no workspace" path runs), some for the others. */
#define WS_NONE 0
#define WS_SMALL 512
#define WS_LARGE 65536

static int64_t live_executors;
static uint64_t next_executor = 1;

typedef struct Rec {
    char line[16384];
    size_t len;
    const char *symbol; /* phase-two name */
    char why[256];
    uint64_t nargs;
    dit_standin_arg args[STANDIN_MAX_ARGS];
} Rec;

static dit_standin_compute_fn compute;

/* Stand-in only: the runtime's compute callback (NULL: compute nothing). */
void dit_standin_set_compute(dit_standin_compute_fn fn) {
    compute = fn;
}

/* The next recorded argument, zeroed; past STANDIN_MAX_ARGS the call is refused. */
static dit_standin_arg *arg(Rec *r, int32_t kind) {
    static dit_standin_arg overflow;
    if (r->nargs >= STANDIN_MAX_ARGS) {
        r->nargs++;
        memset(&overflow, 0, sizeof overflow);
        return &overflow;
    }
    dit_standin_arg *a = &r->args[r->nargs++];
    memset(a, 0, sizeof *a);
    a->kind = kind;
    return a;
}

static void put(Rec *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(Rec *r, const char *fmt, ...) {
    if (r->len >= sizeof r->line) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(r->line + r->len, sizeof r->line - r->len, fmt, ap);
    va_end(ap);
    if (n > 0) {
        r->len += (size_t)n;
    }
}

static void bad(Rec *r, const char *name, const char *why) {
    if (r->why[0] == '\0') {
        snprintf(r->why, sizeof r->why, "%s: %s", name, why);
    }
}

static void begin(Rec *r, const char *symbol) {
    r->len = 0;
    r->why[0] = '\0';
    r->symbol = symbol;
    r->nargs = 0;
    put(r, "CALL %sGetWorkspaceSize", symbol);
    /* A test can make one operator's phase one fail, to check that errors surface. */
    const char *fail = getenv("DIT_CANN_STANDIN_FAIL");
    if (fail != NULL && strcmp(fail, symbol) == 0) {
        bad(r, symbol, "failure requested by DIT_CANN_STANDIN_FAIL");
    }
}

static const char *kind_of(uint32_t magic) {
    switch (magic) {
    case MAGIC_TENSOR: return "aclTensor";
    case MAGIC_LIST: return "aclTensorList";
    case MAGIC_SCALAR: return "aclScalar";
    case MAGIC_ARRAY: return "aclIntArray";
    case MAGIC_EXEC: return "aclOpExecutor";
    case MAGIC_DEAD: return "a destroyed object";
    default: return "an unknown pointer";
    }
}

static void put_ints(Rec *r, const int64_t *v, uint64_t n) {
    put(r, "[");
    for (uint64_t i = 0; i < n; i++) {
        put(r, i ? ",%lld" : "%lld", (long long)v[i]);
    }
    put(r, "]");
}

static void put_tensor(Rec *r, const aclTensor *t) {
    put(r, "T{dt=%d,fmt=%d,view=", t->dtype, t->format);
    put_ints(r, t->dims, t->ndim);
    put(r, ",stride=");
    put_ints(r, t->strides, t->ndim);
    put(r, ",off=%lld,storage=", (long long)t->offset);
    put_ints(r, t->storage, t->nstorage);
    put(r, "}");
}

/* The first word of any stand-in object, read only after a NULL check. */
static uint32_t magic_of(const void *p) {
    return *(const uint32_t *)p;
}

static void tensor(Rec *r, const char *name, const aclTensor *t, bool optional) {
    put(r, " %s=", name);
    dit_standin_arg *a = arg(r, STANDIN_ARG_NULL);
    if (t == NULL) {
        put(r, "null");
        if (!optional) {
            bad(r, name, "required aclTensor is NULL");
        }
        return;
    }
    if (magic_of(t) != MAGIC_TENSOR) {
        put(r, "?");
        char why[96];
        snprintf(why, sizeof why, "expected aclTensor, got %s", kind_of(magic_of(t)));
        bad(r, name, why);
        return;
    }
    a->kind = STANDIN_ARG_TENSOR;
    a->tensor = t;
    a->n = 1;
    put_tensor(r, t);
}

static void list(Rec *r, const char *name, const aclTensorList *l, bool optional) {
    put(r, " %s=", name);
    dit_standin_arg *a = arg(r, STANDIN_ARG_NULL);
    if (l == NULL) {
        put(r, "null");
        if (!optional) {
            bad(r, name, "required aclTensorList is NULL");
        }
        return;
    }
    if (magic_of(l) != MAGIC_LIST) {
        put(r, "?");
        char why[96];
        snprintf(why, sizeof why, "expected aclTensorList, got %s", kind_of(magic_of(l)));
        bad(r, name, why);
        return;
    }
    a->kind = STANDIN_ARG_LIST;
    a->items = l->items;
    a->n = l->size;
    put(r, "L[");
    for (uint64_t i = 0; i < l->size; i++) {
        if (i) {
            put(r, ";");
        }
        if (l->items[i]->magic != MAGIC_TENSOR) {
            bad(r, name, "list item is not a live aclTensor");
            put(r, "?");
            continue;
        }
        put_tensor(r, l->items[i]);
    }
    put(r, "]");
}

static void scalar(Rec *r, const char *name, const aclScalar *s) {
    put(r, " %s=", name);
    dit_standin_arg *a = arg(r, STANDIN_ARG_NULL);
    if (s == NULL || magic_of(s) != MAGIC_SCALAR) {
        put(r, s == NULL ? "null" : "?");
        bad(r, name, "expected a live aclScalar");
        return;
    }
    a->kind = STANDIN_ARG_SCALAR;
    a->dtype = s->dtype;
    if (s->dtype == 0) {
        float v;
        memcpy(&v, s->value, sizeof v);
        a->d = (double)v;
        put(r, "S{dt=0,v=%.9g}", (double)v);
    } else if (s->dtype == 9) {
        int64_t v;
        memcpy(&v, s->value, sizeof v);
        a->i = v;
        a->d = (double)v;
        put(r, "S{dt=9,v=%lld}", (long long)v);
    } else {
        put(r, "S{dt=%d,v=?}", s->dtype);
    }
}

static void ints(Rec *r, const char *name, const aclIntArray *a, bool optional) {
    put(r, " %s=", name);
    dit_standin_arg *rec = arg(r, STANDIN_ARG_NULL);
    if (a == NULL) {
        put(r, "null");
        if (!optional) {
            bad(r, name, "required aclIntArray is NULL");
        }
        return;
    }
    if (magic_of(a) != MAGIC_ARRAY) {
        put(r, "?");
        bad(r, name, "expected a live aclIntArray");
        return;
    }
    rec->kind = STANDIN_ARG_INTS;
    rec->ints = a->values;
    rec->n = a->size;
    put(r, "A");
    put_ints(r, a->values, a->size);
}

static void i64(Rec *r, const char *name, int64_t v) {
    arg(r, STANDIN_ARG_INT)->i = v;
    put(r, " %s=I:%lld", name, (long long)v);
}
static void i8(Rec *r, const char *name, int8_t v) {
    arg(r, STANDIN_ARG_INT)->i = v;
    put(r, " %s=I8:%d", name, (int)v);
}
static void boolean(Rec *r, const char *name, bool v) {
    arg(r, STANDIN_ARG_BOOL)->i = v ? 1 : 0;
    put(r, " %s=B:%d", name, v ? 1 : 0);
}
static void f64(Rec *r, const char *name, double v) {
    arg(r, STANDIN_ARG_DOUBLE)->d = v;
    put(r, " %s=D:%.17g", name, v);
}
static void dtype(Rec *r, const char *name, aclDataType v) {
    arg(r, STANDIN_ARG_DTYPE)->i = v;
    put(r, " %s=E:%d", name, v);
    if (standin_dtype_bits(v) == 0) {
        bad(r, name, "unknown aclDataType");
    }
}
static void str(Rec *r, const char *name, const char *s, bool optional) {
    put(r, " %s=", name);
    dit_standin_arg *a = arg(r, STANDIN_ARG_NULL);
    if (s == NULL) {
        put(r, "null");
        if (!optional) {
            bad(r, name, "required string is NULL");
        }
        return;
    }
    a->kind = STANDIN_ARG_STR;
    a->s = s;
    put(r, "C:\"%s\"", s);
}

/* Ends phase one: hands out an executor asking for `workspace` bytes, or fails. */
static aclnnStatus finish(Rec *r, uint64_t *workspaceSize, aclOpExecutor **executor,
                          uint64_t workspace) {
    if (workspaceSize == NULL || executor == NULL) {
        bad(r, "workspaceSize/executor", "NULL out-pointer");
    }
    if (r->nargs > STANDIN_MAX_ARGS) {
        bad(r, r->symbol, "more arguments than the stand-in records");
    }
    /* The kernel's documented contract (rules.h), once the protocol holds: a broken rule
     * returns its documented code, as CANN's parameter checks do. */
    if (r->why[0] == '\0') {
        char why[256];
        int32_t code = standin_rules_check(r->symbol, r->args, r->nargs, why, sizeof why);
        if (code != 0) {
            put(r, " ERROR %s", why);
            standin_log(r->line);
            char line[512];
            snprintf(line, sizeof line, "ERROR %sGetWorkspaceSize: %s", r->symbol, why);
            standin_log(line);
            return code;
        }
    }
    if (r->why[0] != '\0') {
        put(r, " ERROR %s", r->why);
        standin_log(r->line);
        char line[512];
        snprintf(line, sizeof line, "ERROR %sGetWorkspaceSize: %s", r->symbol, r->why);
        standin_log(line);
        return ACLNN_ERR_PARAM_INVALID;
    }
    aclOpExecutor *e = calloc(1, sizeof *e);
    if (e == NULL) {
        return ACLNN_ERR_INNER;
    }
    e->magic = MAGIC_EXEC;
    snprintf(e->symbol, sizeof e->symbol, "%s", r->symbol);
    e->workspace = workspace;
    e->id = next_executor++;
    e->nargs = r->nargs;
    memcpy(e->args, r->args, r->nargs * sizeof r->args[0]);
    live_executors++;
    *workspaceSize = workspace;
    *executor = e;
    put(r, " ws=%llu exec=%llu", (unsigned long long)workspace, (unsigned long long)e->id);
    standin_log(r->line);
    return ACLNN_SUCCESS;
}

static aclnnStatus run(const char *symbol, void *workspace, uint64_t workspaceSize,
                       aclOpExecutor *executor, aclrtStream stream) {
    char line[512];
    const char *why = NULL;
    if (executor == NULL || executor->magic != MAGIC_EXEC) {
        why = "executor is not a live executor from a phase one";
    } else if (strcmp(executor->symbol, symbol) != 0) {
        why = "executor comes from another operator's phase one";
    } else if (workspaceSize < executor->workspace) {
        why = "workspaceSize is smaller than phase one asked for";
    } else if (executor->workspace > 0) {
        DeviceHeader *h = standin_device_header(workspace);
        if (h == NULL || h->size < executor->workspace) {
            why = "workspace is not a device allocation of the size phase one asked for";
        }
    }
    if (why == NULL && (stream == NULL || ((Stream *)stream)->magic != MAGIC_STREAM)) {
        why = "stream is not a live stream";
    }
    /* A test can make one operator's phase two fail, to check the error path. */
    const char *fail = getenv("DIT_CANN_STANDIN_FAIL_RUN");
    if (why == NULL && fail != NULL && strcmp(fail, symbol) == 0) {
        why = "failure requested by DIT_CANN_STANDIN_FAIL_RUN";
    }
    /* Executors are single-use in aclnn (unless made repeatable): once phase two has its own
     * executor, that executor is spent, whether the run succeeds or not. Kept allocated so a
     * second use is detected rather than undefined. */
    if (executor != NULL && executor->magic == MAGIC_EXEC && strcmp(executor->symbol, symbol) == 0) {
        executor->magic = MAGIC_DEAD;
        live_executors--;
    }
    if (why != NULL) {
        snprintf(line, sizeof line, "ERROR %s: %s", symbol, why);
        standin_log(line);
        return ACLNN_ERR_PARAM_INVALID;
    }
    snprintf(line, sizeof line, "RUN %s exec=%llu ws=%llu wsptr=%p", symbol,
             (unsigned long long)executor->id, (unsigned long long)workspaceSize,
             workspaceSize > 0 ? workspace : NULL);
    standin_log(line);
    const char *protocol_only = getenv("DIT_CANN_STANDIN_PROTOCOL_ONLY");
    if (compute != NULL && (protocol_only == NULL || *protocol_only == '\0') &&
        compute(symbol, executor->args, executor->nargs) != 0) {
        snprintf(line, sizeof line, "ERROR %s: the compute callback failed", symbol);
        standin_log(line);
        return ACLNN_ERR_INNER;
    }
    return ACLNN_SUCCESS;
}

/* Phase two has the same prototype for every operator. */
#define PHASE_TWO(name)                                                                        \
    aclnnStatus name(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,         \
                     aclrtStream stream) {                                                     \
        return run(#name, workspace, workspaceSize, executor, stream);                         \
    }

#define REQ false
#define OPT true

/* ---- elementwise: aclnn_add.h, aclnn_sub.h, aclnn_mul.h, aclnn_div.h, aclnn_pow_tensor_tensor.h */

aclnnStatus aclnnAddGetWorkspaceSize(const aclTensor *self, const aclTensor *other,
                                     const aclScalar *alpha, aclTensor *out,
                                     uint64_t *workspaceSize, aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnAdd");
    tensor(&r, "self", self, REQ);
    tensor(&r, "other", other, REQ);
    scalar(&r, "alpha", alpha);
    tensor(&r, "out", out, REQ);
    return finish(&r, workspaceSize, executor, WS_NONE);
}
PHASE_TWO(aclnnAdd)

aclnnStatus aclnnSubGetWorkspaceSize(const aclTensor *self, const aclTensor *other,
                                     const aclScalar *alpha, aclTensor *out,
                                     uint64_t *workspaceSize, aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnSub");
    tensor(&r, "self", self, REQ);
    tensor(&r, "other", other, REQ);
    scalar(&r, "alpha", alpha);
    tensor(&r, "out", out, REQ);
    return finish(&r, workspaceSize, executor, WS_NONE);
}
PHASE_TWO(aclnnSub)

#define BINARY(name, b)                                                                        \
    aclnnStatus name##GetWorkspaceSize(const aclTensor *self, const aclTensor *b,              \
                                       aclTensor *out, uint64_t *workspaceSize,                \
                                       aclOpExecutor **executor) {                             \
        Rec r;                                                                                 \
        begin(&r, #name);                                                                      \
        tensor(&r, "self", self, REQ);                                                         \
        tensor(&r, #b, b, REQ);                                                                \
        tensor(&r, "out", out, REQ);                                                           \
        return finish(&r, workspaceSize, executor, WS_NONE);                                   \
    }                                                                                          \
    PHASE_TWO(name)

BINARY(aclnnMul, other)
BINARY(aclnnDiv, other)
BINARY(aclnnPowTensorTensor, exponent)

/* ---- unary (self, out): aclnn_neg.h ... aclnn_relu.h, aclnn_gelu.h; ops-nn aclnnFastGelu.md */

#define UNARY(name)                                                                            \
    aclnnStatus name##GetWorkspaceSize(const aclTensor *self, aclTensor *out,                  \
                                       uint64_t *workspaceSize, aclOpExecutor **executor) {    \
        Rec r;                                                                                 \
        begin(&r, #name);                                                                      \
        tensor(&r, "self", self, REQ);                                                         \
        tensor(&r, "out", out, REQ);                                                           \
        return finish(&r, workspaceSize, executor, WS_NONE);                                   \
    }                                                                                          \
    PHASE_TWO(name)

UNARY(aclnnNeg)
UNARY(aclnnExp)
UNARY(aclnnSqrt)
UNARY(aclnnRsqrt)
UNARY(aclnnTanh)
/* ops-math math/sin, math/cos: aclnnSin(self, out), aclnnCos(input, out) */
UNARY(aclnnSin)
UNARY(aclnnCos)
UNARY(aclnnErf)
UNARY(aclnnSigmoid)
UNARY(aclnnSilu)
UNARY(aclnnRelu)
UNARY(aclnnGelu)
UNARY(aclnnFastGelu)

/* aclnn_gelu_v2.h */
aclnnStatus aclnnGeluV2GetWorkspaceSize(const aclTensor *x, int64_t approximate, aclTensor *y,
                                        uint64_t *workspaceSize, aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnGeluV2");
    tensor(&r, "x", x, REQ);
    i64(&r, "approximate", approximate);
    tensor(&r, "y", y, REQ);
    return finish(&r, workspaceSize, executor, WS_NONE);
}
PHASE_TWO(aclnnGeluV2)

/* ---- conversion, reduction, layout */

/* aclnn_cast.h */
aclnnStatus aclnnCastGetWorkspaceSize(const aclTensor *self, const aclDataType dt, aclTensor *out,
                                      uint64_t *workspaceSize, aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnCast");
    tensor(&r, "self", self, REQ);
    dtype(&r, "dtype", dt);
    tensor(&r, "out", out, REQ);
    return finish(&r, workspaceSize, executor, WS_NONE);
}
PHASE_TWO(aclnnCast)

/* aclnn_mean.h */
aclnnStatus aclnnMeanGetWorkspaceSize(const aclTensor *self, const aclIntArray *dim, bool keepDim,
                                      aclDataType dt, aclTensor *out, uint64_t *workspaceSize,
                                      aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnMean");
    tensor(&r, "self", self, REQ);
    ints(&r, "dim", dim, REQ);
    boolean(&r, "keepDim", keepDim);
    dtype(&r, "dtype", dt);
    tensor(&r, "out", out, REQ);
    return finish(&r, workspaceSize, executor, WS_SMALL);
}
PHASE_TWO(aclnnMean)

/* aclnn_reduce_sum.h */
aclnnStatus aclnnReduceSumGetWorkspaceSize(const aclTensor *self, const aclIntArray *dims,
                                           bool keepDims, aclDataType dt, aclTensor *out,
                                           uint64_t *workspaceSize, aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnReduceSum");
    tensor(&r, "self", self, REQ);
    ints(&r, "dims", dims, REQ);
    boolean(&r, "keepDims", keepDims);
    dtype(&r, "dtype", dt);
    tensor(&r, "out", out, REQ);
    return finish(&r, workspaceSize, executor, WS_SMALL);
}
PHASE_TWO(aclnnReduceSum)

/* ---- MoE routing and indexing: aclnn_topk.h, aclnn_sort.h, aclnn_cumsum.h,
 * aclnn_floor_divide.h, aclnn_index_select.h, aclnn_scatter_add.h, aclnn_index_add.h */
aclnnStatus aclnnTopkGetWorkspaceSize(const aclTensor *self, int64_t k, int64_t dim, bool largest,
                                      bool sorted, aclTensor *valuesOut, aclTensor *indicesOut,
                                      uint64_t *workspaceSize, aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnTopk");
    tensor(&r, "self", self, REQ);
    i64(&r, "k", k);
    i64(&r, "dim", dim);
    boolean(&r, "largest", largest);
    boolean(&r, "sorted", sorted);
    tensor(&r, "valuesOut", valuesOut, REQ);
    tensor(&r, "indicesOut", indicesOut, REQ);
    return finish(&r, workspaceSize, executor, WS_SMALL);
}
PHASE_TWO(aclnnTopk)

aclnnStatus aclnnSortGetWorkspaceSize(const aclTensor *self, bool stable, int64_t dim,
                                      bool descending, aclTensor *valuesOut, aclTensor *indicesOut,
                                      uint64_t *workspaceSize, aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnSort");
    tensor(&r, "self", self, REQ);
    boolean(&r, "stable", stable);
    i64(&r, "dim", dim);
    boolean(&r, "descending", descending);
    tensor(&r, "valuesOut", valuesOut, REQ);
    tensor(&r, "indicesOut", indicesOut, REQ);
    return finish(&r, workspaceSize, executor, WS_SMALL);
}
PHASE_TWO(aclnnSort)

aclnnStatus aclnnCumsumGetWorkspaceSize(const aclTensor *self, int64_t dim, aclDataType dt,
                                        aclTensor *out, uint64_t *workspaceSize,
                                        aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnCumsum");
    tensor(&r, "self", self, REQ);
    i64(&r, "dim", dim);
    dtype(&r, "dtype", dt);
    tensor(&r, "out", out, REQ);
    return finish(&r, workspaceSize, executor, WS_SMALL);
}
PHASE_TWO(aclnnCumsum)

BINARY(aclnnFloorDivide, other)

aclnnStatus aclnnIndexSelectGetWorkspaceSize(const aclTensor *self, int64_t dim,
                                             const aclTensor *index, aclTensor *out,
                                             uint64_t *workspaceSize, aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnIndexSelect");
    tensor(&r, "self", self, REQ);
    i64(&r, "dim", dim);
    tensor(&r, "index", index, REQ);
    tensor(&r, "out", out, REQ);
    return finish(&r, workspaceSize, executor, WS_NONE);
}
PHASE_TWO(aclnnIndexSelect)

aclnnStatus aclnnScatterAddGetWorkspaceSize(const aclTensor *self, int64_t dim,
                                            const aclTensor *index, const aclTensor *src,
                                            aclTensor *out, uint64_t *workspaceSize,
                                            aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnScatterAdd");
    tensor(&r, "self", self, REQ);
    i64(&r, "dim", dim);
    tensor(&r, "index", index, REQ);
    tensor(&r, "src", src, REQ);
    tensor(&r, "out", out, REQ);
    return finish(&r, workspaceSize, executor, WS_NONE);
}
PHASE_TWO(aclnnScatterAdd)

aclnnStatus aclnnIndexAddGetWorkspaceSize(const aclTensor *self, const int64_t dim,
                                          const aclTensor *index, const aclTensor *source,
                                          const aclScalar *alpha, aclTensor *out,
                                          uint64_t *workspaceSize, aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnIndexAdd");
    tensor(&r, "self", self, REQ);
    i64(&r, "dim", dim);
    tensor(&r, "index", index, REQ);
    tensor(&r, "source", source, REQ);
    scalar(&r, "alpha", alpha);
    tensor(&r, "out", out, REQ);
    return finish(&r, workspaceSize, executor, WS_NONE);
}
PHASE_TWO(aclnnIndexAdd)

/* aclnn_moe_init_routing_v2.h, aclnn_moe_finalize_routing_v2.h */
aclnnStatus aclnnMoeInitRoutingV2GetWorkspaceSize(
    const aclTensor *x, const aclTensor *expertIdx, int64_t activeNumOptional,
    int64_t expertCapacityOptional, int64_t expertNumOptional, int64_t dropPadModeOptional,
    int64_t expertTokensCountOrCumsumFlagOptional, bool expertTokensBeforeCapacityFlagOptional,
    const aclTensor *expandedXOut, const aclTensor *expandedRowIdxOut,
    const aclTensor *expertTokensCountOrCumsumOutOptional,
    const aclTensor *expertTokensBeforeCapacityOutOptional, uint64_t *workspaceSize,
    aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnMoeInitRoutingV2");
    tensor(&r, "x", x, REQ);
    tensor(&r, "expertIdx", expertIdx, REQ);
    i64(&r, "activeNumOptional", activeNumOptional);
    i64(&r, "expertCapacityOptional", expertCapacityOptional);
    i64(&r, "expertNumOptional", expertNumOptional);
    i64(&r, "dropPadModeOptional", dropPadModeOptional);
    i64(&r, "expertTokensCountOrCumsumFlagOptional", expertTokensCountOrCumsumFlagOptional);
    boolean(&r, "expertTokensBeforeCapacityFlagOptional", expertTokensBeforeCapacityFlagOptional);
    tensor(&r, "expandedXOut", expandedXOut, REQ);
    tensor(&r, "expandedRowIdxOut", expandedRowIdxOut, REQ);
    tensor(&r, "expertTokensCountOrCumsumOutOptional", expertTokensCountOrCumsumOutOptional, OPT);
    tensor(&r, "expertTokensBeforeCapacityOutOptional", expertTokensBeforeCapacityOutOptional, OPT);
    return finish(&r, workspaceSize, executor, WS_SMALL);
}
PHASE_TWO(aclnnMoeInitRoutingV2)

aclnnStatus aclnnMoeFinalizeRoutingV2GetWorkspaceSize(
    const aclTensor *expandedX, const aclTensor *expandedRowIdx, const aclTensor *x1Optional,
    const aclTensor *x2Optional, const aclTensor *biasOptional, const aclTensor *scalesOptional,
    const aclTensor *expertIdxOptional, int64_t dropPadMode, const aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnMoeFinalizeRoutingV2");
    tensor(&r, "expandedX", expandedX, REQ);
    tensor(&r, "expandedRowIdx", expandedRowIdx, REQ);
    tensor(&r, "x1Optional", x1Optional, OPT);
    tensor(&r, "x2Optional", x2Optional, OPT);
    tensor(&r, "biasOptional", biasOptional, OPT);
    tensor(&r, "scalesOptional", scalesOptional, OPT);
    tensor(&r, "expertIdxOptional", expertIdxOptional, OPT);
    i64(&r, "dropPadMode", dropPadMode);
    tensor(&r, "out", out, REQ);
    return finish(&r, workspaceSize, executor, WS_SMALL);
}
PHASE_TWO(aclnnMoeFinalizeRoutingV2)

/* aclnn_moe_gating_top_k_softmax.h ([ops-transformer] moe/moe_gating_top_k_softmax/docs/
 * aclnnMoeGatingTopKSoftmax.md) */
aclnnStatus aclnnMoeGatingTopKSoftmaxGetWorkspaceSize(const aclTensor *x,
                                                      const aclTensor *finishedOptional, int64_t k,
                                                      const aclTensor *yOut,
                                                      const aclTensor *expertIdxOut,
                                                      const aclTensor *rowIdxOut,
                                                      uint64_t *workspaceSize,
                                                      aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnMoeGatingTopKSoftmax");
    tensor(&r, "x", x, REQ);
    tensor(&r, "finishedOptional", finishedOptional, OPT);
    i64(&r, "k", k);
    tensor(&r, "yOut", yOut, REQ);
    tensor(&r, "expertIdxOut", expertIdxOut, REQ);
    tensor(&r, "rowIdxOut", rowIdxOut, REQ);
    return finish(&r, workspaceSize, executor, WS_SMALL);
}
PHASE_TWO(aclnnMoeGatingTopKSoftmax)

/* aclnn_softmax.h */
aclnnStatus aclnnSoftmaxGetWorkspaceSize(const aclTensor *self, int64_t dim, aclTensor *out,
                                         uint64_t *workspaceSize, aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnSoftmax");
    tensor(&r, "self", self, REQ);
    i64(&r, "dim", dim);
    tensor(&r, "out", out, REQ);
    return finish(&r, workspaceSize, executor, WS_SMALL);
}
PHASE_TWO(aclnnSoftmax)

/* aclnn_expand.h */
aclnnStatus aclnnExpandGetWorkspaceSize(const aclTensor *self, const aclIntArray *size,
                                        aclTensor *out, uint64_t *workspaceSize,
                                        aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnExpand");
    tensor(&r, "self", self, REQ);
    ints(&r, "size", size, REQ);
    tensor(&r, "out", out, REQ);
    return finish(&r, workspaceSize, executor, WS_NONE);
}
PHASE_TWO(aclnnExpand)

/* aclnn_permute.h */
aclnnStatus aclnnPermuteGetWorkspaceSize(const aclTensor *self, const aclIntArray *dims,
                                         aclTensor *out, uint64_t *workspaceSize,
                                         aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnPermute");
    tensor(&r, "self", self, REQ);
    ints(&r, "dims", dims, REQ);
    tensor(&r, "out", out, REQ);
    return finish(&r, workspaceSize, executor, WS_NONE);
}
PHASE_TWO(aclnnPermute)

/* aclnn_slice.h */
aclnnStatus aclnnSliceGetWorkspaceSize(const aclTensor *self, int64_t dim, int64_t start,
                                       int64_t end, int64_t step, aclTensor *out,
                                       uint64_t *workspaceSize, aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnSlice");
    tensor(&r, "self", self, REQ);
    i64(&r, "dim", dim);
    i64(&r, "start", start);
    i64(&r, "end", end);
    i64(&r, "step", step);
    tensor(&r, "out", out, REQ);
    return finish(&r, workspaceSize, executor, WS_NONE);
}
PHASE_TWO(aclnnSlice)

/* aclnn_split_with_size.h */
aclnnStatus aclnnSplitWithSizeGetWorkspaceSize(const aclTensor *self, const aclIntArray *splitSize,
                                               int64_t dim, aclTensorList *out,
                                               uint64_t *workspaceSize, aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnSplitWithSize");
    tensor(&r, "self", self, REQ);
    ints(&r, "splitSize", splitSize, REQ);
    i64(&r, "dim", dim);
    list(&r, "out", out, REQ);
    return finish(&r, workspaceSize, executor, WS_NONE);
}
PHASE_TWO(aclnnSplitWithSize)

/* aclnn_cat.h */
aclnnStatus aclnnCatGetWorkspaceSize(const aclTensorList *tensors, int64_t dim, aclTensor *out,
                                     uint64_t *workspaceSize, aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnCat");
    list(&r, "tensors", tensors, REQ);
    i64(&r, "dim", dim);
    tensor(&r, "out", out, REQ);
    return finish(&r, workspaceSize, executor, WS_NONE);
}
PHASE_TWO(aclnnCat)

/* ---- matmul family */

/* aclnn_matmul.h */
aclnnStatus aclnnMatmulGetWorkspaceSize(const aclTensor *self, const aclTensor *mat2,
                                        aclTensor *out, int8_t cubeMathType,
                                        uint64_t *workspaceSize, aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnMatmul");
    tensor(&r, "self", self, REQ);
    tensor(&r, "mat2", mat2, REQ);
    tensor(&r, "out", out, REQ);
    i8(&r, "cubeMathType", cubeMathType);
    return finish(&r, workspaceSize, executor, WS_SMALL);
}
PHASE_TWO(aclnnMatmul)

/* aclnn_addmm.h */
aclnnStatus aclnnAddmmGetWorkspaceSize(const aclTensor *self, const aclTensor *mat1,
                                       const aclTensor *mat2, const aclScalar *beta,
                                       const aclScalar *alpha, aclTensor *out,
                                       int8_t cubeMathType, uint64_t *workspaceSize,
                                       aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnAddmm");
    tensor(&r, "self", self, REQ);
    tensor(&r, "mat1", mat1, REQ);
    tensor(&r, "mat2", mat2, REQ);
    scalar(&r, "beta", beta);
    scalar(&r, "alpha", alpha);
    tensor(&r, "out", out, REQ);
    i8(&r, "cubeMathType", cubeMathType);
    return finish(&r, workspaceSize, executor, WS_SMALL);
}
PHASE_TWO(aclnnAddmm)

/* aclnn_quant_matmul_v4.h */
aclnnStatus aclnnQuantMatmulV4GetWorkspaceSize(const aclTensor *x1, const aclTensor *x2,
                                               const aclTensor *scale, const aclTensor *offset,
                                               const aclTensor *pertokenScaleOptional,
                                               const aclTensor *bias, bool transposeX1,
                                               bool transposeX2, const aclTensor *out,
                                               uint64_t *workspaceSize,
                                               aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnQuantMatmulV4");
    tensor(&r, "x1", x1, REQ);
    tensor(&r, "x2", x2, REQ);
    tensor(&r, "scale", scale, REQ);
    tensor(&r, "offset", offset, OPT);
    tensor(&r, "pertokenScaleOptional", pertokenScaleOptional, OPT);
    tensor(&r, "bias", bias, OPT);
    boolean(&r, "transposeX1", transposeX1);
    boolean(&r, "transposeX2", transposeX2);
    tensor(&r, "out", out, REQ);
    return finish(&r, workspaceSize, executor, WS_SMALL);
}
PHASE_TWO(aclnnQuantMatmulV4)

/* ops-nn matmul/quant_batch_matmul_v3: aclnnQuantMatmulWeightNz.md */
aclnnStatus aclnnQuantMatmulWeightNzGetWorkspaceSize(
    const aclTensor *x1, const aclTensor *x2, const aclTensor *x1Scale, const aclTensor *x2Scale,
    const aclTensor *yScale, const aclTensor *x1Offset, const aclTensor *x2Offset,
    const aclTensor *yOffset, const aclTensor *bias, bool transposeX1, bool transposeX2,
    int64_t groupSize, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnQuantMatmulWeightNz");
    tensor(&r, "x1", x1, REQ);
    tensor(&r, "x2", x2, REQ);
    tensor(&r, "x1Scale", x1Scale, OPT);
    tensor(&r, "x2Scale", x2Scale, REQ);
    tensor(&r, "yScale", yScale, OPT);
    tensor(&r, "x1Offset", x1Offset, OPT);
    tensor(&r, "x2Offset", x2Offset, OPT);
    tensor(&r, "yOffset", yOffset, OPT);
    tensor(&r, "bias", bias, OPT);
    boolean(&r, "transposeX1", transposeX1);
    boolean(&r, "transposeX2", transposeX2);
    i64(&r, "groupSize", groupSize);
    tensor(&r, "out", out, REQ);
    return finish(&r, workspaceSize, executor, WS_SMALL);
}
PHASE_TWO(aclnnQuantMatmulWeightNz)

/* ops-nn matmul/quant_batch_matmul_v4: aclnn_quant_matmul_v5.h */
aclnnStatus aclnnQuantMatmulV5GetWorkspaceSize(const aclTensor *x1, const aclTensor *x2,
                                               const aclTensor *x1Scale, const aclTensor *x2Scale,
                                               const aclTensor *yScale, const aclTensor *x1Offset,
                                               const aclTensor *x2Offset, const aclTensor *yOffset,
                                               const aclTensor *bias, bool transposeX1,
                                               bool transposeX2, int64_t groupSize,
                                               aclTensor *out, uint64_t *workspaceSize,
                                               aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnQuantMatmulV5");
    tensor(&r, "x1", x1, REQ);
    tensor(&r, "x2", x2, REQ);
    tensor(&r, "x1Scale", x1Scale, OPT);
    tensor(&r, "x2Scale", x2Scale, REQ);
    tensor(&r, "yScale", yScale, OPT);
    tensor(&r, "x1Offset", x1Offset, OPT);
    tensor(&r, "x2Offset", x2Offset, OPT);
    tensor(&r, "yOffset", yOffset, OPT);
    tensor(&r, "bias", bias, OPT);
    boolean(&r, "transposeX1", transposeX1);
    boolean(&r, "transposeX2", transposeX2);
    i64(&r, "groupSize", groupSize);
    tensor(&r, "out", out, REQ);
    return finish(&r, workspaceSize, executor, WS_SMALL);
}
PHASE_TWO(aclnnQuantMatmulV5)

/* aclnn_grouped_matmul_v4.h */
aclnnStatus aclnnGroupedMatmulV4GetWorkspaceSize(
    const aclTensorList *x, const aclTensorList *weight, const aclTensorList *biasOptional,
    const aclTensorList *scaleOptional, const aclTensorList *offsetOptional,
    const aclTensorList *antiquantScaleOptional, const aclTensorList *antiquantOffsetOptional,
    const aclTensorList *perTokenScaleOptional, const aclTensor *groupListOptional,
    const aclTensorList *activationInputOptional,
    const aclTensorList *activationQuantScaleOptional,
    const aclTensorList *activationQuantOffsetOptional, int64_t splitItem, int64_t groupType,
    int64_t groupListType, int64_t actType, aclTensorList *out,
    aclTensorList *activationFeatureOutOptional, aclTensorList *dynQuantScaleOutOptional,
    uint64_t *workspaceSize, aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnGroupedMatmulV4");
    list(&r, "x", x, REQ);
    list(&r, "weight", weight, REQ);
    list(&r, "biasOptional", biasOptional, OPT);
    list(&r, "scaleOptional", scaleOptional, OPT);
    list(&r, "offsetOptional", offsetOptional, OPT);
    list(&r, "antiquantScaleOptional", antiquantScaleOptional, OPT);
    list(&r, "antiquantOffsetOptional", antiquantOffsetOptional, OPT);
    list(&r, "perTokenScaleOptional", perTokenScaleOptional, OPT);
    tensor(&r, "groupListOptional", groupListOptional, OPT);
    list(&r, "activationInputOptional", activationInputOptional, OPT);
    list(&r, "activationQuantScaleOptional", activationQuantScaleOptional, OPT);
    list(&r, "activationQuantOffsetOptional", activationQuantOffsetOptional, OPT);
    i64(&r, "splitItem", splitItem);
    i64(&r, "groupType", groupType);
    i64(&r, "groupListType", groupListType);
    i64(&r, "actType", actType);
    list(&r, "out", out, REQ);
    list(&r, "activationFeatureOutOptional", activationFeatureOutOptional, OPT);
    list(&r, "dynQuantScaleOutOptional", dynQuantScaleOutOptional, OPT);
    return finish(&r, workspaceSize, executor, WS_LARGE);
}
PHASE_TWO(aclnnGroupedMatmulV4)

/* ops-nn matmul/fused_quant_mat_mul: aclnn_fused_quant_matmul.h */
aclnnStatus aclnnFusedQuantMatmulGetWorkspaceSize(
    const aclTensor *x1, const aclTensor *x2, const aclTensor *x1Scale, const aclTensor *x2Scale,
    const aclTensor *yScaleOptional, const aclTensor *x1OffsetOptional,
    const aclTensor *x2OffsetOptional, const aclTensor *yOffsetOptional,
    const aclTensor *biasOptional, const aclTensor *x3Optional, const char *fusedOpType,
    int64_t groupSizeOptional, aclTensor *out, uint64_t *workspaceSize,
    aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnFusedQuantMatmul");
    tensor(&r, "x1", x1, REQ);
    tensor(&r, "x2", x2, REQ);
    tensor(&r, "x1Scale", x1Scale, REQ);
    tensor(&r, "x2Scale", x2Scale, REQ);
    tensor(&r, "yScaleOptional", yScaleOptional, OPT);
    tensor(&r, "x1OffsetOptional", x1OffsetOptional, OPT);
    tensor(&r, "x2OffsetOptional", x2OffsetOptional, OPT);
    tensor(&r, "yOffsetOptional", yOffsetOptional, OPT);
    tensor(&r, "biasOptional", biasOptional, OPT);
    tensor(&r, "x3Optional", x3Optional, OPT);
    str(&r, "fusedOpType", fusedOpType, REQ);
    i64(&r, "groupSizeOptional", groupSizeOptional);
    tensor(&r, "out", out, REQ);
    return finish(&r, workspaceSize, executor, WS_SMALL);
}
PHASE_TWO(aclnnFusedQuantMatmul)

/* ops-nn matmul/fused_mat_mul: aclnn_fused_matmul.h */
aclnnStatus aclnnFusedMatmulGetWorkspaceSize(const aclTensor *x1, const aclTensor *x2,
                                             const aclTensor *bias, const aclTensor *x3,
                                             const char *fusedOpType, int8_t cubeMathType,
                                             const aclTensor *y, uint64_t *workspaceSize,
                                             aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnFusedMatmul");
    tensor(&r, "x1", x1, REQ);
    tensor(&r, "x2", x2, REQ);
    tensor(&r, "bias", bias, OPT);
    tensor(&r, "x3", x3, OPT);
    str(&r, "fusedOpType", fusedOpType, REQ);
    i8(&r, "cubeMathType", cubeMathType);
    tensor(&r, "y", y, REQ);
    return finish(&r, workspaceSize, executor, WS_SMALL);
}
PHASE_TWO(aclnnFusedMatmul)

/* aclnn_grouped_matmul_swiglu_quant.h */
aclnnStatus aclnnGroupedMatmulSwigluQuantGetWorkspaceSize(
    const aclTensor *x, const aclTensor *weight, const aclTensor *bias, const aclTensor *offset,
    const aclTensor *weightScale, const aclTensor *xScale, const aclTensor *groupList,
    aclTensor *output, aclTensor *outputScale, aclTensor *outputOffset, uint64_t *workspaceSize,
    aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnGroupedMatmulSwigluQuant");
    tensor(&r, "x", x, REQ);
    tensor(&r, "weight", weight, REQ);
    tensor(&r, "bias", bias, OPT);
    tensor(&r, "offset", offset, OPT);
    tensor(&r, "weightScale", weightScale, REQ);
    tensor(&r, "xScale", xScale, REQ);
    tensor(&r, "groupList", groupList, REQ);
    tensor(&r, "output", output, REQ);
    tensor(&r, "outputScale", outputScale, REQ);
    tensor(&r, "outputOffset", outputOffset, REQ);
    return finish(&r, workspaceSize, executor, WS_LARGE);
}
PHASE_TWO(aclnnGroupedMatmulSwigluQuant)

/* ops-transformer gmm/grouped_matmul_swiglu_quant: aclnnGroupedMatmulSwigluQuantWeightNZ.md (the
 * arguments of aclnnGroupedMatmulSwigluQuant; the weight is FRACTAL_NZ) */
aclnnStatus aclnnGroupedMatmulSwigluQuantWeightNZGetWorkspaceSize(
    const aclTensor *x, const aclTensor *weight, const aclTensor *bias, const aclTensor *offset,
    const aclTensor *weightScale, const aclTensor *xScale, const aclTensor *groupList,
    aclTensor *output, aclTensor *outputScale, aclTensor *outputOffset, uint64_t *workspaceSize,
    aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnGroupedMatmulSwigluQuantWeightNZ");
    tensor(&r, "x", x, REQ);
    tensor(&r, "weight", weight, REQ);
    tensor(&r, "bias", bias, OPT);
    tensor(&r, "offset", offset, OPT);
    tensor(&r, "weightScale", weightScale, REQ);
    tensor(&r, "xScale", xScale, REQ);
    tensor(&r, "groupList", groupList, REQ);
    tensor(&r, "output", output, REQ);
    tensor(&r, "outputScale", outputScale, REQ);
    tensor(&r, "outputOffset", outputOffset, OPT);
    return finish(&r, workspaceSize, executor, WS_LARGE);
}
PHASE_TWO(aclnnGroupedMatmulSwigluQuantWeightNZ)

/* ops-transformer gmm/grouped_matmul_swiglu_quant_v2: aclnn_grouped_matmul_swiglu_quant_v2.h */
aclnnStatus aclnnGroupedMatmulSwigluQuantV2GetWorkspaceSize(
    const aclTensor *x, const aclTensorList *weight, const aclTensorList *weightScale,
    const aclTensorList *weightAssistMatrix, const aclTensor *bias, const aclTensor *xScale,
    const aclTensor *smoothScale, const aclTensor *groupList, int64_t dequantMode,
    int64_t dequantDtype, int64_t quantMode, int64_t groupListType,
    const aclIntArray *tuningConfigOptional, aclTensor *output, aclTensor *outputScale,
    uint64_t *workspaceSize, aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnGroupedMatmulSwigluQuantV2");
    tensor(&r, "x", x, REQ);
    list(&r, "weight", weight, REQ);
    list(&r, "weightScale", weightScale, REQ);
    list(&r, "weightAssistMatrix", weightAssistMatrix, OPT);
    tensor(&r, "bias", bias, OPT);
    tensor(&r, "xScale", xScale, REQ);
    tensor(&r, "smoothScale", smoothScale, OPT);
    tensor(&r, "groupList", groupList, REQ);
    i64(&r, "dequantMode", dequantMode);
    i64(&r, "dequantDtype", dequantDtype);
    i64(&r, "quantMode", quantMode);
    i64(&r, "groupListType", groupListType);
    ints(&r, "tuningConfigOptional", tuningConfigOptional, OPT);
    tensor(&r, "output", output, REQ);
    tensor(&r, "outputScale", outputScale, REQ);
    return finish(&r, workspaceSize, executor, WS_LARGE);
}
PHASE_TWO(aclnnGroupedMatmulSwigluQuantV2)

/* ---- normalisation, rotary embedding, attention, quantisation */

/* aclnn_rms_norm.h */
aclnnStatus aclnnRmsNormGetWorkspaceSize(const aclTensor *x, const aclTensor *gamma,
                                         double epsilon, const aclTensor *yOut,
                                         const aclTensor *rstdOut, uint64_t *workspaceSize,
                                         aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnRmsNorm");
    tensor(&r, "x", x, REQ);
    tensor(&r, "gamma", gamma, REQ);
    f64(&r, "epsilon", epsilon);
    tensor(&r, "yOut", yOut, REQ);
    tensor(&r, "rstdOut", rstdOut, REQ);
    return finish(&r, workspaceSize, executor, WS_SMALL);
}
PHASE_TWO(aclnnRmsNorm)

/* aclnn_layer_norm.h */
aclnnStatus aclnnLayerNormGetWorkspaceSize(const aclTensor *input,
                                           const aclIntArray *normalizedShape,
                                           const aclTensor *weightOptional,
                                           const aclTensor *biasOptional, double eps,
                                           aclTensor *out, aclTensor *meanOutOptional,
                                           aclTensor *rstdOutOptional, uint64_t *workspaceSize,
                                           aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnLayerNorm");
    tensor(&r, "input", input, REQ);
    ints(&r, "normalizedShape", normalizedShape, REQ);
    tensor(&r, "weightOptional", weightOptional, OPT);
    tensor(&r, "biasOptional", biasOptional, OPT);
    f64(&r, "eps", eps);
    tensor(&r, "out", out, REQ);
    tensor(&r, "meanOutOptional", meanOutOptional, OPT);
    tensor(&r, "rstdOutOptional", rstdOutOptional, OPT);
    return finish(&r, workspaceSize, executor, WS_SMALL);
}
PHASE_TWO(aclnnLayerNorm)

/* ops-nn norm/ada_layer_norm: aclnn_ada_layer_norm.h */
aclnnStatus aclnnAdaLayerNormGetWorkspaceSize(const aclTensor *x, const aclTensor *scale,
                                              const aclTensor *shift,
                                              const aclTensor *weightOptional,
                                              const aclTensor *biasOptional, double epsilon,
                                              aclTensor *out, uint64_t *workspaceSize,
                                              aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnAdaLayerNorm");
    tensor(&r, "x", x, REQ);
    tensor(&r, "scale", scale, REQ);
    tensor(&r, "shift", shift, REQ);
    tensor(&r, "weightOptional", weightOptional, OPT);
    tensor(&r, "biasOptional", biasOptional, OPT);
    f64(&r, "epsilon", epsilon);
    tensor(&r, "out", out, REQ);
    return finish(&r, workspaceSize, executor, WS_SMALL);
}
PHASE_TWO(aclnnAdaLayerNorm)

/* ops-transformer posembedding/rotary_position_embedding: aclnn_rotary_position_embedding.h */
aclnnStatus aclnnRotaryPositionEmbeddingGetWorkspaceSize(const aclTensor *x, const aclTensor *cos,
                                                         const aclTensor *sin, int64_t mode,
                                                         aclTensor *out, uint64_t *workspaceSize,
                                                         aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnRotaryPositionEmbedding");
    tensor(&r, "x", x, REQ);
    tensor(&r, "cos", cos, REQ);
    tensor(&r, "sin", sin, REQ);
    i64(&r, "mode", mode);
    tensor(&r, "out", out, REQ);
    return finish(&r, workspaceSize, executor, WS_SMALL);
}
PHASE_TWO(aclnnRotaryPositionEmbedding)

/* aclnn_fused_infer_attention_score_v2.h */
aclnnStatus aclnnFusedInferAttentionScoreV2GetWorkspaceSize(
    const aclTensor *query, const aclTensorList *key, const aclTensorList *value,
    const aclTensor *pseShiftOptional, const aclTensor *attenMaskOptional,
    const aclIntArray *actualSeqLengthsOptional, const aclIntArray *actualSeqLengthsKvOptional,
    const aclTensor *deqScale1Optional, const aclTensor *quantScale1Optional,
    const aclTensor *deqScale2Optional, const aclTensor *quantScale2Optional,
    const aclTensor *quantOffset2Optional, const aclTensor *antiquantScaleOptional,
    const aclTensor *antiquantOffsetOptional, const aclTensor *blockTableOptional,
    const aclTensor *queryPaddingSizeOptional, const aclTensor *kvPaddingSizeOptional,
    const aclTensor *keyAntiquantScaleOptional, const aclTensor *keyAntiquantOffsetOptional,
    const aclTensor *valueAntiquantScaleOptional, const aclTensor *valueAntiquantOffsetOptional,
    const aclTensor *keySharedPrefixOptional, const aclTensor *valueSharedPrefixOptional,
    const aclIntArray *actualSharedPrefixLenOptional, int64_t numHeads, double scaleValue,
    int64_t preTokens, int64_t nextTokens, char *inputLayout, int64_t numKeyValueHeads,
    int64_t sparseMode, int64_t innerPrecise, int64_t blockSize, int64_t antiquantMode,
    bool softmaxLseFlag, int64_t keyAntiquantMode, int64_t valueAntiquantMode,
    const aclTensor *attentionOut, const aclTensor *softmaxLse, uint64_t *workspaceSize,
    aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnFusedInferAttentionScoreV2");
    tensor(&r, "query", query, REQ);
    list(&r, "key", key, REQ);
    list(&r, "value", value, REQ);
    tensor(&r, "pseShiftOptional", pseShiftOptional, OPT);
    tensor(&r, "attenMaskOptional", attenMaskOptional, OPT);
    ints(&r, "actualSeqLengthsOptional", actualSeqLengthsOptional, OPT);
    ints(&r, "actualSeqLengthsKvOptional", actualSeqLengthsKvOptional, OPT);
    tensor(&r, "deqScale1Optional", deqScale1Optional, OPT);
    tensor(&r, "quantScale1Optional", quantScale1Optional, OPT);
    tensor(&r, "deqScale2Optional", deqScale2Optional, OPT);
    tensor(&r, "quantScale2Optional", quantScale2Optional, OPT);
    tensor(&r, "quantOffset2Optional", quantOffset2Optional, OPT);
    tensor(&r, "antiquantScaleOptional", antiquantScaleOptional, OPT);
    tensor(&r, "antiquantOffsetOptional", antiquantOffsetOptional, OPT);
    tensor(&r, "blockTableOptional", blockTableOptional, OPT);
    tensor(&r, "queryPaddingSizeOptional", queryPaddingSizeOptional, OPT);
    tensor(&r, "kvPaddingSizeOptional", kvPaddingSizeOptional, OPT);
    tensor(&r, "keyAntiquantScaleOptional", keyAntiquantScaleOptional, OPT);
    tensor(&r, "keyAntiquantOffsetOptional", keyAntiquantOffsetOptional, OPT);
    tensor(&r, "valueAntiquantScaleOptional", valueAntiquantScaleOptional, OPT);
    tensor(&r, "valueAntiquantOffsetOptional", valueAntiquantOffsetOptional, OPT);
    tensor(&r, "keySharedPrefixOptional", keySharedPrefixOptional, OPT);
    tensor(&r, "valueSharedPrefixOptional", valueSharedPrefixOptional, OPT);
    ints(&r, "actualSharedPrefixLenOptional", actualSharedPrefixLenOptional, OPT);
    i64(&r, "numHeads", numHeads);
    f64(&r, "scaleValue", scaleValue);
    i64(&r, "preTokens", preTokens);
    i64(&r, "nextTokens", nextTokens);
    str(&r, "inputLayout", inputLayout, REQ);
    i64(&r, "numKeyValueHeads", numKeyValueHeads);
    i64(&r, "sparseMode", sparseMode);
    i64(&r, "innerPrecise", innerPrecise);
    i64(&r, "blockSize", blockSize);
    i64(&r, "antiquantMode", antiquantMode);
    boolean(&r, "softmaxLseFlag", softmaxLseFlag);
    i64(&r, "keyAntiquantMode", keyAntiquantMode);
    i64(&r, "valueAntiquantMode", valueAntiquantMode);
    tensor(&r, "attentionOut", attentionOut, REQ);
    /* documented: with softmaxLseFlag false, softmaxLse may be NULL */
    tensor(&r, "softmaxLse", softmaxLse, !softmaxLseFlag);
    return finish(&r, workspaceSize, executor, WS_LARGE);
}
PHASE_TWO(aclnnFusedInferAttentionScoreV2)

/* ops-transformer attention/fused_infer_attention_score: aclnnFusedInferAttentionScoreV5.md */
aclnnStatus aclnnFusedInferAttentionScoreV5GetWorkspaceSize(
    const aclTensor *query, const aclTensorList *key, const aclTensorList *value,
    const aclTensor *pseShiftOptional, const aclTensor *attenMaskOptional,
    const aclIntArray *actualSeqLengthsOptional, const aclIntArray *actualSeqLengthsKvOptional,
    const aclTensor *deqScale1Optional, const aclTensor *quantScale1Optional,
    const aclTensor *deqScale2Optional, const aclTensor *quantScale2Optional,
    const aclTensor *quantOffset2Optional, const aclTensor *antiquantScaleOptional,
    const aclTensor *antiquantOffsetOptional, const aclTensor *blockTableOptional,
    const aclTensor *queryPaddingSizeOptional, const aclTensor *kvPaddingSizeOptional,
    const aclTensor *keyAntiquantScaleOptional, const aclTensor *keyAntiquantOffsetOptional,
    const aclTensor *valueAntiquantScaleOptional, const aclTensor *valueAntiquantOffsetOptional,
    const aclTensor *keySharedPrefixOptional, const aclTensor *valueSharedPrefixOptional,
    const aclIntArray *actualSharedPrefixLenOptional, const aclTensor *queryRopeOptional,
    const aclTensor *keyRopeOptional, const aclTensor *keyRopeAntiquantScaleOptional,
    const aclTensor *dequantScaleQueryOptional, const aclTensor *learnableSinkOptional,
    const aclIntArray *qStartIdxOptional, const aclIntArray *kvStartIdxOptional,
    int64_t numHeads, double scaleValue,
    int64_t preTokens, int64_t nextTokens, char *inputLayout, int64_t numKeyValueHeads,
    int64_t sparseMode, int64_t innerPrecise, int64_t blockSize, int64_t antiquantMode,
    bool softmaxLseFlag, int64_t keyAntiquantMode, int64_t valueAntiquantMode,
    int64_t queryQuantMode, int64_t pseType, const aclTensor *attentionOut, const aclTensor *softmaxLse, uint64_t *workspaceSize,
    aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnFusedInferAttentionScoreV5");
    tensor(&r, "query", query, REQ);
    list(&r, "key", key, REQ);
    list(&r, "value", value, REQ);
    tensor(&r, "pseShiftOptional", pseShiftOptional, OPT);
    tensor(&r, "attenMaskOptional", attenMaskOptional, OPT);
    ints(&r, "actualSeqLengthsOptional", actualSeqLengthsOptional, OPT);
    ints(&r, "actualSeqLengthsKvOptional", actualSeqLengthsKvOptional, OPT);
    tensor(&r, "deqScale1Optional", deqScale1Optional, OPT);
    tensor(&r, "quantScale1Optional", quantScale1Optional, OPT);
    tensor(&r, "deqScale2Optional", deqScale2Optional, OPT);
    tensor(&r, "quantScale2Optional", quantScale2Optional, OPT);
    tensor(&r, "quantOffset2Optional", quantOffset2Optional, OPT);
    tensor(&r, "antiquantScaleOptional", antiquantScaleOptional, OPT);
    tensor(&r, "antiquantOffsetOptional", antiquantOffsetOptional, OPT);
    tensor(&r, "blockTableOptional", blockTableOptional, OPT);
    tensor(&r, "queryPaddingSizeOptional", queryPaddingSizeOptional, OPT);
    tensor(&r, "kvPaddingSizeOptional", kvPaddingSizeOptional, OPT);
    tensor(&r, "keyAntiquantScaleOptional", keyAntiquantScaleOptional, OPT);
    tensor(&r, "keyAntiquantOffsetOptional", keyAntiquantOffsetOptional, OPT);
    tensor(&r, "valueAntiquantScaleOptional", valueAntiquantScaleOptional, OPT);
    tensor(&r, "valueAntiquantOffsetOptional", valueAntiquantOffsetOptional, OPT);
    tensor(&r, "keySharedPrefixOptional", keySharedPrefixOptional, OPT);
    tensor(&r, "valueSharedPrefixOptional", valueSharedPrefixOptional, OPT);
    ints(&r, "actualSharedPrefixLenOptional", actualSharedPrefixLenOptional, OPT);
    tensor(&r, "queryRopeOptional", queryRopeOptional, OPT);
    tensor(&r, "keyRopeOptional", keyRopeOptional, OPT);
    tensor(&r, "keyRopeAntiquantScaleOptional", keyRopeAntiquantScaleOptional, OPT);
    tensor(&r, "dequantScaleQueryOptional", dequantScaleQueryOptional, OPT);
    tensor(&r, "learnableSinkOptional", learnableSinkOptional, OPT);
    ints(&r, "qStartIdxOptional", qStartIdxOptional, OPT);
    ints(&r, "kvStartIdxOptional", kvStartIdxOptional, OPT);
    i64(&r, "numHeads", numHeads);
    f64(&r, "scaleValue", scaleValue);
    i64(&r, "preTokens", preTokens);
    i64(&r, "nextTokens", nextTokens);
    str(&r, "inputLayout", inputLayout, REQ);
    i64(&r, "numKeyValueHeads", numKeyValueHeads);
    i64(&r, "sparseMode", sparseMode);
    i64(&r, "innerPrecise", innerPrecise);
    i64(&r, "blockSize", blockSize);
    i64(&r, "antiquantMode", antiquantMode);
    boolean(&r, "softmaxLseFlag", softmaxLseFlag);
    i64(&r, "keyAntiquantMode", keyAntiquantMode);
    i64(&r, "valueAntiquantMode", valueAntiquantMode);
    i64(&r, "queryQuantMode", queryQuantMode);
    i64(&r, "pseType", pseType);
    tensor(&r, "attentionOut", attentionOut, REQ);
    /* documented: with softmaxLseFlag false, softmaxLse may be NULL */
    tensor(&r, "softmaxLse", softmaxLse, !softmaxLseFlag);
    return finish(&r, workspaceSize, executor, WS_LARGE);
}
PHASE_TWO(aclnnFusedInferAttentionScoreV5)

/* aclnn_dynamic_quant.h */
aclnnStatus aclnnDynamicQuantGetWorkspaceSize(const aclTensor *x,
                                              const aclTensor *smoothScalesOptional,
                                              const aclTensor *yOut, const aclTensor *scaleOut,
                                              uint64_t *workspaceSize, aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnDynamicQuant");
    tensor(&r, "x", x, REQ);
    tensor(&r, "smoothScalesOptional", smoothScalesOptional, OPT);
    tensor(&r, "yOut", yOut, REQ);
    tensor(&r, "scaleOut", scaleOut, REQ);
    return finish(&r, workspaceSize, executor, WS_SMALL);
}
PHASE_TWO(aclnnDynamicQuant)

/* ---- gated activations */

/* aclnn_swi_glu.h */
aclnnStatus aclnnSwiGluGetWorkspaceSize(const aclTensor *x, int64_t dim, const aclTensor *out,
                                        uint64_t *workspaceSize, aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnSwiGlu");
    tensor(&r, "x", x, REQ);
    i64(&r, "dim", dim);
    tensor(&r, "out", out, REQ);
    return finish(&r, workspaceSize, executor, WS_SMALL);
}
PHASE_TWO(aclnnSwiGlu)

/* aclnn_gelu_mul.h */
aclnnStatus aclnnGeluMulGetWorkspaceSize(const aclTensor *input, char *approximateOptional,
                                         const aclTensor *out, uint64_t *workspaceSize,
                                         aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnGeluMul");
    tensor(&r, "input", input, REQ);
    str(&r, "approximateOptional", approximateOptional, OPT);
    tensor(&r, "out", out, REQ);
    return finish(&r, workspaceSize, executor, WS_SMALL);
}
PHASE_TWO(aclnnGeluMul)

/* hiascend aclnnKvRmsNormRopeCache (with the pointer out-parameters of every aclnn op) */
aclnnStatus aclnnKvRmsNormRopeCacheGetWorkspaceSize(
    const aclTensor *kv, const aclTensor *gamma, const aclTensor *cos, const aclTensor *sin,
    const aclTensor *index, aclTensor *kCacheRef, aclTensor *ckvCacheRef,
    const aclTensor *kRopeScaleOptional, const aclTensor *ckvScaleOptional,
    const aclTensor *kRopeOffsetOptional, const aclTensor *cKvOffsetOptional, double epsilon,
    char *cacheModeOptional, bool isOutputKv, aclTensor *kRopeOut, aclTensor *cKvOut,
    uint64_t *workspaceSize, aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnKvRmsNormRopeCache");
    tensor(&r, "kv", kv, REQ);
    tensor(&r, "gamma", gamma, REQ);
    tensor(&r, "cos", cos, REQ);
    tensor(&r, "sin", sin, REQ);
    tensor(&r, "index", index, REQ);
    tensor(&r, "kCacheRef", kCacheRef, REQ);
    tensor(&r, "ckvCacheRef", ckvCacheRef, REQ);
    tensor(&r, "kRopeScaleOptional", kRopeScaleOptional, OPT);
    tensor(&r, "ckvScaleOptional", ckvScaleOptional, OPT);
    tensor(&r, "kRopeOffsetOptional", kRopeOffsetOptional, OPT);
    tensor(&r, "cKvOffsetOptional", cKvOffsetOptional, OPT);
    f64(&r, "epsilon", epsilon);
    str(&r, "cacheModeOptional", cacheModeOptional, OPT);
    boolean(&r, "isOutputKv", isOutputKv);
    tensor(&r, "kRopeOut", kRopeOut, REQ);
    tensor(&r, "cKvOut", cKvOut, REQ);
    return finish(&r, workspaceSize, executor, WS_SMALL);
}
PHASE_TWO(aclnnKvRmsNormRopeCache)

/* aclnn_copy.h: selfRef = src (broadcast and cast allowed by the documentation; the runtime
 * uses it for same-shape, same-type device copies between strided and contiguous views). */
aclnnStatus aclnnInplaceCopyGetWorkspaceSize(aclTensor *selfRef, const aclTensor *src,
                                             uint64_t *workspaceSize, aclOpExecutor **executor) {
    Rec r;
    begin(&r, "aclnnInplaceCopy");
    tensor(&r, "selfRef", selfRef, REQ);
    tensor(&r, "src", src, REQ);
    if (selfRef != NULL && src != NULL && magic_of(selfRef) == MAGIC_TENSOR &&
        magic_of(src) == MAGIC_TENSOR) {
        bool same = selfRef->dtype == src->dtype && selfRef->ndim == src->ndim &&
                    standin_dtype_bits(src->dtype) >= 8;
        for (uint64_t i = 0; same && i < src->ndim; i++) {
            same = selfRef->dims[i] == src->dims[i];
        }
        if (!same) {
            bad(&r, "src", "the stand-in copies only same-dtype, same-dims, whole-byte tensors");
        }
    }
    return finish(&r, workspaceSize, executor, WS_NONE);
}

/* The one operator the stand-in computes itself: a strided element copy (no callback needed,
 * so that in-place tensors keep their bytes in protocol-only runs too). */
aclnnStatus aclnnInplaceCopy(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
                             aclrtStream stream) {
    const aclTensor *dst = NULL, *src = NULL;
    /* Read before run() spends the executor. */
    if (executor != NULL && executor->magic == MAGIC_EXEC && executor->nargs == 2) {
        dst = executor->args[0].tensor;
        src = executor->args[1].tensor;
    }
    aclnnStatus status = run("aclnnInplaceCopy", workspace, workspaceSize, executor, stream);
    if (status != ACLNN_SUCCESS || dst == NULL || src == NULL) {
        return status;
    }
    size_t elem = standin_dtype_bits(src->dtype) / 8;
    int64_t index[STANDIN_MAX_DIMS] = {0};
    int64_t total = 1;
    for (uint64_t k = 0; k < src->ndim; k++) {
        total *= src->dims[k];
    }
    for (int64_t n = 0; n < total; n++) {
        int64_t s = src->offset, d = dst->offset;
        for (uint64_t k = 0; k < src->ndim; k++) {
            s += index[k] * src->strides[k];
            d += index[k] * dst->strides[k];
        }
        memcpy((char *)dst->data + d * elem, (const char *)src->data + s * elem, elem);
        for (uint64_t k = src->ndim; k-- > 0;) {
            if (++index[k] < src->dims[k]) {
                break;
            }
            index[k] = 0;
        }
    }
    return ACLNN_SUCCESS;
}

/* Stand-in only: executors handed out by a phase one and not yet run, for protocol checks. */
int64_t dit_standin_live(void) {
    return live_executors;
}
