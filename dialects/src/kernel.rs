//! Checks of a `gpu.func` kernel's launch interface, which MLIR's own verifier leaves to the
//! backend (where a bad value is an abort in LLVM, PTX that `ptxas` rejects, or a launch that
//! fails): the block size, the parameter types, and the tensor and dimension names that
//! `phobos run` turns into file names.

use phobos_ir::{diag::Diagnostic, Op};

/// CUDA's limits on a block: x and y at most 1024, z at most 64, 1024 threads in all.
pub const MAX_BLOCK: [i64; 3] = [1024, 1024, 64];
pub const MAX_BLOCK_THREADS: i64 = 1024;

/// True for a plain identifier: `[A-Za-z_][A-Za-z0-9_]*`.
pub fn is_identifier(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(f) if f.is_ascii_alphabetic() || f == '_') && c.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Verifies a `gpu.func`.
pub fn verify(op: Op) -> Result<(), Diagnostic> {
    if let Some(a) = op.attr("known_block_size") {
        let dims = a.dense_ints().filter(|d| d.len() == 3);
        let ok = dims
            .as_ref()
            .is_some_and(|d| d.iter().zip(MAX_BLOCK).all(|(v, m)| (1..=m).contains(v)) && d.iter().product::<i64>() <= MAX_BLOCK_THREADS);
        if !ok {
            return Err(Diagnostic::op_error(
                op,
                format!("known_block_size must be three sizes x, y, z with 1 <= x, y <= 1024, 1 <= z <= 64 and at most 1024 threads in all; got {a}"),
            ));
        }
    }
    if op.attr("gpu.kernel").is_none() || op.num_regions() == 0 {
        return Ok(());
    }
    let Some(entry) = op.region(0).first_block() else { return Ok(()) };
    let arg_attrs = op.attr("arg_attrs").and_then(|a| a.array()).unwrap_or_default();
    // Each parameter's name as `phobos run` binds it (`--arg`, `-D`, the file in --out).
    let mut names: Vec<String> = Vec::new();
    for (i, a) in entry.args().into_iter().enumerate() {
        let ty = a.ty();
        let scalar = if ty.is_memref() { ty.element() } else { ty };
        if let Some(w) = scalar.int_width() {
            if ![1, 8, 16, 32, 64].contains(&w) {
                return Err(Diagnostic::op_error(
                    op,
                    format!("kernel argument {i} has type {ty}: integers in a kernel's parameters have 1, 8, 16, 32 or 64 bits"),
                ));
            }
        }
        let named = |key: &str| arg_attrs.get(i).and_then(|d| d.dict_get(key)).and_then(|n| n.str());
        let name =
            named("phobos.tensor").or_else(|| named("phobos.scalar")).or_else(|| named("phobos.dim")).unwrap_or_else(|| format!("arg{i}"));
        if let Some(j) = names.iter().position(|n| *n == name) {
            return Err(Diagnostic::op_error(
                op,
                format!("kernel arguments {j} and {i} are both named '{name}': each parameter needs a name of its own"),
            ));
        }
        names.push(name);
        let Some(dict) = arg_attrs.get(i) else { continue };
        for key in ["phobos.tensor", "phobos.scalar", "phobos.dim"] {
            if let Some(name) = dict.dict_get(key) {
                match name.str() {
                    Some(n) if is_identifier(&n) => {}
                    _ => {
                        return Err(Diagnostic::op_error(
                            op,
                            format!("kernel argument {i}: {key} = {name} is not a plain identifier ([A-Za-z_][A-Za-z0-9_]*)"),
                        ))
                    }
                }
            }
        }
    }
    Ok(())
}
