//! Mutation fuzzing of dit-opt (issue 13): a fixed-seed run of mutated lit and corpus inputs
//! through the common modes. Every run must end in time with exit code 0 or 1, no panic or
//! signal; an exit 1 must say where (`file:line:col: error:`), and every module printed must
//! parse and verify again.
//!
//! Mutants run in `--split-input-file` batches (one process for many inputs); a batch that
//! misbehaves is rerun mutant by mutant to name the culprits, which are kept under
//! `target/mutation-failures/` to rerun by hand. A longer run:
//! `DIT_FUZZ_SEED=7 DIT_FUZZ_INPUTS=50000 cargo test -p dit-opt --test mutation`.

mod support;

use std::{fs, path::Path, time::Duration};
use support::mutate::{self, Mutant, Rng};

const TIMEOUT: Duration = Duration::from_secs(30);
const BATCH: usize = 24;

/// The modes a batch cycles through (each with `--split-input-file`).
const BATCH_MODES: &[&[&str]] = &[
    &[],
    &["--fuse-all"],
    &["--fuse-all", "--fusion-report=json"],
    &["--dit-lower-to-aclnn"],
    &[
        "--fuse-all",
        "--fusion-report=text",
        "--shape-hint=0=4611686018427387904",
    ],
];

/// Modes that take one module (no `--split-input-file`): mutants run alone.
const SINGLE_MODES: &[&[&str]] = &[&["--emit=header"], &["--fuse-all"], &[]];

fn dit_opt() -> &'static str {
    env!("CARGO_BIN_EXE_dit-opt")
}

/// One process to run: its input, flags, the mutants it holds (indices) and whether its
/// stdout is MLIR to re-verify.
struct Run {
    input: Vec<u8>,
    flags: Vec<String>,
    mutants: Vec<usize>,
    reverify: bool,
}

fn join_batch(mutants: &[&Mutant]) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, m) in mutants.iter().enumerate() {
        if i > 0 {
            out.extend_from_slice(b"\n// -----\n");
        }
        out.extend_from_slice(&m.text);
    }
    out
}

/// Problems of one run (empty: fine), re-verifying printed MLIR, and its exit code.
fn check(run: &Run, scratch: &Path, tag: &str) -> (Vec<String>, Option<i32>) {
    let path = scratch.join(format!("{tag}.mlir"));
    if let Err(e) = fs::write(&path, &run.input) {
        return (vec![format!("cannot write input: {e}")], None);
    }
    let mut args = run.flags.clone();
    args.push(path.display().to_string());
    let outcome = match mutate::run(dit_opt(), &args, scratch, tag, TIMEOUT) {
        Ok(o) => o,
        Err(e) => return (vec![e], None),
    };
    let mut found = mutate::crash_problems(&outcome, TIMEOUT);
    if !found.is_empty() {
        found.push(format!("stderr: {}", mutate::excerpt(&outcome.stderr)));
    } else if run.reverify && !outcome.stdout.is_empty() {
        let printed = scratch.join(format!("{tag}.out.mlir"));
        let _ = fs::write(&printed, &outcome.stdout);
        let again = vec![
            "--split-input-file".to_string(),
            printed.display().to_string(),
        ];
        match mutate::run(dit_opt(), &again, scratch, &format!("{tag}.again"), TIMEOUT) {
            Ok(o) if o.code == Some(0) => {}
            Ok(o) => found.push(format!(
                "printed output does not verify again (exit {:?}): {}",
                o.code,
                mutate::excerpt(&o.stderr)
            )),
            Err(e) => found.push(e),
        }
        let _ = fs::remove_file(&printed);
    }
    let _ = fs::remove_file(&path);
    (found, outcome.code)
}

#[test]
fn mutated_inputs_never_crash() {
    let seed = mutate::env_number("DIT_FUZZ_SEED", 13);
    let count = mutate::env_number("DIT_FUZZ_INPUTS", 4000) as usize;
    let seeds = mutate::seeds(|_, _| true);
    assert!(seeds.len() > 200, "only {} seeds found", seeds.len());
    let pool = mutate::op_pool(&seeds);
    let mut rng = Rng::new(seed);
    let mutants: Vec<(usize, Mutant)> = (0..count)
        .map(|_| {
            let s = rng.below(seeds.len());
            (s, mutate::mutate(&mut rng, &seeds[s].text, &pool))
        })
        .collect();

    // Batches for the mutants that leave the file decodable; the rest, and every tenth, alone.
    let mut runs = Vec::new();
    let mut pending: Vec<usize> = Vec::new();
    let mut single = 0usize;
    for (i, (_, m)) in mutants.iter().enumerate() {
        if m.whole_file_failure() || i % 10 == 9 {
            let flags = SINGLE_MODES[single % SINGLE_MODES.len()];
            single += 1;
            runs.push(Run {
                input: m.text.clone(),
                flags: flags.iter().map(|f| f.to_string()).collect(),
                mutants: vec![i],
                reverify: !flags.contains(&"--emit=header"),
            });
            continue;
        }
        pending.push(i);
        if pending.len() == BATCH {
            runs.push(batch(&mutants, std::mem::take(&mut pending), runs.len()));
        }
    }
    if !pending.is_empty() {
        runs.push(batch(&mutants, pending, runs.len()));
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
        // Name the culprits: each mutant of a failing batch alone, with the batch's flags.
        let culprits: Vec<(usize, Vec<String>)> = if run.mutants.len() == 1 {
            vec![(run.mutants[0], found.clone())]
        } else {
            run.mutants
                .iter()
                .map(|&m| {
                    let alone = Run {
                        input: mutants[m].1.text.clone(),
                        flags: run.flags.clone(),
                        mutants: vec![m],
                        reverify: run.reverify,
                    };
                    (m, check(&alone, scratch.path(), &format!("m{m}")).0)
                })
                .filter(|(_, f)| !f.is_empty())
                .collect()
        };
        if culprits.is_empty() {
            failures.push(format!(
                "a batch of {} failed, no mutant alone does ({}): {}",
                run.mutants.len(),
                run.flags.join(" "),
                found.join("; ")
            ));
        }
        for (m, problems) in culprits {
            let (s, mutant) = &mutants[m];
            let kept = mutate::keep_failure(&keep, &format!("seed{seed}-{m}.mlir"), &mutant.text);
            failures.push(format!(
                "mutant {m} of {} [{}], dit-opt {} {kept}:\n    {}",
                seeds[*s].origin,
                mutant.how.join(","),
                run.flags.join(" "),
                problems.join("\n    ")
            ));
        }
    }
    let processes = runs.len();
    println!(
        "mutation fuzzing (seed {seed}): {count} inputs from {} seeds in {processes} dit-opt runs ({passed} exit 0, {failed} exit 1), {:.1} s, {} failures",
        seeds.len(),
        start.elapsed().as_secs_f64(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} mutants broke dit-opt (seed {seed}):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn batch(mutants: &[(usize, Mutant)], members: Vec<usize>, index: usize) -> Run {
    let flags = BATCH_MODES[index % BATCH_MODES.len()];
    let texts: Vec<&Mutant> = members.iter().map(|&m| &mutants[m].1).collect();
    let mut all = vec!["--split-input-file".to_string()];
    all.extend(flags.iter().map(|f| f.to_string()));
    Run {
        input: join_batch(&texts),
        flags: all,
        mutants: members,
        reverify: true,
    }
}
