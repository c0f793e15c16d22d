//! The CPU model of Ascend C enforces the rules the hardware does not forgive (UB size,
//! alignment, queue discipline, counts, GM bounds, scalar/vector ordering) and converts like
//! the hardware; and a tile that does not fit the UB is refused by the generator and by the
//! model.

mod common;

use dit_ascendc::TargetSpec;
use dit_runtime::DType;
use std::ffi::{c_char, CStr};
use std::path::Path;
use std::process::Command;

/// Kernels that each break one rule (and one that breaks none), behind C entry points that
/// return the model's message ("" when the launch succeeded).
const RULES: &str = r#"
#include "kernel_operator.h"
#include <string>
using namespace AscendC;

static std::string g_err;
template <typename F> static const char *Run(F f)
{
    char err[2048];
    g_err = AscendC::Model::Launch(1, DIT_UB_BYTES, f, err, sizeof err) ? err : "";
    return g_err.c_str();
}

extern "C" const char *ub_overflow()
{
    return Run([] { TPipe pipe; TQue<TPosition::VECIN, 2> q; TBuf<TPosition::VECCALC> b;
                    pipe.InitBuffer(q, 2, 64 * 1024); pipe.InitBuffer(b, 65 * 1024); });
}
extern "C" const char *deque_without_enque()
{
    return Run([] { TPipe pipe; TQue<TPosition::VECIN, 2> q; pipe.InitBuffer(q, 2, 256); q.DeQue<float>(); });
}
extern "C" const char *alloc_exhausted()
{
    return Run([] { TPipe pipe; TQue<TPosition::VECIN, 2> q; pipe.InitBuffer(q, 2, 256);
                    q.AllocTensor<float>(); q.AllocTensor<float>(); q.AllocTensor<float>(); });
}
extern "C" const char *enque_past_depth()
{
    return Run([] { TPipe pipe; TQue<TPosition::VECIN, 1> q; pipe.InitBuffer(q, 2, 256);
                    q.EnQue(q.AllocTensor<float>()); q.EnQue(q.AllocTensor<float>()); });
}
extern "C" const char *use_after_free()
{
    return Run([] { TPipe pipe; TQue<TPosition::VECOUT, 2> q; pipe.InitBuffer(q, 2, 256);
                    LocalTensor<float> t = q.AllocTensor<float>(); q.FreeTensor(t); Duplicate(t, 1.0f, 8); });
}
extern "C" const char *vector_on_enqueued()
{
    return Run([] { TPipe pipe; TQue<TPosition::VECOUT, 2> q; pipe.InitBuffer(q, 2, 256);
                    LocalTensor<float> t = q.AllocTensor<float>(); q.EnQue(t); Duplicate(t, 1.0f, 8); });
}
extern "C" const char *read_vecin_before_deque()
{
    return Run([] { TPipe pipe; TQue<TPosition::VECIN, 2> q; TBuf<TPosition::VECCALC> b;
                    pipe.InitBuffer(q, 2, 256); pipe.InitBuffer(b, 256);
                    LocalTensor<float> t = q.AllocTensor<float>(); LocalTensor<float> c = b.Get<float>();
                    Adds(c, t, 1.0f, 8); });
}
extern "C" const char *unaligned_vector()
{
    return Run([] { TPipe pipe; TBuf<TPosition::VECCALC> b; pipe.InitBuffer(b, 1024);
                    LocalTensor<float> t = b.Get<float>(); Add(t[1], t[16], t[32], 8); });
}
extern "C" const char *unaligned_data_copy()
{
    static float gm[64];
    return Run([] { TPipe pipe; TQue<TPosition::VECIN, 2> q; pipe.InitBuffer(q, 2, 256);
                    GlobalTensor<float> g; g.SetGlobalBuffer(gm, 64);
                    DataCopy(q.AllocTensor<float>(), g, 7); });
}
extern "C" const char *count_past_tensor()
{
    return Run([] { TPipe pipe; TBuf<TPosition::VECCALC> b; pipe.InitBuffer(b, 64);
                    LocalTensor<float> t = b.Get<float>(); Add(t, t, t, 32); });
}
extern "C" const char *gm_out_of_bounds()
{
    static float gm[16];
    return Run([] { TPipe pipe; TQue<TPosition::VECIN, 2> q; pipe.InitBuffer(q, 2, 256);
                    GlobalTensor<float> g; g.SetGlobalBuffer(gm, 16);
                    DataCopyPad(q.AllocTensor<float>(), g[8], DataCopyExtParams(1, 64, 0, 0, 0),
                                DataCopyPadExtParams<float>(false, 0, 0, 0)); });
}
extern "C" const char *get_value_without_sync()
{
    return Run([] { TPipe pipe; TBuf<TPosition::VECCALC> b; pipe.InitBuffer(b, 256);
                    LocalTensor<float> t = b.Get<float>(); Duplicate(t, 1.0f, 8); (void)t.GetValue(0); });
}
extern "C" const char *after_reset()
{
    return Run([] { TPipe pipe; TBuf<TPosition::VECCALC> b; pipe.InitBuffer(b, 256);
                    LocalTensor<float> t = b.Get<float>(); pipe.Reset(); Duplicate(t, 1.0f, 8); });
}
extern "C" const char *wait_without_set()
{
    return Run([] { TPipe pipe; WaitFlag<HardEvent::V_S>(0); });
}
/* Everything by the rules: copy in, compute, copy out, sync, scalar read. */
extern "C" const char *by_the_rules()
{
    static float in[40], out[40];
    for (int i = 0; i < 40; i++) in[i] = float(i);
    const char *e = Run([] {
        TPipe pipe; TQue<TPosition::VECIN, 2> qi; TQue<TPosition::VECOUT, 2> qo; TBuf<TPosition::VECCALC> w;
        pipe.InitBuffer(qi, 2, 40 * 4); pipe.InitBuffer(qo, 2, 40 * 4); pipe.InitBuffer(w, 64);
        GlobalTensor<float> gi, go; gi.SetGlobalBuffer(in, 40); go.SetGlobalBuffer(out, 40);
        LocalTensor<float> a = qi.AllocTensor<float>();
        DataCopyPad(a, gi, DataCopyExtParams(1, 40 * 4, 0, 0, 0), DataCopyPadExtParams<float>(false, 0, 0, 0));
        qi.EnQue(a);
        LocalTensor<float> x = qi.DeQue<float>();
        LocalTensor<float> y = qo.AllocTensor<float>();
        Muls(y, x, 2.0f, 40);
        LocalTensor<float> s = w.Get<float>();
        ReduceSum(s, x, s[8], 40);
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev); WaitFlag<HardEvent::V_S>(ev);
        if (s.GetValue(0) != 780.0f) Fail("ReduceSum");
        qo.EnQue(y); qi.FreeTensor(x);
        LocalTensor<float> z = qo.DeQue<float>();
        DataCopyPad(go, z, DataCopyExtParams(1, 40 * 4, 0, 0, 0));
        qo.FreeTensor(z);
    });
    if (*e) return e;
    for (int i = 0; i < 40; i++) if (out[i] != 2.0f * i) return "wrong result";
    return "";
}
extern "C" const char *repeat_mask_too_wide()
{
    return Run([] { TPipe pipe; TBuf<TPosition::VECCALC> b; pipe.InitBuffer(b, 1024);
                    LocalTensor<float> t = b.Get<float>(); Add(t, t, t, 65, 1, BinaryRepeatParams()); });
}
extern "C" const char *repeat_past_tensor()
{
    return Run([] { TPipe pipe; TBuf<TPosition::VECCALC> b; pipe.InitBuffer(b, 1024);
                    LocalTensor<float> t = b.Get<float>();
                    Mul(t, t, t[192], 64, 5, BinaryRepeatParams(1, 1, 1, 8, 8, 0)); });
}
/* The repeat form with a shared operand: rows of 16 floats (2 blocks apart) times one row
 * (repeat stride 0), 12 of the 16 columns (mask), the rest untouched. */
