//! Translates a SIMT-level `gpu.func` into the simulator's compact form, once per kernel.
//!
//! Every SSA value gets a register slot; memrefs are resolved statically (kernel arguments,
//! workgroup globals, private allocas); `func.call`s are inlined; structured control flow is
//! flattened into mask-stack instructions (see `program.rs`).

use crate::program::*;
use phobos_ir::{Attr, Blk, Op, SrcLoc, Ty, Val};
use std::collections::HashMap;

/// Why a kernel cannot be simulated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported {
    pub message: String,
    pub loc: Option<SrcLoc>,
}

impl std::fmt::Display for Unsupported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.loc {
            Some(l) => write!(f, "{l}: error: {}", self.message),
            None => write!(f, "error: {}", self.message),
        }
    }
}

type R<T> = Result<T, Unsupported>;

fn unsupported<'a, T>(op: Op<'a>, message: impl Into<String>) -> R<T> {
    Err(Unsupported { message: message.into(), loc: op.loc().src() })
}

/// The element type and element count of a scalar or vector type.
pub fn prim_of<'a>(t: Ty<'a>) -> Option<(Prim, u32)> {
    use phobos_ir::Scalar;
    if t.is_vector() {
        let n: i64 = t.shape().iter().map(|d| d.unwrap_or(0)).product();
        let (p, _) = prim_of(t.element())?;
        return Some((p, n as u32));
    }
    let p = match t.scalar()? {
        Scalar::Int(1) => Prim::I1,
        Scalar::Int(8) => Prim::I8,
        Scalar::Int(16) => Prim::I16,
        Scalar::Int(32) => Prim::I32,
        Scalar::Int(64) | Scalar::Index => Prim::I64,
        Scalar::F16 => Prim::F16,
        Scalar::BF16 => Prim::BF16,
        Scalar::F32 => Prim::F32,
        Scalar::F64 => Prim::F64,
        Scalar::Int(_) => return None,
    };
    Some((p, 1))
}

/// The bits of a float `v` as type `p`.
pub fn float_bits(v: f64, p: Prim) -> u64 {
    match p {
        Prim::F16 => half::f16::from_f64(v).to_bits() as u64,
        Prim::BF16 => half::bf16::from_f64(v).to_bits() as u64,
        Prim::F32 => (v as f32).to_bits() as u64,
        _ => v.to_bits(),
    }
}

struct Tr<'a> {
    module: Op<'a>,
    slots: HashMap<Val<'a>, Slot>,
    memref_of: HashMap<Val<'a>, usize>,
    next: u32,
    insts: Vec<Inst>,
    memrefs: Vec<MemRef>,
    locs: Vec<(String, Option<SrcLoc>)>,
    shared: HashMap<String, (u32, u32)>,
    shared_bytes: u32,
    private_bytes: u32,
    /// External zero-length workgroup globals: the dynamic shared memory's base.
    dynamic: Vec<String>,
    inline_stack: Vec<String>,
    /// Where `func.return` puts its values while inlining.
    ret_slots: Vec<Vec<Slot>>,
}

