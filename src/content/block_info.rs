//! getBlockInfo: light metadata of one or many blocks, and the YAML-like
//! text of seed 000 for agents.
//!
//! Fields (seed 000): the row itself, `contentLength`, `markdownLength` and
//! a 10-unit `markdownPreview` of the block's reading-mode text (a
//! heading's section, a document's children), `childBlockCount` for
//! documents, headings and containers, `toc` for documents, `breadcrumb`.
//! Lengths are UTF-16 code units, as the plugin's JavaScript counted them.
//!
//! Host calls, whatever the number of ids (at most 4): `getBlocks` (all
//! ids), `getChildBlocks` (every document, heading and container among
//! them), `getDocHeadings` (every document among them; optional), and
//! `getBreadcrumb` (every found id).
//!
//! The outline of a document is built from its heading blocks in document
//! order, nested by level. The plugin ordered them by the kernel's `sort`
//! column, which is a type weight (5 for every heading), not a position, so
//! the order was whatever the SQL engine returned (insertion order). A host
//! without `getDocHeadings` gets an outline of the document's top-level
//! headings (from the child list this call fetches anyway); headings nested
//! in containers (a heading inside a blockquote or superblock) then do not
//! appear.

use serde::{Deserialize, Serialize};

use super::{
    checked_id, fetch_blocks, fetch_children, messages, reading_text, refuse, require, to_u32,
    utf16_len, ContentOptions, Problem,
};
use crate::host::{Capability, SiyuanHost};
use crate::siyuan::{heading_level_of_markdown, Block, BlockKind, BreadcrumbEntry, ChildBlock};
use crate::{Error, Lang};

/// How many UTF-16 code units of the markdown the preview keeps.
pub const PREVIEW_UNITS: usize = 10;

/// The ids to describe: one string with comma-separated ids (the tool
/// argument, `"id1,id2"`) or a list.
#[derive(Clone, Debug, PartialEq)]
pub enum BlockIds {
    /// A list of ids (each may itself hold comma-separated ids).
    List(Vec<String>),
    /// Comma-separated ids in one string.
    Text(String),
}

impl Default for BlockIds {
    fn default() -> Self {
        BlockIds::Text(String::new())
    }
}

// A visitor rather than `#[serde(untagged)]`: a wrong value is refused
// with what the field takes ("expected comma-separated block ids or a list
// of block ids"), where an untagged enum only says that no variant matched.
impl<'de> Deserialize<'de> for BlockIds {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(BlockIdsVisitor)
    }
}

struct BlockIdsVisitor;

impl<'de> serde::de::Visitor<'de> for BlockIdsVisitor {
    type Value = BlockIds;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("comma-separated block ids or a list of block ids")
    }

    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<BlockIds, E> {
        Ok(BlockIds::Text(text.to_string()))
    }

    fn visit_string<E: serde::de::Error>(self, text: String) -> Result<BlockIds, E> {
        Ok(BlockIds::Text(text))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut items: A) -> Result<BlockIds, A::Error> {
        let mut ids = Vec::new();
        while let Some(id) = items.next_element::<String>()? {
            ids.push(id);
        }
        Ok(BlockIds::List(ids))
    }
}

impl BlockIds {
    /// The ids, trimmed, blanks dropped, duplicates removed (first kept).
    pub fn to_vec(&self) -> Vec<String> {
        let raw: Vec<&str> = match self {
            BlockIds::List(list) => list.iter().flat_map(|s| s.split(',')).collect(),
            BlockIds::Text(text) => text.split(',').collect(),
        };
        let mut out: Vec<String> = Vec::new();
        for id in raw.into_iter().map(str::trim).filter(|s| !s.is_empty()) {
            if !out.iter().any(|o| o == id) {
                out.push(id.to_string());
            }
        }
        out
    }
}

/// Arguments of getBlockInfo.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct GetBlockInfoArgs {
    /// The blocks to describe.
    pub ids: BlockIds,
}

/// One heading of a document outline.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct TocNode {
    /// The heading block's id.
    pub block_id: String,
    /// The heading's text.
    pub content: String,
    /// 1–6.
    pub level: u8,
    /// The headings below it, down to the next heading of its level or higher.
    pub children: Vec<TocNode>,
}

