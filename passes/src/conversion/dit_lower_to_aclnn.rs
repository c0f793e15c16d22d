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
//! The pass builds the lowered module op by op (melior's `OperationBuilder`), each op located
//! at the dit op it comes from (the function's location for what precedes the first op, the
//! module's for the runtime declarations), verifies it, then swaps it in for the dit module.

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
use melior::{
    ir::{
        attribute::{
            ArrayAttribute, DenseElementsAttribute, DenseI32ArrayAttribute, DenseI64ArrayAttribute,
            FlatSymbolRefAttribute, IntegerAttribute, StringAttribute, TypeAttribute,
        },
        operation::{OperationBuilder, OperationLike},
        r#type::{FunctionType, RankedTensorType},
        Attribute, Block as IrBlock, BlockLike, BlockRef, Identifier, Location, Module, Operation,
        OperationRef, Region, RegionLike, Type, Value as IrValue,
    },
    Context, ContextRef,
};
use serde_json::{json, Value};
use std::collections::HashMap;

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
        // SAFETY: the module's context outlives the pass run, which is all this reference lives.
        let mlir_context = unsafe { ContextRef::from_raw(module.context_raw()) };
        // SAFETY: as above.
        let mlir_context: &Context = unsafe { mlir_context.to_ref() };
        let fail = |(op, message): Failure| {
            emit_error(
                dit_dialect::diagnostics::nearest_location(op),
                &format!("dit-lower-to-aclnn: {message}"),
            );
            PassFailed
        };
        let mut lowering = ModuleLowering::new(mlir_context, module).map_err(fail)?;
        let funcs = lower_module(&mut lowering, top, context.target.chip).map_err(fail)?;
        let lowered = Module::new(module.location());
        let new_body = lowered.body();
        for decl in lowering.declarations(module).map_err(fail)? {
            new_body.append_operation(decl);
        }
        for global in lowering.globals.ops.drain(..) {
            new_body.append_operation(global);
        }
        for func in funcs {
            new_body.append_operation(func);
        }
        if !lowered.as_operation().verify() {
            emit_error(
                module.location(),
                "dit-lower-to-aclnn: the lowered module does not verify (a bug in the lowering)",
            );
            return Err(PassFailed);
        }
        for op in top.ops().into_iter().rev() {
            // SAFETY: the top-level ops are erased last-first (a user before what it reads), from a
            // list taken first; the lowering built new ops and holds no handle into the old body,
            // and none is used afterwards.
            unsafe { op.erase() };
        }
        for op in Block::from(new_body).ops() {
            // SAFETY: the op moves from `lowered`, a module of the same context dropped at the
            // end of this function, into the pass's module, which outlives every handle to it;
            // no handle to it is kept as one into `lowered`.
            unsafe { op.move_to_end_of_other_tree(top) };
        }
        Ok(())
    }
}

/// A lowering failure: the op it is about and why.
pub type Failure<'d> = (Op<'d>, String);

/// The lowered functions (two entries per definition), in order; the module-level constants
/// they use collect in `lowering`.
fn lower_module<'d: 'c, 'c>(
    lowering: &mut ModuleLowering<'c>,
    top: Block<'d>,
    chip: &'static str,
) -> Result<Vec<Operation<'c>>, Failure<'d>> {
    let mut funcs = Vec::new();
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
        // The lowered function is a C entry point, named in the generated header: a name that
        // is no C identifier could inject code there.
        if let Some(n) = name.as_deref().filter(|n| !is_c_identifier(n)) {
            return Err((
                op,
                format!("function @{n:?} becomes a C entry point: its name must be a C identifier"),
            ));
        }
        funcs.extend(lower_function(op, lowering, chip)?);
    }
    Ok(funcs)
}

/// `[A-Za-z_][A-Za-z0-9_]*`.
fn is_c_identifier(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Which content a module-level constant holds (the deduplication key's kind).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum GlobalKind {
    /// Bytes (strings with their NUL, constant tensor data).
    Bytes,
    /// An `i64` array (dims, strides), keyed by the values' bytes.
    I64s,
}

/// Module-level constants (strings, dims arrays, constant bytes), deduplicated by content, in
/// the order they are first used.
#[derive(Default)]
struct Globals<'c> {
    ops: Vec<Operation<'c>>,
    by_content: HashMap<(GlobalKind, Vec<u8>), String>,
}

/// Attribute names the built ops use, uniqued once per lowering rather than per op.
struct Names<'c> {
    addr_space: Identifier<'c>,
    callee: Identifier<'c>,
    constant: Identifier<'c>,
    elem_type: Identifier<'c>,
    function_type: Identifier<'c>,
    global_name: Identifier<'c>,
    global_type: Identifier<'c>,
    linkage: Identifier<'c>,
    ordering: Identifier<'c>,
    raw_constant_indices: Identifier<'c>,
    sym_name: Identifier<'c>,
    sym_visibility: Identifier<'c>,
    unnamed_addr: Identifier<'c>,
    value: Identifier<'c>,
    visibility: Identifier<'c>,
}

