//! Properties of the patch planner over generated files and edits:
//!
//! - a unified diff of (old, new), as `diff -u` writes it (editkit's own
//!   `unified_diff`, any context), applied to old gives new exactly: its
//!   line numbers settle every tie its context leaves;
//! - the same hunks as a codex patch (no line numbers) give new or a
//!   refusal, never any other text: where repeated lines leave a hunk two
//!   places, it is refused, not guessed.
//!
//! Lines come from a small vocabulary, so repeats (and ambiguity) are
//! common, with CRLF files, files without a final newline and blank lines.

use std::collections::BTreeMap;

use editkit::{plan_patch, plan_unified_diff, unified_diff, PatchOptions, UnifiedDiffOptions};
use proptest::prelude::*;

fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("}".to_string()),
        Just("    return x;".to_string()),
        Just("fn f() {".to_string()),
        Just("\tlet y = 2;".to_string()),
        Just("// 注释 😀".to_string()),
        "[a-z]{1,6}( [a-z]{1,6}){0,2}",
    ]
}

/// A file: its lines, whether it uses CRLF, and whether it ends with a
/// line break.
fn file() -> impl Strategy<Value = (Vec<String>, bool, bool)> {
    (
        prop::collection::vec(line(), 0..24),
        any::<bool>(),
        any::<bool>(),
    )
        // A file without a line break has no ending to keep: lines added
        // to it use LF.
        .prop_map(|(lines, crlf, end)| {
            let crlf = crlf && (lines.len() > 1 || (lines.len() == 1 && end));
            (lines, crlf, end)
        })
}

fn join((lines, crlf, final_break): &(Vec<String>, bool, bool)) -> String {
    let ending = if *crlf { "\r\n" } else { "\n" };
    let mut text = lines.join(ending);
    if *final_break && !lines.is_empty() {
        text.push_str(ending);
    }
    text
}

/// An edit of a file's lines: replace `len` lines at `at` with `new`.
fn edited(
    (lines, crlf, final_break): &(Vec<String>, bool, bool),
    at: usize,
    len: usize,
    new: &[String],
) -> (Vec<String>, bool, bool) {
    let at = at.min(lines.len());
    let end = (at + len).min(lines.len());
    let mut out = lines[..at].to_vec();
    out.extend_from_slice(new);
    out.extend_from_slice(&lines[end..]);
    (out, *crlf, *final_break)
}

/// The hunks of a unified diff as a codex patch: every `@@ …` header
/// becomes a bare `@@`, body lines stay; `\ No newline` lines are dropped
/// (codex has none).
fn as_codex(diff: &str) -> String {
    let mut out = String::from("*** Begin Patch\n*** Update File: f\n");
    for l in diff.lines().skip(2) {
        if l.starts_with("@@") {
            out.push_str("@@\n");
        } else if !l.starts_with('\\') {
            out.push_str(l);
            out.push('\n');
        }
    }
    out.push_str("*** End Patch\n");
    out
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 400,
        max_global_rejects: 100_000,
        ..ProptestConfig::default()
    })]

    #[test]
    fn a_unified_diff_applies_back_exactly(
        before in file(),
        at in 0usize..24,
        len in 0usize..4,
        new in prop::collection::vec(line(), 0..4),
        context in 0usize..4,
    ) {
        let after = edited(&before, at, len, &new);
        let (old, new_text) = (join(&before), join(&after));
        prop_assume!(old != new_text);
        let diff = unified_diff(&old, &new_text, UnifiedDiffOptions { old_name: "f", new_name: "f", context });
        let files = BTreeMap::from([("f".to_string(), old.clone())]);
        let report = plan_unified_diff(&files, &diff, &PatchOptions::default());
        match report {
            Ok(r) if r.ok => {
                let got = r.files[0].content.clone().unwrap_or_default();
                // CRLF: the diff's lines are compared without their `\r`
                // and the file's endings are kept, so the result is the
                // new text exactly.
                prop_assert_eq!(got, new_text, "diff:\n{}", diff);
            }
            // Without context, a hunk of only added lines has no place
            // (HUNK_WITHOUT_CONTEXT); that is the only allowed refusal.
            Ok(r) => {
                let codes: Vec<_> = r.files.iter().filter_map(|f| f.error.as_ref()).map(|e| e.code).collect();
                prop_assert!(context == 0 || old.trim().is_empty(), "refused {:?} with context {}:\n{}\n{}", codes, context, diff, r.summary);
            }
            Err(e) => prop_assert!(false, "{}: {}\n{}", e.code, e.message, diff),
        }
    }

    #[test]
    fn a_codex_patch_gives_the_new_text_or_a_refusal(
        before in file(),
        at in 0usize..24,
        len in 0usize..4,
        new in prop::collection::vec(line(), 0..4),
        context in 1usize..4,
    ) {
        // Files that end with a line break: a missing final newline has no
        // codex spelling.
        let before = (before.0, before.1, true);
        let after = edited(&before, at, len, &new);
        let (old, new_text) = (join(&before), join(&after));
        prop_assume!(old != new_text);
        let diff = unified_diff(&old, &new_text, UnifiedDiffOptions { old_name: "f", new_name: "f", context });
        let patch = as_codex(&diff);
        let files = BTreeMap::from([("f".to_string(), old.clone())]);
        if let Ok(r) = plan_patch(&files, &patch, &PatchOptions::default()) {
            if r.ok {
                let got = r.files[0].content.clone().unwrap_or_default();
                prop_assert_eq!(got, new_text, "patch:\n{}", patch);
            }
        }
    }
}
