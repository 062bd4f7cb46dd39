//! Self-correction (SPEC §6.6, seed 002): when the ladder fails, ask a host
//! LLM once for a corrected search, and re-run the ladder with it.
//!
//! The flow of [`replace_text_with_correction`]:
//! 1. [`replace_text`] as usual; success, or a refusal that a better search
//!    cannot fix (`ALREADY_APPLIED`, `NO_CHANGE`, `EMPTY_SEARCH`, …), is
//!    returned as is.
//! 2. On `NOT_FOUND`, `AMBIGUOUS` or `MATCH_COUNT_MISMATCH`, a
//!    [`CorrectionRequest`] (system and user prompt in our own words, plus
//!    the raw fields) goes to the host's [`Corrector`], unless the answer
//!    is cached (LRU of [`CORRECTION_CACHE_SIZE`] entries, keyed by a
//!    128-bit hash of content, search, replacement, instruction and error).
//! 3. The answer is parsed tolerantly: the first JSON object in it that has
//!    `search` or `noChangesRequired`, wherever it sits (code fences, prose
//!    around it, `True`/`False` spelled Python-style).
//! 4. `noChangesRequired` → `CORRECTOR_NO_CHANGE` (never an edit). Else the
//!    corrected edit runs once more with the exact and safe strategies
//!    only; if it fails too, the *original* error is returned.
//!
//! A callback that throws or rejects is `HOST_ERROR` (capability
//! `corrector`). No cache borrow is held across the `await`.

#![allow(async_fn_in_trait)] // single-threaded (wasm) hosts: no Send bound wanted.

use std::cell::RefCell;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::messages;
use super::normalize::Fnv;
use super::stats;
use super::types::{MatchMode, MatchOptions, ReplaceResult};
use super::{replace_text, Error};
use crate::error::ErrorCode;
use crate::host::{Capability, HostError};

/// Entries kept by the correction cache.
pub const CORRECTION_CACHE_SIZE: usize = 50;

/// The host's LLM: answers a correction request with text that should hold
/// one JSON object `{search, replace, noChangesRequired, explanation}`.
pub trait Corrector {
    /// Asks the model to correct a failed edit; answers its raw reply (the
    /// JSON object above, possibly wrapped in prose), or the host's failure.
    async fn correct(&self, request: &CorrectionRequest) -> Result<String, HostError>;
}

/// What the corrector is asked: a ready prompt (`system`, `user`) and the
/// same facts as fields, for hosts that build their own prompt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CorrectionRequest {
    /// The system prompt: what a correction is and the reply's format.
    pub system: String,
    /// The user prompt: the instruction, the failed edit, the failure report
    /// and the content.
    pub user: String,
    /// What the edit was meant to do, as the caller said it.
    pub instruction: String,
    /// The search that failed.
    pub search: String,
    /// Its replacement.
    pub replace: String,
    /// The failure report of the first attempt.
    pub error: String,
    /// The content the search failed on.
    pub content: String,
}

/// Options of [`replace_text_with_correction`]: the replace options plus
/// the edit's purpose in words.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CorrectionOptions {
    /// Why the edit is made (seed 002's `instruction`); helps the corrector
    /// find the intended place.
    pub instruction: String,
    /// How the corrected edit (and the first try) is matched.
    #[serde(flatten)]
    pub replace: MatchOptions,
}

/// A parsed corrector answer.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Correction {
    search: String,
    replace: Option<String>,
    no_changes_required: bool,
    explanation: String,
}

thread_local! {
    /// Most recently used last.
    static CACHE: RefCell<Vec<(u128, Correction)>> = const { RefCell::new(Vec::new()) };
}

fn cache_get(key: u128) -> Option<Correction> {
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        let i = c.iter().position(|(k, _)| *k == key)?;
        let entry = c.remove(i);
        let found = entry.1.clone();
        c.push(entry);
        Some(found)
    })
}

fn cache_put(key: u128, value: Correction) {
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        c.retain(|(k, _)| *k != key);
        if c.len() >= CORRECTION_CACHE_SIZE {
            c.remove(0);
        }
        c.push((key, value));
    });
}

/// Empties the correction cache (tests, or a host that changed models).
pub fn clear_correction_cache() {
    CACHE.with(|c| c.borrow_mut().clear());
}

