//! The pass registry: one table from which dit-opt's flags, `--help`, `--list-passes` and
//! docs/Passes.md are generated. Adding a pass means adding one entry here.

use crate::{analysis::report::FusionReport, fusion::FusionSwitches};
use dit_dialect::{ir::Op, Target};

/// What every pass run gets besides the module.
#[derive(Clone, Debug)]
pub struct PassContext {
    /// The hardware the pipeline targets (`--target`).
    pub target: &'static Target,
    /// Where rewrite passes record what they applied and skipped.
    pub report: FusionReport,
    /// The fusion switches of the run (`--fuse`, `--no-fuse`, `--fusion-config`).
    pub switches: FusionSwitches,
}

/// A pass failed; what went wrong has already been reported as located diagnostics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("pass failed (see the diagnostics above)")]
pub struct PassFailed;

/// A pass. `run` reports problems as located diagnostics and returns `Err(PassFailed)`.
pub trait DitPass {
    fn run(&mut self, module: Op, context: &PassContext) -> Result<(), PassFailed>;
}

/// One option a pass takes in a pipeline (`dit-x{name=value}`).
#[derive(Clone, Copy, Debug)]
pub struct PassOptionInfo {
    pub name: &'static str,
    pub help: &'static str,
    pub default: &'static str,
}

/// Builds a pass from its `{name=value}` options (already checked against `options`).
pub type PassFactory = fn(&[(String, String)]) -> Result<Box<dyn DitPass>, String>;

/// One registered pass.
#[derive(Clone, Copy)]
pub struct PassInfo {
    /// Command-line flag and pipeline name, dit-prefixed kebab-case.
    pub flag: &'static str,
    /// One line for `--help` and `--list-passes`.
    pub summary: &'static str,
    /// Longer text for docs/Passes.md.
    pub description: &'static str,
    /// The options it takes in a pipeline.
    pub options: fn() -> Vec<PassOptionInfo>,
    /// Whether the dit verifier runs after the pass (not after `dit-verify` itself).
    pub verify_after: bool,
    /// The upstream MLIR pass this name stands for, when it is only an alias kept for the CLI
    /// (`dit-cse` is upstream `cse`, which merges dit ops because ODS declares them `Pure`):
    /// pipelines run the upstream pass, and `create` is not used.
    pub upstream: Option<&'static str>,
    pub create: PassFactory,
}

fn no_options() -> Vec<PassOptionInfo> {
    Vec::new()
}

