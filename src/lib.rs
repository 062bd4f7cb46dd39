//! # editkit
//!
//! Precise, verifiable edits for AI agents, as a pure Rust core that a thin
//! WebAssembly binding exposes to JavaScript.
//!
//! The core parses, validates, matches, plans and diffs; the host performs
//! I/O through callbacks it supplies ([`SiyuanHost`]). Nothing here
//! touches the network, the file system or a clock, so every behaviour is
//! testable natively with `cargo test` and behaves identically in wasm.
//!
//! Everything is at the crate root; the modules are private, one per
//! capability:
//!
//! | capability | entry points |
//! |---|---|
//! | SiYuan block diffs: validate, check, apply, undo | [`apply_block_diff`], [`validate_block_diff_format`], [`parse_block_diff`] |
//! | paging over a child list | [`evaluate_slice`] |
//! | reading and adding SiYuan content | [`get_block_content`], [`get_block_info`], [`append_content`], [`create_new_doc`] |
//! | file edits: prepare → apply, overwrite/new-file guards, file views | [`FileEditSession`], [`check_overwrite`], [`check_new_file`], [`format_file_view`] |
//! | find/replace that survives formatting slips, SEARCH/REPLACE, self-correction | [`find_match`], [`replace_text`], [`apply_search_replace`], [`apply_edits`], [`replace_text_with_correction`] |
//! | codex `*** Begin Patch` envelopes and unified diffs, placed by the same safe strategies | [`plan_patch`], [`plan_unified_diff`], [`parse_patch`], [`parse_unified_diff`] |
//! | the I/O a host supplies | [`SiyuanHost`] |
//! | stable error codes with en/zh messages | [`Error`], [`ErrorCode`] |

#![warn(missing_docs)]

mod block_diff;
mod content;
mod error;
mod host;
// Read only by the wasm binding (and the tests).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
mod lang;
mod markdown;
mod matcher;
mod patch;
mod planner;
mod siyuan;
mod slice;
mod text;
mod wire;

// Each capability's surface is the explicit `pub use` list of its module.
pub use block_diff::*;
pub use content::*;
pub use matcher::*;
pub use patch::*;
pub use planner::*;
pub use slice::*;

pub use error::{Details, Error, ErrorCode, LineRange, Result};
pub use host::{Capability, HostError, HostResult, InsertAnchor, NewIds, SiyuanHost};
pub use lang::Lang;
pub use markdown::render_ial;
pub use siyuan::{is_block_id, Block, BlockKind, BreadcrumbEntry, ChildBlock};
pub use text::{unified_diff, UnifiedDiffOptions};

#[cfg(target_arch = "wasm32")]
mod wasm;
