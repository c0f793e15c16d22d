//! The target table of DIALECT.md: every hardware fact a pass may depend on, in one place.
//! Passes ask a `Target` for a capability; they never branch on a target's name.

/// One Ascend product family and the capabilities the passes care about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The `--target=` name.
    pub name: &'static str,
    /// The products it stands for.
    pub products: &'static str,
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
}

const KIB: u64 = 1024;

/// Every known target; the first is the default.
pub const TARGETS: &[Target] = &[
    Target {
        name: "ascend910b",
        products: "Atlas A2 training/inference series",
        ub_bytes: 192 * KIB,
        l1_bytes: 512 * KIB,
        l0ab_bytes: 64 * KIB,
        l0c_bytes: 128 * KIB,
        bf16_l1_to_bt: false,
        mmad_s8s4: false,
        fused_matmul: false,
        fused_quant_matmul: true,
    },
    Target {
        name: "ascend910_93",
        products: "Atlas A3 training/inference series",
        ub_bytes: 192 * KIB,
        l1_bytes: 512 * KIB,
        l0ab_bytes: 64 * KIB,
        l0c_bytes: 128 * KIB,
        bf16_l1_to_bt: false,
        mmad_s8s4: false,
        fused_matmul: false,
        fused_quant_matmul: true,
    },
    Target {
        name: "ascend950",
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
}
