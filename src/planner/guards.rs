//! Guards for the two raw writes that bypass prepare → apply:
//! [`check_overwrite`] (replace a whole existing file) and
//! [`check_new_file`] (create one). Pure functions: the host reads, asks,
//! then writes the `content` they return.
//!
//! # What counts as "patch-looking"
//!
//! Only strong, line-anchored features, so ordinary Markdown (`---` front
//! matter, `- item` lists, `+1` lines, `@@` inside prose) never trips it:
//!
//! | kind | feature (a whole line, trailing whitespace ignored) |
//! |---|---|
//! | `unified_diff` | `diff --git …`; a `--- x` line directly followed by `+++ y`; a hunk header `@@ -a[,b] +c[,d] @@…` |
//! | `apply_patch` | `*** Begin Patch` |
//! | `search_replace` | `<<<<<<< SEARCH` (5–9 `<`, optional space) later followed by a `=======` line and a `>>>>>>> REPLACE` line |
//! | `block_diff` | editkit's SiYuan header `@@<22-char block id>@@` or `@@CMD:<id>@@` (optionally followed by a type label) |
//!
//! A SiYuan header is never taken for a unified hunk header: it has no
//! `-a +c` line numbers. `contentFormat` decides what is allowed:
//! `diff`, `patch`, `unified-diff`, `udiff` allow every kind (literal diff
//! text is intended); `block-diff`, `siyuan-block-diff`, `siyuan`,
//! `search-replace` allow `search_replace` and `block_diff` (editkit's own
//! edit formats, e.g. a saved block diff) but still refuse unified diffs
//! and apply-patch text; any other value (`markdown`, `yaml`, …) or none
//! refuses every kind (`SUSPICIOUS_DIFF`).

use super::doc::{normalize_new_text, Doc};
use super::messages as msg;
pub(crate) use super::problem::PatchKind;
use super::problem::{Expected, Problem};
use super::render::{ensure_yaml, plain, refuse, Ctx};
use super::types::*;
use super::yaml::{agent_text, Yaml};
use crate::error::Result;
use crate::siyuan::is_block_id;
use crate::text::{detect_line_ending, lines_with_endings, LineEnding, BOM};

/// Every patch kind `text` shows, in [`PatchKind`] order. Linear.
pub fn detect_patch_kinds(text: &str) -> Vec<PatchKind> {
    let (mut unified, mut apply_patch, mut block) = (false, false, false);
    let (mut search, mut divider, mut replace) = (false, false, false);
    let mut previous_old_header = false;
    for line in lines_with_endings(text) {
        let l = line.text.trim_end();
        if l.starts_with("diff --git ")
            || is_hunk_header(l)
            || (previous_old_header && is_file_header(l, "+++ "))
        {
            unified = true;
        }
        previous_old_header = is_file_header(l, "--- ");
        if l == "*** Begin Patch" {
            apply_patch = true;
        }
        if is_block_diff_header(l) {
            block = true;
        }
        if is_marker(l, '<', "SEARCH") {
            search = true;
        } else if search && !divider && l == "=======" {
            divider = true;
        } else if divider && is_marker(l, '>', "REPLACE") {
            replace = true;
        }
    }
    let mut kinds = Vec::new();
    for (found, kind) in [
        (unified, PatchKind::UnifiedDiff),
        (apply_patch, PatchKind::ApplyPatch),
        (replace, PatchKind::SearchReplace),
        (block, PatchKind::BlockDiff),
    ] {
        if found {
            kinds.push(kind);
        }
    }
    kinds
}

fn is_file_header(line: &str, prefix: &str) -> bool {
    line.strip_prefix(prefix)
        .is_some_and(|rest| rest.chars().next().is_some_and(|c| !c.is_whitespace()))
}

