//! Placing one file's hunks in its text (see the module docs of `patch`
//! for the rules). Positions are byte offsets into the text without its
//! BOM; lines are 1-based.

use super::messages;
use super::types::Hunk;
use crate::error::{Error, ErrorCode, LineRange};
use crate::lang::Lang;
use crate::matcher::{find_match, replace_text, Match, MatchMode, MatchOptions, Strategy};
use crate::text::{detect_line_ending, lines_with_endings};

/// Where a hunk goes: `text` replaces `start..end` of the file's text.
#[derive(Clone, Debug)]
pub(super) struct Placement {
    pub start: usize,
    pub end: usize,
    pub text: String,
    pub strategy: Option<Strategy>,
    /// First and last line replaced (`last = first - 1` for an insertion).
    pub first: u32,
    pub last: u32,
}

/// The file's lines: where each starts and where its text (without the
/// line break) ends.
struct FileLines<'a> {
    body: &'a str,
    starts: Vec<usize>,
    text_ends: Vec<usize>,
    /// The file's dominant line ending, found once for all its hunks.
    ending: &'static str,
}

impl<'a> FileLines<'a> {
    fn new(body: &'a str) -> Self {
        let (mut starts, mut text_ends) = (Vec::new(), Vec::new());
        for l in lines_with_endings(body) {
            starts.push(l.start);
            text_ends.push(l.start + l.text.len());
        }
        FileLines {
            body,
            starts,
            text_ends,
            ending: detect_line_ending(body).as_str(),
        }
    }

    fn count(&self) -> u32 {
        u32::try_from(self.starts.len()).unwrap_or(u32::MAX)
    }

    fn text(&self, line: u32) -> &'a str {
        let i = line as usize - 1;
        &self.body[self.starts[i]..self.text_ends[i]]
    }
}

/// Places every hunk of one file, in order: each result is a placement or
/// the hunk's refusal. A refused hunk does not move the point after
/// which the next one is searched.
pub(super) fn place_hunks(
    body: &str,
    hunks: &[Hunk],
    mode: MatchMode,
    fuzz: u32,
    lang: Lang,
) -> Vec<Result<Placement, Error>> {
    let file = FileLines::new(body);
    let mut from_line = 1u32;
    // How far the file has moved from the diff's line numbers, as the
    // hunks placed so far show (what `patch` calls the offset): a later
    // hunk's `@@ -l` is read as `l + offset`, so a hunk whose lines occur
    // at several places goes to the one the earlier hunks lead to.
    let mut offset = 0i64;
    let mut out = Vec::with_capacity(hunks.len());
    for hunk in hunks {
        let shifted;
        let hunk = match hunk.line_hint {
            Some(l) if offset != 0 => {
                let mut h = hunk.clone();
                h.line_hint = u32::try_from((i64::from(l) + offset).max(1)).ok();
                shifted = h;
                &shifted
            }
            _ => hunk,
        };
        let placed = place(&file, hunk, from_line, (mode, fuzz), lang);
        if let Ok(p) = &placed {
            // A codex chunk with no old lines goes at the end whatever
            // came before it: it does not move where the next one starts.
            let appended = hunk.appends && hunk.old_lines.is_empty() && hunk.anchors.is_empty();
            if !appended {
                from_line = p.last + 1;
            }
            if let Some(l) = hunk.line_hint {
                // An insertion's `@@ -l,0` names the line it follows.
                let expected = if hunk.old_lines.is_empty() {
                    l + 1
                } else {
                    l.max(1)
                };
                offset += i64::from(p.first) - i64::from(expected);
            }
        }
        out.push(placed);
    }
    out
}

/// Whether a file line is the anchor line: equal under the matcher's fold
/// key (indentation, spacing, typographic characters), or starting with
/// the anchor where a word ends (`@@ def f` for `def f(x):`).
/// `anchor_key` is the anchor's fold key.
fn is_anchor(line: &str, anchor_key: &str) -> bool {
    let (l, a) = (crate::matcher::fold_key(line), anchor_key);
    if a.is_empty() {
        return false;
    }
    l == a
        || l.strip_prefix(a).is_some_and(|rest| {
            let next = rest.chars().next();
            let last = a.chars().last();
            next.is_some_and(|c| !(c.is_alphanumeric() || c == '_'))
                || last.is_some_and(|c| !(c.is_alphanumeric() || c == '_'))
        })
}

