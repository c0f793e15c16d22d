//! Ascend C kernels for `dit.fused` groups (`dit-opt --emit=ascendc -o DIR`).
//!
//! A group arrives as the JSON body the lowering passes to the runtime
//! ([`dit_runtime::fused::FusedOp`]), so this crate needs no MLIR. For each group:
//!
//! 1. [`plan`] turns the body into row programs (stages of f32 micro-ops over rows of the last
//!    dim, concats resolved into row ranges, broadcast operands found invariant or grouped);
//! 2. [`layout`] places every value in the Unified Buffer and derives the bytes a tile row and
//!    the fixed buffers need, which the host tiling function turns into rows per tile;
//! 3. [`emit`] writes the kernel (`<kernel>.cpp`, CANN-sample style: TPipe, double-buffered
//!    TQue, CopyIn → Compute → CopyOut per tile, multi-core split of the rows; single-buffered
//!    queues in a stage of which one row does not fit double-buffered) and its tiling header;
//!    [`stats`] gives what a launch moves and holds (DDR bytes, rows per tile, UB per tile),
//!    which the generator prints in each kernel's header comment and in `kernels.json`;
//! 4. [`project`] writes the CMake project (kernels, host launchers behind one C ABI, the
//!    lowered host object) that builds with CANN's ascendc toolchain, or with
//!    `-DDIT_CPU_MODEL=ON` against the CPU model of the Ascend C API
//!    (`include/kernel_operator.h`) so the kernels run here; [`cpu_model`] builds and loads
//!    that library directly (tests, and the runtime's CPU backend).

pub mod cpu_model;
pub mod emit;
pub mod layout;
pub mod plan;
pub mod project;
pub mod stats;

use dit_runtime::fused::FusedOp;

/// The CPU model of the Ascend C API the generated kernels compile against off-device.
pub const KERNEL_OPERATOR_H: &str = include_str!("../include/kernel_operator.h");

/// What the generator needs to know of the hardware.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetSpec {
    /// The `--target` name (for messages and the manifest).
    pub name: String,
    /// Unified Buffer bytes per core (the target table's `ub_bytes`).
    pub ub_bytes: u64,
    /// Vector cores launched when the caller does not say (the generated `DIT_CORE_NUM`).
    pub core_num: u64,
}

impl TargetSpec {
    /// A target with the default core count of [`DEFAULT_CORE_NUM`]; callers that know the
    /// target table's `vector_cores` use [`TargetSpec::with_vector_cores`]. Either way the CANN
    /// host launcher asks the device for its vector-core count when the caller passes 0 cores.
    pub fn new(name: &str, ub_bytes: u64) -> TargetSpec {
        TargetSpec::with_vector_cores(name, ub_bytes, DEFAULT_CORE_NUM)
    }

    /// A target launching `vector_cores` blocks by default (the target table's
    /// `vector_cores`: the AIV count, 48 on Ascend910B1).
    pub fn with_vector_cores(name: &str, ub_bytes: u64, vector_cores: u64) -> TargetSpec {
        TargetSpec {
            name: name.to_string(),
            ub_bytes,
            core_num: vector_cores.max(1),
        }
    }
}

/// Cores of [`TargetSpec::new`]: the vector cores of the smallest Atlas A2 part (20 AI Cores of
/// two AIV each), so a kernel tiled for it never asks for more blocks than such a device has.
pub const DEFAULT_CORE_NUM: u64 = 40;

