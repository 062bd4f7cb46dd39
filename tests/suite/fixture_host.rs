//! An in-memory SiYuan host over the fixture documents in
//! `../shared/fixtures/siyuan/`, recording every call.
//!
//! It follows the kernel's rules where the tests depend on them: heading
//! sections for `getChildBlocks`, `parent_id` of blocks after a heading,
//! containers-only prepend/append (v3.7), a delete removing only the block, `updateBlock` keeping only the
//! first block of multi-block markdown and only the attributes present in
//! the markdown's IAL, ids taken from an IAL on insert when unused (or,
//! with `fresh_ids_on_insert`, never: a kernel that refuses them). It does
//! not re-render a container's markdown when a child changes, and a
//! container rewritten by `updateBlock` loses its child rows (the kernel
//! would give them new ids); tests compare what these rules make
//! comparable.
//!
//! For the content tools it also serves breadcrumbs (the fixtures'
//! `api.getBlockBreadcrumb`), document headings in document order, the
//! notebook's parent documents (`notebook-index.json`, rows without
//! bodies), `createDoc` (new ids `20990101000000-docNNNN`, the numbering of
//! the plugin's recorded outcomes) and `createDailyNote` (the fixture's
//! 2024-06-15 note is "today").

#![allow(dead_code)]

use std::cell::{Cell, RefCell};
use std::collections::{HashMap, HashSet};

use editkit::host::{Capability, HostError, HostResult, InsertAnchor, NewIds, SiyuanHost};
use editkit::siyuan::{Block, BlockKind, BreadcrumbEntry, ChildBlock};

use super::support::shared_json;

pub const FIXTURE_DOCS: [&str; 4] = [
    "doc1-weekly-report.json",
    "doc2-plugin-dev.json",
    "doc3-reading-list.json",
    "doc4-daily-note.json",
];

/// One recorded host call: the callback's JS name and its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    pub name: &'static str,
    pub args: Vec<String>,
}

#[derive(Default, Clone)]
struct Store {
    rows: HashMap<String, Block>,
    /// Tree children (documents and containers), in order.
    kids: HashMap<String, Vec<String>>,
    tree_parent: HashMap<String, String>,
    kramdown: HashMap<String, String>,
    breadcrumbs: HashMap<String, Vec<BreadcrumbEntry>>,
    next_id: u32,
    next_doc: u32,
}

/// The fixture notebook and the document its daily note resolves to.
pub const NOTEBOOK: &str = "20240101090000-k3m9xzq";
pub const DAILY_NOTE: &str = "20240615073000-dn0615a";

#[derive(Default)]
pub struct FixtureHost {
    store: RefCell<Store>,
    pub calls: RefCell<Vec<Call>>,
    /// Fail the k-th write (1-based) with a host error.
    pub fail_write_at: Cell<Option<usize>>,
    /// Fail these writes too (1-based, counted like `fail_write_at`): a
    /// rollback write that fails after the write it reverts failed.
    pub fail_writes: RefCell<HashSet<usize>>,
    /// Inserted blocks get new ids even when their IAL names an unused id
    /// (a kernel that does not accept the id from the kramdown IAL).
    pub fresh_ids_on_insert: Cell<bool>,
    writes: Cell<usize>,
    /// Callbacks this host pretends not to have.
    pub missing: RefCell<HashSet<Capability>>,
    /// After a successful write, replace the markdown of this block (a
    /// concurrent editor, or a kernel that rewrites content).
    pub tamper_after_write: RefCell<Option<(String, String)>>,
}

impl FixtureHost {
    /// All four fixture documents.
    pub fn new() -> Self {
        let host = FixtureHost::default();
        for doc in FIXTURE_DOCS {
            host.load(doc);
        }
        host.load_notebook_index();
        host
    }

