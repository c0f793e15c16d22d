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
//!    TQue, CopyIn → Compute → CopyOut per tile, multi-core split of the rows) and its tiling
//!    header;
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
    /// Columns per row chunk when whole rows did not fit the UB (the plan then sees each
    /// last dim `w` as `[w / chunk, chunk]`).
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
    let mut plan = plan::plan(fused)?;
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
    layout::tiling(&plan, &layouts, target.ub_bytes, target.core_num)?;
    Ok((plan, layouts))
}

/// Generates the kernel of one group, checking that a row fits the target's UB. When a whole
/// row does not fit and every op of the group works column by column, rows are cut into the
/// widest column chunks that fit (the chunk index becomes an outer dim of the tiling).
pub fn generate(fused: &FusedOp, target: &TargetSpec) -> Result<Kernel, GenError> {
    for (what, name) in [("kernel", &fused.kernel), ("target", &target.name)] {
        if !is_safe_name(name) {
            return Err(GenError::Name(format!(
                "{what} name {name:?} may only hold letters, digits, '_', '-' and '.'"
            )));
        }
    }
    let (plan, layouts, chunk) = match plan_and_layout(fused, target) {
        Ok((p, l)) => (p, l, None),
        Err(GenError::Ub(whole_rows)) => plan::column_chunks(fused)
            .into_iter()
            .find_map(|c| {
                plan_and_layout(&plan::chunk_columns(fused, c), target)
                    .ok()
                    .map(|(p, l)| (p, l, Some(c)))
            })
            .ok_or(GenError::Ub(whole_rows))?,
        Err(e) => return Err(e),
    };
    let mut about = describe(fused);
    if let Some(c) = chunk {
        about.push_str(&format!(
            "\n(rows are cut into chunks of {c} columns: a whole row does not fit the UB)"
        ));
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
