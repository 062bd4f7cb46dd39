//! A file's content as lines, and the one function that changes it.
//!
//! Invariants: a [`Doc`] is the BOM (kept aside) plus lines that remember
//! their own endings, so every byte outside an edited span is copied
//! unchanged. [`splice`] replaces whole lines with new text; the new text's
//! line endings become the file's (its dominant style, CRLF in a CRLF
//! file; in a file that mixes both, each new line takes the ending of the
//! line it replaces, an added line the ending of the line it follows), and
//! it always ends with a line ending (seed 001 §7.1). Every line of the
//! result ends with a newline: a missing final newline is added, in the
//! file's ending, whatever part of the file the edit touched (seed 001's
//! hard rule).
//!
//! Cost: building a `Doc` is O(n); [`splice`] copies the text once and
//! diffs only the window around the change (O(change + context)).

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

/// `text` (new lines, each ending in `ending`) with the endings of a file
/// that mixes CRLF and LF: the i-th new line takes the ending of the i-th
/// replaced line, a line beyond them the ending of the line before it.
fn with_own_endings(
    doc: &Doc<'_>,
    del_start: usize,
    del_end: usize,
    text: &str,
    ending: LineEnding,
) -> String {
    let own = |i: usize| doc.lines.get(i).map(|l| l.ending).filter(|e| !e.is_empty());
    let mut previous = del_start
        .checked_sub(1)
        .and_then(own)
        .or_else(|| own(del_start))
        .unwrap_or(ending.as_str());
    let mut out = String::with_capacity(text.len() + 8);
    for (i, line) in lines_with_endings(text).enumerate() {
        let replaced = del_start + i;
        let e = if replaced < del_end {
            own(replaced).unwrap_or(previous)
        } else {
            previous
        };
        out.push_str(line.text);
        out.push_str(e);
        previous = e;
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

    // The diff covers the change and CONTEXT_LINES lines around it; bytes
    // before `a` and after `b` are the same in both texts.
    let window_start = del_start.saturating_sub(CONTEXT_LINES);
    let window_end = del_end.saturating_add(CONTEXT_LINES).min(doc.len());
    let (old_from, old_to) = (doc.offset(window_start), doc.offset(window_end));
    let mut new_to = old_to - b + a + eof_fix.len() + new.text.len();
    if final_fix && window_end == doc.len() {
        new_to += ending.as_str().len();
    }
    let new_body = &content[body_start..];
    let old_name = format!("a/{path}");
    let new_name = format!("b/{path}");
    let diff = unified_diff_excerpt(
        &doc.body[old_from..old_to],
        new_body.get(old_from..new_to).unwrap_or(""),
        window_start,
        UnifiedDiffOptions {
            old_name: &old_name,
            new_name: &new_name,
            context: CONTEXT_LINES,
        },
    );

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
