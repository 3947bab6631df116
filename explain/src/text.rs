//! `phobos explain --format text`: the facts a line each, for terminals and tests.
//!
//! Pinned lines (tests outside rely on them): one per planned shared buffer,
//! `shared NAME: offset O, B bytes`; one per barrier, `barrier at LINE: kept (REASON)` or
//! `barrier at LINE: elided (REASON)`.

use super::facts::Explanation;
use std::fmt::Write;

pub fn render(e: &Explanation) -> String {
    let mut o = String::new();
    let [gx, gy, gz] = e.grid;
    let [cx, cy, cz] = e.cta;
    let _ = writeln!(
        o,
        "{} ({}) for {}: grid {gx}x{gy}x{gz} of {} threads, CTA ({cx}, {cy}, {cz}) of {} CTA{}",
        e.kernel,
        e.entry,
        e.chip,
        e.threads,
        e.summary.ctas,
        if e.summary.ctas == 1 { "" } else { "s" }
    );
    let _ = writeln!(
        o,
        "shared memory: {} bytes ({} static, {} dynamic)",
        e.shared.static_bytes + e.shared.dynamic_bytes,
        e.shared.static_bytes,
        e.shared.dynamic_bytes
    );
    for b in &e.shared.buffers {
        if b.is_static {
            let _ = writeln!(o, "static shared {}: offset {}, {} bytes", b.name, b.offset, b.bytes);
        } else {
            let _ = writeln!(o, "shared {}: offset {}, {} bytes", b.name, b.offset, b.bytes);
        }
    }
    for b in &e.barriers {
        let _ = writeln!(o, "barrier at {}: {} ({})", b.line, if b.kept { "kept" } else { "elided" }, b.reason);
    }
    for p in &e.pipelines {
        let bufs: Vec<String> =
            p.buffers.iter().map(|b| format!("{} ({} bytes each from shared byte {})", b.name, b.stage_bytes, b.start)).collect();
        let _ = writeln!(o, "pipeline at line {}: {} stages of {}", p.line, p.stages, bufs.join(", "));
        for r in &p.rows {
            let mut parts = Vec::new();
            if !r.reads.is_empty() {
                parts.push(format!("reads {}", p.names(&r.reads)));
            }
            if !r.copies.is_empty() {
                parts.push(format!("copies into {}", p.names(&r.copies)));
            }
            let _ = writeln!(o, "  {}: {}", r.label, parts.join("; "));
        }
        if p.more > 0 {
            let _ = writeln!(o, "  ... {} more iterations", p.more);
        }
    }
    for f in &e.fragments {
        let _ = writeln!(o, "fragment at line {}: {}", f.line, f.what);
        let _ = writeln!(o, "  C: warp 0 holds rows 0-{}, columns 0-{}; its first 16 x 8, lane:item", f.warp_m - 1, f.warp_n - 1);
        grid(&mut o, "C", &f.c, 8);
        if !f.a.is_empty() {
            let _ = writeln!(o, "  A of one instruction (16 x {}), lane:register element", f.k);
            grid(&mut o, "A", &f.a, f.k as usize);
            let _ = writeln!(o, "  B of one instruction ({} x 8), lane:register element", f.k);
            grid(&mut o, "B", &f.b, 8);
        }
        for t in &f.tiles {
            let [b, m, s] = t.swizzle;
            let rows: Vec<String> = t.groups.iter().map(|r| r.iter().map(|g| g.to_string()).collect::<Vec<_>>().join(" ")).collect();
            let _ = writeln!(
                o,
                "  tile {} ({}x{}, {}-byte rows) under swizzle({b},{m},{s}), {}: 4-bank group of each 16-byte chunk of rows 0-{}: {}",
                t.name,
                t.rows,
                t.cols,
                t.row_bytes,
                t.conflicts,
                t.groups.len().saturating_sub(1),
                rows.join(" | ")
            );
        }
    }
    for (i, s) in e.steps.iter().enumerate() {
        let _ = writeln!(o, "step {} line {}: {}", i + 1, s.line, s.text);
        let _ = writeln!(o, "  {}", s.readout);
        for sh in &s.shuffles {
            let times = if sh.count > 1 { format!(" x{}", sh.count) } else { String::new() };
            let _ = writeln!(o, "  shuffle {}{times}: {}", sh.pattern, arcs(&sh.src));
        }
    }
    let m = &e.summary;
    let _ = writeln!(o, "summary:");
    let _ = writeln!(o, "  shuffles: {} in the PTX, {} run by warp 0", m.shuffles, m.shuffles_run);
    let _ = writeln!(o, "  barriers: {} kept, {} elided", m.barriers_kept, m.barriers_elided);
    let _ = writeln!(o, "  shared_bytes: {}", m.shared_bytes);
    match m.registers {
        Some(r) => {
            let _ = writeln!(o, "  registers: {r}");
        }
        None => {
            let _ = writeln!(o, "  registers: unknown (no ptxas)");
        }
    }
    let _ = writeln!(o, "  global_bytes: {} moved in 128-byte lines, {} needed", m.bytes_moved, m.bytes_needed);
    let _ = writeln!(o, "  bank_conflicts: {}", m.bank_conflicts);
    let _ = writeln!(o, "  masked_elements: {}", m.masked);
    o
}

/// `0<-16 1<-17 ...` for the lanes that read another lane (at most 8 shown).
fn arcs(src: &[i8]) -> String {
    let moved: Vec<String> =
        src.iter().enumerate().filter(|(l, s)| **s >= 0 && **s as usize != *l).map(|(l, s)| format!("{l}<-{s}")).collect();
    let n = moved.len();
    let mut out = moved.into_iter().take(8).collect::<Vec<_>>().join(" ");
    if n > 8 {
        let _ = write!(out, " ... ({n} lanes)");
    }
    if n == 0 {
        out = "no lane reads another".into();
    }
    out
}

/// `(lane, element)` pairs row-major, `cols` a row: a line per row, `lane:element` each.
fn grid(o: &mut String, name: &str, cells: &[(u32, u32)], cols: usize) {
    for (r, row) in cells.chunks(cols.max(1)).enumerate() {
        let text: Vec<String> = row.iter().map(|(l, e)| format!("{l}:{e}")).collect();
        let _ = writeln!(o, "    {name} row {r}: {}", text.join(" "));
    }
}
