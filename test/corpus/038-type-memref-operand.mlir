func.func @f(%x: memref<4xf32>) -> memref<4xf32> {
  %0 = "dit.relu"(%x) : (memref<4xf32>) -> memref<4xf32>
  return %0 : memref<4xf32>
}
