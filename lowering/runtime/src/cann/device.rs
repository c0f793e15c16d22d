//! Device memory and the stream of the CANN backend, across the ops of a call: buffers that
//! stay on the device, CANN objects kept until the stream synchronises, deferred frees, the
//! one grow-only workspace, and counters of what crossed the host/device boundary.
//!
//! Kernels run asynchronously on the stream, so nothing a queued kernel may still touch is
//! given back early: a dropped [`DeviceBuf`] goes to a graveyard, and the aclTensor, aclScalar,
//! aclIntArray and aclTensorList objects (and the host memory they point at) go to
//! [`Objects`]; both are emptied when the stream has synchronised, or at once when nothing is
//! queued.

use std::{
    cell::RefCell,
    ffi::{c_void, CString},
    rc::Rc,
};

use super::ffi::{
    Api, Handle, ACL_MEMCPY_DEVICE_TO_HOST, ACL_MEMCPY_HOST_TO_DEVICE, ACL_MEM_MALLOC_HUGE_FIRST,
};
use crate::{context::Layout, DType, RuntimeError};

/// What crossed the host/device boundary and ran on the stream, since the backend loaded.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DeviceStats {
    /// Host-to-device copies (inputs and constants).
    pub uploads: u64,
    /// Bytes of those copies.
    pub upload_bytes: u64,
    /// Device-to-host copies (outputs read back).
    pub downloads: u64,
    /// Bytes of those copies.
    pub download_bytes: u64,
    /// aclrtSynchronizeStream calls.
    pub syncs: u64,
    /// Device-side copies (aclnnInplaceCopy) that made a strided view contiguous for a kernel
    /// that cannot read or write it strided, or filled an in-place result.
    pub device_copies: u64,
    /// aclnn operators run (phase two), device copies included.
    pub aclnn_calls: u64,
    /// Generated Ascend C kernels launched (dit.fused).
    pub generated_launches: u64,
    /// aclrtMalloc calls.
    pub allocations: u64,
    /// Times the workspace grew (one aclrtMalloc each).
    pub workspace_allocations: u64,
    /// Device-resident constants the backend built itself and keeps until teardown (the
    /// optimized causal attenMask of FusedInferAttentionScore's sparseMode 2, 4 MiB): 0 or 1.
    pub resident_constants: u64,
}

/// Device memory freed once no queued kernel may use it.
pub(crate) type Graveyard = Rc<RefCell<Vec<Handle>>>;

/// A device allocation. Dropping it hands it to the backend's graveyard (see the module doc).
pub struct DeviceBuf {
    ptr: Handle,
    bytes: usize,
    graveyard: Graveyard,
}

impl DeviceBuf {
    /// The device address.
    pub fn ptr(&self) -> Handle {
        self.ptr
    }

    /// Bytes usable from [`DeviceBuf::ptr`].
    pub fn bytes(&self) -> usize {
        self.bytes
    }
}

impl Drop for DeviceBuf {
    fn drop(&mut self) {
        self.graveyard.borrow_mut().push(self.ptr);
    }
}

impl std::fmt::Debug for DeviceBuf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DeviceBuf({:p}, {} bytes)", self.ptr, self.bytes)
    }
}

/// A tensor view on device memory: `layout` (in elements of `dtype`) over the `storage_bytes`
/// bytes at `ptr`. Plain data: the buffer it points into is kept alive by its owner (a context
/// handle, or a launch's temporary) for as long as the view is used.
#[derive(Debug, Clone)]
pub(crate) struct DevView {
    /// Start of the storage.
    pub ptr: Handle,
    /// Bytes of the storage.
    pub storage_bytes: usize,
    /// Element type.
    pub dtype: DType,
    /// Dims, strides and offset in the storage.
    pub layout: Layout,
    /// The storage holds the whole tensor in FRACTAL_NZ order (zero-padded fractals) rather
    /// than row-major; `layout` is then the tensor's logical row-major shape.
    pub nz: bool,
}

impl DevView {
    /// A contiguous view of all of `buf` as `dims`.
    pub fn contiguous(buf: &DeviceBuf, dtype: DType, dims: &[usize]) -> DevView {
        DevView {
            ptr: buf.ptr,
            storage_bytes: buf.bytes,
            dtype,
            layout: Layout::contiguous(dims),
            nz: false,
        }
    }

    /// Storage elements of `dtype` the buffer holds.
    pub fn storage_elements(&self) -> usize {
        self.storage_bytes * 8 / self.dtype.bits()
    }

