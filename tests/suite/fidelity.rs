//! SPEC §6.8, fidelity of the safe strategies: the table in
//! `tests/data/fidelity-cases.json`, each case with its exact new content
//! (and the strategy that found it) or the refusal's code. The same table
//! runs through the built package in `tests/node/fidelity.test.mjs`.

use editkit::{replace_text, MatchOptions};
use serde_json::Value;

fn cases() -> Vec<Value> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/fidelity-cases.json"
    );
    let text = std::fs::read_to_string(path).expect("fidelity table");
    let table: Value = serde_json::from_str(&text).expect("fidelity table is JSON");
    table["cases"].as_array().expect("cases").clone()
}

#[test]
fn every_fidelity_case_gives_its_exact_result() {
    let mut failures = Vec::new();
    let all = cases();
    assert!(all.len() >= 14, "the table lost cases");
    for case in &all {
        let name = case["name"].as_str().unwrap();
        let options: MatchOptions =
            serde_json::from_value(case.get("options").cloned().unwrap_or(Value::Null))
                .or_else(|_| serde_json::from_str("{}"))
                .unwrap();
        let got = replace_text(
            case["content"].as_str().unwrap(),
            case["search"].as_str().unwrap(),
            case["replace"].as_str().unwrap(),
            &options,
        );
        let expect = &case["expect"];
        let outcome = match (&got, expect.get("error")) {
            (Ok(r), None) => {
                let strategy = serde_json::to_value(r.strategy).unwrap();
                if r.content == expect["content"].as_str().unwrap()
                    && strategy == expect["strategy"]
                {
                    None
                } else {
                    Some(format!("got {:?} via {strategy}", r.content))
                }
            }
            (Err(e), Some(code)) if serde_json::to_value(e.code).unwrap() == *code => {
                match expect.get("message").and_then(Value::as_str) {
                    Some(said) if said != e.message => Some(format!("said {:?}", e.message)),
                    _ => None,
                }
            }
            (Err(e), _) => Some(format!("refused {:?}: {e}", e.code)),
            (Ok(r), Some(_)) => Some(format!("edited to {:?} via {:?}", r.content, r.strategy)),
        };
        if let Some(why) = outcome {
            failures.push(format!("{name}: {why}"));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

mod properties {
    use editkit::{replace_text, MatchOptions};
    use proptest::prelude::*;

    /// How the file writes the space between two words, and what a model
    /// types for it.
    const GAPS: [&str; 5] = [" ", "\t", "  ", "\u{a0}", " \t "];
    /// Decorations around a word: the file's form and the model's.
    const DECOR: [(&str, &str, &str, &str); 5] = [
        ("", "", "", ""),
        ("“", "”", "\"", "\""),
        ("‘", "’", "'", "'"),
        ("", "…", "", "..."),
        ("— ", "", "- ", ""),
    ];
    const TRAIL: [&str; 4] = ["", "  ", "\t", " \u{200b}"];

    /// One generated line: the file's form and the model's plain form.
    fn line(i: usize, words: &[(u8, u8)], indent: u8, trail: u8) -> (String, String) {
        let unit = ["", "\t", "    ", "\t\t", "        "][usize::from(indent % 5)];
        // Some lines' tabs typed as spaces (an uneven conversion).
        let typed = if indent & 0x80 != 0 {
            unit.replace('\t', "    ")
        } else {
            unit.to_string()
        };
        let (mut file, mut plain) = (unit.to_string(), typed);
        for (m, &(gap, decor)) in words.iter().enumerate() {
            if m > 0 {
                file.push_str(GAPS[usize::from(gap) % GAPS.len()]);
                plain.push(' ');
            }
            let (fo, fc, po, pc) = DECOR[usize::from(decor) % DECOR.len()];
            let word = format!("w{i}x{m}");
            file.push_str(&format!("{fo}{word}{fc}"));
            plain.push_str(&format!("{po}{word}{pc}"));
        }
        file.push_str(TRAIL[usize::from(trail) % TRAIL.len()]);
        (file, plain)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]
        /// SPEC §6.8: a model's search typed plainly (single spaces, ASCII
        /// quotes and dashes, no trailing whitespace, LF) and a replacement
        /// that changes one word. Whenever a safe strategy applies it, the
        /// result is the file with exactly that word changed: every other
        /// byte — tabs, runs of spaces, NBSP, curly quotes, dashes, the
        /// ellipsis, zero-width characters, trailing whitespace, each line's
        /// ending, indentation typed with spaces for tabs — is the file's.
        #[test]
        fn a_safe_edit_changes_only_the_changed_token(
            spec in proptest::collection::vec(
                (proptest::collection::vec((any::<u8>(), any::<u8>()), 1..6), any::<u8>(), any::<u8>(), any::<bool>()),
                3..12,
            ),
            (from, len) in (0usize..12, 1usize..5),
            (pick_line, pick_word) in (any::<usize>(), any::<usize>()),
        ) {
            let mut file = String::new();
            let mut plain_lines = Vec::new();
            for (i, (words, indent, trail, crlf)) in spec.iter().enumerate() {
                let (f, p) = line(i, words, *indent, *trail);
                file.push_str(&f);
                file.push_str(if *crlf { "\r\n" } else { "\n" });
                plain_lines.push(p);
            }
            let first = from % spec.len();
            let last = (first + len).min(spec.len());
            let search = plain_lines[first..last].join("\n");
            let k = first + pick_line % (last - first);
            let m = pick_word % spec[k].0.len();
            let word = format!("w{k}x{m}");
            let replace = plain_lines[first..last]
                .iter()
                .map(|l| l.replace(&word, "CHANGED"))
                .collect::<Vec<_>>()
                .join("\n");
            // Every such slip is a formatting slip: the safe mode places it.
            let r = replace_text(&file, &search, &replace, &MatchOptions::default());
            prop_assert!(r.is_ok(), "refused: {:?}\nfile {:?}\nsearch {:?}", r.err(), file, search);
            let r = r.unwrap();
            prop_assert_eq!(r.content, file.replace(&word, "CHANGED"), "via {:?}", r.strategy);
        }
    }
}
