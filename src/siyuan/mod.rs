//! SiYuan's data model as the kernel serves it: block rows, child lists,
//! block ids and block types. Shared by the block-diff engine and the
//! content tools; no I/O here.

mod block;
mod id;
mod kind;

pub use block::{heading_level_of_markdown, Block, BreadcrumbEntry, ChildBlock};
pub use id::{is_block_id, BLOCK_ID_EXAMPLE};
pub use kind::BlockKind;
