//! The C ABI that lowered code calls (declared in `include/dit_runtime.h`).
//!
//! Errors are sticky: the first failure records a message in the context, and from then on
//! every call does nothing. Calls that return a tensor handle then return a dummy handle (never
//! NULL) so that the lowered code's releases stay balanced and it needs no error check per call:
//! it checks `dit_rt_status` once at the end. No panic crosses the boundary: each entry point
//! runs under `catch_unwind`, and a panic becomes the recorded error.
//!
//! Tensor handles are handle numbers cast to pointers ([`Handle`]), never dereferenced: a stale
//! or foreign handle is an error, not a crash. Contexts are heap objects, and the addresses of
//! live ones are kept in a registry, so a destroyed or made-up context pointer is ignored rather
//! than dereferenced. A context and its tensors must be used from one thread at a time.

use std::{
    collections::HashSet,
    ffi::{c_char, c_void, CStr, CString},
    panic::{catch_unwind, AssertUnwindSafe},
    path::Path,
    sync::{Mutex, MutexGuard},
};

use crate::{
    context::{bytes_for, Context, Handle, Layout, MAX_RANK},
    DType, RuntimeError, TensorType,
};

/// A runtime context: a backend, its tensors, and the first error. Opaque to C.
#[allow(non_camel_case_types)]
pub struct dit_context {
    /// `None` only when creating the backend failed (then `error` says why).
    inner: Option<Context>,
    /// The first error, kept until the context is destroyed.
    error: Option<CString>,
}

/// A tensor handle as C sees it. Never dereferenced: the pointer's value is a [`Handle`].
#[allow(non_camel_case_types)]
pub enum dit_rt_tensor {}

/// A tensor in the caller's memory.
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct dit_tensor_desc {
    /// First element (element `(0, .., 0)`); may be NULL only for a tensor with no elements.
    pub data: *mut c_void,
    /// aclDataType code ([`DType::acl_code`]).
    pub dtype: i32,
    /// Number of dims, 0..=8.
    pub rank: i32,
    /// Dims, outermost first; entries past `rank` are ignored.
    pub dims: [i64; 8],
    /// Strides in elements (≥ 0; packed 4-bit types count nibbles); entries past `rank` are
    /// ignored, as are the strides of dims of size 0 or 1.
    pub strides: [i64; 8],
}

/// Addresses of the live contexts.
static LIVE: Mutex<Option<HashSet<usize>>> = Mutex::new(None);

fn live() -> MutexGuard<'static, Option<HashSet<usize>>> {
    // A panic while holding the lock cannot leave the set half-updated (insert and remove are
    // single calls), so a poisoned lock is still good.
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

fn is_live(ctx: *const dit_context) -> bool {
    live().as_ref().is_some_and(|s| s.contains(&(ctx as usize)))
}

/// Text of a panic payload.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

/// A C string for `message` (interior NULs, which C cannot show, become spaces).
fn c_message(message: &str) -> CString {
    CString::new(message.replace('\0', " ")).unwrap_or_default()
}

impl dit_context {
    fn record(&mut self, message: String) {
        if self.error.is_none() {
            self.error = Some(c_message(&message));
        }
    }
}

/// A handle for a call that failed or was skipped: never registered, so it is never live, and
/// its release is a no-op because the context is in the error state by then.
fn dummy() -> *mut dit_rt_tensor {
    Handle::fresh().get() as *mut dit_rt_tensor
}

fn to_ptr(h: Handle) -> *mut dit_rt_tensor {
    h.get() as *mut dit_rt_tensor
}

