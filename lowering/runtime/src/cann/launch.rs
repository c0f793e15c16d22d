//! One dit op on the device: aclTensor/aclTensorList/aclScalar/aclIntArray arguments built
//! from a kernel-table entry over device views, and the two phases of each aclnn call queued on
//! the stream. Nothing here synchronises or copies to or from the host: operands are already
//! on the device, results stay there, and the objects made for the call are kept (in
//! `Device::objects`) until the stream next synchronises.
//!
//! How a view reaches aclnn. aclCreateTensor (aclnn/acl_meta.h; CANN API reference
//! "aclCreateTensor") describes a tensor as view dims, strides and an offset (in elements) over
//! storage dims at one device address, so a slice, split or transpose of a buffer is passed as
//! the same buffer, without a copy, in two cases:
//! - a row-major contiguous view that starts at an offset (a slice of the outer dims): every
//!   kernel reads it like a fresh tensor;
//! - any strided view where the kernel table passes the operand through a `View` transform
//!   (TransposeLast2, TransposeLast2If: the matmul family, whose aclnn docs accept
//!   non-contiguous inputs — the table already relies on that for transposed weights).
//!
//! Any other non-contiguous operand, and every non-contiguous result, goes through an explicit
//! device-side copy (aclnnInplaceCopy, aclnn_copy.h) into or out of a contiguous temporary,
//! counted in `DeviceStats::device_copies`: many aclnn operators (the fused attention, RoPE and
//! grouped-matmul kernels among them) document "non-contiguous tensors are not supported".

use dit_ops::OpKind;
use std::ffi::{c_void, CString};

use super::device::{DevView, Device, DeviceBuf};
use super::ffi::{Api, Handle, ACL_FLOAT, ACL_FORMAT_ND, ACL_INT64};
use super::shim;
use crate::context::Layout;
use crate::kernels::{self, Arg, Body, Call, KernelSpec, List, Shapes, TempType, View};
use crate::{contract, Attrs, DType, RuntimeError, TensorType};

type Library = libloading::os::unix::Library;

/// How an aclTensor describes a device view.
struct Desc {
    dims: Vec<i64>,
    strides: Vec<i64>,
    offset: i64,
    storage: Vec<i64>,
    format: i32,
}

/// The description of `t` seen through `view`, or `None` when that needs a contiguous copy.
fn describe(
    t: &DevView,
    view: View,
    attrs: &Attrs,
    strided_ok: bool,
) -> Result<Option<Desc>, String> {
    if t.is_whole() {
        // As a fresh contiguous tensor: the table's own description (storage dims = dims, or
        // the FRACTAL_NZ dims of an NZ operand).
        let d = view.describe(&t.layout.dims, t.dtype.bits(), attrs)?;
        return Ok(Some(Desc {
            dims: d.dims,
            strides: d.strides,
            offset: 0,
            storage: d.storage,
            format: d.format,
        }));
    }
    let contiguous = t.layout.is_contiguous();
    if view == View::Nz || (!contiguous && !strided_ok) {
        return Ok(None);
    }
    let mut dims: Vec<i64> = t.layout.dims.iter().map(|d| *d as i64).collect();
    let mut strides: Vec<i64> = if contiguous {
        // Row-major strides, as View::apply gives them (the layout stores 0 for size-1 dims).
        kernels::contiguous_strides(&dims)
    } else {
        t.layout.strides.iter().map(|s| *s as i64).collect()
    };
    let transpose = match view {
        View::Plain => false,
        View::TransposeLast2 => true,
        View::TransposeLast2If(name) => match attrs.get(name) {
            Some(crate::AttrValue::Bool(b)) => *b,
            None => false,
            _ => return Err(format!("needs bool attribute '{name}'")),
        },
        View::Flatten2d => {
            let Some(merged) = flatten_2d(&dims, &strides) else {
                return Ok(None);
            };
            (dims, strides) = merged;
            false
        }
        View::Nz => return Ok(None),
    };
    if transpose {
        let n = dims.len();
        if n < 2 {
            return Err(format!("a {n}-d tensor has no last two dims to transpose"));
        }
        dims.swap(n - 1, n - 2);
        strides.swap(n - 1, n - 2);
    }
    Ok(Some(Desc {
        dims,
        strides,
        offset: t.layout.offset as i64,
        storage: vec![t.storage_elements() as i64],
        format: ACL_FORMAT_ND,
    }))
}