/// A match as whole lines: `(first, last, span_start, span_end)`, or
/// `None` when it starts or ends inside a line (other than in its
/// indentation or trailing spaces). The match's byte offset is the one
/// the matcher found it at, never rebuilt from its line and column, so a
/// text the matcher reads differently (a second BOM) cannot put it
/// elsewhere.
fn whole_lines(file: &FileLines<'_>, m: &Match) -> Option<(u32, u32, usize, usize)> {
    let (first, last) = (m.start_line, m.end_line);
    if first == 0 || last < first || last > file.count() {
        return None;
    }
    let start = m.byte_start;
    let end = start + m.text.len();
    // Only indentation before the match and trailing spaces after it: a
    // match that starts inside a CRLF (after its `\r`) is not at a line
    // start.
    let blank = |t: &str| t.bytes().all(|b| b == b' ' || b == b'\t');
    let line_start = file.starts[first as usize - 1];
    if !blank(file.body.get(line_start..start)?) {
        return None;
    }
    let span_end = if m.text.ends_with('\n') {
        end
    } else {
        let text_end = file.text_ends[last as usize - 1];
        if !blank(file.body.get(end..text_end)?) {
            return None;
        }
        text_end
    };
    Some((first, last, line_start, span_end))
}

/// The hunk's lines end the file: nothing but a line break follows.
pub(super) fn at_end(body: &str, span_end: usize) -> bool {
    matches!(body.get(span_end..), Some("" | "\n" | "\r\n"))
}

/// The line the hunk's `@@` anchors lead to (each found after the one
/// before, the first from `from_line`), or the refusal naming the anchor
/// that is missing.
fn resolve_anchors(
    file: &FileLines<'_>,
    hunk: &Hunk,
    from_line: u32,
    lang: Lang,
) -> Result<Option<u32>, Error> {
    let mut at = None;
    let mut search_from = from_line;
    for anchor in &hunk.anchors {
        let key = crate::matcher::fold_key(anchor);
        let found = (search_from..=file.count()).find(|&l| is_anchor(file.text(l), &key));
        match found {
            Some(l) => {
                at = Some(l);
                search_from = l + 1;
            }
            None => {
                let earlier =
                    (1..search_from.min(file.count() + 1)).find(|&l| is_anchor(file.text(l), &key));
                return Err(Error::new(
                    ErrorCode::AnchorNotFound,
                    messages::anchor_not_found(lang, anchor, search_from, earlier),
                )
                .with_line(hunk.line)
                .with_suggestions(messages::hunk_advice(lang)));
            }
        }
    }
    Ok(at)
}

/// Trailing empty lines of `lines`.
fn trailing_blanks(lines: &[String]) -> usize {
    lines.iter().rev().take_while(|l| l.is_empty()).count()
}

/// Places one hunk. Empty lines that end its old lines are lines of the
/// file (a blank line to keep or remove). When no place has them (none at
/// all, not several) and the hunk keeps them unchanged, they may also
/// stand for the end of the file, codex's reading of a pattern split on
/// `\n`: the hunk is placed again without them, at the end.
fn place(
    file: &FileLines<'_>,
    hunk: &Hunk,
    from_line: u32,
    (mode, fuzz): (MatchMode, u32),
    lang: Lang,
) -> Result<Placement, Error> {
    let placed = place_as_given(file, hunk, from_line, mode, lang);
    match placed {
        Err(e) if fuzz > 0 && e.code == ErrorCode::NotFound => {
            with_fuzz(file, hunk, from_line, fuzz, lang).unwrap_or(Err(e))
        }
        other => other,
    }
}

