// RUN: phobos-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(convert-lane-to-gpu))' | FileCheck %s

// A full-warp sum is 5 xor shuffles, offsets 16, 8, 4, 2, 1, each followed by an add.
// CHECK-LABEL: gpu.func @sum_full_warp
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK: %[[C16:.*]] = arith.constant 16 : i32
// CHECK: %[[S16:.*]], %{{.*}} = gpu.shuffle  xor %[[X]], %[[C16]], %{{.*}} : f32
// CHECK: %[[A16:.*]] = arith.addf %[[X]], %[[S16]] : f32
// CHECK: arith.constant 8 : i32
// CHECK: gpu.shuffle  xor %[[A16]]
// CHECK: arith.constant 4 : i32
// CHECK: gpu.shuffle  xor
// CHECK: arith.constant 2 : i32
// CHECK: gpu.shuffle  xor
// CHECK: arith.constant 1 : i32
// CHECK: %[[S1:.*]], %{{.*}} = gpu.shuffle  xor
// CHECK: %[[R:.*]] = arith.addf %{{.*}}, %[[S1]] : f32
// CHECK-NOT: gpu.shuffle
// CHECK: gpu.return
gpu.module @m {
  gpu.func @sum_full_warp(%x: f32) kernel {
    %0 = "lane.reduce"(%x) {kind = "sum"} : (f32) -> f32
    gpu.return
  }
}

// -----

