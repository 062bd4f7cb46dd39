//! The host: the I/O the core asks for and never does itself.
//!
//! A host is whatever can reach SiYuan's data: in JavaScript, a plain
//! object of async functions (the binding layer adapts it to this trait);
//! in Rust tests, an in-memory double. Every method is batched where the
//! kernel allows it, so an operation's number of host calls does not grow
//! with the number of hunks.
//!
//! Methods a host does not provide keep their default body, which reports
//! the capability as missing; operations check [`SiyuanHost::has`] for every
//! callback they will need before they write anything.

#![allow(async_fn_in_trait)] // single-threaded (wasm) hosts: no Send bound wanted.

mod calls;
mod stored;

pub(crate) use calls::{fetch_blocks, fetch_children, host_error, one_per_id, require};
pub(crate) use stored::{kramdown_as_stored, rows_as_stored};

use crate::siyuan::{Block, BreadcrumbEntry, ChildBlock};

/// The JS names of host callbacks, as they appear in `HOST_ERROR` and
/// `HOST_CAPABILITY_MISSING` errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Capability {
    /// `getBlocks`: block rows by id.
    GetBlocks,
    /// `getChildBlocks`: child lists by id.
    GetChildBlocks,
    /// `getKramdown`: blocks' kramdown (markdown with IALs) by id.
    GetKramdown,
    /// `updateBlock`.
    UpdateBlock,
    /// `deleteBlock`.
    DeleteBlock,
    /// `insertBlock`.
    InsertBlock,
    /// `prependBlock`.
    PrependBlock,
    /// `appendBlock`.
    AppendBlock,
    /// `updateBlocks`: several updates in one request (the kernel's
    /// `batchUpdateBlock`: one transaction).
    UpdateBlocks,
    /// `insertBlocks`: several inserts in one request (`batchInsertBlock`).
    InsertBlocks,
    /// `prependBlocks`: several prepends in one request (`batchPrependBlock`).
    PrependBlocks,
    /// `appendBlocks`: several appends in one request (`batchAppendBlock`).
    AppendBlocks,
    /// `flushTransaction`: wait until queued writes reach the tree and the
    /// index.
    FlushTransaction,
    /// `getBreadcrumb`: where blocks sit.
    GetBreadcrumb,
    /// `createDoc`: a new document from markdown.
    CreateDoc,
    /// `createDailyNote`: today's daily note of a notebook.
    CreateDailyNote,
    /// `getDocHeadings`: a document's headings, in order.
    GetDocHeadings,
    /// Which of some ids other blocks reference (`refs.def_block_id`).
    GetReferencedIds,
    /// Lute's own split of markdown into top-level blocks (a host that has
    /// SiYuan's Lute; editkit's splitter otherwise).
    SplitMarkdown,
    /// The kernel's version (`/api/system/version`): whether its Lute
    /// decodes an HTML block's entities again on write (v3.7.3).
    GetKernelVersion,
    /// The optional LLM self-correction callback of the matcher (SPEC §6.6).
    Corrector,
}

impl Capability {
    /// The property name on the JS host object.
    pub fn js_name(self) -> &'static str {
        use Capability::*;
        match self {
            GetBlocks => "getBlocks",
            GetChildBlocks => "getChildBlocks",
            GetKramdown => "getKramdown",
            UpdateBlock => "updateBlock",
            DeleteBlock => "deleteBlock",
            InsertBlock => "insertBlock",
            PrependBlock => "prependBlock",
            AppendBlock => "appendBlock",
            UpdateBlocks => "updateBlocks",
            InsertBlocks => "insertBlocks",
            PrependBlocks => "prependBlocks",
            AppendBlocks => "appendBlocks",
            FlushTransaction => "flushTransaction",
            GetBreadcrumb => "getBreadcrumb",
            CreateDoc => "createDoc",
            CreateDailyNote => "createDailyNote",
            GetDocHeadings => "getDocHeadings",
            GetReferencedIds => "getReferencedIds",
            SplitMarkdown => "splitMarkdown",
            GetKernelVersion => "getKernelVersion",
            Corrector => "corrector",
        }
    }
}

