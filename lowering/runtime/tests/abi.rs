//! Drives the C ABI from Rust through its `extern "C"` functions, as lowered code does: wrap,
//! alloc, views, launches on the CPU backend, copy out, release; then the error paths, which
//! must record a message and never crash.

use std::{
    ffi::{c_char, c_void, CStr},
    ptr::{null, null_mut},
};

use dit_runtime::{
    abi::{
        dit_context, dit_context_create, dit_context_destroy, dit_context_error, dit_rt_alloc,
        dit_rt_constant, dit_rt_copy_out, dit_rt_launch, dit_rt_release, dit_rt_reshape,
        dit_rt_status, dit_rt_tensor, dit_rt_view, dit_rt_wrap, dit_tensor_desc,
    },
    DType,
};

const F32: i32 = 0;
const I4: i32 = 29;

/// A context on the CPU backend, destroyed on drop.
struct Ctx(*mut dit_context);

impl Ctx {
    fn cpu() -> Ctx {
        // SAFETY: a literal C string and NULL.
        let c = unsafe { dit_context_create(c"cpu".as_ptr(), null()) };
        assert!(!c.is_null());
        Ctx(c)
    }

    fn error(&self) -> Option<String> {
        // SAFETY: a live context; the message lives as long as the context.
        let e = unsafe { dit_context_error(self.0) };
        // SAFETY: NULL or a NUL-terminated string owned by the context.
        (!e.is_null()).then(|| unsafe { CStr::from_ptr(e) }.to_string_lossy().into_owned())
    }

    fn status(&self) -> i32 {
        // SAFETY: a live context.
        unsafe { dit_rt_status(self.0) }
    }

    fn assert_ok(&self) {
        assert_eq!(self.error(), None);
        assert_eq!(self.status(), 0);
    }

    /// Asserts an error was recorded whose message contains `needle`.
    fn assert_error(&self, needle: &str) {
        let e = self.error().expect("an error was recorded");
        assert!(
            e.contains(needle),
            "error {e:?} does not mention {needle:?}"
        );
        assert_eq!(self.status(), 1);
    }

    /// Wraps contiguous f32 values.
    fn wrap_f32(&self, dims: &[i64], values: &[f32]) -> *mut dit_rt_tensor {
        let mut v = values.to_vec();
        let d = desc(F32, dims, v.as_mut_ptr().cast());
        // SAFETY: `d` describes `v`, which outlives the call (the runtime copies it).
        unsafe { dit_rt_wrap(self.0, &d) }
    }

    fn alloc(&self, dtype: i32, dims: &[i64]) -> *mut dit_rt_tensor {
        // SAFETY: `dims` holds `rank` entries.
        unsafe { dit_rt_alloc(self.0, dtype, dims.len() as i32, dims.as_ptr()) }
    }

    fn view(
        &self,
        base: *mut dit_rt_tensor,
        dims: &[i64],
        strides: &[i64],
        offset: i64,
    ) -> *mut dit_rt_tensor {
        // SAFETY: `dims` and `strides` hold `rank` entries.
        unsafe {
            dit_rt_view(
                self.0,
                base,
                F32,
                dims.len() as i32,
                dims.as_ptr(),
                strides.as_ptr(),
                offset,
            )
        }
    }

    fn launch(
        &self,
        op: &CStr,
        kernel: &CStr,
        attrs: &CStr,
        inputs: &[*mut dit_rt_tensor],
        outputs: &[*mut dit_rt_tensor],
    ) {
        // SAFETY: C strings and arrays of the given lengths.
        unsafe {
            dit_rt_launch(
                self.0,
                op.as_ptr(),
                kernel.as_ptr(),
                attrs.as_ptr(),
                inputs.as_ptr(),
                inputs.len() as i32,
                outputs.as_ptr(),
                outputs.len() as i32,
            )
        }
    }

    /// Copies an f32 tensor out contiguously.
    fn read_f32(&self, t: *mut dit_rt_tensor, dims: &[i64]) -> Vec<f32> {
        let n: i64 = dims.iter().product();
        let mut out = vec![f32::NAN; n as usize];
        let mut d = desc(F32, dims, out.as_mut_ptr().cast());
        // SAFETY: `d` describes `out`, writable and `n` elements long.
        unsafe { dit_rt_copy_out(self.0, t, &mut d) };
        out
    }

