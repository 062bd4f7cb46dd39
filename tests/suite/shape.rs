//! The codebase's shape, kept by tests (docs/ARCHITECTURE.md):
//!
//! - every messages module (a `messages.rs`, or every file of a
//!   `messages/` directory) is a leaf beside its capability's vocabulary:
//!   it imports no stage module of its capability, so no stage is imported
//!   back by the messages it imports;
//! - no function in `src/` is longer than 80 lines unless a comment right
//!   above it says why it is one piece.

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
