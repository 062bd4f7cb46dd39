//! Matcher integration tests through the public API: the wire shapes,
//! short block texts (the SiYuan content check's use), and properties over
//! generated inputs (proptest): exact matches are always found, a real
//! span perturbed by formatting (indentation, trailing whitespace, CRLF) is
//! found at its own lines, text outside the matched span is never changed,
//! a refused edit leaves the content byte for byte, CRLF and BOM survive,
//! and nothing panics.

use editkit::ErrorCode;
use editkit::{
    apply_search_replace, find_match, replace_text, MatchMode, MatchOptions, SearchReplaceOptions,
    Strategy as Step,
};
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
    let r = find_match("a\nb = 1\n", "b = 1", &MatchOptions::default()).unwrap();
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(v["found"], true);
    assert_eq!(v["strategy"], "exact");
    assert_eq!(v["matches"][0]["startLine"], 2);
    assert_eq!(v["matches"][0]["start"], 2);
    assert_eq!(v["tried"][0], "exact");
    assert_eq!(v["budgetExhausted"], false);
    assert!(v.get("closest").is_none());

    let opts: MatchOptions =
        serde_json::from_value(serde_json::json!({"mode": "fuzzy", "replaceAll": true, "lang": "zh", "fuzzyThreshold": 0.9}))
            .unwrap();
    assert_eq!(opts.mode, MatchMode::Fuzzy);
    assert!(opts.replace_all);
    assert_eq!(opts.fuzzy_threshold, Some(0.9));
    let defaults: SearchReplaceOptions = serde_json::from_value(serde_json::json!({})).unwrap();
    assert!(defaults.atomic);

    let e = replace_text("x\nx\n", "x", "y", &MatchOptions::default()).unwrap_err();
    let v = serde_json::to_value(&e).unwrap();
    assert_eq!(v["code"], "AMBIGUOUS");
    assert_eq!(
        v["candidates"],
        serde_json::json!([{"startLine": 1, "endLine": 1}, {"startLine": 2, "endLine": 2}])
    );
}

#[test]
fn a_single_block_markdown_edit_in_safe_mode() {
    // What the SiYuan content check does with one block's markdown.
    let block = "今天的**计划**：\n- 写代码\n- 测试“匹配器”";
    let opts = MatchOptions {
        mode: MatchMode::Safe,
        ..MatchOptions::default()
    };
    let r = replace_text(block, "- 测试\"匹配器\"", "- 测试\"匹配器\"\n- 提交", &opts).unwrap();
    assert_eq!(r.strategy, Step::UnicodeNormalized);
    assert_eq!(
        r.content,
        "今天的**计划**：\n- 写代码\n- 测试“匹配器”\n- 提交"
    );
    let r = replace_text("短", "短", "长", &opts).unwrap();
    assert_eq!(r.content, "长");
}

fn text(max: usize) -> impl Strategy<Value = String> {
    let pieces = prop_oneof![
        Just("a"),
        Just("b"),
        Just("foo"),
        Just(" "),
        Just("  "),
        Just("\t"),
        Just("\n"),
        Just("\r\n"),
        Just("\r"),
        Just("{"),
        Just("}"),
        Just("("),
        Just(")"),
        Just("="),
        Just("\""),
        Just("“"),
        Just("”"),
        Just("’"),
        Just("\\"),
        Just("\\n"),
        Just("中文"),
        Just("😀"),
        Just("\u{feff}"),
        Just("\u{a0}"),
        Just("—"),
        Just("$&"),
    ];
    proptest::collection::vec(pieces, 0..max).prop_map(|v| v.concat())
}

fn mode() -> impl Strategy<Value = MatchMode> {
    prop_oneof![
        Just(MatchMode::Exact),
        Just(MatchMode::Safe),
        Just(MatchMode::Fuzzy)
    ]
}

/// One generated line of code: its number makes it unique unless it is a
/// closing brace or blank.
fn code_line(i: usize, level: u8, kind: u8, unit: &str) -> (String, bool) {
    let indent = unit.repeat(level as usize);
    match kind {
        0 | 1 => (format!("{indent}let v{i} = f({i});"), true),
        2 => (format!("{indent}if (x{i}) {{"), true),
        3 => (format!("{indent}}}"), false),
        4 => (String::new(), false),
        _ => (format!("{indent}call(\"s{i}\", 'q');"), true),
    }
}

