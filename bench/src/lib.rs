//! dit-bench: generated FLUX-like graphs in the dit dialect, and the parse + verify + print
//! measurement the `parse_verify_print` benchmark times.
//!
//! The graph is a chain of *units* inside one `func.func`. A unit is what the FLUX.1-dev
//! transformer computes, at the level of primitive ops a frontend emits (nothing fused):
//!
//! * one double-stream (MMDiT) block, op for op as in `examples/flux_double_block.mlir`
//!   (AdaLayerNormZero, q/k/v projections, decomposed RMSNorm on q and k, joint concat,
//!   decomposed RoPE, attention, gated residuals, GELU(tanh) feed-forward);
//! * `torch.cat([encoder_hidden_states, hidden_states], dim=1)` as the transformer does it
//!   before its single-stream blocks;
//! * [`Config::singles_per_unit`] single-stream blocks (diffusers `FluxSingleTransformerBlock`:
//!   AdaLayerNormZeroSingle, proj_mlp + GELU(tanh), attention with RMSNorm and RoPE and no
//!   output projection, concat with the MLP branch, proj_out, gated residual);
//! * slicing the joint sequence back into the text and image streams, which feed the next unit.
//!
//! Every shape is exact, so the dit verifier checks each op's shape rule. Concats are 2-way
//! (mlir-opt's IRDL dialect takes one free operand plus same-typed rest) and nothing uses
//! `dit.opaque` or `dit.fused`, so `mlir-opt --irdl-file=bench/peer/dit.irdl.mlir` accepts the
//! same text.

pub mod kernel_model;
pub mod process;

use dit_dialect::{ir::Op, verifier};
use dit_ops::OpKind;

/// The peer's definition of the dialect: the hand-written IRDL approximation that dit itself
/// loaded before the ODS definition (dialects/dit/include/dit/DitOps.td). Upstream mlir-opt has
/// no other way to load dit until the dialect plugin exists, and `tblgen-to-irdl` output of
/// the ODS file does not load there (it names `!builtin.float`, and `irdl.c_pred` is not
/// checked).
pub const PEER_IRDL: &str = include_str!("../peer/dit.irdl.mlir");
use melior::{ir::Module, Context};
use std::{
    fmt::{self, Write as _},
    time::{Duration, Instant},
};

/// Element types the generated graph uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elem {
    BF16,
    F32,
}

impl fmt::Display for Elem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Elem::BF16 => "bf16",
            Elem::F32 => "f32",
        })
    }
}

/// A ranked tensor type with static shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ty {
    pub shape: Vec<i64>,
    pub elem: Elem,
}

impl Ty {
    pub fn new(shape: &[i64], elem: Elem) -> Ty {
        Ty {
            shape: shape.to_vec(),
            elem,
        }
    }

    fn with_shape(&self, shape: &[i64]) -> Ty {
        Ty::new(shape, self.elem)
    }

    fn with_elem(&self, elem: Elem) -> Ty {
        Ty {
            shape: self.shape.clone(),
            elem,
        }
    }

    fn num_elements(&self) -> i64 {
        self.shape.iter().product()
    }
}

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("tensor<")?;
        for d in &self.shape {
            write!(f, "{d}x")?;
        }
        write!(f, "{}>", self.elem)
    }
}

/// An SSA value of the generated text: its name (without `%`) and type.
#[derive(Clone, Debug)]
struct Val {
    name: String,
    ty: Ty,
}

/// Model dimensions and the shape of a unit. [`Config::FLUX_DEV`] is FLUX.1-dev at 1024x1024.
#[derive(Clone, Debug)]
pub struct Config {
    /// Model width (heads x head_dim).
    pub hidden: i64,
    pub heads: i64,
    pub head_dim: i64,
    /// Image tokens (packed 2x2 latent patches).
    pub img_tokens: i64,
    /// Text (T5) tokens.
    pub txt_tokens: i64,
    /// Feed-forward / proj_mlp width.
    pub mlp_hidden: i64,
    /// Single-stream blocks after the double-stream block in each unit.
    pub singles_per_unit: usize,
}

impl Config {
    /// FLUX.1-dev: hidden 3072 = 24 x 128, FFN 12288, 4096 image + 512 text tokens. FLUX has
    /// 19 double and 38 single blocks (1:2); a unit of 1 double + 2 single blocks comes to
    /// 310 ops, so the unit takes 3 single blocks to pass the 313 ops per block
    /// (64 blocks > 20,000 ops).
    pub const FLUX_DEV: Config = Config {
        hidden: 3072,
        heads: 24,
        head_dim: 128,
        img_tokens: 4096,
        txt_tokens: 512,
        mlp_hidden: 12288,
        singles_per_unit: 3,
    };

    fn joint_tokens(&self) -> i64 {
        self.txt_tokens + self.img_tokens
    }
}

impl Default for Config {
    fn default() -> Self {
        Config::FLUX_DEV
    }
}