/// Every pass, in the order `--list-passes` shows them.
pub static PASSES: &[PassInfo] = &[
    PassInfo {
        flag: "dit-verify",
        summary: "Check the dit rules that IRDL cannot express",
        description:
            "Runs the dit verifier on every dit op: element types per op, enum values and \
kinds of optional attributes, operand segments, and static shape rules (contraction dims, \
broadcasting, permutations, split sizes, element counts, even split dims). Each violation is an \
error at the op's location naming the op and the rule. The same verifier also runs after parsing \
and after every other pass.",
        options: no_options,
        verify_after: false,
        upstream: None,
        create: |_| Ok(Box::new(crate::transforms::dit_verify::Verify)),
    },
    PassInfo {
        flag: "dit-dce",
        summary: "Upstream remove-dead-values (an alias kept for the command line)",
        description:
            "MLIR's own dead-code elimination (`remove-dead-values`). ODS declares every dit op \
without side effects `Pure`, so upstream DCE erases unused dit ops and `arith.constant`s, whole \
dead chains in one run, inside dit.fused bodies too, and an unused dit.fused as a whole. \
`dit.opaque` (unknown semantics) has side effects and stays, with its operands. As upstream, it \
also drops unused arguments and results of private functions. Kept as a name so that existing \
pipelines and scripts go on working.",
        options: no_options,
        verify_after: true,
        upstream: Some("remove-dead-values"),
        create: |_| Err("dit-dce runs upstream remove-dead-values".into()),
    },
    PassInfo {
        flag: "dit-cse",
        summary: "Upstream cse (an alias kept for the command line)",
        description:
            "MLIR's own common-subexpression elimination (`cse`). ODS declares every dit op \
without side effects `Pure`, so upstream cse merges two identical dit ops (same name, operands, \
attributes and result types; regions compared op by op) and erases the later one; `dit.opaque`, \
whose semantics are unknown, has side effects and is never merged. Kept as a name so that \
existing pipelines and scripts go on working.",
        options: no_options,
        verify_after: true,
        upstream: Some("cse"),
        create: |_| Err("dit-cse runs upstream cse".into()),
    },
    PassInfo {
        flag: "dit-canonicalize",
        summary: "Fold shape no-ops, put constants right of add/mul, then CSE and DCE, to a fixed point",
        description:
            "Folds reshape∘reshape into one reshape, identity reshapes/broadcasts/casts/bitcasts \
(result type equals input type) into their input, identity transposes into their input, \
transpose∘transpose into one transpose with the composed permutation (or nothing), and \
bitcast∘bitcast into one bitcast, drops dit.concat pieces with no element along the concat \
dim (the one piece left replaces the concat), and moves a constant lhs of dit.add / dit.mul to \
the right (MLIR's canonical operand order, which the fusion patterns rely on); then merges equal \
ops and erases dead ones (as cse and remove-dead-values would), repeating until nothing changes.",
        options: no_options,
        verify_after: true,
        upstream: None,
        create: |_| Ok(Box::new(crate::transforms::dit_canonicalize::Canonicalize::default())),
    },
    PassInfo {
        flag: "dit-fuse-patterns",
        summary: "Apply the PDL fusion patterns whose switches are on",
        description: "Runs the patterns of passes/patterns/*.pdll (compiled to PDL at build time by \
mlir-pdll) through MLIR's PDL interpreter and greedy rewrite driver, with native constraints and \
rewrites written in Rust (passes/src/patterns/native.rs). Each pattern belongs to one fusion switch (seed \
000 §3.7 plus the baseline raisings); the switches come from --fuse / --no-fuse / \
--fusion-config and can be overridden per run as pass options. Every rewrite, and every skip \
with its reason, goes to the fusion report.",
        options: crate::patterns::dit_fuse_patterns::options,
        verify_after: true,
        upstream: None,
        create: |options| Ok(Box::new(crate::patterns::dit_fuse_patterns::FusePatterns::from_options(options)?)),
    },
    PassInfo {
        flag: "dit-auto-fuse",
        summary: "Group chains of vector ops into dit.fused kernels (graph-autofusion)",
        description: "Seed 004's four steps for the vector ops the patterns left: scan producer/consumer \
counts; grow write-after-read chains along values with exactly one user; check each group against \
the target's Unified Buffer as the Ascend C generator tiles it (its planner and UB layout: one row per \
tile, or one column chunk of a row when every op works column by column; a body the generator does \
not plan, such as an i1 or i64 value, is checked at one 32-byte aligned row of the last dim per live \
tensor, double buffered; a group that does not fit is split in block order into the longest \
prefixes that do; consecutive prefixes cut because one row of their union does not fit with \
double-buffered queues are joined again when it fits single-buffered and the performance model, \
which gives such a kernel no overlap of copy-in, compute and copy-out, says it is not slower \
than the prefixes as they stay, launches included); keep a group only \
when the DDR bytes it saves (intermediates no longer written and read back) are at least \
min-benefit of its DDR bytes. Each group becomes one dit.fused region (captured values as \
operands, dit.yield of the values used outside, kernel name fused_<function>_<n>). Grouped: the \
elementwise primitives, dit.cast, and the row-wise library vector kernels (fast_gelu, rms_norm, \
layer_norm, ada_layer_norm, rope, concat, muls_add, silu_mul, gelu_mul; swiglu and softmax along \
the last dim), whose last dim is static (outer dims may be dynamic); a row-wise kernel alone stays \
a library call. Cube ops (matmul, linear, quant_matmul, grouped_matmul, attention and the fused \
matmuls) never join a group, nor do ops the load-time pre-pack runs (a rope table's cast to x's \
dtype), which would then run on every call. At aggressive level 2 (the default): a branch whose \
producer is a vector op reading no more bytes than it writes, with only vector users, is \
recomputed for each user; a value with several users may stay in a group as an extra output when all its other users \
come after the group (it is written once either way; the in-group users no longer read it back); \
and sibling kernels that read the same tensor (through views) and do not depend on each other \
merge into one multi-output kernel when the union fits the UB (one launch instead of several; for \
min-benefit each launch saved counts as the DDR bytes the target moves in its launch overhead). \
Before grouping, a one-operand elementwise op reading a reshape (its only user) of a vector op's \
result moves before the reshape, so that it can join that op's kernel. \
Every final group, however it was formed, keeps the blacklist for each producer -> consumer pair \
of its members and passes min-benefit, where a tensor several members read counts as read once; \
the only exception is the one-op group of an op whose library entry launches several kernels \
(dit.silu_mul), whose benefit is fewer launches. A recomputation is undone when a copy does not \
end in its user's kernel, and a kernel's outputs are distinct values. \
Level 1 ends chains at branches, merges no siblings and uses half the UB. The options may also \
come from `--fusion-config` (an `[auto_fuse]` table: aggressive_level, min_benefit, blacklist, \
exclude_ops); an option the pipeline sets wins over the file.",
        options: crate::transforms::dit_auto_fuse::options,
        verify_after: true,
        upstream: None,
        create: |options| Ok(Box::new(crate::transforms::dit_auto_fuse::AutoFuse::from_options(options)?)),
    },
    PassInfo {
        flag: "dit-sink-transpose",
        summary: "Move layout transposes down to attention and fold Q/K/V head transposes into its layout",
        description: "A transpose with one user that keeps the last dim moves below elementwise unary \
ops, rms_norm and rope (whose cos/sin tables get the inverse order, by a reshape when only \
size-1 dims move) and below a concat whose inputs are all transposed the same way (the concat \
dim follows the permutation). When q, k and v of a BNSD dit.attention (no mask) all come \
from [0, 2, 1, 3] transposes, attention reads the [B, S, N, D] tensors with layout \
\"BSND\" instead and one transpose of its result restores the old layout for its users. \
dit-canonicalize then cancels transposes that meet (transpose∘transpose). Each move is in \
the fusion report.",
        options: no_options,
        verify_after: true,
        upstream: None,
        create: |_| Ok(Box::new(crate::transforms::dit_sink_transpose::SinkTranspose)),
    },
    PassInfo {
        flag: "dit-fold-transpose-quant-matmul",
        summary: "Fold last-two-dim transposes into dit.quant_matmul's transpose_x1/x2 (CANN's normal rule)",
        description: "CANN's QuantBatchMatmulV3TransposeFusionPass (seed 001). A dit.transpose that swaps \
only the last two dims of x1 or x2 (directly, or through exactly one same-width dit.bitcast that \
nothing else reads) is bypassed and transpose_x1 / transpose_x2 negated. Conditions: x1 and x2 of \
rank >= 2 and of type i8, i4, f8E4M3FN, f8E5M2 or f4E2M1FN (HiFloat8 has no MLIR type), output \
i8, f16, bf16, i32 or f32; x1 folds if its outer (second-to-last) dim is <= 65535 or the target has \
the bf16 L1->BT move, x2 likewise or when x2_format is FRACTAL_NZ; a dynamic outer dim passes. The \
matching scale transform (pertoken_scale for x1, scale for x2) is bypassed with its data side: a \
last-two-dim transpose, or a reshape equivalent to it (condition A: the data input's last two dims \
have a 1; condition B: f8E8M0FNU rank-3 scale with its first two dims swapped and one of them 1; \
dynamic shapes: accepted). On a target with mixed s8s4 Cube input, a quant_matmul with any \
transform->bitcast input is left alone. Bypassed ops are erased only when nothing else uses them. \
Every fold and refusal goes to the fusion report.",
        options: no_options,
        verify_after: true,
        upstream: None,
        create: |_| Ok(Box::new(crate::transforms::dit_fold_transpose_quant_matmul::FoldTransposeQuantMatmul)),
    },
    PassInfo {
        flag: "dit-fold-transpose-quant-matmul-limit",
        summary: "The supplementary limit rule of the transpose fold, for inner dims above 65535",
        description: "CANN's QuantBatchMatmulV3TransposeLimitFusionPass (seed 001 §3.4): the same fold as \
dit-fold-transpose-quant-matmul, for the inputs the normal rule refuses on targets without the bf16 \
L1->BT move. A side folds only if 0 < outer <= 65535 and inner > 65535, both static (also for \
FRACTAL_NZ). On a target with the bf16 L1->BT move it does nothing.",
        options: no_options,
        verify_after: true,
        upstream: None,
        create: |_| Ok(Box::new(crate::transforms::dit_fold_transpose_quant_matmul_limit::FoldTransposeQuantMatmulLimit)),
    },
    PassInfo {
        flag: "dit-quantize",
        summary: "Quantize selected f16/bf16 dit.linear ops to W8A8 (dynamic_quant + quant_matmul)",
        description: "Issue 3 path A. Each selected dit.linear directly in a func.func body, with f16 or bf16 \
x and its weight an argument of that func, becomes `dit.dynamic_quant` (per-token int8 activations, \
f32 scale per row) and `dit.quant_matmul` (transpose_x1 = transpose_x2 = false, per-token scale, the \
linear's bias kept). x of rank other than 2 is flattened to [M, K] with dit.reshape and the result \
reshaped back (a single dit.gelu user moves before the reshape back). Per float weight argument, two \
arguments are appended to the func: the int8 weight transposed to [K, N] and its f32 per-output-channel \
scale [N], tagged `dit.quantized` = \"weight_int8\" / \"weight_scale\" and `dit.quantized_from` = the float \
weight's argument index; the float weight argument stays (docs/quantize.md: how a caller prepares \
them). Run dit-fuse-patterns afterwards for the P0 fusion into dit.quant_matmul_gelu. Skipped, with \
the reason in the fusion report: f32 linears, linears outside a func.func body, weights that are no \
func argument, funcs called inside the module, a bias whose type differs from the output type, and \
x with more than one dynamic dim when it must be flattened.",
        options: crate::transforms::dit_quantize::options,
        verify_after: true,
        upstream: None,
        create: |options| Ok(Box::new(crate::transforms::dit_quantize::Quantize::from_options(options)?)),
    },
    PassInfo {
        flag: "dit-sink-split",
        summary: "Merge trees of dit.split / dit.slice on one value along one dim into one dit.split",
        description: "Seed 003 §2.6 (Sink Split). For a value x and a static dim d (negative dims \
normalized), the dit.split ops along d and the step-1 dit.slice ops along d that read x, and those \
that read their results (split x into [a, b], then a into [a1, a2]), become one dit.split of x along \
d at the union of their boundaries; every consumer of a piece reads the matching result (two slices \
x[..., :N] and x[..., N:] become one split [N, N], which the SwiGLU patterns of dit-fuse-patterns \
recognise). Slice bounds follow Python slicing (negative from the end, clamped to the size); empty \
slices, zero-size split parts, other steps and dynamic dims along d are left alone. No dit.concat is \
created: a slice that would span several results (overlapping slices, or slices cut by other \
boundaries) is left alone, and a split result still used elsewhere that other cuts would divide keeps \
its own split. Fires only when at least two split/slice ops merge into a split of at least two \
results, so every rewrite removes ops; the replaced ops are erased once unused. Each merge goes to \
the fusion report.",
        options: no_options,
        verify_after: true,
        upstream: None,
        create: |_| Ok(Box::new(crate::transforms::dit_sink_split::SinkSplit)),
    },
    PassInfo {
        flag: "dit-lower-to-aclnn",
        summary: "Lower every dit op to runtime calls through the kernel table (aclnn symbols, generated kernels)",
        description: "Each function `@f(tensors) -> tensors` becomes `@f(%ctx, %inputs, %outputs) -> i32` \
in func + arith + llvm dialect form: `inputs`/`outputs` point to arrays of `dit_tensor_desc` \
(lowering/runtime/include/dit_runtime.h; caller-owned memory), the result is the runtime status \
(0: ok). Tensors become runtime handles with explicit lifetimes: wrapped, allocated or made from \
constants at their definition, released right after their last use. Views launch nothing: \
reshape/bitcast re-describe the bytes, broadcast/split/slice are strided views, and a transpose \
whose users are all library kernels is a permuted-stride view (aclnn takes strided tensors). Every \
other dit op becomes `dit_rt_launch(ctx, op, kernel, attrs_json, inputs, n, outputs, m)` with \
`kernel` the aclnn symbol(s) of the kernel table (lowering/kernel-spec/src/kernels.rs) and one input \
slot per operand slot (null for an absent optional operand); dit.fused passes its kernel name and \
its region as a JSON body program. Needs static shapes and single-block functions; anything else \
is a located error. `dit-opt --emit=llvm|asm|obj|header` continues with upstream MLIR \
(convert-arith-to-llvm, convert-func-to-llvm, reconcile-unrealized-casts), \
mlirTranslateModuleToLLVMIR and LLVM (inkwell).",
        options: no_options,
        verify_after: false,
        upstream: None,
        create: |_| Ok(Box::new(crate::conversion::dit_lower_to_aclnn::LowerToAclnn)),
    },
    PassInfo {
        flag: "dit-lower-fused-to-linalg",
        summary: "Replace the module by one DEVICE func.func in upstream linalg per dit.fused group (bishengir input)",
        description: "Each dit.fused group becomes `func.func @<kernel>` (captured values as tensor \
arguments, yielded values as results) with `hacc.entry`, `hacc.function_kind = \
#hacc.function_kind<DEVICE>` and `hfusion.fusion_kind` (LAST_AXIS_PBR when a row op reduces the last \
dim, ANY_PB when an operand is broadcast, else PURE_ELEMWISE): the input convention of Huawei's \
AscendNPU-IR compiler (bishengir). Elementwise math is arith / math on whole tensors (addf, subf, \
mulf, divf, maximumf, negf, exp, sqrt, rsqrt, tanh, erf, powf, extf / truncf; saturating integer \
arithmetic in i64), the one form that LLVM 22 and bishengir 1.2.0 (LLVM 19, which rejects LLVM 22's \
named linalg.add and linalg.generic) both take; linalg.fill makes constants, linalg.broadcast (after \
tensor.collapse_shape of size-1 dims) does numpy broadcasting, linalg.reduce row sums and maxima, \
tensor.extract_slice, tensor.concat and expand / collapse_shape halves, rotations and \
concatenation. Lowered: add, sub, mul, \
div, pow, neg, exp, sqrt, rsqrt, tanh, erf, sigmoid, silu, relu, gelu, fast_gelu, cast (float to \
integer excepted), muls_add, silu_mul, swiglu and gelu_mul (last dim), concat, rope, softmax (last \
dim), rms_norm, layer_norm and ada_layer_norm (statistics in f32); integer values (i1, i8, i32, i64) \
only in cast, concat, add, sub and mul. Everything outside the groups is dropped. A group with \
another op or a dynamic dim is a located error naming the op (every such group is reported). \
`dit-opt --emit=linalg -o DIR` writes one module per group, DIR/<kernel>.mlir.",
        options: no_options,
        verify_after: false,
        upstream: None,
        create: |_| Ok(Box::new(crate::conversion::dit_lower_fused_to_linalg::LowerFusedToLinalg)),
    },
    PassInfo {
        flag: "dit-outline-fused",
        summary: "Replace the module by one dit func.func per dit.fused group (run one group alone)",
        description: "Each dit.fused group becomes `func.func @<kernel>` holding the group's body \
unchanged (captured values as arguments, yielded values as results, `dit.yield` as `func.return`); \
everything outside the groups is dropped. Paired with dit-lower-fused-to-linalg it gives the same \
function twice, in dit ops for dit-run and in linalg for bishengir, so a group can be run by both \
on the same inputs and compared (issue 15's second numerical judge, \
tools/dit-opt/tests/bishengir_numerics.rs). Two groups with the same kernel name, or a body that \
uses a value defined outside its group, are located errors.",
        options: no_options,
        verify_after: true,
        upstream: None,
        create: |_| Ok(Box::new(crate::transforms::dit_outline_fused::OutlineFused)),
    },
    PassInfo {
        flag: "dit-merge-horizontal",
        summary: "Merge projections of the same input (Q/K/V, gate/up) into one linear and a dit.split",
        description: "Horizontal fusion (issue 5 item 3, seed 004's QKV / FFN fusion). dit.linear ops \
that read the same x, in the same block, with weights that are arguments of the enclosing func.func \
(biases too: all or none), the same element types and the same weight K, become one dit.linear on \
`dit.concat` of the [N_i, K] weights along dim 0 (and of the biases) followed by one `dit.split` of \
its result along the last dim with sizes [N_1, N_2, ...]; each original result is replaced by its \
piece and the originals are erased. dit.matmul ops with the same transpose flags and a function \
argument as right operand b merge the same way (b concatenated along its N dim: the second-to-last \
with transpose_b, else the last). The output features N_i must be static. Groups are formed in \
program order and cut at `max-group`; a last group of one is left alone (3 projections with \
max-group=2: the first two merge, the third stays). The concatenations read only function \
arguments and go to the start of the entry block (emitted once per argument list and reused), so a \
load-time pre-pack can fold them; the merged op goes right before the group's first projection. \
Linears whose weight or bias is no function argument are skipped, with the reason in the fusion \
report.",
        options: crate::transforms::dit_merge_horizontal::options,
        verify_after: true,
        upstream: None,
        create: |options| {
            Ok(Box::new(crate::transforms::dit_merge_horizontal::MergeHorizontal::from_options(options)?))
        },
    },
    PassInfo {
        flag: "dit-convert-torch-to-dit",
        summary: "Import a torch-mlir graph (torch dialect, generic form) into dit ops; the rest becomes dit.opaque",
        description: "Issue 8 item 2. The input is torch-mlir's torch dialect in generic form (the fx \
importer's output, e.g. tools/dit-import): dit-opt parses it as unregistered ops with opaque \
`!torch.*` types, allowing unregistered dialects whenever this pass is in the pipeline (or with \
--allow-unregistered-dialect). Value tensors `!torch.vtensor<[d,...],dtype>` become \
`tensor<dx...xdtype>` (`?` and -1 dims dynamic; si64/si32/si16/si8 become signless, ui8 stays \
unsigned), in function signatures (block arguments and `function_type`) and on every value. \
Converted: aten.linear, addmm (beta = alpha = 1; with a transposed 2-d weight it becomes \
dit.linear), mm, bmm, matmul, baddbmm (last-two-dim transposes fold into transpose_a/b), \
_grouped_mm (dit.grouped_matmul, cumsum group list); gelu (none/tanh), silu, sigmoid, tanh, relu, \
rsqrt, sqrt, exp, neg, erf, square, reciprocal; add, sub, rsub, mul, div (true division), pow, in \
their Tensor and Scalar forms (operands cast to the result's dtype as torch's type promotion does, \
Python scalars as 0-d constants of that dtype, alpha applied); mean.dim, sum.dim_IntList, mean, \
sum; softmax.int, _softmax; layer_norm and native_layer_norm (normalized_shape the last dim; mean \
and rstd unused), rms_norm (a missing weight is a ones constant, a missing eps torch's \
finfo(dtype).eps); scaled_dot_product_attention without dropout -> dit.attention \
(BNSD, scale or 1/sqrt(head dim); a boolean keep-mask m becomes dit's masked-out mask 1 - m in \
i8; is_causal = true becomes causal = true, refused together with a mask); cat, stack; split.Tensor, split_with_sizes, chunk, tensor_split.sections, unbind (through \
their torch.prim.ListUnpack) -> dit.split; slice.Tensor, select.int, narrow -> dit.slice (INT64_MAX \
ends clamped to the dim); slice_scatter (step 1: a concat of slices; a strided write covering the \
dim, such as `out[..., 0::2] = a`: a concat of columns); repeat_interleave.self_int; repeat (torch's tile: a broadcast view between reshapes); pad \
and constant_pad_nd in constant mode (a dit.concat of constant blocks and x per padded dim); bool \
__and__, bitwise_and and logical_and -> dit.mul on i1; cat drops zero-width pieces and a slice \
of the whole dim is its input; view, reshape, \
_unsafe_view, flatten, unflatten, squeeze, unsqueeze, view_as -> dit.reshape; permute, transpose.int, \
t, movedim -> dit.transpose; expand, broadcast_to -> dit.broadcast; view.dtype -> dit.bitcast; \
_to_copy, to.dtype/dtype_layout/device/other, type_as, copy, prims.convert_element_type -> dit.cast \
(nothing when the dtype is unchanged); clone, contiguous, detach, alias, dropout (inference) -> \
their input; torch.vtensor.literal, full, ones, zeros, empty, scalar_tensor, NumToTensor and their \
_like/new_ forms -> arith.constant. `torch.operator` ops are converted as the aten op they name. \
Every group of new ops is checked by the dit verifier and MLIR's verifier before it replaces the \
torch op. Any other torch op with tensor results, and any supported op whose arguments the \
contract cannot express (a non-constant dim, an additive attention mask, a rounding mode, ...), \
becomes `dit.opaque` with `name` = the aten name, its tensor operands (also those under lists and \
shape arithmetic) and its constant arguments as `arg<i>` attributes; each is a skip in the fusion \
report with the reason. Runtime asserts are dropped; returned tuples are flattened; `torch.*` \
attributes are dropped; equal ops the conversion emitted are merged and dead ones erased (dit-cse, \
dit-dce). Afterwards only builtin, func, arith and dit ops with builtin types may remain: any other \
op (a typo such as `dti.gelu`), an unranked or dtype-less tensor, a torch scalar that dit code \
reads, or an op with regions is a located error. dit-opt runs this pass (and any directly after \
it) before measuring the graph, so the fusion report's kernels and bytes \"before\" are those of \
the imported graph.",
        options: no_options,
        verify_after: true,
        upstream: None,
        create: |_| Ok(Box::new(crate::conversion::dit_convert_torch_to_dit::ConvertTorchToDit)),
    },
];

