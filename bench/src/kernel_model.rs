//! The `kernel_model` benchmark's engine: estimated time per block before and after fusion,
//! from the performance model of dit_passes::analysis::perf_model, with every generated kernel costed by
//! the tiling the Ascend C generator (dit-ascendc) actually gives it. It is a model, the figure
//! of merit until an NPU is at hand, not a measurement.
//!
//! The work of a generated kernel is dit-passes' (`perf_model::generated_work`, from the
//! generator's plan and tiling), which dit-auto-fuse weighs a single-buffered merge with; the
//! generation and the tables live here.

use dit_ascendc::{
    layout::{elem_bytes, Tiling},
    Kernel, TargetSpec,
};
use dit_dialect::{ir::Op, target::Target};
use dit_passes::analysis::perf_model::{self, Bound, Estimate, Rates, Totals, Work};
use std::{path::Path, process::Command};

/// One block the benchmark models: a graph of test/models/imported (diffusers through
/// torch-mlir; `--dit-convert-torch-to-dit` makes it dit).
#[derive(Clone, Copy, Debug)]
pub struct Block {
    /// Short name (`--models` takes these).
    pub name: &'static str,
    /// What it is.
    pub label: &'static str,
    /// Repository-relative path.
    pub file: &'static str,
}

/// The blocks of issue 17's acceptance: FLUX (double, single), SD3.5, Wan2.1, HunyuanVideo
/// (double, single), Qwen-Image, HiDream (double, single) and LTX-Video.
pub const BLOCKS: &[Block] = &[
    Block {
        name: "flux_double",
        label: "FLUX.1 double",
        file: "test/models/imported/flux_double_block.mlir",
    },
    Block {
        name: "flux_single",
        label: "FLUX.1 single",
        file: "test/models/imported/flux_single_block.mlir",
    },
    Block {
        name: "sd35_joint",
        label: "SD3.5 joint",
        file: "test/models/imported/sd35_joint_block.mlir",
    },
    Block {
        name: "wan21",
        label: "Wan2.1",
        file: "test/models/imported/wan21_block.mlir",
    },
    Block {
        name: "hunyuan_double",
        label: "HunyuanVideo double",
        file: "test/models/imported/hunyuan_video_double_block.mlir",
    },
    Block {
        name: "hunyuan_single",
        label: "HunyuanVideo single",
        file: "test/models/imported/hunyuan_video_single_block.mlir",
    },
    Block {
        name: "qwen_image",
        label: "Qwen-Image",
        file: "test/models/imported/qwen_image_block.mlir",
    },
    Block {
        name: "hidream_double",
        label: "HiDream double",
        file: "test/models/imported/hidream_double_block.mlir",
    },
    Block {
        name: "hidream_single",
        label: "HiDream single",
        file: "test/models/imported/hidream_single_block.mlir",
    },
    Block {
        name: "ltx_video",
        label: "LTX-Video",
        file: "test/models/imported/ltx_video_block.mlir",
    },
];

/// One generated kernel as modeled.
#[derive(Clone, Debug)]
pub struct GeneratedKernel {
    /// The dit.fused kernel name.
    pub name: String,
    /// Cores the tiling launches (`block_dim`), 0 when no kernel was generated.
    pub cores: u64,
    /// DDR bytes the kernel moves as tiled (re-reads and per-core loads included).
    pub ddr_bytes: u64,
    /// Each input read once, each output written once.
    pub unique_bytes: u64,
    /// The unique bytes at the target's bandwidth.
    pub roofline_s: f64,
    /// The estimate (device time and launch overhead).
    pub estimate: Estimate,
    /// Why no kernel was generated (the estimate is then the ideal one).
    pub no_kernel: Option<String>,
}

impl GeneratedKernel {
    /// Modeled device time over the roofline (the launch overhead is not in either).
    pub fn ratio(&self) -> f64 {
        if self.roofline_s > 0.0 {
            self.estimate.body_s / self.roofline_s
        } else {
            f64::NAN
        }
    }
}

