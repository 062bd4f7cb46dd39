//! Elision markers: which snippet lines stand for unchanged code, in the
//! wordings models use and in the comment syntax of the file's language.
//!
//! A marker is a comment whose words say code is left out: dots (`// ...`,
//! `/* … */`, `# ... existing code ...`), or a short phrase without them
//! (`// rest of code unchanged`, `# existing code`, `{/* keep existing
//! code */}`), in any case. A comment that reads like one but is not
//! recognised (`// the rest stays the same as above ...?`) is reported, so
//! it is never written as code that replaces lines.

/// Comment syntaxes a file's language writes a marker in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Family {
    /// Unknown language: every syntax below.
    Any,
    /// `//`, `/* */` and JSX's `{/* */}` (C, C++, Java, JS, TS, Rust, Go…).
    Slash,
    /// `#` (Python, Ruby, shell, YAML, TOML…); Python's bare `...` is code.
    Hash { python: bool },
    /// `--` (SQL, Lua, Haskell).
    Dash,
    /// `;` (Lisps, INI).
    Semicolon,
    /// `<!-- -->` and the script syntaxes a markup file embeds.
    Markup,
    /// `//`, `/* */` and `#` (PHP).
    SlashHash,
}

impl Family {
    /// The family for a file path's extension or a language name
    /// (`typescript`, `py`, `src/app.tsx`); `Any` when neither says.
    pub(super) fn of(path: Option<&str>, language: Option<&str>) -> Family {
        let name = language
            .map(str::to_ascii_lowercase)
            .or_else(|| {
                let path = path?;
                let file = path.rsplit(['/', '\\']).next().unwrap_or(path);
                let lower = file.to_ascii_lowercase();
                match lower.as_str() {
                    "makefile" | "dockerfile" | "gemfile" | "rakefile" => Some(lower),
                    _ => lower.rsplit_once('.').map(|(_, ext)| ext.to_string()),
                }
            })
            .unwrap_or_default();
        match name.as_str() {
            "py" | "pyi" | "pyw" | "python" => Family::Hash { python: true },
            "rb" | "ruby" | "sh" | "bash" | "zsh" | "fish" | "shell" | "yaml" | "yml" | "toml"
            | "r" | "pl" | "perl" | "ps1" | "powershell" | "makefile" | "dockerfile"
            | "gemfile" | "rakefile" | "cmake" | "nim" | "ex" | "exs" | "elixir" | "jl"
            | "julia" | "tf" | "hcl" | "conf" | "cfg" | "coffee" => Family::Hash { python: false },
            "js" | "jsx" | "mjs" | "cjs" | "ts" | "tsx" | "mts" | "cts" | "javascript"
            | "typescript" | "c" | "h" | "cc" | "cpp" | "cxx" | "hpp" | "hh" | "c++" | "java"
            | "kt" | "kts" | "kotlin" | "go" | "golang" | "rs" | "rust" | "swift" | "cs"
            | "csharp" | "c#" | "scala" | "dart" | "groovy" | "gradle" | "zig" | "css" | "scss"
            | "less" | "sass" | "proto" | "m" | "mm" | "sol" | "json5" | "jsonc" => Family::Slash,
            "php" => Family::SlashHash,
            "sql" | "lua" | "hs" | "haskell" | "elm" | "ada" | "adb" | "ads" => Family::Dash,
            "clj" | "cljs" | "edn" | "el" | "lisp" | "scm" | "ss" | "rkt" | "ini" | "asm" | "s" => {
                Family::Semicolon
            }
            "html" | "htm" | "xml" | "svg" | "vue" | "svelte" | "astro" | "md" | "markdown"
            | "mdx" => Family::Markup,
            _ => Family::Any,
        }
    }

