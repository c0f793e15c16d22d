//! Generates the dit dialect from its ODS definition (include/dit/*.td) with the
//! `mlir-tblgen` of the same LLVM/MLIR 22 install that mlir-sys links, and compiles it, with
//! its C API handle (lib/CAPI/Dialects.cpp), into this crate; and generates, from the same
//! records, the Rust op table of the dit-ops crate (build_op_table.rs).

#[path = "build_op_table.rs"]
mod op_table;

#[path = "build_llvm.rs"]
mod build_llvm;

use std::{
    env,
    path::{Path, PathBuf},
    process::Command,
};

/// The generated files: (mlir-tblgen arguments, output name under OUT_DIR/dit/).
const GENERATED: &[(&[&str], &str)] = &[
    (
        &["-gen-dialect-decls", "-dialect=dit"],
        "DitOpsDialect.h.inc",
    ),
    (
        &["-gen-dialect-defs", "-dialect=dit"],
        "DitOpsDialect.cpp.inc",
    ),
    (&["-gen-op-decls"], "DitOps.h.inc"),
    (&["-gen-op-defs"], "DitOps.cpp.inc"),
    // docs/Dialect.md must equal this (a test in src/lib.rs compares them).
    (&["-gen-dialect-doc", "-dialect=dit"], "Dialect.md"),
];

fn main() {
    let prefix = build_llvm::prefix();
    let bin = PathBuf::from(&prefix).join("bin");
    let mlir_include = build_llvm::include_dir(&prefix);
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let generated = out.join("dit");
    std::fs::create_dir_all(&generated).expect("create OUT_DIR/dit");
    for path in [
        "include/dit/DitDialect.td",
        "include/dit/DitOps.td",
        "include/dit/DitDialect.h",
        "include/dit/DitOps.h",
        "include/dit-c/Dialects.h",
        "lib/DitDialect.cpp",
        "lib/DitFolds.cpp",
        "lib/CAPI/Dialects.cpp",
        "build_llvm.rs",
    ] {
        println!("cargo:rerun-if-changed={path}");
    }
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    for (args, name) in GENERATED {
        tblgen(&bin, args, &mlir_include, &generated.join(name));
    }
    fix_segment_size_messages(&generated.join("DitOps.cpp.inc"));
    let records = generated.join("DitOps.json");
    dump_records(&bin, &mlir_include, &records);
    op_table::write(&records, &generated.join("op_table.rs"));
    cc::Build::new()
        .cpp(true)
        .file("lib/DitDialect.cpp")
        .file("lib/DitFolds.cpp")
        .file("lib/CAPI/Dialects.cpp")
        .include("include")
        .include(&out)
        .include(&mlir_include)
        .std("c++17")
        // LLVM is built without RTTI and exceptions; the op models must match its ABI.
        .flag("-fno-rtti")
        .flag("-fno-exceptions")
        .flag_if_supported("-Wno-unused-parameter")
        .warnings(false)
        .compile("dit_ods");
}

/// Runs `mlir-tblgen args include/dit/DitOps.td -o output`; a failure stops the build with
/// mlir-tblgen's own message (a broken .td is a build error, not a runtime one).
fn tblgen(bin: &Path, args: &[&str], mlir_include: &str, output: &Path) {
    let status = Command::new(bin.join("mlir-tblgen"))
        .args(args)
        .args(["-I", "include", "-I", mlir_include])
        .arg("include/dit/DitOps.td")
        .arg("-o")
        .arg(output)
        .status()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", bin.join("mlir-tblgen").display()));
    assert!(status.success(), "mlir-tblgen {args:?} failed");
}

/// Writes the records of include/dit/DitOps.td as JSON (`llvm-tblgen --dump-json`: mlir-tblgen
/// has no JSON backend; both read the same .td files), for the Rust op table.
fn dump_records(bin: &Path, mlir_include: &str, output: &Path) {
    let status = Command::new(bin.join("llvm-tblgen"))
        .arg("--dump-json")
        .args(["-I", "include", "-I", mlir_include])
        .arg("include/dit/DitOps.td")
        .arg("-o")
        .arg(output)
        .status()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", bin.join("llvm-tblgen").display()));
    assert!(status.success(), "llvm-tblgen --dump-json failed");
}

/// mlir-tblgen 22 writes a broken C++ string for ops with `AttrSizedOperandSegments` when
/// attributes are not properties (`usePropertiesForAttributes = 0`): the count check emits
/// `emitError(loc, "'dit.x' op "'operandSegmentSizes' attribute ...` and
/// `emitOpError(""'operandSegmentSizes' attribute ...`, with a stray `"` that ends the
/// literal. Dropping that quote gives the message mlir-tblgen meant; output without the bug
/// (a fixed mlir-tblgen) has no such text and is left as is.
fn fix_segment_size_messages(path: &Path) {
    const BROKEN: &str = "\"'operandSegmentSizes' attribute for specifying";
    const FIXED: &str = "'operandSegmentSizes' attribute for specifying";
    let text = std::fs::read_to_string(path).expect("read the generated op definitions");
    if text.contains(BROKEN) {
        std::fs::write(path, text.replace(BROKEN, FIXED)).expect("write the op definitions");
    }
}
