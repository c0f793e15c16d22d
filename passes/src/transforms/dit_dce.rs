//! Dead-code elimination inside dit's own rewrite loops (dit-canonicalize, the pattern pass, the
//! torch conversion), which run it between rewrites. The `dit-dce` pass itself is upstream
//! `remove-dead-values`.

use dit_dialect::ir::Op;
use dit_dialect::ops::OpKind;

/// Whether `op` computes values only: erasing it when unused changes nothing observable.
/// `dit.opaque` stands for any op the dialect does not model, so it may have effects.
pub fn is_side_effect_free(op: Op) -> bool {
    if op.is("arith.constant") {
        return true;
    }
    if op.is_kind(OpKind::Opaque)
        || op.is_kind(OpKind::Yield)
        || !op.name().starts_with(dit_dialect::ops::DIALECT_PREFIX)
    {
        return false;
    }
    if op.num_regions() > 0 {
        let mut pure = true;
        for block in op.region_blocks(0) {
            for inner in block.ops() {
                if !inner.is_kind(OpKind::Yield) && !is_side_effect_free(inner) {
                    pure = false;
                }
            }
        }
        return pure;
    }
    true
}

/// Erases every unused side-effect-free op under `root`; returns how many were erased.
pub fn eliminate_dead_code(root: Op) -> usize {
    let mut erased = 0;
    sweep(root, &mut erased);
    erased
}

/// Visits nested regions first, and each block from its end, so a dead chain disappears in
/// one sweep: a user is always erased before its operands' producers are looked at.
fn sweep(op: Op, erased: &mut usize) {
    for region in 0..op.num_regions() {
        for block in op.region_blocks(region) {
            for inner in block.ops().into_iter().rev() {
                sweep(inner, erased);
                if !inner.has_uses() && is_side_effect_free(inner) {
                    // SAFETY: unused and side-effect free (checked); its nested ops were swept
                    // first, and the block's list is walked from the end, so no erased op is
                    // visited again.
                    unsafe { inner.erase() };
                    *erased += 1;
                }
            }
        }
    }
}
