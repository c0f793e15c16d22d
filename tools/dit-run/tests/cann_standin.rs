//! The fused FLUX double block (the shape-reduced exec copy after `--fuse-all`) runs end to end
//! on the CANN backend against the stand-in CANN of lowering/runtime/tests/standin: aclnn
//! operators compute through the stand-in's callback (dit's CPU reference) and the dit.fused
//! groups through their generated Ascend C kernels (the CPU-model build of the
//! `--emit=ascendc` project), launched through the library's host stub with stand-in device
//! pointers. Its outputs match the unfused graph on the CPU backend, and the stand-in's log
//! shows the protocol over two calls: every input uploaded once per call, one synchronisation
//! per call, each output downloaded once, the workspace reused, no device memory left.
//!
//! What rests on the stand-in: its values are dit's own reference, so this proves the data
//! path (argument slots, views, residency, launches), not CANN's numerics.

mod tools;
use tools::{build_tools, root, run};

#[path = "../../../lowering/runtime/tests/standin_build/mod.rs"]
mod standin_build;

use std::collections::BTreeSet;
use std::process::Command;

fn field<'a>(line: &'a str, key: &str) -> &'a str {
    line.split(' ')
        .find_map(|w| w.strip_prefix(key).and_then(|v| v.strip_prefix('=')))
        .unwrap_or_else(|| panic!("no {key} in {line}"))
}

#[test]
fn fused_flux_block_runs_on_the_standin_cann_like_the_cpu_backend() {
    let bin = build_tools(&["dit-opt"]);
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let model = root().join("test/models/exec/flux_double_block.mlir");
    let fused = d.join("fused.mlir");
    run(Command::new(bin.join("dit-opt"))
        .arg("--fuse-all")
        .arg(&model)
        .arg("-o")
        .arg(&fused));
    let project = d.join("ascendc");
    run(Command::new(bin.join("dit-opt"))
        .arg(&fused)
        .arg("--emit=ascendc")
        .arg("-o")
        .arg(&project));
    let build = project.join("build");
    run(Command::new("cmake")
        .arg("-S")
        .arg(&project)
        .arg("-B")
        .arg(&build)
        .arg("-DDIT_CPU_MODEL=ON"));
    run(Command::new("cmake").arg("--build").arg(&build));
    let kernels = build.join("libdit_kernels.so");
    let standin = d.join("standin");
    std::fs::create_dir_all(&standin).expect("dir");
    standin_build::compile_standin(&standin);
    let log = d.join("calls.log");
    std::fs::write(&log, "").expect("log");

    // The unfused graph on the CPU backend is the reference; the fused one runs on CANN, init
    // entry once and the per-call entry twice on one context.
    let out = run(Command::new(env!("CARGO_BIN_EXE_dit-run"))
        .arg(&fused)
        .arg("--reference")
        .arg(&model)
        .args(["--reference-backend=cpu", "--backend=cann", "--calls=2"])
        .arg("--cann-dir")
        .arg(&standin)
        .env("DIT_ASCENDC_KERNELS", &kernels)
        .env("DIT_CANN_STANDIN_LOG", &log)
        .env_remove("DIT_CANN_STANDIN_PROTOCOL_ONLY"));
    let cosines: Vec<f64> = out
        .lines()
        .filter_map(|l| l.split("cosine ").nth(1))
        .map(|c| c.split(' ').next().unwrap().parse().expect("a cosine"))
        .collect();
    assert_eq!(cosines.len(), 2, "{out}");
    assert!(cosines.iter().all(|c| *c >= 1.0 - 1.0 / 128.0), "{out}");
    assert!(!out.contains("FAIL"), "{out}");

    let text = std::fs::read_to_string(&log).expect("log");
    let lines: Vec<&str> = text.lines().collect();
    let errors: Vec<&&str> = lines.iter().filter(|l| l.starts_with("ERROR")).collect();
    assert!(errors.is_empty(), "{errors:?}");
    // No launch the cost model does not count: dit-run compared its launch count with the
    // device's own (aclnn operators run + generated kernels), and the backend added no copies.
    assert!(
        !text.contains("aclnnInplaceCopy"),
        "the backend copied a view for a kernel"
    );
    // The generated kernels ran, and so did aclnn operators: a mixed graph.
    assert!(lines
        .iter()
        .any(|l| l.starts_with("RUN aclnnFusedInferAttentionScoreV2")));
    // Segments end at each synchronisation, with the downloads that follow it: the init
    // entry, then one per call.
    // (Frees are left out: the sync frees released memory before the downloads.)
    let mut segments: Vec<Vec<&str>> = vec![Vec::new()];
    for l in lines.iter().filter(|l| !l.starts_with("FREE")) {
        let after_sync = segments
            .last()
            .is_some_and(|s| s.contains(&"SYNC") && !l.starts_with("MEMCPY D2H"));
        if after_sync {
            segments.push(Vec::new());
        }
        segments.last_mut().expect("segment").push(l);
    }
    // init, call 1, call 2, teardown.
    assert_eq!(segments.len(), 4, "one synchronisation per entry call");
    let init = &segments[0];
    assert!(
        !init.iter().any(|l| l.starts_with("MEMCPY D2H")),
        "init reads nothing back"
    );
    let mut upload_sets = Vec::new();
    let mut workspaces = Vec::new();
    for (k, seg) in segments[1..3].iter().enumerate() {
        let sync = seg.iter().position(|l| *l == "SYNC").expect("sync");
        assert!(
            seg[..sync].iter().any(|l| l.starts_with("RUN")),
            "call {k} runs aclnn operators before its one sync"
        );
        // Each output downloaded once, after the sync.
        let downloads = seg.iter().filter(|l| l.starts_with("MEMCPY D2H")).count();
        assert_eq!(downloads, 2, "call {k}");
        assert!(seg[sync + 1..].iter().all(|l| l.starts_with("MEMCPY D2H")));
        // Each input uploaded once: distinct host buffers, the same ones in both calls.
        let srcs: Vec<&str> = seg
            .iter()
            .filter(|l| l.starts_with("MEMCPY H2D"))
            .map(|l| field(l, "src"))
            .collect();
        let set: BTreeSet<&str> = srcs.iter().copied().collect();
        assert_eq!(set.len(), srcs.len(), "call {k}: an input uploaded twice");
        assert!(!srcs.is_empty());
        upload_sets.push(set);
        workspaces.push(
            seg.iter()
                .filter(|l| l.starts_with("RUN ") && field(l, "ws") != "0")
                .map(|l| field(l, "wsptr"))
                .collect::<BTreeSet<&str>>(),
        );
    }
    assert_eq!(
        upload_sets[0], upload_sets[1],
        "both calls upload the same inputs"
    );
    // Weights the init entry pre-packed stay on the device: no call uploads them again.
    let init_uploads: BTreeSet<&str> = init
        .iter()
        .filter(|l| l.starts_with("MEMCPY H2D"))
        .map(|l| field(l, "src"))
        .collect();
    assert!(!init_uploads.is_empty(), "init uploads what it pre-packs");
    for (k, set) in upload_sets.iter().enumerate() {
        let again: Vec<&&str> = set.intersection(&init_uploads).collect();
        assert!(
            again.is_empty(),
            "call {k} uploads pre-packed inputs again: {again:?}"
        );
    }
    // The second call reuses the one workspace buffer: it allocates none of its own.
    assert_eq!(workspaces[1].len(), 1, "{:?}", workspaces[1]);
    let ws = *workspaces[1].iter().next().expect("workspace");
    assert!(!segments[2]
        .iter()
        .any(|l| l.starts_with("MALLOC") && field(l, "ptr") == ws));
    assert_eq!(lines.last().copied(), Some("FINALIZE live_device=0"));
}