impl<'c> Names<'c> {
    fn new(context: &'c Context) -> Self {
        let id = |name: &str| Identifier::new(context, name);
        Names {
            addr_space: id("addr_space"),
            callee: id("callee"),
            constant: id("constant"),
            elem_type: id("elem_type"),
            function_type: id("function_type"),
            global_name: id("global_name"),
            global_type: id("global_type"),
            linkage: id("linkage"),
            ordering: id("ordering"),
            raw_constant_indices: id("rawConstantIndices"),
            sym_name: id("sym_name"),
            sym_visibility: id("sym_visibility"),
            unnamed_addr: id("unnamed_addr"),
            value: id("value"),
            visibility: id("visibility_"),
        }
    }
}

/// What every built op of one lowering shares: the context, the types, the attribute names,
/// the runtime's signatures, and the module-level constants made so far.
struct ModuleLowering<'c> {
    context: &'c Context,
    ptr: Type<'c>,
    i8: Type<'c>,
    i32: Type<'c>,
    i64: Type<'c>,
    /// [`DESC_TYPE`].
    desc: Type<'c>,
    /// `#llvm.linkage<private>`.
    private: Attribute<'c>,
    /// [`RUNTIME_DECLS`], as types.
    signatures: Vec<(&'static str, FunctionType<'c>)>,
    names: Names<'c>,
    globals: Globals<'c>,
}

/// Builds the op; a failure (which only result-type inference can cause, and no op here asks
/// for it) is reported at `at`.
fn build<'d, 'c>(
    builder: OperationBuilder<'c>,
    name: &str,
    at: Op<'d>,
) -> Result<Operation<'c>, Failure<'d>> {
    builder.build().map_err(|e| {
        (
            at,
            format!("cannot build '{name}': {e} (a bug in the lowering)"),
        )
    })
}

/// A string attribute holding `bytes` as they are (not necessarily UTF-8: constant data).
fn bytes_attr<'c>(context: &'c Context, bytes: &[u8]) -> Attribute<'c> {
    // SAFETY: MLIR copies the bytes into the context; a string attribute holds any bytes (the
    // printer escapes what is not printable).
    unsafe {
        Attribute::from_raw(mlir_sys::mlirStringAttrGet(
            context.to_raw(),
            mlir_sys::MlirStringRef {
                data: bytes.as_ptr().cast(),
                length: bytes.len(),
            },
        ))
    }
}

