//! The op coverage file (test/Conversion/ascendc-ops.mlir: every op a group can hold, odd row
//! counts and widths, broadcasts of every kind, concats that split the rows, several outputs
//! of different shapes, f16/bf16/f32) through the generator, the CPU model and the reference.

mod common;

#[test]
fn every_op_matches_the_reference() {
    let text = common::read("test/Conversion/ascendc-ops.mlir");
    let groups = common::fused_groups(&text, "", false);
    assert_eq!(groups.len(), 9);
    let (kernels, launches) = common::generate_build_check("ascendc-ops.mlir", &groups);
    eprintln!("ascendc-ops.mlir: {kernels} kernels, {launches} launches");
}

/// The comparison is not vacuous: a kernel with one instruction wrong (Add made Sub) fails it,
/// and so do one whose concat copies the wrong rows and one that applies a RoPE table row of
/// the wrong group of heads.
#[test]
fn a_wrong_kernel_is_caught() {
    let text = common::read("test/Conversion/ascendc-ops.mlir");
    let groups = common::fused_groups(&text, "", false);
    let target = common::target();
    for (label, wanted, from, to) in [
        ("add", "fused_elementwise_0", "Add(v", "Sub(v"),
        (
            "concat",
            "fused_concat_0",
            "(0ull + row) * 16",
            "(0ull + row / 2) * 16",
        ),
        // RoPE's cos row of group q of the tile read as the tile's first group's.
        (
            "grouped table",
            "fused_rope_0",
            "[(q) * 32 + 0]",
            "[(0) * 32 + 0]",
        ),
    ] {
        let group = groups
            .iter()
            .find(|g| g.contains(wanted))
            .expect("the group exists");
        let mut kernel = dit_ascendc::generate_from_json(group, &target).unwrap();
        assert!(
            kernel.source.contains(from),
            "{label}: {from} in the source"
        );
        kernel.source = kernel.source.replacen(from, to, 1);
        let result = common::check_corrupted(&kernel, &target, 5, 4);
        assert!(result.is_err(), "{label}: the corrupted kernel passed");
        eprintln!("{label}: {}", result.unwrap_err());
    }
}

/// A group whose whole rows do not fit the UB, but whose ops all work column by column, is cut
/// into column chunks (a concat along the last dim becoming a concat of chunks), and still
/// matches the reference; a norm, which needs whole rows, is refused instead.
#[test]
fn wide_rows_are_cut_into_column_chunks() {
    let group = r#"{"kernel": "fused_wide_gelu_0", "body": {
        "args": [{"dtype": "bf16", "shape": [7, 96]}, {"dtype": "bf16", "shape": [7, 96]},
                 {"dtype": "f32", "shape": [96]}, {"dtype": "bf16", "shape": [7, 1]},
                 {"dtype": "bf16", "shape": [7, 32]}],
        "ops": [
          {"name": "dit.gelu", "operands": [0], "attrs": {"approximate": "none"},
           "results": [{"dtype": "bf16", "shape": [7, 96]}]},
          {"name": "dit.mul", "operands": [5, 1], "results": [{"dtype": "bf16", "shape": [7, 96]}]},
          {"name": "dit.cast", "operands": [6], "results": [{"dtype": "f32", "shape": [7, 96]}]},
          {"name": "dit.add", "operands": [7, 2], "results": [{"dtype": "f32", "shape": [7, 96]}]},
          {"name": "dit.cast", "operands": [8], "results": [{"dtype": "bf16", "shape": [7, 96]}]},
          {"name": "dit.mul", "operands": [9, 3], "results": [{"dtype": "bf16", "shape": [7, 96]}]},
          {"name": "dit.concat", "operands": [10, 4], "attrs": {"dim": -1},
           "results": [{"dtype": "bf16", "shape": [7, 128]}]}],
        "yield": [11, 8]}}"#;
    let whole = dit_ascendc::generate_from_json(group, &common::target()).unwrap();
    assert_eq!(whole.chunk, None);
    // A UB a little short of one whole row (fixed part included).
    let need = whole
        .layouts
        .iter()
        .map(|l| l.fixed_bytes + l.row_bytes)
        .max()
        .unwrap();
    let small = dit_ascendc::TargetSpec::new("small", need - 64);
    let cut = dit_ascendc::generate_from_json(group, &small).unwrap();
    assert_eq!(cut.chunk, Some(32));
    assert!(cut.source.contains("chunks of 32 columns"));
    common::generate_build_check_for("wide_gelu", &[group.to_string()], &small);
    let norm = r#"{"kernel": "fused_wide_norm_0", "body": {
        "args": [{"dtype": "f32", "shape": [7, 4096]}, {"dtype": "f32", "shape": [4096]}],
        "ops": [{"name": "dit.rms_norm", "operands": [0, 1], "attrs": {"epsilon": 1e-6},
                 "results": [{"dtype": "f32", "shape": [7, 4096]}]}],
        "yield": [2]}}"#;
    let err = dit_ascendc::generate_from_json(norm, &small).unwrap_err();
    assert!(err.contains("one row needs"), "{err}");
}

