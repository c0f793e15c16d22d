//! `dit-auto-fuse`: graph-autofusion (seed 004) for the vector ops the patterns left: scan the
//! producer/consumer counts, grow write-after-read chains (a value with several users ends a
//! chain), check each group against the target's Unified Buffer, keep it only when it saves
//! enough DDR traffic, and turn it into one `dit.fused` region (one generated vector kernel).
//! Cube ops and the library kernels (matmul, attention, rms_norm, rope, ...) are never grouped.

use crate::{
    cost::{kernel_bytes, tensor_bytes},
    registry::{DitPass, PassContext, PassFailed, PassOptionInfo},
};
use dit_dialect::{
    ir::{create_op_before, create_region_op_before, Attr, Op, Val},
    ops,
    tensor::TensorInfo,
};
use melior::ir::TypeLike;
use std::collections::HashMap;

/// Whether a generated vector kernel computes `name`: the elementwise primitives of the op
/// table and dit.cast. dit.fast_gelu, also elementwise, is a library kernel (FastGelu).
pub fn is_vector_op(name: &str) -> bool {
    (ops::BINARY.contains(&name) || ops::UNARY.contains(&name) || name == "dit.cast")
        && name != "dit.fast_gelu"
}

/// Alignment of one UB row (bytes).
const UB_ALIGN: u64 = 32;

/// The pass's options.
pub fn options() -> Vec<PassOptionInfo> {
    vec![
        PassOptionInfo {
            name: "aggressive-level",
            help: "0: off, 1: conservative (half the UB), 2: aggressive (whole UB)",
            default: "2",
        },
        PassOptionInfo {
            name: "exclude-ops",
            help: "ops never grouped, comma-separated (e.g. dit.cast)",
            default: "",
        },
        PassOptionInfo {
            name: "blacklist",
            help: "producer:consumer op pairs never grouped together, comma-separated",
            default: "",
        },
        PassOptionInfo {
            name: "min-benefit",
            help: "least saved DDR bytes / group DDR bytes for a group to fuse",
            default: "0.2",
        },
    ]
}

/// The pass with its options.
pub struct AutoFuse {
    level: u8,
    exclude: Vec<String>,
    blacklist: Vec<(String, String)>,
    min_benefit: f64,
}

impl AutoFuse {
    /// Builds the pass from pipeline options.
    pub fn from_options(options: &[(String, String)]) -> Result<Self, String> {
        let mut pass = AutoFuse {
            level: 2,
            exclude: vec![],
            blacklist: vec![],
            min_benefit: 0.2,
        };
        for (key, value) in options {
            match key.as_str() {
                "aggressive-level" => {
                    pass.level = match value.as_str() {
                        "0" => 0,
                        "1" => 1,
                        "2" => 2,
                        _ => {
                            return Err(format!(
                                "aggressive-level must be 0, 1 or 2, got '{value}'"
                            ))
                        }
                    }
                }
                "exclude-ops" => {
                    pass.exclude = value
                        .split(',')
                        .filter(|s| !s.is_empty())
                        .map(str::to_string)
                        .collect()
                }
                "blacklist" => {
                    for pair in value.split(',').filter(|s| !s.is_empty()) {
                        let (a, b) = pair.split_once(':').ok_or_else(|| {
                            format!("blacklist entry '{pair}' must be producer:consumer")
                        })?;
                        pass.blacklist.push((a.to_string(), b.to_string()));
                    }
                }
                "min-benefit" => {
                    pass.min_benefit = value
                        .parse::<f64>()
                        .ok()
                        .filter(|b| (0.0..=1.0).contains(b))
                        .ok_or_else(|| {
                            format!("min-benefit must be a number in [0, 1], got '{value}'")
                        })?
                }
                _ => return Err(format!("unknown option '{key}'")),
            }
        }
        Ok(pass)
    }

    fn is_candidate(&self, op: Op) -> bool {
        let name = op.name();
        is_vector_op(&name)
            && !self.exclude.contains(&name)
            && op.num_results() == 1
            && op.operands().into_iter().chain(op.results()).all(|v| {
                v.tensor()
                    .is_some_and(|t| t.shape.iter().all(|d| d.is_some()))
            })
    }

    fn blacklisted(&self, producer: Op, consumer: Op) -> bool {
        let (p, c) = (producer.name(), consumer.name());
        self.blacklist.iter().any(|(a, b)| *a == p && *b == c)
    }
}

/// UB bytes one live tensor needs at the smallest legal tile: one row of its last dim, 32-byte
/// aligned, double buffered.
fn tile_bytes(t: &TensorInfo) -> u64 {
    let row = TensorInfo {
        elem: t.elem.clone(),
        shape: vec![t.dim_from_back(0).or(Some(1))],
    };
    tensor_bytes(&row).div_ceil(UB_ALIGN) * UB_ALIGN * 2
}

