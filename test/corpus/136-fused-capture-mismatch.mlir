func.func @f(%x: tensor<4xf32>) -> tensor<8xf32> {
  %0 = "dit.fused"(%x) ({
  ^bb0(%a: tensor<8xf32>):
    "dit.yield"(%a) : (tensor<8xf32>) -> ()
  }) {kernel = "k"} : (tensor<4xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}
