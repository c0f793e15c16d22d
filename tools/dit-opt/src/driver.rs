//! Processing one input: parse, verify, run the pipeline, print; with diagnostics rendered
//! or checked against expectations.

use crate::{cli::Options, expected, input};
use dit_dialect::{
    diagnostics::{Diagnostic, DiagnosticSink, SourceBuffer},
    ir::{Op, PrintOptions},
    verifier, Target,
};
use dit_passes::{
    analysis::cost::{measure_functions, measure_with, ShapeHints},
    FusionReport, PassContext, Pipeline, PipelineOptions, PipelineStep, ReportSummary,
};
use melior::{
    ir::{operation::OperationLike, Module},
    Context,
};

/// Everything fixed before the input is read.
pub struct Session<'a> {
    pub context: &'a Context,
    pub sink: DiagnosticSink,
    /// The pipeline to run (checked by MLIR's parser).
    pub pipeline: Pipeline,
    pub target: &'static Target,
    pub switches: dit_passes::FusionSwitches,
    /// `--shape-hint`s, parsed.
    pub shape_hints: ShapeHints,
    pub options: &'a Options,
}

/// What one chunk gave: printed IR (if it succeeded) and whether it succeeded.
struct ChunkResult {
    output: Option<Vec<u8>>,
    ok: bool,
}

