//! Matcher integration tests through the public API: the wire shapes,
//! short block texts (the SiYuan content check's use), and properties over
//! generated inputs (proptest): exact matches are always found, text
//! outside the matched span is never changed, a refused edit leaves the
//! content byte for byte, CRLF and BOM survive, and nothing panics.

use editkit::matcher::{
    apply_search_replace, find_match, replace_text, FindOptions, Mode, ReplaceOptions, SearchReplaceOptions,
    Strategy as Step,
};
use editkit::ErrorCode;
use proptest::prelude::*;

/// Byte offset of a UTF-16 offset into `s`.
fn byte_of(s: &str, units: u32) -> usize {
    let mut u = 0u32;
    for (i, c) in s.char_indices() {
        if u >= units {
            return i;
        }
        u += c.len_utf16() as u32;
    }
    s.len()
}

#[test]
fn results_and_options_have_the_documented_wire_shape() {
    let r = find_match("a\nb = 1\n", "b = 1", &FindOptions::default()).unwrap();
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(v["found"], true);
    assert_eq!(v["strategy"], "exact");
    assert_eq!(v["matches"][0]["startLine"], 2);
    assert_eq!(v["matches"][0]["start"], 2);
    assert_eq!(v["tried"][0], "exact");
    assert_eq!(v["budgetExhausted"], false);
    assert!(v.get("closest").is_none());

    let opts: ReplaceOptions =
        serde_json::from_value(serde_json::json!({"mode": "fuzzy", "replaceAll": true, "lang": "zh", "fuzzyThreshold": 0.9}))
            .unwrap();
    assert_eq!(opts.mode, Mode::Fuzzy);
    assert!(opts.replace_all);
    assert_eq!(opts.fuzzy_threshold, Some(0.9));
    let defaults: SearchReplaceOptions = serde_json::from_value(serde_json::json!({})).unwrap();
    assert!(defaults.atomic);

    let e = replace_text("x\nx\n", "x", "y", &ReplaceOptions::default()).unwrap_err();
    let v = serde_json::to_value(&e).unwrap();
    assert_eq!(v["code"], "AMBIGUOUS");
    assert_eq!(v["candidates"], serde_json::json!([{"startLine": 1, "endLine": 1}, {"startLine": 2, "endLine": 2}]));
}

#[test]
fn a_single_block_markdown_edit_in_safe_mode() {
    // What the SiYuan content check does with one block's markdown.
    let block = "今天的**计划**：\n- 写代码\n- 测试“匹配器”";
    let opts = ReplaceOptions { mode: Mode::Safe, ..ReplaceOptions::default() };
    let r = replace_text(block, "- 测试\"匹配器\"", "- 测试\"匹配器\"\n- 提交", &opts).unwrap();
    assert_eq!(r.strategy, Step::UnicodeNormalized);
    assert_eq!(r.content, "今天的**计划**：\n- 写代码\n- 测试“匹配器”\n- 提交");
    let r = replace_text("短", "短", "长", &opts).unwrap();
    assert_eq!(r.content, "长");
}

fn text(max: usize) -> impl Strategy<Value = String> {
    let pieces = prop_oneof![
        Just("a"), Just("b"), Just("foo"), Just(" "), Just("  "), Just("\t"), Just("\n"), Just("\r\n"), Just("\r"),
        Just("{"), Just("}"), Just("("), Just(")"), Just("="), Just("\""), Just("“"), Just("”"), Just("’"),
        Just("\\"), Just("\\n"), Just("中文"), Just("😀"), Just("\u{feff}"), Just("\u{a0}"), Just("—"), Just("$&"),
    ];
    proptest::collection::vec(pieces, 0..max).prop_map(|v| v.concat())
}

fn mode() -> impl Strategy<Value = Mode> {
    prop_oneof![Just(Mode::Exact), Just(Mode::Safe), Just(Mode::Fuzzy)]
}

