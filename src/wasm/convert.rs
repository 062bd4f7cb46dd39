//! Value conversion at the boundary, through one shared serializer.

use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::{Error, Lang};

/// Maps become plain objects, `None` fields are omitted, integers are JS
/// numbers (results never hold u64).
const SERIALIZER: serde_wasm_bindgen::Serializer = serde_wasm_bindgen::Serializer::json_compatible();

/// Serialises a result; a failure here is an editkit bug.
pub fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value.serialize(&SERIALIZER).map_err(|e| internal(&e.to_string()))
}

/// Deserialises an argument; `undefined`/`null` give the default.
pub fn from_js<T: DeserializeOwned + Default>(value: JsValue, name: &str, lang: Lang) -> Result<T, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(T::default());
    }
    serde_wasm_bindgen::from_value(value).map_err(|e| {
        let mut err = Error::invalid_argument(lang, name, "an object of the documented shape");
        err.message.push_str(&format!(" ({e})"));
        error_to_js(&err)
    })
}

/// A required string argument.
pub fn string_arg(value: &JsValue, name: &str, lang: Lang) -> Result<String, JsValue> {
    value.as_string().ok_or_else(|| error_to_js(&Error::invalid_argument(lang, name, "a string")))
}

/// The `lang` of an options object, for errors raised before the options
/// are parsed in full.
pub fn lang_of(options: &JsValue) -> Lang {
    js_sys::Reflect::get(options, &JsValue::from_str("lang"))
        .ok()
        .and_then(|v| v.as_string())
        .and_then(|s| Lang::parse(&s))
        .unwrap_or_default()
}

/// An editkit error as a plain JS object (`{ code, message, ...details }`).
pub fn error_to_js(error: &Error) -> JsValue {
    error.serialize(&SERIALIZER).unwrap_or_else(|_| JsValue::from_str(&error.message))
}

fn internal(detail: &str) -> JsValue {
    error_to_js(&Error::new(crate::ErrorCode::InternalError, format!("editkit could not encode its result: {detail}")))
}
