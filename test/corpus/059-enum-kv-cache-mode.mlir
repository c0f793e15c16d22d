func.func @f(%kv: tensor<2x1x1x576xf16>, %g: tensor<512xf16>, %c: tensor<2x1x1x64xf16>, %i: tensor<2xi64>, %k: tensor<4x1x8x576xf16>) -> tensor<4x1x8x576xf16> {
  %0 = "dit.kv_rms_norm_rope_cache"(%kv, %g, %c, %c, %i, %k, %k) {epsilon = 1.0e-05 : f32, cache_mode = "Paged"} : (tensor<2x1x1x576xf16>, tensor<512xf16>, tensor<2x1x1x64xf16>, tensor<2x1x1x64xf16>, tensor<2xi64>, tensor<4x1x8x576xf16>, tensor<4x1x8x576xf16>) -> tensor<4x1x8x576xf16>
  return %0 : tensor<4x1x8x576xf16>
}
