//! dit passes in MLIR's own pass registry, so that MLIR's pipeline parser
//! (`mlir-opt --pass-pipeline=...` with the plugin, `mlirParsePassPipeline`) can nest them
//! under any anchor and mix them with upstream passes.
//!
//! [`register_passes`] (`ditRegisterPasses()` for C, declared in dit-c/Passes.h) registers
//! one `mlir::Pass` per entry of [`PASSES`] and one pipeline per entry of [`PIPELINES`]
//! (`dit-fuse-all` runs the pass list of `dit-opt --fuse-all`). The wrapper class is C++
//! (lib/PassRegistration.cpp); everything it knows comes from the `ditRegistry*` functions
//! here, so the Rust registry stays the only table:
//! - argument, summary and options of each pass (MLIR pass options of type string, shown
//!   by `--help` and printed back by `printAsTextualPipeline`);
//! - option checks: the pass's own factory judges the values the pipeline sets, and its
//!   message becomes MLIR's pipeline error;
//! - runs: a pass is built from the options set and run on the operation MLIR hands it;
//!   passes in [`MODULE_ONLY`] are restricted to `builtin.module`, every other one runs on
//!   any op (`func.func(dit-fuse-patterns)` works on each function);
//! - names that stand for an upstream pass (`PassInfo::upstream`: `dit-cse` is `cse`) are
//!   registered as pipelines that add the upstream pass, in named pipelines too.
//!
//! Every run holds one process-wide lock: MLIR runs function-anchored passes on several
//! threads, and the Rust passes were written for one (their [`PassContext`] shares its
//! fusion report through an `Rc`). A dit pass that runs a nested pipeline with dit passes
//! on its own thread keeps the lock; one whose nested dit passes ran on MLIR's other threads
//! would wait for itself, so nested pipelines of dit passes need multithreading off. The context a pass sees is the one a caller installs
//! on its thread for its MLIR context with [`with_pass_context`] (dit-opt: target, report,
//! switches), or a default one (default target, default switches, a report nobody reads)
//! when none is (mlir-opt).

use crate::{
    analysis::report::FusionReport,
    pipeline::panic_text,
    registry::{PassContext, PassFailed, PASSES, PIPELINES},
};
use dit_dialect::{
    diagnostics::emit_error,
    ir::{string_ref, Op},
    Target,
};
use mlir_sys::{
    mlirDialectHandleInsertDialect, mlirGetDialectHandle__arith__, mlirGetDialectHandle__func__,
    mlirGetDialectHandle__linalg__, mlirGetDialectHandle__llvm__, mlirGetDialectHandle__math__,
    mlirGetDialectHandle__pdl__, mlirGetDialectHandle__pdl_interp__,
    mlirGetDialectHandle__tensor__, MlirDialectRegistry, MlirOperation, MlirStringRef,
};
use std::{
    cell::{Cell, RefCell},
    ffi::c_void,
    panic::{catch_unwind, AssertUnwindSafe},
    sync::{Mutex, OnceLock, PoisonError},
};

/// Passes that need the whole `builtin.module`; MLIR refuses to nest them under another op.
/// Every other pass works on whatever op it is given (it walks that op).
pub const MODULE_ONLY: &[&str] = &[
    // Rewrites function signatures, which only the module's pass may change.
    "dit-convert-torch-to-dit",
    // Appends function arguments and must see every call in the module.
    "dit-quantize",
    // These three replace the module's body.
    "dit-lower-to-aclnn",
    "dit-lower-fused-to-linalg",
    "dit-outline-fused",
];

extern "C" {
    /// lib/PassRegistration.cpp: registers the wrapper of every pass and pipeline, once.
    fn ditRegisterPassesWithMlir();
}

/// Registers every dit pass and named pipeline with MLIR's pass registry (of the MLIR this
/// library is linked with), and MLIR's own transform passes (`cse`, `canonicalize`), which
/// dit pipelines may name. Later calls do nothing new.
pub fn register_passes() {
    // SAFETY: registration only inserts into MLIR's global registry. The C++ side only reads
    // the tables below and is guarded by std::call_once; MLIR's transform passes (which the
    // upstream aliases such as dit-cse add) may be registered again: MLIR keeps the first.
    unsafe {
        mlir_sys::mlirRegisterTransformsPasses();
        ditRegisterPassesWithMlir();
    }
}

