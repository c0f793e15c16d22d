//! A context on the CANN backend keeps tensors on the device for a whole call: a small graph
//! (linear with bias, a split into strided views, silu, mul, rms_norm, a matmul of a transposed
//! strided view, attention) runs twice on one context against the stand-in CANN, computing
//! through the stand-in's compute callback (dit's CPU reference, so values prove the data path,
//! not CANN's numerics), and its results match the CPU backend. The stand-in's log shows the
//! protocol: every input uploaded once per call, one stream synchronisation per call, each
//! output downloaded once, one workspace buffer reused by the second call, and no device memory
//! left at FINALIZE after the context is dropped.

mod standin_build;

use std::path::PathBuf;
use std::sync::Mutex;

use dit_runtime::context::{Context, Handle};
use dit_runtime::{DType, Tensor, TensorType};

/// The stand-in reads its log path from the environment: tests take turns.
static SERIAL: Mutex<()> = Mutex::new(());

/// Builds the stand-in into a temporary directory, logging to its `calls.log`.
fn build_standin() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    standin_build::compile_standin(dir.path());
    let log = dir.path().join("calls.log");
    std::fs::write(&log, "").expect("log file");
    (dir, log)
}

fn values(n: usize, seed: u64) -> Vec<f64> {
    // A small LCG: reproducible, spread over [-1, 1).
    let mut x = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((x >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        })
        .collect()
}

fn tensor(dtype: DType, shape: &[usize], seed: u64) -> Tensor {
    let n = shape.iter().product();
    Tensor::from_f64(dtype, shape, &values(n, seed)).expect("tensor")
}

fn ty(dtype: DType, shape: &[usize]) -> TensorType {
    TensorType::new(dtype, shape.to_vec())
}

const INPUTS: usize = 6;

/// The inputs of one call: x, weight, bias, gamma, w2, kv.
fn inputs() -> Vec<Tensor> {
    use DType::{BF16, F32};
    vec![
        tensor(F32, &[2, 4, 8], 1),
        tensor(F32, &[12, 8], 2),
        tensor(F32, &[12], 3),
        tensor(F32, &[6], 4),
        tensor(F32, &[5, 4], 5),
        tensor(BF16, &[1, 4, 2, 8], 6),
    ]
}

/// One call of the graph, as lowered code makes it: wrap the inputs, launch, read the outputs,
/// release everything, check the status.
fn call(ctx: &mut Context, inputs: &[Tensor]) -> Vec<Tensor> {
    use DType::{BF16, F32};
    let h: Vec<Handle> = inputs
        .iter()
        .map(|t| ctx.wrap(t.clone()).expect("wrap"))
        .collect();
    let mut live = h.clone();
    let launch =
        |ctx: &mut Context, op: &str, attrs: &str, ins: &[Option<Handle>], out: TensorType| {
            let o = ctx.alloc(out).expect("alloc");
            ctx.launch(op, "", attrs, ins, &[o])
                .unwrap_or_else(|e| panic!("{op}: {e}"));
            o
        };
    // y = x·wᵀ + b: aclnnAddmm over Flatten2d views.
    let y = launch(
        ctx,
        "dit.linear",
        r#"{"operandSegmentSizes":[1,1,1]}"#,
        &[Some(h[0]), Some(h[1]), Some(h[2])],
        ty(F32, &[2, 4, 12]),
    );
    // Split the last dim: two strided views of y, no copy.
    let gate = ctx.view(y, F32, &[2, 4, 6], &[48, 12, 1], 0).expect("view");
    let up = ctx.view(y, F32, &[2, 4, 6], &[48, 12, 1], 6).expect("view");
    // aclnnSilu and aclnnMul take contiguous tensors: the runtime copies the views on the
    // device first.
    let s = launch(ctx, "dit.silu", "{}", &[Some(gate)], ty(F32, &[2, 4, 6]));
    let m = launch(
        ctx,
        "dit.mul",
        "{}",
        &[Some(s), Some(up)],
        ty(F32, &[2, 4, 6]),
    );
    let r = launch(
        ctx,
        "dit.rms_norm",
        r#"{"epsilon":1e-6}"#,
        &[Some(m), Some(h[3])],
        ty(F32, &[2, 4, 6]),
    );
    // A transposed strided view into a matmul: aclnnMatmul takes it strided (no copy).
    let rt = ctx.view(r, F32, &[2, 6, 4], &[24, 1, 6], 0).expect("view");
    let mm = launch(
        ctx,
        "dit.matmul",
        r#"{"transpose_a":false,"transpose_b":true}"#,
        &[Some(rt), Some(h[4])],
        ty(F32, &[2, 6, 5]),
    );
    // Attention on BSND views of one tensor (q = k = v).
    let att = launch(
        ctx,
        "dit.attention",
        r#"{"layout":"BSND","scale":0.35,"operandSegmentSizes":[1,1,1,0]}"#,
        &[Some(h[5]), Some(h[5]), Some(h[5]), None],
        ty(BF16, &[1, 4, 2, 8]),
    );
    live.extend([y, gate, up, s, m, r, rt]);
    let outs: Vec<Tensor> = [mm, att]
        .iter()
        .map(|o| ctx.read(*o).expect("read"))
        .collect();
    for t in live.into_iter().chain([mm, att]) {
        ctx.release(t).expect("release");
    }
    ctx.synchronize().expect("status");
    assert_eq!(ctx.live_tensors(), 0);
    outs
}

