//! The fusion registry: one switch per fusion, named and defaulted as in seed 000 §3.7, plus the
//! five baseline raisings. `--fuse=a,b`, `--no-fuse=x` and `--fusion-config=FILE.toml` (same
//! keys) all resolve to a [`FusionSwitches`] here; unknown names are errors. The config file also
//! carries dit-auto-fuse's options in an `[auto_fuse]` table (seed 004's `aggressive_level`,
//! `exclude_ops`, blacklist, and `min_benefit`), so that one file holds every switch and option,
//! as CANN's fusion_switch.cfg does.

use std::collections::BTreeMap;

/// One fusion switch.
#[derive(Clone, Copy, Debug)]
pub struct FusionSwitch {
    /// The key, e.g. `enable_gelu_mul`.
    pub name: &'static str,
    /// On unless turned off (seed 000 §3.7 table).
    pub default: bool,
    /// What it fuses, into which kernel.
    pub summary: &'static str,
}

/// Every switch, in priority order (a higher fusion is tried first where they compete).
pub static SWITCHES: &[FusionSwitch] = &[
    FusionSwitch {
        name: "enable_quant_mm_gelu",
        default: true,
        summary: "quantized MatMul + GELU -> dit.quant_matmul_gelu (FusedQuantMatmul, P0)",
    },
    FusionSwitch {
        name: "enable_gmm_swiglu",
        default: true,
        summary: "grouped MatMul + SwiGLU -> dit.grouped_matmul_swiglu_quant (P1)",
    },
    FusionSwitch {
        name: "enable_moe_gating",
        default: true,
        summary: "softmax(x, -1) -> topk -> dit.moe_gating_topk_softmax (MoeGatingTopKSoftmax, MoE router)",
    },
    FusionSwitch {
        name: "enable_linear_bias",
        default: true,
        summary: "matmul + add(bias over rows) -> dit.linear (seed 000 path A; feeds every Linear fusion)",
    },
    FusionSwitch {
        name: "enable_linear_activation",
        default: true,
        summary: "Linear + activation -> dit.fused_matmul (FusedMatmul, Ascend 950 only, P1)",
    },
    FusionSwitch {
        name: "enable_norm_rope_cache",
        default: false,
        summary: "RMSNorm + RoPE + cache -> dit.kv_rms_norm_rope_cache (P2, experimental)",
    },
    FusionSwitch {
        name: "enable_gelu_mul",
        default: true,
        summary: "GELU(first half) * second half -> dit.gelu_mul (P2)",
    },
    FusionSwitch {
        name: "enable_swiglu",
        default: true,
        summary:
            "silu(first half) * second half -> dit.swiglu; two-input form -> dit.silu_mul (P2)",
    },
    FusionSwitch {
        name: "enable_gelu_erf",
        default: true,
        summary: "decomposed erf/tanh GELU -> dit.gelu (P2)",
    },
    FusionSwitch {
        name: "enable_rms_norm",
        default: true,
        summary: "decomposed RMSNorm -> dit.rms_norm (baseline)",
    },
    FusionSwitch {
        name: "enable_rope",
        default: true,
        summary: "decomposed rotary embedding -> dit.rope (baseline)",
    },
    FusionSwitch {
        name: "enable_adalayernorm",
        default: true,
        summary: "layer_norm(x) * (1 + scale) + shift -> dit.ada_layer_norm (baseline)",
    },
    FusionSwitch {
        name: "enable_fast_gelu",
        default: true,
        summary: "GELU(tanh) -> dit.fast_gelu (baseline; FastGelu's formula differs)",
    },
    FusionSwitch {
        name: "enable_mul_add",
        default: true,
        summary: "x * c + y with scalar constant c -> dit.muls_add (baseline)",
    },
];

/// Which fusions are on, and the dit-auto-fuse options a config file set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FusionSwitches {
    on: BTreeMap<&'static str, bool>,
    /// dit-auto-fuse options from `[auto_fuse]`, as pipeline options (`min-benefit`, "0.3").
    auto_fuse: Vec<(String, String)>,
}

