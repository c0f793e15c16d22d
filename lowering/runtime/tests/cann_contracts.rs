//! The kernel contracts (dit_runtime::contracts) checked on the CANN side: the stand-in CANN
//! (tests/standin, rules.h) loads the rules the table states, rendered by
//! `contracts::render`, and refuses a violating phase one with the rule's documented aclnn
//! error code. One test per rule: the violating call is rejected with its code and the rule id
//! in the log, and the valid call passes. Calls go through the CANN backend as dit makes them.
//!
//! A `Targets` rule (the kernel exists on some chips only) cannot be broken through the
//! backend, which picks entries by the chip it is on: those tests make the stand-in's rules
//! file map the SoC the backend sees to another target, so that the backend's call reaches a
//! chip that lacks the kernel (e.g. FusedInferAttentionScoreV2, dit's old call, on an Ascend
//! 950).

mod standin_build;

use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};

use dit_runtime::cann::CannBackend;
use dit_runtime::contracts::{self, ACLNN_ERR_PARAM_INVALID, ACLNN_ERR_PARAM_NULLPTR};
use dit_runtime::{AttrValue, Attrs, DType, RuntimeError, Tensor, TensorType};

/// The stand-in reads its log, rules and SoC from the environment: tests take turns.
static SERIAL: Mutex<()> = Mutex::new(());

const A2: &str = "Ascend910B1";
const A5: &str = "Ascend950PR_9599";

struct Standin {
    dir: tempfile::TempDir,
    log: PathBuf,
    rules: PathBuf,
    _serial: MutexGuard<'static, ()>,
}

impl Standin {
    fn build() -> Standin {
        let serial = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
        let dir = tempfile::tempdir().expect("tempdir");
        standin_build::compile_standin(dir.path());
        let log = dir.path().join("calls.log");
        let rules = dir.path().join("rules.txt");
        std::fs::write(&log, "").expect("log file");
        std::fs::write(&rules, contracts::render()).expect("rules file");
        std::env::set_var("DIT_CANN_STANDIN_LOG", &log);
        std::env::set_var("DIT_CANN_STANDIN_RULES", &rules);
        std::env::set_var("DIT_CANN_STANDIN_PROTOCOL_ONLY", "1");
        std::env::remove_var("DIT_CANN_STANDIN_FAIL");
        std::env::remove_var("DIT_CANN_STANDIN_FAIL_RUN");
        Standin {
            dir,
            log,
            rules,
            _serial: serial,
        }
    }

    /// The stand-in's rules file with every SoC taken for `target` (see the module comment).
    fn chip_is(&self, target: &str) {
        let mut text = String::new();
        for line in contracts::render().lines() {
            match line.split(' ').collect::<Vec<_>>().as_slice() {
                ["soc", _, prefix] => text.push_str(&format!("soc {target} {prefix}\n")),
                _ => {
                    text.push_str(line);
                    text.push('\n');
                }
            }
        }
        std::fs::write(&self.rules, text).expect("rules file");
    }

    /// Launches `op` on a backend that sees SoC `soc`; the result and the log lines it added.
    fn launch(
        &self,
        soc: &str,
        op: &str,
        attrs: &Attrs,
        inputs: &[Option<Tensor>],
        results: &[TensorType],
    ) -> (Result<Vec<Tensor>, RuntimeError>, Vec<String>) {
        std::env::set_var("DIT_CANN_STANDIN_SOC", soc);
        let before = self.lines().len();
        let mut backend = match CannBackend::load(Some(self.dir.path())) {
            Ok(b) => b,
            Err(e) => panic!("stand-in CANN does not load: {e}"),
        };
        let refs: Vec<Option<&Tensor>> = inputs.iter().map(Option::as_ref).collect();
        let out = backend.launch(op, attrs, &refs, results);
        drop(backend);
        (out, self.lines()[before..].to_vec())
    }

    fn lines(&self) -> Vec<String> {
        std::fs::read_to_string(&self.log)
            .expect("log")
            .lines()
            .map(str::to_string)
            .collect()
    }
}

fn t(dtype: DType, shape: &[usize]) -> Option<Tensor> {
    let n: usize = shape.iter().product();
    Some(Tensor {
        dtype,
        shape: shape.to_vec(),
        data: vec![0; dtype.storage_bytes(n)],
    })
}

