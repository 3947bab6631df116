"""Writes hostile inputs for the hardening tests: python3 hostile.py KIND N OUT.

Kinds (each a .phobos kernel unless noted):
  call, cast, subscript, paren, unary, collective, block: N nested levels of that form
  and, plus: a chain of N operators
  fanout: fn h_i(a) = h_{i+1}(a) + h_{i+1}(a), N levels (2^N inlined copies)
  fanout-run: fn h_i(a) = h_{i+1}(a) + h_{i+1}(a + 1.0), N levels, over a run of 64 elements
  statements: N unrolled statements acc = acc + X[i % 97]
  cta-argmax: N unrolled CTA argmax statements (each about 85 SIMT operations and barriers)
  autotune: @autotune of three dimensions of N values each
  chain: fn g_i(a) = g_{i+1}(a) + 1, N levels (non-recursive)
  cycle: fn a -> b -> c -> a
  regions: an .mlir module with N nested scf.execute_region ops
  dense: an .mlir attribute dense<[[[...]]]> nested N deep
  npy-overflow: an .npy header of shape (2^22, 2^21, 2^21) float32 and no data
  npy-short: an .npy header of shape (N,) float32 with 8 bytes of data
  escape: an .mlir kernel whose tensor is named "../escaped"
  whiles: N nested while loops (two iterations each) around a thread's own element
  whiles-shared: the same around a write and a read of a shared buffer (barriers inferred)
"""
import sys

kind, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
HEAD = "@launch(32)\nkernel k(X: tensor<f32>[N], Y: tensor<f32>[N]) {\n"


def kernel(body):
    return HEAD + body + "\n}\n"


if kind == "call":
    text = kernel("  let a = " + "max(1.0, " * n + "X[0]" + ")" * n)
elif kind == "cast":
    text = kernel("  let a = " + "f32(" * n + "X[0]" + ")" * n)
elif kind == "subscript":
    text = kernel("  let a = " + "X[i32(" * n + "0" + ")]" * n)
elif kind == "paren":
    text = kernel("  let a = " + "(" * n + "1" + ")" * n)
elif kind == "unary":
    text = kernel("  let a = " + "-" * n + "1")
elif kind == "collective":
    text = kernel("  let a = " + "sum<over ctx.lane, width " * n + "1" + ">(X[0])" * n)
elif kind == "block":
    text = kernel("  " + "if true { " * n + "}" * n)
elif kind == "and":
    text = kernel("  let a = " + " && ".join(["true"] * (n + 1)))
elif kind == "plus":
    text = kernel("  let a = " + " + ".join(["X[0]"] * (n + 1)))
elif kind == "fanout":
    fns = "".join(f"fn h{i}(a) = h{i + 1}(a) + h{i + 1}(a)\n" for i in range(n)) + f"fn h{n}(a) = a\n"
    text = fns + kernel("  Y[ctx.thread] = h0(X[ctx.thread])")
elif kind == "fanout-run":
    fns = "fn h%d(a) = a * a\n" % n + "".join("fn h%d(a) = h%d(a) + h%d(a + 1.0)\n" % (i, i + 1, i + 1) for i in range(n))
    text = fns + kernel("  Y[0] = sum(h0(X[0 :+ 64]))")
elif kind == "statements":
    text = HEAD + "  var acc: f32 = 0.0\n" + "".join("  acc = acc + X[%d]\n" % (i % 97) for i in range(n)) + "  Y[ctx.lane] = acc\n}\n"
elif kind == "cta-argmax":
    body = "".join("  s += f32(argmax<over ctx.thread>(X[ctx.thread] + %d.0))\n" % i for i in range(n))
    text = "@launch(256)\nkernel k(X: tensor<f32>[N], Y: tensor<f32>[N]) {\n  var s = 0.0\n" + body + "  Y[ctx.thread] = s\n}\n"
elif kind == "autotune":
    vals = ", ".join(str(v) for v in range(1, n + 1))
    text = "@autotune(A in [%s], B in [%s], C in [%s])\n@launch(32)\nkernel k(X: tensor<f32>[A, B, C]) {\n  X[0, 0, 0] = 1.0\n}\n" % (vals, vals, vals)
elif kind == "chain":
    fns = "".join(f"fn g{i}(a) = g{i + 1}(a) + 1.0\n" for i in range(n)) + f"fn g{n}(a) = a\n"
    text = fns + kernel("  Y[ctx.thread] = g0(X[ctx.thread])")
elif kind == "cycle":
    text = "fn a(x) = b(x)\nfn b(x) = c(x)\nfn c(x) = a(x)\n" + kernel("  Y[ctx.thread] = a(X[ctx.thread])")
elif kind == "dense":
    text = "func.func @f() attributes {a = dense<" + "[" * n + "1" + "]" * n + "> : tensor<" + "1x" * n + "i32>} { return }\n"
elif kind == "regions":
    inner = "scf.execute_region {\n" * n + "scf.yield\n}\n" * n
    text = "func.func @f() {\n" + inner + "return\n}\n"
elif kind in ("npy-overflow", "npy-short"):
    shape = "(4194304, 2097152, 2097152)" if kind == "npy-overflow" else f"({n},)"
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': %s, }" % shape
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    data = b"" if kind == "npy-overflow" else b"\0" * 8
    with open(out, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode() + data)
    sys.exit(0)
elif kind in ("whiles", "whiles-shared"):
    shared = kind == "whiles-shared"
    lines = ["  var buf: shared<f32>[32]"] if shared else []
    for k in range(n):
        lines += ["  " * (k + 1) + f"var c{k} = 0", "  " * (k + 1) + f"while c{k} < 2 {{"]
    ind = "  " * (n + 1)
    if shared:
        lines += [ind + "buf[ctx.thread] = X[ctx.thread]", ind + "Y[ctx.thread] = buf[(ctx.thread + 1) % 32]"]
    else:
        lines += [ind + "Y[ctx.thread] = Y[ctx.thread] + 1.0"]
    for k in reversed(range(n)):
        lines += ["  " * (k + 2) + f"c{k} += 1", "  " * (k + 1) + "}"]
    text = kernel("\n".join(lines))
elif kind == "escape":
    text = """gpu.module @m {
  gpu.func @k(%a: memref<16xf32> {phobos.tensor = "../escaped"}) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    gpu.return
  }
}
"""
else:
    sys.exit(f"hostile.py: unknown kind {kind}")
with open(out, "w") as f:
    f.write(text)
