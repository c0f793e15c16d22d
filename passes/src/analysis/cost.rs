//! The cost model every pass and the fusion report use: kernel launches and DDR bytes per op,
//! from tensor types, and the lower bound a graph cannot go under (its inputs and weights read
//! once, its outputs written once).
//!
//! The model counts the lowered program, not the graph: [`placement`] says for every op whether
//! it is a view, runs once in the init entry (a weight re-layout the load-time pre-pack does) or
//! runs on every call, and how many kernels it launches there. `dit-lower-to-aclnn` places each
//! op by the same function, so the report's kernel count is the per-call entry's launch count
//! (tools/dit-opt/tests/launches.rs checks this on every bundled model).

use crate::analysis::report::RawPoint;
use dit_dialect::ops::{OpKind, DIALECT_PREFIX};
use dit_dialect::{diagnostics::file_line_col, ir::Op, tensor::TensorInfo};
use serde::Serialize;
use std::collections::HashMap;

/// Whether `op` only re-describes memory: a reshape, bitcast or broadcast, or a split / step-1
/// slice along a dim whose outer dims are all 1 (each piece is then one contiguous range of
/// its input, an offset view). Any other split or slice is a copy kernel, whoever reads it: the
/// generated kernels take contiguous inputs (their launch ABI passes one pointer per tensor),
/// and so do most library kernels, so the lowering launches the copy where the model counts it
/// (passing the piece strided would only move the copy into the backend, uncounted).
pub fn is_view(op: Op) -> bool {
    let Some(kind) = op.kind() else {
        return false;
    };
    // The region terminator launches nothing either.
    if kind == OpKind::Yield {
        return true;
    }
    // The `Dit_ViewLike` ops; a reshape, bitcast or broadcast is always a view.
    if !kind.is_view_like() {
        return false;
    }
    let split = kind == OpKind::Split;
    if !(split || kind == OpKind::Slice) {
        return true;
    }
    let Some(t) = op.operand(0).tensor() else {
        return false;
    };
    let rank = t.rank() as i64;
    let Some(dim) = dit_dialect::ops::i64_attr(op, "dim").map(|d| if d < 0 { d + rank } else { d })
    else {
        return false;
    };
    let unit_step = split || dit_dialect::ops::i64_attr(op, "step") == Some(1);
    if !(dim >= 0 && dim < rank && unit_step) {
        return false;
    }
    let contiguous = t.shape[..dim as usize].iter().all(|d| *d == Some(1));
    contiguous
}

/// The value a dynamic dim counts as (the report states it).
pub const DYNAMIC_DIM: i64 = 1;

/// Bytes of one tensor, dynamic dims counted as [`DYNAMIC_DIM`]; sub-byte types round up.
/// Saturates at `u64::MAX` where the count does not fit ([`TensorInfo::checked_bytes`]): a cost
/// is only summed, compared and reported. The verifier refuses such a tensor on a dit op, so a
/// saturated size can only come from a `--shape-hint`, which feeds the report alone.
pub fn tensor_bytes(t: &TensorInfo) -> u64 {
    debug_assert_eq!(DYNAMIC_DIM, 1, "checked_bytes counts a dynamic dim as 1");
    t.checked_bytes().unwrap_or(u64::MAX)
}

/// Ops a load-time pre-pack may apply to a weight or table: re-layouts, views, and the dtype
/// cast a kernel's contract may ask of a table (aclnnRotaryPositionEmbedding takes cos and sin in
/// x's dtype only).
fn is_layout_op(op: Op) -> bool {
    use OpKind as K;
    matches!(
        op.kind(),
        Some(K::Transpose | K::Concat | K::Slice | K::Split | K::Reshape | K::Broadcast | K::Cast)
    )
}

/// Whether `user` reads `value` as a load-time weight or table: the weight (or bias, or weight
/// scale) of a Cube kernel, or the cos/sin table of dit.rope. A dit.fused reads it so when its
/// body does (auto-fuse groups dit.rope into generated kernels).
fn reads_as_weight_or_table(user: Op, value: dit_dialect::ir::Val, depth: usize) -> bool {
    use OpKind as K;
    let slots: &[usize] = match user.kind() {
        Some(K::Linear) => &[1, 2],
        Some(K::Matmul) => &[1],
        Some(K::FusedMatmul | K::QuantMatmul | K::GroupedMatmul) => &[1, 2],
        Some(K::Rope) => &[1, 2],
        Some(K::Fused) => {
            let Some(body) = user.region_blocks(0).into_iter().next() else {
                return false;
            };
            let arguments = body.arguments();
            return (0..user.num_operands())
                .filter(|i| user.operand(*i) == value)
                .all(|i| {
                    arguments
                        .get(i)
                        .is_some_and(|a| value_consumed_at_load(*a, depth + 1))
                });
        }
        _ => return false,
    };
    slots
        .iter()
        .any(|i| *i < user.num_operands() && user.operand(*i) == value)
}

