//! One run of a module: parse and verify, optionally transform (the fusion pipeline), lower
//! with dit-lower-to-aclnn, convert to LLVM, JIT-compile with inkwell, and call the entry on
//! the runtime's C ABI.

use crate::Options;
use dit_dialect::{
    diagnostics::{DiagnosticSink, SourceBuffer},
    ir::Op,
    verifier, Target,
};
use dit_passes::{
    FusionReport, Instrumentation, PassContext, Pipeline, PipelineOptions, PipelineStep,
};
use dit_runtime::{
    abi::{self, dit_context, dit_tensor_desc},
    Tensor, TensorType,
};
use inkwell::{execution_engine::ExecutionEngine, OptimizationLevel};
use std::ffi::{c_void, CStr, CString};

/// Where a run's input comes from.
pub struct Job<'a> {
    pub display_name: &'a str,
    pub line_offset: u32,
    pub options: &'a Options,
    /// The function to run.
    pub entry: String,
}

/// The entry function's tensors.
pub struct Signature {
    pub name: String,
    pub inputs: Vec<TensorType>,
    pub outputs: Vec<TensorType>,
    /// For each input, the use that constrains its values (e.g. a grouped_matmul group_list).
    pub roles: Vec<crate::inputs::Role>,
}

/// What a run produced.
pub struct Outcome {
    /// Kernels per call by the cost model (the fusion report's count).
    pub kernels: usize,
    /// What the runtime counted: launches of the init entry, launches of one call of the
    /// per-call entry, and bytes pre-packed.
    pub measured: Measured,
    pub outputs: Vec<Tensor>,
    /// The names of the ops in the module run, after the pipeline and before lowering (what
    /// `--reference-npy` reads the fused graph's formula substitutions from).
    pub ops: std::collections::BTreeSet<String>,
}

/// Launch counts the runtime measured while the lowered program ran.
#[derive(Clone, Copy, Debug, Default)]
pub struct Measured {
    pub init_launches: u64,
    pub call_launches: u64,
    pub packed_bytes: u64,
}

impl std::fmt::Display for Measured {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} launches per call; init {} launches, {} pre-packed",
            self.call_launches,
            self.init_launches,
            dit_passes::human_bytes(self.packed_bytes)
        )
    }
}

/// The pipeline of `--pipeline`: a named pipeline (`fuse-all`) or pass-pipeline text, which
/// MLIR's parser checks when it runs.
pub fn pipeline_steps(text: &str) -> Result<Pipeline, String> {
    if let Some(named) = dit_passes::PIPELINES.iter().find(|p| p.flag == text) {
        return Ok(Pipeline::from_elements(
            named.passes.iter().map(|f| f.to_string()).collect(),
        ));
    }
    let pipeline = Pipeline::parse(text)
        .map_err(|e| format!("<command line>: error: --pipeline:{}: {e}", e.column))?;
    // Checked by MLIR's parser now, so that a bad pipeline is a command-line error.
    let context = dit_dialect::new_context().map_err(|e| format!("dit-run: error: {e}"))?;
    pipeline
        .check(context.to_raw())
        .map_err(|e| format!("<command line>: error: --pipeline:{}: {e}", e.column))?;
    Ok(pipeline)
}

fn tensor_type(v: dit_dialect::ir::Val) -> Result<TensorType, String> {
    let t = v.tensor().ok_or("only ranked tensors can be run")?;
    let dtype = t
        .elem
        .dtype()
        .ok_or_else(|| format!("element type {} has no runtime encoding", t.elem))?;
    let shape = t
        .shape
        .iter()
        .map(|d| {
            d.map(|d| d as usize)
                .ok_or("dynamic dims cannot be run: make them static")
        })
        .collect::<Result<Vec<usize>, _>>()?;
    Ok(TensorType { dtype, shape })
}

