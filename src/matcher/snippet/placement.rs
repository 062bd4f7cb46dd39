//! Where each part of a snippet goes (issue 43): the file lines its kept
//! lines stand on, found as one chain, not as two anchor lines.
//!
//! A part's lines that are in the file (compared trimmed) must stand on
//! file lines in the same order, close together: between two of them the
//! file may have at most [`MAX_EXTRA`] more non-blank lines than the part
//! has new lines there (lines the part deletes). Of all such chains in the
//! window the parts around it leave, the one keeping the most lines wins,
//! then the one deleting the fewest, then the one whose indentation agrees
//! with the part's throughout; two places that still tie are refused as
//! ambiguous. So a repeated line (`}`, `return`, `else`, `end`) is placed
//! by the lines around it instead of refused, and a part whose distinctive
//! lines are in one place is never put in another.
//!
//! Parts are placed in rounds: a part with one best place in the whole file
//! is fixed first, and fixes bound the window of the parts between them.

use super::{letters, FileLine};
use crate::matcher::indent::{columns, IndentMap};
use crate::matcher::normalize::indent_of;
use crate::matcher::prose::is_cjk;

/// Non-blank file lines between two kept lines of a part, beyond the new
/// lines the part has there, that a chain may skip (the part deletes
/// them).
pub(super) const MAX_EXTRA: usize = 2;

/// A chain's kept lines must weigh this much in all ([`weight`]), so a
/// part held only by `}` or `});` is not placed.
const EVIDENCE: usize = 6;

/// The letters or digits a chain of lines found once in the file needs.
const MIN_EVIDENCE: usize = 3;

/// What a kept line tells about where a chain is: its letters and digits,
/// a Chinese or Japanese character counting two (it is a word, written
/// without spaces: `# 标题` says as much as `# Title`).
fn weight(key: &str) -> usize {
    letters(key) + key.chars().filter(|&c| is_cjk(c)).count()
}

/// The tab width indentation levels are compared at.
const TAB: usize = 4;

/// Candidate file lines per part line looked at; a part line more common
/// than this (`}` in a long file) anchors nothing on its own, but is still
/// paired by the writer's alignment.
const MAX_PLACES: usize = 4096;

/// A placed part: its first and last kept lines, `(index in the part, file
/// line)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Chain {
    pub first: (usize, usize),
    pub last: (usize, usize),
}

/// Why a part has no single place.
pub(super) enum Unplaced {
    /// No line of the part is in the window (or too few letters are).
    Nowhere,
    /// Two or more places tie: the file lines where each starts, and the
    /// part line named for them.
    Ambiguous { line: String, at: Vec<usize> },
    /// One place, held only by lines with too few letters (`}`) in a window
    /// no placed part bounds: placed once a neighbour is.
    Weak,
}