/// A unified hunk whose lines are nowhere as they are, placed with its
/// context lines differing as far as `fuzz` allows (`fuzz.rs`); `None`
/// when the hunk has no context to fuzz (then its own refusal stands).
fn with_fuzz(
    file: &FileLines<'_>,
    hunk: &Hunk,
    from_line: u32,
    fuzz: u32,
    lang: Lang,
) -> Option<Result<Placement, Error>> {
    let usable = hunk.kinds.contains(&' ')
        && hunk.kinds.len() == hunk.old_lines.len() + hunk.new_lines.len() - context_count(hunk)
        && !hunk.old_without_final_newline
        && !hunk.new_without_final_newline
        && !hunk.context_free;
    if !usable {
        return None;
    }
    let lines: Vec<&str> = (1..=file.count()).map(|l| file.text(l)).collect();
    let (mut old, mut new) = (hunk.old_lines.iter(), hunk.new_lines.iter());
    let body: Vec<(char, &str)> = hunk
        .kinds
        .iter()
        .map(|&k| {
            let text = match k {
                '+' => new.next(),
                '-' => old.next(),
                _ => {
                    new.next();
                    old.next()
                }
            };
            (k, text.map_or("", String::as_str))
        })
        .collect();
    let from = from_line.saturating_sub(1) as usize;
    let fuzz = usize::try_from(fuzz).unwrap_or(usize::MAX);
    Some(match super::fuzz::place(&lines, &body, fuzz, from) {
        Ok(fitted) => Ok(fuzzed_placement(file, &fitted)),
        Err(super::fuzz::NoFit::Nowhere) => return None,
        Err(super::fuzz::NoFit::Ambiguous(at)) => {
            let lines: Vec<u32> = at.iter().map(|&i| line_no(i)).collect();
            let mut e = Error::new(ErrorCode::Ambiguous, messages::fuzz_ambiguous(lang, &lines))
                .with_suggestions(vec![messages::fuzz_advice(lang)]);
            e.details.candidates = lines.iter().map(|&l| LineRange::new(l, l)).collect();
            Err(e)
        }
    })
}

/// Context lines of a hunk (on both its old and new side).
fn context_count(hunk: &Hunk) -> usize {
    hunk.kinds.iter().filter(|&&k| k == ' ').count()
}

fn line_no(i: usize) -> u32 {
    u32::try_from(i + 1).unwrap_or(u32::MAX)
}

/// The placement a fuzzed hunk makes: file lines as they are (with their
/// own endings), added lines with the file's; no final line break where
/// the file had none.
fn fuzzed_placement(file: &FileLines<'_>, fitted: &super::fuzz::Fuzzed) -> Placement {
    use super::fuzz::Written;
    let body = file.body;
    let start = file.starts[fitted.first];
    let end = file
        .starts
        .get(fitted.last + 1)
        .copied()
        .unwrap_or(body.len());
    let mut text = String::new();
    for w in &fitted.lines {
        match w {
            Written::File(j) => {
                let raw_end = file.starts.get(j + 1).copied().unwrap_or(body.len());
                let raw = &body[file.starts[*j]..raw_end];
                text.push_str(raw);
                if raw.len() == file.text_ends[*j] - file.starts[*j] {
                    text.push_str(file.ending);
                }
            }
            Written::Added(t) => {
                text.push_str(t);
                text.push_str(file.ending);
            }
        }
    }
    if end == body.len() && !body.ends_with('\n') {
        let trimmed = text.trim_end_matches(['\r', '\n']).len();
        text.truncate(trimmed);
    }
    Placement {
        start,
        end,
        text,
        strategy: Some(Strategy::ContextFuzz),
        first: line_no(fitted.first),
        last: line_no(fitted.last),
    }
}

/// [`place`] without fuzz: the hunk's lines as they are (safe or exact
/// mode), or at the end of the file.
fn place_as_given(
    file: &FileLines<'_>,
    hunk: &Hunk,
    from_line: u32,
    mode: MatchMode,
    lang: Lang,
) -> Result<Placement, Error> {
    let blanks = trailing_blanks(&hunk.old_lines);
    let first_try = place_lines(file, hunk, from_line, mode, lang);
    // Only when the lines are nowhere: a hunk that matched several places
    // stays ambiguous (its end-of-file reading would pick one of them).
    let nowhere = first_try
        .as_ref()
        .is_err_and(|e| e.code == ErrorCode::NotFound);
    if !nowhere || blanks == 0 || blanks == hunk.old_lines.len() {
        return first_try;
    }
    if trailing_blanks(&hunk.new_lines) < blanks || hunk.new_lines.len() == blanks {
        return first_try;
    }
    let mut at_end = hunk.clone();
    at_end.old_lines.truncate(hunk.old_lines.len() - blanks);
    at_end.new_lines.truncate(hunk.new_lines.len() - blanks);
    at_end.at_end = true;
    place_lines(file, &at_end, from_line, mode, lang).or(first_try)
}

