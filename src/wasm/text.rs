//! Text utilities exported for hosts: the same unified diff the core puts
//! in its reports.

use serde::Deserialize;
use wasm_bindgen::prelude::*;

use super::convert::{string_arg, to_js};
use crate::text::{unified_diff as diff, UnifiedDiffOptions};
use crate::Lang;

#[derive(Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct DiffOptions {
    old_name: Option<String>,
    new_name: Option<String>,
    context: Option<u32>,
}

/// `unifiedDiff(oldText, newText, { oldName, newName, context })` → string
/// (`""` when equal).
#[wasm_bindgen(js_name = unifiedDiff)]
pub fn unified_diff(
    old_text: JsValue,
    new_text: JsValue,
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let old_text = string_arg(&old_text, "oldText", Lang::En)?;
    let new_text = string_arg(&new_text, "newText", Lang::En)?;
    let o: DiffOptions = super::convert::from_js(options, "options", Lang::En)?;
    let options = UnifiedDiffOptions {
        old_name: o.old_name.as_deref().unwrap_or("a"),
        new_name: o.new_name.as_deref().unwrap_or("b"),
        context: o.context.map_or(3, |c| c.min(1000) as usize),
    };
    to_js(&diff(&old_text, &new_text, options))
}
