//! `dit-auto-fuse`: graph-autofusion (seed 004) for the vector ops the patterns left: scan the
//! producer/consumer counts, grow write-after-read chains (a value with several users ends a
//! chain), check each group against the target's Unified Buffer, keep it only when it saves
//! enough DDR traffic, and turn it into one `dit.fused` region (one generated vector kernel).
//! The UB check is the Ascend C generator's own (`dit_ascendc::fit`: its planner, its UB
//! layout with buffer reuse, and its column chunking of rows too wide for the UB), so every
//! group formed is one the generator lowers; bodies the generator does not plan (an i1 mask,
//! i64 indices) fall back to a per-tensor row model.
//! At aggressive level 2 a shared value may also stay in a group as an extra output, and
//! sibling kernels that read the same tensors merge. Row-wise library vector kernels (norms,
//! rope, concat) join chains; Cube ops (matmul, linear, attention, the fused matmuls) never do.

use crate::{
    analysis::cost::{kernel_bytes, tensor_bytes},
    analysis::perf_model::{self, Rates},
    registry::{DitPass, PassContext, PassFailed, PassOptionInfo},
};
use dit_dialect::{
    ir::{create_op_before, create_region_op_before, Attr, Op, Val},
    ops::{self, OpKind},
    tensor::TensorInfo,
};
use melior::ir::TypeLike;
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

/// Whether a generated vector kernel computes `op`: the elementwise primitives of the op table
/// (but not dit.sin and dit.cos: the Ascend C emitter has no sine or cosine, since AscendC's
/// Sin/Cos need a tmp buffer sized by GetSinCosMaxMinTmpSize, which the plan does not budget,
/// so these stay one aclnnSin / aclnnCos kernel each), dit.cast, and the row-wise ops
/// (`Dit_RowWise`: library vector kernels that work row by row along the last dim or copy
/// whole rows, so they tile like an elementwise op; alone one stays a library call, in a chain
/// it joins the group's kernel), softmax and swiglu among them when their `dim` is the last.
pub fn is_vector_op(op: Op) -> bool {
    let Some(kind) = op.kind() else {
        return false;
    };
    if matches!(kind, OpKind::Sin | OpKind::Cos) {
        return false;
    }
    if kind.is_elementwise() || kind == OpKind::Cast || kind.is_row_wise() {
        return true;
    }
    kind.is_row_wise_on_last_dim()
        && op.operand(0).tensor().is_some_and(|t| {
            let rank = t.rank() as i64;
            ops::i64_attr(op, "dim").is_some_and(|d| d == rank - 1 || d == -1)
        })
}

/// Alignment of one UB row (bytes).
const UB_ALIGN: u64 = 32;

/// Whether a group's kernel fits the Unified Buffer: the question of the chain cut, the sibling
/// merge and the final check alike.
struct UbModel {
    /// The target as the generator sees it, with the pass's budget as its UB.
    spec: dit_ascendc::TargetSpec,
    budget: u64,
    /// DDR bytes the target moves in one launch overhead (hbm_bytes_per_s x
    /// launch_overhead_ns): what a launch saved by a sibling merge is worth.
    launch_bytes: u64,
    /// The generator's answers so far, by (arguments, body ops) and then the body itself: a
    /// model repeats its blocks, so most candidate groups are a body already planned (full
    /// FLUX.1-dev asks 551 times for a few dozen distinct bodies; planning was half the pass).
    fits: RefCell<HashMap<(usize, usize), Vec<SeenFit>>>,
    /// The target's rates, for the performance model's word on a single-buffered kernel.
    rates: Rates,
    /// The groups (their members' [`op_key`]s, sorted) that `AutoFuse::join_single_buffered`
    /// found to pay as single-buffered kernels: the only ones the final fusion lets through
    /// with single-buffered queues.
    single_ok: RefCell<HashSet<Vec<usize>>>,
}

/// Whether `op` is a `dit.reshape` that only splits the last dim `[.., W]` into heads
/// `[.., H, D]` (H·D = W, static shapes): a split piece seen so is rows of its parent
/// (`AutoFuse::absorb_splits`, plan.rs `StageBuilder::head_view`).
fn head_view(op: Op) -> bool {
    if !op.is_kind(OpKind::Reshape) || op.num_operands() != 1 || op.num_results() != 1 {
        return false;
    }
    let (Some(a), Some(r)) = (op.operand(0).tensor(), op.result(0).tensor()) else {
        return false;
    };
    let (n, m) = (a.shape.len(), r.shape.len());
    if n == 0 || m != n + 1 || a.shape.iter().chain(&r.shape).any(|d| d.is_none()) {
        return false;
    }
    a.shape[..n - 1] == r.shape[..n - 1]
        && r.shape[n - 1]
            .zip(r.shape[n])
            .zip(a.shape[n - 1])
            .is_some_and(|((h, d), w)| h * d == w)
}

/// A group's identity for [`UbModel::single_ok`].
fn group_key(members: &[Op]) -> Vec<usize> {
    let mut key: Vec<usize> = members.iter().map(|o| op_key(*o)).collect();
    key.sort_unstable();
    key.dedup();
    key
}

/// What [`dit_ascendc::fit`] answered for one body.
type GeneratorFit = Result<dit_ascendc::Fit, dit_ascendc::GenError>;

/// A body the generator was asked about, and its answer.
type SeenFit = (dit_runtime::fused::FusedOp, GeneratorFit);

impl UbModel {
    /// [`dit_ascendc::fit`] of `fused`, planned once per distinct body.
    fn generator_fit(&self, fused: dit_runtime::fused::FusedOp) -> GeneratorFit {
        // The kernel's name plays no part in the fit.
        let same = |seen: &dit_runtime::fused::FusedOp| {
            seen.args == fused.args && seen.ops == fused.ops && seen.yields == fused.yields
        };
        let key = (fused.args.len(), fused.ops.len());
        if let Some((_, fit)) = self
            .fits
            .borrow()
            .get(&key)
            .and_then(|seen| seen.iter().find(|(body, _)| same(body)))
        {
            return fit.clone();
        }
        // Double-buffered only: a single-buffered kernel is formed only where the performance
        // model says it pays (`AutoFuse::join_single_buffered`).
        let fit = dit_ascendc::fit_at(&fused, &self.spec, false);
        self.fits
            .borrow_mut()
            .entry(key)
            .or_default()
            .push((fused, fit.clone()));
        fit
    }

    /// `Ok(bytes)`: the group fits, with the UB bytes of its smallest tile (one row, or one
    /// column chunk of a row, of the generator's largest stage); `Err(reason)` otherwise.
    ///
    /// The generator's plan decides when it can plan the body: it reuses a buffer once its
    /// value is dead, keeps broadcast rows resident, and cuts rows into column chunks when a
    /// whole row does not fit and every op works column by column, none of which the row
    /// model below sees (it took Wan2.1's 5120-wide f32 chains apart that the generator tiles
    /// by chunks, and let through a LayerNorm-modulate group of which not one row fits). A body
    /// it does not plan (an element type it refuses) gets no Ascend C kernel either way; for
    /// those the row model keeps the decision it always made.
    fn fit(&self, members: &[Op]) -> Result<u64, String> {
        let shape = shape_of(members);
        if let Some(fused) = generator_body(members, &shape) {
            match self.generator_fit(fused) {
                Ok(fit) => return Ok(fit.one_row_bytes),
                Err(dit_ascendc::GenError::Ub(e)) => {
                    return Err(format!(
                        "{} ops do not fit the UB as the Ascend C generator tiles them: one row needs {} B ({} fixed + {} per row), over {} B",
                        members.len(),
                        e.need,
                        e.fixed,
                        e.row,
                        self.budget
                    ))
                }
                // A split's pieces are column windows of the generated kernel's loads: no
                // other kernel reads them in place, so the generator must take the group.
                Err(e) if members.iter().any(|m| m.is_kind(OpKind::Split)) => {
                    return Err(format!("the Ascend C generator does not take it: {e}"))
                }
                Err(_) => {}
            }
        } else if members.iter().any(|m| m.is_kind(OpKind::Split)) {
            return Err("a value of the group has no runtime type".to_string());
        }
        if shape.ub_bytes <= self.budget {
            Ok(shape.ub_bytes)
        } else {
            Err(format!(
                "{} ops need {} B of UB, over {} B",
                members.len(),
                shape.ub_bytes,
                self.budget
            ))
        }
    }
}

