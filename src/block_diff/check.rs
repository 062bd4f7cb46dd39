//! Content check: each edit against the block the host returned, composed
//! into drafts (one per updated block, one per insert or delete) that
//! [`super::plan`] turns into host writes. Pure: the caller fetched the
//! blocks.
//!
//! A SEARCH is located in the block's markdown in this order:
//! 1. the whole block, after normalising line endings and trimming blank
//!    lines around both (`whole_block`) — the replacement becomes the block;
//! 2. a unique exact substring (`substring`) — only that part is replaced;
//!    two or more occurrences are `AMBIGUOUS_MATCH`;
//! 3. in `safe` mode, the matcher's formatting-only strategies restricted to
//!    this block (the strategy's name is reported);
//! 4. otherwise `CONTENT_MISMATCH`, with a sequence similarity, both texts,
//!    a line diff and the next step.
//!
//! Several edits of one block compose in diff order, each checked against
//! the result of the previous ones, into one update. An update that leaves
//! the block without content becomes a (content-checked) delete.
//!
//! Conflicts (`CONFLICTING_EDITS`): a delete with any other edit of the same
//! block; two `@@REPLACE@@` of one block; an insert next to a block the diff
//! deletes; and (SPEC §3.7 rule 5) an update or delete of a container
//! together with any edit of a block inside it, or with a PREPEND/APPEND
//! into it — the container's rewrite would overwrite or re-ID the other
//! edit's block.

use crate::text::{StableMap, StableSet};

use super::messages as msg;
use super::plan::{is_empty_markdown, Draft};
use super::refuse;
use super::types::{BlockStrategy, EditAt, EditStrategy, Mismatch, Problem};
use super::{BlockEdit, EditKind, EditResult, EditStatus, MatchMode, Warning, WarningCode};
use crate::matcher::{self, MatchOptions, Refusal};
use crate::siyuan::{Block, BlockKind};
use crate::text::trim_blank_lines;
use crate::text::{unified_diff, UnifiedDiffOptions};
use crate::{Error, ErrorCode, Lang};

pub struct CheckOutcome {
    /// One per edit of the diff, in order.
    pub results: Vec<EditResult>,
    /// In diff order of each draft's first edit.
    pub drafts: Vec<Draft>,
    pub warnings: Vec<Warning>,
}

/// What the check needs besides the edits.
pub struct CheckInput<'a> {
    pub edits: &'a [BlockEdit],
    /// The host's rows by id (`None`: no such block).
    pub blocks: &'a StableMap<String, Option<Block>>,
    /// The ids inside each edited or deleted container (from its kramdown).
    pub descendants: &'a StableMap<String, StableSet<String>>,
    pub lang: Lang,
    pub mode: MatchMode,
}

pub fn check(input: &CheckInput<'_>) -> CheckOutcome {
    let lang = input.lang;
    let edits = input.edits;
    let mut results: Vec<EditResult> = edits
        .iter()
        .map(|e| EditResult {
            hunk_index: e.hunk_index,
            line: e.line,
            kind: e.kind,
            block_id: e.block_id.clone(),
            status: EditStatus::Planned,
            new_block_ids: Vec::new(),
            strategy: None,
            error: None,
        })
        .collect();
    let mut warnings = Vec::new();
    let mut drafts: Vec<Draft> = Vec::new();

    target_rules(input, &mut results);
    body_rules(input, &mut results);
    same_block_conflicts(edits, lang, &mut results);
    nested_conflicts(input, &mut results);

    let deleted_by_update = compose_updates(input, &mut results, &mut warnings, &mut drafts);
    other_drafts(input, &deleted_by_update, &mut results, &mut drafts);

    // Drafts in diff order of their first edit (an edit is in one draft).
    drafts.sort_by_key(|d| d.edits.first().copied().unwrap_or(usize::MAX));
    CheckOutcome {
        results,
        drafts,
        warnings,
    }
}

