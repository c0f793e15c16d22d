//! Column-window loads: a `dit.split` along the last dim of a kernel input, its pieces read in
//! place from GM (DataCopyPad with the parent's width as the row stride) by the generated
//! kernel, which the CPU model of Ascend C runs against the reference (its UB, alignment and
//! GM-bounds checks included); and the auto-fusion lit tests that open groups with a split.

mod common;

/// Wan2.1's q/k/v case at test size: pieces 0 and 1 of a bf16 `[5, 3, 192]` split normed, piece
/// 2 copied out, all three read as windows of the parent's rows.
const QKV: &str = r#"{"kernel": "fused_window_qkv_0", "body": {
    "args": [{"dtype": "bf16", "shape": [5, 3, 192]}, {"dtype": "bf16", "shape": [64]},
             {"dtype": "bf16", "shape": [64]}],
    "ops": [
      {"name": "dit.split", "operands": [0], "attrs": {"dim": 2, "sizes": [64, 64, 64]},
       "results": [{"dtype": "bf16", "shape": [5, 3, 64]}, {"dtype": "bf16", "shape": [5, 3, 64]},
                   {"dtype": "bf16", "shape": [5, 3, 64]}]},
      {"name": "dit.rms_norm", "operands": [3, 1], "attrs": {"epsilon": 1e-6},
       "results": [{"dtype": "bf16", "shape": [5, 3, 64]}]},
      {"name": "dit.rms_norm", "operands": [4, 2], "attrs": {"epsilon": 1e-6},
       "results": [{"dtype": "bf16", "shape": [5, 3, 64]}]}],
    "yield": [5, 6, 7]}}"#;

#[test]
fn split_pieces_are_strided_loads_that_match_the_reference() {
    let target = common::target();
    let kernel = dit_ascendc::generate_from_json(QKV, &target).unwrap();
    // Piece 1 (columns 64..128): rows of 192 bf16 on GM, bursts of 64 (128 bytes), 128
    // columns (256 bytes) skipped between rows.
    assert!(
        kernel
            .source
            .contains(" * 192 + 64], DataCopyExtParams((uint16_t)n, 128, 256,"),
        "{}",
        kernel.source
    );
    assert!(kernel
        .source
        .contains(" * 192 + 128], DataCopyExtParams((uint16_t)n, 128, 256,"));
    // The plan reads the windows, not whole parent rows: DDR reads are the pieces' bytes
    // (plus the two gammas once per core).
    let st = kernel.stats(target.ub_bytes, target.core_num).unwrap();
    let pieces = 5 * 3 * 192 * 2;
    assert!(
        st.ddr_read_bytes >= pieces && st.ddr_read_bytes < pieces + 2 * 64 * 2 * 40 + 1,
        "{st:?}"
    );
    // Built against the CPU model and run with several core counts and tile sizes.
    common::generate_build_check_for("window_qkv", &[QKV.to_string()], &target);
}

/// The comparison is not vacuous: a kernel that reads piece 1's window one 16-column step too
/// far (a wrong offset) no longer matches the reference.
#[test]
fn a_wrong_window_is_caught() {
    let target = common::target();
    let mut kernel = dit_ascendc::generate_from_json(QKV, &target).unwrap();
    let from = " * 192 + 64]";
    assert!(kernel.source.contains(from));
    kernel.source = kernel.source.replacen(from, " * 192 + 80]", 1);
    let dir = tempfile::tempdir().unwrap();
    let lib = dit_ascendc::cpu_model::build(dir.path(), std::slice::from_ref(&kernel), &target);
    let lib = dit_ascendc::cpu_model::Library::open(&lib.unwrap()).unwrap();
    let inputs = common::inputs(&kernel.fused, 3);
    let refs: Vec<Option<&dit_runtime::Tensor>> = inputs.iter().map(Some).collect();
    let expected = kernel.fused.run_cpu(&refs).unwrap();
    let result = common::check_once(&lib, &kernel, 4, target.ub_bytes as u32, &inputs, &expected);
    assert!(result.is_err(), "the shifted window passed");
}