/// Runs `f` on the context unless it is NULL, not live, or already failed; a returned error or
/// a panic is recorded as the context's error, prefixed with `what()`. `fallback` gives the
/// result in every case where `f` does not. Everything runs under `catch_unwind`, the checks
/// too, so no panic reaches C.
fn with_ctx<R>(
    ctx: *mut dit_context,
    what: impl FnOnce() -> String,
    fallback: impl FnOnce() -> R,
    f: impl FnOnce(&mut Context) -> Result<R, RuntimeError>,
) -> R {
    // Unwind safety: after a panic the context only records it and does nothing more, so a
    // half-updated `Context` is never used again.
    let done = catch_unwind(AssertUnwindSafe(|| {
        if ctx.is_null() || !is_live(ctx) {
            return None;
        }
        // SAFETY: `ctx` is a live context from `dit_context_create` (checked in the registry)
        // and the caller uses a context from one thread at a time, so this is the only
        // reference.
        let c = unsafe { &mut *ctx };
        if c.error.is_some() {
            return None;
        }
        let inner = c.inner.as_mut()?;
        match catch_unwind(AssertUnwindSafe(|| f(inner))) {
            Ok(Ok(v)) => Some(v),
            Ok(Err(e)) => {
                c.record(format!("{}: {e}", what()));
                None
            }
            Err(p) => {
                c.record(format!("{}: panic: {}", what(), panic_message(p.as_ref())));
                None
            }
        }
    }));
    match done {
        Ok(Some(v)) => v,
        _ => fallback(),
    }
}

/// Reads a required C string argument.
///
/// # Safety
/// `p` is NULL or points to a NUL-terminated string.
unsafe fn c_str<'a>(p: *const c_char, name: &str) -> Result<&'a str, RuntimeError> {
    if p.is_null() {
        return Err(RuntimeError::Backend(format!("{name} is NULL")));
    }
    // SAFETY: non-null and NUL-terminated by the caller's contract.
    let s = unsafe { CStr::from_ptr(p) };
    s.to_str()
        .map_err(|_| RuntimeError::Backend(format!("{name} is not valid UTF-8")))
}

/// A C string argument for messages, before any validation.
///
/// # Safety
/// As [`c_str`].
unsafe fn c_str_lossy(p: *const c_char) -> String {
    if p.is_null() {
        return "NULL".to_string();
    }
    // SAFETY: as `c_str`.
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

fn bad(message: impl Into<String>) -> RuntimeError {
    RuntimeError::Backend(message.into())
}

fn dtype_of(code: i32) -> Result<DType, RuntimeError> {
    DType::from_acl_code(code).ok_or_else(|| bad(format!("unknown aclDataType code {code}")))
}

fn rank_of(rank: i32) -> Result<usize, RuntimeError> {
    usize::try_from(rank)
        .ok()
        .filter(|r| *r <= MAX_RANK)
        .ok_or_else(|| bad(format!("rank {rank} is not in 0..={MAX_RANK}")))
}

/// Dims from C (`i64`, each ≥ 0).
fn dims_of(dims: &[i64]) -> Result<Vec<usize>, RuntimeError> {
    dims.iter()
        .map(|d| usize::try_from(*d).map_err(|_| bad(format!("dims {dims:?} have a negative dim"))))
        .collect()
}

/// Strides from C (`i64`, each ≥ 0 unless its dim is 0 or 1, where it does not matter).
fn strides_of(dims: &[usize], strides: &[i64]) -> Result<Vec<usize>, RuntimeError> {
    dims.iter()
        .zip(strides)
        .map(|(d, s)| match usize::try_from(*s) {
            Ok(s) => Ok(s),
            Err(_) if *d <= 1 => Ok(0),
            Err(_) => Err(bad(format!("strides {strides:?} have a negative stride"))),
        })
        .collect()
}

/// Reads `rank` entries of a C array, which may be NULL when `rank` is 0.
///
/// # Safety
/// `p` is NULL or points to `rank` readable `i64`s.
unsafe fn i64_array<'a>(p: *const i64, rank: usize, name: &str) -> Result<&'a [i64], RuntimeError> {
    if rank == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(bad(format!("{name} is NULL for rank {rank}")));
    }
    // SAFETY: non-null and `rank` elements long by the caller's contract.
    Ok(unsafe { std::slice::from_raw_parts(p, rank) })
}

/// A tensor handle argument; NULL is an error.
fn handle_of(t: *const dit_rt_tensor, name: &str) -> Result<Handle, RuntimeError> {
    Handle::from_raw(t as usize).ok_or_else(|| bad(format!("{name} is NULL")))
}

