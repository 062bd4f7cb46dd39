//! Uniform indentation shifts: inferred from (search indent, file indent)
//! pairs, then applied to the replacement's lines.
//!
//! Three shapes count as uniform, tried in this order:
//! - **add**: every file indent is a fixed prefix plus the search indent
//!   (`"  x"` → `"      x"`, or `"\t"` + search indent);
//! - **remove**: every search indent is a fixed prefix plus the file
//!   indent;
//! - **units**: both sides indent with one character each (spaces or tabs)
//!   in whole units, and every line's level differs by the same offset
//!   (2-space search against 4-space or tab file).
//!
//! - **columns**: measured in columns (a tab is `tab` columns wide, for
//!   one width of 4, 8 or 2), every file indent is the search indent plus
//!   the same number of columns — tabs and spaces converted unevenly, line
//!   by line, as models do (SPEC §6.8). Each line keeps the file's own
//!   characters; a new line is written in its neighbour's.
//!
//! Anything else (a line moved in or out relative to the others) is not a
//! uniform shift: the safe strategies refuse it, since in Python or YAML it
//! changes meaning.

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum IndentMap {
    Identity,
    Add(String),
    Remove(String),
    Units {
        from: char,
        from_unit: usize,
        to: char,
        to_unit: usize,
        offset: isize,
    },
    Columns {
        tab: usize,
        delta: isize,
        /// The file indents with tabs (new lines without a neighbour to
        /// copy use tabs too).
        tabs: bool,
    },
}

/// Width of `indent` in columns, a tab advancing to the next multiple of
/// `tab`.
pub(crate) fn columns(indent: &str, tab: usize) -> usize {
    indent.chars().fold(0, |col, c| {
        if c == '\t' {
            (col / tab + 1) * tab
        } else {
            col + 1
        }
    })
}

/// `cols` columns of indentation, with tabs (then spaces) or spaces only.
fn render_columns(cols: usize, tab: usize, tabs: bool) -> String {
    if tabs {
        let mut out = "\t".repeat(cols / tab);
        out.push_str(&" ".repeat(cols % tab));
        out
    } else {
        " ".repeat(cols)
    }
}

/// `Some(c)` when `indent` is empty or made of `c` only.
fn pure(indent: &str) -> Option<Option<char>> {
    let mut chars = indent.chars();
    match chars.next() {
        None => Some(None),
        Some(c) => chars.all(|d| d == c).then_some(Some(c)),
    }
}

fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

impl IndentMap {
    /// The uniform shift taking every `search` indent to its `file` indent,
    /// if there is one. No pairs means identity.
    pub(crate) fn infer(pairs: &[(&str, &str)]) -> Option<IndentMap> {
        let Some(&(s0, f0)) = pairs.first() else {
            return Some(IndentMap::Identity);
        };
        if pairs.iter().all(|(s, f)| s == f) {
            return Some(IndentMap::Identity);
        }
        if let Some(p) = f0.strip_suffix(s0) {
            if pairs.iter().all(|(s, f)| f.strip_suffix(s) == Some(p)) {
                return Some(IndentMap::Add(p.to_string()));
            }
        }
        if let Some(p) = s0.strip_suffix(f0) {
            if pairs.iter().all(|(s, f)| s.strip_suffix(f) == Some(p)) {
                return Some(IndentMap::Remove(p.to_string()));
            }
        }
        Self::infer_units(pairs).or_else(|| Self::infer_columns(pairs))
    }

    fn infer_columns(pairs: &[(&str, &str)]) -> Option<IndentMap> {
        let signed = |n: usize| isize::try_from(n).unwrap_or(isize::MAX);
        [4usize, 8, 2].into_iter().find_map(|tab| {
            let mut deltas = pairs
                .iter()
                .map(|(s, f)| signed(columns(f, tab)) - signed(columns(s, tab)));
            let delta = deltas.next()?;
            deltas.all(|d| d == delta).then(|| IndentMap::Columns {
                tab,
                delta,
                tabs: pairs.iter().any(|(_, f)| f.contains('\t')),
            })
        })
    }

    /// `indent` as the file would write it on a line next to the file line
    /// indented `like`, among the file lines `region`: the columns shift
    /// copies the characters of a region line at the same column (`like`'s
    /// first), else continues the deepest shallower one (`like`'s first)
    /// in its own style — tabs after a tab, spaces after a space — so a
    /// block that mixes tabs and spaces stays consistent (Python refuses
    /// one that mixes them differently from line to line). Every other
    /// shape ignores `like` and `region`.
    pub(crate) fn apply_like(&self, indent: &str, like: &str, region: &[&str]) -> Option<String> {
        let IndentMap::Columns { tab, delta, .. } = self else {
            return self.apply(indent);
        };
        let tab = *tab;
        let cols = usize::try_from(isize::try_from(columns(indent, tab)).ok()? + delta).ok()?;
        let indents = std::iter::once(like).chain(
            region
                .iter()
                .filter(|l| !l.trim().is_empty())
                .map(|l| &l[..l.len() - l.trim_start().len()]),
        );
        let mut base: Option<(&str, usize)> = None;
        for i in indents {
            let c = columns(i, tab);
            if c == cols {
                return Some(i.to_string());
            }
            if c < cols && base.is_none_or(|(_, b)| c > b) {
                base = Some((i, c));
            }
        }
        let (base, at) = base.unwrap_or(("", 0));
        let tabs = match base.chars().last() {
            Some(c) => c == '\t',
            None => like.starts_with('\t'),
        };
        let extra = cols - at;
        let mut out = base.to_string();
        if tabs && at % tab == 0 {
            out.push_str(&render_columns(extra, tab, true));
        } else {
            out.push_str(&" ".repeat(extra));
        }
        Some(out)
    }

