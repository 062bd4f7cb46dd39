//! # editkit
//!
//! Precise, verifiable edits for AI agents, as a pure Rust core that a thin
//! WebAssembly binding exposes to JavaScript.
//!
//! The core parses, validates, matches, plans and diffs; the host performs
//! I/O through callbacks it supplies ([`host::SiyuanHost`]). Nothing here
//! touches the network, the file system or a clock, so every behaviour is
//! testable natively with `cargo test` and behaves identically in wasm.
//!
//! | module | capability |
//! |---|---|
//! | [`text`] | lines with their endings, BOM, UTF-16 offsets, diffs and similarity |
//! | [`siyuan`] | block rows, ids, block types |
//! | [`markdown`] | markdown blocks as the kernel's Lute reads them; IALs; container rewrites that keep children's ids |
//! | [`host`] | the I/O callbacks a host supplies |
//! | [`error`] | stable error codes with en/zh messages |
//! | [`block_diff`] | SiYuan block diffs: validate, check, apply, undo |
//! | [`slice`](mod@slice) | evaluateSlice: paging over a child list |
//! | [`content`] | getBlockContent, getBlockInfo, appendContent, createNewDoc |
//! | [`planner`] | file edits: prepare → apply with a hunk registry, overwrite/new-file guards, file views |
//! | [`matcher`] | find/replace that survives formatting slips, multi-block SEARCH/REPLACE, self-correction |

pub mod block_diff;
pub mod content;
pub mod error;
pub mod host;
pub mod lang;
pub mod markdown;
pub mod matcher;
pub mod planner;
pub mod siyuan;
pub mod slice;
pub mod text;
mod wire;

pub use error::{Details, Error, ErrorCode, LineRange, Result};
pub use lang::Lang;

#[cfg(target_arch = "wasm32")]
mod wasm;
