// Issue 13 item 8: a target file's name and a dit.fused kernel name reach the generated
// CMakeLists.txt, C sources and kernels.json of --emit=ascendc. A name that could end a string
// or a comment there (quote, line break, `$`, `%`) is refused with a located error; nothing
// is written.
// RUN: rm -rf %t && not dit-opt %s --emit=ascendc -o %t --target=%S/Inputs/seed-fidelity-hostile-target.toml 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not ls %t/CMakeLists.txt
// RUN: rm -rf %t && not dit-opt %s --emit=ascendc -o %t 2>&1 | FileCheck %s --check-prefix=KERNEL
// RUN: not ls %t/CMakeLists.txt

// TARGET: <command line>: error: --target: {{.*}}seed-fidelity-hostile-target.toml:1:8: target name "x\")\nmessage(FATAL_ERROR injected)\nset(Y \"" may only hold letters, digits, '_', '-' and '.'

// KERNEL: seed-fidelity-cmake-injection.mlir:[[@LINE+2]]:8: error: --emit=ascendc: kernel name "k\")\nmessage(FATAL_ERROR injected) // %n" may only hold letters, digits, '_', '-' and '.'
func.func @f(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = "dit.fused"(%x) ({
  ^bb0(%a: tensor<4x16xf32>):
    %1 = "dit.relu"(%a) : (tensor<4x16xf32>) -> tensor<4x16xf32>
    %2 = "dit.neg"(%1) : (tensor<4x16xf32>) -> tensor<4x16xf32>
    "dit.yield"(%2) : (tensor<4x16xf32>) -> ()
  }) {kernel = "k\")\0Amessage(FATAL_ERROR injected) // %n"} : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}

