func.func @f(%x: f32) -> f32 {
  %0 = "dit.relu"(%x) : (f32) -> f32
  return %0 : f32
}
