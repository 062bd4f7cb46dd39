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
//! | [`host`] | the I/O callbacks a host supplies |
//! | [`error`] | stable error codes with en/zh messages |
//! | [`slice`](mod@slice) | evaluateSlice: paging over a child list |
//! | [`content`] | getBlockContent, getBlockInfo, appendContent, createNewDoc |

pub mod error;
pub mod host;
pub mod lang;
pub mod block_diff;
pub mod content;
pub mod siyuan;
pub mod slice;
pub mod text;

pub use error::{Details, Error, ErrorCode, LineRange, Result};
pub use lang::Lang;
pub use content::{
    append_content, build_block_info, create_new_doc, format_block_info, get_block_content, get_block_info,
    plan_new_doc_path, render_block_content, AppendContentArgs, AppendContentResult, AppendTarget, BlockContent,
    BlockContentSource, BlockInfo, BlockInfoResult, ContentOptions, CreateNewDocArgs, CreateNewDocResult,
    DocLocation, GetBlockContentArgs, GetBlockInfoArgs, NewDocPathArgs, NewDocPlan, Placement,
};
pub use slice::{evaluate_slice, SliceOptions, SliceResult};