/// A host callback failed: it threw, rejected, was missing, or returned
/// something that is not the documented shape.
#[derive(Clone, Debug, PartialEq)]
pub struct HostError {
    /// The callback that failed.
    pub capability: Capability,
    /// What it said (its exception's message, or what was wrong with its
    /// answer).
    pub message: String,
    /// True when the callback does not exist on the host.
    pub missing: bool,
    /// True when the callback did not settle within the caller's
    /// `timeoutMs` (the JS layer enforces it; the core has no clock).
    pub timeout: bool,
}

impl HostError {
    /// The callback failed with this message.
    pub fn new(capability: Capability, message: impl Into<String>) -> Self {
        HostError {
            capability,
            message: message.into(),
            missing: false,
            timeout: false,
        }
    }

    /// The callback did not settle in time.
    pub fn timed_out(capability: Capability, message: impl Into<String>) -> Self {
        HostError {
            timeout: true,
            ..HostError::new(capability, message)
        }
    }

    /// The host has no such callback.
    pub fn missing(capability: Capability) -> Self {
        HostError {
            capability,
            message: String::new(),
            missing: true,
            timeout: false,
        }
    }
}

/// What a host callback answers.
pub type HostResult<T> = Result<T, HostError>;

/// Where `insertBlock` puts new blocks (the kernel's `previousID`,
/// `nextID`, `parentID` parameters; exactly one is used).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InsertAnchor {
    /// Right after this block, as its next sibling.
    After(String),
    /// Right before this block.
    Before(String),
    /// As the first child of this container (the kernel's `parentID` alone;
    /// in a task item, after its checkbox).
    Parent(String),
}

/// What a successful write created: the ids of the new top-level blocks
/// (empty for updates and deletes).
pub type NewIds = Vec<String>;

/// The SiYuan I/O editkit needs. See the module docs.
pub trait SiyuanHost {
    /// Whether the host provides a callback (JS: a function-valued property).
    fn has(&self, capability: Capability) -> bool;

    /// One row per id, `None` where no block has that id; same order.
    async fn get_blocks(&self, ids: &[String]) -> HostResult<Vec<Option<Block>>> {
        let _ = ids;
        Err(HostError::missing(Capability::GetBlocks))
    }

    /// The child list of each id (`/api/block/getChildBlocks`), same order.
    async fn get_child_blocks(&self, ids: &[String]) -> HostResult<Vec<Vec<ChildBlock>>> {
        let _ = ids;
        Err(HostError::missing(Capability::GetChildBlocks))
    }

    /// The kramdown of each id (markdown with `{: …}` attribute lists),
    /// `None` where the block does not exist.
    async fn get_kramdown(&self, ids: &[String]) -> HostResult<Vec<Option<String>>> {
        let _ = ids;
        Err(HostError::missing(Capability::GetKramdown))
    }

    /// `/api/block/updateBlock`: rewrites the block with this markdown.
    async fn update_block(&self, id: &str, markdown: &str) -> HostResult<()> {
        let _ = (id, markdown);
        Err(HostError::missing(Capability::UpdateBlock))
    }

    /// `/api/block/deleteBlock`: deletes the block (with its children).
    async fn delete_block(&self, id: &str) -> HostResult<()> {
        let _ = id;
        Err(HostError::missing(Capability::DeleteBlock))
    }

    /// `/api/block/insertBlock`: the markdown's blocks at `anchor`; answers
    /// their ids.
    async fn insert_block(&self, markdown: &str, anchor: &InsertAnchor) -> HostResult<NewIds> {
        let _ = (markdown, anchor);
        Err(HostError::missing(Capability::InsertBlock))
    }

    /// `/api/block/prependBlock`: the markdown's blocks as the container's
    /// first children; answers their ids.
    async fn prepend_block(&self, parent_id: &str, markdown: &str) -> HostResult<NewIds> {
        let _ = (parent_id, markdown);
        Err(HostError::missing(Capability::PrependBlock))
    }

    /// `/api/block/appendBlock`: the markdown's blocks as the container's last
    /// children; answers their ids.
    async fn append_block(&self, parent_id: &str, markdown: &str) -> HostResult<NewIds> {
        let _ = (parent_id, markdown);
        Err(HostError::missing(Capability::AppendBlock))
    }

    /// Several `updateBlock`s in one request (`batchUpdateBlock`, one
    /// transaction). Optional: editkit writes block by block without it.
    async fn update_blocks(&self, updates: &[(String, String)]) -> HostResult<()> {
        let _ = updates;
        Err(HostError::missing(Capability::UpdateBlocks))
    }

