"""Reads `phobos compile --time-passes` on stdin: the top-level phases (two-space indent) must
add up to the total within 10%, and every time must be a number."""
import sys

top, total = [], None
for line in sys.stdin:
    if not line.startswith("  ") or line.startswith("    "):
        continue
    name, ms = line.split()[0], float(line.split()[-1])
    if name == "total":
        total = ms
    else:
        top.append(ms)
assert total is not None and top, "no phases"
s = sum(top)
assert abs(s - total) <= 0.1 * total, f"the phases add up to {s:.3f} ms of {total:.3f} ms"
print(f"phases: {s:.3f} ms of {total:.3f} ms")
