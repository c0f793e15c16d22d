//! Every dit.fused group through Huawei's AscendNPU-IR compiler (issue 15): the groups of every
//! model graph (examples/, test/models/, test/models/exec/, test/models/imported/ through the
//! torch conversion) and of every lit test under test/ that runs `--dit-auto-fuse`, emitted
//! with `dit-opt --emit=linalg`, are compiled by `bishengir-compile` for Ascend910B2 (A2) and by
//! `bishengir-compile-a5` for Ascend950PR_9599 (950) up to the HIVM module (the stand-in hivmc
//! copies it out, shared/ASCENDNPU_IR.md). Identical group texts (up to the kernel name) are
//! compiled once per target.
//!
//! A group is compiled with the flags of [`ATTEMPTS`] in order until one compiles. A group no
//! attempt compiles is a failure unless [`JUSTIFIED`] lists it with the compiler's own error
//! and the reason that error is the compiler's limitation, not dit's; a listed group that now
//! compiles fails the test too (drop the entry). Exit code 0 is not trusted: the HIVM module
//! must exist and hold the kernel as a DEVICE entry with the block dim asked for.
//! Without the compiler (scripts/setup-bishengir.sh not run, or offline) the test prints
//! "skipped: <reason>" and returns.

mod support;
use std::{
    collections::HashMap,
    fs,
    path::{Path, PathBuf},
    process::{Command, Stdio},
    sync::{
        atomic::{AtomicUsize, Ordering},
        Mutex,
    },
    thread,
    time::{Duration, Instant},
};
use support::repo_root;
use support::{
    bishengir::{skip, Bishengir},
    models::models,
};

/// One compiler target.
struct Target {
    /// Short name used in [`JUSTIFIED`] and the printed summary.
    name: &'static str,
    /// The `bishengir-compile` binary for the chip family.
    compile: &'static str,
    /// The matching `bishengir-opt`, used once to read the chip's core count.
    opt: &'static str,
    /// `--target=` value.
    chip: &'static str,
}

/// A2 (c220) and 950 (c310): the two compilers the wheel ships.
const TARGETS: &[Target] = &[
    Target {
        name: "A2",
        compile: "bishengir-compile",
        opt: "bishengir-opt",
        chip: "Ascend910B2",
    },
    Target {
        name: "950",
        compile: "bishengir-compile-a5",
        opt: "bishengir-opt-a5",
        chip: "Ascend950PR_9599",
    },
];

/// The flags each group is tried with, in order (the `--enable-hfusion-compile`, target and
/// block dim come first in every attempt).
/// - Single-threaded first: bishengir 1.2.0's threaded pass manager races. One unchanged group
///   (hunyuan_video_double_block_1) failed 6 of 20 threaded compiles ("using value defined
///   outside the region", segfaults) and passed 20 of 20 with MLIR's threading off.
/// - Threaded second: the single-threaded path has a crash of its own. z_image_block's
///   fused_forward_0 segfaulted 8 of 8 single-threaded and compiled 8 of 8 threaded.
/// - Then both again with `--enable-tuning-mode`, which searches tile sizes instead of taking
///   the first (shared/ASCENDNPU_IR.md: "ub overflow" without it on larger groups).
const ATTEMPTS: &[(&str, &[&str])] = &[
    ("single-threaded", &["--mlir-disable-threading"]),
    ("threaded", &[]),
    (
        "single-threaded --enable-tuning-mode",
        &["--mlir-disable-threading", "--enable-tuning-mode"],
    ),
    ("threaded --enable-tuning-mode", &["--enable-tuning-mode"]),
];

/// A group the compiler rejects for a reason that is its own.
struct Justified {
    /// [`Target::name`].
    target: &'static str,
    /// `<source file>:<kernel>`, any occurrence of the (deduplicated) group; sources of lit
    /// tests carry the chunk number, `test/Transforms/dit-auto-fuse.mlir#7:fused_siblings_0`.
    group: &'static str,
    /// Part of the compiler's first error line.
    error: &'static str,
    /// Why the error is the compiler's, not dit's.
    why: &'static str,
}

