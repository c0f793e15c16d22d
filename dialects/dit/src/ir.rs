//! Thin, copyable handles over MLIR operations, values, attributes and blocks for code that
//! walks and rewrites the IR. melior's borrow-checked references cannot express "erase this op
//! while walking its block", which every cleanup pass needs; these handles call the C API
//! directly and keep the unsafe code in one file.
//!
//! Each handle carries a lifetime `'a`: the borrow of whatever owns the IR it points into (a
//! melior [`Module`], [`Operation`] or [`OperationRef`]; attributes are owned by the context,
//! which outlives all of them). The safe entry points ([`Op::of_module`], the `From` impls) take
//! that borrow, and every handle reached from a handle (operands, results, walks, blocks,
//! parents, attributes) inherits its lifetime, so no handle can outlive the module or the
//! context it points into. Handles are `Copy`, so the borrow checker cannot see erasure: the
//! one operation that frees IR, [`Op::erase`], is `unsafe` and its callers promise that no copy
//! of the erased op (nor of its results, regions or nested ops) is used afterwards. Handles made
//! from raw MLIR pointers ([`Op::from_raw`] and the like) are `unsafe` for the same reason: the
//! caller vouches for the pointer and picks the lifetime.
//!
//! Invariant (what `from_raw` callers and `erase` callers uphold): a handle is only used while
//! its IR is alive and not erased. Passes hold handles for the duration of one walk and erase
//! only ops they no longer visit.

use crate::tensor::TensorInfo;
use melior::ir::operation::OperationLike;
use melior::ir::{BlockLike, BlockRef, Location, Module, Operation, OperationRef, Type};
use mlir_sys::*;
use std::ffi::c_void;
use std::marker::PhantomData;

fn str_of(s: MlirStringRef) -> String {
    if s.data.is_null() {
        return String::new();
    }
    // SAFETY: MLIR string refs point at `length` valid bytes owned by the context.
    let bytes = unsafe { std::slice::from_raw_parts(s.data as *const u8, s.length) };
    // std's validation is several times faster than the lossy decoder, which only matters
    // for the (never seen) invalid case; this runs for every op name read.
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => String::from_utf8_lossy(bytes).into_owned(),
    }
}

/// An SSA value (op result or block argument) of IR borrowed for `'a`.
#[derive(Clone, Copy, Debug)]
pub struct Val<'a> {
    raw: MlirValue,
    ir: PhantomData<&'a ()>,
}

impl PartialEq for Val<'_> {
    fn eq(&self, other: &Self) -> bool {
        // SAFETY: comparing handles.
        unsafe { mlirValueEqual(self.raw, other.raw) }
    }
}
impl Eq for Val<'_> {}

impl<'a> Val<'a> {
    /// A handle to a raw MLIR value.
    ///
    /// # Safety
    /// `raw` is a live value (not null), and it stays alive (its defining op or block is not
    /// erased, its IR not dropped) for as long as `'a` and every copy of the handle is used.
    pub unsafe fn from_raw(raw: MlirValue) -> Self {
        Self {
            raw,
            ir: PhantomData,
        }
    }

    /// The raw MLIR value, for C API calls this module does not wrap. Using it is `unsafe` and
    /// subject to the same liveness as the handle.
    pub fn raw(self) -> MlirValue {
        self.raw
    }

    /// The value's type as a ranked tensor, if it is one.
    pub fn tensor(self) -> Option<TensorInfo> {
        TensorInfo::of(self.ty())
    }

    /// The value's type (types live as long as the context, which outlives `'a`).
    pub fn ty(self) -> Type<'a> {
        // SAFETY: the value is alive (module invariant).
        unsafe { Type::from_raw(mlirValueGetType(self.raw)) }
    }

    /// The op that defines it, or `None` for a block argument.
    pub fn defining_op(self) -> Option<Op<'a>> {
        // SAFETY: as above.
        unsafe {
            if mlirValueIsAOpResult(self.raw) {
                Some(Op::from_raw(mlirOpResultGetOwner(self.raw)))
            } else {
                None
            }
        }
    }

    /// Whether anything uses the value.
    pub fn has_uses(self) -> bool {
        // SAFETY: as above.
        unsafe { !mlirValueGetFirstUse(self.raw).ptr.is_null() }
    }

    /// The number of uses.
    pub fn use_count(self) -> usize {
        let mut count = 0;
        // SAFETY: walks the use list of a live value.
        unsafe {
            let mut use_ = mlirValueGetFirstUse(self.raw);
            while !use_.ptr.is_null() {
                count += 1;
                use_ = mlirOpOperandGetNextUse(use_);
            }
        }
        count
    }

    /// Replaces every use of this value with `with`.
    pub fn replace_all_uses_with(self, with: Val<'a>) {
        // SAFETY: both values are alive.
        unsafe { mlirValueReplaceAllUsesOfWith(self.raw, with.raw) }
    }

    /// An identity key for hashing (values are pointers into the IR).
    pub fn key(self) -> usize {
        self.raw.ptr as usize
    }
}

/// An attribute handle. Attributes are uniqued in, and owned by, the context; `'a` is at most
/// its lifetime.
#[derive(Clone, Copy, Debug)]
pub struct Attr<'a> {
    raw: MlirAttribute,
    ir: PhantomData<&'a ()>,
}

impl<'a> Attr<'a> {
    /// A handle to a raw MLIR attribute.
    ///
    /// # Safety
    /// `raw` is a live attribute (not null) of a context that outlives `'a`.
    pub unsafe fn from_raw(raw: MlirAttribute) -> Self {
        Self {
            raw,
            ir: PhantomData,
        }
    }

    /// The raw MLIR attribute, for C API calls this module does not wrap.
    pub fn raw(self) -> MlirAttribute {
        self.raw
    }

    /// The string value of a string attribute.
    pub fn as_str(self) -> Option<String> {
        // SAFETY: predicates and getters on a live attribute.
        unsafe {
            mlirAttributeIsAString(self.raw).then(|| str_of(mlirStringAttrGetValue(self.raw)))
        }
    }

    /// The value of a bool attribute.
    pub fn as_bool(self) -> Option<bool> {
        // SAFETY: as above.
        unsafe { mlirAttributeIsABool(self.raw).then(|| mlirBoolAttrGetValue(self.raw)) }
    }

    /// The value of an integer attribute (not a bool).
    pub fn as_i64(self) -> Option<i64> {
        // SAFETY: as above.
        unsafe {
            (mlirAttributeIsAInteger(self.raw) && !mlirAttributeIsABool(self.raw))
                .then(|| mlirIntegerAttrGetValueInt(self.raw))
        }
    }

