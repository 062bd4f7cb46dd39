//! Conformance against the peers' own test suites (SPEC §6.7).
//!
//! Every case of `../shared/conformance/*.json` is mapped onto editkit
//! where editkit has an equivalent operation, and classified:
//!
//! - `agree`: the same content (or the same match position, or both
//!   refuse);
//! - `safe_refusal`: the peer edited or matched, editkit refused, and a
//!   named safety rule of SPEC §6.2/§6.5 explains it (a refusal where the
//!   search occurs in the content as written is never a safe refusal);
//! - `differ`: anything else. Each one must be listed, with its reason, in
//!   `tests/conformance/DIVERGENCES.md`; an unlisted differ (or a listed
//!   case that no longer differs) fails the test;
//! - `not_applicable`: formats and helpers editkit does not implement
//!   (aider file names and `...` elision, streaming input, gemini's
//!   unescape helper), each with its reason. Nothing is dropped silently.
//!
//! codex `apply_patch` cases run through the patch planner
//! (`conformance/codex.rs`); Roo's `:start_line:` hints and `N |` line
//! numbers through `apply_search_replace`.
//!
//! Mapping of peer tolerance onto editkit modes: peers whose ladders accept
//! content differences (opencode's replacers, gemini's flexible/regex/fuzzy
//! matching, cline's block anchors, Roo below a 100 % threshold, Continue's
//! whitespace-ignoring and case-insensitive fallbacks) run in `fuzzy`
//! mode; the others (aider, codex, Roo at 100 %) in `safe` mode.
//!
//! Run with `cargo test --test all conformance -- --nocapture` to see the
//! counts per peer.

use std::collections::{BTreeMap, BTreeSet};

use editkit::{
    apply_search_replace, find_match, parse_search_replace, replace_text, MatchMode, MatchOptions,
    SearchReplaceOptions, SearchReplaceReport,
};
use editkit::{Error, ErrorCode, Lang};
use serde_json::Value;

use super::support::{shared_dir, shared_json};

mod codex;
use codex::codex;

#[derive(Clone, Debug, PartialEq)]
enum Class {
    Agree,
    SafeRefusal(&'static str),
    Differ(String),
    NotApplicable(&'static str),
}

/// What a tool did with an edit.
#[derive(Clone, Debug, PartialEq)]
enum Edit {
    Content(String),
    Refused,
}

fn s<'v>(v: &'v Value, key: &str) -> Option<&'v str> {
    v.get(key).and_then(Value::as_str)
}

const REPLACE_ALL_SAFE_ONLY: &str = "§6.2 replaceAll uses exact and safe strategies only";

/// The named safety rule behind an editkit refusal.
fn rule(code: ErrorCode) -> &'static str {
    match code {
        ErrorCode::Ambiguous => "§6.2 uniqueness by position: the peer picked one of several locations",
        ErrorCode::NotFound => {
            "§6.1/§6.2 outside the fuzzy tier only formatting is forgiven (never content, case or non-uniform indentation); fuzzy needs threshold, margin, anchors, size and 3+ lines"
        }
        ErrorCode::EmptySearch => "§6.2 an empty search is an error",
        ErrorCode::NoChange => "§6.2 an edit that changes nothing is refused",
        ErrorCode::AlreadyApplied => "§6.2 already-applied detection",
        ErrorCode::MatchCountMismatch => "§6.2 expectedReplacements must be met exactly by one strategy",
        ErrorCode::ReplacementNotMappable => "§6.1 a safe strategy refuses a replacement it cannot re-express",
        ErrorCode::InvalidDiffFormat
        | ErrorCode::EmptyDiff
        | ErrorCode::NestedSearch
        | ErrorCode::UnclosedSearch
        | ErrorCode::UnmatchedReplace
        | ErrorCode::MisplacedDelimiter
        | ErrorCode::MissingDelimiter => "§6.5 markers only as whole lines of 5-9 characters; every block closed",
        ErrorCode::InvalidPatch => "patch grammar: the envelope, file headers and hunk lines as documented; every problem reported",
        ErrorCode::HunkWithoutContext => "a hunk with no context or removed lines has no place except the end of the file (no @@ anchor) or an empty file",
        ErrorCode::AnchorNotFound => "a hunk's @@ anchor must be in the file, after the previous hunk",
        ErrorCode::FileExists => "never lost text: adding or renaming onto an existing file is refused",
        ErrorCode::FileNotFound => "a file to update or delete must exist",
        _ => "unexpected refusal",
    }
}

