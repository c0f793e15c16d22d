//! The runtime state behind the C ABI, as a safe Rust API: a backend and a table of tensor
//! handles. A handle names a view (element type, dims, strides, offset) on reference-counted
//! storage, so split, slice, transpose and broadcast cost no copy until a kernel reads them.
//!
//! Handles are numbers, never addresses: the ABI hands them out cast to pointers, and a handle
//! that is stale, released twice, or from another context is then an error found by a table
//! lookup instead of memory corruption. Numbers are unique in the process and never reused.
//!
//! Storage is `Rc<RefCell<..>>`, not `Arc`: a context belongs to one thread at a time (CANN binds
//! its device to the thread that set it), so nothing here is shared across threads.
//!
//! On the CPU backend storage is host bytes. On the CANN backend it is device memory for the
//! whole life of the handle: a wrapped input or a constant is uploaded once when it is made,
//! launches read and write device memory and are queued on the stream without waiting, views
//! and reshapes share the device buffer (a non-contiguous base is copied on the device), and
//! the first read-back (copy_out, read) synchronises the stream once; [`Context::synchronize`]
//! (dit_rt_status) does when nothing was read. Released device memory is freed after the
//! stream synchronises.

use dit_ops::OpKind;
use std::{
    cell::RefCell,
    collections::{HashMap, HashSet},
    num::NonZeroUsize,
    path::Path,
    rc::Rc,
    sync::atomic::{AtomicUsize, Ordering},
};

use crate::{
    cann::{CannBackend, DevView, DeviceBuf, DeviceStats},
    cpu,
    dtype::{read_bits, write_bits},
    fused::FusedOp,
    kernels, Attrs, DType, RuntimeError, Tensor, TensorType,
};

/// The most dims a tensor may have (the C ABI's `dit_tensor_desc` holds 8).
pub const MAX_RANK: usize = 8;

/// A tensor handle of a [`Context`]: a process-unique number, never reused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Handle(NonZeroUsize);

/// The source of handle numbers, shared by every context so that a handle of one context is
/// never a live handle of another.
static NEXT_HANDLE: AtomicUsize = AtomicUsize::new(1);

impl Handle {
    /// A number no context has handed out or will hand out.
    pub fn fresh() -> Handle {
        let n = NEXT_HANDLE.fetch_add(1, Ordering::Relaxed);
        // Starts at 1 and would need 2^64 handles to wrap.
        Handle(NonZeroUsize::new(n).unwrap_or(NonZeroUsize::MIN))
    }

    /// The number, as the ABI passes it (cast to a pointer).
    pub fn get(self) -> usize {
        self.0.get()
    }

    /// The handle with number `n`; `None` for 0 (a NULL pointer).
    pub fn from_raw(n: usize) -> Option<Handle> {
        NonZeroUsize::new(n).map(Handle)
    }
}

/// Where a view's elements lie: element `(i0, .., in)` is storage element
/// `offset + Σ ik·strides[k]` (in elements of the view's type; packed 4-bit types count
/// nibbles). Strides are never negative; a stride of a dim of size 0 or 1 is stored as 0, since
/// it never moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Layout {
    pub dims: Vec<usize>,
    pub strides: Vec<usize>,
    pub offset: usize,
}

impl Layout {
    /// Row-major contiguous dims starting at element 0.
    pub fn contiguous(dims: &[usize]) -> Layout {
        Layout::strided(dims, &row_major_strides(dims), 0)
    }

    /// A layout, with the strides of size-0/1 dims cleared (see the type's doc).
    pub fn strided(dims: &[usize], strides: &[usize], offset: usize) -> Layout {
        let strides = dims
            .iter()
            .zip(strides)
            .map(|(d, s)| if *d > 1 { *s } else { 0 })
            .collect();
        Layout {
            dims: dims.to_vec(),
            strides,
            offset,
        }
    }

    /// Number of elements, `None` on overflow.
    pub fn numel(&self) -> Option<usize> {
        self.dims.iter().try_fold(1usize, |a, d| a.checked_mul(*d))
    }

    /// One past the largest storage element the layout touches (`offset` for an empty one),
    /// `None` on overflow.
    pub fn end(&self) -> Option<usize> {
        if self.numel()? == 0 {
            return Some(self.offset);
        }
        let last = self
            .dims
            .iter()
            .zip(&self.strides)
            .try_fold(self.offset, |a, (d, s)| {
                a.checked_add((d - 1).checked_mul(*s)?)
            })?;
        last.checked_add(1)
    }

    /// Row-major contiguous from `offset` (dims of size 1 do not matter).
    pub fn is_contiguous(&self) -> bool {
        let mut expected = 1usize;
        for (d, s) in self.dims.iter().zip(&self.strides).rev() {
            if *d > 1 && *s != expected {
                return false;
            }
            expected = expected.saturating_mul(*d);
        }
        true
    }

    /// No two elements share a storage element, by a sufficient test: with the dims of size > 1
    /// sorted by stride, each stride steps over everything the smaller ones reach. Row-major,
    /// permuted and padded layouts all pass; broadcasts (stride 0) fail. A view with a
    /// zero-size dim has no element, so none is shared (its row-major strides are 0 before the
    /// empty dim, which the stride test would read as a broadcast).
    pub fn is_one_to_one(&self) -> bool {
        if self.dims.contains(&0) {
            return true;
        }
        let mut dims: Vec<(usize, usize)> = self
            .dims
            .iter()
            .zip(&self.strides)
            .filter(|(d, _)| **d > 1)
            .map(|(d, s)| (*s, *d))
            .collect();
        dims.sort_unstable();
        let mut reach = 1usize;
        for (s, d) in dims {
            if s < reach {
                return false;
            }
            match (d - 1).checked_mul(s).and_then(|r| r.checked_add(reach)) {
                Some(r) => reach = r,
                None => return false,
            }
        }
        true
    }
}