/// Translates kernel `name` of `module` (a `gpu.module`).
pub fn translate<'a>(module: Op<'a>, name: &str) -> R<Kernel> {
    let body = module.region(0).first_block().expect("gpu.module has a body");
    let Some(func) = body.ops().find(|o| o.is("gpu.func") && o.str_attr("sym_name").as_deref() == Some(name)) else {
        let names: Vec<String> = body.ops().filter(|o| o.is("gpu.func")).filter_map(|o| o.str_attr("sym_name")).collect();
        return Err(Unsupported { message: format!("no kernel named '{name}' (the module has: {})", names.join(", ")), loc: None });
    };
    let mut t = Tr {
        module,
        slots: HashMap::new(),
        memref_of: HashMap::new(),
        next: 0,
        insts: Vec::new(),
        memrefs: Vec::new(),
        locs: Vec::new(),
        shared: HashMap::new(),
        shared_bytes: 0,
        private_bytes: 0,
        dynamic: Vec::new(),
        inline_stack: Vec::new(),
        ret_slots: Vec::new(),
    };
    t.layout_shared(body)?;
    // Arguments.
    let entry = func.region(0).first_block().expect("a kernel has a body");
    let arg_attrs = func.attr("arg_attrs").and_then(|a| a.array()).unwrap_or_default();
    let mut args = Vec::new();
    let mut arg_slots = Vec::new();
    for (i, a) in entry.args().into_iter().enumerate() {
        let dict = arg_attrs.get(i).copied();
        let named = |key: &str| dict.and_then(|d| d.dict_get(key)).and_then(|a| a.str());
        let ty = a.ty();
        if ty.is_memref() {
            let (elem, _) = prim_of(ty.element())
                .ok_or_else(|| Unsupported { message: format!("argument {i} has element type {}", ty.element()), loc: func.loc().src() })?;
            let name = named("phobos.tensor").unwrap_or_else(|| format!("arg{i}"));
            let dims = dict
                .and_then(|d| d.dict_get("phobos.dims"))
                .and_then(|a| a.array())
                .map(|v| v.into_iter().filter_map(|x| x.str()).collect())
                .unwrap_or_default();
            let strides = strides_of(ty);
            t.memrefs.push(MemRef { src: MemSrc::Arg(i), elem, strides, name: name.clone() });
            t.memref_of.insert(a, t.memrefs.len() - 1);
            args.push(ArgKind::Buffer { name, elem, dims });
            arg_slots.push(None);
        } else {
            let (p, _) =
                prim_of(ty).ok_or_else(|| Unsupported { message: format!("argument {i} has type {ty}"), loc: func.loc().src() })?;
            let name = named("phobos.dim").unwrap_or_else(|| format!("arg{i}"));
            let s = t.slot(a)?;
            args.push(ArgKind::Scalar { name, ty: p });
            arg_slots.push(Some((s, p)));
        }
    }
    // The dynamic shared memory starts after the static globals, 16-byte aligned.
    t.shared_bytes = t.shared_bytes.div_ceil(16) * 16;
    t.block(entry)?;
    let dynamic_shared = func.int_attr("phobos.dynamic_shared_bytes").unwrap_or(0) as u32;
    let block = func
        .attr("known_block_size")
        .and_then(|a| a.dense_ints())
        .filter(|v| v.len() == 3)
        .map(|v| [v[0] as u32, v[1] as u32, v[2] as u32]);
    Ok(Kernel {
        name: name.to_string(),
        insts: t.insts,
        regs: t.next,
        memrefs: t.memrefs,
        shared_bytes: t.shared_bytes,
        private_bytes: t.private_bytes,
        args,
        locs: t.locs,
        arg_slots,
        block,
        dynamic_shared,
    })
}

/// Row-major strides of a memref with the identity layout.
fn strides_of<'a>(ty: Ty<'a>) -> Vec<u64> {
    let shape = ty.shape();
    let mut s = vec![1u64; shape.len()];
    for d in (0..shape.len().saturating_sub(1)).rev() {
        s[d] = s[d + 1].saturating_mul(shape[d + 1].unwrap_or(1).max(0) as u64);
    }
    s
}

impl<'a> Tr<'a> {
    fn loc(&mut self, op: Op<'a>) -> u32 {
        self.locs.push((op.name(), op.loc().src()));
        (self.locs.len() - 1) as u32
    }

    fn new_slot(&mut self, len: u32) -> Slot {
        let s = Slot { off: self.next, len };
        self.next += len.max(1);
        s
    }

    /// The slot of `v`, allocated on first use.
    fn slot(&mut self, v: Val<'a>) -> R<Slot> {
        if let Some(s) = self.slots.get(&v) {
            return Ok(*s);
        }
        let ty = v.ty();
        let Some((_, n)) = prim_of(ty) else {
            let at = v.def().map(|o| o.loc().src()).unwrap_or(None);
            return Err(Unsupported { message: format!("the simulator does not hold values of type {ty}"), loc: at });
        };
        let s = self.new_slot(n);
        self.slots.insert(v, s);
        Ok(s)
    }

    fn use_(&mut self, v: Val<'a>) -> R<Slot> {
        self.slot(v)
    }

    fn layout_shared(&mut self, body: Blk<'a>) -> R<()> {
        for g in body.ops().filter(|o| o.is("memref.global")) {
            let Some(ty) = g.attr("type").and_then(|a| a.type_value()) else { continue };
            if ty.memory_space() != 3 {
                continue;
            }
            let (elem, _) = prim_of(ty.element())
                .ok_or_else(|| Unsupported { message: format!("shared global of {}", ty.element()), loc: g.loc().src() })?;
            let n: i64 = ty.shape().iter().map(|d| d.unwrap_or(0)).product();
            if n == 0 && g.attr("initial_value").is_none() {
                // `memref.global @g : memref<0xi8, 3>` with no initializer: the dynamic part.
                self.dynamic.push(g.str_attr("sym_name").unwrap_or_default());
                continue;
            }
            let bytes = (n.max(0) as u32) * elem.bytes() as u32;
            let align = g.int_attr("alignment").unwrap_or(16).max(1) as u32;
            let off = self.shared_bytes.div_ceil(align) * align;
            self.shared_bytes = off + bytes;
            let name = g.str_attr("sym_name").unwrap_or_default();
            self.shared.insert(name, (off, bytes));
        }
        Ok(())
    }

