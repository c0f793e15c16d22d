//! The CANN backend: runs dit ops through aclnn, loading CANN at run time (no link-time
//! dependency, so the crate builds and tests without a CANN install).
//!
//! Three libraries are loaded, as a CANN application links them: libascendcl.so (runtime:
//! aclInit, device, stream, memory), libnnopbase.so (aclTensor, aclScalar, aclIntArray,
//! aclTensorList) and libopapi.so (the aclnn operators). Which operator runs a dit op, and with
//! what arguments, is `crate::kernels`; this module only marshals.
//!
//! Tensors of a context stay in device memory for the whole call (`device`): operands are
//! uploaded once, kernels are queued on one stream without waiting, and the stream
//! synchronises once, before the first result is read back. dit.fused runs its generated
//! Ascend C kernel through the host launch stub of the kernel library that
//! `dit-opt --emit=ascendc` + CMake build (`dit_kernel_launch` of `host/dit_kernels.h`, the same
//! entry point in the CANN build, where it calls the `ACLRT_LAUNCH_KERNEL` stubs, and in the
//! CPU-model build), with device pointers and the backend's stream.

mod device;
mod ffi;
mod launch;
mod shim;
pub(crate) mod standin;

use std::path::{Path, PathBuf};

use libloading::os::unix::{Library, RTLD_GLOBAL, RTLD_LAZY};

pub(crate) use device::DevView;
pub use device::{DeviceBuf, DeviceStats};

use crate::fused::FusedOp;
use crate::{generated, Attrs, RuntimeError, Tensor, TensorType};

/// The libraries, in load order (each may need the ones before it).
pub const LIBRARIES: [&str; 3] = ["libascendcl.so", "libnnopbase.so", "libopapi.so"];

/// The device the backend binds (aclrtSetDevice).
const DEVICE: i32 = 0;

/// A loaded CANN with device 0 set and one stream. Not `Send`: ACL binds the device context
/// to the thread that set it.
pub struct CannBackend {
    api: ffi::Api,
    device: device::Device,
    /// The generated kernel library, loaded on the first dit.fused when not given to `load`.
    kernels: Option<generated::Kernels>,
    /// Where the kernel library comes from when it is not loaded yet (None: DIT_ASCENDC_KERNELS).
    kernels_path: Option<PathBuf>,
    // Declared last so they are dropped last: `api`'s pointers point into them.
    libraries: Libraries,
}

struct Libraries {
    _acl: Library,
    _nnopbase: Library,
    opapi: Library,
    dirs: [PathBuf; 3],
}

impl CannBackend {
    /// Loads CANN from `dir` (all three libraries there), or else from `$ASCEND_HOME_PATH`
    /// (`lib64`, `aarch64-linux/lib64`, `x86_64-linux/lib64`), then calls aclInit(NULL),
    /// aclrtSetDevice(0) and aclrtCreateStream. Without CANN the error names ASCEND_HOME_PATH.
    pub fn load(dir: Option<&Path>) -> Result<CannBackend, RuntimeError> {
        Self::load_with_kernels(dir, None)
    }

