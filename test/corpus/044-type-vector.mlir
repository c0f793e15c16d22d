func.func @f(%x: vector<4xf32>) -> vector<4xf32> {
  %0 = "dit.relu"(%x) : (vector<4xf32>) -> vector<4xf32>
  return %0 : vector<4xf32>
}
