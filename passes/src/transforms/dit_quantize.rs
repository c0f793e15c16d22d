//! `dit-quantize`: W8A8 quantization of selected float `dit.linear` ops (issue 3, item 4,
//! path A). Each selected f16/bf16 linear becomes per-token dynamic activation quantization
//! (`dit.dynamic_quant`) and an int8 `dit.quant_matmul` with a per-channel weight scale; the
//! int8 weight (already transposed to [K, N]) and its scale become new arguments of the
//! enclosing `func.func`. The P0 fusion (quant_matmul with a per-token scale + GELU ->
//! dit.quant_matmul_gelu) then applies in dit-fuse-patterns. The argument ABI is in
//! docs/quantize.md.

use crate::registry::{DitPass, PassContext, PassFailed, PassOptionInfo};
use dit_dialect::ops::OpKind;
use dit_dialect::{
    diagnostics::{file_line_col, location_name},
    ir::{self, Attr, Op, Val},
    ops::{OpBuilder, Operands},
    tensor::{Elem, TensorInfo},
};
use melior::ir::TypeLike;
use std::collections::{HashMap, HashSet};

/// The report's pattern name.
const PATTERN: &str = "dit-quantize";

/// The pass's options.
pub fn options() -> Vec<PassOptionInfo> {
    vec![
        PassOptionInfo {
            name: "linears",
            help: "`all`, or comma-separated glob patterns (`*`, `?`) matched against each \
dit.linear's location: the name of a name location (`loc(\"ff.net.0.proj\")`), else \
`file:line:col` or `line:col` (dit-opt's buffer name is `-`; with --split-input-file, lines \
count within the chunk)",
            default: "all",
        },
        PassOptionInfo {
            name: "output_dtype",
            help: "element type of the dit.quant_matmul result: `f16` or `bf16` (by default the \
linear's own; when it differs, a dit.cast converts back to the linear's type)",
            default: "as linear",
        },
    ]
}

/// Which linears to quantize.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selection {
    All,
    Globs(Vec<String>),
}

/// The pass with its options.
#[derive(Clone, Debug)]
pub struct Quantize {
    selection: Selection,
    output: Option<Elem>,
}

impl Default for Quantize {
    fn default() -> Self {
        Self {
            selection: Selection::All,
            output: None,
        }
    }
}

impl Quantize {
    /// Builds the pass from pipeline options `linears=...` and `output_dtype=...`.
    pub fn from_options(options: &[(String, String)]) -> Result<Self, String> {
        let mut pass = Self::default();
        for (key, value) in options {
            match key.as_str() {
                "linears" => {
                    pass.selection = if value == "all" {
                        Selection::All
                    } else {
                        let globs: Vec<String> = value.split(',').map(str::to_string).collect();
                        if globs.iter().any(String::is_empty) {
                            return Err(format!(
                                "option 'linears' must be 'all' or a comma-separated list of non-empty glob patterns, got '{value}'"
                            ));
                        }
                        Selection::Globs(globs)
                    }
                }
                "output_dtype" => {
                    pass.output = Some(match value.as_str() {
                        "f16" => Elem::F16,
                        "bf16" => Elem::BF16,
                        _ => {
                            return Err(format!(
                                "option 'output_dtype' must be f16 or bf16, got '{value}'"
                            ))
                        }
                    })
                }
                _ => return Err(format!("unknown option '{key}'")),
            }
        }
        Ok(pass)
    }

    fn selects(&self, op: Op) -> bool {
        match &self.selection {
            Selection::All => true,
            Selection::Globs(globs) => {
                let keys = location_keys(op);
                globs
                    .iter()
                    .any(|g| keys.iter().any(|k| glob_match(g.as_bytes(), k.as_bytes())))
            }
        }
    }
}

/// What a linear's location is matched against: a name location's name; otherwise
/// `file:line:col` and `line:col` (the buffer name may be empty or `-`).
pub fn location_keys(op: Op) -> Vec<String> {
    let location = op.location().to_raw();
    if let Some(name) = location_name(location) {
        return vec![name];
    }
    match file_line_col(location) {
        Some((file, line, col)) => vec![format!("{file}:{line}:{col}"), format!("{line}:{col}")],
        None => Vec::new(),
    }
}

