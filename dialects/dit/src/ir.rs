//! A thin, copyable handle over MLIR operations and values for code that walks and rewrites
//! the IR. melior's borrow-checked references cannot express "erase this op while walking its
//! block", which every cleanup pass needs; these handles call the C API directly and keep the
//! unsafe code in one file.
//!
//! Invariant: a handle is only used while its context is alive and its op has not been
//! erased. Passes hold handles for the duration of one walk and erase only ops they no longer
//! visit.

use crate::tensor::TensorInfo;
use melior::ir::{Location, Type};
use mlir_sys::*;
use std::ffi::c_void;

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

/// An SSA value.
#[derive(Clone, Copy, Debug)]
pub struct Val(pub MlirValue);

impl PartialEq for Val {
    fn eq(&self, other: &Self) -> bool {
        // SAFETY: comparing handles.
        unsafe { mlirValueEqual(self.0, other.0) }
    }
}
impl Eq for Val {}

impl Val {
    /// The value's type as a ranked tensor, if it is one.
    pub fn tensor(self) -> Option<TensorInfo> {
        TensorInfo::of(self.ty())
    }

    /// The value's type.
    pub fn ty<'c>(self) -> Type<'c> {
        // SAFETY: the value is alive (module invariant).
        unsafe { Type::from_raw(mlirValueGetType(self.0)) }
    }

    /// The op that defines it, or `None` for a block argument.
    pub fn defining_op(self) -> Option<Op> {
        // SAFETY: as above.
        unsafe {
            if mlirValueIsAOpResult(self.0) {
                Some(Op(mlirOpResultGetOwner(self.0)))
            } else {
                None
            }
        }
    }

    /// Whether anything uses the value.
    pub fn has_uses(self) -> bool {
        // SAFETY: as above.
        unsafe { !mlirValueGetFirstUse(self.0).ptr.is_null() }
    }

    /// The number of uses.
    pub fn use_count(self) -> usize {
        let mut count = 0;
        // SAFETY: walks the use list of a live value.
        unsafe {
            let mut use_ = mlirValueGetFirstUse(self.0);
            while !use_.ptr.is_null() {
                count += 1;
                use_ = mlirOpOperandGetNextUse(use_);
            }
        }
        count
    }

    /// Replaces every use of this value with `with`.
    pub fn replace_all_uses_with(self, with: Val) {
        // SAFETY: both values are alive.
        unsafe { mlirValueReplaceAllUsesOfWith(self.0, with.0) }
    }

    /// An identity key for hashing (values are pointers into the IR).
    pub fn key(self) -> usize {
        self.0.ptr as usize
    }
}

/// An attribute handle.
#[derive(Clone, Copy, Debug)]
pub struct Attr(pub MlirAttribute);

impl Attr {
    /// The string value of a string attribute.
    pub fn as_str(self) -> Option<String> {
        // SAFETY: predicates and getters on a live attribute.
        unsafe { mlirAttributeIsAString(self.0).then(|| str_of(mlirStringAttrGetValue(self.0))) }
    }

    /// The value of a bool attribute.
    pub fn as_bool(self) -> Option<bool> {
        // SAFETY: as above.
        unsafe { mlirAttributeIsABool(self.0).then(|| mlirBoolAttrGetValue(self.0)) }
    }

    /// The value of an integer attribute (not a bool).
    pub fn as_i64(self) -> Option<i64> {
        // SAFETY: as above.
        unsafe {
            (mlirAttributeIsAInteger(self.0) && !mlirAttributeIsABool(self.0))
                .then(|| mlirIntegerAttrGetValueInt(self.0))
        }
    }

    /// The value of a float attribute.
    pub fn as_f64(self) -> Option<f64> {
        // SAFETY: as above.
        unsafe { mlirAttributeIsAFloat(self.0).then(|| mlirFloatAttrGetValueDouble(self.0)) }
    }

    /// Whether it is a float attribute of type f32.
    pub fn is_f32_float(self) -> bool {
        // SAFETY: as above.
        unsafe { mlirAttributeIsAFloat(self.0) && mlirTypeIsAF32(mlirAttributeGetType(self.0)) }
    }

