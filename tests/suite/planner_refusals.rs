//! Every planner refusal, with its exact agent YAML, as a table: one file
//! per case in `tests/data/planner-refusals/`, named after what it shows.
//!
//! A case file is a `# title: why` line, then one tool call per line —
//! the tool's name (the YAML `mode`) and its options as JSON — then `---`
//! and the YAML the last call's refusal must carry. Every call before the
//! last must succeed; all run in one fresh session (hunk ids `t-1`,
//! `t-2`, …). Options get `path: "a.txt"` and `owner: "agent-1"` unless
//! they say otherwise; `now` (ms, default 1000, or `"NaN"`) is the host's
//! clock for that call. The refusal's code is the YAML's `error:` line.
//!
//! `PLANNER_REFUSALS_WRITE=1 cargo test --test all planner_refusals`
//! rewrites the YAML of every case from what the planner says (review the
//! diff before committing it).

use editkit::Error;
use editkit::*;
use serde_json::{Map, Value};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/planner-refusals");

struct Case {
    file: String,
    calls: Vec<(String, Map<String, Value>)>,
    yaml: String,
}

fn read_cases() -> Vec<Case> {
    let mut files: Vec<_> = std::fs::read_dir(DIR)
        .expect("tests/data/planner-refusals")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "case"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|path| {
            let file = path.file_name().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(path).unwrap();
            let (head, yaml) = text
                .split_once("\n---\n")
                .unwrap_or_else(|| panic!("{file}: no `---` line"));
            let calls = head
                .lines()
                .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
                .map(|line| {
                    let (tool, json) = line
                        .split_once(' ')
                        .unwrap_or_else(|| panic!("{file}: `{line}` is not `tool {{json}}`"));
                    let options: Map<String, Value> = serde_json::from_str(json)
                        .unwrap_or_else(|e| panic!("{file}: options of `{tool}`: {e}"));
                    (tool.to_string(), options)
                })
                .collect();
            Case {
                file,
                calls,
                yaml: yaml.trim_end_matches('\n').to_string(),
            }
        })
        .collect()
}

/// Runs one call; `Ok` is the success's debug text (only its failure to
/// refuse is reported), `Err` the refusal.
fn call(
    session: &mut FileEditSession,
    tool: &str,
    mut options: Map<String, Value>,
) -> Result<String, Error> {
    let now = match options.remove("now") {
        None => 1_000.0,
        Some(Value::String(s)) if s == "NaN" => f64::NAN,
        Some(v) => v.as_f64().expect("`now` is a number or \"NaN\""),
    };
    let session_tool = tool.starts_with("prepare_") || tool == "apply_file_modification";
    if session_tool {
        options
            .entry("owner")
            .or_insert_with(|| Value::from("agent-1"));
    }
    if tool.starts_with("prepare_") || tool == "read_file" {
        options
            .entry("path")
            .or_insert_with(|| Value::from("a.txt"));
    }
    let value = Value::Object(options);
    fn de<T: serde::de::DeserializeOwned>(v: Value) -> T {
        serde_json::from_value(v).expect("options")
    }
    let debug = |r: &dyn std::fmt::Debug| format!("{r:?}");
    match tool {
        "prepare_file_range_edit" => session
            .prepare_range_edit(de(value), now)
            .map(|r| debug(&r)),
        "prepare_file_append" => session.prepare_append(de(value), now).map(|r| debug(&r)),
        "prepare_file_insert_after" => session
            .prepare_insert_after(de(value), now)
            .map(|r| debug(&r)),
        "prepare_file_insert_before" => session
            .prepare_insert_before(de(value), now)
            .map(|r| debug(&r)),
        "prepare_file_block_replace" => session
            .prepare_block_replace(de(value), now)
            .map(|r| debug(&r)),
        "apply_file_modification" => session.apply(de(value), now).map(|r| debug(&r)),
        "overwrite_entire_file" => check_overwrite(de(value)).map(|r| debug(&r)),
        "create_new_file" => check_new_file(de(value)).map(|r| debug(&r)),
        "read_file" => format_file_view(de(value)).map(|r| debug(&r)),
        other => panic!("unknown tool `{other}`"),
    }
}

/// The YAML of the last call's refusal (every earlier call succeeding).
fn refusal_yaml(case: &Case) -> Result<Error, String> {
    let mut session = FileEditSession::new(FileEditSessionOptions {
        id_prefix: "t".into(),
        ..Default::default()
    });
    let (last, before) = case.calls.split_last().expect("a case has a call");
    for (i, (tool, options)) in before.iter().enumerate() {
        if let Err(e) = call(&mut session, tool, options.clone()) {
            return Err(format!("call {} ({tool}) was refused: {e}", i + 1));
        }
    }
    match call(&mut session, &last.0, last.1.clone()) {
        Err(e) => Ok(e),
        Ok(r) => Err(format!("the last call ({}) was not refused: {r}", last.0)),
    }
}

#[test]
fn every_refusal_has_its_exact_yaml() {
    let cases = read_cases();
    assert!(cases.len() >= 36, "{} cases", cases.len());
    let write = std::env::var_os("PLANNER_REFUSALS_WRITE").is_some();
    let mut failures = Vec::new();
    for case in &cases {
        let error = match refusal_yaml(case) {
            Ok(e) => e,
            Err(why) => {
                failures.push(format!("{}: {why}", case.file));
                continue;
            }
        };
        let yaml = error.details.yaml.clone().unwrap_or_default();
        if write {
            let path = format!("{DIR}/{}", case.file);
            let text = std::fs::read_to_string(&path).unwrap();
            let head = text.split_once("\n---\n").unwrap().0;
            std::fs::write(&path, format!("{head}\n---\n{yaml}\n")).unwrap();
            continue;
        }
        if yaml != case.yaml {
            failures.push(format!(
                "{}: the YAML differs\n--- expected\n{}\n--- actual\n{yaml}",
                case.file, case.yaml
            ));
        }
        let code_line = format!("\nerror: {}\n", error.code.as_str());
        if !yaml.contains(&code_line) {
            failures.push(format!(
                "{}: the YAML does not name {}",
                case.file, error.code
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
