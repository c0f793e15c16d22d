//===- DitFolds.cpp - the dit ops' folders ---------------------------------===//
//
// The folds of dit's shape and type no-ops (ODS `hasFolder`), so that MLIR's own folding
// (upstream `canonicalize`, the greedy driver, `OpBuilder::createOrFold`) applies them in every
// tool that loads the dialect. dit-canonicalize runs them through the same greedy driver.
//
// A folder only returns an existing value or updates its own op in place (an operand, an
// attribute): it never creates ops, as MLIR's folding contract requires.
//
//===----------------------------------------------------------------------===//

#include "dit/DitDialect.h"
#include "dit/DitOps.h"

using namespace mlir;
using namespace mlir::dit;

namespace {
/// `dim` counted from the front of a rank-`rank` tensor (negative dims count from the back).
std::optional<int64_t> normaliseDim(int64_t dim, Type type) {
  auto ranked = llvm::dyn_cast<RankedTensorType>(type);
  if (!ranked)
    return std::nullopt;
  int64_t rank = ranked.getRank();
  int64_t d = dim < 0 ? dim + rank : dim;
  if (d < 0 || d >= rank)
    return std::nullopt;
  return d;
}

/// An op whose result has the type of its input is the identity for these ops.
OpFoldResult identityOrNothing(Value input, Value result) {
  if (input.getType() == result.getType())
    return input;
  return {};
}
} // namespace

/// reshape(reshape(x)) is reshape(x): only the outer result type matters.
OpFoldResult ReshapeOp::fold(FoldAdaptor) {
  if (OpFoldResult same = identityOrNothing(getX(), getResult()))
    return same;
  if (auto inner = getX().getDefiningOp<ReshapeOp>()) {
    getXMutable().assign(inner.getX());
    return getResult();
  }
  return {};
}

/// bitcast(bitcast(x)) is bitcast(x): the bits are the same, only the outer type matters.
OpFoldResult BitcastOp::fold(FoldAdaptor) {
  if (OpFoldResult same = identityOrNothing(getX(), getResult()))
    return same;
  if (auto inner = getX().getDefiningOp<BitcastOp>()) {
    getXMutable().assign(inner.getX());
    return getResult();
  }
  return {};
}

/// A cast to the input's own type. cast(cast(x)) is not folded: the inner cast may round.
OpFoldResult CastOp::fold(FoldAdaptor) { return identityOrNothing(getX(), getResult()); }

/// A broadcast to the input's own shape.
OpFoldResult BroadcastOp::fold(FoldAdaptor) {
  return identityOrNothing(getX(), getResult());
}

/// transpose(transpose(x), p2) with inner p1 is transpose(x, p1∘p2): y1[i] = x[p1[i]],
/// y2[i] = y1[p2[i]] = x[p1[p2[i]]]. The identity permutation is x.
OpFoldResult TransposeOp::fold(FoldAdaptor) {
  ArrayRef<int64_t> perm = getPerm();
  if (auto inner = getX().getDefiningOp<TransposeOp>()) {
    ArrayRef<int64_t> innerPerm = inner.getPerm();
    SmallVector<int64_t> composed;
    for (int64_t p : perm) {
      if (p < 0 || p >= static_cast<int64_t>(innerPerm.size()))
        return {};
      composed.push_back(innerPerm[p]);
    }
    getXMutable().assign(inner.getX());
    setPermAttr(DenseI64ArrayAttr::get(getContext(), composed));
    return getResult();
  }
  for (auto [i, p] : llvm::enumerate(perm))
    if (p != static_cast<int64_t>(i))
      return {};
  return identityOrNothing(getX(), getResult());
}

/// concat(split(x)) of every piece, in order, along the split's dim is x (HunyuanVideo's
/// single-stream block cuts the joint sequence and joins it again unchanged). A piece with no
/// element along `dim` adds nothing and is dropped; one piece left of the result's type is the
/// result. A concat of empty pieces only stays (its result has no element either).
OpFoldResult ConcatOp::fold(FoldAdaptor) {
  OperandRange pieces = getXs();
  std::optional<int64_t> dim = normaliseDim(getDim(), getResult().getType());
  if (!dim || pieces.empty())
    return {};
  if (auto split = pieces.front().getDefiningOp<SplitOp>()) {
    bool inOrder = split->getNumResults() == pieces.size();
    for (auto [i, piece] : llvm::enumerate(pieces))
      inOrder = inOrder && piece == split->getResult(i);
    if (inOrder && normaliseDim(split.getDim(), split.getX().getType()) == dim &&
        split.getX().getType() == getResult().getType())
      return split.getX();
  }
  SmallVector<unsigned> empty;
  for (auto [i, piece] : llvm::enumerate(pieces)) {
    auto ranked = llvm::dyn_cast<RankedTensorType>(piece.getType());
    if (ranked && ranked.getRank() > *dim && ranked.getDimSize(*dim) == 0)
      empty.push_back(i);
  }
  if (empty.empty() || empty.size() == pieces.size())
    return {};
  if (pieces.size() - empty.size() == 1) {
    for (auto [i, piece] : llvm::enumerate(pieces))
      if (!llvm::is_contained(empty, i) && piece.getType() == getResult().getType())
        return piece;
  }
  for (unsigned i : llvm::reverse(empty))
    getXsMutable().erase(i);
  return getResult();
}
