//! The block tree of a markdown (or kramdown) text, with line positions.
//!
//! A recursive reading of the lines: a container (blockquote, callout,
//! list item, superblock) collects its lines, strips its prefix and reads
//! them again; leaves find their last line. The rules are Lute's with the
//! kernel's settings, as measured against vditor's `lute.min.js` (the table
//! in `tests/node/lute-split.test.mjs`):
//!
//! - ATX headings only (`Title\n---` is a paragraph and a thematic break);
//!   indented text is paragraph text, never code;
//! - a paragraph ends at a blank line or where a heading, fence, `$$`,
//!   `{{{`, thematic break, `>`, bullet item, `1.` item, `{{…}}` embed,
//!   `<div`, `<iframe`, `<video`, `<audio` or a table header starts; other
//!   HTML is paragraph text;
//! - an IAL line (`{: …}`) belongs to the block before it (even across a
//!   blank line) and closes it; an item's `- {: …}text` IAL is the item's;
//! - `<iframe`, `<video` and `<audio` are one-line blocks; a `<div` block
//!   runs to a blank line;
//! - a table is a header row and a delimiter row with as many cells; its
//!   rows run to a blank line or a block start, and a following line
//!   without `|` turns the whole table into a paragraph (Lute does).

use crate::markdown::ial::{parse_ial, Attrs};
use crate::siyuan::{heading_level_of_markdown, BlockKind};

/// What a node is, beyond its kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Detail {
    None,
    Heading(u8),
    /// `marker` is the bullet (`-`, `*`, `+`) or the ordered delimiter
    /// (`.`, `)`); `start` the first number of an ordered list.
    List {
        ordered: bool,
        marker: u8,
        start: u32,
    },
    /// `task` is the checkbox character (` `, `x`, `X`) of a task item.
    Item {
        task: Option<char>,
    },
    Superblock {
        layout: String,
    },
    Callout {
        kind: String,
    },
    /// A code fence or `$$` math block that is never closed: it runs to
    /// the end of the text and swallows whatever follows it there (an IAL
    /// editkit would write after it included).
    Unclosed,
}

/// Where a node's IAL is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IalPlace {
    /// On a line of its own (`line`), after the block.
    Line(usize),
    /// Inline after a list item's marker: bytes `start..end` of `line`.
    Inline {
        line: usize,
        start: usize,
        end: usize,
    },
}

/// One block.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub kind: BlockKind,
    pub detail: Detail,
    /// First and last line (0-based, inclusive) of the block's text; an IAL
    /// line after it is not included.
    pub first: usize,
    pub last: usize,
    /// Byte column on line `first` where the block starts, after the
    /// prefixes (`> `, item indentation) of its containers.
    pub column: usize,
    /// List items: the byte column on line `first` where the item's text
    /// starts, after the marker (where kramdown writes the item's IAL).
    /// Other blocks: `column`.
    pub content_column: usize,
    /// Byte column on line `first` where the containers' prefixes end (the
    /// block's own indentation not included): an IAL line for the block
    /// starts with the prefix up to here.
    pub prefix_column: usize,
    pub children: Vec<Node>,
    /// The block's IAL, when the text carries one.
    pub ial: Option<(Attrs, IalPlace)>,
    /// Every source line of the block (its IAL line included) and the byte
    /// column where the block's container content starts on it, after the
    /// prefixes (`> `, item indentation) of the containers around it: the
    /// block's own text is each line from that column ([`own_text`]).
    pub lines: Vec<(usize, usize)>,
}

impl Node {
    fn new(kind: BlockKind, first: usize, last: usize, column: usize) -> Node {
        Node {
            kind,
            detail: Detail::None,
            first,
            last,
            column,
            content_column: column,
            prefix_column: column,
            children: Vec::new(),
            ial: None,
            lines: Vec::new(),
        }
    }

    /// The last line of the block including its IAL line, if any.
    pub fn last_with_ial(&self) -> usize {
        match &self.ial {
            Some((_, IalPlace::Line(line))) => (*line).max(self.last),
            _ => self.last,
        }
    }

    pub fn is_container(&self) -> bool {
        self.kind.is_container()
    }
}

/// The first line (0-based) of a code fence or `$$` math block in
/// `markdown` that is never closed, at any depth.
pub fn unclosed_fence(markdown: &str) -> Option<usize> {
    fn find(nodes: &[Node]) -> Option<usize> {
        nodes.iter().find_map(|n| {
            if n.detail == Detail::Unclosed {
                Some(n.first)
            } else {
                find(&n.children)
            }
        })
    }
    find(&parse(markdown))
}

