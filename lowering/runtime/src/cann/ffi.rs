//! The CANN runtime entry points the backend calls, resolved at load time from libascendcl.so
//! (aclInit, aclrt*) and libnnopbase.so (aclCreate*/aclDestroy*), with their C prototypes from
//! the CANN 8.1.RC1 headers acl/acl.h, acl/acl_rt.h, acl/acl_base.h and aclnn/acl_meta.h.
//! The aclnn operators themselves (libopapi.so) are looked up per call by name: their
//! signatures are data in `crate::kernels`.

use std::ffi::{c_char, c_int, c_void};

use libloading::os::unix::Library;

use crate::RuntimeError;

/// `aclError`: `typedef int aclError` (acl_base.h); 0 is ACL_SUCCESS.
pub type AclError = c_int;
/// `aclnnStatus`: `typedef int32_t aclnnStatus` (acl_meta.h); 0 is success.
pub type AclnnStatus = i32;
/// Any opaque CANN handle (aclrtStream, aclTensor *, aclScalar *, ...).
pub type Handle = *mut c_void;

/// `ACL_FORMAT_ND` (acl_base.h `aclFormat`).
pub const ACL_FORMAT_ND: c_int = 2;
/// `ACL_FLOAT` (acl_base.h `aclDataType`).
pub const ACL_FLOAT: c_int = 0;
/// `ACL_INT64` (acl_base.h `aclDataType`).
pub const ACL_INT64: c_int = 9;
/// `ACL_MEM_MALLOC_HUGE_FIRST` (acl_rt.h `aclrtMemMallocPolicy`), what the CANN samples use.
pub const ACL_MEM_MALLOC_HUGE_FIRST: c_int = 0;
/// `ACL_MEMCPY_HOST_TO_DEVICE` (acl_rt.h `aclrtMemcpyKind`).
pub const ACL_MEMCPY_HOST_TO_DEVICE: c_int = 1;
/// `ACL_MEMCPY_DEVICE_TO_HOST` (acl_rt.h `aclrtMemcpyKind`).
pub const ACL_MEMCPY_DEVICE_TO_HOST: c_int = 2;

/// Runtime and tensor-descriptor functions, as typed pointers into the loaded libraries. The
/// pointers are valid while the `Library` values they came from are alive: `CannBackend`
/// keeps both together and drops the libraries last.
pub struct Api {
    /// `aclError aclInit(const char *configPath)`.
    pub init: unsafe extern "C" fn(*const c_char) -> AclError,
    /// `aclError aclFinalize()`.
    pub finalize: unsafe extern "C" fn() -> AclError,
    /// `aclError aclrtSetDevice(int32_t deviceId)`.
    pub set_device: unsafe extern "C" fn(i32) -> AclError,
    /// `aclError aclrtResetDevice(int32_t deviceId)`.
    pub reset_device: unsafe extern "C" fn(i32) -> AclError,
    /// `aclError aclrtCreateStream(aclrtStream *stream)`.
    pub create_stream: unsafe extern "C" fn(*mut Handle) -> AclError,
    /// `aclError aclrtDestroyStream(aclrtStream stream)`.
    pub destroy_stream: unsafe extern "C" fn(Handle) -> AclError,
    /// `aclError aclrtSynchronizeStream(aclrtStream stream)`.
    pub synchronize_stream: unsafe extern "C" fn(Handle) -> AclError,
    /// `aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy)`.
    pub malloc: unsafe extern "C" fn(*mut Handle, usize, c_int) -> AclError,
    /// `aclError aclrtFree(void *devPtr)`.
    pub free: unsafe extern "C" fn(Handle) -> AclError,
    /// `aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
    /// aclrtMemcpyKind kind)`.
    pub memcpy: unsafe extern "C" fn(Handle, usize, *const c_void, usize, c_int) -> AclError,
    /// `aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count,
    /// aclrtStream stream)`.
    pub memset_async: unsafe extern "C" fn(Handle, usize, i32, usize, Handle) -> AclError,
    /// `const char *aclGetRecentErrMsg()`: optional (added in CANN 6); only used to enrich
    /// error messages.
    pub recent_err_msg: Option<unsafe extern "C" fn() -> *const c_char>,
    /// `const char *aclrtGetSocName()`: optional; the chip picks per-target kernel entries
    /// (`crate::contracts::target_for_soc`).
    pub soc_name: Option<unsafe extern "C" fn() -> *const c_char>,
    /// `aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum,
    /// aclDataType dataType, const int64_t *stride, int64_t offset, aclFormat format,
    /// const int64_t *storageDims, uint64_t storageDimsNum, void *tensorData)`.
    pub create_tensor: unsafe extern "C" fn(
        *const i64,
        u64,
        c_int,
        *const i64,
        i64,
        c_int,
        *const i64,
        u64,
        Handle,
    ) -> Handle,
    /// `aclnnStatus aclDestroyTensor(const aclTensor *tensor)`.
    pub destroy_tensor: unsafe extern "C" fn(Handle) -> AclnnStatus,
    /// `aclScalar *aclCreateScalar(void *value, aclDataType dataType)`.
    pub create_scalar: unsafe extern "C" fn(*mut c_void, c_int) -> Handle,
    /// `aclnnStatus aclDestroyScalar(const aclScalar *scalar)`.
    pub destroy_scalar: unsafe extern "C" fn(Handle) -> AclnnStatus,
    /// `aclIntArray *aclCreateIntArray(const int64_t *value, uint64_t size)`.
    pub create_int_array: unsafe extern "C" fn(*const i64, u64) -> Handle,
    /// `aclnnStatus aclDestroyIntArray(const aclIntArray *array)`.
    pub destroy_int_array: unsafe extern "C" fn(Handle) -> AclnnStatus,
    /// `aclTensorList *aclCreateTensorList(const aclTensor *const *value, uint64_t size)`.
    pub create_tensor_list: unsafe extern "C" fn(*const Handle, u64) -> Handle,
    /// `aclnnStatus aclDestroyTensorList(const aclTensorList *array)`; it destroys the
    /// tensors in the list too (documented: they must not be destroyed again).
    pub destroy_tensor_list: unsafe extern "C" fn(Handle) -> AclnnStatus,
}