/// Whether every use of `v` reads it as a weight or table, directly or through layout ops.
fn value_consumed_at_load(v: dit_dialect::ir::Val, depth: usize) -> bool {
    depth < MAX_PREPACK_CHAIN
        && v.users().into_iter().all(|u| {
            reads_as_weight_or_table(u, v, depth)
                || (is_layout_op(u)
                    && u.results()
                        .into_iter()
                        .all(|r| value_consumed_at_load(r, depth + 1)))
        })
}

/// Whether `v` is a function argument of the enclosing func.func.
fn is_function_argument(v: dit_dialect::ir::Val) -> bool {
    v.block_argument()
        .and_then(|(block, _)| block.parent_op())
        .is_some_and(|owner| owner.is("func.func"))
}

/// Chains longer than this are not followed (the models' weight chains are 1-3 ops).
const MAX_PREPACK_CHAIN: usize = 8;

/// Whether `v` is known at load time: a function argument, or a layout op (see `LAYOUT_OPS`)
/// of such values. Says nothing of whether the pre-pack actually computes it: that needs
/// every use to be load-time too (see [`is_load_time_prepack`]).
pub fn is_load_time_value(v: dit_dialect::ir::Val) -> bool {
    fn rec(v: dit_dialect::ir::Val, depth: usize) -> bool {
        match v.defining_op() {
            None => is_function_argument(v),
            Some(p) => {
                depth < MAX_PREPACK_CHAIN
                    && is_layout_op(p)
                    && p.operands().into_iter().all(|o| rec(o, depth + 1))
            }
        }
    }
    rec(v, 0)
}

/// Whether `op` is a weight or table re-layout a load-time pre-pack folds away: a layout op
/// whose inputs are function arguments or pre-packed themselves, and whose every user reads it
/// as a Cube kernel's weight or a rope table (or is a layout op of the same kind). Passes that
/// merge or re-lay weights (weight transposes for FusedMatmul, concatenations for merged
/// projections) and the rope fusion (table casts) emit these; they cost nothing per inference.
///
/// The walk up checks each producer's users too: the init entry computes only pre-packed ops,
/// so a producer that some per-call op also reads cannot feed one. Up and down are separate
/// walks so that neither turns back into the other.
pub fn is_load_time_prepack(op: Op) -> bool {
    fn rec(op: Op, depth: usize) -> bool {
        depth < MAX_PREPACK_CHAIN
            && is_layout_op(op)
            && op.num_results() > 0
            && op.operands().into_iter().all(|v| match v.defining_op() {
                Some(p) => rec(p, depth + 1),
                None => is_function_argument(v),
            })
            && op
                .results()
                .into_iter()
                .all(|r| value_consumed_at_load(r, 0))
    }
    rec(op, 0)
}

/// Where the lowered program does an op's work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// No kernel anywhere: a view of memory, a constant, a terminator, an op inside a
    /// dit.fused body (the region is the kernel), or not a dit op.
    View,
    /// Runs once, in the init entry: a weight re-layout of function arguments. `launches` is 0
    /// for a view in such a chain.
    Prepack {
        /// Kernels the init entry launches for the op.
        launches: usize,
    },
    /// Runs on every call, in the per-call entry, launching this many kernels (> 0).
    PerCall {
        /// Kernels per call: the aclnn calls of its kernel-table entry, or 1 generated kernel.
        launches: usize,
    },
}

/// Where `op`'s work happens in the lowered program (see the module comment).
pub fn placement(op: Op) -> Placement {
    let name = op.name();
    if !name.starts_with(DIALECT_PREFIX)
        || op.is_kind(OpKind::Yield)
        || op.parent().is_some_and(|p| p.is_kind(OpKind::Fused))
    {
        return Placement::View;
    }
    let launches = if is_view(op) { 0 } else { library_launches(op) };
    if is_load_time_prepack(op) {
        Placement::Prepack { launches }
    } else if launches == 0 {
        Placement::View
    } else {
        Placement::PerCall { launches }
    }
}

/// Kernels one non-view dit op launches: 1 for a dit.fused (its generated kernel) or an op the
/// runtime runs by name (dit.opaque), else the aclnn calls of its kernel-table entry (an entry
/// of several calls, like dit.silu_mul's aclnnSilu + aclnnMul, launches each).
pub fn library_launches(op: Op) -> usize {
    library_entry(op).map_or(1, |spec| match spec.body {
        dit_kernel_spec::kernels::Body::Aclnn(calls) => calls.len().max(1),
        dit_kernel_spec::kernels::Body::View => 0,
        dit_kernel_spec::kernels::Body::NoKernel => 1,
    })
}

/// The kernel-table entry the lowering picks for `op` (none for dit.fused and dit.opaque).
fn library_entry(op: Op) -> Option<&'static dit_kernel_spec::kernels::KernelSpec> {
    if op.is_kind(OpKind::Fused) || op.is_kind(OpKind::Opaque) {
        return None;
    }
    let attrs = crate::conversion::dit_lower_to_aclnn::runtime_attrs(op).ok()?;
    dit_kernel_spec::kernels::kernel_for(op.kind()?, &attrs)
}

