//! `convert-exchange-to-gpu`: lowers `cta.exchange`, `cta.scatter` and `cta.gather` with the
//! cheapest mechanism the two layouts allow, decided from the layouts alone
//! and reported in a remark (mechanism, shuffles, shared bytes, barriers, bank conflicts):
//!
//! 1. **identity**: both layouts are the same function; nothing is emitted.
//! 2. **registers**: no value changes thread; item i of the result is an item of the thread's
//!    own array (a constant per i, or a layout of the thread index per i).
//! 3. **within warps**: every value stays in its warp. By shuffles (a schedule of
//!    `phobos_layout::warp_shuffle`: n rounds of one indexed shuffle, reorders by select
//!    networks) or staged through shared memory ordered by warp-level barriers
//!    (`nvvm.bar.warp.sync`), never a CTA barrier; whichever `warp_shuffle`'s cost model says
//!    is cheaper, unless `mechanism` forces one. The remark gives both costs.
//! 4. **across warps**: staged through shared memory between CTA barriers.
//! 5. **scatter/gather** by run-time ranks: staged through shared memory (positions are known
//!    only at run time) between CTA barriers.
//!
//! Staging writes position p at element `p + p / P` of a `tile.alloc` buffer (P = ∞: no
//! padding), P chosen to minimise the bank conflicts of the layout-addressed accesses, counted
//! with the pinned model of `phobos_layout::banks`, then the bytes. A rank outside `[0, T·n)`
//! is a `cf.assert` marked `phobos.bounds` (the simulator faults; the PTX does not pay for it);
//! scatter stores carry `phobos.scatter_item`, so the simulator reports a repeated rank.
//! Runs before `tile-plan-shared-memory` (which places the staging buffers) and
//! `convert-layout-to-arith` (which lowers the `layout.apply`s emitted here).

use crate::registry::{OptInfo, PassInfo};
use crate::{
    emit::{
        control::barrier_because,
        ids::{known_block_size, linear_thread_id},
        shuffle::{shuffle, Shfl},
        vector,
    },
    external::PassCx,
    patterns::{self, Illegal, Pattern, DISABLE_PATTERNS},
};
use phobos_dialects::cta::{verify_redistribution, Redistribution};
use phobos_dialects::ops::CtaOp;
use phobos_ir::{
    diag::{Diagnostic, Severity},
    Builder, Op, Ty, Val,
};
use phobos_layout::{banks, exchange, warp_shuffle, Map};

/// The patterns of `convert-exchange-to-gpu`, one per `cta` redistribution (an exhaustive
/// match: a new op names the pass that lowers it).
pub fn populate_exchange_to_gpu_patterns(patterns: &mut Vec<Pattern>) {
    patterns.extend(CtaOp::ALL.iter().filter_map(|op| {
        let lower: crate::patterns::Lower = match op {
            CtaOp::Exchange => lower_exchange,
            CtaOp::Scatter => lower_scatter,
            CtaOp::Gather => lower_gather,
            // convert-cta-to-gpu.
            CtaOp::Reduce | CtaOp::Argmax | CtaOp::ReduceWith => return None,
        };
        Some(Pattern::new(op.name(), lower))
    }));
}

pub fn run<'a>(module: Op<'a>, cx: &PassCx<'a>) -> Result<(), ()> {
    if let Some(m) = cx.options.get("mechanism").filter(|m| !matches!(*m, "auto" | "shuffle" | "staging")) {
        let text = format!("convert-exchange-to-gpu: mechanism must be auto, shuffle or staging, not '{m}'");
        cx.diags.emit(Diagnostic::new(Severity::Error, module.loc().src(), text));
        return Err(());
    }
    let mut ps = Vec::new();
    populate_exchange_to_gpu_patterns(&mut ps);
    let ops = &["cta.exchange", "cta.scatter", "cta.gather"];
    patterns::apply(module, cx, "convert-exchange-to-gpu", &ps, Illegal::named(&[], ops))
}

/// Where a lowering builds, and what it moves.
struct Site<'a> {
    b: Builder<'a>,
    block: [i64; 3],
    threads: i64,
    items: i64,
    r: Redistribution,
}

fn site<'a>(op: Op<'a>) -> Result<Site<'a>, Diagnostic> {
    let r = verify_redistribution(op)?;
    let Some(block) = known_block_size(op) else {
        return Err(Diagnostic::op_error(op, "needs a known block size (known_block_size on the gpu.func)"));
    };
    let threads = block.iter().product::<i64>();
    if threads != r.threads {
        return Err(Diagnostic::op_error(op, format!("its layouts are for {} threads; the CTA has {threads}", r.threads)));
    }
    Ok(Site { b: Builder::before(op), block, threads, items: r.items, r })
}

