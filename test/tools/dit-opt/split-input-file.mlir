// Each chunk is parsed on its own, errors carry the line in the whole file, and the good
// chunks still print, separated by '// -----'.
// RUN: not dit-opt %s --split-input-file 2>&1 >%t.out | FileCheck %s --check-prefix=ERR
// RUN: FileCheck %s --check-prefix=OUT < %t.out
// RUN: not dit-opt %s 2>&1 | FileCheck %s --check-prefix=WHOLE

// OUT: func.func @first
// OUT: // -----
// OUT: func.func @third
func.func @first(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "dit.exp"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @second(%x: tensor<8xf32>) -> tensor<8xf32> {
// ERR: split-input-file.mlir:[[@LINE+1]]:8: error: 'dit.gelu' op requires attribute 'approximate'
  %0 = "dit.gelu"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @third(%x: tensor<8xf32>) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}

// Without splitting, the file is one module and the first error stops it.
// WHOLE: split-input-file.mlir:{{[0-9]+}}:{{[0-9]+}}: error:
