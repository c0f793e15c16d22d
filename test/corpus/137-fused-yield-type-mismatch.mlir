func.func @f(%x: tensor<4xf32>) -> tensor<4xf16> {
  %0 = "dit.fused"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    "dit.yield"(%a) : (tensor<4xf32>) -> ()
  }) {kernel = "k"} : (tensor<4xf32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}
