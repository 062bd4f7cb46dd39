//! File-edit planner (SPEC §7): every tool, every error code, the apply
//! race cases, expiry/ownership/revision/ordering, text fidelity, large
//! files, and property tests.

use editkit::*;
use editkit::{Error, ErrorCode, Lang};
use proptest::prelude::*;
use proptest::strategy::Strategy;

const OWNER: &str = "agent-1";
const T0: f64 = 1_000.0;

fn session() -> FileEditSession {
    FileEditSession::new(FileEditSessionOptions {
        id_prefix: "t".into(),
        ..Default::default()
    })
}

fn range_opts(content: &str, range: &str, new_text: &str) -> RangeEditOptions {
    RangeEditOptions {
        path: "a.txt".into(),
        content: Some(content.into()),
        range: range.into(),
        new_text: new_text.into(),
        owner: OWNER.into(),
        ..Default::default()
    }
}

fn insert_opts(content: &str, anchor: &str, new_text: &str) -> InsertOptions {
    InsertOptions {
        path: "a.txt".into(),
        content: Some(content.into()),
        anchor: anchor.into(),
        new_text: new_text.into(),
        owner: OWNER.into(),
        ..Default::default()
    }
}

fn append_opts(content: Option<&str>, new_text: &str) -> AppendOptions {
    AppendOptions {
        path: "a.txt".into(),
        content: content.map(str::to_string),
        new_text: new_text.into(),
        owner: OWNER.into(),
        ..Default::default()
    }
}

fn block_opts(content: &str, start: &str, end: &str, new_text: &str) -> BlockReplaceOptions {
    BlockReplaceOptions {
        path: "a.txt".into(),
        content: Some(content.into()),
        start_anchor: start.into(),
        end_anchor: end.into(),
        new_text: new_text.into(),
        owner: OWNER.into(),
        ..Default::default()
    }
}

fn apply_to(
    s: &mut FileEditSession,
    id: &str,
    content: Option<&str>,
    now: f64,
) -> Result<FileApplyResult, Error> {
    s.apply(
        FileApplyOptions {
            hunk_id: id.into(),
            owner: OWNER.into(),
            content: content.map(str::to_string),
            ..Default::default()
        },
        now,
    )
}

fn apply(s: &mut FileEditSession, id: &str, content: &str) -> FileApplyResult {
    apply_to(s, id, Some(content), T0 + 1.0).expect("apply")
}

/// Every refusal carries agent YAML that starts with `status: error` and
/// names the code.
fn code(result: Result<impl std::fmt::Debug, Error>) -> ErrorCode {
    let e = result.expect_err("expected a refusal");
    let yaml = e.details.yaml.as_deref().expect("refusals carry YAML");
    assert!(yaml.starts_with("status: error\n"), "{yaml}");
    assert!(
        yaml.contains(&format!("\nerror: {}\n", e.code.as_str())),
        "{yaml}"
    );
    assert!(yaml.contains("\nsummary: "), "{yaml}");
    e.code
}

const FIVE: &str = "alpha\nbeta\ngamma\ndelta\nepsilon\n";

// ---------------------------------------------------------------------
// Ranges
// ---------------------------------------------------------------------

#[test]
fn range_grammar() {
    let r = |s: &str, total: usize| {
        parse_line_range(s, Lang::En).and_then(|spec| spec.resolve(total, s, Lang::En))
    };
    assert_eq!(
        r("10~12", 20).unwrap(),
        ResolvedRange::Lines { start: 10, end: 12 }
    );
    assert_eq!(
        r("7", 20).unwrap(),
        ResolvedRange::Lines { start: 7, end: 7 }
    );
    assert_eq!(
        r("18~", 20).unwrap(),
        ResolvedRange::Lines { start: 18, end: 20 }
    );
    assert_eq!(r("21~", 20).unwrap(), ResolvedRange::Append { at: 21 });
    assert_eq!(
        r("~3", 20).unwrap(),
        ResolvedRange::Lines { start: 1, end: 3 }
    );
    assert_eq!(
        r("~", 20).unwrap(),
        ResolvedRange::Lines { start: 1, end: 20 }
    );
    assert_eq!(
        r("1", 0).unwrap(),
        ResolvedRange::Lines { start: 1, end: 1 },
        "an empty file is one line"
    );
    assert_eq!(r("22~", 20).unwrap_err().code, ErrorCode::RangeOutOfBounds);
    assert_eq!(r("~21", 20).unwrap_err().code, ErrorCode::RangeOutOfBounds);
    assert_eq!(r("21", 20).unwrap_err().code, ErrorCode::RangeOutOfBounds);
    assert_eq!(r("5~3", 20).unwrap_err().code, ErrorCode::InvalidRange);
    assert_eq!(r("0~3", 20).unwrap_err().code, ErrorCode::InvalidRange);
    assert_eq!(r("3-5", 20).unwrap_err().code, ErrorCode::InvalidRange);
    assert_eq!(r("", 20).unwrap_err().code, ErrorCode::InvalidRange);
}

// ---------------------------------------------------------------------
// prepareRangeEdit
// ---------------------------------------------------------------------

#[test]
fn range_replace_plan_yaml_and_diff() {
    let mut s = session();
    let p = s
        .prepare_range_edit(range_opts(FIVE, "2~3", "BETA"), T0)
        .unwrap();
    assert_eq!(
        p.yaml,
        "status: ok
mode: prepare_file_range_edit
path: 'a.txt'
hunk_id: 't-1'
expires_at_ms: 3601000
action: replace
range:
  input: '2~3'
  resolved:
    start: 2
    end: 3
lines:
  old: 2
  new: 1
  delta: -1
normalized:
  file_eof_has_newline: true
  content_eof_has_newline: false
  normalized_file_eof_newline_added: false
  normalized_content_eof_newline_added: true
evidence:
  before: ['alpha']
  range: ['beta', 'gamma']
  after: ['delta', 'epsilon']
summary: 'Plan t-1: replace lines 2–3 of a.txt (2 → 1 line(s)). Review the diff, then call apply_file_modification with this hunk_id (valid 60 min).'"
    );
    assert_eq!(p.diff, "--- a/a.txt\n+++ b/a.txt\n@@ -1,5 +1,4 @@\n alpha\n-beta\n-gamma\n+BETA\n delta\n epsilon\n");
    assert_eq!(
        p.text,
        format!("```yaml\n{}\n```\n\n```diff\n{}```", p.yaml, p.diff)
    );
    assert_eq!(p.mode, PlanMode::PrepareFileRangeEdit);
    assert_eq!(p.action, PlanAction::Replace);
    assert_eq!(
        p.lines,
        LineCounts {
            old: 2,
            new: 1,
            delta: -1
        }
    );
    assert_eq!(
        (p.seq, p.created_at_ms, p.expires_at_ms),
        (1.0, T0, T0 + 3_600_000.0)
    );
    assert!(p.file_digest.starts_with("fnv1a64:") && p.file_digest.len() == 24);
    let a = apply(&mut s, &p.hunk_id, FIVE);
    assert_eq!(a.context_match, ContextMatch::Exact);
    assert_eq!(a.content, "alpha\nBETA\ndelta\nepsilon\n");
    assert_eq!(a.diff, p.diff, "an exact apply shows the plan's diff");
}

#[test]
fn typed_results_serialise_in_camel_case_without_u64() {
    let mut s = session();
    let p = s
        .prepare_range_edit(range_opts(FIVE, "2", "B"), T0)
        .unwrap();
    let json = serde_json::to_value(&p).unwrap();
    for key in [
        "hunkId",
        "expiresAtMs",
        "createdAtMs",
        "fileDigest",
        "styleWarning",
        "yaml",
        "diff",
        "text",
    ] {
        assert!(json.get(key).is_some(), "{key}");
    }
    assert_eq!(json["mode"], "prepare_file_range_edit");
    assert_eq!(json["normalized"]["normalizedContentEofNewlineAdded"], true);
    assert_eq!(
        json["range"]["resolved"],
        serde_json::json!({"start": 2, "end": 2})
    );
    let a = apply(&mut s, &p.hunk_id, FIVE);
    let json = serde_json::to_value(&a).unwrap();
    assert_eq!(json["contextMatch"], "exact");
    assert_eq!(
        json["appliedRange"],
        serde_json::json!({"start": 2, "end": 2})
    );
    assert!(json["evidence"]["fileDigestBefore"]
        .as_str()
        .unwrap()
        .starts_with("fnv1a64:"));
}

#[test]
fn range_delete_and_append_forms() {
    let mut s = session();
    let p = s
        .prepare_range_edit(range_opts(FIVE, "4~", ""), T0)
        .unwrap();
    assert_eq!(p.action, PlanAction::Delete);
    assert_eq!(
        apply(&mut s, &p.hunk_id, FIVE).content,
        "alpha\nbeta\ngamma\n"
    );

    let p = s
        .prepare_range_edit(range_opts(FIVE, "6~", "zeta\neta\n"), T0)
        .unwrap();
    assert_eq!(p.action, PlanAction::Append);
    assert_eq!(
        p.range.as_ref().unwrap().resolved,
        Span { start: 6, end: 6 }
    );
    assert!(
        p.summary.contains("append 2 line(s) after line 5"),
        "{}",
        p.summary
    );
    let a = apply(&mut s, &p.hunk_id, FIVE);
    assert_eq!(a.content, format!("{FIVE}zeta\neta\n"));
    assert_eq!(a.append_range, Some(Span { start: 6, end: 7 }));

    let p = s.prepare_range_edit(range_opts(FIVE, "~", ""), T0).unwrap();
    assert_eq!(apply(&mut s, &p.hunk_id, FIVE).content, "");
}

#[test]
fn range_errors() {
    let mut s = session();
    assert_eq!(
        code(s.prepare_range_edit(range_opts(FIVE, "7~", "x"), T0)),
        ErrorCode::RangeOutOfBounds
    );
    assert_eq!(
        code(s.prepare_range_edit(range_opts(FIVE, "2~x", "x"), T0)),
        ErrorCode::InvalidRange
    );
    assert_eq!(
        code(s.prepare_range_edit(range_opts(FIVE, "6~", ""), T0)),
        ErrorCode::ContentRequired
    );
    let mut o = range_opts(FIVE, "1", "x");
    o.content = None;
    assert_eq!(code(s.prepare_range_edit(o, T0)), ErrorCode::FileNotFound);
    let mut o = range_opts(FIVE, "1", "x");
    o.path = String::new();
    assert_eq!(
        code(s.prepare_range_edit(o, T0)),
        ErrorCode::InvalidArgument
    );
    assert_eq!(
        code(s.prepare_range_edit(range_opts(FIVE, "1", "x"), f64::NAN)),
        ErrorCode::InvalidArgument
    );

    let e = s
        .prepare_range_edit(range_opts(FIVE, "9", "x"), T0)
        .unwrap_err();
    assert_eq!(
        e.details.yaml.unwrap(),
        "status: error
mode: prepare_file_range_edit
path: 'a.txt'
error: RANGE_OUT_OF_BOUNDS
argument: 'range'
summary: 'Range \"9\" is out of bounds: the file has 5 lines (use 6~ to append).'
next: 'Read the file (read_file) for its total_lines and line numbers, then give a range within them.'"
    );
    assert_eq!(e.details.name.as_deref(), Some("range"));
    assert_eq!(s.pending(None, T0).len(), 0, "refusals register nothing");
}

#[test]
fn empty_file_is_one_empty_line() {
    let mut s = session();
    let p = s
        .prepare_range_edit(range_opts("", "1", "first"), T0)
        .unwrap();
    assert_eq!(p.action, PlanAction::Replace);
    assert_eq!(
        p.lines,
        LineCounts {
            old: 0,
            new: 1,
            delta: 1
        }
    );
    let a = apply(&mut s, &p.hunk_id, "");
    assert_eq!(
        (a.context_match, a.content.as_str()),
        (ContextMatch::Exact, "first\n")
    );
    assert_eq!(a.applied_range, Some(Span { start: 1, end: 1 }));
    // Planned on the empty file, applied after someone wrote into it.
    let p = s
        .prepare_range_edit(range_opts("", "~", "x\n"), T0)
        .unwrap();
    let a = apply(&mut s, &p.hunk_id, "meanwhile\n");
    assert_eq!(
        (a.context_match, a.reason),
        (ContextMatch::Rejected, Some(RejectReason::ContentChanged))
    );
    assert_eq!(a.content, "meanwhile\n");
    let p = s.prepare_range_edit(range_opts("", "2~", "x"), T0).unwrap();
    assert_eq!(p.action, PlanAction::Append);
    assert_eq!(apply(&mut s, &p.hunk_id, "").content, "x\n");
}

#[test]
fn a_missing_final_newline_is_added_whatever_the_edit_touches() {
    // Seed 001's hard rule: every line ends with a newline.
    let mut s = session();
    let text = "a\nb\nc";
    let p = s
        .prepare_range_edit(range_opts(text, "1", "A"), T0)
        .unwrap();
    assert!(p.normalized.normalized_file_eof_newline_added);
    assert_eq!(apply(&mut s, &p.hunk_id, text).content, "A\nb\nc\n");
    let p = s
        .prepare_range_edit(range_opts(text, "3", "C"), T0)
        .unwrap();
    assert!(p.normalized.normalized_content_eof_newline_added);
    assert!(!p.normalized.file_eof_has_newline);
    assert_eq!(apply(&mut s, &p.hunk_id, text).content, "a\nb\nC\n");
    let p = s
        .prepare_range_edit(range_opts(text, "4~", "d"), T0)
        .unwrap();
    assert!(p.normalized.normalized_file_eof_newline_added);
    assert_eq!(apply(&mut s, &p.hunk_id, text).content, "a\nb\nc\nd\n");
    assert!(
        p.diff
            .contains("-c\n\\ No newline at end of file\n+c\n+d\n"),
        "{}",
        p.diff
    );
    let p = s.prepare_range_edit(range_opts(text, "3", ""), T0).unwrap();
    assert_eq!(apply(&mut s, &p.hunk_id, text).content, "a\nb\n");
}

