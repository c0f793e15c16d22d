//! `dit-convert-torch-to-dit`: imports a torch-mlir graph (the `torch` dialect in generic form,
//! as torch-mlir's fx importer writes it) into the dit dialect, so that every graph imports
//! whole: each aten op of the tables in `torch/convert/` becomes dit ops, and every other op
//! with tensor results becomes a `dit.opaque` that keeps the aten name (and the constant
//! arguments), reported in the fusion report so that the coverage table can count them.
//!
//! dit-opt parses the torch dialect as unregistered ops with opaque `!torch.*` types (it allows
//! unregistered dialects when this pass is in the pipeline). After the conversion nothing of
//! another dialect may be left: a foreign op (a typo such as `dti.gelu` included) or a value of
//! an opaque type is a located error, so a bad input still fails clearly.
//!
//! The conversion, per function:
//! 1. block arguments get their builtin tensor types (`!torch.vtensor<[2,?],bf16>` ->
//!    `tensor<2x?xbf16>`);
//! 2. each torch op with tensor results, in order, is replaced by what the table emits (checked
//!    by the dit verifier and MLIR's verifier before it is kept) or by `dit.opaque`; scalar
//!    ops (`torch.constant.*`, lists, shape arithmetic) stay until nothing reads them;
//! 3. tuples returned by `torch.prim.TupleConstruct` are flattened into the return, the dead
//!    torch ops are erased, and `function_type` is rewritten from the new argument and result
//!    types; `torch.*` attributes (argument type bounds, debug names) are dropped.

use crate::{
    conversion::torch::{
        convert::{self, Node},
        emit::Emitter,
        fold, mlir, scalars,
        types::{self, TorchType},
    },
    registry::{DitPass, PassContext, PassFailed},
};
use dit_dialect::ops::OpKind;
use dit_dialect::{
    diagnostics::emit_error,
    ir::{self, Attr, Block, Op, Val},
    ops::OpBuilder,
};
use mlir_sys::MlirType;
use std::collections::HashSet;

/// The report's pattern name (and the pass flag).
const PATTERN: &str = "dit-convert-torch-to-dit";

/// Dialects that may remain after the conversion.
const KEPT_DIALECTS: &[&str] = &["builtin", "func", "arith", "dit"];

/// The pass.
#[derive(Clone, Copy, Debug, Default)]
pub struct ConvertTorchToDit;

/// What one function's conversion did.
#[derive(Default)]
struct Stats {
    /// Torch ops replaced by dit ops of the table.
    converted: usize,
    /// Torch ops kept as dit.opaque.
    opaque: usize,
    /// Op results computed in f32 instead of f64 (see [`demote_f64`]).
    demoted: usize,
}

/// dit has no f64 (DIALECT.md's element types; the runtime has no f64 encoding), so an op
/// result of f64 is computed in f32. This is what diffusers itself does on the NPU:
/// `maybe_adjust_dtype_for_device` (diffusers/utils/torch_utils.py) turns float64 into float32
/// on devices in `_FP64_UNSUPPORTED_DEVICES = {"mps", "npu", "neuron"}`, and
/// `get_1d_rotary_pos_embed` (diffusers/models/embeddings.py) casts its frequencies to float
/// before cos/sin when `freqs.device.type == "npu"`. The f64 values of DiT graphs are RoPE and
/// timestep frequency tables; function arguments keep their type (a caller's data).
fn demote_f64(ty: MlirType) -> (MlirType, bool) {
    let Some(info) = mlir::tensor_info(ty) else {
        return (ty, false);
    };
    match mlir::element_type(ty) {
        // A type predicate, not the type's text: printing a type builds an AsmState, and this
        // runs for every op result.
        // SAFETY: `el` is a live type.
        Some(el) if unsafe { mlir_sys::mlirTypeIsAF64(el) } => {
            let f32 = mlir::parse_type(mlir::type_context(ty), "f32");
            match f32 {
                Some(f32) => (mlir::tensor_of(&info.shape, f32), true),
                None => (ty, false),
            }
        }
        _ => (ty, false),
    }
}

