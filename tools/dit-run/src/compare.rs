//! Running a module once, or two versions on the same inputs with a numerical check per
//! output: max abs error and cosine similarity; a non-finite output or a cosine under
//! 1 - 2^-7 fails.

use crate::jit::{self, Job, Signature};
use dit_runtime::Tensor;

/// The least cosine similarity a transformed graph's output may have against the original.
pub const MIN_COSINE: f64 = 1.0 - 1.0 / 128.0;

/// The inputs of a run: .npy files first, in argument order, then seeded random values.
fn inputs(job: &Job, signature: &Signature) -> Result<Vec<Tensor>, String> {
    if job.options.npy_inputs.len() > signature.inputs.len() {
        return Err(format!(
            "<command line>: error: {} --input-npy files for {} inputs",
            job.options.npy_inputs.len(),
            signature.inputs.len()
        ));
    }
    signature
        .inputs
        .iter()
        .zip(&signature.roles)
        .enumerate()
        .map(
            |(i, (ty, role))| match (job.options.npy_inputs.get(i), &job.options.input_dir) {
                (Some(path), _) => crate::npy::read(path, ty),
                (None, Some(dir)) => crate::inputs::read_raw(&format!("{dir}/in_{i}.bin"), ty),
                (None, None) => Ok(crate::inputs::random(
                    ty,
                    role,
                    job.options.seed,
                    i,
                    job.options.input_range,
                )),
            },
        )
        .collect::<Result<Vec<_>, String>>()
        .and_then(|inputs| save_inputs(job, &inputs).map(|_| inputs))
}

fn describe(t: &Tensor) -> String {
    let dims: Vec<String> = t.shape.iter().map(usize::to_string).collect();
    format!("{}[{}]", t.dtype.mlir_name(), dims.join(","))
}

fn print_values(label: &str, t: &Tensor) {
    let values: Vec<String> = t
        .to_f64()
        .iter()
        .take(8)
        .map(|v| format!("{v:.6}"))
        .collect();
    println!(
        "  {label} {}: [{}{}]",
        describe(t),
        values.join(", "),
        if t.numel() > 8 { ", ..." } else { "" }
    );
}

/// With `--save-inputs`, writes each input as raw bytes.
fn save_inputs(job: &Job, inputs: &[Tensor]) -> Result<(), String> {
    let Some(dir) = &job.options.save_inputs else {
        return Ok(());
    };
    std::fs::create_dir_all(dir).map_err(|e| format!("{dir}: error: cannot create: {e}"))?;
    for (i, t) in inputs.iter().enumerate() {
        let path = std::path::Path::new(dir).join(format!("in_{i}.bin"));
        std::fs::write(&path, &t.data)
            .map_err(|e| format!("{}: error: cannot write: {e}", path.display()))?;
    }
    Ok(())
}

/// With `--output-dir`, writes each output of `entry` as .npy.
fn save_outputs(job: &Job, outputs: &[Tensor]) -> Result<(), String> {
    let Some(dir) = &job.options.output_dir else {
        return Ok(());
    };
    std::fs::create_dir_all(dir).map_err(|e| format!("{dir}: error: cannot create: {e}"))?;
    for (j, t) in outputs.iter().enumerate() {
        let path = std::path::Path::new(dir).join(format!("{}.output{j}.npy", job.entry));
        crate::npy::write(&path, t)?;
    }
    Ok(())
}

/// Runs the module as given and prints a summary of its outputs.
pub fn run_once(job: &Job, text: &str) -> Result<(), String> {
    let signature = jit::read_signature(job, text)?;
    let inputs = inputs(job, &signature)?;
    let outcome = jit::execute(job, text, &[], &inputs)?;
    save_outputs(job, &outcome.outputs)?;
    println!(
        "@{}: {} kernels ({})",
        signature.name, outcome.kernels, outcome.measured
    );
    for (j, t) in outcome.outputs.iter().enumerate() {
        let values = t.to_f64();
        let finite = values.iter().all(|v| v.is_finite());
        let norm = values.iter().map(|v| v * v).sum::<f64>().sqrt();
        println!(
            "  output {j} {}: L2 norm {norm:.6e}{}",
            describe(t),
            if finite { "" } else { ", NON-FINITE values" }
        );
        if job.options.print_outputs {
            print_values("values", t);
        }
        if !finite {
            return Err(format!(
                "dit-run: error: output {j} of @{} has non-finite values",
                signature.name
            ));
        }
    }
    Ok(())
}

