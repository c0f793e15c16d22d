// dit.attention with causal = true lowers to FusedInferAttentionScore (V2 on Atlas A2/A3, V5 on
// Ascend 950) with the attribute in its launch, where the kernel table's causal entry passes
// sparseMode 2 (leftUpCausal) and the runtime's 2048x2048 attenMask (kernels.rs); the lowered
// module runs (JIT-compiled, on the CPU reference) to the values worked out by hand below.
// RUN: dit-opt %s --dit-lower-to-aclnn | FileCheck %s
// RUN: dit-opt %s --target=ascend950 --dit-lower-to-aclnn | FileCheck %s --check-prefix=A5
// RUN: dit-run %s --print-outputs | FileCheck %s --check-prefix=EXEC
// The report names the one 2048x2048 INT8 mask the backend keeps resident (no kernel, no operand).
// RUN: dit-opt %s --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// q = 0 gives equal scores, so each query's output is the mean of the v rows it may see:
// top-left aligned (torch's is_causal), query i sees keys 0..i. 2 queries over 3 keys: [1 2]
// and mean([1 2], [3 4]) = [2 3] (a bottom-right alignment would give [2 3] and [3 4]).
// 3 queries over 2 keys: [1 2], [2 3], [2 3].
// CHECK-DAG: ("aclnnFusedInferAttentionScoreV2\00")
// CHECK-DAG: causal\22:true
// CHECK-LABEL: func.func @causal_attention(
// CHECK-SAME: dit.launches = 2 : i64
// A5-DAG: ("aclnnFusedInferAttentionScoreV5\00")
// A5-DAG: causal\22:true
// REPORT: kernels: 2 before, 2 after
// REPORT-NEXT: pre-pack
// REPORT-NEXT: device-resident constants (uploaded once per device, no kernel): 4.0 MiB
// EXEC-LABEL: @causal_attention: 2 kernels
// EXEC: values f32[1,1,2,2]: [1.000000, 2.000000, 2.000000, 3.000000]
// EXEC: values f32[1,1,3,2]: [1.000000, 2.000000, 2.000000, 3.000000, 2.000000, 3.000000]
func.func @causal_attention() -> (tensor<1x1x2x2xf32>, tensor<1x1x3x2xf32>) {
  %q = arith.constant dense<0.0> : tensor<1x1x2x2xf32>
  %k = arith.constant dense<[[[[0.3, -0.1], [0.2, 0.2], [0.0, 0.5]]]]> : tensor<1x1x3x2xf32>
  %v = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]]]> : tensor<1x1x3x2xf32>
  %a = "dit.attention"(%q, %k, %v) {causal = true, operandSegmentSizes = array<i32: 1, 1, 1, 0>, scale = 5.000000e-01 : f32} : (tensor<1x1x2x2xf32>, tensor<1x1x3x2xf32>, tensor<1x1x3x2xf32>) -> tensor<1x1x2x2xf32>
  %q3 = arith.constant dense<0.0> : tensor<1x1x3x2xf32>
  %k2 = arith.constant dense<[[[[0.3, -0.1], [0.2, 0.2]]]]> : tensor<1x1x2x2xf32>
  %v2 = arith.constant dense<[[[[1.0, 2.0], [3.0, 4.0]]]]> : tensor<1x1x2x2xf32>
  %b = "dit.attention"(%q3, %k2, %v2) {causal = true, operandSegmentSizes = array<i32: 1, 1, 1, 0>, scale = 5.000000e-01 : f32} : (tensor<1x1x3x2xf32>, tensor<1x1x2x2xf32>, tensor<1x1x2x2xf32>) -> tensor<1x1x3x2xf32>
  return %a, %b : tensor<1x1x2x2xf32>, tensor<1x1x3x2xf32>
}