    /// Row-major contiguous over the whole storage from element 0: what aclnn gets described
    /// exactly as the pre-residency backend described it (storage dims = view dims).
    pub fn is_whole(&self) -> bool {
        // An NZ tensor has no views: it is always its whole (padded) storage.
        self.nz
            || self.layout.offset == 0
                && self.layout.is_contiguous()
                && self.layout.numel() == Some(self.storage_elements())
    }

    /// Row-major contiguous from a byte boundary: a kernel that takes a plain pointer can be
    /// given `ptr + offset_bytes`.
    pub fn contiguous_at_byte(&self) -> Option<usize> {
        let bits = self.dtype.bits();
        (self.layout.is_contiguous() && (self.layout.offset * bits).is_multiple_of(8))
            .then(|| self.layout.offset * bits / 8)
    }
}

/// CANN objects and the host memory they (or a phase one) point at, kept until the stream
/// synchronises.
#[derive(Default)]
pub(crate) struct Objects {
    pub tensors: Vec<Handle>,
    pub lists: Vec<Handle>,
    pub scalars: Vec<Handle>,
    pub int_arrays: Vec<Handle>,
    pub strings: Vec<CString>,
    // Boxed so each value keeps its address while the vector grows.
    #[allow(clippy::vec_box)]
    pub scalar_values: Vec<Box<[u8; 8]>>,
}

impl Objects {
    /// Destroys everything, reporting the first failure.
    fn destroy(&mut self, api: &Api) -> Result<(), RuntimeError> {
        let mut first: Option<RuntimeError> = None;
        let mut note = |what: &str, code: i32| {
            if code != 0 && first.is_none() {
                first = Some(RuntimeError::Backend(format!(
                    "{what} failed with code {code}"
                )));
            }
        };
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
        self.strings.clear();
        self.scalar_values.clear();
        first.map_or(Ok(()), Err)
    }
}

/// The stream and everything queued on it.
pub(crate) struct Device {
    pub stream: Handle,
    /// Work was queued on the stream since it last synchronised.
    pub pending: bool,
    pub objects: Objects,
    graveyard: Graveyard,
    /// The one workspace buffer, grown (never shrunk) to the largest size a phase one asked.
    workspace: Option<DeviceBuf>,
    /// The causal attenMask (`kernels::causal_mask`), uploaded at its first use.
    causal_mask: Option<DeviceBuf>,
    pub stats: DeviceStats,
}

impl Device {
    pub fn new(stream: Handle) -> Device {
        Device {
            stream,
            pending: false,
            objects: Objects::default(),
            graveyard: Rc::new(RefCell::new(Vec::new())),
            workspace: None,
            causal_mask: None,
            stats: DeviceStats::default(),
        }
    }

    /// A device buffer of `bytes` (at least one byte: aclrtMalloc rejects 0), not initialised.
    pub fn alloc(&mut self, api: &Api, bytes: usize) -> Result<DeviceBuf, RuntimeError> {
        let mut ptr: Handle = std::ptr::null_mut();
        let size = bytes.max(1);
        // SAFETY: aclrtMalloc(void **devPtr, size_t size, policy) writes one pointer.
        let code = unsafe { (api.malloc)(&mut ptr, size, ACL_MEM_MALLOC_HUGE_FIRST) };
        api.check(&format!("aclrtMalloc({size})"), code)?;
        self.stats.allocations += 1;
        Ok(DeviceBuf {
            ptr,
            bytes,
            graveyard: Rc::clone(&self.graveyard),
        })
    }

    /// A zero-filled device buffer (the fill is queued on the stream).
    pub fn alloc_zeroed(&mut self, api: &Api, bytes: usize) -> Result<DeviceBuf, RuntimeError> {
        let buf = self.alloc(api, bytes)?;
        if bytes > 0 {
            self.zero(api, buf.ptr, bytes)?;
        }
        Ok(buf)
    }

    /// Queues a zero fill of `bytes` device bytes at `ptr`.
    pub fn zero(&mut self, api: &Api, ptr: Handle, bytes: usize) -> Result<(), RuntimeError> {
        // SAFETY: `ptr` is device memory of at least `bytes` bytes; the stream is live.
        let code = unsafe { (api.memset_async)(ptr, bytes, 0, bytes, self.stream) };
        self.pending = true;
        api.check("aclrtMemsetAsync", code)
    }