/// The element type and layout of a caller descriptor, and how many bytes from `data` it
/// spans.
fn desc_layout(desc: &dit_tensor_desc) -> Result<(DType, Layout, usize), RuntimeError> {
    let dtype = dtype_of(desc.dtype)?;
    let rank = rank_of(desc.rank)?;
    let dims = dims_of(&desc.dims[..rank])?;
    let strides = strides_of(&dims, &desc.strides[..rank])?;
    let layout = Layout::strided(&dims, &strides, 0);
    let span = layout
        .end()
        .and_then(|end| bytes_for(dtype, end))
        .ok_or_else(|| {
            bad(format!(
                "dims {dims:?} with strides {strides:?} overflow memory"
            ))
        })?;
    if desc.data.is_null() && span > 0 {
        return Err(bad("data is NULL"));
    }
    Ok((dtype, layout, span))
}

/// Creates a context on backend `"cpu"` or `"cann"`. For `"cann"`, CANN is loaded from
/// `cann_dir` when it is not NULL, else from `$ASCEND_HOME_PATH`. Never returns NULL: when the
/// backend cannot be created the context is returned in the error state, and
/// [`dit_context_error`] says why.
///
/// # Safety
/// `backend` and `cann_dir` are NULL or NUL-terminated strings.
#[no_mangle]
pub unsafe extern "C" fn dit_context_create(
    backend: *const c_char,
    cann_dir: *const c_char,
) -> *mut dit_context {
    let made = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the caller passes NULL or NUL-terminated strings.
        let backend = unsafe { c_str(backend, "backend") }?;
        match backend {
            "cpu" => Ok(Context::cpu()),
            "cann" => {
                let dir = if cann_dir.is_null() {
                    None
                } else {
                    // SAFETY: as above.
                    Some(unsafe { c_str(cann_dir, "cann_dir") }?)
                };
                Context::cann(dir.map(Path::new)).map_err(|e| {
                    // Every failure to start CANN should point at where it is looked for.
                    let text = e.to_string();
                    if text.contains("ASCEND_HOME_PATH") {
                        e
                    } else {
                        bad(format!(
                            "{text} (CANN is loaded from cann_dir when given, else from \
                             $ASCEND_HOME_PATH)"
                        ))
                    }
                })
            }
            other => Err(bad(format!(
                "unknown backend '{other}': expected \"cpu\" or \"cann\""
            ))),
        }
    }));
    let ctx = match made {
        Ok(Ok(c)) => dit_context {
            inner: Some(c),
            error: None,
        },
        Ok(Err(e)) => dit_context {
            inner: None,
            error: Some(c_message(&format!("dit_context_create: {e}"))),
        },
        Err(p) => dit_context {
            inner: None,
            error: Some(c_message(&format!(
                "dit_context_create: panic: {}",
                panic_message(p.as_ref())
            ))),
        },
    };
    let p = Box::into_raw(Box::new(ctx));
    live().get_or_insert_with(HashSet::new).insert(p as usize);
    p
}

/// Destroys a context and every tensor still alive in it. NULL, or a context already
/// destroyed, is ignored.
///
/// # Safety
/// `ctx` is NULL or a pointer returned by [`dit_context_create`]; no call on it may run
/// concurrently.
#[no_mangle]
pub unsafe extern "C" fn dit_context_destroy(ctx: *mut dit_context) {
    let _ = catch_unwind(AssertUnwindSafe(|| {
        let removed = live().as_mut().is_some_and(|s| s.remove(&(ctx as usize)));
        if removed {
            // SAFETY: the registry held it, so it came from `Box::into_raw` in
            // `dit_context_create` and has not been freed; it is now out of the registry, so
            // this is the only free.
            drop(unsafe { Box::from_raw(ctx) });
        }
    }));
}

/// The first error of the context as a NUL-terminated message, or NULL while there is none.
/// The message stays valid until the context is destroyed. A NULL or destroyed context gives a
/// message saying so.
///
/// # Safety
/// `ctx` is NULL or a pointer returned by [`dit_context_create`].
#[no_mangle]
pub unsafe extern "C" fn dit_context_error(ctx: *const dit_context) -> *const c_char {
    let got = catch_unwind(AssertUnwindSafe(|| {
        if ctx.is_null() {
            return c"dit_context_error: ctx is NULL".as_ptr();
        }
        if !is_live(ctx) {
            return c"dit_context_error: ctx is not a live context (destroyed?)".as_ptr();
        }
        // SAFETY: a live context (registry); only read.
        let c = unsafe { &*ctx };
        c.error.as_ref().map_or(std::ptr::null(), |e| e.as_ptr())
    }));
    got.unwrap_or(c"dit_context_error: panic".as_ptr())
}

