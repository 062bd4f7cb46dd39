//! Line lexer: every line of a diff is exactly one token.
//!
//! ```text
//! header  := "@@" [COMMAND ":"] ID "@@" [LABEL]      (whole line)
//! search  := "<"{5,9} [" "] "SEARCH"                  (whole line)
//! divider := "="{5,9}                                  (whole line)
//! replace := ">"{5,9} [" "] "REPLACE"                 (whole line)
//! text    := any other line
//! ```
//!
//! Leniencies: trailing spaces, tabs and `\r` after a marker; 5–9 marker
//! characters (models miscount; `<<<<<<<SEARCH` without the space occurs in
//! the wild); `SEARCH`/`REPLACE`/commands in any case; a type label after a
//! header (`@@id@@段落`, as getBlockContent prints it) is ignored.
//!
//! A line is only *header-shaped* when its inner part has no whitespace and
//! either names a command (`WORD:`) or starts with a digit: `@@note@@` and
//! unified-diff lines such as `@@ -1,3 +1,4 @@` stay text. A header-shaped
//! line with a malformed id or an unknown command is still a header (so the
//! problem is reported where it is), carrying what is wrong with it.
//!
//! A line that *looks like* a header but is none — `@@` then a command word
//! and `:`, or an id, with the closing `@@` missing, a space inside, or
//! prose after it — is `Malformed`: an error wherever it stands, never text
//! that would be written into the note (issue: `@@AFTER:<id>` without its
//! closing `@@` was inserted as a paragraph).

/// What a header asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// `@@id@@`: SEARCH/REPLACE pairs follow.
    Search,
    Replace,
    Delete,
    Before,
    After,
    Prepend,
    Append,
}

impl Command {
    fn from_name(name: &str) -> Option<Command> {
        let upper = name.to_ascii_uppercase();
        Some(match upper.as_str() {
            "REPLACE" => Command::Replace,
            "DELETE" => Command::Delete,
            "BEFORE" => Command::Before,
            "AFTER" => Command::After,
            "PREPEND" => Command::Prepend,
            "APPEND" => Command::Append,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Command::Search => "SEARCH",
            Command::Replace => "REPLACE",
            Command::Delete => "DELETE",
            Command::Before => "BEFORE",
            Command::After => "AFTER",
            Command::Prepend => "PREPEND",
            Command::Append => "APPEND",
        }
    }
}

/// A header line, possibly malformed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header<'a> {
    /// `None` when the command word is unknown (`unknown_command` says which).
    pub command: Option<Command>,
    pub unknown_command: Option<&'a str>,
    pub id: &'a str,
    pub id_valid: bool,
    pub label: Option<&'a str>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenKind<'a> {
    Header(Header<'a>),
    /// A line that looks like a header but is not one; `fix` is the header
    /// it probably meant, when the command and the id can be read.
    Malformed {
        fix: Option<String>,
    },
    Search,
    Divider,
    Replace,
    Text,
}

/// One line of the diff.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    pub kind: TokenKind<'a>,
    /// 1-based line number.
    pub line: u32,
    /// The line without its ending.
    pub text: &'a str,
    /// The line's ending (`""`, `"\n"`, `"\r\n"`).
    pub ending: &'a str,
}

impl Token<'_> {
    #[cfg(test)]
    pub fn letter(&self) -> char {
        match self.kind {
            TokenKind::Header(_) => 'B',
            TokenKind::Malformed { .. } => 'M',
            TokenKind::Search => 'S',
            TokenKind::Divider => 'D',
            TokenKind::Replace => 'R',
            TokenKind::Text => 'T',
        }
    }

    pub fn is_blank(&self) -> bool {
        self.text.trim().is_empty()
    }
}

/// Tokenises `text` (a leading BOM is skipped). Linear in the input.
pub fn tokenize(text: &str) -> Vec<Token<'_>> {
    let (_, text) = crate::text::split_bom(text);
    crate::text::lines_with_endings(text)
        .enumerate()
        .map(|(i, line)| Token {
            kind: classify(line.text),
            line: u32::try_from(i + 1).unwrap_or(u32::MAX),
            text: line.text,
            ending: line.ending,
        })
        .collect()
}

