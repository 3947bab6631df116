"""Writes cli/symbol-order.txt: the LLVM and MLIR functions a compile executes, for lld's
`--symbol-ordering-file` (cli/build.rs), so that they sit together in the binary's text instead
of spread over its 57 MB. A compile then faults in fewer pages of code (docs/performance.md).

  python3 scripts/symbol-order.py [--phobos target/release/phobos]

Needs valgrind. Runs callgrind over cold compiles of the example kernels and the tutorials (any
function callgrind saw run is listed, in the order it first reports them), keeps the C and C++
symbols the binary defines, and leaves out Rust's (their hashes change with every edit of the
crate that defines them; a name the linker does not find is skipped, so a stale list costs only
its benefit). Regenerate after an LLVM upgrade or a change of the pipelines.
"""
import argparse
import os
import re
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (source, kernel): compiled to PTX, cold, one process each.
WORKLOAD = [
    ("examples/lanes_matvec.phobos", "lanes_matvec"),
    ("examples/tutorials/softmax.phobos", "softmax"),
    ("examples/tutorials/layer_norm.phobos", "layer_norm"),
    ("examples/tutorials/gelu.phobos", "gelu"),
    ("examples/tutorials/matmul.phobos", "matmul_4x4"),
    ("examples/tutorials/vector_add.phobos", "vector_add"),
    ("examples/i8_matvec.phobos", "i8_matvec"),
    ("examples/staged_matvec.phobos", "staged_matvec"),
    ("examples/lane_max.phobos", "lane_max"),
]

RUST_SYMBOL = re.compile(r"17h[0-9a-f]{16}E$|^_R")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--phobos", default=os.path.join(ROOT, "target/release/phobos"))
    ap.add_argument("-o", "--output", default=os.path.join(ROOT, "cli/symbol-order.txt"))
    a = ap.parse_args()
    nm = subprocess.run(["nm", "--defined-only", a.phobos], capture_output=True, text=True, check=True).stdout
    code = {p[2] for p in (line.split() for line in nm.splitlines()) if len(p) == 3 and p[1] in "tTwW"}
    order, seen = [], set()
    with tempfile.TemporaryDirectory(prefix="phobos-order-") as tmp:
        for src, kernel in WORKLOAD:
            out = os.path.join(tmp, kernel + ".callgrind")
            cmd = [a.phobos, "compile", os.path.join(ROOT, src), "--kernel", kernel, "--no-cache", "-o", os.devnull]
            subprocess.run(["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out}"] + cmd, check=True, capture_output=True)
            with open(out, errors="replace") as f:
                for line in f:
                    m = re.match(r"c?fn=\(\d+\)\s+(\S+)", line)
                    if m and m.group(1) in code and m.group(1) not in seen and not RUST_SYMBOL.search(m.group(1)):
                        seen.add(m.group(1))
                        order.append(m.group(1))
    with open(a.output, "w") as f:
        f.write("".join(s + "\n" for s in order))
    print(f"{a.output}: {len(order)} functions")


if __name__ == "__main__":
    main()
