//! `dit-lower-fused-to-linalg`: every `dit.fused` group becomes one DEVICE `func.func` in
//! upstream linalg / tensor / arith, the input convention of Huawei's AscendNPU-IR compiler
//! (bishengir, see shared/ASCENDNPU_IR.md): `hacc.entry`, `hacc.function_kind<DEVICE>` and the
//! group's `hfusion.fusion_kind`. Captured values become the tensor arguments, yielded values
//! the results.
//!
//! The body is built as MLIR text and parsed into the module's context (with linalg, tensor
//! and math loaded), so it is verified by MLIR before anything is replaced. Elementwise math is
//! arith / math on whole tensors (`arith.addf`, `math.exp`, `arith.truncf`, ...); linalg holds
//! the structure (`linalg.fill` constants, `linalg.broadcast`, `linalg.reduce`), tensor the
//! reshapes and slices. That is the one form both compilers take (tried by hand with
//! bishengir 1.2.0, LLVM 19): its HFusion rejects LLVM 22's named `linalg.add` / `linalg.exp`
//! ("Unknown kernel fusion kind") and `linalg.generic` ("explicitly marked illegal"), while the
//! `linalg.elemwise_*` ops it knows were removed in LLVM 21. Casts round to nearest even
//! (`arith.truncf`'s default), the rounding dit.cast has, so no `hfusion.cast` is needed; an
//! `hfusion.cast` would need a `linalg.yield` in its region, which LLVM 22 rejects outside a
//! linalg op.

use crate::registry::{DitPass, PassContext, PassFailed};
use dit_dialect::diagnostics::emit_error;
use dit_dialect::ir::{Block, Op, Val};
use dit_dialect::ops::OpKind as K;
use dit_dialect::tensor::{Elem, TensorInfo};
use std::collections::HashMap;
use std::fmt::Write;

/// The pass: replaces the module's contents with one DEVICE function per `dit.fused` group.
pub struct LowerFusedToLinalg;

impl DitPass for LowerFusedToLinalg {
    fn run(&mut self, module: Op, _: &PassContext) -> Result<(), PassFailed> {
        let kernels = lower_module(module)?;
        let mut text = String::from("module {\n");
        for k in &kernels {
            text.push_str(&k.text);
        }
        text.push_str("}\n");
        let parsed = parse_in_context(module, &text).ok_or_else(|| {
            emit_error(
                module.location(),
                "dit-lower-fused-to-linalg: the generated linalg module does not parse (a bug in the pass)",
            );
            PassFailed
        })?;
        let body = module_block(module);
        for op in body.ops() {
            // SAFETY: the module body's ops (functions) have no results; the list was taken first,
            // each is erased once, and `kernels` keeps only text.
            unsafe { op.erase() };
        }
        for op in module_block(parsed.op()).ops() {
            // SAFETY: the op moves from `parsed`, destroyed next, into the module, which
            // outlives every handle to it.
            unsafe { op.move_to_end_of_other_tree(body) };
        }
        parsed.destroy();
        Ok(())
    }
}

/// One lowered group: its kernel name and the text of its `func.func`.
#[derive(Clone, Debug)]
pub struct LinalgKernel {
    /// The `kernel` attribute of the dit.fused op (the function's symbol).
    pub name: String,
    /// `func.func @name(...) ... { ... }`, one function, ready to go inside a `module { }`.
    pub text: String,
    /// The `hfusion.fusion_kind` given to it.
    pub fusion_kind: &'static str,
}

/// Lowers every dit.fused group under `module`, in walk order. Every group that cannot be
/// lowered gets a located error naming the op (all of them, not only the first).
pub fn lower_module(module: Op) -> Result<Vec<LinalgKernel>, PassFailed> {
    let mut groups = Vec::new();
    module.walk(&mut |op| {
        if op.is_kind(K::Fused) {
            groups.push(op);
        }
    });
    let mut kernels = Vec::new();
    let mut failed = false;
    for (i, op) in groups.into_iter().enumerate() {
        match lower_group(op, i) {
            // The name is the function's symbol and the file name of --emit=linalg.
            Ok(k) if kernels.iter().any(|o: &LinalgKernel| o.name == k.name) => {
                emit_error(
                    op.location(),
                    &format!(
                        "dit-lower-fused-to-linalg: a second group is named {}: kernel names must be unique",
                        k.name
                    ),
                );
                failed = true;
            }
            Ok(k) => kernels.push(k),
            Err((at, message)) => {
                emit_error(
                    at.location(),
                    &format!("dit-lower-fused-to-linalg: {message}"),
                );
                failed = true;
            }
        }
    }
    if failed {
        Err(PassFailed)
    } else {
        Ok(kernels)
    }
}

/// `--emit=linalg`'s files: `(<kernel>.mlir, text)` per group, each parsed and verified as a
/// module of its own and printed back, so a file written from it is always valid MLIR. Errors
/// are located at the group (lowering) or at `module` (a kernel that does not parse back, which
/// would be a bug here).
pub fn kernel_files(module: Op) -> Result<Vec<(String, String)>, PassFailed> {
    let mut files = Vec::new();
    for k in lower_module(module)? {
        let Some(parsed) = parse_in_context(module, &format!("module {{\n{}}}\n", k.text)) else {
            emit_error(
                module.location(),
                &format!(
                    "--emit=linalg: the linalg of {} does not parse (a bug in dit-lower-fused-to-linalg)",
                    k.name
                ),
            );
            return Err(PassFailed);
        };
        let mut text = parsed
            .op()
            .print_verified(dit_dialect::ir::PrintOptions::default());
        parsed.destroy();
        if !text.ends_with('\n') {
            text.push('\n');
        }
        files.push((format!("{}.mlir", k.name), text));
    }
    Ok(files)
}

/// A module parsed next to the input; destroyed explicitly once its ops have been moved out.
///
/// Its op is only reachable through a borrow ([`ParsedModule::op`]), so no handle into the
/// module can be used once [`ParsedModule::destroy`] has consumed it.
pub struct ParsedModule<'a> {
    op: Op<'a>,
    module: mlir_sys::MlirModule,
}

impl<'a> ParsedModule<'a> {
    /// The module's op, for as long as the module is borrowed.
    pub fn op(&self) -> Op<'_> {
        self.op
    }

    /// Frees the module (and whatever ops are left in it).
    pub fn destroy(self) {
        // SAFETY: the module was created by mlirModuleCreateParse and is destroyed once.
        unsafe { mlir_sys::mlirModuleDestroy(self.module) }
    }
}

