//! Match quality over real source files (BENCHMARKS.md §2), as a test: a
//! smaller corpus than `cargo bench --bench quality`, with the invariant
//! that matters most asserted — no edit ever lands in the wrong place, in
//! any mode — and the recall targets held. The corpus is the cargo
//! registry's crate sources (present wherever this crate has been built)
//! and `node_modules` when installed.

use editkit::matcher::Mode;

use super::quality_corpus::{build_cases, collect_sources, evaluate, group_tally, Group, Kind};

#[test]
fn real_source_spans_never_land_in_the_wrong_place() {
    let sources = collect_sources(80);
    assert!(
        sources.len() >= 20,
        "expected cargo registry sources on this machine, found {}",
        sources.len()
    );
    let cases = build_cases(&sources, 2);
    let (tallies, wrong) = evaluate(&sources, &cases);
    let described: Vec<String> = wrong
        .iter()
        .take(5)
        .map(|&(i, mode)| {
            let c = &cases[i];
            format!(
                "{:?} in {mode:?} mode, {}:\nSEARCH:\n{}\nREPLACE:\n{}",
                c.kind,
                sources[c.file].path.display(),
                c.search,
                c.replace
            )
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "{} wrong edits, e.g.\n{}",
        wrong.len(),
        described.join("\n---\n")
    );

    // Every kind produced cases, so no part of the ladder goes unexercised.
    for kind in Kind::ALL {
        let t = tallies
            .get(&(kind, Mode::Safe))
            .copied()
            .unwrap_or_default();
        assert!(t.cases > 0, "no cases of {kind:?}");
    }
    let formatting = group_tally(&tallies, Group::Formatting, Mode::Safe);
    assert!(
        formatting.recall() >= 0.97,
        "safe-mode recall on formatting slips {:.3}",
        formatting.recall()
    );
    let content = group_tally(&tallies, Group::Content, Mode::Fuzzy);
    assert!(
        content.recall() >= 0.90,
        "fuzzy-mode recall on content slips {:.3}",
        content.recall()
    );
    // Content slips never land in safe mode: it forgives formatting only.
    let content_safe = group_tally(&tallies, Group::Content, Mode::Safe);
    assert_eq!(
        content_safe.exact + content_safe.placed,
        0,
        "safe mode landed a content slip"
    );
    // Ambiguous spans: never applied (counted as wrong above), and refused
    // as AMBIGUOUS wherever the mode sees both places: every mode for a
    // verbatim duplicate, the safe and fuzzy modes for a reindented one.
    for (kind, modes) in [
        (Kind::Duplicate, &[Mode::Exact, Mode::Safe, Mode::Fuzzy][..]),
        (Kind::DuplicateReindented, &[Mode::Safe, Mode::Fuzzy][..]),
    ] {
        for &mode in modes {
            let t = tallies.get(&(kind, mode)).copied().unwrap_or_default();
            assert_eq!(t.ambiguous, t.cases, "{kind:?} in {mode:?} mode");
        }
    }
}