#[test]
fn the_final_newline_is_added_in_the_files_ending_and_reported_by_the_apply() {
    // Seed 001 §7.1: a missing final newline is added before writing, by
    // every tool, in the file's own ending; §8: `normalized.*` says so.
    let mut s = session();
    let crlf = "a\r\nb\r\nc";
    let p = s
        .prepare_range_edit(range_opts(crlf, "1", "A"), T0)
        .unwrap();
    let r = apply(&mut s, &p.hunk_id, crlf);
    assert_eq!(r.content, "A\r\nb\r\nc\r\n");
    assert_eq!(
        r.yaml,
        "status: ok
mode: apply_file_modification
path: 'a.txt'
hunk_id: 't-1'
action: replace
context_match: exact
applied_range:
  start: 1
  end: 1
lines:
  old: 1
  new: 1
  delta: 0
normalized:
  file_eof_has_newline: false
  content_eof_has_newline: false
  normalized_file_eof_newline_added: true
  normalized_content_eof_newline_added: true
apply_evidence:
  planned_at_line: 1
  applied_at_line: 1
  line_shift: 0
  located_by: planned_position
  candidates_count: 1
  context_matched: 4
  context_total: 4
  file_digest_before: 'fnv1a64:c3a4db87ca0c9d61'
  file_digest_after: 'fnv1a64:d75faf71104406aa'
  before_preview: []
  after_preview: ['b', 'c']
summary: 'Applied t-1 to a.txt (exact): replaced 1 line(s) with 1 at line 1.'"
    );
    // An insert in the middle of a CRLF file, and a block replace in the
    // middle of an LF file: the same rule.
    let mut o = insert_opts(crlf, "a", "x\n");
    o.match_mode = AnchorMatch::Equals;
    let p = s.prepare_insert_after(o, T0).unwrap();
    assert!(p.normalized.normalized_file_eof_newline_added);
    assert!(!p.normalized.normalized_content_eof_newline_added);
    let r = apply(&mut s, &p.hunk_id, crlf);
    assert_eq!(r.content, "a\r\nx\r\nb\r\nc\r\n");
    assert!(r.normalized.unwrap().normalized_file_eof_newline_added);
    let lf = "<s>\nold\n<e>\ntail";
    let p = s
        .prepare_block_replace(block_opts(lf, "<s>", "<e>", "new"), T0)
        .unwrap();
    assert!(p.normalized.normalized_file_eof_newline_added);
    let r = apply(&mut s, &p.hunk_id, lf);
    assert_eq!(r.content, "<s>\nnew\n<e>\ntail\n");
    assert!(r
        .yaml
        .contains("\n  normalized_file_eof_newline_added: true\n"));
}

#[test]
fn crlf_bom_and_mixed_endings_are_preserved() {
    let mut s = session();
    let crlf = "\u{feff}one\r\ntwo\r\nthree";
    let p = s
        .prepare_range_edit(range_opts(crlf, "2", "TWO\nTWO-B\n"), T0)
        .unwrap();
    let a = apply(&mut s, &p.hunk_id, crlf);
    assert_eq!(a.content, "\u{feff}one\r\nTWO\r\nTWO-B\r\nthree\r\n");
    let p = s
        .prepare_append(append_opts(Some(crlf), "four"), T0)
        .unwrap();
    let a = apply(&mut s, &p.hunk_id, crlf);
    assert_eq!(
        a.content, "\u{feff}one\r\ntwo\r\nthree\r\nfour\r\n",
        "the final newline is the file's own"
    );
    // Mixed: every untouched line keeps its own ending, an inserted line
    // takes the ending of the line it follows (SPEC §6.8), a replaced line
    // keeps its own.
    let mixed = "a\r\nb\nc\r\nd\r\n";
    let p = s
        .prepare_insert_after(insert_opts(mixed, "b", "x"), T0)
        .unwrap();
    assert_eq!(
        apply(&mut s, &p.hunk_id, mixed).content,
        "a\r\nb\nx\nc\r\nd\r\n"
    );
    let p = s
        .prepare_range_edit(range_opts(mixed, "2", "B"), T0)
        .unwrap();
    assert_eq!(
        apply(&mut s, &p.hunk_id, mixed).content,
        "a\r\nB\nc\r\nd\r\n"
    );
    // CRLF new text into an LF file takes LF.
    let p = s
        .prepare_range_edit(range_opts("a\nb\n", "1", "x\r\ny\r\n"), T0)
        .unwrap();
    assert_eq!(apply(&mut s, &p.hunk_id, "a\nb\n").content, "x\ny\nb\n");
}

#[test]
fn cjk_and_emoji() {
    let mut s = session();
    let text = "第一行\n第二行 😀\n第三行\n";
    let p = s
        .prepare_insert_before(insert_opts(text, "😀", "插入 🚀"), T0)
        .unwrap();
    assert_eq!(
        apply(&mut s, &p.hunk_id, text).content,
        "第一行\n插入 🚀\n第二行 😀\n第三行\n"
    );
    let long = format!("{}\n", "字".repeat(500));
    let p = s
        .prepare_range_edit(range_opts(&long, "1", "x"), T0)
        .unwrap();
    let before = &p.range.as_ref().unwrap().evidence_range[0];
    assert_eq!(
        before.chars().count(),
        161,
        "previews are cut at a char boundary"
    );
    let v = format_file_view(FileViewOptions {
        content: text.into(),
        ..Default::default()
    })
    .unwrap();
    assert_eq!(v.size_bytes, text.len() as u32);
    assert_eq!(v.size_bytes, 35);
}

// ---------------------------------------------------------------------
// prepareAppend
// ---------------------------------------------------------------------

#[test]
fn append_plan_yaml() {
    let mut s = session();
    let p = s
        .prepare_append(append_opts(Some("x\n\n"), "\ny"), T0)
        .unwrap();
    assert_eq!(
        p.yaml,
        "status: ok
mode: prepare_file_append
path: 'a.txt'
hunk_id: 't-1'
expires_at_ms: 3601000
action: append
create: false
file_line_count_before: 2
file_line_count_after: 4
appended_line_count: 2
normalized:
  file_eof_has_newline: true
  content_eof_has_newline: false
  normalized_file_eof_newline_added: false
  normalized_content_eof_newline_added: true
blankline_style:
  file_trailing_blank_line_count: 1
  content_leading_blank_line_count: 1
style_warning: 'The file ends with blank line(s) and the text starts with blank line(s): blank lines will stack.'
evidence_preview:
  before_tail: ['x', '']
  append_preview: ['', 'y']
  after_tail: ['', 'y']
summary: 'Plan t-1: append 2 line(s) to a.txt (2 → 4 lines). Review the diff, then call apply_file_modification with this hunk_id (valid 60 min).'"
    );
    assert_eq!(
        p.diff,
        "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,4 @@\n x\n \n+\n+y\n"
    );
}

#[test]
fn append_create_and_errors() {
    let mut s = session();
    assert_eq!(
        code(s.prepare_append(append_opts(None, "x"), T0)),
        ErrorCode::FileNotFound
    );
    assert_eq!(
        code(s.prepare_append(append_opts(Some("a\n"), ""), T0)),
        ErrorCode::ContentRequired
    );
    let mut o = append_opts(None, "hello");
    o.create = Some(true);
    let p = s.prepare_append(o, T0).unwrap();
    assert!(p.append.as_ref().unwrap().create);
    let a = apply_to(&mut s, &p.hunk_id, None, T0).unwrap();
    assert_eq!(
        (a.context_match, a.content.as_str(), a.creates_file),
        (ContextMatch::Exact, "hello\n", true)
    );
    // Created by someone else meanwhile: fuzz, appended to what is there.
    let mut o = append_opts(None, "mine");
    o.create = Some(true);
    let p = s.prepare_append(o, T0).unwrap();
    let a = apply(&mut s, &p.hunk_id, "theirs");
    assert_eq!(
        (a.context_match, a.content.as_str(), a.creates_file),
        (ContextMatch::Fuzz, "theirs\nmine\n", false)
    );
    // Planned on an existing file that is gone at apply time.
    let p = s.prepare_append(append_opts(Some("a\n"), "b"), T0).unwrap();
    assert_eq!(
        code(apply_to(&mut s, &p.hunk_id, None, T0)),
        ErrorCode::FileNotFound
    );
    assert_eq!(
        s.pending(None, T0).len(),
        1,
        "a refused apply keeps the plan"
    );
}

#[test]
fn append_exact_when_unchanged_fuzz_otherwise() {
    let mut s = session();
    let p = s.prepare_append(append_opts(Some("a\n"), "z"), T0).unwrap();
    let a = apply(&mut s, &p.hunk_id, "a\n");
    assert_eq!(a.context_match, ContextMatch::Exact);
    assert_eq!(a.evidence.located_by, Some(LocatedBy::EndOfFile));
    let p = s.prepare_append(append_opts(Some("a\n"), "z"), T0).unwrap();
    let a = apply(&mut s, &p.hunk_id, "a\nb\n");
    assert_eq!(
        (a.context_match, a.content.as_str()),
        (ContextMatch::Fuzz, "a\nb\nz\n")
    );
    assert_eq!(a.append_range, Some(Span { start: 3, end: 3 }));
    assert_eq!(
        (
            a.evidence.planned_at_line,
            a.evidence.applied_at_line,
            a.evidence.line_shift
        ),
        (2, Some(3), Some(1))
    );
    assert_ne!(a.evidence.file_digest_before, a.evidence.file_digest_after);
    assert!(
        a.yaml
            .contains("  before_tail: ['a', 'b']\n  after_tail: ['b', 'z']\n"),
        "{}",
        a.yaml
    );
}

// ---------------------------------------------------------------------
// prepareInsertAfter / prepareInsertBefore
// ---------------------------------------------------------------------

#[test]
fn insert_after_plan_yaml() {
    let mut s = session();
    let p = s
        .prepare_insert_after(insert_opts(FIVE, "delta", "\nnew"), T0)
        .unwrap();
    assert_eq!(
        p.yaml,
        "status: ok
mode: prepare_file_insert_after
path: 'a.txt'
hunk_id: 't-1'
expires_at_ms: 3601000
action: insert
position: after
anchor: 'delta'
match: contains
candidates_count: 1
occurrence_resolved: '1'
anchor_line: 4
inserted_at_line: 5
inserted_line_count: 2
lines:
  old: 0
  new: 2
  delta: 2
normalized:
  file_eof_has_newline: true
  content_eof_has_newline: false
  normalized_file_eof_newline_added: false
  normalized_content_eof_newline_added: true
blankline_style:
  file_before_trailing_blank_line_count: 0
  file_after_leading_blank_line_count: 0
  content_leading_blank_line_count: 1
  content_trailing_blank_line_count: 0
style_warning: ''
evidence_preview:
  before_preview: ['gamma', 'delta']
  insert_preview: ['', 'new']
  after_preview: ['epsilon']
summary: 'Plan t-1: insert 2 line(s) after line 4 of a.txt (anchor match 1 of 1). Review the diff, then call apply_file_modification with this hunk_id (valid 60 min).'"
    );
    let a = apply(&mut s, &p.hunk_id, FIVE);
    assert_eq!(
        a.yaml,
        "status: ok
mode: apply_file_modification
path: 'a.txt'
hunk_id: 't-1'
action: insert
context_match: exact
position: after
anchor: 'delta'
inserted_at_line: 5
inserted_line_count: 2
lines:
  old: 0
  new: 2
  delta: 2
normalized:
  file_eof_has_newline: true
  content_eof_has_newline: false
  normalized_file_eof_newline_added: false
  normalized_content_eof_newline_added: true
apply_evidence:
  planned_at_line: 5
  applied_at_line: 5
  line_shift: 0
  located_by: planned_position
  candidates_count: 1
  context_matched: 5
  context_total: 5
  file_digest_before: 'fnv1a64:7dde35dc1ac2b940'
  file_digest_after: 'fnv1a64:de4a8fa126fddaf6'
  before_preview: ['gamma', 'delta']
  after_preview: ['epsilon']
summary: 'Applied t-1 to a.txt (exact): inserted 2 line(s) at line 5.'"
    );
    assert_eq!(a.content, "alpha\nbeta\ngamma\ndelta\n\nnew\nepsilon\n");
}

#[test]
fn insert_before_and_occurrences() {
    let mut s = session();
    let text = "x = 1\nfn a() {}\nx = 2\nfn b() {}\nx = 3\n";
    let mut o = insert_opts(text, "x =", "// last");
    o.occurrence = Some(Occurrence::Last);
    let p = s.prepare_insert_before(o, T0).unwrap();
    let i = p.insert.as_ref().unwrap();
    assert_eq!(
        (
            i.candidates_count,
            i.occurrence_resolved.as_str(),
            i.anchor_line
        ),
        (3, "last", 5)
    );
    assert_eq!(
        apply(&mut s, &p.hunk_id, text).content,
        "x = 1\nfn a() {}\nx = 2\nfn b() {}\n// last\nx = 3\n"
    );
    let mut o = insert_opts(text, "x =", "// two");
    o.occurrence = Some(Occurrence::Nth(2));
    let p = s.prepare_insert_after(o, T0).unwrap();
    assert_eq!(
        apply(&mut s, &p.hunk_id, text).content,
        "x = 1\nfn a() {}\nx = 2\n// two\nfn b() {}\nx = 3\n"
    );

    let e = s
        .prepare_insert_after(insert_opts(text, "x =", "y"), T0)
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::AnchorAmbiguous);
    let lines: Vec<u32> = e.details.candidates.iter().map(|c| c.start_line).collect();
    assert_eq!(lines, vec![1, 3, 5]);
    assert!(e
        .details
        .yaml
        .as_deref()
        .unwrap()
        .contains("\ncandidates_count: 3\ncandidate_lines: [1, 3, 5]\n"));
    let mut o = insert_opts(text, "x =", "y");
    o.occurrence = Some(Occurrence::Nth(4));
    assert_eq!(
        code(s.prepare_insert_after(o, T0)),
        ErrorCode::OccurrenceOutOfRange
    );
    assert_eq!(
        code(s.prepare_insert_after(insert_opts(text, "nope", "y"), T0)),
        ErrorCode::AnchorNotFound
    );
    assert_eq!(
        code(s.prepare_insert_after(insert_opts(text, "x", ""), T0)),
        ErrorCode::ContentRequired
    );
    assert_eq!(
        code(s.prepare_insert_after(insert_opts(text, "", "y"), T0)),
        ErrorCode::InvalidArgument
    );
    assert_eq!(
        code(s.prepare_insert_after(insert_opts(text, "a\nb", "y"), T0)),
        ErrorCode::InvalidArgument
    );
    let mut o = insert_opts(text, "x", "y");
    o.content = None;
    assert_eq!(
        code(s.prepare_insert_before(o, T0)),
        ErrorCode::FileNotFound
    );
    assert_eq!(
        code(s.prepare_insert_before(insert_opts("", "x", "y"), T0)),
        ErrorCode::AnchorNotFound
    );
}

