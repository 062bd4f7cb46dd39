//! A JS host object (`{ getBlocks, updateBlock, … }`) as a `SiyuanHost`.
//! The TS layer wraps the user's host so that every callback resolves to
//! the JSON text of its answer (see `convert.rs`); a throw or a rejection
//! becomes a `HostError` carrying the JS error's message (the TS layer keeps
//! the original error object and attaches it as `cause`).

use js_sys::{Array, Function, Promise, Reflect};
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use super::convert::{describe, json_error_text};
use crate::host::{Capability, HostError, HostResult, InsertAnchor, NewIds, SiyuanHost};
use crate::siyuan::{Block, BreadcrumbEntry, ChildBlock};
use serde_json::Value as Json;

pub struct JsHost {
    object: JsValue,
}

impl JsHost {
    pub fn new(object: JsValue) -> Self {
        JsHost { object }
    }

    fn function(&self, capability: Capability) -> Option<Function> {
        if !self.object.is_object() {
            return None;
        }
        Reflect::get(&self.object, &JsValue::from_str(capability.js_name()))
            .ok()?
            .dyn_into::<Function>()
            .ok()
    }

    async fn call(&self, capability: Capability, args: &[JsValue]) -> HostResult<JsValue> {
        let f = self
            .function(capability)
            .ok_or(HostError::missing(capability))?;
        let array: Array = args.iter().collect();
        let value = f
            .apply(&self.object, &array)
            .map_err(|e| failure(capability, &e))?;
        if value.has_type::<Promise>() {
            let promise: Promise = value.unchecked_into();
            JsFuture::from(promise)
                .await
                .map_err(|e| failure(capability, &e))
        } else {
            Ok(value)
        }
    }

    async fn call_parse<T: DeserializeOwned>(
        &self,
        capability: Capability,
        args: &[JsValue],
    ) -> HostResult<T> {
        let text = self.call_text(capability, args).await?;
        serde_json::from_str(&text).map_err(|e| wrong_shape(capability, &json_error_text(&e)))
    }

    /// The JSON text of the answer (`null` for anything but a string).
    async fn call_text(&self, capability: Capability, args: &[JsValue]) -> HostResult<String> {
        let value = self.call(capability, args).await?;
        Ok(value.as_string().unwrap_or_else(|| "null".to_string()))
    }

    /// New block ids from a write: a string, an array of strings, or
    /// nothing (the write created no block).
    async fn call_ids(&self, capability: Capability, args: &[JsValue]) -> HostResult<NewIds> {
        let text = self.call_text(capability, args).await?;
        let answer = serde_json::from_str::<Json>(&text)
            .map_err(|e| wrong_shape(capability, &json_error_text(&e)))?;
        new_ids(answer).ok_or_else(|| {
            wrong_shape(
                capability,
                &"expected a block id, a list of block ids, or null",
            )
        })
    }

    /// New block ids of each item of a batch write: a list with one entry
    /// per item, each what [`Self::call_ids`] reads.
    async fn call_batch_ids(
        &self,
        capability: Capability,
        items: Array,
        expected: usize,
    ) -> HostResult<Vec<NewIds>> {
        let text = self.call_text(capability, &[items.into()]).await?;
        let lists = match serde_json::from_str::<Json>(&text)
            .map_err(|e| wrong_shape(capability, &json_error_text(&e)))?
        {
            Json::Array(entries) if entries.len() == expected => {
                entries.into_iter().map(new_ids).collect::<Option<Vec<_>>>()
            }
            _ => None,
        };
        lists.ok_or_else(|| {
            wrong_shape(
                capability,
                &"expected a list with each item's new block ids",
            )
        })
    }

