//! Compiles the PDLL patterns (patterns/*.pdll, gathered by patterns/all.pdll) to PDL with
//! LLVM 22's mlir-pdll; the result is embedded and run by MLIR's PDL interpreter.

use std::{env, fs, path::PathBuf, process::Command};

#[path = "src/pdl_commute.rs"]
mod pdl_commute;

fn main() {
    let prefix = env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into());
    let pdll = PathBuf::from(&prefix).join("bin/mlir-pdll");
    let out =
        PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("patterns.pdl.mlir");
    println!("cargo:rerun-if-changed=patterns");
    println!("cargo:rerun-if-changed=src/pdl_commute.rs");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    let output = Command::new(&pdll)
        .args(["patterns/all.pdll", "--x=mlir", "-I", "patterns", "-o"])
        .arg(&out)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {} ({e}): run scripts/setup.sh", pdll.display()));
    if !output.status.success() {
        panic!(
            "mlir-pdll rejected the patterns:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    // Operand order of add/mul is no author's concern: every pattern gets its commuted copies.
    let pdl = fs::read_to_string(&out).expect("mlir-pdll wrote its output");
    let expanded = pdl_commute::expand(&pdl).unwrap_or_else(|e| panic!("patterns: {e}"));
    fs::write(&out, expanded).expect("cannot write the expanded patterns");
}
