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
    /// target file): the name the kernel contracts (dit_kernel_spec::contracts) gate kernels by.
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
    /// Vector cores (AIV) a kernel can be launched on: the `vector_core_cnt` of CANN's
    /// `<arch>-linux/data/platform_config/<soc_version>.ini` (what
    /// `PlatformAscendC::GetCoreNumAiv()` returns on A2/A3, which have no separate Vector Core).
    pub vector_cores: u64,
    /// Cube cores (AIC): the same file's `cube_core_cnt`; on A2/A3 one per AI Core, beside two
    /// AIV (asc-devkit asc_get_sub_block_num.md: KERNEL_TYPE_MIX_AIC_1_2).
    pub cube_cores: u64,
    /// Off-chip (HBM, "DDR" in the cost model) bandwidth of one device, bytes per second: what
    /// the performance model (dit_passes::analysis::perf_model) divides a kernel's DDR bytes by.
    pub hbm_bytes_per_s: u64,
    /// AI Core clock in Hz, for the per-cycle throughputs below.
    pub core_hz: u64,
    /// f16/bf16 flops one Cube core does per cycle: a 16x16x16 multiply-accumulate (4096 MACs,
    /// 8192 flops) per cycle, the Cube unit's shape (ai.gitee.com Ascend 910B page, 1.1 核心架构:
    /// "一个时钟周期内可完成 16x16x16 的矩阵乘加运算"; Ascend 910: "4096 multiply-add operations
    /// per cycle" per Cube engine).
    pub cube_f16_flops_per_cycle: u64,
    /// int8 ops one Cube core does per cycle: twice the f16 rate, as in every published Ascend
    /// pair of figures (Ascend 910: 256 TFLOPS FP16 / 512 TOPS INT8).
    pub cube_int8_ops_per_cycle: u64,
    /// Bytes one vector core (AIV) processes per cycle: one repeat of a vector instruction is 8
    /// 32-byte blocks, i.e. 64 f32 or 128 f16 lanes (asc-devkit docs/api/context/Adds.md, mask:
    /// "操作数为16位时 mask∈[1, 128]；32位时 mask∈[1, 64]"). One repeat per cycle is this model's
    /// assumption; the sources give no issue rate.
    pub vector_bytes_per_cycle: u64,
    /// Host-side cost of one kernel launch, in ns, added per launch (seed 004, 融合执行的性能收益:
    /// "每节省一次 Launch 就省掉了约 10μs 的调度延迟", measured on Ascend 910 with BERT-Base).
    /// The seed gives one figure for one chip; every built-in target uses it.
    pub launch_overhead_ns: u64,
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
        // Ascend910B1 (and B2): `ai_core_cnt=24 cube_core_cnt=24 vector_core_cnt=48` in the
        // platform_config ini quoted by Ascend/torchair docs/context/limit_core_num.md; issue 17
        // gives 48 AIV for 910B1. The family spans SKUs: the 910B3 has 20 AI Cores (40 AIV; the
        // bishengir Ascend910B3 target of bench/README.md's bishengir_peer), so a host launcher
        // takes the device's real count (aclrtGetDeviceInfo ACL_DEV_ATTR_VECTOR_CORE_NUM,
        // hicann/runtime docs/api_docs/aclrtDevAttr.md); this entry is the B1.
        vector_cores: 48,
        cube_cores: 24,
        // HBM: no Huawei datasheet is at hand. Issue 17 gives "1.6 TB/s-class" for the 910B;
        // pages disagree (oryoy.com: 1.2 TB/s for a 32 GB part; boardor.com: 400 GB/s). 1.6 TB/s
        // is what four HBM2e stacks (the 64 GB part, ai.gitee.com) give at 3.2 Gb/s per pin
        // (4 x 1024 bit x 3.2 Gb/s / 8 = 1.64 TB/s); this entry takes it.
        hbm_bytes_per_s: 1_600_000_000_000,
        // Clock: no source at hand states it. 1.8 GHz is this entry's choice: with 24 Cube cores
        // x 8192 flops/cycle it gives 354 TFLOPS f16, inside the 280-376 TFLOPS the pages quote
        // for 910B SKUs (ai.gitee.com: 280; borimooc.com and boardor.com: 320).
        core_hz: 1_800_000_000,
        cube_f16_flops_per_cycle: 8192,
        cube_int8_ops_per_cycle: 16384,
        vector_bytes_per_cycle: 256,
        launch_overhead_ns: 10_000,
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
        // One A3 device is one die of the dual-die Ascend 910C package, with the 910B1/B2 die's
        // 24 AI Cores (48 AIV). No A3 ini is quoted in the sources at hand: this is the A2 die's
        // count, and the launcher takes the device's real one.
        vector_cores: 48,
        cube_cores: 24,
        // Per die (one A3 device): the 910B die's HBM and clock; the 910C package's two dies
        // are two devices (hiascend MindCluster A3 SuperPoD affinity page: every two Ascend AI
        // processors form a HiAM module), so one device's figures are the A2's.
        hbm_bytes_per_s: 1_600_000_000_000,
        core_hz: 1_800_000_000,
        cube_f16_flops_per_cycle: 8192,
        cube_int8_ops_per_cycle: 16384,
        vector_bytes_per_cycle: 256,
        launch_overhead_ns: 10_000,
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
        // Not given in the sources for 950; the A2 die's 24 AI Cores (48 AIV) stand in.
        vector_cores: 48,
        cube_cores: 24,
        // Ascend 950PR: HiBL 1.0, 128 GB at 1.6 TB/s (Huawei Connect 2025, as an encyclopedia
        // page 昇騰950PR芯片, 產品規格, reports it); the 950DT's HiZQ 2.0 is quoted at 4 TB/s
        // (besthub.dev, Huawei Ascend AI chip roadmap page; it also says 4 TB/s for HiBL): a
        // target file with base = "ascend950" sets hbm_bytes_per_s = 4000000000000 for it. The
        // entry stands for the PR, the slower of the two, so no estimate is optimistic. Per-core
        // rates are not published (only 1 PFLOPS FP8 per chip): the A2's stand in.
        hbm_bytes_per_s: 1_600_000_000_000,
        core_hz: 1_800_000_000,
        cube_f16_flops_per_cycle: 8192,
        cube_int8_ops_per_cycle: 16384,
        vector_bytes_per_cycle: 256,
        launch_overhead_ns: 10_000,
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
    // Spanned: a rate or count of 0 (a division by zero in the performance model) is refused
    // at its line.
    vector_cores: Option<toml::Spanned<u64>>,
    cube_cores: Option<toml::Spanned<u64>>,
    hbm_bytes_per_s: Option<toml::Spanned<u64>>,
    core_hz: Option<toml::Spanned<u64>>,
    cube_f16_flops_per_cycle: Option<toml::Spanned<u64>>,
    cube_int8_ops_per_cycle: Option<toml::Spanned<u64>>,
    vector_bytes_per_cycle: Option<toml::Spanned<u64>>,
    launch_overhead_ns: Option<u64>,
}

