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
        let dir = tempfile::tempdir().unwrap();
        let lib = dit_ascendc::cpu_model::build(dir.path(), std::slice::from_ref(&kernel), &target);
        let lib = dit_ascendc::cpu_model::Library::open(&lib.unwrap()).unwrap();
        let inputs = common::inputs(&kernel.fused, 5);
        let refs: Vec<Option<&dit_runtime::Tensor>> = inputs.iter().map(Some).collect();
        let expected = kernel.fused.run_cpu(&refs).unwrap();
        let result =
            common::check_once(&lib, &kernel, 4, target.ub_bytes as u32, &inputs, &expected);
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