    /// The value of a float attribute.
    pub fn as_f64(self) -> Option<f64> {
        // SAFETY: as above.
        unsafe { mlirAttributeIsAFloat(self.raw).then(|| mlirFloatAttrGetValueDouble(self.raw)) }
    }

    /// Whether it is a float attribute of type f32.
    pub fn is_f32_float(self) -> bool {
        // SAFETY: as above.
        unsafe { mlirAttributeIsAFloat(self.raw) && mlirTypeIsAF32(mlirAttributeGetType(self.raw)) }
    }

    /// The elements of an `array<i64: …>` attribute.
    pub fn as_i64_array(self) -> Option<Vec<i64>> {
        // SAFETY: as above.
        unsafe {
            mlirAttributeIsADenseI64Array(self.raw).then(|| {
                (0..mlirDenseArrayGetNumElements(self.raw))
                    .map(|i| mlirDenseI64ArrayGetElement(self.raw, i))
                    .collect()
            })
        }
    }

    /// The elements of an `array<i32: …>` attribute.
    pub fn as_i32_array(self) -> Option<Vec<i32>> {
        // SAFETY: as above.
        unsafe {
            mlirAttributeIsADenseI32Array(self.raw).then(|| {
                (0..mlirDenseArrayGetNumElements(self.raw))
                    .map(|i| mlirDenseI32ArrayGetElement(self.raw, i))
                    .collect()
            })
        }
    }

    /// The elements of an array attribute.
    pub fn as_array(self) -> Option<Vec<Attr<'a>>> {
        // SAFETY: as above.
        unsafe {
            mlirAttributeIsAArray(self.raw).then(|| {
                (0..mlirArrayAttrGetNumElements(self.raw))
                    .map(|i| Attr::from_raw(mlirArrayAttrGetElement(self.raw, i)))
                    .collect()
            })
        }
    }

    /// The stored bytes of a dense elements attribute and whether it is a splat (then the
    /// bytes are one element). `element_bytes` is the element's storage width; MLIR keeps
    /// 8/16/32/64-bit elements unpacked, one after the other. Bools (i1) are the exception:
    /// MLIR packs them 8 to a byte, so they are read one by one and given a byte each (0 or 1),
    /// the runtime's i1 storage. Reading the packed data as bytes read past its end.
    pub fn dense_bytes(self, element_bytes: usize) -> Option<(Vec<u8>, bool)> {
        // SAFETY: predicates and getters on a live attribute; the raw data is owned by the
        // context and holds one element (splat) or all of them.
        unsafe {
            if !mlirAttributeIsADenseElements(self.raw) {
                return None;
            }
            let splat = mlirDenseElementsAttrIsSplat(self.raw);
            let count = if splat {
                1
            } else {
                usize::try_from(mlirElementsAttrGetNumElements(self.raw)).ok()?
            };
            let element = mlirShapedTypeGetElementType(mlirAttributeGetType(self.raw));
            if mlirTypeIsAInteger(element) && mlirIntegerTypeGetWidth(element) == 1 {
                let bools = (0..count)
                    .map(|i| {
                        let on = if splat {
                            mlirDenseElementsAttrGetBoolSplatValue(self.raw) != 0
                        } else {
                            mlirDenseElementsAttrGetBoolValue(self.raw, i as isize)
                        };
                        u8::from(on)
                    })
                    .collect::<Vec<u8>>();
                let mut bytes = Vec::with_capacity(count.checked_mul(element_bytes)?);
                for b in bools {
                    bytes.push(b);
                    bytes.extend(std::iter::repeat_n(0, element_bytes.saturating_sub(1)));
                }
                return Some((bytes, splat));
            }
            let data = mlirDenseElementsAttrGetRawData(self.raw) as *const u8;
            if data.is_null() {
                return None;
            }
            let len = count.checked_mul(element_bytes)?;
            Some((std::slice::from_raw_parts(data, len).to_vec(), splat))
        }
    }

    /// The entry `name` of a dictionary attribute.
    pub fn dict_get(self, name: &str) -> Option<Attr<'a>> {
        // SAFETY: as above; the name outlives the call.
        unsafe {
            if !mlirAttributeIsADictionary(self.raw) {
                return None;
            }
            let a = mlirDictionaryAttrGetElementByName(self.raw, string_ref(name));
            (!a.ptr.is_null()).then(|| Attr::from_raw(a))
        }
    }

    /// The entries of a dictionary attribute, as (name, attribute).
    pub fn dict_entries(self) -> Option<Vec<(String, Attr<'a>)>> {
        // SAFETY: predicates and getters on a live attribute; the entries live as long.
        unsafe {
            mlirAttributeIsADictionary(self.raw).then(|| {
                (0..mlirDictionaryAttrGetNumElements(self.raw))
                    .map(|i| {
                        let named = mlirDictionaryAttrGetElement(self.raw, i);
                        (
                            str_of(mlirIdentifierStr(named.name)),
                            Attr::from_raw(named.attribute),
                        )
                    })
                    .collect()
            })
        }
    }

    /// The inputs and results of a `function_type` attribute (a type attribute holding a
    /// function type).
    pub fn function_signature(self) -> Option<(Vec<MlirType>, Vec<MlirType>)> {
        // SAFETY: predicates and getters on a live attribute and its (uniqued) type.
        unsafe {
            if !mlirAttributeIsAType(self.raw) {
                return None;
            }
            let ty = mlirTypeAttrGetValue(self.raw);
            if !mlirTypeIsAFunction(ty) {
                return None;
            }
            let inputs = (0..mlirFunctionTypeGetNumInputs(ty))
                .map(|i| mlirFunctionTypeGetInput(ty, i))
                .collect();
            let results = (0..mlirFunctionTypeGetNumResults(ty))
                .map(|i| mlirFunctionTypeGetResult(ty, i))
                .collect();
            Some((inputs, results))
        }
    }

    /// The type of a typed attribute (the tensor type of a dense elements attribute).
    pub fn raw_type(self) -> MlirType {
        // SAFETY: the attribute is alive.
        unsafe { mlirAttributeGetType(self.raw) }
    }

    /// Whether the attribute is a dense resource (`dense_resource<blob>`): its bytes cannot be
    /// read back through the C API.
    pub fn is_dense_resource(self) -> bool {
        // SAFETY: a predicate on a live attribute.
        unsafe { mlirAttributeIsADenseResourceElements(self.raw) }
    }

    /// An identity key: attributes are uniqued, so equal attributes have equal keys.
    pub fn key(self) -> usize {
        self.raw.ptr as usize
    }
}

/// An operation handle into IR borrowed for `'a`.
#[derive(Clone, Copy, Debug)]
pub struct Op<'a> {
    raw: MlirOperation,
    ir: PhantomData<&'a ()>,
}

