//! `rotate`: a buffer rotated left in place, `np.roll(a, -d)` on its
//! flattened items, as library kernels written in Phobos and launched on any [`Device`], on host
//! bytes or on a [`DeviceBuffer`].
//!
//! Three kernels (docs/rotate.md):
//! - every distance whose head (the shorter way round: left by d, or right by n - d) fits in
//!   the tiles the device holds in flight: the single pass over bytes (`bytes.phobos`),
//!   persistent CTAs, release/acquire flags per tile, 16-byte aligned vector loads and stores
//!   at any offset and distance (realigned with funnel shifts); 2 bytes of traffic per byte;
//! - the same pass over items (`tiles.phobos`) for buffers of 2 GiB and more, whose byte
//!   indices do not fit the language's `i32`;
//! - any other distance: reversing `[0, d)` and `[d, n)` (one launch), then `[0, n)`
//!   (`reverse.phobos`); nothing waits for anything; 4 bytes of traffic per byte.

use phobos::{Arg, Compiler, Device, DeviceBuffer, Error, Kernel, LaunchOptions, Options};
use std::sync::OnceLock;

/// Item sizes the kernels move (any dtype of that size: rotate moves bytes).
pub const ITEM_BYTES: [usize; 4] = [1, 2, 4, 8];

/// Threads per CTA of the kernels (their `@launch`).
const THREADS: u64 = 256;

/// Bytes of a tile of the single-pass scheme (32 KiB).
pub const TILE_BYTES: usize = 32 << 10;

/// The largest index the kernels' `i32` arithmetic takes.
const MAX_INDEX: u64 = i32::MAX as u64;

fn ty(bytes: usize) -> &'static str {
    match bytes {
        1 => "i8",
        2 => "i16",
        4 => "i32",
        _ => "i64",
    }
}

/// The library kernels' source for items of `bytes` bytes (1, 2, 4 or 8): `reverse2_<ty>` and
/// `rotate_tiles_<ty>`, then (once, with the 1-byte kernels) `rotate_bytes`.
pub fn library_source(bytes: usize) -> String {
    let tiles = include_str!("tiles.phobos").replace("TILE", &(TILE_BYTES / bytes).to_string());
    let mut src = (include_str!("reverse.phobos").to_string() + &tiles).replace("ITEM", ty(bytes));
    if bytes == 1 {
        // Shared words: the tile, the chunks at its two ends, and the word a realignment reads
        // past the last one, as columns of 16-byte chunks (a multiple of 4 words).
        let words = TILE_BYTES / 4 + 12;
        src += &include_str!("bytes.phobos")
            .replace("SWORDS", &words.to_string())
            .replace("CHUNKS", &(words / 4).to_string())
            .replace("TILE", &TILE_BYTES.to_string());
    }
    src
}

/// The compiled kernels per item size, compiled once per process.
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

fn kernel(bytes: usize, prefix: &str) -> Result<&'static Kernel, Error> {
    Ok(kernels(bytes)?.iter().find(|k| k.name.starts_with(prefix)).expect("in the library"))
}

/// Which kernel moves the bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheme {
    /// The fastest that applies: the single pass (over bytes in buffers under 2 GiB, over items
    /// in larger ones) in the shorter direction when its head fits in the tiles in flight,
    /// else the reversals.
    Auto,
    /// The single pass, 16-byte chunks realigned with funnel shifts (buffers under 2 GiB).
    Bytes,
    /// The single pass over the widest items that the offset, length and distance allow.
    Items,
    /// Three reversals (any distance).
    Reversals,
}

/// The bytes a rotate works on: the caller's, or a device buffer's.
enum Bytes<'a> {
    Host(&'a mut [u8]),
    Device(&'a DeviceBuffer),
}

impl Bytes<'_> {
    fn len(&self) -> usize {
        match self {
            Bytes::Host(b) => b.len(),
            Bytes::Device(b) => b.len(),
        }
    }
    fn arg(&mut self) -> Arg<'_> {
        match self {
            Bytes::Host(b) => Arg::Buffer(b),
            Bytes::Device(b) => Arg::Device(b),
        }
    }
}