/// Updates: every update edit of a block composed, in diff order, into one
/// draft (the groups are built in one pass: diffs of thousands of hunks
/// stay linear). Returns the blocks an update empties (a delete), with
/// the hunks that empty them.
fn compose_updates(
    input: &CheckInput<'_>,
    results: &mut [EditResult],
    warnings: &mut Vec<Warning>,
    drafts: &mut Vec<Draft>,
) -> StableMap<String, Vec<u32>> {
    let edits = input.edits;
    let mut deleted_by_update: StableMap<String, Vec<u32>> = StableMap::default();
    let mut update_groups: Vec<Vec<usize>> = Vec::new();
    let mut group_of: StableMap<&str, usize> = StableMap::default();
    for (i, edit) in edits
        .iter()
        .enumerate()
        .filter(|(_, e)| e.kind == EditKind::Update)
    {
        let g = *group_of.entry(edit.block_id.as_str()).or_insert_with(|| {
            update_groups.push(Vec::new());
            update_groups.len() - 1
        });
        update_groups[g].push(i);
    }
    for group in &update_groups {
        compose_group(
            input,
            group,
            results,
            warnings,
            drafts,
            &mut deleted_by_update,
        );
    }
    deleted_by_update
}

/// One block's update edits applied in order to its markdown: the draft
/// of the result, or (nothing changed) a warning.
fn compose_group(
    input: &CheckInput<'_>,
    group: &[usize],
    results: &mut [EditResult],
    warnings: &mut Vec<Warning>,
    drafts: &mut Vec<Draft>,
    deleted_by_update: &mut StableMap<String, Vec<u32>>,
) {
    let (edits, lang) = (input.edits, input.lang);
    let edit = &edits[group[0]];
    let Some(Some(block)) = input.blocks.get(&edit.block_id) else {
        return;
    };
    let original = normalize_eol(&block.markdown);
    let mut current = original.clone();
    let mut applied: Vec<usize> = Vec::new();
    let mut strategies: Vec<&'static str> = Vec::new();
    for &j in group {
        if results[j].status == EditStatus::Failed {
            continue;
        }
        let e = &edits[j];
        let replacement = normalize_eol(trim_blank_lines(e.replacement.as_deref().unwrap_or("")));
        let outcome = match &e.search {
            None => Ok((
                replacement,
                EditStrategy::Block(BlockStrategy::ReplaceCommand),
            )),
            Some(search) => {
                let how = PairMatch {
                    mode: input.mode,
                    prose: block.kind().is_prose(),
                    lang,
                };
                apply_pair(&current, search, &replacement, how)
                    .map_err(|failure| pair_refusal(lang, e, block, &current, failure))
            }
        };
        match outcome {
            Ok((next, strategy)) => {
                current = next;
                results[j].strategy = Some(strategy);
                strategies.push(strategy.as_str());
                applied.push(j);
            }
            Err(error) => fail(&mut results[j], error),
        }
    }
    if applied.is_empty() {
        return;
    }
    let composed = Composed {
        original,
        current,
        applied,
        strategy: strategies.join("+"),
    };
    draft_of_group(
        input,
        composed,
        results,
        warnings,
        drafts,
        deleted_by_update,
    );
}

/// One block's update edits applied in order: its text before and after,
/// the edits that applied, the strategies that placed them.
struct Composed {
    original: String,
    current: String,
    applied: Vec<usize>,
    strategy: String,
}

