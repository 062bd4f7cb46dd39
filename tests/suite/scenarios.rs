//! `tests/scenarios/siyuan.json` with the native core: the same table the
//! Node suite runs with the wasm build (and against a live kernel), here
//! through `apply_block_diff` and the kernel double over the pipe. See
//! `tests/scenarios/README.md` for the format.

use std::collections::HashMap;

use editkit::parse_ial;
use editkit::SiyuanHost;
use editkit::{apply_block_diff, ApplyOptions};
use serde_json::{json, Value};

use super::kernel_host::KernelHost;
use super::support::block_on;

const DOC: &str = "20990101000000-doc0001";

/// Fresh ids for the `{{name}}` placeholders of one scenario.
struct Ids {
    salt: u32,
    map: HashMap<String, String>,
}

impl Ids {
    fn fill(&mut self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(open) = rest.find("{{") {
            let Some(close) = rest[open..].find("}}") else {
                break;
            };
            let name = &rest[open + 2..open + close];
            if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                out.push_str(&rest[..open + 2]);
                rest = &rest[open + 2..];
                continue;
            }
            out.push_str(&rest[..open]);
            let n = self.map.len() as u32 + 1;
            let salt = self.salt;
            let id = self
                .map
                .entry(name.to_string())
                .or_insert_with(|| format!("20000101000000-{:0>7}", to_base36(salt * 97 + n)));
            out.push_str(id);
            rest = &rest[open + close + 2..];
        }
        out.push_str(rest);
        out
    }

    fn fill_value(&mut self, value: &Value) -> Value {
        serde_json::from_str(&self.fill(&value.to_string())).unwrap()
    }
}

fn to_base36(mut n: u32) -> String {
    let mut digits = Vec::new();
    loop {
        digits.push(std::char::from_digit(n % 36, 36).unwrap());
        n /= 36;
        if n == 0 {
            break;
        }
    }
    digits.iter().rev().collect()
}

/// Kramdown with each IAL's pairs as a set (sorted) and `updated` aside
/// (the kernel lists attributes in a new order on every read), without the
/// zero-width spaces the kernel puts beside inline code and `<kbd>` on
/// every API write.
fn as_sets(kramdown: &str) -> String {
    let kramdown = kramdown.replace('\u{200b}', "");
    let mut out = String::with_capacity(kramdown.len());
    let mut rest = kramdown.as_str();
    while let Some(open) = rest.find("{:") {
        out.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        let mut pairs: Vec<(String, String)> = parse_ial(&rest[open..=open + close])
            .into_iter()
            .filter(|(k, _)| k != "updated")
            .collect();
        pairs.sort();
        let inner: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}=\"{v}\"")).collect();
        out.push_str(&format!("{{: {}}}", inner.join(" ")));
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
}

/// Reads a block's kramdown `times` times: one attribute set every time.
fn reads(host: &KernelHost, spec: &Value, label: &str) {
    let id = spec["id"].as_str().unwrap().to_string();
    let mut sets = std::collections::HashSet::new();
    for _ in 0..spec["times"].as_u64().unwrap() {
        let kramdown = block_on(host.get_kramdown(std::slice::from_ref(&id))).unwrap()[0]
            .clone()
            .unwrap_or_else(|| panic!("{label}: {id} exists"));
        sets.insert(as_sets(&kramdown));
    }
    assert_eq!(sets.len(), 1, "{label}: one attribute set");
}

