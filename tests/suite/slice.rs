//! evaluateSlice: the plugin's documented table and edge cases, properties
//! (results are contiguous runs; no input panics; index slices agree with a
//! naive Python oracle) and linear cost over long lists.

use std::cell::Cell;

use editkit::{evaluate_slice, slice_range, SliceItem, SliceOptions};
use editkit::{ErrorCode, Lang};
use proptest::prelude::*;

use super::support::shared_json;

fn ids(value: &serde_json::Value) -> Vec<String> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

fn indices(list: &[String], slice: &str) -> Result<Vec<usize>, editkit::Error> {
    slice_range(list, slice, Lang::En).map(|r| r.collect())
}

fn as_indices(value: &serde_json::Value) -> Vec<usize> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as usize)
        .collect()
}

#[test]
fn documented_table_matches_the_plugin() {
    let outcomes = shared_json("fixtures/siyuan/plugin-expected-outcomes.json");
    let list = ids(&outcomes["slice_documented_list"]);
    let cases = outcomes["slice_documented"].as_array().unwrap();
    assert_eq!(cases.len(), 7);
    for case in cases {
        let syntax = case["syntax"].as_str().unwrap();
        assert_eq!(
            indices(&list, syntax).unwrap(),
            as_indices(&case["expected_indices"]),
            "{syntax}"
        );
        assert_eq!(
            as_indices(&case["computed_indices"]),
            as_indices(&case["expected_indices"])
        );
    }
}

/// Edge cases where editkit deliberately differs, with the reason.
fn deliberate(syntax: &str) -> Option<(&'static str, Result<Vec<usize>, ErrorCode>)> {
    match syntax {
        "foo:bar" => Some((
            "a part that is not an id, an integer, BEGIN or END is INVALID_SLICE with the accepted forms; the \
             plugin's parseInt gave NaN and it silently returned nothing",
            Err(ErrorCode::InvalidSlice),
        )),
        "20240620211520-q2item1 :+3" => Some((
            "whitespace around parts is tolerated (SPEC §4), and id:+N is always the relative form; the plugin's \
             regex failed on the space and read +3 as the absolute end index",
            Ok(vec![2, 3, 4]),
        )),
        _ => None,
    }
}

#[test]
fn edge_cases_match_the_plugin_or_differ_deliberately() {
    let outcomes = shared_json("fixtures/siyuan/plugin-expected-outcomes.json");
    let list = ids(&outcomes["slice_edge_cases_list"]);
    let cases = outcomes["slice_edge_cases"].as_array().unwrap();
    assert_eq!(cases.len(), 26);
    let mut differences = 0;
    for case in cases {
        let syntax = case["syntax"].as_str().unwrap();
        let ours = indices(&list, syntax);
        if let Some((_reason, expected)) = deliberate(syntax) {
            differences += 1;
            assert_eq!(ours.clone().map_err(|e| e.code), expected, "{syntax}");
            if let Some(plugin) = case.get("indices") {
                assert_ne!(
                    ours.ok(),
                    Some(as_indices(plugin)),
                    "{syntax}: listed as a difference"
                );
            }
            continue;
        }
        match case.get("error").and_then(|e| e.as_str()) {
            Some(plugin_error) => {
                let err = ours.unwrap_err();
                let code = if plugin_error.starts_with("Slice Error: Anchor") {
                    ErrorCode::SliceAnchorNotFound
                } else {
                    ErrorCode::InvalidSlice
                };
                assert_eq!(err.code, code, "{syntax}");
                // The plugin's words, then what to do next.
                assert!(
                    err.message.starts_with(plugin_error),
                    "{syntax}: {}",
                    err.message
                );
                assert!(err.message.len() > plugin_error.len());
            }
            None => assert_eq!(ours.unwrap(), as_indices(&case["indices"]), "{syntax}"),
        }
    }
    assert_eq!(differences, 2);
}

#[test]
fn errors_and_empty_message_in_both_languages() {
    let list: Vec<String> = (0..3)
        .map(|i| format!("20240101000000-abcdef{i}"))
        .collect();
    let zh = SliceOptions { lang: Lang::Zh };
    let err = evaluate_slice(&list, "a:b:c", &zh).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidSlice);
    assert!(err.message.starts_with("切片语法错误"), "{}", err.message);
    let err = evaluate_slice(&list, "20990101000000-zzzzzzz", &zh).unwrap_err();
    assert_eq!(
        err.details.block_id.as_deref(),
        Some("20990101000000-zzzzzzz")
    );
    let empty =
        evaluate_slice(&list, "20240101000000-abcdef2:20240101000000-abcdef0", &zh).unwrap();
    assert!(empty.blocks.is_empty());
    assert_eq!(
        empty.message.as_deref(),
        Some("切片结果为空。原始子块数量：3。请检查切片范围。")
    );
    let json = serde_json::to_value(&empty).unwrap();
    assert_eq!(
        json["header"],
        "> [Slice View] Filter: \"20240101000000-abcdef2:20240101000000-abcdef0\" | Count: 0"
    );
    assert_eq!(json["total"], 3);
}

/// A child whose id reads are counted: the cost measure of the evaluator.
struct Counted<'a> {
    id: String,
    reads: &'a Cell<usize>,
}

