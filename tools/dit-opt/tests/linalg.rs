//! `--emit=linalg` on every model graph (examples/, test/models/, test/models/exec/ and
//! test/models/imported/ through the torch conversion): `dit-opt --fuse-all --emit=linalg -o DIR`
//! must lower every dit.fused group (one DIR/<kernel>.mlir each, as many files as the fused
//! module has groups) and upstream `mlir-opt --allow-unregistered-dialect` (LLVM 22) must parse
//! and verify every file. Groups that cannot be lowered yet are listed in [`NOT_LOWERED`] with
//! the reason the pass gives; an unlisted failure, or a listed group that now lowers, fails the
//! test. Prints groups lowered / total per model and over all.

mod support;
use std::{
    fs,
    path::{Path, PathBuf},
    process::Command,
};
use support::models::models;
use support::repo_root;

/// (model, kernel, part of the pass's error) for groups that do not lower yet.
const NOT_LOWERED: &[(&str, &str, &str)] = &[];

fn dit_opt() -> &'static str {
    env!("CARGO_BIN_EXE_dit-opt")
}

fn mlir_opt() -> PathBuf {
    let bin = std::env::var("DIT_LLVM_BIN").unwrap_or_else(|_| "/usr/lib/llvm-22/bin".into());
    let path = Path::new(&bin).join("mlir-opt");
    assert!(
        path.exists(),
        "{} not found: run scripts/setup.sh or set DIT_LLVM_BIN",
        path.display()
    );
    path
}

/// The kernel names of the `dit.fused` groups `--fuse-all` forms in `model`.
fn groups(root: &Path, model: &str, import: &[&str]) -> Vec<String> {
    let out = Command::new(dit_opt())
        .args(import)
        .arg("--fuse-all")
        .arg(root.join(model))
        .output()
        .expect("run dit-opt");
    assert!(
        out.status.success(),
        "{model}: dit-opt --fuse-all failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let mut names = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.split("{kernel = \"").nth(1) {
            if line.trim_start().starts_with('}') {
                names.push(rest.split('"').next().unwrap_or_default().to_string());
            }
        }
    }
    assert_eq!(
        names.len(),
        text.matches("\"dit.fused\"(").count(),
        "{model}: every group has a kernel name"
    );
    names
}

#[test]
fn every_fused_group_of_every_model_lowers_to_upstream_linalg() {
    let root = repo_root();
    let mlir_opt = mlir_opt();
    let scratch = tempfile::tempdir().expect("temp dir");
    let (mut lowered_all, mut total_all) = (0usize, 0usize);
    let mut problems = Vec::new();
    let mut expected_seen = vec![false; NOT_LOWERED.len()];
    for (m, model) in models(&root).iter().enumerate() {
        let import: &[&str] = if model.starts_with("test/models/imported/") {
            &["--dit-convert-torch-to-dit"]
        } else {
            &[]
        };
        let names = groups(&root, model, import);
        let dir = scratch.path().join(m.to_string());
        let out = Command::new(dit_opt())
            .args(import)
            .args(["--fuse-all", "--emit=linalg", "-o"])
            .arg(&dir)
            .arg(root.join(model))
            .output()
            .expect("run dit-opt");
        let stderr = String::from_utf8_lossy(&out.stderr);
        let mut lowered = 0;
        if out.status.success() {
            for name in &names {
                let file = dir.join(format!("{name}.mlir"));
                if !file.exists() {
                    problems.push(format!("{model}: no {name}.mlir written"));
                    continue;
                }
                let check = Command::new(&mlir_opt)
                    .arg("--allow-unregistered-dialect")
                    .arg(&file)
                    .output()
                    .expect("run mlir-opt");
                if check.status.success() {
                    lowered += 1;
                } else {
                    problems.push(format!(
                        "{model}: {name}.mlir does not parse upstream:\n{}",
                        String::from_utf8_lossy(&check.stderr)
                    ));
                }
            }
            let files = fs::read_dir(&dir).map(|d| d.count()).unwrap_or(0);
            if files != names.len() {
                problems.push(format!("{model}: {files} files for {} groups", names.len()));
            }
        } else {
            // Every error line names a kernel: match it against the list.
            for line in stderr.lines().filter(|l| l.contains(": error: ")) {
                let listed = NOT_LOWERED.iter().position(|(mo, k, why)| {
                    mo == model && line.contains(&format!(" {k}: ")) && line.contains(why)
                });
                match listed {
                    Some(i) => expected_seen[i] = true,
                    None => problems.push(format!("{model}: unlisted failure: {line}")),
                }
            }
        }
        println!(
            "{model}: {lowered} / {} groups lowered{}",
            names.len(),
            if out.status.success() {
                ""
            } else {
                " (failed)"
            }
        );
        lowered_all += lowered;
        total_all += names.len();
    }
    for (i, seen) in expected_seen.iter().enumerate() {
        if !seen {
            let (model, kernel, _) = NOT_LOWERED[i];
            problems.push(format!(
                "{model}: {kernel} is listed as not lowered but no longer fails: drop it from NOT_LOWERED"
            ));
        }
    }
    println!(
        "all models: {lowered_all} / {total_all} groups lowered to linalg and parsed by mlir-opt"
    );
    assert!(
        total_all > 100,
        "expected the model graphs to hold over 100 groups, found {total_all}"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
