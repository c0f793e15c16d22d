//! The CANN backend: runs dit ops through aclnn, loading CANN at run time (no link-time
//! dependency, so the crate builds and tests without a CANN install).
//!
//! Three libraries are loaded, as a CANN application links them: libascendcl.so (runtime:
//! aclInit, device, stream, memory), libnnopbase.so (aclTensor, aclScalar, aclIntArray,
//! aclTensorList) and libopapi.so (the aclnn operators). Which operator runs a dit op, and with
//! what arguments, is `crate::kernels`; this module only marshals.

mod ffi;
mod launch;
mod shim;

use std::path::{Path, PathBuf};

use libloading::os::unix::{Library, RTLD_GLOBAL, RTLD_LAZY};

use crate::{Attrs, RuntimeError, Tensor, TensorType};

/// The libraries, in load order (each may need the ones before it).
pub const LIBRARIES: [&str; 3] = ["libascendcl.so", "libnnopbase.so", "libopapi.so"];

/// The device the backend binds (aclrtSetDevice).
const DEVICE: i32 = 0;

/// A loaded CANN with device 0 set and one stream. Not `Send`: ACL binds the device context
/// to the thread that set it.
pub struct CannBackend {
    api: ffi::Api,
    stream: ffi::Handle,
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
        Ok(CannBackend {
            api,
            stream,
            libraries,
        })
    }

    /// The directories the three libraries were loaded from (libascendcl, libnnopbase,
    /// libopapi).
    pub fn library_dirs(&self) -> &[PathBuf; 3] {
        &self.libraries.dirs
    }

    /// Runs dit op `op` on the device. `inputs` has one entry per operand slot of the contract
    /// (`None` = empty optional slot); a variadic slot (dit.concat's `xs`) takes every entry from
    /// its index on. `results` are the result types. The kernel table picks the aclnn call(s)
    /// from `op`, `attrs` and the filled slots; operands are copied to device memory, each call
    /// runs both phases on the stream, the stream is synchronised once, the results are copied
    /// back and every device buffer and CANN object is released.
    pub fn launch(
        &self,
        op: &str,
        attrs: &Attrs,
        inputs: &[Option<&Tensor>],
        results: &[TensorType],
    ) -> Result<Vec<Tensor>, RuntimeError> {
        launch::launch(
            &self.api,
            &self.libraries.opapi,
            self.stream,
            op,
            attrs,
            inputs,
            results,
        )
    }
}

impl Drop for CannBackend {
    fn drop(&mut self) {
        // Teardown in reverse order of load; failures cannot be reported from drop, and the
        // process keeps going either way.
        // SAFETY: the stream and device were set up by `load` and are released once.
        unsafe {
            (self.api.destroy_stream)(self.stream);
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
