//! What the report counts is what the lowered program launches. For every model graph
//! (examples/, test/models/, test/models/exec/, test/models/imported/ through the torch
//! conversion) this runs `dit-opt --fuse-all --fusion-report=json`, lowers the fused module with
//! `--dit-lower-to-aclnn`, and counts, in the printed LLVM-dialect program, the kernel launches
//! of each function's per-call entry `@f` and of its init entry `@f_init`: every
//! `dit_rt_launch` call, weighted by the aclnn symbols of the kernel string it passes
//! (`aclnnSilu+aclnnMul` is two launches). The report's per-function kernels after fusion must
//! equal the per-call launches, and its pre-pack kernels the init launches. Graphs that do not
//! lower (dynamic dims) are listed with the reason; the bundled example and every exec model
//! must lower. The FLUX example's per-call entry must not concatenate weights.

mod support;
use serde_json::Value;
use std::{collections::HashMap, path::Path, process::Command};
use support::models::models;
use support::repo_root;

fn dit_opt() -> &'static str {
    env!("CARGO_BIN_EXE_dit-opt")
}

/// Launches per entry point of a printed lowered module: symbol -> launches.
fn launches(lowered: &str) -> HashMap<String, usize> {
    lowered
        .lines()
        .filter_map(|l| l.trim().strip_prefix("func.func @"))
        .map(|rest| rest.split('(').next().unwrap_or_default().to_string())
        .map(|name| {
            let n = kernels_of(lowered, &name)
                .iter()
                .map(|k| k.split('+').count())
                .sum();
            (name, n)
        })
        .collect()
}

struct Lowered {
    /// Per function: (report kernels after, per-call launches, report pre-pack, init launches).
    functions: Vec<(String, usize, usize, usize, usize)>,
    per_call_kernels: HashMap<String, Vec<String>>,
}

/// Fuses, reports and lowers one model; `Err` with the first error line when it does not lower.
fn lower(root: &Path, model: &str, out: &Path) -> Result<Lowered, String> {
    let fused = out.join("fused.mlir");
    let mut fuse = Command::new(dit_opt());
    fuse.current_dir(root).arg(model);
    if model.starts_with("test/models/imported/") {
        fuse.arg("--dit-convert-torch-to-dit");
    }
    let run = fuse
        .args(["--fuse-all", "--fusion-report=json", "-o"])
        .arg(&fused)
        .output()
        .expect("dit-opt runs");
    assert!(
        run.status.success(),
        "{model}: --fuse-all failed: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let report: Value = serde_json::from_slice(&run.stderr)
        .unwrap_or_else(|e| panic!("{model}: the JSON report does not parse: {e}"));
    let low = Command::new(dit_opt())
        .arg(&fused)
        .arg("--dit-lower-to-aclnn")
        .output()
        .expect("dit-opt runs");
    if !low.status.success() {
        let err = String::from_utf8_lossy(&low.stderr);
        return Err(err
            .lines()
            .find(|l| l.contains("error"))
            .unwrap_or_default()
            .to_string());
    }
    let text = String::from_utf8_lossy(&low.stdout).into_owned();
    let counted = launches(&text);
    let mut functions = Vec::new();
    for f in report["functions"].as_array().expect("functions") {
        let name = f["name"].as_str().unwrap().to_string();
        let measured = report_counts(f);
        let call = *counted
            .get(&name)
            .unwrap_or_else(|| panic!("{model}: no per-call entry @{name}"));
        let init = *counted
            .get(&format!("{name}_init"))
            .unwrap_or_else(|| panic!("{model}: no init entry @{name}_init"));
        functions.push((name, measured.0, call, measured.1, init));
    }
    // Kernel symbols of each per-call entry, for the weight-concat check.
    let mut per_call_kernels: HashMap<String, Vec<String>> = HashMap::new();
    for (name, _, _, _, _) in &functions {
        per_call_kernels.insert(name.clone(), kernels_of(&text, name));
    }
    Ok(Lowered {
        functions,
        per_call_kernels,
    })
}

/// The report's (kernels after, pre-pack kernels after) of function entry `f`.
fn report_counts(f: &Value) -> (usize, usize) {
    let count = |key: &str| f[key].as_u64().unwrap_or_else(|| panic!("no {key}")) as usize;
    (count("kernels_after"), count("prepack_kernels_after"))
}

/// The kernel strings (`aclnnCat`, `fused_f_0`, …) that entry `name` launches.
fn kernels_of(lowered: &str, name: &str) -> Vec<String> {
    let mut strings: HashMap<String, String> = HashMap::new();
    for line in lowered.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("llvm.mlir.global private constant @") {
            if let Some((sym, value)) = rest.split_once("(\"") {
                strings.insert(
                    sym.to_string(),
                    value.split("\\00").next().unwrap_or_default().to_string(),
                );
            }
        }
    }
    let mut inside = false;
    let mut addresses: HashMap<String, String> = HashMap::new();
    let mut out = Vec::new();
    for line in lowered.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("func.func @") {
            inside = rest.split('(').next() == Some(name);
            continue;
        }
        if !inside {
            continue;
        }
        if let Some((ssa, rhs)) = line.split_once(" = llvm.mlir.addressof @") {
            addresses.insert(
                ssa.to_string(),
                rhs.split_whitespace()
                    .next()
                    .unwrap_or_default()
                    .to_string(),
            );
        }
        if let Some((_, args)) = line.split_once("call @dit_rt_launch(") {
            let arg = args.split(", ").nth(2).unwrap_or_default();
            let kernel = addresses.get(arg).and_then(|s| strings.get(s));
            out.push(
                kernel
                    .unwrap_or_else(|| panic!("a launch in @{name} with an unknown kernel: {line}"))
                    .clone(),
            );
        }
    }
    out
}

