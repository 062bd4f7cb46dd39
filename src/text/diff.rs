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
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Myers)
        .diff_slices(old, new);
    for op in diff.ops() {
        match *op {
            DiffOp::Equal {
                old_index,
                new_index,
                len,
            } => {
                for k in 0..len {
                    if let Some(link) = links.get_mut(new_index + k) {
                        *link = LineLink::Equal(old_index + k);
                    }
                }
            }
            DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => {
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
    f64::from(
        TextDiff::configure()
            .algorithm(Algorithm::Myers)
            .diff_slices(old, new)
            .ratio(),
    )
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
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Myers)
        .diff_lines(old, new);
    diff.unified_diff()
        .context_radius(options.context)
        .missing_newline_hint(true)
        .header(options.old_name, options.new_name)
        .to_string()
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
    let lead = prefix.min(options.context);
    let trail = suffix.min(options.context);
    let old_mid = &old_lines[prefix..old_lines.len() - suffix];
    let new_mid = &new_lines[prefix..new_lines.len() - suffix];
    let range = |first: usize, len: usize| {
        if len == 1 {
            format!("{}", first + 1)
        } else if len == 0 {
            format!("{first},0")
        } else {
            format!("{},{len}", first + 1)
        }
    };
    let first = prefix - lead;
    let old_len = lead + old_mid.len() + trail;
    let new_len = lead + new_mid.len() + trail;
    let mut out = format!(
        "--- {}\n+++ {}\n@@ -{} +{} @@\n",
        options.old_name,
        options.new_name,
        range(first, old_len),
        range(first, new_len)
    );
    let mut push = |tag: char, line: &str| {
        out.push(tag);
        out.push_str(line);
        if !line.ends_with('\n') {
            out.push_str("\n\\ No newline at end of file\n");
        }
    };
    for line in &old_lines[first..prefix] {
        push(' ', line);
    }
    for line in old_mid {
        push('-', line);
    }
    for line in new_mid {
        push('+', line);
    }
    for line in &old_lines[old_lines.len() - suffix..old_lines.len() - suffix + trail] {
        push(' ', line);
    }
    out
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