/// Row-major strides of `dims`, in elements (saturating: only a layout of a huge empty tensor
/// could overflow, and its strides are never used).
pub(crate) fn row_major_strides(dims: &[usize]) -> Vec<usize> {
    let mut strides = vec![0; dims.len()];
    let mut acc = 1usize;
    for (s, d) in strides.iter_mut().zip(dims).rev() {
        *s = acc;
        acc = acc.saturating_mul(*d);
    }
    strides
}

/// Copies the elements of `src` (laid out by `src_layout`) into `dst` (by `dst_layout`). Both
/// layouts have the same dims, and the caller has checked that both fit their buffers.
pub(crate) fn copy_elements(
    dtype: DType,
    src: &[u8],
    src_layout: &Layout,
    dst: &mut [u8],
    dst_layout: &Layout,
) {
    debug_assert_eq!(src_layout.dims, dst_layout.dims);
    let numel = src_layout.numel().unwrap_or(0);
    if numel == 0 {
        return;
    }
    let bits = dtype.bits();
    if src_layout.is_contiguous() && dst_layout.is_contiguous() {
        if bits.is_multiple_of(8) {
            let n = bits / 8;
            let (s, d) = (src_layout.offset * n, dst_layout.offset * n);
            dst[d..d + numel * n].copy_from_slice(&src[s..s + numel * n]);
            return;
        }
        if src_layout.offset.is_multiple_of(2) && dst_layout.offset.is_multiple_of(2) {
            // Whole bytes, then a lone last nibble: copying its byte would overwrite the
            // neighbouring element, which may belong to another view of the storage.
            let (s, d, whole) = (src_layout.offset / 2, dst_layout.offset / 2, numel / 2);
            dst[d..d + whole].copy_from_slice(&src[s..s + whole]);
            if numel % 2 == 1 {
                let last = numel - 1;
                let b = read_bits(dtype, src, src_layout.offset + last);
                write_bits(dtype, dst, dst_layout.offset + last, b);
            }
            return;
        }
    }
    // Innermost-dim runs over an odometer of the outer dims (rank 0 is one run of one).
    let rank = src_layout.dims.len();
    let (inner, s_inner, d_inner) = match rank {
        0 => (1, 1, 1),
        _ => (
            src_layout.dims[rank - 1],
            src_layout.strides[rank - 1],
            dst_layout.strides[rank - 1],
        ),
    };
    let outer = rank.saturating_sub(1);
    let mut index = vec![0usize; outer];
    let (mut s, mut d) = (src_layout.offset, dst_layout.offset);
    loop {
        if bits.is_multiple_of(8) && s_inner == 1 && d_inner == 1 {
            let n = bits / 8;
            dst[d * n..(d + inner) * n].copy_from_slice(&src[s * n..(s + inner) * n]);
        } else if bits.is_multiple_of(8) {
            let n = bits / 8;
            for i in 0..inner {
                let (si, di) = ((s + i * s_inner) * n, (d + i * d_inner) * n);
                dst[di..di + n].copy_from_slice(&src[si..si + n]);
            }
        } else {
            for i in 0..inner {
                let b = read_bits(dtype, src, s + i * s_inner);
                write_bits(dtype, dst, d + i * d_inner, b);
            }
        }
        // Advance the odometer, last outer dim fastest.
        let mut k = outer;
        loop {
            if k == 0 {
                return;
            }
            k -= 1;
            index[k] += 1;
            s += src_layout.strides[k];
            d += dst_layout.strides[k];
            if index[k] < src_layout.dims[k] {
                break;
            }
            s -= src_layout.strides[k] * index[k];
            d -= dst_layout.strides[k] * index[k];
            index[k] = 0;
        }
    }
}

/// Bytes a buffer needs to hold storage elements `0..end` of `dtype`.
pub(crate) fn bytes_for(dtype: DType, end: usize) -> Option<usize> {
    dtype
        .checked_storage_bytes(end)
        .filter(|b| isize::try_from(*b).is_ok())
}

/// The bytes under a tensor's views: on the host (CPU backend) or on the device (CANN).
enum Storage {
    Host(Vec<u8>),
    Device(DeviceBuf),
}

impl Storage {
    /// The host bytes; device storage is read through the backend.
    fn host(&self) -> Result<&[u8], RuntimeError> {
        match self {
            Storage::Host(b) => Ok(b),
            Storage::Device(_) => fail("device storage read as host memory"),
        }
    }
}

/// A view: element type and layout over shared storage bytes.
struct RtTensor {
    storage: Rc<RefCell<Storage>>,
    dtype: DType,
    layout: Layout,
    /// The storage holds the tensor in FRACTAL_NZ order ([`Context::to_nz`]): `layout` is the
    /// logical row-major shape, and the tensor has no views.
    nz: bool,
}

impl RtTensor {
    /// A tensor on fresh storage.
    fn owned(dtype: DType, dims: &[usize], storage: Storage) -> RtTensor {
        RtTensor {
            storage: Rc::new(RefCell::new(storage)),
            dtype,
            layout: Layout::contiguous(dims),
            nz: false,
        }
    }

    fn ty(&self) -> TensorType {
        TensorType::new(self.dtype, self.layout.dims.clone())
    }

