// Issue 14: the imported HiDream blocks (MoE in the importer's grouped-GEMM form) and the LTX
// block (additive encoder mask) convert, fuse and lower at their real widths with nothing left
// opaque: the MoE routing is aclnnTopk + aclnnMoeInitRoutingV2 + grouped matmuls +
// aclnnMoeFinalizeRoutingV2 (no primitive routing step is left), and LTX's masked SDPA is
// FusedInferAttentionScore with the mask as pseShift (mask_kind = "additive"). Running them is
// checked at reduced widths against torch by test/golden/{hidream_*,ltx_video_block}.
// RUN: dit-opt %dit_root/test/models/imported/hidream_double_block.mlir --dit-convert-torch-to-dit --fuse-all --dit-lower-to-aclnn | FileCheck %s --check-prefix=HIDREAM
// RUN: dit-opt %dit_root/test/models/imported/hidream_single_block.mlir --dit-convert-torch-to-dit --fuse-all --dit-lower-to-aclnn | FileCheck %s --check-prefix=HIDREAM
// RUN: dit-opt %dit_root/test/models/imported/hidream_double_block.mlir --dit-convert-torch-to-dit --fuse-all --dit-lower-to-aclnn | not grep -e aclnnSort -e aclnnIndexAdd -e aclnnIndexSelect -e aclnnScatterAdd -e aclnnCumsum -e aclnnFloorDivide
// RUN: dit-opt %dit_root/test/models/imported/ltx_video_block.mlir --dit-convert-torch-to-dit --fuse-all --dit-lower-to-aclnn | FileCheck %s --check-prefix=LTX
// RUN: dit-opt %dit_root/test/models/imported/ltx_video_block.mlir --dit-convert-torch-to-dit --fuse-all --target=ascend950 --dit-lower-to-aclnn | FileCheck %s --check-prefix=LTX950

// HIDREAM-DAG: ("aclnnTopk\00")
// HIDREAM-DAG: ("aclnnMoeInitRoutingV2\00")
// HIDREAM-DAG: ("aclnnGroupedMatmulV4\00")
// HIDREAM-DAG: ("aclnnMoeFinalizeRoutingV2\00")
// HIDREAM-NOT: dit.opaque

// LTX-DAG: ("aclnnFusedInferAttentionScoreV2\00")
// LTX-DAG: mask_kind\22:\22additive
// LTX-NOT: dit.opaque
// LTX950-DAG: ("aclnnFusedInferAttentionScoreV5\00")
// LTX950-DAG: mask_kind\22:\22additive
