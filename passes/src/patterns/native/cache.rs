//! Natives of the KV-cache pattern (patterns/cache.pdll): aclnnKvRmsNormRopeCache's MLA
//! contract.

use super::*;
use dit_dialect::ops::OpKind;

/// The normalised and rotated widths of the MLA kv (DIALECT.md: 576 = 512 + 64).
const NORM_WIDTH: i64 = 512;
const ROPE_WIDTH: i64 = 64;

/// Whether `op` is a step-2 dit.slice of the last dim starting at `start` and running to its end.
fn strided_half(op: Op, start: i64) -> bool {
    let Some(t) = op.operand(0).tensor() else {
        return false;
    };
    let last = t.rank() as i64 - 1;
    op.is_kind(OpKind::Slice)
        && matches!(i64_attr(op, "dim"), Some(d) if d == -1 || d == last)
        && i64_attr(op, "start") == Some(start)
        && i64_attr(op, "step") == Some(2)
        && matches!((i64_attr(op, "end"), t.dim_from_back(0)), (Some(e), Some(d)) if e >= d)
}

/// Constraint: `NormRopeCacheFits(kv, split, even, odd, gamma, cos, sin, index, kc, root, pattern)`.
fn norm_rope_cache_fits(args: Args, state: &NativeState) -> bool {
    let v = |i: usize| args.value_at(i);
    let o = |i: usize| args.op_at(i);
    let (split, even, odd, kc, root) = (o(1), o(2), o(3), o(8), o(9));
    if !ops_are(&[
        (split, OpKind::Split),
        (even, OpKind::Slice),
        (odd, OpKind::Slice),
        (kc, OpKind::Opaque),
        (root, OpKind::Opaque),
    ]) {
        return false;
    }
    let (Some(kv), Some(gamma), Some(cos), Some(sin), Some(index)) = (v(0), v(4), v(5), v(6), v(7))
    else {
        return false;
    };
    let (Some(split), Some(even), Some(odd), Some(kc), Some(root)) = (split, even, odd, kc, root)
    else {
        return false;
    };
    // The concat takes the even elements first: that is the kernel's de-interleave.
    if !(strided_half(even, 0) && strided_half(odd, 1)) {
        return false;
    }
    let check = (|| {
        // The kernel's own product list (rule kv_rms_norm_rope_cache.targets) first; a target
        // file may also turn the kernel off.
        let attrs = contract::str_attrs(&[("cache_mode", "Norm")]);
        let operands =
            [kv, gamma, cos, sin, index, kc.operand(0), root.operand(0)].map(contract::desc);
        contract::kernel_accepts(state, OpKind::KvRmsNormRopeCache, &attrs, &operands)?;
        if !state.target.kv_rms_norm_rope_cache {
            return Err(format!(
                "target {} has no KvRmsNormRopeCache",
                state.target.name
            ));
        }
        let t = |v: Val| v.tensor().ok_or("untyped value");
        let kvt = t(kv)?;
        if !matches!(kvt.elem, Elem::F16 | Elem::BF16) || kvt.rank() != 4 || kvt.shape[1] != Some(1)
        {
            return Err("kv must be f16/bf16 [B, 1, S, 576]".to_string());
        }
        if kvt.dim_from_back(0) != Some(NORM_WIDTH + ROPE_WIDTH) {
            return Err(format!(
                "kv's last dim {} is not 576 (512 normalised + 64 rotated)",
                dim_text(kvt.dim_from_back(0))
            ));
        }
        let last = kvt.rank() as i64 - 1;
        let dim = i64_attr(split, "dim");
        if !matches!(dim, Some(d) if d == -1 || d == last)
            || i64_array_attr(split, "sizes") != Some(vec![NORM_WIDTH, ROPE_WIDTH])
        {
            return Err("kv is not split [512, 64] along its last dim".to_string());
        }
        for (name, value, width) in [
            ("gamma", gamma, NORM_WIDTH),
            ("cos", cos, ROPE_WIDTH),
            ("sin", sin, ROPE_WIDTH),
        ] {
            let vt = t(value)?;
            if vt.elem != kvt.elem || vt.dim_from_back(0) != Some(width) {
                return Err(format!("{name} must be {} with last dim {width}", kvt.elem));
            }
        }
        let it = t(index)?;
        if it.elem != Elem::I64 || it.rank() != 2 {
            return Err("index must be i64 [B, S] (cache_mode Norm)".to_string());
        }
        for (name, write, width) in [("k_cache", kc, ROPE_WIDTH), ("ckv_cache", root, NORM_WIDTH)] {
            let cache = t(write.operand(0))?;
            if !write.operand(0).same_type(write.result(0))
                || cache.rank() != 4
                || cache.shape[1] != Some(1)
                || cache.dim_from_back(0) != Some(width)
            {
                return Err(format!(
                    "{name} must be [B, 1, cache_len, {width}] and the write must return it"
                ));
            }
            if !matches!(cache.elem, Elem::F16 | Elem::BF16 | Elem::I8) {
                return Err(format!(
                    "{name} element type {} is not f16/bf16/i8",
                    cache.elem
                ));
            }
        }
        Ok(())
    })();
    fits(state, args.attr_at(10), Some(root.result(0)), check)
}

fn dim_text(d: Option<i64>) -> String {
    d.map_or("?".to_string(), |d| d.to_string())
}

/// The constraints of this topic, by the names PDLL declares.
pub const CONSTRAINTS: &[(&str, ConstraintFn)] = &[("NormRopeCacheFits", norm_rope_cache_fits)];

/// The rewrites of this topic, by the names PDLL declares.
pub const REWRITES: &[(&str, RewriteFn)] = &[];
