// The CMake project of `--emit=ascendc`: without CANN it says so; with ASCEND_HOME_PATH it
// hands the kernels to ascendc (here a stand-in ascendc.cmake that records the call); with
// -DDIT_CPU_MODEL=ON it builds libdit_kernels.so against the CPU model of Ascend C, and the
// runtime's CPU backend runs the block's dit.fused groups through it (DIT_ASCENDC_KERNELS).
// The input is the reduced FLUX double block of test/models/exec.
// RUN: rm -rf %t
// RUN: dit-opt %dit_root/test/models/exec/flux_double_block.mlir --fuse-all --emit=ascendc -o %t
// RUN: not cmake -S %t -B %t/no-cann 2>&1 | FileCheck %s --check-prefix=NOCANN
// RUN: cmake -S %t -B %t/cann -DASCEND_HOME_PATH=%S/Inputs/fake-cann | FileCheck %s --check-prefix=CANN
// RUN: not cmake -S %t -B %t/bad-cann -DASCEND_HOME_PATH=%S/Inputs 2>&1 | FileCheck %s --check-prefix=BADCANN
// RUN: cmake -S %t -B %t/cpu -DDIT_CPU_MODEL=ON | FileCheck %s --check-prefix=CPU
// RUN: cmake --build %t/cpu -j 2 > %t/build.log
// RUN: env DIT_ASCENDC_KERNELS=%t/cpu/libdit_kernels.so DIT_ASCENDC_CORES=3 dit-run %dit_root/test/models/exec/flux_double_block.mlir --compare-unfused | FileCheck %s --check-prefix=JIT

// NOCANN: CANN toolkit not found: ASCEND_HOME_PATH is not set.
// NOCANN: -DDIT_CPU_MODEL=ON

// The RoPE tables (f32, bf16 x: rule rope.cos_dtype) are cast once at load, so both rotations
// are dit.rope and join a generated kernel with the norms. The two first AdaLayerNorms read
// different pieces of the modulation and save no DDR bytes together, but one launch (the
// target's 10 us of launch overhead, worth more than min-benefit of these small tensors'
// bytes): they merge into one generated kernel, 5 in all.
// CANN: dit: 5 kernel(s) for ascend910b, built with ascendc for Ascend910B1
// CANN: ascendc_library(dit_ascendc_kernels STATIC {{.*}}/kernels/fused_flux_double_block_0.cpp;{{.*}}/kernels/fused_flux_double_block_4.cpp)
// CANN: Configuring done

// BADCANN: CANN toolkit without ascendc_kernel_cmake

// CPU: dit: 5 kernel(s) for ascend910b, built against the CPU model of Ascend C (UB 196608 bytes)

// JIT: @flux_double_block: reference 103 kernels, fuse-all 18 kernels (18 launches per call
// JIT: output 0 bf16[1,8,64]: {{.*}} ok
// JIT: output 1 bf16[1,16,64]: {{.*}} ok