/// Byte offset where 1-based line `line` starts, and where it ends (past its
/// line ending).
fn line_bounds(s: &str, line: u32) -> (usize, usize) {
    let mut start = 0;
    for _ in 1..line {
        start += s[start..].find('\n').map_or(s.len() - start, |i| i + 1);
    }
    let end = s[start..].find('\n').map_or(s.len(), |i| start + i + 1);
    (start, end)
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
        let all = find_match(&content, search, &MatchOptions { mode: MatchMode::Exact, replace_all: true, ..MatchOptions::default() }).unwrap();
        prop_assert!(all.found);
        prop_assert_eq!(byte_of(&content, all.matches[0].start), first);
        let one = find_match(&content, search, &MatchOptions { mode: MatchMode::Exact, ..MatchOptions::default() }).unwrap();
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
        let opts = MatchOptions { mode, ..MatchOptions::default() };
        if let Ok(r) = replace_text(&content, &search, &replace, &opts) {
            let m = &r.matches[0];
            let (a, b) = (byte_of(&content, m.start), byte_of(&content, m.end));
            prop_assert_eq!(&m.text, &content[a..b]);
            let strict = mode != MatchMode::Fuzzy && !replace.trim_start_matches('\u{feff}').is_empty() && r.matches.len() == 1;
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

    /// The search is a real span of the content (whole lines), perturbed the
    /// way models perturb it: indentation shifted uniformly, trailing
    /// whitespace added or dropped, CRLF vs LF, blank lines around it. A
    /// span holding a unique line is found (every such perturbation is a
    /// safe one), at its own lines, and the edit changes nothing outside the
    /// matched lines.
    #[test]
    fn text_outside_a_real_span_is_never_changed(
        spec in proptest::collection::vec((0u8..3, 0u8..6), 1..30),
        tabs in any::<bool>(),
        file_trailing in any::<u32>(),
        (crlf, final_newline) in (any::<bool>(), any::<bool>()),
        (from, len) in (0usize..30, 1usize..8),
        shift in 0u8..3,
        toggle_trailing in any::<u32>(),
        (search_crlf, search_final, pad) in (any::<bool>(), any::<bool>(), 0u8..4),
        new_lines in 0usize..3,
        mode in prop_oneof![Just(MatchMode::Safe), Just(MatchMode::Fuzzy)],
    ) {
        let unit = if tabs { "\t" } else { "    " };
        let mut lines = Vec::new();
        let mut unique = Vec::new();
        for (i, &(level, kind)) in spec.iter().enumerate() {
            let (mut text, is_unique) = code_line(i, level, kind, unit);
            if file_trailing >> (i % 32) & 1 == 1 && !text.is_empty() {
                text.push_str("  ");
            }
            lines.push(text);
            unique.push(is_unique);
        }
        let ending = if crlf { "\r\n" } else { "\n" };
        let mut content = lines.join(ending);
        if final_newline {
            content.push_str(ending);
        }
        let first = from % lines.len();
        let last = (first + len).min(lines.len()); // exclusive
        let span = &lines[first..last];

        // The perturbed search.
        let indent_of = |l: &str| l.len() - l.trim_start().len();
        let common = span.iter().filter(|l| !l.trim().is_empty()).map(|l| indent_of(l)).min().unwrap_or(0);
        let mut search_lines: Vec<String> = span
            .iter()
            .enumerate()
            .map(|(k, l)| {
                let mut l = match shift {
                    1 if !l.trim().is_empty() => format!("{unit}{l}"),
                    2 if !l.trim().is_empty() => l[common..].to_string(),
                    _ => l.clone(),
                };
                if toggle_trailing >> (k % 32) & 1 == 1 && !l.trim().is_empty() {
                    if l.ends_with(' ') {
                        l = l.trim_end().to_string();
                    } else {
                        l.push(' ');
                    }
                }
                l
            })
            .collect();
        if pad & 1 == 1 {
            search_lines.insert(0, String::new());
        }
        if pad & 2 == 2 {
            search_lines.push(String::new());
        }
        let search_ending = if search_crlf { "\r\n" } else { "\n" };
        let mut search = search_lines.join(search_ending);
        if search_final {
            search.push_str(search_ending);
        }
        if search.trim().is_empty() {
            return Ok(()); // a span of blank lines only: nothing to locate
        }

        // The replacement, at the search's own indentation (always mappable).
        let base = search_lines.iter().find(|l| !l.trim().is_empty()).map_or("", |l| &l[..indent_of(l)]);
        let replace: String = (0..new_lines).map(|k| format!("{base}NEW{k}\n")).collect();

        let opts = MatchOptions { mode, ..MatchOptions::default() };
        let result = replace_text(&content, &search, &replace, &opts);
        let has_unique = unique[first..last].iter().any(|&u| u);
        let r = match result {
            Ok(r) => r,
            Err(e) => {
                prop_assert!(!has_unique, "a real span was refused: {} ({:?} in {:?})", e, search, content);
                return Ok(());
            }
        };
        prop_assert_eq!(r.matches.len(), 1);
        let m = &r.matches[0];
        prop_assert!(m.strategy.as_str() != "token_flexible" && !m.strategy.is_fuzzy(), "{:?}", m.strategy);
        // At its own lines (when a unique line pins them): every unique
        // line of the span is inside the match, and the match stays within
        // the span, or one line past it where the search's padding matched
        // a real blank line (or the line break ending the line before).
        if has_unique {
            let (span_first, span_last) = (first as u32 + 1, last as u32);
            for (k, _) in unique[first..last].iter().enumerate().filter(|(_, u)| **u) {
                let line = span_first + k as u32;
                prop_assert!(m.start_line <= line && line <= m.end_line, "line {} not in {}~{}", line, m.start_line, m.end_line);
            }
            let (lead, trail) = (u32::from(pad & 1), u32::from(pad >> 1));
            prop_assert!(
                m.start_line + lead >= span_first && m.end_line <= span_last + trail,
                "{}~{} outside {}~{}", m.start_line, m.end_line, span_first, span_last
            );
        }
        // Outside the matched lines nothing changed. A deletion at the end
        // of a file without a final newline takes the line break before it.
        let (prefix_end, _) = line_bounds(&content, m.start_line);
        let (_, suffix_start) = line_bounds(&content, m.end_line);
        let mut prefix = &content[..prefix_end];
        let suffix = &content[suffix_start..];
        if replace.is_empty() && suffix.is_empty() && !r.content.starts_with(prefix) {
            prefix = prefix.strip_suffix(ending).unwrap_or(prefix);
        }
        prop_assert!(r.content.starts_with(prefix), "prefix changed: {:?} -> {:?}", content, r.content);
        prop_assert!(r.content.ends_with(suffix), "suffix changed: {:?} -> {:?}", content, r.content);
        prop_assert!(prefix.len() + suffix.len() <= r.content.len());
        let middle = &r.content[prefix.len()..r.content.len() - suffix.len()];
        prop_assert_eq!(middle.matches("NEW").count(), new_lines, "{:?}", middle);
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
        if let Ok(r) = replace_text(&content, target, &replace, &MatchOptions::default()) {
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
        let opts = MatchOptions { mode, replace_all: all, ..MatchOptions::default() };
        if let Ok(r) = find_match(&content, &search, &opts) {
            let units: u32 = content.chars().map(|c| c.len_utf16() as u32).sum();
            let lines = content.matches('\n').count() as u32 + 1;
            for m in &r.matches {
                prop_assert!(m.start <= m.end && m.end <= units);
                prop_assert!(1 <= m.start_line && m.start_line <= m.end_line && m.end_line <= lines);
            }
        }
        let _ = replace_text(&content, &search, "x\ny", &opts);
        let _ = apply_search_replace(&content, &search, &SearchReplaceOptions::default());
    }
}

/// Generated files for `tests/data/closest-regions.json`, which
/// `tests/node/matcher.test.mjs` rebuilds the same way: 60 files of
/// `lines` lines, each line `min + rnd(spread)` atoms (then `wrap`), and a
/// search of `take` lines from each, edited by `edit` (line, index). A
/// 32-bit LCG (JS uses `Math.imul`).
struct Generated {
    seed: u32,
    atoms: &'static [&'static str],
    lines: usize,
    min: usize,
    spread: u32,
    wrap: fn(String) -> String,
    take: usize,
    edit: fn(&str, usize) -> String,
}

fn generated(g: Generated) -> Vec<(String, String)> {
    let mut seed = g.seed;
    let mut rnd = |n: u32| {
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        (seed % n) as usize
    };
    (0..60)
        .map(|_| {
            let lines: Vec<String> = (0..g.lines)
                .map(|_| {
                    let n = g.min + rnd(g.spread);
                    (g.wrap)((0..n).map(|_| g.atoms[rnd(g.atoms.len() as u32)]).collect())
                })
                .collect();
            let at = rnd((g.lines - g.take) as u32);
            let search: Vec<String> = lines[at..at + g.take]
                .iter()
                .enumerate()
                .map(|(i, l)| (g.edit)(l, i))
                .collect();
            (lines.join("\n") + "\n", search.join("\n"))
        })
        .collect()
}

/// Punctuation-heavy lines, so the word masks of lines of 16 bytes and
/// more (the wasm build's `v128` path) decide the closest region a
/// refusal reports; the second search line gets a word added.
fn closest_cases() -> Vec<(String, String)> {
    generated(Generated {
        seed: 12345,
        atoms: &[
            "foo", "bar_baz", "(", ")", "{", "}", "[", "]", "<", ">", ":", "=", ",", ";", " ",
            "  ", "\t", ".", "\"q\"", "'s'", "+", "-", "*", "/", "|", "\\", "@", "#", "x1", "Y_2",
            "0x7f", "\u{b}", "\u{c}",
        ],
        lines: 24,
        min: 1,
        spread: 30,
        wrap: |l| l,
        take: 4,
        edit: |l, i| {
            if i == 1 {
                format!("{l} zz")
            } else {
                l.to_string()
            }
        },
    })
}

/// Short words, punctuation and whitespace (lines of 16–64 bytes, where
/// the fold hash builds its whitespace masks, in `v128` in the wasm build),
/// and a search whose whitespace was changed the ways models change it (a
/// tab for spaces, a run of spaces for one, one space for a run). Word
/// atoms end in punctuation or a space, so no run of word characters
/// reaches the anchor length: the windows come from every line's hash.
fn whitespace_cases() -> Vec<(String, String)> {
    generated(Generated {
        seed: 777,
        atoms: &[
            "foo(", "x1 ", "Y_2;", "(", ")", "=", ";", ".", " ", "  ", "\t", "ab.", "0x7f,", "#",
        ],
        lines: 20,
        min: 8,
        spread: 12,
        wrap: |l| format!("w{l}w"),
        take: 3,
        edit: |l, _| l.replace('\t', "  ").replace("   ", " "),
    })
}

/// The closest region of each generated refusal, natively; the Node suite
/// checks the wasm build against the same table (`CLOSEST_WRITE=1`
/// rewrites it).
#[test]
fn closest_regions_of_generated_refusals() {
    let fuzzy = MatchOptions {
        mode: MatchMode::Fuzzy,
        ..MatchOptions::default()
    };
    let got: Vec<serde_json::Value> = closest_cases()
        .iter()
        .map(|(content, search)| {
            let r = find_match(content, search, &MatchOptions::default()).unwrap();
            let c = r.closest.expect("a closest region");
            // Fuzzy mode compares lines by their fold hashes (the wasm
            // build's whitespace masks): where it lands, or its closest.
            let f = find_match(content, search, &fuzzy).unwrap();
            let lines = match (f.matches.first(), &f.closest) {
                (Some(m), _) => [m.start_line, m.end_line],
                (None, Some(c)) => [c.start_line, c.end_line],
                (None, None) => [0, 0],
            };
            serde_json::json!([c.start_line, c.end_line, c.similarity, f.found, lines])
        })
        .collect();
    // The whitespace cases: found or not, by which strategy, where.
    let spaced: Vec<serde_json::Value> = whitespace_cases()
        .iter()
        .map(|(content, search)| {
            let r = find_match(content, search, &MatchOptions::default()).unwrap();
            let at = r.matches.first().map_or(0, |m| m.start_line);
            serde_json::json!([r.found, r.strategy.map(|s| s.as_str()), at])
        })
        .collect();
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/closest-regions.json"
    );
    if std::env::var_os("CLOSEST_WRITE").is_some() {
        let table = serde_json::json!({ "refusals": got, "whitespace": spaced });
        std::fs::write(path, serde_json::to_string(&table).unwrap() + "\n").unwrap();
    }
    let table: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(&serde_json::Value::from(spaced), &table["whitespace"]);
    let want: Vec<serde_json::Value> = serde_json::from_value(table["refusals"].clone()).unwrap();
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!((&g[0], &g[1]), (&w[0], &w[1]), "case {i}: lines");
        assert_eq!((&g[3], &g[4]), (&w[3], &w[4]), "case {i}: fuzzy");
        let (a, b) = (g[2].as_f64().unwrap(), w[2].as_f64().unwrap());
        assert!((a - b).abs() < 1e-9, "case {i}: similarity {a} vs {b}");
    }
}
