//! Every dit.fused group of the executed models (test/models/exec, after --fuse-all) and of the
//! auto-fusion lit tests (after --dit-auto-fuse): generated, compiled against the CPU model of
//! Ascend C, run with 1/3/8/40 cores and tiles of all rows and of 2, 3 and 4 rows (partial last
//! tiles), and compared with the reference runtime on random inputs (cosine ≥ 1 - 2⁻⁷; bit
//! for bit where every op is exact in f32).

mod common;

fn model(file: &str) -> (usize, usize) {
    let text = common::read(&format!("test/models/exec/{file}.mlir"));
    let groups = common::fused_groups(&text, "fuse-all", false);
    common::generate_build_check(file, &groups)
}

macro_rules! models {
    ($($name:ident),* $(,)?) => {$(
        #[test]
        fn $name() {
            let (kernels, launches) = model(stringify!($name));
            eprintln!("{}: {kernels} kernels, {launches} launches", stringify!($name));
        }
    )*};
}

models!(
    ernie_gated_gelu_ffn,
    flux_double_block,
    flux_single_block,
    hidream_moe_block,
    hunyuan_image3_moe,
    hunyuan_video_double_block,
    lingbot_video_moe_ffn,
    lumina_swiglu_ffn,
    qwen_image_block,
    sd35_joint_block,
    wan21_block,
);

#[test]
fn auto_fuse_lit_tests() {
    let text = common::read("test/Transforms/dit-auto-fuse.mlir");
    let groups = common::fused_groups(&text, "dit-auto-fuse", true);
    assert!(groups.len() >= 5, "the lit tests form groups");
    let (kernels, launches) = common::generate_build_check("dit-auto-fuse.mlir", &groups);
    eprintln!("dit-auto-fuse.mlir: {kernels} kernels, {launches} launches");
}

#[test]
fn every_model_file_is_covered() {
    // A new model in test/models/exec must get its test above.
    let listed = [
        "ernie_gated_gelu_ffn",
        "flux_double_block",
        "flux_single_block",
        "hidream_moe_block",
        "hunyuan_image3_moe",
        "hunyuan_video_double_block",
        "lingbot_video_moe_ffn",
        "lumina_swiglu_ffn",
        "qwen_image_block",
        "sd35_joint_block",
        "wan21_block",
    ];
    for entry in std::fs::read_dir(common::repo().join("test/models/exec")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if let Some(stem) = name.strip_suffix(".mlir") {
            assert!(listed.contains(&stem), "{name} has no kernel test");
        }
    }
}

/// The full-size FLUX.1 double block (examples/flux_double_block.mlir, 4096 + 512 tokens, 24
/// heads, hidden 3072): at the target's UB and vector cores every generated kernel's tiles fill
/// at least half the UB, and the RoPE kernel reads its cos/sin rows once per group of heads a
/// tile touches: its DDR reads stay within 2% of its inputs' bytes, where reading the tables
/// once per (token, head) row (the kernel with its groups undone) reads them 24 times over.
/// Generation only: the CPU model runs these kernels at the reduced sizes of the tests above.
#[test]
fn flux_block_kernels_fill_the_ub() {
    let text = common::read("examples/flux_double_block.mlir");
    let groups = common::fused_groups(&text, "fuse-all", false);
    assert!(!groups.is_empty());
    let target = common::target();
    let mut rope_kernels = 0;
    for g in &groups {
        let k = dit_ascendc::generate_from_json(g, &target).unwrap();
        let st = k.stats(target.ub_bytes, target.core_num).unwrap();
        eprintln!("{}", st.summary());
        assert!(
            st.min_ub_fill() >= 0.5,
            "{}: a tile fills {:.1}% of the UB",
            k.fused.kernel,
            100.0 * st.min_ub_fill()
        );
        if !k.fused.ops.iter().any(|op| op.name == "dit.rope") {
            continue;
        }
        rope_kernels += 1;
        assert!(k.plan.stages.iter().all(|s| s.group == 24), "heads group");
        assert!(
            (st.ddr_read_bytes as f64) < 1.02 * st.input_bytes as f64,
            "{}: {} bytes read for {} bytes of inputs",
            k.fused.kernel,
            st.ddr_read_bytes,
            st.input_bytes
        );
        // The same kernel reading its tables once per row.
        let mut plan = k.plan.clone();
        for s in &mut plan.stages {
            dit_ascendc::plan::ungroup(s);
        }
        let layouts: Vec<_> = plan
            .stages
            .iter()
            .map(|s| dit_ascendc::layout::layout(&plan, s))
            .collect();
        let per_row =
            dit_ascendc::stats::stats(&plan, &layouts, target.ub_bytes, target.core_num).unwrap();
        eprintln!("(tables read per row) {}", per_row.summary());
        // cos and sin, 128 bf16 each, per (token, head) row: 110,592 rows x 512 bytes.
        assert!(per_row.ddr_read_bytes > st.ddr_read_bytes + 50_000_000);
    }
    assert!(rope_kernels > 0, "the block has a RoPE kernel");
}
