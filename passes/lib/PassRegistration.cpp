//===- PassRegistration.cpp - dit passes in MLIR's pass registry -----------===//
//
// Wraps every pass of the Rust registry (passes/src/registry.rs) in an mlir::Pass and
// registers it, and each named pipeline, with MLIR's pass registry, so that MLIR's pipeline
// parser (`mlir-opt --pass-pipeline=...`, `mlirParsePassPipeline`) knows them. The pass
// table, option checks and the passes themselves stay in Rust: this file only forwards
// (passes/src/mlir_registry.rs is the other half and documents the protocol).
//
//===----------------------------------------------------------------------===//

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

using namespace mlir;

// Defined in Rust (passes/src/mlir_registry.rs). None of them unwinds: the Rust side catches
// panics and reports them as diagnostics.
extern "C" {
size_t ditRegistryPassCount();
MlirStringRef ditRegistryPassArgument(size_t pass);
MlirStringRef ditRegistryPassSummary(size_t pass);
MlirStringRef ditRegistryPassUpstream(size_t pass);
bool ditRegistryPassModuleOnly(size_t pass);
size_t ditRegistryOptionCount(size_t pass);
void ditRegistryOption(size_t pass, size_t option, MlirStringRef *name,
                       MlirStringRef *help, MlirStringRef *defaultValue);
bool ditRegistryCheckOptions(size_t pass, const MlirStringRef *names,
                             const MlirStringRef *values, size_t count,
                             void (*report)(MlirStringRef, void *),
                             void *userData);
bool ditRegistryRunPass(size_t pass, MlirOperation op,
                        const MlirStringRef *names, const MlirStringRef *values,
                        size_t count);
void ditRegistryDependentDialects(MlirDialectRegistry registry);
size_t ditRegistryPipelineCount();
MlirStringRef ditRegistryPipelineArgument(size_t pipeline);
MlirStringRef ditRegistryPipelineSummary(size_t pipeline);
size_t ditRegistryPipelineLength(size_t pipeline);
size_t ditRegistryPipelinePass(size_t pipeline, size_t position);
}

namespace {

/// One byte per pass, 8-byte aligned: the addresses are the passes' TypeIDs (MLIR requires
/// one TypeID per pass argument, and TypeID keeps flags in the low pointer bits).
struct alignas(8) PassIdStorage {
  char byte;
};
constexpr size_t kMaxPasses = 64;
PassIdStorage passIds[kMaxPasses];

/// Mixes words into a 64-bit fingerprint (FxHash's multiply-rotate).
struct Fingerprint {
  uint64_t hash = 0;
  void add(const void *word) {
    hash = ((hash << 5 | hash >> 59) ^ reinterpret_cast<uintptr_t>(word)) *
           0x517cc1b727220a95ULL;
  }
  void add(uint64_t value) { add(reinterpret_cast<const void *>(value)); }