/// Groups bishengir 1.2.0 rejects on its own account, each checked by hand: dit's module parses
/// and verifies in upstream MLIR (tests/linalg.rs), every one of [`ATTEMPTS`] fails, and
/// the reason names what the compiler cannot do or where it breaks its own IR. Matched by name
/// (`<source>:<kernel>`, stable across runs while the fusion decisions stay), not by a hash of
/// the text, so that an emission change elsewhere does not silently re-key the table.
const JUSTIFIED: &[Justified] = &[
    Justified {
        target: "A2",
        group: "test/models/imported/ltx2_block.mlir:fused_forward_5",
        error: "could not find next producer to fuse into container",
        why: SLICED_NORM_ROPE,
    },
    Justified {
        target: "A2",
        group: "test/models/imported/ltx2_block.mlir:fused_forward_12",
        error: "could not find next producer to fuse into container",
        why: SLICED_NORM_ROPE,
    },
    Justified {
        target: "A2",
        group: "test/models/imported/ltx2_block.mlir:fused_forward_17",
        error: "could not find next producer to fuse into container",
        why: SLICED_NORM_ROPE,
    },
    Justified {
        target: "A2",
        group: "test/models/imported/ltx_video_block.mlir:fused_forward_1",
        error: "could not find next producer to fuse into container",
        why: SLICED_NORM_ROPE,
    },
    Justified {
        target: "A2",
        group: "test/Transforms/dit-auto-fuse-split.mlir#1:fused_kv_split_into_norm_0",
        error: "type of return operand 0",
        why: SLICE_RESULT,
    },
    Justified {
        target: "950",
        group: "test/Transforms/dit-auto-fuse-split.mlir#1:fused_kv_split_into_norm_0",
        error: "Failed to run buildFinalHIVMPipelines pipeline",
        why: SLICE_RESULT,
    },
    Justified {
        target: "950",
        group: "test/models/qwen_image_block.mlir:fused_qwen_image_block_1",
        error: "could not find next producer to fuse into container",
        why: NEXT_PRODUCER,
    },
    Justified {
        target: "950",
        group: "test/models/exec/qwen_image_block.mlir:fused_qwen_image_block_1",
        error: "could not find next producer to fuse into container",
        why: NEXT_PRODUCER,
    },
    Justified {
        target: "950",
        group: "examples/flux_double_block.mlir:fused_flux_double_block_1",
        error: "could not find next producer to fuse into container",
        why: NEXT_PRODUCER,
    },
    Justified {
        target: "950",
        group: "test/models/hunyuan_video_double_block.mlir:fused_hunyuan_video_double_block_1",
        error: "could not find next producer to fuse into container",
        why: NEXT_PRODUCER,
    },
    Justified {
        target: "950",
        group: "test/models/exec/flux_double_block.mlir:fused_flux_double_block_1",
        error: "could not find next producer to fuse into container",
        why: NEXT_PRODUCER,
    },
    Justified {
        target: "950",
        group:
            "test/models/exec/hunyuan_video_double_block.mlir:fused_hunyuan_video_double_block_1",
        error: "could not find next producer to fuse into container",
        why: NEXT_PRODUCER,
    },
    Justified {
        target: "950",
        group: "test/models/imported/flux2_double_block.mlir:fused_forward_0",
        error: "could not find next producer to fuse into container",
        why: NEXT_PRODUCER,
    },
    Justified {
        target: "950",
        group: "test/models/imported/hunyuan_video15_block.mlir:fused_forward_1",
        error: "could not find next producer to fuse into container",
        why: NEXT_PRODUCER,
    },
    Justified {
        target: "950",
        group: "test/models/imported/ovis_image_double_block.mlir:fused_forward_1",
        error: "could not find next producer to fuse into container",
        why: NEXT_PRODUCER,
    },
    Justified {
        target: "950",
        group: "test/models/imported/qwen_image_block.mlir:fused_forward_1",
        error: "could not find next producer to fuse into container",
        why: NEXT_PRODUCER,
    },
    Justified {
        target: "A2",
        group: "test/models/imported/cosmos3_block.mlir:fused_forward_0",
        error: "target and source are not in the same block",
        why: BROKEN_INVARIANT,
    },
    Justified {
        target: "950",
        group: "test/models/imported/cosmos3_block.mlir:fused_forward_0",
        error: "isBeforeInBlock",
        why: BROKEN_INVARIANT,
    },
    Justified {
        target: "A2",
        group: "test/models/imported/krea2_block.mlir:fused_forward_1",
        error: "operations cannot be fused",
        why: HEAD_VIEW_ROPE,
    },
    Justified {
        target: "950",
        group: "test/models/imported/krea2_block.mlir:fused_forward_1",
        error: "operations cannot be fused",
        why: HEAD_VIEW_ROPE,
    },
    Justified {
        target: "A2",
        group: "test/models/imported/cosmos3_block.mlir:fused_forward_1",
        error: "operations cannot be fused",
        why: CONCAT_RESULT,
    },
    Justified {
        target: "A2",
        group: "test/models/imported/hidream_single_block.mlir:fused_forward_0",
        error: "operations cannot be fused",
        why: CONCAT_RESULT,
    },
    Justified {
        target: "950",
        group: "test/models/imported/cosmos3_block.mlir:fused_forward_1",
        error: "operations cannot be fused",
        why: CONCAT_RESULT,
    },
    Justified {
        target: "950",
        group: "test/models/imported/flux_double_block.mlir:fused_forward_1",
        error: "could not find next producer to fuse into container",
        why: NEXT_PRODUCER,
    },
    Justified {
        target: "950",
        group: "test/Transforms/dit-auto-fuse-split.mlir#5:fused_joint_qkv_heads_0",
        error: "could not find next producer to fuse into container",
        why: NEXT_PRODUCER,
    },
    Justified {
        target: "950",
        group: "test/models/imported/hidream_single_block.mlir:fused_forward_0",
        error: "operations cannot be fused",
        why: CONCAT_RESULT,
    },
];

