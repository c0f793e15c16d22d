// dit-convert-torch-to-dit on input it cannot convert: every problem is a located error (and
// exit code 1), never a crash, and a wrong input is still caught although the import allows
// unregistered dialects: a foreign op (a typo of a dialect name included) left after the
// conversion, a tensor without rank or dtype, a torch type that is no tensor where dit needs
// one, a list of tensors read other than by torch.prim.ListUnpack, control flow, and effects.
// Ops downstream of a failed op are not reported again.
//
// RUN: dit-opt %s --split-input-file --dit-convert-torch-to-dit --verify-diagnostics
// RUN: not dit-opt %s --split-input-file --dit-convert-torch-to-dit -o /dev/null 2>&1 | FileCheck %s

// Exactly one error per problem, each located.
// CHECK-COUNT-13: torch-errors.mlir:{{[0-9]+}}:{{[0-9]+}}: error:
// CHECK-NOT: error:

// A typo in a dialect name is no torch op: it is left over, and reported where it is.
func.func @typo(%x: !torch.vtensor<[2,8],f32>) -> !torch.vtensor<[2,8],f32> {
  %0 = "torch.aten.relu"(%x) : (!torch.vtensor<[2,8],f32>) -> !torch.vtensor<[2,8],f32>
  // expected-error@+1 {{'dti.gelu' is not an op of the dit, func, arith or builtin dialects (dit-convert-torch-to-dit converts the torch dialect only)}}
  %1 = "dti.gelu"(%0) {approximate = "tanh"} : (!torch.vtensor<[2,8],f32>) -> !torch.vtensor<[2,8],f32>
  return %1 : !torch.vtensor<[2,8],f32>
}

// -----

// A foreign op in an otherwise plain dit file.
func.func @foreign(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'foo.bar' is not an op of the dit, func, arith or builtin dialects}}
  %0 = "foo.bar"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// dit needs ranked tensors: an unknown rank cannot be converted.
func.func @unranked(%x: !torch.vtensor<[2,8],f32>) -> !torch.vtensor<[2,8],f32> {
  // expected-error@+1 {{result #0 of 'torch.aten.relu': the value tensor has unknown rank (sizes '*'): dit needs ranked tensors; refine the shapes in torch-mlir first}}
  %0 = "torch.aten.relu"(%x) : (!torch.vtensor<[2,8],f32>) -> !torch.vtensor<*,f32>
  %1 = "torch.tensor_static_info_cast"(%0) : (!torch.vtensor<*,f32>) -> !torch.vtensor<[2,8],f32>
  return %1 : !torch.vtensor<[2,8],f32>
}

// -----

// An unknown dtype.
func.func @unknown_dtype(%x: !torch.vtensor<[2,8],f32>) -> !torch.vtensor<[2,8],f32> {
  // expected-error@+1 {{result #0 of 'torch.aten.relu': the value tensor has an unknown dtype: refine the dtypes in torch-mlir first}}
  %0 = "torch.aten.relu"(%x) : (!torch.vtensor<[2,8],f32>) -> !torch.vtensor<[2,8],unk>
  %1 = "torch.aten.neg"(%0) : (!torch.vtensor<[2,8],unk>) -> !torch.vtensor<[2,8],f32>
  return %1 : !torch.vtensor<[2,8],f32>
}

// -----

// A dtype with no builtin equivalent, and a size that is no dimension, in the signature.
// expected-error@+2 {{argument #0: dtype 'f128' has no builtin MLIR equivalent}}
// expected-error@+1 {{argument #1: size 'n' is not a dimension}}
func.func @bad_signature(%x: !torch.vtensor<[2],f128>, %y: !torch.vtensor<[n],f32>) -> !torch.vtensor<[2],f32> {
  %0 = "torch.aten.relu"(%y) : (!torch.vtensor<[n],f32>) -> !torch.vtensor<[2],f32>
  return %0 : !torch.vtensor<[2],f32>
}

// -----

