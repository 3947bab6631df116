// finalize-memref-to-llvm reports this memory space and still succeeds: mlir-opt prints the
// error at an unknown location and exits 0.
func.func @f() -> index {
  %c0 = arith.constant 0 : index
  %m = memref.alloca() : memref<4xf32, #gpu.address_space<workgroup>>
  return %c0 : index
}
