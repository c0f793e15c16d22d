//! `bishengir_peer`: dit's tiling and fusion decisions next to AscendNPU-IR's (bishengir) on
//! the same functions (issue 15 item 4). A benchmark, not a test: it prints two tables and
//! asserts nothing about them.
//!
//! * Tiling. For every dit.fused group of the FLUX, SD3.5, Wan2.1 and HunyuanVideo blocks:
//!   the tiling of the Ascend C kernel dit generates for it (crate dit-ascendc, called here the
//!   way `dit-opt --emit=ascendc` calls it: rows per tile, UB bytes, queue buffers) next to the
//!   tiling `bishengir-compile` chose for the same group's linalg (`dit-opt --emit=linalg`),
//!   read from its final HIVM module (`--save-temps`: `module.hivm.opt.mlir`).
//! * Kernel count. Every maximal vector region of a block (auto-fusion with the Unified Buffer
//!   and min-benefit limits lifted, one group per region) as one function: how many kernels
//!   dit-auto-fuse makes of it under the real limits, and how many HFusion's own fusion
//!   (`hfusion-fuse-ops`, in bishengir-compile's pipeline) outlines from its linalg.
//!
//! Without bishengir (`target/bishengir/status` not `ok`) or without a dit-opt binary it prints
//! `skipped: <reason>` and exits 0.

use dit_dialect::ir::Op;
use melior::{ir::Module, Context};
use std::{
    collections::HashMap,
    fmt::Write as _,
    path::{Path, PathBuf},
    process::{Command, ExitCode},
};

/// The blocks of issue 15's acceptance, as (label, file under the repository root).
const BLOCKS: &[(&str, &str)] = &[
    ("FLUX.1 double", "examples/flux_double_block.mlir"),
    ("FLUX.1 single", "test/models/flux_single_block.mlir"),
    ("SD3.5 joint", "test/models/sd35_joint_block.mlir"),
    ("Wan2.1", "test/models/wan21_block.mlir"),
    // One file, two functions (double- and single-stream block).
    (
        "HunyuanVideo double+single",
        "test/models/hunyuan_video_double_block.mlir",
    ),
];

/// bishengir's chip with dit's default target's shape: Atlas A2 with 20 AI Cores, 40 vector
/// cores and a 192 KiB Unified Buffer (the module's device spec says `VECTOR_CORE_COUNT` 40,
/// `UB_SIZE` 1572864 bits); dit's `ascend910b` has the same UB and core count.
const BISHENG_TARGET: &str = "Ascend910B3";

fn main() -> ExitCode {
    let mut dit_opt: Option<PathBuf> = None;
    let mut keep: Option<PathBuf> = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--dit-opt" => dit_opt = args.next().map(PathBuf::from),
            "--keep" => keep = args.next().map(PathBuf::from),
            "-h" | "--help" => {
                println!(
                    "usage: bishengir_peer [--dit-opt PATH] [--keep DIR]\n  --dit-opt PATH  the dit-opt to run (default: target/release/dit-opt, else target/debug/dit-opt)\n  --keep DIR      keep the generated modules and bishengir's output in DIR"
                );
                return ExitCode::SUCCESS;
            }
            other => {
                eprintln!("bishengir_peer: unknown argument '{other}' (try --help)");
                return ExitCode::from(2);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("bench/ lives in the repository")
        .to_path_buf();
    let tools = match Tools::find(&root, dit_opt) {
        Ok(t) => t,
        Err(reason) => {
            println!("skipped: {reason}");
            return ExitCode::SUCCESS;
        }
    };
    match run(&root, &tools, keep) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bishengir_peer: error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The programs the benchmark runs.
struct Tools {
    dit_opt: PathBuf,
    /// target/bishengir/bin: bishengir-compile and the stand-in hivmc.
    bisheng_bin: PathBuf,
    version: String,
}

impl Tools {
    fn find(root: &Path, dit_opt: Option<PathBuf>) -> Result<Tools, String> {
        let status_file = root.join("target/bishengir/status");
        let status = std::fs::read_to_string(&status_file).map_err(|_| {
            format!(
                "bishengir is not installed ({} is missing: run scripts/setup-bishengir.sh)",
                status_file.display()
            )
        })?;
        let first = status.lines().next().unwrap_or_default().trim().to_string();
        let Some(version) = first.strip_prefix("ok ") else {
            return Err(format!("bishengir is {first}"));
        };
        let bisheng_bin = root.join("target/bishengir/bin");
        for tool in ["bishengir-compile", "hivmc"] {
            if !bisheng_bin.join(tool).is_file() {
                return Err(format!("{} is missing", bisheng_bin.join(tool).display()));
            }
        }
        let dit_opt = match dit_opt {
            Some(p) if !p.is_file() => return Err(format!("no dit-opt at {}", p.display())),
            Some(p) => p,
            None => ["target/release/dit-opt", "target/debug/dit-opt"]
                .iter()
                .map(|p| root.join(p))
                .find(|p| p.is_file())
                .ok_or("no dit-opt binary (cargo build -p dit-opt, or --dit-opt PATH)")?,
        };
        Ok(Tools {
            dit_opt,
            bisheng_bin,
            version: version.to_string(),
        })
    }

    /// Runs dit-opt; `Err` carries its diagnostics.
    fn dit(&self, args: &[&str]) -> Result<(), String> {
        let out = Command::new(&self.dit_opt)
            .args(args)
            .output()
            .map_err(|e| format!("cannot run {}: {e}", self.dit_opt.display()))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!(
                "dit-opt {}: {}",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr).trim()
            ))
        }
    }

    /// Runs bishengir-compile on `input` with the stand-in hivmc first on PATH; returns
    /// (success, stderr).
    fn compile(
        &self,
        input: &Path,
        out_dir: &Path,
        extra: &[&str],
    ) -> Result<(bool, String), String> {
        std::fs::create_dir_all(out_dir).map_err(|e| e.to_string())?;
        let path = format!(
            "{}:{}",
            self.bisheng_bin.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let out = Command::new(self.bisheng_bin.join("bishengir-compile"))
            .arg(input)
            .args([
                "--enable-hfusion-compile=true",
                // bishengir 1.2.0's threaded pipeline races: the same file failed 6 of 20
                // compiles (wrong dominance, segfaults) and passed 20 of 20 single-threaded.
                "--mlir-disable-threading",
                &format!("--target={BISHENG_TARGET}"),
                &format!("--block-dim={}", dit_target_spec().core_num),
            ])
            .args(extra)
            .arg("-o")
            .arg(out_dir.join("kernel"))
            .env("PATH", path)
            .output()
            .map_err(|e| format!("cannot run bishengir-compile: {e}"))?;
        let mut stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        if !out.status.success() {
            // Kept for messages when bishengir dies without an `error:` line (a crash).
            stderr.push_str(&format!("\n[bishengir-compile {}]", out.status));
        }
        Ok((out.status.success(), stderr))
    }
}