extern "C" const char *repeat_broadcast()
{
    static std::string bad;
    const char *e = Run([] {
        TPipe pipe; TBuf<TPosition::VECCALC> b; pipe.InitBuffer(b, 4 * 64 * 4);
        LocalTensor<float> t = b.Get<float>();
        LocalTensor<float> x = t, s = t[64], y = t[128];
        for (int i = 0; i < 48; i++) x.SetValue(i, float(i));
        for (int j = 0; j < 16; j++) s.SetValue(j, float(j % 4) + 1.0f);
        for (int i = 0; i < 48; i++) y.SetValue(i, -7.0f);
        event_t ev = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(ev); WaitFlag<HardEvent::S_V>(ev);
        Mul(y, x, s, 12, 3, BinaryRepeatParams(1, 1, 1, 2, 2, 0));
        event_t ev2 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));
        SetFlag<HardEvent::V_S>(ev2); WaitFlag<HardEvent::V_S>(ev2);
        for (int r = 0; r < 3; r++)
            for (int j = 0; j < 16; j++) {
                float want = j < 12 ? float(r * 16 + j) * (float(j % 4) + 1.0f) : -7.0f;
                if (y.GetValue(r * 16 + j) != want) bad = "wrong element " + std::to_string(r * 16 + j);
            }
    });
    if (*e) return e;
    return bad.c_str();
}
extern "C" uint16_t bf16_bits(float f) { return bfloat16_t(f).bits; }
extern "C" uint16_t f16_bits(float f) { return half(f).bits; }
extern "C" float f16_value(uint16_t b) { half h; h.bits = b; return float(h); }
"#;