#[test]
fn insert_match_modes() {
    let mut s = session();
    let text = "fn main() {\n    }\n}\n";
    let mut o = insert_opts(text, "}", "// end");
    o.match_mode = AnchorMatch::Equals;
    let p = s.prepare_insert_after(o, T0).unwrap();
    assert_eq!(p.insert.as_ref().unwrap().anchor_line, 3);
    let mut o = insert_opts(text, r"^fn \w+\(", "// doc");
    o.match_mode = AnchorMatch::Regex;
    let p = s.prepare_insert_before(o, T0).unwrap();
    assert_eq!(
        apply(&mut s, &p.hunk_id, text).content,
        "// doc\nfn main() {\n    }\n}\n"
    );
    let mut o = insert_opts(text, "(", "x");
    o.match_mode = AnchorMatch::Regex;
    assert_eq!(code(s.prepare_insert_after(o, T0)), ErrorCode::InvalidRegex);
}

#[test]
fn insert_after_an_unterminated_last_line() {
    let mut s = session();
    let p = s
        .prepare_insert_after(insert_opts("a\r\nb", "b", "c"), T0)
        .unwrap();
    assert!(p.normalized.normalized_file_eof_newline_added);
    assert_eq!(
        apply(&mut s, &p.hunk_id, "a\r\nb").content,
        "a\r\nb\r\nc\r\n"
    );
}

// ---------------------------------------------------------------------
// prepareBlockReplace
// ---------------------------------------------------------------------

const BLOCKS: &str = "a\n<!-- s -->\nold1\nold2\n<!-- e -->\nz";

#[test]
fn block_replace_plan_yaml() {
    let mut s = session();
    let p = s
        .prepare_block_replace(block_opts(BLOCKS, "<!-- s -->", "<!-- e -->", "new"), T0)
        .unwrap();
    assert_eq!(
        p.yaml,
        "status: ok
mode: prepare_file_block_replace
path: 'a.txt'
hunk_id: 't-1'
expires_at_ms: 3601000
action: block_replace
start_anchor: '<!-- s -->'
end_anchor: '<!-- e -->'
match: contains
include_anchors: true
require_unique: true
strict: true
candidates_count: 1
occurrence_resolved: '1'
block_range:
  start_line: 2
  end_line: 5
replace_slice:
  start_line: 3
  delete_count: 2
lines:
  old: 2
  new: 1
  delta: -1
normalized:
  file_eof_has_newline: false
  content_eof_has_newline: false
  normalized_file_eof_newline_added: true
  normalized_content_eof_newline_added: true
evidence_preview:
  before_preview: ['a', '<!-- s -->']
  old_preview: ['old1', 'old2']
  new_preview: ['new']
  after_preview: ['<!-- e -->', 'z']
summary: 'Plan t-1: replace 2 line(s) of the block at lines 2–5 of a.txt with 1 line(s). Review the diff, then call apply_file_modification with this hunk_id (valid 60 min).'"
    );
    let a = apply(&mut s, &p.hunk_id, BLOCKS);
    assert_eq!(a.content, "a\n<!-- s -->\nnew\n<!-- e -->\nz\n");
    let b = a.block_replace.unwrap();
    assert_eq!(
        (b.block_range, b.replace_slice),
        (
            Span { start: 2, end: 5 },
            ReplaceSlice {
                start_line: 3,
                delete_count: 2
            }
        )
    );
}

#[test]
fn block_replace_without_anchors_and_same_anchor_pairs() {
    let mut s = session();
    let mut o = block_opts(BLOCKS, "<!-- s -->", "<!-- e -->", "new\n");
    o.include_anchors = Some(false);
    let p = s.prepare_block_replace(o, T0).unwrap();
    assert_eq!(apply(&mut s, &p.hunk_id, BLOCKS).content, "a\nnew\nz\n");
    // Adjacent anchors: insertion between them.
    let text = "[s]\n[e]\n";
    let p = s
        .prepare_block_replace(block_opts(text, "[s]", "[e]", "mid"), T0)
        .unwrap();
    assert_eq!(apply(&mut s, &p.hunk_id, text).content, "[s]\nmid\n[e]\n");
    // `---` front matter: one line matches both anchors and pairs cleanly.
    let fm = "---\ntitle: x\n---\nbody\n---\nmore\n---\n";
    let mut o = block_opts(fm, "---", "---", "title: y");
    o.match_mode = AnchorMatch::Equals;
    o.occurrence = Some(Occurrence::Nth(1));
    let p = s.prepare_block_replace(o, T0).unwrap();
    assert_eq!(p.block_replace.as_ref().unwrap().candidates_count, 2);
    assert_eq!(
        apply(&mut s, &p.hunk_id, fm).content,
        "---\ntitle: y\n---\nbody\n---\nmore\n---\n"
    );
}

#[test]
fn block_replace_ambiguity_flags() {
    let mut s = session();
    let text = "S\n1\nE\nS\n2\nE\n";
    let e = s
        .prepare_block_replace(block_opts(text, "S", "E", "x"), T0)
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::AnchorAmbiguous);
    assert_eq!(e.details.candidates.len(), 2);
    assert!(e
        .details
        .yaml
        .unwrap()
        .contains("candidate_blocks: ['1~3', '4~6']"));
    let mut o = block_opts(text, "S", "E", "x");
    o.occurrence = Some(Occurrence::Last);
    let p = s.prepare_block_replace(o, T0).unwrap();
    assert_eq!(
        apply(&mut s, &p.hunk_id, text).content,
        "S\n1\nE\nS\nx\nE\n"
    );
    for (require_unique, strict) in [(false, true), (true, false)] {
        let mut o = block_opts(text, "S", "E", "x");
        o.require_unique = Some(require_unique);
        o.strict = Some(strict);
        let p = s.prepare_block_replace(o, T0).unwrap();
        assert_eq!(
            p.block_replace.as_ref().unwrap().block_range,
            Span { start: 1, end: 3 },
            "first block"
        );
    }
    let mut o = block_opts(text, "S", "E", "x");
    o.occurrence = Some(Occurrence::Nth(3));
    assert_eq!(
        code(s.prepare_block_replace(o, T0)),
        ErrorCode::OccurrenceOutOfRange
    );
}

#[test]
fn block_replace_errors() {
    let mut s = session();
    let nested = "<a>\n<a>\nx\n</a>\n</a>\n";
    let e = s
        .prepare_block_replace(block_opts(nested, "<a>", "</a>", "y"), T0)
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::NestedAnchors);
    assert_eq!(e.details.line, Some(2));
    let e = s
        .prepare_block_replace(block_opts(BLOCKS, "nope", "<!-- e -->", "y"), T0)
        .unwrap_err();
    assert_eq!(
        (e.code, e.details.name.as_deref()),
        (ErrorCode::AnchorNotFound, Some("startAnchor"))
    );
    let e = s
        .prepare_block_replace(block_opts(BLOCKS, "<!-- e -->", "<!-- s -->", "y"), T0)
        .unwrap_err();
    assert_eq!(
        (e.code, e.details.name.as_deref()),
        (ErrorCode::AnchorNotFound, Some("endAnchor")),
        "end must follow start"
    );
    assert_eq!(
        code(s.prepare_block_replace(block_opts(BLOCKS, "<!-- s -->", "<!-- e -->", ""), T0)),
        ErrorCode::ContentRequired
    );
    let mut o = block_opts(BLOCKS, "[", "]", "y");
    o.match_mode = AnchorMatch::Regex;
    assert_eq!(
        code(s.prepare_block_replace(o, T0)),
        ErrorCode::InvalidRegex
    );
    let mut o = block_opts(BLOCKS, "s", "e", "y");
    o.content = None;
    assert_eq!(
        code(s.prepare_block_replace(o, T0)),
        ErrorCode::FileNotFound
    );
}

// ---------------------------------------------------------------------
// The registry: consumption, ownership, expiry, revision, ordering
// ---------------------------------------------------------------------

#[test]
fn a_hunk_applies_once() {
    let mut s = session();
    let p = s.prepare_append(append_opts(Some("a\n"), "b"), T0).unwrap();
    let first = apply(&mut s, &p.hunk_id, "a\n");
    assert_eq!(first.content, "a\nb\n");
    let e = apply_to(&mut s, &p.hunk_id, Some(&first.content), T0 + 2.0).unwrap_err();
    assert_eq!(e.code, ErrorCode::HunkNotFound);
    assert!(e.message.contains("already applied"), "{}", e.message);
    assert!(e.details.yaml.unwrap().contains("\npath: 'a.txt'\n"));
    assert_eq!(
        code(apply_to(&mut s, "t-999", Some("a\n"), T0)),
        ErrorCode::HunkNotFound
    );
}

#[test]
fn a_deferred_apply_keeps_the_plan_until_the_host_consumes_it() {
    let mut s = session();
    let p = s.prepare_append(append_opts(Some("a\n"), "b"), T0).unwrap();
    let deferred = |content: &str| FileApplyOptions {
        hunk_id: p.hunk_id.clone(),
        owner: OWNER.into(),
        content: Some(content.into()),
        defer_consume: Some(true),
        ..Default::default()
    };
    // The host's write failed: the same plan applies again, to the same text.
    let first = s.apply(deferred("a\n"), T0 + 1.0).unwrap();
    assert_eq!(first.content, "a\nb\n");
    let again = s.apply(deferred("a\n"), T0 + 2.0).unwrap();
    assert_eq!(
        (again.content.as_str(), again.context_match),
        ("a\nb\n", ContextMatch::Exact)
    );
    assert_eq!(s.pending(None, T0 + 2.0).len(), 1);
    // The write landed: consumed, and a retry is HUNK_NOT_FOUND (no second insertion).
    assert!(s.consume(&p.hunk_id));
    assert!(!s.consume(&p.hunk_id), "only a live plan is consumed");
    let e = apply_to(&mut s, &p.hunk_id, Some("a\nb\n"), T0 + 3.0).unwrap_err();
    assert_eq!(e.code, ErrorCode::HunkNotFound);
    assert!(e.message.contains("already applied"), "{}", e.message);
    assert!(s.pending(None, T0 + 3.0).is_empty());
}

#[test]
fn ownership_is_checked_on_apply_and_revision() {
    let mut s = session();
    let p = s
        .prepare_range_edit(range_opts(FIVE, "1", "A"), T0)
        .unwrap();
    let other = FileApplyOptions {
        hunk_id: p.hunk_id.clone(),
        owner: "agent-2".into(),
        content: Some(FIVE.into()),
        ..Default::default()
    };
    let e = s.apply(other, T0).unwrap_err();
    assert_eq!(e.code, ErrorCode::WrongOwner);
    let mut o = range_opts(FIVE, "2", "B");
    o.owner = "agent-2".into();
    o.existing_hunk_id = Some(p.hunk_id.clone());
    assert_eq!(code(s.prepare_range_edit(o, T0)), ErrorCode::WrongOwner);
    assert_eq!(
        apply(&mut s, &p.hunk_id, FIVE).content,
        "A\nbeta\ngamma\ndelta\nepsilon\n",
        "the owner still can"
    );
}

#[test]
fn expiry_follows_the_injected_clock() {
    let mut s = FileEditSession::new(FileEditSessionOptions {
        id_prefix: "t".into(),
        ttl_ms: Some(500.0),
    });
    assert_eq!(s.ttl_ms(), 500.0);
    let p = s
        .prepare_range_edit(range_opts(FIVE, "1", "A"), T0)
        .unwrap();
    assert_eq!(p.expires_at_ms, T0 + 500.0);
    assert!(p.summary.contains("valid 1 min"));
    let q = s
        .prepare_range_edit(range_opts(FIVE, "2", "B"), T0)
        .unwrap();
    assert!(
        apply_to(&mut s, &q.hunk_id, Some(FIVE), T0 + 499.0).is_ok(),
        "still alive 1 ms before"
    );
    let e = apply_to(&mut s, &p.hunk_id, Some(FIVE), T0 + 500.0).unwrap_err();
    // Seed 001: not found, with the reason saying it expired.
    assert_eq!(e.code, ErrorCode::HunkNotFound);
    assert_eq!(e.details.reason.as_deref(), Some("expired"));
    assert!(e.details.yaml.unwrap().contains("\npath: 'a.txt'\n"));
    assert!(s.pending(None, T0 + 500.0).is_empty());
    // Revising an expired plan is refused the same way.
    let mut o = range_opts(FIVE, "1", "A");
    o.existing_hunk_id = Some(p.hunk_id.clone());
    assert_eq!(
        code(s.prepare_range_edit(o, T0 + 600.0)),
        ErrorCode::HunkNotFound
    );
    // Default TTL is one hour; 0 means the default.
    let d = FileEditSession::new(FileEditSessionOptions {
        ttl_ms: Some(0.0),
        ..Default::default()
    });
    assert_eq!(d.ttl_ms(), 3_600_000.0);
}

#[test]
fn revision_keeps_the_id_and_replaces_the_plan() {
    let mut s = session();
    let p = s
        .prepare_insert_after(insert_opts(FIVE, "beta", "first try"), T0)
        .unwrap();
    let mut o = insert_opts(FIVE, "gamma", "second try");
    o.existing_hunk_id = Some(p.hunk_id.clone());
    let r = s.prepare_insert_after(o, T0 + 10.0).unwrap();
    assert_eq!(
        (r.hunk_id.as_str(), r.revised, r.seq, r.created_at_ms),
        (p.hunk_id.as_str(), true, p.seq, T0)
    );
    assert_eq!(r.expires_at_ms, T0 + 10.0 + 3_600_000.0);
    assert!(r.yaml.contains("\nhunk_id: 't-1'\nrevised: true\n"));
    assert!(r.summary.starts_with("Revised plan t-1:"));
    assert_eq!(s.pending(None, T0).len(), 1);
    let a = apply(&mut s, &p.hunk_id, FIVE);
    assert_eq!(
        a.content,
        "alpha\nbeta\ngamma\nsecond try\ndelta\nepsilon\n"
    );

    let p = s
        .prepare_insert_after(insert_opts(FIVE, "beta", "x"), T0)
        .unwrap();
    let mut o = insert_opts(FIVE, "beta", "x");
    o.existing_hunk_id = Some(p.hunk_id.clone());
    assert_eq!(
        code(s.prepare_insert_before(o, T0)),
        ErrorCode::HunkKindMismatch
    );
    let mut o = range_opts(FIVE, "1", "x");
    o.existing_hunk_id = Some(p.hunk_id.clone());
    assert_eq!(
        code(s.prepare_range_edit(o, T0)),
        ErrorCode::HunkKindMismatch
    );
    let mut o = insert_opts(FIVE, "beta", "x");
    o.path = "b.txt".into();
    o.existing_hunk_id = Some(p.hunk_id.clone());
    assert_eq!(
        code(s.prepare_insert_after(o, T0)),
        ErrorCode::HunkPathMismatch
    );
    let mut o = insert_opts(FIVE, "beta", "x");
    o.existing_hunk_id = Some("t-77".into());
    assert_eq!(code(s.prepare_insert_after(o, T0)), ErrorCode::HunkNotFound);
    // A failed revision leaves the old plan untouched.
    let mut o = insert_opts(FIVE, "missing", "x");
    o.existing_hunk_id = Some(p.hunk_id.clone());
    assert_eq!(
        code(s.prepare_insert_after(o, T0)),
        ErrorCode::AnchorNotFound
    );
    assert_eq!(
        apply(&mut s, &p.hunk_id, FIVE).content,
        "alpha\nbeta\nx\ngamma\ndelta\nepsilon\n"
    );
}

