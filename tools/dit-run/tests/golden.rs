//! `dit-run --reference-npy DIR` end to end on small golden directories written here (a
//! hand-written add + tanh-GELU module, its expected outputs computed in f64): the verdicts
//! pass, fail by tolerance, follow the bf16 rule, name dit.fast_gelu after fusion, and bad
//! golden files (wrong shape, missing input, malformed json) are located errors, not panics.

mod golden_util;
use golden_util::*;

use dit_runtime::{DType, Tensor};
use std::path::Path;

const ROWS: usize = 4;
const COLS: usize = 8;

fn module(elem: &str, dims: &str) -> String {
    let t = format!("tensor<{dims}x{elem}>");
    format!(
        "func.func @forward(%x: {t}, %b: {t}) -> ({t}, {t}) {{
  %s = \"dit.add\"(%x, %b) : ({t}, {t}) -> {t}
  %g = \"dit.gelu\"(%s) {{approximate = \"tanh\"}} : ({t}) -> {t}
  return %s, %g : {t}, {t}
}}
"
    )
}

fn gelu_tanh(x: f64) -> f64 {
    0.5 * x * (1.0 + ((2.0 / std::f64::consts::PI).sqrt() * (x + 0.044715 * x * x * x)).tanh())
}

/// Writes `dir/model.mlir` and the golden files of the add + GELU module in `dtype`.
fn write_add_gelu(dir: &Path, dtype: DType) -> String {
    let shape = [ROWS, COLS];
    let x = Tensor::from_f64(dtype, &shape, &values(ROWS * COLS, 1)).unwrap();
    let b = Tensor::from_f64(dtype, &shape, &values(ROWS * COLS, 2)).unwrap();
    let s: Vec<f64> = x
        .to_f64()
        .iter()
        .zip(b.to_f64())
        .map(|(a, b)| a + b)
        .collect();
    let g: Vec<f64> = s.iter().map(|v| gelu_tanh(*v)).collect();
    let outputs = if dtype == DType::BF16 {
        // torch's bf16: every op rounds its result to bf16.
        let s16 = Tensor::from_f64(DType::BF16, &shape, &s).unwrap();
        let g16: Vec<f64> = s16.to_f64().iter().map(|v| gelu_tanh(*v)).collect();
        vec![
            GoldenOut {
                name: "sum",
                torch: s16,
                exact: Some(f32_tensor(&shape, &s)),
            },
            GoldenOut {
                name: "gelu",
                torch: Tensor::from_f64(DType::BF16, &shape, &g16).unwrap(),
                exact: Some(f32_tensor(&shape, &g)),
            },
        ]
    } else {
        vec![
            GoldenOut {
                name: "sum",
                torch: f32_tensor(&shape, &s),
                exact: None,
            },
            GoldenOut {
                name: "gelu",
                torch: f32_tensor(&shape, &g),
                exact: None,
            },
        ]
    };
    write_case(dir, dtype.mlir_name(), &[x, b], &outputs);
    let path = dir.join("model.mlir");
    std::fs::write(&path, module(dtype.mlir_name(), &format!("{ROWS}x{COLS}"))).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn f32_golden_passes_unfused_and_fused_and_names_fast_gelu() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let model = write_add_gelu(dir.path(), DType::F32);
    let out = dit_run(&[&model, "--reference-npy", d]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("golden reference"), "{stdout}");
    let verdicts: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("forward output"))
        .collect();
    assert_eq!(verdicts.len(), 2, "{stdout}");
    assert!(
        verdicts[0].starts_with("forward output 0 (sum) vs torch [unfused, f32]: max abs err "),
        "{stdout}"
    );
    assert!(
        verdicts[1].starts_with("forward output 1 (gelu) vs torch [unfused, f32]: "),
        "{stdout}"
    );
    assert!(
        verdicts
            .iter()
            .all(|v| v.ends_with(": OK") && v.contains("(limit 1e-4 x scale)")),
        "{stdout}"
    );

    let out = dit_run(&[&model, "--reference-npy", d, "--compare-unfused"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    // The unfused-vs-fused comparison still runs.
    assert!(
        stdout.contains("@forward: reference 2 kernels, fuse-all 1 kernels"),
        "{stdout}"
    );
    let fused: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains("[fused by fuse-all, f32"))
        .collect();
    assert_eq!(fused.len(), 2, "{stdout}");
    for v in &fused {
        assert!(
            v.contains("; dit.fast_gelu: FastGelu x*sigmoid(1.702x) replacing tanh-GELU]"),
            "{v}"
        );
        assert!(v.contains("(limit 1 - 2^-7): OK"), "{v}");
    }
    // Without the fusion there is no substitution to name.
    let out = dit_run(&[
        &model,
        "--reference-npy",
        d,
        "--compare-unfused",
        "--no-fuse",
        "fast_gelu",
    ]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(!stdout.contains("dit.fast_gelu:"), "{stdout}");
}

#[test]
fn a_result_off_by_more_than_the_tolerance_fails_naming_the_output() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let model = write_add_gelu(dir.path(), DType::F32);
    // torch's gelu, one element off by 1e-3: within cosine, over 1e-4 x scale.
    let path = dir.path().join("out_1.npy");
    let good = golden_util::npy::read(
        path.to_str().unwrap(),
        &f32_tensor(&[ROWS, COLS], &[0.0; ROWS * COLS]).ty(),
    )
    .unwrap();
    let mut v = good.to_f64();
    v[5] += 1e-3;
    golden_util::npy::write(&path, &f32_tensor(&[ROWS, COLS], &v)).unwrap();
    let out = dit_run(&[&model, "--reference-npy", d]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("forward output 0 (sum) vs torch [unfused, f32]"),
        "{stdout}"
    );
    let line = stdout
        .lines()
        .find(|l| l.starts_with("forward output 1 (gelu)"))
        .expect(&stdout);
    assert!(
        line.ends_with("FAIL (max abs err over the limit)"),
        "{line}"
    );
    assert!(
        stderr.contains("1 of 2 verdicts against the golden reference"),
        "{stderr}"
    );
    assert!(stderr.contains("output 1 (gelu) [unfused]"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn bf16_golden_is_judged_against_the_f32_answer() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let model = write_add_gelu(dir.path(), DType::BF16);
    let out = dit_run(&[&model, "--reference-npy", d, "--compare-unfused"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let unfused = stdout
        .lines()
        .find(|l| {
            l.starts_with("forward output 1 (gelu) vs torch f32 [unfused, bf16]: max abs err ")
        })
        .expect(&stdout);
    assert!(
        unfused.contains("x torch bf16 noise")
            && unfused.contains("(limit 2 x noise + 1e-6 x scale = "),
        "{unfused}"
    );
    assert!(
        stdout.contains(
            "forward output 1 (gelu) vs torch f32 [fused by fuse-all, bf16; dit.fast_gelu: "
        ),
        "{stdout}"
    );
    // A noise floor of zero leaves only 1e-6 x scale: dit's bf16 rounding of the sum is over it.
    let json_path = dir.path().join("reference.json");
    let json = std::fs::read_to_string(&json_path).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    for o in v["outputs"].as_array_mut().unwrap() {
        o["noise_max_abs"] = 0.0.into();
    }
    std::fs::write(&json_path, v.to_string()).unwrap();
    let out = dit_run(&[&model, "--reference-npy", d]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(stderr.contains("output 1 (gelu) [unfused]"), "{stderr}");
}

#[test]
fn dynamic_dims_run_as_the_dynamic_dim() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    write_add_gelu(dir.path(), DType::F32);
    let model = dir.path().join("dynamic.mlir");
    std::fs::write(&model, module("f32", &format!("?x{COLS}"))).unwrap();
    let m = model.to_str().unwrap();
    let out = dit_run(&[m, "--reference-npy", d, "--dynamic-dim", &ROWS.to_string()]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    // Specialized to another size, the golden files do not fit: a located error.
    let out = dit_run(&[m, "--reference-npy", d, "--dynamic-dim", "3"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(
        stderr.contains("reference.json: error: outputs[0] (sum) has shape [4, 8], result 0 (sum) of @forward is tensor<3x8xf32>"),
        "{stderr}"
    );
    assert!(
        stderr.contains("note: the module's dynamic dims ('?') ran as --dynamic-dim=3"),
        "{stderr}"
    );
}

#[test]
fn the_golden_judges_forward_or_the_only_function() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    write_add_gelu(dir.path(), DType::F32);
    let other =
        "func.func @helper(%a: tensor<2xf32>) -> tensor<2xf32> {\n  return %a : tensor<2xf32>\n}\n";
    let two = dir.path().join("two.mlir");
    std::fs::write(&two, format!("{other}{}", module("f32", "4x8"))).unwrap();
    let out = dit_run(&[two.to_str().unwrap(), "--reference-npy", d]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(!stdout.contains("helper"), "{stdout}");
    assert_eq!(
        stdout
            .lines()
            .filter(|l| l.starts_with("forward output"))
            .count(),
        2,
        "{stdout}"
    );
    // Two functions, neither @forward: which one the golden is for must be said.
    let renamed = dir.path().join("renamed.mlir");
    std::fs::write(
        &renamed,
        format!(
            "{other}{}",
            module("f32", "4x8").replace("@forward", "@main")
        ),
    )
    .unwrap();
    let r = renamed.to_str().unwrap();
    let out = dit_run(&[r, "--reference-npy", d]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(stderr.contains("name it with --entry"), "{stderr}");
    let out = dit_run(&[r, "--reference-npy", d, "--entry", "main"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("main output 1 (gelu) vs torch [unfused, f32]"),
        "{stdout}"
    );
}

#[test]
fn an_explicit_input_npy_wins_over_the_golden_input() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let model = write_add_gelu(dir.path(), DType::F32);
    // The golden's own first input passes; another one fails both outputs.
    let same = dir.path().join("in_0.npy");
    let out = dit_run(&[
        &model,
        "--reference-npy",
        d,
        "--input-npy",
        same.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{:?}", text(&out));
    let other = dir.path().join("other.npy");
    golden_util::npy::write(&other, &f32_tensor(&[ROWS, COLS], &values(ROWS * COLS, 9))).unwrap();
    let out = dit_run(&[
        &model,
        "--reference-npy",
        d,
        "--input-npy",
        other.to_str().unwrap(),
    ]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(stderr.contains("2 of 2 verdicts"), "{stderr}");
}

#[test]
fn bad_golden_files_are_located_errors() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let model = write_add_gelu(dir.path(), DType::F32);
    let fails_with = |needle: &str| {
        let out = dit_run(&[&model, "--reference-npy", d]);
        let (stdout, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
        assert!(stderr.contains(needle), "want {needle:?} in:\n{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    };
    // A golden output of another shape.
    let out0 = dir.path().join("out_0.npy");
    let good = std::fs::read(&out0).unwrap();
    golden_util::npy::write(
        &out0,
        &f32_tensor(&[ROWS, COLS / 2], &values(ROWS * COLS / 2, 3)),
    )
    .unwrap();
    fails_with(&format!(
        "{d}/out_0.npy: error: shape [4, 4] does not match the result 0 (sum) of @forward's [4, 8]"
    ));
    // Another dtype.
    golden_util::npy::write(
        &out0,
        &Tensor::from_f64(DType::F16, &[ROWS, COLS], &values(ROWS * COLS, 3)).unwrap(),
    )
    .unwrap();
    fails_with(&format!(
        "{d}/out_0.npy: error: dtype '<f2' does not fit the result 0 (sum) of @forward's f32"
    ));
    std::fs::write(&out0, good).unwrap();
    // A missing input.
    let in1 = dir.path().join("in_1.npy");
    let input = std::fs::read(&in1).unwrap();
    std::fs::remove_file(&in1).unwrap();
    fails_with(&format!("{d}/in_1.npy: error: missing: the golden directory has no input for argument #1 of @forward (tensor<4x8xf32>)"));
    std::fs::write(&in1, &input).unwrap();
    // One input too many: written for another graph.
    std::fs::write(dir.path().join("in_2.npy"), &input).unwrap();
    fails_with(&format!("{d}/in_2.npy: error: the golden directory has more inputs than the 2 arguments of @forward"));
    std::fs::remove_file(dir.path().join("in_2.npy")).unwrap();
    // Malformed reference.json.
    let json = dir.path().join("reference.json");
    let reference = std::fs::read(&json).unwrap();
    std::fs::write(
        &json,
        "{\"outputs\": [\n  {\"name\": \"sum\" \"shape\": [4, 8]}]}",
    )
    .unwrap();
    fails_with(&format!(
        "{d}/reference.json:2:18: error: malformed reference.json"
    ));
    std::fs::remove_file(&json).unwrap();
    fails_with(&format!("{d}/reference.json: error: cannot read"));
    // The directory restored passes again: each check above failed for its own reason.
    std::fs::write(&json, reference).unwrap();
    let out = dit_run(&[&model, "--reference-npy", d]);
    assert!(out.status.success(), "{:?}", text(&out));
}

#[test]
fn reference_npy_refuses_other_comparisons() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let model = write_add_gelu(dir.path(), DType::F32);
    let out = dit_run(&[&model, "--reference-npy", d, "--reference", &model]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out).1.contains("cannot be used with"),
        "{:?}",
        text(&out)
    );
}