fn check(host: &KernelHost, spec: &Value, start: &str, label: &str) {
    block_on(host.flush_transaction()).unwrap();
    let row = |id: &str| block_on(host.get_blocks(&[id.to_string()])).unwrap()[0].clone();
    for (id, md) in spec["markdown"].as_object().into_iter().flatten() {
        let got = row(id).map(|b| b.markdown);
        assert_eq!(got.as_deref(), md.as_str(), "{label}: markdown of {id}");
    }
    for id in spec["exists"].as_array().into_iter().flatten() {
        assert!(row(id.as_str().unwrap()).is_some(), "{label}: {id} exists");
    }
    for id in spec["missing"].as_array().into_iter().flatten() {
        assert!(row(id.as_str().unwrap()).is_none(), "{label}: {id} is gone");
    }
    for (id, want) in spec["attrs"].as_object().into_iter().flatten() {
        let have: HashMap<String, String> = row(id)
            .map(|b| parse_ial(&b.ial).into_iter().collect())
            .unwrap_or_default();
        for (k, v) in want.as_object().unwrap() {
            assert_eq!(
                have.get(k).map(String::as_str),
                v.as_str(),
                "{label}: {id} {k}"
            );
        }
    }
    for (id, count) in spec["count"].as_object().into_iter().flatten() {
        let stmt = format!("SELECT id FROM blocks WHERE id = '{id}' LIMIT 10");
        let res = host.kernel("request", json!(["/api/query/sql", {"stmt": stmt}]));
        assert_eq!(
            res["data"].as_array().map(Vec::len),
            count.as_u64().map(|c| c as usize),
            "{label}: blocks with id {id}"
        );
    }
    for id in spec["gone"].as_array().into_iter().flatten() {
        let id = id.as_str().unwrap().to_string();
        let kramdown = block_on(host.get_kramdown(std::slice::from_ref(&id))).unwrap();
        assert_eq!(kramdown[0], None, "{label}: {id} is gone from the document");
    }
    for (id, keys) in spec["attrsAbsent"].as_object().into_iter().flatten() {
        let have: HashMap<String, String> = row(id)
            .map(|b| parse_ial(&b.ial).into_iter().collect())
            .unwrap_or_default();
        for key in keys.as_array().unwrap() {
            assert!(
                !have.contains_key(key.as_str().unwrap()),
                "{label}: {id} has no {key}"
            );
        }
    }
    let children = || block_on(host.get_child_blocks(&[DOC.to_string()])).unwrap()[0].clone();
    if let Some(want) = spec.get("topLevel") {
        let got: Vec<String> = children().into_iter().map(|c| c.markdown).collect();
        assert_eq!(json!(got), *want, "{label}: top-level blocks");
    }
    if let Some(want) = spec.get("topLevelTypes") {
        let got: Vec<String> = children().into_iter().map(|c| c.type_).collect();
        assert_eq!(json!(got), *want, "{label}: top-level block types");
    }
    for (id, want) in spec["children"].as_object().into_iter().flatten() {
        let got: Vec<String> = block_on(host.get_child_blocks(std::slice::from_ref(id))).unwrap()
            [0]
        .iter()
        .map(|c| c.markdown.clone())
        .collect();
        assert_eq!(json!(got), *want, "{label}: children of {id}");
    }
    if spec["sameAsStart"] == json!(true) {
        let now = block_on(host.get_kramdown(&[DOC.to_string()])).unwrap()[0]
            .clone()
            .unwrap_or_default();
        assert_eq!(
            as_sets(&now),
            as_sets(start),
            "{label}: the document as it was"
        );
    }
}

#[test]
fn the_siyuan_scenario_table_holds_with_the_native_core() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios/siyuan.json");
    let table: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert!(table.len() >= 14);
    for (n, scenario) in table.iter().enumerate() {
        let name = scenario["name"].as_str().unwrap();
        let mut ids = Ids {
            salt: n as u32 + 1,
            map: HashMap::new(),
        };
        let host =
            KernelHost::with_document(DOC, &ids.fill(scenario["document"].as_str().unwrap()));
        let start = block_on(host.get_kramdown(&[DOC.to_string()])).unwrap()[0]
            .clone()
            .unwrap_or_default();
        let mut undo: Option<String> = None;
        for (i, step) in scenario["steps"].as_array().unwrap().iter().enumerate() {
            let label = format!("{name}, step {}", i + 1);
            if step.get("apply").is_some() || step["undo"] == json!(true) {
                let diff = if step["undo"] == json!(true) {
                    undo.clone().unwrap_or_else(|| panic!("{label}: no undo"))
                } else {
                    ids.fill(step["apply"].as_str().unwrap())
                };
                let options: ApplyOptions =
                    serde_json::from_value(step.get("options").cloned().unwrap_or(json!({})))
                        .unwrap();
                let report = block_on(apply_block_diff(&diff, &host, &options))
                    .unwrap_or_else(|e| panic!("{label}: {e}"));
                let expect = &step["expect"];
                if let Some(ok) = expect["ok"].as_bool() {
                    assert_eq!(report.ok, ok, "{label}: {}\n{diff}", report.summary);
                }
                if let Some(codes) = expect.get("codes") {
                    let got: Vec<Value> = report
                        .results
                        .iter()
                        .map(|r| {
                            r.error
                                .as_ref()
                                .map_or(Value::Null, |e| json!(e.code.as_str()))
                        })
                        .collect();
                    assert_eq!(json!(got), *codes, "{label}: {}", report.summary);
                }
                if report.undo.is_some() {
                    undo = report.undo.clone();
                }
            } else if let Some(editor) = step.get("editor") {
                let editor = ids.fill_value(editor);
                if let Some(args) = editor.get("update") {
                    host.kernel("editorUpdate", args.clone());
                } else if let Some(args) = editor.get("setAttrs") {
                    host.kernel("editorSetAttrs", args.clone());
                } else if let Some(args) = editor.get("delete") {
                    let body = json!({"id": args[0]});
                    host.kernel("request", json!(["/api/block/deleteBlock", body]));
                }
            } else if let Some(spec) = step.get("check") {
                check(&host, &ids.fill_value(spec), &start, &label);
            } else if let Some(spec) = step.get("reads") {
                reads(&host, &ids.fill_value(spec), &label);
            }
        }
    }
}
