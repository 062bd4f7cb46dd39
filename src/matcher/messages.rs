//! Every text of the matcher an agent or a person reads, in English and
//! Chinese side by side: the refusals rendered from a [`Problem`] by
//! [`render`] (and their next steps by [`next_steps`]), the summaries and
//! the corrector's prompts one function each. A leaf: it imports only
//! `types`.

use super::types::{
    FormatProblem, Hint, Invisible, MatchMode, NotFound, Place, Problem, Strategy, Unmappable,
};
use crate::lang::Lang;

fn mode_name(mode: MatchMode) -> &'static str {
    match mode {
        MatchMode::Exact => "exact",
        MatchMode::Safe => "safe",
        MatchMode::Fuzzy => "fuzzy",
    }
}

fn range(lang: Lang, a: u32, b: u32) -> String {
    match (lang, a == b) {
        (Lang::En, true) => format!("line {a}"),
        (Lang::En, false) => format!("lines {a}–{b}"),
        (Lang::Zh, true) => format!("第 {a} 行"),
        (Lang::Zh, false) => format!("第 {a}–{b} 行"),
    }
}

fn percent(x: f64) -> u32 {
    (x * 100.0).round().clamp(0.0, 100.0) as u32
}

fn ranges(lang: Lang, list: &[Place]) -> String {
    let shown: Vec<String> = list
        .iter()
        .take(20)
        .map(|&(a, b, col)| match (col, lang) {
            (Some(c), Lang::En) => format!("{} column {c}", range(lang, a, b)),
            (Some(c), Lang::Zh) => format!("{}第 {c} 列", range(lang, a, b)),
            (None, _) => range(lang, a, b),
        })
        .collect();
    let more = list.len().saturating_sub(20);
    let sep = lang.pick(", ", "、");
    let mut s = shown.join(sep);
    if more > 0 {
        s.push_str(&match lang {
            Lang::En => format!(" and {more} more"),
            Lang::Zh => format!(" 等另外 {more} 处"),
        });
    }
    s
}

/// Words `problem` in `lang`. Only formats: the problem carries every
/// fact.
pub(crate) fn render(problem: &Problem, lang: Lang) -> String {
    match problem {
        Problem::EmptySearch => empty_search(lang),
        Problem::NoChange => no_change(lang),
        Problem::Ambiguous {
            strategy,
            places,
            hint,
        } => ambiguous(lang, *strategy, places, *hint),
        Problem::TooManyMatches { strategy, cap } => too_many_matches(lang, *strategy, *cap),
        Problem::CountMismatch {
            strategy,
            expected,
            places,
        } => count_mismatch(lang, *strategy, *expected, places),
        Problem::AlreadyApplied { places } => {
            let at = places.first().map_or((1, 1), |&(a, b, _)| (a, b));
            already_applied(lang, at)
        }
        Problem::Unmappable { strategy, at, why } => unmappable(lang, *strategy, *at, why),
        Problem::NotFound(report) => not_found(lang, report, &advice(lang, report.mode)),
    }
}

/// What to do next, as a list (`details.suggestions`): the failure
/// report's advice; the other messages say it themselves.
pub(crate) fn next_steps(problem: &Problem, lang: Lang) -> Vec<String> {
    match problem {
        Problem::NotFound(report) => advice(lang, report.mode),
        _ => Vec::new(),
    }
}

fn empty_search(lang: Lang) -> String {
    lang.pick(
        "The search text is empty, so it cannot locate anything. Put the exact lines to change in the search; to add text, search for a neighbouring line and repeat it in the replacement with the new lines.",
        "搜索文本为空，无法定位。请在搜索中给出要修改的原文；若要新增内容，请搜索相邻的一行，并在替换中保留这一行再加上新内容。",
    )
    .to_string()
}

fn no_change(lang: Lang) -> String {
    lang.pick(
        "The search and the replacement are identical (or the replacement leaves the text unchanged), so this edit would change nothing. Check that the replacement holds the new text.",
        "搜索与替换内容相同（或替换后文本不变），此编辑不会产生任何改动。请确认替换部分是新的内容。",
    )
    .to_string()
}

