//! The model × fusion coverage matrix (docs/coverage.md, like seed 000 §3.3, but measured):
//! runs `dit-opt MODEL --fuse-all --fusion-report=json` on examples/flux_double_block.mlir and
//! every model graph in test/models, and `dit-opt MODEL --dit-convert-torch-to-dit --fuse-all
//! --fusion-report=json` on every torch-mlir export in test/models/imported (tools/dit-import),
//! checks that each fused output re-parses and verifies, and renders what every fusion switch
//! matched and applied, the kernel counts, every skip with its reason, and for the imported
//! models the torch ops converted and the aten ops left as `dit.opaque`, and (coverage/families.rs)
//! per DiT family of test/models/imported/families.json seed 000's predicted fusions next to the
//! ones that fired. The test fails while
//! docs/coverage.md differs from what it renders; run it with `DIT_UPDATE_COVERAGE=1` to rewrite
//! the file instead.

#[path = "coverage/families.rs"]
mod families;

use dit_passes::fusion::SWITCHES;
use serde_json::Value;
use std::{
    collections::BTreeSet,
    fmt::Write as _,
    fs,
    path::{Path, PathBuf},
    process::{Command, Stdio},
};

const DOC: &str = "docs/coverage.md";
/// torch-mlir exports (tools/dit-import), imported by the conversion pass before fusing.
const IMPORTED_DIR: &str = "test/models/imported";
/// Hand-written models also run W8A8-quantized (docs/quantize.md) under this name prefix, so
/// that the table shows the quantized fusions (P0's quant_mm_gelu) on the same graphs.
const QUANTIZED: &str = "quantized/";
/// The conversion pass: its report entries are the import, not a fusion.
const IMPORT_PASS: &str = "dit-convert-torch-to-dit";
const UPDATE_VAR: &str = "DIT_UPDATE_COVERAGE";
const REGENERATE: &str = "DIT_UPDATE_COVERAGE=1 cargo test -p dit-opt --test coverage";

fn repo_root() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    root.canonicalize()
        .unwrap_or_else(|e| panic!("cannot resolve the repository root {}: {e}", root.display()))
}

/// A file holds a model graph if some line outside a `//` comment defines a function (lit
/// tests such as test/models/flux-double-block.mlir only name one in CHECK lines).
fn is_model_graph(text: &str) -> bool {
    text.lines()
        .any(|l| !l.trim_start().starts_with("//") && l.contains("func.func"))
}

/// The model files, repo-relative with `/` separators, sorted by model name (file stem).
fn models(root: &Path) -> Vec<(String, String)> {
    let mut rel = vec!["examples/flux_double_block.mlir".to_string()];
    let dir = root.join("test/models");
    let entries =
        fs::read_dir(&dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("directory entry").path();
        if path.extension().is_some_and(|x| x == "mlir") {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            rel.push(format!("test/models/{name}"));
        }
    }
    // Imported exports are named `imported/<stem>`: the same model may also be hand-written.
    if let Ok(entries) = fs::read_dir(root.join(IMPORTED_DIR)) {
        for entry in entries {
            let path = entry.expect("directory entry").path();
            if path.extension().is_some_and(|x| x == "mlir") {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                rel.push(format!("{IMPORTED_DIR}/{name}"));
            }
        }
    }
    let mut out: Vec<(String, String)> = rel
        .into_iter()
        .filter(|r| {
            let text =
                fs::read_to_string(root.join(r)).unwrap_or_else(|e| panic!("cannot read {r}: {e}"));
            is_model_graph(&text)
        })
        .map(|r| {
            let stem = Path::new(&r)
                .file_stem()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if is_imported(&r) {
                (format!("imported/{stem}"), r)
            } else {
                (stem, r)
            }
        })
        .collect();
    let quantized: Vec<(String, String)> = out
        .iter()
        .filter(|(_, r)| !is_imported(r))
        .map(|(name, r)| (format!("{QUANTIZED}{name}"), r.clone()))
        .collect();
    out.extend(quantized);
    out.sort();
    for pair in out.windows(2) {
        assert!(
            pair[0].0 != pair[1].0,
            "two model files share the name {}: {} and {}",
            pair[0].0,
            pair[0].1,
            pair[1].1
        );
    }
    out
}