/// `[d0, .., dn-2, dn-1]` as `[d0·…·dn-2, dn-1]` when the leading dims step evenly (one row
/// stride); `None` when they do not and the view needs a copy.
fn flatten_2d(dims: &[i64], strides: &[i64]) -> Option<(Vec<i64>, Vec<i64>)> {
    let (&last, lead) = dims.split_last()?;
    let inner = strides[dims.len() - 1];
    let rows: i64 = lead.iter().product();
    // The row stride is that of the innermost leading dim of size > 1; every dim outside it
    // must step over exactly the dims inside.
    let live: Vec<(i64, i64)> = lead
        .iter()
        .zip(strides)
        .filter(|(d, _)| **d > 1)
        .map(|(d, s)| (*d, *s))
        .collect();
    let row_stride = live.last().map_or(last * inner.max(1), |(_, s)| *s);
    for w in live.windows(2) {
        if w[0].1 != w[1].1 * w[1].0 {
            return None;
        }
    }
    Some((vec![rows, last], vec![row_stride, inner]))
}

/// Whether the entry describes operand `slot` as a whole tensor in another format (NZ): then
/// only a whole contiguous buffer can be passed.
fn whole_only(spec: &KernelSpec, slot: usize) -> bool {
    spec.calls().iter().flat_map(|c| c.args).any(|a| match *a {
        Arg::Input(s, v) | Arg::OptionalInput(s, v) => s == slot && v == View::Nz,
        _ => false,
    })
}

/// Whether the entry passes operand `slot` through a transforming `View` somewhere: then the
/// kernel is one documented to take non-contiguous inputs (see the module doc).
fn takes_strided(spec: &KernelSpec, slot: usize) -> bool {
    spec.calls().iter().flat_map(|c| c.args).any(|a| match *a {
        Arg::Input(s, v) | Arg::OptionalInput(s, v) => {
            s == slot && matches!(v, View::TransposeLast2 | View::TransposeLast2If(_))
        }
        _ => false,
    })
}

/// Creates an aclTensor for `desc` at `ptr`; kept in `dev.objects` when `owned` (a tensor for
/// a list is owned by the list).
fn create_tensor(
    api: &Api,
    dev: &mut Device,
    dtype: DType,
    desc: &Desc,
    ptr: Handle,
    owned: bool,
) -> Result<Handle, String> {
    // SAFETY: the arrays hold the counts passed and live across the call (CANN copies them);
    // `ptr` is device memory holding the storage, kept alive until the stream synchronises.
    let t = unsafe {
        (api.create_tensor)(
            desc.dims.as_ptr(),
            desc.dims.len() as u64,
            dtype.acl_code(),
            desc.strides.as_ptr(),
            desc.offset,
            desc.format,
            desc.storage.as_ptr(),
            desc.storage.len() as u64,
            ptr,
        )
    };
    if t.is_null() {
        return Err(format!(
            "aclCreateTensor returned null for {:?} {}",
            desc.dims,
            dtype.mlir_name()
        ));
    }
    if owned {
        dev.objects.tensors.push(t);
    }
    Ok(t)
}

