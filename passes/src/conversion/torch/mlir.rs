//! The raw MLIR C API calls the torch conversion needs beyond `dit_dialect::ir`: opaque
//! (unregistered-dialect) types, parsing builtin attributes and types from text, verifying a
//! new op without reporting, and function types. What reads or changes one op, value or
//! attribute is a method of the `dit_dialect::ir` handles; the functions here that take a
//! handle only name those methods for the conversion. The unsafe code of the conversion is in
//! this file.

use dit_dialect::ir::{string_ref, Attr, Op, Val};
use melior::ir::{Type, TypeLike};
use mlir_sys::*;
use std::ffi::c_void;

fn str_of(s: MlirStringRef) -> String {
    if s.data.is_null() {
        return String::new();
    }
    // SAFETY: MLIR string refs point at `length` valid bytes owned by the context.
    let bytes = unsafe { std::slice::from_raw_parts(s.data as *const u8, s.length) };
    String::from_utf8_lossy(bytes).into_owned()
}

/// The body of an opaque type of dialect `namespace` (`vtensor<[2],f32>` for
/// `!torch.vtensor<[2],f32>`), or `None` for any other type.
pub fn opaque_type_body(ty: MlirType, namespace: &str) -> Option<String> {
    // SAFETY: predicates and getters on a live, uniqued type.
    unsafe {
        if !mlirTypeIsAOpaque(ty) {
            return None;
        }
        (str_of(mlirOpaqueTypeGetDialectNamespace(ty)) == namespace)
            .then(|| str_of(mlirOpaqueTypeGetData(ty)))
    }
}

/// The dialect namespace of an opaque type (a type of an unregistered dialect).
pub fn opaque_type_namespace(ty: MlirType) -> Option<String> {
    // SAFETY: as above.
    unsafe { mlirTypeIsAOpaque(ty).then(|| str_of(mlirOpaqueTypeGetDialectNamespace(ty))) }
}

/// Discards the diagnostics MLIR emits while it lives (a handler attached last is asked
/// first; returning success stops the others from seeing the diagnostic). Used where a failure
/// is expected and handled: a tentative op that does not verify is rolled back, not reported.
pub struct Quiet {
    context: MlirContext,
    id: MlirDiagnosticHandlerID,
}

impl Quiet {
    /// Starts discarding the diagnostics of `context`.
    pub fn new(context: MlirContext) -> Self {
        unsafe extern "C" fn swallow(_: MlirDiagnostic, _: *mut c_void) -> MlirLogicalResult {
            MlirLogicalResult { value: 1 }
        }
        // SAFETY: the handler keeps no state; it is detached in `drop`, before the context
        // goes (the conversion holds a live op of it).
        let id = unsafe {
            mlirContextAttachDiagnosticHandler(context, Some(swallow), std::ptr::null_mut(), None)
        };
        Self { context, id }
    }
}

impl Drop for Quiet {
    fn drop(&mut self) {
        // SAFETY: the handler was attached to this live context in `new`.
        unsafe { mlirContextDetachDiagnosticHandler(self.context, self.id) }
    }
}

/// Parses a builtin type from text (`tensor<2x?xbf16>`, `complex<f32>`); `None` if MLIR
/// rejects it (its diagnostic is discarded).
pub fn parse_type(context: MlirContext, text: &str) -> Option<MlirType> {
    let _quiet = Quiet::new(context);
    // SAFETY: the text outlives the call; the result is null on failure.
    let ty = unsafe { mlirTypeParseGet(context, string_ref(text)) };
    (!ty.ptr.is_null()).then_some(ty)
}

/// Parses a builtin attribute from text (`dense<1.5> : tensor<bf16>`); `None` if MLIR rejects
/// it (its diagnostic is discarded).
pub fn parse_attr<'a>(context: MlirContext, text: &str) -> Option<Attr<'a>> {
    let _quiet = Quiet::new(context);
    // SAFETY: as above. A non-null result is live for the handle's lifetime.
    unsafe {
        let attr = mlirAttributeParseGet(context, string_ref(text));
        (!attr.ptr.is_null()).then(|| Attr::from_raw(attr))
    }
}

/// `tensor<dims x element>` in the context of `like`, the element type given as text from the
/// dtype table of `types.rs` (only those spellings).
pub fn ranked_tensor(like: MlirType, dims: &[Option<i64>], element: &str) -> Option<MlirType> {
    // SAFETY: the type is alive; its context outlives the call.
    let context = unsafe { mlirTypeGetContext(like) };
    let element = parse_type(context, element)?;
    Some(tensor_of(dims, element))
}

/// The context a type lives in.
pub fn type_context(ty: MlirType) -> MlirContext {
    // SAFETY: the type is alive; its context outlives it.
    unsafe { mlirTypeGetContext(ty) }
}

/// A ranked tensor type of `dims` (`None` = dynamic) and `element`.
pub fn tensor_of(dims: &[Option<i64>], element: MlirType) -> MlirType {
    let raw: Vec<i64> = dims
        .iter()
        // SAFETY: a constant of MLIR.
        .map(|d| d.unwrap_or_else(|| unsafe { mlirShapedTypeGetDynamicSize() }))
        .collect();
    // SAFETY: the element type is alive; builtin types are uniqued in its context.
    unsafe {
        mlirRankedTensorTypeGet(
            raw.len() as isize,
            raw.as_ptr(),
            element,
            MlirAttribute {
                ptr: std::ptr::null(),
            },
        )
    }
}

/// The element type of a shaped type.
pub fn element_type(ty: MlirType) -> Option<MlirType> {
    // SAFETY: predicates and getters on a live type.
    unsafe { mlirTypeIsAShaped(ty).then(|| mlirShapedTypeGetElementType(ty)) }
}