fn ty(dtype: DType, shape: &[usize]) -> TensorType {
    TensorType {
        dtype,
        shape: shape.to_vec(),
    }
}

fn attrs(pairs: &[(&str, AttrValue)]) -> Attrs {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

fn s(v: &str) -> AttrValue {
    AttrValue::Str(v.into())
}

/// The launch ran through the stand-in without a refusal, calling `symbol`.
#[track_caller]
fn passes(out: &Result<Vec<Tensor>, RuntimeError>, lines: &[String], symbol: &str) {
    assert!(out.is_ok(), "{out:?}\n{lines:#?}");
    assert!(lines.iter().all(|l| !l.starts_with("ERROR")), "{lines:#?}");
    let call = format!("CALL {symbol}GetWorkspaceSize ");
    assert!(lines.iter().any(|l| l.starts_with(&call)), "{lines:#?}");
}

/// The launch's phase one of `symbol` was refused by rule `rule` with `code`, and the backend's
/// error carries the code.
#[track_caller]
fn refused(
    out: &Result<Vec<Tensor>, RuntimeError>,
    lines: &[String],
    symbol: &str,
    rule: &str,
    code: i32,
) {
    let want = format!("ERROR {symbol}GetWorkspaceSize: rule {rule}: ");
    assert!(
        lines.iter().any(|l| l.starts_with(&want)),
        "no '{want}' in {lines:#?}"
    );
    match out {
        Err(RuntimeError::Backend(m)) => {
            assert!(m.contains(&code.to_string()) && m.contains(symbol), "{m}")
        }
        other => panic!("{symbol}: expected a refusal with {code}, got {other:?}"),
    }
}

fn gelu_mul(x: &[usize], dtype: DType) -> (Attrs, Vec<Option<Tensor>>, Vec<TensorType>) {
    let mut half = x.to_vec();
    if let Some(l) = half.last_mut() {
        *l /= 2;
    }
    (
        attrs(&[("approximate", s("tanh"))]),
        vec![t(dtype, x)],
        vec![ty(dtype, &half)],
    )
}

#[test]
fn gelu_mul_rules_refuse_what_the_doc_refuses() {
    let st = Standin::build();
    let run = |x: &[usize], dtype| {
        let (a, i, r) = gelu_mul(x, dtype);
        st.launch(A2, "dit.gelu_mul", &a, &i, &r)
    };
    let (out, lines) = run(&[2, 150, 64], DType::BF16);
    passes(&out, &lines, "aclnnGeluMul");
    for (x, dtype, rule) in [
        (&[64][..], DType::BF16, "gelu_mul.rank"),
        (&[2, 150_000, 64][..], DType::BF16, "gelu_mul.lead_product"),
        (&[4, 2048][..], DType::BF16, "gelu_mul.last_dim"),
        (&[4, 66][..], DType::I32, "gelu_mul.dtype"),
    ] {
        let (out, lines) = run(x, dtype);
        refused(&out, &lines, "aclnnGeluMul", rule, ACLNN_ERR_PARAM_INVALID);
    }
    // An odd last dim (the result takes the floor of the half).
    let (out, lines) = run(&[4, 65], DType::BF16);
    refused(
        &out,
        &lines,
        "aclnnGeluMul",
        "gelu_mul.last_dim_even",
        ACLNN_ERR_PARAM_INVALID,
    );
}

#[test]
fn rope_tables_must_have_x_dtype() {
    let st = Standin::build();
    let a = attrs(&[("mode", s("half"))]);
    let run = |x: DType, c: DType, sn: DType| {
        let inputs = vec![
            t(x, &[1, 2, 4, 8]),
            t(c, &[1, 1, 4, 8]),
            t(sn, &[1, 1, 4, 8]),
        ];
        st.launch(A2, "dit.rope", &a, &inputs, &[ty(x, &[1, 2, 4, 8])])
    };
    let (out, lines) = run(DType::BF16, DType::BF16, DType::BF16);
    passes(&out, &lines, "aclnnRotaryPositionEmbedding");
    // dit's old FLUX call: bf16 x with f32 tables.
    let (out, lines) = run(DType::BF16, DType::F32, DType::BF16);
    let sym = "aclnnRotaryPositionEmbedding";
    refused(&out, &lines, sym, "rope.cos_dtype", ACLNN_ERR_PARAM_INVALID);
    let (out, lines) = run(DType::BF16, DType::BF16, DType::F32);
    refused(&out, &lines, sym, "rope.sin_dtype", ACLNN_ERR_PARAM_INVALID);
    let (out, lines) = run(DType::I32, DType::I32, DType::I32);
    refused(&out, &lines, sym, "rope.dtype", ACLNN_ERR_PARAM_INVALID);
}

#[test]
fn fused_matmul_refuses_a_gelu_bias_and_other_chips() {
    let st = Standin::build();
    let run = |soc: &str, kind: &str, dtype: DType, bias: bool| {
        let a = attrs(&[("fused_op_type", s(kind))]);
        let inputs = vec![
            t(dtype, &[16, 64]),
            t(dtype, &[64, 128]),
            if bias { t(dtype, &[128]) } else { None },
            None,
        ];
        st.launch(
            soc,
            "dit.fused_matmul",
            &a,
            &inputs,
            &[ty(dtype, &[16, 128])],
        )
    };
    let sym = "aclnnFusedMatmul";
    let (out, lines) = run(A5, "gelu_tanh", DType::BF16, false);
    passes(&out, &lines, sym);
    let (out, lines) = run(A5, "relu", DType::BF16, true);
    passes(&out, &lines, sym);
    // dit's old call: linear + bias + GELU as fused_matmul(gelu_tanh) with the bias.
    let (out, lines) = run(A5, "gelu_tanh", DType::BF16, true);
    refused(
        &out,
        &lines,
        sym,
        "fused_matmul.gelu_bias",
        ACLNN_ERR_PARAM_NULLPTR,
    );
    let (out, lines) = run(A5, "gelu_erf", DType::F32, false);
    refused(
        &out,
        &lines,
        sym,
        "fused_matmul.dtype",
        ACLNN_ERR_PARAM_INVALID,
    );
    // On an A2 the table has no entry: the backend refuses before any call; the stand-in,
    // shown the 950's call as an A2, refuses it by its product list.
    let (out, _) = run(A2, "relu", DType::BF16, false);
    assert!(matches!(out, Err(RuntimeError::Contract { .. })), "{out:?}");
    st.chip_is("ascend910b");
    let (out, lines) = run(A5, "relu", DType::BF16, false);
    refused(
        &out,
        &lines,
        sym,
        "fused_matmul.targets",
        ACLNN_ERR_PARAM_INVALID,
    );
}

#[test]
fn fused_matmul_x2_takes_x1_dtype() {
    let st = Standin::build();
    let a = attrs(&[("fused_op_type", s("relu"))]);
    let inputs = vec![
        t(DType::BF16, &[16, 64]),
        t(DType::F16, &[64, 128]),
        None,
        None,
    ];
    let (out, lines) = st.launch(
        A5,
        "dit.fused_matmul",
        &a,
        &inputs,
        &[ty(DType::BF16, &[16, 128])],
    );
    refused(
        &out,
        &lines,
        "aclnnFusedMatmul",
        "fused_matmul.x2_dtype",
        ACLNN_ERR_PARAM_INVALID,
    );
}

fn attention() -> (Attrs, Vec<Option<Tensor>>, Vec<TensorType>) {
    (
        attrs(&[("scale", AttrValue::Float(0.35))]),
        vec![
            t(DType::F16, &[1, 2, 4, 8]),
            t(DType::F16, &[1, 2, 6, 8]),
            t(DType::F16, &[1, 2, 6, 8]),
            None,
        ],
        vec![ty(DType::F16, &[1, 2, 4, 8])],
    )
}

#[test]
fn attention_is_v2_on_a2_and_v5_on_950() {
    let st = Standin::build();
    let (a, i, r) = attention();
    let (out, lines) = st.launch(A2, "dit.attention", &a, &i, &r);
    passes(&out, &lines, "aclnnFusedInferAttentionScoreV2");
    let (out, lines) = st.launch(A5, "dit.attention", &a, &i, &r);
    passes(&out, &lines, "aclnnFusedInferAttentionScoreV5");
    let v5 = lines
        .iter()
        .find(|l| l.starts_with("CALL aclnnFusedInferAttentionScoreV5GetWorkspaceSize "))
        .expect("V5 call");
    // 48 phase-one arguments (V2's 39, seven more optional inputs, queryQuantMode, pseType),
    // then ws= and exec=.
    assert_eq!(v5.split(' ').count(), 2 + 48 + 2, "{v5}");
    assert!(
        v5.contains(" numHeads=I:2 ") && v5.contains(" pseType=I:0 "),
        "{v5}"
    );

    // dit's old call, V2, on an Ascend 950 (the backend believes it is on an A2).
    st.chip_is("ascend950");
    let (out, lines) = st.launch(A2, "dit.attention", &a, &i, &r);
    let v2 = "aclnnFusedInferAttentionScoreV2";
    refused(&out, &lines, v2, "fia_v2.targets", ACLNN_ERR_PARAM_INVALID);
    st.chip_is("ascend910b");
    let (out, lines) = st.launch(A5, "dit.attention", &a, &i, &r);
    let v5 = "aclnnFusedInferAttentionScoreV5";
    refused(&out, &lines, v5, "fia_v5.targets", ACLNN_ERR_PARAM_INVALID);
}

/// mask_kind = "additive": the mask is pseShiftOptional (attenMaskOptional null), 4-d, of q's
/// dtype (aclnnFusedInferAttentionScoreV2.md / V5.md, pseShiftOptional).
#[test]
fn an_additive_mask_is_pse_shift_of_q_dtype_and_rank_4() {
    let st = Standin::build();
    let a = attrs(&[
        ("scale", AttrValue::Float(0.35)),
        ("mask_kind", s("additive")),
        ("operandSegmentSizes", AttrValue::Ints(vec![1, 1, 1, 1])),
    ]);
    let inputs = |mask: Option<Tensor>| {
        vec![
            t(DType::F16, &[1, 2, 4, 8]),
            t(DType::F16, &[1, 2, 6, 8]),
            t(DType::F16, &[1, 2, 6, 8]),
            mask,
        ]
    };
    let r = vec![ty(DType::F16, &[1, 2, 4, 8])];
    for (soc, symbol, v) in [
        (A2, "aclnnFusedInferAttentionScoreV2", "v2"),
        (A5, "aclnnFusedInferAttentionScoreV5", "v5"),
    ] {
        let (out, lines) = st.launch(
            soc,
            "dit.attention",
            &a,
            &inputs(t(DType::F16, &[1, 2, 4, 6])),
            &r,
        );
        passes(&out, &lines, symbol);
        let call = lines
            .iter()
            .find(|l| l.starts_with(&format!("CALL {symbol}GetWorkspaceSize ")))
            .expect("the call");
        assert!(
            call.contains(" pseShiftOptional=T{") && call.contains(" attenMaskOptional=null "),
            "{call}"
        );
        let (out, lines) = st.launch(
            soc,
            "dit.attention",
            &a,
            &inputs(t(DType::BF16, &[1, 2, 4, 6])),
            &r,
        );
        refused(
            &out,
            &lines,
            symbol,
            &format!("fia_{v}.pse_q_dtype"),
            ACLNN_ERR_PARAM_INVALID,
        );
        let (out, lines) = st.launch(
            soc,
            "dit.attention",
            &a,
            &inputs(t(DType::F32, &[1, 2, 4, 6])),
            &r,
        );
        refused(
            &out,
            &lines,
            symbol,
            &format!("fia_{v}.pse_dtype"),
            ACLNN_ERR_PARAM_INVALID,
        );
        let (out, lines) = st.launch(
            soc,
            "dit.attention",
            &a,
            &inputs(t(DType::F16, &[4, 6])),
            &r,
        );
        refused(
            &out,
            &lines,
            symbol,
            &format!("fia_{v}.pse_rank"),
            ACLNN_ERR_PARAM_INVALID,
        );
    }
    // The default kind passes the same tensor as attenMaskOptional.
    let masked = attrs(&[
        ("scale", AttrValue::Float(0.35)),
        ("operandSegmentSizes", AttrValue::Ints(vec![1, 1, 1, 1])),
    ]);
    let (out, lines) = st.launch(
        A2,
        "dit.attention",
        &masked,
        &inputs(t(DType::I8, &[1, 1, 4, 6])),
        &r,
    );
    passes(&out, &lines, "aclnnFusedInferAttentionScoreV2");
    assert!(
        lines
            .iter()
            .any(|l| l.contains(" pseShiftOptional=null ") && l.contains(" attenMaskOptional=T{")),
        "{lines:#?}"
    );
}

#[test]
fn kv_rms_norm_rope_cache_runs_on_a2_and_950_with_tables_in_kv_dtype() {
    let st = Standin::build();
    let a = attrs(&[
        ("epsilon", AttrValue::Float(1e-5)),
        ("cache_mode", s("Norm")),
    ]);
    let inputs = |tables: DType| {
        vec![
            t(DType::F16, &[2, 1, 3, 576]),
            t(DType::F16, &[512]),
            t(tables, &[2, 1, 3, 64]),
            t(tables, &[2, 1, 3, 64]),
            t(DType::I64, &[2, 3]),
            t(DType::F16, &[2, 1, 8, 64]),
            t(DType::F16, &[2, 1, 8, 512]),
        ]
    };
    let results = [
        ty(DType::F16, &[2, 1, 8, 64]),
        ty(DType::F16, &[2, 1, 8, 512]),
    ];
    let op = "dit.kv_rms_norm_rope_cache";
    let sym = "aclnnKvRmsNormRopeCache";
    // The current page lists Ascend 950, Atlas A3 and A2.
    for soc in [A5, A2] {
        st.chip_is(if soc == A5 { "ascend950" } else { "ascend910b" });
        let (out, lines) = st.launch(soc, op, &a, &inputs(DType::F16), &results);
        passes(&out, &lines, sym);
    }
    // f32 tables with an f16 kv: 与kv数据类型一致 is checked at tiling (561002).
    let (out, lines) = st.launch(A2, op, &a, &inputs(DType::F32), &results);
    refused(
        &out,
        &lines,
        sym,
        "kv_rms_norm_rope_cache.cos_dtype",
        561_002,
    );
}

fn gmm(variant: &str, lists: &str) -> (Attrs, Vec<Option<Tensor>>, Vec<TensorType>) {
    (
        attrs(&[("variant", s(variant)), ("group_list_type", s(lists))]),
        vec![
            t(DType::I8, &[6, 16]),
            t(DType::I8, &[2, 16, 32]),
            t(DType::I64, &[2]),
            t(DType::F32, &[2, 32]),
            t(DType::F32, &[6]),
            None,
            None,
        ],
        vec![
            ty(DType::I8, &[6, 16]),
            ty(DType::F32, &[6]),
            ty(DType::F32, &[6]),
        ],
    )
}

#[test]
fn grouped_matmul_swiglu_quant_a8w8_wants_an_nz_weight() {
    let st = Standin::build();
    let op = "dit.grouped_matmul_swiglu_quant";
    // V2 with the ND weight list on an A2: dit's old call.
    let (a, i, r) = gmm("v2", "count");
    let (out, lines) = st.launch(A2, op, &a, &i, &r);
    let v2 = "aclnnGroupedMatmulSwigluQuantV2";
    refused(
        &out,
        &lines,
        v2,
        "gmm_swiglu_quant_v2.weight_nz",
        ACLNN_ERR_PARAM_INVALID,
    );
    let (out, lines) = st.launch(A5, op, &a, &i, &r);
    passes(&out, &lines, v2);
    // V1 with an ND weight (where the WeightNZ entry is not chosen).
    let (a, i, r) = gmm("v1", "cumsum");
    let (out, lines) = st.launch(A5, op, &a, &i, &r);
    let v1 = "aclnnGroupedMatmulSwigluQuant";
    refused(
        &out,
        &lines,
        v1,
        "gmm_swiglu_quant.weight_nz",
        ACLNN_ERR_PARAM_INVALID,
    );
    // On an A2 the same op runs the WeightNZ kernel with the weight as FRACTAL_NZ.
    let (out, lines) = st.launch(A2, op, &a, &i, &r);
    let nz = "aclnnGroupedMatmulSwigluQuantWeightNZ";
    passes(&out, &lines, nz);
    let call = lines
        .iter()
        .find(|l| l.starts_with("CALL aclnnGroupedMatmulSwigluQuantWeightNZGetWorkspaceSize "))
        .expect("WeightNZ call");
    // [E, K, N] = [2, 16, 32] int8 → [E, N/32, K/16, 16, 32], format 29.
    assert!(
        call.contains(" weight=T{dt=2,fmt=29,view=[2,1,1,16,32],"),
        "{call}"
    );
    st.chip_is("ascend950");
    let (out, lines) = st.launch(A2, op, &a, &i, &r);
    let rule = "gmm_swiglu_quant_weight_nz.targets";
    refused(&out, &lines, nz, rule, ACLNN_ERR_PARAM_INVALID);
}

#[test]
fn quant_matmul_with_an_nz_x2_runs_weight_nz() {
    let st = Standin::build();
    let a = attrs(&[
        ("transpose_x1", AttrValue::Bool(false)),
        ("transpose_x2", AttrValue::Bool(true)),
        ("x2_format", s("FRACTAL_NZ")),
    ]);
    let inputs = vec![
        t(DType::I8, &[4, 64]),
        t(DType::I8, &[128, 64]),
        t(DType::F32, &[128]),
        None,
        None,
        t(DType::F32, &[4]),
    ];
    let (out, lines) = st.launch(
        A2,
        "dit.quant_matmul",
        &a,
        &inputs,
        &[ty(DType::F16, &[4, 128])],
    );
    passes(&out, &lines, "aclnnQuantMatmulWeightNz");
    let call = lines
        .iter()
        .find(|l| l.starts_with("CALL aclnnQuantMatmulWeightNzGetWorkspaceSize "))
        .expect("WeightNz call");
    // x2 [N, K] = [128, 64] transposed: (k1, n1, 16, 32) = [2, 8, 16, 32], FRACTAL_NZ.
    assert!(
        call.contains(" x2=T{dt=2,fmt=29,view=[2,8,16,32],"),
        "{call}"
    );
    // The ND x2 of V4 breaks the WeightNz rule where it is checked.
    let text = contracts::render();
    assert!(
        text.contains(
            "rule aclnnQuantMatmulWeightNz quant_matmul_weight_nz.x2_format 161002 * format 1 29\n"
        ),
        "{text}"
    );
}

/// aclnnMoeGatingTopKSoftmax ([ops-transformer] moe/moe_gating_top_k_softmax/docs/
/// aclnnMoeGatingTopKSoftmax.md): x FLOAT16/BFLOAT16/FLOAT32 (161002) of 2-3 dims, finished
/// BOOL of 1-2 dims (shapes: 561002); at most 1024 experts on Atlas A2 (CANN 7.0's 约束与限制),
/// 2048 on Ascend 950.
#[test]
fn moe_gating_topk_softmax_rules_refuse_what_the_doc_refuses() {
    use contracts::ACLNN_ERR_INNER_TILING_ERROR as TILING;
    let st = Standin::build();
    let k2 = attrs(&[("k", AttrValue::Int(2))]);
    let run = |soc: &str, x: &[usize], dtype: DType, finished: Option<Tensor>| {
        let mut y = x.to_vec();
        *y.last_mut().expect("rank >= 1") = 2;
        st.launch(
            soc,
            "dit.moe_gating_topk_softmax",
            &k2,
            &[t(dtype, x), finished],
            &[ty(dtype, &y), ty(DType::I32, &y), ty(DType::I32, &y)],
        )
    };
    const SYMBOL: &str = "aclnnMoeGatingTopKSoftmax";
    let (out, lines) = run(A2, &[8, 4], DType::BF16, None);
    passes(&out, &lines, SYMBOL);
    let (out, lines) = run(A2, &[2, 8, 4], DType::F32, t(DType::I1, &[2, 8]));
    passes(&out, &lines, SYMBOL);
    let (out, lines) = run(A2, &[8, 4], DType::I32, None);
    refused(
        &out,
        &lines,
        SYMBOL,
        "moe_gating_topk_softmax.x_dtype",
        ACLNN_ERR_PARAM_INVALID,
    );
    let (out, lines) = run(A2, &[2, 2, 8, 4], DType::F16, None);
    refused(&out, &lines, SYMBOL, "moe_gating_topk_softmax.rank", TILING);
    let (out, lines) = run(A2, &[8, 4], DType::F16, t(DType::I8, &[8]));
    refused(
        &out,
        &lines,
        SYMBOL,
        "moe_gating_topk_softmax.finished_dtype",
        ACLNN_ERR_PARAM_INVALID,
    );
    let (out, lines) = run(A2, &[2, 8, 4], DType::F16, t(DType::I1, &[2, 8, 1]));
    refused(
        &out,
        &lines,
        SYMBOL,
        "moe_gating_topk_softmax.finished_rank",
        TILING,
    );
    let (out, lines) = run(A2, &[8, 2048], DType::F16, None);
    refused(
        &out,
        &lines,
        SYMBOL,
        "moe_gating_topk_softmax.experts",
        TILING,
    );
    let (out, lines) = run(A5, &[8, 2048], DType::F16, None);
    passes(&out, &lines, SYMBOL);
    let (out, lines) = run(A5, &[8, 4096], DType::F16, None);
    refused(
        &out,
        &lines,
        SYMBOL,
        "moe_gating_topk_softmax.experts_950",
        TILING,
    );
}

/// aclnnMoeInitRoutingV2's expertIdx is INT32 on Atlas A2/A3 and INT32 or INT64 on Ascend 950
/// (the note under the parameter table of [ops-transformer] moe/moe_init_routing_v2/docs/
/// aclnnMoeInitRoutingV2.md): topk's int64 ids are refused on A2 (161002), which is why the MoE
/// raising narrows them and the router fusion hands over int32 ones.
#[test]
fn moe_init_routing_takes_int32_ids_on_a2() {
    let st = Standin::build();
    let a = attrs(&[
        ("num_experts", AttrValue::Int(3)),
        ("expert_tokens", s("cumsum")),
    ]);
    let run = |soc: &str, ids: DType| {
        st.launch(
            soc,
            "dit.moe_init_routing",
            &a,
            &[t(DType::BF16, &[3, 8]), t(ids, &[3, 2])],
            &[
                ty(DType::BF16, &[6, 8]),
                ty(DType::I32, &[6]),
                ty(DType::I32, &[3]),
            ],
        )
    };
    const SYMBOL: &str = "aclnnMoeInitRoutingV2";
    let (out, lines) = run(A2, DType::I32);
    passes(&out, &lines, SYMBOL);
    let (out, lines) = run(A2, DType::I64);
    refused(
        &out,
        &lines,
        SYMBOL,
        "moe_init_routing_v2.expert_idx_dtype",
        ACLNN_ERR_PARAM_INVALID,
    );
    let (out, lines) = run(A5, DType::I64);
    passes(&out, &lines, SYMBOL);
}

/// aclnnMoeInitRoutingV2 writes expertTokensCountOrCumsumOut as INT32 on every chip (the
/// parameter table of [ops-transformer] moe/moe_init_routing_v2/docs/aclnnMoeInitRoutingV2.md;
/// op_host/moe_init_routing_v2_def.cpp declares DT_INT32 only): an INT64 output tensor is
/// refused (161002), which is why the MoE raising types that result i32 and casts it to the
/// INT64 group list aclnnGroupedMatmulV4 reads.
#[test]
fn moe_init_routing_writes_int32_tokens() {
    let st = Standin::build();
    let a = attrs(&[
        ("num_experts", AttrValue::Int(3)),
        ("expert_tokens", s("count")),
    ]);
    let run = |soc: &str, tokens: DType| {
        st.launch(
            soc,
            "dit.moe_init_routing",
            &a,
            &[t(DType::BF16, &[3, 8]), t(DType::I32, &[3, 2])],
            &[
                ty(DType::BF16, &[6, 8]),
                ty(DType::I32, &[6]),
                ty(tokens, &[3]),
            ],
        )
    };
    const SYMBOL: &str = "aclnnMoeInitRoutingV2";
    for soc in [A2, A5] {
        let (out, lines) = run(soc, DType::I32);
        passes(&out, &lines, SYMBOL);
        let (out, lines) = run(soc, DType::I64);
        refused(
            &out,
            &lines,
            SYMBOL,
            "moe_init_routing_v2.tokens_dtype",
            ACLNN_ERR_PARAM_INVALID,
        );
    }
}
