//! dit-opt: parse, verify, transform and print dit-dialect MLIR, as mlir-opt does for
//! upstream dialects. Every failure is a located `error:` on stderr and exit code 1.

mod cli;
mod dot;
mod driver;
mod expected;
mod input;

/// Writes to stderr; a closed stderr is not worth a panic.
macro_rules! report {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}
pub(crate) use report;

/// Writes to stdout; a closed stdout (`dit-opt | head`) is not worth a panic.
fn emit_stdout(text: &str) {
    let _ = std::io::stdout().write_all(text.as_bytes());
}

use dit_dialect::{diagnostics::DiagnosticSink, Target};
use dit_passes::FusionSwitches;
use std::{
    io::{Read, Write},
    process::ExitCode,
};

/// mimalloc for every allocation of the process, MLIR's included (see the workspace manifest).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Stack for the worker thread: MLIR's parser and verifier recurse per nesting level.
const STACK_BYTES: usize = 512 * 1024 * 1024;

/// Turns transparent huge pages off for this process. mimalloc advises its arenas for them, and
/// a fault in such an arena then needs a free 2 MiB page: on a machine short of free memory
/// (the page cache full, kswapd busy) the kernel compacts memory synchronously inside the
/// fault. That put 0.2 s of system time into some runs of a 0.25 s compile of full FLUX.1-dev
/// (bench/compile_time.py, after the peer's run); a compiler process this short gains nothing
/// from huge pages.
fn disable_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_THP_DISABLE takes no pointers; it only sets a flag of this process.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

fn main() -> ExitCode {
    disable_huge_pages();
    let matches = match cli::command().try_get_matches() {
        Ok(m) => m,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                emit_stdout(&e.to_string());
                return ExitCode::SUCCESS;
            }
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or("invalid arguments");
            let first = first.strip_prefix("error: ").unwrap_or(first);
            report!("<command line>: error: {first}");
            report!("run 'dit-opt --help' for usage");
            return ExitCode::FAILURE;
        }
    };
    let options = cli::options(&matches);
    let input = match options.input.as_str() {
        "-" => "<stdin>".to_string(),
        path => path.to_string(),
    };
    let worker = std::thread::Builder::new()
        .stack_size(STACK_BYTES)
        .spawn(move || run(&options));
    match worker.map(|w| w.join()) {
        Ok(Ok(code)) => code,
        // No op is known here: the error points at the input's start, so that it is still
        // located like every other error.
        Ok(Err(payload)) => {
            report!(
                "{input}:1:1: error: internal error (please report it with the input): {}",
                dit_passes::panic_text(payload.as_ref())
            );
            ExitCode::FAILURE
        }
        Err(e) => {
            report!("<dit-opt>: error: cannot start the worker thread: {e}");
            ExitCode::FAILURE
        }
    }
}

fn fail(message: impl std::fmt::Display) -> ExitCode {
    report!("{message}");
    ExitCode::FAILURE
}

/// The fusion switches: defaults, or `--fuse`'s list; then the config file; then `--no-fuse`.
fn fusion_switches(options: &cli::Options) -> Result<FusionSwitches, String> {
    let mut switches = match &options.fuse {
        Some(list) => {
            FusionSwitches::only(list).map_err(|e| format!("<command line>: error: --fuse: {e}"))?
        }
        None => FusionSwitches::default(),
    };
    if let Some(path) = &options.fusion_config {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{path}: error: cannot read fusion config: {e}"))?;
        switches
            .apply_toml(&text)
            .map_err(|e| format!("{path}:{e}").replacen(": ", ": error: ", 1))?;
    }
    if let Some(list) = &options.no_fuse {
        switches
            .disable(list)
            .map_err(|e| format!("<command line>: error: --no-fuse: {e}"))?;
    }
    Ok(switches)
}

