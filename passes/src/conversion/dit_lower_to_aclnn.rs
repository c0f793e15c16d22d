//! `dit-lower-to-aclnn`: every dit op becomes a call into the runtime's C ABI
//! (lowering/runtime/include/dit_runtime.h) through the kernel table, in func + arith + llvm
//! dialect form that upstream MLIR lowers to the LLVM dialect and LLVM IR.
//!
//! Each function `@f(tensors...) -> tensors...` becomes two entry points, both taking `%ctx`
//! and `%inputs` (an array of caller-owned `dit_tensor_desc`) and returning `dit_rt_status`
//! (0: ok):
//! - `@f_init(%ctx, %inputs)`, the load-time pre-pack: every weight re-layout of function
//!   arguments (concatenated projection weights, weight transposes, ...) runs here once and its
//!   result is stored in the context (`dit_rt_pack_store`), where it stays (device-resident on
//!   CANN) across calls;
//! - `@f(%ctx, %inputs, %outputs)`, one inference: it reads the stored weights back
//!   (`dit_rt_pack_load`) and launches only per-call work.
//!
//! Which entry an op goes to, and whether it launches at all, is [`cost::placement`]: the cost
//! model counts by the same function, so the report's kernels are this program's launches.
//! Inside an entry every tensor is a runtime handle with an explicit lifetime: made at its
//! definition (wrap, alloc, constant, view, pack load), released right after its last use.
//! Views cost no kernel: reshape/bitcast re-describe the bytes, broadcast is a stride-0 view,
//! and a split/slice is a strided view where the cost model calls it one (one contiguous piece,
//! or read only by generated kernels); every other split, slice and transpose launches its
//! aclnn copy kernel. Kernel ops become `dit_rt_launch(ctx, op, kernel, attrs_json, inputs, n,
//! outputs, m)` where `kernel` is the kernel table's aclnn symbol (or the dit.fused kernel name)
//! and `attrs_json` carries the attributes (and, for dit.fused, the region body).
//!
//! The pass builds the lowered module as MLIR text and lets MLIR parse and verify it, then
//! swaps it in: the text form keeps the emitted IR readable in one place.

use crate::{
    analysis::cost::{self, Placement},
    registry::{DitPass, PassContext, PassFailed},
};
use dit_dialect::ops::{OpKind, DIALECT_PREFIX};
use dit_dialect::{
    diagnostics::emit_error,
    ir::{Attr, Block, Op, Val},
    tensor::TensorInfo,
};
use dit_kernel_spec::{kernels, AttrValue, Attrs, DType};
use serde_json::{json, Value};
use std::{collections::HashMap, fmt::Write};

/// The LLVM type of `dit_tensor_desc`.
pub const DESC_TYPE: &str = "!llvm.struct<(ptr, i32, i32, array<8 x i64>, array<8 x i64>)>";

/// Runtime entry points the lowered code calls, with their MLIR signatures.
pub const RUNTIME_DECLS: &[(&str, &str)] = &[
    ("dit_rt_wrap", "(!llvm.ptr, !llvm.ptr) -> !llvm.ptr"),
    (
        "dit_rt_alloc",
        "(!llvm.ptr, i32, i32, !llvm.ptr) -> !llvm.ptr",
    ),
    (
        "dit_rt_constant",
        "(!llvm.ptr, i32, i32, !llvm.ptr, !llvm.ptr, i64) -> !llvm.ptr",
    ),
    (
        "dit_rt_view",
        "(!llvm.ptr, !llvm.ptr, i32, i32, !llvm.ptr, !llvm.ptr, i64) -> !llvm.ptr",
    ),
    (
        "dit_rt_reshape",
        "(!llvm.ptr, !llvm.ptr, i32, i32, !llvm.ptr) -> !llvm.ptr",
    ),
    (
        "dit_rt_launch",
        "(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i32) -> ()",
    ),
    ("dit_rt_release", "(!llvm.ptr, !llvm.ptr) -> ()"),
    ("dit_rt_copy_out", "(!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()"),
    ("dit_rt_status", "(!llvm.ptr) -> i32"),
    (
        "dit_rt_pack_store",
        "(!llvm.ptr, !llvm.ptr, !llvm.ptr) -> ()",
    ),
    ("dit_rt_pack_load", "(!llvm.ptr, !llvm.ptr) -> !llvm.ptr"),
    ("dit_rt_to_nz", "(!llvm.ptr, !llvm.ptr) -> !llvm.ptr"),
];

/// The pass (no options).
pub struct LowerToAclnn;

impl DitPass for LowerToAclnn {
    fn run(&mut self, module: Op, context: &PassContext) -> Result<(), PassFailed> {
        let body = module.region_blocks(0);
        let Some(&top) = body.first() else {
            return Ok(());
        };
        let text = match lower_module(top, context.target.chip) {
            Ok(text) => text,
            Err((op, message)) => {
                emit_error(
                    dit_dialect::diagnostics::nearest_location(op),
                    &format!("dit-lower-to-aclnn: {message}"),
                );
                return Err(PassFailed);
            }
        };
        let Some(lowered) = parse_module(module, &text) else {
            emit_error(
                module.location(),
                "dit-lower-to-aclnn: the lowered module does not verify (a bug in the lowering)",
            );
            return Err(PassFailed);
        };
        for op in top.ops().into_iter().rev() {
            op.erase();
        }
        let new_top = lowered.region_blocks(0)[0];
        for op in new_top.ops() {
            op.move_to_end_of(top);
        }
        lowered.erase();
        Ok(())
    }
}

