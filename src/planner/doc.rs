//! A file's content as lines, and the one function that changes it.
//!
//! Invariants: a [`Doc`] is the BOM (kept aside) plus lines that remember
//! their own endings, so every byte outside an edited span is copied
//! unchanged. [`splice`] replaces whole lines with new text; the new text's
//! line endings become the file's (its dominant style, CRLF in a CRLF
//! file; in a file that mixes both, the new lines are aligned with the
//! replaced ones and keep their endings, see [`with_own_endings`]), and
//! it always ends with a line ending (seed 001 §7.1). Every line of the
//! result ends with a newline: a missing final newline is added, in the
//! file's ending, whatever part of the file the edit touched (seed 001's
//! hard rule), and the diff shows it (`\ No newline at end of file`).
//!
//! Cost: building a `Doc` is O(n); [`splice`] copies the text once and
//! diffs only the window around the change (O(change + context)), plus the
//! file's last lines when it adds the final newline; in a mixed-ending
//! file the alignment of the new lines is a Myers diff of the replaced
//! lines and the new ones (positional past [`MAX_LINES_TO_ALIGN`]).

use crate::text::{
    detect_line_ending, lines_with_endings, unified_diff_excerpt, Line, LineEnding,
    UnifiedDiffOptions, BOM,
};

use super::types::Normalized;

/// Lines of unchanged context around a change (diffs and relocation).
pub(crate) const CONTEXT_LINES: usize = 3;

pub(crate) struct Doc<'a> {
    pub full: &'a str,
    pub bom: bool,
    pub body: &'a str,
    pub lines: Vec<Line<'a>>,
}

impl<'a> Doc<'a> {
    pub fn new(full: &'a str) -> Self {
        let (bom, body) = crate::text::split_bom(full);
        Doc {
            full,
            bom,
            body,
            lines: lines_with_endings(body).collect(),
        }
    }

    pub fn len(&self) -> usize {
        self.lines.len()
    }

    pub fn text(&self, index: usize) -> &'a str {
        self.lines.get(index).map_or("", |l| l.text)
    }

    pub fn texts(&self) -> Vec<&'a str> {
        self.lines.iter().map(|l| l.text).collect()
    }

    /// The texts of lines `start..end` (clamped).
    pub fn slice(&self, start: usize, end: usize) -> Vec<&'a str> {
        let end = end.min(self.len());
        let start = start.min(end);
        self.lines[start..end].iter().map(|l| l.text).collect()
    }

    /// True when the last line has an ending (or there is no line).
    pub fn has_final_newline(&self) -> bool {
        self.lines.last().is_none_or(|l| !l.ending.is_empty())
    }

    /// Byte offset in `body` where line `index` starts (`body.len()` past
    /// the end).
    pub fn offset(&self, index: usize) -> usize {
        self.lines.get(index).map_or(self.body.len(), |l| l.start)
    }

    /// The file's dominant line ending, or `None` when it has no newline.
    pub fn ending(&self) -> Option<LineEnding> {
        self.body
            .contains('\n')
            .then(|| detect_line_ending(self.body))
    }

    /// `lf`, `crlf`, `mixed` or `none`.
    pub fn ending_name(&self) -> &'static str {
        let (mut lf, mut crlf) = (false, false);
        for line in &self.lines {
            match line.ending {
                "\n" => lf = true,
                "\r\n" => crlf = true,
                _ => {}
            }
        }
        match (lf, crlf) {
            (true, true) => "mixed",
            (false, true) => "crlf",
            (true, false) => "lf",
            (false, false) => "none",
        }
    }
}

/// FNV-1a, 64 bits: a small, deterministic, non-cryptographic digest used
/// to tell "unchanged since the plan" and to label apply results.
pub(crate) fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// `fnv1a64:<16 lowercase hex digits>` (a string: results carry no u64).
pub(crate) fn digest_string(text: &str) -> String {
    format!("fnv1a64:{:016x}", fnv1a64(text.as_bytes()))
}