/// Why a q/k norm + rope group fails to schedule.
const NEXT_PRODUCER: &str = "HFusion's auto-schedule cannot fuse the chain into one container: a group of q/k RMSNorms (and RoPE) whose outputs are built by tensor.concat of the normed rows (the two streams' sequence concat; the rotation's halves). dit's module is valid upstream linalg / tensor (mlir-opt verifies it, tests/linalg.rs) and there is no other concatenation form: tensor.insert_slice into tensor.empty fails the same way; --enable-tuning-mode fails alike";
/// Why a verified input trips the compiler's own IR invariants.
const BROKEN_INVARIANT: &str = "the compiler breaks its own IR: an assertion (isBeforeInBlock, 950) or a verifier error on ops its transforms created (A2), on a module that verifies upstream; no flag avoids it";
/// Why a split piece yielded as it is fails.
const SLICE_RESULT: &str = "a function result that is a column slice of an input, unchanged (a dit.split piece the group yields for a reader outside, tensor.extract_slice of the argument), is left in UB by bufferization (\"type of return operand 0 ('memref<6x64xf32, #hivm.address_space<ub>>') doesn't match function result type\"); copying it with linalg.copy fails \"Unsupported copy from gm to gm\", a linalg.generic copy is refused as illegal, and an arithmetic identity (x + 0) folds back to the slice; the same group with one real op on that piece (math.absf) compiles for A2 and 950";
/// Why a q/k norm + RoPE group that reads its rows as column slices of one input fails.
const SLICED_NORM_ROPE: &str = "HFusion's auto-schedule cannot fuse the chain into one container once the q/k RMSNorms (and RoPE) read their rows as tensor.extract_slice column windows of the merged projection (dit-auto-fuse opens the group with its split); the same norms and RoPE with the pieces as separate inputs compile, and dit's module is valid upstream linalg / tensor (mlir-opt verifies it, tests/linalg.rs)";
/// Why Krea 2's q/k norm + interleaved RoPE group fails once it reads its heads in place.
const HEAD_VIEW_ROPE: &str = "HFusion cannot fuse the interleaved RoPE's pair view of k (tensor.expand_shape [.., 64, 2] of the normed heads) into the container once the heads are tensor.expand_shape views of tensor.extract_slice windows of the merged projection (dit-auto-fuse takes the split and the reshapes to heads); checked by hand: the same module with the two pass-through pieces dropped from its results fails the same way, the module verifies upstream (mlir-opt, tests/linalg.rs), and the group never compiled: with the pieces as separate inputs it failed with a dominance error on a use HFusion's scheduling created (A2) and an isBeforeInBlock assertion (950)";
/// Why a concat that is also a result fails.
const CONCAT_RESULT: &str = "HFusion cannot fuse a tensor.concat whose result is both a group output and the input of a row reduction (norm over the concatenated sequence); one three-way concat instead of two nested ones fails the same way";

