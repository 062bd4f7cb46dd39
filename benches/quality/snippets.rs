//! Edit snippets on real code (issue 43): the quality bench's snippet table
//! and the `quality` test's snippet check.
//!
//! From the same third-party sources as the code corpus (`sources.rs`: the
//! Rust crates `Cargo.lock` pins, the JS/TS packages `package-lock.json`
//! pins) we make the edit a fast-apply model is asked for and write the
//! snippet the way such models write one: the changed lines with a few
//! lines of context, the unchanged code around them written as an elision
//! marker in one of the wordings models use, sometimes the enclosing
//! block's first and closing lines with markers inside, sometimes two parts,
//! sometimes with no marker where the part reaches the file's start or end,
//! sometimes written without the file's indentation. Each case runs through
//! `plan_edit_snippet` and through a naive line-anchoring baseline (a part
//! replaces the file from its first line to its last, each found once) and
//! is classified against the intended file: placed (byte for byte),
//! refused, or wrong.

use std::collections::HashMap;

use editkit::{plan_edit_snippet, SnippetOptions};

use super::{seed_of, Outcome, Rng, Source};

/// The edit the snippet carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SnippetKind {
    /// One line changed, a few lines of context, markers around.
    LineChanged,
    /// One line added.
    LineAdded,
    /// One line deleted (the snippet shows its neighbours without it).
    LineDeleted,
    /// One line changed, shown inside its enclosing block: the block's
    /// first line, a marker, the context, a marker, the block's closing
    /// line.
    InBlock,
    /// A line added at the end of a block, before its closing line.
    BlockEndAdded,
    /// Two lines changed far apart, a marker between the two parts.
    TwoParts,
}

impl SnippetKind {
    pub const ALL: [SnippetKind; 6] = [
        SnippetKind::LineChanged,
        SnippetKind::LineAdded,
        SnippetKind::LineDeleted,
        SnippetKind::InBlock,
        SnippetKind::BlockEndAdded,
        SnippetKind::TwoParts,
    ];

    pub fn name(self) -> &'static str {
        match self {
            SnippetKind::LineChanged => "line changed",
            SnippetKind::LineAdded => "line added",
            SnippetKind::LineDeleted => "line deleted",
            SnippetKind::InBlock => "inside its block",
            SnippetKind::BlockEndAdded => "added before a block's end",
            SnippetKind::TwoParts => "two parts",
        }
    }
}

/// The wordings of an elision marker models write in `//` languages.
pub const MARKERS: [&str; 14] = [
    "// ... existing code ...",
    "// ...",
    "/* ... */",
    "// rest of code unchanged",
    "// ... rest of the file unchanged ...",
    "// Existing code...",
    "// ... keep existing code ...",
    "// ... (unchanged) ...",
    "// REST OF CODE UNCHANGED",
    "/* … */",
    "// ...existing code...",
    "// ... other code ...",
    "// [rest of the function unchanged]",
    "// ... Existing Code ...",
];

/// One snippet case.
pub struct SnippetCase {
    pub kind: SnippetKind,
    pub file: usize,
    pub snippet: String,
    pub expected: String,
}

/// Builds up to `per_file` cases of every kind from each source (LF files).
pub fn build(sources: &[Source], per_file: usize) -> Vec<SnippetCase> {
    let mut out = Vec::new();
    for (file, source) in sources.iter().enumerate() {
        if source.text.contains('\r') {
            continue;
        }
        let lines: Vec<&str> = source.text.split('\n').collect();
        let mut rng = Rng::new(seed_of(&source.name));
        for kind in SnippetKind::ALL {
            let mut made = 0;
            for _ in 0..per_file * 8 {
                if made == per_file {
                    break;
                }
                if let Some(case) = make(kind, file, source, &lines, &mut rng) {
                    out.push(case);
                    made += 1;
                }
            }
        }
    }
    out
}

fn indent(line: &str) -> &str {
    &line[..line.len() - line.trim_start().len()]
}

fn alnum(line: &str) -> usize {
    line.chars().filter(|c| c.is_alphanumeric()).count()
}

/// A line an edit may change: real code, not a comment, not a closing line.
fn editable(line: &str) -> bool {
    let t = line.trim();
    alnum(t) >= 6
        && !t.starts_with("//")
        && !t.starts_with("/*")
        && !t.starts_with('*')
        && !t.contains("...")
        && !t.contains('…')
}