#[test]
fn ids_are_short_and_distinct_across_sessions() {
    let mut a = FileEditSession::new(FileEditSessionOptions {
        id_prefix: id_prefix_from_now(1_767_225_600_000.0),
        ..Default::default()
    });
    let mut b = FileEditSession::new(FileEditSessionOptions {
        id_prefix: id_prefix_from_now(1_767_225_600_001.0),
        ..Default::default()
    });
    let pa = a
        .prepare_range_edit(range_opts(FIVE, "1", "x"), T0)
        .unwrap();
    let pb = b
        .prepare_range_edit(range_opts(FIVE, "1", "x"), T0)
        .unwrap();
    assert_ne!(pa.hunk_id, pb.hunk_id);
    assert!(pa.hunk_id.len() <= 12, "{}", pa.hunk_id);
    assert_eq!(
        code(apply_to(&mut b, &pa.hunk_id, Some(FIVE), T0)),
        ErrorCode::HunkNotFound,
        "ids are per session"
    );
}

#[test]
fn applies_in_one_tick_land_in_creation_order() {
    let mut s = session();
    let base = "log:\n";
    let first = s
        .prepare_append(append_opts(Some(base), "one"), T0)
        .unwrap();
    let second = s
        .prepare_append(append_opts(Some(base), "two"), T0)
        .unwrap();
    let third = s
        .prepare_insert_after(insert_opts(base, "log:", "zero"), T0)
        .unwrap();
    assert_eq!(
        s.pending(Some("a.txt"), T0)
            .iter()
            .map(|h| h.seq)
            .collect::<Vec<_>>(),
        vec![1.0, 2.0, 3.0]
    );
    // Requests arrive in any order within the tick; the host's per-path
    // queue runs them in apply_order.
    let waiting = vec![
        third.hunk_id.clone(),
        "unknown".to_string(),
        first.hunk_id.clone(),
        second.hunk_id.clone(),
    ];
    let order = s.apply_order(&waiting);
    assert_eq!(
        order,
        vec![
            first.hunk_id.clone(),
            second.hunk_id.clone(),
            third.hunk_id.clone(),
            "unknown".to_string()
        ]
    );
    let mut content = base.to_string();
    let mut matches = Vec::new();
    for id in &order[..3] {
        let a = apply_to(&mut s, id, Some(&content), T0).unwrap();
        matches.push(a.context_match);
        content = a.content;
    }
    assert_eq!(content, "log:\nzero\none\ntwo\n");
    // Each apply carries the later plans over its change: they stay exact.
    assert_eq!(
        matches,
        vec![
            ContextMatch::Exact,
            ContextMatch::Exact,
            ContextMatch::Exact
        ]
    );
    assert!(s.pending(None, T0).is_empty());
}

// ---------------------------------------------------------------------
// Races: plan on A, apply on B
// ---------------------------------------------------------------------

fn numbered(n: usize) -> String {
    (1..=n).map(|i| format!("line {i}\n")).collect()
}

#[test]
fn race_edit_above_the_range() {
    let a = numbered(20);
    // Same line count above: exact.
    let b = a.replacen("line 2\n", "LINE TWO\n", 1);
    let mut s = session();
    let p = s
        .prepare_range_edit(range_opts(&a, "10~12", "new\n"), T0)
        .unwrap();
    let r = apply(&mut s, &p.hunk_id, &b);
    assert_eq!(r.context_match, ContextMatch::Exact);
    assert_eq!(r.content, b.replace("line 10\nline 11\nline 12\n", "new\n"));
    // Lines added above: fuzz, shifted.
    let b = format!("header 1\nheader 2\n{a}");
    let p = s
        .prepare_range_edit(range_opts(&a, "10~12", "new\n"), T0)
        .unwrap();
    let r = apply(&mut s, &p.hunk_id, &b);
    assert_eq!(r.context_match, ContextMatch::Fuzz);
    assert_eq!(
        (
            r.evidence.planned_at_line,
            r.evidence.applied_at_line,
            r.evidence.line_shift
        ),
        (10, Some(12), Some(2))
    );
    assert_eq!(r.applied_range, Some(Span { start: 12, end: 14 }));
    assert_eq!(r.content, b.replace("line 10\nline 11\nline 12\n", "new\n"));
    assert!(r.diff.contains("@@ -9,9 +9,7 @@"), "{}", r.diff);
    assert_ne!(r.evidence.file_digest_before, r.evidence.file_digest_after);
}

#[test]
fn race_edit_inside_the_range_is_rejected_and_changes_nothing() {
    let a = numbered(20);
    let b = a.replace("line 11\n", "line eleven\n");
    let mut s = session();
    let p = s
        .prepare_range_edit(range_opts(&a, "10~12", "new\n"), T0)
        .unwrap();
    let r = apply(&mut s, &p.hunk_id, &b);
    assert_eq!(
        (r.context_match, r.reason, r.status),
        (
            ContextMatch::Rejected,
            Some(RejectReason::ContentChanged),
            "rejected"
        )
    );
    assert_eq!(r.content, b, "byte for byte");
    assert!(!r.changed);
    assert_eq!(r.diff, "");
    assert_eq!(r.evidence.file_digest_before, r.evidence.file_digest_after);
    assert_eq!(
        r.yaml,
        "status: rejected
mode: apply_file_modification
path: 'a.txt'
hunk_id: 't-1'
action: replace
context_match: rejected
reason: CONTENT_CHANGED
apply_evidence:
  planned_at_line: 10
  candidates_count: 0
  context_matched: 0
  context_total: 6
  file_digest_before: 'fnv1a64:e72aab0b37f1b838'
  file_digest_after: 'fnv1a64:e72aab0b37f1b838'
  expected_preview: ['line 10', 'line 11', 'line 12']
  actual_preview: ['line 10', 'line eleven', 'line 12']
summary: 'Rejected t-1: the planned lines and their context (line 10 of the planned-on file) no longer stand together in a.txt. Nothing was changed.'
next: 'Re-read the file, then prepare the edit again (pass existing_hunk_id: \"t-1\" to revise this plan).'"
    );
    // The plan is kept: it can be revised against B and then applied.
    assert_eq!(s.pending(None, T0).len(), 1);
    let mut o = range_opts(&b, "10~12", "new\n");
    o.existing_hunk_id = Some(p.hunk_id.clone());
    s.prepare_range_edit(o, T0).unwrap();
    assert_eq!(
        apply(&mut s, &p.hunk_id, &b).context_match,
        ContextMatch::Exact
    );
}

#[test]
fn race_duplicate_of_the_range_elsewhere() {
    let a = numbered(20);
    let block = "line 7\nline 8\nline 9\nline 10\nline 11\nline 12\nline 13\nline 14\nline 15\n";
    // Duplicated above, context included: two equally good places.
    let b = format!("{block}{a}");
    let mut s = session();
    let p = s
        .prepare_range_edit(range_opts(&a, "10~12", "new\n"), T0)
        .unwrap();
    let r = apply(&mut s, &p.hunk_id, &b);
    assert_eq!(
        (r.context_match, r.reason),
        (ContextMatch::Rejected, Some(RejectReason::AmbiguousMatch))
    );
    assert_eq!(r.content, b);
    let places: Vec<(u32, u32)> = r
        .evidence
        .candidates
        .iter()
        .map(|c| (c.start_line, c.end_line))
        .collect();
    assert_eq!(places, vec![(4, 6), (19, 21)]);
    assert!(
        r.yaml.contains("  candidates: ['4~6', '19~21']\n"),
        "{}",
        r.yaml
    );
    assert!(r.summary.contains("occur at 2 places"));
    // Duplicated below, planned place intact: still two places (SPEC §7:
    // "shifted or not"), rejected with both listed.
    let b = format!("{a}{block}");
    let r = apply(&mut s, &p.hunk_id, &b);
    assert_eq!(
        (r.context_match, r.reason),
        (ContextMatch::Rejected, Some(RejectReason::AmbiguousMatch))
    );
    assert_eq!(r.content, b);
    assert!(
        r.yaml.contains("  candidates: ['10~12', '24~26']\n"),
        "{}",
        r.yaml
    );
}

#[test]
fn race_file_truncated() {
    let a = numbered(20);
    let b = numbered(8);
    let mut s = session();
    let p = s
        .prepare_range_edit(range_opts(&a, "10~12", "new\n"), T0)
        .unwrap();
    let r = apply(&mut s, &p.hunk_id, &b);
    assert_eq!(
        (r.context_match, r.reason),
        (ContextMatch::Rejected, Some(RejectReason::ContentChanged))
    );
    assert_eq!(r.content, b);
    assert!(r.evidence.actual_preview.is_empty());
    let r = apply(&mut s, &p.hunk_id, "");
    assert_eq!(
        (r.context_match, r.content.as_str()),
        (ContextMatch::Rejected, "")
    );
}

#[test]
fn race_repeated_anchor_is_singled_out_by_context() {
    let a = "fn a() {\n    1\n}\n\nfn b() {\n    2\n}\n\nfn c() {\n    3\n}\n";
    let mut s = session();
    let mut o = insert_opts(a, "}", "// after b");
    o.occurrence = Some(Occurrence::Nth(2));
    o.match_mode = AnchorMatch::Equals;
    let p = s.prepare_insert_after(o, T0).unwrap();
    let b = format!("use x;\n\n{a}");
    let r = apply(&mut s, &p.hunk_id, &b);
    assert_eq!(r.context_match, ContextMatch::Fuzz);
    assert_eq!(r.evidence.candidates_count, 3);
    assert_eq!(
        r.content,
        format!(
            "use x;\n\n{}",
            a.replace("    2\n}\n", "    2\n}\n// after b\n")
        )
    );
}

#[test]
fn race_planned_place_gone_but_a_twin_remains_is_not_a_wrong_edit() {
    // "x = 1" occurs twice when planned; the planned one is edited and its
    // context too; only the twin remains: rejected, never applied there.
    let a = "start\nx = 1\nend\n\nother\nx = 1\nmore\n";
    let mut s = session();
    let mut o = range_opts(a, "2", "x = 10");
    o.range = "2".into();
    let p = s.prepare_range_edit(o, T0).unwrap();
    let b = "begin\nx = 2\nfinish\n\nother\nx = 1\nmore\n";
    let r = apply(&mut s, &p.hunk_id, b);
    assert_eq!(
        (r.context_match, r.reason),
        (ContextMatch::Rejected, Some(RejectReason::ContentChanged))
    );
    assert_eq!(r.content, b);
}

#[test]
fn race_lines_moved_away_from_their_context_are_rejected() {
    // SPEC §7: relocation needs the plan's own context, found together.
    let a = "header\nfn unique_name() {\n    body();\n}\nfooter\n";
    let mut s = session();
    let p = s
        .prepare_range_edit(range_opts(a, "3", "    better();"), T0)
        .unwrap();
    // The function moved to another place with new neighbours: the span's
    // lines alone are not the plan's place.
    let b = "footer\nsomething\nfn unique_name() {\n    body();\n}\n";
    let r = apply(&mut s, &p.hunk_id, b);
    assert_eq!(r.context_match, ContextMatch::Rejected);
    assert_eq!(r.reason, Some(RejectReason::ContentChanged));
    assert_eq!(r.content, b);
    assert!(!r.changed);
}

#[test]
fn race_context_found_twice_is_rejected_with_both_places() {
    let base = "fn a() {\n    let x = 1;\n    let y = 2;\n    let z = 3;\n    work(x, y, z);\n}\n";
    let mut s = session();
    let p = s
        .prepare_range_edit(range_opts(base, "4", "    let z = 4;"), T0)
        .unwrap();
    let twice = format!("zz\n{base}{base}");
    let r = apply(&mut s, &p.hunk_id, &twice);
    assert_eq!(r.context_match, ContextMatch::Rejected);
    assert_eq!(r.reason, Some(RejectReason::AmbiguousMatch));
    assert_eq!(r.content, twice);
    assert!(!r.changed);
    let at: Vec<u32> = r.evidence.candidates.iter().map(|c| c.start_line).collect();
    assert_eq!(at, vec![5, 11]);
    assert_eq!(
        r.yaml,
        "status: rejected
mode: apply_file_modification
path: 'a.txt'
hunk_id: 't-1'
action: replace
context_match: rejected
reason: AMBIGUOUS_MATCH
apply_evidence:
  planned_at_line: 4
  candidates_count: 2
  candidates: ['5~5', '11~11']
  context_matched: 5
  context_total: 6
  file_digest_before: 'fnv1a64:227d164e3034afe9'
  file_digest_after: 'fnv1a64:227d164e3034afe9'
  expected_preview: ['    let z = 3;']
  actual_preview: ['    let y = 2;']
summary: 'Rejected t-1: the planned lines and their context occur at 2 places in a.txt (lines 5, 11); the plan cannot tell which it meant. Nothing was changed.'
next: 'Re-read the file, then prepare the edit again (pass existing_hunk_id: \"t-1\" to revise this plan).'"
    );
}

#[test]
fn many_places_are_counted_and_the_first_ten_named_in_the_summary() {
    let mut s = session();
    let p = s
        .prepare_range_edit(range_opts("a\nb\nc\n", "2", "B"), T0)
        .unwrap();
    let many = "a\nb\nc\n".repeat(12);
    let r = apply(&mut s, &p.hunk_id, &many);
    assert_eq!(r.reason, Some(RejectReason::AmbiguousMatch));
    assert_eq!(r.evidence.candidates_count, 12);
    assert_eq!(
        r.summary,
        "Rejected t-1: the planned lines and their context occur at 12 places in a.txt (lines 2, 5, 8, 11, 14, 17, 20, 23, 26, 29, …); the plan cannot tell which it meant. Nothing was changed."
    );
}

