//! The shared-memory bank model (pinned): 32 banks of 4-byte words. For one
//! warp-wide access of `w` bytes per lane (`w < 4` counts as 4), the active lanes split into
//! phases of `128 / w` consecutive lanes; a phase costs the largest number of distinct 4-byte
//! words that fall in one bank (1 when there is no conflict). An access's conflicts are the sum
//! over its phases with active lanes of (cost − 1).
//!
//! The simulator counts them for `phobos run --stats`; the exchange lowering uses the same
//! count to choose a staging layout at compile time.

/// Banks of shared memory.
pub const BANKS: u64 = 32;

/// Conflicts of one warp-wide access: `lanes` holds (lane, first byte) of each active lane, each
/// touching `width` bytes.
pub fn conflicts(lanes: &[(u32, u64)], width: u64) -> u64 {
    if lanes.is_empty() {
        return 0;
    }
    if width == 16 && lanes.iter().all(|(_, a)| a % 16 == 0) && lanes.is_sorted_by_key(|(l, _)| *l) {
        return conflicts_of_chunks(lanes);
    }
    let w = width.clamp(4, 128);
    let per_phase = (128 / w).max(1) as u32;
    let mut total = 0;
    // The simulator counts every shared access: no allocation per phase, and no sort. A phase's
    // distinct words are kept in a fixed buffer unless lanes repeat or widths are odd; then a
    // vector takes the rest.
    let mut fixed = [0u64; 256];
    let mut spill: Vec<u64> = Vec::new();
    let sorted = lanes.is_sorted_by_key(|(l, _)| *l);
    for phase in 0..32u32.div_ceil(per_phase) {
        let mut n = 0;
        spill.clear();
        let mut per_bank = [0u64; BANKS as usize];
        // Lanes in order (as the simulator gives them) make each phase a run of them.
        let run: &[(u32, u64)] = if sorted {
            let from = lanes.partition_point(|(l, _)| l / per_phase < phase);
            let to = lanes.partition_point(|(l, _)| l / per_phase <= phase);
            &lanes[from..to]
        } else {
            lanes
        };
        for (_, addr) in run.iter().filter(|(l, _)| l / per_phase == phase) {
            for word in addr / 4..(addr + width).div_ceil(4) {
                let bank = (word % BANKS) as usize;
                // A word already in its bank is the same access (a broadcast).
                if per_bank[bank] > 0 && (fixed[..n.min(fixed.len())].contains(&word) || spill.contains(&word)) {
                    continue;
                }
                per_bank[bank] += 1;
                if n < fixed.len() {
                    fixed[n] = word;
                } else {
                    spill.push(word);
                }
                n += 1;
            }
        }
        if n > 0 {
            total += per_bank.iter().copied().max().unwrap_or(1).max(1) - 1;
        }
    }
    total
}

/// [`conflicts`] of aligned 16-byte accesses (`ldmatrix` rows, `cp.async` and vector copies),
/// lanes in order: a phase is 8 lanes, a chunk takes 4 banks, so chunk `c` is in bank group
/// `c % 8`; a phase costs the most distinct chunks in one group.
fn conflicts_of_chunks(lanes: &[(u32, u64)]) -> u64 {
    let mut total = 0;
    let mut rest = lanes;
    while let Some(&(first, _)) = rest.first() {
        let n = rest.iter().take_while(|(l, _)| l / 8 == first / 8).count();
        let (phase, next) = rest.split_at(n);
        let mut per_group = [0u64; 8];
        for (i, (_, a)) in phase.iter().enumerate() {
            if !phase[..i].iter().any(|(_, b)| b / 16 == a / 16) {
                per_group[((a / 16) % 8) as usize] += 1;
            }
        }
        total += per_group.iter().copied().max().unwrap_or(1).max(1) - 1;
        rest = next;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lanes(f: impl Fn(u32) -> u64) -> Vec<(u32, u64)> {
        (0..32).map(|l| (l, f(l))).collect()
    }

    #[test]
    fn the_pinned_definition() {
        // Consecutive 4-byte words: one per bank.
        assert_eq!(conflicts(&lanes(|l| 4 * l as u64), 4), 0);
        // Every lane the same word: a broadcast.
        assert_eq!(conflicts(&lanes(|_| 64), 4), 0);
        // Stride of 2 words: two distinct words in 16 banks.
        assert_eq!(conflicts(&lanes(|l| 8 * l as u64), 4), 1);
        // Stride of 32 words: all 32 in bank 0.
        assert_eq!(conflicts(&lanes(|l| 128 * l as u64), 4), 31);
        // 8-byte accesses: two phases of 16 lanes, each conflict-free when consecutive.
        assert_eq!(conflicts(&lanes(|l| 8 * l as u64), 8), 0);
        // 16-byte accesses, consecutive: four phases of 8 lanes, each conflict-free.
        assert_eq!(conflicts(&lanes(|l| 16 * l as u64), 16), 0);
        // Bytes count as words: 32 lanes on 8 words, no conflict.
        assert_eq!(conflicts(&lanes(|l| l as u64), 1), 0);
        // Only active lanes count; a phase with none costs nothing.
        assert_eq!(conflicts(&[(0, 0), (1, 128)], 4), 1);
        assert_eq!(conflicts(&[], 4), 0);
    }

    /// The count against a plain reading of the definition, on pseudo-random accesses of every
    /// width (repeated lanes and unaligned addresses too).
    #[test]
    fn matches_the_definition_read_plainly() {
        fn plain(lanes: &[(u32, u64)], width: u64) -> u64 {
            let per_phase = (128 / width.clamp(4, 128)).max(1) as u32;
            (0..32u32.div_ceil(per_phase))
                .map(|p| {
                    let mut banks: Vec<Vec<u64>> = vec![Vec::new(); BANKS as usize];
                    let mut active = false;
                    for (_, a) in lanes.iter().filter(|(l, _)| l / per_phase == p) {
                        active = true;
                        for w in a / 4..(a + width).div_ceil(4) {
                            if !banks[(w % BANKS) as usize].contains(&w) {
                                banks[(w % BANKS) as usize].push(w);
                            }
                        }
                    }
                    if active {
                        banks.iter().map(|b| b.len() as u64).max().unwrap_or(1).max(1) - 1
                    } else {
                        0
                    }
                })
                .sum()
        }
        let mut s: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for _ in 0..2000 {
            let width = [1, 2, 4, 8, 16, 64, 128][(next() % 7) as usize];
            let n = next() % 40;
            let lanes: Vec<(u32, u64)> = (0..n).map(|_| ((next() % 32) as u32, next() % 4096)).collect();
            assert_eq!(conflicts(&lanes, width), plain(&lanes, width), "{lanes:?} width {width}");
            // Aligned 16-byte accesses in lane order (the chunk count's path), repeats included.
            let mut lanes: Vec<(u32, u64)> = (0..n).map(|_| ((next() % 32) as u32, 16 * (next() % 64))).collect();
            lanes.sort();
            assert_eq!(conflicts(&lanes, 16), plain(&lanes, 16), "{lanes:?} width 16");
        }
    }
}
