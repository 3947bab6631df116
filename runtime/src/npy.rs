//! Tensors in NumPy's `.npy` format (through the `npyz` crate), as raw little-endian bytes.

use npyz::WriterBuilder;

/// Element types a kernel tensor can have, with their NumPy names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Dtype {
    /// `|b1`
    Bool,
    /// `|i1`
    I8,
    /// `<i2`
    I16,
    /// `<i4`
    I32,
    /// `<i8`
    I64,
    /// Unsigned integers: no kernel tensor has them; `phobos rotate` moves them as bytes.
    U8,
    /// `<u2`
    U16,
    /// `<u4`
    U32,
    /// `<u8`
    U64,
    /// `<f2`
    F16,
    /// `<f4`
    F32,
    /// `<f8`
    F64,
}

impl Dtype {
    /// From a Phobos element type name (`f32`, `bool`).
    pub fn from_phobos(name: &str) -> Option<Dtype> {
        use phobos_frontend::types::Scalar;
        Some(match Scalar::parse(name)? {
            Scalar::Bool => Dtype::Bool,
            Scalar::I8 => Dtype::I8,
            Scalar::I16 => Dtype::I16,
            Scalar::I32 => Dtype::I32,
            Scalar::I64 => Dtype::I64,
            Scalar::F16 => Dtype::F16,
            // NumPy has no bfloat16: a bf16 tensor is a uint16 array of its bit patterns.
            Scalar::BF16 => Dtype::U16,
            Scalar::F32 => Dtype::F32,
            Scalar::F64 => Dtype::F64,
        })
    }
    /// NumPy's name: `float32`, `bool`, `int8`.
    pub fn numpy(self) -> &'static str {
        match self {
            Dtype::Bool => "bool",
            Dtype::I8 => "int8",
            Dtype::I16 => "int16",
            Dtype::I32 => "int32",
            Dtype::I64 => "int64",
            Dtype::U8 => "uint8",
            Dtype::U16 => "uint16",
            Dtype::U32 => "uint32",
            Dtype::U64 => "uint64",
            Dtype::F16 => "float16",
            Dtype::F32 => "float32",
            Dtype::F64 => "float64",
        }
    }
    /// Bytes per element.
    pub fn bytes(self) -> usize {
        match self {
            Dtype::Bool | Dtype::I8 | Dtype::U8 => 1,
            Dtype::I16 | Dtype::U16 | Dtype::F16 => 2,
            Dtype::I32 | Dtype::U32 | Dtype::F32 => 4,
            Dtype::I64 | Dtype::U64 | Dtype::F64 => 8,
        }
    }
    /// The dtype of an `.npy` `descr`, as `np.dtype` reads the ones Phobos holds: a type code
    /// with an optional byte order (`<f4`, `f`, `|b1`, `?`) or a name (`float32`, `single`).
    /// `Err(true)` for a big-endian multi-byte type, `Err(false)` for anything else.
    pub fn from_descr(descr: &str) -> Result<Dtype, bool> {
        use Dtype::*;
        let named = match descr {
            "bool" | "bool_" => Some(Bool),
            "int8" | "byte" => Some(I8),
            "uint8" | "ubyte" => Some(U8),
            "int16" | "short" => Some(I16),
            "uint16" | "ushort" => Some(U16),
            "int32" | "intc" => Some(I32),
            "uint32" | "uintc" => Some(U32),
            "int64" | "int" | "int_" | "long" | "longlong" | "intp" => Some(I64),
            "uint64" | "uint" | "ulong" | "ulonglong" | "uintp" => Some(U64),
            "float16" | "half" => Some(F16),
            "float32" | "single" => Some(F32),
            "float64" | "double" | "float" => Some(F64),
            _ => None,
        };
        if let Some(d) = named {
            return Ok(d);
        }
        let (order, code) = match descr.chars().next() {
            Some(o @ ('<' | '>' | '=' | '|')) => (o, &descr[1..]),
            _ => ('=', descr),
        };
        let d = match code {
            "?" | "b1" => Bool,
            "b" | "i1" => I8,
            "B" | "u1" => U8,
            "h" | "i2" => I16,
            "H" | "u2" => U16,
            "i" | "i4" => I32,
            "I" | "u4" => U32,
            "l" | "q" | "n" | "p" | "i8" => I64,
            "L" | "Q" | "N" | "P" | "u8" => U64,
            "e" | "f2" => F16,
            "f" | "f4" => F32,
            "d" | "f8" => F64,
            _ => return Err(false),
        };
        if order == '>' && d.bytes() > 1 {
            return Err(true);
        }
        Ok(d)
    }
}