/// 0 while no error happened, 1 after one (and for a NULL or destroyed context). Waits for
/// every queued launch first (on CANN: the call's one stream synchronisation when no result was
/// read back), so that an error of a kernel still running is reported here.
///
/// # Safety
/// `ctx` is NULL or a pointer returned by [`dit_context_create`].
#[no_mangle]
pub unsafe extern "C" fn dit_rt_status(ctx: *mut dit_context) -> i32 {
    with_ctx(
        ctx,
        || "dit_rt_status".to_string(),
        || (),
        Context::synchronize,
    );
    // SAFETY: same contract.
    i32::from(!unsafe { dit_context_error(ctx) }.is_null())
}

/// A tensor holding a copy of the caller's tensor `desc` (read through its strides).
///
/// # Safety
/// `ctx` is NULL or from [`dit_context_create`]; `desc` is NULL or points to a descriptor whose
/// `data` covers every element its dims and strides reach.
#[no_mangle]
pub unsafe extern "C" fn dit_rt_wrap(
    ctx: *mut dit_context,
    desc: *const dit_tensor_desc,
) -> *mut dit_rt_tensor {
    with_ctx(
        ctx,
        || "dit_rt_wrap".to_string(),
        dummy,
        |c| {
            if desc.is_null() {
                return Err(bad("desc is NULL"));
            }
            // SAFETY: non-null, and a valid descriptor by the caller's contract.
            let desc = unsafe { &*desc };
            let (dtype, layout, span) = desc_layout(desc)?;
            let src: &[u8] = if span == 0 {
                &[]
            } else {
                // SAFETY: `data` is non-null (checked) and covers `span` bytes: the caller's
                // memory holds every element the dims and strides reach.
                unsafe { std::slice::from_raw_parts(desc.data as *const u8, span) }
            };
            Ok(to_ptr(c.wrap_strided(dtype, src, &layout)?))
        },
    )
}

/// A zero-filled contiguous tensor of `dtype` and `dims` (`rank` entries; may be NULL for rank
/// 0), to be filled by a launch.
///
/// # Safety
/// `ctx` is NULL or from [`dit_context_create`]; `dims` is NULL or holds `rank` entries.
#[no_mangle]
pub unsafe extern "C" fn dit_rt_alloc(
    ctx: *mut dit_context,
    dtype: i32,
    rank: i32,
    dims: *const i64,
) -> *mut dit_rt_tensor {
    with_ctx(
        ctx,
        || "dit_rt_alloc".to_string(),
        dummy,
        |c| {
            let dtype = dtype_of(dtype)?;
            let rank = rank_of(rank)?;
            // SAFETY: `rank` entries by the caller's contract.
            let dims = dims_of(unsafe { i64_array(dims, rank, "dims") }?)?;
            Ok(to_ptr(c.alloc(TensorType::new(dtype, dims))?))
        },
    )
}

/// A tensor of `nbytes` bytes at `bytes`: either the full contiguous storage of `dims`, or one
/// element's storage bytes repeated to every element (a splat). `bytes` may be NULL when
/// `nbytes` is 0.
///
/// # Safety
/// `ctx` is NULL or from [`dit_context_create`]; `dims` is NULL or holds `rank` entries;
/// `bytes` is NULL or holds `nbytes` bytes.
#[no_mangle]
pub unsafe extern "C" fn dit_rt_constant(
    ctx: *mut dit_context,
    dtype: i32,
    rank: i32,
    dims: *const i64,
    bytes: *const u8,
    nbytes: i64,
) -> *mut dit_rt_tensor {
    with_ctx(
        ctx,
        || "dit_rt_constant".to_string(),
        dummy,
        |c| {
            let dtype = dtype_of(dtype)?;
            let rank = rank_of(rank)?;
            // SAFETY: `rank` entries by the caller's contract.
            let dims = dims_of(unsafe { i64_array(dims, rank, "dims") }?)?;
            let n = usize::try_from(nbytes)
                .ok()
                .filter(|n| isize::try_from(*n).is_ok())
                .ok_or_else(|| bad(format!("nbytes {nbytes} is negative or too large")))?;
            let data: &[u8] = if n == 0 {
                &[]
            } else if bytes.is_null() {
                return Err(bad("bytes is NULL"));
            } else {
                // SAFETY: non-null and `nbytes` long by the caller's contract.
                unsafe { std::slice::from_raw_parts(bytes, n) }
            };
            Ok(to_ptr(c.constant(TensorType::new(dtype, dims), data)?))
        },
    )
}

