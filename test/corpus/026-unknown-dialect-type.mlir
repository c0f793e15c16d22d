func.func @f(%x: !foo.bar) -> tensor<4xf32> {
  %0 = "dit.relu"(%x) : (!foo.bar) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
