//! Byte offsets inside the core, UTF-16 code units at the JS boundary.

/// Largest char boundary `<= index` (clamped to `text.len()`), so a byte
/// index computed by arithmetic can never split a multi-byte character.
pub fn floor_char_boundary(text: &str, index: usize) -> usize {
    if index >= text.len() {
        return text.len();
    }
    let mut i = index;
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Length of `text` in UTF-16 code units (what JS `string.length`
/// reports), computed from the bytes in one pass without decoding.
pub fn utf16_len(text: &str) -> usize {
    text.bytes()
        .map(|b| usize::from(b & 0xC0 != 0x80) + usize::from(b >= 0xF0))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_len_counts_surrogate_pairs_twice() {
        assert_eq!(utf16_len(""), 0);
        assert_eq!(utf16_len("abc"), 3);
        assert_eq!(utf16_len("a中😀b"), 5);
    }

    #[test]
    fn floor_char_boundary_never_splits_a_char() {
        let text = "中文";
        assert_eq!(floor_char_boundary(text, 1), 0);
        assert_eq!(floor_char_boundary(text, 4), 3);
        assert_eq!(floor_char_boundary(text, 99), 6);
    }
}
