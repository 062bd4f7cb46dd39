//! The content being searched, with everything the strategies derive from
//! it computed at most once per call (lazily, so an exact hit pays for
//! none of it): line spans, an LF-only view and the per-line fold-key
//! hashes.

use std::cell::OnceCell;

use super::budget::Budget;
use super::normalize::{fold_hash_with, hash_span, is_zero_width, key, Level};
use crate::text::{hash_bytes, HashedKeyMap};

/// One line: `start..end` is its text, `end..next` its ending (stored as
/// `u32`: a line index is 12 bytes per line; contents past 4 GiB are
/// refused before any index is built).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LineSpan {
    start: u32,
    end: u32,
    next: u32,
}

impl LineSpan {
    fn new(start: usize, end: usize, next: usize) -> LineSpan {
        let u = |x: usize| u32::try_from(x).unwrap_or(u32::MAX);
        LineSpan {
            start: u(start),
            end: u(end),
            next: u(next),
        }
    }

    pub(crate) fn start(&self) -> usize {
        self.start as usize
    }

    pub(crate) fn end(&self) -> usize {
        self.end as usize
    }

    pub(crate) fn next(&self) -> usize {
        self.next as usize
    }
}

/// The content with CRLF turned into LF, and how to map positions back.
pub(crate) struct LfView {
    /// `None` when the content has no `\r\n` (the view is the content).
    text: Option<String>,
    /// View positions of the `\n`s whose `\r` was removed, ascending.
    removed: Vec<usize>,
}

/// Everything derived from a content's text alone, with no search in it:
/// kept across calls on the same text (the wasm binding holds the last
/// content's, see `wasm::convert::content_arg`), so an agent searching one
/// file several times pays for it once. Each part is built on first use.
#[derive(Default)]
pub(crate) struct ContentIndex {
    lines: OnceCell<Vec<LineSpan>>,
    lf: OnceCell<LfView>,
    has_crlf: OnceCell<bool>,
    keeps_word_runs: OnceCell<bool>,
    fold_hashes: OnceCell<Vec<u64>>,
    /// Each line's fold key, built when a strategy first reads it (the
    /// fuzzy strategies read the lines around their few candidate regions,
    /// most of them several times).
    fold_keys: OnceCell<Vec<OnceCell<Box<str>>>>,
    words: OnceCell<ContentWords>,
    /// Every maximal run of ASCII word characters (`[A-Za-z0-9_]`) by its
    /// hash: whether a run is in the file, and where, without a scan (see
    /// [`Content::lacks_word_run`], [`Content::word_run_starts`]).
    word_runs: OnceCell<WordRuns>,
}

/// Every word of the content (see [`super::normalize::for_each_word`]),
/// line by line, as a dense id per distinct word (its hash): what the
/// token filter maps to a search's slots. A search then looks up only its
/// own few words in `vocabulary`, and each content word costs one array
/// read, not a hash probe.
pub(crate) struct ContentWords {
    /// The id of every word, in order.
    pub ids: Vec<u32>,
    /// Line `i`'s words are `ids[ends[i - 1]..ends[i]]`.
    pub ends: Vec<u32>,
    /// Word hash → id (ids are `0..vocabulary.len()`).
    pub vocabulary: HashedKeyMap<u32>,
}

impl ContentWords {
    /// How many words line `l` has, and their ids (inlined: called twice
    /// per line in the token filter's window scan).
    #[inline(always)]
    pub(crate) fn line(&self, l: usize) -> (u32, &[u32]) {
        let from = l.checked_sub(1).and_then(|p| self.ends.get(p)).copied();
        let to = self.ends.get(l).copied().unwrap_or(0);
        let from = from.unwrap_or(0);
        let ids = self.ids.get(from as usize..to as usize).unwrap_or(&[]);
        (to.saturating_sub(from), ids)
    }
}

/// The index a call reads: its own, or one kept from an earlier call.
enum Held<'a> {
    Own(Box<ContentIndex>),
    Shared(&'a ContentIndex),
}

pub(crate) struct Content<'a> {
    /// The content without its BOM.
    pub body: &'a str,
    held: Held<'a>,
    /// Whether this call has paid its budget for the fold hashes: a table
    /// kept from an earlier call is charged as if built, so a call's
    /// outcome never depends on the calls before it.
    fold_charged: std::cell::Cell<bool>,
    /// The content cut into prose units (strategy `prose`), and the
    /// conventions they show (for new text): one pass, however many places
    /// an edit replaces.
    prose: OnceCell<super::prose::Prose<'a>>,
    prose_conventions: OnceCell<super::prose::conventions::Conventions>,
}