/// Whether a model file is a torch-mlir export that needs the conversion first.
fn is_imported(rel: &str) -> bool {
    rel.starts_with(&format!("{IMPORTED_DIR}/"))
}

/// What the conversion of an imported model did.
#[derive(Default)]
struct Import {
    torch_ops: u64,
    dit_ops: u64,
    /// The aten ops left as dit.opaque in the fused output: (name, count), most frequent first.
    opaque: Vec<(String, u64)>,
}

/// One decision in the report.
struct Event {
    location: String,
    detail: String,
}

/// One pattern's (switch's) entry in the report.
struct Pattern {
    name: String,
    matched: u64,
    applied: u64,
    skipped: Vec<Event>,
}

/// What `--fuse-all` did to one model file.
struct Model {
    name: String,
    path: String,
    patterns: Vec<Pattern>,
    kernels_before: u64,
    kernels_after: u64,
    ddr_before: u64,
    ddr_after: u64,
    lower_bound: u64,
    largest_after: String,
    /// For a torch-mlir export: what the import did.
    import: Option<Import>,
}

impl Model {
    fn pattern(&self, name: &str) -> Option<&Pattern> {
        self.patterns.iter().find(|p| p.name == name)
    }
}

fn dit_opt(root: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_dit-opt"))
        .current_dir(root)
        .args(args)
        .env_remove("RUST_BACKTRACE")
        .stdin(Stdio::null())
        .output()
        .expect("dit-opt starts")
}

/// `path:line:col` -> (path, line, col) for sorting; anything else sorts by its text.
fn location_key(location: &str) -> (String, u64, u64) {
    let mut parts = location.rsplitn(3, ':');
    let col = parts.next().and_then(|c| c.parse().ok());
    let line = parts.next().and_then(|l| l.parse().ok());
    match (parts.next(), line, col) {
        (Some(path), Some(line), Some(col)) => (path.to_string(), line, col),
        _ => (location.to_string(), 0, 0),
    }
}

fn u64_field(v: &Value, key: &str, what: &str) -> u64 {
    v.get(key)
        .and_then(Value::as_u64)
        .unwrap_or_else(|| panic!("{what}: no unsigned integer \"{key}\" in {v}"))
}

fn events(v: &Value, key: &str, what: &str, root_prefix: &str) -> Vec<Event> {
    let list = v
        .get(key)
        .and_then(Value::as_array)
        .unwrap_or_else(|| panic!("{what}: no array \"{key}\" in {v}"));
    let mut out: Vec<Event> = list
        .iter()
        .map(|e| {
            let field = |k: &str| {
                e.get(k)
                    .and_then(Value::as_str)
                    .unwrap_or_else(|| panic!("{what}: no string \"{k}\" in {e}"))
                    .to_string()
            };
            let location = field("location");
            let location = location
                .strip_prefix(root_prefix)
                .map(str::to_string)
                .unwrap_or(location);
            Event {
                location,
                detail: field("detail"),
            }
        })
        .collect();
    out.sort_by(|a, b| {
        location_key(&a.location)
            .cmp(&location_key(&b.location))
            .then_with(|| a.detail.cmp(&b.detail))
    });
    out
}

