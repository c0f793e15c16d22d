//! One dit op on the device: device copies of the operands, aclTensor/aclTensorList/aclScalar/
//! aclIntArray arguments built from a kernel-table entry, the two phases of each aclnn call on
//! the stream, one synchronisation, the results copied back, and every CANN object destroyed
//! (also on error paths).

use std::ffi::{c_void, CString};

use super::ffi::{
    Api, Handle, ACL_FLOAT, ACL_FORMAT_ND, ACL_INT64, ACL_MEMCPY_DEVICE_TO_HOST,
    ACL_MEMCPY_HOST_TO_DEVICE, ACL_MEM_MALLOC_HUGE_FIRST,
};
use super::shim;
use crate::kernels::{self, Arg, Body, Call, KernelSpec, List, Shapes, TempType, View};
use crate::{contract, Attrs, DType, RuntimeError, Tensor, TensorType};

/// A device allocation.
#[derive(Clone, Copy)]
struct DevBuf {
    ptr: Handle,
    bytes: usize,
}

/// Everything a launch creates, destroyed in `release` (checked) or on drop (after an error).
struct Owned<'a> {
    api: &'a Api,
    // Set while kernels may still be running on this stream: memory they use must not be
    // freed before it synchronises (matters on error paths, after a phase two was enqueued).
    pending: Option<Handle>,
    device: Vec<Handle>,
    tensors: Vec<Handle>,
    lists: Vec<Handle>,
    scalars: Vec<Handle>,
    int_arrays: Vec<Handle>,
    // Host memory that created objects or phase one may still point at: kept until the end.
    strings: Vec<CString>,
    // Boxed so each value keeps its address while the vector grows.
    #[allow(clippy::vec_box)]
    scalar_values: Vec<Box<[u8; 8]>>,
}

impl<'a> Owned<'a> {
    fn new(api: &'a Api) -> Self {
        Owned {
            api,
            pending: None,
            device: Vec::new(),
            tensors: Vec::new(),
            lists: Vec::new(),
            scalars: Vec::new(),
            int_arrays: Vec::new(),
            strings: Vec::new(),
            scalar_values: Vec::new(),
        }
    }

    fn alloc(&mut self, bytes: usize) -> Result<DevBuf, RuntimeError> {
        let mut ptr: Handle = std::ptr::null_mut();
        // aclrtMalloc rejects size 0; an empty tensor still gets a valid address.
        let size = bytes.max(1);
        // SAFETY: aclrtMalloc(void **devPtr, size_t size, policy) writes one pointer.
        let code = unsafe { (self.api.malloc)(&mut ptr, size, ACL_MEM_MALLOC_HUGE_FIRST) };
        self.api.check(&format!("aclrtMalloc({size})"), code)?;
        self.device.push(ptr);
        Ok(DevBuf { ptr, bytes })
    }

    fn upload(&mut self, data: &[u8]) -> Result<DevBuf, RuntimeError> {
        let buf = self.alloc(data.len())?;
        if !data.is_empty() {
            // SAFETY: `buf` holds data.len() device bytes; `data` is a live host slice.
            let code = unsafe {
                (self.api.memcpy)(
                    buf.ptr,
                    buf.bytes,
                    data.as_ptr().cast(),
                    data.len(),
                    ACL_MEMCPY_HOST_TO_DEVICE,
                )
            };
            self.api.check("aclrtMemcpy host to device", code)?;
        }
        Ok(buf)
    }

    fn download(&self, buf: DevBuf) -> Result<Vec<u8>, RuntimeError> {
        let mut data = vec![0u8; buf.bytes];
        if buf.bytes > 0 {
            // SAFETY: `data` has buf.bytes bytes of host memory; `buf` that many device bytes.
            let code = unsafe {
                (self.api.memcpy)(
                    data.as_mut_ptr().cast(),
                    data.len(),
                    buf.ptr,
                    buf.bytes,
                    ACL_MEMCPY_DEVICE_TO_HOST,
                )
            };
            self.api.check("aclrtMemcpy device to host", code)?;
        }
        Ok(data)
    }