impl<'a> Site<'a> {
    /// The thread's linear index in the CTA (built where first needed; CSE merges repeats).
    fn tid(&self) -> Val<'a> {
        linear_thread_id(self.b, Some(self.block))
    }
}

fn remark(op: Op, text: String, cx: &PassCx) {
    cx.diags.emit(Diagnostic::new(Severity::Remark, op.loc().src(), text));
}

/// `layout.apply` of `text` at `x` (index).
fn apply<'a>(b: Builder<'a>, text: &str, x: Val<'a>) -> Val<'a> {
    phobos_dialects::layout::build::apply(b, text, &[x], None, None)
}

/// A constant or a layout of the thread index (plus a constant) whose values are `vals`; None
/// when no layout has them.
fn of_thread<'a>(s: &Site<'a>, vals: &[i64]) -> Option<Val<'a>> {
    warp_shuffle::of_thread(vals).map(|e| lane_of(s, &e, None))
}

fn lower_exchange<'a>(op: Op<'a>, cx: &PassCx<'a>) -> Result<Vec<Val<'a>>, Diagnostic> {
    let s = site(op)?;
    let (t, n) = (s.threads, s.items);
    let (from, to) = (&s.r.layouts[0], &s.r.layouts[1]);
    let src = exchange::sources(&from.2, &to.2, t, n);
    let v = op.operand(0);
    let what = format!("exchange<\"{}\", \"{}\">", from.1, to.1);
    // 1. Identity.
    if src.iter().enumerate().all(|(x, &(st, si))| st == x as i64 % t && si == x as i64 / t) {
        remark(op, format!("{what}: identity (no shuffles, 0 shared bytes, 0 barriers)"), cx);
        return Ok(vec![v]);
    }
    let b = s.b;
    // Per output item i, a value of each thread: column i of the source table.
    let column = |i: i64, f: &dyn Fn((i64, i64)) -> i64| -> Vec<i64> { (0..t).map(|th| f(src[(th + t * i) as usize])).collect() };
    // 2. Registers.
    if src.iter().enumerate().all(|(x, &(st, _))| st == x as i64 % t) {
        let mut out = Vec::new();
        for i in 0..n {
            let col = column(i, &|(_, si)| si);
            if col.iter().all(|c| *c == col[0]) {
                out.push(vector::extract(b, v, col[0]));
            } else if let Some(j) = of_thread(&s, &col) {
                out.push(vector::extract_at(b, v, j));
            } else {
                return staged_exchange(op, cx, &s, &what, true, "");
            }
        }
        remark(op, format!("{what}: registers (no shuffles, 0 shared bytes, 0 barriers)"), cx);
        return Ok(vec![b.op_value("vector.from_elements", &out, v.ty(), &[])]);
    }
    // 3. Within warps (whole warps only: a warp-level sync or shuffle names all 32 lanes):
    // shuffles or warp-synchronised staging, whichever the cost model says (or the option).
    let warp = exchange::WARP;
    if t % warp == 0 && src.iter().enumerate().all(|(x, &(st, _))| st / warp == (x as i64 % t) / warp) {
        let words = storage_bytes(v.ty().element()).div_ceil(4) as i64;
        let sched = warp_shuffle::schedule(&src, t, n);
        let staging = staging_cost(&s, v.ty().element());
        let mechanism = cx.options.get("mechanism").unwrap_or("auto");
        return match sched {
            Some(sc) if mechanism != "staging" && (mechanism == "shuffle" || sc.cost(words).weighted() <= staging) => {
                let cost = sc.cost(words);
                let out = shuffled_exchange(&s, v, &sc);
                let plural = if cost.shuffles == 1 { "" } else { "s" };
                remark(
                    op,
                    format!(
                        "{what}: within warps by shuffles ({} shuffle{plural}, {} selects, 0 shared bytes, 0 barriers; cost {} against {} staged)",
                        cost.shuffles,
                        cost.selects,
                        cost.weighted(),
                        staging
                    ),
                    cx,
                );
                Ok(vec![out])
            }
            _ => {
                let why = match (&sched, mechanism) {
                    (None, _) => "no shuffle schedule".to_string(),
                    (Some(_), "staging") => "staging forced".to_string(),
                    (Some(sc), _) => format!("cost {staging} against {} by shuffles", sc.cost(words).weighted()),
                };
                staged_exchange(op, cx, &s, &what, true, &why)
            }
        };
    }
    // 4. Across warps.
    staged_exchange(op, cx, &s, &what, false, "")
}