/// Runs the fusion on one model, checks the output re-parses and verifies, and reads the report.
fn run_model(root: &Path, scratch: &Path, name: &str, rel: &str) -> Model {
    let fused = scratch.join(format!("{}.fused.mlir", name.replace('/', "_")));
    let fused_arg = fused.to_str().expect("utf-8 temp path");
    let imported = is_imported(rel);
    let mut args = vec![rel];
    if imported {
        args.push("--dit-convert-torch-to-dit");
    }
    if name.starts_with(QUANTIZED) {
        args.push("--dit-quantize");
    }
    args.extend(["--fuse-all", "--fusion-report=json", "-o", fused_arg]);
    let out = dit_opt(root, &args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "dit-opt {} failed ({}):\n{stderr}",
        args.join(" "),
        out.status
    );
    let json: Value = serde_json::from_str(stderr.trim()).unwrap_or_else(|e| {
        panic!("dit-opt {rel} --fuse-all: the fusion report is not JSON ({e}):\n{stderr}")
    });

    let again = dit_opt(root, &[fused_arg, "--dit-verify", "-o", "/dev/null"]);
    assert!(
        again.status.success(),
        "the output of dit-opt {rel} --fuse-all does not re-parse and verify ({}):\n{}",
        again.status,
        String::from_utf8_lossy(&again.stderr)
    );

    let what = format!("fusion report of {rel}");
    let root_prefix = format!("{}/", root.display());
    let patterns = json
        .get("patterns")
        .and_then(Value::as_object)
        .unwrap_or_else(|| panic!("{what}: no object \"patterns\" in {json}"))
        .iter()
        .map(|(pname, p)| {
            let what = format!("{what}, pattern {pname}");
            Pattern {
                name: pname.clone(),
                matched: u64_field(p, "match_times", &what),
                applied: u64_field(p, "effect_times", &what),
                skipped: events(p, "skipped", &what, &root_prefix),
            }
        })
        .collect();
    let import = imported.then(|| {
        let fused_text = fs::read_to_string(&fused).unwrap_or_default();
        import_summary(&json, &fused_text, &what)
    });
    Model {
        name: name.to_string(),
        path: rel.to_string(),
        import,
        patterns,
        kernels_before: u64_field(&json, "kernels_before", &what),
        kernels_after: u64_field(&json, "kernels_after", &what),
        ddr_before: u64_field(&json, "ddr_bytes_before", &what),
        ddr_after: u64_field(&json, "ddr_bytes_after", &what),
        lower_bound: u64_field(&json, "lower_bound_bytes", &what),
        largest_after: json
            .get("largest_kernel_after")
            .and_then(Value::as_str)
            .map(|l| l.replace(&root_prefix, ""))
            .unwrap_or_default(),
    }
}

/// The conversion's totals (its applied entries read `@f: N torch ops -> M dit ops; ...`) and
/// the names of the `dit.opaque` ops in the fused output.
fn import_summary(json: &Value, fused: &str, what: &str) -> Import {
    let mut import = Import::default();
    let applied = json
        .get("patterns")
        .and_then(|p| p.get(IMPORT_PASS))
        .and_then(|p| p.get("applied"))
        .and_then(Value::as_array)
        .unwrap_or_else(|| panic!("{what}: no {IMPORT_PASS} entry"));
    for entry in applied {
        let detail = entry.get("detail").and_then(Value::as_str).unwrap_or("");
        // The per-function totals; the pass also reports the rewrites it does on the way
        // (MoE routing -> dit.moe_init_routing + ...), which are not totals.
        if !detail.contains(" torch ops -> ") {
            continue;
        }
        let counts = detail
            .split_once(": ")
            .and_then(|(_, rest)| rest.split_once(" torch ops -> "))
            .and_then(|(n, rest)| Some((n.parse::<u64>().ok()?, rest.split_once(" dit ops")?.0)))
            .and_then(|(n, m)| Some((n, m.parse::<u64>().ok()?)))
            .unwrap_or_else(|| panic!("{what}: unexpected {IMPORT_PASS} entry {detail:?}"));
        import.torch_ops += counts.0;
        import.dit_ops += counts.1;
    }
    let mut names: std::collections::BTreeMap<String, u64> = Default::default();
    for line in fused.lines().filter(|l| l.contains("\"dit.opaque\"")) {
        let name = line
            .split("name = \"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .unwrap_or("?");
        *names.entry(name.to_string()).or_default() += 1;
    }
    import.opaque = names.into_iter().collect();
    import
        .opaque
        .sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    import
}

fn short(switch: &str) -> &str {
    switch.strip_prefix("enable_").unwrap_or(switch)
}

fn reduction(before: u64, after: u64) -> String {
    if before == 0 {
        return "–".to_string();
    }
    let pct = (before as f64 - after as f64) * 100.0 / before as f64;
    format!("{pct:.1}%")
}

fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
}

fn cell(matched: u64, applied: u64) -> String {
    if matched == 0 {
        "·".to_string()
    } else {
        format!("{applied}/{matched}")
    }
}

