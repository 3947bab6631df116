"""docs/abi.md against what `phobos compile` writes.

abi_check.py doc ABI.md MANIFEST.json: the doc's JSON example equals the manifest (lanes_matvec's).
abi_check.py params MANIFEST.json PTX: for every entry, `params` lists every dimension of its
tensors, and the PTX entry's parameters are the tensors, then the dims not in `fixed`, then the
tensor maps (sm_90a's TMA copies).
"""
import json
import re
import sys


def doc(abi_md: str, manifest: str) -> None:
    text = open(abi_md).read()
    example = json.loads(re.search(r"```json\n(.*?)```", text, re.S).group(1))
    got = json.load(open(manifest))
    if example != got:
        sys.exit(f"docs/abi.md's example differs from the manifest:\n{json.dumps(example)}\n{json.dumps(got)}")
    print("abi: the doc's example is the manifest")


def params(manifest: str, ptx_path: str) -> None:
    ptx = open(ptx_path).read()
    for e in json.load(open(manifest))["entries"]:
        tensors = [p for p in e["params"] if p["kind"] == "tensor"]
        dims = [p["name"] for p in e["params"] if p["kind"] == "dim"]
        named = []
        for t in tensors:
            named += [d for d in t["dims"] if not d.isdigit() and d not in named]
        if dims != named:
            sys.exit(f"{e['name']}: params list dims {dims}, the tensors have {named}")
        m = re.search(r"\.entry " + re.escape(e["name"]) + r"\((.*?)\)", ptx, re.S)
        if m is None:
            sys.exit(f"no .entry {e['name']} in the PTX")
        count = m.group(1).count(".param")
        maps = [p for p in e["params"] if p["kind"] == "tensor_map"]
        if e["params"][len(e["params"]) - len(maps):] != maps:
            sys.exit(f"{e['name']}: the tensor maps are not the last parameters")
        want = len(tensors) + len([d for d in dims if d not in e["fixed"]]) + len(maps)
        if count != want:
            sys.exit(f"{e['name']}: {count} PTX parameters, the manifest says {want}")
        more = f", {len(maps)} tensor maps" if maps else ""
        print(f"abi: {e['name']}: {len(tensors)} tensors, dims {dims}, fixed {sorted(e['fixed'])}{more}, {count} PTX parameters")


if __name__ == "__main__":
    {"doc": doc, "params": params}[sys.argv[1]](*sys.argv[2:])