/// Parses `text` in `module`'s context; `None` when it does not parse or verify.
fn parse_module(module: Op, text: &str) -> Option<Op> {
    use mlir_sys::{mlirModuleCreateParse, mlirModuleGetOperation, mlirOperationVerify};
    // SAFETY: the context is alive; the parsed module is owned by the caller, which erases it.
    unsafe {
        let parsed = mlirModuleCreateParse(module.context_raw(), dit_dialect::ir::string_ref(text));
        if parsed.ptr.is_null() {
            return None;
        }
        let op = mlirModuleGetOperation(parsed);
        if !mlirOperationVerify(op) {
            Op(op).erase();
            return None;
        }
        Some(Op(op))
    }
}

/// A lowering failure: the op it is about and why.
pub type Failure = (Op, String);

/// The lowered module's text.
fn lower_module(top: Block, chip: &'static str) -> Result<String, Failure> {
    let mut globals = Globals::default();
    let mut funcs = String::new();
    let names: Vec<String> = top
        .ops()
        .iter()
        .filter_map(|op| op.attr("sym_name").and_then(|a| a.as_str()))
        .collect();
    for op in top.ops() {
        let name = op.attr("sym_name").and_then(|a| a.as_str());
        if let Some(clash) = name
            .as_ref()
            .map(|n| format!("{n}{INIT_SUFFIX}"))
            .filter(|init| names.contains(init))
        {
            return Err((
                op,
                format!("its init entry @{clash} would clash with the function of that name"),
            ));
        }
        if !op.is("func.func") {
            return Err((op, format!("cannot lower a top-level '{}'", op.name())));
        }
        if op.region_blocks(0).is_empty() {
            // A declaration: nothing to lower, and nothing a dit graph calls.
            continue;
        }
        // The lowered function is a C entry point, named in the generated header and written
        // into the lowered MLIR text: a name that is no C identifier could inject either.
        if let Some(n) = name.as_deref().filter(|n| !is_c_identifier(n)) {
            return Err((
                op,
                format!("function @{n:?} becomes a C entry point: its name must be a C identifier"),
            ));
        }
        funcs.push_str(&lower_function(op, &mut globals, chip)?);
    }
    let mut out = String::from("module {\n");
    for (name, signature) in RUNTIME_DECLS {
        let (inputs, results) = signature.split_once(" -> ").unwrap_or((signature, "()"));
        let _ = writeln!(out, "  func.func private @{name}{inputs} -> {results}");
    }
    out.push_str(&globals.text);
    out.push_str(&funcs);
    out.push_str("}\n");
    Ok(out)
}

/// `[A-Za-z_][A-Za-z0-9_]*`.
fn is_c_identifier(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Module-level constants (strings, dims arrays, constant bytes), deduplicated by content.
#[derive(Default)]
struct Globals {
    text: String,
    by_content: HashMap<String, String>,
}

impl Globals {
    /// A NUL-terminated string constant; returns its symbol.
    fn string(&mut self, s: &str) -> String {
        let mut bytes = s.as_bytes().to_vec();
        bytes.push(0);
        self.bytes(&bytes, "str")
    }

    /// A byte array constant; returns its symbol.
    fn bytes(&mut self, bytes: &[u8], prefix: &str) -> String {
        let mut escaped = String::with_capacity(bytes.len());
        for b in bytes {
            match b {
                b' '..=b'~' if *b != b'"' && *b != b'\\' => escaped.push(*b as char),
                _ => {
                    let _ = write!(escaped, "\\{b:02X}");
                }
            }
        }
        let key = format!("b:{escaped}");
        if let Some(name) = self.by_content.get(&key) {
            return name.clone();
        }
        let name = format!("__dit_{prefix}_{}", self.by_content.len());
        let _ = writeln!(
            self.text,
            "  llvm.mlir.global private constant @{name}(\"{escaped}\") {{addr_space = 0 : i32}} : !llvm.array<{} x i8>",
            bytes.len()
        );
        self.by_content.insert(key, name.clone());
        name
    }

    /// An i64 array constant; returns its symbol.
    fn i64s(&mut self, values: &[i64]) -> String {
        let list: Vec<String> = values.iter().map(i64::to_string).collect();
        let key = format!("i:{}", list.join(","));
        if let Some(name) = self.by_content.get(&key) {
            return name.clone();
        }
        let name = format!("__dit_dims_{}", self.by_content.len());
        let _ = writeln!(
            self.text,
            "  llvm.mlir.global private constant @{name}(dense<[{}]> : tensor<{}xi64>) {{addr_space = 0 : i32}} : !llvm.array<{} x i64>",
            list.join(", "),
            values.len(),
            values.len()
        );
        self.by_content.insert(key, name.clone());
        name
    }
}

/// A static tensor type as the runtime sees it.
struct RtType {
    dtype: DType,
    dims: Vec<i64>,
}

fn rt_type(v: Val, at: Op) -> Result<RtType, Failure> {
    let t = v
        .tensor()
        .ok_or_else(|| (at, "only ranked tensors can be lowered".to_string()))?;
    rt_type_of(&t, at)
}

fn rt_type_of(t: &TensorInfo, at: Op) -> Result<RtType, Failure> {
    let dtype = t.elem.dtype().ok_or_else(|| {
        (
            at,
            format!("element type {} has no runtime encoding", t.elem),
        )
    })?;
    let dims = t
        .shape
        .iter()
        .map(|d| {
            d.ok_or_else(|| {
                (
                    at,
                    "dynamic dims cannot be lowered: the runtime needs static shapes (specialize the graph first)"
                        .to_string(),
                )
            })
        })
        .collect::<Result<Vec<i64>, Failure>>()?;
    if dims.len() > 8 {
        return Err((at, format!("rank {} is over the runtime's 8", dims.len())));
    }
    Ok(RtType { dtype, dims })
}

/// Row-major strides of `dims`, in elements.
fn contiguous_strides(dims: &[i64]) -> Vec<i64> {
    let mut strides = vec![1i64; dims.len()];
    for i in (0..dims.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1] * dims[i + 1].max(1);
    }
    strides
}