/// `'name': ` for an op at a name location (whose report point has no line), else nothing.
fn label(op: Op) -> String {
    location_name(op.location().to_raw())
        .map(|n| format!("'{n}': "))
        .unwrap_or_default()
}

/// Glob matching: `*` matches any run of characters (also none), `?` exactly one.
pub fn glob_match(pattern: &[u8], text: &[u8]) -> bool {
    let (mut p, mut t) = (0, 0);
    // Where the last `*` was, and the text position it currently swallows up to.
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        if p < pattern.len() && (pattern[p] == b'?' || pattern[p] == text[t]) {
            p += 1;
            t += 1;
        } else if p < pattern.len() && pattern[p] == b'*' {
            star = Some((p, t));
            p += 1;
        } else if let Some((sp, st)) = star {
            p = sp + 1;
            t = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(|&c| c == b'*')
}

/// The int8 weight and its scale, as arguments of one function.
#[derive(Clone, Copy, Debug)]
struct WeightArgs<'a> {
    int8: Val<'a>,
    scale: Val<'a>,
}

impl DitPass for Quantize {
    fn run(&mut self, module: Op, context: &PassContext) -> Result<(), PassFailed> {
        let mut linears = Vec::new();
        let mut called = HashSet::new();
        module.walk(&mut |op| {
            if op.is_kind(OpKind::Linear) {
                linears.push(op);
            } else if let Some(callee) = op.attr("callee").and_then(|a| a.as_flat_symbol_ref()) {
                called.insert(callee);
            }
        });
        // Per function, the argument pair already added for a float weight argument.
        let mut added: HashMap<(usize, usize), WeightArgs> = HashMap::new();
        for linear in linears {
            if !self.selects(linear) {
                continue;
            }
            if let Err(why) = self.rewrite(linear, &called, &mut added, context) {
                context
                    .report
                    .skipped(PATTERN, linear, format!("{}{why}", label(linear)));
            }
        }
        Ok(())
    }
}

fn tensor(v: Option<Val>) -> Result<TensorInfo, String> {
    v.and_then(Val::tensor)
        .ok_or_else(|| "operand is not a ranked tensor".to_string())
}

