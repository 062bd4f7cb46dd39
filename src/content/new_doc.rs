//! createNewDoc: where a new document goes in the document tree, relative
//! to an anchor document, and its creation.
//!
//! A document row carries two paths: `path`, the ids of its ancestors and
//! itself (`/20240101080000-arch0v1/20240101080100-y2024ab/20240620211500-rdlst7q.sy`),
//! and `hpath`, their titles (`/Archive/2024/Reading List`). Seed 000
//! computes the new document's hpath from them:
//!
//! | location | new hpath | parent document |
//! |---|---|---|
//! | `siblings` | the anchor's hpath minus its last part, then `/title` (`/title` at the root) | the anchor's parent (none at the root) |
//! | `children` | the anchor's hpath, then `/title` | the anchor |
//! | `parent` | the anchor's hpath minus its last two parts, then `/title` | the anchor's grandparent (none when the parent is at the root); an anchor at the root is `NO_PARENT_DOCUMENT` |
//!
//! Whether the anchor is at the root is read from `path` (one part), as the
//! seed does. `/` in a title becomes `-` (it would otherwise nest). hpaths
//! are not unique (two documents may share a title), so the parent is also
//! given by id (`parentID`), taken from `path`.

use serde::{Deserialize, Serialize};

use super::{
    checked_id, fetch_blocks, messages, refuse, require, ContentOptions, DocLocation, Problem,
};
use crate::host::{Capability, SiyuanHost};
use crate::siyuan::{is_block_id, Block, BlockKind};
use crate::{Error, Lang};

/// Input of [`plan_new_doc_path`].
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NewDocPathArgs {
    /// The anchor's row (`type`, `box`, `path`, `hpath` are used).
    pub anchor_doc: Block,
    /// The new document's title.
    pub title: String,
    /// Where the new document goes relative to the anchor.
    pub location: DocLocation,
}

/// Where the new document goes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NewDocPlan {
    /// The anchor's notebook.
    pub notebook: String,
    /// The new document's human-readable path (title included).
    pub hpath: String,
    /// The parent document's id; `""` for the notebook root.
    #[serde(rename = "parentID")]
    pub parent_id: String,
    /// The title as it will be written (`/` replaced by `-`).
    pub title: String,
}

/// Computes the new document's place (see the module docs). Errors:
/// `INVALID_ARGUMENT` (blank title, a `path` that is not a document path),
/// `NOT_A_DOCUMENT` (names the anchor's type), `NO_PARENT_DOCUMENT`.
pub fn plan_new_doc_path(
    args: &NewDocPathArgs,
    options: &ContentOptions,
) -> Result<NewDocPlan, Error> {
    let lang = options.lang;
    let anchor = &args.anchor_doc;
    if args.title.trim().is_empty() {
        return Err(refuse(lang, Problem::EmptyTitle));
    }
    let kind = anchor.kind();
    if kind != BlockKind::Document {
        return Err(refuse(
            lang,
            Problem::AnchorNotADocument {
                id: anchor.id.clone(),
                type_code: anchor.type_.clone(),
                root_id: anchor.root_id.clone(),
            },
        ));
    }
    let title = args.title.replace('/', "-");
    let path_parts: Vec<&str> = anchor.path.split('/').filter(|p| !p.is_empty()).collect();
    let hpath_parts: Vec<&str> = anchor.hpath.split('/').filter(|p| !p.is_empty()).collect();
    // The id of the document `up` levels above the anchor ("" = the root).
    let ancestor = |up: usize| -> Result<String, Error> {
        let Some(index) = path_parts.len().checked_sub(up + 1) else {
            return Ok(String::new());
        };
        let id = path_parts[index].trim_end_matches(".sy");
        if is_block_id(id) {
            Ok(id.to_string())
        } else {
            Err(refuse(
                lang,
                Problem::MalformedPath {
                    path: anchor.path.clone(),
                },
            ))
        }
    };
    let under = |parts: &[&str]| -> String {
        let mut hpath = String::new();
        for p in parts {
            hpath.push('/');
            hpath.push_str(p);
        }
        hpath.push('/');
        hpath.push_str(&title);
        hpath
    };
    let (hpath, parent_id) = match args.location {
        DocLocation::Siblings if path_parts.len() <= 1 => (format!("/{title}"), String::new()),
        DocLocation::Siblings => {
            let keep = hpath_parts.len().saturating_sub(1);
            (under(&hpath_parts[..keep]), ancestor(1)?)
        }
        DocLocation::Children => (under(&hpath_parts), anchor.id.clone()),
        DocLocation::Parent if path_parts.len() <= 1 => {
            return Err(refuse(
                lang,
                Problem::NoParentDocument {
                    id: anchor.id.clone(),
                },
            ))
        }
        DocLocation::Parent if path_parts.len() == 2 => (format!("/{title}"), String::new()),
        DocLocation::Parent => {
            let keep = hpath_parts.len().saturating_sub(2);
            (under(&hpath_parts[..keep]), ancestor(2)?)
        }
    };
    Ok(NewDocPlan {
        notebook: anchor.box_id.clone(),
        hpath,
        parent_id,
        title,
    })
}