fn signature(root: Op, entry: Option<&str>) -> Result<Signature, String> {
    let mut funcs = Vec::new();
    root.walk(&mut |op| {
        if op.is("func.func") && !op.region_blocks(0).is_empty() {
            funcs.push(op);
        }
    });
    let name_of = |f: &Op| {
        f.attr("sym_name")
            .and_then(|a| a.as_str())
            .unwrap_or_default()
    };
    let func = match entry {
        Some(e) => funcs.into_iter().find(|f| name_of(f) == e),
        None => funcs.into_iter().next(),
    }
    .ok_or_else(|| match entry {
        Some(e) => format!("no function @{e} to run"),
        None => "the module has no function to run".to_string(),
    })?;
    let block = func.region_blocks(0)[0];
    let args = block.arguments();
    let inputs = args
        .iter()
        .map(|a| tensor_type(*a))
        .collect::<Result<Vec<_>, _>>()?;
    let roles = args.iter().map(|a| crate::inputs::role(*a)).collect();
    let ret = block
        .ops()
        .into_iter()
        .find(|o| o.is("func.return"))
        .ok_or("the function has no return")?;
    let outputs = ret
        .operands()
        .into_iter()
        .map(tensor_type)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Signature {
        name: name_of(&func),
        inputs,
        outputs,
        roles,
    })
}

/// A fresh context with dit loaded and a diagnostic sink for `job`'s buffer.
fn context_for(job: &Job, text: &str) -> Result<(melior::Context, DiagnosticSink), String> {
    context_for_buffer(job.display_name, job.line_offset, text)
}

fn context_for_buffer(
    display_name: &str,
    line_offset: u32,
    text: &str,
) -> Result<(melior::Context, DiagnosticSink), String> {
    let context = dit_dialect::new_context().map_err(|e| format!("dit-run: error: {e}"))?;
    let (sink, _) = DiagnosticSink::attach(&context);
    sink.set_buffer(SourceBuffer {
        display_name: display_name.to_string(),
        line_offset,
        text: std::rc::Rc::from(text),
    });
    Ok((context, sink))
}

fn rendered(sink: &DiagnosticSink, fallback: &str) -> String {
    let diagnostics = sink.take();
    if diagnostics.is_empty() {
        return fallback.to_string();
    }
    diagnostics
        .iter()
        .map(|d| sink.render(d))
        .collect::<Vec<_>>()
        .join("")
}

/// Parses `text` and reads the entry's signature.
pub fn read_signature(job: &Job, text: &str) -> Result<Signature, String> {
    let (context, sink) = context_for(job, text)?;
    let module = dit_dialect::parse_module(&context, text).ok_or_else(|| {
        rendered(
            &sink,
            &format!("{}: error: the input does not parse", job.display_name),
        )
    })?;
    let root = Op::of_module(&module);
    if !verifier::verify_and_report(root) {
        return Err(rendered(&sink, "error: the input does not verify"));
    }
    signature(root, Some(&job.entry)).map_err(|e| format!("{}: error: {e}", job.display_name))
}

/// Refuses `job` when its tensors would not fit in `--max-memory` (see [`check_memory`]); run
/// before any input is made.
pub fn plan_memory(job: &Job, text: &str) -> Result<(), String> {
    let (context, sink) = context_for(job, text)?;
    let module = dit_dialect::parse_module(&context, text).ok_or_else(|| {
        rendered(
            &sink,
            &format!("{}: error: the input does not parse", job.display_name),
        )
    })?;
    check_memory(job, Op::of_module(&module))
        .map_err(|()| rendered(&sink, "error: over --max-memory"))
}