impl UbModel {
    /// [`UbModel::fit`], or else, for a group `AutoFuse::join_single_buffered` made
    /// ([`UbModel::single_ok`]), the generator's fit with single-buffered queues where one row
    /// does not fit double-buffered: `Ok((bytes, buffers per queue))`. The final fusion's
    /// check.
    fn fit_final(&self, members: &[Op]) -> Result<(u64, u64), String> {
        let double = match self.fit(members) {
            Ok(bytes) => return Ok((bytes, dit_ascendc::layout::DOUBLE_BUFFER)),
            Err(reason) => reason,
        };
        if !self.single_ok.borrow().contains(&group_key(members)) {
            return Err(double);
        }
        generator_body(members, &shape_of(members))
            .and_then(|fused| dit_ascendc::fit(&fused, &self.spec).ok())
            .map(|fit| (fit.one_row_bytes, fit.buffer_num))
            .ok_or(double)
    }

    /// The modeled time (device time and launch) of the group as the kernel the generator
    /// writes for it (single-buffered where it must be), at the pass's UB and the target's
    /// vector cores; `None` when the generator does not take it. A dynamic outer dim counts as
    /// one row, as in [`generator_body`].
    fn kernel_s(&self, members: &[Op]) -> Option<(f64, u64)> {
        let fused = generator_body(members, &shape_of(members))?;
        let planned = dit_ascendc::planned(&fused, &self.spec).ok()?;
        let tiling = planned
            .tiling(self.spec.ub_bytes, self.spec.core_num)
            .ok()?;
        let (work, _) = perf_model::generated_work(&planned.plan, &planned.layouts, &tiling);
        let buffers = planned
            .layouts
            .iter()
            .map(|l| l.buffer_num)
            .min()
            .unwrap_or(dit_ascendc::layout::DOUBLE_BUFFER);
        Some((perf_model::estimate(&work, &self.rates).total_s(), buffers))
    }
}

/// The group as the body the lowering hands the generator (`dit_lower_to_aclnn::fused_body`
/// of the `dit.fused` it would become): the captured inputs as arguments, the members in
/// order, the outputs yielded. A dynamic outer dim counts as 1 (the tiling loops over outer
/// dims at run time; only a row's width decides the fit). `None` when a value has no runtime
/// encoding or an attribute does not lower.
fn generator_body(members: &[Op], shape: &GroupShape) -> Option<dit_runtime::fused::FusedOp> {
    use dit_runtime::{fused::BodyOp, TensorType};
    let ty = |v: Val| -> Option<TensorType> {
        let t = v.tensor()?;
        let dims = t
            .shape
            .iter()
            .map(|d| usize::try_from(d.unwrap_or(1)).ok())
            .collect::<Option<Vec<usize>>>()?;
        Some(TensorType::new(t.elem.dtype()?, dims))
    };
    let mut ids: HashMap<usize, usize> = HashMap::new();
    let mut args = Vec::with_capacity(shape.inputs.len());
    for v in &shape.inputs {
        ids.insert(v.key(), ids.len());
        args.push(ty(*v)?);
    }
    let mut ops = Vec::with_capacity(members.len());
    for op in members {
        let operands = crate::conversion::dit_lower_to_aclnn::operand_slots(*op)
            .into_iter()
            .map(|slot| match slot {
                Some(v) => ids.get(&v.key()).copied().map(Some),
                None => Some(None),
            })
            .collect::<Option<Vec<Option<usize>>>>()?;
        let results = op
            .results()
            .into_iter()
            .map(ty)
            .collect::<Option<Vec<TensorType>>>()?;
        ops.push(BodyOp {
            name: op.name(),
            operands,
            attrs: crate::conversion::dit_lower_to_aclnn::runtime_attrs(*op).ok()?,
            results,
        });
        for r in op.results() {
            ids.insert(r.key(), ids.len());
        }
    }
    let yields = shape
        .outputs
        .iter()
        .map(|v| ids.get(&v.key()).copied())
        .collect::<Option<Vec<usize>>>()?;
    Some(dit_runtime::fused::FusedOp {
        kernel: "auto_fuse_candidate".to_string(),
        args,
        ops,
        yields,
    })
}

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
    /// The options as the pipeline gave them: they win over a config file's `[auto_fuse]`.
    given: Vec<(String, String)>,
}

