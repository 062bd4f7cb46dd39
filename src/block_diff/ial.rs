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
    parse_ial(ial)
        .into_iter()
        .filter(|(k, _)| k != "id" && k != "updated")
        .collect()
}

/// `carried_attrs` as an IAL line, or `None`.
pub fn carried_ial(ial: &str) -> Option<String> {
    render_ial(&carried_attrs(ial))
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
}