/// C entry point of [`register_passes`] (declared in include/dit-c/Passes.h): after it,
/// `mlirParsePassPipeline` accepts `dit-*` passes and `dit-fuse-all`.
#[no_mangle]
pub extern "C" fn ditRegisterPasses() {
    register_passes();
}

thread_local! {
    /// The contexts [`with_pass_context`] installed on this thread, innermost last, with the
    /// address of the MLIR context each is for.
    static SCOPED: RefCell<Vec<(usize, PassContext)>> = const { RefCell::new(Vec::new()) };
}

/// The MLIR contexts (addresses) that have a [`with_pass_context`] scope open, on any thread.
static OPEN_SCOPES: Mutex<Vec<usize>> = Mutex::new(Vec::new());

/// Serializes every run of a registered pass (see the module doc).
static RUN_LOCK: Mutex<()> = Mutex::new(());

thread_local! {
    /// Whether this thread holds [`RUN_LOCK`].
    static IN_RUN: Cell<bool> = const { Cell::new(false) };
}

/// Clears [`IN_RUN`] when a run ends, also when it unwinds.
struct ResetInRun;

impl Drop for ResetInRun {
    fn drop(&mut self) {
        IN_RUN.with(|r| r.set(false));
    }
}

/// Runs `f` with `context` as the context of the registered dit passes that run inside it
/// on IR of `mlir_context`, on this thread (dit-opt's target, fusion report and switches).
/// MLIR runs passes on the calling thread when the MLIR context's multithreading is off
/// (dit-opt's contexts); a registered pass on IR of `mlir_context` that runs on another
/// thread meanwhile fails with an error saying so, rather than quietly using a default
/// context and losing the report. IR of other MLIR contexts is not affected.
pub fn with_pass_context<T>(
    mlir_context: mlir_sys::MlirContext,
    context: &PassContext,
    f: impl FnOnce() -> T,
) -> T {
    /// Closes the scope, also when `f` unwinds.
    struct Close(usize);
    impl Drop for Close {
        fn drop(&mut self) {
            SCOPED.with(|s| s.borrow_mut().pop());
            let mut open = OPEN_SCOPES.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(i) = open.iter().position(|&c| c == self.0) {
                open.swap_remove(i);
            }
        }
    }
    let key = mlir_context.ptr as usize;
    OPEN_SCOPES
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(key);
    SCOPED.with(|s| s.borrow_mut().push((key, context.clone())));
    let _close = Close(key);
    f()
}

/// The context for a pass on IR of `mlir_context` running on this thread: the innermost
/// scope of this thread for that MLIR context, or the default when none is open anywhere;
/// `None` when one is open on another thread only.
fn current_context(mlir_context: mlir_sys::MlirContext) -> Option<PassContext> {
    let key = mlir_context.ptr as usize;
    let scoped = SCOPED.with(|s| {
        s.borrow()
            .iter()
            .rev()
            .find(|(k, _)| *k == key)
            .map(|(_, c)| c.clone())
    });
    if scoped.is_some() {
        return scoped;
    }
    let open = OPEN_SCOPES.lock().unwrap_or_else(PoisonError::into_inner);
    (!open.contains(&key)).then(|| PassContext {
        target: Target::default_target(),
        report: FusionReport::default(),
        switches: Default::default(),
    })
}

/// The text of a string reference MLIR hands over (valid UTF-8 or replaced).
///
/// # Safety
/// `s` must point to `length` readable bytes (or be empty).
unsafe fn text(s: &MlirStringRef) -> String {
    if s.length == 0 {
        return String::new();
    }
    // SAFETY: guaranteed by the caller.
    let bytes = unsafe { std::slice::from_raw_parts(s.data as *const u8, s.length) };
    String::from_utf8_lossy(bytes).into_owned()
}

