// Inputs of Phobos's own in upstream dialects, for the differential test against mlir-opt
// (tests/lit/driver/mlir-opt-differential.test): arith, func, math, index, scf, memref, vector,
// gpu, ub.
func.func @arith(%a: i32, %b: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %x = arith.addi %a, %c0 : i32
  %y = arith.muli %x, %c1 : i32
  %p = arith.addi %y, %b : i32
  %q = arith.addi %y, %b : i32
  %r = arith.subi %p, %q : i32
  %s = arith.maxsi %r, %a : i32
  return %s : i32
}

func.func @math(%x: f32) -> f32 {
  %e = math.exp %x : f32
  %l = math.log %e : f32
  %t = math.tanh %l : f32
  %f = math.fma %t, %x, %x : f32
  return %f : f32
}

func.func @index(%i: index, %j: index) -> index {
  %a = index.add %i, %j
  %c = index.constant 4
  %m = index.mul %a, %c
  %s = index.shl %m, %c
  return %s : index
}

func.func @loops(%m: memref<64xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (f32) {
    %v = memref.load %m[%i] : memref<64xf32>
    %k = arith.constant 2.0 : f32
    %w = arith.mulf %v, %k : f32
    %t = arith.addf %acc, %w : f32
    scf.yield %t : f32
  }
  %c = arith.cmpf ogt, %s, %z : f32
  %r = scf.if %c -> (f32) {
    scf.yield %s : f32
  } else {
    %u = ub.poison : f32
    scf.yield %u : f32
  }
  return %r : f32
}

func.func @vectors(%m: memref<64xf32>, %i: index) -> f32 {
  %v = vector.load %m[%i] : memref<64xf32>, vector<4xf32>
  %b = vector.broadcast %i : index to vector<4xindex>
  %w = arith.addf %v, %v : vector<4xf32>
  %r = vector.reduction <add>, %w : vector<4xf32> into f32
  %e = vector.extract %w[2] : f32 from vector<4xf32>
  %s = arith.addf %r, %e : f32
  return %s : f32
}

gpu.module @kernels {
  gpu.func @k(%x: memref<256xf32>, %y: memref<256xf32>) kernel {
    %t = gpu.thread_id x
    %b = gpu.block_id x
    %d = gpu.block_dim x
    %bd = arith.muli %b, %d : index
    %i = arith.addi %bd, %t : index
    %v = memref.load %x[%i] : memref<256xf32>
    %w = math.exp %v : f32
    %c32 = arith.constant 32 : i32
    %c1 = arith.constant 1 : i32
    %s, %ok = gpu.shuffle xor %w, %c1, %c32 : f32
    %a = arith.addf %w, %s : f32
    memref.store %a, %y[%i] : memref<256xf32>
    gpu.barrier
    gpu.return
  }
}