    /// The id a create call returns: a string, or an object with `id`.
    async fn call_id(&self, capability: Capability, args: &[JsValue]) -> HostResult<String> {
        let text = self.call_text(capability, args).await?;
        let id = match serde_json::from_str::<Json>(&text)
            .map_err(|e| wrong_shape(capability, &json_error_text(&e)))?
        {
            Json::String(id) => Some(id),
            Json::Object(mut entries) => match entries.remove("id") {
                Some(Json::String(id)) => Some(id),
                _ => None,
            },
            _ => None,
        };
        id.ok_or_else(|| {
            wrong_shape(
                capability,
                &"expected a document id, or an object with `id`",
            )
        })
    }
}

/// A write's new block ids: a string, an array of strings, or nothing.
fn new_ids(answer: Json) -> Option<NewIds> {
    match answer {
        Json::Null => Some(Vec::new()),
        Json::String(id) => Some(vec![id]),
        Json::Array(items) => items
            .into_iter()
            .map(|item| match item {
                Json::String(id) => Some(id),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

/// `{previousID | nextID | parentID: id}`.
fn anchor_object(anchor: &InsertAnchor) -> JsValue {
    let (key, id) = match anchor {
        InsertAnchor::After(id) => ("previousID", id),
        InsertAnchor::Before(id) => ("nextID", id),
        InsertAnchor::Parent(id) => ("parentID", id),
    };
    object(&[(key, id)])
}

/// `[{parentID, markdown}, …]`.
fn into_items(items: &[(String, String)]) -> Array {
    items
        .iter()
        .map(|(parent, markdown)| object(&[("parentID", parent), ("markdown", markdown)]))
        .collect()
}

/// A host answer that is not what the capability returns.
fn wrong_shape(capability: Capability, why: &dyn std::fmt::Display) -> HostError {
    HostError::new(
        capability,
        format!("returned data of the wrong shape ({why})"),
    )
}

/// `{ key: value, … }` with string values.
fn object(pairs: &[(&str, &str)]) -> JsValue {
    let o = js_sys::Object::new();
    for (k, v) in pairs {
        let _ = Reflect::set(&o, &JsValue::from_str(k), &JsValue::from_str(v));
    }
    o.into()
}

fn ids_to_js(ids: &[String]) -> JsValue {
    ids.iter()
        .map(|s| JsValue::from_str(s))
        .collect::<Array>()
        .into()
}

/// A thrown JS value as a `HostError`: the TS layer marks a callback that
/// did not settle within `timeoutMs` with `timeout: true`.
pub(super) fn failure(capability: Capability, value: &JsValue) -> HostError {
    let timed_out = Reflect::get(value, &JsValue::from_str("timeout"))
        .ok()
        .and_then(|t| t.as_bool())
        .unwrap_or(false);
    if timed_out {
        HostError::timed_out(capability, describe(value))
    } else {
        HostError::new(capability, describe(value))
    }
}

impl SiyuanHost for JsHost {
    fn has(&self, capability: Capability) -> bool {
        self.function(capability).is_some()
    }

    async fn get_blocks(&self, ids: &[String]) -> HostResult<Vec<Option<Block>>> {
        self.call_parse(Capability::GetBlocks, &[ids_to_js(ids)])
            .await
    }

    async fn get_child_blocks(&self, ids: &[String]) -> HostResult<Vec<Vec<ChildBlock>>> {
        self.call_parse(Capability::GetChildBlocks, &[ids_to_js(ids)])
            .await
    }

    async fn get_kramdown(&self, ids: &[String]) -> HostResult<Vec<Option<String>>> {
        self.call_parse(Capability::GetKramdown, &[ids_to_js(ids)])
            .await
    }

    async fn update_block(&self, id: &str, markdown: &str) -> HostResult<()> {
        self.call(
            Capability::UpdateBlock,
            &[JsValue::from_str(id), JsValue::from_str(markdown)],
        )
        .await
        .map(|_| ())
    }

    async fn delete_block(&self, id: &str) -> HostResult<()> {
        self.call(Capability::DeleteBlock, &[JsValue::from_str(id)])
            .await
            .map(|_| ())
    }

    async fn insert_block(&self, markdown: &str, anchor: &InsertAnchor) -> HostResult<NewIds> {
        self.call_ids(
            Capability::InsertBlock,
            &[JsValue::from_str(markdown), anchor_object(anchor)],
        )
        .await
    }

    async fn update_blocks(&self, updates: &[(String, String)]) -> HostResult<()> {
        let items: Array = updates
            .iter()
            .map(|(id, markdown)| object(&[("id", id), ("markdown", markdown)]))
            .collect();
        self.call(Capability::UpdateBlocks, &[items.into()])
            .await
            .map(|_| ())
    }

    async fn insert_blocks(&self, inserts: &[(String, InsertAnchor)]) -> HostResult<Vec<NewIds>> {
        let items: Array = inserts
            .iter()
            .map(|(markdown, anchor)| {
                let item = object(&[("markdown", markdown)]);
                let _ = Reflect::set(&item, &JsValue::from_str("anchor"), &anchor_object(anchor));
                item
            })
            .collect();
        self.call_batch_ids(Capability::InsertBlocks, items, inserts.len())
            .await
    }

    async fn prepend_blocks(&self, items: &[(String, String)]) -> HostResult<Vec<NewIds>> {
        self.call_batch_ids(Capability::PrependBlocks, into_items(items), items.len())
            .await
    }

    async fn append_blocks(&self, items: &[(String, String)]) -> HostResult<Vec<NewIds>> {
        self.call_batch_ids(Capability::AppendBlocks, into_items(items), items.len())
            .await
    }

    async fn prepend_block(&self, parent_id: &str, markdown: &str) -> HostResult<NewIds> {
        self.call_ids(
            Capability::PrependBlock,
            &[JsValue::from_str(parent_id), JsValue::from_str(markdown)],
        )
        .await
    }

    async fn append_block(&self, parent_id: &str, markdown: &str) -> HostResult<NewIds> {
        self.call_ids(
            Capability::AppendBlock,
            &[JsValue::from_str(parent_id), JsValue::from_str(markdown)],
        )
        .await
    }

    async fn get_breadcrumb(&self, ids: &[String]) -> HostResult<Vec<Vec<BreadcrumbEntry>>> {
        self.call_parse(Capability::GetBreadcrumb, &[ids_to_js(ids)])
            .await
    }

    async fn get_doc_headings(&self, doc_ids: &[String]) -> HostResult<Vec<Vec<Block>>> {
        self.call_parse(Capability::GetDocHeadings, &[ids_to_js(doc_ids)])
            .await
    }

    async fn create_doc(
        &self,
        notebook: &str,
        hpath: &str,
        parent_id: &str,
        markdown: &str,
    ) -> HostResult<String> {
        let request = object(&[
            ("notebook", notebook),
            ("path", hpath),
            ("parentID", parent_id),
            ("markdown", markdown),
        ]);
        self.call_id(Capability::CreateDoc, &[request]).await
    }

    async fn create_daily_note(&self, notebook: &str) -> HostResult<String> {
        self.call_id(
            Capability::CreateDailyNote,
            &[object(&[("notebook", notebook)])],
        )
        .await
    }

    async fn get_referenced_ids(&self, ids: &[String]) -> HostResult<Vec<String>> {
        self.call_parse(Capability::GetReferencedIds, &[ids_to_js(ids)])
            .await
    }

    async fn split_markdown(&self, markdown: &str) -> HostResult<Vec<String>> {
        self.call_parse(Capability::SplitMarkdown, &[JsValue::from_str(markdown)])
            .await
    }

    async fn get_kernel_version(&self) -> HostResult<String> {
        self.call_parse(Capability::GetKernelVersion, &[]).await
    }

    async fn flush_transaction(&self) -> HostResult<()> {
        if self.has(Capability::FlushTransaction) {
            self.call(Capability::FlushTransaction, &[])
                .await
                .map(|_| ())
        } else {
            Ok(())
        }
    }
}
