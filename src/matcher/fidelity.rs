//! Keeping the file's own bytes on a changed line (SPEC §6.8).
//!
//! A safe strategy pairs each search line with a file line that is equal
//! to it under the strategy's normalisation. When the replacement changes
//! such a line, the parts the model did not change must still be written
//! the way the file writes them: the tab of a TSV row, two spaces inside a
//! string literal, an em dash, an NBSP, a zero-width character, trailing
//! spaces (a Markdown hard break). So the replacement line is aligned with
//! its search line character by character over their fold keys (the
//! coarsest key, SPEC §6.1 item 7), and every run of key characters the
//! two share is written from the file line, every other run from the
//! replacement. A shared character the model wrote differently in the
//! replacement than in its search (a run of spaces it widened, a quote it
//! curled) is its own change and is written as it wrote it.

use super::normalize::{fold_char, is_zero_width};
use crate::text::{align_lines, LineLink};

/// One character of a line's fold key and the bytes of the line it comes
/// from. A whitespace run is one `' '`; a folded `…` is three `.` with the
/// same span; zero-width characters belong to the character before them.
/// The line's lead (indentation, zero-width characters in it or before
/// the first character) is not part of the key: it is the indentation the
/// caller writes ([`lead_of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct KeyChar {
    key: char,
    start: usize,
    end: usize,
}

/// The line's leading whitespace and zero-width characters: its
/// indentation as the file writes it, a zero-width character inside it
/// included (so the columns after it stay where they were).
pub(crate) fn lead_of(line: &str) -> &str {
    let body = line.trim_start_matches(|c: char| c.is_whitespace() || is_zero_width(c));
    &line[..line.len() - body.len()]
}

/// The fold key of `line` with the byte span of each key character.
fn key_chars(line: &str) -> Vec<KeyChar> {
    let mut out: Vec<KeyChar> = Vec::new();
    let mut run: Option<usize> = None;
    let lead = lead_of(line).len();
    for (i, c) in line[lead..].char_indices() {
        let i = i + lead;
        let end = i + c.len_utf8();
        if is_zero_width(c) {
            if run.is_some() {
                continue;
            }
            if let Some(last) = out.last().copied() {
                // Every key character of that source character grows.
                for k in out.iter_mut().rev().take_while(|k| k.start == last.start) {
                    k.end = end;
                }
            }
            continue;
        }
        if c.is_whitespace() {
            run.get_or_insert(i);
            continue;
        }
        if let Some(ws) = run.take() {
            out.push(KeyChar {
                key: ' ',
                start: ws,
                end: i,
            });
        }
        match fold_char(c) {
            Some(ascii) => out.extend(ascii.chars().map(|key| KeyChar { key, start: i, end })),
            None => out.push(KeyChar {
                key: c,
                start: i,
                end,
            }),
        }
    }
    out
}

/// For each key character, the first index and the length of the group of
/// key characters that come from the same source character (a folded `…`
/// is a group of three; most groups are one).
fn groups(keys: &[KeyChar]) -> Vec<(usize, usize)> {
    let mut out = vec![(0, 0); keys.len()];
    let mut a = 0;
    while a < keys.len() {
        let b = a + keys[a..]
            .iter()
            .take_while(|k| (k.start, k.end) == (keys[a].start, keys[a].end))
            .count();
        for slot in &mut out[a..b] {
            *slot = (a, b - a);
        }
        a = b;
    }
    out
}

/// A piece of a rewritten line: copied from the file, or the model's own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Piece {
    pub text: String,
    pub from_file: bool,
}

/// Above this many differing key characters a line is not aligned
/// character by character (Myers is O(N·D)); its changed middle is taken
/// from the replacement as a whole.
const MAX_ALIGNED_CHARS: usize = 2_000;