/// Looks `name` up in `lib` as a function of type `T`.
///
/// # Safety
/// `T` must be the function's true C signature.
unsafe fn sym<T: Copy>(lib: &Library, file: &str, name: &str) -> Result<T, RuntimeError> {
    // SAFETY: the caller guarantees T matches the symbol's C type; the copied fn pointer
    // outlives the Symbol guard but not the library, which the backend keeps alive.
    unsafe { lib.get::<T>(name.as_bytes()) }
        .map(|s| *s)
        .map_err(|e| RuntimeError::Backend(format!("{file} has no {name}: {e}")))
}

impl Api {
    /// Resolves every function from the runtime (`acl`) and tensor (`nnopbase`) libraries.
    pub fn resolve(acl: &Library, nnopbase: &Library) -> Result<Api, RuntimeError> {
        const ACL: &str = "libascendcl.so";
        const NN: &str = "libnnopbase.so";
        // SAFETY: each type below is the prototype from the CANN headers quoted on the field.
        unsafe {
            Ok(Api {
                init: sym(acl, ACL, "aclInit")?,
                finalize: sym(acl, ACL, "aclFinalize")?,
                set_device: sym(acl, ACL, "aclrtSetDevice")?,
                reset_device: sym(acl, ACL, "aclrtResetDevice")?,
                create_stream: sym(acl, ACL, "aclrtCreateStream")?,
                destroy_stream: sym(acl, ACL, "aclrtDestroyStream")?,
                synchronize_stream: sym(acl, ACL, "aclrtSynchronizeStream")?,
                malloc: sym(acl, ACL, "aclrtMalloc")?,
                free: sym(acl, ACL, "aclrtFree")?,
                memcpy: sym(acl, ACL, "aclrtMemcpy")?,
                memset_async: sym(acl, ACL, "aclrtMemsetAsync")?,
                recent_err_msg: sym(acl, ACL, "aclGetRecentErrMsg").ok(),
                soc_name: sym(acl, ACL, "aclrtGetSocName").ok(),
                create_tensor: sym(nnopbase, NN, "aclCreateTensor")?,
                destroy_tensor: sym(nnopbase, NN, "aclDestroyTensor")?,
                create_scalar: sym(nnopbase, NN, "aclCreateScalar")?,
                destroy_scalar: sym(nnopbase, NN, "aclDestroyScalar")?,
                create_int_array: sym(nnopbase, NN, "aclCreateIntArray")?,
                destroy_int_array: sym(nnopbase, NN, "aclDestroyIntArray")?,
                create_tensor_list: sym(nnopbase, NN, "aclCreateTensorList")?,
                destroy_tensor_list: sym(nnopbase, NN, "aclDestroyTensorList")?,
            })
        }
    }

    /// The DIALECT.md target of the chip the runtime reports (`aclrtGetSocName`); the default
    /// target when the library does not say or names a chip dit has no target for.
    pub fn target(&self) -> &'static str {
        let name = self.soc_name.and_then(|f| {
            // SAFETY: aclrtGetSocName takes nothing and returns NULL or a NUL-terminated string
            // owned by the runtime; it is read at once.
            let text = unsafe { f() };
            (!text.is_null()).then(|| {
                unsafe { std::ffi::CStr::from_ptr(text) }
                    .to_string_lossy()
                    .into_owned()
            })
        });
        name.as_deref()
            .and_then(crate::contracts::target_for_soc)
            .unwrap_or(crate::kernels::DEFAULT_TARGET)
    }

    /// CANN's last error text for this thread, when the library offers it.
    pub fn recent_error(&self) -> Option<String> {
        let f = self.recent_err_msg?;
        // SAFETY: aclGetRecentErrMsg takes nothing and returns NULL or a NUL-terminated string
        // owned by the runtime, valid until the next call on this thread; it is copied at once.
        let text = unsafe { f() };
        if text.is_null() {
            return None;
        }
        // SAFETY: non-null and NUL-terminated per the API.
        let s = unsafe { std::ffi::CStr::from_ptr(text) }
            .to_string_lossy()
            .trim()
            .to_string();
        (!s.is_empty()).then_some(s)
    }

    /// Turns an `aclError` of `what` into a result, with CANN's error text when available.
    pub fn check(&self, what: &str, code: AclError) -> Result<(), RuntimeError> {
        if code == 0 {
            return Ok(());
        }
        let detail = self
            .recent_error()
            .map(|m| format!(": {m}"))
            .unwrap_or_default();
        Err(RuntimeError::Backend(format!(
            "{what} failed with code {code}{detail}"
        )))
    }
}