/// `@@ -a[,b] +c[,d] @@` (anything may follow).
fn is_hunk_header(line: &str) -> bool {
    let range = |s: &str, sign: char| -> bool {
        let Some(s) = s.strip_prefix(sign) else {
            return false;
        };
        let (a, b) = s.split_once(',').unwrap_or((s, "0"));
        !a.is_empty()
            && a.bytes().all(|c| c.is_ascii_digit())
            && !b.is_empty()
            && b.bytes().all(|c| c.is_ascii_digit())
    };
    let Some(rest) = line.strip_prefix("@@ ") else {
        return false;
    };
    let Some((ranges, _)) = rest.split_once(" @@") else {
        return false;
    };
    let mut parts = ranges.split(' ');
    matches!((parts.next(), parts.next(), parts.next()), (Some(old), Some(new), None) if range(old, '-') && range(new, '+'))
}

/// `@@<id>@@` or `@@CMD:<id>@@`, optionally followed by a type label.
fn is_block_diff_header(line: &str) -> bool {
    let Some(rest) = line.strip_prefix("@@") else {
        return false;
    };
    let Some((inner, _label)) = rest.split_once("@@") else {
        return false;
    };
    let id = match inner.split_once(':') {
        Some((cmd, id)) if !cmd.is_empty() && cmd.bytes().all(|b| b.is_ascii_uppercase()) => id,
        Some(_) => return false,
        None => inner,
    };
    is_block_id(id)
}

/// `<<<<<<< SEARCH` / `>>>>>>> REPLACE` with 5–9 marker chars, with or
/// without the space.
fn is_marker(line: &str, c: char, word: &str) -> bool {
    let count = line.chars().take_while(|&x| x == c).count();
    (5..=9).contains(&count) && line[count..].trim_start_matches(' ') == word
}

/// The kinds `content_format` allows (see the module docs).
fn allowed(content_format: Option<&str>, kind: PatchKind) -> bool {
    let format = content_format.map(|f| f.trim().to_ascii_lowercase().replace('_', "-"));
    match format.as_deref() {
        Some("diff" | "patch" | "unified-diff" | "udiff") => true,
        Some("block-diff" | "siyuan-block-diff" | "siyuan" | "search-replace") => {
            kind.is_editkit_format()
        }
        _ => false,
    }
}

/// Lines as `formatFileView` counts them.
fn total_lines(text: &str) -> usize {
    lines_with_endings(crate::text::split_bom(text).1).count()
}

/// Refuses an overwrite whose snapshot (`knownOldTotalLines/Bytes`) does
/// not match `content`, or whose new content looks like a patch (module
/// docs); otherwise returns what to write: the new content with a final
/// line ending, its line endings converted to the file's style (when the
/// file has one and the new content is uniformly the other), and the
/// file's BOM kept.
pub fn check_overwrite(options: OverwriteOptions) -> Result<OverwriteCheck> {
    let mode = "overwrite_entire_file";
    let lang = options.lang;
    let ctx = Ctx {
        mode,
        path: &options.path,
        lang,
    };
    check_overwrite_inner(&ctx, &options).map_err(|e| ensure_yaml(e, &ctx))
}