/// One level of a breadcrumb.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct BreadcrumbItem {
    /// The block (or document) at this level.
    pub id: String,
    /// The type code (`d`, `h`, `i`, …); the kernel's node name when it is
    /// one this version does not know.
    #[serde(rename = "type")]
    pub type_: String,
    /// The subtype code (`h1`…`h6`, `o`/`u`/`t` for lists), or empty.
    pub sub_type: String,
    /// What the kernel calls it: `notebook/hpath` for a document, the text
    /// for other levels, empty for the block itself.
    pub name: String,
}

/// What getBlockInfo says about one block.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct BlockInfo {
    /// The block's id.
    pub id: String,
    /// The type code (`d`, `h`, `p`, …).
    #[serde(rename = "type")]
    pub type_: String,
    /// The row as the host gave it.
    pub block: Block,
    /// UTF-16 length of `content`.
    pub content_length: u32,
    /// UTF-16 length of the reading-mode markdown (a heading's section, a
    /// document's children joined with blank lines).
    pub markdown_length: u32,
    /// Its first [`PREVIEW_UNITS`] UTF-16 units (never half a character).
    pub markdown_preview: String,
    /// Documents, headings and containers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub child_block_count: Option<u32>,
    /// Documents.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub toc: Option<Vec<TocNode>>,
    /// Where it sits, document first (when the host has `getBlockBreadcrumb`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub breadcrumb: Option<Vec<BreadcrumbItem>>,
}

/// The result of [`get_block_info`]: the blocks found, in the order asked,
/// and the ids that matched nothing.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct BlockInfoResult {
    /// The blocks found, in the order asked.
    pub blocks: Vec<BlockInfo>,
    /// The ids no block has.
    pub not_found_ids: Vec<String>,
}

fn lists_children(kind: BlockKind) -> bool {
    kind.is_container() || kind == BlockKind::Heading
}

/// What [`build_block_info`] needs, for hosts that already hold it (the
/// JS `buildBlockInfo`): the block's row, its child list (documents,
/// headings, containers), a document's headings in document order, and
/// its breadcrumb as `getBlockBreadcrumb` answers it.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct BlockInfoSource {
    /// The block's row.
    pub block: Block,
    /// Its child list (documents, headings, containers).
    pub children: Option<Vec<ChildBlock>>,
    /// A document's headings, in document order (for the outline).
    pub headings: Option<Vec<Block>>,
    /// Its breadcrumb as `getBlockBreadcrumb` answers it.
    pub breadcrumb: Option<Vec<BreadcrumbEntry>>,
}

impl BlockInfoSource {
    /// The info, once the block's id is a block id (`INVALID_BLOCK_ID`
    /// otherwise: a missing or empty row is a caller's mistake, not a block).
    pub fn build(&self, lang: Lang) -> Result<BlockInfo, Error> {
        checked_id(&self.block.id, "source.block.id", lang)?;
        Ok(build_block_info(
            &self.block,
            self.children.as_deref(),
            self.headings.as_deref(),
            self.breadcrumb.as_deref(),
        ))
    }
}

/// Builds one block's info from data already fetched: its child list
/// (documents, headings, containers), the document's headings in document
/// order (documents; `None` builds the outline from the top-level headings
/// of `children`), and its breadcrumb.
pub fn build_block_info(
    block: &Block,
    children: Option<&[ChildBlock]>,
    headings: Option<&[Block]>,
    breadcrumb: Option<&[BreadcrumbEntry]>,
) -> BlockInfo {
    let kind = block.kind();
    let kids = children.unwrap_or(&[]);
    let reading = reading_text(block, kids);
    let toc = (kind == BlockKind::Document).then(|| match headings {
        Some(h) => build_toc(h),
        None => {
            let top: Vec<Block> = kids
                .iter()
                .filter(|c| c.kind() == BlockKind::Heading)
                .map(|c| Block {
                    id: c.id.clone(),
                    type_: c.type_.clone(),
                    subtype: c.sub_type.clone(),
                    content: c.content.clone(),
                    markdown: c.markdown.clone(),
                    ..Block::default()
                })
                .collect();
            build_toc(&top)
        }
    });
    BlockInfo {
        id: block.id.clone(),
        type_: block.type_.clone(),
        block: block.clone(),
        content_length: utf16_len(&block.content),
        markdown_length: utf16_len(&reading),
        markdown_preview: utf16_prefix(&reading, PREVIEW_UNITS).to_string(),
        child_block_count: lists_children(kind).then(|| to_u32(kids.len())),
        toc,
        breadcrumb: breadcrumb.map(|entries| entries.iter().map(breadcrumb_item).collect()),
    }
}