    /// The notebook's other documents (parents of the fixture documents),
    /// as rows without bodies.
    fn load_notebook_index(&self) {
        let json = shared_json("fixtures/siyuan/notebook-index.json");
        let mut store = self.store.borrow_mut();
        for row in json["documents"].as_array().unwrap() {
            let doc: Block = serde_json::from_value(row.clone()).unwrap();
            if !store.rows.contains_key(&doc.id) {
                store.kids.insert(doc.id.clone(), Vec::new());
                store.rows.insert(doc.id.clone(), doc);
            }
        }
    }

    fn load(&self, file: &str) {
        let json = shared_json(&format!("fixtures/siyuan/{file}"));
        let mut store = self.store.borrow_mut();
        let doc: Block = serde_json::from_value(json["document"].clone()).unwrap();
        store.rows.insert(doc.id.clone(), doc);
        for row in json["blocks"].as_array().unwrap() {
            let block: Block = serde_json::from_value(row.clone()).unwrap();
            store.rows.insert(block.id.clone(), block);
        }
        fn walk(store: &mut Store, node: &serde_json::Value) {
            let id = node["id"].as_str().unwrap().to_string();
            let children: Vec<String> = node["children"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["id"].as_str().unwrap().to_string())
                .collect();
            for c in &children {
                store.tree_parent.insert(c.clone(), id.clone());
            }
            if !children.is_empty()
                || matches!(node["type"].as_str(), Some("d" | "l" | "i" | "b" | "s"))
            {
                store.kids.insert(id.clone(), children);
            }
            for c in node["children"].as_array().unwrap() {
                walk(store, c);
            }
        }
        walk(&mut store, &json["tree"]);
        for (id, k) in json["api"]["getBlockKramdown"].as_object().unwrap() {
            store
                .kramdown
                .insert(id.clone(), k.as_str().unwrap().to_string());
        }
        for (id, b) in json["api"]["getBlockBreadcrumb"].as_object().unwrap() {
            store
                .breadcrumbs
                .insert(id.clone(), serde_json::from_value(b.clone()).unwrap());
        }
    }

    pub fn calls_named(&self, name: &str) -> usize {
        self.calls
            .borrow()
            .iter()
            .filter(|c| c.name == name)
            .count()
    }

    /// The recorded writes, in order.
    pub fn writes(&self) -> Vec<Call> {
        self.calls
            .borrow()
            .iter()
            .filter(|c| {
                matches!(
                    c.name,
                    "updateBlock" | "deleteBlock" | "insertBlock" | "prependBlock" | "appendBlock"
                )
            })
            .cloned()
            .collect()
    }

    pub fn block(&self, id: &str) -> Option<Block> {
        self.store.borrow().rows.get(id).cloned()
    }

    /// The document as (id, type, markdown) of its blocks in pre-order.
    pub fn snapshot(&self, doc_id: &str) -> Vec<(String, String, String)> {
        let store = self.store.borrow();
        let mut out = Vec::new();
        fn walk(store: &Store, id: &str, out: &mut Vec<(String, String, String)>) {
            for k in store.kids.get(id).map(Vec::as_slice).unwrap_or(&[]) {
                if let Some(b) = store.rows.get(k) {
                    out.push((b.id.clone(), b.type_.clone(), b.markdown.clone()));
                }
                walk(store, k, out);
            }
        }
        walk(&store, doc_id, &mut out);
        out
    }

    /// Top-level blocks of a document as (id, markdown).
    pub fn top_level(&self, doc_id: &str) -> Vec<(String, String)> {
        let store = self.store.borrow();
        store.kids[doc_id]
            .iter()
            .map(|k| (k.clone(), store.rows[k].markdown.clone()))
            .collect()
    }

    fn record(&self, name: &'static str, args: Vec<String>) {
        self.calls.borrow_mut().push(Call { name, args });
    }

    fn check_capability(&self, c: Capability) -> HostResult<()> {
        if self.missing.borrow().contains(&c) {
            Err(HostError::missing(c))
        } else {
            Ok(())
        }
    }

