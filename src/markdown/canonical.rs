//! The text of a block up to the formatting SiYuan's Lute applies when it
//! stores it (SPEC §3.7 rules 10 and 14).
//!
//! Whether a write landed, whether a block still reads as before, whether
//! a row says what the tree says: each is a comparison of what editkit
//! sent with what the kernel gives back, and the kernel gives it back
//! formatted by Lute. So the comparison forgives exactly what Lute changes
//! and nothing else: every letter, digit, punctuation mark and symbol
//! counts, and so does whether two words are separated by space. One `!`
//! added is a change; `a + b` read back as `a - b` is a change.
//!
//! What Lute (with the kernel's settings, `util.NewLute()`) rewrites, and
//! [`canonical`] therefore writes one way (`tests/data/lute-format-cases.json`
//! holds each against vditor's Lute; a Node test keeps that table true):
//!
//! - line structure: blank lines, indentation, trailing spaces, trailing
//!   `\` hard breaks, runs of spaces (collapsed to one), `>` and `> >`
//!   prefixes, lines holding only `>`;
//! - block markers: list markers (`*`, `+` → `-`; ordered numbers and `)`
//!   → `1.`), task markers (`[x]` → `[X]`), thematic breaks (`***`,
//!   `___`, `- - -` → `---`), closing `#`s of headings, fences (`~~~`,
//!   longer fences → three backticks), super block lines (`{{{row`,
//!   `}}}`), the icon Lute puts into a callout's title, table padding
//!   and delimiter rows;
//! - inline: `_`/`__` emphasis → `*`/`**`, HTML formatting tags
//!   (`<strong>`, `<b>`, `<em>`, `<i>`, `<del>`, `<s>`, `<mark>`, `<sup>`,
//!   `<sub>`) → their markdown, `<br>` → a line break, character
//!   references → characters, no-break spaces → spaces, zero-width spaces
//!   (the kernel puts them beside inline code and `<kbd>`), autolinks →
//!   links, the anchor text of dynamic block references `((id 'text'))`
//!   (the kernel rewrites it whenever the referenced block changes).
//!
//! Inside fenced code the lines are compared as they are (trailing space
//! aside); inside math blocks, trimmed (Lute trims them).

/// `markdown` with every formatting Lute applies on a write written one
/// way. Two texts Lute would store alike map to the same string; texts
/// that differ in any visible character (or in whether words are spaced)
/// do not.
pub fn canonical(markdown: &str) -> String {
    let text = inline_forms(markdown);
    let mut out: Vec<String> = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    let mut math = false;
    let mut table = false;
    let lines: Vec<&str> = text.split('\n').collect();
    for (n, raw) in lines.iter().enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if let Some((ch, len)) = fence {
            let (prefix, rest) = container_prefix(line.trim_start(), false);
            if closes_fence(rest, ch, len) {
                out.push(format!("{prefix}```"));
                fence = None;
            } else {
                out.push(line.trim_end().to_string());
            }
            continue;
        }
        if math {
            let (prefix, rest) = container_prefix(line.trim_start(), false);
            let rest = rest.trim();
            if rest == "$$" {
                out.push(format!("{prefix}$$"));
                math = false;
            } else if !rest.is_empty() {
                out.push(rest.to_string());
            }
            continue;
        }
        let (prefix, rest) = container_prefix(line.trim_start(), true);
        let rest = rest.trim();
        if rest.is_empty() || is_super_block_line(rest) {
            table = false;
            // A line of container markers alone is a blank line inside
            // the container (Lute writes `>` lines, or drops them).
            if !prefix.is_empty() && prefix.chars().any(|c| c != '>') {
                out.push(prefix.trim_end().to_string());
            }
            continue;
        }
        if let Some((ch, len, info)) = opens_fence(rest) {
            fence = Some((ch, len));
            out.push(format!("{prefix}```{}", info.trim()));
            continue;
        }
        if rest == "$$" {
            math = true;
            out.push(format!("{prefix}$$"));
            continue;
        }
        if is_thematic_break(rest) {
            out.push(format!("{prefix}---"));
            continue;
        }
        let next = lines.get(n + 1).map(|l| container_prefix(l.trim(), true).1);
        if table || (rest.contains('|') && next.is_some_and(is_delimiter_row)) {
            table = true;
            out.push(format!("{prefix}{}", table_row(rest)));
            continue;
        }
        let body = heading_without_closing(rest);
        let body = callout_title(&prefix, body);
        out.push(format!("{prefix}{}", inline_body(&body)));
    }
    out.join("\n")
}

/// Whether two markdown texts read the same once Lute has stored them.
pub fn same_markdown(a: &str, b: &str) -> bool {
    a == b || canonical(a) == canonical(b)
}

