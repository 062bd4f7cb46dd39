//! appendContent: adds markdown at the end of a daily note, a document or
//! relative to a block, without touching existing content.
//!
//! Where it goes (the rule applyBlockDiff's `@@APPEND:id@@` follows):
//! - `dailynote`: the host creates or gets today's note of the notebook
//!   `target`, then the markdown becomes its last blocks;
//! - `document`: the last blocks of the document (`target` must be one);
//! - `block`: a document or container (list, list item, blockquote,
//!   superblock, callout) gets the markdown as its last children; a heading
//!   gets it after the last block of its section (the blocks under it up to
//!   the next heading of the same or a higher level), or right after the
//!   heading when the section is empty; any other block gets it as its next
//!   sibling.
//!
//! Host calls: `createDailyNote` + `appendBlock`; `getBlocks` +
//! `appendBlock`; `getBlocks` (+ `getChildBlocks` for a heading) +
//! `appendBlock` or `insertBlock`. Exactly one write. A write the host
//! reports as failed (the kernel's non-zero `code`) is `HOST_ERROR`, never a
//! success.

use serde::{Deserialize, Serialize};

use super::{
    checked_id, fetch_blocks, fetch_children, messages, refuse, require, ContentOptions, Placement,
    Problem,
};
use crate::host::{Capability, InsertAnchor, SiyuanHost};
use crate::siyuan::{Block, BlockKind, ChildBlock};
use crate::{Error, Lang};

crate::wire::wire_enum! {
/// What `target` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AppendTarget {
    /// A notebook id: append to today's daily note in it.
    Dailynote = "dailynote",
    /// A document id.
    Document = "document",
    /// Any block id.
    Block = "block",
}
}

/// Arguments of appendContent.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AppendContentArgs {
    /// The markdown to add (one or more blocks).
    pub markdown: String,
    /// What `target` names: today's daily note of a notebook, a document, or a block.
    pub target_type: AppendTarget,
    /// A notebook id (`dailynote`) or a block id.
    pub target: String,
}

/// The result of [`append_content`].
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AppendContentResult {
    /// Always true in a result (failures are errors).
    pub success: bool,
    /// The block the content was added to or after (for `dailynote`, the
    /// daily note's document id).
    pub target_id: String,
    /// What the target was, as asked.
    pub target_type: AppendTarget,
    /// Where the new blocks went relative to the target.
    pub placement: Placement,
    /// Ids of the blocks created, as the host reported them.
    pub new_block_ids: Vec<String>,
    /// One line an agent can read.
    pub summary: String,
}

/// The write [`append_content`] will make for a block.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AppendPlan {
    /// Where the new blocks go relative to the target.
    pub placement: Placement,
    /// `LastChild`: the container; otherwise the block to insert after.
    pub anchor_id: String,
}

/// What [`plan_append`] needs, for hosts that already hold it (the JS
/// `planAppend`): the target block's row and, for a heading, its section
/// as `getChildBlocks` lists it.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct AppendSource {
    /// The target block's row.
    pub block: Block,
    /// For a heading, its section as `getChildBlocks` lists it (else empty).
    pub section: Vec<ChildBlock>,
}

impl AppendSource {
    /// [`plan_append`], once the block's id is a block id
    /// (`INVALID_BLOCK_ID` otherwise).
    pub fn plan(&self, lang: Lang) -> Result<AppendPlan, Error> {
        checked_id(&self.block.id, "source.block.id", lang)?;
        Ok(plan_append(&self.block, &self.section))
    }
}

/// Where markdown appended to `block` goes; `section` is the heading's
/// `getChildBlocks` list (ignored for other blocks).
pub fn plan_append(block: &Block, section: &[ChildBlock]) -> AppendPlan {
    let kind = block.kind();
    if kind.is_container() {
        AppendPlan {
            placement: Placement::LastChild,
            anchor_id: block.id.clone(),
        }
    } else if kind == BlockKind::Heading {
        let last = section
            .last()
            .map_or_else(|| block.id.clone(), |c| c.id.clone());
        AppendPlan {
            placement: Placement::EndOfSection,
            anchor_id: last,
        }
    } else {
        AppendPlan {
            placement: Placement::NextSibling,
            anchor_id: block.id.clone(),
        }
    }
}

