//! The SiYuan reading and writing tools (SPEC §5, seed 000 §1–§4):
//! getBlockContent, getBlockInfo, appendContent and createNewDoc.
//!
//! One file per tool, each with a pure part (rendering, formatting, path
//! planning: no host, testable on plain data) and an async part that drives
//! the [`SiyuanHost`] callbacks:
//!
//! | tool | pure | async | host calls |
//! |---|---|---|---|
//! | getBlockContent | [`render_block_content`] | [`get_block_content`] | `getBlocks` + `getChildBlocks` when the view lists children |
//! | getBlockInfo | [`build_block_info`], [`format_block_info`] | [`get_block_info`] | at most 4, whatever the number of ids |
//! | appendContent | [`plan_append`] | [`append_content`] | 2–3 (one write) |
//! | createNewDoc | [`plan_new_doc_path`] | [`create_new_doc`] | `getBlocks` + `createDoc` |
//!
//! Refusals are data: each is a `Problem` (`types.rs`, a leaf module with
//! the shared options and placements) carrying what was wrong and where;
//! `messages::render` words it in both languages, and `refuse` builds the
//! `Error` from it, the one place that does.
//!
//! Invariants: every host read is batched (one call for many ids); every
//! callback an operation needs is checked before anything is written;
//! nothing here panics on any input (ids are validated with the kernel's
//! strict pattern before reaching a host, lengths are counted in UTF-16 code
//! units as JavaScript counts them, previews never split a character).
//!
//! Deliberate differences from the original plugin (each is tested in
//! `tests/suite/content.rs` with its reason):
//! - type labels follow `lang` (the plugin always printed Chinese ones);
//! - a document's outline is built from its headings in document order,
//!   not from the kernel's `sort` column (a type weight, equal for every
//!   heading, so it orders nothing);
//! - appendContent on a heading writes after the last block of the
//!   heading's section, and on a leaf right after the leaf (the plugin
//!   called `appendBlock`, which kernel ≥ 3.7 rejects, and reported success
//!   anyway); a host write that fails is an error, never a success;
//! - slice on a leaf pages over the leaf itself (the plugin printed an empty
//!   view with `Count: 0`), and on an empty list says there are no children;
//! - errors carry codes, and messages add what to do next after the
//!   plugin's wording.

mod append;
mod block_content;
mod block_info;
mod messages;
mod new_doc;
mod types;

pub use append::{
    append_content, plan_append, AppendContentArgs, AppendContentResult, AppendPlan, AppendSource,
    AppendTarget,
};
pub use block_content::{
    get_block_content, needs_children, render_block_content, resolve_view, BlockContent,
    BlockContentSource, GetBlockContentArgs, ViewFlags,
};
pub use block_info::{
    build_block_info, build_toc, format_block_info, get_block_info, BlockIds, BlockInfo,
    BlockInfoResult, BlockInfoSource, BreadcrumbItem, GetBlockInfoArgs, TocNode, PREVIEW_UNITS,
};
pub use new_doc::{
    create_new_doc, plan_new_doc_path, CreateNewDocArgs, CreateNewDocResult, NewDocPathArgs,
    NewDocPlan,
};

pub use types::{ContentOptions, DocLocation, Placement};

pub(crate) use crate::host::{fetch_blocks, fetch_children, host_error, one_per_id, require};
use crate::siyuan::{Block, ChildBlock};
use crate::{Error, Lang};
use types::Problem;

/// The one place a content tool's `Error` is made: the problem's code and
/// details, and its message rendered in `lang`.
fn refuse(lang: Lang, problem: Problem) -> Error {
    let mut error = Error::new(problem.code(), messages::render(&problem, lang));
    *error.details = problem.details();
    error
}

/// Length of `s` in UTF-16 code units (what JavaScript's `length` says).
pub(crate) fn utf16_len(s: &str) -> u32 {
    u32::try_from(s.encode_utf16().count()).unwrap_or(u32::MAX)
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Trims and validates one id argument.
fn checked_id<'a>(id: &'a str, name: &str, lang: Lang) -> Result<&'a str, Error> {
    let id = id.trim();
    if crate::siyuan::is_block_id(id) {
        Ok(id)
    } else {
        Err(refuse(
            lang,
            Problem::InvalidBlockId {
                name: name.to_string(),
                value: id.to_string(),
            },
        ))
    }
}

/// What the reading view of a block shows, before any slice: the block
/// itself, its children (documents; containers with sub-structure), or the
/// heading followed by its section.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expansion {
    Itself,
    Children,
    Section,
}

fn expansion(block: &Block, show_sub_structure: bool) -> Expansion {
    use crate::siyuan::BlockKind;
    let kind = block.kind();
    match kind {
        BlockKind::Document => Expansion::Children,
        BlockKind::Heading => Expansion::Section,
        k if k.is_container() && show_sub_structure => Expansion::Children,
        _ => Expansion::Itself,
    }
}

/// One block as the view lists it.
struct Shown<'a> {
    id: &'a str,
    type_: &'a str,
    markdown: &'a str,
}

fn shown_list<'a>(block: &'a Block, children: &'a [ChildBlock], how: Expansion) -> Vec<Shown<'a>> {
    let own = Shown {
        id: &block.id,
        type_: &block.type_,
        markdown: &block.markdown,
    };
    let kids = children.iter().map(|c| Shown {
        id: &c.id,
        type_: &c.type_,
        markdown: &c.markdown,
    });
    match how {
        Expansion::Itself => vec![own],
        Expansion::Children => kids.collect(),
        Expansion::Section => std::iter::once(own).chain(kids).collect(),
    }
}

impl crate::slice::SliceItem for Shown<'_> {
    fn slice_id(&self) -> &str {
        self.id
    }
}

/// The reading-mode text of a block (what getBlockContent shows with no
/// flags): its markdown, a heading's section, a document's children.
fn reading_text(block: &Block, children: &[ChildBlock]) -> String {
    let list = shown_list(block, children, expansion(block, false));
    join_markdown(list.iter().map(|s| s.markdown))
}

fn join_markdown<'a>(parts: impl Iterator<Item = &'a str>) -> String {
    let mut out = String::new();
    for (i, part) in parts.enumerate() {
        if i > 0 {
            out.push_str("\n\n");
        }
        out.push_str(part);
    }
    out
}
