// finalize-memref-to-llvm reports this memory space and still succeeds: mlir-opt prints the
// error at an unknown location and exits 0.
func.func @f(%m: memref<4xf32, #gpu.address_space<workgroup>>) {
  return
}
