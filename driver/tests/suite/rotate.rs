//! `rotate` (issue 15) on the simulator: every item size, sizes around the edges and tiles,
//! distances 0, 1, n - 1, n / 2, n + 3 and random ones, sub-ranges at byte offsets 1 to 31,
//! against `rotate_left` (which is `np.roll(a, -d)` on the flattened items).

use super::e2e::Rng;
use phobos::{api::Device, rotate};

fn bytes(n: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    (0..n).map(|_| rng.next() as u8).collect()
}

/// The reference: items of `item` bytes rotated left by `d mod n`.
fn reference(data: &[u8], item: usize, d: u64) -> Vec<u8> {
    let mut items: Vec<&[u8]> = data.chunks_exact(item).collect();
    if !items.is_empty() {
        let k = (d % items.len() as u64) as usize;
        items.rotate_left(k);
    }
    items.concat()
}

#[test]
fn rotate_matches_roll_for_every_size_distance_and_item() {
    let mut rng = Rng::new(15);
    for item in rotate::ITEM_BYTES {
        for n in [0usize, 1, 2, 31, 32, 33, 4095, (32 << 10) / item - 1, (32 << 10) / item + 1] {
            let data = bytes(n * item, (n * 7 + item) as u64);
            let mut ds = vec![0, 1, n.saturating_sub(1) as u64, (n / 2) as u64, n as u64 + 3];
            ds.push(rng.int(0, 1 << 40) as u64);
            for d in ds {
                let mut got = data.clone();
                rotate::rotate(&Device::Simulator, &mut got, item, d).unwrap_or_else(|e| panic!("{item}-byte items, n={n}, d={d}: {e}"));
                assert!(got == reference(&data, item, d), "{item}-byte items, n={n}, d={d}");
            }
        }
    }
}

#[test]
fn rotate_handles_several_mebibytes() {
    // 4 MiB of 8-byte items, a distance above any tile count of a single-pass scheme.
    let data = bytes(4 << 20, 3);
    for d in [1u64, 300_001] {
        let mut got = data.clone();
        rotate::rotate(&Device::Simulator, &mut got, 8, d).unwrap();
        assert!(got == reference(&data, 8, d), "d={d}");
    }
}

#[test]
fn rotate_range_at_every_byte_offset() {
    let buf = bytes(4096 + 64, 9);
    for offset in 1..32usize {
        for (len, by) in [(4096usize, 1u64), (4000, 2000), (333, 4096 + 7), (8, 8)] {
            let mut got = buf.clone();
            rotate::rotate_range(&Device::Simulator, &mut got, offset, len, by).unwrap();
            let mut want = buf.clone();
            want[offset..offset + len].rotate_left((by % len as u64) as usize);
            assert!(got == want, "offset {offset}, len {len}, by {by}");
        }
    }
}

#[test]
fn rotate_rejects_what_it_cannot_move() {
    let mut b = vec![0u8; 12];
    let e = rotate::rotate(&Device::Simulator, &mut b, 3, 1).unwrap_err().to_string();
    assert!(e.contains("items of 1, 2, 4 or 8 bytes, not 3"), "{e}");
    let e = rotate::rotate(&Device::Simulator, &mut b[..10], 4, 1).unwrap_err().to_string();
    assert!(e.contains("10 bytes are not whole 4-byte items"), "{e}");
    let e = rotate::rotate_range(&Device::Simulator, &mut b, 8, 8, 1).unwrap_err().to_string();
    assert!(e.contains("bytes [8, 8 + 8) are outside the buffer of 12 bytes"), "{e}");
}

/// The single pass's ordering is what makes it correct: with the release store of its flags
/// made a plain store, a CTA overwrites data another CTA read with nothing ordering the two,
/// and the simulator's cross-CTA checker says so.
#[test]
fn rotate_without_its_release_is_caught_by_the_sanitizer() {
    use phobos::api::{Arg, Compiler, Error, FaultKind, Options};
    let src = rotate::library_source(4);
    assert!(src.contains("store_release(W[1 + k], 1)"));
    let broken = src.replace("store_release(W[1 + k], 1)", "W[1 + k] = 1");
    let c = Compiler::new().unwrap();
    let ks = c.compile_phobos(&broken, "broken.phobos", &Options::default()).unwrap();
    let k = ks.iter().find(|k| k.name.starts_with("rotate_tiles")).unwrap();
    let (n, d) = (40_000u64, 5u64);
    let tile = (rotate::TILE_BYTES / 4) as u64;
    let tiles = (n - d).div_ceil(tile);
    let mut data = bytes(4 * n as usize, 5);
    let mut p: Vec<u8> = [d, n, tiles, 0].iter().flat_map(|v| (*v as i32).to_le_bytes()).collect();
    let mut w = vec![0u8; 4 * (tiles as usize + 2)];
    let r = k.launch(
        &Device::Simulator,
        [4, 1, 1],
        &mut [Arg::Buffer(&mut data), Arg::Buffer(&mut p), Arg::Buffer(&mut w), Arg::I64(n as i64), Arg::I64(tiles as i64 + 2)],
    );
    match r {
        Err(Error::Fault(f)) => {
            assert_eq!(f.kind, FaultKind::GlobalRace, "{f}");
            assert!(f.message.contains("with no release/acquire pair ordering them"), "{f}");
        }
        other => panic!("the broken rotate ran: {other:?}"),
    }
}