impl<'a> Content<'a> {
    pub(crate) fn new(body: &'a str) -> Self {
        Self::with(body, Held::Own(Box::default()))
    }

    /// The content with an index kept from an earlier call on the same
    /// `body`.
    pub(crate) fn indexed(body: &'a str, index: &'a ContentIndex) -> Self {
        Self::with(body, Held::Shared(index))
    }

    /// [`Content::indexed`] when an index is given, else [`Content::new`].
    pub(crate) fn maybe_indexed(body: &'a str, index: Option<&'a ContentIndex>) -> Self {
        match index {
            Some(index) => Self::indexed(body, index),
            None => Self::new(body),
        }
    }

    fn with(body: &'a str, held: Held<'a>) -> Self {
        Content {
            body,
            held,
            fold_charged: std::cell::Cell::new(false),
            prose: OnceCell::new(),
            prose_conventions: OnceCell::new(),
        }
    }

    fn index(&self) -> &ContentIndex {
        match &self.held {
            Held::Own(index) => index,
            Held::Shared(index) => index,
        }
    }

    /// The content as prose units.
    pub(crate) fn prose(&self) -> &super::prose::Prose<'a> {
        self.prose
            .get_or_init(|| super::prose::Prose::of(self.body, true))
    }

    /// The writing conventions the content shows, as prose.
    pub(crate) fn prose_conventions(&self) -> &super::prose::conventions::Conventions {
        self.prose_conventions
            .get_or_init(|| super::prose::conventions::Conventions::of(self.prose()))
    }

    pub(crate) fn lines(&self) -> &[LineSpan] {
        self.index().lines.get_or_init(|| {
            // Same lines as `text::lines_with_endings`, found with the SWAR
            // newline scan.
            let bytes = self.body.as_bytes();
            let mut out = Vec::with_capacity(bytes.len() / 32 + 1);
            let mut start = 0usize;
            while start < bytes.len() {
                match super::scan::next_newline(bytes, start) {
                    Some(nl) => {
                        let end = if nl > start && bytes[nl - 1] == b'\r' {
                            nl - 1
                        } else {
                            nl
                        };
                        out.push(LineSpan::new(start, end, nl + 1));
                        start = nl + 1;
                    }
                    None => {
                        out.push(LineSpan::new(start, bytes.len(), bytes.len()));
                        start = bytes.len();
                    }
                }
            }
            out
        })
    }

    /// Text of line `i` without its ending (`""` past the end).
    pub(crate) fn line(&self, i: usize) -> &'a str {
        match self.lines().get(i) {
            Some(l) => self.body.get(l.start()..l.end()).unwrap_or(""),
            None => "",
        }
    }

    /// Index of the line holding byte `pos` (the last line for `pos` at the
    /// end of the text).
    pub(crate) fn line_of(&self, pos: usize) -> usize {
        let lines = self.lines();
        lines
            .partition_point(|l| l.next() <= pos)
            .min(lines.len().saturating_sub(1))
    }

    /// Whether the content has a `\r\n` (found with the needle scan, which
    /// the wasm build runs sixteen bytes at a time; `str::contains` does not).
    pub(crate) fn has_crlf(&self) -> bool {
        *self
            .index()
            .has_crlf
            .get_or_init(|| super::scan::find_iter(self.body, "\r\n").next().is_some())
    }

    /// Whether every line holds the ASCII word runs of its own fold key
    /// verbatim (see [`super::normalize::ascii_word_runs`]): true unless
    /// the content has a zero-width character, which the fold drops,
    /// joining two runs into one.
    pub(crate) fn keeps_word_runs(&self) -> bool {
        *self.index().keeps_word_runs.get_or_init(|| {
            super::scan::is_ascii(self.body.as_bytes()) || !self.body.contains(is_zero_width)
        })
    }

    pub(crate) fn lf(&self) -> &LfView {
        self.index().lf.get_or_init(|| {
            if !self.has_crlf() {
                return LfView {
                    text: None,
                    removed: Vec::new(),
                };
            }
            let mut text = String::with_capacity(self.body.len());
            let mut removed = Vec::new();
            let mut rest = self.body;
            while let Some(i) = rest.find("\r\n") {
                text.push_str(&rest[..i]);
                removed.push(text.len());
                text.push('\n');
                rest = &rest[i + 2..];
            }
            text.push_str(rest);
            LfView {
                text: Some(text),
                removed,
            }
        })
    }

    /// The fold hashes when this call has paid for them (built now or
    /// kept from an earlier call).
    fn fold_hashes_paid(&self) -> Option<&[u64]> {
        if self.fold_charged.get() {
            self.index().fold_hashes.get().map(Vec::as_slice)
        } else {
            None
        }
    }

    /// Fold-key hash of every line; `None` when the budget cannot pay for
    /// the pass.
    pub(crate) fn fold_hashes(&self, budget: &mut Budget) -> Option<&[u64]> {
        if !self.fold_charged.get() {
            if !budget.spend(self.body.len()) {
                return None;
            }
            self.fold_charged.set(true);
        }
        Some(self.index().fold_hashes.get_or_init(|| {
            // One walk over the line index (not `line(i)` per line, which
            // looks the index up each time): a file of millions of short
            // lines spends most of a miss here.
            let lines = self.lines();
            let mut hashes = Vec::with_capacity(lines.len());
            let mut buf = Vec::new();
            for l in lines {
                let text = self.body.get(l.start()..l.end()).unwrap_or("");
                hashes.push(fold_hash_with(text, &mut buf));
            }
            hashes
        }))
    }

    /// The fold key of line `i` (`""` past the end).
    pub(crate) fn fold_key(&self, i: usize) -> &str {
        let keys = self
            .index()
            .fold_keys
            .get_or_init(|| (0..self.lines().len()).map(|_| OnceCell::new()).collect());
        match keys.get(i) {
            Some(cell) => cell.get_or_init(|| key(self.line(i), Level::Fold).into()),
            None => "",
        }
    }

    /// Whether no line holds `run` (a run of ASCII word characters) as a
    /// whole run: what a line equal to a fold key with that run must hold
    /// (see [`super::normalize::ascii_word_runs`]). Answered from a table
    /// of the content's runs, built once per content: an agent's later
    /// searches of the same file ask it without a scan.
    pub(crate) fn lacks_word_run(&self, run: &str) -> bool {
        self.word_run_starts(run).next().is_none()
    }

    /// Where `run` (a run of ASCII word characters) stands in the body as
    /// a whole run, ascending: a superset of where it stands as a token
    /// bounded by non-word characters, without a scan.
    pub(crate) fn word_run_starts<'s>(&'s self, run: &'s str) -> impl Iterator<Item = usize> + 's {
        let body = self.body.as_bytes();
        // Equal hashes are told apart by the text.
        self.word_run_places(run)
            .iter()
            .map(|&s| s as usize)
            .filter(move |&s| body.get(s..s + run.len()) == Some(run.as_bytes()))
    }

    /// About how many times `run` stands in the body as a whole run (runs
    /// with its hash: exact but for a hash collision), without reading them.
    pub(crate) fn word_run_count(&self, run: &str) -> usize {
        self.word_run_places(run).len()
    }

    /// The starts of the runs with `run`'s hash.
    fn word_run_places(&self, run: &str) -> &[u32] {
        self.index()
            .word_runs
            .get_or_init(|| WordRuns::of(self.body))
            .places(hash_bytes(run.as_bytes()))
    }

    /// Every word's hash, line by line (the token filter's input; its
    /// caller pays the budget).
    pub(crate) fn words(&self) -> &ContentWords {
        self.index().words.get_or_init(|| {
            let body = self.body.as_bytes();
            let lines = self.lines();
            let mut ids: Vec<u32> = Vec::with_capacity(self.body.len() / 6);
            let mut ends = Vec::with_capacity(lines.len());
            let mut vocabulary = HashedKeyMap::default();
            // One pass over the line spans (not `line(i)` per line: a call
            // per line in the size-optimised wasm). Words are hashed in
            // place in the whole body (`hash_span` may read past the line
            // end, never past the body).
            for span in lines {
                let line = self.body.get(span.start()..span.end()).unwrap_or("");
                let offset = span.start();
                super::normalize::for_each_word(line, |s, e| {
                    let next = u32::try_from(vocabulary.len()).unwrap_or(u32::MAX);
                    let hash = hash_span(body, offset + s, offset + e);
                    ids.push(*vocabulary.entry(hash).or_insert(next));
                });
                ends.push(u32::try_from(ids.len()).unwrap_or(u32::MAX));
            }
            ContentWords {
                ids,
                ends,
                vocabulary,
            }
        })
    }
}