impl<'c> ModuleLowering<'c> {
    /// Parses the runtime's types (a parse failure, reported at `module`, means the llvm
    /// dialect is not loaded).
    fn new<'d: 'c>(context: &'c Context, module: Op<'d>) -> Result<Self, Failure<'d>> {
        let parse_type = |text: &str| {
            Type::parse(context, text).ok_or_else(|| {
                (
                    module,
                    format!("cannot make type {text} (is the llvm dialect loaded?)"),
                )
            })
        };
        let mut signatures = Vec::with_capacity(RUNTIME_DECLS.len());
        for (name, signature) in RUNTIME_DECLS {
            let signature = FunctionType::try_from(parse_type(signature)?)
                .map_err(|_| (module, format!("@{name}: {signature} is no function type")))?;
            signatures.push((*name, signature));
        }
        let private = Attribute::parse(context, "#llvm.linkage<private>").ok_or_else(|| {
            (
                module,
                "cannot make #llvm.linkage<private> (is the llvm dialect loaded?)".to_string(),
            )
        })?;
        Ok(ModuleLowering {
            context,
            ptr: parse_type("!llvm.ptr")?,
            i8: melior::ir::r#type::IntegerType::new(context, 8).into(),
            i32: melior::ir::r#type::IntegerType::new(context, 32).into(),
            i64: melior::ir::r#type::IntegerType::new(context, 64).into(),
            desc: parse_type(DESC_TYPE)?,
            private,
            signatures,
            names: Names::new(context),
            globals: Globals::default(),
        })
    }

    /// The runtime entry points, `func.func private @name(...)`, at the module's location.
    fn declarations<'d: 'c>(&self, module: Op<'d>) -> Result<Vec<Operation<'c>>, Failure<'d>> {
        let n = &self.names;
        self.signatures
            .iter()
            .map(|(name, signature)| {
                let builder = OperationBuilder::new("func.func", module.location())
                    .add_attributes(&[
                        (
                            n.function_type,
                            TypeAttribute::new((*signature).into()).into(),
                        ),
                        (n.sym_name, StringAttribute::new(self.context, name).into()),
                        (
                            n.sym_visibility,
                            StringAttribute::new(self.context, "private").into(),
                        ),
                    ])
                    .add_regions([Region::new()]);
                build(builder, "func.func", module)
            })
            .collect()
    }

    /// The signature of runtime entry `callee`.
    fn signature<'d: 'c>(&self, callee: &str, at: Op<'d>) -> Result<FunctionType<'c>, Failure<'d>> {
        self.signatures
            .iter()
            .find(|(n, _)| *n == callee)
            .map(|(_, s)| *s)
            .ok_or_else(|| {
                (
                    at,
                    format!("@{callee} is no runtime entry (a bug in the lowering)"),
                )
            })
    }

    /// A NUL-terminated string constant; returns its symbol.
    fn string<'d: 'c>(&mut self, s: &str, at: Op<'d>) -> Result<String, Failure<'d>> {
        let mut bytes = s.as_bytes().to_vec();
        bytes.push(0);
        self.bytes(&bytes, "str", at)
    }

    /// A byte array constant (`llvm.mlir.global private constant @__dit_<prefix>_N("...")`),
    /// located at `at`, its first user; returns its symbol.
    fn bytes<'d: 'c>(
        &mut self,
        bytes: &[u8],
        prefix: &str,
        at: Op<'d>,
    ) -> Result<String, Failure<'d>> {
        let key = (GlobalKind::Bytes, bytes.to_vec());
        if let Some(name) = self.globals.by_content.get(&key) {
            return Ok(name.clone());
        }
        let name = format!("__dit_{prefix}_{}", self.globals.by_content.len());
        let ty = melior::dialect::llvm::r#type::array(self.i8, bytes.len() as u32);
        self.global(&name, bytes_attr(self.context, bytes), ty, at)?;
        self.globals.by_content.insert(key, name.clone());
        Ok(name)
    }

    /// An i64 array constant (`dense<[...]> : tensor<Nxi64>`); returns its symbol.
    fn i64s<'d: 'c>(&mut self, values: &[i64], at: Op<'d>) -> Result<String, Failure<'d>> {
        let key = (
            GlobalKind::I64s,
            values.iter().flat_map(|v| v.to_le_bytes()).collect(),
        );
        if let Some(name) = self.globals.by_content.get(&key) {
            return Ok(name.clone());
        }
        let name = format!("__dit_dims_{}", self.globals.by_content.len());
        let tensor = RankedTensorType::new(&[values.len() as u64], self.i64, None);
        let value = DenseElementsAttribute::i64_values(tensor.into(), values);
        let ty = melior::dialect::llvm::r#type::array(self.i64, values.len() as u32);
        self.global(&name, value.into(), ty, at)?;
        self.globals.by_content.insert(key, name.clone());
        Ok(name)
    }

    /// `llvm.mlir.global private constant @name(value) {addr_space = 0 : i32} : ty`, with the
    /// properties the parser fills in set the same way (so the generic form is the same too).
    fn global<'d: 'c>(
        &mut self,
        name: &str,
        value: Attribute<'c>,
        ty: Type<'c>,
        at: Op<'d>,
    ) -> Result<(), Failure<'d>> {
        let n = &self.names;
        let builder = OperationBuilder::new("llvm.mlir.global", at.location())
            .add_attributes(&[
                (n.addr_space, IntegerAttribute::new(self.i32, 0).into()),
                (n.constant, Attribute::unit(self.context)),
                (n.global_type, TypeAttribute::new(ty).into()),
                (n.linkage, self.private),
                (n.sym_name, StringAttribute::new(self.context, name).into()),
                (n.unnamed_addr, IntegerAttribute::new(self.i64, 0).into()),
                (n.value, value),
                (n.visibility, IntegerAttribute::new(self.i64, 0).into()),
            ])
            .add_regions([Region::new()]);
        let op = build(builder, "llvm.mlir.global", at)?;
        self.globals.ops.push(op);
        Ok(())
    }
}

/// A static tensor type as the runtime sees it.
struct RtType {
    dtype: DType,
    dims: Vec<i64>,
}

fn rt_type<'d>(v: Val<'d>, at: Op<'d>) -> Result<RtType, Failure<'d>> {
    let t = v
        .tensor()
        .ok_or_else(|| (at, "only ranked tensors can be lowered".to_string()))?;
    rt_type_of(&t, at)
}

fn rt_type_of<'d>(t: &TensorInfo, at: Op<'d>) -> Result<RtType, Failure<'d>> {
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