/// A group's values: captured inputs (in first-use order), results used outside, UB need.
struct GroupShape {
    inputs: Vec<Val>,
    outputs: Vec<Val>,
    ub_bytes: u64,
    saved_bytes: u64,
    total_bytes: u64,
}

fn shape_of(members: &[Op]) -> GroupShape {
    let inside = |op: Option<Op>| op.is_some_and(|o| members.contains(&o));
    let mut inputs: Vec<Val> = Vec::new();
    let mut outputs = Vec::new();
    let mut ub_bytes = 0;
    let mut saved_bytes = 0u64;
    let mut total_bytes = 0u64;
    for op in members {
        total_bytes = total_bytes.saturating_add(kernel_bytes(*op));
        for v in op.operands() {
            if !inside(v.defining_op()) && !inputs.contains(&v) {
                ub_bytes += v.tensor().map_or(0, |t| tile_bytes(&t));
                inputs.push(v);
            }
        }
        let result = op.result(0);
        let t = result.tensor();
        ub_bytes += t.as_ref().map_or(0, tile_bytes);
        if result.users().iter().any(|u| !members.contains(u)) || !result.has_uses() {
            outputs.push(result);
        } else {
            // Written and read back once through DDR without the fusion.
            saved_bytes = saved_bytes.saturating_add(2 * t.as_ref().map_or(0, tensor_bytes));
        }
    }
    GroupShape {
        inputs,
        outputs,
        ub_bytes,
        saved_bytes,
        total_bytes,
    }
}

impl DitPass for AutoFuse {
    fn run(&mut self, module: Op, context: &PassContext) -> Result<(), PassFailed> {
        if self.level == 0 {
            return Ok(());
        }
        let budget = if self.level == 1 {
            context.target.ub_bytes / 2
        } else {
            context.target.ub_bytes
        };
        let mut funcs = Vec::new();
        module.walk(&mut |op| {
            if op.is("func.func") {
                funcs.push(op);
            }
        });
        for func in funcs {
            let func_name = func
                .attr("sym_name")
                .and_then(|a| a.as_str())
                .unwrap_or_default();
            let mut kernel_index = 0;
            for block in func.region_blocks(0) {
                if self.level == 2 {
                    self.recompute_branches(&block.ops(), context);
                }
                for group in self.groups(&block.ops()) {
                    for part in split_for_ub(&group, budget) {
                        self.fuse(part, &func_name, &mut kernel_index, budget, context);
                    }
                }
            }
        }
        Ok(())
    }
}

impl AutoFuse {
    /// Aggressive level 2 (seed 004): a branch normally ends a chain, since its value goes
    /// through DDR for its several users anyway. When the producer is a vector op whose inputs
    /// are no bigger than its output and every user is a vector op that could take it in, each
    /// user gets its own copy instead: every copy re-reads at most what the shared value would
    /// have been read as, the write of the shared value is gone, and the recomputation is a
    /// few vector instructions per element (far under 10% of the DDR bytes saved).
    fn recompute_branches(&self, ops: &[Op], context: &PassContext) {
        for &producer in ops {
            if !self.is_candidate(producer) {
                continue;
            }
            let result = producer.result(0);
            let users = result.users();
            let mut distinct: Vec<Op> = Vec::new();
            for u in users {
                if !distinct.contains(&u) {
                    distinct.push(u);
                }
            }
            let same_block = |u: &Op| u.parent() == producer.parent() && ops.contains(u);
            if distinct.len() < 2
                || !distinct
                    .iter()
                    .all(|u| self.is_candidate(*u) && same_block(u))
            {
                continue;
            }
            let input_bytes: u64 = producer
                .operands()
                .iter()
                .filter_map(|v| v.tensor())
                .map(|t| tensor_bytes(&t))
                .sum();
            let output_bytes = result.tensor().map_or(0, |t| tensor_bytes(&t));
            if input_bytes > output_bytes {
                continue;
            }
            for user in distinct.iter().skip(1) {
                let copy = producer.clone_before(*user);
                for i in 0..user.num_operands() {
                    if user.operand(i) == result {
                        user.set_operand(i, copy.result(0));
                    }
                }
            }
            context.report.applied(
                "dit-auto-fuse",
                producer,
                format!(
                    "recomputed {} for each of its {} users instead of a DDR round trip (level 2)",
                    producer.name(),
                    distinct.len()
                ),
            );
        }
    }

