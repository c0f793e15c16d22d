// Issue 13 item 8: dit-run's input errors say where (they printed `F: error: no function to
// run`). The NUL, nesting and UTF-8 cases cannot be lit files: tools/dit-run/tests/bad_input.rs.
// RUN: not dit-run %s 2>&1 | FileCheck %s
// RUN: not dit-run %s --split-input-file 2>&1 | FileCheck %s --check-prefix=SPLIT

// CHECK: seed-fidelity-dit-run-input.mlir:1:1: error: no function to run
// SPLIT: seed-fidelity-dit-run-input.mlir:[[@LINE+2]]:1: error: no function to run
// -----
module {
}
