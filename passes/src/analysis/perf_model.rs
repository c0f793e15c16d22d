//! The performance model beside the cost model: an estimated time per kernel launch of the
//! lowered program, from the target table's rates. Until an NPU is at hand this estimate is the
//! figure of merit of a fusion; it is a model, not a measurement.
//!
//! A launch is what [`crate::analysis::cost::placement`] calls `PerCall` (the same walk the report's
//! kernel count is, so the two never disagree). Each launch does its work in one or more
//! [`Phase`]s that run one after the other; within a phase DMA, the vector units and the Cube
//! units overlap (double-buffered queues), so a phase takes its slowest resource:
//!
//! ```text
//! phase = max(DDR bytes / bandwidth,  busiest core's DDR bytes / (bandwidth / vector cores),
//!             vector ops / (vector cores x f32 lanes x clock),  busiest core's vector ops / (f32 lanes x clock),
//!             f16 flops / Cube rate,  int8 ops / Cube int8 rate)
//! kernel = sum of phases + launches x launch overhead
//! ```
//!
//! A phase of single-buffered queues ([`Phase::serial`]: the generator's fallback when one row
//! does not fit the UB double-buffered) does not overlap them: a core copies a tile in, computes
//! it, copies it out, then starts the next, so the phase takes its DDR term plus its vector
//! term (each the larger of its all-cores and busiest-core forms) plus its Cube term.
//!
//! The busiest-core terms see a split that leaves cores idle or uneven (49 rows on 48 cores
//! take two rows' time): a core is given its fair share of the bandwidth, `bandwidth / vector
//! cores`. The launch overhead is added, not overlapped: seed 004 counts its ~10 µs per launch
//! as saved time, which is what an additive model says.
//!
//! Library kernels (aclnn) are taken at their roofline: operands read once, results written
//! once (plus the temporaries of their kernel-table entry, as the cost model counts them), the
//! flops of the op at the Cube's peak. Generated kernels (`dit.fused`) get an ideal estimate
//! here (the body's unique bytes and its vector ops); a caller that sees the Ascend C
//! generator's plan (bench's kernel_model, dit-auto-fuse's single-buffer check) replaces it
//! with the traffic of the actual tiling, [`generated_work`].
//! A kernel's roofline is its unique DDR bytes at the target's bandwidth; its ratio is its
//! modeled time without the launch overhead over that.
//!
//! What the model ignores: DMA and instruction latency inside a tile (pipeline fill and drain),
//! L2 cache hits, HBM efficiency below the peak, the DMA granularity of narrow rows, scalar
//! work, the Cube's tile quantization (16x16 fractals, L0 capacity), bank conflicts, and
//! host/device overlap of launches.

use crate::analysis::cost::{kernel_bytes, placement, tensor_bytes, Placement};
use crate::analysis::report::RawPoint;
use dit_ascendc::{
    layout::{elem_bytes, pitch, StageLayout, Tiling, DOUBLE_BUFFER},
    plan::{KernelPlan, MicroOp, UnaryOp},
};
use dit_dialect::{
    diagnostics::file_line_col,
    ir::Op,
    ops::OpKind,
    target::Target,
    tensor::{Elem, TensorInfo},
};

/// The rates of one target, in the units the model divides by.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rates {
    /// HBM bytes per second.
    pub ddr_bytes_per_s: f64,
    /// Vector cores (AIV).
    pub vector_cores: f64,
    /// f32 element operations one vector core does per second.
    pub vector_f32_per_core_s: f64,
    /// f16/bf16 flops per second of all Cube cores.
    pub cube_f16_flops_per_s: f64,
    /// int8 ops per second of all Cube cores.
    pub cube_int8_ops_per_s: f64,
    /// Seconds of host overhead per kernel launch.
    pub launch_s: f64,
}

