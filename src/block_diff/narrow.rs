//! Writing only what changed inside a container (SPEC §3.7 rule 23).
//!
//! Every block an API write passes through is normalised by the kernel: a
//! U+200B after its code spans, attributes outside the kernel's whitelist
//! dropped, HTML entities decoded again on v3.7.3 (KERNEL-FACTS §10, §13).
//! So a hunk addressed to a container (or several hunks on one) must not
//! rewrite the children it leaves alone. The container's old kramdown and
//! the text editkit would write for it (every kept child's IAL restated)
//! are compared as trees:
//!
//! - where both sides have the same kind, the same own properties (list
//!   type and marker, task box, callout title, superblock layout), the
//!   same attributes and the same children by id in the same order, the
//!   comparison goes down into the children, and a leaf whose text or
//!   attributes differ is written alone;
//! - anywhere else the structure changed, and the smallest container that
//!   holds the change is written whole (with its kept children's IALs, so
//!   they keep their ids);
//! - when that container is the one the hunk named, nothing is narrowed:
//!   the caller writes it as before.
//!
//! A leaf counts as changed when the kernel would store its new text
//! differently ([`crate::markdown::same_markdown`]): the U+200B the
//! kernel put beside a code span is not a change. A task item's first
//! block shares the item's line with the checkbox: it is never written
//! alone (the box would become text), its item is.

use crate::markdown::{
    ial_id, in_written_order, own_text, parse, same_markdown, set_root_ial, source_lines,
    with_ials_in_written_order, Attrs, Detail, IalPlace, Node,
};
use crate::siyuan::BlockKind;

/// One block written instead of the whole container.
#[derive(Clone, Debug, PartialEq)]
pub struct NarrowWrite {
    pub id: String,
    /// Its kramdown before (IAL included): what its undo and rollback
    /// restore.
    pub old_kramdown: String,
    /// What `updateBlock` is sent: its new text, its attributes restated
    /// (without `id` and `updated`, which the kernel sets).
    pub markdown: String,
    /// Its text before, for a folded-heading check of a container written
    /// whole.
    pub is_container: bool,
}

/// What comparing two nodes found.
enum Change {
    Same,
    /// These blocks change (each one alone).
    Blocks(Vec<NarrowWrite>),
    /// The node itself changed its structure: write it whole.
    Whole,
}

/// The blocks to write instead of the container whose kramdown is
/// `old_kramdown`, when `written` (the text editkit would write for it,
/// kept children's IALs restated) keeps its structure; `None` when the
/// container must be written whole. With `item_root`, the container is a
/// list item (its texts are one-item lists).
pub fn narrow(old_kramdown: &str, written: &str, item_root: bool) -> Option<Vec<NarrowWrite>> {
    let old_lines = source_lines(old_kramdown);
    let new_lines = source_lines(written);
    let old_tree = parse(old_kramdown);
    let new_tree = parse(written);
    let old_root = root_of(&old_tree, item_root)?;
    let new_root = root_of(&new_tree, item_root)?;
    let sides = Sides {
        old: &old_lines,
        new: &new_lines,
    };
    // The root is the hunk's target: same kind and properties, and its
    // own attributes as the rewrite restates them.
    if old_root.kind != new_root.kind
        || old_root.detail != new_root.detail
        || !sides.same_own_lines(old_root, new_root)
        || kept(carried(attrs_of(old_root))) != kept(carried(attrs_of(new_root)))
    {
        return None;
    }
    match sides.children(old_root, new_root)? {
        Change::Blocks(writes) if !writes.is_empty() => Some(writes),
        _ => None,
    }
}

/// The container a text stands for (one block; with `item_root`, a
/// list's first item).
fn root_of(tree: &[Node], item_root: bool) -> Option<&Node> {
    crate::markdown::root_of(tree, item_root).filter(|_| item_root || tree.len() == 1)
}

fn attrs_of(node: &Node) -> Attrs {
    node.ial
        .as_ref()
        .map(|(a, _)| a.clone())
        .unwrap_or_default()
}

/// Attributes as a set, `updated` aside (the kernel sets it).
fn kept(attrs: Attrs) -> Vec<(String, String)> {
    let mut pairs: Vec<(String, String)> =
        attrs.into_iter().filter(|(k, _)| k != "updated").collect();
    pairs.sort();
    pairs
}

