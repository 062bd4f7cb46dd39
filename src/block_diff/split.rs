//! Splits markdown into its top-level blocks with CommonMark's block rules
//! (plus SiYuan's `{{{ … }}}` superblocks and kramdown IAL lines), because
//! the kernel's `updateBlock` keeps only the first block of what it is given.
//!
//! Not only blank lines separate blocks: an ATX heading is always a block of
//! its own (`## T\ntext` is two blocks), a fence or a math block interrupts a
//! paragraph, a blockquote or list start interrupts a paragraph, and a
//! thematic break stands alone. Inside fences, math blocks and superblocks
//! nothing splits. A `{: …}` IAL line belongs to the block above it.
//!
//! Cost: one pass over the lines. Non-goals: inline syntax, link reference
//! definitions, HTML block subtleties (an HTML block runs to a blank line).

use crate::text::lines_with_endings;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Open {
    /// Nothing open: the next non-blank line starts a block.
    None,
    Paragraph,
    /// A list; `marker` is the bullet char or `.`/`)` for ordered lists.
    List {
        marker: u8,
    },
    Quote,
    /// Fence of `len` times `ch`.
    Fence {
        ch: u8,
        len: usize,
    },
    Math,
    /// `{{{` nesting depth.
    Super {
        depth: usize,
    },
    Html,
    /// Indented code.
    Indented,
    /// A block that is complete after one line (heading, thematic break).
    Closed,
}

/// The top-level blocks of `markdown`, each without surrounding blank
/// lines, in order. Blank input gives no blocks.
pub fn split_blocks(markdown: &str) -> Vec<&str> {
    let mut blocks = Vec::new();
    let mut open = Open::None;
    let mut start = 0usize; // byte offset of the open block's first line
    let mut end = 0usize; // byte offset just past the open block's last non-blank line text
    let mut blank_run = false; // a blank line was seen since the last content line of the open block

    fn close<'a>(blocks: &mut Vec<&'a str>, markdown: &'a str, start: usize, end: usize) {
        if end > start {
            blocks.push(&markdown[start..end]);
        }
    }

    for line in lines_with_endings(markdown) {
        let text = line.text.trim_end_matches('\r');
        let blank = text.trim().is_empty();
        let line_end = line.start + text.len();

        // Inside verbatim blocks only the closer matters.
        match open {
            Open::Fence { ch, len } => {
                end = line_end;
                if closes_fence(text, ch, len) {
                    open = Open::Closed;
                }
                continue;
            }
            Open::Math => {
                end = line_end;
                if text.trim() == "$$" {
                    open = Open::Closed;
                }
                continue;
            }
            Open::Super { depth } => {
                end = line_end;
                let t = text.trim();
                if t.starts_with("{{{") {
                    open = Open::Super { depth: depth + 1 };
                } else if t == "}}}" {
                    open = if depth <= 1 {
                        Open::Closed
                    } else {
                        Open::Super { depth: depth - 1 }
                    };
                }
                continue;
            }
            _ => {}
        }

        if blank {
            if matches!(open, Open::List { .. } | Open::Indented) {
                blank_run = true;
            } else if open != Open::None {
                close(&mut blocks, markdown, start, end);
                open = Open::None;
            }
            continue;
        }

        let indent = text.len() - text.trim_start_matches([' ', '\t']).len();
        let body = text.trim_start_matches([' ', '\t']);

        // An IAL line belongs to the block above it.
        if open != Open::None && is_ial_line(body) && !blank_run {
            end = line_end;
            continue;
        }

        // Continuations of an open block.
        match open {
            Open::List { marker } => {
                let continues = if blank_run {
                    indent >= 2 || list_marker(body).is_some_and(|m| m == marker) && indent < 4
                } else {
                    // Lazy continuation or a new item of the same list.
                    list_marker(body).is_none_or(|m| m == marker)
                        && !starts_hard_block(body, indent)
                        || indent >= 2
                };
                if continues {
                    end = line_end;
                    blank_run = false;
                    continue;
                }
            }
            Open::Quote if body.starts_with('>') || !starts_hard_block(body, indent) => {
                end = line_end;
                continue;
            }
            Open::Paragraph => {
                if is_setext_underline(body) {
                    end = line_end;
                    open = Open::Closed;
                    continue;
                }
                if !interrupts_paragraph(body, indent) {
                    end = line_end;
                    continue;
                }
            }
            Open::Html => {
                end = line_end;
                continue;
            }
            Open::Indented if indent >= 4 => {
                end = line_end;
                blank_run = false;
                continue;
            }
            _ => {}
        }

        // A new block starts here.
        if open != Open::None {
            close(&mut blocks, markdown, start, end);
        }
        start = line.start;
        end = line_end;
        blank_run = false;
        open = classify_start(body, indent);
    }
    if open != Open::None {
        close(&mut blocks, markdown, start, end);
    }
    blocks
}

