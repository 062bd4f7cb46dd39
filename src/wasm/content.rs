//! Exports of slice and the content tools.

use serde::Deserialize;
use wasm_bindgen::prelude::*;

use super::convert::{error_to_js, from_js, lang_of, to_js};
use super::host::JsHost;
use crate::content::{self, ContentOptions};
use crate::siyuan::ChildBlock;
use crate::slice::{self, SliceOptions};
use crate::{Error, Lang};

fn result<T: serde::Serialize>(r: crate::Result<T>) -> Result<JsValue, JsValue> {
    match r {
        Ok(v) => to_js(&v),
        Err(e) => Err(error_to_js(&e)),
    }
}

/// A required argument object (not optional like options).
fn required<T: for<'de> Deserialize<'de>>(value: JsValue, name: &str, lang: Lang) -> Result<T, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Err(error_to_js(&Error::invalid_argument(lang, name, "an object")));
    }
    serde_wasm_bindgen::from_value(value).map_err(|e| {
        let mut err = Error::invalid_argument(lang, name, "an object of the documented shape");
        err.message.push_str(&format!(" ({e})"));
        error_to_js(&err)
    })
}

/// Children given as block objects or as plain ids.
#[derive(Deserialize)]
#[serde(untagged)]
enum Children {
    Blocks(Vec<ChildBlock>),
    Ids(Vec<String>),
}

#[wasm_bindgen(js_name = evaluateSlice)]
pub fn evaluate_slice(children: JsValue, slice_text: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let lang = lang_of(&options);
    let children: Children = required(children, "children", lang)?;
    let slice_text = super::convert::string_arg(&slice_text, "slice", lang)?;
    let options: SliceOptions = from_js(options, "options", lang)?;
    match children {
        Children::Blocks(list) => result(slice::evaluate_slice(&list, &slice_text, &options)),
        Children::Ids(list) => result(slice::evaluate_slice(&list, &slice_text, &options)),
    }
}

#[wasm_bindgen(js_name = renderBlockContent)]
pub fn render_block_content(source: JsValue, args: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let lang = lang_of(&options);
    let source = required(source, "source", lang)?;
    let args = required(args, "args", lang)?;
    let options: ContentOptions = from_js(options, "options", lang)?;
    result(content::render_block_content(&source, &args, &options))
}

#[wasm_bindgen(js_name = getBlockContent)]
pub async fn get_block_content(args: JsValue, host: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let lang = lang_of(&options);
    let args = required(args, "args", lang)?;
    let options: ContentOptions = from_js(options, "options", lang)?;
    result(content::get_block_content(&args, &JsHost::new(host), &options).await)
}

#[wasm_bindgen(js_name = getBlockInfo)]
pub async fn get_block_info(args: JsValue, host: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let lang = lang_of(&options);
    let args = required(args, "args", lang)?;
    let options: ContentOptions = from_js(options, "options", lang)?;
    result(content::get_block_info(&args, &JsHost::new(host), &options).await)
}

#[wasm_bindgen(js_name = formatBlockInfo)]
pub fn format_block_info(info: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let lang = lang_of(&options);
    let info = required(info, "info", lang)?;
    let options: ContentOptions = from_js(options, "options", lang)?;
    Ok(JsValue::from_str(&content::format_block_info(&info, &options)))
}

#[wasm_bindgen(js_name = appendContent)]
pub async fn append_content(args: JsValue, host: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let lang = lang_of(&options);
    let args = required(args, "args", lang)?;
    let options: ContentOptions = from_js(options, "options", lang)?;
    result(content::append_content(&args, &JsHost::new(host), &options).await)
}

#[wasm_bindgen(js_name = createNewDoc)]
pub async fn create_new_doc(args: JsValue, host: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
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