/// Compares an edit. `search` is the peer's search, for the bug check: a
/// `NOT_FOUND` for a search that occurs as written is never safe.
fn classify_edit(
    original: &str,
    peer: &Edit,
    ours: &Result<String, Error>,
    search: Option<&str>,
) -> Class {
    match (peer, ours) {
        (Edit::Content(p), Ok(o)) if p == o => Class::Agree,
        (Edit::Content(p), Ok(o)) => {
            Class::Differ(format!("peer wrote {p:?}, editkit wrote {o:?}"))
        }
        (Edit::Refused, Err(_)) => Class::Agree,
        (Edit::Refused, Ok(o)) => Class::Differ(format!("peer refused, editkit wrote {o:?}")),
        (Edit::Content(p), Err(_)) if p == original => Class::Agree,
        (Edit::Content(_), Err(e)) => {
            let lf = |t: &str| t.replace("\r\n", "\n");
            let present =
                search.is_some_and(|s| !s.is_empty() && lf(original).matches(&lf(s)).count() == 1);
            if e.code == ErrorCode::NotFound && present {
                Class::Differ(format!(
                    "editkit missed a search present as written: {}",
                    e.message
                ))
            } else if rule(e.code) == "unexpected refusal" {
                Class::Differ(format!("unexpected {}: {}", e.code, e.message))
            } else {
                Class::SafeRefusal(rule(e.code))
            }
        }
    }
}

/// A peer result that is a refusal when it is an error object or null.
fn peer_text(v: Option<&Value>) -> Edit {
    match v {
        Some(Value::String(t)) => Edit::Content(t.clone()),
        _ => Edit::Refused,
    }
}

/// Inputs the data file stores truncated, rebuilt from the test's own
/// generator and checked against the stored length and head.
fn rebuild(id: &str, field: &str, v: &Value) -> Option<String> {
    if let Some(t) = v.as_str() {
        return Some(t.to_string());
    }
    let built = match (id, field) {
        ("continue-042", "content") => {
            format!("{}target{}", "a".repeat(10_000), "a".repeat(10_000))
        }
        ("continue-073", "content") => "foo bar ".repeat(1_000),
        ("continue-106", "content") => format!("start{}end", "a".repeat(10_000)),
        ("continue-106", "search") => "a".repeat(10_000),
        _ => return None,
    };
    let len = v.get("length").and_then(Value::as_u64)?;
    let head = s(v, "head")?;
    assert_eq!(
        built.len() as u64,
        len,
        "{id}: rebuilt {field} has the stored length"
    );
    assert!(
        built.starts_with(head),
        "{id}: rebuilt {field} has the stored head"
    );
    Some(built)
}

fn opts(mode: MatchMode, replace_all: bool) -> MatchOptions {
    MatchOptions {
        mode,
        replace_all,
        ..MatchOptions::default()
    }
}

fn replace(
    content: &str,
    search: &str,
    replacement: &str,
    o: &MatchOptions,
) -> Result<String, Error> {
    replace_text(content, search, replacement, o).map(|r| r.content)
}

/// Outcome of a multi-block application as an edit.
fn report_edit(r: Result<SearchReplaceReport, Error>) -> Result<String, Error> {
    let r = r?;
    if r.applied == 0 && !r.ok {
        let first = r.results.iter().find_map(|b| b.error.clone());
        return Err(first.unwrap_or_else(|| Error::new(ErrorCode::NotFound, r.summary)));
    }
    Ok(r.content)
}

// ---- opencode-gemini.json -------------------------------------------------