#[test]
fn report_kernels_are_the_lowered_launches() {
    let root = repo_root();
    let dir = tempfile::tempdir().expect("tempdir");
    let mut table = String::from("model | function | report | per call | pre-pack | init\n");
    let mut mismatches = Vec::new();
    let mut not_lowered = Vec::new();
    for model in models(&root) {
        match lower(&root, &model, dir.path()) {
            Ok(lowered) => {
                for (name, report, call, prepack, init) in &lowered.functions {
                    table.push_str(&format!(
                        "{model} | {name} | {report} | {call} | {prepack} | {init}\n"
                    ));
                    if report != call || prepack != init {
                        mismatches.push(format!(
                            "{model} @{name}: report {report} kernels / {prepack} pre-pack, lowered {call} per call / {init} init"
                        ));
                    }
                }
                if model == "examples/flux_double_block.mlir" {
                    let kernels = &lowered.per_call_kernels["flux_double_block"];
                    assert!(
                        !kernels.iter().any(|k| k.contains("aclnnCat")),
                        "the FLUX example's per-call entry concatenates: {kernels:?}"
                    );
                }
            }
            Err(why) => {
                assert!(
                    !(model.starts_with("examples/") || model.starts_with("test/models/exec/")),
                    "{model} must lower: {why}"
                );
                not_lowered.push(format!("{model}: {why}"));
            }
        }
    }
    println!("{table}");
    println!("not lowered:\n  {}", not_lowered.join("\n  "));
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

#[test]
fn launches_weigh_multi_call_kernels() {
    let text = r#"
  llvm.mlir.global private constant @__dit_str_1("aclnnSilu+aclnnMul\00") {addr_space = 0 : i32} : !llvm.array<19 x i8>
  llvm.mlir.global private constant @__dit_str_2("fused_f_0\00") {addr_space = 0 : i32} : !llvm.array<10 x i8>
  func.func @f_init(%arg0: !llvm.ptr, %arg1: !llvm.ptr) -> i32 {
  }
  func.func @f(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr) -> i32 {
    %3 = llvm.mlir.addressof @__dit_str_1 : !llvm.ptr
    %4 = llvm.mlir.addressof @__dit_str_2 : !llvm.ptr
    call @dit_rt_launch(%arg0, %2, %3, %5, %6, %7, %8, %9) : (!llvm.ptr) -> ()
    call @dit_rt_launch(%arg0, %2, %4, %5, %6, %7, %8, %9) : (!llvm.ptr) -> ()
  }
"#;
    let counted = launches(text);
    assert_eq!(counted["f"], 3);
    assert_eq!(counted["f_init"], 0);
    assert_eq!(kernels_of(text, "f"), ["aclnnSilu+aclnnMul", "fused_f_0"]);
}