    /// The comment openers of the family, longest first.
    fn openers(self) -> &'static [&'static str] {
        match self {
            Family::Any => &["<!--", "{/*", "/*", "//", "#", "--", ";"],
            Family::Slash => &["{/*", "/*", "//"],
            Family::Hash { .. } => &["#"],
            Family::Dash => &["--"],
            Family::Semicolon => &[";"],
            Family::Markup => &["<!--", "{/*", "/*", "//"],
            Family::SlashHash => &["/*", "//", "#"],
        }
    }

    /// Whether a bare line of dots is a marker (in Python it is the
    /// `Ellipsis` statement).
    fn bare_dots(self) -> bool {
        self != Family::Hash { python: true }
    }
}

/// What a snippet line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum LineRole {
    /// Code (or a comment that is code: written as given).
    Code,
    /// An elision marker written with dots.
    Marker,
    /// A marker in words only (`// rest of code unchanged`): a marker unless
    /// the file holds the same comment, which then is code.
    PhraseMarker,
    /// A comment that reads like a marker but is not recognised as one.
    LooksLikeMarker,
}

/// The words a marker's comment may say besides its dots.
const SAYS_ELIDED: [&str; 14] = [
    "existing",
    "unchanged",
    "rest",
    "omitted",
    "same",
    "remaining",
    "previous",
    "other",
    "elided",
    "keep",
    "code",
    "snip",
    "unmodified",
    "before",
];

/// The comment's text without its opener and closer, or `None` when the
/// line is not a comment of the family.
fn comment_text(line: &str, family: Family) -> Option<&str> {
    let t = line.trim();
    let opener = family.openers().iter().find(|o| t.starts_with(**o))?;
    // `#` opens a comment, not `#[derive]`, `#include` or `#!`.
    if *opener == "#"
        && t[1..].starts_with(|c: char| c.is_ascii_alphanumeric() || "[!(".contains(c))
    {
        let rest = &t[1..];
        let dotted = rest.trim_start().starts_with("...") || rest.trim_start().starts_with('…');
        if !dotted {
            return None;
        }
    }
    let mut inner = &t[opener.len()..];
    for close in ["-->", "*/}", "*/"] {
        if let Some(rest) = inner.strip_suffix(close) {
            inner = rest;
            break;
        }
    }
    Some(inner.trim())
}