/// dit's Ascend C target, as `dit-opt --emit=ascendc` builds it for the default `--target`.
fn dit_target_spec() -> dit_ascendc::TargetSpec {
    let t = dit_dialect::target::Target::default_target();
    dit_ascendc::TargetSpec::with_vector_cores(t.name, t.ub_bytes, t.vector_cores)
}

/// dit's tiling of one group's generated kernel.
struct DitTiling {
    /// Rows per tile, per stage.
    tile_rows: Vec<u64>,
    /// Elements per row (the widest row the stage stores), per stage.
    row_elems: Vec<u64>,
    /// UB bytes of the largest stage at its tile: fixed bytes + tile rows x bytes per row +
    /// the rows of the groups the tile touches (the planner's layout, `StageLayout::ub_bytes`;
    /// queues counted `buffers` times).
    ub_bytes: u64,
    /// BUFFER_NUM of the generated source (queue depth: 2 = double buffered).
    buffers: u64,
    /// Columns per row chunk, when whole rows did not fit.
    chunk: Option<usize>,
}

/// dit's tiling for `op` (a dit.fused): the kernel dit-ascendc generates for it, as
/// `dit-opt --emit=ascendc` generates it, and the tiling its host function computes for the
/// default target (`Kernel::tiling`, the formula of the generated `<k>_tiling.h`).
fn dit_tiling(op: Op, spec: &dit_ascendc::TargetSpec) -> Result<DitTiling, String> {
    let name = op
        .attr("kernel")
        .and_then(|a| a.as_str())
        .unwrap_or_default();
    let body = dit_passes::conversion::dit_lower_to_aclnn::fused_body(op).map_err(|(_, m)| m)?;
    let kernel = dit_ascendc::generate_from_body(&name, body, spec)?;
    let tiling = kernel
        .tiling(spec.ub_bytes, spec.core_num)
        .map_err(|e| e.to_string())?;
    let mut ub_bytes = 0;
    let mut row_elems = Vec::new();
    for ((stage, layout), t) in kernel
        .plan
        .stages
        .iter()
        .zip(&kernel.layouts)
        .zip(&tiling.stages)
    {
        ub_bytes = ub_bytes.max(layout.ub_bytes(t.tile_rows));
        let width = stage
            .stores
            .iter()
            .map(|s| stage.nodes[s.node].width)
            .max()
            .unwrap_or(1);
        row_elems.push(width as u64);
    }
    // The fewest buffers per queue of any stage: the generated BUFFER_NUM (the namespace's
    // default of 2, or a stage's own 1 where a row fits only single-buffered).
    let buffers = kernel
        .layouts
        .iter()
        .map(|l| l.buffer_num)
        .min()
        .ok_or("the generated kernel has no stage")?;
    Ok(DitTiling {
        tile_rows: tiling.stages.iter().map(|s| s.tile_rows).collect(),
        row_elems,
        ub_bytes,
        buffers,
        chunk: kernel.chunk,
    })
}

/// One device kernel of a HIVM module, as far as the module states it.
#[derive(Debug)]
struct HivmKernel {
    name: String,
    fusion_kind: String,
    /// The GM tiles the kernel's loops load and store (sizes; a dynamic size is its
    /// `affine.min` bound).
    tiles: Vec<Vec<u64>>,
    /// End of the highest UB buffer (`hivm.hir.pointer_cast` offset + bytes).
    ub_bytes: u64,
    /// UB buffers with a ping-pong pair (`arith.select` of two UB buffers on the loop's parity).
    multi_buffered: usize,
    /// Bytes of the tiling struct (`..._get_tiling_struct_size_function`); 0: static tiling.
    tiling_struct_bytes: Option<i64>,
}

impl HivmKernel {
    /// Rows of the largest tile: its elements over its innermost size.
    fn tile_rows(&self) -> Option<u64> {
        self.largest_tile().map(|t| {
            let inner = *t.last().unwrap_or(&1);
            t.iter().product::<u64>() / inner.max(1)
        })
    }

    /// Elements of the largest tile.
    fn tile_elems(&self) -> Option<u64> {
        self.largest_tile().map(|t| t.iter().product())
    }

    fn largest_tile(&self) -> Option<&Vec<u64>> {
        self.tiles.iter().max_by_key(|t| t.iter().product::<u64>())
    }

    fn tile_text(&self) -> String {
        self.largest_tile().map_or("no loop".into(), |t| {
            t.iter().map(u64::to_string).collect::<Vec<_>>().join("x")
        })
    }
}

/// Bytes of one element of an MLIR element type (0 when not a plain number type).
fn element_bytes(ty: &str) -> u64 {
    match ty {
        "i1" | "i8" => 1,
        "bf16" | "f16" | "i16" => 2,
        "f32" | "i32" => 4,
        "f64" | "i64" | "index" => 8,
        _ => 0,
    }
}