/// One function being lowered.
struct FunctionLowering<'g> {
    globals: &'g mut Globals,
    body: String,
    next: usize,
    /// Runtime handle SSA name of each tensor value.
    handles: HashMap<usize, String>,
    /// Kernel launches emitted so far (each aclnn symbol of a launch's kernel string).
    launches: usize,
    /// Per call: the FRACTAL_NZ copy the init entry made of a value (by value key), which the
    /// kernels that take that operand in NZ read instead of the value itself.
    nz: HashMap<usize, String>,
    /// Per call: NZ copies to release after the op at each position.
    nz_release: HashMap<usize, Vec<String>>,
    /// The target's chip: which kernel-table entry each op lowers to.
    chip: &'static str,
    /// ` loc(...)` of the op being lowered (the function's before the first op): every line
    /// carries it, so the lowered module keeps each source op's location.
    loc: String,
}

impl FunctionLowering<'_> {
    fn fresh(&mut self) -> String {
        self.next += 1;
        format!("%v{}", self.next)
    }

    fn line(&mut self, s: impl AsRef<str>) {
        self.body.push_str("    ");
        self.body.push_str(s.as_ref());
        self.body.push_str(&self.loc);
        self.body.push('\n');
    }

    /// Lines from now on carry `op`'s location.
    fn at(&mut self, op: Op) {
        self.loc = format!(" {}", op.location());
    }

    fn i32(&mut self, value: i64) -> String {
        let v = self.fresh();
        self.line(format!("{v} = arith.constant {value} : i32"));
        v
    }

    fn i64(&mut self, value: i64) -> String {
        let v = self.fresh();
        self.line(format!("{v} = arith.constant {value} : i64"));
        v
    }

    fn address(&mut self, symbol: &str) -> String {
        let v = self.fresh();
        self.line(format!("{v} = llvm.mlir.addressof @{symbol} : !llvm.ptr"));
        v
    }

    fn null(&mut self) -> String {
        let v = self.fresh();
        self.line(format!("{v} = llvm.mlir.zero : !llvm.ptr"));
        v
    }

    fn dims(&mut self, values: &[i64]) -> String {
        if values.is_empty() {
            return self.null();
        }
        let symbol = self.globals.i64s(values);
        self.address(&symbol)
    }

    fn string(&mut self, s: &str) -> String {
        let symbol = self.globals.string(s);
        self.address(&symbol)
    }

    /// A stack array of `values` (runtime handles or nulls); returns its pointer.
    fn pointer_array(&mut self, values: &[Option<String>]) -> String {
        let count = self.i64(values.len().max(1) as i64);
        let array = self.fresh();
        self.line(format!(
            "{array} = llvm.alloca {count} x !llvm.ptr : (i64) -> !llvm.ptr"
        ));
        for (i, v) in values.iter().enumerate() {
            let value = match v {
                Some(h) => h.clone(),
                None => self.null(),
            };
            let slot = self.fresh();
            self.line(format!(
                "{slot} = llvm.getelementptr {array}[{i}] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr"
            ));
            self.line(format!("llvm.store {value}, {slot} : !llvm.ptr, !llvm.ptr"));
        }
        array
    }

    fn call(&mut self, callee: &str, args: &[String], returns: bool) -> String {
        let signature = RUNTIME_DECLS
            .iter()
            .find(|(n, _)| *n == callee)
            .map_or("", |(_, s)| s);
        if returns {
            let v = self.fresh();
            self.line(format!(
                "{v} = func.call @{callee}({}) : {signature}",
                args.join(", ")
            ));
            v
        } else {
            self.line(format!(
                "func.call @{callee}({}) : {signature}",
                args.join(", ")
            ));
            String::new()
        }
    }

    fn handle(&self, v: Val, at: Op) -> Result<String, Failure> {
        self.handles
            .get(&v.key())
            .cloned()
            .ok_or_else(|| (at, "uses a value defined outside the function".to_string()))
    }

    /// `dit_rt_view(ctx, base, dtype, rank, dims, strides, offset)` for `result`.
    fn view(
        &mut self,
        result: Val,
        base: &str,
        ty: &RtType,
        strides: &[i64],
        offset: i64,
    ) -> String {
        let dtype = self.i32(i64::from(ty.dtype.acl_code()));
        let rank = self.i32(ty.dims.len() as i64);
        let dims = self.dims(&ty.dims);
        let strides = self.dims(strides);
        let offset = self.i64(offset);
        let h = self.call(
            "dit_rt_view",
            &[
                "%ctx".into(),
                base.into(),
                dtype,
                rank,
                dims,
                strides,
                offset,
            ],
            true,
        );
        self.handles.insert(result.key(), h.clone());
        h
    }
}

/// The suffix of a function's init entry: `@f` gets `@f_init`.
pub const INIT_SUFFIX: &str = "_init";