#[test]
fn race_span_line_left_only_in_an_unrelated_function_is_rejected() {
    let a = "fn f() {\n    let total = 0;\n    add(total);\n    log(total);\n}\n";
    let mut s = session();
    let p = s
        .prepare_range_edit(range_opts(a, "3", "    add(total + 1);"), T0)
        .unwrap();
    // f is gone; the span's line survives in another function only.
    let b = "fn g() {\n    let other = 5;\n    add(total);\n    other += 1;\n}\n";
    let r = apply(&mut s, &p.hunk_id, b);
    assert_eq!(r.context_match, ContextMatch::Rejected);
    assert_eq!(r.reason, Some(RejectReason::ContentChanged));
    assert_eq!(r.content, b);
    assert!(!r.changed);
    assert_eq!(
        r.yaml,
        "status: rejected
mode: apply_file_modification
path: 'a.txt'
hunk_id: 't-1'
action: replace
context_match: rejected
reason: CONTENT_CHANGED
apply_evidence:
  planned_at_line: 3
  candidates_count: 0
  context_matched: 3
  context_total: 6
  file_digest_before: 'fnv1a64:191b50ea05050504'
  file_digest_after: 'fnv1a64:191b50ea05050504'
  expected_preview: ['    add(total);']
  actual_preview: ['    add(total);']
summary: 'Rejected t-1: the planned lines and their context (line 3 of the planned-on file) no longer stand together in a.txt. Nothing was changed.'
next: 'Re-read the file, then prepare the edit again (pass existing_hunk_id: \"t-1\" to revise this plan).'"
    );
}

#[test]
fn race_context_shifted_as_a_whole_is_followed() {
    let a = "fn f() {\n    let total = 0;\n    add(total);\n    log(total);\n}\n";
    let mut s = session();
    let p = s
        .prepare_range_edit(range_opts(a, "3", "    add(total + 1);"), T0)
        .unwrap();
    let b = format!("// new header\n// second\n{a}");
    let r = apply(&mut s, &p.hunk_id, &b);
    assert_eq!(r.context_match, ContextMatch::Fuzz);
    assert_eq!(
        r.content,
        "// new header\n// second\nfn f() {\n    let total = 0;\n    add(total + 1);\n    log(total);\n}\n"
    );
}

#[test]
fn race_context_copied_onto_the_planned_place_is_rejected() {
    // SPEC §7: "When the context occurs at several places, shifted or not,
    // it is rejected with the candidates listed." A copy of lines 7–13
    // pasted right above them: the planned place (line 10) now shows the
    // copy, the original moved to line 17. Which one the plan meant is
    // unknowable, so neither is edited.
    let a = numbered(20);
    let window: String = (7..=13).map(|i| format!("line {i}\n")).collect();
    let b = a.replacen("line 7\n", &format!("{window}line 7\n"), 1);
    let mut s = session();
    let p = s
        .prepare_range_edit(range_opts(&a, "10", "TEN"), T0)
        .unwrap();
    let r = apply(&mut s, &p.hunk_id, &b);
    assert_eq!(
        (r.status, r.context_match, r.reason),
        (
            "rejected",
            ContextMatch::Rejected,
            Some(RejectReason::AmbiguousMatch)
        )
    );
    assert_eq!(r.content, b);
    assert!(!r.changed);
    assert_eq!(
        r.yaml,
        "status: rejected
mode: apply_file_modification
path: 'a.txt'
hunk_id: 't-1'
action: replace
context_match: rejected
reason: AMBIGUOUS_MATCH
apply_evidence:
  planned_at_line: 10
  candidates_count: 2
  candidates: ['10~10', '17~17']
  context_matched: 6
  context_total: 6
  file_digest_before: 'fnv1a64:31baf512d879789f'
  file_digest_after: 'fnv1a64:31baf512d879789f'
  expected_preview: ['line 10']
  actual_preview: ['line 10']
summary: 'Rejected t-1: the planned lines and their context occur at 2 places in a.txt (lines 10, 17); the plan cannot tell which it meant. Nothing was changed.'
next: 'Re-read the file, then prepare the edit again (pass existing_hunk_id: \"t-1\" to revise this plan).'"
    );
    assert_eq!(s.pending(None, T0).len(), 1, "the plan is kept");
}

#[test]
fn a_window_repeated_when_planned_applies_only_to_the_unchanged_file() {
    // The window (3 lines, the span, 3 lines) already stood twice when the
    // plan was made: on the very same file the plan's line numbers hold
    // (exact); once the file changed, the two places cannot be told apart.
    let block = "a\nb\nc\nd\ne\nf\ng\n";
    let text = format!("{block}{block}");
    let mut s = session();
    let p = s
        .prepare_range_edit(range_opts(&text, "11", "D"), T0)
        .unwrap();
    let r = apply(&mut s, &p.hunk_id, &text);
    assert_eq!(r.context_match, ContextMatch::Exact);
    assert_eq!(r.content, format!("{block}a\nb\nc\nD\ne\nf\ng\n"));
    let p = s
        .prepare_range_edit(range_opts(&text, "11", "D"), T0)
        .unwrap();
    let changed = format!("{text}tail\n");
    let r = apply(&mut s, &p.hunk_id, &changed);
    assert_eq!(
        (r.context_match, r.reason),
        (ContextMatch::Rejected, Some(RejectReason::AmbiguousMatch))
    );
    assert_eq!(r.content, changed);
    assert!(
        r.yaml.contains("  candidates: ['4~4', '11~11']\n"),
        "{}",
        r.yaml
    );
}

#[test]
fn a_reindented_context_is_relocated_and_the_new_text_reindented() {
    // SPEC §7: the context is found "after the safe strategies'
    // normalisation"; a uniformly re-indented window is the plan's place,
    // and the planned text moves in by the same indentation (SPEC §6.1).
    let a = "fn f() {\n    let total = 0;\n    add(total);\n    log(total);\n}\n";
    let mut s = session();
    let p = s
        .prepare_range_edit(range_opts(a, "3", "    add(total + 1);\n    done();"), T0)
        .unwrap();
    // Wrapped in a module: everything moved in by four spaces, one line
    // added above.
    let b = "mod m {\n    fn f() {\n        let total = 0;\n        add(total);\n        log(total);\n    }\n}\n";
    let r = apply(&mut s, &p.hunk_id, b);
    assert_eq!(
        (r.status, r.context_match, r.evidence.located_by),
        ("ok", ContextMatch::Fuzz, Some(LocatedBy::SafeStrategy))
    );
    assert_eq!(
        r.content,
        "mod m {\n    fn f() {\n        let total = 0;\n        add(total + 1);\n        done();\n        log(total);\n    }\n}\n"
    );
    assert_eq!(r.applied_range, Some(Span { start: 4, end: 4 }));
    assert_eq!(
        (r.evidence.applied_at_line, r.evidence.line_shift),
        (Some(4), Some(1))
    );
    // Re-indented with tabs, CRLF endings: the file's indentation and
    // endings are written.
    let p = s
        .prepare_range_edit(range_opts(a, "3", "    add(total + 1);"), T0)
        .unwrap();
    let b = "fn f() {\r\n\tlet total = 0;\r\n\tadd(total);\r\n\tlog(total);\r\n}\r\n";
    let r = apply(&mut s, &p.hunk_id, b);
    assert_eq!(r.context_match, ContextMatch::Fuzz);
    assert_eq!(
        r.content,
        "fn f() {\r\n\tlet total = 0;\r\n\tadd(total + 1);\r\n\tlog(total);\r\n}\r\n"
    );
    // A window that starts with a blank line (the matcher leaves blank edge
    // lines out of its match): the blank line is found next to it.
    let c = "use x;\n\nfn f() {\n    a();\n    b();\n    c();\n}\n";
    let p = s
        .prepare_range_edit(range_opts(c, "5", "    B();"), T0)
        .unwrap();
    let d = "use x;\nmod m {\n\n    fn f() {\n        a();\n        b();\n        c();\n    }\n}\n";
    let r = apply(&mut s, &p.hunk_id, d);
    assert_eq!(
        (r.context_match, r.applied_range),
        (ContextMatch::Fuzz, Some(Span { start: 6, end: 6 }))
    );
    assert_eq!(
        r.content,
        "use x;\nmod m {\n\n    fn f() {\n        a();\n        B();\n        c();\n    }\n}\n"
    );
    // Re-indented, but the window now stands twice: rejected, both listed.
    let p = s
        .prepare_range_edit(range_opts(a, "3", "    add(total + 1);"), T0)
        .unwrap();
    let once = "fn f() {\n  let total = 0;\n  add(total);\n  log(total);\n}\n";
    let twice = format!("{once}{once}");
    let r = apply(&mut s, &p.hunk_id, &twice);
    assert_eq!(
        (r.context_match, r.reason),
        (ContextMatch::Rejected, Some(RejectReason::AmbiguousMatch))
    );
    assert_eq!(r.content, twice);
    let at: Vec<u32> = r.evidence.candidates.iter().map(|c| c.start_line).collect();
    assert_eq!(at, vec![3, 8]);
}

#[test]
fn race_block_replace_moved() {
    let mut s = session();
    let p = s
        .prepare_block_replace(block_opts(BLOCKS, "<!-- s -->", "<!-- e -->", "new"), T0)
        .unwrap();
    let b = format!("intro\n\n{BLOCKS}");
    let r = apply(&mut s, &p.hunk_id, &b);
    assert_eq!(r.context_match, ContextMatch::Fuzz);
    assert_eq!(r.content, "intro\n\na\n<!-- s -->\nnew\n<!-- e -->\nz\n");
    let blk = r.block_replace.unwrap();
    assert_eq!(blk.block_range, Span { start: 4, end: 7 });
    // Edited inside the block: rejected.
    let p = s
        .prepare_block_replace(block_opts(BLOCKS, "<!-- s -->", "<!-- e -->", "new"), T0)
        .unwrap();
    let b = BLOCKS.replace("old2", "old2 edited");
    assert_eq!(
        apply(&mut s, &p.hunk_id, &b).context_match,
        ContextMatch::Rejected
    );
}

// ---------------------------------------------------------------------
// checkOverwrite / checkNewFile
// ---------------------------------------------------------------------

fn overwrite(
    content: &str,
    new_content: &str,
    lines: u64,
    bytes: u64,
    format: Option<&str>,
) -> Result<OverwriteCheck, Error> {
    check_overwrite(OverwriteOptions {
        path: "a.md".into(),
        content: content.into(),
        new_content: new_content.into(),
        known_old_total_lines: Some(lines),
        known_old_total_bytes: Some(bytes),
        content_format: format.map(str::to_string),
        lang: Lang::En,
    })
}

#[test]
fn overwrite_guard() {
    let c = overwrite("a\nb\n", "x\ny", 2, 4, None).unwrap();
    assert_eq!(c.content, "x\ny\n");
    assert_eq!(
        c.yaml,
        "status: ok
mode: overwrite_entire_file
path: 'a.md'
known_old_total_lines: 2
known_old_total_bytes: 4
new_total_lines: 2
new_total_bytes: 4
normalized_trailing_newline_added: true
line_endings_converted: false
bom_kept: false
content_format: ''
summary: 'Overwrite of a.md accepted (2 lines, 4 bytes).'"
    );
    let e = overwrite("a\nb\n", "x\n", 3, 4, None).unwrap_err();
    assert_eq!(e.code, ErrorCode::SnapshotMismatch);
    assert_eq!(
        e.details.yaml.unwrap(),
        "status: error
mode: overwrite_entire_file
path: 'a.md'
error: SNAPSHOT_MISMATCH
known_old_total_lines: 3
known_old_total_bytes: 4
actual_old_total_lines: 2
actual_old_total_bytes: 4
summary: 'known_old_total_lines/bytes do not match the current file; refusing to overwrite.'
next: 'Call read_file to get the current total_lines and size_bytes, check what changed, then retry.'"
    );
    assert_eq!(
        code(overwrite("a\nb\n", "x\n", 2, 5, None)),
        ErrorCode::SnapshotMismatch
    );
    assert!(
        overwrite("", "x", 0, 0, None).is_ok(),
        "0/0 is the empty file's snapshot"
    );
    let mut o = OverwriteOptions {
        content: "a\n".into(),
        new_content: "b\n".into(),
        known_old_total_bytes: Some(2),
        ..Default::default()
    };
    o.path = "a.md".into();
    assert_eq!(code(check_overwrite(o)), ErrorCode::InvalidArgument);
    // CRLF file, LF new content: converted; BOM kept.
    let c = overwrite("\u{feff}a\r\nb\r\n", "x\ny\n", 2, 9, None).unwrap();
    assert_eq!(c.content, "\u{feff}x\r\ny\r\n");
    assert!(c.line_endings_converted && c.bom_kept && !c.normalized_trailing_newline_added);
    let c = overwrite("a\r\n", "x", 1, 3, None).unwrap();
    assert_eq!(c.content, "x\r\n", "the final newline is the file's own");
    let c = overwrite("a\n", "", 1, 2, None).unwrap();
    assert_eq!((c.content.as_str(), c.new_total_lines), ("", 0));
}

#[test]
fn overwrite_refuses_patch_looking_content_unless_declared() {
    let unified = "--- a/x.rs\n+++ b/x.rs\n@@ -1,2 +1,2 @@\n-a\n+b\n";
    let apply_patch = "*** Begin Patch\n*** Update File: x\n*** End Patch\n";
    let block_diff =
        "@@20240614083000-a1b2c3d@@\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n";
    let markdown = "---\ntitle: notes\n---\n\n- a\n+ b\n\nUse `@@ -1 +1 @@` headers.\n";
    let ok = |text: &str, format: Option<&str>| overwrite("", text, 0, 0, format);
    let e = ok(unified, None).unwrap_err();
    assert_eq!(e.code, ErrorCode::SuspiciousDiff);
    assert!(e
        .details
        .yaml
        .unwrap()
        .contains("\ncontent_format: ''\ndetected: ['unified_diff']\n"));
    assert_eq!(code(ok(apply_patch, None)), ErrorCode::SuspiciousDiff);
    assert_eq!(code(ok(block_diff, None)), ErrorCode::SuspiciousDiff);
    assert_eq!(
        code(ok(unified, Some("markdown"))),
        ErrorCode::SuspiciousDiff
    );
    assert!(ok(unified, Some("diff")).is_ok());
    assert!(ok(apply_patch, Some("patch")).is_ok());
    // editkit's own block diff is not mistaken for a unified diff once declared…
    assert!(ok(block_diff, Some("block-diff")).is_ok());
    assert!(ok(block_diff, Some("search-replace")).is_ok());
    // …but declaring it does not let a real unified diff through.
    let e = ok(&format!("{block_diff}{unified}"), Some("block-diff")).unwrap_err();
    assert!(e
        .details
        .yaml
        .unwrap()
        .contains("detected: ['unified_diff']"));
    assert!(
        ok(markdown, None).is_ok(),
        "front matter, lists and inline @@ are not patches"
    );
}

