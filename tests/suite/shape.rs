//! The codebase's shape, kept by tests (docs/ARCHITECTURE.md):
//!
//! - every messages module (a `messages.rs`, or every file of a
//!   `messages/` directory) is a leaf beside its capability's vocabulary:
//!   it imports no stage module of its capability, so no stage is imported
//!   back by the messages it imports;
//! - no function in `src/` is longer than 80 lines unless a comment right
//!   above it says why it is one piece;
//! - the modules of `src/` use one another in one direction: no module
//!   names (in a `use` or a path) a module that names it back through any
//!   chain; comments and `#[cfg(test)]` code aside.

use std::path::{Path, PathBuf};

const SRC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
const MAX_FUNCTION_LINES: usize = 80;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

fn sources() -> Vec<(String, String)> {
    let mut files = Vec::new();
    rust_files(Path::new(SRC), &mut files);
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let name = p.strip_prefix(SRC).unwrap().display().to_string();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect()
}

/// The sibling modules a messages module may import: its capability's
/// vocabulary, never a stage.
const VOCABULARY: &[&str] = &["types", "problem"];

/// For a messages module, its capability and how many `super::` lead from
/// it to the capability: one from `messages.rs` and `messages/mod.rs`, two
/// from a file inside `messages/`, one more per directory below. `None`
/// for any other file.
fn messages_module(name: &str) -> Option<(&str, usize)> {
    let parts: Vec<&str> = name.split(['/', '\\']).collect();
    if let [.., capability, "messages.rs"] = parts.as_slice() {
        return Some((capability, 1));
    }
    let at = parts.iter().position(|p| *p == "messages")?;
    let capability = *parts.get(at.checked_sub(1)?)?;
    let below = &parts[at + 1..];
    let in_mod = below.last() == Some(&"mod.rs");
    Some((capability, below.len() - usize::from(in_mod) + 1))
}

/// The imports of the messages module `name` that reach a stage of its
/// capability: `use super::…` up to the capability and on to a module
/// other than the vocabulary (or beyond the capability), or `use
/// crate::<capability>::…` naming such a module. Going up less far stays
/// inside the messages.
fn stage_imports(name: &str, text: &str) -> Vec<String> {
    let Some((capability, levels)) = messages_module(name) else {
        return Vec::new();
    };
    let own = format!("crate::{capability}::");
    // A unit-test module's `use super::*` is the messages module itself.
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    let mut wrong = Vec::new();
    for line in code.lines() {
        let line = line.trim_start();
        let Some(path) = ["use ", "pub use ", "pub(crate) use ", "pub(super) use "]
            .iter()
            .find_map(|p| line.strip_prefix(p))
        else {
            continue;
        };
        let (up, rest) = if let Some(rest) = path.strip_prefix(own.as_str()) {
            (levels, rest)
        } else {
            let mut rest = path;
            let mut up = 0;
            while let Some(r) = rest.strip_prefix("super::") {
                rest = r;
                up += 1;
            }
            (up, rest)
        };
        if up < levels {
            continue;
        }
        let module: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let allowed = VOCABULARY.contains(&module.as_str())
            || (path.starts_with(own.as_str()) && module == "messages");
        if up > levels || !allowed {
            wrong.push(format!("{name}: `{line}`"));
        }
    }
    wrong
}