/// The whole-text rewrites that do not depend on the line: `<br>`,
/// character references, no-break and zero-width spaces, HTML formatting
/// tags, autolinks, dynamic anchor texts.
fn inline_forms(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len());
    let mut rest = markdown;
    while let Some(c) = rest.chars().next() {
        if c == '<' || c == '&' || c == '(' {
            if let Some((replacement, used)) = rewrite_at(rest) {
                out.push_str(&replacement);
                rest = &rest[used..];
                continue;
            }
        }
        match c {
            '\u{200b}' | '\u{feff}' => {}
            '\u{a0}' => out.push(' '),
            _ => out.push(c),
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// The rewrite of a token starting `rest` (at a `<`, `&` or `(`), and the
/// bytes it replaces.
fn rewrite_at(rest: &str) -> Option<(String, usize)> {
    if rest.starts_with('&') {
        return character_reference(rest);
    }
    if rest.starts_with("((") {
        return dynamic_anchor(rest);
    }
    let close = rest.find('>')?;
    let tag = &rest[..=close];
    let name = tag
        .trim_start_matches('<')
        .trim_end_matches('>')
        .trim_end_matches('/')
        .trim()
        .to_ascii_lowercase();
    let markdown = match name.as_str() {
        "br" => "\n",
        "strong" | "/strong" | "b" | "/b" => "**",
        "em" | "/em" | "i" | "/i" => "*",
        "del" | "/del" | "s" | "/s" | "strike" | "/strike" => "~~",
        "mark" | "/mark" => "==",
        "sup" | "/sup" => "^",
        "sub" | "/sub" => "~",
        _ => return autolink(tag).map(|link| (link, tag.len())),
    };
    Some((markdown.to_string(), tag.len()))
}

/// `<https://x>` → `[https://x](https://x)`, as Lute writes an autolink.
fn autolink(tag: &str) -> Option<String> {
    let url = tag.strip_prefix('<')?.strip_suffix('>')?;
    let scheme = url.split_once("://")?.0;
    let plain = !scheme.is_empty()
        && scheme.bytes().all(|b| b.is_ascii_alphanumeric())
        && !url.contains(char::is_whitespace);
    plain.then(|| format!("[{url}]({url})"))
}

/// `((id 'text'))` → `((id))`: the text of a dynamic anchor is the
/// referenced block's, rewritten by the kernel (`((id "text"))`, a static
/// anchor, is the author's and stays).
fn dynamic_anchor(rest: &str) -> Option<(String, usize)> {
    let inner = rest.get(2..24)?;
    if !crate::siyuan::is_block_id(inner) {
        return None;
    }
    let after = &rest[24..];
    if after.starts_with("))") {
        return Some((format!("(({inner}))"), 26));
    }
    let quoted = after.strip_prefix(" '")?;
    let end = quoted.find("'))")?;
    if quoted[..end].contains('\n') {
        return None;
    }
    Some((format!("(({inner}))"), 24 + 2 + end + 3))
}

/// A character reference (`&amp;`, `&#20013;`, `&#x4e2d;`) as its
/// character; `None` for one Lute leaves as it is.
fn character_reference(rest: &str) -> Option<(String, usize)> {
    let end = rest.get(..12).unwrap_or(rest).find(';')?;
    let name = &rest[1..end];
    let ch = if let Some(num) = name.strip_prefix('#') {
        let code = match num.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => num.parse::<u32>().ok()?,
        };
        char::from_u32(code)?
    } else {
        named_reference(name)?
    };
    let ch = if ch == '\u{a0}' { ' ' } else { ch };
    Some((ch.to_string(), end + 1))
}

fn named_reference(name: &str) -> Option<char> {
    Some(match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => '\u{a0}',
        "copy" => '©',
        "reg" => '®',
        "trade" => '™',
        "hellip" => '…',
        "mdash" => '—',
        "ndash" => '–',
        "lsquo" => '‘',
        "rsquo" => '’',
        "ldquo" => '“',
        "rdquo" => '”',
        "laquo" => '«',
        "raquo" => '»',
        "middot" => '·',
        "bull" => '•',
        "times" => '×',
        "divide" => '÷',
        "deg" => '°',
        "plusmn" => '±',
        "larr" => '←',
        "rarr" => '→',
        "uarr" => '↑',
        "darr" => '↓',
        "euro" => '€',
        "pound" => '£',
        "yen" => '¥',
        "cent" => '¢',
        "sect" => '§',
        "para" => '¶',
        _ => return None,
    })
}

