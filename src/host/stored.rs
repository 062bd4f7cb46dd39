//! Reads as the kernel stores a block, not as a read decorates it
//! (SPEC §3.7 rule 25).
//!
//! Two things a kernel read changes that are not in the stored text,
//! confirmed on a live v3.7.3 kernel:
//!
//! - **Leading spaces of a paragraph.** `getBlockKramdown(s)` and the SQL
//!   `markdown` column trim the whole rendering with Go's
//!   `strings.TrimSpace` (Lute `lute.go`), so a paragraph whose text
//!   begins with U+3000 (the two ideographic spaces of Chinese prose
//!   indentation) or another Unicode space reads back without them, while
//!   the stored text, the `content` column and a document's reads keep
//!   them. An edit built from such a read, its verify, its undo and its
//!   rollback would all write the paragraph without its indentation.
//! - **The `<div>` wrapper of an HTML block.** `getBlockKramdown(s)`
//!   (kernel `model/template.go` `addBlockIALNodes`) trims an HTML block
//!   and puts `<div>\n` before it unless it starts with `<div>`, and
//!   `\n</div>` after it unless it ends with `</div>`; the SQL `markdown`
//!   column has the block as stored. Written back, the wrapper would stay.
//!
//! So every row editkit reads gives a paragraph its leading spaces back
//! (from `content`), and every kramdown read of a block whose row it has
//! is put back as stored ([`row_as_stored`], [`kramdown_as_stored`]).
//! (The paragraph-beginning-space export setting decorates only
//! whole-document reads, which the block-diff engine does not make.)

use crate::siyuan::{Block, BlockKind};

/// A row as the kernel stores its block: a paragraph's leading Unicode
/// spaces, which the `markdown` column trims, put back from `content`.
pub fn row_as_stored(row: &mut Block) {
    if row.kind() != BlockKind::Paragraph {
        return;
    }
    let lead = leading_spaces(&row.content);
    if !lead.is_empty() && !row.markdown.starts_with(lead) {
        row.markdown = format!("{lead}{}", row.markdown);
    }
}

/// Every row of a read as stored ([`row_as_stored`]).
pub fn rows_as_stored(mut rows: Vec<Option<Block>>) -> Vec<Option<Block>> {
    for row in rows.iter_mut().flatten() {
        row_as_stored(row);
    }
    rows
}

/// A block's kramdown as stored, given its row (read as stored): a
/// paragraph's leading spaces back, an HTML block without the read's
/// `<div>` wrapper.
pub fn kramdown_as_stored(kramdown: String, row: Option<&Block>) -> String {
    let Some(row) = row else { return kramdown };
    match row.kind() {
        BlockKind::Paragraph => {
            let lead = leading_spaces(&row.content);
            if lead.is_empty() || kramdown.starts_with(lead) {
                kramdown
            } else {
                format!("{lead}{kramdown}")
            }
        }
        BlockKind::Html => unwrap_html(kramdown, &row.markdown),
        _ => kramdown,
    }
}

/// The Unicode spaces a paragraph's text begins with that Lute stores and
/// a trimmed read drops (ASCII spaces and tabs are markdown indentation:
/// they are never stored at a paragraph's start; U+00A0 is stored as a
/// space).
fn leading_spaces(content: &str) -> &str {
    let end = content
        .char_indices()
        .find(|&(_, c)| !(c.is_whitespace() && !c.is_ascii() && c != '\u{a0}' && c != '\u{85}'))
        .map_or(content.len(), |(i, _)| i);
    &content[..end]
}

/// An HTML block's kramdown with the read's `<div>` wrapper taken off,
/// when the wrapper is all that differs from the stored text; its IAL
/// lines stay.
fn unwrap_html(kramdown: String, stored: &str) -> String {
    let (body, ial) = match kramdown.rfind("\n{:") {
        Some(cut)
            if kramdown[cut + 1..]
                .lines()
                .all(crate::markdown::is_ial_line) =>
        {
            (&kramdown[..cut], &kramdown[cut..])
        }
        _ => (kramdown.as_str(), ""),
    };
    let stored_trimmed = stored.trim();
    if body == stored || body.trim() == stored_trimmed {
        return kramdown;
    }
    let inner = body.strip_prefix("<div>\n").unwrap_or(body);
    let inner = inner.strip_suffix("\n</div>").unwrap_or(inner);
    if inner != body && inner.trim() == stored_trimmed {
        return format!("{stored}{ial}");
    }
    kramdown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leading_ideographic_spaces_are_kept_ascii_indentation_is_not() {
        assert_eq!(leading_spaces("\u{3000}\u{3000}正文"), "\u{3000}\u{3000}");
        assert_eq!(leading_spaces("  text"), "");
        assert_eq!(leading_spaces("\u{a0}text"), "");
        assert_eq!(leading_spaces("\u{2003}\u{3000}x"), "\u{2003}\u{3000}");
        assert_eq!(leading_spaces("正文\u{3000}"), "");
    }

    #[test]
    fn the_reads_div_wrapper_comes_off_an_html_block() {
        let stored = r#"<div class="c">x</div>"#;
        let ial = "\n{: id=\"20240101000000-html001\"}";
        let read = format!("<div>\n{stored}{ial}");
        assert_eq!(unwrap_html(read, stored), format!("{stored}{ial}"));
        let stored2 = "<div>a</div>\n<p>b</p>";
        assert_eq!(
            unwrap_html(format!("{stored2}\n</div>{ial}"), stored2),
            format!("{stored2}{ial}")
        );
        // A block stored with the wrapper keeps it; another text is kept as read.
        let wrapped = format!("<div>\n{stored}");
        assert_eq!(
            unwrap_html(format!("{wrapped}{ial}"), &wrapped),
            format!("{wrapped}{ial}")
        );
        assert_eq!(unwrap_html("<div>y</div>".into(), stored), "<div>y</div>");
    }
}
