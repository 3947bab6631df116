//! The expression language of `phobos layout`: layouts in CuTe notation and the algebra's
//! operations, nested freely.
//!
//! ```text
//! expr   := layout | named | call
//! layout := tuple [":" tuple]            (a shape alone is compact column-major)
//! tuple  := int | "(" tuple ("," tuple)* ")"
//! named  := "S[" "(" ints ")" ":" "(" int["@"name] ("," ...)* ")" "]"
//! call   := name "(" arg ("," arg)* ")"
//! arg    := expr | int | "<" expr ("," expr)* ">"
//! ```

use crate::{
    layout::{Layout, LayoutError, Result},
    map::Map,
    named::Named,
    ops::{self, Tiler},
    tuple::Tuple,
};

/// A value of the language.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Value {
    Map(Map),
    Int(i64),
    Tiler(Vec<Map>),
    Named(Named),
}

struct P<'a> {
    s: &'a [u8],
    text: &'a str,
    i: usize,
    depth: u32,
}

fn err<T>(msg: String) -> Result<T> {
    Err(LayoutError::Invalid(msg))
}

impl P<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }
    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.s.get(self.i).copied()
    }
    fn eat(&mut self, c: u8) -> Result<()> {
        if self.peek() == Some(c) {
            self.i += 1;
            Ok(())
        } else {
            self.expected(&format!("'{}'", c as char))
        }
    }
    fn expected<T>(&self, what: &str) -> Result<T> {
        let found = match self.s.get(self.i) {
            Some(c) => format!("'{}'", *c as char),
            None => "the end".into(),
        };
        err(format!("at column {}: expected {what}, found {found} in `{}`", self.i + 1, self.text))
    }
    fn int(&mut self) -> Result<i64> {
        self.ws();
        let start = self.i;
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        while self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
            self.i += 1;
        }
        let t = &self.text[start..self.i];
        if t.is_empty() || t == "-" {
            self.i = start;
            return self.expected("an integer");
        }
        let v: i64 = t.parse().map_err(|_| LayoutError::Invalid(format!("at column {}: {t} does not fit in 64 bits", start + 1)))?;
        // Every integer of the notation is a size, a stride or a small parameter: bounded, so
        // that arithmetic on them cannot overflow.
        if v.unsigned_abs() > crate::layout::MAX_SIZE as u64 {
            return Err(LayoutError::Invalid(format!(
                "at column {}: {t} is outside [-{m}, {m}], the range of sizes and strides",
                start + 1,
                m = crate::layout::MAX_SIZE
            )));
        }
        Ok(v)
    }
    fn name(&mut self) -> String {
        self.ws();
        let start = self.i;
        while self.i < self.s.len() && (self.s[self.i].is_ascii_alphanumeric() || self.s[self.i] == b'_') {
            self.i += 1;
        }
        self.text[start..self.i].to_string()
    }
    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > 64 {
            return err("the expression nests deeper than 64 levels".into());
        }
        Ok(())
    }
    /// `item ("," item)* close`: a non-empty list (the opening bracket already eaten).
    fn list<T>(&mut self, close: u8, item: fn(&mut Self) -> Result<T>) -> Result<Vec<T>> {
        let mut v = vec![item(self)?];
        while self.peek() == Some(b',') {
            self.i += 1;
            v.push(item(self)?);
        }
        self.eat(close)?;
        Ok(v)
    }
    fn tuple(&mut self) -> Result<Tuple> {
        self.enter()?;
        let t = if self.peek() == Some(b'(') {
            self.i += 1;
            Tuple::Tup(self.list(b')', P::tuple)?)
        } else {
            Tuple::Int(self.int()?)
        };
        self.depth -= 1;
        Ok(t)
    }
    fn named(&mut self) -> Result<Named> {
        self.eat(b'[')?;
        self.eat(b'(')?;
        let shape = self.list(b')', P::int)?;
        self.eat(b':')?;
        self.eat(b'(')?;
        let mut strides = Vec::new();
        loop {
            let d = self.int()?;
            let axis = if self.peek() == Some(b'@') {
                self.i += 1;
                let n = self.name();
                if n.is_empty() {
                    return self.expected("an axis name after '@'");
                }
                Some(n)
            } else {
                None
            };
            strides.push((d, axis));
            if self.peek() != Some(b',') {
                break;
            }
            self.i += 1;
        }
        self.eat(b')')?;
        self.eat(b']')?;
        if shape.len() != strides.len() {
            return err(format!("S[...] has {} extents but {} strides", shape.len(), strides.len()));
        }
        if let Some(s) = shape.iter().find(|s| **s <= 0) {
            return err(format!("S[...] has a non-positive extent {s}"));
        }
        let n = Named { shape, strides };
        n.check(Named::MAX_WARPS)?;
        Ok(n)
    }
    fn value(&mut self) -> Result<Value> {
        self.enter()?;
        let v = match self.peek() {
            Some(b'(') | Some(b'0'..=b'9') | Some(b'-') => {
                let shape = self.tuple()?;
                if self.peek() == Some(b':') {
                    self.i += 1;
                    let stride = self.tuple()?;
                    Value::Map(Map::Layout(Layout::new(shape, stride)?))
                } else if let Tuple::Int(v) = shape {
                    Value::Int(v)
                } else {
                    if let Some(s) = shape.leaves().iter().find(|s| **s <= 0) {
                        return err(format!("shape {shape} has a non-positive extent {s}"));
                    }
                    let c = Layout::compact(shape);
                    Value::Map(Map::Layout(Layout::new(c.shape, c.stride)?))
                }
            }
            Some(b'<') => {
                self.i += 1;
                Value::Tiler(self.list(b'>', P::map_arg)?)
            }
            Some(c) if c.is_ascii_alphabetic() => {
                let name = self.name();
                if name == "S" && self.peek() == Some(b'[') {
                    Value::Named(self.named()?)
                } else {
                    self.eat(b'(')?;
                    let args = self.list(b')', P::value)?;
                    call(&name, args)?
                }
            }
            _ => return self.expected("a layout, an integer or an operation"),
        };
        self.depth -= 1;
        Ok(v)
    }
    fn map_arg(&mut self) -> Result<Map> {
        match self.value()? {
            Value::Map(m) => Ok(m),
            Value::Int(n) => Ok(Map::Layout(Layout::extent(n)?)),
            Value::Named(n) => err(format!("a tiler's modes are layouts, got {n}")),
            Value::Tiler(_) => err("a tiler's modes are layouts, got a tiler".into()),
        }
    }
}