/// The key under which the init entry of `function` stores pre-packed value `k` in the context.
pub fn pack_key(function: &str, k: usize) -> String {
    format!("{function}#{k}")
}

/// Lowers one function definition into its two entry points: `@f_init(ctx, inputs)`, which runs
/// the load-time pre-pack (every op [`cost::placement`] puts there) and stores the re-laid
/// weights in the context, and `@f(ctx, inputs, outputs)`, which does the per-call work and reads
/// the pre-packed weights back. Each entry wraps only the inputs it reads.
fn lower_function(func: Op, globals: &mut Globals, chip: &'static str) -> Result<String, Failure> {
    let name = func
        .attr("sym_name")
        .and_then(|a| a.as_str())
        .unwrap_or_default();
    let blocks = func.region_blocks(0);
    if blocks.len() != 1 {
        return Err((
            func,
            "only single-block functions can be lowered".to_string(),
        ));
    }
    let block = blocks[0];
    let ops = block.ops();
    let in_init: Vec<bool> = ops
        .iter()
        .map(|op| matches!(cost::placement(*op), Placement::Prepack { .. }))
        .collect();
    let init_ops: Vec<Op> = ops
        .iter()
        .zip(&in_init)
        .filter_map(|(op, i)| i.then_some(*op))
        .collect();
    let call_ops: Vec<Op> = ops
        .iter()
        .zip(&in_init)
        .filter_map(|(op, i)| (!i).then_some(*op))
        .collect();
    // Pre-packed values: results of init ops that a per-call op reads.
    let packed: Vec<Val> = init_ops
        .iter()
        .flat_map(|op| op.results())
        .filter(|r| r.users().iter().any(|u| !init_ops.contains(u)))
        .collect();
    let arguments = block.arguments();
    for arg in &arguments {
        rt_type(*arg, func)?;
    }
    // Operands a per-call kernel takes in FRACTAL_NZ: the init entry re-lays each once.
    let mut nz_values: Vec<Val> = Vec::new();
    for op in &call_ops {
        for v in nz_operands(*op, chip) {
            let at_load = v.defining_op().is_none_or(|d| init_ops.contains(&d));
            if !at_load {
                return Err((
                    *op,
                    format!(
                        "'{}' takes this operand in FRACTAL_NZ, which the load-time pre-pack makes \
                         only of a function argument or a re-layout of one; this one is computed per \
                         call",
                        op.name()
                    ),
                ));
            }
            if !nz_values.contains(&v) {
                nz_values.push(v);
            }
        }
    }
    let describe = |values: &[Val]| -> Result<String, Failure> {
        let list = values
            .iter()
            .map(|v| {
                let t = rt_type(*v, func)?;
                let dims: Vec<String> = t.dims.iter().map(i64::to_string).collect();
                Ok(format!("\"{}[{}]\"", t.dtype.mlir_name(), dims.join(",")))
            })
            .collect::<Result<Vec<_>, Failure>>()?;
        Ok(format!("[{}]", list.join(", ")))
    };
    let reads = |subset: &[Op], nz: &[Val]| -> String {
        let list: Vec<String> = arguments
            .iter()
            .enumerate()
            .filter(|(_, a)| {
                a.users()
                    .iter()
                    .any(|u| subset.contains(u) && !reads_only_in_nz(*u, **a, chip))
                    || nz.contains(a)
            })
            .map(|(i, _)| i.to_string())
            .collect();
        if list.is_empty() {
            "array<i64>".to_string()
        } else {
            format!("array<i64: {}>", list.join(", "))
        }
    };
    let results = ops
        .iter()
        .find(|o| o.is("func.return"))
        .map(|r| r.operands())
        .unwrap_or_default();
    let prepack = cost::measure(func);

    let mut init = FunctionLowering::new(globals, chip);
    init.entry(
        &name,
        &init_ops,
        &arguments,
        &packed,
        &nz_values,
        Phase::Init,
    )?;
    let (init_body, init_launches) = (std::mem::take(&mut init.body), init.launches);
    let mut call = FunctionLowering::new(init.globals, chip);
    call.entry(
        &name,
        &call_ops,
        &arguments,
        &packed,
        &nz_values,
        Phase::PerCall,
    )?;

    let mut out = String::new();
    // The dit-level signature stays on the functions for the C header (--emit=header), with
    // which inputs each entry reads and what the pre-pack costs.
    let _ = writeln!(
        out,
        "  func.func @{name}{INIT_SUFFIX}(%ctx: !llvm.ptr, %inputs: !llvm.ptr) -> i32 attributes {{dit.init_of = \"{name}\", dit.inputs = {}, dit.reads = {}, dit.launches = {} : i64, dit.prepack_bytes = {} : i64}} {{",
        describe(&arguments)?,
        reads(&init_ops, &nz_values),
        init_launches,
        prepack.prepack_bytes,
    );
    out.push_str(&init_body);
    out.push_str("  }\n");
    let _ = writeln!(
        out,
        "  func.func @{name}(%ctx: !llvm.ptr, %inputs: !llvm.ptr, %outputs: !llvm.ptr) -> i32 attributes {{dit.init = \"{name}{INIT_SUFFIX}\", dit.inputs = {}, dit.outputs = {}, dit.reads = {}, dit.launches = {} : i64}} {{",
        describe(&arguments)?,
        describe(&results)?,
        reads(&call_ops, &[]),
        call.launches,
    );
    out.push_str(&call.body);
    out.push_str("  }\n");
    Ok(out)
}

