//! The hunk registry: live plans, their owners and their expiry.
//!
//! Time comes from the caller (`now_ms`, the host's clock); ids are the
//! session prefix plus a base-36 counter, so no clock or entropy is read
//! here. Plans are kept in a `BTreeMap` by id: a listing of live plans comes
//! in the same order on every run.
//! Expired and applied ids are remembered (the last [`MAX_RETIRED`]) so a
//! late apply hears "expired" or "already applied" rather than a bare "not
//! found".

use std::collections::{BTreeMap, VecDeque};

use super::types::{PlanAction, PlanMode};

/// How many retired ids are remembered for better error messages.
const MAX_RETIRED: usize = 1024;

/// Longest id prefix kept.
const MAX_PREFIX_CHARS: usize = 16;

/// What the plan was made on.
#[derive(Clone, Debug)]
pub(crate) struct Base {
    pub digest: u64,
    pub bytes: usize,
    pub existed: bool,
    pub line_count: usize,
}

/// A change to located lines: the `core` lines must be found (at
/// `core_start` for an exact match); then `del_count` lines starting
/// `del_offset` lines into the core are replaced by the new text.
#[derive(Clone, Debug)]
pub(crate) struct LinesEdit {
    pub core_start: usize,
    pub core: Vec<String>,
    /// Up to 3 lines right before the core, in file order.
    pub before: Vec<String>,
    /// Up to 3 lines right after the core.
    pub after: Vec<String>,
    /// The core started within 3 lines of the top: the file's start is
    /// part of its context.
    pub bof: bool,
    /// The core ended within 3 lines of the bottom.
    pub eof: bool,
    pub del_offset: usize,
    pub del_count: usize,
    /// The window (context before, core, context after) also stood at
    /// another place of the planned-on file, as written: once the file
    /// changed, one place left of the two may be the other one, so the
    /// window found at one other place is not taken.
    pub twin_as_written: bool,
    /// The same under the matcher's loosest safe normalisation (fold keys:
    /// indentation, inner spacing, typographic characters): a window found
    /// reformatted is not taken.
    pub twin_when_folded: bool,
}

impl LinesEdit {
    /// Context elements a location can agree with (lines and file edges).
    pub fn context_total(&self) -> usize {
        self.before.len() + self.after.len() + usize::from(self.bof) + usize::from(self.eof)
    }
}

#[derive(Clone, Debug)]
pub(crate) enum PlannedEdit {
    /// Text added at the end of the file (append tool; range `N~` with
    /// N = last + 1). `create`: the file may be absent.
    Append {
        create: bool,
    },
    /// A range edit on an empty file (its one, empty, line).
    EmptyFile,
    Lines(LinesEdit),
}

/// What `apply` reports besides the location.
#[derive(Clone, Debug)]
pub(crate) enum HunkInfo {
    Range,
    Append,
    Insert {
        position: super::types::Position,
        anchor: String,
    },
    Block,
}

#[derive(Clone, Debug)]
pub(crate) struct Hunk {
    pub id: String,
    pub seq: u64,
    pub owner: String,
    pub path: String,
    pub mode: PlanMode,
    pub action: PlanAction,
    pub created_at_ms: f64,
    pub expires_at_ms: f64,
    pub new_text: String,
    pub base: Base,
    pub edit: PlannedEdit,
    pub info: HunkInfo,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Retired {
    Applied,
    Expired,
}

/// Why a lookup failed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum LookupError {
    NotFound { retired: Option<Retired> },
    WrongOwner,
}

pub(crate) struct Registry {
    hunks: BTreeMap<String, Hunk>,
    retired: VecDeque<(String, Retired, String)>,
    next_seq: u64,
    prefix: String,
    pub ttl_ms: f64,
}

impl Registry {
    pub fn new(prefix: &str, ttl_ms: f64) -> Self {
        Registry {
            hunks: BTreeMap::new(),
            retired: VecDeque::new(),
            next_seq: 1,
            prefix: sanitize_prefix(prefix),
            ttl_ms,
        }
    }

    /// A fresh id and its sequence number.
    pub fn next_id(&mut self) -> (String, u64) {
        let seq = self.next_seq;
        self.next_seq = self.next_seq.saturating_add(1);
        (format!("{}-{}", self.prefix, base36(seq)), seq)
    }

    /// Moves every plan whose time is up (`now >= expires`) to the
    /// retired list.
    pub fn purge(&mut self, now_ms: f64) {
        let (expired, live) = std::mem::take(&mut self.hunks)
            .into_iter()
            .partition::<BTreeMap<_, _>, _>(|(_, h)| now_ms >= h.expires_at_ms);
        self.hunks = live;
        for h in expired.into_values() {
            self.retire(h.id, Retired::Expired, h.path);
        }
    }

    fn retire(&mut self, id: String, why: Retired, path: String) {
        if self.retired.len() >= MAX_RETIRED {
            self.retired.pop_front();
        }
        self.retired.push_back((id, why, path));
    }

    /// The path of a live or recently retired plan (for error YAML).
    pub fn path_of(&self, id: &str) -> Option<&str> {
        match self.get(id) {
            Some(h) => Some(&h.path),
            None => self
                .retired
                .iter()
                .rev()
                .find(|(r, ..)| r == id)
                .map(|(.., path)| path.as_str()),
        }
    }

