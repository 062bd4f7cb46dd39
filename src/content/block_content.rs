//! getBlockContent: a block's markdown in reading, locating (`showId`) or
//! fine-grained (`showSubStructure`) mode, optionally paged with a slice.
//!
//! Parameter coupling (seed 000, exactly):
//!
//! ```text
//! showSubStructure = slice ? true : (showSubStructure ?? false)
//! showId           = slice ? true : (showId ?? showSubStructure)
//! ```
//!
//! (`slice` counts when it has non-whitespace text.)
//!
//! What is listed, before the slice:
//! - a document: its children (documents have no markdown of their own);
//! - a heading: the heading, then its section (the blocks under it up to
//!   the next heading of the same or a higher level, as the kernel's
//!   `getChildBlocks` gives them);
//! - a container (list, list item, blockquote, superblock, callout) with
//!   `showSubStructure`: its children, one level (each child can then be
//!   read the same way);
//! - anything else: the block itself.
//!
//! Blocks are joined with a blank line; with `showId` each starts with a
//! `@@<id>@@<type label>` line that applyBlockDiff accepts as a hunk
//! header. With a slice the text starts with the `[Slice View]` line.

use serde::{Deserialize, Serialize};

use super::{
    checked_id, expansion, fetch_blocks, fetch_children, join_markdown, messages, refuse, require,
    shown_list, to_u32, ContentOptions, Expansion, Problem,
};
use crate::host::{Capability, SiyuanHost};
use crate::siyuan::{Block, BlockKind, ChildBlock};
use crate::slice::{empty_slice_message, slice_header, slice_range};
use crate::Error;

/// Arguments of getBlockContent (the agent's tool arguments).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct GetBlockContentArgs {
    /// The block to read (a document, heading, container or leaf).
    pub block_id: String,
    /// Print `@@id@@label` before each block (default: `showSubStructure`;
    /// forced on by a slice).
    pub show_id: Option<bool>,
    /// List a container's children instead of the container (default
    /// false; forced on by a slice).
    pub show_sub_structure: Option<bool>,
    /// A slice over the listed blocks (SPEC §4); `""` means no slice.
    pub slice: Option<String>,
}

/// The flags after the seed's coupling.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ViewFlags {
    /// Print `@@id@@label` before each block.
    pub show_id: bool,
    /// List a container's children instead of the container.
    pub show_sub_structure: bool,
    /// The slice, when one is in force (non-blank).
    pub slice: Option<String>,
}

/// Applies seed 000's coupling of `slice`, `showSubStructure` and `showId`.
pub fn resolve_view(args: &GetBlockContentArgs) -> ViewFlags {
    let slice = args.slice.as_deref().filter(|s| !s.trim().is_empty());
    let show_sub_structure = slice.is_some() || args.show_sub_structure.unwrap_or(false);
    let show_id = slice.is_some() || args.show_id.unwrap_or(show_sub_structure);
    ViewFlags {
        show_id,
        show_sub_structure,
        slice: slice.map(str::to_string),
    }
}

/// What [`render_block_content`] renders: the block's row and, when the
/// view lists children (documents, headings, containers with
/// sub-structure), its `getChildBlocks` list. Rendering trusts the list: an
/// empty one renders as an empty document or section.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct BlockContentSource {
    /// The block's row.
    pub block: Block,
    /// Its `getChildBlocks` list, when the view lists children (else empty).
    pub children: Vec<ChildBlock>,
}

/// The rendered view.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BlockContent {
    /// What the agent reads.
    pub text: String,
    /// The block that was read.
    pub block_id: String,
    /// The block's type code (`d`, `h`, `p`, …).
    #[serde(rename = "type")]
    pub block_type: String,
    /// Whether the text prints `@@id@@label` before each block.
    pub show_id: bool,
    /// Whether the text lists the block's children rather than the block.
    pub show_sub_structure: bool,
    /// The slice in force, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub slice: Option<String>,
    /// Ids of the blocks the text shows, in order.
    pub block_ids: Vec<String>,
    /// Number of blocks listed before the slice.
    pub total: u32,
}

/// Whether the view of `block` lists its children (so a caller knows to
/// fetch them before [`render_block_content`]).
pub fn needs_children(block: &Block, args: &GetBlockContentArgs) -> bool {
    expansion(block, resolve_view(args).show_sub_structure) != Expansion::Itself
}