/// The draft of one composed block: a warning when nothing changed, a
/// refusal when the new text opens a fence it never closes, a delete when
/// it leaves the block empty, else an update.
fn draft_of_group(
    input: &CheckInput<'_>,
    composed: Composed,
    results: &mut [EditResult],
    warnings: &mut Vec<Warning>,
    drafts: &mut Vec<Draft>,
    deleted_by_update: &mut StableMap<String, Vec<u32>>,
) {
    let (edits, lang) = (input.edits, input.lang);
    let Composed {
        original,
        current,
        applied,
        strategy,
    } = composed;
    let edit = &edits[applied[0]];
    let hunk_indexes: Vec<u32> = applied.iter().map(|&j| edits[j].hunk_index).collect();
    let strategy = Some(strategy);
    if current == original {
        for &j in &applied {
            results[j].status = EditStatus::Unchanged;
        }
        warnings.push(Warning {
            code: WarningCode::UnchangedBlock,
            message: msg::unchanged_block(lang, &edit.block_id),
            line: Some(edits[applied[0]].line),
            hunk_index: Some(edits[applied[0]].hunk_index),
            block_id: Some(edit.block_id.clone()),
        });
        return;
    }
    if let Some(line) = opened_fence(&original, &current) {
        let error = refuse(
            lang,
            Problem::UnclosedFence {
                at: EditAt::of(&edits[applied[applied.len() - 1]]),
                body_line: line,
            },
        );
        for &j in &applied {
            fail(&mut results[j], error.clone());
        }
        return;
    }
    let empty = is_empty_markdown(&current);
    if empty {
        deleted_by_update.insert(edit.block_id.clone(), hunk_indexes.clone());
    }
    drafts.push(Draft {
        kind: if empty {
            EditKind::Delete
        } else {
            EditKind::Update
        },
        block_id: edit.block_id.clone(),
        line: edits[applied[0]].line,
        hunk_indexes,
        old_markdown: Some(original),
        new_markdown: (!empty).then_some(current),
        strategy,
        edits: applied,
    });
}

/// Deletes and inserts: a draft each, unless failed, or an insert beside a
/// block an update empties.
fn other_drafts(
    input: &CheckInput<'_>,
    deleted_by_update: &StableMap<String, Vec<u32>>,
    results: &mut [EditResult],
    drafts: &mut Vec<Draft>,
) {
    let (edits, lang) = (input.edits, input.lang);
    for (i, edit) in edits.iter().enumerate() {
        if results[i].status == EditStatus::Failed || edit.kind == EditKind::Update {
            continue;
        }
        let Some(Some(block)) = input.blocks.get(&edit.block_id) else {
            continue;
        };
        if edit.kind == EditKind::Delete {
            drafts.push(Draft {
                kind: EditKind::Delete,
                block_id: edit.block_id.clone(),
                edits: vec![i],
                hunk_indexes: vec![edit.hunk_index],
                line: edit.line,
                old_markdown: Some(normalize_eol(&block.markdown)),
                new_markdown: None,
                strategy: None,
            });
            continue;
        }
        if let (EditKind::InsertBefore | EditKind::InsertAfter, Some(deleting)) =
            (edit.kind, deleted_by_update.get(&edit.block_id))
        {
            fail(
                &mut results[i],
                refuse(
                    lang,
                    Problem::ConflictingAnchor {
                        at: EditAt::of(edit),
                        deleting: hunk_list(deleting.iter().copied()),
                    },
                ),
            );
            continue;
        }
        let markdown = normalize_eol(trim_blank_lines(edit.replacement.as_deref().unwrap_or("")));
        drafts.push(Draft {
            kind: edit.kind,
            block_id: edit.block_id.clone(),
            edits: vec![i],
            hunk_indexes: vec![edit.hunk_index],
            line: edit.line,
            old_markdown: None,
            new_markdown: Some(markdown),
            strategy: None,
        });
    }
}

/// The 1-based line of a fence or `$$` block `new` opens and never
/// closes, unless `old` was already like that (SPEC §3.7: a body the
/// kernel would read differently from what the edit means is refused).
fn opened_fence(old: &str, new: &str) -> Option<u32> {
    let line = crate::markdown::unclosed_fence(new)?;
    if crate::markdown::unclosed_fence(old).is_some() {
        return None;
    }
    Some(u32::try_from(line + 1).unwrap_or(u32::MAX))
}

/// New text the kernel would read differently from what the edit means:
/// an IAL naming an id that is not a block id (the kernel fails on it
/// silently), and, in command bodies, a fence never closed (pairs are
/// checked once composed, when the block's whole new text is known).
fn body_rules(input: &CheckInput<'_>, results: &mut [EditResult]) {
    for (i, edit) in input.edits.iter().enumerate() {
        let Some(body) = edit.replacement.as_deref() else {
            continue;
        };
        let at = EditAt::of(edit);
        let problem = if let Some(id) = malformed_ial_id(body) {
            Problem::InvalidBodyId { at, id }
        } else if let (None, Some(line)) = (&edit.search, opened_fence("", body)) {
            Problem::UnclosedFence {
                at,
                body_line: line,
            }
        } else {
            continue;
        };
        fail_if_ok(&mut results[i], refuse(input.lang, problem));
    }
}