fn ambiguous(lang: Lang, strategy: Strategy, found: &[Place], hint: Option<u32>) -> String {
    let tie = match (hint, lang) {
        (None, _) => String::new(),
        (Some(h), Lang::En) => {
            format!(" The line hint {h} does not choose one: two of them are equally near it.")
        }
        (Some(h), Lang::Zh) => format!("行号提示 {h} 无法选定：有两处与它距离相同。"),
    };
    let message = match lang {
        Lang::En => format!(
            "The search text matches {n} places (strategy {s}): {list}. An edit needs exactly one. Add a few unchanged neighbouring lines to the search so it matches one place only, or set replaceAll to change every place.",
            n = found.len(),
            s = strategy,
            list = ranges(lang, found)
        ),
        Lang::Zh => format!(
            "搜索文本匹配到 {n} 处（策略 {s}）：{list}。编辑要求唯一匹配。请在搜索中加入几行相邻且不变的内容使其只匹配一处，或设置 replaceAll 以修改全部位置。",
            n = found.len(),
            s = strategy,
            list = ranges(lang, found)
        ),
    };
    message + &tie
}

fn count_mismatch(lang: Lang, strategy: Strategy, expected: u32, found: &[Place]) -> String {
    match lang {
        Lang::En => format!(
            "Expected {expected} matches but strategy {strategy} found {n}: {list}. Nothing was changed. Adjust expectedReplacements, or make the search more specific.",
            n = found.len(),
            list = ranges(lang, found)
        ),
        Lang::Zh => format!(
            "期望匹配 {expected} 处，但策略 {strategy} 找到 {n} 处：{list}。未做任何修改。请调整 expectedReplacements，或让搜索文本更具体。",
            n = found.len(),
            list = ranges(lang, found)
        ),
    }
}

fn too_many_matches(lang: Lang, strategy: Strategy, cap: usize) -> String {
    match lang {
        Lang::En => format!(
            "Strategy {strategy} found more than {cap} locations, the most one call replaces. Nothing was changed (an edit cut short at the cap would leave the rest). Split the content, or make the search more specific."
        ),
        Lang::Zh => format!(
            "策略 {strategy} 找到超过 {cap} 处位置，超出单次调用可替换的上限。未做任何修改（在上限处截断会遗留其余位置）。请拆分内容，或让搜索文本更具体。"
        ),
    }
}

fn already_applied(lang: Lang, at: (u32, u32)) -> String {
    match lang {
        Lang::En => format!(
            "The search text is not in the content, but the replacement already is, once, at {}. The edit looks already applied; nothing was changed. Re-read the content before editing again.",
            range(lang, at.0, at.1)
        ),
        Lang::Zh => format!(
            "内容中找不到搜索文本，但替换内容已经存在且仅有一处（{}）。此编辑似乎已经应用过，未做任何修改。再次编辑前请重新读取内容。",
            range(lang, at.0, at.1)
        ),
    }
}