/// Max abs error and cosine similarity of two outputs (cosine 1 when both are all zero).
pub fn agreement(a: &[f64], b: &[f64]) -> (f64, f64) {
    let max_abs = a
        .iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0f64, f64::max);
    let dot: f64 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let (na, nb) = (
        a.iter().map(|x| x * x).sum::<f64>().sqrt(),
        b.iter().map(|x| x * x).sum::<f64>().sqrt(),
    );
    let cosine = if na == 0.0 && nb == 0.0 {
        1.0
    } else if na == 0.0 || nb == 0.0 {
        0.0
    } else {
        dot / (na * nb)
    };
    (max_abs, cosine)
}

/// Runs the reference (the module as given, or `reference`) and the candidate (the module
/// after `--pipeline`, or the module as given when a reference file is named) on the same
/// inputs and checks every output.
pub fn run_and_compare(job: &Job, text: &str, reference: Option<&str>) -> Result<(), String> {
    let signature = jit::read_signature(job, text)?;
    let inputs = inputs(job, &signature)?;
    // With --reference-backend the reference runs there (e.g. the CPU backend against CANN).
    let reference_options = match &job.options.reference_backend {
        Some(backend) => {
            let mut o = job.options.clone();
            o.backend = backend.clone();
            o
        }
        None => job.options.clone(),
    };
    let backend_job = Job {
        display_name: job.display_name,
        line_offset: job.line_offset,
        options: &reference_options,
        entry: job.entry.clone(),
    };
    let (baseline, candidate, label) = match reference {
        None if !job.options.compare_unfused => {
            let baseline = jit::execute(&backend_job, text, &[], &inputs)?;
            (
                baseline,
                jit::execute(job, text, &[], &inputs)?,
                format!("backend {}", job.options.backend),
            )
        }
        Some(reference_text) => {
            let reference_job = Job {
                display_name: job.options.reference.as_deref().unwrap_or("<reference>"),
                line_offset: 0,
                options: &reference_options,
                entry: job.entry.clone(),
            };
            let baseline = jit::execute(&reference_job, reference_text, &[], &inputs)?;
            (
                baseline,
                jit::execute(job, text, &[], &inputs)?,
                "input".to_string(),
            )
        }
        None => {
            let steps = jit::pipeline_steps(&job.options.pipeline)?;
            let baseline = jit::execute(&backend_job, text, &[], &inputs)?;
            let candidate = jit::execute(job, text, &steps, &inputs)?;
            (baseline, candidate, job.options.pipeline.clone())
        }
    };
    save_outputs(job, &candidate.outputs)?;
    println!(
        "@{}: reference {} kernels, {label} {} kernels ({})",
        signature.name, baseline.kernels, candidate.kernels, candidate.measured
    );
    if baseline.outputs.len() != candidate.outputs.len() {
        return Err(format!(
            "dit-run: error: @{}: {} outputs against {}",
            signature.name,
            candidate.outputs.len(),
            baseline.outputs.len()
        ));
    }
    let mut failures = Vec::new();
    for (j, (a, b)) in baseline.outputs.iter().zip(&candidate.outputs).enumerate() {
        if a.shape != b.shape || a.dtype != b.dtype {
            failures.push(format!(
                "output {j}: {} against {}",
                describe(b),
                describe(a)
            ));
            continue;
        }
        let (va, vb) = (a.to_f64(), b.to_f64());
        let finite = va.iter().chain(&vb).all(|v| v.is_finite());
        let (max_abs, cosine) = agreement(&va, &vb);
        let ok = finite && cosine >= MIN_COSINE;
        println!(
            "  output {j} {}: max abs error {max_abs:.3e}, cosine {cosine:.6}{}",
            describe(a),
            match (finite, ok) {
                (false, _) => " FAIL (non-finite values)",
                (true, false) => " FAIL (cosine < 1 - 2^-7)",
                _ => " ok",
            }
        );
        if job.options.print_outputs {
            print_values("reference", a);
            print_values("candidate", b);
        }
        if !ok {
            failures.push(format!(
                "output {j}: cosine {cosine:.6}, max abs error {max_abs:.3e}{}",
                if finite { "" } else { ", non-finite values" }
            ));
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "dit-run: error: @{}: {} disagrees with the reference: {}",
            signature.name,
            label,
            failures.join("; ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agreement_measures_error_and_direction() {
        let (e, c) = agreement(&[1.0, 2.0], &[1.0, 2.0]);
        assert_eq!(e, 0.0);
        assert!((c - 1.0).abs() < 1e-12);
        let (e, c) = agreement(&[1.0, 0.0], &[0.0, 1.0]);
        assert_eq!(e, 1.0);
        assert!(c.abs() < 1e-12);
        assert_eq!(agreement(&[0.0], &[0.0]).1, 1.0);
        assert_eq!(agreement(&[0.0], &[1.0]).1, 0.0);
    }
}
