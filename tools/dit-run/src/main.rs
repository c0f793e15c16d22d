//! dit-run: runs a module's entry function on seeded random inputs (or .npy files) through the
//! lowering (dit-lower-to-aclnn), upstream MLIR to LLVM, and inkwell's JIT on the runtime's
//! CPU reference backend; with `--compare-unfused` (or `--reference`) it runs two versions on
//! the same inputs and checks every output numerically; with `--reference-npy DIR` it judges
//! the outputs against torch eager's, saved as a golden reference directory.

mod compare;
mod golden;
mod inputs;
mod jit;
mod npy;

use clap::{Arg, ArgAction, Command};
use std::process::ExitCode;

// MLIR allocates an object per op, type use and attribute; mimalloc serves the whole process.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Options after parsing the command line.
#[derive(Clone)]
pub struct Options {
    pub input: String,
    pub entry: Option<String>,
    pub compare_unfused: bool,
    pub pipeline: String,
    pub reference: Option<String>,
    pub seed: u64,
    pub npy_inputs: Vec<String>,
    pub target: String,
    pub split_input_file: bool,
    pub backend: String,
    /// Where the CANN backend loads CANN from (else `$ASCEND_HOME_PATH`).
    pub cann_dir: Option<String>,
    /// The backend of the reference run of a comparison (default: `backend`).
    pub reference_backend: Option<String>,
    /// Per-call entry runs after the one init entry (each must give the same outputs).
    pub calls: usize,
    pub print_outputs: bool,
    /// A golden reference directory: inputs from `in_<i>.npy`, every output judged against
    /// torch eager's `out_<j>.npy` by the rules of [`golden`].
    pub reference_npy: Option<String>,
    /// Where to read every input as raw bytes (`in_<i>.bin`), as examples/c/run_model.c does.
    pub input_dir: Option<String>,
    /// Where to write the inputs of the run as raw bytes (`in_<i>.bin`).
    pub save_inputs: Option<String>,
    /// Where to write each output as .npy (`<entry>.output<j>.npy`).
    pub output_dir: Option<String>,
    /// The fusion switches of the transformed run (`--fuse`, `--no-fuse`).
    pub switches: dit_passes::FusionSwitches,
    /// Every dynamic dim is specialized to this before running.
    pub dynamic_dim: usize,
    /// Range of random float inputs.
    pub input_range: (f64, f64),
    /// Functions with a larger argument or result are skipped (reported).
    pub max_elements: Option<usize>,
    /// A run whose tensors need more bytes than this is refused (a located error).
    pub max_memory: u64,
    /// Chunks whose dynamic dims do not specialize to one value are skipped (reported).
    pub skip_dynamic: bool,
    /// Functions not run (reported as SKIPPED), e.g. graphs outside the reference's model.
    pub exclude: Vec<String>,
}