#[test]
fn messages_import_only_their_vocabulary() {
    let wrong: Vec<String> = sources()
        .iter()
        .flat_map(|(name, text)| stage_imports(name, text))
        .collect();
    assert!(
        wrong.is_empty(),
        "messages modules importing a stage:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_import_check_sees_every_messages_module_and_its_stages() {
    assert_eq!(messages_module("a/messages.rs"), Some(("a", 1)));
    assert_eq!(messages_module("a/messages/mod.rs"), Some(("a", 1)));
    assert_eq!(messages_module("a/messages/format.rs"), Some(("a", 2)));
    assert_eq!(messages_module("a/messages/b/mod.rs"), Some(("a", 2)));
    assert_eq!(messages_module("a/check.rs"), None);
    let inside = "use super::{suggestions, Said};\nuse super::super::types::Problem;\n";
    assert!(stage_imports("a/messages/format.rs", inside).is_empty());
    assert!(stage_imports("a/messages/mod.rs", "use super::problem::P;\n").is_empty());
    assert!(stage_imports("a/messages/x.rs", "use crate::b::check::X;\n").is_empty());
    for (name, line) in [
        ("a/messages.rs", "use super::check::X;"),
        ("a/messages/mod.rs", "pub use super::check::X;"),
        ("a/messages/x.rs", "use super::super::check::X;"),
        ("a/messages/x.rs", "use super::super::super::b::X;"),
        ("a/messages/x.rs", "use crate::a::check::X;"),
    ] {
        assert_eq!(
            stage_imports(name, line),
            vec![format!("{name}: `{line}`")],
            "{name}"
        );
    }
}

/// Functions longer than [`MAX_FUNCTION_LINES`], with no comment above
/// them (or above their doc comment) saying why they are one piece.
fn long_functions(name: &str, text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let indent = &line[..line.len() - trimmed.len()];
        let head = trimmed
            .trim_start_matches("pub(crate) ")
            .trim_start_matches("pub(super) ")
            .trim_start_matches("pub ")
            .trim_start_matches("const ")
            .trim_start_matches("async ");
        if !head.starts_with("fn ") || line.trim_end().ends_with(';') {
            continue;
        }
        let closing = format!("{indent}}}");
        let Some(end) = lines[i..].iter().position(|l| *l == closing) else {
            continue;
        };
        let length = end + 1;
        if length <= MAX_FUNCTION_LINES {
            continue;
        }
        let above = lines[..i]
            .iter()
            .rev()
            .take_while(|l| {
                let l = l.trim_start();
                l.starts_with("//") || l.starts_with("#[")
            })
            .any(|l| l.to_lowercase().contains("one piece"));
        if !above {
            let fn_name: String = head[3..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            out.push(format!("{name}:{} `{fn_name}` ({length} lines)", i + 1));
        }
    }
    out
}

#[test]
fn no_long_function_without_a_reason() {
    let long: Vec<String> = sources()
        .iter()
        .flat_map(|(name, text)| long_functions(name, text))
        .collect();
    assert!(
        long.is_empty(),
        "functions over {MAX_FUNCTION_LINES} lines (split them, or say why above them with \"one piece\"):\n{}",
        long.join("\n")
    );
}

#[test]
fn the_length_check_sees_a_long_function_and_its_reason() {
    let body = "    x();\n".repeat(MAX_FUNCTION_LINES);
    let long = format!("fn f() {{\n{body}}}\n");
    assert_eq!(
        long_functions("a.rs", &long),
        vec![format!("a.rs:1 `f` ({} lines)", MAX_FUNCTION_LINES + 2)]
    );
    let explained = format!("// A table, kept as one piece.\n/// Docs.\n{long}");
    assert!(long_functions("a.rs", &explained).is_empty());
}

/// `src/a/b.rs` and `src/a/b/mod.rs` → `a::b`; `src/lib.rs` → `` (the crate).
fn module_of(file: &str) -> String {
    let path = file.trim_start_matches('/').trim_end_matches(".rs");
    let path = path.strip_suffix("/mod").unwrap_or(path);
    if path == "lib" {
        return String::new();
    }
    path.replace('/', "::")
}

/// The modules `text` (module `me`) names through `crate::…` and
/// `super::…` paths, outside comments and test code; the longest prefix of
/// each path that is a module, not `me` itself nor one of its ancestors.
fn modules_named(me: &str, text: &str, modules: &[String]) -> Vec<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    let mut named = Vec::new();
    for line in code.lines() {
        let line = line.split("//").next().unwrap_or("");
        let mut rest = line;
        while let Some(at) = rest.find(['c', 's']) {
            let tail = &rest[at..];
            let starts_word =
                at == 0 || !rest[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_');
            let path_len = tail
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(tail.len());
            let path = &tail[..path_len];
            if starts_word && (path.starts_with("crate::") || path.starts_with("super::")) {
                if let Some(target) = resolve_path(me, path, modules) {
                    named.push(target);
                }
            }
            rest = &tail[path_len.max(1)..];
        }
    }
    named.sort();
    named.dedup();
    named
}

fn resolve_path(me: &str, path: &str, modules: &[String]) -> Option<String> {
    let mut parts: Vec<&str> = path.split("::").filter(|p| !p.is_empty()).collect();
    let mut base: Vec<&str> = if me.is_empty() {
        Vec::new()
    } else {
        me.split("::").collect()
    };
    if parts.first() == Some(&"crate") {
        parts.remove(0);
        base.clear();
    } else {
        while parts.first() == Some(&"super") {
            parts.remove(0);
            base.pop();
        }
    }
    let full: Vec<&str> = base.into_iter().chain(parts).collect();
    (1..=full.len()).rev().find_map(|k| {
        let candidate = full[..k].join("::");
        let ancestor = me == candidate || me.starts_with(&format!("{candidate}::"));
        (modules.contains(&candidate) && !ancestor).then_some(candidate)
    })
}

/// The groups of modules that name one another in a circle (Tarjan's
/// strongly connected components of more than one module).
fn circles(edges: &[(String, Vec<String>)]) -> Vec<Vec<String>> {
    struct Walk<'a> {
        edges: &'a [(String, Vec<String>)],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        stack: Vec<usize>,
        on_stack: Vec<bool>,
        next: usize,
        found: Vec<Vec<String>>,
    }
    impl Walk<'_> {
        fn position(&self, name: &str) -> Option<usize> {
            self.edges.iter().position(|(m, _)| m == name)
        }
        fn visit(&mut self, v: usize) {
            self.index[v] = Some(self.next);
            self.low[v] = self.next;
            self.next += 1;
            self.stack.push(v);
            self.on_stack[v] = true;
            let targets: Vec<usize> = self.edges[v]
                .1
                .iter()
                .filter_map(|t| self.position(t))
                .collect();
            for w in targets {
                match self.index[w] {
                    None => {
                        self.visit(w);
                        self.low[v] = self.low[v].min(self.low[w]);
                    }
                    Some(i) if self.on_stack[w] => self.low[v] = self.low[v].min(i),
                    Some(_) => {}
                }
            }
            if Some(self.low[v]) != self.index[v] {
                return;
            }
            let mut group = Vec::new();
            while let Some(w) = self.stack.pop() {
                self.on_stack[w] = false;
                group.push(self.edges[w].0.clone());
                if w == v {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                self.found.push(group);
            }
        }
    }
    let n = edges.len();
    let mut walk = Walk {
        edges,
        index: vec![None; n],
        low: vec![0; n],
        stack: Vec::new(),
        on_stack: vec![false; n],
        next: 0,
        found: Vec::new(),
    };
    for v in 0..n {
        if walk.index[v].is_none() {
            walk.visit(v);
        }
    }
    walk.found
}

