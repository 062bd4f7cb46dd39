//! Every diff, ratio and line alignment in editkit goes through these
//! functions: line diffs from `similar` ([`line_ops`]), ratios from the
//! bit-parallel LCS.
//!
//! The unified-diff writer is ours by design: `similar`'s own hunk headers
//! miscounted some hunks (docs/patches.md, "Properties"); this writer is
//! held to the round trip (a diff applied to the old text gives the new
//! text exactly) by `tests/suite/patch_props.rs`.

use super::lcs::{self, lcs_len};
use similar::{Algorithm, DiffTag as Tag};

/// One operation of a line diff: its kind and how many old and new lines
/// it covers (`Equal` covers as many of each; `Delete` no new line,
/// `Insert` no old line). Operations are in order, so positions are
/// running sums.
pub(crate) type LineOp = (Tag, usize, usize);

/// The operations that turn the `old` lines into the `new` ones: `similar`'s
/// Myers diff, with its compaction (inserted runs slid to one place) and
/// its deletions and insertions with no equal line between them merged
/// into replacements.
pub(crate) fn line_ops(old: &[&str], new: &[&str]) -> Vec<LineOp> {
    similar::capture_diff_slices(Algorithm::Myers, old, new)
        .iter()
        .map(|op| {
            let (tag, old, new) = op.as_tag_tuple();
            (tag, old.len(), new.len())
        })
        .collect()
}

/// Texts above this many chars are compared by lines instead, keeping the
/// LCS's `len a · len b / 64` word operations bounded for huge texts.
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
    let (ca, cb): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if ca.len() <= MAX_TOKENS_FOR_CHAR_RATIO && cb.len() <= MAX_TOKENS_FOR_CHAR_RATIO {
        return lcs::ratio(lcs_len(&ca, &cb, u64::from), ca.len(), cb.len());
    }
    let (la, lb): (Vec<&str>, Vec<&str>) = (split_lines(a), split_lines(b));
    lcs::ratio(lcs_len(&la, &lb, str_hash), la.len(), lb.len())
}

fn str_hash(s: &str) -> u64 {
    super::hash_bytes(s.as_bytes())
}

/// Lines with their endings: a line ends at `\n`, `\r\n` or a lone `\r`.
fn split_lines(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let mut lines = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let end = match bytes[i] {
            b'\n' => i + 1,
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => i + 2,
            b'\r' => i + 1,
            _ => {
                i += 1;
                continue;
            }
        };
        lines.push(&text[start..end]);
        start = end;
        i = end;
    }
    if start < text.len() {
        lines.push(&text[start..]);
    }
    lines
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
    let (mut o, mut n) = (0usize, 0usize);
    for (tag, old_len, new_len) in line_ops(old, new) {
        match tag {
            Tag::Equal => {
                for k in 0..old_len {
                    links[n + k] = LineLink::Equal(o + k);
                }
            }
            Tag::Replace => {
                for k in 0..old_len.min(new_len) {
                    links[n + k] = LineLink::Changed(o + k);
                }
            }
            Tag::Delete | Tag::Insert => {}
        }
        o += old_len;
        n += new_len;
    }
    links
}

/// Sequence similarity of two token lists in [0, 1] (`2·matches / total`,
/// the LCS of whole tokens): a real sequence similarity at a fraction of
/// the cost of a character diff. Two empty lists are identical.
pub fn sequence_ratio(old: &[&str], new: &[&str]) -> f64 {
    if old == new {
        return 1.0;
    }
    if old.is_empty() || new.is_empty() {
        return 0.0;
    }
    lcs::ratio(lcs_len(old, new, str_hash), old.len(), new.len())
}

/// Options of [`unified_diff`].
#[derive(Clone, Copy, Debug)]
pub struct UnifiedDiffOptions<'a> {
    /// The `---` header's name (default `a`).
    pub old_name: &'a str,
    /// The `+++` header's name (default `b`).
    pub new_name: &'a str,
    /// Lines of unchanged context around each change (3, like `diff -u`).
    pub context: usize,
}

impl Default for UnifiedDiffOptions<'_> {
    fn default() -> Self {
        UnifiedDiffOptions {
            old_name: "a",
            new_name: "b",
            context: 3,
        }
    }
}