fn breadcrumb_item(entry: &BreadcrumbEntry) -> BreadcrumbItem {
    let code = entry.kind().code();
    BreadcrumbItem {
        id: entry.id.clone(),
        type_: if code.is_empty() {
            entry.type_.clone()
        } else {
            code.to_string()
        },
        sub_type: entry.sub_type.clone(),
        name: entry.name.clone(),
    }
}

/// The longest prefix of `s` of at most `units` UTF-16 code units.
fn utf16_prefix(s: &str, units: usize) -> &str {
    let mut used = 0;
    for (i, ch) in s.char_indices() {
        used += ch.len_utf16();
        if used > units {
            return &s[..i];
        }
    }
    s
}

/// Nests headings (given in document order) by level: each heading goes
/// under the nearest earlier heading of a lower level. A level outside 1–6
/// counts as 6. Linear; depth at most 6.
pub fn build_toc(headings: &[Block]) -> Vec<TocNode> {
    // Open headings, levels strictly increasing from bottom to top.
    let mut stack: Vec<TocNode> = Vec::new();
    let mut roots: Vec<TocNode> = Vec::new();
    fn close(stack: &mut Vec<TocNode>, roots: &mut Vec<TocNode>) {
        if let Some(done) = stack.pop() {
            match stack.last_mut() {
                Some(parent) => parent.children.push(done),
                None => roots.push(done),
            }
        }
    }
    for h in headings {
        let mut level = h.heading_level();
        if level == 0 {
            level = heading_level_of_markdown(&h.markdown);
        }
        let level = if (1..=6).contains(&level) { level } else { 6 };
        while stack.last().is_some_and(|open| open.level >= level) {
            close(&mut stack, &mut roots);
        }
        let content = if h.content.is_empty() {
            h.markdown.trim_start_matches('#').trim().to_string()
        } else {
            h.content.clone()
        };
        stack.push(TocNode {
            block_id: h.id.clone(),
            content,
            level,
            children: Vec::new(),
        });
    }
    while !stack.is_empty() {
        close(&mut stack, &mut roots);
    }
    roots
}

/// Describes every id: see the module docs for the host calls. `Err` for
/// an id of the wrong shape (`INVALID_BLOCK_ID`, before any host call), no
/// ids (`INVALID_ARGUMENT`), and host failures; ids that match nothing are
/// listed in `notFoundIds`.
pub async fn get_block_info<H: SiyuanHost>(
    args: &GetBlockInfoArgs,
    host: &H,
    options: &ContentOptions,
) -> Result<BlockInfoResult, Error> {
    let lang = options.lang;
    let ids = args.ids.to_vec();
    if ids.is_empty() {
        return Err(refuse(lang, Problem::NoIds));
    }
    for id in &ids {
        checked_id(id, "ids", lang)?;
    }
    require(
        host,
        &[
            Capability::GetBlocks,
            Capability::GetChildBlocks,
            Capability::GetBreadcrumb,
        ],
        lang,
    )?;
    let rows = fetch_blocks(host, &ids, lang).await?;
    let mut found: Vec<Block> = Vec::new();
    let mut not_found_ids = Vec::new();
    for (id, row) in ids.iter().zip(rows) {
        match row {
            Some(block) => found.push(block),
            None => not_found_ids.push(id.clone()),
        }
    }
    let blocks = if found.is_empty() {
        Vec::new()
    } else {
        Related::fetch(host, &found, lang).await?.infos(&found)
    };
    Ok(BlockInfoResult {
        blocks,
        not_found_ids,
    })
}

/// What getBlockInfo reads about the found blocks besides their rows, one
/// batched call each: child lists, documents' headings, breadcrumbs.
struct Related {
    /// The blocks that list children (documents, headings, containers),
    /// and their child lists in the same order.
    with_children: Vec<String>,
    children: Vec<Vec<ChildBlock>>,
    /// The documents, and their headings in the same order (`None` when
    /// the host has no `getDocHeadings` or there is no document).
    docs: Vec<String>,
    headings: Option<Vec<Vec<Block>>>,
    /// One breadcrumb per found block, in order.
    crumbs: Vec<Vec<BreadcrumbEntry>>,
}