/// The signless integer type of `bits` bits.
pub fn integer_type(context: MlirContext, bits: u32) -> MlirType {
    // SAFETY: builtin types are uniqued in the live context.
    unsafe { mlirIntegerTypeGet(context, bits) }
}

/// Whether two types are the same (types are uniqued).
pub fn same_type(a: MlirType, b: MlirType) -> bool {
    // SAFETY: comparing handles.
    unsafe { mlirTypeEqual(a, b) }
}

/// The raw type of a value.
pub fn type_of(v: Val) -> MlirType {
    v.ty().to_raw()
}

/// The element type and shape of a ranked tensor type.
pub fn tensor_info(ty: MlirType) -> Option<dit_dialect::tensor::TensorInfo> {
    // SAFETY: the type is alive for the call.
    dit_dialect::tensor::TensorInfo::of(unsafe { Type::from_raw(ty) })
}

/// MLIR's text of a type.
pub fn type_text(ty: MlirType) -> String {
    // SAFETY: the type is alive for the call.
    unsafe { Type::from_raw(ty) }.to_string()
}

/// Gives a value (op result or block argument) a new type, in place (its users are re-typed
/// by the caller before the IR is verified again).
pub fn set_type(v: Val, ty: MlirType) {
    v.set_raw_type(ty)
}

/// Verifies one op with MLIR's own verifier (the IRDL constraints of dit ops included)
/// without reporting: the caller rolls the op back when it does not verify.
pub fn verifies_quietly(op: Op) -> bool {
    let _quiet = Quiet::new(op.context_raw());
    // SAFETY: the op is alive.
    unsafe { mlirOperationVerify(op.raw()) }
}

/// Removes attribute `name` from an op (no-op when absent).
pub fn remove_attr(op: Op, name: &str) {
    op.remove_attr(name);
}

/// The inputs and results of a `function_type` attribute.
pub fn function_signature(attr: Attr) -> Option<(Vec<MlirType>, Vec<MlirType>)> {
    attr.function_signature()
}

/// A `function_type` attribute of `inputs -> results`.
pub fn function_type_attr<'a>(
    context: MlirContext,
    inputs: &[MlirType],
    results: &[MlirType],
) -> Attr<'a> {
    // SAFETY: the types are alive; MLIR copies the lists.
    unsafe {
        Attr::from_raw(mlirTypeAttrGet(mlirFunctionTypeGet(
            context,
            inputs.len() as isize,
            inputs.as_ptr(),
            results.len() as isize,
            results.as_ptr(),
        )))
    }
}

/// The entries of a dictionary attribute, as (name, attribute).
pub fn dict_entries(attr: Attr) -> Option<Vec<(String, Attr)>> {
    attr.dict_entries()
}

/// A dictionary attribute of `entries`.
pub fn dict_attr<'a>(context: MlirContext, entries: &[(&str, Attr<'a>)]) -> Attr<'a> {
    let named = dit_dialect::ir::named_attributes(context, entries);
    // SAFETY: MLIR copies the entries.
    unsafe {
        Attr::from_raw(mlirDictionaryAttrGet(
            context,
            named.len() as isize,
            named.as_ptr(),
        ))
    }
}

/// An array attribute of `elements`.
pub fn array_attr<'a>(context: MlirContext, elements: &[Attr<'a>]) -> Attr<'a> {
    let raw: Vec<MlirAttribute> = elements.iter().map(|a| a.raw()).collect();
    // SAFETY: MLIR copies the elements.
    unsafe { Attr::from_raw(mlirArrayAttrGet(context, raw.len() as isize, raw.as_ptr())) }
}

/// A unit attribute (how a `None` argument is recorded).
pub fn unit_attr<'a>(context: MlirContext) -> Attr<'a> {
    // SAFETY: uniqued in the live context.
    unsafe { Attr::from_raw(mlirUnitAttrGet(context)) }
}

/// An f64 float attribute.
pub fn f64_attr<'a>(context: MlirContext, value: f64) -> Attr<'a> {
    // SAFETY: as above.
    unsafe {
        Attr::from_raw(mlirFloatAttrDoubleGet(
            context,
            mlirF64TypeGet(context),
            value,
        ))
    }
}

/// The type of a typed attribute (the tensor type of a dense elements attribute).
pub fn attr_type(attr: Attr) -> MlirType {
    attr.raw_type()
}

/// Whether the attribute is a dense resource (`dense_resource<blob>`): its bytes cannot be
/// read back through the C API.
pub fn is_dense_resource(attr: Attr) -> bool {
    attr.is_dense_resource()
}

/// The same elements as `attr` (a dense elements attribute of an integer type) with the
/// element type of `ty` (an integer type of the same width): `si64` data as `i64`.
pub fn retype_dense_int<'a>(
    attr: Attr<'a>,
    ty: MlirType,
    element_bytes: usize,
) -> Option<Attr<'a>> {
    let (bytes, _splat) = attr.dense_bytes(element_bytes)?;
    // SAFETY: the buffer holds one element (splat) or all of them, as MLIR stored them; MLIR
    // copies it and detects the splat form itself. The new attribute is uniqued in the context
    // of `attr` (`ty` is of it), so it lives as long.
    unsafe {
        let out =
            mlirDenseElementsAttrRawBufferGet(ty, bytes.len(), bytes.as_ptr() as *const c_void);
        (!out.ptr.is_null()).then(|| Attr::from_raw(out))
    }
}

/// Whether a type is a signless or signed integer type of `width` bits (`si64` / `i64`).
pub fn integer_width(ty: MlirType) -> Option<u32> {
    // SAFETY: predicates and getters on a live type.
    unsafe { mlirTypeIsAInteger(ty).then(|| mlirIntegerTypeGetWidth(ty)) }
}
