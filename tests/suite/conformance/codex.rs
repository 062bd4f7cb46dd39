//! codex `apply_patch` cases (the Rust crate and Roo-Code's TypeScript
//! port) mapped onto editkit's patch planner: whole patches applied to a
//! file, structured chunks applied, the parser's output compared hunk by
//! hunk, and `seek_sequence` probed through a one-hunk patch.

use std::collections::BTreeMap;

use editkit::{
    parse_patch, plan_parsed_patch, plan_patch, ErrorCode, FileOp, FilePatch, Hunk, Lang, Patch,
    PatchOptions,
};
use serde_json::Value;

use super::{observed_or_expected, rule, s, Class};

/// What codex did: the file's new text, or a refusal.
enum Peer {
    Text(String),
    Refused,
}

fn peer_of(case: &Value) -> Peer {
    if case.get("expected_error").is_some() {
        return Peer::Refused;
    }
    match observed_or_expected(case) {
        Some(Value::String(t)) => Peer::Text(t.clone()),
        _ => Peer::Refused,
    }
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// The text editkit writes for the one file the patch changes, or its
/// refusal code.
fn ours_of(report: Result<editkit::PatchReport, editkit::Error>) -> Result<String, ErrorCode> {
    let r = report.map_err(|e| e.code)?;
    if !r.ok {
        let code = r
            .files
            .iter()
            .find_map(|f| f.error.as_ref().map(|e| e.code))
            .unwrap_or(ErrorCode::NotFound);
        return Err(code);
    }
    r.files
        .iter()
        .find_map(|f| f.content.clone())
        .ok_or(ErrorCode::NoChange)
}

fn compare(content: &str, peer: &Peer, ours: &Result<String, ErrorCode>) -> Class {
    match (peer, ours) {
        (Peer::Text(p), Ok(o)) if p == o => Class::Agree,
        (Peer::Text(p), Ok(o)) => Class::Differ(format!("peer wrote {p:?}, editkit wrote {o:?}")),
        (Peer::Refused, Err(_)) => Class::Agree,
        (Peer::Refused, Ok(o)) => Class::Differ(format!("peer refused, editkit wrote {o:?}")),
        (Peer::Text(p), Err(_)) if p == content => Class::Agree,
        (Peer::Text(_), Err(code)) => Class::SafeRefusal(rule(*code)),
    }
}

/// The files a patch names, all holding `content` (the case's one file),
/// except the targets of `*** Add File` and `*** Move to`, which do not
/// exist unless `add_exists`.
fn files_for(patch: &Patch, content: &str, add_exists: bool) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    for f in &patch.files {
        if f.op != FileOp::Add || add_exists {
            files.insert(f.path.clone(), content.to_string());
        }
    }
    files
}

fn apply(case: &Value) -> Class {
    let id = s(case, "id").unwrap_or("");
    let patch_text = s(case, "patch").unwrap_or("");
    let content = s(case, "content");
    let parsed = parse_patch(patch_text, Lang::En);
    let peer = peer_of(case);
    // A patch the parser refuses: both must refuse.
    let Ok(patch) = parsed else {
        return match peer {
            Peer::Refused => Class::Agree,
            Peer::Text(_) => Class::Differ("editkit could not parse a patch codex applied".into()),
        };
    };
    // codex-097: the Add File landed on disk before the Update failed.
    if id == "codex-097" {
        let files = BTreeMap::new();
        let r = plan_patch(&files, patch_text, &PatchOptions::default()).expect("parses");
        return if !r.ok && r.applied == 0 {
            Class::SafeRefusal(ATOMIC)
        } else {
            Class::Differ("editkit wrote part of a failed patch".into())
        };
    }
    let Some(content) = content else {
        // No file: the patch only adds files, or names a missing one.
        let files = BTreeMap::new();
        let ours = ours_of(plan_patch(&files, patch_text, &PatchOptions::default()));
        let peer = match observed_or_expected(case) {
            Some(Value::Object(o)) if case.get("expected_error").is_none() => {
                Peer::Text(o.values().filter_map(Value::as_str).collect())
            }
            _ => peer,
        };
        return compare("", &peer, &ours);
    };
    let add_exists = patch.files.iter().all(|f| f.op == FileOp::Add);
    let files = files_for(&patch, content, add_exists);
    let ours = ours_of(plan_patch(&files, patch_text, &PatchOptions::default()));
    compare(content, &peer, &ours)
}

