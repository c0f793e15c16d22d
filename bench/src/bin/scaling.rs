//! How `dit-opt --fuse-all` scales with graph size, pass by pass (issue 17: a 10x larger graph
//! must cost at most 12x the time). Three ways to grow a graph, each doubled four times (1x to
//! 16x): a longer elementwise chain in one function, more FLUX blocks chained in one function,
//! more one-block functions in one module. For each size it runs `dit-opt --fuse-all
//! --mlir-timing` as a process (median of `--runs`, default 3), reads every pass's wall time
//! from MLIR's timing report, and prints each pass's time and its ratio per doubling and over
//! the whole 16x. The peer is upstream `mlir-opt --allow-unregistered-dialect` parsing and
//! printing the same file in the same run: its ratios are what "linear" looks like on this
//! machine (cache effects included). A benchmark, not a test: it asserts nothing.
//!
//! `cargo run --release -p dit-bench --bin scaling [-- --runs N --quick]`; `--quick` stops at 4x.
//! Environment: `DIT_OPT`, `MLIR_OPT` (see dit_bench::process).

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use dit_bench::process::{find_dit_opt, find_mlir_opt};
use std::{
    collections::BTreeMap,
    fmt::Write as _,
    path::Path,
    process::{Command, ExitCode},
    time::{Duration, Instant},
};

/// One way to grow a graph: its name, the unit of its size, and the text at a given size.
struct Shape {
    name: &'static str,
    unit: &'static str,
    base: usize,
    text: fn(usize) -> String,
}

const SHAPES: &[Shape] = &[
    Shape {
        name: "elementwise chain, one function",
        unit: "ops",
        // Issue 17's acceptance: each doubling of a 5,000-op chain (to 80,000 ops).
        base: 5_000,
        text: chain,
    },
    Shape {
        name: "FLUX blocks chained in one function",
        unit: "blocks",
        base: 2,
        text: blocks,
    },
    Shape {
        name: "one-block functions in one module",
        unit: "functions",
        base: 4,
        text: functions,
    },
];

/// A chain of `n` elementwise ops on 64x3072 bf16 (add, mul, exp, ...), each reading the
/// previous result and one shared argument: auto-fuse's longest-chain case.
fn chain(n: usize) -> String {
    let t = "tensor<64x3072xbf16>";
    let mut s = format!("module {{\n  func.func @chain(%x: {t}, %y: {t}) -> {t} {{\n");
    let mut prev = "%x".to_string();
    for i in 0..n {
        let _ = match i % 3 {
            0 => writeln!(s, "    %v{i} = \"dit.add\"({prev}, %y) : ({t}, {t}) -> {t}"),
            1 => writeln!(s, "    %v{i} = \"dit.mul\"({prev}, %y) : ({t}, {t}) -> {t}"),
            _ => writeln!(s, "    %v{i} = \"dit.exp\"({prev}) : ({t}) -> {t}"),
        };
        prev = format!("%v{i}");
    }
    let _ = writeln!(s, "    return {prev} : {t}\n  }}\n}}");
    s
}

/// `n` chained FLUX.1-dev units (one double-stream + 3 single-stream blocks each) in one
/// function, as the other benchmarks generate them.
fn blocks(n: usize) -> String {
    dit_bench::generate(n).text
}

/// `n` copies of the one-unit function, each under its own name, in one module.
fn functions(n: usize) -> String {
    let one = dit_bench::generate(1).text;
    let start = one.find("func.func @").expect("a function");
    let end = one.rfind('}').expect("the module's closing brace");
    let func = &one[start..end];
    let name_end = func[11..]
        .find('(')
        .map(|i| i + 11)
        .expect("a function name");
    let name = &func[11..name_end];
    let mut s = String::from("module {\n");
    for k in 0..n {
        s.push_str(&func.replacen(&format!("@{name}("), &format!("@{name}_{k}("), 1));
        s.push('\n');
    }
    s.push_str("}\n");
    s
}

/// Wall time of one process run, and the per-pass wall times of `--mlir-timing` (seconds).
fn run(
    tool: &Path,
    args: &[&str],
    file: &Path,
) -> Result<(Duration, BTreeMap<String, f64>), String> {
    let start = Instant::now();
    let out = Command::new(tool)
        .args(args)
        .arg(file)
        .args(["-o", "/dev/null"])
        .output()
        .map_err(|e| format!("cannot run {}: {e}", tool.display()))?;
    let elapsed = start.elapsed();
    if !out.status.success() {
        return Err(format!(
            "{} failed ({}): {}",
            tool.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .take(3)
                .collect::<Vec<_>>()
                .join(" | ")
        ));
    }
    let mut passes = BTreeMap::new();
    for line in String::from_utf8_lossy(&out.stderr).lines() {
        // "    0.0628 (  0.8%)  dit-fuse-patterns"
        let mut parts = line.split_whitespace();
        let (Some(secs), Some(_), Some(_)) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        let rest: Vec<&str> = parts.collect();
        let (Ok(secs), Some(name)) = (secs.parse::<f64>(), rest.last()) else {
            continue;
        };
        if line.contains('%') && *name != "Total" && *name != "Rest" {
            *passes.entry((*name).to_string()).or_insert(0.0) += secs;
        }
    }
    Ok((elapsed, passes))
}

