//! Finding and timing the tool processes the benchmarks run (dit-opt, and mlir-opt as the peer).

use std::{
    path::{Path, PathBuf},
    process::Command,
};

/// MLIR 22's mlir-opt, the peer the process timings run beside dit-opt.
pub const DEFAULT_MLIR_OPT: &str = "/usr/lib/llvm-22/bin/mlir-opt";

/// dit-opt: `DIT_OPT`, else next to the running benchmark binary; built with cargo (in the
/// same profile) when missing. `None`, with the reason printed, when it cannot be had.
pub fn find_dit_opt() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("DIT_OPT") {
        let p = PathBuf::from(p);
        println!("dit-opt:  {} (from DIT_OPT)", p.display());
        return Some(p);
    }
    let exe = std::env::current_exe().ok()?;
    let dir = exe.parent()?;
    let path = dir.join(format!("dit-opt{}", std::env::consts::EXE_SUFFIX));
    if !path.exists() {
        let release = dir.file_name().is_some_and(|d| d == "release");
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.toml");
        let mut cmd = Command::new(cargo);
        cmd.args(["build", "-p", "dit-opt", "--manifest-path"])
            .arg(&manifest);
        if release {
            cmd.arg("--release");
        }
        println!(
            "dit-opt:  not found at {}; building it first (cargo build{} -p dit-opt)",
            path.display(),
            if release { " --release" } else { "" }
        );
        match cmd.status() {
            Ok(s) if s.success() && path.exists() => {}
            Ok(s) => {
                println!("dit-opt:  the build failed ({s})");
                return None;
            }
            Err(e) => {
                println!("dit-opt:  cannot run cargo ({e})");
                return None;
            }
        }
    }
    println!("dit-opt:  {}", path.display());
    Some(path)
}

/// mlir-opt: `MLIR_OPT`, else [`DEFAULT_MLIR_OPT`]; `None` when not installed.
pub fn find_mlir_opt() -> Option<PathBuf> {
    let path = std::env::var_os("MLIR_OPT")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(DEFAULT_MLIR_OPT));
    path.exists().then_some(path)
}
