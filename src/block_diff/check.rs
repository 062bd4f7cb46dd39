//! Content check: each edit against the block the host returned, composed
//! into a plan of host writes. Pure: the caller fetched the blocks.
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
//! the result of the previous ones, into one update.

use std::collections::HashMap;

use super::ial::carried_ial;
use super::messages as msg;
use super::split::split_blocks;
use super::{
    BlockEdit, EditKind, EditResult, EditStatus, HostOp, MatchMode, PlannedEdit, Warning,
    WarningCode,
};
use crate::matcher::{self, ReplaceOptions};
use crate::siyuan::{Block, BlockKind, ChildBlock};
use crate::text::{trim_blank_lines, unified_diff, UnifiedDiffOptions};
use crate::{Error, ErrorCode, Lang};

/// A planned edit and the indexes (into the diff's edits) it covers.
pub struct PlanEntry {
    pub planned: PlannedEdit,
    pub edits: Vec<usize>,
}

pub struct CheckOutcome {
    /// One per edit of the diff, in order.
    pub results: Vec<EditResult>,
    /// In diff order of each entry's first edit.
    pub plan: Vec<PlanEntry>,
    pub warnings: Vec<Warning>,
}

/// What the check needs besides the edits.
pub struct CheckInput<'a> {
    pub edits: &'a [BlockEdit],
    /// The host's rows by id (`None`: no such block).
    pub blocks: &'a HashMap<String, Option<Block>>,
    /// Child lists already fetched (headings with an APPEND need theirs).
    pub children: &'a HashMap<String, Vec<ChildBlock>>,
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
    let mut plan: Vec<PlanEntry> = Vec::new();

    // Existence and target rules.
    for (i, edit) in edits.iter().enumerate() {
        let Some(Some(block)) = input.blocks.get(&edit.block_id) else {
            fail(&mut results[i], msg::block_not_found(lang, edit));
            continue;
        };
        let kind = block.kind();
        match edit.kind {
            EditKind::Prepend | EditKind::Append
                if !kind.is_container() && kind != BlockKind::Heading =>
            {
                fail(
                    &mut results[i],
                    msg::not_a_container(lang, edit, &block.type_),
                );
            }
            EditKind::Prepend | EditKind::Append => {}
            _ if kind == BlockKind::Document => {
                fail(&mut results[i], msg::document_target(lang, edit))
            }
            _ => {}
        }
    }

    // Conflicts between edits of the same block.
    let mut by_block: HashMap<&str, Vec<usize>> = HashMap::new();
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
                    msg::conflicting_delete(lang, &edits[i], &others),
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
                    msg::conflicting_replace(lang, &edits[i], &others),
                );
            }
        }
    }

    // Updates: compose every update edit of a block, in diff order (the
    // groups are built in one pass: diffs of thousands of hunks stay linear).
    let mut deleted_by_update: HashMap<String, usize> = HashMap::new();
    let mut update_groups: Vec<Vec<usize>> = Vec::new();
    let mut group_of: HashMap<&str, usize> = HashMap::new();
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
        let edit = &edits[group[0]];
        let Some(Some(block)) = input.blocks.get(&edit.block_id) else {
            continue;
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
            let replacement =
                normalize_eol(trim_blank_lines(e.replacement.as_deref().unwrap_or("")));
            let outcome = match &e.search {
                None => Ok((replacement, "replace_command")),
                Some(search) => apply_pair(&current, search, &replacement, input.mode, lang)
                    .map_err(|failure| msg::pair_failure(lang, e, block, &current, failure)),
            };
            match outcome {
                Ok((next, strategy)) => {
                    current = next;
                    results[j].strategy = Some(strategy.to_string());
                    strategies.push(strategy);
                    applied.push(j);
                }
                Err(error) => fail(&mut results[j], error),
            }
        }
        if applied.is_empty() {
            continue;
        }
        let hunk_indexes: Vec<u32> = applied.iter().map(|&j| edits[j].hunk_index).collect();
        let strategy = Some(strategies.join("+"));
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
            continue;
        }
        if current.trim().is_empty() {
            deleted_by_update.insert(edit.block_id.clone(), plan.len());
            plan.push(PlanEntry {
                planned: PlannedEdit {
                    kind: EditKind::Delete,
                    block_id: edit.block_id.clone(),
                    hunk_indexes,
                    diff: diff_of(&original, ""),
                    old_markdown: Some(original),
                    new_markdown: None,
                    strategy,
                    carried_attributes: None,
                    children_reassigned: false,
                    operations: vec![HostOp::Delete {
                        id: edit.block_id.clone(),
                    }],
                },
                edits: applied,
            });
            continue;
        }
        let carried = if super::ial::ends_with_ial(&current) {
            None
        } else {
            carried_ial(&block.ial)
        };
        let operations = update_operations(&edit.block_id, &current, carried.as_deref());
        let children_reassigned = block.kind().is_container();
        if children_reassigned {
            warnings.push(Warning {
                code: WarningCode::ChildrenReassigned,
                message: msg::children_reassigned(lang, &edit.block_id),
                line: Some(edits[applied[0]].line),
                hunk_index: Some(edits[applied[0]].hunk_index),
                block_id: Some(edit.block_id.clone()),
            });
        }
        plan.push(PlanEntry {
            planned: PlannedEdit {
                kind: EditKind::Update,
                block_id: edit.block_id.clone(),
                hunk_indexes,
                diff: diff_of(&original, &current),
                old_markdown: Some(original),
                new_markdown: Some(current),
                strategy,
                carried_attributes: carried,
                children_reassigned,
                operations,
            },
            edits: applied,
        });
    }

    // Deletes, inserts.
    for (i, edit) in edits.iter().enumerate() {
        if results[i].status == EditStatus::Failed || edit.kind == EditKind::Update {
            continue;
        }
        let Some(Some(block)) = input.blocks.get(&edit.block_id) else {
            continue;
        };
        if edit.kind == EditKind::Delete {
            let old = normalize_eol(&block.markdown);
            plan.push(PlanEntry {
                planned: PlannedEdit {
                    kind: EditKind::Delete,
                    block_id: edit.block_id.clone(),
                    hunk_indexes: vec![edit.hunk_index],
                    diff: diff_of(&old, ""),
                    old_markdown: Some(old),
                    new_markdown: None,
                    strategy: None,
                    carried_attributes: None,
                    children_reassigned: false,
                    operations: vec![HostOp::Delete {
                        id: edit.block_id.clone(),
                    }],
                },
                edits: vec![i],
            });
            continue;
        }
        if let (EditKind::InsertBefore | EditKind::InsertAfter, Some(&entry)) =
            (edit.kind, deleted_by_update.get(&edit.block_id))
        {
            let deleting = plan[entry].planned.hunk_indexes.clone();
            fail(
                &mut results[i],
                msg::conflicting_anchor(lang, edit, &hunk_list(deleting.into_iter())),
            );
            continue;
        }
        let markdown = normalize_eol(trim_blank_lines(edit.replacement.as_deref().unwrap_or("")));
        let operations = insert_operations(edit, block, &markdown, input.children);
        plan.push(PlanEntry {
            planned: PlannedEdit {
                kind: edit.kind,
                block_id: edit.block_id.clone(),
                hunk_indexes: vec![edit.hunk_index],
                diff: diff_of("", &markdown),
                old_markdown: None,
                new_markdown: Some(markdown),
                strategy: None,
                carried_attributes: None,
                children_reassigned: false,
                operations,
            },
            edits: vec![i],
        });
    }

    // Inserts anchored on a block deleted by an empty REPLACE fail; the
    // delete's own plan entry stays (its hunk is fine on its own).
    plan.sort_unstable_by_key(|entry| entry.edits.first().copied().unwrap_or(usize::MAX)); // unique: an edit is in one entry
    CheckOutcome {
        results,
        plan,
        warnings,
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

fn diff_of(old: &str, new: &str) -> String {
    unified_diff(
        &with_final_newline(old),
        &with_final_newline(new),
        UnifiedDiffOptions {
            old_name: "before",
            new_name: "after",
            context: 3,
        },
    )
}

fn with_final_newline(text: &str) -> String {
    if text.is_empty() || text.ends_with('\n') {
        text.to_string()
    } else {
        format!("{text}\n")
    }
}

/// Why a SEARCH did not land.
pub enum PairFailure {
    /// Found more than once; 1-based line numbers of each occurrence.
    Ambiguous(Vec<u32>),
    /// Not found; similarity of SEARCH and the block in [0, 1].
    Mismatch(f64),
    /// The matcher found the place but refused the edit for a reason of its
    /// own (already applied, a replacement it cannot re-express, …).
    Refused(Error),
}

/// Applies one SEARCH/REPLACE pair to a block's current markdown; the
/// strategy that located it is returned with the new markdown.
pub fn apply_pair(
    current: &str,
    search: &str,
    replacement: &str,
    mode: MatchMode,
    lang: Lang,
) -> Result<(String, &'static str), PairFailure> {
    let search = normalize_eol(trim_blank_lines(search));
    let block = trim_blank_lines(current);
    if block == search {
        return Ok((replacement.to_string(), "whole_block"));
    }
    let starts = occurrences(current, &search);
    match starts.len() {
        1 => {
            let start = starts[0];
            let mut next = String::with_capacity(current.len() + replacement.len());
            next.push_str(&current[..start]);
            next.push_str(replacement);
            next.push_str(&current[start + search.len()..]);
            return Ok((next, "substring"));
        }
        0 => {}
        _ => {
            let lines = starts.iter().map(|&s| line_of(current, s)).collect();
            return Err(PairFailure::Ambiguous(lines));
        }
    }
    let mismatch = || PairFailure::Mismatch(crate::text::similarity(&search, block));
    if mode == MatchMode::Exact {
        return Err(mismatch());
    }
    // The matcher's ladder, restricted to this block.
    let options = ReplaceOptions {
        mode,
        lang,
        ..ReplaceOptions::default()
    };
    match matcher::replace_text(current, &search, replacement, &options) {
        Ok(r) => Ok((r.content, r.strategy.as_str())),
        Err(e) => Err(match e.code {
            ErrorCode::NotFound => mismatch(),
            ErrorCode::Ambiguous => {
                PairFailure::Ambiguous(e.details.candidates.iter().map(|c| c.start_line).collect())
            }
            ErrorCode::NoChange => return Ok((current.to_string(), "unchanged")),
            _ => PairFailure::Refused(e),
        }),
    }
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

/// `updateBlock` with the first top-level block (plus carried attributes),
/// then the other blocks inserted after it in order.
fn update_operations(id: &str, markdown: &str, carried: Option<&str>) -> Vec<HostOp> {
    let blocks = split_blocks(markdown);
    let mut ops = Vec::with_capacity(blocks.len());
    let first = blocks.first().copied().unwrap_or(markdown);
    let first = match carried {
        Some(ial) => format!("{first}\n{ial}"),
        None => first.to_string(),
    };
    ops.push(HostOp::Update {
        id: id.to_string(),
        markdown: first,
    });
    for (k, extra) in blocks.iter().enumerate().skip(1) {
        ops.push(HostOp::Insert {
            markdown: extra.to_string(),
            previous_id: (k == 1).then(|| id.to_string()),
            next_id: None,
            after_previous_insert: k > 1,
        });
    }
    ops
}

/// Writes for BEFORE / AFTER / PREPEND / APPEND, one per top-level block so
/// every new id is known. On a heading, PREPEND means right after the
/// heading and APPEND after the last block of its section.
fn insert_operations(
    edit: &BlockEdit,
    block: &Block,
    markdown: &str,
    children: &HashMap<String, Vec<ChildBlock>>,
) -> Vec<HostOp> {
    let blocks = split_blocks(markdown);
    let blocks: Vec<&str> = if blocks.is_empty() {
        vec![markdown]
    } else {
        blocks
    };
    let id = edit.block_id.clone();
    let heading = block.kind() == BlockKind::Heading;
    let into_list = block.kind() == BlockKind::List
        && matches!(edit.kind, EditKind::Prepend | EditKind::Append);
    let mut ops = Vec::with_capacity(blocks.len());
    for (k, md) in blocks.iter().enumerate() {
        let markdown = if into_list {
            as_list_item(md, &block.subtype)
        } else {
            md.to_string()
        };
        let chained = HostOp::Insert {
            markdown: markdown.clone(),
            previous_id: None,
            next_id: None,
            after_previous_insert: true,
        };
        let op = match (edit.kind, k) {
            (_, k) if k > 0 && edit.kind != EditKind::Append => chained,
            (EditKind::InsertBefore, _) => HostOp::Insert {
                markdown,
                previous_id: None,
                next_id: Some(id.clone()),
                after_previous_insert: false,
            },
            (EditKind::InsertAfter, _) => HostOp::Insert {
                markdown,
                previous_id: Some(id.clone()),
                next_id: None,
                after_previous_insert: false,
            },
            (EditKind::Prepend, _) if heading => HostOp::Insert {
                markdown,
                previous_id: Some(id.clone()),
                next_id: None,
                after_previous_insert: false,
            },
            (EditKind::Prepend, _) => HostOp::Prepend {
                parent_id: id.clone(),
                markdown,
            },
            (EditKind::Append, 0) if heading => {
                let last = children
                    .get(&id)
                    .and_then(|list| list.last())
                    .map_or(id.clone(), |c| c.id.clone());
                HostOp::Insert {
                    markdown,
                    previous_id: Some(last),
                    next_id: None,
                    after_previous_insert: false,
                }
            }
            (EditKind::Append, _) if heading => chained,
            (EditKind::Append, _) => HostOp::Append {
                parent_id: id.clone(),
                markdown,
            },
            _ => chained,
        };
        ops.push(op);
    }
    ops
}

/// A block written into a list must be a list item: the kernel would wrap
/// anything else in a new item and report the inner block's id, which the
/// undo could not remove whole. Lists stay as they are.
fn as_list_item(markdown: &str, list_subtype: &str) -> String {
    if super::split::list_marker(markdown.trim_start()).is_some() {
        return markdown.to_string();
    }
    let marker = match list_subtype {
        "o" => "1. ",
        "t" => "- [ ] ",
        _ => "- ",
    };
    let indent = " ".repeat(marker.len());
    let mut out = String::with_capacity(markdown.len() + 8);
    for (n, line) in markdown.lines().enumerate() {
        if n == 0 {
            out.push_str(marker);
        } else {
            out.push('\n');
            if !line.is_empty() {
                out.push_str(&indent);
            }
        }
        out.push_str(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_written_into_a_list_become_items_of_its_kind() {
        assert_eq!(as_list_item("新的一项", "u"), "- 新的一项");
        assert_eq!(as_list_item("step\n\nmore", "o"), "1. step\n\n   more");
        assert_eq!(as_list_item("todo", "t"), "- [ ] todo");
        assert_eq!(as_list_item("- already an item", "o"), "- already an item");
    }

    #[test]
    fn pairs_match_whole_block_then_unique_substring_then_whitespace() {
        let block = "本周主要完成了插件 **diff 编辑** 功能的重构，并修复了若干问题。";
        let (new, s) = apply_pair(
            block,
            &format!("\n{block}\n"),
            "x",
            MatchMode::Safe,
            Lang::En,
        )
        .ok()
        .unwrap();
        assert_eq!((new.as_str(), s), ("x", "whole_block"));
        let (new, s) = apply_pair(
            block,
            "本周主要完成了插件",
            "本周",
            MatchMode::Safe,
            Lang::En,
        )
        .ok()
        .unwrap();
        assert_eq!(s, "substring");
        assert_eq!(new, "本周 **diff 编辑** 功能的重构，并修复了若干问题。");
        let spaced = format!("   {block}   ");
        let (new, s) = apply_pair(block, &spaced, "新内容", MatchMode::Safe, Lang::En)
            .ok()
            .unwrap();
        assert_eq!((new.as_str(), s), ("新内容", "trimmed_boundaries"));
        assert!(matches!(
            apply_pair(block, &spaced, "x", MatchMode::Exact, Lang::En),
            Err(PairFailure::Mismatch(_))
        ));
    }

    #[test]
    fn repeated_search_text_is_ambiguous_with_every_line() {
        let block = "- a\n- b\n- a";
        match apply_pair(block, "- a", "- c", MatchMode::Safe, Lang::En) {
            Err(PairFailure::Ambiguous(lines)) => assert_eq!(lines, vec![1, 3]),
            _ => panic!("expected ambiguity"),
        }
        // Overlapping occurrences are two places too.
        assert!(matches!(
            apply_pair("aaa", "aa", "b", MatchMode::Safe, Lang::En),
            Err(PairFailure::Ambiguous(_))
        ));
    }

    #[test]
    fn mismatch_reports_a_sequence_similarity() {
        let Err(PairFailure::Mismatch(sim)) =
            apply_pair("abcdef", "abcxyz", "q", MatchMode::Safe, Lang::En)
        else {
            panic!()
        };
        assert!((sim - 0.5).abs() < 1e-9, "{sim}");
    }

    #[test]
    fn multi_block_updates_are_split_and_carry_attributes() {
        let ops = update_operations(
            "20240614083630-p12olp4",
            "第一段\n\n## 标题\n正文",
            Some("{: name=\"closing\"}"),
        );
        assert_eq!(
            ops,
            vec![
                HostOp::Update {
                    id: "20240614083630-p12olp4".into(),
                    markdown: "第一段\n{: name=\"closing\"}".into()
                },
                HostOp::Insert {
                    markdown: "## 标题".into(),
                    previous_id: Some("20240614083630-p12olp4".into()),
                    next_id: None,
                    after_previous_insert: false
                },
                HostOp::Insert {
                    markdown: "正文".into(),
                    previous_id: None,
                    next_id: None,
                    after_previous_insert: true
                },
            ]
        );
    }
}