/// Refuses a run whose tensors would not fit: the entry function's arguments and every value
/// its ops produce (the CPU reference materializes each), summed. A tensor whose size
/// overflows, or a sum over `--max-memory`, is an error at the op (or function) that holds the
/// largest tensor, naming it. Runs before any input is made or allocation is done.
fn check_memory(job: &Job, root: Op) -> Result<(), ()> {
    let mut func = None;
    root.walk(&mut |op| {
        let name = op.attr("sym_name").and_then(|a| a.as_str());
        if op.is("func.func") && name.as_deref() == Some(job.entry.as_str()) {
            func = Some(op);
        }
    });
    let Some(func) = func else { return Ok(()) };
    // (bytes or None when they overflow, the op that makes it, what it is).
    let mut tensors: Vec<(Option<u64>, Op, String)> = Vec::new();
    for block in func.region_blocks(0).into_iter().take(1) {
        for (i, arg) in block.arguments().into_iter().enumerate() {
            if let Some(t) = arg.tensor() {
                tensors.push((
                    t.checked_bytes(),
                    func,
                    format!("argument #{i} ({})", arg.ty()),
                ));
            }
        }
    }
    func.walk(&mut |op| {
        if op == func {
            return;
        }
        for (i, r) in op.results().into_iter().enumerate() {
            if let Some(t) = r.tensor() {
                let what = format!("result #{i} of '{}' ({})", op.name(), r.ty());
                tensors.push((t.checked_bytes(), op, what));
            }
        }
    });
    let total = tensors
        .iter()
        .try_fold(0u64, |sum, (bytes, _, _)| sum.checked_add((*bytes)?));
    let limit = job.options.max_memory;
    if total.is_some_and(|t| t <= limit) {
        return Ok(());
    }
    let largest = tensors
        .iter()
        .max_by_key(|(bytes, _, _)| bytes.map_or(u128::MAX, u128::from));
    let Some((bytes, op, what)) = largest else {
        return Ok(());
    };
    let human = |b: Option<u64>| {
        b.map_or("more than 2^64 bytes".to_string(), |b| {
            dit_passes::human_bytes(b)
        })
    };
    dit_dialect::diagnostics::emit_error(
        dit_dialect::diagnostics::nearest_location(*op),
        &format!(
            "@{} needs {} for its tensors, over --max-memory={}; the largest is {what}, {}",
            job.entry,
            human(total),
            dit_passes::human_bytes(limit),
            human(*bytes)
        ),
    );
    Err(())
}

/// The functions with a body in `text`, in module order (the entries `dit-run` runs when no
/// `--entry` is given).
pub fn function_names(
    display_name: &str,
    line_offset: u32,
    text: &str,
) -> Result<Vec<String>, String> {
    let job_name = display_name;
    let (context, sink) = context_for_buffer(job_name, line_offset, text)?;
    let module = dit_dialect::parse_module(&context, text).ok_or_else(|| {
        rendered(
            &sink,
            &format!("{display_name}: error: the input does not parse"),
        )
    })?;
    let mut names = Vec::new();
    Op::of_module(&module).walk(&mut |op| {
        if op.is("func.func") && !op.region_blocks(0).is_empty() {
            names.push(
                op.attr("sym_name")
                    .and_then(|a| a.as_str())
                    .unwrap_or_default(),
            );
        }
    });
    Ok(names)
}

/// Runs `text` after `steps` on `inputs`.
pub fn execute(
    job: &Job,
    text: &str,
    steps: &Pipeline,
    inputs: &[Tensor],
) -> Result<Outcome, String> {
    let (context, sink) = context_for(job, text)?;
    let fail = |what: &str| rendered(&sink, &format!("{}: error: {what}", job.display_name));
    let mut module = dit_dialect::parse_module(&context, text)
        .ok_or_else(|| fail("the input does not parse"))?;
    let root = Op::of_module(&module);
    if !verifier::verify_and_report(root) {
        return Err(fail("the input does not verify"));
    }
    let signature = signature(root, Some(&job.entry))
        .map_err(|e| format!("{}: error: {e}", job.display_name))?;
    check_memory(job, root).map_err(|()| fail("over --max-memory"))?;
    let target = Target::resolve(&job.options.target)
        .map_err(|e| format!("<command line>: error: --target: {e}"))?;
    let pipeline = PipelineOptions {
        context: PassContext {
            report: FusionReport::default(),
            switches: job.options.switches.clone(),
            target,
        },
        print_ir_after_all: false,
        timing: false,
    };
    // The input was verified above.
    let instrument = Instrumentation {
        verify_input: false,
        ..Instrumentation::default()
    };
    if !steps.is_empty()
        && dit_passes::run_pipeline_with(&mut module, steps, &pipeline.context, &instrument)
            .is_err()
    {
        return Err(fail("the pipeline failed"));
    }
    let mut ops = std::collections::BTreeSet::new();
    Op::of_module(&module).walk(&mut |op| {
        ops.insert(op.name());
    });
    // Kernels of the function run, not of the whole module.
    let kernels =
        dit_passes::measure_functions(Op::of_module(&module), &dit_passes::ShapeHints::default())
            .into_iter()
            .find(|(name, _)| *name == job.entry)
            .map_or(0, |(_, cost)| cost.kernels);
    let lower = PipelineStep {
        info: dit_passes::lookup("dit-lower-to-aclnn").ok_or("no lowering pass")?,
        options: Vec::new(),
    };
    if dit_passes::run_pipeline(&mut module, &[lower], &pipeline).is_err() {
        return Err(fail("lowering failed"));
    }
    let root = Op::of_module(&module);
    dit_codegen::convert_to_llvm_dialect(root).map_err(|e| fail(&e.to_string()))?;
    let llvm = inkwell::context::Context::create();
    let llvm_module = dit_codegen::translate(root, &llvm).map_err(|e| fail(&e.to_string()))?;
    inkwell::targets::Target::initialize_native(&Default::default())
        .map_err(|e| format!("dit-run: error: LLVM: {e}"))?;
    let engine = llvm_module
        .create_jit_execution_engine(OptimizationLevel::None)
        .map_err(|e| format!("dit-run: error: JIT: {e}"))?;
    for (name, address) in runtime_symbols() {
        if let Some(f) = llvm_module.get_function(name) {
            engine.add_global_mapping(&f, address);
        }
    }
    let (outputs, measured) = call_entry(job, &engine, &signature, inputs)?;
    if measured.call_launches != kernels as u64 {
        return Err(format!(
            "dit-run: error: @{}: the cost model counts {kernels} kernels per call, the lowered program launched {}",
            signature.name, measured.call_launches
        ));
    }
    Ok(Outcome {
        kernels,
        measured,
        outputs,
        ops,
    })
}