/// Attributes a write restates: all but `id` and `updated`.
fn carried(attrs: Attrs) -> Attrs {
    in_written_order(
        attrs
            .into_iter()
            .filter(|(k, _)| k != "id" && k != "updated")
            .collect(),
    )
}

struct Sides<'a> {
    old: &'a [&'a str],
    new: &'a [&'a str],
}

impl Sides<'_> {
    /// Compares the children of two nodes that match themselves.
    fn children(&self, old: &Node, new: &Node) -> Option<Change> {
        if old.children.len() != new.children.len() {
            return Some(Change::Whole);
        }
        let mut writes = Vec::new();
        for (k, (o, n)) in old.children.iter().zip(&new.children).enumerate() {
            let (Some(oid), Some(nid)) = (node_id(o), node_id(n)) else {
                return Some(Change::Whole);
            };
            if oid != nid {
                return Some(Change::Whole);
            }
            match self.node(o, n)? {
                Change::Same => {}
                Change::Blocks(more) => writes.extend(more),
                // A task item's first block is written with its item.
                Change::Whole if k == 0 && is_task(old) => return Some(Change::Whole),
                Change::Whole => writes.push(self.whole(o, n)?),
            }
        }
        Some(if writes.is_empty() {
            Change::Same
        } else {
            Change::Blocks(writes)
        })
    }

    /// Compares two nodes with the same id.
    fn node(&self, old: &Node, new: &Node) -> Option<Change> {
        if old.kind != new.kind || old.detail != new.detail {
            return Some(Change::Whole);
        }
        if kept(attrs_of(old)) != kept(attrs_of(new)) {
            return Some(Change::Whole);
        }
        if !old.is_container() {
            // The same once the kernel has stored it (its U+200B beside
            // code spans, table padding, …): not a change, not a write.
            let same = same_markdown(&self.body(old, self.old)?, &self.body(new, self.new)?);
            return Some(if same { Change::Same } else { Change::Whole });
        }
        if !self.same_own_lines(old, new) {
            return Some(Change::Whole);
        }
        self.children(old, new)
    }

    /// The write of `new` standing alone.
    fn whole(&self, old: &Node, new: &Node) -> Option<NarrowWrite> {
        let id = node_id(old)?.to_string();
        let is_item = new.kind == BlockKind::ListItem;
        let body = self.body(new, self.new)?;
        // A list item's text is a one-item list whose item carries the IAL.
        let markdown = set_root_ial(&body, &carried(attrs_of(new)), is_item);
        Some(NarrowWrite {
            id,
            old_kramdown: with_ials_in_written_order(&own_text(old, self.old)?),
            markdown,
            is_container: new.is_container(),
        })
    }

    /// A node's text without its own IAL (a line after it, or inline after
    /// a list item's marker); its children's IALs stay.
    fn body(&self, node: &Node, lines: &[&str]) -> Option<String> {
        let text = own_text(node, lines)?;
        Some(match &node.ial {
            Some((_, IalPlace::Line(line))) if node.lines.last().map(|l| l.0) == Some(*line) => {
                match text.rfind('\n') {
                    Some(cut) => text[..cut].to_string(),
                    None => String::new(),
                }
            }
            Some((_, IalPlace::Inline { .. })) => {
                let (first, rest) = text.split_once('\n').unwrap_or((&text, ""));
                let first = crate::markdown::strip_inline_item_ial(first);
                if rest.is_empty() && !text.contains('\n') {
                    first
                } else {
                    format!("{first}\n{rest}")
                }
            }
            _ => text,
        })
    }

    /// The lines of a container that belong to no child (a callout's
    /// title line, a superblock's fences) are the same on both sides.
    fn same_own_lines(&self, old: &Node, new: &Node) -> bool {
        match (&old.detail, &new.detail) {
            (Detail::Callout { .. }, Detail::Callout { .. }) => {
                let first = |n: &Node, lines: &[&str]| {
                    own_text(n, lines)
                        .and_then(|t| t.lines().next().map(str::trim_end).map(String::from))
                };
                first(old, self.old).is_some() && first(old, self.old) == first(new, self.new)
            }
            _ => true,
        }
    }
}