/// One module's call, modeled.
#[derive(Clone, Debug, Default)]
pub struct ModuleModel {
    /// Launches, device time and launch overhead.
    pub totals: Totals,
    /// The generated kernels, in program order.
    pub generated: Vec<GeneratedKernel>,
    /// Device time of the library kernels.
    pub library_s: f64,
    /// The library kernels (op name, estimate), in program order.
    pub library: Vec<(String, Estimate)>,
}

/// One block before and after fusion.
#[derive(Clone, Debug)]
pub struct BlockModel {
    /// The block.
    pub block: Block,
    /// The imported graph (`--dit-convert-torch-to-dit`).
    pub before: ModuleModel,
    /// After `--fuse-all`.
    pub after: ModuleModel,
    /// dit-opt's own `--fusion-report=json` kernel counts, before and after.
    pub report_kernels: (usize, usize),
}

/// The work of a generated kernel under its tiling ([`perf_model::generated_work`], the model
/// dit-auto-fuse also weighs a single-buffered merge with): per stage, the DDR bytes every core
/// moves (tile rows of each loaded operand and stored output; a grouped row once per group; an
/// invariant row once per core that has rows) and the vector ops, all cores and the busiest; a
/// single-buffered stage does not overlap them.
pub fn generated_work(kernel: &Kernel, tiling: &Tiling) -> (Work, u64) {
    perf_model::generated_work(&kernel.plan, &kernel.layouts, tiling)
}

/// Bytes of a GM tensor of the plan.
fn tensor_bytes(t: &dit_ascendc::plan::KernelPlan, inputs: bool) -> u64 {
    let list = if inputs { &t.inputs } else { &t.outputs };
    list.iter()
        .map(|ty| ty.shape.iter().product::<usize>() as u64 * elem_bytes(ty.dtype))
        .sum()
}

/// Models one call of the module under `root` on `target`: library kernels at the model's own
/// estimate, generated kernels through the generator's plan and tiling on the target's vector
/// cores (what the host launcher launches on the device).
pub fn model_module(root: Op, target: &Target) -> ModuleModel {
    let rates = Rates::of(target);
    let spec = TargetSpec {
        name: target.name.to_string(),
        ub_bytes: target.ub_bytes,
        core_num: target.vector_cores,
    };
    let mut out = ModuleModel::default();
    for launch in perf_model::launches(root) {
        if !launch.generated {
            let e = perf_model::estimate(&launch.work, &rates);
            out.library_s += e.body_s;
            out.totals.add(launch.work.launches, &e);
            out.library.push((launch.name, e));
            continue;
        }
        let kernel = dit_passes::conversion::dit_lower_to_aclnn::fused_body(launch.op)
            .map_err(|(_, m)| m)
            .and_then(|body| dit_ascendc::generate_from_body(&launch.name, body, &spec))
            .and_then(|k| {
                let t = k
                    .tiling(spec.ub_bytes, spec.core_num)
                    .map_err(|e| e.to_string())?;
                Ok((k, t))
            });
        let g = match kernel {
            Ok((k, tiling)) => {
                let (work, ddr_bytes) = generated_work(&k, &tiling);
                let unique = tensor_bytes(&k.plan, true) + tensor_bytes(&k.plan, false);
                GeneratedKernel {
                    name: launch.name.clone(),
                    cores: tiling.block_dim,
                    ddr_bytes,
                    unique_bytes: unique,
                    roofline_s: rates.roofline_s(unique),
                    estimate: perf_model::estimate(&work, &rates),
                    no_kernel: None,
                }
            }
            Err(why) => GeneratedKernel {
                name: launch.name.clone(),
                cores: 0,
                ddr_bytes: launch.unique_bytes,
                unique_bytes: launch.unique_bytes,
                roofline_s: rates.roofline_s(launch.unique_bytes),
                estimate: perf_model::estimate(&launch.work, &rates),
                no_kernel: Some(why),
            },
        };
        out.totals.add(launch.work.launches, &g.estimate);
        out.generated.push(g);
    }
    out
}