fn command() -> Command {
    Command::new("dit-run")
        .about("Run a dit module on the CPU reference runtime (lowered, JIT-compiled) and compare it before and after fusion")
        .version(env!("CARGO_PKG_VERSION"))
        .arg(Arg::new("input").default_value("-").help("Input file ('-' for stdin)"))
        .arg(Arg::new("entry").long("entry").value_name("FUNC").help("The function to run (default: every function of the module)"))
        .arg(
            Arg::new("compare-unfused")
                .long("compare-unfused")
                .action(ArgAction::SetTrue)
                .help("Run the module as given and after --pipeline on the same inputs; compare every output"),
        )
        .arg(
            Arg::new("pipeline")
                .long("pipeline")
                .value_name("PIPELINE")
                .default_value("fuse-all")
                .help("The transformation --compare-unfused checks: 'fuse-all' or a pass pipeline like 'builtin.module(dit-auto-fuse)'"),
        )
        .arg(Arg::new("reference").long("reference").value_name("FILE").help("Compare against this module (same signature), run as given"))
        .arg(Arg::new("seed").long("seed").value_name("N").default_value("0").value_parser(clap::value_parser!(u64)).help("Seed of the random inputs"))
        .arg(Arg::new("npy").long("input-npy").value_name("FILE").action(ArgAction::Append).help("An input as a .npy file, in argument order (repeat; the rest are random)"))
        .arg(Arg::new("target").long("target").value_name("NAME").default_value("ascend910b").help("Target of the fusion pipeline"))
        .arg(Arg::new("split-input-file").long("split-input-file").action(ArgAction::SetTrue).help("Run each '// -----' chunk on its own"))
        .arg(Arg::new("backend").long("backend").value_name("NAME").default_value("cpu").value_parser(["cpu", "cann"]).help("Runtime backend"))
        .arg(Arg::new("cann-dir").long("cann-dir").value_name("DIR").help("Load CANN's libascendcl/libnnopbase/libopapi from DIR (default: $ASCEND_HOME_PATH); dit.fused kernels come from $DIT_ASCENDC_KERNELS"))
        .arg(
            Arg::new("reference-backend")
                .long("reference-backend")
                .value_name("NAME")
                .value_parser(["cpu", "cann"])
                .help("Run the reference of a comparison on this backend; alone, compare the module as given on --backend against it"),
        )
        .arg(
            Arg::new("calls")
                .long("calls")
                .value_name("N")
                .default_value("1")
                .value_parser(clap::value_parser!(u32).range(1..=1000))
                .help("Run the init entry once, then the per-call entry N times on the same context (every call must give the same outputs)"),
        )
        .arg(Arg::new("fuse").long("fuse").value_name("LIST").help("Only these fusion switches in the pipeline (as dit-opt --fuse)"))
        .arg(Arg::new("no-fuse").long("no-fuse").value_name("LIST").help("Turn these fusion switches off (as dit-opt --no-fuse)"))
        .arg(
            Arg::new("dynamic-dim")
                .long("dynamic-dim")
                .value_name("N")
                .default_value("4")
                .value_parser(clap::value_parser!(u32).range(1..=65536))
                .help("Run every dynamic dim ('?') as N: the text is specialized before parsing"),
        )
        .arg(
            Arg::new("input-range")
                .long("input-range")
                .value_name("LO,HI")
                .default_value("-1,1")
                .help("Range of the random float inputs (e.g. 0.1,1 for graphs that need positive values)"),
        )
        .arg(
            Arg::new("max-elements")
                .long("max-elements")
                .value_name("N")
                .value_parser(clap::value_parser!(usize))
                .help("Skip (and report SKIPPED) a function with an argument or result of more than N elements"),
        )
        .arg(
            Arg::new("max-memory")
                .long("max-memory")
                .value_name("BYTES")
                .help("Refuse a function whose arguments, results and intermediates need more than BYTES (suffix K, M, G, T; default: half the physical memory)"),
        )
        .arg(
            Arg::new("skip-dynamic")
                .long("skip-dynamic")
                .action(ArgAction::SetTrue)
                .help("Skip (and report SKIPPED) a chunk whose dynamic dims cannot all be --dynamic-dim; without it that is an error"),
        )
        .arg(
            Arg::new("exclude")
                .long("exclude")
                .value_name("FUNCS")
                .help("Functions not to run, comma-separated (each is reported SKIPPED)"),
        )
        .arg(
            Arg::new("input-dir")
                .long("input-dir")
                .value_name("DIR")
                .help("Read input i as raw bytes from DIR/in_<i>.bin (row-major, the dtype's storage encoding)"),
        )
        .arg(
            Arg::new("save-inputs")
                .long("save-inputs")
                .value_name("DIR")
                .help("Write the inputs used as DIR/in_<i>.bin (what --input-dir and examples/c/run_model.c read)"),
        )
        .arg(
            Arg::new("output-dir")
                .long("output-dir")
                .value_name("DIR")
                .help("Write every output as DIR/<function>.output<j>.npy (the transformed run's with --compare-unfused)"),
        )
        .arg(
            Arg::new("reference-npy")
                .long("reference-npy")
                .value_name("DIR")
                .conflicts_with_all(["reference", "reference-backend", "input-dir", "split-input-file"])
                .help("Judge the module against torch eager's golden outputs: inputs from DIR/in_<i>.npy (--input-npy still wins for the leading ones), \
every output j against DIR/out_<j>.npy (bf16: DIR/out_<j>.f32.npy) with DIR/reference.json: max abs err <= 1e-4 x scale \
(bf16, against torch f32: RMS error <= 2 x torch bf16's, i.e. 1 - cos <= 4 x, and max abs err <= 4 x torch bf16's + 1e-6 x scale); with --compare-unfused also the module after --pipeline, by cosine >= 1 - 2^-7, \
naming each formula substitution (dit.fast_gelu). Exits 1 when any verdict fails"),
        )
        .arg(Arg::new("print-outputs").long("print-outputs").action(ArgAction::SetTrue).help("Print the first values of every output"))
}

