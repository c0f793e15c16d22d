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
    let result = common::check_corrupted(&kernel, &target, 3, 4);
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

/// Qwen-Image's q/k/v at test size: two merged projections (image `[1, 5, 192]`, text
/// `[1, 3, 192]`), each split in three and every piece reshaped to 2 heads of 32; image q
/// normed and roped, text q normed, the two concatenated along the tokens, v of both streams
/// concatenated unchanged, image k normed; text k unused. Each head is a 32-element row of
/// its parent seen as `[1, S, 6, 32]`.
const HEADS: &str = r#"{"kernel": "fused_window_heads_0", "body": {
    "args": [{"dtype": "bf16", "shape": [1, 5, 192]}, {"dtype": "bf16", "shape": [1, 3, 192]},
             {"dtype": "bf16", "shape": [32]}, {"dtype": "bf16", "shape": [5, 1, 32]},
             {"dtype": "bf16", "shape": [5, 1, 32]}],
    "ops": [
      {"name": "dit.split", "operands": [0], "attrs": {"dim": 2, "sizes": [64, 64, 64]},
       "results": [{"dtype": "bf16", "shape": [1, 5, 64]}, {"dtype": "bf16", "shape": [1, 5, 64]},
                   {"dtype": "bf16", "shape": [1, 5, 64]}]},
      {"name": "dit.split", "operands": [1], "attrs": {"dim": 2, "sizes": [64, 64, 64]},
       "results": [{"dtype": "bf16", "shape": [1, 3, 64]}, {"dtype": "bf16", "shape": [1, 3, 64]},
                   {"dtype": "bf16", "shape": [1, 3, 64]}]},
      {"name": "dit.reshape", "operands": [5], "results": [{"dtype": "bf16", "shape": [1, 5, 2, 32]}]},
      {"name": "dit.reshape", "operands": [6], "results": [{"dtype": "bf16", "shape": [1, 5, 2, 32]}]},
      {"name": "dit.reshape", "operands": [7], "results": [{"dtype": "bf16", "shape": [1, 5, 2, 32]}]},
      {"name": "dit.reshape", "operands": [8], "results": [{"dtype": "bf16", "shape": [1, 3, 2, 32]}]},
      {"name": "dit.reshape", "operands": [10], "results": [{"dtype": "bf16", "shape": [1, 3, 2, 32]}]},
      {"name": "dit.rms_norm", "operands": [11, 2], "attrs": {"epsilon": 1e-6},
       "results": [{"dtype": "bf16", "shape": [1, 5, 2, 32]}]},
      {"name": "dit.rope", "operands": [16, 3, 4], "attrs": {"mode": "interleave"},
       "results": [{"dtype": "bf16", "shape": [1, 5, 2, 32]}]},
      {"name": "dit.rms_norm", "operands": [14, 2], "attrs": {"epsilon": 1e-6},
       "results": [{"dtype": "bf16", "shape": [1, 3, 2, 32]}]},
      {"name": "dit.concat", "operands": [18, 17], "attrs": {"dim": 1},
       "results": [{"dtype": "bf16", "shape": [1, 8, 2, 32]}]},
      {"name": "dit.concat", "operands": [15, 13], "attrs": {"dim": 1},
       "results": [{"dtype": "bf16", "shape": [1, 8, 2, 32]}]},
      {"name": "dit.rms_norm", "operands": [12, 2], "attrs": {"epsilon": 1e-6},
       "results": [{"dtype": "bf16", "shape": [1, 5, 2, 32]}]}],
    "yield": [19, 20, 21]}}"#;