fn opencode_gemini(case: &Value) -> Class {
    let id = s(case, "id").unwrap_or("");
    let function = s(case, "function").unwrap_or("");
    let content = case
        .get("content")
        .and_then(Value::as_str)
        .map(str::to_string);
    let old = s(case, "old_string").unwrap_or("");
    let new = s(case, "new_string").unwrap_or("");
    let replace_all = case
        .get("replace_all")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let expected = case.get("expected_result_content");
    let error_kind = s(case, "expected_error_kind");
    let tool_error = s(case, "tool_level_error_kind");

    if function.starts_with("unescapeStringForGeminiBug") {
        return Class::NotApplicable(
            "gemini helper; editkit's one-level unescape is internal to escape_normalized (it never collapses backslash runs)",
        );
    }
    if function.starts_with("countOccurrences") {
        let content = content.unwrap_or_default();
        let want = case
            .get("expected_occurrences")
            .and_then(Value::as_u64)
            .unwrap_or(0);
        let o = MatchOptions {
            mode: MatchMode::Exact,
            replace_all: true,
            ..MatchOptions::default()
        };
        let got = match find_match(&content, old, &o) {
            Ok(r) if r.found => r.matches.len() as u64,
            Ok(_) => 0,
            Err(e) if e.code == ErrorCode::EmptySearch => 0,
            Err(e) => return Class::Differ(format!("unexpected {e}")),
        };
        return if got == want {
            Class::Agree
        } else {
            Class::Differ(format!("count {want} vs {got}"))
        };
    }
    if id == "gemini-calc-complexity" {
        let content = vec!["a".repeat(2000); 200].join("\n");
        let old = format!("{}c", "a".repeat(2000));
        let ours = replace(&content, &old, new, &opts(MatchMode::Fuzzy, false));
        return classify_edit(&content, &Edit::Refused, &ours, Some(&old));
    }
    let Some(content) = content else {
        return Class::NotApplicable("no content");
    };
    if function.starts_with("ensureCorrectEdit") {
        let occurrences = case
            .get("expected_occurrences")
            .and_then(Value::as_u64)
            .unwrap_or(0);
        let peer = match (
            s(case, "expected_corrected_old_string"),
            s(case, "expected_corrected_new_string"),
        ) {
            (Some(o), Some(n)) if occurrences == 1 => Edit::Content(content.replacen(o, n, 1)),
            _ => Edit::Refused,
        };
        let ours = replace(&content, old, new, &opts(MatchMode::Fuzzy, false));
        return classify_edit(&content, &peer, &ours, Some(old));
    }
    let literal =
        function.starts_with("applyReplacement") || function.starts_with("safeLiteralReplace");
    let mode = if literal {
        MatchMode::Exact
    } else {
        MatchMode::Fuzzy
    };
    let mut o = opts(mode, replace_all);
    if let Some(n) = case.get("expected_replacements").and_then(Value::as_u64) {
        o.expected_replacements = u32::try_from(n).ok();
    }
    let peer = if error_kind.is_some() || tool_error.is_some() {
        Edit::Refused
    } else {
        peer_text(expected)
    };
    let ours = replace(&content, old, new, &o);
    classify_edit(&content, &peer, &ours, Some(old))
}

// ---- aider-roo-cline-codex-continue.json ----------------------------------

fn observed_or_expected(case: &Value) -> Option<&Value> {
    match case.get("observed") {
        Some(Value::Null) | None => case.get("expected_result"),
        Some(v) => Some(v),
    }
}

fn roo(case: &Value) -> Class {
    let op = s(case, "operation").unwrap_or("");
    let diff = s(case, "diff").unwrap_or("");
    if op.starts_with("validateMarkerSequencing") {
        let peer_ok = case
            .get("observed")
            .and_then(|o| o.get("success"))
            .and_then(Value::as_bool)
            .or_else(|| case.get("expected_success").and_then(Value::as_bool))
            .unwrap_or(true);
        let ours = parse_search_replace(diff, Lang::En);
        // Roo validates marker order only; a text with no block at all is
        // its "missing sections" error, which it reports at apply time.
        let ours_ok = match &ours {
            Ok(_) => true,
            Err(e) => e.code == ErrorCode::EmptyDiff,
        };
        return match (peer_ok, ours_ok) {
            (true, true) | (false, false) => Class::Agree,
            (true, false) => Class::SafeRefusal(rule(ErrorCode::InvalidDiffFormat)),
            (false, true) => {
                Class::Differ("peer rejects the marker sequence, editkit parses it".into())
            }
        };
    }
    let Some(content) = s(case, "content") else {
        return Class::NotApplicable("no content");
    };
    let threshold = case
        .get("config")
        .and_then(|c| c.get("fuzzyThreshold"))
        .and_then(Value::as_f64)
        .unwrap_or(1.0);
    let mode = if threshold < 1.0 {
        MatchMode::Fuzzy
    } else {
        MatchMode::Safe
    };
    let observed = case.get("observed");
    let peer = match observed
        .and_then(|o| o.get("content"))
        .and_then(Value::as_str)
    {
        Some(c)
            if observed
                .and_then(|o| o.get("success"))
                .and_then(Value::as_bool)
                != Some(false) =>
        {
            Edit::Content(c.to_string())
        }
        _ => match s(case, "expected_result") {
            Some(c) if case.get("expected_success").and_then(Value::as_bool) == Some(true) => {
                Edit::Content(c.to_string())
            }
            _ => Edit::Refused,
        },
    };
    // Roo applies the blocks it can and reports the rest (non-atomic).
    let o = SearchReplaceOptions {
        atomic: false,
        mode,
        ..SearchReplaceOptions::default()
    };
    let ours = report_edit(apply_search_replace(content, diff, &o));
    classify_edit(content, &peer, &ours, first_search(diff).as_deref())
}

