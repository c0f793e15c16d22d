//! The kernel_model benchmark's model: generated kernels costed by their tiling (hand-made
//! groups whose traffic is known), and the block model's launch count against dit-opt's report.

use dit_ascendc::TargetSpec;
use dit_bench::kernel_model::{self, generated_work, BLOCKS};
use dit_dialect::target::Target;
use dit_passes::analysis::perf_model::{estimate, Bound, Rates};
use std::path::{Path, PathBuf};

fn a2() -> &'static Target {
    Target::lookup("ascend910b").unwrap()
}

/// (DDR bytes as tiled, unique bytes, modeled device seconds, bound) of one group on the A2.
fn model(group: &str) -> (u64, u64, f64, Bound) {
    let t = a2();
    let spec = TargetSpec {
        name: t.name.to_string(),
        ub_bytes: t.ub_bytes,
        core_num: t.vector_cores,
    };
    let k = dit_ascendc::generate_from_json(group, &spec).expect("generates");
    let tiling = k.tiling(spec.ub_bytes, spec.core_num).expect("tiles");
    let (work, ddr) = generated_work(&k, &tiling);
    let unique: u64 = k
        .plan
        .inputs
        .iter()
        .chain(&k.plan.outputs)
        .map(|ty| {
            ty.shape.iter().product::<usize>() as u64 * dit_ascendc::layout::elem_bytes(ty.dtype)
        })
        .sum();
    let e = estimate(&work, &Rates::of(t));
    (ddr, unique, e.body_s, e.bound)
}

fn add_group(rows: usize) -> String {
    format!(
        r#"{{"kernel": "k_add", "body": {{
        "args": [{{"dtype": "bf16", "shape": [{rows}, 1024]}}, {{"dtype": "bf16", "shape": [{rows}, 1024]}}],
        "ops": [{{"name": "dit.add", "operands": [0, 1],
                 "results": [{{"dtype": "bf16", "shape": [{rows}, 1024]}}]}}],
        "yield": [2]}}}}"#
    )
}

#[test]
fn an_evenly_split_elementwise_kernel_sits_on_its_roofline() {
    // 96 rows on 48 cores: two each; two bf16 rows in, one out.
    let (ddr, unique, body, bound) = model(&add_group(96));
    assert_eq!(ddr, 3 * 96 * 1024 * 2);
    assert_eq!(unique, ddr);
    let roofline = Rates::of(a2()).roofline_s(unique);
    assert!((body / roofline - 1.0).abs() < 1e-9, "{body} vs {roofline}");
    assert!(
        matches!(bound, Bound::Ddr | Bound::DdrBusiestCore),
        "{bound:?}"
    );
}

#[test]
fn an_uneven_split_costs_the_busiest_core() {
    // 49 rows on 48 cores: one core takes 2 rows, so the kernel takes two rows' time at a
    // 48th of the bandwidth: 2 x 48 / 49 of its roofline.
    let (_, unique, body, bound) = model(&add_group(49));
    let ratio = body / Rates::of(a2()).roofline_s(unique);
    assert!((ratio - 96.0 / 49.0).abs() < 1e-9, "ratio {ratio}");
    assert_eq!(bound, Bound::DdrBusiestCore);
}

#[test]
fn an_invariant_operand_is_read_once_per_core() {
    let group = r#"{"kernel": "k_norm", "body": {
        "args": [{"dtype": "bf16", "shape": [96, 1024]}, {"dtype": "bf16", "shape": [1024]}],
        "ops": [{"name": "dit.rms_norm", "operands": [0, 1], "attrs": {"epsilon": 1e-6},
                 "results": [{"dtype": "bf16", "shape": [96, 1024]}]}],
        "yield": [2]}}"#;
    let (ddr, unique, _, _) = model(group);
    assert_eq!(unique, 2 * 96 * 1024 * 2 + 1024 * 2);
    // The gamma row once on each of the 48 cores.
    assert_eq!(ddr, 2 * 96 * 1024 * 2 + 48 * 1024 * 2);
}

/// dit-opt of this profile: DIT_OPT, else beside the test binary's deps/ directory, built with
/// cargo when missing.
fn dit_opt() -> PathBuf {
    if let Some(p) = std::env::var_os("DIT_OPT") {
        return PathBuf::from(p);
    }
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().and_then(Path::parent).unwrap().to_path_buf();
    let path = profile_dir.join(format!("dit-opt{}", std::env::consts::EXE_SUFFIX));
    if !path.exists() {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.toml");
        let mut cmd = std::process::Command::new(cargo);
        cmd.args(["build", "-p", "dit-opt", "--manifest-path"])
            .arg(&manifest);
        if profile_dir.file_name().is_some_and(|d| d == "release") {
            cmd.arg("--release");
        }
        assert!(cmd.status().unwrap().success(), "cargo build -p dit-opt");
    }
    path
}

#[test]
fn the_block_model_launches_what_the_report_counts() {
    let dit_opt = dit_opt();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let block = BLOCKS.iter().find(|b| b.name == "flux_double").unwrap();
    let m = kernel_model::model_block(&dit_opt, root, *block, "ascend910b", a2()).unwrap();
    assert_eq!(
        (m.before.totals.kernels, m.after.totals.kernels),
        m.report_kernels,
        "the model's launches against dit-opt's fusion report"
    );
    assert!(m.after.totals.kernels < m.before.totals.kernels);
    // Fusion saves launches and bytes: the modeled call gets faster, and every generated
    // kernel that exists moves at least its unique bytes.
    assert!(m.after.totals.total_s() < m.before.totals.total_s());
    assert!(!m.after.generated.is_empty());
    for g in m.after.generated.iter().filter(|g| g.no_kernel.is_none()) {
        assert!(g.ddr_bytes >= g.unique_bytes, "{g:?}");
        assert!(g.ratio() >= 1.0 - 1e-9, "{g:?}");
    }
    // The binary says the same and exits 0 (it exits 1 on a mismatch with the report).
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kernel_model"))
        .args(["--models", "flux_double", "--kernels", "none", "--dit-opt"])
        .arg(&dit_opt)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let row = format!(
        "| FLUX.1 double | {} -> {} | {} -> {} |",
        m.before.totals.kernels, m.after.totals.kernels, m.report_kernels.0, m.report_kernels.1
    );
    assert!(stdout.contains(&row), "{stdout}");
    assert!(stdout.contains("MODEL"), "{stdout}");
}