/// Which entry point a [`FunctionLowering`] writes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// `@f_init`: the pre-pack; stores its packed values.
    Init,
    /// `@f`: one inference; loads the packed values, copies the results out.
    PerCall,
}

impl<'g> FunctionLowering<'g> {
    fn new(globals: &'g mut Globals, chip: &'static str) -> Self {
        FunctionLowering {
            globals,
            body: String::new(),
            next: 0,
            handles: HashMap::new(),
            launches: 0,
            nz: HashMap::new(),
            nz_release: HashMap::new(),
            chip,
            loc: String::new(),
        }
    }

    /// Writes one entry point's body: wraps the arguments `ops` read, (per call) loads the
    /// packed values, lowers `ops` in order with each handle released after its last use, and
    /// (init) stores the packed values as they are made.
    fn entry(
        &mut self,
        function: &str,
        ops: &[Op],
        arguments: &[Val],
        packed: &[Val],
        nz_values: &[Val],
        phase: Phase,
    ) -> Result<(), Failure> {
        if let Some(function) = ops.first().and_then(|o| o.parent()) {
            self.at(function);
        }
        // Position of each value's last use among `ops` (ops inside dit.fused regions use
        // region arguments, so the block's own ops are all that matter). A per-call use in an
        // NZ slot reads the NZ copy instead, and is a use of that copy.
        let mut last_use: HashMap<usize, usize> = HashMap::new();
        let mut last_nz_use: HashMap<usize, usize> = HashMap::new();
        for (i, op) in ops.iter().enumerate() {
            let nz = nz_operands(*op, self.chip);
            for v in op.operands() {
                if phase == Phase::PerCall && nz.contains(&v) {
                    last_nz_use.insert(v.key(), i);
                    if reads_only_in_nz(*op, v, self.chip) {
                        continue;
                    }
                }
                last_use.insert(v.key(), i);
            }
        }
        // The init entry makes the NZ copies: it needs each such value alive until then.
        let end = ops.len();
        if phase == Phase::Init {
            for v in nz_values {
                last_use.entry(v.key()).or_insert(end);
            }
        }
        let mut release_after: HashMap<usize, Vec<Val>> = HashMap::new();
        for (i, arg) in arguments.iter().enumerate() {
            let Some(&at) = last_use.get(&arg.key()) else {
                continue;
            };
            let p = self.fresh();
            self.line(format!(
                "{p} = llvm.getelementptr %inputs[{i}] : (!llvm.ptr) -> !llvm.ptr, {DESC_TYPE}"
            ));
            let h = self.call("dit_rt_wrap", &["%ctx".into(), p], true);
            self.handles.insert(arg.key(), h);
            release_after.entry(at).or_default().push(*arg);
        }
        if phase == Phase::PerCall {
            for (k, v) in packed.iter().enumerate() {
                let Some(&at) = last_use.get(&v.key()) else {
                    continue;
                };
                let key = self.string(&pack_key(function, k));
                let h = self.call("dit_rt_pack_load", &["%ctx".into(), key], true);
                self.handles.insert(v.key(), h);
                release_after.entry(at).or_default().push(*v);
            }
            let mut nz_release: HashMap<usize, Vec<String>> = HashMap::new();
            for (j, v) in nz_values.iter().enumerate() {
                let Some(&at) = last_nz_use.get(&v.key()) else {
                    continue;
                };
                let key = self.string(&nz_key(function, j));
                let h = self.call("dit_rt_pack_load", &["%ctx".into(), key], true);
                self.nz.insert(v.key(), h.clone());
                nz_release.entry(at).or_default().push(h);
            }
            self.nz_release = nz_release;
        } else {
            // Arguments the init entry re-lays into NZ: right after they are wrapped.
            for (j, v) in nz_values.iter().enumerate() {
                if v.defining_op().is_none() {
                    self.store_nz(function, j, *v, None)?;
                }
            }
        }
        for (i, op) in ops.iter().enumerate() {
            self.at(*op);
            let _ = writeln!(self.body, "    // {}", op.name());
            if op.is("func.return") {
                copy_out_results(self, *op)?;
            } else {
                lower_op(self, *op)?;
                for r in op.results() {
                    if phase == Phase::Init {
                        if let Some(k) = packed.iter().position(|p| *p == r) {
                            let h = self.handle(r, *op)?;
                            let key = self.string(&pack_key(function, k));
                            self.call("dit_rt_pack_store", &["%ctx".into(), key, h], false);
                        }
                        if let Some(j) = nz_values.iter().position(|p| *p == r) {
                            self.store_nz(function, j, r, Some(*op))?;
                        }
                    }
                    let at = last_use.get(&r.key()).copied().unwrap_or(i);
                    release_after.entry(at).or_default().push(r);
                }
            }
            for v in release_after.remove(&i).unwrap_or_default() {
                if let Some(h) = self.handles.get(&v.key()).cloned() {
                    self.call("dit_rt_release", &["%ctx".into(), h], false);
                }
            }
            for h in self.nz_release.remove(&i).unwrap_or_default() {
                self.call("dit_rt_release", &["%ctx".into(), h], false);
            }
        }
        for v in release_after.remove(&end).unwrap_or_default() {
            if let Some(h) = self.handles.get(&v.key()).cloned() {
                self.call("dit_rt_release", &["%ctx".into(), h], false);
            }
        }
        let status = self.call("dit_rt_status", &["%ctx".into()], true);
        self.line(format!("func.return {status} : i32"));
        Ok(())
    }
}