impl<'a> From<OperationRef<'_, 'a>> for Op<'a> {
    fn from(op: OperationRef<'_, 'a>) -> Self {
        // SAFETY: melior's reference is live for `'a`, the borrow of its owner.
        unsafe { Op::from_raw(op.to_raw()) }
    }
}

impl<'a> From<&'a Operation<'_>> for Op<'a> {
    fn from(op: &'a Operation<'_>) -> Self {
        // SAFETY: the owned operation is alive while it is borrowed.
        unsafe { Op::from_raw(op.to_raw()) }
    }
}

impl PartialEq for Op<'_> {
    fn eq(&self, other: &Self) -> bool {
        // SAFETY: comparing handles.
        unsafe { mlirOperationEqual(self.raw, other.raw) }
    }
}
impl Eq for Op<'_> {}

impl<'a> Op<'a> {
    /// A handle to a raw MLIR operation.
    ///
    /// # Safety
    /// `raw` is a live operation (not null), and it stays alive (not erased, its module not
    /// dropped) for as long as `'a` and every copy of the handle (or of a handle reached from
    /// it) is used.
    pub unsafe fn from_raw(raw: MlirOperation) -> Self {
        Self {
            raw,
            ir: PhantomData,
        }
    }

    /// The module's operation (`builtin.module`), for as long as the module is borrowed. The
    /// handle cannot outlive the module:
    ///
    /// ```compile_fail
    /// let context = dit_dialect::new_context().unwrap();
    /// let root = {
    ///     let module = melior::ir::Module::parse(&context, "").unwrap();
    ///     dit_dialect::ir::Op::of_module(&module)
    /// };
    /// let _ = root.name();
    /// ```
    pub fn of_module(module: &'a Module<'_>) -> Self {
        // SAFETY: the module owns its operation; the borrow keeps it alive for `'a`.
        unsafe { Op::from_raw(module.as_operation().to_raw()) }
    }

    /// The raw MLIR operation, for C API calls this module does not wrap. Using it is
    /// `unsafe` and subject to the same liveness as the handle.
    pub fn raw(self) -> MlirOperation {
        self.raw
    }

    /// The op's full name, e.g. `dit.gelu`.
    pub fn name(self) -> String {
        // SAFETY: the op is alive; its name identifier is owned by the context.
        unsafe { str_of(mlirIdentifierStr(mlirOperationGetName(self.raw))) }
    }

    /// Calls `f` with the bytes of the op's full name, without allocating (this is on the hot
    /// path of every walk).
    fn with_name<R>(self, f: impl FnOnce(&[u8]) -> R) -> R {
        // SAFETY: the op is alive; its name identifier is owned by the context, which outlives
        // this call, and the slice does not escape `f`.
        let bytes = unsafe {
            let s = mlirIdentifierStr(mlirOperationGetName(self.raw));
            std::slice::from_raw_parts(s.data as *const u8, s.length)
        };
        f(bytes)
    }

    /// Whether the op is `dit.<short>`.
    pub fn is(self, full_name: &str) -> bool {
        self.with_name(|name| name == full_name.as_bytes())
    }

    /// The dit op this is, `None` for an op of another dialect: what passes dispatch on.
    pub fn kind(self) -> Option<crate::ops::OpKind> {
        self.with_name(|name| {
            // Every dit name is `dit.<mnemonic>`: other dialects' ops are turned away by
            // prefix without a table search.
            if !name.starts_with(dit_ops::DIALECT_PREFIX.as_bytes()) {
                return None;
            }
            crate::ops::OpKind::from_name(std::str::from_utf8(name).ok()?)
        })
    }

    /// Whether the op is `kind`.
    pub fn is_kind(self, kind: crate::ops::OpKind) -> bool {
        self.is(kind.name())
    }

