//! Value conversion at the boundary.
//!
//! Texts (file contents, diffs, searches) cross as JS strings. Every other
//! value crosses as **JSON text**: the TS layer `JSON.stringify`s options
//! and host answers and `JSON.parse`s results and errors. One parse on each
//! side is far cheaper than building objects field by field across the
//! boundary, and it leaves one conversion path to get right.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;

use crate::{Error, ErrorCode, Lang};

/// A result as JSON text; a failure here is an editkit bug (serde_json
/// fails only on a map key that is not a string or number, or when a
/// `Serialize` impl reports an error).
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    serde_json::to_string(value)
        .map(|s| JsValue::from_str(&s))
        .map_err(|e| {
            error_to_js(&Error::new(
                ErrorCode::InternalError,
                format!("editkit could not encode its result: {e}"),
            ))
        })
}

/// An argument object from its JSON text; `undefined`/`null` give the
/// default.
pub fn from_js<T: DeserializeOwned + Default>(
    value: JsValue,
    name: &str,
    lang: Lang,
) -> Result<T, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(T::default());
    }
    parse(&value, name, lang)
}

/// A required argument object from its JSON text.
pub fn required<T: DeserializeOwned>(value: JsValue, name: &str, lang: Lang) -> Result<T, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Err(error_to_js(&Error::invalid_argument(
            lang,
            name,
            lang.pick("an object", "一个对象"),
        )));
    }
    parse(&value, name, lang)
}

fn parse<T: DeserializeOwned>(value: &JsValue, name: &str, lang: Lang) -> Result<T, JsValue> {
    let Some(text) = value.as_string() else {
        return Err(error_to_js(&Error::invalid_argument(
            lang,
            name,
            lang.pick(
                "JSON text (the TS layer encodes objects)",
                "JSON 文本（由 TS 层编码对象）",
            ),
        )));
    };
    serde_json::from_str(&text).map_err(|e| {
        let expected = lang.pick(
            "an object of the documented shape",
            "符合文档所述结构的对象",
        );
        let mut err = Error::invalid_argument(lang, name, expected);
        err.message.push_str(&format!(" ({})", json_error_text(&e)));
        error_to_js(&err)
    })
}

/// A required string argument.
pub fn string_arg(value: &JsValue, name: &str, lang: Lang) -> Result<String, JsValue> {
    value.as_string().ok_or_else(|| {
        let expected = lang.pick("a string", "字符串");
        error_to_js(&Error::invalid_argument(lang, name, expected))
    })
}

/// A content argument: its text, and the index of it kept while the same
/// text keeps coming (lines, fold hashes, words: see
/// [`crate::matcher::ContentIndex`]).
pub struct ContentArg {
    pub text: String,
    pub index: crate::matcher::ContentIndex,
}

thread_local! {
    /// The last content string a matcher call was given, with its UTF-8
    /// copy and its index. An agent edits one file several times, and the
    /// file's text is most of what crosses into wasm: given the same string
    /// again (`===`, which V8 answers by identity, or by comparing two flat
    /// strings), the copy and what was derived from it are reused instead
    /// of being built anew. One slot: what is held is one file's text (the
    /// JS string kept alive, its UTF-8 copy and index in wasm memory) until
    /// a call with another file replaces it.
    static LAST_CONTENT: std::cell::RefCell<Option<(JsValue, std::rc::Rc<ContentArg>)>> =
        const { std::cell::RefCell::new(None) };
}

/// A `content` argument as text, crossing into wasm only when it differs
/// from the previous call's (see [`LAST_CONTENT`]).
pub fn content_arg(value: &JsValue, lang: Lang) -> Result<std::rc::Rc<ContentArg>, JsValue> {
    let cached = LAST_CONTENT.with(|last| {
        last.borrow()
            .as_ref()
            .filter(|(js, _)| js == value)
            .map(|(_, arg)| arg.clone())
    });
    if let Some(arg) = cached {
        return Ok(arg);
    }
    let arg = std::rc::Rc::new(ContentArg {
        text: string_arg(value, "content", lang)?,
        index: crate::matcher::ContentIndex::default(),
    });
    LAST_CONTENT.with(|last| *last.borrow_mut() = Some((value.clone(), arg.clone())));
    Ok(arg)
}

/// The `lang` of an options object's JSON text, for errors raised before
/// the options are parsed in full (malformed options give English).
pub fn lang_of(options: &JsValue) -> Lang {
    #[derive(Deserialize)]
    struct OnlyLang {
        lang: Option<String>,
    }
    options
        .as_string()
        .and_then(|t| serde_json::from_str::<OnlyLang>(&t).ok())
        .and_then(|o| o.lang)
        .and_then(|s| Lang::parse(&s))
        .unwrap_or_default()
}

/// An editkit error as JSON text (`{ code, message, ...details }`), thrown
/// to the TS layer, which rethrows it as an `EditkitError`.
pub fn error_to_js(error: &Error) -> JsValue {
    JsValue::from_str(&serde_json::to_string(error).unwrap_or_else(|_| {
        // The message as a JSON string (the writer escapes it; Rust's
        // `{:?}` would not be JSON for every character).
        let message = serde_json::to_string(&error.message)
            .unwrap_or_else(|_| "\"editkit could not encode an error\"".into());
        format!("{{\"code\":\"INTERNAL_ERROR\",\"message\":{message}}}")
    }))
}

/// A core result as the binding's return value: the value's JSON, or the
/// error thrown as JSON.
pub fn result<T: serde::Serialize>(r: crate::Result<T>) -> Result<JsValue, JsValue> {
    match r {
        Ok(v) => to_js(&v),
        Err(e) => Err(error_to_js(&e)),
    }
}

/// The message of a thrown JS value (an `Error`'s message, else its
/// string).
pub fn describe(value: &JsValue) -> String {
    js_sys::Reflect::get(value, &JsValue::from_str("message"))
        .ok()
        .and_then(|m| m.as_string())
        .or_else(|| value.as_string())
        .unwrap_or_else(|| "a non-Error value was thrown".to_string())
}

/// A serde_json error without its " at line 1 column N": the position is in
/// the JSON text the TS layer wrote, not in anything the caller wrote.
pub fn json_error_text(error: &serde_json::Error) -> String {
    let text = error.to_string();
    let position = format!(" at line {} column {}", error.line(), error.column());
    match text.strip_suffix(&position) {
        Some(plain) => plain.to_string(),
        None => text,
    }
}
