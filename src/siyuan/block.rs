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
    /// The block's id (`20240614083000-a1b2c3d`).
    pub id: String,
    /// Its parent block's id (empty for a document).
    pub parent_id: String,
    /// Its document's id.
    pub root_id: String,
    /// Its notebook's id (`box`).
    #[serde(rename = "box")]
    pub box_id: String,
    /// Its document's storage path (`/id1/id2.sy`).
    pub path: String,
    /// Its document's human-readable path (`/Parent/Title`).
    pub hpath: String,
    /// The `name` attribute.
    pub name: String,
    /// The `alias` attribute.
    pub alias: String,
    /// The `memo` attribute.
    pub memo: String,
    /// Its tags, as the index lists them.
    pub tag: String,
    /// Its plain text.
    pub content: String,
    /// The plain text of a container's first child.
    pub fcontent: String,
    /// Its markdown, without IALs (as the index holds it).
    pub markdown: String,
    /// Length of `content`, as the kernel counts it.
    pub length: i64,
    /// The type code (`d`, `h`, `p`, `l`, `i`, …; see [`BlockKind`]).
    #[serde(rename = "type")]
    pub type_: String,
    /// The subtype (`h1`…`h6`; `o`, `u`, `t` for lists and items), or empty.
    pub subtype: String,
    /// Its attributes as an inline attribute list (`{: id="…" …}`).
    pub ial: String,
    /// The kernel's sort weight of its type.
    pub sort: i64,
    /// Creation time, `YYYYMMDDHHMMSS`.
    pub created: String,
    /// Last update time, `YYYYMMDDHHMMSS`.
    pub updated: String,
    /// The kernel's hash of its content.
    pub hash: String,
}

impl Block {
    /// The block's type.
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
    /// The child's id.
    pub id: String,
    /// Its type code (`p`, `h`, `l`, …).
    #[serde(rename = "type")]
    pub type_: String,
    /// Its subtype (`h1`…`h6`, `o`/`u`/`t`), or empty.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub sub_type: String,
    /// Its plain text, when the kernel sends it.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub content: String,
    /// Its markdown, when the kernel sends it.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub markdown: String,
}

impl ChildBlock {
    /// The child's type.
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
    /// The block at this level.
    pub id: String,
    /// Its name: `notebook/hpath` for a document, its text for other levels,
    /// empty for the block itself.
    pub name: String,
    /// The AST node name (`NodeDocument`, `NodeHeading`, …).
    #[serde(rename = "type")]
    pub type_: String,
    /// Its subtype (`h1`…`h6`, `o`/`u`/`t`), or empty.
    pub sub_type: String,
}

impl BreadcrumbEntry {
    /// The level's block type, from its node name.
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
    fn every_column_reads_back_what_serialising_wrote() {
        // Distinct values in every field: a column the hand-written reader
        // misnames, or forgets, comes back empty.
        let row = Block {
            id: "20240614083112-h2jz8kq".into(),
            parent_id: "p".into(),
            root_id: "r".into(),
            box_id: "b".into(),
            path: "/a/b.sy".into(),
            hpath: "/A/B".into(),
            name: "n".into(),
            alias: "al".into(),
            memo: "m".into(),
            tag: "#t#".into(),
            content: "内容 😀".into(),
            fcontent: "fc".into(),
            markdown: "**md**\r\n".into(),
            length: 42,
            type_: "p".into(),
            subtype: "s".into(),
            ial: "{: id=\"x\"}".into(),
            sort: -7,
            created: "20240101000000".into(),
            updated: "20240102000000".into(),
            hash: "h".into(),
        };
        let json = serde_json::to_string(&row).unwrap();
        assert_eq!(serde_json::from_str::<Block>(&json).unwrap(), row);
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(Block::deserialize(value).unwrap(), row);
    }

    #[test]
    fn a_value_of_the_wrong_type_is_an_error() {
        for bad in [
            r#"{"id":5}"#,
            r#"{"markdown":null}"#,
            r#"{"length":"x"}"#,
            "7",
        ] {
            assert!(serde_json::from_str::<Block>(bad).is_err(), "{bad}");
        }
        assert_eq!(
            serde_json::from_str::<Block>("{}").unwrap(),
            Block::default()
        );
    }

    #[test]
    fn heading_level_falls_back_to_markdown() {
        assert_eq!(heading_level_of_markdown("### x"), 3);
        assert_eq!(heading_level_of_markdown("#x"), 0);
        assert_eq!(heading_level_of_markdown("####### x"), 0);
    }
}
