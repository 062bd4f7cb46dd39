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
//! | [`matcher`] | find/replace that survives formatting slips, multi-block SEARCH/REPLACE, self-correction |

pub mod error;
pub mod host;
pub mod lang;
pub mod matcher;
pub mod siyuan;
pub mod text;

pub use error::{Details, Error, ErrorCode, LineRange, Result};
pub use lang::Lang;
pub use matcher::{
    apply_edits, apply_search_replace, find_match, replace_text, replace_text_with_correction, reset_stats, stats,
    CorrectionOptions, CorrectionRequest, Corrector, EditSpec, FindOptions, FindResult, Match, Mode, ReplaceOptions,
    ReplaceResult, SearchReplaceOptions, SearchReplaceReport, Strategy,
};
