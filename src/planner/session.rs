//! `FileEditSession`: prepare → apply with a hunk registry.

use super::apply::{apply_hunk, rebase};
use super::messages as msg;
use super::prepare::{self, Plan};
use super::problem::{Expected, Problem};
use super::registry::{Hunk, LookupError, Registry, Retired};
use super::render::{self, ensure_yaml, plain, refuse, Ctx};
use super::types::*;
use super::yaml::agent_text;
use crate::error::Result;
use crate::lang::Lang;

/// One per agent process: plans edits, remembers them for `ttlMs`, applies
/// them once: plan with a `prepare_*` tool, review the diff, apply.
pub struct FileEditSession {
    registry: Registry,
}

impl FileEditSession {
    /// A session whose hunk ids start with `options.id_prefix` and whose
    /// plans live `options.ttl_ms` (default 1 h).
    pub fn new(options: FileEditSessionOptions) -> Self {
        let ttl = options
            .ttl_ms
            .filter(|t| t.is_finite() && *t > 0.0)
            .unwrap_or(DEFAULT_TTL_MS);
        FileEditSession {
            registry: Registry::new(&options.id_prefix, ttl),
        }
    }

    /// The time to live of plans, in ms.
    pub fn ttl_ms(&self) -> f64 {
        self.registry.ttl_ms
    }

    /// Plans a replace, delete or append by line range.
    pub fn prepare_range_edit(
        &mut self,
        options: RangeEditOptions,
        now_ms: f64,
    ) -> Result<PlanResult> {
        self.prepare(PlanMode::PrepareFileRangeEdit, &options, now_ms, |ctx| {
            prepare::plan_range(ctx, &options)
        })
    }

    /// Plans an append to the end of the file (`create: true` allows a
    /// missing file).
    pub fn prepare_append(&mut self, options: AppendOptions, now_ms: f64) -> Result<PlanResult> {
        self.prepare(PlanMode::PrepareFileAppend, &options, now_ms, |ctx| {
            prepare::plan_append(ctx, &options)
        })
    }

    /// Plans an insert after an anchor line.
    pub fn prepare_insert_after(
        &mut self,
        options: InsertOptions,
        now_ms: f64,
    ) -> Result<PlanResult> {
        self.prepare(PlanMode::PrepareFileInsertAfter, &options, now_ms, |ctx| {
            prepare::plan_insert(ctx, &options, Position::After)
        })
    }

    /// Plans an insert before an anchor line.
    pub fn prepare_insert_before(
        &mut self,
        options: InsertOptions,
        now_ms: f64,
    ) -> Result<PlanResult> {
        self.prepare(PlanMode::PrepareFileInsertBefore, &options, now_ms, |ctx| {
            prepare::plan_insert(ctx, &options, Position::Before)
        })
    }

    /// Plans the replacement of a start/end anchor block.
    pub fn prepare_block_replace(
        &mut self,
        options: BlockReplaceOptions,
        now_ms: f64,
    ) -> Result<PlanResult> {
        self.prepare(PlanMode::PrepareFileBlockReplace, &options, now_ms, |ctx| {
            prepare::plan_block_replace(ctx, &options)
        })
    }

    /// Applies plan `hunkId` to the file's current `content`. A successful
    /// (exact or fuzz) apply consumes the plan (with `defer_consume`, only
    /// [`consume`](Self::consume) does); a rejection and a refusal
    /// leave it in place (revise it with `existingHunkId` or plan anew).
    pub fn apply(&mut self, options: FileApplyOptions, now_ms: f64) -> Result<FileApplyResult> {
        let lang = options.lang;
        let path = self
            .registry
            .path_of(&options.hunk_id)
            .unwrap_or_default()
            .to_string();
        let ctx = Ctx {
            mode: APPLY_MODE,
            path: &path,
            lang,
        };
        let (result, change) = (|| {
            check_now(lang, now_ms)?;
            self.registry.purge(now_ms);
            let hunk = self.lookup(&ctx, &options.hunk_id, &options.owner)?;
            apply_hunk(hunk, options.content.as_deref(), lang)
        })()
        .map_err(|e| ensure_yaml(e, &ctx))?;
        if result.context_match != ContextMatch::Rejected {
            if let (true, Some(before), Some(change)) =
                (result.changed, options.content.as_deref(), change)
            {
                // The applying owner's other plans for this file (this
                // session's registry): another owner never saw the change.
                let others = self.registry.live_mut().filter(|h| {
                    h.path == path && h.owner == options.owner && h.id != options.hunk_id
                });
                rebase(others, before, &result.content, change);
            }
            if options.defer_consume != Some(true) {
                self.registry.consume(&options.hunk_id);
            }
        }
        Ok(result)
    }

