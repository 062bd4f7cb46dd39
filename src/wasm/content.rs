//! Exports of slice and the content tools.

use wasm_bindgen::prelude::*;

use super::convert::{error_to_js, from_js, lang_of, required, result, to_js};
use super::host::JsHost;
use crate::content::{self, ContentOptions};
use crate::slice::{self, SliceOptions};

/// The selected run of a child list, given its ids (the TS layer slices
/// the caller's own array, so child objects never cross the boundary):
/// `{ start, end, total, header, message? }`.
#[wasm_bindgen(js_name = evaluateSlice)]
pub fn evaluate_slice(
    ids: JsValue,
    slice_text: JsValue,
    options: JsValue,
) -> Result<JsValue, JsValue> {
    #[derive(serde::Serialize)]
    struct Selection {
        start: u32,
        end: u32,
        total: u32,
        header: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        message: Option<String>,
    }
    let lang = lang_of(&options);
    let ids: Vec<String> = required(ids, "children", lang)?;
    let slice_text = super::convert::string_arg(&slice_text, "slice", lang)?;
    let options: SliceOptions = from_js(options, "options", lang)?;
    match slice::evaluate_slice(&ids, &slice_text, &options) {
        Ok(r) => to_js(&Selection {
            start: r.start,
            end: r.end,
            total: r.total,
            header: r.header,
            message: r.message,
        }),
        Err(e) => Err(error_to_js(&e)),
    }
}

#[wasm_bindgen(js_name = renderBlockContent)]
pub fn render_block_content(
    source: JsValue,
    args: JsValue,
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let lang = lang_of(&options);
    let source = required(source, "source", lang)?;
    let args = required(args, "args", lang)?;
    let options: ContentOptions = from_js(options, "options", lang)?;
    result(content::render_block_content(&source, &args, &options))
}

#[wasm_bindgen(js_name = getBlockContent)]
pub async fn get_block_content(
    args: JsValue,
    host: JsValue,
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let lang = lang_of(&options);
    let args = required(args, "args", lang)?;
    let options: ContentOptions = from_js(options, "options", lang)?;
    result(content::get_block_content(&args, &JsHost::new(host), &options).await)
}

#[wasm_bindgen(js_name = getBlockInfo)]
pub async fn get_block_info(
    args: JsValue,
    host: JsValue,
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let lang = lang_of(&options);
    let args = required(args, "args", lang)?;
    let options: ContentOptions = from_js(options, "options", lang)?;
    result(content::get_block_info(&args, &JsHost::new(host), &options).await)
}

/// getBlockInfo's pure part, for hosts that already hold the rows.
#[wasm_bindgen(js_name = buildBlockInfo)]
pub fn build_block_info(source: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let lang = lang_of(&options);
    let source: content::BlockInfoSource = required(source, "source", lang)?;
    let _: ContentOptions = from_js(options, "options", lang)?;
    result(source.build(lang))
}

/// appendContent's pure part: where markdown appended to a block goes.
#[wasm_bindgen(js_name = planAppend)]
pub fn plan_append(source: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let lang = lang_of(&options);
    let source: content::AppendSource = required(source, "source", lang)?;
    let _: ContentOptions = from_js(options, "options", lang)?;
    result(source.plan(lang))
}

#[wasm_bindgen(js_name = formatBlockInfo)]
pub fn format_block_info(info: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let lang = lang_of(&options);
    let info = required(info, "info", lang)?;
    let options: ContentOptions = from_js(options, "options", lang)?;
    to_js(&content::format_block_info(&info, &options))
}

#[wasm_bindgen(js_name = appendContent)]
pub async fn append_content(
    args: JsValue,
    host: JsValue,
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let lang = lang_of(&options);
    let args = required(args, "args", lang)?;
    let options: ContentOptions = from_js(options, "options", lang)?;
    result(content::append_content(&args, &JsHost::new(host), &options).await)
}

#[wasm_bindgen(js_name = createNewDoc)]
pub async fn create_new_doc(
    args: JsValue,
    host: JsValue,
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let lang = lang_of(&options);
    let args = required(args, "args", lang)?;
    let options: ContentOptions = from_js(options, "options", lang)?;
    result(content::create_new_doc(&args, &JsHost::new(host), &options).await)
}

#[wasm_bindgen(js_name = planNewDocPath)]
pub fn plan_new_doc_path(args: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let lang = lang_of(&options);
    let args = required(args, "args", lang)?;
    let options: ContentOptions = from_js(options, "options", lang)?;
    result(content::plan_new_doc_path(&args, &options))
}
