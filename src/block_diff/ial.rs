//! The attributes an update carries over.
//!
//! The kernel's `updateBlock` makes a block's attributes exactly what the
//! new markdown's IAL says, plus `id` and `updated` (KERNEL-FACTS §3):
//! name, alias, memo, bookmark and `custom-*` attributes survive only if
//! the markdown restates them.

use crate::markdown::{parse_ial, render_ial, Attrs};

/// The attributes of a block's `ial` column an update must restate:
/// everything but `id` and `updated` (which the kernel sets).
pub fn carried_attrs(ial: &str) -> Attrs {
    carried_attrs_of(parse_ial(ial))
}

/// `attrs` without `id` and `updated`.
pub fn carried_attrs_of(attrs: Attrs) -> Attrs {
    attrs
        .into_iter()
        .filter(|(k, _)| k != "id" && k != "updated")
        .collect()
}

/// `carried_attrs` as an IAL line, or `None`.
pub fn carried_ial(ial: &str) -> Option<String> {
    render_ial(&carried_attrs(ial))
}

/// The attributes that make a block a database row or a flashcard: SiYuan
/// drops that membership when the block is deleted and strips them when
/// it is inserted again (KERNEL-FACTS §9).
pub const MEMBERSHIP_KEYS: [&str; 2] = ["custom-avs", "custom-riff-decks"];

/// Every block of `kramdown` (by the id its IAL names) that is a database
/// row or a flashcard, with the attributes that say so.
pub fn memberships_in(kramdown: &str) -> Vec<(String, Vec<&'static str>)> {
    let mut out = Vec::new();
    let mut rest = kramdown;
    while let Some(at) = crate::text::find_pair(rest, *b"{:") {
        let tail = &rest[at..];
        let Some(close) = tail.find('}') else { break };
        let attrs = crate::markdown::parse_ial(&tail[..=close]);
        let what: Vec<&'static str> = MEMBERSHIP_KEYS
            .into_iter()
            .filter(|key| attrs.iter().any(|(k, v)| k == key && !v.trim().is_empty()))
            .collect();
        if let (Some(id), false) = (crate::markdown::ial_id(&attrs), what.is_empty()) {
            out.push((id.to_string(), what));
        }
        rest = &tail[close + 1..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_are_carried_without_id_and_updated() {
        let ial = r#"{: alias="结语,结束语" id="20240614083630-p12olp4" memo="周报结尾" name="closing" updated="20240614183512"}"#;
        assert_eq!(
            carried_ial(ial).as_deref(),
            Some(r#"{: alias="结语,结束语" memo="周报结尾" name="closing"}"#)
        );
        assert_eq!(
            carried_ial(r#"{: id="20240614083000-a1b2c3d" updated="20240614083105"}"#),
            None
        );
        assert_eq!(carried_ial(""), None);
    }

    #[test]
    fn database_rows_and_flashcards_are_found_at_any_depth() {
        let quote = "> 行\n> {: id=\"20240101000000-aaaaaaa\" custom-avs=\"20240101000000-dbdbdbd\"}\n>\n> 卡\n> {: custom-riff-decks=\"20240101000000-deckaaa\" id=\"20240101000000-bbbbbbb\"}\n{: id=\"20240101000000-qqqqqqq\" custom-avs=\"\"}";
        assert_eq!(
            memberships_in(quote),
            vec![
                ("20240101000000-aaaaaaa".to_string(), vec!["custom-avs"]),
                (
                    "20240101000000-bbbbbbb".to_string(),
                    vec!["custom-riff-decks"]
                ),
            ]
        );
        assert!(
            memberships_in("plain\n{: id=\"20240101000000-aaaaaaa\" custom-x=\"1\"}").is_empty()
        );
    }
}
