// RUN: dit-opt %s --split-input-file --verify-diagnostics
//
// Negative cases of the MoE routing and indexing ops and of dit.attention's mask_kind: one per
// verifier rule (the Rust verifier's `'dit.x' op ... [rule name]`).

func.func @additive_mask_type(%q: tensor<1x2x16x64xbf16>, %k: tensor<1x2x32x64xbf16>, %m: tensor<1x2x16x32xf32>) -> tensor<1x2x16x64xbf16> {
  // expected-error @+1 {{'dit.attention' op an additive mask must have q's element type bf16, got f32 [rule attention.mask-type]}}
  %0 = "dit.attention"(%q, %k, %k, %m) {mask_kind = "additive", operandSegmentSizes = array<i32: 1, 1, 1, 1>, scale = 1.250000e-01 : f32} : (tensor<1x2x16x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x16x32xf32>) -> tensor<1x2x16x64xbf16>
  return %0 : tensor<1x2x16x64xbf16>
}

// -----

func.func @mask_kind_value(%q: tensor<1x2x16x64xbf16>, %k: tensor<1x2x32x64xbf16>) -> tensor<1x2x16x64xbf16> {
  // expected-error @+1 {{'dit.attention' op attribute 'mask_kind' is "bias", expected one of "masked_out", "additive" [rule enum-value]}}
  %0 = "dit.attention"(%q, %k, %k) {mask_kind = "bias", operandSegmentSizes = array<i32: 1, 1, 1, 0>, scale = 1.250000e-01 : f32} : (tensor<1x2x16x64xbf16>, tensor<1x2x32x64xbf16>, tensor<1x2x32x64xbf16>) -> tensor<1x2x16x64xbf16>
  return %0 : tensor<1x2x16x64xbf16>
}

// -----

func.func @topk_k(%x: tensor<4x3xf32>) -> tensor<4x4xi64> {
  // expected-error @+1 {{'dit.topk' op k = 4 is outside 0..=3 (the size of dim 1) [rule topk.k]}}
  %v, %i = "dit.topk"(%x) {k = 4 : i64, dim = -1 : i64, largest = true, sorted = true} : (tensor<4x3xf32>) -> (tensor<4x4xf32>, tensor<4x4xi64>)
  return %i : tensor<4x4xi64>
}

// -----

func.func @topk_indices(%x: tensor<4x3xf32>) -> tensor<4x2xi32> {
  // expected-error @+1 {{'dit.topk' op indices element type i32 is not one of {i64} [rule topk.indices]}}
  %v, %i = "dit.topk"(%x) {k = 2 : i64, dim = 1 : i64, largest = true, sorted = true} : (tensor<4x3xf32>) -> (tensor<4x2xf32>, tensor<4x2xi32>)
  return %i : tensor<4x2xi32>
}

// -----

func.func @sort_dim(%x: tensor<8xi64>) -> tensor<8xi64> {
  // expected-error @+1 {{'dit.sort' op dim 1 is out of range for rank 1 [rule dim-range]}}
  %v, %i = "dit.sort"(%x) {dim = 1 : i64, descending = false, stable = true} : (tensor<8xi64>) -> (tensor<8xi64>, tensor<8xi64>)
  return %i : tensor<8xi64>
}

// -----