impl FunctionLowering<'_> {
    /// Init entry: re-lays `v` into FRACTAL_NZ (`dit_rt_to_nz`, one pre-pack launch) and stores
    /// the copy under [`nz_key`] for the per-call entry.
    fn store_nz(
        &mut self,
        function: &str,
        j: usize,
        v: Val,
        at: Option<Op>,
    ) -> Result<(), Failure> {
        let at = at.or_else(|| v.users().first().copied()).ok_or_else(|| {
            (
                v.users()[0],
                "an NZ operand without a user (a lowering bug)".to_string(),
            )
        })?;
        let h = self.handle(v, at)?;
        let nz = self.call("dit_rt_to_nz", &["%ctx".into(), h], true);
        self.launches += 1;
        let key = self.string(&nz_key(function, j));
        self.call(
            "dit_rt_pack_store",
            &["%ctx".into(), key, nz.clone()],
            false,
        );
        self.call("dit_rt_release", &["%ctx".into(), nz], false);
        Ok(())
    }
}

/// The key of the `j`-th FRACTAL_NZ copy the init entry of `function` stores.
pub fn nz_key(function: &str, j: usize) -> String {
    format!("{function}#nz{j}")
}

/// Operand slots the kernel-table entry of `op` on `chip` takes in FRACTAL_NZ (`View::Nz`).
fn nz_slots(op: Op, chip: &str) -> Vec<usize> {
    runtime_attrs(op)
        .ok()
        .and_then(|attrs| kernels::kernel_for_target(op.kind()?, &attrs, chip))
        .map(kernels::nz_slots)
        .unwrap_or_default()
}

/// The values `op` takes in FRACTAL_NZ on `chip`.
pub fn nz_operands(op: Op, chip: &str) -> Vec<Val> {
    let slots = operand_slots(op);
    nz_slots(op, chip)
        .into_iter()
        .filter_map(|s| slots.get(s).copied().flatten())
        .collect()
}

/// Whether `op` reads `v` only through NZ slots (so the per-call entry needs only the copy).
fn reads_only_in_nz(op: Op, v: Val, chip: &str) -> bool {
    let nz = nz_slots(op, chip);
    let slots = operand_slots(op);
    !nz.is_empty()
        && slots
            .iter()
            .enumerate()
            .all(|(i, s)| *s != Some(v) || nz.contains(&i))
}

/// `func.return`: each result is copied into the caller's output descriptor.
fn copy_out_results(f: &mut FunctionLowering, op: Op) -> Result<(), Failure> {
    for (j, v) in op.operands().into_iter().enumerate() {
        rt_type(v, op)?;
        let h = f.handle(v, op)?;
        let p = f.fresh();
        f.line(format!(
            "{p} = llvm.getelementptr %outputs[{j}] : (!llvm.ptr) -> !llvm.ptr, {DESC_TYPE}"
        ));
        f.call("dit_rt_copy_out", &["%ctx".into(), h, p], false);
    }
    Ok(())
}

/// Lowers one op of a function body: a view re-describes memory, anything that launches goes
/// through the kernel table (the same decision the cost model counts, [`cost::placement`]).
fn lower_op(f: &mut FunctionLowering, op: Op) -> Result<(), Failure> {
    let name = op.name();
    if name == "arith.constant" {
        return lower_constant(f, op);
    }
    if !name.starts_with(DIALECT_PREFIX) {
        return Err((op, format!("cannot lower '{name}': not a dit op")));
    }
    let launches = match cost::placement(op) {
        Placement::View => 0,
        Placement::Prepack { launches } | Placement::PerCall { launches } => launches,
    };
    if launches == 0 {
        // Views (`Dit_ViewLike`) read their first operand's memory in place.
        if !op.kind().is_some_and(OpKind::is_view_like) {
            return Err((
                op,
                format!("'{name}' launches no kernel but is not a view op (a lowering bug)"),
            ));
        }
        return lower_view(f, op);
    }
    lower_kernel(f, op)
}

fn lower_constant(f: &mut FunctionLowering, op: Op) -> Result<(), Failure> {
    let result = op.result(0);
    let ty = rt_type(result, op)?;
    if ty.dtype.bits() < 8 {
        return Err((
            op,
            format!(
                "{} constants are not lowered (sub-byte packing)",
                ty.dtype.mlir_name()
            ),
        ));
    }
    let element = ty.dtype.bits() / 8;
    let (bytes, _) = op
        .attr("value")
        .and_then(|a| a.dense_bytes(element))
        .ok_or_else(|| (op, "only dense tensor constants are lowered".to_string()))?;
    let symbol = f.globals.bytes(&bytes, "cst");
    let data = f.address(&symbol);
    let dtype = f.i32(i64::from(ty.dtype.acl_code()));
    let rank = f.i32(ty.dims.len() as i64);
    let dims = f.dims(&ty.dims);
    let nbytes = f.i64(bytes.len() as i64);
    let h = f.call(
        "dit_rt_constant",
        &["%ctx".into(), dtype, rank, dims, data, nbytes],
        true,
    );
    f.handles.insert(result.key(), h);
    Ok(())
}

