//! NFC and NFD: the two ways Unicode spells an accented letter (`é` as one
//! character, or `e` and a combining accent). A search typed in one form
//! against a file in the other is a formatting slip the safe tier forgives
//! (SPEC §6.8): the ladder runs again with the search in the other form,
//! and the replacement is written in the form that matched, the file's.
//!
//! Only the scripts where the forms meet in practice are covered (Latin,
//! Greek, Cyrillic, kana; Hangul by its arithmetic), from a table generated
//! by `scripts/gen-unicode-forms.py`. Text outside them is left as it is.

#[path = "unicode_forms_data.rs"]
mod data;

use data::{CCC, PAIRS};

/// The top bit of a [`PAIRS`] row's second: the pair composes back under
/// NFC (the generator checks that no second reaches it).
const COMPOSES: u16 = 0x8000;

const HANGUL_S: u32 = 0xAC00;
const HANGUL_L: u32 = 0x1100;
const HANGUL_V: u32 = 0x1161;
const HANGUL_T: u32 = 0x11A7;
const HANGUL_V_COUNT: u32 = 21;
const HANGUL_T_COUNT: u32 = 28;
const HANGUL_N: u32 = HANGUL_V_COUNT * HANGUL_T_COUNT;
const HANGUL_COUNT: u32 = 19 * HANGUL_N;

fn combining_class(c: char) -> u8 {
    let Ok(cp) = u16::try_from(u32::from(c)) else {
        return 0;
    };
    CCC.binary_search_by_key(&cp, |&(mark, _)| mark)
        .map_or(0, |i| CCC[i].1)
}

fn decompose_into(c: char, out: &mut Vec<char>) {
    let cp = u32::from(c);
    if (HANGUL_S..HANGUL_S + HANGUL_COUNT).contains(&cp) {
        let s = cp - HANGUL_S;
        let jamo = [
            HANGUL_L + s / HANGUL_N,
            HANGUL_V + (s % HANGUL_N) / HANGUL_T_COUNT,
            HANGUL_T + s % HANGUL_T_COUNT,
        ];
        let n = if s % HANGUL_T_COUNT == 0 { 2 } else { 3 };
        out.extend(jamo[..n].iter().filter_map(|&j| char::from_u32(j)));
        return;
    }
    let row = u16::try_from(cp)
        .ok()
        .and_then(|cp| PAIRS.binary_search_by_key(&cp, |&(p, ..)| p).ok());
    match row {
        Some(i) => {
            let (_, first, second) = PAIRS[i];
            if let Some(f) = char::from_u32(u32::from(first)) {
                decompose_into(f, out);
            }
            let second = u32::from(second & !COMPOSES);
            if let Some(s) = char::from_u32(second).filter(|_| second != 0) {
                out.push(s);
            }
        }
        None => out.push(c),
    }
}

