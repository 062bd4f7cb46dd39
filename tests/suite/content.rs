//! The content tools against the fixture documents: every recorded outcome
//! of the original plugin (getBlockContent renders, getBlockInfo texts,
//! createNewDoc paths, appendContent targets), host-call budgets, the
//! showId → block diff → re-render round trip, and hostile input.
//!
//! Each deliberate difference from the plugin is asserted with its reason.

use editkit::{
    append_content, build_block_info, create_new_doc, format_block_info, get_block_content,
    get_block_info, plan_new_doc_path, render_block_content, AppendContentArgs, AppendTarget,
    BlockContentSource, BlockIds, ContentOptions, CreateNewDocArgs, DocLocation,
    GetBlockContentArgs, GetBlockInfoArgs, NewDocPathArgs, Placement,
};
use editkit::{apply_block_diff, ApplyOptions};
use editkit::{Block, ChildBlock};
use editkit::{Capability, SiyuanHost};
use editkit::{Error, ErrorCode, Lang};

use super::kernel_host::{KernelHost, DAILY_NOTE, FIXTURE_DOCS, NOTEBOOK};
use super::support::{block_on, shared_json};

const ZH: ContentOptions = ContentOptions { lang: Lang::Zh };
const EN: ContentOptions = ContentOptions { lang: Lang::En };

fn outcomes() -> serde_json::Value {
    shared_json("fixtures/siyuan/plugin-expected-outcomes.json")
}

fn call_names(host: &KernelHost) -> Vec<&'static str> {
    host.calls.borrow().iter().map(|c| c.name).collect()
}

/// The plugin's kernel requests, as this host's callback names.
fn plugin_calls(case: &serde_json::Value) -> Vec<&'static str> {
    case["kernel_calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(
            |c| match c.as_str().or_else(|| c["url"].as_str()).unwrap() {
                "/api/query/sql" => "getBlocks",
                "/api/block/getChildBlocks" => "getChildBlocks",
                "/api/block/getBlockBreadcrumb" => "getBreadcrumb",
                "/api/filetree/createDailyNote" => "createDailyNote",
                "/api/block/appendBlock" => "appendBlock",
                other => panic!("unmapped kernel call {other}"),
            },
        )
        .collect()
}

// ---- getBlockContent --------------------------------------------------------

/// What editkit does with each recorded plugin render. A difference
/// carries its reason, which a failing assertion prints.
enum ContentExpect {
    /// The plugin's text and its kernel calls, in this language (the
    /// plugin printed Chinese labels and English slice messages).
    Same(Lang),
    /// The plugin's error: this code, and the message in this language
    /// starts with the plugin's text (editkit adds what to do next).
    SameError(ErrorCode, Lang),
    /// A deliberate difference: this text and these host calls instead.
    Differs(&'static str, &'static str, &'static [&'static str]),
}

fn content_expectation(args: &serde_json::Value) -> ContentExpect {
    use ContentExpect::*;
    let id = args["blockId"].as_str().unwrap();
    match (id, args["slice"].as_str()) {
        (_, Some("x:y:z")) => SameError(ErrorCode::InvalidSlice, Lang::En),
        (_, Some("20990101000000-zzzzzzz:+3")) => SameError(ErrorCode::SliceAnchorNotFound, Lang::En),
        ("20990101000000-zzzzzzz", _) => SameError(ErrorCode::BlockNotFound, Lang::Zh),
        ("20240614083000-a1b2c3d", Some("0:1")) => Differs(
            "a slice on a leaf pages over the leaf itself (what the reading view would list); the plugin asked \
             getChildBlocks, got [] and printed an empty view with Count: 0",
            "> [Slice View] Filter: \"0:1\" | Count: 1\n\n@@20240614083000-a1b2c3d@@段落\n本周主要完成了插件 **diff 编辑** 功能的重构，并修复了若干问题。",
            &["getBlocks"],
        ),
        (_, Some("100:")) => Same(Lang::En),
        _ => Same(Lang::Zh),
    }
}

#[test]
fn get_block_content_reproduces_every_plugin_render() {
    let outcomes = outcomes();
    let cases = outcomes["getBlockContent"].as_array().unwrap();
    assert_eq!(cases.len(), 20);
    let mut differences = 0;
    for case in cases {
        let args: GetBlockContentArgs = serde_json::from_value(case["args"].clone()).unwrap();
        let label = case["args"].to_string();
        let result = &case["result"];
        match content_expectation(&case["args"]) {
            ContentExpect::Same(lang) => {
                let host = KernelHost::new();
                let out = block_on(get_block_content(&args, &host, &ContentOptions { lang }))
                    .unwrap_or_else(|e| panic!("{label}: {e}"));
                assert_eq!(result["status"], "success", "{label}");
                let expected = result["data"].as_str().unwrap();
                assert_eq!(out.text, as_the_kernel_serves_it(expected), "{label}");
                assert_eq!(call_names(&host), plugin_calls(case), "{label}");
            }
            ContentExpect::SameError(code, lang) => {
                let host = KernelHost::new();
                let err = block_on(get_block_content(&args, &host, &ContentOptions { lang }))
                    .unwrap_err();
                assert_eq!(err.code, code, "{label}");
                let plugin = result["error"].as_str().unwrap();
                assert!(
                    err.message.starts_with(plugin),
                    "{label}: {:?} does not start with {plugin:?}",
                    err.message
                );
                assert_eq!(call_names(&host), plugin_calls(case), "{label}");
            }
            ContentExpect::Differs(why, text, calls) => {
                differences += 1;
                let label = format!("{label} (a deliberate difference: {why})");
                let host = KernelHost::new();
                let out = block_on(get_block_content(&args, &host, &ZH)).unwrap();
                assert_eq!(out.text, text, "{label}");
                assert_ne!(
                    out.text,
                    result["data"].as_str().unwrap(),
                    "{label}: listed as a difference"
                );
                assert_eq!(call_names(&host), calls, "{label}");
            }
        }
    }
    assert_eq!(differences, 1);
}