fn first_search(diff: &str) -> Option<String> {
    parse_search_replace(diff, Lang::En)
        .ok()?
        .into_iter()
        .next()
        .map(|b| b.search)
}

fn cline(case: &Value) -> Class {
    let config = case.get("config");
    if config
        .and_then(|c| c.get("isFinal"))
        .and_then(Value::as_bool)
        == Some(false)
    {
        return Class::NotApplicable(
            "cline streaming (isFinal = false): partial input editkit never receives",
        );
    }
    let (Some(content), Some(diff)) = (s(case, "content"), s(case, "diff")) else {
        return Class::NotApplicable("no content");
    };
    let observed = case.get("observed");
    let run = observed.and_then(|o| o.get("v1")).or(observed);
    let peer = match run
        .and_then(|r| r.get("newContent"))
        .and_then(Value::as_str)
    {
        Some(c) => Edit::Content(c.to_string()),
        None => Edit::Refused,
    };
    // cline throws on the first block that fails (atomic); its fallbacks
    // forgive content (block anchors): fuzzy.
    let o = SearchReplaceOptions {
        atomic: true,
        mode: MatchMode::Fuzzy,
        ..SearchReplaceOptions::default()
    };
    let ours = report_edit(apply_search_replace(content, diff, &o));
    classify_edit(content, &peer, &ours, first_search(diff).as_deref())
}

fn continue_case(case: &Value) -> Class {
    let id = s(case, "id").unwrap_or("");
    let op = s(case, "operation").unwrap_or("");
    let (Some(content), Some(search)) = (
        case.get("content").and_then(|v| rebuild(id, "content", v)),
        case.get("search").and_then(|v| rebuild(id, "search", v)),
    ) else {
        return Class::NotApplicable("input not reconstructible");
    };
    let observed = case.get("observed");
    match op {
        "findSearchMatch" | "findSearchMatches" => {
            let all = op == "findSearchMatches";
            let peer: Vec<(u64, u64)> = match observed {
                Some(Value::Object(m)) => vec![(
                    m["startIndex"].as_u64().unwrap_or(0),
                    m["endIndex"].as_u64().unwrap_or(0),
                )],
                Some(Value::Array(a)) => a
                    .iter()
                    .map(|m| {
                        (
                            m["startIndex"].as_u64().unwrap_or(0),
                            m["endIndex"].as_u64().unwrap_or(0),
                        )
                    })
                    .collect(),
                Some(Value::String(t)) => {
                    // Stored as JSON text when long.
                    let a: Vec<Value> = serde_json::from_str(t).unwrap_or_default();
                    a.iter()
                        .map(|m| {
                            (
                                m["startIndex"].as_u64().unwrap_or(0),
                                m["endIndex"].as_u64().unwrap_or(0),
                            )
                        })
                        .collect()
                }
                _ => Vec::new(),
            };
            let o = MatchOptions {
                mode: if all {
                    MatchMode::Safe
                } else {
                    MatchMode::Fuzzy
                },
                replace_all: all,
                ..MatchOptions::default()
            };
            let ours = find_match(&content, &search, &o);
            if search.trim().is_empty() && !peer.is_empty() {
                // Continue treats a whitespace-only search as empty and
                // answers position 0; editkit never locates by nothing.
                return match &ours {
                    Ok(r) if r.found => {
                        Class::Differ("editkit located a whitespace-only search".into())
                    }
                    _ => Class::SafeRefusal(rule(ErrorCode::EmptySearch)),
                };
            }
            match ours {
                Err(e) => {
                    if peer.is_empty() {
                        Class::Agree
                    } else {
                        Class::SafeRefusal(rule(e.code))
                    }
                }
                Ok(r) if r.found => {
                    let got: Vec<(u64, u64)> = r
                        .matches
                        .iter()
                        .map(|m| (u64::from(m.start), u64::from(m.end)))
                        .collect();
                    if got == peer {
                        Class::Agree
                    } else {
                        Class::Differ(format!(
                            "peer matched {peer:?}, editkit {got:?} via {:?}",
                            r.strategy
                        ))
                    }
                }
                Ok(r) => {
                    if peer.is_empty() {
                        Class::Agree
                    } else {
                        let present = content.matches(search.as_str()).count() == 1;
                        match r.code {
                            Some(ErrorCode::NotFound) if present => {
                                Class::Differ("missed an exact occurrence".into())
                            }
                            Some(ErrorCode::NotFound) if all => {
                                Class::SafeRefusal(REPLACE_ALL_SAFE_ONLY)
                            }
                            Some(code) => Class::SafeRefusal(rule(code)),
                            None => Class::Differ("not found without a code".into()),
                        }
                    }
                }
            }
        }
        "executeFindAndReplace" => {
            let replacement = s(case, "replace").unwrap_or("");
            let all = case
                .get("config")
                .and_then(|c| c.get("replaceAll"))
                .and_then(Value::as_bool)
                .unwrap_or(false);
            let peer = match observed {
                Some(Value::String(t)) => Edit::Content(t.clone()),
                Some(Value::Object(m)) if m.contains_key("result") && !m.contains_key("error") => {
                    peer_text(m.get("result"))
                }
                _ => Edit::Refused,
            };
            let ours = replace(&content, &search, replacement, &opts(MatchMode::Fuzzy, all));
            classify_edit(&content, &peer, &ours, Some(&search))
        }
        _ => Class::NotApplicable("unknown Continue operation"),
    }
}

