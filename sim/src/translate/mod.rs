//! Translates a SIMT-level `gpu.func` into the simulator's compact form, once per kernel.
//!
//! Every SSA value gets a register slot; memrefs are resolved statically (kernel arguments,
//! workgroup globals, private allocas); `func.call`s are inlined; structured control flow is
//! flattened into mask-stack instructions (see `program.rs`).

mod arith;
mod control;
mod gpu;
mod memref;
mod nvvm;
mod vector;

use crate::program::*;
use phobos_ir::{Attr, Blk, Op, SrcLoc, Ty, Val};
use std::collections::HashMap;

/// Why a kernel cannot be simulated.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
    // A pointer is its address: a byte offset into shared memory (`nvvm.ldmatrix` reads there).
    if t.is_llvm_pointer() {
        return Some((Prim::I64, 1));
    }
    // A struct of one element type (an mma's fragments): its fields' elements, in order.
    if let Some(fields) = t.struct_fields() {
        let parts: Vec<(Prim, u32)> = fields.into_iter().map(prim_of).collect::<Option<_>>()?;
        let p = parts.first()?.0;
        return parts.iter().all(|(q, _)| *q == p).then(|| (p, parts.iter().map(|(_, n)| n).sum()));
    }
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
    /// The statement sites of the ops (`Loc::site`), each once.
    sites: Vec<Option<SrcLoc>>,
    site_index: HashMap<Option<SrcLoc>, u32>,
    /// The site of each instruction so far (index into `sites`).
    inst_sites: Vec<u32>,
    /// The sites of the ops being translated, innermost last: an instruction belongs to the
    /// innermost op that was being translated when it was pushed.
    op_stack: Vec<u32>,
    shared: HashMap<String, (u32, u32)>,
    shared_bytes: u32,
    private_bytes: u32,
    /// External zero-length workgroup globals: the dynamic shared memory's base.
    dynamic: Vec<String>,
    /// The largest alignment they declare (`wgmma`'s swizzled tiles ask 1024 bytes).
    dynamic_align: u32,
    /// Bytes of dynamic shared memory the kernel declares (`phobos.dynamic_shared_bytes`): what
    /// its views may reach.
    dynamic_bytes: u32,
    inline_stack: Vec<String>,
    /// Where `func.return` puts its values while inlining.
    ret_slots: Vec<Vec<Slot>>,
}

/// What a launch of a kernel needs to know without its body: its arguments, block and dynamic
/// shared memory (the runtime checks launches with it, on every device).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    pub args: Vec<ArgKind>,
    pub block: Option<[u32; 3]>,
    pub dynamic_shared: u32,
}

/// The `gpu.func` named `name` in `module` (a `gpu.module`).
fn kernel_func<'a>(module: Op<'a>, name: &str) -> R<Op<'a>> {
    let body = module.region(0).first_block().expect("gpu.module has a body");
    let found = body.ops().find(|o| o.is("gpu.func") && o.str_attr("sym_name").as_deref() == Some(name));
    found.ok_or_else(|| {
        let names: Vec<String> = body.ops().filter(|o| o.is("gpu.func")).filter_map(|o| o.str_attr("sym_name")).collect();
        Unsupported { message: format!("no kernel named '{name}' (the module has: {})", names.join(", ")), loc: None }
    })
}

