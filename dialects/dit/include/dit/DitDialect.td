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
}

/// The base class of every dit op. Its verifier hook runs the rules ODS cannot state (element
/// types per op, shape rules, enum values of optional attributes), written in Rust
/// (dialects/dit/src/verifier.rs), so that every tool that loads the dialect checks them.
/// MLIR calls it after the op's ODS constraints and traits hold.
class Dit_Op<string mnemonic, list<Trait> traits = []> :
    Op<Dit_Dialect, mnemonic, traits> {
  let hasVerifier = 1;
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::verify() {
      return ::mlir::dit::verifyRustRules(getOperation());
    }
  }];
}

#endif // DIT_DIALECT_TD