/// The replacement line `r` written with the file line `f`'s bytes wherever
/// `r` keeps what the search line `s` had there: the line from its first
/// character after its lead ([`lead_of`]) to its end, in pieces. `None`
/// when `s` and `f` do not have the same fold key (then nothing can be
/// carried over) or `r` is blank.
pub(crate) fn keep_file_bytes(s: &str, f: &str, r: &str) -> Option<Vec<Piece>> {
    let (sk, fk, rk) = (key_chars(s), key_chars(f), key_chars(r));
    if rk.is_empty() || sk.len() != fk.len() || sk.iter().zip(&fk).any(|(a, b)| a.key != b.key) {
        return None;
    }
    let kept = kept_keys(&sk, &rk);
    let keep = whole_characters(s, r, &sk, &fk, &rk, &kept);
    let mut pieces: Vec<Piece> = Vec::new();
    let mut j = 0;
    while j < rk.len() {
        let mut e = j + 1;
        if keep[j] {
            let i0 = kept[j].unwrap_or(0);
            while e < rk.len() && keep[e] && kept[e].is_some_and(|i| i == i0 + (e - j)) {
                e += 1;
            }
            let i1 = i0 + (e - j) - 1;
            pieces.push(Piece {
                text: f[fk[i0].start..fk[i1].end].to_string(),
                from_file: true,
            });
        } else {
            while e < rk.len() && !keep[e] {
                e += 1;
            }
            pieces.push(Piece {
                text: r[rk[j].start..rk[e - 1].end].to_string(),
                from_file: false,
            });
        }
        j = e;
    }
    // Trailing whitespace the model left as the search had it is the
    // file's (a hard break survives); whitespace it changed is its own.
    let tail = |line: &str, keys: &[KeyChar]| -> String {
        keys.last().map_or("", |k| &line[k.end..]).to_string()
    };
    let (s_tail, r_tail) = (tail(s, &sk), tail(r, &rk));
    if r_tail == s_tail {
        pieces.push(Piece {
            text: tail(f, &fk),
            from_file: true,
        });
    } else {
        pieces.push(Piece {
            text: r_tail,
            from_file: false,
        });
    }
    pieces.retain(|p| !p.text.is_empty());
    Some(pieces)
}

/// Which search key character each replacement key character keeps: the
/// common prefix and suffix, and the middle aligned character by character.
fn kept_keys(sk: &[KeyChar], rk: &[KeyChar]) -> Vec<Option<usize>> {
    let mut kept: Vec<Option<usize>> = vec![None; rk.len()];
    let prefix = sk
        .iter()
        .zip(rk)
        .take_while(|(a, b)| a.key == b.key)
        .count();
    let suffix = sk[prefix..]
        .iter()
        .rev()
        .zip(rk[prefix..].iter().rev())
        .take_while(|(a, b)| a.key == b.key)
        .count();
    for (k, slot) in kept.iter_mut().enumerate().take(prefix) {
        *slot = Some(k);
    }
    for k in 0..suffix {
        kept[rk.len() - 1 - k] = Some(sk.len() - 1 - k);
    }
    let (s_mid, r_mid) = (prefix..sk.len() - suffix, prefix..rk.len() - suffix);
    if !s_mid.is_empty()
        && !r_mid.is_empty()
        && s_mid.len() <= MAX_ALIGNED_CHARS
        && r_mid.len() <= MAX_ALIGNED_CHARS
    {
        let as_text = |keys: &[KeyChar]| -> String { keys.iter().map(|k| k.key).collect() };
        let (s_text, r_text) = (as_text(&sk[s_mid.clone()]), as_text(&rk[r_mid.clone()]));
        let items = |t: &str| -> Vec<(usize, usize)> {
            t.char_indices()
                .map(|(i, c)| (i, i + c.len_utf8()))
                .collect()
        };
        let (s_items, r_items) = (items(&s_text), items(&r_text));
        let s_refs: Vec<&str> = s_items.iter().map(|&(a, b)| &s_text[a..b]).collect();
        let r_refs: Vec<&str> = r_items.iter().map(|&(a, b)| &r_text[a..b]).collect();
        for (j, link) in align_lines(&s_refs, &r_refs).into_iter().enumerate() {
            if let LineLink::Equal(i) = link {
                kept[r_mid.start + j] = Some(s_mid.start + i);
            }
        }
    }
    kept
}

