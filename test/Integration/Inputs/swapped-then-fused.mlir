// The right fusion of gate-second-half.mlir: swap the halves, then dit.swiglu.
func.func @swiglu(%x: tensor<4x64xbf16>) -> tensor<4x32xbf16> {
  %a, %b = "dit.split"(%x) {dim = 1 : i64, sizes = array<i64: 32, 32>} : (tensor<4x64xbf16>) -> (tensor<4x32xbf16>, tensor<4x32xbf16>)
  %s = "dit.concat"(%b, %a) {dim = 1 : i64} : (tensor<4x32xbf16>, tensor<4x32xbf16>) -> tensor<4x64xbf16>
  %y = "dit.swiglu"(%s) {dim = 1 : i64} : (tensor<4x64xbf16>) -> tensor<4x32xbf16>
  return %y : tensor<4x32xbf16>
}
