//! Exports of the file-edit planner. The session's clock and id prefix come
//! from the JS layer (`now()` is passed into every call that needs time).

use wasm_bindgen::prelude::*;

use super::convert::{from_js, lang_of, result, to_js};
use crate::planner::{self, FileEditSession};

/// The session state; the TS class `FileEditSession` wraps it.
#[wasm_bindgen(js_name = FileEditSessionCore)]
pub struct FileEditSessionCore {
    inner: FileEditSession,
}

#[wasm_bindgen(js_class = FileEditSessionCore)]
impl FileEditSessionCore {
    #[wasm_bindgen(constructor)]
    pub fn new(options: JsValue) -> Result<FileEditSessionCore, JsValue> {
        let lang = lang_of(&options);
        let options: planner::FileEditSessionOptions = from_js(options, "options", lang)?;
        Ok(FileEditSessionCore {
            inner: FileEditSession::new(options),
        })
    }

    #[wasm_bindgen(js_name = prepareRangeEdit)]
    pub fn prepare_range_edit(
        &mut self,
        options: JsValue,
        now_ms: f64,
    ) -> Result<JsValue, JsValue> {
        let lang = lang_of(&options);
        result(
            self.inner
                .prepare_range_edit(from_js(options, "options", lang)?, now_ms),
        )
    }

    #[wasm_bindgen(js_name = prepareAppend)]
    pub fn prepare_append(&mut self, options: JsValue, now_ms: f64) -> Result<JsValue, JsValue> {
        let lang = lang_of(&options);
        result(
            self.inner
                .prepare_append(from_js(options, "options", lang)?, now_ms),
        )
    }

    #[wasm_bindgen(js_name = prepareInsertAfter)]
    pub fn prepare_insert_after(
        &mut self,
        options: JsValue,
        now_ms: f64,
    ) -> Result<JsValue, JsValue> {
        let lang = lang_of(&options);
        result(
            self.inner
                .prepare_insert_after(from_js(options, "options", lang)?, now_ms),
        )
    }

    #[wasm_bindgen(js_name = prepareInsertBefore)]
    pub fn prepare_insert_before(
        &mut self,
        options: JsValue,
        now_ms: f64,
    ) -> Result<JsValue, JsValue> {
        let lang = lang_of(&options);
        result(
            self.inner
                .prepare_insert_before(from_js(options, "options", lang)?, now_ms),
        )
    }

    #[wasm_bindgen(js_name = prepareBlockReplace)]
    pub fn prepare_block_replace(
        &mut self,
        options: JsValue,
        now_ms: f64,
    ) -> Result<JsValue, JsValue> {
        let lang = lang_of(&options);
        result(
            self.inner
                .prepare_block_replace(from_js(options, "options", lang)?, now_ms),
        )
    }

    pub fn apply(&mut self, options: JsValue, now_ms: f64) -> Result<JsValue, JsValue> {
        let lang = lang_of(&options);
        result(self.inner.apply(from_js(options, "options", lang)?, now_ms))
    }

    pub fn consume(&mut self, hunk_id: JsValue) -> Result<JsValue, JsValue> {
        let id = super::convert::string_arg(&hunk_id, "hunkId", crate::Lang::En)?;
        to_js(&self.inner.consume(&id))
    }

    #[wasm_bindgen(js_name = applyOrder)]
    pub fn apply_order(&self, hunk_ids: JsValue) -> Result<JsValue, JsValue> {
        let ids: Vec<String> = from_js(hunk_ids, "hunkIds", crate::Lang::En)?;
        to_js(&self.inner.apply_order(&ids))
    }

    pub fn pending(&mut self, path: Option<String>, now_ms: f64) -> Result<JsValue, JsValue> {
        to_js(&self.inner.pending(path.as_deref(), now_ms))
    }

    #[wasm_bindgen(js_name = ttlMs)]
    pub fn ttl_ms(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.ttl_ms())
    }
}

#[wasm_bindgen(js_name = idPrefixFromNow)]
pub fn id_prefix_from_now(now_ms: f64) -> Result<JsValue, JsValue> {
    to_js(&planner::id_prefix_from_now(now_ms))
}

#[wasm_bindgen(js_name = checkOverwrite)]
pub fn check_overwrite(options: JsValue) -> Result<JsValue, JsValue> {
    let lang = lang_of(&options);
    result(planner::check_overwrite(from_js(options, "options", lang)?))
}

#[wasm_bindgen(js_name = checkNewFile)]
pub fn check_new_file(options: JsValue) -> Result<JsValue, JsValue> {
    let lang = lang_of(&options);
    result(planner::check_new_file(from_js(options, "options", lang)?))
}

#[wasm_bindgen(js_name = formatFileView)]
pub fn format_file_view(options: JsValue) -> Result<JsValue, JsValue> {
    let lang = lang_of(&options);
    result(planner::format_file_view(from_js(
        options, "options", lang,
    )?))
}