/// Appends `markdown` (see the module docs for where). Errors:
/// `INVALID_ARGUMENT` (blank markdown), `INVALID_BLOCK_ID`,
/// `BLOCK_NOT_FOUND`, `NOT_A_DOCUMENT` (`document` naming another block),
/// `HOST_CAPABILITY_MISSING` (before any write), `HOST_ERROR`.
pub async fn append_content<H: SiyuanHost>(
    args: &AppendContentArgs,
    host: &H,
    options: &ContentOptions,
) -> Result<AppendContentResult, Error> {
    let lang = options.lang;
    if args.markdown.trim().is_empty() {
        return Err(refuse(lang, Problem::EmptyMarkdown));
    }
    let target = checked_id(&args.target, "target", lang)?.to_string();
    let (target_id, plan) = match args.target_type {
        AppendTarget::Dailynote => plan_daily_note(host, &target, lang).await?,
        AppendTarget::Document | AppendTarget::Block => {
            let only_documents = args.target_type == AppendTarget::Document;
            let plan = plan_for_block(host, &target, only_documents, lang).await?;
            (target, plan)
        }
    };
    let new_block_ids = write_planned(host, &plan, &args.markdown, lang).await?;
    Ok(AppendContentResult {
        success: true,
        summary: messages::appended(lang, &target_id, plan.placement, new_block_ids.len()),
        target_id,
        target_type: args.target_type,
        placement: plan.placement,
        new_block_ids,
    })
}

/// `dailynote`: today's note of notebook `notebook` (created by the host
/// if needed), and the plan to append as its last blocks.
async fn plan_daily_note<H: SiyuanHost>(
    host: &H,
    notebook: &str,
    lang: Lang,
) -> Result<(String, AppendPlan), Error> {
    require(
        host,
        &[Capability::CreateDailyNote, Capability::AppendBlock],
        lang,
    )?;
    let doc = host
        .create_daily_note(notebook)
        .await
        .map_err(|e| super::host_error(lang, &e))?;
    let doc = doc.trim().to_string();
    if !crate::siyuan::is_block_id(&doc) {
        return Err(refuse(
            lang,
            Problem::HostBadId {
                capability: Capability::CreateDailyNote,
                got: doc,
            },
        ));
    }
    let plan = AppendPlan {
        placement: Placement::LastChild,
        anchor_id: doc.clone(),
    };
    Ok((doc, plan))
}

/// `document` or `block`: fetches the target (and a heading's section) and
/// plans where the markdown goes; `only_documents` refuses any other block.
async fn plan_for_block<H: SiyuanHost>(
    host: &H,
    target: &str,
    only_documents: bool,
    lang: Lang,
) -> Result<AppendPlan, Error> {
    require(host, &[Capability::GetBlocks], lang)?;
    let ids = [target.to_string()];
    let block = fetch_blocks(host, &ids, lang)
        .await?
        .into_iter()
        .next()
        .flatten()
        .ok_or_else(|| {
            refuse(
                lang,
                Problem::BlockNotFound {
                    id: target.to_string(),
                },
            )
        })?;
    let kind = block.kind();
    if only_documents && kind != BlockKind::Document {
        return Err(refuse(
            lang,
            Problem::TargetNotADocument {
                id: target.to_string(),
                type_code: block.type_.clone(),
            },
        ));
    }
    let section = if kind == BlockKind::Heading {
        require(
            host,
            &[Capability::GetChildBlocks, Capability::InsertBlock],
            lang,
        )?;
        fetch_children(host, &ids, lang)
            .await?
            .into_iter()
            .next()
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    Ok(plan_append(&block, &section))
}

/// The one write: `appendBlock` for last children, `insertBlock` after the
/// anchor otherwise. Returns the new blocks' ids.
async fn write_planned<H: SiyuanHost>(
    host: &H,
    plan: &AppendPlan,
    markdown: &str,
    lang: Lang,
) -> Result<Vec<String>, Error> {
    match plan.placement {
        Placement::LastChild => {
            require(host, &[Capability::AppendBlock], lang)?;
            host.append_block(&plan.anchor_id, markdown).await
        }
        Placement::EndOfSection | Placement::NextSibling => {
            require(host, &[Capability::InsertBlock], lang)?;
            host.insert_block(markdown, &InsertAnchor::After(plan.anchor_id.clone()))
                .await
        }
    }
    .map_err(|e| super::host_error(lang, &e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(ty: &str) -> Block {
        Block {
            id: "20240101000000-target1".into(),
            type_: ty.into(),
            ..Block::default()
        }
    }

    #[test]
    fn placement_follows_the_block_kind() {
        let section = [ChildBlock {
            id: "20240101000000-last001".into(),
            ..ChildBlock::default()
        }];
        for ty in ["d", "l", "i", "b", "s", "callout"] {
            assert_eq!(
                plan_append(&block(ty), &section).placement,
                Placement::LastChild,
                "{ty}"
            );
        }
        let h = plan_append(&block("h"), &section);
        assert_eq!(
            (h.placement, h.anchor_id.as_str()),
            (Placement::EndOfSection, "20240101000000-last001")
        );
        let empty = plan_append(&block("h"), &[]);
        assert_eq!(empty.anchor_id, "20240101000000-target1");
        for ty in ["p", "c", "t", "m", "tb", "query_embed", "unknown"] {
            assert_eq!(
                plan_append(&block(ty), &[]).placement,
                Placement::NextSibling,
                "{ty}"
            );
        }
    }
}
