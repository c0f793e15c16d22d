//! Robustness: dit-opt on malformed input (test/corpus, plus a few inputs too big to commit,
//! generated here) and on bad command lines. Every run must end within 20 s with exit code 1
//! (not a signal) and a located `file:line:col: error: ` line on stderr, and must not panic,
//! assert or dump a stack. All failures are collected and reported together.

use std::{
    ffi::OsString,
    fs,
    os::unix::process::ExitStatusExt,
    path::{Path, PathBuf},
    process::{Command, Stdio},
    sync::Mutex,
    thread,
    time::{Duration, Instant},
};

const TIMEOUT: Duration = Duration::from_secs(20);
const FORBIDDEN: &[&str] = &["panicked", "RUST_BACKTRACE", "Assertion", "Stack dump"];
/// The ways each corpus file is run. The torch import allows unregistered dialects while
/// parsing: malformed input must still fail with a located error.
const MODES: &[&[&str]] = &[
    &[],
    &["--split-input-file"],
    &["--dit-canonicalize"],
    &["--dit-convert-torch-to-dit"],
];

fn dit_opt() -> &'static str {
    env!("CARGO_BIN_EXE_dit-opt")
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test/corpus")
}

/// How one run of dit-opt ended.
struct Outcome {
    code: Option<i32>,
    signal: Option<i32>,
    timed_out: bool,
    stderr: String,
}

/// Runs dit-opt with `args`, stdout discarded and stderr captured in `scratch` (a file, so
/// that a huge diagnostic cannot block the child on a full pipe); kills it after [`TIMEOUT`].
fn run(args: &[OsString], scratch: &Path) -> Result<Outcome, String> {
    let stderr_file = fs::File::create(scratch)
        .map_err(|e| format!("cannot create {}: {e}", scratch.display()))?;
    let mut child = Command::new(dit_opt())
        .args(args)
        .env_remove("RUST_BACKTRACE")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(stderr_file)
        .spawn()
        .map_err(|e| format!("cannot start dit-opt: {e}"))?;
    let start = Instant::now();
    let (status, timed_out) = loop {
        match child
            .try_wait()
            .map_err(|e| format!("cannot wait for dit-opt: {e}"))?
        {
            Some(status) => break (status, false),
            None if start.elapsed() > TIMEOUT => {
                let _ = child.kill();
                let status = child
                    .wait()
                    .map_err(|e| format!("cannot reap dit-opt: {e}"))?;
                break (status, true);
            }
            None => thread::sleep(Duration::from_millis(5)),
        }
    };
    let stderr = String::from_utf8_lossy(&fs::read(scratch).unwrap_or_default()).into_owned();
    Ok(Outcome {
        code: status.code(),
        signal: status.signal(),
        timed_out,
        stderr,
    })
}

fn all_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// Whether `line` looks like `<something>:<line>:<col>: error: <message>`.
fn is_located_error(line: &str) -> bool {
    let Some(at) = line.find(": error: ") else {
        return false;
    };
    let mut parts = line[..at].rsplitn(3, ':');
    match (parts.next(), parts.next(), parts.next()) {
        (Some(col), Some(row), Some(file)) => {
            !file.is_empty() && all_digits(row) && all_digits(col)
        }
        _ => false,
    }
}

/// A short excerpt of stderr for failure messages (stderr can hold megabyte-long lines).
fn excerpt(stderr: &str) -> String {
    let text: String = stderr.lines().take(4).collect::<Vec<_>>().join(" | ");
    let mut cut: String = text.chars().take(400).collect();
    if cut.len() < text.len() {
        cut.push('…');
    }
    if cut.is_empty() {
        "<empty>".into()
    } else {
        cut
    }
}

/// What is wrong with an outcome (empty: nothing). `located` asks for `file:line:col: error:`;
/// otherwise any line with `error: ` will do.
fn problems(outcome: &Outcome, located: bool) -> Vec<String> {
    let mut found = Vec::new();
    if outcome.timed_out {
        found.push(format!(
            "hang: still running after {} s, killed",
            TIMEOUT.as_secs()
        ));
    } else if let Some(signal) = outcome.signal {
        found.push(format!("killed by signal {signal}"));
    } else if outcome.code != Some(1) {
        found.push(format!("exit code {:?}, expected 1", outcome.code));
    }
    let has_error = if located {
        outcome.stderr.lines().any(is_located_error)
    } else {
        outcome.stderr.lines().any(|l| l.contains("error: "))
    };
    if !has_error {
        found.push(if located {
            "no `<file>:<line>:<col>: error: ` line on stderr".to_string()
        } else {
            "no `error: ` line on stderr".to_string()
        });
    }
    for word in FORBIDDEN {
        if outcome.stderr.contains(word) {
            found.push(format!("stderr contains {word:?}"));
        }
    }
    found
}

/// One run to make: a label for messages, the arguments, and whether the error must be located.
struct Job {
    label: String,
    args: Vec<OsString>,
    located: bool,
}

/// Runs every job (in parallel) and returns the failure messages, sorted.
fn run_all(jobs: Vec<Job>, scratch: &Path) -> Vec<String> {
    let queue = Mutex::new(jobs.into_iter().enumerate().collect::<Vec<_>>());
    let failures = Mutex::new(Vec::new());
    let workers = thread::available_parallelism()
        .map_or(4, |n| n.get())
        .min(16);
    thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let Some((index, job)) = queue.lock().unwrap().pop() else {
                    break;
                };
                let stderr_path = scratch.join(format!("stderr-{index}.txt"));
                let found = match run(&job.args, &stderr_path) {
                    Ok(outcome) => {
                        let found = problems(&outcome, job.located);
                        if found.is_empty() {
                            vec![]
                        } else {
                            vec![format!(
                                "{}: {}\n    stderr: {}",
                                job.label,
                                found.join("; "),
                                excerpt(&outcome.stderr)
                            )]
                        }
                    }
                    Err(e) => vec![format!("{}: {e}", job.label)],
                };
                let _ = fs::remove_file(&stderr_path);
                failures.lock().unwrap().extend(found);
            });
        }
    });
    let mut failures = failures.into_inner().unwrap();
    failures.sort();
    failures
}

