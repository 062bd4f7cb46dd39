//! Running the ladder and deciding what its candidates mean.
//!
//! The first strategy that finds anything decides. Its candidates are then
//! judged by position, not text: one location is required unless
//! `expectedReplacements = n` (exactly n, non-overlapping) or `replaceAll`
//! (every non-overlapping location, left to right). Overlapping locations
//! (`"aa"` twice in `"aaa"`) are ambiguous. `replaceAll` and
//! `expectedReplacements > 1` run the exact and safe strategies only.

use super::budget::Budget;
use super::content::Content;
use super::strategies::{self, Candidate, Cx, Limits, NearMiss, Needle, Outcome};
use super::types::{
    MatchMode, MatchOptions, Strategy, DEFAULT_FUZZY_MARGIN, DEFAULT_FUZZY_THRESHOLD,
    DEFAULT_SIZE_RATIO, DEFAULT_WORK_BUDGET,
};
use crate::error::Error;
use crate::lang::Lang;

/// Options checked and defaults filled in.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Settings {
    pub mode: MatchMode,
    pub expected: Option<u32>,
    pub replace_all: bool,
    pub limits: Limits,
    pub budget: u32,
    pub line_hint: Option<u32>,
    /// The text is prose: the ladder includes `prose`.
    pub prose: bool,
    pub lang: Lang,
}

impl Settings {
    pub(crate) fn new(o: &MatchOptions) -> Result<Settings, Error> {
        let lang = o.lang;
        let unit = |name: &str, v: Option<f64>, default: f64| -> Result<f64, Error> {
            match v {
                None => Ok(default),
                Some(x) if x.is_finite() && (0.0..=1.0).contains(&x) => Ok(x),
                Some(_) => Err(Error::invalid_argument(
                    lang,
                    name,
                    lang.pick("a number between 0 and 1", "0 到 1 之间的数"),
                )),
            }
        };
        let threshold = unit("fuzzyThreshold", o.fuzzy_threshold, DEFAULT_FUZZY_THRESHOLD)?;
        let margin = unit("fuzzyMargin", o.fuzzy_margin, DEFAULT_FUZZY_MARGIN)?;
        let size_ratio = match o.size_ratio {
            None => DEFAULT_SIZE_RATIO,
            Some(x) if x.is_finite() && (1.0..=10.0).contains(&x) => x,
            Some(_) => {
                return Err(Error::invalid_argument(
                    lang,
                    "sizeRatio",
                    lang.pick("a number between 1 and 10", "1 到 10 之间的数"),
                ))
            }
        };
        if o.expected_replacements == Some(0) {
            return Err(Error::invalid_argument(
                lang,
                "expectedReplacements",
                lang.pick("a positive integer", "正整数"),
            ));
        }
        if o.replace_all && o.expected_replacements.is_some() {
            return Err(Error::invalid_argument(
                lang,
                "expectedReplacements",
                lang.pick(
                    "unset when replaceAll is true (use one or the other)",
                    "留空（replaceAll 为 true 时，二者只能用其一）",
                ),
            ));
        }
        Ok(Settings {
            mode: o.mode,
            expected: o.expected_replacements,
            replace_all: o.replace_all,
            limits: Limits {
                threshold,
                margin,
                size_ratio,
            },
            budget: o.work_budget.unwrap_or(DEFAULT_WORK_BUDGET),
            line_hint: o
                .line_hint
                .filter(|_| !o.replace_all && o.expected_replacements.is_none()),
            prose: o.prose,
            lang,
        })
    }

    /// The strategies this call runs.
    pub(crate) fn ladder(&self) -> &'static [Strategy] {
        let multi = self.replace_all || self.expected.is_some_and(|n| n > 1);
        let mode = if multi {
            self.mode.min(MatchMode::Safe)
        } else {
            self.mode
        };
        Strategy::ladder(mode, self.prose)
    }
}

/// What a ladder run produced.
pub(crate) struct Run {
    pub strategy: Option<Strategy>,
    pub candidates: Vec<Candidate>,
    pub tried: Vec<Strategy>,
    pub exhausted: bool,
    pub near: Vec<NearMiss>,
}