/// `memref<4x8xbf16, ...>` -> ([4, 8], "bf16"); `None` when a dim is dynamic.
fn memref_shape(text: &str) -> Option<(Vec<u64>, String)> {
    let start = text.find("memref<")? + "memref<".len();
    let inner = &text[start..];
    let end = inner.find([',', '>'])?;
    let mut parts: Vec<&str> = inner[..end].split('x').collect();
    let elem = parts.pop()?.trim().to_string();
    let dims = parts
        .iter()
        .map(|d| d.trim().parse().ok())
        .collect::<Option<Vec<u64>>>()?;
    Some((dims, elem))
}

/// The comma-separated items of the `n`-th `[...]` group of `text`.
fn bracket_group(text: &str, n: usize) -> Option<Vec<String>> {
    let mut rest = text;
    for _ in 0..n {
        rest = &rest[rest.find(']')? + 1..];
    }
    let open = rest.find('[')?;
    let close = open + rest[open..].find(']')?;
    Some(
        rest[open + 1..close]
            .split(',')
            .map(|s| s.trim().to_string())
            .collect(),
    )
}

/// Reads the kernels of a final HIVM module (`module.hivm.opt.mlir`). The module is printed
/// one op per line, so a line scan suffices: bishengir's dialects are not registered here.
fn parse_hivm(text: &str) -> Vec<HivmKernel> {
    // `#mapN = affine_map<(...)[...] -> (expr, C)>`: the constant bound of an affine.min.
    let mut map_bound: HashMap<String, u64> = HashMap::new();
    for line in text.lines() {
        if let Some((name, rest)) = line.split_once(" = affine_map<") {
            if let Some(results) = rest.rsplit_once("-> (").map(|(_, r)| r) {
                let results = results.trim_end_matches(">").trim_end_matches(')');
                if let Some(last) = results.rsplit(',').next() {
                    if let Ok(c) = last.trim().parse() {
                        map_bound.insert(name.trim().to_string(), c);
                    }
                }
            }
        }
    }
    let mut tiling_sizes: HashMap<String, i64> = HashMap::new();
    let mut kernels = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let is_func = line.starts_with("  func.func @") && line.trim_end().ends_with('{');
        if !is_func {
            i += 1;
            continue;
        }
        let name = line["  func.func @".len()..]
            .split('(')
            .next()
            .unwrap_or_default()
            .to_string();
        // The function's body: up to the `  }` that closes it.
        let end = (i + 1..lines.len())
            .find(|&j| lines[j] == "  }")
            .unwrap_or(lines.len());
        let body = &lines[i + 1..end];
        if line.contains("host_func_type<get_tiling_struct_size_function>") {
            if let Some(v) = body.iter().find_map(|l| {
                let (_, rest) = l.split_once("arith.constant ")?;
                rest.split(':').next()?.trim().parse().ok()
            }) {
                tiling_sizes.insert(
                    name.trim_end_matches("_get_tiling_struct_size_function")
                        .to_string(),
                    v,
                );
            }
        }
        if line.contains("hacc.function_kind<DEVICE>") && line.contains("hacc.block_dim") {
            let fusion_kind = line
                .split("hfusion.fusion_kind<")
                .nth(1)
                .and_then(|r| r.split('>').next())
                .unwrap_or("?")
                .to_string();
            kernels.push(parse_kernel_body(name, fusion_kind, body, &map_bound));
        }
        i = end + 1;
    }
    for k in &mut kernels {
        // A kernel `f` has `f_get_tiling_struct_size_function`; outlined kernels (`f_0`) share
        // their group's.
        k.tiling_struct_bytes = tiling_sizes.get(&k.name).copied().or_else(|| {
            k.name
                .rsplit_once('_')
                .and_then(|(base, _)| tiling_sizes.get(base).copied())
        });
    }
    kernels
}

fn parse_kernel_body(
    name: String,
    fusion_kind: String,
    body: &[&str],
    map_bound: &HashMap<String, u64>,
) -> HivmKernel {
    let mut consts: HashMap<String, u64> = HashMap::new();
    let mut min_bound: HashMap<String, u64> = HashMap::new();
    // (result, source, sizes) of every GM subview inside a loop.
    let mut subviews: Vec<(String, String, Vec<u64>)> = Vec::new();
    let mut ub_bytes = 0;
    let mut multi_buffered = 0;
    // Region depth inside the function: 0 is its body, > 0 inside a loop (or if).
    let mut depth = 0i32;
    for line in body {
        let t = line.trim();
        if t.starts_with('}') {
            depth -= 1;
        }
        if let Some((lhs, rhs)) = t.split_once(" = ") {
            let lhs = lhs.trim().to_string();
            if let Some(c) = rhs.strip_prefix("arith.constant ") {
                if let Some(Ok(v)) = c.split(':').next().map(|v| v.trim().parse()) {
                    consts.insert(lhs.clone(), v);
                }
            }
            if let Some(m) = rhs.strip_prefix("affine.min ") {
                let map = m.split('(').next().unwrap_or_default().trim();
                if let Some(b) = map_bound.get(map) {
                    min_bound.insert(lhs.clone(), *b);
                }
            }
            if rhs.starts_with("memref.subview ") && depth > 0 {
                let result_ty = rhs.rsplit(" to ").next().unwrap_or_default();
                if result_ty.contains("address_space<gm>") {
                    // offsets, sizes, strides: the sizes are the second group.
                    let sizes = bracket_group(rhs, 1).unwrap_or_default();
                    let resolved: Option<Vec<u64>> = sizes
                        .iter()
                        .map(|s| {
                            s.parse()
                                .ok()
                                .or_else(|| min_bound.get(s).copied())
                                .or_else(|| consts.get(s).copied())
                        })
                        .collect();
                    let source = rhs["memref.subview ".len()..]
                        .split('[')
                        .next()
                        .unwrap_or_default()
                        .trim()
                        .to_string();
                    if let Some(r) = resolved {
                        subviews.push((lhs.clone(), source, r));
                    }
                }
            }
            if let Some(args) = rhs.strip_prefix("hivm.hir.pointer_cast(") {
                let ty = args.rsplit(" : ").next().unwrap_or_default();
                if ty.contains("address_space<ub>") {
                    let offsets: Vec<u64> = args
                        .split(')')
                        .next()
                        .unwrap_or_default()
                        .split(',')
                        .filter_map(|a| consts.get(a.trim()).copied())
                        .collect();
                    if offsets.len() > 1 {
                        multi_buffered += 1;
                    }
                    if let Some((dims, elem)) = memref_shape(ty) {
                        let bytes = dims.iter().product::<u64>() * element_bytes(&elem);
                        for o in offsets {
                            ub_bytes = u64::max(ub_bytes, o + bytes);
                        }
                    }
                }
            }
            if rhs.starts_with("arith.select ")
                && rhs.contains(": memref<")
                && rhs.contains("address_space<ub>")
            {
                multi_buffered += 1;
            }
        }
        if t.ends_with('{') {
            depth += 1;
        }
    }
    // A subview that an inner loop slices again is the row the loop walks, not a tile
    // (a row split into column chunks: the chunk is the tile).
    let tiles = subviews
        .iter()
        .filter(|(result, _, _)| !subviews.iter().any(|(_, src, _)| src == result))
        .map(|(_, _, sizes)| sizes.clone())
        .collect();
    HivmKernel {
        name,
        fusion_kind,
        tiles,
        ub_bytes,
        multi_buffered,
        tiling_struct_bytes: None,
    }
}