impl Rates {
    /// The rates of a target table entry (every field there carries its source).
    pub fn of(t: &Target) -> Rates {
        let hz = t.core_hz as f64;
        Rates {
            ddr_bytes_per_s: t.hbm_bytes_per_s as f64,
            vector_cores: t.vector_cores as f64,
            vector_f32_per_core_s: t.vector_bytes_per_cycle as f64 / 4.0 * hz,
            cube_f16_flops_per_s: t.cube_cores as f64 * t.cube_f16_flops_per_cycle as f64 * hz,
            cube_int8_ops_per_s: t.cube_cores as f64 * t.cube_int8_ops_per_cycle as f64 * hz,
            launch_s: t.launch_overhead_ns as f64 * 1e-9,
        }
    }

    /// Seconds to move `bytes` at the full bandwidth: the DDR roofline.
    pub fn roofline_s(&self, bytes: u64) -> f64 {
        bytes as f64 / self.ddr_bytes_per_s
    }
}

/// Work a kernel does in one step; the steps of a kernel run one after another.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Phase {
    /// DDR bytes read and written, all cores together.
    pub ddr_bytes: u64,
    /// DDR bytes of the core that moves the most; `None`: spread evenly over every vector core.
    pub busiest_core_ddr_bytes: Option<u64>,
    /// f32 vector element operations, all cores together.
    pub vector_ops: u64,
    /// Those of the busiest core; `None`: spread evenly.
    pub busiest_core_vector_ops: Option<u64>,
    /// f16/bf16 Cube flops.
    pub cube_flops: u64,
    /// int8 Cube ops.
    pub cube_int8_ops: u64,
    /// DMA and compute do not overlap (single-buffered queues): the phase takes the sum of its
    /// terms, not the largest.
    pub serial: bool,
}

/// What bounds a phase (or the kernel: its longest phase's bound).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// DDR bandwidth, all cores.
    Ddr,
    /// DDR bandwidth of the busiest core (an uneven or partial split).
    DdrBusiestCore,
    /// Vector throughput.
    Vector,
    /// Cube throughput.
    Cube,
}

impl std::fmt::Display for Bound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Bound::Ddr => "DDR",
            Bound::DdrBusiestCore => "DDR (busiest core)",
            Bound::Vector => "vector",
            Bound::Cube => "cube",
        })
    }
}

/// A launch's work: its phases and how many kernels it launches.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Kernel launches (an aclnn entry of several calls launches each).
    pub launches: usize,
    /// The phases, in order.
    pub phases: Vec<Phase>,
}

/// A launch's estimated time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Sum over phases of the DDR terms.
    pub ddr_s: f64,
    /// Sum over phases of the vector terms.
    pub vector_s: f64,
    /// Sum over phases of the Cube terms.
    pub cube_s: f64,
    /// The device time: sum over phases of each phase's slowest term.
    pub body_s: f64,
    /// Launch overhead: launches x the target's per-launch time.
    pub launch_s: f64,
    /// What bounds the longest phase.
    pub bound: Bound,
}

impl Estimate {
    /// Device time plus launch overhead.
    pub fn total_s(&self) -> f64 {
        self.body_s + self.launch_s
    }
}

/// Estimates one launch (see the module comment for the formula).
pub fn estimate(work: &Work, r: &Rates) -> Estimate {
    let mut e = Estimate {
        ddr_s: 0.0,
        vector_s: 0.0,
        cube_s: 0.0,
        body_s: 0.0,
        launch_s: work.launches as f64 * r.launch_s,
        bound: Bound::Ddr,
    };
    let mut longest = -1.0;
    for p in &work.phases {
        let per_core_bw = r.ddr_bytes_per_s / r.vector_cores;
        let ddr_all = p.ddr_bytes as f64 / r.ddr_bytes_per_s;
        let ddr_core = p
            .busiest_core_ddr_bytes
            .map_or(0.0, |b| b as f64 / per_core_bw);
        let vec_all = p.vector_ops as f64 / (r.vector_f32_per_core_s * r.vector_cores);
        let vec_core = p
            .busiest_core_vector_ops
            .map_or(0.0, |v| v as f64 / r.vector_f32_per_core_s);
        let cube = p.cube_flops as f64 / r.cube_f16_flops_per_s
            + p.cube_int8_ops as f64 / r.cube_int8_ops_per_s;
        let ddr = ddr_all.max(ddr_core);
        let vector = vec_all.max(vec_core);
        e.ddr_s += ddr;
        e.vector_s += vector;
        e.cube_s += cube;
        let (largest, bound) = [
            (ddr_all, Bound::Ddr),
            (ddr_core, Bound::DdrBusiestCore),
            (vector, Bound::Vector),
            (cube, Bound::Cube),
        ]
        .into_iter()
        .fold(
            (0.0, Bound::Ddr),
            |best, x| if x.0 > best.0 { x } else { best },
        );
        // Without overlap every term adds; the bound is still the largest one.
        let t = if p.serial {
            ddr + vector + cube
        } else {
            largest
        };
        e.body_s += t;
        if t > longest {
            longest = t;
            e.bound = bound;
        }
    }
    e
}

