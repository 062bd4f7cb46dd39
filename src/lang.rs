//! The language of every message a person or an agent reads.

crate::wire::wire_enum! {
/// `en` (default) or `zh`. Every message editkit renders exists in both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    /// English (the default).
    #[default]
    En = "en",
    /// Simplified Chinese.
    Zh = "zh",
}
}

impl Lang {
    /// Picks the text for this language; both are written at the call site
    /// so a message and its translation never drift apart.
    #[inline]
    pub fn pick<T>(self, en: T, zh: T) -> T {
        match self {
            Lang::En => en,
            Lang::Zh => zh,
        }
    }

    /// Parses `"en"`/`"zh"` (case-insensitive; `zh-CN`, `zh_TW` count as zh).
    pub fn parse(s: &str) -> Option<Lang> {
        let lower = s.trim().to_ascii_lowercase();
        if lower == "en" || lower.starts_with("en-") || lower.starts_with("en_") {
            Some(Lang::En)
        } else if lower == "zh" || lower.starts_with("zh-") || lower.starts_with("zh_") {
            Some(Lang::Zh)
        } else {
            None
        }
    }
}