  /// What MLIR's OperationFingerPrint takes of `op` and everything nested in it (the op's
  /// address, attributes, properties, location, operands, successors, result types, and
  /// its regions' blocks and their arguments), plus the arguments' types and the nesting
  /// (marks where each region and block ends); mixed here instead of SHA-1, which would
  /// cost a third of a verification.
  void addOp(Operation *op) {
    add(op);
    add(op->getRawDictionaryAttrs().getAsOpaquePointer());
    if (op->getPropertiesStorageSize())
      add(static_cast<uint64_t>(op->hashProperties()));
    add(op->getLoc().getAsOpaquePointer());
    add(static_cast<uint64_t>(op->getNumOperands()));
    for (OpOperand &operand : op->getOpOperands())
      add(operand.get().getAsOpaquePointer());
    for (Block *successor : op->getSuccessors())
      add(successor);
    add(static_cast<uint64_t>(op->getNumResults()));
    for (Type type : op->getResultTypes())
      add(type.getAsOpaquePointer());
    for (Region &region : op->getRegions()) {
      for (Block &block : region) {
        add(&block);
        for (BlockArgument arg : block.getArguments()) {
          add(arg.getAsOpaquePointer());
          add(arg.getType().getAsOpaquePointer());
        }
        for (Operation &inner : block)
          addOp(&inner);
        add(~uint64_t(0));
      }
      add(~uint64_t(1));
    }
  }
};

/// The fingerprint of `root` and everything nested in it (see Fingerprint::addOp).
uint64_t fingerprint(Operation *root) {
  Fingerprint print;
  print.addOp(root);
  return print.hash;
}

/// A dit pass as MLIR sees it. The options are real MLIR pass options (so MLIR parses,
/// prints and clones them, and `--help` lists them); their values are handed to Rust as
/// text, and only the ones the pipeline sets, as dit-opt does.
class DitRegisteredPass : public Pass {
public:
  explicit DitRegisteredPass(size_t index)
      : Pass(TypeID::getFromOpaquePointer(&passIds[index]),
             ditRegistryPassModuleOnly(index)
                 ? std::optional<StringRef>("builtin.module")
                 : std::nullopt),
        index(index), argument(unwrap(ditRegistryPassArgument(index))),
        summary(unwrap(ditRegistryPassSummary(index))) {
    size_t count = ditRegistryOptionCount(index);
    for (size_t i = 0; i < count; ++i) {
      MlirStringRef name, help, defaultValue;
      ditRegistryOption(index, i, &name, &help, &defaultValue);
      // The strings are Rust statics: cl::opt keeps the StringRefs.
      options.push_back(std::make_unique<Option<std::string>>(
          *this, unwrap(name), llvm::cl::desc(unwrap(help)),
          llvm::cl::init(unwrap(defaultValue).str())));
    }
  }

  StringRef getName() const override { return argument; }
  StringRef getArgument() const override { return argument; }
  StringRef getDescription() const override { return summary; }

  void getDependentDialects(DialectRegistry &registry) const override {
    ditRegistryDependentDialects(wrap(&registry));
  }

  LogicalResult initializeOptions(
      StringRef text,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    if (failed(Pass::initializeOptions(text, errorHandler)))
      return failure();
    std::vector<MlirStringRef> names, values;
    setOptions(names, values);
    std::string message;
    auto report = [](MlirStringRef text, void *userData) {
      *static_cast<std::string *>(userData) = unwrap(text).str();
    };
    if (ditRegistryCheckOptions(index, names.data(), values.data(),
                                names.size(), report, &message))
      return success();
    (void)errorHandler(Twine("pass '") + argument + "': " + message);
    return failure();
  }

  void runOnOperation() override {
    std::vector<MlirStringRef> names, values;
    setOptions(names, values);
    uint64_t before = fingerprint(getOperation());
    if (!ditRegistryRunPass(index, wrap(getOperation()), names.data(),
                            values.data(), names.size())) {
      signalPassFailure();
      return;
    }
    // A pass that changed nothing preserves every analysis, which also tells the pass
    // manager that the IR it verified before still stands (it skips `--verify-each` then,
    // a tenth of a full FLUX.1-dev run per pass).
    if (fingerprint(getOperation()) == before)
      markAllAnalysesPreserved();
  }

  std::unique_ptr<Pass> clonePass() const override {
    // MLIR copies the option values into the clone (Pass::clone).
    return std::make_unique<DitRegisteredPass>(index);
  }

protected:
  using Pass::canScheduleOn;
  bool canScheduleOn(RegisteredOperationName opName) const override {
    std::optional<StringRef> anchor = getOpName();
    return !anchor || opName.getStringRef() == *anchor;
  }

private:
  /// The options the pipeline set, as (name, value) text.
  void setOptions(std::vector<MlirStringRef> &names,
                  std::vector<MlirStringRef> &values) const {
    for (const auto &option : options) {
      if (!option->hasValue())
        continue;
      names.push_back(wrap(option->getArgStr()));
      const std::string &value = option->getValue();
      values.push_back(wrap(StringRef(value)));
    }
  }

