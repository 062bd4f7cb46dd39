//! References to blocks that do not exist (SPEC §3.7 rule 25, writes that
//! rewrite; confirmed live on v3.7.3).
//!
//! The kernel keeps a block reference `((id 'text'))` only while its
//! block-id table knows the id: on every write path a reference to an
//! unknown (or deleted) block loses its id — `((id 'a'))` is stored as
//! `(( 'a'))` (kernel `model/transaction.go`
//! `degradeCrossBoundaryBlockRefs`, failing closed). So writing a block
//! whose text holds such a reference — text the edit keeps, or text the
//! edit writes — would change it for good (a rollback or an undo writes it
//! back the same way): editkit refuses (`WOULD_BREAK_REF`).

/// The ids `((…))` references in `text` name, each once, in order.
pub fn referenced_ids(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("((") {
        let tail = &rest[at + 2..];
        if let Some(id) = tail.get(..22).filter(|id| crate::siyuan::is_block_id(id)) {
            let after = tail.as_bytes().get(22).copied();
            if matches!(after, Some(b' ' | b')')) && !out.iter().any(|o| o == id) {
                out.push(id.to_string());
            }
        }
        rest = tail;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn static_dynamic_and_bare_references_are_found() {
        let text = "见 ((20240101000000-aaaaaaa \"甲\")) 与 ((20240101000000-bbbbbbb 'b')) \
                    和 ((20240101000000-ccccccc)) 再 ((20240101000000-aaaaaaa))，((not an id))";
        assert_eq!(
            referenced_ids(text),
            [
                "20240101000000-aaaaaaa",
                "20240101000000-bbbbbbb",
                "20240101000000-ccccccc"
            ]
        );
        assert!(referenced_ids("(( 'a')) (20240101000000-aaaaaaa)").is_empty());
    }
}