/// One entry point being built: ops go to the end of `block`, each located at `at`.
struct FunctionLowering<'c, 'a, 'g, 'd: 'c> {
    module: &'g mut ModuleLowering<'c>,
    block: BlockRef<'c, 'a>,
    /// `%ctx`, the first argument of every entry (and of every runtime call).
    ctx: IrValue<'c, 'a>,
    /// Runtime handle of each tensor value.
    handles: HashMap<usize, IrValue<'c, 'a>>,
    /// Kernel launches emitted so far (each aclnn symbol of a launch's kernel string).
    launches: usize,
    /// Per call: the FRACTAL_NZ copy the init entry made of a value (by value key), which the
    /// kernels that take that operand in NZ read instead of the value itself.
    nz: HashMap<usize, IrValue<'c, 'a>>,
    /// Per call: NZ copies to release after the op at each position.
    nz_release: HashMap<usize, Vec<IrValue<'c, 'a>>>,
    /// The target's chip: which kernel-table entry each op lowers to.
    chip: &'static str,
    /// The op being lowered (the function before the first op): every op built carries its
    /// location, so the lowered module keeps each source op's location, and failures name it.
    at: Op<'d>,
}

impl<'c, 'a, 'd: 'c> FunctionLowering<'c, 'a, '_, 'd> {
    /// Ops built from now on carry `op`'s location.
    fn at(&mut self, op: Op<'d>) {
        self.at = op;
    }