impl DitPass for ConvertTorchToDit {
    fn run(&mut self, module: Op, context: &PassContext) -> Result<(), PassFailed> {
        // Every value's torch type is classified, most of them many times over.
        let _types = types::CacheScope::new();
        let mut funcs = Vec::new();
        module.walk(&mut |op| {
            if op.is("func.func") {
                funcs.push(op);
            }
        });
        let mut ok = true;
        let mut failed_funcs = HashSet::new();
        for func in funcs {
            let (converted, signature) = convert_function(func, context);
            ok &= converted && signature;
            if !converted {
                failed_funcs.insert(func.raw().ptr as usize);
            }
        }
        module.walk(&mut |op| {
            if op.is("builtin.module") || op.is("func.func") {
                strip_torch_attrs(op);
            }
        });
        ok &= no_foreign_ir_left(module, &failed_funcs);
        if ok {
            Ok(())
        } else {
            Err(PassFailed)
        }
    }
}

/// Emits a located error at `op`.
fn error_at(op: Op, message: &str) {
    emit_error(dit_dialect::diagnostics::nearest_location(op), message);
}

/// Converts one function. Returns whether its ops converted (false: an error was reported)
/// and whether its signature could be rewritten (false: a torch value reaches the return or an
/// argument; reported where that value is defined).
fn convert_function(func: Op, context: &PassContext) -> (bool, bool) {
    let blocks: Vec<Block> = (0..func.num_regions())
        .flat_map(|r| func.region_blocks(r))
        .collect();
    let Some(entry) = blocks.first().copied() else {
        // A declaration: only its signature.
        return (convert_declaration(func), true);
    };
    let mut ok = true;
    for block in &blocks {
        for (i, arg) in block.arguments().into_iter().enumerate() {
            match types::classify(mlir::type_of(arg)) {
                TorchType::Tensor(t) => mlir::set_type(arg, t.0),
                TorchType::NotTorch => {}
                TorchType::BadTensor(why) => {
                    error_at(func, &format!("argument #{i}: {why}"));
                    ok = false;
                }
                TorchType::TensorList | TorchType::Scalar => {
                    error_at(
                        func,
                        &format!(
                            "argument #{i} has type {}: dit functions take tensors only",
                            mlir::type_text(mlir::type_of(arg))
                        ),
                    );
                    ok = false;
                }
            }
        }
    }
    // Values nothing reads need no dit ops (torch ops in value semantics have no effects;
    // asserts and shape bindings have no results and are handled one by one).
    erase_dead_torch_ops(&blocks, false);
    let mut stats = Stats::default();
    for block in &blocks {
        for op in block.ops() {
            ok &= convert_op(op, context, &mut stats);
        }
    }
    for block in &blocks {
        flatten_returned_tuples(*block);
    }
    erase_dead_torch_ops(&blocks, true);
    // Tables computed from constants (RoPE and timestep frequencies) become constants.
    let folded = fold::fold_constants(func);
    // Each torch op was converted on its own: merge what several of them emitted alike (the
    // f32 cast of x that RMSNorm's pow and its multiply both need: the fusion patterns look
    // for one x), then erase what became dead (the transpose of a weight that dit.linear
    // reads as is).
    crate::transforms::dit_cse::eliminate_common_subexpressions(func);
    // The importer's top-k routing, converted op by op, is two CANN kernels
    // (aclnnMoeInitRoutingV2 / aclnnMoeFinalizeRoutingV2): see torch/moe.rs.
    for combine in crate::conversion::torch::moe::raise_routing(func) {
        context.report.applied(
            PATTERN,
            combine,
            "MoE routing (topk, sort, floor_div, index_select, scatter_add, cumsum, index_add) \
             -> dit.moe_init_routing + dit.moe_finalize_routing",
        );
    }
    crate::transforms::dit_dce::eliminate_dead_code(func);
    let signature = rewrite_signature(func, entry, &blocks);
    if stats.converted + stats.opaque > 0 {
        // Counted after the clean-up: what the function now runs.
        let mut dit_ops = 0;
        func.walk(&mut |op| {
            dit_ops += usize::from(op.name().starts_with(dit_dialect::ops::DIALECT_PREFIX))
        });
        let name = func
            .attr("sym_name")
            .and_then(|a| a.as_str())
            .unwrap_or_default();
        context.report.applied(
            PATTERN,
            func,
            format!(
                "@{name}: {} torch ops -> {} dit ops; {} kept as dit.opaque",
                stats.converted + stats.opaque,
                dit_ops,
                stats.opaque
            ),
        );
        if folded > 0 {
            context.report.applied(
                PATTERN,
                func,
                format!(
                    "@{name}: {folded} ops on constants folded at compile time (at most {} \
                     elements each)",
                    fold::FOLD_LIMIT
                ),
            );
        }
        if stats.demoted > 0 {
            context.report.applied(
                PATTERN,
                func,
                format!(
                    "@{name}: {} f64 results computed in f32 (dit has no f64; diffusers does \
                     the same on the NPU)",
                    stats.demoted
                ),
            );
        }
    }
    (ok, signature)
}

