//! The CANN backend against a stand-in CANN (tests/standin/*.c, built here with the system
//! `cc`): every kernel of the table runs once on small tensors, and the call sequence the
//! stand-in records is checked: symbols, argument kinds and count (the stand-in's hand-written
//! prototypes against the table), dims, strides, dtypes, attribute encodings, and the two-phase
//! workspace protocol. These tests run the stand-in in protocol-only mode
//! (DIT_CANN_STANDIN_PROTOCOL_ONLY: its operators compute nothing), so they say nothing about
//! values: only that the backend drives aclnn the documented way. tests/cann_device.rs runs
//! whole graphs with the stand-in computing through the CPU reference.

mod standin_build;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};

use dit_runtime::cann::{CannBackend, LIBRARIES};
use dit_runtime::kernels::{self, Arg, Kind, List, KERNELS};
use dit_runtime::{AttrValue, Attrs, DType, RuntimeError, Tensor, TensorType};

/// The stand-in reads its log path from the environment: tests take turns.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|p| p.into_inner())
}

/// A freshly built stand-in: its libraries, its log, and the test's own handles on the
/// libraries (to read their live-object counters).
struct Standin {
    dir: tempfile::TempDir,
    log: PathBuf,
    live: Vec<libloading::Library>,
}

impl Standin {
    fn build() -> Standin {
        let dir = tempfile::tempdir().expect("tempdir");
        standin_build::compile_standin(dir.path());
        let log = dir.path().join("calls.log");
        std::fs::write(&log, "").expect("log file");
        std::env::set_var("DIT_CANN_STANDIN_LOG", &log);
        std::env::remove_var("DIT_CANN_STANDIN_FAIL");
        std::env::remove_var("DIT_CANN_STANDIN_FAIL_RUN");
        // Byte-pattern operands are not valid inputs of every op (group lists, indices): the
        // stand-in's operators leave outputs as they are instead of computing.
        std::env::set_var("DIT_CANN_STANDIN_PROTOCOL_ONLY", "1");
        let live = LIBRARIES
            .iter()
            .map(|lib| {
                // SAFETY: the stand-in libraries have no initialisers.
                unsafe { libloading::Library::new(dir.path().join(lib)) }.expect("stand-in loads")
            })
            .collect();
        Standin { dir, log, live }
    }

    fn backend(&self) -> CannBackend {
        match CannBackend::load(Some(self.dir.path())) {
            Ok(b) => b,
            Err(e) => panic!("stand-in CANN does not load: {e}"),
        }
    }

    fn lines(&self) -> Vec<String> {
        std::fs::read_to_string(&self.log)
            .expect("log")
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// Live objects per library: device allocations, tensor-like objects, pending executors.
    fn live_objects(&self) -> Vec<i64> {
        self.live
            .iter()
            .map(|lib| {
                // SAFETY: `int64_t dit_standin_live(void)` in each stand-in library.
                let f = unsafe { lib.get::<unsafe extern "C" fn() -> i64>(b"dit_standin_live") }
                    .expect("dit_standin_live");
                // SAFETY: takes nothing, reads a counter.
                unsafe { f() }
            })
            .collect()
    }
}

/// One op to launch: attributes, operands by slot, result types.
struct Case {
    op: &'static str,
    attrs: Attrs,
    inputs: Vec<Option<Tensor>>,
    results: Vec<TensorType>,
    /// The SoC the stand-in reports (aclrtGetSocName): the backend picks per-chip entries by it.
    soc: &'static str,
}

/// An Atlas A2 (the default target).
const A2: &str = "Ascend910B1";
/// An Ascend 950.
const A5: &str = "Ascend950PR_9599";

impl Case {
    /// The case on another chip.
    fn on(mut self, soc: &'static str) -> Case {
        self.soc = soc;
        self
    }

    /// The entry the backend picks for this case on its chip.
    fn spec(&self) -> &'static kernels::KernelSpec {
        let present: Vec<bool> = self.inputs.iter().map(Option::is_some).collect();
        let target = dit_runtime::contracts::target_for_soc(self.soc).expect("a known SoC");
        kernels::select_for_target(
            dit_ops::OpKind::from_name(self.op).expect("a dit op"),
            &self.attrs,
            &present,
            target,
        )
        .expect("entry")
    }
}

