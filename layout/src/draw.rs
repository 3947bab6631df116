//! Drawing a thread/value layout: which thread holds each element, and as which value
//! (like Triton's `triton-tensor-layout`).

use crate::map::Map;

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
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" font-family=\"monospace\" font-size=\"11\">\n",
        cols * w,
        rows * h
    );
    for r in 0..rows {
        for k in 0..cols {
            let (x, y) = (k * w, r * h);
            let (fill, label) = match c[(r * cols + k) as usize] {
                Some((t, v)) => (format!("hsl({},70%,80%)", (t * 137) % 360), format!("T{t}V{v}")),
                None => ("#eee".into(), "-".into()),
            };
            out.push_str(&format!(
                "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\" fill=\"{fill}\" stroke=\"#444\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{label}</text>\n",
                x + w / 2,
                y + h / 2 + 4
            ));
        }
    }
    out.push_str("</svg>\n");
    out
}