// Width 8: exactly 3 shuffles, offsets 4, 2, 1, all below 8, so no shuffle leaves its piece;
// the shuffle's own width stays 32 (MLIR's width is "first N lanes active").
// CHECK-LABEL: gpu.func @min_width8
// CHECK-COUNT-3: gpu.shuffle  xor
// CHECK-NOT: gpu.shuffle
gpu.module @m {
  gpu.func @min_width8(%x: i32) kernel {
    %0 = "lane.reduce"(%x) {kind = "min", width = 8 : i32} : (i32) -> i32
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @offsets_width8
// CHECK: arith.constant 4 : i32
// CHECK: gpu.shuffle  xor
// CHECK: arith.minsi
// CHECK: arith.constant 2 : i32
// CHECK: gpu.shuffle  xor
// CHECK: arith.constant 1 : i32
// CHECK: gpu.shuffle  xor
// CHECK-NOT: arith.constant {{(8|16)}} : i32
gpu.module @m {
  gpu.func @offsets_width8(%x: i32) kernel {
    %0 = "lane.reduce"(%x) {kind = "min", width = 8 : i32} : (i32) -> i32
    gpu.return
  }
}

// -----

// Width 1: the value itself, no shuffle.
// CHECK-LABEL: gpu.func @width1
// CHECK-NOT: gpu.shuffle
// CHECK-NOT: lane.reduce
// CHECK: gpu.return
gpu.module @m {
  gpu.func @width1(%x: f32, %o: memref<1xf32>) kernel {
    %0 = "lane.reduce"(%x) {kind = "max", width = 1 : i32} : (f32) -> f32
    %c0 = arith.constant 0 : index
    memref.store %0, %o[%c0] : memref<1xf32>
    gpu.return
  }
}

// -----

// Float max/min use the native maximumf/minimumf (no libdevice); integers the signed forms.
// CHECK-LABEL: gpu.func @combines
// CHECK-COUNT-5: arith.maximumf
// CHECK-COUNT-5: arith.minimumf
// CHECK-COUNT-5: arith.maxsi
// CHECK-COUNT-5: arith.ori
// CHECK-COUNT-5: arith.andi
gpu.module @m {
  gpu.func @combines(%x: f32, %i: i64, %c: i1) kernel {
    %0 = "lane.reduce"(%x) {kind = "max"} : (f32) -> f32
    %1 = "lane.reduce"(%x) {kind = "min"} : (f32) -> f32
    %2 = "lane.reduce"(%i) {kind = "max"} : (i64) -> i64
    %3 = "lane.reduce"(%c) {kind = "any"} : (i1) -> i1
    %4 = "lane.reduce"(%c) {kind = "all"} : (i1) -> i1
    gpu.return
  }
}

// -----

// A 64-bit value moves as two 32-bit words per step: 10 shuffles for a full warp.
// CHECK-LABEL: gpu.func @sum_f64
// CHECK-COUNT-10: gpu.shuffle  xor {{.*}} : i32
// CHECK-NOT: gpu.shuffle
gpu.module @m {
  gpu.func @sum_f64(%x: f64) kernel {
    %0 = "lane.reduce"(%x) {kind = "sum"} : (f64) -> f64
    gpu.return
  }
}

// -----

// Narrow values are widened to one word.
// CHECK-LABEL: gpu.func @sum_i8
// CHECK: arith.extui %{{.*}} : i8 to i32
// CHECK: gpu.shuffle  xor {{.*}} : i32
// CHECK: arith.trunci %{{.*}} : i32 to i8
// CHECK: arith.addi %{{.*}} : i8
gpu.module @m {
  gpu.func @sum_i8(%x: i8) kernel {
    %0 = "lane.reduce"(%x) {kind = "sum", width = 2 : i32} : (i8) -> i8
    gpu.return
  }
}

// -----

// argmax moves the value and the lane: 2 * log2(w) shuffles; ties keep the smaller lane.
// CHECK-LABEL: gpu.func @argmax_w4
// CHECK: %[[L:.*]] = gpu.lane_id
// CHECK: arith.index_cast %[[L]] : index to i32
// CHECK: gpu.shuffle  xor {{.*}} : f32
// CHECK: gpu.shuffle  xor {{.*}} : i32
// CHECK: gpu.shuffle  xor {{.*}} : f32
// CHECK: gpu.shuffle  xor {{.*}} : i32
// CHECK-NOT: gpu.shuffle
gpu.module @m {
  gpu.func @argmax_w4(%x: f32) kernel {
    %0 = "lane.argmax"(%x) {width = 4 : i32} : (f32) -> i32
    gpu.return
  }
}

// -----

// CHECK-LABEL: gpu.func @argmax_tie
// CHECK: %[[GT:.*]] = arith.cmpf ogt
// CHECK: %[[EQ:.*]] = arith.cmpf oeq
// CHECK: %[[LT:.*]] = arith.cmpi slt
// CHECK: %[[TIE:.*]] = arith.andi %[[EQ]], %[[LT]] : i1
// CHECK: %[[TAKE:.*]] = arith.ori %[[GT]], %[[TIE]] : i1
// CHECK: arith.select %[[TAKE]]
gpu.module @m {
  gpu.func @argmax_tie(%x: f32) kernel {
    %0 = "lane.argmax"(%x) {width = 2 : i32} : (f32) -> i32
    gpu.return
  }
}

// -----

// argmin is argmax's mirror: the smaller value wins (ordered less), ties keep the smaller lane.
// CHECK-LABEL: gpu.func @argmin_tie
// CHECK: %[[L:.*]] = gpu.lane_id
// CHECK: %[[V:.*]], %{{.*}} = gpu.shuffle  xor %{{.*}} : f32
// CHECK: gpu.shuffle  xor {{.*}} : i32
// CHECK: %[[LESS:.*]] = arith.cmpf ogt, %{{.*}}, %[[V]] : f32
// CHECK: %[[EQ:.*]] = arith.cmpf oeq, %[[V]], %{{.*}} : f32
// CHECK: %[[LT:.*]] = arith.cmpi slt
// CHECK: %[[TIE:.*]] = arith.andi %[[EQ]], %[[LT]] : i1
// CHECK: %[[TAKE:.*]] = arith.ori %[[LESS]], %[[TIE]] : i1
// CHECK: arith.select %[[TAKE]]
// CHECK-NOT: gpu.shuffle
// CHECK-NOT: lane.argmin
gpu.module @m {
  gpu.func @argmin_tie(%x: f32) kernel {
    %0 = "lane.argmin"(%x) {width = 2 : i32} : (f32) -> i32
    gpu.return
  }
}

// -----

// A combine region is copied into every butterfly step: no call is left.
// CHECK-LABEL: gpu.func @reduce_region
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK: %[[S:.*]], %{{.*}} = gpu.shuffle  xor %[[X]]
// CHECK: arith.maximumf %[[X]], %[[S]] : f32
// CHECK-COUNT-2: arith.maximumf
// CHECK-NOT: func.call
// CHECK-NOT: lane.reduce_with
gpu.module @m {
  gpu.func @reduce_region(%x: f32) kernel {
    %0 = "lane.reduce_with"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %m = arith.maximumf %a, %b : f32
      gpu.yield %m : f32
    }) {width = 8 : i32} : (f32) -> f32
    gpu.return
  }
}

