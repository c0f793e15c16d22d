//! Running the PDL patterns: the embedded PDL module (compiled from patterns/*.pdll by
//! build.rs) is parsed into the IR's context, the patterns of disabled switches are dropped,
//! the native functions of native.rs are registered, and MLIR's greedy driver applies the rest
//! through the PDL interpreter.

use crate::{
    fusion::FusionSwitches,
    patterns::native::{self, NativeState, Registered},
};
use dit_dialect::ir::string_ref;
use dit_dialect::ir::Op;
use mlir_sys::*;

/// The PDL form of every pattern (mlir-pdll output).
pub const PATTERNS_PDL: &str = include_str!(concat!(env!("OUT_DIR"), "/patterns.pdl.mlir"));

/// [`PATTERNS_PDL`] as MLIR bytecode (build.rs): what a run parses, several times faster than
/// the text.
const PATTERNS_PDL_BYTECODE: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/patterns.pdl.mlirbc"));

/// The switch a pattern belongs to: its name up to `__`.
pub fn switch_of(pattern: &str) -> &str {
    pattern.split("__").next().unwrap_or(pattern)
}

/// The names of every pattern in the PDL module, in order.
pub fn pattern_names() -> Vec<String> {
    PATTERNS_PDL
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pdl.pattern @"))
        .map(|rest| rest.split([' ', ':']).next().unwrap_or("").to_string())
        .collect()
}

/// Applies every pattern whose switch is on to everything under `root`. Returns an error
/// message when the embedded patterns cannot be loaded (a broken build, not user input).
pub fn apply(root: Op, switches: &FusionSwitches, state: &NativeState) -> Result<(), String> {
    // SAFETY: every handle below is created here on the IR's live context and destroyed (or
    // handed over, as MLIR's API says) before returning; `registered` outlives the run.
    unsafe {
        let context = root.context_raw();
        let module = mlirModuleCreateParse(
            context,
            MlirStringRef {
                data: PATTERNS_PDL_BYTECODE.as_ptr() as *const std::ffi::c_char,
                length: PATTERNS_PDL_BYTECODE.len(),
            },
        );
        if module.ptr.is_null() {
            return Err("the embedded PDL patterns do not parse".into());
        }
        let body = Op::from_raw(mlirModuleGetOperation(module));
        let (mut dropped, mut kept) = (Vec::new(), 0usize);
        body.walk(&mut |op| {
            if op.is("pdl.pattern") {
                let name = op
                    .attr("sym_name")
                    .and_then(|a| a.as_str())
                    .unwrap_or_default();
                if switches.is_on(switch_of(&name)) {
                    kept += 1;
                } else {
                    dropped.push(op);
                }
            }
        });
        for op in dropped {
            // Erasing is sound: pdl.pattern ops have no results; the walk that listed them is
            // over, and the module is private to this function.
            op.erase();
        }
        if kept == 0 {
            // MLIR's PDL bytecode compiler does not handle a module without patterns (it
            // crashes); with every switch off there is nothing to do.
            mlirModuleDestroy(module);
            return Ok(());
        }
        let pdl = mlirPDLPatternModuleFromModule(module);
        let registered: Vec<Box<Registered>> = native::constraints()
            .map(|(name, f)| (name, Some(*f), None))
            .chain(native::rewrites().map(|(name, f)| (name, None, Some(*f))))
            .map(|(name, constraint, rewrite)| {
                let r = Box::new(Registered {
                    state,
                    constraint,
                    rewrite,
                });
                let data = &*r as *const Registered as *mut std::ffi::c_void;
                if constraint.is_some() {
                    mlirPDLPatternModuleRegisterConstraintFunction(
                        pdl,
                        string_ref(name),
                        Some(native::constraint_trampoline),
                        data,
                    );
                } else {
                    mlirPDLPatternModuleRegisterRewriteFunction(
                        pdl,
                        string_ref(name),
                        Some(native::rewrite_trampoline),
                        data,
                    );
                }
                r
            })
            .collect();
        let set = mlirRewritePatternSetFromPDLPatternModule(pdl);
        mlirPDLPatternModuleDestroy(pdl);
        let frozen = mlirFreezeRewritePattern(set);
        let config = mlirGreedyRewriteDriverConfigCreate();
        // Patterns may rewrite what earlier rewrites produced; a fixed bound keeps a
        // pathological graph from looping.
        mlirGreedyRewriteDriverConfigSetMaxIterations(config, 16);
        // No region simplification: the patterns rewrite ops inside a block and leave no
        // blocks to merge or prune, and the driver erases the ops they leave dead itself. It
        // would walk the whole module again after every pattern family (10M of 816M
        // instructions on full FLUX.1-dev).
        mlirGreedyRewriteDriverConfigSetRegionSimplificationLevel(
            config,
            MlirGreedySimplifyRegionLevel_MLIR_GREEDY_SIMPLIFY_REGION_LEVEL_DISABLED,
        );
        // The result only says whether the driver converged within the bound; the IR is
        // valid either way and is verified after the pass.
        let _ = mlirApplyPatternsAndFoldGreedilyWithOp(root.raw(), frozen, config);
        mlirGreedyRewriteDriverConfigDestroy(config);
        mlirFrozenRewritePatternSetDestroy(frozen);
        drop(registered);
        Ok(())
    }
}