/// The top-level blocks of `text`, in order.
pub fn parse(text: &str) -> Vec<Node> {
    let raw = source_lines(text);
    let lines: Vec<VLine<'_>> = raw
        .iter()
        .enumerate()
        .map(|(idx, text)| VLine { idx, text, col: 0 })
        .collect();
    parse_lines(&lines)
}

/// The top-level blocks of `markdown` as text, each with the IAL line that
/// belongs to it and without surrounding blank lines. Blank input gives no
/// blocks. This is how the kernel's `updateBlock`, which keeps only the
/// first block, will read the text.
pub fn split_blocks(markdown: &str) -> Vec<&str> {
    let starts = line_starts(markdown);
    let raw = source_lines(markdown);
    parse(markdown)
        .iter()
        .map(|node| {
            let last = node.last_with_ial();
            let from = starts[node.first];
            let to = starts[last] + raw[last].len();
            &markdown[from..to]
        })
        .collect()
}

/// The lines of `text` without their endings (`\r\n` or `\n`).
pub(crate) fn source_lines(text: &str) -> Vec<&str> {
    let mut out: Vec<&str> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    if text.ends_with('\n') {
        out.pop();
    }
    out
}

/// Byte offset of each line's start.
pub(crate) fn line_starts(text: &str) -> Vec<usize> {
    let mut starts = vec![0];
    for (i, b) in text.bytes().enumerate() {
        if b == b'\n' && i + 1 < text.len() {
            starts.push(i + 1);
        }
    }
    starts
}

/// A line as a container sees it: its prefixes stripped.
#[derive(Clone, Copy, Debug)]
struct VLine<'a> {
    /// Index of the source line.
    idx: usize,
    /// The rest of the line after the containers' prefixes.
    text: &'a str,
    /// Byte column of `text` in the source line.
    col: usize,
}

impl<'a> VLine<'a> {
    fn blank(&self) -> bool {
        self.text.trim().is_empty()
    }

    /// Indentation width (a tab counts four) and the text after it.
    fn indented(&self) -> (usize, &'a str, usize) {
        let mut width = 0;
        let mut bytes = 0;
        for b in self.text.bytes() {
            match b {
                b' ' => width += 1,
                b'\t' => width += 4 - width % 4,
                _ => break,
            }
            bytes += 1;
        }
        (width, &self.text[bytes..], self.col + bytes)
    }

    /// The line with `width` columns of indentation removed (fewer if the
    /// line has fewer).
    fn dedent(&self, width: usize) -> VLine<'a> {
        let mut taken = 0;
        let mut bytes = 0;
        for b in self.text.bytes() {
            if taken >= width {
                break;
            }
            match b {
                b' ' => taken += 1,
                b'\t' => taken += 4 - taken % 4,
                _ => break,
            }
            bytes += 1;
        }
        VLine {
            idx: self.idx,
            text: &self.text[bytes..],
            col: self.col + bytes,
        }
    }

    fn skip(&self, bytes: usize) -> VLine<'a> {
        let bytes = bytes.min(self.text.len());
        VLine {
            idx: self.idx,
            text: &self.text[bytes..],
            col: self.col + bytes,
        }
    }
}

fn parse_lines(lines: &[VLine<'_>]) -> Vec<Node> {
    let mut out: Vec<Node> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line.blank() {
            i += 1;
            continue;
        }
        let (indent, body, body_col) = line.indented();
        if indent < 4 && is_ial_text(body) {
            attach_ial(&mut out, line, body_col, body);
            i += 1;
            continue;
        }
        let (mut node, next) = parse_block(lines, i);
        node.prefix_column = line.col;
        node.lines = own_lines(&lines[i..next.max(i + 1)]);
        out.push(node);
        i = next.max(i + 1);
    }
    out
}

/// An IAL line belongs to the block before it; a leading one makes an
/// empty paragraph that carries it (what Lute does with a lone IAL).
fn attach_ial(out: &mut Vec<Node>, vline: VLine<'_>, col: usize, body: &str) {
    let attrs = parse_ial(body);
    let line = vline.idx;
    match out.last_mut() {
        Some(prev) if prev.ial.is_none() => {
            prev.ial = Some((attrs, IalPlace::Line(line)));
            prev.lines.push((line, vline.col));
        }
        _ => {
            let mut node = Node::new(BlockKind::Paragraph, line, line, col);
            node.ial = Some((attrs, IalPlace::Line(line)));
            node.lines = vec![(line, vline.col)];
            out.push(node);
        }
    }
}

