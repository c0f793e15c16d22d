//! Where every node of a stage lives in the Unified Buffer, and how many rows a tile holds.
//!
//! A stage's UB is: one VECIN queue per loaded tile operand and one VECOUT queue per stored
//! output (in their GM element types, [`StageLayout::buffer_num`] buffers each: two, so that
//! copy-in, compute and copy-out of consecutive tiles overlap, or one when a row does not fit
//! that way, [`layout_at`]), a VECCALC
//! buffer of f32 slots for the tile's computed values and temporaries (slots are reused once a
//! value is dead, first fit), and fixed buffers for the invariant rows (`resident`), the
//! staging queue that loads them, gather offset tables and the reduction work area. Rows are
//! padded to 16 elements, so a row is a whole number of 32-byte blocks in f32 and in the 2-byte
//! types alike, and every row of every buffer starts 32-byte aligned.
//!
//! A tile load yielded unchanged and read by nothing else (a pass-through: the v piece of a
//! q/k/v split) moves through one bound queue, `TQueBind<VECIN, VECOUT>`, from copy-in to
//! copy-out ([`StageLayout::pass_through`]): no VECOUT queue and no f32 slot of its own.
//!
//! Grouped nodes ([`crate::plan::Node::grouped`]) have their own queues and a group VECCALC
//! buffer with one row per group a tile touches. Resident rows that only other invariant rows
//! read are given back once dead (the prologue computes them first), so a broadcast scale's
//! `1 + scale` takes the scale's row.
//!
//! Everything but the number of rows per tile is known here: a tile of `n` rows needs
//! `fixed_bytes + n × row_bytes + groups(n) × group_bytes` bytes ([`StageLayout::ub_bytes`]),
//! and the host tiling function picks the largest `n` that fits the UB it is given.

use crate::plan::{KernelPlan, MicroOp, NodeId, Stage, UnaryOp};
use dit_runtime::DType;
use std::collections::HashMap;

/// Elements a row is padded to (32 bytes of a 2-byte type).
pub const ROW_ALIGN: usize = 16;
/// f32 elements of one per-row statistic (a 32-byte block, so every row's scalar is aligned).
pub const STAT_PITCH: u64 = 8;
/// The smallest piece an invariant row is staged in through a tile queue (bytes): 16 f32
/// elements, so that every piece starts a whole number of 32-byte blocks into the row in f32
/// and in the 2-byte types alike.
pub const MIN_STAGING_PIECE: u64 = 64;
/// The most rows one DataCopy / DataCopyPad moves (blockCount is at most 4095).
pub const MAX_TILE_ROWS: u64 = 4095;

/// Padded row length of a width.
pub fn pitch(width: usize) -> u64 {
    width.div_ceil(ROW_ALIGN).max(1) as u64 * ROW_ALIGN as u64
}

/// Bytes of one element of a GM type.
pub fn elem_bytes(d: DType) -> u64 {
    match d {
        DType::F32 => 4,
        _ => 2,
    }
}

/// A buffer of f32 rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Buf {
    /// In the tile's VECCALC buffer at `tileRows × off` elements; rows `pitch` apart.
    Calc {
        /// Offset per tile row (f32 elements).
        off: u64,
        /// Elements from one row to the next.
        pitch: u64,
    },
    /// In the tile's group buffer at `tileUnits × off` elements (one row per group of the
    /// tile, [`crate::plan::Node::grouped`]); rows `pitch` apart.
    Group {
        /// Offset per group of the tile (f32 elements).
        off: u64,
        /// Elements from one row to the next.
        pitch: u64,
    },
    /// In the resident buffer at `off` elements (one row).
    Resident {
        /// Offset (f32 elements).
        off: u64,
    },
    /// The dequeued VECIN tensor of this node's queue (an f32 tile load).
    Queue,
}

/// A gather offset table (uint32 byte offsets, one row).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableKind {
    /// Pairs swapped: j → j ^ 1.
    SwapPairs(usize),
    /// Halves swapped: j → j ± width/2.
    SwapHalves(usize),
    /// Each element repeated `times` times: j → j / times.
    RepeatEach {
        /// Elements of the result row.
        width: usize,
        /// Copies of each element.
        times: usize,
    },
    /// Columns offset..offset + len: j → offset + j.
    Columns {
        /// First column.
        offset: usize,
        /// Columns.
        len: usize,
    },
}

