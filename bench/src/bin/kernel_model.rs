//! `kernel_model`: estimated µs per block before -> after fusion for the DiT blocks of issue 17,
//! and each generated kernel's ratio to its DDR roofline, from the performance model
//! (dit_passes::analysis::perf_model; generated kernels through dit-ascendc's tiling). A MODEL, the figure
//! of merit until an NPU is at hand: no kernel runs.
//!
//!     cargo run --release -p dit-bench --bin kernel_model [-- --target NAME|FILE.toml]
//!         [--models flux_double,...] [--dit-opt PATH] [--kernels all|none]

use dit_bench::kernel_model::{self, BlockModel, BLOCKS};
use dit_dialect::target::Target;
use std::{
    path::{Path, PathBuf},
    process::ExitCode,
};

/// The goal of issue 17 for a vector kernel: modeled time at most 1.3x its DDR roofline.
const RATIO_GOAL: f64 = 1.3;

/// Seconds as µs, with three decimals under 1 µs (small kernels), two above.
fn micros(s: f64) -> String {
    let us = s * 1e6;
    if us < 1.0 {
        format!("{us:.3}")
    } else {
        format!("{us:.2}")
    }
}

fn usage() -> &'static str {
    "usage: kernel_model [--target NAME|FILE.toml] [--models a,b,...] [--dit-opt PATH] [--kernels all|none]\n  \
     --target   the target table entry (default ascend910b)\n  \
     --models   blocks to model (default: all of them)\n  \
     --dit-opt  the dit-opt binary (default: DIT_OPT, else next to this binary, built if missing)\n  \
     --kernels  print the per-kernel table of generated kernels for every block (all, the default) or not (none)"
}

