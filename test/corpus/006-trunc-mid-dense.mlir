func.func @f() -> tensor<4xf32> {
  %c = arith.constant dense<[1.0, 2.