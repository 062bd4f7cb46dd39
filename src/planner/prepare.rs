//! Planning: from a prepare call's options and the file's content to a
//! [`Plan`] (what to store, what to report). No session state here; the
//! session assigns the id and renders the YAML.

use super::anchor::{self, find_blocks, line_candidates, Matcher};
use super::doc::{
    find_all, fnv1a64, leading_blank_count, new_text_lines, splice, trailing_blank_count, Doc,
    Spliced, CONTEXT_LINES,
};
use super::messages as msg;
use super::problem::{Problem, WhileDoing};
use super::range::{self, ResolvedRange};
use super::registry::{Base, HunkInfo, LinesEdit, PlannedEdit};
use super::render::{refuse, Ctx};
use super::types::*;
use super::yaml::{preview_block, preview_line};
use crate::error::{LineRange, Result};

/// Lines shown before/after a change in previews.
const PREVIEW_CONTEXT: usize = 2;

/// A computed plan, before it gets an id.
pub(crate) struct Plan {
    pub action: PlanAction,
    pub edit: PlannedEdit,
    pub info: HunkInfo,
    pub new_text: String,
    pub base: Base,
    pub file_digest: String,
    pub lines: LineCounts,
    pub normalized: Normalized,
    pub diff: String,
    pub range: Option<RangePlan>,
    pub append: Option<FileAppendPlan>,
    pub insert: Option<InsertPlan>,
    pub block_replace: Option<BlockReplacePlan>,
    pub style_warning: String,
}

impl Plan {
    fn new(
        action: PlanAction,
        edit: PlannedEdit,
        info: HunkInfo,
        new_text: &str,
        base: Base,
        s: &Spliced,
    ) -> Plan {
        Plan {
            action,
            edit,
            info,
            new_text: new_text.to_string(),
            file_digest: format!("fnv1a64:{:016x}", base.digest),
            base,
            lines: counts(s),
            normalized: s.normalized,
            diff: s.diff.clone(),
            range: None,
            append: None,
            insert: None,
            block_replace: None,
            style_warning: String::new(),
        }
    }
}

/// What a plan was made on: `content` (absent when `!existed`) as `doc`.
pub(crate) fn base(content: &str, existed: bool, doc: &Doc<'_>) -> Base {
    Base {
        digest: fnv1a64(content.as_bytes()),
        bytes: content.len(),
        existed,
        line_count: doc.len(),
    }
}

pub(crate) fn counts(s: &Spliced) -> LineCounts {
    LineCounts {
        old: to_u32(s.old_line_count),
        new: to_u32(s.new_line_count),
        delta: delta(s.new_line_count, s.old_line_count),
    }
}

/// Previews of lines `start..end` of `doc` (clamped).
pub(crate) fn previews(doc: &Doc<'_>, start: usize, end: usize) -> Vec<String> {
    doc.slice(start, end)
        .iter()
        .map(|l| preview_line(l))
        .collect()
}

/// The located-lines edit for a core of `core_len` lines at `core_start`.
pub(crate) fn lines_edit(
    texts: &[&str],
    core_start: usize,
    core_len: usize,
    del_offset: usize,
    del_count: usize,
) -> LinesEdit {
    let core_end = (core_start + core_len).min(texts.len());
    let before_start = core_start.saturating_sub(CONTEXT_LINES);
    let after_end = core_end.saturating_add(CONTEXT_LINES).min(texts.len());
    let core: Vec<&str> = texts[core_start.min(core_end)..core_end].to_vec();
    let window = &texts[before_start..after_end];
    let twin_as_written = find_all(texts, window).len() > 1;
    let twin_when_folded = twin_as_written || {
        let folded: Vec<String> = texts.iter().map(|t| crate::matcher::fold_key(t)).collect();
        let folded: Vec<&str> = folded.iter().map(String::as_str).collect();
        find_all(&folded, &folded[before_start..after_end]).len() > 1
    };
    LinesEdit {
        core_start,
        core: core.iter().map(|s| s.to_string()).collect(),
        before: texts[before_start..core_start.min(core_end)]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        after: texts[core_end..after_end]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        bof: core_start < CONTEXT_LINES,
        eof: core_end.saturating_add(CONTEXT_LINES) > texts.len(),
        del_offset,
        del_count,
        twin_as_written,
        twin_when_folded,
    }
}

