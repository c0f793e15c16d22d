//! libdit_plugin.so in upstream mlir-opt (the lit tests of test/Plugin show single cases):
//! - the library carries no copy of MLIR's or LLVM's C++ (one MLIR in mlir-opt's process),
//!   exports the plugin entry points and the C API, and needs libMLIR.so;
//! - mlir-opt with the plugin parses and verifies `dit-opt --fuse-all`'s output of every model
//!   graph, and its `dit-fuse-all` pipeline gives the same IR;
//! - the pipeline mlir-opt prints for dit passes with options parses again.

#[path = "../../dit-opt/tests/support/models.rs"]
mod models;

use std::{
    collections::BTreeSet,
    path::{Path, PathBuf},
    process::{Command, Output},
};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("repository root")
}

/// target/<profile>/, where cargo put this test's plugin (the test runs from deps/).
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable");
    exe.parent()
        .and_then(Path::parent)
        .expect("target/<profile>/deps/<test>")
        .to_path_buf()
}

/// The plugin cargo linked for these tests: deps/ (cargo copies it up to target/<profile>/
/// only for `cargo build`).
fn plugin() -> PathBuf {
    let path = profile_dir().join("deps/libdit_plugin.so");
    assert!(
        path.exists(),
        "{} is missing: cargo builds it with this package's tests",
        path.display()
    );
    path
}

fn llvm_tool(name: &str) -> PathBuf {
    Path::new(option_env!("DIT_LLVM_BIN").unwrap_or("/usr/lib/llvm-22/bin")).join(name)
}

/// dit-opt of the same profile, built here (a no-op when it is current): cargo builds only
/// this package's targets for its tests.
fn dit_opt() -> PathBuf {
    let profile = profile_dir();
    let mut build = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    build
        .args(["build", "--quiet", "-p", "dit-opt"])
        .current_dir(repo_root());
    if profile.ends_with("release") {
        build.arg("--release");
    }
    if let Some(target_dir) = profile.parent() {
        build.env("CARGO_TARGET_DIR", target_dir);
    }
    let status = build.status().expect("cannot run cargo to build dit-opt");
    assert!(status.success(), "building dit-opt failed");
    profile.join("dit-opt")
}

/// mlir-opt with the dit dialect and passes loaded from the plugin.
fn mlir_opt() -> Command {
    let plugin = plugin();
    let mut command = Command::new(llvm_tool("mlir-opt"));
    command
        .arg(format!("--load-dialect-plugin={}", plugin.display()))
        .arg(format!("--load-pass-plugin={}", plugin.display()));
    command
}

