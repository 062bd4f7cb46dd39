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

// ---------------------------------------------------------------------------
// Transplanting the model's change onto a file line that differs.

/// One unit of a line for [`transplant`]: a word (letters, digits and
/// `_`; a Chinese or Japanese character is a word of its own), a run of
/// whitespace (key `" "`), or any other character; its key is folded
/// character by character where a character folds to one, and a
/// zero-width character belongs to the unit before it.
struct Unit {
    key: String,
    start: usize,
    end: usize,
}

fn word_char(c: char) -> bool {
    (c.is_alphanumeric() || c == '_') && !is_wide(c)
}

/// Chinese, Japanese and Korean characters and full-width forms: a word
/// each (their text has no spaces between words).
fn is_wide(c: char) -> bool {
    matches!(c, '\u{2e80}'..='\u{9fff}' | '\u{ac00}'..='\u{d7af}' | '\u{f900}'..='\u{faff}' | '\u{ff00}'..='\u{ffef}')
}

/// The units of `line` after its lead, and where its trailing whitespace
/// starts.
fn units(line: &str) -> (Vec<Unit>, usize) {
    let lead = lead_of(line).len();
    let body_end = line.trim_end().len().max(lead);
    let mut out: Vec<Unit> = Vec::new();
    let mut last_class = 0u8;
    for (i, c) in line[lead..body_end].char_indices() {
        let (start, end) = (i + lead, i + lead + c.len_utf8());
        let class = if c.is_whitespace() {
            1
        } else if word_char(c) {
            2
        } else {
            3
        };
        let folded = match class {
            1 => ' ',
            _ => fold_char(c)
                .filter(|f| f.len() == 1)
                .and_then(|f| f.chars().next())
                .unwrap_or(c),
        };
        match out.last_mut() {
            Some(unit) if is_zero_width(c) => unit.end = end,
            Some(unit) if class == last_class && class != 3 => {
                if class == 2 {
                    unit.key.push(folded);
                }
                unit.end = end;
            }
            _ => {
                out.push(Unit {
                    key: folded.to_string(),
                    start,
                    end,
                });
                last_class = class;
            }
        }
    }
    (out, body_end)
}

/// For each unit of `a`, the unit of `b` it is aligned with when their
/// keys are equal: words and punctuation first (a space moved across a
/// word must not cost the word), then, between two aligned units, the
/// whitespace runs and whatever else is left.
fn equal_units(a: &[Unit], b: &[Unit]) -> Vec<Option<usize>> {
    let visible =
        |u: &[Unit]| -> Vec<usize> { (0..u.len()).filter(|&i| u[i].key != " ").collect() };
    let (va, vb) = (visible(a), visible(b));
    let mut out = vec![None; a.len()];
    for (i, j) in align_units(a, &va, b, &vb) {
        out[i] = Some(j);
    }
    // Between aligned units (and before the first, after the last).
    let mut pairs: Vec<(usize, usize)> = out
        .iter()
        .enumerate()
        .filter_map(|(i, j)| Some((i, (*j)?)))
        .collect();
    pairs.push((a.len(), b.len()));
    let (mut a0, mut b0) = (0, 0);
    for (a1, b1) in pairs {
        let (ga, gb): (Vec<usize>, Vec<usize>) = ((a0..a1).collect(), (b0..b1).collect());
        if !ga.is_empty() && !gb.is_empty() {
            for (i, j) in align_units(a, &ga, b, &gb) {
                out[i] = Some(j);
            }
        }
        (a0, b0) = (a1 + 1, b1 + 1);
    }
    // A run of spaces is kept only between two kept units: the space
    // between two words the model replaced is its own.
    let kept = out.clone();
    for (i, slot) in out.iter_mut().enumerate() {
        let neighbour =
            |k: Option<usize>| k.is_none_or(|k| kept.get(k).is_none_or(Option::is_some));
        if a[i].key == " " && !(neighbour(i.checked_sub(1)) && neighbour(Some(i + 1))) {
            *slot = None;
        }
    }
    out
}

