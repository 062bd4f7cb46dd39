//! Kramdown inline attribute lists (`{: name="closing" custom-x="1"}`), the
//! form in which SiYuan keeps a block's attributes inside markdown. The
//! kernel's Lute takes a block's id (and every other attribute) from its
//! IAL (KERNEL-FACTS §5), which is what lets editkit rewrite a container
//! without re-IDing its children.

/// Attribute pairs in their written order (values as written, entity
/// escapes included).
pub type Attrs = Vec<(String, String)>;

/// Parses `{: k="v" k2="v2"}` into pairs, in order. Malformed input yields
/// the pairs that could be read.
pub fn parse_ial(ial: &str) -> Attrs {
    let mut pairs = Vec::new();
    let inner = ial.trim();
    let inner = inner.strip_prefix("{:").unwrap_or(inner);
    let inner = inner.strip_suffix('}').unwrap_or(inner);
    let mut rest = inner;
    loop {
        rest = rest.trim_start();
        let Some(eq) = crate::text::find_pair(rest, *b"=\"") else {
            break;
        };
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

/// `{: k="v" …}` of the pairs, in their order; `None` when there are none.
pub fn render_ial(attrs: &[(String, String)]) -> Option<String> {
    if attrs.is_empty() {
        return None;
    }
    let inner: Vec<String> = attrs.iter().map(|(k, v)| format!("{k}=\"{v}\"")).collect();
    Some(format!("{{: {}}}", inner.join(" ")))
}

/// The `id` of attribute pairs.
pub fn ial_id(attrs: &[(String, String)]) -> Option<&str> {
    attrs
        .iter()
        .find(|(k, _)| k == "id")
        .map(|(_, v)| v.as_str())
}

/// A kramdown IAL on a line of its own: `{: k="v"}`.
pub fn is_ial_line(body: &str) -> bool {
    let t = body.trim();
    t.starts_with("{:") && t.ends_with('}')
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
        let unquoted = strip_quote_prefix(line.trim_start());
        if is_ial_line(unquoted) {
            continue;
        }
        out.push(strip_inline_item_ial(line));
    }
    while out.last().is_some_and(|l| l.trim().is_empty()) {
        out.pop();
    }
    let first = out
        .iter()
        .position(|l| !l.trim().is_empty())
        .unwrap_or(out.len());
    out[first..].join("\n")
}

/// `- {: id="x"}text` → `- text` (also after `>` prefixes and for ordered
/// items); other lines unchanged.
pub fn strip_inline_item_ial(line: &str) -> String {
    let Some(open) = crate::text::find_pair(line, *b"{:") else {
        return line.to_string();
    };
    let before = &line[..open];
    let marker = strip_quote_prefix(before.trim()).trim();
    let is_item_marker = matches!(marker, "-" | "*" | "+")
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

/// Whether two reads of kramdown say the same thing: the same text and,
/// IAL by IAL, the same attributes as key/value pairs, `updated` aside.
/// The kernel lists a block's attributes in a new order on every read (a
/// Go map rebuilt at each load, KERNEL-FACTS §11), so the bytes of two
/// reads of an unchanged block may differ (SPEC §3.7 rule 15); and it
/// stamps `updated` on blocks nobody edited — a heading whose section
/// gained a block holding a restated `updated` gets it copied (kernel
/// `treenode/node.go` `CreatedUpdated`; seen live), so `updated` alone is
/// not a change.
pub fn same_kramdown(a: &str, b: &str) -> bool {
    a == b || with_sorted_ials_but_updated(a) == with_sorted_ials_but_updated(b)
}

fn with_sorted_ials_but_updated(kramdown: &str) -> String {
    rewrite_ials(kramdown, |pairs| {
        let mut pairs: Attrs = pairs.into_iter().filter(|(k, _)| k != "updated").collect();
        pairs.sort();
        pairs
    })
}

/// `kramdown` with the pairs of every IAL in key order.
pub fn with_sorted_ials(kramdown: &str) -> String {
    rewrite_ials(kramdown, |mut pairs| {
        pairs.sort();
        pairs
    })
}

/// `kramdown` with every IAL's pairs passed through `order`.
fn rewrite_ials(kramdown: &str, order: impl Fn(Attrs) -> Attrs) -> String {
    let mut out = String::with_capacity(kramdown.len());
    let mut rest = kramdown;
    while let Some(open) = crate::text::find_pair(rest, *b"{:") {
        out.push_str(&rest[..open]);
        let tail = &rest[open..];
        let Some(close) = ial_end(tail) else {
            out.push_str(&tail[..2]);
            rest = &tail[2..];
            continue;
        };
        let pairs = parse_ial(&tail[..close]);
        if pairs.is_empty() {
            out.push_str(&tail[..close]);
        } else {
            out.push_str(&render_ial(&order(pairs)).unwrap_or_default());
        }
        rest = &tail[close..];
    }
    out.push_str(rest);
    out
}

/// The end (after the `}`) of the IAL that `text` starts with; quoted
/// values may hold `}`. `None` when it is not closed on its line.
fn ial_end(text: &str) -> Option<usize> {
    let mut quoted = false;
    for (i, b) in text.bytes().enumerate().skip(2) {
        match b {
            b'"' => quoted = !quoted,
            b'}' if !quoted => return Some(i + 1),
            b'\n' => return None,
            _ => {}
        }
    }
    None
}

/// `attrs` in the order editkit writes them: `id` first, then by key. The
/// kernel lists attributes in a new order on every read (KERNEL-FACTS
/// §11); restated in one order, the same block always gives the same text
/// to write, whichever read it came from.
pub fn in_written_order(mut attrs: Attrs) -> Attrs {
    attrs.sort_by_key(|(k, _)| (k != "id", k.clone()));
    attrs
}

/// `kramdown` with every IAL's pairs [`in_written_order`]: the text an undo
/// writes back is the same whichever read it came from.
pub fn with_ials_in_written_order(kramdown: &str) -> String {
    rewrite_ials(kramdown, in_written_order)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_parse_and_render_in_order() {
        let ial =
            r#"{: alias="结语,结束语" id="20240614083630-p12olp4" memo="周报结尾" name="closing"}"#;
        let attrs = parse_ial(ial);
        assert_eq!(attrs.len(), 4);
        assert_eq!(ial_id(&attrs), Some("20240614083630-p12olp4"));
        assert_eq!(render_ial(&attrs).as_deref(), Some(ial));
        assert_eq!(render_ial(&[]), None);
    }

    #[test]
    fn attributes_compare_as_sets() {
        let a = "text\n{: id=\"x\" updated=\"1\" custom-b=\"2\" custom-a=\"}\"}";
        let b = "text\n{: custom-a=\"}\" custom-b=\"2\" id=\"x\" updated=\"1\"}";
        assert!(same_kramdown(a, b));
        assert!(!same_kramdown(
            a,
            &b.replace("custom-b=\"2\"", "custom-b=\"3\"")
        ));
        assert!(!same_kramdown(a, &b.replace(" custom-b=\"2\"", "")));
        assert!(!same_kramdown(a, &b.replace("text", "text!")));
        assert_eq!(with_sorted_ials("a {: b"), "a {: b");
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
        assert_eq!(
            strip_ial("> - {: id=\"i\"}引用里的项\n>   {: id=\"p\"}"),
            "> - 引用里的项"
        );
    }
}
