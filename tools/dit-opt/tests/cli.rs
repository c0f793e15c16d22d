//! The registry is the single source of truth: `--list-passes`, `--help` and docs/Passes.md
//! must agree with it.

use std::{path::Path, process::Command};

fn dit_opt(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_dit-opt"))
        .args(args)
        .output()
        .expect("dit-opt runs");
    assert!(
        out.status.success(),
        "dit-opt {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

#[test]
fn docs_passes_md_is_not_stale() {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/Passes.md");
    let committed = std::fs::read_to_string(&docs).unwrap_or_default();
    let generated = dit_opt(&["--print-passes-doc"]);
    assert!(
        committed == generated,
        "docs/Passes.md is stale: regenerate it with `cargo run -p dit-opt -- --print-passes-doc > docs/Passes.md`"
    );
}

#[test]
fn list_passes_and_help_show_every_registered_pass() {
    let list = dit_opt(&["--list-passes"]);
    let help = dit_opt(&["--help"]);
    let (pipelines, passes) = list.split_once("Available passes:").expect("two sections");
    let flags = |text: &str| -> Vec<String> {
        text.lines()
            .filter_map(|l| l.trim().strip_prefix("--"))
            .map(|l| l.split_whitespace().next().unwrap_or("").to_string())
            .collect()
    };
    let listed = flags(passes);
    let listed_pipelines = flags(pipelines);
    let registered_pipelines: Vec<&str> = dit_passes::PIPELINES.iter().map(|p| p.flag).collect();
    assert_eq!(listed_pipelines, registered_pipelines);
    let registered: Vec<&str> = dit_passes::PASSES.iter().map(|p| p.flag).collect();
    assert_eq!(listed, registered);
    for pass in dit_passes::PASSES {
        assert!(
            help.contains(&format!("--{}", pass.flag)),
            "--help lacks --{}",
            pass.flag
        );
        assert!(
            help.contains(pass.summary),
            "--help lacks the summary of {}",
            pass.flag
        );
    }
}