/// A function without a body: converts the types of its signature.
fn convert_declaration(func: Op) -> bool {
    let Some((inputs, results)) = func
        .attr("function_type")
        .and_then(mlir::function_signature)
    else {
        return true;
    };
    let mut ok = true;
    let mut convert = |tys: Vec<MlirType>| -> Vec<MlirType> {
        tys.into_iter()
            .map(|t| match types::classify(t) {
                TorchType::Tensor(new) => new.0,
                TorchType::NotTorch => t,
                _ => {
                    ok = false;
                    t
                }
            })
            .collect()
    };
    let (inputs, results) = (convert(inputs), convert(results));
    if ok {
        let attr = mlir::function_type_attr(func.context_raw(), &inputs, &results);
        func.set_attr("function_type", attr);
    } else {
        error_at(
            func,
            "the signature has a torch type that is not a ranked value tensor",
        );
    }
    ok
}

/// Converts one op of a function body; false when an error was reported.
fn convert_op(op: Op, context: &PassContext, stats: &mut Stats) -> bool {
    let mut name = op.name();
    if name == "torch.operator" {
        // The fx importer's op for an aten overload torch-mlir does not define: its name is an
        // attribute (`{name = "torch.aten._grouped_mm"}`), converted like the op it names.
        if let Some(named) = op.attr("name").and_then(|a| a.as_str()) {
            if named.starts_with("torch.") {
                name = named;
            }
        }
    }
    let Some(short) = name.strip_prefix("torch.") else {
        return retype_results(op);
    };
    if op.num_regions() > 0 {
        error_at(
            op,
            &format!(
                "'{name}' has regions: dit-convert-torch-to-dit converts straight-line graphs only"
            ),
        );
        return false;
    }
    match short {
        // Read by the op that produced their list / by the return.
        "prim.ListUnpack" => return forward_unpack_of_construct(op),
        "prim.ListConstruct" | "prim.TupleConstruct" => return true,
        _ => {}
    }
    if op.num_results() == 0 {
        // In value-semantic graphs, ops without results only check or bind shapes.
        if short.contains("assert")
            || short.contains("constrain_range")
            || short == "bind_symbolic_shape"
        {
            context
                .report
                .skipped(PATTERN, op, format!("{short}: a runtime check, dropped"));
            // SAFETY: the op has no results (checked above) and no regions; the caller walks a list
            // of the block's ops taken beforehand and does not come back to it.
            unsafe { op.erase() };
            return true;
        }
        error_at(
            op,
            &format!(
                "'{name}' has no results and is no runtime check: dit cannot express its effect"
            ),
        );
        return false;
    }
    // The values to replace: tensor results, and the unpacked elements of tensor lists.
    let mut olds = Vec::new();
    let mut outs: Vec<MlirType> = Vec::new();
    let mut tensor_like = false;
    for (i, r) in op.results().into_iter().enumerate() {
        match types::classify(mlir::type_of(r)) {
            TorchType::Tensor(t) => {
                tensor_like = true;
                olds.push(r);
                outs.push(t.0);
            }
            TorchType::BadTensor(why) => {
                error_at(op, &format!("result #{i} of '{name}': {why}"));
                return false;
            }
            TorchType::TensorList => {
                tensor_like = true;
                match unpacked(op, r) {
                    Ok(pieces) => {
                        for (old, ty) in pieces {
                            olds.push(old);
                            outs.push(ty);
                        }
                    }
                    Err(why) => {
                        error_at(op, &why);
                        return false;
                    }
                }
            }
            // Scalar results of a tensor op (rare) stay; a use left at the end is an error.
            TorchType::Scalar | TorchType::NotTorch => {}
        }
    }
    if !tensor_like {
        // A scalar op (constant, list, shape arithmetic): erased once nothing reads it.
        return true;
    }
    for out in &mut outs {
        let (ty, demoted) = demote_f64(*out);
        *out = ty;
        stats.demoted += usize::from(demoted);
    }
    let unconverted_operand = op.operands().into_iter().any(|v| {
        matches!(
            types::classify(mlir::type_of(v)),
            TorchType::Tensor(_) | TorchType::BadTensor(_)
        )
    });
    if unconverted_operand {
        // Its producer failed and said so; another error here would only repeat it.
        return false;
    }
    let node = Node {
        op,
        name: short.to_string(),
        olds,
        outs,
    };
    let mut e = Emitter::new(op);
    let converted = convert::convert(&node, &mut e).and_then(|values| {
        // Every replacement gets exactly the result's type (a view may have produced the same
        // shape with other static information).
        let mut fitted = Vec::new();
        for ((value, old), ty) in values.into_iter().zip(&node.olds).zip(&node.outs) {
            fitted.push(match value {
                Some(v) => Some(e.to_type(v, *ty)?),
                None if old.has_uses() => return Err("a used result has no replacement".into()),
                None => None,
            });
        }
        if fitted.len() != node.outs.len() {
            return Err("the conversion did not replace every result".into());
        }
        e.check()?;
        Ok(fitted)
    });
    match converted {
        Ok(values) => {
            stats.converted += 1;
            for (old, new) in node.olds.iter().zip(values) {
                if let Some(new) = new {
                    old.replace_all_uses_with(new);
                }
            }
            true
        }
        Err(reason) => {
            e.rollback();
            match make_opaque(&node) {
                Ok(opaque) => {
                    stats.opaque += 1;
                    for (i, old) in node.olds.iter().enumerate() {
                        old.replace_all_uses_with(opaque.result(i));
                    }
                    // An op outside the tables also says where the list of those that
                    // convert is, and which overloads of it do.
                    let note = match convert::lookup(short) {
                        Some(_) => String::new(),
                        None => convert::unsupported_note(short),
                    };
                    context.report.skipped(
                        PATTERN,
                        op,
                        format!("{short}: {reason}; kept as dit.opaque{note}"),
                    );
                    true
                }
                Err(why) => {
                    error_at(op, &format!("'{name}' cannot be kept as dit.opaque: {why}"));
                    false
                }
            }
        }
    }
}