impl AutoFuse {
    /// Builds the pass from pipeline options.
    pub fn from_options(options: &[(String, String)]) -> Result<Self, String> {
        let mut pass = AutoFuse {
            level: 2,
            exclude: vec![],
            blacklist: vec![],
            min_benefit: 0.2,
            given: options.to_vec(),
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

    /// The pass as this run configures it: the config file's `[auto_fuse]` options (in the
    /// pass context's switches), then the pipeline's own, which win where both set one.
    fn configured(&self, context: &PassContext) -> Result<Self, String> {
        let mut options: Vec<(String, String)> = context
            .switches
            .auto_fuse_options()
            .iter()
            .filter(|(name, _)| self.given.iter().all(|(g, _)| g != name))
            .cloned()
            .collect();
        options.extend(self.given.iter().cloned());
        Self::from_options(&options).map(|mut pass| {
            pass.given = self.given.clone();
            pass
        })
    }

    fn is_candidate(&self, op: Op) -> bool {
        is_vector_op(op)
            && !self.exclude.contains(&op.name())
            && op.num_results() == 1
            // A load-time re-layout (a rope table's cast) runs once in the init entry; in a
            // group it would run on every call.
            && !crate::analysis::cost::is_load_time_prepack(op)
            // Tiles are rows of the last dim: it must be static; outer dims may be dynamic
            // (the kernel's loop runs over them at run time).
            && op
                .operands()
                .into_iter()
                .chain(op.results())
                .all(|v| v.tensor().is_some_and(|t| {
                    (t.rank() == 0 || t.dim_from_back(0).is_some())
                        // A size that does not fit would saturate the UB and benefit sums
                        // (the verifier refuses it; this keeps the pass safe on its own).
                        && t.checked_bytes().is_some()
                }))
    }

    fn blacklisted(&self, producer: Op, consumer: Op) -> bool {
        let (p, c) = (producer.name(), consumer.name());
        self.blacklist.iter().any(|(a, b)| *a == p && *b == c)
    }

    /// The blacklist holds for a group: no member reads a member it may not be grouped with.
    /// Checked on every group however it was formed (a chain joined through a third op, a
    /// sibling merge of dependent kernels), not only on the edge that joined it.
    fn respects_blacklist(&self, members: &[Op]) -> bool {
        if self.blacklist.is_empty() {
            return true;
        }
        let set = op_set(members);
        members.iter().all(|consumer| {
            consumer.operands().into_iter().all(|v| {
                v.defining_op()
                    .filter(|p| set.contains(&op_key(*p)))
                    .is_none_or(|p| !self.blacklisted(p, *consumer))
            })
        })
    }

    /// Whether a final group may become one kernel: the blacklist holds and it saves enough
    /// DDR bytes, or it is the one-op group of an op whose library entry launches several
    /// kernels (its benefit is fewer launches). `kernels` is how many kernels a sibling merge
    /// joined into it (1: none): each launch it saves counts as `launch_bytes` saved (below).
    /// `Err` is the reason, for the report.
    fn final_check(&self, members: &[Op], kernels: usize, launch_bytes: u64) -> Result<(), String> {
        if members.len() == 1 && several_launches(members[0]) {
            return Ok(());
        }
        if !self.respects_blacklist(members) {
            return Err(format!(
                "{} ops would pair a blacklisted producer and consumer",
                members.len()
            ));
        }
        let total = total_bytes(members);
        let benefit = benefit(members, total);
        // A sibling merge's kernels move no fewer bytes for being one launch, but each launch
        // saved is the target's launch overhead (seed 004 counts its ~10 us per launch as
        // saved time; the perf model adds it per launch): as DDR bytes, what the bandwidth
        // moves in that time. The merged kernel moves no more bytes than its parts did, so
        // this only weighs launches against the user's min-benefit, never makes a kernel
        // costlier by the cost model.
        let saved_launches = kernels.saturating_sub(1) as u64;
        let credit = saved_launches.saturating_mul(launch_bytes) as f64 / total.max(1) as f64;
        if benefit + credit < self.min_benefit {
            let launches = if saved_launches == 0 {
                String::new()
            } else {
                format!(
                    " and {saved_launches} launch{} (worth {:.0}%)",
                    if saved_launches == 1 { "" } else { "es" },
                    credit * 100.0
                )
            };
            return Err(format!(
                "{} ops would save {:.0}% of their DDR bytes{launches}, below min-benefit {:.0}%",
                members.len(),
                benefit * 100.0,
                self.min_benefit * 100.0
            ));
        }
        Ok(())
    }
}

/// Saved DDR bytes / the members' DDR bytes without the fusion: the intermediates that stay in
/// the UB, plus the repeated reads of a tensor several members read (the kernel captures it
/// once), which is what a sibling merge saves. `total` is [`total_bytes`] of the members.
fn benefit(members: &[Op], total: u64) -> f64 {
    let shape = shape_of(members);
    let mut reads: HashMap<usize, u64> = HashMap::new();
    for m in members {
        for o in m.operands() {
            *reads.entry(o.key()).or_default() += 1;
        }
    }
    let rereads = shape
        .inputs
        .iter()
        .map(|v| {
            let reads = reads.get(&v.key()).copied().unwrap_or(0);
            let bytes = v.tensor().map_or(0, |t| tensor_bytes(&t));
            bytes.saturating_mul(reads.saturating_sub(1))
        })
        .fold(0u64, u64::saturating_add);
    if total == 0 {
        0.0
    } else {
        shape.saved_bytes.saturating_add(rereads) as f64 / total as f64
    }
}

/// The members' DDR bytes as separate kernels. Apart from [`shape_of`], which most callers
/// need without it: each kernel's bytes ask the lowering which library call it is.
fn total_bytes(members: &[Op]) -> u64 {
    members
        .iter()
        .map(|op| kernel_bytes(*op))
        .fold(0u64, u64::saturating_add)
}

/// UB bytes one live tensor needs at the smallest legal tile: one row of its last dim, 32-byte
/// aligned, double buffered.
fn tile_bytes(t: &TensorInfo) -> u64 {
    let row = TensorInfo {
        elem: t.elem.clone(),
        shape: vec![t.dim_from_back(0).or(Some(1))],
    };
    tensor_bytes(&row)
        .div_ceil(UB_ALIGN)
        .saturating_mul(UB_ALIGN * 2)
}

/// A group's values: captured inputs (in first-use order), results used outside, UB need.
struct GroupShape<'a> {
    inputs: Vec<Val<'a>>,
    outputs: Vec<Val<'a>>,
    ub_bytes: u64,
    saved_bytes: u64,
}

fn shape_of<'a>(members: &[Op<'a>]) -> GroupShape<'a> {
    let set = op_set(members);
    let contains = |o: &Op| set.contains(&op_key(*o));
    let inside = |op: Option<Op>| op.is_some_and(|o| contains(&o));
    let mut seen_inputs: HashSet<usize> = HashSet::new();
    let mut inputs: Vec<Val> = Vec::new();
    let mut outputs = Vec::new();
    let mut ub_bytes = 0u64;
    let mut saved_bytes = 0u64;
    for op in members {
        for v in op.operands() {
            if !inside(v.defining_op()) && seen_inputs.insert(v.key()) {
                ub_bytes = v
                    .tensor()
                    .map_or(ub_bytes, |t| ub_bytes.saturating_add(tile_bytes(&t)));
                inputs.push(v);
            }
        }
        // Every member has one result but an opening dit.split (`absorb_splits`), whose
        // pieces nobody reads are neither read by the kernel nor yielded.
        let split = op.is_kind(OpKind::Split);
        for result in op.results() {
            let t = result.tensor();
            let users = result.users();
            if split && users.is_empty() {
                continue;
            }
            ub_bytes = ub_bytes.saturating_add(t.as_ref().map_or(0, tile_bytes));
            if users.iter().any(|u| !contains(u)) || users.is_empty() {
                // An extra output (level 2): written once either way, but the in-group users
                // no longer read it back.
                if users.iter().any(contains) {
                    saved_bytes = saved_bytes.saturating_add(t.as_ref().map_or(0, tensor_bytes));
                }
                outputs.push(result);
            } else {
                // Written and read back once through DDR without the fusion.
                saved_bytes = saved_bytes
                    .saturating_add(t.as_ref().map_or(0, tensor_bytes).saturating_mul(2));
            }
        }
    }
    GroupShape {
        inputs,
        outputs,
        ub_bytes,
        saved_bytes,
    }
}

impl DitPass for AutoFuse {
    fn run(&mut self, module: Op, context: &PassContext) -> Result<(), PassFailed> {
        let configured = self.configured(context).map_err(|e| {
            dit_dialect::diagnostics::emit_error(
                module.location(),
                &format!("dit-auto-fuse: --fusion-config [auto_fuse]: {e}"),
            );
            PassFailed
        })?;
        configured.run_configured(module, context)
    }
}

impl AutoFuse {
    fn run_configured(&self, module: Op, context: &PassContext) -> Result<(), PassFailed> {
        if self.level == 0 {
            return Ok(());
        }
        let budget = if self.level == 1 {
            context.target.ub_bytes / 2
        } else {
            context.target.ub_bytes
        };
        let ub = UbModel {
            spec: dit_ascendc::TargetSpec::with_vector_cores(
                context.target.name,
                budget,
                context.target.vector_cores,
            ),
            budget,
            launch_bytes: (context.target.hbm_bytes_per_s as u128
                * context.target.launch_overhead_ns as u128
                / 1_000_000_000)
                .try_into()
                .unwrap_or(u64::MAX),
            fits: RefCell::default(),
            rates: Rates::of(context.target),
            single_ok: RefCell::default(),
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
                for (op, detail) in self.hoist_over_reshapes(&block.ops()) {
                    context.report.applied("dit-auto-fuse", op, detail);
                }
                let mut recomputes = if self.level == 2 {
                    self.recompute_branches(&block.ops())
                } else {
                    Vec::new()
                };
                // A recomputation pays only when every copy ends in its user's kernel; one that
                // did not is undone and the block partitioned again without it.
                let (groups, skips) = loop {
                    let mut skips = Vec::new();
                    let groups = self.partition(&block.ops(), &ub, &mut skips);
                    let (kept, failed): (Vec<_>, Vec<_>) =
                        recomputes.into_iter().partition(|r| r.succeeded(&groups));
                    recomputes = kept;
                    if failed.is_empty() {
                        break (groups, skips);
                    }
                    for r in failed {
                        r.undo();
                    }
                };
                for (op, reason) in skips {
                    context.report.skipped("dit-auto-fuse", op, reason);
                }
                for r in &recomputes {
                    context.report.applied(
                        "dit-auto-fuse",
                        r.producer,
                        format!(
                            "recomputed {} for each of its {} users instead of a DDR round trip (level 2)",
                            r.producer.name(),
                            r.branches.len()
                        ),
                    );
                }
                for (group, siblings) in groups {
                    self.fuse(group, siblings, &func_name, &mut kernel_index, &ub, context);
                }
            }
        }
        Ok(())
    }
}

