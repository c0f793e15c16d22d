//! The kernel table: the one place that says which aclnn operator runs each dit op, and the C
//! signature of its two-phase call as data (argument kinds in order, where each argument comes
//! from, and how a dit attribute is encoded for it).
//!
//! Every aclnn operator is called in two phases (CANN's "两段式接口"):
//!
//! ```c
//! aclnnStatus aclnnXxxGetWorkspaceSize(<args in the order of `Call::args`>,
//!                                      uint64_t *workspaceSize, aclOpExecutor **executor);
//! aclnnStatus aclnnXxx(void *workspace, uint64_t workspaceSize, aclOpExecutor *executor,
//!                      aclrtStream stream);
//! ```
//!
//! `Call::args` lists only the arguments before `workspaceSize`; the last two, and the whole
//! second phase, are the same for every operator. No operator here has a fixed workspace: each
//! call asks phase one, and the backend allocates device memory only when the answer is > 0
//! (what the CANN samples do). So "needs a workspace" is a run-time answer, never table data.
//!
//! Where the prototypes come from (checked argument by argument; each entry names its file):
//! - `[8.1.RC1] aclnn_x.h`: the CANN 8.1.RC1 toolkit headers,
//!   `opp/built-in/op_impl/ai_core/tbe/op_api/include/aclnnop/aclnn_x.h`, as mirrored in the
//!   public repository github.com/leideng/CANN-8.1.RC1 (`Ascend/ascend-toolkit/8.1.RC1/...`).
//! - `[ops-nn] path`, `[ops-math] path`, `[ops-transformer] path`: CANN's open operator
//!   repositories, gitcode.com/cann/ops-nn (GitHub mirror hicann/ops-nn, 2026-08),
//!   gitcode.com/cann/ops-math (hicann/ops-math), gitcode.com/cann/ops-transformer (mirrors
//!   hicann/ops-transformer, 2025-11, and repo-mirror-test/ops-transformer, 2025-12). These are
//!   for operators newer than 8.1.RC1; where the repository also ships the op_api header the
//!   entry names both and they agree.
//! - `[hiascend] url`: Huawei's CANN API reference pages (aolapi).
//!
//! The runtime API (aclInit, aclrtMalloc, aclCreateTensor, ...) is declared in `cann::ffi`
//! from `acl/acl.h`, `acl/acl_rt.h`, `acl/acl_base.h` and `aclnn/acl_meta.h` of the same
//! 8.1.RC1 toolkit.

use crate::attrs::{AttrValue, Attrs};
use crate::contracts::{
    self, Check, Format, Rule, ACLNN_ERR_PARAM_INVALID as INVALID,
    ACLNN_ERR_PARAM_NULLPTR as NULLPTR,
};
use crate::dtype::DType;
use dit_ops::OpKind;

/// A transformation applied to how a contiguous tensor is described to aclnn (dims, strides):
/// no data moves; aclnn reads a strided view of the same device memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// The tensor as it is: row-major contiguous strides.
    Plain,
    /// The last two dims swapped (with their strides): a transposed matrix without a copy.
    TransposeLast2,
    /// `TransposeLast2` when the named bool attribute is true (dit.matmul's transpose_a/_b,
    /// dit.quant_matmul_gelu's transpose_x1/_x2); an absent attribute is false (an op whose
    /// flag is required has it checked by the verifier).
    TransposeLast2If(&'static str),
    /// All leading dims merged, `[d0, .., dn-2, dn-1]` → `[d0·…·dn-2, dn-1]`, for 2-D-only kernels.
    Flatten2d,
    /// The tensor described as `ACL_FORMAT_FRACTAL_NZ`: a row-major `[.., R, C]` matrix is
    /// seen as `[.., ⌈C/c0⌉, ⌈R/16⌉, 16, c0]` fractals of 32 bytes per row (c0 = 32 bytes over
    /// the element size), view and storage alike, as the WeightNz kernels document their weight.
    /// The bytes must already be in that order (zero-padded): the lowering's load-time pre-pack
    /// converts an ND weight once; nothing here moves data.
    Nz,
}

/// Where an `aclTensorList` argument gets its tensors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum List {
    /// Every operand from this (variadic, last) slot on: dit.concat's `xs…`.
    Inputs(usize),
    /// One operand wrapped in a one-element list (grouped matmul's single-tensor mode).
    Input(usize),
    /// Like `Input`, but an empty optional slot passes `nullptr` instead of a list.
    OptionalInput(usize),
    /// Every result, in order: dit.split.
    Outputs,
    /// One result wrapped in a one-element list.
    Output(usize),
}

/// The C kind of an argument, as aclnn sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `const aclTensor *` / `aclTensor *`.
    Tensor,
    /// `const aclTensorList *`.
    TensorList,
    /// `const aclScalar *`.
    Scalar,
    /// `const aclIntArray *`.
    IntArray,
    /// `int64_t`.
    Int64,
    /// `int8_t` (cubeMathType).
    Int8,
    /// `bool`.
    Bool,
    /// `double`.
    Double,
    /// `aclDataType` (a C enum, passed as an int).
    DataType,
    /// `const char *` / `char *`.
    Str,
}

/// A number taken from a constant or a float attribute.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    /// A fixed value.
    Const(f64),
    /// A required float attribute (an integer attribute is accepted and widened).
    Attr(&'static str),
}

/// An `int64_t` argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Int {
    /// A fixed value.
    Const(i64),
    /// A required integer attribute.
    Attr(&'static str),
    /// An integer attribute with a default.
    AttrOr(&'static str, i64),
    /// A string attribute mapped to an integer code (`default` when the attribute is absent).
    Enum {
        /// Attribute name.
        attr: &'static str,
        /// Value used when the attribute is absent (`None`: it is required).
        default: Option<&'static str>,
        /// String → code.
        codes: &'static [(&'static str, i64)],
    },
    /// The number of heads of an operand, read from its shape by the layout attribute
    /// (`BNSD` → dim 1, `BSND` → dim 2); other layouts do not carry it in the shape.
    Heads {
        /// Operand slot.
        slot: usize,
        /// Layout attribute name.
        layout_attr: &'static str,
        /// Layout when the attribute is absent.
        default_layout: &'static str,
    },
}

/// An `aclIntArray` argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ints {
    /// A required `array<i64>` attribute.
    Attr(&'static str),
    /// The shape of a result (aclnnExpand's target size).
    ResultShape(usize),
    /// `[last dim]` of an operand (aclnnLayerNorm's normalizedShape: dit normalises the last dim).
    LastDim(usize),
}

/// A `bool` argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flag {
    /// A fixed value.
    Const(bool),
    /// A required bool attribute.
    Attr(&'static str),
}

/// A `char *` argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Text {
    /// A fixed string.
    Const(&'static str),
    /// A required string attribute, passed unchanged (its values are the aclnn spellings).
    Attr(&'static str),
    /// A string attribute with a default.
    AttrOr(&'static str, &'static str),
}

/// One argument of a phase-one call, in prototype order.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Arg {
    /// A required operand slot, as a tensor described through `View`.
    Input(usize, View),
    /// An optional operand slot: `nullptr` when the slot is empty.
    OptionalInput(usize, View),
    /// A result, described through `View`.
    Output(usize, View),
    /// An in-place ("Ref") tensor: the operand of `slot` is copied in, and the same device
    /// memory is read back as result `result`.
    InOut {
        /// Operand slot copied in.
        slot: usize,
        /// Result read back.
        result: usize,
    },
    /// A temporary device tensor (index into `KernelSpec::temps`): an output the dit op does
    /// not return, or an intermediate passed between the calls of a sequence.
    Temp(usize),
    /// An `aclTensorList`.
    TensorList(List),
    /// An optional argument dit never fills: `nullptr` of that kind.
    Null(Kind),
    /// An `aclScalar` holding this value; its aclDataType follows result 0: ACL_INT64 for an
    /// integer result, ACL_FLOAT otherwise (aclnn promotes a scalar to the tensors' type).
    Scalar(Num),
    /// An `aclIntArray`.
    IntArray(Ints),
    /// An `int64_t`.
    Int64(Int),
    /// An `int8_t` constant (cubeMathType: 0 = KEEP_DTYPE, so f32 stays f32 like the CPU
    /// reference; 1 would allow HF32).
    Int8(i8),
    /// A `bool`.
    Bool(Flag),
    /// A `double`.
    Double(Num),
    /// The `aclDataType` of a result (aclnnCast's target, aclnnMean's output type).
    DataType(usize),
    /// A `char *`.
    Str(Text),
    /// FusedInferAttentionScore's "optimized" attenMask of sparseMode 2-4: a
    /// [`CAUSAL_MASK_SIDE`]² INT8 matrix, 1 above the diagonal (masked out), 0 on and below it
    /// ([`causal_mask`]). The backend uploads it once and keeps it device-resident; it is no
    /// operand of the dit op (dit.attention's `causal = true` stands for it).
    CausalMask,
}

/// The side of the optimized causal attenMask: "sparseMode为2/3/4模式时，attenMask矩阵的shape
/// 最后两维应等于2048" ([ops-transformer] attention/fused_infer_attention_score/docs/
/// aclnnFusedInferAttentionScoreV5.md; V2.md: "S的值需要固定为2048").
pub const CAUSAL_MASK_SIDE: usize = 2048;

/// The bytes of [`Arg::CausalMask`], row-major INT8: element (i, j) is 1 (masked out) when
/// j > i. The documented leftUpCausal example is `01111 / 00111 / 00011` ("1 = masked out,
/// 0 = keep", 对角线全0; aclnnFusedInferAttentionScoreV5.md, sparseMode table), and INT8 mask
/// values must be 0 or 1 (V2.md: "当attenMask数据类型取INT8、UINT8时，其tensor中的值需要为0或1").
pub fn causal_mask() -> Vec<u8> {
    let n = CAUSAL_MASK_SIDE;
    (0..n * n).map(|k| u8::from(k % n > k / n)).collect()
}

/// Host bytes of the constants an entry's calls take that are no operand of the dit op (today
/// only [`Arg::CausalMask`]): the backend uploads each once per device and keeps it resident.
pub fn resident_bytes(spec: &KernelSpec) -> u64 {
    let calls: &[Call] = match spec.body {
        Body::Aclnn(calls) => calls,
        Body::View | Body::NoKernel => &[],
    };
    let masks = calls
        .iter()
        .flat_map(|c| c.args.iter())
        .any(|a| matches!(a, Arg::CausalMask));
    if masks {
        (CAUSAL_MASK_SIDE * CAUSAL_MASK_SIDE) as u64
    } else {
        0
    }
}

impl Arg {
    /// The C kind of this argument.
    pub fn kind(&self) -> Kind {
        match self {
            Arg::Input(..) | Arg::OptionalInput(..) | Arg::Output(..) => Kind::Tensor,
            Arg::InOut { .. } | Arg::Temp(_) => Kind::Tensor,
            Arg::TensorList(_) => Kind::TensorList,
            Arg::Null(kind) => *kind,
            Arg::Scalar(_) => Kind::Scalar,
            Arg::IntArray(_) => Kind::IntArray,
            Arg::Int64(_) => Kind::Int64,
            Arg::Int8(_) => Kind::Int8,
            Arg::Bool(_) => Kind::Bool,
            Arg::Double(_) => Kind::Double,
            Arg::DataType(_) => Kind::DataType,
            Arg::Str(_) => Kind::Str,
            Arg::CausalMask => Kind::Tensor,
        }
    }
}

/// One two-phase aclnn call.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Call {
    /// The operator name: phase one is `<symbol>GetWorkspaceSize`, phase two `<symbol>`.
    pub symbol: &'static str,
    /// Phase-one arguments before `workspaceSize`, in prototype order.
    pub args: &'static [Arg],
}

impl Call {
    /// The phase-one symbol.
    pub fn workspace_symbol(&self) -> String {
        format!("{}GetWorkspaceSize", self.symbol)
    }

    /// The C kinds of `args`, in order.
    pub fn kinds(&self) -> Vec<Kind> {
        self.args.iter().map(Arg::kind).collect()
    }
}

/// Element type of a temporary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TempType {
    /// f32 (aclnnRmsNorm's rstd).
    F32,
    /// That of an operand.
    LikeInput(usize),
}

/// Shape of a temporary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TempShape {
    /// That of an operand.
    LikeInput(usize),
    /// aclnnRmsNorm's rstdOut: `x`'s shape with its last `rank(gamma)` dims set to 1.
    RmsRstd {
        /// The normalised operand.
        x: usize,
        /// The gamma operand.
        gamma: usize,
    },
    /// `like`'s shape with the last dim replaced by the last dim of `from`.
    LastDimFrom {
        /// Operand whose shape is copied.
        like: usize,
        /// Operand whose last dim is used.
        from: usize,
    },
}

/// A temporary device tensor of a kernel entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Temp {
    /// Element type.
    pub dtype: TempType,
    /// Shape.
    pub shape: TempShape,
}

/// A condition on the op's attributes or filled operand slots that picks an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cond {
    /// A string attribute (or its default, when given) equals `value`.
    StrIs {
        /// Attribute name.
        attr: &'static str,
        /// Required value.
        value: &'static str,
        /// Value assumed when the attribute is absent (`None`: absent never matches).
        default: Option<&'static str>,
    },
    /// An integer attribute (default when absent) equals `value`.
    IntIs {
        /// Attribute name.
        attr: &'static str,
        /// Required value.
        value: i64,
        /// Value assumed when absent.
        default: i64,
    },
    /// An integer attribute (default when absent) differs from `value`.
    IntIsNot {
        /// Attribute name.
        attr: &'static str,
        /// Excluded value.
        value: i64,
        /// Value assumed when absent.
        default: i64,
    },
    /// A bool attribute (default when absent) equals `value`.
    BoolIs {
        /// Attribute name.
        attr: &'static str,
        /// Required value.
        value: bool,
        /// Value assumed when absent.
        default: bool,
    },
    /// The optional operand slot is filled.
    Present(usize),
    /// The optional operand slot is empty.
    Absent(usize),
}

/// How an entry runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Body {
    /// aclnn calls in order on one stream; more than one call passes intermediates through
    /// `Temp` tensors.
    Aclnn(&'static [Call]),
    /// No kernel: the result is the operand's bytes with the result type (reshape, bitcast).
    View,
    /// No aclnn kernel exists for the op; `KernelSpec::note` says what runs it instead.
    NoKernel,
}

/// One row of the table: a dit op (in one attribute variant) and what runs it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KernelSpec {
    /// The dit op.
    pub op: OpKind,
    /// Operand slot names in contract order (DIALECT.md), for messages.
    pub slots: &'static [&'static str],
    /// All must hold for this entry to be chosen.
    pub when: &'static [Cond],
    /// What runs.
    pub body: Body,
    /// Temporaries that `Arg::Temp` refers to.
    pub temps: &'static [Temp],
    /// Results no call writes, returned zero-filled (and why is in `note`).
    pub zero_results: &'static [usize],
    /// Where every prototype of `body` was checked.
    pub source: &'static str,
    /// True when each prototype was read from a header or API reference page; false when an
    /// argument had to be inferred.
    pub verified: bool,
    /// Mapping decisions and limits.
    pub note: &'static str,
    /// The operator's documented limits, checked by the fusion natives and the CANN stand-in
    /// (`crate::contracts`); a `Targets` rule also decides on which targets the entry is chosen.
    pub rules: &'static [Rule],
}

