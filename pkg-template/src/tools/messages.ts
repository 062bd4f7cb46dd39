// The tool runner's own texts, both languages side by side. A text takes
// its fill-ins by position (`{0}`, `{1}`); fill-ins are in the text's
// language (the caller passes `lang`-specific words where one is needed).
// Messages about editkit's errors come from the Rust core; these are only
// the ones the runner itself writes (host problems, unknown tools).

import { fillTemplate } from '../errors.js';
import type { Lang } from '../types.js';
import { BLOCK_ID_SCHEMA_PATTERN } from './spec.js';
import type { JsonSchema } from './spec.js';
import type { ArgProblem } from './validate.js';

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
  cancelled: {
    en: 'the call was cancelled before it wrote anything; nothing was changed.',
    zh: '调用在写入任何内容之前被取消，未做任何改动。',
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
  // {0} is the path as a YAML scalar (quoted by the runner).
  fileMissing: {
    en: 'status: error\nerror: FILE_NOT_FOUND\npath: {0}\nsummary: The file does not exist. To create it use create_new_file or prepare_file_append(create=true).',
    zh: 'status: error\nerror: FILE_NOT_FOUND\npath: {0}\nsummary: 文件不存在。新建文件请用 create_new_file 或 prepare_file_append(create=true)。',
  },
  badArguments: {
    en: '{0}: {1} argument problem(s); nothing was run.',
    zh: '{0}：参数有 {1} 处问题；未执行任何操作。',
  },
  argsNotJson: {
    en: 'the arguments are not valid JSON ({0}).',
    zh: '参数不是合法的 JSON（{0}）。',
  },
  argsNotObject: {
    en: 'the arguments must be a JSON object of named fields, got {0}.',
    zh: '参数必须是由字段组成的 JSON 对象，实际为 {0}。',
  },
  argsUnreadable: {
    en: 'the arguments could not be read ({0}); pass a plain JSON object.',
    zh: '无法读取参数（{0}）；请传入普通的 JSON 对象。',
  },
  argMissing: { en: 'Missing arguments ({0}).', zh: '缺少参数（{0}）。' },
  argUnknown: { en: '{0}: unknown argument.', zh: '{0}：未知参数。' },
  argUnknownClosest: {
    en: '{0}: unknown argument; did you mean {1}?',
    zh: '{0}：未知参数；是否想用 {1}？',
  },
  argWrongType: { en: '{0}: expected {1}, got {2}.', zh: '{0}：应为{1}，实际为{2}。' },
  argAliasConflict: {
    en: '{0} and {1} name the same argument and differ; give one of them.',
    zh: '{0} 与 {1} 是同一参数的两个名字，但取值不同；请只给一个。',
  },
  argParameters: {
    en: 'The parameters of {0} (* = required): {1}.',
    zh: '{0} 的参数（* 为必填）：{1}。',
  },
  editCreated: {
    en: 'Created {0} with new_string (the file did not exist and old_string was empty).',
    zh: '已用 new_string 创建 {0}（文件原本不存在且 old_string 为空）。',
  },
  edited: {
    en: 'Edited {0}: {1} replacement(s) {2} (strategy: {3}).',
    zh: '已编辑 {0}：替换 {1} 处，{2}（策略：{3}）。',
  },
  editLine: { en: '- edit {0}: {1} (strategy: {2})', zh: '- 第 {0} 处修改：{1}（策略：{2}）' },
  snippetPlaced: {
    en: 'Placed the snippet in {0}: {1} part(s), at {2}; the elided code is unchanged.',
    zh: '已将片段放入 {0}：{1} 个部分，位于 {2}；省略的代码保持不变。',
  },
  snippetRegion: { en: 'lines {0}–{1}', zh: '第 {0}–{1} 行' },
  commandNeeds: {
    en: '{0} needs {1}: nothing was done.',
    zh: '{0} 需要 {1}：未做任何操作。',
  },
  directoryListing: {
    en: "Here's the files and directories up to 2 levels deep in {0}, excluding hidden items:",
    zh: '{0} 中两层以内的文件和目录（不含隐藏项）：',
  },
  directoryMore: {
    en: '… and {0} more entries not shown; view a subfolder to see them.',
    zh: '……另有 {0} 项未列出；查看其中的子目录即可看到。',
  },
  directoryRange: {
    en: 'view_range is not allowed when the path is a directory ({0}): nothing was shown. Leave view_range out to list it.',
    zh: '路径是目录（{0}）时不能使用 view_range：未显示任何内容。去掉 view_range 即可列出该目录。',
  },
  insertPastEnd: {
    en: 'insert_line {0} is past the end of {1} ({2} lines): nothing was inserted. Use a line from 0 to {2}.',
    zh: 'insert_line {0} 超出了 {1} 的末尾（共 {2} 行）：未插入任何内容。请使用 0 到 {2} 之间的行号。',
  },
  inserted: {
    en: 'Inserted {0} line(s) into {1} after line {2}.',
    zh: '已在 {1} 的第 {2} 行之后插入 {0} 行。',
  },
  blockLine: { en: '- block {0}: {1} (strategy: {2})', zh: '- 第 {0} 个块：{1}（策略：{2}）' },
  hunkLine: {
    en: '- {0}, hunk {1}: lines {2} (strategy: {3})',
    zh: '- {0}，第 {1} 个补丁块：第 {2} 行（策略：{3}）',
  },
  samePathTwice: {
    en: '{0} name the same file; put all its changes under one path.',
    zh: '{0} 指向同一个文件；请把它的所有修改写在同一个路径下。',
  },
  hunkAppended: {
    en: '- {0}, hunk {1}: added at the end',
    zh: '- {0}，第 {1} 个补丁块：追加在末尾',
  },
  atLine: { en: 'at line {0}', zh: '位于{0}' },
  atLines: { en: 'at lines {0}', zh: '位于{0}' },
  lineOnly: { en: '{0}', zh: '第 {0} 行' },
  lineColumn: { en: '{0} column {1}', zh: '第 {0} 行第 {1} 列' },
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

/** One argument problem in words, in `lang`. */
export function argProblemText(p: ArgProblem, lang: Lang): string {
  switch (p.kind) {
    case 'notJson':
      return say('argsNotJson', lang, p.detail);
    case 'notObject':
      return say('argsNotObject', lang, describeGot(p.got, lang));
    case 'unreadable':
      return say('argsUnreadable', lang, p.detail);
    case 'missing':
      return say('argMissing', lang, p.fields.join(', '));
    case 'unknown':
      return p.closest
        ? say('argUnknownClosest', lang, p.field, p.closest)
        : say('argUnknown', lang, p.field);
    case 'wrongType':
      return say(
        'argWrongType',
        lang,
        p.field,
        expectedText(p.expected, lang),
        describeGot(p.got, lang),
      );
    case 'aliasConflict':
      return say('argAliasConflict', lang, p.alias, p.field);
  }
}

/** What a schema accepts, in words. */
function expectedText(schema: JsonSchema, lang: Lang): string {
  const zh = lang === 'zh';
  if (schema.anyOf) return schema.anyOf.map((s) => expectedText(s, lang)).join(zh ? '或' : ' or ');
  if (schema.enum) {
    const values = schema.enum.map((v) => JSON.stringify(v)).join(', ');
    return zh ? `以下之一：${values}` : `one of ${values}`;
  }
  switch (schema.type) {
    case 'boolean':
      return zh ? ' true 或 false' : 'true or false';
    case 'integer': {
      const min = schema.minimum;
      if (zh) return min === undefined ? '整数' : `不小于 ${min} 的整数`;
      return min === undefined ? 'a whole number' : `a whole number ≥ ${min}`;
    }
    case 'number':
      return zh ? '数字' : 'a number';
    case 'array': {
      const min = schema.minItems ?? 0;
      if (schema.maxItems !== undefined && schema.maxItems === min)
        return zh ? `恰好含 ${min} 项的列表` : `a list of exactly ${min} item(s)`;
      if (zh) return min > 0 ? `至少含 ${min} 项的列表` : '列表';
      return min > 0 ? `a list of at least ${min} item(s)` : 'a list';
    }
    case 'object':
      return zh ? '对象' : 'an object';
    default:
      if (schema.pattern === BLOCK_ID_SCHEMA_PATTERN)
        return zh
          ? '块 ID（14 位数字、"-"、7 位小写字母或数字，例如 20240614083000-a1b2c3d）'
          : 'a block id (14 digits, "-", 7 lowercase letters or digits, e.g. 20240614083000-a1b2c3d)';
      if (schema.pattern)
        return zh ? `符合 /${schema.pattern}/ 的字符串` : `a string matching /${schema.pattern}/`;
      return zh ? '字符串' : 'a string';
  }
}

/** A value as "got …" words: the string "true", the number 1, a list, an object. */
function describeGot(value: unknown, lang: Lang): string {
  const zh = lang === 'zh';
  if (value === null) return 'null';
  if (Array.isArray(value)) {
    if (value.length === 0) return zh ? '空列表' : 'an empty list';
    return zh ? '列表' : 'a list';
  }
  switch (typeof value) {
    case 'string': {
      const shown = JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
      return zh ? `字符串 ${shown}` : `the string ${shown}`;
    }
    case 'number':
      return zh ? `数字 ${value}` : `the number ${value}`;
    case 'boolean':
      return String(value);
    case 'object':
      return zh ? '对象' : 'an object';
    default:
      return typeof value;
  }
}