/// The equal pairs of Myers over the keys of units `ia` of `a` and `ib`
/// of `b`, as unit indices.
fn align_units(a: &[Unit], ia: &[usize], b: &[Unit], ib: &[usize]) -> Vec<(usize, usize)> {
    let a_refs: Vec<&str> = ia.iter().map(|&i| a[i].key.as_str()).collect();
    let b_refs: Vec<&str> = ib.iter().map(|&j| b[j].key.as_str()).collect();
    let mut pairs = Vec::new();
    for (j, link) in align_lines(&a_refs, &b_refs).into_iter().enumerate() {
        if let LineLink::Equal(i) = link {
            pairs.push((ia[i], ib[j]));
        }
    }
    pairs
}

/// A stretch one side changed: search units `s` replaced by that side's
/// units `to` (either may be empty).
struct Hunk {
    s: std::ops::Range<usize>,
    to: std::ops::Range<usize>,
}

/// The hunks of an alignment: the stretches between equal pairs.
fn hunks(equal: &[Option<usize>], other_len: usize) -> Vec<Hunk> {
    let mut out = Vec::new();
    let (mut s0, mut o0) = (0, 0);
    let pairs = equal
        .iter()
        .enumerate()
        .filter_map(|(i, o)| Some((i, (*o)?)))
        .chain([(equal.len(), other_len)]);
    for (i, o) in pairs {
        if i > s0 || o > o0 {
            out.push(Hunk {
                s: s0..i,
                to: o0..o,
            });
        }
        (s0, o0) = (i + 1, o + 1);
    }
    out
}

/// The keys of `units`, one after another.
fn keys_of(units: &[Unit]) -> String {
    units.iter().map(|u| u.key.as_str()).collect()
}

/// The bytes of units `range` of `line` (empty for an empty range).
fn text_of<'a>(line: &'a str, units: &[Unit], range: &std::ops::Range<usize>) -> &'a str {
    match (
        units.get(range.start),
        range.end.checked_sub(1).and_then(|e| units.get(e)),
    ) {
        (Some(a), Some(b)) if !range.is_empty() => &line[a.start..b.end],
        _ => "",
    }
}

/// The replacement line `r` with the model's change to its search line
/// `s` carried over to the file line `f` that `s` stands for (a three-way
/// merge over words): every stretch the model left as the search had it
/// is written as the file has it, every stretch the model changed as the
/// model wrote it. The line from the first character after its lead;
/// `None` when a change of the model's touches text where the search and
/// the file differ (the model's change and its slip cannot be told apart),
/// or a line is too long to align.
pub(crate) fn transplant(s: &str, f: &str, r: &str) -> Option<String> {
    let ((su, s_end), (fu, f_end), (ru, r_end)) = (units(s), units(f), units(r));
    if su.len().max(fu.len()).max(ru.len()) > MAX_ALIGNED_CHARS {
        return None;
    }
    let (to_f, to_r) = (equal_units(&su, &fu), equal_units(&su, &ru));
    let (f_hunks, r_hunks) = (hunks(&to_f, fu.len()), hunks(&to_r, ru.len()));
    let (mut a, mut b, mut p) = (0, 0, 0);
    let mut out = String::with_capacity(f.len() + r.len().saturating_sub(s.len()));
    loop {
        let (next_f, next_r) = (f_hunks.get(a), r_hunks.get(b));
        let (here_f, here_r) = (
            next_f.filter(|h| h.s.start == p),
            next_r.filter(|h| h.s.start == p),
        );
        match (here_f, here_r) {
            // Both inserted the same text here: once, as the file has it.
            (Some(x), Some(y)) if x.s.is_empty() && y.s.is_empty() => {
                if keys_of(&fu[x.to.clone()]) != keys_of(&ru[y.to.clone()]) {
                    return None;
                }
                out.push_str(text_of(f, &fu, &x.to));
                (a, b) = (a + 1, b + 1);
            }
            (Some(x), Some(y)) if x.s.is_empty() == y.s.is_empty() => return None,
            // An insertion goes before the other side's change.
            (Some(x), _) if x.s.is_empty() => {
                out.push_str(text_of(f, &fu, &x.to));
                a += 1;
            }
            (_, Some(y)) if y.s.is_empty() => {
                out.push_str(text_of(r, &ru, &y.to));
                b += 1;
            }
            (Some(x), None) => {
                // The model may not change anything inside the file's hunk.
                if next_r.is_some_and(|y| y.s.start < x.s.end) {
                    return None;
                }
                out.push_str(text_of(f, &fu, &x.to));
                p = x.s.end;
                a += 1;
            }
            (None, Some(y)) => {
                if next_f.is_some_and(|x| x.s.start < y.s.end) {
                    return None;
                }
                out.push_str(text_of(r, &ru, &y.to));
                p = y.s.end;
                b += 1;
                // The file inserts right after what the model wrote here
                // the text the model's change ends with (a `,` both added
                // after `true`): once.
                let repeated = f_hunks.get(a).filter(|x| x.s == (p..p)).is_some_and(|x| {
                    keys_of(&ru[y.to.clone()]).ends_with(&keys_of(&fu[x.to.clone()]))
                });
                a += usize::from(repeated);
            }
            (Some(_), Some(_)) => return None,
            (None, None) => {
                let Some(unit) = su.get(p) else {
                    break;
                };
                // No hunk covers the unit: both sides kept it.
                let (fi, ri) = (to_f[p]?, to_r[p]?);
                out.push_str(kept_unit(
                    &s[unit.start..unit.end],
                    &f[fu[fi].start..fu[fi].end],
                    &r[ru[ri].start..ru[ri].end],
                ));
                p += 1;
            }
        }
    }
    // Trailing whitespace the model left as the search had it is the
    // file's (a hard break survives); whitespace it changed is its own.
    out.push_str(kept_unit(&s[s_end..], &f[f_end..], &r[r_end..]));
    Some(out)
}