/// A view on `base`: element `(i0, ..)` of the view is element `offset + Σ ik·strides[k]` of
/// `base` in its logical row-major order (strides and offset in elements, ≥ 0). No copy when
/// `base` is contiguous; a non-contiguous `base` is first copied to contiguous storage. `dtype`
/// must be `base`'s. For split/slice (offset and strides), transpose (permuted strides) and
/// broadcast (stride 0).
///
/// # Safety
/// `ctx` is NULL or from [`dit_context_create`]; `dims` and `strides` are NULL or hold `rank`
/// entries.
#[no_mangle]
pub unsafe extern "C" fn dit_rt_view(
    ctx: *mut dit_context,
    base: *mut dit_rt_tensor,
    dtype: i32,
    rank: i32,
    dims: *const i64,
    strides: *const i64,
    offset: i64,
) -> *mut dit_rt_tensor {
    with_ctx(
        ctx,
        || "dit_rt_view".to_string(),
        dummy,
        |c| {
            let base = handle_of(base, "base")?;
            let dtype = dtype_of(dtype)?;
            let rank = rank_of(rank)?;
            // SAFETY: `rank` entries each, by the caller's contract.
            let dims = dims_of(unsafe { i64_array(dims, rank, "dims") }?)?;
            // SAFETY: as above.
            let strides = strides_of(&dims, unsafe { i64_array(strides, rank, "strides") }?)?;
            let offset =
                usize::try_from(offset).map_err(|_| bad(format!("offset {offset} is negative")))?;
            Ok(to_ptr(c.view(base, dtype, &dims, &strides, offset)?))
        },
    )
}

/// `base`'s elements with new dims, and with a new element type for a bitcast (same total size
/// in bits). No copy when `base` is contiguous.
///
/// # Safety
/// `ctx` is NULL or from [`dit_context_create`]; `dims` is NULL or holds `rank` entries.
#[no_mangle]
pub unsafe extern "C" fn dit_rt_reshape(
    ctx: *mut dit_context,
    base: *mut dit_rt_tensor,
    dtype: i32,
    rank: i32,
    dims: *const i64,
) -> *mut dit_rt_tensor {
    with_ctx(
        ctx,
        || "dit_rt_reshape".to_string(),
        dummy,
        |c| {
            let base = handle_of(base, "base")?;
            let dtype = dtype_of(dtype)?;
            let rank = rank_of(rank)?;
            // SAFETY: `rank` entries by the caller's contract.
            let dims = dims_of(unsafe { i64_array(dims, rank, "dims") }?)?;
            Ok(to_ptr(c.reshape(base, dtype, &dims)?))
        },
    )
}

