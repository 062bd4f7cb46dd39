//! The only module that instantiates `similar`: its Myers diff is
//! monomorphised per call site and dominates the wasm size, so every diff,
//! ratio and line alignment in editkit goes through these functions.

use similar::{Algorithm, DiffOp, TextDiff};

/// Inputs above this many tokens use a coarser measure, keeping Myers'
/// O((N+M)·D) cost bounded for huge, very different texts.
const MAX_TOKENS_FOR_CHAR_RATIO: usize = 4_000;

/// Sequence similarity of two texts in [0, 1]: `2·matches / (len a + len b)`
/// over chars (over lines for long texts). Two empty texts are identical.
pub fn similarity(a: &str, b: &str) -> f64 {
    if a == b {
        return 1.0;
    }
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let config = {
        let mut c = TextDiff::configure();
        c.algorithm(Algorithm::Myers);
        c
    };
    let (ca, cb) = (a.chars().count(), b.chars().count());
    if ca <= MAX_TOKENS_FOR_CHAR_RATIO && cb <= MAX_TOKENS_FOR_CHAR_RATIO {
        return f64::from(config.diff_chars(a, b).ratio());
    }
    f64::from(config.diff_lines(a, b).ratio())
}

/// How one line of the `new` side relates to the `old` side in
/// [`align_lines`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineLink {
    /// Identical to this `old` line.
    Equal(usize),
    /// Stands where this `old` line stood (a one-to-one position inside a
    /// replaced run of lines), with different text.
    Changed(usize),
    /// Has no counterpart in `old`.
    Inserted,
}

/// Aligns two sequences of lines (Myers over whole lines): one
/// [`LineLink`] per `new` line. Inside a run of replaced lines, lines are
/// paired by position; surplus `new` lines are [`LineLink::Inserted`].
pub fn align_lines(old: &[&str], new: &[&str]) -> Vec<LineLink> {
    let mut links = vec![LineLink::Inserted; new.len()];
    let diff = TextDiff::configure().algorithm(Algorithm::Myers).diff_slices(old, new);
    for op in diff.ops() {
        match *op {
            DiffOp::Equal { old_index, new_index, len } => {
                for k in 0..len {
                    if let Some(link) = links.get_mut(new_index + k) {
                        *link = LineLink::Equal(old_index + k);
                    }
                }
            }
            DiffOp::Replace { old_index, old_len, new_index, new_len } => {
                for k in 0..old_len.min(new_len) {
                    if let Some(link) = links.get_mut(new_index + k) {
                        *link = LineLink::Changed(old_index + k);
                    }
                }
            }
            DiffOp::Delete { .. } | DiffOp::Insert { .. } => {}
        }
    }
    links
}

/// Sequence similarity of two token lists in [0, 1] (`2·matches / total`,
/// Myers over whole tokens): a real sequence similarity at a fraction of
/// the cost of a character diff. Two empty lists are identical.
pub fn sequence_ratio(old: &[&str], new: &[&str]) -> f64 {
    if old == new {
        return 1.0;
    }
    if old.is_empty() || new.is_empty() {
        return 0.0;
    }
    f64::from(TextDiff::configure().algorithm(Algorithm::Myers).diff_slices(old, new).ratio())
}

/// Options of [`unified_diff`].
#[derive(Clone, Copy, Debug)]
pub struct UnifiedDiffOptions<'a> {
    pub old_name: &'a str,
    pub new_name: &'a str,
    /// Lines of unchanged context around each change (3, like `diff -u`).
    pub context: usize,
}

impl Default for UnifiedDiffOptions<'_> {
    fn default() -> Self {
        UnifiedDiffOptions { old_name: "a", new_name: "b", context: 3 }
    }
}

/// A unified diff (`--- a`, `+++ b`, `@@ -l,n +l,n @@` hunks) of two texts,
/// or `""` when they are equal. A missing final newline is marked the way
/// `diff` marks it.
pub fn unified_diff(old: &str, new: &str, options: UnifiedDiffOptions<'_>) -> String {
    if old == new {
        return String::new();
    }
    let diff = TextDiff::configure().algorithm(Algorithm::Myers).diff_lines(old, new);
    diff.unified_diff()
        .context_radius(options.context)
        .missing_newline_hint(true)
        .header(options.old_name, options.new_name)
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn similarity_is_a_sequence_ratio() {
        assert_eq!(similarity("", ""), 1.0);
        assert_eq!(similarity("abc", ""), 0.0);
        assert_eq!(similarity("abcd", "abcd"), 1.0);
        // 3 common chars of 4 + 4.
        assert!((similarity("abcd", "abce") - 0.75).abs() < 1e-9);
        // A character-set Jaccard would call these identical.
        assert!(similarity("abc", "cba") < 0.7);
    }

    #[test]
    fn lines_are_aligned_by_equality_then_position() {
        let links = align_lines(&["a", "b", "c"], &["a", "B", "x", "c"]);
        assert_eq!(links, vec![LineLink::Equal(0), LineLink::Changed(1), LineLink::Inserted, LineLink::Equal(2)]);
        assert_eq!(align_lines(&[], &["x"]), vec![LineLink::Inserted]);
        assert!(align_lines(&["x"], &[]).is_empty());
    }

    #[test]
    fn token_sequences_have_a_ratio() {
        assert_eq!(sequence_ratio(&[], &[]), 1.0);
        assert_eq!(sequence_ratio(&["a"], &[]), 0.0);
        assert!((sequence_ratio(&["a", "b", "c", "d"], &["a", "b", "x", "d"]) - 0.75).abs() < 1e-6);
    }

    #[test]
    fn unified_diff_has_headers_and_hunks() {
        let d = unified_diff("a\nb\nc\n", "a\nB\nc\n", UnifiedDiffOptions::default());
        assert_eq!(d, "--- a\n+++ b\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
        assert_eq!(unified_diff("x", "x", UnifiedDiffOptions::default()), "");
    }
}