    fn release(&self, t: *mut dit_rt_tensor) {
        // SAFETY: a live context; the runtime checks the handle.
        unsafe { dit_rt_release(self.0, t) }
    }
}

impl Drop for Ctx {
    fn drop(&mut self) {
        // SAFETY: created by `dit_context_create`, destroyed once.
        unsafe { dit_context_destroy(self.0) }
    }
}

/// A row-major contiguous descriptor.
fn desc(dtype: i32, dims: &[i64], data: *mut c_void) -> dit_tensor_desc {
    let mut d = dit_tensor_desc {
        data,
        dtype,
        rank: dims.len() as i32,
        dims: [0; 8],
        strides: [0; 8],
    };
    let mut acc = 1;
    for (k, dim) in dims.iter().enumerate().rev() {
        d.dims[k] = *dim;
        d.strides[k] = acc;
        acc *= dim;
    }
    d
}

#[test]
fn descriptor_layout_matches_the_header() {
    assert_eq!(std::mem::size_of::<dit_tensor_desc>(), 144);
    assert_eq!(std::mem::offset_of!(dit_tensor_desc, dtype), 8);
    assert_eq!(std::mem::offset_of!(dit_tensor_desc, rank), 12);
    assert_eq!(std::mem::offset_of!(dit_tensor_desc, dims), 16);
    assert_eq!(std::mem::offset_of!(dit_tensor_desc, strides), 80);
    assert_eq!(DType::F32.acl_code(), F32);
    assert_eq!(DType::I4.acl_code(), I4);
}