/// The elements of the tensor list `list` (a result of `op`), through the
/// `torch.prim.ListUnpack`s that read it: (old value, new type) per element. Other readers of
/// the list cannot be expressed in dit.
fn unpacked<'a>(op: Op<'a>, list: Val<'a>) -> Result<Vec<(Val<'a>, MlirType)>, String> {
    let users = list.users();
    if let Some(other) = users.iter().find(|u| !u.is("torch.prim.ListUnpack")) {
        return Err(format!(
            "the tensor list '{}' returns is read by '{}': dit can only take a list of tensors \
             apart with torch.prim.ListUnpack",
            op.name(),
            other.name()
        ));
    }
    let Some(first) = users.first().copied() else {
        return Ok(Vec::new());
    };
    // Several unpacks of one list give the same values: they all read the first one's.
    for other in users.iter().skip(1) {
        if *other != first && other.num_results() == first.num_results() {
            for (a, b) in other.results().into_iter().zip(first.results()) {
                a.replace_all_uses_with(b);
            }
        }
    }
    let mut pieces = Vec::new();
    for (i, r) in first.results().into_iter().enumerate() {
        match types::classify(mlir::type_of(r)) {
            TorchType::Tensor(t) => pieces.push((r, t.0)),
            TorchType::BadTensor(why) => return Err(format!("list element #{i}: {why}")),
            _ => return Err(format!("list element #{i} is not a tensor")),
        }
    }
    Ok(pieces)
}

