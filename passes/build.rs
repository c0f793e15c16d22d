//! Compiles the PDLL patterns (patterns/*.pdll, gathered by patterns/all.pdll) to PDL with
//! LLVM 22's mlir-pdll, and writes the result as bytecode with its mlir-opt; the bytecode is
//! embedded and run by MLIR's PDL interpreter. Also
//! compiles lib/PassRegistration.cpp, the C++ half of the MLIR pass registration
//! (src/mlir_registry.rs).

use std::{env, fs, path::PathBuf, process::Command};

#[path = "src/patterns/pdl_commute.rs"]
mod pdl_commute;

#[path = "../dialects/dit/build_llvm.rs"]
mod build_llvm;

fn main() {
    let prefix = build_llvm::prefix();
    let pdll = PathBuf::from(&prefix).join("bin/mlir-pdll");
    let out =
        PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("patterns.pdl.mlir");
    println!("cargo:rerun-if-changed=patterns");
    println!("cargo:rerun-if-changed=src/patterns/pdl_commute.rs");
    println!("cargo:rerun-if-changed=../dialects/dit/build_llvm.rs");
    println!("cargo:rerun-if-changed=lib/PassRegistration.cpp");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    compile_pass_registration(&prefix);
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
    write_bytecode(&prefix, &out);
}

/// Writes the PDL module as MLIR bytecode next to its text (patterns.pdl.mlirbc), with the
/// mlir-opt of the same install: dit-fuse-patterns reads it on every run, and reading the
/// bytecode costs a fraction of parsing the 200 KB of text (issue 17, compile time). Same
/// IR, locations included.
fn write_bytecode(prefix: &str, text: &std::path::Path) {
    let opt = PathBuf::from(prefix).join("bin/mlir-opt");
    let output = Command::new(&opt)
        .arg(text)
        .args(["--emit-bytecode", "-o"])
        .arg(text.with_extension("mlirbc"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run {} ({e}): run scripts/setup.sh", opt.display()));
    if !output.status.success() {
        panic!(
            "mlir-opt cannot write the PDL patterns as bytecode:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

/// Compiles the mlir::Pass wrapper of the Rust passes against the headers of the LLVM/MLIR 22
/// install that mlir-sys links (dit-opt) and that libMLIR.so comes from (the plugin).
fn compile_pass_registration(prefix: &str) {
    let include = build_llvm::include_dir(prefix);
    cc::Build::new()
        .cpp(true)
        .file("lib/PassRegistration.cpp")
        .include(&include)
        .std("c++17")
        // LLVM is built without RTTI and exceptions; the Pass subclass must match its ABI.
        .flag("-fno-rtti")
        .flag("-fno-exceptions")
        .flag_if_supported("-Wno-unused-parameter")
        .warnings(false)
        .compile("dit_pass_registration");
}
