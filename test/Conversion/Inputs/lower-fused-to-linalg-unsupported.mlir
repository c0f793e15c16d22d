// Groups dit-lower-fused-to-linalg refuses (test/Conversion/dit-lower-fused-to-linalg.mlir):
// every one is reported, at the op.
func.func @bad(%x: tensor<4x8xf32>) -> (tensor<4x8xi8>, tensor<8x4xf32>) {
  %r = "dit.fused"(%x) ({
  ^bb0(%a0: tensor<4x8xf32>):
    %0 = "dit.cast"(%a0) : (tensor<4x8xf32>) -> tensor<4x8xi8>
    "dit.yield"(%0) : (tensor<4x8xi8>) -> ()
  }) {kernel = "k_trunc"} : (tensor<4x8xf32>) -> tensor<4x8xi8>
  %t = "dit.fused"(%x) ({
  ^bb0(%a0: tensor<4x8xf32>):
    %0 = "dit.exp"(%a0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    "dit.yield"(%0) : (tensor<4x8xf32>) -> ()
  }) {kernel = "k_ok"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %u = "dit.fused"(%t) ({
  ^bb0(%a0: tensor<4x8xf32>):
    %0 = "dit.transpose"(%a0) {perm = array<i64: 1, 0>} : (tensor<4x8xf32>) -> tensor<8x4xf32>
    "dit.yield"(%0) : (tensor<8x4xf32>) -> ()
  }) {kernel = "k_transpose"} : (tensor<4x8xf32>) -> tensor<8x4xf32>
  return %r, %u : tensor<4x8xi8>, tensor<8x4xf32>
}

// Two groups with one kernel name would be one symbol (and one file): refused at the second.
func.func @twice(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %t = "dit.fused"(%x) ({
  ^bb0(%a0: tensor<4x8xf32>):
    %0 = "dit.exp"(%a0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
    "dit.yield"(%0) : (tensor<4x8xf32>) -> ()
  }) {kernel = "k_ok"} : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}