impl Default for FusionSwitches {
    fn default() -> Self {
        Self {
            on: SWITCHES.iter().map(|s| (s.name, s.default)).collect(),
            auto_fuse: Vec::new(),
        }
    }
}

/// The keys of a config's `[auto_fuse]` table, with the dit-auto-fuse option each sets.
/// `fusion_blacklist` is seed 004's name for the blacklist.
const AUTO_FUSE_KEYS: &[(&str, &str)] = &[
    ("aggressive_level", "aggressive-level"),
    ("min_benefit", "min-benefit"),
    ("blacklist", "blacklist"),
    ("fusion_blacklist", "blacklist"),
    ("exclude_ops", "exclude-ops"),
];

/// The dit-auto-fuse option a config key sets (`min_benefit` or `min-benefit`).
fn auto_fuse_option(key: &str) -> Option<&'static str> {
    let key = key.replace('-', "_");
    AUTO_FUSE_KEYS
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, name)| *name)
}

/// The name of the config table that holds dit-auto-fuse's options.
pub const AUTO_FUSE_TABLE: &str = "auto_fuse";

/// `line:column` (1-based) of a byte offset in `text`.
fn line_col(text: &str, offset: usize) -> String {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.len() - before.rfind('\n').map_or(0, |p| p + 1) + 1;
    format!("{line}:{column}")
}

/// A config value as a pipeline option value: integers and floats as written, strings as they
/// are, an array of strings joined by commas (each entry must then hold no comma).
fn option_value(item: &toml_edit::Item) -> Result<String, String> {
    let value = item
        .as_value()
        .ok_or("must be a value, not a table".to_string())?;
    match value {
        toml_edit::Value::Integer(i) => Ok(i.value().to_string()),
        toml_edit::Value::Float(f) => Ok(f.value().to_string()),
        toml_edit::Value::String(s) => Ok(s.value().clone()),
        toml_edit::Value::Array(a) => {
            let mut entries = Vec::new();
            for v in a.iter() {
                let s = v
                    .as_str()
                    .ok_or("must be an array of strings".to_string())?;
                if s.is_empty() || s.contains(',') {
                    return Err(format!(
                        "entry '{s}' must be one non-empty name (no commas)"
                    ));
                }
                entries.push(s.to_string());
            }
            Ok(entries.join(","))
        }
        _ => Err("must be a number, a string or an array of strings".to_string()),
    }
}

fn known(name: &str) -> Result<&'static str, String> {
    SWITCHES
        .iter()
        .find(|s| s.name == name)
        .map(|s| s.name)
        .ok_or_else(|| {
            let names: Vec<_> = SWITCHES.iter().map(|s| s.name).collect();
            format!("unknown fusion '{name}' (known: {})", names.join(", "))
        })
}

/// A `--fuse`/`--no-fuse` entry may omit the `enable_` prefix.
fn normalize(name: &str) -> String {
    let name = name.trim();
    if name.starts_with("enable_") {
        name.to_string()
    } else {
        format!("enable_{name}")
    }
}

impl FusionSwitches {
    /// Every switch off.
    pub fn none() -> Self {
        Self {
            on: SWITCHES.iter().map(|s| (s.name, false)).collect(),
            auto_fuse: Vec::new(),
        }
    }

    /// The dit-auto-fuse options a config file set (pipeline option names and values, in
    /// file order); the pass takes them unless its own options set the same name.
    pub fn auto_fuse_options(&self) -> &[(String, String)] {
        &self.auto_fuse
    }

    /// Whether `name` is on (unknown names are off).
    pub fn is_on(&self, name: &str) -> bool {
        self.on.get(name).copied().unwrap_or(false)
    }

    /// Sets a switch by name.
    pub fn set(&mut self, name: &str, on: bool) -> Result<(), String> {
        let key = known(&normalize(name))?;
        self.on.insert(key, on);
        Ok(())
    }

