// C++ definitions of the dit ops whose contract MLIR 22 IRDL cannot express.
//
// IRDL-defined ops have no traits, and every value of a variadic IRDL segment must have one
// type. So:
//   - dit.fused needs its body to end in dit.yield, which MLIR's core verifier accepts only
//     if dit.yield has the IsTerminator trait;
//   - dit.concat, dit.split and dit.opaque take or give values of different types.
// dit's own context loads dit.irdl.mlir without these ops and registers them here, in the
// same `dit` dialect, with the traits they need. Their full rules (attributes, shapes,
// captured values) are checked by the Rust verifier like every other op. Other MLIR tools
// that load dit.irdl.mlir directly get the IRDL approximations documented in that file.

#include "mlir-c/IR.h"
#include "mlir/CAPI/IR.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OperationSupport.h"

namespace {
using namespace mlir;

/// dit.fused: one generated vector kernel; the body sees only what it captures.
class FusedOp
    : public Op<FusedOp, OpTrait::OneRegion, OpTrait::VariadicResults,
                OpTrait::ZeroSuccessors, OpTrait::VariadicOperands,
                OpTrait::SingleBlock, OpTrait::IsIsolatedFromAbove> {
public:
  using Op::Op;
  static StringRef getOperationName() { return "dit.fused"; }
  static ArrayRef<StringRef> getAttributeNames() { return {}; }
};

/// dit.yield: the terminator of a dit.fused body.
class YieldOp
    : public Op<YieldOp, OpTrait::ZeroRegions, OpTrait::ZeroResults,
                OpTrait::ZeroSuccessors, OpTrait::VariadicOperands,
                OpTrait::HasParent<FusedOp>::Impl, OpTrait::IsTerminator> {
public:
  using Op::Op;
  static StringRef getOperationName() { return "dit.yield"; }
  static ArrayRef<StringRef> getAttributeNames() { return {}; }
};

/// An op with any number of differently typed operands and results.
template <typename Concrete>
class HeterogeneousOp
    : public Op<Concrete, OpTrait::ZeroRegions, OpTrait::VariadicResults,
                OpTrait::ZeroSuccessors, OpTrait::VariadicOperands> {
public:
  using Op<Concrete, OpTrait::ZeroRegions, OpTrait::VariadicResults,
           OpTrait::ZeroSuccessors, OpTrait::VariadicOperands>::Op;
  static ArrayRef<StringRef> getAttributeNames() { return {}; }
};

class ConcatOp : public HeterogeneousOp<ConcatOp> {
public:
  using HeterogeneousOp::HeterogeneousOp;
  static StringRef getOperationName() { return "dit.concat"; }
};

class SplitOp : public HeterogeneousOp<SplitOp> {
public:
  using HeterogeneousOp::HeterogeneousOp;
  static StringRef getOperationName() { return "dit.split"; }
};

class OpaqueOp : public HeterogeneousOp<OpaqueOp> {
public:
  using HeterogeneousOp::HeterogeneousOp;
  static StringRef getOperationName() { return "dit.opaque"; }
};
} // namespace

/// Registers the C++-defined ops into the loaded `dit` dialect of `context`.
/// Returns false if the dialect is not loaded or an op of these names already exists.
extern "C" bool ditRegisterCppOps(MlirContext context) {
  MLIRContext *ctx = unwrap(context);
  Dialect *dialect = ctx->getLoadedDialect("dit");
  if (!dialect)
    return false;
  for (StringRef name : {"dit.fused", "dit.yield", "dit.concat", "dit.split", "dit.opaque"})
    if (RegisteredOperationName::lookup(name, ctx))
      return false;
  RegisteredOperationName::insert<FusedOp>(*dialect);
  RegisteredOperationName::insert<YieldOp>(*dialect);
  RegisteredOperationName::insert<ConcatOp>(*dialect);
  RegisteredOperationName::insert<SplitOp>(*dialect);
  RegisteredOperationName::insert<OpaqueOp>(*dialect);
  return true;
}
