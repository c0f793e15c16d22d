//! C++ for a planned kernel: the Ascend C kernel source (`<kernel>.cpp`) and its tiling header
//! (`<kernel>_tiling.h`), in the style of CANN's vector samples.
//!
//! The kernel is `extern "C" __global__ __aicore__ void <kernel>(GM_ADDR x0.., GM_ADDR y0..,
//! <kernel>_TilingData tiling)`: inputs, outputs, and the tiling struct by value (the form of
//! CANN's "TilingNeo" kernel-launch samples, so the host needs no device buffer for it). One
//! TPipe serves the stages in turn (`TPipe::Reset` between them); each stage is a class with
//! Init / Process and the CopyIn → Compute → CopyOut loop over tiles of its core's rows, the
//! last tile taking the remainder.

use crate::layout::{elem_bytes, pitch, Buf, StageLayout, TableKind, STAT_PITCH};
use crate::plan::{BinaryOp, KernelPlan, MicroOp, NodeId, RowMap, Stage, UnaryOp, Window};
use dit_runtime::DType;
use std::fmt::Write;

/// A C identifier for a kernel name (other characters become `_`).
pub fn symbol(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, '_');
    }
    s
}

/// The Ascend C element type of a GM tensor.
pub fn ctype(d: DType) -> &'static str {
    match d {
        DType::F32 => "float",
        DType::F16 => "half",
        _ => "bfloat16_t",
    }
}

/// A float literal that reads back as the same f32.
fn flt(v: f32) -> String {
    let s = format!("{v:?}");
    if s.contains(['.', 'e', 'E']) {
        format!("{s}f")
    } else {
        format!("{s}.0f")
    }
}

/// Lines with indentation.
#[derive(Default)]
struct Code {
    out: String,
    indent: usize,
}

impl Code {
    fn line(&mut self, s: impl AsRef<str>) {
        let s = s.as_ref();
        if s.is_empty() {
            self.out.push('\n');
            return;
        }
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }
    fn open(&mut self, s: impl AsRef<str>) {
        self.line(s);
        self.indent += 1;
    }
    fn close(&mut self, s: impl AsRef<str>) {
        self.indent -= 1;
        self.line(s);
    }
}

/// The GM row of `rows` for the stage row expression `r` (a uint32_t).
fn gm_row(rows: &RowMap, stage: &Stage, r: &str) -> String {
    if rows.contiguous {
        return format!("{}ull + {r}", rows.base);
    }
    let mut s = format!("{}ull", rows.base);
    for (dim, coef) in &rows.terms {
        let inner: u64 = stage.ext[dim + 1..].iter().map(|e| *e as u64).product();
        write!(
            s,
            " + (uint64_t)(({r} / {inner}u) % {}u) * {coef}ull",
            stage.ext[*dim]
        )
        .expect("write to String");
    }
    s
}

/// How many rows of a tile a node holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// One row for the whole stage (resident).
    Invariant,
    /// One row per group of `G` stage rows: the `u` groups rows `row..row + n` touch.
    Group,
    /// One row per tile row (`n` rows).
    Row,
}

/// How the stage's code names a node's rows.
struct Names<'a> {
    stage: &'a Stage,
    layout: &'a StageLayout,
}

impl Names<'_> {
    fn kind(&self, id: NodeId) -> Kind {
        let node = &self.stage.nodes[id];
        if node.invariant {
            Kind::Invariant
        } else if node.grouped {
            Kind::Group
        } else {
            Kind::Row
        }
    }
    fn tile(&self, id: NodeId) -> bool {
        self.kind(id) == Kind::Row
    }
    fn p(&self, id: NodeId) -> u64 {
        pitch(self.stage.nodes[id].width)
    }
    fn w(&self, id: NodeId) -> usize {
        self.stage.nodes[id].width
    }
    fn group(&self) -> u64 {
        self.stage.group.max(1)
    }
    /// The whole buffer.
    fn buf(&self, id: NodeId) -> String {
        match self.layout.buf[id] {
            Buf::Resident { off } => format!("resident[{off}]"),
            _ => format!("v{id}"),
        }
    }
    /// Elements of the whole buffer an elementwise instruction covers.
    fn count(&self, id: NodeId) -> String {
        format!("{} * {}", self.rows(id), self.p(id))
    }
    /// Rows the node holds in a tile.
    fn rows(&self, id: NodeId) -> &'static str {
        match self.kind(id) {
            Kind::Row => "n",
            Kind::Group => "u",
            Kind::Invariant => "1",
        }
    }
    /// The node's own row `i` (an invariant node has its one row for every i).
    fn row(&self, id: NodeId, i: &str) -> String {
        match self.layout.buf[id] {
            Buf::Resident { off } => format!("resident[{off}]"),
            _ => format!("v{id}[{i} * {}]", self.p(id)),
        }
    }
    /// The row a node of kind `of` reads of node `id` at its own row `i`.
    fn row_for(&self, id: NodeId, of: Kind, i: &str) -> String {
        match (self.kind(id), of) {
            (Kind::Group, Kind::Row) => {
                self.row(id, &format!("((row + {i}) / {}u - g0)", self.group()))
            }
            _ => self.row(id, i),
        }
    }
    /// Element `col` of row `i` of the node (`i` in the node's own rows).
    fn elem(&self, id: NodeId, i: &str, col: u64) -> String {
        match self.layout.buf[id] {
            Buf::Resident { off } => format!("resident[{}]", off + col),
            _ => format!("v{id}[({i}) * {} + {col}]", self.p(id)),
        }
    }
    /// Columns from `col` on, of every row.
    fn at_col(&self, id: NodeId, col: usize) -> String {
        match self.layout.buf[id] {
            Buf::Resident { off } => format!("resident[{}]", off + col as u64),
            _ => format!("v{id}[{col}]"),
        }
    }
    fn temp(&self, id: NodeId, k: usize) -> String {
        format!("t{id}_{k}")
    }
}

fn bin_name(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::Add => "Add",
        BinaryOp::Sub => "Sub",
        BinaryOp::Mul => "Mul",
        BinaryOp::Div => "Div",
    }
}

/// erf(u) into d, with temporaries a and b, over c elements (Abramowitz–Stegun 7.1.26:
/// 1 - (a1 t + … + a5 t⁵) e^(-u²), t = 1/(1 + p|u|), odd in u).
fn emit_erf(c: &mut Code, d: &str, u: &str, a: &str, b: &str, n: &str) {
    c.line(format!("Abs({a}, {u}, {n});"));
    c.line(format!("Muls({b}, {a}, 0.3275911f, {n});"));
    c.line(format!("Adds({b}, {b}, 1.0f, {n});"));
    c.line(format!("Duplicate({d}, 1.0f, {n});"));
    c.line(format!("Div({b}, {d}, {b}, {n});"));
    c.line(format!("Muls({d}, {b}, 1.061405429f, {n});"));
    for k in [
        "-1.453152027f",
        "1.421413741f",
        "-0.284496736f",
        "0.254829592f",
    ] {
        c.line(format!("Adds({d}, {d}, {k}, {n});"));
        c.line(format!("Mul({d}, {d}, {b}, {n});"));
    }
    c.line(format!("Mul({d}, {d}, {b}, {n});"));
    c.line(format!("Mul({b}, {u}, {u}, {n});"));
    c.line(format!("Muls({b}, {b}, -1.0f, {n});"));
    c.line(format!("Exp({b}, {b}, {n});"));
    c.line(format!("Mul({d}, {d}, {b}, {n});"));
    c.line(format!("Muls({d}, {d}, -1.0f, {n});"));
    c.line(format!("Adds({d}, {d}, 1.0f, {n});"));
    // sign(u) = u / max(|u|, tiny), 0 at 0.
    c.line(format!("Maxs({b}, {a}, 1e-30f, {n});"));
    c.line(format!("Div({b}, {u}, {b}, {n});"));
    c.line(format!("Mul({d}, {d}, {b}, {n});"));
}

/// The most f32 elements a row may have for the repeat form of a binary instruction: a repeat
/// stride is a uint8_t count of 32-byte blocks (BinaryRepeatParams, atlasascendc_api_07_0013),
/// so rows 255 blocks apart at most.
const MAX_REPEAT_PITCH: u64 = 255 * 8;