fn module_edges(files: &[(String, String)]) -> Vec<(String, Vec<String>)> {
    let modules: Vec<String> = files.iter().map(|(name, _)| module_of(name)).collect();
    files
        .iter()
        .map(|(name, text)| {
            let me = module_of(name);
            let named = modules_named(&me, text, &modules);
            (me, named)
        })
        .collect()
}

#[test]
fn no_module_circle() {
    let found = circles(&module_edges(&sources()));
    assert!(
        found.is_empty(),
        "modules that use one another in a circle (give the shared part a module of its own):\n{}",
        found
            .iter()
            .map(|g| g.join(" <-> "))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn the_circle_check_sees_a_circle_and_ignores_comments_and_tests() {
    let file = |name: &str, text: &str| (name.to_string(), text.to_string());
    let files = [
        file("/lib.rs", "mod a;\n"),
        file("/a/mod.rs", "mod b;\nmod c;\nuse crate::a::b::X;\n"),
        file("/a/b.rs", "use super::c::Y; // super::mod_doc\n"),
        file("/a/c.rs", "pub fn f() { super::b::g(); }\n"),
        file(
            "/a/d.rs",
            "//! [`super::b`]\n#[cfg(test)]\nmod t { use super::super::c; }\n",
        ),
    ];
    let edges = module_edges(&files);
    assert_eq!(
        circles(&edges),
        vec![vec!["a::b".to_string(), "a::c".to_string()]]
    );
    let d = edges.iter().find(|(m, _)| m == "a::d").unwrap();
    assert!(d.1.is_empty(), "comments and tests name nothing: {:?}", d.1);
}