    fn infer_units(pairs: &[(&str, &str)]) -> Option<IndentMap> {
        let (mut from, mut to) = (None, None);
        let (mut from_unit, mut to_unit) = (0usize, 0usize);
        for &(s, f) in pairs {
            for (indent, ch, unit) in [(s, &mut from, &mut from_unit), (f, &mut to, &mut to_unit)] {
                match pure(indent)? {
                    None => {}
                    Some(c) => {
                        if ch.is_some_and(|x| x != c) {
                            return None;
                        }
                        *ch = Some(c);
                        *unit = gcd(*unit, indent.len() / c.len_utf8());
                    }
                }
            }
        }
        let (from, to) = (from?, to.unwrap_or(' '));
        if from_unit == 0 {
            return None;
        }
        let level = |indent: &str, c: char, unit: usize| -> isize {
            (indent.len() / c.len_utf8())
                .checked_div(unit)
                .map_or(0, |l| isize::try_from(l).unwrap_or(isize::MAX))
        };
        let mut offset = None;
        for &(s, f) in pairs {
            let d = level(f, to, to_unit) - level(s, from, from_unit);
            if offset.is_some_and(|o| o != d) {
                return None;
            }
            offset = Some(d);
        }
        let to_unit = if to_unit == 0 { 1 } else { to_unit };
        Some(IndentMap::Units {
            from,
            from_unit,
            to,
            to_unit,
            offset: offset.unwrap_or(0),
        })
    }

    /// `indent` as the file would write it; `None` when the shift cannot
    /// express it (less indented than the removed prefix, mixed characters,
    /// a negative level).
    pub(crate) fn apply(&self, indent: &str) -> Option<String> {
        match self {
            IndentMap::Identity => Some(indent.to_string()),
            IndentMap::Add(p) => Some(format!("{p}{indent}")),
            IndentMap::Remove(p) => indent.strip_prefix(p.as_str()).map(str::to_string),
            IndentMap::Units {
                from,
                from_unit,
                to,
                to_unit,
                offset,
            } => {
                let count = match pure(indent)? {
                    None => 0,
                    Some(c) if c == *from => indent.len() / c.len_utf8(),
                    Some(_) => return None,
                };
                let level = isize::try_from(count / from_unit).ok()? + offset;
                let rest = count % from_unit;
                let level = usize::try_from(level).ok()?;
                let mut out = to.to_string().repeat(level.checked_mul(*to_unit)?);
                out.push_str(&from.to_string().repeat(rest));
                Some(out)
            }
            IndentMap::Columns { tab, delta, tabs } => {
                let cols = isize::try_from(columns(indent, *tab)).ok()? + delta;
                Some(render_columns(usize::try_from(cols).ok()?, *tab, *tabs))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_prefixes_are_preferred() {
        let m = IndentMap::infer(&[("", "    "), ("  ", "      ")]).unwrap();
        assert_eq!(m, IndentMap::Add("    ".into()));
        assert_eq!(m.apply("\t").unwrap(), "    \t");
        let m = IndentMap::infer(&[("    ", ""), ("      ", "  ")]).unwrap();
        assert_eq!(m, IndentMap::Remove("    ".into()));
        assert_eq!(m.apply("  "), None, "less indented than the removed prefix");
        assert_eq!(
            IndentMap::infer(&[("  ", "  ")]).unwrap(),
            IndentMap::Identity
        );
    }

    #[test]
    fn unit_changes_map_levels() {
        let m = IndentMap::infer(&[("  ", "    "), ("    ", "        ")]).unwrap();
        assert_eq!(m.apply("      ").unwrap(), " ".repeat(12));
        let m = IndentMap::infer(&[("  ", "\t"), ("    ", "\t\t")]).unwrap();
        assert_eq!(m.apply("      ").unwrap(), "\t\t\t");
        assert_eq!(
            m.apply("   ").unwrap(),
            "\t ",
            "alignment spaces kept after the levels"
        );
        assert_eq!(m.apply("\t"), None);
    }

    #[test]
    fn non_uniform_changes_are_not_a_shift() {
        assert_eq!(
            IndentMap::infer(&[("", "  "), ("", "    "), ("", "  ")]),
            None
        );
        assert_eq!(IndentMap::infer(&[("    ", "    "), ("   ", "\t")]), None);
    }

    #[test]
    fn uneven_tab_conversions_are_a_column_shift() {
        let map = IndentMap::infer(&[("\t", "    "), ("        ", "\t\t"), ("\t  ", "\t  ")]);
        assert_eq!(
            map,
            Some(IndentMap::Columns {
                tab: 4,
                delta: 0,
                tabs: true
            })
        );
        let map = map.unwrap();
        assert_eq!(
            map.apply_like("            ", "\t\t", &[]).as_deref(),
            Some("\t\t\t")
        );
        assert_eq!(
            map.apply_like("\t\t", "    ", &[]).as_deref(),
            Some("        ")
        );
        // A block that mixes a tab and spaces is continued in its own
        // characters: the same column copies a line, a deeper one adds
        // spaces after the spaces (`\t\t` would be a Python TabError).
        let region = ["\tif x:", "\t    y = 1"];
        assert_eq!(
            map.apply_like("        ", "\t    ", &region).as_deref(),
            Some("\t    ")
        );
        assert_eq!(
            map.apply_like("            ", "\t    ", &region).as_deref(),
            Some("\t        ")
        );
        // A line moved in relative to the others is still not a shift.
        assert_eq!(IndentMap::infer(&[("\t", "    "), ("\t", "      ")]), None);
    }
}