fn main() -> ExitCode {
    let matches = match command().try_get_matches() {
        Ok(m) => m,
        Err(e) => {
            let kind = e.kind();
            let _ = e.print();
            return if matches!(
                kind,
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion
            ) {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            };
        }
    };
    let switches = match fusion_switches(&matches) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("<command line>: error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let input_range = match parse_range(
        matches
            .get_one::<String>("input-range")
            .map_or("-1,1", |s| s.as_str()),
    ) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("<command line>: error: --input-range: {e}");
            return ExitCode::FAILURE;
        }
    };
    let max_memory = match matches.get_one::<String>("max-memory") {
        Some(text) => match parse_bytes(text) {
            Ok(n) => n,
            Err(e) => {
                eprintln!("<command line>: error: --max-memory: {e}");
                return ExitCode::FAILURE;
            }
        },
        None => default_max_memory(),
    };
    let options = Options {
        max_memory,
        max_elements: matches.get_one::<usize>("max-elements").copied(),
        skip_dynamic: matches.get_flag("skip-dynamic"),
        exclude: matches
            .get_one::<String>("exclude")
            .map(|l| {
                l.split(',')
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty())
                    .collect()
            })
            .unwrap_or_default(),
        switches,
        input_range,
        dynamic_dim: matches.get_one::<u32>("dynamic-dim").copied().unwrap_or(4) as usize,
        input: matches
            .get_one::<String>("input")
            .cloned()
            .unwrap_or_default(),
        entry: matches.get_one::<String>("entry").cloned(),
        compare_unfused: matches.get_flag("compare-unfused"),
        pipeline: matches
            .get_one::<String>("pipeline")
            .cloned()
            .unwrap_or_default(),
        reference: matches.get_one::<String>("reference").cloned(),
        seed: matches.get_one::<u64>("seed").copied().unwrap_or(0),
        npy_inputs: matches
            .get_many::<String>("npy")
            .map(|v| v.cloned().collect())
            .unwrap_or_default(),
        target: matches
            .get_one::<String>("target")
            .cloned()
            .unwrap_or_default(),
        split_input_file: matches.get_flag("split-input-file"),
        backend: matches
            .get_one::<String>("backend")
            .cloned()
            .unwrap_or_default(),
        cann_dir: matches.get_one::<String>("cann-dir").cloned(),
        reference_backend: matches.get_one::<String>("reference-backend").cloned(),
        calls: matches.get_one::<u32>("calls").copied().unwrap_or(1) as usize,
        print_outputs: matches.get_flag("print-outputs"),
        output_dir: matches.get_one::<String>("output-dir").cloned(),
        input_dir: matches.get_one::<String>("input-dir").cloned(),
        reference_npy: matches.get_one::<String>("reference-npy").cloned(),
        save_inputs: matches.get_one::<String>("save-inputs").cloned(),
    };
    let input = match options.input.as_str() {
        "-" => "<stdin>".to_string(),
        path => path.to_string(),
    };
    // Deep graphs recurse in MLIR's verifier and printer: run on a big stack, as dit-opt does.
    let worker = std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(move || run(&options));
    match worker.map(|h| h.join()) {
        Ok(Ok(code)) => code,
        Ok(Err(payload)) => {
            eprintln!(
                "{input}:1:1: error: internal failure (the run panicked): {}",
                dit_passes::panic_text(payload.as_ref())
            );
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("<dit-run>: error: cannot start the worker thread: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Why `job` is not run (reported, not an error): its dynamic dims do not specialize (with
/// --skip-dynamic), or a tensor is over --max-elements.
fn skip_reason(job: &jit::Job, text: &str) -> Result<Option<String>, String> {
    if job.options.exclude.contains(&job.entry) {
        return Ok(Some("excluded by --exclude".to_string()));
    }
    let signature = match jit::read_signature(job, text) {
        Ok(s) => s,
        Err(e) if job.options.skip_dynamic && text.contains("// dit-run: specialized") => {
            let first = e.lines().next().unwrap_or_default().to_string();
            return Ok(Some(format!(
                "its dynamic dims do not all specialize to {} ({first})",
                job.options.dynamic_dim
            )));
        }
        Err(e) => return Err(e),
    };
    if let Some(max) = job.options.max_elements {
        let largest = signature
            .inputs
            .iter()
            .chain(&signature.outputs)
            .map(|t| t.checked_numel().unwrap_or(usize::MAX))
            .max()
            .unwrap_or(0);
        if largest > max {
            return Ok(Some(format!(
                "a tensor of {largest} elements is over --max-elements={max}"
            )));
        }
    }
    Ok(None)
}

fn fusion_switches(m: &clap::ArgMatches) -> Result<dit_passes::FusionSwitches, String> {
    let mut switches = match m.get_one::<String>("fuse") {
        Some(list) => dit_passes::FusionSwitches::only(list).map_err(|e| format!("--fuse: {e}"))?,
        None => dit_passes::FusionSwitches::default(),
    };
    if let Some(list) = m.get_one::<String>("no-fuse") {
        switches
            .disable(list)
            .map_err(|e| format!("--no-fuse: {e}"))?;
    }
    Ok(switches)
}

/// `--max-memory`'s value: a byte count with an optional binary suffix (`512M`, `2GiB`).
fn parse_bytes(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let t = t
        .strip_suffix("iB")
        .or_else(|| t.strip_suffix('B'))
        .unwrap_or(t);
    let (digits, shift) = match t.chars().last() {
        Some('K' | 'k') => (&t[..t.len() - 1], 10),
        Some('M' | 'm') => (&t[..t.len() - 1], 20),
        Some('G' | 'g') => (&t[..t.len() - 1], 30),
        Some('T' | 't') => (&t[..t.len() - 1], 40),
        _ => (t, 0),
    };
    digits
        .trim()
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(1u64 << shift))
        .filter(|n| *n > 0)
        .ok_or_else(|| format!("'{text}' is not a positive byte count (e.g. 512M, 8G)"))
}

/// Half the physical memory (`MemTotal` in /proc/meminfo), or 8 GiB where that cannot be read:
/// a run that needs more would swap or be killed, so it is refused up front.
fn default_max_memory() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|info| {
            let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
            let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kib.saturating_mul(1024) / 2)
        })
        .unwrap_or(8 << 30)
}

