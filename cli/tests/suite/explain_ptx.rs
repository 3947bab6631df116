//! `phobos explain` draws the accesses the GPU makes: for every example kernel, tutorial,
//! rotate kernel and exchange, the widths explain shows per statement are the PTX's, read back
//! from the PTX's line table (`--lineinfo`); a statement outside loops makes no more global
//! accesses per thread than its PTX has instructions (a 16-byte load drawn as four 4-byte ones
//! would be four), and as many shuffles.

use phobos_explain::{facts::Explanation, Request};
use phobos_runtime::npy::{Array, Dtype};
use std::collections::{BTreeMap, BTreeSet};

/// An access as both sides name it: shared or global, the direction, bytes per lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Kind {
    shared: bool,
    /// "ld", "st" or "atom".
    op: &'static str,
    width: u32,
}

/// The PTX's accesses of global and shared memory and its shuffles, by source line (`.loc`).
fn ptx_by_line(ptx: &str) -> (BTreeMap<u32, Vec<Kind>>, BTreeMap<u32, u32>) {
    let (mut accesses, mut shuffles) = (BTreeMap::<u32, Vec<Kind>>::new(), BTreeMap::new());
    let mut line = 0;
    for l in ptx.lines() {
        let l = l.trim_start();
        if let Some(rest) = l.strip_prefix(".loc") {
            // `.loc FILE LINE COL[, inlined_at FILE LINE COL]`: the outermost line is the call's.
            let nums: Vec<u32> = rest.split([' ', '\t', ',']).filter_map(|t| t.parse().ok()).collect();
            line = if nums.len() >= 6 { nums[nums.len() - 2] } else { nums.get(1).copied().unwrap_or(0) };
            continue;
        }
        let Some(opcode) = l.split_whitespace().next().filter(|_| !l.starts_with('@')).or_else(|| l.split_whitespace().nth(1)) else {
            continue;
        };
        let parts: Vec<&str> = opcode.split('.').collect();
        if parts[0] == "shfl" {
            *shuffles.entry(line).or_insert(0) += 1;
            continue;
        }
        // `cp.async.*.shared.global [dst], [src], SIZE[, SRC-SIZE]`: a global read and a shared
        // write of SIZE bytes.
        if parts.starts_with(&["cp", "async"]) && parts.contains(&"shared") {
            let size = l.split(',').nth(2).and_then(|t| t.trim().trim_end_matches(';').parse().ok()).unwrap_or(0);
            let at = accesses.entry(line).or_default();
            at.push(Kind { shared: false, op: "ld", width: size });
            at.push(Kind { shared: true, op: "st", width: size });
            continue;
        }
        let op = match parts[0] {
            "ld" => "ld",
            "st" => "st",
            "atom" | "red" => "atom",
            _ => continue,
        };
        let shared = parts.contains(&"shared");
        if !shared && !parts.contains(&"global") {
            continue;
        }
        let lanes: u32 = parts.iter().find_map(|p| p.strip_prefix('v').and_then(|n| n.parse().ok())).unwrap_or(1);
        let bits: u32 = parts.last().and_then(|t| t[1..].parse().ok()).unwrap_or(32);
        accesses.entry(line).or_default().push(Kind { shared, op, width: lanes * bits / 8 });
    }
    (accesses, shuffles)
}

/// The statement (step) a source line belongs to: the innermost step whose lines hold it.
fn step_of(e: &Explanation, line: u32) -> Option<usize> {
    e.steps.iter().enumerate().filter(|(_, s)| s.line <= line && line <= s.end_line).max_by_key(|(_, s)| s.depth).map(|(i, _)| i)
}

/// The steps inside a loop (their own executions repeat; the PTX may unroll them).
fn in_loop(e: &Explanation, i: usize) -> bool {
    let s = &e.steps[i];
    e.steps.iter().any(|o| o.compound && o.depth < s.depth && o.line <= s.line && s.end_line <= o.end_line && is_loop(&o.text))
}

fn is_loop(text: &str) -> bool {
    text.starts_with("for ") || text.starts_with("while ")
}

