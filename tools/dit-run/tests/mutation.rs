//! Mutation fuzzing of dit-run (issue 13): mutated lit inputs that dit-run runs, and the
//! shrunk models of test/models/exec, through the CPU reference runtime. Every run must end in
//! time with exit code 0 or 1 and no panic or signal, and an exit 1 must say where
//! (`file:line:col: error:`). `--max-memory` keeps each run small (mutated dims grow tensors
//! to terabytes; the guard must refuse them before anything is allocated).
//!
//! The mutations and checks are dit-opt's (tools/dit-opt/tests/support/mutate.rs). A longer
//! run: `DIT_FUZZ_SEED=7 DIT_FUZZ_RUN_INPUTS=5000 cargo test -p dit-run --test mutation`.

#[path = "../../dit-opt/tests/support/mutate.rs"]
mod mutate;

use mutate::{Mutant, Rng};
use std::{fs, path::Path, time::Duration};

const TIMEOUT: Duration = Duration::from_secs(60);
const BATCH: usize = 4;

/// The modes a batch cycles through (each with `--split-input-file`).
const MODES: &[&[&str]] = &[
    &["--max-memory=4M"],
    &["--max-memory=4M", "--compare-unfused"],
    &["--max-memory=4M", "--max-elements=4096"],
    &["--max-memory=4M", "--dynamic-dim", "65536"],
    &["--max-memory=4M", "--calls", "2", "--seed", "3"],
];

fn dit_run() -> &'static str {
    env!("CARGO_BIN_EXE_dit-run")
}

struct Run {
    input: Vec<u8>,
    flags: Vec<String>,
    mutants: Vec<usize>,
}

/// Problems of one run (empty: fine) and its exit code.
fn check(run: &Run, scratch: &Path, tag: &str) -> (Vec<String>, Option<i32>) {
    let path = scratch.join(format!("{tag}.mlir"));
    if let Err(e) = fs::write(&path, &run.input) {
        return (vec![format!("cannot write input: {e}")], None);
    }
    let mut args = run.flags.clone();
    args.push(path.display().to_string());
    let result = match mutate::run(dit_run(), &args, scratch, tag, TIMEOUT) {
        Ok(outcome) => {
            let mut found = mutate::crash_problems(&outcome, TIMEOUT);
            if !found.is_empty() {
                found.push(format!("stderr: {}", mutate::excerpt(&outcome.stderr)));
            }
            (found, outcome.code)
        }
        Err(e) => (vec![e], None),
    };
    let _ = fs::remove_file(&path);
    result
}

/// Seeds dit-run can run: the lit files that run dit-run, and the shrunk models.
fn runnable(path: &Path, text: &str) -> bool {
    let name = path.display().to_string();
    (text.contains("RUN:") && text.contains("dit-run") && !name.contains("corpus"))
        || name.contains("models/exec")
}

#[test]
fn mutated_inputs_never_crash_dit_run() {
    let seed = mutate::env_number("DIT_FUZZ_SEED", 13);
    let count = mutate::env_number("DIT_FUZZ_RUN_INPUTS", 600) as usize;
    let seeds = mutate::seeds(runnable);
    assert!(seeds.len() > 30, "only {} seeds found", seeds.len());
    let pool = mutate::op_pool(&seeds);
    let mut rng = Rng::new(seed ^ 0x5eed);
    let mutants: Vec<(usize, Mutant)> = (0..count)
        .map(|_| {
            let s = rng.below(seeds.len());
            (s, mutate::mutate(&mut rng, &seeds[s].text, &pool))
        })
        .collect();
    let mut runs: Vec<Run> = Vec::new();
    let mut pending = Vec::new();
    let flags_for = |index: usize| {
        let mut flags = vec!["--split-input-file".to_string()];
        flags.extend(MODES[index % MODES.len()].iter().map(|f| f.to_string()));
        flags
    };
    for (i, (_, m)) in mutants.iter().enumerate() {
        if m.whole_file_failure() {
            runs.push(Run {
                input: m.text.clone(),
                flags: flags_for(runs.len()),
                mutants: vec![i],
            });
            continue;
        }
        pending.push(i);
        if pending.len() == BATCH {
            let members: Vec<usize> = std::mem::take(&mut pending);
            let mut input = Vec::new();
            for (k, &m) in members.iter().enumerate() {
                if k > 0 {
                    input.extend_from_slice(b"\n// -----\n");
                }
                input.extend_from_slice(&mutants[m].1.text);
            }
            runs.push(Run {
                input,
                flags: flags_for(runs.len()),
                mutants: members,
            });
        }
    }
    if !pending.is_empty() {
        let members: Vec<usize> = std::mem::take(&mut pending);
        let input = members
            .iter()
            .map(|&m| mutants[m].1.text.clone())
            .collect::<Vec<_>>()
            .join(&b"\n// -----\n"[..]);
        runs.push(Run {
            input,
            flags: flags_for(runs.len()),
            mutants: members,
        });
    }
    let mutate::FuzzPass {
        found: results,
        passed,
        failed,
        start,
        keep,
        scratch,
    } = mutate::run_batches(&runs, check);
    let mut failures = Vec::new();
    for (run, found) in runs.iter().zip(&results) {
        if found.is_empty() {
            continue;
        }
        let mut named = false;
        for &m in &run.mutants {
            let alone = Run {
                input: mutants[m].1.text.clone(),
                flags: run.flags.clone(),
                mutants: vec![m],
            };
            let problems = if run.mutants.len() == 1 {
                found.clone()
            } else {
                check(&alone, scratch.path(), &format!("m{m}")).0
            };
            if problems.is_empty() {
                continue;
            }
            named = true;
            let (s, mutant) = &mutants[m];
            let kept =
                mutate::keep_failure(&keep, &format!("run-seed{seed}-{m}.mlir"), &mutant.text);
            failures.push(format!(
                "mutant {m} of {} [{}], dit-run {} {kept}:\n    {}",
                seeds[*s].origin,
                mutant.how.join(","),
                run.flags.join(" "),
                problems.join("\n    ")
            ));
        }
        if !named {
            failures.push(format!(
                "a batch of {} failed, no mutant alone does ({}): {}",
                run.mutants.len(),
                run.flags.join(" "),
                found.join("; ")
            ));
        }
    }
    println!(
        "mutation fuzzing of dit-run (seed {seed}): {count} inputs from {} seeds in {} runs ({passed} exit 0, {failed} exit 1), {:.1} s, {} failures",
        seeds.len(),
        runs.len(),
        start.elapsed().as_secs_f64(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} mutants broke dit-run (seed {seed}):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