fn parse_range(text: &str) -> Result<(f64, f64), String> {
    let (lo, hi) = text.split_once(',').ok_or("expected LO,HI")?;
    let lo: f64 = lo
        .trim()
        .parse()
        .map_err(|_| format!("'{lo}' is not a number"))?;
    let hi: f64 = hi
        .trim()
        .parse()
        .map_err(|_| format!("'{hi}' is not a number"))?;
    if !(lo.is_finite() && hi.is_finite() && lo < hi) {
        return Err(format!("{lo},{hi} is not a range"));
    }
    Ok((lo, hi))
}

/// Replaces every dynamic dim of a tensor type (`tensor<?x64xf16>`) by `n`: the runtime runs
/// static shapes. A graph whose dynamic dims are not all equal then fails to verify, with the
/// verifier's message.
pub fn specialize_dynamic_dims(text: &str, n: usize) -> String {
    if !text.contains('?') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 32);
    let mut rest = text;
    while let Some(at) = rest.find("tensor<") {
        out.push_str(&rest[..at + 7]);
        rest = &rest[at + 7..];
        let end = rest.find('>').unwrap_or(rest.len());
        out.push_str(&rest[..end].replace('?', &n.to_string()));
        rest = &rest[end..];
    }
    out.push_str(rest);
    if out != text {
        // Marks the text for --skip-dynamic; a trailing comment changes no line number.
        out.push_str("\n// dit-run: specialized\n");
    }
    out
}