/// Queues `dst = src` on the device (same dtype and dims): aclnnInplaceCopy, which reads and
/// writes strided views. Counted as a device copy.
pub fn copy(
    api: &Api,
    opapi: &Library,
    dev: &mut Device,
    dst: &DevView,
    src: &DevView,
) -> Result<(), RuntimeError> {
    let what = "aclnnInplaceCopy";
    if dst.dtype != src.dtype || dst.layout.dims != src.layout.dims {
        return Err(RuntimeError::Backend(format!(
            "{what}: copying {:?} {} into {:?} {}",
            src.layout.dims,
            src.dtype.mlir_name(),
            dst.layout.dims,
            dst.dtype.mlir_name()
        )));
    }
    let raw = |t: &DevView| {
        let dims: Vec<i64> = t.layout.dims.iter().map(|d| *d as i64).collect();
        let strides = if t.layout.is_contiguous() {
            kernels::contiguous_strides(&dims)
        } else {
            t.layout.strides.iter().map(|s| *s as i64).collect()
        };
        Desc {
            dims,
            strides,
            offset: t.layout.offset as i64,
            storage: vec![t.storage_elements() as i64],
            format: ACL_FORMAT_ND,
        }
    };
    let at = |m: String| RuntimeError::Backend(format!("{what}: {m}"));
    let d = create_tensor(api, dev, dst.dtype, &raw(dst), dst.ptr, true).map_err(at)?;
    let s = create_tensor(api, dev, src.dtype, &raw(src), src.ptr, true).map_err(at)?;
    run_phases(
        api,
        opapi,
        dev,
        "runtime copy",
        what,
        &[],
        &[d as u64, s as u64],
    )?;
    dev.stats.device_copies += 1;
    Ok(())
}

/// A contiguous device copy of `t` (when a kernel cannot take it as it is).
fn contiguous_copy(
    api: &Api,
    opapi: &Library,
    dev: &mut Device,
    t: &DevView,
) -> Result<(DeviceBuf, DevView), RuntimeError> {
    let bytes = t.dtype.storage_bytes(t.layout.numel().unwrap_or(0));
    let buf = dev.alloc(api, bytes)?;
    let view = DevView::contiguous(&buf, t.dtype, &t.layout.dims);
    copy(api, opapi, dev, &view, t)?;
    Ok((buf, view))
}