/// A binary instruction whose operands hold fewer rows than its result: an invariant row
/// against every row, or a group's row against each of its rows. With rows of at most
/// [`MAX_REPEAT_PITCH`] elements it is the repeat form ("tensor高维切分计算", mask连续模式, of
/// Add/Sub/Mul/Div, e.g. atlasascendc_api_07_0037 Mul): one instruction per 64 columns covers
/// up to 255 rows, the shared operand's repeat stride 0 so every repeat reads the same row
/// (repeatTime is a uint8_t: [0, 255]; for 32-bit data mask ∈ [1, 64]). Wider rows are one
/// count-form instruction per row (each already ≥ 32 repeats long).
fn emit_broadcast_binary(c: &mut Code, nm: &Names<'_>, f: &str, id: NodeId, a: NodeId, b: NodeId) {
    let kd = nm.kind(id);
    let p = nm.p(id);
    let w = nm.w(id) as u64;
    if p > MAX_REPEAT_PITCH {
        c.line(format!(
            "for (uint32_t i = 0; i < {}; i++) {f}({}, {}, {}, {w});",
            nm.rows(id),
            nm.row(id, "i"),
            nm.row_for(a, kd, "i"),
            nm.row_for(b, kd, "i")
        ));
        return;
    }
    // Blocks of rows that share the lowest operand's row: the whole tile against an invariant
    // row, or each group of the tile against its group's row.
    let lowest = nm.kind(a).min(nm.kind(b));
    let per_group = lowest == Kind::Group;
    let g = nm.group();
    let row_of = "r".to_string();
    let index = |x: NodeId| match nm.kind(x) {
        k if k == kd => row_of.clone(),
        Kind::Group => "q".to_string(),
        _ => "r".to_string(),
    };
    let stride = |x: NodeId| {
        if nm.kind(x) == Kind::Invariant || (per_group && nm.kind(x) == Kind::Group) {
            0
        } else {
            p / 8
        }
    };
    // Rows lo..hi of the tile: all of them, or those of group q (g0 + q of the stage).
    if per_group {
        c.open("for (uint32_t q = 0; q < u; q++) {");
        c.line(format!(
            "uint32_t lo = q == 0 ? 0u : (g0 + q) * {g}u - row;"
        ));
        c.line(format!("uint32_t hi = (g0 + q + 1) * {g}u - row;"));
        c.line("hi = hi < n ? hi : n;");
    } else {
        c.open("{");
        c.line("uint32_t lo = 0;");
        c.line(format!("uint32_t hi = {};", nm.rows(id)));
    }
    c.open("for (uint32_t r = lo; r < hi; r += 255u) {");
    c.line("uint8_t rep = (uint8_t)(hi - r < 255u ? hi - r : 255u);");
    let params = format!(
        "BinaryRepeatParams(1, 1, 1, {}, {}, {})",
        p / 8,
        stride(a),
        stride(b)
    );
    for col in (0..w).step_by(64) {
        let mask = (w - col).min(64);
        c.line(format!(
            "{f}({}, {}, {}, {mask}, rep, {params});",
            nm.elem(id, &row_of, col),
            nm.elem(a, &index(a), col),
            nm.elem(b, &index(b), col),
        ));
    }
    c.close("}");
    c.close("}");
}

