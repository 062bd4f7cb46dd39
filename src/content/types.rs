//! The content tools' shared vocabulary: options, where things go, and
//! what can go wrong. A leaf: it imports no stage module and no
//! `messages`, so every stage and the messages can import it.

use crate::host::Capability;
use crate::{Details, ErrorCode, Lang};
use serde::Deserialize;

/// Options of every content tool.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ContentOptions {
    /// Language of messages, type labels and formatted text (default `en`).
    pub lang: Lang,
}

crate::wire::wire_enum! {
/// Where createNewDoc puts the new document, relative to the anchor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DocLocation {
    /// In the same folder as the anchor (its parent document, or the root).
    Siblings = "siblings",
    /// Inside the anchor document.
    Children = "children",
    /// Beside the anchor's parent document.
    Parent = "parent",
}
}

crate::wire::wire_enum! {
/// Where appendContent put the new blocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// Last children of a document or container (`appendBlock`).
    LastChild = "lastChild",
    /// After the last block of a heading's section (`insertBlock` with
    /// `previousID`).
    EndOfSection = "endOfSection",
    /// Right after a leaf block (`insertBlock` with `previousID`).
    NextSibling = "nextSibling",
}
}

/// Why a content tool refused, with what was wrong and where. The message
/// is rendered from it by `messages::render`; the `Error` is built from it
/// in one place (`content::refuse`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Problem {
    /// A host callback answered with something that is not a block id.
    HostBadId { capability: Capability, got: String },
    /// The argument `name` is not a block id.
    InvalidBlockId { name: String, value: String },
    /// getBlockInfo's `ids` holds no id.
    NoIds,
    /// appendContent's `markdown` is blank.
    EmptyMarkdown,
    /// createNewDoc's `title` is blank.
    EmptyTitle,
    /// The anchor document's `path` is not a SiYuan document path.
    MalformedPath { path: String },
    /// No block has this id.
    BlockNotFound { id: String },
    /// createNewDoc's anchor document does not exist.
    AnchorDocNotFound { id: String },
    /// createNewDoc's anchor is a block of another type; `root_id` is its
    /// document (empty when unknown).
    AnchorNotADocument {
        id: String,
        type_code: String,
        root_id: String,
    },
    /// appendContent with `targetType: "document"` names a block of
    /// another type.
    TargetNotADocument { id: String, type_code: String },
    /// `location: "parent"` for an anchor at the notebook root.
    NoParentDocument { id: String },
}

impl Problem {
    /// The stable code of the refusal.
    pub(crate) fn code(&self) -> ErrorCode {
        use Problem::*;
        match self {
            HostBadId { .. } => ErrorCode::HostError,
            InvalidBlockId { .. } => ErrorCode::InvalidBlockId,
            NoIds | EmptyMarkdown | EmptyTitle | MalformedPath { .. } => ErrorCode::InvalidArgument,
            BlockNotFound { .. } | AnchorDocNotFound { .. } => ErrorCode::BlockNotFound,
            AnchorNotADocument { .. } | TargetNotADocument { .. } => ErrorCode::NotADocument,
            NoParentDocument { .. } => ErrorCode::NoParentDocument,
        }
    }

    /// The typed details: the block the refusal is about (`blockId`) and
    /// what it names (`subject`: a callback, an argument, a type code).
    pub(crate) fn details(&self) -> Details {
        use Problem::*;
        let (block_id, name): (Option<&str>, Option<&str>) = match self {
            HostBadId { capability, .. } => (None, Some(capability.js_name())),
            InvalidBlockId { name, .. } => (None, Some(name)),
            NoIds => (None, Some("ids")),
            EmptyMarkdown => (None, Some("markdown")),
            EmptyTitle => (None, Some("title")),
            MalformedPath { .. } => (None, Some("anchorDoc.path")),
            BlockNotFound { id } | AnchorDocNotFound { id } | NoParentDocument { id } => {
                (Some(id), None)
            }
            AnchorNotADocument { id, type_code, .. } | TargetNotADocument { id, type_code } => {
                (Some(id), Some(type_code))
            }
        };
        Details {
            block_id: block_id.map(str::to_string),
            name: name.map(str::to_string),
            ..Details::default()
        }
    }
}
