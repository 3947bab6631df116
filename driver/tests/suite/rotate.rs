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