/// An f16 elementwise chain stays in half in UB (Atlas A2/A3 vector arithmetic takes half):
/// its loads are used where their queues hold them, its values are half slots, and each half
/// instruction rounds to f16 as the reference rounds each op, so a chain of one-instruction
/// ops (add, mul, sub, neg, relu) matches the reference bit for bit; muls_add (two roundings)
/// stays close, and exp (an f32 op) keeps its f32 path. A value read by an f32 op or stored to
/// an f32 output is widened, and with it everything it is computed from.
#[test]
fn f16_elementwise_chains_stay_in_half() {
    let group = r#"{"kernel": "fused_half_0", "body": {
        "args": [{"dtype": "f16", "shape": [7, 40]}, {"dtype": "f16", "shape": [7, 40]},
                 {"dtype": "f16", "shape": [7, 40]}, {"dtype": "f16", "shape": [7, 40]}],
        "ops": [
          {"name": "dit.add", "operands": [0, 1], "results": [{"dtype": "f16", "shape": [7, 40]}]},
          {"name": "dit.mul", "operands": [4, 2], "results": [{"dtype": "f16", "shape": [7, 40]}]},
          {"name": "dit.neg", "operands": [5], "results": [{"dtype": "f16", "shape": [7, 40]}]},
          {"name": "dit.relu", "operands": [6], "results": [{"dtype": "f16", "shape": [7, 40]}]},
          {"name": "dit.sub", "operands": [7, 0], "results": [{"dtype": "f16", "shape": [7, 40]}]},
          {"name": "dit.muls_add", "operands": [8, 1], "attrs": {"scale": 0.3},
           "results": [{"dtype": "f16", "shape": [7, 40]}]},
          {"name": "dit.exp", "operands": [3], "results": [{"dtype": "f16", "shape": [7, 40]}]},
          {"name": "dit.cast", "operands": [10], "results": [{"dtype": "f32", "shape": [7, 40]}]}],
        "yield": [8, 9, 11]}}"#;
    let target = common::target();
    let k = dit_ascendc::generate_from_json(group, &target).unwrap();
    let stage = &k.plan.stages[0];
    let half: Vec<bool> = stage.nodes.iter().map(|n| n.half).collect();
    assert!(half.iter().filter(|h| **h).count() >= 7, "{half:?}");
    // exp and what the f32 output reads are f32.
    assert!(stage
        .nodes
        .iter()
        .filter(|n| matches!(
            n.op,
            dit_ascendc::plan::MicroOp::Unary(dit_ascendc::plan::UnaryOp::Exp, _)
        ))
        .all(|n| !n.half));
    assert!(k.source.contains("LocalTensor<half> v"), "{}", k.source);
    assert!(k.source.contains("(half)-1.0f"));
    // The f32 version of the same kernel takes more UB per row.
    let mut wide = k.plan.clone();
    dit_ascendc::plan::widen(&mut wide.stages[0]);
    let wide_layout = dit_ascendc::layout::layout(&wide, &wide.stages[0]);
    assert!(k.layouts[0].row_bytes < wide_layout.row_bytes);
    eprintln!(
        "row bytes: {} in half, {} in f32",
        k.layouts[0].row_bytes, wide_layout.row_bytes
    );
    // Bit for bit on the one-instruction chain (output 0), close on the others.
    let dir = tempfile::tempdir().unwrap();
    let lib = dit_ascendc::cpu_model::build(dir.path(), std::slice::from_ref(&k), &target);
    let lib = dit_ascendc::cpu_model::Library::open(&lib.unwrap()).unwrap();
    let inputs = common::inputs(&k.fused, 3);
    let refs: Vec<Option<&dit_runtime::Tensor>> = inputs.iter().map(Some).collect();
    let expected = k.fused.run_cpu(&refs).unwrap();
    let ins: Vec<&dit_runtime::Tensor> = inputs.iter().collect();
    let got = lib
        .launch(
            &k.fused.kernel,
            3,
            target.ub_bytes as u32,
            &ins,
            &k.outputs(),
        )
        .unwrap();
    assert!(common::same_bits(&got[0], &expected[0]));
    common::generate_build_check("half", &[group.to_string()]);
}