    /// An aclTensor over `buf`: `shape` is the contiguous storage, `view` how aclnn sees it.
    fn tensor(
        &mut self,
        dtype: DType,
        shape: &[usize],
        view: View,
        attrs: &Attrs,
        buf: DevBuf,
        owned: bool,
    ) -> Result<Handle, String> {
        let (dims, strides) = view.apply(shape, attrs)?;
        let storage: Vec<i64> = shape.iter().map(|d| *d as i64).collect();
        // SAFETY: the arrays hold the counts passed and live across the call (CANN copies
        // them); `buf` is device memory holding the whole contiguous storage.
        let t = unsafe {
            (self.api.create_tensor)(
                dims.as_ptr(),
                dims.len() as u64,
                dtype.acl_code(),
                strides.as_ptr(),
                0,
                ACL_FORMAT_ND,
                storage.as_ptr(),
                storage.len() as u64,
                buf.ptr,
            )
        };
        if t.is_null() {
            return Err(format!(
                "aclCreateTensor returned null for {dims:?} {}",
                dtype.mlir_name()
            ));
        }
        if owned {
            self.tensors.push(t);
        }
        Ok(t)
    }

    /// An aclTensorList of tensors it takes over (destroying the list destroys them).
    fn list(&mut self, tensors: Vec<Handle>) -> Result<Handle, String> {
        // SAFETY: `tensors` holds live aclTensors; CANN copies the pointer array.
        let l = unsafe { (self.api.create_tensor_list)(tensors.as_ptr(), tensors.len() as u64) };
        if l.is_null() {
            // The tensors were not taken over: destroy them with the others.
            self.tensors.extend(tensors);
            return Err("aclCreateTensorList returned null".into());
        }
        self.lists.push(l);
        Ok(l)
    }

    fn scalar(&mut self, value: f64, integer: bool) -> Result<Handle, String> {
        let (bytes, dtype) = if integer {
            ((value as i64).to_ne_bytes(), ACL_INT64)
        } else {
            let mut b = [0u8; 8];
            b[..4].copy_from_slice(&(value as f32).to_ne_bytes());
            (b, ACL_FLOAT)
        };
        let mut boxed = Box::new(bytes);
        // SAFETY: `boxed` holds a value of `dtype` and lives until release.
        let s = unsafe { (self.api.create_scalar)(boxed.as_mut_ptr().cast::<c_void>(), dtype) };
        self.scalar_values.push(boxed);
        if s.is_null() {
            return Err("aclCreateScalar returned null".into());
        }
        self.scalars.push(s);
        Ok(s)
    }

    fn int_array(&mut self, values: &[i64]) -> Result<Handle, String> {
        // SAFETY: `values` holds values.len() integers; CANN copies them.
        let a = unsafe { (self.api.create_int_array)(values.as_ptr(), values.len() as u64) };
        if a.is_null() {
            return Err("aclCreateIntArray returned null".into());
        }
        self.int_arrays.push(a);
        Ok(a)
    }

    /// Destroys everything, reporting the first failure (the drop that follows finds
    /// nothing left to do).
    fn release(mut self) -> Result<(), RuntimeError> {
        self.destroy_all()
    }

    fn destroy_all(&mut self) -> Result<(), RuntimeError> {
        let api = self.api;
        let mut first: Option<RuntimeError> = None;
        let mut note = |what: &str, code: i32| {
            if code != 0 && first.is_none() {
                first = Some(RuntimeError::Backend(format!(
                    "{what} failed with code {code}"
                )));
            }
        };
        if let Some(stream) = self.pending.take() {
            // SAFETY: the backend's live stream; waits for enqueued kernels before their
            // memory goes.
            note("aclrtSynchronizeStream", unsafe {
                (api.synchronize_stream)(stream)
            });
        }
        // Lists first: they own their tensors.
        for l in self.lists.drain(..) {
            // SAFETY: created by aclCreateTensorList, destroyed once.
            note("aclDestroyTensorList", unsafe {
                (api.destroy_tensor_list)(l)
            });
        }
        for t in self.tensors.drain(..) {
            // SAFETY: created by aclCreateTensor, in no list, destroyed once.
            note("aclDestroyTensor", unsafe { (api.destroy_tensor)(t) });
        }
        for s in self.scalars.drain(..) {
            // SAFETY: created by aclCreateScalar, destroyed once.
            note("aclDestroyScalar", unsafe { (api.destroy_scalar)(s) });
        }
        for a in self.int_arrays.drain(..) {
            // SAFETY: created by aclCreateIntArray, destroyed once.
            note("aclDestroyIntArray", unsafe { (api.destroy_int_array)(a) });
        }
        for p in self.device.drain(..) {
            // SAFETY: allocated by aclrtMalloc, freed once, after the stream synchronised (or
            // before anything was launched on it).
            note("aclrtFree", unsafe { (api.free)(p) });
        }
        first.map_or(Ok(()), Err)
    }
}