/// Seconds one compile may take before it counts as a failure.
const COMPILE_LIMIT: Duration = Duration::from_secs(180);

fn dit_opt() -> &'static str {
    env!("CARGO_BIN_EXE_dit-opt")
}

/// One input `dit-opt` turns into groups: a file (or a lit chunk written out) and its flags.
struct Source {
    /// Repo-relative name, `#<chunk>` appended for a lit chunk.
    name: String,
    file: PathBuf,
    flags: Vec<&'static str>,
}

/// Lit tests under test/ (outside the model and golden directories, which the model list
/// covers) that run dit-auto-fuse, split at `// -----` like `--split-input-file` does. Chunks
/// that define no function outside a comment are left out.
fn auto_fuse_lit_sources(root: &Path, scratch: &Path) -> Vec<Source> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in fs::read_dir(dir).expect("list test/").flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "mlir") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(&root.join("test"), &mut files);
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let rel = path
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .to_string();
        if rel.starts_with("test/models/") || rel.starts_with("test/golden/") {
            continue;
        }
        // Some corpus inputs under test/ are deliberately not UTF-8: they run nothing here.
        let text = String::from_utf8_lossy(&fs::read(&path).expect("lit test text")).to_string();
        // A RUN line that expects dit-opt to fail (`not dit-opt`) is no source of groups.
        let runs_auto_fuse = text.lines().any(|l| {
            l.trim_start().starts_with("// RUN:")
                && l.contains("dit-auto-fuse")
                && !l.contains("not dit-opt")
        });
        if !runs_auto_fuse {
            continue;
        }
        for (i, chunk) in text.split("\n// -----").enumerate() {
            let has_func = chunk
                .lines()
                .any(|l| !l.trim_start().starts_with("//") && l.contains("func.func"));
            if !has_func {
                continue;
            }
            let file = scratch.join(format!("lit-{}-{i}.mlir", rel.replace('/', "_")));
            // Whatever followed the marker on its line is a comment's tail: drop that line.
            let body = if i == 0 {
                chunk
            } else {
                chunk.split_once('\n').map_or("", |(_, rest)| rest)
            };
            fs::write(&file, body).expect("write lit chunk");
            out.push(Source {
                name: format!("{rel}#{i}"),
                file,
                flags: vec!["--dit-auto-fuse"],
            });
        }
    }
    out
}

/// A distinct group: the text of its module, and every `<source>:<kernel>` that emitted it.
struct Group {
    /// The first occurrence's file (compiled) and kernel (looked for in the HIVM module).
    file: PathBuf,
    kernel: String,
    occurrences: Vec<String>,
}

/// How one group fared on one target.
enum Outcome {
    /// Compiled with [`ATTEMPTS`]`[i]`.
    Compiled(usize),
    /// The compiler's first error, or what was wrong with its output, per attempt.
    Failed(String),
}