/// Runs `op` with the entry the table selects, on device operands (`None` = empty optional
/// slot) into device results, queued on the stream.
pub fn launch(
    api: &Api,
    opapi: &Library,
    dev: &mut Device,
    op: &str,
    attrs: &Attrs,
    inputs: &[Option<DevView>],
    outputs: &[DevView],
) -> Result<(), RuntimeError> {
    let in_types: Vec<Option<TensorType>> = inputs
        .iter()
        .map(|t| {
            t.as_ref()
                .map(|t| TensorType::new(t.dtype, t.layout.dims.clone()))
        })
        .collect();
    let results: Vec<TensorType> = outputs
        .iter()
        .map(|t| TensorType::new(t.dtype, t.layout.dims.clone()))
        .collect();
    let spec = select(api, op, attrs, &in_types)?;
    let calls = match spec.body {
        Body::View => {
            // reshape / bitcast: the lowering makes these handle views (dit_rt_reshape); a
            // launch of one is a copy of the bytes, done on the device.
            let (Some(Some(x)), [r]) = (inputs.first(), outputs) else {
                return Err(contract(op, "expects one operand and one result"));
            };
            let x = DevView {
                nz: false,
                dtype: r.dtype,
                layout: Layout::contiguous(&r.layout.dims),
                ..x.clone()
            };
            if !inputs[0].as_ref().is_some_and(DevView::is_whole) {
                return Err(contract(
                    op,
                    "a launched view takes a whole contiguous operand",
                ));
            }
            return copy(api, opapi, dev, r, &x);
        }
        Body::NoKernel => {
            return Err(RuntimeError::Backend(format!(
                "{op} has no aclnn kernel: {}",
                spec.note
            )))
        }
        Body::Aclnn(calls) => calls,
    };
    check_operands(spec, op, &in_types, &results)?;

    let shapes_in: Vec<Option<&[usize]>> = in_types
        .iter()
        .map(|t| t.as_ref().map(|t| t.shape.as_slice()))
        .collect();
    let shapes_out: Vec<&[usize]> = results.iter().map(|r| r.shape.as_slice()).collect();
    let shapes = Shapes {
        inputs: &shapes_in,
        results: &shapes_out,
    };

    // Temporaries live until the launch returns; their memory is freed after the stream
    // synchronises (the graveyard), so the queued kernels may still use it.
    let mut keep: Vec<DeviceBuf> = Vec::new();
    let mut ins: Vec<Option<DevView>> = Vec::with_capacity(inputs.len());
    for (slot, t) in inputs.iter().enumerate() {
        ins.push(match t {
            Some(t)
                if !t.is_whole()
                    && (whole_only(spec, slot)
                        || (!t.layout.is_contiguous() && !takes_strided(spec, slot))) =>
            {
                let (buf, view) = contiguous_copy(api, opapi, dev, t)?;
                keep.push(buf);
                Some(view)
            }
            other => other.clone(),
        });
    }
    // Results that aclnn cannot write in place get a contiguous temporary, copied into the
    // result view after the calls.
    let mut outs: Vec<DevView> = Vec::with_capacity(outputs.len());
    let mut copy_back: Vec<(usize, DevView)> = Vec::new();
    for (i, t) in outputs.iter().enumerate() {
        if t.layout.is_contiguous() {
            outs.push(t.clone());
        } else {
            let bytes = t.dtype.storage_bytes(t.layout.numel().unwrap_or(0));
            let buf = dev.alloc(api, bytes)?;
            outs.push(DevView::contiguous(&buf, t.dtype, &t.layout.dims));
            keep.push(buf);
            copy_back.push((i, t.clone()));
        }
    }
    // In-place ("Ref") results: the dit op is functional, so the operand is copied into the
    // result's memory and the kernel updates that.
    for call in calls {
        for arg in call.args {
            if let Arg::InOut { slot, result } = *arg {
                let missing = || contract(op, format!("operand {slot} is missing"));
                let src = ins.get(slot).cloned().flatten().ok_or_else(missing)?;
                let dst = outs
                    .get(result)
                    .cloned()
                    .ok_or_else(|| contract(op, format!("result {result} is missing")))?;
                if src.dtype != dst.dtype || src.layout.dims != dst.layout.dims {
                    let why = format!(
                        "result {result} is updated in operand {slot}, but their types differ"
                    );
                    return Err(contract(op, why));
                }
                copy(api, opapi, dev, &dst, &src)?;
            }
        }
    }
    for &i in spec.zero_results {
        let Some(t) = outs.get(i) else { continue };
        let start = t
            .contiguous_at_byte()
            .ok_or_else(|| contract(op, format!("result {i} does not start on a byte")))?;
        let bytes = t.dtype.storage_bytes(t.layout.numel().unwrap_or(0));
        // SAFETY: `start + bytes` lies inside the result's storage (a contiguous view of it).
        let ptr = unsafe { t.ptr.cast::<u8>().add(start) }.cast::<c_void>();
        dev.zero(api, ptr, bytes)?;
    }
    let mut temps = Vec::with_capacity(spec.temps.len());
    for temp in spec.temps {
        let shape = temp.shape.eval(&shapes).map_err(|m| contract(op, m))?;
        let dtype = match temp.dtype {
            TempType::F32 => DType::F32,
            TempType::LikeInput(slot) => {
                let missing = || contract(op, format!("operand {slot} is missing"));
                in_types
                    .get(slot)
                    .cloned()
                    .flatten()
                    .ok_or_else(missing)?
                    .dtype
            }
        };
        let buf = dev.alloc(api, dtype.storage_bytes(shape.iter().product()))?;
        temps.push(DevView::contiguous(&buf, dtype, &shape));
        keep.push(buf);
    }

    let ctx = Ctx {
        op,
        attrs,
        spec,
        results: &results,
        shapes,
        inputs: ins,
        outputs: outs,
        temps,
    };
    for call in calls {
        run_call(api, opapi, dev, &ctx, call)?;
    }
    for (i, dst) in &copy_back {
        copy(api, opapi, dev, dst, &ctx.outputs[*i])?;
    }
    drop(keep);
    Ok(())
}