fn render(models: &[Model]) -> String {
    // Columns: every switch in priority order, then anything else the reports name.
    let mut columns: Vec<String> = SWITCHES.iter().map(|s| s.name.to_string()).collect();
    let extra: BTreeSet<&str> = models
        .iter()
        .flat_map(|m| m.patterns.iter().map(|p| p.name.as_str()))
        .filter(|n| !SWITCHES.iter().any(|s| s.name == *n) && *n != IMPORT_PASS)
        .collect();
    columns.extend(extra.into_iter().map(str::to_string));
    let off: Vec<String> = SWITCHES
        .iter()
        .filter(|s| !s.default)
        .map(|s| format!("`{}`", short(s.name)))
        .collect();

    let mut md = String::new();
    md.push_str("# Model × fusion coverage\n\n");
    md.push_str("<!-- Generated by tools/dit-opt/tests/coverage.rs; do not edit by hand. -->\n\n");
    md.push_str(
        "Measured, not inferred (compare seed 000 §3.3): for `examples/flux_double_block.mlir` \
         and every model graph in `test/models/`, the test runs\n\n",
    );
    md.push_str("    dit-opt MODEL --fuse-all --fusion-report=json -o FUSED\n\n");
    if models.iter().any(|m| m.import.is_some()) {
        let _ = writeln!(
            md,
            "and, for every torch-mlir export in `{IMPORTED_DIR}/` (written by tools/dit-import; \
             named `imported/<model>` below; kernels and bytes \"before\" are those of the \
             imported dit graph),\n\n    dit-opt MODEL --dit-convert-torch-to-dit --fuse-all \
             --fusion-report=json -o FUSED\n"
        );
    }
    if models.iter().any(|m| m.name.starts_with(QUANTIZED)) {
        let _ = writeln!(
            md,
            "and, for every hand-written model again with its linears W8A8-quantized first \
             (docs/quantize.md; named `{QUANTIZED}<model>` below),\n\n    dit-opt MODEL \
             --dit-quantize --fuse-all --fusion-report=json -o FUSED\n"
        );
    }
    md.push_str(
        "(every fusion with its default switch, default target), checks that `FUSED` re-parses \
         and verifies (`dit-opt FUSED --dit-verify`), and tabulates the report.\n\n",
    );
    let _ = writeln!(
        md,
        "Regenerate with `{REGENERATE}`; `cargo test` fails while this file is stale.\n"
    );
    md.push_str(
        "A cell is `applied/matched` for that fusion switch (`enable_` dropped); `·` means it \
         never matched. Kernels are counted over the whole file (all its functions), before → \
         after the fusions.",
    );
    if !off.is_empty() {
        let _ = write!(
            md,
            " Off by default, so never run here: {}.",
            off.join(", ")
        );
    }
    md.push_str("\n\n");

    // The table.
    md.push_str("| model |");
    for c in &columns {
        let _ = write!(md, " {} |", short(c));
    }
    md.push_str(" kernels | reduction |\n|:--|");
    for _ in &columns {
        md.push_str(":-:|");
    }
    md.push_str("--:|--:|\n");
    let (mut total_before, mut total_after) = (0, 0);
    for m in models {
        let _ = write!(md, "| [{}](../{}) |", m.name, m.path);
        for c in &columns {
            let (matched, applied) = m.pattern(c).map_or((0, 0), |p| (p.matched, p.applied));
            let _ = write!(md, " {} |", cell(matched, applied));
        }
        let _ = writeln!(
            md,
            " {} → {} | {} |",
            m.kernels_before,
            m.kernels_after,
            reduction(m.kernels_before, m.kernels_after)
        );
        total_before += m.kernels_before;
        total_after += m.kernels_after;
    }
    md.push_str("| **total** |");
    for c in &columns {
        let (matched, applied) = models
            .iter()
            .filter_map(|m| m.pattern(c))
            .fold((0, 0), |(m, a), p| (m + p.matched, a + p.applied));
        let _ = write!(md, " {} |", cell(matched, applied));
    }
    let _ = writeln!(
        md,
        " {total_before} → {total_after} | {} |",
        reduction(total_before, total_after)
    );

    // The cost model: DDR traffic against the lower bound.
    md.push_str("\n## DDR traffic\n\n");
    md.push_str(
        "From the cost model (passes/src/analysis/cost.rs): every kernel reads its operands and writes its \
         results through DDR; views cost nothing; the lower bound reads every function argument \
         (inputs and weights) once and writes every result once; dynamic dims count as 1.\n\n",
    );
    md.push_str("| model | DDR before | DDR after | lower bound | × bound before → after | largest kernel after |\n|:--|--:|--:|--:|--:|:--|\n");
    let ratio = |b: u64, bound: u64| {
        if bound == 0 {
            0.0
        } else {
            b as f64 / bound as f64
        }
    };
    for m in models {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {:.2} → {:.2} | {} |",
            m.name,
            mib(m.ddr_before),
            mib(m.ddr_after),
            mib(m.lower_bound),
            ratio(m.ddr_before, m.lower_bound),
            ratio(m.ddr_after, m.lower_bound),
            m.largest_after
        );
    }

    // The imported models: what the conversion made of them.
    let imported: Vec<&Model> = models.iter().filter(|m| m.import.is_some()).collect();
    if !imported.is_empty() {
        md.push_str("\n## Imported from PyTorch\n\n");
        md.push_str(
            "torch-mlir exports converted by `dit-convert-torch-to-dit`: the torch ops with tensor \
             results (constants, lists and shape arithmetic not counted) and the dit ops they became; \
             the aten ops no dit op models stay `dit.opaque` (one kernel each), listed with how many \
             are left after `--fuse-all`.\n\n",
        );
        md.push_str(
            "| model | torch ops → dit ops | kernels | dit.opaque left |\n|:--|--:|--:|:--|\n",
        );
        for m in imported {
            let Some(i) = &m.import else { continue };
            let left: u64 = i.opaque.iter().map(|(_, n)| n).sum();
            let names: Vec<String> = i
                .opaque
                .iter()
                .map(|(name, n)| format!("`{name}` × {n}"))
                .collect();
            let _ = writeln!(
                md,
                "| [{}](../{}) | {} → {} | {} → {} | {} |",
                m.name,
                m.path,
                i.torch_ops,
                i.dit_ops,
                m.kernels_before,
                m.kernels_after,
                if left == 0 {
                    "none".to_string()
                } else {
                    format!("{left}: {}", names.join(", "))
                }
            );
        }
    }

    // The skips, per model.
    md.push_str("\n## Skipped matches\n\n");
    md.push_str("Matches a fusion found but did not rewrite, with the reason it gave.\n");
    let mut clean = Vec::new();
    for m in models {
        let mut skips: Vec<(&str, &Event)> = m
            .patterns
            .iter()
            .filter(|p| p.name != IMPORT_PASS)
            .flat_map(|p| p.skipped.iter().map(move |e| (p.name.as_str(), e)))
            .collect();
        if skips.is_empty() {
            clean.push(format!("`{}`", m.name));
            continue;
        }
        skips.sort_by(|a, b| {
            location_key(&a.1.location)
                .cmp(&location_key(&b.1.location))
                .then_with(|| a.0.cmp(b.0))
        });
        let _ = writeln!(md, "\n### {}\n", m.name);
        for (pattern, e) in skips {
            let _ = writeln!(md, "- `{}` ({}): {}", e.location, short(pattern), e.detail);
        }
    }
    if !clean.is_empty() {
        let _ = writeln!(md, "\nNo skips: {}.", clean.join(", "));
    }
    md
}

