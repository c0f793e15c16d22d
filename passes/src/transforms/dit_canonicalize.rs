//! `dit-canonicalize`: the dit ops' own folds (ODS `hasFolder`, dialects/dit/lib/DitFolds.cpp:
//! shape and type no-ops, reshape and transpose chains, concat(split(x)), zero-width concat
//! pieces) and MLIR's commutative folding (constants to the right of add/mul), run by the
//! greedy driver, with CSE and DCE, to a fixed point. Upstream `canonicalize` applies the same
//! folds; this pass adds the CSE/DCE rounds and dit's pass-context plumbing.

use crate::{
    registry::{DitPass, PassContext, PassFailed},
    transforms::dit_cse::eliminate_common_subexpressions,
    transforms::dit_dce::eliminate_dead_code,
    transforms::greedy::{self, Pattern},
};
use dit_dialect::ir::Op;
use dit_dialect::ops::OpKind;

/// The pass. `max_iterations` bounds the rounds of folds (run by the greedy driver to their
/// fixed point) followed by CSE and DCE.
pub struct Canonicalize {
    pub max_iterations: usize,
}

impl Default for Canonicalize {
    fn default() -> Self {
        Self { max_iterations: 16 }
    }
}

impl DitPass for Canonicalize {
    fn run(&mut self, module: Op, _: &PassContext) -> Result<(), PassFailed> {
        // Every fold is the ops' own: no pattern, the driver's folding only.
        let patterns: [Pattern<()>; 0] = [];
        let config = greedy::Config {
            fold: true,
            ..greedy::Config::default()
        };
        for _ in 0..self.max_iterations {
            // The driver folds until nothing folds and erases what the folds leave dead;
            // merging equal ops can make new folds apply, so the rounds repeat until CSE (and
            // the DCE of what the driver does not know to be dead) finds nothing.
            // SAFETY: the pass holds no handle into the module but `module` itself.
            unsafe { greedy::apply(module, &patterns, &(), config) };
            let changed = eliminate_common_subexpressions(module) + eliminate_dead_code(module);
            if changed == 0 {
                break;
            }
        }
        Ok(())
    }
}

/// Puts a constant operand of add/mul on the right, as MLIR's commutative folding does, for
/// dit-fuse-patterns: its PDL patterns match one operand order only, and must see it on every
/// op before the driver has visited (and folded) it. Returns whether it swapped.
pub fn constant_to_rhs(op: Op) -> bool {
    if !(op.is_kind(OpKind::Add) || op.is_kind(OpKind::Mul)) || op.num_operands() != 2 {
        return false;
    }
    let is_constant =
        |v: dit_dialect::ir::Val| v.defining_op().is_some_and(|d| d.is("arith.constant"));
    let (lhs, rhs) = (op.operand(0), op.operand(1));
    if is_constant(lhs) && !is_constant(rhs) {
        op.set_operand(0, rhs);
        op.set_operand(1, lhs);
        return true;
    }
    false
}
