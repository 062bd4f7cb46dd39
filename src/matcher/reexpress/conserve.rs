//! The last check on a fuzzy replacement: it keeps every word of the file
//! the model kept, writes every word the model added, and repeats nothing.
//!
//! The fuzzy writers pair the search's lines with the file's. Where that
//! pairing is wrong — a paragraph quoted on one line that the file wraps
//! over three, lines the model merged or split — a writer could drop the
//! file lines no search line stood for, or write one twice, and the edit
//! would land "successfully" with words lost (SPEC §6.2: never a wrong
//! edit, in any mode). So the written text is held to the edit the model
//! asked for, token by token (tokens compared by their fold key, so the
//! file's typographic characters count as what the model typed):
//!
//! - a file token the search has and the replacement keeps is in the
//!   written text;
//! - a token the replacement adds is in the written text;
//! - no token is written more often than the replacement has it plus the
//!   file has it beyond the search (drift the model did not know of).
//!
//! A replacement that fails is refused, naming the word; nothing is
//! written. Cost: three token diffs of the span's size.

use std::collections::HashMap;

use crate::matcher::normalize::{key, tokens, Level};
use crate::matcher::types::Unmappable;
use crate::text::{align_lines, LineLink};

/// Checks `written`, the text that replaces `region`, against the edit
/// `search` → `replace`.
pub(super) fn check(
    region: &str,
    search: &str,
    replace: &str,
    written: &str,
) -> Result<(), Unmappable> {
    let (file, search, model, out) = (
        Keyed::of(region),
        Keyed::of(search),
        Keyed::of(replace),
        Keyed::of(written),
    );
    // Counted by key, not aligned: aligning the written text with the file
    // separately could pair a repeated token (`(`, `the`) with another copy
    // than the search did, and report a loss that is not one.
    let in_file = paired_old(&search.keys, &file.keys);
    let kept_by_model = paired_old(&search.keys, &model.keys);
    let from_search = paired_new(&search.keys, &model.keys);
    let file_from_search = paired_new(&search.keys, &file.keys);
    let mut need: HashMap<&str, (isize, &str)> = HashMap::new();
    let mut room: HashMap<&str, isize> = HashMap::new();
    for (s, k) in search.keys.iter().enumerate() {
        if in_file[s] && kept_by_model[s] {
            need.entry(k).or_insert((0, search.texts[s])).0 += 1;
        }
    }
    for (j, k) in model.keys.iter().enumerate() {
        if !from_search[j] {
            need.entry(k).or_insert((0, model.texts[j])).0 += 1;
        }
        *room.entry(k).or_default() += 1;
    }
    for (f, k) in file.keys.iter().enumerate() {
        if !file_from_search[f] {
            *room.entry(k).or_default() += 1;
        }
    }
    let mut have: HashMap<&str, isize> = HashMap::new();
    for k in &out.keys {
        *have.entry(k).or_default() += 1;
    }
    // In the model's order, so the word named is the first one lost.
    for k in search.keys.iter().chain(&model.keys) {
        if let Some(&(n, text)) = need.get(k.as_str()) {
            if have.get(k.as_str()).copied().unwrap_or(0) < n {
                return Err(Unmappable::LosesText(text.to_string()));
            }
        }
    }
    for (o, k) in out.keys.iter().enumerate() {
        if have[k.as_str()] > room.get(k.as_str()).copied().unwrap_or(0) {
            return Err(Unmappable::RepeatsText(out.texts[o].to_string()));
        }
    }
    Ok(())
}

/// A text's tokens and their fold keys.
struct Keyed<'a> {
    texts: Vec<&'a str>,
    keys: Vec<String>,
}

impl<'a> Keyed<'a> {
    fn of(text: &'a str) -> Keyed<'a> {
        let texts: Vec<&str> = tokens(text).filter_map(|(s, e)| text.get(s..e)).collect();
        let keys = texts.iter().map(|t| key(t, Level::Fold)).collect();
        Keyed { texts, keys }
    }
}

fn refs(keys: &[String]) -> Vec<&str> {
    keys.iter().map(String::as_str).collect()
}

/// `(new index, old index)` of the tokens a diff keeps equal.
fn equal_pairs(old: &[String], new: &[String]) -> Vec<(usize, usize)> {
    align_lines(&refs(old), &refs(new))
        .into_iter()
        .enumerate()
        .filter_map(|(n, link)| match link {
            LineLink::Equal(o) => Some((n, o)),
            _ => None,
        })
        .collect()
}

/// For each `old` token: whether the diff keeps it in `new`.
fn paired_old(old: &[String], new: &[String]) -> Vec<bool> {
    let mut out = vec![false; old.len()];
    for (_, o) in equal_pairs(old, new) {
        out[o] = true;
    }
    out
}

/// For each `new` token: whether the diff pairs it with an `old` one.
fn paired_new(old: &[String], new: &[String]) -> Vec<bool> {
    let mut out = vec![false; new.len()];
    for (n, _) in equal_pairs(old, new) {
        out[n] = true;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::check;
    use crate::matcher::types::Unmappable;

    #[test]
    fn a_file_line_no_search_line_stood_for_must_survive() {
        // The paragraph quoted on one line; the writer kept only the
        // first of the file's two lines.
        let region = "see the\n[Test Coverage section][].";
        let search = "see the [Test Coverage section][].";
        let replace = "see the [Test Coverage section][].\nIt works.";
        assert_eq!(
            check(region, search, replace, "see the\nIt works."),
            Err(Unmappable::LosesText("[".into()))
        );
        assert_eq!(
            check(
                region,
                search,
                replace,
                "see the\n[Test Coverage section][].\nIt works."
            ),
            Ok(())
        );
    }

    #[test]
    fn the_models_new_words_must_be_written() {
        assert_eq!(
            check("a b c", "a b c", "a b c d", "a b c"),
            Err(Unmappable::LosesText("d".into()))
        );
    }

    #[test]
    fn a_word_written_twice_is_refused() {
        assert_eq!(
            check("a b\nc", "a b c", "a b c", "a b\nc c"),
            Err(Unmappable::RepeatsText("c".into()))
        );
    }

    #[test]
    fn drift_the_model_did_not_know_may_stay_and_deleted_words_may_go() {
        // The file line has `z` where the search has `y`; the model
        // replaced the line, so `z` may go; the file's `w` beyond the
        // search may stay.
        assert_eq!(check("x z w", "x y", "x q", "x q w"), Ok(()));
        assert_eq!(check("a b c", "a b c", "a c", "a c"), Ok(()));
    }

    #[test]
    fn typographic_forms_count_as_the_typed_ones() {
        assert_eq!(
            check("it’s here", "it's here", "it's here now", "it’s here now"),
            Ok(())
        );
    }
}
