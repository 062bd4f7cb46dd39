//! Byte scanning for the hot paths: counting line breaks and finding a
//! long needle, eight bytes at a time in plain `u64` arithmetic (SWAR), so
//! it is fast natively and in wasm alike without a SIMD dependency. The
//! wasm build (simd128 on) finds needles sixteen positions at a time with
//! `v128` before the SWAR loop takes the tail.
//!
//! [`find_iter`] is a "rare pair" prefilter in the spirit of memchr's
//! packed-pair searcher: it picks the two bytes of the needle least likely
//! in source text, tests eight haystack positions at once for both, and
//! verifies the few survivors with a slice comparison. When the rare bytes
//! are everywhere (a needle of repeated lines in a file of them, text whose
//! bytes all look alike) every position is a survivor and each comparison
//! runs deep into the needle; once such comparisons outgrow the scan, the
//! rest is searched with std's Two-Way, linear in the worst case.

use crate::text::swar::{find_byte, zero_bytes, LO};

/// Number of `\n` bytes in `bytes` (in the wasm build, the `v128` pass of
/// [`newlines_and_ascii`]).
pub(crate) fn count_newlines(bytes: &[u8]) -> usize {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    return newlines_and_ascii(bytes).0;
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    {
        let pattern = LO * u64::from(b'\n');
        let chunks = bytes.chunks_exact(8);
        let tail = chunks.remainder();
        let mut n = 0usize;
        for c in chunks {
            let mut buf = [0u8; 8];
            buf.copy_from_slice(c);
            n += zero_bytes(u64::from_le_bytes(buf) ^ pattern).count_ones() as usize;
        }
        n + tail.iter().filter(|&&b| b == b'\n').count()
    }
}

/// The first sixteen bytes of `bytes` as one `v128` (zeros when there are
/// fewer): every `v128` path of the matcher loads through here, the
/// crate's one `unsafe`. One `v128.load`; a lane-by-lane build of the same
/// value costs more than the scans save.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline]
pub(crate) fn load16(bytes: &[u8]) -> core::arch::wasm32::v128 {
    use core::arch::wasm32::{u8x16_splat, v128, v128_load};
    match bytes.get(..16) {
        // SAFETY: the slice holds sixteen readable bytes at its pointer,
        // and wasm loads need no alignment.
        Some(w) => unsafe { v128_load(w.as_ptr().cast::<v128>()) },
        None => u8x16_splat(0),
    }
}

/// Whether every byte is ASCII (in the wasm build, where `str::is_ascii`
/// checks four bytes per step, the `v128` pass of [`newlines_and_ascii`]).
pub(crate) fn is_ascii(bytes: &[u8]) -> bool {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    return newlines_and_ascii(bytes).1;
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    bytes.is_ascii()
}

/// The number of `\n` bytes and whether every byte is ASCII, in one pass
/// (what a match's line and UTF-16 column need of the text before it;
/// two passes over a file's prefix were a sixth of an exact find).
/// Sixteen bytes per step with `v128` in the wasm build.
pub(crate) fn newlines_and_ascii(bytes: &[u8]) -> (usize, bool) {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        use core::arch::wasm32::{u8x16_splat, v128_and, v128_any_true, v128_or};
        let whole = bytes.len() / 16 * 16;
        let (mut n, mut high) = (0usize, u8x16_splat(0));
        for c in bytes[..whole].chunks_exact(16) {
            n += newline_bits(c).count_ones() as usize;
            high = v128_or(high, load16(c));
        }
        let tail = &bytes[whole..];
        let ascii = !v128_any_true(v128_and(high, u8x16_splat(0x80))) && tail.is_ascii();
        (n + tail.iter().filter(|&&b| b == b'\n').count(), ascii)
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    (count_newlines(bytes), bytes.is_ascii())
}

/// The `\n` bits of sixteen bytes (bit i for byte i).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline]
fn newline_bits(chunk: &[u8]) -> u16 {
    use core::arch::wasm32::{i8x16_bitmask, u8x16_eq, u8x16_splat};
    i8x16_bitmask(u8x16_eq(load16(chunk), u8x16_splat(b'\n')))
}

