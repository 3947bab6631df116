"use strict";
// phobos explain: draws the facts of one step at a time. Figures: the tensors in global
// memory with the CTA's boxes, shared memory as a byte ruler, a pipelined loop's timeline, a
// tensor-core product's fragments and tiles' banks, the barriers, the CTA's threads, warp 0's
// lanes with each shuffle as arcs.
const F = JSON.parse(document.getElementById("facts").textContent);
const NS = "http://www.w3.org/2000/svg";
const C = { read: "#3182ce", write: "#dd6b20", extra: "#bee3f8", masked: "#a0aec0", idle: "#edf2f7", active: "#38a169", shared: "#805ad5" };
let current = 0;
// A kernel with an empty body still gets a page: one step saying so.
if (F.steps.length === 0)
  F.steps.push({ line: 0, col: 0, end_line: 0, text: "(no statements)", depth: 0, compound: false, insts: 0, warp_execs: 0, thread_words: [], thread_count: 0, warp0: 0, accesses: [], shuffles: [], barriers_run: 0, mma_run: 0, ldmatrix_run: 0, masked: 0, readout: "the kernel body has no statements" });

function el(tag, attrs, parent, text) {
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}
function html(tag, parent, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  parent.appendChild(e);
  return e;
}
function svg(parent, w, h, id) {
  const s = el("svg", { width: w, height: h, viewBox: `0 0 ${w} ${h}` });
  if (id) s.id = id;
  parent.appendChild(s);
  return s;
}

// A tensor as rows x columns (leading dimensions folded into rows).
function grid2(shape) {
  if (shape.length === 0) return [1, 1];
  const cols = shape[shape.length - 1];
  const rows = shape.slice(0, -1).reduce((a, b) => a * b, 1);
  return [rows, cols];
}

// Marks cells [c0, c1) of element row r with state s in a downsampled grid (max of states).
function markRow(cells, g, r, c0, c1, s) {
  if (c1 <= c0) return;
  const cr = Math.floor(r / g.br);
  for (let c = Math.floor(c0 / g.bc); c <= Math.floor((c1 - 1) / g.bc); c++) {
    const i = cr * g.ncols + c;
    if (cells[i] < s) cells[i] = s;
  }
}
function markRange(cells, g, start, len, s) {
  const end = Math.min(start + len, g.rows * g.cols);
  if (end <= start) return;
  const r0 = Math.floor(start / g.cols), r1 = Math.floor((end - 1) / g.cols);
  if (r0 === r1) return markRow(cells, g, r0, start - r0 * g.cols, end - r0 * g.cols, s);
  markRow(cells, g, r0, start - r0 * g.cols, g.cols, s);
  markRow(cells, g, r1, 0, end - r1 * g.cols, s);
  // Whole rows between: a cell row at a time, however many element rows that is.
  for (let cr = Math.floor((r0 + 1) / g.br); cr <= Math.floor((r1 - 1) / g.br) && r0 + 1 <= r1 - 1; cr++)
    for (let c = 0; c < g.ncols; c++) {
      const i = cr * g.ncols + c;
      if (cells[i] < s) cells[i] = s;
    }
}