/// Whether `op` launches a kernel on every call (see [`placement`]).
pub fn is_kernel(op: Op) -> bool {
    matches!(placement(op), Placement::PerCall { .. })
}

/// DDR bytes of the temporaries `op`'s kernel-table entry passes between its calls or writes
/// and drops (aclnnRmsNorm's rstd, the silu of dit.silu_mul): written once, and read back once
/// by the next call when the entry has several.
fn temp_bytes(op: Op) -> u64 {
    let Some(spec) = library_entry(op) else {
        return 0;
    };
    let reads_back = u64::from(spec.calls().len() > 1);
    spec.temps
        .iter()
        .filter_map(|t| {
            let like = match t.shape {
                dit_kernel_spec::kernels::TempShape::LikeInput(slot) => slot,
                // The other shapes (rstd, one row's worth) are a row or less per row.
                _ => return None,
            };
            let mut info = op.operands().get(like)?.tensor()?;
            if t.dtype == dit_kernel_spec::kernels::TempType::F32 {
                info.elem = dit_dialect::tensor::Elem::F32;
            }
            Some(tensor_bytes(&info).saturating_mul(1 + reads_back))
        })
        .fold(0u64, u64::saturating_add)
}

/// DDR traffic of one kernel: its operands read, its results written.
pub fn kernel_bytes(op: Op) -> u64 {
    let sum = |values: Vec<dit_dialect::ir::Val>| {
        values
            .iter()
            .filter_map(|v| v.tensor())
            .map(|t| tensor_bytes(&t))
            .fold(0u64, u64::saturating_add)
    };
    let read = op
        .operands()
        .iter()
        .enumerate()
        .filter_map(|(i, v)| Some(read_bytes(op, i, tensor_bytes(&v.tensor()?))))
        .fold(0u64, u64::saturating_add);
    read.saturating_add(sum(op.results()))
        .saturating_add(temp_bytes(op))
}

/// The bytes of operand `i` (`bytes` in all) that `op`'s kernel reads: all of them, but for a
/// dit.fused whose body only splits that input along its last dim (dit-auto-fuse opens a group
/// with the split of a merged projection): the generated kernel reads the pieces the body uses
/// as column windows of the input's rows, and the columns of pieces nothing reads never.
pub fn read_bytes(op: Op, i: usize, bytes: u64) -> u64 {
    match window_columns(op, i) {
        Some((read, width)) if width > 0 => {
            (bytes as u128 * read as u128 / width as u128).min(u64::MAX as u128) as u64
        }
        _ => bytes,
    }
}

/// `(columns read, last dim)` of a dit.fused's input `i` that its body reads only through
/// dit.split ops along the last dim; `None` for any other input or op.
fn window_columns(op: Op, i: usize) -> Option<(u64, u64)> {
    if !op.is_kind(OpKind::Fused) {
        return None;
    }
    let arg = op.region_blocks(0).first()?.argument(i)?;
    let width = arg.tensor()?.dim_from_back(0)? as u64;
    let users = arg.users();
    if users.is_empty() {
        return None;
    }
    let mut ranges: Vec<(u64, u64)> = Vec::new();
    for split in users {
        let rank = arg.tensor()?.rank() as i64;
        let dim = dit_dialect::ops::i64_attr(split, "dim")?;
        if !split.is_kind(OpKind::Split) || (dim != rank - 1 && dim != -1) {
            return None;
        }
        let mut at = 0u64;
        for piece in split.results() {
            let w = piece.tensor()?.dim_from_back(0)? as u64;
            if piece.use_count() > 0 {
                ranges.push((at, at + w));
            }
            at += w;
        }
    }
    // Columns several splits read are read once per split; count each range as given.
    let read = ranges.iter().map(|(a, b)| b - a).sum::<u64>().min(width);
    Some((read, width))
}

/// What a part of the graph costs on every call: the kernels the per-call entry launches for it
/// and the DDR bytes they move. Load-time re-layouts and views cost nothing here.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CallCost {
    pub kernels: usize,
    pub bytes: u64,
}

impl CallCost {
    /// One kernel moving `bytes`.
    pub fn kernel(bytes: u64) -> Self {
        Self { kernels: 1, bytes }
    }

    /// What `ops` cost per call where they stand, placed as the lowering places them.
    pub fn of_ops(ops: &[Op]) -> Self {
        ops.iter()
            .fold(Self::default(), |cost, op| match placement(*op) {
                Placement::PerCall { launches } => cost.plus(Self {
                    kernels: launches,
                    bytes: kernel_bytes(*op),
                }),
                _ => cost,
            })
    }

    /// Both costs together.
    pub fn plus(self, other: Self) -> Self {
        Self {
            kernels: self.kernels.saturating_add(other.kernels),
            bytes: self.bytes.saturating_add(other.bytes),
        }
    }
}