impl KernelSpec {
    /// The aclnn calls of this entry (empty for views and ops without a kernel).
    pub fn calls(&self) -> &'static [Call] {
        match self.body {
            Body::Aclnn(calls) => calls,
            Body::View | Body::NoKernel => &[],
        }
    }

    /// Whether some argument of some call reads operand `slot`.
    pub fn reads_slot(&self, slot: usize) -> bool {
        self.calls()
            .iter()
            .flat_map(|c| c.args.iter())
            .any(|a| match *a {
                Arg::Input(s, _) | Arg::OptionalInput(s, _) | Arg::InOut { slot: s, .. } => {
                    s == slot
                }
                Arg::TensorList(List::Input(s) | List::OptionalInput(s)) => s == slot,
                Arg::TensorList(List::Inputs(s)) => slot >= s,
                _ => false,
            })
    }
}

const BASE: KernelSpec = KernelSpec {
    // Every entry names its own op; this one is never looked up.
    op: OpKind::Opaque,
    slots: &[],
    when: &[],
    body: Body::NoKernel,
    temps: &[],
    zero_results: &[],
    source: "",
    verified: true,
    note: "",
    rules: &[],
};

use Arg::{Input, Null, OptionalInput, Output};
use View::Plain;

const X: Arg = Input(0, Plain);
const LHS: Arg = Input(0, Plain);
const RHS: Arg = Input(1, Plain);
const OUT: Arg = Output(0, Plain);

/// Elementwise unary entries: `aclnnXxxGetWorkspaceSize(const aclTensor *self, aclTensor *out,
/// ...)`.
macro_rules! unary {
    ($op:ident, $sym:literal, $src:literal) => {
        KernelSpec {
            op: OpKind::$op,
            slots: &["x"],
            body: Body::Aclnn(&[Call {
                symbol: $sym,
                args: &[X, OUT],
            }]),
            source: $src,
            ..BASE
        }
    };
}

/// Elementwise binary entries without alpha: `(const aclTensor *self, const aclTensor *other,
/// aclTensor *out, ...)`.
macro_rules! binary {
    ($op:ident, $sym:literal, $src:literal) => {
        KernelSpec {
            op: OpKind::$op,
            slots: &["lhs", "rhs"],
            body: Body::Aclnn(&[Call {
                symbol: $sym,
                args: &[LHS, RHS, OUT],
            }]),
            source: $src,
            ..BASE
        }
    };
}

/// The reference page of aclnnKvRmsNormRopeCache (its URL does not fit a line).
const KV_RMS_NORM_ROPE_CACHE_SOURCE: &str = concat!(
    "[hiascend] ",
    "https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/83RC1alpha002/API/aolapi/context/aclnnKvRmsNormRopeCache.md",
    "; argument order confirmed by [ops-transformer] ",
    "posembedding/kv_rms_norm_rope_cache/examples/test_aclnn_kv_rms_norm_rope_cache.cpp",
);

const FIA_NOTE: &str = "numHeads/numKeyValueHeads come from q/k shapes by layout (BNSD dim 1, \
BSND dim 2; BSH is refused: its shape does not carry the head count). k and v are one-element \
tensor lists. pre/nextTokens = 2147483647 (the documented 'not specified' value), sparseMode 0, \
innerPrecise 0 (high precision), blockSize 0, antiquant modes 0, no softmaxLse (documented: \
nullptr allowed when softmaxLseFlag is false). The mask goes to attenMaskOptional, whose \
documented meaning is bool/int8/uint8 with 1 = masked out.";

/// The mask is a boolean/integer attenMask (the default, `mask_kind = "masked_out"`).
/// dit.attention's `causal` is false (the default): the mask, if any, is an operand.
const NOT_CAUSAL: Cond = Cond::BoolIs {
    attr: "causal",
    value: false,
    default: false,
};
/// dit.attention's `causal = true`: sparseMode 2 with the optimized mask ([`Arg::CausalMask`]).
const CAUSAL: Cond = Cond::BoolIs {
    attr: "causal",
    value: true,
    default: false,
};

const FIA_CAUSAL_NOTE: &str = "causal = true (torch's is_causal: query i attends keys j <= i, \
aligned at the top left also when Q_S != KV_S) is sparseMode 2, leftUpCausal ('以左上顶点为参数起点\
划分'); sparseMode 3 (rightDownCausal) aligns at the bottom right and differs from torch when \
Q_S != KV_S. Modes 2-4 need the optimized 2048x2048 lower-triangular attenMask (1 = masked out, \
diagonal 0), which the runtime builds once per device and passes as attenMaskOptional (INT8, \
values 0/1); the op has no mask operand (the verifier refuses causal with a mask, as torch does). \
pre/nextTokens stay 2147483647: 'sparseMode = 1、2、3的场景忽略入参preTokens、nextTokens'. Other \
arguments as in the masked_out entry.";

const FIA_CAUSAL_DOC: &str = "[ops-transformer] attention/fused_infer_attention_score/docs/\
aclnnFusedInferAttentionScoreV2.md (sparseMode为2时，代表leftUpCausal模式的mask，需要传入优化后的\
attenmask矩阵（2048*2048）; sparseMode = 2、3、4时，attenMask的shape需要为S,S或1,S,S或1,1,S,S，其中S\
的值需要固定为2048，且需要用户保证传入的attenMask为下三角; attenMaskOptional BOOL、INT8、UINT8) and \
aclnnFusedInferAttentionScoreV5.md (the same, sparseMode table: leftUpCausal 01111/00111/00011)";

const MASKED_OUT: Cond = Cond::StrIs {
    attr: "mask_kind",
    value: "masked_out",
    default: Some("masked_out"),
};
/// The mask is a float pseShift added to the scaled scores (`mask_kind = "additive"`).
const ADDITIVE: Cond = Cond::StrIs {
    attr: "mask_kind",
    value: "additive",
    default: Some("masked_out"),
};

const FIA_PSE_NOTE: &str = "mask_kind = additive: the mask goes to pseShiftOptional and \
attenMaskOptional is nullptr. V5 documents pseType 0 as '外部传入pse，先mul再add' (the scores are \
scaled, then pse is added: softmax(scale·q·kᵀ + pse), torch's float attn_mask) and as the only \
inference mode; V2 has no pseType and is taken to compute the same (its PFA design note says \
'与位置编码pse相加后再乘以缩放系数', which an on-device check must settle). pseShift is 4-d \
(B|1, Q_N, Q_S, KV_S) of q's dtype: the converter broadcasts torch's mask to that shape. Other \
arguments as in the masked_out entry.";

const FIA_PSE_DOC: &str = "[ops-transformer] attention/fused_infer_attention_score/docs/\
aclnnFusedInferAttentionScoreV2.md (pseShiftOptional: FLOAT16/BFLOAT16, 4-d, (B,N,Q_S,KV_S) or \
(1,N,Q_S,KV_S); FLOAT16 pse with FLOAT16/INT8 query, BFLOAT16 pse with BFLOAT16 query; 161002) \
and aclnnFusedInferAttentionScoreV5.md (pseType 0: the same dtype and 4-d shape rules)";
const INDEX_SELECT_DOC: &str = "[ops-nn] index/gather_v2/docs/aclnnIndexSelect.md (self: FLOAT、\
    FLOAT16、BFLOAT16、INT64、INT32、INT16、INT8、UINT8、…; index: INT64、INT32, 0-d or 1-d; 161002)";
const SCATTER_ADD_DOC: &str =
    "[ops-nn] index/scatter_add/docs/aclnnScatterAdd.md (self, src, out: \
    BFLOAT16、FLOAT16、FLOAT32、DOUBLE、INT64、INT32、INT16、INT8、UINT8、BOOL、…, src of self's \
    dtype; index: INT32、INT64; 161002)";
const INDEX_ADD_DOC: &str = "[ops-nn] index/inplace_scatter_add/docs/aclnnIndexAdd.md (self, \
    source: FLOAT、FLOAT16、INT32、INT16、INT8、UINT8、DOUBLE、INT64、BOOL、BFLOAT16; index: INT64、\
    INT32; 161002)";

const MOE_INIT_ROUTING_DOC: &str = "[ops-transformer] \
    moe/moe_init_routing_v2/docs/aclnnMoeInitRoutingV2.md (x: FLOAT16、BFLOAT16、FLOAT32, 2-d \
    [numRows, h]; expertIdx [numRows, k]; expandedRowIdxOut INT32; 161002)";
const MOE_GATING_DOC: &str = "[ops-transformer] \
    moe/moe_gating_top_k_softmax/docs/aclnnMoeGatingTopKSoftmax.md (x: FLOAT16、BFLOAT16、FLOAT32, \
    2-3 dims; finishedOptional: BOOL, 1-2 dims, shape x_shape[:-1]; yOut like x; expertIdxOut, \
    rowIdxOut INT32; dtypes 161002, shapes and k 561002)";
const MOE_INIT_ROUTING_EXPERT_IDX_DOC: &str = "[ops-transformer] \
    moe/moe_init_routing_v2/docs/aclnnMoeInitRoutingV2.md (hicann/ops-transformer, the note under \
    the parameter table: Atlas A2系列产品、Atlas A3系列产品：输入expertIdx数据类型支持INT32; Ascend \
    950PR&950DT系列产品：INT32、INT64; the 2025-12 mirror's table lists INT32 alone; 161002)";
const MOE_INIT_ROUTING_TOKENS_DOC: &str = "[ops-transformer] \
    moe/moe_init_routing_v2/docs/aclnnMoeInitRoutingV2.md (parameter table: \
    expertTokensCountOrCumsumOut 输出 … 要求是一个1D的Tensor，Shape为[expertNum] | INT32 | ND; \
    op_host/moe_init_routing_v2_def.cpp: Output(\"expert_tokens_count_or_cumsum\") DT_INT32 for \
    ascend910b, ascend910_93 and ascend310p; no version read lists INT64; 161002)";
const MOE_FINALIZE_ROUTING_DOC: &str = "[ops-transformer] \
    moe/moe_finalize_routing_v2/docs/aclnnMoeFinalizeRoutingV2.md (expandedX: FLOAT16、BFLOAT16、\
    FLOAT32 on Atlas A2/A3; expandedRowIdx INT32; scales may differ from expandedX's dtype; 161002)";

/// Atlas A2 and A3 (CANN's "Atlas A2/A3 训练系列产品/推理系列产品").
const A2_A3: &[&str] = &["ascend910b", "ascend910_93"];
/// Ascend 950PR / 950DT.
const A5: &[&str] = &["ascend950"];

/// A rule of every target, with the code of an out-of-range parameter.
const fn rule(id: &'static str, check: Check, source: &'static str) -> Rule {
    Rule {
        id,
        check,
        on: &[],
        code: INVALID,
        source,
    }
}

const TILING: i32 = contracts::ACLNN_ERR_INNER_TILING_ERROR;

const KV_RMS_NORM_ROPE_CACHE_DOC: &str = "[ops-transformer] \
    posembedding/kv_rms_norm_rope_cache/docs/aclnnKvRmsNormRopeCache.md (kv BFLOAT16/FLOAT16, \
    161002; gamma, cos, sin 与kv数据类型一致, checked at tiling, 561002)";

const GELU_MUL_DOC: &str = "[ops-nn] activation/gelu_mul/docs/aclnnGeluMul.md (input: \
    BFLOAT16/FLOAT16/FLOAT, ND, rank 2-8, last dim even and <= 1024, product of the other dims \
    <= 200000; 161002)";
const GELU_MUL_RULES: &[Rule] = &[
    rule(
        "gelu_mul.dtype",
        Check::DTypes {
            slot: 0,
            allowed: &[DType::BF16, DType::F16, DType::F32],
        },
        GELU_MUL_DOC,
    ),
    rule(
        "gelu_mul.rank",
        Check::Rank {
            slot: 0,
            min: 2,
            max: 8,
        },
        GELU_MUL_DOC,
    ),
    rule(
        "gelu_mul.last_dim",
        Check::LastDimMax { slot: 0, max: 1024 },
        GELU_MUL_DOC,
    ),
    rule(
        "gelu_mul.last_dim_even",
        Check::LastDimEven { slot: 0 },
        GELU_MUL_DOC,
    ),
    rule(
        "gelu_mul.lead_product",
        Check::LeadingProductMax {
            slot: 0,
            max: 200_000,
        },
        GELU_MUL_DOC,
    ),
];

const FUSED_MATMUL_DOC: &str = "[ops-nn] matmul/fused_mat_mul/docs/aclnnFusedMatmul.md";
const FUSED_MATMUL_RULES: &[Rule] = &[
    rule(
        "fused_matmul.targets",
        Check::Targets(A5),
        "[ops-nn] matmul/fused_mat_mul/docs/aclnnFusedMatmul.md (产品支持情况: Ascend 950PR/950DT \
         only)",
    ),
    Rule {
        id: "fused_matmul.gelu_bias",
        check: Check::AbsentWhen {
            slot: 2,
            attr: "fused_op_type",
            values: &["gelu_tanh", "gelu_erf"],
        },
        on: &[],
        // Documented under ACLNN_ERR_PARAM_NULLPTR ("fusedOpType为gelu_tanh、gelu_erf，传入的
        // bias不是空指针"), and so in op_api CheckNotNull.
        code: NULLPTR,
        source: "[ops-nn] matmul/fused_mat_mul/docs/aclnnFusedMatmul.md (gelu_tanh/gelu_erf \
                 compute gelu(x1 @ x2); 返回值: a non-null bias with them is 161001)",
    },
    rule(
        "fused_matmul.dtype",
        Check::DTypes {
            slot: 0,
            allowed: &[DType::F16, DType::BF16],
        },
        "[ops-nn] matmul/fused_mat_mul/docs/aclnnFusedMatmul.md (x1 FLOAT16/BFLOAT16; FLOAT32 \
         only with cubeMathType 3, dit passes 0)",
    ),
    rule(
        "fused_matmul.x2_dtype",
        Check::SameDType { slot: 1, like: 0 },
        FUSED_MATMUL_DOC,
    ),
];

const FUSED_QUANT_MATMUL_DOC: &str =
    "[ops-nn] matmul/fused_quant_mat_mul/docs/aclnnFusedQuantMatmul.md";
/// aclnnFusedQuantMatmul's shape limits on x1 and x2 as the kernel sees them (after a
/// transposed view): "最后一维大小不能超过65535" (x1, x2 使用说明; 161002).
const FUSED_QUANT_MATMUL_RULES: &[Rule] = &[
    rule(
        "fused_quant_matmul.x1_last_dim",
        Check::LastDimMax {
            slot: 0,
            max: 65535,
        },
        FUSED_QUANT_MATMUL_DOC,
    ),
    rule(
        "fused_quant_matmul.x2_last_dim",
        Check::LastDimMax {
            slot: 1,
            max: 65535,
        },
        FUSED_QUANT_MATMUL_DOC,
    ),
];

const ROPE_DOC: &str = "[ops-transformer] \
    posembedding/rotary_position_embedding/docs/aclnnRotaryPositionEmbedding.md (x, cos, sin: \
    BFLOAT16/FLOAT16/FLOAT32, cos and sin of x's dtype; 161002)";
const ROPE_RULES: &[Rule] = &[
    rule(
        "rope.dtype",
        Check::DTypes {
            slot: 0,
            allowed: &[DType::BF16, DType::F16, DType::F32],
        },
        ROPE_DOC,
    ),
    rule(
        "rope.cos_dtype",
        Check::SameDType { slot: 1, like: 0 },
        ROPE_DOC,
    ),
    rule(
        "rope.sin_dtype",
        Check::SameDType { slot: 2, like: 0 },
        ROPE_DOC,
    ),
];

const GMM_SWIGLU_QUANT_DOC: &str = "[ops-transformer] \
    gmm/grouped_matmul_swiglu_quant/docs/aclnnGroupedMatmulSwigluQuant.md (A8W8: the data \
    format of weight must be FRACTAL_NZ; 161002)";