    /// The view's elements as a contiguous tensor, from host `bytes` that start at storage
    /// byte `start`.
    fn materialize_from(&self, bytes: &[u8], start: usize) -> Tensor {
        let dims = &self.layout.dims;
        if self.nz {
            return Tensor {
                dtype: self.dtype,
                shape: dims.clone(),
                data: crate::nz::from_nz(self.dtype, dims, bytes),
            };
        }
        // Sizes were checked when the view was made.
        let n = bytes_for(self.dtype, self.layout.numel().unwrap_or(0)).unwrap_or(0);
        let mut data = vec![0u8; n];
        let local = Layout {
            offset: self.layout.offset - start * 8 / self.dtype.bits(),
            ..self.layout.clone()
        };
        copy_elements(
            self.dtype,
            bytes,
            &local,
            &mut data,
            &Layout::contiguous(dims),
        );
        Tensor {
            dtype: self.dtype,
            shape: dims.clone(),
            data,
        }
    }

    /// The device view, for device storage.
    fn device(&self) -> Option<DevView> {
        match &*self.storage.borrow() {
            Storage::Device(buf) => Some(DevView {
                ptr: buf.ptr(),
                storage_bytes: buf.bytes(),
                dtype: self.dtype,
                layout: self.layout.clone(),
                nz: self.nz,
            }),
            Storage::Host(_) => None,
        }
    }

    /// The storage bytes the view touches, as `(first byte, bytes)`.
    fn span(&self) -> (usize, usize) {
        if self.nz {
            let whole = match &*self.storage.borrow() {
                Storage::Host(b) => b.len(),
                Storage::Device(buf) => buf.bytes(),
            };
            return (0, whole);
        }
        let bits = self.dtype.bits();
        let start = self.layout.offset * bits / 8;
        let end = self
            .layout
            .end()
            .and_then(|e| bytes_for(self.dtype, e))
            .unwrap_or(start);
        if self.layout.numel() == Some(0) {
            return (start, 0);
        }
        (start, end.saturating_sub(start))
    }
}

/// Which backend runs launches.
enum Backend {
    Cpu,
    // Boxed: the backend holds CANN's function table, much larger than the other variant. In
    // a RefCell: reading results back (`read`, `copy_out` take `&self`) synchronises and
    // copies through the backend.
    Cann(Box<RefCell<CannBackend>>),
}

/// A backend with its live tensor handles.
pub struct Context {
    backend: Backend,
    tensors: HashMap<Handle, RtTensor>,
    /// What init entries pre-packed, by key (`f#k`): handles the context owns, kept until the
    /// same key is stored again or the context goes, so the per-call entries reuse them.
    packed: HashMap<String, Handle>,
    counters: Counters,
    /// Host re-layouts into FRACTAL_NZ so far (counted as launches).
    nz_relayouts: u64,
}

/// What a context has done so far, as the lowered program drove it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Kernel launches: each aclnn call of a library op (`aclnnSilu+aclnnMul` is two), each
    /// generated kernel, each op the backend runs by name.
    pub launches: u64,
    /// Bytes of the tensors pre-packed so far (kept for later calls).
    pub packed_bytes: u64,
}

/// Shorthand for an error of the runtime itself (bad handle, bad layout), not of an op.
fn fail<T>(message: impl Into<String>) -> Result<T, RuntimeError> {
    Err(RuntimeError::Backend(message.into()))
}

/// `dims` as `1x2x3xbf16`, as MLIR spells tensor types.
pub(crate) fn type_string(ty: &TensorType) -> String {
    let mut s = String::new();
    for d in &ty.shape {
        s.push_str(&format!("{d}x"));
    }
    s.push_str(ty.dtype.mlir_name());
    s
}

impl Context {
    /// A context that runs every op with the CPU reference.
    pub fn cpu() -> Context {
        Context {
            backend: Backend::Cpu,
            tensors: HashMap::new(),
            packed: HashMap::new(),
            counters: Counters::default(),
            nz_relayouts: 0,
        }
    }

    /// A context on CANN, loaded from `dir` or else `$ASCEND_HOME_PATH` (see
    /// [`CannBackend::load`]).
    pub fn cann(dir: Option<&Path>) -> Result<Context, RuntimeError> {
        Self::cann_with_kernels(dir, None)
    }

    /// A context on CANN whose dit.fused launches run the generated kernels of the library at
    /// `kernels` (else `$DIT_ASCENDC_KERNELS`; see [`CannBackend::load_with_kernels`]).
    pub fn cann_with_kernels(
        dir: Option<&Path>,
        kernels: Option<&Path>,
    ) -> Result<Context, RuntimeError> {
        let backend = CannBackend::load_with_kernels(dir, kernels)?;
        Ok(Context {
            backend: Backend::Cann(Box::new(RefCell::new(backend))),
            tensors: HashMap::new(),
            packed: HashMap::new(),
            counters: Counters::default(),
            nz_relayouts: 0,
        })
    }