fn classify_start(body: &str, indent: usize) -> Open {
    if indent >= 4 {
        return Open::Indented;
    }
    if let Some((ch, len)) = fence_opener(body) {
        return Open::Fence { ch, len };
    }
    if body.trim() == "$$" || (body.starts_with("$$") && !body.trim_end().ends_with("$$")) {
        return Open::Math;
    }
    if body.starts_with("{{{") {
        return Open::Super { depth: 1 };
    }
    if crate::siyuan::heading_level_of_markdown(body) > 0 || is_thematic_break(body) {
        return Open::Closed;
    }
    if body.starts_with('>') {
        return Open::Quote;
    }
    if let Some(marker) = list_marker(body) {
        return Open::List { marker };
    }
    if body.starts_with('<') && body.len() > 1 && body.as_bytes()[1].is_ascii_alphabetic() {
        return Open::Html;
    }
    Open::Paragraph
}

/// Lines that end a paragraph by starting a block of their own.
fn interrupts_paragraph(body: &str, indent: usize) -> bool {
    if indent >= 4 {
        return false;
    }
    starts_hard_block(body, indent)
        || body.starts_with('>')
        || list_marker(body).is_some_and(|m| match m {
            b'.' | b')' => body.starts_with("1.") || body.starts_with("1)"),
            _ => true,
        })
}

/// Headings, fences, math, superblocks and thematic breaks.
fn starts_hard_block(body: &str, indent: usize) -> bool {
    indent < 4
        && (crate::siyuan::heading_level_of_markdown(body) > 0
            || fence_opener(body).is_some()
            || body.trim() == "$$"
            || body.starts_with("{{{")
            || is_thematic_break(body))
}

fn fence_opener(body: &str) -> Option<(u8, usize)> {
    let ch = *body.as_bytes().first()?;
    if ch != b'`' && ch != b'~' {
        return None;
    }
    let len = body.bytes().take_while(|&b| b == ch).count();
    // A backtick fence's info string may not contain backticks.
    (len >= 3 && !(ch == b'`' && body[len..].contains('`'))).then_some((ch, len))
}

fn closes_fence(text: &str, ch: u8, len: usize) -> bool {
    let body = text.trim_start_matches(' ');
    let run = body.bytes().take_while(|&b| b == ch).count();
    run >= len && body[run..].trim().is_empty() && text.len() - body.len() < 4
}

fn is_thematic_break(body: &str) -> bool {
    let t = body.trim_end();
    let Some(&first) = t.as_bytes().first() else {
        return false;
    };
    if !matches!(first, b'-' | b'*' | b'_') {
        return false;
    }
    let mut count = 0;
    for b in t.bytes() {
        if b == first {
            count += 1;
        } else if b != b' ' && b != b'\t' {
            return false;
        }
    }
    count >= 3
}

fn is_setext_underline(body: &str) -> bool {
    let t = body.trim_end();
    !t.is_empty() && (t.bytes().all(|b| b == b'=') || t.bytes().all(|b| b == b'-'))
}

