//! The command line, built from the pass registry: one `--<flag>` per registered pass.

use clap::{Arg, ArgAction, ArgMatches, Command};
use dit_passes::{PASSES, PIPELINES};

/// Options after parsing the command line.
#[derive(Debug)]
pub struct Options {
    pub input: String,
    pub output: Option<String>,
    pub split_input_file: bool,
    pub verify_diagnostics: bool,
    pub pipeline: Option<String>,
    /// Pass flags in command-line order, each with the options written after it
    /// (`--dit-auto-fuse='aggressive-level=1 min-benefit=0.5'`).
    pub pass_flags: Vec<(&'static str, Option<String>)>,
    /// mlir-opt's pass-manager flags (IR dumps, timing, statistics, verify-each, pipeline dump).
    pub instrument: dit_passes::Instrumentation,
    pub print_debuginfo: bool,
    pub print_generic: bool,
    /// `--mlir-elide-elementsattrs-if-larger=N`.
    pub elide_elements_if_larger: Option<i64>,
    /// `--mlir-disable-threading`.
    pub disable_threading: bool,
    /// `--emit-bytecode`: write MLIR bytecode instead of text.
    pub emit_bytecode: bool,
    /// `--allow-unregistered-dialect` (implied by an import pass such as
    /// dit-convert-torch-to-dit).
    pub allow_unregistered_dialect: bool,
    pub list_passes: bool,
    pub show_dialects: bool,
    pub print_passes_doc: bool,
    pub target: String,
    /// `--fusion-report=text|json`.
    pub fusion_report: Option<String>,
    /// `--emit-fusion-dot=FILE`: Graphviz of the result, fused kernels as clusters.
    pub emit_fusion_dot: Option<String>,
    /// `--fuse=a,b`: only these fusions.
    pub fuse: Option<String>,
    /// `--no-fuse=x,y`: not these fusions.
    pub no_fuse: Option<String>,
    /// `--fusion-config=FILE.toml`.
    pub fusion_config: Option<String>,
    /// `--shape-hint=NAME_OR_INDEX=VALUE`, repeatable.
    pub shape_hints: Vec<String>,
    /// `--emit=mlir|llvm|asm|obj|header|ascendc|linalg`.
    pub emit: String,
}

/// The clap command. Pass flags come from the registry.
pub fn command() -> Command {
    let mut cmd = Command::new("dit-opt")
        .about("Parse, verify, transform and print dit-dialect MLIR (an mlir-opt for dit)")
        .version(version())
        .arg(
            Arg::new("input")
                .default_value("-")
                .help("Input file ('-' for stdin)"),
        )
        .arg(
            Arg::new("output")
                .short('o')
                .long("output")
                .value_name("FILE")
                .help("Output file (default stdout)"),
        )
        .arg(flag(
            "split-input-file",
            "Split the input at '// -----' lines and process each chunk on its own",
        ))
        .arg(flag(
            "verify-diagnostics",
            "Check diagnostics against expected-error/warning/note/remark comments",
        ))
        .arg(
            Arg::new("pass-pipeline")
                .long("pass-pipeline")
                .value_name("PIPELINE")
                .help("Pass pipeline, e.g. 'builtin.module(dit-dce,dit-cse)'"),
        )
        .arg(flag(
            "mlir-print-ir-before-all",
            "Print the IR before every pass (stderr)",
        ))
        .arg(flag(
            "mlir-print-ir-after-all",
            "Print the IR after every pass (stderr)",
        ))
        .arg(flag(
            "mlir-print-ir-after-change",
            "Print the IR after a pass only when the pass changed it (stderr)",
        ))
        .arg(flag(
            "mlir-print-ir-after-failure",
            "Print the IR after a pass that failed (stderr)",
        ))
        .arg(flag(
            "mlir-print-ir-module-scope",
            "Print the whole module in IR dumps, not only the op the pass runs on",
        ))
        .arg(flag("mlir-timing", "Print a pass timing report (stderr)"))
        .arg(flag(
            "mlir-pass-statistics",
            "Print the statistics of every pass after the run (stderr)",
        ))
        .arg(
            Arg::new("mlir-pass-statistics-display")
                .long("mlir-pass-statistics-display")
                .value_name("MODE")
                .value_parser(["list", "pipeline"])
                .default_value("list")
                .help("How --mlir-pass-statistics lays out its report"),
        )
        .arg(
            Arg::new("verify-each")
                .long("verify-each")
                .value_name("BOOL")
                .num_args(0..=1)
                .require_equals(true)
                .default_value("true")
                .default_missing_value("true")
                .value_parser(clap::value_parser!(bool))
                .help("Run the verifier (MLIR's and the dit rules) after every pass; with false, only once at the end"),
        )
        .arg(flag(
            "dump-pass-pipeline",
            "Print the pass pipeline that will run (stderr)",
        ))
        .arg(flag(
            "mlir-disable-threading",
            "Run MLIR single-threaded (no parallel pass execution or verification)",
        ))
        .arg(flag(
            "emit-bytecode",
            "Write MLIR bytecode instead of text",
        ))
        .arg(
            Arg::new("mlir-elide-elementsattrs-if-larger")
                .long("mlir-elide-elementsattrs-if-larger")
                .value_name("N")
                .value_parser(clap::value_parser!(u32))
                .help("Print elements attributes with more than N elements as elided"),
        )
        .arg(flag(
            "mlir-print-debuginfo",
            "Print locations in the output",
        ))
        .arg(flag(
            "mlir-print-op-generic",
            "Print every op in generic form",
        ))
        .arg(flag(
            "allow-unregistered-dialect",
            "Parse ops and types of dialects dit-opt does not know (implied by --dit-convert-torch-to-dit)",
        ))
        .arg(flag("list-passes", "List the registered passes and exit"))
        .arg(flag(
            "show-dialects",
            "List the dialects dit-opt knows and exit",
        ))
        .arg(
            flag(
                "print-passes-doc",
                "Print docs/Passes.md, generated from the pass registry, and exit",
            )
            .hide(true),
        )
        .arg(
            Arg::new("target")
                .long("target")
                .value_name("NAME")
                .default_value(dit_dialect::target::TARGETS[0].name)
                .help(target_help()),
        );
    cmd = cmd.arg(
        Arg::new("fusion-report")
            .long("fusion-report")
            .value_name("FORMAT")
            .value_parser(["text", "json"])
            .help("Print what each fusion matched, applied and skipped (with reasons), and the kernel counts (stderr)"),
    );
    cmd = cmd
        .arg(Arg::new("fuse").long("fuse").value_name("LIST").help(
            "Only these fusion switches, e.g. gelu_mul,swiglu (the enable_ prefix is optional)",
        ))
        .arg(
            Arg::new("emit-fusion-dot")
                .long("emit-fusion-dot")
                .value_name("FILE")
                .help("Write the result as a Graphviz graph, each dit.fused kernel a cluster"),
        )
        .arg(
            Arg::new("emit")
                .long("emit")
                .value_name("KIND")
                .value_parser(["mlir", "llvm", "asm", "obj", "header", "ascendc", "linalg"])
                .default_value("mlir")
                .help("What to write: MLIR (default), or (after lowering with --dit-lower-to-aclnn, added when missing) LLVM IR, assembly, an object file, the entry points' C header, or (ascendc, -o DIR) an Ascend C kernel per dit.fused group with the CMake project that builds them and the host object, or (linalg, -o DIR) a module per dit.fused group with its DEVICE function in upstream linalg (dit-lower-fused-to-linalg)"),
        )
        .arg(
            Arg::new("shape-hint")
                .long("shape-hint")
                .value_name("NAME_OR_INDEX=VALUE")
                .action(ArgAction::Append)
                .help("Bind a dynamic dim for the cost model and report: by its dit.dim_names name or its index among the dynamic argument dims (repeatable; unbound dims count as 1)"),
        )
        .arg(
            Arg::new("no-fuse")
                .long("no-fuse")
                .value_name("LIST")
                .help("Turn these fusion switches off"),
        )
        .arg(
            Arg::new("fusion-config")
                .long("fusion-config")
                .value_name("FILE")
                .help("A TOML file of fusion switches (enable_gelu_mul = false, ...) and dit-auto-fuse options ([auto_fuse] min_benefit = 0.3, ...)"),
        );
    for pipeline in PIPELINES {
        cmd = cmd.arg(flag(pipeline.flag, pipeline.summary));
    }
    for pass in PASSES {
        // `--dit-x` or `--dit-x='opt=v other=w'`, as in mlir-opt.
        cmd = cmd.arg(
            Arg::new(pass.flag)
                .long(pass.flag)
                .value_name("OPTIONS")
                .num_args(0..=1)
                .require_equals(true)
                // Every occurrence has a value (empty without `=`), so that each has an index.
                .default_missing_value("")
                .action(ArgAction::Append)
                .help(pass.summary),
        );
    }
    cmd
}

fn flag(name: &'static str, help: &'static str) -> Arg {
    Arg::new(name)
        .long(name)
        .action(ArgAction::SetTrue)
        .help(help)
}

fn target_help() -> String {
    let names: Vec<_> = dit_dialect::target::TARGETS
        .iter()
        .map(|t| t.name)
        .collect();
    format!("Hardware target: {}", names.join(", "))
}

/// The `--version` text.
pub fn version() -> &'static str {
    concat!(
        env!("CARGO_PKG_VERSION"),
        " (MLIR 22 via melior 0.27; dit dialect from ODS)"
    )
}