/// The first `id="…"` of an IAL in `text` that is not a block id.
fn malformed_ial_id(text: &str) -> Option<String> {
    let mut rest = text;
    while let Some(at) = crate::text::find_pair(rest, *b"{:") {
        let tail = &rest[at..];
        let close = tail.find(['}', '\n']).unwrap_or(tail.len());
        let attrs = crate::markdown::parse_ial(&tail[..close]);
        if let Some(id) = crate::markdown::ial_id(&attrs) {
            if !crate::siyuan::is_block_id(id) {
                return Some(id.to_string());
            }
        }
        rest = &tail[close..];
    }
    None
}

/// Unknown ids, PREPEND/APPEND into a leaf, edits of a document.
fn target_rules(input: &CheckInput<'_>, results: &mut [EditResult]) {
    let lang = input.lang;
    for (i, edit) in input.edits.iter().enumerate() {
        let Some(Some(block)) = input.blocks.get(&edit.block_id) else {
            fail(
                &mut results[i],
                refuse(
                    lang,
                    Problem::BlockNotFound {
                        at: EditAt::of(edit),
                    },
                ),
            );
            continue;
        };
        let kind = block.kind();
        match edit.kind {
            EditKind::Prepend | EditKind::Append
                if !kind.is_container() && kind != BlockKind::Heading =>
            {
                fail(
                    &mut results[i],
                    refuse(
                        lang,
                        Problem::NotAContainer {
                            at: EditAt::of(edit),
                            prepend: edit.kind == EditKind::Prepend,
                            block_type: block.type_.clone(),
                        },
                    ),
                );
            }
            EditKind::Prepend | EditKind::Append => {}
            _ if kind == BlockKind::Document => fail(
                &mut results[i],
                refuse(
                    lang,
                    Problem::DocumentTarget {
                        at: EditAt::of(edit),
                    },
                ),
            ),
            _ => {}
        }
    }
}

/// A delete with another edit of the same block; two REPLACE commands.
fn same_block_conflicts(edits: &[BlockEdit], lang: Lang, results: &mut [EditResult]) {
    let mut by_block: StableMap<&str, Vec<usize>> = StableMap::default();
    for (i, edit) in edits.iter().enumerate() {
        by_block.entry(edit.block_id.as_str()).or_default().push(i);
    }
    for indexes in by_block.values() {
        let deletes = indexes
            .iter()
            .filter(|&&i| edits[i].kind == EditKind::Delete)
            .count();
        let replaces: Vec<usize> = indexes
            .iter()
            .copied()
            .filter(|&i| edits[i].kind == EditKind::Update && edits[i].search.is_none())
            .collect();
        if deletes > 0 && indexes.len() > 1 {
            for &i in indexes {
                let others = hunk_list(
                    indexes
                        .iter()
                        .filter(|&&j| j != i)
                        .map(|&j| edits[j].hunk_index),
                );
                fail_if_ok(
                    &mut results[i],
                    refuse(
                        lang,
                        Problem::ConflictingDelete {
                            at: EditAt::of(&edits[i]),
                            others: others.clone(),
                        },
                    ),
                );
            }
        } else if replaces.len() > 1 {
            for &i in &replaces {
                let others = hunk_list(
                    replaces
                        .iter()
                        .filter(|&&j| j != i)
                        .map(|&j| edits[j].hunk_index),
                );
                fail_if_ok(
                    &mut results[i],
                    refuse(
                        lang,
                        Problem::ConflictingReplace {
                            at: EditAt::of(&edits[i]),
                            others: others.clone(),
                        },
                    ),
                );
            }
        }
    }
}

