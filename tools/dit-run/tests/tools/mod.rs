//! What dit-run's integration tests share: the repository root, a build of the other tools for
//! this profile, and running a command that must succeed.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Builds `packages` (dit-opt, the runtime's staticlib, ...) for this profile into the target
/// dir dit-run was built in, and returns its binary dir.
pub fn build_tools(packages: &[&str]) -> PathBuf {
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_dit-run"))
        .parent()
        .expect("binary dir")
        .to_path_buf();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut build = Command::new(cargo);
    build.args(["build", "--quiet"]).current_dir(root());
    for p in packages {
        build.args(["-p", p]);
    }
    if bin_dir.ends_with("release") {
        build.arg("--release");
    }
    if let Some(target_dir) = bin_dir.parent() {
        build.env("CARGO_TARGET_DIR", target_dir);
    }
    assert!(
        build.status().expect("cargo runs").success(),
        "build failed"
    );
    bin_dir
}

/// Runs `cmd`, which must succeed; its stdout.
pub fn run(cmd: &mut Command) -> String {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}
