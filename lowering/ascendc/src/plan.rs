//! From a `dit.fused` body to row programs: what each generated kernel computes, before any
//! C++ is written.
//!
//! A kernel tiles along rows: every tensor is seen as rows of its last dim, indexed by its
//! outer dims. The outputs are grouped by their outer shape (leading 1s ignored); each group is
//! a *loop* over its rows. A value in an output's cone is read at the row of the output row
//! that maps to it: broadcasting fixes a dim, a concat along an outer dim shifts it into one of
//! its operands. A concat whose operands a loop's rows straddle splits the loop into *boxes*
//! (products of per-dim ranges) in which every concat reads one operand, so each box is a
//! straight-line program: a [`Stage`]. Stages of one kernel run one after the other, each split
//! across the cores by rows.
//!
//! Inside a stage the body becomes micro-ops ([`MicroOp`]) on nodes, one node per (value,
//! row map): row ops are spelled in vector instructions (rms_norm = row mean of squares,
//! rsqrt, scale, gamma), activations in exp/div, concat along the last dim in row copies. A
//! node whose row does not move with the stage's rows (a broadcast `[1, 1, D]` scale, a
//! gamma) is *invariant*: computed once per core and applied to every row. A node whose row
//! moves with the outer dims but not with the innermost ones (RoPE's cos/sin `[S, 1, D]`
//! against rows `(s, h)`) is *grouped* ([`assign_groups`]): one row per run of `G` consecutive
//! rows, loaded once per group a tile touches instead of once per row.
//!
//! All arithmetic is f32: inputs are widened on load, outputs rounded (to nearest even) on
//! store; an explicit narrowing `dit.cast` inside the body rounds where it stands. The vector
//! instructions of Atlas A2/A3 take half and float but not bfloat16_t (Ascend C Mul, Add, Sub,
//! Div, Muls, Adds: "Atlas A2 训练系列产品/Atlas A2 推理系列产品,支持的数据类型为:half、int16_t、
//! int32_t、float", atlasascendc_api_07_0037 and its siblings, CANN 8.5), so bf16 must widen;
//! f16 elementwise chains stay in half ([`assign_half`]). Values
//! other than f32/f16/bf16, dit.pow, and concats along the last dim at offsets that are not
//! multiples of 8 elements are refused with an error naming the op.

use dit_ops::OpKind;
use dit_runtime::{fused::FusedOp, AttrValue, Attrs, DType, TensorType};
use std::collections::HashMap;

/// Index of a node in [`Stage::nodes`].
pub type NodeId = usize;

/// How one outer dim of a value follows the stage's rows.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum DimMap {
    /// Always this index (a broadcast dim, or a dim the stage's box holds at one index).
    Fixed(usize),
    /// The stage's loop index along `dim`, minus `offset` (a concat operand starts later).
    Var {
        /// The loop dim.
        dim: usize,
        /// Subtracted from the loop index.
        offset: usize,
    },
}

/// The GM row of a value for the stage's row `r` (0-based inside the stage's box):
/// `base + Σ coef · digit(r, dim)`, where `digit` is `r`'s index along a loop dim of the box.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowMap {
    /// Row at the box's origin.
    pub base: u64,
    /// `(loop dim, row stride)` for each loop dim the value follows.
    pub terms: Vec<(usize, u64)>,
    /// The row is `base + r`: consecutive stage rows are consecutive GM rows.
    pub contiguous: bool,
}

/// The columns of an argument's rows a load reads: `offset..offset + the node's width` of rows
/// `row_width` elements wide. A `dit.split` along the last dim of a body argument becomes one
/// windowed load per piece read, so the kernel reads the pieces in place (the GM row stride is
/// the parent's width) instead of a copy kernel materializing them first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Window {
    /// First column read.
    pub offset: usize,
    /// Elements per GM row of the argument (its last dim).
    pub row_width: usize,
}

/// An elementwise function of one operand, in f32.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum UnaryOp {
    /// -x.
    Neg,
    /// e^x.
    Exp,
    /// √x.
    Sqrt,
    /// 1/√x.
    Rsqrt,
    /// max(x, 0).
    Relu,
    /// tanh x = 2/(1 + e^-2x) - 1.
    Tanh,
    /// erf x (Abramowitz–Stegun 7.1.26, |error| ≤ 1.5e-7).
    Erf,
    /// 1/(1 + e^-x).
    Sigmoid,
    /// x/(1 + e^-x).
    Silu,
    /// 0.5·x·(1 + erf(x/√2)).
    GeluErf,
    /// x·σ(2·√(2/π)·(x + 0.044715x³)) (= the tanh form).
    GeluTanh,
    /// CANN FastGelu: x/(1 + e^(-1.702|x|))·e^(0.851(x - |x|)).
    FastGelu,
    /// x + c.
    AddScalar(f32),
    /// x·c.
    MulScalar(f32),
}

/// An elementwise function of two operands of one width, in f32.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    /// a + b.
    Add,
    /// a - b.
    Sub,
    /// a · b.
    Mul,
    /// a / b.
    Div,
}

/// One step of a stage's row program. Operands are earlier nodes.
#[derive(Clone, Debug, PartialEq)]
pub enum MicroOp {
    /// A body argument's row, from GM.
    Load {
        /// The argument (kernel input) index.
        arg: usize,
        /// Which GM row.
        rows: RowMap,
        /// Only some columns of each row (a piece of a `dit.split` along the argument's last
        /// dim); `None`: the whole row.
        window: Option<Window>,
    },
    /// Elementwise unary.
    Unary(UnaryOp, NodeId),
    /// Elementwise binary (operands of the node's width).
    Binary(BinaryOp, NodeId, NodeId),
    /// A one-element row repeated to the node's width (last-dim broadcast).
    ExpandLast(NodeId),
    /// Each element of the row repeated `times` times (`[a, 1]` broadcast to `[a, b]` in a
    /// body whose last two dims [`fold_inner`] made one): the node's width is the operand's
    /// times `times`.
    RepeatEach {
        /// The rows.
        x: NodeId,
        /// Copies of each element.
        times: usize,
    },
    /// x·rsqrt(mean(x²) + eps) per row.
    Rms {
        /// The rows.
        x: NodeId,
        /// Added to the mean of squares.
        eps: f32,
    },
    /// (x - mean)·rsqrt(var + eps) per row (biased variance).
    Standardize {
        /// The rows.
        x: NodeId,
        /// Added to the variance.
        eps: f32,
    },
    /// e^(x - max)/Σ e^(x - max) per row.
    Softmax(NodeId),
    /// Columns `offset..offset + len` of each row.
    Slice {
        /// The rows.
        x: NodeId,
        /// First column.
        offset: usize,
        /// Columns taken (the node's width).
        len: usize,
    },
    /// Rows laid side by side (concat along the last dim).
    ConcatLast(Vec<NodeId>),
    /// rope's rotate: `(-x[2i+1], x[2i])` pairs, or (-second half, first half).
    Rotate {
        /// The rows.
        x: NodeId,
        /// Pairs (GPT-J) rather than halves (GPT-NeoX).
        interleave: bool,
    },
    /// Rounds to `dtype` and back (an explicit narrowing cast).
    Round {
        /// The rows.
        x: NodeId,
        /// f16 or bf16.
        dtype: DType,
    },
}

impl MicroOp {
    /// The nodes this op reads.
    pub fn operands(&self) -> Vec<NodeId> {
        match self {
            MicroOp::Load { .. } => vec![],
            MicroOp::Unary(_, x)
            | MicroOp::ExpandLast(x)
            | MicroOp::RepeatEach { x, .. }
            | MicroOp::Rms { x, .. }
            | MicroOp::Standardize { x, .. }
            | MicroOp::Softmax(x)
            | MicroOp::Slice { x, .. }
            | MicroOp::Rotate { x, .. }
            | MicroOp::Round { x, .. } => vec![*x],
            MicroOp::Binary(_, a, b) => vec![*a, *b],
            MicroOp::ConcatLast(parts) => parts.clone(),
        }
    }
}

/// One row-wise value of a stage.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// How it is computed.
    pub op: MicroOp,
    /// Elements per row (the last dim; 1 for a 0-d value).
    pub width: usize,
    /// The same row for every row of the stage: computed once per core.
    pub invariant: bool,
    /// One row per group of [`Stage::group`] consecutive stage rows (a table broadcast over the
    /// stage's innermost dims, such as RoPE's cos/sin over the heads): loaded and computed once
    /// per group a tile touches, not once per row. Never set on an invariant node.
    pub grouped: bool,
    /// The element type of the body value the node computes (of an internal step: of the op
    /// it belongs to).
    pub dtype: DType,
    /// Kept in half in UB and computed with half instructions ([`assign_half`]).
    pub half: bool,
    /// The body value and op it comes from, for comments in the generated code.
    pub note: String,
}

/// An output row written by a stage.
#[derive(Clone, Debug, PartialEq)]
pub struct Store {
    /// The kernel output (yield) index.
    pub output: usize,
    /// The node holding the rows.
    pub node: NodeId,
    /// Which GM row of the output.
    pub rows: RowMap,
}