    /// As [`CannBackend::load`]; dit.fused kernels come from the library at `kernels` (built by
    /// the `--emit=ascendc` CMake project), else from `$DIT_ASCENDC_KERNELS`, loaded at the
    /// first dit.fused launch.
    pub fn load_with_kernels(
        dir: Option<&Path>,
        kernels: Option<&Path>,
    ) -> Result<CannBackend, RuntimeError> {
        let candidates = match dir {
            Some(d) => vec![d.to_path_buf()],
            None => home_dirs()?,
        };
        let mut paths = Vec::with_capacity(LIBRARIES.len());
        for name in LIBRARIES {
            let found = candidates
                .iter()
                .map(|d| d.join(name))
                .find(|p| p.is_file());
            let Some(path) = found else {
                let looked: Vec<String> =
                    candidates.iter().map(|d| d.display().to_string()).collect();
                return Err(RuntimeError::Backend(format!(
                    "CANN not found: set ASCEND_HOME_PATH to a CANN toolkit (looked for {name} \
                     in {})",
                    looked.join(", ")
                )));
            };
            paths.push(path);
        }
        let open = |path: &Path| {
            // SAFETY: loading runs the library's initialisers; these are CANN's own libraries
            // (or a stand-in with their interface). RTLD_GLOBAL lets each later library bind to
            // the earlier ones, as when an application links all three.
            unsafe { Library::open(Some(path), RTLD_LAZY | RTLD_GLOBAL) }.map_err(|e| {
                RuntimeError::Backend(format!(
                    "cannot load {}: {e} (source CANN's set_env.sh so the libraries it needs \
                     are on LD_LIBRARY_PATH)",
                    path.display()
                ))
            })
        };
        let acl = open(&paths[0])?;
        let nnopbase = open(&paths[1])?;
        let opapi = open(&paths[2])?;
        let api = ffi::Api::resolve(&acl, &nnopbase)?;
        let dirs = [0, 1, 2].map(|i| paths[i].parent().map(Path::to_path_buf).unwrap_or_default());
        let libraries = Libraries {
            _acl: acl,
            _nnopbase: nnopbase,
            opapi,
            dirs,
        };

        // SAFETY: aclInit(const char *configPath) accepts NULL (no config file).
        api.check("aclInit", unsafe { (api.init)(std::ptr::null()) })?;
        // SAFETY: a plain device index.
        if let Err(e) = api.check("aclrtSetDevice(0)", unsafe { (api.set_device)(DEVICE) }) {
            // SAFETY: undoes the successful aclInit above.
            unsafe { (api.finalize)() };
            return Err(e);
        }
        let mut stream: ffi::Handle = std::ptr::null_mut();
        // SAFETY: aclrtCreateStream writes one handle.
        if let Err(e) = api.check("aclrtCreateStream", unsafe {
            (api.create_stream)(&mut stream)
        }) {
            // SAFETY: undo the device and init above, in reverse order.
            unsafe {
                (api.reset_device)(DEVICE);
                (api.finalize)();
            }
            return Err(e);
        }
        // The stand-in CANN computes through the runtime's CPU reference (tests/standin); a
        // real libopapi has no such symbol.
        // SAFETY: the stand-in declares `void dit_standin_set_compute(dit_standin_compute_fn)`.
        if let Ok(set) = unsafe {
            libraries
                .opapi
                .get::<unsafe extern "C" fn(standin::ComputeFn)>(b"dit_standin_set_compute")
        } {
            // SAFETY: registers a function with the declared prototype, valid for the process.
            unsafe { set(standin::compute) };
        }
        Ok(CannBackend {
            api,
            device: device::Device::new(stream),
            kernels: None,
            kernels_path: kernels.map(Path::to_path_buf),
            libraries,
        })
    }

    /// What crossed the host/device boundary and ran since the backend loaded.
    pub fn stats(&self) -> DeviceStats {
        self.device.stats
    }

    /// A zero-filled device buffer of `bytes`.
    pub fn alloc_zeroed(&mut self, bytes: usize) -> Result<DeviceBuf, RuntimeError> {
        self.device.alloc_zeroed(&self.api, bytes)
    }

    /// A device copy of `data` (one host-to-device copy).
    pub fn upload(&mut self, data: &[u8]) -> Result<DeviceBuf, RuntimeError> {
        self.device.upload(&self.api, data)
    }

    /// The bytes `offset..offset + len` of the storage at `ptr`, after the queued work ran (one
    /// device-to-host copy; the stream synchronises first when work is queued).
    pub fn download(
        &mut self,
        ptr: ffi::Handle,
        offset: usize,
        len: usize,
    ) -> Result<Vec<u8>, RuntimeError> {
        self.device.download(&self.api, ptr, offset, len)
    }

    /// Waits for everything queued, then frees what released handles and finished kernels
    /// held. A call's one synchronisation when nothing was read back.
    pub fn synchronize(&mut self) -> Result<(), RuntimeError> {
        self.device.synchronize(&self.api)
    }

    /// Frees released memory now if nothing is queued (otherwise after the next sync).
    pub fn collect(&mut self) -> Result<(), RuntimeError> {
        self.device.collect(&self.api)
    }

    /// A contiguous device copy of the view `src` (a device-side copy, counted).
    pub(crate) fn contiguous_copy(&mut self, src: &DevView) -> Result<DeviceBuf, RuntimeError> {
        let bytes = src.dtype.storage_bytes(src.layout.numel().unwrap_or(0));
        let buf = self.device.alloc(&self.api, bytes)?;
        let dst = DevView::contiguous(&buf, src.dtype, &src.layout.dims);
        launch::copy(
            &self.api,
            &self.libraries.opapi,
            &mut self.device,
            &dst,
            src,
        )?;
        Ok(buf)
    }

    /// Queues dit op `op` on device tensors: `inputs` by operand slot (`None` = empty optional
    /// slot), `outputs` one per result, written on the device. Nothing is synchronised or
    /// copied to or from the host.
    pub(crate) fn launch_on_device(
        &mut self,
        op: &str,
        attrs: &Attrs,
        inputs: &[Option<DevView>],
        outputs: &[DevView],
    ) -> Result<(), RuntimeError> {
        launch::launch(
            &self.api,
            &self.libraries.opapi,
            &mut self.device,
            op,
            attrs,
            inputs,
            outputs,
        )
    }

