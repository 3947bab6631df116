//! What `phobos layout` prints for an expression, as a library call (the CLI and the Python
//! package share it): line 1 is the result (with `coalesce`, its coarsest form); `table` adds
//! its values at 0..size-1; `logical` gives an `S[...]` layout's logical shape (its axes are
//! printed over it) or the grid a drawing uses; `draw` appends the thread/value grid.

use crate::{check_space, draw, expr, Layout, Map, Named, Space};

/// What to print besides the result.
#[derive(Clone, Debug, Default)]
pub struct Query {
    /// The values at 0..size-1 (line 2).
    pub table: bool,
    /// The coarsest form of the result instead of the result.
    pub coalesce: bool,
    /// Check that the result may map into this space (docs/layouts.md, "Spaces").
    pub into: Option<Space>,
    /// The row-major logical shape of an `S[...]` layout, or the grid of the drawing.
    pub logical: Option<Vec<i64>>,
    /// Draw the thread/value grid as SVG (`true`) or text (`false`).
    pub draw: Option<Format>,
}

/// How a drawing is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Characters, one cell per value.
    Text,
    /// A self-contained SVG image.
    Svg,
}

/// The answer to `query` on the expression `text`: the lines `phobos layout` prints.
pub fn answer(text: &str, query: &Query) -> Result<String, String> {
    let logical = query.logical.as_deref();
    let mut out = String::new();
    match expr::eval(text).map_err(|e| e.to_string())? {
        expr::Value::Int(n) => map_output(query, &Map::Layout(Layout::extent(n).map_err(|e| e.to_string())?), logical, &mut out)?,
        expr::Value::Map(m) => map_output(query, &m, logical, &mut out)?,
        expr::Value::Named(n) => named_output(query, &n, logical, &mut out)?,
        expr::Value::Tiler(_) => return Err(format!("`{text}` is a tiler; it is an operand of compose, a divide or a product")),
    }
    Ok(out)
}

fn map_output(q: &Query, m: &Map, logical: Option<&[i64]>, out: &mut String) -> Result<(), String> {
    if let Some(space) = q.into {
        check_space(m, space).map_err(|e| e.to_string())?;
    }
    if logical.is_some() && q.draw.is_none() {
        return Err("--logical applies to S[...] layouts, or gives the grid of --draw".into());
    }
    let shown = if q.coalesce { coarsest(m) } else { m.clone() };
    out.push_str(&format!("{shown}\n"));
    // Every size limit is checked before anything is enumerated.
    let grid = match &q.draw {
        Some(_) => Some(draw_grid(m, logical)?),
        None => None,
    };
    if q.table {
        crate::layout::check_enumerable(m.size(), "--table").map_err(|e| e.to_string())?;
        out.push_str(&join(m.values()));
        out.push('\n');
    }
    if let (Some(format), Some((rows, cols))) = (q.draw, grid) {
        // The first top-level mode is the thread.
        let threads = match m {
            Map::Layout(l) => l.get(0).size(),
            _ => m.size(),
        };
        out.push_str(&match format {
            Format::Svg => draw::svg(m, threads, rows, cols),
            Format::Text => draw::text(m, threads, rows, cols),
        });
    }
    Ok(())
}

/// The grid a drawing of `m` uses: `logical` (R,C), else one row over the values (a layout's
/// largest value in closed form; another map's by enumeration, after the element limit).
fn draw_grid(m: &Map, logical: Option<&[i64]>) -> Result<(i64, i64), String> {
    crate::layout::check_enumerable(m.size(), "--draw").map_err(|e| e.to_string())?;
    let cells = |rows: i64, cols: i64| -> Result<(i64, i64), String> {
        if rows.saturating_mul(cols) > MAX_DRAW_CELLS {
            return Err(format!(
                "--draw: a grid of {rows} x {cols} cells is more than the {MAX_DRAW_CELLS} a drawing shows; give a smaller --logical"
            ));
        }
        Ok((rows, cols))
    };
    let known = match (logical, m) {
        (Some([r, c]), _) => Some(cells(*r, *c)?),
        (Some(_), _) => return Err("--draw needs a two-dimensional --logical R,C".into()),
        (None, Map::Layout(l)) => Some(cells(1, l.value_range().1 + 1)?),
        (None, _) => None,
    };
    if m.size() > MAX_DRAW_ELEMENTS {
        return Err(format!("--draw: {} elements are more than the {MAX_DRAW_ELEMENTS} a drawing shows", m.size()));
    }
    match known {
        Some(g) => Ok(g),
        None => cells(1, m.values().into_iter().max().unwrap_or(0) + 1),
    }
}

/// The most cells a drawing has: a larger grid is unreadable, and its SVG would be gigabytes.
const MAX_DRAW_CELLS: i64 = 1 << 16;

/// The most elements a drawing places (threads may share cells, a broadcast): past this the
/// drawing is unreadable, and enumerating it would take seconds.
const MAX_DRAW_ELEMENTS: i64 = 1 << 20;

fn named_output(q: &Query, n: &Named, logical: Option<&[i64]>, out: &mut String) -> Result<(), String> {
    if q.into.is_some() || q.coalesce {
        return Err("--into and --coalesce apply to layouts, not to S[...] layouts over named axes".into());
    }
    out.push_str(&format!("{n}\n"));
    let shape = logical.map(<[i64]>::to_vec).unwrap_or_else(|| n.shape.clone());
    // The drawing's size is checked before the table is enumerated.
    if q.draw.is_some() {
        let [rows, cols] = shape[..] else { return Err("--draw needs a two-dimensional --logical R,C".into()) };
        if rows.saturating_mul(cols) > MAX_DRAW_CELLS {
            return Err(format!(
                "--draw: a grid of {rows} x {cols} cells is more than the {MAX_DRAW_CELLS} a drawing shows; give a smaller --logical"
            ));
        }
    }
    if logical.is_some() || q.table {
        for line in n.table(&shape).map_err(|e| e.to_string())? {
            out.push_str(&line);
            out.push('\n');
        }
    }
    if let (Some(format), &[rows, cols]) = (q.draw, &shape[..]) {
        out.push_str(&match format {
            Format::Svg => draw::named_svg(n, rows, cols),
            Format::Text => draw::named_text(n, rows, cols),
        });
    }
    Ok(())
}

/// The coarsest form: a layout coalesced; a composite or swizzle with coalesced parts.
fn coarsest(m: &Map) -> Map {
    match m {
        Map::Layout(l) => Map::Layout(l.coalesce()),
        Map::Compose(a, b) => Map::Compose(Box::new(coarsest(a)), Box::new(coarsest(b))),
        Map::Swizzle { b, m: bits, s, inner } => Map::Swizzle { b: *b, m: *bits, s: *s, inner: Box::new(coarsest(inner)) },
        Map::Table { .. } => m.clone(),
    }
}

/// `R,C,...` or `(R,C,...)`: positive extents (`--logical`).
pub fn parse_shape(s: &str) -> Result<Vec<i64>, String> {
    let t = s.trim().trim_start_matches('(').trim_end_matches(')');
    let v: Vec<i64> = t
        .split(',')
        .map(|x| x.trim().parse::<i64>().ok().filter(|v| *v > 0))
        .collect::<Option<_>>()
        .ok_or_else(|| format!("--logical {s}: expected positive extents like 8,16"))?;
    Ok(v)
}

fn join(v: Vec<i64>) -> String {
    v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" ")
}
