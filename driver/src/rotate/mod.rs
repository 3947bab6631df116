//! `rotate` (issue 15, seed 003): a buffer rotated left in place, `np.roll(a, -d)` on its
//! flattened items, as a library kernel written in Phobos (`reverse.phobos`) and launched on any
//! [`Device`].
//!
//! The scheme: rotating left by `d` is reversing `[0, d)` and `[d, n)` (one launch, two ranges),
//! then reversing `[0, n)` (a second launch). Correct for every distance (nothing waits for
//! anything), every item size and every offset; traffic 4 bytes per byte (each item read and
//! written twice), twice the speed of light of an in-place rotate (2: read and write once).
//! The single-pass algorithm of seed 003 (tiles in shared memory, per-tile flags, persistent
//! CTAs) would reach 2 for distances within the tiles in flight; it is not built yet.

use crate::api::{Arg, Compiler, Device, Error, Kernel, Options};
use std::sync::OnceLock;

/// Item sizes the kernels move (any dtype of that size: rotate moves bytes).
pub const ITEM_BYTES: [usize; 4] = [1, 2, 4, 8];

/// Threads per CTA of the kernels (their `@launch`).
const THREADS: u64 = 256;

/// The library source for an item of `bytes` bytes.
fn source(bytes: usize) -> String {
    let ty = match bytes {
        1 => "i8",
        2 => "i16",
        4 => "i32",
        _ => "i64",
    };
    include_str!("reverse.phobos").replace("ITEM", ty)
}

/// The compiled kernels, one per item size, compiled once per process.
fn kernel(bytes: usize) -> Result<&'static Kernel, Error> {
    static KERNELS: OnceLock<Result<Vec<Kernel>, String>> = OnceLock::new();
    let all = KERNELS.get_or_init(|| {
        let c = Compiler::new().map_err(|e| e.to_string())?;
        let mut out = Vec::new();
        for b in ITEM_BYTES {
            let mut ks = c.compile_phobos(&source(b), "reverse.phobos", &Options::default()).map_err(|e| e.to_string())?;
            out.push(ks.remove(0));
        }
        Ok(out)
    });
    match all {
        Ok(ks) => Ok(&ks[ITEM_BYTES.iter().position(|b| *b == bytes).expect("checked")]),
        Err(e) => Err(Error::Launch(format!("the rotate kernels do not compile: {e}"))),
    }
}

/// Rotates `data`, a sequence of `item`-byte items, left by `by` items (taken modulo the item
/// count): afterwards item `i` is the old item `(i + by) mod n`, as `np.roll(a, -by)`.
pub fn rotate(device: &Device, data: &mut [u8], item: usize, by: u64) -> Result<(), Error> {
    if !ITEM_BYTES.contains(&item) {
        return Err(Error::Launch(format!("rotate moves items of 1, 2, 4 or 8 bytes, not {item}")));
    }
    if !data.len().is_multiple_of(item) {
        return Err(Error::Launch(format!("rotate: {} bytes are not whole {item}-byte items", data.len())));
    }
    let n = (data.len() / item) as u64;
    if n > i32::MAX as u64 {
        return Err(Error::Launch(format!("rotate handles at most {} items (i32 indices), got {n}", i32::MAX)));
    }
    if n == 0 || by.is_multiple_of(n) {
        return Ok(());
    }
    let d = by % n;
    let k = kernel(item)?;
    for ranges in [[0, d, d, n], [0, n, 0, 0]] {
        let longest = (ranges[1] - ranges[0]).max(ranges[3] - ranges[2]);
        // Enough CTAs for one pair per thread, at most 1024 of them (each thread loops).
        let grid = (longest / 2).div_ceil(THREADS).clamp(1, 1024) as u32;
        let mut p: Vec<u8> = ranges.iter().flat_map(|v| (*v as i32).to_le_bytes()).collect();
        k.launch(device, [grid, 1, 1], &mut [Arg::Buffer(data), Arg::Buffer(&mut p), Arg::I64(n as i64)])?;
    }
    Ok(())
}

/// Rotates the bytes `[offset, offset + len)` of `buf` left by `by` bytes (modulo `len`), with
/// the widest items (8, 4, 2 or 1 bytes) that the offset, the length and the distance allow.
pub fn rotate_range(device: &Device, buf: &mut [u8], offset: usize, len: usize, by: u64) -> Result<(), Error> {
    let end = offset.checked_add(len).filter(|e| *e <= buf.len()).ok_or_else(|| {
        Error::Launch(format!("rotate_range: bytes [{offset}, {offset} + {len}) are outside the buffer of {} bytes", buf.len()))
    })?;
    if len == 0 {
        return Ok(());
    }
    let by = by % len as u64;
    let item = *ITEM_BYTES
        .iter()
        .rev()
        .find(|b| offset.is_multiple_of(**b) && len.is_multiple_of(**b) && by.is_multiple_of(**b as u64))
        .expect("1 divides all");
    rotate(device, &mut buf[offset..end], item, by / item as u64)
}
