// The tool runner's own texts, both languages side by side. A text takes
// its fill-ins by position (`{0}`, `{1}`); fill-ins are in the text's
// language (the caller passes `lang`-specific words where one is needed).
// Messages about editkit's errors come from the Rust core; these are only
// the ones the runner itself writes (host problems, unknown tools).

import { fillTemplate } from '../errors.js';
import type { Lang } from '../types.js';

const TEXTS = {
  errorLine: {
    en: 'Error [{0}]: {1}',
    zh: '错误 [{0}]：{1}',
  },
  writeFailed: {
    en: 'The write to {0} failed and may not have happened; hunk {1} is still live: read the file, and apply it again only if the change is not there.',
    zh: '写入 {0} 失败，文件可能未改变；hunk {1} 仍然有效：先读取文件，若改动不在其中再次应用。',
  },
  callbackMissing: {
    en: 'the files host has no {0} callback, which this tool needs.',
    zh: '运行环境提供的文件访问缺少 {0} 回调，本工具不可用。',
  },
  filesHostMissing: {
    en: 'this environment provides no file access, so this tool is unavailable.',
    zh: '运行环境没有提供文件访问，本工具不可用。',
  },
  siyuanHostMissing: {
    en: 'this environment provides no SiYuan access, so this tool is unavailable.',
    zh: '运行环境没有提供思源访问，本工具不可用。',
  },
  unknownTool: {
    en: 'there is no tool named "{0}". Available tools: {1}.',
    zh: '没有名为 "{0}" 的工具。可用工具：{1}。',
  },
  fileMissing: {
    en: "status: error\nerror: FILE_NOT_FOUND\npath: '{0}'\nsummary: The file does not exist. To create it use create_new_file or prepare_file_append(create=true).",
    zh: "status: error\nerror: FILE_NOT_FOUND\npath: '{0}'\nsummary: 文件不存在。新建文件请用 create_new_file 或 prepare_file_append(create=true)。",
  },
  planHeading: { en: 'Plan', zh: '计划' },
  newBlocks: { en: 'New blocks', zh: '新块' },
  undoHeading: {
    en: 'Undo diff (pass it to applyBlockDiff to revert):',
    zh: '撤销用的 diff（需要时原样传给 applyBlockDiff）：',
  },
} satisfies Record<string, Record<Lang, string>>;

/** A list joined the way `lang` writes lists. */
export function listOf(items: string[], lang: Lang): string {
  return items.join(lang === 'zh' ? '、' : ', ');
}

/** The runner's text `key` in `lang`, with `args` filled in. */
export function say(key: keyof typeof TEXTS, lang: Lang, ...args: string[]): string {
  return fillTemplate(TEXTS[key][lang], args);
}