fn run(command: &mut Command) -> Output {
    command
        .output()
        .unwrap_or_else(|e| panic!("cannot run {command:?}: {e}"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The names of the symbols `nm` lists for `file` with `flags`, whose type letter is in
/// `kinds`.
fn symbols(file: &Path, flags: &[&str], kinds: &str) -> BTreeSet<String> {
    let output = run(Command::new(llvm_tool("llvm-nm")).args(flags).arg(file));
    assert!(
        output.status.success(),
        "llvm-nm {}: {}",
        file.display(),
        text(&output.stderr)
    );
    text(&output.stdout)
        .lines()
        .filter_map(|line| {
            let mut fields = line.split_whitespace().rev();
            let name = fields.next()?;
            let kind = fields.next()?;
            (kind.len() == 1 && kinds.contains(kind)).then(|| name.to_string())
        })
        .collect()
}

/// The shared library a `NEEDED` entry names, resolved the way `ldd` does.
fn needed(file: &Path) -> Vec<String> {
    let output = run(Command::new(llvm_tool("llvm-readelf")).arg("-d").arg(file));
    text(&output.stdout)
        .lines()
        .filter(|l| l.contains("(NEEDED)"))
        .filter_map(|l| Some(l.split('[').nth(1)?.trim_end_matches(']').to_string()))
        .collect()
}

#[test]
fn plugin_links_the_shared_mlir_and_exports_its_entry_points() {
    let plugin = plugin();
    let needs = needed(&plugin);
    for lib in ["libMLIR.so.22.1", "libLLVM.so.22.1", "libdit_mlir_capi.so"] {
        assert!(
            needs.iter().any(|n| n == lib),
            "{lib} not in NEEDED: {needs:?}"
        );
    }
    let exported = symbols(&plugin, &["-D", "--defined-only"], "T");
    for entry in [
        "mlirGetDialectPluginInfo",
        "mlirGetPassPluginInfo",
        "mlirGetDialectHandle__dit__",
        "ditRegisterPasses",
    ] {
        assert!(exported.contains(entry), "{entry} is not exported");
    }
    // Code in the plugin (local or not) that libMLIR.so or libLLVM.so also defines as a
    // non-inline (strong) symbol would be a second copy of MLIR or LLVM. Inline functions and
    // templates (weak) are every plugin's own, and the C API lives in libdit_mlir_capi.so.
    let own = symbols(&plugin, &["--defined-only"], "TtDdBbRr");
    let lib = llvm_tool("..").join("lib");
    let mut duplicated = Vec::new();
    for shared in ["libMLIR.so.22.1", "libLLVM.so.22.1"] {
        let strong = symbols(&lib.join(shared), &["-D", "--defined-only"], "TDBR");
        assert!(
            strong.len() > 10_000,
            "{shared}: only {} symbols",
            strong.len()
        );
        duplicated.extend(own.intersection(&strong).map(|s| format!("{shared}: {s}")));
    }
    assert!(
        duplicated.is_empty(),
        "{} symbols of the plugin are defined by MLIR/LLVM too, e.g. {:?}",
        duplicated.len(),
        &duplicated[..duplicated.len().min(10)]
    );
    // Nor does it carry MLIR's C API (a second C API over the same MLIR would work, but the
    // hidden inline statics it brings are what broke trait lookups; see build.rs).
    let ours = [
        "mlirGetDialectPluginInfo",
        "mlirGetPassPluginInfo",
        "mlirGetDialectHandle__dit__",
        // lib/CAPI/Dialects.cpp, behind the one above.
        "mlirGetDialectHandle__dit_hooks__",
        // Inline in mlir-c/Support.h.
        "mlirStringRefCreate",
    ];
    let c_api: Vec<_> = own
        .iter()
        .filter(|s| s.starts_with("mlir") && !ours.contains(&s.as_str()))
        .collect();
    assert!(
        c_api.is_empty(),
        "C API functions inside the plugin: {c_api:?}"
    );
    let capi = profile_dir().join("libdit_mlir_capi.so");
    let capi_exports = symbols(&capi, &["-D", "--defined-only"], "T");
    for f in [
        "mlirContextCreate",
        "mlirParsePassPipeline",
        "mlirOperationVerify",
    ] {
        assert!(capi_exports.contains(f), "libdit_mlir_capi.so lacks {f}");
    }
    println!(
        "plugin: {} own symbols, none also strong in libMLIR.so / libLLVM.so; \
         libdit_mlir_capi.so exports {} C API functions",
        own.len(),
        capi_exports.len()
    );
}

#[test]
fn mlir_opt_verifies_the_fused_output_of_every_model() {
    let root = repo_root();
    let dit_opt = dit_opt();
    let dir = tempfile::tempdir().expect("temp dir");
    let models = models::models(&root);
    assert!(models.len() >= 20, "only {} models", models.len());
    let (mut verified, mut same, mut groups) = (0, 0, 0);
    let mut failures = Vec::new();
    for (i, model) in models.iter().enumerate() {
        let imported = model.starts_with("test/models/imported/");
        let import: &[&str] = if imported {
            &["--dit-convert-torch-to-dit"]
        } else {
            &[]
        };
        let fused = dir.path().join(format!("{i}.dit-opt.mlir"));
        let out = run(Command::new(&dit_opt)
            .args(import)
            .arg("--fuse-all")
            .arg(root.join(model))
            .arg("-o")
            .arg(&fused));
        assert!(
            out.status.success(),
            "dit-opt --fuse-all {model}: {}",
            text(&out.stderr)
        );
        // mlir-opt parses, verifies (ODS constraints and the Rust rules) and prints it.
        let printed = dir.path().join(format!("{i}.printed.mlir"));
        let out = run(mlir_opt().arg(&fused).arg("-o").arg(&printed));
        if !out.status.success() {
            failures.push(format!(
                "{model}: mlir-opt rejects the fused IR:\n{}",
                text(&out.stderr)
            ));
            continue;
        }
        verified += 1;
        let printed = std::fs::read_to_string(&printed).expect("mlir-opt output");
        groups += printed.matches("\"dit.fused\"").count();
        // The registered pipeline runs the same pass list.
        let pipeline = if imported {
            "builtin.module(dit-convert-torch-to-dit,dit-fuse-all)"
        } else {
            "builtin.module(dit-fuse-all)"
        };
        let mut command = mlir_opt();
        if imported {
            command.arg("--allow-unregistered-dialect");
        }
        let out = run(command
            .arg(format!("--pass-pipeline={pipeline}"))
            .arg(root.join(model)));
        if !out.status.success() {
            failures.push(format!(
                "{model}: mlir-opt {pipeline} failed:\n{}",
                text(&out.stderr)
            ));
        } else if text(&out.stdout) != printed {
            failures.push(format!(
                "{model}: mlir-opt {pipeline} differs from dit-opt --fuse-all"
            ));
        } else {
            same += 1;
        }
    }
    println!(
        "{verified}/{} models: dit-opt --fuse-all output verified by mlir-opt with the plugin \
         ({groups} dit.fused groups); {same} identical to mlir-opt's dit-fuse-all",
        models.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(groups > 0, "no model fused anything");
}

#[test]
fn printed_pipeline_with_options_parses_again() {
    let input = repo_root().join("test/models/wan21_block.mlir");
    let pipeline = "builtin.module(func.func(dit-fuse-patterns{enable_fast_gelu=false}),\
                    dit-auto-fuse{min-benefit=0.5 blacklist=dit.add:dit.mul,dit.mul:dit.relu})";
    let out = run(mlir_opt()
        .arg(format!("--pass-pipeline={pipeline}"))
        .arg("--dump-pass-pipeline")
        .arg(&input));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let dumped = text(&out.stderr);
    let printed: String = dumped.lines().skip(1).collect::<Vec<_>>().join(" ");
    assert!(printed.contains("enable_fast_gelu=false"), "{printed}");
    assert!(printed.contains("min-benefit=0.5"), "{printed}");
    let again = run(mlir_opt()
        .arg(format!("--pass-pipeline={printed}"))
        .arg(&input));
    assert!(
        again.status.success(),
        "the printed pipeline does not run: {printed}\n{}",
        text(&again.stderr)
    );
    assert_eq!(
        text(&again.stdout),
        text(&out.stdout),
        "different IR from the same pipeline"
    );
}
