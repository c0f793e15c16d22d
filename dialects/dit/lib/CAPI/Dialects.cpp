//===- Dialects.cpp - C API of the dit dialect -----------------------------===//
//
// Defines the registration hooks behind mlirGetDialectHandle__dit__() (declared in
// dit-c/Dialects.h). The handle function itself is defined in Rust (src/context.rs) and
// returns these hooks: a Rust cdylib (tools/dit-plugin) exports only functions defined in
// Rust, so a C++ definition of the C API entry point would stay hidden in the plugin.
//
//===----------------------------------------------------------------------===//

#include "dit-c/Dialects.h"

#include "dit/DitDialect.h"
#include "mlir/CAPI/Registration.h"

// The macro names the function after its second argument: this defines
// mlirGetDialectHandle__dit_hooks__(), whose hooks register and load the `dit` dialect, with
// C linkage for Rust.
extern "C" {
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Dit, dit_hooks);
}

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Dit, dit_hooks, mlir::dit::DitDialect)

//===----------------------------------------------------------------------===//
// Fast paths for dit-opt's hot loops (issue 17, compile time)
//===----------------------------------------------------------------------===//

#include "mlir/CAPI/IR.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

namespace mlir::dit {
/// A stand-in for the torch dialect that dit does not link: it accepts every `torch.*` op and
/// makes every `!torch.*` type and `#torch.*` attribute the same OpaqueType / OpaqueAttr the
/// parser makes for an unregistered dialect. Why it exists: for an unregistered dialect
/// MLIR's parser checks every opaque type it forms with Dialect::isValidNamespace, which
/// compiles a regex on each call; a torch-mlir import of FLUX.1-dev has ~34,000 torch type
/// uses, and those regexes were a fifth of dit-opt's whole run. Loaded only where
/// unregistered dialects are allowed (src/context.rs), so nothing else changes.
class TorchPlaceholderDialect : public Dialect {
public:
  explicit TorchPlaceholderDialect(MLIRContext *context)
      : Dialect(getDialectNamespace(), context,
                TypeID::get<TorchPlaceholderDialect>()) {
    allowUnknownOperations();
    allowUnknownTypes();
  }
  static constexpr StringLiteral getDialectNamespace() { return StringLiteral("torch"); }

  /// As Dialect::parseType for a dialect that allows unknown types (an OpaqueType of the
  /// type's text), with the types already made looked up by their text first: an import
  /// names the same few shapes thousands of times, and making the OpaqueType (a namespace
  /// StringAttr and a type, each through MLIR's uniquer) cost a tenth of parsing it.
  Type parseType(DialectAsmParser &parser) const override {
    StringRef spec = parser.getFullSymbolSpec();
    std::lock_guard<std::mutex> lock(typesMutex);
    auto known = types.find(spec);
    if (known != types.end())
      return known->second;
    MLIRContext *context = getContext();
    auto type = OpaqueType::get(StringAttr::get(context, getNamespace()), spec);
    // The key is the type's own copy of the text, alive as long as the context.
    types.try_emplace(type.getTypeData(), type);
    return type;
  }

  /// As the parser's unregistered-dialect path: the attribute's text, kept opaque.
  Attribute parseAttribute(DialectAsmParser &parser, Type type) const override {
    MLIRContext *context = getContext();
    return OpaqueAttr::get(StringAttr::get(context, getNamespace()),
                           parser.getFullSymbolSpec(),
                           type ? type : NoneType::get(context));
  }

private:
  /// The types parseType made, by their text (the parser may run on several threads).
  mutable llvm::DenseMap<StringRef, Type> types;
  mutable std::mutex typesMutex;
};
} // namespace mlir::dit

MLIR_DECLARE_EXPLICIT_TYPE_ID(mlir::dit::TorchPlaceholderDialect)
MLIR_DEFINE_EXPLICIT_TYPE_ID(mlir::dit::TorchPlaceholderDialect)

extern "C" {
/// Loads the torch stand-in (above) into `context` unless a `torch` dialect is loaded.
void ditLoadTorchPlaceholder(MlirContext context) {
  mlir::MLIRContext *ctx = unwrap(context);
  if (!ctx->getLoadedDialect("torch"))
    ctx->getOrLoadDialect<mlir::dit::TorchPlaceholderDialect>();
}

/// Prints `op` with `flags` into one buffer and hands it to `callback` once. The C API's
/// mlirOperationPrintWithFlags writes through an unbuffered stream, calling back for every
/// token: a quarter of a million calls for a full FLUX.1-dev graph, half the printing time.
void ditOperationPrintBuffered(MlirOperation op, MlirOpPrintingFlags flags,
                               MlirStringCallback callback, void *userData) {
  std::string text;
  llvm::raw_string_ostream os(text);
  unwrap(op)->print(os, *unwrap(flags));
  os.flush();
  callback(mlirStringRefCreate(text.data(), text.size()), userData);
}

/// Reads a ranked tensor type in one call: its rank, a pointer to its dims (in the uniqued
/// type storage, alive as long as the context; dynamic dims are ShapedType::kDynamic) and
/// its element type. False for any other type. The C API's ShapedType accessors look the
/// ShapedType interface up on every call (rank, each dim, element type), which made reading
/// shapes the dit verifier's main cost.
bool ditRankedTensorShape(MlirType type, intptr_t *rank, const int64_t **dims,
                          MlirType *element) {
  auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(unwrap(type));
  if (!tensor)
    return false;
  llvm::ArrayRef<int64_t> shape = tensor.getShape();
  *rank = static_cast<intptr_t>(shape.size());
  *dims = shape.data();
  *element = wrap(tensor.getElementType());
  return true;
}
}