#[test]
fn new_file_guard() {
    let n = |exists: bool, is_file: bool, text: &str| {
        check_new_file(NewFileOptions {
            path: "n.txt".into(),
            exists: Some(exists),
            is_file: Some(is_file),
            new_content: text.into(),
            lang: Lang::En,
            as_given: None,
        })
    };
    assert_eq!(code(n(true, true, "x")), ErrorCode::FileExists);
    assert_eq!(code(n(true, false, "x")), ErrorCode::NotAFile);
    let c = n(false, false, "hello").unwrap();
    assert_eq!(
        (c.content.as_str(), c.normalized_trailing_newline_added),
        ("hello\n", true)
    );
    assert_eq!(
        c.yaml,
        "status: ok
mode: create_new_file
path: 'n.txt'
new_total_lines: 1
new_total_bytes: 6
normalized_trailing_newline_added: true
summary: 'Creation of n.txt accepted (1 lines, 6 bytes).'"
    );
    let c = n(false, false, "").unwrap();
    assert_eq!(
        (c.content.as_str(), c.normalized_trailing_newline_added),
        ("", false)
    );
    let c = n(false, false, "a\r\nb").unwrap();
    assert_eq!(c.content, "a\r\nb\r\n");
    // As given (the text editor's `create`): the text byte for byte.
    for text in ["hello", "a\r\nb", "尾行 😀", ""] {
        let c = check_new_file(NewFileOptions {
            path: "n.txt".into(),
            exists: Some(false),
            new_content: text.into(),
            as_given: Some(true),
            ..Default::default()
        })
        .unwrap();
        assert_eq!(
            (c.content.as_str(), c.normalized_trailing_newline_added),
            (text, false)
        );
        assert_eq!(c.new_total_bytes as usize, text.len());
    }
    let e = n(true, true, "x").unwrap_err();
    assert_eq!(
        e.details.yaml.unwrap(),
        "status: error
mode: create_new_file
path: 'n.txt'
error: FILE_EXISTS
summary: 'The file already exists; refusing to create it.'
next: 'To change it, use the prepare_* tools; to replace it entirely, call read_file for total_lines/size_bytes, then overwrite_entire_file.'"
    );
}

// ---------------------------------------------------------------------
// formatFileView
// ---------------------------------------------------------------------

fn view(content: &str, range: Option<&str>, max_lines: Option<u32>) -> Result<FileView, Error> {
    format_file_view(FileViewOptions {
        path: "a.txt".into(),
        content: content.into(),
        range: range.map(str::to_string),
        max_lines,
        ..Default::default()
    })
}

#[test]
fn file_view() {
    let v = view(FIVE, Some("2~3"), None).unwrap();
    assert_eq!(
        v.text,
        "```yaml
status: ok
mode: read_file
path: 'a.txt'
size_bytes: 31
total_lines: 5
shown_lines: 2
shown_range:
  start: 2
  end: 3
truncated_by_max_lines: false
truncated_by_char_limit: false
next_range: ''
line_ending: lf
has_bom: false
file_eof_has_newline: true
summary: 'a.txt: 5 lines, 31 bytes; showing lines 2–3.'
```

```
   2| beta
   3| gamma
```"
    );
    let v = view("", None, None).unwrap();
    assert_eq!((v.total_lines, v.size_bytes, v.shown_lines), (0, 0, 0));
    assert!(v.text.ends_with("<empty file>"));
    let v = view("a\nb", Some("2~99"), None).unwrap();
    assert_eq!(
        (v.start_line, v.end_line, v.body.as_str()),
        (2, 2, "   2| b\n"),
        "the end is clamped"
    );
    let v = view(&numbered(1200), None, None).unwrap();
    assert_eq!(
        (
            v.shown_lines,
            v.truncated_by_max_lines,
            v.next_range.as_str()
        ),
        (500, true, "501~1000")
    );
    let v = view(&numbered(30), Some("10~"), Some(5)).unwrap();
    assert_eq!(
        (v.start_line, v.end_line, v.next_range.as_str()),
        (10, 14, "15~19")
    );
    assert!(v
        .text
        .ends_with("Output truncated; read on with range \"15~19\"."));
    assert_eq!(
        code(view(FIVE, Some("9~"), None)),
        ErrorCode::RangeOutOfBounds
    );
    assert_eq!(code(view(FIVE, Some("3~1"), None)), ErrorCode::InvalidRange);
    let v = format_file_view(FileViewOptions {
        content: "\u{feff}x\r\ny".into(),
        show_line_numbers: Some(false),
        ..Default::default()
    })
    .unwrap();
    assert_eq!(
        (
            v.body.as_str(),
            v.has_bom,
            v.line_ending,
            v.size_bytes,
            v.total_lines
        ),
        ("x\ny\n", true, "crlf", 7, 2)
    );
    // The header's numbers are exactly checkOverwrite's snapshot.
    let text = "中文\n😀\n";
    let v = view(text, None, None).unwrap();
    assert!(overwrite(text, "x\n", v.total_lines.into(), v.size_bytes.into(), None).is_ok());
    let fence_inside = view("```\ncode\n```\n", None, None).unwrap();
    assert!(
        fence_inside.text.contains("\n````\n   1| ```\n"),
        "{}",
        fence_inside.text
    );
}

// ---------------------------------------------------------------------
// Options: "" and 0 mean unset
// ---------------------------------------------------------------------

#[test]
fn options_accept_empty_string_and_zero_as_unset() {
    let o: InsertOptions = serde_json::from_value(serde_json::json!({
        "path": "a.txt", "content": "x\n", "anchor": "x", "match": "", "occurrence": 0,
        "newText": "y", "owner": "", "existingHunkId": "", "lang": ""
    }))
    .unwrap();
    assert_eq!(
        (
            o.match_mode,
            o.occurrence,
            o.existing_hunk_id.as_deref(),
            o.lang
        ),
        (AnchorMatch::Contains, None, None, Lang::En)
    );
    let o: InsertOptions =
        serde_json::from_value(serde_json::json!({"occurrence": "", "match": "regex"})).unwrap();
    assert_eq!((o.occurrence, o.match_mode), (None, AnchorMatch::Regex));
    let o: InsertOptions =
        serde_json::from_value(serde_json::json!({"occurrence": "last", "lang": "zh-CN"})).unwrap();
    assert_eq!((o.occurrence, o.lang), (Some(Occurrence::Last), Lang::Zh));
    let o: InsertOptions = serde_json::from_value(serde_json::json!({"occurrence": "3"})).unwrap();
    assert_eq!(o.occurrence, Some(Occurrence::Nth(3)));
    let o: InsertOptions = serde_json::from_value(serde_json::json!({"occurrence": 2.0})).unwrap();
    assert_eq!(o.occurrence, Some(Occurrence::Nth(2)));
    for bad in [
        serde_json::json!({"occurrence": -1}),
        serde_json::json!({"occurrence": "first"}),
        serde_json::json!({"occurrence": 1.5}),
        serde_json::json!({"match": "fuzzy"}),
    ] {
        assert!(
            serde_json::from_value::<InsertOptions>(bad.clone()).is_err(),
            "{bad}"
        );
    }
    let o: BlockReplaceOptions = serde_json::from_value(
        serde_json::json!({"includeAnchors": "", "requireUnique": false, "strict": "false"}),
    )
    .unwrap();
    assert_eq!(
        (o.include_anchors, o.require_unique, o.strict),
        (None, Some(false), Some(false))
    );
    let o: FileViewOptions =
        serde_json::from_value(serde_json::json!({"content": "", "range": "", "maxLines": 0}))
            .unwrap();
    assert_eq!((o.range, o.max_lines), (None, None));
    let o: OverwriteOptions = serde_json::from_value(serde_json::json!({
        "content": "", "newContent": "x", "knownOldTotalLines": 0, "knownOldTotalBytes": "0", "contentFormat": ""
    }))
    .unwrap();
    assert_eq!(
        (
            o.known_old_total_lines,
            o.known_old_total_bytes,
            o.content_format
        ),
        (Some(0), Some(0), None),
        "0 is a count here"
    );
    let o: RangeEditOptions =
        serde_json::from_value(serde_json::json!({"content": null, "range": "1"})).unwrap();
    assert_eq!(o.content, None, "null content: the file does not exist");
    let o: RangeEditOptions = serde_json::from_value(serde_json::json!({"content": ""})).unwrap();
    assert_eq!(o.content.as_deref(), Some(""), "an empty file exists");
    let o: FileEditSessionOptions =
        serde_json::from_value(serde_json::json!({"ttlMs": 0, "idPrefix": "abc"})).unwrap();
    assert_eq!((o.ttl_ms, o.id_prefix.as_str()), (None, "abc"));
}

// ---------------------------------------------------------------------
// Languages
// ---------------------------------------------------------------------

#[test]
fn messages_in_chinese() {
    let mut s = session();
    let mut o = insert_opts("x\nx\n", "x", "y");
    o.lang = Lang::Zh;
    let e = s.prepare_insert_after(o, T0).unwrap_err();
    assert_eq!(e.message, "锚点 \"x\" 匹配了 2 行；未生成规划。");
    assert_eq!(
        e.details.yaml.unwrap(),
        "status: error
mode: prepare_file_insert_after
path: 'a.txt'
error: ANCHOR_AMBIGUOUS
anchor: 'x'
match: contains
candidates_count: 2
candidate_lines: [1, 2]
summary: '锚点 \"x\" 匹配了 2 行；未生成规划。'
next: '请传 occurrence（从 1 开始，或 \"last\"）选定候选行之一，或换用更具体的锚点（match: \"equals\"），或改用 prepare_file_range_edit。'"
    );
    let mut o = range_opts(FIVE, "2", "B");
    o.lang = Lang::Zh;
    let p = s.prepare_range_edit(o, T0).unwrap();
    assert!(
        p.summary.starts_with("规划 t-1：替换 a.txt 第 2–2 行"),
        "{}",
        p.summary
    );
    let a = s
        .apply(
            FileApplyOptions {
                hunk_id: p.hunk_id,
                owner: OWNER.into(),
                content: Some(FIVE.into()),
                lang: Lang::Zh,
                ..Default::default()
            },
            T0,
        )
        .unwrap();
    assert!(
        a.summary.starts_with("已将 t-1 应用于 a.txt（exact）"),
        "{}",
        a.summary
    );
    let v = format_file_view(FileViewOptions {
        content: String::new(),
        lang: Lang::Zh,
        ..Default::default()
    })
    .unwrap();
    assert!(v.text.ends_with("<空文件>"));
    // Rejections, and an expired plan, in Chinese.
    let zh_apply = |s: &mut FileEditSession, id: &str, content: &str, now: f64| {
        s.apply(
            FileApplyOptions {
                hunk_id: id.into(),
                owner: OWNER.into(),
                content: Some(content.into()),
                lang: Lang::Zh,
                ..Default::default()
            },
            now,
        )
    };
    let p = s
        .prepare_range_edit(range_opts(FIVE, "3", "C"), T0)
        .unwrap();
    let twice = format!("{FIVE}{FIVE}");
    let r = zh_apply(&mut s, &p.hunk_id, &twice, T0).unwrap();
    assert_eq!(
        r.summary,
        "已拒绝 t-2：规划的行连同其上下文在 a.txt 中出现于 2 处（第 3、8 行），无法确定规划指的是哪一处。未做任何修改。"
    );
    let r = zh_apply(&mut s, &p.hunk_id, "gamma\n", T0).unwrap();
    assert_eq!(
        r.summary,
        "已拒绝 t-2：规划时第 3 行的内容连同其上下文已不再一起出现在 a.txt 中。未做任何修改。"
    );
    let e = zh_apply(&mut s, &p.hunk_id, FIVE, T0 + 3_600_000.0).unwrap_err();
    assert_eq!(
        (e.code, e.details.reason.as_deref()),
        (ErrorCode::HunkNotFound, Some("expired"))
    );
    assert_eq!(
        e.details.yaml.unwrap(),
        "status: error
mode: apply_file_modification
path: 'a.txt'
error: HUNK_NOT_FOUND
hunk_id: 't-2'
reason: expired
summary: 'hunk t-2 已过期。'
next: '请重新读取文件并重新 prepare（hunk_id 只能由 prepare 工具生成，不要自行编造）。'"
    );
}

// ---------------------------------------------------------------------
// Every error code: the exact agent YAML
// ---------------------------------------------------------------------

// ---------------------------------------------------------------------
// Large files
// ---------------------------------------------------------------------