/// The entry for `op`, or why there is none.
pub fn select(
    api: &Api,
    op: &str,
    attrs: &Attrs,
    inputs: &[Option<TensorType>],
) -> Result<&'static KernelSpec, RuntimeError> {
    let present: Vec<bool> = inputs.iter().map(Option::is_some).collect();
    let kind = OpKind::from_name(op).ok_or_else(|| RuntimeError::UnknownOp(op.to_string()))?;
    // The chip the runtime reports picks per-target entries (FIA V2 on A2/A3, V5 on 950).
    kernels::select_for_target(kind, attrs, &present, api.target()).ok_or_else(|| {
        if kernels::KERNELS.iter().any(|k| k.op == kind) {
            contract(op, "no aclnn kernel covers these attributes and operands")
        } else {
            RuntimeError::UnknownOp(op.to_string())
        }
    })
}

/// The operands and results of one launch, as the calls see them.
struct Ctx<'a> {
    op: &'a str,
    attrs: &'a Attrs,
    spec: &'static KernelSpec,
    results: &'a [TensorType],
    shapes: Shapes<'a>,
    inputs: Vec<Option<DevView>>,
    outputs: Vec<DevView>,
    temps: Vec<DevView>,
}

impl Ctx<'_> {
    fn input(&self, slot: usize) -> Result<&DevView, String> {
        self.inputs
            .get(slot)
            .and_then(Option::as_ref)
            .ok_or_else(|| format!("operand {slot} is missing"))
    }

    fn output(&self, i: usize) -> Result<&DevView, String> {
        self.outputs
            .get(i)
            .ok_or_else(|| format!("result {i} is missing"))
    }

    /// An aclTensor for `t` through `view` (owned unless it goes into a list).
    fn tensor(
        &self,
        api: &Api,
        dev: &mut Device,
        t: &DevView,
        view: View,
        strided_ok: bool,
        owned: bool,
    ) -> Result<Handle, String> {
        let desc = describe(t, view, self.attrs, strided_ok)?.ok_or_else(|| {
            // Inputs were made contiguous when the kernel cannot take them strided, so only
            // a view the table itself reshapes (Flatten2d of an uneven stride) gets here.
            format!(
                "a {:?} view with strides {:?} cannot be described {view:?}",
                t.layout.dims, t.layout.strides
            )
        })?;
        create_tensor(api, dev, t.dtype, &desc, t.ptr, owned)
    }
}