impl Drop for Owned<'_> {
    fn drop(&mut self) {
        // Error path: an error is already on its way to the caller; a failure to clean up
        // cannot be reported in addition.
        let _ = self.destroy_all();
    }
}

/// Where the results live on the device.
enum ResultBuf {
    Device(DevBuf),
    Zero,
}

/// Runs `op` with the entry the table selects. See `CannBackend::launch`.
pub fn launch(
    api: &Api,
    opapi: &libloading::os::unix::Library,
    stream: Handle,
    op: &str,
    attrs: &Attrs,
    inputs: &[Option<&Tensor>],
    results: &[TensorType],
) -> Result<Vec<Tensor>, RuntimeError> {
    let present: Vec<bool> = inputs.iter().map(Option::is_some).collect();
    let Some(spec) = kernels::select(op, attrs, &present) else {
        if kernels::KERNELS.iter().any(|k| k.op == op) {
            return Err(contract(
                op,
                "no aclnn kernel covers these attributes and operands",
            ));
        }
        return Err(RuntimeError::UnknownOp(op.to_string()));
    };
    for (slot, t) in inputs.iter().enumerate() {
        let Some(t) = t else { continue };
        let want = t.dtype.storage_bytes(t.shape.iter().product());
        if t.data.len() != want {
            return Err(contract(
                op,
                format!(
                    "operand {slot} has {} bytes, its type needs {want}",
                    t.data.len()
                ),
            ));
        }
    }
    let calls = match spec.body {
        Body::View => return view(op, inputs, results),
        Body::NoKernel => {
            return Err(RuntimeError::Backend(format!(
                "{op} has no aclnn kernel: {}",
                spec.note
            )))
        }
        Body::Aclnn(calls) => calls,
    };
    check_operands(spec, op, inputs, results)?;

    let shapes_in: Vec<Option<&[usize]>> = inputs
        .iter()
        .map(|t| t.map(|t| t.shape.as_slice()))
        .collect();
    let shapes_out: Vec<&[usize]> = results.iter().map(|r| r.shape.as_slice()).collect();
    let shapes = Shapes {
        inputs: &shapes_in,
        results: &shapes_out,
    };

    let mut owned = Owned::new(api);
    // Operands go to the device once, however many calls read them.
    let mut input_bufs: Vec<Option<DevBuf>> = Vec::with_capacity(inputs.len());
    for (slot, t) in inputs.iter().enumerate() {
        input_bufs.push(match t {
            Some(t) if spec.reads_slot(slot) => Some(owned.upload(&t.data)?),
            _ => None,
        });
    }
    let mut result_bufs = Vec::with_capacity(results.len());
    for (i, r) in results.iter().enumerate() {
        let in_place = spec
            .calls()
            .iter()
            .flat_map(|c| c.args)
            .find_map(|a| match *a {
                Arg::InOut { slot, result } if result == i => Some(slot),
                _ => None,
            });
        result_bufs.push(match in_place {
            Some(slot) => {
                let missing = || contract(op, format!("operand {slot} is missing"));
                let buf = input_bufs
                    .get(slot)
                    .copied()
                    .flatten()
                    .ok_or_else(missing)?;
                if buf.bytes != r.dtype.storage_bytes(r.numel()) {
                    let why =
                        format!("result {i} is updated in operand {slot}, but their sizes differ");
                    return Err(contract(op, why));
                }
                ResultBuf::Device(buf)
            }
            None if spec.zero_results.contains(&i) => ResultBuf::Zero,
            None => ResultBuf::Device(owned.alloc(r.dtype.storage_bytes(r.numel()))?),
        });
    }
    let mut temps = Vec::with_capacity(spec.temps.len());
    for temp in spec.temps {
        let shape = temp.shape.eval(&shapes).map_err(|m| contract(op, m))?;
        let dtype = match temp.dtype {
            TempType::F32 => DType::F32,
            TempType::LikeInput(slot) => {
                let missing = || contract(op, format!("operand {slot} is missing"));
                inputs
                    .get(slot)
                    .copied()
                    .flatten()
                    .ok_or_else(missing)?
                    .dtype
            }
        };
        let buf = owned.alloc(dtype.storage_bytes(shape.iter().product()))?;
        temps.push((TensorType { dtype, shape }, buf));
    }

    let ctx = Ctx {
        op,
        attrs,
        inputs,
        results,
        shapes,
        input_bufs,
        result_bufs,
        temps,
    };
    for call in calls {
        run_call(api, opapi, stream, &mut owned, &ctx, call)?;
    }
    // SAFETY: `stream` is the backend's live stream.
    let code = unsafe { (api.synchronize_stream)(stream) };
    owned.pending = None;
    api.check(&format!("aclrtSynchronizeStream after {op}"), code)?;

    let mut out = Vec::with_capacity(results.len());
    for (r, buf) in results.iter().zip(&ctx.result_bufs) {
        let bytes = r.dtype.storage_bytes(r.numel());
        let data = match buf {
            ResultBuf::Device(b) => owned.download(DevBuf { ptr: b.ptr, bytes })?,
            ResultBuf::Zero => vec![0u8; bytes],
        };
        out.push(Tensor {
            dtype: r.dtype,
            shape: r.shape.clone(),
            data,
        });
    }
    owned.release()?;
    Ok(out)
}

