//! Block rows and child-list entries, exactly as the kernel serves them, so
//! an adapter passes them through unchanged.

use serde::{Deserialize, Serialize};

use super::BlockKind;

/// One row of the kernel's `blocks` table as `/api/query/sql` returns it
/// (snake_case keys). Unknown keys are ignored; missing keys default to
/// empty, so hosts may send only what they have (`id`, `type`, `markdown`
/// at least).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Block {
    pub id: String,
    pub parent_id: String,
    pub root_id: String,
    #[serde(rename = "box")]
    pub box_id: String,
    pub path: String,
    pub hpath: String,
    pub name: String,
    pub alias: String,
    pub memo: String,
    pub tag: String,
    pub content: String,
    pub fcontent: String,
    pub markdown: String,
    pub length: i64,
    #[serde(rename = "type")]
    pub type_: String,
    pub subtype: String,
    pub ial: String,
    pub sort: i64,
    pub created: String,
    pub updated: String,
    pub hash: String,
}

impl Block {
    pub fn kind(&self) -> BlockKind {
        BlockKind::from_code(&self.type_)
    }

    /// Heading level 1–6 from `subtype` (`"h2"` → 2); 0 for non-headings.
    pub fn heading_level(&self) -> u8 {
        if self.kind() != BlockKind::Heading {
            return 0;
        }
        self.subtype
            .strip_prefix('h')
            .and_then(|n| n.parse::<u8>().ok())
            .filter(|n| (1..=6).contains(n))
            .unwrap_or_else(|| heading_level_of_markdown(&self.markdown))
    }
}

/// Level of an ATX heading line (`## T` → 2), 0 when it is not one.
pub fn heading_level_of_markdown(markdown: &str) -> u8 {
    let hashes = markdown.bytes().take_while(|&b| b == b'#').count();
    let after = markdown.as_bytes().get(hashes);
    if (1..=6).contains(&hashes) && matches!(after, None | Some(b' ') | Some(b'\t')) {
        hashes as u8
    } else {
        0
    }
}

/// One entry of `/api/block/getChildBlocks` (`{id, type, subType?,
/// content?, markdown?}`, omitempty). For a heading the kernel lists the
/// blocks under it up to the next heading of the same or a higher level.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ChildBlock {
    pub id: String,
    #[serde(rename = "type")]
    pub type_: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub sub_type: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub content: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub markdown: String,
}

impl ChildBlock {
    pub fn kind(&self) -> BlockKind {
        BlockKind::from_code(&self.type_)
    }
}

/// One level of `/api/block/getBlockBreadcrumb` (`{id, name, type,
/// subType, children}`; `type` is the AST node name such as
/// `"NodeHeading"`, `children` is ignored). The kernel leaves `name` empty
/// for the block itself and names a document by `notebook/hpath`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct BreadcrumbEntry {
    pub id: String,
    pub name: String,
    #[serde(rename = "type")]
    pub type_: String,
    pub sub_type: String,
}

impl BreadcrumbEntry {
    pub fn kind(&self) -> BlockKind {
        BlockKind::from_node_type(&self.type_)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixture_rows_deserialise_and_unknown_keys_are_ignored() {
        let row: Block = serde_json::from_str(
            r###"{"id":"20240614083112-h2jz8kq","type":"h","subtype":"h2","markdown":"## 本周进展","box":"20240101090000-k3m9xzq","sort":5,"future_column":1}"###,
        )
        .unwrap();
        assert_eq!(row.box_id, "20240101090000-k3m9xzq");
        assert_eq!(row.heading_level(), 2);
        assert_eq!(row.kind(), BlockKind::Heading);
    }

    #[test]
    fn heading_level_falls_back_to_markdown() {
        assert_eq!(heading_level_of_markdown("### x"), 3);
        assert_eq!(heading_level_of_markdown("#x"), 0);
        assert_eq!(heading_level_of_markdown("####### x"), 0);
    }
}
