//! After the writes: re-read what was written (after a flush) and compare it
//! with the plan. The kernel answers `code 0` even when a queued write
//! fails (KERNEL-FACTS §2), so this read is where a failed or partial write
//! shows (SPEC §3.7 rule 2). The comparison forgives what the kernel
//! canonicalises on write (rule 10) and nothing else that carries text.

use crate::text::StableSet;

use super::check::normalize_eol;
use super::messages as msg;
use super::plan::{ial_ids, PlanEntry};
use super::refuse;
use super::run_state::Run;
use super::types::Problem as Refusal;
use super::undo::Done;
use super::{EditStatus, IdMapping, Warning, WarningCode};
use crate::host::{rows_as_stored, SiyuanHost};
use crate::markdown::{is_ial_line, strip_ial};
use crate::siyuan::Block;

/// What verify found wrong with one write.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    /// The block that does not read back as planned.
    pub id: String,
    /// Its markdown now (`""` when it is missing, or present when it should
    /// be gone).
    pub actual: String,
}

/// Compares each done write with its row read after the write (same order
/// as `done`), records what updated and inserted blocks read now (for the
/// undo's SEARCH), and returns the problems by plan entry.
pub fn check_written(done: &mut [Done], rows: &[Option<Block>]) -> Vec<(usize, Problem)> {
    let mut problems = Vec::new();
    for (step, row) in done.iter_mut().zip(rows) {
        let entry = step.entry();
        let id = step.id().to_string();
        let problem = match step {
            Done::Updated {
                written: sent,
                current,
                ..
            }
            | Done::Inserted {
                markdown: sent,
                current,
                ..
            } => {
                *current = row.as_ref().map(|b| normalize_eol(&b.markdown));
                match row {
                    Some(b) if row_reads_as_tree(&b.markdown, sent) => None,
                    Some(b) => Some(b.markdown.clone()),
                    None => Some(String::new()),
                }
            }
            Done::Deleted { .. } => row.as_ref().map(|b| b.markdown.clone()),
            Done::KernelCreated { .. } => None,
        };
        if let Some(actual) = problem {
            problems.push((entry, Problem { id, actual }));
        }
    }
    problems
}

/// Whether a block's row (`markdown`) says what its tree (`kramdown`)
/// says once the tree's IALs are stripped. When the kramdown is the
/// markdown followed only by IAL lines and the markdown holds no IAL (the
/// usual paragraph), that is known without stripping: the lines
/// stripping would drop are the IAL lines, and what it would change in
/// the rest (line endings, blank lines) is not compared (a dry run checks
/// every target's row against its tree; docs/PERFORMANCE.md cut 46).
pub fn row_reads_as_tree(markdown: &str, kramdown: &str) -> bool {
    let only_ials_follow = |rest: &str| {
        rest.is_empty()
            || rest.strip_prefix('\n').is_some_and(|ials| {
                ials.split('\n')
                    .all(|line| line.trim().is_empty() || is_ial_line(line))
            })
    };
    let quick = crate::text::find_pair(markdown, *b"{:").is_none()
        && kramdown
            .strip_prefix(markdown)
            .is_some_and(only_ials_follow);
    quick || same_text(markdown, &strip_ial(kramdown))
}

/// Whether two markdowns say the same thing once the kernel has stored
/// them: every character counts, only Lute's formatting is forgiven
/// ([`crate::markdown::canonical`], SPEC §3.7 rules 10 and 14).
pub fn same_text(actual: &str, expected: &str) -> bool {
    crate::markdown::same_markdown(actual, expected)
}