fn classify(line: &str) -> TokenKind<'_> {
    // Every token but text starts with one of these bytes: most lines of a
    // diff are text, and answer here.
    if !matches!(line.as_bytes().first(), Some(b'<' | b'=' | b'>' | b'@')) {
        return TokenKind::Text;
    }
    // Trailing spaces, tabs and `\r` (bytes: a char-set `trim_end_matches`
    // is a slow generic searcher in the size-optimised wasm).
    let kept = line
        .bytes()
        .rposition(|b| !matches!(b, b' ' | b'\t' | b'\r'))
        .map_or(0, |p| p + 1);
    let trimmed = &line[..kept];
    if is_marker(trimmed, b'<', Some("SEARCH")) {
        TokenKind::Search
    } else if is_marker(trimmed, b'=', None) {
        TokenKind::Divider
    } else if is_marker(trimmed, b'>', Some("REPLACE")) {
        TokenKind::Replace
    } else if let Some(header) = parse_header(trimmed) {
        TokenKind::Header(header)
    } else if let Some(fix) = looks_like_header(trimmed) {
        TokenKind::Malformed { fix }
    } else {
        TokenKind::Text
    }
}

/// `Some` when a line that is no header looks like one: `@@`, optional
/// spaces, then a command word and `:`, or an id. The inner `Option` is the
/// header it probably meant.
fn looks_like_header(line: &str) -> Option<Option<String>> {
    let rest = line.strip_prefix("@@")?.trim_start();
    let word_end = rest
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(rest.len());
    let word = &rest[..word_end];
    let command = Command::from_name(word);
    let after_word = rest[word_end..].trim_start();
    let (command, id_part) = match command {
        Some(c) if after_word.starts_with(':') => (Some(c), after_word[1..].trim_start()),
        Some(_) => return None,
        None if rest.starts_with(|c: char| c.is_ascii_digit()) => (None, rest),
        None => return None,
    };
    let id: String = id_part
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    let digits = id.bytes().take_while(u8::is_ascii_digit).count();
    if command.is_none() && digits < 14 {
        return None;
    }
    let fix = crate::siyuan::is_block_id(&id).then(|| match command {
        Some(c) => format!("@@{}:{id}@@", c.name()),
        None => format!("@@{id}@@"),
    });
    Some(fix)
}

/// `ch{5,9}` then, when `word` is given, an optional space and `word`.
fn is_marker(line: &str, ch: u8, word: Option<&str>) -> bool {
    let run = line.bytes().take_while(|&b| b == ch).count();
    if !(5..=9).contains(&run) {
        return false;
    }
    let rest = &line[run..];
    match word {
        None => rest.is_empty(),
        Some(word) => {
            let rest = rest.strip_prefix(' ').unwrap_or(rest);
            rest.eq_ignore_ascii_case(word)
        }
    }
}

const MAX_HEADER_INNER: usize = 64;
const MAX_LABEL_CHARS: usize = 24;