impl std::fmt::Display for CallCost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = if self.kernels == 1 { "" } else { "s" };
        write!(f, "{} kernel{s}, {}", self.kernels, human_bytes(self.bytes))
    }
}

/// The benefit check of a rewrite that adds work (re-laid weights, extra ops, recomputation):
/// it pays when the rewritten region launches no more kernels and moves no more DDR bytes per
/// call than the original. Neither measure may get worse, because the cost model has no exchange
/// rate between a launch and a byte that holds across shapes. `Err` names both costs, for the
/// fusion report.
pub fn rewrite_pays(original: CallCost, rewritten: CallCost) -> Result<(), String> {
    if rewritten.kernels <= original.kernels && rewritten.bytes <= original.bytes {
        Ok(())
    } else {
        Err(format!(
            "{rewritten} per call against {original} without the rewrite"
        ))
    }
}

/// Whether the init entry could compute a re-layout of `v` that a rewrite builds for a Cube
/// kernel's weight (or bias) slot: `v` is known at load time and nothing reads it, or a layout
/// of it, on every call. A per-call reader would share the layout chain (CSE and dit-sink-split
/// merge the new slices with its), and the pre-pack computes only chains no per-call op reads.
pub fn relayout_at_load(v: dit_dialect::ir::Val) -> bool {
    is_load_time_value(v) && value_consumed_at_load(v, 0)
}

/// Per-call cost of a re-layout that copies `v` (a concat of its slices, a transpose): nothing
/// when the pre-pack does it (see [`relayout_at_load`]), else one kernel reading and writing it.
pub fn relayout_cost(v: dit_dialect::ir::Val) -> CallCost {
    if relayout_at_load(v) {
        return CallCost::default();
    }
    let bytes = v.tensor().map_or(0, |t| tensor_bytes(&t));
    CallCost::kernel(bytes.saturating_mul(2))
}

/// The biggest single kernel by DDR bytes.
#[derive(Clone, Debug, Serialize)]
pub struct LargestKernel {
    pub op: String,
    #[serde(skip)]
    pub point: RawPoint,
    pub bytes: u64,
}

/// What a graph costs.
#[derive(Clone, Debug, Default, Serialize)]
pub struct GraphCost {
    /// Kernel launches of one call (the per-call entry).
    pub kernels: usize,
    /// Kernels the init entry launches once, at load time (weight re-layouts).
    pub prepack_kernels: usize,
    /// DDR bytes those pre-pack kernels read and write, once.
    pub prepack_bytes: u64,
    /// DDR bytes read and written by all kernels.
    pub ddr_bytes: u64,
    /// Function arguments read once plus function results written once.
    pub lower_bound_bytes: u64,
    /// The kernel with the most DDR traffic.
    pub largest: Option<LargestKernel>,
    /// Uses of dynamic dims no hint bound, each counted as [`DYNAMIC_DIM`].
    pub unbound_dynamic_dims: usize,
    /// Constants the backend uploads once per device and keeps resident, for kernels that take
    /// them beside the op's operands (FIA's causal attenMask): no kernel, and not in the
    /// per-call or pre-pack bytes. One copy serves every use, so the largest is the figure.
    pub resident_bytes: u64,
}

/// Values for dynamic dims (`--shape-hint=NAME_OR_INDEX=VALUE`). A hint names a dynamic dim of
/// a function's arguments: by the name a `dit.dim_names` argument attribute gives it (an array
/// of strings, one per dim, e.g. `{dit.dim_names = ["", "seq", ""]}`), or by its index among
/// the function's dynamic argument dims in signature order (`0`, `1`, …). Results and
/// intermediates inherit the bound values (see [`bind_dynamic_dims`]); a dim nothing binds
/// counts as [`DYNAMIC_DIM`], and the report says how many did.
#[derive(Clone, Debug, Default)]
pub struct ShapeHints {
    /// (name or index, value), in command-line order.
    pub entries: Vec<(String, i64)>,
}

impl ShapeHints {
    /// Parses one `NAME_OR_INDEX=VALUE` hint and adds it.
    pub fn add(&mut self, hint: &str) -> Result<(), String> {
        let (key, value) = hint
            .split_once('=')
            .ok_or_else(|| format!("shape hint '{hint}' must be NAME_OR_INDEX=VALUE"))?;
        let key = key.trim();
        if key.is_empty() {
            return Err(format!("shape hint '{hint}' names no dim"));
        }
        let value = value
            .trim()
            .parse::<i64>()
            .ok()
            .filter(|v| *v > 0)
            .ok_or_else(|| format!("shape hint '{hint}': the value must be a positive integer"))?;
        self.entries.push((key.to_string(), value));
        Ok(())
    }