/// A stage's UB plan.
#[derive(Clone, Debug, PartialEq)]
pub struct StageLayout {
    /// Each node's rows.
    pub buf: Vec<Buf>,
    /// Each node's temporaries.
    pub temps: Vec<Vec<Buf>>,
    /// The node index after which each tile node is dead (its own index when only stored).
    pub last_use: Vec<usize>,
    /// Tile loads (their own VECIN queues), in node order.
    pub tile_loads: Vec<NodeId>,
    /// Invariant loads (through the staging queue), in node order.
    pub resident_loads: Vec<NodeId>,
    /// `(tile load, store index)` of each pass-through: a tile load that only its one store
    /// reads, in the output's own type. It moves through one bound queue, `TQueBind<VECIN,
    /// VECOUT>` (GM -> UB, EnQue, DeQue, UB -> GM: the Ascend C idiom for data movement with no
    /// vector work, "纯搬运类算子VECIN和VECOUT建议复用", atlas_ascendc_best_practices_10_0026;
    /// "TQueBind简介", atlasascendc_api_07_0147), instead of a VECIN queue, a widen, a narrow
    /// and a VECOUT queue: one queue's bytes and no VECCALC slot. In node order.
    pub pass_through: Vec<(NodeId, usize)>,
    /// Gather tables: kind → offset (uint32 elements) in the table buffer.
    pub tables: Vec<(TableKind, u64)>,
    /// Sign rows of rope's rotate: kind → resident offset.
    pub signs: Vec<(TableKind, u64)>,
    /// f32 elements per tile row of the VECCALC buffer.
    pub calc_row_elems: u64,
    /// f32 elements per group of the tile in the group VECCALC buffer.
    pub group_calc_elems: u64,
    /// f32 elements of the resident buffer.
    pub resident_elems: u64,
    /// Bytes of the staging queue's one buffer (0: none).
    pub staging_bytes: u64,
    /// The tile load whose VECIN queue stages the invariant loads instead of a queue of their
    /// own (the prologue runs before the first tile, when every tile queue is free).
    pub staging_queue: Option<NodeId>,
    /// Bytes one staging copy may fill: the staging queue's buffer, or one tile row of the
    /// staging tile queue. An invariant row wider than that comes in a piece at a time.
    pub staging_piece_bytes: u64,
    /// uint32 elements of the table buffer.
    pub table_elems: u64,
    /// f32 elements of the reduction work buffer.
    pub work_elems: u64,
    /// UB bytes per tile row (queues `buffer_num` times, VECCALC).
    pub row_bytes: u64,
    /// UB bytes per group of the tile: the grouped nodes' queues (`buffer_num` times) and
    /// slots.
    pub group_bytes: u64,
    /// Buffers of each tile queue (the kernel's `BUFFER_NUM` for this stage): 2, double
    /// buffered; 1 when one row does not fit double buffered. At 1 the next tile's copy-in
    /// waits for this tile's compute to free its queue, and its compute for this tile's
    /// copy-out: the three no longer overlap.
    pub buffer_num: u64,
    /// Rows per group ([`Stage::group`]).
    pub group: u64,
    /// UB bytes independent of the tile (each buffer rounded to 32 bytes).
    pub fixed_bytes: u64,
}

/// Groups of `group` rows that `rows` consecutive rows starting anywhere can touch: the rows
/// a tile holds of each grouped node.
pub fn group_capacity(rows: u64, group: u64) -> u64 {
    if rows == 0 {
        0
    } else {
        (rows + group.max(1) - 2) / group.max(1) + 1
    }
}

impl StageLayout {
    /// UB bytes a tile of `tile_rows` rows takes, fixed part included: the rows, and the rows
    /// of the groups they can touch.
    pub fn ub_bytes(&self, tile_rows: u64) -> u64 {
        let groups = if self.group_bytes > 0 {
            group_capacity(tile_rows, self.group)
        } else {
            0
        };
        self.fixed_bytes + tile_rows * self.row_bytes + groups * self.group_bytes
    }

