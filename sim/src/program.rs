//! The simulator's compact form of a kernel: a flat list of instructions per kernel over
//! numbered register slots, translated once from the SIMT-level MLIR.
//!
//! Structured control flow (`scf.if`, `scf.for`, `scf.while`) becomes begin/latch/end
//! instructions that push and pop lane masks, so a warp runs in lockstep with a mask of active
//! lanes, and can stop at any instruction (a barrier, a time slice) and resume.

use phobos_ir::SrcLoc;

/// Scalar element types as the simulator stores them: every element is a u64 of raw bits
/// (integers zero-extended to 64 bits, floats as their IEEE bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Prim {
    I1,
    I8,
    I16,
    I32,
    I64,
    F16,
    BF16,
    F32,
    F64,
}

impl Prim {
    pub fn bits(self) -> u32 {
        match self {
            Prim::I1 => 1,
            Prim::I8 => 8,
            Prim::I16 | Prim::F16 | Prim::BF16 => 16,
            Prim::I32 | Prim::F32 => 32,
            Prim::I64 | Prim::F64 => 64,
        }
    }
    /// Bytes in memory (i1 takes a byte).
    pub fn bytes(self) -> usize {
        (self.bits() as usize).div_ceil(8)
    }
    pub fn is_float(self) -> bool {
        matches!(self, Prim::F16 | Prim::BF16 | Prim::F32 | Prim::F64)
    }
    pub fn mask(self) -> u64 {
        if self.bits() == 64 {
            u64::MAX
        } else {
            (1u64 << self.bits()) - 1
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Prim::I1 => "i1",
            Prim::I8 => "i8",
            Prim::I16 => "i16",
            Prim::I32 => "i32",
            Prim::I64 => "i64",
            Prim::F16 => "f16",
            Prim::BF16 => "bf16",
            Prim::F32 => "f32",
            Prim::F64 => "f64",
        }
    }
}

/// A register slot: `len` elements per lane starting at `off` (in u64 words, times 32 lanes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Slot {
    pub off: u32,
    pub len: u32,
}

/// Where a memref points.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum MemSrc {
    /// Kernel argument `i` (a global buffer).
    Arg(usize),
    /// Workgroup memory at a byte offset in the CTA's shared memory.
    Shared { offset: u32, bytes: u32 },
    /// Thread-private memory at a byte offset in each thread's private area.
    Private { offset: u32, bytes: u32 },
    /// The base of the dynamic shared memory (at `offset` in the CTA's shared memory); only
    /// `memref.view`s of it are accessed.
    Dynamic { offset: u32 },
}

/// A memref value: its memory, element type and static row-major strides (in elements).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MemRef {
    pub src: MemSrc,
    pub elem: Prim,
    pub strides: Vec<u64>,
    /// A name for messages: the tensor's, or the global's.
    pub name: String,
    /// A view of shared memory at a byte offset known at run time: the register holding it,
    /// added to `src`'s offset (a pipelined tile's stage).
    #[serde(default)]
    pub shift: Option<Slot>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    DivS,
    DivU,
    RemS,
    RemU,
    And,
    Or,
    Xor,
    Shl,
    ShrS,
    ShrU,
    MaxS,
    MinS,
    MaxU,
    MinU,
    FAdd,
    FSub,
    FMul,
    FDiv,
    FRem,
    /// maximumf / minimumf: NaN propagating.
    FMax,
    FMin,
    /// maxnumf / minnumf: NaN ignoring.
    FMaxNum,
    FMinNum,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum UnOp {
    FNeg,
    CtPop,
    AbsF,
    /// `math.absi`: |x| of a signed integer (the most negative value stays itself, as on the GPU).
    AbsI,
}

/// The functions of MLIR's `math` dialect the simulator runs (the one table: `phobos_math`).
/// Each is computed in f64 and rounded once to the type (`exec::math`).
pub use phobos_math::MathFn;