/// 128-bit key of all inputs (two FNV streams, every part length-prefixed
/// so `("ab","c")` and `("a","bc")` differ).
fn cache_key(parts: &[&str]) -> u128 {
    let mut a = Fnv::new();
    let mut b = Fnv::new();
    b.bytes(b"editkit-corrector");
    for p in parts {
        let len = (p.len() as u64).to_le_bytes();
        a.bytes(&len);
        a.bytes(p.as_bytes());
        b.bytes(p.as_bytes());
        b.bytes(&len);
    }
    (u128::from(a.finish()) << 64) | u128::from(b.finish())
}

/// [`replace_text`], and on a failure a better search could fix, one round
/// of correction through `corrector` (see the module docs).
pub async fn replace_text_with_correction<C: Corrector + ?Sized>(
    content: &str,
    search: &str,
    replace: &str,
    options: &CorrectionOptions,
    corrector: &C,
) -> Result<ReplaceResult, Error> {
    let original = match replace_text(content, search, replace, &options.replace) {
        Ok(done) => return Ok(done),
        Err(e) => e,
    };
    if !matches!(
        original.code,
        ErrorCode::NotFound | ErrorCode::Ambiguous | ErrorCode::MatchCountMismatch
    ) {
        return Err(original);
    }
    let lang = options.replace.lang;
    let key = cache_key(&[
        content,
        search,
        replace,
        &options.instruction,
        &original.message,
    ]);
    let correction = match cache_get(key) {
        Some(hit) => {
            stats::update(|s| s.corrections.cache_hits += 1);
            hit
        }
        None => {
            let fresh = ask(corrector, content, search, replace, options, &original).await?;
            cache_put(key, fresh.clone());
            fresh
        }
    };
    if correction.no_changes_required {
        stats::update(|s| s.corrections.no_change += 1);
        return Err(Error::new(
            ErrorCode::CorrectorNoChange,
            messages::corrector_no_change(lang, &correction.explanation),
        )
        .with_errors(vec![original]));
    }
    let retry = MatchOptions {
        mode: options.replace.mode.min(MatchMode::Safe),
        ..options.replace.clone()
    };
    let new_replace = correction.replace.as_deref().unwrap_or(replace);
    match replace_text(content, &correction.search, new_replace, &retry) {
        Ok(done) => {
            stats::update(|s| s.corrections.success += 1);
            Ok(done)
        }
        Err(_) => {
            stats::update(|s| s.corrections.failure += 1);
            Err(original)
        }
    }
}

/// One request to `corrector` for an edit that failed with `original`:
/// the parsed correction, or the error that ends the call (`HOST_ERROR`
/// wrapping `original` when the callback fails, `original` itself when the
/// answer holds no correction).
async fn ask<C: Corrector + ?Sized>(
    corrector: &C,
    content: &str,
    search: &str,
    replace: &str,
    options: &CorrectionOptions,
    original: &Error,
) -> Result<Correction, Error> {
    let request = CorrectionRequest {
        system: messages::corrector_system().to_string(),
        user: messages::corrector_user(
            &options.instruction,
            search,
            replace,
            &original.message,
            content,
        ),
        instruction: options.instruction.clone(),
        search: search.to_string(),
        replace: replace.to_string(),
        error: original.message.clone(),
        content: content.to_string(),
    };
    let answer = match corrector.correct(&request).await {
        Ok(a) => a,
        Err(h) => {
            stats::update(|s| s.corrections.host_error += 1);
            // SPEC §3.7 rule 11: a corrector that never answered is a
            // timeout, not a failure of the host.
            let code = if h.timeout {
                ErrorCode::HostTimeout
            } else {
                ErrorCode::HostError
            };
            return Err(Error::new(
                code,
                messages::corrector_host_error(options.replace.lang, &h.message),
            )
            .with_name(Capability::Corrector.js_name())
            .with_errors(vec![original.clone()]));
        }
    };
    parse_answer(&answer).ok_or_else(|| {
        stats::update(|s| s.corrections.invalid_answer += 1);
        original.clone()
    })
}

/// The first JSON object in `answer` that looks like a correction.
fn parse_answer(answer: &str) -> Option<Correction> {
    let fields = find_object(answer, &["search", "noChangesRequired"])?;
    let get = |name: &str| fields.get(name);
    let no_changes_required = matches!(get("noChangesRequired"), Some(Value::Bool(true)));
    let search = match get("search") {
        Some(Value::String(s)) => s.clone(),
        _ if no_changes_required => String::new(),
        _ => return None,
    };
    if search.is_empty() && !no_changes_required {
        return None;
    }
    let replace = match get("replace") {
        Some(Value::String(s)) => Some(s.clone()),
        _ => None,
    };
    let explanation = match get("explanation") {
        Some(Value::String(s)) => s.clone(),
        _ => String::new(),
    };
    Some(Correction {
        search,
        replace,
        no_changes_required,
        explanation,
    })
}