/// Places every part in order: a chain per part, or the first part that
/// has none (its index and why).
pub(super) fn place_parts(
    file: &[FileLine<'_>],
    parts: &[Vec<&str>],
) -> Result<Vec<Chain>, (usize, Unplaced)> {
    let nonblank = prefix_nonblank(file);
    let mut fixed: Vec<Option<Chain>> = vec![None; parts.len()];
    loop {
        let mut progress = false;
        let mut pending = None;
        for k in 0..parts.len() {
            if fixed[k].is_some() {
                continue;
            }
            let (lo, hi) = window(&fixed, k, file.len());
            let start = if lo > 0 || hi < file.len() {
                Start::Bounded
            } else {
                Start::Open
            };
            match best_chain(file, &nonblank, &parts[k], lo..hi, start) {
                Ok(chain) => {
                    fixed[k] = Some(chain);
                    progress = true;
                }
                Err(Unplaced::Nowhere) => return Err((k, Unplaced::Nowhere)),
                Err(tie) => {
                    if pending.is_none() {
                        pending = Some((k, tie));
                    }
                }
            }
        }
        if !progress {
            // A part that starts by closing the block its predecessor
            // opened (`}` after `fn a() {` and a marker) goes where that
            // block closes: the first line after the predecessor at the
            // part's level or shallower.
            for k in 1..parts.len() {
                if fixed[k].is_some() {
                    continue;
                }
                let Some(before) = fixed[k - 1] else {
                    continue;
                };
                let (_, hi) = window(&fixed, k, file.len());
                if let Some(chain) = closing(file, &nonblank, parts, k, before, hi) {
                    fixed[k] = Some(chain);
                    progress = true;
                }
            }
        }
        if let Some((k, unplaced)) = pending.filter(|_| !progress) {
            return Err(match unplaced {
                Unplaced::Weak => (k, Unplaced::Nowhere),
                other => (k, other),
            });
        }
        if !progress {
            break;
        }
    }
    Ok(fixed.into_iter().flatten().collect())
}

/// The file lines part `k` may go in: after the placed part before it,
/// before the placed part after it (`len`: the file's line count).
fn window(fixed: &[Option<Chain>], k: usize, len: usize) -> (usize, usize) {
    let lo = fixed[..k]
        .iter()
        .rev()
        .find_map(|c| c.map(|c| c.last.1 + 1))
        .unwrap_or(0);
    let hi = fixed[k + 1..]
        .iter()
        .find_map(|c| c.map(|c| c.first.1))
        .unwrap_or(len);
    (lo, hi)
}

/// Part `k` placed by nesting: its first non-blank line, at the level the
/// predecessor's indentation maps it to, is the first file line after the
/// predecessor at that level or shallower — the end of the block the
/// elided lines are inside. The part's best chain must start there.
fn closing(
    file: &[FileLine<'_>],
    nonblank: &[usize],
    parts: &[Vec<&str>],
    k: usize,
    before: Chain,
    hi: usize,
) -> Option<Chain> {
    let prev = &parts[k - 1];
    let shift = IndentMap::infer(&[(
        indent_of(prev[before.last.0]),
        indent_of(file[before.last.1].text),
    )])?;
    let part = &parts[k];
    let first = part.iter().position(|l| !l.trim().is_empty())?;
    let level = shift.apply(indent_of(part[first]))?;
    let width = columns(&level, TAB);
    let q = (before.last.1 + 1..hi)
        .find(|&i| !file[i].key.is_empty() && columns(indent_of(file[i].text), TAB) <= width)?;
    if file[q].key != part[first].trim() || indent_of(file[q].text) != level {
        return None;
    }
    best_chain(file, nonblank, part, q..hi, Start::At(first, q)).ok()
}

/// `counts[i]`: non-blank file lines before line `i`.
fn prefix_nonblank(file: &[FileLine<'_>]) -> Vec<usize> {
    let mut counts = Vec::with_capacity(file.len() + 1);
    let mut n = 0;
    counts.push(0);
    for line in file {
        if !line.key.is_empty() {
            n += 1;
        }
        counts.push(n);
    }
    counts
}

/// A chain's score, compared in order: lines kept, fewer lines deleted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Score {
    kept: usize,
    /// Negated deletions, so larger is better.
    spared: isize,
}

/// One (part line, file line) pairing in the chain search.
#[derive(Clone, Copy)]
struct Node {
    j: usize,
    p: usize,
    score: Score,
    /// The node before it in its best chain.
    back: Option<usize>,
}

/// Every (part line, file line) pairing in `window` with the best chain
/// ending there (the chain search's table). `fixed_start`: the pairing
/// every chain must start with.
fn chain_nodes(
    file: &[FileLine<'_>],
    nonblank: &[usize],
    keys: &[&str],
    window: std::ops::Range<usize>,
    fixed_start: Option<(usize, usize)>,
) -> Vec<Node> {
    let (lo, hi) = (window.start, window.end);
    // New lines of the part between two of its lines, by prefix count.
    let mut part_nonblank = vec![0usize];
    for key in keys {
        part_nonblank.push(part_nonblank.last().unwrap_or(&0) + usize::from(!key.is_empty()));
    }
    let mut nodes: Vec<Node> = Vec::new();
    // Node indices per part line, by ascending file line.
    let mut by_line: Vec<Vec<usize>> = vec![Vec::new(); keys.len()];
    for (j, key) in keys.iter().enumerate() {
        if key.is_empty() {
            continue;
        }
        let places: Vec<usize> = (lo..hi).filter(|&p| file[p].key == *key).collect();
        if places.is_empty() || places.len() > MAX_PLACES {
            continue;
        }
        for p in places {
            let mut best = Node {
                j,
                p,
                score: Score { kept: 1, spared: 0 },
                back: None,
            };
            for jp in (0..j).rev() {
                let new_between = part_nonblank[j] - part_nonblank[jp + 1];
                for &n in by_line[jp].iter().rev() {
                    let prev = &nodes[n];
                    if prev.p >= p {
                        continue;
                    }
                    let file_between = nonblank[p] - nonblank[prev.p + 1];
                    if file_between > new_between + MAX_EXTRA {
                        break;
                    }
                    let deleted = file_between.saturating_sub(new_between);
                    let score = Score {
                        kept: prev.score.kept + 1,
                        spared: prev.score.spared - deleted as isize,
                    };
                    if score > best.score {
                        best.score = score;
                        best.back = Some(n);
                    }
                }
            }
            if best.back.is_none() && fixed_start.is_some_and(|s| s != (j, p)) {
                continue;
            }
            by_line[j].push(nodes.len());
            nodes.push(best);
        }
    }
    nodes
}

/// A chain of lines kept: its ends, and every (part line, file line) pair.
type Found = (Chain, Vec<(usize, usize)>);

/// Every chain with the top score, one per place in the file.
fn top_chains(nodes: &[Node]) -> Vec<Found> {
    let Some(top) = nodes.iter().map(|n| n.score).max() else {
        return Vec::new();
    };
    // Every chain with the top score, as (first, last) pairs; a chain that
    // is another's tail is the same place found shorter and cannot tie.
    let mut chains: Vec<Found> = Vec::new();
    for (i, node) in nodes.iter().enumerate() {
        if node.score != top {
            continue;
        }
        let mut pairs = Vec::new();
        let mut at = Some(i);
        while let Some(n) = at {
            pairs.push((nodes[n].j, nodes[n].p));
            at = nodes[n].back;
        }
        pairs.reverse();
        let chain = Chain {
            first: pairs[0],
            last: pairs[pairs.len() - 1],
        };
        // One place in the file is one candidate, however its lines pair:
        // the pairing with the part's earliest lines is kept (the writer
        // aligns the lines again).
        let same = |c: &Chain| c.first.1 == chain.first.1 && c.last.1 == chain.last.1;
        match chains.iter_mut().find(|(c, _)| same(c)) {
            Some(found) if (chain.first.0, chain.last.0) < (found.0.first.0, found.0.last.0) => {
                *found = (chain, pairs);
            }
            Some(_) => {}
            None => chains.push((chain, pairs)),
        }
    }
    chains
}

/// How [`best_chain`] may start a chain.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Start {
    /// Anywhere in a window no placed part bounds: a chain held only by
    /// lines with few letters is weak.
    Open,
    /// Anywhere between placed parts: one place is enough whatever its
    /// letters.
    Bounded,
    /// With this (part line, file line) pairing, between placed parts.
    At(usize, usize),
}

/// The best chain of `part` inside file lines `window`, started as `start`
/// allows.
fn best_chain(
    file: &[FileLine<'_>],
    nonblank: &[usize],
    part: &[&str],
    window: std::ops::Range<usize>,
    start: Start,
) -> Result<Chain, Unplaced> {
    let bounded = start != Start::Open;
    let fixed_start = match start {
        Start::At(j, p) => Some((j, p)),
        Start::Open | Start::Bounded => None,
    };
    let keys: Vec<&str> = part.iter().map(|l| l.trim()).collect();
    let nodes = chain_nodes(file, nonblank, &keys, window, fixed_start);
    let mut chains = top_chains(&nodes);
    if chains.is_empty() {
        return Err(Unplaced::Nowhere);
    }
    let evidence =
        |pairs: &[(usize, usize)]| pairs.iter().map(|&(j, _)| weight(keys[j])).sum::<usize>();
    // A short chain (`def c():`) holds when one of its lines is nowhere
    // else in the file.
    let unique = |pairs: &[(usize, usize)]| {
        pairs
            .iter()
            .any(|&(j, _)| file.iter().filter(|f| f.key == keys[j]).count() == 1)
    };
    let tied = chains.len();
    let top_line = chains.first().map_or(0, |(c, _)| c.first.0);
    let top_places: Vec<usize> = chains.iter().map(|(c, _)| c.first.1).collect();
    let strong = |pairs: &[(usize, usize)]| {
        let letters = evidence(pairs);
        letters >= EVIDENCE || (letters >= MIN_EVIDENCE && unique(pairs))
    };
    if tied == 1 && !bounded && !strong(&chains[0].1) {
        return Err(Unplaced::Weak);
    }
    // Between placed parts, one place is enough whatever its letters.
    if !bounded {
        chains.retain(|(_, pairs)| strong(pairs));
    }
    if chains.len() > 1 {
        // Where the part's indentation agrees with the file's on every kept
        // line (one shift explains them all), that place wins.
        let agrees = |pairs: &[(usize, usize)]| {
            let shifts: Vec<(&str, &str)> = pairs
                .iter()
                .map(|&(j, p)| (indent_of(part[j]), indent_of(file[p].text)))
                .collect();
            IndentMap::infer(&shifts).is_some()
        };
        let agreeing: Vec<_> = chains.iter().filter(|(_, p)| agrees(p)).cloned().collect();
        if agreeing.len() == 1 {
            chains = agreeing;
        }
    }
    match chains.as_slice() {
        // Weak lines in two places or more: still two places.
        [] if tied > 1 => Err(Unplaced::Ambiguous {
            line: keys[top_line].to_string(),
            at: top_places,
        }),
        [] => Err(Unplaced::Nowhere),
        [(one, _)] => Ok(*one),
        many => {
            let j = many[0].0.first.0;
            Err(Unplaced::Ambiguous {
                line: keys[j].to_string(),
                at: many.iter().map(|(c, _)| c.first.1).collect(),
            })
        }
    }
}
