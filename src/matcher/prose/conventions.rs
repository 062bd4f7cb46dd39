//! The writing conventions of a piece of prose, read from its units: what
//! new text takes so that it reads like the text around it (issue 36:
//! "new text in the file's conventions").
//!
//! Each convention is the majority of what the text shows, or unknown when
//! it shows none; the span of an edit is asked first and the whole file
//! second ([`Conventions::or`]).

use super::{Class, Gap, Prose, BULLET};

#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Conventions {
    /// A space between CJK and Latin text.
    pub cjk_latin_space: Option<bool>,
    /// Full-width punctuation after CJK text.
    pub full_width: Option<bool>,
    /// Curly double quotes, next to CJK text and elsewhere.
    pub curly_quotes_cjk: Option<bool>,
    pub curly_quotes_latin: Option<bool>,
    /// `’` inside words.
    pub curly_apostrophe: Option<bool>,
    /// `**` or `__`; `*` or `_`.
    pub strong: Option<&'static str>,
    pub emphasis: Option<&'static str>,
    /// `-`, `*` or `+`.
    pub bullet: Option<char>,
    /// `<br>`, `<br/>` or `<br />`.
    pub br: Option<&'static str>,
    /// Hard breaks as a backslash (else two spaces).
    pub backslash_break: Option<bool>,
}

/// Counts of two alternatives; the majority, `None` when neither was seen.
#[derive(Clone, Copy, Default)]
struct Vote(u32, u32);

impl Vote {
    fn add(&mut self, first: bool) {
        if first {
            self.0 += 1;
        } else {
            self.1 += 1;
        }
    }

    fn first_wins(self) -> Option<bool> {
        (self.0 + self.1 > 0).then_some(self.0 >= self.1)
    }
}

/// What a text shows, counted unit by unit.
#[derive(Default)]
struct Votes {
    space: Vote,
    width: Vote,
    quotes_cjk: Vote,
    quotes_latin: Vote,
    apostrophe: Vote,
    strong: Vote,
    emphasis: Vote,
    hard: Vote,
    /// `<br>`, `<br/>`, `<br />`.
    br: [u32; 3],
    /// `-`, `*`, `+`.
    bullets: [u32; 3],
}

impl Votes {
    /// Counts unit `i` and the gap before it.
    fn count(&mut self, prose: &Prose<'_>, i: usize) {
        let u = &prose.units[i];
        let text = prose.unit_text(i);
        let class = |k: usize| prose.units.get(k).map(|u| u.class);
        let prev = i.checked_sub(1).and_then(class);
        let cjk_side = prev == Some(Class::Cjk) || class(i + 1) == Some(Class::Cjk);
        if i > 0 {
            if matches!(
                (prev, u.class),
                (Some(Class::Cjk), Class::Word) | (Some(Class::Word), Class::Cjk)
            ) {
                match prose.gaps[i] {
                    Gap::None => self.space.add(false),
                    Gap::Soft if !prose.gap_text(i).contains('\n') => self.space.add(true),
                    _ => {}
                }
            }
            if prose.gaps[i] == Gap::Hard {
                self.hard.add(prose.gap_text(i).contains('\\'));
            }
        }
        match u.class {
            Class::Punct if u.key == "\"" => {
                let curly = text != "\"";
                if cjk_side {
                    self.quotes_cjk.add(curly);
                } else {
                    self.quotes_latin.add(curly);
                }
            }
            Class::Punct
                if prev == Some(Class::Cjk)
                    && super::WIDTH_PAIRS
                        .iter()
                        .any(|&(_, h)| u.key.starts_with(h)) =>
            {
                self.width.add(text.chars().any(super::is_full_width));
            }
            Class::Word if u.key.contains('\'') => self.apostrophe.add(text.contains('’')),
            Class::Markup if text == "**" || text == "__" => self.strong.add(text == "**"),
            Class::Markup if text == "*" || text == "_" => self.emphasis.add(text == "*"),
            Class::Markup => {
                if let Some(k) = ["<br>", "<br/>", "<br />"].iter().position(|t| *t == text) {
                    self.br[k] += 1;
                }
            }
            Class::LineMarker if u.key == BULLET => {
                if let Some(k) = ["-", "*", "+"].iter().position(|t| *t == text) {
                    self.bullets[k] += 1;
                }
            }
            _ => {}
        }
    }
}

/// The index of the largest count, `None` when all are zero (ties go to
/// the first).
fn most(counts: &[u32; 3]) -> Option<usize> {
    let best = counts.iter().copied().max().unwrap_or(0);
    (best > 0).then(|| counts.iter().position(|&c| c == best).unwrap_or(0))
}

impl Conventions {
    pub(crate) fn of(prose: &Prose<'_>) -> Conventions {
        let mut v = Votes::default();
        for i in 0..prose.units.len() {
            v.count(prose, i);
        }
        Conventions {
            cjk_latin_space: v.space.first_wins(),
            full_width: v.width.first_wins(),
            curly_quotes_cjk: v.quotes_cjk.first_wins(),
            curly_quotes_latin: v.quotes_latin.first_wins(),
            curly_apostrophe: v.apostrophe.first_wins(),
            strong: v.strong.first_wins().map(|s| if s { "**" } else { "__" }),
            emphasis: v.emphasis.first_wins().map(|s| if s { "*" } else { "_" }),
            bullet: most(&v.bullets).map(|k| ['-', '*', '+'][k]),
            br: most(&v.br).map(|k| ["<br>", "<br/>", "<br />"][k]),
            backslash_break: v.hard.first_wins(),
        }
    }

    /// Each convention from `self`, else from `other`.
    pub(crate) fn or(self, other: Conventions) -> Conventions {
        Conventions {
            cjk_latin_space: self.cjk_latin_space.or(other.cjk_latin_space),
            full_width: self.full_width.or(other.full_width),
            curly_quotes_cjk: self.curly_quotes_cjk.or(other.curly_quotes_cjk),
            curly_quotes_latin: self.curly_quotes_latin.or(other.curly_quotes_latin),
            curly_apostrophe: self.curly_apostrophe.or(other.curly_apostrophe),
            strong: self.strong.or(other.strong),
            emphasis: self.emphasis.or(other.emphasis),
            bullet: self.bullet.or(other.bullet),
            br: self.br.or(other.br),
            backslash_break: self.backslash_break.or(other.backslash_break),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Conventions, Prose};

    #[test]
    fn the_majority_of_what_the_text_shows() {
        let c = Conventions::of(&Prose::of(
            "使用 Git 提交，再用 npm 发布。\n\n- it’s **done**\n- “quoted”<br />\n",
            true,
        ));
        assert_eq!(c.cjk_latin_space, Some(true));
        assert_eq!(c.full_width, Some(true));
        assert_eq!(c.curly_apostrophe, Some(true));
        assert_eq!(c.curly_quotes_latin, Some(true));
        assert_eq!(c.strong, Some("**"));
        assert_eq!(c.bullet, Some('-'));
        assert_eq!(c.br, Some("<br />"));
        assert_eq!(c.emphasis, None);
        let c = Conventions::of(&Prose::of("使用Git提交,完成.\n\n* __a__\n", true));
        assert_eq!(c.cjk_latin_space, Some(false));
        assert_eq!(c.full_width, Some(false));
        assert_eq!(c.strong, Some("__"));
        assert_eq!(c.bullet, Some('*'));
    }
}