    /// The op's location (owned by the context, which outlives `'a`).
    pub fn location(self) -> Location<'a> {
        // SAFETY: as above.
        unsafe { Location::from_raw(mlirOperationGetLocation(self.raw)) }
    }

    /// Number of operands.
    pub fn num_operands(self) -> usize {
        // SAFETY: as above.
        unsafe { mlirOperationGetNumOperands(self.raw) as usize }
    }

    /// Operand `i` (panics when out of range).
    pub fn operand(self, i: usize) -> Val<'a> {
        // MLIR does not check the index (outside its debug builds): out of range, it reads
        // past the operand list.
        assert!(i < self.num_operands(), "operand {i} of an op with fewer");
        // SAFETY: the op is alive and `i` is in range.
        unsafe { Val::from_raw(mlirOperationGetOperand(self.raw, i as isize)) }
    }

    /// All operands.
    pub fn operands(self) -> Vec<Val<'a>> {
        (0..self.num_operands()).map(|i| self.operand(i)).collect()
    }

    /// Number of results.
    pub fn num_results(self) -> usize {
        // SAFETY: as above.
        unsafe { mlirOperationGetNumResults(self.raw) as usize }
    }

    /// Result `i` (panics when out of range).
    pub fn result(self, i: usize) -> Val<'a> {
        // As for operands: MLIR does not check the index.
        assert!(i < self.num_results(), "result {i} of an op with fewer");
        // SAFETY: the op is alive and `i` is in range.
        unsafe { Val::from_raw(mlirOperationGetResult(self.raw, i as isize)) }
    }

    /// All results.
    pub fn results(self) -> Vec<Val<'a>> {
        (0..self.num_results()).map(|i| self.result(i)).collect()
    }

    /// Whether any result is used.
    pub fn has_uses(self) -> bool {
        (0..self.num_results()).any(|i| self.result(i).has_uses())
    }

    /// The attribute `name`, if present.
    pub fn attr(self, name: &str) -> Option<Attr<'a>> {
        // SAFETY: as above.
        unsafe {
            let a = mlirOperationGetAttributeByName(self.raw, string_ref(name));
            (!a.ptr.is_null()).then(|| Attr::from_raw(a))
        }
    }

    /// Every attribute as (name, attribute).
    pub fn attrs(self) -> Vec<(String, Attr<'a>)> {
        // SAFETY: as above.
        unsafe {
            (0..mlirOperationGetNumAttributes(self.raw))
                .map(|i| {
                    let named = mlirOperationGetAttribute(self.raw, i);
                    (
                        str_of(mlirIdentifierStr(named.name)),
                        Attr::from_raw(named.attribute),
                    )
                })
                .collect()
        }
    }

    /// Appends the op's identity words to `key`: its name, then each attribute's name and
    /// value, then `usize::MAX`. Names and attributes are uniqued by MLIR, so their addresses
    /// identify them, and two ops append the same words exactly when their names and
    /// attributes are equal (what CSE compares, without reading any string).
    pub fn push_name_and_attr_keys(self, key: &mut Vec<usize>) {
        // SAFETY: as above; only addresses are read.
        unsafe {
            key.push(mlirOperationGetName(self.raw).ptr as usize);
            let n = mlirOperationGetNumAttributes(self.raw);
            for i in 0..n {
                let named = mlirOperationGetAttribute(self.raw, i);
                key.push(named.name.ptr as usize);
                key.push(named.attribute.ptr as usize);
            }
        }
        key.push(usize::MAX);
    }

    /// Sets (or replaces) attribute `name`.
    pub fn set_attr(self, name: &str, attr: Attr<'a>) {
        // SAFETY: as above.
        unsafe { mlirOperationSetAttributeByName(self.raw, string_ref(name), attr.raw) }
    }

    /// Sets operand `i` to `value` (panics when out of range).
    pub fn set_operand(self, i: usize, value: Val<'a>) {
        assert!(i < self.num_operands(), "operand {i} of an op with fewer");
        // SAFETY: the op and the value are alive, and `i` is in range.
        unsafe { mlirOperationSetOperand(self.raw, i as isize, value.raw) }
    }

    /// Number of regions.
    pub fn num_regions(self) -> usize {
        // SAFETY: as above.
        unsafe { mlirOperationGetNumRegions(self.raw) as usize }
    }

    /// The blocks of region `i` (panics when out of range).
    pub fn region_blocks(self, i: usize) -> Vec<Block<'a>> {
        assert!(i < self.num_regions(), "region {i} of an op with fewer");
        let mut blocks = Vec::new();
        // SAFETY: the op is alive and `i` is in range; its blocks live as long as it.
        unsafe {
            let region = mlirOperationGetRegion(self.raw, i as isize);
            let mut block = mlirRegionGetFirstBlock(region);
            while !block.ptr.is_null() {
                blocks.push(Block::from_raw(block));
                block = mlirBlockGetNextInRegion(block);
            }
        }
        blocks
    }

    /// A copy of this op (same operands and attributes) inserted right before `anchor`.
    pub fn clone_before(self, anchor: Op<'a>) -> Op<'a> {
        anchor.expect_in_block();
        // SAFETY: the clone is caller-owned until the anchor's (live) block takes it.
        unsafe {
            let copy = mlirOperationClone(self.raw);
            mlirBlockInsertOwnedOperationBefore(
                mlirOperationGetBlock(anchor.raw),
                anchor.raw,
                copy,
            );
            Op::from_raw(copy)
        }
    }

    /// The op after this one in its block, if any.
    pub fn next_in_block(self) -> Option<Op<'a>> {
        // SAFETY: the op is alive. A non-null result is live IR of the same owner.
        unsafe {
            let next = mlirOperationGetNextInBlock(self.raw);
            (!next.ptr.is_null()).then(|| Op::from_raw(next))
        }
    }

    /// The block that holds this op, if any.
    pub fn block(self) -> Option<Block<'a>> {
        // SAFETY: the op is alive; a null block means it is in none. A non-null result is live IR of the same owner.
        unsafe {
            let block = mlirOperationGetBlock(self.raw);
            (!block.ptr.is_null()).then(|| Block::from_raw(block))
        }
    }

    /// Whether this op comes before `other` in their (common) block. MLIR keeps op order
    /// numbers per block, so this is amortized constant time, not a scan.
    pub fn is_before_in_block(self, other: Op<'a>) -> bool {
        // SAFETY: both ops are alive and in the same block (callers check `block`).
        unsafe { mlirOperationIsBeforeInBlock(self.raw, other.raw) }
    }

    /// The op that contains this one, if any.
    pub fn parent(self) -> Option<Op<'a>> {
        // SAFETY: as above.
        unsafe {
            let p = mlirOperationGetParentOperation(self.raw);
            (!p.ptr.is_null()).then(|| Op::from_raw(p))
        }
    }

    /// Erases the op (and everything nested in it), unlinking it from its block.
    ///
    /// Panics, erasing nothing, if a result still has a use: erasing it would leave the users
    /// with dangling operands (MLIR only asserts this in its debug builds).
    ///
    /// # Safety
    /// No copy of this handle, of a handle to one of its results, regions or blocks, or of a
    /// handle to an op nested in it, is used after the call. In particular the op is not being
    /// visited by a running [`Op::walk`] that will descend into it or continue from it (a walk
    /// may erase ops it has already left, or ops it never reaches).
    pub unsafe fn erase(self) {
        assert!(!self.has_uses(), "erasing an op whose results are used");
        // SAFETY: the op is alive (caller) and unused (checked above); destroy unlinks it.
        unsafe { mlirOperationDestroy(self.raw) }
    }

    /// Calls `f` on this op and every op nested in it, parents before children.
    ///
    /// A panic in `f` cannot unwind through MLIR's C++ frames: it is caught, the walk stops,
    /// and the panic resumes once MLIR has returned.
    pub fn walk(self, f: &mut dyn FnMut(Op<'a>)) {
        struct State<'f, 'a> {
            f: &'f mut dyn FnMut(Op<'a>),
            panic: Option<Box<dyn std::any::Any + Send>>,
        }
        unsafe extern "C" fn trampoline(op: MlirOperation, data: *mut c_void) -> MlirWalkResult {
            // SAFETY: `data` is the `State` below, alive for the whole walk.
            let state = unsafe { &mut *(data as *mut State) };
            let f = &mut state.f;
            // SAFETY: MLIR hands over a live op nested in the walked one, which is alive for
            // the walk's `'a`.
            let op = unsafe { Op::from_raw(op) };
            match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(op))) {
                Ok(()) => MlirWalkResult_MlirWalkResultAdvance,
                Err(payload) => {
                    state.panic = Some(payload);
                    MlirWalkResult_MlirWalkResultInterrupt
                }
            }
        }
        let mut state = State { f, panic: None };
        // SAFETY: the state outlives the walk.
        unsafe {
            mlirOperationWalk(
                self.raw,
                Some(trampoline),
                &mut state as *mut State as *mut c_void,
                MlirWalkOrder_MlirWalkPreOrder,
            )
        }
        if let Some(payload) = state.panic {
            std::panic::resume_unwind(payload);
        }
    }
}

/// A block handle into IR borrowed for `'a`.
#[derive(Clone, Copy, Debug)]
pub struct Block<'a> {
    raw: MlirBlock,
    ir: PhantomData<&'a ()>,
}

impl<'a> From<BlockRef<'_, 'a>> for Block<'a> {
    fn from(block: BlockRef<'_, 'a>) -> Self {
        // SAFETY: melior's reference is live for `'a`, the borrow of its owner.
        unsafe { Block::from_raw(block.to_raw()) }
    }
}

