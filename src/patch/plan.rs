//! Planning a parsed patch over the files' texts: the file-level checks
//! (a file to add must not exist, one to update or delete must), the
//! hunks placed, and the atomic rule.

use super::messages;
use super::place::{at_end, place_hunks, Placement};
use super::types::{
    FileOp, FilePatch, FileResult, Hunk, HunkResult, Patch, PatchFiles, PatchOptions, PatchReport,
    PatchWarning,
};
use crate::error::{Error, ErrorCode};
use crate::matcher::MatchMode;
use crate::text::{detect_line_ending, split_bom, BOM};

pub(super) fn check_options(options: &PatchOptions) -> Result<(), Error> {
    if options.mode == MatchMode::Fuzzy {
        let lang = options.lang;
        return Err(Error::invalid_argument(
            lang,
            "mode",
            lang.pick(
                "\"exact\" or \"safe\" (hunks are never placed by similarity)",
                "\"exact\" 或 \"safe\"（补丁块从不按相似度定位）",
            ),
        ));
    }
    Ok(())
}

pub(super) fn plan(files: &impl PatchFiles, patch: &Patch, options: &PatchOptions) -> PatchReport {
    let lang = options.lang;
    let mut results: Vec<FileResult> = patch
        .files
        .iter()
        .map(|f| plan_file(files, f, options))
        .collect();
    let failed = results.iter().filter(|r| !r.ok).count();
    let ok = failed == 0;
    for r in &mut results {
        r.write = r.ok && (ok || !options.atomic);
        if !r.write {
            r.content = None;
        }
    }
    let applied = results.iter().filter(|r| r.write).count();
    let warnings: Vec<PatchWarning> = patch
        .empty_sections
        .iter()
        .map(|(line, path)| PatchWarning {
            code: "NO_HUNKS",
            path: path.clone(),
            line: *line,
            message: messages::no_hunks(lang, path, *line),
        })
        .collect();
    let mut summary = messages::summary(lang, &results, options.atomic);
    for w in &warnings {
        summary.push('\n');
        summary.push_str(&w.message);
    }
    PatchReport {
        ok,
        applied: u32::try_from(applied).unwrap_or(u32::MAX),
        failed: u32::try_from(failed).unwrap_or(u32::MAX),
        files: results,
        summary,
        warnings,
    }
}

fn file_result(f: &FilePatch) -> FileResult {
    FileResult {
        path: f.path.clone(),
        op: f.op,
        move_to: f.move_to.clone(),
        copy: f.copy,
        mode: f.mode.clone(),
        ok: false,
        write: false,
        content: None,
        changed: false,
        hunks: Vec::new(),
        error: None,
    }
}

fn plan_file(files: &impl PatchFiles, f: &FilePatch, options: &PatchOptions) -> FileResult {
    let lang = options.lang;
    let mut r = file_result(f);
    let current = files.text(&f.path);
    let refuse = |mut r: FileResult, e: Error| {
        r.error = Some(e.with_line(f.line));
        r
    };
    match (f.op, current) {
        (FileOp::Add, Some(_)) => {
            return refuse(
                r,
                Error::new(ErrorCode::FileExists, messages::add_exists(lang, &f.path)),
            )
        }
        (FileOp::Add, None) => {
            r.ok = true;
            r.changed = true;
            r.content = f.content.clone();
            return r;
        }
        (_, None) => {
            return refuse(
                r,
                Error::new(
                    ErrorCode::FileNotFound,
                    messages::missing(lang, &f.path, f.op),
                ),
            )
        }
        (FileOp::Delete, Some(text)) => {
            if !f.hunks.is_empty() && !deletes_exactly(text, f) {
                return refuse(
                    r,
                    Error::new(
                        ErrorCode::ContentMismatch,
                        messages::delete_mismatch(lang, &f.path),
                    ),
                );
            }
            r.ok = true;
            r.changed = true;
            return r;
        }
        (FileOp::Update, Some(text)) => {
            if let Some(to) = f.move_to.as_ref().filter(|to| files.text(to).is_some()) {
                return refuse(
                    r,
                    Error::new(ErrorCode::FileExists, messages::move_exists(lang, to)),
                );
            }
            update(&mut r, text, f, options);
        }
    }
    r
}