impl<H: SiyuanHost> Run<'_, H> {
    /// Re-reads every block written since step `from` of `done` in one
    /// batch (after a flush) and the children each container rewrite kept,
    /// compares them with the plan, and finds the blocks the kernel created
    /// on its own. Returns the plan entries that failed verification.
    pub(super) async fn verify(
        &mut self,
        plan: &[PlanEntry],
        done: &mut Vec<Done>,
        from: usize,
        id_map: &mut Vec<IdMapping>,
    ) -> Vec<usize> {
        let lang = self.lang;
        if done.len() <= from {
            return Vec::new();
        }
        let _ = self.host.flush_transaction().await;
        let (ids, kept) = read_back_ids(plan, &done[from..]);
        let written = done.len() - from;
        let rows = match self.host.get_blocks(&ids).await {
            Ok(rows) if rows.len() == ids.len() => rows_as_stored(rows),
            _ => {
                self.warnings.push(Warning {
                    code: WarningCode::UndoUnchecked,
                    message: msg::verify_unavailable(lang),
                    line: None,
                    hunk_index: None,
                    block_id: None,
                });
                return Vec::new();
            }
        };
        id_map.extend(inserted_under_new_ids(&done[from..]));
        let mut problems = check_written(&mut done[from..], &rows[..written]);
        for ((k, child), row) in kept.iter().zip(&rows[written..]) {
            if row.is_none() {
                problems.push((
                    *k,
                    Problem {
                        id: child.clone(),
                        actual: String::new(),
                    },
                ));
            }
        }
        self.find_kernel_blocks(plan, done, from).await;
        let mut failed: Vec<usize> = Vec::new();
        for (entry, problem) in problems {
            for &i in &plan[entry].edits {
                if self.results[i].status == EditStatus::Applied {
                    let hunk = self.results[i].hunk_index;
                    self.fail(
                        i,
                        refuse(
                            lang,
                            Refusal::WriteVerifyFailed {
                                id: problem.id.clone(),
                                hunk,
                                actual: problem.actual.clone(),
                            },
                        ),
                    );
                }
            }
            if !failed.contains(&entry) {
                failed.push(entry);
                self.note_side_effects(&plan[entry], &problem, done);
            }
        }
        failed.sort();
        failed
    }

    /// A container update that re-IDs children and did not land (the
    /// target reads as before: the kernel rolled its transaction back) may
    /// still have had the kernel's side effects (SPEC §3.7 rule 27): the
    /// report says so.
    fn note_side_effects(&mut self, entry: &PlanEntry, problem: &Problem, done: &[Done]) {
        let reassigned = &entry.planned.reassigned_children;
        let rolled_back = done.iter().any(|d| match d {
            Done::Updated {
                id, old_markdown, ..
            } => *id == problem.id && same_text(&problem.actual, old_markdown),
            _ => false,
        });
        if reassigned.is_empty() || !rolled_back {
            return;
        }
        self.warnings.push(Warning {
            code: WarningCode::KernelSideEffects,
            message: msg::kernel_side_effects(self.lang, &entry.planned.block_id, reassigned),
            line: None,
            hunk_index: entry.planned.hunk_indexes.first().copied(),
            block_id: Some(entry.planned.block_id.clone()),
        });
    }

    /// After deletes (since step `from`) that emptied a document, the
    /// kernel's placeholder paragraph: a child of it that was not there
    /// before.
    async fn find_kernel_blocks(&mut self, plan: &[PlanEntry], done: &mut Vec<Done>, from: usize) {
        let items: Vec<(usize, String)> = plan
            .iter()
            .enumerate()
            .filter(|(k, _)| {
                done[from..]
                    .iter()
                    .any(|d| d.entry() == *k && matches!(d, Done::Deleted { .. }))
            })
            .filter_map(|(k, e)| e.placeholder_in.clone().map(|item| (k, item)))
            .collect();
        if items.is_empty() {
            return;
        }
        let ids: Vec<String> = items.iter().map(|(_, item)| item.clone()).collect();
        let Ok(lists) = self.host.get_child_blocks(&ids).await else {
            return;
        };
        for ((k, item), list) in items.into_iter().zip(lists) {
            let before: StableSet<&str> = self
                .children
                .get(&item)
                .map(|l| l.iter().map(|c| c.id.as_str()).collect())
                .unwrap_or_default();
            for child in list {
                if !before.contains(child.id.as_str()) && !done.iter().any(|d| d.id() == child.id) {
                    self.warnings.push(Warning {
                        code: WarningCode::KernelCreatedBlock,
                        message: msg::kernel_created(self.lang, &child.id, &item),
                        line: None,
                        hunk_index: None,
                        block_id: Some(child.id.clone()),
                    });
                    done.push(Done::KernelCreated {
                        entry: k,
                        id: child.id,
                    });
                }
            }
        }
    }
}

/// The ids the verify reads: every written block, then the children each
/// written container rewrite kept (with their plan entry).
fn read_back_ids(plan: &[PlanEntry], done: &[Done]) -> (Vec<String>, Vec<(usize, String)>) {
    let mut ids: Vec<String> = done.iter().map(|d| d.id().to_string()).collect();
    let written_entries: StableSet<usize> = done.iter().map(Done::entry).collect();
    let mut kept: Vec<(usize, String)> = Vec::new();
    for (k, entry) in plan.iter().enumerate() {
        if written_entries.contains(&k) {
            for child in &entry.planned.kept_children {
                kept.push((k, child.clone()));
                ids.push(child.clone());
            }
        }
    }
    (ids, kept)
}

/// Inserted blocks whose markdown named another id than the kernel gave.
fn inserted_under_new_ids(done: &[Done]) -> Vec<IdMapping> {
    done.iter()
        .filter_map(|step| match step {
            Done::Inserted { id, markdown, .. } => first_ial_id(markdown)
                .filter(|old| old != id)
                .map(|old| IdMapping {
                    old_id: old,
                    new_id: id.clone(),
                }),
            _ => None,
        })
        .collect()
}

/// The `id` in the IAL of the first block of `markdown`, if any.
fn first_ial_id(markdown: &str) -> Option<String> {
    ial_ids(markdown).into_iter().next()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_the_kernel_canonicalises_is_the_same_text() {
        assert!(same_text("- [X] done", "- [x] done"));
        assert!(same_text("a\nb", "a<br>b"));
        assert!(same_text("x\u{a0}y", "x&nbsp;y"));
        assert!(same_text("1. a\n2. b", "3. a\n4. b"));
        assert!(same_text("**bold**", "__bold__"));
        assert!(!same_text("second", "second!"));
        assert!(!same_text("a + b", "a - b"));
    }

    proptest::proptest! {
        /// A row reads as its tree by the quick test exactly when it does
        /// by stripping the tree's IALs.
        #[test]
        fn rows_read_as_trees_as_stripping_says(
            markdown in "(> |- |1\\. )?[a-c中 \u{3000}\r]{0,4}(\\{: id=\"m\"\\})?(\r?\n(> |- )?[a-c \u{a0}]{0,3})?\r?",
            suffix in proptest::collection::vec(
                proptest::sample::select(vec![
                    "\n{: id=\"x\"}", "\n{: id=\"x\" updated=\"1\"}", "\n", "\n  {: id=\"y\"}",
                    "\n> {: id=\"q\"}", "\nmore", "x", "\n{: broken", "\r\n{: id=\"z\"}",
                ]),
                0..3,
            ),
        ) {
            let kramdown = format!("{markdown}{}", suffix.concat());
            proptest::prop_assert_eq!(
                row_reads_as_tree(&markdown, &kramdown),
                same_text(&markdown, &strip_ial(&kramdown))
            );
        }
    }

    #[test]
    fn dropped_or_changed_text_is_not() {
        assert!(!same_text("- [ ] done", "- [x] done"));
        assert!(!same_text("first", "first\n\nsecond"));
        assert!(!same_text("a b", "a c"));
    }
}
