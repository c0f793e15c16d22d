//! The runtime's CPU backend runs dit.fused through the compiled kernels when
//! DIT_ASCENDC_KERNELS names the library (its own test binary: the variable is process-wide).

mod common;

use dit_runtime::{context::Context, fused::FusedOp, Tensor};

#[test]
fn cpu_backend_runs_the_generated_kernels() {
    let text = common::read("test/models/exec/flux_double_block.mlir");
    let groups = common::fused_groups(&text, "fuse-all", false);
    let target = common::target();
    let kernels: Vec<_> = groups
        .iter()
        .map(|g| dit_ascendc::generate_from_json(g, &target).unwrap())
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let lib = dit_ascendc::cpu_model::build(dir.path(), &kernels, &target).unwrap();
    std::env::set_var(dit_runtime::generated::ENV_LIBRARY, &lib);
    std::env::set_var("DIT_ASCENDC_CORES", "3");
    let mut ctx = Context::cpu();
    for json in &groups {
        let fused = FusedOp::parse(json).unwrap();
        let inputs = common::inputs(&fused, 99);
        let refs: Vec<Option<&Tensor>> = inputs.iter().map(Some).collect();
        let expected = fused.run_cpu(&refs).unwrap();
        let ins: Vec<_> = inputs
            .iter()
            .map(|t| Some(ctx.wrap(t.clone()).unwrap()))
            .collect();
        let outs: Vec<_> = expected
            .iter()
            .map(|t| ctx.alloc(t.ty()).unwrap())
            .collect();
        ctx.launch("dit.fused", &fused.kernel, json, &ins, &outs)
            .unwrap();
        for (j, (h, e)) in outs.iter().zip(&expected).enumerate() {
            let got = ctx.read(*h).unwrap();
            let c = common::cosine(&got.to_f64(), &e.to_f64());
            assert!(
                c >= common::MIN_COSINE,
                "{} output {j}: cosine {c}",
                fused.kernel
            );
        }
    }
    // A kernel the library lacks is an error naming it, not a silent fallback.
    let other = r#"{"kernel": "fused_not_generated", "body": {
        "args": [{"dtype": "f32", "shape": [2, 8]}],
        "ops": [{"name": "dit.neg", "operands": [0], "results": [{"dtype": "f32", "shape": [2, 8]}]}],
        "yield": [1]}}"#;
    let x = ctx
        .wrap(Tensor::from_f64(dit_runtime::DType::F32, &[2, 8], &[1.0; 16]).unwrap())
        .unwrap();
    let y = ctx
        .alloc(dit_runtime::TensorType::new(
            dit_runtime::DType::F32,
            vec![2, 8],
        ))
        .unwrap();
    let err = ctx
        .launch("dit.fused", "fused_not_generated", other, &[Some(x)], &[y])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("no generated kernel named fused_not_generated"),
        "{err}"
    );
}