/// The `count` (name, value) pairs at `names` / `values`.
///
/// # Safety
/// Both arrays must hold `count` valid string references (or `count` be 0).
unsafe fn option_pairs(
    names: *const MlirStringRef,
    values: *const MlirStringRef,
    count: usize,
) -> Vec<(String, String)> {
    (0..count)
        // SAFETY: guaranteed by the caller.
        .map(|i| unsafe { (text(&*names.add(i)), text(&*values.add(i))) })
        .collect()
}

/// The MLIR name of a named pipeline: `dit-` and its dit-opt flag (`dit-fuse-all`).
pub fn pipeline_argument(pipeline: usize) -> &'static str {
    static NAMES: OnceLock<Vec<String>> = OnceLock::new();
    NAMES
        .get_or_init(|| {
            PIPELINES
                .iter()
                .map(|p| format!("dit-{}", p.flag))
                .collect()
        })
        .get(pipeline)
        .map(String::as_str)
        .unwrap_or("")
}

/// Number of passes (C++ side of the registration).
#[no_mangle]
pub extern "C" fn ditRegistryPassCount() -> usize {
    PASSES.len()
}

/// The pipeline argument of a pass (`dit-fuse-patterns`).
#[no_mangle]
pub extern "C" fn ditRegistryPassArgument(pass: usize) -> MlirStringRef {
    string_ref(PASSES.get(pass).map_or("", |p| p.flag))
}

/// The one-line summary of a pass.
#[no_mangle]
pub extern "C" fn ditRegistryPassSummary(pass: usize) -> MlirStringRef {
    string_ref(PASSES.get(pass).map_or("", |p| p.summary))
}

/// The upstream pass a dit name stands for (`cse` for `dit-cse`), or empty: such a name is
/// registered as a pipeline that adds the upstream pass.
#[no_mangle]
pub extern "C" fn ditRegistryPassUpstream(pass: usize) -> MlirStringRef {
    string_ref(PASSES.get(pass).and_then(|p| p.upstream).unwrap_or(""))
}

/// Whether a pass is restricted to `builtin.module` ([`MODULE_ONLY`]).
#[no_mangle]
pub extern "C" fn ditRegistryPassModuleOnly(pass: usize) -> bool {
    PASSES
        .get(pass)
        .is_some_and(|p| MODULE_ONLY.contains(&p.flag))
}

/// Number of options of a pass.
#[no_mangle]
pub extern "C" fn ditRegistryOptionCount(pass: usize) -> usize {
    PASSES.get(pass).map_or(0, |p| (p.options)().len())
}

/// Name, help and default of option `option` of a pass (static strings).
///
/// # Safety
/// The three out-pointers must be writable.
#[no_mangle]
pub unsafe extern "C" fn ditRegistryOption(
    pass: usize,
    option: usize,
    name: *mut MlirStringRef,
    help: *mut MlirStringRef,
    default: *mut MlirStringRef,
) {
    let info = PASSES
        .get(pass)
        .and_then(|p| (p.options)().get(option).copied());
    let (n, h, d) = info.map_or(("", "", ""), |o| (o.name, o.help, o.default));
    // SAFETY: guaranteed by the caller.
    unsafe {
        *name = string_ref(n);
        *help = string_ref(h);
        *default = string_ref(d);
    }
}

/// Checks the options a pipeline sets on a pass with the pass's own factory; on failure
/// hands its message to `report` and returns false.
///
/// # Safety
/// `names` and `values` hold `count` valid string references; `report` is callable with
/// `user_data`.
#[no_mangle]
pub unsafe extern "C" fn ditRegistryCheckOptions(
    pass: usize,
    names: *const MlirStringRef,
    values: *const MlirStringRef,
    count: usize,
    report: Option<unsafe extern "C" fn(MlirStringRef, *mut c_void)>,
    user_data: *mut c_void,
) -> bool {
    // SAFETY: guaranteed by the caller.
    let options = unsafe { option_pairs(names, values, count) };
    let outcome = catch_unwind(|| match PASSES.get(pass) {
        None => Err("unknown dit pass".to_string()),
        Some(info) => (info.create)(&options).map(drop),
    });
    let message = match outcome {
        Ok(Ok(())) => return true,
        Ok(Err(message)) => message,
        Err(payload) => format!(
            "internal error while checking the options: {}",
            panic_text(payload.as_ref())
        ),
    };
    if let Some(report) = report {
        // SAFETY: guaranteed by the caller; MLIR copies the message.
        unsafe { report(string_ref(&message), user_data) };
    }
    false
}

