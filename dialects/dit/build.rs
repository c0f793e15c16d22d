//! Compiles the C++ definitions of the ops IRDL cannot express (cpp/region_ops.cpp) against
//! the same LLVM/MLIR 22 install that mlir-sys links.

use std::{env, path::PathBuf, process::Command};

fn main() {
    let prefix = env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into());
    let llvm_config = PathBuf::from(&prefix).join("bin/llvm-config");
    let include = Command::new(&llvm_config)
        .arg("--includedir")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| format!("{prefix}/include"));
    println!("cargo:rerun-if-changed=cpp/region_ops.cpp");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    cc::Build::new()
        .cpp(true)
        .file("cpp/region_ops.cpp")
        .include(include)
        .std("c++17")
        // LLVM is built without RTTI and exceptions; the op models must match its ABI.
        .flag("-fno-rtti")
        .flag("-fno-exceptions")
        .flag_if_supported("-Wno-unused-parameter")
        .warnings(false)
        .compile("dit_cpp_ops");
}
