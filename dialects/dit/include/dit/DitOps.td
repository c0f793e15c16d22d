//===- DitOps.td - the dit ops -----------------------------*- tablegen -*-===//
//
// Every op of DIALECT.md: operands in contract order, results, attributes with their kinds,
// traits. What ODS cannot state (element types per op, shape rules, the values of optional
// enum-like attributes) is checked by dit's Rust verifier (dialects/dit/src/verifier.rs).
//
// Conventions:
// - Values are `Dit_RankedTensor`: element types are per-op rules of the Rust verifier, whose
//   messages name the rule.
// - An op with two or more optional operands has `AttrSizedOperandSegments`. DIALECT.md asks
//   for `operandSegmentSizes` on every op with an optional operand, but ODS refuses the trait
//   on an op with a single one (linear, attention, dynamic_quant, quant_matmul_gelu): there
//   ODS splits the operands by count, and the Rust verifier requires and checks the
//   attribute (rule operand-segments).
// - Required enum-like attributes are `Dit_StrEnum`; optional ones are plain `StrAttr`
//   whose values and defaults the Rust verifier checks.
// - Ops with several results leave them unnamed (the names are in a comment): ODS 22 gives
//   an op with several named results an OpAsmOpInterface that prints them as `%y, %scale`
//   instead of `%0:2`, which would change the printed form every test checks.
// - The `Dit_*` marker traits (DitDialect.td) name the op classes the Rust code dispatches on
//   (elementwise, view-like, row-wise, Cube, library kernel); build.rs generates the Rust op
//   table, with those flags, from these records.
// - `Pure` on every op except dit.opaque (an op the dialect does not model: its effects are
//   unknown) and dit.fused (as pure as its body: RecursiveMemoryEffects).
// - Shape and type no-ops fold (`hasFolder`, lib/DitFolds.cpp), and add/mul are `Commutative`
//   (MLIR's folding puts a constant operand on the right), so upstream `canonicalize` and
//   every greedy rewrite do what dit-canonicalize does.
//
//===----------------------------------------------------------------------===//

#ifndef DIT_OPS_TD
#define DIT_OPS_TD

include "dit/DitDialect.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Type and attribute constraints
//===----------------------------------------------------------------------===//

/// Any ranked tensor: upstream `AnyRankedTensor` with its message and C++ type, without the
/// element-type check it makes for any type at all (it still looks the element type up through
/// the ShapedType interface, on every operand and result of every verification: 11M of 800M
/// instructions of a full FLUX.1-dev run).
def Dit_RankedTensor : Type<CPred<"::llvm::isa<::mlir::RankedTensorType>($_self)">,
    "ranked tensor of any type values", "::mlir::RankedTensorType">;

