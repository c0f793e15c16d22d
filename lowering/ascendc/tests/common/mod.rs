//! Helpers of the end-to-end tests: the dit.fused groups of a .mlir file (after a pipeline,
//! in-process), running generated kernels on the CPU model, and comparing with the reference.

#![allow(dead_code)]

use dit_ascendc::{cpu_model::Library, Kernel, TargetSpec};
use dit_dialect::ir::Op;
use dit_passes::{FusionReport, PassContext, PipelineOptions, PipelineStep};
use dit_runtime::{fused::FusedOp, DType, Tensor};
use melior::ir::Module;
use std::path::{Path, PathBuf};

/// The repository root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The target of the tests: ascend910b's UB and vector cores.
pub fn target() -> TargetSpec {
    let t = dit_dialect::Target::default_target();
    TargetSpec::with_vector_cores(t.name, t.ub_bytes, t.vector_cores)
}

fn steps(pipeline: &str) -> Vec<PipelineStep> {
    if pipeline.is_empty() {
        return Vec::new();
    }
    if let Some(named) = dit_passes::PIPELINES.iter().find(|p| p.flag == pipeline) {
        return named
            .passes
            .iter()
            .map(|flag| PipelineStep {
                info: dit_passes::lookup(flag).expect("pipeline pass"),
                options: Vec::new(),
            })
            .collect();
    }
    vec![PipelineStep {
        info: dit_passes::lookup(pipeline).expect("a pass flag"),
        options: Vec::new(),
    }]
}

/// The launch attributes (JSON) of every dit.fused in `text` after `pipeline` (a named
/// pipeline such as `fuse-all`, a pass flag, or "" for none), chunk by chunk when `split`.
pub fn fused_groups(text: &str, pipeline: &str, split: bool) -> Vec<String> {
    let chunks: Vec<String> = if split {
        text.split("\n// -----").map(|c| c.to_string()).collect()
    } else {
        vec![text.to_string()]
    };
    let mut out = Vec::new();
    for chunk in chunks {
        let context = dit_dialect::new_context().expect("dit context");
        let mut module = Module::parse(&context, &chunk).expect("the test input parses");
        let options = PipelineOptions {
            context: PassContext {
                report: FusionReport::default(),
                switches: Default::default(),
                target: dit_dialect::Target::default_target(),
            },
            print_ir_after_all: false,
            timing: false,
        };
        let st = steps(pipeline);
        if !st.is_empty() {
            dit_passes::run_pipeline(&mut module, &st, &options).expect("the pipeline runs");
        }
        let root = Op::of_module(&module);
        let mut fused = Vec::new();
        root.walk(&mut |op| {
            if op.is("dit.fused") {
                fused.push(op);
            }
        });
        for op in fused {
            let body = dit_passes::conversion::dit_lower_to_aclnn::fused_body(op)
                .unwrap_or_else(|(_, m)| panic!("fused body: {m}"));
            let kernel = op
                .attr("kernel")
                .and_then(|a| a.as_str())
                .expect("kernel attribute");
            out.push(serde_json::json!({"kernel": kernel, "body": body}).to_string());
        }
    }
    out
}

