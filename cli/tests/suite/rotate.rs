//! `rotate` on the simulator: every item size, sizes around the edges and tiles,
//! distances 0, 1, n - 1, n / 2, n + 3 and random ones, sub-ranges at byte offsets 1 to 31,
//! against `rotate_left` (which is `np.roll(a, -d)` on the flattened items); every scheme forced
//! too; device buffers; the PTX of the byte pass.

use super::e2e::Rng;
use phobos::{Device, LaunchOptions};
use phobos_rotate as rotate;

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

/// Each scheme, forced, on ranges at odd offsets and lengths: the byte pass's realignment (every
/// source/destination offset within a word and a 16-byte chunk), the item pass, the reversals.
#[test]
fn every_scheme_matches_the_reference() {
    use rotate::Scheme;
    let buf = bytes(70_100, 21);
    let cases = [(0usize, 70_000usize, 1u64), (3, 65_537, 32_753), (5, 40_000, 17), (17, 33_000, 32_750), (1, 100, 99), (31, 48, 5)];
    for scheme in [Scheme::Bytes, Scheme::Items, Scheme::Reversals] {
        for (offset, len, by) in cases {
            for shift in 0..4 {
                let (offset, by) = (offset + shift, by + shift as u64 * 5);
                let mut got = buf.clone();
                rotate::rotate_range_by(&Device::Simulator, &mut got, offset, len, by, scheme, &LaunchOptions::default())
                    .unwrap_or_else(|e| panic!("{scheme:?} offset {offset} len {len} by {by}: {e}"));
                let mut want = buf.clone();
                want[offset..offset + len].rotate_left((by % len as u64) as usize);
                assert!(got == want, "{scheme:?} offset {offset} len {len} by {by}");
            }
        }
    }
    // On one simulated SM (7 resident CTAs of the byte pass), a head of 13 tiles cannot wait.
    let one_sm = LaunchOptions::default().with_sim(phobos::SimOptions { sms: 1, ..Default::default() });
    let mut big = bytes(1 << 20, 5);
    let e = rotate::rotate_range_by(&Device::Simulator, &mut big, 0, 1 << 20, 400_000, Scheme::Bytes, &one_sm).unwrap_err();
    assert!(e.to_string().contains("needs 14 resident CTAs for the single pass; the device holds 7"), "{e}");
    // Auto falls back to the reversals there, and says so.
    let r = rotate::rotate_range_by(&Device::Simulator, &mut big, 0, 1 << 20, 400_000, Scheme::Auto, &one_sm).unwrap();
    assert_eq!((r.scheme.as_str(), r.launches), ("reversals", 2));
    assert_eq!(r.counted.map(|c| c.array_read + c.array_written), Some(4 << 20));
}

/// The speed of light for every distance whose head fits in the tiles in flight, left
/// and right (the shorter way round): the simulator counts 2 bytes moved per byte of the array
/// and no bank conflict, for every item size, and the result is `np.roll`'s.
#[test]
fn the_single_pass_moves_two_bytes_per_byte_at_every_distance_in_flight() {
    let n = 256 << 10;
    let data = bytes(n, 25);
    for item in rotate::ITEM_BYTES {
        let items = (n / item) as u64;
        // np.roll(a, 1) (left by n - 1: the right pass), np.roll(a, -1), 1 KiB, 100 KiB (four
        // head tiles), and n / 2 (eight head tiles, the farthest either way).
        for (what, d) in
            [("roll +1", items - 1), ("roll -1", 1), ("1 KiB", 1024 / item as u64), ("100 KiB", 102_400 / item as u64), ("half", items / 2)]
        {
            let mut got = data.clone();
            let r = rotate::rotate_with_options(&Device::Simulator, &mut got, item, d, &LaunchOptions::default()).unwrap();
            assert!(got == reference(&data, item, d), "{item}-byte items, {what}");
            let want_scheme = if d > items / 2 { "single-pass-bytes-right" } else { "single-pass-bytes-left" };
            assert_eq!((r.scheme.as_str(), r.launches), (want_scheme, 1), "{item}-byte items, {what}");
            let c = r.counted.expect("the simulator counts");
            assert_eq!((c.array_read, c.array_written, c.bank_conflicts), (n as u64, n as u64, 0), "{item}-byte items, {what}");
        }
    }
}

