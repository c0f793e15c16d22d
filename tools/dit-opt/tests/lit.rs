//! Runs the whole lit suite (test/) with LLVM 22's lit and FileCheck against the dit-opt
//! that cargo just built; any failing lit test fails this test.

use std::{path::Path, process::Command};

#[test]
fn lit_suite_passes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_dit-opt"))
        .parent()
        .expect("binary dir");
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
