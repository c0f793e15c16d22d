//! Runs the whole lit suite (test/) with LLVM 22's lit and FileCheck against the dit-opt
//! that cargo just built (and dit-run and libdit_plugin.so, built here for the same profile:
//! cargo builds only this package's binaries for its tests); any failing lit test fails this
//! test.

use std::{path::Path, process::Command};

#[test]
fn lit_suite_passes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_dit-opt"))
        .parent()
        .expect("binary dir");
    // dit-run and the mlir-opt plugin (test/Plugin) live in other packages; build them next
    // to dit-opt (a no-op when they are current).
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let profile_release = bin_dir.ends_with("release");
    let mut build = Command::new(cargo);
    build
        .args(["build", "--quiet", "-p", "dit-run", "-p", "dit-plugin"])
        .current_dir(&root);
    if profile_release {
        build.arg("--release");
    }
    if let Some(target_dir) = bin_dir.parent() {
        build.env("CARGO_TARGET_DIR", target_dir);
    }
    let status = build
        .status()
        .expect("cannot run cargo to build dit-run and dit-plugin");
    assert!(status.success(), "building dit-run and dit-plugin failed");
    let llvm_bin = option_env!("DIT_LLVM_BIN").unwrap_or("/usr/lib/llvm-22/bin");
    let lit = Path::new(llvm_bin).join("lit");
    let output = Command::new(&lit)
        .arg("-sv")
        .arg(root.join("test"))
        .env("DIT_BIN_DIR", bin_dir)
        .env("DIT_LLVM_BIN", llvm_bin)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e} (run scripts/setup.sh)", lit.display()));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    println!("{stdout}");
    eprintln!("{stderr}");
    assert!(output.status.success(), "lit failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("Passed"), "lit ran no test:\n{stdout}");
}