function drawTensor(parent, t, step) {
  const [rows, cols] = grid2(t.shape);
  const g = { rows, cols, bc: Math.max(1, Math.ceil(cols / 64)), br: Math.max(1, Math.ceil(rows / 24)) };
  g.ncols = Math.ceil(cols / g.bc);
  g.nrows = Math.ceil(rows / g.br);
  const cell = Math.max(3, Math.min(14, Math.floor(640 / Math.max(g.ncols, 1))));
  const accesses = step.accesses.filter((a) => !a.shared && a.target === t.name);
  // The tile a masked step copies: its box may hang over the tensor's edge.
  const tile = step.masked > 0 ? F.shared.buffers.find((b) => !b.is_static && b.line === step.line && b.shape.length) : null;
  let overR = 0, overC = 0, box = null;
  if (tile && accesses.length) {
    const [tr, tc] = grid2(tile.shape);
    const first = accesses[0].ranges.length ? accesses[0].ranges[0][0] : 0;
    const r0 = Math.floor(first / cols), c0 = first % cols;
    box = { r0, c0, tr, tc };
    overR = Math.max(0, Math.ceil((r0 + tr - rows) / g.br));
    overC = Math.max(0, Math.ceil((c0 + tc - cols) / g.bc));
  }
  const w = (g.ncols + overC) * cell + 2, h = (g.nrows + overR) * cell + 2;
  html("h3", parent, `${t.name}: ${t.dtype}[${t.shape.join(", ")}]` + (g.bc > 1 || g.br > 1 ? ` (a cell is ${g.br}x${g.bc} elements)` : ""));
  const s = svg(parent, w, h);
  s.classList.add("tensor");
  const cells = new Uint8Array(g.nrows * g.ncols);
  for (const a of accesses) {
    // The 128-byte lines the accesses fetched, then the bytes they used.
    for (const [o, n] of a.line_ranges) markRange(cells, g, o, n, 1);
    for (const [o, n] of a.ranges) markRange(cells, g, o, n, a.write ? 3 : 2);
  }
  const fill = [C.idle, C.extra, C.read, C.write];
  for (let r = 0; r < g.nrows; r++)
    for (let c = 0; c < g.ncols; c++)
      el("rect", { x: 1 + c * cell, y: 1 + r * cell, width: cell - 1, height: cell - 1, fill: fill[cells[r * g.ncols + c]], class: ["idle", "extra", "read", "write"][cells[r * g.ncols + c]] }, s);
  if (box) {
    // The tile's box: outlined where it lies inside the tensor, hatched where it hangs over.
    const x = 1 + Math.floor(box.c0 / g.bc) * cell, y = 1 + Math.floor(box.r0 / g.br) * cell;
    const bw = Math.ceil(box.tc / g.bc) * cell, bh = Math.ceil(box.tr / g.br) * cell;
    const ex = 1 + g.ncols * cell, ey = 1 + g.nrows * cell;
    if (x + bw > ex) el("rect", { x: ex, y, width: x + bw - ex, height: Math.min(bh, ey - y), fill: "url(#hatch)", class: "masked" }, s);
    if (y + bh > ey) el("rect", { x, y: ey, width: bw, height: y + bh - ey, fill: "url(#hatch)", class: "masked" }, s);
    el("rect", { x: 1, y: 1, width: g.ncols * cell - 1, height: g.nrows * cell - 1, fill: "none", stroke: "#1a202c" }, s);
    el("rect", { x, y, width: bw, height: bh, fill: "none", stroke: "#4a5568", "stroke-dasharray": "3 2" }, s);
  }
}