fn place_lines(
    file: &FileLines<'_>,
    hunk: &Hunk,
    from_line: u32,
    mode: MatchMode,
    lang: Lang,
) -> Result<Placement, Error> {
    let body = file.body;
    if let (true, Some(line)) = (hunk.context_free, hunk.line_hint) {
        return at_its_line(file, hunk, line, from_line, mode, lang);
    }
    if hunk.old_lines.is_empty() {
        return insertion(file, hunk, lang);
    }
    let anchor_line = resolve_anchors(file, hunk, from_line, lang)?;
    let (search, replace) = search_and_replace(hunk, file.ending);
    let options = MatchOptions {
        mode,
        lang,
        ..MatchOptions::default()
    };
    // Blank lines are context too (a line number may choose among them);
    // only a search with nothing in it has no place at all.
    let found = match find_match(body, &search, &options) {
        Err(e) if e.code == ErrorCode::EmptySearch => return Err(without_context(hunk, lang)),
        other => other?,
    };
    let located = found.found || found.code == Some(ErrorCode::Ambiguous);
    if !located {
        return Err(not_found(
            body,
            &search,
            &replace,
            &options,
            found.code,
            found.message,
        ));
    }
    let strategy = found.strategy;
    let floor = anchor_line.unwrap_or(0).max(from_line);
    let sorted = sort_candidates(file, &found.matches, floor, hunk.at_end);
    let (first, last, start, end) = choose(sorted, hunk, from_line, anchor_line, lang)?;
    let (start, end, text) = replacement(
        file,
        (first, last, start, end),
        hunk,
        &search,
        &replace,
        &options,
    )?;
    Ok(Placement {
        start,
        end,
        text,
        strategy,
        first,
        last,
    })
}

/// The hunk's old and new lines as one search and one replacement text.
/// An empty last old line is a line: the search ends with its line break,
/// and so does the replacement (unless the hunk removes all). The lines are
/// joined with the file's own line ending, so a search that starts or ends
/// with an empty line is found whole by the exact strategy rather than
/// inside a CRLF.
fn search_and_replace(hunk: &Hunk, ending: &str) -> (String, String) {
    let ends_blank = hunk.old_lines.last().is_some_and(String::is_empty);
    let mut search = hunk.old_lines.join(ending);
    let mut replace = hunk.new_lines.join(ending);
    if ends_blank {
        search.push_str(ending);
        if !hunk.new_lines.is_empty() {
            replace.push_str(ending);
        }
    }
    (search, replace)
}

/// A candidate place as whole lines: `(first, last, span_start, span_end)`.
type Span = (u32, u32, usize, usize);

/// The candidates sorted by why they count or not: kept (after `floor`,
/// and at the end when the hunk must be); inside longer lines (a count);
/// before `floor`; not at the end.
struct Sorted {
    kept: Vec<Span>,
    inside: usize,
    before: Vec<u32>,
    not_end: Vec<u32>,
}

fn sort_candidates(file: &FileLines<'_>, matches: &[Match], floor: u32, must_end: bool) -> Sorted {
    let mut sorted = Sorted {
        kept: Vec::new(),
        inside: 0,
        before: Vec::new(),
        not_end: Vec::new(),
    };
    for m in matches {
        let Some(c) = whole_lines(file, m) else {
            sorted.inside += 1;
            continue;
        };
        if c.0 < floor {
            sorted.before.push(c.0);
        } else if must_end && !at_end(file.body, c.3) {
            sorted.not_end.push(c.0);
        } else {
            sorted.kept.push(c);
        }
    }
    sorted
}