/// A unified diff (`--- a`, `+++ b`, `@@ -l,n +l,n @@` hunks) of two texts,
/// or `""` when they are equal. A missing final newline is marked the way
/// `diff` marks it.
pub fn unified_diff(old: &str, new: &str, options: UnifiedDiffOptions<'_>) -> String {
    if old == new {
        return String::new();
    }
    let (old, new) = (split_lines(old), split_lines(new));
    // At most one line a side, and the texts differ: one change, which is
    // what Myers finds, without its tables (most block diffs of a dry run
    // are of a one-line paragraph; docs/PERFORMANCE.md cut 40).
    let one = match (old.len(), new.len()) {
        (0, n) => Some((Tag::Insert, 0, n)),
        (o, 0) => Some((Tag::Delete, o, 0)),
        (1, 1) => Some((Tag::Replace, 1, 1)),
        _ => None,
    };
    match one {
        Some(op) => render_hunks(&[op], &old, &new, options),
        None => render_hunks(&line_ops(&old, &new), &old, &new, options),
    }
}

/// An operation with where it starts: `(tag, old at, new at, old lines,
/// new lines)`.
type Step = (Tag, usize, usize, usize, usize);

/// A unified diff of the line operations `ops` (tag, old lines, new
/// lines), in order, over the old and new lines (each with its break).
fn render_hunks(
    ops: &[LineOp],
    old: &[&str],
    new: &[&str],
    options: UnifiedDiffOptions<'_>,
) -> String {
    let context = options.context;
    // Each operation with where it starts on both sides.
    let mut at: Vec<Step> = Vec::with_capacity(ops.len());
    let (mut o, mut n) = (0usize, 0usize);
    for &(tag, lo, ln) in ops {
        at.push((tag, o, n, lo, ln));
        o += lo;
        n += ln;
    }
    let mut out = String::new();
    for (mark, name) in [("--- ", options.old_name), ("+++ ", options.new_name)] {
        out.push_str(mark);
        out.push_str(name);
        out.push('\n');
    }
    let mut from = 0;
    while let Some((first, last)) = next_hunk(&at, from, context) {
        from = last + 1;
        let (_, o0, n0, _, _) = at[first];
        let lead = o0
            .min(context)
            .min(if first > 0 { at[first - 1].3 } else { 0 });
        let (_, ol, nl, lol, lnl) = at[last];
        let (o_end, n_end) = (ol + lol, nl + lnl);
        let trail = context.min(old.len() - o_end);
        let (os, ns) = (o0 - lead, n0 - lead);
        let (oe, ne) = (o_end + trail, n_end + trail);
        out.push_str("@@ -");
        push_hunk_range(&mut out, os, oe - os);
        out.push_str(" +");
        push_hunk_range(&mut out, ns, ne - ns);
        out.push_str(" @@\n");
        for line in &old[os..o0] {
            push_line(&mut out, ' ', line);
        }
        for &(tag, o, n, lo, ln) in &at[first..=last] {
            let (removed, added) = match tag {
                Tag::Equal => {
                    old[o..o + lo]
                        .iter()
                        .for_each(|l| push_line(&mut out, ' ', l));
                    continue;
                }
                Tag::Delete => (lo, 0),
                Tag::Insert => (0, ln),
                Tag::Replace => (lo, ln),
            };
            old[o..o + removed]
                .iter()
                .for_each(|l| push_line(&mut out, '-', l));
            new[n..n + added]
                .iter()
                .for_each(|l| push_line(&mut out, '+', l));
        }
        for line in &old[o_end..oe] {
            push_line(&mut out, ' ', line);
        }
    }
    out
}

/// The next hunk from operation `from` on: its first and last change,
/// changes joined when the equal lines between them are at most twice the
/// context. `steps` are `(tag, old at, new at, old lines, new lines)`.
fn next_hunk(steps: &[Step], from: usize, context: usize) -> Option<(usize, usize)> {
    let is_change = |i: &usize| steps[*i].0 != Tag::Equal;
    let first = (from..steps.len()).find(is_change)?;
    let mut last = first;
    while let Some(next) = (last + 1..steps.len()).find(is_change) {
        let gap: usize = steps[last + 1..next].iter().map(|s| s.3).sum();
        if gap > 2 * context {
            break;
        }
        last = next;
    }
    Some((first, last))
}

