//! After the writes: re-read what was written (after a flush) and compare it
//! with the plan. The kernel answers `code 0` even when a queued write
//! fails (KERNEL-FACTS §2), so this read is where a failed or partial write
//! shows (SPEC §3.7 rule 2). The comparison forgives what the kernel
//! canonicalises on write (rule 10) and nothing else that carries text.

use super::check::normalize_eol;
use super::undo::Done;
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
