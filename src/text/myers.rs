//! The line diff behind every unified diff and line alignment in editkit:
//! Myers' O(ND) difference algorithm in its linear-space form (find the
//! middle snake, recurse on both halves), then a clean-up that slides
//! inserted runs to a canonical place, then runs of deletions and
//! insertions with no equal line between them merged into replacements.
//!
//! Why not the `similar` crate, which did this before: it instantiates
//! its diff per element type and links every algorithm it offers (Myers,
//! patience, LCS, their hooks and its sorts), 42 KB of the wasm for the
//! two diffs editkit needs; this module takes 36 KB of that back
//! (docs/PERFORMANCE.md cut 18). Here lines are interned to `u32` ids once
//! and the algorithm exists once. It computes the same operations as
//! `similar` 2.7's Myers with its compaction and replace hooks (a property
//! test compares the two on generated inputs). Callers get lengths only:
//! the compaction's positions drift where it swaps a deletion and an
//! insertion (as `similar`'s do), and none of them leaves this module.

use crate::text::FastMap;

/// What one operation does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tag {
    Equal,
    Delete,
    Insert,
    Replace,
}

/// One operation: its kind and how many old and new lines it covers
/// (`Equal` covers as many of each; `Delete` no new line, `Insert` no old
/// line). Operations are in order, so positions are running sums.
pub(crate) type LineOp = (Tag, usize, usize);

/// The operations that turn the `old` lines into the `new` ones.
pub(crate) fn line_ops<'a>(old: &[&'a str], new: &[&'a str]) -> Vec<LineOp> {
    let mut ids = Ids::new(old.len() + new.len());
    let old = ids.intern(old);
    let new = ids.intern(new);
    diff(&old, &new)
}

/// Lines below this many (both sides together) are interned by a linear
/// search: most diffs editkit renders are of one block or one hunk, where
/// building a hash table costs more than comparing a few lines.
const SMALL: usize = 16;