impl AutoFuse {
    /// A one-operand elementwise op (a cast, most often) that reads a reshape of a vector
    /// op's result is moved before the reshape: `u(reshape(p))` becomes `reshape(u(p))`.
    /// Elementwise ops commute with a reshape (same elements, same order), the reshape is a
    /// view either way and `u` moves the same bytes, so nothing gets costlier; but a reshape
    /// ends a chain (a kernel's body has no views), and before it `u` chains with the op that
    /// computes `p`. HiDream's q/k casts around its rope (`rms_norm -> reshape -> cast`,
    /// `rope -> reshape -> cast`) were four kernels of their own. Only a reshape whose one
    /// user is `u` moves (another user still needs the value as it was).
    fn hoist_over_reshapes<'a>(&self, ops: &[Op<'a>]) -> Vec<(Op<'a>, String)> {
        let mut done = Vec::new();
        for &u in ops {
            if !self.is_candidate(u)
                || u.num_operands() != 1
                || !u
                    .kind()
                    .is_some_and(|k| k.is_elementwise() || k == OpKind::Cast)
            {
                continue;
            }
            let r = u.operand(0);
            let Some(reshape) = r.defining_op().filter(|d| d.is_kind(OpKind::Reshape)) else {
                continue;
            };
            let p = reshape.operand(0);
            if r.use_count() != 1
                || reshape.parent() != u.parent()
                || !p
                    .defining_op()
                    .is_some_and(|d| d.parent() == u.parent() && self.is_candidate(d))
            {
                continue;
            }
            let (Some(before), Some(after)) = (p.tensor(), r.tensor()) else {
                continue;
            };
            let moved = u.clone_before(reshape);
            moved.set_operand(0, p);
            let value = moved.result(0);
            value.set_tensor_type(&before.shape, u.result(0));
            u.result(0).replace_all_uses_with(r);
            // SAFETY: `u`'s uses now read `r` (above); the loop has passed `u` in `ops` and
            // does not read it again (the report names `moved`).
            unsafe { u.erase() };
            reshape.set_operand(0, value);
            r.set_tensor_type(&after.shape, value);
            // The reshape moves down to its first user: left where it was it would sit between
            // `u` and the rest of a kernel `u` joins, an outside user the kernel (placed at
            // its last member) could not come after.
            let block_of = |x: Op| x.block().map(|b| b.raw().ptr);
            let users = r.users();
            let same_block = users.iter().all(|x| block_of(*x) == block_of(reshape));
            if let Some(first) =
                users
                    .iter()
                    .copied()
                    .reduce(|a, b| if b.is_before_in_block(a) { b } else { a })
            {
                if same_block {
                    let sunk = reshape.clone_before(first);
                    r.replace_all_uses_with(sunk.result(0));
                    // SAFETY: its uses went to the sunk copy (above); it defines `u`'s operand,
                    // so it comes before `u` in the block and the loop over `ops` has passed
                    // it; it is not read afterwards.
                    unsafe { reshape.erase() };
                }
            }
            done.push((
                moved,
                format!(
                    "{} moved before the reshape of its operand, into reach of its producer's kernel",
                    moved.name()
                ),
            ));
        }
        done
    }

    /// Aggressive level 2 (seed 004): a branch normally ends a chain, since its value goes
    /// through DDR for its several users anyway. When the producer is a vector op whose inputs
    /// are no bigger than its output and every user is a vector op that could take it in, each
    /// user gets its own copy instead: every copy re-reads at most what the shared value would
    /// have been read as, the write of the shared value is gone, and the recomputation is a
    /// few vector instructions per element (far under 10% of the DDR bytes saved).
    fn recompute_branches<'a>(&self, ops: &[Op<'a>]) -> Vec<Recompute<'a>> {
        let mut done = Vec::new();
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
                || !distinct.iter().all(|u| {
                    self.is_candidate(*u) && same_block(u) && !self.blacklisted(producer, *u)
                })
            {
                continue;
            }
            let input_bytes: u64 = producer
                .operands()
                .iter()
                .filter_map(|v| v.tensor())
                .map(|t| tensor_bytes(&t))
                .fold(0, u64::saturating_add);
            let output_bytes = result.tensor().map_or(0, |t| tensor_bytes(&t));
            if input_bytes > output_bytes {
                continue;
            }
            let mut branches = vec![(producer, distinct[0])];
            for user in distinct.iter().skip(1) {
                let copy = producer.clone_before(*user);
                for i in 0..user.num_operands() {
                    if user.operand(i) == result {
                        user.set_operand(i, copy.result(0));
                    }
                }
                branches.push((copy, *user));
            }
            done.push(Recompute { producer, branches });
        }
        done
    }

    /// The block's ops partitioned into kernels: write-after-read chains (a value with several
    /// users joins its consumers only at level 2, as an extra output of the group), cut to fit
    /// the UB, kept when they save enough DDR bytes, then (level 2) sibling kernels that read
    /// the same tensors merged. Groups of one op are left as they are.
    /// Each kernel comes with the number of sibling kernels merged into it (1: none).
    fn partition<'a>(
        &self,
        ops: &[Op<'a>],
        ub: &UbModel,
        skips: &mut Vec<(Op<'a>, String)>,
    ) -> Vec<(Vec<Op<'a>>, usize)> {
        let graph = BlockGraph::new(ops);
        let candidates: Vec<usize> = (0..ops.len())
            .filter(|i| self.is_candidate(ops[*i]))
            .collect();
        let mut groups = Vec::new();
        for group in self.chains(&graph, &candidates, self.level == 2) {
            if graph.placeable(&group) {
                groups.push(group);
            } else {
                // An extra output would be read before the group's kernel runs: single-use
                // edges only for these ops.
                groups.extend(self.chains(&graph, &group, false));
            }
        }
        let mut kept: Vec<Vec<usize>> = Vec::new();
        for group in groups {
            let members: Vec<Op> = group.iter().map(|i| ops[*i]).collect();
            let parts = split_for_ub(&members, ub, skips);
            for part in self.join_single_buffered(parts, ub, skips) {
                let indices: Vec<usize> = part.iter().filter_map(|o| graph.position(*o)).collect();
                if indices.len() >= 2 && !self.saves_enough(&part, skips) {
                    kept.extend(indices.into_iter().map(|i| vec![i]));
                } else {
                    kept.push(indices);
                }
            }
        }
        kept.sort_by_key(|g| g[0]);
        let clusters = if self.level == 2 {
            self.merge_siblings(&graph, kept, ub, skips)
        } else {
            kept.into_iter().map(|g| (g, 1)).collect()
        };
        // Every final group passes the same tests, however it was formed; one that does not
        // is left as its ops.
        let mut out = Vec::new();
        let mut taken: HashSet<usize> = HashSet::new();
        for (group, kernels) in clusters {
            match self.absorb_splits(&graph, &group, ub, &taken) {
                Some(Ok(with_splits)) => {
                    let members: Vec<Op> = with_splits.iter().map(|i| ops[*i]).collect();
                    match self.final_check(&members, kernels, ub.launch_bytes) {
                        Ok(()) => {
                            taken.extend(
                                members
                                    .iter()
                                    .filter(|m| m.is_kind(OpKind::Split))
                                    .map(|m| op_key(*m)),
                            );
                            out.push((members, kernels));
                            continue;
                        }
                        Err(reason) => skips.push((
                            members[0],
                            format!("the split stays a copy kernel: {reason}"),
                        )),
                    }
                }
                Some(Err(reason)) => {
                    if let Some(split) = group
                        .first()
                        .and_then(|m| {
                            ops[*m].operands().into_iter().find_map(|v| {
                                // Through a piece's view as heads (`head_view`) to its split.
                                let d = v.defining_op()?;
                                if head_view(d) {
                                    d.operand(0).defining_op()
                                } else {
                                    Some(d)
                                }
                            })
                        })
                        .filter(|d| d.is_kind(OpKind::Split))
                    {
                        skips.push((split, format!("the split stays a copy kernel: {reason}")));
                    }
                }
                None => {}
            }
            let members: Vec<Op> = group.iter().map(|i| ops[*i]).collect();
            match self.final_check(&members, kernels, ub.launch_bytes) {
                Ok(()) => out.push((members, kernels)),
                Err(reason) => {
                    if members.len() >= 2 {
                        if let Some(last) = members.last() {
                            skips.push((*last, reason));
                        }
                    }
                    out.extend(
                        members
                            .into_iter()
                            .filter(|m| several_launches(*m))
                            .map(|m| (vec![m], 1)),
                    );
                }
            }
        }
        out
    }

    /// The group with the `dit.split`s it reads opened into it (block positions, sorted);
    /// `None` when there is none to take, `Some(Err(why))` when the union is not a kernel the
    /// generator makes.
    ///
    /// dit-merge-horizontal leaves one projection and a split of its output along the last
    /// dim; the pieces are strided, so alone the split is a copy kernel ([`is_view`]). In the
    /// group it costs nothing: the generated kernel reads each piece the group consumes as a
    /// column window of the parent's rows (plan.rs `StageBuilder::split_piece`, a DataCopyPad
    /// with the parent's width as GM row stride), and yields a piece read only outside as a
    /// contiguous copy of its window (Wan2.1's v next to the q/k norms). A split joins when its
    /// operand comes from outside the group, it is a copy (not a view), it splits the last
    /// dim, no other group took it, the union is placeable (the pieces' outside readers come
    /// after the group), and the generator plans the union and fits it in the UB
    /// ([`UbModel::fit`], which refuses it otherwise; single-buffered only where the
    /// performance model says so): its planner asks every window to start and end on a
    /// 32-byte GM block (offset and width × element bytes multiples of 32, the rule and its
    /// doc at `split_piece`). A piece the group reads through a reshape to heads
    /// (`[.., W] -> [.., H, D]`, [`head_view`]; FLUX, SD3.5, Qwen-Image and HunyuanVideo before
    /// their per-head q/k norms and rope) joins with that reshape when all its users are in the
    /// group: the kernel reads the piece's heads as D-wide rows of the parent (plan.rs
    /// `StageBuilder::head_view`, D × element bytes and the offset whole 32-byte blocks).
    ///
    /// [`is_view`]: crate::analysis::cost::is_view
    fn absorb_splits(
        &self,
        graph: &BlockGraph,
        group: &[usize],
        ub: &UbModel,
        taken: &HashSet<usize>,
    ) -> Option<Result<Vec<usize>, String>> {
        let set: HashSet<usize> = group.iter().copied().collect();
        let mut splits: Vec<usize> = Vec::new();
        // The per-head views of pieces (`head_view`) the group reads: they join with their
        // split (the generated kernel reads the piece's heads as rows of the parent).
        let mut views: Vec<usize> = Vec::new();
        for &m in group {
            for v in graph.ops[m].operands() {
                let view = v
                    .defining_op()
                    .filter(|d| head_view(*d))
                    .and_then(|d| graph.position(d).filter(|p| graph.ops[*p] == d))
                    .filter(|p| {
                        !set.contains(p)
                            && graph.ops[*p]
                                .result(0)
                                .users()
                                .iter()
                                .all(|u| graph.position(*u).is_some_and(|q| set.contains(&q)))
                    });
                let v = match view {
                    Some(p) => graph.ops[p].operand(0),
                    None => v,
                };
                let Some(split) = v.defining_op().filter(|d| d.is_kind(OpKind::Split)) else {
                    continue;
                };
                let Some(p) = graph.position(split).filter(|p| graph.ops[*p] == split) else {
                    continue;
                };
                if set.contains(&p) || taken.contains(&op_key(split)) {
                    continue;
                }
                if splits.contains(&p) {
                    if let Some(q) = view.filter(|q| !views.contains(q)) {
                        views.push(q);
                    }
                    continue;
                }
                let parent = split.operand(0);
                let from_outside = parent
                    .defining_op()
                    .and_then(|d| graph.position(d))
                    .is_none_or(|q| !set.contains(&q));
                let last_dim = parent.tensor().is_some_and(|t| {
                    let rank = t.rank() as i64;
                    rank > 0
                        && t.shape.iter().all(|d| d.is_some())
                        && ops::i64_attr(split, "dim").is_some_and(|d| d == rank - 1 || d == -1)
                });
                let excluded = self.exclude.contains(&split.name())
                    || crate::analysis::cost::is_view(split)
                    || crate::analysis::cost::is_load_time_prepack(split);
                if from_outside && last_dim && !excluded && !self.blacklisted(split, graph.ops[m]) {
                    splits.push(p);
                    if let Some(q) = view.filter(|q| !views.contains(q)) {
                        views.push(q);
                    }
                }
            }
        }
        if splits.is_empty() {
            return None;
        }
        let mut union: Vec<usize> = group.iter().copied().chain(splits).chain(views).collect();
        union.sort_unstable();
        if !graph.placeable(&union) {
            return Some(Err(
                "a piece is read outside before the group's kernel runs".to_string(),
            ));
        }
        let members: Vec<Op> = union.iter().map(|i| graph.ops[*i]).collect();
        let double = match ub.fit(&members) {
            Ok(_) => return Some(Ok(union)),
            Err(reason) => reason,
        };
        // One row of the union fits only with single-buffered queues (Wan2.1's q/k norms and
        // the copy of v, rows of 5120 widened to f32): taken when the performance model says
        // that kernel is not slower than the group as it stays plus each split's copy kernel
        // (a DDR round trip of the whole projection and a launch), as
        // `join_single_buffered` weighs a cut.
        let Some((union_s, buffers)) = ub.kernel_s(&members) else {
            return Some(Err(double));
        };
        if buffers >= dit_ascendc::layout::DOUBLE_BUFFER {
            return Some(Err(double));
        }
        let group_ops: Vec<Op> = group.iter().map(|i| graph.ops[*i]).collect();
        let splits_s: f64 = members
            .iter()
            .filter(|m| m.is_kind(OpKind::Split))
            .map(|m| perf_model::estimate(&perf_model::library_work(*m), &ub.rates).total_s())
            .sum();
        let Some(group_s) = self.left_s(&group_ops, ub) else {
            return Some(Err(double));
        };
        if union_s <= group_s + splits_s {
            // The final fusion takes it single-buffered (`UbModel::fit_final`).
            ub.single_ok.borrow_mut().insert(group_key(&members));
            Some(Ok(union))
        } else {
            Some(Err(format!(
                "{double}; with single-buffered queues it fits, but the model gives {:.1} us against {:.1} us apart",
                union_s * 1e6,
                (group_s + splits_s) * 1e6
            )))
        }
    }

    /// Union-find over producer -> consumer edges between `members` (block positions, in
    /// order); `branches` lets a value with several users join its in-group consumers, as long
    /// as the joined group stays placeable (its other users all come after it).
    ///
    /// Near-linear in the block: each group keeps its last position and the positions of its
    /// users outside it (a count per position, ordered), and a union moves the smaller group
    /// into the larger. Placeability of a tentative union is then the first outside user of
    /// either part that is not in the other part, against the larger last position; a whole
    /// chain used to be copied and re-scanned at every union (quadratic; issue 17 measured
    /// 243 s on a 5,185-op chain).
    fn chains(&self, graph: &BlockGraph, members: &[usize], branches: bool) -> Vec<Vec<usize>> {
        use std::collections::BTreeMap;
        let slot: HashMap<usize, usize> =
            members.iter().enumerate().map(|(k, i)| (*i, k)).collect();
        let mut parent: Vec<usize> = (0..members.len()).collect();
        let mut group_of: Vec<Vec<usize>> = members.iter().map(|i| vec![*i]).collect();
        let mut last: Vec<usize> = members.to_vec();
        // Outside users of each group, by block position (None: a user outside the block,
        // which no group may be placed before). Only needed when branches are allowed.
        let mut outside: Vec<BTreeMap<usize, usize>> = vec![BTreeMap::new(); members.len()];
        let mut escapes: Vec<bool> = vec![false; members.len()];
        if branches {
            for (k, &i) in members.iter().enumerate() {
                for r in graph.ops[i].results() {
                    for u in r.users() {
                        match graph.position(u) {
                            Some(p) if p == i => {}
                            Some(p) => *outside[k].entry(p).or_default() += 1,
                            None => escapes[k] = true,
                        }
                    }
                }
            }
        }
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
        // The group (root) a block position belongs to, if it is one of `members`.
        let group_at = |parent: &mut [usize], p: usize| slot.get(&p).map(|k| find(parent, *k));
        for (c, &i) in members.iter().enumerate() {
            let op = graph.ops[i];
            for v in op.operands() {
                let Some(p) = v
                    .defining_op()
                    .and_then(|d| graph.position(d))
                    .and_then(|p| slot.get(&p).copied())
                else {
                    continue;
                };
                // Without `branches`, a value with several users ends the chain (seed 004).
                if !(branches || v.use_count() == 1) || self.blacklisted(graph.ops[members[p]], op)
                {
                    continue;
                }
                let (a, b) = (find(&mut parent, p), find(&mut parent, c));
                if a == b {
                    continue;
                }
                let (big, small) = if group_of[a].len() >= group_of[b].len() {
                    (a, b)
                } else {
                    (b, a)
                };
                if branches {
                    if escapes[a] || escapes[b] {
                        continue;
                    }
                    let union_last = last[a].max(last[b]);
                    // The first outside user of `x` that is not a member of `other`.
                    let mut first_outside = |x: usize, other: usize| {
                        outside[x]
                            .keys()
                            .copied()
                            .find(|&q| group_at(&mut parent, q) != Some(other))
                    };
                    let placeable = [first_outside(big, small), first_outside(small, big)]
                        .into_iter()
                        .flatten()
                        .all(|q| q > union_last);
                    if !placeable {
                        continue;
                    }
                }
                if !self.blacklist.is_empty() {
                    let mut union: Vec<Op> = group_of[a].iter().map(|i| graph.ops[*i]).collect();
                    union.extend(group_of[b].iter().map(|i| graph.ops[*i]));
                    if !self.respects_blacklist(&union) {
                        continue;
                    }
                }
                if branches {
                    let moved = std::mem::take(&mut outside[small]);
                    for m in &group_of[small] {
                        outside[big].remove(m);
                    }
                    for (q, n) in moved {
                        if group_at(&mut parent, q) != Some(big) {
                            *outside[big].entry(q).or_default() += n;
                        }
                    }
                }
                let moved = std::mem::take(&mut group_of[small]);
                group_of[big].extend(moved);
                last[big] = last[a].max(last[b]);
                parent[small] = big;
            }
        }
        let mut roots: Vec<usize> = (0..members.len()).map(|k| find(&mut parent, k)).collect();
        roots.dedup();
        let mut seen = std::collections::HashSet::new();
        roots
            .into_iter()
            .filter(|r| seen.insert(*r))
            .map(|r| {
                let mut g = std::mem::take(&mut group_of[r]);
                g.sort_unstable();
                g
            })
            .filter(|g| !g.is_empty())
            .collect()
    }

    /// Consecutive parts of a chain that [`split_for_ub`] cut because one row of their union
    /// does not fit the UB double-buffered, joined again when the union fits with
    /// single-buffered queues and the performance model says its kernel is not slower than
    /// the parts as they would stay (each its own double-buffered kernel, or its ops as
    /// library kernels when it is one op or saves too little), launches included: one kernel
    /// whose copy-in, compute and copy-out no longer overlap against a DDR round trip of the
    /// value at the cut and a launch. Wan2.1's residual add and the LayerNorm after it (rows of
    /// 5120, widened to f32) are such a pair. The cut's note says why a union was not taken.
    fn join_single_buffered<'a>(
        &self,
        parts: Vec<Vec<Op<'a>>>,
        ub: &UbModel,
        skips: &mut Vec<(Op<'a>, String)>,
    ) -> Vec<Vec<Op<'a>>> {
        let mut out: Vec<(Vec<Op<'a>>, Option<f64>)> = Vec::new();
        for part in parts {
            let Some((prev, prev_s)) = out.last_mut() else {
                out.push((part, None));
                continue;
            };
            let mut union = prev.clone();
            union.extend(part.iter().copied());
            let Some((union_s, buffers)) = ub.kernel_s(&union) else {
                out.push((part, None));
                continue;
            };
            if buffers >= dit_ascendc::layout::DOUBLE_BUFFER {
                // Not a UB cut this step can undo (the union fits double-buffered only as
                // something split_for_ub did not take, e.g. not placeable here).
                out.push((part, None));
                continue;
            }
            let prev_s = match prev_s {
                Some(t) => Some(*t),
                None => self.left_s(prev, ub),
            };
            let (Some(prev_s), Some(part_s)) = (prev_s, self.left_s(&part, ub)) else {
                out.push((part, None));
                continue;
            };
            let apart = prev_s + part_s;
            // The note split_for_ub left at the cut (at the op that starts `part`).
            let cut = skips
                .iter()
                .rposition(|(op, _)| op_key(*op) == op_key(part[0]));
            if union_s <= apart {
                // The cut is undone: its note goes.
                if let Some(i) = cut {
                    skips.remove(i);
                }
                ub.single_ok.borrow_mut().insert(group_key(&union));
                *prev = union;
                out.last_mut().expect("a part").1 = Some(union_s);
            } else {
                if let Some((_, reason)) = cut.map(|i| &mut skips[i]) {
                    reason.push_str(&format!(
                        "; with single-buffered queues it fits, but the model gives {:.1} us against {:.1} us as it is cut",
                        union_s * 1e6,
                        apart * 1e6
                    ));
                }
                out.last_mut().expect("a part").1 = Some(prev_s);
                out.push((part, None));
            }
        }
        out.into_iter().map(|(p, _)| p).collect()
    }

    /// The modeled time of a part of a chain as it stays when nothing joins it: its kernel
    /// when it makes one (two ops or more saving min-benefit), else its ops' library kernels.
    fn left_s(&self, part: &[Op], ub: &UbModel) -> Option<f64> {
        if part.len() >= 2 && benefit(part, total_bytes(part)) >= self.min_benefit {
            return ub.kernel_s(part).map(|(t, _)| t);
        }
        Some(
            part.iter()
                .map(|op| perf_model::estimate(&perf_model::library_work(*op), &ub.rates).total_s())
                .sum(),
        )
    }

    /// Whether a group saves enough DDR bytes (seed 004's benefit test); notes a skip when not.
    fn saves_enough<'a>(&self, members: &[Op<'a>], skips: &mut Vec<(Op<'a>, String)>) -> bool {
        let benefit = benefit(members, total_bytes(members));
        if benefit >= self.min_benefit {
            return true;
        }
        if let Some(last) = members.last() {
            skips.push((
                *last,
                format!(
                    "{} ops would save {:.0}% of their DDR bytes, below min-benefit {:.0}%",
                    members.len(),
                    benefit * 100.0,
                    self.min_benefit * 100.0
                ),
            ));
        }
        false
    }

    fn fuse(
        &self,
        members: Vec<Op>,
        siblings: usize,
        func_name: &str,
        kernel_index: &mut usize,
        ub: &UbModel,
        context: &PassContext,
    ) {
        let report = &context.report;
        let Some(&last) = members.last() else {
            return;
        };
        if members.len() < 2 && !several_launches(last) {
            return;
        }
        let members = dedupe(members);
        let Some(&last) = members.last() else {
            return;
        };
        let shape = shape_of(&members);
        let benefit = benefit(&members, total_bytes(&members));
        let (ub_bytes, buffers) = match ub.fit_final(&members) {
            Ok(fit) => fit,
            Err(reason) => {
                report.skipped("dit-auto-fuse", last, reason);
                return;
            }
        };
        let kernel = format!("fused_{func_name}_{}", *kernel_index);
        *kernel_index += 1;
        let input_types: Vec<_> = shape.inputs.iter().map(|v| v.ty().to_raw()).collect();
        let output_types: Vec<_> = shape.outputs.iter().map(|v| v.ty().to_raw()).collect();
        let (fused, body) = create_region_op_before(
            last,
            OpKind::Fused.name(),
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
        // Only uses outside the region move to the fused results: members that read an extra
        // output keep reading the value inside.
        for (k, v) in shape.outputs.iter().enumerate() {
            for user in v.users() {
                if user == terminator || inside(user, fused) {
                    continue;
                }
                for i in 0..user.num_operands() {
                    if user.operand(i) == *v {
                        user.set_operand(i, fused.result(k));
                    }
                }
            }
        }
        let names: Vec<String> = members
            .iter()
            .map(|o| {
                o.kind()
                    .map_or_else(|| o.name(), |k| k.mnemonic().to_string())
            })
            .collect();
        let detail = if members.len() == 1 {
            format!(
                "{kernel}: {} alone, one generated kernel instead of {} library launches (UB {} B at the smallest tile)",
                names.join(""),
                crate::analysis::cost::library_launches(members[0]),
                ub_bytes
            )
        } else {
            format!(
                "{kernel}: {} ({} ops, {} output{}{}), UB {} B at the smallest tile{}, saves {:.0}% of their DDR bytes",
                names.join(" -> "),
                members.len(),
                shape.outputs.len(),
                if shape.outputs.len() == 1 { "" } else { "s" },
                if siblings > 1 {
                    format!(", {siblings} sibling kernels reading the same tensors in one launch")
                } else {
                    String::new()
                },
                ub_bytes,
                if buffers < dit_ascendc::layout::DOUBLE_BUFFER {
                    " (single-buffered queues: one row does not fit double-buffered, and the performance model says one such kernel beats the cut)"
                } else {
                    ""
                },
                benefit * 100.0
            )
        };
        report.applied("dit-auto-fuse", fused, detail);
    }
}