/// Parses `text` in `anchor`'s context, with linalg and tensor loaded and unregistered dialects
/// allowed while parsing (hacc / hfusion attributes have no dialect here). Parse and verifier
/// errors go to the context's diagnostic handler; `None` when there were any.
pub fn parse_in_context<'a>(anchor: Op<'a>, text: &str) -> Option<ParsedModule<'a>> {
    use mlir_sys::*;
    // SAFETY: the context is alive; the dialect handles are static descriptors owned by MLIR.
    unsafe {
        let context = mlirOperationGetContext(anchor.raw());
        mlirDialectHandleLoadDialect(mlirGetDialectHandle__linalg__(), context);
        mlirDialectHandleLoadDialect(mlirGetDialectHandle__tensor__(), context);
        mlirDialectHandleLoadDialect(mlirGetDialectHandle__math__(), context);
        let allowed = mlirContextGetAllowUnregisteredDialects(context);
        mlirContextSetAllowUnregisteredDialects(context, true);
        let module = mlirModuleCreateParse(context, dit_dialect::ir::string_ref(text));
        mlirContextSetAllowUnregisteredDialects(context, allowed);
        if module.ptr.is_null() {
            return None;
        }
        let op = Op::from_raw(mlirModuleGetOperation(module));
        if !mlirOperationVerify(op.raw()) {
            mlirModuleDestroy(module);
            return None;
        }
        Some(ParsedModule { op, module })
    }
}

fn module_block(module: Op) -> Block {
    module
        .region_blocks(0)
        .into_iter()
        .next()
        .expect("a builtin.module has one block")
}

type Failure<'a> = (Op<'a>, String);

/// A value of the kernel body: its SSA name and type.
#[derive(Clone, Debug)]
struct V {
    name: String,
    shape: Vec<i64>,
    elem: Elem,
}

fn tensor_type(shape: &[i64], elem: &Elem) -> String {
    let mut s = String::from("tensor<");
    for d in shape {
        let _ = write!(s, "{d}x");
    }
    let _ = write!(s, "{elem}>");
    s
}

impl V {
    fn ty(&self) -> String {
        tensor_type(&self.shape, &self.elem)
    }
}

/// A float literal MLIR's lexer accepts (it needs a '.' in the mantissa).
fn float_literal(x: f64) -> String {
    if x.is_infinite() {
        return if x < 0.0 { "-inf" } else { "inf" }.to_string();
    }
    let s = format!("{x:e}");
    let (mantissa, exponent) = s.split_once('e').unwrap_or((&s, "0"));
    if mantissa.contains('.') {
        format!("{mantissa}e{exponent}")
    } else {
        format!("{mantissa}.0e{exponent}")
    }
}

/// The bit pattern of -inf in `elem` (the neutral element of a max reduction).
fn neg_inf_hex(elem: &Elem) -> &'static str {
    match *elem {
        Elem::F16 => "0xFC00",
        Elem::BF16 => "0xFF80",
        _ => "0xFF800000",
    }
}

/// Builds the text of one kernel body.
struct Builder {
    body: String,
    next: usize,
    /// Whether a reduction (row op) was written: the group is then LAST_AXIS_PBR.
    reduces: bool,
    /// Whether an operand was broadcast: an elementwise group is then ANY_PB.
    broadcasts: bool,
}

impl Builder {
    fn fresh(&mut self) -> String {
        self.next += 1;
        format!("%v{}", self.next - 1)
    }

    fn line(&mut self, text: String) {
        self.body.push_str("    ");
        self.body.push_str(&text);
        self.body.push('\n');
    }

    fn empty(&mut self, shape: &[i64], elem: &Elem) -> String {
        let n = self.fresh();
        self.line(format!(
            "{n} = tensor.empty() : {}",
            tensor_type(shape, elem)
        ));
        n
    }

    /// A tensor of `shape` filled with `value`.
    fn splat(&mut self, value: f64, shape: &[i64], elem: &Elem) -> V {
        let c = self.fresh();
        self.line(format!(
            "{c} = arith.constant {} : {elem}",
            float_literal(value)
        ));
        self.fill(&c, shape, elem)
    }

    fn fill(&mut self, scalar: &str, shape: &[i64], elem: &Elem) -> V {
        let e = self.empty(shape, elem);
        let n = self.fresh();
        let ty = tensor_type(shape, elem);
        self.line(format!(
            "{n} = linalg.fill ins({scalar} : {elem}) outs({e} : {ty}) -> {ty}"
        ));
        V {
            name: n,
            shape: shape.to_vec(),
            elem: elem.clone(),
        }
    }

    /// An elementwise op on same-shaped tensors, written as the arith / math op on whole
    /// tensors (`arith.addf %a, %b : tensor<...>`): upstream MLIR (both dialects are
    /// elementwise-mappable) that bishengir 1.2.0's HFusion also takes, where it refuses
    /// LLVM 22's named `linalg.add` ("Unknown kernel fusion kind") and LLVM 22 no longer has the
    /// `linalg.elemwise_*` ops it wants.
    fn named(&mut self, op: &str, ins: &[&V]) -> V {
        let like = ins[0];
        let full = match op {
            "add" => "arith.addf",
            "sub" => "arith.subf",
            "mul" => "arith.mulf",
            "div" => "arith.divf",
            "max" => "arith.maximumf",
            "negf" => "arith.negf",
            "powf" => "math.powf",
            "exp" => "math.exp",
            "sqrt" => "math.sqrt",
            "rsqrt" => "math.rsqrt",
            "tanh" => "math.tanh",
            "erf" => "math.erf",
            other => other,
        };
        let n = self.fresh();
        let names: Vec<&str> = ins.iter().map(|v| v.name.as_str()).collect();
        self.line(format!("{n} = {full} {} : {}", names.join(", "), like.ty()));
        V {
            name: n,
            shape: like.shape.clone(),
            elem: like.elem.clone(),
        }
    }

    /// A splat integer or float tensor constant of `x`'s shape and type `elem`.
    fn dense(&mut self, literal: &str, shape: &[i64], elem: &Elem) -> String {
        let n = self.fresh();
        self.line(format!(
            "{n} = arith.constant dense<{literal}> : {}",
            tensor_type(shape, elem)
        ));
        n
    }

