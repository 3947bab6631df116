//! The one classification of memory accesses every pass uses: which memref an op reads or
//! writes (uniformity, barrier inference and elision, the shared-memory plan), and the bytes of
//! a static memref.

use phobos_ir::{Op, Ty, Val};

/// What an op does to which memref.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access<'a> {
    /// The memref it reads or writes.
    pub mem: Val<'a>,
    /// Whether it writes (an atomic reads and writes).
    pub writes: bool,
}

/// The memref accesses `op` makes itself (nested ops not included): none for other ops.
pub fn accesses<'a>(op: Op<'a>) -> Vec<Access<'a>> {
    if op.is("tile.dot") {
        // Tensor cores read both operand tiles (A may be in registers instead).
        return [op.operand(0), op.operand(1)]
            .into_iter()
            .filter(|v| v.ty().is_memref())
            .map(|mem| Access { mem, writes: false })
            .collect();
    }
    access(op).into_iter().collect()
}

/// The one memref access of an op that makes at most one (loads, stores, atomics).
fn access<'a>(op: Op<'a>) -> Option<Access<'a>> {
    let (at, writes) = match op.name().as_str() {
        "memref.load" | "vector.load" | "vector.maskedload" | "vector.transfer_read" => (0, false),
        // The value to store comes first, then the memref.
        "memref.store" | "vector.store" | "vector.transfer_write" | "memref.atomic_rmw" => (1, true),
        // The memref comes first, the value to store last.
        "vector.maskedstore" | "memref.generic_atomic_rmw" => (0, true),
        _ => return None,
    };
    Some(Access { mem: op.operand(at), writes })
}

/// Whether `op` or an op nested in it accesses memory of address space `space` (3: workgroup):
/// through a memref, or through an LLVM pointer of that space (`nvvm.ldmatrix` reads shared
/// memory by address; computing an address is no access).
pub fn touches_space(op: Op, space: u32) -> bool {
    let pointer = format!("!llvm.ptr<{space}>");
    op.walk().into_iter().any(|o| {
        accesses(o).iter().any(|a| a.mem.ty().memory_space() == space)
            || (!o.is("llvm.getelementptr") && !o.is("llvm.ptrtoint") && o.operands().iter().any(|v| v.ty().to_string() == pointer))
    })
}

/// Bytes of a static memref type; `u64::MAX` when they pass 2^64 (more than any chip holds, so
/// the shared-memory plan refuses it instead of wrapping to a small size).
pub fn bytes_of(t: Ty) -> u64 {
    let eb = t.element().scalar().map(|s| s.bits().div_ceil(8) as u64).unwrap_or(4);
    t.shape().iter().try_fold(eb, |acc, d| acc.checked_mul(d.unwrap_or(0).max(0) as u64)).unwrap_or(u64::MAX)
}