    /// Several `insertBlock`s in one request (`batchInsertBlock`), in
    /// order: the ids each created, empty for one the kernel did not
    /// insert. Optional.
    async fn insert_blocks(&self, inserts: &[(String, InsertAnchor)]) -> HostResult<Vec<NewIds>> {
        let _ = inserts;
        Err(HostError::missing(Capability::InsertBlocks))
    }

    /// Several `prependBlock`s (parent id, markdown) in one request
    /// (`batchPrependBlock`): the ids each created. Optional.
    async fn prepend_blocks(&self, items: &[(String, String)]) -> HostResult<Vec<NewIds>> {
        let _ = items;
        Err(HostError::missing(Capability::PrependBlocks))
    }

    /// Several `appendBlock`s (parent id, markdown) in one request
    /// (`batchAppendBlock`): the ids each created. Optional.
    async fn append_blocks(&self, items: &[(String, String)]) -> HostResult<Vec<NewIds>> {
        let _ = items;
        Err(HostError::missing(Capability::AppendBlocks))
    }

    /// The breadcrumb of each id (`/api/block/getBlockBreadcrumb`, one
    /// request per id in the kernel), outermost first; an empty list where
    /// the block does not exist. Same order as `ids`.
    async fn get_breadcrumb(&self, ids: &[String]) -> HostResult<Vec<Vec<BreadcrumbEntry>>> {
        let _ = ids;
        Err(HostError::missing(Capability::GetBreadcrumb))
    }

    /// The heading blocks of each document **in document order** (the
    /// kernel's `sort` column is a type weight, not a position, so it cannot
    /// order them; `/api/outline/getDocOutline` flattened in pre-order can).
    /// Each row needs at least `id`, `subtype` (`"h2"`) or `markdown`, and
    /// `content` (the heading text). Same order as `doc_ids`. Optional: see
    /// `get_block_info`.
    async fn get_doc_headings(&self, doc_ids: &[String]) -> HostResult<Vec<Vec<Block>>> {
        let _ = doc_ids;
        Err(HostError::missing(Capability::GetDocHeadings))
    }

    /// Creates a document (`/api/filetree/createDocWithMd`) in `notebook`
    /// at the human-readable path `hpath`, under the document `parent_id`
    /// (`""`: the notebook root; hpaths are not unique, so the parent is
    /// named by id too), with `markdown` as its body. Returns the new id.
    async fn create_doc(
        &self,
        notebook: &str,
        hpath: &str,
        parent_id: &str,
        markdown: &str,
    ) -> HostResult<String> {
        let _ = (notebook, hpath, parent_id, markdown);
        Err(HostError::missing(Capability::CreateDoc))
    }

    /// Creates or gets today's daily note of `notebook`
    /// (`/api/filetree/createDailyNote`) and returns its document id.
    async fn create_daily_note(&self, notebook: &str) -> HostResult<String> {
        let _ = notebook;
        Err(HostError::missing(Capability::CreateDailyNote))
    }

    /// Makes earlier writes visible to reads (`/api/sqlite/flushTransaction`).
    /// Optional: a host without it is assumed to read its own writes.
    async fn flush_transaction(&self) -> HostResult<()> {
        Ok(())
    }

    /// The ids among `ids` that other blocks reference (a `((id))` link or
    /// an embed: the kernel's `refs` table, `def_block_id`), in any order.
    /// Optional: without it, editkit assumes every child a container
    /// rewrite would re-ID may be referenced.
    async fn get_referenced_ids(&self, ids: &[String]) -> HostResult<Vec<String>> {
        let _ = ids;
        Err(HostError::missing(Capability::GetReferencedIds))
    }

    /// The top-level blocks of `markdown` as SiYuan's Lute splits it.
    /// Optional: editkit's own splitter (held to Lute by a test) otherwise.
    async fn split_markdown(&self, markdown: &str) -> HostResult<Vec<String>> {
        let _ = markdown;
        Err(HostError::missing(Capability::SplitMarkdown))
    }

    /// The SiYuan kernel's version (`"3.7.3"`). Optional: without it,
    /// editkit assumes a kernel whose Lute decodes an HTML block's
    /// entities again on write (KERNEL-FACTS §13).
    async fn get_kernel_version(&self) -> HostResult<String> {
        Err(HostError::missing(Capability::GetKernelVersion))
    }
}
