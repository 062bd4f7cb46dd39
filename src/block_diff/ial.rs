//! Kramdown inline attribute lists (`{: name="closing" custom-x="1"}`), the
//! form in which SiYuan keeps a block's attributes inside markdown.
//!
//! The kernel's `updateBlock` keeps only the `id` of the block it rebuilds;
//! name, alias, memo, bookmark and `custom-*` attributes survive only if the
//! new markdown carries them as an IAL. These helpers parse a block's `ial`
//! column, build the IAL to carry over, and strip IALs from kramdown to get
//! back the markdown the kernel will report.

/// Parses `{: k="v" k2="v2"}` into pairs, in order. Malformed input yields
/// the pairs that could be read.
pub fn parse_ial(ial: &str) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    let inner = ial.trim();
    let inner = inner.strip_prefix("{:").unwrap_or(inner);
    let inner = inner.strip_suffix('}').unwrap_or(inner);
    let mut rest = inner;
    loop {
        rest = rest.trim_start();
        let Some(eq) = rest.find("=\"") else { break };
        let key = rest[..eq].trim();
        let value_start = eq + 2;
        let Some(close) = rest[value_start..].find('"') else {
            break;
        };
        let value = &rest[value_start..value_start + close];
        if !key.is_empty() && !key.contains(char::is_whitespace) {
            pairs.push((key.to_string(), value.to_string()));
        }
        rest = &rest[value_start + close + 1..];
    }
    pairs
}

/// The attributes an update must carry over: everything but `id` and
/// `updated` (which the kernel sets), as an IAL line, or `None`.
pub fn carried_ial(ial: &str) -> Option<String> {
    let kept: Vec<String> = parse_ial(ial)
        .into_iter()
        .filter(|(k, _)| k != "id" && k != "updated")
        .map(|(k, v)| format!("{k}=\"{v}\""))
        .collect();
    (!kept.is_empty()).then(|| format!("{{: {}}}", kept.join(" ")))
}

/// Whether the last non-blank line of `markdown` is an IAL line (the author
/// already wrote the attributes; none are added).
pub fn ends_with_ial(markdown: &str) -> bool {
    markdown
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .is_some_and(|l| super::split::is_ial_line(strip_quote_prefix(l.trim_start())))
}

fn strip_quote_prefix(line: &str) -> &str {
    let mut l = line;
    while let Some(rest) = l.strip_prefix('>') {
        l = rest.trim_start();
    }
    l
}

/// The markdown of kramdown: IAL lines removed (also inside blockquotes and
/// list items) and the leading IAL of a list item (`- {: id="…"}text`)
/// dropped. Used to predict what the kernel's `markdown` column will read
/// after a write made from kramdown.
pub fn strip_ial(kramdown: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    for line in kramdown.lines() {
        let trimmed = line.trim_start();
        let unquoted = strip_quote_prefix(trimmed);
        if super::split::is_ial_line(unquoted) {
            // A quote line that only held an IAL keeps its `>` as a blank
            // quote line only if the kernel would; it would not.
            continue;
        }
        out.push(strip_inline_item_ial(line));
    }
    // Drop blank lines left at the ends.
    while out.last().is_some_and(|l| l.trim().is_empty()) {
        out.pop();
    }
    let first = out
        .iter()
        .position(|l| !l.trim().is_empty())
        .unwrap_or(out.len());
    out[first..].join("\n")
}

/// `- {: id="x"}text` → `- text`; other lines unchanged.
fn strip_inline_item_ial(line: &str) -> String {
    let Some(open) = line.find("{:") else {
        return line.to_string();
    };
    let before = &line[..open];
    let marker = before.trim();
    let is_item_marker = matches!(marker, "-" | "*" | "+" | "- [ ]" | "- [x]" | "- [X]")
        || marker
            .strip_suffix('.')
            .or_else(|| marker.strip_suffix(')'))
            .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
    if !is_item_marker {
        return line.to_string();
    }
    match line[open..].find('}') {
        Some(close) => format!("{before}{}", &line[open + close + 1..]),
        None => line.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_are_parsed_and_carried_without_id_and_updated() {
        let ial = r#"{: alias="结语,结束语" id="20240614083630-p12olp4" memo="周报结尾" name="closing" updated="20240614183512"}"#;
        assert_eq!(parse_ial(ial).len(), 5);
        assert_eq!(
            carried_ial(ial).as_deref(),
            Some(r#"{: alias="结语,结束语" memo="周报结尾" name="closing"}"#)
        );
        assert_eq!(
            carried_ial(r#"{: id="20240614083000-a1b2c3d" updated="20240614083105"}"#),
            None
        );
        assert_eq!(carried_ial(""), None);
    }

    #[test]
    fn kramdown_is_stripped_back_to_markdown() {
        let list = "- {: id=\"a\" updated=\"1\"}完成 SEARCH/REPLACE 解析器\n  {: id=\"p\"}\n- {: id=\"b\"}实现 slice 分页阅读\n  {: id=\"q\"}\n\n  - {: id=\"c\"}支持 `id:+N` 游标\n    {: id=\"r\"}\n  {: id=\"l2\"}\n{: id=\"l\"}";
        assert_eq!(
            strip_ial(list),
            "- 完成 SEARCH/REPLACE 解析器\n- 实现 slice 分页阅读\n\n  - 支持 `id:+N` 游标"
        );
        let quote = "> 注意。\n> {: id=\"p1\"}\n>\n> 第二段。\n> {: id=\"p2\"}\n{: id=\"bq\"}";
        assert_eq!(strip_ial(quote), "> 注意。\n>\n> 第二段。");
        assert_eq!(strip_ial("以上。\n{: id=\"x\" name=\"closing\"}"), "以上。");
    }

    #[test]
    fn trailing_ial_is_detected() {
        assert!(ends_with_ial("x\n{: name=\"a\"}\n"));
        assert!(!ends_with_ial("x\n{not an ial}"));
    }
}
