//! Patches (codex envelopes and unified diffs), from the table in
//! `tests/data/patch-cases.json`: each case gives the files, the patch and
//! what a host ends up with (every file's text, `null` for absent), or the
//! refusals (code, file, hunk, candidates, words of the message), or the
//! lines of the format problems.

use std::collections::{BTreeMap, HashMap};

use editkit::{
    apply_search_replace, plan_patch, plan_unified_diff, ErrorCode, FileOp, FileResult, HunkResult,
    PatchOptions, PatchReport, SearchReplaceOptions,
};
use serde_json::Value;

/// What a host does with a report: write, rename, delete.
fn host_apply(files: &BTreeMap<String, String>, report: &PatchReport) -> BTreeMap<String, String> {
    let mut out = files.clone();
    for f in report.files.iter().filter(|f| f.write) {
        match f.op {
            FileOp::Delete => {
                out.remove(&f.path);
            }
            FileOp::Add | FileOp::Update => {
                let content = f.content.clone().expect("a written file has content");
                if let Some(to) = &f.move_to {
                    if !f.copy {
                        out.remove(&f.path);
                    }
                    out.insert(to.clone(), content);
                } else {
                    out.insert(f.path.clone(), content);
                }
            }
        }
    }
    out
}

/// A SEARCH/REPLACE text applied to the one file, as a report of that
/// file with one "hunk" per block.
fn search_replace(
    files: &BTreeMap<String, String>,
    text: &str,
    options: Option<&Value>,
) -> Result<PatchReport, editkit::Error> {
    let (path, content) = files.iter().next().expect("one file");
    let o: SearchReplaceOptions = options
        .map(|o| serde_json::from_value(o.clone()).unwrap())
        .unwrap_or_default();
    let r = apply_search_replace(content, text, &o)?;
    let hunks: Vec<HunkResult> = r
        .results
        .iter()
        .map(|b| HunkResult {
            index: b.index,
            line: b.line.unwrap_or(0),
            ok: b.ok,
            strategy: b.strategy,
            start_line: b.matches.first().map(|m| m.start_line),
            end_line: b.matches.first().map(|m| m.end_line),
            error: b.error.clone(),
        })
        .collect();
    Ok(PatchReport {
        warnings: Vec::new(),
        ok: r.ok,
        applied: r.applied,
        failed: r.failed,
        files: vec![FileResult {
            path: path.clone(),
            op: FileOp::Update,
            move_to: None,
            copy: false,
            mode: None,
            ok: r.ok,
            write: r.ok,
            content: r.ok.then(|| r.content.clone()),
            changed: r.content != *content,
            error: hunks.iter().find_map(|h| h.error.clone()),
            hunks,
        }],
        summary: r.summary,
    })
}

