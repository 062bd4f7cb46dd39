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
//! [`AsStored`] wraps a host for one apply: every row it reads gives a
//! paragraph its leading spaces back (from `content`), and every kramdown
//! read of a block whose row it has seen is put back as stored. (The
//! paragraph-beginning-space export setting decorates only whole-document
//! reads, which the block-diff engine does not make.)

use std::cell::RefCell;

use crate::host::{Capability, HostResult, InsertAnchor, NewIds, SiyuanHost};
use crate::siyuan::{Block, BlockKind, BreadcrumbEntry, ChildBlock};
use crate::text::StableMap;

/// What a row said about a block's stored text.
#[derive(Clone, Debug)]
enum Stored {
    /// A paragraph whose text begins with these spaces.
    Lead(String),
    /// An HTML block, as stored.
    Html(String),
}

/// A host whose reads give blocks as the kernel stores them (module docs).
pub struct AsStored<'a, H: SiyuanHost> {
    inner: &'a H,
    seen: RefCell<StableMap<String, Stored>>,
}

impl<'a, H: SiyuanHost> AsStored<'a, H> {
    pub fn new(inner: &'a H) -> Self {
        AsStored {
            inner,
            seen: RefCell::new(StableMap::default()),
        }
    }

    fn learn(&self, row: &mut Block) {
        match row.kind() {
            BlockKind::Paragraph => {
                let lead = leading_spaces(&row.content);
                if lead.is_empty() {
                    self.seen.borrow_mut().remove(&row.id);
                    return;
                }
                if !row.markdown.starts_with(lead) {
                    row.markdown = format!("{lead}{}", row.markdown);
                }
                self.seen
                    .borrow_mut()
                    .insert(row.id.clone(), Stored::Lead(lead.to_string()));
            }
            BlockKind::Html => {
                self.seen
                    .borrow_mut()
                    .insert(row.id.clone(), Stored::Html(row.markdown.clone()));
            }
            _ => {}
        }
    }

    fn restore(&self, id: &str, kramdown: String) -> String {
        match self.seen.borrow().get(id) {
            Some(Stored::Lead(lead)) if !kramdown.starts_with(lead.as_str()) => {
                format!("{lead}{kramdown}")
            }
            Some(Stored::Html(stored)) => unwrap_html(kramdown, stored),
            _ => kramdown,
        }
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

impl<H: SiyuanHost> SiyuanHost for AsStored<'_, H> {
    fn has(&self, capability: Capability) -> bool {
        self.inner.has(capability)
    }

    async fn get_blocks(&self, ids: &[String]) -> HostResult<Vec<Option<Block>>> {
        let mut rows = self.inner.get_blocks(ids).await?;
        for row in rows.iter_mut().flatten() {
            self.learn(row);
        }
        Ok(rows)
    }

    async fn get_child_blocks(&self, ids: &[String]) -> HostResult<Vec<Vec<ChildBlock>>> {
        self.inner.get_child_blocks(ids).await
    }

    async fn get_kramdown(&self, ids: &[String]) -> HostResult<Vec<Option<String>>> {
        let answer = self.inner.get_kramdown(ids).await?;
        Ok(answer
            .into_iter()
            .enumerate()
            .map(|(k, kramdown)| match (kramdown, ids.get(k)) {
                (Some(kramdown), Some(id)) => Some(self.restore(id, kramdown)),
                (kramdown, _) => kramdown,
            })
            .collect())
    }

    async fn update_block(&self, id: &str, markdown: &str) -> HostResult<()> {
        self.inner.update_block(id, markdown).await
    }

    async fn delete_block(&self, id: &str) -> HostResult<()> {
        self.inner.delete_block(id).await
    }

    async fn insert_block(&self, markdown: &str, anchor: &InsertAnchor) -> HostResult<NewIds> {
        self.inner.insert_block(markdown, anchor).await
    }

    async fn prepend_block(&self, parent_id: &str, markdown: &str) -> HostResult<NewIds> {
        self.inner.prepend_block(parent_id, markdown).await
    }

    async fn append_block(&self, parent_id: &str, markdown: &str) -> HostResult<NewIds> {
        self.inner.append_block(parent_id, markdown).await
    }

    async fn update_blocks(&self, updates: &[(String, String)]) -> HostResult<()> {
        self.inner.update_blocks(updates).await
    }

    async fn insert_blocks(&self, inserts: &[(String, InsertAnchor)]) -> HostResult<Vec<NewIds>> {
        self.inner.insert_blocks(inserts).await
    }

    async fn prepend_blocks(&self, items: &[(String, String)]) -> HostResult<Vec<NewIds>> {
        self.inner.prepend_blocks(items).await
    }

    async fn append_blocks(&self, items: &[(String, String)]) -> HostResult<Vec<NewIds>> {
        self.inner.append_blocks(items).await
    }

    async fn get_breadcrumb(&self, ids: &[String]) -> HostResult<Vec<Vec<BreadcrumbEntry>>> {
        self.inner.get_breadcrumb(ids).await
    }

    async fn get_doc_headings(&self, doc_ids: &[String]) -> HostResult<Vec<Vec<Block>>> {
        self.inner.get_doc_headings(doc_ids).await
    }

    async fn create_doc(
        &self,
        notebook: &str,
        hpath: &str,
        parent_id: &str,
        markdown: &str,
    ) -> HostResult<String> {
        self.inner
            .create_doc(notebook, hpath, parent_id, markdown)
            .await
    }

    async fn create_daily_note(&self, notebook: &str) -> HostResult<String> {
        self.inner.create_daily_note(notebook).await
    }

    async fn flush_transaction(&self) -> HostResult<()> {
        self.inner.flush_transaction().await
    }

    async fn get_referenced_ids(&self, ids: &[String]) -> HostResult<Vec<String>> {
        self.inner.get_referenced_ids(ids).await
    }

    async fn split_markdown(&self, markdown: &str) -> HostResult<Vec<String>> {
        self.inner.split_markdown(markdown).await
    }

    async fn get_kernel_version(&self) -> HostResult<String> {
        self.inner.get_kernel_version().await
    }
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