fn main() -> ExitCode {
    let mut target_arg = "ascend910b".to_string();
    let mut models: Option<Vec<String>> = None;
    let mut dit_opt: Option<PathBuf> = None;
    let mut kernels = true;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| {
            args.next().ok_or_else(|| {
                eprintln!("kernel_model: {name} needs a value\n{}", usage());
                ExitCode::from(2)
            })
        };
        match arg.as_str() {
            "--target" => match value("--target") {
                Ok(v) => target_arg = v,
                Err(c) => return c,
            },
            "--models" => match value("--models") {
                Ok(v) => models = Some(v.split(',').map(str::to_string).collect()),
                Err(c) => return c,
            },
            "--dit-opt" => match value("--dit-opt") {
                Ok(v) => dit_opt = Some(PathBuf::from(v)),
                Err(c) => return c,
            },
            "--kernels" => match value("--kernels").as_deref() {
                Ok("all") => kernels = true,
                Ok("none") => kernels = false,
                Ok(other) => {
                    eprintln!("kernel_model: --kernels takes all or none, not '{other}'");
                    return ExitCode::from(2);
                }
                Err(_) => return ExitCode::from(2),
            },
            "-h" | "--help" => {
                println!("{}", usage());
                return ExitCode::SUCCESS;
            }
            other => {
                eprintln!("kernel_model: unknown argument '{other}'\n{}", usage());
                return ExitCode::from(2);
            }
        }
    }
    let target = match Target::resolve(&target_arg) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("kernel_model: {e}");
            return ExitCode::FAILURE;
        }
    };
    let blocks: Vec<_> = match &models {
        None => BLOCKS.to_vec(),
        Some(names) => {
            let mut out = Vec::new();
            for n in names {
                match BLOCKS.iter().find(|b| b.name == n) {
                    Some(b) => out.push(*b),
                    None => {
                        let known: Vec<_> = BLOCKS.iter().map(|b| b.name).collect();
                        eprintln!(
                            "kernel_model: unknown block '{n}' (known: {})",
                            known.join(", ")
                        );
                        return ExitCode::from(2);
                    }
                }
            }
            out
        }
    };
    if let Some(p) = dit_opt {
        std::env::set_var("DIT_OPT", p);
    }
    let Some(dit_opt) = dit_bench::process::find_dit_opt() else {
        println!("kernel_model: skipped: no dit-opt binary");
        return ExitCode::SUCCESS;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("bench/ lives in the repository")
        .to_path_buf();

    println!(
        "kernel_model: a performance MODEL of one call of each block, the figure of merit until \
         an NPU is at hand (estimates, not measurements)."
    );
    println!("target: {}", kernel_model::describe_rates(target));
    println!(
        "model: per kernel, sum over its stages of max(DDR bytes / HBM bandwidth, the busiest \
         core's bytes / (bandwidth / vector cores), vector ops / vector rate, Cube flops / Cube \
         rate) (the sum of the DDR and vector terms instead for a single-buffered stage, whose \
         copy-in, compute and copy-out do not overlap), plus the launch overhead per launch; \
         library kernels at their roofline, generated kernels as dit-ascendc tiles them on {} \
         cores.",
        target.vector_cores
    );
    let mut results: Vec<BlockModel> = Vec::new();
    let mut failed = false;
    for b in &blocks {
        match kernel_model::model_block(&dit_opt, &root, *b, &target_arg, target) {
            Ok(m) => results.push(m),
            Err(e) => {
                println!("{}: error: {e}", b.label);
                failed = true;
            }
        }
    }

    println!();
    println!(
        "| block | kernels before -> after | report says | est. µs before -> after | speed-up | launch µs after | library µs after | generated µs after | generated kernels | ratio max (median) | over {RATIO_GOAL}x |"
    );
    println!("|:--|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
    for m in &results {
        let us = |s: f64| s * 1e6;
        let (b, a) = (&m.before.totals, &m.after.totals);
        let mut ratios: Vec<f64> = m
            .after
            .generated
            .iter()
            .filter(|g| g.no_kernel.is_none())
            .map(|g| g.ratio())
            .collect();
        ratios.sort_by(|x, y| x.total_cmp(y));
        let ratio = match ratios.last() {
            Some(max) => format!("{max:.2} ({:.2})", ratios[ratios.len() / 2]),
            None => "-".to_string(),
        };
        let over = ratios.iter().filter(|r| **r > RATIO_GOAL).count();
        let generated_s: f64 = m.after.generated.iter().map(|g| g.estimate.body_s).sum();
        println!(
            "| {} | {} -> {} | {} -> {}{} | {:.1} -> {:.1} | {:.2}x | {:.1} | {:.1} | {:.1} | {} | {ratio} | {over} |",
            m.block.label,
            b.kernels,
            a.kernels,
            m.report_kernels.0,
            m.report_kernels.1,
            if m.report_kernels == (b.kernels, a.kernels) {
                ""
            } else {
                " (MISMATCH)"
            },
            us(b.total_s()),
            us(a.total_s()),
            b.total_s() / a.total_s(),
            us(a.launch_s),
            us(m.after.library_s),
            us(generated_s),
            m.after.generated.len(),
        );
        if m.report_kernels != (b.kernels, a.kernels) {
            failed = true;
        }
    }

    if kernels {
        for m in &results {
            println!("\n### {} — after fusion\n", m.block.label);
            // Library kernels by what bounds them: where the rest of the call goes.
            let mut by_bound: Vec<(&str, usize, f64, Vec<&str>)> = Vec::new();
            for (op, e) in &m.after.library {
                let name = kernel_model::bound_name(e.bound);
                let slot = match by_bound.iter().position(|b| b.0 == name) {
                    Some(i) => &mut by_bound[i],
                    None => {
                        by_bound.push((name, 0, 0.0, Vec::new()));
                        by_bound.last_mut().expect("just pushed")
                    }
                };
                slot.1 += 1;
                slot.2 += e.body_s;
                if !slot.3.contains(&op.as_str()) {
                    slot.3.push(op);
                }
            }
            let parts: Vec<String> = by_bound
                .iter()
                .map(|(n, count, s, ops)| {
                    format!("{count} {n}-bound ({}), {} µs", ops.join(", "), micros(*s))
                })
                .collect();
            println!(
                "library kernels: {} ({})\n",
                m.after.library.len(),
                parts.join("; ")
            );
            if m.after.generated.is_empty() {
                continue;
            }
            println!(
                "| kernel | cores | DDR bytes (as tiled) | unique bytes | roofline µs | modeled µs (device) | ratio | bound |"
            );
            println!("|:--|--:|--:|--:|--:|--:|--:|:--|");
            for g in &m.after.generated {
                match &g.no_kernel {
                    None => println!(
                        "| {} | {} | {} | {} | {} | {} | {:.2} | {} |",
                        g.name,
                        g.cores,
                        g.ddr_bytes,
                        g.unique_bytes,
                        micros(g.roofline_s),
                        micros(g.estimate.body_s),
                        g.ratio(),
                        kernel_model::bound_name(g.estimate.bound)
                    ),
                    Some(why) => println!(
                        "| {} | - | - | {} | {} | {} (ideal) | - | no kernel: {} |",
                        g.name,
                        g.unique_bytes,
                        micros(g.roofline_s),
                        micros(g.estimate.body_s),
                        why.replace('|', "/")
                    ),
                }
            }
        }
    }
    println!(
        "\nNot modeled: DMA and instruction latency inside a tile (pipeline fill and drain), L2 \
         hits, HBM efficiency under its peak, the DMA granularity of narrow rows, scalar work, Cube \
         fractal quantization, and \
         host/device overlap of launches (the {:.0} µs per launch is added in full).",
        target.launch_overhead_ns as f64 / 1e3
    );
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