/// An array: element type, shape, and row-major little-endian bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Array {
    /// The element type.
    pub dtype: Dtype,
    /// The shape, outermost first.
    pub shape: Vec<u64>,
    /// The elements, little-endian, C order.
    pub data: Vec<u8>,
}

/// Reads an `.npy` file: its header as NumPy reads it ([`crate::npy_header`]), then the
/// data. A hostile header (a shape whose element count overflows, more elements than data) is an
/// error naming the file; bytes after the data are ignored, as `np.load` ignores them.
pub fn read(path: &std::path::Path) -> Result<Array, String> {
    read_with_order(path).map(|(a, _)| a)
}

/// [`read`], and whether the file is in Fortran order (its data is then reordered to C order;
/// [`encode_in_order`] writes it back the same way).
pub fn read_with_order(path: &std::path::Path) -> Result<(Array, bool), String> {
    let p = path.display();
    let bytes = crate::read_file(path)?;
    let (header, at) = crate::npy_header::parse(&bytes).map_err(|e| format!("{p}: {e}"))?;
    let data = &bytes[at..];
    let shape = header.shape;
    let descr = header.descr.as_str();
    let dtype = Dtype::from_descr(descr).map_err(|big| {
        let shown: String = descr.chars().take(40).collect();
        if big {
            format!("{p}: big-endian arrays are not supported ('{shown}'); save with a.astype(a.dtype.newbyteorder('<'))")
        } else {
            format!("{p}: unsupported dtype '{shown}' (bool, int8-64, uint8-64, float16-64)")
        }
    })?;
    // NumPy's own limit, zero sizes counted as 1: the item size times the sizes stays within
    // 2^63 - 1 bytes. Beyond it NumPy refuses the array (even an empty one), so a file of it
    // could be read here but not written back for NumPy.
    let numpy_bytes = shape.iter().try_fold(dtype.bytes() as u64, |acc, d| acc.checked_mul((*d).max(1)));
    if numpy_bytes.is_none_or(|b| b > i64::MAX as u64) {
        return Err(format!(
            "{p}: shape {} of {} is too big for NumPy (its item size times its sizes, zeros counted as 1, passes 2^63 - 1 bytes)",
            shape_text(&shape),
            dtype.numpy()
        ));
    }
    // The data must hold the elements: a hostile header can claim 2^62 elements over no data.
    // (Their bytes fit in u64: at most NumPy's count above.)
    let want = shape.iter().product::<u64>() * dtype.bytes() as u64;
    if want > data.len() as u64 {
        return Err(format!(
            "{p}: shape {} of {} needs {want} bytes of data, but the file has {}",
            shape_text(&shape),
            dtype.numpy(),
            data.len()
        ));
    }
    let data = &data[..want as usize];
    let data = if dtype == Dtype::Bool { data.iter().map(|b| (*b != 0) as u8).collect() } else { data.to_vec() };
    let fortran = header.fortran_order && shape.iter().filter(|d| **d > 1).count() > 1;
    let data = if fortran { reorder(&data, &shape, dtype.bytes(), false) } else { data };
    Ok((Array { dtype, shape, data }, header.fortran_order))
}