/// One straight-line row program over a box of a loop's rows.
#[derive(Clone, Debug, PartialEq)]
pub struct Stage {
    /// The loop's outer shape (leading 1s dropped).
    pub loop_shape: Vec<usize>,
    /// The box's first index along each loop dim.
    pub lo: Vec<usize>,
    /// The box's extent along each loop dim.
    pub ext: Vec<usize>,
    /// Rows in the box (product of `ext`).
    pub rows: u64,
    /// Consecutive rows that share the row of every [`Node::grouped`] node (1: none): the
    /// product of the box's innermost dims that some loaded table does not follow. Cores and
    /// tiles take whole groups.
    pub group: u64,
    /// The program, operands first.
    pub nodes: Vec<Node>,
    /// The output rows it writes.
    pub stores: Vec<Store>,
    /// Further sources of tile loads, in stage-row order: a stage merged from the boxes of a
    /// concat along an outer dim ([`merge_stages`]) reads a load's rows from one argument up to
    /// the first segment's `start`, from that segment's argument after it, and so on. Empty for
    /// a stage of one box.
    pub segments: Vec<Segment>,
}

/// Rows `start..` (up to the next segment of the node, or the stage's end) of a tile load read
/// from argument `arg` at GM rows `base + (r - start)` (contiguous).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    /// The load node.
    pub node: NodeId,
    /// The first stage row of the segment.
    pub start: u64,
    /// The argument (kernel input) index, of the same element type as the node's own.
    pub arg: usize,
    /// GM row of the segment's first row.
    pub base: u64,
}

impl Stage {
    /// The sources of tile load `node`: `(first stage row, end, argument, GM row of the first)`,
    /// in row order (one for a load without segments).
    pub fn sources(&self, node: NodeId) -> Vec<(u64, u64, usize, u64)> {
        let MicroOp::Load { arg, rows, .. } = &self.nodes[node].op else {
            return Vec::new();
        };
        let mut out = vec![(0, self.rows, *arg, rows.base)];
        for seg in self.segments.iter().filter(|g| g.node == node) {
            if let Some(last) = out.last_mut() {
                last.1 = seg.start;
            }
            out.push((seg.start, self.rows, seg.arg, seg.base));
        }
        out
    }
}

/// A kernel's plan: its signature and stages.
#[derive(Clone, Debug, PartialEq)]
pub struct KernelPlan {
    /// The dit.fused `kernel` attribute.
    pub name: String,
    /// Input types, in launch order.
    pub inputs: Vec<TensorType>,
    /// Output types, in yield order.
    pub outputs: Vec<TensorType>,
    /// The stages, run in order.
    pub stages: Vec<Stage>,
}

/// Why a body cannot be planned (the generator refuses the group).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("kernel {kernel}: {message}")]
pub struct PlanError {
    /// The kernel name.
    pub kernel: String,
    /// What is not supported, naming the op.
    pub message: String,
}

/// Where a value comes from.
#[derive(Clone, Copy)]
enum Def {
    Arg(usize),
    Op(usize),
}

/// Planning a box stopped: the box must be split (at loop dim `dim` before each index of
/// `cuts`), or the body cannot be generated.
enum Stop {
    Split { dim: usize, cuts: Vec<usize> },
    Refuse(String),
}

impl From<String> for Stop {
    fn from(s: String) -> Stop {
        Stop::Refuse(s)
    }
}

/// Outer dims (all but the last) and width (the last, 1 for 0-d) of a shape.
fn split_shape(shape: &[usize]) -> (&[usize], usize) {
    match shape.split_last() {
        Some((last, outer)) => (outer, *last),
        None => (&[], 1),
    }
}

fn strip_leading_ones(shape: &[usize]) -> Vec<usize> {
    let first = shape.iter().position(|d| *d != 1).unwrap_or(shape.len());
    shape[first..].to_vec()
}

fn is_supported_float(d: DType) -> bool {
    matches!(d, DType::F32 | DType::F16 | DType::BF16)
}

fn attr_f32(attrs: &Attrs, name: &str) -> Option<f32> {
    match attrs.get(name)? {
        AttrValue::Float(x) => Some(*x as f32),
        AttrValue::Int(i) => Some(*i as f32),
        _ => None,
    }
}

fn attr_i64(attrs: &Attrs, name: &str) -> Option<i64> {
    match attrs.get(name)? {
        AttrValue::Int(i) => Some(*i),
        _ => None,
    }
}

fn attr_str<'a>(attrs: &'a Attrs, name: &str) -> Option<&'a str> {
    match attrs.get(name)? {
        AttrValue::Str(s) => Some(s),
        _ => None,
    }
}

/// Builds one stage: nodes for the values its outputs need, memoized by (value, map).
struct StageBuilder<'a> {
    fused: &'a FusedOp,
    types: &'a [TensorType],
    defs: &'a [Def],
    lo: Vec<usize>,
    ext: Vec<usize>,
    nodes: Vec<Node>,
    memo: HashMap<(usize, Vec<DimMap>), NodeId>,
    /// Width-1 nodes already repeated to a width.
    expanded: HashMap<(NodeId, usize), NodeId>,
    /// The element type of the value being built (what `push` records).
    cur: DType,
    /// The body's last two dims were folded into one ([`fold_inner`]): a row of `a` elements
    /// against one of `a·b` is the `[a, 1]` operand broadcast to `[a, b]`.
    repeat_each: bool,
}