/// A column-wise group with fewer rows than the target's cores (Wan2.1's `[1, 6, 5120]`
/// modulation add, which ran on 6 of 48 cores) is cut into column chunks that give every core
/// rows: the widest chunk of at least 128 columns making 48 rows or more, here 160 columns of
/// 1280 (8 chunks of each of the 6 rows), and it still matches the reference.
#[test]
fn few_rows_are_cut_into_column_chunks_for_the_cores() {
    let group = r#"{"kernel": "fused_few_rows_0", "body": {
        "args": [{"dtype": "bf16", "shape": [1, 6, 1280]}, {"dtype": "f32", "shape": [1, 6, 1280]}],
        "ops": [
          {"name": "dit.cast", "operands": [0], "results": [{"dtype": "f32", "shape": [1, 6, 1280]}]},
          {"name": "dit.add", "operands": [1, 2], "results": [{"dtype": "f32", "shape": [1, 6, 1280]}]}],
        "yield": [3]}}"#;
    let target = common::target();
    assert_eq!(target.core_num, 48);
    let k = dit_ascendc::generate_from_json(group, &target).unwrap();
    assert_eq!(k.chunk, Some(160));
    assert!(
        k.source.contains("fewer rows than the 48 cores"),
        "{}",
        k.source
    );
    let t = k.tiling(target.ub_bytes, target.core_num).unwrap();
    assert_eq!((t.block_dim, t.stages[0].rows), (48, 48));
    // Each input is still read once.
    let st = k.stats(target.ub_bytes, target.core_num).unwrap();
    assert_eq!(st.ddr_read_bytes, st.input_bytes);
    // With enough rows for the cores, rows stay whole.
    let many = group.replace("[1, 6, 1280]", "[1, 60, 1280]");
    assert_eq!(
        dit_ascendc::generate_from_json(&many, &target)
            .unwrap()
            .chunk,
        None
    );
    common::generate_build_check("few_rows", &[group.to_string()]);
}