    /// `"cpu"` or `"cann"`.
    pub fn backend_name(&self) -> &'static str {
        match self.backend {
            Backend::Cpu => "cpu",
            Backend::Cann(_) => "cann",
        }
    }

    /// What crossed the host/device boundary on the CANN backend (`None` on the CPU).
    pub fn device_stats(&self) -> Option<DeviceStats> {
        match &self.backend {
            Backend::Cpu => None,
            Backend::Cann(b) => Some(b.borrow().stats()),
        }
    }

    /// Waits until every queued launch has run and surfaces its error (CANN: the call's one
    /// stream synchronisation, when no result was read back yet); frees released device
    /// memory. Nothing to do on the CPU.
    pub fn synchronize(&mut self) -> Result<(), RuntimeError> {
        match &self.backend {
            Backend::Cpu => Ok(()),
            Backend::Cann(b) => b.borrow_mut().synchronize(),
        }
    }

    /// Fresh contiguous storage holding `data` (on the device: one upload).
    fn store(&self, dtype: DType, dims: &[usize], data: Vec<u8>) -> Result<RtTensor, RuntimeError> {
        let storage = match &self.backend {
            Backend::Cpu => Storage::Host(data),
            Backend::Cann(b) => Storage::Device(b.borrow_mut().upload(&data)?),
        };
        Ok(RtTensor::owned(dtype, dims, storage))
    }

    /// A contiguous copy of `t`'s elements on fresh storage (a device-side copy on CANN).
    fn contiguous_copy(&self, t: &RtTensor) -> Result<Storage, RuntimeError> {
        match &self.backend {
            Backend::Cpu => Ok(Storage::Host(
                t.materialize_from(t.storage.borrow().host()?, 0).data,
            )),
            Backend::Cann(b) => {
                let view = t.device().ok_or_else(|| {
                    RuntimeError::Backend("host storage on the CANN backend".into())
                })?;
                Ok(Storage::Device(b.borrow_mut().contiguous_copy(&view)?))
            }
        }
    }

    /// How many handles are live (not yet released), the pre-packed tensors the context keeps
    /// included.
    pub fn live_tensors(&self) -> usize {
        self.tensors.len()
    }

    fn get(&self, h: Handle) -> Result<&RtTensor, RuntimeError> {
        self.tensors.get(&h).ok_or_else(|| {
            RuntimeError::Backend(format!(
                "tensor handle {:#x} is not live in this context (released, or from another \
                 context)",
                h.get()
            ))
        })
    }

    fn insert(&mut self, t: RtTensor) -> Handle {
        let h = Handle::fresh();
        self.tensors.insert(h, t);
        h
    }

    /// The element type and dims of `h`.
    pub fn tensor_type(&self, h: Handle) -> Result<TensorType, RuntimeError> {
        Ok(self.get(h)?.ty())
    }

    /// A handle on a copy of `t`.
    pub fn wrap(&mut self, t: Tensor) -> Result<Handle, RuntimeError> {
        t.validate()?;
        check_rank(t.shape.len())?;
        let t = self.store(t.dtype, &t.shape, t.data)?;
        Ok(self.insert(t))
    }

    /// A handle on a copy of the elements of `src` laid out by `layout` (which fits `src`):
    /// gathered on the host when strided, then stored (uploaded once on CANN).
    pub(crate) fn wrap_strided(
        &mut self,
        dtype: DType,
        src: &[u8],
        layout: &Layout,
    ) -> Result<Handle, RuntimeError> {
        if layout.is_contiguous() && layout.offset == 0 {
            let n = bytes_for(dtype, layout.numel().unwrap_or(0)).unwrap_or(0);
            {
                // Straight from the caller's memory: no host-side copy first.
                let storage = match &self.backend {
                    Backend::Cpu => Storage::Host(src[..n].to_vec()),
                    Backend::Cann(b) => Storage::Device(b.borrow_mut().upload(&src[..n])?),
                };
                return Ok(self.insert(RtTensor::owned(dtype, &layout.dims, storage)));
            }
        }
        let bytes = bytes_for(dtype, layout.numel().unwrap_or(0)).unwrap_or(0);
        let mut data = vec![0u8; bytes];
        copy_elements(
            dtype,
            src,
            layout,
            &mut data,
            &Layout::contiguous(&layout.dims),
        );
        let t = self.store(dtype, &layout.dims, data)?;
        Ok(self.insert(t))
    }

    /// A zero-filled tensor (a launch output).
    pub fn alloc(&mut self, ty: TensorType) -> Result<Handle, RuntimeError> {
        check_rank(ty.shape.len())?;
        let bytes = size_of_type(&ty)?;
        let storage = match &self.backend {
            Backend::Cpu => Storage::Host(vec![0; bytes]),
            Backend::Cann(b) => Storage::Device(b.borrow_mut().alloc_zeroed(bytes)?),
        };
        Ok(self.insert(RtTensor::owned(ty.dtype, &ty.shape, storage)))
    }

    /// A tensor of `bytes`: either all its storage bytes, or one element's bytes repeated to
    /// every element (a splat).
    pub fn constant(&mut self, ty: TensorType, bytes: &[u8]) -> Result<Handle, RuntimeError> {
        check_rank(ty.shape.len())?;
        let size = size_of_type(&ty)?;
        let one = ty.dtype.storage_bytes(1);
        let data = if bytes.len() == size {
            bytes.to_vec()
        } else if bytes.len() == one {
            let bits = read_bits(ty.dtype, bytes, 0);
            let mut data = vec![0u8; size];
            for i in 0..ty.numel() {
                write_bits(ty.dtype, &mut data, i, bits);
            }
            data
        } else {
            return fail(format!(
                "a {} constant takes {size} bytes (or {one} for a splat), got {}",
                type_string(&ty),
                bytes.len()
            ));
        };
        let t = self.store(ty.dtype, &ty.shape, data)?;
        Ok(self.insert(t))
    }

    /// A view on `base`: element `(i0, ..)` is element `offset + Σ ik·strides[k]` of `base` in
    /// its row-major order. No copy when `base` is contiguous; otherwise the view is taken on a
    /// contiguous copy of `base`. `dtype` must be `base`'s.
    pub fn view(
        &mut self,
        base: Handle,
        dtype: DType,
        dims: &[usize],
        strides: &[usize],
        offset: usize,
    ) -> Result<Handle, RuntimeError> {
        check_rank(dims.len())?;
        if strides.len() != dims.len() {
            return fail(format!("{} strides for {} dims", strides.len(), dims.len()));
        }
        let b = self.get(base)?;
        if dtype != b.dtype {
            return fail(format!(
                "a view of a {} tensor cannot have element type {} (use a reshape to bitcast)",
                b.dtype.mlir_name(),
                dtype.mlir_name()
            ));
        }
        if b.nz {
            return fail(format!(
                "a FRACTAL_NZ tensor ({}) has no views: only a kernel that takes NZ reads it",
                type_string(&b.ty())
            ));
        }
        let local = Layout::strided(dims, strides, offset);
        let base_numel = b.layout.numel().unwrap_or(0);
        let fits = local
            .numel()
            .is_some_and(|n| n == 0 || local.end().is_some_and(|e| e <= base_numel));
        if !fits {
            return fail(format!(
                "view dims {dims:?} strides {strides:?} offset {offset} reach past the {} \
                 elements of {}",
                base_numel,
                type_string(&b.ty())
            ));
        }
        let (storage, base_offset) = if b.layout.is_contiguous() {
            (Rc::clone(&b.storage), b.layout.offset)
        } else {
            (Rc::new(RefCell::new(self.contiguous_copy(b)?)), 0)
        };
        let layout = Layout::strided(dims, strides, base_offset + offset);
        Ok(self.insert(RtTensor {
            storage,
            dtype,
            layout,
            nz: false,
        }))
    }

    /// `base`'s elements with new dims and, for a bitcast, a new element type of the same total
    /// size in bits. No copy when `base` is contiguous (and, for a bitcast, starts on an element
    /// boundary of the new type).
    pub fn reshape(
        &mut self,
        base: Handle,
        dtype: DType,
        dims: &[usize],
    ) -> Result<Handle, RuntimeError> {
        check_rank(dims.len())?;
        let to = TensorType::new(dtype, dims.to_vec());
        size_of_type(&to)?;
        let b = self.get(base)?;
        if b.nz {
            return fail(format!(
                "a FRACTAL_NZ tensor ({}) cannot be reshaped",
                type_string(&b.ty())
            ));
        }
        let from = b.ty();
        let total_bits = |t: &TensorType| {
            t.checked_numel()
                .and_then(|n| n.checked_mul(t.dtype.bits()))
        };
        if total_bits(&from) != total_bits(&to) {
            return fail(format!(
                "reshape of {} to {} changes the size in bits",
                type_string(&from),
                type_string(&to)
            ));
        }
        if dtype != b.dtype && (dtype == DType::I1 || b.dtype == DType::I1) {
            return fail(format!(
                "reshape of {} to {}: i1 has no bit layout to reinterpret",
                type_string(&from),
                type_string(&to)
            ));
        }
        let (old_bits, new_bits) = (b.dtype.bits(), dtype.bits());
        let shareable = b.layout.is_contiguous() && (b.layout.offset * old_bits) % new_bits == 0;
        let (storage, offset) = if shareable {
            (Rc::clone(&b.storage), b.layout.offset * old_bits / new_bits)
        } else {
            // The copy has `base`'s element type; the reshape reinterprets it from element 0.
            (Rc::new(RefCell::new(self.contiguous_copy(b)?)), 0)
        };
        Ok(self.insert(RtTensor {
            storage,
            dtype,
            layout: Layout::strided(dims, &row_major_strides(dims), offset),
            nz: false,
        }))
    }

    /// A second handle on `h`'s storage and layout (no copy).
    fn share(&mut self, h: Handle) -> Result<Handle, RuntimeError> {
        let t = self.get(h)?;
        let copy = RtTensor {
            storage: Rc::clone(&t.storage),
            dtype: t.dtype,
            layout: t.layout.clone(),
            nz: t.nz,
        };
        Ok(self.insert(copy))
    }

    /// A copy of `h` re-laid into FRACTAL_NZ order (CANN's fractal format for matmul weights,
    /// see [`crate::nz`]), the init entry's re-layout of a weight whose kernel takes NZ. The
    /// tensor keeps its logical type; its storage holds the zero-padded fractals (uploaded once
    /// on CANN). The bytes are re-laid on the host: an init entry runs once, before any call.
    pub fn to_nz(&mut self, h: Handle) -> Result<Handle, RuntimeError> {
        let logical = self.read(h)?;
        let bytes = crate::nz::to_nz(logical.dtype, &logical.shape, &logical.data)
            .map_err(RuntimeError::Backend)?;
        let mut t = self.store(logical.dtype, &logical.shape, bytes)?;
        t.nz = true;
        Ok(self.insert(t))
    }

    /// Keeps `h`'s tensor under `key` for later calls (an init entry's pre-packed weight); the
    /// caller still releases `h`. Storing a key again replaces (and releases) the old tensor.
    pub fn pack_store(&mut self, key: &str, h: Handle) -> Result<(), RuntimeError> {
        let kept = self.share(h)?;
        let ty = self.tensor_type(kept)?;
        let bytes = ty.dtype.storage_bytes(ty.numel()) as u64;
        self.counters.packed_bytes = self.counters.packed_bytes.saturating_add(bytes);
        if let Some(old) = self.packed.insert(key.to_string(), kept) {
            self.tensors.remove(&old);
        }
        Ok(())
    }

    /// A new handle on the tensor stored under `key`, which the caller releases.
    pub fn pack_load(&mut self, key: &str) -> Result<Handle, RuntimeError> {
        let Some(&kept) = self.packed.get(key) else {
            let function = key.split('#').next().unwrap_or(key);
            return fail(format!(
                "no pre-packed tensor '{key}': call {function}_init on this context before \
                 {function}"
            ));
        };
        self.share(kept)
    }

    /// What the context has done so far.
    pub fn counters(&self) -> Counters {
        self.counters
    }

    /// Counts the kernels one launch of `kernel` ran (its `+`-separated aclnn calls; one for a
    /// generated kernel or an op run by name).
    ///
    /// On CANN the count is what the device ran, not what the lowering named: every aclnn
    /// operator (device copies the backend had to add included) and every generated kernel,
    /// plus the host re-layouts into FRACTAL_NZ; so a hidden launch shows up as a mismatch with
    /// the cost model (dit-run checks the two agree).
    pub(crate) fn count_launch(&mut self, kernel: &str) {
        let n = kernel.split('+').count().max(1) as u64;
        if kernel == "dit_rt_to_nz" {
            self.nz_relayouts = self.nz_relayouts.saturating_add(1);
        }
        self.counters.launches = match &self.backend {
            Backend::Cann(b) => {
                let s = b.borrow().stats();
                s.aclnn_calls
                    .saturating_add(s.generated_launches)
                    .saturating_add(self.nz_relayouts)
            }
            Backend::Cpu => self.counters.launches.saturating_add(n),
        };
    }

    /// How many pre-packed tensors the context keeps.
    pub fn packed_tensors(&self) -> usize {
        self.packed.len()
    }

    /// Releases `h`; its storage is freed with its last view (device memory: once no queued
    /// kernel may still use it).
    pub fn release(&mut self, h: Handle) -> Result<(), RuntimeError> {
        self.get(h)?;
        self.tensors.remove(&h);
        match &self.backend {
            Backend::Cpu => Ok(()),
            Backend::Cann(b) => b.borrow_mut().collect(),
        }
    }

    /// The storage bytes `t` touches on the host, as `(bytes, first byte)`: a download on
    /// CANN (after the call's one synchronisation).
    fn host_bytes(&self, t: &RtTensor) -> Result<(Vec<u8>, usize), RuntimeError> {
        let (start, n) = t.span();
        match &*t.storage.borrow() {
            Storage::Host(bytes) => Ok((bytes[start..start + n].to_vec(), start)),
            Storage::Device(buf) => match &self.backend {
                Backend::Cann(b) => Ok((b.borrow_mut().download(buf.ptr(), start, n)?, start)),
                Backend::Cpu => fail("device storage on the CPU backend"),
            },
        }
    }

    /// The elements of `h` as a contiguous tensor.
    pub fn read(&self, h: Handle) -> Result<Tensor, RuntimeError> {
        let t = self.get(h)?;
        let (bytes, start) = self.host_bytes(t)?;
        Ok(t.materialize_from(&bytes, start))
    }

    /// Writes `h`'s elements into `dst` laid out by `layout`, which has `h`'s dims, fits `dst`
    /// and is one-to-one (the ABI checks that).
    pub(crate) fn copy_out(
        &self,
        h: Handle,
        dtype: DType,
        dst: &mut [u8],
        layout: &Layout,
    ) -> Result<(), RuntimeError> {
        let t = self.get(h)?;
        if t.dtype != dtype || t.layout.dims != layout.dims {
            return fail(format!(
                "the destination is {}, the tensor is {}",
                type_string(&TensorType::new(dtype, layout.dims.clone())),
                type_string(&t.ty())
            ));
        }
        if t.nz {
            // Untiled to row-major, then written through the caller's strides.
            let logical = self.read(h)?;
            copy_elements(
                dtype,
                &logical.data,
                &Layout::contiguous(&layout.dims),
                dst,
                layout,
            );
            return Ok(());
        }
        let (bytes, start) = self.host_bytes(t)?;
        let local = Layout {
            offset: t.layout.offset - start * 8 / dtype.bits(),
            ..t.layout.clone()
        };
        copy_elements(dtype, &bytes, &local, dst, layout);
        Ok(())
    }

    /// Runs `op` on the backend: reads `inputs` (one per operand slot, `None` for an empty
    /// optional slot), and writes the results into `outputs`, whose types are the result types.
    ///
    /// `kernel` is the aclnn symbol the lowering chose (checked against the kernel table when
    /// non-empty), or for `dit.fused` the generated kernel's name; `attrs_json` is the op's
    /// attributes as a JSON object.
    pub fn launch(
        &mut self,
        op: &str,
        kernel: &str,
        attrs_json: &str,
        inputs: &[Option<Handle>],
        outputs: &[Handle],
    ) -> Result<(), RuntimeError> {
        let mut seen = HashSet::new();
        let mut result_types = Vec::with_capacity(outputs.len());
        for (i, h) in outputs.iter().enumerate() {
            let t = self.get(*h)?;
            if !seen.insert(*h) {
                return fail(format!("output #{i} is passed twice"));
            }
            if !t.layout.is_one_to_one() {
                return fail(format!(
                    "output #{i} ({}) is a broadcast or overlapping view and cannot be written",
                    type_string(&t.ty())
                ));
            }
            result_types.push(t.ty());
        }
        if let Backend::Cann(b) = &self.backend {
            let device = |h: Handle| {
                self.get(h)?
                    .device()
                    .ok_or_else(|| RuntimeError::Backend("host storage on the CANN backend".into()))
            };
            let ins: Vec<Option<DevView>> = inputs
                .iter()
                .map(|h| h.map(device).transpose())
                .collect::<Result<_, _>>()?;
            let outs: Vec<DevView> = outputs
                .iter()
                .map(|h| device(*h))
                .collect::<Result<_, _>>()?;
            let in_types: Vec<Option<TensorType>> = inputs
                .iter()
                .map(|h| h.map(|h| self.tensor_type(h)).transpose())
                .collect::<Result<_, _>>()?;
            let mut b = b.borrow_mut();
            if op == OpKind::Fused.name() {
                let fused = FusedOp::parse(attrs_json)?;
                fused.check_types(kernel, &in_types, &result_types)?;
                // check_types refused empty slots.
                let ins: Vec<DevView> = ins.into_iter().flatten().collect();
                return b.launch_fused(&fused, &ins, &outs);
            }
            let attrs: Attrs = serde_json::from_str(attrs_json).map_err(|e| {
                crate::contract(
                    op,
                    format!("attrs_json is not a JSON object of attributes: {e}"),
                )
            })?;
            let present: Vec<bool> = inputs.iter().map(Option::is_some).collect();
            let nz: Vec<bool> = ins
                .iter()
                .map(|v| v.as_ref().is_some_and(|v| v.nz))
                .collect();
            check_kernel_name(op, kernel, &attrs, &present, &nz)?;
            return b.launch_on_device(op, &attrs, &ins, &outs);
        }
        let nz: Vec<bool> = inputs
            .iter()
            .map(|h| h.map(|h| self.get(h).map(|t| t.nz)).transpose())
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .map(|n| n.unwrap_or(false))
            .collect();
        let owned: Vec<Option<Tensor>> = inputs
            .iter()
            .map(|h| h.map(|h| self.read(h)).transpose())
            .collect::<Result<_, _>>()?;
        let refs: Vec<Option<&Tensor>> = owned.iter().map(Option::as_ref).collect();

        let results = if op == OpKind::Fused.name() {
            let fused = FusedOp::parse(attrs_json)?;
            fused.check_signature(kernel, &refs, &result_types)?;
            match &self.backend {
                // With DIT_ASCENDC_KERNELS set, the generated kernel (CPU-model build) runs.
                Backend::Cpu => match crate::generated::run(&fused, &refs) {
                    Some(results) => results?,
                    None => fused.run_cpu(&refs)?,
                },
                Backend::Cann(_) => unreachable!("the CANN backend returned above"),
            }
        } else {
            let attrs: Attrs = serde_json::from_str(attrs_json).map_err(|e| {
                crate::contract(
                    op,
                    format!("attrs_json is not a JSON object of attributes: {e}"),
                )
            })?;
            let present: Vec<bool> = refs.iter().map(Option::is_some).collect();
            check_kernel_name(op, kernel, &attrs, &present, &nz)?;
            cpu::execute(op, &attrs, &refs, &result_types)?
        };
        drop(owned);

        if results.len() != outputs.len() {
            return Err(crate::contract(
                op,
                format!("{} results for {} outputs", results.len(), outputs.len()),
            ));
        }
        for (i, (r, ty)) in results.iter().zip(&result_types).enumerate() {
            if r.ty() != *ty || r.validate().is_err() {
                return Err(crate::contract(
                    op,
                    format!(
                        "result #{i} is {}, the output is {}",
                        type_string(&r.ty()),
                        type_string(ty)
                    ),
                ));
            }
        }
        for (r, h) in results.iter().zip(outputs) {
            let t = self.get(*h)?;
            let mut storage = t.storage.borrow_mut();
            let Storage::Host(bytes) = &mut *storage else {
                return fail("device storage on the CPU backend");
            };
            copy_elements(
                r.dtype,
                &r.data,
                &Layout::contiguous(&r.shape),
                bytes,
                &t.layout,
            );
        }
        Ok(())
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        // Handles first, so that their device memory is in the backend's graveyard when the
        // backend (dropped after this) synchronises and frees it.
        self.tensors.clear();
    }
}