/// The instructions of node `id` (its buffer and temporaries are declared).
fn emit_node(c: &mut Code, nm: &Names<'_>, id: NodeId) {
    let node = &nm.stage.nodes[id];
    let d = nm.buf(id);
    let n = nm.count(id);
    let rows = nm.rows(id);
    let w = node.width;
    let p = nm.p(id);
    let t = |k: usize| nm.temp(id, k);
    match &node.op {
        MicroOp::Load { .. } => unreachable!("loads are emitted by the caller"),
        MicroOp::Unary(u, x) => {
            let x = nm.buf(*x);
            match u {
                // Scalars of half instructions are half (Muls/Adds take `const T&`).
                UnaryOp::Neg if node.half => c.line(format!("Muls({d}, {x}, (half)-1.0f, {n});")),
                UnaryOp::AddScalar(v) if node.half => {
                    c.line(format!("Adds({d}, {x}, (half){}, {n});", flt(*v)))
                }
                UnaryOp::MulScalar(v) if node.half => {
                    c.line(format!("Muls({d}, {x}, (half){}, {n});", flt(*v)))
                }
                UnaryOp::Neg => c.line(format!("Muls({d}, {x}, -1.0f, {n});")),
                UnaryOp::Exp => c.line(format!("Exp({d}, {x}, {n});")),
                UnaryOp::Sqrt => c.line(format!("Sqrt({d}, {x}, {n});")),
                UnaryOp::Rsqrt => c.line(format!("Rsqrt({d}, {x}, {n});")),
                UnaryOp::Relu => c.line(format!("Relu({d}, {x}, {n});")),
                UnaryOp::AddScalar(v) => c.line(format!("Adds({d}, {x}, {}, {n});", flt(*v))),
                UnaryOp::MulScalar(v) => c.line(format!("Muls({d}, {x}, {}, {n});", flt(*v))),
                UnaryOp::Sigmoid => {
                    c.line(format!("Muls({}, {x}, -1.0f, {n});", t(0)));
                    c.line(format!("Exp({0}, {0}, {n});", t(0)));
                    c.line(format!("Adds({0}, {0}, 1.0f, {n});", t(0)));
                    c.line(format!("Duplicate({d}, 1.0f, {n});"));
                    c.line(format!("Div({d}, {d}, {}, {n});", t(0)));
                }
                UnaryOp::Silu => {
                    c.line(format!("Muls({}, {x}, -1.0f, {n});", t(0)));
                    c.line(format!("Exp({0}, {0}, {n});", t(0)));
                    c.line(format!("Adds({0}, {0}, 1.0f, {n});", t(0)));
                    c.line(format!("Div({d}, {x}, {}, {n});", t(0)));
                }
                UnaryOp::Tanh => {
                    c.line(format!("Muls({}, {x}, -2.0f, {n});", t(0)));
                    c.line(format!("Exp({0}, {0}, {n});", t(0)));
                    c.line(format!("Adds({0}, {0}, 1.0f, {n});", t(0)));
                    c.line(format!("Duplicate({d}, 2.0f, {n});"));
                    c.line(format!("Div({d}, {d}, {}, {n});", t(0)));
                    c.line(format!("Adds({d}, {d}, -1.0f, {n});"));
                }
                UnaryOp::Erf => emit_erf(c, &d, &x, &t(0), &t(1), &n),
                UnaryOp::GeluErf => {
                    c.line(format!("Muls({}, {x}, 0.70710678f, {n});", t(0)));
                    emit_erf(c, &d, &t(0), &t(1), &t(2), &n);
                    c.line(format!("Adds({d}, {d}, 1.0f, {n});"));
                    c.line(format!("Mul({d}, {d}, {x}, {n});"));
                    c.line(format!("Muls({d}, {d}, 0.5f, {n});"));
                }
                UnaryOp::GeluTanh => {
                    // x·σ(2z), z = √(2/π)(x + 0.044715x³): 0.5(1 + tanh z) = σ(2z).
                    c.line(format!("Mul({}, {x}, {x}, {n});", t(0)));
                    c.line(format!("Muls({0}, {0}, 0.044715f, {n});", t(0)));
                    c.line(format!("Adds({0}, {0}, 1.0f, {n});", t(0)));
                    c.line(format!("Mul({0}, {0}, {x}, {n});", t(0)));
                    c.line(format!("Muls({0}, {0}, -1.5957691f, {n});", t(0)));
                    c.line(format!("Exp({0}, {0}, {n});", t(0)));
                    c.line(format!("Adds({0}, {0}, 1.0f, {n});", t(0)));
                    c.line(format!("Div({d}, {x}, {}, {n});", t(0)));
                }
                UnaryOp::FastGelu => {
                    c.line(format!("Abs({}, {x}, {n});", t(0)));
                    c.line(format!("Muls({}, {}, -1.702f, {n});", t(1), t(0)));
                    c.line(format!("Exp({0}, {0}, {n});", t(1)));
                    c.line(format!("Adds({0}, {0}, 1.0f, {n});", t(1)));
                    c.line(format!("Div({d}, {x}, {}, {n});", t(1)));
                    c.line(format!("Sub({}, {x}, {}, {n});", t(1), t(0)));
                    c.line(format!("Muls({0}, {0}, 0.851f, {n});", t(1)));
                    c.line(format!("Exp({0}, {0}, {n});", t(1)));
                    c.line(format!("Mul({d}, {d}, {}, {n});", t(1)));
                }
            }
        }
        MicroOp::Binary(op, a, b) => {
            let f = bin_name(*op);
            let kd = nm.kind(id);
            if nm.kind(*a) == kd && nm.kind(*b) == kd {
                c.line(format!("{f}({d}, {}, {}, {n});", nm.buf(*a), nm.buf(*b)));
            } else {
                emit_broadcast_binary(c, nm, f, id, *a, *b);
            }
        }
        MicroOp::ExpandLast(x) => {
            let px = nm.p(*x);
            c.line("SyncVS();");
            c.line(format!(
                "for (uint32_t i = 0; i < {rows}; i++) Duplicate({}, {}.GetValue(i * {px}), {w});",
                nm.row(id, "i"),
                nm.buf(*x)
            ));
        }
        MicroOp::RepeatEach { x, times } => {
            // One gather per row: the offsets are per destination element (as for rope's
            // rotate), so a tile-wide gather would need a table as large as the tile.
            let table = table_off(
                nm.layout,
                TableKind::RepeatEach {
                    width: w,
                    times: *times,
                },
            );
            c.line(format!(
                "for (uint32_t i = 0; i < {rows}; i++) Gather({}, {}, tables[{table}], 0, {w});",
                nm.row(id, "i"),
                nm.row(*x, "i")
            ));
        }
        MicroOp::Rms { x, eps } => {
            let (tt, st) = (t(0), t(1));
            let xb = nm.buf(*x);
            c.line(format!("Mul({tt}, {xb}, {xb}, {n});"));
            c.line(format!(
                "for (uint32_t i = 0; i < {rows}; i++) ReduceSum({st}[i * {STAT_PITCH}], {tt}[i * {p}], work, {w});"
            ));
            let s = format!("{rows} * {STAT_PITCH}");
            c.line(format!("Muls({st}, {st}, {}, {s});", flt(1.0 / w as f32)));
            c.line(format!("Adds({st}, {st}, {}, {s});", flt(*eps)));
            c.line(format!("Rsqrt({st}, {st}, {s});"));
            c.line("SyncVS();");
            c.line(format!(
                "for (uint32_t i = 0; i < {rows}; i++) Muls({}, {}, {st}.GetValue(i * {STAT_PITCH}), {w});",
                nm.row(id, "i"),
                nm.row(*x, "i")
            ));
        }
        MicroOp::Standardize { x, eps } => {
            let (tt, st) = (t(0), t(1));
            let s = format!("{rows} * {STAT_PITCH}");
            c.line(format!(
                "for (uint32_t i = 0; i < {rows}; i++) ReduceSum({st}[i * {STAT_PITCH}], {}, work, {w});",
                nm.row(*x, "i")
            ));
            c.line(format!("Muls({st}, {st}, {}, {s});", flt(-1.0 / w as f32)));
            c.line("SyncVS();");
            c.line(format!(
                "for (uint32_t i = 0; i < {rows}; i++) Adds({}, {}, {st}.GetValue(i * {STAT_PITCH}), {w});",
                nm.row(id, "i"),
                nm.row(*x, "i")
            ));
            c.line(format!("Mul({tt}, {d}, {d}, {n});"));
            c.line(format!(
                "for (uint32_t i = 0; i < {rows}; i++) ReduceSum({st}[i * {STAT_PITCH}], {tt}[i * {p}], work, {w});"
            ));
            c.line(format!("Muls({st}, {st}, {}, {s});", flt(1.0 / w as f32)));
            c.line(format!("Adds({st}, {st}, {}, {s});", flt(*eps)));
            c.line(format!("Rsqrt({st}, {st}, {s});"));
            c.line("SyncVS();");
            c.line(format!(
                "for (uint32_t i = 0; i < {rows}; i++) Muls({0}, {0}, {st}.GetValue(i * {STAT_PITCH}), {w});",
                nm.row(id, "i")
            ));
        }
        MicroOp::Softmax(x) => {
            let (st, st2) = (t(0), t(1));
            let s = format!("{rows} * {STAT_PITCH}");
            c.line(format!(
                "for (uint32_t i = 0; i < {rows}; i++) ReduceMax({st}[i * {STAT_PITCH}], {}, work, {w});",
                nm.row(*x, "i")
            ));
            c.line(format!("Muls({st}, {st}, -1.0f, {s});"));
            c.line("SyncVS();");
            c.line(format!(
                "for (uint32_t i = 0; i < {rows}; i++) Adds({}, {}, {st}.GetValue(i * {STAT_PITCH}), {w});",
                nm.row(id, "i"),
                nm.row(*x, "i")
            ));
            c.line(format!("Exp({d}, {d}, {n});"));
            c.line(format!(
                "for (uint32_t i = 0; i < {rows}; i++) ReduceSum({st}[i * {STAT_PITCH}], {}, work, {w});",
                nm.row(id, "i")
            ));
            c.line(format!("Duplicate({st2}, 1.0f, {s});"));
            c.line(format!("Div({st}, {st2}, {st}, {s});"));
            c.line("SyncVS();");
            c.line(format!(
                "for (uint32_t i = 0; i < {rows}; i++) Muls({0}, {0}, {st}.GetValue(i * {STAT_PITCH}), {w});",
                nm.row(id, "i")
            ));
        }
        MicroOp::Slice { x, offset, len } => {
            if offset % 8 == 0 {
                let blocks = len.div_ceil(8) as u64;
                c.line(format!(
                    "DataCopy({d}, {}, DataCopyParams((uint16_t){rows}, {blocks}, {}, {}));",
                    nm.at_col(*x, *offset),
                    (nm.p(*x) - 8 * blocks) / 8,
                    (p - 8 * blocks) / 8
                ));
            } else {
                let table = table_off(
                    nm.layout,
                    TableKind::Columns {
                        offset: *offset,
                        len: *len,
                    },
                );
                c.line(format!(
                    "for (uint32_t i = 0; i < {rows}; i++) Gather({}, {}, tables[{table}], 0, {len});",
                    nm.row(id, "i"),
                    nm.row(*x, "i")
                ));
            }
        }
        MicroOp::ConcatLast(parts) => {
            let mut col = 0usize;
            for part in parts {
                let pw = nm.w(*part);
                let blocks = pw.div_ceil(8) as u64;
                // Parts in column order: a part's last block may run into the next part's
                // first columns, which the next copy then overwrites.
                c.line(format!(
                    "DataCopy({}, {}, DataCopyParams((uint16_t){rows}, {blocks}, {}, {}));",
                    nm.at_col(id, col),
                    nm.buf(*part),
                    (nm.p(*part) - 8 * blocks) / 8,
                    (p - 8 * blocks) / 8
                ));
                col += pw;
            }
        }
        MicroOp::Rotate { x, interleave } => {
            let kind = if *interleave {
                TableKind::SwapPairs(w)
            } else {
                TableKind::SwapHalves(w)
            };
            let table = table_off(nm.layout, kind);
            let sign = nm
                .layout
                .signs
                .iter()
                .find(|(k, _)| *k == kind)
                .map(|(_, o)| *o)
                .expect("sign row laid out");
            // The gather stays one instruction per row: its offsets are per destination
            // element, so a tile-wide gather would need a table as large as the tile.
            if p > MAX_REPEAT_PITCH || nm.kind(id) == Kind::Invariant {
                c.open(format!("for (uint32_t i = 0; i < {rows}; i++) {{"));
                c.line(format!(
                    "Gather({}, {}, tables[{table}], 0, {w});",
                    nm.row(id, "i"),
                    nm.row(*x, "i")
                ));
                c.line(format!(
                    "Mul({0}, {0}, resident[{sign}], {w});",
                    nm.row(id, "i")
                ));
                c.close("}");
            } else {
                c.line(format!(
                    "for (uint32_t i = 0; i < {rows}; i++) Gather({}, {}, tables[{table}], 0, {w});",
                    nm.row(id, "i"),
                    nm.row(*x, "i")
                ));
                // The sign row against every row: the repeat form, sign repeat stride 0
                // (as emit_broadcast_binary).
                c.open(format!("for (uint32_t r = 0; r < {rows}; r += 255u) {{"));
                c.line(format!(
                    "uint8_t rep = (uint8_t)({rows} - r < 255u ? {rows} - r : 255u);"
                ));
                for col in (0..w as u64).step_by(64) {
                    let mask = (w as u64 - col).min(64);
                    c.line(format!(
                        "Mul({0}, {0}, resident[{1}], {mask}, rep, BinaryRepeatParams(1, 1, 1, {2}, {2}, 0));",
                        nm.elem(id, "r", col),
                        sign + col,
                        p / 8
                    ));
                }
                c.close("}");
            }
        }
        MicroOp::Round { x, dtype } => {
            let h = format!("{}.ReinterpretCast<{}>()", t(0), ctype(*dtype));
            c.line(format!(
                "Cast({h}, {}, RoundMode::CAST_RINT, {n});",
                nm.buf(*x)
            ));
            c.line(format!("Cast({d}, {h}, RoundMode::CAST_NONE, {n});"));
        }
    }
}

