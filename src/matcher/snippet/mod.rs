//! Edit snippets with elision markers (issues 35, 43): the new version of
//! a file's changed parts, with the unchanged parts written as a comment
//! such as `// ... existing code ...`, `# rest of the file unchanged` or
//! `<!-- ... -->` — what fast-apply models take. Placed deterministically,
//! without a model:
//!
//! - the snippet is cut at its marker lines (`markers.rs`: the wordings
//!   models use, in the comment syntax of the file's language when the
//!   caller names it) into **parts**;
//! - each part goes where its lines that are in the file stand in the same
//!   order, close together (`placement.rs`): a repeated line such as `}`
//!   is placed by the lines around it, and two places that tie are refused
//!   with both named;
//! - the file's lines from a part's first kept line to its last are
//!   replaced by the part (the lines it keeps written as the file has
//!   them, new ones re-indented as the kept lines around them were);
//! - everything else — what a marker stands for, and the file before the
//!   first part and after the last — is kept byte for byte.
//!
//! A part with no line in the file is refused; a comment that reads like a
//! marker but is not one is refused (it would be written as code where the
//! model meant to keep lines); a snippet that changes nothing is refused;
//! nothing is ever deleted that a marker stands for. Lines are compared
//! with their surrounding whitespace trimmed, so a snippet written at
//! another indentation still places.

mod markers;
mod placement;

pub use markers::is_elision_marker;

use serde::{Deserialize, Serialize};

use super::indent::IndentMap;
use super::normalize::indent_of;
use crate::error::{Error, ErrorCode, LineRange};
use crate::lang::Lang;
use crate::text::{align_lines, detect_line_ending, lines_with_endings, LineLink};
use markers::{Family, LineRole};
use placement::Unplaced;

/// Options of [`plan_edit_snippet`].
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SnippetOptions {
    /// Language of messages. Default `en`.
    pub lang: Lang,
    /// The file's path: its extension picks the comment syntax markers are
    /// written in (`# ...` in Python, `// ...` in TypeScript). Optional.
    pub path: Option<String>,
    /// The file's language (`python`, `typescript`, `rs`…), when the path
    /// does not say. Optional; wins over `path`.
    pub language: Option<String>,
}

/// One region of the file a snippet segment replaced.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SnippetRegion {
    /// First and last line of the file replaced (1-based, inclusive).
    pub start_line: u32,
    /// Last line replaced.
    pub end_line: u32,
    /// How many lines the segment wrote there.
    pub new_lines: u32,
}

/// A placed snippet: the new content and where each segment went.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SnippetResult {
    /// The file with the snippet placed.
    pub content: String,
    /// Where each segment went, in order.
    pub regions: Vec<SnippetRegion>,
}

/// A file line's text and the whole line as written (ending included).
struct FileLine<'a> {
    key: &'a str,
    text: &'a str,
    raw: &'a str,
}

/// Places `snippet` in `content`: the new content, or the refusal.
pub fn plan_edit_snippet(
    content: &str,
    snippet: &str,
    options: &SnippetOptions,
) -> Result<SnippetResult, Error> {
    let lang = options.lang;
    let family = Family::of(options.path.as_deref(), options.language.as_deref());
    let (bom, body) = crate::text::split_bom(content);
    let file: Vec<FileLine<'_>> = lines_with_endings(body)
        .map(|l| FileLine {
            key: l.text.trim(),
            text: l.text,
            raw: &body[l.start..l.start + l.text.len() + l.ending.len()],
        })
        .collect();
    let (segments, marked_start, marked_end) = segments(snippet, &file, family, lang)?;
    if segments.is_empty() {
        return Err(Error::new(ErrorCode::EmptySearch, messages::no_code(lang)));
    }
    let chains = placement::place_parts(&file, &segments).map_err(|(k, why)| match why {
        Unplaced::Nowhere | Unplaced::Weak => Error::new(
            ErrorCode::NotFound,
            messages::no_anchor(lang, segments[k][0].trim()),
        )
        .with_suggestions(messages::advice(lang)),
        Unplaced::Ambiguous { line, at } => ambiguous(lang, &line, &at),
    })?;
    let ending = detect_line_ending(body).as_str();
    let mut out = String::with_capacity(content.len() + snippet.len());
    if bom {
        out.push_str(crate::text::BOM);
    }
    let mut regions = Vec::with_capacity(segments.len());
    let mut kept_to = 0usize; // file lines before this one are written
    for (k, (seg, chain)) in segments.iter().zip(&chains).enumerate() {
        let ((a, first), (b, last)) = (chain.first, chain.last);
        let edges = Edges {
            open_start: k == 0 && !marked_start,
            open_end: k + 1 == segments.len() && !marked_end,
        };
        let (start, end, links) = region(&file, seg, (a, first), (b, last), edges, lang)?;
        for line in &file[kept_to..start] {
            out.push_str(line.raw);
        }
        let anchor = (a, first - start);
        let written = write_segment(&file[start..=end], seg, &links, anchor, ending);
        out.push_str(&written);
        // The region's last line's own ending follows the segment.
        out.push_str(&file[end].raw[file[end].text.len()..]);
        kept_to = end + 1;
        regions.push(SnippetRegion {
            start_line: line_no(start),
            end_line: line_no(end),
            new_lines: u32::try_from(seg.len()).unwrap_or(u32::MAX),
        });
    }
    for line in &file[kept_to..] {
        out.push_str(line.raw);
    }
    if out == content {
        return Err(Error::new(ErrorCode::NoChange, messages::no_change(lang))
            .with_suggestions(messages::advice(lang)));
    }
    Ok(SnippetResult {
        content: out,
        regions,
    })
}