/// A generated module.
#[derive(Clone, Debug)]
pub struct Graph {
    /// The MLIR text (one `func.func` in a `module`).
    pub text: String,
    /// Units (blocks) chained in the function.
    pub blocks: usize,
    /// Ops in the function body: dit ops and `arith.constant`s, not `func.return`.
    pub ops: usize,
    /// Function arguments (activations, temb, RoPE tables, weights).
    pub args: usize,
}

impl Graph {
    /// Body ops per block.
    pub fn ops_per_block(&self) -> usize {
        self.ops / self.blocks.max(1)
    }
}

/// Writes the function body one op at a time, tracking types and the op count.
struct Builder {
    body: String,
    ops: usize,
    args: Vec<Val>,
    /// Prepended to every value and weight name of the current block, e.g. `u3_d_`.
    prefix: String,
}

impl Builder {
    fn new() -> Builder {
        Builder {
            body: String::new(),
            ops: 0,
            args: Vec::new(),
            prefix: String::new(),
        }
    }

    /// A function argument shared by all blocks (activations, temb, RoPE tables).
    fn shared_arg(&mut self, name: &str, ty: Ty) -> Val {
        let v = Val {
            name: name.to_string(),
            ty,
        };
        self.args.push(v.clone());
        v
    }

    /// A weight of the current block, a function argument.
    fn weight(&mut self, name: &str, shape: &[i64]) -> Val {
        let v = Val {
            name: format!("{}{name}", self.prefix),
            ty: Ty::new(shape, Elem::BF16),
        };
        self.args.push(v.clone());
        v
    }

    fn result(&self, name: &str, ty: Ty) -> Val {
        Val {
            name: format!("{}{name}", self.prefix),
            ty,
        }
    }

