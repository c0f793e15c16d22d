func.func @f() -> tensor<3xf32> {
  %c = arith.constant dense<[1.0, 2.0]> : tensor<3xf32>
  return %c : tensor<3xf32>
}