fn check(name: &str, e: &Explanation, ptx: &str) -> usize {
    let (by_line, shuffles_by_line) = ptx_by_line(ptx);
    let mut ptx_steps: BTreeMap<usize, Vec<Kind>> = BTreeMap::new();
    for (line, kinds) in &by_line {
        if let Some(i) = step_of(e, *line) {
            ptx_steps.entry(i).or_default().extend(kinds);
        }
    }
    // Line 0: code LLVM merged from several statements (a store both branches of an `if` make,
    // sunk to where they join). Such an access may stand for any of them.
    let merged: BTreeSet<Kind> = by_line.get(&0).map(|v| v.iter().copied().collect()).unwrap_or_default();
    let mut compared = 0;
    for (i, s) in e.steps.iter().enumerate() {
        if s.compound {
            continue;
        }
        let drawn: BTreeSet<Kind> = s
            .accesses
            .iter()
            .map(|a| Kind {
                shared: a.shared,
                op: if a.atomic {
                    "atom"
                } else if a.write {
                    "st"
                } else {
                    "ld"
                },
                width: a.width,
            })
            .collect();
        let ptx: &[Kind] = ptx_steps.get(&i).map(|v| v.as_slice()).unwrap_or(&[]);
        let in_ptx: BTreeSet<Kind> = ptx.iter().copied().collect();
        // Every access explain draws is one the PTX makes there, at the same width; and where
        // both sides have an access of one space and direction, they have the same widths.
        for k in &drawn {
            assert!(
                in_ptx.contains(k) || merged.contains(k),
                "{name}, line {} `{}`: explain draws {k:?}; the PTX has {in_ptx:?} (and {merged:?} merged from several lines)",
                s.line,
                s.text
            );
        }
        for k in &in_ptx {
            let seen = drawn.iter().any(|d| d.shared == k.shared && d.op == k.op);
            assert!(!seen || drawn.contains(k), "{name}, line {} `{}`: the PTX makes {k:?}; explain draws {drawn:?}", s.line, s.text);
        }
        // Counts, where a statement runs at most once per thread: lanes that skip a predicated
        // access make fewer, never more.
        if !in_loop(e, i) && s.warp_execs > 0 && !drawn.is_empty() {
            let global_ptx = ptx.iter().filter(|k| !k.shared && k.op != "atom").count() as u64;
            let global_drawn: u64 = s.accesses.iter().filter(|a| !a.shared && !a.atomic).map(|a| a.bytes / a.width as u64).sum();
            // explain sums lanes over the CTA's accesses: per lane and execution, one access per
            // instruction (a masked tile's lanes make fewer).
            let lanes = s.thread_count as u64;
            if global_ptx > 0 && lanes > 0 {
                assert!(
                    global_drawn <= global_ptx * lanes,
                    "{name}, line {} `{}`: explain counts {global_drawn} lane accesses of global memory for {lanes} threads; the PTX has {global_ptx} instructions",
                    s.line,
                    s.text
                );
            }
        }
        let shuffles_ptx: u32 = shuffles_by_line.iter().filter(|(l, _)| step_of(e, **l) == Some(i)).map(|(_, n)| *n).sum();
        let shuffles_drawn: u32 = s.shuffles.iter().map(|x| x.count).sum();
        if !in_loop(e, i) && s.warp_execs > 0 {
            assert_eq!(shuffles_drawn, shuffles_ptx, "{name}, line {} `{}`: shuffles explain draws vs the PTX's", s.line, s.text);
        }
        compared += drawn.len();
    }
    compared
}

fn explain_and_ptx(name: &str, file: &str, source: &str, kernel: &str, grid: [u32; 3], defines: &[(&str, i64)]) -> usize {
    explain_arrays_and_ptx(name, file, source, kernel, grid, defines, vec![])
}

fn explain_arrays_and_ptx(
    name: &str,
    file: &str,
    source: &str,
    kernel: &str,
    grid: [u32; 3],
    defines: &[(&str, i64)],
    arrays: Vec<(String, Array)>,
) -> usize {
    let defines: BTreeMap<String, i64> = defines.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    let req = Request {
        file: file.into(),
        source: Some(source.to_string()),
        arrays,
        kernel: Some(kernel.into()),
        grid,
        args: vec![],
        defines: defines.clone(),
        cta: [0, 0, 0],
        chip: "sm_90".into(),
        sim: Default::default(),
    };
    let e = phobos_explain::explain(&req).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    let c = phobos::Compiler::new().unwrap();
    // The dimensions are bound at launch, as explain binds them (only @autotune fixes one).
    let opts = phobos::Options::default().with_lineinfo(true);
    let kernels = c.compile_phobos(source, file, &opts).unwrap_or_else(|e| panic!("{name}: {e}"));
    let k = kernels
        .iter()
        .find(|k| k.name == kernel || k.name.starts_with(&format!("{kernel}_")))
        .unwrap_or_else(|| panic!("{name}: no kernel"));
    check(name, &e, &k.ptx)
}