/// Whether a segment is the first with no marker before it, or the last
/// with none after it.
#[derive(Clone, Copy)]
struct Edges {
    open_start: bool,
    open_end: bool,
}

/// The file lines `start..=end` the segment replaces, given its anchors
/// `(index in the segment, file line)`, with the segment's lines paired to
/// them; or the refusal.
fn region(
    file: &[FileLine<'_>],
    seg: &[&str],
    (a, first): (usize, usize),
    (b, last): (usize, usize),
    edges: Edges,
    lang: Lang,
) -> Result<(usize, usize, Vec<LineLink>), Error> {
    // With no marker before the first segment (after the last), the
    // snippet shows the file from its start (to its end): the file's lines
    // before the first anchor (after the last) are the segment's too, so
    // lines the snippet drops there are deleted — a few at most, else a
    // marker was forgotten and it is refused.
    let start = if edges.open_start { 0 } else { first };
    let end = if edges.open_end {
        file.len().saturating_sub(1).max(last)
    } else {
        last
    };
    let links = segment_links(&file[start..=end], seg);
    let dropped = dropped_lines(&file[start..=end], &links);
    if let Some(problem) = misplaced(file, (start, end), seg, &links) {
        return Err(
            Error::new(ErrorCode::NotFound, messages::misplaced(lang, &problem))
                .with_suggestions(messages::advice(lang)),
        );
    }
    if dropped > OPEN_EDGE_MAX_DROPPED && (start < first || end > last) {
        return Err(Error::new(
            ErrorCode::NotFound,
            messages::open_edge(lang, dropped, start < first),
        )
        .with_suggestions(messages::advice(lang)));
    }
    // A new line next to an elided region that reads like the file's line
    // it would keep there (`return 10` before a kept `return 1`,
    // `<Footer year={2026} />` after a kept `<Footer />`): a replacement or
    // an insertion? Refused, not guessed.
    let like = |new: &str, kept: Option<&FileLine<'_>>| {
        kept.is_some_and(|k| reads_like(new.trim(), k.key))
    };
    let before = (a > 0 && start == first)
        .then(|| first.checked_sub(1).and_then(|f| file.get(f)))
        .flatten();
    let after = (b + 1 < seg.len() && end == last)
        .then(|| file.get(last + 1))
        .flatten();
    let near = if a > 0 && like(seg[a - 1], before) {
        Some(seg[a - 1])
    } else if b + 1 < seg.len() && like(seg[b + 1], after) {
        Some(seg[b + 1])
    } else {
        None
    };
    if let Some(new) = near {
        return Err(Error::new(
            ErrorCode::NotFound,
            messages::insert_or_replace(lang, new.trim()),
        )
        .with_suggestions(messages::advice(lang)));
    }
    Ok((start, end, links))
}

/// Whether a new line reads like a file line: similar overall, or both
/// starting with the same words for more than half the shorter one.
fn reads_like(new: &str, kept: &str) -> bool {
    if crate::text::similarity(new, kept) >= SIMILAR_EDGE {
        return true;
    }
    let common = new
        .chars()
        .zip(kept.chars())
        .take_while(|(a, b)| a == b)
        .count();
    let shorter = new.chars().count().min(kept.chars().count());
    common >= SHARED_START && 2 * common > shorter
}