/// The runtime's C entry points the lowered code declares, with their addresses in this
/// process (the JIT resolves the declarations to them).
fn runtime_symbols() -> Vec<(&'static str, usize)> {
    vec![
        ("dit_rt_wrap", abi::dit_rt_wrap as *const () as usize),
        ("dit_rt_alloc", abi::dit_rt_alloc as *const () as usize),
        (
            "dit_rt_constant",
            abi::dit_rt_constant as *const () as usize,
        ),
        ("dit_rt_view", abi::dit_rt_view as *const () as usize),
        ("dit_rt_reshape", abi::dit_rt_reshape as *const () as usize),
        ("dit_rt_launch", abi::dit_rt_launch as *const () as usize),
        ("dit_rt_release", abi::dit_rt_release as *const () as usize),
        (
            "dit_rt_copy_out",
            abi::dit_rt_copy_out as *const () as usize,
        ),
        ("dit_rt_status", abi::dit_rt_status as *const () as usize),
        (
            "dit_rt_pack_store",
            abi::dit_rt_pack_store as *const () as usize,
        ),
        (
            "dit_rt_pack_load",
            abi::dit_rt_pack_load as *const () as usize,
        ),
        ("dit_rt_to_nz", abi::dit_rt_to_nz as *const () as usize),
    ]
}

/// A descriptor of a contiguous tensor in `data`.
fn descriptor(ty: &TensorType, data: *mut c_void) -> dit_tensor_desc {
    let mut dims = [0i64; 8];
    let mut strides = [0i64; 8];
    let mut stride = 1i64;
    for (i, d) in ty.shape.iter().enumerate().rev() {
        dims[i] = *d as i64;
        strides[i] = stride;
        stride *= (*d as i64).max(1);
    }
    dit_tensor_desc {
        data,
        dtype: ty.dtype.acl_code(),
        rank: ty.shape.len() as i32,
        dims,
        strides,
    }
}

type EntryFn =
    unsafe extern "C" fn(*mut dit_context, *const dit_tensor_desc, *mut dit_tensor_desc) -> i32;

/// An init entry: `@f_init(ctx, inputs)`, the load-time pre-pack of `@f`.
type InitFn = unsafe extern "C" fn(*mut dit_context, *const dit_tensor_desc) -> i32;