/// One level-2 recomputation of a shared producer.
struct Recompute<'a> {
    producer: Op<'a>,
    /// (the op computing the value, the user it computes it for): the producer with its first
    /// user, then each copy with its own.
    branches: Vec<(Op<'a>, Op<'a>)>,
}

impl<'a> Recompute<'a> {
    /// Whether every copy ended in one kernel with its user: otherwise that copy's value goes
    /// through DDR after all, and the copy is extra work.
    fn succeeded(&self, groups: &[(Vec<Op<'a>>, usize)]) -> bool {
        self.branches.iter().all(|(value, user)| {
            groups
                .iter()
                .any(|(g, _)| g.contains(value) && g.contains(user))
        })
    }

    /// Points every user back at the producer and erases the copies.
    fn undo(&self) {
        let result = self.producer.result(0);
        for (copy, user) in self.branches.iter().skip(1) {
            let value = copy.result(0);
            for i in 0..user.num_operands() {
                if user.operand(i) == value {
                    user.set_operand(i, result);
                }
            }
            // SAFETY: the copy was made for `user` alone, which now reads the producer again; the
            // partition that held the copy is dropped and recomputed from the block.
            unsafe { copy.erase() };
        }
    }
}

/// A group's members with repeats of one computation merged (the copies of a recomputed
/// producer that ended in one kernel, and what then reads them alike): the later op's users
/// move to the earlier, which comes first in the block, and the later is erased. Done before
/// the kernel is built, so that its outputs are distinct values.
fn dedupe(members: Vec<Op>) -> Vec<Op> {
    let mut seen: HashMap<Vec<usize>, Op> = HashMap::new();
    let mut kept = Vec::with_capacity(members.len());
    for op in members {
        if !crate::transforms::dit_dce::is_side_effect_free(op) {
            kept.push(op);
            continue;
        }
        let key = crate::transforms::dit_cse::key(op);
        match seen.get(&key) {
            Some(earlier) => {
                for (old, new) in op.results().into_iter().zip(earlier.results()) {
                    old.replace_all_uses_with(new);
                }
                // SAFETY: its results' uses moved to `earlier`; the op leaves the member list here,
                // and groups are disjoint, so no other group holds it.
                unsafe { op.erase() };
            }
            None => {
                seen.insert(key, op);
                kept.push(op);
            }
        }
    }
    kept
}

/// Whether `op` alone launches more than one library kernel (dit.silu_mul: aclnnSilu, then
/// aclnnMul on the temporary): as a one-op group it is one generated kernel, and its temporary
/// never reaches DDR, so it fuses even without a neighbour.
fn several_launches(op: Op) -> bool {
    crate::analysis::cost::library_launches(op) > 1
}

/// Whether `op` is nested in `ancestor`.
fn inside(op: Op, ancestor: Op) -> bool {
    let mut current = op.parent();
    while let Some(p) = current {
        if p == ancestor {
            return true;
        }
        current = p.parent();
    }
    false
}

/// Appends `dit.yield(values)` to `block` (which holds the group's ops) and returns it.
fn create_op_before_end<'a>(
    block: dit_dialect::ir::Block<'a>,
    values: &[Val<'a>],
) -> Option<Op<'a>> {
    // Built before the body's last op (the group's last member), then moved to the end.
    let anchor = *block.ops().last()?;
    let y = create_op_before(anchor, OpKind::Yield.name(), values, &[], &[]);
    y.move_to_end_of(block);
    Some(y)
}

/// A block's ops with their positions, for placement questions.
struct BlockGraph<'g, 'a> {
    ops: &'g [Op<'a>],
    index: HashMap<usize, usize>,
}