/// The elements of `data` (of `shape`, `eb` bytes each) in the other order: C order to Fortran
/// order when `to_fortran`, else Fortran to C.
pub fn reorder(data: &[u8], shape: &[u64], eb: usize, to_fortran: bool) -> Vec<u8> {
    let mut out = vec![0u8; data.len()];
    let n = shape.len();
    // Fortran order's element strides: the first dimension fastest.
    let mut f = vec![1u64; n];
    for d in 1..n {
        f[d] = f[d - 1] * shape[d - 1];
    }
    let mut idx = vec![0u64; n];
    for c_at in 0..data.len() / eb.max(1) {
        let f_at: u64 = idx.iter().zip(&f).map(|(i, s)| i * s).sum();
        let (from, to) = if to_fortran { (c_at, f_at as usize) } else { (f_at as usize, c_at) };
        out[to * eb..(to + 1) * eb].copy_from_slice(&data[from * eb..(from + 1) * eb]);
        // The next index in C order: the last dimension fastest.
        for d in (0..n).rev() {
            idx[d] += 1;
            if idx[d] < shape[d] {
                break;
            }
            idx[d] = 0;
        }
    }
    out
}

/// Whether the `.npy` file at `path` is in Fortran order (its header says so; a file whose
/// header cannot be read is not).
pub fn is_fortran(path: &std::path::Path) -> bool {
    use std::io::Read;
    let mut head = Vec::new();
    let read = std::fs::File::open(path).and_then(|f| f.take(1 << 20).read_to_end(&mut head));
    read.is_ok() && crate::npy_header::parse(&head).is_ok_and(|(h, _)| h.fortran_order)
}

fn write_typed<T: npyz::AutoSerialize + Copy>(
    out: &mut Vec<u8>,
    shape: &[u64],
    order: npyz::Order,
    vals: impl Iterator<Item = T>,
) -> std::io::Result<()> {
    let mut w = npyz::WriteOptions::new().default_dtype().shape(shape).order(order).writer(out).begin_nd()?;
    w.extend(vals)?;
    w.finish()
}

/// Writes an `.npy` file.
pub fn write(path: &std::path::Path, a: &Array) -> Result<(), String> {
    let out = encode(a).map_err(|e| format!("{}: {e}", path.display()))?;
    std::fs::write(path, out).map_err(|e| format!("{}: {e}", path.display()))
}

/// The bytes of an `.npy` file holding `a`.
pub fn encode(a: &Array) -> Result<Vec<u8>, String> {
    encode_in_order(a, false)
}

/// The bytes of an `.npy` file holding `a` (its data in C order), in Fortran order when
/// `fortran`, as the file it was read from.
pub fn encode_in_order(a: &Array, fortran: bool) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let order = if fortran { npyz::Order::Fortran } else { npyz::Order::C };
    let reordered;
    let d = if fortran && a.shape.len() > 1 {
        reordered = reorder(&a.data, &a.shape, a.dtype.bytes(), true);
        &reordered
    } else {
        &a.data
    };
    let r = match a.dtype {
        Dtype::Bool => write_typed(&mut out, &a.shape, order, d.iter().map(|b| *b != 0)),
        Dtype::I8 => write_typed(&mut out, &a.shape, order, d.iter().map(|b| *b as i8)),
        Dtype::I16 => write_typed(&mut out, &a.shape, order, d.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]]))),
        Dtype::I32 => write_typed(&mut out, &a.shape, order, d.chunks_exact(4).map(|c| i32::from_le_bytes(c.try_into().expect("4 bytes")))),
        Dtype::I64 => write_typed(&mut out, &a.shape, order, d.chunks_exact(8).map(|c| i64::from_le_bytes(c.try_into().expect("8 bytes")))),
        Dtype::U8 => write_typed(&mut out, &a.shape, order, d.iter().copied()),
        Dtype::U16 => write_typed(&mut out, &a.shape, order, d.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]]))),
        Dtype::U32 => write_typed(&mut out, &a.shape, order, d.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))),
        Dtype::U64 => write_typed(&mut out, &a.shape, order, d.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))),
        Dtype::F16 => write_typed(&mut out, &a.shape, order, d.chunks_exact(2).map(|c| half::f16::from_le_bytes([c[0], c[1]]))),
        Dtype::F32 => write_typed(&mut out, &a.shape, order, d.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))),
        Dtype::F64 => write_typed(&mut out, &a.shape, order, d.chunks_exact(8).map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes")))),
    };
    r.map_err(|e| e.to_string())?;
    Ok(out)
}