#[test]
fn add_and_rms_norm() {
    let c = Ctx::cpu();
    let a = c.wrap_f32(&[2, 3], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let b = c.wrap_f32(&[3], &[10.0, 20.0, 30.0]);
    let sum = c.alloc(F32, &[2, 3]);
    c.launch(c"dit.add", c"aclnnAdd", c"{}", &[a, b], &[sum]);
    c.assert_ok();
    assert_eq!(
        c.read_f32(sum, &[2, 3]),
        vec![11.0, 22.0, 33.0, 14.0, 25.0, 36.0]
    );

    let gamma = c.wrap_f32(&[3], &[1.0, 2.0, 0.5]);
    let y = c.alloc(F32, &[2, 3]);
    c.launch(
        c"dit.rms_norm",
        c"aclnnRmsNorm",
        c"{\"epsilon\": 1e-6}",
        &[a, gamma],
        &[y],
    );
    c.assert_ok();
    let got = c.read_f32(y, &[2, 3]);
    for (row, x) in [[1.0f64, 2.0, 3.0], [4.0, 5.0, 6.0]].iter().enumerate() {
        let ms = x.iter().map(|v| v * v).sum::<f64>() / 3.0;
        let inv = 1.0 / (ms + 1e-6).sqrt();
        for (k, g) in [1.0, 2.0, 0.5].iter().enumerate() {
            let want = (x[k] * inv * g) as f32;
            assert!((got[row * 3 + k] - want).abs() <= 1e-6, "{got:?}");
        }
    }

    // An empty optional slot is a NULL input: layer_norm without gamma and beta.
    let z = c.alloc(F32, &[2, 3]);
    c.launch(
        c"dit.layer_norm",
        c"",
        c"{\"epsilon\": 0.0, \"operandSegmentSizes\": [1, 0, 0]}",
        &[a, null_mut(), null_mut()],
        &[z],
    );
    c.assert_ok();
    let got = c.read_f32(z, &[2, 3]);
    let s = (2.0f64 / 3.0).sqrt();
    for (g, w) in got
        .iter()
        .zip([-1.0 / s, 0.0, 1.0 / s, -1.0 / s, 0.0, 1.0 / s])
    {
        assert!((f64::from(*g) - w).abs() < 1e-5, "{got:?}");
    }
    for t in [a, b, sum, gamma, y, z] {
        c.release(t);
    }
    c.assert_ok();
}

#[test]
fn split_as_views_and_transpose_then_launch() {
    let c = Ctx::cpu();
    // x: 2x4; split along dim 1 into sizes [1, 3] = views with offset and the base's strides.
    let x = c.wrap_f32(&[2, 4], &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]);
    let left = c.view(x, &[2, 1], &[4, 1], 0);
    let right = c.view(x, &[2, 3], &[4, 1], 1);
    c.assert_ok();
    assert_eq!(c.read_f32(left, &[2, 1]), vec![0.0, 4.0]);
    assert_eq!(
        c.read_f32(right, &[2, 3]),
        vec![1.0, 2.0, 3.0, 5.0, 6.0, 7.0]
    );

    // Transpose of the (non-contiguous) right part: the runtime copies `right` first.
    let rt = c.view(right, &[3, 2], &[1, 3], 0);
    assert_eq!(c.read_f32(rt, &[3, 2]), vec![1.0, 5.0, 2.0, 6.0, 3.0, 7.0]);
    // Broadcast a row with stride 0 and add it to the transposed view.
    let row = c.wrap_f32(&[2], &[100.0, 200.0]);
    let rows = c.view(row, &[3, 2], &[0, 1], 0);
    let out = c.alloc(F32, &[3, 2]);
    c.launch(c"dit.add", c"aclnnAdd", c"{}", &[rt, rows], &[out]);
    c.assert_ok();
    assert_eq!(
        c.read_f32(out, &[3, 2]),
        vec![101.0, 205.0, 102.0, 206.0, 103.0, 207.0]
    );

    // copy_out through strides: write the transposed result back as its transpose.
    let mut buf = vec![0f32; 6];
    let mut d = desc(F32, &[3, 2], buf.as_mut_ptr().cast());
    d.strides[..2].copy_from_slice(&[1, 3]);
    // SAFETY: `d` covers `buf` (max index 2·1 + 1·3 = 5).
    unsafe { dit_rt_copy_out(c.0, out, &mut d) };
    c.assert_ok();
    assert_eq!(buf, vec![101.0, 102.0, 103.0, 205.0, 206.0, 207.0]);

    // dit.split itself, launched, agrees with the views.
    let s0 = c.alloc(F32, &[2, 1]);
    let s1 = c.alloc(F32, &[2, 3]);
    c.launch(
        c"dit.split",
        c"",
        c"{\"dim\": 1, \"sizes\": [1, 3]}",
        &[x],
        &[s0, s1],
    );
    c.assert_ok();
    assert_eq!(c.read_f32(s0, &[2, 1]), c.read_f32(left, &[2, 1]));
    assert_eq!(c.read_f32(s1, &[2, 3]), c.read_f32(right, &[2, 3]));

    // Wrap from strided caller memory (a transposed 2x3 in a column-major buffer).
    let mut cm = [1.0f32, 4.0, 2.0, 5.0, 3.0, 6.0];
    let mut d = desc(F32, &[2, 3], cm.as_mut_ptr().cast());
    d.strides[..2].copy_from_slice(&[1, 2]);
    // SAFETY: `d` covers `cm`.
    let w = unsafe { dit_rt_wrap(c.0, &d) };
    assert_eq!(c.read_f32(w, &[2, 3]), vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    for t in [x, left, right, rt, row, rows, out, s0, s1, w] {
        c.release(t);
    }
    c.assert_ok();
}

#[test]
fn reshape_constant_and_bitcast() {
    let c = Ctx::cpu();
    // A splat constant: one element's bytes.
    let two = 2.0f32.to_le_bytes();
    let dims = [2i64, 2];
    // SAFETY: `dims` has 2 entries, `two` 4 bytes.
    let k = unsafe { dit_rt_constant(c.0, F32, 2, dims.as_ptr(), two.as_ptr(), 4) };
    assert_eq!(c.read_f32(k, &[2, 2]), vec![2.0; 4]);
    // Full bytes, then a reshape (no copy) and a bitcast to i32.
    let bytes: Vec<u8> = [1.0f32, 2.0, 3.0, 4.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    // SAFETY: as above, 16 bytes.
    let f = unsafe { dit_rt_constant(c.0, F32, 2, dims.as_ptr(), bytes.as_ptr(), 16) };
    let flat = [4i64];
    // SAFETY: one dim.
    let r = unsafe { dit_rt_reshape(c.0, f, F32, 1, flat.as_ptr()) };
    assert_eq!(c.read_f32(r, &[4]), vec![1.0, 2.0, 3.0, 4.0]);
    // SAFETY: one dim.
    let bits = unsafe { dit_rt_reshape(c.0, r, 3, 1, flat.as_ptr()) };
    let mut out = [0i32; 4];
    let mut d = desc(3, &[4], out.as_mut_ptr().cast());
    // SAFETY: `d` describes `out`.
    unsafe { dit_rt_copy_out(c.0, bits, &mut d) };
    c.assert_ok();
    assert_eq!(out, [1.0f32, 2.0, 3.0, 4.0].map(|v| v.to_bits() as i32));
    // Packed i4: a splat of one nibble, then a slice at an odd offset copied out.
    let eight = [8i64];
    let seven = [7u8];
    // SAFETY: one dim, one byte.
    let q = unsafe { dit_rt_constant(c.0, I4, 1, eight.as_ptr(), seven.as_ptr(), 1) };
    let three = [3i64];
    let one = [1i64];
    // SAFETY: one dim each.
    let qs = unsafe { dit_rt_view(c.0, q, I4, 1, three.as_ptr(), one.as_ptr(), 1) };
    let mut packed = [0u8; 2];
    let mut d = desc(I4, &[3], packed.as_mut_ptr().cast());
    // SAFETY: 3 nibbles fit in 2 bytes.
    unsafe { dit_rt_copy_out(c.0, qs, &mut d) };
    c.assert_ok();
    assert_eq!(packed, [0x77, 0x07]);
    // A bitcast that changes the size in bits is an error.
    // SAFETY: one dim.
    unsafe { dit_rt_reshape(c.0, f, F32, 1, three.as_ptr()) };
    c.assert_error("changes the size in bits");
}

#[test]
fn fused_body_with_two_outputs() {
    let c = Ctx::cpu();
    let a = c.wrap_f32(&[1, 2, 2], &[1.0, 2.0, 3.0, 4.0]);
    let b = c.wrap_f32(&[1, 2, 2], &[10.0, 20.0, 30.0, 40.0]);
    let o0 = c.alloc(F32, &[1, 2, 2]);
    let o1 = c.alloc(F32, &[1, 2, 2]);
    // v2 = a·b; v3 = v2 + a; yield (v3, v2).
    let attrs = c"{\"kernel\": \"fused_f_0\", \"body\": {
        \"args\": [{\"dtype\": \"f32\", \"shape\": [1, 2, 2]}, {\"dtype\": \"f32\", \"shape\": [1, 2, 2]}],
        \"ops\": [
          {\"name\": \"dit.mul\", \"operands\": [0, 1], \"attrs\": {},
           \"results\": [{\"dtype\": \"f32\", \"shape\": [1, 2, 2]}]},
          {\"name\": \"dit.add\", \"operands\": [2, 0], \"attrs\": {},
           \"results\": [{\"dtype\": \"f32\", \"shape\": [1, 2, 2]}]}],
        \"yield\": [3, 2]}}";
    c.launch(c"dit.fused", c"fused_f_0", attrs, &[a, b], &[o0, o1]);
    c.assert_ok();
    assert_eq!(c.read_f32(o0, &[1, 2, 2]), vec![11.0, 42.0, 93.0, 164.0]);
    assert_eq!(c.read_f32(o1, &[1, 2, 2]), vec![10.0, 40.0, 90.0, 160.0]);
    // One output for two yields is an error.
    c.launch(c"dit.fused", c"fused_f_0", attrs, &[a, b], &[o0]);
    c.assert_error("2 yielded values");
}

#[test]
fn releasing_the_base_before_its_view() {
    let c = Ctx::cpu();
    let x = c.wrap_f32(&[4], &[1.0, 2.0, 3.0, 4.0]);
    let tail = c.view(x, &[2], &[1], 2);
    c.release(x);
    c.assert_ok();
    assert_eq!(c.read_f32(tail, &[2]), vec![3.0, 4.0]);
    let out = c.alloc(F32, &[2]);
    c.launch(c"dit.add", c"aclnnAdd", c"{}", &[tail, tail], &[out]);
    assert_eq!(c.read_f32(out, &[2]), vec![6.0, 8.0]);
    c.release(tail);
    c.release(out);
    c.assert_ok();
    // A second release of the same handle is an error, not a double free.
    c.release(tail);
    c.assert_error("not live");
}

#[test]
fn launch_writes_through_a_view_of_its_output() {
    let c = Ctx::cpu();
    // Outputs may be views: write two halves of a buffer with two launches.
    let buf = c.alloc(F32, &[2, 2]);
    let top = c.view(buf, &[2], &[1], 0);
    let bottom = c.view(buf, &[2], &[1], 2);
    let a = c.wrap_f32(&[2], &[1.0, 2.0]);
    c.launch(c"dit.add", c"", c"{}", &[a, a], &[top]);
    c.launch(c"dit.mul", c"", c"{}", &[a, a], &[bottom]);
    c.assert_ok();
    assert_eq!(c.read_f32(buf, &[2, 2]), vec![2.0, 4.0, 1.0, 4.0]);
    // A broadcast view cannot be an output.
    let bc = c.view(a, &[2, 2], &[0, 1], 0);
    let x = c.wrap_f32(&[2, 2], &[0.0; 4]);
    c.launch(c"dit.neg", c"", c"{}", &[x], &[bc]);
    c.assert_error("broadcast");
}

/// Runs `f` on a fresh context and checks it records an error mentioning `needle`, that the
/// context then ignores everything (sticky) and hands out non-NULL dummy handles.
fn expect_error(needle: &str, f: impl FnOnce(&Ctx)) {
    let c = Ctx::cpu();
    c.assert_ok();
    f(&c);
    c.assert_error(needle);
    let first = c.error();
    // Sticky: valid calls now do nothing and return dummies; the first message stays.
    let t = c.wrap_f32(&[2], &[1.0, 2.0]);
    assert!(!t.is_null());
    let out = c.alloc(F32, &[2]);
    assert!(!out.is_null());
    c.launch(c"dit.add", c"", c"{}", &[t, t], &[out]);
    c.release(t);
    c.release(out);
    c.release(null_mut());
    assert_eq!(c.error(), first);
}

#[test]
fn errors_are_recorded_and_sticky() {
    expect_error("unknown aclDataType code 99", |c| {
        let t = c.alloc(99, &[2]);
        assert!(!t.is_null());
    });
    expect_error("rank 9", |c| {
        c.alloc(F32, &[1; 9]);
    });
    expect_error("rank -1", |c| {
        // SAFETY: rank is checked before `dims` is read.
        unsafe { dit_rt_alloc(c.0, F32, -1, null()) };
    });
    expect_error("negative dim", |c| {
        c.alloc(F32, &[2, -3]);
    });
    expect_error("dims is NULL", |c| {
        // SAFETY: NULL dims is detected.
        unsafe { dit_rt_alloc(c.0, F32, 2, null()) };
    });
    expect_error("desc is NULL", |c| {
        // SAFETY: NULL desc is detected.
        unsafe { dit_rt_wrap(c.0, null()) };
    });
    expect_error("data is NULL", |c| {
        let d = desc(F32, &[2], null_mut());
        // SAFETY: NULL data is detected.
        unsafe { dit_rt_wrap(c.0, &d) };
    });
    expect_error("out is 3xf32, the tensor is 2xf32", |c| {
        let t = c.wrap_f32(&[2], &[1.0, 2.0]);
        c.read_f32(t, &[3]);
    });
    expect_error("unknown op 'dit.frobnicate'", |c| {
        let t = c.wrap_f32(&[2], &[1.0, 2.0]);
        let o = c.alloc(F32, &[2]);
        c.launch(c"dit.frobnicate", c"", c"{}", &[t], &[o]);
    });
    expect_error("dit_rt_launch(dit.add)", |c| {
        let t = c.wrap_f32(&[2], &[1.0, 2.0]);
        let o = c.alloc(F32, &[3]);
        c.launch(c"dit.add", c"aclnnAdd", c"{}", &[t, t], &[o]);
    });
    expect_error("kernel table runs aclnnAdd", |c| {
        let t = c.wrap_f32(&[2], &[1.0, 2.0]);
        let o = c.alloc(F32, &[2]);
        c.launch(c"dit.add", c"aclnnMul", c"{}", &[t, t], &[o]);
    });
    expect_error("not a JSON object", |c| {
        let t = c.wrap_f32(&[2], &[1.0, 2.0]);
        let o = c.alloc(F32, &[2]);
        c.launch(c"dit.add", c"", c"[1]", &[t, t], &[o]);
    });
    expect_error("output #0 is NULL", |c| {
        let t = c.wrap_f32(&[2], &[1.0, 2.0]);
        c.launch(c"dit.add", c"", c"{}", &[t, t], &[null_mut()]);
    });
    expect_error("attrs_json is NULL", |c| {
        // SAFETY: NULL strings are detected; the arrays are empty.
        unsafe {
            dit_rt_launch(
                c.0,
                c"dit.add".as_ptr(),
                c"".as_ptr(),
                null(),
                null(),
                0,
                null(),
                0,
            )
        };
    });
    expect_error("inputs is NULL", |c| {
        // SAFETY: a NULL array with a count is detected.
        unsafe {
            dit_rt_launch(
                c.0,
                c"dit.add".as_ptr(),
                c"".as_ptr(),
                c"{}".as_ptr(),
                null(),
                2,
                null(),
                0,
            )
        };
    });
    expect_error("not live", |c| {
        // A made-up handle is looked up, never dereferenced.
        c.release(0xdead_beef as *mut dit_rt_tensor);
    });
    expect_error("reach past", |c| {
        let t = c.wrap_f32(&[4], &[0.0; 4]);
        c.view(t, &[3], &[1], 2);
    });
    expect_error("takes 8 bytes (or 4 for a splat), got 5", |c| {
        let dims = [2i64];
        // SAFETY: 5 readable bytes.
        unsafe { dit_rt_constant(c.0, F32, 1, dims.as_ptr(), [0u8; 5].as_ptr(), 5) };
    });
}

#[test]
fn contexts_null_destroyed_and_misconfigured() {
    // SAFETY: NULL and destroyed contexts are detected, never dereferenced.
    unsafe {
        assert_eq!(dit_rt_status(null_mut()), 1);
        assert!(!dit_context_error(null()).is_null());
        assert!(!dit_rt_alloc(null_mut(), F32, 0, null()).is_null());
        dit_rt_release(null_mut(), null_mut());
        dit_context_destroy(null_mut());

        let c = dit_context_create(c"cpu".as_ptr(), null());
        dit_context_destroy(c);
        assert_eq!(dit_rt_status(c), 1);
        dit_context_destroy(c);

        let bad = dit_context_create(c"tpu".as_ptr(), null());
        let msg = CStr::from_ptr(dit_context_error(bad))
            .to_string_lossy()
            .into_owned();
        assert!(msg.contains("unknown backend 'tpu'"), "{msg}");
        assert!(!dit_rt_alloc(bad, F32, 0, null()).is_null());
        dit_context_destroy(bad);

        let none = dit_context_create(null(), null());
        assert_eq!(dit_rt_status(none), 1);
        dit_context_destroy(none);
    }
}

#[test]
fn cann_without_cann_names_ascend_home_path() {
    // A directory with no CANN libraries: creation returns a context in the error state.
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("abi-no-cann");
    std::fs::create_dir_all(&dir).unwrap();
    let dir = std::ffi::CString::new(dir.to_string_lossy().as_bytes()).unwrap();
    // SAFETY: C strings.
    let c = Ctx(unsafe { dit_context_create(c"cann".as_ptr(), dir.as_ptr()) });
    c.assert_error("ASCEND_HOME_PATH");
    let t = c.alloc(F32, &[2]);
    assert!(!t.is_null());
    c.release(t);
}

#[test]
fn handles_of_one_context_are_not_live_in_another() {
    let a = Ctx::cpu();
    let b = Ctx::cpu();
    let t = a.wrap_f32(&[1], &[1.0]);
    b.release(t);
    b.assert_error("not live");
    a.release(t);
    a.assert_ok();
}

/// Keeps `c_char` in use on every platform (it is `i8` or `u8`).
#[test]
fn c_strings_are_utf8_checked() {
    let c = Ctx::cpu();
    let bad: [c_char; 3] = [0xff_u8 as c_char, b'x' as c_char, 0];
    // SAFETY: a NUL-terminated array; the arrays are empty.
    unsafe {
        dit_rt_launch(
            c.0,
            bad.as_ptr(),
            c"".as_ptr(),
            c"{}".as_ptr(),
            null(),
            0,
            null(),
            0,
        )
    };
    c.assert_error("op is not valid UTF-8");
}