type Rule = unsafe extern "C" fn() -> *const c_char;

fn build_rules(dir: &Path) -> libloading::Library {
    std::fs::write(
        dir.join("kernel_operator.h"),
        dit_ascendc::KERNEL_OPERATOR_H,
    )
    .unwrap();
    std::fs::write(dir.join("rules.cpp"), RULES).unwrap();
    let lib = dir.join("librules.so");
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".into());
    let out = Command::new(cxx)
        .args(["-std=c++17", "-O0", "-shared", "-fPIC", "-I"])
        .arg(dir)
        .arg(dir.join("rules.cpp"))
        .arg("-o")
        .arg(&lib)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // SAFETY: a test library of plain functions.
    unsafe { libloading::Library::new(lib) }.unwrap()
}

#[test]
fn the_model_enforces_the_rules() {
    let dir = tempfile::tempdir().unwrap();
    let lib = build_rules(dir.path());
    let cases = [
        ("ub_overflow", "exceed the Unified Buffer's 196608 bytes"),
        ("deque_without_enque", "with nothing enqueued"),
        ("alloc_exhausted", "FreeTensor is missing"),
        ("enque_past_depth", "already holds its depth of 1"),
        ("use_after_free", "after FreeTensor"),
        ("vector_on_enqueued", "is enqueued"),
        ("read_vecin_before_deque", "read VECIN tensors after DeQue"),
        ("unaligned_vector", "not 32-byte aligned"),
        ("unaligned_data_copy", "28 bytes is not a multiple of 32"),
        (
            "count_past_tensor",
            "count 32 exceeds the tensor's 16 elements",
        ),
        ("gm_out_of_bounds", "leaves the GlobalTensor's 32 bytes"),
        ("get_value_without_sync", "without a V_S SetFlag/WaitFlag"),
        ("after_reset", "before TPipe::Reset"),
        ("wait_without_set", "WaitFlag without a SetFlag"),
        ("repeat_mask_too_wide", "mask 65 outside [1, 64]"),
        (
            "repeat_past_tensor",
            "count 320 exceeds the tensor's 256 elements",
        ),
        ("repeat_broadcast", ""),
        ("by_the_rules", ""),
    ];
    for (name, expected) in cases {
        // SAFETY: each symbol is `const char *f(void)` returning a static string.
        let msg = unsafe {
            let f: libloading::Symbol<Rule> = lib.get(name.as_bytes()).unwrap();
            CStr::from_ptr(f()).to_string_lossy().into_owned()
        };
        if expected.is_empty() {
            assert_eq!(msg, "", "{name}");
        } else {
            assert!(msg.contains(expected), "{name}: {msg:?} lacks {expected:?}");
        }
    }
}

