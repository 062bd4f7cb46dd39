//! Telemetry counters (SPEC §6.6): which strategy located each edit, how
//! searches failed, and how self-corrections ended. Kept per thread (wasm
//! is single-threaded); read with [`stats`], cleared with [`reset_stats`].

use std::cell::Cell;

use serde::Serialize;

use super::types::Strategy;

/// Successful locations per strategy (the names are the strategy names).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct StrategyCounts {
    /// Finds by `exact`.
    pub exact: u32,
    /// Finds by `line_endings`.
    pub line_endings: u32,
    /// Finds by `trimmed_boundaries`.
    pub trimmed_boundaries: u32,
    /// Finds by `trailing_whitespace`.
    pub trailing_whitespace: u32,
    /// Finds by `indentation`.
    pub indentation: u32,
    /// Finds by `whitespace_normalized`.
    pub whitespace_normalized: u32,
    /// Finds by `unicode_normalized`.
    pub unicode_normalized: u32,
    /// Finds by `escape_normalized`.
    pub escape_normalized: u32,
    /// Finds by `prose`.
    pub prose: u32,
    /// Finds by `token_flexible`.
    pub token_flexible: u32,
    /// Finds by `context_anchored`.
    pub context_anchored: u32,
    /// Finds by `block_similarity`.
    pub block_similarity: u32,
}

/// Outcomes of `replace_text_with_correction`'s correction step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CorrectionCounts {
    /// The corrected edit applied.
    pub success: u32,
    /// The corrected edit failed too (the original error was returned).
    pub failure: u32,
    /// The corrector said the change is already there.
    pub no_change: u32,
    /// The corrector's answer held no usable JSON object.
    pub invalid_answer: u32,
    /// The corrector callback threw or rejected.
    pub host_error: u32,
    /// Answers served from the cache instead of calling the host.
    pub cache_hits: u32,
}

/// Everything counted since the last [`reset_stats`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Stats {
    /// Finds per strategy.
    pub strategies: StrategyCounts,
    /// Searches no strategy located.
    pub not_found: u32,
    /// Searches located at several places.
    pub ambiguous: u32,
    /// Edits refused as already applied.
    pub already_applied: u32,
    /// What self-correction did.
    pub corrections: CorrectionCounts,
}

thread_local! {
    static STATS: Cell<Stats> = Cell::new(Stats::default());
}

/// The counters so far.
pub fn stats() -> Stats {
    STATS.with(Cell::get)
}

/// Sets every counter to zero.
pub fn reset_stats() {
    STATS.with(|s| s.set(Stats::default()));
}

pub(crate) fn update(f: impl FnOnce(&mut Stats)) {
    STATS.with(|cell| {
        let mut s = cell.get();
        f(&mut s);
        cell.set(s);
    });
}

pub(crate) fn count_strategy(strategy: Strategy) {
    update(|s| {
        let c = &mut s.strategies;
        let slot = match strategy {
            Strategy::Exact => &mut c.exact,
            Strategy::LineEndings => &mut c.line_endings,
            Strategy::TrimmedBoundaries => &mut c.trimmed_boundaries,
            Strategy::TrailingWhitespace => &mut c.trailing_whitespace,
            Strategy::Indentation => &mut c.indentation,
            Strategy::WhitespaceNormalized => &mut c.whitespace_normalized,
            Strategy::UnicodeNormalized => &mut c.unicode_normalized,
            Strategy::EscapeNormalized => &mut c.escape_normalized,
            Strategy::Prose => &mut c.prose,
            Strategy::TokenFlexible => &mut c.token_flexible,
            Strategy::ContextAnchored => &mut c.context_anchored,
            Strategy::BlockSimilarity => &mut c.block_similarity,
            // A patch hunk's placement, not the matcher's.
            Strategy::ContextFuzz => return,
        };
        *slot = slot.saturating_add(1);
    });
}
