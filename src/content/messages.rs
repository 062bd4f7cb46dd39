//! Every message and every piece of agent-facing text the content tools
//! produce, in English and Chinese side by side. A refusal is worded by
//! [`render`], whose `match` names every [`Problem`] and hands its fields
//! to one function, grouped by kind below (the arguments, the host, the
//! blocks and documents named); every other text is one function, grouped
//! by tool. Only formatting happens here; the data comes from `types` (a
//! leaf), so no stage module is imported.
//!
//! Where the original plugin had a text (its Chinese errors, its
//! getBlockInfo layout, its createNewDoc confirmation), the Chinese version
//! starts with that exact wording; errors then add what to do next.

use crate::siyuan::{BlockKind, BLOCK_ID_EXAMPLE};
use crate::Lang;

use super::types::{DocLocation, Placement, Problem};

// ---- refusals ------------------------------------------------------------------

/// The message of a refusal, in `lang`. Only formats: what the refusal is
/// and where come from `problem`; a block type's label is written in `lang`.
/// Every variant is named (no wildcard), so a new one does not compile
/// until it has its words; each is one function below, by kind.
pub fn render(problem: &Problem, lang: Lang) -> String {
    use Problem::*;
    match problem {
        InvalidBlockId { value, .. } => invalid_block_id(lang, value),
        NoIds => no_ids(lang),
        EmptyMarkdown => empty_markdown(lang),
        EmptyTitle => empty_title(lang),
        HostBadId { capability, got } => host_bad_id(lang, capability.js_name(), got),
        BlockNotFound { id } => block_not_found(lang, id),
        AnchorDocNotFound { id } => anchor_doc_not_found(lang, id),
        MalformedPath { path } => malformed_path(lang, path),
        AnchorNotADocument {
            id,
            type_code,
            root_id,
        } => anchor_not_a_document(lang, id, type_code, root_id),
        TargetNotADocument { id, type_code } => target_not_a_document(lang, id, type_code),
        NoParentDocument { .. } => no_parent_document(lang),
    }
}

// ---- the arguments ----------------------------------------------------------------

/// The argument is not a block id.
fn invalid_block_id(lang: Lang, value: &str) -> String {
    match lang {
        Lang::En => format!("Invalid ID format: {value}. A block id is 14 digits, a dash and 7 lowercase letters or digits, e.g. {BLOCK_ID_EXAMPLE}."),
        Lang::Zh => format!("无效的ID格式: {value}。块 ID 由 14 位数字、一个短横线和 7 位小写字母或数字组成，例如 {BLOCK_ID_EXAMPLE}。"),
    }
}

/// getBlockInfo's `ids` holds no id.
fn no_ids(lang: Lang) -> String {
    lang.pick(
        "Argument `ids` is empty: give one block id, or several separated by commas.",
        "参数 `ids` 为空：请提供一个块 ID，或用逗号分隔的多个块 ID。",
    )
    .to_string()
}

/// appendContent's `markdown` is blank.
fn empty_markdown(lang: Lang) -> String {
    lang.pick(
        "Argument `markdown` is empty: there is nothing to append.",
        "参数 `markdown` 为空：没有可追加的内容。",
    )
    .to_string()
}

/// createNewDoc's `title` is blank.
fn empty_title(lang: Lang) -> String {
    lang.pick(
        "Argument `title` is empty: give the new document a title.",
        "参数 `title` 为空：请为新文档提供标题。",
    )
    .to_string()
}

// ---- the host ---------------------------------------------------------------------

/// The host callback `name` answered with something that is not a block
/// id.
fn host_bad_id(lang: Lang, name: &str, got: &str) -> String {
    match lang {
        Lang::En => format!("The host callback `{name}` returned '{got}', which is not a block id; it must resolve to the new document's id."),
        Lang::Zh => format!("宿主回调 `{name}` 返回了 '{got}'，不是块 ID；它必须返回新文档的 ID。"),
    }
}

// ---- the blocks and documents named -----------------------------------------------