/// The line with its last identifier of two or more characters renamed:
/// `total` → `totalNext` (`total_next` in Rust).
fn changed(line: &str, rust: bool) -> Option<String> {
    let bytes = line.as_bytes();
    let mut end = None;
    let mut k = bytes.len();
    while k > 0 {
        k -= 1;
        if bytes[k].is_ascii_alphanumeric() || bytes[k] == b'_' {
            let stop = k + 1;
            let mut start = k;
            while start > 0
                && (bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_')
            {
                start -= 1;
            }
            if stop - start >= 2 && bytes[start].is_ascii_alphabetic() {
                end = Some(stop);
                break;
            }
            k = start;
        }
    }
    let stop = end?;
    let suffix = if rust { "_next" } else { "Next" };
    Some(format!("{}{suffix}{}", &line[..stop], &line[stop..]))
}

fn added(indent: &str, rust: bool) -> String {
    if rust {
        format!("{indent}editkit_added(1);")
    } else {
        format!("{indent}editkitAdded(1);")
    }
}

/// The enclosing block of line `t`: its first line (the nearest line above
/// with less indentation, ending in `{`) and its closing line (the first
/// line after `t` at that indentation starting with `}`).
fn enclosing(lines: &[&str], t: usize) -> Option<(usize, usize)> {
    let own = indent(lines[t]).len();
    let h = (t.saturating_sub(40)..t)
        .rev()
        .find(|&i| !lines[i].trim().is_empty() && indent(lines[i]).len() < own)?;
    if !lines[h].trim_end().ends_with('{') {
        return None;
    }
    let level = indent(lines[h]);
    let e = (t + 1..lines.len().min(t + 40))
        .find(|&i| !lines[i].trim().is_empty() && indent(lines[i]).len() <= level.len())?;
    (indent(lines[e]) == level && lines[e].trim_start().starts_with('}')).then_some((h, e))
}

fn make(
    kind: SnippetKind,
    file: usize,
    source: &Source,
    lines: &[&str],
    rng: &mut Rng,
) -> Option<SnippetCase> {
    let rust = source.is_rust();
    let n = lines.len();
    if n < 12 {
        return None;
    }
    let t = 2 + rng.below(n - 4);
    if !editable(lines[t]) {
        return None;
    }
    let marker = MARKERS[rng.below(MARKERS.len())];
    let context = 1 + rng.below(3);
    let has = |line: &str| lines.iter().any(|l| l.trim() == line.trim());
    // The file after the edit, as lines; the snippet's parts, each a range
    // of the edited file's lines (with optional inner markers).
    let mut edited: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    let mut parts: Vec<Vec<String>> = Vec::new();
    let show =
        |edited: &[String], from: usize, to: usize| -> Vec<String> { edited[from..to].to_vec() };
    match kind {
        SnippetKind::LineChanged | SnippetKind::LineAdded | SnippetKind::LineDeleted => {
            let (from, to) = (t.saturating_sub(context), (t + 1 + context).min(n));
            match kind {
                SnippetKind::LineChanged => {
                    let new = changed(lines[t], rust)?;
                    if has(&new) {
                        return None;
                    }
                    edited[t] = new;
                    parts.push(show(&edited, from, to));
                }
                SnippetKind::LineAdded => {
                    let next = (t + 1..n).find(|&i| !lines[i].trim().is_empty())?;
                    let deeper = indent(lines[next]).len() >= indent(lines[t]).len();
                    let level = if deeper {
                        indent(lines[next])
                    } else {
                        indent(lines[t])
                    };
                    edited.insert(t + 1, added(level, rust));
                    parts.push(show(&edited, from, to + 1));
                }
                _ => {
                    // A deletion shows the lines on both sides of it.
                    if lines[t - 1].trim().is_empty() || lines[t + 1].trim().is_empty() {
                        return None;
                    }
                    edited.remove(t);
                    parts.push(show(&edited, from, to - 1));
                }
            }
        }
        SnippetKind::InBlock => {
            let (h, e) = enclosing(lines, t)?;
            let new = changed(lines[t], rust)?;
            if has(&new) {
                return None;
            }
            edited[t] = new;
            let (from, to) = ((t - context).max(h + 1), (t + 1 + context).min(e));
            let inner = format!("{}{}", indent(lines[t]), marker.trim());
            let mut part = vec![lines[h].to_string()];
            if from > h + 1 {
                part.push(inner.clone());
            }
            part.extend(show(&edited, from, to));
            if to < e {
                part.push(inner);
            }
            part.push(lines[e].to_string());
            parts.push(part);
        }
        SnippetKind::BlockEndAdded => {
            // `t` is the block's last line: the next non-blank one closes it.
            let e = (t + 1..n).find(|&i| !lines[i].trim().is_empty())?;
            if !(lines[e].trim_start().starts_with('}')
                && indent(lines[e]).len() < indent(lines[t]).len())
            {
                return None;
            }
            edited.insert(e, added(indent(lines[t]), rust));
            parts.push(show(&edited, t.saturating_sub(context), e + 2));
        }
        SnippetKind::TwoParts => {
            let u = t + 2 * context + 8 + rng.below(30);
            if u + context + 2 >= n || !editable(lines[u]) {
                return None;
            }
            let (a, b) = (changed(lines[t], rust)?, changed(lines[u], rust)?);
            if has(&a) || has(&b) {
                return None;
            }
            edited[t] = a;
            edited[u] = b;
            parts.push(show(&edited, t.saturating_sub(context), t + 1 + context));
            parts.push(show(&edited, u - context, u + 1 + context));
        }
    }
    // A part that starts at the file's first line is written without the
    // marker before it half the time.
    let starts_file = kind != SnippetKind::InBlock && t <= context;
    let mut snippet: Vec<String> = Vec::new();
    if !(starts_file && rng.below(2) == 0) {
        snippet.push(marker.to_string());
    }
    for (k, part) in parts.iter().enumerate() {
        if k > 0 {
            snippet.push(marker.to_string());
        }
        snippet.extend(part.iter().cloned());
    }
    snippet.push(marker.to_string());
    // One case in six is written without the file's indentation.
    if rng.below(6) == 0 {
        let least = snippet
            .iter()
            .filter(|l| !l.trim().is_empty())
            .map(|l| indent(l).len())
            .min()
            .unwrap_or(0);
        snippet = snippet
            .into_iter()
            .map(|l| l.get(least..).unwrap_or("").to_string())
            .collect();
    }
    let expected = edited.join("\n");
    if expected == source.text {
        return None;
    }
    Some(SnippetCase {
        kind,
        file,
        snippet: snippet.join("\n") + "\n",
        expected,
    })
}

/// How a snippet case came out.
pub fn run(case: &SnippetCase, text: &str) -> Outcome {
    match plan_edit_snippet(text, &case.snippet, &SnippetOptions::default()) {
        Ok(r) if r.content == case.expected => Outcome::Exact,
        Ok(_) => Outcome::Wrong,
        Err(_) => Outcome::Refused,
    }
}

/// The naive baseline: each part (the lines between markers: comment lines
/// with `...`, `…` or `unchanged`) replaces the file from its first line to
/// its last, each found exactly once (trimmed) after the part before.
pub fn run_naive(case: &SnippetCase, text: &str) -> Outcome {
    let file: Vec<&str> = text.split('\n').collect();
    let is_marker = |l: &str| {
        let t = l.trim();
        (t.starts_with("//") || t.starts_with("/*"))
            && (t.contains("...") || t.contains('…') || t.to_lowercase().contains("unchanged"))
    };
    let mut parts: Vec<Vec<&str>> = vec![Vec::new()];
    for line in case.snippet.trim_end_matches('\n').split('\n') {
        if is_marker(line) {
            parts.push(Vec::new());
        } else if let Some(p) = parts.last_mut() {
            p.push(line);
        }
    }
    let mut out: Vec<&str> = Vec::new();
    let mut from = 0;
    for part in parts.iter().filter(|p| !p.is_empty()) {
        let once = |key: &str, from: usize| {
            let at: Vec<usize> = (from..file.len())
                .filter(|&i| file[i].trim() == key.trim())
                .collect();
            (at.len() == 1).then(|| at[0])
        };
        let (Some(a), Some(b)) = (once(part[0], from), once(part[part.len() - 1], from)) else {
            return Outcome::Refused;
        };
        if b < a {
            return Outcome::Refused;
        }
        out.extend(&file[from..a]);
        out.extend(part.iter());
        from = b + 1;
    }
    out.extend(&file[from..]);
    if out.join("\n") == case.expected {
        Outcome::Exact
    } else {
        Outcome::Wrong
    }
}

/// (placed, refused, wrong) per kind, engine and baseline.
#[derive(Clone, Copy, Default)]
pub struct SnippetTally {
    pub cases: u32,
    pub placed: u32,
    pub refused: u32,
    pub wrong: u32,
    pub naive_placed: u32,
    pub naive_wrong: u32,
}

impl SnippetTally {
    /// Adds `other`'s counts to these (a total over kinds).
    pub fn merge(&mut self, other: &SnippetTally) {
        self.cases += other.cases;
        self.placed += other.placed;
        self.refused += other.refused;
        self.wrong += other.wrong;
        self.naive_placed += other.naive_placed;
        self.naive_wrong += other.naive_wrong;
    }
}

/// Runs every case: the tallies per kind and the indices of wrong cases.
pub fn evaluate(
    sources: &[Source],
    cases: &[SnippetCase],
) -> (HashMap<SnippetKind, SnippetTally>, Vec<usize>) {
    let mut tallies: HashMap<SnippetKind, SnippetTally> = HashMap::new();
    let mut wrong = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        let text = &sources[case.file].text;
        let t = tallies.entry(case.kind).or_default();
        t.cases += 1;
        match run(case, text) {
            Outcome::Exact | Outcome::Placed => t.placed += 1,
            Outcome::Refused => t.refused += 1,
            Outcome::Wrong => {
                t.wrong += 1;
                wrong.push(i);
            }
        }
        match run_naive(case, text) {
            Outcome::Exact | Outcome::Placed => t.naive_placed += 1,
            Outcome::Wrong => t.naive_wrong += 1,
            Outcome::Refused => {}
        }
    }
    (tallies, wrong)
}