/// A group yielding a concat's prefix beside the norm of the whole concat (HiDream's
/// `concat(concat(x, e), l)` → `ada_layer_norm`, which yields the inner concat too): the
/// norm's stages store the prefix's rows as they load them, so every input row is loaded once
/// (the prefix's own loop, which would load x and e again, has no rows left); the boxes of a
/// concat that differ only in the argument a load reads run as one stage; and the kernel
/// matches the reference.
#[test]
fn an_output_inside_another_loop_is_stored_by_its_stages() {
    let group = r#"{"kernel": "fused_shared_rows_0", "body": {
        "args": [{"dtype": "bf16", "shape": [1, 5, 40]}, {"dtype": "bf16", "shape": [1, 3, 40]},
                 {"dtype": "bf16", "shape": [1, 2, 40]}, {"dtype": "bf16", "shape": [1, 1, 40]},
                 {"dtype": "bf16", "shape": [1, 1, 40]}],
        "ops": [
          {"name": "dit.concat", "operands": [0, 1], "attrs": {"dim": 1},
           "results": [{"dtype": "bf16", "shape": [1, 8, 40]}]},
          {"name": "dit.concat", "operands": [5, 2], "attrs": {"dim": 1},
           "results": [{"dtype": "bf16", "shape": [1, 10, 40]}]},
          {"name": "dit.ada_layer_norm", "operands": [6, 3, 4], "attrs": {"epsilon": 1e-6},
           "results": [{"dtype": "bf16", "shape": [1, 10, 40]}]}],
        "yield": [5, 7]}}"#;
    let target = common::target();
    let k = dit_ascendc::generate_from_json(group, &target).unwrap();
    // The norm's loop only: its boxes of x and e run as one stage that stores both outputs
    // (x's rows, then e's, in one tile loop), the box of l as a second that stores the norm.
    assert_eq!(k.plan.stages.len(), 2, "{:#?}", k.plan.stages);
    assert_eq!(k.plan.stages[0].segments.len(), 1);
    let rows_loaded = |arg: usize| -> u64 {
        k.plan
            .stages
            .iter()
            .flat_map(|s| (0..s.nodes.len()).flat_map(move |n| s.sources(n)))
            .filter(|(_, _, a, _)| *a == arg)
            .map(|(start, stop, _, _)| stop - start)
            .sum()
    };
    assert_eq!((rows_loaded(0), rows_loaded(1), rows_loaded(2)), (5, 3, 2));
    let stored = |out: usize| -> u64 {
        k.plan
            .stages
            .iter()
            .flat_map(|s| s.stores.iter().map(move |st| (s.rows, st.output)))
            .filter(|(_, o)| *o == out)
            .map(|(r, _)| r)
            .sum()
    };
    assert_eq!((stored(0), stored(1)), (8, 10));
    common::generate_build_check("shared_rows", &[group.to_string()]);
    // The comparison sees a segment read from the wrong argument.
    let mut wrong = k.clone();
    let seg = "gmX1[(0ull + (lo - 5u)) * 40]";
    assert!(wrong.source.contains(seg), "{}", wrong.source);
    wrong.source = wrong
        .source
        .replacen(seg, "gmX0[(0ull + (lo - 5u)) * 40]", 1);
    let result = common::check_corrupted(&wrong, &target, 5, 3);
    assert!(result.is_err(), "the wrong segment passed");
}