/// Operands and results fit the entry: no filled slot the kernel has no place for, every
/// required slot filled, and every result written by some call (or zero-filled by design).
pub fn check_operands(
    spec: &KernelSpec,
    op: &str,
    inputs: &[Option<TensorType>],
    results: &[TensorType],
) -> Result<(), RuntimeError> {
    let variadic = spec
        .calls()
        .iter()
        .flat_map(|c| c.args)
        .any(|a| matches!(a, Arg::TensorList(List::Inputs(_))));
    if !variadic && inputs.len() > spec.slots.len() {
        return Err(contract(
            op,
            format!("{} operands for {} slots", inputs.len(), spec.slots.len()),
        ));
    }
    let symbols: Vec<&str> = spec.calls().iter().map(|c| c.symbol).collect();
    for (slot, t) in inputs.iter().enumerate() {
        if t.is_some() && !spec.reads_slot(slot) {
            let name = spec.slots.get(slot).copied().unwrap_or("?");
            return Err(contract(
                op,
                format!(
                    "operand slot '{name}' is filled, but {} has no argument for it",
                    symbols.join(" + ")
                ),
            ));
        }
    }
    let mut written = vec![false; results.len()];
    for &i in spec.zero_results {
        if i >= results.len() {
            return Err(contract(
                op,
                format!("expects at least {} results, got {}", i + 1, results.len()),
            ));
        }
        written[i] = true;
    }
    for arg in spec.calls().iter().flat_map(|c| c.args) {
        let (required_slot, result) = match *arg {
            Arg::Input(s, _) | Arg::TensorList(List::Input(s)) => (Some(s), None),
            Arg::InOut { slot, result } => (Some(slot), Some(result)),
            Arg::Output(i, _) | Arg::TensorList(List::Output(i)) => (None, Some(i)),
            Arg::TensorList(List::Outputs) => {
                written.iter_mut().for_each(|w| *w = true);
                if results.is_empty() {
                    return Err(contract(op, "expects at least one result"));
                }
                (None, None)
            }
            _ => (None, None),
        };
        if let Some(s) = required_slot {
            if inputs.get(s).and_then(Option::as_ref).is_none() {
                let name = spec.slots.get(s).copied().unwrap_or("?");
                return Err(contract(op, format!("operand slot '{name}' is required")));
            }
        }
        if let Some(i) = result {
            if i >= results.len() {
                return Err(contract(
                    op,
                    format!("expects at least {} results, got {}", i + 1, results.len()),
                ));
            }
            written[i] = true;
        }
    }
    if let Some(i) = written.iter().position(|w| !w) {
        return Err(contract(
            op,
            format!(
                "{} results given, but no call writes result {i}",
                results.len()
            ),
        ));
    }
    Ok(())
}

/// Builds the arguments of `call` and queues its two phases.
fn run_call(
    api: &Api,
    opapi: &Library,
    dev: &mut Device,
    ctx: &Ctx,
    call: &Call,
) -> Result<(), RuntimeError> {
    let op = ctx.op;
    let at = |m: String| contract(op, format!("{}: {m}", call.symbol));
    let mut words: Vec<u64> = Vec::with_capacity(call.args.len() + 2);
    let mut doubles: Vec<f64> = Vec::new();
    for arg in call.args {
        let word: u64 = match *arg {
            Arg::Input(slot, view) => {
                let t = ctx.input(slot).map_err(at)?;
                let strided = takes_strided(ctx.spec, slot);
                ctx.tensor(api, dev, t, view, strided, true).map_err(at)? as u64
            }
            Arg::OptionalInput(slot, view) => match ctx.inputs.get(slot).and_then(Option::as_ref) {
                None => 0,
                Some(t) => {
                    let strided = takes_strided(ctx.spec, slot);
                    ctx.tensor(api, dev, t, view, strided, true).map_err(at)? as u64
                }
            },
            Arg::Output(i, view) => {
                let t = ctx.output(i).map_err(at)?;
                ctx.tensor(api, dev, t, view, false, true).map_err(at)? as u64
            }
            Arg::InOut { result, .. } => {
                let t = ctx.output(result).map_err(at)?;
                ctx.tensor(api, dev, t, View::Plain, false, true)
                    .map_err(at)? as u64
            }
            Arg::Temp(i) => {
                let t = &ctx.temps[i];
                ctx.tensor(api, dev, t, View::Plain, false, true)
                    .map_err(at)? as u64
            }
            Arg::CausalMask => {
                let mask = dev.causal_mask(api)?;
                ctx.tensor(api, dev, &mask, View::Plain, false, true)
                    .map_err(at)? as u64
            }
            Arg::TensorList(list) => tensor_list(api, dev, ctx, list).map_err(at)? as u64,
            Arg::Null(_) => 0,
            Arg::Scalar(num) => {
                let v = num.eval(ctx.attrs).map_err(at)?;
                let integer = ctx.results.first().is_some_and(|r| r.dtype.is_integer());
                scalar(api, dev, v, integer).map_err(at)? as u64
            }
            Arg::IntArray(ints) => {
                let values = ints.eval(ctx.attrs, &ctx.shapes).map_err(at)?;
                int_array(api, dev, &values).map_err(at)? as u64
            }
            Arg::Int64(int) => int.eval(ctx.attrs, &ctx.shapes).map_err(at)? as u64,
            // Sign-extended to 64 bits: see shim.rs on narrow integers.
            Arg::Int8(v) => v as i64 as u64,
            Arg::Bool(flag) => u64::from(flag.eval(ctx.attrs).map_err(at)?),
            Arg::Double(num) => {
                doubles.push(num.eval(ctx.attrs).map_err(at)?);
                continue;
            }
            Arg::DataType(i) => {
                let r = ctx
                    .results
                    .get(i)
                    .ok_or_else(|| at(format!("result {i} is missing")))?;
                r.dtype.acl_code() as i64 as u64
            }
            Arg::Str(text) => {
                let s = text.eval(ctx.attrs).map_err(at)?;
                let c =
                    CString::new(s).map_err(|_| at("string attribute holds a NUL byte".into()))?;
                let ptr = c.as_ptr() as u64;
                dev.objects.strings.push(c);
                ptr
            }
        };
        words.push(word);
    }
    run_phases(api, opapi, dev, op, call.symbol, &doubles, &words)
}