    fn count_write(&self, c: Capability) -> HostResult<()> {
        let n = self.writes.get() + 1;
        self.writes.set(n);
        if self.fail_write_at.get() == Some(n) || self.fail_writes.borrow().contains(&n) {
            return Err(HostError::new(
                c,
                format!("simulated failure of write #{n}"),
            ));
        }
        Ok(())
    }

    fn after_write(&self) {
        if let Some((id, md)) = self.tamper_after_write.borrow_mut().take() {
            if let Some(b) = self.store.borrow_mut().rows.get_mut(&id) {
                b.markdown = md;
            }
        }
    }
}

impl Store {
    fn new_id(&mut self) -> String {
        self.next_id += 1;
        format!("20990101000000-new{:04}", self.next_id)
    }

    fn parent_of(&self, id: &str) -> Option<String> {
        self.tree_parent.get(id).cloned()
    }

    /// The kernel's `HeadingParent` rule: a block after a heading has that
    /// heading as `parent_id` (a heading: the nearest higher heading).
    fn compute_parent_id(&self, id: &str) -> String {
        let Some(parent) = self.parent_of(id) else {
            return String::new();
        };
        let kids = &self.kids[&parent];
        let Some(index) = kids.iter().position(|k| k == id) else {
            return parent;
        };
        let own_level = self.rows.get(id).map_or(7, |b| {
            if b.kind() == BlockKind::Heading {
                b.heading_level()
            } else {
                7
            }
        });
        for k in kids[..index].iter().rev() {
            if let Some(b) = self.rows.get(k) {
                if b.kind() == BlockKind::Heading && b.heading_level() < own_level {
                    return b.id.clone();
                }
            }
        }
        parent
    }

    fn child_blocks(&self, id: &str) -> Vec<ChildBlock> {
        let Some(block) = self.rows.get(id) else {
            return Vec::new();
        };
        let ids: Vec<String> = if block.kind() == BlockKind::Heading {
            let Some(parent) = self.parent_of(id) else {
                return Vec::new();
            };
            let kids = &self.kids[&parent];
            let index = kids.iter().position(|k| k == id).unwrap_or(kids.len());
            let level = block.heading_level();
            kids[index + 1..]
                .iter()
                .take_while(|k| {
                    self.rows
                        .get(*k)
                        .is_none_or(|b| b.kind() != BlockKind::Heading || b.heading_level() > level)
                })
                .cloned()
                .collect()
        } else {
            self.kids.get(id).cloned().unwrap_or_default()
        };
        ids.iter()
            .filter_map(|k| self.rows.get(k))
            .map(|b| ChildBlock {
                id: b.id.clone(),
                type_: b.type_.clone(),
                sub_type: b.subtype.clone(),
                content: b.content.clone(),
                markdown: b.markdown.clone(),
            })
            .collect()
    }

    /// Headings of a document in document order (pre-order walk).
    fn headings(&self, doc_id: &str) -> Vec<Block> {
        let mut out = Vec::new();
        fn walk(store: &Store, id: &str, out: &mut Vec<Block>) {
            for k in store.kids.get(id).map(Vec::as_slice).unwrap_or(&[]) {
                if let Some(b) = store.rows.get(k) {
                    if b.kind() == BlockKind::Heading {
                        out.push(b.clone());
                    }
                }
                walk(store, k, out);
            }
        }
        walk(self, doc_id, &mut out);
        out
    }

    fn remove_subtree(&mut self, id: &str) {
        if let Some(kids) = self.kids.remove(id) {
            for k in kids {
                self.remove_subtree(&k);
            }
        }
        self.rows.remove(id);
        self.kramdown.remove(id);
        self.tree_parent.remove(id);
    }