/// Rows narrower than a UB row's 16 elements (HiDream's rotary groups: x `[S, H, A, 1]`
/// against cos/sin `[S, 1, A, 2]`, rows of 1 and 2 elements) have their last two dims folded
/// into one: rows of `A` and `2A` elements, x broadcast by a gather that repeats each element
/// twice, and the tables, no longer following the innermost loop dim, grouped over the heads,
/// so the kernel reads less than the unfolded one (which read each table row once per head)
/// and still matches the reference.
#[test]
fn narrow_rows_fold_their_last_two_dims() {
    let group = r#"{"kernel": "fused_rotary_0", "body": {
        "args": [{"dtype": "f32", "shape": [1, 64, 1, 8, 2]}, {"dtype": "f32", "shape": [1, 64, 3, 8, 1]},
                 {"dtype": "f32", "shape": [1, 64, 1, 8, 2]}, {"dtype": "f32", "shape": [1, 64, 3, 8, 1]}],
        "ops": [
          {"name": "dit.mul", "operands": [0, 1], "results": [{"dtype": "f32", "shape": [1, 64, 3, 8, 2]}]},
          {"name": "dit.mul", "operands": [2, 3], "results": [{"dtype": "f32", "shape": [1, 64, 3, 8, 2]}]},
          {"name": "dit.add", "operands": [4, 5], "results": [{"dtype": "f32", "shape": [1, 64, 3, 8, 2]}]},
          {"name": "dit.mul", "operands": [1, 3], "results": [{"dtype": "f32", "shape": [1, 64, 3, 8, 1]}]}],
        "yield": [6, 7]}}"#;
    let target = common::target();
    let k = dit_ascendc::generate_from_json(group, &target).unwrap();
    assert!(k.source.contains("folded"), "{}", k.source);
    let stage = &k.plan.stages[0];
    assert_eq!((stage.rows, stage.group), (64 * 3, 3));
    assert!(stage.nodes.iter().any(|n| matches!(
        n.op,
        dit_ascendc::plan::MicroOp::RepeatEach { times: 2, .. }
    )));
    assert!(k.source.contains("(j / 2u) * 4u"), "{}", k.source);
    // The unfolded kernel, for comparison: rows of 1 and 2 elements, tables read per row.
    let f = dit_runtime::fused::FusedOp::parse(group).unwrap();
    let whole = dit_ascendc::plan::plan(&f).unwrap();
    assert_eq!(whole.stages[0].rows, 64 * 3 * 8);
    let layouts: Vec<_> = whole
        .stages
        .iter()
        .map(|s| dit_ascendc::layout::layout(&whole, s))
        .collect();
    let unfolded =
        dit_ascendc::stats::stats(&whole, &layouts, target.ub_bytes, target.core_num).unwrap();
    let folded = k.stats(target.ub_bytes, target.core_num).unwrap();
    assert_eq!(folded.input_bytes, unfolded.input_bytes);
    assert!(
        folded.ddr_read_bytes < unfolded.ddr_read_bytes,
        "folded {} B, unfolded {} B",
        folded.ddr_read_bytes,
        unfolded.ddr_read_bytes
    );
    // A body with a broadcast along the next-to-last dim does not fold (its folded rows of
    // 1 element against 16 would not be a repeat of each element).
    let along = r#"{"kernel": "fused_along_0", "body": {
        "args": [{"dtype": "f32", "shape": [4, 8, 2]}, {"dtype": "f32", "shape": [4, 1, 1]}],
        "ops": [{"name": "dit.mul", "operands": [0, 1], "results": [{"dtype": "f32", "shape": [4, 8, 2]}]}],
        "yield": [2]}}"#;
    let along = dit_runtime::fused::FusedOp::parse(along).unwrap();
    assert!(dit_ascendc::plan::fold_inner(&along).is_none());
    common::generate_build_check("rotary", &[group.to_string()]);
    // The comparison sees a gather that repeats the wrong elements.
    let mut wrong = k.clone();
    wrong.source = wrong.source.replacen("(j / 2u) * 4u", "(j % 8u) * 4u", 1);
    let result = common::check_corrupted(&wrong, &target, 5, 4);
    assert!(result.is_err(), "the wrong gather passed");
}