/// The container markers at the start of a line (`>`, list markers, a
/// task marker), written one way, and the rest of the line. `lists`:
/// whether list markers count (inside a fence they are code).
fn container_prefix(line: &str, lists: bool) -> (String, &str) {
    let mut prefix = String::new();
    let mut rest = line;
    loop {
        if let Some(after) = rest.strip_prefix('>') {
            prefix.push('>');
            rest = after.trim_start();
            continue;
        }
        if !lists || is_thematic_break(rest) {
            break;
        }
        let Some((marker, after)) = list_marker_of(rest) else {
            break;
        };
        if !prefix.is_empty() && !prefix.ends_with(' ') {
            prefix.push(' ');
        }
        prefix.push_str(marker);
        prefix.push(' ');
        rest = after.trim_start();
        if let Some((task, after)) = task_marker_of(rest) {
            prefix.push_str(task);
            prefix.push(' ');
            rest = after.trim_start();
        }
    }
    if prefix.ends_with('>') && !rest.is_empty() {
        prefix.push(' ');
    }
    (prefix, rest)
}

/// `-`, `*`, `+` or `N.` / `N)` followed by a space or the line's end:
/// the marker as Lute writes it (`-`, `1.`) and the rest.
fn list_marker_of(line: &str) -> Option<(&'static str, &str)> {
    let bytes = line.as_bytes();
    let spaced = |at: usize| bytes.get(at).is_none_or(|b| *b == b' ' || *b == b'\t');
    match bytes.first()? {
        b'-' | b'*' | b'+' if spaced(1) => Some(("-", &line[1..])),
        b'0'..=b'9' => {
            let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
            let delimited = digits <= 9 && matches!(bytes.get(digits), Some(b'.' | b')'));
            (delimited && spaced(digits + 1)).then(|| ("1.", &line[digits + 1..]))
        }
        _ => None,
    }
}

fn task_marker_of(line: &str) -> Option<(&'static str, &str)> {
    let marker = line.get(..3)?;
    let spaced = line.as_bytes().get(3).is_none_or(|b| *b == b' ');
    if !spaced {
        return None;
    }
    match marker {
        "[ ]" => Some(("[ ]", &line[3..])),
        "[x]" | "[X]" => Some(("[X]", &line[3..])),
        _ => None,
    }
}

fn is_thematic_break(line: &str) -> bool {
    let mut kind = None;
    let mut count = 0;
    for b in line.bytes() {
        match b {
            b' ' | b'\t' => {}
            b'-' | b'*' | b'_' if kind.is_none_or(|k| k == b) => {
                kind = Some(b);
                count += 1;
            }
            _ => return false,
        }
    }
    count >= 3
}

fn is_super_block_line(line: &str) -> bool {
    matches!(line, "{{{row" | "{{{col" | "}}}")
}

/// A fence opening (three or more backticks or tildes): its character,
/// length and info string.
fn opens_fence(line: &str) -> Option<(char, usize, &str)> {
    let ch = line.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let len = line.chars().take_while(|c| *c == ch).count();
    let info = &line[len..];
    (len >= 3 && !(ch == '`' && info.contains('`'))).then_some((ch, len, info))
}

fn closes_fence(line: &str, ch: char, len: usize) -> bool {
    let t = line.trim();
    t.chars().count() >= len && t.chars().all(|c| c == ch)
}

/// A table delimiter row: cells of `-` with optional `:` at either end.
fn is_delimiter_row(line: &str) -> bool {
    line.contains('-')
        && line.contains(['|', ':'])
        && cells(line).iter().all(|c| {
            let c = c.trim().trim_start_matches(':').trim_end_matches(':');
            !c.is_empty() && c.bytes().all(|b| b == b'-')
        })
}

/// A table row's cells (escaped pipes stay in their cell), without the
/// empty cells of a leading and a trailing pipe.
fn cells(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = line.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'|' && (i == 0 || bytes[i - 1] != b'\\') {
            out.push(&line[start..i]);
            start = i + 1;
        }
    }
    out.push(&line[start..]);
    if out.first().is_some_and(|c| c.trim().is_empty()) {
        out.remove(0);
    }
    if out.len() > 1 && out.last().is_some_and(|c| c.trim().is_empty()) {
        out.pop();
    }
    out
}

fn table_row(line: &str) -> String {
    let delimiter = is_delimiter_row(line);
    let cells: Vec<String> = cells(line)
        .into_iter()
        .map(|c| {
            let c = c.trim();
            if delimiter {
                let left = if c.starts_with(':') { ":" } else { "" };
                let right = if c.len() > 1 && c.ends_with(':') {
                    ":"
                } else {
                    ""
                };
                format!("{left}---{right}")
            } else {
                inline_body(c)
            }
        })
        .collect();
    format!("| {} |", cells.join(" | "))
}

/// `## Title ##` → `## Title`.
fn heading_without_closing(line: &str) -> &str {
    let level = line.bytes().take_while(|b| *b == b'#').count();
    if level == 0 || level > 6 || !line[level..].starts_with([' ', '\t']) {
        return line;
    }
    let trimmed = line.trim_end_matches('#');
    if trimmed.len() > level && trimmed.ends_with([' ', '\t']) {
        trimmed.trim_end()
    } else {
        line
    }
}

