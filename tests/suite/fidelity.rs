//! SPEC §6.8, fidelity of the safe strategies: the table in
//! `tests/data/fidelity-cases.json`, each case with its exact new content
//! (and the strategy that found it) or the refusal's code. The same table
//! runs through the built package in `tests/node/fidelity.test.mjs`.

use editkit::matcher::{replace_text, ReplaceOptions};
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
        let options: ReplaceOptions =
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
            (Err(e), Some(code)) if serde_json::to_value(e.code).unwrap() == *code => None,
            (Err(e), _) => Some(format!("refused {:?}: {e}", e.code)),
            (Ok(r), Some(_)) => Some(format!("edited to {:?} via {:?}", r.content, r.strategy)),
        };
        if let Some(why) = outcome {
            failures.push(format!("{name}: {why}"));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}
