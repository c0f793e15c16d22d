//! parse_verify_print: how long dit takes to parse, verify and print generated FLUX-like
//! graphs of 1, 8 and 64 blocks, in process and as a `dit-opt` process, against
//! `mlir-opt --irdl-file=dit.irdl.mlir` on the same text.
//!
//! Usage: `cargo run --release -p dit-bench --bin parse_verify_print [-- --quick]`
//!
//! Exits non-zero when the 64-block in-process time exceeds 1 s, when 64 blocks take more than
//! 9x the time of 8, or when any tool rejects the generated graph. `--quick` runs 1 and 8
//! blocks once each (a smoke test; the checks that need 64 blocks are skipped).
//!
//! Environment: `DIT_OPT` (dit-opt binary; default next to this binary, built when missing),
//! `MLIR_OPT` (default /usr/lib/llvm-22/bin/mlir-opt; the peer is skipped when absent).

/// The allocator dit-opt uses, so in-process numbers match the tool's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use dit_bench::{generate, median, parse_verify_print, Graph, PhaseTimes};
use std::{
    path::{Path, PathBuf},
    process::{Command, ExitCode, Stdio},
    time::{Duration, Instant},
};

use dit_bench::process::{find_dit_opt, DEFAULT_MLIR_OPT};
/// The 64-block in-process limit.
const LIMIT_64: Duration = Duration::from_secs(1);
/// The 64-vs-8 time ratio limit (linear scaling is 8).
const LIMIT_RATIO: f64 = 9.0;

/// One graph size and everything measured on it.
struct Case {
    blocks: usize,
    graph: Graph,
    file: PathBuf,
    /// In-process samples (timed runs only).
    phases: Vec<PhaseTimes>,
    /// dit verifier violations of the first run.
    violations: Vec<String>,
    dit_opt: Vec<Duration>,
    mlir_opt: Vec<Duration>,
}

/// One row of the table: medians.
struct Row {
    blocks: usize,
    ops: usize,
    runs: usize,
    phases: PhaseTimes,
    total: Duration,
    dit_opt: Option<Duration>,
    mlir_opt: Option<Duration>,
}

/// In-process runs per round: small graphs get more, so every size gets a stable median.
fn reps_per_round(blocks: usize) -> usize {
    match blocks {
        0..=1 => 16,
        2..=8 => 4,
        _ => 1,
    }
}

/// Timed rounds. Sizes are measured round-robin (1, 8, 64, 1, 8, 64, ...), so a burst of load
/// from elsewhere on the machine hits every size alike instead of skewing the 64-vs-8 ratio.
const ROUNDS: usize = 9;
/// Rounds when a 64-block run takes longer than [`SLOW_RUN`] (the check fails anyway).
const SLOW_ROUNDS: usize = 3;
const SLOW_RUN: Duration = Duration::from_secs(2);
/// Process rounds (each runs dit-opt and mlir-opt once per size).
const PROCESS_ROUNDS: usize = 7;