/// Phase one with `words` (then workspaceSize and executor) and `doubles`, the workspace, and
/// phase two queued on the stream.
fn run_phases(
    api: &Api,
    opapi: &Library,
    dev: &mut Device,
    op: &str,
    symbol: &str,
    doubles: &[f64],
    words: &[u64],
) -> Result<(), RuntimeError> {
    let mut workspace_size: u64 = 0;
    let mut executor: Handle = std::ptr::null_mut();
    let mut words = words.to_vec();
    words.push(&mut workspace_size as *mut u64 as u64);
    words.push(&mut executor as *mut Handle as u64);

    let first = format!("{symbol}GetWorkspaceSize");
    let phase_one = lookup(opapi, &first)?;
    let phase_two = lookup(opapi, symbol)?;
    // SAFETY: `phase_one` is `symbol`'s phase one, whose prototype the table (or, for the
    // runtime's own copy, aclnn_copy.h) records as these words and doubles in order; every
    // handle word is live, `workspace_size` and `executor` outlive the call.
    let status = unsafe { shim::call_phase_one(phase_one, doubles, &words) }
        .map_err(|m| RuntimeError::Backend(format!("{first}: {m}")))?;
    status_ok(api, op, &first, status)?;
    let workspace = dev.workspace(api, workspace_size as usize)?;
    dev.pending = true;
    dev.stats.aclnn_calls += 1;
    // SAFETY: `executor` came from this operator's phase one; `workspace` holds at least the
    // size it asked for and is not freed before the stream synchronises.
    let status =
        unsafe { shim::call_phase_two(phase_two, workspace, workspace_size, executor, dev.stream) };
    status_ok(api, op, symbol, status)
}

fn status_ok(api: &Api, op: &str, symbol: &str, status: i32) -> Result<(), RuntimeError> {
    if status == 0 {
        return Ok(());
    }
    let mut detail = api
        .recent_error()
        .map(|m| format!(": {m}"))
        .unwrap_or_default();
    if let Some(m) = super::standin::take_error() {
        detail.push_str(&format!(" (stand-in compute: {m})"));
    }
    Err(RuntimeError::Backend(format!(
        "{symbol} ({op}) returned aclnnStatus {status}{detail}"
    )))
}

fn scalar(api: &Api, dev: &mut Device, value: f64, integer: bool) -> Result<Handle, String> {
    let (bytes, dtype) = if integer {
        ((value as i64).to_ne_bytes(), ACL_INT64)
    } else {
        let mut b = [0u8; 8];
        b[..4].copy_from_slice(&(value as f32).to_ne_bytes());
        (b, ACL_FLOAT)
    };
    let mut boxed = Box::new(bytes);
    // SAFETY: `boxed` holds a value of `dtype` and lives until the stream synchronises.
    let s = unsafe { (api.create_scalar)(boxed.as_mut_ptr().cast::<c_void>(), dtype) };
    dev.objects.scalar_values.push(boxed);
    if s.is_null() {
        return Err("aclCreateScalar returned null".into());
    }
    dev.objects.scalars.push(s);
    Ok(s)
}

