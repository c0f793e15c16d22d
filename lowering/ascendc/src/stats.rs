//! What one launch of a generated kernel moves and holds, from its tiling: DDR bytes read and
//! written (re-reads of broadcast rows included), rows per tile, tiles, and the Unified Buffer a
//! tile takes. The generator prints these per kernel (the kernel's header comment and
//! `kernels.json`); the performance model reads them through [`crate::Kernel::stats`].
//!
//! Counts follow the generated code exactly: every DataCopyPad moves `width × element` bytes
//! per row on the GM side, a tile operand is read once per tile row, a grouped operand
//! ([`crate::plan::Node::grouped`]) once per group of rows, an invariant operand once per core
//! that has rows, and every output row is written once.

use crate::layout::{elem_bytes, StageLayout, Tiling, UbError};
use crate::plan::{KernelPlan, MicroOp, Stage};

/// One stage of one launch.
#[derive(Clone, Debug, PartialEq)]
pub struct StageStats {
    /// Rows of the stage.
    pub rows: u64,
    /// Rows per group (rows that share a broadcast table's row; 1: none).
    pub group: u64,
    /// Rows per full tile.
    pub tile_rows: u64,
    /// Tiles of the busiest core.
    pub tiles_per_core: u64,
    /// Tiles over all cores.
    pub tiles: u64,
    /// UB bytes a full tile takes (every InitBuffer of the stage, each queue at its depth).
    pub ub_bytes_used: u64,
    /// Buffers per tile queue (2: double-buffered; 1: copy-in, compute and copy-out of a tile
    /// do not overlap).
    pub buffer_num: u64,
    /// UB bytes of the core.
    pub ub_bytes: u64,
    /// Bytes read from DDR (GM), re-reads included.
    pub ddr_read_bytes: u64,
    /// Bytes written to DDR.
    pub ddr_write_bytes: u64,
}

impl StageStats {
    /// Fraction of the UB a full tile takes.
    pub fn ub_fill(&self) -> f64 {
        self.ub_bytes_used as f64 / self.ub_bytes.max(1) as f64
    }
}

/// One launch of a kernel.
#[derive(Clone, Debug, PartialEq)]
pub struct KernelStats {
    /// The kernel name.
    pub name: String,
    /// Cores launched.
    pub block_dim: u64,
    /// UB bytes per core the tiling was computed for.
    pub ub_bytes: u64,
    /// Per stage, in launch order.
    pub stages: Vec<StageStats>,
    /// Bytes read from DDR, all stages (re-reads included).
    pub ddr_read_bytes: u64,
    /// Bytes written to DDR, all stages.
    pub ddr_write_bytes: u64,
    /// Bytes of the kernel's inputs (each read once would move this much).
    pub input_bytes: u64,
    /// Bytes of the kernel's outputs.
    pub output_bytes: u64,
}

impl KernelStats {
    /// The smallest UB fill of a full tile over the stages.
    pub fn min_ub_fill(&self) -> f64 {
        self.stages
            .iter()
            .map(StageStats::ub_fill)
            .fold(f64::INFINITY, f64::min)
    }

    /// One line per stage: rows per tile, UB bytes used / UB bytes (%), DDR bytes.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "{}: {} cores, DDR {} B read ({} B of inputs), {} B written",
            self.name, self.block_dim, self.ddr_read_bytes, self.input_bytes, self.ddr_write_bytes
        );
        for (i, st) in self.stages.iter().enumerate() {
            s.push_str(&format!(
                "\n  stage {i}: {} rows, {} rows/tile{}{}, {} tiles ({} per core), UB {} / {} B ({:.1}%), DDR {} B read, {} B written",
                st.rows,
                st.tile_rows,
                if st.group > 1 {
                    format!(" (groups of {})", st.group)
                } else {
                    String::new()
                },
                if st.buffer_num == 1 {
                    ", single-buffered"
                } else {
                    ""
                },
                st.tiles,
                st.tiles_per_core,
                st.ub_bytes_used,
                st.ub_bytes,
                100.0 * st.ub_fill(),
                st.ddr_read_bytes,
                st.ddr_write_bytes
            ));
        }
        s
    }
}

