import type { EditkitErrorData, ErrorCode, Lang, LineRange } from './types.js';

const BRAND = Symbol.for('editkit.EditkitError');

/**
 * The only error editkit throws. `code` is stable; `message` is for people.
 * `C` narrows the code where the caller knows the function's failures
 * (`EditkitError<ReplaceErrorCode>` for `replaceText`).
 */
export class EditkitError<C extends ErrorCode = ErrorCode>
  extends Error
  implements EditkitErrorData<C>
{
  readonly code: C;
  // `declare`: the optional fields exist only when set (an ES2022 class
  // field would be defined as `undefined`, and every one would print).
  declare readonly line?: number;
  declare readonly blockId?: string;
  declare readonly hunkIndex?: number;
  declare readonly suggestions?: string[];
  declare readonly candidates?: LineRange[];
  declare readonly subject?: string;
  declare readonly similarity?: number;
  declare readonly expected?: string;
  declare readonly actual?: string;
  declare readonly diff?: string;
  /** Further blocks the error is about (children that would get new ids, blocks a rollback could not restore). */
  declare readonly blockIds?: string[];
  declare readonly yaml?: string;
  /** Why, where one code has several causes: `'expired'` for a `HUNK_NOT_FOUND` plan past its TTL. */
  declare readonly reason?: string;
  declare readonly errors?: EditkitErrorData[];

  constructor(data: EditkitErrorData<C>, options?: { cause?: unknown }) {
    super(data.message, options);
    this.name = 'EditkitError';
    this.code = data.code;
    for (const key of Object.keys(data) as (keyof EditkitErrorData)[]) {
      if (key !== 'message' && key !== 'code' && data[key] !== undefined) {
        (this as unknown as Record<string, unknown>)[key] = data[key];
      }
    }
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** The plain data (for logging, or sending to an agent as JSON). */
  toJSON(): EditkitErrorData<C> {
    const out: Record<string, unknown> = { code: this.code, message: this.message };
    for (const [k, v] of Object.entries(this)) {
      if (v !== undefined && k !== 'name') out[k] = v;
    }
    return out as unknown as EditkitErrorData<C>;
  }
}

/** True for an `EditkitError`, also one from another bundled copy of editkit. */
/**
 * The codes of a wrong call, which every function throws (the package
 * README, "How each function fails"); a function that reports many
 * changes returns every other failure in its report.
 */
const CALL_CODES: ReadonlySet<string> = new Set([
  'INVALID_ARGUMENT',
  'INVALID_TEXT',
  'HOST_CAPABILITY_MISSING',
  'INTERNAL_ERROR',
]);

/** Whether `e` is a wrong call (or not editkit's error at all): thrown, never reported. */
export function isCallError(e: unknown): boolean {
  return !isEditkitError(e) || CALL_CODES.has(e.code);
}

export function isEditkitError(value: unknown): value is EditkitError {
  if (value instanceof EditkitError) return true;
  if (typeof value !== 'object' || value === null) return false;
  try {
    return (value as Record<symbol, unknown>)[BRAND] === true;
  } catch {
    return false; // a Proxy or a getter that throws is not an EditkitError
  }
}

type Texts = Record<Lang, string>;

const MESSAGES = {
  invalidText: {
    en: 'The string `{0}` contains a lone UTF-16 surrogate, which would be silently replaced by U+FFFD and corrupt the text. Pass well-formed text.',
    zh: '字符串 `{0}` 含有孤立的 UTF-16 代理项，会被悄然替换为 U+FFFD 而损坏文本。请传入格式正确的文本。',
  },
  invalidArgument: {
    en: 'Invalid argument `{0}`: {1}',
    zh: '参数 `{0}` 无效：{1}',
  },
  internal: {
    en: 'editkit hit an internal error and was restarted; the call did nothing. Please report it with the input that caused it. ({0})',
    zh: 'editkit 发生内部错误并已重启；本次调用未产生任何作用。请附上触发它的输入报告此问题。（{0}）',
  },
  notInitialised: {
    en: 'editkit is not initialised: with the browser build, await init() (or call initSync({ module })) before calling any other editkit function.',
    zh: 'editkit 尚未初始化：浏览器构建需先 await init()（或调用 initSync({ module })）再调用其他函数。',
  },
  notInitialisedNode: {
    en: 'editkit is not initialised: editkit_bg.wasm was not found next to this module ({0}), as happens when the Node build is bundled. Copy node_modules/editkit/dist/editkit_bg.wasm next to the bundle, or load it first: initSync({ module: readFileSync(pathToWasm) }) or await init({ module_or_path: pathToWasm }).',
    zh: 'editkit 尚未初始化：在本模块旁没有找到 editkit_bg.wasm（{0}），打包 Node 构建时会出现这种情况。请把 node_modules/editkit/dist/editkit_bg.wasm 复制到打包结果旁，或先加载它：initSync({ module: readFileSync(wasm 路径) }) 或 await init({ module_or_path: wasm 路径 })。',
  },
  notInitialisedBroken: {
    en: 'editkit is not initialised: {0} is there but could not be loaded ({1}); it may be damaged or from another editkit version. Reinstall editkit, or load the right file with initSync({ module }) or init({ module_or_path }).',
    zh: 'editkit 尚未初始化：{0} 存在但无法加载（{1}），可能已损坏或来自其他版本的 editkit。请重新安装 editkit，或用 initSync({ module }) / init({ module_or_path }) 加载正确的文件。',
  },
  patchWriteFailed: {
    en: 'A write failed: {0}. Files written before it were restored: {1}; not restored: {2}. Check those files before applying the patch again.',
    zh: '写入失败：{0}。此前已写入的文件已恢复：{1}；未能恢复：{2}。请检查这些文件后再重新应用补丁。',
  },
  patchCallbackMissing: {
    en: 'This patch needs files.{0}, which the host does not provide; nothing was written.',
    zh: '该补丁需要 files.{0}，但宿主没有提供；未写入任何内容。',
  },
  snippetFileMissing: {
    en: 'There is no file `{0}` to place the snippet in; nothing was written.',
    zh: '没有文件 `{0}` 可放置片段；未写入任何内容。',
  },
  modeNotSet: {
    en: 'The diff sets the mode of `{0}` to {1}, which the host cannot do (no files.setMode); the text was written, the mode was not.',
    zh: '该 diff 把 `{0}` 的权限模式设为 {1}，但宿主无法设置（没有 files.setMode）；文本已写入，模式未设置。',
  },
  none: { en: 'none', zh: '无' },
} satisfies Record<string, Texts>;

/** The message `key` in `lang`, filled with `args`. */
export function say(key: keyof typeof MESSAGES, lang: Lang, ...args: string[]): string {
  return fillTemplate(MESSAGES[key][lang] ?? MESSAGES[key].en, args);
}

/** `template` with `{0}`…`{9}` replaced by `args` (missing ones by nothing). */
export function fillTemplate(template: string, args: string[]): string {
  return template.replace(/\{(\d)\}/g, (_, i: string) => args[Number(i)] ?? '');
}

export function jsError(
  code: ErrorCode,
  key: keyof typeof MESSAGES,
  lang: Lang,
  args: string[],
  extra: Partial<EditkitErrorData> = {},
  cause?: unknown,
): EditkitError {
  const message = fillTemplate(MESSAGES[key][lang] ?? MESSAGES[key].en, args);
  return new EditkitError({ code, message, ...extra }, cause === undefined ? undefined : { cause });
}

/**
 * Reads `keys` of an options object the caller passed, so that a getter
 * that throws (or a Proxy) becomes an `INVALID_ARGUMENT`, not a stray error.
 */
export function readOptions<K extends string>(
  value: unknown,
  keys: readonly K[],
  name: string,
): Partial<Record<K, unknown>> {
  const out: Partial<Record<K, unknown>> = {};
  if (value === undefined || value === null) return out;
  if (typeof value !== 'object' && typeof value !== 'function') {
    throw jsError('INVALID_ARGUMENT', 'invalidArgument', 'en', [name, 'expected an object'], {
      subject: name,
    });
  }
  for (const key of keys) {
    try {
      out[key] = (value as Record<string, unknown>)[key];
    } catch (e) {
      throw jsError(
        'INVALID_ARGUMENT',
        'invalidArgument',
        'en',
        [`${name}.${key}`, 'could not be read'],
        { subject: name },
        e,
      );
    }
  }
  return out;
}