/// What bishengir-compile made of one group.
enum Bisheng {
    /// The kernels, and the HIVM module's text.
    Compiled(Vec<HivmKernel>, String),
    Failed(String),
}

/// bishengir-compile on one linalg module; the HIVM module it leaves in `--save-temps`.
fn bisheng(tools: &Tools, input: &Path, dir: &Path, extra: &[&str]) -> Result<Bisheng, String> {
    let temps = dir.join("temps");
    let save = format!("--save-temps={}", temps.display());
    let mut args = vec![save.as_str()];
    args.extend_from_slice(extra);
    let (ok, stderr) = tools.compile(input, dir, &args)?;
    if !ok {
        return Ok(Bisheng::Failed(first_error(&stderr)));
    }
    let hivm = temps.join("module.hivm.opt.mlir");
    let text = std::fs::read_to_string(&hivm)
        .map_err(|e| format!("bishengir-compile left no {}: {e}", hivm.display()))?;
    Ok(Bisheng::Compiled(parse_hivm(&text), text))
}

/// The most telling line of bishengir's stderr: its last specific `error:` (the first is
/// "Failed to run BiShengHIR pipeline"), without the location.
fn first_error(stderr: &str) -> String {
    let errors: Vec<&str> = stderr
        .lines()
        .filter_map(|l| l.split_once("error: ").map(|(_, m)| m.trim()))
        .filter(|m| !m.starts_with("Failed to run BiSheng"))
        .collect();
    let last = stderr
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    let m = errors.first().copied().unwrap_or(last);
    // "ub overflow, requires N bits while M bits available! (possible reason: ...)"
    let m = m.split(" (possible reason").next().unwrap_or(m);
    m.chars().take(110).collect()
}

/// Kernels HFusion's own fusion outlines from one function: bishengir-compile's pipeline
/// with the IR printed after `hfusion-fuse-ops`, counting the DEVICE functions it made (the
/// entry alone when it outlined nothing).
fn hfusion_kernels(
    tools: &Tools,
    input: &Path,
    dir: &Path,
) -> Result<Result<(usize, String), String>, String> {
    let (_, stderr) = tools.compile(input, dir, &["--mlir-print-ir-after=hfusion-fuse-ops"])?;
    let Some(at) = stderr.find("IR Dump After HFusionOpFusion") else {
        return Ok(Err(format!(
            "no hfusion-fuse-ops dump: {}",
            first_error(&stderr)
        )));
    };
    let dump = &stderr[at..];
    if dump.lines().next().unwrap_or_default().contains("Failed") {
        return Ok(Err(format!(
            "hfusion-fuse-ops failed: {}",
            first_error(&stderr)
        )));
    }
    let mut outlined = Vec::new();
    for line in dump.lines() {
        if line.starts_with("  func.func @")
            && line.contains("hacc.function_kind<DEVICE>")
            && !line.contains("hacc.entry")
        {
            let kind = line
                .split("hfusion.fusion_kind<")
                .nth(1)
                .and_then(|r| r.split('>').next())
                .unwrap_or("?");
            outlined.push(kind.to_string());
        }
        if line.starts_with("// -----// IR Dump") && !line.contains("HFusionOpFusion") {
            break;
        }
    }
    if outlined.is_empty() {
        let entry_kind = dump
            .lines()
            .find(|l| l.starts_with("  func.func @") && l.contains("hacc.entry"))
            .and_then(|l| l.split("hfusion.fusion_kind<").nth(1))
            .and_then(|r| r.split('>').next())
            .unwrap_or("?")
            .to_string();
        return Ok(Ok((1, entry_kind)));
    }
    Ok(Ok((outlined.len(), summarize_kinds(&outlined))))
}