/// `line:column` (1-based) of byte `offset` of `text`.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.len() - before.rfind('\n').map_or(0, |p| p + 1) + 1;
    (line, column)
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
        let file: TargetFile = toml::from_str(&text).map_err(|e| match e.span() {
            // A value of the wrong type or sign (`vector_cores = -1`) names its line.
            Some(span) => {
                let (line, column) = line_column(&text, span.start);
                format!("{}:{line}:{column}: {}", path.display(), e.message())
            }
            None => format!("{}: {}", path.display(), e.message()),
        })?;
        let mut target = Self::lookup(&file.base)?.clone();
        let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
        let name = file.name.get_ref();
        // The name reaches generated C, CMake and JSON (--emit=ascendc): a quote or a line
        // break in it would inject code, so it is held to a plain charset.
        let safe = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.');
        if name.is_empty() || !name.bytes().all(safe) {
            let (line, column) = line_column(&text, file.name.span().start);
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
        set(&mut target.launch_overhead_ns, file.launch_overhead_ns);
        for (key, slot, value) in [
            ("vector_cores", &mut target.vector_cores, file.vector_cores),
            ("cube_cores", &mut target.cube_cores, file.cube_cores),
            (
                "hbm_bytes_per_s",
                &mut target.hbm_bytes_per_s,
                file.hbm_bytes_per_s,
            ),
            ("core_hz", &mut target.core_hz, file.core_hz),
            (
                "cube_f16_flops_per_cycle",
                &mut target.cube_f16_flops_per_cycle,
                file.cube_f16_flops_per_cycle,
            ),
            (
                "cube_int8_ops_per_cycle",
                &mut target.cube_int8_ops_per_cycle,
                file.cube_int8_ops_per_cycle,
            ),
            (
                "vector_bytes_per_cycle",
                &mut target.vector_bytes_per_cycle,
                file.vector_bytes_per_cycle,
            ),
        ] {
            let Some(value) = value else { continue };
            if *value.get_ref() == 0 {
                let (line, column) = line_column(&text, value.span().start);
                return Err(format!(
                    "{}:{line}:{column}: {key} must be at least 1",
                    path.display()
                ));
            }
            *slot = value.into_inner();
        }
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
    fn performance_keys_default_to_the_base_and_refuse_zero_at_their_line() {
        let dir = std::env::temp_dir().join(format!("dit-target-perf-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let a2 = Target::lookup("ascend910b").unwrap();
        assert_eq!((a2.vector_cores, a2.cube_cores), (48, 24));
        let path = dir.join("dt.toml");
        std::fs::write(
            &path,
            "name = \"a5-dt\"\nbase = \"ascend950\"\nhbm_bytes_per_s = 4000000000000\nvector_cores = 40\n",
        )
        .unwrap();
        let t = Target::load(&path).unwrap();
        assert_eq!(t.hbm_bytes_per_s, 4_000_000_000_000);
        assert_eq!(t.vector_cores, 40);
        let a5 = Target::lookup("ascend950").unwrap();
        assert_eq!(t.core_hz, a5.core_hz);
        assert_eq!(t.launch_overhead_ns, a5.launch_overhead_ns);
        std::fs::write(
            &path,
            "name = \"x\"\nbase = \"ascend910b\"\n\ncore_hz = 0\n",
        )
        .unwrap();
        let err = Target::load(&path).unwrap_err();
        assert!(
            err.contains("dt.toml:4:11: core_hz must be at least 1"),
            "{err}"
        );
        std::fs::write(
            &path,
            "name = \"x\"\nbase = \"ascend910b\"\nvector_cores = -4\n",
        )
        .unwrap();
        let err = Target::load(&path).unwrap_err();
        assert!(err.contains("dt.toml:3:16:"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }

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