    /// The store index of tile load `node` when it is a pass-through ([`Self::pass_through`]).
    pub fn bound_store(&self, node: NodeId) -> Option<usize> {
        self.pass_through
            .iter()
            .find(|(l, _)| *l == node)
            .map(|(_, j)| *j)
    }

    /// The pass-through load whose bound queue store `j` leaves from, if any.
    pub fn bound_load(&self, j: usize) -> Option<NodeId> {
        self.pass_through
            .iter()
            .find(|(_, s)| *s == j)
            .map(|(l, _)| *l)
    }

    /// The most rows a tile may take in `ub_bytes` (0: not even one fits).
    pub fn fit_rows(&self, ub_bytes: u64) -> u64 {
        if self.ub_bytes(1) > ub_bytes {
            return 0;
        }
        // ub_bytes(n) grows with n: the largest n that fits, by bisection.
        let (mut lo, mut hi) = (
            1u64,
            (ub_bytes - self.fixed_bytes) / self.row_bytes.max(1) + 1,
        );
        while lo + 1 < hi {
            let mid = (lo + hi) / 2;
            if self.ub_bytes(mid) <= ub_bytes {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }
}

/// How one stage is split: the fields of the generated `StageTiling` struct.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StageTiling {
    /// Rows of the stage.
    pub rows: u64,
    /// Rows per tile.
    pub tile_rows: u64,
    /// Cores that take `big_core_rows` rows (the first ones).
    pub big_core_num: u64,
    /// Rows of each of the first `big_core_num` cores.
    pub big_core_rows: u64,
    /// Rows of every other core.
    pub small_core_rows: u64,
    /// Rows per group of the stage (rows that share a broadcast table's row).
    pub group: u64,
}

/// A kernel's tiling: the cores it runs on and each stage's split.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tiling {
    /// Cores launched.
    pub block_dim: u64,
    /// Per stage.
    pub stages: Vec<StageTiling>,
}

/// One row (one group of rows) does not fit the UB.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "kernel {kernel} stage {stage}: one row needs {need} bytes of UB ({fixed} fixed + {row} per \
     row{}), the Unified Buffer has {ub}",
    if *group > 1 { " and its group's shared rows" } else { "" }
)]
pub struct UbError {
    /// The kernel.
    pub kernel: String,
    /// The stage.
    pub stage: usize,
    /// fixed + one row.
    pub need: u64,
    /// Fixed bytes.
    pub fixed: u64,
    /// Bytes per row (and its group's shared rows when `group` > 1).
    pub row: u64,
    /// The UB size given.
    pub ub: u64,
    /// Rows per group (1: no shared rows).
    pub group: u64,
}

/// The tiling the generated host function computes (kept in step with `tiling_header`).
pub fn tiling(
    plan: &KernelPlan,
    layouts: &[StageLayout],
    ub_bytes: u64,
    core_num: u64,
) -> Result<Tiling, UbError> {
    let max_rows = plan.stages.iter().map(|s| s.rows).max().unwrap_or(1);
    let block_dim = core_num.min(max_rows).max(1);
    let mut stages = Vec::new();
    for (i, (s, l)) in plan.stages.iter().zip(layouts).enumerate() {
        let fit = l.fit_rows(ub_bytes);
        if fit == 0 {
            let need = l.ub_bytes(1);
            return Err(UbError {
                kernel: plan.name.clone(),
                stage: i,
                need,
                fixed: l.fixed_bytes,
                row: need - l.fixed_bytes,
                ub: ub_bytes,
                group: l.group,
            });
        }
        let small = s.rows / block_dim;
        let big = s.rows % block_dim;
        let per_core = small + u64::from(big > 0);
        stages.push(StageTiling {
            rows: s.rows,
            tile_rows: fit.min(per_core).clamp(1, MAX_TILE_ROWS),
            big_core_num: big,
            big_core_rows: small + 1,
            small_core_rows: small,
            group: l.group.max(1),
        });
    }
    Ok(Tiling { block_dim, stages })
}

