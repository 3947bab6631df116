//! CuTe's divides and products, by-mode composition with a tiler, and the rocPRIM thread
//! layouts (blocked, striped, warp_striped).

use crate::{
    layout::{Layout, LayoutError, Result},
    map::Map,
};

/// The second operand of a divide, product or composition: one layout, or a tiler
/// `<L1, L2, ...>` applied mode by mode.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Tiler {
    One(Map),
    Modes(Vec<Map>),
}

fn layout_of(m: Map, what: &str) -> Result<Layout> {
    match m {
        Map::Layout(l) => Ok(l),
        other => Err(LayoutError::Invalid(format!("{what} is not a layout: {other}"))),
    }
}

fn check_tiler_rank(a: &Layout, t: &[Map], op: &str) -> Result<()> {
    if t.len() > a.rank() {
        return Err(LayoutError::Invalid(format!("{op}: the tiler has {} modes, more than the {} of {a}", t.len(), a.rank())));
    }
    Ok(())
}

/// `compose(A, <B1, B2, ...>)`: mode i of A composed with Bi; A's other modes unchanged.
pub fn compose_by_mode(a: &Map, t: &Tiler) -> Result<Map> {
    match t {
        Tiler::One(b) => Map::compose(a, b),
        Tiler::Modes(bs) => {
            let a = a.layout("composition with a tiler")?;
            check_tiler_rank(a, bs, "compose")?;
            let mut modes = Vec::new();
            for (i, m) in a.modes().into_iter().enumerate() {
                modes.push(match bs.get(i) {
                    Some(b) => layout_of(Map::compose(&Map::Layout(m), b)?, &format!("mode {i} of the composition"))?,
                    None => m,
                });
            }
            Ok(Map::Layout(Layout::concat(&modes)))
        }
    }
}

/// `logical_divide(A, B) = A ∘ (B, complement(B, size(A)))`: modes (tile, rest).
fn divide_one(a: &Map, b: &Map) -> Result<Map> {
    let bl = b.layout("the divisor of logical_divide")?;
    let comp = bl.complement(a.size())?;
    Map::compose_keeping_modes(a, &Map::Layout(Layout::concat(&[bl.clone(), comp])))
}

/// (tile, rest) per mode, for the by-mode divides.
fn divide_modes(a: &Map, t: &Tiler, op: &str) -> Result<(Vec<Layout>, Vec<Layout>)> {
    match t {
        // One layout: the tile's and the rest's top-level modes (CuTe's tiled and flat forms
        // unpack them: tiled_divide((4,2,3):(2,1,8), 4:2) is ((2,2),2,3)).
        Tiler::One(b) => {
            let r = layout_of(divide_one(a, b)?, &format!("{op}'s division"))?;
            Ok((r.get(0).modes(), r.get(1).modes()))
        }
        Tiler::Modes(bs) => {
            let a = a.layout(op)?;
            check_tiler_rank(a, bs, op)?;
            let mut tiles = Vec::new();
            let mut rests = Vec::new();
            for (i, m) in a.modes().into_iter().enumerate() {
                match bs.get(i) {
                    Some(b) => {
                        let r = layout_of(divide_one(&Map::Layout(m), b)?, &format!("mode {i} of {op}"))?;
                        tiles.push(r.get(0));
                        rests.push(r.get(1));
                    }
                    None => rests.push(m),
                }
            }
            Ok((tiles, rests))
        }
    }
}

pub fn logical_divide(a: &Map, t: &Tiler) -> Result<Map> {
    match t {
        Tiler::One(b) => divide_one(a, b),
        Tiler::Modes(bs) => {
            let al = a.layout("logical_divide by a tiler")?;
            check_tiler_rank(al, bs, "logical_divide")?;
            let mut modes = Vec::new();
            for (i, m) in al.modes().into_iter().enumerate() {
                modes.push(match bs.get(i) {
                    Some(b) => layout_of(divide_one(&Map::Layout(m), b)?, &format!("mode {i} of logical_divide"))?,
                    None => m,
                });
            }
            Ok(Map::Layout(Layout::concat(&modes)))
        }
    }
}

