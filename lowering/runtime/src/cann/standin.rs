//! The compute callback of the stand-in CANN (tests/standin, `dit_standin_set_compute` in its
//! opapi.c): phase two of an aclnn operator hands the arguments its phase one recorded to
//! [`compute`], which maps the call back to a dit op through the kernel table and runs dit's own
//! CPU reference (`crate::cpu::execute`), reading operands from and writing results into the
//! stand-in's "device" memory (host memory) through each aclTensor's dims, strides and offset.
//!
//! So values on the stand-in are dit's CPU reference, not CANN's: comparing a model run on the
//! stand-in with the CPU backend checks the data path (which argument carries which operand,
//! views and strides, device residency, uploads and downloads, generated-kernel launches),
//! never CANN's numerics. Real CANN has no `dit_standin_set_compute`, so this never runs there.
//!
//! Reverse mapping: the entries whose one call is the symbol are tried in table order (a
//! multi-call entry's calls each have a one-call entry of their own, e.g. aclnnSilu and
//! aclnnMul for dit.silu_mul). An entry fits when every constant argument it passes was passed
//! (alpha = 1 picks dit.add, any other alpha dit.muls_add); its attribute-carrying arguments
//! and `when` conditions give the attributes; operands are the recorded tensors as aclnn sees
//! them, with a TransposeLast2 undone (dit.linear takes weight as [N, K]) and a
//! TransposeLast2If taken as the untransposed operand with the flag false.

use std::{
    cell::RefCell,
    ffi::{c_char, c_void, CStr},
};

use crate::{
    attrs::{AttrValue, Attrs},
    context::{bytes_for, copy_elements, Layout},
    kernels::{Arg, Body, Cond, Flag, Int, Ints, KernelSpec, List, Num, Text, View, KERNELS},
    DType, Tensor, TensorType,
};

/// `dit_standin_compute_fn` of tests/standin/standin.h.
pub type ComputeFn = unsafe extern "C" fn(*const c_char, *const StandinArg, u64) -> i32;

/// `struct aclTensor` of tests/standin/standin.h (the stand-in's own object layout).
#[repr(C)]
pub struct StandinTensor {
    magic: u32,
    dtype: i32,
    format: i32,
    offset: i64,
    ndim: u64,
    dims: [i64; 8],
    strides: [i64; 8],
    nstorage: u64,
    storage: [i64; 8],
    data: *mut c_void,
}

/// `dit_standin_arg` of tests/standin/standin.h.
#[repr(C)]
pub struct StandinArg {
    kind: i32,
    dtype: i32,
    i: i64,
    d: f64,
    s: *const c_char,
    n: u64,
    tensor: *const StandinTensor,
    items: *const *const StandinTensor,
    ints: *const i64,
}

const ARG_NULL: i32 = 0;
const ARG_TENSOR: i32 = 1;
const ARG_LIST: i32 = 2;
const ARG_SCALAR: i32 = 3;
const ARG_INTS: i32 = 4;
const ARG_INT: i32 = 5;
const ARG_BOOL: i32 = 6;
const ARG_DOUBLE: i32 = 7;
const ARG_DTYPE: i32 = 8;
const ARG_STR: i32 = 9;

