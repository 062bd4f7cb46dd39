//! applyBlockDiff against the fixture documents: the original plugin's 34
//! recorded cases, undo, failures midway, host-call counts and hostile input.

use editkit::Capability;
use editkit::{
    apply_block_diff, parse_block_diff, validate_block_diff_format, ApplyOptions, ApplyReport,
    EditStatus, FormatOptions,
};
use editkit::{Error, ErrorCode, Lang};

use super::kernel_host::{Call, KernelHost};
use super::support::{block_on, shared_json};

fn apply(host: &KernelHost, diff: &str, options: ApplyOptions) -> Result<ApplyReport, Error> {
    block_on(apply_block_diff(diff, host, &options))
}

fn run(host: &KernelHost, diff: &str) -> Result<ApplyReport, Error> {
    apply(host, diff, ApplyOptions::default())
}

/// A new block's markdown as editkit writes it: with the id it chose.
fn with_id(markdown: &str, id: &str) -> String {
    format!("{markdown}\n{{: id=\"{id}\"}}")
}

fn call(name: &'static str, args: &[&str]) -> Call {
    Call {
        name,
        args: args.iter().map(|s| s.to_string()).collect(),
    }
}

/// The plugin's recorded kernel writes, in this host's call shape.
fn plugin_writes(case: &serde_json::Value) -> Vec<Call> {
    let mut out = Vec::new();
    for c in case["execute_kernel_calls"].as_array().unwrap() {
        let d = &c["data"];
        let s = |k: &str| d[k].as_str().unwrap_or("").to_string();
        let call = match c["url"].as_str().unwrap() {
            "/api/block/updateBlock" => Call {
                name: "updateBlock",
                args: vec![s("id"), s("data")],
            },
            "/api/block/deleteBlock" => Call {
                name: "deleteBlock",
                args: vec![s("id")],
            },
            "/api/block/insertBlock" => {
                let anchor = if !s("previousID").is_empty() {
                    format!("previousID={}", s("previousID"))
                } else if !s("nextID").is_empty() {
                    format!("nextID={}", s("nextID"))
                } else {
                    format!("parentID={}", s("parentID"))
                };
                Call {
                    name: "insertBlock",
                    args: vec![s("data"), anchor],
                }
            }
            "/api/block/prependBlock" => Call {
                name: "prependBlock",
                args: vec![s("parentID"), s("data")],
            },
            "/api/block/appendBlock" => Call {
                name: "appendBlock",
                args: vec![s("parentID"), s("data")],
            },
            _ => continue,
        };
        out.push(call);
    }
    out
}