    fn block(&mut self, b: Blk<'a>) -> R<()> {
        for op in b.ops() {
            self.op(op)?;
        }
        Ok(())
    }

    fn memref(&self, op: Op<'a>, v: Val<'a>) -> R<usize> {
        match self.memref_of.get(&v) {
            Some(i) => Ok(*i),
            None => unsupported(
                op,
                format!("the simulator cannot tell which memory `{}` reads (a memref made by an unsupported op)", op.name()),
            ),
        }
    }

    fn operands(&mut self, op: Op<'a>) -> R<Vec<Slot>> {
        op.operands().into_iter().map(|v| self.use_(v)).collect()
    }

    fn result(&mut self, op: Op<'a>, i: usize) -> R<Slot> {
        self.slot(op.result(i))
    }

    fn res_prim(&self, op: Op<'a>, i: usize) -> R<Prim> {
        match prim_of(op.result(i).ty()) {
            Some((p, _)) => Ok(p),
            None => unsupported(op, format!("unsupported result type {}", op.result(i).ty())),
        }
    }

    fn opd_prim(&self, op: Op<'a>, i: usize) -> R<Prim> {
        match prim_of(op.operand(i).ty()) {
            Some((p, _)) => Ok(p),
            None => unsupported(op, format!("unsupported operand type {}", op.operand(i).ty())),
        }
    }