/// A `torch.prim.ListUnpack` still in use when it is reached: its list was not produced by a
/// converted op. Unpacking a `torch.prim.ListConstruct` forwards the constructed values.
fn forward_unpack_of_construct(unpack: Op) -> bool {
    if !unpack.has_uses() {
        return true;
    }
    let elements = (unpack.num_operands() == 1)
        .then(|| scalars::list_elements(unpack.operand(0)))
        .flatten();
    match elements {
        Some(values) if values.len() == unpack.num_results() => {
            for (old, new) in unpack.results().into_iter().zip(values) {
                old.replace_all_uses_with(new);
            }
            true
        }
        _ => {
            error_at(
                unpack,
                "torch.prim.ListUnpack of a list that no converted op produced",
            );
            false
        }
    }
}

/// A non-torch op (func.call, ...) whose results have torch types gets builtin ones.
fn retype_results(op: Op) -> bool {
    let mut ok = true;
    for (i, r) in op.results().into_iter().enumerate() {
        match types::classify(mlir::type_of(r)) {
            TorchType::Tensor(t) => mlir::set_type(r, t.0),
            TorchType::NotTorch => {}
            TorchType::BadTensor(why) => {
                error_at(op, &format!("result #{i}: {why}"));
                ok = false;
            }
            TorchType::TensorList | TorchType::Scalar => {
                error_at(
                    op,
                    &format!(
                        "result #{i} has type {}, which dit cannot express",
                        mlir::type_text(mlir::type_of(r))
                    ),
                );
                ok = false;
            }
        }
    }
    ok
}

/// `dit.opaque` in place of the torch op: its tensor operands (also those reached through
/// lists and scalar computations, so no data dependence is lost), its results, the aten name,
/// and every constant non-tensor argument as `arg<i>` (a `None` argument has no `arg<i>`).
fn make_opaque<'a>(node: &Node<'a>) -> Result<Op<'a>, String> {
    let op = node.op;
    let context = op.context_raw();
    let operands = tensor_inputs(op);
    let mut records: Vec<(String, Attr)> = vec![("name".into(), Attr::string(context, &node.name))];
    for (i, v) in op.operands().into_iter().enumerate() {
        if v.tensor().is_some() {
            continue;
        }
        match scalars::eval(v) {
            // A Python `None` (an optional argument left out) is recorded by its absence: a
            // valueless unit attribute is nothing the runtime or a kernel table can read.
            Some(scalars::Scalar::None) | None => {}
            Some(s) => records.push((format!("arg{i}"), s.to_attr(context))),
        }
    }
    let attrs: Vec<(&str, Attr)> = records.iter().map(|(n, a)| (n.as_str(), *a)).collect();
    let opaque = OpBuilder::before(op).create(OpKind::Opaque, &[&operands], &node.outs, &attrs)?;
    if !mlir::verifies_quietly(opaque) {
        if !opaque.has_uses() {
            // SAFETY: `opaque` was created just above and has no uses (checked); no other handle to
            // it exists.
            unsafe { opaque.erase() };
        }
        return Err("its operands or results are not ranked tensors".into());
    }
    Ok(opaque)
}

/// The builtin tensors `op` reads: its tensor operands, and the tensors under its non-tensor
/// operands (list elements, the tensor of `aten.size.int`, ...), each once, in order.
fn tensor_inputs(op: Op) -> Vec<Val> {
    // A bound on the walk through scalar producers; shape arithmetic is small.
    const MAX_VISITS: usize = 4096;
    let mut out: Vec<Val> = Vec::new();
    let mut seen_values = HashSet::new();
    let mut seen_ops = HashSet::new();
    let mut stack: Vec<Val> = op.operands().into_iter().rev().collect();
    let mut visits = 0;
    while let Some(v) = stack.pop() {
        visits += 1;
        if visits > MAX_VISITS {
            break;
        }
        if v.tensor().is_some() {
            if seen_values.insert(v.key()) {
                out.push(v);
            }
            continue;
        }
        let Some(def) = v.defining_op() else { continue };
        if def.name().starts_with("torch.") && seen_ops.insert(def.raw().ptr as usize) {
            stack.extend(def.operands().into_iter().rev());
        }
    }
    out
}

