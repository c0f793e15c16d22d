//! dit.fused on the CPU backend through the generated Ascend C kernels (crate dit-ascendc):
//! when `DIT_ASCENDC_KERNELS` names a `libdit_kernels.so` built against the CPU model of the
//! Ascend C API (`dit-opt --emit=ascendc -o DIR`, then
//! `cmake -S DIR -B DIR/build -DDIT_CPU_MODEL=ON && cmake --build DIR/build`), every dit.fused
//! launch on the CPU backend runs its kernel from that library (C ABI of `host/dit_kernels.h`)
//! instead of the op-by-op reference. `DIT_ASCENDC_CORES` sets the cores the kernels split
//! their rows over (default: the library's target default), `DIT_ASCENDC_UB_BYTES` the UB the
//! tiling assumes (default: the target's).
//!
//! Without the variable nothing changes. A kernel the library does not have is an error, not a
//! silent fallback: the point of setting the variable is to run the generated code.
//!
//! The CANN backend loads the same library (a CANN build, or the CPU-model build on the
//! stand-in CANN) through [`Kernels::load`] and calls the same `dit_kernel_launch` with device
//! pointers and its stream ([`call_launch_on`]).

use crate::{fused::FusedOp, RuntimeError, Tensor};
use std::ffi::{c_char, c_void, CStr, CString};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The environment variable naming the library.
pub const ENV_LIBRARY: &str = "DIT_ASCENDC_KERNELS";

/// `dit_kernel_launch` of `host/dit_kernels.h`: kernel name, stream, cores, UB bytes, inputs,
/// input count, outputs, output count, error buffer, its size; 0 on success.
pub type LaunchFn = unsafe extern "C" fn(
    *const c_char,
    *mut c_void,
    u32,
    u32,
    *const *mut c_void,
    i32,
    *const *mut c_void,
    i32,
    *mut c_char,
    usize,
) -> i32;

/// A loaded kernel library.
pub struct Kernels {
    /// Where it was loaded from.
    pub path: PathBuf,
    // Kept loaded while `launch` may be called: it points into it.
    _lib: libloading::Library,
    /// Its `dit_kernel_launch`.
    pub launch: LaunchFn,
}

impl Kernels {
    /// Loads the library at `path` and resolves `dit_kernel_launch`.
    pub fn load(path: &Path) -> Result<Kernels, String> {
        load(&path.to_string_lossy())
    }
}

/// A `u32` setting from the environment (0 when unset: the library's default).
pub(crate) fn env_u32(name: &str) -> Result<u32, RuntimeError> {
    match std::env::var(name) {
        Ok(v) => v.parse().map_err(|_| {
            RuntimeError::Backend(format!("{name}={v} is not a non-negative integer"))
        }),
        Err(_) => Ok(0),
    }
}

fn load(path: &str) -> Result<Kernels, String> {
    // SAFETY: the library is a build of generated kernels and their launchers; loading it runs
    // only static initializers of plain tables.
    let lib = unsafe { libloading::Library::new(path) }
        .map_err(|e| format!("{ENV_LIBRARY}={path}: cannot load it: {e}"))?;
    // SAFETY: dit_kernel_launch has the signature declared in host/dit_kernels.h.
    let launch = unsafe { lib.get::<LaunchFn>(b"dit_kernel_launch") }
        .map(|s| *s)
        .map_err(|e| format!("{ENV_LIBRARY}={path}: no dit_kernel_launch: {e}"))?;
    Ok(Kernels {
        path: PathBuf::from(path),
        _lib: lib,
        launch,
    })
}

fn kernels() -> Option<Result<&'static Kernels, RuntimeError>> {
    static KERNELS: OnceLock<Option<Result<Kernels, String>>> = OnceLock::new();
    KERNELS
        .get_or_init(|| std::env::var(ENV_LIBRARY).ok().map(|p| load(&p)))
        .as_ref()
        .map(|r| r.as_ref().map_err(|e| RuntimeError::Backend(e.clone())))
}