    /// Creates a row from one block of markdown (IAL lines parsed off).
    fn make_row(&mut self, markdown: &str, near: &str, fresh_id: bool) -> String {
        let (text, attrs) = split_ial(markdown);
        let wanted = attrs
            .iter()
            .find(|(k, _)| k == "id")
            .map(|(_, v)| v.clone())
            .filter(|_| !fresh_id);
        let id = match wanted {
            Some(w) if editkit::siyuan::is_block_id(&w) && !self.rows.contains_key(&w) => w,
            _ => self.new_id(),
        };
        let template = self.rows.get(near).cloned().unwrap_or_default();
        let mut row = Block {
            id: id.clone(),
            root_id: template.root_id.clone(),
            box_id: template.box_id.clone(),
            path: template.path.clone(),
            hpath: template.hpath.clone(),
            ..Block::default()
        };
        set_content(&mut row, &text, &attrs);
        self.kramdown.insert(id.clone(), kramdown_of(&row));
        self.rows.insert(id.clone(), row);
        if matches!(self.rows[&id].type_.as_str(), "l" | "b" | "s") {
            self.kids.insert(id.clone(), Vec::new());
        }
        id
    }

    fn insert_at(&mut self, parent: &str, index: usize, ids: &[String]) {
        let kids = self.kids.entry(parent.to_string()).or_default();
        let index = index.min(kids.len());
        for (n, id) in ids.iter().enumerate() {
            kids.insert(index + n, id.clone());
        }
        for id in ids {
            self.tree_parent.insert(id.clone(), parent.to_string());
        }
        self.refresh_parent_ids(parent);
    }

    fn refresh_parent_ids(&mut self, parent: &str) {
        let kids = self.kids.get(parent).cloned().unwrap_or_default();
        for k in kids {
            let p = self.compute_parent_id(&k);
            if let Some(b) = self.rows.get_mut(&k) {
                b.parent_id = p;
            }
        }
    }

    fn create_blocks(&mut self, markdown: &str, near: &str, fresh_ids: bool) -> Vec<String> {
        simple_blocks(markdown)
            .iter()
            .map(|b| self.make_row(b, near, fresh_ids))
            .collect()
    }
}

/// The kernel splits markdown into blocks with Lute; for the shapes these
/// tests write, blank lines outside fences are enough.
fn simple_blocks(markdown: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    let mut in_fence = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
        }
        let list_continues = line.starts_with("  ") && !current.is_empty();
        if line.trim().is_empty() && !in_fence {
            if !current.is_empty() {
                blocks.push(std::mem::take(&mut current));
            }
            continue;
        }
        if list_continues && current.is_empty() {
            if let Some(last) = blocks.pop() {
                current = last;
                current.push("");
            }
        }
        current.push(line);
    }
    if !current.is_empty() {
        blocks.push(current);
    }
    // Re-join list items that blank lines separated (loose lists).
    let mut merged: Vec<Vec<&str>> = Vec::new();
    for b in blocks {
        let continues = b.first().is_some_and(|l| l.starts_with("  "));
        match merged.last_mut() {
            Some(prev) if continues => {
                prev.push("");
                prev.extend(b);
            }
            _ => merged.push(b),
        }
    }
    merged.into_iter().map(|b| b.join("\n")).collect()
}

/// Splits trailing IAL lines off a block: (markdown, attributes).
fn split_ial(markdown: &str) -> (String, Vec<(String, String)>) {
    let mut lines: Vec<&str> = markdown.lines().collect();
    let mut attrs = Vec::new();
    while let Some(last) = lines.last() {
        let t = last.trim();
        if t.starts_with("{:") && t.ends_with('}') {
            let mut parsed = editkit::block_diff::parse_ial(t);
            parsed.extend(attrs);
            attrs = parsed;
            lines.pop();
        } else {
            break;
        }
    }
    let text = editkit::block_diff::strip_ial(&lines.join("\n"));
    (text, attrs)
}

