// Input of capi.c: a tanh GELU, which dit-fuse-patterns turns into dit.fast_gelu.
func.func @fast_gelu_tanh(%x: tensor<4x8xbf16>) -> tensor<4x8xbf16> {
  %g = "dit.gelu"(%x) {approximate = "tanh"} : (tensor<4x8xbf16>) -> tensor<4x8xbf16>
  return %g : tensor<4x8xbf16>
}