function defs(parent) {
  const s = svg(parent, 0, 0);
  const d = el("defs", {}, s);
  const p = el("pattern", { id: "hatch", width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, d);
  el("rect", { width: 6, height: 6, fill: "#f7fafc", "fill-opacity": 0.6 }, p);
  el("line", { x1: 0, y1: 0, x2: 0, y2: 6, stroke: C.masked, "stroke-width": 3 }, p);
}

function drawRuler(parent, step) {
  const sh = F.shared;
  const total = sh.static_bytes + sh.dynamic_bytes;
  html("h3", parent, `shared memory: ${total} bytes` + (sh.static_bytes ? ` (${sh.static_bytes} static, ${sh.dynamic_bytes} dynamic)` : ""));
  const W = 680, s = svg(parent, W, 58, "ruler");
  const scale = (b) => 10 + (total ? (b / total) * (W - 20) : 0);
  el("rect", { x: 10, y: 14, width: W - 20, height: 22, fill: C.idle, stroke: "#718096" }, s);
  for (const b of sh.buffers) {
    const start = b.is_static ? b.offset : sh.static_bytes + b.offset;
    const x = scale(start), w = Math.max(2, scale(start + b.bytes) - x);
    el("rect", { x, y: 14, width: w, height: 22, fill: "#e9d8fd", stroke: C.shared, class: "buffer" }, s);
    // Planned buffers are labelled with their planned offset (from the dynamic part's start).
    el("text", { x: x + 3, y: 29 }, s, b.is_static ? `${b.name} (static, ${b.bytes} B)` : `${b.name} @${b.offset} (${b.bytes} B)`);
  }
  for (const a of step.accesses.filter((a) => a.shared))
    for (const [o, n] of a.ranges) {
      const x = scale(o);
      el("rect", { x, y: 36, width: Math.max(2, scale(o + n) - x), height: 6, fill: a.write ? C.write : C.read }, s);
    }
  el("text", { x: 10, y: 10 }, s, "0");
  el("text", { x: W - 10, y: 10, "text-anchor": "end" }, s, String(total));
  if (total === 0) el("text", { x: W / 2, y: 29, "text-anchor": "middle" }, s, "no shared memory");
}

// A pipelined loop's timeline (at its `for` step): a row per iteration of warp 0, a column per
// stage of each pipelined buffer; "c" where the row's copies wrote the stage, "r" where its
// reads used it.
function drawTimeline(parent, step) {
  const p = F.pipelines.find((q) => q.line === step.line);
  if (!p) return;
  html("h3", parent, `pipeline: ${p.stages} stages, warp 0's iterations (c: copies into the stage, r: reads it)`);
  const tb = html("table", parent);
  tb.id = "timeline";
  const head = html("tr", tb);
  html("th", head, "");
  for (const b of p.buffers) for (let st = 0; st < p.stages; st++) html("th", head, `${b.name}[${st}]`);
  for (const r of p.rows) {
    const tr = html("tr", tb, undefined, "row");
    html("th", tr, r.label);
    p.buffers.forEach((b, i) => {
      for (let st = 0; st < p.stages; st++) {
        const has = (list) => list.some(([bi, si]) => bi === i && si === st);
        const c = has(r.copies), rd = has(r.reads);
        html("td", tr, (c ? "c" : "") + (rd ? "r" : ""), [c ? "copy" : "", rd ? "read" : ""].join(" ").trim());
      }
    });
  }
  if (p.more > 0) html("p", parent, `... ${p.more} more iterations`);
}

// A tensor-core product's fragments (at its `dot` step): warp 0's first 16 x 8 of C, one
// instruction's A and B, each cell "lane:register element" coloured by lane; and each swizzled
// tile's first 8 rows, each 16-byte chunk numbered by the 4-bank group it lands in.
function drawFragment(parent, step) {
  const f = F.fragments.find((q) => q.line === step.line);
  if (!f) return;
  html("h3", parent, `tensor cores: ${f.what}`);
  const cell = 28, h = 14;
  const grid = (s, x0, y0, cells, cols, title) => {
    el("text", { x: x0, y: y0 - 4 }, s, title);
    cells.forEach(([lane, e], i) => {
      const x = x0 + (i % cols) * cell, y = y0 + Math.floor(i / cols) * h;
      el("rect", { x, y, width: cell, height: h, fill: `hsl(${(lane * 47) % 360}, 60%, 85%)`, stroke: "#fff", class: "cell" }, s);
      el("text", { x: x + 2, y: y + 11, "font-size": 9 }, s, `${lane}:${e}`);
    });
  };
  // C and B (below it) on the left, A on the right.
  const aCols = f.k, W = 24 + cell * (8 + (f.a.length ? aCols : 0)) + 20;
  const H = 40 + h * (16 + (f.b.length ? f.k + 2 : 0));
  const s = svg(parent, W, H, "fragment");
  grid(s, 8, 20, f.c, 8, `C: warp 0 (${f.warp_m} x ${f.warp_n}), first 16 x 8`);
  if (f.a.length) {
    grid(s, 20 + cell * 8, 20, f.a, aCols, `A (16 x ${f.k})`);
    grid(s, 8, 20 + h * 18, f.b, 8, `B (${f.k} x 8)`);
  }
  for (const t of f.tiles) {
    const cols = t.groups.length ? t.groups[0].length : 0;
    const ts = svg(parent, Math.max(560, 20 + cols * 22), 24 + t.groups.length * 16, null);
    ts.classList.add("banks");
    el("text", { x: 4, y: 12 }, ts, `${t.name} (${t.rows}x${t.cols}) under swizzle(${t.swizzle.join(",")}): bank group of each 16-byte chunk, rows 0-${t.groups.length - 1}`);
    t.groups.forEach((row, r) => row.forEach((g, c) => {
      el("rect", { x: 4 + c * 22, y: 18 + r * 16, width: 22, height: 16, fill: `hsl(${g * 45}, 55%, 85%)`, stroke: "#fff", class: "cell" }, ts);
      el("text", { x: 12 + c * 22, y: 30 + r * 16 }, ts, String(g));
    }));
  }
}

function drawBarriers(parent, step) {
  const mine = F.barriers.filter((b) => b.line === step.line);
  html("h3", parent, `barriers at line ${step.line}: ${mine.filter((b) => b.kept).length} kept, ${mine.filter((b) => !b.kept).length} elided`);
  const s = svg(parent, 680, Math.max(1, mine.length) * 16 + 4, "barriers");
  mine.forEach((b, i) => {
    el("line", { x1: 10, y1: 10 + i * 16, x2: 60, y2: 10 + i * 16, stroke: "#1a202c", "stroke-width": 3, "stroke-dasharray": b.kept ? "" : "4 3" }, s);
    el("text", { x: 70, y: 14 + i * 16 }, s, `${b.kept ? "kept" : "elided"}: ${b.reason}`);
  });
  if (!mine.length) el("text", { x: 10, y: 14 }, s, "none");
}

function drawThreads(parent, step) {
  const n = F.threads, warps = Math.ceil(n / 32);
  html("h3", parent, `threads: ${step.thread_count} of ${n} take part (a row is a warp)`);
  const cell = 10, s = svg(parent, 32 * cell + 60, warps * cell + 4, "threads");
  for (let t = 0; t < n; t++) {
    const on = (step.thread_words[t >> 5] >>> (t & 31)) & 1;
    el("rect", { x: 50 + (t % 32) * cell, y: 2 + Math.floor(t / 32) * cell, width: cell - 1, height: cell - 1, fill: on ? C.active : C.idle, class: on ? "on" : "off" }, s);
  }
  for (let w = 0; w < warps; w++) el("text", { x: 0, y: 10 + w * cell }, s, `warp ${w}`);
}

function drawLanes(parent, step) {
  const sh = step.shuffles;
  html("h3", parent, `warp 0: ${popcount(step.warp0)} of 32 lanes take part` + (sh.length ? `; ${sh.length} shuffle step${sh.length > 1 ? "s" : ""}, an arc per lane that reads another` : ""));
  // One row of the 32 lanes per shuffle (or one row when there is none), arcs above it.
  const dx = 19, left = 70, rows = sh.length ? sh : [null];
  const heights = rows.map((x) => (x ? 12 + Math.min(60, Math.max(...x.src.map((f, l) => (f < 0 ? 0 : Math.abs(f - l)))) * 2.2) : 0) + 26);
  const s = svg(parent, left + 32 * dx, heights.reduce((a, b) => a + b, 0) + 4, "lanes");
  let top = 0;
  rows.forEach((x, k) => {
    const y = top + heights[k] - 16;
    top += heights[k];
    const colour = `hsl(${(k * 67) % 360}, 60%, 42%)`;
    if (x) {
      el("text", { x: 0, y: y + 4 }, s, x.pattern + (x.count > 1 ? ` x${x.count}` : ""));
      x.src.forEach((from, lane) => {
        if (from < 0 || from === lane) return;
        const x1 = left + from * dx, x2 = left + lane * dx, lift = 8 + Math.abs(from - lane) * 2.2;
        // Each lane's arc comes from the lane it reads; a pair that swaps draws one arc each way.
        const bend = from < lane ? -1 : -0.7;
        el("path", { d: `M ${x1} ${y - 6} Q ${(x1 + x2) / 2} ${y - 6 + bend * Math.min(lift, 60) * 1.6} ${x2} ${y - 6}`, fill: "none", stroke: colour, "stroke-width": 1, class: "arc" }, s);
      });
    } else {
      el("text", { x: 0, y: y + 4 }, s, "lanes");
    }
    for (let l = 0; l < 32; l++) {
      const on = (step.warp0 >>> l) & 1;
      el("circle", { cx: left + l * dx, cy: y, r: 5, fill: on ? C.active : C.idle, stroke: "#4a5568", class: on ? "lane on" : "lane" }, s);
      if (k === rows.length - 1 && l % 4 === 0) el("text", { x: left + l * dx, y: y + 16, "text-anchor": "middle" }, s, String(l));
    }
  });
}

function popcount(x) {
  let n = 0;
  for (let i = 0; i < 32; i++) n += (x >>> i) & 1;
  return n;
}

function show(i) {
  current = Math.max(0, Math.min(F.steps.length - 1, i));
  const step = F.steps[current];
  document.getElementById("counter").textContent = `step ${current + 1} of ${F.steps.length}: line ${step.line}`;
  for (const d of document.querySelectorAll("#source div")) {
    const n = Number(d.dataset.line);
    // A compound statement is its header line; its body has steps of its own.
    d.classList.toggle("current", n >= step.line && n <= (step.compound ? step.line : step.end_line));
  }
  const dr = document.getElementById("drawing");
  dr.textContent = "";
  defs(dr);
  html("h3", dr, `global memory (CTA ${F.cta.join(", ")})`);
  for (const t of F.tensors) drawTensor(dr, t, step);
  drawRuler(dr, step);
  drawTimeline(dr, step);
  drawFragment(dr, step);
  drawBarriers(dr, step);
  drawThreads(dr, step);
  drawLanes(dr, step);
  document.getElementById("readout").textContent = `line ${step.line}: ${step.text} — ${step.readout}`;
}

function setup() {
  const h = document.getElementById("head");
  html("b", h, `${F.kernel}`);
  html("span", h, ` (${F.entry}) stepped through as the compiler built it for ${F.chip}: grid ${F.grid.join("x")} of ${F.threads} threads, CTA ${F.cta.join(", ")}`);
  const src = document.getElementById("source");
  const starts = new Map();
  F.steps.forEach((s, i) => { if (!starts.has(s.line)) starts.set(s.line, i); });
  F.source.forEach((text, i) => {
    const d = html("div", src);
    d.dataset.line = i + 1;
    html("span", d, String(i + 1), "no");
    d.appendChild(document.createTextNode(text));
    if (starts.has(i + 1)) {
      d.classList.add("stmt");
      d.addEventListener("click", () => show(starts.get(i + 1)));
    }
  });
  document.getElementById("prev").addEventListener("click", () => show(current - 1));
  document.getElementById("next").addEventListener("click", () => show(current + 1));
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") show(current + 1);
    if (e.key === "ArrowLeft") show(current - 1);
  });
  const lg = document.getElementById("legend");
  for (const [name, colour] of [["global memory: read", C.read], ["written", C.write], ["shared memory", "#e9d8fd"], ["threads and lanes", C.active], ["unused bytes of the 128-byte lines fetched", C.extra], ["masked elements", C.masked]]) {
    const li = html("li", lg, name);
    li.style.setProperty("--c", colour);
  }
  const m = F.summary;
  const sm = document.getElementById("summary");
  html("h3", sm, "summary");
  const tb = html("table", sm);
  const rows = [
    ["shuffles", `${m.shuffles} in the PTX, ${m.shuffles_run} run by warp 0`],
    ["barriers", `${m.barriers_kept} kept, ${m.barriers_elided} elided`],
    ["shared memory", `${m.shared_bytes} bytes`],
    ["registers", m.registers === null ? "unknown (no ptxas)" : String(m.registers)],
    ["global memory", `${m.bytes_moved} bytes moved in 128-byte lines for ${m.bytes_needed} bytes needed`],
    ["bank conflicts", String(m.bank_conflicts)],
    ["masked elements", String(m.masked)],
    ["CTAs run", String(m.ctas)],
  ];
  for (const [k, v] of rows) {
    const tr = html("tr", tb);
    html("th", tr, k);
    html("td", tr, v);
  }
  // #step=N opens step N (links, screenshots).
  const at = /^#step=(\d+)$/.exec(location.hash);
  show(at ? Number(at[1]) - 1 : 0);
}