// -----

// The body of a combine function is copied the same way.
// CHECK-LABEL: gpu.func @reduce_symbol
// CHECK-COUNT-5: arith.maxsi
// CHECK-NOT: func.call
gpu.module @m {
  func.func private @mx(%a: i32, %b: i32) -> i32 {
    %m = arith.maxsi %a, %b : i32
    return %m : i32
  }
  gpu.func @reduce_symbol(%x: i32) kernel {
    %0 = "lane.reduce_with"(%x) ({}) {combine = @mx} : (i32) -> i32
    gpu.return
  }
}

// -----

// Full-warp shuffles are gpu.shuffle with width 32; a constant operand needs no clamp.
// CHECK-LABEL: gpu.func @shuffle_full
// CHECK: gpu.shuffle  down %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: gpu.shuffle  up %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK-NOT: arith.select
gpu.module @m {
  gpu.func @shuffle_full(%x: f32) kernel {
    %c1 = arith.constant 1 : i32
    %0 = "lane.shuffle"(%x, %c1) {mode = "down"} : (f32, i32) -> f32
    %1 = "lane.shuffle"(%x, %c1) {mode = "up"} : (f32, i32) -> f32
    gpu.return
  }
}

// -----

// Segmented down/up/from use nvvm.shfl.sync with the segment in the clamp operand:
// width 8: ((32 - 8) << 8) | 31 = 6175 for down and from, (32 - 8) << 8 = 6144 for up.
// CHECK-LABEL: gpu.func @shuffle_segmented
// CHECK: %[[DOWNC:.*]] = arith.constant 6175 : i32
// CHECK: nvvm.shfl.sync  down %{{.*}}, %{{.*}}, %{{.*}}, %[[DOWNC]] : f32 -> f32
// CHECK: %[[UPC:.*]] = arith.constant 6144 : i32
// CHECK: nvvm.shfl.sync  up %{{.*}}, %{{.*}}, %{{.*}}, %[[UPC]] : f32 -> f32
gpu.module @m {
  gpu.func @shuffle_segmented(%x: f32) kernel {
    %c1 = arith.constant 1 : i32
    %0 = "lane.shuffle"(%x, %c1) {mode = "down", width = 8 : i32} : (f32, i32) -> f32
    %1 = "lane.shuffle"(%x, %c1) {mode = "up", width = 8 : i32} : (f32, i32) -> f32
    gpu.return
  }
}

// -----