    /// Emits `results = "op"(operands) {attrs} : (types) -> types`.
    fn emit(&mut self, results: &[Val], op: &str, operands: &[&Val], attrs: &str) {
        let b = &mut self.body;
        b.push_str("    ");
        for (i, r) in results.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            let _ = write!(b, "{sep}%{}", r.name);
        }
        let _ = write!(b, " = \"{op}\"(");
        for (i, o) in operands.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            let _ = write!(b, "{sep}%{}", o.name);
        }
        b.push(')');
        if !attrs.is_empty() {
            let _ = write!(b, " {{{attrs}}}");
        }
        b.push_str(" : (");
        for (i, o) in operands.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            let _ = write!(b, "{sep}{}", o.ty);
        }
        b.push_str(") -> ");
        if results.len() == 1 {
            let _ = write!(b, "{}", results[0].ty);
        } else {
            b.push('(');
            for (i, r) in results.iter().enumerate() {
                let sep = if i == 0 { "" } else { ", " };
                let _ = write!(b, "{sep}{}", r.ty);
            }
            b.push(')');
        }
        b.push('\n');
        self.ops += 1;
    }

    fn op(&mut self, name: &str, op: &str, operands: &[&Val], attrs: &str, ty: Ty) -> Val {
        let r = self.result(name, ty);
        self.emit(std::slice::from_ref(&r), op, operands, attrs);
        r
    }

    /// A rank-0 splat constant.
    fn constant(&mut self, name: &str, value: &str, elem: Elem) -> Val {
        let r = self.result(name, Ty::new(&[], elem));
        let _ = writeln!(
            self.body,
            "    %{} = arith.constant dense<{value}> : {}",
            r.name, r.ty
        );
        self.ops += 1;
        r
    }

    // ----- primitive dit ops, with their result types -----

    fn unary(&mut self, name: &str, op: &str, x: &Val) -> Val {
        self.op(name, op, &[x], "", x.ty.clone())
    }

    fn binary(&mut self, name: &str, op: &str, a: &Val, b: &Val) -> Val {
        let ty = a.ty.with_shape(&broadcast(&a.ty.shape, &b.ty.shape));
        assert_eq!(a.ty.elem, b.ty.elem, "{name}: {op} on mixed element types");
        self.op(name, op, &[a, b], "", ty)
    }

    fn add(&mut self, name: &str, a: &Val, b: &Val) -> Val {
        self.binary(name, OpKind::Add.name(), a, b)
    }

    fn mul(&mut self, name: &str, a: &Val, b: &Val) -> Val {
        self.binary(name, OpKind::Mul.name(), a, b)
    }

    fn cast(&mut self, name: &str, x: &Val, elem: Elem) -> Val {
        self.op(name, OpKind::Cast.name(), &[x], "", x.ty.with_elem(elem))
    }

    fn reshape(&mut self, name: &str, x: &Val, shape: &[i64]) -> Val {
        let ty = x.ty.with_shape(shape);
        assert_eq!(
            ty.num_elements(),
            x.ty.num_elements(),
            "{name}: reshape changes the element count"
        );
        self.op(name, OpKind::Reshape.name(), &[x], "", ty)
    }

    fn transpose(&mut self, name: &str, x: &Val, perm: &[i64]) -> Val {
        let shape: Vec<i64> = perm.iter().map(|&p| x.ty.shape[p as usize]).collect();
        let attrs = format!("perm = array<i64: {}>", join(perm));
        self.op(
            name,
            OpKind::Transpose.name(),
            &[x],
            &attrs,
            x.ty.with_shape(&shape),
        )
    }

    fn linear(&mut self, name: &str, x: &Val, weight: &Val, bias: &Val) -> Val {
        let mut shape = x.ty.shape.clone();
        *shape.last_mut().expect("linear input has rank >= 1") = weight.ty.shape[0];
        assert_eq!(
            x.ty.shape.last(),
            weight.ty.shape.get(1),
            "{name}: linear contraction mismatch"
        );
        let attrs = "operandSegmentSizes = array<i32: 1, 1, 1>";
        self.op(
            name,
            OpKind::Linear.name(),
            &[x, weight, bias],
            attrs,
            x.ty.with_shape(&shape),
        )
    }

    /// `nn.Linear(k, n)` named like the diffusers module: weight `[n, k]` and bias `[n]`
    /// become function arguments `<module>_weight` / `<module>_bias`.
    fn linear_module(&mut self, name: &str, x: &Val, module: &str, n: i64) -> Val {
        let k = *x.ty.shape.last().expect("linear input has rank >= 1");
        let w = self.weight(&format!("{module}_weight"), &[n, k]);
        let b = self.weight(&format!("{module}_bias"), &[n]);
        self.linear(name, x, &w, &b)
    }

    fn layer_norm(&mut self, name: &str, x: &Val) -> Val {
        let attrs = "epsilon = 1.000000e-06 : f32, operandSegmentSizes = array<i32: 1, 0, 0>";
        self.op(name, OpKind::LayerNorm.name(), &[x], attrs, x.ty.clone())
    }

    fn gelu_tanh(&mut self, name: &str, x: &Val) -> Val {
        self.op(
            name,
            OpKind::Gelu.name(),
            &[x],
            "approximate = \"tanh\"",
            x.ty.clone(),
        )
    }

    fn reduce_mean_last(&mut self, name: &str, x: &Val) -> Val {
        let rank = x.ty.shape.len();
        let mut shape = x.ty.shape.clone();
        shape[rank - 1] = 1;
        let attrs = format!("dims = array<i64: {}>, keepdim = true", rank - 1);
        self.op(
            name,
            OpKind::ReduceMean.name(),
            &[x],
            &attrs,
            x.ty.with_shape(&shape),
        )
    }

    fn split(&mut self, names: &[&str], x: &Val, dim: usize, sizes: &[i64]) -> Vec<Val> {
        assert_eq!(names.len(), sizes.len());
        assert_eq!(
            sizes.iter().sum::<i64>(),
            x.ty.shape[dim],
            "split sizes must cover the dimension"
        );
        let results: Vec<Val> = names
            .iter()
            .zip(sizes)
            .map(|(n, &s)| {
                let mut shape = x.ty.shape.clone();
                shape[dim] = s;
                self.result(n, x.ty.with_shape(&shape))
            })
            .collect();
        let attrs = format!("dim = {dim} : i64, sizes = array<i64: {}>", join(sizes));
        self.emit(&results, OpKind::Split.name(), &[x], &attrs);
        results
    }

    /// A 2-way concat (the form mlir-opt's IRDL loader accepts: a free first operand).
    fn concat(&mut self, name: &str, a: &Val, b: &Val, dim: usize) -> Val {
        let mut shape = a.ty.shape.clone();
        shape[dim] += b.ty.shape[dim];
        self.op(
            name,
            OpKind::Concat.name(),
            &[a, b],
            &format!("dim = {dim} : i64"),
            a.ty.with_shape(&shape),
        )
    }

    fn slice(&mut self, name: &str, x: &Val, dim: usize, start: i64, end: i64) -> Val {
        let mut shape = x.ty.shape.clone();
        shape[dim] = end - start;
        let attrs =
            format!("dim = {dim} : i64, start = {start} : i64, end = {end} : i64, step = 1 : i64");
        self.op(
            name,
            OpKind::Slice.name(),
            &[x],
            &attrs,
            x.ty.with_shape(&shape),
        )
    }

    fn attention(&mut self, name: &str, q: &Val, k: &Val, v: &Val, head_dim: i64) -> Val {
        let scale = 1.0 / (head_dim as f64).sqrt();
        let attrs = format!("scale = {scale:.10} : f32, layout = \"BNSD\", operandSegmentSizes = array<i32: 1, 1, 1, 0>");
        self.op(
            name,
            OpKind::Attention.name(),
            &[q, k, v],
            &attrs,
            q.ty.clone(),
        )
    }
}