fn table_off(layout: &StageLayout, kind: TableKind) -> u64 {
    layout
        .tables
        .iter()
        .find(|(k, _)| *k == kind)
        .map(|(_, o)| *o)
        .expect("table laid out")
}

/// Declarations of a node's buffer (tile slots) and temporaries.
fn declare(c: &mut Code, nm: &Names<'_>, id: NodeId) {
    if let Buf::Calc { off, .. } = nm.layout.buf[id] {
        if nm.stage.nodes[id].half {
            c.line(format!(
                "LocalTensor<half> v{id} = calc[tileRows * {off}].ReinterpretCast<half>();"
            ));
        } else {
            c.line(format!(
                "LocalTensor<float> v{id} = calc[tileRows * {off}];"
            ));
        }
    }
    if let Buf::Group { off, .. } = nm.layout.buf[id] {
        c.line(format!(
            "LocalTensor<float> v{id} = gcalc[tileUnits * {off}];"
        ));
    }
    for (k, b) in nm.layout.temps[id].iter().enumerate() {
        let e = match b {
            Buf::Calc { off, .. } => format!("calc[tileRows * {off}]"),
            Buf::Group { off, .. } => format!("gcalc[tileUnits * {off}]"),
            Buf::Resident { off } => format!("resident[{off}]"),
            Buf::Queue => unreachable!("temporaries are not queue tensors"),
        };
        c.line(format!("LocalTensor<float> {} = {e};", nm.temp(id, k)));
    }
}

/// Copies node `id` into output queue `j` (rounding to the output type).
fn emit_store(c: &mut Code, nm: &Names<'_>, plan: &KernelPlan, j: usize, id: NodeId) {
    let out = &plan.outputs[nm.stage.stores[j].output];
    let ty = ctype(out.dtype);
    let p = nm.p(id);
    c.open("{");
    c.line(format!(
        "LocalTensor<{ty}> o = outQ{j}.AllocTensor<{ty}>();"
    ));
    // A half row goes to an f16 output as it is.
    let same = out.dtype == DType::F32 || nm.stage.nodes[id].half;
    let copy = |dst: &str, src: &str, count: &str| {
        if same {
            format!("DataCopy({dst}, {src}, {count});")
        } else {
            format!("Cast({dst}, {src}, RoundMode::CAST_RINT, {count});")
        }
    };
    if nm.tile(id) {
        c.line(copy("o", &nm.buf(id), &format!("n * {p}")));
    } else {
        c.line(format!(
            "for (uint32_t i = 0; i < n; i++) {}",
            copy(
                &format!("o[i * {p}]"),
                &nm.row_for(id, Kind::Row, "i"),
                &p.to_string()
            )
        ));
    }
    c.line(format!("outQ{j}.EnQue(o);"));
    c.close("}");
}

/// A GM <-> UB burst description for `n` rows of `width` elements of `dtype` in rows of `p`.
fn ext_params(count: &str, width: usize, dtype: DType, ub_gap: u64, gm_side_src: bool) -> String {
    let bytes = width as u64 * elem_bytes(dtype);
    if gm_side_src {
        format!("DataCopyExtParams((uint16_t){count}, {bytes}, 0, {ub_gap}, 0)")
    } else {
        format!("DataCopyExtParams((uint16_t){count}, {bytes}, {ub_gap}, 0, 0)")
    }
}

/// DataCopyExtParams of a GM -> UB load of `count` rows of `width` columns, `gm_gap` bytes
/// skipped on GM after each (a column window: DataCopyPad's srcStride counts bytes when the
/// source is GM, CANN atlasascendc_api_07_0265 table 3) and `ub_gap` 32-byte blocks in UB.
fn load_params(count: &str, width: usize, dtype: DType, gm_gap: u64, ub_gap: u64) -> String {
    let bytes = width as u64 * elem_bytes(dtype);
    format!("DataCopyExtParams((uint16_t){count}, {bytes}, {gm_gap}, {ub_gap}, 0)")
}

/// The GM element index of a load's first column in row `row` (an expression): `row · width`
/// for whole rows, `row · row_width + offset` for a column [`Window`].
fn gm_at(row: &str, width: usize, window: Option<Window>) -> String {
    match window {
        None => format!("{row} * {width}"),
        Some(w) => format!("{row} * {} + {}", w.row_width, w.offset),
    }
}

/// GM bytes between the end of one row's burst and the next row's (0 for whole rows).
fn gm_gap(width: usize, window: Option<Window>, dtype: DType) -> u64 {
    window.map_or(0, |w| (w.row_width - width) as u64 * elem_bytes(dtype))
}

/// 32-byte blocks between the end of a padded burst and the next row.
fn ub_gap(width: usize, dtype: DType) -> u64 {
    let e = elem_bytes(dtype);
    let burst = (width as u64 * e).div_ceil(32) * 32;
    (pitch(width) * e - burst) / 32
}

fn pad_params(dtype: DType) -> String {
    format!("DataCopyPadExtParams<{}>(false, 0, 0, 0)", ctype(dtype))
}