/// A blank line: nothing but spaces and tabs.
pub(crate) fn is_blank(text: &str) -> bool {
    text.trim_matches([' ', '\t']).is_empty()
}

pub(crate) fn leading_blank_count<S: AsRef<str>>(lines: &[S]) -> usize {
    lines.iter().take_while(|l| is_blank(l.as_ref())).count()
}

pub(crate) fn trailing_blank_count<S: AsRef<str>>(lines: &[S]) -> usize {
    lines
        .iter()
        .rev()
        .take_while(|l| is_blank(l.as_ref()))
        .count()
}

/// New text with every line ending set to `ending`, final one included.
pub(crate) struct NewText {
    pub text: String,
    pub line_count: usize,
    pub eof_added: bool,
}

pub(crate) fn normalize_new_text(raw: &str, ending: LineEnding) -> NewText {
    let mut text = String::with_capacity(raw.len() + 2);
    let mut line_count = 0;
    let mut eof_added = false;
    for line in lines_with_endings(raw) {
        text.push_str(line.text);
        text.push_str(ending.as_str());
        line_count += 1;
        eof_added = line.ending.is_empty();
    }
    NewText {
        text,
        line_count,
        eof_added,
    }
}

/// Above this many lines (replaced and new, once their common first and
/// last lines are set aside) the lines in between are paired by position
/// instead of by a Myers alignment, whose cost grows with the product of
/// length and difference.
const MAX_LINES_TO_ALIGN: usize = 4_000;