/// The operands and results of one launch, as the calls see them.
struct Ctx<'a> {
    op: &'a str,
    attrs: &'a Attrs,
    inputs: &'a [Option<&'a Tensor>],
    results: &'a [TensorType],
    shapes: Shapes<'a>,
    input_bufs: Vec<Option<DevBuf>>,
    result_bufs: Vec<ResultBuf>,
    temps: Vec<(TensorType, DevBuf)>,
}

impl Ctx<'_> {
    fn input(&self, slot: usize) -> Result<(&Tensor, DevBuf), String> {
        match (
            self.inputs.get(slot).copied().flatten(),
            self.input_bufs.get(slot).copied().flatten(),
        ) {
            (Some(t), Some(b)) => Ok((t, b)),
            _ => Err(format!("operand {slot} is missing")),
        }
    }

    fn result(&self, i: usize) -> Result<(&TensorType, DevBuf), String> {
        match (self.results.get(i), self.result_bufs.get(i)) {
            (Some(r), Some(ResultBuf::Device(b))) => Ok((r, *b)),
            _ => Err(format!("result {i} is missing")),
        }
    }
}

/// Operands and results fit the entry: no filled slot the kernel has no place for, every
/// required slot filled, and every result written by some call (or zero-filled by design).
fn check_operands(
    spec: &KernelSpec,
    op: &str,
    inputs: &[Option<&Tensor>],
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
            if inputs.get(s).copied().flatten().is_none() {
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

/// Builds the arguments of `call`, runs its two phases on `stream`.
fn run_call(
    api: &Api,
    opapi: &libloading::os::unix::Library,
    stream: Handle,
    owned: &mut Owned,
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
                let (t, buf) = ctx.input(slot).map_err(at)?;
                owned
                    .tensor(t.dtype, &t.shape, view, ctx.attrs, buf, true)
                    .map_err(at)? as u64
            }
            Arg::OptionalInput(slot, view) => match ctx.inputs.get(slot).copied().flatten() {
                None => 0,
                Some(_) => {
                    let (t, buf) = ctx.input(slot).map_err(at)?;
                    owned
                        .tensor(t.dtype, &t.shape, view, ctx.attrs, buf, true)
                        .map_err(at)? as u64
                }
            },
            Arg::Output(i, view) => {
                let (r, buf) = ctx.result(i).map_err(at)?;
                owned
                    .tensor(r.dtype, &r.shape, view, ctx.attrs, buf, true)
                    .map_err(at)? as u64
            }
            Arg::InOut { slot, .. } => {
                let (t, buf) = ctx.input(slot).map_err(at)?;
                owned
                    .tensor(t.dtype, &t.shape, View::Plain, ctx.attrs, buf, true)
                    .map_err(at)? as u64
            }
            Arg::Temp(i) => {
                let (ty, buf) = &ctx.temps[i];
                owned
                    .tensor(ty.dtype, &ty.shape, View::Plain, ctx.attrs, *buf, true)
                    .map_err(at)? as u64
            }
            Arg::TensorList(list) => tensor_list(owned, ctx, list).map_err(at)? as u64,
            Arg::Null(_) => 0,
            Arg::Scalar(num) => {
                let v = num.eval(ctx.attrs).map_err(at)?;
                let integer = ctx.results.first().is_some_and(|r| r.dtype.is_integer());
                owned.scalar(v, integer).map_err(at)? as u64
            }
            Arg::IntArray(ints) => {
                let values = ints.eval(ctx.attrs, &ctx.shapes).map_err(at)?;
                owned.int_array(&values).map_err(at)? as u64
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
                owned.strings.push(c);
                ptr
            }
        };
        words.push(word);
    }
    let mut workspace_size: u64 = 0;
    let mut executor: Handle = std::ptr::null_mut();
    words.push(&mut workspace_size as *mut u64 as u64);
    words.push(&mut executor as *mut Handle as u64);

    let first = call.workspace_symbol();
    let phase_one = lookup(opapi, &first)?;
    let phase_two = lookup(opapi, call.symbol)?;
    // SAFETY: `phase_one` is `call.symbol`'s phase one, whose prototype the table records as
    // these words and doubles in order; every handle word is live, `workspace_size` and
    // `executor` outlive the call.
    let status = unsafe { shim::call_phase_one(phase_one, &doubles, &words) }
        .map_err(|m| RuntimeError::Backend(format!("{first}: {m}")))?;
    status_ok(api, op, &first, status)?;
    let workspace = if workspace_size > 0 {
        owned.alloc(workspace_size as usize)?.ptr
    } else {
        std::ptr::null_mut()
    };
    owned.pending = Some(stream);
    // SAFETY: `executor` came from this operator's phase one; `workspace` holds the size it
    // asked for and stays allocated until after the stream synchronises.
    let status =
        unsafe { shim::call_phase_two(phase_two, workspace, workspace_size, executor, stream) };
    status_ok(api, op, call.symbol, status)
}