/// Passes that import another dialect into dit. dit-opt allows unregistered dialects while
/// parsing when one is in the pipeline, and runs the ones at the start of the pipeline before
/// it measures the graph for the fusion report.
pub const IMPORT_PASSES: &[&str] = &["dit-convert-torch-to-dit"];

/// A named pipeline: one flag that runs several passes in order.
#[derive(Clone, Copy, Debug)]
pub struct NamedPipeline {
    /// The dit-opt flag, without `--`.
    pub flag: &'static str,
    pub summary: &'static str,
    /// Pass flags, in the order they run.
    pub passes: &'static [&'static str],
}

/// Every named pipeline.
pub static PIPELINES: &[NamedPipeline] = &[NamedPipeline {
    flag: "fuse-all",
    summary: "Run every fusion with its default switches, in priority order",
    passes: &[
        "dit-fold-transpose-quant-matmul",
        "dit-fold-transpose-quant-matmul-limit",
        "dit-sink-split",
        "dit-fuse-patterns",
        "dit-sink-transpose",
        "dit-canonicalize",
        "dit-merge-horizontal",
        "dit-sink-split",
        "dit-auto-fuse",
    ],
}];

/// The registered pass with this flag.
pub fn lookup(flag: &str) -> Option<&'static PassInfo> {
    PASSES.iter().find(|p| p.flag == flag)
}