/// `text` with the covered characters decomposed and combining marks in
/// canonical order (NFD for the covered scripts).
pub(crate) fn nfd(text: &str) -> String {
    if text.is_ascii() {
        return text.to_string();
    }
    let mut chars = Vec::with_capacity(text.len());
    for c in text.chars() {
        decompose_into(c, &mut chars);
    }
    // Canonical ordering: each run of marks sorted (stably) by class.
    let mut i = 0;
    while i < chars.len() {
        if combining_class(chars[i]) == 0 {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && combining_class(chars[i]) != 0 {
            i += 1;
        }
        chars[start..i].sort_by_key(|&c| combining_class(c));
    }
    chars.into_iter().collect()
}

fn compose_pair(first: char, second: char) -> Option<char> {
    let (a, b) = (u32::from(first), u32::from(second));
    if (HANGUL_L..HANGUL_L + 19).contains(&a) && (HANGUL_V..HANGUL_V + HANGUL_V_COUNT).contains(&b)
    {
        let s = HANGUL_S + ((a - HANGUL_L) * HANGUL_V_COUNT + (b - HANGUL_V)) * HANGUL_T_COUNT;
        return char::from_u32(s);
    }
    if (HANGUL_S..HANGUL_S + HANGUL_COUNT).contains(&a)
        && (a - HANGUL_S) % HANGUL_T_COUNT == 0
        && (HANGUL_T + 1..HANGUL_T + HANGUL_T_COUNT).contains(&b)
    {
        return char::from_u32(a + (b - HANGUL_T));
    }
    let a = u16::try_from(a).ok()?;
    // A second at or above the flag bit (a CJK ideograph, say) is in no row.
    let b = u16::try_from(b).ok().filter(|&b| b < COMPOSES)?;
    PAIRS
        .iter()
        .find(|&&(_, f, s)| f == a && s == (b | COMPOSES))
        .and_then(|&(p, ..)| char::from_u32(u32::from(p)))
}

/// `text` composed (NFC for the covered scripts).
pub(crate) fn nfc(text: &str) -> String {
    if text.is_ascii() {
        return text.to_string();
    }
    let decomposed: Vec<char> = nfd(text).chars().collect();
    let mut out: Vec<char> = Vec::with_capacity(decomposed.len());
    let mut starter: Option<usize> = None;
    let mut last_class = 0u8;
    for c in decomposed {
        let class = combining_class(c);
        if let Some(s) = starter {
            // A mark composes with the starter unless a mark of the same or
            // a higher class stands between them (then it is blocked).
            let blocked = out.len() > s + 1 && (last_class == 0 || last_class >= class);
            // Only marks (and Hangul vowels and finals) compose.
            let composable =
                class != 0 || (HANGUL_V..HANGUL_T + HANGUL_T_COUNT).contains(&u32::from(c));
            if !blocked && composable {
                if let Some(composed) = compose_pair(out[s], c) {
                    out[s] = composed;
                    continue;
                }
            }
        }
        if class == 0 {
            starter = Some(out.len());
            last_class = 0;
        } else {
            last_class = class;
        }
        out.push(c);
    }
    out.into_iter().collect()
}

/// Whether `text` has a character either conversion could change.
pub(crate) fn has_forms(text: &str) -> bool {
    !text.is_ascii()
        && text.chars().any(|c| {
            let cp = u32::from(c);
            cp >= 0xC0
                && (combining_class(c) != 0
                    || nfd(c.encode_utf8(&mut [0; 4])).len() != c.len_utf8()
                    || (0x1100..0x1200).contains(&cp))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_round_trip_on_covered_scripts() {
        let composed = "Café naïve Ελληνικά ёлка Việt Nam がぱ 한국어";
        let decomposed = nfd(composed);
        assert_ne!(decomposed, composed);
        assert!(decomposed.contains("e\u{301}"));
        assert!(decomposed.contains("e\u{323}\u{302}"), "canonical order");
        assert!(decomposed.contains("\u{1112}\u{1161}\u{11ab}"), "Hangul");
        assert_eq!(nfc(&decomposed), composed);
        assert_eq!(nfd(&decomposed), decomposed);
        // Marks typed out of canonical order compose the same way.
        assert_eq!(nfc("e\u{302}\u{323}"), "ệ");
        assert!(has_forms(composed));
        assert!(has_forms(&decomposed));
        assert!(!has_forms("plain ASCII, 中文, emoji 😀"));
        assert_eq!(nfc("中文 😀"), "中文 😀");
    }

    #[test]
    fn every_composing_row_round_trips_and_flags_stay_out_of_the_text() {
        let mut composing = 0;
        for &(precomposed, _, second) in PAIRS {
            let c = char::from_u32(u32::from(precomposed)).unwrap().to_string();
            let decomposed = nfd(&c);
            assert!(!decomposed
                .chars()
                .any(|d| u32::from(d) >= 0x8000 && u32::from(d) < 0xAC00));
            if second & COMPOSES != 0 {
                composing += 1;
                assert_eq!(nfc(&decomposed), c, "{precomposed:04X}");
            }
        }
        // 866 rows from Unicode 14, of which these compose back (the rest
        // are singletons and composition exclusions).
        assert_eq!((PAIRS.len(), composing), (866, 839));
        // A CJK ideograph whose code point has the flag bit composes with
        // nothing: U+8301 after `A` is not U+0301.
        assert_eq!(nfc("A\u{8301}"), "A\u{8301}");
        assert_eq!(combining_class('\u{8301}'), 0);
        assert_eq!(combining_class('😀'), 0);
    }
}