/// The core count of `chip`, as the compiler's own device table says: `hacc-append-device-spec`
/// (AscendNPU-IR, HACC dialect) writes the chip's spec into the module, `AI_CORE_COUNT` among it
/// (24 for Ascend910B2, 36 for Ascend950PR_9599 in 1.2.0). That is the block dim a kernel
/// launched over the whole chip gets.
fn core_count(b: &Bishengir, t: &Target, scratch: &Path) -> Result<u32, String> {
    let empty = scratch.join("empty.mlir");
    fs::write(&empty, "module {}\n").expect("write empty module");
    let out = b
        .command(t.opt)
        .arg(format!("--hacc-append-device-spec=target={}", t.chip))
        .arg(&empty)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", t.opt))?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.split("\"AI_CORE_COUNT\", ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| {
            format!(
                "{} printed no AI_CORE_COUNT for {}:\n{}{}",
                t.opt,
                t.chip,
                text,
                String::from_utf8_lossy(&out.stderr)
            )
        })
}

/// Runs `cmd` to completion or [`COMPILE_LIMIT`]; `(success, stderr + stdout)`.
fn run_limited(mut cmd: Command, log: &Path) -> (bool, String) {
    let file = fs::File::create(log).expect("compile log");
    let mut child = cmd
        .stdout(file.try_clone().expect("log handle"))
        .stderr(file)
        .stdin(Stdio::null())
        .spawn()
        .expect("run bishengir-compile");
    let start = Instant::now();
    let ok = loop {
        if let Some(status) = child.try_wait().expect("wait for bishengir-compile") {
            break status.success();
        }
        if start.elapsed() > COMPILE_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            let _ = fs::write(log, format!("timed out after {COMPILE_LIMIT:?}"));
            break false;
        }
        thread::sleep(Duration::from_millis(20));
    };
    (ok, fs::read_to_string(log).unwrap_or_default())
}

/// The first line of the compiler's log that states the error (not the generic "Failed to
/// run/create" lines that wrap it), with the file location cut off.
fn first_error(log: &str) -> String {
    let line = log
        .lines()
        .filter(|l| l.to_lowercase().contains("error") || l.contains("Assertion"))
        .find(|l| !l.contains("Failed to run BiSheng") && !l.contains("Failed to create and apply"))
        .or_else(|| log.lines().find(|l| !l.trim().is_empty()))
        .unwrap_or("(no output; the compiler crashed or was killed)");
    let line = line.rsplit("error: ").next().unwrap_or(line);
    line.chars().take(300).collect()
}

/// Checks the HIVM module bishengir-compile left under `--save-temps`: the kernel is there as a
/// DEVICE entry on global-memory arguments, and the device code runs on the block dim asked
/// for: the entry carries `hacc.block_dim`, or, where the compiler split the group into several
/// kernels (`@<kernel>_multi_<kind>_<i>_0`, SHALLOW_VV), each of those does and the entry only
/// launches them. The chip's spec must be the one the block dim was read from.
fn check_hivm(dir: &Path, kernel: &str, block_dim: u32) -> Result<(), String> {
    let path = dir.join("module.hivm.opt.mlir");
    let text = fs::read_to_string(&path)
        .map_err(|_| "exit 0 but no module.hivm.opt.mlir was written".to_string())?;
    let head = format!("func.func @{kernel}(");
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with(&head))
        .ok_or_else(|| format!("the HIVM module has no function @{kernel}"))?;
    for needle in [
        "hacc.entry",
        "#hacc.function_kind<DEVICE>",
        "#hivm.address_space<gm>",
    ] {
        if !line.contains(needle) {
            return Err(format!("@{kernel} in the HIVM module lacks `{needle}`"));
        }
    }
    let dim = format!("hacc.block_dim = {block_dim} : i64");
    let parts: Vec<&str> = text
        .lines()
        .filter(|l| {
            l.trim_start()
                .starts_with(&format!("func.func @{kernel}_multi_"))
                && l.contains("#hacc.function_kind<DEVICE>")
        })
        .collect();
    if !line.contains(&dim) && (parts.is_empty() || parts.iter().any(|l| !l.contains(&dim))) {
        return Err(format!(
            "neither @{kernel} nor all of its {} split kernels carry `{dim}`",
            parts.len()
        ));
    }
    let spec = format!("\"AI_CORE_COUNT\", {block_dim} : i32");
    if !text.contains(&spec) {
        return Err(format!("the HIVM module's device spec lacks {spec}"));
    }
    Ok(())
}