/// A chunk of Roo's TypeScript port, as editkit's hunk.
fn chunk_hunk(c: &Value) -> Hunk {
    Hunk {
        line: 1,
        anchors: c["changeContext"]
            .as_str()
            .map(|a| vec![a.to_string()])
            .unwrap_or_default(),
        old_lines: strings(&c["oldLines"]),
        new_lines: strings(&c["newLines"]),
        at_end: c["isEndOfFile"].as_bool().unwrap_or(false),
        appends: true,
        line_hint: None,
        context_free: false,
        old_without_final_newline: false,
        new_without_final_newline: false,
        kinds: Vec::new(),
    }
}

fn update_of(hunks: Vec<Hunk>) -> Patch {
    Patch {
        files: vec![FilePatch {
            path: "f".into(),
            op: FileOp::Update,
            move_to: None,
            content: None,
            copy: false,
            mode: None,
            hunks,
            line: 1,
        }],
        empty_sections: Vec::new(),
    }
}

fn chunks(case: &Value) -> Class {
    let content = s(case, "content").unwrap_or("");
    let hunks: Vec<Hunk> = case["chunks"]
        .as_array()
        .map(|a| a.iter().map(chunk_hunk).collect())
        .unwrap_or_default();
    let files = BTreeMap::from([("f".to_string(), content.to_string())]);
    let ours = ours_of(plan_parsed_patch(
        &files,
        &update_of(hunks),
        &PatchOptions::default(),
    ));
    compare(content, &peer_of(case), &ours)
}

/// `seek_sequence(lines, pattern, start, eof)`, probed with a hunk whose
/// context is the pattern and which adds a marker line after it: where
/// the marker lands is where editkit placed the pattern.
fn seek(case: &Value) -> Class {
    const PROBE: &str = "\u{1}editkit-probe";
    let lines = strings(&case["lines"]);
    let pattern = strings(&case["pattern"]);
    let config = case.get("config");
    let start = case
        .get("start")
        .or_else(|| config.and_then(|c| c.get("start")))
        .and_then(Value::as_u64)
        .unwrap_or(0) as usize;
    let eof = case
        .get("eof")
        .or_else(|| config.and_then(|c| c.get("eof")))
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let peer = observed_or_expected(case).and_then(Value::as_u64);
    let rest: Vec<String> = lines.iter().skip(start).cloned().collect();
    let ours: Result<u64, ErrorCode> = if pattern.is_empty() {
        // A hunk with no old lines goes to the end of the file.
        Ok(lines.len() as u64)
    } else {
        let content = rest.iter().map(|l| format!("{l}\n")).collect::<String>();
        let mut new_lines = pattern.clone();
        new_lines.push(PROBE.to_string());
        let hunk = Hunk {
            at_end: eof,
            new_lines,
            ..chunk_hunk(&serde_json::json!({ "oldLines": pattern }))
        };
        let files = BTreeMap::from([("f".to_string(), content)]);
        ours_of(plan_parsed_patch(
            &files,
            &update_of(vec![hunk]),
            &PatchOptions::default(),
        ))
        .map(|text| {
            let at = text.lines().position(|l| l == PROBE).unwrap_or(0);
            (start + at - pattern.len()) as u64
        })
    };
    match (peer, ours) {
        (None, Err(_)) => Class::Agree,
        (None, Ok(at)) => Class::Differ(format!("peer found nothing, editkit placed it at {at}")),
        (Some(p), Ok(o)) if p == o => Class::Agree,
        (Some(p), Ok(o)) => Class::Differ(format!("peer index {p}, editkit index {o}")),
        (Some(_), Err(code)) => Class::SafeRefusal(rule(code)),
    }
}

/// A parsed file operation in one comparable form:
/// `(type, path, move, contents, [(anchors, old, new, eof)])`.
type Op = (
    String,
    String,
    Option<String>,
    Option<String>,
    Vec<(Vec<String>, Vec<String>, Vec<String>, bool)>,
);

fn trimmed(v: Vec<String>) -> Vec<String> {
    v.into_iter().map(|s| s.trim().to_string()).collect()
}

fn ours_ops(p: &Patch) -> Vec<Op> {
    p.files
        .iter()
        .map(|f| {
            let kind = match f.op {
                FileOp::Add => "AddFile",
                FileOp::Delete => "DeleteFile",
                FileOp::Update => "UpdateFile",
            };
            (
                kind.to_string(),
                f.path.clone(),
                f.move_to.clone(),
                f.content.clone(),
                f.hunks
                    .iter()
                    .map(|h| {
                        (
                            trimmed(h.anchors.clone()),
                            h.old_lines.clone(),
                            h.new_lines.clone(),
                            h.at_end,
                        )
                    })
                    .collect(),
            )
        })
        .collect()
}

