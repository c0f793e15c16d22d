// Issue 13 item 8: dit-run refuses a run whose tensors would not fit in memory (a 40 TB tensor
// allocated until the process was killed; --dynamic-dim 65536 aborted on a 1 PB allocation),
// with a located error naming the largest tensor; --max-memory sets the limit (default: half
// the physical memory). --max-elements no longer overflows counting elements.
// RUN: not dit-run %s --split-input-file 2>&1 | FileCheck %s
// RUN: not dit-run %s --split-input-file --max-memory=1K 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: not dit-run %s --split-input-file --dynamic-dim 65536 --max-memory=16M 2>&1 | FileCheck %s --check-prefix=DYN
// RUN: not dit-run %s --split-input-file --max-memory=12 2>&1 | FileCheck %s --check-prefix=BYTES
// RUN: not dit-run %s --max-memory=lots 2>&1 | FileCheck %s --check-prefix=FLAG

// CHECK-NOT: panicked
// CHECK: seed-fidelity-dit-run-memory.mlir:[[@LINE+2]]:8: error: @big needs 72.8 TiB for its tensors, over --max-memory={{.*}}; the largest is result #0 of 'dit.relu' (tensor<10000000x1000000xf32>), 36.4 TiB
func.func @big(%x: tensor<10000000x1000000xf32>) -> tensor<10000000x1000000xf32> {
  %0 = "dit.relu"(%x) : (tensor<10000000x1000000xf32>) -> tensor<10000000x1000000xf32>
  return %0 : tensor<10000000x1000000xf32>
}

// -----

// SMALL: seed-fidelity-dit-run-memory.mlir:[[@LINE+3]]:8: error: @small needs 4.0 KiB for its tensors, over --max-memory=1.0 KiB; the largest is result #0 of 'dit.neg' (tensor<128x4xf32>), 2.0 KiB
// DYN: seed-fidelity-dit-run-memory.mlir:[[@LINE+2]]:8: error: @small needs 64.0 MiB for its tensors, over --max-memory=16.0 MiB; the largest is result #0 of 'dit.neg' (tensor<128x65536xf32>), 32.0 MiB
func.func @small(%x: tensor<128x?xf32>) -> tensor<128x?xf32> {
  %0 = "dit.neg"(%x) : (tensor<128x?xf32>) -> tensor<128x?xf32>
  return %0 : tensor<128x?xf32>
}

// BYTES: error: @small needs 4.0 KiB for its tensors, over --max-memory=12 B
// FLAG: <command line>: error: --max-memory: 'lots' is not a positive byte count