fn aider(case: &Value) -> Class {
    let op = s(case, "operation").unwrap_or("");
    match op {
        "find_filename" | "strip_quoted_wrapping" => {
            Class::NotApplicable("aider file-name handling; editkit edits one given content")
        }
        "find_similar_lines" => Class::NotApplicable(
            "aider's 'did you mean' hint; editkit reports a closest region with its own rules",
        ),
        "find_original_update_blocks" => {
            let diff = s(case, "diff").unwrap_or("");
            let peer = observed_or_expected(case);
            if let Some(err) = peer.and_then(|p| p.get("error")).and_then(Value::as_str) {
                if err.contains("filename") {
                    return Class::NotApplicable(
                        "aider file-name handling; editkit edits one given content",
                    );
                }
            }
            let want: Option<Vec<(String, String)>> = match peer {
                Some(Value::Array(blocks)) => {
                    if blocks.iter().any(|b| b.get(0).is_some_and(Value::is_null)) {
                        return Class::NotApplicable("aider shell-command blocks");
                    }
                    Some(
                        blocks
                            .iter()
                            .map(|b| {
                                (
                                    b[1].as_str().unwrap_or("").to_string(),
                                    b[2].as_str().unwrap_or("").to_string(),
                                )
                            })
                            .collect(),
                    )
                }
                _ => None,
            };
            let ours = parse_search_replace(diff, Lang::En);
            // aider keeps the final newline of each body; editkit treats it
            // as structural.
            let nl = |t: &str| {
                if t.is_empty() {
                    String::new()
                } else {
                    format!("{t}\n")
                }
            };
            match (want, ours) {
                (Some(w), Ok(blocks)) => {
                    let got: Vec<(String, String)> = blocks
                        .iter()
                        .map(|b| (nl(&b.search), nl(&b.replace)))
                        .collect();
                    if got == w {
                        Class::Agree
                    } else {
                        Class::Differ(format!("peer blocks {w:?}, editkit {got:?}"))
                    }
                }
                (Some(w), Err(e)) if w.is_empty() && e.code == ErrorCode::EmptyDiff => Class::Agree,
                (Some(_), Err(e)) => Class::SafeRefusal(rule(e.code)),
                (None, Err(_)) => Class::Agree,
                (None, Ok(_)) => Class::Differ("peer rejects the text, editkit parses it".into()),
            }
        }
        "replace_most_similar_chunk" => {
            let (Some(content), Some(search), Some(replacement)) =
                (s(case, "content"), s(case, "search"), s(case, "replace"))
            else {
                return Class::NotApplicable("no content");
            };
            if search.lines().any(|l| l.trim() == "...") {
                return Class::NotApplicable(
                    "aider `...` elision inside SEARCH (a format editkit does not implement)",
                );
            }
            let peer = peer_text(observed_or_expected(case));
            let ours = replace(content, search, replacement, &opts(MatchMode::Safe, false));
            classify_edit(content, &peer, &ours, Some(search))
        }
        "EditBlockCoder end-to-end" => {
            let (Some(content), Some(diff)) = (s(case, "content"), s(case, "diff")) else {
                return Class::NotApplicable(
                    "several files in one chat edit (editkit edits one given content)",
                );
            };
            let peer = peer_text(observed_or_expected(case));
            let ours = report_edit(apply_search_replace(
                content,
                diff,
                &SearchReplaceOptions::default(),
            ));
            classify_edit(content, &peer, &ours, first_search(diff).as_deref())
        }
        _ => Class::NotApplicable("unknown aider operation"),
    }
}

