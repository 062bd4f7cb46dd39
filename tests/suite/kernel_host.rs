//! The Rust suites' SiYuan: the kernel double (`pkg-template/src/testing/
//! kernel/`, which implements `shared/KERNEL-FACTS.md`) behind the real
//! adapter (`createSiyuanHost`), run by Node and reached over a pipe
//! (`tests/kernel/server.ts`). SiYuan's rules are written once, in the
//! double; this file only forwards calls, records them, and adds the test
//! levers: a write that fails before it reaches the kernel, one whose answer
//! is lost after it landed, one that times out, missing callbacks, and a
//! concurrent editor.
//!
//! The server is bundled with the repository's esbuild and started once per
//! test binary; `npm ci` (scripts/setup.sh) provides esbuild, vditor's Lute
//! and Node.

#![allow(dead_code)]

use std::cell::{Cell, RefCell};
use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Mutex, OnceLock};

use editkit::{Block, BreadcrumbEntry, ChildBlock};
use editkit::{Capability, HostError, HostResult, InsertAnchor, NewIds, SiyuanHost};
use serde_json::{json, Value};

use super::support::shared_dir;

pub const FIXTURE_DOCS: [&str; 4] = [
    "doc1-weekly-report.json",
    "doc2-plugin-dev.json",
    "doc3-reading-list.json",
    "doc4-daily-note.json",
];

/// The fixture notebook and the document its daily note resolves to.
pub const NOTEBOOK: &str = "20240101090000-k3m9xzq";
pub const DAILY_NOTE: &str = "20240615073000-dn0615a";

/// One recorded host call: the callback's JS name and its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call {
    pub name: &'static str,
    pub args: Vec<String>,
}

struct Server {
    _child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn server() -> &'static Mutex<Server> {
    static SERVER: OnceLock<Mutex<Server>> = OnceLock::new();
    SERVER.get_or_init(|| {
        let out = repo()
            .join("target")
            .join("kernel-double")
            .join("server.mjs");
        let esbuild = repo().join("node_modules").join(".bin").join("esbuild");
        let status = Command::new(&esbuild)
            .current_dir(repo())
            .args([
                "tests/kernel/server.ts",
                "--bundle",
                "--platform=node",
                "--format=esm",
                "--log-level=warning",
            ])
            .arg(format!("--outfile={}", out.display()))
            .status()
            .unwrap_or_else(|e| {
                panic!(
                    "running {} (run scripts/setup.sh, which runs npm ci): {e}",
                    esbuild.display()
                )
            });
        assert!(status.success(), "bundling tests/kernel/server.ts failed");
        let mut child = Command::new("node")
            .arg(&out)
            .arg(repo())
            .arg(shared_dir())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("starting node for the kernel double");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Mutex::new(Server {
            _child: child,
            stdin,
            stdout,
        })
    })
}

/// One request to the server; `Err((message, timeout))` for a failure.
fn rpc(request: Value) -> Result<Value, (String, bool)> {
    let mut server = server().lock().unwrap_or_else(|e| e.into_inner());
    let line = format!("{request}\n");
    server
        .stdin
        .write_all(line.as_bytes())
        .expect("writing to the kernel double");
    server.stdin.flush().unwrap();
    let mut answer = String::new();
    server
        .stdout
        .read_line(&mut answer)
        .expect("reading from the kernel double");
    let value: Value = serde_json::from_str(&answer)
        .unwrap_or_else(|e| panic!("the kernel double answered {answer:?}: {e}"));
    match value.get("error") {
        Some(message) => Err((
            message.as_str().unwrap_or("").to_string(),
            value["timeout"] == json!(true),
        )),
        None => Ok(value["ok"].clone()),
    }
}

