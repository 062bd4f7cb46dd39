//! The length of a longest common subsequence, computed 64 positions at a
//! time (the bit-parallel method of Allison & Dix, in Hyyrö's form).
//! Ours: `similar` computes whole diffs; this is the matcher's own
//! similarity (SPEC §1), and it reproduces `similar`'s ratio to the bit.
//!
//! Similarity ratios only need how many items a minimal diff keeps equal,
//! which is exactly the LCS length: an optimal Myers diff keeps
//! `lcs(a, b)` items, so `2·lcs / (len a + len b)` is the ratio a full
//! diff would report, to the bit. Computing only the length costs
//! `len(b) · ⌈len(a) / 64⌉` word operations and no edit script, where a
//! Myers diff of two unrelated texts costs O((N+M)·D) comparisons; the
//! failure report's closest region and the block check's mismatch
//! similarity run one per call.
//!
//! The shorter sequence is the bit vector. Each of its distinct items gets
//! a match mask (bit `i` set where `a[i]` is that item); a row of the DP
//! over one item `y` of `b` is then `V' = (V + (V & M[y])) | (V & !M[y])`,
//! and the LCS length is the number of zero bits among `V`'s `len(a)`.

/// Interned items of the bit side: each distinct item's match mask, found
/// through an open-addressing table on the items' hashes.
struct Masks<T> {
    /// `(hash, item, first word of its mask in `words`)`, or `None`.
    slots: Vec<Option<(u64, T, usize)>>,
    words: Vec<u64>,
    per_item: usize,
}

impl<T: PartialEq + Copy> Masks<T> {
    fn new(items: &[T], hash: &impl Fn(T) -> u64) -> Masks<T> {
        let per_item = items.len().div_ceil(64);
        let size = (items.len() * 2).next_power_of_two().max(16);
        let mut masks = Masks {
            slots: vec![None; size],
            words: Vec::new(),
            per_item,
        };
        for (i, &item) in items.iter().enumerate() {
            let at = masks.find_or_add(item, hash(item));
            masks.words[at + i / 64] |= 1u64 << (i % 64);
        }
        masks
    }

    /// The slot index where `item` lives or would be added.
    fn probe(&self, item: T, h: u64) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = (h as usize) & mask;
        while let Some((sh, s, _)) = self.slots[i] {
            if sh == h && s == item {
                break;
            }
            i = (i + 1) & mask;
        }
        i
    }

    fn find_or_add(&mut self, item: T, h: u64) -> usize {
        let i = self.probe(item, h);
        if let Some((_, _, at)) = self.slots[i] {
            return at;
        }
        let at = self.words.len();
        self.words.resize(at + self.per_item, 0);
        self.slots[i] = Some((h, item, at));
        at
    }

    /// The match mask of `item`, or `None` when `a` never has it.
    fn get(&self, item: T, h: u64) -> Option<&[u64]> {
        let (_, _, at) = self.slots[self.probe(item, h)]?;
        self.words.get(at..at + self.per_item)
    }
}

/// The length of a longest common subsequence of `a` and `b`; `hash` must
/// give equal items equal hashes (unequal items may collide: items are
/// compared too).
pub(crate) fn lcs_len<T: PartialEq + Copy>(a: &[T], b: &[T], hash: impl Fn(T) -> u64) -> usize {
    let (a, b) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if a.is_empty() {
        return 0;
    }
    let masks = Masks::new(a, &hash);
    // Every bit starts at one; bits above `len(a)` in the last word only
    // ever receive carries from below and are left out of the count.
    let mut v = vec![u64::MAX; masks.per_item];
    for &y in b {
        let Some(m) = masks.get(y, hash(y)) else {
            continue;
        };
        let mut carry = false;
        for (v, &m) in v.iter_mut().zip(m) {
            let u = *v & m;
            let (sum, c1) = v.overflowing_add(u);
            let (sum, c2) = sum.overflowing_add(u64::from(carry));
            carry = c1 || c2;
            *v = sum | (*v & !m);
        }
    }
    let ones: usize = v
        .iter()
        .enumerate()
        .map(|(w, &bits)| {
            let valid = (a.len() - 64 * w).min(64);
            let bits = if valid == 64 {
                bits
            } else {
                bits & ((1u64 << valid) - 1)
            };
            bits.count_ones() as usize
        })
        .sum();
    a.len() - ones
}

