//! Candidate windows for the similarity-based parts of the matcher
//! (`block_similarity` and the failure report's closest region), found
//! with a cheap filter before any edit distance runs.
//!
//! The filter maps every content word token (delimiters such as `(` or `;`
//! are in every line and carry no signal) once to a slot of the search's
//! token table (open addressing on the token hashes), then slides a window
//! of whole lines as long as the search over the content, keeping the
//! multiset intersection of the window's tokens with the search's (the
//! Dice coefficient of the two token bags) up to date in O(1) per token
//! entering or leaving. It keeps the best few windows that do not overlap
//! each other: linear in the content's tokens, with no sort of all
//! windows. Only those few ever reach a sequence similarity.

use super::{Cx, Needle};
use crate::matcher::normalize::{for_each_token, token_hash, tokens};
use crate::text::HashedKeyMap;

/// A run of whole lines: `first..first + count`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Window {
    pub first: usize,
    pub count: usize,
    /// Token-bag similarity (Dice) with the search.
    pub dice: f64,
    /// How many of the search's lines the window holds equal, in order
    /// (under the fold key); 0 until a strategy counts them.
    pub equal_lines: usize,
}

impl Window {
    /// Two windows are one placement when they share most of their lines
    /// (a window and its ±1-line variants). Windows that merely touch — the
    /// last line of one being the first of the next, as with repeated
    /// macro calls — are different places, and each is the other's
    /// runner-up: treating any overlap as "the same place" once let a
    /// shifted window win without the margin being checked.
    pub(crate) fn same_place(&self, other: &Window) -> bool {
        let shared = (self.first + self.count)
            .min(other.first + other.count)
            .saturating_sub(self.first.max(other.first));
        2 * shared > self.count.min(other.count)
    }
}

/// How many windows in distinct places the filter keeps.
const KEEP: usize = 8;

/// The best windows in distinct places as long as the search (best first),
/// computed once per call and kept in the needle. `None` when the budget
/// ran out.
pub(crate) fn best_windows(cx: &mut Cx<'_, '_>, needle: &Needle) -> Option<Vec<Window>> {
    if let Some(cached) = needle.heads.get() {
        return cached.clone();
    }
    let computed = compute_best_windows(cx, &needle.lines);
    needle.heads.get_or_init(|| computed).clone()
}

fn compute_best_windows(cx: &mut Cx<'_, '_>, search_lines: &[String]) -> Option<Vec<Window>> {
    let size = search_lines.len();
    let content = cx.content;
    let n = content.lines().len();
    if size == 0 || size > n {
        return Some(Vec::new());
    }
    let words = content.words();
    let bag = SearchBag::new(search_lines, &words.vocabulary);
    if bag.total == 0 {
        return Some(Vec::new());
    }
    // The words' table is charged whether this call built it or found it
    // kept: no answer depends on the calls before.
    if !cx.budget.spend(content.body.len().saturating_mul(2)) {
        return None;
    }
    let total_words = bag.total;
    let mut window = Sliding {
        counts: bag.counts,
        overlap: 0,
    };
    let mut total = 0u32;
    let mut kept: Vec<Window> = Vec::with_capacity(KEEP + 1);
    // Once KEEP windows are kept, a window no better than the worst of
    // them can never enter (`keep_best` would refuse it): most windows
    // share a word or two with the search, so this skips their scan.
    let mut floor = f64::NEG_INFINITY;
    // Lines are read through `get`, not `[]`: in the size-optimised wasm
    // a bounds-checked index is a call (its panic path keeps it from being
    // inlined), one per word in the hottest loop of a failed search.
    for l in 0..n {
        let (count, entering) = words.line(l);
        total += count;
        window.enter(entering);
        if let Some(gone) = l.checked_sub(size) {
            let (count, leaving) = words.line(gone);
            total -= count;
            window.leave(leaving);
        }
        if l + 1 >= size && window.overlap > 0 {
            let dice = 2.0 * f64::from(window.overlap) / f64::from(total_words + total);
            if dice <= floor {
                continue;
            }
            let first = l + 1 - size;
            keep_best(
                &mut kept,
                Window {
                    first,
                    count: size,
                    dice,
                    equal_lines: 0,
                },
            );
            if kept.len() >= KEEP {
                floor = kept.iter().map(|k| k.dice).fold(f64::INFINITY, f64::min);
            }
        }
    }
    kept.sort_by(|a, b| b.dice.total_cmp(&a.dice).then(a.first.cmp(&b.first)));
    Some(kept)
}

/// The multiset intersection of a window's words with the search's, kept
/// up to date as lines enter and leave the window.
struct Sliding {
    /// Per content word id: how often the window has it, and how often
    /// the search has it (0 for the words the search lacks, which never
    /// move the overlap). Indexed by the id itself: one read per word.
    counts: Vec<Count>,
    /// Σ min(have, need) over the words.
    overlap: u32,
}

#[derive(Clone, Copy, Default)]
struct Count {
    have: u32,
    need: u32,
}

