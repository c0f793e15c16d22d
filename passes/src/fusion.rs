//! The fusion registry: one switch per fusion, named and defaulted as in seed 000 §3.7, plus the
//! five baseline raisings. `--fuse=a,b`, `--no-fuse=x` and `--fusion-config=FILE.toml` (same
//! keys) all resolve to a [`FusionSwitches`] here; unknown names are errors.

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

/// Which fusions are on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FusionSwitches {
    on: BTreeMap<&'static str, bool>,
}

impl Default for FusionSwitches {
    fn default() -> Self {
        Self {
            on: SWITCHES.iter().map(|s| (s.name, s.default)).collect(),
        }
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
        }
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

    /// Applies a TOML config (`enable_gelu_mul = false`, …); unknown keys and non-bool values
    /// are errors, located as `line:column: message`.
    pub fn apply_toml(&mut self, text: &str) -> Result<(), String> {
        let at = |offset: usize| {
            let before = &text[..offset.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let column = before.len() - before.rfind('\n').map_or(0, |p| p + 1) + 1;
            format!("{line}:{column}")
        };
        let key_at = |key: &str| {
            let offset = text
                .lines()
                .scan(0, |pos, l| {
                    let start = *pos;
                    *pos += l.len() + 1;
                    Some((start, l))
                })
                .find(|(_, l)| l.trim_start().starts_with(key))
                .map_or(0, |(start, l)| start + l.len() - l.trim_start().len());
            at(offset)
        };
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
            format!("{}: {}", at(e.span().map_or(0, |s| s.start)), e.message())
        })?;
        for (key, value) in table {
            let on = value
                .as_bool()
                .ok_or_else(|| format!("{}: '{key}' must be true or false", key_at(&key)))?;
            let name = known(&key).map_err(|e| format!("{}: {e}", key_at(&key)))?;
            self.on.insert(name, on);
        }
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
}
