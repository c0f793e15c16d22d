//! `--emit=obj` output links against the runtime's static library into a C program
//! (examples/c/run_model.c) that runs the FLUX double block (the shape-reduced copy), and its
//! outputs are bit-identical to the JIT's (dit-run) on the same inputs.

mod tools;
use tools::{build_tools, root, run};

use dit_runtime::{DType, Tensor, TensorType};
use std::process::Command;

/// The `static const` array `name` of the generated header, as numbers.
fn header_array(header: &str, name: &str) -> Vec<Vec<i64>> {
    let line = header
        .lines()
        .find(|l| l.contains(&format!(" {name}[]")))
        .unwrap_or_else(|| panic!("no {name} in the header"));
    let body = &line[line.find("= {").expect("initializer") + 3..line.rfind('}').expect("end")];
    // Either a flat list (`1, 2`) or a list of braced lists (`{1, 2}, {3}`).
    if body.contains('{') {
        body.split('{')
            .filter(|s| !s.trim().is_empty())
            .map(|s| {
                s.split('}')
                    .next()
                    .unwrap_or_default()
                    .split(',')
                    .filter_map(|v| v.trim().parse().ok())
                    .collect()
            })
            .collect()
    } else {
        vec![body
            .split(',')
            .filter_map(|v| v.trim().parse().ok())
            .collect()]
    }
}

#[test]
fn emitted_object_runs_the_flux_block_like_the_jit() {
    if Command::new("cc").arg("--version").output().is_err() {
        eprintln!("no C compiler: skipped (scripts/setup.sh installs build-essential)");
        return;
    }
    let bin = build_tools(&["dit-opt", "dit-runtime"]);
    let dit_opt = bin.join("dit-opt");
    let model = root().join("test/models/exec/flux_double_block.mlir");
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    run(Command::new(&dit_opt)
        .arg(&model)
        .args(["--fuse-all", "-o"])
        .arg(d.join("fused.mlir")));
    run(Command::new(&dit_opt)
        .arg(d.join("fused.mlir"))
        .args(["--emit=obj", "-o"])
        .arg(d.join("model.o")));
    run(Command::new(&dit_opt)
        .arg(d.join("fused.mlir"))
        .args(["--emit=header", "-o"])
        .arg(d.join("model.h")));
    let header = std::fs::read_to_string(d.join("model.h")).expect("header");

    // Random inputs of the signature the header describes, as raw files for both runs.
    let dtypes = &header_array(&header, "FLUX_DOUBLE_BLOCK_INPUT_DTYPES")[0];
    let ranks = &header_array(&header, "FLUX_DOUBLE_BLOCK_INPUT_RANKS")[0];
    let dims = header_array(&header, "FLUX_DOUBLE_BLOCK_INPUT_DIMS");
    assert_eq!(dtypes.len(), 37, "the FLUX block takes 37 tensors");
    let inputs = d.join("in");
    std::fs::create_dir(&inputs).expect("mkdir");
    for (i, ((code, rank), dims)) in dtypes.iter().zip(ranks).zip(&dims).enumerate() {
        let dtype = DType::from_acl_code(*code as i32).expect("known dtype");
        let shape: Vec<usize> = dims[..*rank as usize].iter().map(|v| *v as usize).collect();
        let t = Tensor::random(TensorType { dtype, shape }, 1000 + i as u64, (-1.0, 1.0));
        std::fs::write(inputs.join(format!("in_{i}.bin")), &t.data).expect("write input");
    }

    let library = bin.join("libdit_runtime.a");
    let program = d.join("run_model");
    run(Command::new("cc")
        .args(["-std=c11", "-Wall", "-Werror", "-I"])
        .arg(root().join("lowering/runtime/include"))
        .arg("-I")
        .arg(d)
        .args([
            "-DMODEL_HEADER=\"model.h\"",
            "-DENTRY=flux_double_block",
            "-DPREFIX=FLUX_DOUBLE_BLOCK",
        ])
        .arg(root().join("examples/c/run_model.c"))
        .arg(d.join("model.o"))
        .arg(&library)
        .args(["-lpthread", "-ldl", "-lm", "-o"])
        .arg(&program));
    let c_out = d.join("c_out");
    std::fs::create_dir(&c_out).expect("mkdir");
    let printed = run(Command::new(&program).arg(&inputs).arg(&c_out));
    assert!(printed.contains("output 1:"), "{printed}");

    let jit_out = d.join("jit_out");
    run(Command::new(env!("CARGO_BIN_EXE_dit-run"))
        .arg(d.join("fused.mlir"))
        .arg("--input-dir")
        .arg(&inputs)
        .arg("--output-dir")
        .arg(&jit_out));
    for j in 0..2 {
        let c = std::fs::read(c_out.join(format!("out_{j}.bin"))).expect("C output");
        let npy = std::fs::read(jit_out.join(format!("flux_double_block.output{j}.npy")))
            .expect("JIT output");
        let header_len = u16::from_le_bytes([npy[8], npy[9]]) as usize;
        assert_eq!(
            &npy[10 + header_len..],
            &c[..],
            "output {j}: the C program and the JIT disagree"
        );
        assert!(c.iter().any(|b| *b != 0), "output {j} is all zeros");
    }
}
