//! Properties of the prose tier (issue 36) over generated Markdown made of
//! the pieces it treats specially — CJK text, full-width punctuation,
//! emphasis, bullets and numbers, code spans, URLs, `<br>`, escapes, hard
//! and soft breaks, CRLF:
//!
//! - no input makes it panic or place a match outside the content;
//! - a search that is a span of the file with its form slipped (width,
//!   spacing, emphasis, quotes), and a replacement that appends a word,
//!   either is refused or changes the file by exactly that word: the text
//!   before the match and after it stays byte for byte, and the words
//!   (letters, digits, CJK characters) of the result are the file's plus
//!   the new one.

use editkit::{replace_text, MatchMode, MatchOptions};
use proptest::prelude::*;

fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(vec![
            "使用", "同步", "Git", " ", " ", "，", "。", "：", "（", "）", ",", ".", "**",
            "__", "*", "_", "`a，b`", "https://a.b/c_d", "<br />", "<br>", "\\.", "\\",
            "  \n", "\n", "\n\n", "\r\n", "- ", "* ", "1. ", "3. ", "“", "”", "it’s",
            "'", "\"", "😀", "$x$", "](u_v)", "<span>",
        ])
        .prop_map(String::from),
        // Words and CJK runs rare enough that most spans occur once.
        1 => "[a-z]{3,7}",
        1 => "[\u{4e00}-\u{4fff}]{1,4}",
    ]
}

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(piece(), 0..60).prop_map(|p| p.concat())
}

/// The model's slips of a span.
fn slip(span: &str, how: u8) -> String {
    match how % 4 {
        0 => span
            .replace('，', ",")
            .replace('。', ".")
            .replace('：', ":")
            .replace('（', "(")
            .replace('）', ")"),
        1 => span
            .replace("使用 Git", "使用Git")
            .replace("Git 同步", "Git同步"),
        2 => span.replace("**", "__"),
        _ => span.replace(['“', '”'], "\"").replace('’', "'"),
    }
}

fn words(text: &str) -> String {
    text.chars().filter(|c| c.is_alphanumeric()).collect()
}

fn prose(mode: MatchMode) -> MatchOptions {
    MatchOptions {
        mode,
        prose: true,
        ..MatchOptions::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn any_input_is_answered_without_a_panic(
        content in text(),
        search in text(),
        replace in text(),
        fuzzy in any::<bool>(),
    ) {
        let mode = if fuzzy { MatchMode::Fuzzy } else { MatchMode::Safe };
        let units = content.encode_utf16().count() as u32;
        if let Ok(r) = replace_text(&content, &search, &replace, &prose(mode)) {
            for m in &r.matches {
                prop_assert!(m.start <= m.end && m.end <= units);
            }
        }
    }

    #[test]
    fn a_slipped_span_lands_with_only_the_new_word(
        content in text(),
        from in 0usize..200,
        len in 1usize..60,
        how in any::<u8>(),
    ) {
        let chars: Vec<char> = content.chars().collect();
        // From one line start to another line's end, so no word is cut.
        let mut from = from.min(chars.len());
        while from > 0 && chars[from - 1] != '\n' {
            from -= 1;
        }
        let mut to = (from + len).min(chars.len());
        while to < chars.len() && !matches!(chars[to], '\n' | '\r') {
            to += 1;
        }
        let span: String = chars[from..to].iter().collect();
        if words(&span).chars().count() < 3 {
            return Ok(());
        }
        let search = slip(&span, how);
        if search == span {
            return Ok(());
        }
        let replace = format!("{search} NEWWORD");
        if let Ok(r) = replace_text(&content, &search, &replace, &prose(MatchMode::Safe)) {
            let out = r.content;
            // Everything before the match and after it is the file's.
            let m = &r.matches[0];
            let utf16: Vec<u16> = content.encode_utf16().collect();
            let before = String::from_utf16_lossy(&utf16[..m.start as usize]);
            let after = String::from_utf16_lossy(&utf16[m.end as usize..]);
            prop_assert!(out.starts_with(&before), "{out:?} lost {before:?}");
            prop_assert!(out.ends_with(&after), "{out:?} lost {after:?}");
            // The file's words plus the new one, nothing lost or repeated.
            let mut expected = words(&content);
            let at = words(&before).len() + words(&m.text).len();
            expected.insert_str(at, "NEWWORD");
            prop_assert_eq!(words(&out), expected);
        }
    }
}