/// SPEC §3.7 rule 5: an update or delete of a container, and an edit of a
/// block inside it (or an insert into it), are refused together.
fn nested_conflicts(input: &CheckInput<'_>, results: &mut [EditResult]) {
    let edits = input.edits;
    let rewritten: Vec<(usize, &StableSet<String>)> = edits
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e.kind, EditKind::Update | EditKind::Delete))
        .filter_map(|(i, e)| input.descendants.get(&e.block_id).map(|d| (i, d)))
        .collect();
    for &(outer, inside) in &rewritten {
        let container = &edits[outer].block_id;
        for (i, edit) in edits.iter().enumerate() {
            let nested = inside.contains(&edit.block_id)
                || (edit.block_id == *container
                    && matches!(edit.kind, EditKind::Prepend | EditKind::Append));
            if !nested || i == outer {
                continue;
            }
            fail_if_ok(
                &mut results[i],
                refuse(
                    input.lang,
                    Problem::NestedEdit {
                        at: EditAt::of(edit),
                        container: container.to_string(),
                        outer: edits[outer].hunk_index,
                    },
                ),
            );
            let inner = edit.hunk_index;
            fail_if_ok(
                &mut results[outer],
                refuse(
                    input.lang,
                    Problem::NestedEditOuter {
                        at: EditAt::of(&edits[outer]),
                        inner_block: edit.block_id.clone(),
                        inner,
                    },
                ),
            );
        }
    }
}

fn fail(result: &mut EditResult, error: Error) {
    result.status = EditStatus::Failed;
    result.error = Some(error);
}

fn fail_if_ok(result: &mut EditResult, error: Error) {
    if result.status != EditStatus::Failed {
        fail(result, error);
    }
}