/// What editkit does with each recorded case. A difference carries its
/// reason, which a failing assertion prints.
enum Expect {
    /// Exactly the plugin's kernel writes.
    SameWrites,
    /// The plugin refused too; editkit refuses with these codes (format
    /// errors, or per-edit check failures) and writes nothing.
    SameRefusal(&'static [ErrorCode]),
    /// A deliberate difference (a bug of the plugin, SPEC.md §3): editkit
    /// writes these calls instead.
    DiffersWrites(&'static str, fn() -> Vec<Call>),
    /// A deliberate difference: editkit refuses where the plugin wrote (or
    /// refuses for a different, more precise reason).
    DiffersRefusal(&'static str, &'static [ErrorCode]),
}

const P: &str = "20240614083000-a1b2c3d";

fn expectation(title: &str) -> Expect {
    use ErrorCode::*;
    use Expect::*;
    match title {
        t if t.starts_with("skill-doc: batch") => SameRefusal(&[BlockNotFound, BlockNotFound]),
        t if t.starts_with("skill-doc:") => SameRefusal(&[BlockNotFound]),
        "fixture: exact SEARCH on paragraph" => SameWrites,
        "fixture: SEARCH is only part of the block → CONTENT_MISMATCH" => DiffersWrites(
            "SPEC §3.4 step 2: a unique substring of the block is edited in place, the rest of the block kept",
            || vec![call("updateBlock", &[P, "本周 **diff 编辑** 功能的重构，并修复了若干问题。"])],
        ),
        "fixture: SEARCH uses rendered text instead of markdown (no **) → mismatch" => SameRefusal(&[ContentMismatch]),
        "fixture: surrounding blank lines/indent inside SEARCH are trimmed" => SameWrites,
        "fixture: multi-line SEARCH on a nested list block" => DiffersWrites(
            "SPEC §3.7 rule 23: the plugin rewrote the whole nested list; editkit writes only the \
             paragraph the edit changes (a list's structure stays)",
            || {
                vec![call(
                    "updateBlock",
                    &["20240614083215-p04poiu", "支持 `id:-N` 游标"],
                )]
            },
        ),
        "fixture: heading SEARCH/REPLACE" => SameWrites,
        "fixture: DELETE + REPLACE + BEFORE + AFTER + PREPEND + APPEND" => DiffersWrites(
            "the plugin kept one hunk per block id (BEFORE was dropped) and lost the paragraph's name/alias/memo; \
             editkit applies every hunk in diff order and carries the attributes over as an IAL",
            || {
                vec![
                    call("deleteBlock", &["20240614083625-tb0ik3l"]),
                    call(
                        "updateBlock",
                        &["20240614083630-p12olp4", "以上，谢谢。\n{: alias=\"结语,结束语\" memo=\"周报结尾\" name=\"closing\"}"],
                    ),
                    call("insertBlock", &["新段落（前）", "nextID=20240614083310-p06wert"]),
                    call("insertBlock", &["新段落（后）", "previousID=20240614083310-p06wert"]),
                    call("prependBlock", &["20240614083000-wk24rep", "> 摘要"]),
                    call("appendBlock", &["20240614083125-lst0a9x", "- 新列表项"]),
                ]
            },
        ),
        "fixture: APPEND/PREPEND to a heading (kernel >= 3.7 rejects, plugin still reports success)" => DiffersRefusal(
            "PREPEND into a paragraph is NOT_A_CONTAINER (the kernel rejects it; the plugin reported success), \
             and atomic mode writes nothing",
            &[NotAContainer],
        ),
        "fixture: block not found" => SameRefusal(&[BlockNotFound]),
        "empty SEARCH → skipped with warning" => DiffersRefusal(
            "an empty SEARCH locates nothing: a format error with fixes instead of a silent skip",
            &[EmptySearch],
        ),
        "empty REPLACE (documented as DELETE) → actually UPDATE with empty newContent, fails at execution" => {
            DiffersWrites("SPEC §3.1: an empty REPLACE deletes the block after the content check", || {
                vec![call("deleteBlock", &[P])]
            })
        }
        "typed header copied from getBlockContent (@@id@@段落) + SEARCH/REPLACE → format error" => {
            DiffersWrites("SPEC §3.1: the type label the reading view prints is accepted and ignored", || {
                vec![call("updateBlock", &[P, "x"])]
            })
        }
        "typed header on an instruction hunk is fine" => SameWrites,
        "lower-case modifier accepted" => SameWrites,
        "invalid block id (uppercase)" | "invalid block id (short)" => SameRefusal(&[InvalidBlockId]),
        "nested SEARCH marker inside content" => SameRefusal(&[NestedSearch]),
        "missing REPLACE end marker" => SameRefusal(&[UnclosedSearch]),
        "extra ======= in REPLACE" => SameRefusal(&[MisplacedDelimiter]),
        "two SEARCH/REPLACE blocks under one header" => DiffersRefusal(
            "SPEC §3.1: several pairs may follow one header; both parse, and both fail the content check here \
             (neither 'a' nor 'c' is in the block)",
            &[ContentMismatch, ContentMismatch],
        ),
        "SEARCH marker before any header" => SameRefusal(&[SearchWithoutBlockId]),
        "preamble text before first hunk is ignored" => SameWrites,
        "\"@@...@@\" inside REPLACE content splits the hunk" => DiffersWrites(
            "SPEC §3.1: only a whole header-shaped line starts a hunk; @@note@@ inside a line is text",
            || vec![call("updateBlock", &[P, "请参考 @@note@@ 标记"])],
        ),
        "\"====\" (4) line inside SEARCH: validator sees TEXT, parser regex ={4,} cuts SEARCH there" => DiffersRefusal(
            "the SEARCH is 'line one\\n====\\nline two' (markers are whole lines of 5-9 chars, the same rule for \
             validation and parsing), which does not match the block",
            &[ContentMismatch],
        ),
        "two hunks on the same block id (AFTER + SEARCH/REPLACE): editMap keyed by blockId keeps only the last edit" => {
            DiffersWrites("several hunks on one block all apply, in diff order", || {
                vec![call("insertBlock", &["插入一段", &format!("previousID={P}")]), call("updateBlock", &[P, "改写"])]
            })
        }
        "BUG: AFTER + SEARCH/REPLACE on same block with WRONG SEARCH still executes (validated against the first hunk = AFTER)" => {
            DiffersRefusal("every SEARCH is checked; atomic mode then writes nothing", &[ContentMismatch])
        }
        "REPLACE with multi-block markdown (kernel updateBlock keeps only the FIRST block for non-document targets; plugin reports success)" => {
            DiffersWrites("the replacement is split so the kernel drops nothing", || {
                vec![call("updateBlock", &[P, "第一段"]), call("insertBlock", &["第二段（会被内核丢弃）", &format!("previousID={P}")])]
            })
        }
        "instruction hunk with empty body → no edit produced" => SameRefusal(&[EmptyInsert]),
        "only text, no hunk" => SameRefusal(&[EmptyDiff]),
        other => panic!("no expectation for plugin case {other:?}"),
    }
}

/// Markdown with the `id` and `updated` attributes taken out of its IALs,
/// and IALs (and IAL lines) left empty by that removed.
fn without_ids(markdown: &str) -> String {
    let mut lines = Vec::new();
    for line in markdown.split('\n') {
        let mut out = String::new();
        let mut rest = line;
        while let Some(open) = rest.find("{:") {
            let Some(close) = rest[open..].find('}') else {
                break;
            };
            out.push_str(&rest[..open]);
            let kept: Vec<(String, String)> = editkit::parse_ial(&rest[open..=open + close])
                .into_iter()
                .filter(|(k, _)| k != "id" && k != "updated")
                .collect();
            if let Some(ial) = editkit::render_ial(&kept) {
                out.push_str(&ial);
            }
            rest = &rest[open + close + 1..];
        }
        out.push_str(rest);
        if out.trim().is_empty() && !line.trim().is_empty() {
            continue;
        }
        lines.push(out);
    }
    lines.join("\n")
}

fn refusal_codes(outcome: &Result<ApplyReport, Error>) -> Vec<ErrorCode> {
    match outcome {
        Err(e) if e.code == ErrorCode::InvalidDiffFormat => {
            e.details.errors.iter().map(|e| e.code).collect()
        }
        Err(e) => vec![e.code],
        Ok(report) => report
            .results
            .iter()
            .filter_map(|r| r.error.as_ref().map(|e| e.code))
            .collect(),
    }
}

#[test]
fn plugin_cases_match_or_differ_deliberately() {
    let outcomes = shared_json("fixtures/siyuan/plugin-expected-outcomes.json");
    let cases = outcomes["diff"].as_array().unwrap();
    assert_eq!(cases.len(), 34);
    let mut differences = 0;
    for case in cases {
        let title = case["title"].as_str().unwrap();
        let diff = case["diff"].as_str().unwrap();
        let host = KernelHost::new();
        let outcome = run(&host, diff);
        // The same writes up to the ids editkit writes into IALs: the ids
        // it gives new blocks and the children's ids a container rewrite
        // restates (SPEC §3.7 rules 3 and 4).
        let writes: Vec<Call> = host
            .writes()
            .into_iter()
            .map(|c| Call {
                name: c.name,
                args: c.args.iter().map(|a| without_ids(a)).collect(),
            })
            .collect();
        match expectation(title) {
            Expect::SameWrites => {
                let report = outcome.unwrap_or_else(|e| panic!("{title}: {e}"));
                assert!(report.ok, "{title}: {}", report.summary);
                assert_eq!(writes, plugin_writes(case), "{title}");
            }
            Expect::SameRefusal(codes) => {
                assert_eq!(refusal_codes(&outcome), codes, "{title}");
                assert!(writes.is_empty(), "{title}: wrote {writes:?}");
                assert!(outcome.as_ref().map_or(true, |r| !r.ok), "{title}");
            }
            Expect::DiffersRefusal(why, codes) => {
                let title = format!("{title} (a deliberate difference: {why})");
                assert_eq!(refusal_codes(&outcome), codes, "{title}");
                assert!(writes.is_empty(), "{title}: wrote {writes:?}");
                assert!(outcome.as_ref().map_or(true, |r| !r.ok), "{title}");
            }
            Expect::DiffersWrites(why, expected) => {
                let title = format!("{title} (a deliberate difference: {why})");
                let report = outcome.unwrap_or_else(|e| panic!("{title}: {e}"));
                assert!(
                    report.ok,
                    "{title}: {}\n{:#?}",
                    report.summary,
                    report
                        .results
                        .iter()
                        .filter_map(|r| r.error.as_ref())
                        .collect::<Vec<_>>()
                );
                assert_eq!(writes, expected(), "{title}");
                assert_ne!(
                    writes,
                    plugin_writes(case),
                    "{title}: listed as a difference but equals the plugin"
                );
            }
        }
        if matches!(
            expectation(title),
            Expect::DiffersWrites(..) | Expect::DiffersRefusal(..)
        ) {
            differences += 1;
        }
        // Validation is one batched fetch, however many hunks.
        assert!(host.calls_named("getBlocks") <= 3, "{title}");
    }
    assert_eq!(differences, 13);
}

#[test]
fn plugin_parse_results_agree_where_the_plugin_parsed_correctly() {
    let outcomes = shared_json("fixtures/siyuan/plugin-expected-outcomes.json");
    for case in outcomes["diff"].as_array().unwrap() {
        let title = case["title"].as_str().unwrap();
        let expected = &case["parseBlockDiff"];
        if expected.get("error").is_some()
            || !matches!(
                expectation(title),
                Expect::SameWrites | Expect::SameRefusal(_)
            )
        {
            continue;
        }
        let Ok(parsed) =
            parse_block_diff(case["diff"].as_str().unwrap(), &FormatOptions::default())
        else {
            // The plugin parsed this one; editkit refuses its format (e.g.
            // an empty body), asserted in the table above.
            continue;
        };
        let plugin_edits = expected["edits"].as_array().unwrap();
        assert_eq!(parsed.edits.len(), plugin_edits.len(), "{title}");
        for (ours, theirs) in parsed.edits.iter().zip(plugin_edits) {
            assert_eq!(
                serde_json::to_value(ours.kind).unwrap(),
                theirs["type"],
                "{title}"
            );
            assert_eq!(
                ours.block_id,
                theirs["blockId"].as_str().unwrap(),
                "{title}"
            );
            let trim = |s: &str| s.trim().to_string();
            if let Some(old) = theirs["oldContent"].as_str() {
                assert_eq!(trim(ours.search.as_deref().unwrap()), old, "{title}");
            }
            if let Some(new) = theirs["newContent"].as_str() {
                assert_eq!(trim(ours.replacement.as_deref().unwrap()), new, "{title}");
            }
        }
    }
}

/// Kernel I/O of a host's recorded calls: `splitMarkdown` is the host's own
/// Lute, in process, not a kernel request.
fn kernel_calls(host: &KernelHost) -> Vec<&'static str> {
    host.calls
        .borrow()
        .iter()
        .map(|c| c.name)
        .filter(|n| *n != "splitMarkdown")
        .collect()
}

/// BENCHMARKS §3: validating a diff of any size is one flush, one rows
/// batch and one kramdown batch (SPEC §3.7 rule 1: fresh reads).
#[test]
fn validating_a_50_hunk_diff_makes_one_read_batch_of_each_kind() {
    let host = KernelHost::new();
    let ids = [
        "20240614083000-a1b2c3d",
        "20240614083310-p06wert",
        "20240614083630-p12olp4",
    ];
    let mut diff = String::new();
    for i in 0..50 {
        diff.push_str(&format!("@@AFTER:{}@@\n第 {i} 段\n\n", ids[i % 3]));
    }
    let report = apply(
        &host,
        &diff,
        ApplyOptions {
            dry_run: true,
            ..ApplyOptions::default()
        },
    )
    .unwrap();
    assert!(report.ok);
    assert_eq!(report.plan.len(), 50);
    assert_eq!(
        kernel_calls(&host),
        vec!["flushTransaction", "getBlocks", "getKramdown"]
    );
}

#[test]
fn execution_call_budget_is_read_recheck_writes_flush_verify() {
    let host = KernelHost::new();
    let mut diff = String::new();
    for i in 0..20 {
        diff.push_str(&format!("@@AFTER:20240614083000-a1b2c3d@@\n段落 {i}\n\n"));
    }
    let report = run(&host, &diff).unwrap();
    assert!(report.ok, "{}", report.summary);
    // The re-check flushes the kernel's queue first (a queued delete).
    let mut expected = vec![
        "flushTransaction",
        "getBlocks",
        "getKramdown",
        "flushTransaction",
        "getKramdown",
    ];
    expected.extend(std::iter::repeat_n("insertBlock", 20));
    expected.extend(["flushTransaction", "getBlocks"]);
    assert_eq!(kernel_calls(&host), expected);
    // Twenty AFTER hunks on one anchor land in diff order.
    let top = host.top_level("20240614083000-wk24rep");
    let texts: Vec<&str> = top
        .iter()
        .skip(1)
        .take(20)
        .map(|(_, md)| md.as_str())
        .collect();
    let expected: Vec<String> = (0..20).map(|i| format!("段落 {i}")).collect();
    assert_eq!(texts, expected);
}

const DOCS: [&str; 4] = [
    "20240614083000-wk24rep",
    "20240615100000-sy9plg2",
    "20240620211500-rdlst7q",
    "20240615073000-dn0615a",
];

/// A diff that touches every kind of edit on a fixture document.
fn broad_diff() -> &'static str {
    "@@20240614083000-a1b2c3d@@
<<<<<<< SEARCH
本周主要完成了插件
=======
本周完成了插件
>>>>>>> REPLACE

@@DELETE:20240614083625-tb0ik3l@@

@@DELETE:20240614083310-p06wert@@

@@REPLACE:20240614083630-p12olp4@@
以上，谢谢。

## 附录

附录正文

@@BEFORE:20240614083112-h2jz8kq@@
新段落

@@APPEND:20240614083540-h2next9@@
下周计划的补充

@@PREPEND:20240614083000-wk24rep@@
> 摘要
"
}