/// `return %t` of a `torch.prim.TupleConstruct` returns its elements instead (a function that
/// returns a tuple returns several tensors).
fn flatten_returned_tuples(block: Block) {
    for op in block.ops() {
        if !op.is("func.return") {
            continue;
        }
        let operands = op.operands();
        if !operands.iter().any(|v| is_tuple(*v)) {
            continue;
        }
        let mut flat = Vec::new();
        for v in operands {
            match v.defining_op() {
                Some(def) if is_tuple(v) => flat.extend(def.operands()),
                _ => flat.push(v),
            }
        }
        ir::create_op_before(op, "func.return", &flat, &[], &[]);
        // SAFETY: a func.return has no results and was just replaced; the loop walks a list of the
        // block's ops taken beforehand and does not come back to it.
        unsafe { op.erase() };
    }
}

fn is_tuple(v: Val) -> bool {
    v.defining_op()
        .is_some_and(|d| d.is("torch.prim.TupleConstruct"))
}

/// Erases every torch op nothing reads any more, users before producers, until none is left
/// to erase; ops without results only when `resultless` is set. Torch ops still in use
/// afterwards are reported by [`no_foreign_ir_left`].
fn erase_dead_torch_ops(blocks: &[Block], resultless: bool) {
    loop {
        let mut erased = false;
        for block in blocks {
            for op in block.ops().into_iter().rev() {
                let dead = !op.has_uses() && (resultless || op.num_results() > 0);
                if dead && op.name().starts_with("torch.") {
                    // SAFETY: the op is unused (checked); each round walks a fresh list of the
                    // block's ops from the end, so no erased op is visited again, and torch ops
                    // with regions were refused, so no listed block is inside an erased op.
                    unsafe { op.erase() };
                    erased = true;
                }
            }
        }
        if !erased {
            break;
        }
    }
}

/// Sets `function_type` from the entry block's argument types and the first return's operand
/// types; false (reported) when a signature type is still a torch type.
fn rewrite_signature(func: Op, entry: Block, blocks: &[Block]) -> bool {
    let inputs: Vec<MlirType> = entry.arguments().into_iter().map(mlir::type_of).collect();
    let returned = blocks
        .iter()
        .flat_map(|b| b.ops())
        .find(|o| o.is("func.return"));
    let results: Vec<MlirType> = match returned {
        Some(ret) => ret.operands().into_iter().map(mlir::type_of).collect(),
        None => match func
            .attr("function_type")
            .and_then(mlir::function_signature)
        {
            Some((_, results)) => results,
            None => return true,
        },
    };
    if inputs
        .iter()
        .chain(&results)
        .any(|t| mlir::opaque_type_namespace(*t).is_some())
    {
        // The argument or the returned value was reported where it is defined.
        return false;
    }
    let attr = mlir::function_type_attr(func.context_raw(), &inputs, &results);
    func.set_attr("function_type", attr);
    true
}

/// Drops `torch.*` attributes of a module or function, and `torch.*` entries of its argument
/// and result attribute dictionaries (type bounds name torch types).
fn strip_torch_attrs(op: Op) {
    for (name, _) in op.attrs() {
        if name.starts_with("torch.") {
            mlir::remove_attr(op, &name);
        }
    }
    for list in ["arg_attrs", "res_attrs"] {
        let Some(dicts) = op.attr(list).and_then(|a| a.as_array()) else {
            continue;
        };
        let context = op.context_raw();
        let mut changed = false;
        let cleaned: Vec<Attr> = dicts
            .into_iter()
            .map(|d| match mlir::dict_entries(d) {
                Some(entries) if entries.iter().any(|(n, _)| n.starts_with("torch.")) => {
                    changed = true;
                    let kept: Vec<(&str, Attr)> = entries
                        .iter()
                        .filter(|(n, _)| !n.starts_with("torch."))
                        .map(|(n, a)| (n.as_str(), *a))
                        .collect();
                    mlir::dict_attr(context, &kept)
                }
                _ => d,
            })
            .collect();
        if changed {
            op.set_attr(list, mlir::array_attr(context, &cleaned));
        }
    }
}