fn hunk_list(indexes: impl Iterator<Item = u32>) -> String {
    indexes
        .map(|i| format!("#{i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn normalize_eol(text: &str) -> String {
    if text.contains('\r') {
        text.replace("\r\n", "\n")
    } else {
        text.to_string()
    }
}

/// The refusal of an edit whose SEARCH did not land: a matcher refusal,
/// the places it occurs at, or the content-mismatch report's facts (the
/// SEARCH and the block trimmed, the diff between them).
fn pair_refusal(
    lang: Lang,
    edit: &BlockEdit,
    block: &Block,
    current: &str,
    failure: PairFailure,
) -> Error {
    let at = EditAt::of(edit);
    let kind = block.kind();
    let problem = match failure {
        PairFailure::Refused(problem) => Problem::PairRefused { at, problem },
        PairFailure::Argument(error) => Problem::PairArgument { at, error },
        PairFailure::Ambiguous(lines) => Problem::PairAmbiguous { at, lines },
        PairFailure::Mismatch(Closest { similarity, lines }) => {
            let expected = trim_blank_lines(edit.search.as_deref().unwrap_or(""));
            let block = trim_blank_lines(current);
            // The closest lines when they came closer than the whole block.
            let actual = match lines {
                Some((first, last)) => {
                    let all: Vec<&str> = block.split('\n').collect();
                    all[first as usize - 1..last as usize].join("\n")
                }
                None => block.to_string(),
            };
            let diff = unified_diff(
                &format!("{expected}\n"),
                &format!("{actual}\n"),
                UnifiedDiffOptions {
                    old_name: "SEARCH",
                    new_name: "block",
                    context: 2,
                },
            );
            let heading = kind == BlockKind::Heading && lines.is_none() && expected.contains('\n');
            Problem::ContentMismatch {
                at,
                mismatch: Mismatch {
                    similarity,
                    expected: expected.to_string(),
                    actual,
                    diff,
                    heading_section: heading,
                    lines,
                },
            }
        }
    };
    refuse(lang, problem)
}

/// Why a SEARCH did not land.
pub enum PairFailure {
    /// Found more than once; 1-based line numbers of each occurrence.
    Ambiguous(Vec<u32>),
    /// Not found; how close the block came.
    Mismatch(Closest),
    /// The matcher found the place but refused the edit for a reason of its
    /// own (already applied, a replacement it cannot re-express, …).
    Refused(matcher::Problem),
    /// The matcher could not take its arguments (text over 4 GiB).
    Argument(Error),
}

/// How a SEARCH is matched in a block.
#[derive(Clone, Copy)]
pub struct PairMatch {
    pub mode: MatchMode,
    /// The block is prose (not code, math or HTML): the matcher's prose
    /// tier runs.
    pub prose: bool,
    pub lang: Lang,
}

/// Applies one SEARCH/REPLACE pair to a block's current markdown; the
/// strategy that located it is returned with the new markdown.
pub fn apply_pair(
    current: &str,
    search: &str,
    replacement: &str,
    how: PairMatch,
) -> Result<(String, EditStrategy), PairFailure> {
    let PairMatch { mode, prose, lang } = how;
    let search = normalize_eol(trim_blank_lines(search));
    let block = trim_blank_lines(current);
    if block == search {
        return Ok((
            replacement.to_string(),
            EditStrategy::Block(BlockStrategy::WholeBlock),
        ));
    }
    let starts = occurrences(current, &search);
    match starts.len() {
        1 => {
            let start = starts[0];
            let mut next = String::with_capacity(current.len() + replacement.len());
            next.push_str(&current[..start]);
            next.push_str(replacement);
            next.push_str(&current[start + search.len()..]);
            return Ok((next, EditStrategy::Block(BlockStrategy::Substring)));
        }
        0 => {}
        _ => {
            let lines = starts.iter().map(|&s| line_of(current, s)).collect();
            return Err(PairFailure::Ambiguous(lines));
        }
    }
    let mismatch = || PairFailure::Mismatch(closest(block, &search));
    if mode == MatchMode::Exact {
        return Err(mismatch());
    }
    // The matcher's ladder, restricted to this block.
    let options = MatchOptions {
        mode,
        prose,
        lang,
        ..MatchOptions::default()
    };
    match matcher::replace_or_refusal(current, None, &search, replacement, &options) {
        Ok(r) => Ok((r.content, EditStrategy::Matcher(r.strategy))),
        Err(Refusal::Argument(error)) => Err(PairFailure::Argument(error)),
        Err(Refusal::Problem(problem)) => Err(match problem.code() {
            ErrorCode::NotFound => mismatch(),
            ErrorCode::Ambiguous => PairFailure::Ambiguous(
                problem
                    .details()
                    .candidates
                    .iter()
                    .map(|c| c.start_line)
                    .collect(),
            ),
            ErrorCode::NoChange => {
                return Ok((
                    current.to_string(),
                    EditStrategy::Block(BlockStrategy::Unchanged),
                ))
            }
            _ => PairFailure::Refused(problem),
        }),
    }
}

/// How close a block came to a SEARCH it does not hold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Closest {
    /// Sequence similarity in [0, 1], of the lines below or else of the
    /// whole block.
    pub similarity: f64,
    /// 1-based lines of the block (blank lines at its edges trimmed) that
    /// come closer than the whole block: a one-line SEARCH in a list is
    /// compared with each item, not with the list.
    pub lines: Option<(u32, u32)>,
}

/// Blocks longer than this many lines are compared whole only.
const CLOSEST_MAX_LINES: usize = 2_000;

/// The closest run of the block's lines to `search` (as many lines as the
/// search has, one fewer or one more), when it is closer than the block as
/// a whole.
fn closest(block: &str, search: &str) -> Closest {
    let whole = Closest {
        similarity: crate::text::similarity(search, block),
        lines: None,
    };
    let lines: Vec<&str> = block.split('\n').collect();
    let k = search.split('\n').count();
    if lines.len() <= k || lines.len() > CLOSEST_MAX_LINES {
        return whole;
    }
    let mut best = whole;
    for len in [k.saturating_sub(1).max(1), k, k + 1] {
        for start in 0..=lines.len().saturating_sub(len) {
            let window = lines[start..start + len].join("\n");
            let similarity = crate::text::similarity(search, &window);
            if similarity > best.similarity {
                let first = u32::try_from(start + 1).unwrap_or(u32::MAX);
                let last = u32::try_from(start + len).unwrap_or(u32::MAX);
                best = Closest {
                    similarity,
                    lines: Some((first, last)),
                };
            }
        }
    }
    best
}

/// Start offsets of every occurrence of `needle`, overlapping ones included
/// (two overlapping occurrences are two candidate places).
fn occurrences(haystack: &str, needle: &str) -> Vec<usize> {
    let mut starts = Vec::new();
    if needle.is_empty() {
        return starts;
    }
    let mut from = 0;
    while let Some(pos) = haystack[from..].find(needle) {
        let at = from + pos;
        starts.push(at);
        // Advance by one char so overlapping occurrences are counted.
        let step = haystack[at..].chars().next().map_or(1, char::len_utf8);
        from = at + step;
        if from >= haystack.len() {
            break;
        }
    }
    starts
}

fn line_of(text: &str, byte: usize) -> u32 {
    let n = text.as_bytes()[..byte.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1;
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn how(mode: MatchMode) -> PairMatch {
        PairMatch {
            mode,
            prose: false,
            lang: Lang::En,
        }
    }

    #[test]
    fn pairs_match_whole_block_then_unique_substring_then_whitespace() {
        let block = "本周主要完成了插件 **diff 编辑** 功能的重构，并修复了若干问题。";
        let (new, s) = apply_pair(block, &format!("\n{block}\n"), "x", how(MatchMode::Safe))
            .ok()
            .unwrap();
        assert_eq!((new.as_str(), s.as_str()), ("x", "whole_block"));
        let (new, s) = apply_pair(block, "本周主要完成了插件", "本周", how(MatchMode::Safe))
            .ok()
            .unwrap();
        assert_eq!(s.as_str(), "substring");
        assert_eq!(new, "本周 **diff 编辑** 功能的重构，并修复了若干问题。");
        let spaced = format!("   {block}   ");
        let (new, s) = apply_pair(block, &spaced, "新内容", how(MatchMode::Safe))
            .ok()
            .unwrap();
        assert_eq!((new.as_str(), s.as_str()), ("新内容", "trimmed_boundaries"));
        assert!(matches!(
            apply_pair(block, &spaced, "x", how(MatchMode::Exact)),
            Err(PairFailure::Mismatch(_))
        ));
    }

    #[test]
    fn repeated_search_text_is_ambiguous_with_every_line() {
        let block = "- a\n- b\n- a";
        match apply_pair(block, "- a", "- c", how(MatchMode::Safe)) {
            Err(PairFailure::Ambiguous(lines)) => assert_eq!(lines, vec![1, 3]),
            _ => panic!("expected ambiguity"),
        }
        // Overlapping occurrences are two places too.
        assert!(matches!(
            apply_pair("aaa", "aa", "b", how(MatchMode::Safe)),
            Err(PairFailure::Ambiguous(_))
        ));
    }

    #[test]
    fn mismatch_reports_a_sequence_similarity() {
        let Err(PairFailure::Mismatch(Closest {
            similarity: sim,
            lines: None,
        })) = apply_pair("abcdef", "abcxyz", "q", how(MatchMode::Safe))
        else {
            panic!()
        };
        assert!((sim - 0.5).abs() < 1e-9, "{sim}");
    }

    /// A one-line SEARCH in a list is compared with the item it nearly
    /// matches, not with the whole list (issue 36).
    #[test]
    fn a_container_mismatch_names_the_closest_lines() {
        let list = "- 第一项：准备工作\n- 第二项：配置同步方式，选择 S3 存储\n- 第三项：检查结果";
        let Err(PairFailure::Mismatch(c)) = apply_pair(
            list,
            "- 第二项：配置同步方法，选择 S3 存储",
            "x",
            how(MatchMode::Safe),
        ) else {
            panic!()
        };
        assert_eq!(c.lines, Some((2, 2)));
        assert!(c.similarity > 0.9, "{}", c.similarity);
        let whole = crate::text::similarity("- 第二项：配置同步方法，选择 S3 存储", list);
        assert!(whole + 0.25 < c.similarity, "{whole}");
    }
}
