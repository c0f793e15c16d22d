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

use std::{
    cell::RefCell,
    collections::{HashMap, HashSet},
    num::NonZeroUsize,
    path::Path,
    rc::Rc,
    sync::atomic::{AtomicUsize, Ordering},
};

use crate::{
    cann::CannBackend,
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
    /// permuted and padded layouts all pass; broadcasts (stride 0) fail.
    pub fn is_one_to_one(&self) -> bool {
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

/// A view: element type and layout over shared storage bytes.
struct RtTensor {
    storage: Rc<RefCell<Vec<u8>>>,
    dtype: DType,
    layout: Layout,
}

impl RtTensor {
    /// A tensor on fresh storage.
    fn owned(dtype: DType, dims: &[usize], data: Vec<u8>) -> RtTensor {
        RtTensor {
            storage: Rc::new(RefCell::new(data)),
            dtype,
            layout: Layout::contiguous(dims),
        }
    }

    fn ty(&self) -> TensorType {
        TensorType::new(self.dtype, self.layout.dims.clone())
    }

    /// The view's elements as a contiguous tensor.
    fn materialize(&self) -> Tensor {
        let dims = &self.layout.dims;
        // Sizes were checked when the view was made.
        let bytes = bytes_for(self.dtype, self.layout.numel().unwrap_or(0)).unwrap_or(0);
        let mut data = vec![0u8; bytes];
        copy_elements(
            self.dtype,
            &self.storage.borrow(),
            &self.layout,
            &mut data,
            &Layout::contiguous(dims),
        );
        Tensor {
            dtype: self.dtype,
            shape: dims.clone(),
            data,
        }
    }
}

/// Which backend runs launches.
enum Backend {
    Cpu,
    // Boxed: the backend holds CANN's function table, much larger than the other variant.
    Cann(Box<CannBackend>),
}

/// A backend with its live tensor handles.
pub struct Context {
    backend: Backend,
    tensors: HashMap<Handle, RtTensor>,
    /// What init entries pre-packed, by key (`f#k`): handles the context owns, kept until the
    /// same key is stored again or the context goes, so the per-call entries reuse them.
    packed: HashMap<String, Handle>,
    counters: Counters,
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
        }
    }

    /// A context on CANN, loaded from `dir` or else `$ASCEND_HOME_PATH` (see
    /// [`CannBackend::load`]).
    pub fn cann(dir: Option<&Path>) -> Result<Context, RuntimeError> {
        Ok(Context {
            backend: Backend::Cann(Box::new(CannBackend::load(dir)?)),
            tensors: HashMap::new(),
            packed: HashMap::new(),
            counters: Counters::default(),
        })
    }

    /// `"cpu"` or `"cann"`.
    pub fn backend_name(&self) -> &'static str {
        match self.backend {
            Backend::Cpu => "cpu",
            Backend::Cann(_) => "cann",
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
        Ok(self.insert(RtTensor::owned(t.dtype, &t.shape, t.data)))
    }

    /// A handle on a copy of the elements of `src` laid out by `layout` (which fits `src`).
    pub(crate) fn wrap_strided(&mut self, dtype: DType, src: &[u8], layout: &Layout) -> Handle {
        let bytes = bytes_for(dtype, layout.numel().unwrap_or(0)).unwrap_or(0);
        let mut data = vec![0u8; bytes];
        copy_elements(
            dtype,
            src,
            layout,
            &mut data,
            &Layout::contiguous(&layout.dims),
        );
        self.insert(RtTensor::owned(dtype, &layout.dims, data))
    }

    /// A zero-filled tensor (a launch output).
    pub fn alloc(&mut self, ty: TensorType) -> Result<Handle, RuntimeError> {
        check_rank(ty.shape.len())?;
        let bytes = size_of_type(&ty)?;
        Ok(self.insert(RtTensor::owned(ty.dtype, &ty.shape, vec![0; bytes])))
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
        Ok(self.insert(RtTensor::owned(ty.dtype, &ty.shape, data)))
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
            (Rc::new(RefCell::new(b.materialize().data)), 0)
        };
        let layout = Layout::strided(dims, strides, base_offset + offset);
        Ok(self.insert(RtTensor {
            storage,
            dtype,
            layout,
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
            (Rc::new(RefCell::new(b.materialize().data)), 0)
        };
        Ok(self.insert(RtTensor {
            storage,
            dtype,
            layout: Layout::strided(dims, &row_major_strides(dims), offset),
        }))
    }

    /// A second handle on `h`'s storage and layout (no copy).
    fn share(&mut self, h: Handle) -> Result<Handle, RuntimeError> {
        let t = self.get(h)?;
        let copy = RtTensor {
            storage: Rc::clone(&t.storage),
            dtype: t.dtype,
            layout: t.layout.clone(),
        };
        Ok(self.insert(copy))
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
    pub(crate) fn count_launch(&mut self, kernel: &str) {
        let n = kernel.split('+').count().max(1) as u64;
        self.counters.launches = self.counters.launches.saturating_add(n);
    }

    /// How many pre-packed tensors the context keeps.
    pub fn packed_tensors(&self) -> usize {
        self.packed.len()
    }

    /// Releases `h`; its storage is freed with its last view.
    pub fn release(&mut self, h: Handle) -> Result<(), RuntimeError> {
        self.get(h)?;
        self.tensors.remove(&h);
        Ok(())
    }

    /// The elements of `h` as a contiguous tensor.
    pub fn read(&self, h: Handle) -> Result<Tensor, RuntimeError> {
        Ok(self.get(h)?.materialize())
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
        copy_elements(dtype, &t.storage.borrow(), &t.layout, dst, layout);
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
        let owned: Vec<Option<Tensor>> = inputs
            .iter()
            .map(|h| h.map(|h| self.read(h)).transpose())
            .collect::<Result<_, _>>()?;
        let refs: Vec<Option<&Tensor>> = owned.iter().map(Option::as_ref).collect();

        let results = if op == "dit.fused" {
            let fused = FusedOp::parse(attrs_json)?;
            fused.check_signature(kernel, &refs, &result_types)?;
            match &self.backend {
                // With DIT_ASCENDC_KERNELS set, the generated kernel (CPU-model build) runs.
                Backend::Cpu => match crate::generated::run(&fused, &refs) {
                    Some(results) => results?,
                    None => fused.run_cpu(&refs)?,
                },
                Backend::Cann(_) => {
                    return Err(RuntimeError::Backend(format!(
                        "the CANN backend does not load generated Ascend C kernels yet ({}): build them with `dit-opt --emit=ascendc` (cmake/README.md) and run dit.fused on the CPU backend with DIT_ASCENDC_KERNELS",
                        fused.kernel
                    )))
                }
            }
        } else {
            let attrs: Attrs = serde_json::from_str(attrs_json).map_err(|e| {
                crate::contract(
                    op,
                    format!("attrs_json is not a JSON object of attributes: {e}"),
                )
            })?;
            check_kernel_name(op, kernel, &attrs, &refs)?;
            match &self.backend {
                Backend::Cpu => cpu::execute(op, &attrs, &refs, &result_types)?,
                Backend::Cann(b) => b.launch(op, &attrs, &refs, &result_types)?,
            }
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
            copy_elements(
                r.dtype,
                &r.data,
                &Layout::contiguous(&r.shape),
                &mut t.storage.borrow_mut(),
                &t.layout,
            );
        }
        Ok(())
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
/// attributes and these filled slots: a mismatch means the lowering and the runtime disagree
/// about the table. An op the table has no aclnn call for accepts any name (the CPU reference
/// runs ops that CANN cannot).
fn check_kernel_name(
    op: &str,
    kernel: &str,
    attrs: &Attrs,
    inputs: &[Option<&Tensor>],
) -> Result<(), RuntimeError> {
    if kernel.is_empty() {
        return Ok(());
    }
    let present: Vec<bool> = inputs.iter().map(Option::is_some).collect();
    let Some(spec) = kernels::select(op, attrs, &present) else {
        return Ok(());
    };
    let calls = spec.calls();
    let names: Vec<&str> = calls.iter().map(|c| c.symbol).collect();
    // A multi-call entry is named by its symbols joined with '+' (aclnnSilu+aclnnMul).
    if calls.is_empty() || names.join("+") == kernel || names.contains(&kernel) {
        return Ok(());
    }
    Err(crate::contract(
        op,
        format!(
            "the lowering names kernel {kernel}, the kernel table runs {} for these attributes \
             and operands",
            names.join(" + ")
        ),
    ))
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
}