/// A 100,000-line file through every tool, with exact results. (No timing
/// assertion: relocation is KMP over lines and the diff covers only the
/// changed window, so this runs in well under a second natively; a
/// quadratic regression would show as a stalled test, not a flaky one.)
#[test]
fn a_hundred_thousand_line_file() {
    let n = 100_000;
    let line = |i: usize| format!("let v{i} = {i}; // some padding text here\n");
    let big: String = (0..n).map(line).collect();
    let planned: String = (49_999..50_002).map(line).collect();
    let mut s = session();
    let p = s
        .prepare_range_edit(range_opts(&big, "50000~50002", "replaced\n"), T0)
        .unwrap();
    assert_eq!(
        p.lines,
        LineCounts {
            old: 3,
            new: 1,
            delta: -2
        }
    );
    assert_eq!(
        p.diff,
        "--- a/a.txt\n+++ b/a.txt\n@@ -49997,9 +49997,7 @@\n let v49996 = 49996; // some padding text here\n \
         let v49997 = 49997; // some padding text here\n let v49998 = 49998; // some padding text here\n\
         -let v49999 = 49999; // some padding text here\n-let v50000 = 50000; // some padding text here\n\
         -let v50001 = 50001; // some padding text here\n+replaced\n let v50002 = 50002; // some padding text here\n \
         let v50003 = 50003; // some padding text here\n let v50004 = 50004; // some padding text here\n"
    );
    let a = apply(&mut s, &p.hunk_id, &big);
    assert_eq!(a.context_match, ContextMatch::Exact);
    assert_eq!(
        a.applied_range,
        Some(Span {
            start: 50_000,
            end: 50_002
        })
    );
    assert_eq!(a.content, big.replacen(&planned, "replaced\n", 1));
    // Shifted: fuzz over the whole file.
    let p = s
        .prepare_range_edit(range_opts(&big, "50000~50002", "replaced\n"), T0)
        .unwrap();
    let shifted = format!("// new header\n{big}");
    let a = apply(&mut s, &p.hunk_id, &shifted);
    assert_eq!(
        (a.context_match, a.evidence.line_shift),
        (ContextMatch::Fuzz, Some(1))
    );
    assert_eq!(
        a.applied_range,
        Some(Span {
            start: 50_001,
            end: 50_003
        })
    );
    assert_eq!(a.content, shifted.replacen(&planned, "replaced\n", 1));
    // An anchor on the last line, an append, and a whole-file replacement
    // (the linear diff fallback).
    let p = s
        .prepare_insert_after(insert_opts(&big, "let v99999 =", "end"), T0)
        .unwrap();
    assert_eq!(p.insert.as_ref().unwrap().anchor_line, 100_000);
    assert_eq!(
        apply(&mut s, &p.hunk_id, &big).content,
        format!("{big}end\n")
    );
    let p = s
        .prepare_append(append_opts(Some(&big), "tail"), T0)
        .unwrap();
    let a = apply(&mut s, &p.hunk_id, &big);
    assert_eq!(
        (a.context_match, a.append_range),
        (
            ContextMatch::Exact,
            Some(Span {
                start: 100_001,
                end: 100_001
            })
        )
    );
    assert_eq!(a.content, format!("{big}tail\n"));
    let replacement: String = (0..n).map(|i| format!("const c{i} = {i};\n")).collect();
    let p = s
        .prepare_range_edit(range_opts(&big, "~", &replacement), T0)
        .unwrap();
    assert_eq!(
        p.lines,
        LineCounts {
            old: 100_000,
            new: 100_000,
            delta: 0
        }
    );
    assert!(
        p.diff
            .starts_with("--- a/a.txt\n+++ b/a.txt\n@@ -1,100000 +1,100000 @@\n-let v0 = 0;"),
        "{}",
        &p.diff[..200]
    );
    assert_eq!(p.diff.lines().count(), 3 + 2 * n);
    assert_eq!(apply(&mut s, &p.hunk_id, &big).content, replacement);
    let v = view(&big, Some("99990~"), None).unwrap();
    assert_eq!(
        (v.shown_lines, v.start_line, v.end_line, v.total_lines),
        (11, 99_990, 100_000, 100_000)
    );
    assert_eq!(v.size_bytes as usize, big.len());
    let shown: String = (99_989..n)
        .map(|i| format!("{:>6}| {}", i + 1, line(i)))
        .collect();
    assert_eq!(v.body, shown);
}

// ---------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------

fn file_strategy() -> impl Strategy<Value = Vec<String>> {
    // A small alphabet so lines repeat and relocation meets duplicates.
    prop::collection::vec(
        prop::sample::select(vec!["a", "b", "c", "", "}", "中"]).prop_map(str::to_string),
        0..25,
    )
}

/// The text whose lines are exactly `lines` (a last empty line forces the
/// final newline, else it would not be a line).
fn join(lines: &[String], crlf: bool, final_newline: bool) -> String {
    let ending = if crlf { "\r\n" } else { "\n" };
    let mut out = lines.join(ending);
    if (final_newline || lines.last().is_some_and(|l| l.is_empty())) && !lines.is_empty() {
        out.push_str(ending);
    }
    out
}

#[derive(Clone, Debug)]
enum Mutation {
    Insert(usize, String),
    Delete(usize),
    Replace(usize, String),
}

fn mutations() -> impl Strategy<Value = Vec<Mutation>> {
    let line = prop::sample::select(vec!["a", "b", "x", "", "}"]).prop_map(str::to_string);
    let m = prop_oneof![
        (0usize..30, line.clone()).prop_map(|(i, l)| Mutation::Insert(i, l)),
        (0usize..30).prop_map(Mutation::Delete),
        (0usize..30, line).prop_map(|(i, l)| Mutation::Replace(i, l)),
    ];
    prop::collection::vec(m, 0..4)
}

fn mutate(mut lines: Vec<String>, ms: &[Mutation]) -> Vec<String> {
    for m in ms {
        match m {
            Mutation::Insert(i, l) => {
                let i = (*i).min(lines.len());
                lines.insert(i, l.clone());
            }
            Mutation::Delete(i) if *i < lines.len() => {
                lines.remove(*i);
            }
            Mutation::Replace(i, l) if *i < lines.len() => lines[*i] = l.clone(),
            _ => {}
        }
    }
    lines
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn range_parser_never_panics(input in "\\PC{0,12}", total in 0usize..50) {
        if let Ok(spec) = parse_line_range(&input, Lang::En) {
            let _ = spec.resolve(total, &input, Lang::En);
        }
    }

    #[test]
    fn resolved_ranges_stay_in_the_file(a in 0u64..60, b in 0u64..60, form in 0u8..5, total in 0usize..50) {
        let input = match form {
            0 => format!("{a}"),
            1 => format!("{a}~{b}"),
            2 => format!("{a}~"),
            3 => format!("~{b}"),
            _ => "~".to_string(),
        };
        let addressable = total.max(1) as u32;
        match parse_line_range(&input, Lang::En).and_then(|s| s.resolve(total, &input, Lang::En)) {
            Ok(ResolvedRange::Lines { start, end }) => {
                prop_assert!(1 <= start && start <= end && end <= addressable, "{input} → {start}~{end}");
            }
            Ok(ResolvedRange::Append { at }) => {
                prop_assert_eq!(form, 2);
                prop_assert_eq!(at, addressable + 1);
            }
            Err(e) => prop_assert!(matches!(e.code, ErrorCode::InvalidRange | ErrorCode::RangeOutOfBounds)),
        }
    }

    /// Plan on A, apply on a mutation B: a rejection returns B byte for
    /// byte and keeps the plan; an apply changes only the located lines.
    #[test]
    fn a_rejected_apply_changes_nothing(
        lines in file_strategy(),
        crlf in any::<bool>(),
        final_newline in any::<bool>(),
        start in 0usize..25,
        len in 1usize..4,
        new_text in prop::sample::select(vec!["", "N\n", "N1\nN2", "a"]),
        ms in mutations(),
    ) {
        let a = join(&lines, crlf, final_newline);
        let total = lines.len().max(1);
        let start = start % total + 1;
        let end = (start + len - 1).min(total);
        let mut s = session();
        let plan = s.prepare_range_edit(range_opts(&a, &format!("{start}~{end}"), new_text), T0).unwrap();
        let mutated = mutate(lines.clone(), &ms);
        let b = join(&mutated, crlf, final_newline);
        let r = apply_to(&mut s, &plan.hunk_id, Some(&b), T0).unwrap();
        match r.context_match {
            ContextMatch::Rejected => {
                prop_assert_eq!(&r.content, &b);
                prop_assert!(!r.changed);
                prop_assert_eq!(s.pending(None, T0).len(), 1);
            }
            _ => {
                prop_assert!(s.pending(None, T0).is_empty());
                if lines.is_empty() {
                    return Ok(());
                }
                // Only the located lines changed: the lines before and after
                // the applied range are B's.
                let span = r.applied_range.unwrap();
                let (first, old) = (span.start as usize - 1, r.lines.unwrap().old as usize);
                let old_text: Vec<&str> = lines[start - 1..end].iter().map(String::as_str).collect();
                prop_assert_eq!(&mutated[first..first + old].iter().map(String::as_str).collect::<Vec<_>>(), &old_text);
                let ending = if crlf { "\r\n" } else { "\n" };
                let prefix: String = mutated[..first].iter().map(|l| format!("{l}{ending}")).collect();
                prop_assert!(r.content.starts_with(&prefix));
                // Seed 001: the result always ends with a newline.
                let mut suffix = join(&mutated[first + old..], crlf, final_newline);
                if !suffix.is_empty() && !suffix.ends_with('\n') {
                    suffix.push_str(ending);
                }
                prop_assert!(r.content.ends_with(&suffix));
                prop_assert!(r.content.is_empty() || r.content.ends_with('\n'));
            }
        }
    }

    /// No input makes any planner function panic.
    #[test]
    fn nothing_panics(
        content in prop::option::of("(\\PC|\r|\n|\u{feff}){0,40}"),
        text in "(\\PC|\r|\n){0,12}",
        anchor in "(\\PC|\r|\n|[(){}\\[\\]*+?]){0,6}",
        range in "[0-9~～ ]{0,5}",
        mode in 0u8..3,
        occurrence in prop::option::of(0u32..4),
        later in prop::option::of("(\\PC|\r|\n){0,40}"),
    ) {
        let mut s = session();
        let match_mode = [AnchorMatch::Contains, AnchorMatch::Equals, AnchorMatch::Regex][mode as usize];
        let occurrence = occurrence.map(|n| if n == 0 { Occurrence::Last } else { Occurrence::Nth(n) });
        let mut ids = Vec::new();
        let mut o = range_opts("", &range, &text);
        o.content = content.clone();
        ids.extend(s.prepare_range_edit(o, T0).ok().map(|p| p.hunk_id));
        let mut o = append_opts(content.as_deref(), &text);
        o.create = Some(mode == 1);
        ids.extend(s.prepare_append(o, T0).ok().map(|p| p.hunk_id));
        let mut o = insert_opts("", &anchor, &text);
        o.content = content.clone();
        o.match_mode = match_mode;
        o.occurrence = occurrence;
        ids.extend(s.prepare_insert_after(o.clone(), T0).ok().map(|p| p.hunk_id));
        ids.extend(s.prepare_insert_before(o, T0).ok().map(|p| p.hunk_id));
        let mut o = block_opts("", &anchor, &text, &text);
        o.content = content.clone();
        o.match_mode = match_mode;
        o.occurrence = occurrence;
        o.include_anchors = Some(mode != 2);
        ids.extend(s.prepare_block_replace(o, T0).ok().map(|p| p.hunk_id));
        for id in ids {
            let _ = apply_to(&mut s, &id, later.as_deref(), T0);
        }
        let c = content.unwrap_or_default();
        let _ = format_file_view(FileViewOptions { content: c.clone(), range: Some(range.clone()), ..Default::default() });
        let _ = check_overwrite(OverwriteOptions { content: c.clone(), new_content: text.clone(), known_old_total_lines: Some(0), known_old_total_bytes: Some(c.len() as u64), ..Default::default() });
        let _ = check_new_file(NewFileOptions { new_content: text, ..Default::default() });
    }
}

#[test]
fn a_reformatted_core_is_relocated_by_the_matchers_safe_strategies() {
    let mut s = session();
    let v1 = "fn a() {\n    let x = 1;\n    let y = 2;\n}\n";
    let plan = s
        .prepare_range_edit(range_opts(v1, "2", "    let x = 10;"), 1_000.0)
        .unwrap();
    // A formatter added trailing spaces and doubled an inner space: the
    // exact lines are gone, the same lines reformatted are there once.
    let v2 = "// header\nfn a() {\n    let x  = 1;   \n    let y = 2;\n}\n";
    let r = apply(&mut s, &plan.hunk_id, v2);
    assert_eq!(r.context_match, ContextMatch::Fuzz);
    assert_eq!(r.evidence.located_by, Some(LocatedBy::SafeStrategy));
    assert_eq!(
        r.content,
        "// header\nfn a() {\n    let x = 10;\n    let y = 2;\n}\n"
    );

    // A re-indented window is relocated too, and the planned line written
    // at the file's new indentation (4 → 2 spaces).
    let plan = s
        .prepare_range_edit(range_opts(v1, "2", "    let x = 10;"), 1_000.0)
        .unwrap();
    let v3 = "fn a() {\n  let x = 1;\n  let y = 2;\n}\n";
    let r = apply(&mut s, &plan.hunk_id, v3);
    assert_eq!(r.context_match, ContextMatch::Fuzz);
    assert_eq!(r.evidence.located_by, Some(LocatedBy::SafeStrategy));
    assert_eq!(r.content, "fn a() {\n  let x = 10;\n  let y = 2;\n}\n");
}

#[test]
fn plans_from_one_read_apply_in_turn_even_with_shared_context() {
    // Three edits planned on the same read, each in the others' context.
    let text = "1\n2\n3\n4\n5\n";
    let mut s = session();
    let p1 = s
        .prepare_range_edit(range_opts(text, "1", "one"), T0)
        .unwrap();
    let p3 = s
        .prepare_range_edit(range_opts(text, "3", "three"), T0)
        .unwrap();
    let p4 = s
        .prepare_range_edit(range_opts(text, "4", "four\nfour-b"), T0)
        .unwrap();
    let a = apply(&mut s, &p1.hunk_id, text);
    assert_eq!(a.context_match, ContextMatch::Exact);
    let b = apply(&mut s, &p3.hunk_id, &a.content);
    assert_eq!(b.context_match, ContextMatch::Exact);
    let c = apply(&mut s, &p4.hunk_id, &b.content);
    assert_eq!(c.context_match, ContextMatch::Exact);
    assert_eq!(c.content, "one\n2\nthree\nfour\nfour-b\n5\n");
    // Plans on the same lines conflict: the second is rejected.
    let mut s = session();
    let q1 = s
        .prepare_range_edit(range_opts(text, "2~3", "x"), T0)
        .unwrap();
    let q2 = s
        .prepare_range_edit(range_opts(text, "3", "y"), T0)
        .unwrap();
    let a = apply(&mut s, &q1.hunk_id, text);
    let b = apply(&mut s, &q2.hunk_id, &a.content);
    assert_eq!(b.context_match, ContextMatch::Rejected);
    assert_eq!(b.content, "1\nx\n4\n5\n");
    // A file changed by someone else in between is not rebased onto.
    let mut s = session();
    let r1 = s
        .prepare_range_edit(range_opts(text, "1", "one"), T0)
        .unwrap();
    let r2 = s
        .prepare_range_edit(range_opts(text, "2", "two"), T0)
        .unwrap();
    let a = apply(&mut s, &r1.hunk_id, "0\n1\n2\n3\n4\n5\n");
    assert_eq!(a.context_match, ContextMatch::Fuzz);
    let b = apply(&mut s, &r2.hunk_id, &a.content);
    assert_eq!(b.context_match, ContextMatch::Rejected);
}

// ---------------------------------------------------------------------
// Review fixes: rebase, context-less plans, mixed endings, EOF diff
// ---------------------------------------------------------------------

fn apply_as(s: &mut FileEditSession, owner: &str, id: &str, content: &str) -> FileApplyResult {
    s.apply(
        FileApplyOptions {
            hunk_id: id.into(),
            owner: owner.into(),
            content: Some(content.into()),
            ..Default::default()
        },
        T0 + 1.0,
    )
    .expect("apply")
}