    /// `%n = {op} {operands} : {from type} to {to type}` (or `: type` when `to` is `None`).
    fn raw(&mut self, op: &str, operands: &str, x: &V, to: Option<&Elem>) -> V {
        let n = self.fresh();
        let elem = to.unwrap_or(&x.elem).clone();
        let ty = match to {
            Some(t) => format!("{} to {}", x.ty(), tensor_type(&x.shape, t)),
            None => x.ty(),
        };
        self.line(format!("{n} = {op} {operands} : {ty}"));
        V {
            name: n,
            shape: x.shape.clone(),
            elem,
        }
    }

    /// A binary op with numpy broadcasting of both operands to `shape`.
    fn binary(&mut self, op: &str, a: &V, b: &V, shape: &[i64]) -> Result<V, String> {
        if a.elem != b.elem {
            return Err(format!(
                "operands of types {} and {} differ in element type",
                a.ty(),
                b.ty()
            ));
        }
        let a = self.broadcast(a, shape)?;
        let b = self.broadcast(b, shape)?;
        if !a.elem.is_float() {
            return self.int_binary(op, &a, &b);
        }
        Ok(self.named(op, &[&a, &b]))
    }

    fn scalar_op(&mut self, op: &str, x: &V, value: f64) -> V {
        let c = self.splat(value, &x.shape, &x.elem);
        self.named(op, &[x, &c])
    }

    /// `x` broadcast (numpy rules: missing leading dims and size-1 dims) to `shape`: size-1
    /// dims that grow are collapsed away, then `linalg.broadcast` adds every grown dim.
    fn broadcast(&mut self, x: &V, shape: &[i64]) -> Result<V, String> {
        if x.shape == shape {
            return Ok(x.clone());
        }
        if x.shape.len() > shape.len() {
            return Err(format!(
                "operand shape {:?} has more dims than the result {shape:?}",
                x.shape
            ));
        }
        let off = shape.len() - x.shape.len();
        // For each dim of x: kept (same size) or grown (size 1 under a larger result dim).
        let mut kept = Vec::new();
        for (j, &d) in x.shape.iter().enumerate() {
            if d == shape[j + off] {
                kept.push(j);
            } else if d != 1 {
                return Err(format!(
                    "operand shape {:?} does not broadcast to {shape:?}",
                    x.shape
                ));
            }
        }
        // One element of bf16 / f16 / an integer type: see broadcast_scalar. f32 keeps the
        // direct broadcast from rank 0, which both compilers take (and the detour does not, for
        // a math.powf exponent on A2: "'func.call' op operand type mismatch").
        if kept.is_empty() && x.elem != Elem::F32 {
            return Ok(self.broadcast_scalar(x, shape));
        }
        let mut src = x.clone();
        if kept.len() < x.shape.len() {
            // Reassociation: each dropped size-1 dim joins the next kept dim (or the last one).
            let mut groups: Vec<Vec<usize>> = kept.iter().map(|_| Vec::new()).collect();
            let mut k = 0;
            for j in 0..x.shape.len() {
                if !groups.is_empty() {
                    let g = k.min(groups.len() - 1);
                    groups[g].push(j);
                }
                if kept.get(k) == Some(&j) {
                    k += 1;
                }
            }
            let reassoc: Vec<String> = groups
                .iter()
                .map(|g| {
                    let idx: Vec<String> = g.iter().map(|i| i.to_string()).collect();
                    format!("[{}]", idx.join(", "))
                })
                .collect();
            let new_shape: Vec<i64> = kept.iter().map(|&j| x.shape[j]).collect();
            let n = self.fresh();
            self.line(format!(
                "{n} = tensor.collapse_shape {} [{}] : {} into {}",
                x.name,
                reassoc.join(", "),
                x.ty(),
                tensor_type(&new_shape, &x.elem)
            ));
            src = V {
                name: n,
                shape: new_shape,
                elem: x.elem.clone(),
            };
        }
        let kept_in_result: Vec<usize> = kept.iter().map(|j| j + off).collect();
        let added: Vec<String> = (0..shape.len())
            .filter(|r| !kept_in_result.contains(r))
            .map(|r| r.to_string())
            .collect();
        self.broadcasts = true;
        let e = self.empty(shape, &x.elem);
        let n = self.fresh();
        let ty = tensor_type(shape, &x.elem);
        self.line(format!(
            "{n} = linalg.broadcast ins({} : {}) outs({e} : {ty}) dimensions = [{}]",
            src.name,
            src.ty(),
            added.join(", ")
        ));
        Ok(V {
            name: n,
            shape: shape.to_vec(),
            elem: x.elem.clone(),
        })
    }

    /// `x`, one element (rank 0, or all dims 1) of bf16 / f16 / an integer type, broadcast
    /// to `shape`. Not the direct `linalg.broadcast` from rank 0: bishengir 1.2.0's 950
    /// compiler cannot classify that for bf16 / i8 ("Unknown kernel fusion kind", tried by hand
    /// with bishengir-compile-a5 --target=Ascend950PR_9599). Floats are viewed as
    /// `tensor<1xT>`, broadcast to `[1] ++ shape` and the leading 1 collapsed away. Integers,
    /// where `shape` has size-1 dims, are viewed as that many 1s and broadcast along the other
    /// dims (A2 rejects the `[1] ++ shape` detour for i8: "'hivm.hir.store' op only support
    /// store ub to gm"; and that form makes A2 overflow UB on bf16 groups such as krea2's
    /// modulation). Each choice is the one the whole-model sweep (tests/bishengir.rs) compiles
    /// on both targets. Same values either way.
    fn broadcast_scalar(&mut self, x: &V, shape: &[i64]) -> V {
        let units: Vec<usize> = if x.elem.is_float() {
            Vec::new()
        } else {
            (0..shape.len()).filter(|&d| shape[d] == 1).collect()
        };
        let (view, out, added): (Vec<i64>, Vec<i64>, Vec<usize>) = if units.is_empty() {
            let mut wide = vec![1];
            wide.extend_from_slice(shape);
            (vec![1], wide.clone(), (1..wide.len()).collect())
        } else {
            let added = (0..shape.len()).filter(|d| !units.contains(d)).collect();
            (vec![1; units.len()], shape.to_vec(), added)
        };
        let view_ty = tensor_type(&view, &x.elem);
        let mut src = x.clone();
        if src.shape != view && !src.shape.is_empty() {
            // All dims are 1: collapse them into rank 0 first.
            let n = self.fresh();
            self.line(format!(
                "{n} = tensor.collapse_shape {} [] : {} into {}",
                src.name,
                src.ty(),
                tensor_type(&[], &x.elem)
            ));
            src = V {
                name: n,
                shape: vec![],
                elem: x.elem.clone(),
            };
        }
        if src.shape != view {
            let n = self.fresh();
            let ones: Vec<String> = view.iter().map(|d| d.to_string()).collect();
            self.line(format!(
                "{n} = tensor.expand_shape {} [] output_shape [{}] : {} into {view_ty}",
                src.name,
                ones.join(", "),
                src.ty()
            ));
            src.name = n;
        }
        if added.is_empty() {
            // Every dim of `shape` is 1: the view is the result.
            return src;
        }
        self.broadcasts = true;
        let e = self.empty(&out, &x.elem);
        let b = self.fresh();
        let out_ty = tensor_type(&out, &x.elem);
        let added: Vec<String> = added.iter().map(|d| d.to_string()).collect();
        self.line(format!(
            "{b} = linalg.broadcast ins({} : {view_ty}) outs({e} : {out_ty}) dimensions = [{}]",
            src.name,
            added.join(", ")
        ));
        if out == shape {
            return V {
                name: b,
                shape: shape.to_vec(),
                elem: x.elem.clone(),
            };
        }
        let mut reassoc = vec!["[0, 1]".to_string()];
        reassoc.extend((2..out.len()).map(|d| format!("[{d}]")));
        let n = self.fresh();
        self.line(format!(
            "{n} = tensor.collapse_shape {b} [{}] : {out_ty} into {}",
            reassoc.join(", "),
            tensor_type(shape, &x.elem)
        ));
        V {
            name: n,
            shape: shape.to_vec(),
            elem: x.elem.clone(),
        }
    }