/// Runs pass `pass` with the options set on `op`; reports problems as diagnostics at `op`
/// and returns false when the pass failed (MLIR then signals the pass failure).
///
/// # Safety
/// `op` is the live operation MLIR runs the pass on; `names` and `values` hold `count`
/// valid string references.
#[no_mangle]
pub unsafe extern "C" fn ditRegistryRunPass(
    pass: usize,
    op: MlirOperation,
    names: *const MlirStringRef,
    values: *const MlirStringRef,
    count: usize,
) -> bool {
    // SAFETY: guaranteed by the caller.
    let options = unsafe { option_pairs(names, values, count) };
    // A panic in an earlier run poisons the lock; the state it guards is `()`.
    // A pass that runs a nested pipeline with dit passes on this thread already holds it
    // (std's Mutex is not reentrant).
    let _serial = (!IN_RUN.with(Cell::get)).then(|| {
        let guard = RUN_LOCK.lock().unwrap_or_else(PoisonError::into_inner);
        IN_RUN.with(|r| r.set(true));
        (guard, ResetInRun)
    });
    let op = Op::from_raw(op);
    let Some(info) = PASSES.get(pass) else {
        emit_error(op.location(), "unknown dit pass");
        return false;
    };
    // A panic must not unwind into MLIR's C++ frames: it becomes a failed pass.
    let outcome = catch_unwind(AssertUnwindSafe(|| -> Result<(), String> {
        // SAFETY: `op` is alive (guaranteed by the caller).
        let mlir_context = unsafe { mlir_sys::mlirOperationGetContext(op.raw()) };
        let context = current_context(mlir_context).ok_or_else(|| {
            "ran on a thread without the dit pass context of this run: turn off the MLIR \
             context's multithreading while a dit pass context is set"
                .to_string()
        })?;
        let mut dit_pass = (info.create)(&options)?;
        // The result is verified by the pass manager (`--verify-each`, on by default), whose
        // verifier runs the dit rules through the dialect's hook: checking them here too would
        // verify every pass's result twice.
        match dit_pass.run(op, &context) {
            Err(PassFailed) => Err(String::new()),
            Ok(()) => Ok(()),
        }
    }));
    let message = match outcome {
        Ok(Ok(())) => return true,
        // The pass reported its own diagnostics.
        Ok(Err(message)) if message.is_empty() => return false,
        Ok(Err(message)) => format!("pass '{}' {message}", info.flag),
        Err(payload) => format!(
            "internal error in pass '{}' (please report it with the input): {}",
            info.flag,
            panic_text(payload.as_ref())
        ),
    };
    emit_error(op.location(), &message);
    false
}

/// Inserts the dialects the dit passes create or parse into `registry`: MLIR loads them
/// before a pipeline starts, as it may not load dialects while passes run on threads.
#[no_mangle]
pub extern "C" fn ditRegistryDependentDialects(registry: MlirDialectRegistry) {
    // SAFETY: the handles are static descriptors; `registry` is the live registry MLIR
    // passes to getDependentDialects.
    unsafe {
        for handle in [
            dit_dialect::context::mlirGetDialectHandle__dit__(),
            mlirGetDialectHandle__func__(),
            mlirGetDialectHandle__arith__(),
            // dit-fuse-patterns parses and runs PDL.
            mlirGetDialectHandle__pdl__(),
            mlirGetDialectHandle__pdl_interp__(),
            // dit-lower-fused-to-linalg emits these.
            mlirGetDialectHandle__linalg__(),
            mlirGetDialectHandle__tensor__(),
            mlirGetDialectHandle__math__(),
            // dit-lower-to-aclnn emits llvm dialect globals and pointers.
            mlirGetDialectHandle__llvm__(),
        ] {
            mlirDialectHandleInsertDialect(handle, registry);
        }
    }
}