/// The one place of the hunk, or its refusal: why nothing counts, or
/// every candidate when several do and the line hint does not choose.
fn choose(
    sorted: Sorted,
    hunk: &Hunk,
    from_line: u32,
    anchor_line: Option<u32>,
    lang: Lang,
) -> Result<Span, Error> {
    let refuse = |message: String| {
        Error::new(ErrorCode::NotFound, message)
            .with_line(hunk.line)
            .with_suggestions(messages::hunk_advice(lang))
    };
    let kept = sorted.kept;
    match kept.len() {
        0 if !sorted.before.is_empty() => Err(refuse(messages::found_before(
            lang,
            &sorted.before,
            from_line,
            anchor_line.filter(|&a| a >= from_line),
        ))),
        0 if !sorted.not_end.is_empty() => Err(refuse(messages::not_at_end(lang, &sorted.not_end))),
        0 => Err(refuse(messages::inside_lines(lang, sorted.inside))),
        1 => Ok(kept[0]),
        _ => {
            let firsts: Vec<u32> = kept.iter().map(|c| c.0).collect();
            // Overlapping places too (repeated lines read at two offsets):
            // the line number says which offset the diff was made at.
            let hint = hunk.line_hint;
            if let Some(i) = hint.and_then(|h| crate::matcher::nearest_to_hint(&firsts, h)) {
                return Ok(kept[i]);
            }
            let places: Vec<LineRange> = kept.iter().map(|c| LineRange::new(c.0, c.1)).collect();
            let mut e = Error::new(
                ErrorCode::Ambiguous,
                messages::ambiguous(lang, &places, hint, !hunk.anchors.is_empty()),
            )
            .with_line(hunk.line)
            .with_suggestions(messages::hunk_advice(lang));
            e.details.candidates = places;
            Err(e)
        }
    }
}

/// What replaces the chosen lines: nothing (with one line break) when the
/// hunk only removes, the lines unchanged when it changes nothing, else
/// the replacement re-expressed in the file's formatting by
/// `replace_text` on exactly those lines.
fn replacement(
    file: &FileLines<'_>,
    (first, last, mut start, mut end): Span,
    hunk: &Hunk,
    search: &str,
    replace: &str,
    options: &MatchOptions,
) -> Result<(usize, usize, String), Error> {
    let body = file.body;
    if hunk.new_lines.is_empty() {
        // The whole lines go, with one line break: the one after them, or
        // (at the end of a file without a final newline) the one before.
        // A unified hunk whose old side ends without a newline and whose
        // new side does not: the line before keeps its break, which
        // becomes the file's final newline.
        let keeps_break = hunk.old_without_final_newline && !hunk.new_without_final_newline;
        if !body[..end].ends_with('\n') {
            if body[end..].starts_with("\r\n") {
                end += 2;
            } else if body[end..].starts_with('\n') {
                end += 1;
            } else if start > 0 && !keeps_break {
                start -= if body[..start].ends_with("\r\n") {
                    2
                } else {
                    1
                };
            }
        }
        return Ok((start, end, String::new()));
    }
    if search == replace {
        return Ok((start, end, body[start..end].to_string()));
    }
    match replace_text(&body[start..end], search, replace, options) {
        // Lines a hunk adds to a one-line span take the line's ending: the
        // span has none to show, so every break in the result is new.
        Ok(r) if !body[start..end].contains('\n') && line_ending_at(file, end) == "\r\n" => {
            let lf = r.content.replace("\r\n", "\n");
            Ok((start, end, lf.replace('\n', "\r\n")))
        }
        Ok(r) => Ok((start, end, r.content)),
        Err(e) => {
            let message = messages::placed_but(options.lang, first, last, &e.message);
            let mut wrapped = Error::new(e.code, message).with_line(hunk.line);
            wrapped.details.candidates = vec![LineRange::new(first, last)];
            Err(wrapped)
        }
    }
}