impl<'g, 'a> BlockGraph<'g, 'a> {
    fn new(ops: &'g [Op<'a>]) -> Self {
        let index = ops
            .iter()
            .enumerate()
            .map(|(i, o)| (op_key(*o), i))
            .collect();
        BlockGraph { ops, index }
    }

    /// The position of `op`, or of the op of this block that holds it in a region.
    fn position(&self, op: Op) -> Option<usize> {
        let mut current = Some(op);
        while let Some(o) = current {
            if let Some(i) = self.index.get(&op_key(o)) {
                return Some(*i);
            }
            current = o.parent();
        }
        None
    }

    /// Whether a group (block positions) can become one op at its last member: every user
    /// outside the group comes after that member. Block order is a topological order, so this
    /// also rules out a path that leaves the group and comes back into it.
    fn placeable(&self, group: &[usize]) -> bool {
        let Some(&last) = group.iter().max() else {
            return false;
        };
        let set: HashSet<usize> = group.iter().copied().collect();
        group.iter().all(|&m| {
            self.ops[m].results().into_iter().all(|r| {
                r.users().into_iter().all(|u| match self.position(u) {
                    Some(p) => p > last || set.contains(&p),
                    None => false,
                })
            })
        })
    }
}

/// Where a group sits in its block: its first and last position and the first position of a
/// user outside it (0 for a user outside the block, which no group may be placed before).
struct Span {
    first: usize,
    last: usize,
    first_outside_user: usize,
}

