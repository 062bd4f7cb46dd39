//! The CommonMark block splitter used for multi-block replacements: the
//! blocks are in order, non-overlapping, and cover every non-blank line.
#![no_main]
use editkit::block_diff::split_blocks;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|markdown: &str| {
    let blocks = split_blocks(markdown);
    let mut at = 0usize;
    for b in &blocks {
        let offset = b.as_ptr() as usize - markdown.as_ptr() as usize;
        assert!(offset >= at, "blocks overlap or are out of order");
        at = offset + b.len();
        assert!(!b.trim().is_empty());
    }
    let covered: usize = blocks.iter().map(|b| b.split_whitespace().count()).sum();
    assert_eq!(covered, markdown.split_whitespace().count(), "every word is in some block");
});
