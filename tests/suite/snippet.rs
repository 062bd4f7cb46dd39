//! Edit snippets with elision markers (issue 35), from the table in
//! `tests/data/edit-snippet-cases.json`: each case's content and snippet
//! give the expected file, or the refusal's code (and the lines it names).

use editkit::{plan_edit_snippet, SnippetOptions};
use serde_json::Value;

#[test]
fn snippet_table() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/edit-snippet-cases.json"
    );
    let data: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let cases = data["cases"].as_array().unwrap();
    assert!(cases.len() >= 7);
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let content = case["content"].as_str().unwrap();
        let snippet = case["snippet"].as_str().unwrap();
        let options: SnippetOptions = case
            .get("options")
            .map(|o| serde_json::from_value(o.clone()).unwrap())
            .unwrap_or_default();
        let got = plan_edit_snippet(content, snippet, &options);
        match case.get("expected").and_then(Value::as_str) {
            Some(expected) => {
                let r = got.unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(r.content, expected, "{name}");
            }
            None => {
                let e = got.expect_err(name);
                assert_eq!(
                    e.code.as_str(),
                    case["error"]["code"].as_str().unwrap(),
                    "{name}: {e}"
                );
                if let Some(lines) = case["error"].get("candidates") {
                    let want: Vec<u32> = serde_json::from_value(lines.clone()).unwrap();
                    let got: Vec<u32> = e.details.candidates.iter().map(|c| c.start_line).collect();
                    assert_eq!(got, want, "{name}");
                }
            }
        }
    }
}
