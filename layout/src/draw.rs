//! Drawing a thread/value layout: which thread holds each element, and as which value
//! (like Triton's `triton-tensor-layout`).

use crate::{map::Map, named::Named};

/// The (thread, value) of each logical element: the layout's first top-level mode is the
/// thread, the rest the value. Elements no coordinate reaches are None.
fn cells(m: &Map, threads: i64, n: i64) -> Vec<Option<(i64, i64)>> {
    let mut out = vec![None; n as usize];
    for x in 0..m.size() {
        let v = m.eval(x);
        if (0..n).contains(&v) && out[v as usize].is_none() {
            out[v as usize] = Some((x % threads, x / threads));
        }
    }
    out
}

/// The grid as text: `rows` rows of `cols` cells `T<t>V<v>` (row-major over the elements).
pub fn text(m: &Map, threads: i64, rows: i64, cols: i64) -> String {
    let c = cells(m, threads, rows * cols);
    let label = |x: &Option<(i64, i64)>| x.map(|(t, v)| format!("T{t}V{v}")).unwrap_or_else(|| "-".into());
    let width = c.iter().map(|x| label(x).len()).max().unwrap_or(1);
    let mut out = String::new();
    for r in 0..rows {
        let row: Vec<String> = (0..cols).map(|k| format!("{:>width$}", label(&c[(r * cols + k) as usize]))).collect();
        out.push_str(&row.join(" "));
        out.push('\n');
    }
    out
}

/// The grid as an SVG: one rectangle per element, coloured by thread, labelled T/V.
pub fn svg(m: &Map, threads: i64, rows: i64, cols: i64) -> String {
    let c = cells(m, threads, rows * cols);
    let (w, h) = (56, 28);
    let mut out = svg_header(cols * w, rows * h);
    for (i, cell) in c.iter().enumerate() {
        let i = i as i64;
        let (fill, label) = match cell {
            Some((t, v)) => (format!("hsl({},70%,80%)", (t * 137) % 360), format!("T{t}V{v}")),
            None => ("#eee".into(), "-".into()),
        };
        out.push_str(&svg_cell((i % cols) * w, (i / cols) * h, w, h, &fill, &label));
    }
    out.push_str("</svg>\n");
    out
}

/// A cell's label for a layout over named axes: each axis's initial and value (`L4W0R1`).
fn named_label(n: &Named, flat: i64) -> String {
    n.eval(flat).iter().map(|(axis, v)| format!("{}{v}", axis.chars().next().unwrap_or('?').to_ascii_uppercase())).collect()
}

/// The grid of a layout over named axes as text: `rows` rows of `cols` cells, row-major.
pub fn named_text(n: &Named, rows: i64, cols: i64) -> String {
    let labels: Vec<String> = (0..rows * cols).map(|i| named_label(n, i)).collect();
    let width = labels.iter().map(String::len).max().unwrap_or(1);
    let mut out = String::new();
    for r in 0..rows {
        let row: Vec<String> = (0..cols).map(|k| format!("{:>width$}", labels[(r * cols + k) as usize])).collect();
        out.push_str(&row.join(" "));
        out.push('\n');
    }
    out
}

/// The grid of a layout over named axes as an SVG, coloured by the first axis.
pub fn named_svg(n: &Named, rows: i64, cols: i64) -> String {
    let (w, h) = (64, 28);
    let mut out = svg_header(cols * w, rows * h);
    for i in 0..rows * cols {
        let first = n.eval(i).first().map(|(_, v)| *v).unwrap_or(0);
        out.push_str(&svg_cell((i % cols) * w, (i / cols) * h, w, h, &format!("hsl({},70%,80%)", (first * 137) % 360), &named_label(n, i)));
    }
    out.push_str("</svg>\n");
    out
}

fn svg_header(width: i64, height: i64) -> String {
    format!("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" font-family=\"monospace\" font-size=\"11\">\n")
}

fn svg_cell(x: i64, y: i64, w: i64, h: i64, fill: &str, label: &str) -> String {
    format!(
        "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" fill=\"{fill}\" stroke=\"#444\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{label}</text>\n",
        x + w / 2,
        y + h / 2 + 4
    )
}
