// --emit writes the lowered module as LLVM IR, assembly, an object file or the C header of its
// entry points; the dit ops are lowered first (dit-lower-to-aclnn) when the pipeline did not.
// RUN: dit-opt %s --fuse-all --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: dit-opt %s --emit=asm | FileCheck %s --check-prefix=ASM
// RUN: dit-opt %s --fuse-all --emit=obj -o %t.o
// RUN: llvm-nm %t.o | FileCheck %s --check-prefix=OBJ
// RUN: dit-opt %s --emit=header | FileCheck %s --check-prefix=HEADER
// RUN: dit-opt %s --dit-lower-to-aclnn | dit-opt --emit=llvm | FileCheck %s --check-prefix=LLVM
// RUN: not dit-opt %s --emit=bogus 2>&1 | FileCheck %s --check-prefix=BAD

// LLVM: declare void @dit_rt_launch(ptr, ptr, ptr, ptr, ptr, i32, ptr, i32)
// LLVM: define i32 @block(ptr %0, ptr %1, ptr %2)
// LLVM: call ptr @dit_rt_wrap(
// LLVM: call void @dit_rt_launch(
// LLVM: call i32 @dit_rt_status(
// ASM: block:
// ASM: dit_rt_launch
// OBJ-DAG: T block
// OBJ-DAG: U dit_rt_launch
// OBJ-DAG: U dit_rt_wrap
// OBJ-DAG: U dit_rt_copy_out
// HEADER: #include "dit_runtime.h"
// HEADER: /* block: 2 inputs, 1 outputs, in caller-owned dit_tensor_desc arrays.
// HEADER-NEXT:  *   inputs[0]:  f16 [4, 64]
// HEADER-NEXT:  *   inputs[1]:  f16 [64]
// HEADER-NEXT:  *   outputs[0]: f16 [4, 64] (the caller allocates data)
// HEADER: #define BLOCK_NUM_INPUTS 2
// HEADER: int32_t block(dit_context *ctx, const dit_tensor_desc *inputs, dit_tensor_desc *outputs);
// BAD: error: invalid value 'bogus' for '--emit <KIND>'
func.func @block(%x: tensor<4x64xf16>, %g: tensor<64xf16>) -> tensor<4x64xf16> {
  %s = "dit.sigmoid"(%x) : (tensor<4x64xf16>) -> tensor<4x64xf16>
  %m = "dit.mul"(%x, %s) : (tensor<4x64xf16>, tensor<4x64xf16>) -> tensor<4x64xf16>
  %n = "dit.rms_norm"(%m, %g) {epsilon = 1.0e-6 : f32} : (tensor<4x64xf16>, tensor<64xf16>) -> tensor<4x64xf16>
  return %n : tensor<4x64xf16>
}