/// f32 temporaries of an op, as row pitches (`STAT_PITCH` for per-row statistics).
fn temp_pitches(op: &MicroOp, p: u64) -> Vec<u64> {
    match op {
        MicroOp::Unary(u, _) => match u {
            UnaryOp::Sigmoid | UnaryOp::Silu | UnaryOp::Tanh | UnaryOp::GeluTanh => vec![p],
            UnaryOp::Erf | UnaryOp::FastGelu => vec![p, p],
            UnaryOp::GeluErf => vec![p, p, p],
            _ => vec![],
        },
        MicroOp::Rms { .. } | MicroOp::Standardize { .. } => vec![p, STAT_PITCH],
        MicroOp::Softmax(_) => vec![STAT_PITCH, STAT_PITCH],
        MicroOp::Round { .. } => vec![p],
        _ => vec![],
    }
}

/// Whether an op may write its result over an operand that dies with it: each element of the
/// operands is read before (or by the instruction that) writes the same element of the result.
/// Not so for erf-based GELU and FastGelu (x is read again after the result is written), the
/// gather of rope, and ops that change the width.
fn in_place(op: &MicroOp) -> bool {
    match op {
        MicroOp::Unary(u, _) => !matches!(u, UnaryOp::Erf | UnaryOp::GeluErf | UnaryOp::FastGelu),
        MicroOp::Binary(..)
        | MicroOp::Rms { .. }
        | MicroOp::Standardize { .. }
        | MicroOp::Softmax(_)
        | MicroOp::Round { .. } => true,
        MicroOp::Load { .. }
        | MicroOp::ExpandLast(_)
        | MicroOp::RepeatEach { .. }
        | MicroOp::Slice { .. }
        | MicroOp::ConcatLast(_)
        | MicroOp::Rotate { .. } => false,
    }
}

/// First-fit allocator of per-row offsets.
#[derive(Default)]
struct Slots {
    free: Vec<(u64, u64)>,
    top: u64,
}

impl Slots {
    fn alloc(&mut self, len: u64) -> u64 {
        if let Some(i) = self.free.iter().position(|(_, l)| *l >= len) {
            let (off, l) = self.free[i];
            if l == len {
                self.free.remove(i);
            } else {
                self.free[i] = (off + len, l - len);
            }
            return off;
        }
        let off = self.top;
        self.top += len;
        off
    }
    fn release(&mut self, off: u64, len: u64) {
        self.free.push((off, len));
        self.free.sort();
        let mut merged: Vec<(u64, u64)> = Vec::new();
        for (o, l) in self.free.drain(..) {
            match merged.last_mut() {
                Some((mo, ml)) if *mo + *ml == o => *ml += l,
                _ => merged.push((o, l)),
            }
        }
        // A free block at the top shrinks the buffer back.
        if let Some(&(o, l)) = merged.last() {
            if o + l == self.top {
                self.top = o;
                merged.pop();
            }
        }
        self.free = merged;
    }
}

fn round32(bytes: u64) -> u64 {
    bytes.div_ceil(32) * 32
}

/// Buffers of a double-buffered queue: the depth every stage gets when a row fits with it.
pub const DOUBLE_BUFFER: u64 = 2;

/// Lays out one stage of `plan` with double-buffered queues.
pub fn layout(plan: &KernelPlan, stage: &Stage) -> StageLayout {
    layout_at(plan, stage, DOUBLE_BUFFER)
}

