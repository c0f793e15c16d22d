//! The cost model every pass and the fusion report use: kernel launches and DDR bytes per op,
//! from tensor types, and the lower bound a graph cannot go under (its inputs and weights read
//! once, its outputs written once). A kernel is every dit op that is not a view and not a
//! weight re-layout a load-time pre-pack folds.

use crate::report::RawPoint;
use dit_dialect::{diagnostics::file_line_col, ir::Op, tensor::TensorInfo};
use serde::Serialize;

/// Ops that launch no kernel: views of memory (and the region terminator).
pub const VIEWS: &[&str] = &["dit.reshape", "dit.bitcast", "dit.broadcast", "dit.yield"];

/// Whether `op` only re-describes memory: a reshape, bitcast or broadcast, or a split / step-1
/// slice along a dim whose outer dims are all 1 (each piece is then one contiguous range of
/// its input, an offset view).
pub fn is_view(op: Op) -> bool {
    let name = op.name();
    if VIEWS.contains(&name.as_str()) {
        return true;
    }
    if !(name == "dit.split" || name == "dit.slice") {
        return false;
    }
    let Some(t) = op.operand(0).tensor() else {
        return false;
    };
    let rank = t.rank() as i64;
    let Some(dim) = dit_dialect::ops::i64_attr(op, "dim").map(|d| if d < 0 { d + rank } else { d })
    else {
        return false;
    };
    let unit_step = name == "dit.split" || dit_dialect::ops::i64_attr(op, "step") == Some(1);
    dim >= 0 && dim < rank && unit_step && t.shape[..dim as usize].iter().all(|d| *d == Some(1))
}

/// The value a dynamic dim counts as (the report states it).
pub const DYNAMIC_DIM: i64 = 1;

/// Bytes of one tensor, dynamic dims counted as [`DYNAMIC_DIM`]; sub-byte types round up.
pub fn tensor_bytes(t: &TensorInfo) -> u64 {
    let elements = t
        .shape
        .iter()
        .map(|d| d.unwrap_or(DYNAMIC_DIM).max(0) as u128)
        .product::<u128>();
    let bits = elements * u128::from(t.elem.bits().unwrap_or(32));
    u64::try_from(bits.div_ceil(8)).unwrap_or(u64::MAX)
}

/// Layout ops that can rearrange a weight once at load time.
const LAYOUT_OPS: &[&str] = &[
    "dit.transpose",
    "dit.concat",
    "dit.slice",
    "dit.split",
    "dit.reshape",
];

/// Whether `user` reads `value` as a weight (or bias, or weight scale) of a Cube kernel.
fn reads_as_weight(user: Op, value: dit_dialect::ir::Val) -> bool {
    let slots: &[usize] = match user.name().as_str() {
        "dit.linear" => &[1, 2],
        "dit.matmul" => &[1],
        "dit.fused_matmul" | "dit.quant_matmul" | "dit.grouped_matmul" => &[1, 2],
        _ => return false,
    };
    slots
        .iter()
        .any(|i| *i < user.num_operands() && user.operand(*i) == value)
}

/// Whether `op` is a weight layout change a load-time pre-pack folds away: a layout op whose
/// inputs are function arguments (or such ops) and whose every user reads it as a Cube
/// kernel's weight (or is such an op). Passes that merge or re-lay weights (weight transposes
/// for FusedMatmul, concatenations for merged projections) emit these; they cost nothing per
/// inference.
pub fn is_load_time_prepack(op: Op) -> bool {
    fn rec(op: Op, depth: usize) -> bool {
        if depth > 8 || !LAYOUT_OPS.iter().any(|n| op.is(n)) || op.num_results() == 0 {
            return false;
        }
        let inputs_static = op.operands().into_iter().all(|v| match v.defining_op() {
            Some(p) => rec(p, depth + 1),
            None => v
                .block_argument()
                .and_then(|(block, _)| block.parent_op())
                .is_some_and(|owner| owner.is("func.func")),
        });
        inputs_static
            && op.results().into_iter().all(|r| {
                r.users().into_iter().all(|u| {
                    reads_as_weight(u, r)
                        || (LAYOUT_OPS.iter().any(|n| u.is(n)) && rec(u, depth + 1))
                })
            })
    }
    rec(op, 0)
}

/// Whether `op` launches a kernel per inference: a dit op that is not a view nor a load-time
/// weight pre-pack, outside any dit.fused body (a dit.fused region is one kernel).
pub fn is_kernel(op: Op) -> bool {
    op.name().starts_with("dit.")
        && !is_view(op)
        && !op.parent().is_some_and(|p| p.is("dit.fused"))
        && !is_load_time_prepack(op)
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
    sum(op.operands()).saturating_add(sum(op.results()))
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
    /// Kernel launches.
    pub kernels: usize,
    /// DDR bytes read and written by all kernels.
    pub ddr_bytes: u64,
    /// Function arguments read once plus function results written once.
    pub lower_bound_bytes: u64,
    /// The kernel with the most DDR traffic.
    pub largest: Option<LargestKernel>,
}

/// Measures every function under `root`.
pub fn measure(root: Op) -> GraphCost {
    let mut cost = GraphCost::default();
    root.walk(&mut |op| {
        if is_kernel(op) {
            let bytes = kernel_bytes(op);
            cost.kernels += 1;
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
                    if let Some(t) = arg.tensor() {
                        cost.lower_bound_bytes =
                            cost.lower_bound_bytes.saturating_add(tensor_bytes(&t));
                    }
                }
            }
        }
        if op.is("func.return") {
            for v in op.operands() {
                if let Some(t) = v.tensor() {
                    cost.lower_bound_bytes =
                        cost.lower_bound_bytes.saturating_add(tensor_bytes(&t));
                }
            }
        }
    });
    cost
}

/// The cost of each `func.func` under `root`, by symbol name, in module order.
pub fn measure_functions(root: Op) -> Vec<(String, GraphCost)> {
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
                measure(f),
            )
        })
        .collect()
}

/// Bytes in a short human form: `1.5 GiB`, `12.0 MiB`, `512 B`.
pub fn human_bytes(bytes: u64) -> String {
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
}