  size_t index;
  StringRef argument;
  StringRef summary;
  std::vector<std::unique_ptr<Option<std::string>>> options;
};

/// Adds upstream pass text (`cse`) to `pm`, as mlirOpPassManagerAddPipeline does.
LogicalResult addUpstream(StringRef upstream, OpPassManager &pm,
                          function_ref<LogicalResult(const Twine &)> errorHandler) {
  std::string message;
  llvm::raw_string_ostream os(message);
  if (succeeded(parsePassPipeline(upstream, pm, os)))
    return success();
  return errorHandler(Twine("upstream pass '") + upstream + "': " + os.str());
}

/// Adds the passes of named pipeline `pipeline` to `pm`; a pass restricted to builtin.module
/// on a pass manager of another op is an error (MLIR would abort on it).
LogicalResult buildPipeline(size_t pipeline, OpPassManager &pm,
                            function_ref<LogicalResult(const Twine &)> errorHandler) {
  for (size_t i = 0, e = ditRegistryPipelineLength(pipeline); i < e; ++i) {
    size_t index = ditRegistryPipelinePass(pipeline, i);
    StringRef upstream = unwrap(ditRegistryPassUpstream(index));
    if (!upstream.empty()) {
      if (failed(addUpstream(upstream, pm, errorHandler)))
        return failure();
      continue;
    }
    auto pass = std::make_unique<DitRegisteredPass>(index);
    std::optional<StringRef> anchor = pass->getOpName();
    std::optional<StringRef> pmAnchor = pm.getOpName();
    if (anchor && pmAnchor && *anchor != *pmAnchor)
      return errorHandler(Twine("pipeline '") +
                          unwrap(ditRegistryPipelineArgument(pipeline)) +
                          "': pass '" + pass->getArgument() + "' runs on '" +
                          *anchor + "' only, not on '" + *pmAnchor + "'");
    pm.addPass(std::move(pass));
  }
  return success();
}

} // namespace

/// Registers every dit pass and named pipeline with MLIR's pass registry; later calls do
/// nothing. Called by Rust (`ditRegisterPasses`, passes/src/mlir_registry.rs).
extern "C" void ditRegisterPassesWithMlir() {
  static std::once_flag once;
  std::call_once(once, [] {
    size_t count = ditRegistryPassCount();
    if (count > kMaxPasses)
      llvm::report_fatal_error("dit: more passes than PassRegistration.cpp has "
                               "TypeIDs for; raise kMaxPasses");
    for (size_t i = 0; i < count; ++i) {
      StringRef upstream = unwrap(ditRegistryPassUpstream(i));
      if (upstream.empty()) {
        registerPass([i]() -> std::unique_ptr<Pass> {
          return std::make_unique<DitRegisteredPass>(i);
        });
        continue;
      }
      // A dit name for an upstream pass (dit-cse is cse): a pipeline that adds it.
      registerPassPipeline(
          unwrap(ditRegistryPassArgument(i)), unwrap(ditRegistryPassSummary(i)),
          [i, upstream](OpPassManager &pm, StringRef options,
                        function_ref<LogicalResult(const Twine &)> errorHandler) {
            if (!options.empty())
              return errorHandler(Twine("'") + unwrap(ditRegistryPassArgument(i)) +
                                  "' takes no options");
            return addUpstream(upstream, pm, errorHandler);
          },
          [](function_ref<void(const detail::PassOptions &)>) {});
    }
    for (size_t p = 0, e = ditRegistryPipelineCount(); p < e; ++p)
      registerPassPipeline(
          unwrap(ditRegistryPipelineArgument(p)),
          unwrap(ditRegistryPipelineSummary(p)),
          [p](OpPassManager &pm, StringRef options,
              function_ref<LogicalResult(const Twine &)> errorHandler) {
            if (!options.empty())
              return errorHandler(Twine("pipeline '") +
                                  unwrap(ditRegistryPipelineArgument(p)) +
                                  "' takes no options");
            return buildPipeline(p, pm, errorHandler);
          },
          [](function_ref<void(const detail::PassOptions &)>) {});
  });
}