fn words(v: &[u64]) -> Vec<u8> {
    v.iter().flat_map(|x| (*x as i32).to_le_bytes()).collect()
}

/// How a rotate ran: its scheme, its launches, and on the simulator the traffic it counted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// `single-pass-bytes-left`, `single-pass-bytes-right`, `single-pass-items-left`,
    /// `single-pass-items-right`, `reversals`, or `none` (nothing to move).
    pub scheme: String,
    /// Kernel launches.
    pub launches: u32,
    /// What the simulator counted (None on a GPU).
    pub counted: Option<Counted>,
}

/// A rotate's traffic as the simulator counted it, summed over its launches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counted {
    /// Bytes of the rotated buffer that loads read.
    pub array_read: u64,
    /// Bytes of the rotated buffer that stores wrote.
    pub array_written: u64,
    /// Bytes of the parameter, ticket and flag words read (atomics count as a read and a write).
    pub flags_read: u64,
    /// Bytes of the parameter, ticket and flag words written.
    pub flags_written: u64,
    /// Shared-memory bank conflicts.
    pub bank_conflicts: u64,
}

/// Rotates `data`, a sequence of `item`-byte items, left by `by` items (taken modulo the item
/// count): afterwards item `i` is the old item `(i + by) mod n`, as `np.roll(a, -by)`.
pub fn rotate(device: &Device, data: &mut [u8], item: usize, by: u64) -> Result<(), Error> {
    rotate_with_options(device, data, item, by, &LaunchOptions::default()).map(|_| ())
}

/// [`rotate`] with the launches' options (the simulator's SMs and threads), reporting what ran.
pub fn rotate_with_options(device: &Device, data: &mut [u8], item: usize, by: u64, opts: &LaunchOptions) -> Result<Report, Error> {
    if !ITEM_BYTES.contains(&item) {
        return Err(Error::Launch(format!("rotate moves items of 1, 2, 4 or 8 bytes, not {item}")));
    }
    if !data.len().is_multiple_of(item) {
        return Err(Error::Launch(format!("rotate: {} bytes are not whole {item}-byte items", data.len())));
    }
    let n = (data.len() / item) as u64;
    if n == 0 {
        return Ok(Report { scheme: "none".into(), ..Default::default() });
    }
    let len = data.len();
    rotate_with(device, Bytes::Host(data), 0, len, (by % n) * item as u64, Scheme::Auto, opts)
}

/// Rotates the bytes `[offset, offset + len)` of `buf` left by `by` bytes (modulo `len`).
pub fn rotate_range(device: &Device, buf: &mut [u8], offset: usize, len: usize, by: u64) -> Result<(), Error> {
    rotate_with(device, Bytes::Host(buf), offset, len, by, Scheme::Auto, &LaunchOptions::default()).map(|_| ())
}

/// [`rotate_range`] by the given scheme (for tests and benchmarks); a scheme that does not
/// apply to the distance or the buffer is an error.
pub fn rotate_range_by(
    device: &Device,
    buf: &mut [u8],
    offset: usize,
    len: usize,
    by: u64,
    scheme: Scheme,
    opts: &LaunchOptions,
) -> Result<Report, Error> {
    rotate_with(device, Bytes::Host(buf), offset, len, by, scheme, opts)
}

/// Rotates the bytes `[offset, offset + len)` of a buffer on `device` left by `by` bytes
/// (modulo `len`), in place on the device: any offset, length and distance.
pub fn rotate_device_range(device: &Device, buf: &DeviceBuffer, offset: usize, len: usize, by: u64) -> Result<(), Error> {
    rotate_with(device, Bytes::Device(buf), offset, len, by, Scheme::Auto, &LaunchOptions::default()).map(|_| ())
}

/// One kernel launch of a rotate: its kernel, grid, parameter words `P`, and for the single
/// passes the number of zeroed flag words `W` (and its element count scalar).
struct Step {
    kernel: &'static Kernel,
    grid: u32,
    p: Vec<u8>,
    flags: Option<usize>,
    /// The element count of the buffer as the kernel sees it (`N`).
    elems: u64,
}