fn int_array(api: &Api, dev: &mut Device, values: &[i64]) -> Result<Handle, String> {
    // SAFETY: `values` holds values.len() integers; CANN copies them.
    let a = unsafe { (api.create_int_array)(values.as_ptr(), values.len() as u64) };
    if a.is_null() {
        return Err("aclCreateIntArray returned null".into());
    }
    dev.objects.int_arrays.push(a);
    Ok(a)
}

fn tensor_list(api: &Api, dev: &mut Device, ctx: &Ctx, list: List) -> Result<Handle, String> {
    let mut views: Vec<(&DevView, bool)> = Vec::new();
    match list {
        List::Inputs(from) => {
            for slot in from..ctx.inputs.len() {
                views.push((ctx.input(slot)?, takes_strided(ctx.spec, slot)));
            }
        }
        List::Input(slot) => views.push((ctx.input(slot)?, takes_strided(ctx.spec, slot))),
        List::OptionalInput(slot) => {
            if ctx.inputs.get(slot).and_then(Option::as_ref).is_none() {
                return Ok(std::ptr::null_mut());
            }
            views.push((ctx.input(slot)?, takes_strided(ctx.spec, slot)));
        }
        List::Outputs => {
            for i in 0..ctx.outputs.len() {
                views.push((ctx.output(i)?, false));
            }
        }
        List::Output(i) => views.push((ctx.output(i)?, false)),
    }
    // Tensors for a list are not owned on their own: destroying the list destroys them.
    let mut tensors = Vec::with_capacity(views.len());
    for (t, strided) in views {
        match ctx.tensor(api, dev, t, View::Plain, strided, false) {
            Ok(h) => tensors.push(h),
            Err(m) => {
                // Not in a list yet: destroy them as standalone tensors.
                dev.objects.tensors.extend(tensors);
                return Err(m);
            }
        }
    }
    // SAFETY: `tensors` holds live aclTensors; CANN copies the pointer array.
    let l = unsafe { (api.create_tensor_list)(tensors.as_ptr(), tensors.len() as u64) };
    if l.is_null() {
        // The tensors were not taken over: destroy them with the others.
        dev.objects.tensors.extend(tensors);
        return Err("aclCreateTensorList returned null".into());
    }
    dev.objects.lists.push(l);
    Ok(l)
}

fn lookup(opapi: &Library, name: &str) -> Result<*const c_void, RuntimeError> {
    // SAFETY: only the address is taken here; it is called through a shim of the recorded
    // prototype.
    unsafe { opapi.get::<*const c_void>(name.as_bytes()) }
        .map(|s| s.into_raw() as *const c_void)
        .map_err(|e| {
            RuntimeError::Backend(format!(
                "libopapi.so has no {name} (this CANN version does not ship the operator): {e}"
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flattens_only_evenly_stepping_leading_dims() {
        // [2, 3, 4] row-major: rows of 4.
        assert_eq!(
            flatten_2d(&[2, 3, 4], &[12, 4, 1]),
            Some((vec![6, 4], vec![4, 1]))
        );
        // A last-dim slice of a [2, 3, 8] buffer: rows of stride 8 still step evenly.
        assert_eq!(
            flatten_2d(&[2, 3, 4], &[24, 8, 1]),
            Some((vec![6, 4], vec![8, 1]))
        );
        // A middle-dim slice: dim 0 steps over 5 rows, not 3.
        assert_eq!(flatten_2d(&[2, 3, 4], &[20, 4, 1]), None);
        // Size-1 leading dims do not matter.
        assert_eq!(
            flatten_2d(&[1, 3, 4], &[0, 8, 1]),
            Some((vec![3, 4], vec![8, 1]))
        );
    }
}
