//! Rust rewrite functions as MLIR rewrite patterns on the greedy driver, for the dit passes
//! that rewrite to a fixed point (dit-sink-transpose, dit-sink-split, dit-canonicalize).
//!
//! Each [`Pattern`] becomes an `OpRewritePattern` rooted at its op's name (from the op table)
//! through MLIR's C API; `mlirApplyPatternsAndFoldGreedilyWithOp` then runs them until nothing
//! matches. The driver owns the worklist: a rewrite changes the IR through the [`Rewriter`]
//! only, so the driver revisits what a rewrite created, modified or left dead.
//!
//! A panic must not unwind into MLIR's C++ frames: the callback catches it, every later
//! callback of the run declines, and [`apply`] resumes the panic once the driver has returned,
//! so the pass registry's barrier (mlir_registry.rs) reports it as an internal error as it
//! did before the passes ran on the driver.

use dit_dialect::{
    ir::{build_detached_op, string_ref, Attr, Op, Val},
    ops::OpKind,
};
use mlir_sys::*;
use std::any::Any;
use std::cell::{Cell, RefCell};
use std::ffi::c_void;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

/// A rewrite rooted at one op: returns true when it rewrote `op` (through the rewriter). A
/// rewrite that returns false must leave the IR as it found it: the driver would otherwise
/// revisit the ops it touched and could loop.
pub type RewriteFn<S> = fn(Op, &Rewriter, &S) -> bool;

/// One pattern: a rewrite, the op kind it is rooted at, and its benefit (of the patterns
/// rooted at the same op, the driver tries the higher benefit first).
pub struct Pattern<S> {
    /// The op the pattern is rooted at; the driver offers it only ops of this kind.
    pub root: OpKind,
    /// MLIR's pattern benefit.
    pub benefit: u16,
    /// The rewrite.
    pub rewrite: RewriteFn<S>,
}

/// How the driver runs.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Passes over the whole IR; each re-collects every op (-1: until nothing changes).
    pub max_iterations: i64,
    /// Rewrites within one pass (-1: no bound).
    pub max_rewrites: i64,
    /// Whether the driver also calls the ops' folders (ODS `hasFolder`).
    pub fold: bool,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            max_iterations: 16,
            max_rewrites: -1,
            fold: false,
        }
    }
}

/// The pattern rewriter a rewrite gets: every IR change goes through it, so the driver knows.
pub struct Rewriter(MlirRewriterBase);

impl Rewriter {
    /// Creates an op (as `build_detached_op`) right before `anchor`.
    pub fn create_before<'a>(
        &self,
        anchor: Op<'a>,
        name: &str,
        operands: &[Val<'a>],
        result_types: &[MlirType],
        attributes: &[(&str, Attr<'a>)],
    ) -> Op<'a> {
        let op = build_detached_op(anchor, name, operands, result_types, attributes);
        self.insert_before(anchor, op)
    }

    /// Inserts the detached `op` right before `anchor`; returns it.
    ///
    /// Panics, inserting nothing, unless `anchor` is in a block and `op` in none: MLIR would
    /// take a null insertion block, or link an op into two blocks.
    pub fn insert_before<'a>(&self, anchor: Op<'a>, op: Op<'a>) -> Op<'a> {
        expect_insertable(anchor, op);
        // SAFETY: the anchor is alive and in a block; the op is alive and unowned (both
        // checked above), the rewriter inserts it and the block owns it from then on.
        unsafe {
            mlirRewriterBaseSetInsertionPointBefore(self.0, anchor.raw());
            Op::from_raw(mlirRewriterBaseInsert(self.0, op.raw()))
        }
    }

    /// Inserts the detached `op` right after `anchor`; returns it. Panics as
    /// [`Rewriter::insert_before`] does.
    pub fn insert_after<'a>(&self, anchor: Op<'a>, op: Op<'a>) -> Op<'a> {
        expect_insertable(anchor, op);
        // SAFETY: as in insert_before.
        unsafe {
            mlirRewriterBaseSetInsertionPointAfter(self.0, anchor.raw());
            Op::from_raw(mlirRewriterBaseInsert(self.0, op.raw()))
        }
    }

    /// Changes `op` in place with `change` (operands, attributes, result types), and tells
    /// the driver it changed.
    pub fn modify(&self, op: Op, change: impl FnOnce()) {
        // SAFETY: the op is alive; start and finalize bracket the change.
        unsafe { mlirRewriterBaseStartOpModification(self.0, op.raw()) };
        change();
        // SAFETY: as above.
        unsafe { mlirRewriterBaseFinalizeOpModification(self.0, op.raw()) };
    }

    /// Sets operand `i` of `op`.
    pub fn set_operand<'a>(&self, op: Op<'a>, i: usize, value: Val<'a>) {
        self.modify(op, || op.set_operand(i, value));
    }

