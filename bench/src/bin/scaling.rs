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
//! `--callgrind` counts instructions instead (issue 17: "count instructions with callgrind where
//! the machine is too noisy for wall time"): each size runs once under `valgrind
//! --tool=callgrind`, dit-opt and the peer alike, and the ratios are of instructions executed by
//! the whole process. The count is deterministic, so one run suffices; it does not see cache
//! misses or page faults, which is why wall time stays the default.
//!
//! `cargo run --release -p dit-bench --bin scaling [-- --runs N --quick --callgrind --shape
//! chain|blocks|functions]`; `--quick` stops at 4x, `--shape` runs one shape. Environment: `DIT_OPT`, `MLIR_OPT` (see dit_bench::process), `VALGRIND`.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use dit_bench::process::{find_dit_opt, find_mlir_opt};
use std::{
    collections::BTreeMap,
    fmt::Write as _,
    path::{Path, PathBuf},
    process::{Command, ExitCode},
    time::Instant,
};

/// One way to grow a graph: its name, the unit of its size, and the text at a given size.
struct Shape {
    /// What `--shape` names it by.
    key: &'static str,
    name: &'static str,
    unit: &'static str,
    base: usize,
    text: fn(usize) -> String,
}

const SHAPES: &[Shape] = &[
    Shape {
        key: "chain",
        name: "elementwise chain, one function",
        unit: "ops",
        // Issue 17's acceptance: each doubling of a 5,000-op chain (to 80,000 ops).
        base: 5_000,
        text: chain,
    },
    Shape {
        key: "blocks",
        name: "FLUX blocks chained in one function",
        unit: "blocks",
        base: 2,
        text: blocks,
    },
    Shape {
        key: "functions",
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

/// What a run measures: wall time, or the instructions callgrind counts (valgrind's path).
enum Meter {
    Wall,
    Callgrind(PathBuf),
}

/// The cost of one process run (seconds, or instructions under callgrind), and each pass's
/// cost: the wall times of `--mlir-timing`, or under callgrind the instructions inside each dit
/// pass's `DitPass::run` (inclusive, from `callgrind_annotate`; MLIR's verification after a
/// pass is not in it).
fn run(
    meter: &Meter,
    tool: &Path,
    args: &[&str],
    file: &Path,
) -> Result<(f64, BTreeMap<String, f64>), String> {
    let profile = file.with_extension("callgrind");
    let mut cmd = match meter {
        Meter::Wall => Command::new(tool),
        Meter::Callgrind(valgrind) => {
            let mut c = Command::new(valgrind);
            c.arg("--tool=callgrind")
                .arg(format!("--callgrind-out-file={}", profile.display()))
                .arg(tool);
            c
        }
    };
    let start = Instant::now();
    let out = cmd
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
    let stderr = String::from_utf8_lossy(&out.stderr);
    if let Meter::Callgrind(_) = meter {
        // "==1234== Collected : 866912345"
        let collected = stderr
            .lines()
            .find_map(|l| {
                l.split_once("Collected :")
                    .map(|(_, n)| n.trim().to_string())
            })
            .and_then(|n| n.parse::<f64>().ok())
            .ok_or_else(|| format!("no instruction count from callgrind for {}", tool.display()))?;
        let passes = pass_instructions(&profile);
        let _ = std::fs::remove_file(&profile);
        return Ok((collected, passes?));
    }
    let mut passes = BTreeMap::new();
    for line in stderr.lines() {
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
    Ok((elapsed.as_secs_f64(), passes))
}

/// Instructions inside each dit pass, from a callgrind profile: the inclusive cost of
/// `<dit_passes::<stage>::<file>::<Pass> as dit_passes::registry::DitPass>::run`, named after
/// its file (one pass per file: `dit_auto_fuse` is `dit-auto-fuse`). Empty for a tool with no
/// dit passes (the peer).
fn pass_instructions(profile: &Path) -> Result<BTreeMap<String, f64>, String> {
    let out = Command::new("callgrind_annotate")
        .args(["--inclusive=yes", "--threshold=100"])
        .arg(profile)
        .output()
        .map_err(|e| format!("cannot run callgrind_annotate (valgrind's): {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "callgrind_annotate failed on {}: {}",
            profile.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let mut passes = BTreeMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        // "124,902,684 (14.36%)  ???:<dit_passes::transforms::dit_auto_fuse::AutoFuse as
        // dit_passes::registry::DitPass>::run [/path/dit-opt]"
        let Some((count, rest)) = line.trim_start().split_once(' ') else {
            continue;
        };
        let Some(path) = rest
            .split_once(":<dit_passes::")
            .and_then(|(_, r)| r.split_once(" as dit_passes::registry::DitPass>::run "))
            .map(|(p, _)| p)
        else {
            continue;
        };
        let segments: Vec<&str> = path.split("::").collect();
        let (Some(file), Ok(count)) = (
            segments.len().checked_sub(2).map(|i| segments[i]),
            count.replace(',', "").parse::<f64>(),
        ) else {
            continue;
        };
        *passes.entry(file.replace('_', "-")).or_insert(0.0) += count;
    }
    Ok(passes)
}

/// One size's medians: (size, dit-opt process cost, mlir-opt cost, per-pass seconds).
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
    let meter = if args.iter().any(|a| a == "--callgrind") {
        let valgrind = std::env::var_os("VALGRIND")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("valgrind"));
        match Command::new(&valgrind).arg("--version").output() {
            Ok(o) if o.status.success() => {
                println!(
                    "meter:    instructions, {} --tool=callgrind (one run per size)",
                    String::from_utf8_lossy(&o.stdout).trim()
                );
                Meter::Callgrind(valgrind)
            }
            _ => {
                println!(
                    "scaling: --callgrind needs valgrind ({} does not run; apt-get install valgrind)",
                    valgrind.display()
                );
                return ExitCode::FAILURE;
            }
        }
    } else {
        Meter::Wall
    };
    let runs = args
        .iter()
        .position(|a| a == "--runs")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|n| *n > 0)
        .unwrap_or(3);
    let runs = if matches!(meter, Meter::Callgrind(_)) {
        1
    } else {
        runs
    };
    let only = args
        .iter()
        .position(|a| a == "--shape")
        .map(|i| args.get(i + 1).cloned().unwrap_or_default());
    if let Some(key) = &only {
        if !SHAPES.iter().any(|s| s.key == key) {
            let keys: Vec<&str> = SHAPES.iter().map(|s| s.key).collect();
            println!(
                "scaling: --shape {key:?}: expected one of {}",
                keys.join(", ")
            );
            return ExitCode::FAILURE;
        }
    }
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
    for shape in SHAPES
        .iter()
        .filter(|s| only.as_ref().is_none_or(|k| k == s.key))
    {
        match meter {
            Meter::Wall => println!("\n## {} (median of {runs} runs)\n", shape.name),
            Meter::Callgrind(_) => println!("\n## {} (instructions, one run)\n", shape.name),
        }
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
                match run(&meter, &dit_opt, &["--fuse-all", "--mlir-timing"], &file) {
                    Ok((t, passes)) => {
                        totals.push(t);
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
                    match run(&meter, m, &["--allow-unregistered-dialect"], &file) {
                        Ok((t, _)) => peer.push(t),
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
        let what = match meter {
            Meter::Wall => "s",
            Meter::Callgrind(_) => "Minstr",
        };
        let scale = match meter {
            Meter::Wall => 1.0,
            Meter::Callgrind(_) => 1e-6,
        };
        let mut header = format!(
            "| {} | dit-opt process {what} | x prev | mlir-opt {what} | x prev |",
            shape.unit
        );
        let mut rule = String::from("|---:|---:|---:|---:|---:|");
        for p in &shown {
            let _ = write!(header, " {p} {what} | x prev |");
            rule.push_str("---:|---:|");
        }
        println!("{header}\n{rule}");
        for (i, (size, total, peer, passes)) in rows.iter().enumerate() {
            let prev = i.checked_sub(1).map(|j| &rows[j]);
            let mut line = format!(
                "| {size} | {:.3} | {} | {} | {} |",
                total * scale,
                prev.map_or("".into(), |p| ratio(p.1, *total)),
                peer.map_or("-".into(), |p| format!("{:.3}", p * scale)),
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
                    " {:.3} | {} |",
                    now * scale,
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