fn unmappable(lang: Lang, strategy: Strategy, at: (u32, u32), why: &Unmappable) -> String {
    let place = range(lang, at.0, at.1);
    match (lang, why) {
        (Lang::En, Unmappable::Indentation(n)) => format!(
            "The search matched {place} (strategy {strategy}) with a different indentation, but line {n} of the replacement cannot be re-indented the same way (it is less indented than the shift removes, or mixes tabs and spaces). Nothing was changed. Copy the indentation of {place} exactly into both search and replacement."
        ),
        (Lang::Zh, Unmappable::Indentation(n)) => format!(
            "搜索在{place}匹配（策略 {strategy}），但缩进不同；替换内容的第 {n} 行无法按同样的方式调整缩进（缩进少于要移除的部分，或混用了制表符与空格）。未做任何修改。请在搜索和替换中都照原样使用{place}的缩进。"
        ),
        (Lang::En, Unmappable::Quotes(n, q)) => format!(
            "The search matched {place} (strategy {strategy}) only after folding typographic quotes, and line {n} of the replacement uses {q} where the file writes that quote in more than one way. Nothing was changed. Write the quotes in the replacement exactly as the file does."
        ),
        (Lang::Zh, Unmappable::Quotes(n, q)) => format!(
            "搜索在{place}匹配（策略 {strategy}），但需要把弯引号视为直引号才能匹配；替换内容第 {n} 行使用了 {q}，而文件中这种引号有不止一种写法。未做任何修改。请在替换中按文件原样书写引号。"
        ),
        (Lang::En, Unmappable::Escaping) => format!(
            "The search matched {place} only after undoing one level of escaping (strategy {strategy}), but the replacement mixes escaped and real characters (for example a literal \\n beside real line breaks), so it is unclear which to keep. Nothing was changed. Send search and replacement without extra escaping."
        ),
        (Lang::Zh, Unmappable::Escaping) => format!(
            "搜索需要去掉一层转义才能在{place}匹配（策略 {strategy}），但替换内容同时含有转义字符和真实字符（例如字面的 \\n 与真实换行并存），无法判断应保留哪一种。未做任何修改。请发送不带多余转义的搜索和替换内容。"
        ),
        (Lang::En, Unmappable::LiteralEscape(literal)) => format!(
            "The search matched {place} only after undoing one level of escaping (strategy {strategy}), but the replacement adds an escape sequence inside the string literal `{literal}`: undoing the escaping there would turn the new code's own escape into a real character and break the literal. Nothing was changed. Send search and replacement without extra escaping."
        ),
        (Lang::Zh, Unmappable::LiteralEscape(literal)) => format!(
            "搜索需要去掉一层转义才能在{place}匹配（策略 {strategy}），但替换内容在字符串字面量 `{literal}` 中新增了转义序列：在那里去掉转义会把新代码自身的转义变成真实字符，破坏该字面量。未做任何修改。请发送不带多余转义的搜索和替换内容。"
        ),
        (Lang::En, Unmappable::LosesText(word)) => format!(
            "The search matched {place} (strategy {strategy}), but its lines do not pair with the file's there (a paragraph wrapped differently, lines merged or split), and writing the replacement would lose \u{201c}{word}\u{201d}. Nothing was changed. Quote the file's text exactly, with its line breaks, in both search and replacement."
        ),
        (Lang::Zh, Unmappable::LosesText(word)) => format!(
            "搜索在{place}匹配（策略 {strategy}），但搜索的各行与文件中的行对不上（段落换行位置不同，或行被合并、拆分），写入替换内容会丢失“{word}”。未做任何修改。请在搜索和替换中照原样引用文件文本，包括换行。"
        ),
        (Lang::En, Unmappable::RepeatsText(word)) => format!(
            "The search matched {place} (strategy {strategy}), but its lines do not pair with the file's there, and writing the replacement would repeat \u{201c}{word}\u{201d}. Nothing was changed. Quote the file's text exactly, with its line breaks, in both search and replacement."
        ),
        (Lang::Zh, Unmappable::RepeatsText(word)) => format!(
            "搜索在{place}匹配（策略 {strategy}），但搜索的各行与文件中的行对不上，写入替换内容会重复“{word}”。未做任何修改。请在搜索和替换中照原样引用文件文本，包括换行。"
        ),
    }
}

fn invisible_name(lang: Lang, k: Invisible) -> &'static str {
    match k {
        Invisible::Nbsp => lang.pick("non-breaking spaces (NBSP)", "不换行空格（NBSP）"),
        Invisible::ZeroWidth => lang.pick("zero-width characters", "零宽字符"),
        Invisible::NormalForm => lang.pick(
            "Unicode normalisation form (NFC vs NFD accents)",
            "Unicode 规范化形式（NFC 与 NFD 的重音写法）",
        ),
        Invisible::CarriageReturn => lang.pick("carriage returns (CR)", "回车符（CR）"),
    }
}

fn hint(lang: Lang, h: &Hint) -> String {
    match (lang, h) {
        (Lang::En, Hint::Indentation { start_line, end_line }) => format!(
            "{} match the search line by line except for indentation that changes by different amounts on different lines. Copy the indentation exactly (it matters in Python and YAML), or use mode \"fuzzy\".",
            capitalise(&range(lang, *start_line, *end_line))
        ),
        (Lang::Zh, Hint::Indentation { start_line, end_line }) => format!(
            "{}与搜索逐行一致，只是各行缩进的变化量不同。请照原样复制缩进（在 Python、YAML 中缩进有含义），或使用 \"fuzzy\" 模式。",
            range(lang, *start_line, *end_line)
        ),
        (Lang::En, Hint::Weak { start_line, end_line, score, threshold }) => format!(
            "The most similar block, {}, is {}% similar; a fuzzy match needs {}%.",
            range(lang, *start_line, *end_line),
            percent(*score),
            percent(*threshold)
        ),
        (Lang::Zh, Hint::Weak { start_line, end_line, score, threshold }) => format!(
            "最相似的块是{}，相似度 {}%；模糊匹配需要 {}%。",
            range(lang, *start_line, *end_line),
            percent(*score),
            percent(*threshold)
        ),
        (Lang::En, Hint::TooClose { start_line, end_line, score, runner_up }) => format!(
            "{} ({}% similar) and another block ({}%) are too alike to tell apart; include more surrounding lines.",
            capitalise(&range(lang, *start_line, *end_line)),
            percent(*score),
            percent(*runner_up)
        ),
        (Lang::Zh, Hint::TooClose { start_line, end_line, score, runner_up }) => format!(
            "{}（相似度 {}%）与另一处（{}%）过于相似，无法区分；请包含更多上下文行。",
            range(lang, *start_line, *end_line),
            percent(*score),
            percent(*runner_up)
        ),
        (_, Hint::Invisible { start_line, end_line, kinds }) => {
            invisible_hint(lang, *start_line, *end_line, kinds)
        }
    }
}

