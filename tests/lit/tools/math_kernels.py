"""Writes one .mlir kernel per math op and type into DIR (tests/lit/pipeline/math-links-libdevice.test).

  math_kernels.py DIR
"""
import os
import sys

UNARY = "exp exp2 log log2 log10 log1p expm1 sqrt rsqrt cbrt sin cos tan tanh sinh cosh asin acos atan erf erfc floor ceil round trunc absf".split()
BINARY = "atan2 powf copysign".split()
KERNEL = """gpu.module @m {{
  gpu.func @k(%x: memref<16x{t}>) kernel attributes {{known_block_size = array<i32: 32, 1, 1>}} {{
    %c0 = arith.constant 0 : index
    %v = memref.load %x[%c0] : memref<16x{t}>
    %r = math.{op} {args} : {t}
    memref.store %r, %x[%c0] : memref<16x{t}>
    gpu.return
  }}
}}
"""

out = sys.argv[1]
for t in ("f32", "f64"):
    for op in UNARY + BINARY:
        args = "%v, %v" if op in BINARY else "%v"
        with open(os.path.join(out, f"{op}-{t}.mlir"), "w") as f:
            f.write(KERNEL.format(t=t, op=op, args=args))
