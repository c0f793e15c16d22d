//! Operand order of commutative ops never decides whether a fusion fires (issue 13). For every
//! fusion pipeline a fusion test file ([`SOURCES`]) runs (its RUN lines' dit-opt options that
//! choose passes, switches and target) and every function that pipeline changes (a positive
//! case: the output's ops differ from the input's), this writes variants of the function's
//! split chunk with the operands of one commutative op (dit.add, dit.mul) swapped, one variant
//! per op, plus one with all of them swapped, runs the same pipeline on all variants of a file
//! at once (--split-input-file), and requires each variant's output to hold the same multiset
//! of ops as the original's. Hand-written mirror tests cannot cover what a new pattern forgets;
//! this covers every pattern a lit test exercises.

use std::{
    collections::BTreeMap,
    fs,
    path::{Path, PathBuf},
    process::Command,
};

/// The fusion tests: directories (every .mlir in them) and files.
const SOURCES: [&str; 2] = ["test/Patterns", "test/Regression"];
const SPLIT: &str = "// -----";
/// Fewer variants than this means the generator stopped finding the tests' ops.
const MIN_VARIANTS: usize = 150;
const COMMUTATIVE: [&str; 2] = ["dit.add", "dit.mul"];

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("repository root")
}

/// The options of each RUN line's first dit-opt that choose what fuses (passes other than the
/// lowering, switches, target), deduplicated: report and output options do not change the IR.
/// `dir` replaces lit's `%S` (the test's directory).
fn pipelines(text: &str, dir: &str) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = Vec::new();
    for line in text.lines() {
        let Some(run) = line.trim_start().strip_prefix("// RUN:") else {
            continue;
        };
        let Some(rest) = run.trim_start().strip_prefix("dit-opt %s") else {
            continue;
        };
        let first = rest.split('|').next().unwrap_or_default();
        let options: Vec<String> = first
            .split_whitespace()
            .filter(|t| {
                (t.starts_with("--dit-") && !t.starts_with("--dit-lower"))
                    || t.starts_with("--fuse")
                    || t.starts_with("--no-fuse")
                    || t.starts_with("--target")
            })
            .map(|t| t.replace("%S", dir))
            .collect();
        if options.is_empty() || out.contains(&options) {
            continue;
        }
        out.push(options);
    }
    out
}

/// The split chunks of a test file, as `--split-input-file` cuts them.
fn chunks(text: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    for line in text.lines() {
        if line.trim_end() == SPLIT {
            out.push(String::new());
        } else {
            let last = out.last_mut().expect("one chunk");
            last.push_str(line);
            last.push('\n');
        }
    }
    out
}

/// The name of the op a line defines in generic form (`%0 = "dit.mul"(…)`), if any.
fn op_name(line: &str) -> Option<&str> {
    let t = line.trim_start();
    if t.starts_with("//") {
        return None;
    }
    let start = t.find('"')?;
    // Only the op's own quote: `"name"(` right at the start or after `= `.
    let before = t[..start].trim_end();
    if !(before.is_empty() || before.ends_with('=')) {
        return None;
    }
    let rest = &t[start + 1..];
    let end = rest.find('"')?;
    rest[end + 1..].starts_with('(').then(|| &rest[..end])
}

/// Line ranges of the functions of a chunk, by name, skipping comments and strings for braces.
fn functions(chunk: &str) -> Vec<(String, std::ops::Range<usize>)> {
    let lines: Vec<&str> = chunk.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].trim_start();
        let Some(rest) = (!t.starts_with("//"))
            .then(|| t.strip_prefix("func.func @"))
            .flatten()
        else {
            i += 1;
            continue;
        };
        let name = rest.split('(').next().unwrap_or_default().to_string();
        let start = i;
        let mut depth = 0i64;
        loop {
            let mut in_string = false;
            let code = lines[i].split("//").next().unwrap_or_default();
            for c in code.chars() {
                match c {
                    '"' => in_string = !in_string,
                    '{' if !in_string => depth += 1,
                    '}' if !in_string => depth -= 1,
                    _ => {}
                }
            }
            i += 1;
            if depth <= 0 || i >= lines.len() {
                break;
            }
        }
        out.push((name, start..i));
    }
    out
}