#[test]
fn head_views_of_split_pieces_are_rows_of_the_parent() {
    let target = common::target();
    let kernel = dit_ascendc::generate_from_json(HEADS, &target).unwrap();
    // Image k (piece 1, heads 2..4 of 6 per token): GM row 6·s + 2 + h of 32-element rows,
    // no column window.
    let heads: Vec<_> = kernel
        .plan
        .stages
        .iter()
        .flat_map(|s| &s.nodes)
        .filter_map(|n| match &n.op {
            dit_ascendc::plan::MicroOp::Load {
                arg: 0,
                rows,
                window,
            } if n.width == 32 => Some((rows.clone(), *window)),
            _ => None,
        })
        .collect();
    assert!(
        heads.iter().any(|(r, w)| w.is_none()
            && r.base == 2
            && !r.contiguous
            && r.terms.iter().map(|t| t.1).collect::<Vec<_>>() == [6, 1]),
        "{heads:?}"
    );
    // Nothing of the text k piece is read: DDR reads stay under the five used pieces, the
    // per-token rope rows and the gammas.
    let st = kernel.stats(target.ub_bytes, target.core_num).unwrap();
    let used = (5 * 192 + 3 * 128) * 2;
    assert!(st.ddr_read_bytes >= used, "{st:?}");
    common::generate_build_check_for("window_heads", &[HEADS.to_string()], &target);
}

/// A head view whose rows are not whole 32-byte GM blocks (bf16 heads of 8), or whose piece
/// does not start on a head (columns 16.. of rows of 80, heads of 32), is refused, naming the reshape;
/// a reshape of anything but a split piece too.
#[test]
fn unaligned_head_views_are_refused() {
    let body = |sizes: &str, w0: usize, w1: usize, heads: &str| {
        format!(
            r#"{{"kernel": "fused_heads_bad_0", "body": {{
            "args": [{{"dtype": "bf16", "shape": [4, {w}]}}],
            "ops": [{{"name": "dit.split", "operands": [0], "attrs": {{"dim": 1, "sizes": {sizes}}},
                     "results": [{{"dtype": "bf16", "shape": [4, {w0}]}}, {{"dtype": "bf16", "shape": [4, {w1}]}}]}},
                    {{"name": "dit.reshape", "operands": [2], "results": [{{"dtype": "bf16", "shape": {heads}}}]}}],
            "yield": [3]}}}}"#,
            w = w0 + w1
        )
    };
    let target = common::target();
    dit_ascendc::generate_from_json(&body("[32, 32]", 32, 32, "[4, 2, 16]"), &target).unwrap();
    for bad in [
        body("[32, 32]", 32, 32, "[4, 4, 8]"),
        body("[16, 64]", 16, 64, "[4, 2, 32]"),
    ] {
        let e = dit_ascendc::generate_from_json(&bad, &target).unwrap_err();
        assert!(
            e.contains("dit.reshape") && e.contains("32-byte GM rows"),
            "{e}"
        );
    }
    let not_a_piece = r#"{"kernel": "fused_heads_bad_1", "body": {
        "args": [{"dtype": "bf16", "shape": [4, 64]}],
        "ops": [{"name": "dit.reshape", "operands": [0], "results": [{"dtype": "bf16", "shape": [4, 2, 32]}]}],
        "yield": [1]}}"#;
    let e = dit_ascendc::generate_from_json(not_a_piece, &target).unwrap_err();
    assert!(e.contains("per-head view"), "{e}");
}

/// The head-view comparison is not vacuous: image k read one head too far along its parent's
/// rows (GM row 6·s + 3 + h instead of 6·s + 2 + h) no longer matches the reference.
#[test]
fn a_wrong_head_is_caught() {
    let target = common::target();
    let mut kernel = dit_ascendc::generate_from_json(HEADS, &target).unwrap();
    let from = "uint64_t g = 2ull + ";
    assert_eq!(kernel.source.matches(from).count(), 1, "{}", kernel.source);
    kernel.source = kernel.source.replacen(from, "uint64_t g = 3ull + ", 1);
    let result = common::check_corrupted(&kernel, &target, 3, 4);
    assert!(result.is_err(), "the shifted head passed");
}
