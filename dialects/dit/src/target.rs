//! The target table of DIALECT.md: every hardware fact a pass may depend on, in one place.
//! Passes ask a `Target` for a capability; they never branch on a target's name.

/// One Ascend product family and the capabilities the passes care about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The `--target=` name.
    pub name: &'static str,
    /// The products it stands for.
    pub products: &'static str,
    /// The built-in target whose chip this is (its own name for the built-ins, the base of a
    /// target file): the name the kernel contracts (dit_runtime::contracts) gate kernels by.
    pub chip: &'static str,
    /// Unified (vector) buffer capacity in bytes.
    pub ub_bytes: u64,
    /// L1 buffer capacity in bytes.
    pub l1_bytes: u64,
    /// L0A / L0B buffer capacity in bytes (each).
    pub l0ab_bytes: u64,
    /// L0C buffer capacity in bytes.
    pub l0c_bytes: u64,
    /// The Cube unit can move bf16 data L1→BT, which lifts QuantBatchMatmulV3's 65535 limit
    /// on the outer dimension of a transposed input (seed 001 §3.4).
    pub bf16_l1_to_bt: bool,
    /// The Cube unit takes mixed int8×int4 (s8s4) input; then transpose folding through a
    /// bitcast is not done (seed 001 §3.2). Not stated for any product in the sources: the
    /// A2/A3 entries assume no, as CANN's platform tables give s8s8 only there.
    pub mmad_s8s4: bool,
    /// aclnnFusedMatmul (Linear + activation) exists.
    pub fused_matmul: bool,
    /// aclnnFusedQuantMatmul (quantized MatMul + GELU) exists.
    pub fused_quant_matmul: bool,
    /// aclnnKvRmsNormRopeCache exists. The current page (cann/ops-transformer
    /// posembedding/kv_rms_norm_rope_cache/docs/aclnnKvRmsNormRopeCache.md, 产品支持情况, as
    /// mirrored in mirror-cann/ops-transformer 2026-07) lists Ascend 950PR/950DT, Atlas A3 and
    /// Atlas A2 as supported, and torch_npu's npu_kv_rmsnorm_rope_cache calls it on A2/A3;
    /// pages of 2025 (8.3.RC1, repo-mirror-test 2025-12) still listed A2/A3 as 不支持. The
    /// kernel table's Targets rule `kv_rms_norm_rope_cache.targets` says the same.
    pub kv_rms_norm_rope_cache: bool,
    /// The graph compiler's version number, as CANN's `aclsysGetVersionNum("ge-compiler")`
    /// gives it. Passes that mirror a GE fusion rule gated by version check it (seed 001 §3.5:
    /// the QuantBatchMatmulV3 transpose rules need >= [`GE_TRANSPOSE_FUSION_MIN_VERSION`]).
    pub ge_compiler_version: u64,
}

/// The ge-compiler version the QuantBatchMatmulV3 transpose rules need (seed 001 §3.5:
/// `TAEGET_VERSION 90100000` in quant_batch_matmul_v3_transpose_fusion_pass.cpp).
pub const GE_TRANSPOSE_FUSION_MIN_VERSION: u64 = 90_100_000;

/// The ge-compiler version a built-in target assumes: a current CANN, new enough for every rule
/// dit mirrors. A target file sets another one (`ge_compiler_version = 90000000`).
pub const DEFAULT_GE_COMPILER_VERSION: u64 = GE_TRANSPOSE_FUSION_MIN_VERSION;

const KIB: u64 = 1024;

/// Every known target; the first is the default.
pub const TARGETS: &[Target] = &[
    Target {
        name: "ascend910b",
        chip: "ascend910b",
        products: "Atlas A2 training/inference series",
        ub_bytes: 192 * KIB,
        l1_bytes: 512 * KIB,
        l0ab_bytes: 64 * KIB,
        l0c_bytes: 128 * KIB,
        bf16_l1_to_bt: false,
        mmad_s8s4: false,
        fused_matmul: false,
        fused_quant_matmul: true,
        kv_rms_norm_rope_cache: true,
        ge_compiler_version: DEFAULT_GE_COMPILER_VERSION,
    },
    Target {
        name: "ascend910_93",
        chip: "ascend910_93",
        products: "Atlas A3 training/inference series",
        ub_bytes: 192 * KIB,
        l1_bytes: 512 * KIB,
        l0ab_bytes: 64 * KIB,
        l0c_bytes: 128 * KIB,
        bf16_l1_to_bt: false,
        mmad_s8s4: false,
        fused_matmul: false,
        fused_quant_matmul: true,
        kv_rms_norm_rope_cache: true,
        ge_compiler_version: DEFAULT_GE_COMPILER_VERSION,
    },
    Target {
        name: "ascend950",
        chip: "ascend950",
        products: "Ascend 950PR / 950DT",
        // Buffer sizes are not given in the sources for 950; the A2 sizes are the safe bound.
        ub_bytes: 192 * KIB,
        l1_bytes: 512 * KIB,
        l0ab_bytes: 64 * KIB,
        l0c_bytes: 128 * KIB,
        bf16_l1_to_bt: true,
        mmad_s8s4: false,
        fused_matmul: true,
        fused_quant_matmul: false,
        kv_rms_norm_rope_cache: true,
        ge_compiler_version: DEFAULT_GE_COMPILER_VERSION,
    },
];

impl Target {
    /// The default target, `ascend910b`.
    pub fn default_target() -> &'static Target {
        &TARGETS[0]
    }

    /// Looks a target up by its `--target=` name.
    pub fn lookup(name: &str) -> Result<&'static Target, String> {
        TARGETS.iter().find(|t| t.name == name).ok_or_else(|| {
            let known: Vec<_> = TARGETS.iter().map(|t| t.name).collect();
            format!("unknown target '{name}' (known: {})", known.join(", "))
        })
    }
}

