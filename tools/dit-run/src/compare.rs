//! Running a module once, or two versions on the same inputs with a numerical check per
//! output: max abs error and cosine similarity; a non-finite output or a cosine under
//! 1 - 2^-7 fails.

use crate::jit::{self, Job, Signature};
use dit_passes::Pipeline;
use dit_runtime::Tensor;

/// The least cosine similarity a transformed graph's output may have against the original.
pub const MIN_COSINE: f64 = 1.0 - 1.0 / 128.0;

/// The inputs of a run: .npy files first, in argument order, then the golden directory's
/// `in_<i>.npy` (`--reference-npy`), raw files (`--input-dir`) or seeded random values.
fn inputs(job: &Job, signature: &Signature) -> Result<Vec<Tensor>, String> {
    if let Some(dir) = &job.options.reference_npy {
        crate::golden::check_input_count(dir, &signature.name, signature.inputs.len())?;
    }
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
        .map(|(i, (ty, role))| {
            match (
                job.options.npy_inputs.get(i),
                &job.options.reference_npy,
                &job.options.input_dir,
            ) {
                (Some(path), _, _) => crate::npy::read(path, ty),
                (None, Some(dir), _) => crate::golden::read_input(dir, &signature.name, i, ty),
                (None, None, Some(dir)) => {
                    crate::inputs::read_raw(&format!("{dir}/in_{i}.bin"), ty)
                }
                (None, None, None) => Ok(crate::inputs::random(
                    ty,
                    role,
                    job.options.seed,
                    i,
                    job.options.input_range,
                )),
            }
        })
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
    let outcome = jit::execute(job, text, &Pipeline::default(), &inputs)?;
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
            let baseline = jit::execute(&backend_job, text, &Pipeline::default(), &inputs)?;
            (
                baseline,
                jit::execute(job, text, &Pipeline::default(), &inputs)?,
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
            let baseline = jit::execute(
                &reference_job,
                reference_text,
                &Pipeline::default(),
                &inputs,
            )?;
            (
                baseline,
                jit::execute(job, text, &Pipeline::default(), &inputs)?,
                "input".to_string(),
            )
        }
        None => {
            let steps = jit::pipeline_steps(&job.options.pipeline)?;
            let baseline = jit::execute(&backend_job, text, &Pipeline::default(), &inputs)?;
            let candidate = jit::execute(job, text, &steps, &inputs)?;
            (baseline, candidate, job.options.pipeline.clone())
        }
    };
    save_outputs(job, &candidate.outputs)?;
    report_agreement(job, &signature, &baseline, &candidate, &label)
}

/// Prints the agreement of every output of `candidate` with `baseline`; an error naming the
/// outputs whose cosine is under 1 - 2^-7 or that have non-finite values.
fn report_agreement(
    job: &Job,
    signature: &Signature,
    baseline: &jit::Outcome,
    candidate: &jit::Outcome,
    label: &str,
) -> Result<(), String> {
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

/// `--reference-npy DIR`: runs the module as given on the golden inputs and judges every
/// output against torch eager's (see [`crate::golden`]); with `--compare-unfused` also runs
/// it after `--pipeline`, compares the two as `--compare-unfused` alone does, and judges the
/// fused outputs by the fused rule. Every verdict is printed; an error lists the failing ones.
pub fn run_golden(job: &Job, text: &str, dir: &str) -> Result<(), String> {
    let signature = jit::read_signature(job, text)?;
    // A golden file that does not fit a graph whose dynamic dims were specialized most likely
    // wants another --dynamic-dim: say what they ran as.
    let hint = |e: String| {
        if text.contains("// dit-run: specialized") {
            format!(
                "{e}\nnote: the module's dynamic dims ('?') ran as --dynamic-dim={}; the golden files may need another size",
                job.options.dynamic_dim
            )
        } else {
            e
        }
    };
    let golden = crate::golden::load(dir, &signature.name, &signature.outputs).map_err(hint)?;
    let inputs = inputs(job, &signature).map_err(hint)?;
    let r = &golden.reference;
    println!(
        "@{}: golden reference {dir} (case {}, {}, torch {})",
        signature.name,
        if r.case.is_empty() { "?" } else { &r.case },
        if r.dtype.is_empty() { "?" } else { &r.dtype },
        if r.torch.is_empty() { "?" } else { &r.torch }
    );
    let unfused = jit::execute(job, text, &Pipeline::default(), &inputs)?;
    let mut verdicts = Vec::new();
    let judge_all = |outcome: &jit::Outcome, stage: &crate::golden::Stage| {
        outcome
            .outputs
            .iter()
            .zip(&golden.outputs)
            .enumerate()
            .map(|(j, (t, g))| crate::golden::judge(&signature.name, j, g, t, stage))
            .collect::<Vec<_>>()
    };
    // Printed as soon as judged: a pipeline failure below still leaves the unfused verdicts.
    let print = |vs: &[crate::golden::Verdict]| vs.iter().for_each(|v| println!("{}", v.line));
    verdicts.extend(judge_all(&unfused, &crate::golden::Stage::Unfused));
    print(&verdicts);
    let mut errors = Vec::new();
    if job.options.compare_unfused {
        let steps = jit::pipeline_steps(&job.options.pipeline)?;
        let fused = jit::execute(job, text, &steps, &inputs)?;
        save_outputs(job, &fused.outputs)?;
        if let Err(e) = report_agreement(job, &signature, &unfused, &fused, &job.options.pipeline) {
            errors.push(e);
        }
        let substitutions = crate::golden::substitutions(&unfused.ops, &fused.ops);
        let fused_verdicts = judge_all(
            &fused,
            &crate::golden::Stage::Fused {
                pipeline: &job.options.pipeline,
                substitutions: &substitutions,
            },
        );
        print(&fused_verdicts);
        verdicts.extend(fused_verdicts);
    } else {
        save_outputs(job, &unfused.outputs)?;
    }
    let failed: Vec<&str> = verdicts
        .iter()
        .filter(|v| !v.ok)
        .map(|v| v.what.as_str())
        .collect();
    if !failed.is_empty() {
        errors.push(format!(
            "dit-run: error: @{}: {} of {} verdicts against the golden reference {dir} FAIL: {}",
            signature.name,
            failed.len(),
            verdicts.len(),
            failed.join(", ")
        ));
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors.join("\n"))
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