/// How many `{` of an answer are tried as the start of its JSON object:
/// the work stays bounded on a long answer full of braces.
const MAX_ATTEMPTS: usize = 64;

/// The first JSON object in `text` (at any `{`) that parses and has one of
/// `keys`: an LLM often wraps its JSON in prose or a code fence, and writes
/// Python's `True`/`False`/`None` or a trailing comma ([`as_json`]).
fn find_object(text: &str, keys: &[&str]) -> Option<serde_json::Map<String, Value>> {
    let text = as_json(text);
    text.match_indices('{')
        .take(MAX_ATTEMPTS)
        .find_map(|(at, _)| {
            let mut values = serde_json::Deserializer::from_str(&text[at..]).into_iter::<Value>();
            match values.next() {
                Some(Ok(Value::Object(fields))) if keys.iter().any(|k| fields.contains_key(*k)) => {
                    Some(fields)
                }
                _ => None,
            }
        })
}

/// An LLM's almost-JSON as JSON: outside strings, `True`, `False` and
/// `None` become `true`, `false` and `null`, and a comma before `}` or `]`
/// is dropped.
fn as_json(text: &str) -> std::borrow::Cow<'_, str> {
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut escaped = false;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if in_string {
            in_string = escaped || c != '"';
            escaped = !escaped && c == '\\';
        } else if c == '"' {
            in_string = true;
        } else if c == ',' && rest[1..].trim_start().starts_with(['}', ']']) {
            rest = &rest[1..];
            continue;
        } else if let Some((word, json)) = [("True", "true"), ("False", "false"), ("None", "null")]
            .into_iter()
            .find(|(word, _)| rest.starts_with(word))
        {
            let before = out.chars().last().is_none_or(|p| !p.is_alphanumeric());
            let after = rest[word.len()..]
                .chars()
                .next()
                .is_none_or(|n| !n.is_alphanumeric());
            if before && after {
                out.push_str(json);
                rest = &rest[word.len()..];
                continue;
            }
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    if out == text {
        std::borrow::Cow::Borrowed(text)
    } else {
        std::borrow::Cow::Owned(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn almost_json_is_read_as_json() {
        assert_eq!(
            as_json(r#"{"a": True, "b": [None, False,], "c": "True, }",}"#),
            r#"{"a": true, "b": [null, false], "c": "True, }"}"#
        );
        assert_eq!(
            as_json(r#"{"Trueish": "x\"True"}"#),
            r#"{"Trueish": "x\"True"}"#
        );
    }

    #[test]
    fn answers_are_found_inside_fences_and_prose() {
        let a = "Sure! Here it is:\n```json\n{\"search\": \"let x = 1;\\n\", \"replace\": \"let x = 2;\", \"noChangesRequired\": false, \"explanation\": \"indent \\u00e9\\ud83d\\ude00\"}\n```\nDone {not json}";
        let c = parse_answer(a).unwrap();
        assert_eq!(c.search, "let x = 1;\n");
        assert_eq!(c.replace.as_deref(), Some("let x = 2;"));
        assert!(!c.no_changes_required);
        assert_eq!(c.explanation, "indent é😀");
        let c = parse_answer("{\"noChangesRequired\": True, \"explanation\": \"already there\",}")
            .unwrap();
        assert!(c.no_changes_required);
        assert_eq!(parse_answer("no json here"), None);
        assert_eq!(parse_answer("{\"other\": 1}"), None);
        assert_eq!(parse_answer("{\"search\": \"\"}"), None);
        assert_eq!(parse_answer(&"{".repeat(10_000)), None);
    }

    #[test]
    fn the_cache_keeps_the_most_recent_entries() {
        clear_correction_cache();
        let c = Correction {
            search: "s".into(),
            replace: None,
            no_changes_required: false,
            explanation: String::new(),
        };
        for k in 0..(CORRECTION_CACHE_SIZE as u128 + 5) {
            cache_put(k, c.clone());
        }
        assert_eq!(cache_get(0), None);
        assert!(cache_get(5).is_some());
        assert!(cache_get(CORRECTION_CACHE_SIZE as u128 + 4).is_some());
        assert_ne!(cache_key(&["ab", "c"]), cache_key(&["a", "bc"]));
        clear_correction_cache();
    }
}