pub(crate) fn run(
    content: &Content<'_>,
    needle: &Needle,
    settings: &Settings,
    ladder: &[Strategy],
) -> Run {
    let mut cx = Cx {
        content,
        budget: Budget::new(settings.budget),
        limits: settings.limits,
        replace_all: settings.replace_all,
        prose: settings.prose,
        near: Vec::new(),
    };
    let mut tried = Vec::new();
    for &strategy in ladder {
        tried.push(strategy);
        match strategies::run(strategy, &mut cx, needle) {
            Outcome::Found(mut candidates) => {
                candidates.sort_by_key(|c| (c.start, c.end));
                return Run {
                    strategy: Some(strategy),
                    candidates,
                    tried,
                    exhausted: false,
                    near: cx.near,
                };
            }
            Outcome::NotFound => {}
            Outcome::Exhausted => {
                return Run {
                    strategy: None,
                    candidates: Vec::new(),
                    tried,
                    exhausted: true,
                    near: cx.near,
                };
            }
        }
    }
    Run {
        strategy: None,
        candidates: Vec::new(),
        tried,
        exhausted: false,
        near: cx.near,
    }
}

/// The meaning of a run's candidates under the count rules.
pub(crate) enum Verdict {
    /// The locations to use, in order.
    Accept(Vec<Candidate>),
    /// More than one location (or overlapping ones) where one was required.
    Ambiguous(Vec<Candidate>),
    /// `expectedReplacements = n` and the strategy found another number.
    CountMismatch(Vec<Candidate>),
    /// More locations than one call replaces (`MAX_CANDIDATES`).
    TooMany,
    NotFound,
}

pub(crate) fn decide(settings: &Settings, candidates: Vec<Candidate>) -> Verdict {
    if candidates.is_empty() {
        return Verdict::NotFound;
    }
    if candidates.len() > strategies::MAX_CANDIDATES {
        return Verdict::TooMany;
    }
    if settings.replace_all {
        let mut kept: Vec<Candidate> = Vec::with_capacity(candidates.len());
        for c in candidates {
            if kept.last().is_none_or(|k| k.end <= c.start) {
                kept.push(c);
            }
        }
        return Verdict::Accept(kept);
    }
    let overlapping = candidates.windows(2).any(|w| w[0].overlaps(&w[1]));
    let required = settings.expected.unwrap_or(1) as usize;
    if !overlapping && candidates.len() == required {
        Verdict::Accept(candidates)
    } else if settings.expected.is_none() || overlapping {
        Verdict::Ambiguous(candidates)
    } else {
        Verdict::CountMismatch(candidates)
    }
}

/// The index of the place whose first line is strictly nearest `hint`
/// (1-based lines), or `None` when two are equally near: a line hint
/// breaks ties between places the search matches, it never guesses
/// between equals.
pub(crate) fn nearest_to_hint(first_lines: &[u32], hint: u32) -> Option<usize> {
    let distance = |line: u32| line.abs_diff(hint);
    let best = first_lines.iter().map(|&l| distance(l)).min()?;
    let mut nearest = first_lines
        .iter()
        .enumerate()
        .filter(|&(_, &l)| distance(l) == best);
    let (index, _) = nearest.next()?;
    nearest.next().is_none().then_some(index)
}

/// Line and UTF-16 column bookkeeping for many byte offsets of one text in
/// a single pass.
pub(crate) struct Positions {
    points: Vec<usize>,
    /// (0-based line, UTF-16 offset) of each point.
    info: Vec<(usize, usize)>,
}

impl Positions {
    pub(crate) fn new(body: &str, mut points: Vec<usize>) -> Positions {
        points.sort();
        points.dedup();
        let mut info = Vec::with_capacity(points.len());
        let (mut at, mut line, mut units) = (0usize, 0usize, 0usize);
        for &p in &points {
            let p = crate::text::floor_char_boundary(body, p);
            let seg = body.get(at..p).unwrap_or("");
            let (newlines, ascii) = super::scan::newlines_and_ascii(seg.as_bytes());
            line += newlines;
            units += if ascii {
                seg.len()
            } else {
                crate::text::utf16_len(seg)
            };
            at = p.max(at);
            info.push((line, units));
        }
        Positions { points, info }
    }

    /// (0-based line, UTF-16 offset) of a point passed to [`Positions::new`].
    pub(crate) fn get(&self, p: usize) -> (usize, usize) {
        let found = self
            .points
            .binary_search(&p)
            .ok()
            .and_then(|i| self.info.get(i).copied());
        // Every caller asks for a point it passed to `new`; a miss is a bug
        // the tests catch, and a release build reports line 1 rather than
        // stopping.
        debug_assert!(found.is_some(), "position {p} was not indexed");
        found.unwrap_or((0, 0))
    }
}

/// Contents past the index limit (4 GiB) are an invalid argument.
pub(crate) fn check_size(lang: Lang, content: &str) -> Result<(), Error> {
    // Offsets are u32 (always true on wasm32, where usize is 32 bits).
    if u32::try_from(content.len()).is_err() {
        return Err(Error::invalid_argument(
            lang,
            "content",
            lang.pick("at most 4 GiB of text", "不超过 4 GiB 的文本"),
        ));
    }
    Ok(())
}