/// Lays out one stage of `plan` with `buffer_num` buffers per tile queue (1 or 2; the staging
/// queue of the invariant rows has one either way: the prologue uses it once).
pub fn layout_at(plan: &KernelPlan, stage: &Stage, buffer_num: u64) -> StageLayout {
    let depth = buffer_num.clamp(1, DOUBLE_BUFFER);
    let n = stage.nodes.len();
    let mut last_use: Vec<usize> = (0..n).collect();
    // An invariant node that a tile node reads, or that is stored, lives for the whole stage;
    // the others die in the prologue and give their resident rows back.
    let mut keep = vec![false; n];
    for (k, node) in stage.nodes.iter().enumerate() {
        for o in node.op.operands() {
            last_use[o] = last_use[o].max(k);
            if !node.invariant && stage.nodes[o].invariant {
                keep[o] = true;
            }
        }
    }
    for st in &stage.stores {
        keep[st.node] = stage.nodes[st.node].invariant;
    }
    // The nodes whose last use is each step, in node order: a scan of every earlier node at
    // every step made a long body's layout quadratic (auto-fuse plans growing chains with it).
    let mut dies_at: Vec<Vec<NodeId>> = vec![Vec::new(); n];
    for (d, &k) in last_use.iter().enumerate() {
        dies_at[k].push(d);
    }
    // Pass-throughs: tile loads (not invariant, not grouped) that no node reads and one store
    // writes out in the load's own type, so the queue's bytes are the output's bytes.
    let mut pass_through: Vec<(NodeId, usize)> = stage
        .stores
        .iter()
        .enumerate()
        .filter_map(|(j, st)| {
            let node = &stage.nodes[st.node];
            let MicroOp::Load { arg, .. } = node.op else {
                return None;
            };
            let only_store = stage.stores.iter().filter(|o| o.node == st.node).count() == 1;
            (!node.invariant
                && !node.grouped
                && last_use[st.node] == st.node
                && only_store
                && plan.inputs[arg].dtype == plan.outputs[st.output].dtype)
                .then_some((st.node, j))
        })
        .collect();
    pass_through.sort();
    let mut buf = vec![Buf::Queue; n];
    let mut temps = vec![Vec::new(); n];
    let mut tile_loads = Vec::new();
    let mut resident_loads = Vec::new();
    let mut tables: Vec<(TableKind, u64)> = Vec::new();
    let mut signs: Vec<(TableKind, u64)> = Vec::new();
    let mut table_elems = 0u64;
    let mut staging = 0u64;
    let mut work = 0u64;
    // Slot allocators: [0] per tile row, [1] per group of the tile, [2] the resident rows.
    let mut slots: [Slots; 3] = Default::default();
    let mut high = [0u64; 3];
    let mut slot_of: HashMap<NodeId, (usize, u64, u64)> = HashMap::new();
    let mut row_bytes = 0u64;
    let mut group_bytes = 0u64;
    // Rope's sign rows first: the prologue writes them before it computes the invariant rows,
    // so they must not share a row with one of those.
    for node in &stage.nodes {
        if let MicroOp::Rotate { interleave, .. } = &node.op {
            let kind = if *interleave {
                TableKind::SwapPairs(node.width)
            } else {
                TableKind::SwapHalves(node.width)
            };
            if !signs.iter().any(|(t, _)| *t == kind) {
                signs.push((kind, slots[2].alloc(pitch(node.width))));
                high[2] = high[2].max(slots[2].top);
            }
        }
    }
    for (k, node) in stage.nodes.iter().enumerate() {
        let p = pitch(node.width);
        let mut table = |kind: TableKind, len: usize| {
            if !tables.iter().any(|(t, _)| *t == kind) {
                tables.push((kind, table_elems));
                table_elems += (len as u64).div_ceil(8) * 8;
            }
        };
        match &node.op {
            MicroOp::Rotate { interleave, .. } => {
                let kind = if *interleave {
                    TableKind::SwapPairs(node.width)
                } else {
                    TableKind::SwapHalves(node.width)
                };
                table(kind, node.width);
            }
            MicroOp::RepeatEach { times, .. } => {
                table(
                    TableKind::RepeatEach {
                        width: node.width,
                        times: *times,
                    },
                    node.width,
                );
            }
            MicroOp::Slice { offset, len, .. } if offset % 8 != 0 => {
                table(
                    TableKind::Columns {
                        offset: *offset,
                        len: *len,
                    },
                    *len,
                );
            }
            MicroOp::Rms { x, .. } | MicroOp::Standardize { x, .. } | MicroOp::Softmax(x) => {
                let w = stage.nodes[*x].width as u64;
                // ReduceSum/ReduceMax work: one partial per 64-float repeat, whole blocks.
                work = work.max(w.div_ceil(64).div_ceil(8) * 8);
            }
            _ => {}
        }
        let kind = if node.invariant {
            2
        } else if node.grouped {
            1
        } else {
            0
        };
        if let MicroOp::Load { arg, .. } = node.op {
            let dtype = plan.inputs[arg].dtype;
            match kind {
                2 => {
                    resident_loads.push(k);
                    staging = staging.max(round32(p * elem_bytes(dtype)));
                }
                1 => {
                    tile_loads.push(k);
                    group_bytes += depth * p * elem_bytes(dtype);
                }
                _ => {
                    tile_loads.push(k);
                    row_bytes += depth * p * elem_bytes(dtype);
                }
            }
            // A pass-through stays in its bound queue: no slot, and no VECOUT queue below.
            if pass_through.iter().any(|(l, _)| *l == k) {
                buf[k] = Buf::Queue;
                continue;
            }
            // An f32 or half load is used where its queue holds it.
            if kind != 2 && (dtype == DType::F32 || node.half) {
                buf[k] = Buf::Queue;
                continue;
            }
        }
        // A half row takes half the f32 elements of a float row of its pitch.
        let len = if node.half { p / 2 } else { p };
        // In place when an operand of the same kind and row length dies here and the op reads
        // each element of it only before (or while) writing the same element of the result.
        let reusable = in_place(&node.op)
            .then(|| {
                node.op.operands().into_iter().find(|o| {
                    last_use[*o] == k
                        && !keep[*o]
                        && stage.nodes[*o].half == node.half
                        && slot_of
                            .get(o)
                            .is_some_and(|(kk, _, l)| *kk == kind && *l == len)
                })
            })
            .flatten();
        let off = match reusable {
            Some(o) => slot_of.remove(&o).expect("live slot").1,
            None => slots[kind].alloc(len),
        };
        slot_of.insert(k, (kind, off, len));
        let at = |kind: usize, off: u64, pitch: u64| match kind {
            0 => Buf::Calc { off, pitch },
            1 => Buf::Group { off, pitch },
            _ => Buf::Resident { off },
        };
        buf[k] = at(kind, off, p);
        let mut held = Vec::new();
        for tp in temp_pitches(&node.op, p) {
            let t = slots[kind].alloc(tp);
            held.push((t, tp));
            temps[k].push(at(kind, t, tp));
        }
        // The high-water mark is reached here, with the result, its operands and temps live.
        high[kind] = high[kind].max(slots[kind].top);
        for (t, tp) in held {
            slots[kind].release(t, tp);
        }
        // Tile and group slots die with their last use; resident rows only when no tile node
        // reads them (a kept one is read by every tile).
        let dead: Vec<NodeId> = dies_at[k]
            .iter()
            .copied()
            .filter(|d| slot_of.contains_key(d))
            .filter(|d| !(stage.nodes[*d].invariant && keep[*d]))
            .collect();
        for d in dead {
            let (kk, o, l) = slot_of.remove(&d).expect("live slot");
            slots[kk].release(o, l);
        }
    }
    // The high-water marks of the slots over the whole program.
    let calc_row_elems = high[0];
    let group_calc_elems = high[1];
    let resident = high[2];
    row_bytes += calc_row_elems * 4;
    group_bytes += group_calc_elems * 4;
    for (j, s) in stage.stores.iter().enumerate() {
        if pass_through.iter().any(|(_, o)| *o == j) {
            continue;
        }
        let node = &stage.nodes[s.node];
        row_bytes += depth * pitch(node.width) * elem_bytes(plan.outputs[s.output].dtype);
    }
    // The invariant rows come in through a tile load's queue when one tile row of it holds the
    // widest of them: a queue of their own would only add fixed bytes. When none does (f32
    // gamma and beta beside bf16 activations: Wan2.1's 5120-wide LayerNorm rows), through the
    // widest tile queue a piece at a time, which saves the staging queue's whole row of fixed
    // bytes for a few more DMA copies once per core.
    let one_row = |k: NodeId| match stage.nodes[k].op {
        MicroOp::Load { arg, .. } => {
            pitch(stage.nodes[k].width) * elem_bytes(plan.inputs[arg].dtype)
        }
        _ => 0,
    };
    // (Not a pass-through's bound queue: the prologue widens the staged rows with Cast, and
    // vector instructions do not read a TQueBind<VECIN, VECOUT> tensor.)
    let stageable: Vec<NodeId> = tile_loads
        .iter()
        .copied()
        .filter(|k| !pass_through.iter().any(|(l, _)| l == k))
        .collect();
    let staging_queue = (staging > 0)
        .then(|| {
            stageable
                .iter()
                .copied()
                .find(|k| one_row(*k) >= staging)
                .or_else(|| {
                    // (Half rows keep a staging queue of their own: they are not widened.)
                    if resident_loads.iter().any(|k| stage.nodes[*k].half) {
                        return None;
                    }
                    stageable
                        .iter()
                        .copied()
                        .filter(|k| one_row(*k) >= MIN_STAGING_PIECE)
                        .max_by_key(|k| one_row(*k))
                })
        })
        .flatten();
    let staging_piece_bytes = staging_queue.map_or(staging, one_row);
    if staging_queue.is_some() {
        staging = 0;
    }
    let fixed_bytes = round32(resident * 4) + staging + round32(table_elems * 4) + work * 4;
    StageLayout {
        buf,
        temps,
        last_use,
        tile_loads,
        resident_loads,
        pass_through,
        tables,
        signs,
        calc_row_elems,
        group_calc_elems,
        resident_elems: resident,
        staging_bytes: staging,
        staging_queue,
        staging_piece_bytes,
        table_elems,
        work_elems: work,
        row_bytes,
        group_bytes,
        buffer_num: depth,
        group: stage.group.max(1),
        fixed_bytes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_reuse_and_shrink() {
        let mut s = Slots::default();
        let a = s.alloc(16);
        let b = s.alloc(32);
        assert_eq!((a, b), (0, 16));
        s.release(a, 16);
        assert_eq!(s.alloc(8), 0);
        assert_eq!(s.alloc(8), 8);
        s.release(b, 32);
        assert_eq!(s.top, 16);
    }

    #[test]
    fn tiles_count_the_groups_they_touch() {
        // Rows starting anywhere: 1 row touches 1 group, 2..=G+1 rows at most 2, and so on.
        assert_eq!(group_capacity(0, 24), 0);
        assert_eq!(group_capacity(1, 24), 1);
        assert_eq!(group_capacity(2, 24), 2);
        assert_eq!(group_capacity(25, 24), 2);
        assert_eq!(group_capacity(26, 24), 3);
        assert_eq!(group_capacity(7, 1), 7);
        let l = StageLayout {
            buf: vec![],
            temps: vec![],
            last_use: vec![],
            tile_loads: vec![],
            resident_loads: vec![],
            pass_through: vec![],
            tables: vec![],
            signs: vec![],
            calc_row_elems: 0,
            group_calc_elems: 0,
            resident_elems: 0,
            staging_bytes: 0,
            staging_queue: None,
            staging_piece_bytes: 0,
            table_elems: 0,
            work_elems: 0,
            row_bytes: 100,
            group_bytes: 1000,
            buffer_num: 2,
            group: 24,
            fixed_bytes: 64,
        };
        // 64 + 10 * 100 + 2 * 1000 = 3064; 11 rows would touch 2 groups too: 3164.
        assert_eq!(l.ub_bytes(10), 3064);
        assert_eq!(l.fit_rows(3064), 10);
        assert_eq!(l.fit_rows(3163), 10);
        assert_eq!(l.fit_rows(3164), 11);
        // One row and its group: 1164 bytes.
        assert_eq!(l.fit_rows(1163), 0);
        assert_eq!(l.fit_rows(1164), 1);
    }

    #[test]
    fn pitches_are_whole_blocks() {
        assert_eq!(pitch(1), 16);
        assert_eq!(pitch(16), 16);
        assert_eq!(pitch(17), 32);
        assert_eq!(pitch(64), 64);
    }
}