/// The item pass (for buffers of 2 GiB and more) takes the same distances, both directions.
#[test]
fn the_item_pass_rotates_both_ways_with_several_head_tiles() {
    use rotate::Scheme;
    let n = 300_000;
    let buf = bytes(n + 8, 27);
    for (offset, by) in [(0usize, 8u64), (8, (n - 8) as u64), (4, 100_000), (0, 200_000)] {
        let mut got = buf.clone();
        let r = rotate::rotate_range_by(&Device::Simulator, &mut got, offset, n, by, Scheme::Items, &LaunchOptions::default()).unwrap();
        let mut want = buf.clone();
        want[offset..offset + n].rotate_left(by as usize % n);
        assert!(got == want, "offset {offset} by {by}");
        assert!(r.scheme.starts_with("single-pass-items-"), "{}", r.scheme);
        assert_eq!(r.counted.map(|c| c.array_read + c.array_written), Some(2 * n as u64), "offset {offset} by {by}");
    }
}

/// A sub-range of a buffer that lives on the device, rotated there at every byte offset.
#[test]
fn rotate_device_range_at_every_byte_offset() {
    let buf = bytes(9000, 4);
    let device = Device::Simulator;
    let d = device.upload(&buf).unwrap();
    let mut want = buf.clone();
    for offset in 1..32usize {
        let (len, by) = (8000 - offset * 3, (offset * 37) as u64);
        rotate::rotate_device_range(&device, &d, offset, len, by).unwrap();
        want[offset..offset + len].rotate_left(by as usize % len);
    }
    assert!(d.read().unwrap() == want);
    assert!(rotate::rotate_device_range(&device, &d, 8999, 2, 1).is_err());
}