    fn constant(&mut self, op: Op<'a>) -> R<()> {
        let (p, n) = prim_of(op.result(0).ty())
            .ok_or_else(|| Unsupported { message: "constant of an unsupported type".into(), loc: op.loc().src() })?;
        let a = op.attr("value").ok_or_else(|| Unsupported { message: "constant without a value".into(), loc: op.loc().src() })?;
        let scalar_bits = |a: Attr<'a>| -> Option<u64> {
            if let Some(i) = a.int() {
                Some((i as u64) & p.mask())
            } else if let Some(b) = a.bool() {
                Some(b as u64)
            } else {
                a.float().map(|f| float_bits(f, p))
            }
        };
        let vals = if let Some(v) = scalar_bits(a) {
            vec![v; n as usize]
        } else if let Some(elems) = a.dense_elements() {
            let mut out = Vec::with_capacity(elems.len());
            for e in elems {
                out.push(scalar_bits(e).ok_or_else(|| Unsupported { message: format!("constant element {e}"), loc: op.loc().src() })?);
            }
            out
        } else {
            return unsupported(op, format!("constant {a}"));
        };
        let dst = self.result(op, 0)?;
        self.insts.push(Inst::Const { dst, vals });
        Ok(())
    }

    fn dim(op: Op<'a>) -> u8 {
        let d = op.attr("dimension").map(|a| a.to_string()).unwrap_or_default();
        if d.contains('y') {
            1
        } else if d.contains('z') {
            2
        } else {
            0
        }
    }

    fn op(&mut self, op: Op<'a>) -> R<()> {
        let name = op.name();
        let bin = |n: &str| -> Option<BinOp> {
            Some(match n {
                "arith.addi" => BinOp::Add,
                "arith.subi" => BinOp::Sub,
                "arith.muli" => BinOp::Mul,
                "arith.divsi" => BinOp::DivS,
                "arith.divui" => BinOp::DivU,
                "arith.remsi" => BinOp::RemS,
                "arith.remui" => BinOp::RemU,
                "arith.andi" => BinOp::And,
                "arith.ori" => BinOp::Or,
                "arith.xori" => BinOp::Xor,
                "arith.shli" => BinOp::Shl,
                "arith.shrsi" => BinOp::ShrS,
                "arith.shrui" => BinOp::ShrU,
                "arith.maxsi" => BinOp::MaxS,
                "arith.minsi" => BinOp::MinS,
                "arith.maxui" => BinOp::MaxU,
                "arith.minui" => BinOp::MinU,
                "arith.addf" => BinOp::FAdd,
                "arith.subf" => BinOp::FSub,
                "arith.mulf" => BinOp::FMul,
                "arith.divf" => BinOp::FDiv,
                "arith.remf" => BinOp::FRem,
                "arith.maximumf" => BinOp::FMax,
                "arith.minimumf" => BinOp::FMin,
                "arith.maxnumf" => BinOp::FMaxNum,
                "arith.minnumf" => BinOp::FMinNum,
                _ => return None,
            })
        };
        if let Some(b) = bin(&name) {
            let ty = self.res_prim(op, 0)?;
            let s = self.operands(op)?;
            let dst = self.result(op, 0)?;
            let loc = self.loc(op);
            self.insts.push(Inst::Bin { op: b, ty, dst, a: s[0], b: s[1], loc });
            return Ok(());
        }
        let cast = |n: &str| -> Option<CastOp> {
            Some(match n {
                "arith.extsi" => CastOp::ExtS,
                "arith.extui" => CastOp::ExtU,
                "arith.trunci" => CastOp::Trunc,
                "arith.sitofp" => CastOp::SiToFp,
                "arith.uitofp" => CastOp::UiToFp,
                "arith.fptosi" => CastOp::FpToSi,
                "arith.fptoui" => CastOp::FpToUi,
                "arith.extf" => CastOp::ExtF,
                "arith.truncf" => CastOp::TruncF,
                "arith.bitcast" => CastOp::Bitcast,
                "arith.index_cast" => CastOp::ExtS,
                "arith.index_castui" => CastOp::ExtU,
                _ => return None,
            })
        };
        if let Some(mut c) = cast(&name) {
            let from = self.opd_prim(op, 0)?;
            let to = self.res_prim(op, 0)?;
            if name.starts_with("arith.index_cast") && from.bits() > to.bits() {
                c = CastOp::Trunc;
            }
            let a = self.use_(op.operand(0))?;
            let dst = self.result(op, 0)?;
            self.insts.push(Inst::Cast { op: c, from, to, dst, a });
            return Ok(());
        }
        match name.as_str() {
            "math.fma" => {
                let ty = self.res_prim(op, 0)?;
                let s = self.operands(op)?;
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::Fma { ty, dst, a: s[0], b: s[1], c: s[2] });
            }
            "arith.constant" => self.constant(op)?,
            "arith.cmpi" | "arith.cmpf" => {
                let p = op.int_attr("predicate").unwrap_or(0);
                let pred = if name == "arith.cmpi" {
                    [Pred::Eq, Pred::Ne, Pred::Slt, Pred::Sle, Pred::Sgt, Pred::Sge, Pred::Ult, Pred::Ule, Pred::Ugt, Pred::Uge]
                        [p as usize % 10]
                } else {
                    let rel = |r| Pred::F { unordered: false, rel: r };
                    let urel = |r| Pred::F { unordered: true, rel: r };
                    match p {
                        0 => Pred::FFalse,
                        1 => rel(FRel::Eq),
                        2 => rel(FRel::Gt),
                        3 => rel(FRel::Ge),
                        4 => rel(FRel::Lt),
                        5 => rel(FRel::Le),
                        6 => rel(FRel::Ne),
                        7 => Pred::FOrd,
                        8 => urel(FRel::Eq),
                        9 => urel(FRel::Gt),
                        10 => urel(FRel::Ge),
                        11 => urel(FRel::Lt),
                        12 => urel(FRel::Le),
                        13 => urel(FRel::Ne),
                        14 => Pred::FUno,
                        _ => Pred::FTrue,
                    }
                };
                let ty = self.opd_prim(op, 0)?;
                let s = self.operands(op)?;
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::Cmp { pred, ty, dst, a: s[0], b: s[1] });
            }
            "arith.select" => {
                let s = self.operands(op)?;
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::Select { dst, c: s[0], a: s[1], b: s[2] });
            }
            "arith.negf" | "math.absf" | "llvm.intr.ctpop" | "math.ctpop" => {
                let ty = self.res_prim(op, 0)?;
                let a = self.use_(op.operand(0))?;
                let dst = self.result(op, 0)?;
                let u = match name.as_str() {
                    "arith.negf" => UnOp::FNeg,
                    "math.absf" => UnOp::AbsF,
                    _ => UnOp::CtPop,
                };
                self.insts.push(Inst::Un { op: u, ty, dst, a });
            }
            "llvm.intr.fshl" | "llvm.intr.fshr" => {
                let s = self.operands(op)?;
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::FunnelShift { dst, hi: s[0], lo: s[1], amount: s[2], left: name == "llvm.intr.fshl" });
            }
            "gpu.thread_id" | "gpu.block_id" | "gpu.block_dim" | "gpu.grid_dim" => {
                let d = Self::dim(op);
                let id = match name.as_str() {
                    "gpu.thread_id" => Id::ThreadId(d),
                    "gpu.block_id" => Id::BlockId(d),
                    "gpu.block_dim" => Id::BlockDim(d),
                    _ => Id::GridDim(d),
                };
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::Id { id, dst });
            }
            "gpu.lane_id" => {
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::Id { id: Id::LaneId, dst });
            }
            "gpu.barrier" => {
                let loc = self.loc(op);
                self.insts.push(Inst::Barrier { loc });
            }
            "cf.assert" => {
                let cond = self.slot(op.operand(0))?;
                let msg = op.str_attr("msg").unwrap_or_default();
                let bounds = op.attr("phobos.bounds").is_some();
                let loc = self.loc(op);
                self.insts.push(Inst::Assert { cond, msg, bounds, loc });
            }
            "memref.get_global" if self.dynamic.contains(&op.attr("name").and_then(|a| a.symbol()).unwrap_or_default()) => {
                // The base of the dynamic shared memory; its views give typed tiles.
                self.memrefs.push(MemRef {
                    src: MemSrc::Dynamic { offset: self.shared_bytes },
                    elem: Prim::I8,
                    strides: vec![1],
                    name: "dynamic shared memory".into(),
                });
                self.memref_of.insert(op.result(0), self.memrefs.len() - 1);
            }
            "memref.view" => {
                let base = self.memref(op, op.operand(0))?;
                let MemSrc::Dynamic { offset } = self.memrefs[base].src else {
                    return unsupported(op, "memref.view of memory other than the dynamic shared memory");
                };
                let Some(shift) = op.operand(1).const_int() else {
                    return unsupported(op, "memref.view at a byte offset that is not a constant");
                };
                let ty = op.result(0).ty();
                if op.num_operands() > 2 || ty.shape().iter().any(|d| d.is_none()) {
                    return unsupported(op, "memref.view with dynamic sizes");
                }
                let (elem, _) =
                    prim_of(ty.element()).ok_or_else(|| Unsupported { message: "view element type".into(), loc: op.loc().src() })?;
                let n: i64 = ty.shape().iter().map(|d| d.unwrap_or(0)).product();
                let name = op.str_attr("phobos.name").map(|n| format!("tile {n}")).unwrap_or_else(|| "a tile".into());
                self.memrefs.push(MemRef {
                    src: MemSrc::Shared { offset: offset + shift as u32, bytes: (n as u32) * elem.bytes() as u32 },
                    elem,
                    strides: strides_of(ty),
                    name,
                });
                self.memref_of.insert(op.result(0), self.memrefs.len() - 1);
            }
            "memref.get_global" => {
                let g = op.attr("name").and_then(|a| a.symbol()).unwrap_or_default();
                let ty = op.result(0).ty();
                let Some((offset, bytes)) = self.shared.get(&g).copied() else {
                    return unsupported(op, format!("global @{g} is not in workgroup memory; the simulator models shared globals only"));
                };
                let (elem, _) =
                    prim_of(ty.element()).ok_or_else(|| Unsupported { message: "global element type".into(), loc: op.loc().src() })?;
                self.memrefs.push(MemRef { src: MemSrc::Shared { offset, bytes }, elem, strides: strides_of(ty), name: format!("@{g}") });
                self.memref_of.insert(op.result(0), self.memrefs.len() - 1);
            }
            "memref.alloca" => {
                let ty = op.result(0).ty();
                if ty.shape().iter().any(|d| d.is_none()) {
                    return unsupported(op, "a private allocation of dynamic size");
                }
                let (elem, _) =
                    prim_of(ty.element()).ok_or_else(|| Unsupported { message: "alloca element type".into(), loc: op.loc().src() })?;
                let n: i64 = ty.shape().iter().map(|d| d.unwrap_or(0)).product();
                let bytes = (n as u32) * elem.bytes() as u32;
                let offset = self.private_bytes.div_ceil(16) * 16;
                self.private_bytes = offset + bytes;
                self.memrefs.push(MemRef {
                    src: MemSrc::Private { offset, bytes },
                    elem,
                    strides: strides_of(ty),
                    name: "a private array".into(),
                });
                self.memref_of.insert(op.result(0), self.memrefs.len() - 1);
            }
            "memref.load" | "vector.load" => {
                let mem = self.memref(op, op.operand(0))?;
                let idx = op.operands()[1..].iter().map(|v| self.use_(*v)).collect::<R<Vec<_>>>()?;
                let dst = self.result(op, 0)?;
                let align = op.int_attr("alignment").unwrap_or(0) as u32;
                let loc = self.loc(op);
                self.insts.push(Inst::Load { dst, mem, idx, n: dst.len, align, loc });
            }
            "memref.store" | "vector.store" => {
                let src = self.use_(op.operand(0))?;
                let mem = self.memref(op, op.operand(1))?;
                let idx = op.operands()[2..].iter().map(|v| self.use_(*v)).collect::<R<Vec<_>>>()?;
                let align = op.int_attr("alignment").unwrap_or(0) as u32;
                let loc = self.loc(op);
                self.insts.push(Inst::Store { src, mem, idx, n: src.len, align, loc });
            }
            "memref.atomic_rmw" => {
                let kind_text = op.attr("kind").map(|a| a.to_string()).unwrap_or_default();
                let kind = match kind_text.trim_start_matches("#arith.atomic_rmw_kind<").trim_end_matches('>') {
                    "addi" => AtomicKind::AddI,
                    "addf" => AtomicKind::AddF,
                    "maxs" => AtomicKind::MaxS,
                    "mins" => AtomicKind::MinS,
                    "maxu" => AtomicKind::MaxU,
                    "minu" => AtomicKind::MinU,
                    "maximumf" | "maxnumf" => AtomicKind::MaxF,
                    "minimumf" | "minnumf" => AtomicKind::MinF,
                    "andi" => AtomicKind::And,
                    "ori" => AtomicKind::Or,
                    "xori" => AtomicKind::Xor,
                    "assign" => AtomicKind::Exchange,
                    k => return unsupported(op, format!("atomic kind {k}")),
                };
                let ty = self.res_prim(op, 0)?;
                let val = self.use_(op.operand(0))?;
                let mem = self.memref(op, op.operand(1))?;
                let idx = op.operands()[2..].iter().map(|v| self.use_(*v)).collect::<R<Vec<_>>>()?;
                let dst = self.result(op, 0)?;
                let loc = self.loc(op);
                self.insts.push(Inst::Atomic { kind, ty, dst, val, mem, idx, loc });
            }
            "vector.reduction" => {
                let k = op.attr("kind").map(|a| a.to_string()).unwrap_or_default();
                let kind = if k.contains("add") {
                    RedKind::Add
                } else if k.contains("mul") {
                    RedKind::Mul
                } else if k.contains("max") {
                    RedKind::Max
                } else if k.contains("min") {
                    RedKind::Min
                } else if k.contains("and") {
                    RedKind::And
                } else if k.contains("xor") {
                    RedKind::Xor
                } else if k.contains("or") {
                    RedKind::Or
                } else {
                    return unsupported(op, format!("reduction kind {k}"));
                };
                let ty = self.res_prim(op, 0)?;
                let src = self.use_(op.operand(0))?;
                let acc = if op.num_operands() > 1 { Some(self.use_(op.operand(1))?) } else { None };
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::Reduce { kind, ty, dst, src, acc });
            }
            "vector.from_elements" => {
                let srcs = self.operands(op)?;
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::FromElements { dst, srcs });
            }
            "vector.broadcast" | "vector.splat" => {
                let src = self.use_(op.operand(0))?;
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::Broadcast { dst, src });
            }
            "vector.extract" => {
                let pos = op.attr("static_position").and_then(|a| a.dense_ints()).unwrap_or_default();
                if pos.len() != 1 || pos[0] < 0 || op.num_operands() != 1 {
                    return unsupported(op, "vector.extract with a dynamic or multi-dimensional position");
                }
                let src = self.use_(op.operand(0))?;
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::Extract { dst, src, pos: pos[0] as u32 });
            }
            "vector.insert" => {
                let pos = op.attr("static_position").and_then(|a| a.dense_ints()).unwrap_or_default();
                if pos.len() != 1 || pos[0] < 0 || op.num_operands() != 2 {
                    return unsupported(op, "vector.insert with a dynamic or multi-dimensional position");
                }
                let val = self.use_(op.operand(0))?;
                let vec = self.use_(op.operand(1))?;
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::Insert { dst, vec, val, pos: pos[0] as u32 });
            }
            "vector.extract_strided_slice" => {
                let off = op.attr("offsets").and_then(|a| a.array()).and_then(|v| v.first().and_then(|x| x.int())).unwrap_or(0);
                let src = self.use_(op.operand(0))?;
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::ExtractSlice { dst, src, offset: off as u32 });
            }
            "vector.bitcast" | "llvm.bitcast" => {
                let from = self.opd_prim(op, 0)?;
                let to = self.res_prim(op, 0)?;
                let src = self.use_(op.operand(0))?;
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::VBitcast { dst, src, from, to });
            }
            "gpu.shuffle" => {
                let m = op.attr("mode").map(|a| a.to_string()).unwrap_or_default();
                let kind = if m.contains("xor") {
                    ShflKind::Bfly
                } else if m.contains("down") {
                    ShflKind::Down
                } else if m.contains("up") {
                    ShflKind::Up
                } else {
                    ShflKind::Idx
                };
                let bits = self.opd_prim(op, 0)?.bits();
                let s = self.operands(op)?;
                let dst = self.result(op, 0)?;
                let valid = self.result(op, 1)?;
                let loc = self.loc(op);
                self.insts.push(Inst::GpuShfl { kind, dst, valid, v: s[0], b: s[1], width: s[2], bits, loc });
            }
            "nvvm.shfl.sync" => {
                let k = op.attr("kind").map(|a| a.to_string()).unwrap_or_default();
                let kind = if k.contains("bfly") {
                    ShflKind::Bfly
                } else if k.contains("down") {
                    ShflKind::Down
                } else if k.contains("up") {
                    ShflKind::Up
                } else {
                    ShflKind::Idx
                };
                if op.attr("return_value_and_is_valid").is_some() {
                    return unsupported(op, "nvvm.shfl.sync returning a struct");
                }
                let bits = self.opd_prim(op, 1)?.bits();
                let s = self.operands(op)?;
                let dst = self.result(op, 0)?;
                let loc = self.loc(op);
                self.insts.push(Inst::Shfl { kind, dst, valid: None, v: s[1], b: s[2], c: s[3], mask: s[0], bits, loc });
            }
            "nvvm.dot.accumulate.4way" => {
                let signed = |key: &str| {
                    op.attr(key).map(|a| a.to_string().contains("signed") && !a.to_string().contains("unsigned")).unwrap_or(true)
                };
                let s = self.operands(op)?;
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::Dp4a { dst, a: s[0], b: s[1], c: s[2], a_signed: signed("a_type"), b_signed: signed("b_type") });
            }
            "nvvm.prmt" => {
                let m = op.attr("mode").map(|a| a.to_string()).unwrap_or_default();
                if !m.contains("default") {
                    return unsupported(op, format!("prmt mode {m}"));
                }
                let s = self.operands(op)?;
                let dst = self.result(op, 0)?;
                self.insts.push(Inst::Prmt { dst, a: s[0], b: s[1], sel: s[2] });
            }
            "nvvm.vote.sync" => {
                let k = op.attr("kind").map(|a| a.to_string()).unwrap_or_default();
                let kind = if k.contains("ballot") {
                    0
                } else if k.contains("any") {
                    1
                } else if k.contains("all") {
                    2
                } else {
                    3
                };
                let s = self.operands(op)?;
                let dst = self.result(op, 0)?;
                let loc = self.loc(op);
                self.insts.push(Inst::Vote { kind, dst, mask: s[0], pred: s[1], loc });
            }
            "scf.if" => self.scf_if(op)?,
            "scf.for" => self.scf_for(op)?,
            "scf.while" => self.scf_while(op)?,
            "scf.yield" | "scf.condition" => {} // handled by their parent
            "func.call" => self.call(op)?,
            "func.return" => {
                let vals = self.operands(op)?;
                let dsts = self.ret_slots.last().cloned().unwrap_or_default();
                self.insts.push(Inst::Move { pairs: dsts.into_iter().zip(vals).collect() });
            }
            "gpu.return" => self.insts.push(Inst::Return),
            other => return unsupported(op, format!("the simulator does not support `{other}`")),
        }
        Ok(())
    }

    /// Pairs (destination, yielded value) for the terminator of `blk`.
    fn yields(&mut self, blk: Blk<'a>, dsts: &[Slot]) -> R<Vec<(Slot, Slot)>> {
        let Some(t) = blk.terminator() else { return Ok(vec![]) };
        let vals = self.operands(t)?;
        Ok(dsts.iter().copied().zip(vals).collect())
    }

    fn scf_if(&mut self, op: Op<'a>) -> R<()> {
        let cond = self.use_(op.operand(0))?;
        let results: Vec<Slot> = (0..op.num_results()).map(|i| self.result(op, i)).collect::<R<_>>()?;
        let begin = self.insts.len();
        self.insts.push(Inst::IfBegin { cond, else_pc: 0 });
        if let Some(b) = op.region(0).first_block() {
            self.block(b)?;
            let pairs = self.yields(b, &results)?;
            if !pairs.is_empty() {
                self.insts.push(Inst::Move { pairs });
            }
        }
        let else_at = self.insts.len();
        self.insts.push(Inst::Else { end_pc: 0 });
        if let Some(b) = op.region(1).first_block() {
            self.block(b)?;
            let pairs = self.yields(b, &results)?;
            if !pairs.is_empty() {
                self.insts.push(Inst::Move { pairs });
            }
        }
        let end = self.insts.len();
        self.insts.push(Inst::IfEnd);
        self.insts[begin] = Inst::IfBegin { cond, else_pc: (else_at + 1) as u32 };
        self.insts[else_at] = Inst::Else { end_pc: end as u32 };
        Ok(())
    }

    fn scf_for(&mut self, op: Op<'a>) -> R<()> {
        let s = self.operands(op)?;
        let (lb, ub, step) = (s[0], s[1], s[2]);
        let ty = self.opd_prim(op, 0)?;
        let body = op.region(0).first_block().expect("scf.for has a body");
        let iv = self.slot(body.arg(0))?;
        let iter_args: Vec<Slot> = (1..body.num_args()).map(|i| self.slot(body.arg(i))).collect::<R<_>>()?;
        let results: Vec<Slot> = (0..op.num_results()).map(|i| self.result(op, i)).collect::<R<_>>()?;
        self.insts.push(Inst::ForInit { iv, lb, iters: iter_args.iter().copied().zip(s[3..].iter().copied()).collect() });
        let head = self.insts.len();
        self.insts.push(Inst::ForHead { iv, ub, ty, exit_pc: 0 });
        self.block(body)?;
        let pairs = self.yields(body, &iter_args)?;
        let loc = self.loc(op);
        self.insts.push(Inst::ForLatch { iv, step, ty, head_pc: head as u32, iters: pairs, loc });
        let exit = self.insts.len();
        self.insts.push(Inst::ForEnd { results: results.into_iter().zip(iter_args).collect() });
        self.insts[head] = Inst::ForHead { iv, ub, ty, exit_pc: exit as u32 };
        Ok(())
    }

    fn scf_while(&mut self, op: Op<'a>) -> R<()> {
        let inits = self.operands(op)?;
        let before = op.region(0).first_block().expect("before region");
        let after = op.region(1).first_block().expect("after region");
        let bargs: Vec<Slot> = before.args().into_iter().map(|a| self.slot(a)).collect::<R<_>>()?;
        let aargs: Vec<Slot> = after.args().into_iter().map(|a| self.slot(a)).collect::<R<_>>()?;
        let results: Vec<Slot> = (0..op.num_results()).map(|i| self.result(op, i)).collect::<R<_>>()?;
        self.insts.push(Inst::WhileInit { args: bargs.iter().copied().zip(inits).collect() });
        let head = self.insts.len();
        self.block(before)?;
        let cond_op = before.terminator().expect("scf.condition");
        let cvals = self.operands(cond_op)?;
        let cond = cvals[0];
        let at = self.insts.len();
        self.insts.push(Inst::WhileCond { cond, exit_pc: 0, results: vec![], after: vec![] });
        self.block(after)?;
        let pairs = self.yields(after, &bargs)?;
        let loc = self.loc(op);
        self.insts.push(Inst::WhileLatch { head_pc: head as u32, args: pairs, loc });
        let exit = self.insts.len();
        self.insts.push(Inst::WhileEnd);
        self.insts[at] = Inst::WhileCond {
            cond,
            exit_pc: exit as u32,
            results: results.into_iter().zip(cvals[1..].iter().copied()).collect(),
            after: aargs.into_iter().zip(cvals[1..].iter().copied()).collect(),
        };
        Ok(())
    }

    /// Inlines the callee's body: its arguments are bound to the call's operand slots, and its
    /// `func.return` moves into the call's result slots.
    fn call(&mut self, op: Op<'a>) -> R<()> {
        let callee = op.attr("callee").and_then(|a| a.symbol()).unwrap_or_default();
        if self.inline_stack.contains(&callee) {
            return unsupported(op, format!("recursive call to @{callee}"));
        }
        let body = self.module.region(0).first_block().expect("gpu.module body");
        let Some(f) = body.ops().find(|o| o.is("func.func") && o.str_attr("sym_name").as_deref() == Some(callee.as_str())) else {
            return unsupported(op, format!("call to @{callee}, which is not a func.func of the gpu.module"));
        };
        let blocks = f.region(0).blocks();
        if blocks.len() != 1 {
            return unsupported(op, format!("@{callee} has {} blocks; the simulator inlines single-block functions", blocks.len()));
        }
        let args = self.operands(op)?;
        let params = blocks[0].args();
        // Parameters get their own slots (a callee inlined twice must not share them).
        let mut pairs = Vec::new();
        for (p, a) in params.iter().zip(args) {
            self.slots.remove(p);
            let ps = self.slot(*p)?;
            pairs.push((ps, a));
        }
        self.insts.push(Inst::Move { pairs });
        for inner in f.walk().into_iter().skip(1) {
            for r in inner.results() {
                self.slots.remove(&r);
            }
            for ri in 0..inner.num_regions() {
                for b in inner.region(ri).blocks() {
                    for a in b.args() {
                        self.slots.remove(&a);
                    }
                }
            }
        }
        let results: Vec<Slot> = (0..op.num_results()).map(|i| self.result(op, i)).collect::<R<_>>()?;
        self.ret_slots.push(results);
        self.inline_stack.push(callee);
        let r = self.block(blocks[0]);
        self.inline_stack.pop();
        self.ret_slots.pop();
        r
    }
}