const GMM_SWIGLU_QUANT_V2_DOC: &str = "[ops-transformer] \
    gmm/grouped_matmul_swiglu_quant_v2/docs/aclnnGroupedMatmulSwigluQuantV2.md (Atlas A2/A3, \
    A8W8: weight in FRACTAL_NZ; 161002)";
const GMM_SWIGLU_QUANT_NZ_DOC: &str = "[ops-transformer] \
    gmm/grouped_matmul_swiglu_quant/docs/aclnnGroupedMatmulSwigluQuantWeightNZ.md (weight \
    FRACTAL_NZ; Atlas A2/A3)";

/// How many arguments aclnnFusedInferAttentionScoreV2 takes (and V5 takes 9 more).
const FIA_V2_ARGS: usize = 39;

/// aclnnFusedInferAttentionScoreV2's arguments for dit.attention, in prototype order: q, k and
/// v, `pse` as pseShiftOptional, `mask` as attenMaskOptional, `sparse` as sparseMode; every other
/// optional input null, preTokens/nextTokens unbounded (ignored in sparse modes 1-3), the other
/// scalars 0. One list for every mask kind, so that the entries differ only where the doc says.
const fn fia_v2_args(pse: Arg, mask: Arg, sparse: i64) -> [Arg; FIA_V2_ARGS] {
    const T: Arg = Null(Kind::Tensor);
    const L: Arg = Null(Kind::IntArray);
    const HEADS_Q: Arg = Arg::Int64(Int::Heads {
        slot: 0,
        layout_attr: "layout",
        default_layout: "BNSD",
    });
    const HEADS_KV: Arg = Arg::Int64(Int::Heads {
        slot: 1,
        layout_attr: "layout",
        default_layout: "BNSD",
    });
    const ZERO: Arg = Arg::Int64(Int::Const(0));
    [
        Input(0, Plain),
        Arg::TensorList(List::Input(1)),
        Arg::TensorList(List::Input(2)),
        pse,
        mask,
        L, // actualSeqLengthsOptional
        L, // actualSeqLengthsKvOptional
        // deqScale1, quantScale1, deqScale2, quantScale2, quantOffset2, antiquantScale,
        // antiquantOffset, blockTable, queryPaddingSize, kvPaddingSize, keyAntiquantScale,
        // keyAntiquantOffset, valueAntiquantScale, valueAntiquantOffset, keySharedPrefix,
        // valueSharedPrefix (all optional)
        T,
        T,
        T,
        T,
        T,
        T,
        T,
        T,
        T,
        T,
        T,
        T,
        T,
        T,
        T,
        T,
        L, // actualSharedPrefixLenOptional
        HEADS_Q,
        Arg::Double(Num::Attr("scale")),
        Arg::Int64(Int::Const(2_147_483_647)), // preTokens
        Arg::Int64(Int::Const(2_147_483_647)), // nextTokens
        Arg::Str(Text::AttrOr("layout", "BNSD")),
        HEADS_KV,
        Arg::Int64(Int::Const(sparse)),
        ZERO,                          // innerPrecise
        ZERO,                          // blockSize
        ZERO,                          // antiquantMode
        Arg::Bool(Flag::Const(false)), // softmaxLseFlag
        ZERO,                          // keyAntiquantMode
        ZERO,                          // valueAntiquantMode
        OUT,
        T, // softmaxLse
    ]
}

/// aclnnFusedInferAttentionScoreV5's arguments: V2's, with queryRope, keyRope,
/// keyRopeAntiquantScale, dequantScaleQuery, learnableSink (tensors) and qStartIdx, kvStartIdx
/// (int arrays), all null, after actualSharedPrefixLen, and queryQuantMode = 0, pseType = 0
/// ("scale first, then add pse", as torch does) after valueAntiquantMode.
const fn fia_v5_args(pse: Arg, mask: Arg, sparse: i64) -> [Arg; FIA_V2_ARGS + 9] {
    // Where V5 inserts its first 7 and its last 2 arguments into V2's list.
    const AFTER_SHARED_PREFIX: usize = 24;
    const AFTER_VALUE_ANTIQUANT_MODE: usize = 37;
    let v2 = fia_v2_args(pse, mask, sparse);
    let mut out = [Null(Kind::Tensor); FIA_V2_ARGS + 9];
    let mut i = 0;
    while i < FIA_V2_ARGS {
        let at = if i < AFTER_SHARED_PREFIX {
            i
        } else if i < AFTER_VALUE_ANTIQUANT_MODE {
            i + 7
        } else {
            i + 9
        };
        out[at] = v2[i];
        i += 1;
    }
    out[AFTER_SHARED_PREFIX + 5] = Null(Kind::IntArray); // qStartIdxOptional
    out[AFTER_SHARED_PREFIX + 6] = Null(Kind::IntArray); // kvStartIdxOptional
    out[AFTER_VALUE_ANTIQUANT_MODE + 7] = Arg::Int64(Int::Const(0)); // queryQuantMode
    out[AFTER_VALUE_ANTIQUANT_MODE + 8] = Arg::Int64(Int::Const(0)); // pseType
    out
}

/// aclnnFusedInferAttentionScoreV2 for dit.attention with a boolean mask as attenMask.
const FIA_V2_MASKED_OUT: [Arg; FIA_V2_ARGS] =
    fia_v2_args(Null(Kind::Tensor), OptionalInput(3, Plain), 0);
/// aclnnFusedInferAttentionScoreV2 for dit.attention with an additive mask as pseShift.
const FIA_V2_ADDITIVE: [Arg; FIA_V2_ARGS] =
    fia_v2_args(OptionalInput(3, Plain), Null(Kind::Tensor), 0);
/// aclnnFusedInferAttentionScoreV5 for dit.attention with a boolean mask as attenMask.
const FIA_V5_MASKED_OUT: [Arg; FIA_V2_ARGS + 9] =
    fia_v5_args(Null(Kind::Tensor), OptionalInput(3, Plain), 0);
/// aclnnFusedInferAttentionScoreV5 for dit.attention with an additive mask as pseShift.
const FIA_V5_ADDITIVE: [Arg; FIA_V2_ARGS + 9] =
    fia_v5_args(OptionalInput(3, Plain), Null(Kind::Tensor), 0);
/// aclnnFusedInferAttentionScoreV2 for dit.attention with causal: the documented 2048x2048 mask as attenMask, sparseMode 2 (leftUpCausal).
const FIA_V2_CAUSAL: [Arg; FIA_V2_ARGS] = fia_v2_args(Null(Kind::Tensor), Arg::CausalMask, 2);
/// aclnnFusedInferAttentionScoreV5 for dit.attention with causal: the documented 2048x2048 mask as attenMask, sparseMode 2 (leftUpCausal).
const FIA_V5_CAUSAL: [Arg; FIA_V2_ARGS + 9] = fia_v5_args(Null(Kind::Tensor), Arg::CausalMask, 2);