fn emit_stage(c: &mut Code, plan: &KernelPlan, s: usize, stage: &Stage, layout: &StageLayout) {
    let sym = symbol(&plan.name);
    let nm = Names { stage, layout };
    let loads_of = |arg: usize| {
        stage
            .nodes
            .iter()
            .any(|n| matches!(n.op, MicroOp::Load { arg: a, .. } if a == arg))
            || stage.segments.iter().any(|g| g.arg == arg)
    };
    let used_inputs: Vec<usize> = (0..plan.inputs.len()).filter(|a| loads_of(*a)).collect();
    let has_calc = layout.calc_row_elems > 0;
    let has_gcalc = layout.group_calc_elems > 0;
    let g = stage.group.max(1);
    let has_resident = layout.resident_elems > 0;
    let has_tables = layout.table_elems > 0;
    let has_work = layout.work_elems > 0;
    let has_staging = layout.staging_bytes > 0;
    // A tile load's queue: its VECIN queue, or the bound queue of a pass-through.
    let in_q = |id: NodeId| {
        if layout.bound_store(id).is_some() {
            format!("bindQ{id}")
        } else {
            format!("inQ{id}")
        }
    };
    // The queue the prologue stages invariant rows through.
    let sq = match layout.staging_queue {
        Some(k) => format!("inQ{k}"),
        None => "stageQ".to_string(),
    };
    let params: Vec<String> = (0..plan.inputs.len())
        .map(|i| format!("GM_ADDR x{i}"))
        .chain((0..plan.outputs.len()).map(|j| format!("GM_ADDR y{j}")))
        .collect();

    c.line(format!(
        "// Stage {s}: rows {:?}..{:?} of the loop over {:?} ({} rows).",
        stage.lo,
        stage
            .lo
            .iter()
            .zip(&stage.ext)
            .map(|(l, e)| l + e)
            .collect::<Vec<_>>(),
        stage.loop_shape,
        stage.rows
    ));
    c.open(format!("class Stage{s} {{"));
    c.indent -= 1;
    c.line("public:");
    c.indent += 1;
    if layout.buffer_num != crate::layout::DOUBLE_BUFFER {
        // Declared before the TQue members that take it; hides the namespace's default.
        c.line("// One row of this stage does not fit the UB with double-buffered queues: one");
        c.line(
            "// buffer per queue (AllocTensor of the next tile waits for this tile's FreeTensor,",
        );
        c.line("// so copy-in, compute and copy-out do not overlap).");
        c.line(format!(
            "static constexpr int32_t BUFFER_NUM = {};",
            layout.buffer_num
        ));
    }
    c.line(format!("__aicore__ inline Stage{s}() {{}}"));
    c.open(format!(
        "__aicore__ inline void Init(TPipe *pipe, {}, const {sym}_StageTiling &t)",
        params.join(", ")
    ));
    c.indent -= 1;
    c.line("{");
    c.indent += 1;
    c.line("tileRows = t.tileRows;");
    if g > 1 {
        // The groups a tile of tileRows rows starting anywhere can touch.
        c.line(format!("tileUnits = (tileRows + {}u) / {g}u + 1;", g - 2));
    }
    c.line("uint32_t core = (uint32_t)GetBlockIdx();");
    c.open("if (core < t.bigCoreNum) {");
    c.line("rowStart = core * t.bigCoreRows;");
    c.line("rowCount = t.bigCoreRows;");
    c.close("} else {");
    c.indent += 1;
    c.line("rowStart = t.bigCoreNum * t.bigCoreRows + (core - t.bigCoreNum) * t.smallCoreRows;");
    c.line("rowCount = t.smallCoreRows;");
    c.close("}");
    for a in &used_inputs {
        let ty = &plan.inputs[*a];
        c.line(format!(
            "gmX{a}.SetGlobalBuffer((__gm__ {0} *)x{a}, {1});",
            ctype(ty.dtype),
            ty.numel()
        ));
    }
    for st in &stage.stores {
        let ty = &plan.outputs[st.output];
        c.line(format!(
            "gmY{0}.SetGlobalBuffer((__gm__ {1} *)y{0}, {2});",
            st.output,
            ctype(ty.dtype),
            ty.numel()
        ));
    }
    for id in &layout.tile_loads {
        let MicroOp::Load { arg, .. } = stage.nodes[*id].op else {
            unreachable!()
        };
        let per = if nm.kind(*id) == Kind::Group {
            "tileUnits"
        } else {
            "tileRows"
        };
        c.line(format!(
            "pipe->InitBuffer({}, BUFFER_NUM, {per} * {} * sizeof({}));",
            in_q(*id),
            nm.p(*id),
            ctype(plan.inputs[arg].dtype)
        ));
    }
    for (j, st) in stage.stores.iter().enumerate() {
        if layout.bound_load(j).is_some() {
            continue;
        }
        c.line(format!(
            "pipe->InitBuffer(outQ{j}, BUFFER_NUM, tileRows * {} * sizeof({}));",
            nm.p(st.node),
            ctype(plan.outputs[st.output].dtype)
        ));
    }
    if has_calc {
        c.line(format!(
            "pipe->InitBuffer(calcBuf, tileRows * {} * sizeof(float));",
            layout.calc_row_elems
        ));
    }
    if has_gcalc {
        c.line(format!(
            "pipe->InitBuffer(gcalcBuf, tileUnits * {} * sizeof(float));",
            layout.group_calc_elems
        ));
    }
    if has_resident {
        c.line(format!(
            "pipe->InitBuffer(residentBuf, {} * sizeof(float));",
            layout.resident_elems
        ));
    }
    if has_staging {
        c.line(format!(
            "pipe->InitBuffer(stageQ, 1, {});",
            layout.staging_bytes
        ));
    }
    if has_tables {
        c.line(format!(
            "pipe->InitBuffer(tableBuf, {} * sizeof(uint32_t));",
            layout.table_elems
        ));
    }
    if has_work {
        c.line(format!(
            "pipe->InitBuffer(workBuf, {} * sizeof(float));",
            layout.work_elems
        ));
    }
    c.close("}");
    c.line("");

    c.line("__aicore__ inline void Process()");
    c.open("{");
    c.line("if (rowCount == 0) {");
    c.line("    return;");
    c.line("}");
    let has_prologue = has_resident || has_tables;
    if has_prologue {
        c.line("Prologue();");
    }
    c.line("uint32_t tiles = (rowCount + tileRows - 1) / tileRows;");
    c.open("for (uint32_t k = 0; k < tiles; k++) {");
    c.line("uint32_t row = rowStart + k * tileRows;");
    c.line("uint32_t n = k + 1 < tiles ? tileRows : rowCount - k * tileRows;");
    c.line("CopyIn(row, n);");
    c.line("Compute(row, n);");
    c.line("CopyOut(row, n);");
    c.close("}");
    c.close("}");
    c.line("");
    c.indent -= 1;
    c.line("private:");
    c.indent += 1;

    let buffers = |c: &mut Code| {
        if has_calc {
            c.line("LocalTensor<float> calc = calcBuf.Get<float>();");
        }
        if has_gcalc {
            c.line("LocalTensor<float> gcalc = gcalcBuf.Get<float>();");
        }
        if has_resident {
            c.line("LocalTensor<float> resident = residentBuf.Get<float>();");
        }
        if has_tables {
            c.line("LocalTensor<uint32_t> tables = tableBuf.Get<uint32_t>();");
        }
        if has_work {
            c.line("LocalTensor<float> work = workBuf.Get<float>();");
        }
    };

    // Prologue: tables, then the invariant rows (loaded once, computed once).
    if has_prologue {
        c.line("__aicore__ inline void Prologue()");
        c.open("{");
        if has_resident {
            c.line("LocalTensor<float> resident = residentBuf.Get<float>();");
        }
        if has_tables {
            c.line("LocalTensor<uint32_t> tables = tableBuf.Get<uint32_t>();");
        }
        if has_work {
            c.line("LocalTensor<float> work = workBuf.Get<float>();");
        }
        for (kind, off) in &layout.tables {
            let (len, expr) = match kind {
                TableKind::SwapPairs(w) => (*w, "(j ^ 1u) * 4u".to_string()),
                TableKind::SwapHalves(w) => {
                    let h = w / 2;
                    (*w, format!("(j < {h}u ? j + {h}u : j - {h}u) * 4u"))
                }
                TableKind::Columns { offset, len } => (*len, format!("(j + {offset}u) * 4u")),
                TableKind::RepeatEach { width, times } => (*width, format!("(j / {times}u) * 4u")),
            };
            c.line(format!(
                "for (uint32_t j = 0; j < {len}; j++) tables.SetValue({off} + j, {expr});"
            ));
        }
        for (kind, off) in &layout.signs {
            let (len, expr) = match kind {
                TableKind::SwapPairs(w) => (*w, "j % 2u == 0u ? -1.0f : 1.0f".to_string()),
                TableKind::SwapHalves(w) => (*w, format!("j < {}u ? -1.0f : 1.0f", w / 2)),
                TableKind::Columns { .. } | TableKind::RepeatEach { .. } => {
                    unreachable!("signs belong to rotations")
                }
            };
            c.line(format!(
                "for (uint32_t j = 0; j < {len}; j++) resident.SetValue({off} + j, {expr});"
            ));
        }
        if !layout.tables.is_empty() || !layout.signs.is_empty() {
            c.line("SyncSV();");
        }
        for (id, node) in stage.nodes.iter().enumerate() {
            if !node.invariant {
                continue;
            }
            c.line(format!("// {}", node.note));
            if let MicroOp::Load { arg, rows, window } = &node.op {
                let ty = plan.inputs[*arg].dtype;
                let ct = ctype(ty);
                let w = node.width;
                // Elements one staging copy holds, whole 16-element blocks.
                let piece = (layout.staging_piece_bytes / elem_bytes(ty)) as usize / 16 * 16;
                if piece < w {
                    // Wider than one staging buffer: a piece at a time, each at its offset
                    // of the resident row (a multiple of 16 elements, so 32-byte aligned).
                    let Buf::Resident { off } = layout.buf[id] else {
                        unreachable!("an invariant load lives in the resident buffer")
                    };
                    c.open(format!("for (uint32_t c = 0; c < {w}u; c += {piece}u) {{"));
                    c.line(format!(
                        "uint32_t len = {w}u - c < {piece}u ? {w}u - c : {piece}u;"
                    ));
                    c.open("{");
                    c.line(format!("LocalTensor<{ct}> q = {sq}.AllocTensor<{ct}>();"));
                    c.line(format!(
                        "DataCopyPad(q, gmX{arg}[{} + c], DataCopyExtParams((uint16_t)1, len * {}u, 0, 0, 0), {});",
                        gm_at(&format!("{}ull", rows.base), w, *window),
                        elem_bytes(ty),
                        pad_params(ty)
                    ));
                    c.line(format!("{sq}.EnQue(q);"));
                    c.close("}");
                    c.open("{");
                    c.line(format!("LocalTensor<{ct}> q = {sq}.DeQue<{ct}>();"));
                    if ty == DType::F32 {
                        c.line(format!(
                            "DataCopy(resident[{off} + c], q, (len + 15u) / 16u * 16u);"
                        ));
                    } else {
                        c.line(format!(
                            "Cast(resident[{off} + c], q, RoundMode::CAST_NONE, (len + 15u) / 16u * 16u);"
                        ));
                    }
                    c.line(format!("{sq}.FreeTensor(q);"));
                    c.close("}");
                    c.close("}");
                    continue;
                }
                c.open("{");
                c.line(format!("LocalTensor<{ct}> q = {sq}.AllocTensor<{ct}>();"));
                c.line(format!(
                    "DataCopyPad(q, gmX{arg}[{}], {}, {});",
                    gm_at(&format!("{}ull", rows.base), w, *window),
                    ext_params("1", w, ty, 0, true),
                    pad_params(ty)
                ));
                c.line(format!("{sq}.EnQue(q);"));
                c.close("}");
                c.open("{");
                c.line(format!("LocalTensor<{ct}> q = {sq}.DeQue<{ct}>();"));
                if ty == DType::F32 {
                    c.line(format!("DataCopy({}, q, {});", nm.buf(id), nm.p(id)));
                } else {
                    c.line(format!(
                        "Cast({}, q, RoundMode::CAST_NONE, {});",
                        nm.buf(id),
                        nm.p(id)
                    ));
                }
                c.line(format!("{sq}.FreeTensor(q);"));
                c.close("}");
                continue;
            }
            c.open("{");
            declare(c, &nm, id);
            emit_node(c, &nm, id);
            c.close("}");
        }
        c.close("}");
        c.line("");
    }

    // CopyIn: the tile's rows of each loaded operand.
    c.line("__aicore__ inline void CopyIn(uint32_t row, uint32_t n)");
    c.open("{");
    if layout.tile_loads.is_empty() {
        c.line("(void)row;");
        c.line("(void)n;");
    }
    for id in &layout.tile_loads {
        let MicroOp::Load { arg, rows, window } = &stage.nodes[*id].op else {
            unreachable!()
        };
        let window = *window;
        let ty = plan.inputs[*arg].dtype;
        let ct = ctype(ty);
        let w = stage.nodes[*id].width;
        // A column window of wider rows: bursts of `w` columns, the rest of each GM row skipped.
        let gap = gm_gap(w, window, ty);
        c.line(format!(
            "LocalTensor<{ct}> l{id} = {}.AllocTensor<{ct}>();",
            in_q(*id)
        ));
        if nm.kind(*id) == Kind::Group {
            // One row per group of the tile: the group's first row names it.
            c.line(format!("uint32_t g{id} = row / {g}u;"));
            c.line(format!(
                "uint32_t u{id} = (row + n - 1) / {g}u - g{id} + 1;"
            ));
            if crate::plan::groups_contiguous(rows, stage) {
                c.line(format!("uint32_t r{id} = g{id} * {g}u;"));
                c.line(format!(
                    "DataCopyPad(l{id}, gmX{arg}[{}], {}, {});",
                    gm_at(
                        &format!(
                            "({})",
                            gm_row(
                                &RowMap {
                                    contiguous: false,
                                    ..rows.clone()
                                },
                                stage,
                                &format!("r{id}")
                            )
                        ),
                        w,
                        window
                    ),
                    load_params(&format!("u{id}"), w, ty, gap, ub_gap(w, ty)),
                    pad_params(ty)
                ));
            } else {
                c.open(format!("for (uint32_t q = 0; q < u{id}; q++) {{"));
                c.line(format!("uint32_t r = (g{id} + q) * {g}u;"));
                c.line(format!("uint64_t g = {};", gm_row(rows, stage, "r")));
                c.line(format!(
                    "DataCopyPad(l{id}[q * {}], gmX{arg}[{}], {}, {});",
                    nm.p(*id),
                    gm_at("g", w, window),
                    ext_params("1", w, ty, 0, true),
                    pad_params(ty)
                ));
                c.close("}");
            }
        } else if rows.contiguous && stage.segments.iter().any(|g| g.node == *id) {
            // Rows from several arguments (the operands of a concat along an outer dim): each
            // segment the tile meets in one burst.
            c.line("uint32_t end = row + n;");
            for (start, stop, a, base) in stage.sources(*id) {
                c.open(format!("if (row < {stop}u && end > {start}u) {{"));
                c.line(format!("uint32_t lo = row > {start}u ? row : {start}u;"));
                c.line(format!("uint32_t hi = end < {stop}u ? end : {stop}u;"));
                c.line(format!(
                    "DataCopyPad(l{id}[(lo - row) * {}], gmX{a}[({base}ull + (lo - {start}u)) * {w}], {}, {});",
                    nm.p(*id),
                    ext_params("(hi - lo)", w, ty, ub_gap(w, ty), true),
                    pad_params(ty)
                ));
                c.close("}");
            }
        } else if rows.contiguous {
            c.line(format!(
                "DataCopyPad(l{id}, gmX{arg}[{}], {}, {});",
                gm_at(&format!("({})", gm_row(rows, stage, "row")), w, window),
                load_params("n", w, ty, gap, ub_gap(w, ty)),
                pad_params(ty)
            ));
        } else {
            c.open("for (uint32_t i = 0; i < n; i++) {");
            c.line("uint32_t r = row + i;");
            c.line(format!("uint64_t g = {};", gm_row(rows, stage, "r")));
            c.line(format!(
                "DataCopyPad(l{id}[i * {}], gmX{arg}[{}], {}, {});",
                nm.p(*id),
                gm_at("g", w, window),
                ext_params("1", w, ty, 0, true),
                pad_params(ty)
            ));
            c.close("}");
        }
        c.line(format!("{}.EnQue(l{id});", in_q(*id)));
    }
    c.close("}");
    c.line("");

    // Compute: the row program, in order; outputs leave as soon as they are computed.
    let grouped = stage.nodes.iter().any(|n| n.grouped);
    c.line("__aicore__ inline void Compute(uint32_t row, uint32_t n)");
    c.open("{");
    buffers(c);
    if grouped {
        c.line("// The groups of rows row..row + n: g0 (of the stage) and u of them.");
        c.line(format!("uint32_t g0 = row / {g}u;"));
        c.line(format!("uint32_t u = (row + n - 1) / {g}u - g0 + 1;"));
    } else {
        c.line("(void)row;");
    }
    // Only pass-throughs: nothing of the tile is computed.
    if stage
        .nodes
        .iter()
        .enumerate()
        .all(|(id, n)| n.invariant || layout.bound_store(id).is_some())
    {
        c.line("(void)n;");
    }
    for (id, node) in stage.nodes.iter().enumerate() {
        if node.invariant {
            continue;
        }
        if layout.bound_store(id).is_some() {
            // Nothing to compute: CopyOut takes the rows from the bound queue as loaded.
            c.line(format!(
                "// {}: yielded unchanged, through bindQ{id} (no vector work)",
                node.note
            ));
            continue;
        }
        c.line(format!("// {}", node.note));
        if let MicroOp::Load { arg, .. } = node.op {
            let ty = plan.inputs[arg].dtype;
            if ty == DType::F32 || node.half {
                let ct = ctype(ty);
                c.line(format!("LocalTensor<{ct}> v{id} = inQ{id}.DeQue<{ct}>();"));
            } else {
                let ct = ctype(ty);
                declare(c, &nm, id);
                c.open("{");
                c.line(format!("LocalTensor<{ct}> q = inQ{id}.DeQue<{ct}>();"));
                c.line(format!(
                    "Cast(v{id}, q, RoundMode::CAST_NONE, {});",
                    nm.count(id)
                ));
                c.line(format!("inQ{id}.FreeTensor(q);"));
                c.close("}");
            }
        } else {
            declare(c, &nm, id);
            emit_node(c, &nm, id);
        }
        for (j, st) in stage.stores.iter().enumerate() {
            if st.node == id {
                emit_store(c, &nm, plan, j, id);
            }
        }
        for l in &layout.tile_loads {
            let MicroOp::Load { arg, .. } = stage.nodes[*l].op else {
                unreachable!()
            };
            let in_queue = plan.inputs[arg].dtype == DType::F32 || stage.nodes[*l].half;
            if layout.last_use[*l] == id && in_queue {
                c.line(format!("inQ{l}.FreeTensor(v{l});"));
            }
        }
    }
    // Stored invariant rows (a one-row stage).
    for (j, st) in stage.stores.iter().enumerate() {
        if stage.nodes[st.node].invariant {
            if !has_resident {
                unreachable!("an invariant node lives in the resident buffer");
            }
            emit_store(c, &nm, plan, j, st.node);
        }
    }
    c.close("}");
    c.line("");

    // CopyOut: the tile's rows of each output.
    c.line("__aicore__ inline void CopyOut(uint32_t row, uint32_t n)");
    c.open("{");
    for (j, st) in stage.stores.iter().enumerate() {
        let ty = plan.outputs[st.output].dtype;
        let ct = ctype(ty);
        let w = stage.nodes[st.node].width;
        let oq = match layout.bound_load(j) {
            Some(l) => format!("bindQ{l}"),
            None => format!("outQ{j}"),
        };
        c.line(format!("LocalTensor<{ct}> o{j} = {oq}.DeQue<{ct}>();"));
        if st.rows.contiguous {
            c.line(format!(
                "DataCopyPad(gmY{}[({}) * {w}], o{j}, {});",
                st.output,
                gm_row(&st.rows, stage, "row"),
                ext_params("n", w, ty, ub_gap(w, ty), false)
            ));
        } else {
            c.open("for (uint32_t i = 0; i < n; i++) {");
            c.line("uint32_t r = row + i;");
            c.line(format!("uint64_t g = {};", gm_row(&st.rows, stage, "r")));
            c.line(format!(
                "DataCopyPad(gmY{}[g * {w}], o{j}[i * {}], {});",
                st.output,
                pitch(w),
                ext_params("1", w, ty, 0, false)
            ));
            c.close("}");
        }
        c.line(format!("{oq}.FreeTensor(o{j});"));
    }
    c.close("}");
    c.line("");

    // Members.
    for id in &layout.tile_loads {
        if layout.bound_store(*id).is_some() {
            // Copy-in to copy-out with no vector work: one queue bound from VECIN to VECOUT
            // ("纯搬运类算子VECIN和VECOUT建议复用", atlas_ascendc_best_practices_10_0026).
            c.line(format!(
                "TQueBind<TPosition::VECIN, TPosition::VECOUT, BUFFER_NUM> bindQ{id};"
            ));
        } else {
            c.line(format!("TQue<TPosition::VECIN, BUFFER_NUM> inQ{id};"));
        }
    }
    for j in 0..stage.stores.len() {
        if layout.bound_load(j).is_none() {
            c.line(format!("TQue<TPosition::VECOUT, BUFFER_NUM> outQ{j};"));
        }
    }
    if has_staging {
        c.line("TQue<TPosition::VECIN, 1> stageQ;");
    }
    for (flag, name) in [
        (has_calc, "calcBuf"),
        (has_gcalc, "gcalcBuf"),
        (has_resident, "residentBuf"),
        (has_tables, "tableBuf"),
        (has_work, "workBuf"),
    ] {
        if flag {
            c.line(format!("TBuf<TPosition::VECCALC> {name};"));
        }
    }
    for a in &used_inputs {
        c.line(format!(
            "GlobalTensor<{}> gmX{a};",
            ctype(plan.inputs[*a].dtype)
        ));
    }
    for st in &stage.stores {
        c.line(format!(
            "GlobalTensor<{}> gmY{};",
            ctype(plan.outputs[st.output].dtype),
            st.output
        ));
    }
    c.line("uint32_t tileRows = 0;");
    c.line("uint32_t tileUnits = 0;");
    c.line("uint32_t rowStart = 0;");
    c.line("uint32_t rowCount = 0;");
    c.close("};");
    c.line("");
}

