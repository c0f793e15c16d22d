// Seed 004 at aggressive level 2: the user's blacklist and min-benefit bind every kernel
// dit-auto-fuse makes, however the group was formed (a chain, a sibling merge, a recomputed
// branch), and a kernel's outputs are distinct values.
//
// RUN: dit-opt %s --split-input-file --pass-pipeline='builtin.module(dit-auto-fuse{blacklist=dit.add:dit.exp})' | FileCheck %s --check-prefix=BLACK
// RUN: dit-opt %s --split-input-file --dit-auto-fuse | FileCheck %s
// RUN: dit-opt %s --split-input-file --dit-auto-fuse --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: dit-opt %s --split-input-file --pass-pipeline='builtin.module(dit-auto-fuse{min-benefit=0.9})' | FileCheck %s --check-prefix=STRICT
// RUN: dit-opt %s --split-input-file --pass-pipeline='builtin.module(dit-auto-fuse{min-benefit=0.9})' --fusion-report=text -o /dev/null 2>&1 | FileCheck %s --check-prefix=STRICT-REPORT
// RUN: dit-run %s --split-input-file --compare-unfused --pipeline='builtin.module(dit-auto-fuse{min-benefit=0.9})' > /dev/null
// RUN: dit-run %s --split-input-file --compare-unfused --pipeline='builtin.module(dit-auto-fuse{blacklist=dit.add:dit.exp})' > /dev/null

// add -> exp is blacklisted. The chain step keeps them apart, but {add} and {exp, mul} both
// read %x, and the sibling merge used to join them into add -> exp -> mul.
// BLACK-LABEL: func.func @blacklist_across_sibling_merge
// BLACK: %[[A:.*]] = "dit.add"(%arg0, %arg1)
// BLACK-NEXT: "dit.fused"(%[[A]], %arg0)
// BLACK-NOT: "dit.add"
// BLACK: "dit.exp"
// BLACK-NEXT: "dit.mul"
// BLACK-NEXT: "dit.yield"
func.func @blacklist_across_sibling_merge(%x: tensor<8x64xf32>, %y: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %a = "dit.add"(%x, %y) : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  %e = "dit.exp"(%a) : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %m = "dit.mul"(%e, %x) : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
  return %m : tensor<8x64xf32>
}

// -----

// Two kernels on the two halves of %x share no tensor and no intermediate: one launch would
// move the same bytes and save one launch overhead. A launch (10 us at 1.6 TB/s on the
// default target) counts as 16 MB saved; against these 100 MB that is 16%, below min-benefit
// (20%), which refuses the merge.
// CHECK-LABEL: func.func @siblings_saving_nothing
// CHECK-NOT: "dit.fused"
// CHECK: return
// REPORT: skipped at {{.*}}seed-fidelity-auto-fuse-level2.mlir:[[@LINE+5]]:8: sibling merge: 2 ops would save 0% of their DDR bytes and 1 launch (worth 16%), below min-benefit 20%
func.func @siblings_saving_nothing(%x: tensor<12288x1024xf32>) -> (tensor<6144x1024xf32>, tensor<6144x1024xf32>) {
  %a = "dit.slice"(%x) {dim = 0 : i64, start = 0 : i64, end = 6144 : i64, step = 1 : i64} : (tensor<12288x1024xf32>) -> tensor<6144x1024xf32>
  %b = "dit.slice"(%x) {dim = 0 : i64, start = 6144 : i64, end = 12288 : i64, step = 1 : i64} : (tensor<12288x1024xf32>) -> tensor<6144x1024xf32>
  %e = "dit.exp"(%a) : (tensor<6144x1024xf32>) -> tensor<6144x1024xf32>
  %n = "dit.neg"(%b) : (tensor<6144x1024xf32>) -> tensor<6144x1024xf32>
  return %e, %n : tensor<6144x1024xf32>, tensor<6144x1024xf32>
}

// -----

// Two kernels reading one tensor: merged, the tensor is read once (25% of their bytes).
// CHECK-LABEL: func.func @siblings_sharing_a_read
// CHECK: %[[F:.*]]:2 = "dit.fused"(%arg0)
// CHECK: "dit.exp"
// CHECK: "dit.neg"
// CHECK: "dit.yield"
// REPORT: applied at {{.*}}seed-fidelity-auto-fuse-level2.mlir:[[@LINE+3]]:8: fused_siblings_sharing_a_read_0: exp -> neg (2 ops, 2 outputs, 2 sibling kernels reading the same tensors in one launch), UB {{[0-9]+}} B at the smallest tile, saves 25% of their DDR bytes
func.func @siblings_sharing_a_read(%x: tensor<8x64xf32>) -> (tensor<8x64xf32>, tensor<8x64xf32>) {
  %e = "dit.exp"(%x) : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %n = "dit.neg"(%x) : (tensor<8x64xf32>) -> tensor<8x64xf32>
  return %e, %n : tensor<8x64xf32>, tensor<8x64xf32>
}

// -----

// exp is recomputed for each of its two users. With the default min-benefit each copy joins
// its user and the kernel computes exp once. With min-benefit 0.9 no copy joins its user: the
// recomputation is undone (the copies used to stay, sibling-merged into a kernel that yielded
// one value twice, "dit.yield"(%2, %2)); exp stays alone, and neg and sqrt, which both read
// it, merge into one kernel of two distinct outputs (a launch saved on tensors this small is
// worth more than 90% of their bytes).
// CHECK-LABEL: func.func @recompute_that_fails
// CHECK: %[[F:.*]]:2 = "dit.fused"(%arg0)
// CHECK-COUNT-1: "dit.exp"
// CHECK-NOT: "dit.exp"
// CHECK: %[[N:.*]] = "dit.neg"
// CHECK-NEXT: %[[S:.*]] = "dit.sqrt"
// CHECK-NEXT: "dit.yield"(%[[N]], %[[S]])
// REPORT: applied at {{.*}}seed-fidelity-auto-fuse-level2.mlir:[[@LINE+11]]:8: recomputed dit.exp for each of its 2 users
// STRICT-LABEL: func.func @recompute_that_fails
// STRICT: %[[E:.*]] = "dit.exp"(%arg0)
// STRICT-NOT: "dit.exp"
// STRICT: "dit.fused"(%[[E]])
// STRICT: %[[N:.*]] = "dit.neg"
// STRICT-NEXT: %[[S:.*]] = "dit.sqrt"
// STRICT-NEXT: "dit.yield"(%[[N]], %[[S]])
// STRICT-REPORT-NOT: recomputed
// STRICT-REPORT: skipped at {{.*}}seed-fidelity-auto-fuse-level2.mlir:[[@LINE+4]]:8: 3 ops would save 33% of their DDR bytes, below min-benefit 90%
func.func @recompute_that_fails(%x: tensor<8x64xf32>) -> (tensor<8x64xf32>, tensor<8x64xf32>) {
  %p = "dit.exp"(%x) : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %a = "dit.neg"(%p) : (tensor<8x64xf32>) -> tensor<8x64xf32>
  %b = "dit.sqrt"(%p) : (tensor<8x64xf32>) -> tensor<8x64xf32>
  return %a, %b : tensor<8x64xf32>, tensor<8x64xf32>
}