impl StageBuilder<'_> {
    /// A loop index that the box holds at one index becomes fixed.
    fn var(&self, dim: usize, offset: usize) -> DimMap {
        if self.ext[dim] == 1 {
            DimMap::Fixed(self.lo[dim] - offset)
        } else {
            DimMap::Var { dim, offset }
        }
    }

    /// The GM row map of a value with outer shape `outer` read through `map`.
    fn row_map(&self, outer: &[usize], map: &[DimMap]) -> RowMap {
        let mut base = 0u64;
        let mut coef: HashMap<usize, u64> = HashMap::new();
        let mut stride = 1u64;
        for (d, m) in outer.iter().zip(map).rev() {
            match m {
                DimMap::Fixed(c) => base += *c as u64 * stride,
                DimMap::Var { dim, offset } => {
                    base += (self.lo[*dim] - offset) as u64 * stride;
                    *coef.entry(*dim).or_default() += stride;
                }
            }
            stride *= *d as u64;
        }
        let mut terms: Vec<(usize, u64)> = coef.into_iter().collect();
        terms.sort();
        // Row-major strides of the box: the value is contiguous when it steps exactly so.
        let mut box_stride = 1u64;
        let mut contiguous = true;
        for l in (0..self.ext.len()).rev() {
            if self.ext[l] > 1 {
                let c = terms.iter().find(|(d, _)| *d == l).map(|(_, c)| *c);
                contiguous &= c == Some(box_stride);
            }
            box_stride *= self.ext[l] as u64;
        }
        RowMap {
            base,
            terms,
            contiguous,
        }
    }

    fn push(&mut self, op: MicroOp, width: usize, invariant: bool, note: String) -> NodeId {
        self.nodes.push(Node {
            op,
            width,
            invariant,
            grouped: false,
            dtype: self.cur,
            half: false,
            note,
        });
        self.nodes.len() - 1
    }

    fn inv(&self, id: NodeId) -> bool {
        self.nodes[id].invariant
    }

    /// The map of an operand of shape `op_shape` read by a result of shape `res_shape` through
    /// numpy broadcasting (both full shapes; the last dims align).
    fn broadcast_map(
        &self,
        res_map: &[DimMap],
        res_shape: &[usize],
        op_shape: &[usize],
        what: &str,
    ) -> Result<Vec<DimMap>, Stop> {
        if op_shape.len() > res_shape.len() {
            return Err(Stop::Refuse(format!(
                "{what}: operand shape {op_shape:?} has more dims than the result {res_shape:?}"
            )));
        }
        let off = res_shape.len() - op_shape.len();
        let (op_outer, _) = split_shape(op_shape);
        let mut map = Vec::with_capacity(op_outer.len());
        for (j, &size) in op_outer.iter().enumerate() {
            let r = j + off;
            if size == res_shape[r] {
                map.push(res_map[r].clone());
            } else if size == 1 {
                map.push(DimMap::Fixed(0));
            } else {
                return Err(Stop::Refuse(format!(
                    "{what}: operand shape {op_shape:?} does not broadcast to {res_shape:?}"
                )));
            }
        }
        Ok(map)
    }

    /// A binary op with broadcasting, expanding a width-1 operand to the result's width.
    fn binary(
        &mut self,
        op: BinaryOp,
        a: NodeId,
        b: NodeId,
        width: usize,
        note: &str,
    ) -> Result<NodeId, Stop> {
        let a = self.expand(a, width, note)?;
        let b = self.expand(b, width, note)?;
        let invariant = self.inv(a) && self.inv(b);
        Ok(self.push(
            MicroOp::Binary(op, a, b),
            width,
            invariant,
            note.to_string(),
        ))
    }

    fn expand(&mut self, x: NodeId, width: usize, note: &str) -> Result<NodeId, Stop> {
        let w = self.nodes[x].width;
        if w == width {
            return Ok(x);
        }
        let repeat = self.repeat_each && w > 1 && width.is_multiple_of(w);
        if w != 1 && !repeat {
            return Err(Stop::Refuse(format!(
                "{note}: last dims {w} and {width} do not broadcast"
            )));
        }
        if let Some(n) = self.expanded.get(&(x, width)) {
            return Ok(*n);
        }
        let invariant = self.inv(x);
        let op = if repeat {
            MicroOp::RepeatEach {
                x,
                times: width / w,
            }
        } else {
            MicroOp::ExpandLast(x)
        };
        let n = self.push(
            op,
            width,
            invariant,
            format!("{note} (broadcast of the last dim)"),
        );
        self.expanded.insert((x, width), n);
        Ok(n)
    }

    fn unary(&mut self, op: UnaryOp, x: NodeId, note: &str) -> NodeId {
        let (width, invariant) = (self.nodes[x].width, self.inv(x));
        self.push(MicroOp::Unary(op, x), width, invariant, note.to_string())
    }

    /// The node of value `id` read through `map` (creating it and its operands).
    fn value(&mut self, id: usize, map: Vec<DimMap>) -> Result<NodeId, Stop> {
        let key = (id, map);
        if let Some(n) = self.memo.get(&key) {
            return Ok(*n);
        }
        let map = key.1.clone();
        let saved = self.cur;
        self.cur = self.types[id].dtype;
        let node = self.build(id, &map);
        self.cur = saved;
        let node = node?;
        self.memo.insert(key, node);
        Ok(node)
    }

    fn build(&mut self, id: usize, map: &[DimMap]) -> Result<NodeId, Stop> {
        let ty = &self.types[id];
        if !is_supported_float(ty.dtype) {
            return Err(Stop::Refuse(format!(
                "value {id} has element type {}: generated kernels compute f32, f16 and bf16 only",
                ty.dtype.mlir_name()
            )));
        }
        let (outer, width) = split_shape(&ty.shape);
        let invariant = map.iter().all(|m| matches!(m, DimMap::Fixed(_)));
        let k = match self.defs[id] {
            Def::Arg(arg) => {
                let rows = self.row_map(outer, map);
                return Ok(self.push(
                    MicroOp::Load {
                        arg,
                        rows,
                        window: None,
                    },
                    width,
                    invariant,
                    format!("argument #{arg}"),
                ));
            }
            Def::Op(k) => k,
        };
        let op = &self.fused.ops[k];
        let name = op.name.as_str();
        let kind = OpKind::from_name(name);
        let note = format!("%{id} = {name}");
        let res_shape = ty.shape.clone();
        let operand = |slot: usize| -> Result<usize, Stop> {
            op.operands
                .get(slot)
                .copied()
                .flatten()
                .ok_or_else(|| Stop::Refuse(format!("{note}: operand #{slot} is missing")))
        };
        let shape_of = |v: usize| self.types[v].shape.clone();
        match kind {
            Some(OpKind::Add | OpKind::Sub | OpKind::Mul | OpKind::Div) => {
                let (a, b) = (operand(0)?, operand(1)?);
                let ma = self.broadcast_map(map, &res_shape, &shape_of(a), &note)?;
                let mb = self.broadcast_map(map, &res_shape, &shape_of(b), &note)?;
                let na = self.value(a, ma)?;
                let nb = self.value(b, mb)?;
                let bop = match kind {
                    Some(OpKind::Add) => BinaryOp::Add,
                    Some(OpKind::Sub) => BinaryOp::Sub,
                    Some(OpKind::Mul) => BinaryOp::Mul,
                    _ => BinaryOp::Div,
                };
                self.binary(bop, na, nb, width, &note)
            }
            Some(OpKind::Pow) => Err(Stop::Refuse(format!(
                "{note}: dit.pow is not generated (a negative base needs the exponent's integer \
                 parity, which the vector program does not compute)"
            ))),
            Some(
                OpKind::Neg
                | OpKind::Exp
                | OpKind::Sqrt
                | OpKind::Rsqrt
                | OpKind::Tanh
                | OpKind::Erf
                | OpKind::Sigmoid
                | OpKind::Silu
                | OpKind::Relu
                | OpKind::Gelu
                | OpKind::FastGelu,
            ) => {
                let x = self.value(operand(0)?, map.to_vec())?;
                let u = match kind {
                    Some(OpKind::Neg) => UnaryOp::Neg,
                    Some(OpKind::Exp) => UnaryOp::Exp,
                    Some(OpKind::Sqrt) => UnaryOp::Sqrt,
                    Some(OpKind::Rsqrt) => UnaryOp::Rsqrt,
                    Some(OpKind::Tanh) => UnaryOp::Tanh,
                    Some(OpKind::Erf) => UnaryOp::Erf,
                    Some(OpKind::Sigmoid) => UnaryOp::Sigmoid,
                    Some(OpKind::Silu) => UnaryOp::Silu,
                    Some(OpKind::Relu) => UnaryOp::Relu,
                    Some(OpKind::FastGelu) => UnaryOp::FastGelu,
                    _ => gelu_kind(&op.attrs, &note)?,
                };
                Ok(self.unary(u, x, &note))
            }
            Some(OpKind::Cast) => {
                let src = operand(0)?;
                let from = self.types[src].dtype;
                if !is_supported_float(from) {
                    return Err(Stop::Refuse(format!(
                        "{note}: casts from {} are not generated",
                        from.mlir_name()
                    )));
                }
                let x = self.value(src, map.to_vec())?;
                // Values live in f32: widening is free; narrowing rounds where the cast stands.
                let narrows = ty.dtype != DType::F32 && ty.dtype != from;
                if narrows {
                    Ok(self.push(
                        MicroOp::Round { x, dtype: ty.dtype },
                        width,
                        invariant,
                        note,
                    ))
                } else {
                    Ok(x)
                }
            }
            Some(OpKind::MulsAdd) => {
                let scale = attr_f32(&op.attrs, "scale")
                    .ok_or_else(|| Stop::Refuse(format!("{note}: scale is missing")))?;
                let (a, b) = (operand(0)?, operand(1)?);
                let ma = self.broadcast_map(map, &res_shape, &shape_of(a), &note)?;
                let mb = self.broadcast_map(map, &res_shape, &shape_of(b), &note)?;
                let na = self.value(a, ma)?;
                let nb = self.value(b, mb)?;
                let scaled = self.unary(UnaryOp::MulScalar(scale), na, &note);
                self.binary(BinaryOp::Add, scaled, nb, width, &note)
            }
            Some(OpKind::SiluMul) => {
                let g = self.value(operand(0)?, map.to_vec())?;
                let u = self.value(operand(1)?, map.to_vec())?;
                let s = self.unary(UnaryOp::Silu, g, &note);
                self.binary(BinaryOp::Mul, s, u, width, &note)
            }
            Some(OpKind::Swiglu | OpKind::GeluMul) => {
                let src = operand(0)?;
                if kind == Some(OpKind::Swiglu) {
                    let rank = self.types[src].shape.len() as i64;
                    let dim = attr_i64(&op.attrs, "dim").unwrap_or(-1);
                    if dim != -1 && dim != rank - 1 {
                        return Err(Stop::Refuse(format!(
                            "{note}: only the last dim is generated (dim = {dim})"
                        )));
                    }
                }
                let act = if kind == Some(OpKind::Swiglu) {
                    UnaryOp::Silu
                } else {
                    gelu_kind(&op.attrs, &note)?
                };
                let x = self.value(src, map.to_vec())?;
                let inv = self.inv(x);
                let gate = self.push(
                    MicroOp::Slice {
                        x,
                        offset: 0,
                        len: width,
                    },
                    width,
                    inv,
                    format!("{note} (first half)"),
                );
                let up = self.push(
                    MicroOp::Slice {
                        x,
                        offset: width,
                        len: width,
                    },
                    width,
                    inv,
                    format!("{note} (second half)"),
                );
                let g = self.unary(act, gate, &note);
                self.binary(BinaryOp::Mul, g, up, width, &note)
            }
            Some(OpKind::Softmax) => {
                let dim = attr_i64(&op.attrs, "dim").unwrap_or(-1);
                if dim != -1 && dim != res_shape.len() as i64 - 1 {
                    return Err(Stop::Refuse(format!(
                        "{note}: only the last dim is generated (dim = {dim})"
                    )));
                }
                let x = self.value(operand(0)?, map.to_vec())?;
                Ok(self.push(MicroOp::Softmax(x), width, invariant, note))
            }
            Some(OpKind::RmsNorm) => {
                let eps = epsilon(&op.attrs, &note)?;
                let x = self.value(operand(0)?, map.to_vec())?;
                let r = self.push(MicroOp::Rms { x, eps }, width, invariant, note.clone());
                let g = self.feature(operand(1)?, width, &note)?;
                self.binary(BinaryOp::Mul, r, g, width, &note)
            }
            Some(OpKind::LayerNorm) => {
                let eps = epsilon(&op.attrs, &note)?;
                let x = self.value(operand(0)?, map.to_vec())?;
                let mut y = self.push(
                    MicroOp::Standardize { x, eps },
                    width,
                    invariant,
                    note.clone(),
                );
                if let Some(g) = op.operands.get(1).copied().flatten() {
                    let g = self.feature(g, width, &note)?;
                    y = self.binary(BinaryOp::Mul, y, g, width, &note)?;
                }
                if let Some(b) = op.operands.get(2).copied().flatten() {
                    let b = self.feature(b, width, &note)?;
                    y = self.binary(BinaryOp::Add, y, b, width, &note)?;
                }
                Ok(y)
            }
            Some(OpKind::AdaLayerNorm) => {
                let eps = epsilon(&op.attrs, &note)?;
                let x = self.value(operand(0)?, map.to_vec())?;
                let (sc, sh) = (operand(1)?, operand(2)?);
                let msc = self.broadcast_map(map, &res_shape, &shape_of(sc), &note)?;
                let msh = self.broadcast_map(map, &res_shape, &shape_of(sh), &note)?;
                let nsc = self.value(sc, msc)?;
                let nsh = self.value(sh, msh)?;
                let y = self.push(
                    MicroOp::Standardize { x, eps },
                    width,
                    invariant,
                    note.clone(),
                );
                let one_plus = self.unary(UnaryOp::AddScalar(1.0), nsc, &note);
                let y = self.binary(BinaryOp::Mul, y, one_plus, width, &note)?;
                self.binary(BinaryOp::Add, y, nsh, width, &note)
            }
            Some(OpKind::Rope) => {
                let interleave = match attr_str(&op.attrs, "mode") {
                    Some("interleave") => true,
                    Some("half") => false,
                    other => {
                        return Err(Stop::Refuse(format!("{note}: mode {other:?} is not known")))
                    }
                };
                if width % 2 != 0 {
                    return Err(Stop::Refuse(format!("{note}: the last dim {width} is odd")));
                }
                let x = self.value(operand(0)?, map.to_vec())?;
                let (c, s) = (operand(1)?, operand(2)?);
                let mc = self.broadcast_map(map, &res_shape, &shape_of(c), &note)?;
                let ms = self.broadcast_map(map, &res_shape, &shape_of(s), &note)?;
                let nc = self.value(c, mc)?;
                let ns = self.value(s, ms)?;
                let inv = self.inv(x);
                let rot = self.push(
                    MicroOp::Rotate { x, interleave },
                    width,
                    inv,
                    format!("{note} (rotate)"),
                );
                let p = self.binary(BinaryOp::Mul, x, nc, width, &note)?;
                let q = self.binary(BinaryOp::Mul, rot, ns, width, &note)?;
                self.binary(BinaryOp::Add, p, q, width, &note)
            }
            Some(OpKind::Concat) => self.concat(op, id, map, &note),
            Some(OpKind::Split) => self.split_piece(op, k, id, map, &note),
            Some(OpKind::Reshape) => self.head_view(op, id, map, &note),
            _ => Err(Stop::Refuse(format!(
                "{note}: this op is not generated in an Ascend C vector kernel"
            ))),
        }
    }

    /// Piece `id` of `dit.split` body op `k` along the last dim of a body argument: a load of
    /// the piece's columns of the argument's rows ([`Window`]), read in place from GM.
    ///
    /// DataCopyPad (GM -> VECIN, CANN atlasascendc_api_07_0265) takes the burst length and the
    /// GM gap between bursts in bytes (DataCopyExtParams blockLen, srcStride) and puts no
    /// alignment constraint on the GlobalTensor's start, for half, bfloat16_t and float alike;
    /// the generator nevertheless asks every window to start and end on a 32-byte GM block
    /// (offset · element bytes and width · element bytes multiples of 32): then each burst is
    /// whole blocks, no block of GM is fetched for two windows, no UB row carries padding,
    /// and the same load could be spelled with DataCopyParams, whose blockLen and srcStride
    /// count 32-byte blocks (atlasascendc_api_07_0265 table 4). Other windows are refused.
    fn split_piece(
        &mut self,
        op: &dit_runtime::fused::BodyOp,
        k: usize,
        id: usize,
        map: &[DimMap],
        note: &str,
    ) -> Result<NodeId, Stop> {
        let (arg, offset, width, row_width) = self.piece_window(op, k, id, note)?;
        let (outer, _) = split_shape(&self.types[arg].shape);
        let rows = self.row_map(outer, map);
        let invariant = map.iter().all(|m| matches!(m, DimMap::Fixed(_)));
        Ok(self.push(
            MicroOp::Load {
                arg,
                rows,
                window: Some(Window { offset, row_width }),
            },
            width,
            invariant,
            format!("argument #{arg}, columns {offset}..{}", offset + width),
        ))
    }

    /// A `dit.reshape` of a split piece `[.., S, w]` to heads `[.., S, H, D]` (H·D = w, only
    /// the last dim split): the piece's rows `(s, h)` are rows of the parent argument
    /// `[.., S, W]` seen as `[.., S, W/D, D]`, at head offset `offset/D` (the piece's first
    /// column over D), so the load is a plain row map of D-wide rows, no column window: row
    /// `(s, h)` is GM row `s·(W/D) + offset/D + h`. FLUX, SD3.5, Qwen-Image and HunyuanVideo
    /// split their merged q/k/v projection and reshape each piece to heads for the per-head
    /// norm and rope. Each row must be whole 32-byte GM blocks (D × element bytes, and so the
    /// piece's offset, a multiple of 32: the rule and its doc at [`StageBuilder::split_piece`]).
    fn head_view(
        &mut self,
        op: &dit_runtime::fused::BodyOp,
        id: usize,
        map: &[DimMap],
        note: &str,
    ) -> Result<NodeId, Stop> {
        let src = op
            .operands
            .first()
            .copied()
            .flatten()
            .ok_or_else(|| Stop::Refuse(format!("{note}: the operand is missing")))?;
        let refuse = || {
            Stop::Refuse(format!(
                "{note}: a reshape is generated only as the per-head view ([.., W] -> [.., H, D]) \
                 of a piece of a split along a kernel input's last dim"
            ))
        };
        let Def::Op(j) = self.defs[src] else {
            return Err(refuse());
        };
        let split = &self.fused.ops[j];
        if OpKind::from_name(&split.name) != Some(OpKind::Split) {
            return Err(refuse());
        }
        let piece = self.types[src].shape.clone();
        let res = self.types[id].shape.clone();
        let n = piece.len();
        if n == 0
            || res.len() != n + 1
            || res[..n - 1] != piece[..n - 1]
            || res[n - 1] * res[n] != piece[n - 1]
        {
            return Err(refuse());
        }
        let head = res[n];
        let (arg, offset, _, row_width) = self.piece_window(split, j, src, note)?;
        let elem = crate::layout::elem_bytes(self.types[arg].dtype) as usize;
        if head == 0
            || !(head * elem).is_multiple_of(32)
            || !offset.is_multiple_of(head)
            || !row_width.is_multiple_of(head)
        {
            return Err(Stop::Refuse(format!(
                "{note}: heads of {head} at column {offset} of rows of {row_width} are not whole \
                 32-byte GM rows of the input"
            )));
        }
        // The parent's rows as rows of `head` elements: its outer dims, then W/D heads.
        let mut outer = split_shape(&self.types[arg].shape).0.to_vec();
        outer.push(row_width / head);
        let mut rows = self.row_map(&outer, map);
        rows.base += (offset / head) as u64;
        let invariant = map.iter().all(|m| matches!(m, DimMap::Fixed(_)));
        Ok(self.push(
            MicroOp::Load {
                arg,
                rows,
                window: None,
            },
            head,
            invariant,
            format!(
                "argument #{arg}, heads {}..{} of {head}",
                offset / head,
                offset / head + res[n - 1]
            ),
        ))
    }

    /// `(argument, first column, width, argument's row width)` of piece `id` of `dit.split`
    /// body op `k` along the last dim of a body argument ([`StageBuilder::split_piece`]).
    fn piece_window(
        &self,
        op: &dit_runtime::fused::BodyOp,
        k: usize,
        id: usize,
        note: &str,
    ) -> Result<(usize, usize, usize, usize), Stop> {
        let src = op
            .operands
            .first()
            .copied()
            .flatten()
            .ok_or_else(|| Stop::Refuse(format!("{note}: the operand is missing")))?;
        let Def::Arg(arg) = self.defs[src] else {
            return Err(Stop::Refuse(format!(
                "{note}: only a split of a kernel input is generated (its pieces are read as \
                 column windows of the input's rows)"
            )));
        };
        let shape = &self.types[src].shape;
        let rank = shape.len() as i64;
        let dim = attr_i64(&op.attrs, "dim")
            .ok_or_else(|| Stop::Refuse(format!("{note}: dim is missing")))?;
        if rank == 0 || (dim != -1 && dim != rank - 1) {
            return Err(Stop::Refuse(format!(
                "{note}: only a split along the last dim is generated (dim = {dim})"
            )));
        }
        let sizes = match op.attrs.get("sizes") {
            Some(AttrValue::Ints(v)) => v.clone(),
            _ => return Err(Stop::Refuse(format!("{note}: sizes are missing"))),
        };
        let row_width = split_shape(shape).1;
        if sizes.len() != op.results.len()
            || sizes.iter().any(|s| *s < 0)
            || sizes.iter().sum::<i64>() != row_width as i64
        {
            return Err(Stop::Refuse(format!(
                "{note}: sizes {sizes:?} do not split a last dim of {row_width}"
            )));
        }
        // The piece's index among the op's results (they take consecutive value ids).
        let first = self
            .defs
            .iter()
            .position(|d| matches!(d, Def::Op(j) if *j == k))
            .unwrap_or(id);
        let piece = id - first;
        let offset: usize = sizes[..piece].iter().map(|s| *s as usize).sum();
        let width = sizes[piece] as usize;
        let elem = crate::layout::elem_bytes(self.types[src].dtype) as usize;
        for (what, n) in [("offset", offset), ("width", width)] {
            if !(n * elem).is_multiple_of(32) {
                return Err(Stop::Refuse(format!(
                    "{note}: piece #{piece}'s column {what} {n} is not a whole number of \
                     32-byte GM blocks of {} (columns {offset}..{})",
                    self.types[src].dtype.mlir_name(),
                    offset + width
                )));
            }
        }
        Ok((arg, offset, width, row_width))
    }

    /// A per-feature vector (gamma, beta: shape [D]) as an invariant node.
    fn feature(&mut self, v: usize, width: usize, note: &str) -> Result<NodeId, Stop> {
        let shape = &self.types[v].shape;
        if shape.iter().rev().skip(1).any(|d| *d != 1) || split_shape(shape).1 != width {
            return Err(Stop::Refuse(format!(
                "{note}: a per-feature operand of shape {shape:?} for rows of {width}"
            )));
        }
        let map = vec![DimMap::Fixed(0); shape.len().saturating_sub(1)];
        self.value(v, map)
    }

    fn concat(
        &mut self,
        op: &dit_runtime::fused::BodyOp,
        id: usize,
        map: &[DimMap],
        note: &str,
    ) -> Result<NodeId, Stop> {
        let shape = self.types[id].shape.clone();
        let rank = shape.len() as i64;
        let mut dim = attr_i64(&op.attrs, "dim")
            .ok_or_else(|| Stop::Refuse(format!("{note}: dim is missing")))?;
        if dim < 0 {
            dim += rank;
        }
        if dim < 0 || dim >= rank {
            return Err(Stop::Refuse(format!("{note}: dim {dim} is out of range")));
        }
        let dim = dim as usize;
        let parts: Vec<usize> = op
            .operands
            .iter()
            .map(|o| o.ok_or_else(|| Stop::Refuse(format!("{note}: an operand is missing"))))
            .collect::<Result<_, _>>()?;
        if dim + 1 == shape.len() {
            // Along the last dim: copy each operand's row into its columns. The copies move
            // whole 32-byte blocks of f32, so every part but the last starts on 8 elements.
            let mut nodes = Vec::new();
            let mut at = 0;
            for (k, p) in parts.iter().enumerate() {
                let w = split_shape(&self.types[*p].shape).1;
                if at % 8 != 0 {
                    return Err(Stop::Refuse(format!(
                        "{note}: operand #{k} starts at column {at}, not a multiple of 8 \
                         elements (32-byte UB blocks of f32)"
                    )));
                }
                nodes.push(self.value(*p, map.to_vec())?);
                at += w;
            }
            let width = split_shape(&shape).1;
            let invariant = nodes.iter().all(|n| self.inv(*n));
            return Ok(self.push(
                MicroOp::ConcatLast(nodes),
                width,
                invariant,
                note.to_string(),
            ));
        }
        // Along an outer dim: the row comes from one operand, shifted.
        let mut start = 0usize;
        let mut ranges = Vec::new();
        for p in &parts {
            let size = self.types[*p].shape[dim];
            ranges.push((start, start + size, *p));
            start += size;
        }
        match map[dim].clone() {
            DimMap::Fixed(c) => {
                let (s, _, p) = ranges
                    .iter()
                    .copied()
                    .find(|(s, e, _)| *s <= c && c < *e)
                    .ok_or_else(|| Stop::Refuse(format!("{note}: index {c} out of range")))?;
                let mut m = map.to_vec();
                m[dim] = DimMap::Fixed(c - s);
                self.value(p, m)
            }
            DimMap::Var { dim: l, offset } => {
                // The box covers concat indices [lo - offset, lo + ext - offset).
                let first = self.lo[l] - offset;
                let end = first + self.ext[l];
                let inside: Vec<_> = ranges
                    .iter()
                    .copied()
                    .filter(|(s, e, _)| *s < end && first < *e)
                    .collect();
                if inside.len() > 1 {
                    let cuts = inside[1..].iter().map(|(s, _, _)| s + offset).collect();
                    return Err(Stop::Split { dim: l, cuts });
                }
                let (s, _, p) = inside[0];
                let mut m = map.to_vec();
                m[dim] = self.var(l, offset + s);
                self.value(p, m)
            }
        }
    }
}

