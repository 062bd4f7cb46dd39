//! The regular expressions of `match: "regex"` anchors: is this pattern
//! found in this line?
//!
//! A pattern is parsed into a tree, compiled into a Thompson NFA and run
//! as a Pike VM over the line's characters: linear in pattern × line, no
//! backtracking, so no pattern can take exponential time. It replaced
//! `regex-lite` for size (docs/PERFORMANCE.md cut 32), and it matches
//! exactly as `regex-lite` does wherever it accepts a pattern (a property
//! test holds the two together): ASCII `\d`, `\w`, `\s` and `\b`, ASCII
//! case folding under `(?i)` (range by range, as `regex-lite` folds), `.`
//! any character but `\n`.
//!
//! The syntax is `regex-lite`'s less a few rare forms, which are refused
//! with a message saying which (never read differently): nested classes,
//! POSIX classes and class set operations (`[[:alpha:]]`, `[a&&b]`),
//! `\x`/`\u` escapes, verbose mode `(?x)`, repeated assertions (`^*`),
//! a repetition of a repetition, counts over 1,000, and patterns past the
//! size and nesting limits below. Lines have no line break, so `(?m)` and
//! `(?s)` change nothing and are accepted.

use std::cell::RefCell;

/// Why a pattern was refused: the words, for the `INVALID_REGEX` message.
#[derive(Debug, PartialEq)]
pub(crate) struct RegexError(pub String);

impl std::fmt::Display for RegexError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A compiled pattern.
#[derive(Debug)]
pub(crate) struct Regex {
    program: Vec<Inst>,
    /// The sets `Inst::Set` names: sorted, merged ranges, and negation.
    sets: Vec<(Vec<(char, char)>, bool)>,
    /// The thread lists, kept between lines.
    scratch: RefCell<Option<Scratch>>,
}

/// Largest count of a counted repetition (`a{1000}`).
const MAX_COUNT: u32 = 1_000;
/// Most instructions a pattern compiles to, most character ranges those
/// test in all, and most tree nodes the compiler visits (an empty body
/// repeated compiles to nothing but is still visited): each below what
/// `regex-lite` accepted at the 1 MB program size editkit gave it.
const MAX_PROGRAM: usize = 5_000;
const MAX_RANGES: usize = 20_000;
const MAX_VISITS: usize = 20_000;
/// Deepest nesting, counted at least as `regex-lite` counts it.
const MAX_NESTING: u32 = 50;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Look {
    Start,
    End,
    WordBoundary,
    NotWordBoundary,
}

#[derive(Clone, Debug)]
enum Node {
    Empty,
    /// A character of the parser's set `n`.
    Set(usize),
    Look(Look),
    Concat(Vec<Node>),
    Alt(Vec<Node>),
    Repeat {
        node: Box<Node>,
        min: u32,
        max: Option<u32>,
    },
    /// A capturing group: no effect on matching, one level of nesting.
    Capture(Box<Node>),
}

#[derive(Clone, Debug)]
enum Inst {
    /// A character of set `n`.
    Set(usize),
    Look(Look),
    /// Go on at both.
    Split(usize, usize),
    Jump(usize),
    Match,
}

fn refuse<T>(what: &str) -> Result<T, RegexError> {
    Err(RegexError(what.to_string()))
}

const DIGIT: &[(char, char)] = &[('0', '9')];
const WORD: &[(char, char)] = &[('0', '9'), ('A', 'Z'), ('_', '_'), ('a', 'z')];
const SPACE: &[(char, char)] = &[('\t', '\r'), (' ', ' ')];

