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

/// Converts UTF-8 byte offsets of one text into UTF-16 offsets (what JS
/// string indices count): O(n) to build, O(log n) per query, and O(1)
/// memory for ASCII text.
pub struct Utf16Index {
    /// One entry per non-ASCII char: (byte offset, UTF-8 length, UTF-16
    /// offset, UTF-16 length). Between entries the text is ASCII, where one
    /// byte is one code unit.
    wide: Vec<(usize, u8, usize, u8)>,
}

impl Utf16Index {
    pub fn new(text: &str) -> Self {
        let mut wide = Vec::new();
        let mut extra = 0usize; // utf16 offset = byte offset - extra
        for (byte, ch) in text.char_indices() {
            if !ch.is_ascii() {
                let (l8, l16) = (ch.len_utf8(), ch.len_utf16());
                wide.push((byte, l8 as u8, byte - extra, l16 as u8));
                extra += l8 - l16;
            }
        }
        Utf16Index { wide }
    }

    /// UTF-16 offset of a byte offset; an offset inside a multi-byte char
    /// is rounded down to that char's start.
    pub fn utf16_of(&self, byte: usize) -> usize {
        let idx = self.wide.partition_point(|&(b, ..)| b <= byte);
        if idx == 0 {
            return byte;
        }
        let (b, l8, u, l16) = self.wide[idx - 1];
        let char_end = b + l8 as usize;
        if byte < char_end {
            u
        } else {
            u + l16 as usize + (byte - char_end)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_offsets_match_js_string_indices() {
        let text = "a中😀b\r\nc";
        let index = Utf16Index::new(text);
        // JS: "a中😀b\r\nc".indexOf("b") === 4, indexOf("c") === 7, length 8.
        assert_eq!(index.utf16_of(text.find('b').unwrap()), 4);
        assert_eq!(index.utf16_of(text.find('c').unwrap()), 7);
        assert_eq!(index.utf16_of(text.len()), 8);
        assert_eq!(index.utf16_of(0), 0);
        assert_eq!(index.utf16_of(2), 1, "inside 中 rounds down to its start");
    }

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
