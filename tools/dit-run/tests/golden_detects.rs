//! The golden check catches what self-consistency cannot (issue 14): a converter made wrong on
//! purpose — the halves of the rotate-half swapped, or dit.rope's mode flipped — gives a graph
//! that still agrees with its own fused version (`dit-run --compare-unfused`, dit against dit),
//! while `--reference-npy` against torch eager's outputs fails and names the output.
//!
//! Two cases: a hand-written RoPE graph in dit ops with its expected output computed in f64
//! here (always present), and the FLUX double block's golden reference
//! (test/golden/flux_double_block/f32, written by tools/dit-import/regenerate_golden.sh),
//! converted by dit-opt and broken after conversion (`DIT_GOLDEN=DIR` reads another tree).

mod golden_util;
use golden_util::*;

mod tools;

use std::path::Path;
use std::process::Command;

/// The three claims on one converted graph (`converted`, dit ops) and its golden `dir`;
/// `names` are the golden outputs' names.
fn assert_detects(converted: &str, dir: &Path, names: &[String], work: &Path) {
    let d = dir.to_str().unwrap();
    let good = work.join("good.mlir");
    std::fs::write(&good, converted).unwrap();
    // (a) The correct graph passes the golden check.
    let out = dit_run(&[good.to_str().unwrap(), "--reference-npy", d]);
    let (stdout, stderr) = text(&out);
    assert!(
        out.status.success(),
        "the correct graph fails:\n{stdout}\n{stderr}"
    );
    assert!(
        stdout.lines().filter(|l| l.ends_with(": OK")).count() >= names.len(),
        "{stdout}"
    );

    let (broken_text, changed) = break_rotate_half(converted);
    assert!(changed > 0, "no rotate-half to break in:\n{converted}");
    let broken = work.join("broken.mlir");
    std::fs::write(&broken, &broken_text).unwrap();
    // (b) dit against dit: the broken graph agrees with its own fused version.
    let out = dit_run(&[broken.to_str().unwrap(), "--compare-unfused"]);
    let (stdout, stderr) = text(&out);
    assert!(
        out.status.success(),
        "self-consistency should not catch the broken rotate-half:\n{stdout}\n{stderr}"
    );
    // (c) Against torch eager it fails, naming the output.
    let out = dit_run(&[broken.to_str().unwrap(), "--reference-npy", d]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(stdout.contains(": FAIL ("), "{stdout}");
    let named = names
        .iter()
        .any(|n| stderr.contains(&format!("({n}) [unfused]")));
    assert!(named, "no golden output named in:\n{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// x: [1, S, H, D], cos/sin: [1, S, 1, D]; FLUX's interleaved rotary embedding, decomposed as
/// dit-convert-torch-to-dit emits it: pairs (x1, x2) of the last dim become (-x2, x1).
const S: usize = 4;
const H: usize = 2;
const D: usize = 8;

fn rope_module() -> String {
    let x = format!("tensor<1x{S}x{H}x{D}xf32>");
    let c = format!("tensor<1x{S}x1x{D}xf32>");
    let p = format!("tensor<1x{S}x{H}x{}x2xf32>", D / 2);
    let h = format!("tensor<1x{S}x{H}x{}x1xf32>", D / 2);
    format!(
        r#"func.func @forward(%x: {x}, %cos: {c}, %sin: {c}) -> {x} {{
  %0 = "dit.reshape"(%x) : ({x}) -> {p}
  %1:2 = "dit.split"(%0) {{dim = 4 : i64, sizes = array<i64: 1, 1>}} : ({p}) -> ({h}, {h})
  %2 = "dit.neg"(%1#1) : ({h}) -> {h}
  %3 = "dit.concat"(%2, %1#0) {{dim = 4 : i64}} : ({h}, {h}) -> {p}
  %4 = "dit.reshape"(%3) : ({p}) -> {x}
  %5 = "dit.mul"(%x, %cos) : ({x}, {c}) -> {x}
  %6 = "dit.mul"(%4, %sin) : ({x}, {c}) -> {x}
  %7 = "dit.add"(%5, %6) : ({x}, {x}) -> {x}
  return %7 : {x}
}}
"#
    )
}

/// The same rotary embedding as one dit.rope (the form a converter that recognizes it emits).
fn rope_op_module() -> String {
    let x = format!("tensor<1x{S}x{H}x{D}xf32>");
    let c = format!("tensor<1x{S}x1x{D}xf32>");
    format!(
        r#"func.func @forward(%x: {x}, %cos: {c}, %sin: {c}) -> {x} {{
  %0 = "dit.rope"(%x, %cos, %sin) {{mode = "interleave"}} : ({x}, {c}, {c}) -> {x}
  return %0 : {x}
}}
"#
    )
}

/// Writes the golden directory of the hand-written rotary embedding: inputs, and the rotated
/// output computed here in f64.
fn write_rope_golden(dir: &Path) {
    let x = values(S * H * D, 11);
    let angles: Vec<f64> = (0..S * D).map(|i| (i as f64) * 0.37).collect();
    let cos: Vec<f64> = angles.iter().map(|a| a.cos()).collect();
    let sin: Vec<f64> = angles.iter().map(|a| a.sin()).collect();
    let mut out = vec![0.0; x.len()];
    for s in 0..S {
        for h in 0..H {
            for k in 0..D / 2 {
                let at = (s * H + h) * D + 2 * k;
                let (x1, x2) = (x[at], x[at + 1]);
                let (c1, c2) = (cos[s * D + 2 * k], cos[s * D + 2 * k + 1]);
                let (s1, s2) = (sin[s * D + 2 * k], sin[s * D + 2 * k + 1]);
                out[at] = x1 * c1 - x2 * s1;
                out[at + 1] = x2 * c2 + x1 * s2;
            }
        }
    }
    write_case(
        dir,
        "f32",
        &[
            f32_tensor(&[1, S, H, D], &x),
            f32_tensor(&[1, S, 1, D], &cos),
            f32_tensor(&[1, S, 1, D], &sin),
        ],
        &[GoldenOut {
            name: "rotated",
            torch: f32_tensor(&[1, S, H, D], &out),
            exact: None,
        }],
    );
}

#[test]
fn a_swapped_rotate_half_passes_self_consistency_and_fails_the_golden_check() {
    let work = tempfile::tempdir().unwrap();
    let dir = work.path().join("golden");
    write_rope_golden(&dir);
    assert_detects(&rope_module(), &dir, &["rotated".to_string()], work.path());
}

#[test]
fn a_flipped_rope_mode_passes_self_consistency_and_fails_the_golden_check() {
    let work = tempfile::tempdir().unwrap();
    let dir = work.path().join("golden");
    write_rope_golden(&dir);
    let (flipped, changed) = break_rotate_half(&rope_op_module());
    assert_eq!(changed, 1);
    assert!(flipped.contains("mode = \"half\""), "{flipped}");
    assert_detects(
        &rope_op_module(),
        &dir,
        &["rotated".to_string()],
        work.path(),
    );
}

#[test]
fn a_swapped_rotate_half_in_the_converted_flux_block_fails_its_golden_check() {
    // DIT_GOLDEN: another golden tree (regenerate_golden.sh's GOLDEN=DIR), same case names.
    let tree = std::env::var_os("DIT_GOLDEN")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| tools::root().join("test/golden"));
    let dir = tree.join("flux_double_block/f32");
    assert!(
        dir.join("model.mlir").is_file(),
        "{}: no golden reference: run tools/dit-import/regenerate_golden.sh",
        dir.display()
    );
    let bin = tools::build_tools(&["dit-opt"]);
    let work = tempfile::tempdir().unwrap();
    let converted = work.path().join("converted.mlir");
    tools::run(
        Command::new(bin.join("dit-opt"))
            .arg(dir.join("model.mlir"))
            .arg("--dit-convert-torch-to-dit")
            .arg("-o")
            .arg(&converted),
    );
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("reference.json")).unwrap())
            .unwrap();
    let names: Vec<String> = json["outputs"]
        .as_array()
        .expect("outputs")
        .iter()
        .map(|o| o["name"].as_str().expect("name").to_string())
        .collect();
    let text = std::fs::read_to_string(&converted).unwrap();
    assert_detects(&text, &dir, &names, work.path());
}