#[test]
fn apply_then_undo_restores_the_document() {
    let host = KernelHost::new();
    let doc = DOCS[0];
    let before = host.top_level(doc);
    let report = run(&host, broad_diff()).unwrap();
    assert!(report.ok, "{}\n{:#?}", report.summary, report.results);
    assert_ne!(host.top_level(doc), before);
    // The paragraph kept its attributes through the rewrite.
    let closing = host.block("20240614083630-p12olp4").unwrap();
    assert_eq!(
        (
            closing.name.as_str(),
            closing.alias.as_str(),
            closing.memo.as_str()
        ),
        ("closing", "结语,结束语", "周报结尾")
    );
    let undo = report.undo.expect("undo");
    let undone = run(&host, &undo).unwrap_or_else(|e| panic!("{e}\n{undo}"));
    assert!(
        undone.ok,
        "{}\n{undo}\n{:#?}",
        undone.summary, undone.results
    );
    assert_eq!(host.top_level(doc), before, "undo:\n{undo}");
    // Attributes of the restored paragraph and of the deleted one are back.
    let restored = host.block("20240614083310-p06wert").unwrap();
    assert_eq!(restored.parent_id, "20240614083300-h3bk2nd");
    let closing = host.block("20240614083630-p12olp4").unwrap();
    assert_eq!(closing.name, "closing");
}

#[test]
fn a_write_failing_midway_is_rolled_back_in_atomic_mode() {
    // The diff makes 9 writes (the REPLACE is split into an update and two
    // inserts); fail each in turn.
    for k in 1..=9 {
        let host = KernelHost::new();
        let before: Vec<_> = DOCS.iter().map(|d| host.top_level(d)).collect();
        host.fail_write_at.set(Some(k));
        let report = run(&host, broad_diff()).unwrap();
        assert!(!report.ok, "write #{k}");
        let rollback = report.rollback.as_ref().expect("rollback report");
        assert!(rollback.ok, "write #{k}: {rollback:?}");
        assert_eq!(
            rollback.reverted as usize,
            k - 1,
            "write #{k}: every completed write is reverted"
        );
        assert!(report.undo.is_none());
        let after: Vec<_> = DOCS.iter().map(|d| host.top_level(d)).collect();
        assert_eq!(after, before, "write #{k} left the document changed");
        assert_eq!(
            report
                .results
                .iter()
                .filter(|r| r.status == EditStatus::Failed)
                .count(),
            1
        );
    }
}

#[test]
fn non_atomic_failure_midway_reports_done_steps_and_undo_restores_them() {
    for k in 1..=9 {
        let host = KernelHost::new();
        let before = host.top_level(DOCS[0]);
        host.fail_write_at.set(Some(k));
        let report = apply(
            &host,
            broad_diff(),
            ApplyOptions {
                atomic: false,
                ..ApplyOptions::default()
            },
        )
        .unwrap();
        assert!(!report.ok);
        assert!(report.rollback.is_none());
        let applied = report
            .results
            .iter()
            .filter(|r| r.status == EditStatus::Applied)
            .count();
        assert_eq!(applied, 6, "write #{k}: the other edits were applied");
        let undo = report.undo.clone().expect("undo");
        host.fail_write_at.set(None);
        let undone = run(&host, &undo).unwrap_or_else(|e| panic!("write #{k}: {e}\n{undo}"));
        assert!(undone.ok, "write #{k}: {}\n{undo}", undone.summary);
        assert_eq!(host.top_level(DOCS[0]), before, "write #{k}\n{undo}");
    }
}

/// The user types into the paragraph while editkit works (KERNEL-FACTS §1:
/// the editor's write reaches the tree at once, the SQL view only on the
/// next flush): before the check's read, between the check and the write
/// — every time the edit is refused as stale and the user's text stays.
#[test]
fn a_block_the_user_is_typing_in_is_stale_and_nothing_is_written() {
    let typed = "本周主要完成了插件 **diff 编辑** 功能的重构，并修复了若干问题。（用户刚输入）";
    let diff = "@@20240614083000-a1b2c3d@@\n<<<<<<< SEARCH\n本周主要完成了插件\n=======\n本周\n>>>>>>> REPLACE";
    // Right after the flush, before the rows are read (the rows are stale,
    // the tree is not), and right before the re-check before writing.
    for (callback, n) in [("getBlocks", 1), ("getKramdown", 2)] {
        let host = KernelHost::new();
        host.edit_before
            .borrow_mut()
            .replace((callback, n, P.to_string(), typed.to_string()));
        let report = run(&host, diff).unwrap();
        assert!(!report.ok, "{callback} #{n}");
        assert_eq!(
            report.results[0].error.as_ref().unwrap().code,
            ErrorCode::StaleBlock,
            "{callback} #{n}"
        );
        assert!(host.writes().is_empty(), "{callback} #{n}");
        assert_eq!(host.block(P).unwrap().markdown, typed, "{callback} #{n}");
    }
    // Typed a moment before the apply: the flush makes the check see it,
    // and the SEARCH still matches the new text, which the edit keeps.
    let host = KernelHost::new();
    host.kernel("editorUpdate", serde_json::json!([P, typed]));
    let report = run(&host, diff).unwrap();
    assert!(report.ok, "{}", report.summary);
    host.kernel("flush", serde_json::json!([]));
    assert_eq!(
        host.block(P).unwrap().markdown,
        "本周 **diff 编辑** 功能的重构，并修复了若干问题。（用户刚输入）"
    );
}

#[test]
fn an_attribute_changed_after_the_check_is_stale_too() {
    let host = KernelHost::new();
    host.attrs_before.borrow_mut().replace((
        "getKramdown",
        2,
        P.to_string(),
        serde_json::json!({"memo": "别人的备注", "custom-tag": "x"}),
    ));
    let report = run(&host, &format!("@@REPLACE:{P}@@\n新的段落")).unwrap();
    assert_eq!(
        report.results[0].error.as_ref().unwrap().code,
        ErrorCode::StaleBlock
    );
    assert!(host.writes().is_empty());
    let row = host.block(P).unwrap();
    assert_eq!(row.memo, "别人的备注");
    assert!(row.ial.contains("custom-tag=\"x\""));
}