/// One chunk in either the Rust (`change_context`, `context_lines`) or the
/// TypeScript (`changeContext`) shape.
fn peer_chunk(c: &Value) -> (Vec<String>, Vec<String>, Vec<String>, bool) {
    let anchors = match c.get("context_lines") {
        Some(v) => strings(v),
        None => c
            .get("change_context")
            .or_else(|| c.get("changeContext"))
            .and_then(Value::as_str)
            .map(|a| vec![a.to_string()])
            .unwrap_or_default(),
    };
    let field = |snake: &str, camel: &str| c.get(snake).or_else(|| c.get(camel)).cloned();
    (
        trimmed(anchors),
        strings(&field("old_lines", "oldLines").unwrap_or_default()),
        strings(&field("new_lines", "newLines").unwrap_or_default()),
        field("is_end_of_file", "isEndOfFile")
            .and_then(|v| v.as_bool())
            .unwrap_or(false),
    )
}

/// One hunk of the peer's parse (`{"AddFile": {...}}` or `{"type": "AddFile", ...}`).
fn peer_op(h: &Value) -> Option<Op> {
    let (kind, body) = match s(h, "type") {
        Some(t) => (t.to_string(), h),
        None => {
            let (k, v) = h.as_object()?.iter().next()?;
            (k.clone(), v)
        }
    };
    let move_to = body
        .get("move_path")
        .or_else(|| body.get("movePath"))
        .and_then(Value::as_str)
        .map(str::to_string);
    let chunks = body
        .get("chunks")
        .and_then(Value::as_array)
        .map(|a| a.iter().map(peer_chunk).collect())
        .unwrap_or_default();
    Some((
        kind,
        s(body, "path")?.to_string(),
        move_to,
        s(body, "contents").map(str::to_string),
        chunks,
    ))
}

fn parse(case: &Value) -> Class {
    let patch = s(case, "patch").unwrap_or("");
    let ours = parse_patch(patch, Lang::En);
    let peer_hunks = case
        .get("expected_result")
        .and_then(|r| r.get("hunks"))
        .or_else(|| case.get("observed").and_then(|o| o.get("hunks")));
    match (peer_hunks, ours) {
        (None, Err(_)) => Class::Agree,
        (None, Ok(_)) => Class::Differ("peer refused the patch, editkit parsed it".into()),
        (Some(_), Err(e)) => Class::Differ(format!(
            "editkit refused a patch codex parses: {}",
            e.message
        )),
        (Some(h), Ok(p)) => {
            let peer: Option<Vec<Op>> = h
                .as_array()
                .map(|a| a.iter().map(peer_op).collect::<Option<Vec<Op>>>())
                .unwrap_or(Some(Vec::new()));
            if peer.as_ref() == Some(&ours_ops(&p)) {
                Class::Agree
            } else {
                Class::Differ(format!("peer parsed {peer:?}, editkit {:?}", ours_ops(&p)))
            }
        }
    }
}

/// `parse_chunk(lines, allow_missing_context, line)`: the chunk as the
/// second hunk of an update (so it needs its `@@`), or its first when the
/// `@@` may be missing.
fn parse_chunk(case: &Value) -> Class {
    let mut lines = strings(&case["chunk_lines"]);
    if lines.last().map(String::as_str) == Some("*** End Patch") {
        lines.pop();
    }
    let first = !case["allow_missing_context"].as_bool().unwrap_or(false);
    let lead = if first { "@@\n x\n" } else { "" };
    let patch = format!(
        "*** Begin Patch\n*** Update File: f\n{lead}{}\n*** End Patch",
        lines.join("\n")
    );
    let ours = parse_patch(&patch, Lang::En);
    let peer = case.get("expected_result");
    match (peer, ours) {
        (None, Err(_)) => Class::Agree,
        (None, Ok(_)) => Class::Differ("peer refused the chunk, editkit parsed it".into()),
        (Some(_), Err(e)) => Class::Differ(format!(
            "editkit refused a chunk codex parses: {}",
            e.message
        )),
        (Some(r), Ok(p)) => {
            let ours = ours_ops(&p);
            let hunk = ours[0].4.last().cloned();
            if hunk == Some(peer_chunk(r)) {
                Class::Agree
            } else {
                Class::Differ(format!("peer parsed {:?}, editkit {hunk:?}", peer_chunk(r)))
            }
        }
    }
}

const ATOMIC: &str =
    "patches are atomic across files: nothing is written unless every file applies";

pub(super) fn codex(case: &Value) -> Class {
    match s(case, "operation").unwrap_or("") {
        "seekSequence" | "seek_sequence" => seek(case),
        "applyChunksToContent" => chunks(case),
        "parsePatch" | "parse" => parse(case),
        "parse_chunk" => parse_chunk(case),
        "apply" | "apply_cli" | "parsePatch + applyChunksToContent" => apply(case),
        _ => Class::NotApplicable("unknown codex operation"),
    }
}