fn node_id(node: &Node) -> Option<&str> {
    node.ial.as_ref().and_then(|(a, _)| ial_id(a))
}

fn is_task(node: &Node) -> bool {
    matches!(node.detail, Detail::Item { task: Some(_) })
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIST: &str = "- {: id=\"20240101000000-li00001\"}甲\n  {: id=\"20240101000000-p000001\" updated=\"20240101000000\"}\n- {: id=\"20240101000000-li00002\"}乙\n  {: id=\"20240101000000-p000002\" custom-x=\"1\"}\n\n  - {: id=\"20240101000000-li00003\"}丙\n    {: id=\"20240101000000-p000003\"}\n  {: id=\"20240101000000-lst0002\"}\n{: id=\"20240101000000-lst0001\" name=\"列表\"}";

    fn ids(writes: &[NarrowWrite]) -> Vec<&str> {
        writes.iter().map(|w| w.id.as_str()).collect()
    }

    #[test]
    fn a_changed_item_paragraph_is_written_alone_with_its_attributes() {
        let written = LIST.replace("乙\n", "乙（改）\n");
        let writes = narrow(LIST, &written, false).expect("narrowed");
        assert_eq!(ids(&writes), ["20240101000000-p000002"]);
        assert_eq!(writes[0].markdown, "乙（改）\n{: custom-x=\"1\"}");
        assert_eq!(
            writes[0].old_kramdown,
            "乙\n{: id=\"20240101000000-p000002\" custom-x=\"1\"}"
        );
    }

    #[test]
    fn the_kernels_zero_width_space_beside_code_is_not_a_change() {
        let old = "- {: id=\"20240101000000-li00001\"}甲 `x`\u{200b} 与 **粗**\n  {: id=\"20240101000000-p000001\"}\n- {: id=\"20240101000000-li00002\"}乙\n  {: id=\"20240101000000-p000002\"}\n{: id=\"20240101000000-lst0001\"}";
        let written = old.replace('\u{200b}', "").replace("乙\n", "乙!\n");
        let writes = narrow(old, &written, false).expect("narrowed");
        assert_eq!(ids(&writes), ["20240101000000-p000002"]);
    }

    #[test]
    fn a_nested_paragraph_and_a_top_paragraph_are_two_writes() {
        let written = LIST.replace("甲", "甲!").replace("丙", "丙!");
        let writes = narrow(LIST, &written, false).expect("narrowed");
        assert_eq!(
            ids(&writes),
            ["20240101000000-p000001", "20240101000000-p000003"]
        );
        assert_eq!(writes[1].markdown, "丙!");
    }

    #[test]
    fn an_item_added_to_the_nested_list_writes_that_list_only() {
        let written = LIST.replace(
            "    {: id=\"20240101000000-p000003\"}\n",
            "    {: id=\"20240101000000-p000003\"}\n  - 丁\n",
        );
        let writes = narrow(LIST, &written, false).expect("narrowed");
        assert_eq!(ids(&writes), ["20240101000000-lst0002"]);
        assert_eq!(
            writes[0].markdown,
            "- {: id=\"20240101000000-li00003\"}丙\n  {: id=\"20240101000000-p000003\"}\n- 丁"
        );
        assert!(writes[0].is_container);
    }

    #[test]
    fn a_change_of_the_container_itself_is_not_narrowed() {
        // Another marker, another attribute on the list, an item removed.
        assert_eq!(
            narrow(
                LIST,
                &LIST.replace(
                    "- {: id=\"20240101000000-li00001",
                    "* {: id=\"20240101000000-li00001"
                ),
                false
            ),
            None
        );
        assert_eq!(
            narrow(LIST, &LIST.replace("name=\"列表\"", "name=\"别的\""), false),
            None
        );
        let first_item_gone = LIST.replacen("- {: id=\"20240101000000-li00001\"}甲\n  {: id=\"20240101000000-p000001\" updated=\"20240101000000\"}\n", "", 1);
        assert_eq!(narrow(LIST, &first_item_gone, false), None);
        // Nothing changed: nothing to narrow to.
        assert_eq!(narrow(LIST, LIST, false), None);
    }

    #[test]
    fn a_task_box_or_its_first_paragraph_writes_the_item() {
        let task = "- {: id=\"20240101000000-li00001\"}[ ] 待办\n  {: id=\"20240101000000-p000001\"}\n- {: id=\"20240101000000-li00002\"}[ ] 其二\n  {: id=\"20240101000000-p000002\"}\n{: id=\"20240101000000-lst0001\"}";
        let ticked = task.replacen("[ ] 待办", "[X] 待办", 1);
        let writes = narrow(task, &ticked, false).expect("narrowed");
        assert_eq!(ids(&writes), ["20240101000000-li00001"]);
        assert_eq!(
            writes[0].markdown,
            "- [X] 待办\n  {: id=\"20240101000000-p000001\"}"
        );
        let edited = task.replacen("其二", "其二（改）", 1);
        let writes = narrow(task, &edited, false).expect("narrowed");
        assert_eq!(ids(&writes), ["20240101000000-li00002"]);
    }

    #[test]
    fn a_blockquote_paragraph_and_a_callout_title() {
        let quote = "> 一\n> {: id=\"20240101000000-p000001\"}\n>\n> 二\n> {: id=\"20240101000000-p000002\"}\n>\n{: id=\"20240101000000-quote01\"}";
        let writes = narrow(quote, &quote.replace("二", "二!"), false).expect("narrowed");
        assert_eq!(ids(&writes), ["20240101000000-p000002"]);
        assert_eq!(writes[0].markdown, "二!");
        let callout = "> [!NOTE] 标题\n> 正文\n> {: id=\"20240101000000-p000001\"}\n>\n{: id=\"20240101000000-call001\"}";
        assert_eq!(
            narrow(callout, &callout.replace("标题", "新标题"), false),
            None
        );
        let writes = narrow(callout, &callout.replace("正文", "正文!"), false).expect("narrowed");
        assert_eq!(ids(&writes), ["20240101000000-p000001"]);
    }

    #[test]
    fn a_list_item_target_narrows_to_its_blocks() {
        let item = "- {: id=\"20240101000000-li00002\"}乙\n  {: id=\"20240101000000-p000002\"}\n\n  第二段\n  {: id=\"20240101000000-p000009\"}";
        let writes = narrow(item, &item.replace("第二段", "第二段!"), true).expect("narrowed");
        assert_eq!(ids(&writes), ["20240101000000-p000009"]);
    }

    #[test]
    fn the_restated_rewrite_of_an_agents_list_text_narrows_to_the_changed_paragraph() {
        // The target's own attributes are restated without id and
        // updated; a changed child's IAL without updated.
        let old = "- {: id=\"20240614083125-li01qwe\" updated=\"20240614083130\"}完成 SEARCH/REPLACE 解析器\n  {: id=\"20240614083125-p01asdf\" updated=\"20240614083130\"}\n- {: id=\"20240614083140-li02rty\" updated=\"20240614090211\"}实现 slice 分页阅读\n  {: id=\"20240614083140-p02zxcv\" updated=\"20240614083150\"}\n\n  - {: id=\"20240614083201-li03uio\" updated=\"20240614083210\"}支持 `id:+N` 游标\n    {: id=\"20240614083201-p03hjkl\" updated=\"20240614083210\"}\n  - {: id=\"20240614083215-li04bnm\" updated=\"20240614090211\"}支持 `BEGIN:id` 与 `id:END`\n    {: id=\"20240614083215-p04poiu\" updated=\"20240614090211\"}\n  {: id=\"20240614083201-lst1b2n\" updated=\"20240614090211\"}\n- {: id=\"20240614083230-li05ghj\" updated=\"20240614083240\"}编写单元测试\n  {: id=\"20240614083230-p05mnbv\" updated=\"20240614083240\"}\n{: id=\"20240614083125-lst0a9x\" updated=\"20240614090211\"}";
        let new = "- 完成 SEARCH/REPLACE 解析器（改）\n- 实现 slice 分页阅读\n\n  - 支持 `id:+N` 游标\n  - 支持 `BEGIN:id` 与 `id:END`\n- 编写单元测试";
        let r = crate::markdown::restate_children(old, new, &vec![], false).unwrap();
        let writes = narrow(old, &r.kramdown, false).expect("narrowed");
        assert_eq!(ids(&writes), ["20240614083125-p01asdf"]);
        assert_eq!(writes[0].markdown, "完成 SEARCH/REPLACE 解析器（改）");
    }
}
