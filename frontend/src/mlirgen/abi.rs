//! The kernel function: its ABI (tensor pointers, dimension arguments), the N-D views rebuilt
//! inside, and the body.

use super::*;

impl<'a> Gen<'a> {
    // ---------------------------------------------------------------------------------------
    // The kernel function

    pub(super) fn kernel_fn(
        &mut self,
        k: &Kernel,
        entry: &str,
        fixed: &BTreeMap<String, i64>,
        meta: &BTreeMap<String, i64>,
        aligned: &BTreeMap<String, i64>,
    ) -> Result<(String, Vec<AbiParam>)> {
        // Step 1. The signature: tensors and scalars in source order, then the dimensions bound
        // at launch.
        let mut args = Vec::new();
        let mut params = Vec::new();
        for p in &k.params {
            if p.scalar {
                let ty = Scalar::parse(&p.elem.name).expect("parser checked the type");
                // A bool is an i1, which the PTX ABI passes as one byte (0 or 1).
                args.push(format!("%scalar_{}: {} {{phobos.scalar = \"{}\"}}", p.name.name, ty.mlir(), p.name.name));
                params.push(AbiParam::Scalar { name: p.name.name.clone(), ty: p.elem.name.clone() });
                continue;
            }
            let elem = Scalar::parse(&p.elem.name).expect("parser checked the type");
            let mty = format!("memref<{TENSOR_EXTENT}x{}>", elem.mem());
            let dims: Vec<String> = p.dims.iter().map(|d| format!("\"{}\"", d.name())).collect();
            // A strided view may alias a read-only one and is aligned to its elements only.
            let promises = if self.strided { "" } else { "llvm.noalias, llvm.align = 16 : i64, " };
            args.push(format!(
                "%arg_{}: {mty} {{{promises}phobos.tensor = \"{}\", phobos.dims = [{}]}}",
                p.name.name,
                p.name.name,
                dims.join(", ")
            ));
            params.push(AbiParam::Tensor {
                name: p.name.name.clone(),
                elem: p.elem.name.clone(),
                dims: p.dims.iter().map(|d| d.name()).collect(),
            });
        }
        let mut dim_order: Vec<&Ident> = Vec::new();
        for p in &k.params {
            for d in &p.dims {
                if let DimSpec::Name(d) = d {
                    if !dim_order.iter().any(|x| x.name == d.name) {
                        dim_order.push(d);
                    }
                }
            }
        }
        for d in &dim_order {
            // The manifest lists every dimension; a fixed one is a constant in the entry, not a
            // parameter of it (docs/abi.md).
            params.push(AbiParam::Dim { name: d.name.clone() });
            if fixed.contains_key(&d.name) {
                continue;
            }
            let div = aligned.get(&d.name).map(|a| format!(", phobos.divisibility = {a} : i64")).unwrap_or_default();
            args.push(format!("%dim_{}: i64 {{phobos.dim = \"{}\"{div}}}", d.name, d.name));
        }
        // In a strided twin, each tensor's element strides follow (docs/abi.md).
        let mut strides: HashMap<String, Vec<String>> = HashMap::new();
        let strided = self.strided;
        for p in k.params.iter().filter(|p| strided && !p.scalar) {
            let mut mine = Vec::new();
            for d in 0..p.dims.len() {
                let arg = format!("%stride_{}_{d}", p.name.name);
                args.push(format!("{arg}: i64 {{phobos.stride = \"{}\", phobos.stride_dim = {d} : i64}}", p.name.name));
                params.push(AbiParam::Stride { tensor: p.name.name.clone(), dim: d });
                mine.push(self.emit(format!("arith.index_cast {arg} : i64 to index"), Ty::scalar(Scalar::I64), p.name.span).s);
            }
            strides.insert(p.name.name.clone(), mine);
        }
        // The meta-parameters: constants, as a fixed dimension is.
        for (name, v) in meta {
            self.bind(name, Bind::Dim(Dim::Const(*v)));
        }
        // Step 2. Bind the dimensions (i32 values and index values) and the tensors.
        for d in &dim_order {
            let b = match fixed.get(&d.name) {
                Some(v) => Dim::Const(*v),
                None => {
                    let i32v = self.emit(format!("arith.trunci %dim_{} : i64 to i32", d.name), Ty::scalar(Scalar::I32), d.span);
                    let idx = self.emit(format!("arith.index_cast %dim_{} : i64 to index", d.name), Ty::scalar(Scalar::I64), d.span);
                    Dim::Arg(i32v.s, idx.s)
                }
            };
            self.bind(&d.name, Bind::Dim(b));
        }
        for p in &k.params {
            let what = if p.scalar { "a scalar" } else { "a tensor" };
            if let Some(d) = dim_order.iter().find(|d| d.name == p.name.name) {
                return Err(Diag::error(p.name.span, format!("'{}' names both {what} and a dimension", p.name.name))
                    .note(d.span, "used as a dimension here"));
            }
            if let Some(Bind::Tensor(_) | Bind::Val { .. }) = self.lookup(&p.name.name) {
                return Err(Diag::error(p.name.span, format!("parameter '{}' is declared twice", p.name.name)));
            }
            if p.scalar {
                let ty = Scalar::parse(&p.elem.name).expect("parser checked the type");
                let v = V { s: format!("%scalar_{}", p.name.name), ty: Ty::scalar(ty) };
                self.bind(&p.name.name, Bind::Val { v, mutable: false, decl: p.name.span });
                continue;
            }
            let elem = Scalar::parse(&p.elem.name).expect("parser checked the type");
            let dims = p
                .dims
                .iter()
                .map(|d| match d {
                    DimSpec::Const(v, _) => Dim::Const(*v),
                    DimSpec::Name(n) => match self.lookup(&n.name) {
                        Some(Bind::Dim(x)) => x.clone(),
                        _ => unreachable!("dims bound above"),
                    },
                })
                .collect();
            self.bind(
                &p.name.name,
                Bind::Tensor(TensorB {
                    mem: format!("%arg_{}", p.name.name),
                    mty: format!("memref<{TENSOR_EXTENT}x{}>", elem.mem()),
                    elem,
                    dims,
                    names: p.dims.iter().map(|d| d.name()).collect(),
                    strides: strides.remove(&p.name.name),
                }),
            );
        }
        // Step 3. The body.
        self.scopes.push(HashMap::new());
        self.block(&k.body)?;
        self.emit_void("gpu.return".into(), k.body.span);
        let lines = self.bufs.pop().expect("the body buffer");
        let header = format!(
            "    gpu.func @{entry}({}) kernel attributes {{known_block_size = array<i32: {}, 1, 1>}} {{\n",
            args.join(", "),
            self.launch
        );
        let mut text = header;
        for l in lines {
            text.push_str(&l);
            text.push('\n');
        }
        text.push_str(&format!("    }} {}\n", self.loc(k.name.span)));
        Ok((text, params))
    }
}