/// Reads a file of the repository.
pub fn read(rel: &str) -> String {
    std::fs::read_to_string(repo().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Whether every op from the inputs to yield `y` is exact in f32 (data movement, sign, relu,
/// casts), so the kernel must match the reference bit for bit.
pub fn exact_output(f: &FusedOp, y: usize) -> bool {
    let n_args = f.args.len();
    // The op defining each value id (a split's pieces share one).
    let def: Vec<usize> = f
        .ops
        .iter()
        .enumerate()
        .flat_map(|(k, op)| std::iter::repeat_n(k, op.results.len()))
        .collect();
    let mut stack = vec![f.yields[y]];
    while let Some(v) = stack.pop() {
        if v < n_args {
            continue;
        }
        let op = &f.ops[def[v - n_args]];
        if !matches!(
            op.name.as_str(),
            "dit.concat" | "dit.cast" | "dit.neg" | "dit.relu" | "dit.split"
        ) {
            return false;
        }
        stack.extend(op.operands.iter().flatten());
    }
    true
}

/// Cosine similarity (1 when both are all zero).
pub fn cosine(a: &[f64], b: &[f64]) -> f64 {
    let dot: f64 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let na: f64 = a.iter().map(|x| x * x).sum();
    let nb: f64 = b.iter().map(|x| x * x).sum();
    if na == 0.0 && nb == 0.0 {
        return 1.0;
    }
    dot / (na.sqrt() * nb.sqrt())
}

/// The acceptance bar: cosine ≥ 1 - 2⁻⁷.
pub const MIN_COSINE: f64 = 1.0 - 1.0 / 128.0;

/// Random inputs of a group, in (-2, 2) (positive where the group takes a square root).
pub fn inputs(f: &FusedOp, seed: u64) -> Vec<Tensor> {
    f.args
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let positive = f.ops.iter().any(|op| {
                matches!(op.name.as_str(), "dit.sqrt" | "dit.rsqrt")
                    && op.operands.first() == Some(&Some(i))
            });
            let range = if positive { (0.1, 2.0) } else { (-2.0, 2.0) };
            Tensor::random(t.clone(), seed.wrapping_add(i as u64 * 7919), range)
        })
        .collect()
}

/// Builds the CPU model of `kernel` (a generated kernel whose source a test has changed), runs
/// it on `cores` cores with the target's whole UB on inputs of `seed`, and compares with the
/// reference of its body: the mismatch the tests expect a corrupted kernel to show.
pub fn check_corrupted(
    kernel: &Kernel,
    target: &TargetSpec,
    seed: u64,
    cores: u32,
) -> Result<(), String> {
    let dir = tempfile::tempdir().unwrap();
    let lib = dit_ascendc::cpu_model::build(dir.path(), std::slice::from_ref(kernel), target);
    let lib = Library::open(&lib.unwrap()).unwrap();
    let inputs = inputs(&kernel.fused, seed);
    let refs: Vec<Option<&Tensor>> = inputs.iter().map(Some).collect();
    let expected = kernel.fused.run_cpu(&refs).unwrap();
    check_once(
        &lib,
        kernel,
        cores,
        target.ub_bytes as u32,
        &inputs,
        &expected,
    )
}

/// Runs `kernel` from `lib` with `cores` cores and `ub` UB bytes on `inputs`, and compares
/// with the reference. Returns a description of the first mismatch.
pub fn check_once(
    lib: &Library,
    kernel: &Kernel,
    cores: u32,
    ub: u32,
    inputs: &[Tensor],
    expected: &[Tensor],
) -> Result<(), String> {
    let f = &kernel.fused;
    let refs: Vec<&Tensor> = inputs.iter().collect();
    let got = lib.launch(&f.kernel, cores, ub, &refs, &kernel.outputs())?;
    for (j, (g, e)) in got.iter().zip(expected).enumerate() {
        let (gv, ev) = (g.to_f64(), e.to_f64());
        if let Some(i) = (0..gv.len()).find(|i| ev[*i].is_finite() && !gv[*i].is_finite()) {
            return Err(format!(
                "output {j}: element {i} is {} (reference {})",
                gv[i], ev[i]
            ));
        }
        if exact_output(f, j) {
            if let Some(i) = (0..gv.len()).find(|i| g.get_bits(*i) != e.get_bits(*i)) {
                return Err(format!(
                    "output {j} must be exact: element {i} is {} (reference {})",
                    gv[i], ev[i]
                ));
            }
        }
        let c = cosine(&gv, &ev);
        if c.is_nan() || c < MIN_COSINE {
            return Err(format!("output {j}: cosine {c} < 1 - 2^-7"));
        }
    }
    Ok(())
}

/// UB sizes that give tiles of about `rows` rows for every stage of `kernel` (the largest UB a
/// tile of `rows` rows takes, its groups' shared rows included), never more than the target's.
pub fn ub_for_rows(kernel: &Kernel, rows: u64, ub: u64) -> u32 {
    let need = kernel
        .layouts
        .iter()
        .map(|l| l.ub_bytes(rows))
        .max()
        .unwrap_or(0);
    need.min(ub) as u32
}

/// Runs every kernel with several core counts and tile sizes (whole rows, tiles of 2 and 3
/// rows, which leave tails) and checks each against the reference. Returns the number of
/// launches, and panics with every mismatch.
pub fn check_all(lib: &Library, kernels: &[Kernel], target: &TargetSpec) -> usize {
    let mut failures = Vec::new();
    let mut launches = 0;
    for (n, k) in kernels.iter().enumerate() {
        let inputs = inputs(&k.fused, 17 + n as u64);
        let refs: Vec<Option<&Tensor>> = inputs.iter().map(Some).collect();
        let expected = k.fused.run_cpu(&refs).expect("the reference runs");
        let mut tails = false;
        for cores in [1u32, 3, 8, 40] {
            for tile in [0u64, 2, 3, 4] {
                let ub = if tile == 0 {
                    target.ub_bytes as u32
                } else {
                    ub_for_rows(k, tile, target.ub_bytes)
                };
                let t = k.tiling(u64::from(ub), u64::from(cores)).expect("it fits");
                tails |= t.stages.iter().any(|s| {
                    let big = s.big_core_num > 0 && s.big_core_rows % s.tile_rows != 0;
                    let small = s.small_core_rows > 0 && s.small_core_rows % s.tile_rows != 0;
                    big || small
                });
                launches += 1;
                if let Err(e) = check_once(lib, k, cores, ub, &inputs, &expected) {
                    failures.push(format!(
                        "{} ({} cores, UB {ub}): {e}",
                        k.fused.kernel, cores
                    ));
                }
            }
        }
        let rows: u64 = k.plan.stages.iter().map(|s| s.rows).max().unwrap_or(1);
        assert!(
            tails || rows < 4,
            "{}: no configuration left a partial last tile",
            k.fused.kernel
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    launches
}

/// Generates the kernels of `groups`, builds them against the CPU model in a temporary
/// directory, and checks them all; returns (kernels, launches).
pub fn generate_build_check(label: &str, groups: &[String]) -> (usize, usize) {
    generate_build_check_for(label, groups, &target())
}

/// [`generate_build_check`] for another target (a smaller UB).
pub fn generate_build_check_for(
    label: &str,
    groups: &[String],
    target: &TargetSpec,
) -> (usize, usize) {
    let target = target.clone();
    let kernels: Vec<Kernel> = groups
        .iter()
        .map(|g| {
            dit_ascendc::generate_from_json(g, &target).unwrap_or_else(|e| panic!("{label}: {e}"))
        })
        .collect();
    // DIT_ASCENDC_KEEP=DIR keeps the generated project in DIR/<label> for a look.
    let dir = tempfile::tempdir().expect("temp dir");
    let path = match std::env::var_os("DIT_ASCENDC_KEEP") {
        Some(keep) => Path::new(&keep).join(label),
        None => dir.path().to_path_buf(),
    };
    let lib_path = dit_ascendc::cpu_model::build(&path, &kernels, &target)
        .unwrap_or_else(|e| panic!("{label}: {e}"));
    let lib = Library::open(&lib_path).expect("load");
    let launches = check_all(&lib, &kernels, &target);
    (kernels.len(), launches)
}

/// Bits equality of two tensors of one type.
pub fn same_bits(a: &Tensor, b: &Tensor) -> bool {
    a.dtype == b.dtype && a.data == b.data
}

/// Element type helper for ad-hoc bodies.
pub fn dtype(name: &str) -> DType {
    DType::from_mlir_name(name).expect("dtype")
}