/// Where staged items go or come from: a thread/value layout, or run-time ranks.
enum Pos<'l, 'a> {
    Layout(&'l str, &'l Map),
    Ranks(Val<'a>),
}

/// Stages an exchange; `why` (if any) ends the remark: why not by shuffles.
fn staged_exchange<'a>(
    op: Op<'a>,
    cx: &PassCx<'a>,
    s: &Site<'a>,
    what: &str,
    warp_level: bool,
    why: &str,
) -> Result<Vec<Val<'a>>, Diagnostic> {
    let (from, to) = (&s.r.layouts[0], &s.r.layouts[1]);
    let store = Pos::Layout(&from.1, &from.2);
    let load = Pos::Layout(&to.1, &to.2);
    let how = if warp_level { "within warps through shared memory" } else { "across warps through shared memory" };
    stage(op, cx, s, what, how, why, warp_level, store, load, false)
}

/// Bytes an item of `elem` takes in a staging buffer or a shuffle (i1 as a byte).
fn storage_bytes(elem: Ty) -> u64 {
    elem.scalar().map(|x| x.bits().div_ceil(8) as u64).unwrap_or(4)
}

/// What staging the exchange at `s` would cost (warp_shuffle's model).
fn staging_cost(s: &Site, elem: Ty) -> f64 {
    let maps = [&s.r.layouts[0].2, &s.r.layouts[1].2];
    let (period, _) = choose_padding(s, &maps, storage_bytes(elem));
    warp_shuffle::staging_cost(s.items, period != 0)
}

/// Moves the exchange's items by the rounds of `sc`: reorder by the send amount, one indexed
/// shuffle a round, reorder by the receive amount.
fn shuffled_exchange<'a>(s: &Site<'a>, v: Val<'a>, sc: &warp_shuffle::Schedule) -> Val<'a> {
    let b = s.b;
    let n = s.items;
    let elem = v.ty().element();
    let items: Vec<Val<'a>> = (0..n).map(|k| storage_in(b, vector::extract(b, v, k))).collect();
    // Round k sends item k ⊖ a.
    let sent = reorder(s, items, &sc.send, sc.combine, false);
    let first = lane_of(s, &sc.lanes[0], None);
    let i32t = b.ctx.i(32);
    let got: Vec<Val<'a>> = (0..n as usize)
        .map(|k| {
            let lane = if k == 0 { first } else { lane_of(s, &sc.lanes[k], Some(first)) };
            let lane = b.cast("arith.index_cast", lane, i32t);
            shuffle(b, sent[k], Shfl::Idx, lane, exchange::WARP)
        })
        .collect();
    // Item m arrived in round m ⊕ c.
    let out: Vec<Val<'a>> = reorder(s, got, &sc.receive, sc.combine, true).into_iter().map(|x| storage_out(b, x, elem)).collect();
    b.op_value("vector.from_elements", &out, v.ty(), &[])
}

/// `out[k] = items[k ⊕ amount]` (`plus`) or `items[k ⊖ amount]`, the amount a value per thread:
/// a stage per bit, a renaming where the bit is the same in every thread, else n selects.
fn reorder<'a>(s: &Site<'a>, mut items: Vec<Val<'a>>, amounts: &[i64], cb: warp_shuffle::Combine, plus: bool) -> Vec<Val<'a>> {
    let b = s.b;
    let n = s.items;
    let varying = warp_shuffle::varying_bits(amounts, n);
    let amount = (!varying.is_empty()).then(|| {
        let e = warp_shuffle::of_thread(amounts).expect("a schedule's amounts are computable");
        lane_of(s, &e, None)
    });
    for bit in 0..warp_shuffle::bits(n) {
        let step = 1i64 << bit;
        let from = |k: i64| if plus { cb.plus(k, step, n) } else { cb.minus(k, step, n) };
        let moved: Vec<Val<'a>> = (0..n).map(|k| items[from(k) as usize]).collect();
        if varying.contains(&bit) {
            let a = amount.expect("built for a varying bit");
            let masked = b.bin("arith.andi", a, b.index(step));
            let set = b.cmpi("ne", masked, b.index(0));
            items = (0..n as usize).map(|k| b.op_value("arith.select", &[set, moved[k], items[k]], items[k].ty(), &[])).collect();
        } else if (amounts[0] >> bit) & 1 == 1 {
            items = moved;
        }
    }
    items
}