/// After the conversion only builtin, func, arith and dit ops with builtin types may remain:
/// each other op, and each value of an opaque type, is a located error. In a function whose
/// conversion already failed, torch ops left behind only echo that error and are not reported.
fn no_foreign_ir_left(module: Op, failed_funcs: &HashSet<usize>) -> bool {
    let mut ok = true;
    module.walk(&mut |op| {
        let name = op.name();
        let dialect = name.split('.').next().unwrap_or("");
        if name.starts_with("torch.") {
            let mut parent = op.parent();
            while let Some(p) = parent {
                if p.is("func.func") {
                    break;
                }
                parent = p.parent();
            }
            if parent.is_some_and(|f| failed_funcs.contains(&(f.raw().ptr as usize))) {
                ok = false;
                return;
            }
            let users: Vec<String> = op
                .results()
                .into_iter()
                .flat_map(|r| r.users())
                .map(|u| u.name())
                .collect();
            // A chain of torch ops is reported once, at the op that dit code reads.
            if users.iter().all(|u| u.starts_with("torch.")) {
                ok = false;
                return;
            }
            let users: Vec<String> = users.iter().map(|u| format!("'{u}'")).collect();
            error_at(
                op,
                &format!(
                    "'{name}' is still used (by {}): its {} cannot be expressed in dit",
                    users.join(", "),
                    op.results()
                        .into_iter()
                        .map(|r| mlir::type_text(mlir::type_of(r)))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
            ok = false;
            return;
        }
        if !KEPT_DIALECTS.contains(&dialect) {
            error_at(
                op,
                &format!(
                    "'{name}' is not an op of the dit, func, arith or builtin dialects \
                     (dit-convert-torch-to-dit converts the torch dialect only)"
                ),
            );
            ok = false;
            return;
        }
        if op.is("func.func") {
            // Its arguments were checked (and reported) by convert_function.
            return;
        }
        let results = op.results().into_iter();
        let arguments = (0..op.num_regions())
            .flat_map(|r| op.region_blocks(r))
            .flat_map(|b| b.arguments());
        if let Some(v) = results
            .chain(arguments)
            .find(|v| mlir::opaque_type_namespace(mlir::type_of(*v)).is_some())
        {
            error_at(
                op,
                &format!(
                    "'{name}' has a value of type {}, which is not a builtin type",
                    mlir::type_text(mlir::type_of(v))
                ),
            );
            ok = false;
        }
    });
    ok
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{analysis::report::FusionReport, fusion::FusionSwitches};
    use dit_dialect::verifier;
    use melior::ir::{operation::OperationLike, Module};

    fn context() -> PassContext {
        PassContext {
            target: &dit_dialect::target::TARGETS[0],
            report: FusionReport::default(),
            switches: FusionSwitches::default(),
        }
    }

    /// Runs the pass on `source`; returns whether it succeeded, the op names left in the
    /// function bodies, and the report's events. Errors must be reported exactly when it fails.
    fn convert(source: &str) -> (bool, Vec<String>, Vec<crate::analysis::report::FusionEvent>) {
        let (ok, names, events, errors) = convert_with_errors(source);
        assert_eq!(ok, errors.is_empty(), "{errors:?}");
        (ok, names, events)
    }

    fn convert_with_errors(
        source: &str,
    ) -> (
        bool,
        Vec<String>,
        Vec<crate::analysis::report::FusionEvent>,
        Vec<String>,
    ) {
        let mlir = dit_dialect::new_context().expect("dialect loads");
        let (sink, _handler) = dit_dialect::DiagnosticSink::attach(&mlir);
        mlir.set_allow_unregistered_dialects(true);
        let module = Module::parse(&mlir, source).expect("parses");
        let root = Op::of_module(&module);
        let pass_context = context();
        let ok = ConvertTorchToDit.run(root, &pass_context).is_ok();
        let mut names = Vec::new();
        root.walk(&mut |op| {
            if op.parent().is_some_and(|p| p.is("func.func")) {
                names.push(op.name());
            }
        });
        if ok {
            assert!(verifier::verify(root).is_empty(), "dit rules hold");
            assert!(module.as_operation().verify(), "MLIR verifies");
        }
        let errors = sink.take().into_iter().map(|d| d.message).collect();
        (ok, names, pass_context.report.events(), errors)
    }

    #[test]
    fn converts_the_table_and_keeps_the_rest_opaque() {
        let (ok, names, events) = convert(
            r#"func.func @f(%x: !torch.vtensor<[2,8],f32>, %w: !torch.vtensor<[4,8],f32>) -> !torch.vtensor<[2,4],f32> {
                 %none = "torch.constant.none"() : () -> !torch.none
                 %0 = "torch.aten.linear"(%x, %w, %none) : (!torch.vtensor<[2,8],f32>, !torch.vtensor<[4,8],f32>, !torch.none) -> !torch.vtensor<[2,4],f32>
                 %1 = "torch.aten.tan"(%0) : (!torch.vtensor<[2,4],f32>) -> !torch.vtensor<[2,4],f32>
                 return %1 : !torch.vtensor<[2,4],f32>
               }"#,
        );
        assert!(ok);
        assert_eq!(names, ["dit.linear", "dit.opaque", "func.return"]);
        let skipped: Vec<_> = events.iter().filter(|e| !e.applied).collect();
        assert_eq!(skipped.len(), 1);
        assert!(skipped[0].detail.starts_with(
            "aten.tan: no dit op models it; kept as dit.opaque (dit-convert-torch-to-dit converts "
        ));
        assert!(skipped[0]
            .detail
            .ends_with("torch ops, listed in docs/torch-ops.md)"));
    }

    #[test]
    fn f64_results_are_computed_in_f32() {
        // x (f32) -> f64 -> cos -> f32: no f64 is left, and the report counts the two results.
        let (ok, names, events) = convert(
            r#"func.func @f(%x: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
                 %none = "torch.constant.none"() : () -> !torch.none
                 %false = "torch.constant.bool"() {value = false} : () -> !torch.bool
                 %f64 = "torch.constant.int"() {value = 7 : i64} : () -> !torch.int
                 %f32 = "torch.constant.int"() {value = 6 : i64} : () -> !torch.int
                 %0 = "torch.aten._to_copy"(%x, %f64, %none, %none, %none, %false, %none) : (!torch.vtensor<[4],f32>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none) -> !torch.vtensor<[4],f64>
                 %1 = "torch.aten.cos"(%0) : (!torch.vtensor<[4],f64>) -> !torch.vtensor<[4],f64>
                 %2 = "torch.aten._to_copy"(%1, %f32, %none, %none, %none, %false, %none) : (!torch.vtensor<[4],f64>, !torch.int, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none) -> !torch.vtensor<[4],f32>
                 return %2 : !torch.vtensor<[4],f32>
               }"#,
        );
        assert!(ok);
        assert_eq!(names, ["dit.cos", "func.return"]);
        assert!(events
            .iter()
            .any(|e| e.applied && e.detail.contains("2 f64 results computed in f32")));
    }

    #[test]
    fn a_contract_violation_falls_back_to_opaque() {
        // dit.rsqrt takes floats only: on integers the group does not verify and is rolled back.
        let (ok, names, events) = convert(
            r#"func.func @f(%x: !torch.vtensor<[4],si32>) -> !torch.vtensor<[4],si32> {
                 %0 = "torch.aten.rsqrt"(%x) : (!torch.vtensor<[4],si32>) -> !torch.vtensor<[4],si32>
                 return %0 : !torch.vtensor<[4],si32>
               }"#,
        );
        assert!(ok);
        assert_eq!(names, ["dit.opaque", "func.return"]);
        assert!(events.iter().any(|e| e.detail.contains("would break rule")));
    }

    #[test]
    fn foreign_ops_and_unconvertible_types_fail() {
        let (ok, _, _, errors) = convert_with_errors(
            r#"func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
                 %0 = "dti.gelu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
                 return %0 : tensor<4xf32>
               }"#,
        );
        assert!(!ok);
        assert_eq!(errors.len(), 1);
        assert!(errors[0].starts_with("'dti.gelu' is not an op of the dit"));
        let (ok, _, _, errors) = convert_with_errors(
            r#"func.func @f(%x: !torch.vtensor<*,f32>) -> !torch.vtensor<*,f32> {
                 return %x : !torch.vtensor<*,f32>
               }"#,
        );
        assert!(!ok);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].contains("unknown rank"));
    }
}
