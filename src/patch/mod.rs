//! Patches in the formats agents write, placed by the matcher's safe
//! strategies and its ambiguity rules: codex `*** Begin Patch` envelopes
//! ([`plan_patch`], grammar in `codex.rs`) and unified diffs
//! ([`plan_unified_diff`], grammar in `unified.rs`).
//!
//! Planning is pure: the caller passes the text of every file the patch
//! names ([`Patch::paths`]; a path absent from the map does not exist) and
//! gets back, file by file, the text to write or the file to delete, with
//! each hunk's place or the reason it has none. Nothing is to be written
//! unless every hunk of every file applies (unless `atomic: false`).
//!
//! How a hunk is placed (`place.rs`): its context and removed lines are
//! searched as whole lines with the matcher's exact and safe strategies
//! (formatting slips forgiven, content never). Only places after the
//! previous hunk of the file count (hunks come in file order), and after
//! its `@@` anchor lines when it has any. Exactly one place is required;
//! of several, a unified diff's `@@ -l` line breaks the tie when one place
//! is strictly nearest it; otherwise the hunk is refused with every
//! candidate. The replacement is re-expressed in the file's formatting as
//! `replaceText` does (indentation, line endings, the file's own bytes on
//! unchanged lines). A hunk with no context or removed lines is placed
//! only where the format says so unambiguously: at the end of the file
//! (codex, no anchor) or in an empty file.

mod codex;
mod fuzz;
mod git;
mod messages;
mod place;
mod plan;
mod problem;
mod types;
mod unified;

pub use types::{
    FileOp, FilePatch, FileResult, Hunk, HunkResult, Patch, PatchFiles, PatchOptions, PatchReport,
    PatchWarning,
};

use problem::Problem;

use crate::error::{Error, ErrorCode};
use crate::lang::Lang;
use crate::text::StableMap;

/// A parser's result: the patch when neither the parse nor the file
/// checks ([`check_files`]) found a problem, else every problem.
fn parsed(files: Vec<FilePatch>, mut problems: Vec<Problem>) -> Result<Patch, Vec<Problem>> {
    check_files(&files, &mut problems);
    if problems.is_empty() {
        Ok(Patch {
            files,
            empty_sections: Vec::new(),
        })
    } else {
        Err(problems)
    }
}

/// Paths present, and each file named once (a rename's target counts).
fn check_files(files: &[FilePatch], problems: &mut Vec<Problem>) {
    let mut seen: StableMap<&str, u32> = StableMap::default();
    for f in files {
        for p in std::iter::once(&f.path).chain(f.move_to.as_ref()) {
            if p.is_empty() {
                problems.push(Problem::EmptyPath { line: f.line });
            } else if let Some(&first) = seen.get(p.as_str()) {
                problems.push(Problem::SameFileTwice {
                    line: f.line,
                    first,
                    path: p.clone(),
                });
            } else {
                seen.insert(p, f.line);
            }
        }
    }
}

/// `INVALID_PATCH` wrapping one error per problem, in line order.
fn invalid(lang: Lang, format: messages::Format, mut problems: Vec<Problem>) -> Error {
    problems.sort_by_key(Problem::line);
    let errors: Vec<Error> = problems
        .iter()
        .map(|p| {
            Error::new(ErrorCode::InvalidPatch, messages::problem(lang, p)).with_line(p.line())
        })
        .collect();
    let listed: Vec<String> = errors.iter().map(|e| e.message.clone()).collect();
    Error::new(
        ErrorCode::InvalidPatch,
        messages::invalid(lang, format, &listed),
    )
    .with_line(problems.first().map_or(1, Problem::line))
    .with_suggestions(messages::format_advice(lang, format))
    .with_errors(errors)
}

/// Parses a codex `*** Begin Patch` text (`INVALID_PATCH` with every
/// format problem and its line).
pub fn parse_patch(text: &str, lang: Lang) -> Result<Patch, Error> {
    codex::parse(text).map_err(|p| invalid(lang, messages::Format::Codex, p))
}

/// Parses a unified diff (`INVALID_PATCH` with every format problem and
/// its line, including hunk counts that disagree with their bodies).
pub fn parse_unified_diff(text: &str, lang: Lang) -> Result<Patch, Error> {
    let (files, empty, problems) = unified::parse(text);
    let mut patch =
        parsed(files, problems).map_err(|p| invalid(lang, messages::Format::Unified, p))?;
    patch.empty_sections = empty;
    Ok(patch)
}

/// Plans a codex patch over the given files (path → text; a path absent
/// from the map does not exist). Errors for a malformed patch
/// (`INVALID_PATCH`) or bad options; every refusal of a file or hunk is in
/// the report.
pub fn plan_patch(
    files: &impl PatchFiles,
    text: &str,
    options: &PatchOptions,
) -> Result<PatchReport, Error> {
    plan::check_options(options)?;
    let patch = parse_patch(text, options.lang)?;
    plan_checked(files, &patch, options, messages::Format::Codex)
}

/// Plans a unified diff over the given files, as [`plan_patch`] does.
pub fn plan_unified_diff(
    files: &impl PatchFiles,
    text: &str,
    options: &PatchOptions,
) -> Result<PatchReport, Error> {
    plan::check_options(options)?;
    let patch = parse_unified_diff(text, options.lang)?;
    plan_checked(files, &patch, options, messages::Format::Unified)
}

/// Plans an already parsed patch (either format) over the given files.
pub fn plan_parsed_patch(
    files: &impl PatchFiles,
    patch: &Patch,
    options: &PatchOptions,
) -> Result<PatchReport, Error> {
    plan::check_options(options)?;
    plan_checked(files, patch, options, messages::Format::Codex)
}

/// A patch that names no file is refused: an agent that sent it believes
/// it changed something.
fn plan_checked(
    files: &impl PatchFiles,
    patch: &Patch,
    options: &PatchOptions,
    format: messages::Format,
) -> Result<PatchReport, Error> {
    if patch.files.is_empty() && patch.empty_sections.is_empty() {
        return Err(invalid(options.lang, format, vec![Problem::NoFiles]));
    }
    Ok(plan::plan(files, patch, options))
}