impl Related {
    async fn fetch<H: SiyuanHost>(host: &H, found: &[Block], lang: Lang) -> Result<Self, Error> {
        let ids_where = |keep: fn(BlockKind) -> bool| -> Vec<String> {
            found
                .iter()
                .filter(|b| keep(b.kind()))
                .map(|b| b.id.clone())
                .collect()
        };
        let with_children = ids_where(lists_children);
        let children = if with_children.is_empty() {
            Vec::new()
        } else {
            fetch_children(host, &with_children, lang).await?
        };
        let docs = ids_where(|k| k == BlockKind::Document);
        let headings = if docs.is_empty() || !host.has(Capability::GetDocHeadings) {
            None
        } else {
            let lists = host
                .get_doc_headings(&docs)
                .await
                .map_err(|e| super::host_error(lang, &e))?;
            Some(super::one_per_id(
                lists,
                docs.len(),
                Capability::GetDocHeadings,
                lang,
            )?)
        };
        let found_ids: Vec<String> = found.iter().map(|b| b.id.clone()).collect();
        let crumbs = host
            .get_breadcrumb(&found_ids)
            .await
            .map_err(|e| super::host_error(lang, &e))?;
        let crumbs = super::one_per_id(crumbs, found_ids.len(), Capability::GetBreadcrumb, lang)?;
        Ok(Related {
            with_children,
            children,
            docs,
            headings,
            crumbs,
        })
    }

    /// Every found block's info, from its row and what was read about it.
    fn infos(&self, found: &[Block]) -> Vec<BlockInfo> {
        found
            .iter()
            .zip(&self.crumbs)
            .map(|(block, crumb)| {
                let kids = self
                    .with_children
                    .iter()
                    .position(|id| *id == block.id)
                    .and_then(|i| self.children.get(i));
                let heads = self.headings.as_ref().and_then(|lists| {
                    self.docs
                        .iter()
                        .position(|id| *id == block.id)
                        .and_then(|i| lists.get(i))
                });
                build_block_info(
                    block,
                    kids.map(Vec::as_slice),
                    heads.map(Vec::as_slice),
                    Some(crumb),
                )
            })
            .collect()
    }
}

/// The attributes section lists these row keys, in this order (the
/// plugin's: the row's keys sorted, without content, fcontent, markdown).
const ATTRIBUTE_KEYS: [&str; 18] = [
    "alias",
    "box",
    "created",
    "hash",
    "hpath",
    "ial",
    "id",
    "length",
    "memo",
    "name",
    "parent_id",
    "path",
    "root_id",
    "sort",
    "subtype",
    "tag",
    "type",
    "updated",
];

fn attribute_value(block: &Block, key: &str) -> String {
    match key {
        "alias" => block.alias.clone(),
        "box" => block.box_id.clone(),
        "created" => block.created.clone(),
        "hash" => block.hash.clone(),
        "hpath" => block.hpath.clone(),
        // Sorted by key: the kernel lists a block's attributes in a new
        // order on every read (KERNEL-FACTS §11).
        "ial" => crate::markdown::with_sorted_ials(&block.ial),
        "id" => block.id.clone(),
        "length" => block.length.to_string(),
        "memo" => block.memo.clone(),
        "name" => block.name.clone(),
        "parent_id" => block.parent_id.clone(),
        "path" => block.path.clone(),
        "root_id" => block.root_id.clone(),
        "sort" => block.sort.to_string(),
        "subtype" => block.subtype.clone(),
        "tag" => block.tag.clone(),
        "type" => block.type_.clone(),
        "updated" => block.updated.clone(),
        _ => String::new(),
    }
}

/// The agent-facing text (seed 000's layout): one block's text when one id
/// was asked for and found; otherwise a `---…---` header, every block's
/// text, and the ids not found.
pub fn format_block_info(info: &BlockInfoResult, options: &ContentOptions) -> String {
    let lang = options.lang;
    let missing = info.not_found_ids.join(", ");
    if info.blocks.is_empty() {
        return messages::info_none_found(lang, &missing);
    }
    if info.blocks.len() == 1 && info.not_found_ids.is_empty() {
        return format_one(&info.blocks[0], lang);
    }
    let mut out = messages::info_many_header(lang, info.blocks.len());
    out.push('\n');
    for (i, block) in info.blocks.iter().enumerate() {
        if i > 0 {
            out.push_str("\n\n");
        }
        out.push_str(&format_one(block, lang));
    }
    if !info.not_found_ids.is_empty() {
        out.push_str("\n\n");
        out.push_str(&messages::info_not_found_line(lang, &missing));
    }
    out
}

