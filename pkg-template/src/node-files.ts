// A files host on the real file system, for the Node entry only (SPEC
// §9.1): every path is kept inside `root`, writes are atomic, and a file
// is written back in the encoding it was read in, so an edit changes only
// the bytes it changes.

import { randomBytes } from 'node:crypto';
import { constants as fsConstants, promises as fs, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { EditkitError, fillTemplate, jsError, readOptions } from './errors.js';
import type { Lang } from './types.js';
import type { FileHost } from './tools/types.js';

export interface NodeFileHostOptions {
  /** The folder the tools may read and write; nothing outside it is reachable. */
  root: string;
  /** Language of the host's refusals (default `en`). */
  lang?: Lang;
}

/** A {@link FileHost} on the real file system, confined to `root`. */
export interface NodeFileHost extends FileHost {
  readFile(path: string): Promise<string | null>;
  writeFile(path: string, content: string): Promise<void>;
  exists(path: string): Promise<{ exists: boolean; isFile: boolean }>;
  /** Removes a file under the root (a patch's deletion or rename); a missing file is no error. */
  deleteFile(path: string): Promise<void>;
  /**
   * The names in the folder `path` (the root itself included: `.` or the
   * root's path), a folder's name ending in `/`, in name order; `null` when
   * `path` is not a folder. Symbolic links are listed by their own name and
   * not followed.
   */
  listDirectory(path: string): Promise<string[] | null>;
  /** The real, absolute root. */
  readonly root: string;
  /** One key per file however its path is spelt (`a.txt`, `./a.txt`, absolute), for locks. */
  lockKey(path: string): string;
}

type Encoding = 'utf8' | 'utf16le' | 'utf16be';

const TEXTS = {
  outside: {
    en: '{0} is outside the root {1}; the file tools reach only files under it.',
    zh: '{0} 在根目录 {1} 之外；文件工具只能访问其中的文件。',
  },
  empty: {
    en: 'the path is empty; give a file path under {0}.',
    zh: '路径为空；请给出 {0} 下的文件路径。',
  },
  nul: {
    en: 'the path contains a NUL character, which no file name may hold.',
    zh: '路径含有 NUL 字符，文件名不能包含它。',
  },
  isRoot: {
    en: '{0} names the root folder {1} itself, not a file under it.',
    zh: '{0} 指的是根目录 {1} 本身，而不是其中的文件。',
  },
  dangling: {
    en: '{0} leads through the symbolic link {1}, whose target does not exist; such a path is refused because where a write would land cannot be checked.',
    zh: '{0} 经过符号链接 {1}，而其目标不存在；无法确认写入会落在何处，因此拒绝。',
  },
  notAFile: {
    en: '{0} is not a regular file; only files are deleted.',
    zh: '{0} 不是普通文件；只删除文件。',
  },
  readOnly: {
    en: '{0} is read-only; it is left as it is.',
    zh: '{0} 是只读文件，保持不变。',
  },
  symlink: {
    // Where the link leads is not said: a model must not learn the
    // server's folders outside the root (the root itself is the host's to
    // show or hide, see editkit-mcp).
    en: '{0} leads through a symbolic link out of the root {1}.',
    zh: '{0} 经符号链接指向根目录 {1} 之外。',
  },
  notText: {
    en: '{0} is not UTF-8 text (and has no UTF-16 byte order mark); editing it could corrupt it, so it is not read.',
    zh: '{0} 不是 UTF-8 文本（也没有 UTF-16 字节序标记）；编辑可能损坏它，因此不读取。',
  },
  notFile: {
    en: '{0} is not a regular file.',
    zh: '{0} 不是普通文件。',
  },
  badRoot: {
    en: 'createNodeFileHost: root {0} is not an existing folder.',
    zh: 'createNodeFileHost：根目录 {0} 不是已存在的文件夹。',
  },
} satisfies Record<string, Record<Lang, string>>;

/**
 * A files host for the tool runner on the real file system. Paths are
 * relative to `root` (absolute paths must lie inside it); `..`, absolute
 * paths elsewhere, symbolic links leading out and NUL characters are
 * refused with `PATH_OUTSIDE_ROOT`. Reads decode UTF-8 (a BOM is kept as
 * U+FEFF) or BOM-marked UTF-16 and refuse anything else (`NOT_TEXT`);
 * writes go to a temporary file that is renamed over the target, keep the
 * file's mode, and encode the text as the file was read.
 */
export function createNodeFileHost(opts: NodeFileHostOptions): NodeFileHost {
  const o = readOptions(opts, ['root', 'lang'] as const, 'options');
  const lang: Lang = o.lang === 'zh' ? 'zh' : 'en';
  const say = (key: keyof typeof TEXTS, ...args: string[]) => fillTemplate(TEXTS[key][lang], args);
  if (typeof o.root !== 'string' || o.root === '' || o.root.includes('\0'))
    throw jsError('INVALID_ARGUMENT', 'invalidArgument', lang, ['root', 'expected a folder path'], {
      subject: 'root',
    });
  // The root as the caller spelt it (through a symlink such as macOS's
  // /tmp → /private/tmp): absolute paths under that spelling are inside.
  const given = resolve(o.root);
  let root: string;
  try {
    // The OS's own realpath, as for every path checked below (the JS one
    // differs on Windows short names and subst drives).
    root = realpathSync.native(given);
    if (!statSync(root).isDirectory()) throw new Error('not a directory');
  } catch (e) {
    throw new EditkitError(
      { code: 'INVALID_ARGUMENT', subject: 'root', message: say('badRoot', o.root) },
      { cause: e },
    );
  }
  const encodings = new Map<string, Encoding>();

  const outside = (path: string, message: string) =>
    new EditkitError({ code: 'PATH_OUTSIDE_ROOT', subject: path, message });
  const under = (base: string, p: string) => {
    const rel = relative(base, p);
    return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
  };
  const inside = (real: string) => under(root, real);

  /** Where `path` lies under the root, by its spelling alone (symlinks not yet followed). */
  function lexical(path: string, rootAllowed = false): string {
    if (typeof path !== 'string' || path === '') throw outside(String(path), say('empty', root));
    if (path.includes('\0')) throw outside(path, say('nul'));
    const resolved = resolve(root, path);
    const rebased =
      isAbsolute(path) && !under(root, resolved) && under(given, resolved)
        ? join(root, relative(given, resolved))
        : resolved;
    if (!inside(rebased)) throw outside(path, say('outside', path, root));
    if (rebased === root && !rootAllowed) throw outside(path, say('isRoot', path, root));
    return rebased;
  }

  /** The real path `path` names, checked to stay under the root (through every existing symlink). */
  async function locate(path: string, rootAllowed = false): Promise<string> {
    // The deepest part that exists decides where symlinks lead.
    let existing = lexical(path, rootAllowed);
    const rest: string[] = [];
    for (;;) {
      try {
        const real = await fs.realpath(existing);
        if (!inside(real)) throw outside(path, say('symlink', path, root));
        return rest.length ? join(real, ...rest.reverse()) : real;
      } catch (e) {
        if (e instanceof EditkitError) throw e;
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
        // A dangling symlink is refused: where a write through it lands
        // is not checked.
        const link = await fs.lstat(existing).catch(() => null);
        if (link?.isSymbolicLink()) throw outside(path, say('dangling', path, existing));
        rest.push(basename(existing));
        existing = dirname(existing);
      }
    }
  }

  return {
    root,
    lockKey: (path: string) => {
      try {
        return lexical(path);
      } catch {
        return String(path);
      }
    },
    async readFile(path) {
      const real = await locate(path);
      let bytes: Buffer;
      try {
        bytes = await fs.readFile(real);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') {
          encodings.delete(real);
          return null;
        }
        if (code === 'EISDIR')
          throw new EditkitError({
            code: 'NOT_A_FILE',
            subject: path,
            message: say('notFile', path),
          });
        throw e;
      }
      const decoded = decode(bytes);
      if (decoded === null)
        throw new EditkitError({ code: 'NOT_TEXT', subject: path, message: say('notText', path) });
      encodings.set(real, decoded.encoding);
      return decoded.text;
    },
    async writeFile(path, content) {
      const real = await locate(path);
      const stat = await fs.stat(real).catch(() => null);
      if (stat) {
        // A rename needs only the folder to be writable: without this a
        // read-only file would be replaced.
        const writable = await fs.access(real, fsConstants.W_OK).then(
          () => true,
          () => false,
        );
        if (!writable)
          throw new EditkitError({
            code: 'HOST_ERROR',
            subject: path,
            message: say('readOnly', path),
          });
      } else {
        encodings.delete(real);
      }
      const mode = stat ? stat.mode & 0o7777 : undefined;
      await fs.mkdir(dirname(real), { recursive: true });
      // Short and name-independent: a temp name never outgrows NAME_MAX.
      const temp = join(dirname(real), `.editkit-${randomBytes(6).toString('hex')}.tmp`);
      try {
        await fs.writeFile(temp, encode(content, encodings.get(real) ?? 'utf8'), {
          flag: 'wx',
          ...(mode !== undefined ? { mode } : {}),
        });
        if (mode !== undefined) await fs.chmod(temp, mode);
        await fs.rename(temp, real);
      } catch (e) {
        await fs.rm(temp, { force: true });
        throw e;
      }
    },
    async exists(path) {
      const real = await locate(path);
      const stat = await fs.stat(real).catch(() => null);
      return { exists: stat !== null, isFile: stat?.isFile() ?? false };
    },
    async listDirectory(path) {
      const real = await locate(path, true);
      try {
        const entries = await fs.readdir(real, { withFileTypes: true });
        return entries
          .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
          .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') return null;
        throw e;
      }
    },
    async deleteFile(path) {
      const real = await locate(path);
      const stat = await fs.lstat(real).catch(() => null);
      if (!stat) return;
      if (!stat.isFile())
        throw new EditkitError({
          code: 'NOT_A_FILE',
          subject: path,
          message: say('notAFile', path),
        });
      await fs.rm(real);
      encodings.delete(real);
    },
  };
}

/** The text of `bytes` and how to write it back, or `null` when it is not text we can round-trip. */
function decode(bytes: Buffer): { text: string; encoding: Encoding } | null {
  const encoding: Encoding =
    bytes[0] === 0xff && bytes[1] === 0xfe
      ? 'utf16le'
      : bytes[0] === 0xfe && bytes[1] === 0xff
        ? 'utf16be'
        : 'utf8';
  const label = encoding === 'utf8' ? 'utf-8' : encoding === 'utf16le' ? 'utf-16le' : 'utf-16be';
  try {
    // fatal: a byte sequence that does not decode is refused, never turned
    // into U+FFFD (which a write would then store). ignoreBOM keeps the
    // BOM in the text as U+FEFF, so it is written back.
    return {
      text: new TextDecoder(label, { fatal: true, ignoreBOM: true }).decode(bytes),
      encoding,
    };
  } catch {
    return null;
  }
}

function encode(text: string, encoding: Encoding): Buffer {
  if (encoding === 'utf8') return Buffer.from(text, 'utf8');
  const le = Buffer.from(text, 'utf16le');
  return encoding === 'utf16le' ? le : le.swap16();
}
