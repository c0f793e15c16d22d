//! The mutation fuzzer's shared half (used by dit-opt's and dit-run's `tests/mutation.rs`):
//! seeds from the lit suite and the corpus, a small deterministic PRNG, mutations that keep
//! most inputs parseable, and the checks every run must pass.
//!
//! The mutations aim at what a parser-level fuzzer rarely reaches: numbers inside tensor types
//! and attributes (huge dims, i64::MAX, 1e308), op names and element types swapped for others
//! of the suite, names and unknown locations, `// -----` separators; plus the blunt ones (byte
//! flips, inserted and deleted tokens, duplicated, deleted and swapped lines, truncation,
//! nested brackets).

#![allow(dead_code)]

use std::{
    fs,
    os::unix::process::ExitStatusExt,
    path::{Path, PathBuf},
    process::{Command, Stdio},
    sync::Mutex,
    thread,
    time::{Duration, Instant},
};

/// splitmix64: tiny, seedable, and the same sequence on every platform, so a failure is
/// reproduced from the seed and index alone.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// A number read from an env var, or `default`.
pub fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

/// The test suite's root (`test/`).
pub fn test_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test")
}

/// One seed: where it comes from and its text (comments stripped, so that no `CHECK:` line
/// echoed under a diagnostic can look like one).
pub struct Seed {
    pub origin: String,
    pub text: String,
}

/// Seeds bigger than this are left out: the deep-nesting corpus files only test the nesting
/// guard, which one mutation (`nest`) reaches anyway.
const MAX_SEED_BYTES: usize = 16 * 1024;

fn mlir_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n != "Output") {
                mlir_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "mlir") {
            out.push(path);
        }
    }
}

/// Every `// -----` chunk of every `.mlir` file under `test/` that `accept` takes (by path and
/// file text), comments stripped.
pub fn seeds(accept: impl Fn(&Path, &str) -> bool) -> Vec<Seed> {
    let root = test_dir();
    let mut files = Vec::new();
    mlir_files(&root, &mut files);
    let mut seeds = Vec::new();
    for path in files {
        let Ok(text) = fs::read_to_string(&path) else {
            continue;
        };
        if !accept(&path, &text) {
            continue;
        }
        let name = path
            .strip_prefix(&root)
            .unwrap_or(&path)
            .display()
            .to_string();
        for (i, chunk) in text.split("\n// -----\n").enumerate() {
            let stripped: String = chunk
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .map(|l| format!("{l}\n"))
                .collect();
            if stripped.trim().is_empty() || stripped.len() > MAX_SEED_BYTES {
                continue;
            }
            seeds.push(Seed {
                origin: format!("{name}#{i}"),
                text: stripped,
            });
        }
    }
    seeds
}

/// Numbers that break size arithmetic, index checks and float parsing.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "7",
    "64",
    "4096",
    "65536",
    "2147483647",
    "2147483648",
    "4294967296",
    "1099511627776",
    "4611686018427387904",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551616",
    "-1",
    "-9223372036854775808",
    "1e308",
    "-1e308",
    "1.0e-320",
    "0x7FF0000000000000",
    "nan",
    "inf",
];

/// Dims for tensor types: the numbers above that MLIR accepts as a dim, plus `?`.
const DIMS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "7",
    "64",
    "4096",
    "65536",
    "2147483648",
    "4294967296",
    "1099511627776",
    "4611686018427387904",
    "9223372036854775807",
    "?",
];

const ELEMENTS: &[&str] = &[
    "f32", "f16", "bf16", "f64", "i1", "i4", "i8", "i16", "i32", "i64", "index",
];

