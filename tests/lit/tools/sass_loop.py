"""The SASS of a kernel's main loop (tests/lit/run/sass.test):

  sass_loop.py PTXAS NVDISASM ARCH FILE.ptx

assembles FILE.ptx for ARCH, disassembles it, finds the loop (a backward branch to a label)
with the most tensor-core instructions, and prints its counts of HMMA, IMMA, LDGSTS, LDSM,
BAR.SYNC, HGMMA (sm_90a's wgmma) and UTMALDG (its TMA copies), then the whole kernel's local-memory accesses (LDL, STL).
"""
import re
import subprocess
import sys
import tempfile

ptxas, nvdisasm, arch, ptx = sys.argv[1:5]
with tempfile.NamedTemporaryFile(suffix=".cubin") as cubin:
    subprocess.run([ptxas, f"-arch={arch}", ptx, "-o", cubin.name], check=True)
    text = subprocess.run([nvdisasm, "-c", cubin.name], check=True, capture_output=True, text=True).stdout
labels, insts = {}, []
for line in text.splitlines():
    m = re.match(r"^\s*(\.L_x_\d+):", line)
    if m:
        labels[m.group(1)] = len(insts)
        continue
    m = re.search(r"/\*[0-9a-f]{4,}\*/\s+(.*?);", line)
    if m:
        insts.append(m.group(1))
loops = []
for i, inst in enumerate(insts):
    m = re.search(r"BRA\s+`?\(?(\.L_x_\d+)", inst)
    if m and labels.get(m.group(1), i + 1) <= i:
        loops.append(insts[labels[m.group(1)]:i + 1])
kinds = ["HMMA", "IMMA", "LDGSTS", "LDSM", "BAR.SYNC", "HGMMA", "UTMALDG"]
body = max(loops, key=lambda b: sum(("HMMA" in x or "IMMA" in x or "HGMMA" in x) for x in b), default=[])
print("main loop:", " ".join(f"{k} {sum(k in x for x in body)}" for k in kinds))
print("local memory:", sum(bool(re.match(r"(@!?P\d+\s+)?(LDL|STL)\b", x)) for x in insts))