    /// dit.cast (semantics of the CPU reference, lowering/runtime/src/cpu/elementwise.rs):
    /// floats round to nearest even (`arith.truncf`'s default), integers convert exactly and
    /// saturate, anything non-zero becomes true in i1. Float to integer (round half to even,
    /// saturating, NaN to 0) is refused: upstream has no single op for it.
    fn convert(&mut self, x: &V, to: &Elem) -> Result<V, String> {
        if &x.elem == to {
            return Ok(x.clone());
        }
        let from = x.elem.clone();
        let bits = |e: &Elem| e.bits().unwrap_or(32);
        if *to == Elem::I1 {
            let (zero, cmp) = if from.is_float() {
                ("0.0", "arith.cmpf une")
            } else {
                ("0", "arith.cmpi ne")
            };
            let z = self.dense(zero, &x.shape, &from);
            let n = self.fresh();
            self.line(format!("{n} = {cmp}, {}, {z} : {}", x.name, x.ty()));
            return Ok(V {
                name: n,
                shape: x.shape.clone(),
                elem: Elem::I1,
            });
        }
        let op = match (from.is_float(), to.is_float()) {
            (true, true) if bits(to) > bits(&from) => "arith.extf",
            (true, true) => "arith.truncf",
            (false, true) if from == Elem::I1 => "arith.uitofp",
            (false, true) => "arith.sitofp",
            // i1 → i8 goes through i32: bishengir 1.2.0 stores i1 as i8 and turns a direct
            // `arith.extui` i1 → i8 into an i8 → i8 `hivm.hir.vcast` it then rejects
            // ("currently don't support cast int8_t_to_int8_t_rintmode", A2). 0 / 1 either way.
            (false, false) if from == Elem::I1 && bits(to) < 32 => {
                let w = self.raw("arith.extui", &x.name, x, Some(&Elem::I32));
                return Ok(self.raw("arith.trunci", &w.name, &w, Some(to)));
            }
            (false, false) if bits(to) > bits(&from) && from == Elem::I1 => "arith.extui",
            (false, false) if bits(to) > bits(&from) => "arith.extsi",
            (false, false) => {
                let (lo, hi) = int_range(to);
                let lo = self.dense(&lo.to_string(), &x.shape, &from);
                let hi = self.dense(&hi.to_string(), &x.shape, &from);
                let a = self.raw("arith.maxsi", &format!("{}, {lo}", x.name), x, None);
                let b = self.raw("arith.minsi", &format!("{}, {hi}", a.name), x, None);
                return Ok(self.raw("arith.trunci", &b.name, &b, Some(to)));
            }
            (true, false) => {
                return Err(format!(
                    "casts from {from} to {to} (round half to even, saturating) are not lowered yet"
                ))
            }
        };
        Ok(self.raw(op, &x.name, x, Some(to)))
    }

    /// Integer add / sub / mul, saturating like the CPU reference: computed in i64 and clamped
    /// to the type's range (i64 itself wraps, only beyond the range the reference computes
    /// exactly in f64 anyway). In i1 a result is true when non-zero: a + b is or, a - b is
    /// xor, a · b is and.
    fn int_binary(&mut self, op: &str, a: &V, b: &V) -> Result<V, String> {
        let t = a.elem.clone();
        let (arith, logic) = match op {
            "add" => ("arith.addi", "arith.ori"),
            "sub" => ("arith.subi", "arith.xori"),
            "mul" => ("arith.muli", "arith.andi"),
            _ => return Err(format!("integer {op} is not lowered yet")),
        };
        let both = format!("{}, {}", a.name, b.name);
        match t {
            Elem::I64 => Ok(self.raw(arith, &both, a, None)),
            Elem::I1 => Ok(self.raw(logic, &both, a, None)),
            Elem::I8 | Elem::I32 => {
                let x = self.raw("arith.extsi", &a.name, a, Some(&Elem::I64));
                let y = self.raw("arith.extsi", &b.name, b, Some(&Elem::I64));
                let s = self.raw(arith, &format!("{}, {}", x.name, y.name), &x, None);
                let (lo, hi) = int_range(&t);
                let lo = self.dense(&lo.to_string(), &s.shape, &Elem::I64);
                let hi = self.dense(&hi.to_string(), &s.shape, &Elem::I64);
                let c = self.raw("arith.maxsi", &format!("{}, {lo}", s.name), &s, None);
                let d = self.raw("arith.minsi", &format!("{}, {hi}", c.name), &s, None);
                Ok(self.raw("arith.trunci", &d.name, &d, Some(&t)))
            }
            _ => Err(format!("{op} on {t} is not lowered yet")),
        }
    }