    /// `--fuse=a,b`: exactly these switches on.
    pub fn only(list: &str) -> Result<Self, String> {
        let mut s = Self::none();
        for name in list.split(',').filter(|n| !n.trim().is_empty()) {
            s.set(name, true)?;
        }
        Ok(s)
    }

    /// `--no-fuse=x,y`: these switches off.
    pub fn disable(&mut self, list: &str) -> Result<(), String> {
        for name in list.split(',').filter(|n| !n.trim().is_empty()) {
            self.set(name, false)?;
        }
        Ok(())
    }

    /// Applies a TOML config: switches as top-level keys (`enable_gelu_mul = false`, …) and
    /// dit-auto-fuse's options in an `[auto_fuse]` table (`min_benefit = 0.3`, `blacklist =
    /// ["dit.add:dit.exp"]`, …). Unknown keys and bad values are errors located at their key,
    /// as `line:column: message`; nothing is applied from a file with an error.
    pub fn apply_toml(&mut self, text: &str) -> Result<(), String> {
        let document = toml_edit::ImDocument::parse(text).map_err(|e| {
            format!(
                "{}: {}",
                line_col(text, e.span().map_or(0, |s| s.start)),
                e.message().trim_end()
            )
        })?;
        let root = document.as_table();
        let at = |table: &toml_edit::Table, key: &str| {
            let offset = table.key(key).and_then(|k| k.span()).map_or(0, |s| s.start);
            line_col(text, offset)
        };
        let mut next = self.clone();
        // One dit-auto-fuse option, from the [auto_fuse] table or written flat.
        let mut auto_fuse = |table: &toml_edit::Table, option: &str, item: &toml_edit::Item| {
            let located = |e: String| format!("{}: {e}", at(table, option));
            let name = auto_fuse_option(option).ok_or_else(|| {
                let known: Vec<_> = AUTO_FUSE_KEYS.iter().map(|(k, _)| *k).collect();
                located(format!(
                    "unknown [{AUTO_FUSE_TABLE}] option '{option}' (known: {})",
                    known.join(", ")
                ))
            })?;
            let value = option_value(item).map_err(|e| located(format!("'{option}' {e}")))?;
            // The pass's own parser judges the value, so that the file and a pipeline option
            // accept and reject the same values.
            crate::transforms::dit_auto_fuse::AutoFuse::from_options(&[(
                name.to_string(),
                value.clone(),
            )])
            .map_err(|e| located(format!("'{option}': {e}")))?;
            next.auto_fuse.retain(|(n, _)| n != name);
            next.auto_fuse.push((name.to_string(), value));
            Ok::<(), String>(())
        };
        for (key, item) in root.iter() {
            if key == AUTO_FUSE_TABLE {
                let table = item.as_table().ok_or_else(|| {
                    format!(
                        "{}: '{key}' must be a table of dit-auto-fuse options",
                        at(root, key)
                    )
                })?;
                for (option, value) in table.iter() {
                    auto_fuse(table, option, value)?;
                }
            } else if auto_fuse_option(key).is_some() {
                auto_fuse(root, key, item)?;
            } else {
                let name = known(key).map_err(|e| {
                    format!(
                        "{}: {e}; dit-auto-fuse options are {}",
                        at(root, key),
                        AUTO_FUSE_KEYS
                            .iter()
                            .map(|(k, _)| *k)
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                })?;
                let on = item
                    .as_bool()
                    .ok_or_else(|| format!("{}: '{key}' must be true or false", at(root, key)))?;
                next.on.insert(name, on);
            }
        }
        *self = next;
        Ok(())
    }

    /// The switches that are on.
    pub fn enabled(&self) -> Vec<&'static str> {
        self.on
            .iter()
            .filter(|(_, on)| **on)
            .map(|(n, _)| *n)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_seed_000() {
        let s = FusionSwitches::default();
        assert!(s.is_on("enable_quant_mm_gelu") && s.is_on("enable_gelu_mul"));
        assert!(!s.is_on("enable_norm_rope_cache"));
    }

    #[test]
    fn fuse_no_fuse_and_config() {
        let s = FusionSwitches::only("gelu_mul,enable_swiglu").unwrap();
        assert_eq!(s.enabled(), ["enable_gelu_mul", "enable_swiglu"]);
        let mut d = FusionSwitches::default();
        d.disable("fast_gelu").unwrap();
        assert!(!d.is_on("enable_fast_gelu"));
        d.apply_toml("enable_norm_rope_cache = true\nenable_rope = false\n")
            .unwrap();
        assert!(d.is_on("enable_norm_rope_cache") && !d.is_on("enable_rope"));
        assert!(d
            .apply_toml("enable_warp_speed = true")
            .unwrap_err()
            .contains("unknown fusion"));
        assert!(d
            .apply_toml("enable_rope = 1")
            .unwrap_err()
            .contains("true or false"));
        assert!(FusionSwitches::only("nope").is_err());
    }

    #[test]
    fn config_carries_auto_fuse_options() {
        let mut s = FusionSwitches::default();
        s.apply_toml(
            "enable_rope = false\naggressive_level = 1\n[auto_fuse]\nmin_benefit = 0.3\nblacklist = [\"dit.add:dit.exp\", \"dit.exp:dit.mul\"]\nexclude-ops = \"dit.cast\"\n",
        )
        .unwrap();
        assert!(!s.is_on("enable_rope"));
        let options: Vec<(&str, &str)> = s
            .auto_fuse_options()
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert_eq!(
            options,
            [
                ("aggressive-level", "1"),
                ("min-benefit", "0.3"),
                ("blacklist", "dit.add:dit.exp,dit.exp:dit.mul"),
                ("exclude-ops", "dit.cast"),
            ]
        );
        // A later file replaces an option, it does not add to it.
        s.apply_toml("[auto_fuse]\nmin_benefit = 1\n").unwrap();
        assert_eq!(s.auto_fuse_options()[3], ("min-benefit".into(), "1".into()));
    }

    #[test]
    fn config_errors_are_located_at_their_key_and_apply_nothing() {
        let mut s = FusionSwitches::default();
        let e = s
            .apply_toml("enable_rope = false\n[auto_fuse]\n  min_benfit = 0.3\n")
            .unwrap_err();
        assert!(
            e.starts_with("3:3: unknown [auto_fuse] option 'min_benfit'"),
            "{e}"
        );
        assert!(
            s.is_on("enable_rope"),
            "a file with an error applies nothing"
        );
        let e = s
            .apply_toml("[auto_fuse]\naggressive_level = 3\n")
            .unwrap_err();
        assert!(
            e.starts_with("2:1: 'aggressive_level': aggressive-level must be 0, 1 or 2"),
            "{e}"
        );
        let e = s
            .apply_toml("[auto_fuse]\nmin_benefit = 1.5\n")
            .unwrap_err();
        assert!(e.contains("min-benefit must be a number in [0, 1]"), "{e}");
        let e = s
            .apply_toml("[auto_fuse]\nblacklist = [\"dit.add\"]\n")
            .unwrap_err();
        assert!(e.contains("must be producer:consumer"), "{e}");
        let e = s
            .apply_toml("[auto_fuse]\nexclude_ops = [1]\n")
            .unwrap_err();
        assert!(e.contains("must be an array of strings"), "{e}");
        let e = s.apply_toml("auto_fuse = 2\n").unwrap_err();
        assert!(e.starts_with("1:1: 'auto_fuse' must be a table"), "{e}");
        let e = s.apply_toml("x = [\n").unwrap_err();
        assert!(e.starts_with("1:") || e.starts_with("2:"), "{e}");
        let e = s.apply_toml("\n  min_benefits = 0.5\n").unwrap_err();
        assert!(e.starts_with("2:3: unknown fusion 'min_benefits'"), "{e}");
    }
}