/// Runs dit op `op` (e.g. `"dit.rms_norm"`) on the backend. `kernel` is the aclnn symbol of the
/// kernel table (`"aclnnRmsNorm"`; `""` skips the check) or, for `dit.fused`, the generated
/// kernel's name; `attrs_json` is the op's attributes as a JSON object (`"{}"` for none).
/// `inputs` has one entry per operand slot (NULL for an empty optional slot); `outputs` are
/// distinct, writable tensors whose types are the result types, filled by the call.
///
/// # Safety
/// `ctx` is NULL or from [`dit_context_create`]; the strings are NULL or NUL-terminated;
/// `inputs` and `outputs` are NULL or hold `n_inputs` and `n_outputs` entries.
#[no_mangle]
pub unsafe extern "C" fn dit_rt_launch(
    ctx: *mut dit_context,
    op: *const c_char,
    kernel: *const c_char,
    attrs_json: *const c_char,
    inputs: *const *mut dit_rt_tensor,
    n_inputs: i32,
    outputs: *const *mut dit_rt_tensor,
    n_outputs: i32,
) {
    let what = || {
        // SAFETY: NULL or NUL-terminated by the caller's contract.
        format!("dit_rt_launch({})", unsafe { c_str_lossy(op) })
    };
    with_ctx(
        ctx,
        what,
        || (),
        |c| {
            // SAFETY: as above.
            let op = unsafe { c_str(op, "op") }?;
            // SAFETY: as above.
            let kernel = unsafe { c_str(kernel, "kernel") }?;
            // SAFETY: as above.
            let attrs_json = unsafe { c_str(attrs_json, "attrs_json") }?;
            // SAFETY: `n_inputs` entries by the caller's contract.
            let ins = unsafe { handle_array(inputs, n_inputs, "inputs") }?;
            // SAFETY: `n_outputs` entries by the caller's contract.
            let outs = unsafe { handle_array(outputs, n_outputs, "outputs") }?;
            let inputs: Vec<Option<Handle>> =
                ins.iter().map(|p| Handle::from_raw(*p as usize)).collect();
            let outputs = outs
                .iter()
                .enumerate()
                .map(|(i, p)| handle_of(*p, &format!("output #{i}")))
                .collect::<Result<Vec<_>, _>>()?;
            c.launch(op, kernel, attrs_json, &inputs, &outputs)?;
            c.count_launch(kernel);
            Ok(())
        },
    )
}

/// What a context has done so far (see `dit_context_counters` in dit_runtime.h).
#[allow(non_camel_case_types)]
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct dit_counters {
    /// Kernel launches so far.
    pub launches: u64,
    /// Bytes pre-packed so far by init entries.
    pub packed_bytes: u64,
}

/// Writes the context's counters to `out`; zeros for a NULL, destroyed or failed context.
///
/// # Safety
/// `ctx` is NULL or from [`dit_context_create`]; `out` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn dit_context_counters(ctx: *mut dit_context, out: *mut dit_counters) {
    let got = with_ctx(
        ctx,
        || "dit_context_counters".to_string(),
        dit_counters::default,
        |c| {
            let k = c.counters();
            Ok(dit_counters {
                launches: k.launches,
                packed_bytes: k.packed_bytes,
            })
        },
    );
    if !out.is_null() {
        // SAFETY: non-null and writable by the caller's contract.
        unsafe { *out = got };
    }
}

/// Reads a C array of `n` handles (NULL allowed when `n` is 0).
///
/// # Safety
/// `p` is NULL or holds `n` entries.
unsafe fn handle_array<'a>(
    p: *const *mut dit_rt_tensor,
    n: i32,
    name: &str,
) -> Result<&'a [*mut dit_rt_tensor], RuntimeError> {
    let n = usize::try_from(n).map_err(|_| bad(format!("{name}: count {n} is negative")))?;
    if n == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(bad(format!("{name} is NULL for {n} entries")));
    }
    // SAFETY: non-null and `n` entries long by the caller's contract.
    Ok(unsafe { std::slice::from_raw_parts(p, n) })
}

/// Keeps tensor `t` in the context under `key` (an init entry's pre-packed weight), for
/// [`dit_rt_pack_load`] in later calls; storing a key again replaces it. The caller still
/// releases `t`.
///
/// # Safety
/// `ctx` is NULL or from [`dit_context_create`]; `key` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn dit_rt_pack_store(
    ctx: *mut dit_context,
    key: *const c_char,
    t: *mut dit_rt_tensor,
) {
    with_ctx(
        ctx,
        // SAFETY: NULL or NUL-terminated by the caller's contract.
        || format!("dit_rt_pack_store({})", unsafe { c_str_lossy(key) }),
        || (),
        |c| {
            // SAFETY: as above.
            let key = unsafe { c_str(key, "key") }?;
            c.pack_store(key, handle_of(t, "t")?)
        },
    )
}

/// A copy of tensor `t` re-laid into FRACTAL_NZ (the init entry's re-layout of a weight whose
/// kernel takes NZ), with `t`'s logical type; only kernels that take that operand in NZ accept
/// it.
///
/// # Safety
/// `ctx` is NULL or from [`dit_context_create`].
#[no_mangle]
pub unsafe extern "C" fn dit_rt_to_nz(
    ctx: *mut dit_context,
    t: *mut dit_rt_tensor,
) -> *mut dit_rt_tensor {
    with_ctx(
        ctx,
        || "dit_rt_to_nz".to_string(),
        dummy,
        |c| {
            let h = c.to_nz(handle_of(t, "t")?)?;
            c.count_launch("dit_rt_to_nz");
            Ok(to_ptr(h))
        },
    )
}

