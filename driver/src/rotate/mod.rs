//! `rotate` (issue 15, seed 003): a buffer rotated left in place, `np.roll(a, -d)` on its
//! flattened items, as a library kernel written in Phobos (`reverse.phobos`) and launched on any
//! [`Device`].
//!
//! Two schemes (docs/rotate.md):
//! - distances up to one tile (32 KiB of items): seed 003's single pass (`tiles.phobos`),
//!   persistent CTAs, release/acquire flags per tile; every item read and written once, 2 bytes
//!   of traffic per byte, the speed of light;
//! - any other distance: reversing `[0, d)` and `[d, n)` (one launch), then `[0, n)`
//!   (`reverse.phobos`); nothing waits for anything; 4 bytes of traffic per byte.

use crate::api::{Arg, Compiler, Device, Error, Kernel, Options};
use std::sync::OnceLock;

/// Item sizes the kernels move (any dtype of that size: rotate moves bytes).
pub const ITEM_BYTES: [usize; 4] = [1, 2, 4, 8];

/// Threads per CTA of the kernels (their `@launch`).
const THREADS: u64 = 256;

/// Bytes of a tile of the single-pass scheme (seed 003's 32 KiB).
pub const TILE_BYTES: usize = 32 << 10;

/// The library kernels' source, `reverse2_<ty>` then `rotate_tiles_<ty>`, for items of `bytes`
/// bytes (1, 2, 4 or 8).
pub fn library_source(bytes: usize) -> String {
    let ty = match bytes {
        1 => "i8",
        2 => "i16",
        4 => "i32",
        _ => "i64",
    };
    let tiles = include_str!("tiles.phobos").replace("TILE", &(TILE_BYTES / bytes).to_string());
    (include_str!("reverse.phobos").to_string() + &tiles).replace("ITEM", ty)
}

/// The compiled kernels per item size, compiled once per process: `reverse2_*` and
/// `rotate_tiles_*`.
fn kernels(bytes: usize) -> Result<&'static [Kernel], Error> {
    static KERNELS: OnceLock<Result<Vec<Vec<Kernel>>, String>> = OnceLock::new();
    let all = KERNELS.get_or_init(|| {
        let c = Compiler::new().map_err(|e| e.to_string())?;
        ITEM_BYTES
            .iter()
            .map(|b| c.compile_phobos(&library_source(*b), "rotate.phobos", &Options::default()).map_err(|e| e.to_string()))
            .collect()
    });
    match all {
        Ok(ks) => Ok(&ks[ITEM_BYTES.iter().position(|b| *b == bytes).expect("checked")]),
        Err(e) => Err(Error::Launch(format!("the rotate kernels do not compile: {e}"))),
    }
}

/// CTAs of the single pass: enough to keep the device busy; at least 2 (the head's task waits
/// for the last tiles while another CTA works).
fn persistent_ctas(device: &Device, tasks: u64) -> u32 {
    let resident = match device {
        Device::Simulator => 8,
        Device::Cuda(g) => 4 * g.sms() as u64,
    };
    tasks.min(resident).max(2) as u32
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
    let ks = kernels(item)?;
    let tile = (TILE_BYTES / item) as u64;
    if d <= tile {
        // The single pass: task 0 moves the head, tasks 1.. the destination tiles of [0, n - d).
        let tiles = (n - d).div_ceil(tile);
        let mut p: Vec<u8> = [d, n, tiles, 0].iter().flat_map(|v| (*v as i32).to_le_bytes()).collect();
        let mut w = vec![0u8; 4 * (tiles as usize + 2)];
        let grid = persistent_ctas(device, tiles + 1);
        let single = ks.iter().find(|k| k.name.starts_with("rotate_tiles")).expect("in the library");
        single.launch(
            device,
            [grid, 1, 1],
            &mut [Arg::Buffer(data), Arg::Buffer(&mut p), Arg::Buffer(&mut w), Arg::I64(n as i64), Arg::I64(tiles as i64 + 2)],
        )?;
        return Ok(());
    }
    let reverse = ks.iter().find(|k| k.name.starts_with("reverse2")).expect("in the library");
    for ranges in [[0, d, d, n], [0, n, 0, 0]] {
        let longest = (ranges[1] - ranges[0]).max(ranges[3] - ranges[2]);
        // Enough CTAs for one pair per thread, at most 1024 of them (each thread loops).
        let grid = (longest / 2).div_ceil(THREADS).clamp(1, 1024) as u32;
        let mut p: Vec<u8> = ranges.iter().flat_map(|v| (*v as i32).to_le_bytes()).collect();
        reverse.launch(device, [grid, 1, 1], &mut [Arg::Buffer(data), Arg::Buffer(&mut p), Arg::I64(n as i64)])?;
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
