// dit.irdl.mlir -- an IRDL approximation of the `dit` dialect, kept for bench's peer only.
//
// dit itself no longer loads this file: the one definition of the dialect is ODS
// (dialects/dit/include/dit/DitOps.td), compiled into dit-dialect. This file stays because
// bench times upstream `mlir-opt --irdl-file=bench/peer/dit.irdl.mlir` on the same text, and
// upstream mlir-opt has no other way to load dit until the dialect plugin (issue 16) exists.
// `tblgen-to-irdl` output of the ODS file does not load in mlir-opt 22 (it names
// `!builtin.float` and emits `irdl.c_pred`), so this is the hand-written turn-1 file.
// IRDL ops print and parse in generic form only; they have no traits and no properties.
//
// What MLIR 22 IRDL checks here, and what it cannot (the Rust verifier does the rest):
// - Every SSA value below is a constraint VARIABLE: the first operand/result/attribute that
//   matches it fixes it, and every later use must be the identical type/attribute. So each
//   operand, result and attribute that may differ gets its own `irdl.base`/`irdl.any_of`;
//   a shared variable is used only where the contract makes types equal (unary elementwise
//   ops and norms: result type == x type).
// - `!builtin.tensor` is RankedTensorType only (unranked `tensor<*x..>` is rejected).
//   Element types and shapes of builtin tensors cannot be constrained (irdl.parametric
//   takes only IRDL-defined types), nor can attribute widths: `#builtin.integer` also accepts
//   i32 / `true`, `#builtin.float` also f64, `#builtin.dense_array` also array<i32>.
// - Bools are `any_of(is true, is false)`; string enums `any_of(is "a", is "b", ...)`.
// - Declared attributes are all required (IRDL has no optional attributes); undeclared ones
//   (layout, x2_format, group_size, operandSegmentSizes on single-optional ops) pass
//   unchecked.
// - operandSegmentSizes (array<i32>) is read by IRDL only when an op has MORE THAN ONE
//   optional/variadic operand (layer_norm, quant_matmul, grouped_matmul, fused_matmul,
//   grouped_matmul_swiglu_quant: required there). With a single optional operand (linear,
//   attention, dynamic_quant, quant_matmul_gelu) IRDL infers the split from the operand
//   count and ignores the attribute, even a wrong one.
// - A variadic segment shares ONE variable, so all values in it must have the same type.
//   concat and split therefore declare a free first value plus a homogeneous tail
//   (`x0, xs...`), which accepts every 2-way concat/split and [a, b, b]-shaped ones;
//   opaque/fused/yield values must be homogeneous here. See each op.
// - IRDL ops cannot be terminators or have NoTerminator, so MLIR's core verifier rejects any
//   non-empty dit.fused body ("block with no terminator") in tools that load only this file.
//
// fused, yield, concat, split and opaque below are only the closest IRDL approximation; the
// ODS definition gives them the traits and heterogeneous variadics they need.