/// The maximal runs of ASCII word characters of a text, grouped by hash
/// (a bucket per distinct hash, its runs in text order).
struct WordRuns {
    /// Hash → bucket.
    buckets: HashedKeyMap<u32>,
    /// Bucket `b`'s runs are `starts[ends[b - 1]..ends[b]]`.
    ends: Vec<u32>,
    /// Every run's byte offset, bucket after bucket.
    starts: Vec<u32>,
}

impl WordRuns {
    fn of(text: &str) -> WordRuns {
        let bytes = text.as_bytes();
        let mut buckets = HashedKeyMap::default();
        let mut runs: Vec<(u32, u32)> = Vec::with_capacity(bytes.len() / 6); // (bucket, start)
        let mut start = None;
        for (i, &b) in bytes.iter().chain(std::iter::once(&b' ')).enumerate() {
            let word = b.is_ascii_alphanumeric() || b == b'_';
            match (word, start) {
                (true, None) => start = Some(i),
                (false, Some(s)) => {
                    let next = u32::try_from(buckets.len()).unwrap_or(u32::MAX);
                    let hash = hash_bytes(bytes.get(s..i).unwrap_or(&[]));
                    let bucket = *buckets.entry(hash).or_insert(next);
                    runs.push((bucket, u32::try_from(s).unwrap_or(u32::MAX)));
                    start = None;
                }
                _ => {}
            }
        }
        // A counting sort by bucket: linear, and each bucket stays in
        // text order.
        let mut ends = vec![0u32; buckets.len()];
        for &(bucket, _) in &runs {
            if let Some(n) = ends.get_mut(bucket as usize) {
                *n += 1;
            }
        }
        let mut total = 0u32;
        for n in &mut ends {
            total += *n;
            *n = total;
        }
        let mut starts = vec![0u32; runs.len()];
        let mut next_free = ends.clone();
        for &(bucket, at) in runs.iter().rev() {
            if let Some(free) = next_free.get_mut(bucket as usize) {
                *free -= 1;
                if let Some(slot) = starts.get_mut(*free as usize) {
                    *slot = at;
                }
            }
        }
        WordRuns {
            buckets,
            ends,
            starts,
        }
    }

