func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
%r = "dit.fused"(%x) ({
^bb0(%a: tensor<4xf32>):
  "dit.yield"(%a) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
"dit.yield"(%r) : (tensor<4xf32>) -> ()
}) {kernel = ""} : (tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