fn status_ok(api: &Api, op: &str, symbol: &str, status: i32) -> Result<(), RuntimeError> {
    if status == 0 {
        return Ok(());
    }
    let detail = api
        .recent_error()
        .map(|m| format!(": {m}"))
        .unwrap_or_default();
    Err(RuntimeError::Backend(format!(
        "{symbol} ({op}) returned aclnnStatus {status}{detail}"
    )))
}

fn tensor_list(owned: &mut Owned, ctx: &Ctx, list: List) -> Result<Handle, String> {
    let mut tensors = Vec::new();
    // Tensors for a list are not owned on their own: destroying the list destroys them.
    let mut add = |owned: &mut Owned, dtype: DType, shape: &[usize], buf: DevBuf| {
        owned
            .tensor(dtype, shape, View::Plain, ctx.attrs, buf, false)
            .map(|t| tensors.push(t))
    };
    let result = (|| {
        match list {
            List::Inputs(from) => {
                for slot in from..ctx.inputs.len() {
                    let (t, buf) = ctx.input(slot)?;
                    add(owned, t.dtype, &t.shape, buf)?;
                }
            }
            List::Input(slot) => {
                let (t, buf) = ctx.input(slot)?;
                add(owned, t.dtype, &t.shape, buf)?;
            }
            List::OptionalInput(slot) => {
                if ctx.inputs.get(slot).copied().flatten().is_none() {
                    return Ok(false);
                }
                let (t, buf) = ctx.input(slot)?;
                add(owned, t.dtype, &t.shape, buf)?;
            }
            List::Outputs => {
                for i in 0..ctx.results.len() {
                    let (r, buf) = ctx.result(i)?;
                    add(owned, r.dtype, &r.shape, buf)?;
                }
            }
            List::Output(i) => {
                let (r, buf) = ctx.result(i)?;
                add(owned, r.dtype, &r.shape, buf)?;
            }
        }
        Ok(true)
    })();
    match result {
        Ok(true) => owned.list(tensors),
        Ok(false) => Ok(std::ptr::null_mut()),
        Err(m) => {
            // Not in a list yet: destroy them as standalone tensors.
            owned.tensors.extend(tensors);
            Err(m)
        }
    }
}

fn lookup(
    opapi: &libloading::os::unix::Library,
    name: &str,
) -> Result<*const c_void, RuntimeError> {
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

/// reshape / bitcast: the operand's bytes under the result type.
fn view(
    op: &str,
    inputs: &[Option<&Tensor>],
    results: &[TensorType],
) -> Result<Vec<Tensor>, RuntimeError> {
    let (Some(Some(x)), [r]) = (inputs.first(), results) else {
        return Err(contract(op, "expects one operand and one result"));
    };
    if inputs.len() != 1 {
        return Err(contract(op, "expects one operand"));
    }
    let want = r.dtype.storage_bytes(r.numel());
    if x.data.len() != want {
        return Err(contract(
            op,
            format!("operand has {} bytes, the result type {want}", x.data.len()),
        ));
    }
    Ok(vec![Tensor {
        dtype: r.dtype,
        shape: r.shape.clone(),
        data: x.data.clone(),
    }])
}