    /// The starts of the runs with this hash.
    fn places(&self, hash: u64) -> &[u32] {
        let Some(&bucket) = self.buckets.get(&hash) else {
            return &[];
        };
        let b = bucket as usize;
        let from = b.checked_sub(1).and_then(|p| self.ends.get(p)).copied();
        let to = self.ends.get(b).copied().unwrap_or(0);
        self.starts
            .get(from.unwrap_or(0) as usize..to as usize)
            .unwrap_or(&[])
    }
}

/// Fold-key hashes of only the lines a strategy looks at, each computed on
/// first use (or the whole table, when another strategy built it).
/// Strategy 12 looks at a few regions around the token filter's windows;
/// hashing every line for it was a third of a fuzzy miss.
pub(crate) struct FoldHashesNear<'c, 'a> {
    content: &'c Content<'a>,
    /// Empty when the whole table exists (it is used instead).
    hashes: Vec<u64>,
    known: Vec<bool>,
    buf: Vec<u8>,
}

impl<'c, 'a> FoldHashesNear<'c, 'a> {
    pub(crate) fn new(content: &'c Content<'a>) -> Self {
        let n = match content.fold_hashes_paid() {
            Some(_) => 0,
            None => content.lines().len(),
        };
        FoldHashesNear {
            content,
            hashes: vec![0; n],
            known: vec![false; n],
            buf: Vec::new(),
        }
    }

    /// Every line's hash slot, with the lines of `range` (clamped to the
    /// content) filled in; `None` when the budget cannot pay for them.
    pub(crate) fn cover(
        &mut self,
        range: std::ops::RangeInclusive<usize>,
        budget: &mut Budget,
    ) -> Option<&[u64]> {
        if let Some(all) = self.content.fold_hashes_paid() {
            return Some(all);
        }
        let range = *range.start()..(*range.end() + 1).min(self.known.len());
        let missing = || range.clone().filter(|&i| !self.known[i]);
        let cost: usize = missing().map(|i| self.content.line(i).len() + 1).sum();
        if !budget.spend(cost) {
            return None;
        }
        // A table kept from an earlier call is read, not rebuilt (this call
        // has paid for the lines all the same).
        let kept = self.content.index().fold_hashes.get();
        for i in range.clone() {
            if !self.known[i] {
                self.hashes[i] = match kept.and_then(|all| all.get(i)) {
                    Some(&h) => h,
                    None => fold_hash_with(self.content.line(i), &mut self.buf),
                };
                self.known[i] = true;
            }
        }
        Some(&self.hashes)
    }
}

