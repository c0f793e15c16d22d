// Input of dit-outline-fused.mlir: two groups with the same kernel name.
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = "dit.fused"(%x) ({
  ^bb0(%a0: tensor<4xf32>):
    %0 = "dit.exp"(%a0) : (tensor<4xf32>) -> tensor<4xf32>
    "dit.yield"(%0) : (tensor<4xf32>) -> ()
  }) {kernel = "k_same"} : (tensor<4xf32>) -> tensor<4xf32>
  %b = "dit.fused"(%a) ({
  ^bb0(%a0: tensor<4xf32>):
    %0 = "dit.neg"(%a0) : (tensor<4xf32>) -> tensor<4xf32>
    "dit.yield"(%0) : (tensor<4xf32>) -> ()
  }) {kernel = "k_same"} : (tensor<4xf32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}
