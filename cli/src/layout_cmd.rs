//! `phobos layout [FLAGS] EXPR`: evaluate a layout expression, print it in CuTe notation, and
//! check it (the interface is pinned: tests outside the project rely on it).
//!
//! Line 1 is the result (`--coalesce`: its coarsest form); `--table` adds its values at
//! 0..size-1; `--logical SHAPE` prints an `S[...]` layout's axes over a row-major logical shape;
//! `--draw` prints the thread/value grid. Errors: one line on stderr, exit 1.

use phobos_layout::{check_space, draw, expr, Layout, Map, Named, Space};

#[derive(clap::Args, Debug)]
pub struct LayoutArgs {
    /// The expression, e.g. `compose((6,2):(8,2),(4,3):(3,1))` (words are joined with spaces).
    #[arg(required = true, value_name = "EXPR")]
    expr: Vec<String>,
    /// Print the values at 0..size-1 on line 2.
    #[arg(long)]
    table: bool,
    /// Print the coarsest form of the result instead.
    #[arg(long)]
    coalesce: bool,
    /// Check that the result may map into this space (seed 001's rule).
    #[arg(long, value_name = "SPACE", value_parser = ["logical", "thread-value", "physical"])]
    into: Option<String>,
    /// The row-major logical shape (R,C,...) of an `S[...]` layout, or the grid of `--draw`.
    #[arg(long, value_name = "SHAPE")]
    logical: Option<String>,
    /// Draw the thread/value grid.
    #[arg(long, value_name = "FORMAT", value_parser = ["text", "svg"])]
    draw: Option<String>,
}

pub fn layout_cmd(a: LayoutArgs) -> i32 {
    match run(&a) {
        Ok(out) => {
            print!("{out}");
            0
        }
        Err(e) => {
            eprintln!("phobos: error: {e}");
            1
        }
    }
}

fn run(a: &LayoutArgs) -> Result<String, String> {
    let text = a.expr.join(" ");
    let logical = a.logical.as_deref().map(parse_shape).transpose()?;
    let mut out = String::new();
    match expr::eval(&text).map_err(|e| e.to_string())? {
        expr::Value::Int(n) => map_output(a, &Map::Layout(Layout::extent(n).map_err(|e| e.to_string())?), logical.as_deref(), &mut out)?,
        expr::Value::Map(m) => map_output(a, &m, logical.as_deref(), &mut out)?,
        expr::Value::Named(n) => named_output(a, &n, logical.as_deref(), &mut out)?,
        expr::Value::Tiler(_) => return Err(format!("`{text}` is a tiler; it is an operand of compose, a divide or a product")),
    }
    Ok(out)
}

fn map_output(a: &LayoutArgs, m: &Map, logical: Option<&[i64]>, out: &mut String) -> Result<(), String> {
    if let Some(space) = &a.into {
        check_space(m, Space::parse(space).expect("clap checked it")).map_err(|e| e.to_string())?;
    }
    if logical.is_some() && a.draw.is_none() {
        return Err("--logical applies to S[...] layouts, or gives the grid of --draw".into());
    }
    let shown = if a.coalesce { coarsest(m) } else { m.clone() };
    out.push_str(&format!("{shown}\n"));
    // Every size limit is checked before anything is enumerated.
    let grid = match &a.draw {
        Some(_) => Some(draw_grid(m, logical)?),
        None => None,
    };
    if a.table {
        phobos_layout::layout::check_enumerable(m.size(), "--table").map_err(|e| e.to_string())?;
        out.push_str(&join(m.values()));
        out.push('\n');
    }
    if let (Some(format), Some((rows, cols))) = (&a.draw, grid) {
        // The first top-level mode is the thread.
        let threads = match m {
            Map::Layout(l) => l.get(0).size(),
            _ => m.size(),
        };
        out.push_str(&if format == "svg" { draw::svg(m, threads, rows, cols) } else { draw::text(m, threads, rows, cols) });
    }
    Ok(())
}

/// The grid `--draw` draws `m` on: `--logical R,C`, else one row over the values (a layout's
/// largest value in closed form; another map's by enumeration, after the element limit).
fn draw_grid(m: &Map, logical: Option<&[i64]>) -> Result<(i64, i64), String> {
    phobos_layout::layout::check_enumerable(m.size(), "--draw").map_err(|e| e.to_string())?;
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

/// The most cells `--draw` draws: a larger grid is unreadable, and its SVG would be gigabytes.
const MAX_DRAW_CELLS: i64 = 1 << 16;

/// The most elements `--draw` places (threads may share cells, a broadcast): past this the
/// drawing is unreadable, and enumerating it would take seconds.
const MAX_DRAW_ELEMENTS: i64 = 1 << 20;

fn named_output(a: &LayoutArgs, n: &Named, logical: Option<&[i64]>, out: &mut String) -> Result<(), String> {
    if a.into.is_some() || a.coalesce {
        return Err("--into and --coalesce apply to layouts, not to S[...] layouts over named axes".into());
    }
    out.push_str(&format!("{n}\n"));
    let shape = logical.map(<[i64]>::to_vec).unwrap_or_else(|| n.shape.clone());
    // The drawing's size is checked before the table is enumerated.
    if a.draw.is_some() {
        let [rows, cols] = shape[..] else { return Err("--draw needs a two-dimensional --logical R,C".into()) };
        if rows.saturating_mul(cols) > MAX_DRAW_CELLS {
            return Err(format!(
                "--draw: a grid of {rows} x {cols} cells is more than the {MAX_DRAW_CELLS} a drawing shows; give a smaller --logical"
            ));
        }
    }
    if logical.is_some() || a.table {
        for line in n.table(&shape).map_err(|e| e.to_string())? {
            out.push_str(&line);
            out.push('\n');
        }
    }
    if let (Some(format), &[rows, cols]) = (&a.draw, &shape[..]) {
        out.push_str(&if format == "svg" { draw::named_svg(n, rows, cols) } else { draw::named_text(n, rows, cols) });
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

/// `R,C,...` or `(R,C,...)`: positive extents.
fn parse_shape(s: &str) -> Result<Vec<i64>, String> {
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