/// How the zipped, tiled and flat forms arrange (firsts, seconds): the tiles and rests of a
/// divide, or A's modes and the products of a product.
enum Arrange {
    /// ((firsts), (seconds))
    Zipped,
    /// ((firsts), second0, second1, ...)
    Tiled,
    /// (first0, first1, ..., second0, second1, ...)
    Flat,
}

fn arrange(how: Arrange, (firsts, seconds): (Vec<Layout>, Vec<Layout>)) -> Map {
    let modes = match how {
        Arrange::Zipped => vec![Layout::concat(&firsts), Layout::concat(&seconds)],
        Arrange::Tiled => std::iter::once(Layout::concat(&firsts)).chain(seconds).collect(),
        Arrange::Flat => firsts.into_iter().chain(seconds).collect(),
    };
    Map::Layout(Layout::concat(&modes))
}

/// ((tiles), (rests)).
pub fn zipped_divide(a: &Map, t: &Tiler) -> Result<Map> {
    Ok(arrange(Arrange::Zipped, divide_modes(a, t, "zipped_divide")?))
}

/// ((tiles), rest0, rest1, ...).
pub fn tiled_divide(a: &Map, t: &Tiler) -> Result<Map> {
    Ok(arrange(Arrange::Tiled, divide_modes(a, t, "tiled_divide")?))
}

/// (tile0, tile1, ..., rest0, rest1, ...).
pub fn flat_divide(a: &Map, t: &Tiler) -> Result<Map> {
    Ok(arrange(Arrange::Flat, divide_modes(a, t, "flat_divide")?))
}

/// `logical_product(A, B) = (A, complement(A, size(A) · cosize(B)) ∘ B)`.
fn product_one(a: &Layout, b: &Map) -> Result<(Layout, Layout)> {
    let bl = b.layout("the second operand of a product")?;
    let target =
        a.size().checked_mul(bl.cosize()).ok_or_else(|| LayoutError::Invalid(format!("the product of {a} and {bl} is too large")))?;
    let comp = a.complement(target)?;
    let c = layout_of(Map::compose(&Map::Layout(comp), b)?, "the product's second mode")?;
    Ok((a.clone(), c))
}

fn product_modes(a: &Map, t: &Tiler, op: &str) -> Result<(Vec<Layout>, Vec<Layout>)> {
    let al = a.layout(op)?;
    match t {
        // One layout: A's and the product's top-level modes (tiled_product(A, B) is
        // (A, C0, C1, ...), flat_product (A0, A1, ..., C0, C1, ...), as in CuTe).
        Tiler::One(b) => {
            let (x, c) = product_one(al, b)?;
            Ok((x.modes(), c.modes()))
        }
        Tiler::Modes(bs) => {
            check_tiler_rank(al, bs, op)?;
            let mut xs = Vec::new();
            let mut cs = Vec::new();
            for (i, m) in al.modes().into_iter().enumerate() {
                match bs.get(i) {
                    Some(b) => {
                        let (x, c) = product_one(&m, b)?;
                        xs.push(x);
                        cs.push(c);
                    }
                    None => xs.push(m),
                }
            }
            Ok((xs, cs))
        }
    }
}

pub fn logical_product(a: &Map, t: &Tiler) -> Result<Map> {
    let (xs, cs) = product_modes(a, t, "logical_product")?;
    match t {
        Tiler::One(_) => Ok(Map::Layout(Layout::concat(&[Layout::concat(&xs), Layout::concat(&cs)]))),
        Tiler::Modes(_) => {
            let modes: Vec<Layout> = xs
                .iter()
                .enumerate()
                .map(|(i, x)| match cs.get(i) {
                    Some(c) => Layout::concat(&[x.clone(), c.clone()]),
                    None => x.clone(),
                })
                .collect();
            Ok(Map::Layout(Layout::concat(&modes)))
        }
    }
}

/// Pads a layout to `r` top-level modes with 1:0.
fn pad(l: &Layout, r: usize) -> Layout {
    let mut modes = l.modes();
    while modes.len() < r {
        modes.push(Layout::mode(1, 0));
    }
    Layout::tuple(&modes)
}

