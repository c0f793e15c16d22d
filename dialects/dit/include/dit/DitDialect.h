//===- DitDialect.h - the dit dialect ---------------------------*- C++ -*-===//
//
// Declares mlir::dit::DitDialect, generated from DitDialect.td.
//
//===----------------------------------------------------------------------===//

#ifndef DIT_DITDIALECT_H
#define DIT_DITDIALECT_H

#include "mlir/IR/Dialect.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Allocator.h"

#include <cstdint>
#include <mutex>

namespace mlir::dit {
/// The signatures (name, attribute dictionary, operand and result types) of the dit ops whose
/// Rust rules held, in one context (the dialect owns it, so it lives as long as the uniqued
/// names, attributes and types the signatures point at). The rules of an op without regions
/// read nothing else (dialects/dit/src/verifier.rs), so another op with the same signature
/// keeps them too: MLIR verifies the module after every pass, and a DiT graph repeats the
/// same few hundred signatures in every block, which made the Rust rules a fifth of a
/// dit-opt run. Ops with regions (dit.fused) and dit.yield, whose rules read their body or
/// parent, are always checked. Thread-safe: MLIR's verifier may check functions in parallel.
class VerifiedSignatures {
public:
  /// Whether `op` is a dit op this cache covers whose signature is recorded.
  bool contains(Operation *op);
  /// Records the signature of `op` (whose rules just held), if this cache covers it.
  void insert(Operation *op);

private:
  /// Hashes a signature's words with a multiply-rotate (FxHash): they are uniqued addresses,
  /// and LLVM's general-purpose hash_combine cost as much as the rest of a lookup.
  struct SignatureInfo : llvm::DenseMapInfo<llvm::ArrayRef<const void *>> {
    static unsigned getHashValue(llvm::ArrayRef<const void *> words) {
      uint64_t hash = words.size();
      for (const void *word : words)
        hash = ((hash << 5 | hash >> 59) ^ reinterpret_cast<uintptr_t>(word)) *
               0x517cc1b727220a95ULL;
      return static_cast<unsigned>(hash >> 32);
    }
  };

  std::mutex mutex;
  llvm::DenseSet<llvm::ArrayRef<const void *>, SignatureInfo> signatures;
  /// Owns the recorded signatures' words.
  llvm::BumpPtrAllocator storage;
};
} // namespace mlir::dit

#include "dit/DitOpsDialect.h.inc"

#endif // DIT_DITDIALECT_H