    /// Queues the generated Ascend C kernel of `fused` on the stream through the kernel
    /// library's host stub, with device pointers. Operands that are not contiguous are copied
    /// to contiguous device temporaries first (the kernels take row-major contiguous tensors,
    /// host/dit_kernels.h), and results that are not are written through one.
    pub(crate) fn launch_fused(
        &mut self,
        fused: &FusedOp,
        inputs: &[DevView],
        outputs: &[DevView],
    ) -> Result<(), RuntimeError> {
        let launch_fn = self.kernel_library()?.launch;
        let path = self.kernel_library()?.path.clone();
        let mut keep: Vec<DeviceBuf> = Vec::new();
        let mut ins = Vec::with_capacity(inputs.len());
        for t in inputs {
            ins.push(match t.contiguous_at_byte() {
                // SAFETY: the offset lies inside the storage the view was checked against.
                Some(at) => unsafe { t.ptr.cast::<u8>().add(at) }.cast(),
                None => {
                    let buf = self.contiguous_copy(t)?;
                    let p = buf.ptr();
                    keep.push(buf);
                    p
                }
            });
        }
        let mut outs = Vec::with_capacity(outputs.len());
        let mut copy_back = Vec::new();
        for t in outputs {
            outs.push(match t.contiguous_at_byte() {
                // SAFETY: as above.
                Some(at) => unsafe { t.ptr.cast::<u8>().add(at) }.cast(),
                None => {
                    let bytes = t.dtype.storage_bytes(t.layout.numel().unwrap_or(0));
                    let buf = self.device.alloc(&self.api, bytes)?;
                    let p = buf.ptr();
                    copy_back.push((DevView::contiguous(&buf, t.dtype, &t.layout.dims), t));
                    keep.push(buf);
                    p
                }
            });
        }
        let cores = generated::env_u32("DIT_ASCENDC_CORES")?;
        let ub = generated::env_u32("DIT_ASCENDC_UB_BYTES")?;
        self.device.pending = true;
        // SAFETY: the backend's live stream; every pointer is device memory of the kernel's
        // tensor size (fused.check_types checked the types), alive until the stream syncs.
        unsafe {
            generated::call_launch_on(
                launch_fn,
                &fused.kernel,
                self.device.stream,
                cores,
                ub,
                &ins,
                &outs,
            )
        }
        .map_err(|msg| {
            RuntimeError::Backend(format!(
                "generated kernel {} ({}): {msg}",
                fused.kernel,
                path.display()
            ))
        })?;
        self.device.stats.generated_launches += 1;
        for (src, dst) in copy_back {
            launch::copy(
                &self.api,
                &self.libraries.opapi,
                &mut self.device,
                dst,
                &src,
            )?;
        }
        drop(keep);
        Ok(())
    }

    /// The generated kernel library, loaded on first use.
    fn kernel_library(&mut self) -> Result<&generated::Kernels, RuntimeError> {
        if self.kernels.is_none() {
            let path = match &self.kernels_path {
                Some(p) => p.clone(),
                None => std::env::var_os(generated::ENV_LIBRARY)
                    .filter(|p| !p.is_empty())
                    .map(PathBuf::from)
                    .ok_or_else(|| {
                        RuntimeError::Backend(format!(
                            "dit.fused on the CANN backend runs the generated Ascend C kernels:                              build them (`dit-opt --emit=ascendc -o DIR`, then the CMake project                              in DIR, cmake/README.md) and pass the library or set {}",
                            generated::ENV_LIBRARY
                        ))
                    })?,
            };
            self.kernels = Some(generated::Kernels::load(&path).map_err(RuntimeError::Backend)?);
        }
        // Set just above.
        self.kernels
            .as_ref()
            .ok_or_else(|| RuntimeError::Backend("no kernel library".into()))
    }

    /// The directories the three libraries were loaded from (libascendcl, libnnopbase,
    /// libopapi).
    pub fn library_dirs(&self) -> &[PathBuf; 3] {
        &self.libraries.dirs
    }

    /// Runs dit op `op` on the device. `inputs` has one entry per operand slot of the contract
    /// (`None` = empty optional slot); a variadic slot (dit.concat's `xs`) takes every entry from
    /// its index on. `results` are the result types. The kernel table picks the aclnn call(s)
    /// from `op`, `attrs` and the filled slots. A one-op call on host tensors: the operands
    /// are uploaded, the calls are queued, the stream is synchronised once, the results are
    /// downloaded, and every device buffer and CANN object of the op is released (a context
    /// keeps tensors on the device instead, see `CannBackend::launch_on_device`).
    pub fn launch(
        &mut self,
        op: &str,
        attrs: &Attrs,
        inputs: &[Option<&Tensor>],
        results: &[TensorType],
    ) -> Result<Vec<Tensor>, RuntimeError> {
        let run = self.launch_host(op, attrs, inputs, results);
        // On an error too: queued kernels finish before their memory goes.
        let done = self.synchronize();
        let out = run?;
        done?;
        Ok(out)
    }