    fn location(&self) -> Location<'c> {
        self.at.location()
    }

    /// Appends the op `builder` makes.
    fn push(
        &self,
        builder: OperationBuilder<'c>,
        name: &str,
    ) -> Result<OperationRef<'c, 'a>, Failure<'d>> {
        Ok(self.block.append_operation(build(builder, name, self.at)?))
    }

    /// Appends the op `builder` makes; returns its one result.
    fn value(
        &self,
        builder: OperationBuilder<'c>,
        name: &str,
    ) -> Result<IrValue<'c, 'a>, Failure<'d>> {
        let op = self.push(builder, name)?;
        op.result(0).map(Into::into).map_err(|e| {
            (
                self.at,
                format!("'{name}' without a result: {e} (a lowering bug)"),
            )
        })
    }

    /// Argument `i` of the entry's block.
    fn argument(&self, i: usize) -> Result<IrValue<'c, 'a>, Failure<'d>> {
        self.block
            .argument(i)
            .map(Into::into)
            .map_err(|e| (self.at, format!("entry argument {i}: {e} (a lowering bug)")))
    }

    fn constant(&self, value: i64, ty: Type<'c>) -> Result<IrValue<'c, 'a>, Failure<'d>> {
        let builder = OperationBuilder::new("arith.constant", self.location())
            .add_attributes(&[(
                self.module.names.value,
                IntegerAttribute::new(ty, value).into(),
            )])
            .add_results(&[ty]);
        self.value(builder, "arith.constant")
    }

    fn i32(&self, value: i64) -> Result<IrValue<'c, 'a>, Failure<'d>> {
        self.constant(value, self.module.i32)
    }

    fn i64(&self, value: i64) -> Result<IrValue<'c, 'a>, Failure<'d>> {
        self.constant(value, self.module.i64)
    }

    fn address(&self, symbol: &str) -> Result<IrValue<'c, 'a>, Failure<'d>> {
        let builder = OperationBuilder::new("llvm.mlir.addressof", self.location())
            .add_attributes(&[(
                self.module.names.global_name,
                FlatSymbolRefAttribute::new(self.module.context, symbol).into(),
            )])
            .add_results(&[self.module.ptr]);
        self.value(builder, "llvm.mlir.addressof")
    }

    fn null(&self) -> Result<IrValue<'c, 'a>, Failure<'d>> {
        let builder = OperationBuilder::new("llvm.mlir.zero", self.location())
            .add_results(&[self.module.ptr]);
        self.value(builder, "llvm.mlir.zero")
    }

    fn dims(&mut self, values: &[i64]) -> Result<IrValue<'c, 'a>, Failure<'d>> {
        if values.is_empty() {
            return self.null();
        }
        let symbol = self.module.i64s(values, self.at)?;
        self.address(&symbol)
    }

    fn string(&mut self, s: &str) -> Result<IrValue<'c, 'a>, Failure<'d>> {
        let symbol = self.module.string(s, self.at)?;
        self.address(&symbol)
    }

    /// `llvm.getelementptr base[index]` over elements of type `element`.
    fn element(
        &self,
        base: IrValue<'c, 'a>,
        index: usize,
        element: Type<'c>,
    ) -> Result<IrValue<'c, 'a>, Failure<'d>> {
        let n = &self.module.names;
        let builder = OperationBuilder::new("llvm.getelementptr", self.location())
            .add_operands(&[base])
            .add_attributes(&[
                (n.elem_type, TypeAttribute::new(element).into()),
                (
                    n.raw_constant_indices,
                    DenseI32ArrayAttribute::new(self.module.context, &[index as i32]).into(),
                ),
            ])
            .add_results(&[self.module.ptr]);
        self.value(builder, "llvm.getelementptr")
    }

    /// Descriptor `index` of the caller's array `descs` (`%inputs` or `%outputs`).
    fn descriptor(
        &self,
        descs: IrValue<'c, 'a>,
        index: usize,
    ) -> Result<IrValue<'c, 'a>, Failure<'d>> {
        self.element(descs, index, self.module.desc)
    }

    /// A stack array of `values` (runtime handles or nulls); returns its pointer.
    fn pointer_array(
        &self,
        values: &[Option<IrValue<'c, 'a>>],
    ) -> Result<IrValue<'c, 'a>, Failure<'d>> {
        let count = self.i64(values.len().max(1) as i64)?;
        let builder = OperationBuilder::new("llvm.alloca", self.location())
            .add_operands(&[count])
            .add_attributes(&[(
                self.module.names.elem_type,
                TypeAttribute::new(self.module.ptr).into(),
            )])
            .add_results(&[self.module.ptr]);
        let array = self.value(builder, "llvm.alloca")?;
        for (i, v) in values.iter().enumerate() {
            let value = match v {
                Some(h) => *h,
                None => self.null()?,
            };
            let slot = self.element(array, i, self.module.ptr)?;
            let builder = OperationBuilder::new("llvm.store", self.location())
                .add_operands(&[value, slot])
                .add_attributes(&[(
                    self.module.names.ordering,
                    IntegerAttribute::new(self.module.i64, 0).into(),
                )]);
            self.push(builder, "llvm.store")?;
        }
        Ok(array)
    }

    /// `func.call @callee(%ctx, args...)`; returns the call op (its result, if the entry
    /// returns one).
    fn call_op(
        &self,
        callee: &str,
        args: &[IrValue<'c, 'a>],
    ) -> Result<OperationRef<'c, 'a>, Failure<'d>> {
        let signature = self.module.signature(callee, self.at)?;
        let results: Vec<Type<'c>> = (0..signature.result_count())
            .filter_map(|i| signature.result(i).ok())
            .collect();
        let builder = OperationBuilder::new("func.call", self.location())
            .add_operands(&[self.ctx])
            .add_operands(args)
            .add_attributes(&[(
                self.module.names.callee,
                FlatSymbolRefAttribute::new(self.module.context, callee).into(),
            )])
            .add_results(&results);
        self.push(builder, "func.call")
    }

    /// A runtime call without a result.
    fn call(&self, callee: &str, args: &[IrValue<'c, 'a>]) -> Result<(), Failure<'d>> {
        self.call_op(callee, args).map(|_| ())
    }

    /// A runtime call that returns a value.
    fn call_value(
        &self,
        callee: &str,
        args: &[IrValue<'c, 'a>],
    ) -> Result<IrValue<'c, 'a>, Failure<'d>> {
        self.call_op(callee, args)?
            .result(0)
            .map(Into::into)
            .map_err(|e| {
                (
                    self.at,
                    format!("@{callee} returns nothing: {e} (a lowering bug)"),
                )
            })
    }

    fn handle(&self, v: Val<'d>, at: Op<'d>) -> Result<IrValue<'c, 'a>, Failure<'d>> {
        self.handles
            .get(&v.key())
            .copied()
            .ok_or_else(|| (at, "uses a value defined outside the function".to_string()))
    }

    /// `dit_rt_view(ctx, base, dtype, rank, dims, strides, offset)` for `result`.
    fn view(
        &mut self,
        result: Val<'d>,
        base: IrValue<'c, 'a>,
        ty: &RtType,
        strides: &[i64],
        offset: i64,
    ) -> Result<IrValue<'c, 'a>, Failure<'d>> {
        let dtype = self.i32(i64::from(ty.dtype.acl_code()))?;
        let rank = self.i32(ty.dims.len() as i64)?;
        let dims = self.dims(&ty.dims)?;
        let strides = self.dims(strides)?;
        let offset = self.i64(offset)?;
        let h = self.call_value("dit_rt_view", &[base, dtype, rank, dims, strides, offset])?;
        self.handles.insert(result.key(), h);
        Ok(h)
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
fn lower_function<'d: 'c, 'c>(
    func: Op<'d>,
    lowering: &mut ModuleLowering<'c>,
    chip: &'static str,
) -> Result<[Operation<'c>; 2], Failure<'d>> {
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
    let context = lowering.context;
    let describe = |values: &[Val<'d>]| -> Result<Attribute<'c>, Failure<'d>> {
        let list = values
            .iter()
            .map(|v| {
                let t = rt_type(*v, func)?;
                let dims: Vec<String> = t.dims.iter().map(i64::to_string).collect();
                let text = format!("{}[{}]", t.dtype.mlir_name(), dims.join(","));
                Ok(StringAttribute::new(context, &text).into())
            })
            .collect::<Result<Vec<Attribute>, Failure>>()?;
        Ok(ArrayAttribute::new(context, &list).into())
    };
    let reads = |subset: &[Op], nz: &[Val]| -> Attribute<'c> {
        let list: Vec<i64> = arguments
            .iter()
            .enumerate()
            .filter(|(_, a)| {
                a.users()
                    .iter()
                    .any(|u| subset.contains(u) && !reads_only_in_nz(*u, **a, chip))
                    || nz.contains(a)
            })
            .map(|(i, _)| i as i64)
            .collect();
        DenseI64ArrayAttribute::new(context, &list).into()
    };
    let results = ops
        .iter()
        .find(|o| o.is("func.return"))
        .map(|r| r.operands())
        .unwrap_or_default();
    let prepack = cost::measure(func);
    let location = func.location();
    let ptr = lowering.ptr;

    let init_region = Region::new();
    let block = init_region.append_block(IrBlock::new(&[(ptr, location), (ptr, location)]));
    let mut init = FunctionLowering::new(lowering, block, func, chip)?;
    init.entry(
        &name,
        &init_ops,
        &arguments,
        &packed,
        &nz_values,
        Phase::Init,
    )?;
    let init_launches = init.launches;
    drop(init);
    let call_region = Region::new();
    let block = call_region.append_block(IrBlock::new(&[
        (ptr, location),
        (ptr, location),
        (ptr, location),
    ]));
    let mut call = FunctionLowering::new(lowering, block, func, chip)?;
    call.entry(
        &name,
        &call_ops,
        &arguments,
        &packed,
        &nz_values,
        Phase::PerCall,
    )?;
    let call_launches = call.launches;
    drop(call);

    // The dit-level signature stays on the functions for the C header (--emit=header), with
    // which inputs each entry reads and what the pre-pack costs.
    let n = &lowering.names;
    let id = |name: &str| Identifier::new(context, name);
    let int = |value: i64| -> Attribute<'c> { IntegerAttribute::new(lowering.i64, value).into() };
    let function = |name: &str, inputs: usize| -> Vec<(Identifier<'c>, Attribute<'c>)> {
        let ty = FunctionType::new(context, &vec![ptr; inputs], &[lowering.i32]);
        vec![
            (n.function_type, TypeAttribute::new(ty.into()).into()),
            (n.sym_name, StringAttribute::new(context, name).into()),
        ]
    };
    let init_name = format!("{name}{INIT_SUFFIX}");
    let mut init_attributes = function(&init_name, 2);
    init_attributes.extend([
        (
            id("dit.init_of"),
            StringAttribute::new(context, &name).into(),
        ),
        (id("dit.inputs"), describe(&arguments)?),
        (id("dit.reads"), reads(&init_ops, &nz_values)),
        (id("dit.launches"), int(init_launches as i64)),
        (id("dit.prepack_bytes"), int(prepack.prepack_bytes as i64)),
    ]);
    let init = OperationBuilder::new("func.func", location)
        .add_attributes(&init_attributes)
        .add_regions([init_region]);
    let mut call_attributes = function(&name, 3);
    call_attributes.extend([
        (
            id("dit.init"),
            StringAttribute::new(context, &init_name).into(),
        ),
        (id("dit.inputs"), describe(&arguments)?),
        (id("dit.outputs"), describe(&results)?),
        (id("dit.reads"), reads(&call_ops, &[])),
        (id("dit.launches"), int(call_launches as i64)),
    ]);
    let call = OperationBuilder::new("func.func", location)
        .add_attributes(&call_attributes)
        .add_regions([call_region]);
    Ok([
        build(init, "func.func", func)?,
        build(call, "func.func", func)?,
    ])
}