// A per-lane operand that may leave the piece is clamped so the lane reads its own value:
// xor/down/up with 0, from with the lane's own position.
// CHECK-LABEL: gpu.func @shuffle_varying
// CHECK-SAME: (%[[X:.*]]: f32, %[[O:.*]]: i32)
// CHECK: %[[W:.*]] = arith.constant 8 : i32
// CHECK: %[[OK:.*]] = arith.cmpi ult, %[[O]], %[[W]] : i32
// CHECK: %[[M:.*]] = arith.select %[[OK]], %[[O]], %{{.*}} : i32
// CHECK: gpu.shuffle  xor %[[X]], %[[M]]
// CHECK: %[[LANE:.*]] = gpu.lane_id
// CHECK: %[[LANE32:.*]] = arith.index_cast %[[LANE]]
// CHECK: %[[POS:.*]] = arith.andi %[[LANE32]], %{{.*}} : i32
// CHECK: %[[OK2:.*]] = arith.cmpi ult, %[[O]]
// CHECK: %[[S:.*]] = arith.select %[[OK2]], %[[O]], %[[POS]] : i32
// CHECK: nvvm.shfl.sync  idx %{{.*}}, %[[X]], %[[S]]
gpu.module @m {
  gpu.func @shuffle_varying(%x: f32, %o: i32) kernel {
    %0 = "lane.shuffle"(%x, %o) {mode = "xor", width = 8 : i32} : (f32, i32) -> f32
    %1 = "lane.shuffle"(%x, %o) {mode = "from", width = 8 : i32} : (f32, i32) -> f32
    gpu.return
  }
}

// -----

// Negative: ops of other dialects are left alone, and so is a module with no lane op.
// CHECK-LABEL: gpu.func @negative_untouched
// CHECK: %[[S:.*]], %{{.*}} = gpu.shuffle  xor
// CHECK: "cta.reduce"
// CHECK-NOT: lane.
gpu.module @m {
  gpu.func @negative_untouched(%x: f32) kernel {
    %c1 = arith.constant 1 : i32
    %c32 = arith.constant 32 : i32
    %s, %v = gpu.shuffle xor %x, %c1, %c32 : f32
    %r = "cta.reduce"(%s) {kind = "sum"} : (f32) -> f32
    gpu.return
  }
}

// -----

// A width-8 inclusive sum scan: Hillis-Steele, shuffles up by 1, 2, 4 (none by 8), each
// combined earlier-first and kept only by the lanes that far into their piece.
// CHECK-LABEL: gpu.func @scan_width_8
// CHECK-SAME: (%[[X:.*]]: i32)
// CHECK: %[[L:.*]] = arith.index_cast %{{.*}} : index to i32
// CHECK: %[[P:.*]] = arith.andi %[[L]], %{{.*}} : i32
// CHECK: %[[U1:.*]] = nvvm.shfl.sync up %{{.*}}, %[[X]]
// CHECK: %[[A1:.*]] = arith.addi %[[U1]], %[[X]] : i32
// CHECK: %[[K1:.*]] = arith.cmpi sge, %[[P]], %{{.*}} : i32
// CHECK: %[[S1:.*]] = arith.select %[[K1]], %[[A1]], %[[X]] : i32
// CHECK: nvvm.shfl.sync up %{{.*}}, %[[S1]]
// CHECK: nvvm.shfl.sync up
// CHECK-NOT: nvvm.shfl.sync
// CHECK: gpu.return
gpu.module @m {
  gpu.func @scan_width_8(%x: i32) kernel {
    %0 = "lane.scan"(%x) {kind = "sum", width = 8 : i32} : (i32) -> i32
    gpu.return
  }
}

// -----

// A scan by a combine region applies it as (earlier, later): the shuffled value first.
// CHECK-LABEL: gpu.func @scan_with_region
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK: %[[U:.*]], %{{.*}} = gpu.shuffle  up %[[X]]
// CHECK: arith.subf %[[U]], %[[X]] : f32
// CHECK-NOT: lane.scan_with
gpu.module @m {
  gpu.func @scan_with_region(%x: f32) kernel {
    %0 = "lane.scan_with"(%x) ({
    ^bb0(%a: f32, %b: f32):
      %d = arith.subf %a, %b : f32
      gpu.yield %d : f32
    }) : (f32) -> f32
    gpu.return
  }
}