fn epsilon(attrs: &Attrs, note: &str) -> Result<f32, Stop> {
    attr_f32(attrs, "epsilon").ok_or_else(|| Stop::Refuse(format!("{note}: epsilon is missing")))
}

fn gelu_kind(attrs: &Attrs, note: &str) -> Result<UnaryOp, Stop> {
    match attr_str(attrs, "approximate") {
        Some("none") => Ok(UnaryOp::GeluErf),
        Some("tanh") => Ok(UnaryOp::GeluTanh),
        other => Err(Stop::Refuse(format!(
            "{note}: approximate {other:?} is not known"
        ))),
    }
}

/// Plans the kernel of one `dit.fused` body.
pub fn plan(fused: &FusedOp) -> Result<KernelPlan, PlanError> {
    plan_with(fused, false)
}

/// Plans the kernel of a body [`fold_inner`] made: a row of `a` elements against one of `a·b`
/// is read as the `[a, 1]` operand broadcast to `[a, b]` ([`MicroOp::RepeatEach`]).
pub fn plan_folded(fused: &FusedOp) -> Result<KernelPlan, PlanError> {
    plan_with(fused, true)
}

fn plan_with(fused: &FusedOp, repeat_each: bool) -> Result<KernelPlan, PlanError> {
    let fail = |message: String| PlanError {
        kernel: fused.kernel.clone(),
        message,
    };
    let mut types: Vec<TensorType> = fused.args.clone();
    let mut defs: Vec<Def> = (0..fused.args.len()).map(Def::Arg).collect();
    for (k, op) in fused.ops.iter().enumerate() {
        for r in &op.results {
            types.push(r.clone());
            defs.push(Def::Op(k));
        }
        // A split's pieces are loads of an input's columns (`StageBuilder::split_piece`).
        if op.results.len() != 1 && OpKind::from_name(&op.name) != Some(OpKind::Split) {
            return Err(fail(format!(
                "body op #{k} ({}) has {} results; generated kernels take single-result ops",
                op.name,
                op.results.len()
            )));
        }
    }
    for (i, t) in fused.args.iter().enumerate() {
        if !is_supported_float(t.dtype) {
            return Err(fail(format!(
                "input #{i} is {}: generated kernels take f32, f16 and bf16",
                t.dtype.mlir_name()
            )));
        }
    }
    if fused.yields.is_empty() {
        return Err(fail("the body yields nothing".to_string()));
    }
    // Loops: outputs grouped by outer shape, leading 1s ignored, in first-yield order.
    let mut loops: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
    for (i, y) in fused.yields.iter().enumerate() {
        let key = strip_leading_ones(split_shape(&types[*y].shape).0);
        match loops.iter_mut().find(|(k, _)| *k == key) {
            Some((_, outs)) => outs.push(i),
            None => loops.push((key, vec![i])),
        }
    }
    // Loops with the most rows first: a stage of one loop also stores the rows of another
    // loop's outputs that it computes anyway (a concat's prefix yielded beside the norm of the
    // whole concat), and that loop then only runs over the rows left ([`shared_stores`]).
    let rows_of = |shape: &[usize]| shape.iter().map(|d| *d as u64).product::<u64>();
    let mut order: Vec<usize> = (0..loops.len()).collect();
    order.sort_by_key(|l| std::cmp::Reverse(rows_of(&loops[*l].0)));
    let mut covered: Vec<Vec<Box>> = vec![Vec::new(); loops.len()];
    let mut planned = vec![false; loops.len()];
    let mut stages = Vec::new();
    for &li in &order {
        let (loop_shape, outs) = &loops[li];
        planned[li] = true;
        let mut work = vec![(vec![0; loop_shape.len()], loop_shape.clone())];
        for c in &covered[li] {
            work = work.iter().flat_map(|b| box_minus(b, c)).collect();
        }
        let mut done = Vec::new();
        while let Some((lo, ext)) = work.pop() {
            let mut b = StageBuilder {
                fused,
                types: &types,
                defs: &defs,
                lo: lo.clone(),
                ext: ext.clone(),
                nodes: Vec::new(),
                memo: HashMap::new(),
                expanded: HashMap::new(),
                cur: DType::F32,
                repeat_each,
            };
            match build_stage(&mut b, loop_shape, outs, &fused.yields) {
                Ok(mut stores) => {
                    for (mi, (shape, mouts)) in loops.iter().enumerate() {
                        if planned[mi] {
                            continue;
                        }
                        let extra = shared_stores(&b, shape, mouts, &fused.yields, &covered[mi]);
                        if let Some(extra) = extra {
                            stores.extend(extra);
                            covered[mi].push((lo.clone(), ext.clone()));
                        }
                    }
                    let mut stage = Stage {
                        loop_shape: loop_shape.clone(),
                        rows: ext.iter().map(|e| *e as u64).product(),
                        group: 1,
                        lo,
                        ext,
                        nodes: b.nodes,
                        stores,
                        segments: Vec::new(),
                    };
                    assign_groups(&mut stage);
                    let out_types: Vec<DType> =
                        fused.yields.iter().map(|y| types[*y].dtype).collect();
                    assign_half(&mut stage, &out_types);
                    done.push(stage)
                }
                Err(Stop::Refuse(m)) => return Err(fail(m)),
                Err(Stop::Split { dim, cuts }) => {
                    let mut at = lo[dim];
                    let end = lo[dim] + ext[dim];
                    for c in cuts.into_iter().chain(std::iter::once(end)) {
                        let (mut l2, mut e2) = (lo.clone(), ext.clone());
                        l2[dim] = at;
                        e2[dim] = c - at;
                        work.push((l2, e2));
                        at = c;
                    }
                }
            }
        }
        done.sort_by(|a, b| a.lo.cmp(&b.lo));
        // Boxes that only a concat's operands tell apart run as one stage.
        let mut merged: Vec<Stage> = Vec::new();
        for st in done {
            match merged
                .last()
                .and_then(|m| merge_stages(m, &st, &fused.args))
            {
                Some(m) => *merged.last_mut().expect("a stage") = m,
                None => merged.push(st),
            }
        }
        stages.extend(merged);
    }
    Ok(KernelPlan {
        name: fused.kernel.clone(),
        inputs: fused.args.clone(),
        outputs: fused.yields.iter().map(|y| types[*y].clone()).collect(),
        stages,
    })
}