fn detect_type(markdown: &str) -> (&'static str, String) {
    let t = markdown.trim_start();
    let level = editkit::siyuan::heading_level_of_markdown(t);
    if level > 0 {
        return ("h", format!("h{level}"));
    }
    if t.starts_with("```") {
        return ("c", String::new());
    }
    if t.starts_with('>') {
        return ("b", String::new());
    }
    if t.starts_with("- [") {
        return ("l", "t".into());
    }
    if t.starts_with("- ") || t.starts_with("* ") || t.starts_with("+ ") {
        return ("l", "u".into());
    }
    if t.split_once(". ")
        .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    {
        return ("l", "o".into());
    }
    if t.starts_with('|') {
        return ("t", String::new());
    }
    if t == "---" || t == "***" {
        return ("tb", String::new());
    }
    if t.starts_with("$$") {
        return ("m", String::new());
    }
    if t.starts_with("{{{") {
        return ("s", String::new());
    }
    ("p", String::new())
}

fn set_content(row: &mut Block, markdown: &str, attrs: &[(String, String)]) {
    let (ty, sub) = detect_type(markdown);
    row.type_ = ty.to_string();
    row.subtype = sub;
    // The kernel's `sort` is a type weight, not a position.
    row.sort = match ty {
        "d" => 0,
        "h" => 5,
        "p" | "c" | "m" | "t" | "html" => 10,
        "l" | "i" | "b" => 20,
        "s" | "av" => 30,
        _ => 100,
    };
    row.markdown = markdown.to_string();
    row.content = markdown
        .trim_start_matches(['#', ' ', '>', '-'])
        .to_string();
    row.length = row.content.chars().count() as i64;
    let mut ial = vec![format!("id=\"{}\"", row.id)];
    row.name.clear();
    row.alias.clear();
    row.memo.clear();
    for (k, v) in attrs {
        if k == "id" || k == "updated" {
            continue;
        }
        match k.as_str() {
            "name" => row.name = v.clone(),
            "alias" => row.alias = v.clone(),
            "memo" => row.memo = v.clone(),
            _ => {}
        }
        ial.push(format!("{k}=\"{v}\""));
    }
    ial.push("updated=\"20990101000000\"".into());
    ial.sort();
    row.ial = format!("{{: {}}}", ial.join(" "));
}

fn kramdown_of(row: &Block) -> String {
    format!("{}\n{}", row.markdown, row.ial)
}

impl SiyuanHost for FixtureHost {
    fn has(&self, capability: Capability) -> bool {
        !self.missing.borrow().contains(&capability)
    }

    async fn get_blocks(&self, ids: &[String]) -> HostResult<Vec<Option<Block>>> {
        self.check_capability(Capability::GetBlocks)?;
        self.record("getBlocks", ids.to_vec());
        let store = self.store.borrow();
        Ok(ids
            .iter()
            .map(|id| {
                store.rows.get(id).cloned().map(|mut b| {
                    b.parent_id = store.compute_parent_id(id);
                    b
                })
            })
            .collect())
    }

    async fn get_child_blocks(&self, ids: &[String]) -> HostResult<Vec<Vec<ChildBlock>>> {
        self.check_capability(Capability::GetChildBlocks)?;
        self.record("getChildBlocks", ids.to_vec());
        let store = self.store.borrow();
        Ok(ids.iter().map(|id| store.child_blocks(id)).collect())
    }

    async fn get_kramdown(&self, ids: &[String]) -> HostResult<Vec<Option<String>>> {
        self.check_capability(Capability::GetKramdown)?;
        self.record("getKramdown", ids.to_vec());
        let store = self.store.borrow();
        Ok(ids
            .iter()
            .map(|id| {
                store
                    .kramdown
                    .get(id)
                    .cloned()
                    .or_else(|| store.rows.get(id).map(kramdown_of))
            })
            .collect())
    }