    /// Sum (`arith.addf`) or max (`arith.maximumf`) over the last dim: shape drops it.
    fn reduce_last(&mut self, x: &V, max: bool) -> V {
        self.reduces = true;
        let out_shape = &x.shape[..x.shape.len() - 1];
        let init = if max {
            let c = self.fresh();
            self.line(format!(
                "{c} = arith.constant {} : {}",
                neg_inf_hex(&x.elem),
                x.elem
            ));
            self.fill(&c, out_shape, &x.elem)
        } else {
            self.splat(0.0, out_shape, &x.elem)
        };
        let n = self.fresh();
        let combine = if max { "arith.maximumf" } else { "arith.addf" };
        let ty = tensor_type(out_shape, &x.elem);
        self.line(format!(
            "{n} = linalg.reduce ins({} : {}) outs({} : {ty}) dimensions = [{}]\n      (%in: {e}, %acc: {e}) {{\n        %r = {combine} %in, %acc : {e}\n        linalg.yield %r : {e}\n      }}",
            x.name,
            x.ty(),
            init.name,
            x.shape.len() - 1,
            e = x.elem
        ));
        V {
            name: n,
            shape: out_shape.to_vec(),
            elem: x.elem.clone(),
        }
    }

    /// A per-row value (shape without the last dim) broadcast back along the last dim.
    fn expand_last(&mut self, row: &V, shape: &[i64]) -> V {
        self.broadcasts = true;
        let e = self.empty(shape, &row.elem);
        let n = self.fresh();
        let ty = tensor_type(shape, &row.elem);
        self.line(format!(
            "{n} = linalg.broadcast ins({} : {}) outs({e} : {ty}) dimensions = [{}]",
            row.name,
            row.ty(),
            shape.len() - 1
        ));
        V {
            name: n,
            shape: shape.to_vec(),
            elem: row.elem.clone(),
        }
    }

    /// (x - mean) * rsqrt(mean((x - mean)^2) + eps) along the last dim, or, when `center` is
    /// false, x * rsqrt(mean(x^2) + eps) (RMSNorm).
    fn normalize(&mut self, x: &V, eps: f64, center: bool) -> V {
        let width = *x.shape.last().unwrap_or(&1) as f64;
        let x = if center {
            let sum = self.reduce_last(x, false);
            let mean = self.scalar_op("mul", &sum, 1.0 / width);
            let mean = self.expand_last(&mean, &x.shape);
            self.named("sub", &[x, &mean])
        } else {
            x.clone()
        };
        let sq = self.named("mul", &[&x, &x]);
        let sum = self.reduce_last(&sq, false);
        let var = self.scalar_op("mul", &sum, 1.0 / width);
        let var = self.scalar_op("add", &var, eps);
        let r = self.named("rsqrt", &[&var]);
        let r = self.expand_last(&r, &x.shape);
        self.named("mul", &[&x, &r])
    }

    fn sigmoid(&mut self, x: &V) -> V {
        let n = self.named("negf", &[x]);
        let e = self.named("exp", &[&n]);
        let d = self.scalar_op("add", &e, 1.0);
        let one = self.splat(1.0, &x.shape, &x.elem);
        self.named("div", &[&one, &d])
    }

    fn gelu(&mut self, x: &V, tanh: bool) -> V {
        let inner = if tanh {
            // 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))), PyTorch's approximate="tanh".
            let x2 = self.named("mul", &[x, x]);
            let x3 = self.named("mul", &[&x2, x]);
            let t = self.scalar_op("mul", &x3, 0.044715);
            let t = self.named("add", &[x, &t]);
            let t = self.scalar_op("mul", &t, (2.0 / std::f64::consts::PI).sqrt());
            self.named("tanh", &[&t])
        } else {
            // 0.5·x·(1 + erf(x/√2)).
            let t = self.scalar_op("mul", x, std::f64::consts::FRAC_1_SQRT_2);
            self.named("erf", &[&t])
        };
        let one_plus = self.scalar_op("add", &inner, 1.0);
        let half = self.scalar_op("mul", x, 0.5);
        self.named("mul", &[&half, &one_plus])
    }

    fn unary(&mut self, kind: K, x: &V, op: Op) -> Result<V, String> {
        Ok(match kind {
            K::Neg => self.named("negf", &[x]),
            K::Exp => self.named("exp", &[x]),
            K::Sqrt => self.named("sqrt", &[x]),
            K::Rsqrt => self.named("rsqrt", &[x]),
            K::Tanh => self.named("tanh", &[x]),
            K::Erf => self.named("erf", &[x]),
            K::Sigmoid => self.sigmoid(x),
            K::Silu => {
                let s = self.sigmoid(x);
                self.named("mul", &[x, &s])
            }
            K::Relu => {
                let zero = self.splat(0.0, &x.shape, &x.elem);
                self.named("max", &[x, &zero])
            }
            K::Gelu => {
                let tanh = match op.attr("approximate").and_then(|a| a.as_str()).as_deref() {
                    Some("none") => false,
                    Some("tanh") => true,
                    other => return Err(format!("approximate {other:?} is not known")),
                };
                self.gelu(x, tanh)
            }
            // CANN FastGelu, x/(1 + e^(-1.702|x|))·e^(0.851(x - |x|)) (plan.rs), which equals
            // x·sigmoid(1.702·x) for either sign of x.
            K::FastGelu => {
                let t = self.scalar_op("mul", x, 1.702);
                let s = self.sigmoid(&t);
                self.named("mul", &[x, &s])
            }
            _ => unreachable!("only called for the unary ops"),
        })
    }

    /// The first or second half of the last dim.
    fn half(&mut self, x: &V, second: bool) -> V {
        let w = x.shape[x.shape.len() - 1] / 2;
        self.slice_last(x, if second { w } else { 0 }, w)
    }

    /// `parts` concatenated along `dim` (same shapes otherwise) by `tensor.concat`, which
    /// bishengir fuses where it cannot fuse `tensor.insert_slice` into an empty tensor ("could
    /// not find next producer to fuse into container").
    fn concat(&mut self, parts: &[V], dim: usize, shape: &[i64]) -> V {
        let elem = parts[0].elem.clone();
        let n = self.fresh();
        let names: Vec<&str> = parts.iter().map(|p| p.name.as_str()).collect();
        let types: Vec<String> = parts.iter().map(|p| p.ty()).collect();
        self.line(format!(
            "{n} = tensor.concat dim({dim}) {} : ({}) -> {}",
            names.join(", "),
            types.join(", "),
            tensor_type(shape, &elem)
        ));
        V {
            name: n,
            shape: shape.to_vec(),
            elem,
        }
    }