#[test]
fn type_labels_follow_the_language_and_default_to_english() {
    // Deliberate difference: the plugin always printed Chinese labels.
    let args = GetBlockContentArgs {
        block_id: "20240614083112-h2jz8kq".into(),
        show_id: Some(true),
        ..Default::default()
    };
    let host = KernelHost::new();
    let en = block_on(get_block_content(&args, &host, &ContentOptions::default())).unwrap();
    assert!(en.text.starts_with(
        "@@20240614083112-h2jz8kq@@heading\n## 本周进展\n\n@@20240614083125-lst0a9x@@list\n"
    ));
    assert!(en
        .text
        .contains("@@20240614083330-cd7rust@@code\n```typescript"));
    let zh = block_on(get_block_content(&args, &host, &ZH)).unwrap();
    assert_eq!(
        en.text
            .replace("@@heading", "@@标题")
            .replace("@@list", "@@列表")
            .replace("@@paragraph", "@@段落")
            .replace("@@code", "@@代码"),
        zh.text
    );
}

#[test]
fn get_block_content_modes_on_every_container_kind() {
    let host = KernelHost::new();
    let read = |id: &str, sub: Option<bool>, show_id: Option<bool>| {
        let args = GetBlockContentArgs {
            block_id: id.into(),
            show_id,
            show_sub_structure: sub,
            slice: None,
        };
        block_on(get_block_content(&args, &host, &EN)).unwrap()
    };
    // Blockquote expanded: its two paragraphs, with ids by default.
    let quote = read("20240614083420-bq9klmn", Some(true), None);
    assert_eq!(quote.total, 2);
    assert!(quote.text.starts_with("@@"), "{}", quote.text);
    assert!(
        quote.text.contains("@@paragraph\n注意：标题块不是容器块。"),
        "{}",
        quote.text
    );
    // showSubStructure without ids: children joined by blank lines.
    let plain = read("20240614083420-bq9klmn", Some(true), Some(false));
    assert_eq!(
        plain.text,
        "注意：标题块不是容器块。\n\ngetChildBlocks 对标题返回其下方的块。"
    );
    // A leaf with showSubStructure is the leaf itself (the plugin would
    // have listed its (empty) children).
    let leaf = read("20240614083000-a1b2c3d", Some(true), None);
    assert_eq!(leaf.block_ids, ["20240614083000-a1b2c3d"]);
    assert!(leaf
        .text
        .starts_with("@@20240614083000-a1b2c3d@@paragraph\n"));
    // A heading in reading mode: the heading, then its section.
    let heading = read("20240615073010-dh1todo", None, None);
    assert_eq!(heading.text, "## Todo\n\n- [ ] Review PR #42");
    assert!(!heading.show_id);
}

#[test]
fn slice_over_a_block_without_children_says_there_are_none() {
    // A callout without children (the kernel keeps an emptied callout; an
    // empty document, list or quote does not stay empty: SiYuan drops them,
    // or gives a document an empty paragraph, when it loads them,
    // KERNEL-FACTS §9).
    let callout = "20240102000000-lastone".to_string();
    let doc = format!(
        "前言\n\n> [!NOTE]\n> 提示\n> {{: id=\"20240102000000-onlyone\"}}\n{{: id=\"{callout}\"}}"
    );
    let lone = KernelHost::with_document("20990101000000-doc0001", &doc);
    let body = serde_json::json!({"id": "20240102000000-onlyone"});
    lone.kernel(
        "request",
        serde_json::json!(["/api/block/deleteBlock", body]),
    );
    block_on(lone.flush_transaction()).unwrap();
    let args = GetBlockContentArgs {
        block_id: callout.clone(),
        slice: Some("0:5".into()),
        ..Default::default()
    };
    let out = block_on(get_block_content(&args, &lone, &EN)).unwrap();
    assert_eq!(
        out.text,
        format!(
            "> [Slice View] Filter: \"0:5\" | Count: 0\n\n(Block {callout} has no child blocks.)"
        )
    );
    let host = KernelHost::new();
    // `/Archive` has no body (a folder document of the notebook index): it
    // reads as its one empty paragraph.
    let reading = block_on(get_block_content(
        &GetBlockContentArgs {
            block_id: "20240101080000-arch0v1".into(),
            ..Default::default()
        },
        &host,
        &EN,
    ));
    assert_eq!(reading.unwrap().text, "");
}

#[test]
fn get_block_content_rejects_bad_ids_before_any_host_call() {
    let host = KernelHost::new();
    for id in [
        "",
        "not-an-id",
        "20240614083000-A1B2C3D",
        "20240614083000-a1b2c3d; DROP TABLE blocks",
    ] {
        let args = GetBlockContentArgs {
            block_id: id.into(),
            ..Default::default()
        };
        let err = block_on(get_block_content(&args, &host, &EN)).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidBlockId, "{id}");
    }
    assert!(host.calls.borrow().is_empty());
    host.missing.borrow_mut().insert(Capability::GetChildBlocks);
    let args = GetBlockContentArgs {
        block_id: "20240614083000-wk24rep".into(),
        ..Default::default()
    };
    let err = block_on(get_block_content(&args, &host, &EN)).unwrap_err();
    assert_eq!(
        (err.code, err.details.name.as_deref()),
        (ErrorCode::HostCapabilityMissing, Some("getChildBlocks"))
    );
}

