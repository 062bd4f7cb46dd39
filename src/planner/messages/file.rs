//! The file on disk is not what the tool needs: missing, not a file,
//! already there, or changed since `read_file`. Each refusal is one
//! function: its message, then its next step.

use super::super::problem::WhileDoing;
use super::{pick, Said};
use crate::lang::Lang;

/// The file `path` does not exist; the next step depends on what the
/// caller was `doing`.
pub(super) fn file_not_found(lang: Lang, path: &str, doing: WhileDoing) -> Said {
    Said {
        message: pick(
            lang,
            format!("File not found: {path}."),
            format!("文件不存在：{path}。"),
        ),
        next: match doing {
            WhileDoing::Preparing => pick(
                lang,
                "Check the path. To create a file, use create_new_file, or prepare_file_append with create: true.".into(),
                "请检查路径。要创建文件，请用 create_new_file，或用 prepare_file_append 并设置 create: true。".into(),
            ),
            WhileDoing::Appending => pick(
                lang,
                "Pass create: true to create the file with this text, or check the path.".into(),
                "若要用这段文字创建该文件，请传 create: true；否则请检查路径。".into(),
            ),
            WhileDoing::Applying => pick(
                lang,
                "The file was deleted or moved after the plan. Check the path, then prepare the edit again.".into(),
                "文件在规划之后被删除或移动。请检查路径，然后重新 prepare。".into(),
            ),
        },
    }
}

/// The path exists and is not a file.
pub(super) fn not_a_file(lang: Lang) -> Said {
    Said {
        message: pick(
            lang,
            "The path exists but is not a file (e.g. a directory); refusing to create.".into(),
            "该路径已存在但不是文件（例如是目录）；拒绝创建。".into(),
        ),
        next: pick(lang, "Choose another path.".into(), "请换一个路径。".into()),
    }
}

/// The file to create exists.
pub(super) fn file_exists(lang: Lang) -> Said {
    Said {
        message: pick(
            lang,
            "The file already exists; refusing to create it.".into(),
            "文件已存在；拒绝创建。".into(),
        ),
        next: pick(
            lang,
            "To change it, use the prepare_* tools; to replace it entirely, call read_file for total_lines/size_bytes, then overwrite_entire_file.".into(),
            "若要修改它，请用 prepare_* 工具；若要整体替换，请先用 read_file 获取 total_lines/size_bytes，再调用 overwrite_entire_file。".into(),
        ),
    }
}

/// The overwrite's known line and byte counts are not the file's.
pub(super) fn snapshot_mismatch(lang: Lang) -> Said {
    Said {
        message: pick(
            lang,
            "known_old_total_lines/bytes do not match the current file; refusing to overwrite.".into(),
            "known_old_total_lines/bytes 与当前文件不符；拒绝覆盖写入。".into(),
        ),
        next: pick(
            lang,
            "Call read_file to get the current total_lines and size_bytes, check what changed, then retry.".into(),
            "请调用 read_file 获取最新的 total_lines 与 size_bytes，确认变化后重试。".into(),
        ),
    }
}