/// For each of the `new` lines, the index of the `old` line it stands for
/// (an unchanged line, or a changed one paired by position inside a run of
/// replaced lines), `None` for an added line. Common first and last lines
/// are paired as they are; the lines in between are aligned by
/// [`crate::text::align_lines`].
fn align_new_to_old(old: &[&str], new: &[&str]) -> Vec<Option<usize>> {
    let head = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let tail = old[head..]
        .iter()
        .rev()
        .zip(new[head..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (old_mid, new_mid) = (&old[head..old.len() - tail], &new[head..new.len() - tail]);
    let mut out: Vec<Option<usize>> = (0..head).map(Some).collect();
    if old_mid.len() + new_mid.len() <= MAX_LINES_TO_ALIGN {
        use crate::text::LineLink;
        out.extend(
            crate::text::align_lines(old_mid, new_mid)
                .into_iter()
                .map(|link| match link {
                    LineLink::Equal(i) | LineLink::Changed(i) => Some(head + i),
                    LineLink::Inserted => None,
                }),
        );
    } else {
        out.extend((0..new_mid.len()).map(|j| (j < old_mid.len()).then_some(head + j)));
    }
    out.extend((0..tail).map(|k| Some(old.len() - tail + k)));
    out
}

/// `text` (new lines, each ending in `ending`) with the endings of a file
/// that mixes CRLF and LF, replacing lines `del_start..del_end`. The new
/// lines are aligned with the replaced ones (as the matcher does, SPEC
/// §6.8): a line kept unchanged keeps its own ending, a changed line the
/// ending of the line it replaces; an added line takes the ending of the
/// nearest such line before it in the new text, else after it, else the
/// most common ending of the replaced lines, else that of the line before
/// the edit, else of the line after it. Nothing is paired by index alone,
/// so an added or removed line shifts no other line's ending.
fn with_own_endings(
    doc: &Doc<'_>,
    del_start: usize,
    del_end: usize,
    text: &str,
    ending: LineEnding,
) -> String {
    let own = |i: usize| doc.lines.get(i).map(|l| l.ending).filter(|e| !e.is_empty());
    let old: Vec<&str> = doc.lines[del_start..del_end]
        .iter()
        .map(|l| l.text)
        .collect();
    let new: Vec<&str> = lines_with_endings(text).map(|l| l.text).collect();
    let kept: Vec<Option<&str>> = align_new_to_old(&old, &new)
        .into_iter()
        .map(|i| i.and_then(|i| own(del_start + i)))
        .collect();
    let (mut crlf, mut lf) = (0usize, 0usize);
    for line in &doc.lines[del_start..del_end] {
        match line.ending {
            "\r\n" => crlf += 1,
            "\n" => lf += 1,
            _ => {}
        }
    }
    let region = match (crlf, lf) {
        (0, 0) => None,
        _ if crlf == lf => own(del_start),
        _ if crlf > lf => Some("\r\n"),
        _ => Some("\n"),
    };
    let fallback = region
        .or_else(|| del_start.checked_sub(1).and_then(own))
        .or_else(|| own(del_end))
        .unwrap_or(ending.as_str());
    // The nearest kept ending after each line (for added lines at the top).
    let mut next: Vec<Option<&str>> = vec![None; kept.len()];
    let mut seen = None;
    for j in (0..kept.len()).rev() {
        next[j] = seen;
        seen = kept[j].or(seen);
    }
    let mut previous: Option<&str> = None;
    let mut out = String::with_capacity(text.len() + new.len());
    for (j, line) in new.iter().enumerate() {
        let e = kept[j].or(previous).or(next[j]).unwrap_or(fallback);
        out.push_str(line);
        out.push_str(e);
        if kept[j].is_some() {
            previous = kept[j];
        }
    }
    out
}

/// The texts of the lines of `raw` (what the new text will look like).
pub(crate) fn new_text_lines(raw: &str) -> Vec<&str> {
    lines_with_endings(raw).map(|l| l.text).collect()
}

/// The line ending new text takes in `doc`: the file's, or the new text's
/// own when the file has no newline at all.
pub(crate) fn target_ending(doc: &Doc<'_>, raw_new: &str) -> LineEnding {
    doc.ending().unwrap_or_else(|| detect_line_ending(raw_new))
}

/// The result of replacing lines with new text.
pub(crate) struct Spliced {
    /// The whole new content, BOM included.
    pub content: String,
    pub normalized: Normalized,
    pub new_line_count: usize,
    pub old_line_count: usize,
    /// 0-based line where the deleted lines were / the new text starts.
    pub at: usize,
    pub diff: String,
}

/// Replaces lines `del_start..del_start + del_count` of `doc` (clamped)
/// with `raw_new`, see the module docs for the normalisation.
pub(crate) fn splice(
    doc: &Doc<'_>,
    del_start: usize,
    del_count: usize,
    raw_new: &str,
    path: &str,
) -> Spliced {
    let del_start = del_start.min(doc.len());
    let del_end = del_start.saturating_add(del_count).min(doc.len());
    let ending = target_ending(doc, raw_new);
    let mut new = normalize_new_text(raw_new, ending);
    if doc.ending_name() == "mixed" {
        new.text = with_own_endings(doc, del_start, del_end, &new.text, ending);
    }
    let (a, b) = (doc.offset(del_start), doc.offset(del_end));
    let fix_eof = del_start == doc.len() && !doc.has_final_newline() && !new.text.is_empty();
    let eof_fix = if fix_eof { ending.as_str() } else { "" };

    let mut content = String::with_capacity(doc.full.len() + new.text.len() + 2);
    if doc.bom {
        content.push_str(BOM);
    }
    let body_start = content.len();
    content.push_str(&doc.body[..a]);
    content.push_str(eof_fix);
    content.push_str(&new.text);
    content.push_str(&doc.body[b..]);
    // Seed 001: every line ends with a newline.
    let final_fix = content.len() > body_start && !content.ends_with('\n');
    if final_fix {
        content.push_str(ending.as_str());
    }

    let cut = Cut {
        del_start,
        del_end,
        a,
        b,
        inserted: eof_fix.len() + new.text.len(),
        new_line_count: new.line_count,
        final_newline: final_fix.then_some(ending.as_str()),
    };
    let diff = splice_diff(doc, &cut, &content[body_start..], path);
    Spliced {
        content,
        normalized: Normalized {
            file_eof_has_newline: doc.has_final_newline(),
            content_eof_has_newline: raw_new.is_empty() || raw_new.ends_with('\n'),
            normalized_file_eof_newline_added: fix_eof || final_fix,
            normalized_content_eof_newline_added: new.eof_added,
        },
        new_line_count: new.line_count,
        old_line_count: del_end - del_start,
        at: del_start,
        diff,
    }
}

/// Where a splice cut the old body: lines `del_start..del_end`, bytes
/// `a..b`, replaced by `inserted` bytes (`new_line_count` lines); and the
/// final newline the splice added, if any.
struct Cut {
    del_start: usize,
    del_end: usize,
    a: usize,
    b: usize,
    inserted: usize,
    new_line_count: usize,
    final_newline: Option<&'static str>,
}

/// The splice's unified diff: the change with [`CONTEXT_LINES`] lines
/// around it, and a final newline added far below it as a hunk of its own.
fn splice_diff(doc: &Doc<'_>, cut: &Cut, new_body: &str, path: &str) -> String {
    let Cut {
        del_start,
        del_end,
        a,
        b,
        ..
    } = *cut;
    let final_fix = cut.final_newline.is_some();
    // The diff covers the change and CONTEXT_LINES lines around it; bytes
    // before `a` and after `b` are the same in both texts. A final newline
    // added far below the change is a change of its own: the last line,
    // shown in a hunk of its own (or in the change's hunk when the lines
    // between are few enough for `diff -u` to join them).
    let window_start = del_start.saturating_sub(CONTEXT_LINES);
    let mut window_end = del_end.saturating_add(CONTEXT_LINES).min(doc.len());
    let last = doc.len().saturating_sub(1);
    let eof_hunk = final_fix && window_end < doc.len();
    if eof_hunk && last - del_end <= 2 * CONTEXT_LINES {
        window_end = doc.len();
    }
    let (old_from, old_to) = (doc.offset(window_start), doc.offset(window_end));
    // Where an old byte offset at or after `b` is in the new body.
    let moved = |old_offset: usize| old_offset - b + a + cut.inserted;
    let mut new_to = moved(old_to);
    if let (Some(ending), true) = (cut.final_newline, window_end == doc.len()) {
        new_to += ending.len();
    }
    let old_name = format!("a/{path}");
    let new_name = format!("b/{path}");
    let options = UnifiedDiffOptions {
        old_name: &old_name,
        new_name: &new_name,
        context: CONTEXT_LINES,
    };
    let mut diff = unified_diff_excerpt(
        &doc.body[old_from..old_to],
        new_body.get(old_from..new_to).unwrap_or(""),
        window_start,
        options,
    );
    if window_end < doc.len() && eof_hunk {
        let tail_start = last - CONTEXT_LINES;
        let new_tail_start = tail_start + cut.new_line_count - (del_end - del_start);
        let old_tail = &doc.body[doc.offset(tail_start)..];
        let new_tail = new_body.get(moved(doc.offset(tail_start))..).unwrap_or("");
        let tail = unified_diff_excerpt(old_tail, new_tail, 0, options);
        let mut hunks = tail.split_inclusive('\n');
        if !diff.is_empty() {
            // The `---`/`+++` header is already there.
            hunks.nth(1);
        }
        for line in hunks {
            match renumber_hunk_header(line, tail_start, new_tail_start) {
                Some(header) => diff.push_str(&header),
                None => diff.push_str(line),
            }
        }
    }

    diff
}

/// An `@@ -a[,b] +c[,d] @@` header with `old_by` lines added to `a` and
/// `new_by` to `c`; `None` for any other line (body lines start with ` `,
/// `-`, `+` or `\\`).
fn renumber_hunk_header(line: &str, old_by: usize, new_by: usize) -> Option<String> {
    let rest = line.strip_prefix("@@ -")?;
    let (old_range, rest) = rest.split_once(" +")?;
    let (new_range, tail) = rest.split_once(" @@")?;
    let shift = |range: &str, by: usize| -> Option<String> {
        let (start, len) = match range.split_once(',') {
            Some((s, l)) => (s, Some(l)),
            None => (range, None),
        };
        let start = start.parse::<usize>().ok()?.saturating_add(by);
        Some(match len {
            Some(len) => format!("{start},{len}"),
            None => start.to_string(),
        })
    };
    Some(format!(
        "@@ -{} +{} @@{}",
        shift(old_range, old_by)?,
        shift(new_range, new_by)?,
        tail
    ))
}

/// Every start index of `needle` in `haystack` (KMP over lines: linear in
/// the total text compared, whatever the repetition).
pub(crate) fn find_all(haystack: &[&str], needle: &[&str]) -> Vec<usize> {
    let m = needle.len();
    if m == 0 || m > haystack.len() {
        return Vec::new();
    }
    let mut fail = vec![0usize; m];
    let mut k = 0usize;
    for i in 1..m {
        while k > 0 && needle[i] != needle[k] {
            k = fail[k - 1];
        }
        if needle[i] == needle[k] {
            k += 1;
        }
        fail[i] = k;
    }
    let mut out = Vec::new();
    let mut q = 0usize;
    for (i, line) in haystack.iter().enumerate() {
        while q > 0 && *line != needle[q] {
            q = fail[q - 1];
        }
        if *line == needle[q] {
            q += 1;
        }
        if q == m {
            out.push(i + 1 - m);
            q = fail[q - 1];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splice_keeps_every_other_byte() {
        // One CRLF and one LF line: the replaced line's LF stays LF; the
        // other lines keep their own endings, the BOM stays, and the
        // missing final newline is added (seed 001).
        let doc = Doc::new("\u{feff}a\r\nb\nc");
        let s = splice(&doc, 1, 1, "B", "f");
        assert_eq!(s.content, "\u{feff}a\r\nB\nc\n");
        assert_eq!((s.old_line_count, s.new_line_count, s.at), (1, 1, 1));
        assert_eq!(
            s.diff,
            "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\r\n-b\n-c\n\\ No newline at end of file\n+B\n+c\n"
        );
    }

    #[test]
    fn mixed_endings_each_new_line_keeps_its_lines_ending() {
        // An edited LF line in a CRLF region stays LF; an added line takes
        // the ending of the line it follows.
        let doc = Doc::new("one\r\ntwo\nthree\r\n");
        let s = splice(&doc, 1, 1, "TWO\nadded", "f");
        assert_eq!(s.content, "one\r\nTWO\nadded\nthree\r\n");
        let s = splice(&doc, 0, 2, "ONE\nTWO", "f");
        assert_eq!(s.content, "ONE\r\nTWO\nthree\r\n");
    }

    #[test]
    fn appending_after_an_unterminated_line_terminates_it() {
        let doc = Doc::new("a\r\nb\r\nc");
        let s = splice(&doc, 3, 0, "d", "f");
        assert_eq!(s.content, "a\r\nb\r\nc\r\nd\r\n");
        assert!(s.normalized.normalized_file_eof_newline_added);
        assert!(s.normalized.normalized_content_eof_newline_added);
        assert!(!s.normalized.file_eof_has_newline);
        // An edit away from the end adds the missing final newline too
        // (seed 001: every line ends with a newline).
        let s = splice(&doc, 0, 1, "A\n", "f");
        assert_eq!(s.content, "A\r\nb\r\nc\r\n");
        assert!(s.normalized.normalized_file_eof_newline_added);
    }

    #[test]
    fn kmp_finds_overlapping_runs() {
        let hay = ["a", "a", "a", "b", "a", "a"];
        assert_eq!(find_all(&hay, &["a", "a"]), vec![0, 1, 4]);
        assert_eq!(find_all(&hay, &["a", "b", "a"]), vec![2]);
        assert_eq!(find_all(&hay, &[]), Vec::<usize>::new());
        assert_eq!(find_all(&["x"], &["x", "y"]), Vec::<usize>::new());
    }

    #[test]
    fn digests_are_fnv1a64() {
        assert_eq!(fnv1a64(b""), 0xcbf29ce484222325);
        assert_eq!(fnv1a64(b"a"), 0xaf63dc4c8601ec8c);
        assert_eq!(digest_string("a"), "fnv1a64:af63dc4c8601ec8c");
    }
}
