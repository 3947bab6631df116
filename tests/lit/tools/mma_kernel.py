"""Writes a SIMT-level kernel that runs one warp-wide `nvvm.mma.sync` (A 16xK row-major, B Kx8,
C and D 16x8 row-major, every matrix a flat tensor), each lane loading its fragment as the PTX
ISA places it, and the inputs for it. Usage: mma_kernel.py TYPE OUTDIR, TYPE one of f16, bf16,
tf32, s8; the reference is `D = A @ B + C` in NumPy (float64, or int64 for s8)."""

import sys

import numpy as np

TYPE, OUT = sys.argv[1], sys.argv[2]
K = {"f16": 16, "bf16": 16, "tf32": 8, "s8": 32}[TYPE]
PER = {"f16": 2, "bf16": 2, "tf32": 1, "s8": 4}[TYPE]  # elements per 32-bit register
ACC = "i32" if TYPE == "s8" else "f32"


def a_at(lane, e):
    g, t = lane // 4, lane % 4
    if K == 16:
        return g + 8 * ((e >> 1) & 1), 2 * t + (e & 1) + 8 * (e >> 2)
    if K == 8:
        return g + 8 * (e & 1), t + 4 * (e >> 1)
    return g + 8 * ((e >> 2) & 1), 4 * t + (e & 3) + 16 * (e >> 3)


def b_at(lane, e):
    g, t = lane // 4, lane % 4
    if K == 16:
        return 2 * t + (e & 1) + 8 * (e >> 1), g
    if K == 8:
        return t + 4 * e, g
    return 4 * t + (e & 3) + 16 * (e >> 2), g


# The kernel reads each lane's fragment through index tables (tensors AI, BI: lane-major), so the
# fragment layout under test lives here, written from the ISA, and nowhere in the kernel.
na, nb = 16 * K // 32, K * 8 // 32
AI = np.array([[r * K + c for r, c in (a_at(l, e) for e in range(na))] for l in range(32)], np.int32)
BI = np.array([[k * 8 + n for k, n in (b_at(l, e) for e in range(nb))] for l in range(32)], np.int32)
rng = np.random.default_rng(7)
if TYPE == "s8":
    A = rng.integers(-128, 128, (16, K), dtype=np.int8)
    B = rng.integers(-128, 128, (K, 8), dtype=np.int8)
    C = rng.integers(-1000, 1000, (16, 8), dtype=np.int32)
    ref = A.astype(np.int64) @ B.astype(np.int64) + C
    store_ty, elem = "i8", "i8"
else:
    A = rng.standard_normal((16, K)).astype(np.float32)
    B = rng.standard_normal((K, 8)).astype(np.float32)
    C = rng.standard_normal((16, 8)).astype(np.float32)
    if TYPE == "f16":
        A, B = A.astype(np.float16), B.astype(np.float16)
        store_ty, elem = "f16", "f16"
    elif TYPE == "bf16":
        # bf16 as its bits (uint16): round to nearest even from f32.
        def bf16(x):
            u = x.view(np.uint32).astype(np.uint64)
            return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
        A, B = bf16(A), bf16(B)
        store_ty, elem = "bf16", "bf16"
    else:
        # tf32: the multiply reads the top 19 bits; give it values that are already tf32.
        A = (A.view(np.uint32) & 0xFFFFE000).view(np.float32)
        B = (B.view(np.uint32) & 0xFFFFE000).view(np.float32)
        store_ty, elem = "f32", "f32"

    def val(x):
        return (x.astype(np.uint32) << 16).view(np.float32).astype(np.float64) if TYPE == "bf16" else x.astype(np.float64)

    ref = val(A) @ val(B) + C.astype(np.float64)
np.save(f"{OUT}/A.npy", A.reshape(-1))
np.save(f"{OUT}/B.npy", B.reshape(-1))
np.save(f"{OUT}/C.npy", C.reshape(-1))
np.save(f"{OUT}/D.npy", np.zeros(128, C.dtype))
np.save(f"{OUT}/AI.npy", AI.reshape(-1))
np.save(f"{OUT}/BI.npy", BI.reshape(-1))
np.save(f"{OUT}/ref.npy", ref.reshape(-1))

lines = []
emit = lines.append
n = [0]


def fresh():
    n[0] += 1
    return f"%v{n[0]}"


def let(rhs):
    """Emits `%vN = rhs` with a fresh name; returns the name."""
    v = fresh()
    emit(f"    {v} = {rhs}")
    return v