    /// The live plan `id` if `owner` made it. Call [`Registry::purge`]
    /// first so expired plans are reported as such.
    pub fn lookup(&self, id: &str, owner: &str) -> Result<&Hunk, LookupError> {
        match self.get(id) {
            Some(h) if h.owner == owner => Ok(h),
            Some(_) => Err(LookupError::WrongOwner),
            None => {
                let retired = self
                    .retired
                    .iter()
                    .rev()
                    .find(|(r, ..)| r == id)
                    .map(|(_, why, _)| *why);
                Err(LookupError::NotFound { retired })
            }
        }
    }

    pub fn get(&self, id: &str) -> Option<&Hunk> {
        self.hunks.get(id)
    }

    /// Adds a plan, or replaces the one with its id.
    pub fn insert(&mut self, hunk: Hunk) {
        self.hunks.insert(hunk.id.clone(), hunk);
    }

    /// Removes an applied plan; a retry of its id gets `HUNK_NOT_FOUND`.
    pub fn consume(&mut self, id: &str) {
        if let Some(h) = self.hunks.remove(id) {
            self.retire(h.id, Retired::Applied, h.path);
        }
    }

    /// The live plans in id order.
    pub fn live(&self) -> impl Iterator<Item = &Hunk> {
        self.hunks.values()
    }

    pub fn live_mut(&mut self) -> impl Iterator<Item = &mut Hunk> {
        self.hunks.values_mut()
    }
}

/// Keeps ASCII letters, digits, `_` and `-` (at most 16); `h` when none.
pub(crate) fn sanitize_prefix(prefix: &str) -> String {
    let kept: String = prefix
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
        .take(MAX_PREFIX_CHARS)
        .collect();
    if kept.is_empty() {
        "h".to_string()
    } else {
        kept
    }
}

/// Lowercase base 36.
pub(crate) fn base36(mut n: u64) -> String {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    if n == 0 {
        return "0".to_string();
    }
    let mut out = Vec::new();
    while n > 0 {
        out.push(DIGITS[(n % 36) as usize]);
        n /= 36;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// An id prefix from the host's clock: `now_ms` (integer part) in base 36,
/// e.g. `1767225600000` → `"mjupbj40"`. Negative or non-finite → `"0"`.
pub fn id_prefix_from_now(now_ms: f64) -> String {
    if now_ms.is_finite() && now_ms >= 0.0 {
        base36(now_ms.min(9.0e15) as u64)
    } else {
        "0".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_prefix_and_counter() {
        let mut r = Registry::new("ab c!é-9", 10.0);
        assert_eq!(r.next_id(), ("abc-9-1".to_string(), 1));
        assert_eq!(r.next_id().0, "abc-9-2");
        assert_eq!(Registry::new("", 1.0).next_id().0, "h-1");
        assert_eq!(base36(35), "z");
        assert_eq!(base36(36), "10");
        assert_eq!(
            id_prefix_from_now(1_767_225_600_000.0),
            base36(1_767_225_600_000)
        );
        assert_eq!(id_prefix_from_now(f64::NAN), "0");
    }

    fn hunk(id: &str, expires_at_ms: f64) -> Hunk {
        Hunk {
            id: id.to_string(),
            seq: 0,
            owner: "o".to_string(),
            path: format!("{id}.txt"),
            mode: PlanMode::PrepareFileAppend,
            action: PlanAction::Append,
            created_at_ms: 0.0,
            expires_at_ms,
            new_text: String::new(),
            base: Base {
                digest: 0,
                bytes: 0,
                existed: true,
                line_count: 0,
            },
            edit: PlannedEdit::Append { create: false },
            info: HunkInfo::Append,
        }
    }

    fn live_ids(r: &Registry) -> Vec<&str> {
        r.live().map(|h| h.id.as_str()).collect()
    }

    /// Plans are listed in id order whatever order they were made in, a plan made again under its id replaces
    /// it, and applied or expired plans leave the list.
    #[test]
    fn plans_are_kept_in_id_order() {
        let mut r = Registry::new("h", 10.0);
        for (id, expires) in [("h-b", 5.0), ("h-10", 50.0), ("h-2", 5.0), ("h-a", 50.0)] {
            r.insert(hunk(id, expires));
        }
        assert_eq!(live_ids(&r), ["h-10", "h-2", "h-a", "h-b"]);
        let mut again = hunk("h-2", 50.0);
        again.new_text = "second".to_string();
        r.insert(again);
        assert_eq!(live_ids(&r), ["h-10", "h-2", "h-a", "h-b"]);
        assert_eq!(r.get("h-2").map(|h| h.new_text.as_str()), Some("second"));
        assert!(r.get("h-3").is_none());
        r.consume("h-10");
        r.consume("h-10");
        r.purge(5.0);
        assert_eq!(live_ids(&r), ["h-2", "h-a"]);
        assert_eq!(
            r.lookup("h-10", "o").err(),
            Some(LookupError::NotFound {
                retired: Some(Retired::Applied)
            })
        );
        assert_eq!(
            r.lookup("h-b", "o").err(),
            Some(LookupError::NotFound {
                retired: Some(Retired::Expired)
            })
        );
        assert_eq!(r.path_of("h-b"), Some("h-b.txt"));
        assert_eq!(r.lookup("h-a", "x").err(), Some(LookupError::WrongOwner));
    }
}