/// The line ending of the line that ends at `end`: its own, or (the last
/// line, without one) the file's dominant ending.
fn line_ending_at(file: &FileLines<'_>, end: usize) -> &'static str {
    match file.body.get(end..) {
        Some(rest) if rest.starts_with("\r\n") => "\r\n",
        Some(rest) if rest.starts_with('\n') => "\n",
        _ => file.ending,
    }
}

/// The refusal of a hunk whose lines are nowhere: the matcher's own
/// (`NOT_FOUND` with the closest region, or `ALREADY_APPLIED`).
fn not_found(
    body: &str,
    search: &str,
    replace: &str,
    options: &MatchOptions,
    code: Option<ErrorCode>,
    message: Option<String>,
) -> Error {
    if search != replace {
        if let Err(e) = replace_text(body, search, replace, options) {
            return e;
        }
    }
    Error::new(
        code.unwrap_or(ErrorCode::NotFound),
        message.unwrap_or_default(),
    )
}

/// A hunk with only added lines: at the end of the file for a codex hunk
/// without anchors, or as the whole text of an empty file. Anywhere else
/// nothing in the hunk says where it goes.
fn insertion(file: &FileLines<'_>, hunk: &Hunk, lang: Lang) -> Result<Placement, Error> {
    let body = file.body;
    let codex_append = hunk.appends && hunk.anchors.is_empty();
    if !(codex_append || body.is_empty()) || hunk.new_lines.is_empty() {
        return Err(without_context(hunk, lang));
    }
    Ok(insert_after(file, hunk, file.count()))
}

/// A unified hunk without context lines (`diff -U0`), at its line number
/// `line` (the offset applied): its old lines must be the file's lines
/// there, exactly (line endings aside); an insertion (`@@ -l,0`) goes after
/// line `l`. Anywhere else it is refused: with no context, a match
/// elsewhere would be a guess.
fn at_its_line(
    file: &FileLines<'_>,
    hunk: &Hunk,
    line: u32,
    from_line: u32,
    mode: MatchMode,
    lang: Lang,
) -> Result<Placement, Error> {
    let count = file.count();
    let refuse = |found: Option<&str>| {
        Error::new(
            ErrorCode::NotFound,
            messages::not_at_its_line(lang, line, hunk.old_lines.len(), found),
        )
        .with_line(hunk.line)
        .with_suggestions(messages::hunk_advice(lang))
    };
    if hunk.old_lines.is_empty() {
        // After line `line` (0: before the first).
        if line > count || line + 1 < from_line {
            return Err(refuse(None));
        }
        return Ok(insert_after(file, hunk, line));
    }
    let n = u32::try_from(hunk.old_lines.len()).unwrap_or(u32::MAX);
    let last = line.saturating_add(n - 1);
    if line < from_line.max(1) || last > count {
        return Err(refuse(None));
    }
    let same = (line..=last)
        .zip(&hunk.old_lines)
        .all(|(l, old)| file.text(l) == old.as_str());
    if !same {
        return Err(refuse(Some(file.text(line))));
    }
    let (search, replace) = search_and_replace(hunk, file.ending);
    // An empty last old line is a whole line, its break included.
    let end = if hunk.old_lines.last().is_some_and(String::is_empty) {
        file.starts
            .get(last as usize)
            .copied()
            .unwrap_or(file.body.len())
    } else {
        file.text_ends[last as usize - 1]
    };
    let span = (line, last, file.starts[line as usize - 1], end);
    let options = MatchOptions {
        mode,
        lang,
        ..MatchOptions::default()
    };
    let (start, end, text) = replacement(file, span, hunk, &search, &replace, &options)?;
    Ok(Placement {
        start,
        end,
        text,
        strategy: Some(Strategy::Exact),
        first: line,
        last,
    })
}

/// A hunk's new lines after line `line` of the file (0: before the first).
fn insert_after(file: &FileLines<'_>, hunk: &Hunk, line: u32) -> Placement {
    let ending = file.ending;
    let body = file.body;
    let (at, lead) = match file.starts.get(line as usize) {
        Some(&start) => (start, false),
        // After the last line: it needs a break first when it has none.
        None => (body.len(), !body.is_empty() && !body.ends_with('\n')),
    };
    let mut text = String::new();
    if lead {
        text.push_str(ending);
    }
    let n = hunk.new_lines.len();
    for (i, l) in hunk.new_lines.iter().enumerate() {
        text.push_str(l);
        if i + 1 < n || !(lead || (at == body.len() && hunk.new_without_final_newline)) {
            text.push_str(ending);
        }
    }
    Placement {
        start: at,
        end: at,
        text,
        strategy: None,
        first: line + 1,
        last: line,
    }
}

/// `HUNK_WITHOUT_CONTEXT`: nothing in the hunk says where it goes.
fn without_context(hunk: &Hunk, lang: Lang) -> Error {
    let message = if hunk.old_lines.is_empty() {
        messages::without_context(lang, !hunk.anchors.is_empty())
    } else {
        messages::blank_context(lang)
    };
    Error::new(ErrorCode::HunkWithoutContext, message)
        .with_line(hunk.line)
        .with_suggestions(messages::hunk_advice(lang))
}