/// A unified diff's deletion names the file's lines: they must be its
/// text (line endings and trailing spaces aside), so a file is never
/// deleted on the strength of a diff written against another one.
fn deletes_exactly(text: &str, f: &FilePatch) -> bool {
    let (_, body) = split_bom(text);
    let file: Vec<&str> = body.lines().map(str::trim_end).collect();
    let old: Vec<&str> = f
        .hunks
        .iter()
        .flat_map(|h| h.old_lines.iter().map(|l| l.trim_end()))
        .collect();
    file == old
}

fn update(r: &mut FileResult, text: &str, f: &FilePatch, options: &PatchOptions) {
    let lang = options.lang;
    let (bom, body) = split_bom(text);
    let placed = place_hunks(body, &f.hunks, options.mode, options.fuzz_factor, lang);
    let mut ok = true;
    for (i, (hunk, p)) in f.hunks.iter().zip(&placed).enumerate() {
        let index = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let result = match p {
            Ok(p) => HunkResult {
                index,
                line: hunk.line,
                ok: true,
                strategy: p.strategy,
                start_line: Some(p.first),
                end_line: Some(p.last),
                error: None,
            },
            Err(e) => {
                ok = false;
                let mut e = e.clone();
                e.message = messages::hunk_failed(lang, &f.path, index, hunk.line, &e.message);
                e.details.hunk_index = Some(index);
                e.details.line = Some(hunk.line);
                if r.error.is_none() {
                    r.error = Some(e.clone());
                }
                HunkResult {
                    index,
                    line: hunk.line,
                    ok: false,
                    strategy: None,
                    start_line: None,
                    end_line: None,
                    error: Some(e),
                }
            }
        };
        r.hunks.push(result);
    }
    if !ok {
        return;
    }
    // Each hunk with its place, in the patch's order, except that a codex
    // chunk appended at the end goes last: it may come before a chunk that
    // edits above it (two appends keep their order).
    let mut pairs: Vec<(&Hunk, &Placement)> = f
        .hunks
        .iter()
        .zip(placed.iter().filter_map(|p| p.as_ref().ok()))
        .collect();
    let appended = |h: &Hunk| h.appends && h.old_lines.is_empty() && h.anchors.is_empty();
    pairs.sort_by_key(|(h, _)| appended(h));
    let placements: Vec<&Placement> = pairs.iter().map(|(_, p)| *p).collect();
    let mut out = String::with_capacity(text.len() + 64);
    if bom {
        out.push_str(BOM);
    }
    let mut at = 0usize;
    for p in &placements {
        // A removed last line takes the line break before it, which the
        // hunk before may have replaced already (its lines ended with
        // it): that hunk's text gives the break up instead.
        if p.start < at {
            drop_final_break(&mut out);
        }
        out.push_str(body.get(at..p.start).unwrap_or(""));
        out.push_str(&p.text);
        at = at.max(p.end);
    }
    out.push_str(&body[at..]);
    final_newline(&mut out, body, &pairs);
    r.ok = true;
    r.changed = out != text || f.move_to.is_some();
    r.content = Some(out);
}

/// Removes one final `\n` or `\r\n` from `out`, if it ends with one.
fn drop_final_break(out: &mut String) {
    let kept = out
        .strip_suffix('\n')
        .map(|t| t.strip_suffix('\r').unwrap_or(t).len());
    if let Some(len) = kept {
        out.truncate(len);
    }
}

/// A unified diff's `\ No newline at end of file`, on the hunk that
/// reaches the end: the new text ends exactly as the hunk's new side says.
/// With no marker on either side the file keeps its own final newline (or
/// lack of one).
fn final_newline(out: &mut String, body: &str, pairs: &[(&Hunk, &Placement)]) {
    let Some((hunk, _)) = pairs.iter().find(|(_, p)| at_end(body, p.end)) else {
        return;
    };
    // The new side says how the file ends when it differs from the old
    // side: a file that already has the final newline the hunk adds keeps
    // one (never a blank line more), one that already lacks the newline
    // the hunk removes stays as it is. When both sides say "no newline",
    // the diff does not change the ending, so the file keeps its own.
    match (
        hunk.old_without_final_newline,
        hunk.new_without_final_newline,
    ) {
        // The break the file ends with: a `\r` before a lone `\n` is the
        // last line's own character.
        (true, true) if body.ends_with('\n') => {}
        (_, true) if body.ends_with("\r\n") || !out.ends_with("\r\n") => drop_final_break(out),
        (_, true) => {
            out.pop();
        }
        (true, false) if !hunk.new_lines.is_empty() && !body.ends_with('\n') => {
            out.push_str(detect_line_ending(body).as_str());
        }
        _ => {}
    }
}