/// Renders the view of one block. `Err` only for a bad slice
/// (`INVALID_SLICE`, `SLICE_ANCHOR_NOT_FOUND`).
pub fn render_block_content(
    source: &BlockContentSource,
    args: &GetBlockContentArgs,
    options: &ContentOptions,
) -> Result<BlockContent, Error> {
    let lang = options.lang;
    let flags = resolve_view(args);
    let block = &source.block;
    let list = shown_list(
        block,
        &source.children,
        expansion(block, flags.show_sub_structure),
    );
    let total = list.len();
    let range = match &flags.slice {
        Some(slice) => slice_range(&list, slice, lang)?,
        None => 0..total,
    };
    let shown = list.get(range).unwrap_or(&[]);
    let body = join_markdown(shown.iter().map(|s| s.markdown));
    let body = if flags.show_id {
        let mut out = String::with_capacity(body.len() + shown.len() * 40);
        for (i, s) in shown.iter().enumerate() {
            if i > 0 {
                out.push_str("\n\n");
            }
            out.push_str("@@");
            out.push_str(s.id);
            out.push_str("@@");
            out.push_str(BlockKind::from_code(s.type_).label(lang));
            out.push('\n');
            out.push_str(s.markdown);
        }
        out
    } else {
        body
    };
    let text = match &flags.slice {
        None => body,
        Some(_) if total > 0 && shown.is_empty() => {
            format!("({})", empty_slice_message(lang, total))
        }
        Some(slice) if total == 0 => {
            format!(
                "{}\n\n{}",
                slice_header(slice, 0),
                messages::no_children(lang, &block.id)
            )
        }
        Some(slice) => format!("{}\n\n{}", slice_header(slice, shown.len()), body),
    };
    Ok(BlockContent {
        text,
        block_id: block.id.clone(),
        block_type: block.type_.clone(),
        show_id: flags.show_id,
        show_sub_structure: flags.show_sub_structure,
        slice: flags.slice,
        block_ids: shown.iter().map(|s| s.id.to_string()).collect(),
        total: to_u32(total),
    })
}

/// Fetches the block (one `getBlocks` call) and, when the view lists
/// children, its child list (one `getChildBlocks` call), then renders.
/// Errors: `INVALID_BLOCK_ID`, `BLOCK_NOT_FOUND`, the slice errors,
/// `HOST_ERROR`, `HOST_CAPABILITY_MISSING`.
pub async fn get_block_content<H: SiyuanHost>(
    args: &GetBlockContentArgs,
    host: &H,
    options: &ContentOptions,
) -> Result<BlockContent, Error> {
    let lang = options.lang;
    let id = checked_id(&args.block_id, "blockId", lang)?.to_string();
    require(host, &[Capability::GetBlocks], lang)?;
    let ids = [id];
    let block = fetch_blocks(host, &ids, lang)
        .await?
        .into_iter()
        .next()
        .flatten()
        .ok_or_else(|| refuse(lang, Problem::BlockNotFound { id: ids[0].clone() }))?;
    let children = if needs_children(&block, args) {
        require(host, &[Capability::GetChildBlocks], lang)?;
        fetch_children(host, &ids, lang)
            .await?
            .into_iter()
            .next()
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    render_block_content(&BlockContentSource { block, children }, args, options)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Lang;

    fn args(show_id: Option<bool>, sub: Option<bool>, slice: Option<&str>) -> GetBlockContentArgs {
        GetBlockContentArgs {
            block_id: String::new(),
            show_id,
            show_sub_structure: sub,
            slice: slice.map(str::to_string),
        }
    }

    #[test]
    fn coupling_follows_seed_000() {
        let f = |a| {
            let v = resolve_view(&a);
            (v.show_id, v.show_sub_structure)
        };
        assert_eq!(f(args(None, None, None)), (false, false));
        assert_eq!(f(args(Some(true), None, None)), (true, false));
        assert_eq!(f(args(None, Some(true), None)), (true, true));
        assert_eq!(f(args(Some(false), Some(true), None)), (false, true));
        assert_eq!(f(args(Some(false), Some(false), Some("0:3"))), (true, true));
        assert_eq!(f(args(None, None, Some(""))), (false, false));
        assert_eq!(f(args(None, None, Some("  "))), (false, false));
    }

    fn row(id: &str, ty: &str, md: &str) -> Block {
        Block {
            id: id.into(),
            type_: ty.into(),
            markdown: md.into(),
            ..Block::default()
        }
    }

    fn child(id: &str, ty: &str, md: &str) -> ChildBlock {
        ChildBlock {
            id: id.into(),
            type_: ty.into(),
            markdown: md.into(),
            ..ChildBlock::default()
        }
    }

    #[test]
    fn labels_follow_the_language() {
        let source = BlockContentSource {
            block: row("20240101000000-docaaaa", "d", ""),
            children: vec![child("20240101000000-itemaaa", "i", "- x")],
        };
        let a = args(Some(true), None, None);
        let en = render_block_content(&source, &a, &ContentOptions { lang: Lang::En }).unwrap();
        let zh = render_block_content(&source, &a, &ContentOptions { lang: Lang::Zh }).unwrap();
        assert_eq!(en.text, "@@20240101000000-itemaaa@@list item\n- x");
        assert_eq!(zh.text, "@@20240101000000-itemaaa@@列表项\n- x");
    }

    #[test]
    fn cjk_and_emoji_pass_through_untouched() {
        let md = "表情 😀👍🏽 与 中文\r\n第二行";
        let source = BlockContentSource {
            block: row("20240101000000-para111", "p", md),
            children: vec![],
        };
        let out = render_block_content(
            &source,
            &args(None, None, Some("0:1")),
            &ContentOptions::default(),
        )
        .unwrap();
        assert!(out.text.ends_with(md));
        assert_eq!(out.total, 1);
    }
}