/// The function of one of the approximate NVVM intrinsics `lower-fast-math` emits
/// (`llvm.nvvm.ex2.approx.ftz.f`, ...; tanh's is inline PTX, `tanh.approx.f32`).
pub fn approx_fn(intrinsic: &str) -> Option<MathFn> {
    Some(match intrinsic {
        "llvm.nvvm.ex2.approx.ftz.f" => MathFn::Exp2,
        "llvm.nvvm.lg2.approx.ftz.f" => MathFn::Log2,
        "llvm.nvvm.rsqrt.approx.ftz.f" => MathFn::Rsqrt,
        "llvm.nvvm.sin.approx.ftz.f" => MathFn::Sin,
        "llvm.nvvm.cos.approx.ftz.f" => MathFn::Cos,
        "tanh.approx.f32 $0, $1;" => MathFn::Tanh,
        _ => return None,
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum CastOp {
    ExtS,
    ExtU,
    Trunc,
    SiToFp,
    UiToFp,
    FpToSi,
    FpToUi,
    ExtF,
    TruncF,
    /// Same bits, another type (same width).
    Bitcast,
    /// An f32 rounded to tf32 (nearest, ties away from zero: `cvt.rna.tf32.f32`), as its f32
    /// bits with the low 13 zero; infinities and NaN unchanged.
    Tf32,
}

/// Comparison predicates (arith.cmpi and arith.cmpf numbering is folded into these).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Pred {
    Eq,
    Ne,
    Slt,
    Sle,
    Sgt,
    Sge,
    Ult,
    Ule,
    Ugt,
    Uge,
    /// Float predicates: (ordered?, relation), where the relation is one of the integer ones
    /// and unordered predicates are true on NaN.
    F {
        unordered: bool,
        rel: FRel,
    },
    FTrue,
    FFalse,
    FOrd,
    FUno,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum FRel {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ShflKind {
    Up,
    Down,
    Bfly,
    Idx,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Id {
    ThreadId(u8),
    BlockId(u8),
    BlockDim(u8),
    GridDim(u8),
    LaneId,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum AtomicKind {
    AddI,
    AddF,
    MaxS,
    MinS,
    MaxU,
    MinU,
    MaxF,
    MinF,
    And,
    Or,
    Xor,
    Exchange,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum RedKind {
    Add,
    Mul,
    Max,
    Min,
    And,
    Or,
    Xor,
}

/// Where global addresses start: the simulator's address of byte `o` of kernel argument `i`
/// (`memref.extract_aligned_pointer_as_index` of a tensor, then pointer arithmetic) is
/// `(i + 1) << GLOBAL_ADDRESS_SHIFT | o`; shared addresses are byte offsets below it.
pub const GLOBAL_ADDRESS_SHIFT: u32 = 48;

/// The simulator's address of byte 0 of kernel argument `arg`.
pub fn global_address(arg: usize) -> u64 {
    (arg as u64 + 1) << GLOBAL_ADDRESS_SHIFT
}

/// One instruction. `loc` indexes [`Kernel::locs`] for fault messages.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub enum Inst {
    Const {
        dst: Slot,
        vals: Vec<u64>,
    },
    Bin {
        op: BinOp,
        ty: Prim,
        dst: Slot,
        a: Slot,
        b: Slot,
        loc: u32,
    },
    Un {
        op: UnOp,
        ty: Prim,
        dst: Slot,
        a: Slot,
    },
    /// A `math` function of one or two operands (`b` is `a` for one); `ftz` for the hardware's
    /// approximations (`ex2.approx.ftz.f32`, ...), which flush denormal inputs and results to
    /// zero.
    Math {
        f: MathFn,
        ty: Prim,
        dst: Slot,
        a: Slot,
        b: Slot,
        ftz: bool,
    },
    /// `math.fma`: a * b + c with one rounding, as the GPU's `fma.rn`.
    Fma {
        ty: Prim,
        dst: Slot,
        a: Slot,
        b: Slot,
        c: Slot,
    },
    Cmp {
        pred: Pred,
        ty: Prim,
        dst: Slot,
        a: Slot,
        b: Slot,
    },
    Cast {
        op: CastOp,
        from: Prim,
        to: Prim,
        dst: Slot,
        a: Slot,
    },
    Select {
        dst: Slot,
        c: Slot,
        a: Slot,
        b: Slot,
    },
    Id {
        id: Id,
        dst: Slot,
    },
    Load {
        dst: Slot,
        mem: usize,
        idx: Vec<Slot>,
        n: u32,
        align: u32,
        loc: u32,
        /// An acquire load (`phobos.ordering = "acquire"`).
        acquire: bool,
    },
    /// A read with a fill value (`vector.maskedload`): element `e` (along the last index) is
    /// read where `mask`'s element `e` is set, else it is `pass`'s element `e`; unread elements
    /// are never checked against bounds.
    MaskedLoad {
        dst: Slot,
        mem: usize,
        idx: Vec<Slot>,
        mask: Slot,
        pass: Slot,
        loc: u32,
    },
    Store {
        src: Slot,
        mem: usize,
        idx: Vec<Slot>,
        n: u32,
        align: u32,
        loc: u32,
        /// The item of a `cta.scatter` this store writes (`phobos.scatter_item`): a second
        /// scatter write of a byte before the next barrier is a repeated rank.
        scatter: Option<u32>,
        /// A release store (`phobos.ordering = "release"`).
        release: bool,
    },
    Atomic {
        kind: AtomicKind,
        ty: Prim,
        dst: Slot,
        val: Slot,
        mem: usize,
        idx: Vec<Slot>,
        loc: u32,
    },
    /// compare-and-swap: dst = old; if old == cmp { mem = val }
    Cas {
        dst: Slot,
        cmp: Slot,
        val: Slot,
        mem: usize,
        idx: Vec<Slot>,
        loc: u32,
    },
    FromElements {
        dst: Slot,
        srcs: Vec<Slot>,
    },
    Broadcast {
        dst: Slot,
        src: Slot,
    },
    /// Element `pos` of `src`, or element `at` (an index value per lane) when given; a
    /// position past the end reads zero (MLIR's poison).
    Extract {
        dst: Slot,
        src: Slot,
        pos: u32,
        at: Option<Slot>,
    },
    /// `vec` with element `pos` (or `at`) replaced by `val`; past the end, `vec` unchanged.
    Insert {
        dst: Slot,
        vec: Slot,
        val: Slot,
        pos: u32,
        at: Option<Slot>,
    },
    ExtractSlice {
        dst: Slot,
        src: Slot,
        offset: u32,
    },
    /// A warp's `ldmatrix.sync.aligned.m8n8.x{num}.shared.b16` (`.trans` when `trans`): lanes
    /// 8i..8i+7 give the row addresses of matrix i (16 bytes each); every lane gets one 32-bit
    /// register per matrix, elements (l/4, 2(l%4)) and the next (transposed: rows 2(l%4) and
    /// the next of column l/4).
    LdMatrix {
        num: u32,
        trans: bool,
        ptr: Slot,
        dst: Slot,
        loc: u32,
    },
    /// `cp.async.{ca,cg}.shared.global` of `size` bytes (4, 8 or 16) per lane: from the global
    /// address in `src` ([`global_address`]) to the shared byte address in `dst`, the first
    /// `src_size` bytes read and the rest zero (all `size` when `None`). It lands at the
    /// issuing thread's [`Inst::CpAsyncWait`] covering its group.
    CpAsync {
        dst: Slot,
        src: Slot,
        size: u32,
        src_size: Option<Slot>,
        loc: u32,
    },
    /// `cp.async.commit_group`: the lane's copies since the last commit become one group.
    CpAsyncCommit,
    /// `cp.async.wait_group n`: the lane's committed groups but the `n` newest land.
    CpAsyncWait {
        n: u32,
        loc: u32,
    },
    /// A warp's tensor-core multiply-add `mma.sync.aligned.m16n8k{k}.row.col`: D = A·B + C over
    /// the fragments each lane holds ([`crate::mma`]); every lane of the warp takes part. Each
    /// operand list is the registers in order; a `packed` register is one 32-bit integer holding
    /// 32 / bits elements (bf16, tf32, s8, u8 fragments), else a vector of them (f16).
    Mma {
        k: u32,
        a_ty: crate::mma::MmaType,
        b_ty: crate::mma::MmaType,
        acc: crate::mma::MmaType,
        a: Vec<Slot>,
        b: Vec<Slot>,
        c: Vec<Slot>,
        packed: bool,
        dst: Slot,
        loc: u32,
    },
    /// A warpgroup's `wgmma.mma_async.sync.aligned.m64n{n}k16` (f16/bf16 into f32): D = A·B + C
    /// (C ignored when `scale_d` is 0) for this warp's 16 rows of the 64, A and B read from
    /// shared memory through matrix descriptors ([`crate::exec`]'s `wgmma`); `dst` and `c` are
    /// the n / 2 f32 accumulators, pending until a `wgmma.wait_group` covers the group.
    Wgmma {
        n: u32,
        ty: crate::mma::MmaType,
        /// A stored K-major (`layoutA = row`), B K-major (`layoutB = col`).
        a_kmajor: bool,
        b_kmajor: bool,
        scale_d: bool,
        /// `imm-scale-a`/`-b`: -1 negates the operand.
        neg_a: bool,
        neg_b: bool,
        a_desc: Slot,
        b_desc: Slot,
        c: Slot,
        dst: Slot,
        loc: u32,
    },
    /// `wgmma.fence`, `wgmma.commit_group`, `wgmma.wait_group n`: whole-warp.
    WgmmaFence {
        loc: u32,
    },
    WgmmaCommit {
        loc: u32,
    },
    WgmmaWait {
        n: u32,
        loc: u32,
    },
    /// `mbarrier.init [addr], count`: a fresh mbarrier of `count` expected arrivals, phase 0.
    MbarInit {
        addr: Slot,
        count: Slot,
        loc: u32,
    },
    /// `mbarrier.inval [addr]`.
    MbarInval {
        addr: Slot,
        loc: u32,
    },
    /// `mbarrier.arrive{.expect_tx} [addr]{, tx}`, or `mbarrier.expect_tx` (`arrive` false): the
    /// transaction count raised by `tx` bytes, then one arrival.
    MbarArrive {
        addr: Slot,
        tx: Option<Slot>,
        arrive: bool,
        loc: u32,
    },
    /// `mbarrier.try_wait.parity [addr], parity` until the phase of that parity completes: the
    /// warp blocks until then.
    MbarWait {
        addr: Slot,
        parity: Slot,
        loc: u32,
    },
    /// `cp.async.bulk.tensor.Nd.shared::cta.global.mbarrier::complete_tx::bytes [dst], [map,
    /// {coords}], [bar]`: the box at `coords` (innermost first, elements) of the tensor the map
    /// (`desc`: a tensor-map argument's address) describes, zero outside it, to shared `dst` under
    /// the map's swizzle; it lands when `bar`'s phase completes, its bytes counted there.
    TmaLoad {
        dst: Slot,
        desc: Slot,
        coords: Vec<Slot>,
        bar: Slot,
        loc: u32,
    },
    /// Reinterpret the bytes of a vector as another element type.
    VBitcast {
        dst: Slot,
        src: Slot,
        from: Prim,
        to: Prim,
    },
    Reduce {
        kind: RedKind,
        ty: Prim,
        dst: Slot,
        src: Slot,
        acc: Option<Slot>,
    },
    /// A warp shuffle with PTX semantics; `mask` is the member mask, `c` the packed
    /// segment/clamp; `valid` receives the predicate when present.
    Shfl {
        kind: ShflKind,
        dst: Slot,
        valid: Option<Slot>,
        v: Slot,
        b: Slot,
        c: Slot,
        mask: Slot,
        bits: u32,
        loc: u32,
    },
    /// gpu.shuffle with MLIR's width: member mask (1 << width) - 1.
    GpuShfl {
        kind: ShflKind,
        dst: Slot,
        valid: Slot,
        v: Slot,
        b: Slot,
        width: Slot,
        bits: u32,
        loc: u32,
    },
    Dp4a {
        dst: Slot,
        a: Slot,
        b: Slot,
        c: Slot,
        a_signed: bool,
        b_signed: bool,
    },
    Prmt {
        dst: Slot,
        a: Slot,
        b: Slot,
        sel: Slot,
    },
    /// nvvm.vote.sync: ballot (i32), any, all (i1).
    Vote {
        kind: u8,
        dst: Slot,
        mask: Slot,
        pred: Slot,
        loc: u32,
    },
    FunnelShift {
        dst: Slot,
        hi: Slot,
        lo: Slot,
        amount: Slot,
        left: bool,
    },
    Barrier {
        loc: u32,
    },
    /// `cf.assert`: a lane whose `cond` is false faults with `msg` (for `phobos.bounds`
    /// asserts, an out-of-bounds subscript).
    Assert {
        cond: Slot,
        msg: String,
        bounds: bool,
        loc: u32,
    },
    /// Masked copies: `dst[i] = src[i]` for the active lanes (yields).
    Move {
        pairs: Vec<(Slot, Slot)>,
    },
    IfBegin {
        cond: Slot,
        else_pc: u32,
        /// A tile copy's test of an element against its tensor's bounds (`phobos.masked`):
        /// the lanes that fail it hold a masked element (counted by the trace).
        masked: bool,
    },
    Else {
        end_pc: u32,
    },
    IfEnd,
    ForInit {
        iv: Slot,
        lb: Slot,
        iters: Vec<(Slot, Slot)>,
    },
    ForHead {
        iv: Slot,
        ub: Slot,
        ty: Prim,
        exit_pc: u32,
    },
    ForLatch {
        iv: Slot,
        step: Slot,
        ty: Prim,
        head_pc: u32,
        iters: Vec<(Slot, Slot)>,
        loc: u32,
    },
    ForEnd {
        results: Vec<(Slot, Slot)>,
    },
    WhileInit {
        args: Vec<(Slot, Slot)>,
    },
    WhileCond {
        cond: Slot,
        exit_pc: u32,
        results: Vec<(Slot, Slot)>,
        after: Vec<(Slot, Slot)>,
    },
    WhileLatch {
        head_pc: u32,
        args: Vec<(Slot, Slot)>,
        loc: u32,
    },
    WhileEnd,
    Return,
}

/// A translated kernel.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Kernel {
    pub name: String,
    pub insts: Vec<Inst>,
    /// u64 words of registers per lane (slots are laid out lane-minor).
    pub regs: u32,
    pub memrefs: Vec<MemRef>,
    /// Bytes of static shared memory per CTA.
    pub shared_bytes: u32,
    /// Bytes of private memory per thread.
    pub private_bytes: u32,
    /// Argument kinds in order.
    pub args: Vec<ArgKind>,
    /// (op name, source location) for messages.
    pub locs: Vec<(String, Option<SrcLoc>)>,
    /// Statement sites (an op's location through call sites to the outermost caller, so an
    /// inlined `fn`'s ops sit at their call), each once, for traces.
    pub sites: Vec<Option<SrcLoc>>,
    /// The site of each instruction (index into `sites`; `u32::MAX`: none).
    pub inst_sites: Vec<u32>,
    /// Argument slots: scalars arrive here.
    pub arg_slots: Vec<Option<(Slot, Prim)>>,
    pub block: Option<[u32; 3]>,
    /// Dynamic shared memory the kernel needs (`phobos.dynamic_shared_bytes`).
    pub dynamic_shared: u32,
}

impl Kernel {
    /// For each argument, whether an instruction may write its buffer (a store, an atomic, a
    /// compare-and-swap through a memref of it).
    pub fn written_args(&self) -> Vec<bool> {
        let mut written = vec![false; self.args.len()];
        for inst in &self.insts {
            if let Inst::Store { mem, .. } | Inst::Atomic { mem, .. } | Inst::Cas { mem, .. } = inst {
                if let MemSrc::Arg(a) = self.memrefs[*mem].src {
                    if let Some(w) = written.get_mut(a) {
                        *w = true;
                    }
                }
            }
        }
        written
    }
}

/// What a kernel argument is.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ArgKind {
    /// A buffer of `elem`, named `name` (from `phobos.tensor` when present), whose address is a
    /// multiple of `align` bytes (`llvm.align`, else the element's size).
    Buffer { name: String, elem: Prim, dims: Vec<String>, align: u32 },
    /// A scalar, named `name` (from `phobos.scalar` or `phobos.dim` when present): a value the
    /// caller gives, or (`dim`) a dimension bound from the tensors' shapes.
    Scalar { name: String, ty: Prim, dim: bool },
    /// The pointer to the TMA tensor map of tensor `tensor` (`phobos.tensor_map`): the launcher
    /// builds it, the caller passes nothing. `box` is the tile (outermost first), `swizzle` its
    /// swizzle span in bytes (0: none), `dims` the tensor's sizes where fixed at compile time
    /// (-1: the launch's value of the tensor's dimension).
    TensorMap { tensor: String, r#box: Vec<i64>, swizzle: u32, dims: Vec<i64> },
}

impl ArgKind {
    /// Whether the caller passes this argument (a tensor map is the launcher's).
    pub fn given(&self) -> bool {
        !matches!(self, ArgKind::TensorMap { .. })
    }
}

/// A size of the tensor a tensor map describes: fixed at compile time, or the value of
/// argument `i` (a dimension) at launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extent {
    Fixed(i64),
    Arg(usize),
}

/// What the tensor-map argument `map` of `args` describes: its tensor's argument, element type
/// and sizes (outermost first). The simulator's copies and the GPU launcher both read it so.
pub fn tensor_map_target(args: &[ArgKind], map: usize) -> Result<(usize, Prim, Vec<Extent>), String> {
    let Some(ArgKind::TensorMap { tensor, r#box, dims, .. }) = args.get(map) else {
        return Err(format!("argument {map} is no tensor map"));
    };
    let found = args.iter().enumerate().find_map(|(i, k)| match k {
        ArgKind::Buffer { name, dims, elem, .. } if name == tensor => Some((i, dims, *elem)),
        _ => None,
    });
    let Some((ti, names, elem)) = found else {
        return Err(format!("the tensor map names tensor {tensor}, which the kernel does not take"));
    };
    if names.len() != r#box.len() {
        return Err(format!("a {}-D box of tensor {tensor}, which has {} named dimensions (phobos.dims)", r#box.len(), names.len()));
    }
    let mut sizes = Vec::new();
    for (d, name) in names.iter().enumerate() {
        let fixed = dims.get(d).copied().filter(|v| *v >= 0).or_else(|| name.parse().ok());
        let at = args.iter().position(|k| matches!(k, ArgKind::Scalar { name: n, dim: true, .. } if n == name));
        sizes.push(match (fixed, at) {
            (Some(v), _) => Extent::Fixed(v),
            (None, Some(i)) => Extent::Arg(i),
            (None, None) => return Err(format!("the tensor map of {tensor} needs dimension {name}, which no argument gives")),
        });
    }
    Ok((ti, elem, sizes))
}