    /// Sets attribute `name` of `op`.
    pub fn set_attr<'a>(&self, op: Op<'a>, name: &str, attr: Attr<'a>) {
        self.modify(op, || op.set_attr(name, attr));
    }

    /// Gives result `v` of `op` a ranked tensor type of `shape` with `like`'s element type.
    pub fn set_result_type<'a>(
        &self,
        op: Op<'a>,
        v: Val<'a>,
        shape: &[Option<i64>],
        like: Val<'a>,
    ) {
        self.modify(op, || v.set_tensor_type(shape, like));
    }

    /// Replaces every use of `from` with `to`.
    pub fn replace_all_uses_with<'a>(&self, from: Val<'a>, to: Val<'a>) {
        // SAFETY: both values are alive.
        unsafe { mlirRewriterBaseReplaceAllUsesWith(self.0, from.raw(), to.raw()) }
    }

    /// Replaces every use of `from` with `to`, except the uses by `except`.
    pub fn replace_all_uses_except<'a>(&self, from: Val<'a>, to: Val<'a>, except: Op<'a>) {
        // SAFETY: all handles are alive.
        unsafe { mlirRewriterBaseReplaceAllUsesExcept(self.0, from.raw(), to.raw(), except.raw()) }
    }

    /// Erases `op` (and everything nested in it) and tells the driver, which drops it from
    /// its worklist.
    ///
    /// Panics, erasing nothing, if a result still has a use (MLIR only asserts this in its
    /// debug builds), as [`Op::erase`] does.
    ///
    /// # Safety
    /// As for [`Op::erase`]: no copy of this handle, nor of a handle to its results, regions,
    /// blocks or nested ops, is used after the call. The driver forgets the op itself; the
    /// rewrite's own handles are the caller's to drop.
    pub unsafe fn erase(&self, op: Op) {
        assert!(!op.has_uses(), "erasing an op whose results are used");
        // SAFETY: the op is alive (caller) and unused (checked above); the rewriter erases it
        // and tells the driver.
        unsafe { mlirRewriterBaseEraseOp(self.0, op.raw()) }
    }
}

/// Panics unless `anchor` is in a block and `op` in none (see [`Rewriter::insert_before`]).
fn expect_insertable(anchor: Op, op: Op) {
    assert!(
        anchor.block().is_some(),
        "inserting before or after an op that is in no block"
    );
    assert!(
        op.block().is_none(),
        "inserting an op that is already in a block"
    );
}

/// What every callback of one [`apply`] shares.
struct Run<S> {
    state: *const S,
    applied: Cell<usize>,
    panic: RefCell<Option<Box<dyn Any + Send>>>,
}

/// A pattern's user data: its rewrite and the run it belongs to.
struct Entry<S> {
    rewrite: RewriteFn<S>,
    run: *const Run<S>,
}

/// The pattern callback.
///
/// # Safety
///
/// Called by the greedy driver only, with `data` an `Entry<S>` whose run outlives the driver
/// call (the patterns are destroyed before [`apply`] returns).
unsafe extern "C" fn match_and_rewrite<S>(
    _: MlirRewritePattern,
    op: MlirOperation,
    rewriter: MlirPatternRewriter,
    data: *mut c_void,
) -> MlirLogicalResult {
    // SAFETY: guaranteed by the caller.
    let entry = unsafe { &*(data as *const Entry<S>) };
    let run = unsafe { &*entry.run };
    let failure = MlirLogicalResult { value: 0 };
    if run.panic.borrow().is_some() {
        return failure;
    }
    // SAFETY: the driver passes a live rewriter.
    let rewriter = Rewriter(unsafe { mlirPatternRewriterAsBase(rewriter) });
    // SAFETY: the state outlives the run.
    let state = unsafe { &*run.state };
    // SAFETY: the driver hands over a live op of the IR it rewrites. The rewrite is generic
    // over the handle's lifetime (`RewriteFn`), so no copy of it, nor of a handle reached from
    // it, can outlive this callback: the driver may erase the op once it returns.
    let op = unsafe { Op::from_raw(op) };
    match catch_unwind(AssertUnwindSafe(|| (entry.rewrite)(op, &rewriter, state))) {
        Ok(true) => {
            run.applied.set(run.applied.get() + 1);
            MlirLogicalResult { value: 1 }
        }
        Ok(false) => failure,
        Err(payload) => {
            *run.panic.borrow_mut() = Some(payload);
            failure
        }
    }
}