fn lower_view(f: &mut FunctionLowering, op: Op) -> Result<(), Failure> {
    let kind = op.kind();
    let base = f.handle(op.operand(0), op)?;
    let input = rt_type(op.operand(0), op)?;
    let base_strides = contiguous_strides(&input.dims);
    match kind {
        Some(OpKind::Reshape | OpKind::Bitcast) => {
            let ty = rt_type(op.result(0), op)?;
            let dtype = f.i32(i64::from(ty.dtype.acl_code()));
            let rank = f.i32(ty.dims.len() as i64);
            let dims = f.dims(&ty.dims);
            let h = f.call(
                "dit_rt_reshape",
                &["%ctx".into(), base, dtype, rank, dims],
                true,
            );
            f.handles.insert(op.result(0).key(), h);
        }
        Some(OpKind::Broadcast) => {
            let ty = rt_type(op.result(0), op)?;
            // numpy alignment from the right; a size-1 (or missing) input dim repeats: stride 0.
            let shift = ty.dims.len() - input.dims.len().min(ty.dims.len());
            let strides: Vec<i64> = (0..ty.dims.len())
                .map(|j| {
                    if j < shift {
                        0
                    } else {
                        let k = j - shift;
                        if input.dims[k] == 1 && ty.dims[j] != 1 {
                            0
                        } else {
                            base_strides[k]
                        }
                    }
                })
                .collect();
            f.view(op.result(0), &base, &ty, &strides, 0);
        }
        Some(OpKind::Split | OpKind::Slice) => {
            let rank = input.dims.len() as i64;
            let dim = dit_dialect::ops::i64_attr(op, "dim").unwrap_or(0);
            let dim = if dim < 0 { dim + rank } else { dim } as usize;
            if dim >= input.dims.len() {
                return Err((op, "dim out of range".to_string()));
            }
            if kind == Some(OpKind::Split) {
                let mut start = 0i64;
                for r in op.results() {
                    let ty = rt_type(r, op)?;
                    f.view(r, &base, &ty, &base_strides, start * base_strides[dim]);
                    start += ty.dims[dim];
                }
            } else {
                let size = input.dims[dim];
                let mut start = dit_dialect::ops::i64_attr(op, "start").unwrap_or(0);
                if start < 0 {
                    start += size;
                }
                let start = start.clamp(0, size);
                let step = dit_dialect::ops::i64_attr(op, "step").unwrap_or(1).max(1);
                let ty = rt_type(op.result(0), op)?;
                let mut strides = base_strides.clone();
                strides[dim] *= step;
                f.view(
                    op.result(0),
                    &base,
                    &ty,
                    &strides,
                    start * base_strides[dim],
                );
            }
        }
        _ => unreachable!("VIEW_OPS and this match list the same ops"),
    }
    Ok(())
}

/// The attributes of a dit op as the runtime reads them.
pub fn runtime_attrs(op: Op) -> Result<Attrs, Failure> {
    let mut attrs = Attrs::new();
    for (name, attr) in op.attrs() {
        let value = attr_value(attr).ok_or_else(|| {
            (
                op,
                format!("attribute '{name}' has a kind the runtime does not take"),
            )
        })?;
        attrs.insert(name, value);
    }
    Ok(attrs)
}

fn attr_value(attr: Attr) -> Option<AttrValue> {
    if let Some(b) = attr.as_bool() {
        return Some(AttrValue::Bool(b));
    }
    if let Some(i) = attr.as_i64() {
        return Some(AttrValue::Int(i));
    }
    if let Some(x) = attr.as_f64() {
        return Some(AttrValue::Float(x));
    }
    if let Some(s) = attr.as_str() {
        return Some(AttrValue::Str(s));
    }
    if let Some(v) = attr.as_i64_array() {
        return Some(AttrValue::Ints(v));
    }
    attr.as_i32_array()
        .map(|v| AttrValue::Ints(v.into_iter().map(i64::from).collect()))
}

/// One entry per operand slot (`None`: an absent optional operand), from operandSegmentSizes
/// when the op has it (a present slot holds exactly one value: dit has no variadic segments
/// next to optional ones).
fn operand_slots(op: Op) -> Vec<Option<Val>> {
    let operands = op.operands();
    let Some(sizes) = op
        .attr("operandSegmentSizes")
        .and_then(|a| a.as_i32_array())
    else {
        return operands.into_iter().map(Some).collect();
    };
    let mut slots = Vec::new();
    let mut next = operands.into_iter();
    for size in sizes {
        if size == 0 {
            slots.push(None);
        }
        for _ in 0..size {
            slots.push(next.next());
        }
    }
    slots
}

/// `dit.fused`'s region as the runtime's JSON body program (also what `--emit=ascendc`
/// generates kernels from). Errors name the op that cannot be expressed (dynamic dims, an
/// element type without runtime encoding, a non-dit op in the region).
pub fn fused_body(op: Op) -> Result<Value, Failure> {
    let block = op
        .region_blocks(0)
        .into_iter()
        .next()
        .ok_or_else(|| (op, format!("{} has no body", OpKind::Fused)))?;
    let type_json = |v: Val, at: Op| -> Result<Value, Failure> {
        let t = rt_type(v, at)?;
        Ok(json!({"dtype": t.dtype.mlir_name(), "shape": t.dims}))
    };
    let mut ids: HashMap<usize, usize> = HashMap::new();
    let mut args = Vec::new();
    for a in block.arguments() {
        ids.insert(a.key(), ids.len());
        args.push(type_json(a, op)?);
    }
    let mut body_ops = Vec::new();
    let mut yields = Vec::new();
    for inner in block.ops() {
        let id_of = |v: Val| ids.get(&v.key()).copied();
        if inner.is_kind(OpKind::Yield) {
            for v in inner.operands() {
                yields
                    .push(id_of(v).ok_or_else(|| (inner, "yields an unknown value".to_string()))?);
            }
            continue;
        }
        if !inner.name().starts_with(DIALECT_PREFIX) {
            return Err((
                inner,
                format!("cannot lower '{}' in dit.fused", inner.name()),
            ));
        }
        let operands: Vec<Value> = operand_slots(inner)
            .into_iter()
            .map(|slot| match slot {
                Some(v) => id_of(v).map(Value::from).ok_or_else(|| {
                    (
                        inner,
                        "reads a value from outside its dit.fused".to_string(),
                    )
                }),
                None => Ok(Value::Null),
            })
            .collect::<Result<_, _>>()?;
        let results: Vec<Value> = inner
            .results()
            .into_iter()
            .map(|r| type_json(r, inner))
            .collect::<Result<_, _>>()?;
        body_ops.push(json!({
            "name": inner.name(),
            "operands": operands,
            "attrs": runtime_attrs(inner)?,
            "results": results,
        }));
        for r in inner.results() {
            ids.insert(r.key(), ids.len());
        }
    }
    Ok(json!({"args": args, "ops": body_ops, "yield": yields}))
}