fn peer_of(case: &Value) -> String {
    s(case, "system")
        .or_else(|| s(case, "source"))
        .unwrap_or("?")
        .to_string()
}

fn classify(case: &Value) -> Class {
    match s(case, "system") {
        None => opencode_gemini(case),
        Some("roo") => roo(case),
        Some("cline") => cline(case),
        Some("continue") => continue_case(case),
        Some("codex") => codex(case),
        Some("aider") => aider(case),
        Some(_) => Class::NotApplicable("unknown peer"),
    }
}

/// Case ids listed in DIVERGENCES.md (lines of the form ``- `id` …``).
fn listed_divergences() -> BTreeSet<String> {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/DIVERGENCES.md");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    text.lines()
        .filter_map(|l| l.trim_start().strip_prefix("- `"))
        .filter_map(|l| l.split('`').next())
        .map(str::to_string)
        .collect()
}

#[test]
fn peer_suites() {
    assert!(
        shared_dir().join("conformance").is_dir(),
        "../shared/conformance is read in place"
    );
    let mut cases: Vec<Value> = Vec::new();
    for file in [
        "conformance/opencode-gemini.json",
        "conformance/aider-roo-cline-codex-continue.json",
    ] {
        match shared_json(file) {
            Value::Array(a) => cases.extend(a),
            other => panic!("{file}: expected an array, got {other}"),
        }
    }
    assert_eq!(cases.len(), 661, "every peer case is accounted for");

    let mut counts: BTreeMap<String, [usize; 4]> = BTreeMap::new();
    let mut rules: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut reasons: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut differs: Vec<(String, String)> = Vec::new();
    let verbose = std::env::var_os("CONFORMANCE_VERBOSE").is_some();
    for case in &cases {
        let id = s(case, "id").unwrap_or("?").to_string();
        let class = classify(case);
        let slot = counts.entry(peer_of(case)).or_default();
        match class {
            Class::Agree => slot[0] += 1,
            Class::SafeRefusal(r) => {
                if verbose {
                    println!("  safe_refusal {id}: {r}");
                }
                slot[1] += 1;
                *rules.entry(r).or_default() += 1;
            }
            Class::Differ(why) => {
                slot[2] += 1;
                differs.push((id, why));
            }
            Class::NotApplicable(r) => {
                slot[3] += 1;
                *reasons.entry(r).or_default() += 1;
            }
        }
    }

    println!("\nconformance (SPEC §6.7): agree / safe_refusal / differ / not_applicable");
    let mut total = [0usize; 4];
    for (peer, c) in &counts {
        println!(
            "  {peer:<12} {:>4} {:>4} {:>4} {:>4}",
            c[0], c[1], c[2], c[3]
        );
        for i in 0..4 {
            total[i] += c[i];
        }
    }
    println!(
        "  {:<12} {:>4} {:>4} {:>4} {:>4}",
        "total", total[0], total[1], total[2], total[3]
    );
    println!("safe refusals by rule:");
    for (r, n) in &rules {
        println!("  {n:>4}  {r}");
    }
    println!("not applicable by reason:");
    for (r, n) in &reasons {
        println!("  {n:>4}  {r}");
    }
    println!("differ:");
    for (id, why) in &differs {
        println!("  {id}: {}", why.chars().take(300).collect::<String>());
    }

    assert!(!rules.contains_key("unexpected refusal"));
    let listed = listed_divergences();
    let found: BTreeSet<String> = differs.iter().map(|(id, _)| id.clone()).collect();
    let unlisted: Vec<&String> = found.difference(&listed).collect();
    let stale: Vec<&String> = listed.difference(&found).collect();
    assert!(
        unlisted.is_empty(),
        "differ cases not explained in tests/conformance/DIVERGENCES.md: {unlisted:?}"
    );
    assert!(
        stale.is_empty(),
        "DIVERGENCES.md lists cases that no longer differ: {stale:?}"
    );
}
