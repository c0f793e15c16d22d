// The unfused reference: a SwiGLU whose gate is the SECOND half (as some models write it).
func.func @swiglu(%x: tensor<4x64xbf16>) -> tensor<4x32xbf16> {
  %a, %b = "dit.split"(%x) {dim = 1 : i64, sizes = array<i64: 32, 32>} : (tensor<4x64xbf16>) -> (tensor<4x32xbf16>, tensor<4x32xbf16>)
  %g = "dit.silu"(%b) : (tensor<4x32xbf16>) -> tensor<4x32xbf16>
  %y = "dit.mul"(%g, %a) : (tensor<4x32xbf16>, tensor<4x32xbf16>) -> tensor<4x32xbf16>
  return %y : tensor<4x32xbf16>
}