/// Frees a pattern's user data when MLIR destroys the pattern.
///
/// # Safety
///
/// `data` is the `Entry<S>` box [`apply`] leaked for this pattern, freed once.
unsafe extern "C" fn destruct<S>(data: *mut c_void) {
    // SAFETY: guaranteed by the caller.
    drop(unsafe { Box::from_raw(data as *mut Entry<S>) });
}

/// Runs `patterns` on the regions of `root` with the greedy driver until none applies (or
/// the bounds of `config` are hit); returns how many rewrites applied.
///
/// # Safety
/// The driver erases and replaces ops nested in `root` (through the patterns, and the dead
/// ops it meets): no handle into `root`'s regions (an op, value or block nested in it) taken
/// before the call is used after it. `root` itself stays valid.
///
/// The driver visits ops top-down (in program order, as the passes' own loops did), does not
/// simplify regions (blocks and block arguments of dit.fused bodies stay as they are) and
/// does not hoist or merge constants. Like every greedy driver run it erases ops that are
/// trivially dead (no uses, no memory effects) when it meets them.
pub unsafe fn apply<S>(root: Op, patterns: &[Pattern<S>], state: &S, config: Config) -> usize {
    let run = Run {
        state: state as *const S,
        applied: Cell::new(0),
        panic: RefCell::new(None),
    };
    // SAFETY: every handle is created here from the live context of `root` and destroyed
    // before returning; each pattern owns its leaked `Entry` (freed by `destruct`), whose
    // pointer to `run` stays valid because the frozen set is destroyed before `run` is.
    unsafe {
        let context = root.context_raw();
        let set = mlirRewritePatternSetCreate(context);
        for p in patterns {
            let entry = Box::into_raw(Box::new(Entry {
                rewrite: p.rewrite,
                run: &run as *const Run<S>,
            }));
            let callbacks = MlirRewritePatternCallbacks {
                construct: None,
                destruct: Some(destruct::<S>),
                matchAndRewrite: Some(match_and_rewrite::<S>),
            };
            let pattern = mlirOpRewritePatternCreate(
                string_ref(p.root.name()),
                u32::from(p.benefit),
                context,
                callbacks,
                entry as *mut c_void,
                0,
                std::ptr::null_mut(),
            );
            mlirRewritePatternSetAdd(set, pattern);
        }
        let frozen = mlirFreezeRewritePattern(set);
        let driver = mlirGreedyRewriteDriverConfigCreate();
        mlirGreedyRewriteDriverConfigSetMaxIterations(driver, config.max_iterations);
        mlirGreedyRewriteDriverConfigSetMaxNumRewrites(driver, config.max_rewrites);
        mlirGreedyRewriteDriverConfigSetUseTopDownTraversal(driver, true);
        mlirGreedyRewriteDriverConfigEnableFolding(driver, config.fold);
        mlirGreedyRewriteDriverConfigEnableConstantCSE(driver, false);
        mlirGreedyRewriteDriverConfigSetRegionSimplificationLevel(
            driver,
            MlirGreedySimplifyRegionLevel_MLIR_GREEDY_SIMPLIFY_REGION_LEVEL_DISABLED,
        );
        // The result only says whether the driver converged within the bounds; the IR is
        // valid either way and is verified after the pass.
        let _ = mlirApplyPatternsAndFoldGreedilyWithOp(root.raw(), frozen, driver);
        mlirGreedyRewriteDriverConfigDestroy(driver);
        mlirFrozenRewritePatternSetDestroy(frozen);
    }
    if let Some(payload) = run.panic.into_inner() {
        resume_unwind(payload);
    }
    run.applied.get()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r#"func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %a = "dit.exp"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %b = "dit.exp"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = "dit.neg"(%b) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}"#;

    /// Replaces exp(x) by x (wrong arithmetic, but a rewrite the driver must see through).
    fn drop_exp(op: Op, rewriter: &Rewriter, seen: &Cell<usize>) -> bool {
        seen.set(seen.get() + 1);
        if !op.result(0).has_uses() {
            return false;
        }
        rewriter.replace_all_uses_with(op.result(0), op.operand(0));
        true
    }

    fn exp_patterns(rewrite: RewriteFn<Cell<usize>>) -> [Pattern<Cell<usize>>; 1] {
        [Pattern {
            root: OpKind::Exp,
            benefit: 1,
            rewrite,
        }]
    }

    #[test]
    fn rewrites_run_to_a_fixed_point_and_dead_ops_go() {
        let context = dit_dialect::new_context().unwrap();
        let module = dit_dialect::parse_module(&context, TEXT).unwrap();
        let root = Op::of_module(&module);
        let seen = Cell::new(0);
        // SAFETY: no handle into the module but `root` is held.
        let applied = unsafe { apply(root, &exp_patterns(drop_exp), &seen, Config::default()) };
        assert_eq!(applied, 2);
        let text = module.as_operation().to_string();
        assert!(!text.contains("dit.exp"), "{text}");
        assert!(text.contains("\"dit.neg\"(%arg0)"), "{text}");
        // Only exp ops are offered to the pattern; the ones it made dead were erased before
        // being offered again.
        assert_eq!(seen.get(), 2);
    }

    #[test]
    fn a_declining_rewrite_changes_nothing() {
        let context = dit_dialect::new_context().unwrap();
        let module = dit_dialect::parse_module(&context, TEXT).unwrap();
        let before = module.as_operation().to_string();
        let seen = Cell::new(0);
        let decline: RewriteFn<Cell<usize>> = |_, _, seen| {
            seen.set(seen.get() + 1);
            false
        };
        let root = Op::of_module(&module);
        // SAFETY: no handle into the module but `root` is held.
        let applied = unsafe { apply(root, &exp_patterns(decline), &seen, Config::default()) };
        assert_eq!(applied, 0);
        assert_eq!(seen.get(), 2);
        assert_eq!(module.as_operation().to_string(), before);
    }

    #[test]
    fn the_rewriter_refuses_to_erase_a_used_op_or_insert_an_attached_one() {
        let context = dit_dialect::new_context().unwrap();
        let module = dit_dialect::parse_module(&context, TEXT).unwrap();
        let before = module.as_operation().to_string();
        let root = Op::of_module(&module);
        let seen = Cell::new(0);
        // The first exp's result is read by the second: erasing it would leave a dangling
        // operand (MLIR's release build does not check).
        let erase_used: RewriteFn<Cell<usize>> = |op, rewriter, seen| {
            seen.set(seen.get() + 1);
            // SAFETY: the op is not used afterwards (the erase panics before it frees it).
            unsafe { rewriter.erase(op) };
            true
        };
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            // SAFETY: no handle into the module but `root` is held.
            unsafe { apply(root, &exp_patterns(erase_used), &seen, Config::default()) }
        }));
        let payload = outcome.expect_err("the erase panics");
        assert_eq!(
            payload.downcast_ref::<&str>(),
            Some(&"erasing an op whose results are used")
        );
        assert_eq!(module.as_operation().to_string(), before);
        // An op already in a block cannot be inserted again (it would be linked twice).
        let reinsert: RewriteFn<Cell<usize>> = |op, rewriter, _| {
            let next = op.next_in_block().expect("exp is followed by another op");
            rewriter.insert_before(next, op);
            true
        };
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            // SAFETY: no handle into the module but `root` is held.
            unsafe { apply(root, &exp_patterns(reinsert), &seen, Config::default()) }
        }));
        let payload = outcome.expect_err("the insert panics");
        assert_eq!(
            payload.downcast_ref::<&str>(),
            Some(&"inserting an op that is already in a block")
        );
        assert_eq!(module.as_operation().to_string(), before);
    }

    #[test]
    fn a_panic_in_a_rewrite_comes_back_after_the_driver_returns() {
        let context = dit_dialect::new_context().unwrap();
        let module = dit_dialect::parse_module(&context, TEXT).unwrap();
        let root = Op::of_module(&module);
        let seen = Cell::new(0);
        let boom: RewriteFn<Cell<usize>> = |_, _, seen| {
            seen.set(seen.get() + 1);
            panic!("boom");
        };
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            // SAFETY: no handle into the module but `root` is held.
            unsafe { apply(root, &exp_patterns(boom), &seen, Config::default()) }
        }));
        let payload = outcome.expect_err("the panic is resumed");
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"boom"));
        // After the first panic no rewrite runs again in that driver call.
        assert_eq!(seen.get(), 1);
        // SAFETY: the module is alive.
        assert!(unsafe { mlirOperationVerify(root.raw()) });
    }
}