    /// A device copy of `data`: one host-to-device copy.
    pub fn upload(&mut self, api: &Api, data: &[u8]) -> Result<DeviceBuf, RuntimeError> {
        let buf = self.alloc(api, data.len())?;
        if !data.is_empty() {
            // SAFETY: `buf` holds data.len() device bytes, fresh (no queued kernel uses it);
            // `data` is a live host slice.
            let code = unsafe {
                (api.memcpy)(
                    buf.ptr,
                    buf.bytes,
                    data.as_ptr().cast(),
                    data.len(),
                    ACL_MEMCPY_HOST_TO_DEVICE,
                )
            };
            api.check("aclrtMemcpy host to device", code)?;
            self.stats.uploads += 1;
            self.stats.upload_bytes += data.len() as u64;
        }
        Ok(buf)
    }

    /// `len` bytes from `offset` of the device memory at `ptr`, after everything queued has
    /// run: one device-to-host copy (and the call's one synchronisation, when work is queued).
    pub fn download(
        &mut self,
        api: &Api,
        ptr: Handle,
        offset: usize,
        len: usize,
    ) -> Result<Vec<u8>, RuntimeError> {
        self.synchronize(api)?;
        let mut data = vec![0u8; len];
        if len > 0 {
            // SAFETY: the caller passes a range inside the allocation at `ptr`; `data` has
            // `len` bytes of host memory; the stream is idle.
            let code = unsafe {
                (api.memcpy)(
                    data.as_mut_ptr().cast(),
                    len,
                    ptr.cast::<u8>().add(offset).cast::<c_void>(),
                    len,
                    ACL_MEMCPY_DEVICE_TO_HOST,
                )
            };
            api.check("aclrtMemcpy device to host", code)?;
            self.stats.downloads += 1;
            self.stats.download_bytes += len as u64;
        }
        Ok(data)
    }

    /// The workspace for a phase two that asked for `bytes` (null for 0): the one buffer,
    /// grown when too small. The old buffer goes to the graveyard, since a queued kernel may
    /// still use it.
    pub fn workspace(&mut self, api: &Api, bytes: usize) -> Result<Handle, RuntimeError> {
        if bytes == 0 {
            return Ok(std::ptr::null_mut());
        }
        if self.workspace.as_ref().is_none_or(|w| w.bytes < bytes) {
            self.workspace = None;
            self.workspace = Some(self.alloc(api, bytes)?);
            self.stats.workspace_allocations += 1;
        }
        Ok(self
            .workspace
            .as_ref()
            .map_or(std::ptr::null_mut(), |w| w.ptr))
    }

    /// Waits for the stream when work is queued (the one synchronisation of a call), then
    /// releases what queued kernels held.
    pub fn synchronize(&mut self, api: &Api) -> Result<(), RuntimeError> {
        if self.pending {
            // SAFETY: the backend's live stream.
            let code = unsafe { (api.synchronize_stream)(self.stream) };
            self.pending = false;
            self.stats.syncs += 1;
            api.check("aclrtSynchronizeStream", code)?;
        }
        self.collect(api)
    }

    /// Frees the graveyard and destroys the kept objects, if nothing is queued.
    pub fn collect(&mut self, api: &Api) -> Result<(), RuntimeError> {
        if self.pending {
            return Ok(());
        }
        let objects = self.objects.destroy(api);
        let mut first = objects.err();
        let dead: Vec<Handle> = self.graveyard.borrow_mut().drain(..).collect();
        for p in dead {
            // SAFETY: allocated by aclrtMalloc, handed back once by its DeviceBuf, and no
            // queued kernel uses it (the stream is idle).
            let code = unsafe { (api.free)(p) };
            if code != 0 && first.is_none() {
                first = Some(RuntimeError::Backend(format!(
                    "aclrtFree failed with code {code}"
                )));
            }
        }
        first.map_or(Ok(()), Err)
    }

    /// The optimized causal attenMask (`kernels::causal_mask`, INT8
    /// [CAUSAL_MASK_SIDE, CAUSAL_MASK_SIDE]): one upload at its first use, then device-resident
    /// like a pre-packed weight, so a causal attention costs no per-call copy.
    pub fn causal_mask(&mut self, api: &Api) -> Result<DevView, RuntimeError> {
        let buf = match self.causal_mask.take() {
            Some(buf) => buf,
            None => {
                let buf = self.upload(api, &crate::kernels::causal_mask())?;
                self.stats.resident_constants += 1;
                buf
            }
        };
        let n = crate::kernels::CAUSAL_MASK_SIDE;
        let view = DevView::contiguous(&buf, DType::I8, &[n, n]);
        self.causal_mask = Some(buf);
        Ok(view)
    }

    /// Teardown: waits for the stream and frees everything, the workspace included.
    pub fn shutdown(&mut self, api: &Api) {
        self.workspace = None;
        self.causal_mask = None;
        // A failure cannot be reported from a drop, and the process keeps going either way.
        let _ = self.synchronize(api);
    }
}