/// Why a group gets no kernel.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GenError {
    /// The body uses something the generator does not produce (the message names the op).
    #[error(transparent)]
    Unsupported(#[from] plan::PlanError),
    /// Not even one row fits the target's Unified Buffer.
    #[error(transparent)]
    Ub(#[from] layout::UbError),
    /// A kernel or target name that the generated C, CMake and JSON could not hold as written.
    #[error("{0}")]
    Name(String),
}

/// Whether `name` may be written into generated C string literals and comments, CMake strings
/// and file names as it is: letters, digits, `_`, `-` and `.`, not empty. Anything else (a
/// quote, a newline, `$`, `%`, `;`) could end a literal or a comment and inject code into the
/// generated project, so names outside it are refused rather than escaped per language.
pub fn is_safe_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

/// One generated kernel.
#[derive(Clone, Debug)]
pub struct Kernel {
    /// The group's body.
    pub fused: FusedOp,
    /// Its row programs.
    pub plan: plan::KernelPlan,
    /// Their UB layouts.
    pub layouts: Vec<layout::StageLayout>,
    /// Columns per row chunk when whole rows did not fit the UB, or were fewer than the
    /// target's cores (the plan then sees each last dim `w` as `[w / chunk, chunk]`).
    pub chunk: Option<usize>,
    /// `<symbol>.cpp`.
    pub source: String,
    /// `<symbol>_tiling.h`.
    pub tiling_header: String,
}

impl Kernel {
    /// Output types as the group declares them (the plan's are split when chunked).
    pub fn outputs(&self) -> Vec<dit_runtime::TensorType> {
        let f = &self.fused;
        let types: Vec<&dit_runtime::TensorType> = f
            .args
            .iter()
            .chain(f.ops.iter().flat_map(|op| &op.results))
            .collect();
        f.yields.iter().map(|y| types[*y].clone()).collect()
    }

    /// The C symbol of the kernel (its name with non-identifier characters replaced).
    pub fn symbol(&self) -> String {
        emit::symbol(&self.plan.name)
    }

    /// The tiling the host function computes for a UB size and core count.
    pub fn tiling(&self, ub_bytes: u64, core_num: u64) -> Result<layout::Tiling, layout::UbError> {
        layout::tiling(&self.plan, &self.layouts, ub_bytes, core_num)
    }

    /// What one launch with that tiling moves and holds: DDR bytes read (re-reads included)
    /// and written, rows per tile, tiles, UB bytes per tile ([`stats::KernelStats`]).
    pub fn stats(
        &self,
        ub_bytes: u64,
        core_num: u64,
    ) -> Result<stats::KernelStats, layout::UbError> {
        stats::stats(&self.plan, &self.layouts, ub_bytes, core_num)
    }
}

/// A readable listing of a body, for the kernel's header comment.
fn describe(f: &FusedOp) -> String {
    let mut s = String::new();
    let ty = |t: &dit_runtime::TensorType| {
        let dims: Vec<String> = t.shape.iter().map(|d| d.to_string()).collect();
        format!("{}x{}", dims.join("x"), t.dtype.mlir_name())
    };
    for (i, a) in f.args.iter().enumerate() {
        s.push_str(&format!("%{i}: tensor<{}> (x{i})\n", ty(a)));
    }
    let mut id = f.args.len();
    for op in &f.ops {
        let operands: Vec<String> = op
            .operands
            .iter()
            .map(|o| o.map_or("null".to_string(), |v| format!("%{v}")))
            .collect();
        let attrs = if op.attrs.is_empty() {
            String::new()
        } else {
            format!(" {}", serde_json::to_string(&op.attrs).unwrap_or_default())
        };
        s.push_str(&format!(
            "%{id} = {}({}){attrs} : tensor<{}>\n",
            op.name,
            operands.join(", "),
            op.results.first().map(ty).unwrap_or_default()
        ));
        id += op.results.len();
    }
    let ys: Vec<String> = f
        .yields
        .iter()
        .enumerate()
        .map(|(j, y)| format!("%{y} (y{j})"))
        .collect();
    s.push_str(&format!("yield {}", ys.join(", ")));
    s
}

fn plan_and_layout(
    fused: &FusedOp,
    target: &TargetSpec,
) -> Result<(plan::KernelPlan, Vec<layout::StageLayout>), GenError> {
    lay_out(plan::plan(fused)?, target)
}

/// [`plan_and_layout`] where a stage of which one row does not fit double-buffered gets
/// single-buffered queues ([`lay_out_single`]).
fn plan_and_layout_single(
    fused: &FusedOp,
    target: &TargetSpec,
) -> Result<(plan::KernelPlan, Vec<layout::StageLayout>), GenError> {
    lay_out_single(plan::plan(fused)?, target)
}

/// [`lay_out`], then every stage of which not one row fits the UB with double-buffered queues
/// laid out again with one buffer per queue. The staging, resident, table and work buffers are
/// the same either way; only the queues' bytes per row halve. The stages that fit keep their
/// double buffers.
fn lay_out_single(
    plan: plan::KernelPlan,
    target: &TargetSpec,
) -> Result<(plan::KernelPlan, Vec<layout::StageLayout>), GenError> {
    let (plan, mut layouts) = lay_out_unchecked(plan, target);
    for (i, l) in layouts.iter_mut().enumerate() {
        if l.fit_rows(target.ub_bytes) == 0 {
            *l = layout::layout_at(&plan, &plan.stages[i], 1);
        }
    }
    layout::tiling(&plan, &layouts, target.ub_bytes, target.core_num)?;
    Ok((plan, layouts))
}

/// The layouts of a plan's stages, checked to fit the target's UB.
fn lay_out(
    plan: plan::KernelPlan,
    target: &TargetSpec,
) -> Result<(plan::KernelPlan, Vec<layout::StageLayout>), GenError> {
    let (plan, layouts) = lay_out_unchecked(plan, target);
    layout::tiling(&plan, &layouts, target.ub_bytes, target.core_num)?;
    Ok((plan, layouts))
}

/// The double-buffered layouts of a plan's stages, grouped stages that do not fit ungrouped;
/// not checked against the UB.
fn lay_out_unchecked(
    mut plan: plan::KernelPlan,
    target: &TargetSpec,
) -> (plan::KernelPlan, Vec<layout::StageLayout>) {
    let mut layouts: Vec<layout::StageLayout> = plan
        .stages
        .iter()
        .map(|s| layout::layout(&plan, s))
        .collect();
    // A stage where one row and its group's shared rows do not fit together reads its tables
    // per row instead (their queues then count per row, not per group).
    let misfit: Vec<usize> = layouts
        .iter()
        .enumerate()
        .filter(|(_, l)| l.group > 1 && l.fit_rows(target.ub_bytes) == 0)
        .map(|(i, _)| i)
        .collect();
    for i in misfit {
        plan::ungroup(&mut plan.stages[i]);
        layouts[i] = layout::layout(&plan, &plan.stages[i]);
    }
    (plan, layouts)
}

/// A way to plan and lay out a body ([`plan_and_layout`] or [`plan_and_layout_single`]).
type LayOut =
    fn(&FusedOp, &TargetSpec) -> Result<(plan::KernelPlan, Vec<layout::StageLayout>), GenError>;

/// The plan and layouts of a group's kernel at the widest tile that fits the target's UB with
/// double-buffered queues: whole rows, else (every op working column by column) the widest
/// column chunk that fits. When neither fits and `single` allows it, the same with
/// single-buffered queues in the stages that need them (a norm over a row too wide for two
/// buffers per queue, which no column chunk can split). The error is the double-buffered one.
fn plan_fitting(
    fused: &FusedOp,
    target: &TargetSpec,
    single: bool,
) -> Result<(plan::KernelPlan, Vec<layout::StageLayout>, Option<usize>), GenError> {
    let at = |lay: LayOut| match lay(fused, target) {
        Ok((p, l)) => Ok((p, l, None)),
        Err(GenError::Ub(whole_rows)) => plan::column_chunks(fused)
            .into_iter()
            .find_map(|c| {
                lay(&plan::chunk_columns(fused, c), target)
                    .ok()
                    .map(|(p, l)| (p, l, Some(c)))
            })
            .ok_or(GenError::Ub(whole_rows)),
        Err(e) => Err(e),
    };
    match at(plan_and_layout) {
        Err(GenError::Ub(double)) if single => {
            at(plan_and_layout_single).map_err(|_| GenError::Ub(double))
        }
        r => r,
    }
}

/// How [`generate`] would tile a group, without writing its kernel: the question auto-fusion
/// asks of every candidate group, so that a group it forms is one the generator lowers (same
/// planner, same UB layout, same column chunking; no C++ is built).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fit {
    /// Columns per chunk when whole rows do not fit (see [`Kernel::chunk`]).
    pub chunk: Option<usize>,
    /// UB bytes of the largest stage at one row (one chunk) per tile, fixed buffers included.
    pub one_row_bytes: u64,
    /// The fewest buffers per queue of any stage ([`layout::StageLayout::buffer_num`]): 2, or
    /// 1 when a stage's row fits only single-buffered.
    pub buffer_num: u64,
}

