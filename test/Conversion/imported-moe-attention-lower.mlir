// Issue 14: the imported HiDream blocks (MoE in the importer's grouped-GEMM form) and the LTX
// block (additive encoder mask) convert, fuse and lower at their real widths with nothing left
// opaque: the MoE routing is aclnnMoeGatingTopKSoftmax (the router's softmax -> topk) +
// aclnnMoeInitRoutingV2 + grouped matmuls + aclnnMoeFinalizeRoutingV2 (no primitive routing
// step is left), and LTX's masked SDPA is
// FusedInferAttentionScore with the mask as pseShift (mask_kind = "additive"). Running them is
// checked at reduced widths against torch by test/golden/{hidream_*,ltx_video_block}.
// RUN: dit-opt %dit_root/test/models/imported/hidream_double_block.mlir --dit-convert-torch-to-dit --fuse-all --dit-lower-to-aclnn | FileCheck %s --check-prefix=HIDREAM
// RUN: dit-opt %dit_root/test/models/imported/hidream_single_block.mlir --dit-convert-torch-to-dit --fuse-all --dit-lower-to-aclnn | FileCheck %s --check-prefix=HIDREAM
// RUN: dit-opt %dit_root/test/models/imported/hidream_single_block.mlir --dit-convert-torch-to-dit --fuse-all | FileCheck %s --check-prefix=TOKENS
// RUN: dit-opt %dit_root/test/models/imported/hidream_double_block.mlir --dit-convert-torch-to-dit --fuse-all --dit-lower-to-aclnn | not grep -e aclnnSort -e aclnnIndexAdd -e aclnnIndexSelect -e aclnnScatterAdd -e aclnnCumsum -e aclnnFloorDivide -e aclnnTopk
// RUN: dit-opt %dit_root/test/models/imported/ltx_video_block.mlir --dit-convert-torch-to-dit --fuse-all --dit-lower-to-aclnn | FileCheck %s --check-prefix=LTX
// RUN: dit-opt %dit_root/test/models/imported/ltx_video_block.mlir --dit-convert-torch-to-dit --fuse-all --target=ascend950 --dit-lower-to-aclnn | FileCheck %s --check-prefix=LTX950

// HIDREAM-DAG: ("aclnnMoeGatingTopKSoftmax\00")
// HIDREAM-DAG: ("aclnnMoeInitRoutingV2\00")
// HIDREAM-DAG: ("aclnnGroupedMatmulV4\00")
// HIDREAM-DAG: ("aclnnMoeFinalizeRoutingV2\00")
// HIDREAM-NOT: dit.opaque

// aclnnMoeInitRoutingV2 writes the tokens per expert as INT32 (expertTokensCountOrCumsumOut)
// and aclnnGroupedMatmulV4 reads an INT64 groupListOptional: one explicit cast between them,
// read by both grouped matmuls.
// TOKENS: %[[R:.*]]:3 = "dit.moe_init_routing"{{.*}} -> (tensor<8960x2560xbf16>, tensor<8960xi32>, tensor<4xi32>)
// TOKENS-NEXT: %[[W:.*]] = "dit.cast"(%[[R]]#2) : (tensor<4xi32>) -> tensor<4xi64>
// TOKENS: "dit.grouped_matmul"(%[[R]]#0, %{{.*}}, %[[W]])
// TOKENS: "dit.grouped_matmul"(%{{.*}}, %{{.*}}, %[[W]])

// LTX-DAG: ("aclnnFusedInferAttentionScoreV2\00")
// LTX-DAG: mask_kind\22:\22additive
// LTX-NOT: dit.opaque
// LTX950-DAG: ("aclnnFusedInferAttentionScoreV5\00")
// LTX950-DAG: mask_kind\22:\22additive
