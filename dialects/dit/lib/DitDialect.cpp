//===- DitDialect.cpp - the dit dialect and its ops ------------------------===//
//
// Registers the ops generated from DitOps.td with the dialect, and connects their verifier
// hook to the Rust rules; the op definitions themselves are generated.
//
//===----------------------------------------------------------------------===//

#include "dit/DitDialect.h"
#include "dit/DitOps.h"

#include "mlir/CAPI/IR.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::dit;

/// Defined in Rust (dialects/dit/src/verifier.rs): checks the Rust rules on one dit op and
/// reports the broken one; never unwinds (the Rust side catches panics).
extern "C" bool ditVerifyRustRules(MlirOperation op);

LogicalResult mlir::dit::verifyRustRules(Operation *op) {
  return success(ditVerifyRustRules(wrap(op)));
}

//===----------------------------------------------------------------------===//
// VerifiedSignatures
//===----------------------------------------------------------------------===//

/// The cache of `op`'s dialect, if `op` is a dit op whose rules read only its signature.
static VerifiedSignatures *signaturesFor(Operation *op) {
  auto *dialect = llvm::dyn_cast_or_null<DitDialect>(op->getDialect());
  if (!dialect || op->getNumRegions() != 0 || llvm::isa<YieldOp>(op))
    return nullptr;
  return &dialect->getVerifiedSignatures();
}

/// The signature of `op`: its name, its attribute dictionary (dit ops keep every attribute
/// there, not in properties), its operand count, then its operand and result types. All of
/// them are uniqued in the context, so equal signatures have equal words.
static void signatureOf(Operation *op, llvm::SmallVectorImpl<const void *> &words) {
  words.push_back(op->getName().getAsOpaquePointer());
  words.push_back(op->getRawDictionaryAttrs().getAsOpaquePointer());
  words.push_back(reinterpret_cast<const void *>(
      static_cast<uintptr_t>(op->getNumOperands())));
  for (Value operand : op->getOperands())
    words.push_back(operand.getType().getAsOpaquePointer());
  for (Type result : op->getResultTypes())
    words.push_back(result.getAsOpaquePointer());
}

bool VerifiedSignatures::contains(Operation *op) {
  llvm::SmallVector<const void *, 16> words;
  signatureOf(op, words);
  std::lock_guard<std::mutex> lock(mutex);
  return signatures.contains(llvm::ArrayRef<const void *>(words));
}

void VerifiedSignatures::insert(Operation *op) {
  llvm::SmallVector<const void *, 16> words;
  signatureOf(op, words);
  std::lock_guard<std::mutex> lock(mutex);
  if (signatures.contains(llvm::ArrayRef<const void *>(words)))
    return;
  const void **copy = storage.Allocate<const void *>(words.size());
  std::copy(words.begin(), words.end(), copy);
  signatures.insert(llvm::ArrayRef<const void *>(copy, words.size()));
}

extern "C" {
/// Whether `op` is a dit op whose signature already kept the Rust rules in its context (see
/// VerifiedSignatures); false for every other op.
bool ditRulesHeldBefore(MlirOperation op) {
  VerifiedSignatures *cache = signaturesFor(unwrap(op));
  return cache && cache->contains(unwrap(op));
}

/// Records that the Rust rules held for `op` (nothing for an op the cache does not cover).
void ditRulesHeld(MlirOperation op) {
  if (VerifiedSignatures *cache = signaturesFor(unwrap(op)))
    cache->insert(unwrap(op));
}
}

#include "dit/DitOpsDialect.cpp.inc"

void DitDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dit/DitOps.cpp.inc"
      >();
}

#define GET_OP_CLASSES
#include "dit/DitOps.cpp.inc"