/// NumPy broadcasting of two static shapes (the generator only builds valid ones).
fn broadcast(a: &[i64], b: &[i64]) -> Vec<i64> {
    let rank = a.len().max(b.len());
    (0..rank)
        .map(|i| {
            let da = if i + a.len() >= rank {
                a[i + a.len() - rank]
            } else {
                1
            };
            let db = if i + b.len() >= rank {
                b[i + b.len() - rank]
            } else {
                1
            };
            assert!(
                da == db || da == 1 || db == 1,
                "shapes {a:?} and {b:?} do not broadcast"
            );
            da.max(db)
        })
        .collect()
}

fn join(values: &[i64]) -> String {
    values
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The per-block scalar constants a frontend emits.
struct Consts {
    one: Val,
    two: Val,
    rms_eps: Val,
}

fn consts(b: &mut Builder) -> Consts {
    Consts {
        one: b.constant("one", "1.000000e+00", Elem::BF16),
        two: b.constant("two", "2.000000e+00", Elem::F32),
        rms_eps: b.constant("rms_eps", "1.000000e-06", Elem::F32),
    }
}

/// Shared function arguments: the RoPE tables and temb.
struct Shared {
    temb: Val,
    rope_cos: Val,
    rope_sin: Val,
}

/// AdaLayerNormZero / AdaLayerNormZeroSingle: `emb = linear(silu(temb))`, chunked into
/// `chunks` pieces; returns `norm(x) * (1 + scale_msa[:, None]) + shift_msa[:, None]` and the chunks.
#[allow(clippy::too_many_arguments)]
fn ada_norm_zero(
    b: &mut Builder,
    cfg: &Config,
    tag: &str,
    x: &Val,
    temb: &Val,
    module: &str,
    c: &Consts,
    chunks: &[&str],
) -> (Val, Vec<Val>) {
    let h = cfg.hidden;
    let silu = b.unary(&format!("{tag}silu"), OpKind::Silu.name(), temb);
    let emb = b.linear_module(&format!("{tag}emb"), &silu, module, h * chunks.len() as i64);
    let names: Vec<String> = chunks.iter().map(|n| format!("{tag}{n}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let parts = b.split(&names, &emb, 1, &vec![h; chunks.len()]);
    let normed = b.layer_norm(&format!("{tag}norm1"), x);
    let modulated = modulate(
        b,
        cfg,
        &format!("{tag}msa_"),
        &normed,
        &parts[1],
        &parts[0],
        c,
    );
    (modulated, parts)
}

/// `x * (1 + scale[:, None]) + shift[:, None]`.
fn modulate(
    b: &mut Builder,
    cfg: &Config,
    tag: &str,
    x: &Val,
    scale: &Val,
    shift: &Val,
    c: &Consts,
) -> Val {
    let h = cfg.hidden;
    let scale_b = b.reshape(&format!("{tag}scale_b"), scale, &[1, 1, h]);
    let one_plus = b.add(&format!("{tag}one_plus_scale"), &c.one, &scale_b);
    let scaled = b.mul(&format!("{tag}scaled"), x, &one_plus);
    let shift_b = b.reshape(&format!("{tag}shift_b"), shift, &[1, 1, h]);
    b.add(&format!("{tag}mod"), &scaled, &shift_b)
}

/// `.view(1, -1, heads, head_dim).transpose(1, 2)`: `[1,S,H]` -> `[1,heads,S,head_dim]`.
fn to_heads(b: &mut Builder, cfg: &Config, name: &str, x: &Val) -> Val {
    let s = x.ty.shape[1];
    let bshd = b.reshape(&format!("{name}_bshd"), x, &[1, s, cfg.heads, cfg.head_dim]);
    b.transpose(name, &bshd, &[0, 2, 1, 3])
}

/// `.transpose(1, 2).reshape(1, -1, heads * head_dim)`.
fn from_heads(b: &mut Builder, cfg: &Config, name: &str, x: &Val) -> Val {
    let s = x.ty.shape[2];
    let bsnd = b.transpose(&format!("{name}_bsnd"), x, &[0, 2, 1, 3]);
    b.reshape(&format!("{name}_flat"), &bsnd, &[1, s, cfg.hidden])
}

/// diffusers RMSNorm(head_dim, eps=1e-6), decomposed: var = x.float().pow(2).mean(-1, keepdim);
/// x * rsqrt(var + eps) in f32; .to(bf16); * weight.
fn rms_norm(b: &mut Builder, tag: &str, x: &Val, weight_module: &str, c: &Consts) -> Val {
    let weight = b.weight(
        &format!("{weight_module}_weight"),
        &[*x.ty.shape.last().expect("rank >= 1")],
    );
    let f32_ = b.cast(&format!("{tag}rms_f32"), x, Elem::F32);
    let sq = b.binary(&format!("{tag}rms_sq"), OpKind::Pow.name(), &f32_, &c.two);
    let var = b.reduce_mean_last(&format!("{tag}rms_var"), &sq);
    let var_eps = b.add(&format!("{tag}rms_var_eps"), &var, &c.rms_eps);
    let rstd = b.unary(&format!("{tag}rms_rstd"), OpKind::Rsqrt.name(), &var_eps);
    let scaled = b.mul(&format!("{tag}rms_scaled"), &f32_, &rstd);
    let bf16 = b.cast(&format!("{tag}rms_bf16"), &scaled, Elem::BF16);
    b.mul(&format!("{tag}normed"), &bf16, &weight)
}

/// diffusers apply_rotary_emb(use_real=True, use_real_unbind_dim=-1) on `[1,heads,S,D]`:
/// x_real, x_imag = x.reshape(..., D/2, 2).unbind(-1); rotated = stack([-x_imag, x_real], -1).flatten(3);
/// (x.float() * cos + rotated.float() * sin).to(x.dtype).
fn rope(b: &mut Builder, tag: &str, x: &Val, shared: &Shared) -> Val {
    let (heads, s, d) = (x.ty.shape[1], x.ty.shape[2], x.ty.shape[3]);
    let cos = b.reshape(&format!("{tag}rope_cos"), &shared.rope_cos, &[1, 1, s, d]);
    let sin = b.reshape(&format!("{tag}rope_sin"), &shared.rope_sin, &[1, 1, s, d]);
    let pairs = b.reshape(&format!("{tag}rope_pairs"), x, &[1, heads, s, d / 2, 2]);
    let real_imag = b.split(
        &[&format!("{tag}rope_real1"), &format!("{tag}rope_imag1")],
        &pairs,
        4,
        &[1, 1],
    );
    let real = b.reshape(
        &format!("{tag}rope_real"),
        &real_imag[0],
        &[1, heads, s, d / 2],
    );
    let imag = b.reshape(
        &format!("{tag}rope_imag"),
        &real_imag[1],
        &[1, heads, s, d / 2],
    );
    let neg_imag = b.unary(&format!("{tag}rope_neg_imag"), OpKind::Neg.name(), &imag);
    let stk0 = b.reshape(
        &format!("{tag}rope_stk0"),
        &neg_imag,
        &[1, heads, s, d / 2, 1],
    );
    let stk1 = b.reshape(&format!("{tag}rope_stk1"), &real, &[1, heads, s, d / 2, 1]);
    let stacked = b.concat(&format!("{tag}rope_stacked"), &stk0, &stk1, 4);
    let rotated = b.reshape(&format!("{tag}rope_rotated"), &stacked, &[1, heads, s, d]);
    let x_f32 = b.cast(&format!("{tag}rope_x_f32"), x, Elem::F32);
    let x_cos = b.mul(&format!("{tag}rope_x_cos"), &x_f32, &cos);
    let rot_f32 = b.cast(&format!("{tag}rope_rot_f32"), &rotated, Elem::F32);
    let rot_sin = b.mul(&format!("{tag}rope_rot_sin"), &rot_f32, &sin);
    let sum = b.add(&format!("{tag}rope_sum"), &x_cos, &rot_sin);
    b.cast(&format!("{tag}rope"), &sum, Elem::BF16)
}

/// `residual + gate.unsqueeze(1) * y`.
fn gated_residual(
    b: &mut Builder,
    cfg: &Config,
    tag: &str,
    residual: &Val,
    gate: &Val,
    y: &Val,
) -> Val {
    let gate_b = b.reshape(&format!("{tag}gate_b"), gate, &[1, 1, cfg.hidden]);
    let gated = b.mul(&format!("{tag}gated"), &gate_b, y);
    b.add(&format!("{tag}resid"), residual, &gated)
}

/// Projections, head split and q/k RMSNorm of one stream: returns (q, k, v) in BNSD.
#[allow(clippy::too_many_arguments)]
fn qkv(
    b: &mut Builder,
    cfg: &Config,
    tag: &str,
    x: &Val,
    proj: [&str; 3],
    norms: [&str; 2],
    c: &Consts,
) -> (Val, Val, Val) {
    let h = cfg.hidden;
    let q_proj = b.linear_module(&format!("{tag}q_proj"), x, proj[0], h);
    let k_proj = b.linear_module(&format!("{tag}k_proj"), x, proj[1], h);
    let v_proj = b.linear_module(&format!("{tag}v_proj"), x, proj[2], h);
    let q = to_heads(b, cfg, &format!("{tag}q"), &q_proj);
    let k = to_heads(b, cfg, &format!("{tag}k"), &k_proj);
    let v = to_heads(b, cfg, &format!("{tag}v"), &v_proj);
    let q = rms_norm(b, &format!("{tag}q_"), &q, norms[0], c);
    let k = rms_norm(b, &format!("{tag}k_"), &k, norms[1], c);
    (q, k, v)
}

const ADA_ZERO_CHUNKS: [&str; 6] = [
    "shift_msa",
    "scale_msa",
    "gate_msa",
    "shift_mlp",
    "scale_mlp",
    "gate_mlp",
];
const ADA_ZERO_SINGLE_CHUNKS: [&str; 3] = ["shift_msa", "scale_msa", "gate_msa"];

/// FluxTransformerBlock (double stream, diffusers v0.32.2), as in
/// `examples/flux_double_block.mlir`. Returns (encoder_hidden_states, hidden_states).
fn double_block(
    b: &mut Builder,
    cfg: &Config,
    txt: &Val,
    img: &Val,
    shared: &Shared,
) -> (Val, Val) {
    let c = consts(b);
    let (img_mod, img_emb) = ada_norm_zero(
        b,
        cfg,
        "img_",
        img,
        &shared.temb,
        "norm1_linear",
        &c,
        &ADA_ZERO_CHUNKS,
    );
    let (txt_mod, txt_emb) = ada_norm_zero(
        b,
        cfg,
        "txt_",
        txt,
        &shared.temb,
        "norm1_context_linear",
        &c,
        &ADA_ZERO_CHUNKS,
    );

    let (img_q, img_k, img_v) = qkv(
        b,
        cfg,
        "img_",
        &img_mod,
        ["attn_to_q", "attn_to_k", "attn_to_v"],
        ["attn_norm_q", "attn_norm_k"],
        &c,
    );
    let (txt_q, txt_k, txt_v) = qkv(
        b,
        cfg,
        "txt_",
        &txt_mod,
        ["attn_add_q_proj", "attn_add_k_proj", "attn_add_v_proj"],
        ["attn_norm_added_q", "attn_norm_added_k"],
        &c,
    );
    // torch.cat([text, image], dim=2)
    let joint_q = b.concat("joint_q", &txt_q, &img_q, 2);
    let joint_k = b.concat("joint_k", &txt_k, &img_k, 2);
    let joint_v = b.concat("joint_v", &txt_v, &img_v, 2);
    let q = rope(b, "q_", &joint_q, shared);
    let k = rope(b, "k_", &joint_k, shared);
    let attn = b.attention("attn", &q, &k, &joint_v, cfg.head_dim);
    let attn_flat = from_heads(b, cfg, "attn", &attn);
    let (t, s) = (cfg.txt_tokens, cfg.joint_tokens());
    let txt_attn = b.slice("txt_attn", &attn_flat, 1, 0, t);
    let img_attn = b.slice("img_attn", &attn_flat, 1, t, s);
    let img_attn_out = b.linear_module("img_attn_out", &img_attn, "attn_to_out_0", cfg.hidden);
    let txt_attn_out = b.linear_module("txt_attn_out", &txt_attn, "attn_to_add_out", cfg.hidden);

    let img_out = stream_tail(b, cfg, "img_", img, &img_attn_out, &img_emb, "ff", &c);
    let txt_out = stream_tail(
        b,
        cfg,
        "txt_",
        txt,
        &txt_attn_out,
        &txt_emb,
        "ff_context",
        &c,
    );
    (txt_out, img_out)
}

/// One stream after attention: gated residual, norm2 + modulation, GELU(tanh) FFN, gated residual.
#[allow(clippy::too_many_arguments)]
fn stream_tail(
    b: &mut Builder,
    cfg: &Config,
    tag: &str,
    x: &Val,
    attn_out: &Val,
    emb: &[Val],
    ff: &str,
    c: &Consts,
) -> Val {
    let (_shift_msa, _scale_msa, gate_msa, shift_mlp, scale_mlp, gate_mlp) =
        (&emb[0], &emb[1], &emb[2], &emb[3], &emb[4], &emb[5]);
    let resid1 = gated_residual(b, cfg, &format!("{tag}attn_"), x, gate_msa, attn_out);
    let norm2 = b.layer_norm(&format!("{tag}norm2"), &resid1);
    let mlp_mod = modulate(
        b,
        cfg,
        &format!("{tag}mlp_"),
        &norm2,
        scale_mlp,
        shift_mlp,
        c,
    );
    let proj = b.linear_module(
        &format!("{tag}ff_proj"),
        &mlp_mod,
        &format!("{ff}_net_0_proj"),
        cfg.mlp_hidden,
    );
    let gelu = b.gelu_tanh(&format!("{tag}ff_gelu"), &proj);
    let ff_out = b.linear_module(
        &format!("{tag}ff_out"),
        &gelu,
        &format!("{ff}_net_2"),
        cfg.hidden,
    );
    gated_residual(b, cfg, &format!("{tag}ff_"), &resid1, gate_mlp, &ff_out)
}

/// FluxSingleTransformerBlock (diffusers v0.32.2) on the joint sequence `[1, txt+img, H]`.
fn single_block(b: &mut Builder, cfg: &Config, x: &Val, shared: &Shared) -> Val {
    let c = consts(b);
    let (x_mod, emb) = ada_norm_zero(
        b,
        cfg,
        "",
        x,
        &shared.temb,
        "norm_linear",
        &c,
        &ADA_ZERO_SINGLE_CHUNKS,
    );
    let mlp = b.linear_module("mlp_proj", &x_mod, "proj_mlp", cfg.mlp_hidden);
    let mlp_act = b.gelu_tanh("mlp_gelu", &mlp);
    // Attention(pre_only=True): no to_out; no encoder_hidden_states.
    let (q, k, v) = qkv(
        b,
        cfg,
        "",
        &x_mod,
        ["attn_to_q", "attn_to_k", "attn_to_v"],
        ["attn_norm_q", "attn_norm_k"],
        &c,
    );
    let q = rope(b, "q_", &q, shared);
    let k = rope(b, "k_", &k, shared);
    let attn = b.attention("attn", &q, &k, &v, cfg.head_dim);
    let attn_flat = from_heads(b, cfg, "attn", &attn);
    // torch.cat([attn_output, mlp_hidden_states], dim=2); gate * proj_out(...); residual
    let cat = b.concat("attn_mlp", &attn_flat, &mlp_act, 2);
    let proj = b.linear_module("proj_out", &cat, "proj_out", cfg.hidden);
    gated_residual(b, cfg, "", x, &emb[2], &proj)
}

/// Generates `blocks` chained units with [`Config::FLUX_DEV`].
pub fn generate(blocks: usize) -> Graph {
    generate_with(&Config::FLUX_DEV, blocks)
}

/// Generates `blocks` chained units: unit i's (text, image) outputs are unit i+1's inputs.
pub fn generate_with(cfg: &Config, blocks: usize) -> Graph {
    assert_eq!(
        cfg.heads * cfg.head_dim,
        cfg.hidden,
        "hidden must be heads x head_dim"
    );
    let (h, t, i, s) = (
        cfg.hidden,
        cfg.txt_tokens,
        cfg.img_tokens,
        cfg.joint_tokens(),
    );
    let mut b = Builder::new();
    let mut img = b.shared_arg("hidden_states", Ty::new(&[1, i, h], Elem::BF16));
    let mut txt = b.shared_arg("encoder_hidden_states", Ty::new(&[1, t, h], Elem::BF16));
    let shared = Shared {
        temb: b.shared_arg("temb", Ty::new(&[1, h], Elem::BF16)),
        rope_cos: b.shared_arg("rope_cos", Ty::new(&[s, cfg.head_dim], Elem::F32)),
        rope_sin: b.shared_arg("rope_sin", Ty::new(&[s, cfg.head_dim], Elem::F32)),
    };
    for unit in 0..blocks {
        let _ = writeln!(
            b.body,
            "    // ---- unit {unit}: double-stream block, {} single-stream blocks",
            cfg.singles_per_unit
        );
        b.prefix = format!("u{unit}_d_");
        let (t_out, i_out) = double_block(&mut b, cfg, &txt, &img, &shared);
        b.prefix = format!("u{unit}_");
        let mut joint = b.concat("joint", &t_out, &i_out, 1);
        for single in 0..cfg.singles_per_unit {
            b.prefix = format!("u{unit}_s{single}_");
            joint = single_block(&mut b, cfg, &joint, &shared);
        }
        b.prefix = format!("u{unit}_");
        txt = b.slice("txt_out", &joint, 1, 0, t);
        img = b.slice("img_out", &joint, 1, t, s);
    }

    let mut text = String::with_capacity(b.body.len() + b.args.len() * 64 + 512);
    let _ = writeln!(
        text,
        "// Generated by dit-bench: {blocks} FLUX.1-dev-like unit(s) (1 double-stream + {} single-stream blocks each), {} ops.",
        cfg.singles_per_unit, b.ops
    );
    text.push_str("module {\n  func.func @flux_units(\n");
    for (n, a) in b.args.iter().enumerate() {
        let sep = if n + 1 == b.args.len() { "" } else { "," };
        let _ = writeln!(text, "      %{}: {}{sep}", a.name, a.ty);
    }
    let _ = writeln!(text, "  ) -> ({}, {}) {{", txt.ty, img.ty);
    text.push_str(&b.body);
    let _ = writeln!(
        text,
        "    func.return %{}, %{} : {}, {}",
        txt.name, img.name, txt.ty, img.ty
    );
    text.push_str("  }\n}\n");
    Graph {
        text,
        blocks,
        ops: b.ops,
        args: b.args.len(),
    }
}

/// Time spent in each phase of one parse + verify + print.
#[derive(Clone, Copy, Debug, Default)]
pub struct PhaseTimes {
    pub parse: Duration,
    pub verify: Duration,
    pub print: Duration,
}

impl PhaseTimes {
    pub fn total(&self) -> Duration {
        self.parse + self.verify + self.print
    }
}

/// What one in-process run found.
#[derive(Clone, Debug)]
pub struct RunResult {
    pub times: PhaseTimes,
    /// dit verifier violations (rendered).
    pub violations: Vec<String>,
    /// Length of the printed module.
    pub printed_len: usize,
}

/// Parses `text` (`dit_dialect::parse_module`), runs the dit verifier and prints the module to a
/// string, as dit-opt does. `Err` when the text does not parse.
pub fn parse_verify_print(context: &Context, text: &str) -> Result<RunResult, String> {
    let start = Instant::now();
    // The dit rules are timed apart, below: the parse leaves them out.
    let module =
        dit_dialect::parse_module(context, text).ok_or("the generated module does not parse")?;
    let parsed = Instant::now();
    let violations = verifier::verify(Op::of_module(&module));
    let verified = Instant::now();
    let printed = dit_dialect::ir::Op::of_module(&module).print_verified(Default::default());
    let done = Instant::now();
    Ok(RunResult {
        times: PhaseTimes {
            parse: parsed - start,
            verify: verified - parsed,
            print: done - verified,
        },
        violations: violations.iter().map(|v| v.text()).collect(),
        printed_len: printed.len(),
    })
}

/// Ops in a parsed module, the module op itself included.
pub fn count_ops(module: &Module) -> usize {
    let mut n = 0;
    Op::of_module(module).walk(&mut |_| n += 1);
    n
}

/// The median of `samples` (which must not be empty).
pub fn median(samples: &[Duration]) -> Duration {
    let mut s = samples.to_vec();
    s.sort();
    let n = s.len();
    if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_block_parses_and_verifies() {
        let g = generate(1);
        assert!(
            g.ops_per_block() > 313,
            "a block has {} ops, needs > 313",
            g.ops_per_block()
        );
        let context = dit_dialect::new_context().expect("dialect loads");
        let module = Module::parse(&context, &g.text).expect("the generated 1-block graph parses");
        // module + func.func + func.return besides the body ops.
        assert_eq!(count_ops(&module), g.ops + 3);
        let violations = verifier::verify(Op::of_module(&module));
        let texts: Vec<String> = violations.iter().map(|v| v.text()).collect();
        assert!(texts.is_empty(), "dit verifier violations: {texts:#?}");
    }

    #[test]
    fn blocks_chain_and_scale_linearly() {
        let one = generate(1);
        let three = generate(3);
        assert_eq!(three.ops, 3 * one.ops);
        assert!(generate(64).ops > 20_000);
        let context = dit_dialect::new_context().expect("dialect loads");
        let r = parse_verify_print(&context, &three.text).expect("the 3-block graph parses");
        assert!(
            r.violations.is_empty(),
            "dit verifier violations: {:#?}",
            r.violations
        );
        assert!(r.printed_len > 0);
    }

    #[test]
    fn double_block_matches_the_example_op_count() {
        // examples/flux_double_block.mlir: 145 ops including its 3 constants.
        let cfg = Config::FLUX_DEV;
        let mut b = Builder::new();
        let x = b.shared_arg("x", Ty::new(&[1, cfg.img_tokens, cfg.hidden], Elem::BF16));
        let c = b.shared_arg("c", Ty::new(&[1, cfg.txt_tokens, cfg.hidden], Elem::BF16));
        let shared = Shared {
            temb: b.shared_arg("temb", Ty::new(&[1, cfg.hidden], Elem::BF16)),
            rope_cos: b.shared_arg(
                "cos",
                Ty::new(&[cfg.joint_tokens(), cfg.head_dim], Elem::F32),
            ),
            rope_sin: b.shared_arg(
                "sin",
                Ty::new(&[cfg.joint_tokens(), cfg.head_dim], Elem::F32),
            ),
        };
        double_block(&mut b, &cfg, &c, &x, &shared);
        assert_eq!(b.ops, 145);
        assert_eq!(b.args.len(), 5 + 32);
    }

    #[test]
    fn only_two_way_concats_and_no_region_ops() {
        let g = generate(2);
        assert!(!g.text.contains("dit.opaque") && !g.text.contains("dit.fused"));
        for line in g.text.lines().filter(|l| l.contains("\"dit.concat\"")) {
            let operands = line
                .split("\"dit.concat\"(")
                .nth(1)
                .and_then(|r| r.split(')').next())
                .unwrap_or("");
            assert_eq!(
                operands.matches('%').count(),
                2,
                "not a 2-way concat: {line}"
            );
        }
    }

    /// The peer accepts the same text (skipped when MLIR 22's mlir-opt is not installed).
    #[test]
    fn mlir_opt_accepts_the_graph() {
        let mlir_opt = std::path::Path::new("/usr/lib/llvm-22/bin/mlir-opt");
        if !mlir_opt.exists() {
            eprintln!("mlir-opt not installed; skipped");
            return;
        }
        let dir = tempfile::tempdir().expect("temp dir");
        let irdl = dir.path().join("dit.irdl.mlir");
        let input = dir.path().join("graph.mlir");
        std::fs::write(&irdl, PEER_IRDL).expect("write irdl");
        std::fs::write(&input, generate(1).text).expect("write graph");
        let out = std::process::Command::new(mlir_opt)
            .arg(format!("--irdl-file={}", irdl.display()))
            .arg(&input)
            .args(["-o", "/dev/null"])
            .output()
            .expect("run mlir-opt");
        assert!(
            out.status.success(),
            "mlir-opt rejected the graph:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