/// A string attribute whose value is one of `cases` (DIALECT.md: enum-like attributes are
/// strings).
class Dit_StrEnum<list<string> cases> : ConfinedAttr<StrAttr, [AttrConstraint<
    Or<!foreach(c, cases,
       CPred<"::llvm::cast<::mlir::StringAttr>($_self).getValue() == \"" # c # "\"">)>,
    "whose value is one of \"" # !interleave(cases, "\", \"") # "\"">]>;

//===----------------------------------------------------------------------===//
// Op classes
//===----------------------------------------------------------------------===//

/// Elementwise binary, numpy broadcasting: (lhs, rhs) -> result.
class Dit_BinaryOp<string mnemonic, string what, list<Trait> traits = [Dit_Elementwise]> :
    Dit_Op<mnemonic, !listconcat([Pure], traits)> {
  let summary = what # ", broadcasting";
  let arguments = (ins Dit_RankedTensor:$lhs, Dit_RankedTensor:$rhs);
  let results = (outs Dit_RankedTensor:$result);
}

/// Elementwise unary: (x) -> result of x's type.
class Dit_UnaryOp<string mnemonic, string what, list<Trait> traits = []> :
    Dit_Op<mnemonic, !listconcat([Pure, SameOperandsAndResultType, Dit_Elementwise], traits)> {
  let summary = what;
  let arguments = (ins Dit_RankedTensor:$x);
  let results = (outs Dit_RankedTensor:$result);
}

/// One tensor in, one out, types related by the op's Rust rule.
class Dit_XToResultOp<string mnemonic, string what, list<Trait> traits = []> :
    Dit_Op<mnemonic, !listconcat([Pure], traits)> {
  let summary = what;
  let arguments = (ins Dit_RankedTensor:$x);
  let results = (outs Dit_RankedTensor:$result);
}

//===----------------------------------------------------------------------===//
// Primitive ops (what a frontend produces)
//===----------------------------------------------------------------------===//

def Dit_AddOp : Dit_BinaryOp<"add", "lhs + rhs", [Dit_Elementwise, Commutative]>;
def Dit_SubOp : Dit_BinaryOp<"sub", "lhs - rhs">;
def Dit_MulOp : Dit_BinaryOp<"mul", "lhs * rhs", [Dit_Elementwise, Commutative]>;
def Dit_DivOp : Dit_BinaryOp<"div", "lhs / rhs">;
def Dit_PowOp : Dit_BinaryOp<"pow", "lhs ** rhs">;

def Dit_NegOp : Dit_UnaryOp<"neg", "-x">;
def Dit_ExpOp : Dit_UnaryOp<"exp", "e^x">;
def Dit_SqrtOp : Dit_UnaryOp<"sqrt", "square root">;
def Dit_RsqrtOp : Dit_UnaryOp<"rsqrt", "1 / sqrt(x)">;
def Dit_TanhOp : Dit_UnaryOp<"tanh", "hyperbolic tangent">;
def Dit_SinOp : Dit_UnaryOp<"sin", "sine (radians)">;
def Dit_CosOp : Dit_UnaryOp<"cos", "cosine (radians)">;
def Dit_ErfOp : Dit_UnaryOp<"erf", "error function">;
def Dit_SigmoidOp : Dit_UnaryOp<"sigmoid", "1 / (1 + e^-x)">;
def Dit_SiluOp : Dit_UnaryOp<"silu", "x * sigmoid(x)">;
def Dit_ReluOp : Dit_UnaryOp<"relu", "max(x, 0)">;

def Dit_GeluOp : Dit_UnaryOp<"gelu", "erf GELU or tanh GELU"> {
  let arguments = (ins Dit_RankedTensor:$x, Dit_StrEnum<["none", "tanh"]>:$approximate);
}

def Dit_CastOp : Dit_XToResultOp<"cast",
    "convert to the result's element type (same shape)"> {
  let hasFolder = 1;
}

def Dit_ReduceMeanOp : Dit_XToResultOp<"reduce_mean", "mean over dims"> {
  let arguments = (ins Dit_RankedTensor:$x, DenseI64ArrayAttr:$dims, BoolAttr:$keepdim);
}

def Dit_ReduceSumOp : Dit_XToResultOp<"reduce_sum", "sum over dims"> {
  let arguments = (ins Dit_RankedTensor:$x, DenseI64ArrayAttr:$dims, BoolAttr:$keepdim);
}

def Dit_SoftmaxOp : Dit_Op<"softmax",
    [Pure, SameOperandsAndResultType, Dit_RowWiseOnLastDim]> {
  let summary = "softmax along dim";
  let arguments = (ins Dit_RankedTensor:$x, I64Attr:$dim);
  let results = (outs Dit_RankedTensor:$result);
}

def Dit_ReshapeOp : Dit_XToResultOp<"reshape",
    "new shape from the result type, same element count", [Dit_ViewLike]> {
  let hasFolder = 1;
}
def Dit_BroadcastOp : Dit_XToResultOp<"broadcast",
    "numpy-broadcast x to the result shape", [Dit_ViewLike]> {
  let hasFolder = 1;
}
def Dit_BitcastOp : Dit_XToResultOp<"bitcast",
    "reinterpret the bits of x as the result type", [Dit_ViewLike]> {
  let hasFolder = 1;
}

def Dit_TransposeOp : Dit_XToResultOp<"transpose",
    "permute dims: result dim i = x dim perm[i]"> {
  let arguments = (ins Dit_RankedTensor:$x, DenseI64ArrayAttr:$perm);
  let hasFolder = 1;
}

def Dit_SliceOp : Dit_XToResultOp<"slice", "x[start:end:step] along dim", [Dit_ViewLike]> {
  let arguments = (ins Dit_RankedTensor:$x, I64Attr:$dim, I64Attr:$start, I64Attr:$end,
                       I64Attr:$step);
}

def Dit_SplitOp : Dit_Op<"split", [Pure, Dit_ViewLike]> {
  let summary = "split x along dim, one result per size";
  let arguments = (ins Dit_RankedTensor:$x, I64Attr:$dim, DenseI64ArrayAttr:$sizes);
  let results = (outs Variadic<Dit_RankedTensor>:$results);
}

def Dit_ConcatOp : Dit_Op<"concat", [Pure, Dit_RowWise]> {
  let summary = "concatenate along dim";
  let arguments = (ins Variadic<Dit_RankedTensor>:$xs, I64Attr:$dim);
  let results = (outs Dit_RankedTensor:$result);
  let hasFolder = 1;
}

def Dit_MatmulOp : Dit_Op<"matmul", [Pure, Dit_Cube]> {
  let summary = "batched op(a)·op(b), batch dims broadcast";
  let arguments = (ins Dit_RankedTensor:$a, Dit_RankedTensor:$b, BoolAttr:$transpose_a,
                       BoolAttr:$transpose_b);
  let results = (outs Dit_RankedTensor:$result);
}

def Dit_LinearOp : Dit_Op<"linear", [Pure, Dit_Cube]> {
  let summary = "x·weightᵀ + bias; weight is [N, K], bias [N]";
  let arguments = (ins Dit_RankedTensor:$x, Dit_RankedTensor:$weight,
                       Optional<Dit_RankedTensor>:$bias);
  let results = (outs Dit_RankedTensor:$result);
}

def Dit_RmsNormOp : Dit_Op<"rms_norm",
    [Pure, AllTypesMatch<["x", "result"]>, Dit_RowWise]> {
  let summary = "RMSNorm over the last dim";
  let arguments = (ins Dit_RankedTensor:$x, Dit_RankedTensor:$gamma, F32Attr:$epsilon);
  let results = (outs Dit_RankedTensor:$result);
}

def Dit_LayerNormOp : Dit_Op<"layer_norm",
    [Pure, AttrSizedOperandSegments, AllTypesMatch<["x", "result"]>, Dit_RowWise]> {
  let summary = "LayerNorm over the last dim";
  let arguments = (ins Dit_RankedTensor:$x, Optional<Dit_RankedTensor>:$gamma,
                       Optional<Dit_RankedTensor>:$beta, F32Attr:$epsilon);
  let results = (outs Dit_RankedTensor:$result);
}

def Dit_RopeOp : Dit_Op<"rope", [Pure, AllTypesMatch<["x", "result"]>, Dit_RowWise]> {
  let summary = "rotary position embedding (aclnnRotaryPositionEmbedding semantics)";
  let arguments = (ins Dit_RankedTensor:$x, Dit_RankedTensor:$cos, Dit_RankedTensor:$sin,
                       Dit_StrEnum<["half", "interleave"]>:$mode);
  let results = (outs Dit_RankedTensor:$result);
}

def Dit_AttentionOp : Dit_Op<"attention", [Pure]> {
  let summary = "scaled dot-product attention";
  let description = [{
    `layout` is "BNSD" (default), "BSND" or "BSH"; `mask_kind` "masked_out" (default) or
    "additive"; `causal` (default false) replaces the mask.
  }];
  let arguments = (ins Dit_RankedTensor:$q, Dit_RankedTensor:$k, Dit_RankedTensor:$v,
                       Optional<Dit_RankedTensor>:$mask, F32Attr:$scale,
                       OptionalAttr<StrAttr>:$layout, OptionalAttr<StrAttr>:$mask_kind,
                       OptionalAttr<BoolAttr>:$causal);
  let results = (outs Dit_RankedTensor:$result);
}

def Dit_DynamicQuantOp : Dit_Op<"dynamic_quant", [Pure]> {
  let summary = "per-token dynamic int8 quantisation -> (y: i8, scale: f32 per token)";
  let arguments = (ins Dit_RankedTensor:$x, Optional<Dit_RankedTensor>:$smooth_scale);
  // (y, scale)
  let results = (outs Dit_RankedTensor, Dit_RankedTensor);
}

def Dit_QuantMatmulOp : Dit_Op<"quant_matmul", [Pure, AttrSizedOperandSegments, Dit_Cube]> {
  let summary = "QuantBatchMatmulV3: (op(x1)·op(x2))·scale [·pertoken_scale] + bias";
  let description = [{
    `x2_format` is "ND" (default) or "FRACTAL_NZ"; `group_size` defaults to 0.
  }];
  let arguments = (ins Dit_RankedTensor:$x1, Dit_RankedTensor:$x2, Dit_RankedTensor:$scale,
                       Optional<Dit_RankedTensor>:$offset, Optional<Dit_RankedTensor>:$bias,
                       Optional<Dit_RankedTensor>:$pertoken_scale, BoolAttr:$transpose_x1,
                       BoolAttr:$transpose_x2, OptionalAttr<StrAttr>:$x2_format,
                       OptionalAttr<I64Attr>:$group_size);
  let results = (outs Dit_RankedTensor:$result);
}

def Dit_GroupedMatmulOp : Dit_Op<"grouped_matmul",
    [Pure, AttrSizedOperandSegments, Dit_Cube]> {
  let summary = "MoE experts: x [M,K], weight [E,K,N], group_list i64 [E]";
  let arguments = (ins Dit_RankedTensor:$x, Dit_RankedTensor:$weight,
                       Dit_RankedTensor:$group_list, Optional<Dit_RankedTensor>:$bias,
                       Optional<Dit_RankedTensor>:$scale,
                       Optional<Dit_RankedTensor>:$per_token_scale,
                       Dit_StrEnum<["cumsum", "count"]>:$group_list_type);
  let results = (outs Dit_RankedTensor:$result);
}

// ---- MoE routing and indexing (torch semantics) ----

def Dit_TopkOp : Dit_Op<"topk", [Pure]> {
  let summary = "the k largest (or smallest) elements along dim (aclnnTopk)";
  let arguments = (ins Dit_RankedTensor:$x, I64Attr:$k, I64Attr:$dim, BoolAttr:$largest,
                       BoolAttr:$sorted);
  // (values, indices)
  let results = (outs Dit_RankedTensor, Dit_RankedTensor);
}

def Dit_SortOp : Dit_Op<"sort", [Pure]> {
  let summary = "sort along dim (aclnnSort); an argsort is its indices";
  let arguments = (ins Dit_RankedTensor:$x, I64Attr:$dim, BoolAttr:$descending,
                       BoolAttr:$stable);
  // (values, indices)
  let results = (outs Dit_RankedTensor, Dit_RankedTensor);
}

def Dit_CumsumOp : Dit_XToResultOp<"cumsum",
    "inclusive prefix sum along dim, in the result's element type (aclnnCumsum)"> {
  let arguments = (ins Dit_RankedTensor:$x, I64Attr:$dim);
}

// Not Dit_Elementwise: an integer op (MoE routing arithmetic) that no generated vector kernel
// computes; it stays one aclnnFloorDivide.
def Dit_FloorDivOp : Dit_BinaryOp<"floor_div", "floor(lhs / rhs) (aclnnFloorDivide)", []>;

def Dit_IndexSelectOp : Dit_Op<"index_select", [Pure]> {
  let summary = "x's slices at the 1-d index along dim (aclnnIndexSelect)";
  let arguments = (ins Dit_RankedTensor:$x, Dit_RankedTensor:$index, I64Attr:$dim);
  let results = (outs Dit_RankedTensor:$result);
}

def Dit_ScatterAddOp : Dit_Op<"scatter_add", [Pure]> {
  let summary = "torch.scatter_add along dim (aclnnScatterAdd)";
  let arguments = (ins Dit_RankedTensor:$x, Dit_RankedTensor:$index, Dit_RankedTensor:$src,
                       I64Attr:$dim);
  let results = (outs Dit_RankedTensor:$result);
}

def Dit_IndexAddOp : Dit_Op<"index_add", [Pure]> {
  let summary = "torch.index_add with alpha 1 along dim (aclnnIndexAdd)";
  let arguments = (ins Dit_RankedTensor:$x, Dit_RankedTensor:$index, Dit_RankedTensor:$source,
                       I64Attr:$dim);
  let results = (outs Dit_RankedTensor:$result);
}

def Dit_MoeInitRoutingOp : Dit_Op<"moe_init_routing", [Pure, Dit_Library]> {
  let summary = "(token, choice) pairs sorted by expert (aclnnMoeInitRoutingV2, drop-less)";
  let description = [{
    x [T,H], expert_idx [T,K] -> (expanded_x [T*K,H], expanded_row_idx i32 [T*K],
    expert_tokens i32 [E]; the kernel writes INT32, i64 still verifies).
  }];
  let arguments = (ins Dit_RankedTensor:$x, Dit_RankedTensor:$expert_idx,
                       I64Attr:$num_experts, Dit_StrEnum<["cumsum", "count"]>:$expert_tokens);
  // (expanded_x, expanded_row_idx, expert_tokens)
  let results = (outs Dit_RankedTensor, Dit_RankedTensor, Dit_RankedTensor);
}

def Dit_MoeFinalizeRoutingOp : Dit_Op<"moe_finalize_routing", [Pure, Dit_Library]> {
  let summary = "out[t] = sum_k scales[t,k]·expanded_x[expanded_row_idx[t*K+k]] "
                "(aclnnMoeFinalizeRoutingV2, dropPadMode 2)";
  let arguments = (ins Dit_RankedTensor:$expanded_x, Dit_RankedTensor:$expanded_row_idx,
                       Dit_RankedTensor:$scales);
  let results = (outs Dit_RankedTensor:$result);
}

def Dit_OpaqueOp : Dit_Op<"opaque"> {
  let summary = "any op the dialect does not model; kept as is, counted as one kernel";
  let description = [{
    Not `Pure`: the op it stands for may have effects dit does not know of.
  }];
  let arguments = (ins Variadic<Dit_RankedTensor>:$args, StrAttr:$name);
  let results = (outs Variadic<Dit_RankedTensor>:$results);
}

//===----------------------------------------------------------------------===//
// Fused ops (produced by passes; each maps to one kernel)
//===----------------------------------------------------------------------===//

def Dit_FastGeluOp : Dit_UnaryOp<"fast_gelu",
    "aclnnFastGelu: x·sigmoid(1.702x), replacing the GELU(tanh) pattern",
    [Dit_RowWise, Dit_Library]> {
  // aclnnFastGelu ([ops-nn] activation/fast_gelu/docs/aclnnFastGelu.md) computes
  // x / (1 + exp(-1.702|x|)) * exp(0.851(x - |x|)) = x * sigmoid(1.702x), not tanh-GELU.
  let substitution = "FastGelu x*sigmoid(1.702x) replacing tanh-GELU";
}

def Dit_MulsAddOp : Dit_Op<"muls_add", [Pure, Dit_RowWise, Dit_Library]> {
  let summary = "x·scale + y in one kernel";
  let arguments = (ins Dit_RankedTensor:$x, Dit_RankedTensor:$y, F32Attr:$scale);
  let results = (outs Dit_RankedTensor:$result);
}

def Dit_AdaLayerNormOp : Dit_Op<"ada_layer_norm",
    [Pure, AllTypesMatch<["x", "result"]>, Dit_RowWise, Dit_Library]> {
  let summary = "layer_norm(x)·(1+scale)+shift";
  let arguments = (ins Dit_RankedTensor:$x, Dit_RankedTensor:$scale, Dit_RankedTensor:$shift,
                       F32Attr:$epsilon);
  let results = (outs Dit_RankedTensor:$result);
}

def Dit_QuantMatmulGeluOp : Dit_Op<"quant_matmul_gelu", [Pure, Dit_Cube, Dit_Library]> {
  let summary = "FusedQuantMatmul: quant matmul + GELU (Atlas A2/A3)";
  let arguments = (ins Dit_RankedTensor:$x1, Dit_RankedTensor:$x2, Dit_RankedTensor:$x1_scale,
                       Dit_RankedTensor:$x2_scale, Optional<Dit_RankedTensor>:$bias,
                       Dit_StrEnum<["gelu_tanh", "gelu_erf"]>:$approximate,
                       OptionalAttr<BoolAttr>:$transpose_x1,
                       OptionalAttr<BoolAttr>:$transpose_x2);
  let results = (outs Dit_RankedTensor:$result);
}

def Dit_FusedMatmulOp : Dit_Op<"fused_matmul",
    [Pure, AttrSizedOperandSegments, Dit_Cube, Dit_Library]> {
  let summary = "FusedMatmul (Ascend 950 only)";
  let arguments = (ins Dit_RankedTensor:$x1, Dit_RankedTensor:$x2,
                       Optional<Dit_RankedTensor>:$bias, Optional<Dit_RankedTensor>:$x3,
                       Dit_StrEnum<["", "add", "mul", "gelu_tanh", "gelu_erf", "relu"]>:
                           $fused_op_type);
  let results = (outs Dit_RankedTensor:$result);
}

def Dit_GroupedMatmulSwigluQuantOp : Dit_Op<"grouped_matmul_swiglu_quant",
    [Pure, AttrSizedOperandSegments, Dit_Cube, Dit_Library]> {
  let summary = "GroupedMatmulSwigluQuant(V2) -> (y: i8 [M, N/2], y_scale, y_offset)";
  let arguments = (ins Dit_RankedTensor:$x, Dit_RankedTensor:$weight,
                       Dit_RankedTensor:$group_list, Dit_RankedTensor:$weight_scale,
                       Dit_RankedTensor:$x_scale, Optional<Dit_RankedTensor>:$bias,
                       Optional<Dit_RankedTensor>:$offset,
                       Dit_StrEnum<["v1", "v2"]>:$variant);
  // (y, y_scale, y_offset)
  let results = (outs Dit_RankedTensor, Dit_RankedTensor, Dit_RankedTensor);
}

def Dit_SwigluOp : Dit_XToResultOp<"swiglu",
    "SwiGlu: silu(first half)·second half along dim", [Dit_RowWiseOnLastDim, Dit_Library]> {
  let arguments = (ins Dit_RankedTensor:$x, I64Attr:$dim);
}

def Dit_SiluMulOp : Dit_Op<"silu_mul", [Pure, Dit_RowWise, Dit_Library]> {
  let summary = "silu(gate)·up as one vector kernel";
  let arguments = (ins Dit_RankedTensor:$gate, Dit_RankedTensor:$up);
  let results = (outs Dit_RankedTensor:$result);
}

def Dit_GeluMulOp : Dit_XToResultOp<"gelu_mul",
    "GeluMul: gelu(first half)·second half of the last dim (even, <= 1024)",
    [Dit_RowWise, Dit_Library]> {
  let arguments = (ins Dit_RankedTensor:$x, Dit_StrEnum<["none", "tanh"]>:$approximate);
}

def Dit_KvRmsNormRopeCacheOp : Dit_Op<"kv_rms_norm_rope_cache", [Pure, Dit_Library]> {
  let summary = "KvRmsNormRopeCache (kv last dim 576 = 512 norm + 64 rope), experimental";
  let description = [{
    The results are the updated caches. `cache_mode` is one of "Norm", "PA", "PA_BNSD",
    "PA_NZ", "PA_BLK_BNSD", "PA_BLK_NZ" (Rust verifier).
  }];
  let arguments = (ins Dit_RankedTensor:$kv, Dit_RankedTensor:$gamma, Dit_RankedTensor:$cos,
                       Dit_RankedTensor:$sin, Dit_RankedTensor:$index,
                       Dit_RankedTensor:$k_cache, Dit_RankedTensor:$ckv_cache,
                       F32Attr:$epsilon, StrAttr:$cache_mode);
  // (k_cache, ckv_cache) updated
  let results = (outs Dit_RankedTensor, Dit_RankedTensor);
}

def Dit_MoeGatingTopkSoftmaxOp : Dit_Op<"moe_gating_topk_softmax", [Pure, Dit_Library]> {
  let summary = "MoeGatingTopKSoftmax: top-k of softmax(x, -1) -> (y, expert_idx i32, row_idx i32)";
  let description = [{
    x [.., E] float (rank 2 or 3), finished [..] i1 optional -> y [.., k] like x (the k largest
    softmax probabilities of each row, largest first), expert_idx i32 [.., k] (their experts;
    E on a finished row), row_idx i32 [.., k] (row_idx[t, j] = j * T + t). The router of a
    top-k MoE in one kernel ([ops-transformer] moe/moe_gating_top_k_softmax/docs/
    aclnnMoeGatingTopKSoftmax.md).
  }];
  let arguments = (ins Dit_RankedTensor:$x, Optional<Dit_RankedTensor>:$finished, I64Attr:$k);
  // (y, expert_idx, row_idx)
  let results = (outs Dit_RankedTensor, Dit_RankedTensor, Dit_RankedTensor);
}

def Dit_FusedOp : Dit_Op<"fused", [RecursiveMemoryEffects, RecursivelySpeculatable,
                                    SingleBlock, IsolatedFromAbove]> {
  let summary = "one generated Ascend C vector kernel";
  let description = [{
    The body is one block whose arguments are the captured values, ending in dit.yield of
    the results.
  }];
  let arguments = (ins Variadic<Dit_RankedTensor>:$captured, StrAttr:$kernel);
  let results = (outs Variadic<Dit_RankedTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  // Its Rust rules are about the body (captures, terminator, yielded types): they run once
  // the body has verified, after MLIR's own checks of it.
  let hasVerifier = 0;
  let hasRegionVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verifyRegions() {
      return ::mlir::dit::verifyRustRules(getOperation());
    }
  }];
}

def Dit_YieldOp : Dit_Op<"yield", [Pure, Terminator, ReturnLike, HasParent<"FusedOp">]> {
  let summary = "terminator of dit.fused: returns its results";
  let arguments = (ins Variadic<Dit_RankedTensor>:$values);
}

#endif // DIT_OPS_TD