/// The launches that rotate bytes `[offset, offset + len)` of a `total`-byte buffer left by
/// `by`, by `scheme`, and the scheme's name (no launch when there is nothing to move).
fn plan(
    device: &Device,
    opts: &LaunchOptions,
    total: usize,
    offset: usize,
    len: usize,
    by: u64,
    scheme: Scheme,
) -> Result<(Vec<Step>, String), Error> {
    if offset.checked_add(len).is_none_or(|e| e > total) {
        return Err(Error::Launch(format!("rotate: bytes [{offset}, {offset} + {len}) are outside the buffer of {total} bytes")));
    }
    if len == 0 || by.is_multiple_of(len as u64) {
        return Ok((vec![], "none".into()));
    }
    let by = by % len as u64;
    // The shorter way round: a left rotation by `by`, or a right one by `len - by`.
    let (right, dist) = if len as u64 - by < by { (true, len as u64 - by) } else { (false, by) };
    let small = total as u64 <= MAX_INDEX;
    let single = match scheme {
        Scheme::Reversals => None,
        Scheme::Bytes if !small => return Err(Error::Launch("rotate: the byte pass takes buffers under 2 GiB".into())),
        Scheme::Bytes => Some(true),
        Scheme::Items => Some(false),
        Scheme::Auto => Some(small),
    };
    // Items: 1 byte for the byte pass, else the widest that the offset, the length, the
    // distance and the buffer allow.
    let item = match single {
        Some(true) => 1,
        _ => *ITEM_BYTES
            .iter()
            .rev()
            .find(|b| [offset, len, total, by as usize].iter().all(|v| v.is_multiple_of(**b)))
            .expect("1 divides all"),
    };
    let b = item as u64;
    let (off, n, all) = (offset as u64 / b, len as u64 / b, total as u64 / b);
    if all > MAX_INDEX && single != Some(true) {
        return Err(Error::Launch(format!("rotate handles at most {MAX_INDEX} items (i32 indices), got {all} of {item} bytes")));
    }
    if let Some(bytes) = single {
        let k = if bytes { kernel(1, "rotate_bytes")? } else { kernel(item, "rotate_tiles")? };
        // The head's tiles wait, held in shared memory, for the last tiles: they and at least
        // one more CTA must be resident at once (this bounds the distance). By choice
        // the head takes at most half of them, so that the other half moves the tiles.
        let tile = TILE_BYTES as u64 / b;
        let (d, heads) = (dist / b, (dist / b).div_ceil(tile));
        let resident = k.resident_ctas(device, opts.sim.as_ref())?;
        let fits = if scheme == Scheme::Auto { 2 * heads <= resident } else { heads < resident };
        if fits {
            let tiles = (n - d).div_ceil(tile);
            let name = format!("single-pass-{}-{}", if bytes { "bytes" } else { "items" }, if right { "right" } else { "left" });
            let step = Step {
                kernel: k,
                grid: (heads + tiles).min(resident).max(2) as u32,
                p: words(&[d, n, tiles, off, heads, right as u64]),
                flags: Some((heads + tiles + 1) as usize),
                elems: all,
            };
            return Ok((vec![step], name));
        }
        if scheme != Scheme::Auto {
            return Err(Error::Launch(format!(
                "rotate: a distance of {dist} bytes needs {} resident CTAs for the single pass; the device holds {resident}",
                heads + 1
            )));
        }
    }
    let d = by / b;
    let reverse = kernel(item, "reverse2")?;
    let steps = [[off, off + d, off + d, off + n], [off, off + n, 0, 0]]
        .iter()
        .map(|r| {
            let longest = (r[1] - r[0]).max(r[3] - r[2]);
            // Enough CTAs for one pair per thread, at most 1024 of them (each thread loops).
            let grid = (longest / 2).div_ceil(THREADS).clamp(1, 1024) as u32;
            Step { kernel: reverse, grid, p: words(r), flags: None, elems: all }
        })
        .collect();
    Ok((steps, "reversals".into()))
}

