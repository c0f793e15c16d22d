//! The LLVM/MLIR 22 install the build scripts compile against (shared by dialects/dit/build.rs
//! and passes/build.rs through `#[path]`): the one mlir-sys links.

use std::{path::PathBuf, process::Command};

/// The install prefix: `MLIR_SYS_220_PREFIX` (as mlir-sys reads it), else Debian's.
pub fn prefix() -> String {
    std::env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into())
}

/// Its C++ include directory, as its llvm-config says (`<prefix>/include` if that fails).
pub fn include_dir(prefix: &str) -> String {
    Command::new(PathBuf::from(prefix).join("bin/llvm-config"))
        .arg("--includedir")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| format!("{prefix}/include"))
}