/// The words of a lower-cased comment, without brackets and punctuation.
fn words(lower: &str) -> Vec<String> {
    lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// Whether a comment's words, without dots, say code is left out:
/// `rest of (the) code|file|function|… (unchanged)`, `existing code`,
/// `… unchanged`, `… omitted`, `keep existing …`, `no changes`.
fn phrase_says_elided(words: &[String]) -> bool {
    if words.is_empty() || words.len() > 8 {
        return false;
    }
    let has = |w: &str| words.iter().any(|x| x == w);
    let pair = |a: &str, b: &str| words.windows(2).any(|p| p[0] == a && p[1] == b);
    pair("rest", "of")
        || pair("existing", "code")
        || pair("keep", "existing")
        || pair("no", "changes")
        || pair("remains", "unchanged")
        || pair("remain", "unchanged")
        || has("unchanged")
        || has("unmodified")
        || has("omitted")
        || has("elided")
}

/// What `line` is in a snippet for a file of `family`.
pub(super) fn role(line: &str, family: Family) -> LineRole {
    let t = line.trim();
    if t.is_empty() {
        return LineRole::Code;
    }
    // A bare line of dots.
    if t.chars().all(|c| c == '.' || c == '…') && (t.contains("...") || t == "…") {
        return if family.bare_dots() {
            LineRole::Marker
        } else {
            LineRole::Code
        };
    }
    let Some(inner) = comment_text(t, family) else {
        return LineRole::Code;
    };
    let lower = inner.to_lowercase();
    let words = words(&lower);
    let dotted = inner.contains("...") || inner.contains('…');
    if dotted {
        // Only dots, or words that say code is left out: `# Coming
        // soon...` is a heading, `// ... existing code (unchanged) ...` a
        // marker.
        if words.is_empty() || SAYS_ELIDED.iter().any(|w| lower.contains(w)) {
            return LineRole::Marker;
        }
        return LineRole::Code;
    }
    if phrase_says_elided(&words) {
        return LineRole::PhraseMarker;
    }
    let hints = [
        "existing",
        "unchanged",
        "rest of",
        "omitted",
        "remaining code",
        "same as before",
    ];
    if hints.iter().any(|h| lower.contains(h)) {
        return LineRole::LooksLikeMarker;
    }
    LineRole::Code
}

/// What `line` is in a snippet for a file of `family`, where a marker in
/// another language's comment syntax (`# ...` in a TypeScript file) reads
/// like a marker but is not one: refused rather than written as code.
/// Python's bare `...` stays code.
pub(super) fn role_in(line: &str, family: Family) -> LineRole {
    let own = role(line, family);
    if own != LineRole::Code || family == Family::Any {
        return own;
    }
    let t = line.trim();
    let bare_dots = t.chars().all(|c| c == '.' || c == '…');
    match role(line, Family::Any) {
        LineRole::Marker | LineRole::PhraseMarker if !bare_dots => LineRole::LooksLikeMarker,
        _ => LineRole::Code,
    }
}

/// Whether a snippet line stands for elided code in a file of any
/// language: a comment (`//`, `#`, `/* */`, `<!-- -->`, `--`, `;`) that
/// says so with dots (`// ... existing code ...`) or in words (`// rest
/// of code unchanged`), or a bare line of `...`.
pub fn is_elision_marker(line: &str) -> bool {
    matches!(
        role(line, Family::Any),
        LineRole::Marker | LineRole::PhraseMarker
    )
}

#[cfg(test)]
mod tests {
    use super::{is_elision_marker, role, Family, LineRole};

    #[test]
    fn markers_in_the_wordings_models_use() {
        for m in [
            "// ... existing code ...",
            "    # ...",
            "<!-- ... rest unchanged ... -->",
            "/* … */",
            "...",
            "-- ... existing rows ...",
            "    // ... existing code (unchanged) ...",
            "// rest of code unchanged",
            "# rest of the file unchanged",
            "// REST OF CODE UNCHANGED",
            "{/* ... */}",
            "{/* keep existing code */}",
            "// Existing code...",
            "// [rest of the function unchanged]",
            "// ...existing code...",
            "# existing code",
            "// other methods unchanged",
        ] {
            assert!(is_elision_marker(m), "{m}");
        }
        for not in [
            "x = f(...)",
            "// TODO: fix this",
            "print('...')",
            "a... = 1",
            "# Coming soon...",
            "- Loading...",
            "#[derive(Debug)]",
            "#include <stdio.h>",
            "// Compute the rest length",
        ] {
            assert!(!is_elision_marker(not), "{not}");
        }
    }

    #[test]
    fn the_language_picks_the_comment_syntax() {
        let py = Family::of(Some("src/app.py"), None);
        assert_eq!(role("# ... existing code ...", py), LineRole::Marker);
        assert_eq!(role("// ... existing code ...", py), LineRole::Code);
        assert_eq!(
            super::role_in("// ... existing code ...", py),
            LineRole::LooksLikeMarker
        );
        assert_eq!(super::role_in("    ...", py), LineRole::Code);
        // Python's `...` is the Ellipsis statement.
        assert_eq!(role("    ...", py), LineRole::Code);
        let ts = Family::of(None, Some("TypeScript"));
        assert_eq!(role("# ... existing code ...", ts), LineRole::Code);
        assert_eq!(role("{/* ... */}", ts), LineRole::Marker);
        assert_eq!(role("...", ts), LineRole::Marker);
        assert_eq!(
            Family::of(Some("Makefile"), None),
            Family::Hash { python: false }
        );
        assert_eq!(Family::of(Some("q.SQL"), None), Family::Dash);
        assert_eq!(Family::of(Some("README"), None), Family::Any);
    }

    #[test]
    fn comments_that_read_like_markers_are_told_apart() {
        assert_eq!(
            role("// keep the existing behaviour here", Family::Any),
            LineRole::LooksLikeMarker
        );
        assert_eq!(
            role("// rest of code unchanged", Family::Slash),
            LineRole::PhraseMarker
        );
        assert_eq!(role("// add one", Family::Slash), LineRole::Code);
    }
}