    /// Chains of candidates joined along single-use producer -> consumer edges, in block order.
    fn groups(&self, ops: &[Op]) -> Vec<Vec<Op>> {
        let index: HashMap<usize, usize> = ops
            .iter()
            .enumerate()
            .map(|(i, o)| (o.0.ptr as usize, i))
            .collect();
        let mut parent: Vec<usize> = (0..ops.len()).collect();
        fn find(parent: &mut [usize], i: usize) -> usize {
            let mut r = i;
            while parent[r] != r {
                r = parent[r];
            }
            let mut i = i;
            while parent[i] != r {
                let next = parent[i];
                parent[i] = r;
                i = next;
            }
            r
        }
        let candidate: Vec<bool> = ops.iter().map(|o| self.is_candidate(*o)).collect();
        for (c, op) in ops.iter().enumerate() {
            if !candidate[c] {
                continue;
            }
            for v in op.operands() {
                let Some(p) = v
                    .defining_op()
                    .and_then(|p| index.get(&(p.0.ptr as usize)).copied())
                else {
                    continue;
                };
                // A value with several users ends the chain (it goes through DDR anyway).
                if candidate[p] && v.use_count() == 1 && !self.blacklisted(ops[p], *op) {
                    let (a, b) = (find(&mut parent, p), find(&mut parent, c));
                    parent[a] = b;
                }
            }
        }
        let mut groups: HashMap<usize, Vec<Op>> = HashMap::new();
        let mut order = Vec::new();
        for (i, op) in ops.iter().enumerate() {
            if candidate[i] {
                let root = find(&mut parent, i);
                if !groups.contains_key(&root) {
                    order.push(root);
                }
                groups.entry(root).or_default().push(*op);
            }
        }
        order
            .into_iter()
            .filter_map(|r| groups.remove(&r))
            .filter(|g| g.len() >= 2)
            .collect()
    }

    fn fuse(
        &self,
        members: Vec<Op>,
        func_name: &str,
        kernel_index: &mut usize,
        budget: u64,
        context: &PassContext,
    ) {
        let report = &context.report;
        let Some(&last) = members.last() else {
            return;
        };
        if members.len() < 2 {
            return;
        }
        let shape = shape_of(&members);
        let benefit = if shape.total_bytes == 0 {
            0.0
        } else {
            shape.saved_bytes as f64 / shape.total_bytes as f64
        };
        if benefit < self.min_benefit {
            report.skipped(
                "dit-auto-fuse",
                last,
                format!(
                    "{} ops would save {:.0}% of their DDR bytes, below min-benefit {:.0}%",
                    members.len(),
                    benefit * 100.0,
                    self.min_benefit * 100.0
                ),
            );
            return;
        }
        if shape.ub_bytes > budget {
            report.skipped(
                "dit-auto-fuse",
                last,
                format!(
                    "one op alone needs {} B of UB, over {} B",
                    shape.ub_bytes, budget
                ),
            );
            return;
        }
        let kernel = format!("fused_{func_name}_{}", *kernel_index);
        *kernel_index += 1;
        let input_types: Vec<_> = shape.inputs.iter().map(|v| v.ty().to_raw()).collect();
        let output_types: Vec<_> = shape.outputs.iter().map(|v| v.ty().to_raw()).collect();
        let (fused, body) = create_region_op_before(
            last,
            "dit.fused",
            &shape.inputs,
            &output_types,
            &[("kernel", Attr::string(last.context_raw(), &kernel))],
            &input_types,
        );
        let arguments = body.arguments();
        for op in &members {
            op.move_to_end_of(body);
            for (i, v) in op.operands().into_iter().enumerate() {
                if let Some(k) = shape.inputs.iter().position(|x| *x == v) {
                    op.set_operand(i, arguments[k]);
                }
            }
        }
        let Some(terminator) = create_op_before_end(body, &shape.outputs) else {
            return;
        };
        for (i, v) in shape.outputs.iter().enumerate() {
            v.replace_all_uses_except(fused.result(i), terminator);
        }
        let names: Vec<String> = members
            .iter()
            .map(|o| o.name().trim_start_matches("dit.").to_string())
            .collect();
        report.applied(
            "dit-auto-fuse",
            fused,
            format!(
                "{kernel}: {} ({} ops), UB {} B at the smallest tile, saves {:.0}% of their DDR bytes",
                names.join(" -> "),
                members.len(),
                shape.ub_bytes,
                benefit * 100.0
            ),
        );
    }
}

/// Appends `dit.yield(values)` to `block` (which holds the group's ops) and returns it.
fn create_op_before_end(block: dit_dialect::ir::Block, values: &[Val]) -> Option<Op> {
    // Built before the body's last op (the group's last member), then moved to the end.
    let anchor = *block.ops().last()?;
    let y = create_op_before(anchor, "dit.yield", values, &[], &[]);
    y.move_to_end_of(block);
    Some(y)
}

/// Splits a group (in block order) into prefixes that fit the UB budget.
fn split_for_ub(group: &[Op], budget: u64) -> Vec<Vec<Op>> {
    let mut parts = Vec::new();
    let mut current: Vec<Op> = Vec::new();
    for op in group {
        current.push(*op);
        if current.len() > 1 && shape_of(&current).ub_bytes > budget {
            current.pop();
            parts.push(std::mem::take(&mut current));
            current.push(*op);
        }
    }
    if !current.is_empty() {
        parts.push(current);
    }
    parts
}