    async fn update_block(&self, id: &str, markdown: &str) -> HostResult<()> {
        self.check_capability(Capability::UpdateBlock)?;
        self.record("updateBlock", vec![id.to_string(), markdown.to_string()]);
        self.count_write(Capability::UpdateBlock)?;
        {
            let mut store = self.store.borrow_mut();
            if !store.rows.contains_key(id) {
                return Err(HostError::new(
                    Capability::UpdateBlock,
                    format!("block {id} not found"),
                ));
            }
            // The kernel keeps only the first block.
            let first = simple_blocks(markdown)
                .into_iter()
                .next()
                .unwrap_or_default();
            let (text, attrs) = split_ial(&first);
            if let Some(kids) = store.kids.get(id).cloned() {
                for k in kids {
                    store.remove_subtree(&k);
                }
                store.kids.insert(id.to_string(), Vec::new());
            }
            let row = store.rows.get_mut(id).unwrap();
            set_content(row, &text, &attrs);
            let k = kramdown_of(row);
            store.kramdown.insert(id.to_string(), k);
            if let Some(parent) = store.parent_of(id) {
                store.refresh_parent_ids(&parent);
            }
        }
        self.after_write();
        Ok(())
    }

    async fn delete_block(&self, id: &str) -> HostResult<()> {
        self.check_capability(Capability::DeleteBlock)?;
        self.record("deleteBlock", vec![id.to_string()]);
        self.count_write(Capability::DeleteBlock)?;
        {
            let mut store = self.store.borrow_mut();
            let Some(block) = store.rows.get(id).cloned() else {
                return Err(HostError::new(
                    Capability::DeleteBlock,
                    format!("block {id} not found"),
                ));
            };
            let _ = block;
            // The kernel unlinks only this node (a folded heading's section stays).
            let doomed = vec![id.to_string()];
            let parent = store.parent_of(id);
            for d in &doomed {
                if let Some(p) = store.parent_of(d) {
                    if let Some(kids) = store.kids.get_mut(&p) {
                        kids.retain(|k| k != d);
                    }
                }
                store.remove_subtree(d);
            }
            if let Some(p) = parent {
                store.refresh_parent_ids(&p);
            }
        }
        self.after_write();
        Ok(())
    }

    async fn insert_block(&self, markdown: &str, anchor: &InsertAnchor) -> HostResult<NewIds> {
        self.check_capability(Capability::InsertBlock)?;
        let (kind, target) = match anchor {
            InsertAnchor::After(id) => ("previousID", id),
            InsertAnchor::Before(id) => ("nextID", id),
            InsertAnchor::Parent(id) => ("parentID", id),
        };
        self.record(
            "insertBlock",
            vec![markdown.to_string(), format!("{kind}={target}")],
        );
        self.count_write(Capability::InsertBlock)?;
        let ids = {
            let mut store = self.store.borrow_mut();
            if !store.rows.contains_key(target) {
                return Err(HostError::new(
                    Capability::InsertBlock,
                    format!("anchor {target} not found"),
                ));
            }
            let (parent, index) = match anchor {
                InsertAnchor::Parent(p) => (p.clone(), usize::MAX),
                InsertAnchor::After(id) | InsertAnchor::Before(id) => {
                    let Some(parent) = store.parent_of(id) else {
                        return Err(HostError::new(
                            Capability::InsertBlock,
                            "anchor has no parent",
                        ));
                    };
                    let pos = store.kids[&parent].iter().position(|k| k == id).unwrap();
                    (
                        parent,
                        if matches!(anchor, InsertAnchor::After(_)) {
                            pos + 1
                        } else {
                            pos
                        },
                    )
                }
            };
            let ids = store.create_blocks(markdown, target, self.fresh_ids_on_insert.get());
            store.insert_at(&parent, index, &ids);
            ids
        };
        self.after_write();
        Ok(ids)
    }

    async fn get_breadcrumb(&self, ids: &[String]) -> HostResult<Vec<Vec<BreadcrumbEntry>>> {
        self.check_capability(Capability::GetBreadcrumb)?;
        self.record("getBreadcrumb", ids.to_vec());
        let store = self.store.borrow();
        Ok(ids
            .iter()
            .map(|id| store.breadcrumbs.get(id).cloned().unwrap_or_default())
            .collect())
    }