#[test]
fn an_apply_carries_over_only_its_owners_plans_for_the_same_file() {
    let text = "1\n2\n3\n4\n5\n";
    let mut s = session();
    let mine = s
        .prepare_range_edit(range_opts(text, "3", "three"), T0)
        .unwrap();
    let mine_too = s
        .prepare_range_edit(range_opts(text, "4", "four"), T0)
        .unwrap();
    // Another owner planned line 4 on the same read: line 3, which the
    // first apply changes, is part of its context, which it never saw.
    let mut o = range_opts(text, "4", "FOUR");
    o.owner = "agent-2".into();
    let theirs = s.prepare_range_edit(o, T0).unwrap();
    // The same owner's plan for another file with the same content.
    let mut o = range_opts(text, "4", "vier");
    o.path = "b.txt".into();
    let other_file = s.prepare_range_edit(o, T0).unwrap();

    let a = apply(&mut s, &mine.hunk_id, text);
    assert_eq!(a.content, "1\n2\nthree\n4\n5\n");
    let r = apply_as(&mut s, "agent-2", &theirs.hunk_id, &a.content);
    assert_eq!(
        (r.context_match, r.reason, r.content.as_str()),
        (
            ContextMatch::Rejected,
            Some(RejectReason::ContentChanged),
            "1\n2\nthree\n4\n5\n"
        )
    );
    // The applying owner's own plan was carried over its change.
    let b = apply(&mut s, &mine_too.hunk_id, &a.content);
    assert_eq!(
        (b.context_match, b.content.as_str()),
        (ContextMatch::Exact, "1\n2\nthree\nfour\n5\n")
    );
    // The other file's plan still stands on that file's content.
    let c = apply(&mut s, &other_file.hunk_id, text);
    assert_eq!(
        (c.context_match, c.content.as_str()),
        (ContextMatch::Exact, "1\n2\n3\nvier\n5\n")
    );
}

#[test]
fn a_rebase_over_repeated_lines_follows_the_applied_splice() {
    // p, q, p, q: the first plan turns line 1 into three lines that
    // repeat the file's own; the second plan, on the second `p` (line 3),
    // must land on that same `p`, now line 5 — never on line 3, which
    // is the first plan's text.
    let text = "p\nq\np\nq\n";
    let mut s = session();
    let grow = s
        .prepare_range_edit(range_opts(text, "1", "p\nq\np"), T0)
        .unwrap();
    let second_p = s
        .prepare_range_edit(range_opts(text, "3", "X"), T0)
        .unwrap();
    let a = apply(&mut s, &grow.hunk_id, text);
    assert_eq!(a.content, "p\nq\np\nq\np\nq\n");
    let b = apply(&mut s, &second_p.hunk_id, &a.content);
    assert_ne!(b.content, "p\nq\nX\nq\np\nq\n", "the wrong `p`");
    assert_eq!(
        (b.context_match, b.content.as_str()),
        (ContextMatch::Exact, "p\nq\np\nq\nX\nq\n")
    );
    assert_eq!(b.evidence.applied_at_line, Some(5));

    // A deletion of lines 1~2 (p, q): the last `q` (line 4) is now line 2.
    let mut s = session();
    let cut = s
        .prepare_range_edit(range_opts(text, "1~2", ""), T0)
        .unwrap();
    let last_q = s
        .prepare_range_edit(range_opts(text, "4", "Q"), T0)
        .unwrap();
    let first_q = s
        .prepare_range_edit(range_opts(text, "2", "Z"), T0)
        .unwrap();
    let a = apply(&mut s, &cut.hunk_id, text);
    assert_eq!(a.content, "p\nq\n");
    let b = apply(&mut s, &last_q.hunk_id, &a.content);
    assert_eq!(
        (b.context_match, b.content.as_str()),
        (ContextMatch::Exact, "p\nQ\n")
    );
    // The deleted `q`'s plan conflicts with the deletion: rejected, not
    // moved onto the `q` that remains.
    let c = apply(&mut s, &first_q.hunk_id, &a.content);
    assert_eq!(
        (c.context_match, c.content.as_str()),
        (ContextMatch::Rejected, "p\nq\n")
    );
}

#[test]
fn a_plan_without_context_lines_is_taken_only_where_its_file_edges_hold() {
    // The whole file is the span: no context line on either side, only
    // the file's start and end.
    let text = "a\nb\n";
    let mut s = session();
    let p = s
        .prepare_range_edit(range_opts(text, "1~2", "X"), T0)
        .unwrap();
    for changed in ["z\na\nb\n", "a\nb\nc\n", "a\nb\na\nb\n"] {
        let r = apply(&mut s, &p.hunk_id, changed);
        assert_eq!(
            (r.context_match, r.reason, r.content.as_str()),
            (
                ContextMatch::Rejected,
                Some(RejectReason::ContentChanged),
                changed
            ),
            "{changed:?}"
        );
    }
    // Same lines, other bytes (line endings): the edges hold.
    let r = apply(&mut s, &p.hunk_id, "a\r\nb\r\n");
    assert_eq!(
        (r.context_match, r.content.as_str()),
        (ContextMatch::Exact, "X\r\n")
    );

    // A one-line file; an insert next to its only line.
    let mut s = session();
    let p = s
        .prepare_range_edit(range_opts("only\n", "1", "ONLY"), T0)
        .unwrap();
    let i = s
        .prepare_insert_after(insert_opts("only\n", "only", "after"), T0)
        .unwrap();
    for changed in ["only\nonly\n", "top\nonly\n"] {
        for id in [&p.hunk_id, &i.hunk_id] {
            let r = apply(&mut s, id, changed);
            assert_eq!(
                (r.context_match, r.reason, r.content.as_str()),
                (
                    ContextMatch::Rejected,
                    Some(RejectReason::ContentChanged),
                    changed
                ),
                "{id} on {changed:?}"
            );
        }
    }

    // Reformatted in place (the safe strategies), the edges still hold;
    // reformatted and shifted, they do not.
    let code = "fn a() {\n    x();\n}\n";
    let mut s = session();
    let p = s
        .prepare_range_edit(range_opts(code, "1~3", "fn a() {\n    y();\n}"), T0)
        .unwrap();
    let shifted = "// top\nfn a() {   \n    x();\n}\n";
    let r = apply(&mut s, &p.hunk_id, shifted);
    assert_eq!(
        (r.context_match, r.reason, r.content.as_str()),
        (
            ContextMatch::Rejected,
            Some(RejectReason::ContentChanged),
            shifted
        )
    );
    let r = apply(&mut s, &p.hunk_id, "fn a() {   \n    x();\n}\n");
    assert_eq!(
        (r.context_match, r.evidence.located_by, r.content.as_str()),
        (
            ContextMatch::Fuzz,
            Some(LocatedBy::SafeStrategy),
            "fn a() {\n    y();\n}\n"
        )
    );

    // At the file's start with context after it: the file start is an
    // anchor, and the context after is found shifted as a whole.
    let mut s = session();
    let p = s
        .prepare_range_edit(range_opts("a\nb\nc\n", "1", "A"), T0)
        .unwrap();
    let r = apply(&mut s, &p.hunk_id, "z\na\nb\nc\n");
    assert_eq!(
        (r.context_match, r.content.as_str()),
        (ContextMatch::Fuzz, "z\nA\nb\nc\n")
    );
}

#[test]
fn mixed_endings_stay_with_their_lines_when_lines_are_inserted_or_deleted() {
    let mixed = "h\r\na\nb\r\nc\nt\r\n";
    let mut s = session();
    // A line inserted at the top of the replaced range: `a`, `b`, `c`
    // keep their own endings; the new line takes the nearest one.
    let p = s
        .prepare_range_edit(range_opts(mixed, "2~4", "new\na\nb\nc"), T0)
        .unwrap();
    assert_eq!(
        apply(&mut s, &p.hunk_id, mixed).content,
        "h\r\nnew\na\nb\r\nc\nt\r\n"
    );
    // A line deleted in the middle: `c` keeps its LF.
    let p = s
        .prepare_range_edit(range_opts(mixed, "2~4", "a\nc"), T0)
        .unwrap();
    assert_eq!(apply(&mut s, &p.hunk_id, mixed).content, "h\r\na\nc\nt\r\n");
    // A changed line keeps the ending of the line it replaces; an added
    // line after it takes the ending of the line before it.
    let p = s
        .prepare_range_edit(range_opts(mixed, "2~4", "a\nB\nadded\nc"), T0)
        .unwrap();
    assert_eq!(
        apply(&mut s, &p.hunk_id, mixed).content,
        "h\r\na\nB\r\nadded\r\nc\nt\r\n"
    );
}

#[test]
fn the_diff_shows_the_final_newline_added_far_from_the_change() {
    // Seed 001: every apply ends the file with a newline, wherever the
    // edit is; the diff shows that byte too.
    let text = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10";
    let mut s = session();
    let p = s
        .prepare_range_edit(range_opts(text, "1", "one"), T0)
        .unwrap();
    let expected = "--- a/a.txt
+++ b/a.txt
@@ -1,4 +1,4 @@
-1
+one
 2
 3
 4
@@ -7,4 +7,4 @@
 7
 8
 9
-10
\\ No newline at end of file
+10
";
    assert_eq!(p.diff, expected);
    let r = apply(&mut s, &p.hunk_id, text);
    assert_eq!(r.content, "one\n2\n3\n4\n5\n6\n7\n8\n9\n10\n");
    assert_eq!(r.diff, expected);
    assert!(
        r.text.ends_with(&format!("```diff\n{expected}```")),
        "{}",
        r.text
    );

    // A range rewritten as it was: the final newline is the only change.
    let p = s
        .prepare_range_edit(range_opts(text, "2", "2"), T0)
        .unwrap();
    let r = apply(&mut s, &p.hunk_id, text);
    assert_eq!(r.content, "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n");
    assert!(r.changed);
    assert_eq!(
        r.diff,
        "--- a/a.txt
+++ b/a.txt
@@ -7,4 +7,4 @@
 7
 8
 9
-10
\\ No newline at end of file
+10
"
    );

    // Close to the end (one hunk), with a line count change, in CRLF.
    let crlf = "a\r\nb\r\nc\r\nd\r\ne\r\nf";
    let p = s
        .prepare_range_edit(range_opts(crlf, "1", "A\nA2"), T0)
        .unwrap();
    let r = apply(&mut s, &p.hunk_id, crlf);
    assert_eq!(r.content, "A\r\nA2\r\nb\r\nc\r\nd\r\ne\r\nf\r\n");
    assert_eq!(
        r.diff,
        "--- a/a.txt
+++ b/a.txt
@@ -1,6 +1,7 @@
-a\r
+A\r
+A2\r
 b\r
 c\r
 d\r
 e\r
-f
\\ No newline at end of file
+f\r
"
    );
    // Far from the end with the line count changed: the second hunk is
    // numbered on each side.
    let p = s
        .prepare_range_edit(range_opts(text, "1~2", ""), T0)
        .unwrap();
    let r = apply(&mut s, &p.hunk_id, text);
    assert_eq!(r.content, "3\n4\n5\n6\n7\n8\n9\n10\n");
    assert_eq!(
        r.diff,
        "--- a/a.txt
+++ b/a.txt
@@ -1,5 +1,3 @@
-1
-2
 3
 4
 5
@@ -7,4 +5,4 @@
 7
 8
 9
-10
\\ No newline at end of file
+10
"
    );
    // Six unchanged lines between the two changes: one hunk, as `diff -u`
    // joins them.
    let p = s
        .prepare_range_edit(range_opts(text, "2~3", ""), T0)
        .unwrap();
    let r = apply(&mut s, &p.hunk_id, text);
    assert_eq!(r.content, "1\n4\n5\n6\n7\n8\n9\n10\n");
    assert_eq!(
        r.diff,
        "--- a/a.txt
+++ b/a.txt
@@ -1,10 +1,8 @@
 1
-2
-3
 4
 5
 6
 7
 8
 9
-10
\\ No newline at end of file
+10
"
    );
}

#[test]
fn a_window_that_stood_at_two_places_is_not_taken_from_the_one_left() {
    // The plan's window (context and core) stood twice in the planned-on
    // file; the planned copy was then deleted. The one left is the other
    // copy, not the plan's place: rejected, the file untouched.
    let block = "fn parse() {\n    let a = 1;\n    let x = 2;\n    run(x);\n    let c = 3;\n    done(c);\n}\n";
    let planned = format!("// one\n{block}// two\n{block}// end\n");
    let mut s = session();
    let p = s
        .prepare_range_edit(range_opts(&planned, "5", "    run(x + 1);"), T0)
        .unwrap();
    let other_copy_only = format!("// one\n// two\n{block}// end\n");
    let r = apply(&mut s, &p.hunk_id, &other_copy_only);
    assert_eq!(
        (r.context_match, r.reason, r.content.as_str()),
        (
            ContextMatch::Rejected,
            Some(RejectReason::ContentChanged),
            other_copy_only.as_str()
        )
    );
    // Lines added above, both copies kept: two places, ambiguous.
    let shifted = format!("// new\n{planned}");
    let r = apply(&mut s, &p.hunk_id, &shifted);
    assert_eq!(
        (r.context_match, r.reason),
        (ContextMatch::Rejected, Some(RejectReason::AmbiguousMatch))
    );

    // The copy re-indented (a nested twin, as in syn's parse.rs): deleting
    // the planned copy leaves only the re-indented one, which the safe
    // strategies would find. It is the other copy, so it is not taken.
    let nested: String = block.lines().map(|l| format!("    {l}\n")).collect();
    let planned = format!("{block}mod inner {{\n{nested}}}\n");
    let mut s = session();
    let p = s
        .prepare_range_edit(range_opts(&planned, "4", "    run(x + 1);"), T0)
        .unwrap();
    let nested_only = format!("mod inner {{\n{nested}}}\n");
    let r = apply(&mut s, &p.hunk_id, &nested_only);
    assert_eq!(
        (r.context_match, r.reason, r.content.as_str()),
        (
            ContextMatch::Rejected,
            Some(RejectReason::ContentChanged),
            nested_only.as_str()
        )
    );
    // The planned copy shifted as written, the twin kept: the as-written
    // window is unique and taken.
    let shifted = format!("// new\n{planned}");
    let r = apply(&mut s, &p.hunk_id, &shifted);
    assert_eq!(
        (r.context_match, r.content),
        (
            ContextMatch::Fuzz,
            shifted.replacen("    run(x);\n", "    run(x + 1);\n", 1)
        )
    );
}