/// A new handle on the tensor stored under `key` by an init entry; an error (and a dummy
/// handle) when the init entry has not run on this context.
///
/// # Safety
/// `ctx` is NULL or from [`dit_context_create`]; `key` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn dit_rt_pack_load(
    ctx: *mut dit_context,
    key: *const c_char,
) -> *mut dit_rt_tensor {
    with_ctx(
        ctx,
        // SAFETY: NULL or NUL-terminated by the caller's contract.
        || format!("dit_rt_pack_load({})", unsafe { c_str_lossy(key) }),
        dummy,
        |c| {
            // SAFETY: as above.
            let key = unsafe { c_str(key, "key") }?;
            Ok(to_ptr(c.pack_load(key)?))
        },
    )
}

/// Releases a tensor handle; its storage is freed when its last view is released. After an
/// error this does nothing (the context frees everything when destroyed).
///
/// # Safety
/// `ctx` is NULL or from [`dit_context_create`].
#[no_mangle]
pub unsafe extern "C" fn dit_rt_release(ctx: *mut dit_context, t: *mut dit_rt_tensor) {
    with_ctx(
        ctx,
        || "dit_rt_release".to_string(),
        || (),
        |c| c.release(handle_of(t, "t")?),
    )
}

/// Writes `t`'s elements to `out->data` through `out`'s strides; `out`'s dtype and dims must be
/// `t`'s, and its strides must not make two elements share memory.
///
/// # Safety
/// `ctx` is NULL or from [`dit_context_create`]; `out` is NULL or points to a descriptor whose
/// `data` covers every element its dims and strides reach, writable.
#[no_mangle]
pub unsafe extern "C" fn dit_rt_copy_out(
    ctx: *mut dit_context,
    t: *mut dit_rt_tensor,
    out: *mut dit_tensor_desc,
) {
    with_ctx(
        ctx,
        || "dit_rt_copy_out".to_string(),
        || (),
        |c| {
            let t = handle_of(t, "t")?;
            if out.is_null() {
                return Err(bad("out is NULL"));
            }
            // SAFETY: non-null, a valid descriptor by the caller's contract; only read.
            let desc = unsafe { &*out };
            let (dtype, layout, span) = desc_layout(desc)?;
            let have = c.tensor_type(t)?;
            if have.dtype != dtype || have.shape != layout.dims {
                return Err(bad(format!(
                    "out is {}, the tensor is {}",
                    crate::context::type_string(&TensorType::new(dtype, layout.dims.clone())),
                    crate::context::type_string(&have)
                )));
            }
            if !layout.is_one_to_one() {
                return Err(bad(format!(
                    "out strides {:?} make elements share memory",
                    layout.strides
                )));
            }
            let dst: &mut [u8] = if span == 0 {
                &mut []
            } else {
                // SAFETY: `data` is non-null (checked) and covers `span` writable bytes by the
                // caller's contract; the runtime's storage is never handed out, so it does not
                // overlap.
                unsafe { std::slice::from_raw_parts_mut(desc.data as *mut u8, span) }
            };
            c.copy_out(t, dtype, dst, &layout)
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_the_recorded_error() {
        // SAFETY: a literal C string and NULL.
        let ctx = unsafe { dit_context_create(c"cpu".as_ptr(), std::ptr::null()) };
        let got = with_ctx(ctx, || "probe".to_string(), || 7, |_| panic!("boom"));
        assert_eq!(got, 7);
        // SAFETY: a live context; its message lives until destroy.
        let msg = unsafe { CStr::from_ptr(dit_context_error(ctx)) };
        assert_eq!(msg.to_str().unwrap(), "probe: panic: boom");
        // Sticky: a later call does not run.
        let ran = with_ctx(ctx, String::new, || false, |_| Ok(true));
        assert!(!ran);
        // SAFETY: created above, destroyed once.
        unsafe { dit_context_destroy(ctx) };
    }
}