impl<'a> Block<'a> {
    /// A handle to a raw MLIR block.
    ///
    /// # Safety
    /// `raw` is a live block (not null), and it stays alive (its op not erased, its module not
    /// dropped) for as long as `'a` and every copy of the handle is used.
    pub unsafe fn from_raw(raw: MlirBlock) -> Self {
        Self {
            raw,
            ir: PhantomData,
        }
    }

    /// The raw MLIR block, for C API calls this module does not wrap.
    pub fn raw(self) -> MlirBlock {
        self.raw
    }

    /// The op whose region holds this block.
    pub fn parent_op(self) -> Option<Op<'a>> {
        // SAFETY: the block is alive. A non-null result is live IR of the same owner.
        unsafe {
            let op = mlirBlockGetParentOperation(self.raw);
            (!op.ptr.is_null()).then(|| Op::from_raw(op))
        }
    }

    /// The block's first op, if any.
    pub fn first_op(self) -> Option<Op<'a>> {
        // SAFETY: the block is alive. A non-null result is live IR of the same owner.
        unsafe {
            let op = mlirBlockGetFirstOperation(self.raw);
            (!op.ptr.is_null()).then(|| Op::from_raw(op))
        }
    }

    /// The ops of the block, in order.
    pub fn ops(self) -> Vec<Op<'a>> {
        let mut ops = Vec::new();
        // SAFETY: the block is alive.
        unsafe {
            let mut op = mlirBlockGetFirstOperation(self.raw);
            while !op.ptr.is_null() {
                ops.push(Op::from_raw(op));
                op = mlirOperationGetNextInBlock(op);
            }
        }
        ops
    }

    /// The block's argument `index`, if it has that many: one argument without collecting
    /// them all (a function's entry block may hold thousands of weights).
    pub fn argument(self, index: usize) -> Option<Val<'a>> {
        // SAFETY: the block is alive and `index` is checked against its argument count.
        unsafe {
            let n = usize::try_from(mlirBlockGetNumArguments(self.raw)).ok()?;
            (index < n).then(|| Val::from_raw(mlirBlockGetArgument(self.raw, index as isize)))
        }
    }

    /// The block's arguments.
    pub fn arguments(self) -> Vec<Val<'a>> {
        // SAFETY: as above.
        unsafe {
            (0..mlirBlockGetNumArguments(self.raw))
                .map(|i| Val::from_raw(mlirBlockGetArgument(self.raw, i)))
                .collect()
        }
    }
}

impl<'a> Val<'a> {
    /// Whether both values have the same type (types are uniqued).
    pub fn same_type(self, other: Val<'a>) -> bool {
        // SAFETY: both values are alive.
        unsafe { mlirTypeEqual(mlirValueGetType(self.raw), mlirValueGetType(other.raw)) }
    }

    /// Gives the value a ranked tensor type of `shape` (`None` = dynamic) and the element type
    /// of `like` (a ranked tensor value). Used when a rewrite re-derives a value's shape.
    pub fn set_tensor_type(self, shape: &[Option<i64>], like: Val<'a>) {
        let dims: Vec<i64> = shape.iter().map(|d| d.unwrap_or(i64::MIN)).collect();
        // SAFETY: both values are alive; `like` is checked to be shaped before its element type
        // is read (MLIR casts unchecked); the new type is uniqued in their context.
        unsafe {
            assert!(
                mlirTypeIsAShaped(mlirValueGetType(like.raw)),
                "set_tensor_type: `like` is not a shaped value"
            );
            let element = mlirShapedTypeGetElementType(mlirValueGetType(like.raw));
            let null_encoding = MlirAttribute {
                ptr: std::ptr::null(),
            };
            let ty =
                mlirRankedTensorTypeGet(dims.len() as isize, dims.as_ptr(), element, null_encoding);
            mlirValueSetType(self.raw, ty);
        }
    }

    /// The value's context.
    pub fn context_raw(self) -> MlirContext {
        // SAFETY: the value is alive.
        unsafe { mlirTypeGetContext(mlirValueGetType(self.raw)) }
    }

    /// An identity key of the value's type.
    pub fn type_key(self) -> usize {
        // SAFETY: as above.
        unsafe { mlirValueGetType(self.raw).ptr as usize }
    }

    /// Gives the value (op result or block argument) type `ty` (of the value's context), in
    /// place. Its users are not re-checked: the verifier runs after the pass.
    pub fn set_raw_type(self, ty: MlirType) {
        // SAFETY: the value is alive; MLIR only stores the (uniqued) type.
        unsafe { mlirValueSetType(self.raw, ty) }
    }
}

impl<'a> Op<'a> {
    /// Removes attribute `name`; whether it was there.
    pub fn remove_attr(self, name: &str) -> bool {
        // SAFETY: the op is alive; the name outlives the call.
        unsafe { mlirOperationRemoveAttributeByName(self.raw, string_ref(name)) }
    }

    /// The op's context.
    pub fn context_raw(self) -> MlirContext {
        // SAFETY: the op is alive.
        unsafe { mlirOperationGetContext(self.raw) }
    }

    /// An `array<i64: …>` attribute in the op's context.
    pub fn i64_array_attr(self, values: &[i64]) -> Attr<'a> {
        // SAFETY: MLIR copies the values into uniqued storage.
        unsafe {
            Attr::from_raw(mlirDenseI64ArrayGet(
                self.context_raw(),
                values.len() as isize,
                values.as_ptr(),
            ))
        }
    }
}

