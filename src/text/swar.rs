//! Eight bytes at a time in plain `u64` arithmetic (SWAR): the byte tests
//! the matcher's scans and the line splitter share. Fast natively
//! and in wasm alike, with no SIMD dependency.
//!
//! Ours, not `memchr`'s: these loops are the matcher's scans (SPEC §1), and
//! one word loop answers several questions at once (the next line break,
//! whether a run is ASCII, how many breaks precede a match), which a
//! byte finder alone does not.

/// `0x01` in every byte: `LO * b` repeats byte `b` eight times.
pub(crate) const LO: u64 = 0x0101_0101_0101_0101;
const HI7: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// High bit set in every byte of `x` that is zero (exact per byte: no
/// carry crosses a byte).
#[inline]
pub(crate) fn zero_bytes(x: u64) -> u64 {
    !(((x & HI7).wrapping_add(HI7)) | x | HI7)
}

/// High bit set in every byte of `x` equal to `byte`.
#[inline]
pub(crate) fn bytes_equal(x: u64, byte: u8) -> u64 {
    zero_bytes(x ^ (LO * u64::from(byte)))
}

/// The first index of `byte` in `bytes`, eight bytes per step: the
/// newline search of `lines_with_endings` and of the matcher's
/// `next_newline` (after its `v128` steps in wasm). A byte loop is not
/// vectorised, and `str::find` checks each hit with a `memcmp` call.
pub(crate) fn find_byte(bytes: &[u8], byte: u8) -> Option<usize> {
    let mut chunks = bytes.chunks_exact(8);
    let mut at = 0;
    for chunk in &mut chunks {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
        let hits = bytes_equal(word, byte);
        if hits != 0 {
            return Some(at + hits.trailing_zeros() as usize / 8);
        }
        at += 8;
    }
    let tail = chunks.remainder();
    tail.iter().position(|&b| b == byte).map(|i| at + i)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `find_byte` is `position` at every length and offset around the
    /// eight-byte steps, with the byte absent, once, or repeated, among
    /// bytes next to it (0x00, 0x09, 0x0b, and 0x8a, which differs only in
    /// the high bit).
    #[test]
    fn find_byte_finds_the_first() {
        for fill in [b'a', 0x00, 0x09, 0x0b, 0x8a] {
            for len in 0..40 {
                for at in 0..=len {
                    for also in [None, Some(at + 1), Some(at + 9)] {
                        let mut bytes = vec![fill; len];
                        if at < len {
                            bytes[at] = b'\n';
                        }
                        if let Some(j) = also.filter(|&j| j < len) {
                            bytes[j] = b'\n';
                        }
                        let expected = bytes.iter().position(|&b| b == b'\n');
                        let found = find_byte(&bytes, b'\n');
                        assert_eq!(found, expected, "{fill} {len} {at} {also:?}");
                    }
                }
            }
        }
    }

    /// Each test marks exactly the bytes it names, wherever they sit.
    #[test]
    fn marks_are_exact_per_byte() {
        assert_eq!(zero_bytes(0x0100_0000_0000_0000).count_ones(), 7);
        for b in 0..=255u8 {
            for at in 0..8 {
                let mut word = [b'a'; 8];
                word[at] = b;
                let x = u64::from_le_bytes(word);
                let hit = 0x80u64 << (8 * at);
                assert_eq!(bytes_equal(x, b'"') & hit != 0, b == b'"');
                assert_eq!(bytes_equal(x, b'"') & !hit, 0, "{b} at {at}");
            }
        }
    }
}