fn parse_header(line: &str) -> Option<Header<'_>> {
    let rest = line.strip_prefix("@@")?;
    let close = crate::text::find_pair(rest, *b"@@")?;
    let inner = &rest[..close];
    let after = rest[close + 2..].trim();
    if inner.is_empty() || inner.len() > MAX_HEADER_INNER || inner.chars().any(char::is_whitespace)
    {
        return None;
    }
    let label = if after.is_empty() {
        None
    } else if after.chars().count() <= MAX_LABEL_CHARS
        && after.chars().all(|c| c.is_alphabetic() || c == ' ')
    {
        Some(after)
    } else {
        return None;
    };
    let (command_word, id) = match inner.split_once(':') {
        Some((word, id))
            if !word.is_empty() && word.chars().all(|c| c.is_ascii_alphabetic() || c == '_') =>
        {
            (Some(word), id)
        }
        Some(_) => return None,
        None => (None, inner),
    };
    if command_word.is_none() && !inner.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let (command, unknown_command) = match command_word {
        None => (Some(Command::Search), None),
        Some(word) => match Command::from_name(word) {
            Some(c) => (Some(c), None),
            None => (None, Some(word)),
        },
    };
    Some(Header {
        command,
        unknown_command,
        id,
        id_valid: crate::siyuan::is_block_id(id),
        label,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> String {
        tokenize(text).iter().map(Token::letter).collect()
    }

    #[test]
    fn markers_are_whole_lines_with_lenient_counts_and_spacing() {
        assert_eq!(kinds("<<<<<<< SEARCH\n=======\n>>>>>>> REPLACE"), "SDR");
        assert_eq!(
            kinds("<<<<<<<SEARCH\r\n=======  \r\n>>>>>>>REPLACE\t"),
            "SDR"
        );
        assert_eq!(kinds("<<<<< search\n=========\n>>>>>>>>> Replace"), "SDR");
        // Too few or too many marker characters, or text around: text.
        assert_eq!(kinds("<<<< SEARCH\n====\n>>>>>>>>>> REPLACE"), "TTT");
        assert_eq!(
            kinds(" <<<<<<< SEARCH\nx =======\n>>>>>>> REPLACE now"),
            "TTT"
        );
        // Only spaces, tabs and `\r` trail a marker: a form feed or a
        // no-break space makes the line text.
        assert_eq!(kinds("=======\u{c}\n=======\u{a0}\n======= \t\r"), "TTD");
    }

    #[test]
    fn headers_are_recognised_only_as_whole_header_shaped_lines() {
        assert_eq!(kinds("@@20240614083000-a1b2c3d@@"), "B");
        assert_eq!(kinds("@@REPLACE:20240614083000-a1b2c3d@@段落"), "B");
        assert_eq!(kinds("@@after:20240614083000-a1b2c3d@@ list item"), "B");
        assert_eq!(kinds("请参考 @@note@@ 标记"), "T");
        assert_eq!(kinds("@@note@@"), "T");
        assert_eq!(kinds("@@ -1,3 +1,4 @@"), "T");
    }

    #[test]
    fn lines_that_look_like_headers_but_are_none_are_malformed() {
        for line in [
            "@@AFTER:20240614083000-a1b2c3d",
            "@@ AFTER : 20240614083000-a1b2c3d @@",
            "@@after:20240614083000-a1b2c3d",
            "@@20240614083000-a1b2c3d",
            "@@20240614083000-a1b2c3d@@ trailing prose, with punctuation.",
            "@@DELETE:",
        ] {
            assert_eq!(kinds(line), "M", "{line:?}");
        }
        let tokens = tokenize("@@after:20240614083000-a1b2c3d");
        assert_eq!(
            tokens[0].kind,
            TokenKind::Malformed {
                fix: Some("@@AFTER:20240614083000-a1b2c3d@@".into())
            }
        );
        // Unified-diff hunks, notes and prose stay text.
        assert_eq!(
            kinds(
                "@@ -1,3 +1,4 @@
@@note@@
@@ 2024 年计划"
            ),
            "TTT"
        );
    }

    #[test]
    fn malformed_headers_carry_what_is_wrong() {
        let tokens = tokenize("@@20240614083000-A1B2C3D@@\n@@MOVE:20240614083000-a1b2c3d@@");
        let TokenKind::Header(h) = &tokens[0].kind else {
            panic!()
        };
        assert!(!h.id_valid);
        assert_eq!(h.command, Some(Command::Search));
        let TokenKind::Header(h) = &tokens[1].kind else {
            panic!()
        };
        assert_eq!(h.command, None);
        assert_eq!(h.unknown_command, Some("MOVE"));
        assert!(h.id_valid);
    }

    #[test]
    fn bom_is_skipped_and_lines_are_numbered_from_one() {
        let tokens = tokenize("\u{feff}@@DELETE:20240614083000-a1b2c3d@@\nx");
        assert_eq!(tokens[0].letter(), 'B');
        assert_eq!((tokens[0].line, tokens[1].line), (1, 2));
    }
}