/// Whether the group's kernel fits `target`'s UB, and how ([`Fit`]), single-buffered where a
/// row does not fit double-buffered, as [`generate`] plans it; the error is the one
/// [`generate`] would give.
pub fn fit(fused: &FusedOp, target: &TargetSpec) -> Result<Fit, GenError> {
    fit_at(fused, target, true)
}

/// [`fit`], with single-buffered queues only when `single`: without, a group of which one row
/// does not fit double-buffered is refused (the question of auto-fusion's chain cut, so that a
/// single-buffered kernel is formed only where the performance model says it pays).
pub fn fit_at(fused: &FusedOp, target: &TargetSpec, single: bool) -> Result<Fit, GenError> {
    let (_, layouts, chunk) = plan_fitting(fused, target, single)?;
    Ok(Fit {
        chunk,
        one_row_bytes: layouts.iter().map(|l| l.ub_bytes(1)).max().unwrap_or(0),
        buffer_num: layouts
            .iter()
            .map(|l| l.buffer_num)
            .min()
            .unwrap_or(layout::DOUBLE_BUFFER),
    })
}

/// The narrowest column chunk `spread_columns` cuts rows into: 128 elements, so every row
/// burst of a chunk is still at least 256 bytes (of a 16-bit type), whole 32-byte blocks.
pub const MIN_SPREAD_CHUNK: usize = 128;