/// Two stages of one loop as one, when `b`'s box follows `a`'s along a loop dim `d` outside of
/// which both boxes hold one index (so `b`'s rows follow `a`'s in stage-row order), and the two
/// row programs differ only in where their tile loads read (a concat along an outer dim reads one
/// operand in `a`, the next in `b`): every node the same but for the argument and base row of
/// contiguous tile loads, which become [`Segment`]s, every store contiguous and continuing.
/// One stage instead of two loads the invariant rows (a norm's scale and shift) once per core
/// instead of once per core and stage, and splits the rows across the cores once (HiDream's
/// `concat(256 text, 128 llama tokens)` → `ada_layer_norm` read its scale and shift twice on
/// every core: 1.37x its roofline). `None` when they differ otherwise.
pub fn merge_stages(a: &Stage, b: &Stage, inputs: &[TensorType]) -> Option<Stage> {
    if a.group != 1 || b.group != 1 || a.loop_shape != b.loop_shape {
        return None;
    }
    let rank = a.lo.len();
    let d = (0..rank).find(|k| a.lo[*k] != b.lo[*k])?;
    let follows = b.lo[d] == a.lo[d] + a.ext[d]
        && (0..rank).all(|k| k == d || (a.lo[k] == b.lo[k] && a.ext[k] == b.ext[k]))
        && (0..d).all(|k| a.ext[k] == 1);
    if !follows || a.nodes.len() != b.nodes.len() || a.stores.len() != b.stores.len() {
        return None;
    }
    let mut segments = a.segments.clone();
    for (k, (x, y)) in a.nodes.iter().zip(&b.nodes).enumerate() {
        let same = x.width == y.width
            && x.invariant == y.invariant
            && x.grouped == y.grouped
            && x.dtype == y.dtype
            && x.half == y.half;
        if !same {
            return None;
        }
        match (&x.op, &y.op) {
            (
                MicroOp::Load {
                    arg: xa,
                    rows: xr,
                    window: None,
                },
                MicroOp::Load {
                    arg: ya,
                    rows: yr,
                    window: None,
                },
            ) if !x.invariant => {
                if !xr.contiguous || !yr.contiguous || inputs[*xa].dtype != inputs[*ya].dtype {
                    return None;
                }
                let (start, _, arg, base) = *a.sources(k).last().expect("a load has a source");
                if !(arg == *ya && yr.base == base + (a.rows - start)) {
                    segments.push(Segment {
                        node: k,
                        start: a.rows,
                        arg: *ya,
                        base: yr.base,
                    });
                }
            }
            (p, q) if p == q => {}
            _ => return None,
        }
    }
    for (x, y) in a.stores.iter().zip(&b.stores) {
        let continues = x.output == y.output
            && x.node == y.node
            && x.rows.contiguous
            && y.rows.contiguous
            && y.rows.base == x.rows.base + a.rows;
        if !continues {
            return None;
        }
    }
    let mut ext = a.ext.clone();
    ext[d] += b.ext[d];
    Some(Stage {
        loop_shape: a.loop_shape.clone(),
        lo: a.lo.clone(),
        ext,
        rows: a.rows + b.rows,
        group: 1,
        nodes: a.nodes.clone(),
        stores: a.stores.clone(),
        segments,
    })
}