impl LfView {
    pub(crate) fn text<'s>(&'s self, body: &'s str) -> &'s str {
        self.text.as_deref().unwrap_or(body)
    }

    /// The content position of view position `x`. A `\r` removed before a
    /// `\n` belongs to whatever starts or ends at that `\n`, so a span never
    /// splits a CRLF.
    pub(crate) fn to_body(&self, x: usize) -> usize {
        x + self.removed.partition_point(|&v| v < x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_near_a_region_are_the_whole_tables() {
        let body = "a  b\n\tc\u{201c}d\u{201d}\r\n\n  e\u{200b}f  \nlast";
        let whole = Content::new(body);
        let all = whole
            .fold_hashes(&mut Budget::new(u32::MAX))
            .expect("budget")
            .to_vec();
        let fresh = Content::new(body);
        let mut near = FoldHashesNear::new(&fresh);
        let mut budget = Budget::new(u32::MAX);
        // Overlapping and past-the-end ranges, filled one after another.
        assert_eq!(
            near.cover(1..=2, &mut budget).expect("budget")[1..=2],
            all[1..=2]
        );
        assert_eq!(
            near.cover(2..=9, &mut budget).expect("budget")[1..],
            all[1..]
        );
        assert_eq!(near.cover(0..=0, &mut budget).expect("budget"), all);
        // A budget too small for the lines not yet hashed is refused.
        let mut tight = FoldHashesNear::new(&fresh);
        assert!(tight.cover(0..=4, &mut Budget::new(3)).is_none());
    }

    #[test]
    fn lf_view_maps_positions_without_splitting_crlf() {
        let c = Content::new("a\r\nb\r\nc");
        let lf = c.lf();
        let view = lf.text(c.body);
        assert_eq!(view, "a\nb\nc");
        let s = view.find("\nb").unwrap();
        assert_eq!(&c.body[lf.to_body(s)..lf.to_body(s + 2)], "\r\nb");
        let s = view.find("a\n").unwrap();
        assert_eq!(&c.body[lf.to_body(s)..lf.to_body(s + 2)], "a\r\n");
        assert_eq!(&c.body[lf.to_body(0)..lf.to_body(1)], "a");
    }

    #[test]
    fn word_runs_are_found_whole_and_in_text_order() {
        let body = "ab ab_c abc ab\nab.x(ab) é_ab 1ab";
        let content = Content::new(body);
        let starts = |run: &str| content.word_run_starts(run).collect::<Vec<_>>();
        assert_eq!(starts("ab"), vec![0, 12, 15, 20]);
        assert_eq!(starts("ab_c"), vec![3]);
        assert_eq!(starts("_ab"), vec![26]);
        assert_eq!(starts("1ab"), vec![30]);
        assert_eq!(starts("b"), Vec::<usize>::new());
        assert_eq!(content.word_run_count("ab"), 4);
        assert!(content.lacks_word_run("abc_"));
        assert!(!content.lacks_word_run("x"));
    }

    #[test]
    fn lines_and_hashes_are_indexed() {
        let c = Content::new("ab cd\n\r\nef(");
        assert_eq!(c.line(0), "ab cd");
        assert_eq!(c.line(1), "");
        assert_eq!(c.line(2), "ef(");
        assert_eq!(c.line_of(0), 0);
        assert_eq!(c.line_of(6), 1);
        for text in [
            "",
            "a",
            "a\n",
            "a\r\nb\nc",
            "\n\n",
            "中文\r\n😀\n",
            "\r",
            "x\r",
        ] {
            let c = Content::new(text);
            let want: Vec<&str> = crate::text::lines_with_endings(text)
                .map(|l| l.text)
                .collect();
            let got: Vec<&str> = (0..c.lines().len()).map(|i| c.line(i)).collect();
            assert_eq!(got, want, "{text:?}");
        }
        assert_eq!(c.line_of(c.body.len()), 2);
        let mut b = Budget::new(1000);
        assert_eq!(c.fold_hashes(&mut b).unwrap().len(), 3);
        assert_eq!(Content::new("").line_of(0), 0);
    }
}
