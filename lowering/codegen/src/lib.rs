//! From a module lowered by `dit-lower-to-aclnn` to machine code: upstream MLIR conversion
//! passes to the LLVM dialect, `mlirTranslateModuleToLLVMIR`, then LLVM through inkwell for
//! IR text, assembly, object files and the JIT; plus the C header of the lowered entry points.

use dit_dialect::ir::Op;
use inkwell::{
    context::Context as LlvmContext,
    module::Module as LlvmModule,
    targets::{CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine},
    OptimizationLevel,
};
use mlir_sys::{
    mlirCreateConversionArithToLLVMConversionPass, mlirCreateConversionConvertFuncToLLVMPass,
    mlirCreateConversionReconcileUnrealizedCastsPass, mlirOperationGetContext,
    mlirPassManagerAddOwnedPass, mlirPassManagerCreate, mlirPassManagerDestroy,
    mlirPassManagerRunOnOp, mlirRegisterAllLLVMTranslations, mlirTranslateModuleToLLVMIR,
};

/// Why code generation failed.
#[derive(Debug, thiserror::Error)]
pub enum CodegenError {
    /// The module still holds dit ops: run `dit-lower-to-aclnn` first.
    #[error("the module is not lowered: run --dit-lower-to-aclnn first ('{0}' is left)")]
    NotLowered(String),
    /// An upstream conversion pass failed.
    #[error("conversion to the LLVM dialect failed")]
    Conversion,
    /// mlirTranslateModuleToLLVMIR returned nothing.
    #[error("translation to LLVM IR failed")]
    Translation,
    /// LLVM rejected the module or could not emit it.
    #[error("LLVM: {0}")]
    Llvm(String),
}

/// What `--emit` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmitKind {
    /// LLVM IR text.
    Llvm,
    /// Target assembly.
    Asm,
    /// A relocatable object file.
    Obj,
}

/// Runs convert-arith-to-llvm, convert-func-to-llvm and reconcile-unrealized-casts on a
/// lowered module, in place.
pub fn convert_to_llvm_dialect(module: Op) -> Result<(), CodegenError> {
    let mut left = None;
    module.walk(&mut |op| {
        if left.is_none() && op.name().starts_with(dit_dialect::ops::DIALECT_PREFIX) {
            left = Some(op.name());
        }
    });
    if let Some(name) = left {
        return Err(CodegenError::NotLowered(name));
    }
    // SAFETY: the pass manager is created, filled and destroyed here; the passes are owned by
    // it; the module op is alive for the run.
    unsafe {
        let context = mlirOperationGetContext(module.raw());
        let pm = mlirPassManagerCreate(context);
        mlirPassManagerAddOwnedPass(pm, mlirCreateConversionArithToLLVMConversionPass());
        mlirPassManagerAddOwnedPass(pm, mlirCreateConversionConvertFuncToLLVMPass());
        mlirPassManagerAddOwnedPass(pm, mlirCreateConversionReconcileUnrealizedCastsPass());
        let result = mlirPassManagerRunOnOp(pm, module.raw());
        mlirPassManagerDestroy(pm);
        if result.value == 0 {
            return Err(CodegenError::Conversion);
        }
    }
    Ok(())
}

/// Translates an LLVM-dialect module into an LLVM module owned by `llvm`.
pub fn translate<'ctx>(
    module: Op,
    llvm: &'ctx LlvmContext,
) -> Result<LlvmModule<'ctx>, CodegenError> {
    use inkwell::context::AsContextRef;
    // SAFETY: the MLIR context is alive; the translation registration is idempotent; the LLVM
    // context outlives the returned module, which takes ownership of the raw module.
    unsafe {
        mlirRegisterAllLLVMTranslations(mlirOperationGetContext(module.raw()));
        let raw = mlirTranslateModuleToLLVMIR(module.raw(), llvm.as_ctx_ref() as _);
        if raw.is_null() {
            return Err(CodegenError::Translation);
        }
        Ok(LlvmModule::new(raw as _))
    }
}

/// The host's target machine.
pub fn host_machine() -> Result<TargetMachine, CodegenError> {
    Target::initialize_native(&InitializationConfig::default()).map_err(CodegenError::Llvm)?;
    let triple = TargetMachine::get_default_triple();
    let target = Target::from_triple(&triple).map_err(|e| CodegenError::Llvm(e.to_string()))?;
    target
        .create_target_machine(
            &triple,
            &TargetMachine::get_host_cpu_name().to_string(),
            &TargetMachine::get_host_cpu_features().to_string(),
            OptimizationLevel::Default,
            RelocMode::PIC,
            CodeModel::Default,
        )
        .ok_or_else(|| CodegenError::Llvm(format!("no target machine for {triple}")))
}

