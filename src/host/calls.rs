//! What every host-driven operation does the same way: check the
//! callbacks it needs before anything is written, call a batched read and
//! check that it answered one entry per id, and turn host failures into
//! editkit errors.

use super::{Capability, HostError, SiyuanHost};
use crate::siyuan::{Block, ChildBlock};
use crate::{Error, ErrorCode, Lang};

/// `HOST_CAPABILITY_MISSING` for the first callback of `needed` the host
/// lacks.
pub(crate) fn require<H: SiyuanHost>(
    host: &H,
    needed: &[Capability],
    lang: Lang,
) -> Result<(), Error> {
    match needed.iter().find(|c| !host.has(**c)) {
        Some(&missing) => Err(capability_missing(lang, missing)),
        None => Ok(()),
    }
}

/// One `getBlocks` call; ids are filled into rows that left them out.
pub(crate) async fn fetch_blocks<H: SiyuanHost>(
    host: &H,
    ids: &[String],
    lang: Lang,
) -> Result<Vec<Option<Block>>, Error> {
    let rows = host
        .get_blocks(ids)
        .await
        .map_err(|e| host_error(lang, &e))?;
    let rows = super::rows_as_stored(one_per_id(rows, ids.len(), Capability::GetBlocks, lang)?);
    Ok(ids
        .iter()
        .zip(rows)
        .map(|(id, row)| {
            row.map(|mut b| {
                if b.id.is_empty() {
                    b.id = id.clone();
                }
                b
            })
        })
        .collect())
}

/// One `getChildBlocks` call for every id.
pub(crate) async fn fetch_children<H: SiyuanHost>(
    host: &H,
    ids: &[String],
    lang: Lang,
) -> Result<Vec<Vec<ChildBlock>>, Error> {
    let lists = host
        .get_child_blocks(ids)
        .await
        .map_err(|e| host_error(lang, &e))?;
    one_per_id(lists, ids.len(), Capability::GetChildBlocks, lang)
}

/// A batched answer must have one entry per id, in order.
pub(crate) fn one_per_id<T>(
    answer: Vec<T>,
    expected: usize,
    capability: Capability,
    lang: Lang,
) -> Result<Vec<T>, Error> {
    if answer.len() == expected {
        Ok(answer)
    } else {
        Err(host_shape(lang, capability, expected, answer.len()))
    }
}

pub(crate) fn capability_missing(lang: Lang, capability: Capability) -> Error {
    refuse(lang, Problem::CapabilityMissing { capability })
}

/// `HOST_ERROR` naming the callback (`HOST_CAPABILITY_MISSING` when it does
/// not exist, `HOST_TIMEOUT` when it did not settle in time).
pub(crate) fn host_error(lang: Lang, error: &HostError) -> Error {
    let capability = error.capability;
    let detail = error.message.clone();
    let problem = if error.missing {
        Problem::CapabilityMissing { capability }
    } else if error.timeout {
        Problem::TimedOut { capability, detail }
    } else {
        Problem::Failed { capability, detail }
    };
    refuse(lang, problem)
}

fn host_shape(lang: Lang, capability: Capability, expected: usize, got: usize) -> Error {
    refuse(
        lang,
        Problem::WrongShape {
            capability,
            expected,
            got,
        },
    )
}

/// What went wrong with a host callback.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Problem {
    /// The host has no such callback.
    CapabilityMissing { capability: Capability },
    /// The callback did not settle in time.
    TimedOut {
        capability: Capability,
        detail: String,
    },
    /// The callback failed with this message.
    Failed {
        capability: Capability,
        detail: String,
    },
    /// A batched answer had `got` entries for `expected` ids.
    WrongShape {
        capability: Capability,
        expected: usize,
        got: usize,
    },
}

impl Problem {
    fn code(&self) -> ErrorCode {
        match self {
            Problem::CapabilityMissing { .. } => ErrorCode::HostCapabilityMissing,
            Problem::TimedOut { .. } => ErrorCode::HostTimeout,
            Problem::Failed { .. } | Problem::WrongShape { .. } => ErrorCode::HostError,
        }
    }

    fn capability(&self) -> Capability {
        match self {
            Problem::CapabilityMissing { capability }
            | Problem::TimedOut { capability, .. }
            | Problem::Failed { capability, .. }
            | Problem::WrongShape { capability, .. } => *capability,
        }
    }
}

/// The host problem's error, naming the callback (`details.name`).
fn refuse(lang: Lang, problem: Problem) -> Error {
    Error::new(problem.code(), render(&problem, lang)).with_name(problem.capability().js_name())
}

/// Words a host problem in `lang`, both languages side by side.
fn render(problem: &Problem, lang: Lang) -> String {
    let name = problem.capability().js_name();
    match problem {
        Problem::CapabilityMissing { .. } => match lang {
            Lang::En => format!("The host has no `{name}` callback, which this operation needs; nothing was written."),
            Lang::Zh => format!("宿主缺少本操作所需的 `{name}` 回调；未写入任何内容。"),
        },
        Problem::TimedOut { detail, .. } => match lang {
            Lang::En => format!("The host callback `{name}` did not answer in time ({detail})."),
            Lang::Zh => format!("宿主回调 `{name}` 未在时限内返回（{detail}）。"),
        },
        Problem::Failed { detail, .. } => match lang {
            Lang::En => format!("The host callback `{name}` failed: {detail}"),
            Lang::Zh => format!("宿主回调 `{name}` 执行失败：{detail}"),
        },
        Problem::WrongShape { expected, got, .. } => match lang {
            Lang::En => format!("The host callback `{name}` returned {got} entries for {expected} ids; it must return one entry per id, in order (null for a missing block)."),
            Lang::Zh => format!("宿主回调 `{name}` 对 {expected} 个 ID 返回了 {got} 项；必须按顺序为每个 ID 返回一项（块不存在时为 null）。"),
        },
    }
}