/// Windows that do not start and end on 32-byte GM blocks, splits of computed values and
/// splits along an outer dim are refused, naming the op.
#[test]
fn unaligned_or_unsupported_splits_are_refused() {
    let body = |arg: &str, sizes: &str, dim: i64, shapes: &str, first_op: &str| {
        format!(
            r#"{{"kernel": "fused_window_bad_0", "body": {{
            "args": [{arg}],
            "ops": [{first_op}{{"name": "dit.split", "operands": [{src}], "attrs": {{"dim": {dim}, "sizes": {sizes}}},
                     "results": {shapes}}}],
            "yield": [{y}]}}}}"#,
            src = if first_op.is_empty() { 0 } else { 1 },
            y = if first_op.is_empty() { 1 } else { 2 },
        )
    };
    let target = common::target();
    // bf16 columns 40..: 80 bytes in.
    let unaligned = body(
        r#"{"dtype": "bf16", "shape": [4, 80]}"#,
        "[40, 40]",
        1,
        r#"[{"dtype": "bf16", "shape": [4, 40]}, {"dtype": "bf16", "shape": [4, 40]}]"#,
        "",
    );
    let e = dit_ascendc::generate_from_json(&unaligned, &target).unwrap_err();
    assert!(
        e.contains("dit.split") && e.contains("32-byte GM blocks"),
        "{e}"
    );
    // f32 columns 8.. are 32 bytes in: taken.
    let aligned = body(
        r#"{"dtype": "f32", "shape": [4, 24]}"#,
        "[8, 16]",
        1,
        r#"[{"dtype": "f32", "shape": [4, 8]}, {"dtype": "f32", "shape": [4, 16]}]"#,
        "",
    );
    dit_ascendc::generate_from_json(&aligned, &target).unwrap();
    let outer = body(
        r#"{"dtype": "f32", "shape": [4, 32]}"#,
        "[2, 2]",
        0,
        r#"[{"dtype": "f32", "shape": [2, 32]}, {"dtype": "f32", "shape": [2, 32]}]"#,
        "",
    );
    let e = dit_ascendc::generate_from_json(&outer, &target).unwrap_err();
    assert!(e.contains("only a split along the last dim"), "{e}");
    let computed = body(
        r#"{"dtype": "f32", "shape": [4, 32]}"#,
        "[16, 16]",
        1,
        r#"[{"dtype": "f32", "shape": [4, 16]}, {"dtype": "f32", "shape": [4, 16]}]"#,
        r#"{"name": "dit.exp", "operands": [0], "results": [{"dtype": "f32", "shape": [4, 32]}]},"#,
    );
    let e = dit_ascendc::generate_from_json(&computed, &target).unwrap_err();
    assert!(e.contains("only a split of a kernel input"), "{e}");
}

/// Every group of test/Transforms/dit-auto-fuse-split.mlir (after --dit-auto-fuse): generated,
/// built against the CPU model and compared with the reference.
#[test]
fn auto_fuse_split_lit_tests() {
    let text = common::read("test/Transforms/dit-auto-fuse-split.mlir");
    let groups = common::fused_groups(&text, "dit-auto-fuse", true);
    let with_split = groups.iter().filter(|g| g.contains("dit.split")).count();
    assert!(with_split >= 3, "the lit tests open groups with a split");
    let (kernels, launches) = common::generate_build_check("dit-auto-fuse-split.mlir", &groups);
    eprintln!("dit-auto-fuse-split.mlir: {kernels} kernels, {launches} launches");
}

