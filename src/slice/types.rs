//! What can go wrong in a slice, as data. A leaf: the evaluator and the
//! messages both import it.

use crate::{Details, ErrorCode};

/// Why a part of a slice was not understood.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SyntaxProblem<'a> {
    /// More than one `:`.
    TooManyParts,
    /// A part that is neither an id, an integer, `BEGIN` nor `END`.
    UnknownPart(&'a str),
    /// `END` as the start or `BEGIN` as the end of a range.
    MisplacedKeyword(&'a str),
    /// A bare word that is not an id or an integer (e.g. `BEGIN` alone).
    NotASingle(&'a str),
}

/// Why a slice was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Problem<'a> {
    /// `slice` is not a slice, for `why`.
    InvalidSlice {
        slice: &'a str,
        why: SyntaxProblem<'a>,
    },
    /// The anchor `id` is not among the children.
    AnchorNotFound { id: &'a str },
}

impl Problem<'_> {
    /// The stable code the host sees.
    pub(crate) fn code(&self) -> ErrorCode {
        match self {
            Problem::InvalidSlice { .. } => ErrorCode::InvalidSlice,
            Problem::AnchorNotFound { .. } => ErrorCode::SliceAnchorNotFound,
        }
    }

    /// The argument at fault, or the anchor's block id.
    pub(crate) fn details(&self) -> Details {
        let mut details = Details::default();
        match self {
            Problem::InvalidSlice { .. } => details.name = Some("slice".into()),
            Problem::AnchorNotFound { id } => details.block_id = Some((*id).to_string()),
        }
        details
    }
}