/// The byte pass moves 16 aligned bytes per access: vector loads and stores, realigned by a
/// byte funnel (LLVM turns a funnel shift by whole bytes into `prmt.b32.f4e`); ptxas accepts it
/// for sm_80 and sm_90.
#[test]
fn rotate_byte_pass_ptx_moves_aligned_vectors() {
    use phobos::{Compiler, Options};
    let c = Compiler::new().unwrap();
    for chip in ["sm_80", "sm_90"] {
        let ks = c.compile_phobos(&rotate::library_source(1), "rotate.phobos", &Options::default().with_chip(chip)).unwrap();
        let k = ks.iter().find(|k| k.name == "rotate_bytes").unwrap();
        let body = &k.ptx[k.ptx.find(".entry rotate_bytes(").unwrap()..];
        assert_eq!(body.matches("ld.global.v4.b32").count(), 1, "{body}");
        assert_eq!(body.matches("st.global.v4.b32").count(), 1, "{body}");
        assert_eq!(body.matches("prmt.b32.f4e").count(), 4, "{body}");
        assert!(body.contains("ld.acquire.gpu") && body.contains("st.release.gpu"), "{body}");
        let Some(ptxas) = phobos_compiler::stats::find_ptxas() else {
            super::tool_missing("ptxas", "rotate_bytes through ptxas; third_party/install.sh installs it");
            continue;
        };
        let f = super::workspace_root().join(format!("target/rotate-bytes-{chip}.ptx"));
        std::fs::write(&f, &k.ptx).unwrap();
        let out = std::process::Command::new(ptxas).arg(format!("-arch={chip}")).arg(&f).arg("-o").arg("/dev/null").output().unwrap();
        assert!(out.status.success(), "{chip}: {}", String::from_utf8_lossy(&out.stderr));
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
/// and the simulator's cross-CTA checker says so, for the item pass and the byte pass.
#[test]
fn rotate_without_its_release_is_caught_by_the_sanitizer() {
    use phobos::{Arg, Compiler, Error, FaultKind, Options};
    for (item, name) in [(4usize, "rotate_tiles"), (1, "rotate_bytes")] {
        let src = rotate::library_source(item);
        assert!(src.contains("store_release(W[1 + k], 1)"));
        let broken = src.replace("store_release(W[1 + k], 1)", "W[1 + k] = 1");
        let c = Compiler::new().unwrap();
        let ks = c.compile_phobos(&broken, "broken.phobos", &Options::default()).unwrap();
        let k = ks.iter().find(|k| k.name.starts_with(name)).unwrap();
        let (n, d) = (40_000u64, 5u64);
        let tile = (rotate::TILE_BYTES / item) as u64;
        let tiles = (n - d).div_ceil(tile);
        let mut data = bytes(item * n as usize, 5);
        // One head tile, rotating left: P = [d, n, tiles, off, heads, right].
        let mut p: Vec<u8> = [d, n, tiles, 0, 1, 0].iter().flat_map(|v| (*v as i32).to_le_bytes()).collect();
        let mut w = vec![0u8; 4 * (tiles as usize + 2)];
        let r = k.launch(
            &Device::Simulator,
            [4, 1, 1],
            &mut [Arg::Buffer(&mut data), Arg::Buffer(&mut p), Arg::Buffer(&mut w), Arg::I64(n as i64), Arg::I64(tiles as i64 + 2)],
        );
        match r {
            Err(Error::Fault(f)) => {
                assert_eq!(f.kind, FaultKind::GlobalRace, "{name}: {f}");
                assert!(f.message.contains("with no release/acquire pair ordering them"), "{f}");
            }
            other => panic!("the broken {name} ran: {other:?}"),
        }
    }
}

/// The benchmark's timing path (`phobos bench` on a GPU) on the simulator: each timed rotation
/// zeroes its flags first, so repeated rotations of one device buffer compose; one time per
/// rotation.
#[test]
fn timed_rotations_of_a_device_buffer_compose() {
    let dev = Device::Simulator;
    for (n, by) in [(5000usize, 37u64), (5000, 2501), (4099, 4098), (40000, 33001)] {
        let host = bytes(n, n as u64 + by);
        let buf = dev.upload(&host).unwrap();
        let timed = rotate::time_device(&dev, &buf, by, 3).unwrap();
        assert_eq!(timed.times.len(), 3);
        // Every distance here takes the single pass over bytes (the shorter way round).
        assert_eq!(timed.kernels, ["rotate_bytes"], "n = {n}, by = {by}");
        assert_eq!(buf.read().unwrap(), reference(&host, 1, by * 3), "n = {n}, by = {by}");
    }
}

/// `phobos explain` on the byte pass draws the accesses the GPU makes: one 16-byte load and one
/// 16-byte store of A per chunk (`merge-repeated-checks` lets CSE merge the four reads of a run,
/// `merge-adjacent-stores` joins the four `store_word`s), as the PTX has one `ld.global.v4` and
/// one `st.global.v4`, with no extra 128-byte lines.
#[test]
fn explain_draws_the_byte_pass_at_the_ptx_width() {
    let dir = super::workspace_root().join("target/rotate-explain");
    std::fs::create_dir_all(&dir).unwrap();
    let src = rotate::library_source(1);
    let start = src.find("fn sidx").unwrap();
    let file = dir.join("rotate_bytes.phobos");
    std::fs::write(&file, &src[start..]).unwrap();
    let (n, tiles) = (40_000u64, 2u64);
    let mut arrays = Vec::new();
    for (name, arr) in [
        ("A", phobos_runtime::npy::Array { dtype: phobos_runtime::npy::Dtype::I8, shape: vec![n], data: bytes(n as usize, 6) }),
        (
            "P",
            phobos_runtime::npy::Array {
                dtype: phobos_runtime::npy::Dtype::I32,
                shape: vec![6],
                data: [5u64, n, tiles, 0, 1, 0].iter().flat_map(|v| (*v as i32).to_le_bytes()).collect(),
            },
        ),
        (
            "W",
            phobos_runtime::npy::Array {
                dtype: phobos_runtime::npy::Dtype::I32,
                shape: vec![tiles + 2],
                data: vec![0; 4 * (tiles as usize + 2)],
            },
        ),
    ] {
        arrays.push((name.to_string(), arr));
    }
    let req = phobos_explain::Request {
        file: file.clone(),
        source: None,
        arrays,
        kernel: None,
        grid: [2, 1, 1],
        args: vec![],
        defines: Default::default(),
        cta: [1, 0, 0],
        chip: "sm_90".into(),
        sim: Default::default(),
    };
    let text = phobos_explain::render_text(&phobos_explain::explain(&req).unwrap_or_else(|e| panic!("{e:?}")));
    let wide: Vec<&str> = text.lines().filter(|l| l.contains(" of A in 16-byte accesses")).collect();
    assert_eq!(wide.len(), 2, "{text}");
    assert!(wide[0].contains("reads") && wide[1].contains("writes"), "{wide:?}");
    assert!(wide.iter().all(|l| l.contains("(0 extra)")), "{wide:?}");
    assert!(!text.lines().any(|l| l.contains("writes") && l.contains("of A in 4-byte accesses")), "{text}");
    let c = phobos::Compiler::new().unwrap();
    let ks = c.compile_phobos(&src, "rotate.phobos", &phobos::Options::default()).unwrap();
    let k = ks.iter().find(|k| k.name == "rotate_bytes").unwrap();
    let body = &k.ptx[k.ptx.find(".entry rotate_bytes(").unwrap()..];
    assert_eq!((body.matches("ld.global.v4.b32").count(), body.matches("st.global.v4.b32").count()), (1, 1), "{body}");
}