/// Builds an op named `name`, located where `anchor` is, with the given operands, result types
/// and attributes, not yet in any block: the caller inserts it (directly, or through a pattern
/// rewriter so that a rewrite driver knows of it). The caller makes sure the op is valid (the
/// verifier runs after every pass).
pub fn build_detached_op<'a>(
    anchor: Op<'a>,
    name: &str,
    operands: &[Val<'a>],
    result_types: &[MlirType],
    attributes: &[(&str, Attr<'a>)],
) -> Op<'a> {
    build_op(anchor, name, operands, result_types, attributes, None)
}

/// The one place an `MlirOperationState` is filled: name, location of `anchor`, operands,
/// results, attributes and, if given, one region the new op takes ownership of.
fn build_op<'a>(
    anchor: Op<'a>,
    name: &str,
    operands: &[Val<'a>],
    result_types: &[MlirType],
    attributes: &[(&str, Attr<'a>)],
    region: Option<MlirRegion>,
) -> Op<'a> {
    // SAFETY: the state is filled from live handles and consumed by mlirOperationCreate; the
    // region (if any) is caller-owned and handed over to the new op.
    unsafe {
        let context = anchor.context_raw();
        let mut state =
            mlirOperationStateGet(string_ref(name), mlirOperationGetLocation(anchor.raw));
        let raw_operands: Vec<MlirValue> = operands.iter().map(|v| v.raw).collect();
        mlirOperationStateAddOperands(
            &mut state,
            raw_operands.len() as isize,
            raw_operands.as_ptr(),
        );
        mlirOperationStateAddResults(
            &mut state,
            result_types.len() as isize,
            result_types.as_ptr(),
        );
        let named = named_attributes(context, attributes);
        mlirOperationStateAddAttributes(&mut state, named.len() as isize, named.as_ptr());
        if let Some(region) = region {
            mlirOperationStateAddOwnedRegions(&mut state, 1, &region);
        }
        Op::from_raw(mlirOperationCreate(&mut state))
    }
}

/// Creates an op (see [`build_detached_op`]) right before `anchor`, in its block.
pub fn create_op_before<'a>(
    anchor: Op<'a>,
    name: &str,
    operands: &[Val<'a>],
    result_types: &[MlirType],
    attributes: &[(&str, Attr<'a>)],
) -> Op<'a> {
    anchor.expect_in_block();
    let op = build_detached_op(anchor, name, operands, result_types, attributes);
    // SAFETY: the anchor's block is alive; the block takes ownership of the new op.
    unsafe {
        mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(anchor.raw), anchor.raw, op.raw)
    };
    op
}

/// `(name, attribute)` pairs as MLIR named attributes of `context`.
pub fn named_attributes(
    context: MlirContext,
    attributes: &[(&str, Attr<'_>)],
) -> Vec<MlirNamedAttribute> {
    attributes
        .iter()
        .map(|(n, a)| MlirNamedAttribute {
            // SAFETY: identifiers are uniqued in the live context.
            name: unsafe { mlirIdentifierGet(context, string_ref(n)) },
            attribute: a.raw,
        })
        .collect()
}

/// An MLIR string reference to `s` (valid while `s` is).
pub fn string_ref(s: &str) -> MlirStringRef {
    MlirStringRef {
        data: s.as_ptr() as *const _,
        length: s.len(),
    }
}

/// Attributes made in a raw context. The context is trusted to be live (as every raw-context
/// helper of this crate does) and the caller picks `'a`, which must not outlast it.
impl<'a> Attr<'a> {
    /// An `array<i32: …>` attribute (as `operandSegmentSizes` needs).
    pub fn i32_array(context: MlirContext, values: &[i32]) -> Attr<'a> {
        // SAFETY: MLIR copies the values into uniqued storage.
        unsafe {
            Attr::from_raw(mlirDenseI32ArrayGet(
                context,
                values.len() as isize,
                values.as_ptr(),
            ))
        }
    }

    /// A string attribute.
    pub fn string(context: MlirContext, value: &str) -> Attr<'a> {
        // SAFETY: MLIR copies the string.
        unsafe { Attr::from_raw(mlirStringAttrGet(context, string_ref(value))) }
    }

    /// A bool attribute.
    pub fn bool(context: MlirContext, value: bool) -> Attr<'a> {
        // SAFETY: as above.
        unsafe { Attr::from_raw(mlirBoolAttrGet(context, i32::from(value))) }
    }

    /// An i64 integer attribute.
    pub fn i64(context: MlirContext, value: i64) -> Attr<'a> {
        // SAFETY: as above.
        unsafe { Attr::from_raw(mlirIntegerAttrGet(mlirIntegerTypeGet(context, 64), value)) }
    }

    /// An f32 float attribute.
    pub fn f32(context: MlirContext, value: f32) -> Attr<'a> {
        // SAFETY: as above.
        unsafe {
            Attr::from_raw(mlirFloatAttrDoubleGet(
                context,
                mlirF32TypeGet(context),
                f64::from(value),
            ))
        }
    }
}

/// How to print IR.
#[derive(Clone, Copy, Debug, Default)]
pub struct PrintOptions {
    /// Print locations (`loc(...)`).
    pub debug_info: bool,
    /// Print every op in generic form.
    pub generic: bool,
    /// mlir-opt's `--mlir-elide-elementsattrs-if-larger=N`: dense attributes with more than N
    /// elements print as `dense_resource<__elided__>`.
    pub elide_elements_if_larger: Option<i64>,
}

impl PrintOptions {
    /// MLIR printing flags for these options; the caller owns (and destroys) them.
    pub fn to_flags(self) -> MlirOpPrintingFlags {
        // SAFETY: the flags are a fresh object the caller destroys with
        // mlirOpPrintingFlagsDestroy (or hands to MLIR, which copies them).
        unsafe {
            let flags = mlirOpPrintingFlagsCreate();
            if self.debug_info {
                mlirOpPrintingFlagsEnableDebugInfo(flags, true, false);
            }
            if self.generic {
                mlirOpPrintingFlagsPrintGenericOpForm(flags);
            }
            if let Some(limit) = self.elide_elements_if_larger {
                mlirOpPrintingFlagsElideLargeElementsAttrs(flags, limit.max(0) as isize);
            }
            flags
        }
    }
}

/// An `MlirStringCallback` that appends each chunk to the `Vec<u8>` behind `data`.
unsafe extern "C" fn append_chunk(chunk: MlirStringRef, data: *mut c_void) {
    // SAFETY: `data` is the `Vec<u8>` the caller passed; the chunk is valid for the call.
    let out = unsafe { &mut *(data as *mut Vec<u8>) };
    if !chunk.data.is_null() {
        out.extend_from_slice(unsafe {
            std::slice::from_raw_parts(chunk.data as *const u8, chunk.length)
        });
    }
}

extern "C" {
    /// lib/CAPI/Dialects.cpp: mlirOperationPrintWithFlags into one buffer, handed to
    /// `callback` once (the C API's stream calls back for every token).
    fn ditOperationPrintBuffered(
        op: MlirOperation,
        flags: MlirOpPrintingFlags,
        callback: MlirStringCallback,
        data: *mut c_void,
    );
}

impl<'a> Op<'a> {
    /// Prints the op. The IR must already be verified (dit-opt verifies after parsing and
    /// after every pass): MLIR's printer then skips its own full re-verification, which
    /// otherwise costs as much as printing.
    pub fn print_verified(self, options: PrintOptions) -> String {
        let mut out = Vec::new();
        // SAFETY: the flags are created and destroyed here; the callback only appends bytes.
        unsafe {
            let flags = options.to_flags();
            mlirOpPrintingFlagsAssumeVerified(flags);
            ditOperationPrintBuffered(
                self.raw,
                flags,
                Some(append_chunk),
                &mut out as *mut Vec<u8> as *mut c_void,
            );
            mlirOpPrintingFlagsDestroy(flags);
        }
        // As in `str_of`: valid UTF-8 (always, in practice) is taken without a copy.
        String::from_utf8(out)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }

    /// The op in MLIR's bytecode format (mlir-opt's `--emit-bytecode`).
    pub fn write_bytecode(self) -> Vec<u8> {
        let mut out = Vec::new();
        // SAFETY: the callback only appends bytes to `out`, which outlives the call.
        unsafe {
            mlirOperationWriteBytecode(
                self.raw,
                Some(append_chunk),
                &mut out as *mut Vec<u8> as *mut c_void,
            )
        };
        out
    }
}

/// Builds a ranked tensor type of `shape` (`None` = dynamic) with element type `elem`.
/// `None` for an element type that has no builtin MLIR type here (`Elem::Other`).
pub fn tensor_type(
    context: MlirContext,
    shape: &[Option<i64>],
    elem: &crate::tensor::Elem,
) -> Option<MlirType> {
    use crate::tensor::DType;
    let dtype = elem.dtype()?;
    // SAFETY: builtin types are uniqued in the (live) context.
    unsafe {
        let element = match dtype {
            DType::F32 => mlirF32TypeGet(context),
            DType::F16 => mlirF16TypeGet(context),
            DType::BF16 => mlirBF16TypeGet(context),
            DType::I1 => mlirIntegerTypeGet(context, 1),
            DType::I4 => mlirIntegerTypeGet(context, 4),
            DType::I8 => mlirIntegerTypeGet(context, 8),
            DType::I32 => mlirIntegerTypeGet(context, 32),
            DType::I64 => mlirIntegerTypeGet(context, 64),
            DType::F8E4M3FN => mlirFloat8E4M3FNTypeGet(context),
            DType::F8E5M2 => mlirFloat8E5M2TypeGet(context),
            DType::F8E8M0FNU => mlirFloat8E8M0FNUTypeGet(context),
            DType::F4E2M1FN => mlirFloat4E2M1FNTypeGet(context),
        };
        let dims: Vec<i64> = shape
            .iter()
            .map(|d| d.unwrap_or(mlirShapedTypeGetDynamicSize()))
            .collect();
        let null_encoding = MlirAttribute {
            ptr: std::ptr::null(),
        };
        Some(mlirRankedTensorTypeGet(
            dims.len() as isize,
            dims.as_ptr(),
            element,
            null_encoding,
        ))
    }
}

impl<'a> Val<'a> {
    /// The block and position of a block argument; `None` for an op result.
    pub fn block_argument(self) -> Option<(Block<'a>, usize)> {
        // SAFETY: the value is alive (module invariant).
        unsafe {
            mlirValueIsABlockArgument(self.raw).then(|| {
                (
                    Block::from_raw(mlirBlockArgumentGetOwner(self.raw)),
                    mlirBlockArgumentGetArgNumber(self.raw) as usize,
                )
            })
        }
    }
}

impl<'a> Attr<'a> {
    /// The symbol name of a flat symbol reference attribute (`@f`).
    pub fn as_flat_symbol_ref(self) -> Option<String> {
        // SAFETY: predicates and getters on a live attribute.
        unsafe {
            mlirAttributeIsAFlatSymbolRef(self.raw)
                .then(|| str_of(mlirFlatSymbolRefAttrGetValue(self.raw)))
        }
    }
}

impl<'a> Op<'a> {
    /// For a `func.func` with a body: appends an argument of type `ty` (a raw MLIR type) to its
    /// entry block, and keeps the signature in step: `function_type` gets the new input, and
    /// `arg_attrs` (created when `attributes` is not empty, extended when present) gets the
    /// argument's attribute dictionary. Returns the new argument, or `None` if the op is no
    /// func.func with a body. Callers of the function are not updated (the caller checks that
    /// there are none).
    pub fn append_function_argument(
        self,
        ty: MlirType,
        location: Location,
        attributes: &[(&str, Attr<'a>)],
    ) -> Option<Val<'a>> {
        if !self.is("func.func") {
            return None;
        }
        let entry = *self.region_blocks(0).first()?;
        let function_type = self.attr("function_type")?;
        // SAFETY: all handles are alive; new attributes and types are uniqued in the op's
        // context, and the block argument is owned by the (live) entry block.
        unsafe {
            let context = self.context_raw();
            let old = mlirTypeAttrGetValue(function_type.raw);
            if !mlirTypeIsAFunction(old) {
                return None;
            }
            let mut inputs: Vec<MlirType> = (0..mlirFunctionTypeGetNumInputs(old))
                .map(|i| mlirFunctionTypeGetInput(old, i))
                .collect();
            let results: Vec<MlirType> = (0..mlirFunctionTypeGetNumResults(old))
                .map(|i| mlirFunctionTypeGetResult(old, i))
                .collect();
            let old_count = inputs.len();
            inputs.push(ty);
            let new = mlirFunctionTypeGet(
                context,
                inputs.len() as isize,
                inputs.as_ptr(),
                results.len() as isize,
                results.as_ptr(),
            );
            let value = mlirBlockAddArgument(entry.raw, ty, location.to_raw());
            self.set_attr("function_type", Attr::from_raw(mlirTypeAttrGet(new)));
            let existing = self
                .attr("arg_attrs")
                .filter(|a| mlirAttributeIsAArray(a.raw));
            if existing.is_some() || !attributes.is_empty() {
                let empty = mlirDictionaryAttrGet(context, 0, std::ptr::null());
                let mut dicts: Vec<MlirAttribute> = match existing {
                    Some(a) => (0..mlirArrayAttrGetNumElements(a.raw))
                        .map(|i| mlirArrayAttrGetElement(a.raw, i))
                        .collect(),
                    None => Vec::new(),
                };
                dicts.resize(old_count, empty);
                let named = named_attributes(context, attributes);
                dicts.push(mlirDictionaryAttrGet(
                    context,
                    named.len() as isize,
                    named.as_ptr(),
                ));
                self.set_attr(
                    "arg_attrs",
                    Attr::from_raw(mlirArrayAttrGet(
                        context,
                        dicts.len() as isize,
                        dicts.as_ptr(),
                    )),
                );
            }
            Some(Val::from_raw(value))
        }
    }
}

impl<'a> Val<'a> {
    /// The ops that use this value (one entry per use).
    pub fn users(self) -> Vec<Op<'a>> {
        let mut users = Vec::new();
        // SAFETY: walks the use list of a live value.
        unsafe {
            let mut use_ = mlirValueGetFirstUse(self.raw);
            while !use_.ptr.is_null() {
                users.push(Op::from_raw(mlirOpOperandGetOwner(use_)));
                use_ = mlirOpOperandGetNextUse(use_);
            }
        }
        users
    }

    /// Replaces every use of this value with `with`, except the uses by `except`.
    pub fn replace_all_uses_except(self, with: Val<'a>, except: Op<'a>) {
        let mut exceptions = [except.raw];
        // SAFETY: all handles are alive; MLIR reads the exception list during the call.
        unsafe { mlirValueReplaceAllUsesExcept(self.raw, with.raw, 1, exceptions.as_mut_ptr()) }
    }
}