/// Rows of the stage with the most rows (the tiling launches at most that many cores).
fn max_rows(plan: &plan::KernelPlan) -> u64 {
    plan.stages.iter().map(|s| s.rows).max().unwrap_or(1)
}

/// The plan, layouts and chunk of a kernel.
type Planned = (plan::KernelPlan, Vec<layout::StageLayout>, Option<usize>);

/// A group with fewer rows than the target has vector cores leaves cores idle, each busy core
/// moving a whole row (Wan2.1's `[1, 6, 5120]` modulation add ran on 6 of 48 cores, 8x its
/// roofline). When every op works column by column, its rows (`whole`, in chunks of `chunk`
/// columns when whole rows did not fit) are cut into narrower column chunks
/// ([`plan::column_chunks`]) so that every core gets a share: the widest chunk (at least
/// [`MIN_SPREAD_CHUNK`] columns) that makes at least as many rows as cores, else the one that
/// makes the most. `None` when the group has enough rows, cannot be cut, or no cut adds rows.
fn spread_columns(
    fused: &FusedOp,
    target: &TargetSpec,
    whole: &plan::KernelPlan,
    chunk: Option<usize>,
) -> Option<Planned> {
    let rows = max_rows(whole);
    if rows >= target.core_num {
        return None;
    }
    let mut best: Option<Planned> = None;
    for c in plan::column_chunks(fused) {
        if chunk.is_some_and(|w| c >= w) {
            continue;
        }
        if c < MIN_SPREAD_CHUNK {
            break;
        }
        let Ok((p, l)) = plan_and_layout(&plan::chunk_columns(fused, c), target) else {
            continue;
        };
        let r = max_rows(&p);
        if best.as_ref().is_none_or(|(b, _, _)| r > max_rows(b)) {
            best = Some((p, l, Some(c)));
        }
        if r >= target.core_num {
            break;
        }
    }
    best.filter(|(p, _, _)| max_rows(p) > rows)
}

/// Rows narrower than a UB row's 16-element padding ([`plan::fold_inner`]): the plan of the body
/// with its last two dims folded into one, when it plans, fits the UB, and keeps as many rows
/// as there are cores (or as the whole rows had). `None` otherwise.
fn fold_rows(
    fused: &FusedOp,
    target: &TargetSpec,
    whole: &plan::KernelPlan,
) -> Option<(plan::KernelPlan, Vec<layout::StageLayout>)> {
    let folded = plan::fold_inner(fused)?;
    let (p, l) = lay_out(plan::plan_folded(&folded).ok()?, target).ok()?;
    (max_rows(&p) >= target.core_num.min(max_rows(whole))).then_some((p, l))
}

/// The plan of a group's kernel as [`generate`] chooses it, without the C++.
#[derive(Clone, Debug)]
pub struct PlannedKernel {
    /// The row programs.
    pub plan: plan::KernelPlan,
    /// Their UB layouts (each with its queue depth).
    pub layouts: Vec<layout::StageLayout>,
    /// Columns per row chunk ([`Kernel::chunk`]).
    pub chunk: Option<usize>,
    /// The chunks cut rows for the cores rather than for the UB (`spread_columns`).
    pub spread: bool,
    /// The last two dims folded into one row (`fold_rows`).
    pub folded: bool,
}

