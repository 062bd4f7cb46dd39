//! Markdown as the SiYuan kernel's Lute parses it, with the kernel's
//! settings (KERNEL-FACTS §6): no setext headings, no indented code, IAL
//! lines (`{: …}`) that close the block above and belong to it, `{{…}}`
//! embeds, `{{{row … }}}` superblocks, `> [!NOTE]` callouts, and only
//! `<div`, `<iframe`, `<video` and `<audio` HTML starting a block inside a
//! paragraph.
//!
//! [`parse`] gives the block tree with line positions, which the block-diff
//! engine uses to split a replacement the way the kernel will (the kernel's
//! `updateBlock` keeps only the first top-level block), to know whether a
//! body is a list item, and to rewrite a container from its kramdown with
//! every kept child's IAL restated (so the kernel keeps their ids). The
//! splitter is held to Lute itself by a test table (`tests/node/lute-split`)
//! and a host may hand editkit Lute's own split instead (`splitMarkdown`).
//!
//! Non-goals: inline syntax, link reference definitions (the kernel turns
//! them off), exact CommonMark tab stops (a tab counts as four columns).

mod blocks;
mod canonical;
mod ial;
mod restate;

pub(crate) use blocks::{list_marker, source_lines};
pub use blocks::{
    own_text, parse, root_attrs, split_blocks, unclosed_fence, Detail, IalPlace, Node,
};
pub use canonical::same_markdown;
pub use ial::{
    ial_id, in_written_order, is_ial_line, parse_ial, render_ial, same_kramdown, strip_ial,
    strip_inline_item_ial, with_ials_in_written_order, with_sorted_ials, Attrs,
};
pub(crate) use restate::root_of;
pub use restate::{restate_children, set_root_ial, ChildFate, Descendant};