fn first_difference(a: &str, b: &str) -> String {
    let (mut al, mut bl) = (a.lines(), b.lines());
    let mut n = 1;
    loop {
        match (al.next(), bl.next()) {
            (Some(x), Some(y)) if x == y => n += 1,
            (None, None) => return "only in line endings".to_string(),
            (x, y) => {
                return format!(
                    "first difference at line {n}:\n  committed: {}\n  generated: {}",
                    x.unwrap_or("<end of file>"),
                    y.unwrap_or("<end of file>")
                )
            }
        }
    }
}

#[test]
fn docs_coverage_md_is_not_stale() {
    let root = repo_root();
    let scratch = tempfile::tempdir().expect("a temporary directory");
    let models: Vec<Model> = models(&root)
        .iter()
        .map(|(name, rel)| run_model(&root, scratch.path(), name, rel))
        .collect();
    assert!(!models.is_empty(), "no model graphs found");
    let generated = render(&models) + &families::render(&root, scratch.path(), &models);
    let doc = root.join(DOC);

    if std::env::var(UPDATE_VAR).is_ok_and(|v| v == "1") {
        fs::write(&doc, &generated).unwrap_or_else(|e| panic!("cannot write {DOC}: {e}"));
        return;
    }
    let committed = fs::read_to_string(&doc).unwrap_or_default();
    assert!(
        committed == generated,
        "{DOC} is stale (the fusion coverage changed, or the file was edited by hand); \
         regenerate it with `{REGENERATE}` and review the diff.\n{}",
        first_difference(&committed, &generated)
    );
}