impl PlannedKernel {
    /// The tiling the host function computes for a UB size and core count.
    pub fn tiling(&self, ub_bytes: u64, core_num: u64) -> Result<layout::Tiling, layout::UbError> {
        layout::tiling(&self.plan, &self.layouts, ub_bytes, core_num)
    }
}

/// The plan [`generate`] writes a group's kernel from: whole rows or column chunks, double
/// buffered where a row fits that way (else single-buffered), spread over the cores or folded
/// as `spread_columns` and `fold_rows` say. What the performance model costs a group by.
pub fn planned(fused: &FusedOp, target: &TargetSpec) -> Result<PlannedKernel, GenError> {
    let (plan, layouts, chunk) = plan_fitting(fused, target, true)?;
    let (plan, layouts, chunk, spread) = match spread_columns(fused, target, &plan, chunk) {
        Some((p, l, c)) => (p, l, c, true),
        None => (plan, layouts, chunk, false),
    };
    let (plan, layouts, folded) = match chunk.is_none().then(|| fold_rows(fused, target, &plan)) {
        Some(Some((p, l))) => (p, l, true),
        _ => (plan, layouts, false),
    };
    Ok(PlannedKernel {
        plan,
        layouts,
        chunk,
        spread,
        folded,
    })
}

/// Generates the kernel of one group, checking that a row fits the target's UB. When a whole
/// row does not fit and every op of the group works column by column, rows are cut into the
/// widest column chunks that fit (the chunk index becomes an outer dim of the tiling); so are
/// the rows of such a group when they are fewer than the target's cores (`spread_columns`).
/// A stage of which one row fits only with single-buffered queues gets them
/// ([`layout::StageLayout::buffer_num`] 1).
pub fn generate(fused: &FusedOp, target: &TargetSpec) -> Result<Kernel, GenError> {
    for (what, name) in [("kernel", &fused.kernel), ("target", &target.name)] {
        if !is_safe_name(name) {
            return Err(GenError::Name(format!(
                "{what} name {name:?} may only hold letters, digits, '_', '-' and '.'"
            )));
        }
    }
    let PlannedKernel {
        plan,
        layouts,
        chunk,
        spread,
        folded,
    } = planned(fused, target)?;
    let mut about = describe(fused);
    if folded {
        about.push_str(
            "\n(the last two dims are folded into one row: rows of fewer than 16 elements)",
        );
    }
    if let Some(c) = chunk {
        let why = if spread {
            format!(
                "wider chunks make fewer rows than the {} cores",
                target.core_num
            )
        } else {
            "a whole row does not fit the UB".to_string()
        };
        about.push_str(&format!(
            "\n(rows are cut into chunks of {c} columns: {why})"
        ));
    }
    if layouts.iter().any(|l| l.buffer_num < layout::DOUBLE_BUFFER) {
        about.push_str(
            "\n(single-buffered queues where one row does not fit the UB double-buffered: \
             copy-in, compute and copy-out of a tile do not overlap there)",
        );
    }
    // The UB fill and DDR traffic at the target's defaults (the generator's report).
    let st = stats::stats(&plan, &layouts, target.ub_bytes, target.core_num)?;
    about.push_str(&format!(
        "\n\nTiling for {} (UB {} bytes, {} cores):\n{}",
        target.name,
        target.ub_bytes,
        target.core_num,
        st.summary()
    ));
    let source = emit::kernel_source(&plan, &layouts, &about);
    let tiling_header = emit::tiling_header(&plan, &layouts);
    Ok(Kernel {
        fused: fused.clone(),
        plan,
        layouts,
        chunk,
        source,
        tiling_header,
    })
}

/// Parses the launch attributes of a `dit.fused` (the lowering's JSON) and generates its
/// kernel.
pub fn generate_from_json(attrs_json: &str, target: &TargetSpec) -> Result<Kernel, String> {
    let fused = FusedOp::parse(attrs_json).map_err(|e| e.to_string())?;
    generate(&fused, target).map_err(|e| e.to_string())
}

/// Generates the kernel of a group from its kernel name and the lowering's JSON body (what
/// `dit_lower_to_aclnn::fused_body` returns).
pub fn generate_from_body(
    kernel: &str,
    body: serde_json::Value,
    target: &TargetSpec,
) -> Result<Kernel, String> {
    let json = serde_json::json!({"kernel": kernel, "body": body}).to_string();
    generate_from_json(&json, target)
}