    fn launch_host(
        &mut self,
        op: &str,
        attrs: &Attrs,
        inputs: &[Option<&Tensor>],
        results: &[TensorType],
    ) -> Result<Vec<Tensor>, RuntimeError> {
        let types: Vec<Option<TensorType>> = inputs.iter().map(|t| t.map(Tensor::ty)).collect();
        let spec = launch::select(&self.api, op, attrs, &types)?;
        for (slot, t) in inputs.iter().enumerate() {
            let Some(t) = t else { continue };
            let want = t.dtype.storage_bytes(t.shape.iter().product());
            if t.data.len() != want {
                return Err(crate::contract(
                    op,
                    format!(
                        "operand {slot} has {} bytes, its type needs {want}",
                        t.data.len()
                    ),
                ));
            }
        }
        match spec.body {
            crate::kernels::Body::View => return host_view(op, inputs, results),
            crate::kernels::Body::NoKernel => {
                return Err(RuntimeError::Backend(format!(
                    "{op} has no aclnn kernel: {}",
                    spec.note
                )))
            }
            crate::kernels::Body::Aclnn(_) => {}
        }
        launch::check_operands(spec, op, &types, results)?;
        // Only the slots a call reads go to the device.
        let mut bufs = Vec::new();
        let mut ins = Vec::with_capacity(inputs.len());
        for (slot, t) in inputs.iter().enumerate() {
            ins.push(match t {
                Some(t) if spec.reads_slot(slot) => {
                    let buf = self.upload(&t.data)?;
                    let v = DevView::contiguous(&buf, t.dtype, &t.shape);
                    bufs.push(buf);
                    Some(v)
                }
                _ => None,
            });
        }
        let mut outs = Vec::with_capacity(results.len());
        for (i, r) in results.iter().enumerate() {
            let bytes = r.dtype.storage_bytes(r.numel());
            // A result no call writes must read as zeros; the others are written in full.
            let buf = if spec.zero_results.contains(&i) {
                self.device.alloc_zeroed(&self.api, bytes)?
            } else {
                self.device.alloc(&self.api, bytes)?
            };
            outs.push(DevView::contiguous(&buf, r.dtype, &r.shape));
            bufs.push(buf);
        }
        self.launch_on_device(op, attrs, &ins, &outs)?;
        let mut out = Vec::with_capacity(results.len());
        for (r, v) in results.iter().zip(&outs) {
            let data = self.download(v.ptr, 0, r.dtype.storage_bytes(r.numel()))?;
            out.push(Tensor {
                dtype: r.dtype,
                shape: r.shape.clone(),
                data,
            });
        }
        Ok(out)
    }
}

/// reshape / bitcast on host tensors: the operand's bytes under the result type.
fn host_view(
    op: &str,
    inputs: &[Option<&Tensor>],
    results: &[TensorType],
) -> Result<Vec<Tensor>, RuntimeError> {
    let (Some(Some(x)), [r]) = (inputs.first(), results) else {
        return Err(crate::contract(op, "expects one operand and one result"));
    };
    if inputs.len() != 1 {
        return Err(crate::contract(op, "expects one operand"));
    }
    let want = r.dtype.storage_bytes(r.numel());
    if x.data.len() != want {
        return Err(crate::contract(
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

impl Drop for CannBackend {
    fn drop(&mut self) {
        // Teardown in reverse order of load; failures cannot be reported from drop, and the
        // process keeps going either way.
        self.device.shutdown(&self.api);
        // SAFETY: the stream and device were set up by `load` and are released once.
        unsafe {
            (self.api.destroy_stream)(self.device.stream);
            (self.api.reset_device)(DEVICE);
            (self.api.finalize)();
        }
    }
}

/// `$ASCEND_HOME_PATH/lib64` and the per-architecture lib64 directories of a toolkit.
fn home_dirs() -> Result<Vec<PathBuf>, RuntimeError> {
    let home = std::env::var_os("ASCEND_HOME_PATH")
        .filter(|h| !h.is_empty())
        .ok_or_else(|| {
            RuntimeError::Backend(
                "CANN not found: set ASCEND_HOME_PATH to a CANN toolkit (it is not set; CANN's \
             set_env.sh sets it, e.g. to /usr/local/Ascend/ascend-toolkit/latest)"
                    .into(),
            )
        })?;
    let home = PathBuf::from(home);
    Ok(["lib64", "aarch64-linux/lib64", "x86_64-linux/lib64"]
        .iter()
        .map(|d| home.join(d))
        .collect())
}