/// Tokens inserted as they are.
const TOKENS: &[&str] = &[
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "<",
    ">",
    ",",
    ":",
    "=",
    "->",
    "%0",
    "%arg0",
    "x",
    "?x",
    "f32",
    "tensor<4xf32>",
    "tensor<9223372036854775807x9223372036854775807xf32>",
    "\"dit.relu\"",
    "loc(unknown)",
    "loc(\"fz\")",
    "dim = 9223372036854775807 : i64",
    "\n// -----\n",
    "\"",
    "\\",
    "#",
    "@",
    "^bb0:",
];

/// A mutant and what was done to make it.
pub struct Mutant {
    pub text: Vec<u8>,
    pub how: Vec<&'static str>,
}

impl Mutant {
    /// Whether the input as a whole fails before any chunk is parsed (bytes that are not
    /// UTF-8, NUL, deep nesting): such a mutant is run alone, not in a batch.
    pub fn whole_file_failure(&self) -> bool {
        self.how.contains(&"nest")
            || self.text.contains(&0)
            || std::str::from_utf8(&self.text).is_err()
    }
}

/// Byte ranges of the decimal numbers of `text` (with a leading `-`).
fn numbers(text: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        if text[i].is_ascii_digit() {
            let start = if i > 0 && text[i - 1] == b'-' {
                i - 1
            } else {
                i
            };
            let before = if start > 0 { text[start - 1] } else { b' ' };
            let mut end = i;
            while end < text.len() && (text[end].is_ascii_digit() || text[end] == b'.') {
                end += 1;
            }
            // Not the digits of an identifier (`%arg0`, `f32`, `bb0`).
            if !(before.is_ascii_alphabetic() || before == b'_' || before == b'%') {
                out.push((start, end));
            }
            i = end;
        } else {
            i += 1;
        }
    }
    out
}

