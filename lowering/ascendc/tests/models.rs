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