/// Position of the first `\n` at or after `from` (sixteen bytes at a
/// time with `v128` in the wasm build, then eight).
pub(crate) fn next_newline(bytes: &[u8], from: usize) -> Option<usize> {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    let from = {
        let mut at = from;
        while let Some(chunk) = bytes.get(at..at + 16) {
            let m = newline_bits(chunk);
            if m != 0 {
                return Some(at + m.trailing_zeros() as usize);
            }
            at += 16;
        }
        at
    };
    find_byte(bytes.get(from..)?, b'\n').map(|p| from + p)
}

/// [`commonness_of`] as a table: picking a needle's rare bytes looks up
/// every needle byte twice, and the size-optimised wasm called the `match`
/// as a function each time (a fifth of an exact find of a 20-line search).
static COMMONNESS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = commonness_of(b as u8);
        b += 1;
    }
    table
};

#[inline]
fn commonness(b: u8) -> u8 {
    COMMONNESS[usize::from(b)]
}

/// Rough rank of how common a byte is in source text and prose (higher is
/// more common); non-ASCII bytes count as rare.
const fn commonness_of(b: u8) -> u8 {
    match b {
        b' ' => 255,
        b'e' | b't' | b'a' | b'o' | b'i' | b'n' | b's' | b'r' => 200,
        b'\n' | b'l' | b'c' | b'd' | b'u' | b'h' | b'p' | b'm' => 180,
        b'f' | b'g' | b'b' | b'y' | b'w' | b'v' | b'.' | b',' | b'(' | b')' | b';' | b'='
        | b'_' => 160,
        b'\t' | b'"' | b'\'' | b'{' | b'}' | b':' | b'-' | b'k' | b'x' | b'/' | b'0'..=b'9' => 140,
        b'A'..=b'Z'
        | b'['
        | b']'
        | b'<'
        | b'>'
        | b'*'
        | b'+'
        | b'!'
        | b'#'
        | b'&'
        | b'|'
        | b'q'
        | b'j'
        | b'z' => 100,
        0..=127 => 60,
        _ => 20,
    }
}

/// Iterator over the non-overlapping occurrences of a needle, see
/// [`find_iter`].
pub(crate) struct FindIter<'a> {
    hay: &'a [u8],
    needle: &'a [u8],
    /// Offsets and values of the two rare bytes.
    i1: usize,
    i2: usize,
    b1: u8,
    p1: u64,
    p2: u64,
    pos: usize,
    /// Needle bytes compared at candidates that were no occurrence (an
    /// upper bound: the comparison may stop sooner).
    wasted: usize,
    /// Set once `wasted` outgrows the scan (see [`FindIter::degenerate`]):
    /// the rest is searched with std's Two-Way.
    two_way: bool,
    /// Haystack and needle as text, for Two-Way.
    text: (&'a str, &'a str),
}

/// Start of every non-overlapping occurrence of `needle` in `hay`, left to
/// right.
pub(crate) fn find_iter<'a>(hay_text: &'a str, needle_text: &'a str) -> FindIter<'a> {
    RarePair::of(needle_text).find_iter(hay_text, needle_text)
}

/// The two bytes of a needle least likely in source text (by
/// [`commonness`]), at distinct offsets where possible: what [`FindIter`]
/// tests first. Worked out once per needle by callers that search several
/// texts for it (every overlapping occurrence of a span).
#[derive(Clone, Copy)]
pub(crate) struct RarePair {
    i1: usize,
    i2: usize,
}