/// A body of which one row does not fit the UB with double-buffered queues, but does with one
/// buffer per queue (Wan2.1's residual add and the LayerNorm after it, with the f32 residual
/// also an output, at a UB just big enough for one single-buffered row): the generator plans
/// the stage single-buffered (`BUFFER_NUM = 1`), the tiling and the printed UB fill count the
/// queues once, and the kernel built against the CPU model (whose UB and queue-depth checks
/// hold) matches the reference with 1/3/8/40 cores. Its f32 gamma and beta, wider than one
/// row of the bf16 queues, come in through one of them a piece at a time.
#[test]
fn rows_that_fit_only_single_buffered_get_one_buffer_per_queue() {
    let group = r#"{"kernel": "fused_single_buffer_0", "body": {
        "args": [{"dtype": "bf16", "shape": [1, 3, 512]}, {"dtype": "f32", "shape": [1, 1, 512]},
                 {"dtype": "bf16", "shape": [1, 3, 512]}, {"dtype": "f32", "shape": [512]},
                 {"dtype": "f32", "shape": [512]}],
        "ops": [
          {"name": "dit.cast", "operands": [0], "results": [{"dtype": "f32", "shape": [1, 3, 512]}]},
          {"name": "dit.mul", "operands": [5, 1], "results": [{"dtype": "f32", "shape": [1, 3, 512]}]},
          {"name": "dit.cast", "operands": [2], "results": [{"dtype": "f32", "shape": [1, 3, 512]}]},
          {"name": "dit.add", "operands": [7, 6], "results": [{"dtype": "f32", "shape": [1, 3, 512]}]},
          {"name": "dit.cast", "operands": [8], "results": [{"dtype": "bf16", "shape": [1, 3, 512]}]},
          {"name": "dit.cast", "operands": [9], "results": [{"dtype": "f32", "shape": [1, 3, 512]}]},
          {"name": "dit.layer_norm", "operands": [10, 3, 4], "attrs": {"epsilon": 1e-6},
           "results": [{"dtype": "f32", "shape": [1, 3, 512]}]},
          {"name": "dit.cast", "operands": [11], "results": [{"dtype": "bf16", "shape": [1, 3, 512]}]}],
        "yield": [9, 10, 12]}}"#;
    let fused = dit_runtime::fused::FusedOp::parse(group).unwrap();
    let roomy = dit_ascendc::generate(&fused, &common::target()).unwrap();
    let double = &roomy.layouts[0];
    assert_eq!(double.buffer_num, 2);
    let single = dit_ascendc::layout::layout_at(&roomy.plan, &roomy.plan.stages[0], 1);
    // The queues (two bf16 loads, bf16 + f32 + bf16 stores, 512 wide) count once, not twice.
    let queues = 512 * (2 + 2 + 2 + 4 + 2);
    assert_eq!(double.row_bytes - single.row_bytes, queues);
    assert_eq!(double.fixed_bytes, single.fixed_bytes);
    // gamma and beta (f32, 2048 B a row) come in through a 1024-byte bf16 queue row, in
    // pieces, not through a staging queue of their own.
    assert_eq!(single.staging_bytes, 0);
    assert_eq!(single.staging_piece_bytes, 1024);
    assert!(single.staging_queue.is_some());
    // A UB that holds one single-buffered row and not one double-buffered row.
    let ub = single.ub_bytes(1);
    assert!(double.ub_bytes(1) > ub);
    let small = dit_ascendc::TargetSpec::new("small", ub);
    let err = dit_ascendc::fit_at(&fused, &small, false).unwrap_err();
    assert!(err.to_string().contains("one row needs"), "{err}");
    let fit = dit_ascendc::fit(&fused, &small).unwrap();
    assert_eq!(
        (fit.buffer_num, fit.one_row_bytes, fit.chunk),
        (1, ub, None)
    );
    let k = dit_ascendc::generate(&fused, &small).unwrap();
    assert_eq!(k.layouts[0].buffer_num, 1);
    assert_eq!(k.layouts[0], single);
    assert!(
        k.source
            .contains("static constexpr int32_t BUFFER_NUM = 1;"),
        "{}",
        k.source
    );
    assert!(
        k.source.contains("c += 256u"),
        "gamma staged in pieces of 256"
    );
    assert!(!k.source.contains("stageQ"), "no staging queue of its own");
    let t = k.tiling(ub, small.core_num).unwrap();
    assert_eq!(t.stages[0].tile_rows, 1);
    let st = k.stats(ub, small.core_num).unwrap();
    assert_eq!(st.stages[0].buffer_num, 1);
    assert_eq!(st.stages[0].ub_bytes_used, ub);
    assert!(
        st.summary().contains("1 rows/tile, single-buffered"),
        "{}",
        st.summary()
    );
    // The roomy target's kernel keeps double buffers and the namespace default.
    assert!(!roomy.source.contains("static constexpr int32_t BUFFER_NUM"));
    let (kernels, launches) =
        common::generate_build_check_for("single_buffer", &[group.to_string()], &small);
    assert_eq!((kernels, launches), (1, 16));
}