    /// Marks a plan applied (after an `apply` with `defer_consume`, once
    /// the host wrote its result): a later apply of the id gets
    /// `HUNK_NOT_FOUND`, never a second insertion. `false` when no live
    /// plan has that id.
    pub fn consume(&mut self, hunk_id: &str) -> bool {
        let live = self.registry.get(hunk_id).is_some();
        self.registry.consume(hunk_id);
        live
    }

    /// `hunk_ids` sorted into creation order (unknown ids last, in their
    /// given order).
    ///
    /// `apply` is synchronous over the content it is given, so the host
    /// serialises applies per path (`withPathLock`). When several applies
    /// for one path are waiting at once — e.g. issued in the same tick —
    /// running them in this order makes them land in the order they were
    /// planned: each one relocates over the changes of the ones before it.
    pub fn apply_order(&self, hunk_ids: &[String]) -> Vec<String> {
        let mut known: Vec<(u64, &String)> = hunk_ids
            .iter()
            .filter_map(|id| self.registry.get(id).map(|h| (h.seq, id)))
            .collect();
        known.sort_by_key(|(seq, _)| *seq); // seqs are unique
        let mut out: Vec<String> = known.into_iter().map(|(_, id)| id.clone()).collect();
        out.extend(
            hunk_ids
                .iter()
                .filter(|id| self.registry.get(id).is_none())
                .cloned(),
        );
        out
    }

    /// Live plans (for `path`, or all when `None`) in creation order,
    /// after dropping those expired at `now_ms`.
    pub fn pending(&mut self, path: Option<&str>, now_ms: f64) -> Vec<PendingHunk> {
        if now_ms.is_finite() {
            self.registry.purge(now_ms);
        }
        let mut out: Vec<&Hunk> = self
            .registry
            .live()
            .filter(|h| path.is_none_or(|p| p == h.path))
            .collect();
        out.sort_by_key(|h| h.seq); // seqs are unique
        out.into_iter()
            .map(|h| PendingHunk {
                hunk_id: h.id.clone(),
                seq: h.seq as f64,
                path: h.path.clone(),
                owner: h.owner.clone(),
                mode: h.mode,
                action: h.action,
                created_at_ms: h.created_at_ms,
                expires_at_ms: h.expires_at_ms,
            })
            .collect()
    }

    fn lookup(&self, ctx: &Ctx<'_>, id: &str, owner: &str) -> Result<&Hunk> {
        self.registry.lookup(id, owner).map_err(|why| match why {
            LookupError::NotFound {
                retired: Some(Retired::Expired),
            } => {
                // Seed 001: an expired plan is not found, with the reason.
                refuse(ctx, Problem::HunkExpired { id: id.to_string() }, |y| {
                    y.str("hunk_id", id).raw("reason", "expired");
                })
            }
            LookupError::NotFound { retired } => refuse(
                ctx,
                Problem::HunkNotFound {
                    id: id.to_string(),
                    applied: retired == Some(Retired::Applied),
                },
                |y| {
                    y.str("hunk_id", id);
                },
            ),
            LookupError::WrongOwner => {
                refuse(ctx, Problem::WrongOwner { id: id.to_string() }, |y| {
                    y.str("hunk_id", id).str("owner", owner);
                })
            }
        })
    }