irdl.dialect @dit {

  // ===================================================================================
  // Primitive ops
  // ===================================================================================

  // ---- elementwise binary, numpy broadcasting: (lhs, rhs) -> result ----------------

  // dit.add(lhs, rhs): lhs + rhs, broadcasting.
  irdl.operation @add {
    %lhs = irdl.base "!builtin.tensor"
    %rhs = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %res)
  }

  // dit.sub(lhs, rhs): lhs - rhs, broadcasting.
  irdl.operation @sub {
    %lhs = irdl.base "!builtin.tensor"
    %rhs = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %res)
  }

  // dit.mul(lhs, rhs): lhs * rhs, broadcasting.
  irdl.operation @mul {
    %lhs = irdl.base "!builtin.tensor"
    %rhs = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %res)
  }

  // dit.div(lhs, rhs): lhs / rhs, broadcasting.
  irdl.operation @div {
    %lhs = irdl.base "!builtin.tensor"
    %rhs = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %res)
  }

  // dit.pow(lhs, rhs): lhs ** rhs, broadcasting.
  irdl.operation @pow {
    %lhs = irdl.base "!builtin.tensor"
    %rhs = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %res)
  }

  // ---- elementwise unary: (x) -> result, result type == x type ----------------------

  // dit.neg(x): -x.
  irdl.operation @neg {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(x: %t)
    irdl.results(result: %t)
  }

  // dit.exp(x): e^x.
  irdl.operation @exp {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(x: %t)
    irdl.results(result: %t)
  }

  // dit.sqrt(x): square root.
  irdl.operation @sqrt {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(x: %t)
    irdl.results(result: %t)
  }

  // dit.rsqrt(x): 1 / sqrt(x).
  irdl.operation @rsqrt {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(x: %t)
    irdl.results(result: %t)
  }

  // dit.tanh(x): hyperbolic tangent.
  irdl.operation @tanh {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(x: %t)
    irdl.results(result: %t)
  }

  // dit.sin(x): sine (radians); sinusoidal timestep embeddings and RoPE tables.
  irdl.operation @sin {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(x: %t)
    irdl.results(result: %t)
  }

  // dit.cos(x): cosine (radians).
  irdl.operation @cos {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(x: %t)
    irdl.results(result: %t)
  }

  // dit.erf(x): error function.
  irdl.operation @erf {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(x: %t)
    irdl.results(result: %t)
  }

  // dit.sigmoid(x): 1 / (1 + e^-x).
  irdl.operation @sigmoid {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(x: %t)
    irdl.results(result: %t)
  }

  // dit.silu(x): x * sigmoid(x).
  irdl.operation @silu {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(x: %t)
    irdl.results(result: %t)
  }

  // dit.relu(x): max(x, 0).
  irdl.operation @relu {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(x: %t)
    irdl.results(result: %t)
  }

  // dit.gelu(x) {approximate = "none" | "tanh"}: erf GELU or tanh GELU.
  irdl.operation @gelu {
    %t = irdl.base "!builtin.tensor"
    %none = irdl.is "none"
    %tanh = irdl.is "tanh"
    %approximate = irdl.any_of(%none, %tanh)
    irdl.operands(x: %t)
    irdl.results(result: %t)
    irdl.attributes {"approximate" = %approximate}
  }

  // ---- conversion, reduction, layout -------------------------------------------------

  // dit.cast(x): convert to the result's element type (same shape; Rust verifier).
  irdl.operation @cast {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(result: %res)
  }

  // dit.reduce_mean(x) {dims: array<i64>, keepdim: bool}: mean over dims.
  irdl.operation @reduce_mean {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %dims = irdl.base "#builtin.dense_array"
    %true = irdl.is true
    %false = irdl.is false
    %keepdim = irdl.any_of(%true, %false)
    irdl.operands(x: %x)
    irdl.results(result: %res)
    irdl.attributes {"dims" = %dims, "keepdim" = %keepdim}
  }

  // dit.reduce_sum(x) {dims: array<i64>, keepdim: bool}: sum over dims.
  irdl.operation @reduce_sum {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %dims = irdl.base "#builtin.dense_array"
    %true = irdl.is true
    %false = irdl.is false
    %keepdim = irdl.any_of(%true, %false)
    irdl.operands(x: %x)
    irdl.results(result: %res)
    irdl.attributes {"dims" = %dims, "keepdim" = %keepdim}
  }

  // dit.softmax(x) {dim: i64}: softmax along dim; result type == x type.
  irdl.operation @softmax {
    %t = irdl.base "!builtin.tensor"
    %dim = irdl.base "#builtin.integer"
    irdl.operands(x: %t)
    irdl.results(result: %t)
    irdl.attributes {"dim" = %dim}
  }

  // dit.reshape(x): new shape from the result type, same element count.
  irdl.operation @reshape {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(result: %res)
  }

  // dit.broadcast(x): numpy-broadcast x to the result shape.
  irdl.operation @broadcast {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(result: %res)
  }

  // dit.bitcast(x): reinterpret the bits of x as the result type.
  irdl.operation @bitcast {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(x: %x)
    irdl.results(result: %res)
  }

  // dit.transpose(x) {perm: array<i64>}: permute dims, result dim i = x dim perm[i].
  irdl.operation @transpose {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %perm = irdl.base "#builtin.dense_array"
    irdl.operands(x: %x)
    irdl.results(result: %res)
    irdl.attributes {"perm" = %perm}
  }

  // dit.slice(x) {dim, start, end, step: i64}: x[start:end:step] along dim.
  irdl.operation @slice {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %dim = irdl.base "#builtin.integer"
    %start = irdl.base "#builtin.integer"
    %end = irdl.base "#builtin.integer"
    %step = irdl.base "#builtin.integer"
    irdl.operands(x: %x)
    irdl.results(result: %res)
    irdl.attributes {"dim" = %dim, "start" = %start, "end" = %end, "step" = %step}
  }

  // dit.split(x) {dim: i64, sizes: array<i64>} -> one result per size.
  // Results: a free first result plus a homogeneous tail (IRDL variadics share one type),
  // so [a, b, b, ...] splits verify; any other unequal split is rejected by IRDL.
  irdl.operation @split {
    %x = irdl.base "!builtin.tensor"
    %y0 = irdl.base "!builtin.tensor"
    %ys = irdl.base "!builtin.tensor"
    %dim = irdl.base "#builtin.integer"
    %sizes = irdl.base "#builtin.dense_array"
    irdl.operands(x: %x)
    irdl.results(y0: %y0, ys: variadic %ys)
    irdl.attributes {"dim" = %dim, "sizes" = %sizes}
  }

  // dit.concat(xs...) {dim: i64}: concatenate along dim.
  // Operands: a free first input plus a homogeneous tail (IRDL variadics share one type),
  // so every 2-way concat and [a, b, b, ...] verify; at least one input.
  irdl.operation @concat {
    %x0 = irdl.base "!builtin.tensor"
    %xs = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %dim = irdl.base "#builtin.integer"
    irdl.operands(x0: %x0, xs: variadic %xs)
    irdl.results(result: %res)
    irdl.attributes {"dim" = %dim}
  }

  // ---- matmul family -----------------------------------------------------------------

  // dit.matmul(a, b) {transpose_a, transpose_b: bool}: batched op(a)·op(b), batch dims
  // broadcast.
  irdl.operation @matmul {
    %a = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %ta_t = irdl.is true
    %ta_f = irdl.is false
    %transpose_a = irdl.any_of(%ta_t, %ta_f)
    %tb_t = irdl.is true
    %tb_f = irdl.is false
    %transpose_b = irdl.any_of(%tb_t, %tb_f)
    irdl.operands(a: %a, b: %b)
    irdl.results(result: %res)
    irdl.attributes {"transpose_a" = %transpose_a, "transpose_b" = %transpose_b}
  }

  // dit.linear(x, weight, bias?): x·weightᵀ + bias, weight [N, K], bias [N].
  // One optional operand: IRDL ignores operandSegmentSizes (Rust verifier checks it).
  irdl.operation @linear {
    %x = irdl.base "!builtin.tensor"
    %weight = irdl.base "!builtin.tensor"
    %bias = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(x: %x, weight: %weight, bias: optional %bias)
    irdl.results(result: %res)
  }

  // ---- normalisation, rotary embedding, attention -------------------------------------

  // dit.rms_norm(x, gamma) {epsilon: f32}: RMSNorm over the last dim; result type == x.
  irdl.operation @rms_norm {
    %x = irdl.base "!builtin.tensor"
    %gamma = irdl.base "!builtin.tensor"
    %epsilon = irdl.base "#builtin.float"
    irdl.operands(x: %x, gamma: %gamma)
    irdl.results(result: %x)
    irdl.attributes {"epsilon" = %epsilon}
  }

  // dit.layer_norm(x, gamma?, beta?) {epsilon: f32}: LayerNorm over the last dim;
  // result type == x. Two optional operands: operandSegmentSizes [1, 0|1, 0|1] required.
  irdl.operation @layer_norm {
    %x = irdl.base "!builtin.tensor"
    %gamma = irdl.base "!builtin.tensor"
    %beta = irdl.base "!builtin.tensor"
    %epsilon = irdl.base "#builtin.float"
    irdl.operands(x: %x, gamma: optional %gamma, beta: optional %beta)
    irdl.results(result: %x)
    irdl.attributes {"epsilon" = %epsilon}
  }

  // dit.rope(x, cos, sin) {mode = "half" | "interleave"}: rotary position embedding
  // (aclnnRotaryPositionEmbedding semantics); result type == x type.
  irdl.operation @rope {
    %x = irdl.base "!builtin.tensor"
    %cos = irdl.base "!builtin.tensor"
    %sin = irdl.base "!builtin.tensor"
    %half = irdl.is "half"
    %interleave = irdl.is "interleave"
    %mode = irdl.any_of(%half, %interleave)
    irdl.operands(x: %x, cos: %cos, sin: %sin)
    irdl.results(result: %x)
    irdl.attributes {"mode" = %mode}
  }

  // dit.attention(q, k, v, mask?) {scale: f32; layout = "BNSD" default, not declared}:
  // scaled dot-product attention. One optional operand: operandSegmentSizes ignored by IRDL.
  irdl.operation @attention {
    %q = irdl.base "!builtin.tensor"
    %k = irdl.base "!builtin.tensor"
    %v = irdl.base "!builtin.tensor"
    %mask = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %scale = irdl.base "#builtin.float"
    irdl.operands(q: %q, k: %k, v: %v, mask: optional %mask)
    irdl.results(result: %res)
    irdl.attributes {"scale" = %scale}
  }

  // ---- quantisation ------------------------------------------------------------------

  // dit.dynamic_quant(x, smooth_scale?) -> (y: i8 same shape, scale: f32 per token):
  // per-token dynamic int8 quantisation. Two fixed results (not variadic: they differ).
  irdl.operation @dynamic_quant {
    %x = irdl.base "!builtin.tensor"
    %smooth_scale = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    %scale = irdl.base "!builtin.tensor"
    irdl.operands(x: %x, smooth_scale: optional %smooth_scale)
    irdl.results(y: %y, scale: %scale)
  }

  // dit.quant_matmul(x1, x2, scale, offset?, bias?, pertoken_scale?)
  //   {transpose_x1, transpose_x2: bool; x2_format, group_size optional, not declared}:
  // QuantBatchMatmulV3, y = (op(x1)·op(x2))·scale [·pertoken_scale] + bias.
  // Three optional operands: operandSegmentSizes (6 entries) required.
  irdl.operation @quant_matmul {
    %x1 = irdl.base "!builtin.tensor"
    %x2 = irdl.base "!builtin.tensor"
    %scale = irdl.base "!builtin.tensor"
    %offset = irdl.base "!builtin.tensor"
    %bias = irdl.base "!builtin.tensor"
    %pertoken_scale = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %t1_t = irdl.is true
    %t1_f = irdl.is false
    %transpose_x1 = irdl.any_of(%t1_t, %t1_f)
    %t2_t = irdl.is true
    %t2_f = irdl.is false
    %transpose_x2 = irdl.any_of(%t2_t, %t2_f)
    irdl.operands(x1: %x1, x2: %x2, scale: %scale, offset: optional %offset,
                  bias: optional %bias, pertoken_scale: optional %pertoken_scale)
    irdl.results(result: %res)
    irdl.attributes {"transpose_x1" = %transpose_x1, "transpose_x2" = %transpose_x2}
  }

  // dit.grouped_matmul(x, weight, group_list, bias?, scale?, per_token_scale?)
  //   {group_list_type = "cumsum" | "count"}: MoE experts, x [M,K], weight [E,K,N],
  // group_list i64 [E]. Three optional operands: operandSegmentSizes (6 entries) required.
  irdl.operation @grouped_matmul {
    %x = irdl.base "!builtin.tensor"
    %weight = irdl.base "!builtin.tensor"
    %group_list = irdl.base "!builtin.tensor"
    %bias = irdl.base "!builtin.tensor"
    %scale = irdl.base "!builtin.tensor"
    %per_token_scale = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %cumsum = irdl.is "cumsum"
    %count = irdl.is "count"
    %group_list_type = irdl.any_of(%cumsum, %count)
    irdl.operands(x: %x, weight: %weight, group_list: %group_list, bias: optional %bias,
                  scale: optional %scale, per_token_scale: optional %per_token_scale)
    irdl.results(result: %res)
    irdl.attributes {"group_list_type" = %group_list_type}
  }

  // ---- MoE routing and indexing (torch semantics; see DIALECT.md) ---------------------

  // dit.topk(x) {k, dim: i64; largest, sorted: bool} -> (values like x, indices i64):
  // the k largest (or smallest) elements along dim (aclnnTopk).
  irdl.operation @topk {
    %x = irdl.base "!builtin.tensor"
    %values = irdl.base "!builtin.tensor"
    %indices = irdl.base "!builtin.tensor"
    %k = irdl.base "#builtin.integer"
    %dim = irdl.base "#builtin.integer"
    %l_t = irdl.is true
    %l_f = irdl.is false
    %largest = irdl.any_of(%l_t, %l_f)
    %s_t = irdl.is true
    %s_f = irdl.is false
    %sorted = irdl.any_of(%s_t, %s_f)
    irdl.operands(x: %x)
    irdl.results(values: %values, indices: %indices)
    irdl.attributes {"k" = %k, "dim" = %dim, "largest" = %largest, "sorted" = %sorted}
  }

  // dit.sort(x) {dim: i64; descending, stable: bool} -> (values like x, indices i64)
  // (aclnnSort); an argsort is its indices.
  irdl.operation @sort {
    %x = irdl.base "!builtin.tensor"
    %values = irdl.base "!builtin.tensor"
    %indices = irdl.base "!builtin.tensor"
    %dim = irdl.base "#builtin.integer"
    %d_t = irdl.is true
    %d_f = irdl.is false
    %descending = irdl.any_of(%d_t, %d_f)
    %s_t = irdl.is true
    %s_f = irdl.is false
    %stable = irdl.any_of(%s_t, %s_f)
    irdl.operands(x: %x)
    irdl.results(values: %values, indices: %indices)
    irdl.attributes {"dim" = %dim, "descending" = %descending, "stable" = %stable}
  }

  // dit.cumsum(x) {dim: i64}: inclusive prefix sum along dim, in the result's element type
  // (aclnnCumsum).
  irdl.operation @cumsum {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %dim = irdl.base "#builtin.integer"
    irdl.operands(x: %x)
    irdl.results(result: %res)
    irdl.attributes {"dim" = %dim}
  }

  // dit.floor_div(lhs, rhs): elementwise floor(lhs / rhs), broadcasting (aclnnFloorDivide).
  irdl.operation @floor_div {
    %lhs = irdl.base "!builtin.tensor"
    %rhs = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %res)
  }

  // dit.index_select(x, index) {dim: i64}: x's slices at the 1-d index along dim
  // (aclnnIndexSelect).
  irdl.operation @index_select {
    %x = irdl.base "!builtin.tensor"
    %index = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %dim = irdl.base "#builtin.integer"
    irdl.operands(x: %x, index: %index)
    irdl.results(result: %res)
    irdl.attributes {"dim" = %dim}
  }

  // dit.scatter_add(x, index, src) {dim: i64}: x with src[i] added at x[index[i]] along dim,
  // torch.scatter_add (aclnnScatterAdd).
  irdl.operation @scatter_add {
    %x = irdl.base "!builtin.tensor"
    %index = irdl.base "!builtin.tensor"
    %src = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %dim = irdl.base "#builtin.integer"
    irdl.operands(x: %x, index: %index, src: %src)
    irdl.results(result: %res)
    irdl.attributes {"dim" = %dim}
  }

  // dit.moe_init_routing(x [T,H], expert_idx [T,K]) {num_experts: i64, expert_tokens:
  // "cumsum" | "count"} -> (expanded_x [T*K,H], expanded_row_idx i32 [T*K], expert_tokens i32
  // [E]): the (token, choice) pairs sorted by expert, aclnnMoeInitRoutingV2 (drop-less).
  irdl.operation @moe_init_routing {
    %x = irdl.base "!builtin.tensor"
    %expert_idx = irdl.base "!builtin.tensor"
    %expanded_x = irdl.base "!builtin.tensor"
    %expanded_row_idx = irdl.base "!builtin.tensor"
    %expert_tokens = irdl.base "!builtin.tensor"
    %num_experts = irdl.base "#builtin.integer"
    %cumsum = irdl.is "cumsum"
    %count = irdl.is "count"
    %tokens = irdl.any_of(%cumsum, %count)
    irdl.operands(x: %x, expert_idx: %expert_idx)
    irdl.results(expanded_x: %expanded_x, expanded_row_idx: %expanded_row_idx,
                 expert_tokens: %expert_tokens)
    irdl.attributes {"num_experts" = %num_experts, "expert_tokens" = %tokens}
  }

  // dit.moe_finalize_routing(expanded_x [T*K,H], expanded_row_idx i32 [T*K], scales [T,K])
  // -> [T,H]: out[t] = sum_k scales[t,k] * expanded_x[expanded_row_idx[t*K+k]],
  // aclnnMoeFinalizeRoutingV2 (dropPadMode 2).
  irdl.operation @moe_finalize_routing {
    %expanded_x = irdl.base "!builtin.tensor"
    %expanded_row_idx = irdl.base "!builtin.tensor"
    %scales = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(expanded_x: %expanded_x, expanded_row_idx: %expanded_row_idx, scales: %scales)
    irdl.results(result: %res)
  }

  // dit.index_add(x, index, source) {dim: i64}: x with source's slice i added to x's slice
  // index[i] along dim, torch.index_add with alpha 1 (aclnnIndexAdd).
  irdl.operation @index_add {
    %x = irdl.base "!builtin.tensor"
    %index = irdl.base "!builtin.tensor"
    %source = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %dim = irdl.base "#builtin.integer"
    irdl.operands(x: %x, index: %index, source: %source)
    irdl.results(result: %res)
    irdl.attributes {"dim" = %dim}
  }

  // dit.opaque(args...) {name: string} -> results...: any op the dialect does not model,
  // kept as is, counted as one kernel. IRDL limit: all args share one type, all results
  // share one type (an op with mixed arg or result types cannot be expressed).
  irdl.operation @opaque {
    %args = irdl.base "!builtin.tensor"
    %results = irdl.base "!builtin.tensor"
    %name = irdl.base "#builtin.string"
    irdl.operands(args: variadic %args)
    irdl.results(results: variadic %results)
    irdl.attributes {"name" = %name}
  }

  // ===================================================================================
  // Fused ops (produced by passes; each maps to one kernel)
  // ===================================================================================

  // dit.fast_gelu(x): aclnnFastGelu (GELU tanh approximation); result type == x type.
  irdl.operation @fast_gelu {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(x: %t)
    irdl.results(result: %t)
  }

  // dit.muls_add(x, y) {scale: f32}: x·scale + y in one kernel.
  irdl.operation @muls_add {
    %x = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %scale = irdl.base "#builtin.float"
    irdl.operands(x: %x, y: %y)
    irdl.results(result: %res)
    irdl.attributes {"scale" = %scale}
  }

  // dit.ada_layer_norm(x, scale, shift) {epsilon: f32}: layer_norm(x)·(1+scale)+shift;
  // result type == x type.
  irdl.operation @ada_layer_norm {
    %x = irdl.base "!builtin.tensor"
    %scale = irdl.base "!builtin.tensor"
    %shift = irdl.base "!builtin.tensor"
    %epsilon = irdl.base "#builtin.float"
    irdl.operands(x: %x, scale: %scale, shift: %shift)
    irdl.results(result: %x)
    irdl.attributes {"epsilon" = %epsilon}
  }

  // dit.quant_matmul_gelu(x1, x2, x1_scale, x2_scale, bias?)
  //   {approximate = "gelu_tanh" | "gelu_erf"}: FusedQuantMatmul (quant matmul + GELU).
  // One optional operand: operandSegmentSizes ignored by IRDL.
  irdl.operation @quant_matmul_gelu {
    %x1 = irdl.base "!builtin.tensor"
    %x2 = irdl.base "!builtin.tensor"
    %x1_scale = irdl.base "!builtin.tensor"
    %x2_scale = irdl.base "!builtin.tensor"
    %bias = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %gelu_tanh = irdl.is "gelu_tanh"
    %gelu_erf = irdl.is "gelu_erf"
    %approximate = irdl.any_of(%gelu_tanh, %gelu_erf)
    irdl.operands(x1: %x1, x2: %x2, x1_scale: %x1_scale, x2_scale: %x2_scale,
                  bias: optional %bias)
    irdl.results(result: %res)
    irdl.attributes {"approximate" = %approximate}
  }

  // dit.fused_matmul(x1, x2, bias?, x3?)
  //   {fused_op_type = "" | "add" | "mul" | "gelu_tanh" | "gelu_erf" | "relu"}:
  // FusedMatmul (Ascend 950 only). Two optional operands: operandSegmentSizes required.
  irdl.operation @fused_matmul {
    %x1 = irdl.base "!builtin.tensor"
    %x2 = irdl.base "!builtin.tensor"
    %bias = irdl.base "!builtin.tensor"
    %x3 = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %op_none = irdl.is ""
    %op_add = irdl.is "add"
    %op_mul = irdl.is "mul"
    %op_gelu_tanh = irdl.is "gelu_tanh"
    %op_gelu_erf = irdl.is "gelu_erf"
    %op_relu = irdl.is "relu"
    %fused_op_type = irdl.any_of(%op_none, %op_add, %op_mul, %op_gelu_tanh, %op_gelu_erf,
                                 %op_relu)
    irdl.operands(x1: %x1, x2: %x2, bias: optional %bias, x3: optional %x3)
    irdl.results(result: %res)
    irdl.attributes {"fused_op_type" = %fused_op_type}
  }

  // dit.grouped_matmul_swiglu_quant(x, weight, group_list, weight_scale, x_scale, bias?,
  //   offset?) {variant = "v1" | "v2"} -> (y: i8 [M, N/2], y_scale, y_offset):
  // GroupedMatmulSwigluQuant(V2). Two optional operands: operandSegmentSizes required.
  // Three fixed results (not variadic: they differ in type).
  irdl.operation @grouped_matmul_swiglu_quant {
    %x = irdl.base "!builtin.tensor"
    %weight = irdl.base "!builtin.tensor"
    %group_list = irdl.base "!builtin.tensor"
    %weight_scale = irdl.base "!builtin.tensor"
    %x_scale = irdl.base "!builtin.tensor"
    %bias = irdl.base "!builtin.tensor"
    %offset = irdl.base "!builtin.tensor"
    %y = irdl.base "!builtin.tensor"
    %y_scale = irdl.base "!builtin.tensor"
    %y_offset = irdl.base "!builtin.tensor"
    %v1 = irdl.is "v1"
    %v2 = irdl.is "v2"
    %variant = irdl.any_of(%v1, %v2)
    irdl.operands(x: %x, weight: %weight, group_list: %group_list,
                  weight_scale: %weight_scale, x_scale: %x_scale, bias: optional %bias,
                  offset: optional %offset)
    irdl.results(y: %y, y_scale: %y_scale, y_offset: %y_offset)
    irdl.attributes {"variant" = %variant}
  }

  // dit.swiglu(x) {dim: i64}: SwiGlu, silu(first half)·second half along dim.
  irdl.operation @swiglu {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %dim = irdl.base "#builtin.integer"
    irdl.operands(x: %x)
    irdl.results(result: %res)
    irdl.attributes {"dim" = %dim}
  }

  // dit.silu_mul(gate, up): silu(gate)·up as one vector kernel.
  irdl.operation @silu_mul {
    %gate = irdl.base "!builtin.tensor"
    %up = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(gate: %gate, up: %up)
    irdl.results(result: %res)
  }

  // dit.gelu_mul(x) {approximate = "none" | "tanh"}: GeluMul, gelu(first half)·second
  // half of the last dim (even, <= 1024).
  irdl.operation @gelu_mul {
    %x = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %none = irdl.is "none"
    %tanh = irdl.is "tanh"
    %approximate = irdl.any_of(%none, %tanh)
    irdl.operands(x: %x)
    irdl.results(result: %res)
    irdl.attributes {"approximate" = %approximate}
  }

  // dit.kv_rms_norm_rope_cache(kv, gamma, cos, sin, index, k_cache, ckv_cache)
  //   {epsilon: f32, cache_mode: string} -> (k_cache, ckv_cache):
  // KvRmsNormRopeCache, kv last dim 576 = 512 norm + 64 rope. Experimental. The contract
  // names no results; two results (the updated caches) are assumed here.
  irdl.operation @kv_rms_norm_rope_cache {
    %kv = irdl.base "!builtin.tensor"
    %gamma = irdl.base "!builtin.tensor"
    %cos = irdl.base "!builtin.tensor"
    %sin = irdl.base "!builtin.tensor"
    %index = irdl.base "!builtin.tensor"
    %k_cache = irdl.base "!builtin.tensor"
    %ckv_cache = irdl.base "!builtin.tensor"
    %k_cache_out = irdl.base "!builtin.tensor"
    %ckv_cache_out = irdl.base "!builtin.tensor"
    %epsilon = irdl.base "#builtin.float"
    %cache_mode = irdl.base "#builtin.string"
    irdl.operands(kv: %kv, gamma: %gamma, cos: %cos, sin: %sin, index: %index,
                  k_cache: %k_cache, ckv_cache: %ckv_cache)
    irdl.results(k_cache_out: %k_cache_out, ckv_cache_out: %ckv_cache_out)
    irdl.attributes {"epsilon" = %epsilon, "cache_mode" = %cache_mode}
  }

  // dit.fused(captured...) {kernel: string} ({ body }) -> results...: one generated Ascend C
  // vector kernel; one region of exactly one block, ending in dit.yield.
  // IRDL limits: captured values share one type, results share one type; IRDL ops cannot
  // carry IsTerminator/NoTerminator, so MLIR's core verifier rejects a non-empty body
  // ("block with no terminator"); the block arguments and the dit.yield terminator are
  // checked by the Rust verifier.
  irdl.operation @fused {
    %captured = irdl.base "!builtin.tensor"
    %results = irdl.base "!builtin.tensor"
    %kernel = irdl.base "#builtin.string"
    %body = irdl.region with size 1
    irdl.operands(captured: variadic %captured)
    irdl.results(results: variadic %results)
    irdl.attributes {"kernel" = %kernel}
    irdl.regions(body: %body)
  }

  // dit.yield(values...): terminator of dit.fused, returns its results. IRDL cannot make it
  // a terminator or require the dit.fused parent (Rust verifier). Values share one type.
  irdl.operation @yield {
    %values = irdl.base "!builtin.tensor"
    irdl.operands(values: variadic %values)
  }
}
