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
use crate::matcher::content::Content;
use crate::matcher::normalize::{for_each_token, token_hash, tokens};

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
const EMPTY: u64 = 0;

/// Token hashes of the search, as dense slots.
struct SlotTable {
    keys: Vec<u64>,
    slots: Vec<u32>,
    mask: usize,
}

impl SlotTable {
    fn new(distinct: &[u64]) -> SlotTable {
        // Load ≤ 1/4: most content words are absent, and a miss probes
        // until an empty slot.
        let size = (distinct.len() * 4).next_power_of_two().max(64);
        let mut t = SlotTable {
            keys: vec![EMPTY; size],
            slots: vec![0; size],
            mask: size - 1,
        };
        for (slot, &h) in distinct.iter().enumerate() {
            let mut i = (h as usize) & t.mask;
            while t.keys[i] != EMPTY {
                i = (i + 1) & t.mask;
            }
            t.keys[i] = h;
            t.slots[i] = slot as u32;
        }
        t
    }

    // Called for every word of the content: inlined even in the
    // size-optimised wasm, where it was a call per word (8 % of a failed
    // search).
    #[inline(always)]
    fn get(&self, h: u64) -> Option<u32> {
        let mut i = (h as usize) & self.mask;
        loop {
            match *self.keys.get(i)? {
                EMPTY => return None,
                k if k == h => return self.slots.get(i).copied(),
                _ => i = (i + 1) & self.mask,
            }
        }
    }
}

/// Token hashes never equal the table's empty marker.
fn nonzero(h: u64) -> u64 {
    h.max(1)
}

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
    let bag = SearchBag::new(search_lines);
    let content = cx.content;
    let n = content.lines().len();
    if bag.total == 0 || size == 0 || size > n {
        return Some(Vec::new());
    }
    if !cx.budget.spend(content.body.len().saturating_mul(2)) {
        return None;
    }
    let (slots, per_line) = content_slots(content, &bag.table);
    let mut have = vec![0u32; bag.need.len()];
    let (mut overlap, mut total) = (0u32, 0u32);
    let mut kept: Vec<Window> = Vec::with_capacity(KEEP + 1);
    // Once KEEP windows are kept, a window no better than the worst of
    // them can never enter (`keep_best` would refuse it): most windows
    // share a word or two with the search, so this skips their scan.
    let mut floor = f64::NEG_INFINITY;
    // Lines are read through iterators and `get`, not `[]`: in the
    // size-optimised wasm a bounds-checked index is a call (its panic path
    // keeps it from being inlined), one per line in the hottest loop of a
    // failed search.
    for (l, &(a, b, words)) in per_line.iter().enumerate() {
        total += words;
        for &s in slots.get(a as usize..b as usize).unwrap_or(&[]) {
            if let (Some(h), Some(&w)) = (have.get_mut(s as usize), bag.need.get(s as usize)) {
                if *h < w {
                    overlap += 1;
                }
                *h += 1;
            }
        }
        if let Some(&(a, b, words)) = l.checked_sub(size).and_then(|gone| per_line.get(gone)) {
            total -= words;
            for &s in slots.get(a as usize..b as usize).unwrap_or(&[]) {
                if let (Some(h), Some(&w)) = (have.get_mut(s as usize), bag.need.get(s as usize)) {
                    *h -= 1;
                    if *h < w {
                        overlap -= 1;
                    }
                }
            }
        }
        if l + 1 >= size && overlap > 0 {
            let dice = 2.0 * f64::from(overlap) / f64::from(bag.total + total);
            if dice <= floor {
                continue;
            }
            keep_best(
                &mut kept,
                Window {
                    first: l + 1 - size,
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

/// The search's word tokens as a bag: a slot per distinct token, and how
/// many times each occurs.
struct SearchBag {
    table: SlotTable,
    /// Occurrences per slot.
    need: Vec<u32>,
    /// Word tokens in all.
    total: u32,
}

impl SearchBag {
    fn new(search_lines: &[String]) -> SearchBag {
        let mut hashes: Vec<u64> = Vec::new();
        for line in search_lines {
            for_each_token(line, |s, e, word| {
                if word {
                    hashes.push(nonzero(token_hash(&line[s..e])));
                }
            });
        }
        let mut distinct = hashes.clone();
        distinct.sort();
        distinct.dedup();
        let table = SlotTable::new(&distinct);
        let mut need = vec![0u32; distinct.len()];
        for &h in &hashes {
            if let Some(s) = table.get(h) {
                need[s as usize] += 1;
            }
        }
        SearchBag {
            table,
            need,
            total: hashes.len() as u32,
        }
    }
}

/// The search-table slots of each content line's words that the search
/// has (`slots[a..b]` for the line's `(a, b, words)`), and how many words
/// the line has in all: words the search lacks only count toward the
/// window's size, so they are not stored. The content's words are hashed
/// once per content ([`Content::words`]); only the lookups are per search.
#[allow(clippy::type_complexity)] // one (start, end, words) triple per line
fn content_slots(content: &Content<'_>, table: &SlotTable) -> (Vec<u32>, Vec<(u32, u32, u32)>) {
    let words = content.words();
    let mut slots: Vec<u32> = Vec::with_capacity(content.body.len() / 64);
    let mut per_line: Vec<(u32, u32, u32)> = Vec::with_capacity(words.ends.len());
    let mut from = 0u32;
    for &to in &words.ends {
        let first = slots.len() as u32;
        for &h in words.hashes.get(from as usize..to as usize).unwrap_or(&[]) {
            if let Some(slot) = table.get(h) {
                slots.push(slot);
            }
        }
        per_line.push((first, slots.len() as u32, to - from));
        from = to;
    }
    (slots, per_line)
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
