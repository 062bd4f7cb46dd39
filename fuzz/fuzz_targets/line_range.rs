//! The line-range parser of the file-edit planner (`N`, `N~M`, `N~`, `~N`,
//! `~`) and its resolution against a file length.
#![no_main]
use editkit::planner::parse_line_range;
use editkit::Lang;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (u16, &str)| {
    let (total, text) = input;
    if let Ok(spec) = parse_line_range(text, Lang::En) {
        let _ = spec.resolve(total as usize, text, Lang::Zh);
    }
});