impl Quantize {
    fn rewrite<'a>(
        &self,
        linear: Op<'a>,
        called: &HashSet<String>,
        added: &mut HashMap<(usize, usize), WeightArgs<'a>>,
        context: &PassContext,
    ) -> Result<(), String> {
        let func = linear
            .parent()
            .filter(|p| p.is("func.func"))
            .ok_or("the linear is not directly inside a func.func body")?;
        let spec = OpKind::Linear.spec();
        let ins = Operands::resolve(linear, spec)?;
        let (xv, wv, bias) = (
            ins.get("x").ok_or("no x")?,
            ins.get("weight").ok_or("no weight")?,
            ins.get("bias"),
        );
        let (x, w, out) = (
            tensor(Some(xv))?,
            tensor(Some(wv))?,
            tensor(Some(linear.result(0)))?,
        );
        if !matches!(x.elem, Elem::F16 | Elem::BF16) {
            return Err(format!(
                "x is {}: only f16 and bf16 linears are quantized",
                x.elem
            ));
        }
        let out_elem = self.output.clone().unwrap_or_else(|| out.elem.clone());
        if let Some(b) = bias.and_then(Val::tensor) {
            if b.elem != out_elem {
                return Err(format!(
                    "bias is {} but the quant_matmul output would be {out_elem}: QuantBatchMatmulV3 takes an f16/bf16 bias only with an output of the same type",
                    b.elem
                ));
            }
        }
        let entry = *func
            .region_blocks(0)
            .first()
            .ok_or("the func has no body")?;
        let weight_index = match wv.block_argument() {
            Some((block, index)) if block.raw().ptr == entry.raw().ptr => index,
            _ => {
                return Err(
                    "the weight is not an argument of the enclosing func: a caller could not prepare its int8 form"
                        .into(),
                )
            }
        };
        let func_name = func
            .attr("sym_name")
            .and_then(|a| a.as_str())
            .unwrap_or_default();
        if called.contains(&func_name) {
            return Err(format!(
                "@{func_name} is called inside the module: new arguments would break its callers"
            ));
        }
        let (n, k) = (
            w.shape[0].or(*out.shape.last().unwrap_or(&None)),
            w.shape[1],
        );
        let k = x.dim_from_back(0).or(k);
        // quant_matmul takes the per-token scale as [M]: x is flattened to [M, K] (and the
        // result reshaped back) unless it is 2-D already.
        let flatten = x.rank() != 2;
        let dynamic = x.shape.iter().filter(|d| d.is_none()).count();
        if flatten && dynamic > 1 {
            return Err(format!(
                "x has rank {} and {dynamic} dynamic dims: flattening it to [M, K] needs at most one",
                x.rank()
            ));
        }
        let m: Option<i64> = x.shape[..x.rank().saturating_sub(1)]
            .iter()
            .try_fold(1i64, |acc, d| d.map(|d| acc * d));
        let raw = linear.context_raw();
        let ty = |shape: &[Option<i64>], elem: &Elem| {
            ir::tensor_type(raw, shape, elem).ok_or_else(|| format!("no MLIR type for {elem}"))
        };
        let (w8_ty, scale_ty) = (ty(&[k, n], &Elem::I8)?, ty(&[n], &Elem::F32)?);

        // The weight arguments (one pair per float weight argument of this function).
        let key = (func.raw().ptr as usize, weight_index);
        let (args, new_args) = match added.get(&key) {
            Some(a) => (*a, false),
            None => {
                let location = linear.location();
                let of = Attr::i64(raw, weight_index as i64);
                let int8 = func
                    .append_function_argument(
                        w8_ty,
                        location,
                        &[
                            ("dit.quantized", Attr::string(raw, "weight_int8")),
                            ("dit.quantized_from", of),
                        ],
                    )
                    .ok_or("cannot add a function argument")?;
                let scale = func
                    .append_function_argument(
                        scale_ty,
                        location,
                        &[
                            ("dit.quantized", Attr::string(raw, "weight_scale")),
                            ("dit.quantized_from", of),
                        ],
                    )
                    .ok_or("cannot add a function argument")?;
                let a = WeightArgs { int8, scale };
                added.insert(key, a);
                (a, true)
            }
        };

        let b = OpBuilder::before(linear);
        let (x2d, x2d_shape) = if flatten {
            let shape = [m, k];
            let r = b.create(OpKind::Reshape, &[&[xv]], &[ty(&shape, &x.elem)?], &[])?;
            (r.result(0), shape.to_vec())
        } else {
            (xv, x.shape.clone())
        };
        let rows = x2d_shape[0];
        let dq = b.create(
            OpKind::DynamicQuant,
            &[&[x2d], &[]],
            &[ty(&x2d_shape, &Elem::I8)?, ty(&[rows], &Elem::F32)?],
            &[],
        )?;
        let bias_slot: Vec<Val> = bias.into_iter().collect();
        let qm = b.create(
            OpKind::QuantMatmul,
            &[
                &[dq.result(0)],
                &[args.int8],
                &[args.scale],
                &[],
                &bias_slot,
                &[dq.result(1)],
            ],
            &[ty(&[rows, n], &out_elem)?],
            &[
                ("transpose_x1", Attr::bool(raw, false)),
                ("transpose_x2", Attr::bool(raw, false)),
            ],
        )?;
        let mut result = qm.result(0);
        let mut notes = Vec::new();
        if out_elem != out.elem {
            result = b
                .create(
                    OpKind::Cast,
                    &[&[result]],
                    &[ty(&[rows, n], &out.elem)?],
                    &[],
                )?
                .result(0);
            notes.push(format!("output {out_elem}, cast back to {}", out.elem));
        }
        if flatten {
            notes.push(format!("x flattened to [{}]", dims(&[m, k])));
            let gelu = single_gelu_user(linear).filter(|_| out_elem == out.elem);
            match gelu {
                Some(gelu) => {
                    // A single dit.gelu user moves before the reshape back, so that the P0
                    // fusion sees quant_matmul -> gelu.
                    let attrs = gelu.attrs();
                    let attrs: Vec<(&str, Attr)> =
                        attrs.iter().map(|(n, a)| (n.as_str(), *a)).collect();
                    let g = ir::create_op_before(
                        gelu,
                        OpKind::Gelu.name(),
                        &[result],
                        &[ty(&[rows, n], &out.elem)?],
                        &attrs,
                    );
                    let back = OpBuilder::before(gelu).create(
                        OpKind::Reshape,
                        &[&[g.result(0)]],
                        &[gelu.result(0).ty().to_raw()],
                        &[],
                    )?;
                    gelu.result(0).replace_all_uses_with(back.result(0));
                    // SAFETY: the gelu's one result's uses moved to `back`; it is no dit.linear, so
                    // the pass's list of those does not hold it.
                    unsafe { gelu.erase() };
                    notes.push("the reshape back moved after its dit.gelu".into());
                    // The linear's only user is gone.
                    result = linear.result(0);
                }
                None => {
                    result = b
                        .create(
                            OpKind::Reshape,
                            &[&[result]],
                            &[linear.result(0).ty().to_raw()],
                            &[],
                        )?
                        .result(0);
                }
            }
        }
        if result != linear.result(0) {
            linear.result(0).replace_all_uses_with(result);
        }
        // SAFETY: the linear's uses moved to `result` (or its only user, the gelu, was erased
        // above); the pass's list of linears does not come back to it.
        unsafe { linear.erase() };
        report_applied(context, qm, weight_index, new_args, bias.is_some(), &notes);
        Ok(())
    }
}

