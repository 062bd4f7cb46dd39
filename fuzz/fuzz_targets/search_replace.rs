//! The multi-block SEARCH/REPLACE parser and its application: any text
//! parses or yields format errors with a line inside it; an atomic apply
//! that fails leaves the content unchanged.
#![no_main]
use editkit::matcher::{apply_search_replace, parse_search_replace, SearchReplaceOptions};
use editkit::Lang;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (&str, &str)| {
    let (content, text) = input;
    let lines = text.split('\n').count() as u32;
    if let Err(e) = parse_search_replace(text, Lang::Zh) {
        for inner in &e.details.errors {
            assert!(inner.details.line.unwrap_or(0) <= lines + 1);
        }
    }
    if let Ok(report) = apply_search_replace(content, text, &SearchReplaceOptions::default()) {
        if !report.ok {
            assert_eq!(report.content, content, "an atomic failure changes nothing");
        }
    }
});