fn cosine(a: &[f64], b: &[f64]) -> f64 {
    let dot: f64 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let na = a.iter().map(|x| x * x).sum::<f64>().sqrt();
    let nb = b.iter().map(|x| x * x).sum::<f64>().sqrt();
    dot / (na * nb)
}

/// A log line's `key=value` field.
fn field<'a>(line: &'a str, key: &str) -> &'a str {
    line.split(' ')
        .find_map(|w| w.strip_prefix(key).and_then(|v| v.strip_prefix('=')))
        .unwrap_or_else(|| panic!("no {key} in {line}"))
}

/// The log split into calls: a call starts at the first upload after a download.
fn calls(lines: &[String]) -> Vec<Vec<&str>> {
    let mut out: Vec<Vec<&str>> = vec![Vec::new()];
    let mut downloaded = false;
    for l in lines {
        if l.starts_with("MEMCPY H2D") && downloaded {
            out.push(Vec::new());
            downloaded = false;
        }
        downloaded |= l.starts_with("MEMCPY D2H");
        out.last_mut().expect("a call").push(l);
    }
    out
}

#[test]
fn a_graph_stays_on_the_device_and_matches_the_cpu_backend() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let (dir, log) = build_standin();
    std::env::set_var("DIT_CANN_STANDIN_LOG", &log);
    std::env::remove_var("DIT_CANN_STANDIN_PROTOCOL_ONLY");
    let inputs = inputs();
    let expected = call(&mut Context::cpu(), &inputs);

    let mut ctx = Context::cann(Some(dir.path())).expect("stand-in CANN loads");
    let first = call(&mut ctx, &inputs);
    let after_first = ctx.device_stats().expect("CANN stats");
    let second = call(&mut ctx, &inputs);
    let stats = ctx.device_stats().expect("CANN stats");
    drop(ctx);

    for got in [&first, &second] {
        for (j, (g, e)) in got.iter().zip(&expected).enumerate() {
            assert_eq!((g.dtype, &g.shape), (e.dtype, &e.shape), "output {j}");
            let c = cosine(&g.to_f64(), &e.to_f64());
            assert!(c >= 1.0 - 1.0 / 128.0, "output {j}: cosine {c}");
        }
    }
    // Same reference, same data path: the values agree exactly.
    assert_eq!(first, expected);
    assert_eq!(second, first);

    // Per call: 6 uploads, 2 downloads, 1 sync; the strided gate and up views are copied on
    // the device for aclnnSilu / aclnnMul (2 copies), the transposed view goes to aclnnMatmul
    // as it is.
    assert_eq!(after_first.uploads, INPUTS as u64);
    assert_eq!(after_first.downloads, 2);
    assert_eq!(after_first.syncs, 1);
    assert_eq!(after_first.device_copies, 2);
    assert_eq!(stats.uploads, 2 * INPUTS as u64);
    assert_eq!(stats.syncs, 2);
    assert_eq!(stats.device_copies, 4);
    // The workspace grows within the first call (attention asks for more than rms_norm) and
    // is reused as it is by the second.
    assert!(after_first.workspace_allocations >= 1);
    assert_eq!(
        stats.workspace_allocations, after_first.workspace_allocations,
        "no workspace allocation in the second call"
    );

    let lines: Vec<String> = std::fs::read_to_string(&log)
        .expect("log")
        .lines()
        .map(str::to_string)
        .collect();
    let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("ERROR")).collect();
    assert!(errors.is_empty(), "{errors:?}");
    let segments = calls(&lines);
    assert_eq!(segments.len(), 2, "two calls");
    let mut workspaces = Vec::new();
    for (k, seg) in segments.iter().enumerate() {
        let uploads: Vec<&str> = seg
            .iter()
            .filter(|l| l.starts_with("MEMCPY H2D"))
            .map(|l| field(l, "src"))
            .collect();
        let mut distinct = uploads.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(uploads.len(), INPUTS, "call {k}: one upload per input");
        assert_eq!(distinct.len(), INPUTS, "call {k}: no input uploaded twice");
        assert_eq!(
            seg.iter().filter(|l| **l == "SYNC").count(),
            1,
            "call {k}: one synchronisation"
        );
        // The sync comes before the first download, after the last kernel.
        let sync = seg.iter().position(|l| *l == "SYNC").expect("sync");
        let first_download = seg
            .iter()
            .position(|l| l.starts_with("MEMCPY D2H"))
            .expect("download");
        let last_run = seg.iter().rposition(|l| l.starts_with("RUN")).expect("run");
        assert!(last_run < sync && sync < first_download, "call {k}");
        assert_eq!(
            seg.iter().filter(|l| l.starts_with("MEMCPY D2H")).count(),
            2,
            "call {k}: each output downloaded once"
        );
        let ws: Vec<&str> = seg
            .iter()
            .filter(|l| l.starts_with("RUN ") && field(l, "ws") != "0")
            .map(|l| field(l, "wsptr"))
            .collect();
        assert!(!ws.is_empty(), "call {k} runs kernels with a workspace");
        workspaces.push(ws);
    }
    // The second call runs every kernel on one workspace address, the one the first call
    // ended with, allocated in the first call only.
    let second: std::collections::BTreeSet<&str> = workspaces[1].iter().copied().collect();
    assert_eq!(second.len(), 1, "one workspace buffer: {second:?}");
    let ws = second.into_iter().next().expect("workspace");
    assert_eq!(workspaces[0].last(), Some(&ws));
    let mallocs = |seg: &[&str]| {
        seg.iter()
            .filter(|l| l.starts_with("MALLOC") && field(l, "ptr") == ws)
            .count()
    };
    assert_eq!(mallocs(&segments[0]), 1);
    assert_eq!(
        mallocs(&segments[1]),
        0,
        "no workspace malloc in the second call"
    );
    assert_eq!(
        lines.last().map(String::as_str),
        Some("FINALIZE live_device=0")
    );
}