/// Which entry point a [`FunctionLowering`] writes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// `@f_init`: the pre-pack; stores its packed values.
    Init,
    /// `@f`: one inference; loads the packed values, copies the results out.
    PerCall,
}

impl<'c, 'a, 'g, 'd: 'c> FunctionLowering<'c, 'a, 'g, 'd> {
    /// Lowers into `block` (whose first argument is `%ctx`), at `func`'s location until the
    /// first op.
    fn new(
        module: &'g mut ModuleLowering<'c>,
        block: BlockRef<'c, 'a>,
        func: Op<'d>,
        chip: &'static str,
    ) -> Result<Self, Failure<'d>> {
        let ctx = block
            .argument(0)
            .map_err(|e| (func, format!("entry without %ctx: {e} (a lowering bug)")))?
            .into();
        Ok(FunctionLowering {
            module,
            block,
            ctx,
            handles: HashMap::new(),
            launches: 0,
            nz: HashMap::new(),
            nz_release: HashMap::new(),
            chip,
            at: func,
        })
    }

    /// Builds one entry point's body: wraps the arguments `ops` read, (per call) loads the
    /// packed values, lowers `ops` in order with each handle released after its last use, and
    /// (init) stores the packed values as they are made.
    fn entry(
        &mut self,
        function: &str,
        ops: &[Op<'d>],
        arguments: &[Val<'d>],
        packed: &[Val<'d>],
        nz_values: &[Val<'d>],
        phase: Phase,
    ) -> Result<(), Failure<'d>> {
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
        let inputs = self.argument(1)?;
        let mut release_after: HashMap<usize, Vec<Val>> = HashMap::new();
        for (i, arg) in arguments.iter().enumerate() {
            let Some(&at) = last_use.get(&arg.key()) else {
                continue;
            };
            let p = self.descriptor(inputs, i)?;
            let h = self.call_value("dit_rt_wrap", &[p])?;
            self.handles.insert(arg.key(), h);
            release_after.entry(at).or_default().push(*arg);
        }
        if phase == Phase::PerCall {
            for (k, v) in packed.iter().enumerate() {
                let Some(&at) = last_use.get(&v.key()) else {
                    continue;
                };
                let key = self.string(&pack_key(function, k))?;
                let h = self.call_value("dit_rt_pack_load", &[key])?;
                self.handles.insert(v.key(), h);
                release_after.entry(at).or_default().push(*v);
            }
            let mut nz_release: HashMap<usize, Vec<IrValue<'c, 'a>>> = HashMap::new();
            for (j, v) in nz_values.iter().enumerate() {
                let Some(&at) = last_nz_use.get(&v.key()) else {
                    continue;
                };
                let key = self.string(&nz_key(function, j))?;
                let h = self.call_value("dit_rt_pack_load", &[key])?;
                self.nz.insert(v.key(), h);
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
            if op.is("func.return") {
                copy_out_results(self, *op)?;
            } else {
                lower_op(self, *op)?;
                for r in op.results() {
                    if phase == Phase::Init {
                        if let Some(k) = packed.iter().position(|p| *p == r) {
                            let h = self.handle(r, *op)?;
                            let key = self.string(&pack_key(function, k))?;
                            self.call("dit_rt_pack_store", &[key, h])?;
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
                if let Some(h) = self.handles.get(&v.key()).copied() {
                    self.call("dit_rt_release", &[h])?;
                }
            }
            for h in self.nz_release.remove(&i).unwrap_or_default() {
                self.call("dit_rt_release", &[h])?;
            }
        }
        for v in release_after.remove(&end).unwrap_or_default() {
            if let Some(h) = self.handles.get(&v.key()).copied() {
                self.call("dit_rt_release", &[h])?;
            }
        }
        let status = self.call_value("dit_rt_status", &[])?;
        let ret = OperationBuilder::new("func.return", self.location()).add_operands(&[status]);
        self.push(ret, "func.return")?;
        Ok(())
    }

    /// Init entry: re-lays `v` into FRACTAL_NZ (`dit_rt_to_nz`, one pre-pack launch) and stores
    /// the copy under [`nz_key`] for the per-call entry.
    fn store_nz(
        &mut self,
        function: &str,
        j: usize,
        v: Val<'d>,
        at: Option<Op<'d>>,
    ) -> Result<(), Failure<'d>> {
        let current = self.at;
        let at = at.or_else(|| v.users().first().copied()).ok_or_else(|| {
            (
                current,
                "an NZ operand without a user (a lowering bug)".to_string(),
            )
        })?;
        let h = self.handle(v, at)?;
        let nz = self.call_value("dit_rt_to_nz", &[h])?;
        self.launches += 1;
        let key = self.string(&nz_key(function, j))?;
        self.call("dit_rt_pack_store", &[key, nz])?;
        self.call("dit_rt_release", &[nz])?;
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
pub fn nz_operands<'d>(op: Op<'d>, chip: &str) -> Vec<Val<'d>> {
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
fn copy_out_results<'d>(
    f: &mut FunctionLowering<'_, '_, '_, 'd>,
    op: Op<'d>,
) -> Result<(), Failure<'d>> {
    let outputs = f.argument(2)?;
    for (j, v) in op.operands().into_iter().enumerate() {
        rt_type(v, op)?;
        let h = f.handle(v, op)?;
        let p = f.descriptor(outputs, j)?;
        f.call("dit_rt_copy_out", &[h, p])?;
    }
    Ok(())
}

/// Lowers one op of a function body: a view re-describes memory, anything that launches goes
/// through the kernel table (the same decision the cost model counts, [`cost::placement`]).
fn lower_op<'d>(f: &mut FunctionLowering<'_, '_, '_, 'd>, op: Op<'d>) -> Result<(), Failure<'d>> {
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

fn lower_constant<'d>(
    f: &mut FunctionLowering<'_, '_, '_, 'd>,
    op: Op<'d>,
) -> Result<(), Failure<'d>> {
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
    let symbol = f.module.bytes(&bytes, "cst", op)?;
    let data = f.address(&symbol)?;
    let dtype = f.i32(i64::from(ty.dtype.acl_code()))?;
    let rank = f.i32(ty.dims.len() as i64)?;
    let dims = f.dims(&ty.dims)?;
    let nbytes = f.i64(bytes.len() as i64)?;
    let h = f.call_value("dit_rt_constant", &[dtype, rank, dims, data, nbytes])?;
    f.handles.insert(result.key(), h);
    Ok(())
}

fn lower_view<'d>(f: &mut FunctionLowering<'_, '_, '_, 'd>, op: Op<'d>) -> Result<(), Failure<'d>> {
    let kind = op.kind();
    let base = f.handle(op.operand(0), op)?;
    let input = rt_type(op.operand(0), op)?;
    let base_strides = contiguous_strides(&input.dims);
    match kind {
        Some(OpKind::Reshape | OpKind::Bitcast) => {
            let ty = rt_type(op.result(0), op)?;
            let dtype = f.i32(i64::from(ty.dtype.acl_code()))?;
            let rank = f.i32(ty.dims.len() as i64)?;
            let dims = f.dims(&ty.dims)?;
            let h = f.call_value("dit_rt_reshape", &[base, dtype, rank, dims])?;
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
            f.view(op.result(0), base, &ty, &strides, 0)?;
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
                    f.view(r, base, &ty, &base_strides, start * base_strides[dim])?;
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
                f.view(op.result(0), base, &ty, &strides, start * base_strides[dim])?;
            }
        }
        _ => unreachable!("VIEW_OPS and this match list the same ops"),
    }
    Ok(())
}

