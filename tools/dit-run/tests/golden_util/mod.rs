//! What the golden-reference tests share: writing a golden directory (`in_<i>.npy`,
//! `out_<j>.npy`, `out_<j>.f32.npy`, `reference.json`) from Rust with dit-run's own .npy
//! writer, running dit-run on it, and breaking a converted graph's rotate-half the way a wrong
//! converter would.

#![allow(dead_code)]

#[path = "../../src/npy.rs"]
pub mod npy;

use dit_runtime::{DType, Tensor};
use std::path::Path;
use std::process::{Command, Output};

/// One output of a golden case: its name, torch's value in the graph's dtype, and for bf16
/// the exact (f32) answer on the same inputs.
pub struct GoldenOut {
    pub name: &'static str,
    pub torch: Tensor,
    pub exact: Option<Tensor>,
}

/// max |x| over `t`.
pub fn scale(t: &Tensor) -> f64 {
    t.to_f64().iter().fold(0.0f64, |m, v| m.max(v.abs()))
}

/// Writes a golden directory for `inputs` and `outputs` in `dir`, as the generator does.
pub fn write_case(dir: &Path, dtype: &str, inputs: &[Tensor], outputs: &[GoldenOut]) {
    std::fs::create_dir_all(dir).expect("golden dir");
    for (i, t) in inputs.iter().enumerate() {
        npy::write(&dir.join(format!("in_{i}.npy")), t).expect("in npy");
    }
    let mut records = Vec::new();
    for (j, o) in outputs.iter().enumerate() {
        npy::write(&dir.join(format!("out_{j}.npy")), &o.torch).expect("out npy");
        let mut rec = serde_json::json!({
            "name": o.name,
            "shape": o.torch.shape,
            "scale": scale(o.exact.as_ref().unwrap_or(&o.torch)),
        });
        if let Some(exact) = &o.exact {
            npy::write(&dir.join(format!("out_{j}.f32.npy")), exact).expect("f32 npy");
            let (b, e) = (o.torch.to_f64(), exact.to_f64());
            let noise = b
                .iter()
                .zip(&e)
                .fold(0.0f64, |m, (x, y)| m.max((x - y).abs()));
            rec["noise_max_abs"] = noise.into();
        }
        records.push(rec);
    }
    let json = serde_json::json!({
        "case": "hand_written", "dtype": dtype, "family": "test", "torch": "none (computed in Rust)",
        "seed": 0, "config": {}, "outputs": records,
    });
    std::fs::write(
        dir.join("reference.json"),
        serde_json::to_string_pretty(&json).expect("json"),
    )
    .expect("reference.json");
}

/// `values` as an f32 tensor of `shape`.
pub fn f32_tensor(shape: &[usize], values: &[f64]) -> Tensor {
    Tensor::from_f64(DType::F32, shape, values).expect("f32 tensor")
}

/// Deterministic values in [-1, 1) (a small LCG: the test needs no randomness crate).
pub fn values(n: usize, seed: u64) -> Vec<f64> {
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
        })
        .collect()
}

/// Runs dit-run with `args`; its output (any exit status).
pub fn dit_run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_dit-run"))
        .args(args)
        .output()
        .expect("dit-run runs")
}

/// stdout and stderr of `out`, for messages.
pub fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Breaks a converted graph the way a wrong converter would break its rotary embedding:
/// flips every dit.rope's mode (half <-> interleave), or, where the rotate-half is still
/// decomposed, swaps the two operands of each dit.concat that joins the negated half with the
/// other one (rotate_half(x) = (-x2, x1) becomes (x1, -x2)). Returns the text and how many
/// places it changed.
pub fn break_rotate_half(text: &str) -> (String, usize) {
    let mut changed = 0;
    if text.contains("\"dit.rope\"") {
        let out = text
            .lines()
            .map(|l| {
                if !l.contains("\"dit.rope\"") {
                    return l.to_string();
                }
                changed += 1;
                if l.contains("mode = \"half\"") {
                    l.replace("mode = \"half\"", "mode = \"interleave\"")
                } else {
                    l.replace("mode = \"interleave\"", "mode = \"half\"")
                }
            })
            .collect::<Vec<_>>()
            .join("\n");
        return (out, changed);
    }
    // Values derived from a dit.neg through reshapes: the negated half.
    let result_of = |l: &str| -> Option<String> {
        let l = l.trim_start();
        let name = l.split_whitespace().next()?;
        name.starts_with('%')
            .then(|| name.split(':').next().unwrap_or(name).to_string())
    };
    let first_operand = |l: &str| -> Option<String> {
        let at = l.find("\"(")?;
        let rest = &l[at + 2..];
        Some(rest.split([',', ')']).next()?.trim().to_string())
    };
    let mut negated: Vec<String> = Vec::new();
    for l in text.lines() {
        if l.contains("\"dit.neg\"(") {
            negated.extend(result_of(l));
        } else if l.contains("\"dit.reshape\"(") {
            if let (Some(r), Some(src)) = (result_of(l), first_operand(l)) {
                if negated.contains(&src) {
                    negated.push(r);
                }
            }
        }
    }
    let out = text
        .lines()
        .map(|l| {
            let Some(at) = l.find("\"dit.concat\"(") else {
                return l.to_string();
            };
            let start = at + "\"dit.concat\"(".len();
            let Some(len) = l[start..].find(')') else {
                return l.to_string();
            };
            let operands: Vec<&str> = l[start..start + len].split(',').map(str::trim).collect();
            if operands.len() != 2 || !operands.iter().any(|o| negated.iter().any(|n| n == o)) {
                return l.to_string();
            }
            changed += 1;
            format!(
                "{}{}, {}{}",
                &l[..start],
                operands[1],
                operands[0],
                &l[start + len..]
            )
        })
        .collect::<Vec<_>>()
        .join("\n");
    (out, changed)
}