/// A per-thread value of a schedule as an index (`first`: round 0's lane).
fn lane_of<'a>(s: &Site<'a>, e: &warp_shuffle::OfThread, first: Option<Val<'a>>) -> Val<'a> {
    use warp_shuffle::OfThread;
    let b = s.b;
    match e {
        OfThread::Const(c) => b.index(*c),
        OfThread::Layout(l, off) => {
            let v = apply(b, &l.to_string(), s.tid());
            if *off == 0 {
                v
            } else {
                b.bin("arith.addi", v, b.index(*off))
            }
        }
        OfThread::XorFirst(d) => b.bin("arith.xori", first.expect("round 0's lane"), b.index(*d)),
        OfThread::AddFirst(d) => b.bin("arith.addi", first.expect("round 0's lane"), b.index(*d)),
    }
}

fn lower_scatter<'a>(op: Op<'a>, cx: &PassCx<'a>) -> Result<Vec<Val<'a>>, Diagnostic> {
    let s = site(op)?;
    let to = &s.r.layouts[0];
    let what = format!("scatter<\"{}\">", to.1);
    stage(op, cx, &s, &what, "by rank through shared memory", "", false, Pos::Ranks(op.operand(1)), Pos::Layout(&to.1, &to.2), true)
}

fn lower_gather<'a>(op: Op<'a>, cx: &PassCx<'a>) -> Result<Vec<Val<'a>>, Diagnostic> {
    let s = site(op)?;
    let from = &s.r.layouts[0];
    let what = format!("gather<\"{}\">", from.1);
    stage(op, cx, &s, &what, "by rank through shared memory", "", false, Pos::Layout(&from.1, &from.2), Pos::Ranks(op.operand(1)), false)
}

/// i1 is staged as a byte.
fn storage_in<'a>(b: Builder<'a>, x: Val<'a>) -> Val<'a> {
    if x.ty().int_width() == Some(1) {
        b.cast("arith.extui", x, b.ctx.i(8))
    } else {
        x
    }
}

fn storage_out<'a>(b: Builder<'a>, x: Val<'a>, elem: Ty<'a>) -> Val<'a> {
    if elem.int_width() == Some(1) {
        b.cast("arith.trunci", x, elem)
    } else {
        x
    }
}

/// The padding period (elements per pad element; 0: none) with the fewest bank conflicts for
/// the layout-addressed accesses, then the fewest bytes; and those conflicts per CTA.
fn choose_padding(s: &Site, positions: &[&Map], eb: u64) -> (i64, u64) {
    let (t, n) = (s.threads, s.items);
    let mut best = (u64::MAX, i64::MAX, 0i64);
    for period in [0i64, 32, 16, 8, 4, 2, 1] {
        let pad = |p: i64| if period == 0 { p } else { p + p / period };
        let mut conflicts = 0;
        for m in positions {
            for k in 0..n {
                for w in 0..(t + 31) / 32 {
                    let lanes: Vec<(u32, u64)> =
                        (0..32).filter(|l| w * 32 + l < t).map(|l| (l as u32, pad(m.eval(w * 32 + l + t * k)) as u64 * eb)).collect();
                    conflicts += banks::conflicts(&lanes, eb);
                }
            }
        }
        let size = pad(t * n - 1) + 1;
        if (conflicts, size) < (best.0, best.1) {
            best = (conflicts, size, period);
        }
    }
    (best.2, best.0)
}