/// The ops of a function body, by name and count (constants and the terminator left out: they
/// say nothing about what fused).
fn op_counts(lines: &[&str]) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for line in lines {
        if let Some(name) = op_name(line) {
            *out.entry(name.to_string()).or_default() += 1;
        }
    }
    out
}

/// Splits `s` at its top-level commas (not inside `<…>`, `(…)`, `[…]`, `{…}`).
fn top_level_split(s: &str) -> Vec<&str> {
    let (mut out, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, c) in s.char_indices() {
        match c {
            '<' | '(' | '[' | '{' => depth += 1,
            '>' | ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(s[start..].trim());
    out
}

/// The line with the two operands (and their types) of a binary generic op swapped; `None` if
/// the line is not such an op or swapping changes nothing (`x·x`).
fn swapped(line: &str) -> Option<String> {
    let name = op_name(line)?;
    if !COMMUTATIVE.contains(&name) {
        return None;
    }
    let open = line.find(&format!("\"{name}\"("))? + name.len() + 3;
    let close = open + line[open..].find(')')?;
    let operands = top_level_split(&line[open..close]);
    let sig = close + line[close..].find(": (")? + 3;
    let arrow = sig + line[sig..].find(") -> ")?;
    let types = top_level_split(&line[sig..arrow]);
    if operands.len() != 2 || types.len() != 2 || operands[0] == operands[1] {
        return None;
    }
    Some(format!(
        "{}{}, {}{}{}, {}{}",
        &line[..open],
        operands[1],
        operands[0],
        &line[close..sig],
        types[1],
        types[0],
        &line[arrow..]
    ))
}

/// One variant: which chunk and function it comes from and what was swapped.
struct Variant {
    chunk: usize,
    function: String,
    what: String,
    text: String,
}

fn run_dit_opt(root: &Path, input: &Path, pipeline: &[String]) -> Vec<String> {
    let output = Command::new(env!("CARGO_BIN_EXE_dit-opt"))
        .current_dir(root)
        .arg(input)
        .arg("--split-input-file")
        .args(pipeline)
        .output()
        .expect("cannot run dit-opt");
    assert!(
        output.status.success(),
        "dit-opt {} {} failed:\n{}",
        input.display(),
        pipeline.join(" "),
        String::from_utf8_lossy(&output.stderr)
    );
    chunks(&String::from_utf8_lossy(&output.stdout))
}

/// Op counts per function of one output chunk.
fn fused_counts(chunk: &str) -> BTreeMap<String, BTreeMap<String, usize>> {
    let lines: Vec<&str> = chunk.lines().collect();
    functions(chunk)
        .into_iter()
        .map(|(name, range)| (name, op_counts(&lines[range])))
        .collect()
}

#[test]
fn commuted_operands_fuse_the_same() {
    let root = repo_root();
    let scratch = tempfile::tempdir().expect("temp dir");
    let mut files: Vec<PathBuf> = Vec::new();
    for source in SOURCES {
        let path = root.join(source);
        if path.is_dir() {
            let mut in_dir: Vec<PathBuf> = fs::read_dir(&path)
                .unwrap_or_else(|e| panic!("cannot list {source}: {e}"))
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
                .collect();
            in_dir.sort();
            files.extend(in_dir);
        } else {
            files.push(path);
        }
    }
    let (mut checked, mut failures) = (0usize, Vec::new());
    for file in &files {
        let text = fs::read_to_string(file).expect("test text");
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        let source = chunks(&text);
        let dir = file
            .parent()
            .expect("test dir")
            .to_string_lossy()
            .into_owned();
        for (p, pipeline) in pipelines(&text, &dir).iter().enumerate() {
            let fused = run_dit_opt(&root, file, pipeline);
            assert_eq!(
                fused.len(),
                source.len(),
                "{stem}: dit-opt {} printed {} chunks for {} inputs",
                pipeline.join(" "),
                fused.len(),
                source.len()
            );
            let mut variants = Vec::new();
            for (c, chunk) in source.iter().enumerate() {
                let lines: Vec<&str> = chunk.lines().collect();
                let after = fused_counts(&fused[c]);
                for (name, range) in functions(chunk) {
                    if after.get(&name) == Some(&op_counts(&lines[range.clone()])) {
                        continue;
                    }
                    let swaps: Vec<(usize, String)> = range
                        .clone()
                        .filter_map(|i| swapped(lines[i]).map(|s| (i, s)))
                        .collect();
                    let mut with = |what: String, picked: &[&(usize, String)]| {
                        let mut out = lines.iter().map(|l| l.to_string()).collect::<Vec<_>>();
                        for (i, s) in picked {
                            out[*i] = s.clone();
                        }
                        variants.push(Variant {
                            chunk: c,
                            function: name.clone(),
                            what,
                            text: out.join("\n") + "\n",
                        });
                    };
                    for swap in &swaps {
                        with(format!("swapped: {}", swap.1.trim()), &[swap]);
                    }
                    if swaps.len() > 1 {
                        with("all swapped".into(), &swaps.iter().collect::<Vec<_>>());
                    }
                }
            }
            if variants.is_empty() {
                continue;
            }
            let input = scratch.path().join(format!("{stem}-{p}.mlir"));
            let joined: Vec<&str> = variants.iter().map(|v| v.text.as_str()).collect();
            fs::write(&input, joined.join(&format!("{SPLIT}\n"))).expect("write variants");
            let outputs = run_dit_opt(&root, &input, pipeline);
            assert_eq!(outputs.len(), variants.len(), "{stem}: variant chunks");
            for (v, out) in variants.iter().zip(&outputs) {
                checked += 1;
                let expected = fused_counts(&fused[v.chunk]).remove(&v.function);
                let got = fused_counts(out).remove(&v.function);
                if expected != got {
                    failures.push(format!(
                        "{stem}.mlir @{} [{}]\n  {}\n  original: {:?}\n  variant:  {:?}",
                        v.function,
                        pipeline.join(" "),
                        v.what,
                        expected.unwrap_or_default(),
                        got.unwrap_or_default()
                    ));
                }
            }
        }
    }
    println!("commuted: {checked} variants checked");
    assert!(
        failures.is_empty(),
        "{} of {checked} commuted variants fuse differently:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        checked >= MIN_VARIANTS,
        "only {checked} commuted variants were checked (expected at least {MIN_VARIANTS})"
    );
}

#[cfg(test)]
mod generator {
    use super::*;

    #[test]
    fn swaps_operands_and_types() {
        let line =
            r#"  %g = "dit.mul"(%hx, %p) : (tensor<f32>, tensor<4x?xf32>) -> tensor<4x?xf32>"#;
        assert_eq!(
            swapped(line).as_deref(),
            Some(
                r#"  %g = "dit.mul"(%p, %hx) : (tensor<4x?xf32>, tensor<f32>) -> tensor<4x?xf32>"#
            )
        );
        let square = r#"%s = "dit.mul"(%x, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>"#;
        assert_eq!(swapped(square), None);
        let sub = r#"%s = "dit.sub"(%x, %y) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>"#;
        assert_eq!(swapped(sub), None);
    }

    #[test]
    fn pipelines_keep_what_decides_fusion() {
        let text = "// RUN: dit-opt %s --split-input-file --dit-fuse-patterns --fuse=rope --fusion-report=text -o /dev/null 2>&1 | FileCheck %s\n\
                    // RUN: dit-opt %s --split-input-file --dit-fuse-patterns --fuse=rope | FileCheck %s\n\
                    // RUN: dit-opt %s --dit-fuse-patterns --target=%S/t.toml | FileCheck %s\n\
                    // RUN: dit-run %s --split-input-file --compare-unfused\n";
        assert_eq!(
            pipelines(text, "/t"),
            vec![
                vec!["--dit-fuse-patterns".to_string(), "--fuse=rope".to_string()],
                vec![
                    "--dit-fuse-patterns".to_string(),
                    "--target=/t/t.toml".to_string()
                ],
            ]
        );
    }

    #[test]
    fn functions_end_at_their_brace() {
        let chunk =
            "func.func @a() {\n  %0 = \"dit.x\"() {s = \"}\"} : () -> ()\n}\nfunc.func @b() {\n}\n";
        let f = functions(chunk);
        assert_eq!(f[0], ("a".to_string(), 0..3));
        assert_eq!(f[1], ("b".to_string(), 3..5));
    }
}