/// Every kernel entry, in DIALECT.md order (primitive ops, then fused ops).
///
/// Each entry's `source` names the header or page its prototypes were read from, in the
/// shorthand of the module comment: `[8.1.RC1] aclnn_x.h` is the CANN 8.1.RC1 toolkit header
/// (mirror: github.com/leideng/CANN-8.1.RC1, `.../op_api/include/aclnnop/aclnn_x.h`);
/// `[ops-nn] p`, `[ops-math] p`, `[ops-transformer] p` are files of `gitcode.com/cann/<repo>`
/// (GitHub mirrors `hicann/<repo>`; repo-mirror-test/ops-transformer for the V2 grouped
/// swiglu-quant matmul); `[hiascend] url` is the CANN API reference page. Every entry with
/// calls is `verified`: each argument, in order, was read from one of those prototypes. What is
/// our choice rather than documentation (slot mapping, constants such as cubeMathType or
/// preTokens, temporaries) is in the entry's `note`.
pub const KERNELS: &[KernelSpec] = &[
    KernelSpec {
        op: OpKind::Add,
        slots: &["lhs", "rhs"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnAdd",
            args: &[LHS, RHS, Arg::Scalar(Num::Const(1.0)), OUT],
        }]),
        source: "[8.1.RC1] aclnn_add.h; [ops-math] math/add/docs/aclnnAdd&aclnnInplaceAdd.md",
        note: "out = self + alpha·other with alpha = 1",
        ..BASE
    },
    KernelSpec {
        op: OpKind::Sub,
        slots: &["lhs", "rhs"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnSub",
            args: &[LHS, RHS, Arg::Scalar(Num::Const(1.0)), OUT],
        }]),
        source: "[8.1.RC1] aclnn_sub.h; [ops-math] math/sub/docs/aclnnSub&aclnnInplaceSub.md",
        note: "out = self - alpha·other with alpha = 1",
        ..BASE
    },
    // x1, x2 and y take BOOL too: dit.mul on i1 is torch's bool and (the converter's
    // aten.__and__ / logical_and).
    binary!(
        Mul,
        "aclnnMul",
        "[8.1.RC1] aclnn_mul.h; [ops-math] math/mul/README.md (x1, x2, y: ... BOOL)"
    ),
    binary!(
        Div,
        "aclnnDiv",
        "[8.1.RC1] aclnn_div.h; [ops-math] math/div/docs/aclnnDiv&aclnnInplaceDiv.md"
    ),
    binary!(
        Pow,
        "aclnnPowTensorTensor",
        "[8.1.RC1] aclnn_pow_tensor_tensor.h; [ops-math] \
            math/pow/docs/aclnnPowTensorTensor&aclnnInplacePowTensorTensor.md"
    ),
    unary!(Neg, "aclnnNeg", "[8.1.RC1] aclnn_neg.h"),
    unary!(Exp, "aclnnExp", "[8.1.RC1] aclnn_exp.h"),
    unary!(Sqrt, "aclnnSqrt", "[8.1.RC1] aclnn_sqrt.h"),
    unary!(Rsqrt, "aclnnRsqrt", "[8.1.RC1] aclnn_rsqrt.h"),
    unary!(Tanh, "aclnnTanh", "[8.1.RC1] aclnn_tanh.h"),
    unary!(
        Sin,
        "aclnnSin",
        "[ops-math] math/sin/docs/aclnnSin&aclnnInplaceSin.md: out = sin(self), \
            aclnnSinGetWorkspaceSize(self, out, workspaceSize, executor)"
    ),
    unary!(
        Cos,
        "aclnnCos",
        "[ops-math] math/cos/docs/aclnnCos&aclnnInplaceCos.md: out = cos(input), \
            aclnnCosGetWorkspaceSize(input, out, workspaceSize, executor)"
    ),
    unary!(Erf, "aclnnErf", "[8.1.RC1] aclnn_erf.h"),
    unary!(Sigmoid, "aclnnSigmoid", "[8.1.RC1] aclnn_sigmoid.h"),
    unary!(Silu, "aclnnSilu", "[8.1.RC1] aclnn_silu.h"),
    unary!(Relu, "aclnnRelu", "[8.1.RC1] aclnn_relu.h"),
    KernelSpec {
        op: OpKind::Gelu,
        slots: &["x"],
        when: &[Cond::StrIs {
            attr: "approximate",
            value: "none",
            default: None,
        }],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnGelu",
            args: &[X, OUT],
        }]),
        source: "[8.1.RC1] aclnn_gelu.h; [ops-nn] activation/gelu/docs/aclnnGelu.md",
        note: "erf GELU",
        ..BASE
    },
    KernelSpec {
        op: OpKind::Gelu,
        slots: &["x"],
        when: &[Cond::StrIs {
            attr: "approximate",
            value: "tanh",
            default: None,
        }],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnGeluV2",
            args: &[
                X,
                Arg::Int64(Int::Enum {
                    attr: "approximate",
                    default: None,
                    codes: &[("none", 0), ("tanh", 1)],
                }),
                OUT,
            ],
        }]),
        source: "[8.1.RC1] aclnn_gelu_v2.h; [ops-nn] activation/gelu_v2/docs/aclnnGeluV2.md",
        note: "approximate: int64 0 = none, 1 = tanh (documented)",
        ..BASE
    },
    KernelSpec {
        op: OpKind::Cast,
        slots: &["x"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnCast",
            args: &[X, Arg::DataType(0), OUT],
        }]),
        source: "[8.1.RC1] aclnn_cast.h; [ops-math] math/cast/docs/aclnnCast.md",
        note: "dtype = the result's aclDataType",
        ..BASE
    },
    KernelSpec {
        op: OpKind::ReduceMean,
        slots: &["x"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnMean",
            args: &[
                X,
                Arg::IntArray(Ints::Attr("dims")),
                Arg::Bool(Flag::Attr("keepdim")),
                Arg::DataType(0),
                OUT,
            ],
        }]),
        source: "[8.1.RC1] aclnn_mean.h; [ops-math] math/reduce_mean/docs/aclnnMean.md",
        ..BASE
    },
    KernelSpec {
        op: OpKind::ReduceSum,
        slots: &["x"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnReduceSum",
            args: &[
                X,
                Arg::IntArray(Ints::Attr("dims")),
                Arg::Bool(Flag::Attr("keepdim")),
                Arg::DataType(0),
                OUT,
            ],
        }]),
        source: "[8.1.RC1] aclnn_reduce_sum.h; [ops-math] math/reduce_sum/docs/aclnnReduceSum.md",
        ..BASE
    },
    KernelSpec {
        op: OpKind::Softmax,
        slots: &["x"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnSoftmax",
            args: &[X, Arg::Int64(Int::Attr("dim")), OUT],
        }]),
        source: "[8.1.RC1] aclnn_softmax.h; [ops-nn] activation/softmax_v2/docs/aclnnSoftmax.md",
        ..BASE
    },
    KernelSpec {
        op: OpKind::Reshape,
        slots: &["x"],
        body: Body::View,
        note: "a view: same bytes, the result's shape; no kernel runs",
        ..BASE
    },
    KernelSpec {
        op: OpKind::Broadcast,
        slots: &["x"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnExpand",
            args: &[X, Arg::IntArray(Ints::ResultShape(0)), OUT],
        }]),
        source: "[8.1.RC1] aclnn_expand.h; [ops-math] math/expand/docs/aclnnExpand.md",
        note: "size = the result's shape",
        ..BASE
    },
    KernelSpec {
        op: OpKind::Bitcast,
        slots: &["x"],
        body: Body::View,
        note: "a view: same bytes reinterpreted as the result type; no kernel runs",
        ..BASE
    },
    KernelSpec {
        op: OpKind::Transpose,
        slots: &["x"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnPermute",
            args: &[X, Arg::IntArray(Ints::Attr("perm")), OUT],
        }]),
        source: "[8.1.RC1] aclnn_permute.h; [ops-math] conversion/transpose/docs/aclnnPermute.md",
        ..BASE
    },
    KernelSpec {
        op: OpKind::Slice,
        slots: &["x"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnSlice",
            args: &[
                X,
                Arg::Int64(Int::Attr("dim")),
                Arg::Int64(Int::Attr("start")),
                Arg::Int64(Int::Attr("end")),
                Arg::Int64(Int::Attr("step")),
                OUT,
            ],
        }]),
        source: "[8.1.RC1] aclnn_slice.h; [ops-math] conversion/slice/docs/aclnnSlice.md",
        ..BASE
    },
    KernelSpec {
        op: OpKind::Split,
        slots: &["x"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnSplitWithSize",
            args: &[
                X,
                Arg::IntArray(Ints::Attr("sizes")),
                Arg::Int64(Int::Attr("dim")),
                Arg::TensorList(List::Outputs),
            ],
        }]),
        source: "[8.1.RC1] aclnn_split_with_size.h; [ops-math] \
            conversion/split_v/docs/aclnnSplitWithSize.md",
        note: "out = every result, as one aclTensorList",
        ..BASE
    },
    KernelSpec {
        op: OpKind::Concat,
        slots: &["xs"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnCat",
            args: &[
                Arg::TensorList(List::Inputs(0)),
                Arg::Int64(Int::Attr("dim")),
                OUT,
            ],
        }]),
        source: "[8.1.RC1] aclnn_cat.h; [ops-math] conversion/concat_d/docs/aclnnCat.md",
        note: "tensors = every operand, as one aclTensorList",
        ..BASE
    },
    KernelSpec {
        op: OpKind::Matmul,
        slots: &["a", "b"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnMatmul",
            args: &[
                Input(0, View::TransposeLast2If("transpose_a")),
                Input(1, View::TransposeLast2If("transpose_b")),
                OUT,
                Arg::Int8(0),
            ],
        }]),
        source: "[8.1.RC1] aclnn_matmul.h; [ops-nn] matmul/mat_mul_v3/docs/aclnnMatmul.md",
        note: "aclnnMatmul broadcasts batch dims (aclnnBatchMatMul does not). It has no transpose \
            flags: a transposed operand is passed as a strided view (last two dims and strides \
            swapped), which aclnn matmuls accept as non-contiguous input.",
        ..BASE
    },
    KernelSpec {
        op: OpKind::Linear,
        slots: &["x", "weight", "bias"],
        when: &[Cond::Absent(2)],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnMatmul",
            args: &[
                Input(0, Plain),
                Input(1, View::TransposeLast2),
                OUT,
                Arg::Int8(0),
            ],
        }]),
        source: "[8.1.RC1] aclnn_matmul.h; [ops-nn] matmul/mat_mul_v3/docs/aclnnMatmul.md",
        note: "x·weightᵀ: weight [N, K] passed as a transposed view [K, N]; x may be N-D",
        ..BASE
    },
    KernelSpec {
        op: OpKind::Linear,
        slots: &["x", "weight", "bias"],
        when: &[Cond::Present(2)],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnAddmm",
            args: &[
                Input(2, Plain),
                Input(0, View::Flatten2d),
                Input(1, View::TransposeLast2),
                Arg::Scalar(Num::Const(1.0)),
                Arg::Scalar(Num::Const(1.0)),
                Output(0, View::Flatten2d),
                Arg::Int8(0),
            ],
        }]),
        source: "[8.1.RC1] aclnn_addmm.h; [ops-nn] \
            matmul/mat_mul_v3/docs/aclnnAddmm&aclnnInplaceAddmm.md",
        note: "out = beta·bias + alpha·(x·weightᵀ), beta = alpha = 1; aclnnAddmm is 2-D, so x and \
            out are described as [rows, K] / [rows, N] views of the same memory; bias [N] \
            broadcasts",
        ..BASE
    },
    KernelSpec {
        op: OpKind::RmsNorm,
        slots: &["x", "gamma"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnRmsNorm",
            args: &[
                X,
                Input(1, Plain),
                Arg::Double(Num::Attr("epsilon")),
                OUT,
                Arg::Temp(0),
            ],
        }]),
        temps: &[Temp {
            dtype: TempType::F32,
            shape: TempShape::RmsRstd { x: 0, gamma: 1 },
        }],
        source: "[8.1.RC1] aclnn_rms_norm.h; [ops-nn] norm/rms_norm/docs/aclnnRmsNorm.md",
        note: "rstdOut is required by the prototype and not a dit result: a temporary f32 tensor \
            shaped like x with gamma's dims set to 1",
        ..BASE
    },
    KernelSpec {
        op: OpKind::LayerNorm,
        slots: &["x", "gamma", "beta"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnLayerNorm",
            args: &[
                X,
                Arg::IntArray(Ints::LastDim(0)),
                OptionalInput(1, Plain),
                OptionalInput(2, Plain),
                Arg::Double(Num::Attr("epsilon")),
                OUT,
                Null(Kind::Tensor),
                Null(Kind::Tensor),
            ],
        }]),
        source: "[8.1.RC1] aclnn_layer_norm.h",
        note: "normalizedShape = [last dim of x]; meanOutOptional and rstdOutOptional are nullptr",
        ..BASE
    },
    KernelSpec {
        op: OpKind::Rope,
        slots: &["x", "cos", "sin"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnRotaryPositionEmbedding",
            args: &[
                X,
                Input(1, Plain),
                Input(2, Plain),
                Arg::Int64(Int::Enum {
                    attr: "mode",
                    default: None,
                    codes: &[("half", 0), ("interleave", 1)],
                }),
                OUT,
            ],
        }]),
        source: "[ops-transformer] \
            posembedding/rotary_position_embedding/docs/aclnnRotaryPositionEmbedding.md and \
            op_host/op_api/aclnn_rotary_position_embedding.h",
        note: "mode: int64 0 = half, 1 = interleave (documented; 2 = quarter, 3 = interleave-half \
            are not dit modes)",
        rules: ROPE_RULES,
        ..BASE
    },
    KernelSpec {
        op: OpKind::Attention,
        slots: &["q", "k", "v", "mask"],
        when: &[NOT_CAUSAL, MASKED_OUT],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnFusedInferAttentionScoreV2",
            args: &FIA_V2_MASKED_OUT,
        }]),
        source: "[8.1.RC1] aclnn_fused_infer_attention_score_v2.h; [ops-transformer] \
            attention/fused_infer_attention_score/docs/aclnnFusedInferAttentionScoreV2.md",
        note: FIA_NOTE,
        rules: &[rule(
            "fia_v2.targets",
            Check::Targets(A2_A3),
            "[ops-transformer] attention/fused_infer_attention_score/docs/\
             aclnnFusedInferAttentionScoreV2.md (产品支持情况: Atlas A2/A3; Ascend 950 不支持)",
        )],
        ..BASE
    },
    KernelSpec {
        op: OpKind::Attention,
        slots: &["q", "k", "v", "mask"],
        when: &[NOT_CAUSAL, ADDITIVE],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnFusedInferAttentionScoreV2",
            args: &FIA_V2_ADDITIVE,
        }]),
        source: "[8.1.RC1] aclnn_fused_infer_attention_score_v2.h; [ops-transformer] \
            attention/fused_infer_attention_score/docs/aclnnFusedInferAttentionScoreV2.md",
        note: FIA_PSE_NOTE,
        rules: &[
            rule(
            "fia_v2.pse_targets",
            Check::Targets(A2_A3),
            "[ops-transformer] attention/fused_infer_attention_score/docs/\
             aclnnFusedInferAttentionScoreV2.md (产品支持情况: Atlas A2/A3; Ascend 950 不支持)",
        ),
            rule(
                "fia_v2.pse_dtype",
                Check::DTypes {
                    slot: 3,
                    allowed: &[DType::F16, DType::BF16],
                },
                FIA_PSE_DOC,
            ),
            rule(
                "fia_v2.pse_q_dtype",
                Check::SameDType { slot: 3, like: 0 },
                FIA_PSE_DOC,
            ),
            rule(
                "fia_v2.pse_rank",
                Check::Rank {
                    slot: 3,
                    min: 4,
                    max: 4,
                },
                FIA_PSE_DOC,
            ),
        ],
        ..BASE
    },
    KernelSpec {
        op: OpKind::Attention,
        slots: &["q", "k", "v", "mask"],
        when: &[NOT_CAUSAL, MASKED_OUT],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnFusedInferAttentionScoreV5",
            args: &FIA_V5_MASKED_OUT,
        }]),
        source: "[ops-transformer] \
            attention/fused_infer_attention_score/docs/aclnnFusedInferAttentionScoreV5.md; the \
            call op-plugin makes on Ascend 950 (is_ascend950() → aclnnFusedInferAttentionScoreV5)",
        note: "V5 = V2's arguments, then queryRope, keyRope, keyRopeAntiquantScale, \
            dequantScaleQuery, learnableSink (tensors), qStartIdx, kvStartIdx (int arrays) after \
            actualSharedPrefixLen, and queryQuantMode, pseType (0: unused) after \
            valueAntiquantMode. Chosen on Ascend 950, where V1-V4 are not supported.",
        rules: &[rule(
            "fia_v5.targets",
            Check::Targets(A5),
            "[ops-transformer] attention/fused_infer_attention_score/docs/\
             aclnnFusedInferAttentionScoreV5.md (产品支持情况: Ascend 950PR/950DT)",
        )],
        ..BASE
    },
    KernelSpec {
        op: OpKind::Attention,
        slots: &["q", "k", "v", "mask"],
        when: &[NOT_CAUSAL, ADDITIVE],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnFusedInferAttentionScoreV5",
            args: &FIA_V5_ADDITIVE,
        }]),
        source: "[ops-transformer] \
            attention/fused_infer_attention_score/docs/aclnnFusedInferAttentionScoreV5.md; the \
            call op-plugin makes on Ascend 950 (is_ascend950() → aclnnFusedInferAttentionScoreV5)",
        note: FIA_PSE_NOTE,
        rules: &[
            rule(
            "fia_v5.pse_targets",
            Check::Targets(A5),
            "[ops-transformer] attention/fused_infer_attention_score/docs/\
             aclnnFusedInferAttentionScoreV5.md (产品支持情况: Ascend 950PR/950DT)",
        ),
            rule(
                "fia_v5.pse_dtype",
                Check::DTypes {
                    slot: 3,
                    allowed: &[DType::F16, DType::BF16],
                },
                FIA_PSE_DOC,
            ),
            rule(
                "fia_v5.pse_q_dtype",
                Check::SameDType { slot: 3, like: 0 },
                FIA_PSE_DOC,
            ),
            rule(
                "fia_v5.pse_rank",
                Check::Rank {
                    slot: 3,
                    min: 4,
                    max: 4,
                },
                FIA_PSE_DOC,
            ),
        ],
        ..BASE
    },
    KernelSpec {
        op: OpKind::Attention,
        slots: &["q", "k", "v", "mask"],
        when: &[CAUSAL, Cond::Absent(3)],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnFusedInferAttentionScoreV2",
            args: &FIA_V2_CAUSAL,
        }]),
        source: "[8.1.RC1] aclnn_fused_infer_attention_score_v2.h; [ops-transformer] \
            attention/fused_infer_attention_score/docs/aclnnFusedInferAttentionScoreV2.md",
        note: FIA_CAUSAL_NOTE,
        rules: &[rule(
            "fia_v2.causal_targets",
            Check::Targets(A2_A3),
            FIA_CAUSAL_DOC,
        )],
        ..BASE
    },
    KernelSpec {
        op: OpKind::Attention,
        slots: &["q", "k", "v", "mask"],
        when: &[CAUSAL, Cond::Absent(3)],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnFusedInferAttentionScoreV5",
            args: &FIA_V5_CAUSAL,
        }]),
        source: "[ops-transformer] \
            attention/fused_infer_attention_score/docs/aclnnFusedInferAttentionScoreV5.md; the \
            call op-plugin makes on Ascend 950 (is_ascend950() → aclnnFusedInferAttentionScoreV5)",
        note: FIA_CAUSAL_NOTE,
        rules: &[rule(
            "fia_v5.causal_targets",
            Check::Targets(A5),
            FIA_CAUSAL_DOC,
        )],
        ..BASE
    },
    KernelSpec {
        op: OpKind::DynamicQuant,
        slots: &["x", "smooth_scale"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnDynamicQuant",
            args: &[X, OptionalInput(1, Plain), OUT, Output(1, Plain)],
        }]),
        source: "[8.1.RC1] aclnn_dynamic_quant.h; [ops-nn] \
            quant/dynamic_quant/docs/aclnnDynamicQuant.md",
        note: "yOut = result 0 (i8), scaleOut = result 1 (f32 per token)",
        ..BASE
    },
    KernelSpec {
        op: OpKind::QuantMatmul,
        slots: &["x1", "x2", "scale", "offset", "bias", "pertoken_scale"],
        when: &[
            Cond::StrIs {
                attr: "x2_format",
                value: "ND",
                default: Some("ND"),
            },
            Cond::IntIs {
                attr: "group_size",
                value: 0,
                default: 0,
            },
        ],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnQuantMatmulV4",
            args: &[
                Input(0, Plain),
                Input(1, Plain),
                Input(2, Plain),
                OptionalInput(3, Plain),
                OptionalInput(5, Plain),
                OptionalInput(4, Plain),
                Arg::Bool(Flag::Attr("transpose_x1")),
                Arg::Bool(Flag::Attr("transpose_x2")),
                OUT,
            ],
        }]),
        source: "[8.1.RC1] aclnn_quant_matmul_v4.h; [ops-nn] \
            matmul/quant_batch_matmul_v3/docs/aclnnQuantMatmulV4.md",
        note: "argument order is (x1, x2, scale, offset, pertokenScaleOptional, bias, ...): the \
            dit slots bias and pertoken_scale swap places. x2_format = FRACTAL_NZ is the \
            aclnnQuantMatmulWeightNz entry.",
        ..BASE
    },
    KernelSpec {
        op: OpKind::QuantMatmul,
        slots: &["x1", "x2", "scale", "offset", "bias", "pertoken_scale"],
        when: &[
            Cond::StrIs {
                attr: "x2_format",
                value: "ND",
                default: Some("ND"),
            },
            Cond::IntIsNot {
                attr: "group_size",
                value: 0,
                default: 0,
            },
        ],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnQuantMatmulV5",
            args: &[
                Input(0, Plain),
                Input(1, Plain),
                OptionalInput(5, Plain), // x1Scale: per-token scale
                Input(2, Plain),         // x2Scale
                Null(Kind::Tensor),      // yScale
                Null(Kind::Tensor),      // x1Offset (reserved)
                Null(Kind::Tensor),      // x2Offset
                OptionalInput(3, Plain), // yOffset
                OptionalInput(4, Plain), // bias
                Arg::Bool(Flag::Attr("transpose_x1")),
                Arg::Bool(Flag::Attr("transpose_x2")),
                Arg::Int64(Int::AttrOr("group_size", 0)),
                OUT,
            ],
        }]),
        source: "[ops-nn] matmul/quant_batch_matmul_v4/docs/aclnnQuantMatmulV5.md and \
            op_host/op_api/aclnn_quant_matmul_v5.h",
        note:
            "chosen when group_size != 0 (V4 has no groupSize). The prototype is documented; the \
            slot mapping is ours: scale → x2Scale, pertoken_scale → x1Scale, offset → yOffset. \
            groupSize is passed as given (documented encoding: K | N << 16 | M << 32).",
        ..BASE
    },
    KernelSpec {
        op: OpKind::QuantMatmul,
        slots: &["x1", "x2", "scale", "offset", "bias", "pertoken_scale"],
        when: &[Cond::StrIs {
            attr: "x2_format",
            value: "FRACTAL_NZ",
            default: Some("ND"),
        }],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnQuantMatmulWeightNz",
            args: &[
                Input(0, Plain),
                Input(1, View::Nz),
                OptionalInput(5, Plain), // x1Scale: per-token scale
                Input(2, Plain),         // x2Scale
                Null(Kind::Tensor),      // yScale (not on Atlas A2/A3)
                Null(Kind::Tensor),      // x1Offset (reserved)
                OptionalInput(3, Plain), // x2Offset
                Null(Kind::Tensor),      // yOffset
                OptionalInput(4, Plain), // bias
                Arg::Bool(Flag::Attr("transpose_x1")),
                Arg::Bool(Flag::Attr("transpose_x2")),
                Arg::Int64(Int::AttrOr("group_size", 0)),
                OUT,
            ],
        }]),
        source: "[ops-nn] matmul/quant_batch_matmul_v3/docs/aclnnQuantMatmulWeightNz.md",
        note: "x2_format = FRACTAL_NZ: x2 is described as ACL_FORMAT_FRACTAL_NZ with the documented \
            fractal dims ((n1, k1, 16, 32) for an int8 [K, N], (k1, n1, 16, 32) transposed; \
            View::Nz); its bytes must be in NZ order (aclnnTransMatmulWeight, or dit's load-time \
            pre-pack). Slot mapping ours: pertoken_scale → x1Scale, scale → x2Scale, offset → \
            x2Offset (V4's offset). groupSize: 0 on Atlas A2/A3 (documented), passed as given.",
        rules: &[rule(
            "quant_matmul_weight_nz.x2_format",
            Check::Format {
                slot: 1,
                format: Format::Nz,
            },
            "[ops-nn] matmul/quant_batch_matmul_v3/docs/aclnnQuantMatmulWeightNz.md (x2: NZ, \
             4-8 dims; 161002)",
        )],
        ..BASE
    },
    KernelSpec {
        op: OpKind::GroupedMatmul,
        slots: &[
            "x",
            "weight",
            "group_list",
            "bias",
            "scale",
            "per_token_scale",
        ],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnGroupedMatmulV4",
            args: &[
                Arg::TensorList(List::Input(0)),
                Arg::TensorList(List::Input(1)),
                Arg::TensorList(List::OptionalInput(3)),
                Arg::TensorList(List::OptionalInput(4)),
                Null(Kind::TensorList), // offsetOptional
                Null(Kind::TensorList), // antiquantScaleOptional
                Null(Kind::TensorList), // antiquantOffsetOptional
                Arg::TensorList(List::OptionalInput(5)),
                Input(2, Plain),           // groupListOptional
                Null(Kind::TensorList),    // activationInputOptional
                Null(Kind::TensorList),    // activationQuantScaleOptional
                Null(Kind::TensorList),    // activationQuantOffsetOptional
                Arg::Int64(Int::Const(3)), // splitItem: single-tensor output
                Arg::Int64(Int::Const(0)), // groupType: split the M axis
                Arg::Int64(Int::Enum {
                    attr: "group_list_type",
                    default: None,
                    codes: &[("cumsum", 0), ("count", 1)],
                }),
                Arg::Int64(Int::Const(0)), // actType: none
                Arg::TensorList(List::Output(0)),
                Null(Kind::TensorList), // activationFeatureOutOptional
                Null(Kind::TensorList), // dynQuantScaleOutOptional
            ],
        }]),
        source: "[8.1.RC1] aclnn_grouped_matmul_v4.h; [ops-transformer] \
            gmm/grouped_matmul/docs/aclnnGroupedMatmulV4.md",
        note: "single-tensor mode (x, weight [E,K,N], y each a one-element list; groupType 0 = M \
            axis, splitItem 3); groupListType: 0 = cumsum, 1 = count (documented)",
        rules: &[rule(
            "grouped_matmul_v4.group_list_dtype",
            Check::DTypes {
                slot: 2,
                allowed: &[DType::I64],
            },
            "[ops-transformer] gmm/grouped_matmul/docs/aclnnGroupedMatmulV4.md (parameter \
             table: groupListOptional 输入 … INT64 | ND; 161002)",
        )],
        ..BASE
    },
    KernelSpec {
        op: OpKind::Topk,
        slots: &["x"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnTopk",
            args: &[
                X,
                Arg::Int64(Int::Attr("k")),
                Arg::Int64(Int::Attr("dim")),
                Arg::Bool(Flag::Attr("largest")),
                Arg::Bool(Flag::Attr("sorted")),
                OUT,
                Output(1, Plain),
            ],
        }]),
        source: "[8.1.RC1] aclnn_topk.h; [ops-math] math/topk/docs/aclnnTopk.md",
        note: "valuesOut = result 0, indicesOut = result 1 (INT64)",
        rules: &[rule(
            "topk.dtype",
            Check::DTypes {
                slot: 0,
                allowed: &[DType::F32, DType::F16, DType::BF16, DType::I8, DType::I32, DType::I64],
            },
            "[ops-math] math/topk/docs/aclnnTopk.md (self: INT8、UINT8、INT16、INT32、INT64、\
             FLOAT16、FLOAT32、DOUBLE、BFLOAT16、UINT16、UINT32、UINT64; 8.1.RC1's header lists no \
             BFLOAT16)",
        )],
        ..BASE
    },
    KernelSpec {
        op: OpKind::Sort,
        slots: &["x"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnSort",
            args: &[
                X,
                Arg::Bool(Flag::Attr("stable")),
                Arg::Int64(Int::Attr("dim")),
                Arg::Bool(Flag::Attr("descending")),
                OUT,
                Output(1, Plain),
            ],
        }]),
        source: "[8.1.RC1] aclnn_sort.h; [ops-math] math/sort/docs/aclnnSort.md",
        note: "valuesOut = result 0, indicesOut = result 1 (INT64); torch's argsort is the \
            indices (aclnnArgsort has no stable flag, so the stable argsort is a sort)",
        rules: &[rule(
            "sort.dtype",
            Check::DTypes {
                slot: 0,
                allowed: &[DType::F32, DType::F16, DType::BF16, DType::I8, DType::I32, DType::I64],
            },
            "[ops-math] math/sort/docs/aclnnSort.md (self: BFLOAT16、FLOAT16、FLOAT32、INT8、\
             INT16、INT32、INT64、UINT8、UINT16、UINT32、UINT64、BOOL)",
        )],
        ..BASE
    },
    KernelSpec {
        op: OpKind::Cumsum,
        slots: &["x"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnCumsum",
            args: &[X, Arg::Int64(Int::Attr("dim")), Arg::DataType(0), OUT],
        }]),
        source: "[8.1.RC1] aclnn_cumsum.h; [ops-math] math/cumsum/docs/aclnnCumsum.md",
        note: "dtype = the result's aclDataType (torch's cumsum of an integer tensor is INT64)",
        rules: &[rule(
            "cumsum.dtype",
            Check::DTypes {
                slot: 0,
                allowed: &[DType::F32, DType::F16, DType::BF16, DType::I8, DType::I32, DType::I64],
            },
            "[ops-math] math/cumsum/docs/aclnnCumsum.md (self: FLOAT、FLOAT16、INT32、DOUBLE、\
             UINT8、INT8、INT16、INT64、COMPLEX64、COMPLEX128、BFLOAT16; rank <= 8)",
        )],
        ..BASE
    },
    KernelSpec {
        op: OpKind::FloorDiv,
        slots: &["lhs", "rhs"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnFloorDivide",
            args: &[LHS, RHS, OUT],
        }]),
        source: "[8.1.RC1] aclnn_floor_divide.h; [ops-math] \
            math/floor_div/docs/aclnnFloorDivide&aclnnInplaceFloorDivide.md",
        note: "out = floor(self / other); a Python-scalar divisor is a 0-d constant tensor \
            (aclnnFloorDivides would take it as an aclScalar)",
        rules: &[rule(
            "floor_div.dtype",
            Check::DTypes {
                slot: 0,
                allowed: &[DType::F32, DType::F16, DType::I8, DType::I32, DType::I64],
            },
            "[ops-math] math/floor_div/docs/aclnnFloorDivide&aclnnInplaceFloorDivide.md (self: \
             FLOAT、FLOAT16、DOUBLE、INT32、INT64、INT16、INT8、UINT8、BOOL)",
        )],
        ..BASE
    },
    KernelSpec {
        op: OpKind::IndexSelect,
        slots: &["x", "index"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnIndexSelect",
            args: &[X, Arg::Int64(Int::Attr("dim")), Input(1, Plain), OUT],
        }]),
        source: "[8.1.RC1] aclnn_index_select.h; [ops-nn] index/gather_v2/docs/aclnnIndexSelect.md",
        rules: &[
            rule(
                "index_select.dtype",
                Check::DTypes {
                    slot: 0,
                    allowed: &[DType::F32, DType::F16, DType::BF16, DType::I8, DType::I32, DType::I64],
                },
                INDEX_SELECT_DOC,
            ),
            rule(
                "index_select.index_dtype",
                Check::DTypes {
                    slot: 1,
                    allowed: &[DType::I64, DType::I32],
                },
                INDEX_SELECT_DOC,
            ),
            rule(
                "index_select.index_rank",
                Check::Rank {
                    slot: 1,
                    min: 0,
                    max: 1,
                },
                INDEX_SELECT_DOC,
            ),
        ],
        ..BASE
    },
    KernelSpec {
        op: OpKind::ScatterAdd,
        slots: &["x", "index", "src"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnScatterAdd",
            args: &[
                X,
                Arg::Int64(Int::Attr("dim")),
                Input(1, Plain),
                Input(2, Plain),
                OUT,
            ],
        }]),
        source: "[8.1.RC1] aclnn_scatter_add.h; [ops-nn] index/scatter_add/docs/aclnnScatterAdd.md",
        note: "8.1.RC1's header lists self FLOAT16/FLOAT32/INT32/INT8/UINT8 only; the ops-nn \
            page adds BFLOAT16 and INT64 (HiDream's token count per expert is INT64)",
        rules: &[
            rule(
                "scatter_add.dtype",
                Check::DTypes {
                    slot: 0,
                    allowed: &[DType::F32, DType::F16, DType::BF16, DType::I8, DType::I32, DType::I64],
                },
                SCATTER_ADD_DOC,
            ),
            rule(
                "scatter_add.index_dtype",
                Check::DTypes {
                    slot: 1,
                    allowed: &[DType::I64, DType::I32],
                },
                SCATTER_ADD_DOC,
            ),
            rule(
                "scatter_add.src_dtype",
                Check::SameDType { slot: 2, like: 0 },
                SCATTER_ADD_DOC,
            ),
        ],
        ..BASE
    },
    KernelSpec {
        op: OpKind::IndexAdd,
        slots: &["x", "index", "source"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnIndexAdd",
            args: &[
                X,
                Arg::Int64(Int::Attr("dim")),
                Input(1, Plain),
                Input(2, Plain),
                Arg::Scalar(Num::Const(1.0)),
                OUT,
            ],
        }]),
        source: "[8.1.RC1] aclnn_index_add.h; [ops-nn] \
            index/inplace_scatter_add/docs/aclnnIndexAdd.md",
        note: "alpha = 1 (the converter refuses another alpha)",
        rules: &[
            rule(
                "index_add.dtype",
                Check::DTypes {
                    slot: 0,
                    allowed: &[DType::F32, DType::F16, DType::BF16, DType::I8, DType::I32, DType::I64],
                },
                INDEX_ADD_DOC,
            ),
            rule(
                "index_add.index_dtype",
                Check::DTypes {
                    slot: 1,
                    allowed: &[DType::I64, DType::I32],
                },
                INDEX_ADD_DOC,
            ),
            rule(
                "index_add.source_dtype",
                Check::SameDType { slot: 2, like: 0 },
                INDEX_ADD_DOC,
            ),
        ],
        ..BASE
    },
    KernelSpec {
        op: OpKind::MoeInitRouting,
        slots: &["x", "expert_idx"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnMoeInitRoutingV2",
            args: &[
                X,
                Input(1, Plain),
                Arg::Int64(Int::Const(0)), // activeNum: 0 = drop-less
                Arg::Int64(Int::Const(0)), // expertCapacity (drop/pad mode only)
                Arg::Int64(Int::Attr("num_experts")),
                Arg::Int64(Int::Const(0)), // dropPadMode: 0 = drop-less
                Arg::Int64(Int::Enum {
                    attr: "expert_tokens",
                    default: None,
                    codes: &[("cumsum", 1), ("count", 2)],
                }),
                Arg::Bool(Flag::Const(false)), // expertTokensBeforeCapacityFlag
                OUT,
                Output(1, Plain),
                Output(2, Plain),
                Null(Kind::Tensor), // expertTokensBeforeCapacityOutOptional
            ],
        }]),
        source: "[8.1.RC1] aclnn_moe_init_routing_v2.h; [ops-transformer] \
            moe/moe_init_routing_v2/docs/aclnnMoeInitRoutingV2.md",
        note: "drop-less (activeNum 0, dropPadMode 0): expandedXOut = result 0, \
            expandedRowIdxOut = result 1 (INT32, expandedRowIdx[sortedRowIdx[i]] = i), \
            expertTokensCountOrCumsumOut = result 2 (INT32; flag 1 = cumsum, 2 = count, \
            documented)",
        rules: &[
            rule(
                "moe_init_routing_v2.x_dtype",
                Check::DTypes {
                    slot: 0,
                    allowed: &[DType::F16, DType::BF16, DType::F32],
                },
                MOE_INIT_ROUTING_DOC,
            ),
            // The parameter table lists INT32、INT64; the note under it narrows that per chip.
            Rule {
                on: A2_A3,
                ..rule(
                    "moe_init_routing_v2.expert_idx_dtype",
                    Check::DTypes {
                        slot: 1,
                        allowed: &[DType::I32],
                    },
                    MOE_INIT_ROUTING_EXPERT_IDX_DOC,
                )
            },
            Rule {
                on: A5,
                ..rule(
                    "moe_init_routing_v2.expert_idx_dtype_950",
                    Check::DTypes {
                        slot: 1,
                        allowed: &[DType::I32, DType::I64],
                    },
                    MOE_INIT_ROUTING_EXPERT_IDX_DOC,
                )
            },
            rule(
                "moe_init_routing_v2.rank",
                Check::Rank {
                    slot: 0,
                    min: 2,
                    max: 2,
                },
                MOE_INIT_ROUTING_DOC,
            ),
            // The tokens per expert come out INT32, whatever expertIdx's dtype; an int64 group
            // list (aclnnGroupedMatmulV4) needs a dit.cast after the kernel.
            rule(
                "moe_init_routing_v2.tokens_dtype",
                Check::ResultDTypes {
                    result: 2,
                    allowed: &[DType::I32],
                },
                MOE_INIT_ROUTING_TOKENS_DOC,
            ),
        ],
        ..BASE
    },
    KernelSpec {
        op: OpKind::MoeFinalizeRouting,
        slots: &["expanded_x", "expanded_row_idx", "scales"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnMoeFinalizeRoutingV2",
            args: &[
                X,
                Input(1, Plain),
                Null(Kind::Tensor), // x1Optional
                Null(Kind::Tensor), // x2Optional
                Null(Kind::Tensor), // biasOptional
                Input(2, Plain),    // scalesOptional
                Null(Kind::Tensor), // expertIdxOptional (needed with a bias only)
                Arg::Int64(Int::Const(2)), // dropPadMode: drop-less, expandedRowIdx by rows
                OUT,
            ],
        }]),
        source: "[8.1.RC1] aclnn_moe_finalize_routing_v2.h; [ops-transformer] \
            moe/moe_finalize_routing_v2/docs/aclnnMoeFinalizeRoutingV2.md",
        note: "out(i,j) = Σ_k scales(i,k)·expandedX(expandedRowIdx(i·K+k), j) (no x1, x2, bias); \
            dropPadMode 2 = drop-less with expandedRowIdx laid out by rows, the layout \
            aclnnMoeInitRoutingV2 outputs (documented)",
        rules: &[
            rule(
                "moe_finalize_routing_v2.dtype",
                Check::DTypes {
                    slot: 0,
                    allowed: &[DType::F16, DType::BF16, DType::F32],
                },
                MOE_FINALIZE_ROUTING_DOC,
            ),
            rule(
                "moe_finalize_routing_v2.row_idx_dtype",
                Check::DTypes {
                    slot: 1,
                    allowed: &[DType::I32],
                },
                MOE_FINALIZE_ROUTING_DOC,
            ),
        ],
        ..BASE
    },
    KernelSpec {
        op: OpKind::Opaque,
        slots: &["args"],
        body: Body::NoKernel,
        note: "an op the dialect does not model: no aclnn kernel is known for it; the lowering \
            keeps it as an external call named by its `name` attribute",
        ..BASE
    },
    KernelSpec {
        op: OpKind::FastGelu,
        slots: &["x"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnFastGelu",
            args: &[X, OUT],
        }]),
        source: "[ops-nn] activation/fast_gelu/docs/aclnnFastGelu.md and op_api/aclnn_fast_gelu.h",
        ..BASE
    },
    KernelSpec {
        op: OpKind::MulsAdd,
        slots: &["x", "y"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnAdd",
            args: &[
                Input(1, Plain),
                Input(0, Plain),
                Arg::Scalar(Num::Attr("scale")),
                OUT,
            ],
        }]),
        source: "[8.1.RC1] aclnn_add.h; [ops-math] math/add/docs/aclnnAdd&aclnnInplaceAdd.md",
        note: "x·scale + y is aclnnAdd(self = y, other = x, alpha = scale): out = self + \
            alpha·other, one kernel (no documented aclnnMulsAdd exists)",
        ..BASE
    },
    KernelSpec {
        op: OpKind::AdaLayerNorm,
        slots: &["x", "scale", "shift"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnAdaLayerNorm",
            args: &[
                X,
                Input(1, Plain),
                Input(2, Plain),
                Null(Kind::Tensor), // weightOptional
                Null(Kind::Tensor), // biasOptional
                Arg::Double(Num::Attr("epsilon")),
                OUT,
            ],
        }]),
        source: "[ops-nn] norm/ada_layer_norm/docs/aclnnAdaLayerNorm.md and \
            op_host/op_api/aclnn_ada_layer_norm.h",
        note: "out = LayerNorm(x)·(1 + scale) + shift, no LayerNorm weight/bias (Atlas A2/A3)",
        ..BASE
    },
    KernelSpec {
        op: OpKind::QuantMatmulGelu,
        slots: &["x1", "x2", "x1_scale", "x2_scale", "bias"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnFusedQuantMatmul",
            args: &[
                // x1 [.., K, M] / x2 [.., N, K] stored, seen as [.., M, K] / [.., K, N]: the
                // page takes "最后两根轴转置情况下的非连续tensor" for both (x1, x2 rows).
                Input(0, View::TransposeLast2If("transpose_x1")),
                Input(1, View::TransposeLast2If("transpose_x2")),
                Input(2, Plain),
                Input(3, Plain),
                Null(Kind::Tensor), // yScaleOptional (reserved)
                Null(Kind::Tensor), // x1OffsetOptional (reserved)
                Null(Kind::Tensor), // x2OffsetOptional (reserved)
                Null(Kind::Tensor), // yOffsetOptional (reserved)
                OptionalInput(4, Plain),
                Null(Kind::Tensor), // x3Optional (reserved)
                Arg::Str(Text::Attr("approximate")),
                Arg::Int64(Int::Const(0)), // groupSizeOptional (reserved)
                OUT,
            ],
        }]),
        source: "[ops-nn] matmul/fused_quant_mat_mul/docs/aclnnFusedQuantMatmul.md and \
            op_host/op_api/aclnn_fused_quant_matmul.h",
        note: "fusedOpType = the approximate attribute unchanged (\"gelu_tanh\" | \"gelu_erf\", \
            the documented values); groupSizeOptional is reserved: 0 as in the sample. \
            transpose_x1 / transpose_x2 (absent = false) pass x1 / x2 as last-two-dims transposed \
            views, the non-contiguous form the page accepts; int4 x1 only untransposed (checked \
            by the P0 native: a rule cannot read the flag)",
        rules: FUSED_QUANT_MATMUL_RULES,
        ..BASE
    },
    KernelSpec {
        op: OpKind::FusedMatmul,
        slots: &["x1", "x2", "bias", "x3"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnFusedMatmul",
            args: &[
                Input(0, Plain),
                Input(1, Plain),
                OptionalInput(2, Plain),
                OptionalInput(3, Plain),
                Arg::Str(Text::Attr("fused_op_type")),
                Arg::Int8(0),
                OUT,
            ],
        }]),
        source: "[ops-nn] matmul/fused_mat_mul/docs/aclnnFusedMatmul.md and \
            op_host/op_api/aclnn_fused_matmul.h",
        note: "fusedOpType = fused_op_type unchanged (\"\", add, mul, gelu_tanh, gelu_erf, relu \
            are documented values); Ascend 950 only",
        rules: FUSED_MATMUL_RULES,
        ..BASE
    },
    KernelSpec {
        op: OpKind::GroupedMatmulSwigluQuant,
        slots: &[
            "x",
            "weight",
            "group_list",
            "weight_scale",
            "x_scale",
            "bias",
            "offset",
        ],
        when: &[
            Cond::StrIs {
                attr: "variant",
                value: "v1",
                default: None,
            },
            // V1 has no group list kind: it reads a cumsum.
            Cond::StrIs {
                attr: "group_list_type",
                value: "cumsum",
                default: Some("cumsum"),
            },
        ],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnGroupedMatmulSwigluQuantWeightNZ",
            args: &[
                Input(0, Plain),
                Input(1, View::Nz),
                OptionalInput(5, Plain),
                OptionalInput(6, Plain),
                Input(3, Plain),
                Input(4, Plain),
                Input(2, Plain),
                OUT,
                Output(1, Plain),
                Output(2, Plain),
            ],
        }]),
        source: "[ops-transformer] \
            gmm/grouped_matmul_swiglu_quant/docs/aclnnGroupedMatmulSwigluQuantWeightNZ.md",
        note: "the weightNZ specialisation of aclnnGroupedMatmulSwigluQuant (same arguments), what \
            torch_npu calls for an NZ weight on Atlas A2/A3. The weight [E, K, N] int8 is \
            described as FRACTAL_NZ [E, N/32, K/16, 16, 32] (View::Nz; the documented sample's \
            shape); its bytes must be in NZ order: the lowering's load-time pre-pack converts \
            an ND weight argument once. groupList is a cumsum.",
        rules: &[
            rule("gmm_swiglu_quant_weight_nz.targets", Check::Targets(A2_A3), GMM_SWIGLU_QUANT_NZ_DOC),
            rule(
                "gmm_swiglu_quant_weight_nz.weight_format",
                Check::Format {
                    slot: 1,
                    format: Format::Nz,
                },
                GMM_SWIGLU_QUANT_NZ_DOC,
            ),
        ],
        ..BASE
    },
    KernelSpec {
        op: OpKind::GroupedMatmulSwigluQuant,
        slots: &[
            "x",
            "weight",
            "group_list",
            "weight_scale",
            "x_scale",
            "bias",
            "offset",
        ],
        when: &[
            Cond::StrIs {
                attr: "variant",
                value: "v1",
                default: None,
            },
            // V1 has no group list kind: it reads a cumsum.
            Cond::StrIs {
                attr: "group_list_type",
                value: "cumsum",
                default: Some("cumsum"),
            },
        ],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnGroupedMatmulSwigluQuant",
            args: &[
                Input(0, Plain),
                Input(1, Plain),
                OptionalInput(5, Plain),
                OptionalInput(6, Plain),
                Input(3, Plain),
                Input(4, Plain),
                Input(2, Plain),
                OUT,
                Output(1, Plain),
                Output(2, Plain),
            ],
        }]),
        source: "[8.1.RC1] aclnn_grouped_matmul_swiglu_quant.h; [ops-transformer] \
            gmm/grouped_matmul_swiglu_quant/docs/aclnnGroupedMatmulSwigluQuant.md",
        note: "argument order (x, weight, bias, offset, weightScale, xScale, groupList, output, \
            outputScale, outputOffset); groupList is a cumsum. Chosen where the WeightNZ entry is \
            not (Ascend 950); A8W8 wants an NZ weight there too.",
        rules: &[rule(
            "gmm_swiglu_quant.weight_nz",
            Check::Format {
                slot: 1,
                format: Format::Nz,
            },
            GMM_SWIGLU_QUANT_DOC,
        )],
        ..BASE
    },
    KernelSpec {
        op: OpKind::GroupedMatmulSwigluQuant,
        slots: &[
            "x",
            "weight",
            "group_list",
            "weight_scale",
            "x_scale",
            "bias",
            "offset",
        ],
        when: &[Cond::StrIs {
            attr: "variant",
            value: "v2",
            default: None,
        }],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnGroupedMatmulSwigluQuantV2",
            args: &[
                Input(0, Plain),
                Arg::TensorList(List::Input(1)),
                Arg::TensorList(List::Input(3)),
                Null(Kind::TensorList),  // weightAssistMatrix (A8W4 only)
                OptionalInput(5, Plain), // bias (reserved: must be empty)
                Input(4, Plain),
                Null(Kind::Tensor), // smoothScale (reserved)
                Input(2, Plain),
                Arg::Int64(Int::Const(0)), // dequantMode: per-token x, per-channel weight
                Arg::Int64(Int::Const(28)), // dequantDtype: 28 = undefined, as in the sample
                Arg::Int64(Int::Const(0)), // quantMode: per-token
                // groupListType: 0 = cumsum, 1 = count (dit's group_list_type, default cumsum).
                Arg::Int64(Int::Enum {
                    attr: "group_list_type",
                    default: Some("cumsum"),
                    codes: &[("cumsum", 0), ("count", 1)],
                }),
                Null(Kind::IntArray), // tuningConfigOptional (reserved)
                OUT,
                Output(1, Plain),
            ],
        }]),
        zero_results: &[2],
        source: "[ops-transformer] \
            gmm/grouped_matmul_swiglu_quant_v2/docs/aclnnGroupedMatmulSwigluQuantV2.md and \
            op_host/op_api/aclnn_grouped_matmul_swiglu_quant_v2.h",
        note: "weight and weightScale are one-element tensor lists. V2 has no offset input and no \
            outputOffset: its per-token quantisation is symmetric, so y_offset is returned as \
            zeros, and a filled offset slot is refused. On Atlas A2/A3, A8W8 wants the weight in \
            FRACTAL_NZ (rule gmm_swiglu_quant_v2.weight_nz): there the fusion picks v1 \
            (WeightNZ) for a cumsum list and reports a count list.",
        rules: &[Rule {
            on: A2_A3,
            ..rule(
                "gmm_swiglu_quant_v2.weight_nz",
                Check::Format {
                    slot: 1,
                    format: Format::Nz,
                },
                GMM_SWIGLU_QUANT_V2_DOC,
            )
        }],
        ..BASE
    },
    KernelSpec {
        op: OpKind::Swiglu,
        slots: &["x"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnSwiGlu",
            args: &[X, Arg::Int64(Int::Attr("dim")), OUT],
        }]),
        source: "[8.1.RC1] aclnn_swi_glu.h; [ops-nn] activation/swi_glu/docs/aclnnSwiGlu.md",
        note: "documented: out = Swish(first half) · second half along dim, as dit.swiglu",
        ..BASE
    },
    KernelSpec {
        op: OpKind::SiluMul,
        slots: &["gate", "up"],
        body: Body::Aclnn(&[
            Call {
                symbol: "aclnnSilu",
                args: &[Input(0, Plain), Arg::Temp(0)],
            },
            Call {
                symbol: "aclnnMul",
                args: &[Arg::Temp(0), Input(1, Plain), OUT],
            },
        ]),
        temps: &[Temp {
            dtype: TempType::LikeInput(0),
            shape: TempShape::LikeInput(0),
        }],
        source: "[8.1.RC1] aclnn_silu.h, aclnn_mul.h",
        note:
            "a two-call sequence: silu(gate) into a temporary, then temporary·up. The one-kernel \
            aclnnSiluMul(x, y, out) is documented only under ops-nn \
            experimental/activation/silu_mul (not in a released libopapi), so it is not used; the \
            single fused kernel is dit.fused's job.",
        ..BASE
    },
    KernelSpec {
        op: OpKind::GeluMul,
        slots: &["x"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnGeluMul",
            args: &[X, Arg::Str(Text::Attr("approximate")), OUT],
        }]),
        source: "[8.1.RC1] aclnn_gelu_mul.h; [ops-nn] activation/gelu_mul/docs/aclnnGeluMul.md",
        note: "approximateOptional = the attribute unchanged (\"none\" | \"tanh\", documented)",
        rules: GELU_MUL_RULES,
        ..BASE
    },
    KernelSpec {
        op: OpKind::KvRmsNormRopeCache,
        slots: &["kv", "gamma", "cos", "sin", "index", "k_cache", "ckv_cache"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnKvRmsNormRopeCache",
            args: &[
                Input(0, Plain),
                Input(1, Plain),
                Input(2, Plain),
                Input(3, Plain),
                Input(4, Plain),
                Arg::InOut { slot: 5, result: 0 }, // kCacheRef
                Arg::InOut { slot: 6, result: 1 }, // ckvCacheRef
                Null(Kind::Tensor),                // kRopeScaleOptional
                Null(Kind::Tensor),                // ckvScaleOptional
                Null(Kind::Tensor),                // kRopeOffsetOptional
                Null(Kind::Tensor),                // cKvOffsetOptional
                Arg::Double(Num::Attr("epsilon")),
                Arg::Str(Text::Attr("cache_mode")),
                Arg::Bool(Flag::Const(false)), // isOutputKv
                Arg::Temp(0),                  // kRopeOut
                Arg::Temp(1),                  // cKvOut
            ],
        }]),
        temps: &[
            Temp {
                dtype: TempType::LikeInput(0),
                shape: TempShape::LastDimFrom { like: 0, from: 2 },
            },
            Temp {
                dtype: TempType::LikeInput(0),
                shape: TempShape::LastDimFrom { like: 0, from: 1 },
            },
        ],
        source: KV_RMS_NORM_ROPE_CACHE_SOURCE,
        note: "the caches are Ref tensors updated in place and returned as the two results. \
            kRopeOut and cKvOut get temporaries shaped like kv with last dim 64 (cos) and 512 \
            (gamma), as the sample allocates them even with isOutputKv = false. The reference \
            page declares workspaceSize and executor by value, a documented typo (fixed in \
            cann/ops-transformer!3828); the sample passes pointers as every aclnn op. Ascend 950, \
            Atlas A3 and A2: the current page lists all three (pages of 2025 listed A2/A3 as \
            不支持), and torch_npu calls it on A2/A3.",
        rules: &[
            rule(
                "kv_rms_norm_rope_cache.dtype",
                Check::DTypes {
                    slot: 0,
                    allowed: &[DType::BF16, DType::F16],
                },
                KV_RMS_NORM_ROPE_CACHE_DOC,
            ),
            // "与kv数据类型一致" is checked at tiling: ACLNN_ERR_INNER_TILING_ERROR.
            Rule {
                code: TILING,
                ..rule(
                    "kv_rms_norm_rope_cache.gamma_dtype",
                    Check::SameDType { slot: 1, like: 0 },
                    KV_RMS_NORM_ROPE_CACHE_DOC,
                )
            },
            Rule {
                code: TILING,
                ..rule(
                    "kv_rms_norm_rope_cache.cos_dtype",
                    Check::SameDType { slot: 2, like: 0 },
                    KV_RMS_NORM_ROPE_CACHE_DOC,
                )
            },
            Rule {
                code: TILING,
                ..rule(
                    "kv_rms_norm_rope_cache.sin_dtype",
                    Check::SameDType { slot: 3, like: 0 },
                    KV_RMS_NORM_ROPE_CACHE_DOC,
                )
            },
            rule(
            "kv_rms_norm_rope_cache.targets",
            Check::Targets(&["ascend910b", "ascend910_93", "ascend950"]),
            "[ops-transformer] posembedding/kv_rms_norm_rope_cache/docs/aclnnKvRmsNormRopeCache.md \
             (产品支持情况, 2026-07: Ascend 950PR/950DT √, Atlas A3 √, Atlas A2 √; other products \
             ×); [op-plugin] docs/context/torch_npu-npu_kv_rmsnorm_rope_cache.md (A2/A3)",
            ),
        ],
        ..BASE
    },
    KernelSpec {
        op: OpKind::MoeGatingTopkSoftmax,
        slots: &["x", "finished"],
        body: Body::Aclnn(&[Call {
            symbol: "aclnnMoeGatingTopKSoftmax",
            args: &[
                X,
                OptionalInput(1, Plain), // finishedOptional
                Arg::Int64(Int::Attr("k")),
                OUT,              // yOut
                Output(1, Plain), // expertIdxOut (INT32)
                Output(2, Plain), // rowIdxOut (INT32)
            ],
        }]),
        source: "[ops-transformer] moe/moe_gating_top_k_softmax/docs/aclnnMoeGatingTopKSoftmax.md \
            (prototype; its sample includes aclnnop/aclnn_moe_gating_top_k_softmax.h, whose \
            generated op_api header declares the same arguments); [hiascend] \
            https://www.hiascend.com/document/detail/zh/canncommercial/800/apiref/aolapi/context/aclnnMoeGatingTopKSoftmax.md",
        note: "softmaxOut = softmax(x, axis = -1); yOut, expertIdxOut = topK(softmaxOut, k) \
            (largest first); rowIdxOut = arange(T·k).reshape([k, T]).transpose(1, 0); a \
            finished row gets expert E (documented). k <= the experts of a row and <= 1024 \
            (561002) is the dit verifier's rule moe_gating_topk_softmax.k: the table checks \
            operands only.",
        rules: &[
            rule(
                "moe_gating_topk_softmax.x_dtype",
                Check::DTypes {
                    slot: 0,
                    allowed: &[DType::F16, DType::BF16, DType::F32],
                },
                MOE_GATING_DOC,
            ),
            Rule {
                code: TILING,
                ..rule(
                    "moe_gating_topk_softmax.rank",
                    Check::Rank {
                        slot: 0,
                        min: 2,
                        max: 3,
                    },
                    MOE_GATING_DOC,
                )
            },
            rule(
                "moe_gating_topk_softmax.finished_dtype",
                Check::DTypes {
                    slot: 1,
                    allowed: &[DType::I1],
                },
                MOE_GATING_DOC,
            ),
            Rule {
                code: TILING,
                ..rule(
                    "moe_gating_topk_softmax.finished_rank",
                    Check::Rank {
                        slot: 1,
                        min: 1,
                        max: 2,
                    },
                    MOE_GATING_DOC,
                )
            },
            Rule {
                on: A2_A3,
                code: TILING,
                ..rule(
                    "moe_gating_topk_softmax.experts",
                    Check::LastDimMax { slot: 0, max: 1024 },
                    "[hiascend] https://www.hiascend.com/document/detail/zh/canncommercial/700/\
                     inferapplicationdev/aclcppdevg/aclcppdevg_03_0189.html (约束与限制: 专家个数\
                     不超过1024个, Atlas A2; later pages state no bound of their own on A2/A3, \
                     only k <= 1024)",
                )
            },
            Rule {
                on: A5,
                code: TILING,
                ..rule(
                    "moe_gating_topk_softmax.experts_950",
                    Check::LastDimMax { slot: 0, max: 2048 },
                    "[ops-transformer] moe/moe_gating_top_k_softmax/docs/\
                     aclnnMoeGatingTopKSoftmax.md (约束说明: 昇腾910_95 AI处理器, x最后一维的大小\
                     （即专家数）取值范围为[1, 2048])",
                )
            },
        ],
        ..BASE
    },
    KernelSpec {
        op: OpKind::Fused,
        slots: &["captured"],
        body: Body::NoKernel,
        note: "a generated Ascend C vector kernel (built from the region by the fused-kernel \
            lowering), not an aclnn operator",
        ..BASE
    },
    KernelSpec {
        op: OpKind::Yield,
        slots: &["values"],
        body: Body::NoKernel,
        note: "the terminator of dit.fused: no kernel of its own",
        ..BASE
    },
];