/// A hunk header's range for `len` lines from 0-based line `first`, as
/// `diff -u` writes it: `l` for one line, `l,n` otherwise, and the line
/// before (0-based `first`) for an empty range.
fn push_hunk_range(out: &mut String, first: usize, len: usize) {
    use std::fmt::Write;
    // Writing into a String cannot fail.
    let _ = match len {
        0 => write!(out, "{first},0"),
        1 => write!(out, "{}", first + 1),
        _ => write!(out, "{},{len}", first + 1),
    };
}

/// Excerpts longer than this many lines (either side) are not handed to
/// Myers, whose cost grows with the product of length and edit distance;
/// they get the linear single-hunk rendering of [`unified_diff_excerpt`].
const MAX_LINES_FOR_MYERS_EXCERPT: usize = 1_000;

/// A unified diff of two excerpts of larger files, numbered as in those
/// files: both excerpts start after `lines_before` unchanged lines.
///
/// The file-edit planner diffs only the window around a change (the change
/// plus its context lines), so a one-line edit in a 100,000-line file costs
/// as much as in a 10-line one. Small excerpts are diffed with Myers like
/// [`unified_diff`]; excerpts above 1,000 lines become one hunk (common
/// leading and trailing lines as context, every other old line removed,
/// every other new line added), which is linear and still exact.
pub fn unified_diff_excerpt(
    old: &str,
    new: &str,
    lines_before: usize,
    options: UnifiedDiffOptions<'_>,
) -> String {
    if old == new {
        return String::new();
    }
    let (old_lines, new_lines) = (super::line_count(old), super::line_count(new));
    let diff = if old_lines > MAX_LINES_FOR_MYERS_EXCERPT || new_lines > MAX_LINES_FOR_MYERS_EXCERPT
    {
        single_hunk_diff(old, new, options)
    } else {
        unified_diff(old, new, options)
    };
    if lines_before == 0 {
        return diff;
    }
    let mut out = String::with_capacity(diff.len() + 16);
    for line in diff.split_inclusive('\n') {
        match shift_hunk_header(line, lines_before) {
            Some(shifted) => out.push_str(&shifted),
            None => out.push_str(line),
        }
    }
    out
}

/// Renumbers an `@@ -a[,b] +c[,d] @@` header by `by` lines; `None` for any
/// other line (body lines always start with ` `, `-`, `+` or `\\`).
fn shift_hunk_header(line: &str, by: usize) -> Option<String> {
    let rest = line.strip_prefix("@@ -")?;
    let (old_range, rest) = rest.split_once(" +")?;
    let (new_range, tail) = rest.split_once(" @@")?;
    let shift = |range: &str| -> Option<String> {
        let (start, len) = match range.split_once(',') {
            Some((s, l)) => (s, Some(l)),
            None => (range, None),
        };
        let start: usize = start.parse().ok()?;
        let start = start.saturating_add(by);
        Some(match len {
            Some(len) => format!("{start},{len}"),
            None => start.to_string(),
        })
    };
    Some(format!(
        "@@ -{} +{} @@{}",
        shift(old_range)?,
        shift(new_range)?,
        tail
    ))
}

/// The linear rendering: common leading/trailing lines (at most
/// `options.context` of each) as context around one block of removals and
/// additions.
fn single_hunk_diff(old: &str, new: &str, options: UnifiedDiffOptions<'_>) -> String {
    let old_lines: Vec<&str> = old.split_inclusive('\n').collect();
    let new_lines: Vec<&str> = new.split_inclusive('\n').collect();
    let prefix = old_lines
        .iter()
        .zip(&new_lines)
        .take_while(|(a, b)| a == b)
        .count();
    let max_suffix = old_lines.len().min(new_lines.len()) - prefix;
    let suffix = old_lines
        .iter()
        .rev()
        .zip(new_lines.iter().rev())
        .take(max_suffix)
        .take_while(|(a, b)| a == b)
        .count();
    let (removed, added) = (
        old_lines.len() - prefix - suffix,
        new_lines.len() - prefix - suffix,
    );
    let change = match (removed, added) {
        (_, 0) => Tag::Delete,
        (0, _) => Tag::Insert,
        _ => Tag::Replace,
    };
    let ops: Vec<LineOp> = [
        (Tag::Equal, prefix, prefix),
        (change, removed, added),
        (Tag::Equal, suffix, suffix),
    ]
    .into_iter()
    .filter(|&(_, o, n)| o + n > 0)
    .collect();
    render_hunks(&ops, &old_lines, &new_lines, options)
}

