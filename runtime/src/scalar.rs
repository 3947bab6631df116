//! Scalar parameters' values (`eps: f32`): a literal as `phobos run --arg eps=1e-5` and Python
//! give it, checked against the parameter's type, and carried to the launch as a 0-d array of
//! that type (the `.npy` a 0-d scalar file holds).

use crate::npy::{Array, Dtype};
use phobos_frontend::types::Scalar;

/// The value of a scalar parameter of type `ty` (`f32`, `i8`, `bool`, ...) written as `text`:
/// an integer in decimal or `0x` hex (an optional sign), a float (`1e-5`, `inf`, `-inf`, `nan`,
/// rounded to the nearest value of `ty`, ties to even), or `true`/`false`. A value `ty` cannot
/// hold is an error: an integer out of range, a finite float that rounds to infinity, a
/// fraction for an integer type, a number for a bool.
pub fn parse(ty: &str, text: &str) -> Result<Array, String> {
    let t = text.trim();
    let (Some(scalar), Some(dtype)) = (Scalar::parse(ty), Dtype::from_phobos(ty)) else {
        return Err(format!("'{ty}' is not a scalar type"));
    };
    let bytes = match scalar {
        Scalar::Bool => match t {
            "true" | "True" | "1" => vec![1],
            "false" | "False" | "0" => vec![0],
            _ => return Err(format!("'{t}' is not a bool (true or false)")),
        },
        Scalar::I8 | Scalar::I16 | Scalar::I32 | Scalar::I64 => {
            let v = integer(t)?;
            let bits = dtype.bytes() as u32 * 8;
            let (lo, hi) = (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1);
            if v < lo || v > hi {
                return Err(format!("{v} does not fit {ty} ({lo} to {hi})"));
            }
            (v as i64).to_le_bytes()[..dtype.bytes()].to_vec()
        }
        _ => {
            let v = float(t)?;
            let (bytes, inf) = match scalar {
                Scalar::F16 => {
                    let h = half::f16::from_f64(v);
                    (h.to_le_bytes().to_vec(), h.is_infinite())
                }
                Scalar::BF16 => {
                    let h = half::bf16::from_f64(v);
                    (h.to_le_bytes().to_vec(), h.is_infinite())
                }
                Scalar::F32 => ((v as f32).to_le_bytes().to_vec(), (v as f32).is_infinite()),
                _ => (v.to_le_bytes().to_vec(), v.is_infinite()),
            };
            if inf && v.is_finite() {
                return Err(format!("{t} is beyond {ty}'s range: it would round to infinity"));
            }
            bytes
        }
    };
    Ok(Array { dtype, shape: Vec::new(), data: bytes })
}

/// An integer literal: decimal or `0x` hex with an optional sign, or a float with no fraction
/// (`1e3`).
fn integer(t: &str) -> Result<i128, String> {
    let (neg, digits) = match t.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let parsed = match digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
        Some(hex) => i128::from_str_radix(hex, 16).ok(),
        None if digits.bytes().all(|b| b.is_ascii_digit()) && !digits.is_empty() => digits.parse::<i128>().ok(),
        None => None,
    };
    if let Some(v) = parsed {
        return Ok(if neg { -v } else { v });
    }
    match float(t) {
        Ok(f) if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e30 => Ok(f as i128),
        Ok(f) if f.is_finite() => Err(format!("{t} is not an integer (it has a fraction)")),
        _ => Err(format!("'{t}' is not an integer")),
    }
}

/// A float literal: Rust's syntax (`1e-5`, `.5`), or `inf`, `-inf`, `nan`.
fn float(t: &str) -> Result<f64, String> {
    match t.to_ascii_lowercase().as_str() {
        "inf" | "+inf" | "infinity" => return Ok(f64::INFINITY),
        "-inf" | "-infinity" => return Ok(f64::NEG_INFINITY),
        "nan" => return Ok(f64::NAN),
        _ => {}
    }
    if t.bytes().any(|b| b.is_ascii_alphabetic() && b != b'e' && b != b'E') {
        return Err(format!("'{t}' is not a number"));
    }
    t.parse::<f64>().map_err(|_| format!("'{t}' is not a number"))
}

/// The value of a scalar parameter of type `ty` from a 0-d array (a `.npy` file of one value)
/// of exactly that type.
pub fn from_array(ty: &str, a: &Array) -> Result<Array, String> {
    let want = Dtype::from_phobos(ty).ok_or_else(|| format!("'{ty}' is not a scalar type"))?;
    if !a.shape.is_empty() {
        return Err(format!("a scalar takes a 0-d array, got shape {}", crate::npy::shape_text(&a.shape)));
    }
    if a.dtype != want {
        return Err(format!("the parameter is {ty}, but the array holds {}", a.dtype.numpy()));
    }
    Ok(a.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits(ty: &str, t: &str) -> Result<Vec<u8>, String> {
        parse(ty, t).map(|a| a.data)
    }

    #[test]
    fn literals_take_their_types_values() {
        assert_eq!(bits("f32", "1e-5").unwrap(), 1e-5f32.to_le_bytes());
        assert_eq!(bits("f32", "-inf").unwrap(), f32::NEG_INFINITY.to_le_bytes());
        assert!(f32::from_le_bytes(bits("f32", "nan").unwrap().try_into().unwrap()).is_nan());
        assert_eq!(bits("i32", "0x7fffffff").unwrap(), i32::MAX.to_le_bytes());
        assert_eq!(bits("i8", "-128").unwrap(), [0x80]);
        assert_eq!(bits("i64", "1e3").unwrap(), 1000i64.to_le_bytes());
        assert_eq!(bits("bool", "true").unwrap(), [1]);
        assert_eq!(bits("f16", "1.0").unwrap(), half::f16::ONE.to_le_bytes());
        assert_eq!(bits("bf16", "2").unwrap(), half::bf16::from_f32(2.0).to_le_bytes());
        // 1 + 2^-24 lies halfway between f32 1.0 and its successor: ties to even.
        assert_eq!(bits("f32", "1.000000059604644775390625").unwrap(), 1.0f32.to_le_bytes());
    }

    #[test]
    fn values_a_type_cannot_hold_are_errors() {
        assert!(bits("i8", "128").unwrap_err().contains("does not fit i8 (-128 to 127)"));
        assert!(bits("i32", "2.5").unwrap_err().contains("has a fraction"));
        assert!(bits("f16", "70000").unwrap_err().contains("round to infinity"));
        assert!(bits("f32", "1e39").unwrap_err().contains("round to infinity"));
        assert!(bits("bool", "2").unwrap_err().contains("not a bool"));
        assert!(bits("f32", "x.npy").unwrap_err().contains("not a number"));
        assert!(bits("i32", "").is_err());
    }
}