/// Parses and evaluates an expression.
pub fn eval(text: &str) -> Result<Value> {
    let mut p = P { s: text.as_bytes(), text, i: 0, depth: 0 };
    let v = p.value()?;
    if p.peek().is_some() {
        return p.expected("the end of the expression");
    }
    Ok(v)
}

fn map(v: Value, f: &str, k: usize) -> Result<Map> {
    match v {
        Value::Map(m) => Ok(m),
        Value::Int(n) => Ok(Map::Layout(Layout::extent(n)?)),
        _ => err(format!("argument {} of {f} must be a layout", k + 1)),
    }
}

fn int(v: &Value, f: &str, k: usize) -> Result<i64> {
    match v {
        Value::Int(n) => Ok(*n),
        _ => err(format!("argument {} of {f} must be an integer", k + 1)),
    }
}

fn tiler(v: Value, f: &str) -> Result<Tiler> {
    match v {
        Value::Tiler(t) => Ok(Tiler::Modes(t)),
        v => Ok(Tiler::One(map(v, f, 1)?)),
    }
}

fn arity(f: &str, args: &[Value], n: usize) -> Result<()> {
    if args.len() != n {
        return err(format!("{f} takes {n} argument{}, got {}", if n == 1 { "" } else { "s" }, args.len()));
    }
    Ok(())
}

/// `f(args)`, its result within the limits every layout keeps (sizes and strides up to 2^32,
/// values below 2^62): a composition of two valid layouts can pass them, and the result must
/// be a layout Phobos reads back.
fn call(f: &str, args: Vec<Value>) -> Result<Value> {
    let v = call_unchecked(f, args)?;
    if let Value::Map(Map::Layout(l)) = &v {
        Layout::new(l.shape.clone(), l.stride.clone()).map_err(|e| {
            crate::LayoutError::Invalid(format!(
                "the result of {f} is out of range: {}",
                e.to_string().trim_start_matches("invalid layout: ")
            ))
        })?;
    }
    Ok(v)
}