impl RarePair {
    pub(crate) fn of(needle: &str) -> RarePair {
        let needle = needle.as_bytes();
        let mut i1 = 0usize;
        for (i, &b) in needle.iter().enumerate() {
            if commonness(b) < commonness(needle[i1]) {
                i1 = i;
            }
        }
        let b1 = needle.get(i1).copied().unwrap_or(0);
        // Computed once: inside the loop it made a needle of one repeated
        // byte cost O(n²) before the search even started.
        let has_other_byte = needle.iter().any(|&x| x != b1);
        let mut i2 = None::<usize>;
        for (i, &b) in needle.iter().enumerate() {
            if i == i1 || (b == b1 && has_other_byte) {
                continue;
            }
            if i2.is_none_or(|j| commonness(b) < commonness(needle[j])) {
                i2 = Some(i);
            }
        }
        RarePair {
            i1,
            i2: i2.unwrap_or(i1),
        }
    }

    /// [`find_iter`] with this pair, which must be `needle_text`'s.
    pub(crate) fn find_iter<'a>(self, hay_text: &'a str, needle_text: &'a str) -> FindIter<'a> {
        let (hay, needle) = (hay_text.as_bytes(), needle_text.as_bytes());
        let b1 = needle.get(self.i1).copied().unwrap_or(0);
        let b2 = needle.get(self.i2).copied().unwrap_or(0);
        FindIter {
            hay,
            needle,
            i1: self.i1,
            i2: self.i2,
            b1,
            p1: LO * u64::from(b1),
            p2: LO * u64::from(b2),
            pos: 0,
            wasted: 0,
            two_way: false,
            text: (hay_text, needle_text),
        }
    }
}

/// Failed comparisons may cost this many needle bytes per haystack byte
/// (plus [`WASTE_ALLOWANCE`]) before the search switches to Two-Way.
const WASTE_PER_BYTE: usize = 4;
const WASTE_ALLOWANCE: usize = 1 << 16;

impl<'a> FindIter<'a> {
    /// Whether `p` starts an occurrence; a miss adds what it compared to
    /// `wasted`: the first sixteen bytes when it differs there (a chance
    /// hit of the rare pair, cheap), else the whole needle (a miss deep in
    /// it, the degenerate case).
    #[inline]
    fn is_match(&mut self, p: usize) -> bool {
        let n = self.needle.len();
        let Some(window) = self.hay.get(p..p + n) else {
            return false;
        };
        let head = n.min(16);
        if window[..head] != self.needle[..head] {
            self.wasted += head;
            return false;
        }
        if window == self.needle {
            return true;
        }
        self.wasted += n;
        false
    }

    /// The rare-pair prefilter fails when the needle's rare bytes are
    /// everywhere (a search of repeated lines in a file of them): every
    /// position is a candidate and each comparison runs far into the
    /// needle, O(haystack × needle). Past a few needle bytes compared per
    /// haystack byte scanned up to `p`, the rest of the search goes to
    /// std's Two-Way, linear in the worst case (10 MB of identical CJK
    /// lines and a 20-line search took 0.5 s before).
    #[inline]
    fn degenerate(&self, p: usize) -> bool {
        self.wasted > WASTE_PER_BYTE * p + WASTE_ALLOWANCE
    }

    /// Gives up the byte scan after the candidate at `p`, which was no
    /// occurrence: the rest is Two-Way's.
    fn switch_after(&mut self, p: usize) {
        self.two_way = true;
        self.pos = p + 1;
    }

    /// The next occurrence at or after `self.pos`, by Two-Way.
    fn next_two_way(&mut self) -> Option<usize> {
        let (hay, needle) = self.text;
        // Occurrences start on character boundaries (both are text).
        let mut from = self.pos;
        while from < hay.len() && !hay.is_char_boundary(from) {
            from += 1;
        }
        let found = from + hay.get(from..)?.find(needle)?;
        self.pos = found + needle.len();
        Some(found)
    }
}