/// `2·matches / total` the way a diff's ratio is computed (in `f32`, then
/// widened), so ratios compare equal to those of a full Myers diff.
pub(crate) fn ratio(lcs: usize, len_a: usize, len_b: usize) -> f64 {
    let total = len_a + len_b;
    if total == 0 {
        return 1.0;
    }
    f64::from(2.0 * lcs as f32 / total as f32)
}

#[cfg(test)]
mod tests {
    use super::lcs_len;

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    fn lcs(a: &str, b: &str) -> usize {
        lcs_len(&chars(a), &chars(b), u64::from)
    }

    #[test]
    fn lengths_of_known_pairs() {
        let table = [
            ("", "", 0),
            ("abc", "", 0),
            ("abcd", "abcd", 4),
            ("abcd", "abce", 3),
            ("abc", "cba", 1),
            ("ABCBDAB", "BDCABA", 4),
            ("思源笔记", "思源的笔记本", 4),
            ("🙂a🙂", "a🙂🙂", 2),
        ];
        for (a, b, want) in table {
            assert_eq!(lcs(a, b), want, "{a:?} vs {b:?}");
            assert_eq!(lcs(b, a), want, "{b:?} vs {a:?}");
        }
    }

    #[test]
    fn carries_cross_words() {
        // 200 items span four words; the LCS needs carries between them.
        let a: Vec<u32> = (0..200).map(|i| i % 7).collect();
        let b: Vec<u32> = (0..150).map(|i| (i * 3) % 7).collect();
        let naive = {
            let mut row = vec![0usize; b.len() + 1];
            for &x in &a {
                let mut diag = 0;
                for (j, &y) in b.iter().enumerate() {
                    let up = row[j + 1];
                    row[j + 1] = if x == y { diag + 1 } else { up.max(row[j]) };
                    diag = up;
                }
            }
            row[b.len()]
        };
        assert_eq!(lcs_len(&a, &b, u64::from), naive);
    }

    #[test]
    fn colliding_hashes_still_compare_items() {
        let a = ["x", "y", "z"];
        let b = ["z", "y", "x", "y"];
        assert_eq!(lcs_len(&a, &b, |_| 7), 2);
    }

    proptest::proptest! {
        /// The ratio from the LCS is the ratio of a full Myers diff, to the
        /// bit: small alphabets make long common runs and many ties, and
        /// lengths past 64 make carries cross words.
        #[test]
        fn ratios_equal_a_myers_diffs(a in "[ab思🙂\n]{0,150}", b in "[ab思🙂\n]{0,150}") {
            let myers = similar::TextDiff::configure()
                .algorithm(similar::Algorithm::Myers)
                .diff_chars(a.as_str(), b.as_str())
                .ratio();
            let (ca, cb) = (chars(&a), chars(&b));
            let ours = super::ratio(lcs_len(&ca, &cb, u64::from), ca.len(), cb.len());
            proptest::prop_assert_eq!(ours, f64::from(myers));
        }

        #[test]
        fn token_ratios_equal_a_myers_diffs(
            a in proptest::collection::vec("(x|yy|zzz|思)", 0..200),
            b in proptest::collection::vec("(x|yy|zzz|思)", 0..200),
        ) {
            let (a, b): (Vec<&str>, Vec<&str>) =
                (a.iter().map(String::as_str).collect(), b.iter().map(String::as_str).collect());
            let myers = similar::TextDiff::configure()
                .algorithm(similar::Algorithm::Myers)
                .diff_slices(&a, &b)
                .ratio();
            proptest::prop_assert_eq!(crate::text::sequence_ratio(&a, &b), f64::from(myers));
        }
    }
}
