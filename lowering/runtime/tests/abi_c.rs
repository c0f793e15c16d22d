//! Builds the C program `tests/c/abi.c` against `include/dit_runtime.h` and the crate's
//! staticlib with the system C compiler, and runs it: the header, the symbol names and the
//! descriptor layout are checked from C, as lowered code sees them.
//!
//! Finding the staticlib: `cargo test` compiles the library (rlib and staticlib) into
//! `target/<profile>/deps/` under a hashed name, and only copies it to
//! `target/<profile>/libdit_runtime.a` when the library itself is a build root. So the test
//! runs `cargo build -p dit-runtime --lib` for its own profile and target directory (cargo
//! releases the build lock before it runs tests), which is a no-op apart from that copy when the
//! library is up to date, and then links `target/<profile>/libdit_runtime.a`: always the
//! library of the current sources. Without a C compiler (`$CC`, else `cc`) the test says so and
//! passes.

use std::{
    path::{Path, PathBuf},
    process::{Command, Output, Stdio},
    time::{Duration, Instant},
};

/// Runs `cmd` to completion, failing the test after `limit`.
fn run(cmd: &mut Command, limit: Duration) -> Output {
    let what = format!("{cmd:?}");
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {what}: {e}"));
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if start.elapsed() > limit => {
                // Only this child, which the test started.
                let _ = child.kill();
                panic!("{what} ran past {limit:?}");
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(50)),
            Err(e) => panic!("waiting for {what}: {e}"),
        }
    }
    let out = child.wait_with_output().expect("child output");
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// `(target dir, profile dir)` of this test executable: `<target>/<profile>/deps/abi_c-…`.
fn build_dirs() -> (PathBuf, PathBuf) {
    let exe = std::env::current_exe().expect("test executable path");
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("the test runs from <target>/<profile>/deps")
        .to_path_buf();
    let target_dir = profile_dir
        .parent()
        .expect("a target directory")
        .to_path_buf();
    (target_dir, profile_dir)
}

fn compiler() -> Option<String> {
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let found = Command::new(&cc)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    found.then_some(cc)
}

#[test]
fn c_program_links_and_runs() {
    let Some(cc) = compiler() else {
        eprintln!("no C compiler ($CC or cc): the C ABI test is skipped");
        return;
    };
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (target_dir, profile_dir) = build_dirs();
    let profile = match profile_dir.file_name().and_then(|n| n.to_str()) {
        Some("debug") => "dev".to_string(),
        Some(name) => name.to_string(),
        None => panic!("no profile directory name in {}", profile_dir.display()),
    };
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    run(
        Command::new(cargo)
            .current_dir(manifest)
            .args([
                "build",
                "--offline",
                "-p",
                "dit-runtime",
                "--lib",
                "--profile",
            ])
            .arg(&profile)
            .arg("--target-dir")
            .arg(&target_dir),
        Duration::from_secs(900),
    );
    let lib = profile_dir.join("libdit_runtime.a");
    assert!(lib.is_file(), "{} was not built", lib.display());

    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("abi_c");
    std::fs::create_dir_all(&out_dir).expect("a scratch directory");
    let exe = out_dir.join("abi_c");
    run(
        Command::new(&cc)
            .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic", "-I"])
            .arg(manifest.join("include"))
            .arg(manifest.join("tests/c/abi.c"))
            .arg(&lib)
            .args(["-lpthread", "-ldl", "-lm", "-o"])
            .arg(&exe),
        Duration::from_secs(300),
    );
    let out = run(&mut Command::new(&exe), Duration::from_secs(120));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "ok");
}

/// The header is also valid C++ (lowered code may be wrapped by C++ hosts).
#[test]
fn header_compiles_as_cpp() {
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".to_string());
    let found = Command::new(&cxx)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        eprintln!("no C++ compiler ($CXX or c++): the header check is skipped");
        return;
    }
    let header = Path::new(env!("CARGO_MANIFEST_DIR")).join("include/dit_runtime.h");
    run(
        Command::new(cxx)
            .args([
                "-std=c++11",
                "-Wall",
                "-Wextra",
                "-Werror",
                "-fsyntax-only",
                "-x",
                "c++",
            ])
            .arg(header),
        Duration::from_secs(120),
    );
}