/// Arguments of createNewDoc.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateNewDocArgs {
    /// The new document's title (its last path segment).
    pub title: String,
    /// The document the new one is placed relative to.
    pub anchor_document_id: String,
    /// Where the new document goes relative to the anchor.
    pub location: DocLocation,
    /// The new document's body (default empty).
    #[serde(default)]
    pub markdown: String,
}

/// The result of [`create_new_doc`].
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateNewDocResult {
    /// Always true in a result (failures are errors).
    pub success: bool,
    /// The new document's id.
    pub doc_id: String,
    /// Its human-readable path (`/Parent/Title`).
    pub hpath: String,
    /// Where it was placed relative to the anchor, as asked.
    pub location: DocLocation,
    /// The notebook it is in.
    pub notebook: String,
    /// Its parent document's id, or the notebook id at the root.
    #[serde(rename = "parentID")]
    pub parent_id: String,
    /// One line an agent can read (seed 000's confirmation).
    pub summary: String,
}

/// Fetches the anchor (one `getBlocks` call), plans the path and creates
/// the document (one `createDoc` call). Errors: those of
/// [`plan_new_doc_path`], `INVALID_BLOCK_ID`, `BLOCK_NOT_FOUND` (anchor),
/// `HOST_CAPABILITY_MISSING` (before any call), `HOST_ERROR`.
pub async fn create_new_doc<H: SiyuanHost>(
    args: &CreateNewDocArgs,
    host: &H,
    options: &ContentOptions,
) -> Result<CreateNewDocResult, Error> {
    let lang = options.lang;
    if args.title.trim().is_empty() {
        return Err(refuse(lang, Problem::EmptyTitle));
    }
    let anchor_id = checked_id(&args.anchor_document_id, "anchorDocumentId", lang)?.to_string();
    require(host, &[Capability::GetBlocks, Capability::CreateDoc], lang)?;
    let ids = [anchor_id];
    let anchor = fetch_blocks(host, &ids, lang)
        .await?
        .into_iter()
        .next()
        .flatten()
        .ok_or_else(|| refuse(lang, Problem::AnchorDocNotFound { id: ids[0].clone() }))?;
    let plan = plan_new_doc_path(
        &NewDocPathArgs {
            anchor_doc: anchor,
            title: args.title.clone(),
            location: args.location,
        },
        options,
    )?;
    let doc_id = host
        .create_doc(&plan.notebook, &plan.hpath, &plan.parent_id, &args.markdown)
        .await
        .map_err(|e| super::host_error(lang, &e))?;
    let doc_id = doc_id.trim().to_string();
    if !is_block_id(&doc_id) {
        return Err(refuse(
            lang,
            Problem::HostBadId {
                capability: Capability::CreateDoc,
                got: doc_id,
            },
        ));
    }
    Ok(created(lang, doc_id, plan, args.location))
}

fn created(
    lang: Lang,
    doc_id: String,
    plan: NewDocPlan,
    location: DocLocation,
) -> CreateNewDocResult {
    CreateNewDocResult {
        success: true,
        summary: messages::created_doc(lang, &plan.hpath, &doc_id, location),
        doc_id,
        hpath: plan.hpath,
        location,
        notebook: plan.notebook,
        parent_id: plan.parent_id,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(path: &str, hpath: &str) -> Block {
        let id = path
            .rsplit('/')
            .next()
            .unwrap_or("")
            .trim_end_matches(".sy")
            .to_string();
        Block {
            id,
            type_: "d".into(),
            box_id: "20240101090000-k3m9xzq".into(),
            path: path.into(),
            hpath: hpath.into(),
            ..Block::default()
        }
    }

    fn plan(anchor: Block, location: DocLocation) -> Result<(String, String), crate::ErrorCode> {
        plan_new_doc_path(
            &NewDocPathArgs {
                anchor_doc: anchor,
                title: "A/B".into(),
                location,
            },
            &ContentOptions::default(),
        )
        .map(|p| (p.hpath, p.parent_id))
        .map_err(|e| e.code)
    }

    #[test]
    fn malformed_paths_are_refused_not_guessed() {
        let bad = doc("/not-an-id/20240620211500-rdlst7q.sy", "/x/y");
        assert_eq!(
            plan(bad.clone(), DocLocation::Siblings),
            Err(crate::ErrorCode::InvalidArgument)
        );
        // Children only needs the anchor's own id.
        assert_eq!(
            plan(bad, DocLocation::Children),
            Ok(("/x/y/A-B".to_string(), "20240620211500-rdlst7q".to_string()))
        );
    }

    #[test]
    fn blank_title_and_deep_paths() {
        let deep = doc(
            "/20240101000000-aaaaaaa/20240101000000-bbbbbbb/20240101000000-ccccccc.sy",
            "/a/b/c",
        );
        assert_eq!(
            plan(deep.clone(), DocLocation::Parent),
            Ok(("/a/A-B".into(), "20240101000000-aaaaaaa".into()))
        );
        let r = plan_new_doc_path(
            &NewDocPathArgs {
                anchor_doc: deep,
                title: "  ".into(),
                location: DocLocation::Children,
            },
            &ContentOptions::default(),
        );
        assert_eq!(
            r.map_err(|e| e.code),
            Err(crate::ErrorCode::InvalidArgument)
        );
    }
}