    /// The hints that match no dynamic argument dim of any function under `root`.
    pub fn unmatched(&self, root: Op) -> Vec<String> {
        let mut seen = vec![false; self.entries.len()];
        root.walk(&mut |op| {
            if op.is("func.func") {
                for (k, _, _) in dynamic_argument_dims(op) {
                    for (i, (key, _)) in self.entries.iter().enumerate() {
                        if k.matches(key) {
                            seen[i] = true;
                        }
                    }
                }
            }
        });
        self.entries
            .iter()
            .zip(seen)
            .filter(|(_, s)| !s)
            .map(|((k, _), _)| k.clone())
            .collect()
    }
}

/// How a dynamic argument dim is named: its index among the function's dynamic argument dims,
/// and its `dit.dim_names` entry if any.
struct DimKey {
    index: usize,
    name: Option<String>,
}

impl DimKey {
    fn matches(&self, key: &str) -> bool {
        self.name.as_deref() == Some(key) || key.parse::<usize>().ok() == Some(self.index)
    }
}

/// The dynamic dims of `func`'s arguments: (key, argument, dim).
fn dynamic_argument_dims(func: Op) -> Vec<(DimKey, dit_dialect::ir::Val, usize)> {
    let mut out = Vec::new();
    let Some(entry) = func.region_blocks(0).into_iter().next() else {
        return out;
    };
    let arg_attrs = func.attr("arg_attrs").and_then(|a| a.as_array());
    for (i, arg) in entry.arguments().into_iter().enumerate() {
        let Some(t) = arg.tensor() else { continue };
        let names: Vec<String> = arg_attrs
            .as_ref()
            .and_then(|a| a.get(i).copied())
            .and_then(|d| d.dict_get("dit.dim_names"))
            .and_then(|a| a.as_array())
            .map(|a| a.iter().map(|n| n.as_str().unwrap_or_default()).collect())
            .unwrap_or_default();
        for (d, dim) in t.shape.iter().enumerate() {
            if dim.is_none() {
                let name = names.get(d).filter(|n| !n.is_empty()).cloned();
                out.push((
                    DimKey {
                        index: out.len(),
                        name,
                    },
                    arg,
                    d,
                ));
            }
        }
    }
    out
}

/// Dims of a shape, `None` where dynamic and unbound.
type Shape = Vec<Option<i64>>;

/// Shapes with their dynamic dims bound: value key -> dims (`None`: still unbound).
pub type BoundShapes = HashMap<usize, Shape>;

/// Binds the dynamic dims of `func`'s values: arguments from the hints, then each op's results
/// in program order: a concat along the dim sums its inputs; a reshape with one dynamic dim
/// keeps the element count; otherwise a dynamic result dim takes the bound value of the same
/// position in an operand of the same rank whose dim there is dynamic too (elementwise ops,
/// norms, rope, linear, attention keep their dims in place).
pub fn bind_dynamic_dims(func: Op, hints: &ShapeHints) -> BoundShapes {
    let mut bound: BoundShapes = HashMap::new();
    for (key, arg, d) in dynamic_argument_dims(func) {
        let value = hints
            .entries
            .iter()
            .rev()
            .find(|(k, _)| key.matches(k))
            .map(|(_, v)| *v);
        if let (Some(v), Some(t)) = (value, arg.tensor()) {
            bound.entry(arg.key()).or_insert(t.shape.clone())[d] = Some(v);
        }
    }
    if bound.is_empty() {
        return bound;
    }
    let shape_of = |bound: &BoundShapes, v: dit_dialect::ir::Val| {
        bound
            .get(&v.key())
            .cloned()
            .or_else(|| v.tensor().map(|t| t.shape))
    };
    func.walk(&mut |op| {
        for r in op.results() {
            let Some(t) = r.tensor() else { continue };
            if t.shape.iter().all(|d| d.is_some()) {
                continue;
            }
            // (declared shape, bound shape) of each tensor operand.
            let operands: Vec<(Shape, Shape)> = op
                .operands()
                .into_iter()
                .filter_map(|v| Some((v.tensor()?.shape, shape_of(&bound, v)?)))
                .collect();
            let mut shape = t.shape.clone();
            let concat_dim = (op.is_kind(OpKind::Concat))
                .then(|| dit_dialect::ops::i64_attr(op, "dim"))
                .flatten()
                .map(|d| if d < 0 { d + t.rank() as i64 } else { d } as usize);
            for j in 0..shape.len() {
                if shape[j].is_some() {
                    continue;
                }
                shape[j] = if concat_dim == Some(j) {
                    operands
                        .iter()
                        .try_fold(0i64, |sum, (_, b)| sum.checked_add(b.get(j).copied()??))
                } else {
                    operands
                        .iter()
                        .filter(|(declared, b)| {
                            declared.len() == shape.len() && declared[j].is_none() && b[j].is_some()
                        })
                        .map(|(_, b)| b[j])
                        .next()
                        .flatten()
                };
            }
            if op.is_kind(OpKind::Reshape) && t.shape.iter().filter(|d| d.is_none()).count() == 1 {
                if let Some((_, input)) = operands.first() {
                    // Products that overflow bind nothing: the dim stays unbound.
                    let total = input.iter().try_fold(1i64, |acc, d| acc.checked_mul((*d)?));
                    let known = t
                        .shape
                        .iter()
                        .flatten()
                        .try_fold(1i64, |acc, d| acc.checked_mul(*d));
                    if let (Some(total), Some(known @ 1..)) = (total, known) {
                        let j = t.shape.iter().position(|d| d.is_none()).unwrap_or(0);
                        shape[j] = Some(total / known);
                    }
                }
            }
            if shape != t.shape {
                bound.insert(r.key(), shape);
            }
        }
    });
    bound
}