/// blocked (A first in each mode) or raked (B first) product: the logical product of A and B
/// padded to one rank, zipped mode by mode, each mode coalesced.
fn blocked_or_raked(a: &Map, b: &Map, raked: bool) -> Result<Map> {
    let al = a.layout("blocked/raked product")?;
    let bl = b.layout("blocked/raked product")?;
    let r = al.rank().max(bl.rank());
    let (ap, bp) = (pad(al, r), pad(bl, r));
    let (_, c) = product_one(&ap, &Map::Layout(bp))?;
    let cm = pad(&c, r).modes();
    let modes: Vec<Layout> = ap
        .modes()
        .into_iter()
        .zip(cm)
        .map(|(x, y)| if raked { Layout::concat(&[y, x]) } else { Layout::concat(&[x, y]) }.coalesce())
        .collect();
    Ok(Map::Layout(Layout::tuple(&modes)))
}

pub fn blocked_product(a: &Map, t: &Tiler) -> Result<Map> {
    match t {
        Tiler::One(b) => blocked_or_raked(a, b, false),
        Tiler::Modes(bs) => blocked_or_raked(a, &Map::Layout(tiler_layout(bs)?), false),
    }
}

pub fn raked_product(a: &Map, t: &Tiler) -> Result<Map> {
    match t {
        Tiler::One(b) => blocked_or_raked(a, b, true),
        Tiler::Modes(bs) => blocked_or_raked(a, &Map::Layout(tiler_layout(bs)?), true),
    }
}

fn tiler_layout(bs: &[Map]) -> Result<Layout> {
    Ok(Layout::concat(&bs.iter().map(|b| b.layout("a tiler's mode").cloned()).collect::<Result<Vec<_>>>()?))
}

/// ((A modes), (products)).
pub fn zipped_product(a: &Map, t: &Tiler) -> Result<Map> {
    Ok(arrange(Arrange::Zipped, product_modes(a, t, "zipped_product")?))
}

/// ((A modes), product0, product1, ...).
pub fn tiled_product(a: &Map, t: &Tiler) -> Result<Map> {
    Ok(arrange(Arrange::Tiled, product_modes(a, t, "tiled_product")?))
}

/// (A0, A1, ..., product0, product1, ...).
pub fn flat_product(a: &Map, t: &Tiler) -> Result<Map> {
    Ok(arrange(Arrange::Flat, product_modes(a, t, "flat_product")?))
}

/// rocPRIM's blocked layout: thread t holds items t·I .. t·I + I - 1: (T,I):(I,1).
pub fn blocked(t: i64, i: i64) -> Result<Layout> {
    positive(&[t, i], "blocked")?;
    Layout::new(
        crate::Tuple::Tup(vec![crate::Tuple::Int(t), crate::Tuple::Int(i)]),
        crate::Tuple::Tup(vec![crate::Tuple::Int(i), crate::Tuple::Int(1)]),
    )
}

/// rocPRIM's striped layout: item i of thread t is t + i·T: (T,I):(1,T).
pub fn striped(t: i64, i: i64) -> Result<Layout> {
    positive(&[t, i], "striped")?;
    Layout::new(
        crate::Tuple::Tup(vec![crate::Tuple::Int(t), crate::Tuple::Int(i)]),
        crate::Tuple::Tup(vec![crate::Tuple::Int(1), crate::Tuple::Int(t)]),
    )
}

/// rocPRIM's warp-striped layout, W threads per warp: ((W,T/W),I):((1,W·I),W).
pub fn warp_striped(t: i64, i: i64, w: i64) -> Result<Layout> {
    positive(&[t, i, w], "warp_striped")?;
    if t % w != 0 {
        return Err(LayoutError::Invalid(format!("warp_striped({t}, {i}, {w}): {t} threads are not whole warps of {w}")));
    }
    use crate::Tuple::{Int, Tup};
    Layout::new(Tup(vec![Tup(vec![Int(w), Int(t / w)]), Int(i)]), Tup(vec![Tup(vec![Int(1), Int(w * i)]), Int(w)]))
}

fn positive(v: &[i64], what: &str) -> Result<()> {
    if let Some(x) = v.iter().find(|x| **x <= 0) {
        return Err(LayoutError::Invalid(format!("{what} needs positive arguments, got {x}")));
    }
    Ok(())
}