proptest! {
    // 200 cases by default; PROPTEST_CASES=n for a longer run.
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(200)
    ))]

    /// Any substring of the content is located: uniquely, or listed among
    /// the ambiguous locations, and replace-all finds the first occurrence.
    #[test]
    fn exact_matches_are_always_found(content in text(40), a in 0usize..200, len in 1usize..40) {
        let chars: Vec<(usize, char)> = content.char_indices().collect();
        prop_assume!(!chars.is_empty());
        let start = chars[a % chars.len()].0;
        let end = chars.get(a % chars.len() + len).map_or(content.len(), |c| c.0);
        let search = &content[start..end];
        prop_assume!(!search.is_empty() && !search.starts_with('\u{feff}'));
        let first = content.find(search).unwrap();
        let all = find_match(&content, search, &FindOptions { mode: Mode::Exact, replace_all: true, ..FindOptions::default() }).unwrap();
        prop_assert!(all.found);
        prop_assert_eq!(byte_of(&content, all.matches[0].start), first);
        let one = find_match(&content, search, &FindOptions { mode: Mode::Exact, ..FindOptions::default() }).unwrap();
        let overlapping = content.match_indices(search).count() > 1
            || content[first + content[first..].chars().next().map_or(1, char::len_utf8)..].contains(search);
        if one.found {
            prop_assert_eq!(one.matches.len(), 1);
            prop_assert_eq!(byte_of(&content, one.matches[0].start), first);
            prop_assert_eq!(&one.matches[0].text, search);
        } else {
            prop_assert!(overlapping);
            prop_assert_eq!(one.code, Some(ErrorCode::Ambiguous));
        }
    }

    /// Whatever the strategy, an edit changes nothing outside the lines of
    /// the span it reports (and with a non-empty replacement in exact and
    /// safe modes, nothing outside the span itself).
    #[test]
    fn text_outside_the_span_is_never_changed(content in text(60), search in text(12), replace in text(12), mode in mode()) {
        let opts = ReplaceOptions { mode, ..ReplaceOptions::default() };
        if let Ok(r) = replace_text(&content, &search, &replace, &opts) {
            let m = &r.matches[0];
            let (a, b) = (byte_of(&content, m.start), byte_of(&content, m.end));
            prop_assert_eq!(&m.text, &content[a..b]);
            let strict = mode != Mode::Fuzzy && !replace.trim_start_matches('\u{feff}').is_empty() && r.matches.len() == 1;
            let (mut keep_a, mut keep_b) = (a, b);
            if !strict {
                // The line start before the span, one line break more on
                // either side (whole-line deletion).
                keep_a = content[..a].rfind('\n').map_or(0, |i| i + 1);
                keep_a = keep_a.saturating_sub(if content[..keep_a].ends_with("\r\n") { 2 } else { usize::from(keep_a > 0) });
                keep_b = b + if content[b..].starts_with("\r\n") { 2 } else { usize::from(content[b..].starts_with('\n')) };
            }
            if r.matches.len() == 1 {
                prop_assert!(r.content.starts_with(&content[..keep_a]), "prefix changed: {:?} -> {:?}", content, r.content);
                prop_assert!(r.content.ends_with(&content[keep_b..]), "suffix changed: {:?} -> {:?}", content, r.content);
            }
        }
    }

    /// A block set that fails anywhere leaves the content byte for byte
    /// (atomic, the default).
    #[test]
    fn a_refused_edit_leaves_the_content_unchanged(content in text(40), good in text(6), bad in text(6), replace in text(6)) {
        let body = |s: &str| s.replace("\r\n", "\n");
        let blocks = format!(
            "<<<<<<< SEARCH\n{}\n=======\n{}\n>>>>>>> REPLACE\n<<<<<<< SEARCH\n{}zz_never_there\n=======\nx\n>>>>>>> REPLACE\n",
            body(&good), body(&replace), body(&bad)
        );
        if let Ok(report) = apply_search_replace(&content, &blocks, &SearchReplaceOptions::default()) {
            prop_assert!(!report.ok);
            prop_assert_eq!(report.content.as_bytes(), content.as_bytes());
        }
    }

    /// A BOM and CRLF file stays BOM and CRLF whatever the replacement's
    /// line breaks.
    #[test]
    fn crlf_and_bom_survive(lines in proptest::collection::vec("[a-z ]{1,8}", 2..8), pick in 0usize..8, replace in "[a-z\n]{0,12}") {
        let content = format!("\u{feff}{}\r\n", lines.join("\r\n"));
        let target = &lines[pick % lines.len()];
        prop_assume!(content.matches(target.as_str()).count() == 1 && !target.trim().is_empty());
        if let Ok(r) = replace_text(&content, target, &replace, &ReplaceOptions::default()) {
            let bom = r.content.starts_with('\u{feff}');
            prop_assert!(bom);
            let bare_lf = r.content.as_bytes().windows(2).any(|w| w[1] == b'\n' && w[0] != b'\r')
                || r.content.as_bytes().first() == Some(&b'\n');
            prop_assert!(!bare_lf, "{:?}", r.content);
        }
    }

    /// No input panics, and every reported position is inside the content.
    #[test]
    fn nothing_panics_and_positions_are_in_range(content in text(80), search in text(16), mode in mode(), all in any::<bool>()) {
        let opts = FindOptions { mode, replace_all: all, ..FindOptions::default() };
        if let Ok(r) = find_match(&content, &search, &opts) {
            let units: u32 = content.chars().map(|c| c.len_utf16() as u32).sum();
            let lines = content.matches('\n').count() as u32 + 1;
            for m in &r.matches {
                prop_assert!(m.start <= m.end && m.end <= units);
                prop_assert!(1 <= m.start_line && m.start_line <= m.end_line && m.end_line <= lines);
            }
        }
        let _ = replace_text(&content, &search, "x\ny", &ReplaceOptions::from(&opts));
        let _ = apply_search_replace(&content, &search, &SearchReplaceOptions::default());
    }
}