/// Bytes of `v` with its dynamic dims bound where `bound` knows them.
fn value_bytes(v: dit_dialect::ir::Val, bound: &BoundShapes) -> (u64, usize) {
    let Some(mut t) = v.tensor() else {
        return (0, 0);
    };
    if let Some(shape) = bound.get(&v.key()) {
        t.shape = shape.clone();
    }
    let unbound = t.shape.iter().filter(|d| d.is_none()).count();
    (tensor_bytes(&t), unbound)
}

/// Measures every function under `root` with dynamic dims counted as [`DYNAMIC_DIM`].
pub fn measure(root: Op) -> GraphCost {
    measure_with(root, &ShapeHints::default())
}

/// Measures every function under `root`, binding dynamic dims from `hints`.
pub fn measure_with(root: Op, hints: &ShapeHints) -> GraphCost {
    let mut cost = GraphCost::default();
    let mut bound: BoundShapes = HashMap::new();
    if !hints.entries.is_empty() {
        root.walk(&mut |op| {
            if op.is("func.func") {
                bound.extend(bind_dynamic_dims(op, hints));
            }
        });
    }
    let bytes_of = |v: dit_dialect::ir::Val, bound: &BoundShapes, cost: &mut GraphCost| {
        let (bytes, unbound) = value_bytes(v, bound);
        cost.unbound_dynamic_dims += unbound;
        bytes
    };
    let mut nz_seen = std::collections::HashSet::new();
    root.walk(&mut |op| {
        let placement = placement(op);
        if let Placement::Prepack { launches } = placement {
            if launches > 0 {
                let mut bytes = 0u64;
                for v in op.operands().into_iter().chain(op.results()) {
                    bytes = bytes.saturating_add(value_bytes(v, &bound).0);
                }
                cost.prepack_kernels += launches;
                cost.prepack_bytes = cost.prepack_bytes.saturating_add(bytes);
            }
        }
        if let Placement::PerCall { launches } = placement {
            if let Some(spec) = library_entry(op) {
                cost.resident_bytes = cost
                    .resident_bytes
                    .max(dit_kernel_spec::kernels::resident_bytes(spec));
            }
            // A weight the kernel takes in FRACTAL_NZ is re-laid once by the init entry
            // (dit_rt_to_nz, one launch per distinct value): read row-major, written as NZ.
            for v in crate::conversion::dit_lower_to_aclnn::nz_operands(
                op,
                dit_kernel_spec::kernels::DEFAULT_TARGET,
            ) {
                if nz_seen.insert(v.key()) {
                    cost.prepack_kernels += 1;
                    cost.prepack_bytes = cost
                        .prepack_bytes
                        .saturating_add(value_bytes(v, &bound).0.saturating_mul(2));
                }
            }
            let mut bytes = temp_bytes(op);
            for (i, v) in op.operands().into_iter().enumerate() {
                let all = bytes_of(v, &bound, &mut cost);
                bytes = bytes.saturating_add(read_bytes(op, i, all));
            }
            for v in op.results() {
                bytes = bytes.saturating_add(bytes_of(v, &bound, &mut cost));
            }
            cost.kernels += launches;
            cost.ddr_bytes = cost.ddr_bytes.saturating_add(bytes);
            if cost.largest.as_ref().is_none_or(|l| bytes > l.bytes) {
                cost.largest = Some(LargestKernel {
                    op: op.name(),
                    point: file_line_col(op.location().to_raw()),
                    bytes,
                });
            }
        }
        if op.is("func.func") {
            for block in op.region_blocks(0).into_iter().take(1) {
                for arg in block.arguments() {
                    let bytes = bytes_of(arg, &bound, &mut cost);
                    cost.lower_bound_bytes = cost.lower_bound_bytes.saturating_add(bytes);
                }
            }
        }
        if op.is("func.return") {
            for v in op.operands() {
                let bytes = bytes_of(v, &bound, &mut cost);
                cost.lower_bound_bytes = cost.lower_bound_bytes.saturating_add(bytes);
            }
        }
    });
    cost
}

/// The cost of each `func.func` under `root`, by symbol name, in module order.
pub fn measure_functions(root: Op, hints: &ShapeHints) -> Vec<(String, GraphCost)> {
    let mut funcs = Vec::new();
    root.walk(&mut |op| {
        if op.is("func.func") {
            funcs.push(op);
        }
    });
    funcs
        .into_iter()
        .map(|f| {
            (
                f.attr("sym_name")
                    .and_then(|a| a.as_str())
                    .unwrap_or_default(),
                measure_with(f, hints),
            )
        })
        .collect()
}