#[test]
fn the_model_rounds_like_the_hardware() {
    let dir = tempfile::tempdir().unwrap();
    let lib = build_rules(dir.path());
    // SAFETY: plain conversion functions.
    let (bf16, f16, f16v) = unsafe {
        (
            *lib.get::<unsafe extern "C" fn(f32) -> u16>(b"bf16_bits")
                .unwrap(),
            *lib.get::<unsafe extern "C" fn(f32) -> u16>(b"f16_bits")
                .unwrap(),
            *lib.get::<unsafe extern "C" fn(u16) -> f32>(b"f16_value")
                .unwrap(),
        )
    };
    let mut rng = dit_runtime::tensor::SplitMix64::new(7);
    let mut values: Vec<f32> = vec![
        0.0,
        -0.0,
        1.0,
        1.0 + 1.0 / 256.0, // a bf16 tie (to even: 1.0)
        1.0 + 3.0 / 512.0, // a bf16 tie (to even: 1.0078125)
        65504.0,
        65520.0,
        1e-8,
        6e-8,
        3e-5,
        -2.5e-7,
        f32::MAX,
        f32::MIN_POSITIVE,
        1.0 + f32::EPSILON,
    ];
    for _ in 0..20000 {
        values.push(f32::from_bits(rng.next_u64() as u32));
    }
    for v in values.into_iter().filter(|v| v.is_finite()) {
        // SAFETY: plain functions of values.
        let (b, h) = unsafe { (bf16(v), f16(v)) };
        assert_eq!(
            u64::from(b),
            DType::BF16.to_bits(f64::from(v)),
            "bf16({v:e})"
        );
        assert_eq!(u64::from(h), DType::F16.to_bits(f64::from(v)), "f16({v:e})");
        // SAFETY: as above.
        let back = unsafe { f16v(h) };
        assert_eq!(
            f64::from(back),
            DType::F16.decode(&h.to_le_bytes(), 0),
            "f16 value of {h:#x}"
        );
    }
}

/// One row of a wide norm does not fit a small UB: the generator refuses it, naming the
/// kernel and the bytes; and a launch whose tiling assumes a bigger UB than the core has is
/// stopped by the model at InitBuffer.
#[test]
fn a_tile_that_does_not_fit_is_rejected() {
    let norm = r#"{"kernel": "fused_wide_norm_0", "body": {
        "args": [{"dtype": "f32", "shape": [300, 1024]}, {"dtype": "f32", "shape": [1024]}],
        "ops": [{"name": "dit.rms_norm", "operands": [0, 1], "attrs": {"epsilon": 1e-6},
                 "results": [{"dtype": "f32", "shape": [300, 1024]}]}],
        "yield": [2]}}"#;
    let small = TargetSpec::new("tiny", 16 * 1024);
    let err = dit_ascendc::generate_from_json(norm, &small).unwrap_err();
    assert!(
        err.contains("kernel fused_wide_norm_0 stage 0: one row needs ")
            && err.contains("the Unified Buffer has 16384"),
        "{err}"
    );
    let group = r#"{"kernel": "fused_wide_0", "body": {
        "args": [{"dtype": "f32", "shape": [300, 1024]}, {"dtype": "f32", "shape": [300, 1024]}],
        "ops": [{"name": "dit.add", "operands": [0, 1], "results": [{"dtype": "f32", "shape": [300, 1024]}]}],
        "yield": [2]}}"#;
    let target = common::target();
    let kernel = dit_ascendc::generate_from_json(group, &target).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let lib =
        dit_ascendc::cpu_model::build(dir.path(), std::slice::from_ref(&kernel), &target).unwrap();
    let lib = dit_ascendc::cpu_model::Library::open(&lib).unwrap();
    let x = vec![0u8; 300 * 1024 * 4];
    let mut y = vec![0u8; 300 * 1024 * 4];
    // The target's UB: 6 rows a tile, fine.
    lib.launch_raw("fused_wide_0", 1, 0, &[&x, &x], &mut [&mut y])
        .unwrap();
    assert_eq!(lib.tiling("fused_wide_0", 1, 0).unwrap()[2], 6);
    // A tiling for four times the UB: 27 rows a tile, which the core cannot hold.
    let err = lib
        .launch_raw("fused_wide_0", 1, 4 * 196608, &[&x, &x], &mut [&mut y])
        .unwrap_err();
    assert!(
        err.contains("exceed the Unified Buffer's 196608 bytes"),
        "{err}"
    );
    // And the host tiling function refuses a UB below one row.
    let err = lib.tiling("fused_wide_0", 1, 20000).unwrap_err();
    assert!(err.contains("one row needs 28672 bytes"), "{err}");
}