fn is_word(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `ranges` with ASCII case folded as `regex-lite` folds it, range by
/// range: one reaching into `a`–`z` gains those letters in upper case,
/// else one reaching into `A`–`Z` gains them in lower case (so `[Z-a]`
/// gains `A` only).
fn fold_case(ranges: &mut Vec<(char, char)>) {
    let mut extra = Vec::new();
    for &(lo, hi) in ranges.iter() {
        for (from, to, shift) in [('a', 'z', -32i32), ('A', 'Z', 32)] {
            let (a, b) = (lo.max(from), hi.min(to));
            if a <= b {
                let moved = |c: char| char::from_u32((c as i32 + shift) as u32).unwrap_or(c);
                extra.push((moved(a), moved(b)));
                break;
            }
        }
    }
    ranges.extend(extra);
}

/// `ranges` sorted, overlapping and touching ones merged.
fn canonical(mut ranges: Vec<(char, char)>) -> Vec<(char, char)> {
    crate::sort::sort(&mut ranges);
    let mut out: Vec<(char, char)> = Vec::with_capacity(ranges.len());
    for (lo, hi) in ranges {
        match out.last_mut() {
            Some(last) if lo as u32 <= last.1 as u32 + 1 => last.1 = last.1.max(hi),
            _ => out.push((lo, hi)),
        }
    }
    out
}

/// The complement of `ranges` over all characters.
fn complement(ranges: &[(char, char)]) -> Vec<(char, char)> {
    let mut out = Vec::new();
    let mut next = 0u32;
    for (lo, hi) in canonical(ranges.to_vec()) {
        if (lo as u32) > next {
            out.extend(span(next, lo as u32 - 1));
        }
        next = next.max(hi as u32 + 1);
    }
    out.extend(span(next, char::MAX as u32));
    out
}

/// `lo..=hi` as character ranges, around the surrogate gap.
fn span(lo: u32, hi: u32) -> Vec<(char, char)> {
    let mut out = Vec::new();
    for (a, b) in [(lo, hi.min(0xD7FF)), (lo.max(0xE000), hi)] {
        if let (Some(a), Some(b)) = (char::from_u32(a), char::from_u32(b)) {
            if a <= b {
                out.push((a, b));
            }
        }
    }
    out
}

/// Whether `\c` may stand for `c` itself (`regex-lite`'s rule: any ASCII
/// punctuation but `<` and `>`).
fn is_escapable(c: char) -> bool {
    c.is_ascii() && !c.is_ascii_alphanumeric() && c != '<' && c != '>'
}

struct Parser<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    case_insensitive: bool,
    /// Every set the pattern names, stored once however often a
    /// repetition compiles it.
    sets: Vec<(Vec<(char, char)>, bool)>,
    names: Vec<String>,
}