/// One kernel launch of the lowered per-call entry.
#[derive(Clone, Debug)]
pub struct Launch<'a> {
    /// The op that launches it.
    pub op: Op<'a>,
    /// `dit.fused`'s kernel name, else the op name.
    pub name: String,
    /// Where the op stands.
    pub point: RawPoint,
    /// A generated (dit.fused) kernel rather than a library one.
    pub generated: bool,
    /// Each input read once, each output written once (the roofline's bytes).
    pub unique_bytes: u64,
    /// The work as this module models it (ideal for generated kernels).
    pub work: Work,
}

/// Every launch of one call of the module under `root`, in program order: the ops
/// [`placement`] puts in the per-call entry. Their `launches` sum to the report's kernel count.
pub fn launches(root: Op) -> Vec<Launch> {
    let mut out = Vec::new();
    root.walk(&mut |op| {
        let Placement::PerCall { launches } = placement(op) else {
            return;
        };
        let generated = op.is_kind(OpKind::Fused);
        let name = if generated {
            op.attr("kernel")
                .and_then(|a| a.as_str())
                .unwrap_or_else(|| op.name())
        } else {
            op.name()
        };
        let unique_bytes = io_bytes(op);
        let phase = if generated {
            Phase {
                ddr_bytes: unique_bytes,
                ..fused_phase(op)
            }
        } else {
            library_op_phase(op)
        };
        out.push(Launch {
            op,
            name,
            point: file_line_col(op.location().to_raw()),
            generated,
            unique_bytes,
            work: Work {
                launches,
                phases: vec![phase],
            },
        });
    });
    out
}

/// Operands read once plus results written once.
fn io_bytes(op: Op) -> u64 {
    op.operands()
        .into_iter()
        .chain(op.results())
        .filter_map(|v| v.tensor())
        .map(|t| tensor_bytes(&t))
        .fold(0, u64::saturating_add)
}

fn elements(t: &TensorInfo) -> u64 {
    t.shape
        .iter()
        .map(|d| d.unwrap_or(crate::analysis::cost::DYNAMIC_DIM).max(0) as u64)
        .fold(1, u64::saturating_mul)
}

/// f32 vector instructions per element an op's vector code issues, by dit op: a rough count
/// of the Ascend C instruction sequence (a binary is one instruction; sigmoid is
/// muls/exp/adds/div; a row norm is square, reduce, scale and the gamma; casts of 16-bit
/// operands in and out are counted by `vector_ops`). Ops not listed are data movement (0).
pub fn vector_cost_per_element(kind: OpKind) -> u64 {
    match kind {
        OpKind::Add
        | OpKind::Sub
        | OpKind::Mul
        | OpKind::Div
        | OpKind::Neg
        | OpKind::Relu
        | OpKind::Exp
        | OpKind::Sqrt
        | OpKind::Rsqrt
        | OpKind::ReduceSum
        | OpKind::ReduceMean
        | OpKind::Cast => 1,
        OpKind::MulsAdd => 2,
        OpKind::Rope => 3,
        OpKind::Sigmoid | OpKind::Tanh | OpKind::RmsNorm => 4,
        OpKind::Silu | OpKind::Softmax | OpKind::SiluMul | OpKind::Swiglu => 5,
        OpKind::Gelu | OpKind::FastGelu | OpKind::GeluMul | OpKind::LayerNorm => 6,
        OpKind::AdaLayerNorm => 8,
        OpKind::Erf | OpKind::Pow => 10,
        OpKind::DynamicQuant => 4,
        _ => 0,
    }
}