fn report_applied(
    context: &PassContext,
    at: Op,
    weight_index: usize,
    new_args: bool,
    bias: bool,
    notes: &[String],
) {
    let mut detail = format!(
        "{}linear{} -> dit.dynamic_quant + dit.quant_matmul (W8A8, weight argument {weight_index}: {})",
        label(at),
        if bias { " (bias)" } else { "" },
        if new_args {
            "int8 weight and scale appended as arguments"
        } else {
            "int8 weight and scale arguments shared with an earlier linear"
        }
    );
    for note in notes {
        detail.push_str("; ");
        detail.push_str(note);
    }
    context.report.applied(PATTERN, at, detail);
}

/// The dit.gelu that is the only user of `op`'s result, if any.
fn single_gelu_user(op: Op) -> Option<Op> {
    let result = op.result(0);
    if result.use_count() != 1 {
        return None;
    }
    let mut user = None;
    if let Some(parent) = op.parent() {
        for block in (0..parent.num_regions()).flat_map(|r| parent.region_blocks(r)) {
            for candidate in block.ops() {
                if candidate.is_kind(OpKind::Gelu) && candidate.operand(0) == result {
                    user = Some(candidate);
                }
            }
        }
    }
    user
}

fn dims(shape: &[Option<i64>]) -> String {
    dit_dialect::tensor::shape_string(shape)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_stars_and_question_marks() {
        let m = |p: &str, t: &str| glob_match(p.as_bytes(), t.as_bytes());
        assert!(m("ff.net.0.proj", "ff.net.0.proj"));
        assert!(m("ff.*", "ff.net.0.proj"));
        assert!(m("*.proj", "ff.net.0.proj"));
        assert!(m("ff.net.?.proj", "ff.net.0.proj"));
        assert!(m("*", ""));
        assert!(m("*a*b*", "xxaxxbxx"));
        assert!(!m("ff.net.?.proj", "ff.net.10.proj"));
        assert!(!m("attn.*", "ff.net.0.proj"));
        assert!(!m("a", ""));
        assert!(m("*:12:3", "-:12:3"));
        assert!(!m("12:3", "112:3"));
    }

    #[test]
    fn options_parse_and_reject() {
        let o = |k: &str, v: &str| vec![(k.to_string(), v.to_string())];
        assert_eq!(
            Quantize::from_options(&[]).unwrap().selection,
            Selection::All
        );
        assert_eq!(
            Quantize::from_options(&o("linears", "ff.*,attn.to_?"))
                .unwrap()
                .selection,
            Selection::Globs(vec!["ff.*".into(), "attn.to_?".into()])
        );
        assert_eq!(
            Quantize::from_options(&o("output_dtype", "bf16"))
                .unwrap()
                .output,
            Some(Elem::BF16)
        );
        assert!(Quantize::from_options(&o("output_dtype", "f32")).is_err());
        assert!(Quantize::from_options(&o("linears", "a,,b")).is_err());
        assert!(Quantize::from_options(&o("linears", "")).is_err());
    }
}
