//! Exports of the patch planner. The TS layer reads the files a patch
//! names (`patchPaths`), passes their texts as one JSON object (path →
//! text; an absent path does not exist), and writes what the plan says.

use wasm_bindgen::prelude::*;

use super::convert::{from_js, lang_of, required, result, string_arg};
use crate::patch::{self, Patch, PatchOptions};
use crate::text::StableMap;
use crate::{Error, Lang};

/// The format of a patch text: `codex` or `unified`.
fn parsed(text: &str, format: &str, lang: Lang) -> Result<Patch, Error> {
    match format {
        "unified" => patch::parse_unified_diff(text, lang),
        _ => patch::parse_patch(text, lang),
    }
}

#[wasm_bindgen(js_name = patchPaths)]
pub fn patch_paths(text: JsValue, format: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let lang = lang_of(&options);
    let text = string_arg(&text, "patch", lang)?;
    let format = string_arg(&format, "format", lang)?;
    result(parsed(&text, &format, lang).map(|p| p.paths()))
}

#[wasm_bindgen(js_name = planPatch)]
pub fn plan_patch(
    files: JsValue,
    text: JsValue,
    format: JsValue,
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let lang = lang_of(&options);
    let files: StableMap<String, String> = required(files, "files", lang)?;
    let text = string_arg(&text, "patch", lang)?;
    let format = string_arg(&format, "format", lang)?;
    let options: PatchOptions = from_js(options, "options", lang)?;
    result(match format.as_str() {
        "unified" => patch::plan_unified_diff(&files, &text, &options),
        _ => patch::plan_patch(&files, &text, &options),
    })
}