/// Vector element operations of one (non-Cube) op: its largest operand or result's elements
/// (a reduction reads more than it writes) times its per-element cost, plus a widening and a
/// narrowing cast per element for 16-bit data (the vector units compute in f32).
fn vector_ops(op: Op) -> u64 {
    let per = op.kind().map_or(0, vector_cost_per_element);
    if per == 0 {
        return 0;
    }
    let tensors: Vec<TensorInfo> = op
        .operands()
        .into_iter()
        .chain(op.results())
        .filter_map(|v| v.tensor())
        .collect();
    let n = tensors.iter().map(elements).max().unwrap_or(0);
    let narrow = tensors
        .iter()
        .any(|t| matches!(t.elem, Elem::F16 | Elem::BF16));
    n.saturating_mul(per + if narrow { 2 } else { 0 })
}

/// Whether the Cube computes in int8 for these operands.
fn is_int(t: &TensorInfo) -> bool {
    matches!(t.elem, Elem::I8 | Elem::I4)
}

/// The dim of `t` counted from the back, static or [`crate::analysis::cost::DYNAMIC_DIM`].
fn dim_back(t: &TensorInfo, i: usize) -> u64 {
    t.dim_from_back(i)
        .unwrap_or(crate::analysis::cost::DYNAMIC_DIM)
        .max(0) as u64
}

/// The Cube work of a library op: 2·M·N·K per matmul (result elements x 2K), attention's two
/// matmuls (4·B·N·Sq·Skv·D) with its softmax on the vector units. `None` for a vector op.
fn cube_phase(op: Op) -> Option<Phase> {
    let operand = |i: usize| op.operands().get(i).and_then(|v| v.tensor());
    let result = op.results().first().and_then(|v| v.tensor())?;
    let bool_attr = |n: &str| dit_dialect::ops::bool_attr(op, n).unwrap_or(false);
    let (k, int8) = match op.kind()? {
        OpKind::Matmul => {
            let a = operand(0)?;
            (dim_back(&a, usize::from(bool_attr("transpose_a"))), false)
        }
        OpKind::Linear | OpKind::FusedMatmul | OpKind::GroupedMatmul => {
            let a = operand(0)?;
            (dim_back(&a, 0), is_int(&a))
        }
        OpKind::QuantMatmul | OpKind::QuantMatmulGelu => {
            let a = operand(0)?;
            (
                dim_back(&a, usize::from(bool_attr("transpose_x1"))),
                is_int(&a),
            )
        }
        OpKind::GroupedMatmulSwigluQuant => {
            // The result is [M, N/2]: the matmul makes N columns, SwiGLU halves them.
            let a = operand(0)?;
            let flops = elements(&result).saturating_mul(2 * 2 * dim_back(&a, 0));
            return Some(Phase {
                cube_int8_ops: flops,
                vector_ops: elements(&result).saturating_mul(2 * 6),
                ..Phase::default()
            });
        }
        OpKind::Attention => {
            let q = operand(0)?;
            let k = operand(1)?;
            let bsnd = dit_dialect::ops::str_attr(op, "layout").as_deref() == Some("BSND");
            let skv = if bsnd {
                k.shape.get(1).copied().flatten().unwrap_or(1).max(0) as u64
            } else {
                dim_back(&k, 1)
            };
            let d = dim_back(&q, 0).max(1);
            let scores = (elements(&q) / d).saturating_mul(skv);
            return Some(Phase {
                cube_flops: scores.saturating_mul(4 * d),
                // softmax (max, sub, exp, sum, div) and the scale, in f32.
                vector_ops: scores.saturating_mul(6),
                ..Phase::default()
            });
        }
        _ => return None,
    };
    let flops = elements(&result).saturating_mul(2 * k);
    Some(if int8 {
        Phase {
            cube_int8_ops: flops,
            ..Phase::default()
        }
    } else {
        Phase {
            cube_flops: flops,
            ..Phase::default()
        }
    })
}

/// The work of `op` as the library kernel(s) the lowering launches for it (the op alone, at
/// its roofline, as [`launches`] counts it): what a group's ops cost when they are not fused.
pub fn library_work(op: Op) -> Work {
    Work {
        launches: crate::analysis::cost::library_launches(op),
        phases: vec![library_op_phase(op)],
    }
}