    async fn get_doc_headings(&self, doc_ids: &[String]) -> HostResult<Vec<Vec<Block>>> {
        self.check_capability(Capability::GetDocHeadings)?;
        self.record("getDocHeadings", doc_ids.to_vec());
        let store = self.store.borrow();
        Ok(doc_ids.iter().map(|id| store.headings(id)).collect())
    }

    async fn create_doc(
        &self,
        notebook: &str,
        hpath: &str,
        parent_id: &str,
        markdown: &str,
    ) -> HostResult<String> {
        self.check_capability(Capability::CreateDoc)?;
        self.record(
            "createDoc",
            vec![
                notebook.into(),
                hpath.into(),
                parent_id.into(),
                markdown.into(),
            ],
        );
        self.count_write(Capability::CreateDoc)?;
        let mut store = self.store.borrow_mut();
        let parent_path = if parent_id.is_empty() {
            String::new()
        } else {
            match store.rows.get(parent_id) {
                Some(p) if p.kind() == BlockKind::Document && p.box_id == notebook => {
                    p.path.trim_end_matches(".sy").to_string()
                }
                _ => {
                    return Err(HostError::new(
                        Capability::CreateDoc,
                        format!("parent document {parent_id} not found"),
                    ))
                }
            }
        };
        store.next_doc += 1;
        let id = format!("20990101000000-doc{:04}", store.next_doc);
        let title = hpath.rsplit('/').next().unwrap_or("").to_string();
        let row = Block {
            id: id.clone(),
            root_id: id.clone(),
            box_id: notebook.into(),
            path: format!("{parent_path}/{id}.sy"),
            hpath: hpath.into(),
            content: title.clone(),
            type_: "d".into(),
            ial: format!("{{: id=\"{id}\" title=\"{title}\" type=\"doc\"}}"),
            ..Block::default()
        };
        store.rows.insert(id.clone(), row);
        store.kids.insert(id.clone(), Vec::new());
        let blocks = store.create_blocks(markdown, &id, self.fresh_ids_on_insert.get());
        store.insert_at(&id, 0, &blocks);
        Ok(id)
    }

    async fn create_daily_note(&self, notebook: &str) -> HostResult<String> {
        self.check_capability(Capability::CreateDailyNote)?;
        self.record("createDailyNote", vec![notebook.into()]);
        if notebook == NOTEBOOK {
            Ok(DAILY_NOTE.into())
        } else {
            Err(HostError::new(
                Capability::CreateDailyNote,
                format!("notebook {notebook} not found"),
            ))
        }
    }

    async fn prepend_block(&self, parent_id: &str, markdown: &str) -> HostResult<NewIds> {
        self.container_insert(
            Capability::PrependBlock,
            "prependBlock",
            parent_id,
            markdown,
            true,
        )
    }

    async fn append_block(&self, parent_id: &str, markdown: &str) -> HostResult<NewIds> {
        self.container_insert(
            Capability::AppendBlock,
            "appendBlock",
            parent_id,
            markdown,
            false,
        )
    }
}

impl FixtureHost {
    fn container_insert(
        &self,
        capability: Capability,
        name: &'static str,
        parent_id: &str,
        markdown: &str,
        first: bool,
    ) -> HostResult<NewIds> {
        self.check_capability(capability)?;
        self.record(name, vec![parent_id.to_string(), markdown.to_string()]);
        self.count_write(capability)?;
        let ids = {
            let mut store = self.store.borrow_mut();
            let Some(parent) = store.rows.get(parent_id) else {
                return Err(HostError::new(
                    capability,
                    format!("block {parent_id} not found"),
                ));
            };
            if !parent.kind().is_container() {
                // Kernel v3.7 CheckContainerParent.
                return Err(HostError::new(
                    capability,
                    format!("block {parent_id} is not a container"),
                ));
            }
            let ids = store.create_blocks(markdown, parent_id, self.fresh_ids_on_insert.get());
            store.insert_at(parent_id, if first { 0 } else { usize::MAX }, &ids);
            ids
        };
        self.after_write();
        Ok(ids)
    }
}
