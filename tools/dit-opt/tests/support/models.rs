//! The model graphs the whole-model checks run over.

// Each test binary that mounts `support` uses a part of it.
#![allow(dead_code)]

use std::{fs, path::Path};

/// Model graphs, repo-relative: the bundled example, then every file of test/models,
/// test/models/exec and test/models/imported that defines a function outside a comment.
pub fn models(root: &Path) -> Vec<String> {
    let mut out = vec!["examples/flux_double_block.mlir".to_string()];
    for dir in ["test/models", "test/models/exec", "test/models/imported"] {
        let mut files: Vec<String> = fs::read_dir(root.join(dir))
            .unwrap_or_else(|e| panic!("cannot list {dir}: {e}"))
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
            .map(|p| format!("{dir}/{}", p.file_name().unwrap().to_string_lossy()))
            .collect();
        files.sort();
        out.extend(files);
    }
    out.retain(|r| {
        let text = fs::read_to_string(root.join(r)).expect("model text");
        text.lines()
            .any(|l| !l.trim_start().starts_with("//") && l.contains("func.func"))
    });
    out
}