    /// The elements of an `array<i64: …>` attribute.
    pub fn as_i64_array(self) -> Option<Vec<i64>> {
        // SAFETY: as above.
        unsafe {
            mlirAttributeIsADenseI64Array(self.0).then(|| {
                (0..mlirDenseArrayGetNumElements(self.0))
                    .map(|i| mlirDenseI64ArrayGetElement(self.0, i))
                    .collect()
            })
        }
    }

    /// The elements of an `array<i32: …>` attribute.
    pub fn as_i32_array(self) -> Option<Vec<i32>> {
        // SAFETY: as above.
        unsafe {
            mlirAttributeIsADenseI32Array(self.0).then(|| {
                (0..mlirDenseArrayGetNumElements(self.0))
                    .map(|i| mlirDenseI32ArrayGetElement(self.0, i))
                    .collect()
            })
        }
    }

    /// The elements of an array attribute.
    pub fn as_array(self) -> Option<Vec<Attr>> {
        // SAFETY: as above.
        unsafe {
            mlirAttributeIsAArray(self.0).then(|| {
                (0..mlirArrayAttrGetNumElements(self.0))
                    .map(|i| Attr(mlirArrayAttrGetElement(self.0, i)))
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
            if !mlirAttributeIsADenseElements(self.0) {
                return None;
            }
            let splat = mlirDenseElementsAttrIsSplat(self.0);
            let count = if splat {
                1
            } else {
                usize::try_from(mlirElementsAttrGetNumElements(self.0)).ok()?
            };
            let element = mlirShapedTypeGetElementType(mlirAttributeGetType(self.0));
            if mlirTypeIsAInteger(element) && mlirIntegerTypeGetWidth(element) == 1 {
                let bools = (0..count)
                    .map(|i| {
                        let on = if splat {
                            mlirDenseElementsAttrGetBoolSplatValue(self.0) != 0
                        } else {
                            mlirDenseElementsAttrGetBoolValue(self.0, i as isize)
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
            let data = mlirDenseElementsAttrGetRawData(self.0) as *const u8;
            if data.is_null() {
                return None;
            }
            let len = count.checked_mul(element_bytes)?;
            Some((std::slice::from_raw_parts(data, len).to_vec(), splat))
        }
    }

    /// The entry `name` of a dictionary attribute.
    pub fn dict_get(self, name: &str) -> Option<Attr> {
        // SAFETY: as above; the name outlives the call.
        unsafe {
            if !mlirAttributeIsADictionary(self.0) {
                return None;
            }
            let a = mlirDictionaryAttrGetElementByName(self.0, string_ref(name));
            (!a.ptr.is_null()).then_some(Attr(a))
        }
    }

    /// An identity key: attributes are uniqued, so equal attributes have equal keys.
    pub fn key(self) -> usize {
        self.0.ptr as usize
    }
}

/// An operation handle.
#[derive(Clone, Copy, Debug)]
pub struct Op(pub MlirOperation);

impl PartialEq for Op {
    fn eq(&self, other: &Self) -> bool {
        // SAFETY: comparing handles.
        unsafe { mlirOperationEqual(self.0, other.0) }
    }
}
impl Eq for Op {}

impl Op {
    /// The op's full name, e.g. `dit.gelu`.
    pub fn name(self) -> String {
        // SAFETY: the op is alive; its name identifier is owned by the context.
        unsafe { str_of(mlirIdentifierStr(mlirOperationGetName(self.0))) }
    }

    /// Calls `f` with the bytes of the op's full name, without allocating (this is on the hot
    /// path of every walk).
    fn with_name<R>(self, f: impl FnOnce(&[u8]) -> R) -> R {
        // SAFETY: the op is alive; its name identifier is owned by the context, which outlives
        // this call, and the slice does not escape `f`.
        let bytes = unsafe {
            let s = mlirIdentifierStr(mlirOperationGetName(self.0));
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

    /// The op's location.
    pub fn location<'c>(self) -> Location<'c> {
        // SAFETY: as above.
        unsafe { Location::from_raw(mlirOperationGetLocation(self.0)) }
    }

    /// Number of operands.
    pub fn num_operands(self) -> usize {
        // SAFETY: as above.
        unsafe { mlirOperationGetNumOperands(self.0) as usize }
    }

    /// Operand `i`.
    pub fn operand(self, i: usize) -> Val {
        // SAFETY: callers index below num_operands.
        unsafe { Val(mlirOperationGetOperand(self.0, i as isize)) }
    }

    /// All operands.
    pub fn operands(self) -> Vec<Val> {
        (0..self.num_operands()).map(|i| self.operand(i)).collect()
    }

    /// Number of results.
    pub fn num_results(self) -> usize {
        // SAFETY: as above.
        unsafe { mlirOperationGetNumResults(self.0) as usize }
    }

    /// Result `i`.
    pub fn result(self, i: usize) -> Val {
        // SAFETY: callers index below num_results.
        unsafe { Val(mlirOperationGetResult(self.0, i as isize)) }
    }

    /// All results.
    pub fn results(self) -> Vec<Val> {
        (0..self.num_results()).map(|i| self.result(i)).collect()
    }

    /// Whether any result is used.
    pub fn has_uses(self) -> bool {
        (0..self.num_results()).any(|i| self.result(i).has_uses())
    }

    /// The attribute `name`, if present.
    pub fn attr(self, name: &str) -> Option<Attr> {
        // SAFETY: as above.
        unsafe {
            let a = mlirOperationGetAttributeByName(self.0, string_ref(name));
            (!a.ptr.is_null()).then_some(Attr(a))
        }
    }

    /// Every attribute as (name, attribute).
    pub fn attrs(self) -> Vec<(String, Attr)> {
        // SAFETY: as above.
        unsafe {
            (0..mlirOperationGetNumAttributes(self.0))
                .map(|i| {
                    let named = mlirOperationGetAttribute(self.0, i);
                    (str_of(mlirIdentifierStr(named.name)), Attr(named.attribute))
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
            key.push(mlirOperationGetName(self.0).ptr as usize);
            let n = mlirOperationGetNumAttributes(self.0);
            for i in 0..n {
                let named = mlirOperationGetAttribute(self.0, i);
                key.push(named.name.ptr as usize);
                key.push(named.attribute.ptr as usize);
            }
        }
        key.push(usize::MAX);
    }

    /// Sets (or replaces) attribute `name`.
    pub fn set_attr(self, name: &str, attr: Attr) {
        // SAFETY: as above.
        unsafe { mlirOperationSetAttributeByName(self.0, string_ref(name), attr.0) }
    }

    /// Sets operand `i` to `value`.
    pub fn set_operand(self, i: usize, value: Val) {
        // SAFETY: as above.
        unsafe { mlirOperationSetOperand(self.0, i as isize, value.0) }
    }

    /// Number of regions.
    pub fn num_regions(self) -> usize {
        // SAFETY: as above.
        unsafe { mlirOperationGetNumRegions(self.0) as usize }
    }

    /// The blocks of region `i`.
    pub fn region_blocks(self, i: usize) -> Vec<Block> {
        let mut blocks = Vec::new();
        // SAFETY: as above.
        unsafe {
            let region = mlirOperationGetRegion(self.0, i as isize);
            let mut block = mlirRegionGetFirstBlock(region);
            while !block.ptr.is_null() {
                blocks.push(Block(block));
                block = mlirBlockGetNextInRegion(block);
            }
        }
        blocks
    }

    /// A copy of this op (same operands and attributes) inserted right before `anchor`.
    pub fn clone_before(self, anchor: Op) -> Op {
        // SAFETY: the clone is caller-owned until the anchor's (live) block takes it.
        unsafe {
            let copy = mlirOperationClone(self.0);
            mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(anchor.0), anchor.0, copy);
            Op(copy)
        }
    }

    /// The op after this one in its block, if any.
    pub fn next_in_block(self) -> Option<Op> {
        // SAFETY: the op is alive.
        let next = unsafe { mlirOperationGetNextInBlock(self.0) };
        (!next.ptr.is_null()).then_some(Op(next))
    }

    /// The block that holds this op, if any.
    pub fn block(self) -> Option<Block> {
        // SAFETY: the op is alive; a null block means it is in none.
        let block = unsafe { mlirOperationGetBlock(self.0) };
        (!block.ptr.is_null()).then_some(Block(block))
    }

    /// Whether this op comes before `other` in their (common) block. MLIR keeps op order
    /// numbers per block, so this is amortized constant time, not a scan.
    pub fn is_before_in_block(self, other: Op) -> bool {
        // SAFETY: both ops are alive and in the same block (callers check `block`).
        unsafe { mlirOperationIsBeforeInBlock(self.0, other.0) }
    }

    /// The op that contains this one, if any.
    pub fn parent(self) -> Option<Op> {
        // SAFETY: as above.
        unsafe {
            let p = mlirOperationGetParentOperation(self.0);
            (!p.ptr.is_null()).then_some(Op(p))
        }
    }

    /// Erases the op. Its results must have no uses (callers check; MLIR asserts otherwise).
    pub fn erase(self) {
        debug_assert!(!self.has_uses(), "erasing an op whose results are used");
        // SAFETY: the op is alive and unused; destroy unlinks it from its block.
        unsafe { mlirOperationDestroy(self.0) }
    }

    /// Calls `f` on this op and every op nested in it, parents before children.
    ///
    /// A panic in `f` cannot unwind through MLIR's C++ frames: it is caught, the walk stops,
    /// and the panic resumes once MLIR has returned.
    pub fn walk(self, f: &mut dyn FnMut(Op)) {
        struct State<'a> {
            f: &'a mut dyn FnMut(Op),
            panic: Option<Box<dyn std::any::Any + Send>>,
        }
        unsafe extern "C" fn trampoline(op: MlirOperation, data: *mut c_void) -> MlirWalkResult {
            // SAFETY: `data` is the `State` below, alive for the whole walk.
            let state = unsafe { &mut *(data as *mut State) };
            let f = &mut state.f;
            match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(Op(op)))) {
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
                self.0,
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

/// A block handle.
#[derive(Clone, Copy, Debug)]
pub struct Block(pub MlirBlock);

impl Block {
    /// The op whose region holds this block.
    pub fn parent_op(self) -> Option<Op> {
        // SAFETY: the block is alive.
        let op = unsafe { mlirBlockGetParentOperation(self.0) };
        (!op.ptr.is_null()).then_some(Op(op))
    }

    /// The block's first op, if any.
    pub fn first_op(self) -> Option<Op> {
        // SAFETY: the block is alive.
        let op = unsafe { mlirBlockGetFirstOperation(self.0) };
        (!op.ptr.is_null()).then_some(Op(op))
    }

    /// The ops of the block, in order.
    pub fn ops(self) -> Vec<Op> {
        let mut ops = Vec::new();
        // SAFETY: the block is alive.
        unsafe {
            let mut op = mlirBlockGetFirstOperation(self.0);
            while !op.ptr.is_null() {
                ops.push(Op(op));
                op = mlirOperationGetNextInBlock(op);
            }
        }
        ops
    }

    /// The block's arguments.
    pub fn arguments(self) -> Vec<Val> {
        // SAFETY: as above.
        unsafe {
            (0..mlirBlockGetNumArguments(self.0))
                .map(|i| Val(mlirBlockGetArgument(self.0, i)))
                .collect()
        }
    }
}

impl Val {
    /// Whether both values have the same type (types are uniqued).
    pub fn same_type(self, other: Val) -> bool {
        // SAFETY: both values are alive.
        unsafe { mlirTypeEqual(mlirValueGetType(self.0), mlirValueGetType(other.0)) }
    }

    /// Gives the value a ranked tensor type of `shape` (`None` = dynamic) and the element type
    /// of `like` (a ranked tensor value). Used when a rewrite re-derives a value's shape.
    pub fn set_tensor_type(self, shape: &[Option<i64>], like: Val) {
        let dims: Vec<i64> = shape.iter().map(|d| d.unwrap_or(i64::MIN)).collect();
        // SAFETY: both values are alive; the new type is uniqued in their context.
        unsafe {
            let element = mlirShapedTypeGetElementType(mlirValueGetType(like.0));
            let null_encoding = MlirAttribute {
                ptr: std::ptr::null(),
            };
            let ty =
                mlirRankedTensorTypeGet(dims.len() as isize, dims.as_ptr(), element, null_encoding);
            mlirValueSetType(self.0, ty);
        }
    }

    /// The value's context.
    pub fn context_raw(self) -> MlirContext {
        // SAFETY: the value is alive.
        unsafe { mlirTypeGetContext(mlirValueGetType(self.0)) }
    }

    /// An identity key of the value's type.
    pub fn type_key(self) -> usize {
        // SAFETY: as above.
        unsafe { mlirValueGetType(self.0).ptr as usize }
    }
}

impl Op {
    /// The op's context.
    pub fn context_raw(self) -> MlirContext {
        // SAFETY: the op is alive.
        unsafe { mlirOperationGetContext(self.0) }
    }

    /// An `array<i64: …>` attribute in the op's context.
    pub fn i64_array_attr(self, values: &[i64]) -> Attr {
        // SAFETY: MLIR copies the values into uniqued storage.
        unsafe {
            Attr(mlirDenseI64ArrayGet(
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
pub fn build_detached_op(
    anchor: Op,
    name: &str,
    operands: &[Val],
    result_types: &[MlirType],
    attributes: &[(&str, Attr)],
) -> Op {
    build_op(anchor, name, operands, result_types, attributes, None)
}

/// The one place an `MlirOperationState` is filled: name, location of `anchor`, operands,
/// results, attributes and, if given, one region the new op takes ownership of.
fn build_op(
    anchor: Op,
    name: &str,
    operands: &[Val],
    result_types: &[MlirType],
    attributes: &[(&str, Attr)],
    region: Option<MlirRegion>,
) -> Op {
    // SAFETY: the state is filled from live handles and consumed by mlirOperationCreate; the
    // region (if any) is caller-owned and handed over to the new op.
    unsafe {
        let context = anchor.context_raw();
        let mut state = mlirOperationStateGet(string_ref(name), mlirOperationGetLocation(anchor.0));
        let raw_operands: Vec<MlirValue> = operands.iter().map(|v| v.0).collect();
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
        Op(mlirOperationCreate(&mut state))
    }
}

/// Creates an op (see [`build_detached_op`]) right before `anchor`, in its block.
pub fn create_op_before(
    anchor: Op,
    name: &str,
    operands: &[Val],
    result_types: &[MlirType],
    attributes: &[(&str, Attr)],
) -> Op {
    let op = build_detached_op(anchor, name, operands, result_types, attributes);
    // SAFETY: the anchor's block is alive; the block takes ownership of the new op.
    unsafe { mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(anchor.0), anchor.0, op.0) };
    op
}

/// `(name, attribute)` pairs as MLIR named attributes of `context`.
pub fn named_attributes(
    context: MlirContext,
    attributes: &[(&str, Attr)],
) -> Vec<MlirNamedAttribute> {
    attributes
        .iter()
        .map(|(n, a)| MlirNamedAttribute {
            // SAFETY: identifiers are uniqued in the live context.
            name: unsafe { mlirIdentifierGet(context, string_ref(n)) },
            attribute: a.0,
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

impl Attr {
    /// An `array<i32: …>` attribute (as `operandSegmentSizes` needs).
    pub fn i32_array(context: MlirContext, values: &[i32]) -> Attr {
        // SAFETY: MLIR copies the values into uniqued storage.
        unsafe {
            Attr(mlirDenseI32ArrayGet(
                context,
                values.len() as isize,
                values.as_ptr(),
            ))
        }
    }

    /// A string attribute.
    pub fn string(context: MlirContext, value: &str) -> Attr {
        // SAFETY: MLIR copies the string.
        unsafe { Attr(mlirStringAttrGet(context, string_ref(value))) }
    }

    /// A bool attribute.
    pub fn bool(context: MlirContext, value: bool) -> Attr {
        // SAFETY: as above.
        unsafe { Attr(mlirBoolAttrGet(context, i32::from(value))) }
    }

    /// An i64 integer attribute.
    pub fn i64(context: MlirContext, value: i64) -> Attr {
        // SAFETY: as above.
        unsafe { Attr(mlirIntegerAttrGet(mlirIntegerTypeGet(context, 64), value)) }
    }

    /// An f32 float attribute.
    pub fn f32(context: MlirContext, value: f32) -> Attr {
        // SAFETY: as above.
        unsafe {
            Attr(mlirFloatAttrDoubleGet(
                context,
                mlirF32TypeGet(context),
                f64::from(value),
            ))
        }
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
        let root = Op(module.as_operation().to_raw());
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

impl Op {
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
                self.0,
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
                self.0,
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

impl Val {
    /// The block and position of a block argument; `None` for an op result.
    pub fn block_argument(self) -> Option<(Block, usize)> {
        // SAFETY: the value is alive (module invariant).
        unsafe {
            mlirValueIsABlockArgument(self.0).then(|| {
                (
                    Block(mlirBlockArgumentGetOwner(self.0)),
                    mlirBlockArgumentGetArgNumber(self.0) as usize,
                )
            })
        }
    }
}

impl Attr {
    /// The symbol name of a flat symbol reference attribute (`@f`).
    pub fn as_flat_symbol_ref(self) -> Option<String> {
        // SAFETY: predicates and getters on a live attribute.
        unsafe {
            mlirAttributeIsAFlatSymbolRef(self.0)
                .then(|| str_of(mlirFlatSymbolRefAttrGetValue(self.0)))
        }
    }
}

impl Op {
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
        attributes: &[(&str, Attr)],
    ) -> Option<Val> {
        if !self.is("func.func") {
            return None;
        }
        let entry = *self.region_blocks(0).first()?;
        let function_type = self.attr("function_type")?;
        // SAFETY: all handles are alive; new attributes and types are uniqued in the op's
        // context, and the block argument is owned by the (live) entry block.
        unsafe {
            let context = self.context_raw();
            let old = mlirTypeAttrGetValue(function_type.0);
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
            let value = mlirBlockAddArgument(entry.0, ty, location.to_raw());
            self.set_attr("function_type", Attr(mlirTypeAttrGet(new)));
            let existing = self
                .attr("arg_attrs")
                .filter(|a| mlirAttributeIsAArray(a.0));
            if existing.is_some() || !attributes.is_empty() {
                let empty = mlirDictionaryAttrGet(context, 0, std::ptr::null());
                let mut dicts: Vec<MlirAttribute> = match existing {
                    Some(a) => (0..mlirArrayAttrGetNumElements(a.0))
                        .map(|i| mlirArrayAttrGetElement(a.0, i))
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
                    Attr(mlirArrayAttrGet(
                        context,
                        dicts.len() as isize,
                        dicts.as_ptr(),
                    )),
                );
            }
            Some(Val(value))
        }
    }
}

impl Val {
    /// The ops that use this value (one entry per use).
    pub fn users(self) -> Vec<Op> {
        let mut users = Vec::new();
        // SAFETY: walks the use list of a live value.
        unsafe {
            let mut use_ = mlirValueGetFirstUse(self.0);
            while !use_.ptr.is_null() {
                users.push(Op(mlirOpOperandGetOwner(use_)));
                use_ = mlirOpOperandGetNextUse(use_);
            }
        }
        users
    }

    /// Replaces every use of this value with `with`, except the uses by `except`.
    pub fn replace_all_uses_except(self, with: Val, except: Op) {
        let mut exceptions = [except.0];
        // SAFETY: all handles are alive; MLIR reads the exception list during the call.
        unsafe { mlirValueReplaceAllUsesExcept(self.0, with.0, 1, exceptions.as_mut_ptr()) }
    }
}

impl Op {
    /// Moves the op from its block to the end of `block`.
    pub fn move_to_end_of(self, block: Block) {
        // SAFETY: the op is alive; after removal the caller-owned op is handed to the block.
        unsafe {
            mlirOperationRemoveFromParent(self.0);
            mlirBlockAppendOwnedOperation(block.0, self.0);
        }
    }
}

/// Creates, right before `anchor`, an op with one region holding one block whose arguments
/// have `block_argument_types` (located at the anchor); returns the op and that block.
pub fn create_region_op_before(
    anchor: Op,
    name: &str,
    operands: &[Val],
    result_types: &[MlirType],
    attributes: &[(&str, Attr)],
    block_argument_types: &[MlirType],
) -> (Op, Block) {
    // SAFETY: the block and region are created here and handed to the new op, which the
    // anchor's block then owns.
    unsafe {
        let location = mlirOperationGetLocation(anchor.0);
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
        mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(anchor.0), anchor.0, op.0);
        (op, Block(block))
    }
}
