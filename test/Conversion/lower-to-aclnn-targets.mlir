// The lowering picks each op's aclnn operator for --target's chip. FusedInferAttentionScore:
// op-plugin calls V5 on Ascend 950, where V1-V4 are not supported ([ops-transformer]
// attention/fused_infer_attention_score/docs/aclnnFusedInferAttentionScoreV2.md and V5.md,
// 产品支持情况); on Atlas A2/A3 dit calls V2.
// RUN: dit-opt %s --dit-lower-to-aclnn --target=ascend910b | FileCheck %s --check-prefix=A2
// RUN: dit-opt %s --dit-lower-to-aclnn --target=ascend910_93 | FileCheck %s --check-prefix=A2
// RUN: dit-opt %s --dit-lower-to-aclnn --target=ascend950 | FileCheck %s --check-prefix=A5
// A2: ("aclnnFusedInferAttentionScoreV2\00")
// A2-NOT: aclnnFusedInferAttentionScoreV5
// A5: ("aclnnFusedInferAttentionScoreV5\00")
// A5-NOT: aclnnFusedInferAttentionScoreV2
// Both run (the CPU reference computes the same attention whichever operator is named).
// RUN: dit-run %s --target=ascend950 --pipeline='builtin.module(dit-canonicalize)' --compare-unfused | FileCheck %s --check-prefix=EXEC
// EXEC: @attention: reference 1 kernels
// EXEC: output 0 bf16[1,8,2,64]: max abs error 0.000e0, cosine 1.000000 ok
func.func @attention(%q: tensor<1x8x2x64xbf16>, %k: tensor<1x8x2x64xbf16>, %v: tensor<1x8x2x64xbf16>) -> tensor<1x8x2x64xbf16> {
  %o = "dit.attention"(%q, %k, %v) {scale = 0.125 : f32, layout = "BSND", operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<1x8x2x64xbf16>, tensor<1x8x2x64xbf16>, tensor<1x8x2x64xbf16>) -> tensor<1x8x2x64xbf16>
  return %o : tensor<1x8x2x64xbf16>
}