/// A weight the kernel takes in FRACTAL_NZ (grouped matmul + SwiGLU + quant on Atlas A2, the
/// WeightNZ operator): the init entry re-lays it once, and every call passes the NZ copy, which
/// the stand-in sees as an FRACTAL_NZ aclTensor with the documented fractal dims.
#[test]
fn nz_weight_is_pre_packed_once_and_runs_on_the_standin() {
    let bin = build_tools(&["dit-opt"]);
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let text = std::fs::read_to_string(root().join("test/Patterns/moe.mlir")).expect("moe");
    let unfused = d.join("gmm.mlir");
    let chunk = text
        .split("\n// -----\n")
        .find(|c| c.contains("func.func @gmm_weight_argument("))
        .expect("the weight-argument chunk");
    std::fs::write(&unfused, chunk).expect("write");
    let fused = d.join("fused.mlir");
    run(Command::new(bin.join("dit-opt"))
        .arg(&unfused)
        .args(["--dit-fuse-patterns", "--fuse=swiglu,gmm_swiglu", "-o"])
        .arg(&fused));
    let standin = d.join("standin");
    std::fs::create_dir_all(&standin).expect("dir");
    standin_build::compile_standin(&standin);
    let log = d.join("calls.log");
    std::fs::write(&log, "").expect("log");
    let out = run(Command::new(env!("CARGO_BIN_EXE_dit-run"))
        .arg(&fused)
        .arg("--reference")
        .arg(&unfused)
        .args(["--reference-backend=cpu", "--backend=cann", "--calls=2"])
        .arg("--cann-dir")
        .arg(&standin)
        .env("DIT_CANN_STANDIN_LOG", &log)
        .env_remove("DIT_CANN_STANDIN_PROTOCOL_ONLY"));
    assert!(out.contains("init 1 launches"), "{out}");
    assert_eq!(out.matches(" ok").count(), 2, "{out}");
    let text = std::fs::read_to_string(&log).expect("log");
    let calls: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("CALL aclnnGroupedMatmulSwigluQuantWeightNZGetWorkspaceSize"))
        .collect();
    assert_eq!(calls.len(), 2, "one call per inference: {text}");
    for c in calls {
        // [E, K, N] = [8, 128, 256] int8 as [E, N/32, K/16, 16, 32].
        assert!(c.contains("weight=T{dt=2,fmt=29,view=[8,8,8,16,32]"), "{c}");
    }
    assert!(!text.contains("ERROR"), "{text}");
}