/// One body line of a hunk (`tag` and the line with its break), marked as
/// `diff` marks a last line without a newline.
fn push_line(out: &mut String, tag: char, line: &str) {
    out.push(tag);
    out.push_str(line);
    if !line.ends_with('\n') {
        out.push_str("\n\\ No newline at end of file\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_texts_are_compared_by_lines_split_as_a_line_diff_splits_them() {
        // Past 4,000 chars the ratio is over lines; a lone `\r` ends one.
        let pairs = [
            ("x\r".repeat(2001) + "y", "x\r".repeat(2001) + "z"),
            ("a\r\nb\n".repeat(900), "a\r\nc\rb\n".repeat(700)),
        ];
        for (a, b) in pairs {
            let myers = similar::TextDiff::configure()
                .algorithm(similar::Algorithm::Myers)
                .diff_lines(&a, &b)
                .ratio();
            assert_eq!(similarity(&a, &b), f64::from(myers));
        }
    }

    #[test]
    fn hunk_headers_count_the_lines_their_bodies_hold() {
        let file_f = |context| UnifiedDiffOptions {
            old_name: "f",
            new_name: "f",
            context,
        };
        // similar's own rendering numbered this hunk `@@ -1 +2 @@`.
        let d = unified_diff("\n// x\n", "// x\n// x\n", file_f(1));
        assert_eq!(d, "--- f\n+++ f\n@@ -1,2 +1,2 @@\n-\n // x\n+// x\n");
        // Without context: a removal at the top is `+0,0` on the new side.
        let d = unified_diff("a\nb\n", "b\nc\n", file_f(0));
        assert_eq!(d, "--- f\n+++ f\n@@ -1 +0,0 @@\n-a\n@@ -2,0 +2 @@\n+c\n");
        // Two changes closer than twice the context share a hunk.
        let d = unified_diff(
            "1\n2\n3\n4\n5\n",
            "1\nB\n3\nD\n5",
            UnifiedDiffOptions::default(),
        );
        assert_eq!(
            d,
            "--- a\n+++ b\n@@ -1,5 +1,5 @@\n 1\n-2\n+B\n 3\n-4\n-5\n+D\n+5\n\\ No newline at end of file\n"
        );
    }

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
        assert_eq!(
            links,
            vec![
                LineLink::Equal(0),
                LineLink::Changed(1),
                LineLink::Inserted,
                LineLink::Equal(2)
            ]
        );
        assert_eq!(align_lines(&[], &["x"]), vec![LineLink::Inserted]);
        assert!(align_lines(&["x"], &[]).is_empty());
    }

    #[test]
    fn token_sequences_have_a_ratio() {
        assert_eq!(sequence_ratio(&[], &[]), 1.0);
        assert_eq!(sequence_ratio(&["a"], &[]), 0.0);
        assert!((sequence_ratio(&["a", "b", "c", "d"], &["a", "b", "x", "d"]) - 0.75).abs() < 1e-6);
    }

    proptest::proptest! {
        /// Texts of at most one line each are diffed without Myers, to the
        /// same diff Myers gives.
        #[test]
        fn one_line_texts_diff_as_myers_diffs_them(
            old in "([a-c ]{0,3}(\r\n|\n|\r)?)?",
            new in "([a-c ]{0,3}(\r\n|\n|\r)?)?",
            many in "([a-c ]{0,3}(\r\n|\n|\r)){0,4}[a-c]?",
            many_first in proptest::bool::ANY,
        ) {
            // And an empty side against several lines (all removed or all
            // added).
            let (o, n) = if many_first { (many.as_str(), "") } else { ("", many.as_str()) };
            let (ol, nl) = (split_lines(o), split_lines(n));
            let myers = if o == n {
                String::new()
            } else {
                render_hunks(&line_ops(&ol, &nl), &ol, &nl, UnifiedDiffOptions::default())
            };
            proptest::prop_assert_eq!(unified_diff(o, n, UnifiedDiffOptions::default()), myers);

            let options = UnifiedDiffOptions::default();
            let (o, n) = (split_lines(&old), split_lines(&new));
            let myers = if old == new {
                String::new()
            } else {
                render_hunks(&line_ops(&o, &n), &o, &n, UnifiedDiffOptions::default())
            };
            proptest::prop_assert_eq!(unified_diff(&old, &new, options), myers);
        }
    }

    /// The hunks as they were grouped before `next_hunk` (each change's
    /// index, then runs joined across gaps of at most twice the context).
    fn grouped(steps: &[Step], context: usize) -> Vec<(usize, usize)> {
        let changes: Vec<usize> = (0..steps.len())
            .filter(|&i| steps[i].0 != Tag::Equal)
            .collect();
        let mut groups = Vec::new();
        let mut k = 0;
        while k < changes.len() {
            let first = changes[k];
            let mut last = first;
            while k + 1 < changes.len() {
                let gap: usize = (last + 1..changes[k + 1]).map(|i| steps[i].3).sum();
                if gap > 2 * context {
                    break;
                }
                k += 1;
                last = changes[k];
            }
            k += 1;
            groups.push((first, last));
        }
        groups
    }

    proptest::proptest! {
        /// Hunks found one at a time are the groups of every change.
        #[test]
        fn hunks_are_found_one_at_a_time_as_grouped(
            runs in proptest::collection::vec((proptest::bool::ANY, 1usize..9), 0..12),
            context in 0usize..4,
        ) {
            let steps: Vec<Step> = runs
                .iter()
                .map(|&(equal, len)| {
                    let tag = if equal { Tag::Equal } else { Tag::Replace };
                    (tag, 0, 0, len, len)
                })
                .collect();
            let mut found = Vec::new();
            let mut from = 0;
            while let Some((first, last)) = next_hunk(&steps, from, context) {
                found.push((first, last));
                from = last + 1;
            }
            proptest::prop_assert_eq!(found, grouped(&steps, context));
        }
    }

    #[test]
    fn unified_diff_has_headers_and_hunks() {
        let d = unified_diff("a\nb\nc\n", "a\nB\nc\n", UnifiedDiffOptions::default());
        assert_eq!(d, "--- a\n+++ b\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
        assert_eq!(unified_diff("x", "x", UnifiedDiffOptions::default()), "");
    }

    #[test]
    fn excerpt_diffs_are_numbered_as_in_the_whole_file() {
        let d = unified_diff_excerpt("a\nb\nc\n", "a\nB\nc\n", 10, UnifiedDiffOptions::default());
        assert_eq!(d, "--- a\n+++ b\n@@ -11,3 +11,3 @@\n a\n-b\n+B\n c\n");
        // An insertion into an empty excerpt after line 7.
        let d = unified_diff_excerpt("", "x\n", 7, UnifiedDiffOptions::default());
        assert_eq!(d, "--- a\n+++ b\n@@ -7,0 +8 @@\n+x\n");
        // A body line that looks like a header is never renumbered.
        let d = unified_diff_excerpt("@@ -1 +1 @@\n", "x\n", 5, UnifiedDiffOptions::default());
        assert!(d.contains("\n-@@ -1 +1 @@\n"), "{d}");
        assert!(d.contains("@@ -6 +6 @@"), "{d}");
    }

    #[test]
    fn large_excerpts_use_the_linear_single_hunk_rendering() {
        let old: String = (0..1_500).map(|i| format!("line {i}\n")).collect();
        let new: String = (0..1_500)
            .map(|i| {
                if i == 700 {
                    "changed\n".to_string()
                } else {
                    format!("line {i}\n")
                }
            })
            .collect();
        let d = unified_diff_excerpt(&old, &new, 2, UnifiedDiffOptions::default());
        assert_eq!(
            d,
            "--- a\n+++ b\n@@ -700,7 +700,7 @@\n line 697\n line 698\n line 699\n-line 700\n+changed\n line 701\n line 702\n line 703\n"
        );
        let d = single_hunk_diff("a\nb", "a\nc", UnifiedDiffOptions::default());
        assert_eq!(
            d,
            "--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"
        );
        let d = single_hunk_diff("", "x\n", UnifiedDiffOptions::default());
        assert_eq!(d, "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n");
    }
}
