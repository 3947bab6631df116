//! Tensors in NumPy's `.npy` format (through the `npyz` crate), as raw little-endian bytes.

use npyz::WriterBuilder;

/// Element types a kernel tensor can have, with their NumPy names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dtype {
    Bool,
    I8,
    I16,
    I32,
    I64,
    F16,
    F32,
    F64,
}

impl Dtype {
    /// From a Phobos element type name (`f32`, `bool`).
    pub fn from_phobos(name: &str) -> Option<Dtype> {
        Some(match name {
            "bool" => Dtype::Bool,
            "i8" => Dtype::I8,
            "i16" => Dtype::I16,
            "i32" => Dtype::I32,
            "i64" => Dtype::I64,
            "f16" => Dtype::F16,
            "f32" => Dtype::F32,
            "f64" => Dtype::F64,
            _ => return None,
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
            Dtype::F16 => "float16",
            Dtype::F32 => "float32",
            Dtype::F64 => "float64",
        }
    }
    pub fn bytes(self) -> usize {
        match self {
            Dtype::Bool | Dtype::I8 => 1,
            Dtype::I16 | Dtype::F16 => 2,
            Dtype::I32 | Dtype::F32 => 4,
            Dtype::I64 | Dtype::F64 => 8,
        }
    }
    fn from_descr(d: &str) -> Option<Dtype> {
        // Byte order: '<' little, '|' not applicable, '=' native (little here).
        let d = d.trim_start_matches(['<', '|', '=']);
        Some(match d {
            "b1" => Dtype::Bool,
            "i1" => Dtype::I8,
            "i2" => Dtype::I16,
            "i4" => Dtype::I32,
            "i8" => Dtype::I64,
            "f2" => Dtype::F16,
            "f4" => Dtype::F32,
            "f8" => Dtype::F64,
            _ => return None,
        })
    }
}

/// An array: element type, shape, and row-major little-endian bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Array {
    pub dtype: Dtype,
    pub shape: Vec<u64>,
    pub data: Vec<u8>,
}

fn le<T: Copy, const N: usize>(v: Vec<T>, f: impl Fn(T) -> [u8; N]) -> Vec<u8> {
    v.into_iter().flat_map(f).collect()
}

/// Reads an `.npy` file.
pub fn read(path: &std::path::Path) -> Result<Array, String> {
    let p = path.display();
    let bytes = std::fs::read(path).map_err(|e| format!("{p}: {e}"))?;
    let npy = npyz::NpyFile::new(&bytes[..]).map_err(|e| format!("{p}: not an .npy file ({e})"))?;
    if npy.order() != npyz::Order::C && npy.shape().len() > 1 {
        return Err(format!("{p}: Fortran-order arrays are not supported; save with np.ascontiguousarray"));
    }
    let descr = match npy.dtype() {
        npyz::DType::Plain(t) => t.to_string(),
        other => return Err(format!("{p}: unsupported dtype {}", other.descr())),
    };
    if descr.starts_with('>') {
        return Err(format!("{p}: big-endian arrays are not supported"));
    }
    let dtype = Dtype::from_descr(&descr).ok_or_else(|| format!("{p}: unsupported dtype '{descr}' (bool, int8-64, float16-64)"))?;
    let shape = npy.shape().to_vec();
    let err = |e: std::io::Error| format!("{p}: {e}");
    let data = match dtype {
        Dtype::Bool => le(npy.into_vec::<bool>().map_err(err)?, |b| [b as u8]),
        Dtype::I8 => le(npy.into_vec::<i8>().map_err(err)?, |v| v.to_le_bytes()),
        Dtype::I16 => le(npy.into_vec::<i16>().map_err(err)?, |v| v.to_le_bytes()),
        Dtype::I32 => le(npy.into_vec::<i32>().map_err(err)?, |v| v.to_le_bytes()),
        Dtype::I64 => le(npy.into_vec::<i64>().map_err(err)?, |v| v.to_le_bytes()),
        Dtype::F16 => le(npy.into_vec::<half::f16>().map_err(err)?, |v| v.to_le_bytes()),
        Dtype::F32 => le(npy.into_vec::<f32>().map_err(err)?, |v| v.to_le_bytes()),
        Dtype::F64 => le(npy.into_vec::<f64>().map_err(err)?, |v| v.to_le_bytes()),
    };
    Ok(Array { dtype, shape, data })
}

fn write_typed<T: npyz::AutoSerialize + Copy>(out: &mut Vec<u8>, shape: &[u64], vals: impl Iterator<Item = T>) -> std::io::Result<()> {
    let mut w = npyz::WriteOptions::new().default_dtype().shape(shape).writer(out).begin_nd()?;
    w.extend(vals)?;
    w.finish()
}

/// Writes an `.npy` file.
pub fn write(path: &std::path::Path, a: &Array) -> Result<(), String> {
    let mut out = Vec::new();
    let d = &a.data;
    let r = match a.dtype {
        Dtype::Bool => write_typed(&mut out, &a.shape, d.iter().map(|b| *b != 0)),
        Dtype::I8 => write_typed(&mut out, &a.shape, d.iter().map(|b| *b as i8)),
        Dtype::I16 => write_typed(&mut out, &a.shape, d.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]]))),
        Dtype::I32 => write_typed(&mut out, &a.shape, d.chunks_exact(4).map(|c| i32::from_le_bytes(c.try_into().expect("4 bytes")))),
        Dtype::I64 => write_typed(&mut out, &a.shape, d.chunks_exact(8).map(|c| i64::from_le_bytes(c.try_into().expect("8 bytes")))),
        Dtype::F16 => write_typed(&mut out, &a.shape, d.chunks_exact(2).map(|c| half::f16::from_le_bytes([c[0], c[1]]))),
        Dtype::F32 => write_typed(&mut out, &a.shape, d.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))),
        Dtype::F64 => write_typed(&mut out, &a.shape, d.chunks_exact(8).map(|c| f64::from_le_bytes(c.try_into().expect("8 bytes")))),
    };
    r.map_err(|e| format!("{}: {e}", path.display()))?;
    std::fs::write(path, out).map_err(|e| format!("{}: {e}", path.display()))
}
