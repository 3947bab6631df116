"""64-bit against 32-bit index arithmetic in the SASS of each example kernel and tutorial: the
same SIMT-level IR lowered twice, once as `phobos compile` lowers it (MLIR's
`index` is 64 bits) and once with `convert-gpu-to-nvvm{index-bitwidth=32}`, both assembled by
the same ptxas for sm_90a and counted with nvdisasm. No GPU.

  python3 bench/sass/index_width.py [--phobos target/release/phobos] [--venv PY]

Prints, per kernel and width: registers, static SASS instructions, and for the loop with the
most global loads, its instructions per global load (an unrolled loop and a rolled one compare
fairly that way). The 64-bit lowering must give the PTX `phobos compile` gives, byte for byte:
the script stops otherwise (the pass list below copies `simt_to_llvm` in
passes/src/pipelines.rs).
"""
import os
import re
import subprocess
import tempfile

from table import PHOBOS, ROOT, arguments, sass, triton_tools

# `simt_to_llvm` (passes/src/pipelines.rs), with convert-gpu-to-nvvm's index width left open.
SIMT_TO_PTX = (
    "builtin.module(nvvm-attach-target{{chip=sm_90 O=3 l={libdevice}}},gpu.module(contract-fma{{contract=false}},"
    "strip-bounds-checks,lower-fma,lower-math-intrinsics,lower-ordered-accesses,expand-strided-metadata,lower-affine,"
    "convert-vector-to-scf,convert-scf-to-cf,convert-gpu-to-nvvm{{has-redux=1 use-bare-ptr-memref-call-conv=1 index-bitwidth={bits}}},"
    "canonicalize,cse,reconcile-unrealized-casts),gpu-module-to-binary{{format=isa}})"
)


def ptx_of_binary(mlir):
    """The PTX held by the gpu.binary that gpu-module-to-binary{format=isa} prints."""
    m = re.search(r'assembly = "(.*?)"(?=\s*[,>\]])', mlir, re.S)
    return re.sub(r"\\([0-9A-Fa-f]{2})", lambda h: chr(int(h.group(1), 16)), m.group(1)).replace("\\\\", "\\")


def hottest_loop(nvdisasm, cubin):
    """(instructions, global loads) of the backward-branch loop with the most LDGs, or None."""
    text = subprocess.run([nvdisasm, "-c", cubin], capture_output=True, text=True, check=True).stdout
    insts, label_at, pending = [], {}, None
    for line in text.splitlines():
        m = re.match(r"\s*\.L_x_(\d+):", line)
        if m:
            pending = m.group(1)
            continue
        m = re.search(r"/\*([0-9a-f]{4})\*/\s+(.*?);", line)
        if m:
            addr = int(m.group(1), 16)
            if pending is not None:
                label_at[pending], pending = addr, None
            if not m.group(2).strip().startswith("NOP"):
                insts.append((addr, m.group(2).strip()))
    best = None
    for addr, inst in insts:
        t = re.search(r"BRA.*\.L_x_(\d+)", inst)
        if t and label_at.get(t.group(1), addr) < addr:
            body = [i for a, i in insts if label_at[t.group(1)] <= a <= addr]
            ldg = sum(1 for i in body if "LDG" in i)
            if ldg and (best is None or ldg > best[1]):
                best = (len(body), ldg)
    return best


def main():
    ap = arguments()
    ap.add_argument("--phobos-opt", default=os.path.join(ROOT, "target/release/phobos-opt"))
    a = ap.parse_args()
    site, ptxas, nvdisasm = triton_tools(a.venv)
    # One libdevice for both lowerings and for `phobos compile`: Triton's copy of NVIDIA's.
    libdevice = os.path.join(site, "backends/nvidia/lib/libdevice.10.bc")
    env = dict(os.environ, PHOBOS_LIBDEVICE=libdevice)
    print("| kernel | 64-bit (today): registers / SASS / loop instructions per LDG | 32-bit: registers / SASS / loop instructions per LDG |")
    print("|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="phobos-index-") as tmp:
        for name, (src, kernel, defs) in PHOBOS.items():
            base = os.path.join(tmp, name)
            cmd = [a.phobos, "compile", os.path.join(ROOT, src), "--kernel", kernel, "--no-cache"] + defs
            subprocess.run(cmd + ["--emit", "simt", "-o", base + ".simt.mlir"], check=True, env=env)
            subprocess.run(cmd + ["-o", base + ".ptx"], check=True, env=env)
            cols = []
            for bits in (64, 32):
                pipeline = SIMT_TO_PTX.format(libdevice=libdevice, bits=bits)
                out = subprocess.run([a.phobos_opt, base + ".simt.mlir", f"--pass-pipeline={pipeline}"], capture_output=True, text=True, check=True).stdout
                ptx = f"{base}.{bits}.ptx"
                with open(ptx, "w") as f:
                    f.write(ptx_of_binary(out))
                if bits == 64 and open(ptx).read() != open(base + ".ptx").read():
                    raise SystemExit(f"{name}: the 64-bit lowering here is not `phobos compile`'s: update SIMT_TO_PTX")
                s = sass(ptxas, nvdisasm, ptx, tmp)
                loop = hottest_loop(nvdisasm, os.path.join(tmp, os.path.basename(ptx) + ".cubin"))
                per = f"{loop[0] / loop[1]:.2f} ({loop[0]} / {loop[1]})" if loop else "— (no loop)"
                cols.append(f"{s['regs']} / {s['insts']} / {per}")
            print(f"| {name} (`{kernel}`) | {cols[0]} | {cols[1]} |")


if __name__ == "__main__":
    main()