/// One size's medians: (size, dit-opt process seconds, mlir-opt seconds, per-pass seconds).
type Row = (usize, f64, Option<f64>, BTreeMap<String, f64>);

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn ratio(a: f64, b: f64) -> String {
    if a <= 0.0 || b <= 0.0 {
        "-".into()
    } else {
        format!("{:.2}", b / a)
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--quick");
    let runs = args
        .iter()
        .position(|a| a == "--runs")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|n| *n > 0)
        .unwrap_or(3);
    let Some(dit_opt) = find_dit_opt() else {
        println!("scaling: skipped: no dit-opt binary");
        return ExitCode::SUCCESS;
    };
    let mlir_opt = find_mlir_opt();
    match &mlir_opt {
        Some(p) => println!(
            "peer:     {} --allow-unregistered-dialect (parse + print)",
            p.display()
        ),
        None => println!("peer:     mlir-opt not installed; peer column skipped"),
    }
    let dir = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => {
            println!("scaling: cannot make a temp dir: {e}");
            return ExitCode::FAILURE;
        }
    };
    let doublings = if quick { 2 } else { 4 };
    for shape in SHAPES {
        println!("\n## {} (median of {runs} runs)\n", shape.name);
        let mut rows: Vec<Row> = Vec::new();
        for d in 0..=doublings {
            let size = shape.base << d;
            let file = dir.path().join(format!("g{d}.mlir"));
            if let Err(e) = std::fs::write(&file, (shape.text)(size)) {
                println!("scaling: cannot write {}: {e}", file.display());
                return ExitCode::FAILURE;
            }
            let mut totals = Vec::new();
            let mut per_pass: BTreeMap<String, Vec<f64>> = BTreeMap::new();
            let mut peer = Vec::new();
            for _ in 0..runs {
                match run(&dit_opt, &["--fuse-all", "--mlir-timing"], &file) {
                    Ok((t, passes)) => {
                        totals.push(t.as_secs_f64());
                        for (p, s) in passes {
                            per_pass.entry(p).or_default().push(s);
                        }
                    }
                    Err(e) => {
                        println!("scaling: {e}");
                        return ExitCode::FAILURE;
                    }
                }
                if let Some(m) = &mlir_opt {
                    match run(m, &["--allow-unregistered-dialect"], &file) {
                        Ok((t, _)) => peer.push(t.as_secs_f64()),
                        Err(e) => println!("scaling: peer: {e}"),
                    }
                }
            }
            let passes = per_pass.into_iter().map(|(p, v)| (p, median(v))).collect();
            let peer = (!peer.is_empty()).then(|| median(peer));
            rows.push((size, median(totals), peer, passes));
        }
        // Passes that take at least 2% of the largest run, in pipeline-name order.
        let (_, last_total, _, last_passes) = rows.last().expect("sizes");
        let shown: Vec<&String> = last_passes
            .iter()
            .filter(|(_, s)| **s >= 0.02 * last_total)
            .map(|(p, _)| p)
            .collect();
        let mut header = format!(
            "| {} | dit-opt process s | x prev | mlir-opt s | x prev |",
            shape.unit
        );
        let mut rule = String::from("|---:|---:|---:|---:|---:|");
        for p in &shown {
            let _ = write!(header, " {p} s | x prev |");
            rule.push_str("---:|---:|");
        }
        println!("{header}\n{rule}");
        for (i, (size, total, peer, passes)) in rows.iter().enumerate() {
            let prev = i.checked_sub(1).map(|j| &rows[j]);
            let mut line = format!(
                "| {size} | {total:.3} | {} | {} | {} |",
                prev.map_or("".into(), |p| ratio(p.1, *total)),
                peer.map_or("-".into(), |p| format!("{p:.3}")),
                match (prev.and_then(|p| p.2), peer) {
                    (Some(a), Some(b)) => ratio(a, *b),
                    _ => "".into(),
                }
            );
            for p in &shown {
                let now = passes.get(*p).copied().unwrap_or(0.0);
                let before = prev.and_then(|r| r.3.get(*p).copied());
                let _ = write!(
                    line,
                    " {now:.3} | {} |",
                    before.map_or("".into(), |b| ratio(b, now))
                );
            }
            println!("{line}");
        }
        let (first, last) = (&rows[0], rows.last().expect("sizes"));
        let grow = last.0 as f64 / first.0 as f64;
        let mut summary = format!(
            "\n{grow:.0}x the graph: dit-opt process {}x",
            ratio(first.1, last.1)
        );
        if let (Some(a), Some(b)) = (first.2, last.2) {
            let _ = write!(summary, ", mlir-opt {}x", ratio(a, b));
        }
        for p in &shown {
            if let (Some(a), Some(b)) = (first.3.get(*p), last.3.get(*p)) {
                let _ = write!(summary, ", {p} {}x", ratio(*a, *b));
            }
        }
        println!("{summary}");
        // Issue 17's bar: no doubling costs more than 2.4x the size before it.
        let worst = rows
            .windows(2)
            .map(|w| w[1].1 / w[0].1.max(1e-9))
            .fold(0.0f64, f64::max);
        println!(
            "largest doubling of the dit-opt process: {worst:.2}x (goal: at most 2.4x) {}",
            if worst <= 2.4 { "met" } else { "NOT met" }
        );
    }
    ExitCode::SUCCESS
}