impl Sliding {
    #[inline(always)]
    fn enter(&mut self, ids: &[u32]) {
        for &id in ids {
            if let Some(c) = self.counts.get_mut(id as usize) {
                self.overlap += u32::from(c.have < c.need);
                c.have += 1;
            }
        }
    }

    #[inline(always)]
    fn leave(&mut self, ids: &[u32]) {
        for &id in ids {
            if let Some(c) = self.counts.get_mut(id as usize) {
                c.have -= 1;
                self.overlap -= u32::from(c.have < c.need);
            }
        }
    }
}

/// The search's word tokens as counts over the content's word ids (words
/// the content lacks only count toward the total).
struct SearchBag {
    counts: Vec<Count>,
    /// Word tokens in all.
    total: u32,
}

impl SearchBag {
    fn new(search_lines: &[String], vocabulary: &HashedKeyMap<u32>) -> SearchBag {
        let mut counts = vec![Count::default(); vocabulary.len()];
        let mut total = 0u32;
        for line in search_lines {
            for_each_token(line, |s, e, word| {
                if !word {
                    return;
                }
                total += 1;
                let id = vocabulary.get(&token_hash(&line[s..e]));
                if let Some(c) = id.and_then(|&id| counts.get_mut(id as usize)) {
                    c.need += 1;
                }
            });
        }
        SearchBag { counts, total }
    }
}

/// Keeps at most [`KEEP`] windows in distinct places, the best ones.
fn keep_best(kept: &mut Vec<Window>, w: Window) {
    let beaten = kept.iter().any(|k| k.same_place(&w) && k.dice >= w.dice);
    if beaten {
        return;
    }
    kept.retain(|k| !k.same_place(&w));
    if kept.len() >= KEEP {
        let Some((worst, _)) = kept
            .iter()
            .enumerate()
            .min_by(|a, b| a.1.dice.total_cmp(&b.1.dice))
        else {
            return;
        };
        if kept[worst].dice >= w.dice {
            return;
        }
        kept.swap_remove(worst);
    }
    kept.push(w);
}

/// The fold keys of lines `first..first + count` joined with `\n`.
pub(crate) fn folded_text(cx: &Cx<'_, '_>, first: usize, count: usize) -> String {
    let mut out = String::new();
    for i in first..first + count {
        if i > first {
            out.push('\n');
        }
        out.push_str(cx.content.fold_key(i));
    }
    out
}

/// The largest similarity two texts of these lengths can have.
fn length_bound(a: usize, b: usize) -> f64 {
    if a + b == 0 {
        1.0
    } else {
        2.0 * a.min(b) as f64 / (a + b) as f64
    }
}

/// Sequence similarity of two texts, charged to the budget first (Myers is
/// O((N+M)·D)). When their lengths alone keep it below `floor`, that bound
/// is returned instead, uncomputed (it only ever overestimates, so a caller
/// comparing against `floor` decides the same). `None` when the budget
/// cannot pay.
pub(crate) fn similarity(cx: &mut Cx<'_, '_>, a: &str, b: &str, floor: f64) -> Option<f64> {
    let (ca, cb) = (a.chars().count(), b.chars().count());
    let bound = length_bound(ca, cb);
    if bound < floor {
        return Some(bound);
    }
    // Matches can be no more than the shared bytes: a linear bound that
    // spares most edit distances between unrelated texts.
    if !cx.budget.spend(a.len() + b.len()) {
        return None;
    }
    let bag = bag_bound(a, b, ca + cb);
    if bag < floor {
        return Some(bag);
    }
    let n = a.len() + b.len();
    let cost = n.saturating_mul(n.min(8_000)) / 4;
    if !cx.budget.spend(cost) {
        return None;
    }
    Some(crate::text::similarity(a, b))
}

/// `2·shared / (chars a + chars b)` where `shared` counts common bytes
/// (multiset) over-approximating common characters: an upper bound of the
/// sequence similarity.
fn bag_bound(a: &str, b: &str, total_chars: usize) -> f64 {
    if total_chars == 0 {
        return 1.0;
    }
    let mut counts = [0i32; 256];
    for &x in a.as_bytes() {
        counts[x as usize] += 1;
    }
    let mut shared = 0usize;
    for &x in b.as_bytes() {
        let c = &mut counts[x as usize];
        if *c > 0 {
            *c -= 1;
            // A multi-byte character is one char: count its lead byte only.
            shared += usize::from(x & 0xC0 != 0x80);
        }
    }
    (2.0 * shared as f64 / total_chars as f64).min(1.0)
}

/// Token-level sequence similarity of two texts (the report's measure),
/// charged to the budget first.
pub(crate) fn token_similarity(cx: &mut Cx<'_, '_>, a: &str, b: &str) -> Option<f64> {
    let ta: Vec<&str> = tokens(a).map(|(s, e)| &a[s..e]).collect();
    let tb: Vec<&str> = tokens(b).map(|(s, e)| &b[s..e]).collect();
    let n = ta.len() + tb.len();
    if !cx.budget.spend(n.saturating_mul(n.min(8_000)) / 4) {
        return None;
    }
    Some(crate::text::sequence_ratio(&ta, &tb))
}