/// docs/Passes.md, generated from the registry.
pub fn passes_markdown() -> String {
    let mut out = String::from(
        "# dit passes\n\n<!-- Generated from passes/src/registry.rs by `dit-opt --print-passes-doc`; \
a test fails when this file is stale. -->\n\nEvery pass runs as `dit-opt --<flag>` or inside \
`--pass-pipeline='builtin.module(<flag>{option=value})'`. Passes that depend on hardware read \
`--target` (default ascend910b).\n",
    );
    for p in PASSES {
        out.push_str(&format!(
            "\n## `--{}`\n\n{}.\n\n{}\n",
            p.flag, p.summary, p.description
        ));
        let options = (p.options)();
        if !options.is_empty() {
            out.push_str("\n| option | default | meaning |\n|---|---|---|\n");
            for o in options {
                out.push_str(&format!(
                    "| `{}` | `{}` | {} |\n",
                    o.name, o.default, o.help
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_are_dit_prefixed_kebab_case_and_unique() {
        for (i, p) in PASSES.iter().enumerate() {
            assert!(p.flag.starts_with("dit-"), "{}", p.flag);
            assert!(
                p.flag.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
                "{}",
                p.flag
            );
            assert!(
                PASSES[..i].iter().all(|q| q.flag != p.flag),
                "duplicate {}",
                p.flag
            );
        }
    }

    #[test]
    fn pipelines_name_registered_passes() {
        for p in PIPELINES {
            for flag in p.passes {
                assert!(
                    lookup(flag).is_some(),
                    "{} names unknown pass {flag}",
                    p.flag
                );
            }
            assert!(
                lookup(p.flag).is_none(),
                "{} clashes with a pass flag",
                p.flag
            );
        }
    }

    #[test]
    fn every_pass_has_a_source_file_and_a_lit_test_in_its_stage() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        // passes/src/<stage>/ mirrors test/<Stage>/: a pass's lit test sits in its stage's folder.
        const STAGES: [(&str, &str); 3] = [
            ("transforms", "Transforms"),
            ("patterns", "Patterns"),
            ("conversion", "Conversion"),
        ];
        for p in PASSES {
            let file = p.flag.replace('-', "_");
            let stage = STAGES
                .iter()
                .find(|(dir, _)| root.join(format!("passes/src/{dir}/{file}.rs")).exists());
            let Some((_, tests)) = stage else {
                panic!("no passes/src/<stage>/{file}.rs for {}", p.flag);
            };
            let test = root.join(format!("test/{tests}/{}.mlir", p.flag));
            assert!(test.exists(), "missing {}", test.display());
        }
    }
}
