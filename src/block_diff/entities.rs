//! Character references the kernel would decode when a block is written
//! (SPEC §3.7 rule 27; KERNEL-FACTS §13, confirmed live on v3.7.3).
//!
//! - **Text a write keeps.** A block's kramdown shows its stored characters
//!   as they are: a paragraph that holds the literal text `&amp;` reads
//!   back as `&amp;`, and written back (an edit of another part of it, its
//!   undo, a rollback) Lute reads that as the character reference it is in
//!   Markdown and stores `&`. Any version, every write path. So an update
//!   of a block whose text before holds a character reference outside code
//!   is refused: it would change text nobody edited.
//! - **HTML blocks on v3.7.3.** Its Lute decodes an HTML block's entities
//!   once more on every DOM-to-tree pass (once on inserts, twice on
//!   updates; fixed by the Lute that v3.7.4-alpha.1 pins): `&lt;b&gt;`
//!   becomes `<b>`. On such a kernel (or one whose version the host cannot
//!   tell), a write whose HTML blocks hold a character reference, before
//!   or after the edit, is refused.
//!
//! Code blocks, math blocks and inline code spans keep `&…;` literally and
//! are not looked at.

use crate::markdown::{is_ial_line, own_text, parse, source_lines, Node};
use crate::siyuan::BlockKind;

/// Whether a kernel of `version` decodes an HTML block's entities again on
/// write: v3.7.3 and older, or an unknown version.
pub fn decodes_html_entities(version: Option<&str>) -> bool {
    let Some(version) = version else { return true };
    // "3.7.4-alpha.1" → [3, 7, 4]: the digits of each of the first three
    // numbers; anything else is an unknown version.
    let mut numbers = [0u32; 3];
    let mut k = 0;
    let mut seen = false;
    for b in version.bytes() {
        if b.is_ascii_digit() {
            numbers[k] = numbers[k]
                .saturating_mul(10)
                .saturating_add(u32::from(b - b'0'));
            seen = true;
        } else if b == b'.' && seen && k < 2 {
            k += 1;
            seen = false;
        } else if seen {
            break;
        }
    }
    k < 2 || !seen || (numbers[0], numbers[1], numbers[2]) < (3, 7, 4)
}

/// The character references in `markdown` a write of it would decode:
/// outside code in every block, and in HTML blocks when `html` (the
/// kernel decodes them again). In order, each once.
pub fn decodable(markdown: &str, html: bool) -> Vec<String> {
    found_in(markdown, true, html)
}

/// The character references in the HTML blocks of `markdown`.
pub fn decodable_in_html(markdown: &str) -> Vec<String> {
    found_in(markdown, false, true)
}

/// The references in the blocks of `markdown`: in text (`text`) and in
/// HTML (`html`).
fn found_in(markdown: &str, text: bool, html: bool) -> Vec<String> {
    let mut out = Vec::new();
    if markdown.contains('&') {
        let lines = source_lines(markdown);
        for node in parse(markdown) {
            walk(&node, &lines, text, html, &mut out);
        }
    }
    out
}

fn walk(node: &Node, lines: &[&str], text: bool, html: bool, out: &mut Vec<String>) {
    for child in &node.children {
        walk(child, lines, text, html, out);
    }
    let inline = match node.kind {
        _ if node.is_container() => return,
        BlockKind::Html if html => false,
        BlockKind::Code | BlockKind::Math | BlockKind::Html => return,
        _ if text => true,
        _ => return,
    };
    references(
        &without_ial(&own_text(node, lines).unwrap_or_default()),
        inline,
        out,
    );
}

/// A block's text without its IAL lines (an attribute value's `&quot;` is
/// the IAL's own escaping, not text).
fn without_ial(text: &str) -> String {
    text.lines()
        .filter(|l| !is_ial_line(l.trim()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Appends the references in `text` (skipping inline code spans when
/// `inline`) that `out` does not hold yet.
fn references(text: &str, inline: bool, out: &mut Vec<String>) {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if inline && bytes[i] == b'`' {
            let run = bytes[i..].iter().take_while(|&&b| b == b'`').count();
            let fence = &text[i..i + run];
            match text[i + run..].find(fence) {
                Some(close) => {
                    i += run + close + run;
                    continue;
                }
                None => {
                    i += run;
                    continue;
                }
            }
        }
        if bytes[i] == b'&' {
            if let Some(len) = reference_len(&text[i..]) {
                let found = &text[i..i + len];
                if !out.iter().any(|o| o == found) {
                    out.push(found.to_string());
                }
                i += len;
                continue;
            }
        }
        i += 1;
    }
}

/// The length of the character reference `text` starts with: `&name;`,
/// `&#123;`, `&#x1F;`.
fn reference_len(text: &str) -> Option<usize> {
    let rest = text.strip_prefix('&')?;
    let (body_len, ok) = if let Some(num) = rest.strip_prefix('#') {
        let hex = matches!(num.bytes().next(), Some(b'x' | b'X'));
        let digits = if hex { &num[1..] } else { num };
        let n = digits
            .bytes()
            .take_while(|b| {
                if hex {
                    b.is_ascii_hexdigit()
                } else {
                    b.is_ascii_digit()
                }
            })
            .count();
        (1 + usize::from(hex) + n, (1..=7).contains(&n))
    } else {
        let n = rest.bytes().take_while(u8::is_ascii_alphanumeric).count();
        let starts_alpha = rest.bytes().next().is_some_and(|b| b.is_ascii_alphabetic());
        (n, starts_alpha && (2..=32).contains(&n))
    };
    (ok && rest.as_bytes().get(body_len) == Some(&b';')).then_some(1 + body_len + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_up_to_3_7_3_decode_html_entities_again() {
        assert!(decodes_html_entities(Some("3.7.3")));
        assert!(decodes_html_entities(Some("3.6.5")));
        assert!(decodes_html_entities(None));
        assert!(decodes_html_entities(Some("dev")));
        assert!(!decodes_html_entities(Some("3.7.4-alpha.1")));
        assert!(!decodes_html_entities(Some("v3.8.0")));
    }

    #[test]
    fn references_outside_code_are_found_code_keeps_its_own() {
        let md = "a &amp; b `&lt;x&gt;` &#39; &#x1F600; & no; &nbsp\n\n```\n&amp;\n```";
        assert_eq!(decodable(md, true), ["&amp;", "&#39;", "&#x1F600;"]);
        let html = "<div>&lt;b&gt;</div>\n\n段落";
        assert_eq!(decodable(html, true), ["&lt;", "&gt;"]);
        assert!(decodable(html, false).is_empty());
        assert_eq!(decodable_in_html(html), ["&lt;", "&gt;"]);
        let quote = "> <div>&copy;</div>\n> {: id=\"20240101000000-aaaaaaa\"}\n\n> 文字 &copy;";
        assert_eq!(decodable_in_html(quote), ["&copy;"]);
        assert!(decodable("Tom & Jerry; R&D", true).is_empty());
        let attributed = "名\n{: id=\"20240101000000-aaaaaaa\" memo=\"&quot;引号&quot;\"}";
        assert!(decodable(attributed, true).is_empty());
    }
}