/// A window yielded unchanged (QKV's piece 2, output 0) is a pass-through: it moves through one
/// `TQueBind<VECIN, VECOUT>` queue from copy-in to copy-out, with no widen, narrow or VECOUT
/// queue of its own, the UB counts that one queue, and the CPU model (which refuses vector
/// instructions on a bound queue's tensors and enforces its depth and UB) matches the reference
/// bit for bit on it.
#[test]
fn a_yielded_window_moves_through_one_bound_queue() {
    let target = common::target();
    let kernel = dit_ascendc::generate_from_json(QKV, &target).unwrap();
    let l = &kernel.layouts[0];
    let stage = &kernel.plan.stages[0];
    assert_eq!(l.pass_through.len(), 1, "{:?}", l.pass_through);
    let (v, j) = l.pass_through[0];
    assert_eq!(stage.stores[j].output, 0);
    assert!(matches!(
        stage.nodes[v].op,
        dit_ascendc::plan::MicroOp::Load {
            window: Some(dit_ascendc::plan::Window { offset: 128, .. }),
            ..
        }
    ));
    let src = &kernel.source;
    assert!(
        src.contains(&format!(
            "TQueBind<TPosition::VECIN, TPosition::VECOUT, BUFFER_NUM> bindQ{v};"
        )),
        "{src}"
    );
    assert!(src.contains(&format!("o0 = bindQ{v}.DeQue<bfloat16_t>();")));
    assert!(!src.contains("outQ0"), "{src}");
    // Only q and k are rounded back to bf16; the pass-through is never widened.
    assert_eq!(src.matches("RoundMode::CAST_RINT").count(), 2, "{src}");
    assert_eq!(src.matches("TQue<TPosition::VECOUT").count(), 2);
    // UB per tile row, double-buffered: five bf16 queues of 64 elements (q, k in; v bound;
    // q, k out) = 5 x 2 x 128 B, and the VECCALC row of one rms_norm (its row, x², and one
    // 8-float statistic: 64 + 64 + 8 floats = 544 B). Fixed: the two gamma rows in f32 (512 B,
    // staged through q's queue, not the bound one) and the ReduceSum work block (32 B).
    assert_eq!(l.buffer_num, 2);
    assert_eq!(l.calc_row_elems, 136);
    assert_eq!(l.row_bytes, 5 * 2 * 128 + 544);
    assert_eq!(l.fixed_bytes, 512 + 32);
    assert_ne!(l.staging_queue, Some(v));
    assert_eq!(l.ub_bytes(1), 544 + 1824);
    let dir = tempfile::tempdir().unwrap();
    let lib = dit_ascendc::cpu_model::build(dir.path(), std::slice::from_ref(&kernel), &target);
    let lib = dit_ascendc::cpu_model::Library::open(&lib.unwrap()).unwrap();
    let inputs = common::inputs(&kernel.fused, 5);
    let refs: Vec<Option<&dit_runtime::Tensor>> = inputs.iter().map(Some).collect();
    let expected = kernel.fused.run_cpu(&refs).unwrap();
    // The model's InitBuffers fit a UB of exactly the layout's bytes for one-row tiles (and
    // the reference is matched, output 0 bit for bit: `exact_output` of a split piece).
    assert!(common::exact_output(&kernel.fused, 0));
    let one_row = l.ub_bytes(1) as u32;
    common::check_once(&lib, &kernel, 4, one_row, &inputs, &expected).unwrap();
    common::check_once(&lib, &kernel, 3, target.ub_bytes as u32, &inputs, &expected).unwrap();
    // The anti-pattern the bound queue replaces, a UB -> UB copy on the vector pipe, is
    // refused on a bound queue's tensor.
    let mut vector = kernel.clone();
    let deq = format!("LocalTensor<bfloat16_t> o0 = bindQ{v}.DeQue<bfloat16_t>();");
    vector.source =
        vector
            .source
            .replacen(&deq, &format!("{deq}\n        DataCopy(o0, o0, 16);"), 1);
    let dir2 = tempfile::tempdir().unwrap();
    let lib2 = dit_ascendc::cpu_model::build(dir2.path(), std::slice::from_ref(&vector), &target);
    let lib2 = dit_ascendc::cpu_model::Library::open(&lib2.unwrap()).unwrap();
    let e = common::check_once(&lib2, &vector, 4, one_row, &inputs, &expected).unwrap_err();
    assert!(e.contains("bound queue"), "{e}");
}

/// Pass-throughs of other shapes: a whole f32 argument yielded beside a value computed from
/// another (rows of 40 floats, padded to 48 in UB), and a bf16 window whose sibling piece is
/// computed; each through its bound queue, run against the reference with several cores and
/// tile sizes.
#[test]
fn pass_throughs_of_whole_rows_and_f32_match_the_reference() {
    let whole = r#"{"kernel": "fused_pass_f32_0", "body": {
        "args": [{"dtype": "f32", "shape": [7, 40]}, {"dtype": "f32", "shape": [7, 40]}],
        "ops": [{"name": "dit.exp", "operands": [1], "results": [{"dtype": "f32", "shape": [7, 40]}]}],
        "yield": [2, 0]}}"#;
    let pair = r#"{"kernel": "fused_pass_pair_0", "body": {
        "args": [{"dtype": "bf16", "shape": [9, 96]}],
        "ops": [
          {"name": "dit.split", "operands": [0], "attrs": {"dim": 1, "sizes": [32, 64]},
           "results": [{"dtype": "bf16", "shape": [9, 32]}, {"dtype": "bf16", "shape": [9, 64]}]},
          {"name": "dit.silu", "operands": [1], "results": [{"dtype": "bf16", "shape": [9, 32]}]}],
        "yield": [3, 2]}}"#;
    let target = common::target();
    // Bytes per tile row. f32: y's queue (2 x 48 x 4), exp's slot (48 x 4), exp's VECOUT queue
    // and x's bound queue (2 x 48 x 4 each). bf16: piece 0's queue (2 x 32 x 2), its slot and
    // silu's temporary (2 x 32 x 4), silu's VECOUT queue (2 x 32 x 2), piece 1's bound queue
    // (2 x 64 x 2).
    for (body, row_bytes) in [
        (whole, 384 + 192 + 384 + 384),
        (pair, 128 + 256 + 128 + 256),
    ] {
        let k = dit_ascendc::generate_from_json(body, &target).unwrap();
        let l = &k.layouts[0];
        assert_eq!(l.pass_through.len(), 1, "{}", k.source);
        assert_eq!(l.pass_through[0].1, 1, "output 1 is the pass-through");
        assert!(k
            .source
            .contains("TQueBind<TPosition::VECIN, TPosition::VECOUT, BUFFER_NUM> bindQ"));
        assert!(!k.source.contains("outQ1"), "{}", k.source);
        assert_eq!(l.row_bytes, row_bytes, "{}", k.source);
    }
    common::generate_build_check("pass_through", &[whole.to_string(), pair.to_string()]);
}
