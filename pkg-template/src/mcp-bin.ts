// `editkit-mcp`: editkit's tools as a stdio MCP server.
//   editkit-mcp --root DIR                       file tools on DIR
//   editkit-mcp --siyuan URL --token T           SiYuan tools on a kernel
//   (SIYUAN_URL / SIYUAN_TOKEN work too; --lang zh|en; --timeout-ms N)
// Built as dist/mcp.js next to dist/node.js, which it imports (the build
// keeps `./node.js` external), so the bin adds a few kilobytes, no copy of
// the library and no dependency.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createNodeFileHost,
  createSiyuanHost,
  createToolRunner,
  kernelRequest,
  serveMcp,
} from './node.js';
import type { Lang, ToolRunnerOptions } from './node.js';

const USAGE = `Usage: editkit-mcp [--root DIR] [--siyuan URL --token TOKEN] [--lang en|zh] [--timeout-ms N]

Serves editkit's agent tools over the Model Context Protocol (stdio).
  --root DIR        the file tools (read_file, edit, multi_edit, prepare_*, …) on files under DIR
  --siyuan URL      the SiYuan tools on the kernel at URL (env SIYUAN_URL)
  --token TOKEN     the kernel's API token (env SIYUAN_TOKEN)
  --lang en|zh      language of tool descriptions and results (default en)
  --timeout-ms N    how long one file or kernel call may take (default 30000)
At least one of --root and --siyuan is needed.`;

function fail(message: string): never {
  process.stderr.write(`editkit-mcp: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

function parse(argv: string[]): Record<string, string> {
  const known = new Set(['root', 'siyuan', 'token', 'lang', 'timeout-ms']);
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--help' || arg === '-h') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    }
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!m || !known.has(m[1] ?? '')) fail(`unknown argument ${JSON.stringify(arg)}`);
    const value = m[2] ?? argv[++i];
    if (value === undefined) fail(`--${m[1]} needs a value`);
    out[m[1] as string] = value;
  }
  return out;
}

function version(): string {
  try {
    const here = dirname(fileURLToPath(import.meta.url));
    return String(JSON.parse(readFileSync(join(here, '..', 'package.json'), 'utf8')).version);
  } catch {
    return '0.0.0';
  }
}

const args = parse(process.argv.slice(2));
const lang: Lang = args.lang === 'zh' ? 'zh' : 'en';
if (args.lang !== undefined && args.lang !== 'en' && args.lang !== 'zh')
  fail(`--lang must be en or zh, got ${JSON.stringify(args.lang)}`);
const timeoutMs = args['timeout-ms'] === undefined ? undefined : Number(args['timeout-ms']);
if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0))
  fail('--timeout-ms must be a positive whole number');
const siyuanUrl = args.siyuan ?? process.env.SIYUAN_URL;
const token = args.token ?? process.env.SIYUAN_TOKEN;
if (!args.root && !siyuanUrl) fail('give --root DIR, --siyuan URL, or both');

const options: ToolRunnerOptions = { lang, ...(timeoutMs ? { timeoutMs } : {}) };
try {
  if (args.root) options.files = createNodeFileHost({ root: args.root, lang });
  if (siyuanUrl)
    options.siyuan = createSiyuanHost({
      request: kernelRequest({ baseUrl: siyuanUrl, ...(token ? { token } : {}) }),
      ...(timeoutMs ? { timeoutMs } : {}),
    });
} catch (e) {
  fail(e instanceof Error ? e.message : String(e));
}

void serveMcp({ runner: createToolRunner(options), name: 'editkit-mcp', version: version() });