thread_local! {
    /// Why the last compute failed, for the backend's error message.
    static LAST_ERROR: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// The message of the last failed compute on this thread, taken.
pub fn take_error() -> Option<String> {
    LAST_ERROR.with(|e| e.borrow_mut().take())
}

/// The callback: 0 when the call was computed, 1 (with [`take_error`] saying why) when not.
///
/// # Safety
/// `symbol` is a NUL-terminated string and `args` holds `n` recorded arguments whose objects
/// are alive for the call, as the stand-in's phase two guarantees.
pub unsafe extern "C" fn compute(symbol: *const c_char, args: *const StandinArg, n: u64) -> i32 {
    let result = std::panic::catch_unwind(|| {
        // SAFETY: per the function contract.
        let symbol = unsafe { CStr::from_ptr(symbol) }
            .to_string_lossy()
            .into_owned();
        let args = if n == 0 {
            &[][..]
        } else {
            // SAFETY: `n` records at `args`, per the function contract.
            unsafe { std::slice::from_raw_parts(args, n as usize) }
        };
        run(&symbol, args)
    });
    let message = match result {
        Ok(Ok(())) => return 0,
        Ok(Err(m)) => m,
        Err(_) => "the CPU reference panicked".to_string(),
    };
    LAST_ERROR.with(|e| *e.borrow_mut() = Some(message));
    1
}

/// A recorded tensor: its element type, layout and storage bytes (host memory on the stand-in).
struct Recorded {
    dtype: DType,
    layout: Layout,
    data: *mut u8,
    bytes: usize,
}

/// # Safety
/// `t` is a live stand-in aclTensor.
unsafe fn recorded(t: *const StandinTensor) -> Result<Recorded, String> {
    // SAFETY: per the function contract.
    let t = unsafe { &*t };
    let dtype = DType::from_acl_code(t.dtype)
        .ok_or_else(|| format!("aclDataType {} is unknown", t.dtype))?;
    let rank = t.ndim as usize;
    let dims: Vec<usize> = t.dims[..rank].iter().map(|d| *d as usize).collect();
    let strides: Vec<usize> = t.strides[..rank].iter().map(|s| *s as usize).collect();
    let layout = Layout::strided(&dims, &strides, t.offset as usize);
    let end = layout.end().ok_or("a view past memory")?;
    let bytes = bytes_for(dtype, end).ok_or("a view past memory")?;
    Ok(Recorded {
        dtype,
        layout,
        data: t.data.cast(),
        bytes,
    })
}

impl Recorded {
    fn ty(&self) -> TensorType {
        TensorType::new(self.dtype, self.layout.dims.clone())
    }

    /// The elements as a contiguous tensor.
    fn read(&self) -> Tensor {
        let mut out = Tensor::zeros(self.ty());
        // SAFETY: the stand-in checked that the view lies inside the tensor's allocation
        // (aclCreateTensor), which is host memory alive for the call.
        let src = unsafe { std::slice::from_raw_parts(self.data, self.bytes) };
        let dst_layout = Layout::contiguous(&self.layout.dims);
        copy_elements(self.dtype, src, &self.layout, &mut out.data, &dst_layout);
        out
    }

    fn write(&self, t: &Tensor) {
        // SAFETY: as in `read`; the backend made result views one-to-one and nothing else
        // reads this memory during the call.
        let dst = unsafe { std::slice::from_raw_parts_mut(self.data, self.bytes) };
        let src_layout = Layout::contiguous(&t.shape);
        copy_elements(self.dtype, &t.data, &src_layout, dst, &self.layout);
    }
}

/// A dit op rebuilt from one aclnn call.
struct Rebuilt {
    op: &'static str,
    attrs: Attrs,
    inputs: Vec<Option<Tensor>>,
    /// Result index → the recorded tensor it is written into.
    outputs: Vec<(usize, Recorded)>,
}

fn run(symbol: &str, args: &[StandinArg]) -> Result<(), String> {
    if symbol == "aclnnInplaceCopy" {
        // The stand-in copies by itself (opapi.c).
        return Ok(());
    }
    let mut tried = Vec::new();
    for spec in KERNELS {
        let Body::Aclnn([call]) = spec.body else {
            continue;
        };
        if call.symbol != symbol {
            continue;
        }
        // SAFETY: the records come from the stand-in's phase one, objects alive.
        match unsafe { rebuild(spec, call.args, args) } {
            Ok(r) => return execute(r),
            Err(why) => tried.push(format!("{}: {why}", spec.op)),
        }
    }
    if tried.is_empty() {
        return Err(format!("no one-call kernel-table entry runs {symbol}"));
    }
    Err(format!("{symbol} fits no entry ({})", tried.join("; ")))
}

fn execute(r: Rebuilt) -> Result<(), String> {
    let mut types: Vec<Option<TensorType>> = Vec::new();
    for (i, t) in &r.outputs {
        if types.len() <= *i {
            types.resize(i + 1, None);
        }
        types[*i] = Some(t.ty());
    }
    let types: Vec<TensorType> = types
        .into_iter()
        .enumerate()
        .map(|(i, t)| t.ok_or(format!("result {i} has no tensor")))
        .collect::<Result<_, _>>()?;
    let refs: Vec<Option<&Tensor>> = r.inputs.iter().map(Option::as_ref).collect();
    let results =
        crate::cpu::execute(r.op, &r.attrs, &refs, &types).map_err(|e| format!("{}: {e}", r.op))?;
    for (i, t) in &r.outputs {
        let got = results
            .get(*i)
            .ok_or_else(|| format!("{}: no result {i}", r.op))?;
        if got.ty() != t.ty() {
            return Err(format!("{}: result {i} has another type", r.op));
        }
        t.write(got);
    }
    Ok(())
}

fn set_slot(inputs: &mut Vec<Option<Tensor>>, slot: usize, t: Tensor) {
    if inputs.len() <= slot {
        inputs.resize(slot + 1, None);
    }
    inputs[slot] = Some(t);
}

/// The last two dims of `t` swapped (undoing a TransposeLast2 view).
fn transpose_last2(t: Tensor) -> Result<Tensor, String> {
    let n = t.shape.len();
    if n < 2 {
        return Err("a transposed operand of rank < 2".into());
    }
    let mut strides = crate::context::row_major_strides(&t.shape);
    let mut dims = t.shape.clone();
    dims.swap(n - 1, n - 2);
    strides.swap(n - 1, n - 2);
    let layout = Layout::strided(&dims, &strides, 0);
    let mut out = Tensor::zeros(TensorType::new(t.dtype, dims.clone()));
    copy_elements(
        t.dtype,
        &t.data,
        &layout,
        &mut out.data,
        &Layout::contiguous(&dims),
    );
    Ok(out)
}

/// The dit op of `spec` from the recorded `args` of its one call, or why it does not fit.
///
/// # Safety
/// Every tensor, list and string pointer in `args` is alive.
unsafe fn rebuild(
    spec: &'static KernelSpec,
    table: &[Arg],
    args: &[StandinArg],
) -> Result<Rebuilt, String> {
    if table.len() != args.len() {
        return Err(format!("{} arguments for {}", args.len(), table.len()));
    }
    if !spec.zero_results.is_empty() {
        return Err("results no call writes have no recorded type".into());
    }
    let mut r = Rebuilt {
        op: spec.op.name(),
        attrs: Attrs::new(),
        inputs: Vec::new(),
        outputs: Vec::new(),
    };
    let set = |attrs: &mut Attrs, name: &str, v: AttrValue| -> Result<(), String> {
        match attrs.get(name) {
            Some(old) if *old != v => Err(format!("attribute {name} recorded twice, differently")),
            _ => {
                attrs.insert(name.to_string(), v);
                Ok(())
            }
        }
    };
    let tensor = |a: &StandinArg| -> Result<Recorded, String> {
        if a.kind != ARG_TENSOR {
            return Err("a tensor argument was not recorded as one".into());
        }
        // SAFETY: a live tensor, per the function contract.
        unsafe { recorded(a.tensor) }
    };
    let items = |a: &StandinArg| -> Result<Vec<Recorded>, String> {
        if a.kind != ARG_LIST {
            return Err("a tensor-list argument was not recorded as one".into());
        }
        (0..a.n as usize)
            // SAFETY: `n` live tensors at `items`, per the function contract.
            .map(|i| unsafe { recorded(*a.items.add(i)) })
            .collect()
    };
    for (arg, a) in table.iter().zip(args) {
        match *arg {
            Arg::Input(slot, view) | Arg::OptionalInput(slot, view) => {
                if a.kind == ARG_NULL {
                    if matches!(arg, Arg::Input(..)) {
                        return Err(format!("operand {slot} is NULL"));
                    }
                    continue;
                }
                let t = tensor(a)?.read();
                let t = match view {
                    View::Plain | View::Flatten2d => t,
                    View::TransposeLast2 => transpose_last2(t)?,
                    View::TransposeLast2If(name) => {
                        set(&mut r.attrs, name, AttrValue::Bool(false))?;
                        t
                    }
                    // The NZ dims `[.., ⌈C/c0⌉, ⌈R/16⌉, 16, c0]` give the matrix up to its
                    // padding: rebuilt as `[.., R, C]` when R and C are whole fractals (what
                    // dit's models use), else the padded shape, which the op's shape check
                    // then refuses: an error, never a silently cropped weight.
                    View::Nz => nz_logical(t)?,
                };
                set_slot(&mut r.inputs, slot, t);
            }
            Arg::Output(i, _) => r.outputs.push((i, tensor(a)?)),
            Arg::InOut { slot, result } => {
                let t = tensor(a)?;
                set_slot(&mut r.inputs, slot, t.read());
                r.outputs.push((result, t));
            }
            // An output the dit op does not return (rstdOut, kRopeOut, ...): left as it is.
            Arg::Temp(_) => {}
            // The optimized causal attenMask: no dit operand (the `when` condition gives
            // causal = true), but it must be exactly the documented matrix.
            Arg::CausalMask => {
                if a.kind == ARG_NULL {
                    return Err("the causal attenMask is NULL".into());
                }
                let t = tensor(a)?.read();
                let n = crate::kernels::CAUSAL_MASK_SIDE;
                if !matches!(t.dtype, DType::I1 | DType::I8)
                    || t.shape != [n, n]
                    || t.data != crate::kernels::causal_mask()
                {
                    return Err(format!(
                        "the causal attenMask is not the {n}x{n} 0/1 upper-triangle matrix \
                         sparseMode 2 documents (got {} {:?})",
                        t.dtype.mlir_name(),
                        t.shape
                    ));
                }
            }
            Arg::TensorList(list) => {
                let ts = if a.kind == ARG_NULL {
                    if matches!(list, List::OptionalInput(_)) {
                        continue;
                    }
                    return Err("a required tensor list is NULL".into());
                } else {
                    items(a)?
                };
                match list {
                    List::Inputs(from) => {
                        for (k, t) in ts.iter().enumerate() {
                            set_slot(&mut r.inputs, from + k, t.read());
                        }
                    }
                    List::Input(slot) | List::OptionalInput(slot) => {
                        let [t] = ts.as_slice() else {
                            return Err("a one-tensor list holds more".into());
                        };
                        set_slot(&mut r.inputs, slot, t.read());
                    }
                    List::Outputs => r.outputs.extend(ts.into_iter().enumerate()),
                    List::Output(i) => {
                        let mut ts = ts;
                        let t = ts
                            .pop()
                            .filter(|_| ts.is_empty())
                            .ok_or("a one-tensor list holds more")?;
                        r.outputs.push((i, t));
                    }
                }
            }
            Arg::Null(_) => {
                if a.kind != ARG_NULL {
                    return Err("an argument dit passes as NULL was not".into());
                }
            }
            Arg::Scalar(num) | Arg::Double(num) => {
                let want = if matches!(arg, Arg::Scalar(_)) {
                    ARG_SCALAR
                } else {
                    ARG_DOUBLE
                };
                if a.kind != want {
                    return Err("a number was not recorded as one".into());
                }
                match num {
                    Num::Const(v) if (a.d - v).abs() > 1e-6 * v.abs().max(1.0) => {
                        return Err(format!("constant {v} passed as {}", a.d));
                    }
                    Num::Const(_) => {}
                    Num::Attr(name) => set(&mut r.attrs, name, AttrValue::Float(a.d))?,
                }
            }
            Arg::IntArray(ints) => {
                let values: Vec<i64> = if a.kind == ARG_INTS && a.n > 0 {
                    // SAFETY: `n` values at `ints`, per the function contract.
                    unsafe { std::slice::from_raw_parts(a.ints, a.n as usize) }.to_vec()
                } else if a.kind == ARG_INTS {
                    Vec::new()
                } else {
                    return Err("an int array was not recorded as one".into());
                };
                if let Ints::Attr(name) = ints {
                    set(&mut r.attrs, name, AttrValue::Ints(values))?;
                }
            }
            Arg::Int64(int) => {
                if a.kind != ARG_INT {
                    return Err("an int64 was not recorded as one".into());
                }
                match int {
                    Int::Const(v) if v != a.i => {
                        return Err(format!("constant {v} passed as {}", a.i))
                    }
                    Int::Const(_) | Int::Heads { .. } => {}
                    Int::Attr(name) | Int::AttrOr(name, _) => {
                        set(&mut r.attrs, name, AttrValue::Int(a.i))?
                    }
                    Int::Enum { attr, codes, .. } => {
                        let (s, _) = codes
                            .iter()
                            .find(|(_, c)| *c == a.i)
                            .ok_or_else(|| format!("code {} of {attr} is not one dit uses", a.i))?;
                        set(&mut r.attrs, attr, AttrValue::Str((*s).to_string()))?;
                    }
                }
            }
            Arg::Int8(v) => {
                if a.kind != ARG_INT || a.i != i64::from(v) {
                    return Err(format!("int8 constant {v} passed as {}", a.i));
                }
            }
            Arg::Bool(flag) => {
                if a.kind != ARG_BOOL {
                    return Err("a bool was not recorded as one".into());
                }
                match flag {
                    Flag::Const(v) if v != (a.i != 0) => {
                        return Err(format!("constant {v} differs"))
                    }
                    Flag::Const(_) => {}
                    Flag::Attr(name) => set(&mut r.attrs, name, AttrValue::Bool(a.i != 0))?,
                }
            }
            Arg::DataType(_) => {
                if a.kind != ARG_DTYPE {
                    return Err("an aclDataType was not recorded as one".into());
                }
            }
            Arg::Str(text) => {
                if a.kind != ARG_STR {
                    return Err("a string was not recorded as one".into());
                }
                // SAFETY: a live NUL-terminated string, per the function contract.
                let s = unsafe { CStr::from_ptr(a.s) }
                    .to_string_lossy()
                    .into_owned();
                match text {
                    Text::Const(c) if c != s => return Err(format!("constant \"{c}\" differs")),
                    Text::Const(_) => {}
                    Text::Attr(name) | Text::AttrOr(name, _) => {
                        set(&mut r.attrs, name, AttrValue::Str(s))?
                    }
                }
            }
        }
    }
    // Trailing empty optional slots count too (the CPU reference checks the slot count).
    if r.inputs.len() < spec.slots.len() {
        r.inputs.resize(spec.slots.len(), None);
    }
    let present: Vec<bool> = r.inputs.iter().map(Option::is_some).collect();
    for cond in spec.when {
        match *cond {
            Cond::StrIs { attr, value, .. } => {
                set(&mut r.attrs, attr, AttrValue::Str(value.to_string()))?
            }
            Cond::IntIs { attr, value, .. } => set(&mut r.attrs, attr, AttrValue::Int(value))?,
            Cond::BoolIs { attr, value, .. } => set(&mut r.attrs, attr, AttrValue::Bool(value))?,
            Cond::IntIsNot { .. } | Cond::Present(_) | Cond::Absent(_) => {}
        }
    }
    // The entry is chosen per chip (FIA V2 / V5): it must be what some target selects.
    let selected = crate::contracts::SOCS.iter().any(|(target, _)| {
        crate::kernels::select_for_target(spec.op, &r.attrs, &present, target) == Some(spec)
    });
    if !selected {
        return Err("the rebuilt attributes and operands select another entry".into());
    }
    Ok(r)
}

/// The row-major tensor an NZ-described stand-in tensor holds (see the `View::Nz` case).
fn nz_logical(t: Tensor) -> Result<Tensor, String> {
    let n = t.shape.len();
    if n < 4 {
        return Err(format!(
            "an NZ tensor of rank {n}: FRACTAL_NZ has at least 4 dims"
        ));
    }
    let (c1, r1, c0) = (t.shape[n - 4], t.shape[n - 3], t.shape[n - 1]);
    let mut shape = t.shape[..n - 4].to_vec();
    shape.extend([r1 * t.shape[n - 2], c1 * c0]);
    let data = crate::nz::from_nz(t.dtype, &shape, &t.data);
    Ok(Tensor {
        dtype: t.dtype,
        shape,
        data,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_call_of_a_sequence_has_an_entry_of_its_own() {
        // The callback sees one aclnn call at a time; a multi-call entry is computed call by
        // call through the one-call entries of its symbols.
        for spec in KERNELS {
            let calls = spec.calls();
            if calls.len() < 2 {
                continue;
            }
            for call in calls {
                let single = KERNELS
                    .iter()
                    .any(|k| matches!(k.body, Body::Aclnn([c]) if c.symbol == call.symbol));
                assert!(single, "{}: {} has no one-call entry", spec.op, call.symbol);
            }
        }
    }
}