/// Stages `op`'s value through a shared buffer: every thread stores its items at `store`,
/// synchronises, and loads the result's items from `load`.
#[allow(clippy::too_many_arguments)]
fn stage<'a>(
    op: Op<'a>,
    cx: &PassCx<'a>,
    s: &Site<'a>,
    what: &str,
    how: &str,
    why: &str,
    warp_level: bool,
    store: Pos<'_, 'a>,
    load: Pos<'_, 'a>,
    scatter: bool,
) -> Result<Vec<Val<'a>>, Diagnostic> {
    let b = s.b;
    let (t, n) = (s.threads, s.items);
    let v = op.operand(0);
    let elem = v.ty().element();
    let st = if elem.int_width() == Some(1) { b.ctx.i(8) } else { elem };
    let eb = storage_bytes(elem);
    let maps: Vec<&Map> = [&store, &load].iter().filter_map(|p| if let Pos::Layout(_, m) = p { Some(*m) } else { None }).collect();
    let (period, conflicts) = choose_padding(s, &maps, eb);
    let size = if period == 0 { t * n } else { t * n - 1 + (t * n - 1) / period + 1 };
    let buf = phobos_dialects::tile::build::alloc(b, "exchange staging", st, &[size]);
    let alloc = buf.def().expect("built");
    alloc.set_attr("phobos.synchronized", b.ctx.unit_attr());
    if warp_level {
        alloc.set_attr("phobos.exclusive", b.ctx.unit_attr());
    }
    let sync = |why: &str| {
        if warp_level {
            let mask = b.i32(-1);
            b.op("nvvm.bar.warp.sync", &[mask], &[], &[]);
        } else {
            barrier_because(b, why);
        }
    };
    let total = t * n;
    let tid = s.tid();
    let address = |p: &Pos<'_, 'a>, k: i64| -> Val<'a> {
        let pos = match p {
            Pos::Layout(text, _) => {
                let x = if k == 0 { tid } else { b.bin("arith.addi", tid, b.index(t * k)) };
                apply(b, text, x)
            }
            Pos::Ranks(r) => {
                let rank = vector::extract(b, *r, k);
                let idx = b.cast("arith.index_cast", rank, b.ctx.index());
                let ok = b.cmpi("ult", idx, b.index(total));
                let verb = if scatter { "scatter" } else { "gather" };
                b.op(
                    "cf.assert",
                    &[ok],
                    &[],
                    &[
                        ("msg", b.ctx.str_attr(&format!("{verb}: the rank of item {k} is outside [0, {total})"))),
                        ("phobos.bounds", b.ctx.unit_attr()),
                    ],
                );
                idx
            }
        };
        if period == 0 {
            pos
        } else {
            let q = b.bin("arith.divui", pos, b.index(period));
            b.bin("arith.addi", pos, q)
        }
    };
    sync("kept: the exchange overwrites its staging buffer, which threads may still read from an earlier exchange");
    for k in 0..n {
        let x = storage_in(b, vector::extract(b, v, k));
        let at = address(&store, k);
        let st_op = b.op("memref.store", &[x, buf, at], &[], &[]);
        if scatter {
            st_op.set_attr("phobos.scatter_item", b.ctx.int_attr(b.ctx.i(64), k));
        }
    }
    sync("kept: threads read items of the staging buffer that other threads wrote");
    let mut out = Vec::new();
    for k in 0..n {
        let at = address(&load, k);
        let x = b.op_value("memref.load", &[buf, at], st, &[]);
        out.push(storage_out(b, x, elem));
    }
    let barriers = if warp_level { "0 barriers, 2 warp-level syncs".to_string() } else { "2 barriers".to_string() };
    let padding = if period == 0 { "no padding".to_string() } else { format!("1 element of padding per {period}") };
    let conflicts =
        if maps.len() == 2 { format!("{conflicts} bank conflicts") } else { format!("{conflicts} bank conflicts on the layout side") };
    let why = if why.is_empty() { String::new() } else { format!("; {why}") };
    remark(
        op,
        format!("{what}: {how} (0 shuffles, {} shared bytes, {padding}, {barriers}, {conflicts} per CTA{why})", size as u64 * eb),
        cx,
    );
    Ok(vec![b.op_value("vector.from_elements", &out, v.ty(), &[])])
}

/// The pass as the registry lists it.
pub const PASS: PassInfo = PassInfo {
    flag: "convert-exchange-to-gpu",
    name: "ConvertExchangeToGpu",
    summary: "cta.exchange/scatter/gather to registers, shuffles or shared-memory staging, the cheapest the layouts allow",
    description: "Lowers the CTA's register-array redistributions: nothing for an identity, \
    register moves when no value changes thread, a shuffle or warp-synchronised staging when values stay in their warp, \
    staging between CTA barriers otherwise and for scatter/gather by rank. The staging buffer (a tile.alloc) is padded \
    as the bank-conflict count of its accesses says. A remark names the mechanism and its cost.",
    anchor: "gpu.module",
    options: &[
        OptInfo {
            name: "mechanism",
            help: "exchanges within warps: auto (the cost model), shuffle (where a schedule exists) or staging",
            default: "auto",
        },
        DISABLE_PATTERNS,
    ],
    run,
};