fn t(dtype: DType, shape: &[usize]) -> Option<Tensor> {
    let n: usize = shape.iter().product();
    // A byte pattern, so that in-place results can be told from zero-filled ones.
    let data = (0..dtype.storage_bytes(n))
        .map(|i| (i % 251) as u8 + 1)
        .collect();
    Some(Tensor {
        dtype,
        shape: shape.to_vec(),
        data,
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

fn case(op: &'static str, a: Attrs, inputs: Vec<Option<Tensor>>, results: Vec<TensorType>) -> Case {
    Case {
        op,
        attrs: a,
        inputs,
        results,
        soc: A2,
    }
}

use DType::{BF16, F16, F32, I32, I64, I8};

/// One case per table entry with aclnn calls (and a few more for encodings).
fn cases() -> Vec<Case> {
    let none = Attrs::new;
    let mut v = Vec::new();
    for op in ["dit.add", "dit.sub", "dit.mul", "dit.div", "dit.pow"] {
        v.push(case(
            op,
            none(),
            vec![t(F16, &[2, 8]), t(F16, &[2, 8])],
            vec![ty(F16, &[2, 8])],
        ));
    }
    for op in [
        "dit.neg",
        "dit.exp",
        "dit.sqrt",
        "dit.rsqrt",
        "dit.tanh",
        "dit.sin",
        "dit.cos",
        "dit.erf",
        "dit.sigmoid",
        "dit.silu",
        "dit.relu",
        "dit.fast_gelu",
    ] {
        v.push(case(
            op,
            none(),
            vec![t(F32, &[2, 3])],
            vec![ty(F32, &[2, 3])],
        ));
    }
    for approx in ["none", "tanh"] {
        let a = attrs(&[("approximate", s(approx))]);
        v.push(case(
            "dit.gelu",
            a,
            vec![t(BF16, &[2, 3])],
            vec![ty(BF16, &[2, 3])],
        ));
    }
    v.push(case(
        "dit.cast",
        none(),
        vec![t(F32, &[4])],
        vec![ty(F16, &[4])],
    ));
    let a = attrs(&[
        ("dims", AttrValue::Ints(vec![1])),
        ("keepdim", AttrValue::Bool(true)),
    ]);
    v.push(case(
        "dit.reduce_mean",
        a,
        vec![t(F32, &[2, 8])],
        vec![ty(F32, &[2, 1])],
    ));
    let a = attrs(&[
        ("dims", AttrValue::Ints(vec![0, 1])),
        ("keepdim", AttrValue::Bool(false)),
    ]);
    v.push(case(
        "dit.reduce_sum",
        a,
        vec![t(F32, &[2, 8])],
        vec![ty(F32, &[])],
    ));
    let a = attrs(&[("dim", AttrValue::Int(-1))]);
    v.push(case(
        "dit.softmax",
        a,
        vec![t(F16, &[2, 8])],
        vec![ty(F16, &[2, 8])],
    ));
    v.push(case(
        "dit.broadcast",
        none(),
        vec![t(F16, &[1, 8])],
        vec![ty(F16, &[4, 8])],
    ));
    let a = attrs(&[("perm", AttrValue::Ints(vec![1, 0]))]);
    v.push(case(
        "dit.transpose",
        a,
        vec![t(F16, &[2, 3])],
        vec![ty(F16, &[3, 2])],
    ));
    let a = attrs(&[
        ("dim", AttrValue::Int(1)),
        ("start", AttrValue::Int(0)),
        ("end", AttrValue::Int(4)),
        ("step", AttrValue::Int(2)),
    ]);
    v.push(case(
        "dit.slice",
        a,
        vec![t(F16, &[2, 8])],
        vec![ty(F16, &[2, 2])],
    ));
    let a = attrs(&[
        ("dim", AttrValue::Int(1)),
        ("sizes", AttrValue::Ints(vec![3, 5])),
    ]);
    v.push(case(
        "dit.split",
        a,
        vec![t(F16, &[2, 8])],
        vec![ty(F16, &[2, 3]), ty(F16, &[2, 5])],
    ));
    let a = attrs(&[("dim", AttrValue::Int(0))]);
    v.push(case(
        "dit.concat",
        a,
        vec![t(F16, &[2, 4]), t(F16, &[3, 4])],
        vec![ty(F16, &[5, 4])],
    ));
    let a = attrs(&[
        ("transpose_a", AttrValue::Bool(false)),
        ("transpose_b", AttrValue::Bool(true)),
    ]);
    v.push(case(
        "dit.matmul",
        a,
        vec![t(F16, &[2, 3, 4]), t(F16, &[2, 5, 4])],
        vec![ty(F16, &[2, 3, 5])],
    ));
    v.push(case(
        "dit.linear",
        none(),
        vec![t(F16, &[2, 3, 4]), t(F16, &[5, 4]), None],
        vec![ty(F16, &[2, 3, 5])],
    ));
    v.push(case(
        "dit.linear",
        none(),
        vec![t(F16, &[2, 3, 4]), t(F16, &[5, 4]), t(F16, &[5])],
        vec![ty(F16, &[2, 3, 5])],
    ));
    let a = attrs(&[("epsilon", AttrValue::Float(1e-6))]);
    v.push(case(
        "dit.rms_norm",
        a,
        vec![t(F16, &[2, 3, 8]), t(F16, &[8])],
        vec![ty(F16, &[2, 3, 8])],
    ));
    let a = attrs(&[("epsilon", AttrValue::Float(1e-5))]);
    v.push(case(
        "dit.layer_norm",
        a,
        vec![t(F32, &[2, 8]), t(F32, &[8]), t(F32, &[8])],
        vec![ty(F32, &[2, 8])],
    ));
    let a = attrs(&[("mode", s("interleave"))]);
    v.push(case(
        "dit.rope",
        a,
        vec![
            t(F16, &[1, 2, 4, 8]),
            t(F16, &[1, 1, 4, 8]),
            t(F16, &[1, 1, 4, 8]),
        ],
        vec![ty(F16, &[1, 2, 4, 8])],
    ));
    // FusedInferAttentionScoreV2 on the A2, V5 on the 950.
    for soc in [A2, A5] {
        let a = attrs(&[("scale", AttrValue::Float(0.35))]);
        v.push(
            case(
                "dit.attention",
                a,
                vec![
                    t(F16, &[1, 2, 4, 8]),
                    t(F16, &[1, 2, 6, 8]),
                    t(F16, &[1, 2, 6, 8]),
                    None,
                ],
                vec![ty(F16, &[1, 2, 4, 8])],
            )
            .on(soc),
        );
    }
    // An additive mask is pseShift: 4-d (1, N, Q_S, KV_S) of q's dtype.
    for soc in [A2, A5] {
        let a = attrs(&[
            ("scale", AttrValue::Float(0.35)),
            ("mask_kind", s("additive")),
            ("operandSegmentSizes", AttrValue::Ints(vec![1, 1, 1, 1])),
        ]);
        v.push(
            case(
                "dit.attention",
                a,
                vec![
                    t(F16, &[1, 2, 4, 8]),
                    t(F16, &[1, 2, 6, 8]),
                    t(F16, &[1, 2, 6, 8]),
                    t(F16, &[1, 2, 4, 6]),
                ],
                vec![ty(F16, &[1, 2, 4, 8])],
            )
            .on(soc),
        );
    }
    // causal = true is sparseMode 2 with the runtime's 2048x2048 attenMask (Q_S 4 != KV_S 6).
    for soc in [A2, A5] {
        let a = attrs(&[
            ("scale", AttrValue::Float(0.35)),
            ("causal", AttrValue::Bool(true)),
            ("operandSegmentSizes", AttrValue::Ints(vec![1, 1, 1, 0])),
        ]);
        v.push(
            case(
                "dit.attention",
                a,
                vec![
                    t(F16, &[1, 2, 4, 8]),
                    t(F16, &[1, 2, 6, 8]),
                    t(F16, &[1, 2, 6, 8]),
                    None,
                ],
                vec![ty(F16, &[1, 2, 4, 8])],
            )
            .on(soc),
        );
    }
    v.push(case(
        "dit.dynamic_quant",
        none(),
        vec![t(F16, &[4, 16]), None],
        vec![ty(I8, &[4, 16]), ty(F32, &[4])],
    ));
    let qmm = |group: i64| {
        attrs(&[
            ("transpose_x1", AttrValue::Bool(false)),
            ("transpose_x2", AttrValue::Bool(true)),
            ("group_size", AttrValue::Int(group)),
        ])
    };
    for group in [0, 256] {
        v.push(case(
            "dit.quant_matmul",
            qmm(group),
            vec![
                t(I8, &[4, 64]),
                t(I8, &[128, 64]),
                t(F32, &[128]),
                None,
                None,
                t(F32, &[4]),
            ],
            vec![ty(F16, &[4, 128])],
        ));
    }
    // x2 as FRACTAL_NZ (aclnnQuantMatmulWeightNz); [128, 64] int8 fills whole fractals.
    let mut nz = qmm(0);
    nz.insert("x2_format".into(), s("FRACTAL_NZ"));
    v.push(case(
        "dit.quant_matmul",
        nz,
        vec![
            t(I8, &[4, 64]),
            t(I8, &[128, 64]),
            t(F32, &[128]),
            None,
            None,
            t(F32, &[4]),
        ],
        vec![ty(F16, &[4, 128])],
    ));
    let a = attrs(&[("group_list_type", s("count"))]);
    v.push(case(
        "dit.grouped_matmul",
        a,
        vec![
            t(F16, &[6, 8]),
            t(F16, &[2, 8, 4]),
            t(I64, &[2]),
            None,
            None,
            None,
        ],
        vec![ty(F16, &[6, 4])],
    ));
    // MoE routing and indexing; index operands hold valid indices (the byte pattern of `t`
    // would be out of range).
    let idx = |values: &[i64]| Some(Tensor::from_i64(I64, &[values.len()], values).expect("fits"));
    let int = AttrValue::Int;
    let flag = AttrValue::Bool;
    v.push(case(
        "dit.topk",
        attrs(&[
            ("k", int(2)),
            ("dim", int(-1)),
            ("largest", flag(true)),
            ("sorted", flag(true)),
        ]),
        vec![t(BF16, &[4, 4])],
        vec![ty(BF16, &[4, 2]), ty(I64, &[4, 2])],
    ));
    v.push(case(
        "dit.sort",
        attrs(&[
            ("dim", int(0)),
            ("descending", flag(false)),
            ("stable", flag(true)),
        ]),
        vec![idx(&[3, 1, 2, 1])],
        vec![ty(I64, &[4]), ty(I64, &[4])],
    ));
    v.push(case(
        "dit.cumsum",
        attrs(&[("dim", int(0))]),
        vec![idx(&[3, 1, 2, 1])],
        vec![ty(I64, &[4])],
    ));
    v.push(case(
        "dit.floor_div",
        none(),
        vec![idx(&[7, -7, 6, 1]), idx(&[2])],
        vec![ty(I64, &[4])],
    ));
    v.push(case(
        "dit.index_select",
        attrs(&[("dim", int(0))]),
        vec![t(F16, &[3, 8]), idx(&[2, 0, 0, 1])],
        vec![ty(F16, &[4, 8])],
    ));
    v.push(case(
        "dit.scatter_add",
        attrs(&[("dim", int(0))]),
        vec![idx(&[0, 0, 0]), idx(&[2, 0, 2, 1]), idx(&[1, 1, 1, 1])],
        vec![ty(I64, &[3])],
    ));
    // INT32 ids: what the kernel takes on Atlas A2/A3 (rule moe_init_routing_v2.expert_idx_dtype);
    // INT32 tokens per expert: what it writes (rule moe_init_routing_v2.tokens_dtype).
    let experts = Some(Tensor::from_i64(I32, &[3, 2], &[1, 2, 0, 2, 2, 0]).expect("fits"));
    v.push(case(
        "dit.moe_init_routing",
        attrs(&[("num_experts", int(3)), ("expert_tokens", s("cumsum"))]),
        vec![t(BF16, &[3, 8]), experts],
        vec![ty(BF16, &[6, 8]), ty(I32, &[6]), ty(I32, &[3])],
    ));
    let rows = Some(Tensor::from_i64(I32, &[6], &[2, 3, 0, 4, 5, 1]).expect("fits"));
    v.push(case(
        "dit.moe_finalize_routing",
        none(),
        vec![t(BF16, &[6, 8]), rows, t(BF16, &[3, 2])],
        vec![ty(BF16, &[3, 8])],
    ));
    // The MoE router, without and with finishedOptional (BOOL [T]).
    let gating = || attrs(&[("k", int(2))]);
    let gating_results = || vec![ty(BF16, &[3, 2]), ty(I32, &[3, 2]), ty(I32, &[3, 2])];
    v.push(case(
        "dit.moe_gating_topk_softmax",
        gating(),
        vec![t(BF16, &[3, 4]), None],
        gating_results(),
    ));
    v.push(case(
        "dit.moe_gating_topk_softmax",
        gating(),
        vec![t(BF16, &[3, 4]), t(DType::I1, &[3])],
        gating_results(),
    ));
    v.push(case(
        "dit.index_add",
        attrs(&[("dim", int(0))]),
        vec![t(F16, &[3, 8]), idx(&[2, 0, 2, 1]), t(F16, &[4, 8])],
        vec![ty(F16, &[3, 8])],
    ));
    let a = attrs(&[("scale", AttrValue::Float(0.5))]);
    v.push(case(
        "dit.muls_add",
        a,
        vec![t(F16, &[1, 8]), t(F16, &[2, 8])],
        vec![ty(F16, &[2, 8])],
    ));
    let a = attrs(&[("epsilon", AttrValue::Float(1e-6))]);
    v.push(case(
        "dit.ada_layer_norm",
        a,
        vec![t(BF16, &[2, 3, 8]), t(BF16, &[2, 8]), t(BF16, &[2, 8])],
        vec![ty(BF16, &[2, 3, 8])],
    ));
    let a = attrs(&[("approximate", s("gelu_tanh"))]);
    v.push(case(
        "dit.quant_matmul_gelu",
        a,
        vec![
            t(I8, &[4, 64]),
            t(I8, &[64, 128]),
            t(F32, &[4]),
            t(F32, &[128]),
            None,
        ],
        vec![ty(BF16, &[4, 128])],
    ));
    // An nn.Linear weight [N, K] with transpose_x2: passed as the transposed view [K, N].
    let a = attrs(&[
        ("approximate", s("gelu_erf")),
        ("transpose_x2", AttrValue::Bool(true)),
    ]);
    v.push(case(
        "dit.quant_matmul_gelu",
        a,
        vec![
            t(I8, &[4, 64]),
            t(I8, &[128, 64]),
            t(F32, &[4]),
            t(F32, &[128]),
            None,
        ],
        vec![ty(BF16, &[4, 128])],
    ));
    let a = attrs(&[("fused_op_type", s("add"))]);
    v.push(
        case(
            "dit.fused_matmul",
            a,
            vec![t(F16, &[4, 8]), t(F16, &[8, 16]), None, t(F16, &[4, 16])],
            vec![ty(F16, &[4, 16])],
        )
        .on(A5),
    );
    // v1 is the WeightNZ kernel on the A2 (the weight [2, 16, 32] int8 fills whole NZ
    // fractals) and aclnnGroupedMatmulSwigluQuant on the 950; v2 runs on both.
    for (variant, soc) in [("v1", A2), ("v1", A5), ("v2", A2)] {
        let a = attrs(&[("variant", s(variant))]);
        v.push(
            case(
                "dit.grouped_matmul_swiglu_quant",
                a,
                vec![
                    t(I8, &[6, 16]),
                    t(I8, &[2, 16, 32]),
                    t(I64, &[2]),
                    t(F32, &[2, 32]),
                    t(F32, &[6]),
                    None,
                    None,
                ],
                vec![ty(I8, &[6, 16]), ty(F32, &[6]), ty(F32, &[6])],
            )
            .on(soc),
        );
    }
    let a = attrs(&[("dim", AttrValue::Int(-1))]);
    v.push(case(
        "dit.swiglu",
        a,
        vec![t(F32, &[2, 8])],
        vec![ty(F32, &[2, 4])],
    ));
    v.push(case(
        "dit.silu_mul",
        none(),
        vec![t(F16, &[2, 8]), t(F16, &[2, 8])],
        vec![ty(F16, &[2, 8])],
    ));
    let a = attrs(&[("approximate", s("tanh"))]);
    v.push(case(
        "dit.gelu_mul",
        a,
        vec![t(F16, &[2, 8])],
        vec![ty(F16, &[2, 4])],
    ));
    let a = attrs(&[
        ("epsilon", AttrValue::Float(1e-5)),
        ("cache_mode", s("Norm")),
    ]);
    v.push(
        case(
            "dit.kv_rms_norm_rope_cache",
            a,
            vec![
                t(F16, &[2, 1, 3, 576]),
                t(F16, &[512]),
                t(F16, &[2, 1, 3, 64]),
                t(F16, &[2, 1, 3, 64]),
                t(I64, &[2, 3]),
                t(F16, &[2, 1, 8, 64]),
                t(F16, &[2, 1, 8, 512]),
            ],
            vec![ty(F16, &[2, 1, 8, 64]), ty(F16, &[2, 1, 8, 512])],
        )
        .on(A5),
    );
    v
}

/// One logged line: tag (CALL, RUN, ...), symbol, `name=value` fields.
#[derive(Debug, Clone)]
struct Line {
    tag: String,
    symbol: String,
    fields: Vec<(String, String)>,
}

impl Line {
    fn parse(text: &str) -> Line {
        let mut words = text.split(' ');
        let tag = words.next().unwrap_or_default().to_string();
        let symbol = words.next().unwrap_or_default().to_string();
        let fields = words
            .map(|w| {
                let (k, v) = w.split_once('=').unwrap_or((w, ""));
                (k.to_string(), v.to_string())
            })
            .collect();
        Line {
            tag,
            symbol,
            fields,
        }
    }

    fn get(&self, name: &str) -> &str {
        self.fields
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
            .unwrap_or_else(|| panic!("{} has no field {name}: {:?}", self.symbol, self.fields))
    }

    /// The argument fields of a CALL line (all but the trailing ws= and exec=).
    fn args(&self) -> &[(String, String)] {
        &self.fields[..self.fields.len().saturating_sub(2)]
    }
}

/// The kind a logged value shows, or None for `null`.
fn logged_kind(value: &str) -> Option<Kind> {
    Some(match value {
        "null" => return None,
        v if v.starts_with("T{") => Kind::Tensor,
        v if v.starts_with("L[") => Kind::TensorList,
        v if v.starts_with("S{") => Kind::Scalar,
        v if v.starts_with("A[") => Kind::IntArray,
        v if v.starts_with("I8:") => Kind::Int8,
        v if v.starts_with("I:") => Kind::Int64,
        v if v.starts_with("B:") => Kind::Bool,
        v if v.starts_with("D:") => Kind::Double,
        v if v.starts_with("E:") => Kind::DataType,
        v if v.starts_with("C:") => Kind::Str,
        v => panic!("unparsed logged value {v}"),
    })
}

/// Launches `c` and returns its results and the protocol lines it added (memory traffic,
/// MALLOC, FREE and MEMCPY, left out).
fn run(
    standin: &Standin,
    backend: &mut CannBackend,
    c: &Case,
) -> (Result<Vec<Tensor>, RuntimeError>, Vec<Line>) {
    std::env::set_var("DIT_CANN_STANDIN_SOC", c.soc);
    let before = standin.lines().len();
    let inputs: Vec<Option<&Tensor>> = c.inputs.iter().map(Option::as_ref).collect();
    let out = backend.launch(c.op, &c.attrs, &inputs, &c.results);
    let lines = standin.lines()[before..]
        .iter()
        .map(|l| Line::parse(l))
        .filter(|l| !matches!(l.tag.as_str(), "MALLOC" | "FREE" | "MEMCPY"))
        .collect();
    (out, lines)
}

/// Checks the logged sequence of one launch against its table entry.
fn check_protocol(c: &Case, lines: &[Line]) {
    let errors: Vec<&Line> = lines.iter().filter(|l| l.tag == "ERROR").collect();
    assert!(errors.is_empty(), "{}: stand-in errors {errors:?}", c.op);
    let present: Vec<bool> = c.inputs.iter().map(Option::is_some).collect();
    let spec = c.spec();
    let calls = spec.calls();
    // An in-place ("Ref") result is the operand copied into the result's memory on the
    // device first: one aclnnInplaceCopy per InOut argument.
    let copies = |l: &&Line| l.symbol.starts_with("aclnnInplaceCopy");
    let in_out = calls
        .iter()
        .flat_map(|c| c.args)
        .filter(|a| matches!(a, Arg::InOut { .. }))
        .count();
    assert_eq!(lines.iter().filter(copies).count(), 2 * in_out, "{}", c.op);
    let lines: Vec<Line> = lines.iter().filter(|l| !copies(l)).cloned().collect();
    // CALL_1 RUN_1 ... CALL_n RUN_n SYNC: phase one before phase two, one sync at the end.
    let tags: Vec<&str> = lines.iter().map(|l| l.tag.as_str()).collect();
    let mut want: Vec<&str> = calls.iter().flat_map(|_| ["CALL", "RUN"]).collect();
    want.push("SYNC");
    assert_eq!(tags, want, "{}: call sequence", c.op);
    for (k, call) in calls.iter().enumerate() {
        let (first, second) = (&lines[2 * k], &lines[2 * k + 1]);
        assert_eq!(first.symbol, call.workspace_symbol(), "{}", c.op);
        assert_eq!(second.symbol, call.symbol, "{}", c.op);
        // Same executor, and the workspace phase one asked for.
        assert_eq!(first.get("exec"), second.get("exec"), "{}: executor", c.op);
        assert_eq!(
            second.get("wsptr") == "(nil)",
            second.get("ws") == "0",
            "{}",
            c.op
        );
        assert_eq!(
            first.get("ws"),
            second.get("ws"),
            "{}: workspace size",
            c.op
        );
        // The stand-in's hand-written prototype and the table agree on arity and kinds.
        let logged = first.args();
        assert_eq!(
            logged.len(),
            call.args.len(),
            "{}: arity of {}",
            c.op,
            call.symbol
        );
        for ((name, value), arg) in logged.iter().zip(call.args) {
            match logged_kind(value) {
                Some(kind) => assert_eq!(kind, arg.kind(), "{}: {} {name}", c.op, call.symbol),
                None => {
                    let may_be_null = match *arg {
                        Arg::Null(_) => true,
                        Arg::OptionalInput(slot, _)
                        | Arg::TensorList(List::OptionalInput(slot)) => {
                            !present.get(slot).copied().unwrap_or(false)
                        }
                        _ => false,
                    };
                    assert!(may_be_null, "{}: {} {name} is null", c.op, call.symbol);
                }
            }
        }
    }
}

#[test]
fn every_kernel_in_the_table_runs_through_the_standin() {
    let _serial = serial();
    let standin = Standin::build();
    let mut backend = standin.backend();
    let mut covered = BTreeSet::new();
    for c in cases() {
        let (out, lines) = run(&standin, &mut backend, &c);
        let out = out.unwrap_or_else(|e| panic!("{}: {e}", c.op));
        check_protocol(&c, &lines);
        assert_eq!(out.len(), c.results.len(), "{}", c.op);
        for (o, r) in out.iter().zip(&c.results) {
            assert_eq!((o.dtype, &o.shape), (r.dtype, &r.shape), "{}", c.op);
            assert_eq!(o.data.len(), r.dtype.storage_bytes(r.numel()), "{}", c.op);
        }
        // Every device buffer, CANN object and executor of the launch is gone; only the one
        // workspace the backend keeps for later calls stays.
        assert_eq!(
            standin.live_objects(),
            vec![kept(&backend), 0, 0],
            "{}: leaked objects",
            c.op
        );
        let spec = c.spec();
        covered.insert(KERNELS.iter().position(|k| k == spec).expect("in table"));
    }
    for (i, k) in KERNELS.iter().enumerate() {
        if !k.calls().is_empty() {
            assert!(
                covered.contains(&i),
                "entry {i} ({} → {}) has no case",
                k.op,
                k.calls()[0].symbol
            );
        }
    }
}

/// Device allocations a backend keeps between calls: its workspace, once one was needed, and
/// its resident constants (the causal attenMask, once a causal attention ran).
fn kept(backend: &CannBackend) -> i64 {
    let stats = backend.stats();
    i64::from(stats.workspace_allocations > 0) + stats.resident_constants as i64
}

/// The logged CALL line of `symbol` in a launch.
fn call_line<'a>(lines: &'a [Line], symbol: &str) -> &'a Line {
    let name = format!("{symbol}GetWorkspaceSize");
    lines
        .iter()
        .find(|l| l.tag == "CALL" && l.symbol == name)
        .unwrap_or_else(|| panic!("no CALL {name}"))
}

fn double(value: &str) -> f64 {
    value
        .strip_prefix("D:")
        .expect("a double")
        .parse()
        .expect("a number")
}

#[test]
fn attributes_views_and_dtypes_reach_aclnn_encoded_as_documented() {
    let _serial = serial();
    let standin = Standin::build();
    let mut backend = standin.backend();
    let all = cases();
    let find = |op: &str, pick: &dyn Fn(&Case) -> bool| {
        all.iter()
            .find(|c| c.op == op && pick(c))
            .unwrap_or_else(|| panic!("no case {op}"))
    };
    let mut launch = |c: &Case| {
        let (out, lines) = run(&standin, &mut backend, c);
        (out.unwrap_or_else(|e| panic!("{}: {e}", c.op)), lines)
    };

    // RMSNorm: epsilon as a double; rstdOut an f32 temporary with gamma's dims set to 1.
    let (_, lines) = launch(find("dit.rms_norm", &|_| true));
    let l = call_line(&lines, "aclnnRmsNorm");
    assert_eq!(double(l.get("epsilon")), 1e-6);
    assert_eq!(
        l.get("x"),
        "T{dt=1,fmt=2,view=[2,3,8],stride=[24,8,1],off=0,storage=[2,3,8]}"
    );
    assert_eq!(
        l.get("rstdOut"),
        "T{dt=0,fmt=2,view=[2,3,1],stride=[3,1,1],off=0,storage=[2,3,1]}"
    );
    assert_eq!(l.get("ws"), "512");

    // GELU: "none" → aclnnGelu, "tanh" → aclnnGeluV2 with approximate = 1.
    let (_, lines) = launch(find("dit.gelu", &|c| c.attrs["approximate"] == s("tanh")));
    assert_eq!(call_line(&lines, "aclnnGeluV2").get("approximate"), "I:1");
    let (_, lines) = launch(find("dit.gelu", &|c| c.attrs["approximate"] == s("none")));
    assert_eq!(call_line(&lines, "aclnnGelu").args().len(), 2);

    // RoPE mode interleave → 1; a simple elementwise kernel asks for no workspace.
    let (_, lines) = launch(find("dit.rope", &|_| true));
    assert_eq!(
        call_line(&lines, "aclnnRotaryPositionEmbedding").get("mode"),
        "I:1"
    );
    let (_, lines) = launch(find("dit.neg", &|_| true));
    assert_eq!(call_line(&lines, "aclnnNeg").get("ws"), "0");

    // matmul transpose_b: b [2,5,4] is seen as [2,4,5] through swapped strides.
    let (_, lines) = launch(find("dit.matmul", &|_| true));
    let l = call_line(&lines, "aclnnMatmul");
    assert_eq!(
        l.get("mat2"),
        "T{dt=1,fmt=2,view=[2,4,5],stride=[20,1,4],off=0,storage=[2,5,4]}"
    );
    assert_eq!(
        l.get("self"),
        "T{dt=1,fmt=2,view=[2,3,4],stride=[12,4,1],off=0,storage=[2,3,4]}"
    );
    assert_eq!(l.get("cubeMathType"), "I8:0");

    // linear with bias: Addmm(bias, x as [6,4], weightᵀ, 1, 1, out as [6,5]).
    let (_, lines) = launch(find("dit.linear", &|c| c.inputs[2].is_some()));
    let l = call_line(&lines, "aclnnAddmm");
    assert_eq!(
        l.get("self"),
        "T{dt=1,fmt=2,view=[5],stride=[1],off=0,storage=[5]}"
    );
    assert_eq!(
        l.get("mat1"),
        "T{dt=1,fmt=2,view=[6,4],stride=[4,1],off=0,storage=[2,3,4]}"
    );
    assert_eq!(
        l.get("mat2"),
        "T{dt=1,fmt=2,view=[4,5],stride=[1,4],off=0,storage=[5,4]}"
    );
    assert_eq!(
        l.get("out"),
        "T{dt=1,fmt=2,view=[6,5],stride=[5,1],off=0,storage=[2,3,5]}"
    );
    assert_eq!(
        (l.get("beta"), l.get("alpha")),
        ("S{dt=0,v=1}", "S{dt=0,v=1}")
    );
    let (_, lines) = launch(find("dit.linear", &|c| c.inputs[2].is_none()));
    assert_eq!(
        call_line(&lines, "aclnnMatmul").get("mat2"),
        "T{dt=1,fmt=2,view=[4,5],stride=[1,4],off=0,storage=[5,4]}"
    );

    // Attention: heads from the BNSD shapes, scale as a double, k/v as one-element lists.
    let (_, lines) = launch(find("dit.attention", &|_| true));
    let l = call_line(&lines, "aclnnFusedInferAttentionScoreV2");
    assert_eq!(l.args().len(), 39);
    assert_eq!(
        (l.get("numHeads"), l.get("numKeyValueHeads")),
        ("I:2", "I:2")
    );
    assert_eq!(double(l.get("scaleValue")), 0.35);
    assert_eq!(l.get("inputLayout"), "C:\"BNSD\"");
    assert_eq!(
        l.get("key"),
        "L[T{dt=1,fmt=2,view=[1,2,6,8],stride=[96,48,8,1],off=0,storage=[1,2,6,8]}]"
    );
    assert_eq!(
        (l.get("attenMaskOptional"), l.get("softmaxLse")),
        ("null", "null")
    );
    assert_eq!(
        (l.get("preTokens"), l.get("softmaxLseFlag")),
        ("I:2147483647", "B:0")
    );
    assert_eq!(l.get("ws"), "65536");
    // BSND: the head count is dim 2.
    let bsnd = case(
        "dit.attention",
        attrs(&[("scale", AttrValue::Float(0.125)), ("layout", s("BSND"))]),
        vec![
            t(F16, &[1, 4, 3, 8]),
            t(F16, &[1, 6, 1, 8]),
            t(F16, &[1, 6, 1, 8]),
            t(I8, &[4, 6]),
        ],
        vec![ty(F16, &[1, 4, 3, 8])],
    );
    let (_, lines) = launch(&bsnd);
    let l = call_line(&lines, "aclnnFusedInferAttentionScoreV2");
    assert_eq!(
        (l.get("numHeads"), l.get("numKeyValueHeads")),
        ("I:3", "I:1")
    );
    assert_eq!(l.get("inputLayout"), "C:\"BSND\"");
    assert_eq!(
        l.get("attenMaskOptional"),
        "T{dt=2,fmt=2,view=[4,6],stride=[6,1],off=0,storage=[4,6]}"
    );

    // Cast and reductions carry the result's aclDataType; a full reduction gives a 0-d tensor.
    let (_, lines) = launch(find("dit.cast", &|_| true));
    assert_eq!(call_line(&lines, "aclnnCast").get("dtype"), "E:1");
    let (_, lines) = launch(find("dit.reduce_sum", &|_| true));
    let l = call_line(&lines, "aclnnReduceSum");
    assert_eq!(
        (l.get("dims"), l.get("keepDims"), l.get("dtype")),
        ("A[0,1]", "B:0", "E:0")
    );
    assert_eq!(
        l.get("out"),
        "T{dt=0,fmt=2,view=[],stride=[],off=0,storage=[]}"
    );
    let (_, lines) = launch(find("dit.reduce_mean", &|_| true));
    assert_eq!(call_line(&lines, "aclnnMean").get("keepDim"), "B:1");

    // Layout ops.
    let (_, lines) = launch(find("dit.split", &|_| true));
    let l = call_line(&lines, "aclnnSplitWithSize");
    assert_eq!((l.get("splitSize"), l.get("dim")), ("A[3,5]", "I:1"));
    assert_eq!(
        l.get("out"),
        concat!(
            "L[T{dt=1,fmt=2,view=[2,3],stride=[3,1],off=0,storage=[2,3]};",
            "T{dt=1,fmt=2,view=[2,5],stride=[5,1],off=0,storage=[2,5]}]"
        )
    );
    let (_, lines) = launch(find("dit.concat", &|_| true));
    let l = call_line(&lines, "aclnnCat");
    assert_eq!(l.get("tensors").matches("T{").count(), 2);
    let (_, lines) = launch(find("dit.broadcast", &|_| true));
    assert_eq!(call_line(&lines, "aclnnExpand").get("size"), "A[4,8]");
    let (_, lines) = launch(find("dit.transpose", &|_| true));
    assert_eq!(call_line(&lines, "aclnnPermute").get("dims"), "A[1,0]");
    let (_, lines) = launch(find("dit.slice", &|_| true));
    let l = call_line(&lines, "aclnnSlice");
    let got: Vec<&str> = ["dim", "start", "end", "step"]
        .iter()
        .map(|k| l.get(k))
        .collect();
    assert_eq!(got, ["I:1", "I:0", "I:4", "I:2"]);

    // Scalars follow the result type: float alpha for f16, int64 alpha for i32.
    let (_, lines) = launch(find("dit.muls_add", &|_| true));
    let l = call_line(&lines, "aclnnAdd");
    assert!(l.get("self").contains("view=[2,8]"), "self is y");
    assert!(l.get("other").contains("view=[1,8]"), "other is x");
    assert_eq!(l.get("alpha"), "S{dt=0,v=0.5}");
    let ints = case(
        "dit.add",
        Attrs::new(),
        vec![t(I32, &[3]), t(I32, &[3])],
        vec![ty(I32, &[3])],
    );
    let (_, lines) = launch(&ints);
    assert_eq!(call_line(&lines, "aclnnAdd").get("alpha"), "S{dt=9,v=1}");

    // Quantised matmuls: dit slots land in aclnn's order; V5 when group_size != 0.
    let (_, lines) = launch(find("dit.quant_matmul", &|c| {
        c.attrs["group_size"] == AttrValue::Int(0)
    }));
    let l = call_line(&lines, "aclnnQuantMatmulV4");
    assert_eq!(
        l.get("pertokenScaleOptional"),
        "T{dt=0,fmt=2,view=[4],stride=[1],off=0,storage=[4]}"
    );
    assert_eq!((l.get("offset"), l.get("bias")), ("null", "null"));
    assert_eq!((l.get("transposeX1"), l.get("transposeX2")), ("B:0", "B:1"));
    let (_, lines) = launch(find("dit.quant_matmul", &|c| {
        c.attrs["group_size"] == AttrValue::Int(256)
    }));
    let l = call_line(&lines, "aclnnQuantMatmulV5");
    assert_eq!(l.get("groupSize"), "I:256");
    assert!(l.get("x2Scale").contains("view=[128]") && l.get("x1Scale").contains("view=[4]"));
    let (_, lines) = launch(find("dit.quant_matmul_gelu", &|_| true));
    let l = call_line(&lines, "aclnnFusedQuantMatmul");
    assert_eq!(
        (l.get("fusedOpType"), l.get("groupSizeOptional")),
        ("C:\"gelu_tanh\"", "I:0")
    );
    assert_eq!(
        l.get("out"),
        "T{dt=27,fmt=2,view=[4,128],stride=[128,1],off=0,storage=[4,128]}"
    );
    let (_, lines) = launch(find("dit.quant_matmul_gelu", &|c| {
        c.attrs.get("transpose_x2") == Some(&AttrValue::Bool(true))
    }));
    let l = call_line(&lines, "aclnnFusedQuantMatmul");
    assert_eq!(
        (l.get("x1"), l.get("x2")),
        (
            "T{dt=2,fmt=2,view=[4,64],stride=[64,1],off=0,storage=[4,64]}",
            "T{dt=2,fmt=2,view=[64,128],stride=[1,64],off=0,storage=[128,64]}"
        ),
        "x2 [N, K] reaches the kernel as its transposed view [K, N]"
    );
    let (_, lines) = launch(find("dit.fused_matmul", &|_| true));
    let l = call_line(&lines, "aclnnFusedMatmul");
    assert_eq!((l.get("fusedOpType"), l.get("bias")), ("C:\"add\"", "null"));

    // Grouped matmuls: single-tensor lists; group_list_type count → 1.
    let (_, lines) = launch(find("dit.grouped_matmul", &|_| true));
    let l = call_line(&lines, "aclnnGroupedMatmulV4");
    let got: Vec<&str> = ["splitItem", "groupType", "groupListType", "actType"]
        .iter()
        .map(|k| l.get(k))
        .collect();
    assert_eq!(got, ["I:3", "I:0", "I:1", "I:0"]);
    assert_eq!(
        l.get("weight"),
        "L[T{dt=1,fmt=2,view=[2,8,4],stride=[32,4,1],off=0,storage=[2,8,4]}]"
    );
    assert_eq!(
        l.get("groupListOptional"),
        "T{dt=9,fmt=2,view=[2],stride=[1],off=0,storage=[2]}"
    );
    assert_eq!(
        l.get("out"),
        "L[T{dt=1,fmt=2,view=[6,4],stride=[4,1],off=0,storage=[6,4]}]"
    );
    let (out, lines) = launch(find("dit.grouped_matmul_swiglu_quant", &|c| {
        c.attrs["variant"] == s("v2")
    }));
    let l = call_line(&lines, "aclnnGroupedMatmulSwigluQuantV2");
    assert!(l.get("weight").starts_with("L[T{dt=2,"));
    assert_eq!(
        (l.get("dequantDtype"), l.get("groupListType")),
        ("I:28", "I:0")
    );
    assert!(
        out[2].data.iter().all(|b| *b == 0),
        "y_offset is zero-filled"
    );
    let (_, lines) = launch(find("dit.grouped_matmul_swiglu_quant", &|c| {
        c.attrs["variant"] == s("v1") && c.soc == A5
    }));
    let l = call_line(&lines, "aclnnGroupedMatmulSwigluQuant");
    assert_eq!(
        l.get("groupList"),
        "T{dt=9,fmt=2,view=[2],stride=[1],off=0,storage=[2]}"
    );

    // Gated activations: strings and dims pass unchanged; silu_mul is Silu into a temporary,
    // then Mul of that temporary.
    let (_, lines) = launch(find("dit.gelu_mul", &|_| true));
    assert_eq!(
        call_line(&lines, "aclnnGeluMul").get("approximateOptional"),
        "C:\"tanh\""
    );
    let (_, lines) = launch(find("dit.swiglu", &|_| true));
    assert_eq!(call_line(&lines, "aclnnSwiGlu").get("dim"), "I:-1");
    let (_, lines) = launch(find("dit.silu_mul", &|_| true));
    let (silu, mul) = (
        call_line(&lines, "aclnnSilu"),
        call_line(&lines, "aclnnMul"),
    );
    assert_eq!(silu.get("out"), mul.get("self"));

    // KV cache: caches are updated in place and returned (the stand-in leaves them as they
    // were, so the bytes come back unchanged); kRopeOut / cKvOut are temporaries.
    let c = find("dit.kv_rms_norm_rope_cache", &|_| true);
    let (out, lines) = launch(c);
    assert_eq!(out[0].data, c.inputs[5].as_ref().unwrap().data);
    assert_eq!(out[1].data, c.inputs[6].as_ref().unwrap().data);
    let l = call_line(&lines, "aclnnKvRmsNormRopeCache");
    assert!(l.get("kRopeOut").contains("view=[2,1,3,64]"));
    assert!(l.get("cKvOut").contains("view=[2,1,3,512]"));
    assert_eq!(
        (l.get("cacheModeOptional"), l.get("isOutputKv")),
        ("C:\"Norm\"", "B:0")
    );
    assert_eq!(double(l.get("epsilon")), 1e-5);
}

#[test]
fn views_run_no_kernel_and_ops_without_one_say_so() {
    let _serial = serial();
    let standin = Standin::build();
    let mut backend = standin.backend();
    let x = t(F32, &[2, 3]);
    let c = case(
        "dit.reshape",
        Attrs::new(),
        vec![x.clone()],
        vec![ty(F32, &[3, 2])],
    );
    let (out, lines) = run(&standin, &mut backend, &c);
    let out = out.expect("reshape");
    assert_eq!(out[0].data, x.as_ref().unwrap().data);
    assert_eq!(out[0].shape, vec![3, 2]);
    assert!(lines.is_empty(), "a view calls nothing: {lines:?}");
    let c = case(
        "dit.bitcast",
        Attrs::new(),
        vec![x.clone()],
        vec![ty(I32, &[2, 3])],
    );
    assert_eq!(
        run(&standin, &mut backend, &c).0.expect("bitcast")[0].dtype,
        I32
    );

    let c = case(
        "dit.opaque",
        attrs(&[("name", s("x.y"))]),
        vec![x.clone()],
        vec![ty(F32, &[2, 3])],
    );
    match run(&standin, &mut backend, &c).0 {
        Err(RuntimeError::Backend(m)) => assert!(m.contains("no aclnn kernel"), "{m}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn failures_surface_with_symbol_and_code_and_release_everything() {
    let _serial = serial();
    let standin = Standin::build();
    let mut backend = standin.backend();

    // A failing phase one: the error names the symbol and the status; nothing leaks.
    std::env::set_var("DIT_CANN_STANDIN_FAIL", "aclnnSoftmax");
    let c = case(
        "dit.softmax",
        attrs(&[("dim", AttrValue::Int(0))]),
        vec![t(F32, &[4])],
        vec![ty(F32, &[4])],
    );
    let result = run(&standin, &mut backend, &c).0;
    std::env::remove_var("DIT_CANN_STANDIN_FAIL");
    match result {
        Err(RuntimeError::Backend(m)) => {
            assert!(
                m.contains("aclnnSoftmaxGetWorkspaceSize") && m.contains("161002"),
                "{m}"
            )
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(standin.live_objects(), vec![kept(&backend), 0, 0]);

    // A failing phase two after another kernel was enqueued: the stream is synchronised
    // before the memory that kernel uses is freed.
    std::env::set_var("DIT_CANN_STANDIN_FAIL_RUN", "aclnnMul");
    let c = case(
        "dit.silu_mul",
        Attrs::new(),
        vec![t(F16, &[4]), t(F16, &[4])],
        vec![ty(F16, &[4])],
    );
    let (result, lines) = run(&standin, &mut backend, &c);
    std::env::remove_var("DIT_CANN_STANDIN_FAIL_RUN");
    match result {
        Err(RuntimeError::Backend(m)) => assert!(
            m.contains("aclnnMul (dit.silu_mul)") && m.contains("161002"),
            "{m}"
        ),
        other => panic!("{other:?}"),
    }
    let tags: Vec<&str> = lines.iter().map(|l| l.tag.as_str()).collect();
    assert_eq!(tags, ["CALL", "RUN", "CALL", "ERROR", "SYNC"]);
    assert_eq!(standin.live_objects(), vec![kept(&backend), 0, 0]);

    // Contract errors, found before anything reaches the device.
    let mut contract = |c: Case, needle: &str| match run(&standin, &mut backend, &c).0 {
        Err(RuntimeError::Contract { message, .. }) => {
            assert!(message.contains(needle), "{message}")
        }
        other => panic!("{}: {other:?}", c.op),
    };
    let v2 = attrs(&[("variant", s("v2"))]);
    let mut inputs = vec![
        t(I8, &[6, 8]),
        t(I8, &[2, 8, 16]),
        t(I64, &[2]),
        t(F32, &[2, 16]),
        t(F32, &[6]),
        None,
    ];
    inputs.push(t(F32, &[2, 16]));
    let results = vec![ty(I8, &[6, 8]), ty(F32, &[6]), ty(F32, &[6])];
    contract(
        case("dit.grouped_matmul_swiglu_quant", v2, inputs, results),
        "'offset'",
    );
    // An attribute value no entry covers.
    let c = case(
        "dit.gelu",
        attrs(&[("approximate", s("sigmoid"))]),
        vec![t(F16, &[4])],
        vec![ty(F16, &[4])],
    );
    contract(c, "no aclnn kernel");
    let bsh = attrs(&[("scale", AttrValue::Float(1.0)), ("layout", s("BSH"))]);
    let a = vec![
        t(F16, &[1, 4, 16]),
        t(F16, &[1, 4, 16]),
        t(F16, &[1, 4, 16]),
        None,
    ];
    contract(
        case("dit.attention", bsh, a, vec![ty(F16, &[1, 4, 16])]),
        "BSH",
    );
    let c = case(
        "dit.linear",
        Attrs::new(),
        vec![t(F16, &[2, 4]), None, None],
        vec![ty(F16, &[2, 5])],
    );
    contract(c, "'weight' is required");
    let c = case(
        "dit.rms_norm",
        Attrs::new(),
        vec![t(F16, &[2, 8]), t(F16, &[8])],
        vec![ty(F16, &[2, 8])],
    );
    contract(c, "epsilon");
    let mut short = t(F16, &[2, 8]);
    short.as_mut().unwrap().data.pop();
    contract(
        case("dit.neg", Attrs::new(), vec![short], vec![ty(F16, &[2, 8])]),
        "bytes",
    );
    assert_eq!(standin.live_objects(), vec![kept(&backend), 0, 0]);
    assert!(standin
        .lines()
        .iter()
        .all(|l| !l.starts_with("CALL aclnnNeg")));

    match backend.launch("dit.nonsense", &Attrs::new(), &[], &[]) {
        Err(RuntimeError::UnknownOp(op)) => assert_eq!(op, "dit.nonsense"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn load_and_drop_follow_the_acl_lifecycle() {
    let _serial = serial();
    let standin = Standin::build();
    let backend = standin.backend();
    assert_eq!(backend.library_dirs()[2], standin.dir.path());
    assert_eq!(standin.lines(), ["INIT", "SET_DEVICE 0", "CREATE_STREAM"]);
    drop(backend);
    assert_eq!(
        standin.lines()[3..],
        ["DESTROY_STREAM", "RESET_DEVICE 0", "FINALIZE live_device=0"]
    );
}

#[test]
fn load_without_cann_names_ascend_home_path() {
    let _serial = serial();
    let empty = tempfile::tempdir().expect("tempdir");
    match CannBackend::load(Some(empty.path())) {
        Ok(_) => panic!("an empty directory loaded as CANN"),
        Err(RuntimeError::Backend(m)) => {
            assert!(m.starts_with("CANN not found: set ASCEND_HOME_PATH"), "{m}");
            assert!(m.contains("libascendcl.so"), "{m}");
            assert!(m.contains(&empty.path().display().to_string()), "{m}");
        }
        Err(other) => panic!("{other:?}"),
    }
}