/// One block: sections that each end with a newline, separated by a blank
/// line.
fn format_one(info: &BlockInfo, lang: Lang) -> String {
    let block = &info.block;
    let mut sections: Vec<String> = Vec::new();

    let mut attrs = messages::info_heading(&info.id);
    attrs.push('\n');
    for key in ATTRIBUTE_KEYS {
        attrs.push_str("  ");
        attrs.push_str(messages::attribute_label(lang, key));
        attrs.push_str(": ");
        attrs.push_str(&attribute_value(block, key));
        attrs.push('\n');
    }
    sections.push(attrs);

    if block.kind() == BlockKind::Document {
        sections.push(format!(
            "{}\n",
            messages::info_document_content(&block.content)
        ));
    } else {
        let truncated =
            info.markdown_length as usize > info.markdown_preview.encode_utf16().count();
        sections.push(format!(
            "{}\n{}\n",
            messages::info_content_length(lang, info.content_length),
            messages::info_markdown_length(
                lang,
                info.markdown_length,
                &info.markdown_preview,
                truncated
            )
        ));
    }
    if let Some(count) = info.child_block_count {
        sections.push(format!("{}\n", messages::info_child_count(lang, count)));
    }
    if let Some(toc) = info.toc.as_ref().filter(|t| !t.is_empty()) {
        let mut s = format!("{}\n", messages::info_toc_title(lang));
        toc_lines(toc, 0, &mut s);
        sections.push(s);
    }
    if let Some(crumbs) = info.breadcrumb.as_ref().filter(|b| !b.is_empty()) {
        let mut s = format!("{}\n", messages::info_breadcrumb_title(lang));
        for c in crumbs {
            s.push_str(&format!("- [{}][{}] {}\n", c.id, c.type_, c.name));
        }
        sections.push(s);
    }
    sections.join("\n")
}

/// Depth is bounded by the 6 heading levels ([`build_toc`]); a tree built
/// elsewhere is cut at depth 6 too.
fn toc_lines(nodes: &[TocNode], depth: usize, out: &mut String) {
    for node in nodes {
        out.push_str(&"  ".repeat(depth));
        out.push_str(&format!("- {}[{}]\n", node.content, node.block_id));
        if depth < 5 {
            toc_lines(&node.children, depth + 1, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(id: &str, level: u8, text: &str) -> Block {
        Block {
            id: id.into(),
            type_: "h".into(),
            subtype: format!("h{level}"),
            content: text.into(),
            markdown: format!("{} {text}", "#".repeat(level as usize)),
            ..Block::default()
        }
    }

    #[test]
    fn toc_nests_by_level_in_the_given_order() {
        let toc = build_toc(&[
            h("a", 2, "A"),
            h("b", 3, "B"),
            h("c", 1, "C"),
            h("d", 4, "D"),
            h("e", 2, "E"),
        ]);
        let shape: Vec<(String, Vec<String>)> = toc
            .iter()
            .map(|n| {
                (
                    n.content.clone(),
                    n.children.iter().map(|c| c.content.clone()).collect(),
                )
            })
            .collect();
        assert_eq!(
            shape,
            vec![
                ("A".into(), vec!["B".into()]),
                ("C".into(), vec!["D".into(), "E".into()])
            ]
        );
    }

    #[test]
    fn previews_never_split_a_character() {
        assert_eq!(utf16_prefix("😀😀😀😀😀😀", 10), "😀😀😀😀😀");
        assert_eq!(utf16_prefix("a😀😀😀😀😀", 10), "a😀😀😀😀");
        assert_eq!(utf16_prefix("短", 10), "短");
    }

    #[test]
    fn ids_accept_text_or_list() {
        assert_eq!(BlockIds::Text(" a, b ,a,,".into()).to_vec(), vec!["a", "b"]);
        assert_eq!(
            BlockIds::List(vec!["a".into(), "b,c".into()]).to_vec(),
            vec!["a", "b", "c"]
        );
        let args: GetBlockInfoArgs = serde_json::from_str(r#"{"ids":["x","y"]}"#).unwrap();
        assert_eq!(args.ids.to_vec(), vec!["x", "y"]);
        let args: GetBlockInfoArgs = serde_json::from_str(r#"{"ids":"x,y"}"#).unwrap();
        assert_eq!(args.ids.to_vec(), vec!["x", "y"]);
    }
}