fn require_content<'c>(ctx: &Ctx<'_>, content: Option<&'c str>) -> Result<&'c str> {
    content.ok_or_else(|| {
        refuse(
            ctx,
            Problem::FileNotFound {
                path: ctx.path.to_string(),
                doing: WhileDoing::Preparing,
            },
            |_| {},
        )
    })
}

fn require_new_text(ctx: &Ctx<'_>, new_text: &str) -> Result<()> {
    if new_text.is_empty() {
        return Err(refuse(
            ctx,
            Problem::ContentRequired {
                mode: ctx.mode.to_string(),
            },
            |_| {},
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------------
// prepareRangeEdit
// ---------------------------------------------------------------------

pub(crate) fn plan_range(ctx: &Ctx<'_>, opts: &RangeEditOptions) -> Result<Plan> {
    let lang = ctx.lang;
    let spec = range::parse(&opts.range).map_err(|p| range::range_error(p, &opts.range, lang))?;
    let content = require_content(ctx, opts.content.as_deref())?;
    let doc = Doc::new(content);
    let resolved =
        range::resolve(spec, doc.len()).map_err(|p| range::range_error(p, &opts.range, lang))?;
    let texts = doc.texts();
    match resolved {
        ResolvedRange::Append { at } => {
            require_new_text(ctx, &opts.new_text)?;
            let s = splice(&doc, doc.len(), 0, &opts.new_text, ctx.path);
            let mut plan = Plan::new(
                PlanAction::Append,
                PlannedEdit::Append { create: false },
                HunkInfo::Range,
                &opts.new_text,
                base(content, true, &doc),
                &s,
            );
            plan.range = Some(RangePlan {
                input: opts.range.clone(),
                resolved: Span { start: at, end: at },
                evidence_before: previews(
                    &doc,
                    doc.len().saturating_sub(PREVIEW_CONTEXT),
                    doc.len(),
                ),
                evidence_range: Vec::new(),
                evidence_after: Vec::new(),
            });
            Ok(plan)
        }
        ResolvedRange::Lines { start, end } => {
            let action = if opts.new_text.is_empty() {
                PlanAction::Delete
            } else {
                PlanAction::Replace
            };
            let (first, last) = ((start as usize).saturating_sub(1), end as usize);
            let (edit, s) = if doc.len() == 0 {
                (
                    PlannedEdit::EmptyFile,
                    splice(&doc, 0, 0, &opts.new_text, ctx.path),
                )
            } else {
                let count = last - first;
                (
                    PlannedEdit::Lines(lines_edit(&texts, first, count, 0, count)),
                    splice(&doc, first, count, &opts.new_text, ctx.path),
                )
            };
            let mut plan = Plan::new(
                action,
                edit,
                HunkInfo::Range,
                &opts.new_text,
                base(content, true, &doc),
                &s,
            );
            plan.range = Some(RangePlan {
                input: opts.range.clone(),
                resolved: Span { start, end },
                evidence_before: previews(&doc, first.saturating_sub(PREVIEW_CONTEXT), first),
                evidence_range: preview_block(&doc.slice(first, last)),
                evidence_after: previews(&doc, last, last + PREVIEW_CONTEXT),
            });
            Ok(plan)
        }
    }
}

// ---------------------------------------------------------------------
// prepareAppend
// ---------------------------------------------------------------------

pub(crate) fn plan_append(ctx: &Ctx<'_>, opts: &AppendOptions) -> Result<Plan> {
    require_new_text(ctx, &opts.new_text)?;
    let create = opts.create.unwrap_or(false);
    let (content, existed) = match opts.content.as_deref() {
        Some(c) => (c, true),
        None if create => ("", false),
        None => {
            return Err(refuse(
                ctx,
                Problem::FileNotFound {
                    path: ctx.path.to_string(),
                    doing: WhileDoing::Appending,
                },
                |y| {
                    y.raw("create", false);
                },
            ))
        }
    };
    let doc = Doc::new(content);
    let s = splice(&doc, doc.len(), 0, &opts.new_text, ctx.path);
    let mut plan = Plan::new(
        PlanAction::Append,
        PlannedEdit::Append { create },
        HunkInfo::Append,
        &opts.new_text,
        base(content, existed, &doc),
        &s,
    );
    let texts = doc.texts();
    let new_lines = new_text_lines(&opts.new_text);
    let style = AppendBlanklineStyle {
        file_trailing_blank_line_count: to_u32(trailing_blank_count(&texts)),
        content_leading_blank_line_count: to_u32(leading_blank_count(&new_lines)),
    };
    if style.file_trailing_blank_line_count > 0 && style.content_leading_blank_line_count > 0 {
        plan.style_warning = msg::style_warning_append(ctx.lang);
    }
    plan.append = Some(FileAppendPlan {
        create,
        file_line_count_before: to_u32(doc.len()),
        file_line_count_after: to_u32(doc.len() + s.new_line_count),
        appended_line_count: to_u32(s.new_line_count),
        blankline_style: style,
        before_tail: previews(&doc, doc.len().saturating_sub(PREVIEW_CONTEXT), doc.len()),
        append_preview: preview_block(&new_lines),
        after_tail: tail_after(&texts, &new_lines),
    });
    Ok(plan)
}

/// The last two lines once `new_lines` follow `old`.
pub(crate) fn tail_after(old: &[&str], new_lines: &[&str]) -> Vec<String> {
    let from_old = PREVIEW_CONTEXT
        .saturating_sub(new_lines.len())
        .min(old.len());
    let mut tail: Vec<String> = old[old.len() - from_old..]
        .iter()
        .map(|l| preview_line(l))
        .collect();
    tail.extend(
        new_lines[new_lines.len().saturating_sub(PREVIEW_CONTEXT)..]
            .iter()
            .map(|l| preview_line(l)),
    );
    tail
}

// ---------------------------------------------------------------------
// prepareInsertAfter / prepareInsertBefore
// ---------------------------------------------------------------------

pub(crate) fn plan_insert(ctx: &Ctx<'_>, opts: &InsertOptions, position: Position) -> Result<Plan> {
    require_new_text(ctx, &opts.new_text)?;
    let matcher = Matcher::new(&opts.anchor, opts.match_mode, "anchor", ctx.lang)?;
    let content = require_content(ctx, opts.content.as_deref())?;
    let doc = Doc::new(content);
    let texts = doc.texts();
    let candidates = matcher.find(&texts);
    let anchor_index = choose_anchor_line(ctx, opts, &candidates)?;
    let (del_start, del_offset) = match position {
        Position::After => (anchor_index + 1, 1),
        Position::Before => (anchor_index, 0),
    };
    let s = splice(&doc, del_start, 0, &opts.new_text, ctx.path);
    let edit = PlannedEdit::Lines(lines_edit(&texts, anchor_index, 1, del_offset, 0));
    let info = HunkInfo::Insert {
        position,
        anchor: opts.anchor.clone(),
    };
    let mut plan = Plan::new(
        PlanAction::Insert,
        edit,
        info,
        &opts.new_text,
        base(content, true, &doc),
        &s,
    );
    let new_lines = new_text_lines(&opts.new_text);
    let style = InsertBlanklineStyle {
        file_before_trailing_blank_line_count: to_u32(trailing_blank_count(&texts[..del_start])),
        file_after_leading_blank_line_count: to_u32(leading_blank_count(&texts[del_start..])),
        content_leading_blank_line_count: to_u32(leading_blank_count(&new_lines)),
        content_trailing_blank_line_count: to_u32(trailing_blank_count(&new_lines)),
    };
    if (style.file_before_trailing_blank_line_count > 0
        && style.content_leading_blank_line_count > 0)
        || (style.content_trailing_blank_line_count > 0
            && style.file_after_leading_blank_line_count > 0)
    {
        plan.style_warning = msg::style_warning_insert(ctx.lang);
    }
    plan.insert = Some(InsertPlan {
        position,
        anchor: opts.anchor.clone(),
        match_mode: opts.match_mode,
        candidates_count: to_u32(candidates.len()),
        occurrence_resolved: anchor::occurrence_label(opts.occurrence, candidates.len()),
        anchor_line: to_u32(anchor_index + 1),
        inserted_at_line: to_u32(del_start + 1),
        inserted_line_count: to_u32(s.new_line_count),
        blankline_style: style,
        before_preview: previews(&doc, del_start.saturating_sub(PREVIEW_CONTEXT), del_start),
        insert_preview: preview_block(&new_lines),
        after_preview: previews(&doc, del_start, del_start + PREVIEW_CONTEXT),
    });
    Ok(plan)
}

/// The anchor line (0-based) among the lines that match: the one there is,
/// or the `occurrence` chosen; refused when none matches, or several and
/// no occurrence chooses.
fn choose_anchor_line(ctx: &Ctx<'_>, opts: &InsertOptions, candidates: &[usize]) -> Result<usize> {
    let anchor_fields = |y: &mut super::yaml::Yaml| {
        y.str("anchor", &opts.anchor)
            .raw("match", opts.match_mode.as_str());
    };
    if candidates.is_empty() {
        return Err(refuse(
            ctx,
            Problem::AnchorNotFound {
                name: "anchor".into(),
                anchor: opts.anchor.clone(),
                mode: opts.match_mode,
                of_block: false,
            },
            |y| {
                anchor_fields(y);
                y.raw("candidates_count", 0);
            },
        ));
    }
    let index = match opts.occurrence {
        None if candidates.len() > 1 => {
            let mut e = refuse(
                ctx,
                Problem::AnchorAmbiguous {
                    anchor: opts.anchor.clone(),
                    count: candidates.len(),
                },
                |y| {
                    anchor_fields(y);
                    y.raw("candidates_count", candidates.len());
                    y.numbers("candidate_lines", &line_numbers(candidates));
                },
            );
            e.details.candidates = line_candidates(candidates);
            return Err(e);
        }
        None => 0,
        Some(occurrence) => anchor::pick(occurrence, candidates.len()).ok_or_else(|| {
            occurrence_out_of_range(ctx, occurrence, candidates.len(), |y| anchor_fields(y))
        })?,
    };
    Ok(candidates[index])
}

fn line_numbers(indices: &[usize]) -> Vec<usize> {
    indices
        .iter()
        .take(anchor::MAX_LISTED_CANDIDATES)
        .map(|i| i + 1)
        .collect()
}

fn occurrence_out_of_range(
    ctx: &Ctx<'_>,
    occurrence: Occurrence,
    count: usize,
    fields: impl FnOnce(&mut super::yaml::Yaml),
) -> crate::Error {
    refuse(
        ctx,
        Problem::OccurrenceOutOfRange {
            occurrence: anchor::occurrence_text(occurrence),
            count,
        },
        |y| {
            fields(y);
            y.str("occurrence", &anchor::occurrence_text(occurrence))
                .raw("candidates_count", count);
        },
    )
}

// ---------------------------------------------------------------------
// prepareBlockReplace
// ---------------------------------------------------------------------

pub(crate) fn plan_block_replace(ctx: &Ctx<'_>, opts: &BlockReplaceOptions) -> Result<Plan> {
    let lang = ctx.lang;
    require_new_text(ctx, &opts.new_text)?;
    let start = Matcher::new(&opts.start_anchor, opts.match_mode, "startAnchor", lang)?;
    let end = Matcher::new(&opts.end_anchor, opts.match_mode, "endAnchor", lang)?;
    let include_anchors = opts.include_anchors.unwrap_or(true);
    let content = require_content(ctx, opts.content.as_deref())?;
    let doc = Doc::new(content);
    let texts = doc.texts();
    let found = find_blocks(&texts, &start, &end);
    let block = choose_block(ctx, opts, &found)?;
    let core_len = block.end - block.start + 1;
    let (del_start, del_offset, del_count) = if include_anchors {
        (block.start + 1, 1, core_len - 2)
    } else {
        (block.start, 0, core_len)
    };
    let s = splice(&doc, del_start, del_count, &opts.new_text, ctx.path);
    let edit = PlannedEdit::Lines(lines_edit(
        &texts,
        block.start,
        core_len,
        del_offset,
        del_count,
    ));
    let mut plan = Plan::new(
        PlanAction::BlockReplace,
        edit,
        HunkInfo::Block,
        &opts.new_text,
        base(content, true, &doc),
        &s,
    );
    let new_lines = new_text_lines(&opts.new_text);
    plan.block_replace = Some(BlockReplacePlan {
        start_anchor: opts.start_anchor.clone(),
        end_anchor: opts.end_anchor.clone(),
        match_mode: opts.match_mode,
        include_anchors,
        require_unique: opts.require_unique.unwrap_or(true),
        strict: opts.strict.unwrap_or(true),
        candidates_count: to_u32(found.blocks.len()),
        occurrence_resolved: anchor::occurrence_label(opts.occurrence, found.blocks.len()),
        block_range: Span {
            start: to_u32(block.start + 1),
            end: to_u32(block.end + 1),
        },
        replace_slice: ReplaceSlice {
            start_line: to_u32(del_start + 1),
            delete_count: to_u32(del_count),
        },
        before_preview: previews(&doc, del_start.saturating_sub(PREVIEW_CONTEXT), del_start),
        old_preview: preview_block(&doc.slice(del_start, del_start + del_count)),
        new_preview: preview_block(&new_lines),
        after_preview: previews(
            &doc,
            del_start + del_count,
            del_start + del_count + PREVIEW_CONTEXT,
        ),
    });
    Ok(plan)
}

/// The block the anchors delimit: the one there is, or the `occurrence`
/// chosen; refused when there is none, several without an occurrence
/// (`requireUnique` and `strict`), or it holds another start anchor.
fn choose_block(
    ctx: &Ctx<'_>,
    opts: &BlockReplaceOptions,
    found: &anchor::Blocks,
) -> Result<anchor::Block> {
    let anchor_fields = |y: &mut super::yaml::Yaml| {
        y.str("start_anchor", &opts.start_anchor)
            .str("end_anchor", &opts.end_anchor)
            .raw("match", opts.match_mode.as_str());
    };
    let blocks = &found.blocks;
    if blocks.is_empty() {
        let (name, anchor) = if found.start_found {
            ("endAnchor", &opts.end_anchor)
        } else {
            ("startAnchor", &opts.start_anchor)
        };
        return Err(refuse(
            ctx,
            Problem::AnchorNotFound {
                name: name.into(),
                anchor: anchor.clone(),
                mode: opts.match_mode,
                of_block: true,
            },
            |y| {
                anchor_fields(y);
                y.raw("candidates_count", 0);
            },
        ));
    }
    let require_unique = opts.require_unique.unwrap_or(true);
    let strict = opts.strict.unwrap_or(true);
    let index = match opts.occurrence {
        None if blocks.len() > 1 && require_unique && strict => {
            let ranges: Vec<LineRange> = blocks
                .iter()
                .take(anchor::MAX_LISTED_CANDIDATES)
                .map(|b| LineRange::new(to_u32(b.start + 1), to_u32(b.end + 1)))
                .collect();
            let labels: Vec<String> = ranges
                .iter()
                .map(|r| format!("{}~{}", r.start_line, r.end_line))
                .collect();
            let mut e = refuse(
                ctx,
                Problem::BlocksAmbiguous {
                    count: blocks.len(),
                },
                |y| {
                    anchor_fields(y);
                    y.raw("candidates_count", blocks.len());
                    y.list("candidate_blocks", &labels);
                },
            );
            e.details.candidates = ranges;
            return Err(e);
        }
        None => 0,
        Some(occurrence) => anchor::pick(occurrence, blocks.len()).ok_or_else(|| {
            occurrence_out_of_range(ctx, occurrence, blocks.len(), |y| anchor_fields(y))
        })?,
    };
    let block = blocks[index];
    match block.nested {
        None => Ok(block),
        Some(nested) => Err(nested_anchors(ctx, block, nested, anchor_fields)),
    }
}

/// `NESTED_ANCHORS`: the chosen block holds another start anchor at line
/// `nested` (0-based).
fn nested_anchors(
    ctx: &Ctx<'_>,
    block: anchor::Block,
    nested: usize,
    anchor_fields: impl Fn(&mut super::yaml::Yaml),
) -> crate::Error {
    let mut e = refuse(
        ctx,
        Problem::NestedAnchors {
            start: block.start + 1,
            end: block.end + 1,
            nested: nested + 1,
        },
        |y| {
            anchor_fields(y);
            y.open("block_range")
                .raw("start_line", block.start + 1)
                .raw("end_line", block.end + 1)
                .close();
            y.raw("nested_start_line", nested + 1);
        },
    );
    e.details.line = Some(to_u32(nested + 1));
    e.details.candidates = vec![LineRange::new(
        to_u32(block.start + 1),
        to_u32(block.end + 1),
    )];
    e
}
