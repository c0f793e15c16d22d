//! Helpers shared by dit-opt's integration tests.

// Each test binary that mounts `support` uses a part of it.
#![allow(dead_code)]

pub mod bishengir;
pub mod models;
pub mod mutate;

use std::path::{Path, PathBuf};

/// The repository root (two levels above this crate).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("repository root")
}
