// Upstream IR that names dialects Phobos reads but does not lower.
gpu.module @amd [#rocdl.target<chip = "gfx90a">] {
}
func.func @dim(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %t = bufferization.alloc_tensor(%n) : tensor<?xf32>
  %d = tensor.dim %t, %c0 : tensor<?xf32>
  return %d : index
}