/// The kernel source `<kernel>.cpp`.
pub fn kernel_source(plan: &KernelPlan, layouts: &[StageLayout], body_comment: &str) -> String {
    let sym = symbol(&plan.name);
    let mut c = Code::default();
    c.line(format!(
        "// {sym}.cpp: Ascend C vector kernel of dit.fused @{}, generated by `dit-opt --emit=ascendc`.",
        plan.name
    ));
    c.line("//");
    for l in body_comment.lines() {
        c.line(format!("// {l}"));
    }
    c.line("//");
    for l in [
        "// Values are computed in f32 (inputs widened on load, outputs rounded to nearest even on",
        "// store) but for f16 elementwise chains, which stay in half: on Atlas A2/A3 the vector",
        "// arithmetic takes half and float but not bfloat16_t (Ascend C Mul/Add/Sub/Div/Muls/Adds,",
        "// atlasascendc_api_07_0037 and siblings: \"half、int16_t、int32_t、float\"); reductions and",
        "// transcendental ops stay f32. Rows are the last dim, padded to 16 elements in UB; tiles are",
    ] {
        c.line(l);
    }
    c.line(
        "// rows of one core's share, sized by the host tiling function to fill the UB; a table",
    );
    c.line("// broadcast over the innermost dims (RoPE's cos/sin over the heads) is loaded once per group");
    c.line("// of rows a tile touches and applied with repeat strides.");
    c.line("#include \"kernel_operator.h\"");
    c.line(format!("#include \"{sym}_tiling.h\""));
    c.line("");
    c.line("using namespace AscendC;");
    c.line("");
    c.open(format!("namespace {sym}_impl {{"));
    c.indent -= 1;
    c.line("");
    c.line("// Buffers per TQue (double buffering) of every stage that does not declare its own.");
    c.line(format!(
        "constexpr int32_t BUFFER_NUM = {};",
        crate::layout::DOUBLE_BUFFER
    ));
    c.line("");
    c.line("// A scalar read (GetValue) after vector instructions waits for the vector pipe.");
    c.line("__aicore__ inline void SyncVS()");
    c.line("{");
    c.line("    event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));");
    c.line("    SetFlag<HardEvent::V_S>(e);");
    c.line("    WaitFlag<HardEvent::V_S>(e);");
    c.line("}");
    c.line("");
    c.line("// Vector instructions after scalar writes (SetValue) wait for the scalar unit.");
    c.line("__aicore__ inline void SyncSV()");
    c.line("{");
    c.line("    event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));");
    c.line("    SetFlag<HardEvent::S_V>(e);");
    c.line("    WaitFlag<HardEvent::S_V>(e);");
    c.line("}");
    c.line("");
    for (s, (stage, layout)) in plan.stages.iter().zip(layouts).enumerate() {
        emit_stage(&mut c, plan, s, stage, layout);
    }
    c.line(format!("}} // namespace {sym}_impl"));
    c.line("");
    let params: Vec<String> = (0..plan.inputs.len())
        .map(|i| format!("GM_ADDR x{i}"))
        .chain((0..plan.outputs.len()).map(|j| format!("GM_ADDR y{j}")))
        .collect();
    let args: Vec<String> = (0..plan.inputs.len())
        .map(|i| format!("x{i}"))
        .chain((0..plan.outputs.len()).map(|j| format!("y{j}")))
        .collect();
    c.line(format!(
        "extern \"C\" __global__ __aicore__ void {sym}({}, {sym}_TilingData tiling)",
        params.join(", ")
    ));
    c.open("{");
    c.line("// No cube work: only the AI Cores' vector units start (\"设置Kernel类型\",");
    c.line("// atlasascendc_api_07_0218: KERNEL_TYPE_AIV_ONLY, Atlas A2/A3).");
    c.line("KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);");
    c.line("TPipe pipe;");
    for s in 0..plan.stages.len() {
        if s > 0 {
            c.line("pipe.Reset();");
        }
        c.open("{");
        c.line(format!("{sym}_impl::Stage{s} op;"));
        c.line(format!(
            "op.Init(&pipe, {}, tiling.stage[{s}]);",
            args.join(", ")
        ));
        c.line("op.Process();");
        c.close("}");
    }
    c.close("}");
    c.out
}