fn check_overwrite_inner(ctx: &Ctx<'_>, o: &OverwriteOptions) -> Result<OverwriteCheck> {
    let lang = ctx.lang;
    let (Some(known_lines), Some(known_bytes)) = (o.known_old_total_lines, o.known_old_total_bytes)
    else {
        let name = if o.known_old_total_lines.is_none() {
            "knownOldTotalLines"
        } else {
            "knownOldTotalBytes"
        };
        return Err(plain(
            lang,
            &Problem::InvalidArgument {
                name,
                expected: Expected::Snapshot,
            },
        ));
    };
    let old_lines = total_lines(&o.content);
    let old_bytes = o.content.len();
    if known_lines != old_lines as u64 || known_bytes != old_bytes as u64 {
        return Err(refuse(ctx, Problem::SnapshotMismatch, |y| {
            y.raw("known_old_total_lines", known_lines)
                .raw("known_old_total_bytes", known_bytes)
                .raw("actual_old_total_lines", old_lines)
                .raw("actual_old_total_bytes", old_bytes);
        }));
    }
    let format = o.content_format.as_deref();
    let refused: Vec<PatchKind> = detect_patch_kinds(&o.new_content)
        .into_iter()
        .filter(|k| !allowed(format, *k))
        .collect();
    if let Some(first) = refused.first() {
        let kinds: Vec<&str> = refused.iter().map(|k| k.as_str()).collect();
        return Err(refuse(ctx, Problem::SuspiciousDiff { kind: *first }, |y| {
            y.str("content_format", format.unwrap_or(""))
                .list("detected", &kinds);
        }));
    }

    let Rewritten {
        content,
        added,
        convert,
        bom_kept,
    } = rewritten(&o.content, &o.new_content);
    let new_lines = total_lines(&content);
    let summary = msg::overwrite_summary(lang, &o.path, new_lines, content.len());
    let mut y = Yaml::new();
    y.raw("status", "ok")
        .raw("mode", ctx.mode)
        .str("path", &o.path);
    y.raw("known_old_total_lines", known_lines)
        .raw("known_old_total_bytes", known_bytes);
    y.raw("new_total_lines", new_lines)
        .raw("new_total_bytes", content.len());
    y.raw("normalized_trailing_newline_added", added)
        .raw("line_endings_converted", convert)
        .raw("bom_kept", bom_kept);
    y.str("content_format", format.unwrap_or(""))
        .str("summary", &summary);
    let yaml = y.finish();
    Ok(OverwriteCheck {
        path: o.path.clone(),
        old_total_lines: to_u32(old_lines),
        old_total_bytes: to_u32(old_bytes),
        new_total_lines: to_u32(new_lines),
        new_total_bytes: to_u32(content.len()),
        normalized_trailing_newline_added: added,
        line_endings_converted: convert,
        bom_kept,
        content_format: format.unwrap_or("").to_string(),
        summary,
        text: agent_text(&yaml, ""),
        yaml,
        content,
    })
}

/// The new content as it is written over `old`: in the old file's line
/// ending where the new text uses one ending throughout, ending with a
/// newline, with the old file's BOM.
struct Rewritten {
    content: String,
    /// A final newline was added.
    added: bool,
    /// The line endings were converted to the old file's.
    convert: bool,
    /// The old file's BOM was kept (the new text had none).
    bom_kept: bool,
}

fn rewritten(old_content: &str, new_content: &str) -> Rewritten {
    let old = Doc::new(old_content);
    let (new_bom, new_body) = crate::text::split_bom(new_content);
    let own = new_body
        .contains('\n')
        .then(|| detect_line_ending(new_body));
    let target = old.ending().or(own).unwrap_or(LineEnding::Lf);
    let uniform = uniform_ending(new_body);
    let convert = matches!(uniform, Some(e) if e != target);
    let (body, added) = if convert {
        let n = normalize_new_text(new_body, target);
        (n.text, n.eof_added)
    } else if !new_body.is_empty() && !new_body.ends_with('\n') {
        (
            format!("{new_body}{}", own.unwrap_or(target).as_str()),
            true,
        )
    } else {
        (new_body.to_string(), false)
    };
    let bom_kept = old.bom && !new_bom;
    let mut content = String::with_capacity(body.len() + 3);
    if old.bom || new_bom {
        content.push_str(BOM);
    }
    content.push_str(&body);
    Rewritten {
        content,
        added,
        convert,
        bom_kept,
    }
}

/// `Some(ending)` when every line ending of `text` is that one.
fn uniform_ending(text: &str) -> Option<LineEnding> {
    let mut seen: Option<LineEnding> = None;
    for line in lines_with_endings(text) {
        let e = match line.ending {
            "\n" => LineEnding::Lf,
            "\r\n" => LineEnding::CrLf,
            _ => continue,
        };
        match seen {
            None => seen = Some(e),
            Some(s) if s != e => return None,
            _ => {}
        }
    }
    seen
}

