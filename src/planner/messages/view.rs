//! The texts of a file view (`read_file`): its summary line and the
//! placeholders shown instead of lines.

use super::pick;
use crate::lang::Lang;

pub fn view_summary(
    lang: Lang,
    path: &str,
    total: usize,
    bytes: usize,
    start: usize,
    end: usize,
) -> String {
    let name = if path.is_empty() { "file" } else { path };
    if start == 0 {
        return pick(
            lang,
            format!("{name}: {total} lines, {bytes} bytes; no line shown."),
            format!("{name}：共 {total} 行，{bytes} 字节；未显示任何行。"),
        );
    }
    pick(
        lang,
        format!("{name}: {total} lines, {bytes} bytes; showing lines {start}–{end}."),
        format!("{name}：共 {total} 行，{bytes} 字节；显示第 {start}–{end} 行。"),
    )
}

pub fn empty_file(lang: Lang) -> String {
    pick(lang, "<empty file>".into(), "<空文件>".into())
}

pub fn nothing_shown(lang: Lang) -> String {
    pick(
        lang,
        "<no line in this range>".into(),
        "<此范围内没有行>".into(),
    )
}

pub fn view_truncated(lang: Lang, next_range: &str) -> String {
    pick(
        lang,
        format!("Output truncated; read on with range \"{next_range}\"."),
        format!("输出已截断；可用 range \"{next_range}\" 继续读取。"),
    )
}