/// No block has this id.
fn block_not_found(lang: Lang, id: &str) -> String {
    match lang {
        Lang::En => {
            format!("Block not found: {id}. Check the id; the block may have been deleted.")
        }
        Lang::Zh => format!("未找到块: {id}。请检查 ID；该块可能已被删除。"),
    }
}

/// createNewDoc's anchor document does not exist.
fn anchor_doc_not_found(lang: Lang, id: &str) -> String {
    match lang {
        Lang::En => format!(
            "Anchor document not found: {id}. Check the id; the document may have been deleted."
        ),
        Lang::Zh => format!("未找到锚点文档: {id}。请检查 ID；该文档可能已被删除。"),
    }
}

/// The anchor document's `path` is not a SiYuan document path.
fn malformed_path(lang: Lang, path: &str) -> String {
    match lang {
        Lang::En => format!("The anchor document's `path` '{path}' is not a SiYuan document path (/<id>/…/<id>.sy), so its parent cannot be determined."),
        Lang::Zh => format!("锚点文档的 `path` '{path}' 不是思源文档路径（/<ID>/…/<ID>.sy），无法确定其父文档。"),
    }
}

/// createNewDoc's anchor is a block of another type; `root_id` is its
/// document (empty when unknown).
fn anchor_not_a_document(lang: Lang, id: &str, type_code: &str, root_id: &str) -> String {
    let label = BlockKind::from_code(type_code).label(lang);
    let next = if root_id.is_empty() || root_id == id {
        String::new()
    } else {
        match lang {
            Lang::En => format!(" Its document is {root_id}: pass that id to place the new document relative to it."),
            Lang::Zh => format!("它所在的文档是 {root_id}：如需相对该文档放置新文档，请传入这个 ID。"),
        }
    };
    match lang {
        Lang::En => format!(
            "The anchor ID is not a document but a block of type {type_code} ({label}).{next}"
        ),
        Lang::Zh => {
            format!("锚点 ID 不是文档类型，而是 {type_code} 类型的块（{label}）。{next}")
        }
    }
}

/// appendContent with `targetType: "document"` names a block of another
/// type.
fn target_not_a_document(lang: Lang, id: &str, type_code: &str) -> String {
    let label = BlockKind::from_code(type_code).label(lang);
    match lang {
        Lang::En => format!("Target {id} is not a document but a block of type {type_code} ({label}). Use targetType \"block\" to append relative to this block, or pass its document's id (root_id)."),
        Lang::Zh => format!("目标 {id} 不是文档，而是 {type_code} 类型的块（{label}）。如需相对该块追加，请使用 targetType \"block\"；或传入它所在文档的 ID（root_id）。"),
    }
}

/// `location: "parent"` for an anchor at the notebook root.
fn no_parent_document(lang: Lang) -> String {
    lang.pick(
        "The anchor document is at the notebook root and has no parent document. To create a document at the notebook root, use location \"siblings\".",
        "锚点文档位于笔记本根目录，没有父文档。如需在笔记本根目录创建文档，请使用 location \"siblings\"。",
    )
    .to_string()
}

// ---- getBlockContent -----------------------------------------------------------

/// The reading view of a slice over an empty child list.
pub fn no_children(lang: Lang, id: &str) -> String {
    match lang {
        Lang::En => format!("(Block {id} has no child blocks.)"),
        Lang::Zh => format!("（块 {id} 没有子块。）"),
    }
}

// ---- getBlockInfo ----------------------------------------------------------------

pub fn info_heading(id: &str) -> String {
    format!("=== Block [{id}] attributes ===")
}

