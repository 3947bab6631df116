// A row of a 2-D vector (vector.extract at one position of a vector<2x4xf32>): lane 0 stores
// row 1, [5, 6, 7, 8]. tests/lit/run/vector-extract-row.test runs it on the simulator.
gpu.module @m {
  gpu.func @row(%O: memref<4xf32> {phobos.tensor = "O"}) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %m = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : vector<2x4xf32>
    %r = vector.extract %m[1] : vector<4xf32> from vector<2x4xf32>
    %c0 = arith.constant 0 : index
    %lane = gpu.lane_id
    %first = arith.cmpi eq, %lane, %c0 : index
    scf.if %first {
      vector.store %r, %O[%c0] : memref<4xf32>, vector<4xf32>
    }
    gpu.return
  }
}