fn lower_kernel(f: &mut FunctionLowering, op: Op) -> Result<(), Failure> {
    let name = op.name();
    let kind = op.kind();
    let attrs = runtime_attrs(op)?;
    let (kernel, attrs_json) = if kind == Some(OpKind::Fused) {
        let kernel = match attrs.get("kernel") {
            Some(AttrValue::Str(k)) => k.clone(),
            _ => return Err((op, format!("{} without a kernel name", OpKind::Fused))),
        };
        let body = fused_body(op)?;
        (
            kernel.clone(),
            json!({"kernel": kernel, "body": body}).to_string(),
        )
    } else {
        let spec = kind
            .and_then(|k| kernels::kernel_for_target(k, &attrs, f.chip))
            .ok_or_else(|| {
                (
                    op,
                    format!("no kernel table entry for '{name}' with these attributes"),
                )
            })?;
        let calls = spec.calls();
        if kind == Some(OpKind::Opaque) {
            // No library kernel: the call names the op itself; a backend that implements it
            // (the CPU reference knows a few, like topk) runs it, any other reports it.
            let callee = match attrs.get("name") {
                Some(AttrValue::Str(n)) => n.clone(),
                _ => return Err((op, format!("{} without a name", OpKind::Opaque))),
            };
            if !dit_runtime::cpu::OPAQUE_NAMES.contains(&callee.as_str()) {
                return Err((
                    op,
                    format!(
                        "{} '{callee}' has no runtime semantics: no kernel runs it and the \
                         CPU reference knows only {}",
                        OpKind::Opaque,
                        dit_runtime::cpu::OPAQUE_NAMES.join(", ")
                    ),
                ));
            }
            (
                callee,
                serde_json::to_string(&attrs).unwrap_or_else(|_| "{}".into()),
            )
        } else if calls.is_empty() {
            return Err((op, format!("'{name}' has no kernel: {}", spec.note)));
        } else {
            let symbol: Vec<&str> = calls.iter().map(|c| c.symbol).collect();
            (
                symbol.join("+"),
                serde_json::to_string(&attrs).unwrap_or_else(|_| "{}".into()),
            )
        }
    };
    let mut inputs = Vec::new();
    let nz = nz_slots(op, f.chip);
    for (i, slot) in operand_slots(op).into_iter().enumerate() {
        if let (true, Some(v)) = (nz.contains(&i), slot) {
            let h = f.nz.get(&v.key()).cloned().ok_or_else(|| {
                (
                    op,
                    "takes an operand in FRACTAL_NZ, which only the per-call entry reads from the pre-pack"
                        .to_string(),
                )
            })?;
            inputs.push(Some(h));
            continue;
        }
        inputs.push(match slot {
            Some(v) => Some(f.handle(v, op)?),
            None => None,
        });
    }
    let mut outputs = Vec::new();
    for r in op.results() {
        let ty = rt_type(r, op)?;
        let dtype = f.i32(i64::from(ty.dtype.acl_code()));
        let rank = f.i32(ty.dims.len() as i64);
        let dims = f.dims(&ty.dims);
        let h = f.call("dit_rt_alloc", &["%ctx".into(), dtype, rank, dims], true);
        f.handles.insert(r.key(), h.clone());
        outputs.push(Some(h));
    }
    let n_in = f.i32(inputs.len() as i64);
    let n_out = f.i32(outputs.len() as i64);
    let input_array = f.pointer_array(&inputs);
    let output_array = f.pointer_array(&outputs);
    f.launches += kernel.split('+').count();
    let op_name = f.string(&name);
    let kernel = f.string(&kernel);
    let attrs = f.string(&attrs_json);
    f.call(
        "dit_rt_launch",
        &[
            "%ctx".into(),
            op_name,
            kernel,
            attrs,
            input_array,
            n_in,
            output_array,
            n_out,
        ],
        false,
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strides_are_row_major() {
        assert_eq!(contiguous_strides(&[2, 3, 4]), vec![12, 4, 1]);
        assert_eq!(contiguous_strides(&[]), Vec::<i64>::new());
        assert_eq!(contiguous_strides(&[5]), vec![1]);
    }

    #[test]
    fn globals_are_deduplicated_and_escaped() {
        let mut g = Globals::default();
        let a = g.string("a\"b");
        let b = g.string("a\"b");
        assert_eq!(a, b);
        assert!(g.text.contains("a\\22b\\00"));
        let d = g.i64s(&[1, 2]);
        assert_eq!(d, g.i64s(&[1, 2]));
        assert!(g.text.contains("dense<[1, 2]> : tensor<2xi64>"));
    }
}