fn call_entry(
    job: &Job,
    engine: &ExecutionEngine,
    signature: &Signature,
    inputs: &[Tensor],
) -> Result<(Vec<Tensor>, Measured), String> {
    if inputs.len() != signature.inputs.len() {
        return Err(format!(
            "dit-run: error: @{} takes {} inputs, got {}",
            signature.name,
            signature.inputs.len(),
            inputs.len()
        ));
    }
    // SAFETY: the symbol was emitted by the lowering with exactly this C signature.
    let entry = unsafe { engine.get_function::<EntryFn>(&signature.name) }
        .map_err(|e| format!("dit-run: error: JIT has no @{}: {e}", signature.name))?;
    let init_name = format!("{}{}", signature.name, dit_passes::INIT_SUFFIX);
    // SAFETY: the lowering emits the init entry of every function with exactly this signature.
    let init = unsafe { engine.get_function::<InitFn>(&init_name) }
        .map_err(|e| format!("dit-run: error: JIT has no @{init_name}: {e}"))?;
    let mut input_data: Vec<Vec<u8>> = inputs.iter().map(|t| t.data.clone()).collect();
    let input_descs: Vec<dit_tensor_desc> = inputs
        .iter()
        .zip(input_data.iter_mut())
        .map(|(t, d)| descriptor(&t.ty(), d.as_mut_ptr() as *mut c_void))
        .collect();
    let mut outputs: Vec<Tensor> = signature
        .outputs
        .iter()
        .cloned()
        .map(Tensor::zeros)
        .collect();
    let mut output_descs: Vec<dit_tensor_desc> = outputs
        .iter_mut()
        .map(|t| {
            let ty = t.ty();
            descriptor(&ty, t.data.as_mut_ptr() as *mut c_void)
        })
        .collect();
    let backend = CString::new(job.options.backend.as_str()).map_err(|e| e.to_string())?;
    let cann_dir = job
        .options
        .cann_dir
        .as_deref()
        .map(CString::new)
        .transpose()
        .map_err(|e| e.to_string())?;
    // SAFETY: the runtime's C ABI: a context is created, used by the JIT-compiled entry with
    // descriptors whose memory (input_data, outputs) outlives the call, then destroyed.
    unsafe {
        let ctx = abi::dit_context_create(
            backend.as_ptr(),
            cann_dir.as_ref().map_or(std::ptr::null(), |d| d.as_ptr()),
        );
        if let Some(e) = context_error(ctx) {
            abi::dit_context_destroy(ctx);
            return Err(format!("dit-run: error: {e}"));
        }
        // Two-phase use: the pre-pack once, then the per-call entry (`calls` times: every
        // call after the first reuses what the init entry stored and must give the same
        // outputs).
        let counters = || {
            let mut k = abi::dit_counters::default();
            abi::dit_context_counters(ctx, &mut k);
            k
        };
        let mut status = init.call(ctx, input_descs.as_ptr());
        let after_init = counters();
        let mut measured = Measured {
            init_launches: after_init.launches,
            call_launches: 0,
            packed_bytes: after_init.packed_bytes,
        };
        let mut failed = &init_name;
        let mut first: Option<Vec<Tensor>> = None;
        for _ in 0..job.options.calls.max(1) {
            if status != 0 {
                break;
            }
            failed = &signature.name;
            let before = counters().launches;
            status = entry.call(ctx, input_descs.as_ptr(), output_descs.as_mut_ptr());
            measured.call_launches = counters().launches.saturating_sub(before);
            match &first {
                None => first = Some(outputs.clone()),
                Some(f) if status == 0 && f != &outputs => {
                    abi::dit_context_destroy(ctx);
                    return Err(format!(
                        "dit-run: error: @{} gave different outputs on a later call",
                        signature.name
                    ));
                }
                Some(_) => {}
            }
        }
        let error = context_error(ctx);
        abi::dit_context_destroy(ctx);
        if status != 0 {
            return Err(format!(
                "dit-run: error: @{failed} failed: {}",
                error.unwrap_or_else(|| format!("status {status}"))
            ));
        }
        Ok((outputs, measured))
    }
}

/// The context's error message, if any.
///
/// # Safety
/// `ctx` is a live context from `dit_context_create`.
unsafe fn context_error(ctx: *mut dit_context) -> Option<String> {
    // SAFETY: per the function contract; the message is NUL-terminated and owned by ctx.
    unsafe {
        let e = abi::dit_context_error(ctx);
        (!e.is_null()).then(|| CStr::from_ptr(e).to_string_lossy().into_owned())
    }
}