fn invisible_hint(lang: Lang, start_line: u32, end_line: u32, kinds: &[Invisible]) -> String {
    let names: Vec<&str> = kinds.iter().map(|&k| invisible_name(lang, k)).collect();
    match lang {
        Lang::En => format!(
            "{} {} from the search only by invisible characters: {}. Copy those lines from the file as they are, or use mode \"safe\", which forgives them.",
            capitalise(&range(lang, start_line, end_line)),
            if start_line == end_line { "differs" } else { "differ" },
            names.join(", ")
        ),
        Lang::Zh => format!(
            "{}与搜索只差看不见的字符：{}。请照原样从文件复制这些行，或使用可容忍这些差异的 \"safe\" 模式。",
            range(lang, start_line, end_line),
            names.join("、")
        ),
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// The general advice of seed 004, in order.
fn advice(lang: Lang, mode: MatchMode) -> Vec<String> {
    let mut v: Vec<String> = match lang {
        Lang::En => vec![
            "Read the content again (it may have changed) and copy the text to replace exactly."
                .into(),
            "Keep the exact indentation, spaces or tabs, of every line.".into(),
            "Include a few unchanged surrounding lines so the search matches one place only."
                .into(),
            "Check for extra blank lines or spaces at the start or end of the search.".into(),
        ],
        Lang::Zh => vec![
            "重新读取内容（它可能已被修改），并照原样复制要替换的文本。".into(),
            "保持每一行的缩进完全一致（空格或制表符）。".into(),
            "包含几行不变的上下文，使搜索只匹配一处。".into(),
            "检查搜索开头或结尾是否有多余的空行或空格。".into(),
        ],
    };
    if mode != MatchMode::Fuzzy {
        v.push(
            lang.pick(
                "If only a few words differ in a block of three or more lines, mode \"fuzzy\" can match it under a similarity threshold.",
                "如果三行及以上的块中只有少量词语不同，可使用 \"fuzzy\" 模式按相似度阈值匹配。",
            )
            .into(),
        );
    }
    v
}

fn not_found(lang: Lang, report: &NotFound, advice_list: &[String]) -> String {
    let NotFound {
        mode,
        tried,
        exhausted,
        hints,
        closest,
        ..
    } = report;
    let (mode, exhausted) = (*mode, *exhausted);
    let tried: Vec<&str> = tried.iter().map(|s| s.as_str()).collect();
    let mut out = match lang {
        Lang::En => format!(
            "Could not find the search text (mode {}).\nStrategies tried: {}.",
            mode_name(mode),
            tried.join(", ")
        ),
        Lang::Zh => format!(
            "未找到搜索文本（模式 {}）。\n已尝试的策略：{}。",
            mode_name(mode),
            tried.join("、")
        ),
    };
    if exhausted {
        out.push('\n');
        out.push_str(lang.pick(
            "The work budget ran out before every strategy finished; the search was stopped rather than guessed.",
            "在所有策略完成前工作量预算已用尽；搜索已停止，而不是猜测结果。",
        ));
    }
    for h in hints {
        out.push('\n');
        out.push_str(&hint(lang, h));
    }
    if let Some(c) = closest {
        out.push('\n');
        out.push_str(&match lang {
            Lang::En => format!(
                "Closest region: {} ({}% similar):",
                range(lang, c.start_line, c.end_line),
                percent(c.similarity)
            ),
            Lang::Zh => format!(
                "最接近的区域：{}（相似度 {}%）：",
                range(lang, c.start_line, c.end_line),
                percent(c.similarity)
            ),
        });
        out.push('\n');
        out.push_str(c.diff.trim_end());
    }
    out.push('\n');
    out.push_str(lang.pick("What to do next:", "下一步："));
    for (i, a) in advice_list.iter().enumerate() {
        out.push_str(&format!("\n{}. {}", i + 1, a));
    }
    out
}

// ---- multi-block SEARCH/REPLACE (SPEC §6.5) --------------------------------

pub(crate) fn summary_all(lang: Lang, n: usize) -> String {
    match lang {
        Lang::En => format!("Edit completed: {n}/{n} blocks applied successfully."),
        Lang::Zh => format!("编辑完成：{n}/{n} 个块已成功应用。"),
    }
}

pub(crate) fn summary_partial(lang: Lang, ok: usize, n: usize, errors: &str) -> String {
    match lang {
        Lang::En => {
            format!("Edit partially completed: {ok}/{n} blocks applied. Failed blocks:\n{errors}")
        }
        Lang::Zh => format!("编辑部分完成：{ok}/{n} 个块已应用。失败的块：\n{errors}"),
    }
}

pub(crate) fn summary_none(lang: Lang, n: usize, errors: &str) -> String {
    match lang {
        Lang::En => format!("Error: All {n} blocks failed to apply. Errors:\n{errors}"),
        Lang::Zh => format!("错误：全部 {n} 个块均应用失败。错误：\n{errors}"),
    }
}

pub(crate) fn summary_atomic(lang: Lang, failed: usize, n: usize, errors: &str) -> String {
    match lang {
        Lang::En => format!(
            "Edit not applied: {failed}/{n} blocks failed, so no block was applied (atomic). Fix the failed blocks and send all blocks again. Failed blocks:\n{errors}"
        ),
        Lang::Zh => format!(
            "编辑未应用：{n} 个块中有 {failed} 个失败，因此没有应用任何块（原子模式）。请修正失败的块后重新发送全部块。失败的块：\n{errors}"
        ),
    }
}

pub(crate) fn block_failure(lang: Lang, index: usize, line: Option<u32>, message: &str) -> String {
    match (lang, line) {
        (Lang::En, Some(l)) => format!("Block {index} (line {l}): {message}"),
        (Lang::En, None) => format!("Edit {index}: {message}"),
        (Lang::Zh, Some(l)) => format!("第 {index} 块（第 {l} 行）：{message}"),
        (Lang::Zh, None) => format!("第 {index} 项编辑：{message}"),
    }
}

pub(crate) fn format_problem(
    lang: Lang,
    problem: FormatProblem,
    line: u32,
) -> (String, Vec<String>) {
    use FormatProblem::*;
    let (en, zh) = match problem {
        NestedSearch => (
            format!("Line {line}: a SEARCH marker inside a SEARCH section (the previous block was not finished)."),
            format!("第 {line} 行：SEARCH 标记出现在另一个 SEARCH 段内（上一个块尚未结束）。"),
        ),
        UnclosedSearch => (
            format!("Line {line}: this block is not closed; the text ends before `>>>>>>> REPLACE`."),
            format!("第 {line} 行：此块没有结束；文本在 `>>>>>>> REPLACE` 之前就结束了。"),
        ),
        UnmatchedReplace => (
            format!("Line {line}: a REPLACE marker with no open `<<<<<<< SEARCH` block."),
            format!("第 {line} 行：REPLACE 标记之前没有对应的 `<<<<<<< SEARCH` 块。"),
        ),
        MisplacedDelimiter => (
            format!("Line {line}: `=======` outside a block or a second `=======` in one block."),
            format!("第 {line} 行：`=======` 出现在块外，或同一块中出现了第二个 `=======`。"),
        ),
        MissingDelimiter => (
            format!("Line {line}: the REPLACE marker comes before the `=======` that separates search from replacement."),
            format!("第 {line} 行：REPLACE 标记出现在分隔搜索与替换的 `=======` 之前。"),
        ),
        MisplacedLineHint => (
            format!("Line {line}: a `:start_line:`/`:end_line:` hint inside the REPLACE section; hints go right after `<<<<<<< SEARCH`, followed by a `-------` line. To write such a line as text, start it with a backslash."),
            format!("第 {line} 行：`:start_line:`/`:end_line:` 行号提示出现在 REPLACE 段内；提示应紧跟在 `<<<<<<< SEARCH` 之后，并以 `-------` 行结束。若要把这样的行作为文本写入，请在行首加反斜杠。"),
        ),
        NoBlocks => (
            "The text has no `<<<<<<< SEARCH` … `=======` … `>>>>>>> REPLACE` block.".to_string(),
            "文本中没有 `<<<<<<< SEARCH` … `=======` … `>>>>>>> REPLACE` 块。".to_string(),
        ),
    };
    let suggestions = match lang {
        Lang::En => vec![
            "Write each block as: `<<<<<<< SEARCH`, the exact old lines, `=======`, the new lines, `>>>>>>> REPLACE`, each marker alone on its line.".to_string(),
            "If the text itself contains a marker line (a merge conflict, a `=======` underline), escape it with a leading backslash: `\\=======`.".to_string(),
            "Send several edits as several complete blocks, one after another.".to_string(),
        ],
        Lang::Zh => vec![
            "每个块依次写为：`<<<<<<< SEARCH`、原样的旧内容、`=======`、新内容、`>>>>>>> REPLACE`，每个标记单独占一行。".to_string(),
            "如果文本本身含有标记行（合并冲突、`=======` 下划线），请在行首加反斜杠转义：`\\=======`。".to_string(),
            "多处修改请写成多个完整的块，依次排列。".to_string(),
        ],
    };
    (lang.pick(en, zh), suggestions)
}

pub(crate) fn format_invalid(lang: Lang, problems: &[String]) -> String {
    let list = problems.join("\n");
    match lang {
        Lang::En => format!("The SEARCH/REPLACE text is malformed; nothing was applied.\n{list}"),
        Lang::Zh => format!("SEARCH/REPLACE 文本格式错误，未应用任何修改。\n{list}"),
    }
}

// ---- self-correction (SPEC §6.6) ------------------------------------------

pub(crate) fn corrector_no_change(lang: Lang, explanation: &str) -> String {
    match lang {
        Lang::En => format!("The corrector judged that no change is needed: {explanation}"),
        Lang::Zh => format!("纠错器判断无需修改：{explanation}"),
    }
}

pub(crate) fn corrector_host_error(lang: Lang, message: &str) -> String {
    match lang {
        Lang::En => format!("The corrector callback failed: {message}"),
        Lang::Zh => format!("纠错回调失败：{message}"),
    }
}

/// The system prompt of a correction request (our own words; same intent
/// as seed 002: fix the search minimally, keep the replacement, say when
/// the change is already there).
pub(crate) fn corrector_system() -> &'static str {
    "You repair text edits that failed to apply.\n\
     An edit replaces one exact passage of a file (the `search` text) with new text (the `replace` text). \
     The last attempt failed because its `search` text does not occur in the file as written.\n\
     Your job: give a corrected `search` that is copied character for character from the file and \
     identifies the passage the edit was meant for. Change it as little as possible: fix whitespace, \
     indentation, line breaks, escaping or a small wording drift; do not design a different edit.\n\
     Rules:\n\
     1. `search` must be an exact, literal excerpt of the file content shown, with no added escaping.\n\
     2. Keep `replace` as it was unless the instruction makes clear it was itself wrong.\n\
     3. If the file already contains the intended change, set `noChangesRequired` to true and say why.\n\
     4. In `explanation`, state in one or two sentences why the original search failed and what you fixed.\n\
     Answer with one JSON object and nothing else: \
     {\"search\": string, \"replace\": string, \"noChangesRequired\": boolean, \"explanation\": string}"
}

pub(crate) fn corrector_user(
    instruction: &str,
    search: &str,
    replace: &str,
    error: &str,
    content: &str,
) -> String {
    format!(
        "## Purpose of the edit\n<instruction>\n{instruction}\n</instruction>\n\n\
         ## The failed edit\nsearch:\n<search>\n{search}\n</search>\n\nreplace:\n<replace>\n{replace}\n</replace>\n\n\
         ## Why it failed\n<error>\n{error}\n</error>\n\n\
         ## Current file content\n<file_content>\n{content}\n</file_content>\n\n\
         Return the corrected edit as the JSON object described."
    )
}