    /// Elements `offset .. offset + len` of the last dim.
    fn slice_last(&mut self, x: &V, offset: i64, len: i64) -> V {
        let rank = x.shape.len();
        let mut shape = x.shape.clone();
        shape[rank - 1] = len;
        let offsets: Vec<String> = (0..rank)
            .map(|i| if i + 1 == rank { offset } else { 0 }.to_string())
            .collect();
        let sizes: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
        let n = self.fresh();
        self.line(format!(
            "{n} = tensor.extract_slice {}[{}] [{}] [{}] : {} to {}",
            x.name,
            offsets.join(", "),
            sizes.join(", "),
            vec!["1"; rank].join(", "),
            x.ty(),
            tensor_type(&shape, &x.elem)
        ));
        V {
            name: n,
            shape,
            elem: x.elem.clone(),
        }
    }

    /// `x` with its last dim `W` split into the last two of `shape` (`[.., W]` ->
    /// `[.., H, D]`, H·D = W): a tensor.expand_shape; `Err` for any other reshape.
    fn split_heads(&mut self, x: &V, shape: &[i64]) -> Result<V, String> {
        let rank = x.shape.len();
        if rank == 0
            || shape.len() != rank + 1
            || shape[..rank - 1] != x.shape[..rank - 1]
            || shape[rank - 1] * shape[rank] != x.shape[rank - 1]
        {
            return Err(format!(
                "only a reshape that splits the last dim is lowered ({:?} -> {shape:?})",
                x.shape
            ));
        }
        let mut reassoc: Vec<String> = (0..rank - 1).map(|i| format!("[{i}]")).collect();
        reassoc.push(format!("[{}, {}]", rank - 1, rank));
        let n = self.fresh();
        let ty = tensor_type(shape, &x.elem);
        let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
        self.line(format!(
            "{n} = tensor.expand_shape {} [{}] output_shape [{}] : {} into {ty}",
            x.name,
            reassoc.join(", "),
            dims.join(", "),
            x.ty()
        ));
        Ok(V {
            name: n,
            shape: shape.to_vec(),
            elem: x.elem.clone(),
        })
    }

    /// rope's rotation (plan.rs `MicroOp::Rotate`): pairs `(x[2i], x[2i+1])` become
    /// `(-x[2i+1], x[2i])` (interleave), or halves `[a, b]` become `[-b, a]`.
    fn rotate(&mut self, x: &V, interleave: bool) -> V {
        let rank = x.shape.len();
        let w = x.shape[rank - 1];
        if !interleave {
            let first = self.slice_last(x, 0, w / 2);
            let second = self.slice_last(x, w / 2, w / 2);
            let neg = self.named("negf", &[&second]);
            return self.concat(&[neg, first], rank - 1, &x.shape);
        }
        // Pairs: view the last dim as [W/2, 2], swap the two columns (negating the odd one),
        // and view it back.
        let mut pairs = x.shape.clone();
        pairs[rank - 1] = w / 2;
        pairs.push(2);
        let mut reassoc: Vec<String> = (0..rank - 1).map(|i| format!("[{i}]")).collect();
        reassoc.push(format!("[{}, {}]", rank - 1, rank));
        let reassoc = reassoc.join(", ");
        let n = self.fresh();
        let pairs_ty = tensor_type(&pairs, &x.elem);
        let shape_list: Vec<String> = pairs.iter().map(|d| d.to_string()).collect();
        self.line(format!(
            "{n} = tensor.expand_shape {} [{reassoc}] output_shape [{}] : {} into {pairs_ty}",
            x.name,
            shape_list.join(", "),
            x.ty()
        ));
        let p = V {
            name: n,
            shape: pairs.clone(),
            elem: x.elem.clone(),
        };
        let even = self.slice_last(&p, 0, 1);
        let odd = self.slice_last(&p, 1, 1);
        let neg = self.named("negf", &[&odd]);
        let swapped = self.concat(&[neg, even], rank, &pairs);
        let n = self.fresh();
        self.line(format!(
            "{n} = tensor.collapse_shape {} [{reassoc}] : {pairs_ty} into {}",
            swapped.name,
            x.ty()
        ));
        V {
            name: n,
            shape: x.shape.clone(),
            elem: x.elem.clone(),
        }
    }
}

/// The signed range of an integer element type.
fn int_range(t: &Elem) -> (i64, i64) {
    match *t {
        Elem::I8 => (i8::MIN as i64, i8::MAX as i64),
        Elem::I32 => (i32::MIN as i64, i32::MAX as i64),
        Elem::I4 => (-8, 7),
        _ => (i64::MIN, i64::MAX),
    }
}

/// The static tensor type of `v` (f32, f16, bf16, i1, i8, i32 or i64), or why it has none.
fn static_tensor(v: Val) -> Result<(Vec<i64>, Elem), String> {
    let TensorInfo { elem, shape } = v
        .tensor()
        .ok_or_else(|| "a value is not a ranked tensor".to_string())?;
    if !matches!(
        elem,
        Elem::F32 | Elem::F16 | Elem::BF16 | Elem::I1 | Elem::I8 | Elem::I32 | Elem::I64
    ) {
        return Err(format!(
            "element type {elem}: only f32, f16, bf16, i1, i8, i32 and i64 are lowered"
        ));
    }
    let shape: Option<Vec<i64>> = shape.into_iter().collect();
    let shape = shape.ok_or_else(|| "dynamic dims are not lowered yet".to_string())?;
    Ok((shape, elem))
}

fn f64_attr(op: Op, name: &str) -> Result<f64, String> {
    op.attr(name)
        .and_then(|a| a.as_f64())
        .ok_or_else(|| format!("attribute {name} is missing"))
}

/// The operands of `op` by segment: `Some` for a present optional operand, `None` when absent.
fn segments(op: Op) -> Vec<Option<Val>> {
    match op
        .attr("operandSegmentSizes")
        .and_then(|a| a.as_i32_array())
    {
        Some(sizes) => {
            let mut at = 0usize;
            sizes
                .iter()
                .map(|&n| {
                    let v = (n > 0).then(|| op.operand(at));
                    at += n.max(0) as usize;
                    v
                })
                .collect()
        }
        None => op.operands().into_iter().map(Some).collect(),
    }
}