/// A box of loop rows: its first index and extent along each loop dim.
type Box = (Vec<usize>, Vec<usize>);

/// Whether two boxes share a row.
fn box_meets(a: &Box, b: &Box) -> bool {
    (0..a.0.len()).all(|d| b.0[d] < a.0[d] + a.1[d] && a.0[d] < b.0[d] + b.1[d])
}

/// `a` without `b`: at most two boxes per dim, disjoint, covering what `a` has outside `b`.
fn box_minus(a: &Box, b: &Box) -> Vec<Box> {
    if !box_meets(a, b) {
        return vec![a.clone()];
    }
    let (lo, ext) = a;
    let rank = lo.len();
    let mut out = Vec::new();
    let (mut lo, mut ext) = (lo.clone(), ext.clone());
    for d in 0..rank {
        let (s, e) = (lo[d], lo[d] + ext[d]);
        let (bs, be) = (b.0[d].max(s), (b.0[d] + b.1[d]).min(e));
        if bs > s {
            let (mut l2, mut e2) = (lo.clone(), ext.clone());
            e2[d] = bs - s;
            l2[d] = s;
            out.push((l2, e2));
        }
        if be < e {
            let (mut l2, mut e2) = (lo.clone(), ext.clone());
            l2[d] = be;
            e2[d] = e - be;
            out.push((l2, e2));
        }
        lo[d] = bs;
        ext[d] = be - bs;
    }
    out
}

/// The stores of another loop's outputs (`outs`, over `shape`) that the stage being built
/// computes anyway: when the stage's box lies inside that loop's rows (same rank), away from
/// the rows already `covered` for it, and every one of those outputs is a node of the stage at
/// its own row (the value through the identity map, as [`build_stage`] would read it), the stage
/// stores them too and saves that loop a second pass over its inputs. `None` otherwise.
fn shared_stores(
    b: &StageBuilder<'_>,
    shape: &[usize],
    outs: &[usize],
    yields: &[usize],
    covered: &[Box],
) -> Option<Vec<Store>> {
    let m = b.lo.len();
    if shape.len() != m || (0..m).any(|d| b.lo[d] + b.ext[d] > shape[d]) {
        return None;
    }
    let here: Box = (b.lo.clone(), b.ext.clone());
    if covered.iter().any(|c| box_meets(&here, c)) {
        return None;
    }
    let mut stores = Vec::new();
    for &o in outs {
        let id = yields[o];
        let (outer, _) = split_shape(&b.types[id].shape);
        let p = outer.len();
        let map: Vec<DimMap> = (0..p)
            .map(|j| {
                if j + m < p {
                    DimMap::Fixed(0)
                } else {
                    b.var(j + m - p, 0)
                }
            })
            .collect();
        let node = *b.memo.get(&(id, map.clone()))?;
        stores.push(Store {
            output: o,
            node,
            rows: b.row_map(outer, &map),
        });
    }
    Some(stores)
}