/// Which replacement key characters are written from the file: those kept
/// from the search, written there as the search wrote them (else the model
/// changed them on purpose: a widened run of spaces, a curled quote), and
/// only as whole characters on every side — a folded `…` is kept with all
/// three of its dots or not at all, in the replacement, the search and the
/// file alike, so no character is ever written half from the file and half
/// from the model (twice, or not at all). Linear in the line's length.
fn whole_characters(
    s: &str,
    r: &str,
    sk: &[KeyChar],
    fk: &[KeyChar],
    rk: &[KeyChar],
    kept: &[Option<usize>],
) -> Vec<bool> {
    let (sg, fg, rg) = (groups(sk), groups(fk), groups(rk));
    let mut keep: Vec<bool> = (0..rk.len())
        .map(|j| kept[j].is_some_and(|i| r[rk[j].start..rk[j].end] == s[sk[i].start..sk[i].end]))
        .collect();
    // Dropping a character can break a group on another side; repeat until
    // nothing changes (each round only drops, so this ends).
    loop {
        let mut changed = false;
        let mut a = 0;
        while a < rk.len() {
            let (_, len) = rg[a];
            let b = a + len;
            // A replacement character keeps one whole search character.
            let whole = kept[a].is_some_and(|i0| {
                sg[i0] == (i0, len) && (a..b).all(|j| keep[j] && kept[j] == Some(i0 + (j - a)))
            });
            if !whole && keep[a..b].iter().any(|&k| k) {
                keep[a..b].iter_mut().for_each(|k| *k = false);
                changed = true;
            }
            a = b;
        }
        // A file character under kept replacement characters must be kept
        // whole by consecutive ones.
        for j in 0..rk.len() {
            let Some(i) = kept[j].filter(|_| keep[j]) else {
                continue;
            };
            let (fa, flen) = fg[i];
            let whole = (fa..fa + flen).all(|d| {
                (j + d)
                    .checked_sub(i)
                    .is_some_and(|jj| keep.get(jj) == Some(&true) && kept[jj] == Some(d))
            });
            if !whole {
                keep[j] = false;
                changed = true;
            }
        }
        if !changed {
            return keep;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn joined(s: &str, f: &str, r: &str) -> String {
        keep_file_bytes(s, f, r)
            .unwrap()
            .into_iter()
            .map(|p| p.text)
            .collect()
    }

    #[test]
    fn key_chars_cover_the_line_without_gaps() {
        let line = "  a\u{200b}\u{a0} “b…”  ";
        let keys = key_chars(line);
        let key: String = keys.iter().map(|k| k.key).collect();
        assert_eq!(key, "a \"b...\"");
        for pair in keys.windows(2) {
            assert!(pair[0].end == pair[1].start || pair[0].start == pair[1].start);
        }
        assert_eq!(&line[keys[0].start..keys[0].end], "a\u{200b}");
        assert_eq!(&line[keys[1].start..keys[1].end], "\u{a0} ");
    }

    #[test]
    fn unchanged_runs_are_the_files_bytes() {
        assert_eq!(joined("apple 3", "apple\t3", "apple 4"), "apple\t4");
        assert_eq!(joined("a 1 2 3", "a\t1\t2\t3", "a 9 2 8"), "a\t9\t2\t8");
        assert_eq!(
            joined("x = \"a - b\"", "x = “a — b”\u{200b}", "x = \"a - c\""),
            "x = “a — c”\u{200b}"
        );
        assert_eq!(
            joined("first", "first  ", "first, edited"),
            "first, edited  "
        );
        assert_eq!(joined("wait...", "wait…", "wait... no"), "wait… no");
        assert_eq!(joined("wait...", "wait…", "wait.."), "wait..");
        // A character is kept whole or not at all: never written twice.
        assert_eq!(joined("a b…", "a  b…", "a b.…"), "a  b.…");
        assert_eq!(
            joined("a b...", "a  b…\u{200b}", "a b...!"),
            "a  b…\u{200b}!"
        );
        // A zero-width character in the lead is the caller's indentation.
        assert_eq!(lead_of("  \u{200b}  x = 1"), "  \u{200b}  ");
        assert_eq!(
            joined("    x = 1", "  \u{200b}  x = 1", "    y = 1"),
            "y = 1"
        );
        // Whitespace the model changed on purpose is its own.
        assert_eq!(
            joined("x = \"a b\"", "x = \"a  b\"", "x = \"a   b\" + y"),
            "x = \"a   b\" + y"
        );
        assert_eq!(
            joined("x = \"a b\"", "x = \"a  b\"", "x = \"a b\" + y"),
            "x = \"a  b\" + y"
        );
    }

    #[test]
    fn lines_that_differ_in_key_carry_nothing() {
        assert_eq!(keep_file_bytes("a b", "a c", "a d"), None);
        assert_eq!(keep_file_bytes("a", "a", "   "), None);
    }
}