fn run(options: &cli::Options) -> ExitCode {
    if options.list_passes {
        emit_stdout(&cli::list_passes());
        return ExitCode::SUCCESS;
    }
    if options.print_passes_doc {
        emit_stdout(&dit_passes::passes_markdown());
        return ExitCode::SUCCESS;
    }
    let target = match Target::resolve(&options.target) {
        Ok(t) => t,
        Err(e) => return fail(format!("<command line>: error: --target: {e}")),
    };
    if options.pipeline.is_some() && !options.pass_flags.is_empty() {
        return fail(
            "<command line>: error: --pass-pipeline cannot be combined with individual pass flags",
        );
    }
    // `--pass-pipeline` as written, or the pass flags in command-line order (`--dit-x='a=1'`
    // is the element `dit-x{a=1}`); MLIR's parser checks both once the context exists.
    let pipeline = match &options.pipeline {
        Some(text) => match dit_passes::Pipeline::parse(text) {
            Ok(p) => p,
            Err(e) => {
                return fail(format!(
                    "<pass-pipeline>:1:{}: error: {}",
                    e.column, e.message
                ))
            }
        },
        None => dit_passes::Pipeline::from_elements(
            options
                .pass_flags
                .iter()
                .map(|(flag, pass_options)| match pass_options {
                    Some(text) => format!("{flag}{{{text}}}"),
                    None => flag.to_string(),
                })
                .collect(),
        ),
    };
    let switches = match fusion_switches(options) {
        Ok(s) => s,
        Err(message) => return fail(message),
    };
    let context = match dit_dialect::new_context() {
        Ok(c) => c,
        Err(e) => return fail(format!("<dit-opt>: error: {e}")),
    };
    let checked = match &options.pipeline {
        Some(_) => pipeline
            .check(context.to_raw())
            .map_err(|e| format!("<pass-pipeline>:1:{}: error: {}", e.column, e.message)),
        // Each flag on its own, so that the error names it.
        None => pipeline
            .elements()
            .iter()
            .zip(&options.pass_flags)
            .try_for_each(|(element, (flag, _))| {
                dit_passes::Pipeline::from_elements(vec![element.clone()])
                    .check(context.to_raw())
                    .map_err(|e| format!("<command line>: error: --{flag}: {}", e.message))
            }),
    };
    if let Err(message) = checked {
        return fail(message);
    }
    // An import pass reads a dialect dit-opt does not register (torch): its ops and types parse
    // as unregistered ones, and the pass reports whatever foreign IR it leaves.
    let imports = pipeline
        .elements()
        .iter()
        .any(|e| dit_passes::IMPORT_PASSES.contains(&dit_passes::Pipeline::element_name(e)));
    context.set_allow_unregistered_dialects(options.allow_unregistered_dialect || imports);
    if options.disable_threading {
        context.enable_multi_threading(false);
    }
    if options.emit_bytecode && options.emit != "mlir" {
        return fail(format!(
            "<command line>: error: --emit-bytecode writes MLIR: it cannot be combined with --emit={}",
            options.emit
        ));
    }
    if options.emit_bytecode && options.split_input_file {
        return fail(
            "<command line>: error: --emit-bytecode writes one module: it cannot be combined with --split-input-file",
        );
    }
    if options.emit != "mlir" && options.split_input_file {
        return fail(format!(
            "<command line>: error: --emit={} writes one module: it cannot be combined with --split-input-file",
            options.emit
        ));
    }
    let mut shape_hints = dit_passes::ShapeHints::default();
    for hint in &options.shape_hints {
        if let Err(e) = shape_hints.add(hint) {
            return fail(format!("<command line>: error: --shape-hint: {e}"));
        }
    }
    if options.show_dialects {
        emit_stdout("Available Dialects: arith, builtin, dit, func, llvm, pdl, pdl_interp\n");
        return ExitCode::SUCCESS;
    }
    let (sink, _handler) = DiagnosticSink::attach(&context);

    let display_name = if options.input == "-" {
        "<stdin>".to_string()
    } else {
        options.input.clone()
    };
    let mut bytes = Vec::new();
    let read = if options.input == "-" {
        std::io::stdin().read_to_end(&mut bytes).map(|_| ())
    } else {
        std::fs::File::open(&options.input).and_then(|mut f| f.read_to_end(&mut bytes).map(|_| ()))
    };
    if let Err(e) = read {
        return fail(format!("{display_name}: error: cannot read input: {e}"));
    }
    // MLIR bytecode (from --emit-bytecode) is read back into text with its locations first.
    let bytes = if bytes.starts_with(dit_dialect::context::BYTECODE_MAGIC) {
        // The reader's errors name the input file.
        sink.set_buffer(dit_dialect::SourceBuffer {
            display_name: display_name.clone(),
            line_offset: 0,
            text: std::rc::Rc::from(""),
        });
        match dit_dialect::context::bytecode_to_text(&context, &bytes) {
            Some(text) => text.into_bytes(),
            None => {
                for d in sink.take() {
                    report!("{}", sink.render(&d).trim_end_matches('\n'));
                }
                return fail(format!(
                    "{display_name}: error: the input is MLIR bytecode that does not parse"
                ));
            }
        }
    } else {
        bytes
    };
    let text = match input::decode(&display_name, bytes)
        .and_then(|t| input::check_shape(&display_name, &t).map(|_| t))
    {
        Ok(t) => t,
        Err(d) => return fail(d),
    };

    let session = driver::Session {
        context: &context,
        sink,
        pipeline,
        target,
        switches,
        shape_hints,
        options,
    };
    let (output, ok) = session.run(&display_name, &text);
    // As mlir-opt: the chunks that succeeded reach stdout; an output file is only written
    // when everything succeeded.
    let written = match &options.output {
        // --emit=ascendc / --emit=linalg wrote their directory themselves.
        _ if options.emit == "ascendc" || options.emit == "linalg" => Ok(()),
        Some(path) if path != "-" => match ok {
            true => std::fs::write(path, &output),
            false => Ok(()),
        },
        _ => std::io::stdout().write_all(&output),
    };
    match written {
        Ok(()) if ok => ExitCode::SUCCESS,
        Ok(()) => ExitCode::FAILURE,
        Err(e) => fail(format!(
            "{}: error: cannot write output: {e}",
            options.output.as_deref().unwrap_or("<stdout>")
        )),
    }
}