impl Span {
    /// False when the union of the two groups is certainly not placeable: an outside user of
    /// one lies before the other begins (so it is in neither) and before the union's last op.
    /// True says nothing; [`BlockGraph::placeable`] decides. The sibling merge tries every
    /// earlier kernel that reads the same tensor, and this keeps that from re-scanning both
    /// groups for each (on a 2,607-op chain it did 17,000 scans).
    fn may_join(&self, other: &Span) -> bool {
        let last = self.last.max(other.last);
        let cuts =
            |a: &Span, b: &Span| a.first_outside_user < b.first && a.first_outside_user < last;
        !cuts(self, other) && !cuts(other, self)
    }
}

impl BlockGraph<'_, '_> {
    fn span(&self, group: &[usize]) -> Span {
        let set: HashSet<usize> = group.iter().copied().collect();
        let mut first_outside_user = usize::MAX;
        for &m in group {
            for r in self.ops[m].results() {
                for u in r.users() {
                    match self.position(u) {
                        Some(p) if !set.contains(&p) => {
                            first_outside_user = first_outside_user.min(p)
                        }
                        Some(_) => {}
                        None => first_outside_user = 0,
                    }
                }
            }
        }
        Span {
            first: group.iter().copied().min().unwrap_or(0),
            last: group.iter().copied().max().unwrap_or(0),
            first_outside_user,
        }
    }
}