/// Errors past [`MAX_RANK`].
fn check_rank(rank: usize) -> Result<(), RuntimeError> {
    if rank > MAX_RANK {
        return fail(format!("rank {rank} is above the maximum of {MAX_RANK}"));
    }
    Ok(())
}

/// The storage bytes of `ty`, or an error when they do not fit in memory.
fn size_of_type(ty: &TensorType) -> Result<usize, RuntimeError> {
    ty.checked_numel()
        .and_then(|n| bytes_for(ty.dtype, n))
        .ok_or_else(|| RuntimeError::Backend(format!("{} is too large", type_string(ty))))
}

/// When the lowering names a kernel, it must be one the kernel table runs for this op, these
/// attributes and these filled slots on some target (the lowering picks per target): a mismatch
/// means the lowering and the runtime disagree about the table. An op the table has no aclnn
/// call for accepts any name (the CPU reference runs ops that CANN cannot). Operands the entry
/// takes in FRACTAL_NZ must be the init entry's NZ copies, and only those.
fn check_kernel_name(
    op: &str,
    kernel: &str,
    attrs: &Attrs,
    present: &[bool],
    nz: &[bool],
) -> Result<(), RuntimeError> {
    if kernel.is_empty() {
        return Ok(());
    }
    let Some(kind) = OpKind::from_name(op) else {
        return Ok(());
    };
    let Some(spec) = kernels::select(kind, attrs, present) else {
        return Ok(());
    };
    if spec.calls().is_empty() {
        return Ok(());
    }
    let named = kernels::entry_named(kind, attrs, present, kernel).or_else(|| {
        // A multi-call entry may also be named by one of its symbols.
        spec.calls()
            .iter()
            .any(|c| c.symbol == kernel)
            .then_some(spec)
    });
    let Some(named) = named else {
        let names: Vec<&str> = spec.calls().iter().map(|c| c.symbol).collect();
        return Err(crate::contract(
            op,
            format!(
                "the lowering names kernel {kernel}, the kernel table runs {} for these \
                 attributes and operands",
                names.join(" + ")
            ),
        ));
    };
    let wants = kernels::nz_slots(named);
    for (slot, is_nz) in nz.iter().enumerate() {
        if wants.contains(&slot) != *is_nz {
            return Err(crate::contract(
                op,
                if *is_nz {
                    format!(
                        "operand {slot} is a FRACTAL_NZ tensor, but {kernel} takes it row-major"
                    )
                } else {
                    format!(
                        "{kernel} takes operand {slot} in FRACTAL_NZ: pass the init entry's NZ \
                         copy (dit_rt_to_nz), not the row-major tensor"
                    )
                },
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts() {
        let l = Layout::contiguous(&[2, 3]);
        assert_eq!(l.strides, vec![3, 1]);
        assert!(l.is_contiguous() && l.is_one_to_one());
        assert_eq!(l.end(), Some(6));
        let t = Layout::strided(&[3, 2], &[1, 3], 0);
        assert!(!t.is_contiguous() && t.is_one_to_one());
        let b = Layout::strided(&[4, 3], &[0, 1], 2);
        assert!(!b.is_one_to_one());
        assert_eq!(b.end(), Some(5));
        let unit = Layout::strided(&[1, 4], &[99, 1], 0);
        assert!(unit.is_contiguous());
        assert_eq!(Layout::strided(&[0, 4], &[4, 1], 7).end(), Some(7));
        assert!(!Layout::strided(&[2, 2], &[1, 1], 0).is_one_to_one());
        // x[..., 32:] of a [1, 24, 2, 32] tensor: no element, writable (nothing to write).
        assert!(Layout::contiguous(&[1, 24, 2, 0]).is_one_to_one());
    }

    #[test]
    fn copies_strided_and_packed() {
        // Transpose a 2x3 i32 matrix.
        let src: Vec<u8> = (0..6i32).flat_map(i32::to_le_bytes).collect();
        let mut dst = vec![0u8; 24];
        let t = Layout::strided(&[3, 2], &[1, 3], 0);
        copy_elements(DType::I32, &src, &t, &mut dst, &Layout::contiguous(&[3, 2]));
        let got: Vec<i32> = dst
            .chunks(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert_eq!(got, vec![0, 3, 1, 4, 2, 5]);
        // i4: 3 elements from nibble 1 into nibble 0; the byte past the end keeps its other
        // nibble.
        let src = [0x10u8, 0x32];
        let mut dst = [0x00u8, 0xF0];
        let l = Layout::contiguous(&[3]);
        copy_elements(
            DType::I4,
            &src,
            &Layout {
                offset: 1,
                ..l.clone()
            },
            &mut dst,
            &l,
        );
        assert_eq!(dst, [0x21, 0xF3]);
        let mut dst = [0x00u8, 0xF0];
        copy_elements(DType::I4, &[0x21, 0x03], &l, &mut dst, &l);
        assert_eq!(dst, [0x21, 0xF3]);
    }

    #[test]
    fn pre_packed_tensors_outlive_their_handles() {
        let mut c = Context::cpu();
        let t = Tensor {
            dtype: DType::I32,
            shape: vec![2],
            data: [7i32, 9].iter().flat_map(|v| v.to_le_bytes()).collect(),
        };
        let h = c.wrap(t.clone()).unwrap();
        let err = c.pack_load("f#0").unwrap_err().to_string();
        assert!(err.contains("call f_init"), "{err}");
        c.pack_store("f#0", h).unwrap();
        c.release(h).unwrap();
        let back = c.pack_load("f#0").unwrap();
        assert_eq!(c.read(back).unwrap(), t);
        c.release(back).unwrap();
        assert_eq!((c.packed_tensors(), c.live_tensors()), (1, 1));
        assert_eq!(c.counters().packed_bytes, 8);
    }

    #[test]
    fn nz_copies_read_back_and_only_nz_kernels_take_them() {
        let mut c = Context::cpu();
        let data: Vec<u8> = (0..20 * 40).map(|i| (i % 200) as u8).collect();
        let t = Tensor {
            dtype: DType::I8,
            shape: vec![20, 40],
            data,
        };
        let h = c.wrap(t.clone()).unwrap();
        let nz = c.to_nz(h).unwrap();
        assert_eq!(c.read(nz).unwrap(), t);
        assert!(c.view(nz, DType::I8, &[20], &[1], 0).is_err());
        assert!(c.reshape(nz, DType::I8, &[800]).is_err());
        // The WeightNz entry takes x2 (slot 1) in NZ: the NZ copy passes, the row-major
        // tensor does not, and a row-major kernel refuses the NZ copy.
        let attrs: Attrs = serde_json::from_str(
            r#"{"transpose_x1": false, "transpose_x2": true, "x2_format": "FRACTAL_NZ"}"#,
        )
        .unwrap();
        let present = [true, true, true, false, false, true];
        let kernel = "aclnnQuantMatmulWeightNz";
        let nz_at = |slot: usize| (0..6).map(|i| i == slot).collect::<Vec<_>>();
        check_kernel_name("dit.quant_matmul", kernel, &attrs, &present, &nz_at(1)).unwrap();
        let err = check_kernel_name("dit.quant_matmul", kernel, &attrs, &present, &nz_at(9))
            .unwrap_err()
            .to_string();
        assert!(err.contains("takes operand 1 in FRACTAL_NZ"), "{err}");
        let err = check_kernel_name("dit.exp", "aclnnExp", &Attrs::new(), &[true], &[true])
            .unwrap_err()
            .to_string();
        assert!(err.contains("takes it row-major"), "{err}");
    }
}