/// Characters two lines must start with alike before [`reads_like`] takes
/// their shared start for one line edited.
const SHARED_START: usize = 5;

/// How similar a new line next to an elided region may be to the file line
/// the region keeps there before the edit is taken for a replacement the
/// snippet cannot express.
const SIMILAR_EDGE: f64 = 0.75;

/// Non-blank file lines an open edge may drop before a forgotten marker is
/// assumed and the snippet refused.
const OPEN_EDGE_MAX_DROPPED: usize = 3;

/// Why a segment cannot be the new text of the file lines `start..=end`:
/// a distinctive line of it that the region does not hold is elsewhere in
/// the file (the segment may belong there), or the region drops a run of
/// lines the segment does not replace (code a marker should stand for).
enum Misplaced {
    Elsewhere { line: String, at: u32 },
    Drops { lines: usize, at: u32 },
}

/// Lines a segment may delete in one run, where nothing replaces them.
const MAX_DELETED_RUN: usize = 2;

/// A line with this many letters or digits says which code it is.
const DISTINCTIVE: usize = 6;

/// The letters and digits of a line: how much it says about where it is.
fn letters(line: &str) -> usize {
    line.chars().filter(|c| c.is_alphanumeric()).count()
}

fn misplaced(
    file: &[FileLine<'_>],
    (start, end): (usize, usize),
    seg: &[&str],
    links: &[LineLink],
) -> Option<Misplaced> {
    let region = &file[start..=end];
    let mut kept = vec![false; region.len()];
    let mut replaced = vec![false; region.len()];
    for link in links {
        match *link {
            LineLink::Equal(i) => kept[i] = true,
            LineLink::Changed(i) => replaced[i] = true,
            LineLink::Inserted => {}
        }
    }
    for (j, link) in links.iter().enumerate() {
        if matches!(link, LineLink::Equal(_)) {
            continue;
        }
        let key = seg[j].trim();
        if letters(key) < DISTINCTIVE {
            continue;
        }
        let outside = (0..file.len()).find(|&i| (i < start || i > end) && file[i].key == key);
        if let Some(i) = outside {
            return Some(Misplaced::Elsewhere {
                line: key.to_string(),
                at: line_no(i),
            });
        }
    }
    let mut run = 0usize;
    for (i, line) in region.iter().enumerate() {
        if kept[i] || replaced[i] {
            run = 0;
            continue;
        }
        if !line.key.is_empty() {
            run += 1;
            if run > MAX_DELETED_RUN {
                return Some(Misplaced::Drops {
                    lines: run,
                    at: line_no(start + i),
                });
            }
        }
    }
    None
}

/// The segment's lines paired with the file lines `region` it replaces,
/// by their trimmed text: one diff, read by every check and the writer.
fn segment_links(region: &[FileLine<'_>], seg: &[&str]) -> Vec<LineLink> {
    let region_keys: Vec<&str> = region.iter().map(|l| l.key).collect();
    let seg_keys: Vec<&str> = seg.iter().map(|l| l.trim()).collect();
    align_lines(&region_keys, &seg_keys)
}

/// How many non-blank lines of `region` the segment does not keep.
fn dropped_lines(region: &[FileLine<'_>], links: &[LineLink]) -> usize {
    let mut kept = vec![false; region.len()];
    for link in links {
        if let LineLink::Equal(i) = *link {
            kept[i] = true;
        }
    }
    region
        .iter()
        .zip(kept)
        .filter(|(l, k)| !k && !l.key.is_empty())
        .count()
}

fn line_no(i: usize) -> u32 {
    u32::try_from(i + 1).unwrap_or(u32::MAX)
}

/// The snippet's segments (runs of lines between marker lines, blank lines
/// at their edges dropped), and whether a marker comes before the first
/// and after the last; or the refusal of a comment that reads like a
/// marker but is not one. A marker in words only that the file holds as a
/// comment of its own is that comment, not a marker.
fn segments<'s>(
    snippet: &'s str,
    file: &[FileLine<'_>],
    family: Family,
    lang: Lang,
) -> Result<(Vec<Vec<&'s str>>, bool, bool), Error> {
    let in_file = |line: &str| file.iter().any(|f| f.key == line.trim());
    let mut marks: Vec<(&str, bool)> = Vec::new();
    for line in snippet.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let marker = match markers::role_in(line, family) {
            LineRole::Marker => true,
            LineRole::PhraseMarker => !in_file(line),
            LineRole::LooksLikeMarker if !in_file(line) => {
                return Err(Error::new(
                    ErrorCode::InvalidArgument,
                    messages::unclear_marker(lang, line.trim()),
                )
                .with_suggestions(messages::advice(lang)));
            }
            LineRole::LooksLikeMarker | LineRole::Code => false,
        };
        marks.push((line, marker));
    }
    let mut nonblank = marks.iter().filter(|(l, _)| !l.trim().is_empty());
    let marked_start = nonblank.next().is_some_and(|(_, m)| *m);
    let marked_end = marks
        .iter()
        .rev()
        .find(|(l, _)| !l.trim().is_empty())
        .is_some_and(|(_, m)| *m);
    let mut out: Vec<Vec<&str>> = vec![Vec::new()];
    for &(line, marker) in &marks {
        if marker {
            out.push(Vec::new());
        } else if let Some(seg) = out.last_mut() {
            seg.push(line);
        }
    }
    let segments = out
        .into_iter()
        .map(|seg| {
            let start = seg.iter().position(|l| !l.trim().is_empty());
            let end = seg.iter().rposition(|l| !l.trim().is_empty());
            match (start, end) {
                (Some(s), Some(e)) => seg[s..=e].to_vec(),
                _ => Vec::new(),
            }
        })
        .filter(|seg| !seg.is_empty())
        .collect();
    Ok((segments, marked_start, marked_end))
}

fn ambiguous(lang: Lang, anchor: &str, at: &[usize]) -> Error {
    let lines: Vec<u32> = at.iter().map(|&i| line_no(i)).collect();
    let mut e = Error::new(
        ErrorCode::Ambiguous,
        messages::ambiguous(lang, anchor, &lines),
    )
    .with_suggestions(messages::advice(lang));
    e.details.candidates = lines.iter().map(|&l| LineRange::new(l, l)).collect();
    e
}

/// The segment written over the file lines `region` (first anchor to last
/// anchor): lines the segment keeps as the file has them, new lines
/// re-indented as the first anchor was, joined with the file's ending
/// (the last line without one: the region's own follows).
fn write_segment(
    region: &[FileLine<'_>],
    seg: &[&str],
    links: &[LineLink],
    (a, at): (usize, usize),
    ending: &str,
) -> String {
    // The shift each kept line shows (snippet indentation → file's); a new
    // line takes the nearest kept line's before it, else after it, else
    // the first anchor's.
    let shifts: Vec<Option<IndentMap>> = links
        .iter()
        .zip(seg)
        .map(|(link, line)| match link {
            LineLink::Equal(i) if !line.trim().is_empty() => {
                IndentMap::infer(&[(indent_of(line), indent_of(region[*i].text))])
            }
            _ => None,
        })
        .collect();
    let anchor_shift = IndentMap::infer(&[(indent_of(seg[a]), indent_of(region[at].text))]);
    let mut out = String::new();
    for (j, line) in seg.iter().enumerate() {
        if j > 0 {
            out.push_str(ending);
        }
        match links.get(j) {
            Some(LineLink::Equal(i)) => out.push_str(region[*i].text),
            _ if line.trim().is_empty() => {}
            _ => {
                let shift = shifts[..j]
                    .iter()
                    .rev()
                    .chain(shifts[j..].iter())
                    .find_map(Option::as_ref)
                    .or(anchor_shift.as_ref());
                let indent = indent_of(line);
                match shift.and_then(|m| m.apply(indent)) {
                    Some(i) => {
                        out.push_str(&i);
                        out.push_str(&line[indent.len()..]);
                    }
                    None => out.push_str(line),
                }
            }
        }
    }
    out
}

mod messages {
    use crate::lang::Lang;

    pub(super) fn no_code(lang: Lang) -> String {
        lang.pick(
            "The snippet holds only elision markers (or nothing): there is no code to place.",
            "片段中只有省略标记（或为空）：没有可放置的代码。",
        )
        .to_string()
    }

    pub(super) fn no_anchor(lang: Lang, first: &str) -> String {
        match lang {
            Lang::En => format!("No line of the snippet's part starting `{first}` is in the file (after the part before it), so nothing says where it goes. Nothing was changed."),
            Lang::Zh => format!("片段中以 `{first}` 开头的部分没有任何一行出现在文件中（在前一部分之后），无法确定其位置。未做任何修改。"),
        }
    }

    pub(super) fn misplaced(lang: Lang, problem: &super::Misplaced) -> String {
        use super::Misplaced::{Drops, Elsewhere};
        match (lang, problem) {
            (Lang::En, Elsewhere { line, at }) => format!("The snippet's line `{line}` is not where its part was anchored but at line {at} of the file: the part may belong there, or the line may be new. Nothing was changed."),
            (Lang::Zh, Elsewhere { line, at }) => format!("片段中的 `{line}` 不在该部分锚定的位置，而在文件第 {at} 行：这一部分可能属于那里，也可能是新行。未做任何修改。"),
            (Lang::En, Drops { lines, at }) => format!("Placed there, the snippet would delete {lines} or more lines in a row (to line {at}) that it neither shows nor replaces; code left out needs an elision marker. Nothing was changed."),
            (Lang::Zh, Drops { lines, at }) => format!("放在那里，片段会连续删除 {lines} 行或更多（到第 {at} 行），这些行它既没有写出也没有替换；省略的代码需要用省略标记表示。未做任何修改。"),
        }
    }

    pub(super) fn open_edge(lang: Lang, dropped: usize, start: bool) -> String {
        match (lang, start) {
            (Lang::En, true) => format!("The snippet has no elision marker before its first part, so it would replace the file from its first line, dropping {dropped} lines the snippet does not show; nothing was changed. Start the snippet with `// ... existing code ...` (in the file's comment syntax) if they stay."),
            (Lang::En, false) => format!("The snippet has no elision marker after its last part, so it would replace the file to its end, dropping {dropped} lines the snippet does not show; nothing was changed. End the snippet with `// ... existing code ...` (in the file's comment syntax) if they stay."),
            (Lang::Zh, true) => format!("片段第一部分之前没有省略标记，因此会从文件第一行开始替换，删去片段中没有的 {dropped} 行；未做任何修改。若这些行应保留，请在片段开头写 `// ... existing code ...`（使用该文件的注释语法）。"),
            (Lang::Zh, false) => format!("片段最后一部分之后没有省略标记，因此会一直替换到文件末尾，删去片段中没有的 {dropped} 行；未做任何修改。若这些行应保留，请在片段末尾写 `// ... existing code ...`（使用该文件的注释语法）。"),
        }
    }

    pub(super) fn insert_or_replace(lang: Lang, line: &str) -> String {
        match lang {
            Lang::En => format!("The snippet's new line `{line}` stands next to an elided region and reads like the file's line there, which the marker keeps: it is unclear whether it replaces that line or is added beside it. Nothing was changed. Include the unchanged line after (or before) it, so the part ends on a line of the file."),
            Lang::Zh => format!("片段中的新行 `{line}` 紧挨着被省略的部分，且与文件中该处由省略标记保留的行相似：无法确定它是替换那一行还是在旁边新增。未做任何修改。请带上它之后（或之前）不变的那一行，使这一部分以文件中的行结束。"),
        }
    }

    pub(super) fn no_change(lang: Lang) -> String {
        lang.pick(
            "Placed where its lines are, the snippet changes nothing: every line it shows is already there. Nothing was changed. To delete lines, show the lines around them without them; to change one, write its new text.",
            "按其中各行所在的位置放置后，片段没有带来任何修改：它写出的每一行都已在文件中。未做任何修改。要删除某些行，请写出它们前后的行并省去它们；要修改某行，请写出它的新内容。",
        )
        .to_string()
    }

    pub(super) fn unclear_marker(lang: Lang, line: &str) -> String {
        match lang {
            Lang::En => format!("The snippet's comment `{line}` reads like an elision marker but is not one editkit recognises, and it is not in the file: written as code it would replace the lines it seems to keep. Nothing was changed. Write the marker as `// ... existing code ...` (in the file's comment syntax), or leave the comment out."),
            Lang::Zh => format!("片段中的注释 `{line}` 看起来像省略标记，但 editkit 无法将其识别为省略标记，且文件中没有这一行：若按代码写入，它会替换它似乎要保留的行。未做任何修改。请把省略标记写成 `// ... existing code ...`（使用该文件的注释语法），或去掉这条注释。"),
        }
    }

    pub(super) fn ambiguous(lang: Lang, anchor: &str, lines: &[u32]) -> String {
        let list = lines
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        match lang {
            Lang::En => format!("The snippet's anchor line `{anchor}` is in the file more than once (lines {list}), so it could go at either. Nothing was changed."),
            Lang::Zh => format!("片段的锚点行 `{anchor}` 在文件中出现不止一次（第 {list} 行），无法确定位置。未做任何修改。"),
        }
    }

    pub(super) fn advice(lang: Lang) -> Vec<String> {
        vec![lang
            .pick(
                "Start and end each part of the snippet with a line that occurs once in the file (a function's signature, a distinctive statement), and write `// ... existing code ...` (in the file's comment syntax) for what stays unchanged.",
                "让片段的每一部分以文件中只出现一次的行开始和结束（如函数签名、独特的语句），不变的部分写成 `// ... existing code ...`（使用该文件的注释语法）。",
            )
            .to_string()]
    }
}

#[cfg(test)]
mod tests {
    use super::{plan_edit_snippet, SnippetOptions};
    use crate::error::ErrorCode;

    fn place(content: &str, snippet: &str) -> Result<String, ErrorCode> {
        plan_edit_snippet(content, snippet, &SnippetOptions::default())
            .map(|r| r.content)
            .map_err(|e| e.code)
    }

    const FILE: &str = "import os\n\ndef a():\n    return 1\n\ndef b():\n    x = 2\n    return x\n\ndef c():\n    return 3\n";

    /// (snippet, expected file).
    const CASES: &[(&str, &str)] = &[
        // One function changed, the rest elided: kept byte for byte.
        (
            "# ... existing code ...\ndef b():\n    x = 20\n    return x\n# ... existing code ...",
            "import os\n\ndef a():\n    return 1\n\ndef b():\n    x = 20\n    return x\n\ndef c():\n    return 3\n",
        ),
        // A new line before an anchor, and two segments.
        (
            "import os\nimport sys\n# ...\ndef c():\n    return 4\n",
            "import os\nimport sys\n\ndef a():\n    return 1\n\ndef b():\n    x = 2\n    return x\n\ndef c():\n    return 4\n",
        ),
        // A snippet written without indentation: new lines take the file's.
        (
            "# ...\ndef b():\nx = 2\ny = 5\nreturn x\n# ...",
            "import os\n\ndef a():\n    return 1\n\ndef b():\n    x = 2\n    y = 5\n    return x\n\ndef c():\n    return 3\n",
        ),
    ];

    #[test]
    fn segments_replace_their_regions_and_markers_keep_the_rest() {
        for &(snippet, expected) in CASES {
            assert_eq!(place(FILE, snippet).as_deref(), Ok(expected), "{snippet}");
        }
        // CRLF files keep CRLF.
        let crlf = FILE.replace('\n', "\r\n");
        assert_eq!(
            place(&crlf, CASES[0].0).as_deref(),
            Ok(CASES[0].1.replace('\n', "\r\n").as_str())
        );
    }

    #[test]
    fn ambiguous_or_missing_anchors_are_refused() {
        // `return 1` and `return 3`, but `    return x` ends b only; a
        // segment whose first line occurs twice is ambiguous.
        let twice = "def f():\n    pass\n\ndef f():\n    pass\n";
        assert_eq!(
            place(twice, "def f():\n    return 1\n"),
            Err(ErrorCode::Ambiguous)
        );
        assert_eq!(
            place(FILE, "def z():\n    return 9\n"),
            Err(ErrorCode::NotFound)
        );
        // No marker at the end: the snippet shows the file to its end, and
        // would drop more lines than a slip explains: refused.
        assert_eq!(
            place(FILE, "# ...\ndef a():\n    return 10\n"),
            Err(ErrorCode::NotFound)
        );
        // With the marker the rest stays, but `return 10` right before
        // the kept `return 1`: replace or add? Refused.
        assert_eq!(
            place(FILE, "# ...\ndef a():\n    return 10\n# ..."),
            Err(ErrorCode::NotFound)
        );
        // With the line after it, it is a replacement.
        assert_eq!(
            place(FILE, "# ...\ndef a():\n    return 10\n\ndef b():\n# ..."),
            Ok(FILE.replace("return 1\n", "return 10\n"))
        );
        assert_eq!(
            place(FILE, "# ... existing code ...\n"),
            Err(ErrorCode::EmptySearch)
        );
    }
}