// dit functions take tensors: a scalar argument is an error (non-value tensors too).
// expected-error@+2 {{argument #1 has type !torch.int: dit functions take tensors only}}
// expected-error@+1 {{argument #2: a non-value tensor (!torch.tensor): lower the module to value semantics first (torch-mlir's backend contract uses !torch.vtensor)}}
func.func @scalar_argument(%x: !torch.vtensor<[2],f32>, %n: !torch.int, %t: !torch.tensor<[2],f32>) -> !torch.vtensor<[2],f32> {
  %0 = "torch.aten.relu"(%x) : (!torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32>
  return %0 : !torch.vtensor<[2],f32>
}

// -----

// A list of tensors must be taken apart by torch.prim.ListUnpack.
func.func @list_read_directly(%x: !torch.vtensor<[2,8],f32>) -> !torch.vtensor<[2,8],f32> {
  %c4 = "torch.constant.int"() {value = 4 : i64} : () -> !torch.int
  %c1 = "torch.constant.int"() {value = 1 : i64} : () -> !torch.int
  // expected-error@+1 {{the tensor list 'torch.aten.split.Tensor' returns is read by 'torch.aten.cat': dit can only take a list of tensors apart with torch.prim.ListUnpack}}
  %0 = "torch.aten.split.Tensor"(%x, %c4, %c1) : (!torch.vtensor<[2,8],f32>, !torch.int, !torch.int) -> !torch.list<vtensor>
  %1 = "torch.aten.cat"(%0, %c1) : (!torch.list<vtensor>, !torch.int) -> !torch.vtensor<[2,8],f32>
  return %1 : !torch.vtensor<[2,8],f32>
}

// -----

// Control flow is not converted.
func.func @regions(%x: !torch.vtensor<[2],f32>, %c: !torch.vtensor<[],i1>) -> !torch.vtensor<[2],f32> {
  %b = "torch.aten.Bool.Tensor"(%c) : (!torch.vtensor<[],i1>) -> !torch.bool
  // expected-error@+1 {{'torch.prim.If' has regions: dit-convert-torch-to-dit converts straight-line graphs only}}
  %0 = "torch.prim.If"(%b) ({
    "torch.prim.If.yield"(%x) : (!torch.vtensor<[2],f32>) -> ()
  }, {
    "torch.prim.If.yield"(%x) : (!torch.vtensor<[2],f32>) -> ()
  }) : (!torch.bool) -> !torch.vtensor<[2],f32>
  return %0 : !torch.vtensor<[2],f32>
}

// -----

// A torch scalar that the function returns cannot be expressed.
func.func @scalar_result(%x: !torch.vtensor<[2,8],f32>) -> !torch.int {
  %c1 = "torch.constant.int"() {value = 1 : i64} : () -> !torch.int
  // expected-error@+1 {{'torch.aten.size.int' is still used (by 'func.return'): its !torch.int cannot be expressed in dit}}
  %0 = "torch.aten.size.int"(%x, %c1) : (!torch.vtensor<[2,8],f32>, !torch.int) -> !torch.int
  return %0 : !torch.int
}

// -----

// An op without results that is no runtime check (a write) has an effect dit cannot express.
func.func @mutation(%x: !torch.vtensor<[2],f32>, %y: !torch.vtensor<[2],f32>) -> !torch.vtensor<[2],f32> {
  // expected-error@+1 {{result #0 of 'torch.copy.to_tensor': a non-value tensor (!torch.tensor): lower the module to value semantics first}}
  %t = "torch.copy.to_tensor"(%x) : (!torch.vtensor<[2],f32>) -> !torch.tensor<[2],f32>
  // expected-error@+1 {{'torch.overwrite.tensor.contents' has no results and is no runtime check: dit cannot express its effect}}
  "torch.overwrite.tensor.contents"(%y, %t) : (!torch.vtensor<[2],f32>, !torch.tensor<[2],f32>) -> ()
  return %x : !torch.vtensor<[2],f32>
}