/// Runs `fused` through its generated kernel when `DIT_ASCENDC_KERNELS` is set (`None`
/// otherwise). `inputs` passed [`FusedOp::check_signature`].
pub fn run(
    fused: &FusedOp,
    inputs: &[Option<&Tensor>],
) -> Option<Result<Vec<Tensor>, RuntimeError>> {
    let kernels = match kernels()? {
        Ok(k) => k,
        Err(e) => return Some(Err(e)),
    };
    Some(launch(kernels, fused, inputs))
}

fn launch(
    k: &Kernels,
    fused: &FusedOp,
    inputs: &[Option<&Tensor>],
) -> Result<Vec<Tensor>, RuntimeError> {
    let cores = env_u32("DIT_ASCENDC_CORES")?;
    let ub = env_u32("DIT_ASCENDC_UB_BYTES")?;
    let types = {
        let mut types: Vec<_> = fused.args.clone();
        for op in &fused.ops {
            types.extend(op.results.iter().cloned());
        }
        types
    };
    let mut outputs: Vec<Tensor> = fused
        .yields
        .iter()
        .map(|y| Tensor::zeros(types[*y].clone()))
        .collect();
    let ins: Vec<*mut c_void> = inputs
        .iter()
        .map(|t| t.map_or(std::ptr::null_mut(), |t| t.data.as_ptr() as *mut c_void))
        .collect();
    let outs: Vec<*mut c_void> = outputs
        .iter_mut()
        .map(|t| t.data.as_mut_ptr() as *mut c_void)
        .collect();
    call_launch(k.launch, &fused.kernel, cores, ub, &ins, &outs).map_err(|msg| {
        RuntimeError::Backend(format!(
            "generated kernel {} ({}): {msg}",
            fused.kernel,
            k.path.display()
        ))
    })?;
    Ok(outputs)
}

/// Calls a library's `dit_kernel_launch` for kernel `name` on raw device (here: host) buffers;
/// the error is the kernel library's own message.
///
/// # Safety contract (checked by the callers)
/// `ins`/`outs` point to buffers of exactly the kernel's tensor sizes, alive for the call.
pub fn call_launch(
    launch: LaunchFn,
    name: &str,
    cores: u32,
    ub_bytes: u32,
    ins: &[*mut c_void],
    outs: &[*mut c_void],
) -> Result<(), String> {
    // SAFETY: no stream (the CPU-model build runs at once); buffers as documented above.
    unsafe {
        call_launch_on(
            launch,
            name,
            std::ptr::null_mut(),
            cores,
            ub_bytes,
            ins,
            outs,
        )
    }
}

/// [`call_launch`] on `stream` (an aclrtStream: the CANN build queues the kernel there, the
/// CPU-model build ignores it and runs at once).
///
/// # Safety
/// `stream` is NULL or a live aclrtStream of the CANN the library was built for; `ins`/`outs`
/// are as for [`call_launch`] (device memory for a CANN build).
pub unsafe fn call_launch_on(
    launch: LaunchFn,
    name: &str,
    stream: *mut c_void,
    cores: u32,
    ub_bytes: u32,
    ins: &[*mut c_void],
    outs: &[*mut c_void],
) -> Result<(), String> {
    let name = CString::new(name).map_err(|_| "a kernel name with a NUL byte".to_string())?;
    let mut err = vec![0u8; 4096];
    // SAFETY: the callers pass buffers of the kernel's tensor sizes that outlive the call; the
    // kernel reads and writes within them and writes at most `err.len()` message bytes.
    let rc = unsafe {
        launch(
            name.as_ptr(),
            stream,
            cores,
            ub_bytes,
            ins.as_ptr(),
            ins.len() as i32,
            outs.as_ptr(),
            outs.len() as i32,
            err.as_mut_ptr() as *mut c_char,
            err.len(),
        )
    };
    if rc == 0 {
        return Ok(());
    }
    Err(CStr::from_bytes_until_nul(&err)
        .map(|c| c.to_string_lossy().into_owned())
        .unwrap_or_else(|_| String::from_utf8_lossy(&err).into_owned()))
}