/// Line ids: equal lines, equal ids.
enum Ids<'a> {
    Few(Vec<&'a str>),
    Many(FastMap<&'a str, u32>),
}

impl<'a> Ids<'a> {
    fn new(lines: usize) -> Self {
        if lines < SMALL {
            Ids::Few(Vec::with_capacity(lines))
        } else {
            Ids::Many(FastMap::with_capacity_and_hasher(lines, Default::default()))
        }
    }

    fn intern(&mut self, lines: &[&'a str]) -> Vec<u32> {
        lines.iter().map(|&line| self.id(line)).collect()
    }

    fn id(&mut self, line: &'a str) -> u32 {
        match self {
            Ids::Few(seen) => match seen.iter().position(|&s| s == line) {
                Some(i) => i as u32,
                None => {
                    seen.push(line);
                    (seen.len() - 1) as u32
                }
            },
            Ids::Many(ids) => {
                let next = ids.len() as u32;
                *ids.entry(line).or_insert(next)
            }
        }
    }
}

/// A run of `len` items at `old` in the old sequence and `new` in the new
/// one, before merging into replacements (one side's length is 0 for a
/// deletion or an insertion).
#[derive(Clone, Copy, Debug)]
struct Run {
    tag: Tag,
    old: usize,
    old_len: usize,
    new: usize,
    new_len: usize,
}

impl Run {
    fn is_empty(&self) -> bool {
        self.old_len == 0 && self.new_len == 0
    }
}

fn diff(old: &[u32], new: &[u32]) -> Vec<LineOp> {
    let mut runs = Vec::new();
    let max_d = max_d(old.len(), new.len());
    let mut forward = Diagonals::new(max_d);
    let mut backward = Diagonals::new(max_d);
    let mut seqs = Seqs {
        old,
        new,
        forward: &mut forward,
        backward: &mut backward,
        runs: &mut runs,
    };
    seqs.conquer(0..old.len(), 0..new.len());
    slide_insertions(old, new, &mut runs);
    merge_replacements(&runs)
}

/// How far the search for a middle snake goes: half the longest edit
/// script, plus one.
fn max_d(old_len: usize, new_len: usize) -> usize {
    (old_len + new_len).div_ceil(2) + 1
}

/// The furthest-reaching x of each diagonal k (`x - y`), for k in
/// `-max_d..max_d`.
struct Diagonals {
    offset: isize,
    x: Vec<usize>,
}

impl Diagonals {
    fn new(max_d: usize) -> Self {
        Diagonals {
            offset: max_d as isize,
            x: vec![0; 2 * max_d],
        }
    }

    fn at(&self, k: isize) -> usize {
        self.x[(k + self.offset) as usize]
    }

    fn set(&mut self, k: isize, x: usize) {
        self.x[(k + self.offset) as usize] = x;
    }

    /// Where the path on diagonal `k` starts after `d` edits: from the
    /// neighbouring diagonal that reached further (down from `k + 1`, or
    /// right from `k - 1`).
    fn start_of(&self, k: isize, d: isize) -> usize {
        if k == -d || (k != d && self.at(k - 1) < self.at(k + 1)) {
            self.at(k + 1)
        } else {
            self.at(k - 1) + 1
        }
    }
}

struct Seqs<'a> {
    old: &'a [u32],
    new: &'a [u32],
    forward: &'a mut Diagonals,
    backward: &'a mut Diagonals,
    runs: &'a mut Vec<Run>,
}

type Span = std::ops::Range<usize>;

impl Seqs<'_> {
    fn push(&mut self, tag: Tag, old: usize, old_len: usize, new: usize, new_len: usize) {
        self.runs.push(Run {
            tag,
            old,
            old_len,
            new,
            new_len,
        });
    }

    /// Strips the common prefix and suffix, then splits what is left at
    /// its middle snake and diffs both halves.
    fn conquer(&mut self, mut old: Span, mut new: Span) {
        let prefix = common_prefix(&self.old[old.clone()], &self.new[new.clone()]);
        if prefix > 0 {
            self.push(Tag::Equal, old.start, prefix, new.start, prefix);
        }
        old.start += prefix;
        new.start += prefix;
        let suffix = common_suffix(&self.old[old.clone()], &self.new[new.clone()]);
        old.end -= suffix;
        new.end -= suffix;
        let suffix_at = (old.end, new.end);
        if old.is_empty() && new.is_empty() {
        } else if new.is_empty() {
            self.push(Tag::Delete, old.start, old.len(), new.start, 0);
        } else if old.is_empty() {
            self.push(Tag::Insert, old.start, 0, new.start, new.len());
        } else if let Some((x, y)) = self.middle_snake(old.clone(), new.clone()) {
            self.conquer(old.start..x, new.start..y);
            self.conquer(x..old.end, y..new.end);
        } else {
            self.push(Tag::Delete, old.start, old.len(), new.start, 0);
            self.push(Tag::Insert, old.start, 0, new.start, new.len());
        }
        if suffix > 0 {
            self.push(Tag::Equal, suffix_at.0, suffix, suffix_at.1, suffix);
        }
    }

    /// Where a shortest edit script of the two spans crosses its middle:
    /// the forward and backward searches run one edit at a time until
    /// their furthest paths overlap on a diagonal.
    fn middle_snake(&mut self, old: Span, new: Span) -> Option<(usize, usize)> {
        let (n, m) = (old.len(), new.len());
        let delta = n as isize - m as isize;
        let odd = delta & 1 == 1;
        self.forward.set(1, 0);
        self.backward.set(1, 0);
        for d in 0..max_d(n, m) as isize {
            for k in (-d..=d).rev().step_by(2) {
                let mut x = self.forward.start_of(k, d);
                let y = x as isize - k;
                let start = (x, y);
                if x < n && (0..m as isize).contains(&y) {
                    let y = y as usize;
                    x += common_prefix(
                        &self.old[old.start + x..old.end],
                        &self.new[new.start + y..new.end],
                    );
                }
                self.forward.set(k, x);
                if odd && (k - delta).abs() < d && x + self.backward.at(-(k - delta)) >= n {
                    return Some((start.0 + old.start, start.1 as usize + new.start));
                }
            }
            for k in (-d..=d).rev().step_by(2) {
                let mut x = self.backward.start_of(k, d);
                let mut y = x as isize - k;
                if x < n && (0..m as isize).contains(&y) {
                    let advance = common_suffix(
                        &self.old[old.start..old.start + n - x],
                        &self.new[new.start..new.start + m - y as usize],
                    );
                    x += advance;
                    y += advance as isize;
                }
                self.backward.set(k, x);
                if !odd && (k - delta).abs() <= d && x + self.forward.at(-(k - delta)) >= n {
                    return Some((n - x + old.start, (m as isize - y) as usize + new.start));
                }
            }
        }
        None
    }
}

