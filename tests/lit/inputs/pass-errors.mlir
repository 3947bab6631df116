// A module attribute no dialect verifies, a gpu.module with no target to serialize for, and a
// memory space LLVM has no number for.
module attributes {a.x = #dlti.dl_spec<>, b.y = #dlti.dl_spec<>} {
  gpu.module @m {
  }
  func.func @f() {
    %a = memref.alloc() : memref<10xf32, 1 : ui64>
    return
  }
}