// #selftest: step through with the page's own controls; report into <pre id="selftest">.
function selftest(errors) {
  const out = document.getElementById("selftest");
  try {
    show(0);
    const next = document.getElementById("next");
    let seen = 1;
    // Each figure against the facts it draws.
    const check = () => {
      const step = F.steps[current], at = `step ${current + 1}`;
      const n = (sel) => document.querySelectorAll(sel).length;
      for (const id of ["ruler", "lanes", "threads", "barriers"]) if (!document.getElementById(id)) throw new Error(`${at}: no #${id}`);
      if (n("svg.tensor") !== F.tensors.length) throw new Error(`${at}: ${n("svg.tensor")} tensors drawn, ${F.tensors.length} in the facts`);
      if (n("#threads rect.on") !== step.thread_count) throw new Error(`${at}: ${n("#threads rect.on")} threads drawn active, ${step.thread_count} in the facts`);
      const rows = Math.max(1, step.shuffles.length);
      if (n("#lanes circle.lane") !== 32 * rows) throw new Error(`${at}: warp 0 drawn with ${n("#lanes circle.lane")} lanes`);
      if (n("#lanes circle.lane.on") !== popcount(step.warp0) * rows) throw new Error(`${at}: active lanes drawn differ from the facts`);
      const moved = step.shuffles.reduce((k, x) => k + x.src.filter((f, l) => f >= 0 && f !== l).length, 0);
      if (n("#lanes path.arc") !== moved) throw new Error(`${at}: ${n("#lanes path.arc")} arcs drawn, ${moved} lanes read another`);
      const global = step.accesses.some((a) => !a.shared && a.touched > 0);
      if ((n("svg.tensor rect.read") + n("svg.tensor rect.write") > 0) !== global) throw new Error(`${at}: tensor boxes drawn do not match the accesses`);
      if (!step.readout) throw new Error(`${at}: empty readout`);
      const fr = F.fragments.find((q) => q.line === step.line);
      const cells = fr ? fr.c.length + fr.a.length + fr.b.length + fr.tiles.reduce((k, t) => k + t.groups.reduce((j, r) => j + r.length, 0), 0) : 0;
      if (n("#drawing rect.cell") !== cells) throw new Error(`${at}: ${n("#drawing rect.cell")} fragment cells drawn, ${cells} in the facts`);
      const p = F.pipelines.find((q) => q.line === step.line);
      const want = p ? p.rows.length : 0;
      if (n("#timeline tr.row") !== want) throw new Error(`${at}: ${n("#timeline tr.row")} timeline rows drawn, ${want} in the facts`);
      if (p) {
        const cells = p.rows.reduce((k, r) => k + r.copies.length, 0);
        if (n("#timeline td.copy") !== cells) throw new Error(`${at}: ${n("#timeline td.copy")} copies drawn in the timeline, ${cells} in the facts`);
      }
    };
    check();
    while (current < F.steps.length - 1 && seen < F.steps.length) {
      next.click();
      seen++;
      check();
    }
    if (seen !== F.steps.length || current !== F.steps.length - 1) throw new Error(`Next reached step ${current + 1} of ${F.steps.length}`);
    // What the figures drew over all steps: shuffle arcs, masked boxes, extra-line cells.
    const count = (sel) => F.steps.reduce((n, s, i) => (show(i), n + document.querySelectorAll(sel).length), 0);
    const arcs = count("#lanes path.arc"), masked = count("svg.tensor rect.masked"), extra = count("svg.tensor rect.extra");
    const timeline = count("#timeline tr.row"), fragment = count("#fragment rect.cell");
    show(0);
    const verdict = `steps=${seen} arcs=${arcs} buffers=${document.querySelectorAll("#ruler rect.buffer").length} masked=${masked} extra=${extra}` + (timeline ? ` timeline=${timeline}` : "") + (fragment ? ` fragment=${fragment}` : "");
    out.textContent = errors.length ? `FAIL: ${errors.join("; ")}` : `PASS ${verdict}`;
  } catch (e) {
    out.textContent = `FAIL: ${e.message}`;
  }
  out.hidden = false;
}

const errors = [];
if (location.hash === "#selftest") {
  window.addEventListener("error", (e) => errors.push(String(e.message)));
  const orig = console.error;
  console.error = (...a) => { errors.push(a.join(" ")); orig.apply(console, a); };
}
try {
  setup();
} catch (e) {
  errors.push(String(e && e.message));
}
if (location.hash === "#selftest") selftest(errors);