/// Reads the options out of parsed matches.
pub fn options(m: &ArgMatches) -> Options {
    // Pass flags and named pipelines, in command-line order, pipelines expanded in place.
    // A pass flag may appear several times (`--dit-cse --dit-dce --dit-cse`): each occurrence
    // is one run of the pass, in command-line order.
    let mut pass_flags: Vec<(usize, usize, &'static str, Option<String>)> = Vec::new();
    for pass in PASSES {
        let (Some(indices), Some(values)) =
            (m.indices_of(pass.flag), m.get_many::<String>(pass.flag))
        else {
            continue;
        };
        for (at, value) in indices.zip(values) {
            let options = (!value.is_empty()).then(|| value.clone());
            pass_flags.push((at, 0, pass.flag, options));
        }
    }
    for pipeline in PIPELINES.iter().filter(|p| m.get_flag(p.flag)) {
        let at = m.index_of(pipeline.flag).unwrap_or(0);
        pass_flags.extend(
            pipeline
                .passes
                .iter()
                .enumerate()
                .map(|(i, f)| (at, i, *f, None)),
        );
    }
    pass_flags.sort();
    let elide_elements_if_larger = m
        .get_one::<u32>("mlir-elide-elementsattrs-if-larger")
        .map(|n| i64::from(*n));
    let print_debuginfo = m.get_flag("mlir-print-debuginfo");
    let print_generic = m.get_flag("mlir-print-op-generic");
    let instrument = dit_passes::Instrumentation {
        print_before_all: m.get_flag("mlir-print-ir-before-all"),
        print_after_all: m.get_flag("mlir-print-ir-after-all"),
        print_after_change: m.get_flag("mlir-print-ir-after-change"),
        print_after_failure: m.get_flag("mlir-print-ir-after-failure"),
        print_module_scope: m.get_flag("mlir-print-ir-module-scope"),
        print: dit_dialect::ir::PrintOptions {
            debug_info: print_debuginfo,
            generic: print_generic,
            elide_elements_if_larger,
        },
        timing: m.get_flag("mlir-timing"),
        statistics: m.get_flag("mlir-pass-statistics").then(|| {
            match m
                .get_one::<String>("mlir-pass-statistics-display")
                .map(String::as_str)
            {
                Some("pipeline") => dit_passes::StatisticsDisplay::Pipeline,
                _ => dit_passes::StatisticsDisplay::List,
            }
        }),
        verify_each: m.get_one::<bool>("verify-each").copied().unwrap_or(true),
        dump_pipeline: m.get_flag("dump-pass-pipeline"),
        // dit-opt verifies every chunk right after parsing (reporting every broken rule).
        verify_input: false,
    };
    Options {
        input: m
            .get_one::<String>("input")
            .cloned()
            .unwrap_or_else(|| "-".into()),
        output: m.get_one::<String>("output").cloned(),
        split_input_file: m.get_flag("split-input-file"),
        verify_diagnostics: m.get_flag("verify-diagnostics"),
        pipeline: m.get_one::<String>("pass-pipeline").cloned(),
        pass_flags: pass_flags
            .into_iter()
            .map(|(_, _, f, options)| (f, options))
            .collect(),
        instrument,
        print_debuginfo,
        print_generic,
        elide_elements_if_larger,
        disable_threading: m.get_flag("mlir-disable-threading"),
        emit_bytecode: m.get_flag("emit-bytecode"),
        allow_unregistered_dialect: m.get_flag("allow-unregistered-dialect"),
        list_passes: m.get_flag("list-passes"),
        show_dialects: m.get_flag("show-dialects"),
        print_passes_doc: m.get_flag("print-passes-doc"),
        target: m.get_one::<String>("target").cloned().unwrap_or_default(),
        fusion_report: m.get_one::<String>("fusion-report").cloned(),
        emit_fusion_dot: m.get_one::<String>("emit-fusion-dot").cloned(),
        fuse: m.get_one::<String>("fuse").cloned(),
        no_fuse: m.get_one::<String>("no-fuse").cloned(),
        fusion_config: m.get_one::<String>("fusion-config").cloned(),
        emit: m
            .get_one::<String>("emit")
            .cloned()
            .unwrap_or_else(|| "mlir".into()),
        shape_hints: m
            .get_many::<String>("shape-hint")
            .map(|v| v.cloned().collect())
            .unwrap_or_default(),
    }
}

/// `--list-passes` output.
pub fn list_passes() -> String {
    let width = PASSES.iter().map(|p| p.flag.len()).max().unwrap_or(0) + 2;
    let mut out = String::from("Available pipelines:\n");
    for p in PIPELINES {
        out.push_str(&format!(
            "  --{:<width$}{} ({})\n",
            p.flag,
            p.summary,
            p.passes.join(", ")
        ));
    }
    out.push_str("Available passes:\n");
    for p in PASSES {
        out.push_str(&format!("  --{:<width$}{}\n", p.flag, p.summary));
        for o in (p.options)() {
            out.push_str(&format!("      {}={} : {}\n", o.name, o.default, o.help));
        }
    }
    out
}
