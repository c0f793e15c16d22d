//! Builds the stand-in CANN (tests/standin/*.c) with the system `cc` into a directory, under
//! the three library names CANN uses. Shared by every test that loads it (this crate's
//! cann_* tests, and tools/dit-run's through `#[path]`).

use std::path::Path;
use std::process::Command;

/// The stand-in's sources, next to this file.
fn sources() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join("lowering/runtime/tests/standin")
}

/// Compiles libascendcl.so, libnnopbase.so and libopapi.so into `dir` (warnings are errors).
pub fn compile_standin(dir: &Path) {
    let src = sources();
    for (lib, file) in [
        ("libascendcl.so", "ascendcl.c"),
        ("libnnopbase.so", "nnopbase.c"),
        ("libopapi.so", "opapi.c"),
    ] {
        let status = Command::new("cc")
            .args([
                "-shared", "-fPIC", "-std=c11", "-Wall", "-Wextra", "-Werror", "-o",
            ])
            .arg(dir.join(lib))
            .arg(src.join(file))
            .status()
            .expect("the system C compiler `cc` runs");
        assert!(status.success(), "cc failed on {file}");
    }
}
