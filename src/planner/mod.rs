//! The file-edit planner (SPEC §7, seed 001's `ws_mod` toolset): plan an
//! edit, review its diff, apply it once.
//!
//! ```
//! use editkit::{
//!     ContextMatch, FileApplyOptions, FileEditSession, FileEditSessionOptions, RangeEditOptions,
//! };
//!
//! let mut session = FileEditSession::new(FileEditSessionOptions { id_prefix: "s1".into(), ..Default::default() });
//! let plan = session
//!     .prepare_range_edit(
//!         RangeEditOptions {
//!             path: "notes.md".into(),
//!             content: Some("one\ntwo\nthree\n".into()),
//!             range: "2".into(),
//!             new_text: "TWO".into(),
//!             owner: "agent".into(),
//!             ..Default::default()
//!         },
//!         1_000.0, // the host's now(), in ms
//!     )
//!     .unwrap();
//! assert_eq!(plan.hunk_id, "s1-1");
//! // … the file changed meanwhile: a line was added at the top.
//! let applied = session
//!     .apply(
//!         FileApplyOptions {
//!             hunk_id: plan.hunk_id.clone(),
//!             owner: "agent".into(),
//!             content: Some("zero\none\ntwo\nthree\n".into()),
//!             ..Default::default()
//!         },
//!         2_000.0,
//!     )
//!     .unwrap();
//! assert_eq!(applied.context_match, ContextMatch::Fuzz);
//! assert_eq!(applied.content, "zero\none\nTWO\nthree\n");
//! ```
//!
//! # The pieces
//!
//! - [`FileEditSession`]: `prepare_range_edit`, `prepare_append`,
//!   `prepare_insert_after`, `prepare_insert_before`,
//!   `prepare_block_replace` (each may revise its own earlier plan with
//!   `existing_hunk_id`: same tool, same owner, same file), and `apply`.
//! - Free functions: [`check_overwrite`], [`check_new_file`],
//!   [`format_file_view`], and the range grammar [`parse_line_range`].
//!
//! Every plan and apply returns the YAML summary of seed 001 §8 (stable
//! field names), a unified diff with 3 lines of context, the agent text
//! combining both, and the same data as typed fields. A refusal is an
//! [`crate::Error`] whose `details.yaml` is the agent text (`status:
//! error`); a rejected apply is a result (`context_match: rejected`).
//!
//! # Invariants
//!
//! - **No clock, no entropy.** Every method that needs time takes
//!   `now_ms` (the host's `now()`). Hunk ids are the session prefix plus a
//!   base-36 counter (`"lx3k9a-1"`): short, and distinct across sessions
//!   whose prefixes differ (the host passes `randomId()` or
//!   [`id_prefix_from_now`]).
//! - **Text fidelity.** BOM, each line's own ending and the bytes outside
//!   the edit are kept. New text takes the file's dominant line ending and
//!   always ends with one. In a file that mixes CRLF and LF the new lines
//!   are aligned with the lines they replace: a line kept as it was keeps
//!   its own ending, a changed line the ending of the line it replaces, an
//!   added line the ending of the nearest kept or changed line (else the
//!   replaced lines' most common one, else the line before the edit's), so
//!   an added or removed line shifts no other line's ending.
//! - **Every line ends with a newline** (seed 001's hard rule, followed
//!   since revision 2): a missing final newline is added, in the file's
//!   ending, by every apply, wherever the edit is — not only when the edit
//!   reaches the end (reported as `normalized_file_eof_newline_added`).
//! - **Apply once.** A successful apply consumes its plan; a retry gets
//!   `HUNK_NOT_FOUND` (never a second insertion). A rejected apply, and a
//!   refused one, change nothing and keep the plan.
//! - **Ordering.** `apply` is synchronous over the content it is given; the
//!   host serialises applies per path (`withPathLock`). Plans carry a
//!   creation sequence (`seq`, also the id's counter);
//!   [`FileEditSession::apply_order`] sorts waiting hunk ids into creation
//!   order, so a host that runs several applies to one path issued in the
//!   same tick in that order lands them in the order they were planned,
//!   each relocating over the ones before. The order is the host's to
//!   keep: `apply` itself applies any live plan it is given, whenever.
//! - **Cost.** Linear in the file per call: KMP over lines for relocation,
//!   diffs only over the changed window.
//!
//! # Non-goals
//!
//! No I/O (the host reads and writes), no locking (the host's
//! `withPathLock`), no persistence (plans live in the session's memory and
//! are lost with it), no patch language beyond whole-line edits.
//!
//! # How `apply` relocates
//!
//! See [`apply`](self::apply) (private) for the full rule; in short:
//! `exact` when the file is the one the plan was made on, or when the
//! planned lines and their context are where the plan saw them and nowhere
//! else; `fuzz` when the plan's whole window — its context lines before,
//! the planned lines, its context lines after — stands, in order, at
//! exactly one other place: as written, or else reformatted as the
//! matcher's safe strategies see it (trailing or inner whitespace, line
//! endings, typographic characters, a uniformly changed indentation), as
//! whole lines (`located_by: safe_strategy`, see
//! `apply::safe::relocate_with_safe_strategies`; the new text is written as
//! planned, or re-indented like the window when the window was found
//! re-indented); `rejected` otherwise — `AMBIGUOUS_MATCH` with every place
//! listed when the window stands at several, shifted or not (one of them
//! may be the planned place), `CONTENT_CHANGED` when it stands nowhere. A
//! place holding only some of the context, or the planned lines alone, is
//! never taken (SPEC §7, revision 2: a plan whose context moved, vanished
//! or was copied is planned again, not guessed). At the start or the end
//! of the file the window has context on one side only; that context is
//! what must stand at exactly one place. A plan with no context line at
//! all (its span is the whole file) has only the file's edges: once the
//! file changed, it is taken only where its lines are still the whole
//! file (as written, or under the safe strategies), else `rejected`
//! (`CONTENT_CHANGED`). A successful apply carries the applying owner's
//! other plans in this session for the same file, made on the same
//! content, over its change (`apply::rebase`): their position moves by
//! the splice's own line range (never by comparing the two texts, which
//! misplaces plans among repeated lines) and their context is re-read in
//! the new content, so edits planned from one read apply in turn even
//! where one's context holds lines another changed; plans whose planned
//! lines the change touched are left to be rejected. Other owners' plans
//! are not carried: they never saw the change, and relocate by the rule
//! above. Appends are `exact` when the file is unchanged since the plan,
//! `fuzz` otherwise.
//!
//! # Decisions where the spec is silent
//!
//! - `includeAnchors`, `requireUnique`, `strict` (block replace): several
//!   blocks without `occurrence` are refused only when `requireUnique` and
//!   `strict` are both true (both default true); otherwise the first block
//!   is used. Nested anchors are always refused (`NESTED_ANCHORS`).
//! - `match: "equals"` ignores trailing whitespace; leading indentation
//!   counts.
//! - A range on an empty file addresses its one empty line (`1`, `~`,
//!   `1~`); `2~` appends. Its apply is exact only if the file is still
//!   byte-for-byte the same, otherwise rejected.
//! - A plan whose TTL passed is `HUNK_NOT_FOUND` with `reason: expired`
//!   (in the YAML and `details.reason`), as seed 001 §9.2 has it ("hunk
//!   过期/已应用/不存在"), not a code of its own; the summary says it
//!   expired and `next` says to re-read and plan again (en and zh).
//!   `HUNK_PATH_MISMATCH` when `existingHunkId` names a plan for another
//!   file.
//! - Final newline (seed 001 §7.1, a hard rule there): every plan and
//!   every apply of a file lacking a final newline ends it with one, in the
//!   file's own line ending (CRLF in a CRLF file), wherever the edit is —
//!   not only when the edit reaches the end. Reported as
//!   `normalized.normalized_file_eof_newline_added: true` (with
//!   `file_eof_has_newline: false`) in the plan's and the apply's YAML, as
//!   seed 001 §7.1/§8 name them, and shown in the diff (the last line,
//!   `\ No newline at end of file` on the old side, in a hunk of its own
//!   when the change is far from the end); new text lacking one is reported as
//!   `normalized_content_eof_newline_added`. A result with no lines at
//!   all stays empty.
//! - Relocation when the window already stood at several places when the
//!   plan was made: the unchanged file takes the plan at its line numbers
//!   (`exact`); once the file changed, the places cannot be told apart and
//!   the apply is `rejected` (`AMBIGUOUS_MATCH`).
//! - Relocation of a re-indented window: the planned new lines are
//!   re-indented by the matcher's own re-expression of the window's change
//!   (SPEC §6.1 `indentation`); when that is not well defined, or would
//!   touch a context line, the apply is `rejected` (`CONTENT_CHANGED`).
//!   Blank lines at the window's edges must be blank lines next to the
//!   match (the matcher leaves them out of its match).