/// Refuses to create over an existing path (`FILE_EXISTS`, `NOT_A_FILE`);
/// otherwise returns the content to write, with a final line ending (its
/// own style) added when a non-empty content lacks one.
pub fn check_new_file(options: NewFileOptions) -> Result<NewFileCheck> {
    let mode = "create_new_file";
    let lang = options.lang;
    let ctx = Ctx {
        mode,
        path: &options.path,
        lang,
    };
    let exists = options.exists.unwrap_or(false);
    if exists && options.is_file == Some(false) {
        return Err(refuse(&ctx, Problem::NotAFile, |_| {}));
    }
    if exists {
        return Err(refuse(&ctx, Problem::FileExists, |_| {}));
    }
    let text = &options.new_content;
    let added = options.as_given != Some(true) && !text.is_empty() && !text.ends_with('\n');
    let content = if added {
        format!("{text}{}", detect_line_ending(text).as_str())
    } else {
        text.clone()
    };
    let new_lines = total_lines(&content);
    let summary = msg::new_file_summary(lang, &options.path, new_lines, content.len());
    let mut y = Yaml::new();
    y.raw("status", "ok")
        .raw("mode", mode)
        .str("path", &options.path);
    y.raw("new_total_lines", new_lines)
        .raw("new_total_bytes", content.len());
    y.raw("normalized_trailing_newline_added", added)
        .str("summary", &summary);
    let yaml = y.finish();
    Ok(NewFileCheck {
        path: options.path.clone(),
        new_total_lines: to_u32(new_lines),
        new_total_bytes: to_u32(content.len()),
        normalized_trailing_newline_added: added,
        summary,
        text: agent_text(&yaml, ""),
        yaml,
        content,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patch_kinds_are_detected_by_strong_features_only() {
        use PatchKind::*;
        assert_eq!(
            detect_patch_kinds("diff --git a/x b/x\n"),
            vec![UnifiedDiff]
        );
        assert_eq!(detect_patch_kinds("--- a/x\n+++ b/x\n"), vec![UnifiedDiff]);
        assert_eq!(
            detect_patch_kinds("@@ -1,2 +1,3 @@ fn x\n"),
            vec![UnifiedDiff]
        );
        assert_eq!(detect_patch_kinds("*** Begin Patch\n"), vec![ApplyPatch]);
        assert_eq!(
            detect_patch_kinds("<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n"),
            vec![SearchReplace]
        );
        assert_eq!(
            detect_patch_kinds("<<<<<<<SEARCH\na\n=======\n>>>>>>>REPLACE\n"),
            vec![SearchReplace]
        );
        assert_eq!(
            detect_patch_kinds("@@20240614083000-a1b2c3d@@段落\nx\n"),
            vec![BlockDiff]
        );
        assert_eq!(
            detect_patch_kinds("@@REPLACE:20240614083000-a1b2c3d@@\nx\n"),
            vec![BlockDiff]
        );
        // Markdown that merely resembles: none of these is a patch.
        for text in [
            "---\ntitle: x\n---\n",
            "- item\n+ item\n",
            "--- \n+++ \n",
            "text @@ -1 +1 @@ inline\n",
            "@@ not a header @@\n",
            "<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> branch\n",
            "<<<<<<< SEARCH\nunclosed\n",
            "@@20240614083000-A1B2C3D@@\n",
            "",
        ] {
            assert_eq!(detect_patch_kinds(text), vec![], "{text:?}");
        }
    }

    #[test]
    fn content_format_decides() {
        assert!(allowed(Some("diff"), PatchKind::UnifiedDiff));
        assert!(allowed(Some("PATCH"), PatchKind::BlockDiff));
        assert!(allowed(Some("block_diff"), PatchKind::BlockDiff));
        assert!(allowed(Some("search-replace"), PatchKind::SearchReplace));
        assert!(!allowed(Some("block-diff"), PatchKind::UnifiedDiff));
        assert!(!allowed(Some("markdown"), PatchKind::SearchReplace));
        assert!(!allowed(None, PatchKind::BlockDiff));
    }
}
