//! The per-family section of docs/coverage.md: for every DiT family of
//! test/models/imported/families.json, the fusions seed 000 §3.3 / §8 predicts next to the ones
//! that fired on the family's imported blocks, measured twice: the bf16 graph as imported, and
//! with its linears W8A8-quantized (`--dit-quantize`), since the seed's P0 prediction
//! (npu_quant_matmul_gelu) only exists for quantized linears. The prediction and the `why`
//! text are data (families.json, written from the seed and the diffusers code); everything the
//! table says was measured comes from the fusion reports, so a changed fusion changes the table.

use super::{run_model, short, Model, IMPORTED_DIR, QUANTIZED};
use dit_passes::fusion::SWITCHES;
use serde_json::Value;
use std::{fmt::Write as _, fs, path::Path};

/// The family list, next to the imported graphs it names.
const FAMILIES: &str = "test/models/imported/families.json";

/// One family of families.json.
struct Family {
    family: String,
    diffusers: String,
    seed_row: String,
    predicted: Vec<String>,
    models: Vec<String>,
    why: String,
    /// Set where torch.export (or the import) fails on the family's code: the exact error.
    export_error: Option<String>,
}

fn string(v: &Value, key: &str, what: &str) -> String {
    v.get(key)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("{FAMILIES}: {what}: no string \"{key}\""))
        .to_string()
}

fn strings(v: &Value, key: &str, what: &str) -> Vec<String> {
    v.get(key)
        .and_then(Value::as_array)
        .unwrap_or_else(|| panic!("{FAMILIES}: {what}: no array \"{key}\""))
        .iter()
        .map(|s| {
            s.as_str()
                .unwrap_or_else(|| panic!("{FAMILIES}: {what}: \"{key}\" holds a non-string {s}"))
                .to_string()
        })
        .collect()
}

/// The families, and the seed's families that diffusers does not implement (`not_in_diffusers`).
fn load(root: &Path) -> (Vec<Family>, Vec<String>) {
    let Ok(text) = fs::read_to_string(root.join(FAMILIES)) else {
        return (Vec::new(), Vec::new());
    };
    let json: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{FAMILIES} is not JSON: {e}"));
    let list = json
        .get("families")
        .and_then(Value::as_array)
        .unwrap_or_else(|| panic!("{FAMILIES}: no array \"families\""));
    let missing = strings(&json, "not_in_diffusers", "the top level");
    let families = list
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let what = format!("family {i}");
            let family = Family {
                family: string(f, "family", &what),
                diffusers: string(f, "diffusers", &what),
                seed_row: string(f, "seed_row", &what),
                predicted: strings(f, "predicted", &what),
                models: strings(f, "models", &what),
                why: string(f, "why", &what),
                export_error: f
                    .get("export_error")
                    .and_then(Value::as_str)
                    .map(str::to_string),
            };
            // A misspelt switch would read as "never fired": refuse it instead.
            for p in &family.predicted {
                assert!(
                    SWITCHES.iter().any(|s| short(s.name) == p),
                    "{FAMILIES}: {}: \"{p}\" is not a fusion switch (passes/src/fusion.rs SWITCHES)",
                    family.family
                );
            }
            assert!(
                family.export_error.is_some() == family.models.is_empty(),
                "{FAMILIES}: {}: give either imported models or an export_error",
                family.family
            );
            family
        })
        .collect();
    (families, missing)
}

/// (matched, applied) of every fusion switch, summed over the given fused models.
fn totals(models: &[&Model]) -> Vec<(&'static str, u64, u64)> {
    SWITCHES
        .iter()
        .map(|s| {
            let (m, a) = models
                .iter()
                .filter_map(|model| model.pattern(s.name))
                .fold((0, 0), |(m, a), p| (m + p.matched, a + p.applied));
            (short(s.name), m, a)
        })
        .collect()
}

/// `rope 2/2, swiglu 1/2`: every switch that matched, applied/matched.
fn fired(t: &[(&str, u64, u64)]) -> String {
    let cells: Vec<String> = t
        .iter()
        .filter(|(_, m, _)| *m > 0)
        .map(|(n, m, a)| format!("{n} {a}/{m}"))
        .collect();
    if cells.is_empty() {
        "none".to_string()
    } else {
        cells.join(", ")
    }
}