/// Runs dit-opt on `file` with `args`; its stdout (the module) and stderr (the report).
pub fn run_dit_opt(dit_opt: &Path, file: &Path, args: &[&str]) -> Result<(String, String), String> {
    let out = Command::new(dit_opt)
        .arg(file)
        .args(args)
        .args(["-o", "-"])
        .output()
        .map_err(|e| format!("cannot run {}: {e}", dit_opt.display()))?;
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    if !out.status.success() {
        return Err(format!(
            "dit-opt {} {} failed ({}): {}",
            file.display(),
            args.join(" "),
            out.status,
            stderr.trim()
        ));
    }
    Ok((String::from_utf8_lossy(&out.stdout).into_owned(), stderr))
}

/// Parses `text` and models it.
pub fn model_text(text: &str, target: &Target) -> Result<ModuleModel, String> {
    let context = dit_dialect::new_context().map_err(|e| e.to_string())?;
    let module = dit_dialect::parse_module(&context, text)
        .ok_or_else(|| "dit-opt's output does not parse".to_string())?;
    Ok(model_module(Op::of_module(&module), target))
}

/// The `kernels_before` / `kernels_after` of dit-opt's JSON fusion report (on stderr).
fn report_kernels(stderr: &str) -> Result<(usize, usize), String> {
    let start = stderr
        .find('{')
        .ok_or_else(|| format!("no JSON report in dit-opt's stderr: {stderr}"))?;
    let json: serde_json::Value = serde_json::Deserializer::from_str(&stderr[start..])
        .into_iter::<serde_json::Value>()
        .next()
        .ok_or("empty report")?
        .map_err(|e| format!("the fusion report is not JSON: {e}"))?;
    let count = |key: &str| {
        json.get(key)
            .and_then(|v| v.as_u64())
            .map(|v| v as usize)
            .ok_or_else(|| format!("the fusion report has no {key}"))
    };
    Ok((count("kernels_before")?, count("kernels_after")?))
}

/// Models one block: the imported graph, and the graph after `--fuse-all`, both for
/// `target_arg` (a `--target=` value dit-opt and [`Target::resolve`] both take).
pub fn model_block(
    dit_opt: &Path,
    root: &Path,
    block: Block,
    target_arg: &str,
    target: &Target,
) -> Result<BlockModel, String> {
    let file = root.join(block.file);
    let target_flag = format!("--target={target_arg}");
    let (before_text, _) = run_dit_opt(
        dit_opt,
        &file,
        &["--dit-convert-torch-to-dit", &target_flag],
    )?;
    let (after_text, report) = run_dit_opt(
        dit_opt,
        &file,
        &[
            "--dit-convert-torch-to-dit",
            "--fuse-all",
            &target_flag,
            "--fusion-report=json",
        ],
    )?;
    Ok(BlockModel {
        block,
        before: model_text(&before_text, target)?,
        after: model_text(&after_text, target)?,
        report_kernels: report_kernels(&report)?,
    })
}

/// The one-line description of a target's rates, as the benchmark prints it.
pub fn describe_rates(t: &Target) -> String {
    let r = Rates::of(t);
    format!(
        "{} ({}): HBM {:.2} TB/s; vector {} AIV x {} B/cycle ({} f32 lanes) x {:.2} GHz = {:.2} Tops/s f32; \
         cube {} AIC x {} flop/cycle = {:.1} TFLOPS f16/bf16, {:.1} TOPS int8; launch overhead {:.1} µs \
         (sources: dialects/dit/src/target.rs)",
        t.name,
        t.products,
        r.ddr_bytes_per_s / 1e12,
        t.vector_cores,
        t.vector_bytes_per_cycle,
        t.vector_bytes_per_cycle / 4,
        t.core_hz as f64 / 1e9,
        r.vector_f32_per_core_s * r.vector_cores / 1e12,
        t.cube_cores,
        t.cube_f16_flops_per_cycle,
        r.cube_f16_flops_per_s / 1e12,
        r.cube_int8_ops_per_s / 1e12,
        r.launch_s * 1e6
    )
}

/// A bound's short name for the tables.
pub fn bound_name(b: Bound) -> &'static str {
    match b {
        Bound::Ddr => "DDR",
        Bound::DdrBusiestCore => "DDR, busiest core",
        Bound::Vector => "vector",
        Bound::Cube => "cube",
    }
}
