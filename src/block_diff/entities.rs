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
    let numbers: Vec<u32> = version
        .trim()
        .trim_start_matches('v')
        .split(['.', '-', '+'])
        .take(3)
        .map(|part| part.parse().unwrap_or(0))
        .collect();
    match numbers.as_slice() {
        [major, minor, patch] => (*major, *minor, *patch) < (3, 7, 4),
        _ => true,
    }
}

/// The character references in `markdown` a write of it would decode:
/// outside code in every block, and in HTML blocks when `html` (the
/// kernel decodes them again). In order, each once.
pub fn decodable(markdown: &str, html: bool) -> Vec<String> {
    if !markdown.contains('&') {
        return Vec::new();
    }
    let lines = source_lines(markdown);
    let mut out = Vec::new();
    for node in parse(markdown) {
        walk(&node, &lines, html, &mut out);
    }
    out
}

/// The character references in the HTML blocks of `markdown`.
pub fn decodable_in_html(markdown: &str) -> Vec<String> {
    if !markdown.contains('&') {
        return Vec::new();
    }
    let lines = source_lines(markdown);
    let mut out = Vec::new();
    for node in parse(markdown) {
        walk_html(&node, &lines, &mut out);
    }
    out
}

fn walk(node: &Node, lines: &[&str], html: bool, out: &mut Vec<String>) {
    if node.is_container() {
        for child in &node.children {
            walk(child, lines, html, out);
        }
        return;
    }
    let text = without_ial(&own_text(node, lines).unwrap_or_default());
    match node.kind {
        BlockKind::Code | BlockKind::Math => {}
        BlockKind::Html if html => references(&text, false, out),
        BlockKind::Html => {}
        _ => references(&text, true, out),
    }
}

fn walk_html(node: &Node, lines: &[&str], out: &mut Vec<String>) {
    for child in &node.children {
        walk_html(child, lines, out);
    }
    if node.kind == BlockKind::Html {
        let text = without_ial(&own_text(node, lines).unwrap_or_default());
        references(&text, false, out);
    }
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
        let (digits, hex) = match num.strip_prefix(['x', 'X']) {
            Some(h) => (h, true),
            None => (num, false),
        };
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
