//! Building the generated kernels against the CPU model of the Ascend C API and running them
//! here: the same sources and host launchers as the CANN build, compiled by the host C++
//! compiler (`$CXX`, else `c++`) into one shared library, loaded with libloading.
//!
//! All kernels and the launchers go into one translation unit, so a model's kernels cost one
//! compiler run, at -O0: the test shapes are small, so compiling dominates running.

use crate::{project, Kernel, TargetSpec};
use dit_runtime::{Tensor, TensorType};
use std::ffi::{c_char, c_void, CStr, CString};
use std::path::{Path, PathBuf};
use std::process::Command;

use dit_runtime::generated::LaunchFn;

type TilingFn =
    unsafe extern "C" fn(*const c_char, u32, u32, *mut u32, i32, *mut c_char, usize) -> i32;

/// Writes the project files for `kernels` into `dir` and compiles them (CPU model) into
/// `dir/libdit_kernels.so`, with the model's UB of `target.ub_bytes` bytes.
pub fn build(dir: &Path, kernels: &[Kernel], target: &TargetSpec) -> Result<PathBuf, String> {
    project::write_project(dir, kernels, target, None)
        .map_err(|e| format!("cannot write {}: {e}", dir.display()))?;
    let mut unit = String::from("// One translation unit: every kernel and the host launchers.\n");
    for k in kernels {
        unit.push_str(&format!("#include \"{}.cpp\"\n", k.symbol()));
    }
    unit.push_str("#include \"dit_kernels.cpp\"\n");
    let unit_path = dir.join("all_kernels.cpp");
    std::fs::write(&unit_path, unit).map_err(|e| format!("cannot write the unit: {e}"))?;
    let lib = dir.join("libdit_kernels.so");
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".to_string());
    let out = Command::new(&cxx)
        .args(["-std=c++17", "-O0", "-shared", "-fPIC", "-DDIT_CPU_MODEL"])
        .arg(format!("-DDIT_UB_BYTES={}", target.ub_bytes))
        .arg(format!("-DDIT_CORE_NUM={}", target.core_num))
        .arg(format!("-I{}", dir.join("include").display()))
        .arg(format!("-I{}", dir.join("kernels").display()))
        .arg(format!("-I{}", dir.join("host").display()))
        .arg(&unit_path)
        .arg("-o")
        .arg(&lib)
        .output()
        .map_err(|e| format!("cannot run {cxx}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{cxx} failed on the generated kernels in {}:\n{}",
            dir.display(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(lib)
}

/// A loaded `libdit_kernels.so` (CPU-model build).
pub struct Library {
    lib: libloading::Library,
}

fn message(buf: &[u8]) -> String {
    CStr::from_bytes_until_nul(buf)
        .map(|c| c.to_string_lossy().into_owned())
        .unwrap_or_else(|_| String::from_utf8_lossy(buf).into_owned())
}

impl Library {
    /// Loads a library built by [`build`] (or by the CMake project with `-DDIT_CPU_MODEL=ON`).
    pub fn open(path: &Path) -> Result<Library, String> {
        // SAFETY: the library is a CPU-model build of generated kernels: its initializers only
        // set up static tables.
        let lib = unsafe { libloading::Library::new(path) }
            .map_err(|e| format!("cannot load {}: {e}", path.display()))?;
        Ok(Library { lib })
    }

    /// Runs kernel `name` on raw buffers: `inputs` and `outputs` in the kernel's order, each
    /// exactly the bytes of its tensor. `core_num` / `ub_bytes` 0 take the target's defaults.
    pub fn launch_raw(
        &self,
        name: &str,
        core_num: u32,
        ub_bytes: u32,
        inputs: &[&[u8]],
        outputs: &mut [&mut [u8]],
    ) -> Result<(), String> {
        // SAFETY: the symbol has the signature of dit_kernels.h.
        let launch: libloading::Symbol<LaunchFn> = unsafe { self.lib.get(b"dit_kernel_launch") }
            .map_err(|e| format!("no dit_kernel_launch: {e}"))?;
        let ins: Vec<*mut c_void> = inputs.iter().map(|b| b.as_ptr() as *mut c_void).collect();
        let outs: Vec<*mut c_void> = outputs
            .iter_mut()
            .map(|b| b.as_mut_ptr() as *mut c_void)
            .collect();
        // The buffers are exactly the kernel's tensors (the caller's contract), alive here.
        dit_runtime::generated::call_launch(*launch, name, core_num, ub_bytes, &ins, &outs)
    }

    /// Runs kernel `name` on tensors, returning outputs of the given types.
    pub fn launch(
        &self,
        name: &str,
        core_num: u32,
        ub_bytes: u32,
        inputs: &[&Tensor],
        outputs: &[TensorType],
    ) -> Result<Vec<Tensor>, String> {
        let mut outs: Vec<Tensor> = outputs.iter().cloned().map(Tensor::zeros).collect();
        let ins: Vec<&[u8]> = inputs.iter().map(|t| t.data.as_slice()).collect();
        let mut bufs: Vec<&mut [u8]> = outs.iter_mut().map(|t| t.data.as_mut_slice()).collect();
        self.launch_raw(name, core_num, ub_bytes, &ins, &mut bufs)?;
        Ok(outs)
    }

    /// The tiling the library computes: block dim, then per stage rows, tile rows, big cores,
    /// big-core rows, small-core rows.
    pub fn tiling(&self, name: &str, core_num: u32, ub_bytes: u32) -> Result<Vec<u32>, String> {
        // SAFETY: the symbol has the signature of dit_kernels.h.
        let f: libloading::Symbol<TilingFn> = unsafe { self.lib.get(b"dit_kernel_tiling") }
            .map_err(|e| format!("no dit_kernel_tiling: {e}"))?;
        let name = CString::new(name).map_err(|_| "kernel name with NUL".to_string())?;
        let mut out = vec![0u32; 256];
        let mut err = vec![0u8; 4096];
        // SAFETY: out and err are valid for their lengths.
        let n = unsafe {
            f(
                name.as_ptr(),
                core_num,
                ub_bytes,
                out.as_mut_ptr(),
                out.len() as i32,
                err.as_mut_ptr() as *mut c_char,
                err.len(),
            )
        };
        if n < 0 {
            return Err(message(&err));
        }
        out.truncate(n as usize);
        Ok(out)
    }
}
