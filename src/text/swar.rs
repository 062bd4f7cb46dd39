//! Eight bytes at a time in plain `u64` arithmetic (SWAR): the byte tests
//! the matcher's scans and the JSON reader and writer share. Fast natively
//! and in wasm alike, with no SIMD dependency.

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

/// High bit set in every byte of `x` below 0x20 (a control character):
/// its top three bits are zero.
#[inline]
pub(crate) fn control_bytes(x: u64) -> u64 {
    zero_bytes(x & (LO * 0xe0))
}

#[cfg(test)]
mod tests {
    use super::*;

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
                assert_eq!(control_bytes(x) & hit != 0, b < 0x20);
                assert_eq!(control_bytes(x) & !hit, 0, "{b} at {at}");
            }
        }
    }
}