/// Compiles `g` for `t` with each of [`ATTEMPTS`] until one compiles.
fn compile(b: &Bishengir, t: &Target, g: &Group, block_dim: u32, dir: &Path) -> Outcome {
    let mut errors: Vec<String> = Vec::new();
    for (attempt, (name, flags)) in ATTEMPTS.iter().enumerate() {
        let out = dir.join(format!("try{attempt}"));
        fs::create_dir_all(&out).expect("compile dir");
        let mut cmd = b.command(t.compile);
        cmd.arg(&g.file)
            .arg("--enable-hfusion-compile=true")
            .arg(format!("--target={}", t.chip))
            .arg(format!("--block-dim={block_dim}"))
            .args(flags.iter())
            .arg(format!("--save-temps={}", out.display()))
            .arg("-o")
            .arg(out.join("kernel"));
        let (ok, log) = run_limited(cmd, &out.join("log"));
        let verdict = if ok {
            check_hivm(&out, &g.kernel, block_dim)
        } else {
            Err(first_error(&log))
        };
        match verdict {
            Ok(()) => return Outcome::Compiled(attempt),
            Err(e) if errors.first() == Some(&e) => {}
            Err(e) if errors.is_empty() => errors.push(e),
            Err(e) => errors.push(format!("({name}: {e})")),
        }
    }
    Outcome::Failed(errors.join(" "))
}

/// The [`JUSTIFIED`] entry naming any occurrence of `g` on `t`.
fn justified(t: &Target, g: &Group) -> Option<usize> {
    JUSTIFIED
        .iter()
        .position(|e| e.target == t.name && g.occurrences.iter().any(|o| o == e.group))
}