/// Reads an input and applies dit-opt's checks before parsing (UTF-8, NUL bytes, nesting
/// depth): MLIR's parser takes a C string and recurses per nesting level.
fn read(path: &str) -> Result<String, String> {
    let bytes = if path == "-" {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut b).map(|_| b)
    } else {
        std::fs::read(path)
    }
    .map_err(|e| format!("{path}: error: cannot read input: {e}"))?;
    let display = if path == "-" { "<stdin>" } else { path };
    let text = dit_dialect::input::decode(display, bytes).map_err(|d| d.to_string())?;
    dit_dialect::input::check_shape(display, &text).map_err(|d| d.to_string())?;
    Ok(text)
}

/// Gives every unlocated error line of `message` (`dit-run: error: ...`, `<file>: error: ...`)
/// the start of its chunk as location: a failure of the run as a whole still says where.
fn locate(message: &str, name: &str, line_offset: u32) -> String {
    message
        .lines()
        .map(|line| {
            let rest = line
                .strip_prefix("dit-run: error: ")
                .or_else(|| line.strip_prefix(&format!("{name}: error: ")))
                .or_else(|| line.strip_prefix("error: "));
            match rest {
                Some(rest) => format!("{name}:{}:1: error: {rest}", line_offset + 1),
                None => line.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn run(options: &Options) -> ExitCode {
    let text = match read(&options.input) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let reference = match &options.reference {
        Some(path) => match read(path) {
            Ok(t) => Some(specialize_dynamic_dims(&t, options.dynamic_dim)),
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        },
        None => None,
    };
    let chunks = if options.split_input_file {
        dit_dialect::diagnostics::split_input(&text)
    } else {
        vec![(text.as_str(), 0)]
    };
    let name = if options.input == "-" {
        "<stdin>"
    } else {
        options.input.as_str()
    };
    let mut ok = true;
    for (index, (chunk, line_offset)) in chunks.into_iter().enumerate() {
        let specialized = specialize_dynamic_dims(chunk, options.dynamic_dim);
        let chunk = specialized.as_str();
        if options.split_input_file {
            println!("// chunk {index} (line {})", line_offset + 1);
        }
        let entries = match &options.entry {
            Some(e) => vec![e.clone()],
            None => match jit::function_names(name, line_offset, chunk) {
                // A golden directory holds one function's inputs and outputs: @forward (what
                // dit-import names it), or the module's only function.
                Ok(names) if options.reference_npy.is_some() && names.len() > 1 => {
                    if names.iter().any(|n| n == "forward") {
                        vec!["forward".to_string()]
                    } else {
                        eprintln!(
                            "{name}:{}:1: error: --reference-npy judges one function and the module has {} (none is @forward): name it with --entry",
                            line_offset + 1,
                            names.len()
                        );
                        ok = false;
                        continue;
                    }
                }
                Ok(names) => names,
                Err(e) => {
                    eprintln!("{}", locate(e.trim_end(), name, line_offset));
                    ok = false;
                    continue;
                }
            },
        };
        if entries.is_empty() {
            eprintln!("{name}:{}:1: error: no function to run", line_offset + 1);
            ok = false;
        }
        for entry in entries {
            let job = jit::Job {
                display_name: name,
                line_offset,
                options,
                entry,
            };
            match skip_reason(&job, chunk) {
                Ok(Some(why)) => {
                    println!("@{}: SKIPPED: {why}", job.entry);
                    continue;
                }
                Ok(None) => {}
                Err(e) => {
                    eprintln!("{}", locate(e.trim_end(), name, line_offset));
                    ok = false;
                    continue;
                }
            }
            if let Err(e) = jit::plan_memory(&job, chunk) {
                eprintln!("{}", locate(e.trim_end(), name, line_offset));
                ok = false;
                continue;
            }
            let result = if let Some(dir) = &options.reference_npy {
                compare::run_golden(&job, chunk, dir)
            } else if options.compare_unfused
                || reference.is_some()
                || options.reference_backend.is_some()
            {
                compare::run_and_compare(&job, chunk, reference.as_deref())
            } else {
                compare::run_once(&job, chunk)
            };
            if let Err(e) = result {
                eprintln!("{}", locate(e.trim_end(), name, line_offset));
                ok = false;
            }
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
