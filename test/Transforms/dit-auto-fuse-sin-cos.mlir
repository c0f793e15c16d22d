// dit-auto-fuse keeps dit.sin / dit.cos out of generated kernels: the Ascend C emitter has no
// sine or cosine (AscendC's Sin/Cos need a tmp buffer sized by GetSinCosMaxMinTmpSize, which the
// plan does not budget), so each stays one aclnnSin / aclnnCos kernel and the vector ops on
// either side fuse without it. The fused module must compute what the unfused one does.
//
// RUN: dit-opt %s --dit-auto-fuse | FileCheck %s
// RUN: dit-run %s --compare-unfused --pipeline='builtin.module(dit-auto-fuse)' > /dev/null

// CHECK-LABEL: func.func @sin_between_vector_ops
// CHECK: %[[A:.*]] = "dit.fused"(%arg0, %arg1)
// CHECK-NOT: dit.sin
// CHECK: kernel = "fused_sin_between_vector_ops_0"
// CHECK-NEXT: %[[S:.*]] = "dit.sin"(%[[A]]) : (tensor<4x64xf32>) -> tensor<4x64xf32>
// CHECK-NEXT: "dit.fused"(%[[S]], %arg0, %arg1)
// CHECK-NOT: dit.sin
// CHECK: kernel = "fused_sin_between_vector_ops_1"
func.func @sin_between_vector_ops(%x: tensor<4x64xf32>, %y: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %a = "dit.mul"(%x, %y) : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  %b = "dit.add"(%a, %y) : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  %s = "dit.sin"(%b) : (tensor<4x64xf32>) -> tensor<4x64xf32>
  %c = "dit.mul"(%s, %x) : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  %d = "dit.sub"(%c, %y) : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  return %d : tensor<4x64xf32>
}

// CHECK-LABEL: func.func @cos_between_vector_ops
// CHECK: "dit.fused"
// CHECK: "dit.cos"
// CHECK-NOT: "dit.cos"
// CHECK: return
func.func @cos_between_vector_ops(%x: tensor<4x64xbf16>, %y: tensor<4x64xbf16>) -> tensor<4x64xbf16> {
  %a = "dit.mul"(%x, %y) : (tensor<4x64xbf16>, tensor<4x64xbf16>) -> tensor<4x64xbf16>
  %b = "dit.add"(%a, %y) : (tensor<4x64xbf16>, tensor<4x64xbf16>) -> tensor<4x64xbf16>
  %s = "dit.cos"(%b) : (tensor<4x64xbf16>) -> tensor<4x64xbf16>
  %c = "dit.mul"(%s, %x) : (tensor<4x64xbf16>, tensor<4x64xbf16>) -> tensor<4x64xbf16>
  return %c : tensor<4x64xbf16>
}
