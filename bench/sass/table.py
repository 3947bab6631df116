"""The SASS of each example kernel and tutorial next to Triton's for the same kernel: registers
(ptxas -v), instructions, global loads and stores, shuffles (nvdisasm), for sm_90a, both
assembled by the same ptxas (Triton's CUDA 13.4 one, which takes the PTX 9.4 Triton emits). No GPU.

  python3 bench/sass/table.py [--phobos target/release/phobos] [--venv PY]

PY: the anchors' venv python (../shared/anchors/setup.sh; default
$PHOBOS_ANCHOR_VENV/bin/python or ~/.cache/phobos-anchors/venv/bin/python). Prints a
markdown table (docs/performance.md has one).
"""
import argparse
import os
import re
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# kernel: (Phobos source, Phobos kernel, -D bindings)
PHOBOS = {
    "lanes_matvec": ("examples/lanes_matvec.phobos", "lanes_matvec", []),
    "vector_add": ("examples/tutorials/vector_add.phobos", "vector_add", []),
    "gelu": ("examples/tutorials/gelu.phobos", "gelu", []),
    "softmax": ("examples/tutorials/softmax.phobos", "softmax", []),
    "layer_norm": ("examples/tutorials/layer_norm.phobos", "layer_norm", []),
    "matmul": ("examples/tutorials/matmul.phobos", "matmul_4x4", []),
    "lane_max": ("examples/lane_max.phobos", "lane_max", []),
    "i8_matvec": ("examples/i8_matvec.phobos", "i8_matvec", []),
    "staged_matvec": ("examples/staged_matvec.phobos", "staged_matvec", []),
}


def sass(ptxas, nvdisasm, ptx, tmp):
    cubin = os.path.join(tmp, os.path.basename(ptx) + ".cubin")
    out = subprocess.run([ptxas, "-arch=sm_90a", "-v", ptx, "-o", cubin], capture_output=True, text=True, check=True)
    regs = max(int(m) for m in re.findall(r"Used (\d+) registers", out.stderr))
    text = subprocess.run([nvdisasm, "-c", cubin], capture_output=True, text=True, check=True).stdout
    insts = [l.split("*/", 1)[1].strip() for l in text.splitlines() if re.search(r"/\*[0-9a-f]{4}\*/\s+[A-Z@{]", l)]
    insts = [i for i in insts if not i.startswith("NOP")]
    op = lambda i: i.lstrip("{").split()[1 if i.startswith("@") else 0]
    count = lambda p: sum(1 for i in insts if op(i).startswith(p))
    return {"regs": regs, "insts": len(insts), "ldg": count("LDG"), "stg": count("STG"), "shfl": count("SHFL")}


def arguments():
    """The options both SASS scripts take: the phobos binary and the anchors' venv python."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--phobos", default=os.path.join(ROOT, "target/release/phobos"))
    venv = os.environ.get("PHOBOS_ANCHOR_VENV", os.path.expanduser("~/.cache/phobos-anchors/venv"))
    ap.add_argument("--venv", default=os.path.join(venv, "bin/python"))
    return ap


def triton_tools(venv):
    """(Triton's package directory, its ptxas, its nvdisasm). Triton 3.9 emits PTX 9.4: its
    CUDA 13 ptxas (ptxas-blackwell) takes it, and Phobos's too."""
    site = subprocess.run([venv, "-c", "import triton, os; print(os.path.dirname(triton.__file__))"], capture_output=True, text=True, check=True).stdout.strip()
    bin_dir = os.path.join(site, "backends/nvidia/bin")
    return site, os.path.join(bin_dir, "ptxas-blackwell"), os.path.join(bin_dir, "nvdisasm")


def main():
    a = arguments().parse_args()
    _, ptxas, nvdisasm = triton_tools(a.venv)
    with tempfile.TemporaryDirectory(prefix="phobos-sass-") as tmp:
        tri = os.path.join(tmp, "triton")
        env = dict(os.environ, TRITON_DEFAULT_FP_FUSION="1")
        subprocess.run([a.venv, os.path.join(ROOT, "bench/sass/triton_kernels.py"), tri], check=True, env=env)
        print("| kernel | Phobos: registers / SASS instructions / LDG / STG / SHFL | Triton 3.9: registers / SASS instructions / LDG / STG / SHFL |")
        print("|---|---|---|")
        for name, (src, kernel, defs) in PHOBOS.items():
            ptx = os.path.join(tmp, f"{name}.phobos.ptx")
            subprocess.run([a.phobos, "compile", os.path.join(ROOT, src), "--kernel", kernel, "--no-cache", "-o", ptx] + defs, check=True)
            p = sass(ptxas, nvdisasm, ptx, tmp)
            fmt = lambda s: f"{s['regs']} / {s['insts']} / {s['ldg']} / {s['stg']} / {s['shfl']}"
            t = os.path.join(tri, f"{name}.ptx")
            tcol = fmt(sass(ptxas, nvdisasm, t, tmp)) if os.path.exists(t) else "—"
            print(f"| {name} (`{kernel}`) | {fmt(p)} | {tcol} |")


if __name__ == "__main__":
    main()