fn stage_stats(
    plan: &KernelPlan,
    stage: &Stage,
    layout: &StageLayout,
    t: &crate::layout::StageTiling,
    block_dim: u64,
    ub_bytes: u64,
) -> StageStats {
    let g = t.group.max(1);
    let small_cores = block_dim - t.big_core_num;
    let busy_cores = t.big_core_num
        + if t.small_core_rows > 0 {
            small_cores
        } else {
            0
        };
    let tiles_of = |rows: u64| rows.div_ceil(t.tile_rows.max(1));
    let tiles =
        t.big_core_num * tiles_of(t.big_core_rows) + small_cores * tiles_of(t.small_core_rows);
    let tiles_per_core = if t.big_core_num > 0 {
        tiles_of(t.big_core_rows)
    } else {
        tiles_of(t.small_core_rows)
    };
    // Groups the tiles touch (a grouped row is loaded once per tile that touches its group):
    // every core's tiles, walked as the kernel walks them.
    let mut group_rows = 0u64;
    if stage.nodes.iter().any(|n| n.grouped) {
        for core in 0..block_dim {
            let (start, count) = if core < t.big_core_num {
                (core * t.big_core_rows, t.big_core_rows)
            } else {
                (
                    t.big_core_num * t.big_core_rows + (core - t.big_core_num) * t.small_core_rows,
                    t.small_core_rows,
                )
            };
            let mut k = 0;
            while k < count {
                let n = t.tile_rows.min(count - k);
                let row = start + k;
                group_rows += (row + n - 1) / g - row / g + 1;
                k += n;
            }
        }
    }
    let mut read = 0u64;
    for node in &stage.nodes {
        if let MicroOp::Load { arg, .. } = node.op {
            let row = node.width as u64 * elem_bytes(plan.inputs[arg].dtype);
            read += row
                * if node.invariant {
                    busy_cores
                } else if node.grouped {
                    group_rows
                } else {
                    stage.rows
                };
        }
    }
    let write = stage
        .stores
        .iter()
        .map(|s| {
            stage.rows * stage.nodes[s.node].width as u64 * elem_bytes(plan.outputs[s.output].dtype)
        })
        .sum();
    StageStats {
        rows: stage.rows,
        group: g,
        tile_rows: t.tile_rows,
        tiles_per_core,
        tiles,
        ub_bytes_used: layout.ub_bytes(t.tile_rows),
        buffer_num: layout.buffer_num,
        ub_bytes,
        ddr_read_bytes: read,
        ddr_write_bytes: write,
    }
}

/// The figures of one launch with `tiling` (computed for `ub_bytes`).
pub fn kernel_stats(
    plan: &KernelPlan,
    layouts: &[StageLayout],
    tiling: &Tiling,
    ub_bytes: u64,
) -> KernelStats {
    let stages: Vec<StageStats> = plan
        .stages
        .iter()
        .zip(layouts)
        .zip(&tiling.stages)
        .map(|((s, l), t)| stage_stats(plan, s, l, t, tiling.block_dim, ub_bytes))
        .collect();
    let bytes = |ts: &[dit_runtime::TensorType]| -> u64 {
        ts.iter()
            .map(|t| t.numel() as u64 * elem_bytes(t.dtype))
            .sum()
    };
    KernelStats {
        name: plan.name.clone(),
        block_dim: tiling.block_dim,
        ub_bytes,
        ddr_read_bytes: stages.iter().map(|s| s.ddr_read_bytes).sum(),
        ddr_write_bytes: stages.iter().map(|s| s.ddr_write_bytes).sum(),
        stages,
        input_bytes: bytes(&plan.inputs),
        output_bytes: bytes(&plan.outputs),
    }
}

/// [`kernel_stats`] of the tiling for `ub_bytes` and `core_num`.
pub fn stats(
    plan: &KernelPlan,
    layouts: &[StageLayout],
    ub_bytes: u64,
    core_num: u64,
) -> Result<KernelStats, UbError> {
    let t = crate::layout::tiling(plan, layouts, ub_bytes, core_num)?;
    Ok(kernel_stats(plan, layouts, &t, ub_bytes))
}
