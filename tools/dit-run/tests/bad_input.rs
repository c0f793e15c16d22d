//! dit-run on inputs that cannot be lit files (issue 13 item 8): a NUL byte after a valid
//! module (melior's `Module::parse` panicked), 500,000 nested brackets (the stack overflowed,
//! exit 134), bytes that are not UTF-8. Each must be a located error, exit code 1.

use std::process::Command;

fn dit_run(input: &[u8]) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("in.mlir");
    std::fs::write(&path, input).expect("write input");
    let out = Command::new(env!("CARGO_BIN_EXE_dit-run"))
        .arg(&path)
        .env_remove("RUST_BACKTRACE")
        .output()
        .expect("run dit-run");
    let stderr = String::from_utf8_lossy(&out.stderr).replace(&path.display().to_string(), "F");
    (out.status.code(), stderr)
}

#[test]
fn hostile_inputs_are_located_errors() {
    let module =
        "func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n  return %x : tensor<4xf32>\n}\n";
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "NUL after a valid module",
            format!("{module}\0junk").into_bytes(),
            "F:4:1: error: input contains a NUL byte",
        ),
        (
            "500,000 nested brackets",
            "(".repeat(500_000).into_bytes(),
            "F:1:257: error: input nests brackets deeper than 256 levels",
        ),
        (
            "not UTF-8",
            b"func.func @f() {\n  \xff\n}\n".to_vec(),
            "F:2:3: error: input is not valid UTF-8 (byte 0xff)",
        ),
        (
            "no function",
            b"module {\n}\n".to_vec(),
            "F:1:1: error: no function to run",
        ),
    ];
    for (what, input, expected) in cases {
        let (code, stderr) = dit_run(&input);
        assert_eq!(code, Some(1), "{what}: {stderr}");
        assert!(
            stderr.contains(expected),
            "{what}: expected {expected:?} in {stderr:?}"
        );
        assert!(!stderr.contains("panicked"), "{what}: {stderr}");
    }
}