/// The tensor a value is a view of: through reshapes, bitcasts, broadcasts, splits and slices.
fn view_root(v: Val) -> Val {
    let mut v = v;
    for _ in 0..64 {
        match v.defining_op() {
            // Views (`Dit_ViewLike`): their results are (possibly strided) views of their
            // first operand.
            Some(d) if d.kind().is_some_and(OpKind::is_view_like) => v = d.operand(0),
            _ => break,
        }
    }
    v
}

/// Aggressive level 2: kernels that read the same tensor (slices of one projection's output,
/// the same rotary table, one modulation vector) and do not depend on each other become one
/// multi-output kernel, when it fits the UB. Each merge saves a launch; a tensor both read is
/// read once. Groups are block positions sorted by their first member; so is the result.
impl AutoFuse {
    fn merge_siblings<'a>(
        &self,
        graph: &BlockGraph<'_, 'a>,
        groups: Vec<Vec<usize>>,
        ub: &UbModel,
        skips: &mut Vec<(Op<'a>, String)>,
    ) -> Vec<(Vec<usize>, usize)> {
        let mut clusters: Vec<(Vec<usize>, usize)> = Vec::new();
        // Each cluster's span, to turn most unplaceable pairs away without scanning both.
        let mut spans: Vec<Span> = Vec::new();
        let mut by_root: HashMap<usize, Vec<usize>> = HashMap::new();
        for group in groups {
            let span = graph.span(&group);
            let members: Vec<Op> = group.iter().map(|i| graph.ops[*i]).collect();
            let mut roots: Vec<usize> = Vec::new();
            for v in shape_of(&members).inputs {
                let root = view_root(v);
                // Constants are tiny and everywhere; sharing one says nothing.
                if root.defining_op().is_some_and(|d| d.is("arith.constant")) {
                    continue;
                }
                if !roots.contains(&root.key()) {
                    roots.push(root.key());
                }
            }
            let mut target = None;
            let mut refused = None;
            'search: for root in &roots {
                for &c in by_root.get(root).into_iter().flatten() {
                    if !spans[c].may_join(&span) {
                        continue;
                    }
                    let mut union = clusters[c].0.clone();
                    union.extend(&group);
                    union.sort_unstable();
                    let ops: Vec<Op> = union.iter().map(|i| graph.ops[*i]).collect();
                    if !graph.placeable(&union) || ub.fit(&ops).is_err() {
                        continue;
                    }
                    // The merged kernel passes the tests its parts passed: the blacklist over
                    // every pair, and the benefit (its DDR bytes and the launches it saves).
                    match self.final_check(&ops, clusters[c].1 + 1, ub.launch_bytes) {
                        Ok(()) => {
                            target = Some((c, union));
                            break 'search;
                        }
                        Err(reason) => {
                            refused.get_or_insert(reason);
                        }
                    }
                }
            }
            let c = match target {
                Some((c, union)) => {
                    spans[c] = graph.span(&union);
                    clusters[c] = (union, clusters[c].1 + 1);
                    c
                }
                None => {
                    if let (Some(reason), Some(last)) = (refused, members.last()) {
                        skips.push((*last, format!("sibling merge: {reason}")));
                    }
                    clusters.push((group, 1));
                    spans.push(span);
                    clusters.len() - 1
                }
            };
            for root in roots {
                let list = by_root.entry(root).or_default();
                if !list.contains(&c) {
                    list.push(c);
                }
            }
        }
        clusters.sort_by_key(|(g, _)| g[0]);
        clusters
    }
}

/// Splits a group (in block order) into prefixes that fit the UB ([`UbModel::fit`]).
///
/// The whole rest of the group is tried first (one plan when it fits, as a long elementwise
/// chain does in column chunks); otherwise the longest fitting prefix is found by doubling,
/// then bisection: O(log n) plans per part instead of one per op. One op always makes a part
/// (alone it stays a library kernel, or the final check refuses it). Each cut notes, at the op
/// that starts the next part, why the part could not take it.
fn split_for_ub<'a>(
    group: &[Op<'a>],
    ub: &UbModel,
    skips: &mut Vec<(Op<'a>, String)>,
) -> Vec<Vec<Op<'a>>> {
    let mut parts = Vec::new();
    let mut start = 0;
    while start < group.len() {
        let rest = &group[start..];
        let mut why = if rest.len() == 1 { Ok(0) } else { ub.fit(rest) };
        let Err(mut reason) = why else {
            parts.push(rest.to_vec());
            break;
        };
        // `fits` holds a fitting length, `fails` one that does not (`reason` says why).
        let (mut fits, mut fails) = (1, rest.len());
        let mut probe = 2;
        while probe < fails {
            why = ub.fit(&rest[..probe]);
            match why {
                Ok(_) => {
                    fits = probe;
                    probe *= 2;
                }
                Err(e) => {
                    fails = probe;
                    reason = e;
                }
            }
        }
        while fits + 1 < fails {
            let mid = (fits + fails) / 2;
            match ub.fit(&rest[..mid]) {
                Ok(_) => fits = mid,
                Err(e) => {
                    fails = mid;
                    reason = e;
                }
            }
        }
        skips.push((rest[fits], reason));
        parts.push(rest[..fits].to_vec());
        start += fits;
    }
    parts
}

/// An identity key for an op (handles are pointers into the IR).
fn op_key(op: Op) -> usize {
    op.raw().ptr as usize
}

/// The members of a group as a set of [`op_key`]s, for constant-time membership tests.
fn op_set(members: &[Op]) -> HashSet<usize> {
    members.iter().map(|o| op_key(*o)).collect()
}