/// The most rows one group may hold: a tile moves at least one group, and a DataCopyPad moves at
/// most 4095 rows (blockCount).
const MAX_GROUP: u64 = 4095;

/// Finds the stage's [`Stage::group`] and marks the [`Node::grouped`] nodes. A tile load that
/// does not follow the box's `s` innermost dims (those of extent > 1) reads the same GM row for
/// each run of their product of rows; the stage groups by the largest such `s` over its loads,
/// and a node is grouped when it is not invariant and all its non-invariant operands are.
pub fn assign_groups(stage: &mut Stage) {
    let dims: Vec<usize> = (0..stage.ext.len()).filter(|l| stage.ext[*l] > 1).collect();
    let skipped = |rows: &RowMap| {
        dims.iter()
            .rev()
            .take_while(|l| !rows.terms.iter().any(|(d, _)| d == *l))
            .count()
    };
    let s = stage
        .nodes
        .iter()
        .filter(|n| !n.invariant)
        .filter_map(|n| match &n.op {
            MicroOp::Load { rows, .. } => Some(skipped(rows)),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    let group: u64 = dims[dims.len() - s..]
        .iter()
        .map(|l| stage.ext[*l] as u64)
        .product();
    if s == 0 || group > MAX_GROUP {
        ungroup(stage);
        return;
    }
    stage.group = group;
    for k in 0..stage.nodes.len() {
        let node = &stage.nodes[k];
        let grouped = !node.invariant
            && match &node.op {
                MicroOp::Load { rows, .. } => skipped(rows) >= s,
                op => op
                    .operands()
                    .iter()
                    .all(|o| stage.nodes[*o].invariant || stage.nodes[*o].grouped),
            };
        stage.nodes[k].grouped = grouped;
    }
}

/// Marks the f16 tile nodes that stay in half ([`Node::half`]). Atlas A2/A3 vector arithmetic
/// takes half (Ascend C Add/Sub/Mul/Div/Muls/Adds/Relu, e.g. atlasascendc_api_07_0037 Mul:
/// "Atlas A2 训练系列产品/Atlas A2 推理系列产品,支持的数据类型为:half、int16_t、int32_t、float"),
/// but bfloat16_t only from Ascend 950 on, so only f16 can stay narrow. A node stays in half
/// when it is an f16 load, or an f16 add/sub/mul/div/neg/relu/scalar add/scalar mul of half
/// nodes, whose every reader is such a node and whose every store goes to an f16 output. Each
/// half instruction rounds its result to f16, as the reference rounds each f16 op's result: one
/// rounding per body op where the op is one instruction (add, sub, mul, div, neg, relu; the
/// f32 result of two f16 operands rounds to the same f16 as the exact one), and two for
/// muls_add (scale, then add). Everything else (reductions, transcendental ops, broadcast
/// operands, other types) stays f32.
pub fn assign_half(stage: &mut Stage, output_types: &[DType]) {
    let n = stage.nodes.len();
    let eligible = |node: &Node| {
        !node.invariant
            && !node.grouped
            && node.dtype == DType::F16
            && matches!(
                node.op,
                MicroOp::Load { .. }
                    | MicroOp::Binary(..)
                    | MicroOp::Unary(
                        UnaryOp::Neg
                            | UnaryOp::Relu
                            | UnaryOp::AddScalar(_)
                            | UnaryOp::MulScalar(_),
                        _
                    )
            )
    };
    let mut half: Vec<bool> = stage.nodes.iter().map(eligible).collect();
    let mut readers: Vec<Vec<NodeId>> = vec![Vec::new(); n];
    for (k, node) in stage.nodes.iter().enumerate() {
        for o in node.op.operands() {
            readers[o].push(k);
        }
    }
    let mut wide_store = vec![false; n];
    for st in &stage.stores {
        if output_types.get(st.output) != Some(&DType::F16) {
            wide_store[st.node] = true;
        }
    }
    // Drop a node whose operands or readers are not half, until nothing changes.
    loop {
        let mut changed = false;
        for k in 0..n {
            if !half[k] {
                continue;
            }
            let ok = !wide_store[k]
                && stage.nodes[k].op.operands().iter().all(|o| half[*o])
                && readers[k].iter().all(|r| half[*r]);
            if !ok {
                half[k] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    for (node, h) in stage.nodes.iter_mut().zip(half) {
        node.half = h;
    }
}

/// Undoes [`assign_half`]: every node is computed in f32.
pub fn widen(stage: &mut Stage) {
    for n in &mut stage.nodes {
        n.half = false;
    }
}

/// Undoes [`assign_groups`]: every non-invariant node holds one row per stage row.
pub fn ungroup(stage: &mut Stage) {
    stage.group = 1;
    for n in &mut stage.nodes {
        n.grouped = false;
    }
}

/// Whether the GM rows of a grouped load for consecutive groups of the stage are consecutive
/// (one burst per group, moved in one DataCopyPad).
pub fn groups_contiguous(rows: &RowMap, stage: &Stage) -> bool {
    // Box strides counted in groups: the dims inside a group have been skipped by the load.
    let mut stride = 1u64;
    let mut inner = 1u64;
    let mut ok = true;
    for l in (0..stage.ext.len()).rev() {
        let e = stage.ext[l] as u64;
        if e == 1 {
            continue;
        }
        let coef = rows.terms.iter().find(|(d, _)| *d == l).map(|(_, c)| *c);
        if inner < stage.group {
            // A dim inside the group (the load does not follow it).
            inner *= e;
            continue;
        }
        ok &= coef == Some(stride);
        stride *= e;
    }
    ok
}

fn build_stage(
    b: &mut StageBuilder<'_>,
    loop_shape: &[usize],
    outs: &[usize],
    yields: &[usize],
) -> Result<Vec<Store>, Stop> {
    let m = loop_shape.len();
    let mut stores = Vec::new();
    for &o in outs {
        let id = yields[o];
        let shape = b.types[id].shape.clone();
        let (outer, _) = split_shape(&shape);
        let p = outer.len();
        // Identity map: the output's dims right-aligned on the loop's (extra leading dims are 1).
        let map: Vec<DimMap> = (0..p)
            .map(|j| {
                if j + m < p {
                    DimMap::Fixed(0)
                } else {
                    b.var(j + m - p, 0)
                }
            })
            .collect();
        let node = b.value(id, map.clone())?;
        let rows = b.row_map(outer, &map);
        stores.push(Store {
            output: o,
            node,
            rows,
        });
    }
    Ok(stores)
}

/// Ops that work element by element along the last dim (or, for concat, move whole columns):
/// a body of only these may be split into column chunks. The elementwise ops ([`ELEMENTWISE`])
/// and concat.
fn column_wise(kind: OpKind) -> bool {
    ELEMENTWISE.contains(&kind) || kind == OpKind::Concat
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The widths a body's last dims can be cut into for [`chunk_columns`], widest first: the
/// multiples of 16 elements that divide every last dim above 1. Empty when the body has an op
/// that needs whole rows (norms, softmax, rope, the halves of swiglu / gelu_mul).
pub fn column_chunks(fused: &FusedOp) -> Vec<usize> {
    if fused
        .ops
        .iter()
        .any(|op| !OpKind::from_name(&op.name).is_some_and(column_wise))
    {
        return Vec::new();
    }
    let widths: Vec<usize> = fused
        .args
        .iter()
        .chain(fused.ops.iter().flat_map(|op| &op.results))
        .filter_map(|t| t.shape.last().copied())
        .filter(|w| *w > 1)
        .collect();
    let g = widths.iter().copied().fold(0, gcd);
    let widest = widths.iter().copied().max().unwrap_or(0);
    if g % 16 != 0 {
        return Vec::new();
    }
    // The divisors of g / 16, found in pairs up to its square root: counting down from g / 16
    // took minutes on a 2^40-wide row (a mutated input of the fuzz test hung in dit-auto-fuse).
    let n = g / 16;
    let mut chunks = Vec::new();
    let mut k = 1;
    while k <= n / k {
        if n % k == 0 {
            chunks.push(16 * k);
            if k != n / k {
                chunks.push(16 * (n / k));
            }
        }
        k += 1;
    }
    chunks.retain(|c| *c < widest);
    chunks.sort_unstable_by(|a, b| b.cmp(a));
    chunks
}

/// The body with every last dim `w > 1` split into `[w / chunk, chunk]` (a last dim of 1 into
/// `[1, 1]`): the same bytes, with the chunk index an outer dim, so a row becomes `chunk`
/// elements and a concat along the last dim a concat along the chunk dim. `chunk` comes from
/// [`column_chunks`].
pub fn chunk_columns(fused: &FusedOp, chunk: usize) -> FusedOp {
    let split = |t: &TensorType| {
        let mut shape = t.shape.clone();
        match shape.pop() {
            Some(w) if w > 1 => shape.extend([w / chunk, chunk]),
            Some(w) => shape.extend([w, 1]),
            None => {}
        }
        TensorType::new(t.dtype, shape)
    };
    let mut out = fused.clone();
    out.args = fused.args.iter().map(split).collect();
    let mut types: Vec<TensorType> = fused.args.clone();
    for op in &mut out.ops {
        if OpKind::from_name(&op.name) == Some(OpKind::Concat) {
            // A negative dim counted from the old rank would now name the chunk columns.
            let rank = op.results[0].shape.len() as i64;
            if let Some(AttrValue::Int(d)) = op.attrs.get_mut("dim") {
                if *d < 0 {
                    *d += rank;
                }
            }
        }
        types.extend(op.results.iter().cloned());
        op.results = op.results.iter().map(split).collect();
    }
    out
}

/// Ops that work element by element with operands of the result's shape up to numpy
/// broadcasting: a body of only these may have its last two dims folded ([`fold_inner`]).
const ELEMENTWISE: &[OpKind] = &[
    OpKind::Add,
    OpKind::Sub,
    OpKind::Mul,
    OpKind::Div,
    OpKind::Neg,
    OpKind::Exp,
    OpKind::Sqrt,
    OpKind::Rsqrt,
    OpKind::Tanh,
    OpKind::Erf,
    OpKind::Sigmoid,
    OpKind::Silu,
    OpKind::Relu,
    OpKind::Gelu,
    OpKind::FastGelu,
    OpKind::Cast,
    OpKind::MulsAdd,
    OpKind::SiluMul,
];

/// The body with its last two dims `[a, b]` folded into one row of `a·b` elements, for a body
/// whose rows are narrower than a UB row's 16-element padding (HiDream's rotary groups: x
/// `[S, H, 64, 1]` against cos/sin `[S, 1, 64, 2]`, rows of 1 and 2 elements, so a tile row
/// moved 4 or 8 bytes, was padded to 16 elements, and the tables, following the 64 pairs, were
/// read once per row). Every value must be elementwise (the `ELEMENTWISE` list), of rank ≥ 2, with the
/// same `a > 1` as its next-to-last dim and a last dim of 1 or `b` (the widest, 2..=15): then a
/// folded row of `a` elements against one of `a·b` can only be the `[a, 1]` operand broadcast
/// to `[a, b]`, which [`plan_folded`] plans as [`MicroOp::RepeatEach`]. The bytes are the same
/// (row-major), only the rows change. `None` when the body does not qualify.
pub fn fold_inner(fused: &FusedOp) -> Option<FusedOp> {
    if fused
        .ops
        .iter()
        .any(|op| !OpKind::from_name(&op.name).is_some_and(|k| ELEMENTWISE.contains(&k)))
    {
        return None;
    }
    let all: Vec<&TensorType> = fused
        .args
        .iter()
        .chain(fused.ops.iter().flat_map(|op| &op.results))
        .collect();
    let b = all.iter().filter_map(|t| t.shape.last().copied()).max()?;
    let a = all.first()?.shape.iter().rev().nth(1).copied()?;
    let ok = |t: &TensorType| {
        let n = t.shape.len();
        n >= 2 && t.shape[n - 2] == a && (t.shape[n - 1] == 1 || t.shape[n - 1] == b)
    };
    if !(2..crate::layout::ROW_ALIGN).contains(&b) || a < 2 || !all.iter().all(|t| ok(t)) {
        return None;
    }
    let fold = |t: &TensorType| {
        let mut shape = t.shape.clone();
        let last = shape.pop().expect("rank >= 2");
        let next = shape.pop().expect("rank >= 2");
        shape.push(next * last);
        TensorType::new(t.dtype, shape)
    };
    let mut out = fused.clone();
    out.args = fused.args.iter().map(fold).collect();
    for op in &mut out.ops {
        op.results = op.results.iter().map(fold).collect();
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fused(json: &str) -> FusedOp {
        FusedOp::parse(json).unwrap()
    }

    #[test]
    fn concat_along_an_outer_dim_splits_the_loop() {
        // rms_norm on two sequences, then concat along the sequence: two stages, each reading
        // one operand only, with contiguous rows.
        let f = fused(
            r#"{"kernel": "k", "body": {
            "args": [{"dtype": "bf16", "shape": [1, 2, 8]}, {"dtype": "bf16", "shape": [1, 3, 8]},
                     {"dtype": "bf16", "shape": [8]}],
            "ops": [
              {"name": "dit.rms_norm", "operands": [0, 2], "attrs": {"epsilon": 1e-6},
               "results": [{"dtype": "bf16", "shape": [1, 2, 8]}]},
              {"name": "dit.concat", "operands": [3, 1], "attrs": {"dim": 1},
               "results": [{"dtype": "bf16", "shape": [1, 5, 8]}]}],
            "yield": [4]}}"#,
        );
        let p = plan(&f).unwrap();
        assert_eq!(p.stages.len(), 2);
        assert_eq!(
            (p.stages[0].lo.clone(), p.stages[0].ext.clone()),
            (vec![0], vec![2])
        );
        assert_eq!(
            (p.stages[1].lo.clone(), p.stages[1].ext.clone()),
            (vec![2], vec![3])
        );
        // The second stage only loads argument 1, from its row 0 on, and stores from row 2.
        let loads: Vec<_> = p.stages[1]
            .nodes
            .iter()
            .filter_map(|n| match &n.op {
                MicroOp::Load { arg, rows, .. } => Some((*arg, rows.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(loads.len(), 1);
        assert_eq!(loads[0].0, 1);
        assert_eq!(loads[0].1.base, 0);
        assert!(loads[0].1.contiguous);
        assert_eq!(p.stages[1].stores[0].rows.base, 2);
        // Gamma is invariant in the first stage.
        assert!(p.stages[0]
            .nodes
            .iter()
            .any(|n| n.invariant && matches!(n.op, MicroOp::Load { arg: 2, .. })));
    }

    #[test]
    fn broadcast_tables_follow_their_own_rows() {
        // cos [1, 3, 1, 4] against x [1, 3, 2, 4]: row (s, h) reads cos row s.
        let f = fused(
            r#"{"kernel": "k", "body": {
            "args": [{"dtype": "f32", "shape": [1, 3, 2, 4]}, {"dtype": "f32", "shape": [1, 3, 1, 4]},
                     {"dtype": "f32", "shape": [1, 3, 1, 4]}],
            "ops": [{"name": "dit.rope", "operands": [0, 1, 2], "attrs": {"mode": "interleave"},
                     "results": [{"dtype": "f32", "shape": [1, 3, 2, 4]}]}],
            "yield": [3]}}"#,
        );
        let p = plan(&f).unwrap();
        assert_eq!(p.stages.len(), 1);
        let cos = p.stages[0]
            .nodes
            .iter()
            .find_map(|n| match &n.op {
                MicroOp::Load { arg: 1, rows, .. } => Some(rows.clone()),
                _ => None,
            })
            .unwrap();
        assert_eq!(cos.terms, vec![(0, 1)]);
        assert!(!cos.contiguous);
        // The table does not follow the heads: rows go in groups of 2 (one token's heads), the
        // tables and what the rotations compute of them alone are grouped, x is not, and
        // consecutive groups read consecutive table rows.
        let st = &p.stages[0];
        assert_eq!(st.group, 2);
        for n in &st.nodes {
            match &n.op {
                MicroOp::Load { arg: 0, .. } => assert!(!n.grouped),
                MicroOp::Load { rows, .. } => {
                    assert!(n.grouped);
                    assert!(groups_contiguous(rows, st));
                }
                MicroOp::Rotate { .. } => assert!(!n.grouped),
                _ => {}
            }
        }
        // A table that follows every row is not grouped.
        let f = fused(
            r#"{"kernel": "k", "body": {
            "args": [{"dtype": "f32", "shape": [3, 2, 4]}, {"dtype": "f32", "shape": [3, 2, 4]}],
            "ops": [{"name": "dit.mul", "operands": [0, 1],
                     "results": [{"dtype": "f32", "shape": [3, 2, 4]}]}],
            "yield": [2]}}"#,
        );
        let p = plan(&f).unwrap();
        assert_eq!(p.stages[0].group, 1);
        assert!(p.stages[0].nodes.iter().all(|n| !n.grouped));
    }

    #[test]
    fn refusals_name_the_op() {
        let f = fused(
            r#"{"kernel": "k", "body": {
            "args": [{"dtype": "f32", "shape": [2, 4]}, {"dtype": "f32", "shape": [2, 4]}],
            "ops": [{"name": "dit.pow", "operands": [0, 1],
                     "results": [{"dtype": "f32", "shape": [2, 4]}]}],
            "yield": [2]}}"#,
        );
        let e = plan(&f).unwrap_err().to_string();
        assert!(e.contains("dit.pow"), "{e}");
        let f = fused(
            r#"{"kernel": "k", "body": {
            "args": [{"dtype": "i32", "shape": [2, 4]}],
            "ops": [{"name": "dit.neg", "operands": [0],
                     "results": [{"dtype": "i32", "shape": [2, 4]}]}],
            "yield": [1]}}"#,
        );
        assert!(plan(&f).unwrap_err().to_string().contains("i32"));
    }
}
