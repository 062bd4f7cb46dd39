//! Text primitives every capability shares: lines with their own endings,
//! BOM handling, UTF-16 offsets, line diffs (Myers), and similarity
//! ratios from a bit-parallel LCS.
//!
//! Invariants: every function here is total (no panics on any `&str`) and
//! never slices a string except at a `char` boundary. Positions inside the
//! core are UTF-8 byte offsets; results expose UTF-16 offsets (what JS
//! string indices count), counted with [`utf16_len`].

mod diff;
mod hash;
mod lcs;
mod lines;
mod offsets;
pub(crate) mod swar;

pub use diff::{
    align_lines, sequence_ratio, similarity, unified_diff, unified_diff_excerpt, LineLink,
    UnifiedDiffOptions,
};
pub(crate) use hash::{hash_bytes, HashedKeyMap, StableMap, StableSet};
pub(crate) use lcs::lcs_len;
pub(crate) use lines::find_pair;
pub use lines::{
    detect_line_ending, line_count, lines_with_endings, split_bom, trim_blank_lines, Line,
    LineEnding, BOM,
};
pub use offsets::{floor_char_boundary, utf16_len};