/// The target [`select`] and [`kernel_for`] choose for (DIALECT.md's default).
pub const DEFAULT_TARGET: &str = "ascend910b";

/// The entry for `op` with attributes `attrs` and filled operand slots `present` (one flag per
/// slot; slots past the end count as empty) when the target is not known: the default target's
/// entry, else the first entry of another target (dit.fused_matmul has only Ascend 950's), as
/// before entries were chosen per target. `None`: no entry fits (an unknown op, or an attribute
/// combination no aclnn kernel covers).
pub fn select(op: OpKind, attrs: &Attrs, present: &[bool]) -> Option<&'static KernelSpec> {
    select_for_target(op, attrs, present, DEFAULT_TARGET).or_else(|| {
        KERNELS
            .iter()
            .find(|k| k.op == op && k.when.iter().all(|c| holds(c, attrs, present)))
    })
}

/// [`select`] on `target` (a DIALECT.md target name): entries whose `Targets` rule excludes the
/// target are passed over, so one dit op can map to different aclnn operators per chip
/// (FusedInferAttentionScore V2 on Atlas A2/A3, V5 on Ascend 950).
pub fn select_for_target(
    op: OpKind,
    attrs: &Attrs,
    present: &[bool],
    target: &str,
) -> Option<&'static KernelSpec> {
    KERNELS.iter().find(|k| {
        k.op == op
            && k.when.iter().all(|c| holds(c, attrs, present))
            && contracts::available_on(k, target)
    })
}