/// Bytes in a short human form: `1.5 GiB`, `12.0 MiB`, `512 B`; `u64::MAX` (a saturated size)
/// as such.
pub fn human_bytes(bytes: u64) -> String {
    // tensor_bytes and the sums saturate there: the true size is unknown, only that it is huge.
    if bytes == u64::MAX {
        return "over 16 EiB (saturated)".to_string();
    }
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dit_dialect::tensor::Elem;

    #[test]
    fn bytes_follow_element_widths_and_dynamic_dims() {
        let t = |elem, shape: &[Option<i64>]| TensorInfo {
            elem,
            shape: shape.to_vec(),
        };
        assert_eq!(tensor_bytes(&t(Elem::BF16, &[Some(4), Some(8)])), 64);
        assert_eq!(tensor_bytes(&t(Elem::I4, &[Some(3)])), 2);
        assert_eq!(tensor_bytes(&t(Elem::F32, &[None, Some(8)])), 32);
        assert_eq!(tensor_bytes(&t(Elem::F32, &[])), 4);
        assert_eq!(human_bytes(1536), "1.5 KiB");
    }

    /// The name and placement of each dit op of the function in `source`, in program order.
    fn placements(source: &str) -> Vec<(String, Placement)> {
        let context = dit_dialect::new_context().expect("dialect loads");
        let module = dit_dialect::parse_module(&context, source).expect("parses");
        let root = Op::of_module(&module);
        let mut out = Vec::new();
        root.walk(&mut |op| {
            if op.parent().is_some_and(|p| p.is("func.func")) && op.name().starts_with("dit.") {
                out.push((op.name(), placement(op)));
            }
        });
        out
    }

    #[test]
    fn weight_chains_and_rope_table_casts_run_at_load() {
        // reshape -> transpose of a weight argument: both in the pre-pack (the walk up and the
        // walk down must not chase each other into the depth limit).
        let p = placements(
            r#"func.func @f(%x: tensor<2x8xbf16>, %w: tensor<2x16xbf16>, %t: tensor<4x8xf32>, %y: tensor<2x4x8xbf16>) -> (tensor<2x4xbf16>, tensor<2x4x8xbf16>) {
                 %r = "dit.reshape"(%w) : (tensor<2x16xbf16>) -> tensor<4x8xbf16>
                 %wt = "dit.transpose"(%r) {perm = array<i64: 1, 0>} : (tensor<4x8xbf16>) -> tensor<8x4xbf16>
                 %o = "dit.matmul"(%x, %wt) {transpose_a = false, transpose_b = false} : (tensor<2x8xbf16>, tensor<8x4xbf16>) -> tensor<2x4xbf16>
                 %c = "dit.cast"(%t) : (tensor<4x8xf32>) -> tensor<4x8xbf16>
                 %q = "dit.rope"(%y, %c, %c) {mode = "half"} : (tensor<2x4x8xbf16>, tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<2x4x8xbf16>
                 return %o, %q : tensor<2x4xbf16>, tensor<2x4x8xbf16>
               }"#,
        );
        let at_load = |name: &str| {
            p.iter()
                .filter(|(n, _)| n == name)
                .all(|(_, pl)| matches!(pl, Placement::Prepack { .. }))
        };
        assert!(at_load("dit.reshape"), "{p:?}");
        assert!(at_load("dit.transpose"), "{p:?}");
        assert!(at_load("dit.cast"), "{p:?}");
        assert!(p
            .iter()
            .any(|(n, pl)| n == "dit.cast" && *pl == Placement::Prepack { launches: 1 }));
        assert!(matches!(
            p.iter().find(|(n, _)| n == "dit.rope").map(|(_, pl)| *pl),
            Some(Placement::PerCall { .. })
        ));
    }

    #[test]
    fn a_fused_split_reads_only_the_windows_its_body_uses() {
        // The body reads pieces 0 and 2 of a [4, 96] bf16 split (768 B): 512 B read, 256 B
        // written; the split inside launches nothing.
        let context = dit_dialect::new_context().expect("dialect loads");
        let module = dit_dialect::parse_module(
            &context,
            r#"func.func @f(%p: tensor<4x96xbf16>) -> tensor<4x32xbf16> {
                 %r = "dit.fused"(%p) ({
                 ^bb0(%a: tensor<4x96xbf16>):
                   %s:3 = "dit.split"(%a) {dim = -1 : i64, sizes = array<i64: 32, 32, 32>} : (tensor<4x96xbf16>) -> (tensor<4x32xbf16>, tensor<4x32xbf16>, tensor<4x32xbf16>)
                   %m = "dit.mul"(%s#0, %s#2) : (tensor<4x32xbf16>, tensor<4x32xbf16>) -> tensor<4x32xbf16>
                   "dit.yield"(%m) : (tensor<4x32xbf16>) -> ()
                 }) {kernel = "k"} : (tensor<4x96xbf16>) -> tensor<4x32xbf16>
                 return %r : tensor<4x32xbf16>
               }"#,
        )
        .expect("parses");
        let root = Op::of_module(&module);
        let mut fused = Vec::new();
        root.walk(&mut |op| {
            if op.is("dit.fused") {
                fused.push(op);
            }
            if op.is("dit.split") {
                assert_eq!(placement(op), Placement::View);
            }
        });
        assert_eq!(kernel_bytes(fused[0]), 512 + 256);
        let cost = measure(root);
        assert_eq!(cost.kernels, 1);
        assert_eq!(cost.ddr_bytes, 512 + 256);
    }

    #[test]
    fn a_rewrite_pays_when_neither_kernels_nor_bytes_grow() {
        let cost = |kernels, bytes| CallCost { kernels, bytes };
        assert!(rewrite_pays(cost(3, 100), cost(2, 100)).is_ok());
        assert!(rewrite_pays(cost(2, 100), cost(2, 100)).is_ok());
        let e = rewrite_pays(cost(2, 76 << 10), cost(3, 140 << 10)).unwrap_err();
        assert_eq!(
            e,
            "3 kernels, 140.0 KiB per call against 2 kernels, 76.0 KiB without the rewrite"
        );
        // Fewer launches do not buy more bytes, nor the other way round.
        assert!(rewrite_pays(cost(3, 100), cost(2, 101)).is_err());
        assert!(rewrite_pays(cost(2, 100), cost(3, 50)).is_err());
        assert_eq!(cost(1, 512).to_string(), "1 kernel, 512 B");
    }

    #[test]
    fn relayouts_are_free_only_when_no_per_call_op_reads_the_weight() {
        let context = dit_dialect::new_context().expect("dialect loads");
        let module = dit_dialect::parse_module(
            &context,
            r#"func.func @f(%x: tensor<2x8xbf16>, %w: tensor<4x8xbf16>, %v: tensor<4x8xbf16>) -> (tensor<2x4xbf16>, tensor<2x4xbf16>, tensor<4x8xbf16>) {
                 %a = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2x8xbf16>, tensor<4x8xbf16>) -> tensor<2x4xbf16>
                 %b = "dit.linear"(%x, %v) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<2x8xbf16>, tensor<4x8xbf16>) -> tensor<2x4xbf16>
                 %n = "dit.neg"(%v) : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
                 return %a, %b, %n : tensor<2x4xbf16>, tensor<2x4xbf16>, tensor<4x8xbf16>
               }"#,
        )
        .expect("parses");
        let root = Op::of_module(&module);
        let mut linears = Vec::new();
        root.walk(&mut |op| {
            if op.is("dit.linear") {
                linears.push(op.operand(1));
            }
        });
        assert_eq!(relayout_cost(linears[0]), CallCost::default());
        // 4x8 bf16 = 64 B, read and written by the per-call copy.
        assert_eq!(relayout_cost(linears[1]), CallCost::kernel(128));
    }

    #[test]
    fn table_casts_of_per_call_values_run_per_call() {
        // The table is computed per call (exp), or its view is also read by a per-call op: the
        // init entry cannot make the cast, so it runs on every call.
        let p = placements(
            r#"func.func @f(%y: tensor<2x4x8xbf16>, %a: tensor<4x8xf32>, %b: tensor<1x4x8xf32>) -> (tensor<2x4x8xbf16>, tensor<2x4x8xbf16>, tensor<4x8xf32>) {
                 %e = "dit.exp"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
                 %c = "dit.cast"(%e) : (tensor<4x8xf32>) -> tensor<4x8xbf16>
                 %q = "dit.rope"(%y, %c, %c) {mode = "half"} : (tensor<2x4x8xbf16>, tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<2x4x8xbf16>
                 %r = "dit.reshape"(%b) : (tensor<1x4x8xf32>) -> tensor<4x8xf32>
                 %d = "dit.cast"(%r) : (tensor<4x8xf32>) -> tensor<4x8xbf16>
                 %s = "dit.rope"(%y, %d, %d) {mode = "half"} : (tensor<2x4x8xbf16>, tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<2x4x8xbf16>
                 %n = "dit.neg"(%r) : (tensor<4x8xf32>) -> tensor<4x8xf32>
                 return %q, %s, %n : tensor<2x4x8xbf16>, tensor<2x4x8xbf16>, tensor<4x8xf32>
               }"#,
        );
        let casts: Vec<Placement> = p
            .iter()
            .filter(|(n, _)| n == "dit.cast")
            .map(|(_, pl)| *pl)
            .collect();
        assert_eq!(casts.len(), 2);
        assert!(
            casts
                .iter()
                .all(|pl| matches!(pl, Placement::PerCall { .. })),
            "{p:?}"
        );
    }
}
