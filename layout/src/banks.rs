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
    let w = width.clamp(4, 128);
    let per_phase = (128 / w).max(1) as u32;
    let mut total = 0;
    let mut phase_words: Vec<Vec<u64>> = Vec::new();
    for phase in 0..32u32.div_ceil(per_phase) {
        phase_words.clear();
        phase_words.resize(BANKS as usize, Vec::new());
        let mut active = false;
        for (_, addr) in lanes.iter().filter(|(l, _)| l / per_phase == phase) {
            active = true;
            for word in addr / 4..(addr + width).div_ceil(4) {
                let bank = &mut phase_words[(word % BANKS) as usize];
                if !bank.contains(&word) {
                    bank.push(word);
                }
            }
        }
        if active {
            total += phase_words.iter().map(|b| b.len() as u64).max().unwrap_or(1).max(1) - 1;
        }
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
}