/// The filled optional slots, from `operandSegmentSizes` when `attrs` carries it; without it
/// every optional slot counts as empty (DIALECT.md requires the attribute on every op whose
/// optional slot is filled).
fn present_from(attrs: &Attrs) -> Vec<bool> {
    match attrs.get("operandSegmentSizes") {
        Some(AttrValue::Ints(sizes)) => sizes.iter().map(|s| *s > 0).collect(),
        _ => Vec::new(),
    }
}

/// The entry for `op` with attributes `attrs`, the target not known (as [`select`]).
pub fn kernel_for(op: OpKind, attrs: &Attrs) -> Option<&'static KernelSpec> {
    select(op, attrs, &present_from(attrs))
}

/// The entry the lowering named: the one for `op`, `attrs` and `present` (on any target) whose
/// calls are `kernel` (symbols joined with `+`). The lowering picks per target, so the runtime
/// finds the entry by the name it was given rather than by guessing the target.
pub fn entry_named(
    op: OpKind,
    attrs: &Attrs,
    present: &[bool],
    kernel: &str,
) -> Option<&'static KernelSpec> {
    KERNELS.iter().find(|k| {
        let names: Vec<&str> = k.calls().iter().map(|c| c.symbol).collect();
        k.op == op && k.when.iter().all(|c| holds(c, attrs, present)) && names.join("+") == kernel
    })
}