/// The list marker kind of a line that starts a list item: `-`, `*`, `+`,
/// or `.`/`)` for ordered items.
pub(super) fn list_marker(body: &str) -> Option<u8> {
    let bytes = body.as_bytes();
    match bytes.first()? {
        c @ (b'-' | b'*' | b'+') => {
            let next = bytes.get(1);
            (matches!(next, None | Some(b' ') | Some(b'\t')) && !is_thematic_break(body))
                .then_some(*c)
        }
        b'0'..=b'9' => {
            let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
            if digits > 9 {
                return None;
            }
            let delim = *bytes.get(digits)?;
            let next = bytes.get(digits + 1);
            (matches!(delim, b'.' | b')') && matches!(next, None | Some(b' ') | Some(b'\t')))
                .then_some(delim)
        }
        _ => None,
    }
}

/// A kramdown inline attribute list on a line of its own: `{: k="v"}`.
pub fn is_ial_line(body: &str) -> bool {
    let t = body.trim();
    t.starts_with("{:") && t.ends_with('}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_at_blank_lines_and_keeps_single_blocks_whole() {
        assert_eq!(
            split_blocks("第一段\n\n第二段（会被内核丢弃）"),
            vec!["第一段", "第二段（会被内核丢弃）"]
        );
        assert_eq!(
            split_blocks("one line\nsame paragraph"),
            vec!["one line\nsame paragraph"]
        );
        assert_eq!(split_blocks("\n\n  \n"), Vec::<&str>::new());
    }

    #[test]
    fn headings_fences_and_breaks_split_without_blank_lines() {
        assert_eq!(split_blocks("## T\ntext"), vec!["## T", "text"]);
        assert_eq!(
            split_blocks("para\n```js\nx\n\ny\n```\nafter"),
            vec!["para", "```js\nx\n\ny\n```", "after"]
        );
        assert_eq!(split_blocks("a\n\n---\n\nb"), vec!["a", "---", "b"]);
        assert_eq!(split_blocks("$$\na\n\nb\n$$"), vec!["$$\na\n\nb\n$$"]);
    }

    #[test]
    fn setext_headings_are_one_block() {
        assert_eq!(split_blocks("Title\n---\nbody"), vec!["Title\n---", "body"]);
    }

    #[test]
    fn loose_lists_and_nested_items_stay_one_block() {
        let list = "- 完成 SEARCH/REPLACE 解析器\n- 实现 slice 分页阅读\n\n  - 支持 `id:+N` 游标\n  - 支持 `BEGIN:id` 与 `id:END`\n- 编写单元测试";
        assert_eq!(split_blocks(list), vec![list]);
        assert_eq!(split_blocks("- a\n- b\n\npara"), vec!["- a\n- b", "para"]);
        assert_eq!(split_blocks("text\n- item"), vec!["text", "- item"]);
        assert_eq!(split_blocks("1. a\n2. b\n3. c"), vec!["1. a\n2. b\n3. c"]);
        assert_eq!(split_blocks("- a\n* b"), vec!["- a", "* b"]);
    }

    #[test]
    fn quotes_tables_superblocks_and_ials() {
        let quote = "> 注意：标题块不是容器块。\n>\n> getChildBlocks 对标题返回其下方的块。";
        assert_eq!(split_blocks(quote), vec![quote]);
        assert_eq!(split_blocks("para\n> quote"), vec!["para", "> quote"]);
        let table = "| a | b |\n| --- | --- |\n| 1 | 2 |";
        assert_eq!(split_blocks(table), vec![table]);
        let sb = "{{{row\nleft\n\n{{{col\nx\n\ny\n}}}\n}}}";
        assert_eq!(split_blocks(&format!("{sb}\n\nafter")), vec![sb, "after"]);
        assert_eq!(
            split_blocks("text\n{: id=\"20240614083000-a1b2c3d\"}\n\nnext"),
            vec!["text\n{: id=\"20240614083000-a1b2c3d\"}", "next"]
        );
    }

    #[test]
    fn crlf_input_is_split_the_same_way() {
        assert_eq!(split_blocks("a\r\n\r\nb\r\n"), vec!["a", "b"]);
    }
}