/// A unit both sides kept: the file's bytes, unless the model wrote it
/// differently than its search did (then that is its own change).
fn kept_unit<'a>(in_search: &str, in_file: &'a str, in_replacement: &'a str) -> &'a str {
    if in_replacement == in_search {
        in_file
    } else {
        in_replacement
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

    /// (search line, file line, replacement line, written).
    const TRANSPLANTS: &[(&str, &str, &str, Option<&str>)] = &[
        // The model's slips (half-width punctuation, no CJK–Latin space,
        // an escape, `*` for `-`) stay out of the text it did not change.
        (
            "参见ITips, 详见下文.",
            "参见 ITips，详见下文。",
            "参见EDITKIT, 详见下文.",
            Some("参见 EDITKIT，详见下文。"),
        ),
        (
            "* the `memmem` sub-module",
            "- the `memmem` sub-module",
            "* the `memmem` sub-crate",
            Some("- the `memmem` sub-crate"),
        ),
        (
            "version 10\\-20, and 20+",
            "version 10-20, and 20+",
            "version 10\\-20, and 20+ NEW",
            Some("version 10-20, and 20+ NEW"),
        ),
        // A hard break the search wrote as a backslash: the model's words
        // go before the file's break.
        (
            "Usage :\\",
            "Usage :",
            "Usage : more\\",
            Some("Usage : more"),
        ),
        // Straight quotes the model typed for curly ones.
        (
            "say \"hi\" now",
            "say “hi” now",
            "say \"hi\" later",
            Some("say “hi” later"),
        ),
        // The file's trailing hard break survives a changed line.
        ("first", "first  ", "first, edited", Some("first, edited  ")),
        // The model changed what it also mistyped: its change and its slip
        // cannot be told apart.
        ("colour: red", "color: red", "hue: red", None),
        ("a,b", "a，b", "a;b", None),
    ];

    #[test]
    fn transplants_write_the_models_change_in_the_files_form() {
        for &(s, f, r, want) in TRANSPLANTS {
            assert_eq!(
                transplant(s, f, r).as_deref(),
                want,
                "{s:?} / {f:?} / {r:?}"
            );
        }
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