/// The signature of kernel `name` of `module` (a `gpu.module`), from its arguments and
/// attributes alone.
pub fn signature<'a>(module: Op<'a>, name: &str) -> R<Signature> {
    let func = kernel_func(module, name)?;
    let entry = func.region(0).first_block().expect("a kernel has a body");
    let arg_attrs = func.attr("arg_attrs").and_then(|a| a.array()).unwrap_or_default();
    let mut args = Vec::new();
    for (i, a) in entry.args().into_iter().enumerate() {
        let dict = arg_attrs.get(i).copied();
        let named = |key: &str| dict.and_then(|d| d.dict_get(key)).and_then(|a| a.str());
        let ty = a.ty();
        if ty.is_memref() {
            let (elem, _) = prim_of(ty.element())
                .ok_or_else(|| Unsupported { message: format!("argument {i} has element type {}", ty.element()), loc: func.loc().src() })?;
            let dims = dict
                .and_then(|d| d.dict_get("phobos.dims"))
                .and_then(|a| a.array())
                .map(|v| v.into_iter().filter_map(|x| x.str()).collect())
                .unwrap_or_default();
            let align = dict.and_then(|d| d.dict_get("llvm.align")).and_then(|a| a.int()).map_or(elem.bytes() as u32, |a| a as u32);
            args.push(ArgKind::Buffer { name: named("phobos.tensor").unwrap_or_else(|| format!("arg{i}")), elem, dims, align });
        } else if let Some(tensor) = named("phobos.tensor_map") {
            let ints = |key: &str| dict.and_then(|d| d.dict_get(key)).and_then(|a| a.dense_ints()).unwrap_or_default();
            // An integer span; anything else (a string, a float) is no swizzle TMA has.
            let swizzle = dict.and_then(|d| d.dict_get("phobos.swizzle")).map_or(Some(0), |a| a.int());
            let (r#box, dims) = (ints("phobos.box"), ints("phobos.global_dims"));
            // TMA's limits: rank 1 to 5, boxes of 1 to 256, the swizzle a span it has.
            if !(1..=5).contains(&r#box.len())
                || r#box.iter().any(|b| !(1..=256).contains(b))
                || dims.len() != r#box.len()
                || dims.iter().any(|d| *d < -1 || *d > i32::MAX as i64)
                || !swizzle.is_some_and(|s| [0, 32, 64, 128].contains(&s))
                || prim_of(ty) != Some((Prim::I64, 1))
            {
                let message = format!(
                    "argument {i}: a tensor map is an i64 with phobos.box of 1 to 5 extents from 1 to 256, phobos.global_dims of as many sizes (-1: the launch's), phobos.swizzle 0, 32, 64 or 128; got {ty}, box {:?}, sizes {dims:?}, swizzle {}",
                    r#box,
                    dict.and_then(|d| d.dict_get("phobos.swizzle")).map_or("none".to_string(), |a| a.to_string())
                );
                return Err(Unsupported { message, loc: func.loc().src() });
            }
            args.push(ArgKind::TensorMap { tensor, r#box, swizzle: swizzle.unwrap_or(0) as u32, dims });
        } else {
            let (p, _) =
                prim_of(ty).ok_or_else(|| Unsupported { message: format!("argument {i} has type {ty}"), loc: func.loc().src() })?;
            // `phobos.scalar` names a value the caller gives (`eps: f32`); anything else is a
            // dimension, bound from the tensors' shapes or `-D`.
            // A strided twin's `phobos.stride` is bound from its tensor's view, as a dimension is.
            let stride = named("phobos.stride")
                .map(|t| crate::stride_key(&t, dict.and_then(|d| d.dict_get("phobos.stride_dim")).and_then(|a| a.int()).unwrap_or(0)));
            let (name, dim) = match (named("phobos.scalar"), stride) {
                (Some(n), _) => (n, false),
                (None, Some(key)) => (key, true),
                (None, None) => (named("phobos.dim").unwrap_or_else(|| format!("arg{i}")), true),
            };
            args.push(ArgKind::Scalar { name, ty: p, dim });
        }
    }
    check_tensor_maps(&args).map_err(|message| Unsupported { message, loc: func.loc().src() })?;
    let block = func
        .attr("known_block_size")
        .and_then(|a| a.dense_ints())
        .filter(|v| v.len() == 3)
        .map(|v| [v[0] as u32, v[1] as u32, v[2] as u32]);
    let dynamic_shared = func.int_attr("phobos.dynamic_shared_bytes").unwrap_or(0) as u32;
    Ok(Signature { args, block, dynamic_shared })
}

/// Tensor maps come after every other argument and describe a tensor of the kernel as TMA can
/// copy it: as many dimensions as the box, rows of a multiple of 16 bytes, under a swizzle
/// exactly one row of its span.
fn check_tensor_maps(args: &[ArgKind]) -> Result<(), String> {
    let first = args.iter().position(|a| !a.given()).unwrap_or(args.len());
    if let Some(late) = args[first..].iter().position(|a| a.given()) {
        return Err(format!("argument {}: tensor maps (argument {first}) come after every other argument", first + late));
    }
    for (i, a) in args.iter().enumerate() {
        let ArgKind::TensorMap { r#box, swizzle, .. } = a else { continue };
        let (_, elem, _) = crate::program::tensor_map_target(args, i).map_err(|e| format!("argument {i}: {e}"))?;
        let row = r#box[r#box.len() - 1] as usize * elem.bytes();
        if !row.is_multiple_of(16) || (*swizzle > 0 && row != *swizzle as usize) {
            return Err(format!(
                "argument {i}: the box's rows are {row} bytes: TMA copies rows of a multiple of 16 bytes, and under a swizzle rows of exactly its span ({swizzle} bytes)"
            ));
        }
    }
    Ok(())
}

/// Translates kernel `name` of `module` (a `gpu.module`).
pub fn translate<'a>(module: Op<'a>, name: &str) -> R<Kernel> {
    let Signature { args, block, dynamic_shared } = signature(module, name)?;
    let func = kernel_func(module, name)?;
    let body = module.region(0).first_block().expect("gpu.module has a body");
    let mut t = Tr {
        module,
        slots: HashMap::new(),
        memref_of: HashMap::new(),
        next: 0,
        insts: Vec::new(),
        memrefs: Vec::new(),
        locs: Vec::new(),
        sites: Vec::new(),
        site_index: HashMap::new(),
        inst_sites: Vec::new(),
        op_stack: Vec::new(),
        shared: HashMap::new(),
        shared_bytes: 0,
        private_bytes: 0,
        dynamic: Vec::new(),
        dynamic_align: 16,
        dynamic_bytes: dynamic_shared,
        inline_stack: Vec::new(),
        ret_slots: Vec::new(),
    };
    t.layout_shared(body)?;
    // Arguments: a buffer is a memref of the launch's; a scalar a slot the launch fills.
    let entry = func.region(0).first_block().expect("a kernel has a body");
    let mut arg_slots = Vec::new();
    for (i, (a, kind)) in entry.args().into_iter().zip(&args).enumerate() {
        match kind {
            ArgKind::Buffer { name, elem, .. } => {
                t.memrefs.push(MemRef { src: MemSrc::Arg(i), elem: *elem, strides: strides_of(a.ty()), name: name.clone(), shift: None });
                t.memref_of.insert(a, t.memrefs.len() - 1);
                arg_slots.push(None);
            }
            ArgKind::Scalar { ty, .. } => arg_slots.push(Some((t.slot(a)?, *ty))),
            ArgKind::TensorMap { .. } => arg_slots.push(Some((t.slot(a)?, Prim::I64))),
        }
    }
    // The dynamic shared memory starts after the static globals, aligned as declared (16
    // bytes at least), as ptxas places an `.extern .shared .align N` array.
    t.shared_bytes = t.shared_bytes.div_ceil(t.dynamic_align) * t.dynamic_align;
    t.block(entry)?;
    t.attribute_insts(u32::MAX);
    Ok(Kernel {
        name: name.to_string(),
        insts: t.insts,
        regs: t.next,
        memrefs: t.memrefs,
        shared_bytes: t.shared_bytes,
        private_bytes: t.private_bytes,
        args,
        locs: t.locs,
        sites: t.sites,
        inst_sites: t.inst_sites,
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
                let align = g.int_attr("alignment").unwrap_or(16);
                if !(1..=1 << 16).contains(&align) || align & (align - 1) != 0 {
                    return unsupported(
                        g,
                        format!(
                            "the simulator does not support dynamic shared memory aligned to {align} bytes (a power of two up to 65536)"
                        ),
                    );
                }
                self.dynamic_align = self.dynamic_align.max(align as u32);
                continue;
            }
            let align = g.int_attr("alignment").unwrap_or(16);
            if !(1..=1 << 16).contains(&align) || align & (align - 1) != 0 {
                return unsupported(
                    g,
                    format!("the simulator does not support a workgroup global aligned to {align} bytes (a power of two up to 65536)"),
                );
            }
            let bytes = (n.max(0) as u64).saturating_mul(elem.bytes() as u64);
            let off = (self.shared_bytes as u64).div_ceil(align as u64) * align as u64;
            if off + bytes > u32::MAX as u64 {
                return unsupported(g, format!("the simulator does not support workgroup globals of more than {} bytes", u32::MAX));
            }
            let (off, bytes) = (off as u32, bytes as u32);
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

    /// Instructions pushed since the last call belong to site `site`.
    fn attribute_insts(&mut self, site: u32) {
        let n = self.insts.len();
        self.inst_sites.resize(n, site);
    }

    fn op(&mut self, op: Op<'a>) -> R<()> {
        let parent = self.op_stack.last().copied().unwrap_or(u32::MAX);
        self.attribute_insts(parent);
        let site = op.loc().site();
        let next = self.sites.len() as u32;
        let site = *self.site_index.entry(site.clone()).or_insert_with(|| {
            self.sites.push(site);
            next
        });
        self.op_stack.push(site);
        let r = self.op_inner(op);
        self.attribute_insts(site);
        self.op_stack.pop();
        r
    }

    fn op_inner(&mut self, op: Op<'a>) -> R<()> {
        let name = op.name();
        // One file per dialect; vector loads and stores go with memref's, LLVM's leftovers with
        // the arithmetic they stand for.
        let family = match name.split_once('.').map(|(d, _)| d).unwrap_or("") {
            _ if name == "vector.load" || name == "vector.store" || name == "vector.maskedload" => Self::memref_op,
            _ if matches!(
                name.as_str(),
                "llvm.bitcast" | "llvm.extractvalue" | "llvm.insertvalue" | "llvm.mlir.poison" | "llvm.mlir.undef"
            ) =>
            {
                Self::vector_op
            }
            _ if matches!(name.as_str(), "llvm.inttoptr" | "llvm.ptrtoint" | "llvm.addrspacecast" | "llvm.getelementptr") => {
                Self::pointer_op
            }
            "arith" | "math" | "llvm" => Self::arith_op,
            "gpu" => Self::gpu_op,
            "memref" => Self::memref_op,
            "vector" => Self::vector_op,
            "nvvm" => Self::nvvm_op,
            "scf" | "func" | "cf" => Self::control_op,
            _ => return unsupported(op, format!("the simulator does not support `{name}`")),
        };
        family(self, op, &name)
    }
}