fn rotate_with(
    device: &Device,
    mut buf: Bytes,
    offset: usize,
    len: usize,
    by: u64,
    scheme: Scheme,
    opts: &LaunchOptions,
) -> Result<Report, Error> {
    let (steps, name) = plan(device, opts, buf.len(), offset, len, by, scheme)?;
    let mut report = Report { scheme: name, launches: steps.len() as u32, counted: None };
    let mut counted = Counted::default();
    let mut simulated = false;
    for mut s in steps {
        let launched = match s.flags {
            Some(m) => {
                let mut w = vec![0u8; 4 * m];
                let args = &mut [buf.arg(), Arg::Buffer(&mut s.p), Arg::Buffer(&mut w), Arg::I64(s.elems as i64), Arg::I64(m as i64)];
                // Its CTAs wait for each other: cooperative, so a grid that cannot be resident
                // at once is an error, not a hang.
                let opts = opts.clone().with_cooperative(true);
                s.kernel.launch_with(device, [s.grid, 1, 1], args, &opts)?
            }
            None => {
                let args = &mut [buf.arg(), Arg::Buffer(&mut s.p), Arg::I64(s.elems as i64)];
                s.kernel.launch_with(device, [s.grid, 1, 1], args, opts)?
            }
        };
        if let Some(st) = launched.stats {
            simulated = true;
            let at = |v: &[u64], i: usize| v.get(i).copied().unwrap_or(0);
            counted.array_read += at(&st.global_read, 0);
            counted.array_written += at(&st.global_written, 0);
            counted.flags_read += at(&st.global_read, 1) + at(&st.global_read, 2);
            counted.flags_written += at(&st.global_written, 1) + at(&st.global_written, 2);
            counted.bank_conflicts += st.bank_conflicts;
        }
    }
    if simulated {
        report.counted = Some(counted);
    }
    Ok(report)
}

/// What [`time_device`] measured.
#[derive(Clone, Debug)]
pub struct Timed {
    /// Milliseconds per rotation.
    pub times: Vec<f32>,
    /// The kernels each rotation launched, in order (`rotate_bytes`, `reverse2_i8`, ...).
    pub kernels: Vec<String>,
}

/// Times rotating `buf` (on `device`) left by `by` bytes: `reps` times, each the sum of its
/// launches' times between events on one stream (the flags are zeroed before each, untimed).
/// The buffer ends rotated `reps` times.
pub fn time_device(device: &Device, buf: &DeviceBuffer, by: u64, reps: usize) -> Result<Timed, Error> {
    let (steps, _) = plan(device, &LaunchOptions::default(), buf.len(), 0, buf.len(), by, Scheme::Auto)?;
    let stream = device.stream()?;
    let ps: Vec<DeviceBuffer> = steps.iter().map(|s| device.upload(&s.p)).collect::<Result<_, _>>()?;
    let ws: Vec<Option<DeviceBuffer>> = steps.iter().map(|s| s.flags.map(|m| device.alloc(4 * m)).transpose()).collect::<Result<_, _>>()?;
    let mut times = Vec::with_capacity(reps);
    for _ in 0..reps {
        let mut ms = 0.0;
        for ((s, p), w) in steps.iter().zip(&ps).zip(&ws) {
            let (start, end) = match w {
                Some(w) => {
                    w.write(&vec![0u8; w.len()])?;
                    let start = stream.record()?;
                    let m = Arg::I64(w.len() as i64 / 4);
                    s.kernel.launch_async_with(
                        &stream,
                        [s.grid, 1, 1],
                        &mut [Arg::Device(buf), Arg::Device(p), Arg::Device(w), Arg::I64(s.elems as i64), m],
                        &LaunchOptions::default().with_cooperative(true),
                    )?;
                    (start, stream.record()?)
                }
                None => {
                    let start = stream.record()?;
                    s.kernel.launch_async(&stream, [s.grid, 1, 1], &mut [Arg::Device(buf), Arg::Device(p), Arg::I64(s.elems as i64)])?;
                    (start, stream.record()?)
                }
            };
            ms += start.elapsed_ms(&end)?;
        }
        times.push(ms);
    }
    Ok(Timed { times, kernels: steps.iter().map(|s| s.kernel.name.clone()).collect() })
}
