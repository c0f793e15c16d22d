func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "dit.fused"(%x) ({
  ^bb0(%a: tensor<4xf32>):
    "dit.yield"(%a) : (tensor<4xf32>) -> ()
  }) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