impl SliceItem for Counted<'_> {
    fn slice_id(&self) -> &str {
        self.reads.set(self.reads.get() + 1);
        &self.id
    }
}

#[test]
fn evaluation_is_linear_in_the_number_of_children() {
    for n in [10_000usize, 100_000] {
        let reads = Cell::new(0);
        let list: Vec<Counted> = (0..n)
            .map(|i| Counted {
                id: format!("20240101000000-{i:07}"),
                reads: &reads,
            })
            .collect();
        let first = format!("20240101000000-{:07}", 1);
        let last = format!("20240101000000-{:07}", n - 1);
        for slice in [
            format!("{first}:{last}"),
            format!("{last}:-50"),
            format!("{last}:+5"),
            format!("BEGIN:{last}"),
            "20990101000000-zzzzzzz:+1".to_string(),
            "-5:".into(),
        ] {
            reads.set(0);
            let _ = slice_range(&list, &slice, Lang::En);
            assert!(
                reads.get() <= 2 * n,
                "{slice}: {} id reads for {n} children",
                reads.get()
            );
        }
    }
}

/// Python's `list[a:b]`, written the obvious way.
fn naive_python(len: usize, a: Option<i64>, b: Option<i64>) -> Vec<usize> {
    let len_i = len as i64;
    let norm = |x: i64| {
        if x < 0 {
            (len_i + x).max(0)
        } else {
            x.min(len_i)
        }
    };
    let start = a.map_or(0, norm);
    let end = b.map_or(len_i, norm);
    (start..end.max(start)).map(|i| i as usize).collect()
}

fn slice_atom() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("BEGIN".to_string()),
        Just("END".to_string()),
        Just(":".to_string()),
        Just("：".to_string()),
        Just(" ".to_string()),
        (0usize..25).prop_map(|i| format!("20240101000000-{i:07}")),
        (-30i64..30).prop_map(|n| n.to_string()),
        (0u64..30).prop_map(|n| format!("+{n}")),
        (0u64..30).prop_map(|n| format!("-{n}")),
        "\\PC{0,4}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn any_text_yields_a_result_or_a_slice_error(len in 0usize..20, text in "\\PC{0,40}") {
        let list: Vec<String> = (0..len).map(|i| format!("20240101000000-{i:07}")).collect();
        match evaluate_slice(&list, &text, &SliceOptions::default()) {
            Ok(r) => {
                prop_assert!(r.start <= r.end && r.end as usize <= len);
                prop_assert_eq!(&r.blocks[..], &list[r.start as usize..r.end as usize]);
            }
            Err(e) => prop_assert!(matches!(e.code, ErrorCode::InvalidSlice | ErrorCode::SliceAnchorNotFound)),
        }
    }

    #[test]
    fn results_are_contiguous_runs_of_the_input(len in 0usize..25, atoms in proptest::collection::vec(slice_atom(), 0..5)) {
        let list: Vec<String> = (0..len).map(|i| format!("20240101000000-{i:07}")).collect();
        let text = atoms.concat();
        if let Ok(r) = evaluate_slice(&list, &text, &SliceOptions { lang: Lang::Zh }) {
            // Every selected block is in the input, in order, with no gaps.
            let positions: Vec<usize> =
                r.blocks.iter().map(|b| list.iter().position(|x| x == b).unwrap()).collect();
            for pair in positions.windows(2) {
                prop_assert_eq!(pair[1], pair[0] + 1);
            }
            prop_assert_eq!(positions.first().copied().unwrap_or(r.start as usize), r.start as usize);
            prop_assert_eq!(r.blocks.len() as u32, r.end - r.start);
            prop_assert_eq!(r.total as usize, len);
            prop_assert_eq!(r.message.is_some(), r.blocks.is_empty() && len > 0);
        }
    }

    #[test]
    fn index_slices_agree_with_python(len in 0usize..30, a in proptest::option::of(-40i64..40), b in proptest::option::of(-40i64..40)) {
        let list: Vec<String> = (0..len).map(|i| format!("20240101000000-{i:07}")).collect();
        let text = format!("{}:{}", a.map(|x| x.to_string()).unwrap_or_default(), b.map(|x| x.to_string()).unwrap_or_default());
        prop_assert_eq!(indices(&list, &text).unwrap(), naive_python(len, a, b));
        if let Some(a) = a {
            prop_assert_eq!(indices(&list, &a.to_string()).unwrap(), naive_python(len, Some(a), None));
        }
    }

    #[test]
    fn relative_forms_agree_with_their_definition(len in 1usize..30, at in 0usize..30, n in 0u64..40) {
        let at = at % len;
        let list: Vec<String> = (0..len).map(|i| format!("20240101000000-{i:07}")).collect();
        let fwd = indices(&list, &format!("{}:+{n}", list[at])).unwrap();
        prop_assert_eq!(fwd, (at..(at + n as usize).min(len)).collect::<Vec<_>>());
        let back = indices(&list, &format!("{}:-{n}", list[at])).unwrap();
        prop_assert_eq!(back, ((at + 1).saturating_sub(n as usize)..at + 1).collect::<Vec<_>>());
    }
}