/// The label of a row attribute in the attributes section (the plugin
/// explained five keys in Chinese and printed the others as they are).
pub fn attribute_label(lang: Lang, key: &'static str) -> &'static str {
    match (lang, key) {
        (Lang::Zh, "box") => "笔记本ID(box)",
        (Lang::Zh, "id") => "块ID",
        (Lang::Zh, "parent_id") => "父块ID(parent_id)",
        (Lang::Zh, "root_id") => "文档ID(root_id)",
        (Lang::Zh, "type") => "块类型(type)",
        (Lang::En, "box") => "box (notebook ID)",
        (Lang::En, "id") => "id (block ID)",
        (Lang::En, "parent_id") => "parent_id (parent block ID)",
        (Lang::En, "root_id") => "root_id (document ID)",
        (Lang::En, "type") => "type (block type)",
        _ => key,
    }
}

pub fn info_document_content(content: &str) -> String {
    format!("content: {content}")
}

pub fn info_content_length(lang: Lang, length: u32) -> String {
    match lang {
        Lang::En => format!("content length: {length}"),
        Lang::Zh => format!("content长度: {length}"),
    }
}

pub fn info_markdown_length(lang: Lang, length: u32, preview: &str, truncated: bool) -> String {
    let dots = if truncated { "..." } else { "" };
    match lang {
        Lang::En => format!("markdown length: {length} (preview: \"{preview}{dots}\")"),
        Lang::Zh => format!("内部 markdown 长度: {length} (预览: \"{preview}{dots}\")"),
    }
}

pub fn info_child_count(lang: Lang, count: u32) -> String {
    match lang {
        Lang::En => format!("child block count: {count}"),
        Lang::Zh => format!("容器内部子块数量: {count}"),
    }
}

pub fn info_toc_title(lang: Lang) -> &'static str {
    lang.pick("document outline:", "文档标题大纲:")
}

pub fn info_breadcrumb_title(lang: Lang) -> &'static str {
    lang.pick(
        "breadcrumb (the block's place in its document):",
        "当前块在文档中的面包屑层级关系:",
    )
}

pub fn info_many_header(lang: Lang, found: usize) -> String {
    match lang {
        Lang::En => format!("---Block info ({found} found)---"),
        Lang::Zh => format!("---块信息 (共 {found} 个)---"),
    }
}

pub fn info_not_found_line(lang: Lang, ids: &str) -> String {
    match lang {
        Lang::En => format!("[not found] {ids}"),
        Lang::Zh => format!("[未找到] {ids}"),
    }
}

pub fn info_none_found(lang: Lang, ids: &str) -> String {
    match lang {
        Lang::En => format!("No block found: {ids}"),
        Lang::Zh => format!("未找到任何块: {ids}"),
    }
}

// ---- appendContent / createNewDoc ------------------------------------------------

pub fn appended(lang: Lang, target: &str, placement: Placement, count: usize) -> String {
    use Placement::*;
    match (lang, placement) {
        (Lang::En, LastChild) => {
            format!("Appended {count} block(s) as the last children of {target}.")
        }
        (Lang::Zh, LastChild) => format!("已将 {count} 个块追加为 {target} 的最后子块。"),
        (Lang::En, EndOfSection) => {
            format!("Appended {count} block(s) at the end of heading {target}'s section.")
        }
        (Lang::Zh, EndOfSection) => {
            format!("已将 {count} 个块追加到标题 {target} 所辖内容的末尾。")
        }
        (Lang::En, NextSibling) => format!("Inserted {count} block(s) right after block {target}."),
        (Lang::Zh, NextSibling) => format!("已在块 {target} 之后插入 {count} 个块。"),
    }
}

fn location_label(lang: Lang, location: DocLocation) -> &'static str {
    match location {
        DocLocation::Siblings => lang.pick("siblings", "同级"),
        DocLocation::Children => lang.pick("children", "子文档"),
        DocLocation::Parent => lang.pick("parent", "父级同级"),
    }
}

pub fn created_doc(lang: Lang, hpath: &str, doc_id: &str, location: DocLocation) -> String {
    let where_ = location_label(lang, location);
    match lang {
        Lang::En => {
            format!("Created document [{hpath}](siyuan://blocks/{doc_id}) (location: {where_})")
        }
        Lang::Zh => format!("已成功创建文档 [{hpath}](siyuan://blocks/{doc_id}) (位置: {where_})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_type_label_is_written_in_the_message_language() {
        let problem = Problem::TargetNotADocument {
            id: "20240101000000-para111".into(),
            type_code: "p".into(),
        };
        assert!(render(&problem, Lang::En).contains("(paragraph)"));
        assert!(render(&problem, Lang::Zh).contains("（段落）"));
    }
}
