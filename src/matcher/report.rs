//! The failure report of SPEC §6.3: every strategy tried, the closest
//! region of the content with its line numbers and similarity, the near
//! misses the strategies noticed, and concrete advice.

use super::budget::Budget;
use super::content::Content;
use super::ladder::{Run, Settings};
use super::normalize::is_zero_width;
use super::strategies::windows::{best_windows, token_similarity};
use super::strategies::{Cx, NearMiss, Needle};
use super::types::{Closest, Hint, Invisible, NotFound};
use super::unicode_forms;
use crate::text::{unified_diff, UnifiedDiffOptions};

/// Budget of the closest-region search, apart from the ladder's (which may
/// be spent).
const CLOSEST_BUDGET: u32 = 20_000_000;

fn line_no(i: usize) -> u32 {
    u32::try_from(i + 1).unwrap_or(u32::MAX)
}

/// The region most similar to the search: the token filter's two best
/// windows as long as the search, compared by token sequence similarity.
pub(crate) fn closest(
    content: &Content<'_>,
    needle: &Needle,
    settings: &Settings,
) -> Option<Closest> {
    let k = needle.lines.len();
    if k == 0 || content.body.is_empty() {
        return None;
    }
    let mut cx = Cx {
        content,
        budget: Budget::new(CLOSEST_BUDGET.min(settings.budget.max(1_000_000))),
        limits: settings.limits,
        replace_all: false,
        prose: settings.prose,
        near: Vec::new(),
    };
    let heads = best_windows(&mut cx, needle)?;
    let search_text = needle.lines.join("\n");
    let mut best: Option<(usize, usize, f64)> = None;
    // The second window is worth a sequence similarity only when the
    // filter cannot tell it from the first.
    let top = heads.first().map_or(0.0, |h| h.dice);
    for w in heads.iter().take(2).filter(|w| w.dice >= top - 0.1) {
        let text: Vec<&str> = (w.first..w.first + w.count)
            .map(|i| content.line(i))
            .collect();
        let sim = token_similarity(&mut cx, &search_text, &text.join("\n"))?;
        if best.is_none_or(|(_, _, s)| sim > s) {
            best = Some((w.first, w.count, sim));
        }
    }
    let (first, count, sim) = best?;
    let lines = content.lines();
    let (a, b) = (lines.get(first)?, lines.get(first + count - 1)?);
    let text = content.body.get(a.start()..b.end())?.to_string();
    let lf_text = text.replace("\r\n", "\n");
    let diff = unified_diff(
        &format!("{search_text}\n"),
        &format!("{lf_text}\n"),
        UnifiedDiffOptions {
            old_name: "search",
            new_name: "content",
            context: 3,
        },
    );
    Some(Closest {
        start_line: line_no(first),
        end_line: line_no(first + count - 1),
        similarity: sim,
        text,
        diff,
    })
}

/// What makes `search` differ from the file's `region` when the two are
/// equal once invisible characters are set aside: NBSP (and the narrow
/// and figure spaces) for a space, zero-width characters, NFC vs NFD, a CR
/// that is not part of a CRLF. Empty when they differ in anything else.
fn invisible_differences(search: &str, region: &str) -> Vec<Invisible> {
    let steps: [(Invisible, super::ToForm); 4] = [
        (Invisible::CarriageReturn, |t| {
            t.replace("\r\n", "\n").replace('\r', "")
        }),
        (Invisible::Nbsp, |t| {
            t.replace(['\u{a0}', '\u{202f}', '\u{2007}'], " ")
        }),
        (Invisible::ZeroWidth, |t| {
            t.chars().filter(|&c| !is_zero_width(c)).collect()
        }),
        (Invisible::NormalForm, unicode_forms::nfc),
    ];
    let apply = |text: &str, skip: Option<usize>| -> String {
        let mut t = text.trim().to_string();
        for (i, (_, step)) in steps.iter().enumerate() {
            if skip != Some(i) {
                t = step(&t);
            }
        }
        t
    };
    // Plain ASCII without a CR has none of these characters: the steps
    // leave both texts as they are (the usual miss, spared four passes).
    let plain = |t: &str| t.is_ascii() && !t.contains('\r');
    if plain(search) && plain(region) {
        return Vec::new();
    }
    if search.trim() == region.trim() || apply(search, None) != apply(region, None) {
        return Vec::new();
    }
    // A kind is a cause when, left out, the two no longer agree.
    (0..steps.len())
        .filter(|&i| apply(search, Some(i)) != apply(region, Some(i)))
        .map(|i| steps[i].0)
        .collect()
}

fn hints(run: &Run, settings: &Settings) -> Vec<Hint> {
    let mut out = Vec::new();
    let mut indentation_seen = false;
    for near in &run.near {
        match *near {
            NearMiss::Indentation { first, last } if !indentation_seen => {
                indentation_seen = true;
                out.push(Hint::Indentation {
                    start_line: line_no(first),
                    end_line: line_no(last),
                });
            }
            NearMiss::Indentation { .. } => {}
            NearMiss::Fuzzy {
                first,
                last,
                score,
                runner_up,
            } => {
                let (start_line, end_line) = (line_no(first), line_no(last));
                match runner_up {
                    Some(r)
                        if score >= settings.limits.threshold
                            && score - r < settings.limits.margin =>
                    {
                        out.push(Hint::TooClose {
                            start_line,
                            end_line,
                            score,
                            runner_up: r,
                        });
                    }
                    _ => out.push(Hint::Weak {
                        start_line,
                        end_line,
                        score,
                        threshold: settings.limits.threshold,
                    }),
                }
            }
        }
    }
    out.dedup_by(|a, b| std::mem::discriminant(a) == std::mem::discriminant(b));
    out
}

/// The failure report's facts: the strategies tried, the near misses and
/// the closest region.
pub(crate) fn not_found(
    content: &Content<'_>,
    needle: &Needle,
    settings: &Settings,
    run: &Run,
) -> NotFound {
    let closest = closest(content, needle, settings);
    let mut hints = hints(run, settings);
    if let Some(c) = &closest {
        let kinds = invisible_differences(&needle.exact, &c.text);
        if !kinds.is_empty() {
            hints.insert(
                0,
                Hint::Invisible {
                    start_line: c.start_line,
                    end_line: c.end_line,
                    kinds,
                },
            );
        }
    }
    NotFound {
        search: needle.exact.clone(),
        mode: settings.mode,
        tried: run.tried.clone(),
        exhausted: run.exhausted,
        hints,
        closest,
    }
}