#[test]
fn render_is_pure_and_matches_the_async_path() {
    let host = KernelHost::new();
    for doc in [
        "20240614083000-wk24rep",
        "20240615100000-sy9plg2",
        "20240620211500-rdlst7q",
        DAILY_NOTE,
    ] {
        let args = GetBlockContentArgs {
            block_id: doc.into(),
            slice: Some("1:-1".into()),
            ..Default::default()
        };
        let via_host = block_on(get_block_content(&args, &host, &ZH)).unwrap();
        let block = host.block(doc).unwrap();
        let children = block_on(host.get_child_blocks(&[doc.to_string()]))
            .unwrap()
            .remove(0);
        let pure =
            render_block_content(&BlockContentSource { block, children }, &args, &ZH).unwrap();
        assert_eq!(pure, via_host);
        assert_eq!(pure.block_ids.len() + 2, pure.total as usize);
    }
}

// ---- getBlockInfo -------------------------------------------------------------

#[test]
fn get_block_info_reproduces_every_plugin_text() {
    let outcomes = outcomes();
    let cases = outcomes["getBlockInfo"].as_array().unwrap();
    assert_eq!(cases.len(), 7);
    for case in cases {
        let ids = case["args"]["ids"].as_str().unwrap();
        let args = GetBlockInfoArgs {
            ids: BlockIds::Text(ids.into()),
        };
        let host = KernelHost::new();
        let outcome = block_on(get_block_info(&args, &host, &ZH));
        match case["result_status"].as_str().unwrap() {
            "success" => {
                let info = outcome.unwrap_or_else(|e| panic!("{ids}: {e}"));
                assert_eq!(
                    format_block_info(&info, &ZH),
                    case["formatted"].as_str().unwrap(),
                    "{ids}"
                );
            }
            "not_found" => {
                let info = outcome.unwrap();
                assert!(info.blocks.is_empty());
                assert_eq!(info.not_found_ids, [ids]);
                assert_eq!(
                    format_block_info(&info, &ZH),
                    case["result_error"].as_str().unwrap()
                );
            }
            _ => {
                let err = outcome.unwrap_err();
                assert_eq!(err.code, ErrorCode::InvalidBlockId);
                assert!(
                    err.message
                        .starts_with(case["result_error"].as_str().unwrap()),
                    "{}",
                    err.message
                );
            }
        }
        // Deliberate difference: batched. The plugin made up to 7 kernel
        // requests per block; editkit makes one call per kind of data.
        let expected: &[&str] = match ids {
            "20240614083000-wk24rep" => &[
                "getBlocks",
                "getChildBlocks",
                "getDocHeadings",
                "getBreadcrumb",
            ],
            "20240614083112-h2jz8kq" | "20240614083125-lst0a9x,20990101000000-zzzzzzz" => {
                &["getBlocks", "getChildBlocks", "getBreadcrumb"]
            }
            "20240614083630-p12olp4" | "20240614083201-p03hjkl" => &["getBlocks", "getBreadcrumb"],
            "20990101000000-zzzzzzz" => &["getBlocks"],
            _ => &[],
        };
        assert_eq!(call_names(&host), expected, "{ids}");
        assert!(call_names(&host).len() <= plugin_calls(case).len(), "{ids}");
    }
}

