// RUN: phobos-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(convert-exchange-to-gpu))' | FileCheck %s --check-prefix=AUTO
// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(convert-exchange-to-gpu{mechanism=shuffle}))' 2>/dev/null | FileCheck %s --check-prefix=SHUFFLE
// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(convert-exchange-to-gpu{mechanism=shuffle}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=SHUFFLE-REMARK
// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(convert-exchange-to-gpu{mechanism=staging}))' 2>/dev/null | FileCheck %s --check-prefix=STAGING
// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(convert-exchange-to-gpu{mechanism=staging}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=STAGING-REMARK
// RUN: not phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(convert-exchange-to-gpu{mechanism=lanes}))' 2>&1 | FileCheck %s --check-prefix=BAD
// How exchanges within warps move: the cost model (auto), or a mechanism forced. The model
// counts issue slots of a warp (a shuffle, a shared access, a warp sync: 1; an integer
// instruction: 1/2); docs/language.md has it.

// 8 items blocked to warp_striped: shuffles would take 8 shuffles, 48 selects, 44.5 slots;
// padded staging 42. Auto stages; shuffle forced shuffles.
// AUTO-LABEL: gpu.func @eight
// AUTO: tile.alloc
// AUTO: nvvm.bar.warp.sync
// AUTO-NOT: gpu.shuffle
// SHUFFLE-REMARK: remark: exchange<"blocked(32,8)", "warp_striped(32,8,32)">: within warps by shuffles (8 shuffles, 48 selects, 0 shared bytes, 0 barriers; cost 44.5 against 42 staged)
// SHUFFLE-LABEL: gpu.func @eight
// SHUFFLE-COUNT-8: gpu.shuffle idx
// SHUFFLE-NOT: tile.alloc
// STAGING-REMARK: remark: exchange<"blocked(32,8)", "warp_striped(32,8,32)">: within warps through shared memory ({{.*}}; staging forced)
gpu.module @m {
  gpu.func @eight(%v: vector<8xf32>, %y: memref<8xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    // expected-remark @below {{within warps through shared memory (0 shuffles, 1052 shared bytes, 1 element of padding per 32, 0 barriers, 2 warp-level syncs, 0 bank conflicts per CTA; cost 42 against 44.5 by shuffles)}}
    %0 = "cta.exchange"(%v) {from = "blocked(32,8)", to = "warp_striped(32,8,32)"} : (vector<8xf32>) -> vector<8xf32>
    %c0 = arith.constant 0 : index
    vector.store %0, %y[%c0] : memref<8xf32>, vector<8xf32>
    gpu.return
  }
}

// -----

// 3 items blocked to warp_striped: a thread's items do not move as one rotation, so no
// shuffle schedule exists; every mechanism stages, and says why.
// AUTO-LABEL: gpu.func @three
// AUTO: tile.alloc
// SHUFFLE-REMARK: remark: {{.*}}within warps through shared memory ({{.*}}; no shuffle schedule)
// SHUFFLE-LABEL: gpu.func @three
// SHUFFLE-NOT: gpu.shuffle
gpu.module @m {
  gpu.func @three(%v: vector<3xf32>, %y: memref<3xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    // expected-remark @below {{within warps through shared memory (0 shuffles, 384 shared bytes, no padding, 0 barriers, 2 warp-level syncs, 0 bank conflicts per CTA; no shuffle schedule)}}
    %0 = "cta.exchange"(%v) {from = "blocked(32,3)", to = "warp_striped(32,3,32)"} : (vector<3xf32>) -> vector<3xf32>
    %c0 = arith.constant 0 : index
    vector.store %0, %y[%c0] : memref<3xf32>, vector<3xf32>
    gpu.return
  }
}

// -----

// 3 items, each moving between lanes as item i: n shuffles, no select, for any n. Auto
// shuffles; staging forced stages.
// AUTO-LABEL: gpu.func @lanes
// AUTO-COUNT-3: gpu.shuffle idx
// AUTO-NOT: arith.select
// AUTO-NOT: tile.alloc
// SHUFFLE-LABEL: gpu.func @lanes
// STAGING-LABEL: gpu.func @lanes
// STAGING: tile.alloc
// STAGING-NOT: gpu.shuffle
gpu.module @m {
  gpu.func @lanes(%v: vector<3xf64>, %y: memref<3xf64>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-remark @below {{within warps by shuffles (6 shuffles, 0 selects, 0 shared bytes, 0 barriers;}}
    %0 = "cta.exchange"(%v) {from = "striped(64,3)", to = "((2,16,2),3):((16,1,32),64)"} : (vector<3xf64>) -> vector<3xf64>
    %c0 = arith.constant 0 : index
    vector.store %0, %y[%c0] : memref<3xf64>, vector<3xf64>
    gpu.return
  }
}

// BAD: convert-exchange-to-gpu: mechanism must be auto, shuffle or staging, not 'lanes'