fn main() -> ExitCode {
    let mut quick = false;
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--quick" => quick = true,
            "-h" | "--help" => {
                println!("usage: parse_verify_print [--quick]\n  --quick  1 and 8 blocks, one run each (smoke test)");
                return ExitCode::SUCCESS;
            }
            other => {
                eprintln!("parse_verify_print: unknown argument '{other}' (try --help)");
                return ExitCode::from(2);
            }
        }
    }
    match run(quick) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("parse_verify_print: error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs the benchmark; `Ok(false)` when a check failed.
fn run(quick: bool) -> Result<bool, String> {
    let sizes: &[usize] = if quick { &[1, 8] } else { &[1, 8, 64] };
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    println!(
        "dit parse + verify + print on generated FLUX.1-dev-like graphs ({} mode, {cores} CPU cores)",
        if quick { "quick" } else { "full" }
    );
    println!("block = 1 double-stream + 3 single-stream FLUX blocks, chained in one func.func; times are medians\n");

    let context = dit_dialect::new_context().map_err(|e| e.to_string())?;
    let dir = tempfile::tempdir().map_err(|e| format!("cannot create a temp dir: {e}"))?;
    let irdl = dir.path().join("dit.irdl.mlir");
    std::fs::write(&irdl, dit_bench::PEER_IRDL)
        .map_err(|e| format!("cannot write {}: {e}", irdl.display()))?;
    let dit_opt = find_dit_opt();
    let mlir_opt = find_mlir_opt();

    let mut cases = Vec::new();
    for &blocks in sizes {
        let graph = generate(blocks);
        let file = dir.path().join(format!("flux_{blocks}_blocks.mlir"));
        std::fs::write(&file, &graph.text)
            .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
        if blocks == 1 {
            println!(
                "1 block = {} ops ({} function arguments, {} KiB of MLIR text)",
                graph.ops,
                graph.args,
                graph.text.len() / 1024
            );
        }
        cases.push(Case {
            blocks,
            graph,
            file,
            phases: Vec::new(),
            violations: Vec::new(),
            dit_opt: Vec::new(),
            mlir_opt: Vec::new(),
        });
    }
    println!();

    // ---- in process: one untimed round (also the verifier's verdict), then timed rounds.
    let mut slowest = Duration::ZERO;
    for case in &mut cases {
        let r = parse_verify_print(&context, &case.graph.text)?;
        case.violations = r.violations;
        slowest = slowest.max(r.times.total());
        if quick {
            case.phases.push(r.times);
        }
    }
    let rounds = if quick {
        0
    } else if slowest > SLOW_RUN {
        SLOW_ROUNDS
    } else {
        ROUNDS
    };
    for _ in 0..rounds {
        for case in &mut cases {
            for _ in 0..reps_per_round(case.blocks) {
                case.phases
                    .push(parse_verify_print(&context, &case.graph.text)?.times);
            }
        }
    }
    let mut ok = true;
    for case in &cases {
        if !case.violations.is_empty() {
            eprintln!(
                "the dit verifier rejected the {}-block graph ({} violations), e.g.:",
                case.blocks,
                case.violations.len()
            );
            for v in case.violations.iter().take(5) {
                eprintln!("  {v}");
            }
            ok = false;
        }
    }

    // ---- whole processes: one untimed round, then timed rounds (one quick round).
    let irdl_arg = format!("--irdl-file={}", irdl.display());
    let tools: Vec<(&str, &Path, Vec<&str>)> = [
        dit_opt.as_deref().map(|p| ("dit-opt", p, vec![])),
        mlir_opt
            .as_deref()
            .map(|p| ("mlir-opt", p, vec![irdl_arg.as_str()])),
    ]
    .into_iter()
    .flatten()
    .collect();
    let mut failed: Vec<(&str, usize)> = Vec::new();
    let process_rounds = if quick { 1 } else { 1 + PROCESS_ROUNDS };
    for round in 0..process_rounds {
        let timed = quick || round > 0;
        for case in &mut cases {
            for (tool, exe, extra) in &tools {
                if failed.contains(&(*tool, case.blocks)) {
                    continue;
                }
                match time_process(tool, exe, extra, &case.file) {
                    Ok(d) if timed => {
                        if *tool == "dit-opt" {
                            case.dit_opt.push(d)
                        } else {
                            case.mlir_opt.push(d)
                        }
                    }
                    Ok(_) => {}
                    Err(e) => {
                        eprintln!("{e}");
                        failed.push((tool, case.blocks));
                        ok = false;
                    }
                }
            }
        }
    }

    let rows: Vec<Row> = cases.iter().map(Row::of).collect();
    print_table(&rows);
    println!();
    ok &= print_ratios_and_checks(&rows, &cases, quick, mlir_opt.is_some(), dit_opt.is_some());
    Ok(ok)
}

impl Row {
    fn of(case: &Case) -> Row {
        let phase =
            |f: fn(&PhaseTimes) -> Duration| median(&case.phases.iter().map(f).collect::<Vec<_>>());
        let opt_median = |v: &[Duration]| (!v.is_empty()).then(|| median(v));
        Row {
            blocks: case.blocks,
            ops: case.graph.ops,
            runs: case.phases.len(),
            phases: PhaseTimes {
                parse: phase(|p| p.parse),
                verify: phase(|p| p.verify),
                print: phase(|p| p.print),
            },
            total: phase(|p| p.total()),
            dit_opt: opt_median(&case.dit_opt),
            mlir_opt: opt_median(&case.mlir_opt),
        }
    }
}

/// Times one `exe [extra] file -o /dev/null` as a whole process; `Err` when the tool fails.
fn time_process(tool: &str, exe: &Path, extra: &[&str], file: &Path) -> Result<Duration, String> {
    let start = Instant::now();
    let out = Command::new(exe)
        .args(extra)
        .arg(file)
        .args(["-o", "/dev/null"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("cannot run {tool} ({}): {e}", exe.display()))?;
    let elapsed = start.elapsed();
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let head: Vec<&str> = stderr.lines().take(8).collect();
        return Err(format!(
            "{tool} failed on {} ({}):\n  {}",
            file.display(),
            out.status,
            head.join("\n  ")
        ));
    }
    Ok(elapsed)
}

/// mlir-opt: `MLIR_OPT`, else MLIR 22's; `None` (peer skipped) when not installed.
fn find_mlir_opt() -> Option<PathBuf> {
    let found = dit_bench::process::find_mlir_opt();
    match &found {
        Some(path) => println!(
            "mlir-opt: {} --irdl-file=<dit.irdl.mlir, as embedded in dit> <file> -o /dev/null",
            path.display()
        ),
        None => println!(
            "mlir-opt: not installed ({DEFAULT_MLIR_OPT} missing; set MLIR_OPT); skipping the peer"
        ),
    }
    found
}

fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1e3)
}