mod anchor;
mod apply;
mod doc;
mod guards;
pub(crate) mod lenient;
mod messages;
mod prepare;
mod problem;
mod range;
mod registry;
mod render;
mod session;
mod types;
mod view;
mod yaml;

pub use guards::{check_new_file, check_overwrite, detect_patch_kinds};
pub use problem::PatchKind;
pub use range::{parse_line_range, LineRangeSpec, ResolvedRange};
pub use registry::id_prefix_from_now;
pub use session::FileEditSession;
pub use types::{
    AnchorMatch, AppendBlanklineStyle, AppendOptions, ApplyBlock, ApplyEvidence, ApplyInsert,
    BlockReplaceOptions, BlockReplacePlan, ContextMatch, FileAppendPlan, FileApplyOptions,
    FileApplyResult, FileEditSessionOptions, FileView, FileViewOptions, InsertBlanklineStyle,
    InsertOptions, InsertPlan, LineCounts, LocatedBy, NewFileCheck, NewFileOptions, Normalized,
    Occurrence, OverwriteCheck, OverwriteOptions, PendingHunk, PlanAction, PlanMode, PlanResult,
    Position, RangeEditOptions, RangePlan, RejectReason, ReplaceSlice, Span, APPLY_MODE,
    DEFAULT_TTL_MS,
};
pub use view::{format_file_view, DEFAULT_MAX_LINES};
