//! `phobos explain --format html`: one self-contained page (inline SVG drawn by vanilla JS from
//! the facts embedded as JSON; no network, no build step).
//!
//! `page.html#selftest` steps through every step with the page's own Next button, checks that
//! the figures are drawn and that nothing was reported on the console, and writes the verdict
//! into `<pre id="selftest">` (`PASS steps=N` or `FAIL: ...`), which a headless browser's
//! `--dump-dom` reads back (the test suite's browser test).

use super::facts::Explanation;

const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

pub fn render(e: &Explanation) -> String {
    // Inside a script element, `</script` ends it and `<!--<script` changes how the rest is
    // read: no `<`, `>` or `&` may appear as such. JSON reads their \u escapes as the same text.
    let facts =
        serde_json::to_string(e).expect("the facts serialize").replace('<', "\\u003c").replace('>', "\\u003e").replace('&', "\\u0026");
    let title = format!("{} — phobos explain", e.kernel).replace('&', "&amp;").replace('<', "&lt;");
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{title}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n\
<header id=\"head\"></header>\n<main>\n<section id=\"source\"></section>\n<section id=\"figure\">\n\
<nav id=\"controls\"><button id=\"prev\">&larr; Prev</button> <span id=\"counter\"></span> <button id=\"next\">Next &rarr;</button></nav>\n\
<div id=\"drawing\"></div>\n<p id=\"readout\"></p>\n<ul id=\"legend\"></ul>\n</section>\n</main>\n<section id=\"summary\"></section>\n\
<pre id=\"selftest\" hidden></pre>\n<script type=\"application/json\" id=\"facts\">{facts}</script>\n<script>\n{SCRIPT}</script>\n</body>\n</html>\n"
    )
}