fn corpus_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(corpus_dir())
        .expect("test/corpus exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
        .collect();
    files.sort();
    files
}

/// Inputs that break dit-opt only when too big to commit; written to `dir` at test time.
fn generated_inputs(dir: &Path) -> Vec<PathBuf> {
    let n = 1_200_000;
    let deep_function_types = format!(
        "func.func private @f() -> ({}i32{})\n",
        "()->(".repeat(n),
        ")".repeat(n + 1)
    );
    let cases = [(
        "generated-deep-function-types-1200000.mlir",
        deep_function_types,
    )];
    cases
        .into_iter()
        .map(|(name, text)| {
            let path = dir.join(name);
            fs::write(&path, text).expect("write a generated input");
            path
        })
        .collect()
}

#[test]
fn malformed_inputs_fail_cleanly() {
    let scratch = tempfile::tempdir().expect("temp dir");
    let files = corpus_files();
    let mut failures = Vec::new();
    if files.len() < 70 {
        failures.push(format!(
            "test/corpus has {} .mlir files, expected at least 70",
            files.len()
        ));
    }
    let readme = fs::read_to_string(corpus_dir().join("README.md")).unwrap_or_default();
    for file in &files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        if !readme.contains(&name) {
            failures.push(format!("{name}: not described in test/corpus/README.md"));
        }
    }
    let mut inputs = files.clone();
    inputs.extend(generated_inputs(scratch.path()));
    let mut jobs = Vec::new();
    for input in &inputs {
        let name = input.file_name().unwrap().to_string_lossy().into_owned();
        for mode in MODES {
            let mut args: Vec<OsString> = mode.iter().map(OsString::from).collect();
            args.push(input.clone().into_os_string());
            let how = if mode.is_empty() {
                "plain".to_string()
            } else {
                mode.join(" ")
            };
            jobs.push(Job {
                label: format!("{name} [{how}]"),
                args,
                located: true,
            });
        }
    }
    let runs = jobs.len();
    failures.extend(run_all(jobs, scratch.path()));
    assert!(
        failures.is_empty(),
        "{} of {runs} corpus runs failed ({} inputs):\n{}",
        failures.len(),
        inputs.len(),
        failures.join("\n")
    );
}

#[test]
fn bad_command_lines_fail_cleanly() {
    let scratch = tempfile::tempdir().expect("temp dir");
    let valid = scratch.path().join("valid.mlir");
    fs::write(
        &valid,
        "func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n  \
         %0 = \"dit.relu\"(%x) : (tensor<4xf32>) -> tensor<4xf32>\n  return %0 : tensor<4xf32>\n}\n",
    )
    .expect("write valid input");
    let valid = valid.to_string_lossy().into_owned();
    let missing = scratch
        .path()
        .join("missing.mlir")
        .to_string_lossy()
        .into_owned();
    let bad_output = scratch
        .path()
        .join("no/such/dir/out.mlir")
        .to_string_lossy()
        .into_owned();
    let dir = scratch.path().to_string_lossy().into_owned();
    let cases: Vec<(&str, Vec<&str>)> = vec![
        ("unknown flag", vec!["--no-such-flag", &valid]),
        ("unknown target", vec!["--target=gpu", &valid]),
        ("empty target", vec!["--target=", &valid]),
        (
            "unknown pass in pipeline",
            vec!["--pass-pipeline=builtin.module(nosuch)", &valid],
        ),
        (
            "unterminated pipeline",
            vec!["--pass-pipeline=builtin.module(dit-dce", &valid],
        ),
        (
            "non-ASCII after a pass name",
            vec!["--pass-pipeline=builtin.module(dit-dce\u{e9})", &valid],
        ),
        (
            "non-ASCII pass name",
            vec!["--pass-pipeline=builtin.module(\u{e9})", &valid],
        ),
        (
            "pipeline and pass flag",
            vec![
                "--pass-pipeline=builtin.module(dit-dce)",
                "--dit-cse",
                &valid,
            ],
        ),
        ("missing input file", vec![&missing]),
        ("input is a directory", vec![&dir]),
        ("two inputs", vec![&valid, &valid]),
        (
            "-o into a missing directory",
            vec![&valid, "-o", &bad_output],
        ),
        (
            "-o into a missing directory, split",
            vec!["--split-input-file", &valid, "-o", &bad_output],
        ),
    ];
    let jobs = cases
        .into_iter()
        .map(|(label, args)| Job {
            label: format!("{label} ({})", args.join(" ")),
            args: args.into_iter().map(OsString::from).collect(),
            located: false,
        })
        .collect();
    let failures = run_all(jobs, scratch.path());
    assert!(
        failures.is_empty(),
        "{} command lines misbehaved:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn located_error_matcher() {
    assert!(is_located_error("a.mlir:2:8: error: 'dit.x' op bad"));
    assert!(is_located_error("C:/x y/a.mlir:10:1: error: m"));
    assert!(!is_located_error(
        "<command line>: error: unexpected argument"
    ));
    assert!(!is_located_error("a.mlir:2: error: m"));
    assert!(!is_located_error(":2:8: error: m"));
    assert!(!is_located_error("a.mlir:x:8: error: m"));
    assert!(!is_located_error("a.mlir:2:8: warning: m"));
}
