//! The block-diff lexer and parser: any text either parses or yields
//! format errors with a line inside the text; never a panic.
#![no_main]
use editkit::block_diff::{parse_block_diff, validate_block_diff_format, FormatOptions};
use editkit::Lang;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let lines = text.split('\n').count() as u32;
    for lang in [Lang::En, Lang::Zh] {
        let report = validate_block_diff_format(text, &FormatOptions { lang });
        for e in &report.errors {
            assert!(e.details.line.unwrap_or(0) <= lines);
        }
        let parsed = parse_block_diff(text, &FormatOptions { lang });
        assert_eq!(parsed.is_ok(), report.valid);
    }
});