func.func @cumsum_shape(%x: tensor<3xi64>) -> tensor<4xi64> {
  // expected-error @+1 {{'dit.cumsum' op result has shape [4], expected [3] [rule shape]}}
  %0 = "dit.cumsum"(%x) {dim = 0 : i64} : (tensor<3xi64>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

func.func @floor_div_types(%a: tensor<8xi64>, %b: tensor<i32>) -> tensor<8xi64> {
  // expected-error @+1 {{'dit.floor_div' op lhs and rhs: element types i64 and i32 differ [rule same-element-type]}}
  %0 = "dit.floor_div"(%a, %b) : (tensor<8xi64>, tensor<i32>) -> tensor<8xi64>
  return %0 : tensor<8xi64>
}

// -----

func.func @index_select_rank(%x: tensor<4x8xf32>, %i: tensor<2x2xi64>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'dit.index_select' op index must be 0-d or 1-d, got rank 2 [rule index.rank]}}
  %0 = "dit.index_select"(%x, %i) {dim = 0 : i64} : (tensor<4x8xf32>, tensor<2x2xi64>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @index_select_float_index(%x: tensor<4x8xf32>, %i: tensor<2xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'dit.index_select' op index element type f32 is not one of {i64, i32} [rule index.type]}}
  %0 = "dit.index_select"(%x, %i) {dim = 0 : i64} : (tensor<4x8xf32>, tensor<2xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @scatter_add_shape(%x: tensor<3xi64>, %i: tensor<8xi64>, %s: tensor<4xi64>) -> tensor<3xi64> {
  // expected-error @+1 {{'dit.scatter_add' op index [8] must be no larger than src [4] in every dim and than x [3] outside dim 0 [rule scatter_add.shape]}}
  %0 = "dit.scatter_add"(%x, %i, %s) {dim = 0 : i64} : (tensor<3xi64>, tensor<8xi64>, tensor<4xi64>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

func.func @index_add_source(%x: tensor<4x8xf32>, %i: tensor<6xi64>, %s: tensor<5x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'dit.index_add' op source has shape [5x8], expected [6x8] [rule shape]}}
  %0 = "dit.index_add"(%x, %i, %s) {dim = 0 : i64} : (tensor<4x8xf32>, tensor<6xi64>, tensor<5x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @moe_init_rows(%x: tensor<16x32xbf16>, %e: tensor<16x2xi64>) -> tensor<16x32xbf16> {
  // expected-error @+1 {{'dit.moe_init_routing' op expanded_x has shape [16x32], expected [32x32] [rule shape]}}
  %xs, %rows, %n = "dit.moe_init_routing"(%x, %e) {expert_tokens = "cumsum", num_experts = 4 : i64} : (tensor<16x32xbf16>, tensor<16x2xi64>) -> (tensor<16x32xbf16>, tensor<32xi32>, tensor<4xi64>)
  return %xs : tensor<16x32xbf16>
}

// -----

func.func @moe_init_row_idx(%x: tensor<16x32xbf16>, %e: tensor<16x2xi64>) -> tensor<32xi64> {
  // expected-error @+1 {{'dit.moe_init_routing' op expanded_row_idx element type i64 is not one of {i32} [rule moe_init_routing.row-idx]}}
  %xs, %rows, %n = "dit.moe_init_routing"(%x, %e) {expert_tokens = "cumsum", num_experts = 4 : i64} : (tensor<16x32xbf16>, tensor<16x2xi64>) -> (tensor<32x32xbf16>, tensor<32xi64>, tensor<4xi64>)
  return %rows : tensor<32xi64>
}

// -----

func.func @moe_init_tokens(%x: tensor<16x32xbf16>, %e: tensor<16x2xi32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dit.moe_init_routing' op expert_tokens element type f32 is not one of {i32, i64} [rule moe_init_routing.tokens]}}
  %xs, %rows, %n = "dit.moe_init_routing"(%x, %e) {expert_tokens = "cumsum", num_experts = 4 : i64} : (tensor<16x32xbf16>, tensor<16x2xi32>) -> (tensor<32x32xbf16>, tensor<32xi32>, tensor<4xf32>)
  return %n : tensor<4xf32>
}

// -----

func.func @moe_finalize_scales(%y: tensor<32x32xbf16>, %r: tensor<32xi32>, %w: tensor<16x3xbf16>) -> tensor<16x32xbf16> {
  // expected-error @+1 {{'dit.moe_finalize_routing' op expanded_x has shape [32x32], expected [48x32] [rule shape]}}
  %0 = "dit.moe_finalize_routing"(%y, %r, %w) : (tensor<32x32xbf16>, tensor<32xi32>, tensor<16x3xbf16>) -> tensor<16x32xbf16>
  return %0 : tensor<16x32xbf16>
}

// -----

func.func @moe_gating_k(%x: tensor<16x4xbf16>) -> tensor<16x5xi32> {
  // expected-error @+1 {{'dit.moe_gating_topk_softmax' op k = 5 is outside 0..=4 (at most the experts of a row and 1024) [rule moe_gating_topk_softmax.k]}}
  %y, %e, %r = "dit.moe_gating_topk_softmax"(%x) {k = 5 : i64, operandSegmentSizes = array<i32: 1, 0>} : (tensor<16x4xbf16>) -> (tensor<16x5xbf16>, tensor<16x5xi32>, tensor<16x5xi32>)
  return %e : tensor<16x5xi32>
}

// -----

func.func @moe_gating_k_limit(%x: tensor<4x2048xf16>) -> tensor<4x1025xi32> {
  // expected-error @+1 {{'dit.moe_gating_topk_softmax' op k = 1025 is outside 0..=1024 (at most the experts of a row and 1024) [rule moe_gating_topk_softmax.k]}}
  %y, %e, %r = "dit.moe_gating_topk_softmax"(%x) {k = 1025 : i64, operandSegmentSizes = array<i32: 1, 0>} : (tensor<4x2048xf16>) -> (tensor<4x1025xf16>, tensor<4x1025xi32>, tensor<4x1025xi32>)
  return %e : tensor<4x1025xi32>
}

// -----

func.func @moe_gating_ids(%x: tensor<16x4xbf16>) -> tensor<16x2xi64> {
  // expected-error @+1 {{'dit.moe_gating_topk_softmax' op expert_idx element type i64 is not one of {i32} [rule moe_gating_topk_softmax.index]}}
  %y, %e, %r = "dit.moe_gating_topk_softmax"(%x) {k = 2 : i64, operandSegmentSizes = array<i32: 1, 0>} : (tensor<16x4xbf16>) -> (tensor<16x2xbf16>, tensor<16x2xi64>, tensor<16x2xi32>)
  return %e : tensor<16x2xi64>
}

// -----

func.func @moe_gating_rank(%x: tensor<16xbf16>) -> tensor<2xi32> {
  // expected-error @+1 {{'dit.moe_gating_topk_softmax' op x must have rank 2 or 3, got rank 1 [rule moe_gating_topk_softmax.rank]}}
  %y, %e, %r = "dit.moe_gating_topk_softmax"(%x) {k = 2 : i64, operandSegmentSizes = array<i32: 1, 0>} : (tensor<16xbf16>) -> (tensor<2xbf16>, tensor<2xi32>, tensor<2xi32>)
  return %e : tensor<2xi32>
}

// -----

func.func @moe_gating_finished(%x: tensor<16x4xbf16>, %done: tensor<16xi32>) -> tensor<16x2xi32> {
  // expected-error @+1 {{'dit.moe_gating_topk_softmax' op finished element type i32 is not one of {i1} [rule moe_gating_topk_softmax.finished]}}
  %y, %e, %r = "dit.moe_gating_topk_softmax"(%x, %done) {k = 2 : i64, operandSegmentSizes = array<i32: 1, 1>} : (tensor<16x4xbf16>, tensor<16xi32>) -> (tensor<16x2xbf16>, tensor<16x2xi32>, tensor<16x2xi32>)
  return %e : tensor<16x2xi32>
}

// -----

func.func @moe_gating_finished_shape(%x: tensor<16x4xbf16>, %done: tensor<8xi1>) -> tensor<16x2xi32> {
  // expected-error @+1 {{'dit.moe_gating_topk_softmax' op finished has shape [8], expected [16] [rule shape]}}
  %y, %e, %r = "dit.moe_gating_topk_softmax"(%x, %done) {k = 2 : i64, operandSegmentSizes = array<i32: 1, 1>} : (tensor<16x4xbf16>, tensor<8xi1>) -> (tensor<16x2xbf16>, tensor<16x2xi32>, tensor<16x2xi32>)
  return %e : tensor<16x2xi32>
}