#[test]
fn get_block_info_fields_and_english_text() {
    let host = KernelHost::new();
    let args = GetBlockInfoArgs {
        ids: BlockIds::List(vec!["20240614083112-h2jz8kq".into()]),
    };
    let info = block_on(get_block_info(&args, &host, &EN)).unwrap();
    let h = &info.blocks[0];
    assert_eq!(
        (h.content_length, h.markdown_length, h.child_block_count),
        (4, 277, Some(4))
    );
    assert_eq!(h.markdown_preview, "## 本周进展\n\n-");
    assert_eq!(h.breadcrumb.as_ref().unwrap()[0].type_, "d");
    let text = format_block_info(&info, &EN);
    assert!(
        text.contains("\n  id (block ID): 20240614083112-h2jz8kq\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "\ncontent length: 4\nmarkdown length: 277 (preview: \"## 本周进展\n\n-...\")\n"
        ),
        "{text}"
    );
    assert!(text.contains("\nchild block count: 4\n"), "{text}");
    assert!(text.ends_with("- [20240614083112-h2jz8kq][h] \n"), "{text}");
    let json = serde_json::to_value(&info).unwrap();
    assert_eq!(json["notFoundIds"], serde_json::json!([]));
    assert_eq!(json["blocks"][0]["markdownLength"], 277);
    assert!(json["blocks"][0].get("toc").is_none());
}

#[test]
fn get_block_info_is_four_calls_for_any_number_of_ids() {
    let host = KernelHost::new();
    let mut ids: Vec<String> = Vec::new();
    for file in FIXTURE_DOCS {
        let doc = shared_json(&format!("fixtures/siyuan/{file}"));
        ids.push(doc["document"]["id"].as_str().unwrap().into());
        ids.extend(
            doc["blocks"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| b["id"].as_str().unwrap().to_string()),
        );
    }
    ids.push("20990101000000-zzzzzzz".into());
    ids.push("20990101000000-yyyyyyy".into());
    ids.extend(ids.clone()); // duplicates are asked once
    let n = BlockIds::List(ids.clone()).to_vec().len();
    let info = block_on(get_block_info(
        &GetBlockInfoArgs {
            ids: BlockIds::Text(ids.join(",")),
        },
        &host,
        &ZH,
    ))
    .unwrap();
    assert_eq!(info.blocks.len(), n - 2);
    assert_eq!(
        info.not_found_ids,
        ["20990101000000-zzzzzzz", "20990101000000-yyyyyyy"]
    );
    assert_eq!(
        call_names(&host),
        [
            "getBlocks",
            "getChildBlocks",
            "getDocHeadings",
            "getBreadcrumb"
        ]
    );
    let text = format_block_info(&info, &ZH);
    assert!(text.starts_with(&format!("---块信息 (共 {} 个)---\n=== Block [", n - 2)));
    assert!(text.ends_with("\n\n[未找到] 20990101000000-zzzzzzz, 20990101000000-yyyyyyy"));
    // Every document has its outline; doc2's nests three levels.
    let doc2 = info
        .blocks
        .iter()
        .find(|b| b.id == "20240615100000-sy9plg2")
        .unwrap();
    let toc = doc2.toc.as_ref().unwrap();
    assert_eq!(toc[0].children[0].children[0].content, "WASM 加载");
}

#[test]
fn outline_is_in_document_order_not_sort_order() {
    // Deliberate difference. The plugin ordered headings by the kernel's
    // `sort` column; `sort` is a type weight (5 for every heading), so the
    // order was the SQL engine's row order, i.e. creation order. A heading
    // inserted at the top of a document later must still come first.
    let host = KernelHost::new();
    let doc = "20240620211500-rdlst7q";
    let new_ids = block_on(host.insert_block(
        "## Preface",
        &editkit::InsertAnchor::Before("20240620211500-q0intro".into()),
    ))
    .unwrap();
    let info = block_on(get_block_info(
        &GetBlockInfoArgs {
            ids: BlockIds::Text(doc.into()),
        },
        &host,
        &EN,
    ))
    .unwrap();
    let toc: Vec<&str> = info.blocks[0]
        .toc
        .as_ref()
        .unwrap()
        .iter()
        .map(|n| n.content.as_str())
        .collect();
    assert_eq!(toc, ["Preface", "Books", "Papers"]);
    // What sorting the rows by `sort` gives: the fixture rows in creation
    // order, then the new heading (stable sort, equal weights).
    let mut rows: Vec<Block> = shared_json("fixtures/siyuan/doc3-reading-list.json")["blocks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| serde_json::from_value(r.clone()).unwrap())
        .collect();
    rows.push(host.block(&new_ids[0]).unwrap());
    rows.retain(|b| b.type_ == "h");
    rows.sort_by_key(|b| b.sort);
    let by_sort: Vec<&str> = rows.iter().map(|b| b.content.as_str()).collect();
    assert_eq!(by_sort, ["Books", "Papers", "Preface"]);
    assert_ne!(toc, by_sort);
}

#[test]
fn without_get_doc_headings_the_outline_uses_top_level_headings() {
    let host = KernelHost::new();
    host.missing.borrow_mut().insert(Capability::GetDocHeadings);
    let args = GetBlockInfoArgs {
        ids: BlockIds::Text("20240614083000-wk24rep".into()),
    };
    let info = block_on(get_block_info(&args, &host, &ZH)).unwrap();
    let full = block_on(get_block_info(&args, &KernelHost::new(), &ZH)).unwrap();
    assert_eq!(info.blocks[0].toc, full.blocks[0].toc);
    assert_eq!(
        call_names(&host),
        ["getBlocks", "getChildBlocks", "getBreadcrumb"]
    );
    // Breadcrumbs are required: missing → refused before any call.
    let host = KernelHost::new();
    host.missing.borrow_mut().insert(Capability::GetBreadcrumb);
    let err = block_on(get_block_info(&args, &host, &ZH)).unwrap_err();
    assert_eq!(err.code, ErrorCode::HostCapabilityMissing);
    assert!(host.calls.borrow().is_empty());
}

#[test]
fn block_info_builds_from_plain_data_and_round_trips_through_json() {
    let block = Block {
        id: "20240101000000-emoji01".into(),
        type_: "p".into(),
        content: "😀 hi".into(),
        markdown: "😀😀😀😀😀😀 **hi**".into(),
        ..Block::default()
    };
    let info = build_block_info(&block, None, None, None);
    assert_eq!((info.content_length, info.markdown_length), (5, 19));
    assert_eq!(info.markdown_preview, "😀😀😀😀😀");
    assert_eq!(info.child_block_count, None);
    let result = editkit::BlockInfoResult {
        blocks: vec![info],
        not_found_ids: vec![],
    };
    let json = serde_json::to_value(&result).unwrap();
    let back: editkit::BlockInfoResult = serde_json::from_value(json).unwrap();
    assert_eq!(back, result);
    let text = format_block_info(&back, &EN);
    assert!(text.contains("(preview: \"😀😀😀😀😀...\")"), "{text}");
    assert_eq!(
        format_block_info(&editkit::BlockInfoResult::default(), &EN),
        "No block found: "
    );
}

// ---- createNewDoc ---------------------------------------------------------------

#[test]
fn create_new_doc_reproduces_every_plugin_path() {
    let outcomes = outcomes();
    let cases = outcomes["createNewDoc"].as_array().unwrap();
    assert_eq!(cases.len(), 15);
    for case in cases {
        let a = &case["args"];
        let label = a.to_string();
        let request = &case["createDocWithMd_request"];
        let args = CreateNewDocArgs {
            title: a["title"].as_str().unwrap().into(),
            anchor_document_id: a["anchorDocumentId"].as_str().unwrap().into(),
            location: serde_json::from_value(a["location"].clone()).unwrap(),
            markdown: request["markdown"].as_str().unwrap_or("# hi").into(),
        };
        let host = KernelHost::new();
        let outcome = block_on(create_new_doc(&args, &host, &ZH));
        let result = &case["result"];
        if result["status"] == "success" {
            let out = outcome.unwrap_or_else(|e| panic!("{label}: {e}"));
            let data = &result["data"];
            // The plugin's recording numbered new documents `…-docNNNN`;
            // the kernel (and its double) make ids of the same form.
            assert!(editkit::is_block_id(&out.doc_id), "{label}");
            let recorded = data["docId"].as_str().unwrap();
            assert_eq!(out.hpath, data["hpath"].as_str().unwrap(), "{label}");
            assert_eq!(
                serde_json::to_value(out.location).unwrap(),
                data["location"],
                "{label}"
            );
            assert!(out.success);
            assert_eq!(
                out.summary,
                case["formatted"]
                    .as_str()
                    .unwrap()
                    .replace(recorded, &out.doc_id),
                "{label}"
            );
            let calls = host.calls.borrow().clone();
            assert_eq!(calls.len(), 2, "{label}");
            assert_eq!(calls[1].name, "createDoc");
            assert_eq!(calls[1].args[0], request["notebook"].as_str().unwrap());
            assert_eq!(calls[1].args[1], request["path"].as_str().unwrap());
            assert_eq!(calls[1].args[3], request["markdown"].as_str().unwrap());
            // The parent id (not sent by the plugin) names the document
            // whose hpath is the new hpath's folder.
            let parent_id = &calls[1].args[2];
            let folder = out.hpath.rsplit_once('/').unwrap().0;
            if folder.is_empty() {
                assert_eq!(parent_id, "", "{label}");
            } else {
                assert_eq!(host.block(parent_id).unwrap().hpath, folder, "{label}");
            }
            assert_eq!(host.block(&out.doc_id).unwrap().hpath, out.hpath);
        } else {
            let err = outcome.unwrap_err();
            let code = match result["status"].as_str().unwrap() {
                "not_found" => ErrorCode::BlockNotFound,
                _ if args.location == DocLocation::Parent
                    && args.anchor_document_id == "20240614083000-wk24rep" =>
                {
                    ErrorCode::NoParentDocument
                }
                _ => ErrorCode::NotADocument,
            };
            assert_eq!(err.code, code, "{label}");
            assert!(
                err.message.starts_with(result["error"].as_str().unwrap()),
                "{label}: {}",
                err.message
            );
            assert_eq!(host.calls_named("createDoc"), 0, "{label}");
        }
    }
}

#[test]
fn plan_new_doc_path_is_pure_and_explains_refusals() {
    let index = shared_json("fixtures/siyuan/notebook-index.json");
    let doc = |id: &str| -> Block {
        let row = index["documents"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["id"] == id)
            .unwrap();
        serde_json::from_value(row.clone()).unwrap()
    };
    let plan = |anchor: Block, location| {
        plan_new_doc_path(
            &NewDocPathArgs {
                anchor_doc: anchor,
                title: "a/b/c".into(),
                location,
            },
            &EN,
        )
    };
    let daily = doc(DAILY_NOTE);
    let p = plan(daily.clone(), DocLocation::Parent).unwrap();
    assert_eq!(
        (p.hpath.as_str(), p.parent_id.as_str()),
        ("/daily note/2024/a-b-c", "20240101000001-dn2024x")
    );
    assert_eq!(p.notebook, NOTEBOOK);
    let p = plan(daily.clone(), DocLocation::Siblings).unwrap();
    assert_eq!(
        (p.hpath.as_str(), p.parent_id.as_str()),
        ("/daily note/2024/06/a-b-c", "20240601000000-dn06mon")
    );
    let p = plan(daily, DocLocation::Children).unwrap();
    assert_eq!(
        (p.hpath.as_str(), p.parent_id.as_str()),
        ("/daily note/2024/06/2024-06-15/a-b-c", DAILY_NOTE)
    );
    let json = serde_json::to_value(&p).unwrap();
    assert_eq!(json["parentID"], DAILY_NOTE);
    // A heading as anchor: the error names its type and its document.
    let heading = KernelHost::new().block("20240614083112-h2jz8kq").unwrap();
    let err = plan(heading, DocLocation::Children).unwrap_err();
    assert_eq!(err.code, ErrorCode::NotADocument);
    assert_eq!(err.details.name.as_deref(), Some("h"));
    assert!(
        err.message.contains("(heading)") && err.message.contains("20240614083000-wk24rep"),
        "{}",
        err.message
    );
    let err = plan(doc("20240101080000-arch0v1"), DocLocation::Parent).unwrap_err();
    assert_eq!(err.code, ErrorCode::NoParentDocument);
}

#[test]
fn create_new_doc_checks_callbacks_and_arguments_before_calling() {
    let args = |title: &str, anchor: &str| CreateNewDocArgs {
        title: title.into(),
        anchor_document_id: anchor.into(),
        location: DocLocation::Children,
        markdown: String::new(),
    };
    let host = KernelHost::new();
    host.missing.borrow_mut().insert(Capability::CreateDoc);
    let err = block_on(create_new_doc(
        &args("T", "20240614083000-wk24rep"),
        &host,
        &EN,
    ))
    .unwrap_err();
    assert_eq!(
        (err.code, err.details.name.as_deref()),
        (ErrorCode::HostCapabilityMissing, Some("createDoc"))
    );
    assert!(host.calls.borrow().is_empty());
    let host = KernelHost::new();
    assert_eq!(
        block_on(create_new_doc(
            &args(" ", "20240614083000-wk24rep"),
            &host,
            &EN
        ))
        .unwrap_err()
        .code,
        ErrorCode::InvalidArgument
    );
    assert_eq!(
        block_on(create_new_doc(&args("T", "nope"), &host, &EN))
            .unwrap_err()
            .code,
        ErrorCode::InvalidBlockId
    );
    assert!(host.calls.borrow().is_empty());
    // A failing host write is an error, not a success.
    host.fail_write_at.set(Some(1));
    let err = block_on(create_new_doc(
        &args("T", "20240614083000-wk24rep"),
        &host,
        &EN,
    ))
    .unwrap_err();
    assert_eq!(
        (err.code, err.details.name.as_deref()),
        (ErrorCode::HostError, Some("createDoc"))
    );
    // The body lands in the new document.
    let host = KernelHost::new();
    let mut a = args("Notes", "20240614083000-wk24rep");
    a.markdown = "first\n\nsecond".into();
    let out = block_on(create_new_doc(&a, &host, &EN)).unwrap();
    assert_eq!(
        out.summary,
        format!(
            "Created document [/项目周报/Notes](siyuan://blocks/{}) (location: children)",
            out.doc_id
        )
    );
    let body: Vec<String> = host
        .top_level(&out.doc_id)
        .into_iter()
        .map(|(_, md)| md)
        .collect();
    assert_eq!(body, ["first", "second"]);
}

// ---- appendContent ---------------------------------------------------------------

#[test]
fn append_content_reproduces_the_plugin_or_differs_deliberately() {
    let outcomes = outcomes();
    let cases = outcomes["appendContent"].as_array().unwrap();
    assert_eq!(cases.len(), 4);
    for case in cases {
        let args: AppendContentArgs = serde_json::from_value(case["args"].clone()).unwrap();
        let label = case["args"].to_string();
        // The fixtures' daily note is today's.
        let host = KernelHost::at("2024-06-15T08:00:00Z");
        let out =
            block_on(append_content(&args, &host, &ZH)).unwrap_or_else(|e| panic!("{label}: {e}"));
        let data = &case["result"]["data"];
        assert_eq!(out.success, data["success"].as_bool().unwrap(), "{label}");
        assert_eq!(out.target_id, data["targetId"].as_str().unwrap(), "{label}");
        assert_eq!(
            serde_json::to_value(out.target_type).unwrap(),
            data["targetType"],
            "{label}"
        );
        let writes = host.writes();
        assert_eq!(writes.len(), 1, "{label}");
        let md = args.markdown.clone();
        match args.target.as_str() {
            // Deliberate difference: the plugin called appendBlock with the
            // heading as parent, which kernel >= 3.7 rejects (code -1), and
            // still reported success. editkit writes after the last block of
            // the heading's section, the rule of @@APPEND:heading@@.
            "20240614083112-h2jz8kq" => {
                assert_eq!(out.placement, Placement::EndOfSection);
                assert_eq!(writes[0].name, "insertBlock");
                assert_eq!(
                    writes[0].args,
                    [md.clone(), "previousID=20240614083330-cd7rust".into()]
                );
                assert_eq!(
                    call_names(&host),
                    ["getBlocks", "getChildBlocks", "insertBlock"]
                );
                let top = host.top_level("20240614083000-wk24rep");
                let pos = top.iter().position(|(_, m)| *m == md).unwrap();
                assert_eq!(top[pos - 1].0, "20240614083330-cd7rust");
                assert_eq!(top[pos + 1].0, "20240614083410-h2risk1");
            }
            // Deliberate difference: the plugin's appendBlock on a leaf is
            // rejected by kernel >= 3.7; editkit inserts the next sibling,
            // what older kernels did and what the seed documents.
            "20240614083000-a1b2c3d" => {
                assert_eq!(out.placement, Placement::NextSibling);
                assert_eq!(
                    writes[0].args,
                    [md.clone(), "previousID=20240614083000-a1b2c3d".into()]
                );
                assert_eq!(call_names(&host), ["getBlocks", "insertBlock"]);
                assert_eq!(host.top_level("20240614083000-wk24rep")[1].1, md);
            }
            _ => {
                assert_eq!(out.placement, Placement::LastChild);
                assert_eq!(call_names(&host), plugin_calls(case), "{label}");
                assert_eq!(writes[0].args, [out.target_id.clone(), md.clone()]);
                assert_eq!(host.top_level(&out.target_id).last().unwrap().1, md);
            }
        }
        assert_eq!(out.new_block_ids.len(), 1, "{label}");
    }
}

#[test]
fn append_content_refusals() {
    let args = |target_type, target: &str, markdown: &str| AppendContentArgs {
        markdown: markdown.into(),
        target_type,
        target: target.into(),
    };
    let host = KernelHost::new();
    let code = |a: AppendContentArgs| block_on(append_content(&a, &host, &EN)).unwrap_err().code;
    assert_eq!(
        code(args(AppendTarget::Block, "20990101000000-zzzzzzz", "x")),
        ErrorCode::BlockNotFound
    );
    assert_eq!(
        code(args(AppendTarget::Document, "20990101000000-zzzzzzz", "x")),
        ErrorCode::BlockNotFound
    );
    // Deliberate difference: "document" naming a paragraph is refused (the
    // plugin appended relative to the paragraph).
    assert_eq!(
        code(args(AppendTarget::Document, "20240614083000-a1b2c3d", "x")),
        ErrorCode::NotADocument
    );
    assert_eq!(
        code(args(AppendTarget::Block, "20240614083000-a1b2c3d", " \n ")),
        ErrorCode::InvalidArgument
    );
    assert_eq!(
        code(args(AppendTarget::Dailynote, "notebook", "x")),
        ErrorCode::InvalidBlockId
    );
    assert_eq!(
        code(args(AppendTarget::Dailynote, "20990101000000-zzzzzzz", "x")),
        ErrorCode::HostError
    );
    assert!(host.writes().is_empty());
    // A missing callback is reported before anything is written.
    host.missing.borrow_mut().insert(Capability::InsertBlock);
    let err = block_on(append_content(
        &args(AppendTarget::Block, "20240614083112-h2jz8kq", "x"),
        &host,
        &EN,
    ))
    .unwrap_err();
    assert_eq!(
        (err.code, err.details.name.as_deref()),
        (ErrorCode::HostCapabilityMissing, Some("insertBlock"))
    );
    assert!(host.writes().is_empty());
    // A write the kernel rejects is an error (the plugin reported success).
    let host = KernelHost::new();
    host.fail_write_at.set(Some(1));
    let err = block_on(append_content(
        &args(AppendTarget::Document, "20240614083000-wk24rep", "x"),
        &host,
        &EN,
    ))
    .unwrap_err();
    assert_eq!(
        (err.code, err.details.name.as_deref()),
        (ErrorCode::HostError, Some("appendBlock"))
    );
}

#[test]
fn append_to_containers_and_a_heading_with_an_empty_section() {
    let host = KernelHost::new();
    let run = |target: &str, md: &str| {
        let a = AppendContentArgs {
            markdown: md.into(),
            target_type: AppendTarget::Block,
            target: target.into(),
        };
        block_on(append_content(&a, &host, &EN)).unwrap()
    };
    let out = run("20240614083420-bq9klmn", "引述末尾");
    assert_eq!(out.placement, Placement::LastChild);
    assert_eq!(
        out.summary,
        "Appended 1 block(s) as the last children of 20240614083420-bq9klmn."
    );
    // A heading followed directly by a heading of the same level.
    let doc = "20240620211500-rdlst7q";
    let new = block_on(host.insert_block(
        "## Empty",
        &editkit::InsertAnchor::Before("20240620211550-q5hdr02".into()),
    ))
    .unwrap();
    let out = run(&new[0], "under empty");
    assert_eq!(out.placement, Placement::EndOfSection);
    let top = host.top_level(doc);
    let pos = top.iter().position(|(_, m)| m == "under empty").unwrap();
    assert_eq!(
        (top[pos - 1].0.as_str(), top[pos + 1].0.as_str()),
        (new[0].as_str(), "20240620211550-q5hdr02")
    );
}

// ---- round trip: showId → block diff → re-render ----------------------------------

/// Splits a showId rendering back into (header line, id, label, markdown).
fn parse_rendered(text: &str) -> Vec<(String, String, String, String)> {
    let mut out: Vec<(String, String, String, Vec<&str>)> = Vec::new();
    for line in text.split('\n') {
        let header = line
            .strip_prefix("@@")
            .and_then(|r| r.split_once("@@"))
            .filter(|(id, _)| editkit::is_block_id(id));
        match header {
            Some((id, label)) => {
                if let Some(last) = out.last_mut() {
                    last.3.pop(); // the blank separator line
                }
                out.push((
                    line.to_string(),
                    id.to_string(),
                    label.to_string(),
                    Vec::new(),
                ));
            }
            None => out
                .last_mut()
                .expect("text before the first header")
                .3
                .push(line),
        }
    }
    out.into_iter()
        .map(|(h, id, label, lines)| (h, id, label, lines.join("\n")))
        .collect()
}

fn join_rendered(blocks: &[(String, String, String, String)]) -> String {
    blocks
        .iter()
        .map(|(h, _, _, md)| format!("{h}\n{md}"))
        .collect::<Vec<_>>()
        .join("\n\n")
}

#[test]
fn show_id_output_round_trips_through_apply_block_diff() {
    for (file, lang) in FIXTURE_DOCS
        .iter()
        .zip([Lang::Zh, Lang::En, Lang::Zh, Lang::En])
    {
        let host = KernelHost::new();
        let doc = shared_json(&format!("fixtures/siyuan/{file}"))["document"]["id"]
            .as_str()
            .unwrap()
            .to_string();
        let options = ContentOptions { lang };
        let args = GetBlockContentArgs {
            block_id: doc.clone(),
            show_id: Some(true),
            ..Default::default()
        };
        let before = block_on(get_block_content(&args, &host, &options)).unwrap();
        let mut blocks = parse_rendered(&before.text);
        assert_eq!(
            join_rendered(&blocks),
            before.text,
            "{file}: the rendering parses back"
        );
        let paragraph = editkit::BlockKind::Paragraph.label(lang);
        let mut diff = String::new();
        let mut rewritten = 0;
        for (header, id, label, md) in &mut blocks {
            if label != paragraph {
                continue;
            }
            let new = format!("{md}（已修订 {rewritten}）");
            if md.is_empty() {
                // An empty SEARCH locates nothing: rewrite without a check.
                diff.push_str(&format!("@@REPLACE:{id}@@\n{new}\n\n"));
            } else {
                // The header is copied verbatim, type label included.
                diff.push_str(&format!(
                    "{header}\n<<<<<<< SEARCH\n{md}\n=======\n{new}\n>>>>>>> REPLACE\n\n"
                ));
            }
            *md = new;
            rewritten += 1;
        }
        assert!(rewritten >= 1, "{file}");
        let report = block_on(apply_block_diff(&diff, &host, &ApplyOptions::default())).unwrap();
        assert!(report.ok, "{file}: {}", report.summary);
        let after = block_on(get_block_content(&args, &host, &options)).unwrap();
        assert_eq!(after.text, join_rendered(&blocks), "{file}");
        assert_ne!(after.text, before.text);
    }
}

// ---- hostile input -------------------------------------------------------------------

#[test]
fn huge_child_lists_render_and_slice_without_trouble() {
    let n = 10_000;
    let children: Vec<ChildBlock> = (0..n)
        .map(|i| ChildBlock {
            id: format!("20240101000000-{:07}", i),
            type_: if i % 7 == 0 { "h".into() } else { "p".into() },
            sub_type: "h2".into(),
            markdown: format!("第 {i} 段 😀"),
            ..ChildBlock::default()
        })
        .collect();
    let block = Block {
        id: "20240101000000-bigdoc0".into(),
        type_: "d".into(),
        ..Block::default()
    };
    let source = BlockContentSource {
        block: block.clone(),
        children: children.clone(),
    };
    let last = &children[n - 1].id;
    for slice in [
        format!("{last}:-20"),
        "-20:".to_string(),
        format!("BEGIN:{last}"),
        "5000".into(),
    ] {
        let args = GetBlockContentArgs {
            block_id: block.id.clone(),
            slice: Some(slice.clone()),
            ..Default::default()
        };
        let out = render_block_content(&source, &args, &ZH).unwrap();
        assert_eq!(out.total as usize, n);
        assert!(out.text.starts_with("> [Slice View]"), "{slice}");
    }
    let info = build_block_info(&block, Some(&children), None, None);
    assert_eq!(info.child_block_count, Some(n as u32));
    assert_eq!(info.toc.unwrap().len(), n.div_ceil(7));
}

#[test]
fn arbitrary_arguments_never_panic() {
    let host = KernelHost::new();
    let weird = [
        "",
        " ",
        "\u{0}",
        "😀",
        "中文:中文",
        "::::",
        "-",
        "+",
        "BEGIN:END:BEGIN",
        "20240614083000-a1b2c3d:-",
        "20240614083000-a1b2c3d:+-3",
        "9223372036854775808:-9223372036854775809",
        "\u{feff}0:1",
        "0：1",
    ];
    for doc in [
        "20240614083000-wk24rep",
        "20240614083125-lst0a9x",
        "20240614083000-a1b2c3d",
    ] {
        for slice in weird {
            let args = GetBlockContentArgs {
                block_id: doc.into(),
                slice: Some(slice.into()),
                ..Default::default()
            };
            let _ = block_on(get_block_content(&args, &host, &EN));
        }
    }
    for ids in weird {
        let _ = block_on(get_block_info(
            &GetBlockInfoArgs {
                ids: BlockIds::Text(ids.into()),
            },
            &host,
            &EN,
        ));
    }
    for title in weird {
        for location in [
            DocLocation::Siblings,
            DocLocation::Children,
            DocLocation::Parent,
        ] {
            let anchor = Block {
                type_: "d".into(),
                path: title.into(),
                hpath: title.into(),
                ..Block::default()
            };
            let _ = plan_new_doc_path(
                &NewDocPathArgs {
                    anchor_doc: anchor,
                    title: title.into(),
                    location,
                },
                &EN,
            );
        }
    }
    let err: Error =
        block_on(get_block_info(&GetBlockInfoArgs::default(), &host, &EN)).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidArgument);
}

#[test]
fn every_type_label_is_accepted_back_as_a_hunk_header() {
    use editkit::BlockKind;
    use editkit::{validate_block_diff_format, FormatOptions};
    let codes = [
        "d",
        "h",
        "p",
        "l",
        "i",
        "b",
        "s",
        "callout",
        "c",
        "t",
        "m",
        "tb",
        "html",
        "query_embed",
        "av",
        "video",
        "audio",
        "iframe",
        "widget",
        "future",
    ];
    for lang in [Lang::En, Lang::Zh] {
        for code in codes {
            let label = BlockKind::from_code(code).label(lang);
            let diff = format!("@@20240614083000-a1b2c3d@@{label}\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n");
            let report = validate_block_diff_format(&diff, &FormatOptions { lang });
            assert!(
                report.valid && report.warnings.is_empty(),
                "{lang:?} {code} → {label}: {report:?}"
            );
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 256, ..Default::default() })]

    #[test]
    fn rendering_never_panics_and_shows_a_contiguous_run(
        kind in proptest::sample::select(vec!["d", "h", "l", "p", "s", "zz"]),
        n in 0usize..12,
        markdown in "\\PC{0,12}",
        slice in proptest::option::of("\\PC{0,16}"),
        show_id in proptest::option::of(proptest::bool::ANY),
        sub in proptest::option::of(proptest::bool::ANY),
        lang in proptest::sample::select(vec![Lang::En, Lang::Zh]),
    ) {
        let children: Vec<ChildBlock> = (0..n)
            .map(|i| ChildBlock { id: format!("20240101000000-{i:07}"), type_: "p".into(), markdown: markdown.clone(), ..ChildBlock::default() })
            .collect();
        let block = Block { id: "20240101000000-target0".into(), type_: kind.into(), markdown: markdown.clone(), ..Block::default() };
        let args = GetBlockContentArgs { block_id: block.id.clone(), show_id, show_sub_structure: sub, slice };
        let source = BlockContentSource { block, children };
        if let Ok(out) = render_block_content(&source, &args, &ContentOptions { lang }) {
            let listed: Vec<&str> = match kind {
                "d" => source.children.iter().map(|c| c.id.as_str()).collect(),
                "h" => std::iter::once(source.block.id.as_str()).chain(source.children.iter().map(|c| c.id.as_str())).collect(),
                "l" | "s" if out.show_sub_structure => source.children.iter().map(|c| c.id.as_str()).collect(),
                _ => vec![source.block.id.as_str()],
            };
            proptest::prop_assert_eq!(out.total as usize, listed.len());
            let shown: Vec<&str> = out.block_ids.iter().map(String::as_str).collect();
            proptest::prop_assert!(shown.is_empty() || listed.windows(shown.len()).any(|w| w == shown.as_slice()));
        }
    }
}

/// A plugin render with the fixtures' table as the kernel serves it: the
/// renders show it padded by hand, the kernel writes tables unpadded
/// (KERNEL-FACTS §6), and so does the double.
fn as_the_kernel_serves_it(render: &str) -> String {
    const PLUGIN_TABLE: &str = "| 问题              | 状态   | 负责人 |\n| ------------------- | -------- | -------- |\n| 列表项更新异常    | 已修复 | 张三   |\n| 多块 REPLACE 丢失 | 调查中 | 李四   |";
    const KERNEL_TABLE: &str = "|问题|状态|负责人|\n| -------------------| --------| --------|\n|列表项更新异常|已修复|张三|\n|多块 REPLACE 丢失|调查中|李四|";
    render.replace(PLUGIN_TABLE, KERNEL_TABLE)
}