impl Parser<'_> {
    fn eat(&mut self, c: char) -> bool {
        self.chars.next_if_eq(&c).is_some()
    }

    fn set(&mut self, ranges: Vec<(char, char)>, negated: bool) -> Node {
        self.sets.push((canonical(ranges), negated));
        Node::Set(self.sets.len() - 1)
    }

    /// Alternatives up to `)` (inside a group) or the end.
    fn alternation(&mut self, depth: u32) -> Result<Node, RegexError> {
        if depth > MAX_NESTING {
            return refuse("exceed the maximum number of nested parentheses/brackets");
        }
        // A flag group `(?i)` lasts to the end of the group it is in.
        let outer = self.case_insensitive;
        let mut branches = vec![self.concat(depth)?];
        while self.eat('|') {
            branches.push(self.concat(depth)?);
        }
        self.case_insensitive = outer;
        Ok(if branches.len() == 1 {
            branches.pop().unwrap_or(Node::Empty)
        } else {
            Node::Alt(branches)
        })
    }

    fn concat(&mut self, depth: u32) -> Result<Node, RegexError> {
        let mut items = Vec::new();
        while let Some(&c) = self.chars.peek() {
            if c == '|' || c == ')' {
                break;
            }
            let atom = self.atom(depth)?;
            let atom = self.repetition(atom)?;
            items.push(atom);
        }
        Ok(Node::Concat(items))
    }

    fn repetition(&mut self, atom: Node) -> Result<Node, RegexError> {
        let (min, max) = match self.chars.peek() {
            Some('*') => (0, None),
            Some('+') => (1, None),
            Some('?') => (0, Some(1)),
            Some('{') => {
                self.chars.next();
                let (min, max) = self.counts()?;
                return self.repeated(atom, min, max);
            }
            _ => return Ok(atom),
        };
        self.chars.next();
        self.repeated(atom, min, max)
    }

    fn repeated(&mut self, atom: Node, min: u32, max: Option<u32>) -> Result<Node, RegexError> {
        match atom {
            Node::Look(_) => return refuse("a repeated assertion (^, $, \\b) is not supported"),
            Node::Empty => return refuse("repetition operator missing expression"),
            _ => {}
        }
        // A lazy repetition finds the same lines.
        self.eat('?');
        if let Some('*' | '+' | '?' | '{') = self.chars.peek() {
            return refuse("a repetition of a repetition is not supported");
        }
        Ok(Node::Repeat {
            node: Box::new(atom),
            min,
            max,
        })
    }

    /// After `{`: `n}`, `n,}` or `n,m}`.
    fn counts(&mut self) -> Result<(u32, Option<u32>), RegexError> {
        let min = self
            .number()?
            .ok_or_else(|| RegexError("a counted repetition needs a number".into()))?;
        let max = if self.eat(',') {
            self.number()?
        } else {
            Some(min)
        };
        if !self.eat('}') {
            return refuse("found unclosed counted repetition operator");
        }
        if max.is_some_and(|max| max < min) {
            return refuse("invalid counted repetition: the minimum is above the maximum");
        }
        Ok((min, max))
    }

    fn number(&mut self) -> Result<Option<u32>, RegexError> {
        let mut n: Option<u32> = None;
        while let Some(d) = self.chars.peek().and_then(|c| c.to_digit(10)) {
            self.chars.next();
            let v = n.unwrap_or(0) * 10 + d;
            if v > MAX_COUNT {
                return refuse("a counted repetition above 1,000 is not supported");
            }
            n = Some(v);
        }
        Ok(n)
    }

    fn literal(&mut self, c: char) -> Node {
        let mut ranges = vec![(c, c)];
        if self.case_insensitive {
            fold_case(&mut ranges);
        }
        self.set(ranges, false)
    }

    fn atom(&mut self, depth: u32) -> Result<Node, RegexError> {
        let Some(c) = self.chars.next() else {
            return Ok(Node::Empty);
        };
        Ok(match c {
            '.' => self.set(vec![('\n', '\n')], true),
            '^' => Node::Look(Look::Start),
            '$' => Node::Look(Look::End),
            '(' => self.group(depth)?,
            '[' => self.class()?,
            '\\' => self.escape()?,
            '*' | '+' | '?' | '{' => return refuse("repetition operator missing expression"),
            ']' | '}' => return refuse("an unescaped ] or } is not supported (write \\] or \\})"),
            c => self.literal(c),
        })
    }

    /// After `(`.
    fn group(&mut self, depth: u32) -> Result<Node, RegexError> {
        if self.eat('?') {
            if self.eat('P') && self.chars.peek() != Some(&'<') {
                return refuse("unrecognized group syntax after (?P");
            }
            if self.eat('<') {
                self.group_name()?;
            } else if !self.eat(':') {
                return self.flags(depth);
            } else {
                let inner = self.alternation(depth + 1)?;
                return self.close(inner);
            }
        }
        let inner = self.alternation(depth + 1)?;
        let inner = self.close(inner)?;
        Ok(Node::Capture(Box::new(inner)))
    }

    fn close(&mut self, inner: Node) -> Result<Node, RegexError> {
        if !self.eat(')') {
            return refuse("found open group without closing ')'");
        }
        Ok(inner)
    }

    /// After `(?`: flags, `(?i)` for the rest of the enclosing group or
    /// `(?i:…)` for the group it opens.
    fn flags(&mut self, depth: u32) -> Result<Node, RegexError> {
        let outer = self.case_insensitive;
        let mut on = true;
        let mut seen: Vec<char> = Vec::new();
        let mut last_minus = false;
        loop {
            let c = self.chars.next();
            match c {
                Some(f @ ('i' | 'm' | 's' | 'U' | '-')) if seen.contains(&f) => {
                    return refuse("duplicate flag")
                }
                Some('i') => self.case_insensitive = on,
                Some('m' | 's' | 'U') => {}
                Some('x') => return refuse("verbose mode (?x) is not supported"),
                Some('-') => {
                    on = false;
                    last_minus = true;
                    seen.push('-');
                    continue;
                }
                Some(')') if !seen.is_empty() && !last_minus => return Ok(Node::Empty),
                Some(':') if !seen.is_empty() && !last_minus => {
                    let inner = self.alternation(depth + 1)?;
                    self.case_insensitive = outer;
                    return self.close(inner);
                }
                _ => return refuse("unrecognized flag or group syntax"),
            }
            seen.extend(c);
            last_minus = false;
        }
    }

    /// After `(?<` or `(?P<`: the name and `>`, never used before.
    fn group_name(&mut self) -> Result<(), RegexError> {
        let mut name = String::new();
        loop {
            match self.chars.next() {
                Some('>') if !name.is_empty() => break,
                Some(c)
                    if c == '_'
                        || c.is_ascii_alphabetic()
                        || (!name.is_empty() && c.is_ascii_digit()) =>
                {
                    name.push(c)
                }
                _ => return refuse("invalid capture group name"),
            }
        }
        if self.names.contains(&name) {
            return refuse("duplicate capture group name");
        }
        self.names.push(name);
        Ok(())
    }

    /// After `\` outside a class.
    fn escape(&mut self) -> Result<Node, RegexError> {
        let Some(c) = self.chars.next() else {
            return refuse("incomplete escape sequence, reached end of pattern prematurely");
        };
        Ok(match c {
            'b' => Node::Look(Look::WordBoundary),
            'B' => Node::Look(Look::NotWordBoundary),
            'A' => Node::Look(Look::Start),
            'z' => Node::Look(Look::End),
            _ => {
                let (ranges, negated) = self.escaped_set(c)?;
                self.set(ranges, negated)
            }
        })
    }

    /// The characters of `\c` (a Perl class or one escaped character).
    fn escaped_set(&self, c: char) -> Result<(Vec<(char, char)>, bool), RegexError> {
        Ok(match c {
            'd' => (DIGIT.to_vec(), false),
            'D' => (DIGIT.to_vec(), true),
            'w' => (WORD.to_vec(), false),
            'W' => (WORD.to_vec(), true),
            's' => (SPACE.to_vec(), false),
            'S' => (SPACE.to_vec(), true),
            _ => {
                let c = match c {
                    't' => '\t',
                    'n' => '\n',
                    'r' => '\r',
                    'f' => '\u{c}',
                    'v' => '\u{b}',
                    c if is_escapable(c) => c,
                    _ => return refuse("unrecognized escape sequence"),
                };
                (vec![(c, c)], false)
            }
        })
    }

    /// After `[`.
    fn class(&mut self) -> Result<Node, RegexError> {
        let negated = self.eat('^');
        let mut ranges: Vec<(char, char)> = Vec::new();
        let mut first = true;
        loop {
            let Some(c) = self.chars.next() else {
                return refuse("found unclosed character class");
            };
            let lo = match c {
                // A `]` first is itself, and never starts a range.
                ']' if first => {
                    ranges.push((']', ']'));
                    first = false;
                    continue;
                }
                ']' => break,
                '[' => return refuse("nested and POSIX character classes are not supported"),
                '&' | '~' | '-' if self.chars.peek() == Some(&c) => {
                    return refuse("character class set operations are not supported")
                }
                '\\' => {
                    let Some(e) = self.chars.next() else {
                        return refuse("found unclosed character class");
                    };
                    let (set, negated_set) = self.escaped_set(e)?;
                    if matches!(e, 'd' | 'D' | 'w' | 'W' | 's' | 'S') {
                        if self.starts_range() {
                            return refuse(
                                "character class ranges must start and end with a single character",
                            );
                        }
                        ranges.extend(if negated_set { complement(&set) } else { set });
                        first = false;
                        continue;
                    }
                    set[0].0
                }
                c => c,
            };
            first = false;
            if !self.starts_range() {
                ranges.push((lo, lo));
                continue;
            }
            self.chars.next();
            if self.chars.peek() == Some(&'-') {
                return refuse("character class set operations are not supported");
            }
            let hi = match self.chars.next() {
                Some('\\') => {
                    let e = self.chars.next().unwrap_or('\\');
                    if matches!(e, 'd' | 'D' | 'w' | 'W' | 's' | 'S') {
                        return refuse(
                            "character class ranges must start and end with a single character",
                        );
                    }
                    self.escaped_set(e)?.0[0].0
                }
                Some('[') => return refuse("nested and POSIX character classes are not supported"),
                Some(c) => c,
                None => return refuse("found unclosed character class"),
            };
            if hi < lo {
                return refuse("invalid character class range, the start must be <= the end");
            }
            ranges.push((lo, hi));
        }
        if self.case_insensitive {
            fold_case(&mut ranges);
        }
        Ok(self.set(ranges, negated))
    }

    /// Whether a `-` follows that makes a range (not one before `]`).
    fn starts_range(&self) -> bool {
        let mut ahead = self.chars.clone();
        ahead.next() == Some('-') && ahead.peek().is_some_and(|&c| c != ']')
    }
}