fn opt_ms(d: Option<Duration>) -> String {
    d.map(ms).unwrap_or_else(|| "-".into())
}

fn rate(ops: usize, d: Duration) -> String {
    let per_s = ops as f64 / d.as_secs_f64().max(1e-12);
    if per_s >= 1e6 {
        format!("{:.2}M", per_s / 1e6)
    } else {
        format!("{:.0}k", per_s / 1e3)
    }
}

fn ratio(a: Option<Duration>, b: Option<Duration>) -> Option<f64> {
    Some(a?.as_secs_f64() / b?.as_secs_f64())
}

fn print_table(rows: &[Row]) {
    let header = [
        "blocks",
        "ops",
        "runs",
        "parse ms",
        "verify ms",
        "print ms",
        "total ms",
        "ops/s",
        "dit-opt ms",
        "mlir-opt ms",
        "dit-opt/mlir-opt",
    ];
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.blocks.to_string(),
                r.ops.to_string(),
                r.runs.to_string(),
                ms(r.phases.parse),
                ms(r.phases.verify),
                ms(r.phases.print),
                ms(r.total),
                rate(r.ops, r.total),
                opt_ms(r.dit_opt),
                opt_ms(r.mlir_opt),
                ratio(r.dit_opt, r.mlir_opt)
                    .map(|x| format!("{x:.2}"))
                    .unwrap_or_else(|| "-".into()),
            ]
        })
        .collect();
    let widths: Vec<usize> = (0..header.len())
        .map(|c| {
            cells
                .iter()
                .map(|row| row[c].len())
                .chain([header[c].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |row: &[String]| {
        let parts: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(s, w)| format!("{s:>w$}"))
            .collect();
        println!("{}", parts.join("  "));
    };
    line(&header.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    for row in &cells {
        line(row);
    }
    println!("(parse/verify/print/total/ops/s: in process, one context; dit-opt and mlir-opt: whole processes)");
}

/// Prints the 64-vs-8 ratio, the per-N process ratios and the check verdicts; false on failure.
fn print_ratios_and_checks(
    rows: &[Row],
    cases: &[Case],
    quick: bool,
    have_mlir_opt: bool,
    have_dit_opt: bool,
) -> bool {
    let find = |n: usize| rows.iter().find(|r| r.blocks == n);
    let mut ok = true;
    if let (Some(r8), Some(r64)) = (find(8), find(64)) {
        let scale = r64.total.as_secs_f64() / r8.total.as_secs_f64();
        println!("64-vs-8 in-process time ratio: {scale:.2} (medians; linear scaling = 8.00; limit {LIMIT_RATIO:.0})");
        let fastest = |n: usize| {
            cases
                .iter()
                .find(|c| c.blocks == n)
                .and_then(|c| c.phases.iter().map(PhaseTimes::total).min())
        };
        if let Some(best) = ratio(fastest(64), fastest(8)) {
            println!("64-vs-8 in-process time ratio of the fastest runs: {best:.2} (for information; the check uses medians)");
        }
        if let Some(p) = ratio(r64.dit_opt, r8.dit_opt) {
            println!("64-vs-8 dit-opt process time ratio: {p:.2}");
        }
        if let Some(p) = ratio(r64.mlir_opt, r8.mlir_opt) {
            println!("64-vs-8 mlir-opt process time ratio: {p:.2}");
        }
        if r64.total > LIMIT_64 {
            println!(
                "FAIL: 64-block in-process time {} ms exceeds {} ms",
                ms(r64.total),
                LIMIT_64.as_millis()
            );
            ok = false;
        }
        if scale > LIMIT_RATIO {
            println!(
                "FAIL: 64-vs-8 time ratio {scale:.2} exceeds {LIMIT_RATIO:.0} (worse than linear)"
            );
            ok = false;
        }
    } else if quick {
        println!("(--quick: no 64-block run; the 1 s and 64-vs-8 checks are skipped)");
    }
    if have_mlir_opt && have_dit_opt {
        let parts: Vec<String> = rows
            .iter()
            .filter_map(|r| ratio(r.dit_opt, r.mlir_opt).map(|x| format!("N={}: {x:.2}", r.blocks)))
            .collect();
        println!(
            "dit-opt / mlir-opt process time ratio: {}",
            parts.join(", ")
        );
    } else if !have_mlir_opt {
        println!("dit-opt / mlir-opt: peer skipped (mlir-opt not installed)");
    }
    if ok {
        println!(
            "{}",
            if quick {
                "OK (quick)"
            } else {
                "OK: 64 blocks under 1 s and scaling within 9x of 8 blocks"
            }
        );
    }
    ok
}
