//! Where scripts/setup-bishengir.sh put Huawei's AscendNPU-IR compiler, or why it is not there.

// Each test binary that mounts `support` uses a part of it.
#![allow(dead_code)]

use std::{
    fs,
    path::{Path, PathBuf},
    process::Command,
};

/// The installed compilers (target/bishengir/bin), with the stand-in hivmc beside them.
pub struct Bishengir {
    /// target/bishengir/bin: put first on PATH so bishengir-compile finds the stand-in hivmc.
    pub bin: PathBuf,
    /// The first line of target/bishengir/status (`ok ascendnpu-ir==<version>`).
    pub pin: String,
}

impl Bishengir {
    /// The installed compiler, or the reason it is unavailable (the status file's line, or that
    /// the setup script never ran). Tests print the reason as a skip; they never pass silently.
    pub fn locate(root: &Path) -> Result<Bishengir, String> {
        let dir = root.join("target/bishengir");
        let status = fs::read_to_string(dir.join("status")).map_err(|_| {
            "unavailable: scripts/setup-bishengir.sh has not run (target/bishengir/status missing)"
                .to_string()
        })?;
        let first = status.lines().next().unwrap_or_default().to_string();
        if !first.starts_with("ok ") {
            return Err(first);
        }
        Ok(Bishengir {
            bin: dir.join("bin"),
            pin: first,
        })
    }

    /// A command for one of the wheel's tools (`bishengir-compile`, `bishengir-opt-a5`, …),
    /// with the stand-in hivmc first on PATH.
    pub fn command(&self, tool: &str) -> Command {
        let mut cmd = Command::new(self.bin.join(tool));
        let path = std::env::var_os("PATH").unwrap_or_default();
        let mut dirs = vec![self.bin.clone()];
        dirs.extend(std::env::split_paths(&path));
        cmd.env("PATH", std::env::join_paths(dirs).expect("PATH"));
        cmd
    }
}

/// Prints the skip line every bishengir test gives when the compiler is unavailable.
pub fn skip(test: &str, why: &str) {
    println!("{test}: skipped: bishengir {why}");
    eprintln!("{test}: skipped: bishengir {why}");
}