/// ["A", "A", "B"] -> "2 A + B".
fn summarize_kinds(kinds: &[String]) -> String {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for k in kinds {
        match counts.iter_mut().find(|(n, _)| n == k) {
            Some(c) => c.1 += 1,
            None => counts.push((k.clone(), 1)),
        }
    }
    counts
        .iter()
        .map(|(k, n)| {
            if *n > 1 {
                format!("{n} {k}")
            } else {
                k.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(" + ")
}

/// The `dit.fused` groups of a module (in order) and its vector ops left outside them (ops a
/// generated vector kernel could compute, each launched as its own library kernel).
fn groups_and_loose_vector_ops<'a>(module: &'a Module) -> (Vec<Op<'a>>, usize) {
    let mut groups = Vec::new();
    let mut loose = 0;
    Op::of_module(module).walk(&mut |op| {
        if op.is("dit.fused") {
            groups.push(op);
        } else if dit_passes::transforms::dit_auto_fuse::is_vector_op(op)
            && !op.parent().is_some_and(|p| p.is("dit.fused"))
        {
            loose += 1;
        }
    });
    (groups, loose)
}

/// Per function of a module: (name, groups, vector ops outside groups).
fn per_function_counts(module: &Module) -> Vec<(String, usize, usize)> {
    let mut funcs = Vec::new();
    Op::of_module(module).walk(&mut |op| {
        if op.is("func.func") {
            funcs.push(op);
        }
    });
    funcs
        .into_iter()
        .map(|f| {
            let name = f
                .attr("sym_name")
                .and_then(|a| a.as_str())
                .unwrap_or_default();
            let (mut groups, mut loose) = (0, 0);
            f.walk(&mut |op| {
                if op.is("dit.fused") {
                    groups += 1;
                } else if dit_passes::transforms::dit_auto_fuse::is_vector_op(op)
                    && !op.parent().is_some_and(|p| p.is("dit.fused"))
                {
                    loose += 1;
                }
            });
            (name, groups, loose)
        })
        .collect()
}

/// An op's identity across two runs on the same input: its location, name and result type
/// (a location alone is not unique: a rewrite may give several new ops the same one).
fn op_key(op: Op) -> String {
    let ty = if op.num_results() > 0 {
        op.result(0).ty().to_string()
    } else {
        String::new()
    };
    format!("{} {} {ty}", op.location(), op.name())
}

/// The keys of every vector op of `op`'s body (or of `op` itself).
fn vector_locations(op: Op) -> Vec<String> {
    let mut locs = Vec::new();
    op.walk(&mut |o| {
        if dit_passes::transforms::dit_auto_fuse::is_vector_op(o) {
            locs.push(op_key(o));
        }
    });
    locs
}

/// Per lifted region: the kernels dit makes of its ops under the real limits, as
/// (groups, vector ops outside groups) of the normal `--fuse-all` module. Ops are matched by
/// location, name and type (both modules come from the same input, printed with debug info);
/// a normal group counts for the region holding most of its ops. Key "": the groups and ops
/// in no region.
fn kernels_per_region(lifted: &[Op], normal: &Module) -> HashMap<String, (usize, usize)> {
    let regions: Vec<(String, Vec<String>)> = lifted
        .iter()
        .map(|g| {
            let name = g
                .attr("kernel")
                .and_then(|a| a.as_str())
                .unwrap_or_default();
            (name, vector_locations(*g))
        })
        .collect();
    let home = |locs: &[String]| -> Option<&str> {
        regions
            .iter()
            .map(|(n, r)| (n, locs.iter().filter(|l| r.contains(l)).count()))
            .filter(|(_, c)| *c > 0)
            .max_by_key(|(_, c)| *c)
            .map(|(n, _)| n.as_str())
    };
    let mut counts: HashMap<String, (usize, usize)> = HashMap::new();
    let (groups, _) = groups_and_loose_vector_ops(normal);
    for g in groups {
        // "" collects what lies in no region.
        let r = home(&vector_locations(g)).unwrap_or_default();
        counts.entry(r.to_string()).or_default().0 += 1;
    }
    Op::of_module(normal).walk(&mut |op| {
        if dit_passes::transforms::dit_auto_fuse::is_vector_op(op)
            && !op.parent().is_some_and(|p| p.is("dit.fused"))
        {
            let r = home(&[op_key(op)]).unwrap_or_default();
            counts.entry(r.to_string()).or_default().1 += 1;
        }
    });
    counts
}

fn parse_file<'c>(context: &'c Context, path: &Path) -> Result<Module<'c>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Module::parse(context, &text).ok_or_else(|| format!("{} does not parse", path.display()))
}

/// `x / y` with two decimals, or "-".
fn ratio(x: Option<u64>, y: Option<u64>) -> String {
    match (x, y) {
        (Some(x), Some(y)) if y > 0 => format!("{:.2}", x as f64 / y as f64),
        _ => "-".into(),
    }
}

/// The group label without `fused_`: `flux_double_block_1`.
fn short(kernel: &str) -> &str {
    kernel.strip_prefix("fused_").unwrap_or(kernel)
}

/// Both tables as Markdown, plus notes.
#[derive(Default)]
struct Report {
    tiling: String,
    counts: String,
    notes: Vec<String>,
}