/// Converts, translates and emits a lowered module.
pub fn emit(module: Op, kind: EmitKind) -> Result<Vec<u8>, CodegenError> {
    convert_to_llvm_dialect(module)?;
    let llvm = LlvmContext::create();
    let m = translate(module, &llvm)?;
    m.verify().map_err(|e| CodegenError::Llvm(e.to_string()))?;
    if kind == EmitKind::Llvm {
        return Ok(m.print_to_string().to_bytes().to_vec());
    }
    let machine = host_machine()?;
    m.set_triple(&machine.get_triple());
    m.set_data_layout(&machine.get_target_data().get_data_layout());
    let file_type = if kind == EmitKind::Asm {
        FileType::Assembly
    } else {
        FileType::Object
    };
    machine
        .write_to_memory_buffer(&m, file_type)
        .map(|b| b.as_slice().to_vec())
        .map_err(|e| CodegenError::Llvm(e.to_string()))
}

/// One tensor of an entry point's signature, from the `dit.inputs`/`dit.outputs` strings the
/// lowering leaves (`bf16[1,4096,3072]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignatureTensor {
    /// MLIR element type name.
    pub dtype: String,
    /// Static dims.
    pub dims: Vec<i64>,
}

impl SignatureTensor {
    fn parse(s: &str) -> Option<SignatureTensor> {
        let (dtype, rest) = s.split_once('[')?;
        let dims = rest.strip_suffix(']')?;
        let dims = if dims.is_empty() {
            Vec::new()
        } else {
            dims.split(',')
                .map(|d| d.trim().parse().ok())
                .collect::<Option<Vec<i64>>>()?
        };
        Some(SignatureTensor {
            dtype: dtype.to_string(),
            dims,
        })
    }
}

/// A lowered entry point: its symbol and dit-level inputs and outputs.
#[derive(Clone, Debug)]
pub struct EntryPoint {
    /// The function symbol (the C function name).
    pub name: String,
    /// One per `inputs[i]` descriptor.
    pub inputs: Vec<SignatureTensor>,
    /// One per `outputs[j]` descriptor.
    pub outputs: Vec<SignatureTensor>,
    /// The init entry (`<name>_init(ctx, inputs)`) the caller runs once before any call.
    pub init: Option<String>,
    /// Indices of the inputs the per-call entry reads.
    pub call_reads: Vec<i64>,
    /// Indices of the inputs the init entry reads, and what the pre-pack launches and moves.
    pub init_reads: Vec<i64>,
    /// Kernels one call launches (counted by the lowering as it emitted them).
    pub launches: i64,
    /// Kernels the init entry launches once.
    pub prepack_kernels: i64,
    /// DDR bytes those kernels move, once.
    pub prepack_bytes: i64,
}

/// The entry points of a lowered module (functions that carry the lowering's signature).
pub fn entry_points(module: Op) -> Vec<EntryPoint> {
    let mut entries = Vec::new();
    module.walk(&mut |op| {
        if !(op.is("func.func") || op.is("llvm.func")) {
            return;
        }
        let list = |name: &str| -> Option<Vec<SignatureTensor>> {
            op.attr(name)?
                .as_array()?
                .into_iter()
                .map(|a| SignatureTensor::parse(&a.as_str()?))
                .collect()
        };
        if let (Some(inputs), Some(outputs)) = (list("dit.inputs"), list("dit.outputs")) {
            let name: String = op
                .attr("sym_name")
                .and_then(|a| a.as_str())
                .unwrap_or_default();
            let init = op.attr("dit.init").and_then(|a| a.as_str());
            entries.push(EntryPoint {
                name,
                inputs,
                outputs,
                init,
                call_reads: ints(op, "dit.reads"),
                launches: op
                    .attr("dit.launches")
                    .and_then(|a| a.as_i64())
                    .unwrap_or(0),
                init_reads: Vec::new(),
                prepack_kernels: 0,
                prepack_bytes: 0,
            });
        }
    });
    // The init entries carry what the pre-pack reads and costs.
    module.walk(&mut |op| {
        let Some(of) = op.attr("dit.init_of").and_then(|a| a.as_str()) else {
            return;
        };
        if let Some(e) = entries.iter_mut().find(|e| e.name == of) {
            e.init_reads = ints(op, "dit.reads");
            e.prepack_kernels = op
                .attr("dit.launches")
                .and_then(|a| a.as_i64())
                .unwrap_or(0);
            e.prepack_bytes = op
                .attr("dit.prepack_bytes")
                .and_then(|a| a.as_i64())
                .unwrap_or(0);
        }
    });
    entries
}

/// An `array<i64: ...>` attribute of `op` (empty when absent).
fn ints(op: Op, name: &str) -> Vec<i64> {
    op.attr(name)
        .and_then(|a| a.as_i64_array())
        .unwrap_or_default()
}