/// Renders the section; runs the W8A8 variant of every imported model a family names.
pub fn render(root: &Path, scratch: &Path, models: &[Model]) -> String {
    let (families, missing) = load(root);
    if families.is_empty() {
        return String::new();
    }
    let mut md = String::new();
    md.push_str("\n## DiT families: seed 000 §3.3 prediction vs measured\n\n");
    let _ = writeln!(
        md,
        "For every family of [`{FAMILIES}`](../{FAMILIES}): the fusions seed 000 predicts for it \
         (§3.3 coverage matrix, §8.4 RMSNorm→RoPE, §8.7 erf GELU; as fusion switches), and what \
         fired on its imported blocks (summed over them; `applied/matched`), as imported (bf16) \
         and with the linears W8A8-quantized first (`--dit-convert-torch-to-dit --dit-quantize \
         --fuse-all`). A predicted switch counts as fired if it applied in either run. The \
         prediction and the last column are written from the seed and the diffusers 0.42.1 code; \
         the rest is measured. {} families, {} imported.\n",
        families.len(),
        families.iter().filter(|f| f.export_error.is_none()).count()
    );
    md.push_str(
        "| family | imported blocks | seed 000 predicts | fired (bf16) | fired (W8A8) | predicted: fired ✓ / not ✗ | where they differ, why |\n\
         |:--|:--|:--|:--|:--|:--|:--|\n",
    );
    for f in &families {
        let title = format!("{} (`{}`)", f.family, f.diffusers);
        if let Some(err) = &f.export_error {
            let _ = writeln!(
                md,
                "| {title} | torch.export fails: `{}` | {} | – | – | – | {} |",
                err.replace('|', "\\|"),
                f.seed_row,
                f.why
            );
            continue;
        }
        let plain: Vec<&Model> = f
            .models
            .iter()
            .map(|stem| {
                let name = format!("imported/{stem}");
                models.iter().find(|m| m.name == name).unwrap_or_else(|| {
                    panic!("{FAMILIES}: {}: no {IMPORTED_DIR}/{stem}.mlir", f.family)
                })
            })
            .collect();
        let quantized: Vec<Model> = plain
            .iter()
            .map(|m| run_model(root, scratch, &format!("{QUANTIZED}{}", m.name), &m.path))
            .collect();
        let quantized: Vec<&Model> = quantized.iter().collect();
        let (tp, tq) = (totals(&plain), totals(&quantized));
        let verdicts: Vec<String> = f
            .predicted
            .iter()
            .map(|p| {
                let find = |t: &[(&str, u64, u64)]| {
                    t.iter()
                        .find(|(n, _, _)| n == p)
                        .map(|(_, m, a)| (*m, *a))
                        .unwrap_or((0, 0))
                };
                let ((mp, ap), (mq, aq)) = (find(&tp), find(&tq));
                let off = SWITCHES.iter().any(|s| short(s.name) == p && !s.default);
                if ap + aq > 0 {
                    format!("✓ {p}")
                } else if off {
                    format!("✗ {p} (off by default)")
                } else if mp + mq > 0 {
                    format!("✗ {p} (matched, skipped)")
                } else {
                    format!("✗ {p} (no match)")
                }
            })
            .collect();
        let links: Vec<String> = plain
            .iter()
            .map(|m| {
                let stem = m.name.trim_start_matches("imported/");
                format!("[{stem}](../{})", m.path)
            })
            .collect();
        let _ = writeln!(
            md,
            "| {title} | {} | {} | {} | {} | {} | {} |",
            links.join(", "),
            f.seed_row,
            fired(&tp),
            fired(&tq),
            verdicts.join(", "),
            f.why
        );
    }
    if !missing.is_empty() {
        let _ = writeln!(
            md,
            "\nNot in the table: seed 000 §3.3 families that diffusers 0.42.1 does not implement, so \
             there is no diffusers block to import: {}.",
            missing.join("; ")
        );
    }
    md
}
