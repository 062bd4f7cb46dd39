// `editkit-mcp`: editkit's agent tools over the Model Context Protocol.
//   editkit-mcp --root DIR                        file tools on DIR (stdio)
//   editkit-mcp --siyuan URL --token T            SiYuan tools on a kernel
//   editkit-mcp --root DIR --http 3000            streamable HTTP on localhost:3000/mcp
//
// A wrong flag prints the usage (exit 2); a failure once the flags are
// right (a root that does not exist, a port in use) is one line (exit 1).

import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createNodeFileHost, createSiyuanHost, createToolRunner, kernelRequest } from 'editkit';
import type { Lang, ToolRunnerOptions } from 'editkit';
import { isLoopbackHost, serveHttp } from './http.js';
import { createEditkitMcpServer } from './server.js';

const USAGE = `Usage: editkit-mcp [--root DIR] [--siyuan URL --token TOKEN] [options]

Serves editkit's agent tools over the Model Context Protocol (stdio, or
streamable HTTP with --http).
  --root DIR          the file tools (read_file, edit, apply_patch, …) on files under DIR
  --siyuan URL        the SiYuan tools on the kernel at URL (env SIYUAN_URL)
  --token TOKEN       the kernel's API token (env SIYUAN_TOKEN)
  --lang en|zh        language of tool descriptions and results (default en)
  --timeout-ms N      how long one file or kernel call may take (default 30000)
  --http PORT         serve streamable HTTP at http://HOST:PORT/mcp instead of stdio
  --host HOST         the address --http binds (default: 127.0.0.1 and ::1)
  --http-token TOKEN  require "Authorization: Bearer TOKEN" over HTTP (env EDITKIT_MCP_TOKEN)
  -v, --version       print the version
  -h, --help          print this help
At least one of --root and --siyuan is needed.`;

/** A wrong command line: the reason, then the usage. */
function fail(message: string): never {
  process.stderr.write(`editkit-mcp: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

/** A failure once the command line is right: one line, no usage, no stack. */
function die(message: string): never {
  process.stderr.write(`editkit-mcp: ${message}\n`);
  process.exit(1);
}

/** An error's message without the library function it names (`createNodeFileHost: …`). */
function said(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return message.replace(/^[a-z][A-Za-z]+[:：] ?/, '');
}

/** Why `--http` could not listen, in a user's words. */
function listenFailure(e: unknown, where: string): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'EADDRINUSE':
      return `cannot listen on ${where}: the port is in use (another program, or another editkit-mcp); choose another --http PORT, or 0 for any free one`;
    case 'EACCES':
      return `cannot listen on ${where}: permission denied (ports below 1024 need privileges); choose another --http PORT`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${where}: no such address on this machine; check --host`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot listen on ${where}: the host name does not resolve; check --host`;
    default:
      return `cannot listen on ${where}: ${said(e)}`;
  }
}

function version(): string {
  try {
    const here = dirname(fileURLToPath(import.meta.url));
    return String(JSON.parse(readFileSync(join(here, '..', 'package.json'), 'utf8')).version);
  } catch {
    return '0.0.0';
  }
}

function readArgs() {
  try {
    return parseArgs({
      args: process.argv.slice(2),
      strict: true,
      allowPositionals: false,
      options: {
        root: { type: 'string' },
        siyuan: { type: 'string' },
        token: { type: 'string' },
        lang: { type: 'string' },
        'timeout-ms': { type: 'string' },
        http: { type: 'string' },
        host: { type: 'string' },
        'http-token': { type: 'string' },
        version: { type: 'boolean', short: 'v' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (e) {
    return fail(e instanceof Error ? e.message : String(e));
  }
}

const args = readArgs();
if (args.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (args.version) {
  process.stdout.write(`${version()}\n`);
  process.exit(0);
}
if (args.lang !== undefined && args.lang !== 'en' && args.lang !== 'zh')
  fail(`--lang must be en or zh, got ${JSON.stringify(args.lang)}`);
const lang: Lang = args.lang === 'zh' ? 'zh' : 'en';
const timeoutMs = args['timeout-ms'] === undefined ? undefined : Number(args['timeout-ms']);
if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0))
  fail('--timeout-ms must be a positive whole number');
const port = args.http === undefined ? undefined : Number(args.http);
if (port !== undefined && !(/^\d+$/.test(args.http ?? '') && port < 65536))
  fail('--http must be a port number (0 to 65535)');
if (port === undefined && (args.host !== undefined || args['http-token'] !== undefined))
  fail('--host and --http-token go with --http PORT');
const httpToken = args['http-token'] ?? process.env.EDITKIT_MCP_TOKEN;
// Anyone who reaches a non-loopback address could use the tools.
if (port !== undefined && args.host !== undefined && !isLoopbackHost(args.host) && !httpToken)
  fail(
    `serving on ${args.host} needs a token (a non-loopback address is reachable by others): add --http-token TOKEN`,
  );
const siyuanUrl = args.siyuan ?? process.env.SIYUAN_URL;
const token = args.token ?? process.env.SIYUAN_TOKEN;
if (args.token !== undefined && !siyuanUrl) fail('--token goes with --siyuan URL (or SIYUAN_URL)');
if (!args.root && !siyuanUrl) fail('give --root DIR, --siyuan URL, or both');

const options: ToolRunnerOptions = { lang, ...(timeoutMs ? { timeoutMs } : {}) };
const hiddenFolders: string[] = [];
try {
  if (args.root) {
    try {
      options.files = createNodeFileHost({ root: args.root, lang });
    } catch {
      die(`--root ${args.root} is not an existing folder`);
    }
    const root = resolve(args.root);
    hiddenFolders.push(root);
    try {
      hiddenFolders.push(realpathSync(root));
    } catch {
      // The host reports a missing root on first use.
    }
  }
  if (siyuanUrl)
    options.siyuan = createSiyuanHost({
      request: kernelRequest({ baseUrl: siyuanUrl, lang, ...(token ? { token } : {}) }),
      ...(timeoutMs ? { timeoutMs } : {}),
    });
} catch (e) {
  die(said(e));
}

// One runner for every session: the plans an agent prepares stay
// applicable whichever connection applies them.
const runner = createToolRunner(options);
const newServer = () =>
  createEditkitMcpServer({ runner, name: 'editkit-mcp', version: version(), hiddenFolders, lang });

if (port === undefined) {
  await newServer().connect(new StdioServerTransport());
} else {
  const bare = (args.host ?? 'localhost').replace(/^\[(.*)\]$/, '$1');
  const where = `${bare.includes(':') ? `[${bare}]` : bare}:${port}`;
  const endpoint = await serveHttp({
    createServer: newServer,
    port,
    ...(args.host ? { host: args.host } : {}),
    ...(httpToken ? { token: httpToken } : {}),
  }).catch((e: unknown) => die(listenFailure(e, where)));
  const access = endpoint.tokenRequired
    ? 'token required: clients send Authorization: Bearer <token>'
    : 'no token required: local clients only';
  process.stderr.write(`editkit-mcp: listening on ${endpoint.urls.join(' and ')} (${access})\n`);
  const stop = () => void endpoint.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
