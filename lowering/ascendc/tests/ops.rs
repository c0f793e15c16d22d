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
/// and so does one whose concat copies the wrong rows.
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