/// An array of seeded pseudo-random values (`phobos explain`'s tensors without `--arg`): floats
/// in [-1, 1), signed integers in [-8, 8), unsigned in [0, 16), bools half true. The same seed
/// gives the same array.
pub fn random(dtype: Dtype, shape: Vec<u64>, seed: u64) -> Array {
    let n: u64 = shape.iter().product();
    let mut state = seed | 1;
    let mut next = move || {
        // xorshift64*
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    let mut data = Vec::with_capacity(n as usize * dtype.bytes());
    for _ in 0..n {
        let r = next();
        let unit = (r >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0;
        let int = (r >> 60) as i64 - 8;
        let uint = r >> 60;
        match dtype {
            Dtype::Bool => data.push((r >> 63) as u8),
            Dtype::I8 => data.push(int as u8),
            Dtype::U8 => data.push(uint as u8),
            Dtype::I16 => data.extend_from_slice(&(int as i16).to_le_bytes()),
            Dtype::U16 => data.extend_from_slice(&(uint as u16).to_le_bytes()),
            Dtype::I32 => data.extend_from_slice(&(int as i32).to_le_bytes()),
            Dtype::U32 => data.extend_from_slice(&(uint as u32).to_le_bytes()),
            Dtype::I64 => data.extend_from_slice(&int.to_le_bytes()),
            Dtype::U64 => data.extend_from_slice(&uint.to_le_bytes()),
            Dtype::F16 => data.extend_from_slice(&half::f16::from_f64(unit).to_le_bytes()),
            Dtype::F32 => data.extend_from_slice(&(unit as f32).to_le_bytes()),
            Dtype::F64 => data.extend_from_slice(&unit.to_le_bytes()),
        }
    }
    Array { dtype, shape, data }
}

/// A shape as NumPy prints it, `(8,)` or `(2, 3)`; past 8 dimensions the first six and the
/// last, and the count (a hostile header can have thousands).
pub fn shape_text(shape: &[u64]) -> String {
    let join = |d: &[u64]| d.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(", ");
    match shape.len() {
        1 => format!("({},)", shape[0]),
        n if n > 8 => format!("({}, ..., {}) ({n} dimensions)", join(&shape[..6]), shape[n - 1]),
        _ => format!("({})", join(shape)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fortran_order_round_trips_through_c_order() {
        // A 2x3 array of i16 1..6 in C order; Fortran order holds its columns one after another.
        let c: Vec<u8> = (1i16..=6).flat_map(|v| v.to_le_bytes()).collect();
        let f: Vec<u8> = [1i16, 4, 2, 5, 3, 6].iter().flat_map(|v| v.to_le_bytes()).collect();
        assert_eq!(reorder(&c, &[2, 3], 2, true), f);
        assert_eq!(reorder(&f, &[2, 3], 2, false), c);
        let a = Array { dtype: Dtype::I16, shape: vec![2, 3], data: c.clone() };
        let bytes = encode_in_order(&a, true).unwrap();
        assert!(String::from_utf8_lossy(&bytes).contains("'fortran_order': True"));
        assert!(bytes.ends_with(&f));
        // Three dimensions: element (i, j, k) of a (2, 3, 4) array is at i + 2j + 6k in Fortran order.
        let c3: Vec<u8> = (0u8..24).collect();
        let f3 = reorder(&c3, &[2, 3, 4], 1, true);
        for (i, j, k) in (0..2).flat_map(|i| (0..3).flat_map(move |j| (0..4).map(move |k| (i, j, k)))) {
            assert_eq!(f3[i + 2 * j + 6 * k] as usize, 12 * i + 4 * j + k);
        }
        assert_eq!(reorder(&f3, &[2, 3, 4], 1, false), c3);
    }
}
