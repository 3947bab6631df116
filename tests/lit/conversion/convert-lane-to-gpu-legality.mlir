// RUN: phobos-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(gpu.module(convert-lane-to-gpu{disable-patterns=lane.shuffle}))'
// Legality: a lane op the conversion leaves behind (here: its pattern disabled) is an error at
// the op, naming the pass; the others are still lowered.

gpu.module @m {
  gpu.func @k(%x: f32, %o: i32) kernel {
    %s = "lane.reduce"(%x) {kind = "sum", width = 32 : i32} : (f32) -> f32
    // expected-error @below {{'lane.shuffle' op was not lowered by convert-lane-to-gpu: failed to legalize this operation}}
    %t = "lane.shuffle"(%s, %o) {mode = "xor", width = 32 : i32} : (f32, i32) -> f32
    gpu.return
  }
}