#[test]
fn explain_draws_the_accesses_of_the_ptx() {
    let root = super::workspace_root();
    let read = |p: &str| std::fs::read_to_string(root.join(p)).unwrap();
    let mut compared = 0;
    // The example kernels and the tutorials.
    let cases: &[(&str, &str, [u32; 3], &[(&str, i64)])] = &[
        ("examples/lanes_matvec.phobos", "lanes_matvec", [8, 1, 1], &[("N", 32), ("K", 1024)]),
        ("examples/lane_max.phobos", "lane_max", [1, 1, 1], &[]),
        ("examples/i8_matvec.phobos", "i8_matvec", [2, 1, 1], &[("N", 16), ("K", 512)]),
        ("examples/staged_matvec.phobos", "staged_matvec", [8, 1, 1], &[("N", 32)]),
        ("examples/butterfly.phobos", "butterfly", [2, 1, 1], &[("T", 256)]),
        ("examples/tutorials/vector_add.phobos", "vector_add", [4, 1, 1], &[("N", 1000)]),
        ("examples/tutorials/gelu.phobos", "gelu", [4, 1, 1], &[("N", 1000)]),
        ("examples/tutorials/softmax.phobos", "softmax", [3, 1, 1], &[("M", 3), ("N", 1000)]),
        ("examples/tutorials/layer_norm.phobos", "layer_norm", [2, 1, 1], &[("M", 2), ("N", 1000)]),
        ("examples/tutorials/matmul.phobos", "matmul", [2, 2, 1], &[("M", 64), ("N", 64), ("K", 64)]),
        ("examples/tutorials/matmul.phobos", "matmul_4x4", [1, 1, 1], &[("M", 64), ("N", 64), ("K", 64)]),
    ];
    for (file, kernel, grid, defines) in cases {
        compared += explain_and_ptx(file, file, &read(file), kernel, *grid, defines);
    }
    // The exchanges, each mechanism of convert-exchange-to-gpu.
    for kernel in ["across", "within"] {
        compared += explain_and_ptx(kernel, "exchange.phobos", &read("tests/lit/run/exchange.phobos"), kernel, [1, 1, 1], &[]);
    }
    // The rotate's kernels: the reversals, the single pass in items of 4 and 8 bytes, and the
    // byte pass, each on a distance it takes, left and right.
    let i32s = |v: &[u64]| Array {
        dtype: Dtype::I32,
        shape: vec![v.len() as u64],
        data: v.iter().flat_map(|x| (*x as i32).to_le_bytes()).collect(),
    };
    for bytes in [1usize, 4, 8] {
        let src = phobos_rotate::library_source(bytes);
        let dtype = [Dtype::I8, Dtype::I16, Dtype::I32, Dtype::I64][bytes.trailing_zeros() as usize];
        let ty = ["i8", "i16", "i32", "i64"][bytes.trailing_zeros() as usize];
        let n = 20_000u64;
        let a = || Array { dtype, shape: vec![n], data: (0..n as usize * bytes).map(|i| (i * 7 % 251) as u8).collect() };
        let (d, right) = (100u64, bytes == 8);
        let reverse = vec![("A".to_string(), a()), ("P".to_string(), i32s(&[0, d, d, n]))];
        compared +=
            explain_arrays_and_ptx(&format!("reverse2_{ty}"), "rotate.phobos", &src, &format!("reverse2_{ty}"), [40, 1, 1], &[], reverse);
        // The single pass: tiles of TILE_BYTES, the head's tiles first.
        let (single, tile) = if bytes == 1 {
            ("rotate_bytes".to_string(), phobos_rotate::TILE_BYTES as u64)
        } else {
            (format!("rotate_tiles_{ty}"), (phobos_rotate::TILE_BYTES / bytes) as u64)
        };
        let (heads, tiles) = (d.div_ceil(tile), (n - d).div_ceil(tile));
        let arrays = vec![
            ("A".to_string(), a()),
            ("P".to_string(), i32s(&[d, n, tiles, 0, heads, right as u64])),
            ("W".to_string(), i32s(&vec![0; (heads + tiles + 1) as usize])),
        ];
        compared += explain_arrays_and_ptx(&single, "rotate.phobos", &src, &single, [(heads + tiles).max(2) as u32, 1, 1], &[], arrays);
    }
    assert!(compared > 30, "{compared} accesses compared");
}
