// RUN: phobos-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(expand-subgroup-ids{disable-patterns=gpu.num_subgroups}))'
// Legality: a warp query the pass leaves behind is an error at the op, naming the pass.

gpu.module @m {
  gpu.func @k(%o: memref<2xindex>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %w = gpu.subgroup_id : index
    // expected-error @below {{'gpu.num_subgroups' op was not lowered by expand-subgroup-ids: failed to legalize this operation}}
    %n = gpu.num_subgroups : index
    %c0 = arith.constant 0 : index
    memref.store %w, %o[%c0] : memref<2xindex>
    memref.store %n, %o[%c0] : memref<2xindex>
    gpu.return
  }
}
