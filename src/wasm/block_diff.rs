//! Exports of the block-diff engine.

use wasm_bindgen::prelude::*;

use super::convert::{error_to_js, from_js, lang_of, string_arg, to_js};
use super::host::JsHost;
use crate::block_diff::{self, ApplyOptions, FormatOptions};

#[wasm_bindgen(js_name = validateBlockDiffFormat)]
pub fn validate_block_diff_format(text: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let lang = lang_of(&options);
    let text = string_arg(&text, "text", lang)?;
    let options: FormatOptions = from_js(options, "options", lang)?;
    to_js(&block_diff::validate_block_diff_format(&text, &options))
}

#[wasm_bindgen(js_name = parseBlockDiff)]
pub fn parse_block_diff(text: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let lang = lang_of(&options);
    let text = string_arg(&text, "text", lang)?;
    let options: FormatOptions = from_js(options, "options", lang)?;
    match block_diff::parse_block_diff(&text, &options) {
        Ok(report) => to_js(&report),
        Err(e) => Err(error_to_js(&e)),
    }
}

#[wasm_bindgen(js_name = applyBlockDiff)]
pub async fn apply_block_diff(
    text: JsValue,
    host: JsValue,
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let lang = lang_of(&options);
    let text = string_arg(&text, "text", lang)?;
    let options: ApplyOptions = from_js(options, "options", lang)?;
    let host = JsHost::new(host);
    match block_diff::apply_block_diff(&text, &host, &options).await {
        Ok(report) => to_js(&report),
        Err(e) => Err(error_to_js(&e)),
    }
}

#[wasm_bindgen(js_name = splitBlocks)]
pub fn split_blocks(markdown: JsValue) -> Result<JsValue, JsValue> {
    let markdown = string_arg(&markdown, "markdown", crate::Lang::En)?;
    to_js(&crate::markdown::split_blocks(&markdown))
}