/// Byte ranges of the dims inside `tensor<...>` types.
fn tensor_dims(text: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(at) = find(&text[i..], b"tensor<") {
        let start = i + at + 7;
        let mut end = start;
        while end < text.len() && text[end] != b'>' && text[end] != b'\n' {
            end += 1;
        }
        let mut j = start;
        while j < end {
            if text[j].is_ascii_digit() || text[j] == b'?' {
                let s = j;
                while j < end && (text[j].is_ascii_digit() || text[j] == b'?') {
                    j += 1;
                }
                if j < end && text[j] == b'x' {
                    out.push((s, j));
                }
            } else {
                while j < end && text[j] != b'x' {
                    j += 1;
                }
            }
            j += 1;
        }
        i = end;
    }
    out
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Ranges of every occurrence of any of `words` as a whole word.
fn words(text: &[u8], words: &[&str]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for w in words {
        let mut i = 0;
        while let Some(at) = find(&text[i..], w.as_bytes()) {
            let s = i + at;
            let e = s + w.len();
            let before = if s > 0 { text[s - 1] } else { b' ' };
            let after = text.get(e).copied().unwrap_or(b' ');
            if !before.is_ascii_alphanumeric() && !after.is_ascii_alphanumeric() {
                out.push((s, e));
            }
            i = e;
        }
    }
    out
}

/// Ranges of the op names `"dit.xxx"` (without the quotes).
fn op_names(text: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(at) = find(&text[i..], b"\"dit.") {
        let s = i + at + 1;
        let mut e = s;
        while e < text.len()
            && (text[e].is_ascii_alphanumeric() || text[e] == b'.' || text[e] == b'_')
        {
            e += 1;
        }
        out.push((s, e));
        i = e;
    }
    out
}

/// Byte offsets where each line starts.
fn line_starts(text: &[u8]) -> Vec<usize> {
    let mut starts = vec![0];
    starts.extend(
        text.iter()
            .enumerate()
            .filter(|(_, b)| **b == b'\n')
            .map(|(i, _)| i + 1)
            .filter(|i| *i < text.len()),
    );
    starts
}

fn line_end(text: &[u8], start: usize) -> usize {
    text[start..]
        .iter()
        .position(|b| *b == b'\n')
        .map_or(text.len(), |p| start + p + 1)
}

fn splice(text: &mut Vec<u8>, (s, e): (usize, usize), with: &[u8]) {
    text.splice(s..e, with.iter().copied());
}

/// One to three mutations of `seed`; `op_pool` holds the op names to swap in.
pub fn mutate(rng: &mut Rng, seed: &str, op_pool: &[String]) -> Mutant {
    let mut text = seed.as_bytes().to_vec();
    let mut how = Vec::new();
    let count = 1 + rng.below(3);
    for _ in 0..count {
        // Weighted towards the mutations that keep the input parseable.
        let kind = match rng.below(100) {
            0..=21 => "dim",
            22..=35 => "number",
            36..=45 => "op-name",
            46..=52 => "element",
            53..=58 => "loc",
            59..=63 => "flip",
            64..=69 => "insert",
            70..=75 => "delete",
            76..=80 => "dup-line",
            81..=84 => "drop-line",
            85..=88 => "swap-lines",
            89..=91 => "truncate",
            92..=93 => "separator",
            94 => "nest",
            95..=96 => "dim-all",
            _ => "dim-rename",
        };
        if apply(rng, kind, &mut text, op_pool) {
            how.push(kind);
        }
    }
    Mutant { text, how }
}

fn apply(rng: &mut Rng, kind: &'static str, text: &mut Vec<u8>, op_pool: &[String]) -> bool {
    if text.is_empty() {
        return false;
    }
    match kind {
        "dim" | "number" | "op-name" | "element" => {
            let spots = match kind {
                "dim" => tensor_dims(text),
                "number" => numbers(text),
                "op-name" => op_names(text),
                _ => words(text, ELEMENTS),
            };
            if spots.is_empty() {
                return false;
            }
            let spot = *rng.pick(&spots);
            let with = match kind {
                "dim" => rng.pick(DIMS).to_string(),
                "number" => rng.pick(NUMBERS).to_string(),
                "op-name" if !op_pool.is_empty() => rng.pick(op_pool).clone(),
                "op-name" => "dit.relu".to_string(),
                _ => rng.pick(ELEMENTS).to_string(),
            };
            splice(text, spot, with.as_bytes());
        }
        "dim-all" => {
            // Every dim of one value's type the same huge number: sizes that overflow
            // whichever product is taken first.
            let spots = tensor_dims(text);
            if spots.is_empty() {
                return false;
            }
            let with = *rng.pick(&["4611686018427387904", "9223372036854775807", "4294967296"]);
            for spot in spots.into_iter().rev().filter(|_| rng.below(2) == 0) {
                splice(text, spot, with.as_bytes());
            }
        }
        "dim-rename" => {
            // One dim value replaced everywhere: shapes stay consistent, so the input verifies
            // and reaches the passes, the cost model and the runtime with odd or huge sizes.
            let spots = tensor_dims(text);
            if spots.is_empty() {
                return false;
            }
            let (s, e) = *rng.pick(&spots);
            let old = text[s..e].to_vec();
            let with = *rng.pick(&[
                "1",
                "3",
                "17",
                "4097",
                "65536",
                "2147483648",
                "1099511627776",
            ]);
            let same: Vec<(usize, usize)> = spots
                .into_iter()
                .filter(|(a, b)| text[*a..*b] == old[..])
                .collect();
            for spot in same.into_iter().rev() {
                splice(text, spot, with.as_bytes());
            }
        }
        "loc" => {
            let lines: Vec<usize> = line_starts(text)
                .into_iter()
                .filter(|s| {
                    let e = line_end(text, *s);
                    find(&text[*s..e], b"= \"dit.").is_some()
                        || find(&text[*s..e], b"func.func").is_some()
                })
                .collect();
            if lines.is_empty() {
                return false;
            }
            let s = *rng.pick(&lines);
            let e = line_end(text, s);
            let at = if text[e - 1] == b'\n' { e - 1 } else { e };
            let (at, loc): (usize, &[u8]) = if find(&text[s..e], b"func.func").is_some() {
                // Before the body's `{`.
                match text[s..e].iter().rposition(|b| *b == b'{') {
                    Some(p) => (s + p, *rng.pick(&[&b"loc(unknown) "[..], b"loc(\"f\") "])),
                    None => return false,
                }
            } else {
                (
                    at,
                    *rng.pick(&[
                        &b" loc(unknown)"[..],
                        b" loc(\"ff.net.0\")",
                        b" loc(\"n\"(unknown))",
                        b" loc(callsite(unknown at unknown))",
                        b" loc(fused[unknown])",
                    ]),
                )
            };
            text.splice(at..at, loc.iter().copied());
        }
        "flip" => {
            let at = rng.below(text.len());
            // Mostly ASCII-preserving: a non-UTF-8 byte fails the whole file at decoding.
            let bit = if rng.below(8) == 0 { 7 } else { rng.below(7) };
            text[at] ^= 1 << bit;
        }
        "insert" => {
            let at = rng.below(text.len() + 1);
            let token = rng.pick(TOKENS);
            text.splice(at..at, token.bytes());
        }
        "delete" => {
            // A whitespace-separated token.
            let at = rng.below(text.len());
            let mut s = at;
            while s > 0 && !text[s - 1].is_ascii_whitespace() {
                s -= 1;
            }
            let mut e = at;
            while e < text.len() && !text[e].is_ascii_whitespace() {
                e += 1;
            }
            text.drain(s..e);
        }
        "dup-line" | "drop-line" | "swap-lines" | "separator" => {
            let starts = line_starts(text);
            let s = *rng.pick(&starts);
            let e = line_end(text, s);
            match kind {
                "dup-line" => {
                    let line = text[s..e].to_vec();
                    text.splice(e..e, line);
                }
                "drop-line" => {
                    text.drain(s..e);
                }
                "separator" => {
                    text.splice(s..s, b"// -----\n".iter().copied());
                }
                _ => {
                    let t = *rng.pick(&starts);
                    let te = line_end(text, t);
                    if t == s {
                        return false;
                    }
                    let (a, b) = if s < t {
                        ((s, e), (t, te))
                    } else {
                        ((t, te), (s, e))
                    };
                    let first = text[a.0..a.1].to_vec();
                    let second = text[b.0..b.1].to_vec();
                    splice(text, b, &first);
                    splice(text, a, &second);
                }
            }
        }
        "truncate" => {
            let at = rng.below(text.len());
            text.truncate(at);
        }
        "nest" => {
            let at = rng.below(text.len() + 1);
            let depth = *rng.pick(&[3usize, 64, 300, 5000]);
            let open = *rng.pick(&["(", "[", "{", "<", "tensor<"]);
            let close = match open {
                "(" => ")",
                "[" => "]",
                "{" => "}",
                _ => ">",
            };
            let nested = format!("{}{}", open.repeat(depth), close.repeat(depth));
            text.splice(at..at, nested.into_bytes());
        }
        _ => return false,
    }
    true
}

/// The `"dit.xxx"` op names the seeds use.
pub fn op_pool(seeds: &[Seed]) -> Vec<String> {
    let mut names: Vec<String> = seeds
        .iter()
        .flat_map(|s| {
            op_names(s.text.as_bytes())
                .into_iter()
                .map(|(a, b)| s.text[a..b].to_string())
                .collect::<Vec<_>>()
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

/// How one run ended.
pub struct Outcome {
    pub code: Option<i32>,
    pub signal: Option<i32>,
    pub timed_out: bool,
    pub stdout: Vec<u8>,
    pub stderr: String,
}

/// Runs `program args` with stdout and stderr in files under `scratch` (so that a huge
/// diagnostic cannot block the child on a full pipe), killed after `timeout`.
pub fn run(
    program: &str,
    args: &[String],
    scratch: &Path,
    tag: &str,
    timeout: Duration,
) -> Result<Outcome, String> {
    let out_path = scratch.join(format!("{tag}.stdout"));
    let err_path = scratch.join(format!("{tag}.stderr"));
    let out = fs::File::create(&out_path).map_err(|e| format!("cannot create stdout: {e}"))?;
    let err = fs::File::create(&err_path).map_err(|e| format!("cannot create stderr: {e}"))?;
    let mut child = Command::new(program)
        .args(args)
        .env_remove("RUST_BACKTRACE")
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .spawn()
        .map_err(|e| format!("cannot start {program}: {e}"))?;
    let start = Instant::now();
    let (status, timed_out) = loop {
        match child.try_wait().map_err(|e| format!("cannot wait: {e}"))? {
            Some(status) => break (status, false),
            None if start.elapsed() > timeout => {
                let _ = child.kill();
                break (child.wait().map_err(|e| format!("cannot reap: {e}"))?, true);
            }
            None => thread::sleep(Duration::from_millis(2)),
        }
    };
    let stdout = fs::read(&out_path).unwrap_or_default();
    let stderr = String::from_utf8_lossy(&fs::read(&err_path).unwrap_or_default()).into_owned();
    let _ = fs::remove_file(&out_path);
    let _ = fs::remove_file(&err_path);
    Ok(Outcome {
        code: status.code(),
        signal: status.signal(),
        timed_out,
        stdout,
        stderr,
    })
}

fn all_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// Whether `line` is a diagnostic header `<file>:<line>:<col>: <severity>: `.
pub fn is_located(line: &str) -> bool {
    ["error", "warning", "note", "remark"].iter().any(|severity| {
        let Some(at) = line.find(&format!(": {severity}: ")) else {
            return false;
        };
        let mut parts = line[..at].rsplitn(3, ':');
        matches!(
            (parts.next(), parts.next(), parts.next()),
            (Some(col), Some(row), Some(file)) if !file.is_empty() && all_digits(row) && all_digits(col)
        )
    })
}

/// Problems with stderr's errors: none located, or one without a location. The source line
/// and caret MLIR prints under a located diagnostic are skipped (they are the input's text).
pub fn unlocated_errors(stderr: &str) -> Vec<String> {
    let lines: Vec<&str> = stderr.lines().collect();
    let mut found = Vec::new();
    let mut located = 0;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        i += 1;
        if is_located(line) {
            located += usize::from(line.contains(": error: "));
            if lines.get(i + 1).is_some_and(|l| l.trim() == "^") {
                i += 2;
            }
            continue;
        }
        if line.contains("error: ") && !line.starts_with("<command line>: error: ") {
            found.push(format!("error without file:line:col: {line:.200}"));
        }
    }
    if located == 0 && found.is_empty() {
        found.push("exit code 1 without a located `file:line:col: error:`".to_string());
    }
    found
}

/// Problems every run has to avoid: a hang, a signal, an exit code other than 0 or 1, a panic.
pub fn crash_problems(outcome: &Outcome, timeout: Duration) -> Vec<String> {
    let mut found = Vec::new();
    if outcome.timed_out {
        found.push(format!("hang: still running after {} s", timeout.as_secs()));
    } else if let Some(signal) = outcome.signal {
        found.push(format!("killed by signal {signal}"));
    } else if !matches!(outcome.code, Some(0) | Some(1)) {
        found.push(format!("exit code {:?}", outcome.code));
    }
    for word in ["panicked", "RUST_BACKTRACE", "Assertion", "Stack dump"] {
        if outcome.stderr.contains(word) {
            found.push(format!("stderr contains {word:?}"));
        }
    }
    if outcome.code == Some(1) {
        found.extend(unlocated_errors(&outcome.stderr));
    }
    found
}

/// The first lines of stderr, for a failure message.
pub fn excerpt(stderr: &str) -> String {
    let text: String = stderr.lines().take(6).collect::<Vec<_>>().join(" | ");
    let cut: String = text.chars().take(600).collect();
    if cut.is_empty() {
        "<empty>".into()
    } else {
        cut
    }
}

/// Runs `job` on each item over `threads` threads; returns every result in item order.
/// What a fuzzing pass over its batches found: per batch the problems `check` named, how many
/// batches exited 0 and 1, when it started, where failing mutants are kept, and the scratch dir
/// (kept for rerunning the mutants of a failing batch alone).
pub struct FuzzPass {
    pub found: Vec<Vec<String>>,
    pub passed: usize,
    pub failed: usize,
    pub start: Instant,
    pub keep: PathBuf,
    pub scratch: tempfile::TempDir,
}

/// Runs `check(batch, scratch dir, tag)` over `runs` on two threads; `check` returns the problems
/// of the batch and its exit code.
pub fn run_batches<T: Sync>(
    runs: &[T],
    check: impl Fn(&T, &Path, &str) -> (Vec<String>, Option<i32>) + Sync,
) -> FuzzPass {
    let scratch = tempfile::tempdir().expect("temp dir");
    let start = Instant::now();
    let results = parallel(runs, 2, |i, run| {
        check(run, scratch.path(), &format!("r{i}"))
    });
    let exits = |code: i32| results.iter().filter(|(_, c)| *c == Some(code)).count();
    let (passed, failed) = (exits(0), exits(1));
    FuzzPass {
        found: results.into_iter().map(|(found, _)| found).collect(),
        passed,
        failed,
        start,
        keep: Path::new(env!("CARGO_TARGET_TMPDIR")).join("mutation-failures"),
        scratch,
    }
}

pub fn parallel<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    job: impl Fn(usize, &T) -> R + Sync,
) -> Vec<R> {
    let next = Mutex::new(0usize);
    let results: Mutex<Vec<(usize, R)>> = Mutex::new(Vec::new());
    thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| loop {
                let index = {
                    let mut n = next.lock().unwrap();
                    let i = *n;
                    *n += 1;
                    i
                };
                let Some(item) = items.get(index) else { break };
                let r = job(index, item);
                results.lock().unwrap().push((index, r));
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, r)| r).collect()
}

/// Writes a failing mutant where a developer can rerun it; returns the path.
pub fn keep_failure(dir: &Path, name: &str, text: &[u8]) -> String {
    let _ = fs::create_dir_all(dir);
    let path = dir.join(name);
    let _ = fs::write(&path, text);
    path.display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_dims_numbers_and_names() {
        let text =
            b"%0 = \"dit.relu\"(%arg0) {dim = -1 : i64} : (tensor<4x?x8xf32>) -> tensor<2xbf16>";
        let dims: Vec<&[u8]> = tensor_dims(text)
            .iter()
            .map(|(s, e)| &text[*s..*e])
            .collect();
        assert_eq!(dims, [&b"4"[..], b"?", b"8", b"2"]);
        let nums: Vec<&[u8]> = numbers(text).iter().map(|(s, e)| &text[*s..*e]).collect();
        assert!(nums.contains(&&b"-1"[..]) && !nums.contains(&&b"0"[..]));
        let ops: Vec<&[u8]> = op_names(text).iter().map(|(s, e)| &text[*s..*e]).collect();
        assert_eq!(ops, [&b"dit.relu"[..]]);
    }

    #[test]
    fn located_lines_are_told_apart() {
        assert!(unlocated_errors("a.mlir:1:2: error: x\n  line\n  ^\n").is_empty());
        assert!(!unlocated_errors("a.mlir: error: x\n").is_empty());
        assert!(!unlocated_errors("dit-run: error: internal failure\n").is_empty());
        assert!(!unlocated_errors("").is_empty());
        assert!(unlocated_errors("<command line>: error: bad\na:1:1: error: y\n").is_empty());
    }
}