/// The lines a block spans at its container's level, blank lines at its
/// end left out (they separate it from the next block).
fn own_lines(lines: &[VLine<'_>]) -> Vec<(usize, usize)> {
    let end = lines.iter().rposition(|l| !l.blank()).map_or(0, |k| k + 1);
    lines[..end].iter().map(|l| (l.idx, l.col)).collect()
}

/// A block's own text: each of its lines from the column where its
/// container's content starts (see [`Node::lines`]), so a block nested in
/// quotes and list items reads as it would standing alone. `None` when a
/// line is shorter than its column (the parse and the text disagree).
pub fn own_text(node: &Node, source: &[&str]) -> Option<String> {
    let mut out = String::new();
    for (k, &(idx, col)) in node.lines.iter().enumerate() {
        let line = source.get(idx)?;
        if k > 0 {
            out.push('\n');
        }
        out.push_str(line.get(col..).or_else(|| line.is_empty().then_some(""))?);
    }
    Some(out)
}

/// Reads the block starting at `lines[i]` (not blank, not an IAL line):
/// the node and the index of the line after it.
fn parse_block(lines: &[VLine<'_>], i: usize) -> (Node, usize) {
    let line = lines[i];
    let (indent, body, col) = line.indented();
    let idx = line.idx;
    if indent >= 4 {
        return paragraph(lines, i);
    }
    if let Some((ch, len)) = fence_opener(body) {
        let mut j = i + 1;
        while j < lines.len() && !closes_fence(lines[j].text, ch, len) {
            j += 1;
        }
        let last = if j < lines.len() { j } else { lines.len() - 1 };
        let mut node = Node::new(BlockKind::Code, idx, lines[last].idx, col);
        if j == lines.len() {
            node.detail = Detail::Unclosed;
        }
        return (node, last + 1);
    }
    if let Some(rest) = body.strip_prefix("$$") {
        let rest = rest.trim_end();
        if rest.ends_with("$$") && rest.len() >= 2 {
            return (Node::new(BlockKind::Math, idx, idx, col), i + 1);
        }
        let mut j = i + 1;
        while j < lines.len() && lines[j].text.trim() != "$$" {
            j += 1;
        }
        let last = if j < lines.len() { j } else { lines.len() - 1 };
        let mut node = Node::new(BlockKind::Math, idx, lines[last].idx, col);
        if j == lines.len() {
            node.detail = Detail::Unclosed;
        }
        return (node, last + 1);
    }
    if body.starts_with("{{{") {
        return superblock(lines, i, body, col);
    }
    let level = heading_level_of_markdown(body);
    if level > 0 {
        let mut node = Node::new(BlockKind::Heading, idx, idx, col);
        node.detail = Detail::Heading(level);
        return (node, i + 1);
    }
    if is_thematic_break(body) {
        return (Node::new(BlockKind::ThematicBreak, idx, idx, col), i + 1);
    }
    if body.starts_with('>') {
        return quote(lines, i);
    }
    if list_marker(body).is_some() {
        return list(lines, i);
    }
    if is_embed(body) {
        return (Node::new(BlockKind::Embed, idx, idx, col), i + 1);
    }
    if let Some(kind) = html_start(body) {
        if kind != BlockKind::Html {
            return (Node::new(kind, idx, idx, col), i + 1);
        }
        // To the next blank line, or to an IAL line, which Lute (with
        // kramdown IALs on) reads as the block's own attributes.
        let mut j = i + 1;
        while j < lines.len() && !lines[j].blank() && !is_ial_text(lines[j].indented().1) {
            j += 1;
        }
        return (Node::new(kind, idx, lines[j - 1].idx, col), j);
    }
    if i + 1 < lines.len() && is_table_start(body, lines[i + 1]) {
        return table(lines, i);
    }
    paragraph(lines, i)
}

fn paragraph(lines: &[VLine<'_>], i: usize) -> (Node, usize) {
    let (_, _, col) = lines[i].indented();
    let mut j = i + 1;
    while j < lines.len() {
        let next = lines[j];
        if next.blank() || interrupts_paragraph(next) {
            break;
        }
        // A table header on this line ends the paragraph before it.
        if j + 1 < lines.len() && is_table_start(next.indented().1, lines[j + 1]) {
            break;
        }
        j += 1;
    }
    (
        Node::new(BlockKind::Paragraph, lines[i].idx, lines[j - 1].idx, col),
        j,
    )
}

/// Whether a line ends a paragraph by starting a block of its own.
fn interrupts_paragraph(line: VLine<'_>) -> bool {
    let (indent, body, _) = line.indented();
    if indent >= 4 {
        return false;
    }
    fence_opener(body).is_some()
        || body.starts_with("$$")
        || body.starts_with("{{{")
        || heading_level_of_markdown(body) > 0
        || is_thematic_break(body)
        || body.starts_with('>')
        || is_ial_text(body)
        || is_embed(body)
        || interrupting_html(body)
        || list_marker(body).is_some_and(|m| {
            // An empty item, or an ordered one not starting at 1, does not.
            let rest = body[m.width..].trim();
            !rest.is_empty() && (!m.ordered || m.start == 1)
        })
}

fn superblock(lines: &[VLine<'_>], i: usize, body: &str, col: usize) -> (Node, usize) {
    let mut depth = 0usize;
    let mut j = i;
    while j < lines.len() {
        let t = lines[j].text.trim();
        if t.starts_with("{{{") {
            depth += 1;
        } else if t == "}}}" {
            depth = depth.saturating_sub(1);
            if depth == 0 {
                break;
            }
        }
        j += 1;
    }
    let last = j.min(lines.len() - 1);
    let mut node = Node::new(BlockKind::Superblock, lines[i].idx, lines[last].idx, col);
    let layout = body[3..].trim();
    node.detail = Detail::Superblock {
        layout: if layout.is_empty() { "row" } else { layout }.to_string(),
    };
    let inner_end = if j < lines.len() { j } else { lines.len() };
    node.children = parse_lines(&lines[i + 1..inner_end.max(i + 1)]);
    (node, last + 1)
}

fn quote(lines: &[VLine<'_>], i: usize) -> (Node, usize) {
    let (_, _, col) = lines[i].indented();
    let mut inner: Vec<VLine<'_>> = Vec::new();
    let mut j = i;
    while j < lines.len() {
        let line = lines[j];
        let (indent, body, body_col) = line.indented();
        if indent < 4 && body.starts_with('>') {
            let after = &body[1..];
            let skip = usize::from(after.starts_with(' '));
            inner.push(VLine {
                idx: line.idx,
                text: &after[skip..],
                col: body_col + 1 + skip,
            });
            j += 1;
            continue;
        }
        if !line.blank() && lazy_continues(&inner) && !interrupts_paragraph(line) {
            inner.push(line);
            j += 1;
            continue;
        }
        break;
    }
    let last = lines[j - 1].idx;
    let callout = inner.first().and_then(|l| callout_kind(l.text.trim()));
    let mut node;
    if let Some(kind) = callout {
        node = Node::new(BlockKind::Callout, lines[i].idx, last, col);
        node.detail = Detail::Callout { kind };
        node.children = parse_lines(&inner[1..]);
    } else {
        node = Node::new(BlockKind::Blockquote, lines[i].idx, last, col);
        node.children = parse_lines(&inner);
    }
    (node, j)
}

/// A lazy continuation line may follow when the container's last line is
/// paragraph text.
fn lazy_continues(inner: &[VLine<'_>]) -> bool {
    let Some(last) = inner.last() else {
        return false;
    };
    if last.blank() {
        return false;
    }
    let (indent, body, _) = last.indented();
    indent >= 4
        || !(fence_opener(body).is_some()
            || body.starts_with("$$")
            || body.starts_with("{{{")
            || body.trim() == "}}}"
            || heading_level_of_markdown(body) > 0
            || is_thematic_break(body)
            || is_ial_text(body)
            || is_embed(body))
}

/// `[!NOTE]` (with an optional title after it) opening a callout.
fn callout_kind(first: &str) -> Option<String> {
    let rest = first.strip_prefix("[!")?;
    let close = rest.find(']')?;
    let kind = &rest[..close];
    (!kind.is_empty() && kind.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
        .then(|| kind.to_string())
}

fn list(lines: &[VLine<'_>], i: usize) -> (Node, usize) {
    let (_, body, col) = lines[i].indented();
    let first = list_marker(body).unwrap_or(Marker {
        ordered: false,
        delim: b'-',
        start: 1,
        width: 1,
    });
    let mut node = Node::new(BlockKind::List, lines[i].idx, lines[i].idx, col);
    node.detail = Detail::List {
        ordered: first.ordered,
        marker: first.delim,
        start: first.start,
    };
    let mut j = i;
    loop {
        let (mut item, next) = list_item(lines, j);
        item.lines = own_lines(&lines[j..next.max(j + 1)]);
        node.last = item.last_with_ial();
        node.children.push(item);
        j = next;
        let mut k = j;
        while k < lines.len() && lines[k].blank() {
            k += 1;
        }
        if k >= lines.len() {
            break;
        }
        let (indent, body, _) = lines[k].indented();
        match list_marker(body) {
            Some(m) if indent < 4 && m.ordered == first.ordered && m.delim == first.delim => {
                j = k;
            }
            _ => break,
        }
    }
    (node, j)
}

/// A list item starting at line `i`: its marker line, then every line
/// indented to its content column, blank lines and lazy paragraph
/// continuations.
fn list_item(lines: &[VLine<'_>], i: usize) -> (Node, usize) {
    let line = lines[i];
    let (content_width, first_line, col) = item_marker_line(line);
    let mut item = Node::new(BlockKind::ListItem, line.idx, line.idx, col);
    item.content_column = first_line.col;
    let first_line = take_inline_ial(&mut item, first_line, line.idx);
    let task = task_marker(first_line.text);
    item.detail = Detail::Item { task };
    let (content, j) = item_content(lines, i, first_line, content_width);
    item.last = content.last().map_or(line.idx, |l| l.idx);
    item.children = parse_lines(&content);
    if let Some(last_child) = item.children.last() {
        item.last = item.last.max(last_child.last_with_ial());
    }
    (item, j)
}

/// The item's content column (its continuation lines' indentation), the
/// text after its marker, and the marker's column.
fn item_marker_line(line: VLine<'_>) -> (usize, VLine<'_>, usize) {
    let (indent, body, col) = line.indented();
    let marker = list_marker(body).unwrap_or(Marker {
        ordered: false,
        delim: b'-',
        start: 1,
        width: 1,
    });
    let after_marker = line.skip(col - line.col + marker.width);
    let (spaces, rest, _) = after_marker.indented();
    let content_width = if rest.is_empty() || spaces > 4 || spaces == 0 {
        indent + marker.width + 1
    } else {
        indent + marker.width + spaces
    };
    let first_line = if rest.is_empty() {
        after_marker.skip(after_marker.text.len())
    } else if spaces > 4 {
        after_marker.dedent(1)
    } else {
        after_marker.dedent(spaces)
    };
    (content_width, first_line, col)
}

/// Kramdown writes an item's IAL right after its marker: it becomes the
/// item's IAL, and the rest of the line its first line.
fn take_inline_ial<'a>(item: &mut Node, first_line: VLine<'a>, line_idx: usize) -> VLine<'a> {
    if !first_line.text.starts_with("{:") {
        return first_line;
    }
    let Some(close) = first_line.text.find('}') else {
        return first_line;
    };
    let start = first_line.col;
    let end = start + close + 1;
    item.ial = Some((
        parse_ial(&first_line.text[..=close]),
        IalPlace::Inline {
            line: line_idx,
            start,
            end,
        },
    ));
    first_line.skip(close + 1)
}

/// The item's lines after its first one (dedented to its content column),
/// trailing blank lines left out, and the index of the line after it.
fn item_content<'a>(
    lines: &[VLine<'a>],
    i: usize,
    first_line: VLine<'a>,
    content_width: usize,
) -> (Vec<VLine<'a>>, usize) {
    let mut content = vec![first_line];
    let mut j = i + 1;
    let mut saw_blank = false;
    while j < lines.len() {
        let next = lines[j];
        if next.blank() {
            content.push(next.skip(next.text.len()));
            saw_blank = true;
            j += 1;
            continue;
        }
        let (next_indent, _, _) = next.indented();
        if next_indent >= content_width {
            content.push(next.dedent(content_width));
            saw_blank = false;
            j += 1;
            continue;
        }
        if !saw_blank
            && lazy_continues(&content)
            && !interrupts_paragraph(next)
            && list_marker(next.indented().1).is_none()
        {
            content.push(next);
            j += 1;
            continue;
        }
        break;
    }
    while content.len() > 1 && content.last().is_some_and(VLine::blank) {
        content.pop();
        j -= 1;
    }
    (content, j)
}

/// `[ ]`, `[x]` or `[X]` at the start of an item's text, followed by a
/// space or the end of the line.
fn task_marker(text: &str) -> Option<char> {
    let b = text.as_bytes();
    let boxed = b.len() >= 3 && b[0] == b'[' && b[2] == b']' && matches!(b[1], b' ' | b'x' | b'X');
    (boxed && (b.len() == 3 || b[3] == b' ' || b[3] == b'\t')).then(|| char::from(b[1]))
}

fn table(lines: &[VLine<'_>], i: usize) -> (Node, usize) {
    let (_, _, col) = lines[i].indented();
    let mut j = i + 2;
    while j < lines.len() {
        let next = lines[j];
        if next.blank() || interrupts_paragraph(next) {
            break;
        }
        if !next.text.contains('|') {
            // Lute reads the whole run as one paragraph then.
            let (mut para, end) = paragraph(lines, i);
            para.last = para.last.max(lines[j].idx);
            let mut k = end.max(j + 1);
            while k < lines.len() && !lines[k].blank() && !interrupts_paragraph(lines[k]) {
                para.last = lines[k].idx;
                k += 1;
            }
            return (para, k);
        }
        j += 1;
    }
    (
        Node::new(BlockKind::Table, lines[i].idx, lines[j - 1].idx, col),
        j,
    )
}

fn is_table_start(header: &str, delimiter: VLine<'_>) -> bool {
    let (indent, delim, _) = delimiter.indented();
    if indent >= 4 || !header.contains('|') {
        return false;
    }
    let cells = table_cells(delim);
    if cells.is_empty()
        || !cells.iter().all(|c| {
            let c = c.trim();
            let inner = c.trim_start_matches(':').trim_end_matches(':');
            !inner.is_empty() && inner.bytes().all(|b| b == b'-')
        })
    {
        return false;
    }
    // A one-column table needs its dashes spelled out (`| --- |`).
    if cells.len() == 1 && cells[0].trim().trim_matches(':').len() < 3 {
        return false;
    }
    table_cells(header).len() == cells.len()
}

fn table_cells(row: &str) -> Vec<&str> {
    let t = row.trim();
    let t = t.strip_prefix('|').unwrap_or(t);
    let t = t.strip_suffix('|').unwrap_or(t);
    let mut cells = Vec::new();
    let mut start = 0;
    let bytes = t.as_bytes();
    let mut k = 0;
    while k < bytes.len() {
        match bytes[k] {
            b'\\' => k += 1,
            b'|' => {
                cells.push(&t[start..k]);
                start = k + 1;
            }
            _ => {}
        }
        k += 1;
    }
    cells.push(&t[start.min(t.len())..]);
    cells
}

/// A kramdown IAL on a line of its own: `{: k="v"}`.
fn is_ial_text(body: &str) -> bool {
    let t = body.trim();
    t.starts_with("{:") && t.ends_with('}')
}

/// `{{SELECT …}}` on a line of its own (not a `{{{` superblock).
fn is_embed(body: &str) -> bool {
    let t = body.trim_end();
    t.starts_with("{{") && !t.starts_with("{{{") && t.ends_with("}}") && t.len() > 4
}

/// The HTML that starts a block at a block start: `<div` (a block to the
/// next blank line) and the kernel's one-line `<iframe`, `<video`,
/// `<audio`. Lute reads other HTML as paragraph text.
fn html_start(body: &str) -> Option<BlockKind> {
    for (tag, kind) in [
        ("<div", BlockKind::Html),
        ("<iframe", BlockKind::Iframe),
        ("<video", BlockKind::Video),
        ("<audio", BlockKind::Audio),
    ] {
        if let Some(rest) = body.strip_prefix(tag) {
            if rest.is_empty() || rest.starts_with([' ', '>', '\t', '/']) {
                return Some(kind);
            }
        }
    }
    None
}

fn interrupting_html(body: &str) -> bool {
    html_start(body).is_some()
}

fn fence_opener(body: &str) -> Option<(u8, usize)> {
    let ch = *body.as_bytes().first()?;
    if ch != b'`' && ch != b'~' {
        return None;
    }
    let len = body.bytes().take_while(|&b| b == ch).count();
    // A backtick fence's info string may not contain backticks.
    (len >= 3 && !(ch == b'`' && body[len..].contains('`'))).then_some((ch, len))
}

fn closes_fence(text: &str, ch: u8, len: usize) -> bool {
    let body = text.trim_start_matches(' ');
    let run = body.bytes().take_while(|&b| b == ch).count();
    run >= len && body[run..].trim().is_empty() && text.len() - body.len() < 4
}

pub(crate) fn is_thematic_break(body: &str) -> bool {
    let t = body.trim_end();
    let Some(&first) = t.as_bytes().first() else {
        return false;
    };
    if !matches!(first, b'-' | b'*' | b'_') {
        return false;
    }
    let mut count = 0;
    for b in t.bytes() {
        if b == first {
            count += 1;
        } else if b != b' ' && b != b'\t' {
            return false;
        }
    }
    count >= 3
}

/// A list item marker at the start of a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Marker {
    pub ordered: bool,
    /// The bullet (`-`, `*`, `+`) or the delimiter (`.`, `)`).
    pub delim: u8,
    pub start: u32,
    /// Bytes of the marker (`-` is 1, `12.` is 3).
    pub width: usize,
}

pub(crate) fn list_marker(body: &str) -> Option<Marker> {
    let bytes = body.as_bytes();
    match bytes.first()? {
        c @ (b'-' | b'*' | b'+') => {
            let next = bytes.get(1);
            (matches!(next, None | Some(b' ') | Some(b'\t')) && !is_thematic_break(body)).then_some(
                Marker {
                    ordered: false,
                    delim: *c,
                    start: 1,
                    width: 1,
                },
            )
        }
        b'0'..=b'9' => {
            let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
            if digits > 9 {
                return None;
            }
            let delim = *bytes.get(digits)?;
            let next = bytes.get(digits + 1);
            (matches!(delim, b'.' | b')') && matches!(next, None | Some(b' ') | Some(b'\t'))).then(
                || Marker {
                    ordered: true,
                    delim,
                    start: body[..digits].parse().unwrap_or(1),
                    width: digits + 1,
                },
            )
        }
        _ => None,
    }
}

/// The attributes of the first block of `kramdown` (with `item_root`, of
/// its first list item): the IAL a read of the block gives for itself.
pub fn root_attrs(kramdown: &str, item_root: bool) -> Option<Attrs> {
    let tree = parse(kramdown);
    let first = tree.first()?;
    let root = if item_root && first.kind == crate::siyuan::BlockKind::List {
        first.children.first()?
    } else {
        first
    };
    root.ial.as_ref().map(|(attrs, _)| attrs.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(BlockKind, usize, usize)> {
        parse(text)
            .iter()
            .map(|n| (n.kind, n.first, n.last))
            .collect()
    }

    #[test]
    fn splits_at_blank_lines_and_keeps_single_blocks_whole() {
        assert_eq!(
            split_blocks("第一段\n\n第二段（会被内核丢弃）"),
            vec!["第一段", "第二段（会被内核丢弃）"]
        );
        assert_eq!(
            split_blocks("one line\nsame paragraph"),
            vec!["one line\nsame paragraph"]
        );
        assert_eq!(split_blocks("\n\n  \n"), Vec::<&str>::new());
    }

    #[test]
    fn headings_fences_and_breaks_split_without_blank_lines() {
        assert_eq!(split_blocks("## T\ntext"), vec!["## T", "text"]);
        assert_eq!(
            split_blocks("para\n```js\nx\n\ny\n```\nafter"),
            vec!["para", "```js\nx\n\ny\n```", "after"]
        );
        assert_eq!(split_blocks("a\n\n---\n\nb"), vec!["a", "---", "b"]);
        assert_eq!(split_blocks("$$\na\n\nb\n$$"), vec!["$$\na\n\nb\n$$"]);
    }

    #[test]
    fn the_kernel_has_no_setext_headings_and_no_indented_code() {
        assert_eq!(
            split_blocks("Title\n---\nbody"),
            vec!["Title", "---", "body"]
        );
        assert_eq!(
            split_blocks("---\ntitle: x\n---\n段"),
            vec!["---", "title: x", "---", "段"]
        );
        assert_eq!(split_blocks("a\n\n    indented"), vec!["a", "    indented"]);
        assert_eq!(split_blocks("text\n    more"), vec!["text\n    more"]);
    }

    #[test]
    fn html_embeds_tables_and_ials_start_blocks_as_lute_does() {
        assert_eq!(
            split_blocks("intro\n<div>x</div>"),
            vec!["intro", "<div>x</div>"]
        );
        assert_eq!(
            split_blocks("intro\n<iframe src=\"a\"></iframe>\nnext"),
            vec!["intro", "<iframe src=\"a\"></iframe>", "next"]
        );
        assert_eq!(
            split_blocks("a\n<table><tr><td>x</td></tr></table>"),
            vec!["a\n<table><tr><td>x</td></tr></table>"]
        );
        assert_eq!(
            split_blocks("intro\n| a | b |\n| - | - |\n| 1 | 2 |"),
            vec!["intro", "| a | b |\n| - | - |\n| 1 | 2 |"]
        );
        assert_eq!(
            split_blocks("a\n{: custom-x=\"1\"}\nb"),
            vec!["a\n{: custom-x=\"1\"}", "b"]
        );
        assert_eq!(
            split_blocks("a\n{{SELECT * FROM blocks}}"),
            vec!["a", "{{SELECT * FROM blocks}}"]
        );
        assert_eq!(split_blocks("a\n2. b"), vec!["a\n2. b"]);
        assert_eq!(split_blocks("a\n1. b"), vec!["a", "1. b"]);
    }

    #[test]
    fn loose_lists_and_nested_items_stay_one_block() {
        let list = "- 完成 SEARCH/REPLACE 解析器\n- 实现 slice 分页阅读\n\n  - 支持 `id:+N` 游标\n  - 支持 `BEGIN:id` 与 `id:END`\n- 编写单元测试";
        assert_eq!(split_blocks(list), vec![list]);
        assert_eq!(split_blocks("- a\n- b\n\npara"), vec!["- a\n- b", "para"]);
        assert_eq!(split_blocks("text\n- item"), vec!["text", "- item"]);
        assert_eq!(split_blocks("1. a\n2. b\n3. c"), vec!["1. a\n2. b\n3. c"]);
        assert_eq!(split_blocks("- a\n* b"), vec!["- a", "* b"]);
        assert_eq!(split_blocks("- a\nlazy"), vec!["- a\nlazy"]);
        assert_eq!(split_blocks("- a\n\n\n\nb"), vec!["- a", "b"]);
    }

    #[test]
    fn quotes_superblocks_and_crlf() {
        let quote = "> 注意：标题块不是容器块。\n>\n> getChildBlocks 对标题返回其下方的块。";
        assert_eq!(split_blocks(quote), vec![quote]);
        assert_eq!(split_blocks("para\n> quote"), vec!["para", "> quote"]);
        assert_eq!(split_blocks("> q\n\n> r"), vec!["> q", "> r"]);
        let sb = "{{{row\nleft\n\n{{{col\nx\n\ny\n}}}\n}}}";
        assert_eq!(split_blocks(&format!("{sb}\n\nafter")), vec![sb, "after"]);
        assert_eq!(split_blocks("a\r\n\r\nb\r\n"), vec!["a", "b"]);
    }

    #[test]
    fn the_tree_of_a_list_in_kramdown_carries_every_ial() {
        let k = "- {: id=\"20240614083125-li01qwe\" updated=\"1\"}完成\n  {: id=\"20240614083125-p01asdf\"}\n- {: id=\"20240614083140-li02rty\"}[X] 实现\n  {: id=\"20240614083140-p02zxcv\"}\n\n  - {: id=\"20240614083201-li03uio\"}支持\n    {: id=\"20240614083201-p03hjkl\"}\n  {: id=\"20240614083201-lst1b2n\"}\n{: id=\"20240614083125-lst0a9x\"}";
        let tree = parse(k);
        assert_eq!(tree.len(), 1);
        let list = &tree[0];
        assert_eq!(list.kind, BlockKind::List);
        let id = |n: &Node| {
            n.ial
                .as_ref()
                .and_then(|(a, _)| a.iter().find(|(k, _)| k == "id").map(|(_, v)| v.clone()))
                .unwrap_or_default()
        };
        assert_eq!(id(list), "20240614083125-lst0a9x");
        assert_eq!(list.children.len(), 2);
        let second = &list.children[1];
        assert_eq!(id(second), "20240614083140-li02rty");
        assert_eq!(second.detail, Detail::Item { task: Some('X') });
        assert_eq!(
            second
                .children
                .iter()
                .map(|c| (c.kind, id(c)))
                .collect::<Vec<_>>(),
            vec![
                (BlockKind::Paragraph, "20240614083140-p02zxcv".to_string()),
                (BlockKind::List, "20240614083201-lst1b2n".to_string())
            ]
        );
        assert_eq!(
            id(&second.children[1].children[0]),
            "20240614083201-li03uio"
        );
        assert_eq!(second.children[1].children[0].column, 2);
    }

    #[test]
    fn callouts_and_nested_quotes() {
        assert_eq!(
            kinds("> [!NOTE]\n> body\n\nafter"),
            vec![(BlockKind::Callout, 0, 1), (BlockKind::Paragraph, 3, 3)]
        );
        let tree = parse("> a\n> {: id=\"x\"}\n>\n> b\n{: id=\"q\"}");
        assert_eq!(tree.len(), 1);
        assert_eq!(tree[0].children.len(), 2);
        assert_eq!(tree[0].children[1].first, 3);
        assert!(tree[0].ial.is_some());
    }

    proptest::proptest! {
        /// A line that is not blank is one block, whatever it starts with
        /// (the block diff's planner relies on it, docs/PERFORMANCE.md
        /// cut 43).
        #[test]
        fn a_line_that_is_not_blank_is_one_block(
            line in "[ \t]{0,4}(- |\\* |\\+ |> |#{1,7} ?|1[.)] ?|```|~~~|---|\\*\\*\\*|===|\\[a\\]: |<div>|<iframe>|\\{\\{\\{|\\{: id=\"x\"\\}|\\$\\$|\\|)?[a-c中 \u{3000}\u{a0}\u{c}|:{}\\-*#>]{0,6}[a-c中|:{}\\-*#>][ \t\u{3000}]{0,2}",
        ) {
            proptest::prop_assert_eq!(split_blocks(&line), vec![line.as_str()]);
        }
    }
}
