// Upstream passes that query interface models of tensor, vector and memref ops.
func.func @dim_of_collapse(%t: tensor<?x7x11xf32>) -> index {
  %c0 = arith.constant 0 : index
  %c = tensor.collapse_shape %t [[0, 1], [2]] : tensor<?x7x11xf32> into tensor<?x11xf32>
  %d = tensor.dim %c, %c0 : tensor<?x11xf32>
  return %d : index
}
func.func @load(%m: memref<?xf32>, %i: index) -> f32 {
  %v = memref.load %m[%i] : memref<?xf32>
  return %v : f32
}