/// A fresh kernel double over the four fixture documents, behind the
/// adapter, with recorded calls and failure levers.
pub struct KernelHost {
    session: u64,
    pub calls: RefCell<Vec<Call>>,
    /// Fail the k-th write (1-based) before it reaches the kernel.
    pub fail_write_at: Cell<Option<usize>>,
    /// Fail these writes too (1-based, counted like `fail_write_at`).
    pub fail_writes: RefCell<HashSet<usize>>,
    /// The k-th write reaches the kernel and lands, then its answer is lost
    /// (the callback throws).
    pub lose_answer_at: Cell<Option<usize>>,
    /// The k-th write lands, then the callback times out.
    pub timeout_at: Cell<Option<usize>>,
    writes: Cell<usize>,
    /// Callbacks this host pretends not to have.
    pub missing: RefCell<HashSet<Capability>>,
    /// After the next successful write, a concurrent editor rewrites this
    /// block (id, markdown).
    pub tamper_after_write: RefCell<Option<(String, String)>>,
    /// After the next successful write, a concurrent editor inserts this
    /// markdown after this block (markdown, previous id).
    pub insert_after_write: RefCell<Option<(String, String)>>,
    /// Right before the n-th call (1-based) of the named callback, a
    /// concurrent editor rewrites a block: (callback, n, id, markdown).
    pub edit_before: RefCell<Option<(&'static str, usize, String, String)>>,
    /// Right before the n-th call of the named callback, a concurrent editor
    /// sets attributes: (callback, n, id, attrs).
    pub attrs_before: RefCell<Option<(&'static str, usize, String, Value)>>,
}

impl Default for KernelHost {
    fn default() -> Self {
        KernelHost::at("2099-01-01T00:00:00Z")
    }
}

impl KernelHost {
    /// All four fixture documents; the clock at 2099-01-01 (UTC).
    pub fn new() -> Self {
        KernelHost::default()
    }

    /// The same with the clock at `now` (an ISO date: the daily note of the
    /// fixtures is "today" at 2024-06-15).
    pub fn at(now: &str) -> Self {
        KernelHost::open(json!({"op": "new", "now": now}))
    }

    /// A double holding one document made of `markdown` (no fixtures).
    pub fn with_document(doc_id: &str, markdown: &str) -> Self {
        KernelHost::open(json!({"op": "new", "options": {"documents": [{
            "id": doc_id,
            "title": "scenario",
            "box": NOTEBOOK,
            "hpath": "/scenario",
            "blocks": [markdown],
        }]}}))
    }

    fn open(request: Value) -> Self {
        let session = rpc(request)
            .expect("creating a kernel double")
            .as_u64()
            .unwrap();
        KernelHost {
            session,
            calls: RefCell::new(Vec::new()),
            fail_write_at: Cell::new(None),
            fail_writes: RefCell::new(HashSet::new()),
            lose_answer_at: Cell::new(None),
            timeout_at: Cell::new(None),
            writes: Cell::new(0),
            missing: RefCell::new(HashSet::new()),
            tamper_after_write: RefCell::new(None),
            insert_after_write: RefCell::new(None),
            edit_before: RefCell::new(None),
            attrs_before: RefCell::new(None),
        }
    }

    /// A lever of the double itself (`flush`, `advance`, `editorUpdate`, …).
    pub fn kernel(&self, name: &str, args: Value) -> Value {
        rpc(json!({"op": "kernel", "session": self.session, "name": name, "args": args}))
            .unwrap_or_else(|(e, _)| panic!("kernel {name}: {e}"))
    }

    fn host_call(&self, capability: Capability, args: Value) -> HostResult<Value> {
        let name = capability.js_name();
        rpc(json!({"op": "host", "session": self.session, "name": name, "args": args})).map_err(
            |(message, timeout)| {
                if timeout {
                    HostError::timed_out(capability, message)
                } else {
                    HostError::new(capability, message)
                }
            },
        )
    }

    fn parse<T: serde::de::DeserializeOwned>(capability: Capability, v: Value) -> HostResult<T> {
        serde_json::from_value(v).map_err(|e| HostError::new(capability, e.to_string()))
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

    /// A block's row computed from the tree now.
    pub fn block(&self, id: &str) -> Option<Block> {
        serde_json::from_value(self.kernel("block", json!([id]))).ok()
    }

    pub fn kramdown(&self, id: &str) -> Option<String> {
        self.kernel("kramdown", json!([id]))
            .as_str()
            .map(str::to_string)
    }

    /// The document as (id, type, markdown) of its blocks in pre-order.
    pub fn snapshot(&self, doc_id: &str) -> Vec<(String, String, String)> {
        let v = self.kernel("snapshot", json!([doc_id]));
        v.as_array()
            .unwrap()
            .iter()
            .map(|b| {
                (
                    b["id"].as_str().unwrap().to_string(),
                    b["type"].as_str().unwrap().to_string(),
                    b["markdown"].as_str().unwrap_or("").to_string(),
                )
            })
            .collect()
    }

    /// Top-level blocks of a document as (id, markdown).
    pub fn top_level(&self, doc_id: &str) -> Vec<(String, String)> {
        let v = self.kernel("topLevel", json!([doc_id]));
        v.as_array()
            .unwrap()
            .iter()
            .map(|p| {
                (
                    p[0].as_str().unwrap().to_string(),
                    p[1].as_str().unwrap().to_string(),
                )
            })
            .collect()
    }

    fn record(&self, name: &'static str, args: Vec<String>) {
        self.calls.borrow_mut().push(Call { name, args });
        let n = self.calls_named(name);
        let edit_due = self
            .edit_before
            .borrow()
            .as_ref()
            .is_some_and(|(callback, at, _, _)| *callback == name && *at == n);
        if edit_due {
            if let Some((_, _, id, md)) = self.edit_before.borrow_mut().take() {
                self.kernel("editorUpdate", json!([id, md]));
            }
        }
        let attrs_due = self
            .attrs_before
            .borrow()
            .as_ref()
            .is_some_and(|(callback, at, _, _)| *callback == name && *at == n);
        if attrs_due {
            if let Some((_, _, id, attrs)) = self.attrs_before.borrow_mut().take() {
                self.kernel("editorSetAttrs", json!([id, attrs]));
            }
        }
    }

    fn check_capability(&self, c: Capability) -> HostResult<()> {
        if self.missing.borrow().contains(&c) {
            Err(HostError::missing(c))
        } else {
            Ok(())
        }
    }

    /// One write through the levers: recorded as `recorded`, refused when
    /// the callback is missing, failed before or after it lands when asked.
    fn write(&self, c: Capability, recorded: Vec<String>, args: Value) -> HostResult<Value> {
        self.record(c.js_name(), recorded);
        self.check_capability(c)?;
        let n = self.before_write(c)?;
        let result = self.host_call(c, args);
        self.after_write(c, n, result)
    }

    /// Counts a write; fails it before it reaches the kernel when asked.
    fn before_write(&self, c: Capability) -> HostResult<usize> {
        let n = self.writes.get() + 1;
        self.writes.set(n);
        if self.fail_write_at.get() == Some(n) || self.fail_writes.borrow().contains(&n) {
            return Err(HostError::new(
                c,
                format!("simulated failure of write #{n}"),
            ));
        }
        Ok(n)
    }

    /// After a write reached the kernel: lose its answer or time out when
    /// asked; let the concurrent editor act.
    fn after_write<T>(&self, c: Capability, n: usize, result: HostResult<T>) -> HostResult<T> {
        let result = result?;
        if let Some((id, md)) = self.tamper_after_write.borrow_mut().take() {
            self.kernel("editorUpdate", json!([id, md]));
        }
        if let Some((md, previous)) = self.insert_after_write.borrow_mut().take() {
            self.kernel("editorInsert", json!([md, {"previousID": previous}]));
        }
        if self.lose_answer_at.get() == Some(n) {
            return Err(HostError::new(
                c,
                format!("write #{n} landed but its answer was lost"),
            ));
        }
        if self.timeout_at.get() == Some(n) {
            return Err(HostError::timed_out(
                c,
                format!("write #{n} landed but did not answer in time"),
            ));
        }
        Ok(result)
    }
}

impl Drop for KernelHost {
    fn drop(&mut self) {
        let _ = rpc(json!({"op": "drop", "session": self.session}));
    }
}

fn ids_of(v: Value, c: Capability) -> HostResult<NewIds> {
    KernelHost::parse(c, v)
}

impl SiyuanHost for KernelHost {
    fn has(&self, capability: Capability) -> bool {
        // The native suites write block by block (the levers hook single
        // writes); the batch path runs in the Node suites.
        let batch = matches!(
            capability,
            Capability::UpdateBlocks
                | Capability::InsertBlocks
                | Capability::PrependBlocks
                | Capability::AppendBlocks
        );
        capability != Capability::Corrector
            && !batch
            && !self.missing.borrow().contains(&capability)
    }

    async fn get_blocks(&self, ids: &[String]) -> HostResult<Vec<Option<Block>>> {
        self.record("getBlocks", ids.to_vec());
        self.check_capability(Capability::GetBlocks)?;
        let v = self.host_call(Capability::GetBlocks, json!([ids]))?;
        KernelHost::parse(Capability::GetBlocks, v)
    }

    async fn get_child_blocks(&self, ids: &[String]) -> HostResult<Vec<Vec<ChildBlock>>> {
        self.record("getChildBlocks", ids.to_vec());
        self.check_capability(Capability::GetChildBlocks)?;
        let v = self.host_call(Capability::GetChildBlocks, json!([ids]))?;
        KernelHost::parse(Capability::GetChildBlocks, v)
    }

    async fn get_kramdown(&self, ids: &[String]) -> HostResult<Vec<Option<String>>> {
        self.record("getKramdown", ids.to_vec());
        self.check_capability(Capability::GetKramdown)?;
        let v = self.host_call(Capability::GetKramdown, json!([ids]))?;
        KernelHost::parse(Capability::GetKramdown, v)
    }

    async fn update_block(&self, id: &str, markdown: &str) -> HostResult<()> {
        let recorded = vec![id.to_string(), markdown.to_string()];
        self.write(Capability::UpdateBlock, recorded, json!([id, markdown]))
            .map(|_| ())
    }

    async fn delete_block(&self, id: &str) -> HostResult<()> {
        self.write(Capability::DeleteBlock, vec![id.to_string()], json!([id]))
            .map(|_| ())
    }

    async fn insert_block(&self, markdown: &str, anchor: &InsertAnchor) -> HostResult<NewIds> {
        let (key, id) = match anchor {
            InsertAnchor::After(id) => ("previousID", id),
            InsertAnchor::Before(id) => ("nextID", id),
            InsertAnchor::Parent(id) => ("parentID", id),
        };
        let c = Capability::InsertBlock;
        let recorded = vec![markdown.to_string(), format!("{key}={id}")];
        let v = self.write(c, recorded, json!([markdown, {key: id}]))?;
        ids_of(v, c)
    }

    async fn prepend_block(&self, parent_id: &str, markdown: &str) -> HostResult<NewIds> {
        let c = Capability::PrependBlock;
        let recorded = vec![parent_id.to_string(), markdown.to_string()];
        ids_of(self.write(c, recorded, json!([parent_id, markdown]))?, c)
    }

    async fn append_block(&self, parent_id: &str, markdown: &str) -> HostResult<NewIds> {
        let c = Capability::AppendBlock;
        let recorded = vec![parent_id.to_string(), markdown.to_string()];
        ids_of(self.write(c, recorded, json!([parent_id, markdown]))?, c)
    }

    async fn flush_transaction(&self) -> HostResult<()> {
        self.record("flushTransaction", Vec::new());
        if self
            .missing
            .borrow()
            .contains(&Capability::FlushTransaction)
        {
            return Ok(());
        }
        self.host_call(Capability::FlushTransaction, json!([]))
            .map(|_| ())
    }

    async fn get_breadcrumb(&self, ids: &[String]) -> HostResult<Vec<Vec<BreadcrumbEntry>>> {
        self.record("getBreadcrumb", ids.to_vec());
        self.check_capability(Capability::GetBreadcrumb)?;
        let v = self.host_call(Capability::GetBreadcrumb, json!([ids]))?;
        KernelHost::parse(Capability::GetBreadcrumb, v)
    }

    async fn get_doc_headings(&self, doc_ids: &[String]) -> HostResult<Vec<Vec<Block>>> {
        self.record("getDocHeadings", doc_ids.to_vec());
        self.check_capability(Capability::GetDocHeadings)?;
        let v = self.host_call(Capability::GetDocHeadings, json!([doc_ids]))?;
        KernelHost::parse(Capability::GetDocHeadings, v)
    }

    async fn get_referenced_ids(&self, ids: &[String]) -> HostResult<Vec<String>> {
        self.record("getReferencedIds", ids.to_vec());
        self.check_capability(Capability::GetReferencedIds)?;
        let v = self.host_call(Capability::GetReferencedIds, json!([ids]))?;
        KernelHost::parse(Capability::GetReferencedIds, v)
    }

    async fn split_markdown(&self, markdown: &str) -> HostResult<Vec<String>> {
        self.record("splitMarkdown", vec![markdown.to_string()]);
        self.check_capability(Capability::SplitMarkdown)?;
        let v = self.host_call(Capability::SplitMarkdown, json!([markdown]))?;
        KernelHost::parse(Capability::SplitMarkdown, v)
    }

    async fn create_doc(
        &self,
        notebook: &str,
        hpath: &str,
        parent_id: &str,
        markdown: &str,
    ) -> HostResult<String> {
        let c = Capability::CreateDoc;
        self.record(
            "createDoc",
            vec![
                notebook.to_string(),
                hpath.to_string(),
                parent_id.to_string(),
                markdown.to_string(),
            ],
        );
        self.check_capability(c)?;
        self.before_write(c)?;
        let mut args = json!({"notebook": notebook, "path": hpath, "markdown": markdown});
        if !parent_id.is_empty() {
            args["parentID"] = json!(parent_id);
        }
        let v = self.host_call(c, json!([args]))?;
        KernelHost::parse(c, v)
    }

    async fn create_daily_note(&self, notebook: &str) -> HostResult<String> {
        let c = Capability::CreateDailyNote;
        self.record("createDailyNote", vec![notebook.to_string()]);
        self.check_capability(c)?;
        self.before_write(c)?;
        let v = self.host_call(c, json!([{"notebook": notebook}]))?;
        KernelHost::parse(c, v)
    }
}