/// The tree nested no deeper than `regex-lite` allows: its captures,
/// repetitions, sequences and alternatives each count a level (ours are
/// never fewer: a sequence of one here is a level it does not count).
fn check_nesting(node: &Node, depth: u32) -> Result<(), RegexError> {
    if depth > MAX_NESTING {
        return refuse("exceed the maximum number of nested parentheses/brackets");
    }
    match node {
        Node::Empty | Node::Set(_) | Node::Look(_) => Ok(()),
        Node::Repeat { node, .. } | Node::Capture(node) => check_nesting(node, depth + 1),
        Node::Concat(items) | Node::Alt(items) => items
            .iter()
            .try_for_each(|item| check_nesting(item, depth + 1)),
    }
}

struct Compiler<'s> {
    program: Vec<Inst>,
    sets: &'s [(Vec<(char, char)>, bool)],
    ranges: usize,
    visits: usize,
}

impl Compiler<'_> {
    fn push(&mut self, inst: Inst) -> Result<usize, RegexError> {
        if let Inst::Set(n) = inst {
            self.ranges += self.sets[n].0.len();
        }
        if self.program.len() >= MAX_PROGRAM || self.ranges > MAX_RANGES {
            return refuse("the pattern is too large once its repetitions are written out");
        }
        self.program.push(inst);
        Ok(self.program.len() - 1)
    }

    fn node(&mut self, node: &Node) -> Result<(), RegexError> {
        self.visits += 1;
        if self.visits > MAX_VISITS {
            return refuse("the pattern is too large once its repetitions are written out");
        }
        match node {
            Node::Empty => {}
            Node::Set(n) => {
                self.push(Inst::Set(*n))?;
            }
            Node::Look(look) => {
                self.push(Inst::Look(*look))?;
            }
            Node::Capture(inner) => self.node(inner)?,
            Node::Concat(items) => {
                for item in items {
                    self.node(item)?;
                }
            }
            Node::Alt(branches) => {
                // split L1, next; L1: a; jump end; next: split L2, …
                let mut jumps = Vec::new();
                for (i, branch) in branches.iter().enumerate() {
                    if i + 1 < branches.len() {
                        let split = self.push(Inst::Split(0, 0))?;
                        self.node(branch)?;
                        jumps.push(self.push(Inst::Jump(0))?);
                        let next = self.program.len();
                        self.program[split] = Inst::Split(split + 1, next);
                    } else {
                        self.node(branch)?;
                    }
                }
                let end = self.program.len();
                for j in jumps {
                    self.program[j] = Inst::Jump(end);
                }
            }
            Node::Repeat { node, min, max } => {
                for _ in 0..*min {
                    self.node(node)?;
                }
                match max {
                    None => {
                        // L: split body, end; body; jump L
                        let split = self.push(Inst::Split(0, 0))?;
                        self.node(node)?;
                        self.push(Inst::Jump(split))?;
                        let end = self.program.len();
                        self.program[split] = Inst::Split(split + 1, end);
                    }
                    Some(max) => {
                        let mut splits = Vec::new();
                        for _ in *min..*max {
                            splits.push(self.push(Inst::Split(0, 0))?);
                            self.node(node)?;
                        }
                        let end = self.program.len();
                        for s in splits {
                            self.program[s] = Inst::Split(s + 1, end);
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// The thread lists of a search, and the stack of the closure.
#[derive(Debug)]
struct Scratch {
    current: Threads,
    next: Threads,
    stack: Vec<usize>,
}

impl Regex {
    /// Parses and compiles `pattern`.
    pub(crate) fn new(pattern: &str) -> Result<Regex, RegexError> {
        let mut parser = Parser {
            chars: pattern.chars().peekable(),
            case_insensitive: false,
            sets: Vec::new(),
            names: Vec::new(),
        };
        let tree = parser.alternation(0)?;
        if parser.chars.next().is_some() {
            return refuse("found closing ')' without matching '('");
        }
        check_nesting(&tree, 0)?;
        let mut compiler = Compiler {
            program: Vec::new(),
            sets: &parser.sets,
            ranges: 0,
            visits: 0,
        };
        compiler.node(&tree)?;
        compiler.push(Inst::Match)?;
        let program = compiler.program;
        Ok(Regex {
            program,
            sets: parser.sets,
            scratch: RefCell::new(None),
        })
    }

    /// Whether the pattern matches anywhere in `text`.
    pub(crate) fn is_match(&self, text: &str) -> bool {
        let n = self.program.len();
        let mut scratch = self.scratch.borrow_mut();
        let Scratch {
            current,
            next,
            stack,
        } = scratch.get_or_insert_with(|| Scratch {
            current: Threads::new(n),
            next: Threads::new(n),
            stack: Vec::new(),
        });
        current.clear();
        let mut before: Option<char> = None;
        let mut chars = text.chars();
        loop {
            let here = chars.clone().next();
            // A match may start at every position.
            if self.add(current, stack, 0, before, here) {
                return true;
            }
            let Some(c) = chars.next() else {
                return false;
            };
            next.clear();
            let after = chars.clone().next();
            for i in 0..current.len() {
                let pc = current.dense[i];
                if let Inst::Set(set) = self.program[pc] {
                    let (ranges, negated) = &self.sets[set];
                    let inside = ranges.iter().any(|&(lo, hi)| lo <= c && c <= hi);
                    if inside != *negated && self.add(next, stack, pc + 1, Some(c), after) {
                        return true;
                    }
                }
            }
            std::mem::swap(current, next);
            before = Some(c);
        }
    }

    /// Adds `pc` and what it reaches without reading a character, between
    /// `before` and `after`; true when that reaches `Match`.
    fn add(
        &self,
        threads: &mut Threads,
        stack: &mut Vec<usize>,
        pc: usize,
        before: Option<char>,
        after: Option<char>,
    ) -> bool {
        stack.clear();
        stack.push(pc);
        while let Some(pc) = stack.pop() {
            if !threads.insert(pc) {
                continue;
            }
            match &self.program[pc] {
                Inst::Match => return true,
                Inst::Set(_) => {}
                Inst::Jump(to) => stack.push(*to),
                Inst::Split(a, b) => {
                    stack.push(*b);
                    stack.push(*a);
                }
                Inst::Look(look) => {
                    let holds = match look {
                        Look::Start => before.is_none(),
                        Look::End => after.is_none(),
                        Look::WordBoundary => is_word(before) != is_word(after),
                        Look::NotWordBoundary => is_word(before) == is_word(after),
                    };
                    if holds {
                        stack.push(pc + 1);
                    }
                }
            }
        }
        false
    }
}

/// A set of instruction indices in insertion order (a sparse set: clearing
/// is O(1)).
#[derive(Debug)]
struct Threads {
    dense: Vec<usize>,
    sparse: Vec<usize>,
}

impl Threads {
    fn new(n: usize) -> Threads {
        Threads {
            dense: Vec::with_capacity(n),
            sparse: vec![0; n],
        }
    }

    fn len(&self) -> usize {
        self.dense.len()
    }

    fn clear(&mut self) {
        self.dense.clear();
    }

    fn insert(&mut self, pc: usize) -> bool {
        let at = self.sparse[pc];
        if at < self.dense.len() && self.dense[at] == pc {
            return false;
        }
        self.sparse[pc] = self.dense.len();
        self.dense.push(pc);
        true
    }
}

#[cfg(test)]
mod tests {
    //! `regex-lite` (a dev-dependency) is the reference: wherever both
    //! accept a pattern they find the same lines, and a pattern it refuses
    //! is refused here too.

    use proptest::prelude::*;

    use super::Regex;

    const LINES: &[&str] = &[
        "",
        "fn main() {",
        "    let x = foo_bar(1, 2);",
        "}",
        "## Heading 2",
        "class Foo extends Bar:",
        "KELVIN k K \u{212a}",
        "δ 中文 😀 tab\there",
        "a-b_c.d*e+f?g",
        "[x] {y} (z) ^$ |",
        "ab ab aab AB",
    ];

    /// The same verdict as `regex-lite` on every line, or a refusal it
    /// shares; returns whether the pattern was accepted.
    fn agrees(pattern: &str, lines: &[&str]) -> Result<bool, TestCaseError> {
        let theirs = regex_lite::Regex::new(pattern);
        let ours = Regex::new(pattern);
        match (&ours, &theirs) {
            (Ok(ours), Ok(theirs)) => {
                for line in lines {
                    prop_assert_eq!(
                        ours.is_match(line),
                        theirs.is_match(line),
                        "pattern {:?} on {:?}",
                        pattern,
                        line
                    );
                }
                Ok(true)
            }
            (Ok(_), Err(e)) => Err(TestCaseError::fail(format!(
                "{pattern:?}: accepted, regex-lite refuses: {e}"
            ))),
            (Err(_), _) => Ok(false),
        }
    }

    #[test]
    fn anchors_agents_write_are_accepted_and_agree() {
        let patterns = [
            r"^fn \w+\(",
            r"^\s*(pub\s+)?fn\s+main\b",
            r"^#{2}\s",
            r"^## Heading \d+$",
            r"class\s+\w+(\s+extends\s+\w+)?:",
            r"(?i)kelvin",
            r"(?i:ab)+",
            r"^\}$",
            r"\bab\b",
            r"\Bb",
            r"[^\w\s]",
            r"[a-z_]+\.[a-z]\*",
            r"\[x\] \{y\}",
            r"foo|bar|^\}",
            r"(?P<name>a)(?<other>b)",
            r"a{2}",
            r"a{1,}b",
            r"a{0,2}?b",
            r"[-a]|[a-]",
            r"[]x]",
            r"\t",
            r"[]-a]",
            r"(?i)[Z-a]",
            r"(?i)[!-a]",
            r"a\/b|\%|\#",
            r"[\w.-]+@",
            r"(?i-m)x",
            r"中文|😀",
            r".",
            "",
        ];
        for p in patterns {
            assert!(agrees(p, LINES).unwrap(), "{p} was refused");
        }
    }

    #[test]
    fn large_and_deep_patterns_are_refused_as_regex_lite_refuses_them() {
        let big_class = format!("(?:[{}]{{1000}}){{99}}", "a".repeat(10_000));
        let deep = format!("{}a{}", "(".repeat(51), ")".repeat(51));
        let deep_repeats = format!("{}a{}", "(?:a".repeat(26), ")*".repeat(26));
        for p in [
            big_class.as_str(),
            deep.as_str(),
            deep_repeats.as_str(),
            "(?:[acegikmoqsuwy]{1000}){99}",
        ] {
            assert!(Regex::new(p).is_err(), "{}", &p[..40.min(p.len())]);
            assert!(agrees(p, LINES).is_ok());
        }
        let twenty = format!("{}a{}", "(?:".repeat(20), ")".repeat(20));
        assert!(agrees(&twenty, LINES).unwrap());
    }

    #[test]
    fn patterns_that_backtrack_exponentially_elsewhere_run_in_linear_time() {
        let line = "a".repeat(100_000);
        for p in ["(a*)*b", "(a|a)*(a|aa)*c", "(a+)+$b", "^(a?){50}a{50}$"] {
            assert!(!Regex::new(p).unwrap().is_match(&line), "{p}");
        }
        assert!(Regex::new("^(a?){50}a{50}$")
            .unwrap()
            .is_match(&"a".repeat(50)));
    }

    #[test]
    fn rare_forms_are_refused_with_a_reason() {
        for (pattern, reason) in [
            ("(", "found open group without closing ')'"),
            (")", "found closing ')' without matching '('"),
            (
                "[[:alpha:]]",
                "nested and POSIX character classes are not supported",
            ),
            ("[a&&b]", "character class set operations are not supported"),
            ("(?x) a", "verbose mode (?x) is not supported"),
            ("^*", "a repeated assertion (^, $, \\b) is not supported"),
            (
                "a{1001}",
                "a counted repetition above 1,000 is not supported",
            ),
            (r"\x41", "unrecognized escape sequence"),
            ("*a", "repetition operator missing expression"),
            (
                "[b-a]",
                "invalid character class range, the start must be <= the end",
            ),
            (
                r"[\w-.]",
                "character class ranges must start and end with a single character",
            ),
            (
                r"[a-\d]",
                "character class ranges must start and end with a single character",
            ),
            ("(?ii)a", "duplicate flag"),
            ("(?i-i)a", "duplicate flag"),
            ("(?<x>a)|(?<x>b)", "duplicate capture group name"),
            (
                "((((){1000}){1000}){1000}){1000}",
                "the pattern is too large once its repetitions are written out",
            ),
            (
                "(?:(?:(?:a{0}){1000}){1000}){1000}",
                "the pattern is too large once its repetitions are written out",
            ),
            (r"\<", "unrecognized escape sequence"),
        ] {
            assert_eq!(Regex::new(pattern).unwrap_err().0, reason, "{pattern}");
        }
    }

    /// Patterns from a grammar of the forms anchors use.
    fn pattern() -> impl Strategy<Value = String> {
        let atom = prop_oneof![prop::sample::select(vec![
            "a", "b", "A", "k", "δ", "_", "-", ".", r"\d", r"\D", r"\w", r"\W", r"\s", r"\S",
            r"\.", r"\-", r"\[", "^", "$", r"\b", r"\B", "[ab]", "[^a]", "[a-c]", "[A-Z_]",
            r"[\d.]", r"[^\s]", "[-a]", "[]a]", r"[\w-]", "()", "(?i)", "(?-i)", " ", r"\t",
            "[]-a]", "[Z-a]", "[!-a]", r"\/", "z", "(?<n>a)",
        ])
        .prop_map(String::from),];
        let piece = (
            atom,
            prop::sample::select(vec!["", "", "*", "+", "?", "{2}", "{1,2}", "{0,}", "*?"]),
        )
            .prop_map(|(a, r)| format!("{a}{r}"));
        let seq = prop::collection::vec(piece, 0..5).prop_map(|v| v.concat());
        seq.prop_recursive(3, 24, 3, |inner| {
            prop_oneof![
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a}|{b}")),
                inner.clone().prop_map(|a| format!("({a})")),
                inner.clone().prop_map(|a| format!("(?:{a})*")),
                inner.clone().prop_map(|a| format!("(?i:{a})")),
                (inner.clone(), inner).prop_map(|(a, b)| format!("{a}{b}")),
            ]
        })
    }

    fn line() -> impl Strategy<Value = String> {
        prop::collection::vec(
            prop::sample::select(vec![
                'a', 'b', 'A', 'B', 'k', 'K', '\u{212a}', 'δ', '_', '-', '.', ' ', '1', '\t', '[',
                ']', 'z', 'Z', '^', '`', '/', '!',
            ]),
            0..8,
        )
        .prop_map(|cs| cs.into_iter().collect())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2048))]

        #[test]
        fn grammar_patterns_agree(p in pattern(), lines in prop::collection::vec(line(), 1..8)) {
            let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
            agrees(&p, &lines)?;
        }

        /// Any short string of regex punctuation, letters and escapes:
        /// refused here whenever `regex-lite` refuses it.
        #[test]
        fn any_pattern_agrees(
            p in prop::collection::vec(
                prop::sample::select(vec![
                    "a", "b", "(", ")", "[", "]", "{", "}", "*", "+", "?", "|", "^", "$", "\\", ".",
                    "-", ",", "0", "1", "2", "d", "w", "s", "b", "B", "P", "<", ">", "=", "i", ":",
                    "&", "~", "x", "u", "A", "z", " ", "#",
                    "]-", "(?ii)", r"[\w-", "(?<x>", "Z-a", "(?i)[", "/", "%",
                ]),
                0..12,
            ).prop_map(|v| v.concat()),
            lines in prop::collection::vec(line(), 1..6),
        ) {
            let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
            agrees(&p, &lines)?;
        }
    }
}
