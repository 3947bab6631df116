// A Phobos op written in custom form (IRDL gives them the generic form only): MLIR's parser
// fails without a message; Phobos names the op and says how to write it, located, exit 1.
// RUN: %expect-exit 1 phobos-opt %s 2>&1 | FileCheck %s
// RUN: %expect-exit 1 phobos compile %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: custom-form.mlir:10:10: error: 'cta.scatter' is written in custom form, which Phobos's ops do not have (IRDL defines them): write it in generic form, "cta.scatter"(operands) {attributes} : (operand types) -> result types
// CHECK-NEXT: %c = cta.scatter 1 : i32
// CHECK-NEXT: ^
gpu.module @m {
  gpu.func @k() kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c = cta.scatter 1 : i32
    gpu.return
  }
}