fn check_case(case: &Value) {
    let name = case["name"].as_str().unwrap();
    let files: BTreeMap<String, String> = serde_json::from_value(case["files"].clone()).unwrap();
    let patch = case["patch"].as_str().unwrap();
    let options: PatchOptions = case
        .get("options")
        .map(|o| serde_json::from_value(o.clone()).unwrap())
        .unwrap_or_default();
    let outcome = match case["format"].as_str().unwrap() {
        "search_replace" => search_replace(&files, patch, case.get("options")),
        "codex" => plan_patch(&files, patch, &options),
        "unified" => plan_unified_diff(&files, patch, &options),
        other => panic!("{name}: unknown format {other}"),
    };
    // The same files as a hash map, which the wasm binding passes, plan
    // to the same report or refusal.
    let hashed: HashMap<String, String> = files.clone().into_iter().collect();
    let again = match case["format"].as_str().unwrap() {
        "codex" => Some(plan_patch(&hashed, patch, &options)),
        "unified" => Some(plan_unified_diff(&hashed, patch, &options)),
        _ => None,
    };
    if let Some(again) = again {
        assert_eq!(
            format!("{again:?}"),
            format!("{outcome:?}"),
            "{name}: HashMap files"
        );
    }
    let expect = &case["expect"];
    if let Some(lines) = expect.get("invalid") {
        let e = outcome.expect_err(name);
        let code = expect["code"].as_str().unwrap_or("INVALID_PATCH");
        assert_eq!(e.code.as_str(), code, "{name}: {}", e.message);
        let got: Vec<u32> = e
            .details
            .errors
            .iter()
            .filter_map(|p| p.details.line)
            .collect();
        let want: Vec<u32> = serde_json::from_value(lines.clone()).unwrap();
        assert_eq!(got, want, "{name}: problem lines\n{}", e.message);
        if let Some(words) = expect.get("message_has").and_then(Value::as_str) {
            assert!(
                e.message.contains(words),
                "{name}: {:?} lacks {words:?}",
                e.message
            );
        }
        return;
    }
    let report = outcome.unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(
        report.ok,
        expect["ok"].as_bool().unwrap(),
        "{name}: ok\n{}",
        report.summary
    );
    let after = host_apply(&files, &report);
    if let Some(want) = expect.get("files").and_then(Value::as_object) {
        for (path, text) in want {
            assert_eq!(
                after.get(path).map(String::as_str),
                text.as_str(),
                "{name}: {path}\n{}",
                report.summary
            );
        }
    }
    // git's mode changes: the mode each file ends with.
    if let Some(modes) = expect.get("modes").and_then(Value::as_object) {
        for (path, mode) in modes {
            let file = report
                .files
                .iter()
                .find(|f| f.move_to.as_ref().unwrap_or(&f.path) == path)
                .unwrap_or_else(|| panic!("{name}: no result for {path}"));
            assert_eq!(
                file.mode.as_deref(),
                mode.as_str(),
                "{name}: mode of {path}"
            );
        }
    }
    if let Some(files) = expect.get("gone").and_then(Value::as_array) {
        for path in files.iter().filter_map(Value::as_str) {
            assert!(!after.contains_key(path), "{name}: {path} is gone");
        }
    }
    if let Some(words) = expect.get("message_has").and_then(Value::as_str) {
        assert!(
            report.summary.contains(words),
            "{name}: {:?} lacks {words:?}",
            report.summary
        );
    }
    let codes: Vec<&str> = report.warnings.iter().map(|w| w.code).collect();
    let want: Vec<&str> = expect
        .get("warnings")
        .and_then(Value::as_array)
        .map(|w| w.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    assert_eq!(codes, want, "{name}: warnings");
    if let Some(written) = expect.get("written") {
        let want: Vec<String> = serde_json::from_value(written.clone()).unwrap();
        let got: Vec<String> = report
            .files
            .iter()
            .filter(|f| f.write)
            .map(|f| f.path.clone())
            .collect();
        assert_eq!(got, want, "{name}: written");
        assert_eq!(report.applied as usize, want.len(), "{name}: applied");
    }
    for e in expect
        .get("errors")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let path = e["path"].as_str().unwrap();
        let file = report
            .files
            .iter()
            .find(|f| f.path == path)
            .unwrap_or_else(|| panic!("{name}: no result for {path}"));
        assert!(!file.ok && !file.write, "{name}: {path} refused");
        let error = match e.get("hunk").and_then(Value::as_u64) {
            Some(h) => file.hunks[h as usize - 1].error.clone(),
            None => file.error.clone(),
        }
        .unwrap_or_else(|| panic!("{name}: {path} has an error"));
        assert_eq!(
            error.code.as_str(),
            e["code"].as_str().unwrap(),
            "{name}: {}",
            error.message
        );
        assert!(
            report.summary.contains(&error.message),
            "{name}: the summary lists the failure"
        );
        // A hunk refusal of a patch lists next steps (an already applied
        // hunk needs none: the file has it).
        let patch_hunk = e.get("hunk").is_some() && case["format"] != "search_replace";
        if patch_hunk && error.code != ErrorCode::AlreadyApplied {
            assert!(!error.details.suggestions.is_empty(), "{name}: next steps");
        }
        if let Some(c) = e.get("candidates") {
            let want: Vec<(u32, u32)> = serde_json::from_value(c.clone()).unwrap();
            let got: Vec<(u32, u32)> = error
                .details
                .candidates
                .iter()
                .map(|r| (r.start_line, r.end_line))
                .collect();
            assert_eq!(got, want, "{name}: candidates");
        }
        if let Some(words) = e.get("message_has").and_then(Value::as_str) {
            assert!(
                error.message.contains(words),
                "{name}: {:?} lacks {words:?}",
                error.message
            );
        }
    }
}

#[test]
fn patch_table() {
    let cases: Value = serde_json::from_str(include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/patch-cases.json"
    )))
    .expect("tests/data/patch-cases.json parses");
    let cases = cases.as_array().unwrap();
    assert!(cases.len() >= 30);
    for case in cases {
        check_case(case);
    }
}