/// A library op's phase: its Cube or vector work, moving what the cost model counts
/// (temporaries included).
fn library_op_phase(op: Op) -> Phase {
    Phase {
        ddr_bytes: kernel_bytes(op),
        ..library_phase(op)
    }
}

/// A library kernel's work: the Cube's for a matmul or attention, else its vector ops.
fn library_phase(op: Op) -> Phase {
    cube_phase(op).unwrap_or(Phase {
        vector_ops: vector_ops(op),
        ..Phase::default()
    })
}

/// A generated kernel's ideal work: its body's vector ops (no Cube: the generator writes
/// vector kernels only).
fn fused_phase(op: Op) -> Phase {
    let mut ops = 0u64;
    for block in op.region_blocks(0) {
        for inner in block.ops() {
            ops = ops.saturating_add(vector_ops(inner));
        }
    }
    Phase {
        vector_ops: ops,
        ..Phase::default()
    }
}

/// f32 vector instructions per element of a micro-op of the Ascend C generator's plan (the row
/// program the kernel runs): one per Ascend C vector instruction it emits, roughly.
pub fn micro_op_cost(op: &MicroOp) -> u64 {
    match op {
        MicroOp::Load { .. } => 0,
        MicroOp::Unary(u, _) => match u {
            UnaryOp::Neg
            | UnaryOp::Exp
            | UnaryOp::Sqrt
            | UnaryOp::Rsqrt
            | UnaryOp::Relu
            | UnaryOp::AddScalar(_)
            | UnaryOp::MulScalar(_) => 1,
            UnaryOp::Sigmoid => 4,
            UnaryOp::Silu | UnaryOp::Tanh => 5,
            UnaryOp::GeluTanh => 7,
            UnaryOp::FastGelu => 8,
            UnaryOp::Erf => 10,
            UnaryOp::GeluErf => 13,
        },
        MicroOp::Binary(..)
        | MicroOp::ExpandLast(_)
        | MicroOp::RepeatEach { .. }
        | MicroOp::Slice { .. } => 1,
        MicroOp::ConcatLast(_) | MicroOp::Round { .. } => 2,
        MicroOp::Rotate { .. } => 2,
        MicroOp::Rms { .. } => 4,
        MicroOp::Softmax(_) => 5,
        MicroOp::Standardize { .. } => 6,
    }
}