fn run(root: &Path, tools: &Tools, keep: Option<PathBuf>) -> Result<(), String> {
    let scratch = tempfile::tempdir().map_err(|e| e.to_string())?;
    let work = match &keep {
        Some(k) => {
            std::fs::create_dir_all(k).map_err(|e| e.to_string())?;
            k.clone()
        }
        None => scratch.path().to_path_buf(),
    };
    let spec = dit_target_spec();
    println!(
        "bishengir_peer: dit ({}, target {}: UB {} B, {} vector cores) vs bishengir {} (--target={BISHENG_TARGET} --block-dim={})\n",
        tools.dit_opt.display(),
        spec.name,
        spec.ub_bytes,
        spec.core_num,
        tools.version,
        spec.core_num
    );
    // Auto-fusion with its limits lifted: a Unified Buffer no group outgrows and no minimum
    // benefit, so every group grows as far as auto-fusion's chain rules allow.
    let unbounded = work.join("unbounded-ub.toml");
    std::fs::write(
        &unbounded,
        format!(
            "name = \"{}-unbounded-ub\"\nbase = \"{}\"\nub_bytes = {}\n",
            spec.name,
            spec.name,
            1u64 << 60
        ),
    )
    .map_err(|e| e.to_string())?;
    let lifted_cfg = work.join("lifted.toml");
    std::fs::write(&lifted_cfg, "[auto_fuse]\nmin_benefit = 0.0\n").map_err(|e| e.to_string())?;
    let target_arg = format!("--target={}", unbounded.display());
    let config_arg = format!("--fusion-config={}", lifted_cfg.display());

    let context = dit_dialect::new_context().map_err(|e| e.to_string())?;
    let mut report = Report::default();
    report.tiling.push_str(
        "| block | group | dit rows/tile | dit UB B | dit buf | bishengir kernels | bishengir tile | bishengir rows/tile | bishengir UB B | bishengir buf | tile elems ratio | UB ratio | +multi-buffer: tile, UB B, buf |\n|:--|:--|--:|--:|--:|:--|:--|--:|--:|--:|--:|--:|:--|\n",
    );
    report.counts.push_str(
        "| block | region (lifted group) | vector ops | dit --fuse-all kernels (groups + single ops) | dit-auto-fuse on the region alone | HFusion kernels (kinds) | HFusion / dit --fuse-all |\n|:--|:--|--:|--:|--:|--:|--:|\n",
    );
    let mut totals: Vec<String> = Vec::new();
    let (mut hivm_kernels, mut static_tiling) = (0, 0);
    for (label, file) in BLOCKS {
        let model = root.join(file);
        let dir = work.join(Path::new(file).file_stem().unwrap_or_default());
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let m = model.to_string_lossy().into_owned();

        // 1. The groups as --fuse-all makes them; the tiling of each on both sides.
        let fused = dir.join("fused.mlir");
        let fused_s = fused.to_string_lossy().into_owned();
        tools.dit(&["--fuse-all", "--mlir-print-debuginfo", &m, "-o", &fused_s])?;
        let linalg = dir.join("linalg");
        tools.dit(&[&fused_s, "--emit=linalg", "-o", &linalg.to_string_lossy()])?;
        let module = parse_file(&context, &fused)?;
        let (groups, loose) = groups_and_loose_vector_ops(&module);
        for op in &groups {
            let name = op
                .attr("kernel")
                .and_then(|a| a.as_str())
                .unwrap_or_default();
            let dit = dit_tiling(*op, &spec);
            let input = linalg.join(format!("{name}.mlir"));
            let plain = bisheng(tools, &input, &dir.join("bisheng").join(&name), &[])?;
            // bishengir 1.2.0 is not deterministic: the same input can give another module
            // (other tiles, other UB offsets) from one run to the next. A second run shows it.
            let again = bisheng(tools, &input, &dir.join("bisheng-again").join(&name), &[])?;
            match (&plain, &again) {
                (Bisheng::Compiled(a, ta), Bisheng::Compiled(b, tb)) if ta != tb => {
                    let sum = |ks: &[HivmKernel]| {
                        ks.iter()
                            .map(|k| format!("{} / {} B", k.tile_text(), k.ub_bytes))
                            .collect::<Vec<_>>()
                            .join(" + ")
                    };
                    report.notes.push(format!(
                        "{}: a second bishengir-compile run gave another HIVM module (tile / UB: {} vs {})",
                        short(&name),
                        sum(a),
                        sum(b)
                    ));
                }
                (Bisheng::Compiled(..), Bisheng::Failed(e))
                | (Bisheng::Failed(e), Bisheng::Compiled(..)) => {
                    report.notes.push(format!(
                        "{}: one of two bishengir-compile runs failed ({e}), the other compiled",
                        short(&name)
                    ));
                }
                _ => {}
            }
            // A run that failed where the other compiled says nothing about the tiling: the
            // table shows the compiled one (the note above records the failure).
            let plain = match (plain, again) {
                (Bisheng::Failed(_), compiled @ Bisheng::Compiled(..)) => compiled,
                (first, _) => first,
            };
            let multi = bisheng(
                tools,
                &input,
                &dir.join("bisheng-mb").join(&name),
                &["--enable-auto-multi-buffer=true", "--enable-tuning-mode"],
            )?;
            let (dit_rows, dit_ub, dit_buf, dit_elems, dit_ub_v) = match &dit {
                Ok(t) => {
                    let rows = t
                        .tile_rows
                        .iter()
                        .zip(&t.row_elems)
                        .map(|(r, w)| format!("{r}x{w}"))
                        .collect::<Vec<_>>()
                        .join(", ");
                    let rows = match t.chunk {
                        Some(c) => format!("{rows} (chunk {c})"),
                        None => rows,
                    };
                    (
                        rows,
                        t.ub_bytes.to_string(),
                        t.buffers.to_string(),
                        t.tile_rows
                            .iter()
                            .zip(&t.row_elems)
                            .map(|(r, w)| r * w)
                            .max(),
                        Some(t.ub_bytes),
                    )
                }
                Err(e) => (
                    format!("no kernel: {}", e.chars().take(90).collect::<String>()),
                    "-".into(),
                    "-".into(),
                    None,
                    None,
                ),
            };
            let (kernels, tile, rows, ub, buf, b_elems, b_ub) = match &plain {
                Bisheng::Compiled(ks, _) => {
                    let join = |f: &dyn Fn(&HivmKernel) -> String| {
                        ks.iter().map(f).collect::<Vec<_>>().join(" \\| ")
                    };
                    hivm_kernels += ks.len();
                    static_tiling += ks
                        .iter()
                        .filter(|k| k.tiling_struct_bytes == Some(0))
                        .count();
                    if ks.iter().any(|k| k.tiling_struct_bytes.unwrap_or(0) != 0) {
                        report.notes.push(format!(
                            "{name}: bishengir packed a dynamic tiling struct ({:?} bytes)",
                            ks.iter().map(|k| k.tiling_struct_bytes).collect::<Vec<_>>()
                        ));
                    }
                    (
                        {
                            let kinds: Vec<String> =
                                ks.iter().map(|k| k.fusion_kind.clone()).collect();
                            // "1 ANY_PB", "2 LAST_AXIS_PBR", "2: ANY_PB + LAST_AXIS_PBR".
                            match summarize_kinds(&kinds) {
                                one if kinds.len() == 1 => format!("1 {one}"),
                                same if !same.contains('+') => same,
                                mixed => format!("{}: {mixed}", kinds.len()),
                            }
                        },
                        join(&|k| k.tile_text()),
                        join(&|k| k.tile_rows().map_or("-".into(), |r| r.to_string())),
                        join(&|k| k.ub_bytes.to_string()),
                        join(&|k| (1 + usize::from(k.multi_buffered > 0)).to_string()),
                        ks.iter().filter_map(HivmKernel::tile_elems).max(),
                        ks.iter().map(|k| k.ub_bytes).max(),
                    )
                }
                Bisheng::Failed(e) => (
                    format!("failed: {e}"),
                    "-".into(),
                    "-".into(),
                    "-".into(),
                    "-".into(),
                    None,
                    None,
                ),
            };
            let mb = match &multi {
                Bisheng::Compiled(ks, _) => ks
                    .iter()
                    .map(|k| {
                        format!(
                            "{}, {}, {}",
                            k.tile_text(),
                            k.ub_bytes,
                            if k.multi_buffered > 0 {
                                format!("2 ({} bufs)", k.multi_buffered)
                            } else {
                                "1".into()
                            }
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(" \\| "),
                Bisheng::Failed(e) => format!("failed: {e}"),
            };
            writeln!(
                report.tiling,
                "| {label} | {} | {dit_rows} | {dit_ub} | {dit_buf} | {kernels} | {tile} | {rows} | {ub} | {buf} | {} | {} | {mb} |",
                short(&name),
                ratio(b_elems, dit_elems),
                ratio(b_ub, dit_ub_v),
            )
            .expect("write to String");
        }

        // 2. Kernel counts on the maximal vector regions.
        let lifted = dir.join("lifted.mlir");
        let lifted_s = lifted.to_string_lossy().into_owned();
        tools.dit(&[
            "--fuse-all",
            "--mlir-print-debuginfo",
            &target_arg,
            &config_arg,
            &m,
            "-o",
            &lifted_s,
        ])?;
        let regions = dir.join("regions.mlir");
        let regions_s = regions.to_string_lossy().into_owned();
        tools.dit(&[&lifted_s, "--dit-outline-fused", "-o", &regions_s])?;
        let regions_linalg = dir.join("regions-linalg");
        tools.dit(&[
            &lifted_s,
            "--emit=linalg",
            "-o",
            &regions_linalg.to_string_lossy(),
        ])?;
        let regions_fused = dir.join("regions-fused.mlir");
        tools.dit(&[
            &regions_s,
            "--dit-auto-fuse",
            "-o",
            &regions_fused.to_string_lossy(),
        ])?;
        let lifted_module = parse_file(&context, &lifted)?;
        let (lifted_groups, singles) = groups_and_loose_vector_ops(&lifted_module);
        let op_counts: HashMap<String, usize> = lifted_groups
            .iter()
            .map(|g| {
                let name = g
                    .attr("kernel")
                    .and_then(|a| a.as_str())
                    .unwrap_or_default();
                let mut n = 0;
                g.walk(&mut |op| {
                    n += usize::from(dit_passes::transforms::dit_auto_fuse::is_vector_op(op))
                });
                (name, n)
            })
            .collect();
        let dit_counts = per_function_counts(&parse_file(&context, &regions_fused)?);
        let in_context = kernels_per_region(&lifted_groups, &module);
        let (mut sum_dit, mut sum_alone, mut sum_hf, mut hf_failed) = (0, 0, 0, 0);
        for (name, groups, loose) in &dit_counts {
            let alone = groups + loose;
            let (ctx_groups, ctx_loose) = in_context.get(name).copied().unwrap_or((0, 0));
            let dit_k = ctx_groups + ctx_loose;
            let input = regions_linalg.join(format!("{name}.mlir"));
            let hf = hfusion_kernels(tools, &input, &dir.join("hfusion").join(name))?;
            let (hf_text, hf_ratio) = match &hf {
                Ok((n, kinds)) => {
                    sum_hf += n;
                    sum_dit += dit_k;
                    sum_alone += alone;
                    (
                        format!("{n} ({kinds})"),
                        ratio(Some(*n as u64), Some(dit_k as u64)),
                    )
                }
                Err(e) => {
                    hf_failed += 1;
                    (e.clone(), "-".into())
                }
            };
            writeln!(
                report.counts,
                "| {label} | {} | {} | {dit_k} ({ctx_groups} + {ctx_loose}) | {alone} ({groups} + {loose}) | {hf_text} | {hf_ratio} |",
                short(name),
                op_counts.get(name).copied().unwrap_or(0),
            )
            .expect("write to String");
        }
        let outside = in_context.get("").copied().unwrap_or((0, 0));
        totals.push(format!(
            "{label}: --fuse-all makes {} groups and leaves {loose} vector ops outside groups ({} groups + {} ops outside every lifted region); {} lifted regions (+ {singles} vector ops no lifted group takes); over the regions HFusion {sum_hf} vs dit --fuse-all {sum_dit} (dit-auto-fuse on each region alone: {sum_alone}){}",
            groups.len(),
            outside.0,
            outside.1,
            dit_counts.len(),
            if hf_failed > 0 { format!(" ({hf_failed} regions without an HFusion count)") } else { String::new() }
        ));
    }
    println!("## Tiling: dit's generated kernels vs bishengir-compile on the same group\n");
    println!("{}", report.tiling);
    println!("## Kernel count: dit-auto-fuse vs HFusion (hfusion-fuse-ops) on each maximal vector region\n");
    println!("{}", report.counts);
    for t in &totals {
        println!("- {t}");
    }
    println!(
        "- bishengir's tiling struct (`*_get_tiling_struct_size_function`) is 0 bytes in {static_tiling} of its {hivm_kernels} kernels: tile sizes and UB offsets are constants of the module"
    );
    for n in &report.notes {
        println!("- note: {n}");
    }
    if keep.is_some() {
        println!("\nartefacts kept in {}", work.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines of a real `module.hivm.opt.mlir` (SD3.5 joint group 2, second kernel), cut down:
    /// a row-cyclic tiled loop over 5-row tiles, and a ping-ponged UB buffer.
    const HIVM: &str = r#"#map3 = affine_map<()[s0, s1] -> (s0 * 5 + s1 * 5)>
#map4 = affine_map<()[s0, s1] -> (s0 * -5 - s1 * 5 + 4096, 5)>
module attributes {hacc.target = #hacc.target<"Ascend910B3">} {
  func.func @k_get_tiling_struct_size_function() -> i64 attributes {hacc.function_kind = #hacc.function_kind<HOST>, hacc.host_func_type = #hacc.host_func_type<get_tiling_struct_size_function>} {
    %c0_i64 = arith.constant 0 : i64
    return %c0_i64 : i64
  }
  func.func private @load_gm_to_ubuf_1d_bfloat16_t(memref<?xbf16, #hivm.address_space<gm>>) attributes {hacc.always_inline}
  func.func @k(%arg0: memref<1x4096x2432xbf16, #hivm.address_space<gm>>) attributes {hacc.block_dim = 40 : i64, hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hfusion.fusion_kind = #hfusion.fusion_kind<LAST_AXIS_PBR>} {
    %c14592_i64 = arith.constant 14592 : i64
    %c39136_i64 = arith.constant 39136 : i64
    %c0_i64 = arith.constant 0 : i64
    %0 = hivm.hir.pointer_cast(%c0_i64) : memref<2432xbf16, #hivm.address_space<ub>>
    %1 = hivm.hir.pointer_cast(%c14592_i64) : memref<24544xi8, #hivm.address_space<ub>>
    %2 = hivm.hir.pointer_cast(%c39136_i64) : memref<24544xi8, #hivm.address_space<ub>>
    %full = memref.subview %collapse_shape[0, 0] [4096, 2432] [1, 1] : memref<4096x2432xbf16, #hivm.address_space<gm>> to memref<4096x2432xbf16, strided<[2432, 1]>, #hivm.address_space<gm>>
    scf.for %arg4 = %c0 to %4 step %c40 {
      %5 = affine.apply #map3()[%3, %arg4]
      %6 = affine.min #map4()[%3, %arg4]
      %sel = arith.select %c, %1, %2 : memref<24544xi8, #hivm.address_space<ub>>
      %subview = memref.subview %collapse_shape[%5, 0] [%6, 2432] [1, 1] : memref<4096x2432xbf16, #hivm.address_space<gm>> to memref<?x2432xbf16, strided<[2432, 1], offset: ?>, #hivm.address_space<gm>>
    } {__tiled_for___3, pipeline.veconly}
    return
  }
}
"#;

    #[test]
    fn hivm_kernels_tiles_ub_and_buffers() {
        let ks = parse_hivm(HIVM);
        assert_eq!(ks.len(), 1, "{ks:?}");
        let k = &ks[0];
        assert_eq!(k.name, "k");
        assert_eq!(k.fusion_kind, "LAST_AXIS_PBR");
        // The subview outside the loop is not a tile; the loop's is 5 rows (the affine.min bound).
        assert_eq!(k.tiles, vec![vec![5, 2432]]);
        assert_eq!(k.tile_rows(), Some(5));
        assert_eq!(k.ub_bytes, 39136 + 24544);
        assert_eq!(k.multi_buffered, 1);
        assert_eq!(k.tiling_struct_bytes, Some(0));
    }

    #[test]
    fn errors_and_types() {
        let stderr = "loc(\"f\":1:1): error: Failed to run BiShengHIR pipeline\nloc(\"f\":2:3): error: ub overflow, requires 1584128 bits while 1572864 bits available! (possible reason: x)\n";
        assert_eq!(
            first_error(stderr),
            "ub overflow, requires 1584128 bits while 1572864 bits available!"
        );
        assert_eq!(
            first_error("boom\n[bishengir-compile signal: 11]\n"),
            "[bishengir-compile signal: 11]"
        );
        assert_eq!(
            memref_shape("memref<1x3072xbf16, #hivm.address_space<ub>>"),
            Some((vec![1, 3072], "bf16".to_string()))
        );
        assert_eq!(memref_shape("memref<?x3072xbf16>"), None);
        assert_eq!(
            summarize_kinds(&["A".into(), "A".into(), "B".into()]),
            "2 A + B"
        );
    }

    #[test]
    fn unavailable_bishengir_is_a_reason_to_skip() {
        let root = tempfile::tempdir().unwrap();
        let err = Tools::find(root.path(), None).err().unwrap();
        assert!(err.contains("not installed"), "{err}");
        std::fs::create_dir_all(root.path().join("target/bishengir")).unwrap();
        std::fs::write(
            root.path().join("target/bishengir/status"),
            "unavailable: no wheel for this platform\n",
        )
        .unwrap();
        let err = Tools::find(root.path(), None).err().unwrap();
        assert_eq!(err, "bishengir is unavailable: no wheel for this platform");
    }
}