#[test]
fn a_kernel_that_drops_content_is_caught_by_the_verify_step_and_rolled_back() {
    let host = KernelHost::new();
    let before = host.block(P).unwrap().markdown;
    *host.tamper_after_write.borrow_mut() = Some((P.to_string(), "被截断".to_string()));
    let diff = format!("@@REPLACE:{P}@@\n全新的段落内容");
    let report = run(&host, &diff).unwrap();
    assert!(!report.ok);
    let error = report.results[0].error.as_ref().unwrap();
    assert_eq!(error.code, ErrorCode::WriteVerifyFailed);
    // What the kernel made of the write is in the report; the rollback
    // restored the block (it read as verify had read it: the write's own
    // result, SPEC §3.7 item 11 of issue 31).
    assert_eq!(error.details.actual.as_deref(), Some("被截断"));
    assert_eq!(report.rollback.as_ref().map(|r| r.ok), Some(true));
    assert_eq!(report.undo, None);
    assert_eq!(host.block(P).unwrap().markdown, before);
}

#[test]
fn missing_host_callbacks_are_reported_before_anything_is_written() {
    let host = KernelHost::new();
    host.missing.borrow_mut().insert(Capability::GetKramdown);
    let err = run(&host, &format!("@@REPLACE:{P}@@\nx")).unwrap_err();
    assert_eq!(err.code, ErrorCode::HostCapabilityMissing);
    assert_eq!(err.details.name.as_deref(), Some("getKramdown"));
    assert!(host.writes().is_empty());

    let host = KernelHost::new();
    host.missing.borrow_mut().insert(Capability::GetBlocks);
    let err = run(&host, &format!("@@DELETE:{P}@@")).unwrap_err();
    assert_eq!(err.code, ErrorCode::HostCapabilityMissing);
    assert_eq!(err.details.name.as_deref(), Some("getBlocks"));
}

#[test]
fn several_pairs_and_hunks_on_one_block_compose_in_order() {
    let host = KernelHost::new();
    let diff = format!(
        "@@{P}@@段落\n<<<<<<< SEARCH\n本周主要\n=======\n这周\n>>>>>>> REPLACE\n<<<<<<< SEARCH\n这周完成了\n=======\n这周做完了\n>>>>>>> REPLACE\n\n@@{P}@@\n<<<<<<< SEARCH\n若干问题\n=======\n三个问题\n>>>>>>> REPLACE"
    );
    let report = run(&host, &diff).unwrap();
    assert!(report.ok, "{:#?}", report.results);
    assert_eq!(
        host.writes(),
        vec![call(
            "updateBlock",
            &[
                P,
                "这周做完了插件 **diff 编辑** 功能的重构，并修复了三个问题。"
            ]
        )]
    );
    assert_eq!(report.plan.len(), 1);
    assert_eq!(report.plan[0].hunk_indexes, vec![1, 1, 2]);
}

#[test]
fn conflicts_and_targets_are_refused() {
    use ErrorCode::*;
    let cases: &[(&str, &[ErrorCode])] = &[
        ("@@DELETE:20240614083000-a1b2c3d@@\n\n@@AFTER:20240614083000-a1b2c3d@@\nx", &[ConflictingEdits, ConflictingEdits]),
        ("@@REPLACE:20240614083000-a1b2c3d@@\nx\n\n@@REPLACE:20240614083000-a1b2c3d@@\ny", &[ConflictingEdits, ConflictingEdits]),
        ("@@DELETE:20240614083000-wk24rep@@", &[DocumentTarget]),
        ("@@REPLACE:20240614083000-wk24rep@@\nx", &[DocumentTarget]),
        ("@@AFTER:20240614083000-wk24rep@@\nx", &[DocumentTarget]),
        ("@@APPEND:20240614083330-cd7rust@@\nx", &[NotAContainer]),
        ("@@20240614083125-lst0a9x@@\n<<<<<<< SEARCH\n- 支持\n=======\n- x\n>>>>>>> REPLACE", &[AmbiguousMatch]),
        (
            "@@20240614083000-a1b2c3d@@\n<<<<<<< SEARCH\n本周主要完成了插件 **diff 编辑** 功能的重构，并修复了若干问题。\n=======\n\n>>>>>>> REPLACE\n\n@@AFTER:20240614083000-a1b2c3d@@\nx",
            &[ConflictingEdits],
        ),
    ];
    for (diff, codes) in cases {
        let host = KernelHost::new();
        let outcome = run(&host, diff);
        assert_eq!(refusal_codes(&outcome), *codes, "{diff}");
        assert!(host.writes().is_empty(), "{diff}");
    }
}

#[test]
fn heading_prepend_and_append_work_on_the_section() {
    let host = KernelHost::new();
    let h2 = "20240614083112-h2jz8kq";
    let diff = format!("@@PREPEND:{h2}@@\n标题之后\n\n@@APPEND:{h2}@@\n小节末尾");
    let report = run(&host, &diff).unwrap();
    assert!(report.ok, "{:#?}", report.results);
    // Each new block carries the id editkit chose for it (SPEC §3.7 rule 3).
    let (a, b) = (
        &report.results[0].new_block_ids[0],
        &report.results[1].new_block_ids[0],
    );
    assert_eq!(
        host.writes(),
        vec![
            call(
                "insertBlock",
                &[&with_id("标题之后", a), &format!("previousID={h2}")]
            ),
            call(
                "insertBlock",
                &[&with_id("小节末尾", b), "previousID=20240614083330-cd7rust"]
            ),
        ]
    );
    let top: Vec<String> = host
        .top_level(DOCS[0])
        .into_iter()
        .map(|(_, md)| md)
        .collect();
    let h = top.iter().position(|m| m == "## 本周进展").unwrap();
    assert_eq!(top[h + 1], "标题之后");
    let risk = top.iter().position(|m| m == "## 风险与问题").unwrap();
    assert_eq!(top[risk - 1], "小节末尾");
}

#[test]
fn unchanged_blocks_are_a_warning_not_a_write() {
    let host = KernelHost::new();
    let diff = format!("@@{P}@@\n<<<<<<< SEARCH\n若干问题\n=======\n若干问题\n>>>>>>> REPLACE");
    let report = run(&host, &diff).unwrap();
    assert!(report.ok);
    assert_eq!(report.results[0].status, EditStatus::Unchanged);
    assert!(report
        .warnings
        .iter()
        .any(|w| serde_json::to_value(w.code).unwrap() == "UNCHANGED_BLOCK"));
    assert!(host.writes().is_empty());
}

#[test]
fn dry_run_returns_the_plan_with_diffs_and_writes_nothing() {
    let host = KernelHost::new();
    let report = apply(
        &host,
        broad_diff(),
        ApplyOptions {
            dry_run: true,
            ..ApplyOptions::default()
        },
    )
    .unwrap();
    assert!(report.ok && report.dry_run);
    assert!(host.writes().is_empty());
    assert_eq!(report.plan.len(), 7);
    let first = &report.plan[0];
    assert_eq!(
        first.old_markdown.as_deref(),
        Some("本周主要完成了插件 **diff 编辑** 功能的重构，并修复了若干问题。")
    );
    assert_eq!(
        first.new_markdown.as_deref(),
        Some("本周完成了插件 **diff 编辑** 功能的重构，并修复了若干问题。")
    );
    assert_eq!(
        first.diff,
        "--- before\n+++ after\n@@ -1 +1 @@\n-本周主要完成了插件 **diff 编辑** 功能的重构，并修复了若干问题。\n+本周完成了插件 **diff 编辑** 功能的重构，并修复了若干问题。\n"
    );
    assert!(
        report.summary.starts_with("Dry run: all 7 edit(s) passed"),
        "{}",
        report.summary
    );
    let zh = apply(
        &host,
        broad_diff(),
        ApplyOptions {
            dry_run: true,
            lang: Lang::Zh,
            ..ApplyOptions::default()
        },
    )
    .unwrap();
    assert!(zh.summary.starts_with("试运行"), "{}", zh.summary);
}