impl<'a> Op<'a> {
    /// Moves the op from its block to the end of `block`, which must be in the same IR tree
    /// (the same outermost op, e.g. one module): the op keeps its owner, so every handle to it
    /// stays valid for as long as it was. Panics, moving nothing, otherwise; moving into
    /// another tree is [`Op::move_to_end_of_other_tree`].
    pub fn move_to_end_of(self, block: Block<'a>) {
        let destination = block.parent_op().map(|op| op.outermost());
        assert!(
            destination == Some(self.outermost()),
            "moving an op into another IR tree (see move_to_end_of_other_tree)"
        );
        // SAFETY: both are alive; the op stays under the same owner.
        unsafe { self.move_unchecked(block) }
    }

    /// Moves the op from its block to the end of `block`, in any IR tree.
    ///
    /// # Safety
    /// The op now belongs to `block`'s owner: no handle to it (nor to its results, regions or
    /// nested ops) is used once that owner is gone, even if the handle's lifetime says longer
    /// (moving an op out of a module that is destroyed afterwards, into the one that stays, is
    /// the sound direction).
    pub unsafe fn move_to_end_of_other_tree(self, block: Block<'_>) {
        // SAFETY: both are alive; the caller answers for the new owner's lifetime.
        unsafe { self.move_unchecked(block) }
    }

    /// The removal and append behind both moves.
    unsafe fn move_unchecked(self, block: Block<'_>) {
        // SAFETY: the op is alive; after removal the caller-owned op is handed to the block.
        unsafe {
            mlirOperationRemoveFromParent(self.raw);
            mlirBlockAppendOwnedOperation(block.raw, self.raw);
        }
    }

    /// Panics unless the op is in a block: inserting before an op in none would hand MLIR a
    /// null block.
    fn expect_in_block(self) {
        assert!(
            self.block().is_some(),
            "inserting before an op that is in no block"
        );
    }

    /// The outermost op this one is nested in (itself when it has no parent).
    fn outermost(self) -> Op<'a> {
        let mut at = self;
        while let Some(parent) = at.parent() {
            at = parent;
        }
        at
    }
}

/// Creates, right before `anchor`, an op with one region holding one block whose arguments
/// have `block_argument_types` (located at the anchor); returns the op and that block.
pub fn create_region_op_before<'a>(
    anchor: Op<'a>,
    name: &str,
    operands: &[Val<'a>],
    result_types: &[MlirType],
    attributes: &[(&str, Attr<'a>)],
    block_argument_types: &[MlirType],
) -> (Op<'a>, Block<'a>) {
    anchor.expect_in_block();
    // SAFETY: the block and region are created here and handed to the new op, which the
    // anchor's block then owns.
    unsafe {
        let location = mlirOperationGetLocation(anchor.raw);
        let locations = vec![location; block_argument_types.len()];
        let block = mlirBlockCreate(
            block_argument_types.len() as isize,
            block_argument_types.as_ptr(),
            locations.as_ptr(),
        );
        let region = mlirRegionCreate();
        mlirRegionAppendOwnedBlock(region, block);
        let op = build_op(
            anchor,
            name,
            operands,
            result_types,
            attributes,
            Some(region),
        );
        mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(anchor.raw), anchor.raw, op.raw);
        (op, Block::from_raw(block))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use melior::ir::Module;

    #[test]
    fn a_panic_in_a_walk_resumes_after_mlir_returns() {
        let context = crate::new_context().expect("dialect loads");
        let module = Module::parse(&context, "func.func @f() { return }").expect("parses");
        let root = Op::of_module(&module);
        let mut visited = 0;
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            root.walk(&mut |_| {
                visited += 1;
                panic!("boom");
            })
        }));
        assert!(outcome.is_err());
        assert_eq!(visited, 1, "the walk stops at the panic");
    }

    /// A function whose body is `%0 = relu(%x)`, `%1 = relu(%0)`, `return %1`.
    const CHAIN: &str = r#"func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "dit.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "dit.relu"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}"#;

    fn ops_named<'a>(root: Op<'a>, name: &str) -> Vec<Op<'a>> {
        let mut found = Vec::new();
        root.walk(&mut |op| {
            if op.is(name) {
                found.push(op);
            }
        });
        found
    }

    #[test]
    fn erasing_an_op_whose_result_is_used_panics_and_erases_nothing() {
        let context = crate::new_context().expect("dialect loads");
        let module = Module::parse(&context, CHAIN).expect("parses");
        let root = Op::of_module(&module);
        let first = ops_named(root, "dit.relu")[0];
        assert!(first.has_uses());
        // SAFETY: the op is not used afterwards if the erase happens; it must not (it panics
        // first), which the checks below confirm on the intact IR.
        let outcome = std::panic::catch_unwind(|| unsafe { first.erase() });
        assert!(outcome.is_err(), "erase refuses an op with uses");
        assert_eq!(ops_named(root, "dit.relu").len(), 2);
        assert!(module.as_operation().verify());
    }

    #[test]
    fn erasing_a_dead_chain_user_first_leaves_valid_ir() {
        let context = crate::new_context().expect("dialect loads");
        let module = Module::parse(&context, CHAIN).expect("parses");
        let root = Op::of_module(&module);
        let relus = ops_named(root, "dit.relu");
        let ret = ops_named(root, "func.return")[0];
        ret.set_operand(0, relus[0].operand(0));
        for op in relus.into_iter().rev() {
            // SAFETY: the second relu's only user (the return) reads %x now, and the first's
            // only user is the second, erased first; neither handle is used again.
            unsafe { op.erase() };
        }
        assert!(ops_named(root, "dit.relu").is_empty());
        assert!(module.as_operation().verify());
    }

    #[test]
    fn moving_an_op_into_another_module_is_refused_by_the_safe_move() {
        let context = crate::new_context().expect("dialect loads");
        let a = Module::parse(&context, CHAIN).expect("parses");
        let b = Module::parse(&context, "").expect("parses");
        let func = ops_named(Op::of_module(&a), "func.func")[0];
        let other_body = Op::of_module(&b).region_blocks(0)[0];
        let outcome = std::panic::catch_unwind(|| func.move_to_end_of(other_body));
        assert!(outcome.is_err(), "the safe move stays within one tree");
        assert_eq!(ops_named(Op::of_module(&a), "func.func").len(), 1);
        // Within the tree it moves (the IR is not verified afterwards).
        let relus = ops_named(Op::of_module(&a), "dit.relu");
        let body = relus[1].block().expect("in the body");
        relus[0].move_to_end_of(body);
        assert_eq!(body.ops().last().copied(), Some(relus[0]));
    }
}