/// Operand slots `spec` passes as FRACTAL_NZ ([`View::Nz`]).
pub fn nz_slots(spec: &KernelSpec) -> Vec<usize> {
    spec.calls()
        .iter()
        .flat_map(|c| c.args.iter())
        .filter_map(|a| match *a {
            Arg::Input(s, View::Nz) | Arg::OptionalInput(s, View::Nz) => Some(s),
            _ => None,
        })
        .collect()
}

/// The entry for `op` with attributes `attrs` on `target` (as [`select_for_target`]).
pub fn kernel_for_target(op: OpKind, attrs: &Attrs, target: &str) -> Option<&'static KernelSpec> {
    select_for_target(op, attrs, &present_from(attrs), target)
}

fn holds(cond: &Cond, attrs: &Attrs, present: &[bool]) -> bool {
    let filled = |slot: usize| present.get(slot).copied().unwrap_or(false);
    match *cond {
        Cond::StrIs {
            attr,
            value,
            default,
        } => match attrs.get(attr) {
            Some(AttrValue::Str(s)) => s == value,
            Some(_) => false,
            None => default == Some(value),
        },
        Cond::IntIs {
            attr,
            value,
            default,
        } => attr_i64(attrs, attr).unwrap_or(default) == value,
        Cond::IntIsNot {
            attr,
            value,
            default,
        } => attr_i64(attrs, attr).unwrap_or(default) != value,
        Cond::BoolIs {
            attr,
            value,
            default,
        } => match attrs.get(attr) {
            Some(AttrValue::Bool(b)) => *b == value,
            Some(_) => false,
            None => default == value,
        },
        Cond::Present(slot) => filled(slot),
        Cond::Absent(slot) => !filled(slot),
    }
}

/// An integer attribute.
pub fn attr_i64(attrs: &Attrs, name: &str) -> Option<i64> {
    match attrs.get(name)? {
        AttrValue::Int(v) => Some(*v),
        _ => None,
    }
}

/// A float attribute (an integer one is widened: JSON `1` parses as an integer).
pub fn attr_f64(attrs: &Attrs, name: &str) -> Option<f64> {
    match attrs.get(name)? {
        AttrValue::Float(v) => Some(*v),
        AttrValue::Int(v) => Some(*v as f64),
        _ => None,
    }
}

/// A bool attribute.
pub fn attr_bool(attrs: &Attrs, name: &str) -> Option<bool> {
    match attrs.get(name)? {
        AttrValue::Bool(v) => Some(*v),
        _ => None,
    }
}

/// A string attribute.
pub fn attr_str<'a>(attrs: &'a Attrs, name: &str) -> Option<&'a str> {
    match attrs.get(name)? {
        AttrValue::Str(v) => Some(v),
        _ => None,
    }
}

/// An `array<i64>` attribute.
pub fn attr_ints<'a>(attrs: &'a Attrs, name: &str) -> Option<&'a [i64]> {
    match attrs.get(name)? {
        AttrValue::Ints(v) => Some(v),
        _ => None,
    }
}

/// The shapes an argument value may depend on: operands by slot (`None` = empty slot) and
/// results.
#[derive(Debug, Clone, Copy)]
pub struct Shapes<'a> {
    /// Operand shapes by slot (a variadic slot's values continue past its index).
    pub inputs: &'a [Option<&'a [usize]>],
    /// Result shapes.
    pub results: &'a [&'a [usize]],
}

impl Shapes<'_> {
    fn input(&self, slot: usize) -> Result<&[usize], String> {
        self.inputs
            .get(slot)
            .copied()
            .flatten()
            .ok_or_else(|| format!("operand {slot} is missing"))
    }
}

impl Num {
    /// The value for these attributes.
    pub fn eval(&self, attrs: &Attrs) -> Result<f64, String> {
        match *self {
            Num::Const(v) => Ok(v),
            Num::Attr(name) => {
                attr_f64(attrs, name).ok_or_else(|| format!("needs float attribute '{name}'"))
            }
        }
    }
}

impl Int {
    /// The value for these attributes and shapes.
    pub fn eval(&self, attrs: &Attrs, shapes: &Shapes) -> Result<i64, String> {
        match *self {
            Int::Const(v) => Ok(v),
            Int::Attr(name) => {
                attr_i64(attrs, name).ok_or_else(|| format!("needs integer attribute '{name}'"))
            }
            Int::AttrOr(name, default) => match attrs.get(name) {
                None => Ok(default),
                Some(_) => attr_i64(attrs, name)
                    .ok_or_else(|| format!("attribute '{name}' must be an integer")),
            },
            Int::Enum {
                attr,
                default,
                codes,
            } => {
                let value = match attrs.get(attr) {
                    Some(AttrValue::Str(s)) => s.as_str(),
                    Some(_) => return Err(format!("attribute '{attr}' must be a string")),
                    None => default.ok_or_else(|| format!("needs string attribute '{attr}'"))?,
                };
                codes
                    .iter()
                    .find(|(s, _)| *s == value)
                    .map(|(_, c)| *c)
                    .ok_or_else(|| {
                        let known: Vec<&str> = codes.iter().map(|(s, _)| *s).collect();
                        format!("attribute {attr} = \"{value}\" is not one of {known:?}")
                    })
            }
            Int::Heads {
                slot,
                layout_attr,
                default_layout,
            } => {
                let layout = match attrs.get(layout_attr) {
                    Some(AttrValue::Str(s)) => s.as_str(),
                    Some(_) => return Err(format!("attribute '{layout_attr}' must be a string")),
                    None => default_layout,
                };
                let dim = match layout {
                    "BNSD" => 1,
                    "BSND" => 2,
                    other => {
                        return Err(format!(
                            "layout \"{other}\" does not carry the head count in the shape \
                             (BNSD and BSND do)"
                        ))
                    }
                };
                let shape = shapes.input(slot)?;
                shape.get(dim).map(|d| *d as i64).ok_or_else(|| {
                    format!(
                        "operand {slot} has rank {}, layout {layout} needs 4",
                        shape.len()
                    )
                })
            }
        }
    }
}

impl Ints {
    /// The values for these attributes and shapes.
    pub fn eval(&self, attrs: &Attrs, shapes: &Shapes) -> Result<Vec<i64>, String> {
        match *self {
            Ints::Attr(name) => attr_ints(attrs, name)
                .map(<[i64]>::to_vec)
                .ok_or_else(|| format!("needs array<i64> attribute '{name}'")),
            Ints::ResultShape(i) => shapes
                .results
                .get(i)
                .map(|s| s.iter().map(|d| *d as i64).collect())
                .ok_or_else(|| format!("result {i} is missing")),
            Ints::LastDim(slot) => {
                let shape = shapes.input(slot)?;
                shape
                    .last()
                    .map(|d| vec![*d as i64])
                    .ok_or_else(|| format!("operand {slot} is 0-d, it has no last dim"))
            }
        }
    }
}

impl Flag {
    /// The value for these attributes.
    pub fn eval(&self, attrs: &Attrs) -> Result<bool, String> {
        match *self {
            Flag::Const(v) => Ok(v),
            Flag::Attr(name) => {
                attr_bool(attrs, name).ok_or_else(|| format!("needs bool attribute '{name}'"))
            }
        }
    }
}

impl Text {
    /// The string for these attributes.
    pub fn eval(&self, attrs: &Attrs) -> Result<String, String> {
        match *self {
            Text::Const(s) => Ok(s.to_string()),
            Text::Attr(name) => attr_str(attrs, name)
                .map(str::to_string)
                .ok_or_else(|| format!("needs string attribute '{name}'")),
            Text::AttrOr(name, default) => match attrs.get(name) {
                None => Ok(default.to_string()),
                Some(_) => attr_str(attrs, name)
                    .map(str::to_string)
                    .ok_or_else(|| format!("attribute '{name}' must be a string")),
            },
        }
    }
}

impl View {
    /// Dims and element strides of a contiguous tensor of `shape` seen through this view.
    pub fn apply(&self, shape: &[usize], attrs: &Attrs) -> Result<(Vec<i64>, Vec<i64>), String> {
        let dims: Vec<i64> = shape.iter().map(|d| *d as i64).collect();
        let strides = contiguous_strides(&dims);
        let transpose = match *self {
            View::Plain => false,
            View::TransposeLast2 => true,
            View::TransposeLast2If(name) => match attrs.get(name) {
                Some(AttrValue::Bool(b)) => *b,
                None => false,
                _ => return Err(format!("needs bool attribute '{name}'")),
            },
            View::Nz => {
                return Err("an NZ view depends on the element size: use View::describe".into())
            }
            View::Flatten2d => {
                let Some((last, lead)) = dims.split_last() else {
                    return Err("a 0-d tensor cannot be flattened to 2-D".into());
                };
                let rows: i64 = lead.iter().product();
                return Ok((vec![rows, *last], vec![*last, 1]));
            }
        };
        if !transpose {
            return Ok((dims, strides));
        }
        if dims.len() < 2 {
            return Err(format!(
                "a rank-{} tensor has no last two dims to transpose",
                dims.len()
            ));
        }
        let (mut dims, mut strides) = (dims, strides);
        let n = dims.len();
        dims.swap(n - 2, n - 1);
        strides.swap(n - 2, n - 1);
        Ok((dims, strides))
    }
}

