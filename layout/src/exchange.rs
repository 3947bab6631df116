//! Thread/value layouts of a CTA's register arrays: `T` threads hold `n`
//! items each, `T·n` logical positions. A thread/value layout maps the index `t + T·i` (thread
//! fastest) of item `i` of thread `t` to its position; it must be a bijection onto `[0, T·n)`.
//!
//! `blocked`: position `t·n + i`; `striped`: `i·T + t`; `warp_striped`: warp `w`, lane `l`
//! holds `w·32·n + i·32 + l`.

use crate::{check_space, expr, Map, Space};

/// Threads of a warp.
pub const WARP: i64 = 32;

/// The expression a named layout stands for, for `threads` threads of `items` items.
pub fn named(name: &str, threads: i64, items: i64) -> Option<String> {
    Some(match name {
        "blocked" => format!("blocked({threads},{items})"),
        "striped" => format!("striped({threads},{items})"),
        "warp_striped" => format!("warp_striped({threads},{items},{WARP})"),
        _ => return None,
    })
}

/// Parses `text` as the thread/value layout of `threads` threads of `items` items; the error is
/// one line naming what is wrong.
pub fn resolve(text: &str, threads: i64, items: i64) -> Result<Map, String> {
    let map = match expr::eval(text) {
        Ok(expr::Value::Map(m)) => m,
        Ok(_) => return Err(format!("\"{text}\" is not a layout")),
        Err(e) => return Err(format!("layout \"{text}\": {e}")),
    };
    if let Some(t) = map.table() {
        return Err(format!("layout \"{text}\": {t} is a function no layout equals; a kernel cannot compute it"));
    }
    let n = threads * items;
    if let Map::Layout(l) = &map {
        let sizes: Vec<i64> = l.modes().iter().map(|m| m.size()).collect();
        if sizes != [threads, items] {
            return Err(format!(
                "layout \"{text}\" has shape {}; a thread/value layout of {threads} threads with {items} items each has shape ({threads}, {items}) (threads, then items)",
                l.shape
            ));
        }
    } else if map.size() != n {
        return Err(format!("layout \"{text}\" has {} positions; {threads} threads with {items} items each have {n}", map.size()));
    }
    // The check's message names the layout and says what fails ("L is not a bijection onto
    // [0, n): ..."): the layout as the user wrote it, then that, once.
    check_space(&map, Space::ThreadValue).map_err(|e| {
        let e = e.to_string();
        match e.strip_prefix(&map.to_string()) {
            Some(why) => format!("layout \"{text}\"{why}"),
            None => format!("layout \"{text}\": {e}"),
        }
    })?;
    Ok(map)
}

/// Where each output item comes from in `exchange<A, B>`: for item `i` of thread `t` (index
/// `t + T·i`), the (thread, item) of the input that holds position `B(t, i)` under `A`.
pub fn sources(a: &Map, b: &Map, threads: i64, items: i64) -> Vec<(i64, i64)> {
    let mut inv = vec![0i64; (threads * items) as usize];
    for x in 0..threads * items {
        inv[a.eval(x) as usize] = x;
    }
    (0..threads * items)
        .map(|x| {
            let y = inv[b.eval(x) as usize];
            (y % threads, y / threads)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(name: &str, t: i64, n: i64) -> Map {
        resolve(&named(name, t, n).unwrap(), t, n).unwrap()
    }

    #[test]
    fn named_layouts_follow_their_definitions() {
        for (t, n) in [(32, 1), (32, 3), (64, 4), (96, 2), (256, 8)] {
            for ti in 0..t {
                for i in 0..n {
                    let x = ti + t * i;
                    assert_eq!(map("blocked", t, n).eval(x), ti * n + i);
                    assert_eq!(map("striped", t, n).eval(x), i * t + ti);
                    let (w, l) = (ti / 32, ti % 32);
                    assert_eq!(map("warp_striped", t, n).eval(x), w * 32 * n + i * 32 + l);
                }
            }
        }
        assert_eq!(resolve("(128,4):(4,1)", 128, 4).unwrap().values(), map("blocked", 128, 4).values());
    }

    #[test]
    fn sources_invert_the_first_layout() {
        let (t, n) = (64, 3);
        let (a, b) = (map("blocked", t, n), map("striped", t, n));
        for (x, (st, si)) in sources(&a, &b, t, n).into_iter().enumerate() {
            assert_eq!(a.eval(st + t * si), b.eval(x as i64));
        }
    }

    #[test]
    fn bad_layouts_are_named() {
        let e = resolve("(32,2):(1,1)", 32, 2).unwrap_err();
        assert!(e.contains("is not a bijection onto [0, 64)"), "{e}");
        assert_eq!(e.matches("is not a bijection").count(), 1, "the clause once: {e}");
        let e = resolve("(64,2):(2,1)", 32, 2).unwrap_err();
        assert!(e.contains("has shape (64,2)"), "{e}");
        assert!(resolve("(32,2", 32, 2).is_err());
    }
}