#[test]
fn content_mismatch_carries_a_real_similarity_and_a_line_diff() {
    let host = KernelHost::new();
    let diff = format!("@@{P}@@\n<<<<<<< SEARCH\n本周主要完成了插件 diff 编辑 功能的重构，并修复了若干问题。\n=======\nx\n>>>>>>> REPLACE");
    let report = run(&host, &diff).unwrap();
    let error = report.results[0].error.as_ref().unwrap();
    assert_eq!(error.code, ErrorCode::ContentMismatch);
    // 33 + 37 chars, the 33 of SEARCH in common: 2·33/70.
    assert_eq!(error.details.similarity, Some(0.943));
    assert_eq!(
        error.details.diff.as_deref(),
        Some("--- SEARCH\n+++ block\n@@ -1 +1 @@\n-本周主要完成了插件 diff 编辑 功能的重构，并修复了若干问题。\n+本周主要完成了插件 **diff 编辑** 功能的重构，并修复了若干问题。\n")
    );
    assert!(error.message.contains("94.3%"));
    // The next step is said once, as a suggestion, not again in the message.
    assert!(!error.message.contains("getBlockContent"));
    assert_eq!(
        error
            .details
            .suggestions
            .iter()
            .filter(|s| s.contains("getBlockContent"))
            .count(),
        1
    );
}

/// Malformed input: each diff yields its documented code(s) and never a
/// panic, in both languages.
#[test]
fn malformed_diffs_yield_their_documented_codes() {
    use ErrorCode::*;
    let id = P;
    let big = format!(
        "@@REPLACE:{id}@@\n{}",
        "很长的一行文字 😀\n".repeat(250_000)
    );
    let cases: Vec<(String, Vec<(ErrorCode, u32)>)> = vec![
        ("".into(), vec![(EmptyDiff, 0)]),
        ("   \n\n".into(), vec![(EmptyDiff, 0)]),
        ("just some text".into(), vec![(EmptyDiff, 0)]),
        (
            format!("@@{id}@@\n<<<<<<< SEARCH\n<<<<<<< SEARCH\nfoo\n=======\nbar\n>>>>>>> REPLACE"),
            vec![(NestedSearch, 3)],
        ),
        (
            format!("@@{id}@@\n<<<<<<< SEARCH\na\n=======\nb\n<<<<<<< SEARCH\n>>>>>>> REPLACE"),
            vec![(NestedSearch, 6)],
        ),
        (
            format!("@@{id}@@\n<<<<<<< SEARCH\na\n=======\nnew"),
            vec![(UnclosedSearch, 2)],
        ),
        (
            format!("@@{id}@@\n<<<<<<< SEARCH\na\n\n@@DELETE:{id}@@"),
            vec![(UnclosedSearch, 2)],
        ),
        (
            format!("@@{id}@@\n<<<<<<< SEARCH\na\n=======\nb\n=======\n>>>>>>> REPLACE"),
            vec![(MisplacedDelimiter, 6)],
        ),
        (
            format!("@@{id}@@\n=======\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE"),
            vec![(MisplacedDelimiter, 2)],
        ),
        (
            format!("@@{id}@@\n<<<<<<< SEARCH\na\n>>>>>>> REPLACE"),
            vec![(MissingDelimiter, 4)],
        ),
        (
            format!("@@{id}@@\n>>>>>>> REPLACE"),
            vec![(UnmatchedReplace, 2)],
        ),
        (">>>>>>> REPLACE".into(), vec![(UnmatchedReplace, 1)]),
        ("=======".into(), vec![(MisplacedDelimiter, 1)]),
        (
            "<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE".into(),
            vec![(SearchWithoutBlockId, 1)],
        ),
        (
            "@@20240614083000-A1B2C3D@@\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE".into(),
            vec![(InvalidBlockId, 1)],
        ),
        (
            "@@DELETE:2024061408-abc@@".into(),
            vec![(InvalidBlockId, 1)],
        ),
        (
            "@@DELETE:20240614083000-a1b2c3@@".into(),
            vec![(InvalidBlockId, 1)],
        ),
        (
            "@@DELETE:20240614083000_a1b2c3d@@".into(),
            vec![(InvalidBlockId, 1)],
        ),
        (format!("@@MOVE:{id}@@\nx"), vec![(UnknownCommand, 1)]),
        (format!("@@INSERT:{id}@@\nx"), vec![(UnknownCommand, 1)]),
        (format!("@@AFTER:{id}@@\n\n\n"), vec![(EmptyInsert, 1)]),
        (format!("@@REPLACE:{id}@@"), vec![(EmptyInsert, 1)]),
        (
            format!("@@APPEND:{id}@@\n@@DELETE:{id}@@"),
            vec![(EmptyInsert, 1)],
        ),
        (
            format!("@@{id}@@\n<<<<<<< SEARCH\n=======\n新内容\n>>>>>>> REPLACE"),
            vec![(EmptySearch, 2)],
        ),
        (
            format!("@@{id}@@\n新内容，但没有 SEARCH 块"),
            vec![(MissingSearch, 1)],
        ),
        // Markers inside block content, caught at their lines.
        (
            format!("@@{id}@@\n<<<<<<< SEARCH\n```\n=======\n```\n=======\nx\n>>>>>>> REPLACE"),
            vec![(MisplacedDelimiter, 6)],
        ),
        // Two problems in one diff: both reported, in line order.
        (
            format!("@@MOVE:{id}@@\nx\n\n@@{id}@@\n<<<<<<< SEARCH\na\n>>>>>>> REPLACE"),
            vec![(UnknownCommand, 1), (MissingDelimiter, 7)],
        ),
        // CRLF and BOM are fine in themselves; the error is still found.
        (
            format!("\u{feff}@@{id}@@\r\n<<<<<<< SEARCH\r\na\r\n>>>>>>> REPLACE\r\n"),
            vec![(MissingDelimiter, 4)],
        ),
        // CJK and emoji around a broken block.
        (
            format!("说明😀\n@@{id}@@\n<<<<<<< SEARCH\n中文😀\n=======\n表情🎉"),
            vec![(UnclosedSearch, 3)],
        ),
        // A header-shaped line with an id too long to be one.
        (
            "@@DELETE:202406140830001-a1b2c3d@@".into(),
            vec![(InvalidBlockId, 1)],
        ),
        // 5 MB of body text with an unclosed block at the end.
        (
            format!("{big}\n@@{id}@@\n<<<<<<< SEARCH\nx"),
            vec![(UnclosedSearch, 250_004)],
        ),
    ];
    assert!(cases.len() >= 30);
    for (diff, expected) in &cases {
        for lang in [Lang::En, Lang::Zh] {
            let report = validate_block_diff_format(diff, &FormatOptions { lang });
            let got: Vec<(ErrorCode, u32)> = report
                .errors
                .iter()
                .map(|e| (e.code, e.details.line.unwrap_or(0)))
                .collect();
            assert_eq!(&got, expected, "{}", &diff[..diff.len().min(200)]);
            assert!(!report.valid);
            for e in &report.errors {
                assert!(!e.message.is_empty());
                if e.code != EmptyDiff {
                    assert!(e.details.suggestions.len() >= 2, "{:?} needs fixes", e.code);
                }
            }
            let err = parse_block_diff(diff, &FormatOptions { lang }).unwrap_err();
            assert_eq!(err.code, InvalidDiffFormat);
        }
    }
}