#[test]
fn every_fused_group_compiles_with_bishengir_for_a2_and_950() {
    let test = "every_fused_group_compiles_with_bishengir_for_a2_and_950";
    let root = repo_root();
    let b = match Bishengir::locate(&root) {
        Ok(b) => b,
        Err(why) => return skip(test, &why),
    };
    let scratch = tempfile::tempdir().expect("temp dir");
    let mut block_dims = Vec::new();
    for t in TARGETS {
        let n = core_count(&b, t, scratch.path()).unwrap_or_else(|e| panic!("{e}"));
        println!("{} ({}): block dim {n}", t.name, t.chip);
        block_dims.push(n);
    }

    // Emit every group.
    let mut sources: Vec<Source> = models(&root)
        .into_iter()
        .map(|m| Source {
            flags: if m.starts_with("test/models/imported/") {
                vec!["--dit-convert-torch-to-dit", "--fuse-all"]
            } else {
                vec!["--fuse-all"]
            },
            file: root.join(&m),
            name: m,
        })
        .collect();
    sources.extend(auto_fuse_lit_sources(&root, scratch.path()));
    let mut groups: Vec<Group> = Vec::new();
    let mut by_text: HashMap<String, usize> = HashMap::new();
    let mut problems = Vec::new();
    let mut total = 0;
    for (i, s) in sources.iter().enumerate() {
        let dir = scratch.path().join(format!("emit{i}"));
        let out = Command::new(dit_opt())
            .args(&s.flags)
            .args(["--emit=linalg", "-o"])
            .arg(&dir)
            .arg(&s.file)
            .output()
            .expect("run dit-opt");
        if !out.status.success() {
            problems.push(format!(
                "{}: dit-opt --emit=linalg failed:\n{}",
                s.name,
                String::from_utf8_lossy(&out.stderr)
            ));
            continue;
        }
        let mut files: Vec<PathBuf> = fs::read_dir(&dir)
            .map(|d| d.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        files.sort();
        for file in files {
            let kernel = file.file_stem().unwrap().to_string_lossy().to_string();
            let text = fs::read_to_string(&file).expect("group text");
            // The kernel name is the only thing two copies of a group differ in.
            let key = text.replacen(&format!("@{kernel}("), "@kernel(", 1);
            let occurrence = format!("{}:{kernel}", s.name);
            total += 1;
            match by_text.get(&key) {
                Some(&g) => groups[g].occurrences.push(occurrence),
                None => {
                    by_text.insert(key, groups.len());
                    groups.push(Group {
                        file,
                        kernel,
                        occurrences: vec![occurrence],
                    });
                }
            }
        }
    }
    println!(
        "{} sources, {total} groups, {} distinct",
        sources.len(),
        groups.len()
    );
    assert!(
        groups.len() > 100,
        "expected over 100 distinct groups, found {}",
        groups.len()
    );

    // Compile: two at a time (the CI machine has two cores).
    let jobs: Vec<(usize, usize)> = (0..groups.len())
        .flat_map(|g| (0..TARGETS.len()).map(move |t| (g, t)))
        .collect();
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Outcome>>> = Mutex::new((0..jobs.len()).map(|_| None).collect());
    thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let j = next.fetch_add(1, Ordering::SeqCst);
                let Some(&(g, t)) = jobs.get(j) else { break };
                let dir = scratch.path().join(format!("c{g}-{}", TARGETS[t].name));
                let r = compile(&b, &TARGETS[t], &groups[g], block_dims[t], &dir);
                results.lock().unwrap()[j] = Some(r);
            });
        }
    });
    let results = results.into_inner().unwrap();

    let mut seen = vec![false; JUSTIFIED.len()];
    for (ti, t) in TARGETS.iter().enumerate() {
        let mut compiled = vec![0usize; ATTEMPTS.len()];
        let mut listed = 0;
        for (j, &(g, jt)) in jobs.iter().enumerate() {
            if jt != ti {
                continue;
            }
            let group = &groups[g];
            let entry = justified(t, group);
            match (results[j].as_ref().expect("every job ran"), entry) {
                (Outcome::Compiled(a), None) => compiled[*a] += 1,
                (Outcome::Compiled(_), Some(e)) => {
                    seen[e] = true;
                    problems.push(format!(
                        "{} {}: listed in JUSTIFIED but now compiles: drop the entry",
                        t.name, JUSTIFIED[e].group
                    ));
                }
                (Outcome::Failed(err), Some(e)) if err.contains(JUSTIFIED[e].error) => {
                    seen[e] = true;
                    listed += 1;
                    println!(
                        "{} {}: listed failure: {err}\n  why it is the compiler's: {}",
                        t.name, JUSTIFIED[e].group, JUSTIFIED[e].why
                    );
                }
                (Outcome::Failed(err), entry) => {
                    if let Some(e) = entry {
                        seen[e] = true;
                    }
                    problems.push(format!(
                        "{} {}: bishengir-compile --target={} fails{}: {err}\n  (also {})",
                        t.name,
                        group.occurrences[0],
                        t.chip,
                        if entry.is_some() {
                            " with an error other than the listed one"
                        } else {
                            ""
                        },
                        group.occurrences[1..].join(", ")
                    ));
                }
            }
        }
        let by_attempt: Vec<String> = ATTEMPTS
            .iter()
            .zip(&compiled)
            .map(|((name, _), n)| format!("{n} {name}"))
            .collect();
        println!(
            "{} ({}): compiled {} ({}), {listed} listed failures, {} distinct groups",
            t.name,
            t.chip,
            compiled.iter().sum::<usize>(),
            by_attempt.join(", "),
            groups.len()
        );
    }
    for (e, seen) in JUSTIFIED.iter().zip(seen) {
        if !seen {
            problems.push(format!(
                "{} {}: listed in JUSTIFIED but no such group was emitted: drop or rename the entry",
                e.target, e.group
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