/// A target described in a TOML file: a known target to start from, and the fields that
/// differ. Unknown keys are errors.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct TargetFile {
    name: toml::Spanned<String>,
    base: String,
    products: Option<String>,
    ub_bytes: Option<u64>,
    l1_bytes: Option<u64>,
    l0ab_bytes: Option<u64>,
    l0c_bytes: Option<u64>,
    bf16_l1_to_bt: Option<bool>,
    mmad_s8s4: Option<bool>,
    fused_matmul: Option<bool>,
    fused_quant_matmul: Option<bool>,
    kv_rms_norm_rope_cache: Option<bool>,
    ge_compiler_version: Option<u64>,
}

impl Target {
    /// `--target=` resolution: a known name, or the path of a `.toml` target file.
    pub fn resolve(name_or_path: &str) -> Result<&'static Target, String> {
        if name_or_path.ends_with(".toml") {
            Self::load(std::path::Path::new(name_or_path))
        } else {
            Self::lookup(name_or_path)
        }
    }

    /// Reads a target file. The target lives for the rest of the process (a tool reads at
    /// most one), which lets every pass hold `&'static Target` as for the built-in ones.
    pub fn load(path: &std::path::Path) -> Result<&'static Target, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let file: TargetFile =
            toml::from_str(&text).map_err(|e| format!("{}: {}", path.display(), e.message()))?;
        let mut target = Self::lookup(&file.base)?.clone();
        let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
        let name = file.name.get_ref();
        // The name reaches generated C, CMake and JSON (--emit=ascendc): a quote or a line
        // break in it would inject code, so it is held to a plain charset.
        let safe = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.');
        if name.is_empty() || !name.bytes().all(safe) {
            let before = &text[..file.name.span().start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let column = before.len() - before.rfind('\n').map_or(0, |p| p + 1) + 1;
            return Err(format!(
                "{}:{line}:{column}: target name {name:?} may only hold letters, digits, '_', '-' and '.'",
                path.display()
            ));
        }
        target.name = leak(file.name.into_inner());
        if let Some(p) = file.products {
            target.products = leak(p);
        }
        let set = |slot: &mut u64, v: Option<u64>| *slot = v.unwrap_or(*slot);
        set(&mut target.ub_bytes, file.ub_bytes);
        set(&mut target.l1_bytes, file.l1_bytes);
        set(&mut target.l0ab_bytes, file.l0ab_bytes);
        set(&mut target.l0c_bytes, file.l0c_bytes);
        set(&mut target.ge_compiler_version, file.ge_compiler_version);
        let flag = |slot: &mut bool, v: Option<bool>| *slot = v.unwrap_or(*slot);
        flag(&mut target.bf16_l1_to_bt, file.bf16_l1_to_bt);
        flag(&mut target.mmad_s8s4, file.mmad_s8s4);
        flag(&mut target.fused_matmul, file.fused_matmul);
        flag(&mut target.fused_quant_matmul, file.fused_quant_matmul);
        flag(
            &mut target.kv_rms_norm_rope_cache,
            file.kv_rms_norm_rope_cache,
        );
        Ok(Box::leak(Box::new(target)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_910b_and_lookup_rejects_unknown() {
        assert_eq!(Target::default_target().name, "ascend910b");
        assert!(Target::lookup("ascend950").unwrap().bf16_l1_to_bt);
        let err = Target::lookup("gpu").unwrap_err();
        assert!(err.contains("ascend910_93"), "{err}");
    }

    #[test]
    fn hostile_target_names_are_refused_with_their_line() {
        let dir = std::env::temp_dir().join(format!("dit-target-names-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for name in [
            r#"x\")\nmessage(FATAL_ERROR injected)\nset(Y \""#,
            "a b",
            "a$b",
            "",
        ] {
            let path = dir.join("t.toml");
            std::fs::write(&path, format!("base = \"ascend910b\"\nname = \"{name}\"\n")).unwrap();
            let err = Target::load(&path).unwrap_err();
            assert!(err.contains("t.toml:2:8: target name"), "{name}: {err}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn target_files_override_a_base_and_reject_unknown_keys() {
        let dir = std::env::temp_dir().join(format!("dit-target-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("s8s4.toml");
        std::fs::write(
            &good,
            "name = \"a2-s8s4\"\nbase = \"ascend910b\"\nmmad_s8s4 = true\n",
        )
        .unwrap();
        let t = Target::resolve(good.to_str().unwrap()).unwrap();
        assert!(t.mmad_s8s4 && !t.bf16_l1_to_bt && t.name == "a2-s8s4");
        assert_eq!(t.ge_compiler_version, DEFAULT_GE_COMPILER_VERSION);
        let old = dir.join("old-ge.toml");
        std::fs::write(
            &old,
            "name = \"a2-old\"\nbase = \"ascend910b\"\nge_compiler_version = 90000000\n",
        )
        .unwrap();
        let t = Target::resolve(old.to_str().unwrap()).unwrap();
        assert_eq!(t.ge_compiler_version, 90_000_000);
        // The kernels a target file's chip runs are its base's.
        assert_eq!(t.chip, "ascend910b");
        let bad = dir.join("bad.toml");
        std::fs::write(
            &bad,
            "name = \"x\"\nbase = \"ascend910b\"\nwarp_size = 32\n",
        )
        .unwrap();
        assert!(Target::resolve(bad.to_str().unwrap())
            .unwrap_err()
            .contains("warp_size"));
        let _ = std::fs::remove_dir_all(dir);
    }
}
