//! Properties of applyBlockDiff over generated edits of a fixture document:
//! apply then undo is the identity on the document; an atomic diff with one
//! bad hunk writes nothing; any prefix of a diff validates without panic.

use editkit::{apply_block_diff, validate_block_diff_format, ApplyOptions, FormatOptions};
use proptest::prelude::*;

use super::kernel_host::KernelHost;
use super::support::block_on;

/// The flat reading-list document (12 top-level blocks, 2 headings).
const DOC: &str = "20240620211500-rdlst7q";

#[derive(Clone, Debug)]
enum Op {
    /// Rewrite part of paragraph `i` (by position among paragraphs).
    Edit(usize, String),
    Delete(usize),
    After(usize, String),
    Before(usize, String),
    /// Replace a paragraph with two blocks.
    Split(usize, String, String),
    Append(String),
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z ]{1,12}",
        "[一-龥]{1,8}",
        Just("emoji 😀🎉".to_string()),
        Just("**bold** and `code`".to_string()),
    ]
    .prop_map(|s| s.trim().to_string())
    .prop_filter("non-empty", |s| !s.is_empty())
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0..10usize, text()).prop_map(|(i, t)| Op::Edit(i, t)),
        (0..10usize).prop_map(Op::Delete),
        (0..10usize, text()).prop_map(|(i, t)| Op::After(i, t)),
        (0..10usize, text()).prop_map(|(i, t)| Op::Before(i, t)),
        (0..10usize, text(), text()).prop_map(|(i, a, b)| Op::Split(i, a, b)),
        text().prop_map(Op::Append),
    ]
}

/// Builds a diff from ops against the document's paragraphs; each block is
/// the target of at most one op (conflicting edits are refused by design).
fn diff_for(host: &KernelHost, ops: &[Op]) -> String {
    let paragraphs: Vec<(String, String)> = host
        .top_level(DOC)
        .into_iter()
        .filter(|(_, md)| !md.starts_with('#') && !md.is_empty())
        .collect();
    let mut used = std::collections::HashSet::new();
    let mut hunks = Vec::new();
    for op in ops {
        let pick = |i: &usize| paragraphs.get(i % paragraphs.len()).cloned().unwrap();
        let (target, hunk) = match op {
            Op::Edit(i, t) => {
                let (id, md) = pick(i);
                let word = md.split_whitespace().last().unwrap_or(&md).to_string();
                let unique = md.matches(&word).count() == 1;
                let search = if unique { word } else { md.clone() };
                (
                    id.clone(),
                    format!("@@{id}@@\n<<<<<<< SEARCH\n{search}\n=======\n{t}\n>>>>>>> REPLACE"),
                )
            }
            Op::Delete(i) => {
                let (id, _) = pick(i);
                (id.clone(), format!("@@DELETE:{id}@@"))
            }
            Op::After(i, t) => {
                let (id, _) = pick(i);
                (id.clone(), format!("@@AFTER:{id}@@\n{t}"))
            }
            Op::Before(i, t) => {
                let (id, _) = pick(i);
                (id.clone(), format!("@@BEFORE:{id}@@\n{t}"))
            }
            Op::Split(i, a, b) => {
                let (id, _) = pick(i);
                (id.clone(), format!("@@REPLACE:{id}@@\n{a}\n\n{b}"))
            }
            Op::Append(t) => (
                format!("append-{}", hunks.len()),
                format!("@@APPEND:{DOC}@@\n{t}"),
            ),
        };
        if used.insert(target) {
            hunks.push(hunk);
        }
    }
    hunks.join("\n\n")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    #[test]
    fn apply_then_undo_is_the_identity(ops in prop::collection::vec(op(), 1..6)) {
        let host = KernelHost::new();
        let before = host.top_level(DOC);
        let diff = diff_for(&host, &ops);
        let report = block_on(apply_block_diff(&diff, &host, &ApplyOptions::default())).unwrap();
        prop_assert!(report.ok, "{}\n{diff}\n{:#?}", report.summary, report.results);
        if let Some(undo) = report.undo {
            let undone = block_on(apply_block_diff(&undo, &host, &ApplyOptions::default())).unwrap();
            prop_assert!(undone.ok, "{}\n{undo}", undone.summary);
        }
        prop_assert_eq!(host.top_level(DOC), before, "{}", diff);
    }

    #[test]
    fn an_atomic_diff_with_one_bad_hunk_writes_nothing(ops in prop::collection::vec(op(), 1..5), at in 0..5usize) {
        let host = KernelHost::new();
        let before = host.top_level(DOC);
        let diff = diff_for(&host, &ops);
        let mut hunks: Vec<&str> = diff.split("\n\n@@").collect();
        let bad = "@@20240620211650-qbend11@@\n<<<<<<< SEARCH\nthis text is not in the block\n=======\nx\n>>>>>>> REPLACE";
        let at = at % (hunks.len() + 1);
        let rebuilt: Vec<String> = {
            let mut parts: Vec<String> = hunks.drain(..).enumerate().map(|(k, h)| if k == 0 { h.to_string() } else { format!("@@{h}") }).collect();
            parts.insert(at, bad.to_string());
            parts
        };
        let diff = rebuilt.join("\n\n");
        let report = block_on(apply_block_diff(&diff, &host, &ApplyOptions::default())).unwrap();
        prop_assert!(!report.ok);
        prop_assert!(host.writes().is_empty(), "{diff}");
        prop_assert_eq!(host.top_level(DOC), before);
    }

    #[test]
    fn every_prefix_of_a_diff_validates_without_panic(ops in prop::collection::vec(op(), 1..5)) {
        let host = KernelHost::new();
        let diff = diff_for(&host, &ops);
        // The whole diff is valid; every prefix validates without a panic,
        // and each problem it reports points at a line of that prefix.
        prop_assert!(validate_block_diff_format(&diff, &FormatOptions::default()).valid, "{diff}");
        let mut cut = 0;
        while cut <= diff.len() {
            if diff.is_char_boundary(cut) {
                let prefix = &diff[..cut];
                let report = validate_block_diff_format(prefix, &FormatOptions::default());
                let lines = u32::try_from(prefix.split('\n').count()).unwrap_or(u32::MAX);
                for e in &report.errors {
                    if let Some(line) = e.details.line {
                        prop_assert!((1..=lines).contains(&line), "{:?} at line {line} of {lines}", e.code);
                    }
                }
            }
            cut += 1;
        }
    }
}