/// How aclCreateTensor is to describe a contiguous tensor seen through a view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Described {
    /// View dims.
    pub dims: Vec<i64>,
    /// View strides, in elements.
    pub strides: Vec<i64>,
    /// Storage dims.
    pub storage: Vec<i64>,
    /// The `aclFormat` code.
    pub format: i32,
}

impl View {
    /// The format this view describes its tensor with.
    pub fn format(&self) -> Format {
        match self {
            View::Nz => Format::Nz,
            _ => Format::Nd,
        }
    }

    /// View dims, strides, storage dims and format of a contiguous tensor of `shape` whose
    /// elements take `bits` bits, seen through this view.
    pub fn describe(
        &self,
        shape: &[usize],
        bits: usize,
        attrs: &Attrs,
    ) -> Result<Described, String> {
        if *self != View::Nz {
            let (dims, strides) = self.apply(shape, attrs)?;
            return Ok(Described {
                dims,
                strides,
                storage: shape.iter().map(|d| *d as i64).collect(),
                format: Format::Nd.acl_code(),
            });
        }
        let dims = nz_dims(shape, bits)?;
        Ok(Described {
            strides: contiguous_strides(&dims),
            storage: dims.clone(),
            dims,
            format: Format::Nz.acl_code(),
        })
    }
}

/// The FRACTAL_NZ dims of a row-major `[.., R, C]` tensor of `bits`-bit elements:
/// `[.., ⌈C/c0⌉, ⌈R/16⌉, 16, c0]` with c0 = 256 / bits (32 bytes).
pub fn nz_dims(shape: &[usize], bits: usize) -> Result<Vec<i64>, String> {
    let n = shape.len();
    if n < 2 || bits == 0 || 256 % bits != 0 {
        return Err(format!(
            "an NZ tensor needs rank >= 2 and a 4/8/16/32-bit element, got rank {n}, {bits} bits"
        ));
    }
    let c0 = (256 / bits) as i64;
    let (r, c) = (shape[n - 2] as i64, shape[n - 1] as i64);
    let mut dims: Vec<i64> = shape[..n - 2].iter().map(|d| *d as i64).collect();
    dims.extend([(c + c0 - 1) / c0, (r + 15) / 16, 16, c0]);
    Ok(dims)
}

/// Row-major element strides of `dims`.
pub fn contiguous_strides(dims: &[i64]) -> Vec<i64> {
    let mut strides = vec![1i64; dims.len()];
    for i in (0..dims.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * dims[i + 1].max(1);
    }
    strides
}

impl TempShape {
    /// The temporary's shape for these operand shapes.
    pub fn eval(&self, shapes: &Shapes) -> Result<Vec<usize>, String> {
        match *self {
            TempShape::LikeInput(slot) => Ok(shapes.input(slot)?.to_vec()),
            TempShape::RmsRstd { x, gamma } => {
                let (x, gamma) = (shapes.input(x)?, shapes.input(gamma)?);
                if gamma.len() > x.len() {
                    return Err(format!(
                        "gamma rank {} exceeds x rank {}",
                        gamma.len(),
                        x.len()
                    ));
                }
                let keep = x.len() - gamma.len();
                Ok(x.iter()
                    .enumerate()
                    .map(|(i, d)| if i < keep { *d } else { 1 })
                    .collect())
            }
            TempShape::LastDimFrom { like, from } => {
                let mut shape = shapes.input(like)?.to_vec();
                let last = *shapes
                    .input(from)?
                    .last()
                    .ok_or_else(|| format!("operand {from} is 0-d"))?;
                match shape.last_mut() {
                    Some(d) => *d = last,
                    None => return Err(format!("operand {like} is 0-d")),
                }
                Ok(shape)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The slot names of every entry are the op's operand slots in the ODS op table, in order
    /// (the table repeats them for messages; the op definition is the one source).
    #[test]
    fn entry_slots_are_the_op_tables() {
        for k in KERNELS {
            let ods: Vec<&str> = k.op.spec().operands.iter().map(|(n, _)| *n).collect();
            assert_eq!(k.slots, ods.as_slice(), "{}", k.op);
        }
    }

    #[test]
    fn causal_attention_is_sparse_mode_2_with_the_documented_mask() {
        // The leftUpCausal matrix: 1 (masked out) strictly above the diagonal, 0 on and below
        // it, side 2048, values 0/1 (V5.md's 01111 / 00111 / 00011).
        let m = causal_mask();
        let n = CAUSAL_MASK_SIDE;
        assert_eq!((n, m.len()), (2048, n * n));
        assert_eq!(&m[..5], &[0, 1, 1, 1, 1]);
        assert_eq!(&m[n..n + 5], &[0, 0, 1, 1, 1]);
        assert_eq!(m[n * n - 1], 0);
        assert_eq!(
            m.iter().map(|&b| usize::from(b)).sum::<usize>(),
            n * (n - 1) / 2
        );
        let causal: Attrs = [("causal".to_string(), AttrValue::Bool(true))].into();
        for target in ["ascend910b", "ascend950"] {
            let spec = select_for_target(
                OpKind::Attention,
                &causal,
                &[true, true, true, false],
                target,
            )
            .expect("a causal entry");
            let args = spec.calls()[0].args;
            // attenMaskOptional (argument 4) is the mask; sparseMode follows numKeyValueHeads.
            assert_eq!(args[4], Arg::CausalMask, "{target}");
            let kv_heads = args
                .iter()
                .position(|a| matches!(a, Arg::Int64(Int::Heads { slot: 1, .. })))
                .expect("numKeyValueHeads");
            assert_eq!(args[kv_heads + 1], Arg::Int64(Int::Const(2)), "{target}");
            // causal = false (or absent) keeps sparseMode 0 and the mask operand.
            let plain = select_for_target(
                OpKind::Attention,
                &Attrs::new(),
                &[true, true, true, true],
                target,
            )
            .expect("the masked_out entry");
            assert_eq!(plain.calls()[0].args[4], OptionalInput(3, Plain));
            // A causal op with a mask has no entry (the verifier refuses it first).
            assert!(select_for_target(
                OpKind::Attention,
                &causal,
                &[true, true, true, true],
                target
            )
            .is_none());
        }
    }

    /// The op names of DIALECT.md (primitive, then fused), copied from the contract.
    const CONTRACT_OPS: &[&str] = &[
        "dit.add",
        "dit.sub",
        "dit.mul",
        "dit.div",
        "dit.pow",
        "dit.neg",
        "dit.exp",
        "dit.sqrt",
        "dit.rsqrt",
        "dit.tanh",
        "dit.sin",
        "dit.cos",
        "dit.erf",
        "dit.sigmoid",
        "dit.silu",
        "dit.relu",
        "dit.gelu",
        "dit.cast",
        "dit.reduce_mean",
        "dit.reduce_sum",
        "dit.softmax",
        "dit.reshape",
        "dit.broadcast",
        "dit.bitcast",
        "dit.transpose",
        "dit.slice",
        "dit.split",
        "dit.concat",
        "dit.matmul",
        "dit.linear",
        "dit.rms_norm",
        "dit.layer_norm",
        "dit.rope",
        "dit.attention",
        "dit.dynamic_quant",
        "dit.quant_matmul",
        "dit.grouped_matmul",
        "dit.topk",
        "dit.sort",
        "dit.cumsum",
        "dit.floor_div",
        "dit.index_select",
        "dit.scatter_add",
        "dit.index_add",
        "dit.moe_init_routing",
        "dit.moe_finalize_routing",
        "dit.opaque",
        "dit.fast_gelu",
        "dit.muls_add",
        "dit.ada_layer_norm",
        "dit.quant_matmul_gelu",
        "dit.fused_matmul",
        "dit.grouped_matmul_swiglu_quant",
        "dit.swiglu",
        "dit.silu_mul",
        "dit.gelu_mul",
        "dit.kv_rms_norm_rope_cache",
        "dit.moe_gating_topk_softmax",
        "dit.fused",
        "dit.yield",
    ];

    #[test]
    fn every_contract_op_has_an_entry_and_back() {
        for op in CONTRACT_OPS {
            assert!(
                KERNELS.iter().any(|k| k.op.name() == *op),
                "{op} has no kernel entry"
            );
        }
        for k in KERNELS {
            assert!(
                CONTRACT_OPS.contains(&k.op.name()),
                "{} is not a contract op",
                k.op
            );
        }
    }

    #[test]
    fn entries_are_well_formed() {
        for k in KERNELS {
            for call in k.calls() {
                assert!(call.symbol.starts_with("aclnn"), "{}", call.symbol);
                let doubles = call
                    .args
                    .iter()
                    .filter(|a| a.kind() == Kind::Double)
                    .count();
                // The call shims pass at most two doubles (all in FP registers).
                assert!(doubles <= 2, "{}: {doubles} doubles", call.symbol);
                for arg in call.args {
                    let slot = match *arg {
                        Arg::Input(s, _)
                        | Arg::OptionalInput(s, _)
                        | Arg::InOut { slot: s, .. } => Some(s),
                        Arg::TensorList(
                            List::Input(s) | List::OptionalInput(s) | List::Inputs(s),
                        ) => Some(s),
                        _ => None,
                    };
                    if let Some(s) = slot {
                        assert!(s < k.slots.len(), "{}: slot {s} out of range", k.op);
                    }
                    if let Arg::Temp(t) = *arg {
                        assert!(t < k.temps.len(), "{}: temp {t} out of range", k.op);
                    }
                }
            }
            let has_calls = !k.calls().is_empty();
            assert_eq!(has_calls, matches!(k.body, Body::Aclnn(_)), "{}", k.op);
            if has_calls {
                assert!(!k.source.is_empty(), "{} names no source", k.op);
            } else {
                assert!(
                    !k.note.is_empty(),
                    "{} says nothing about why no kernel",
                    k.op
                );
            }
        }
    }

    fn attrs(pairs: &[(&str, AttrValue)]) -> Attrs {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    }

    #[test]
    fn attributes_pick_variants() {
        let tanh = attrs(&[("approximate", AttrValue::Str("tanh".into()))]);
        let none = attrs(&[("approximate", AttrValue::Str("none".into()))]);
        assert_eq!(
            kernel_for(OpKind::Gelu, &tanh).unwrap().calls()[0].symbol,
            "aclnnGeluV2"
        );
        assert_eq!(
            kernel_for(OpKind::Gelu, &none).unwrap().calls()[0].symbol,
            "aclnnGelu"
        );
        assert!(kernel_for(OpKind::Gelu, &Attrs::new()).is_none());

        let with_bias = attrs(&[("operandSegmentSizes", AttrValue::Ints(vec![1, 1, 1]))]);
        assert_eq!(
            kernel_for(OpKind::Linear, &with_bias).unwrap().calls()[0].symbol,
            "aclnnAddmm"
        );
        assert_eq!(
            kernel_for(OpKind::Linear, &Attrs::new()).unwrap().calls()[0].symbol,
            "aclnnMatmul"
        );

        let grouped = attrs(&[("group_size", AttrValue::Int(256))]);
        assert_eq!(
            kernel_for(OpKind::QuantMatmul, &grouped).unwrap().calls()[0].symbol,
            "aclnnQuantMatmulV5"
        );
        assert_eq!(
            kernel_for(OpKind::QuantMatmul, &Attrs::new())
                .unwrap()
                .calls()[0]
                .symbol,
            "aclnnQuantMatmulV4"
        );
        let nz = attrs(&[("x2_format", AttrValue::Str("FRACTAL_NZ".into()))]);
        assert_eq!(
            kernel_for(OpKind::QuantMatmul, &nz).unwrap().calls()[0].symbol,
            "aclnnQuantMatmulWeightNz"
        );
        let mla = attrs(&[
            ("epsilon", AttrValue::Float(1e-5)),
            ("cache_mode", AttrValue::Str("Norm".into())),
        ]);
        for chip in ["ascend910b", "ascend910_93", "ascend950"] {
            assert!(kernel_for_target(OpKind::KvRmsNormRopeCache, &mla, chip).is_some());
        }
        assert!(kernel_for(OpKind::KvRmsNormRopeCache, &mla).is_some());
        let v1 = attrs(&[("variant", AttrValue::Str("v1".into()))]);
        let gmm = |t| kernel_for_target(OpKind::GroupedMatmulSwigluQuant, &v1, t);
        assert_eq!(
            gmm("ascend910_93").unwrap().calls()[0].symbol,
            "aclnnGroupedMatmulSwigluQuantWeightNZ"
        );
        assert_eq!(
            gmm("ascend950").unwrap().calls()[0].symbol,
            "aclnnGroupedMatmulSwigluQuant"
        );
        // An unknown name has no op, so no entry.
        assert!(OpKind::from_name("dit.nonsense")
            .and_then(|k| kernel_for(k, &Attrs::new()))
            .is_none());
    }

    #[test]
    fn encodings() {
        let shapes = Shapes {
            inputs: &[Some(&[2, 4, 8, 16]), Some(&[2, 1, 8, 16])],
            results: &[],
        };
        let rope = Int::Enum {
            attr: "mode",
            default: None,
            codes: &[("half", 0), ("interleave", 1)],
        };
        let interleave = attrs(&[("mode", AttrValue::Str("interleave".into()))]);
        assert_eq!(rope.eval(&interleave, &shapes), Ok(1));
        let bad = attrs(&[("mode", AttrValue::Str("quarter".into()))]);
        assert!(rope.eval(&bad, &shapes).is_err());
        let heads = |slot| Int::Heads {
            slot,
            layout_attr: "layout",
            default_layout: "BNSD",
        };
        assert_eq!(heads(0).eval(&Attrs::new(), &shapes), Ok(4));
        assert_eq!(heads(1).eval(&Attrs::new(), &shapes), Ok(1));
        let bsnd = attrs(&[("layout", AttrValue::Str("BSND".into()))]);
        assert_eq!(heads(0).eval(&bsnd, &shapes), Ok(8));
        let rstd = TempShape::RmsRstd { x: 0, gamma: 1 };
        let s = Shapes {
            inputs: &[Some(&[4, 1, 4096]), Some(&[4096])],
            results: &[],
        };
        assert_eq!(rstd.eval(&s), Ok(vec![4, 1, 1]));
        let t = View::TransposeLast2
            .apply(&[3, 5, 7], &Attrs::new())
            .unwrap();
        assert_eq!(t, (vec![3, 7, 5], vec![35, 1, 7]));
        let f = View::Flatten2d.apply(&[3, 5, 7], &Attrs::new()).unwrap();
        assert_eq!(f, (vec![15, 7], vec![7, 1]));
        // The documented NZ sample: weight [E, K, N] int8 → [E, N/32, K/16, 16, 32].
        let nz = View::Nz
            .describe(&[4, 7168, 4096], 8, &Attrs::new())
            .unwrap();
        assert_eq!(nz.dims, vec![4, 128, 448, 16, 32]);
        assert_eq!((nz.storage.clone(), nz.format), (nz.dims.clone(), 29));
        // Unaligned dims round up; 16-bit elements take 16 per fractal row.
        assert_eq!(nz_dims(&[17, 20], 16), Ok(vec![2, 2, 16, 16]));
        assert!(View::Nz.apply(&[4, 4], &Attrs::new()).is_err());
    }
}
