//! The matcher over arbitrary content, search, replacement and mode: never
//! a panic; a found match is inside the content; text before the first
//! and after the last matched line is never changed (except the one line
//! break next to a deleted final line, which goes with it so the file's
//! final-newline state is kept).
#![no_main]
use editkit::matcher::{find_match, replace_text, FindOptions, Mode, ReplaceOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (u8, &str, &str, &str)| {
    let (m, content, search, replace) = input;
    let mode = match m % 3 {
        0 => Mode::Exact,
        1 => Mode::Safe,
        _ => Mode::Fuzzy,
    };
    let utf16_len = content.encode_utf16().count() as u32;
    if let Ok(r) = find_match(content, search, &FindOptions { mode, ..FindOptions::default() }) {
        for m in &r.matches {
            assert!(m.start <= m.end && m.end <= utf16_len);
        }
    }
    if let Ok(r) = replace_text(content, search, replace, &ReplaceOptions { mode, ..ReplaceOptions::default() }) {
        let lines: Vec<&str> = content.split_inclusive('\n').collect();
        if let (Some(first), Some(last)) = (r.matches.iter().map(|m| m.start_line).min(), r.matches.iter().map(|m| m.end_line).max()) {
            let before: String = lines.iter().take(first.saturating_sub(1) as usize).copied().collect();
            let after: String = lines.iter().skip(last as usize).copied().collect();
            let before = before.strip_suffix('\n').map_or(before.as_str(), |b| b.strip_suffix('\r').unwrap_or(b));
            assert!(r.content.starts_with(before), "text before the match changed");
            assert!(r.content.ends_with(&after), "text after the match changed");
        }
    }
});
