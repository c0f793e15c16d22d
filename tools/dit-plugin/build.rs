//! Links the plugin against the shared libMLIR.so and libLLVM.so that Debian's mlir-opt
//! uses, so that one MLIR is loaded in mlir-opt's process.
//!
//! The problem: dit-dialect and dit-passes depend on mlir-sys, which bundles every static
//! libMLIR*.a / libLLVM*.a archive (dit-opt is a static binary), and Debian ships MLIR's
//! C API, which the Rust code calls, only as static archives (libMLIRCAPI*.a; libMLIR.so
//! has the C++ API only). A plugin with its own copy of MLIR's C++ would have its own
//! dialect registry, TypeIDs and pass registry, and be broken inside mlir-opt.
//!
//! What this script does:
//! 1. It links every libMLIRCAPI*.a, whole, into one shared library,
//!    `libdit_mlir_capi.so`, against libMLIR.so and libLLVM.so (`-z defs`: every C++ symbol
//!    the C API needs comes from them). A separate library rather than static members in the
//!    plugin because the C API objects are built with hidden visibility: linked statically,
//!    they would make the plugin's copies of MLIR's inline statics hidden too, among them the
//!    cached fallback TypeIDs of op traits (`TypeID::get<OpTrait::IsTerminator>()`), which
//!    then disagree with libMLIR.so's (GCC and Clang spell the trait names differently) and
//!    MLIR no longer sees that `dit.yield` is a terminator.
//! 2. It puts `-ldit_mlir_capi -lMLIR -lLLVM` on the plugin's link line. rustc places a
//!    crate's own native libraries before those of its dependencies, so by the time the
//!    linker reaches mlir-sys's bundled archives, every C API and C++ symbol is already
//!    defined by the shared libraries and no archive member is pulled in.
//! 3. It adds exports.map to rustc's version script: rustc exports only Rust `#[no_mangle]`
//!    functions, and MLIR's inline statics in dit's C++ must stay visible so that the dynamic
//!    linker binds them to libMLIR.so's copies.
//!
//! tools/dit-plugin/tests/plugin.rs checks the result: no MLIR/LLVM code in the plugin, the
//! entry points exported, the shared libraries needed.

use std::{
    env, fs,
    path::{Path, PathBuf},
    process::Command,
};

fn main() {
    let prefix = env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into());
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    println!("cargo:rerun-if-changed=exports.map");
    let lib = PathBuf::from(&prefix).join("lib");
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let capi = link_capi_library(&lib, &out);
    // Beside the plugin in target/<profile>/, where C programs and docs/Plugin.md find it.
    if let Some(profile_dir) = out.ancestors().nth(3) {
        let _ = fs::copy(&capi, profile_dir.join("libdit_mlir_capi.so"));
    }
    println!("cargo:rustc-link-search=native={}", out.display());
    println!("cargo:rustc-link-search=native={}", lib.display());
    println!("cargo:rustc-link-lib=dylib=dit_mlir_capi");
    println!("cargo:rustc-link-lib=dylib=MLIR");
    println!("cargo:rustc-link-lib=dylib=LLVM");
    // Every symbol must resolve at link time (a missing one would only show at dlopen).
    println!("cargo:rustc-cdylib-link-arg=-Wl,-z,defs");
    // libdit_mlir_capi.so is found beside the plugin ($ORIGIN) or where it was built.
    println!(
        "cargo:rustc-cdylib-link-arg=-Wl,-rpath,$ORIGIN:{}:{}",
        out.display(),
        lib.display()
    );
    let exports =
        Path::new(&env::var("CARGO_MANIFEST_DIR").unwrap_or_default()).join("exports.map");
    println!(
        "cargo:rustc-cdylib-link-arg=-Wl,--version-script={}",
        exports.display()
    );
    // The plugin reports the LLVM version it was built against, as MLIR's examples do.
    let version = Command::new(PathBuf::from(&prefix).join("bin/llvm-config"))
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "22".into());
    println!("cargo:rustc-env=DIT_PLUGIN_LLVM_VERSION={version}");
}

/// Links every libMLIRCAPI*.a of `lib` into `out/libdit_mlir_capi.so` (MLIR's C API as a
/// shared library over libMLIR.so); a failure stops the build with the linker's message.
fn link_capi_library(lib: &Path, out: &Path) -> PathBuf {
    let mut archives: Vec<PathBuf> = fs::read_dir(lib)
        .unwrap_or_else(|e| panic!("cannot list {}: {e} (run scripts/setup.sh)", lib.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("libMLIRCAPI") && n.ends_with(".a"))
        })
        .collect();
    archives.sort();
    assert!(
        !archives.is_empty(),
        "no libMLIRCAPI*.a in {} (install libmlir-22-dev)",
        lib.display()
    );
    for archive in &archives {
        println!("cargo:rerun-if-changed={}", archive.display());
    }
    let target = out.join("libdit_mlir_capi.so");
    let compiler = env::var("CXX").unwrap_or_else(|_| "c++".into());
    let output = Command::new(&compiler)
        .args(["-shared", "-o"])
        .arg(&target)
        .arg("-Wl,-soname,libdit_mlir_capi.so")
        .arg("-Wl,--whole-archive")
        .args(&archives)
        .arg("-Wl,--no-whole-archive")
        .arg(format!("-L{}", lib.display()))
        .args(["-lMLIR", "-lLLVM", "-Wl,-z,defs"])
        .arg(format!("-Wl,-rpath,{}", lib.display()))
        .output()
        .unwrap_or_else(|e| panic!("cannot run {compiler}: {e}"));
    assert!(
        output.status.success(),
        "linking libdit_mlir_capi.so failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    target
}