fn common_prefix(a: &[u32], b: &[u32]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

fn common_suffix(a: &[u32], b: &[u32]) -> usize {
    a.iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count()
}

/// The clean-up after the search: each deletion, then each insertion, is
/// moved up then down as far as it goes. An insertion moves past an equal
/// run whose lines at that end repeat its own (the same diff, its change
/// placed differently); deletions and insertions move past each other,
/// and neighbours of one kind join. Deletions never move past equal runs:
/// `similar`'s compaction compares a deletion's (empty) new side there,
/// and matching its output matters more here than a nicer placement.
fn slide_insertions(old: &[u32], new: &[u32], runs: &mut Vec<Run>) {
    for tag in [Tag::Delete, Tag::Insert] {
        let mut at = 0;
        while at < runs.len() {
            if runs[at].tag == tag {
                at = slide_up(old, new, runs, at);
                at = slide_down(old, new, runs, at);
            }
            at += 1;
        }
    }
}

/// Where an equal run stands relative to the change sliding past it.
#[derive(Clone, Copy, PartialEq)]
enum Side {
    Above,
    Below,
}

/// How many of an insertion's lines repeat the equal run beside it, at the
/// end facing it (its last lines when the run is above, its first when
/// below): how far it can slide. A deletion never slides past an equal run
/// (see [`slide_insertions`]).
fn repeated_lines(old: &[u32], new: &[u32], equal: Run, change: Run, side: Side) -> usize {
    if change.tag != Tag::Insert {
        return 0;
    }
    let kept = &old[equal.old..equal.old + equal.old_len];
    let added = &new[change.new..change.new + change.new_len];
    match side {
        Side::Above => common_suffix(kept, added),
        Side::Below => common_prefix(kept, added),
    }
}

/// Moves the change at `at` towards the start; returns where it ends.
fn slide_up(old: &[u32], new: &[u32], runs: &mut Vec<Run>, mut at: usize) -> usize {
    while at > 0 {
        let (prev, this) = (runs[at - 1], runs[at]);
        match (this.tag, prev.tag) {
            (_, Tag::Equal) => {
                let shared = repeated_lines(old, new, prev, this, Side::Above);
                if shared > 0 {
                    // The equal run's last `shared` lines go below the
                    // insertion, which starts `shared` lines earlier.
                    if runs.get(at + 1).is_some_and(|r| r.tag == Tag::Equal) {
                        let next = &mut runs[at + 1];
                        next.old -= shared;
                        next.new -= shared;
                        next.old_len += shared;
                        next.new_len += shared;
                    } else {
                        let equal = Run {
                            tag: Tag::Equal,
                            old: prev.old + prev.old_len - shared,
                            old_len: shared,
                            new: this.new + this.new_len - shared,
                            new_len: shared,
                        };
                        runs.insert(at + 1, equal);
                    }
                    runs[at].old -= shared;
                    runs[at].new -= shared;
                    runs[at - 1].old_len -= shared;
                    runs[at - 1].new_len -= shared;
                } else if !prev.is_empty() {
                    break;
                }
                if runs[at - 1].is_empty() {
                    runs.remove(at - 1);
                    at -= 1;
                }
            }
            (Tag::Insert, Tag::Delete) | (Tag::Delete, Tag::Insert) => {
                runs.swap(at - 1, at);
                at -= 1;
            }
            _ => {
                // Two of a kind: the earlier one takes this one's lines.
                runs[at - 1].old_len += this.old_len;
                runs[at - 1].new_len += this.new_len;
                runs.remove(at);
                at -= 1;
            }
        }
    }
    at
}

/// Moves the change at `at` towards the end; returns where it ends.
fn slide_down(old: &[u32], new: &[u32], runs: &mut Vec<Run>, mut at: usize) -> usize {
    while at + 1 < runs.len() {
        let (this, next) = (runs[at], runs[at + 1]);
        match (this.tag, next.tag) {
            (_, Tag::Equal) => {
                let shared = repeated_lines(old, new, next, this, Side::Below);
                if shared > 0 {
                    // The equal run's first `shared` lines go above the
                    // insertion, which starts `shared` lines later.
                    if at > 0 && runs[at - 1].tag == Tag::Equal {
                        runs[at - 1].old_len += shared;
                        runs[at - 1].new_len += shared;
                    } else {
                        let equal = Run {
                            tag: Tag::Equal,
                            old: next.old,
                            old_len: shared,
                            new: this.new,
                            new_len: shared,
                        };
                        runs.insert(at, equal);
                        at += 1;
                    }
                    runs[at].old += shared;
                    runs[at].new += shared;
                    let next = &mut runs[at + 1];
                    next.old += shared;
                    next.new += shared;
                    next.old_len -= shared;
                    next.new_len -= shared;
                } else if !next.is_empty() {
                    break;
                }
                if runs[at + 1].is_empty() {
                    runs.remove(at + 1);
                }
            }
            (Tag::Insert, Tag::Delete) | (Tag::Delete, Tag::Insert) => {
                runs.swap(at, at + 1);
                at += 1;
            }
            _ => {
                runs[at].old_len += next.old_len;
                runs[at].new_len += next.new_len;
                runs.remove(at + 1);
            }
        }
    }
    at
}

/// Joins neighbouring equal runs, and the deletions and insertions between
/// two equal runs into one replacement (or one deletion or insertion).
fn merge_replacements(runs: &[Run]) -> Vec<LineOp> {
    let mut ops: Vec<LineOp> = Vec::with_capacity(runs.len());
    let (mut deleted, mut inserted) = (0usize, 0usize);
    let flush = |ops: &mut Vec<LineOp>, deleted: &mut usize, inserted: &mut usize| {
        match (*deleted, *inserted) {
            (0, 0) => {}
            (d, 0) => ops.push((Tag::Delete, d, 0)),
            (0, i) => ops.push((Tag::Insert, 0, i)),
            (d, i) => ops.push((Tag::Replace, d, i)),
        }
        (*deleted, *inserted) = (0, 0);
    };
    for run in runs {
        match run.tag {
            Tag::Equal => {
                flush(&mut ops, &mut deleted, &mut inserted);
                match ops.last_mut() {
                    Some((Tag::Equal, o, n)) => {
                        *o += run.old_len;
                        *n += run.new_len;
                    }
                    _ => ops.push((Tag::Equal, run.old_len, run.new_len)),
                }
            }
            _ => {
                deleted += run.old_len;
                inserted += run.new_len;
            }
        }
    }
    flush(&mut ops, &mut deleted, &mut inserted);
    ops
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// `similar` 2.7's operations (Myers, compacted, replacements merged:
    /// what `TextDiff` computed before this module), as tags and lengths.
    fn similar_ops(old: &[&str], new: &[&str]) -> Vec<LineOp> {
        use similar::DiffTag;
        similar::capture_diff_slices(similar::Algorithm::Myers, old, new)
            .iter()
            .map(|op| {
                let (tag, o, n) = op.as_tag_tuple();
                let tag = match tag {
                    DiffTag::Equal => Tag::Equal,
                    DiffTag::Delete => Tag::Delete,
                    DiffTag::Insert => Tag::Insert,
                    DiffTag::Replace => Tag::Replace,
                };
                (tag, o.len(), n.len())
            })
            .collect()
    }

    fn lines(text: &str) -> Vec<&str> {
        text.split_inclusive('\n').collect()
    }

    #[test]
    fn an_insertion_slides_down_past_the_equal_line_it_repeats() {
        // The search puts the inserted "// x" at the top; the clean-up
        // moves it below the kept "// x": the blank line goes, "// x"
        // stays, its copy follows.
        let (old, new) = (lines("\n// x\n"), lines("// x\n// x\n"));
        assert_eq!(
            line_ops(&old, &new),
            vec![(Tag::Delete, 1, 0), (Tag::Equal, 1, 1), (Tag::Insert, 0, 1)]
        );
        assert_eq!(line_ops(&old, &new), similar_ops(&old, &new));
    }

    #[test]
    fn replacements_join_the_deletions_and_insertions_between_equal_lines() {
        let old = lines("keep\na\nb\nkeep2\nc\n");
        let new = lines("keep\nx\nkeep2\nc\nd\n");
        assert_eq!(
            line_ops(&old, &new),
            vec![
                (Tag::Equal, 1, 1),
                (Tag::Replace, 2, 1),
                (Tag::Equal, 2, 2),
                (Tag::Insert, 0, 1),
            ]
        );
    }

    #[test]
    fn empty_sides() {
        assert_eq!(line_ops(&[], &[]), vec![]);
        assert_eq!(line_ops(&["a\n"], &[]), vec![(Tag::Delete, 1, 0)]);
        assert_eq!(line_ops(&[], &["a\n", "b"]), vec![(Tag::Insert, 0, 2)]);
    }

    fn text_lines() -> impl Strategy<Value = Vec<&'static str>> {
        // A small alphabet, so lines repeat and the compaction has work.
        let line = prop::sample::select(vec!["}\n", "a\n", "b\n", "\n", "c"]);
        prop::collection::vec(line, 0..40)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        #[test]
        fn computes_the_operations_similar_computed(old in text_lines(), new in text_lines()) {
            prop_assert_eq!(line_ops(&old, &new), similar_ops(&old, &new));
        }

        #[test]
        fn operations_cover_both_sides_and_rebuild_new(old in text_lines(), new in text_lines()) {
            let ops = line_ops(&old, &new);
            let (mut o, mut n) = (0, 0);
            for &(tag, lo, ln) in &ops {
                if tag == Tag::Equal {
                    prop_assert_eq!(lo, ln);
                    prop_assert_eq!(&old[o..o + lo], &new[n..n + ln]);
                }
                o += lo;
                n += ln;
            }
            prop_assert_eq!((o, n), (old.len(), new.len()));
        }
    }

    #[test]
    fn long_inputs_agree_with_similar_too() {
        // Above 100 lines `similar` interned the lines first, like this
        // module always does.
        let old: Vec<String> = (0..400).map(|i| format!("{}\n", i % 37)).collect();
        let new: Vec<String> = (0..430).map(|i| format!("{}\n", (i * 7) % 41)).collect();
        let old: Vec<&str> = old.iter().map(String::as_str).collect();
        let new: Vec<&str> = new.iter().map(String::as_str).collect();
        assert_eq!(line_ops(&old, &new), similar_ops(&old, &new));
    }
}