/// The tiling header `<kernel>_tiling.h`: the tiling structs (shared by host and kernel) and
/// the host tiling function.
pub fn tiling_header(plan: &KernelPlan, layouts: &[StageLayout]) -> String {
    let sym = symbol(&plan.name);
    let guard = format!("DIT_{}_TILING_H", sym.to_uppercase());
    let n = plan.stages.len();
    let list = |f: &dyn Fn(usize) -> u64| {
        (0..n)
            .map(|s| format!("{}ull", f(s)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut c = Code::default();
    c.line(format!(
        "// {sym}_tiling.h: tiling of dit.fused @{}, generated by `dit-opt --emit=ascendc`.",
        plan.name
    ));
    c.line(format!("#ifndef {guard}"));
    c.line(format!("#define {guard}"));
    c.line("");
    c.line("#include <stddef.h>");
    c.line("#include <stdint.h>");
    c.line("");
    c.line("// One stage's split: the first bigCoreNum cores take bigCoreRows rows, the others");
    c.line("// smallCoreRows; each core walks its rows tileRows at a time, the last tile shorter.");
    c.open(format!("struct {sym}_StageTiling {{"));
    for f in [
        "rows",
        "tileRows",
        "bigCoreNum",
        "bigCoreRows",
        "smallCoreRows",
    ] {
        c.line(format!("uint32_t {f};"));
    }
    c.close("};");
    c.line("");
    c.open(format!("struct {sym}_TilingData {{"));
    c.line("uint32_t blockDim;");
    c.line(format!("{sym}_StageTiling stage[{n}];"));
    c.close("};");
    c.line("");
    c.line("#ifndef __CCE_AICORE__");
    c.line("#include <stdio.h>");
    c.line("");
    c.line("// Host tiling: a tile of n rows needs kFixedBytes + n * kRowBytes + groups(n) * kGroupBytes");
    c.line("// of the UB (queues at the stage's BUFFER_NUM), groups(n) the groups of kGroup rows (rows that share");
    c.line("// a broadcast table's row) that n rows starting anywhere can touch. Returns 0, or 1 with a");
    c.line("// message when not even one row fits.");
    c.line(format!(
        "inline uint64_t {sym}_TileBytes(uint64_t fixed, uint64_t row, uint64_t group, uint64_t groupBytes, uint64_t n)"
    ));
    c.open("{");
    c.line("uint64_t groups = groupBytes == 0 || n == 0 ? 0 : (n + group - 2) / group + 1;");
    c.line("return fixed + n * row + groups * groupBytes;");
    c.close("}");
    c.line("");
    c.line(format!(
        "inline int32_t {sym}_Tiling(uint32_t ubBytes, uint32_t coreNum, {sym}_TilingData *tiling, char *err, size_t errLen)"
    ));
    c.open("{");
    c.line(format!(
        "static const uint64_t kRows[{n}] = {{{}}};",
        list(&|s| plan.stages[s].rows)
    ));
    c.line(format!(
        "static const uint64_t kGroup[{n}] = {{{}}};",
        list(&|s| layouts[s].group.max(1))
    ));
    c.line(format!(
        "static const uint64_t kRowBytes[{n}] = {{{}}};",
        list(&|s| layouts[s].row_bytes)
    ));
    c.line(format!(
        "static const uint64_t kGroupBytes[{n}] = {{{}}};",
        list(&|s| layouts[s].group_bytes)
    ));
    c.line(format!(
        "static const uint64_t kFixedBytes[{n}] = {{{}}};",
        list(&|s| layouts[s].fixed_bytes)
    ));
    c.line("uint64_t maxRows = 1;");
    c.line(format!(
        "for (uint32_t s = 0; s < {n}; s++) maxRows = kRows[s] > maxRows ? kRows[s] : maxRows;"
    ));
    c.line("uint64_t blockDim = coreNum < maxRows ? coreNum : maxRows;");
    c.line("blockDim = blockDim == 0 ? 1 : blockDim;");
    c.line("tiling->blockDim = (uint32_t)blockDim;");
    c.open(format!("for (uint32_t s = 0; s < {n}; s++) {{"));
    c.line(format!(
        "uint64_t one = {sym}_TileBytes(kFixedBytes[s], kRowBytes[s], kGroup[s], kGroupBytes[s], 1);"
    ));
    c.open("if (one > ubBytes) {");
    c.line(format!(
        "snprintf(err, errLen, \"kernel {} stage %u: one row needs %llu bytes of UB (%llu fixed + %llu per row%s), the Unified Buffer has %u\", s, (unsigned long long)one, (unsigned long long)kFixedBytes[s], (unsigned long long)(one - kFixedBytes[s]), kGroup[s] > 1 ? \" and its group's shared rows\" : \"\", ubBytes);",
        plan.name
    ));
    c.line("return 1;");
    c.close("}");
    c.line("// The most rows that fit, by bisection (the bytes grow with the rows).");
    c.line(
        "uint64_t lo = 1, hi = (ubBytes - kFixedBytes[s]) / (kRowBytes[s] ? kRowBytes[s] : 1) + 1;",
    );
    c.open("while (lo + 1 < hi) {");
    c.line("uint64_t mid = (lo + hi) / 2;");
    c.line(format!(
        "if ({sym}_TileBytes(kFixedBytes[s], kRowBytes[s], kGroup[s], kGroupBytes[s], mid) <= ubBytes) lo = mid; else hi = mid;"
    ));
    c.close("}");
    c.line("uint64_t small = kRows[s] / blockDim, big = kRows[s] % blockDim;");
    c.line("uint64_t perCore = small + (big ? 1 : 0);");
    c.line("uint64_t tileRows = lo < perCore ? lo : perCore;");
    c.line(format!(
        "tileRows = tileRows > {0} ? {0} : tileRows; // DataCopyPad moves at most {0} rows (blockCount)",
        crate::layout::MAX_TILE_ROWS
    ));
    c.line("tiling->stage[s].rows = (uint32_t)kRows[s];");
    c.line("tiling->stage[s].tileRows = (uint32_t)(tileRows == 0 ? 1 : tileRows);");
    c.line("tiling->stage[s].bigCoreNum = (uint32_t)big;");
    c.line("tiling->stage[s].bigCoreRows = (uint32_t)(small + 1);");
    c.line("tiling->stage[s].smallCoreRows = (uint32_t)small;");
    c.close("}");
    c.line("return 0;");
    c.close("}");
    c.line("#endif");
    c.line("");
    c.line(format!("#endif // {guard}"));
    c.out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_and_literals() {
        assert_eq!(symbol("fused_f_0"), "fused_f_0");
        assert_eq!(symbol("fused.a-b"), "fused_a_b");
        assert_eq!(symbol("0k"), "_0k");
        assert_eq!(flt(1.0), "1.0f");
        assert_eq!(flt(1e-6), "1e-6f");
        assert_eq!(flt(-0.5), "-0.5f");
        assert_eq!("1e-6".parse::<f32>().unwrap(), 1e-6f32);
    }
}