/// A callout's first line (`> [!TIP] title`) without the icon Lute puts
/// before its title.
fn callout_title<'a>(prefix: &str, line: &'a str) -> std::borrow::Cow<'a, str> {
    let is_callout = prefix.starts_with('>')
        && line.starts_with("[!")
        && line.find(']').is_some_and(|end| {
            line[2..end]
                .bytes()
                .all(|b| b.is_ascii_alphabetic() || b == b'-')
        });
    if !is_callout {
        return line.into();
    }
    // `[!TIP]title` and `[!TIP] 💡 title` are one header: Lute writes a
    // space and the type's icon before a title.
    let end = line.find(']').map_or(line.len(), |e| e + 1);
    let title: String = line[end..].chars().filter(|c| !is_icon(*c)).collect();
    let title = title.trim();
    if title.is_empty() {
        line[..end].to_string().into()
    } else {
        format!("{} {title}", &line[..end]).into()
    }
}

fn is_icon(c: char) -> bool {
    matches!(c as u32, 0x2600..=0x27bf | 0x1f000..=0x1faff | 0xfe0f)
}

/// A line's inline text: a trailing hard-break backslash dropped, runs of
/// whitespace as one space, `_` emphasis delimiters as `*`.
fn inline_body(line: &str) -> String {
    let mut line = line.trim_end();
    let backslashes = line.bytes().rev().take_while(|b| *b == b'\\').count();
    if backslashes % 2 == 1 {
        line = line[..line.len() - 1].trim_end();
    }
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::with_capacity(line.len());
    let mut space = false;
    for (i, &c) in chars.iter().enumerate() {
        if c == ' ' || c == '\t' {
            space = true;
            continue;
        }
        if space && !out.is_empty() {
            out.push(' ');
        }
        space = false;
        if c == '_' && emphasis_underscore(&chars, i) {
            out.push('*');
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether the `_` at `i` belongs to a delimiter run that may open or
/// close emphasis: the run touches whitespace, punctuation or the line's
/// edge on one side (`snake_case` stays).
fn emphasis_underscore(chars: &[char], i: usize) -> bool {
    let mut start = i;
    while start > 0 && chars[start - 1] == '_' {
        start -= 1;
    }
    let mut end = i + 1;
    while end < chars.len() && chars[end] == '_' {
        end += 1;
    }
    let word = |c: Option<&char>| c.is_some_and(|c| c.is_alphanumeric());
    let escaped = start > 0 && chars[start - 1] == '\\';
    let inside_a_word =
        word(start.checked_sub(1).and_then(|p| chars.get(p))) && word(chars.get(end));
    !escaped && !inside_a_word
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_character_counts() {
        for (a, b) in [
            ("second", "second!"),
            ("a + b", "a - b"),
            ("a b", "ab"),
            ("x.", "x。"),
            ("“quoted”", "\"quoted\""),
            ("- [ ] done", "- [X] done"),
            ("first", "first\n\nsecond"),
            ("```\n  x\n```", "```\nx\n```"),
            ("snake_case", "snake*case"),
            (
                "((20240101000000-abcdefg \"a\"))",
                "((20240101000000-abcdefg \"b\"))",
            ),
        ] {
            assert!(!same_markdown(a, b), "{a:?} vs {b:?}");
        }
    }

    /// Every pair of `tests/data/lute-format-cases.json` (markdown, and
    /// what vditor's Lute writes back for it) reads as one text.
    #[test]
    fn lute_output_reads_as_its_input() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/lute-format-cases.json"
        );
        let data: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let cases = data["cases"].as_array().unwrap();
        assert!(cases.len() > 100);
        for case in cases {
            let (input, lute) = (
                case["input"].as_str().unwrap(),
                case["lute"].as_str().unwrap(),
            );
            assert_eq!(canonical(input), canonical(lute), "{input:?} → {lute:?}");
        }
    }

    #[test]
    fn what_lute_rewrites_is_the_same_text() {
        for (a, b) in [
            ("- [X] done", "* [x] done"),
            ("a\nb", "a<br>b"),
            ("x y", "x&nbsp;y"),
            ("1. a\n2. b", "3) a\n4) b"),
            ("**bold** *it*", "__bold__ _it_"),
            ("| a | b |\n| --- | :-: |", "|a|b|\n|-|:-:|"),
            ("# T", "# T #"),
            ("---", "* * *"),
            ("```js\nx\n```", "~~~~js\nx\n~~~~"),
            ("> q", ">q"),
            (
                "((20240101000000-abcdefg))",
                "((20240101000000-abcdefg '别的'))",
            ),
            ("> [!NOTE]（改）\n> x", "> [!NOTE] ✏️ （改）\n> x"),
        ] {
            assert!(same_markdown(a, b), "{a:?} vs {b:?}");
        }
    }
}