/// One dit.attention (BNSD, 3 queries, 5 keys) with the attributes `attrs`.
fn attend(ctx: &mut Context, inputs: &[Tensor], attrs: &str) -> Tensor {
    let h: Vec<Handle> = inputs
        .iter()
        .map(|t| ctx.wrap(t.clone()).expect("wrap"))
        .collect();
    let o = ctx.alloc(ty(DType::F32, &[1, 2, 3, 4])).expect("alloc");
    ctx.launch(
        "dit.attention",
        "",
        attrs,
        &[Some(h[0]), Some(h[1]), Some(h[2]), None],
        &[o],
    )
    .unwrap_or_else(|e| panic!("dit.attention: {e}"));
    let out = ctx.read(o).expect("read");
    for t in h.into_iter().chain([o]) {
        ctx.release(t).expect("release");
    }
    ctx.synchronize().expect("status");
    out
}

#[test]
fn causal_attention_passes_the_resident_sparse_mode_2_mask() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let (dir, log) = build_standin();
    std::env::set_var("DIT_CANN_STANDIN_LOG", &log);
    std::env::remove_var("DIT_CANN_STANDIN_PROTOCOL_ONLY");
    let inputs = [
        tensor(DType::F32, &[1, 2, 3, 4], 11),
        tensor(DType::F32, &[1, 2, 5, 4], 12),
        tensor(DType::F32, &[1, 2, 5, 4], 13),
    ];
    let causal = r#"{"scale":0.5,"causal":true,"operandSegmentSizes":[1,1,1,0]}"#;
    let full = r#"{"scale":0.5,"operandSegmentSizes":[1,1,1,0]}"#;
    let expected = attend(&mut Context::cpu(), &inputs, causal);
    assert_ne!(expected, attend(&mut Context::cpu(), &inputs, full));

    let mut ctx = Context::cann(Some(dir.path())).expect("stand-in CANN loads");
    let first = attend(&mut ctx, &inputs, causal);
    let after_first = ctx.device_stats().expect("CANN stats");
    let second = attend(&mut ctx, &inputs, causal);
    let stats = ctx.device_stats().expect("CANN stats");
    drop(ctx);
    // The stand-in rebuilt causal = true from sparseMode 2 and the mask it checked.
    assert_eq!(first, expected);
    assert_eq!(second, expected);
    // The 2048x2048 mask is uploaded once (with q, k, v) and stays on the device.
    assert_eq!(after_first.uploads, 4);
    assert_eq!(after_first.resident_constants, 1);
    assert_eq!(stats.uploads, 4 + 3);
    assert_eq!(stats.resident_constants, 1);
    let lines = std::fs::read_to_string(&log).expect("log");
    assert!(!lines.lines().any(|l| l.starts_with("ERROR")), "{lines}");
    let n = dit_runtime::kernels::CAUSAL_MASK_SIDE;
    let mask_uploads = lines
        .lines()
        .filter(|l| l.starts_with(&format!("MEMCPY H2D bytes={} ", n * n)))
        .count();
    assert_eq!(mask_uploads, 1, "the mask is uploaded once: {lines}");
    assert_eq!(lines.lines().last(), Some("FINALIZE live_device=0"));
}