#[test]
fn well_formed_edge_inputs_parse() {
    let id = P;
    let big = "很长的一行文字 😀\n".repeat(250_000);
    let cases = [
        format!("\u{feff}@@REPLACE:{id}@@\r\n第一行\r\n第二行\r\n"),
        format!("@@{id}@@ paragraph\n<<<<<<<SEARCH\n😀\n=======\n🎉\n>>>>>>>REPLACE"),
        format!("@@REPLACE:{id}@@\n<<<<<<< SEARCH\n=======\n>>>>>>> REPLACE"),
        format!("@@REPLACE:{id}@@\n{big}"),
    ];
    for diff in &cases {
        let parsed =
            parse_block_diff(diff, &FormatOptions::default()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(parsed.edits.len(), 1);
    }
    let crlf = parse_block_diff(&cases[0], &FormatOptions::default()).unwrap();
    assert_eq!(crlf.edits[0].replacement.as_deref(), Some("第一行\n第二行"));
    let markers = parse_block_diff(&cases[2], &FormatOptions::default()).unwrap();
    assert_eq!(
        markers.warnings.len(),
        3,
        "marker lines in a REPLACE body are text, with a warning"
    );
}

#[test]
fn the_matchers_safe_strategies_forgive_formatting_and_say_so() {
    let code = "20240614083330-cd7rust";
    // The model re-indented a line of the code block and used curly quotes.
    let diff = format!(
        "@@{code}@@\n<<<<<<< SEARCH\n  const res = await fetchSyncPost(“/api/block/getChildBlocks”, {{ id }});\n=======\n  const res = await fetchSyncPost(“/api/block/getChildBlocks”, {{ id, lang }});\n>>>>>>> REPLACE"
    );
    let host = KernelHost::new();
    let report = run(&host, &diff).unwrap();
    assert!(report.ok, "{:#?}", report.results);
    let strategy = report.results[0].strategy.unwrap();
    assert!(
        ["indentation", "unicode_normalized"].contains(&strategy.as_str()),
        "{strategy}"
    );
    // Written in the block's own formatting: straight quotes, no indent.
    assert_eq!(
        host.block(code).unwrap().markdown,
        "```typescript\nconst res = await fetchSyncPost(\"/api/block/getChildBlocks\", { id, lang });\nconsole.log(res.data.length);\n```"
    );
    // In exact mode the same diff is a content mismatch.
    let host = KernelHost::new();
    let exact = apply(
        &host,
        &diff,
        ApplyOptions {
            match_mode: editkit::MatchMode::Exact,
            ..ApplyOptions::default()
        },
    )
    .unwrap();
    assert_eq!(
        exact.results[0].error.as_ref().unwrap().code,
        ErrorCode::ContentMismatch
    );
}

// ---- issue 2: report, undo and rollback details ------------------------

const BQ: &str = "20240614083420-bq9klmn";
const P06: &str = "20240614083310-p06wert";

fn codes_of(warnings: &[editkit::Warning]) -> Vec<String> {
    warnings
        .iter()
        .map(|w| {
            serde_json::to_value(w.code)
                .unwrap()
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect()
}

/// SPEC §3.7 rule 4 (issue item 2): editing a container rewrites it from
/// the new text with every kept child's IAL restated, so the kernel keeps
/// their ids, attributes and references.
#[test]
fn editing_a_container_keeps_its_childrens_ids_and_attributes() {
    let p07 = "20240614083420-p07yuio";
    let p08 = "20240614083435-p08ghjk";
    let host = KernelHost::new();
    // A child with attributes of its own (a bookmark, a custom attribute).
    host.kernel(
        "editorSetAttrs",
        serde_json::json!([p08, {"bookmark": "重要", "custom-riff-decks": "d1"}]),
    );
    host.kernel("flush", serde_json::json!([]));
    let diff = format!(
        "@@{BQ}@@\n<<<<<<< SEARCH\n标题块不是容器块\n=======\n标题块不是容器\n>>>>>>> REPLACE"
    );
    let report = run(&host, &diff).unwrap();
    assert!(report.ok, "{:#?}", report.results);
    assert_eq!(codes_of(&report.warnings), Vec::<String>::new());
    assert_eq!(report.plan[0].kept_children, vec![p07, p08]);
    assert!(!report.plan[0].children_reassigned);
    // The quote keeps its structure: only the paragraph the edit changes
    // is written (SPEC §3.7 rule 23), never its sibling.
    let writes = host.writes();
    assert_eq!(writes.len(), 1, "{writes:?}");
    assert_eq!(writes[0].name, "updateBlock");
    assert_eq!(writes[0].args, [p07, "注意：标题块不是容器。"]);
    host.kernel("flush", serde_json::json!([]));
    assert_eq!(host.block(p07).unwrap().markdown, "注意：标题块不是容器。");
    let kept = host.block(p08).unwrap();
    assert!(kept.ial.contains("bookmark=\"重要\""), "{}", kept.ial);
    assert!(
        kept.ial.contains("custom-riff-decks=\"d1\""),
        "{}",
        kept.ial
    );
    // Its undo restores the text, the same ids again.
    let undone = run(&host, &report.undo.unwrap()).unwrap();
    assert!(undone.ok, "{:#?}", undone.results);
    host.kernel("flush", serde_json::json!([]));
    assert_eq!(
        host.block(p07).unwrap().markdown,
        "注意：标题块不是容器块。"
    );
    assert!(host.block(p08).is_some());

    // A list item changed beyond recognition would get a new id: refused
    // when something refers to it, with the children listed…
    let host = KernelHost::new();
    let li02 = "20240614083140-li02rty";
    host.kernel(
        "editorUpdate",
        serde_json::json!([P, format!("参见 (({li02} \"slice\"))。")]),
    );
    host.kernel("flush", serde_json::json!([]));
    let list = "20240614083125-lst0a9x";
    let diff = format!(
        "@@{list}@@\n<<<<<<< SEARCH\n- 实现 slice 分页阅读\n\n  - 支持 `id:+N` 游标\n  - 支持 `BEGIN:id` 与 `id:END`\n=======\n- 全部推倒重写的一项\n- 再加一项\n>>>>>>> REPLACE"
    );
    let report = run(&host, &diff).unwrap();
    assert!(!report.ok);
    let error = report.results[0].error.as_ref().unwrap();
    assert_eq!(error.code, ErrorCode::ChildrenWouldBeReassigned);
    assert!(
        error.details.block_ids.contains(&li02.to_string()),
        "{error:?}"
    );
    assert!(host.writes().is_empty());
    // …and applied when the caller accepts it, with a warning.
    let report = apply(
        &host,
        &diff,
        ApplyOptions {
            allow_child_reassign: true,
            ..ApplyOptions::default()
        },
    )
    .unwrap();
    assert!(report.ok, "{:#?}", report.results);
    assert_eq!(codes_of(&report.warnings), vec!["CHILDREN_REASSIGNED"]);
    assert!(report.plan[0]
        .reassigned_children
        .contains(&li02.to_string()));

    // A paragraph is no container: nothing to keep.
    let host = KernelHost::new();
    let report = run(&host, &format!("@@REPLACE:{P}@@\n新的段落")).unwrap();
    assert!(report.ok);
    assert_eq!(codes_of(&report.warnings), Vec::<String>::new());
    assert!(report.plan[0].kept_children.is_empty());
}

#[test]
fn a_late_undo_refuses_to_clobber_a_newer_edit_and_writes_nothing() {
    use editkit::SiyuanHost;
    let host = KernelHost::new();
    let diff = format!(
        "@@{P}@@\n<<<<<<< SEARCH\n若干问题\n=======\n三个问题\n>>>>>>> REPLACE\n\n@@AFTER:{P06}@@\n补充说明"
    );
    let report = run(&host, &diff).unwrap();
    assert!(report.ok, "{:#?}", report.results);
    let inserted = report.results[1].new_block_ids[0].as_str();
    let undo = report.undo.clone().unwrap();
    // The insert's undo is a content-checked delete (SPEC §3.6).
    assert_eq!(
        undo,
        format!(
            "@@{inserted}@@\n<<<<<<< SEARCH\n补充说明\n=======\n\n>>>>>>> REPLACE\n\n@@{P}@@\n<<<<<<< SEARCH\n本周主要完成了插件 **diff 编辑** 功能的重构，并修复了三个问题。\n=======\n本周主要完成了插件 **diff 编辑** 功能的重构，并修复了若干问题。\n{{: id=\"{P}\" updated=\"20240614083105\"}}\n>>>>>>> REPLACE"
        )
    );

    // Someone edits the paragraph again, through the host.
    let newer = "本周主要完成了插件 **diff 编辑** 功能的重构，并修复了三个问题，另有两项待办。";
    block_on(host.update_block(P, newer)).unwrap();
    let before_undo = host.snapshot(DOCS[0]);
    let writes_before = host.writes().len();

    let undone = run(&host, &undo).unwrap();
    assert!(!undone.ok);
    assert_eq!(
        refusal_codes(&Ok(undone.clone())),
        vec![ErrorCode::ContentMismatch]
    );
    let statuses: Vec<(EditStatus, &str)> = undone
        .results
        .iter()
        .map(|r| (r.status, r.block_id.as_str()))
        .collect();
    assert_eq!(
        statuses,
        vec![(EditStatus::Planned, inserted), (EditStatus::Failed, P)]
    );
    let error = undone.results[1].error.as_ref().unwrap();
    assert_eq!(
        (error.details.block_id.as_deref(), error.details.hunk_index),
        (Some(P), Some(2))
    );
    assert_eq!(error.details.actual.as_deref(), Some(newer));
    // Atomic: neither the DELETE nor the update was written.
    assert_eq!(host.writes().len(), writes_before);
    assert!(undone.undo.is_none());
    assert_eq!(host.snapshot(DOCS[0]), before_undo);
    assert_eq!(host.block(P).unwrap().markdown, newer);
    assert!(host.block(inserted).is_some());
}

#[test]
fn an_undo_whose_deleted_blocks_id_is_taken_re_inserts_it_without_and_maps_the_ids() {
    let host = KernelHost::new();
    let before: Vec<String> = host
        .top_level(DOCS[0])
        .into_iter()
        .map(|(_, md)| md)
        .collect();
    let report = run(&host, &format!("@@DELETE:{P06}@@")).unwrap();
    assert!(report.ok, "{:#?}", report.results);
    assert!(report.id_map.is_empty());
    let undo = report.undo.unwrap();
    assert_eq!(
        undo,
        format!(
            "@@PREPEND:20240614083300-h3bk2nd@@\n内核 API 调用统一走 fetchSyncPost，错误码非 0 时返回 null。\n{{: id=\"{P06}\" updated=\"20240614083320\"}}"
        )
    );

    // Meanwhile another writer used the id (the kernel trusts IAL ids,
    // KERNEL-FACTS §5): the undo must not make a duplicate.
    host.kernel(
        "editorInsert",
        serde_json::json!([format!("别人的段落\n{{: id=\"{P06}\"}}"), {"previousID": P}]),
    );
    let undone = run(&host, &undo).unwrap();
    assert!(undone.ok, "{:#?}", undone.results);
    assert_eq!(
        host.kernel("countId", serde_json::json!([P06])),
        1,
        "no duplicate id"
    );
    let fresh = undone.results[0].new_block_ids[0].clone();
    assert_ne!(fresh, P06);
    assert_eq!(
        undone.id_map,
        vec![editkit::IdMapping {
            old_id: P06.to_string(),
            new_id: fresh.clone()
        }]
    );
    assert!(undone
        .warnings
        .iter()
        .any(|w| w.code == editkit::WarningCode::IdInUse));
    assert_eq!(
        host.block(&fresh).unwrap().parent_id,
        "20240614083300-h3bk2nd"
    );
    // The text and order are back (with the other writer's paragraph).
    let mut after: Vec<String> = host
        .top_level(DOCS[0])
        .into_iter()
        .map(|(_, md)| md)
        .collect();
    after.retain(|md| md != "别人的段落");
    assert_eq!(after, before);

    // Without the other writer, the block comes back under its own id.
    let host = KernelHost::new();
    let report = run(&host, &format!("@@DELETE:{P06}@@")).unwrap();
    let undone = run(&host, &report.undo.unwrap()).unwrap();
    assert!(undone.ok);
    assert_eq!(undone.results[0].new_block_ids, vec![P06]);
    assert!(undone.id_map.is_empty());
}

#[test]
fn an_atomic_rollback_never_re_inserts_under_an_id_another_block_took_meanwhile() {
    let closing = "20240614083630-p12olp4";
    let host = KernelHost::new();
    host.insert_after_write
        .borrow_mut()
        .replace((format!("别人的段落\n{{: id=\"{P06}\"}}"), P.to_string()));
    host.fail_write_at.set(Some(2));
    let report = run(
        &host,
        &format!("@@DELETE:{P06}@@\n\n@@REPLACE:{closing}@@\n全文完。"),
    )
    .unwrap();
    assert!(!report.ok);
    let rollback = report.rollback.as_ref().unwrap();
    assert!(rollback.ok, "{rollback:?}");
    assert_eq!(rollback.reverted, 1);
    assert!(report.undo.is_none());
    assert_eq!(
        host.kernel("countId", serde_json::json!([P06])),
        1,
        "no duplicate id"
    );
    assert_eq!(report.id_map.len(), 1, "{:?}", report.id_map);
    assert_eq!(report.id_map[0].old_id, P06);
    let restored = host.block(&report.id_map[0].new_id).unwrap();
    assert_eq!(
        restored.markdown,
        "内核 API 调用统一走 fetchSyncPost，错误码非 0 时返回 null。"
    );
    assert_eq!(restored.parent_id, "20240614083300-h3bk2nd");
}

#[test]
fn a_rollback_that_fails_too_reports_both_failures_and_an_undo_of_what_is_still_written() {
    let closing = "20240614083630-p12olp4";
    let diff = format!(
        "@@{P}@@\n<<<<<<< SEARCH\n若干问题\n=======\n三个问题\n>>>>>>> REPLACE\n\n@@AFTER:{P06}@@\n补充说明\n\n@@REPLACE:{closing}@@\n全文完。"
    );
    let host = KernelHost::new();
    let before = host.snapshot(DOCS[0]);
    // Writes: #1 update P, #2 insert, #3 update closing (fails). The
    // rollback then deletes the insert (#4, fine) and restores P (#5, fails).
    host.fail_write_at.set(Some(3));
    host.fail_writes.borrow_mut().insert(5);
    let report = run(&host, &diff).unwrap();
    assert!(!report.ok);
    let inserted = report.plan[1].operations.iter().find_map(|op| match op {
        editkit::HostOp::Insert { new_id, .. } => new_id.clone(),
        _ => None,
    });
    let inserted = inserted.unwrap();
    let inserted = inserted.as_str();
    assert_eq!(
        host.writes(),
        vec![
            call("updateBlock", &[P, "本周主要完成了插件 **diff 编辑** 功能的重构，并修复了三个问题。"]),
            call("insertBlock", &[&with_id("补充说明", inserted), &format!("previousID={P06}")]),
            call("updateBlock", &[closing, "全文完。\n{: alias=\"结语,结束语\" memo=\"周报结尾\" name=\"closing\"}"]),
            call("deleteBlock", &[inserted]),
            call(
                "updateBlock",
                &[P, &format!("本周主要完成了插件 **diff 编辑** 功能的重构，并修复了若干问题。\n{{: id=\"{P}\" updated=\"20240614083105\"}}")]
            ),
        ]
    );
    // What failed: the third hunk's write.
    let statuses: Vec<EditStatus> = report.results.iter().map(|r| r.status).collect();
    assert_eq!(
        statuses,
        vec![
            EditStatus::Applied,
            EditStatus::RolledBack,
            EditStatus::Failed
        ]
    );
    let failed = report.results[2].error.as_ref().unwrap();
    assert_eq!(failed.code, ErrorCode::WriteFailed);
    assert_eq!(
        (failed.details.hunk_index, failed.details.name.as_deref()),
        (Some(3), Some("updateBlock"))
    );
    assert_eq!(
        failed.message,
        "Hunk #3: the write `updateBlock` failed: simulated failure of write #3"
    );
    // The rollback did not succeed: one write reverted, then the second failed.
    let rollback = report.rollback.as_ref().unwrap();
    assert!(!rollback.ok);
    assert_eq!(rollback.reverted, 1);
    let codes: Vec<(ErrorCode, &str)> = rollback
        .errors
        .iter()
        .map(|e| (e.code, e.message.as_str()))
        .collect();
    assert_eq!(
        codes,
        vec![(
            ErrorCode::HostError,
            "The host callback `updateBlock` failed: simulated failure of write #5"
        )]
    );
    assert_eq!(
        report.summary,
        "A write failed and the rollback failed too: 1 of 3 edit(s) remain written. Apply the undo diff to restore them."
    );
    // The undo covers exactly the update of P, which is still written.
    let undo = report.undo.clone().unwrap();
    assert_eq!(
        undo,
        format!(
            "@@{P}@@\n<<<<<<< SEARCH\n本周主要完成了插件 **diff 编辑** 功能的重构，并修复了三个问题。\n=======\n本周主要完成了插件 **diff 编辑** 功能的重构，并修复了若干问题。\n{{: id=\"{P}\" updated=\"20240614083105\"}}\n>>>>>>> REPLACE"
        )
    );
    assert!(host.block(inserted).is_none());
    host.fail_writes.borrow_mut().clear();
    host.fail_write_at.set(None);
    let undone = run(&host, &undo).unwrap();
    assert!(undone.ok, "{:#?}", undone.results);
    let texts = |s: Vec<(String, String, String)>| {
        s.into_iter()
            .map(|(id, _, md)| (id, md))
            .collect::<Vec<_>>()
    };
    assert_eq!(texts(host.snapshot(DOCS[0])), texts(before));
}

#[test]
fn non_atomic_apply_skips_a_failed_check_and_the_undo_covers_exactly_the_executed_edits() {
    let rule = "20240614083625-tb0ik3l";
    let diff = format!(
        "@@{P}@@\n<<<<<<< SEARCH\n若干问题\n=======\n三个问题\n>>>>>>> REPLACE\n\n@@{P06}@@\n<<<<<<< SEARCH\n错误码为 0 时返回 null\n=======\n错误码非 0 时抛出异常\n>>>>>>> REPLACE\n\n@@DELETE:{rule}@@"
    );
    let host = KernelHost::new();
    let before = host.top_level(DOCS[0]);
    let report = apply(
        &host,
        &diff,
        ApplyOptions {
            atomic: false,
            ..ApplyOptions::default()
        },
    )
    .unwrap();
    assert!(!report.ok);
    assert!(report.rollback.is_none());
    let statuses: Vec<EditStatus> = report.results.iter().map(|r| r.status).collect();
    assert_eq!(
        statuses,
        vec![EditStatus::Applied, EditStatus::Failed, EditStatus::Applied]
    );
    let error = report.results[1].error.as_ref().unwrap();
    assert_eq!(error.code, ErrorCode::ContentMismatch);
    assert_eq!(
        (error.details.block_id.as_deref(), error.details.hunk_index),
        (Some(P06), Some(2))
    );
    assert_eq!(
        host.writes(),
        vec![
            call(
                "updateBlock",
                &[
                    P,
                    "本周主要完成了插件 **diff 编辑** 功能的重构，并修复了三个问题。"
                ]
            ),
            call("deleteBlock", &[rule]),
        ]
    );
    assert_eq!(
        report.summary,
        "Applied 2 of 3 edit(s); 1 failed (see their errors). The undo diff covers what was written."
    );
    let undo = report.undo.clone().unwrap();
    assert_eq!(
        undo,
        format!(
            "@@AFTER:20240614083550-lst2olq@@\n---\n{{: id=\"{rule}\" updated=\"20240614083625\"}}\n\n@@{P}@@\n<<<<<<< SEARCH\n本周主要完成了插件 **diff 编辑** 功能的重构，并修复了三个问题。\n=======\n本周主要完成了插件 **diff 编辑** 功能的重构，并修复了若干问题。\n{{: id=\"{P}\" updated=\"20240614083105\"}}\n>>>>>>> REPLACE"
        )
    );
    let undone = run(&host, &undo).unwrap();
    assert!(undone.ok, "{:#?}", undone.results);
    assert_eq!(undone.results.len(), 2);
    assert_eq!(host.top_level(DOCS[0]), before);
    assert_eq!(
        host.block(P06).unwrap().markdown,
        "内核 API 调用统一走 fetchSyncPost，错误码非 0 时返回 null。"
    );
}

#[test]
fn format_errors_read_in_chinese_and_suggest_replace_where_content_holds_a_marker_line() {
    use ErrorCode::*;
    let use_replace_en = "If the block's own content contains a marker line (<<<<<<< SEARCH, =======, >>>>>>> REPLACE), rewrite the whole block with @@REPLACE:<id>@@ followed by the new content: its body is never marker-parsed.";
    let use_replace_zh = "如果块内容本身包含标记行（<<<<<<< SEARCH、=======、>>>>>>> REPLACE），请改用 @@REPLACE:<块ID>@@ 加新内容整体替换：该指令的正文不做标记解析。";
    // Block content holding marker lines, written as a SEARCH/REPLACE.
    let cases: Vec<(String, ErrorCode, u32, &str, bool)> = vec![
        (
            format!("@@{P}@@\n<<<<<<< SEARCH\n```\n=======\n```\n=======\nx\n>>>>>>> REPLACE"),
            MisplacedDelimiter,
            6,
            "第 6 行：同一个 SEARCH/REPLACE 块中出现了第二个 ======= 分隔符（REPLACE 部分已经开始）。",
            true,
        ),
        (
            format!("@@{P}@@\n<<<<<<< SEARCH\n<<<<<<< SEARCH\nfoo\n=======\nbar\n>>>>>>> REPLACE"),
            NestedSearch,
            3,
            "第 3 行：在尚未关闭的 SEARCH/REPLACE 块内又出现了 <<<<<<< SEARCH 标记。",
            true,
        ),
        (
            format!("@@{P}@@\n>>>>>>> REPLACE"),
            UnmatchedReplace,
            2,
            "第 2 行：>>>>>>> REPLACE 之前没有对应的 <<<<<<< SEARCH。",
            true,
        ),
        // A missing divider is not about content: no REPLACE suggestion.
        (
            format!("@@{P}@@\n<<<<<<< SEARCH\na\n>>>>>>> REPLACE"),
            MissingDelimiter,
            4,
            "第 4 行：>>>>>>> REPLACE 关闭的块中缺少分隔 SEARCH 与 REPLACE 的 ======= 行。",
            false,
        ),
    ];
    for (diff, code, line, zh_message, suggests_replace) in &cases {
        let zh = validate_block_diff_format(diff, &FormatOptions { lang: Lang::Zh });
        assert_eq!(zh.errors.len(), 1, "{diff}");
        let e = &zh.errors[0];
        assert_eq!((e.code, e.details.line), (*code, Some(*line)));
        assert_eq!(e.message, *zh_message);
        assert_eq!(
            e.details.suggestions.iter().any(|s| s == use_replace_zh),
            *suggests_replace,
            "{code:?}"
        );
        assert!(
            e.details.suggestions.iter().all(|s| !s.is_ascii()),
            "zh fixes are in Chinese: {:?}",
            e.details.suggestions
        );
        let en = validate_block_diff_format(diff, &FormatOptions::default());
        assert_eq!(
            en.errors[0]
                .details
                .suggestions
                .iter()
                .any(|s| s == use_replace_en),
            *suggests_replace,
            "{code:?}"
        );
        assert!(
            en.errors[0].message.starts_with(&format!("Line {line}: ")),
            "{}",
            en.errors[0].message
        );
    }

    // The same through applyBlockDiff: one INVALID_DIFF_FORMAT listing the
    // problem, in Chinese, and nothing fetched.
    let host = KernelHost::new();
    let err = apply(
        &host,
        &cases[0].0,
        ApplyOptions {
            lang: Lang::Zh,
            ..ApplyOptions::default()
        },
    )
    .unwrap_err();
    assert_eq!(err.code, InvalidDiffFormat);
    assert_eq!(
        err.message,
        format!(
            "diff 有 1 处格式问题；未做任何校验或写入。\n- {}",
            cases[0].3
        )
    );
    assert_eq!(
        err.details.errors[0]
            .details
            .suggestions
            .iter()
            .filter(|s| *s == use_replace_zh)
            .count(),
        1
    );
    assert!(host.calls.borrow().is_empty());

    // The suggested fix works: the same content under @@REPLACE:id@@ parses,
    // its marker lines kept as text.
    let fixed = format!("@@REPLACE:{P}@@\n```\n=======\n```");
    let parsed = parse_block_diff(&fixed, &FormatOptions { lang: Lang::Zh }).unwrap();
    assert_eq!(
        parsed.edits[0].replacement.as_deref(),
        Some("```\n=======\n```")
    );
    assert_eq!(codes_of(&parsed.warnings), vec!["MARKER_IN_BODY"]);
}

#[test]
fn a_matcher_refusal_in_a_block_is_the_block_diffs_refusal_in_the_matchers_words() {
    // The SEARCH is not in the code block, its REPLACE already is: the
    // matcher's ALREADY_APPLIED, worded by the matcher and placed in the
    // hunk by the block diff (which builds the error itself).
    let host = KernelHost::new();
    let code = "20240614083330-cd7rust";
    let line = "const res = await fetchSyncPost(\"/api/block/getChildBlocks\", { id });";
    let diff = format!(
        "@@{code}@@\n<<<<<<< SEARCH\n{line}\nconsole.log(res.data.size);\n=======\n{line}\nconsole.log(res.data.length);\n>>>>>>> REPLACE"
    );
    let report = run(&host, &diff).unwrap();
    let error = report.results[0].error.as_ref().unwrap();
    assert_eq!(error.code, ErrorCode::AlreadyApplied);
    assert_eq!(
        error.message,
        "Hunk #1 (block 20240614083330-cd7rust): The search text is not in the content, but the replacement already is, once, at lines 2–3. The edit looks already applied; nothing was changed. Re-read the content before editing again."
    );
    assert_eq!(error.details.candidates.len(), 1);
    assert!(host.writes().is_empty());
}
