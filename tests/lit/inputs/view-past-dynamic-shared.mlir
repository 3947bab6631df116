// A view that reaches past the dynamic shared memory its kernel declares (tests/lit/run/simt-dumps.test).
gpu.module @m {
  memref.global @__phobos_dynamic_smem : memref<0xi8, #gpu.address_space<workgroup>> {alignment = 16 : i64}
  gpu.func @k(%y: memref<8xf32> {phobos.tensor = "y", phobos.dims = ["1", "8"]}) kernel attributes {known_block_size = array<i32: 32, 1, 1>, phobos.dynamic_shared_bytes = 512 : i64} {
    %c0 = arith.constant 0 : index
    %base = memref.get_global @__phobos_dynamic_smem : memref<0xi8, #gpu.address_space<workgroup>>
    %z = arith.constant 0.0 : f32
    %v = memref.view %base[%c0][] : memref<0xi8, #gpu.address_space<workgroup>> to memref<256xf32, #gpu.address_space<workgroup>>
    memref.store %z, %v[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}