impl Session<'_> {
    /// Processes the whole input; returns (output bytes, success).
    pub fn run(&self, display_name: &str, text: &str) -> (Vec<u8>, bool) {
        let chunks = if self.options.split_input_file {
            input::split(text)
        } else {
            vec![input::Chunk {
                text,
                line_offset: 0,
            }]
        };
        let mut outputs = Vec::new();
        let mut ok = true;
        let full: std::rc::Rc<str> = std::rc::Rc::from(text);
        for chunk in chunks {
            self.sink.set_buffer(SourceBuffer {
                display_name: display_name.to_string(),
                line_offset: chunk.line_offset,
                text: full.clone(),
            });
            let result = self.run_chunk(chunk.text);
            let diagnostics = self.sink.take();
            let chunk_ok = if self.options.verify_diagnostics {
                self.check_expectations(display_name, &chunk, diagnostics)
            } else {
                self.report(&diagnostics);
                result.ok
            };
            ok &= chunk_ok;
            if let Some(out) = result.output {
                outputs.push(out);
            }
        }
        (outputs.join(&b"// -----\n"[..]), ok)
    }

    fn run_chunk(&self, text: &str) -> ChunkResult {
        let failed = ChunkResult {
            output: None,
            ok: false,
        };
        // The Rust rules run below, reporting every broken one (MLIR's verifier stops at the
        // first).
        // Parsing is one thread's work, and with threading on, MLIR's uniquers lock around every
        // type, attribute and location they make (28M of 840M instructions on full FLUX.1-dev).
        // Threads pay only where the pass manager and the verifier have several functions to
        // spread over, so they come back on for such a module.
        let threads = !self.options.disable_threading;
        if threads {
            self.context.enable_multi_threading(false);
        }
        let Some(mut module) = dit_dialect::parse_module(self.context, text) else {
            if !self.sink.has_errors() {
                self.sink
                    .push(silent_parse_failure(&self.sink.buffer(), text));
            }
            return failed;
        };
        let root = Op::of_module(&module);
        if threads
            && root
                .region_blocks(0)
                .first()
                .is_some_and(|b| b.ops().iter().filter(|o| o.is("func.func")).count() > 1)
        {
            self.context.enable_multi_threading(true);
        }
        if !verifier::verify_and_report(root) {
            return failed;
        }
        let report = FusionReport::default();
        let pipeline = PipelineOptions {
            context: PassContext {
                report: report.clone(),
                switches: self.switches.clone(),
                target: self.target,
            },
            print_ir_after_all: self.options.instrument.print_after_all,
            timing: self.options.instrument.timing,
        };
        // Import passes at the start of the pipeline run first: "before" in the fusion report
        // is the imported dit graph, not the foreign one (which has no dit kernels to count).
        let (import_steps, steps) = self
            .pipeline
            .split_leading(|name| dit_passes::IMPORT_PASSES.contains(&name));
        if !self.run_steps(&mut module, &import_steps, &pipeline) {
            return failed;
        }
        let root = Op::of_module(&module);
        // Checked on the imported graph: a torch signature has no tensor dims to bind.
        let unmatched = self.shape_hints.unmatched(root);
        if !unmatched.is_empty() {
            dit_dialect::diagnostics::emit_error(
                module.as_operation().location(),
                &format!(
                    "--shape-hint {} matches no dynamic dim of a function argument (name from dit.dim_names, or index among the dynamic argument dims)",
                    unmatched.join(", ")
                ),
            );
            return failed;
        }
        // Only the fusion report reads the graph's cost before the passes (measuring a whole
        // model is not free: about 5% of a full FLUX.1-dev run).
        let before = self.options.fusion_report.is_some().then(|| {
            (
                measure_with(root, &self.shape_hints),
                measure_functions(root, &self.shape_hints),
            )
        });
        if !self.run_steps(&mut module, &steps, &pipeline) {
            return failed;
        }
        // The passes ran on a mutable borrow of the module: the root is taken again (the same
        // op; the handle's borrow cannot span the run).
        let root = Op::of_module(&module);
        if let (Some(format), Some((cost_before, functions_before))) =
            (&self.options.fusion_report, &before)
        {
            let locate = |point: &dit_passes::RawPoint| match point {
                Some((file, line, column)) => {
                    let p = self.sink.map_point(file.clone(), *line, *column);
                    format!("{}:{}:{}", p.file, p.line, p.column)
                }
                None => self.sink.buffer().display_name,
            };
            let summary = ReportSummary::new(
                &report.events(),
                cost_before,
                &measure_with(root, &self.shape_hints),
                &locate,
            )
            .with_functions(
                functions_before,
                &measure_functions(root, &self.shape_hints),
            );
            let text = if format == "json" {
                summary.json()
            } else {
                summary.text()
            };
            crate::report!("{}", text.trim_end());
        }
        if let Some(path) = &self.options.emit_fusion_dot {
            if let Err(e) = std::fs::write(path, crate::dot::render(root)) {
                dit_dialect::diagnostics::emit_error(
                    module.as_operation().location(),
                    &format!("cannot write {path}: {e}"),
                );
                return failed;
            }
        }
        if self.options.emit != "mlir" {
            return match self.emit_lowered(&mut module, &pipeline) {
                Some(bytes) => ChunkResult {
                    output: Some(bytes),
                    ok: true,
                },
                None => failed,
            };
        }
        let root = Op::of_module(&module);
        if self.options.emit_bytecode {
            return ChunkResult {
                output: Some(root.write_bytecode()),
                ok: true,
            };
        }
        let print = PrintOptions {
            debug_info: self.options.print_debuginfo,
            generic: self.options.print_generic,
            elide_elements_if_larger: self.options.elide_elements_if_larger,
        };
        let mut text = root.print_verified(print);
        if !text.ends_with('\n') {
            text.push('\n');
        }
        ChunkResult {
            output: Some(text.into_bytes()),
            ok: true,
        }
    }

    /// Runs `steps` (nothing when empty); false when a pass failed, with at least one error
    /// reported.
    fn run_steps(&self, module: &mut Module, steps: &Pipeline, pipeline: &PipelineOptions) -> bool {
        if steps.is_empty()
            || dit_passes::run_pipeline_with(
                module,
                steps,
                &pipeline.context,
                &self.options.instrument,
            )
            .is_ok()
        {
            // Without --verify-each nothing checked the passes' result: check it once here,
            // so that nothing unverified is printed.
            // (MLIR's verifier runs the dit rules through the dialect's verifier hook.)
            return self.options.instrument.verify_each || module.as_operation().verify();
        }
        // A failing pass reports its own diagnostics; make sure at least one error says so.
        if !self.sink.has_errors() {
            dit_dialect::diagnostics::emit_error(
                module.as_operation().location(),
                "pass pipeline failed",
            );
        }
        false
    }

    /// `--emit=llvm|asm|obj|header`: lowers the module when the pipeline did not, then hands
    /// it to the code generator.
    fn emit_lowered(&self, module: &mut Module, pipeline: &PipelineOptions) -> Option<Vec<u8>> {
        if self.options.emit == "ascendc" {
            return self.emit_ascendc(module, pipeline);
        }
        if self.options.emit == "linalg" {
            return self.emit_linalg(module);
        }
        let root = Op::of_module(module);
        let mut has_dit = false;
        root.walk(&mut |op| has_dit |= op.kind().is_some());
        if has_dit {
            let lower = PipelineStep {
                info: dit_passes::lookup("dit-lower-to-aclnn")?,
                options: Vec::new(),
            };
            dit_passes::run_pipeline(module, &[lower], pipeline).ok()?;
        }
        let root = Op::of_module(module);
        let result = match self.options.emit.as_str() {
            "header" => {
                Ok(dit_codegen::c_header(root, &self.sink.buffer().display_name).into_bytes())
            }
            "llvm" => dit_codegen::emit(root, dit_codegen::EmitKind::Llvm),
            "asm" => dit_codegen::emit(root, dit_codegen::EmitKind::Asm),
            _ => dit_codegen::emit(root, dit_codegen::EmitKind::Obj),
        };
        match result {
            Ok(bytes) => Some(bytes),
            Err(e) => {
                dit_dialect::diagnostics::emit_error(
                    module.as_operation().location(),
                    &format!("--emit={}: {e}", self.options.emit),
                );
                None
            }
        }
    }

    /// `--emit=linalg -o DIR`: one module per dit.fused group, `DIR/<kernel>.mlir`, holding the
    /// group's DEVICE function in upstream linalg (dit-lower-fused-to-linalg). A group that
    /// cannot be lowered fails the whole run (a located error per group) and nothing is written:
    /// a directory missing some kernels would be mistaken for the whole model.
    fn emit_linalg(&self, module: &mut Module) -> Option<Vec<u8>> {
        use dit_dialect::diagnostics::emit_error;
        let location = module.as_operation().location();
        let Some(dir) = self.options.output.as_deref().filter(|o| *o != "-") else {
            emit_error(
                location,
                "--emit=linalg writes a directory: name it with -o DIR",
            );
            return None;
        };
        let files = dit_passes::linalg_kernel_files(Op::of_module(module)).ok()?;
        let write = || -> std::io::Result<()> {
            std::fs::create_dir_all(dir)?;
            for (file, text) in &files {
                std::fs::write(std::path::Path::new(dir).join(file), text)?;
            }
            Ok(())
        };
        if let Err(e) = write() {
            emit_error(location, &format!("--emit=linalg: cannot write {dir}: {e}"));
            return None;
        }
        Some(Vec::new())
    }

    /// `--emit=ascendc -o DIR`: an Ascend C kernel per dit.fused group (crate dit-ascendc), the
    /// CMake project that builds them, and the lowered host code (`host/model.o`, `model.h`).
    /// Writes DIR itself; the returned bytes are empty.
    fn emit_ascendc(&self, module: &mut Module, pipeline: &PipelineOptions) -> Option<Vec<u8>> {
        use dit_dialect::diagnostics::emit_error;
        let location = module.as_operation().location();
        let Some(dir) = self.options.output.as_deref().filter(|o| *o != "-") else {
            emit_error(
                location,
                "--emit=ascendc writes a directory: name it with -o DIR",
            );
            return None;
        };
        let spec = dit_ascendc::TargetSpec::with_vector_cores(
            self.target.name,
            self.target.ub_bytes,
            self.target.vector_cores,
        );
        let mut groups = Vec::new();
        Op::of_module(module).walk(&mut |op| {
            if op.is_kind(dit_dialect::ops::OpKind::Fused) {
                groups.push(op);
            }
        });
        let mut kernels = Vec::new();
        let mut failed = false;
        for op in groups {
            let name = op
                .attr("kernel")
                .and_then(|a| a.as_str())
                .unwrap_or_default();
            let kernel = dit_passes::fused_body(op).and_then(|body| {
                dit_ascendc::generate_from_body(&name, body, &spec).map_err(|m| (op, m))
            });
            match kernel {
                Ok(k) => kernels.push(k),
                Err((at, message)) => {
                    emit_error(at.location(), &format!("--emit=ascendc: {message}"));
                    failed = true;
                }
            }
        }
        if failed {
            return None;
        }
        // The host code: the module lowered to runtime calls, as an object and its C header.
        let lower = PipelineStep {
            info: dit_passes::lookup("dit-lower-to-aclnn")?,
            options: Vec::new(),
        };
        dit_passes::run_pipeline(module, &[lower], pipeline).ok()?;
        let root = Op::of_module(module);
        let host = match dit_codegen::emit(root, dit_codegen::EmitKind::Obj) {
            Ok(object) => dit_ascendc::project::HostObject {
                object,
                header: dit_codegen::c_header(root, &self.sink.buffer().display_name),
            },
            Err(e) => {
                emit_error(location, &format!("--emit=ascendc: the host object: {e}"));
                return None;
            }
        };
        if let Err(e) = dit_ascendc::project::write_project(
            std::path::Path::new(dir),
            &kernels,
            &spec,
            Some(&host),
        ) {
            emit_error(
                location,
                &format!("--emit=ascendc: cannot write {dir}: {e}"),
            );
            return None;
        }
        Some(Vec::new())
    }

    fn report(&self, diagnostics: &[Diagnostic]) {
        for d in diagnostics {
            crate::report!("{}", self.sink.render(d).trim_end_matches('\n'));
        }
    }

    fn check_expectations(
        &self,
        display_name: &str,
        chunk: &input::Chunk,
        diagnostics: Vec<Diagnostic>,
    ) -> bool {
        let (expectations, mut problems) = expected::parse(chunk.text, chunk.line_offset);
        problems.extend(expected::check(expectations, diagnostics));
        for (line, column, message) in &problems {
            crate::report!("{display_name}:{line}:{column}: error: {message}");
        }
        problems.is_empty()
    }
}

/// MLIR fails without a diagnostic when an IRDL op is written in custom form (`dit.relu %x`):
/// IRDL ops have no custom parser. Point at the first such op, or at the chunk's start.
fn silent_parse_failure(buffer: &SourceBuffer, text: &str) -> Diagnostic {
    for (i, line) in text.lines().enumerate() {
        let bytes = line.as_bytes();
        let custom = line
            .match_indices(dit_dialect::ops::DIALECT_PREFIX)
            .find(|(at, _)| {
                let before = if *at == 0 { b' ' } else { bytes[at - 1] };
                (before == b' ' || before == b'=' || before == b'\t') && !line[..*at].contains("//")
            });
        if let Some((at, _)) = custom {
            let name: String = line[at..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '.' || *c == '_')
                .collect();
            return input::input_error(
                &buffer.display_name,
                buffer.line_offset + i as u32 + 1,
                line[..at].chars().count() as u32 + 1,
                format!(
                    "'{name}' is written in custom form; dit ops parse only in generic form, e.g. \"{name}\"(%x) : (...) -> ..."
                ),
            );
        }
    }
    input::input_error(
        &buffer.display_name,
        buffer.line_offset + 1,
        1,
        "failed to parse the input".into(),
    )
}
