//===- DitDialect.td - the dit dialect ---------------------*- tablegen -*-===//
//
// The dit dialect: ops of DiT (diffusion transformer) graphs and the fused kernels that
// replace them on Ascend NPUs. The contract (op names, operand order, attribute names, the
// generic textual form) is DIALECT.md; this file is its one definition.
//
//===----------------------------------------------------------------------===//

#ifndef DIT_DIALECT_TD
#define DIT_DIALECT_TD

include "mlir/IR/OpBase.td"

def Dit_Dialect : Dialect {
  let name = "dit";
  let cppNamespace = "::mlir::dit";
  let summary = "DiT graph ops and the Ascend kernels they fuse into";
  let description = [{
    Ops print and parse in MLIR's generic form. Values are ranked tensors; element types and
    shape rules are checked by dit's Rust verifier. Enum-like attributes are strings.
  }];
  // Attributes stay plain attributes (not properties): the generic form of DIALECT.md writes
  // them, `operandSegmentSizes` included, in `{...}`, and every existing file must parse.
  let usePropertiesForAttributes = 0;
  let extraClassDeclaration = [{
    /// The ops whose Rust rules held in this context, by signature (dit/DitDialect.h).
    ::mlir::dit::VerifiedSignatures &getVerifiedSignatures() { return verifiedSignatures; }

  private:
    ::mlir::dit::VerifiedSignatures verifiedSignatures;

  public:
  }];
}

/// The base class of every dit op. Its verifier hook runs the rules ODS cannot state (element
/// types per op, shape rules, enum values of optional attributes), written in Rust
/// (dialects/dit/src/verifier.rs), so that every tool that loads the dialect checks them.
/// MLIR calls it after the op's ODS constraints and traits hold.
///
/// `substitution` is set on a fused op that computes a different formula from the pattern it
/// replaces: what it computes instead, for the numerical verdicts of a fused graph (dit-run
/// `--reference-npy` names each one present after fusion but not before). ODS ignores the
/// field; dit's generated Rust op table (build.rs) carries it.
class Dit_Op<string mnemonic, list<Trait> traits = []> :
    Op<Dit_Dialect, mnemonic, traits> {
  string substitution = "";
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::mlir::dit::verifyRustRules(getOperation());
    }
  }];
}

//===----------------------------------------------------------------------===//
// Op classes of the passes
//===----------------------------------------------------------------------===//

/// A marker trait: no verifier, no methods. It names an op class that dit's passes, runtime and
/// planner dispatch on; build.rs turns each into a flag of the generated Rust op table
/// (`OpKind::is_elementwise`, ...), and C++ sees it as `op->hasTrait<dit::OpTrait::X>()` (the
/// classes are in dit/DitOps.h).
class Dit_OpTrait<string name> : NativeOpTrait<name> {
  let cppNamespace = "::mlir::dit::OpTrait";
}

/// Elementwise with numpy broadcasting of its tensor operands, one output element from the
/// operands' elements at the same (broadcast) index, in the operands' element type: what a
/// generated vector kernel computes and fuses. Not MLIR's `Elementwise`, whose verifier
/// refuses broadcasting.
def Dit_Elementwise : Dit_OpTrait<"Elementwise">;

/// The result (each result) is a view of the first operand's memory: a re-description
/// (reshape, bitcast, broadcast) or a piece of it (split, slice), which a lowering may pass
/// strided instead of copying.
def Dit_ViewLike : Dit_OpTrait<"ViewLike">;

/// Works row by row along the last dim (norms, rope, halves products) or copies whole rows
/// (concat), so it tiles like an elementwise op in a generated kernel.
def Dit_RowWise : Dit_OpTrait<"RowWise">;

/// Row-wise as [`Dit_RowWise`] when its `dim` attribute names the last dim (softmax, swiglu).
def Dit_RowWiseOnLastDim : Dit_OpTrait<"RowWiseOnLastDim">;

/// A matrix product: its kernel runs on the Cube unit (AIC), not on the vector units.
def Dit_Cube : Dit_OpTrait<"Cube">;

/// One CANN library kernel that a fusion pass produces in place of a pattern of primitives
/// (DIALECT.md's fused ops, the MoE routing pair included).
def Dit_Library : Dit_OpTrait<"Library">;

#endif // DIT_DIALECT_TD