/// CANN's aclDataType code of an MLIR element type name (the runtime's dtype codes).
fn dtype_code(name: &str) -> Option<i32> {
    dit_runtime::DType::from_mlir_name(name).map(dit_runtime::DType::acl_code)
}

/// The C header of a lowered module's entry points; it includes the runtime's ABI header.
pub fn c_header(module: Op, source: &str) -> String {
    // The input's name goes into a C comment: no `*/` or line break may end it.
    let source: String = source
        .replace("*/", "*\\/")
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let mut out = format!(
        "/* Generated by `dit-opt --emit=header` from {source}. Do not edit.\n * The ABI (dit_context, dit_tensor_desc, dtype codes) is lowering/runtime/include/dit_runtime.h. */\n#ifndef DIT_GENERATED_MODEL_H\n#define DIT_GENERATED_MODEL_H\n\n#include <stdint.h>\n#include \"dit_runtime.h\"\n\n#ifdef __cplusplus\nextern \"C\" {{\n#endif\n"
    );
    let describe = |t: &SignatureTensor| {
        let dims: Vec<String> = t.dims.iter().map(i64::to_string).collect();
        format!("{} [{}]", t.dtype, dims.join(", "))
    };
    for e in entry_points(module) {
        out.push_str(&format!(
            "\n/* {}: {} inputs, {} outputs, in caller-owned dit_tensor_desc arrays.\n",
            e.name,
            e.inputs.len(),
            e.outputs.len()
        ));
        for (i, t) in e.inputs.iter().enumerate() {
            out.push_str(&format!(" *   inputs[{i}]:  {}\n", describe(t)));
        }
        for (j, t) in e.outputs.iter().enumerate() {
            out.push_str(&format!(
                " *   outputs[{j}]: {} (the caller allocates data)\n",
                describe(t)
            ));
        }
        out.push_str(&format!(
            " * One call launches {} kernels. Returns 0 on success; otherwise\n * dit_context_error(ctx) says why. */\n",
            e.launches
        ));
        let upper = e.name.to_uppercase();
        let list = |v: &[i64]| {
            let s: Vec<String> = v.iter().map(i64::to_string).collect();
            if s.is_empty() {
                "none".to_string()
            } else {
                s.join(", ")
            }
        };
        if let Some(init) = &e.init {
            out.push_str(&format!(
                "\n/* {init}: the load-time pre-pack of {name}. Call it once per context before any\n * call of {name} (again after the weights change): it re-lays the weights (merged\n * projections, transposes) and keeps them in the context, device-resident on CANN.\n * It launches {} kernel(s) and moves {} bytes, once. It reads inputs: {}.\n * {name} itself reads inputs: {} (the others may be left unfilled in its calls).\n * Returns 0 on success; otherwise dit_context_error(ctx) says why. */\nint32_t {init}(dit_context *ctx, const dit_tensor_desc *inputs);\n",
                e.prepack_kernels,
                e.prepack_bytes,
                list(&e.init_reads),
                list(&e.call_reads),
                name = e.name
            ));
        }
        out.push_str(&format!(
            "#define {upper}_NUM_INPUTS {}\n#define {upper}_NUM_OUTPUTS {}\nint32_t {}(dit_context *ctx, const dit_tensor_desc *inputs, dit_tensor_desc *outputs);\n",
            e.inputs.len(),
            e.outputs.len(),
            e.name
        ));
        // The same signature as data, so that a generic driver can allocate the descriptors.
        for (kind, tensors) in [("INPUT", &e.inputs), ("OUTPUT", &e.outputs)] {
            let codes: Vec<String> = tensors
                .iter()
                .map(|t| {
                    dtype_code(&t.dtype)
                        .map_or_else(|| format!("-1 /* {} */", t.dtype), |c| c.to_string())
                })
                .collect();
            let ranks: Vec<String> = tensors.iter().map(|t| t.dims.len().to_string()).collect();
            let dims: Vec<String> = tensors
                .iter()
                .map(|t| {
                    let mut d: Vec<String> = t.dims.iter().map(i64::to_string).collect();
                    if d.is_empty() {
                        d.push("0".into());
                    }
                    format!("{{{}}}", d.join(", "))
                })
                .collect();
            out.push_str(&format!(
                "static const int32_t {upper}_{kind}_DTYPES[] = {{{}}};\nstatic const int32_t {upper}_{kind}_RANKS[] = {{{}}};\nstatic const int64_t {upper}_{kind}_DIMS[][8] = {{{}}};\n",
                codes.join(", "),
                ranks.join(", "),
                dims.join(", ")
            ));
        }
    }
    out.push_str("\n#ifdef __cplusplus\n}\n#endif\n\n#endif /* DIT_GENERATED_MODEL_H */\n");
    out
}