impl Iterator for FindIter<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        let (hay, needle) = (self.hay, self.needle);
        let n = needle.len();
        if n == 0 || hay.len() < n {
            return None;
        }
        if self.two_way {
            return self.next_two_way();
        }
        let last = hay.len() - n;
        let mut pos = self.pos;
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        {
            // In wasm, V8 runs `indexOf` with SIMD; sixteen positions per
            // step with wasm's v128 keep the scan level with it. The tail
            // falls through to the SWAR and byte loops below.
            if let Some(found) = self.simd_scan(&mut pos, last) {
                return Some(found);
            }
            if self.two_way {
                return self.next_two_way();
            }
        }
        if pos + 7 <= last {
            // Eight positions per step; `pos + 8k + 7 ≤ last` keeps both
            // 8-byte windows inside `hay` (the rare bytes sit below `n`).
            let chunks = (last - 7 - pos) / 8 + 1;
            let a = hay.get(pos + self.i1..).unwrap_or(&[]).chunks_exact(8);
            let b = hay.get(pos + self.i2..).unwrap_or(&[]).chunks_exact(8);
            for (k, (ca, cb)) in a.zip(b).take(chunks).enumerate() {
                let x = u64::from_le_bytes(ca.try_into().unwrap_or([0; 8]));
                let y = u64::from_le_bytes(cb.try_into().unwrap_or([0; 8]));
                let mut m = zero_bytes(x ^ self.p1) & zero_bytes(y ^ self.p2);
                while m != 0 {
                    let p = pos + 8 * k + m.trailing_zeros() as usize / 8;
                    m &= m - 1;
                    if self.is_match(p) {
                        self.pos = p + n;
                        return Some(p);
                    }
                    if self.degenerate(p) {
                        self.switch_after(p);
                        return self.next_two_way();
                    }
                }
            }
            pos += chunks * 8;
        }
        while pos <= last {
            let p = pos;
            pos += 1;
            if hay.get(p + self.i1) == Some(&self.b1) && self.is_match(p) {
                self.pos = p + n;
                return Some(p);
            }
        }
        self.pos = pos;
        None
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
impl FindIter<'_> {
    /// Tests sixteen positions per step for both rare bytes; `pos` is
    /// left at the first position not yet tested. Same results as the
    /// SWAR loop (each survivor is verified with a slice comparison).
    fn simd_scan(&mut self, pos: &mut usize, last: usize) -> Option<usize> {
        use core::arch::wasm32::{i8x16_bitmask, u8x16_eq, u8x16_splat, v128, v128_and};
        let (hay, needle) = (self.hay, self.needle);
        let n = needle.len();
        let b2 = needle.get(self.i2).copied().unwrap_or(0);
        let (s1, s2) = (u8x16_splat(self.b1), u8x16_splat(b2));
        let load = |at: usize| -> v128 { load16(hay.get(at..).unwrap_or(&[])) };
        // `p + 15 ≤ last` keeps both 16-byte loads inside `hay` (the rare
        // bytes sit below `n`, so `p + i + 16 ≤ last + n = hay.len()`).
        while *pos + 15 <= last {
            let p = *pos;
            let a = u8x16_eq(load(p + self.i1), s1);
            let b = u8x16_eq(load(p + self.i2), s2);
            let mut m = i8x16_bitmask(v128_and(a, b));
            *pos += 16;
            while m != 0 {
                let at = p + m.trailing_zeros() as usize;
                m &= m - 1;
                if self.is_match(at) {
                    self.pos = at + n;
                    return Some(at);
                }
                if self.degenerate(at) {
                    // The caller sees `two_way` and goes on from here.
                    self.switch_after(at);
                    return None;
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_needle_of_one_repeated_byte_is_set_up_in_linear_time() {
        // 200,000² comparisons would take minutes; linear set-up is instant.
        let needle = "x".repeat(200_000);
        assert_eq!(find_iter("abc", &needle).next(), None);
        let hay = "x".repeat(400_000);
        assert_eq!(find_iter(&hay, &needle).count(), 2);
    }

    fn naive(hay: &[u8], needle: &[u8]) -> Vec<usize> {
        let mut out = Vec::new();
        let mut p = 0;
        while p + needle.len() <= hay.len() && !needle.is_empty() {
            if &hay[p..p + needle.len()] == needle {
                out.push(p);
                p += needle.len();
            } else {
                p += 1;
            }
        }
        out
    }

    #[test]
    fn repeated_lines_switch_to_two_way_and_find_the_same_places() {
        // A search of repeated lines with one odd line made of the same
        // bytes, in a file of those lines: the rare-pair candidates are
        // everywhere and each comparison fails deep in the needle. The
        // iterator must switch to Two-Way and find exactly the naive
        // scan's places (including ones after the switch, and in
        // multi-byte text, where the switch lands inside a character).
        let cases = [
            ("ab\n", "ba\n"),
            ("这是一个测试句子。\n", "这是一个句子。\n"),
        ];
        for (unit, odd) in cases {
            let needle: String = (0..20).map(|i| if i == 10 { odd } else { unit }).collect();
            let mut hay = unit.repeat(60_000);
            hay.push_str(&needle);
            hay.push_str(&unit.repeat(60_000));
            hay.push_str(&needle);
            let mut it = find_iter(&hay, &needle);
            let found: Vec<usize> = it.by_ref().collect();
            assert!(it.two_way, "{unit:?}: still the byte scan");
            assert_eq!(found, naive(hay.as_bytes(), needle.as_bytes()), "{unit:?}");
            assert_eq!(found.len(), 2);
        }
    }

    #[test]
    fn chance_hits_of_the_rare_pair_keep_the_fast_scan() {
        // A 60 KB needle whose rare pair (`é`) recurs every 32 bytes of the
        // text but whose third byte already differs: each miss is cheap,
        // so the scan must not give up on its fast path (counting the
        // whole needle per miss switched after two of them).
        let needle = format!("é{}", "a".repeat(60_000));
        let hay = format!("é{}", "b".repeat(30)).repeat(20_000);
        let mut it = find_iter(&hay, &needle);
        assert_eq!(it.by_ref().count(), 0);
        assert!(!it.two_way, "switched to Two-Way on cheap misses");
    }

    #[test]
    fn find_iter_agrees_with_a_naive_scan() {
        let hays = [
            "",
            "a",
            "aaaa",
            "abcabcabc",
            "xyz\nxyz\nq",
            "中文中文x中",
            "aaaaaaaaaaaaaaaaaaaaab",
            "ab ab ab ab ab ab ab ab ab",
        ];
        let needles = [
            "a",
            "aa",
            "abc",
            "z\nx",
            "中文",
            "文x",
            "ab",
            "b ab",
            "aaaaaaaaab",
            "q",
        ];
        for h in hays {
            for n in needles {
                assert_eq!(
                    find_iter(h, n).collect::<Vec<_>>(),
                    naive(h.as_bytes(), n.as_bytes()),
                    "{h:?} / {n:?}"
                );
            }
        }
        let long: String = (0..500).map(|i| format!("line {i} = value;\n")).collect();
        for n in [
            "line 499 = value;\n",
            "line 1",
            "= value;\nline 2",
            "absent",
        ] {
            assert_eq!(
                find_iter(&long, n).collect::<Vec<_>>(),
                naive(long.as_bytes(), n.as_bytes())
            );
        }
    }

    #[test]
    fn next_newline_finds_every_break() {
        let s = "ab\ncdefghijklmnop\n\nqrstuvwxyz0123456789\nz";
        let mut got = Vec::new();
        let mut at = 0;
        while let Some(p) = next_newline(s.as_bytes(), at) {
            got.push(p);
            at = p + 1;
        }
        let want: Vec<usize> = s.match_indices('\n').map(|(i, _)| i).collect();
        assert_eq!(got, want);
        assert_eq!(next_newline(b"", 0), None);
        assert_eq!(next_newline(b"abc", 9), None);
    }

    #[test]
    fn newlines_are_counted_exactly() {
        for s in [
            "",
            "\n",
            "a\nb\n\n",
            "\n\n\n\n\n\n\n\n\n",
            "x\u{0a}\u{0b}\u{09}\n中\n",
        ] {
            assert_eq!(count_newlines(s.as_bytes()), s.matches('\n').count());
        }
    }
}