/// The work of a kernel the Ascend C generator planned (`plan`, `layouts`) under `tiling`: per
/// stage, the DDR bytes every core moves (tile rows of each loaded operand and stored output;
/// a grouped row once per group; an invariant row once per core that has rows) and the vector
/// ops, all cores and the busiest; a stage of single-buffered queues is a serial phase. Also
/// the DDR bytes of the launch.
pub fn generated_work(plan: &KernelPlan, layouts: &[StageLayout], tiling: &Tiling) -> (Work, u64) {
    let mut phases = Vec::new();
    let mut total = 0u64;
    for ((stage, layout), st) in plan.stages.iter().zip(layouts).zip(&tiling.stages) {
        let group = st.group.max(1);
        // (per row, per group, per core) of DDR bytes and of vector ops.
        let (mut row_b, mut group_b, mut core_b) = (0u64, 0u64, 0u64);
        let (mut row_v, mut group_v, mut core_v) = (0u64, 0u64, 0u64);
        for (id, node) in stage.nodes.iter().enumerate() {
            let p = pitch(node.width);
            let (bytes, ops) = match &node.op {
                // A pass-through goes from copy-in to copy-out in its bound queue, untouched.
                MicroOp::Load { arg, .. } if layout.bound_store(id).is_some() => {
                    (node.width as u64 * elem_bytes(plan.inputs[*arg].dtype), 0)
                }
                MicroOp::Load { arg, .. } => {
                    let eb = elem_bytes(plan.inputs[*arg].dtype);
                    // 16-bit loads are widened to f32 by one Cast.
                    (node.width as u64 * eb, if eb == 4 { 0 } else { p })
                }
                op => (0, micro_op_cost(op) * p),
            };
            if node.invariant {
                core_b += bytes;
                core_v += ops;
            } else if node.grouped {
                group_b += bytes;
                group_v += ops;
            } else {
                row_b += bytes;
                row_v += ops;
            }
        }
        for (j, store) in stage.stores.iter().enumerate() {
            let node = &stage.nodes[store.node];
            let eb = elem_bytes(plan.outputs[store.output].dtype);
            let bytes = node.width as u64 * eb;
            let ops = if eb == 4 || layout.bound_load(j).is_some() {
                0
            } else {
                pitch(node.width)
            };
            if node.grouped {
                group_b += bytes;
                group_v += ops;
            } else {
                row_b += bytes;
                row_v += ops;
            }
        }
        let busiest_rows = if st.big_core_num > 0 {
            st.big_core_rows
        } else {
            st.small_core_rows
        };
        let active = if st.small_core_rows > 0 {
            tiling.block_dim
        } else {
            st.big_core_num
        };
        let of = |rows: u64, per_row: u64, per_group: u64, per_core: u64, cores: u64| {
            rows.saturating_mul(per_row)
                .saturating_add((rows / group).saturating_mul(per_group))
                .saturating_add(cores.saturating_mul(per_core))
        };
        let ddr = of(st.rows, row_b, group_b, core_b, active);
        total = total.saturating_add(ddr);
        phases.push(Phase {
            ddr_bytes: ddr,
            busiest_core_ddr_bytes: Some(of(busiest_rows, row_b, group_b, core_b, 1)),
            vector_ops: of(st.rows, row_v, group_v, core_v, active),
            busiest_core_vector_ops: Some(of(busiest_rows, row_v, group_v, core_v, 1)),
            cube_flops: 0,
            cube_int8_ops: 0,
            serial: layout.buffer_num < DOUBLE_BUFFER,
        });
    }
    (
        Work {
            launches: 1,
            phases,
        },
        total,
    )
}

/// The totals of one module's call.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Totals {
    /// Kernel launches (the report's count).
    pub kernels: usize,
    /// Device time, seconds.
    pub body_s: f64,
    /// Launch overhead, seconds.
    pub launch_s: f64,
}

impl Totals {
    /// Device time plus launch overhead.
    pub fn total_s(&self) -> f64 {
        self.body_s + self.launch_s
    }

    /// Adds one launch's estimate.
    pub fn add(&mut self, launches: usize, e: &Estimate) {
        self.kernels += launches;
        self.body_s += e.body_s;
        self.launch_s += e.launch_s;
    }
}