/// Number of named pipelines.
#[no_mangle]
pub extern "C" fn ditRegistryPipelineCount() -> usize {
    PIPELINES.len()
}

/// The MLIR name of a named pipeline ([`pipeline_argument`]).
#[no_mangle]
pub extern "C" fn ditRegistryPipelineArgument(pipeline: usize) -> MlirStringRef {
    string_ref(pipeline_argument(pipeline))
}

/// The summary of a named pipeline.
#[no_mangle]
pub extern "C" fn ditRegistryPipelineSummary(pipeline: usize) -> MlirStringRef {
    string_ref(PIPELINES.get(pipeline).map_or("", |p| p.summary))
}

/// Number of passes in a named pipeline.
#[no_mangle]
pub extern "C" fn ditRegistryPipelineLength(pipeline: usize) -> usize {
    PIPELINES.get(pipeline).map_or(0, |p| p.passes.len())
}

/// The index in [`PASSES`] of the pass at `position` of a named pipeline (a test checks
/// every pipeline names registered passes).
#[no_mangle]
pub extern "C" fn ditRegistryPipelinePass(pipeline: usize, position: usize) -> usize {
    PIPELINES
        .get(pipeline)
        .and_then(|p| p.passes.get(position))
        .and_then(|flag| PASSES.iter().position(|p| p.flag == *flag))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::lookup;

    #[test]
    fn module_only_names_registered_passes() {
        for flag in MODULE_ONLY {
            assert!(lookup(flag).is_some(), "{flag} is not a pass");
        }
    }

    #[test]
    fn pipelines_resolve_to_their_passes() {
        for (p, pipeline) in PIPELINES.iter().enumerate() {
            assert_eq!(pipeline_argument(p), format!("dit-{}", pipeline.flag));
            // MLIR keeps passes and pipelines in one namespace.
            assert!(lookup(pipeline_argument(p)).is_none(), "{}", pipeline.flag);
            assert_eq!(ditRegistryPipelineLength(p), pipeline.passes.len());
            for (i, flag) in pipeline.passes.iter().enumerate() {
                assert_eq!(PASSES[ditRegistryPipelinePass(p, i)].flag, *flag);
            }
        }
    }

    /// Parses `pipeline` with MLIR's parser into a pass manager on `context`; `Err` holds the
    /// parser's message.
    fn parse(
        context: &melior::Context,
        pipeline: &str,
    ) -> Result<mlir_sys::MlirPassManager, String> {
        unsafe extern "C" fn collect(piece: MlirStringRef, data: *mut c_void) {
            // SAFETY: `data` is the String below; MLIR passes valid text.
            unsafe { (*(data as *mut String)).push_str(&text(&piece)) };
        }
        let mut message = String::new();
        // SAFETY: the pass manager is created on a live context; the callback's data outlives
        // the call.
        unsafe {
            let pm = mlir_sys::mlirPassManagerCreate(context.to_raw());
            let parsed = mlir_sys::mlirParsePassPipeline(
                mlir_sys::mlirPassManagerGetAsOpPassManager(pm),
                string_ref(pipeline),
                Some(collect),
                &mut message as *mut String as *mut c_void,
            );
            if parsed.value == 0 {
                mlir_sys::mlirPassManagerDestroy(pm);
                return Err(message);
            }
            Ok(pm)
        }
    }

    #[test]
    fn registered_passes_run_in_mlirs_pipelines_with_the_scoped_context() {
        let context = dit_dialect::new_context().unwrap();
        let (sink, _handler) = dit_dialect::DiagnosticSink::attach(&context);
        register_passes();
        register_passes();
        let text = r#"func.func @f(%x: tensor<4x8xbf16>, %y: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %g = "dit.gelu"(%x) {approximate = "tanh"} : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %a = "dit.add"(%g, %y) : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %b = "dit.add"(%g, %y) : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
  %r = "dit.mul"(%a, %b) : (tensor<4x8xbf16>, tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %r : tensor<4x8xbf16>
}"#;
        let module = dit_dialect::parse_module(&context, text).unwrap();
        let pm = parse(
            &context,
            "builtin.module(func.func(dit-fuse-patterns),dit-cse,dit-auto-fuse{min-benefit=0})",
        )
        .unwrap();
        let report = FusionReport::default();
        let pass_context = PassContext {
            target: Target::default_target(),
            report: report.clone(),
            switches: Default::default(),
        };
        // SAFETY: module and pass manager are alive; the pass manager is destroyed once.
        let ran = with_pass_context(context.to_raw(), &pass_context, || unsafe {
            let ran = mlir_sys::mlirPassManagerRunOnOp(pm, module.as_operation().to_raw());
            mlir_sys::mlirPassManagerDestroy(pm);
            ran
        });
        assert!(ran.value != 0, "{:?}", sink.take());
        let printed = module.as_operation().to_string();
        assert!(printed.contains("dit.fast_gelu"), "{printed}");
        assert!(printed.contains("\"dit.fused\""), "{printed}");
        assert_eq!(printed.matches("\"dit.add\"").count(), 1, "{printed}");
        // The passes wrote to the report of the scope.
        assert!(
            report
                .events()
                .iter()
                .any(|e| e.applied && e.pattern == "dit-auto-fuse"),
            "{:?}",
            report.events()
        );
    }

    #[test]
    fn mlirs_pipeline_parser_reports_the_passes_option_errors() {
        let context = dit_dialect::new_context().unwrap();
        register_passes();
        let e = parse(
            &context,
            "builtin.module(dit-fuse-patterns{enable_rope=maybe})",
        )
        .unwrap_err();
        assert!(
            e.contains("pass 'dit-fuse-patterns': option 'enable_rope' must be true or false"),
            "{e}"
        );
        let e = parse(&context, "builtin.module(func.func(dit-lower-to-aclnn))").unwrap_err();
        assert!(e.contains("restricted to 'builtin.module'"), "{e}");
        let e = parse(&context, "builtin.module(dit-fuse-all{x=1})").unwrap_err();
        assert!(e.contains("takes no options"), "{e}");
        assert!(parse(&context, "builtin.module(func.func(dit-fuse-all))").is_ok());
    }

    #[test]
    fn scoped_context_is_seen_on_its_thread_and_for_its_mlir_context_only() {
        let target = dit_dialect::TARGETS.last().expect("a target");
        let context = PassContext {
            target,
            report: FusionReport::default(),
            switches: Default::default(),
        };
        assert_ne!(target.name, Target::default_target().name);
        let (ours, other) = (
            dit_dialect::new_context().unwrap(),
            dit_dialect::new_context().unwrap(),
        );
        let (ours, other) = (ours.to_raw(), other.to_raw());
        let default = |c| current_context(c).expect("default").target.name;
        assert_eq!(default(ours), Target::default_target().name);
        with_pass_context(ours, &context, || {
            assert_eq!(
                current_context(ours).expect("scoped").target.name,
                target.name
            );
            assert_eq!(default(other), Target::default_target().name);
            // Another thread sees that a scope is open for this MLIR context and gets none.
            let (ours, other) = (ours.ptr as usize, other.ptr as usize);
            let (on_ours, on_other) = std::thread::spawn(move || {
                let raw = |p: usize| mlir_sys::MlirContext {
                    ptr: p as *mut c_void,
                };
                (
                    current_context(raw(ours)).is_none(),
                    current_context(raw(other)).is_some(),
                )
            })
            .join()
            .unwrap();
            assert!(on_ours && on_other);
        });
        assert_eq!(default(ours), Target::default_target().name);
        assert!(SCOPED.with(|s| s.borrow().is_empty()));
    }
}