/// The attributes of a dit op as the runtime reads them.
pub fn runtime_attrs<'d>(op: Op<'d>) -> Result<Attrs, Failure<'d>> {
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
pub fn operand_slots<'d>(op: Op<'d>) -> Vec<Option<Val<'d>>> {
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
pub fn fused_body<'d>(op: Op<'d>) -> Result<Value, Failure<'d>> {
    let block = op
        .region_blocks(0)
        .into_iter()
        .next()
        .ok_or_else(|| (op, format!("{} has no body", OpKind::Fused)))?;
    let type_json = |v: Val<'d>, at: Op<'d>| -> Result<Value, Failure<'d>> {
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

fn lower_kernel<'d>(
    f: &mut FunctionLowering<'_, '_, '_, 'd>,
    op: Op<'d>,
) -> Result<(), Failure<'d>> {
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
            let h = f.nz.get(&v.key()).copied().ok_or_else(|| {
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
        let dtype = f.i32(i64::from(ty.dtype.acl_code()))?;
        let rank = f.i32(ty.dims.len() as i64)?;
        let dims = f.dims(&ty.dims)?;
        let h = f.call_value("dit_rt_alloc", &[dtype, rank, dims])?;
        f.handles.insert(r.key(), h);
        outputs.push(Some(h));
    }
    let n_in = f.i32(inputs.len() as i64)?;
    let n_out = f.i32(outputs.len() as i64)?;
    let input_array = f.pointer_array(&inputs)?;
    let output_array = f.pointer_array(&outputs)?;
    f.launches += kernel.split('+').count();
    let op_name = f.string(&name)?;
    let kernel = f.string(&kernel)?;
    let attrs = f.string(&attrs_json)?;
    f.call(
        "dit_rt_launch",
        &[
            op_name,
            kernel,
            attrs,
            input_array,
            n_in,
            output_array,
            n_out,
        ],
    )?;
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
        let context = dit_dialect::new_context().expect("dialects load");
        let module = Module::parse(&context, "func.func @f() { return }").expect("parses");
        let at = Op::of_module(&module);
        let mut m = ModuleLowering::new(&context, at).expect("runtime types");
        let a = m.string("a\"b", at).expect("builds");
        assert_eq!(a, m.string("a\"b", at).expect("builds"));
        // Bytes that are no UTF-8 stay as they are (constant data).
        let c = m.bytes(&[0xff, 0], "cst", at).expect("builds");
        assert_ne!(a, c);
        let d = m.i64s(&[1, 2], at).expect("builds");
        assert_eq!(d, m.i64s(&[1, 2], at).expect("builds"));
        let text: Vec<String> = m.globals.ops.iter().map(|op| op.to_string()).collect();
        assert_eq!(text.len(), 3, "{text:?}");
        assert!(
            text[0].contains(&format!("@{a}(\"a\\22b\\00\")")),
            "{}",
            text[0]
        );
        assert!(text[1].contains("(\"\\FF\\00\")"), "{}", text[1]);
        assert!(
            text[2].contains("dense<[1, 2]> : tensor<2xi64>"),
            "{}",
            text[2]
        );
    }
}