def load_frag(tensor, index, count, size):
    """Loads `count` elements of `tensor` at `index[lane * count + e]`: SSA names, in order."""
    out = []
    for e in range(count):
        c = let(f"arith.constant {e} : index")
        at = let(f"arith.addi %base_{tensor}, {c} : index")
        i32 = let(f"memref.load %{index}[{at}] : memref<{32 * count}xi32>")
        idx = let(f"arith.index_cast {i32} : i32 to index")
        out.append(let(f"memref.load %{tensor}[{idx}] : memref<{size}x{elem}>"))
    return out


def pack(vals):
    """Registers of PER elements: vector<2xf16> for f16, else an i32 holding them (low first)."""
    regs = []
    for r in range(0, len(vals), PER):
        part = vals[r:r + PER]
        if TYPE == "f16":
            v = let(f"vector.from_elements {', '.join(part)} : vector<2xf16>")
        elif TYPE == "tf32":
            v = let(f"arith.bitcast {part[0]} : f32 to i32")
        else:
            vec = let(f"vector.from_elements {', '.join(part)} : vector<{PER}x{elem}>")
            v = let(f"vector.bitcast {vec} : vector<{PER}x{elem}> to vector<1xi32>")
            v = let(f"vector.extract {v}[0] : i32 from vector<1xi32>")
        regs.append(v)
    return regs


emit("    %lane = gpu.lane_id")
for t, cnt in (("A", na), ("B", nb)):
    c = let(f"arith.constant {cnt} : index")
    emit(f"    %base_{t} = arith.muli %lane, {c} : index")
a_regs = pack(load_frag("A", "AI", na, 16 * K))
b_regs = pack(load_frag("B", "BI", nb, K * 8))
# C and D: (g, 2t + e%2) and (g + 8, ...), row-major 16x8.
emit("    %c4 = arith.constant 4 : index")
emit("    %c8 = arith.constant 8 : index")
emit("    %c2 = arith.constant 2 : index")
emit("    %g = arith.divui %lane, %c4 : index")
emit("    %t = arith.remui %lane, %c4 : index")
emit("    %t2 = arith.muli %t, %c2 : index")
offs = []
for e in range(4):
    row = let(f"arith.constant {8 * (e >> 1)} : index")
    r = let(f"arith.addi %g, {row} : index")
    rs = let(f"arith.muli {r}, %c8 : index")
    col = let(f"arith.constant {e & 1} : index")
    cc = let(f"arith.addi %t2, {col} : index")
    o = let(f"arith.addi {rs}, {cc} : index")
    offs.append(o)
cs = [let(f"memref.load %C[{o}] : memref<128x{ACC}>") for o in offs]
reg_ty = "vector<2xf16>" if TYPE == "f16" else "i32"
attrs = "layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, " + f"shape = #nvvm.shape<m = 16, n = 8, k = {K}>"
if TYPE != "f16":
    attrs += f", multiplicandAPtxType = #nvvm.mma_type<{TYPE}>, multiplicandBPtxType = #nvvm.mma_type<{TYPE}>"
if TYPE == "s8":
    attrs += ", intOverflowBehavior = #nvvm.mma_int_overflow<wrapped>"
st = f"!llvm.struct<({', '.join([ACC] * 4)})>"
emit(f"    %d = nvvm.mma.sync A[{', '.join(a_regs)}] B[{', '.join(b_regs)}] C[{', '.join(cs)}] {{{attrs}}} : ({reg_ty}, {reg_ty}, {ACC}) -> {st}")
for e, o in enumerate(offs):
    emit(f"    %d{e} = llvm.extractvalue %d[{e}] : {st}")
    emit(f"    memref.store %d{e}, %D[{o}] : memref<128x{ACC}>")
args = [f'%A: memref<{16 * K}x{elem}> {{phobos.tensor = "A"}}', f'%B: memref<{K * 8}x{elem}> {{phobos.tensor = "B"}}',
        f'%C: memref<128x{ACC}> {{phobos.tensor = "C"}}', f'%D: memref<128x{ACC}> {{phobos.tensor = "D"}}',
        f'%AI: memref<{32 * na}xi32> {{phobos.tensor = "AI"}}', f'%BI: memref<{32 * nb}xi32> {{phobos.tensor = "BI"}}']
with open(f"{OUT}/mma_{TYPE}.mlir", "w") as f:
    f.write("gpu.module @m {\n")
    f.write(f"  gpu.func @mma_{TYPE}({', '.join(args)}) kernel attributes {{known_block_size = array<i32: 32, 1, 1>}} {{\n")
    f.write("\n".join(lines) + "\n    gpu.return\n  }\n}\n")
