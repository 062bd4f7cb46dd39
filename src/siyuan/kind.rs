//! Block types: the kernel's one-letter codes, container rules and the
//! readable names agents see in `@@id@@label` headers.

use crate::Lang;

/// A block's type (`blocks.type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BlockKind {
    /// `d`: a document.
    Document,
    /// `h`: a heading (its section is the blocks under it, not its children).
    Heading,
    /// `p`: a paragraph.
    Paragraph,
    /// `l`: a list (its children are list items).
    List,
    /// `i`: a list item.
    ListItem,
    /// `b`: a blockquote.
    Blockquote,
    /// `s`: a superblock (a layout of blocks).
    Superblock,
    /// `callout`: a callout.
    Callout,
    /// `c`: a code block.
    Code,
    /// `t`: a table.
    Table,
    /// `m`: a math block.
    Math,
    /// `tb`: a thematic break (`---`).
    ThematicBreak,
    /// `html`: an HTML block.
    Html,
    /// `query_embed`: an embedded query.
    Embed,
    /// `av`: a database view.
    AttributeView,
    /// `video`.
    Video,
    /// `audio`.
    Audio,
    /// `iframe`.
    Iframe,
    /// `widget`.
    Widget,
    /// A code this version does not know; handled as a leaf.
    Other,
}

impl BlockKind {
    /// Text the matcher's prose tier may match: everything but code, math,
    /// HTML and the blocks that hold no Markdown text (issue 36).
    pub fn is_prose(self) -> bool {
        use BlockKind::*;
        matches!(
            self,
            Document
                | Heading
                | Paragraph
                | List
                | ListItem
                | Blockquote
                | Superblock
                | Callout
                | Table
        )
    }

    /// The kind of a type code (`blocks.type`); `Other` for a code this
    /// version does not know.
    pub fn from_code(code: &str) -> BlockKind {
        use BlockKind::*;
        match code {
            "d" => Document,
            "h" => Heading,
            "p" => Paragraph,
            "l" => List,
            "i" => ListItem,
            "b" => Blockquote,
            "s" => Superblock,
            "callout" => Callout,
            "c" => Code,
            "t" => Table,
            "m" => Math,
            "tb" => ThematicBreak,
            "html" => Html,
            "query_embed" => Embed,
            "av" => AttributeView,
            "video" => Video,
            "audio" => Audio,
            "iframe" => Iframe,
            "widget" => Widget,
            _ => Other,
        }
    }

    /// The kernel's type code (`blocks.type`); `Other` has none of its own
    /// and gives `""`.
    pub fn code(self) -> &'static str {
        use BlockKind::*;
        match self {
            Document => "d",
            Heading => "h",
            Paragraph => "p",
            List => "l",
            ListItem => "i",
            Blockquote => "b",
            Superblock => "s",
            Callout => "callout",
            Code => "c",
            Table => "t",
            Math => "m",
            ThematicBreak => "tb",
            Html => "html",
            Embed => "query_embed",
            AttributeView => "av",
            Video => "video",
            Audio => "audio",
            Iframe => "iframe",
            Widget => "widget",
            Other => "",
        }
    }

    /// From the kernel's AST node type name (`"NodeHeading"`), as
    /// `/api/block/getBlockBreadcrumb` and `/api/outline/getDocOutline`
    /// report it.
    pub fn from_node_type(node_type: &str) -> BlockKind {
        use BlockKind::*;
        match node_type {
            "NodeDocument" => Document,
            "NodeHeading" => Heading,
            "NodeParagraph" => Paragraph,
            "NodeList" => List,
            "NodeListItem" => ListItem,
            "NodeBlockquote" => Blockquote,
            "NodeSuperBlock" => Superblock,
            "NodeCallout" => Callout,
            "NodeCodeBlock" => Code,
            "NodeTable" => Table,
            "NodeMathBlock" => Math,
            "NodeThematicBreak" => ThematicBreak,
            "NodeHTMLBlock" => Html,
            "NodeBlockQueryEmbed" => Embed,
            "NodeAttributeView" => AttributeView,
            "NodeVideo" => Video,
            "NodeAudio" => Audio,
            "NodeIFrame" => Iframe,
            "NodeWidget" => Widget,
            _ => Other,
        }
    }

    /// Types that hold child blocks in the kernel's tree. Since kernel
    /// v3.7.0 these are the only valid `parentID`s of prepend/append.
    pub fn is_container(self) -> bool {
        use BlockKind::*;
        matches!(
            self,
            Document | List | ListItem | Blockquote | Superblock | Callout
        )
    }

    /// The label printed after `@@id@@` in the reading view.
    pub fn label(self, lang: Lang) -> &'static str {
        use BlockKind::*;
        let (en, zh) = match self {
            Document => ("document", "文档"),
            Heading => ("heading", "标题"),
            Paragraph => ("paragraph", "段落"),
            List => ("list", "列表"),
            ListItem => ("list item", "列表项"),
            Blockquote => ("blockquote", "引述"),
            Superblock => ("superblock", "超级块"),
            Callout => ("callout", "提示"),
            Code => ("code", "代码"),
            Table => ("table", "表格"),
            Math => ("math", "公式"),
            ThematicBreak => ("thematic break", "分隔线"),
            Html => ("html", "HTML"),
            Embed => ("embed", "嵌入块"),
            AttributeView => ("database", "数据库"),
            Video => ("video", "视频"),
            Audio => ("audio", "音频"),
            Iframe => ("iframe", "IFrame"),
            Widget => ("widget", "挂件"),
            Other => ("block", "块"),
        };
        lang.pick(en, zh)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_node_types_round_trip() {
        for code in [
            "d",
            "h",
            "p",
            "l",
            "i",
            "b",
            "s",
            "callout",
            "c",
            "t",
            "m",
            "tb",
            "html",
            "query_embed",
            "av",
            "video",
            "audio",
            "iframe",
            "widget",
        ] {
            assert_eq!(BlockKind::from_code(code).code(), code);
        }
        assert_eq!(
            BlockKind::from_node_type("NodeListItem"),
            BlockKind::ListItem
        );
        assert_eq!(
            BlockKind::from_node_type("NodeSomethingNew"),
            BlockKind::Other
        );
    }
}