fn call_unchecked(f: &str, mut args: Vec<Value>) -> Result<Value> {
    type Op2 = fn(&Map, &Tiler) -> Result<Map>;
    let binary: Option<Op2> = match f {
        "compose" => Some(ops::compose_by_mode),
        "logical_divide" => Some(ops::logical_divide),
        "zipped_divide" => Some(ops::zipped_divide),
        "tiled_divide" => Some(ops::tiled_divide),
        "flat_divide" => Some(ops::flat_divide),
        "logical_product" => Some(ops::logical_product),
        "blocked_product" => Some(ops::blocked_product),
        "raked_product" => Some(ops::raked_product),
        "zipped_product" => Some(ops::zipped_product),
        "tiled_product" => Some(ops::tiled_product),
        "flat_product" => Some(ops::flat_product),
        _ => None,
    };
    if let Some(op) = binary {
        arity(f, &args, 2)?;
        let b = args.pop().expect("two");
        let a = map(args.pop().expect("two"), f, 0)?;
        return Ok(Value::Map(op(&a, &tiler(b, f)?)?));
    }
    Ok(Value::Map(match f {
        "coalesce" => {
            arity(f, &args, 1)?;
            let m = map(args.pop().expect("one"), f, 0)?;
            Map::Layout(m.layout("coalesce")?.coalesce())
        }
        "complement" => {
            arity(f, &args, 2)?;
            let n = int(&args[1], f, 1)?;
            let m = map(args.swap_remove(0), f, 0)?;
            Map::Layout(m.layout("complement")?.complement(n)?)
        }
        "right_inverse" => {
            arity(f, &args, 1)?;
            let m = map(args.pop().expect("one"), f, 0)?;
            Map::Layout(m.layout("right_inverse")?.right_inverse())
        }
        "left_inverse" => {
            arity(f, &args, 1)?;
            let m = map(args.pop().expect("one"), f, 0)?;
            let l = m.layout("left_inverse")?;
            match l.left_inverse() {
                Ok(li) => Map::Layout(li),
                // Injective, but no layout is its left inverse: the function, by its values.
                Err(crate::LayoutError::NotComplementable { why, .. }) if why.starts_with("has a left-inverse function") => {
                    Map::Table { name: format!("left_inverse({l})"), values: l.left_inverse_table() }
                }
                Err(e) => return Err(e),
            }
        }
        "blocked" | "striped" => {
            arity(f, &args, 2)?;
            let (t, i) = (int(&args[0], f, 0)?, int(&args[1], f, 1)?);
            Map::Layout(if f == "blocked" { ops::blocked(t, i)? } else { ops::striped(t, i)? })
        }
        "warp_striped" => {
            arity(f, &args, 3)?;
            Map::Layout(ops::warp_striped(int(&args[0], f, 0)?, int(&args[1], f, 1)?, int(&args[2], f, 2)?)?)
        }
        // The tensor-core accumulator of an M x N fragment on T threads: `mma_c(M, N, T)` in the
        // warp tiling the compiler picks, `mma_c(M, N, T, warps_m, warps_n)` in a given one.
        "mma_c" => {
            if args.len() != 3 && args.len() != 5 {
                return err(format!("mma_c takes 3 arguments (M, N, threads) or 5 (and warps along M, N), got {}", args.len()));
            }
            let v: Vec<i64> = (0..args.len()).map(|k| int(&args[k], f, k)).collect::<Result<_>>()?;
            let t = match v[..] {
                [m, n, threads] => crate::mma::MmaTiling::choose(m, n, threads),
                [m, n, threads, wm, wn] => crate::mma::MmaTiling::with_warps(m, n, threads, wm, wn),
                _ => unreachable!("checked above"),
            };
            match eval(&t.or_else(|e| err(format!("mma_c: {e}")))?.layout_text())? {
                Value::Map(m) => m,
                _ => unreachable!("a layout text is a layout"),
            }
        }
        // One instruction's operand fragments: `mma_a(K)`, `mma_b(K)` for K = 16, 8, 32.
        "mma_a" | "mma_b" => {
            arity(f, &args, 1)?;
            let k = int(&args[0], f, 0)?;
            let Some(text) = crate::mma::operand_layout_text(if f == "mma_a" { 'a' } else { 'b' }, k) else {
                return err(format!("{f}({k}): the instruction's K is 16 (f16, bf16), 8 (tf32) or 32 (s8)"));
            };
            match eval(&text)? {
                Value::Map(m) => m,
                _ => unreachable!("a layout text is a layout"),
            }
        }
        "swizzle" => {
            arity(f, &args, 4)?;
            let (b, m, s) = (int(&args[0], f, 0)?, int(&args[1], f, 1)?, int(&args[2], f, 2)?);
            if !(0..=16).contains(&b) || !(0..=32).contains(&m) || s.abs() > 32 || (s.abs() < b && b > 0) {
                return err(format!("swizzle({b},{m},{s},...): B and M must be 0..16 and 0..32, and |S| at least B"));
            }
            let inner = map(args.swap_remove(3), f, 3)?;
            Map::Swizzle { b: b as u32, m: m as u32, s: s as i32, inner: Box::new(inner) }
        }
        _ => {
            return err(format!(
                "unknown operation '{f}' (coalesce, compose, complement, right_inverse, left_inverse, logical/zipped/tiled/flat_divide, \
                 logical/blocked/raked/zipped/tiled/flat_product, blocked, striped, warp_striped, mma_a, mma_b, mma_c, swizzle)"
            ))
        }
    }))
}
