//! Exports of the matcher. The corrector is a JS function
//! `(request) => Promise<string>` the TS layer passes separately from the
//! options.

use js_sys::{Function, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use super::convert::{
    content_arg, error_to_js, from_js, lang_of, required, result, string_arg, to_js,
};
use crate::host::{Capability, HostError};
use crate::matcher::{
    self, CorrectionOptions, CorrectionRequest, Corrector, EditSpec, MatchOptions,
    SearchReplaceOptions, SnippetOptions,
};
use crate::Error;

#[wasm_bindgen(js_name = findMatch)]
pub fn find_match(
    content: JsValue,
    search: JsValue,
    options: JsValue,
    exact_absent: JsValue,
) -> Result<JsValue, JsValue> {
    let lang = lang_of(&options);
    let content = content_arg(&content, lang)?;
    let search = string_arg(&search, "search", lang)?;
    let options: MatchOptions = from_js(options, "options", lang)?;
    result(matcher::find_match_indexed(
        &content.text,
        Some(&content.index),
        &search,
        &options,
        // `true` only from the TS layer's own `indexOf` (exact-fast.ts).
        exact_absent.as_bool() == Some(true),
    ))
}

#[wasm_bindgen(js_name = replaceText)]
pub fn replace_text(
    content: JsValue,
    search: JsValue,
    replace: JsValue,
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let lang = lang_of(&options);
    let content = content_arg(&content, lang)?;
    let search = string_arg(&search, "search", lang)?;
    let replace = string_arg(&replace, "replace", lang)?;
    let options: MatchOptions = from_js(options, "options", lang)?;
    result(matcher::replace_text_indexed(
        &content.text,
        Some(&content.index),
        &search,
        &replace,
        &options,
    ))
}

#[wasm_bindgen(js_name = planEditSnippet)]
pub fn plan_edit_snippet(
    content: JsValue,
    snippet: JsValue,
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let lang = lang_of(&options);
    let content = content_arg(&content, lang)?;
    let snippet = string_arg(&snippet, "snippet", lang)?;
    let options: SnippetOptions = from_js(options, "options", lang)?;
    result(matcher::plan_edit_snippet(
        &content.text,
        &snippet,
        &options,
    ))
}

#[wasm_bindgen(js_name = applySearchReplace)]
pub fn apply_search_replace(
    content: JsValue,
    text: JsValue,
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let lang = lang_of(&options);
    let content = content_arg(&content, lang)?;
    let text = string_arg(&text, "text", lang)?;
    let options: SearchReplaceOptions = from_js(options, "options", lang)?;
    result(matcher::apply_search_replace(
        &content.text,
        &text,
        &options,
    ))
}

#[wasm_bindgen(js_name = applyEdits)]
pub fn apply_edits(
    content: JsValue,
    edits: JsValue,
    options: JsValue,
    fields: JsValue,
) -> Result<JsValue, JsValue> {
    let lang = lang_of(&options);
    let content = content_arg(&content, lang)?;
    // Each edit's field names (the TS layer reads them off the objects) are
    // checked before the edits are read, so a missing or misspelt
    // `newString` is refused by name with the accepted ones (SPEC §6.8).
    let fields: Vec<Vec<String>> = from_js(fields, "fields", lang)?;
    for (i, names) in fields.iter().enumerate() {
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        matcher::check_edit_fields(i + 1, &names, lang).map_err(|e| error_to_js(&e))?;
    }
    let edits: Vec<EditSpec> = required(edits, "edits", lang)?;
    let options: SearchReplaceOptions = from_js(options, "options", lang)?;
    result(matcher::apply_edits(&content.text, &edits, &options))
}

/// A JS `corrector(request) → string | Promise<string>`.
struct JsCorrector {
    f: Function,
}

impl Corrector for JsCorrector {
    async fn correct(&self, request: &CorrectionRequest) -> Result<String, HostError> {
        let fail = |m: String| HostError::new(Capability::Corrector, m);
        let arg = to_js(request).map_err(|_| fail("could not encode the request".into()))?;
        // A rejection marked `timeout: true` (timeoutMs passed) stays a
        // timeout: the call then fails with HOST_TIMEOUT.
        let thrown = |e: JsValue| super::host::failure(Capability::Corrector, &e);
        let value = self.f.call1(&JsValue::NULL, &arg).map_err(thrown)?;
        let value = if value.has_type::<Promise>() {
            JsFuture::from(value.unchecked_into::<Promise>())
                .await
                .map_err(thrown)?
        } else {
            value
        };
        value
            .as_string()
            .ok_or_else(|| fail("must resolve to the model's answer as a string".into()))
    }
}

#[wasm_bindgen(js_name = replaceTextWithCorrection)]
pub async fn replace_text_with_correction(
    content: JsValue,
    search: JsValue,
    replace: JsValue,
    options: JsValue,
    corrector: JsValue,
) -> Result<JsValue, JsValue> {
    let lang = lang_of(&options);
    let content = content_arg(&content, lang)?;
    let search = string_arg(&search, "search", lang)?;
    let replace = string_arg(&replace, "replace", lang)?;
    let options: CorrectionOptions = from_js(options, "options", lang)?;
    let Some(f) = corrector.dyn_ref::<Function>().cloned() else {
        return Err(error_to_js(&Error::invalid_argument(
            lang,
            "corrector",
            lang.pick(
                "a function (request) => Promise<string>",
                "函数 (request) => Promise<string>",
            ),
        )));
    };
    result(
        matcher::replace_text_with_correction(
            &content.text,
            &search,
            &replace,
            &options,
            &JsCorrector { f },
        )
        .await,
    )
}

#[wasm_bindgen(js_name = stats)]
pub fn stats() -> Result<JsValue, JsValue> {
    to_js(&matcher::stats())
}

#[wasm_bindgen(js_name = resetStats)]
pub fn reset_stats() -> Result<JsValue, JsValue> {
    matcher::reset_stats();
    to_js(&())
}