    /// Every prepare tool: the tool's context from its options, the plan
    /// `plan` makes in it registered (or refused, with its YAML).
    fn prepare<O: PlanRequest>(
        &mut self,
        mode: PlanMode,
        options: &O,
        now_ms: f64,
        plan: impl FnOnce(&Ctx<'_>) -> Result<Plan>,
    ) -> Result<PlanResult> {
        let (path, lang, owner, existing) = options.request();
        let ctx = Ctx {
            mode: mode.as_str(),
            path,
            lang,
        };
        self.prepare_inner(&ctx, mode, owner, existing, now_ms, || plan(&ctx))
            .map_err(|e| ensure_yaml(e, &ctx))
    }

    /// The id, sequence number and creation time a revision keeps: the
    /// hunk `id` must be the owner's, made by the same tool (`mode`) for
    /// the same file.
    fn revisable(
        &self,
        ctx: &Ctx<'_>,
        mode: PlanMode,
        id: &str,
        owner: &str,
    ) -> Result<(String, u64, f64)> {
        let old = self.lookup(ctx, id, owner)?;
        if old.mode != mode {
            return Err(refuse(
                ctx,
                Problem::HunkKindMismatch {
                    id: id.to_string(),
                    old_mode: old.mode.as_str().to_string(),
                    new_mode: mode.as_str().to_string(),
                },
                |y| {
                    y.str("hunk_id", id).raw("hunk_mode", old.mode.as_str());
                },
            ));
        }
        if old.path != ctx.path {
            return Err(refuse(
                ctx,
                Problem::HunkPathMismatch {
                    id: id.to_string(),
                    old_path: old.path.clone(),
                },
                |y| {
                    y.str("hunk_id", id).str("hunk_path", &old.path);
                },
            ));
        }
        Ok((old.id.clone(), old.seq, old.created_at_ms))
    }

    fn prepare_inner(
        &mut self,
        ctx: &Ctx<'_>,
        mode: PlanMode,
        owner: &str,
        existing: Option<&str>,
        now_ms: f64,
        plan: impl FnOnce() -> Result<Plan>,
    ) -> Result<PlanResult> {
        let lang = ctx.lang;
        check_now(lang, now_ms)?;
        if ctx.path.is_empty() {
            return Err(plain(
                lang,
                &Problem::InvalidArgument {
                    name: "path",
                    expected: Expected::FilePath,
                },
            ));
        }
        self.registry.purge(now_ms);
        // Revision: same owner, same tool, same file.
        let revised = match existing {
            None => None,
            Some(id) => Some(self.revisable(ctx, mode, id, owner)?),
        };
        let plan = plan()?;
        let (id, seq, created_at_ms) = match &revised {
            Some(keep) => keep.clone(),
            None => {
                let (id, seq) = self.registry.next_id();
                (id, seq, now_ms)
            }
        };
        let expires_at_ms = now_ms + self.registry.ttl_ms;
        let mut result = PlanResult {
            status: "ok",
            mode,
            path: ctx.path.to_string(),
            hunk_id: id.clone(),
            seq: seq as f64,
            created_at_ms,
            expires_at_ms,
            revised: revised.is_some(),
            action: plan.action,
            file_digest: plan.file_digest.clone(),
            lines: plan.lines,
            normalized: plan.normalized,
            range: plan.range.clone(),
            append: plan.append.clone(),
            insert: plan.insert.clone(),
            block_replace: plan.block_replace.clone(),
            style_warning: plan.style_warning.clone(),
            summary: String::new(),
            yaml: String::new(),
            diff: plan.diff.clone(),
            text: String::new(),
        };
        result.summary = msg::plan_summary(lang, &result, self.registry.ttl_ms);
        result.yaml = render::plan_yaml(&result);
        result.text = agent_text(&result.yaml, &result.diff);
        self.registry.insert(Hunk {
            id,
            seq,
            owner: owner.to_string(),
            path: ctx.path.to_string(),
            mode,
            action: plan.action,
            created_at_ms,
            expires_at_ms,
            new_text: plan.new_text,
            base: plan.base,
            edit: plan.edit,
            info: plan.info,
        });
        Ok(result)
    }
}

fn check_now(lang: Lang, now_ms: f64) -> Result<()> {
    if now_ms.is_finite() {
        Ok(())
    } else {
        Err(plain(
            lang,
            &Problem::InvalidArgument {
                name: "now",
                expected: Expected::FiniteNow,
            },
        ))
    }
}

/// What every prepare tool's options say besides the edit: the file's
/// path, the language, the owner and the hunk to revise.
trait PlanRequest {
    fn request(&self) -> (&str, Lang, &str, Option<&str>);
}

macro_rules! plan_request {
    ($($options:ty),*) => {$(
        impl PlanRequest for $options {
            fn request(&self) -> (&str, Lang, &str, Option<&str>) {
                (&self.path, self.lang, &self.owner, self.existing_hunk_id.as_deref())
            }
        }
    )*};
}

plan_request!(
    RangeEditOptions,
    AppendOptions,
    InsertOptions,
    BlockReplaceOptions
);