/// The function name of the `index`-th `dit.fused` group: its `kernel` attribute, or
/// `fused_<index>` when it has none. The linalg lowering and dit-outline-fused name a group
/// alike, so their outputs pair up by name.
pub fn kernel_name(op: Op, index: usize) -> String {
    op.attr("kernel")
        .and_then(|a| a.as_str())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| format!("fused_{index}"))
}

/// Lowers one group; `index` names it when it has no `kernel` attribute.
pub fn lower_group(op: Op, index: usize) -> Result<LinalgKernel, Failure> {
    let name = kernel_name(op, index);
    let block = op
        .region_blocks(0)
        .into_iter()
        .next()
        .ok_or_else(|| (op, format!("{} has no body", K::Fused)))?;
    let mut b = Builder {
        body: String::new(),
        next: 0,
        reduces: false,
        broadcasts: false,
    };
    let mut values: HashMap<usize, V> = HashMap::new();
    let mut args = Vec::new();
    for (i, a) in block.arguments().into_iter().enumerate() {
        let (shape, elem) =
            static_tensor(a).map_err(|m| (op, format!("{name}: argument #{i}: {m}")))?;
        let v = V {
            name: format!("%arg{i}"),
            shape,
            elem,
        };
        args.push(format!("{}: {}", v.name, v.ty()));
        values.insert(a.key(), v);
    }
    let mut results = Vec::new();
    for inner in block.ops() {
        let iname = inner.name();
        let ikind = inner.kind();
        let fail = |m: String| (inner, format!("{name}: '{iname}': {m}"));
        let get = |v: Val| {
            values
                .get(&v.key())
                .cloned()
                .ok_or_else(|| fail("an operand is not defined in the group".into()))
        };
        if ikind == Some(K::Yield) {
            for v in inner.operands() {
                results.push(get(v)?);
            }
            break;
        }
        // The one tensor operand a split or a head-view reshape reads.
        let first_operand = |op| {
            segments(op)
                .first()
                .copied()
                .flatten()
                .ok_or_else(|| fail("operand #0 is missing".into()))
                .and_then(get)
        };
        if ikind == Some(K::Split) {
            // A split along the last dim (auto-fuse lets one open a group: its pieces are
            // column windows of the input): one tensor.extract_slice per piece.
            let x = first_operand(inner)?;
            let rank = x.shape.len() as i64;
            let dim = inner.attr("dim").and_then(|a| a.as_i64()).unwrap_or(-1);
            if rank == 0 || (dim != -1 && dim != rank - 1) {
                return Err(fail(format!("only the last dim is lowered (dim = {dim})")));
            }
            let mut offset = 0i64;
            for r in inner.results() {
                let (shape, _) = static_tensor(r).map_err(&fail)?;
                let len = shape[shape.len() - 1];
                let piece = b.slice_last(&x, offset, len);
                offset += len;
                values.insert(r.key(), piece);
            }
            if offset != x.shape[x.shape.len() - 1] {
                return Err(fail("the pieces do not cover the last dim".into()));
            }
            continue;
        }
        if ikind == Some(K::Reshape) {
            // A split piece seen as heads, `[.., W] -> [.., H, D]` (auto-fuse opens a group
            // with it; plan.rs `head_view` reads the heads as rows of the input): one
            // tensor.expand_shape of the last dim. No other reshape joins a group.
            let x = first_operand(inner)?;
            let (shape, _) = static_tensor(inner.result(0)).map_err(&fail)?;
            let r = b.split_heads(&x, &shape).map_err(&fail)?;
            values.insert(inner.result(0).key(), r);
            continue;
        }
        if inner.num_results() != 1 {
            return Err(fail("ops with several results are not lowered yet".into()));
        }
        let (shape, elem) = static_tensor(inner.result(0)).map_err(&fail)?;
        let ops = segments(inner);
        let operand = |i: usize| -> Result<V, Failure> {
            match ops.get(i).copied().flatten() {
                Some(v) => get(v),
                None => Err(fail(format!("operand #{i} is missing"))),
            }
        };
        let last_dim_only = |attr: &str| -> Result<(), Failure> {
            let rank = shape.len() as i64;
            let dim = inner.attr(attr).and_then(|a| a.as_i64()).unwrap_or(-1);
            if dim != -1 && dim != rank - 1 {
                return Err(fail(format!(
                    "only the last dim is lowered ({attr} = {dim})"
                )));
            }
            Ok(())
        };
        // Integer (and i1) values only in casts, concatenations and add / sub / mul: the
        // other ops' constants and named ops are float-only.
        let int_ok = matches!(ikind, Some(K::Cast | K::Concat | K::Add | K::Sub | K::Mul));
        if !int_ok
            && (!elem.is_float()
                || ops
                    .iter()
                    .flatten()
                    .any(|v| get(*v).is_ok_and(|v| !v.elem.is_float())))
        {
            return Err(fail(
                "integer operands or results are not lowered for this op".into(),
            ));
        }
        let r = match ikind {
            Some(K::Pow) => {
                let (x, y) = (operand(0)?, operand(1)?);
                b.binary("powf", &x, &y, &shape).map_err(&fail)?
            }
            Some(k @ (K::Add | K::Sub | K::Mul | K::Div)) => {
                let (x, y) = (operand(0)?, operand(1)?);
                b.binary(k.mnemonic(), &x, &y, &shape).map_err(&fail)?
            }
            Some(
                k @ (K::Neg
                | K::Exp
                | K::Sqrt
                | K::Rsqrt
                | K::Tanh
                | K::Erf
                | K::Sigmoid
                | K::Silu
                | K::Relu
                | K::Gelu
                | K::FastGelu),
            ) => {
                let x = operand(0)?;
                b.unary(k, &x, inner).map_err(&fail)?
            }
            Some(K::Cast) => {
                let x = operand(0)?;
                b.convert(&x, &elem).map_err(&fail)?
            }
            Some(K::MulsAdd) => {
                let scale = f64_attr(inner, "scale").map_err(&fail)?;
                let (x, y) = (operand(0)?, operand(1)?);
                let x = b.broadcast(&x, &shape).map_err(&fail)?;
                let s = b.scalar_op("mul", &x, scale);
                b.binary("add", &s, &y, &shape).map_err(&fail)?
            }
            Some(K::SiluMul) => {
                let (g, u) = (operand(0)?, operand(1)?);
                let g = b.unary(K::Silu, &g, inner).map_err(&fail)?;
                b.binary("mul", &g, &u, &shape).map_err(&fail)?
            }
            Some(K::Swiglu | K::GeluMul) => {
                let x = operand(0)?;
                let act = if ikind == Some(K::Swiglu) {
                    last_dim_only("dim")?;
                    K::Silu
                } else {
                    K::Gelu
                };
                let gate = b.half(&x, false);
                let up = b.half(&x, true);
                let g = b.unary(act, &gate, inner).map_err(&fail)?;
                b.named("mul", &[&g, &up])
            }
            Some(K::Softmax) => {
                last_dim_only("dim")?;
                let x = operand(0)?;
                let wide = b.convert(&x, &Elem::F32).map_err(&fail)?;
                let m = b.reduce_last(&wide, true);
                let m = b.expand_last(&m, &shape);
                let d = b.named("sub", &[&wide, &m]);
                let e = b.named("exp", &[&d]);
                let s = b.reduce_last(&e, false);
                let s = b.expand_last(&s, &shape);
                let y = b.named("div", &[&e, &s]);
                b.convert(&y, &elem).map_err(&fail)?
            }
            Some(K::RmsNorm | K::LayerNorm | K::AdaLayerNorm) => {
                let eps = f64_attr(inner, "epsilon").map_err(&fail)?;
                // Row statistics in f32 whatever the storage type, as the generated kernels do.
                let x = operand(0)?;
                let wide = b.convert(&x, &Elem::F32).map_err(&fail)?;
                let mut y = b.normalize(&wide, eps, ikind != Some(K::RmsNorm));
                let feature = |b: &mut Builder, v: V, y: &V, op: &str| -> Result<V, Failure> {
                    let v = b.convert(&v, &Elem::F32).map_err(&fail)?;
                    b.binary(op, y, &v, &shape).map_err(&fail)
                };
                match ikind {
                    Some(K::RmsNorm) => {
                        let g = operand(1)?;
                        y = feature(&mut b, g, &y, "mul")?;
                    }
                    Some(K::LayerNorm) => {
                        if let Some(Some(g)) = ops.get(1) {
                            y = feature(&mut b, get(*g)?, &y, "mul")?;
                        }
                        if let Some(Some(bias)) = ops.get(2) {
                            y = feature(&mut b, get(*bias)?, &y, "add")?;
                        }
                    }
                    _ => {
                        let (sc, sh) = (operand(1)?, operand(2)?);
                        let sc = b.convert(&sc, &Elem::F32).map_err(&fail)?;
                        let one_plus = b.scalar_op("add", &sc, 1.0);
                        y = b.binary("mul", &y, &one_plus, &shape).map_err(&fail)?;
                        y = feature(&mut b, sh, &y, "add")?;
                    }
                }
                b.convert(&y, &elem).map_err(&fail)?
            }
            Some(K::Concat) => {
                let rank = shape.len() as i64;
                let mut dim = inner
                    .attr("dim")
                    .and_then(|a| a.as_i64())
                    .ok_or_else(|| fail("dim is missing".into()))?;
                if dim < 0 {
                    dim += rank;
                }
                if !(0..rank).contains(&dim) {
                    return Err(fail(format!("dim {dim} is out of range")));
                }
                let parts: Vec<V> = inner
                    .operands()
                    .into_iter()
                    .map(get)
                    .collect::<Result<_, _>>()?;
                if parts
                    .iter()
                    .any(|p| p.shape.len() != shape.len() || p.elem != elem)
                {
                    return Err(fail(
                        "operands differ in rank or element type from the result".into(),
                    ));
                }
                b.concat(&parts, dim as usize, &shape)
            }
            Some(K::Rope) => {
                let interleave = match inner.attr("mode").and_then(|a| a.as_str()).as_deref() {
                    Some("interleave") => true,
                    Some("half") => false,
                    other => return Err(fail(format!("mode {other:?} is not known"))),
                };
                let w = shape.last().copied().unwrap_or(0);
                if w % 2 != 0 {
                    return Err(fail(format!("the last dim {w} is odd")));
                }
                let (mut x, mut c, mut sn) = (operand(0)?, operand(1)?, operand(2)?);
                // Tables in another float type than x (f32 cos / sin on bf16 q, k): the CPU
                // reference computes in f64 and rounds once, so compute in f32 here, not in
                // the narrower type, and round to the result type at the end.
                let mixed = c.elem != x.elem || sn.elem != x.elem;
                if mixed {
                    x = b.convert(&x, &Elem::F32).map_err(&fail)?;
                    c = b.convert(&c, &Elem::F32).map_err(&fail)?;
                    sn = b.convert(&sn, &Elem::F32).map_err(&fail)?;
                }
                let rot = b.rotate(&x, interleave);
                let p = b.binary("mul", &x, &c, &shape).map_err(&fail)?;
                let q = b.binary("mul", &rot, &sn, &shape).map_err(&fail)?;
                let y = b.named("add", &[&p, &q]);
                b.convert(&y, &elem).map_err(&fail)?
            }
            _ => return Err(fail("this op is not lowered to linalg yet".into())),
        };
        if r.shape != shape || r.elem != elem {
            return Err(fail(format!(
                "lowered to {} instead of {}",
                r.ty(),
                tensor_type(&shape, &elem)
            )));
        }
        values.insert(inner.result(0).key(), r);
    }
    if results.is_empty() {
        return Err((op, format!("{name}: the group yields nothing")));
    }
    let fusion_kind = if b.reduces {
        "LAST_AXIS_PBR"
    } else if b.broadcasts {
        "ANY_PB"
    } else {
        "PURE_ELEMWISE"
    };
    let result_types: Vec<String> = results.iter().map(|v| v.ty()).collect();
    let result_names: Vec<&str> = results.iter().map(|v| v.name.as_str()).collect();
    let mut text = String::new();
    let _ = writeln!(
        text,
        "  func.func @{name}({}) -> ({}) attributes {{hacc.entry, hacc.function_kind = #hacc.function_kind<DEVICE>, hfusion.fusion_kind = #hfusion.fusion_kind<{fusion_kind}>}} {{",
        args.join(", "),
        result_types.join(", ")
    );
    text.push_str(&b.body);
    let _ = writeln!(
        text,
        "    return {} : {}\n  }}",
        result_names.join(", "),
        result_types.join(", ")
    );
    Ok(LinalgKernel {
        name,
        text,
        fusion_kind,
    })
}