/// The whole call of the module under `root`, every launch at this module's own estimate.
pub fn estimate_module(root: Op, r: &Rates) -> Totals {
    let mut t = Totals::default();
    for l in launches(root) {
        t.add(l.work.launches, &estimate(&l.work, r));
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a2() -> Rates {
        Rates::of(Target::lookup("ascend910b").unwrap())
    }

    fn module_launches(source: &str) -> Vec<(String, Work, u64)> {
        let context = dit_dialect::new_context().expect("dialect loads");
        let module = dit_dialect::parse_module(&context, source).expect("parses");
        let root = Op::of_module(&module);
        assert_eq!(
            launches(root)
                .iter()
                .map(|l| l.work.launches)
                .sum::<usize>(),
            crate::analysis::cost::measure(root).kernels,
            "the model's launches are the report's"
        );
        launches(root)
            .into_iter()
            .map(|l| (l.name, l.work, l.unique_bytes))
            .collect()
    }

    #[test]
    fn a_copy_takes_its_bytes_at_the_bandwidth_plus_one_launch() {
        let r = a2();
        let n = 64 << 20;
        let work = Work {
            launches: 1,
            phases: vec![Phase {
                ddr_bytes: n,
                ..Phase::default()
            }],
        };
        let e = estimate(&work, &r);
        let expect = n as f64 / 1.6e12;
        assert!((e.body_s - expect).abs() < 1e-12, "{e:?}");
        assert!((e.total_s() - (expect + 10e-6)).abs() < 1e-12, "{e:?}");
        assert_eq!(e.bound, Bound::Ddr);
        // The same bytes on one core of 48 take 48 times as long.
        let one_core = Work {
            launches: 1,
            phases: vec![Phase {
                ddr_bytes: n,
                busiest_core_ddr_bytes: Some(n),
                ..Phase::default()
            }],
        };
        let e1 = estimate(&one_core, &r);
        assert_eq!(e1.bound, Bound::DdrBusiestCore);
        assert!((e1.body_s / e.body_s - 48.0).abs() < 1e-9, "{e1:?}");
    }

    #[test]
    fn a_single_buffered_phase_adds_its_terms() {
        // 16 MiB and 2^33 vector ops on 48 cores: overlapped, the larger; serial, the sum.
        let r = a2();
        let phase = Phase {
            ddr_bytes: 16 << 20,
            vector_ops: 1 << 33,
            ..Phase::default()
        };
        let ddr = (16u64 << 20) as f64 / r.ddr_bytes_per_s;
        let vector = (1u64 << 33) as f64 / (r.vector_f32_per_core_s * r.vector_cores);
        let work = |p: Phase| Work {
            launches: 1,
            phases: vec![p],
        };
        let overlapped = estimate(&work(phase), &r);
        assert!(
            (overlapped.body_s - ddr.max(vector)).abs() < 1e-15,
            "{overlapped:?}"
        );
        let serial = estimate(
            &work(Phase {
                serial: true,
                ..phase
            }),
            &r,
        );
        assert!((serial.body_s - (ddr + vector)).abs() < 1e-15, "{serial:?}");
        assert_eq!(serial.bound, overlapped.bound);
        assert!(serial.total_s() > overlapped.total_s());
    }

    #[test]
    fn a_large_matmul_is_cube_bound_and_an_add_ddr_bound() {
        let launches = module_launches(
            r#"func.func @f(%x: tensor<4096x3072xbf16>, %w: tensor<3072x3072xbf16>, %y: tensor<4096x3072xbf16>) -> tensor<4096x3072xbf16> {
                 %a = "dit.linear"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<4096x3072xbf16>, tensor<3072x3072xbf16>) -> tensor<4096x3072xbf16>
                 %b = "dit.add"(%a, %y) : (tensor<4096x3072xbf16>, tensor<4096x3072xbf16>) -> tensor<4096x3072xbf16>
                 return %b : tensor<4096x3072xbf16>
               }"#,
        );
        assert_eq!(launches.len(), 2, "{launches:?}");
        let r = a2();
        let (name, work, _) = &launches[0];
        assert_eq!(name, "dit.linear");
        let flops = 2.0 * 4096.0 * 3072.0 * 3072.0;
        assert_eq!(work.phases[0].cube_flops, flops as u64);
        let e = estimate(work, &r);
        assert_eq!(e.bound, Bound::Cube);
        // 24 Cube cores x 8192 flops x 1.8 GHz.
        let cube = flops / (24.0 * 8192.0 * 1.8e9);
        assert!((e.body_s - cube).abs() / cube < 1e-9, "{e:?}");
        let (name, work, unique) = &launches[1];
        assert_eq!(name, "dit.add");
        assert_eq!(*unique, 3 * 4096 * 3072 * 2);
        let e = estimate(work, &r);
        assert_eq!(e.bound, Bound::Ddr);
        assert!((e.body_s - r.roofline_s(*unique)).abs() < 1e-15);
    }

    #[test]
    fn attention_counts_both_matmuls() {
        let launches = module_launches(
            r#"func.func @f(%q: tensor<1x24x512x128xbf16>, %k: tensor<1x24x1024x128xbf16>, %v: tensor<1x24x1024x128xbf16>) -> tensor<1x24x512x128xbf16> {
                 %o = "dit.attention"(%q, %k, %v) {scale = 0.088 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<1x24x512x128xbf16>, tensor<1x24x1024x128xbf16>, tensor<1x24x1024x128xbf16>) -> tensor<1x24x512x128xbf16>
                 return %o : tensor<1x24x512x128xbf16>
               }"#,
        );
        let (_, work, _) = &launches[0];
        assert_eq!(work.phases[0].cube_flops, 4 * 24 * 512 * 1024 * 128);
    }
}
