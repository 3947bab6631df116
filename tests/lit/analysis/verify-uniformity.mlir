// RUN: phobos-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(verify-uniformity))'
// The uniformity check: accepted kernels (no diagnostic) and rejected ones (an error at the
// collective, a note at the varying condition, and one where the non-uniformity comes from).

gpu.module @m {
  gpu.func @accept_top_level(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %r = "lane.reduce"(%v) {kind = "sum"} : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @accept_warp_varying_if(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %w = gpu.subgroup_id : index
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %c = arith.cmpi ult, %w, %n : index
    scf.if %c {
      %r = "lane.reduce"(%v) {kind = "sum"} : (f32) -> f32
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @accept_block_id_if(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = gpu.block_id x
    %c = arith.cmpi ult, %b, %n : index
    scf.if %c {
      %t = gpu.thread_id x
      %v = memref.load %x[%t] : memref<1024xf32>
      %r = "lane.reduce"(%v) {kind = "max"} : (f32) -> f32
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @accept_argument_if(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c = arith.cmpi ugt, %n, %c0 : index
    scf.if %c {
      %l = gpu.lane_id
      %v = memref.load %x[%l] : memref<1024xf32>
      %r = "cta.reduce"(%v) {kind = "sum"} : (f32) -> f32
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @accept_uniform_loop(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    scf.for %i = %c0 to %n step %c1 {
      %r = "lane.reduce"(%v) {kind = "sum"} : (f32) -> f32
      %s = "cta.reduce"(%v) {kind = "sum"} : (f32) -> f32
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @accept_warp_varying_trip_count(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %k1 = arith.constant 1 : i32
    %c1 = arith.constant 1 : index
    %w = gpu.subgroup_id : index
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    scf.for %i = %c0 to %w step %c1 {
      %r = "lane.shuffle"(%v, %k1) {mode = "xor"} : (f32, i32) -> f32
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @accept_steered_by_full_warp_fold(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %s = "lane.reduce"(%v) {kind = "sum"} : (f32) -> f32
    %z = arith.constant 0.0 : f32
    %c = arith.cmpf ogt, %s, %z : f32
    scf.if %c {
      %r = "lane.reduce"(%v) {kind = "max"} : (f32) -> f32
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @accept_steered_by_full_warp_argmax(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %a = "lane.argmax"(%v) : (f32) -> i32
    %k = arith.constant 3 : i32
    %c = arith.cmpi eq, %a, %k : i32
    scf.if %c {
      %r = "lane.reduce"(%v) {kind = "min"} : (f32) -> f32
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @accept_steered_by_broadcast_shuffle(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %k0 = arith.constant 0 : i32
    %s = "lane.shuffle"(%v, %k0) {mode = "from"} : (f32, i32) -> f32
    %z = arith.constant 0.0 : f32
    %c = arith.cmpf ogt, %s, %z : f32
    scf.if %c {
      %r = "lane.reduce"(%v) {kind = "sum"} : (f32) -> f32
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @accept_uniform_load(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = gpu.block_id x
    %v = memref.load %x[%b] : memref<1024xf32>
    %z = arith.constant 0.0 : f32
    %c = arith.cmpf ogt, %v, %z : f32
    scf.if %c {
      %t = gpu.thread_id x
      %w = memref.load %x[%t] : memref<1024xf32>
      %r = "cta.reduce"(%w) {kind = "sum"} : (f32) -> f32
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @accept_steered_by_cta_fold(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %s = "cta.reduce"(%v) {kind = "max"} : (f32) -> f32
    %z = arith.constant 0.0 : f32
    %c = arith.cmpf ogt, %s, %z : f32
    scf.if %c {
      %r = "cta.reduce"(%v) {kind = "sum"} : (f32) -> f32
      gpu.barrier
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @accept_uniform_while(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %e = scf.while (%i = %c0) : (index) -> index {
      %c = arith.cmpi ult, %i, %n : index
      scf.condition(%c) %i : index
    } do {
    ^bb0(%j: index):
      %r = "cta.reduce"(%v) {kind = "sum"} : (f32) -> f32
      %j1 = arith.addi %j, %c1 : index
      scf.yield %j1 : index
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @accept_after_varying_if(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %l = gpu.lane_id
    %c0 = arith.constant 0 : index
    %c = arith.cmpi eq, %l, %c0 : index
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    scf.if %c {
      memref.store %v, %x[%t] : memref<1024xf32>
    }
    %r = "lane.reduce"(%v) {kind = "sum"} : (f32) -> f32
    gpu.barrier
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @accept_varying_value_not_control(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %l = gpu.lane_id
    %c0 = arith.constant 0 : index
    %c = arith.cmpi eq, %l, %c0 : index
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %z = arith.constant 0.0 : f32
    %s = arith.select %c, %v, %z : f32
    %r = "lane.reduce"(%s) {kind = "sum"} : (f32) -> f32
    %q = "cta.reduce"(%s) {kind = "sum"} : (f32) -> f32
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @accept_barrier_uniform_if(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = gpu.block_id x
    %c = arith.cmpi ult, %b, %n : index
    scf.if %c {
      gpu.barrier
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @accept_warp_and_block(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %w = gpu.subgroup_id : index
    %b = gpu.block_id x
    %k = arith.constant 4 : index
    %bw = arith.muli %b, %k : index
    %row = arith.addi %bw, %w : index
    %c = arith.cmpi ult, %row, %n : index
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    scf.if %c {
      %r = "lane.reduce"(%v) {kind = "sum"} : (f32) -> f32
    }
    %r2 = "lane.reduce"(%v) {kind = "sum"} : (f32) -> f32
    %z = arith.constant 0.0 : f32
    %c2 = arith.cmpf ogt, %r2, %z : f32
    %both = arith.andi %c, %c2 : i1
    scf.if %both {
      %k1 = arith.constant 1 : i32
      %s = "lane.shuffle"(%v, %k1) {mode = "down"} : (f32, i32) -> f32
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @accept_uniform_loop_carried(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %e = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %a = arith.addi %acc, %i : index
      scf.yield %a : index
    }
    %c = arith.cmpi ult, %e, %n : index
    scf.if %c {
      %t = gpu.thread_id x
      %v = memref.load %x[%t] : memref<1024xf32>
      %r = "cta.reduce"(%v) {kind = "min"} : (f32) -> f32
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @reject_seed_kernel(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %l = gpu.lane_id // expected-note {{it takes its value from here}}
    %c0 = arith.constant 0 : index
    %c = arith.cmpi eq, %l, %c0 : index // expected-note {{%2 differs between lanes here}}
    scf.if %c {
      %r = "lane.reduce"(%v) {kind = "sum"} : (f32) -> f32 // expected-error {{needs every lane of its warp (warp-uniform control), but the condition of an enclosing scf.if differs between lanes: %2 depends on the lane id (gpu.lane_id)}}
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @reject_thread_id_if(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x // expected-note {{it takes its value from here}}
    %k = arith.constant 16 : index
    %c = arith.cmpi ult, %t, %k : index // expected-note {{%0 differs between lanes here}}
    %v = memref.load %x[%t] : memref<1024xf32>
    scf.if %c {
      %r = "lane.reduce"(%v) {kind = "max"} : (f32) -> f32 // expected-error {{needs every lane of its warp (warp-uniform control), but the condition of an enclosing scf.if differs between lanes: %0 depends on the thread id (gpu.thread_id)}}
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @reject_data_dependent_branch(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x // expected-note {{it takes its value from here}}
    %v = memref.load %x[%t] : memref<1024xf32>
    %z = arith.constant 0.0 : f32
    %c = arith.cmpf ogt, %v, %z : f32 // expected-note {{%1 differs between lanes here}}
    scf.if %c {
      %r = "lane.reduce"(%v) {kind = "sum"} : (f32) -> f32 // expected-error {{needs every lane of its warp (warp-uniform control), but the condition of an enclosing scf.if differs between lanes: %1 depends on the thread id (gpu.thread_id)}}
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @reject_lane_varying_trip_count(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %l = gpu.lane_id // expected-note {{%0 differs between lanes here}}
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    scf.for %i = %c0 to %l step %c1 {
      %r = "lane.reduce"(%v) {kind = "sum"} : (f32) -> f32 // expected-error {{needs every lane of its warp (warp-uniform control), but the trip count of an enclosing scf.for differs between lanes: %0 depends on the lane id (gpu.lane_id)}}
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @reject_lane_varying_step(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %l = gpu.lane_id // expected-note {{it takes its value from here}}
    %c1 = arith.constant 1 : index
    %s = arith.addi %l, %c1 : index // expected-note {{%1 differs between lanes here}}
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    scf.for %i = %c0 to %n step %s {
      %r = "lane.reduce"(%v) {kind = "sum"} : (f32) -> f32 // expected-error {{needs every lane of its warp (warp-uniform control), but the trip count of an enclosing scf.for differs between lanes: %1 depends on the lane id (gpu.lane_id)}}
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @reject_varying_while(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t = gpu.thread_id x // expected-note {{it takes its value from here}}
    %v = memref.load %x[%t] : memref<1024xf32>
    %e = scf.while (%i = %c0) : (index) -> index {
      %c = arith.cmpi ult, %i, %t : index // expected-note {{%2 differs between lanes here}}
      scf.condition(%c) %i : index
    } do {
    ^bb0(%j: index):
      %r = "lane.reduce"(%v) {kind = "sum"} : (f32) -> f32 // expected-error {{needs every lane of its warp (warp-uniform control), but the condition of an enclosing scf.while differs between lanes: %2 depends on the thread id (gpu.thread_id)}}
      %j1 = arith.addi %j, %c1 : index
      scf.yield %j1 : index
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @reject_cta_under_warp_if(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %w = gpu.subgroup_id : index // expected-note {{it takes its value from here}}
    %c0 = arith.constant 0 : index
    %c = arith.cmpi eq, %w, %c0 : index // expected-note {{%1 differs between warps here}}
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    scf.if %c {
      %r = "cta.reduce"(%v) {kind = "sum"} : (f32) -> f32 // expected-error {{needs every thread of its CTA (uniform control), but the condition of an enclosing scf.if differs between warps: %1 depends on the warp id (gpu.subgroup_id)}}
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @reject_barrier_under_lane_if(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %l = gpu.lane_id // expected-note {{it takes its value from here}}
    %c0 = arith.constant 0 : index
    %c = arith.cmpi eq, %l, %c0 : index // expected-note {{%1 differs between lanes here}}
    scf.if %c {
      gpu.barrier // expected-error {{needs every thread of its CTA (uniform control), but the condition of an enclosing scf.if differs between lanes: %1 depends on the lane id (gpu.lane_id)}}
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @reject_steered_by_segmented_fold(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x // expected-note {{it takes its value from here}}
    %v = memref.load %x[%t] : memref<1024xf32>
    %s = "lane.reduce"(%v) {kind = "sum", width = 8 : i32} : (f32) -> f32
    %z = arith.constant 0.0 : f32
    %c = arith.cmpf ogt, %s, %z : f32 // expected-note {{%2 differs between lanes here}}
    scf.if %c {
      %r = "lane.reduce"(%v) {kind = "sum"} : (f32) -> f32 // expected-error {{needs every lane of its warp (warp-uniform control), but the condition of an enclosing scf.if differs between lanes: %2 depends on the thread id (gpu.thread_id)}}
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @reject_nested_inner_varying(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %b = gpu.block_id x
    %c = arith.cmpi ult, %b, %n : index
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    scf.if %c {
      %l = gpu.lane_id // expected-note {{it takes its value from here}}
      %k = arith.constant 4 : index
      %c2 = arith.cmpi ult, %l, %k : index // expected-note {{%3 differs between lanes here}}
      scf.if %c2 {
        %r = "lane.reduce"(%v) {kind = "sum"} : (f32) -> f32 // expected-error {{needs every lane of its warp (warp-uniform control), but the condition of an enclosing scf.if differs between lanes: %3 depends on the lane id (gpu.lane_id)}}
      }
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @reject_merged_varying_result(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x // expected-note {{it takes its value from here}}
    %b = gpu.block_id x
    %c = arith.cmpi ult, %b, %n : index
    %m = scf.if %c -> (index) {
      scf.yield %t : index
    } else {
      scf.yield %b : index
    }
    %c2 = arith.cmpi ult, %m, %n : index // expected-note {{%2 differs between lanes here}}
    %v = memref.load %x[%t] : memref<1024xf32>
    scf.if %c2 {
      %r = "cta.reduce"(%v) {kind = "sum"} : (f32) -> f32 // expected-error {{needs every thread of its CTA (uniform control), but the condition of an enclosing scf.if differs between lanes: %2 depends on the thread id (gpu.thread_id)}}
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @reject_loop_carried_varying(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %t = gpu.thread_id x // expected-note {{it takes its value from here}}
    %e = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (index) {
      %a = arith.addi %acc, %t : index
      scf.yield %a : index
    }
    %c = arith.cmpi ult, %e, %n : index // expected-note {{%1 differs between lanes here}}
    %v = memref.load %x[%t] : memref<1024xf32>
    scf.if %c {
      %r = "lane.reduce"(%v) {kind = "sum"} : (f32) -> f32 // expected-error {{needs every lane of its warp (warp-uniform control), but the condition of an enclosing scf.if differs between lanes: %1 depends on the thread id (gpu.thread_id)}}
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @reject_steered_by_shuffle(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x // expected-note {{it takes its value from here}}
    %v = memref.load %x[%t] : memref<1024xf32>
    %k1 = arith.constant 1 : i32
    %s = "lane.shuffle"(%v, %k1) {mode = "down"} : (f32, i32) -> f32
    %z = arith.constant 0.0 : f32
    %c = arith.cmpf ogt, %s, %z : f32 // expected-note {{%2 differs between lanes here}}
    scf.if %c {
      %r = "lane.reduce"(%v) {kind = "sum"} : (f32) -> f32 // expected-error {{needs every lane of its warp (warp-uniform control), but the condition of an enclosing scf.if differs between lanes: %2 depends on the thread id (gpu.thread_id)}}
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @reject_steered_by_atomic(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %one = arith.constant 1.0 : f32
    %old = memref.atomic_rmw addf %one, %x[%c0] : (f32, memref<1024xf32>) -> f32 // expected-note {{it takes its value from here}}
    %z = arith.constant 0.0 : f32
    %c = arith.cmpf ogt, %old, %z : f32 // expected-note {{%1 differs between lanes here}}
    scf.if %c {
      %r = "lane.reduce"(%one) {kind = "sum"} : (f32) -> f32 // expected-error {{needs every lane of its warp (warp-uniform control), but the condition of an enclosing scf.if differs between lanes: %1 depends on an atomic read-modify-write (memref.atomic_rmw)}}
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @reject_steered_by_private_memory(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %p = memref.alloca() : memref<1xf32, 5>
    %c0 = arith.constant 0 : index
    %v = memref.load %p[%c0] : memref<1xf32, 5> // expected-note {{it takes its value from here}}
    %z = arith.constant 0.0 : f32
    %c = arith.cmpf ogt, %v, %z : f32 // expected-note {{%1 differs between lanes here}}
    scf.if %c {
      %r = "lane.reduce"(%v) {kind = "sum"} : (f32) -> f32 // expected-error {{needs every lane of its warp (warp-uniform control), but the condition of an enclosing scf.if differs between lanes: %1 depends on thread-private memory}}
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @reject_steered_by_segmented_argmax(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %a = "lane.argmax"(%v) {width = 8 : i32} : (f32) -> i32 // expected-note {{it takes its value from here}}
    %k = arith.constant 0 : i32
    %c = arith.cmpi eq, %a, %k : i32 // expected-note {{%2 differs between lanes here}}
    scf.if %c {
      %r = "lane.reduce"(%v) {kind = "sum"} : (f32) -> f32 // expected-error {{needs every lane of its warp (warp-uniform control), but the condition of an enclosing scf.if differs between lanes: %2 depends on a fold over pieces narrower than the warp (lane.argmax)}}
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @accept_steered_by_full_warp_argmin(%x: memref<1024xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %a = "lane.argmin"(%v) : (f32) -> i32
    %k = arith.constant 3 : i32
    %c = arith.cmpi eq, %a, %k : i32
    scf.if %c {
      %r = "lane.reduce"(%v) {kind = "min"} : (f32) -> f32
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @reject_steered_by_segmented_argmin(%x: memref<1024xf32>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    %a = "lane.argmin"(%v) {width = 16 : i32} : (f32) -> i32 // expected-note {{it takes its value from here}}
    %k = arith.constant 0 : i32
    %c = arith.cmpi eq, %a, %k : i32 // expected-note {{%2 differs between lanes here}}
    scf.if %c {
      %r = "lane.reduce"(%v) {kind = "sum"} : (f32) -> f32 // expected-error {{needs every lane of its warp (warp-uniform control), but the condition of an enclosing scf.if differs between lanes: %2 depends on a fold over pieces narrower than the warp (lane.argmin)}}
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @reject_cta_under_lane_loop(%x: memref<1024xf32>, %n: index) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %l = gpu.lane_id // expected-note {{%0 differs between lanes here}}
    %t = gpu.thread_id x
    %v = memref.load %x[%t] : memref<1024xf32>
    scf.for %i = %c0 to %l step %c1 {
      %r = "cta.argmax"(%v) : (f32) -> i32 // expected-error {{needs every thread of its CTA (uniform control), but the trip count of an enclosing scf.for differs between lanes: %0 depends on the lane id (gpu.lane_id)}}
    }
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @reject_unstructured_branch(%x: memref<1024xf32>, %n: index) kernel {
    %l = gpu.lane_id // expected-note {{it takes its value from here}}
    %c0 = arith.constant 0 : index
    %c = arith.cmpi eq, %l, %c0 : index // expected-note {{%1 differs between lanes here}}
    %v = memref.load %x[%l] : memref<1024xf32>
    cf.cond_br %c, ^a, ^b
  ^a:
    %r = "lane.reduce"(%v) {kind = "sum"} : (f32) -> f32 // expected-error {{needs every lane of its warp (warp-uniform control), but a conditional branch before it differs between lanes: %1 depends on the lane id (gpu.lane_id)}}
    cf.br ^b
  ^b:
    gpu.return
  }
}

// -----

gpu.module @m {
  func.func @reject_in_function(%v: f32) -> f32 {
    %r = "lane.reduce"(%v) {kind = "sum"} : (f32) -> f32 // expected-error {{is in a function, where Phobos cannot check its control; collectives belong in kernel bodies}}
    return %r : f32
  }
}

// -----

// A scan's result differs from lane to lane even when its operand is uniform.
gpu.module @m {
  gpu.func @reject_scan_condition(%x: memref<1024xf32>, %n: i32) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %s = "lane.scan"(%n) {kind = "sum"} : (i32) -> i32 // expected-note {{it takes its value from here}}
    %c0 = arith.constant 0 : i32
    %c = arith.cmpi sgt, %s, %c0 : i32 // expected-note {{%1 differs between lanes here}}
    scf.if %c {
      %t = gpu.thread_id x
      %v = memref.load %x[%t] : memref<1024xf32>
      %r = "lane.reduce"(%v) {kind = "sum"} : (f32) -> f32 // expected-error {{needs every lane of its warp (warp-uniform control), but the condition of an enclosing scf.if differs between lanes: %1 depends on a prefix scan: each lane gets its own prefix (lane.scan)}}
    }
    gpu.return
  }
}
