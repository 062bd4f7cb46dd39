// editkit-mcp (the package built in pkg-mcp/, on the MCP SDK) end to end:
// the bin over stdio with the SDK's own client and with the JSON-RPC
// SiYuan's Go client sends, over streamable HTTP (sessions, bearer token,
// local clients only), and in process for cancellation and progress.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { ek, repo, scratchDir } from './support.mjs';
import { fixtureDouble } from './kernel-support.mjs';

/** An MCP `initialize` request's body, as a client's first POST sends it. */
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'x', version: '1' },
  },
});

const mcp = await import(join(repo, 'pkg-mcp', 'dist', 'index.js'));
const BIN = join(repo, 'pkg-mcp', 'dist', 'cli.js');
const VERSION = JSON.parse(readFileSync(join(repo, 'pkg', 'package.json'), 'utf8')).version;
const TOKEN = 'test-token';
const PARA = '20240614083000-a1b2c3d';
let kernel;
let kernelUrl;
let double;
const seenTokens = [];

before(async () => {
  double = await fixtureDouble();
  kernel = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', async () => {
      seenTokens.push(req.headers.authorization);
      if (req.headers.authorization !== `Token ${TOKEN}`) {
        res.writeHead(401).end();
        return;
      }
      const answer = await double.request(req.url, body ? JSON.parse(body) : {});
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise((resolve) => kernel.listen(0, '127.0.0.1', resolve));
  kernelUrl = `http://127.0.0.1:${kernel.address().port}`;
});

after(() => kernel.close());

async function connect(args, env = {}) {
  const client = new Client({ name: 'editkit-test', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, ...args],
    env: { PATH: process.env.PATH, ...env },
    stderr: 'pipe',
  });
  await client.connect(transport);
  return client;
}

const text = (result) => result.content.map((c) => c.text).join('\n');

/** The tools that only read (the MCP hint a client auto-approves). */
const READ_ONLY = [
  'getBlockInfo',
  'getBlockContent',
  'read_file',
  'prepare_file_range_edit',
  'prepare_file_append',
  'prepare_file_insert_after',
  'prepare_file_insert_before',
  'prepare_file_block_replace',
];
const ADDITIVE = ['appendContent', 'createNewDoc', 'create_new_file'];
const IDEMPOTENT = ['overwrite_entire_file', 'apply_file_modification'];
const TEXT_ONLY = [];

test('files over stdio: annotated tools, an edit with its structured result, one error shape', async () => {
  const base = scratchDir('editkit-mcp-');
  const root = join(base, 'project');
  mkdirSync(root);
  writeFileSync(join(base, 'secret.txt'), 'keep out\n');
  writeFileSync(join(root, 'app.py'), 'def main():\n    print("hi")\n');
  const client = await connect(['--root', root]);
  try {
    assert.deepEqual(client.getServerVersion(), { name: 'editkit-mcp', version: VERSION });
    const { tools } = await client.listTools();
    const expected = ek.toolDefinitions({ toolsets: ['files'] }).tools.map((t) => t.name);
    assert.deepEqual(
      tools.map((t) => t.name),
      expected,
    );
    for (const t of tools) {
      assert.equal(t.annotations.readOnlyHint, READ_ONLY.includes(t.name), t.name);
      assert.equal(t.annotations.openWorldHint, false, t.name);
      assert.equal(typeof t.title, 'string', t.name);
      if (!READ_ONLY.includes(t.name)) {
        assert.equal(t.annotations.destructiveHint, !ADDITIVE.includes(t.name), t.name);
        assert.equal(t.annotations.idempotentHint, IDEMPOTENT.includes(t.name), t.name);
      }
      assert.equal(t.outputSchema === undefined, TEXT_ONLY.includes(t.name), t.name);
    }
    assert.equal(tools.find((t) => t.name === 'edit').title, 'Edit a file (replace text)');
    assert.match(client.getInstructions(), /^# Editing text files/);

    const edit = await client.callTool({
      name: 'edit',
      arguments: { path: 'app.py', old_string: 'print("hi")', new_string: 'print("hello")' },
    });
    assert.equal(edit.isError, false, text(edit));
    // The diff it shows and its undo: one header style.
    assert.equal(
      text(edit),
      'Edited app.py: 1 replacement(s) at line 2 (strategy: exact).\n\n```diff\n--- a/app.py\n+++ b/app.py\n@@ -1,2 +1,2 @@\n def main():\n-    print("hi")\n+    print("hello")\n```',
    );
    assert.deepEqual(edit.structuredContent, {
      path: 'app.py',
      strategy: 'exact',
      occurrences: 1,
      matches: [
        {
          strategy: 'exact',
          start: 16,
          end: 27,
          startLine: 2,
          endLine: 2,
          startColumn: 5,
          text: 'print("hi")',
          score: 1,
        },
      ],
      undo: '--- a/app.py\n+++ b/app.py\n@@ -1,2 +1,2 @@\n def main():\n-    print("hello")\n+    print("hi")\n',
    });
    assert.equal(readFileSync(join(root, 'app.py'), 'utf8'), 'def main():\n    print("hello")\n');
    // Its undo, applied, puts the file back.
    const undone = await client.callTool({
      name: 'apply_diff',
      arguments: { diff: edit.structuredContent.undo },
    });
    assert.equal(undone.isError, false, text(undone));
    assert.equal(readFileSync(join(root, 'app.py'), 'utf8'), 'def main():\n    print("hi")\n');
    // An absolute path inside the root is answered as the relative one:
    // the text, the data and the undo name app.py.
    const absolute = await client.callTool({
      name: 'edit',
      arguments: { path: join(root, 'app.py'), old_string: '"hi"', new_string: '"hey"' },
    });
    assert.equal(absolute.isError, false, text(absolute));
    assert.equal(absolute.structuredContent.path, 'app.py');
    assert.equal(
      text(absolute),
      'Edited app.py: 1 replacement(s) at line 2 (strategy: exact).\n\n```diff\n--- a/app.py\n+++ b/app.py\n@@ -1,2 +1,2 @@\n def main():\n-    print("hi")\n+    print("hey")\n```',
    );
    assert.equal(
      absolute.structuredContent.undo,
      '--- a/app.py\n+++ b/app.py\n@@ -1,2 +1,2 @@\n def main():\n-    print("hey")\n+    print("hi")\n',
    );
    const patched = await client.callTool({
      name: 'apply_patch',
      arguments: {
        patch: `*** Begin Patch\n*** Update File: ${join(root, 'app.py')}\n@@\n-    print("hey")\n+    print("hi")\n*** End Patch`,
      },
    });
    assert.equal(patched.isError, false, text(patched));
    assert.deepEqual(patched.structuredContent.written, ['app.py']);
    assert.ok(!JSON.stringify(patched).includes(root), text(patched));
    const diffed = await client.callTool({
      name: 'apply_diff',
      arguments: {
        diff: `--- ${join(root, 'app.py')}\n+++ ${join(root, 'app.py')}\n@@ -1,2 +1,2 @@\n def main():\n-    print("hi")\n+    print("hey")\n`,
      },
    });
    assert.equal(diffed.isError, false, text(diffed));
    assert.deepEqual(diffed.structuredContent.written, ['app.py']);
    assert.ok(!JSON.stringify(diffed).includes(root), text(diffed));
    await client.callTool({
      name: 'apply_diff',
      arguments: { diff: diffed.structuredContent.undo },
    });
    assert.equal(readFileSync(join(root, 'app.py'), 'utf8'), 'def main():\n    print("hi")\n');
    // A file's own text is never rewritten, even where it names the root.
    writeFileSync(join(root, 'conf.txt'), `data_dir = ${root}/data\n`);
    const conf = await client.callTool({ name: 'read_file', arguments: { path: 'conf.txt' } });
    assert.ok(text(conf).includes(`data_dir = ${root}/data`), text(conf));
    const moved = await client.callTool({
      name: 'edit',
      arguments: { path: 'conf.txt', old_string: '/data', new_string: '/var' },
    });
    assert.equal(moved.isError, false, text(moved));
    assert.ok(moved.structuredContent.undo.includes(`+data_dir = ${root}/data`));
    // `edit` that creates a file answers within its schema.
    const created = await client.callTool({
      name: 'edit',
      arguments: { path: 'new.txt', old_string: '', new_string: 'fresh\n' },
    });
    assert.equal(created.isError, false, text(created));
    assert.equal(created.structuredContent.path, 'new.txt');

    // Every failure: isError, { error: { code, message, next? } }, the
    // text in one shape, and the root never spelt out.
    const failures = [
      ['read_file', { path: 'missing.txt' }, 'FILE_NOT_FOUND'],
      ['read_file', { path: '../secret.txt' }, 'PATH_OUTSIDE_ROOT'],
      ['create_new_file', { path: join(base, 'planted.txt'), content: 'x' }, 'PATH_OUTSIDE_ROOT'],
      [
        'edit',
        { path: 'app.py', old_string: 'x', new_string: 'y', replace_all: 'true' },
        'INVALID_ARGUMENT',
      ],
      ['edit', { path: 'app.py', old_string: 'nowhere', new_string: 'y' }, 'NOT_FOUND'],
      ['apply_patch', { patch: 'garbage' }, 'INVALID_PATCH'],
    ];
    for (const [name, args, code] of failures) {
      const r = await client.callTool({ name, arguments: args });
      const said = `${name}: ${text(r)}`;
      assert.equal(r.isError, true, said);
      assert.equal(r.structuredContent.error.code, code, said);
      assert.equal(typeof r.structuredContent.error.message, 'string', said);
      assert.match(text(r), new RegExp(`^Error \\[${code}\\]: `), said);
      assert.ok(!JSON.stringify(r).includes(root), `${said} names the server's folder`);
    }
    const missing = await client.callTool({
      name: 'read_file',
      arguments: { path: 'missing.txt' },
    });
    assert.deepEqual(missing.structuredContent.error, {
      code: 'FILE_NOT_FOUND',
      message:
        'missing.txt: The file does not exist. To create it use create_new_file or prepare_file_append(create=true).',
      details: { path: 'missing.txt' },
    });
    const outside = await client.callTool({
      name: 'read_file',
      arguments: { path: '../secret.txt' },
    });
    assert.equal(
      text(outside),
      'Error [PATH_OUTSIDE_ROOT]: ../secret.txt is outside the root <root>; the file tools reach only files under it.',
    );
    const bad = await client.callTool({
      name: 'edit',
      arguments: { path: 'app.py', old_string: 'x', new_string: 'y', replace_all: 'true' },
    });
    assert.match(text(bad), /- replace_all: expected true or false, got the string "true"\./);
    assert.equal(
      bad.structuredContent.error.next,
      'The parameters of edit (* = required): path*, old_string*, new_string*, replace_all, expected_replacements, mode, instruction.',
    );
    assert.equal(readFileSync(join(base, 'secret.txt'), 'utf8'), 'keep out\n');
    // An unknown tool is a protocol error (MCP spec), naming the tools.
    await assert.rejects(client.callTool({ name: 'rm_rf', arguments: {} }), (e) => {
      assert.equal(e.code, -32602);
      assert.match(e.message, /unknown tool "rm_rf"; the tools are read_file, /);
      return true;
    });
  } finally {
    await client.close();
  }
});

/** A stdio session driven line by line, as SiYuan's Go client (go-sdk v1.6.1) does. */
function goStyleSession(args, env) {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let buffered = '';
  const waiting = new Map();
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const message = JSON.parse(buffered.slice(0, nl));
      buffered = buffered.slice(nl + 1);
      waiting.get(message.id)?.(message);
    }
  });
  let next = 1;
  const send = (message) => child.stdin.write(`${JSON.stringify(message)}\n`);
  return {
    request(method, params) {
      const id = next++;
      const answer = new Promise((resolve) => waiting.set(id, resolve));
      send({ jsonrpc: '2.0', id, method, params });
      return answer;
    },
    notify(method, params) {
      send({ jsonrpc: '2.0', method, ...(params ? { params } : {}) });
    },
    close: () => child.kill(),
  };
}

/** What SiYuan's agent reads of a result: its text blocks, joined. */
const siyuanText = (result) =>
  result.content
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');

test("SiYuan's agent over stdio: its initialize, list and calls, against the double", async () => {
  const session = goStyleSession(['--lang', 'zh'], { SIYUAN_URL: kernelUrl, SIYUAN_TOKEN: TOKEN });
  try {
    const init = await session.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: { roots: { listChanged: true } },
      clientInfo: { name: 'siyuan', version: '3.0' },
    });
    assert.equal(init.result.protocolVersion, '2025-11-25');
    assert.equal(init.result.serverInfo.name, 'editkit-mcp');
    assert.deepEqual(init.result.capabilities.tools, { listChanged: false });
    session.notify('notifications/initialized');
    const list = await session.request('tools/list', {});
    const tools = list.result.tools;
    assert.deepEqual(
      tools.map((t) => t.name),
      ['getBlockInfo', 'getBlockContent', 'appendContent', 'createNewDoc', 'applyBlockDiff'],
    );
    // Names SiYuan can prefix (`mcp_editkit_<tool>`: [A-Za-z0-9_-] only),
    // flat top-level schemas, and the read-only hint it trusts.
    for (const t of tools) {
      assert.match(t.name, /^[A-Za-z0-9_-]+$/);
      assert.equal(t.inputSchema.type, 'object');
    }
    assert.deepEqual(
      tools.filter((t) => t.annotations.readOnlyHint).map((t) => t.name),
      ['getBlockInfo', 'getBlockContent'],
    );
    assert.equal(tools[0].title, '查询思源块信息');

    const read = await session.request('tools/call', {
      name: 'getBlockContent',
      arguments: { blockId: PARA, showId: true },
    });
    assert.equal(read.result.isError, false);
    assert.equal(
      siyuanText(read.result),
      `@@${PARA}@@段落\n本周主要完成了插件 **diff 编辑** 功能的重构，并修复了若干问题。`,
    );
    assert.equal(read.result.structuredContent.blockId, PARA);
    const before = await double.kramdown(PARA);
    const applied = await session.request('tools/call', {
      name: 'applyBlockDiff',
      arguments: {
        diff: `@@${PARA}@@\n<<<<<<< SEARCH\n若干问题\n=======\n三个问题\n>>>>>>> REPLACE`,
      },
    });
    assert.equal(applied.result.isError, false, siyuanText(applied.result));
    assert.match(await double.kramdown(PARA), /三个问题/);
    const report = applied.result.structuredContent;
    assert.equal(report.ok, true);
    // The undo, as data and in the text the agent reads.
    assert.ok(siyuanText(applied.result).includes(report.undo));
    const undone = await session.request('tools/call', {
      name: 'applyBlockDiff',
      arguments: { diff: report.undo },
    });
    assert.equal(undone.result.isError, false, siyuanText(undone.result));
    assert.equal(await double.kramdown(PARA), before);
    const stale = await session.request('tools/call', {
      name: 'applyBlockDiff',
      arguments: {
        diff: `@@${PARA}@@\n<<<<<<< SEARCH\n三个问题\n=======\n四个问题\n>>>>>>> REPLACE`,
      },
    });
    assert.equal(stale.result.isError, true);
    assert.equal(stale.result.structuredContent.error.code, 'CONTENT_MISMATCH');
    assert.match(siyuanText(stale.result), /^错误 \[CONTENT_MISMATCH\]/);
    assert.equal(await double.kramdown(PARA), before);
    assert.ok(seenTokens.length > 0 && seenTokens.every((t) => t === `Token ${TOKEN}`));
  } finally {
    session.close();
  }
});

/** A free port on 127.0.0.1, and whether ::1 can be bound on this machine. */
async function freePort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
const IPV6 = await new Promise((resolve) => {
  const probe = createServer();
  probe.once('error', () => resolve(false));
  probe.listen(0, '::1', () => probe.close(() => resolve(true)));
});

/** Starts the bin on HTTP (a free port); resolves to its URL, its start line and the process. */
async function httpBin(args) {
  const child = spawn(process.execPath, [BIN, ...args, '--http', '0'], {
    env: { PATH: process.env.PATH },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  const [url, line] = await new Promise((resolve, reject) => {
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (c) => {
      err += c;
      const m = /^(editkit-mcp: listening on (http:\S+).*)\n/.exec(err);
      if (m) resolve([m[2], m[1]]);
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
  return { url, line, child };
}

test('SiYuan tools with the kernel down, or a wrong token: the kernel URL, whether it answered, what to check', async () => {
  const down = `http://127.0.0.1:${await freePort()}`;
  for (const [url, token, lang, expected] of [
    [
      down,
      TOKEN,
      'en',
      `Error [HOST_ERROR]: The host callback \`getBlocks\` failed: the SiYuan kernel at ${down} did not answer (connection refused): is SiYuan running, and is the URL right?`,
    ],
    [
      down,
      TOKEN,
      'zh',
      `错误 [HOST_ERROR]：宿主回调 \`getBlocks\` 执行失败：思源内核 ${down} 没有应答（连接被拒绝）：思源是否正在运行？地址是否正确？`,
    ],
    [
      kernelUrl,
      'wrong',
      'en',
      `Error [HOST_ERROR]: The host callback \`getBlocks\` failed: SiYuan kernel /api/query/sql failed: ${kernelUrl} answered HTTP 401: the API token is wrong or missing (SiYuan: Settings → About → API token)`,
    ],
  ]) {
    const client = await connect(['--siyuan', url, '--token', token, '--lang', lang]);
    try {
      const r = await client.callTool({ name: 'getBlockInfo', arguments: { ids: PARA } });
      assert.equal(r.isError, true);
      assert.equal(r.structuredContent.error.code, 'HOST_ERROR');
      assert.equal(text(r), expected);
    } finally {
      await client.close();
    }
  }
});

test('streamable HTTP: the SDK client with a bearer token; refusals without it or from elsewhere', async () => {
  const root = scratchDir('editkit-mcp-http-');
  writeFileSync(join(root, 'notes.md'), '# Notes\n\n- one\n');
  const { url, line, child } = await httpBin(['--root', root, '--http-token', 'sekret']);
  try {
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const port = new URL(url).port;
    assert.equal(
      line,
      `editkit-mcp: listening on ${url}${IPV6 ? ` and http://[::1]:${port}/mcp` : ''} (token required: clients send Authorization: Bearer <token>)`,
    );
    const client = new Client({ name: 'editkit-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { Authorization: 'Bearer sekret' } },
      }),
    );
    const { tools } = await client.listTools();
    assert.equal(tools.find((t) => t.name === 'read_file').annotations.readOnlyHint, true);
    const r = await client.callTool({
      name: 'edit',
      arguments: { path: 'notes.md', old_string: '- one', new_string: '- one\n- two' },
    });
    assert.equal(r.isError, false, text(r));
    assert.equal(r.structuredContent.strategy, 'exact');
    assert.equal(readFileSync(join(root, 'notes.md'), 'utf8'), '# Notes\n\n- one\n- two\n');
    await client.close();

    const post = (headers) =>
      fetch(url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: INITIALIZE,
      });
    const noToken = await post({});
    assert.equal(noToken.status, 401);
    assert.equal(noToken.headers.get('www-authenticate'), 'Bearer');
    assert.equal((await post({ Authorization: 'Bearer wrong!' })).status, 401);
    // DNS rebinding: a page elsewhere, or a name that resolved here.
    assert.equal(
      (await post({ Authorization: 'Bearer sekret', Origin: 'https://evil.example' })).status,
      403,
    );
    const { request } = await import('node:http');
    const status = await new Promise((resolve) => {
      const req = request(url, {
        method: 'POST',
        headers: { Host: 'evil.example', Authorization: 'Bearer sekret' },
      });
      req.on('response', (res) => resolve(res.statusCode));
      req.end(INITIALIZE);
    });
    assert.equal(status, 403);
    assert.equal((await fetch(url.replace('/mcp', '/other'), { method: 'POST' })).status, 404);
  } finally {
    child.kill();
  }
});

test('HTTP on both loopback addresses by default, or on --host ::1; CORS for pages on a loopback origin', async () => {
  const root = scratchDir('editkit-mcp-dual-');
  writeFileSync(join(root, 'a.txt'), 'a\n');
  const { url, line, child } = await httpBin(['--root', root]);
  const port = new URL(url).port;
  const v6 = `http://[::1]:${port}/mcp`;
  try {
    assert.equal(
      line,
      `editkit-mcp: listening on http://127.0.0.1:${port}/mcp${IPV6 ? ` and ${v6}` : ''} (no token required: local clients only)`,
    );
    // Whichever address `localhost` resolves to, the server answers there.
    for (const at of IPV6 ? [url, v6, `http://localhost:${port}/mcp`] : [url]) {
      const client = new Client({ name: 'editkit-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(at)));
      const r = await client.callTool({ name: 'read_file', arguments: { path: 'a.txt' } });
      assert.equal(r.isError, false, `${at}: ${text(r)}`);
      await client.close();
    }

    // A page on a loopback origin: its preflight is answered, with what MCP sends and reads.
    const preflight = (origin) =>
      fetch(url, {
        method: 'OPTIONS',
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization, content-type, mcp-session-id',
        },
      });
    for (const origin of ['http://localhost:6274', 'http://127.0.0.1:5173', 'http://[::1]:8080']) {
      const res = await preflight(origin);
      assert.equal(res.status, 204, origin);
      assert.deepEqual(
        Object.fromEntries([...res.headers].filter(([k]) => k.startsWith('access-control-'))),
        {
          'access-control-allow-origin': origin,
          'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
          'access-control-allow-headers':
            'Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID',
          'access-control-expose-headers': 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate',
          'access-control-max-age': '600',
        },
        origin,
      );
      assert.equal(res.headers.get('vary'), 'Origin');
    }
    // A page elsewhere: refused, and no CORS answer for its browser.
    const evil = await preflight('https://evil.example');
    assert.equal(evil.status, 403);
    assert.equal(evil.headers.get('access-control-allow-origin'), null);
    // The page's own requests: it may read the answer and the session id.
    const init = await fetch(url, {
      method: 'POST',
      headers: {
        Origin: 'http://localhost:6274',
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: INITIALIZE,
    });
    assert.equal(init.status, 200);
    assert.equal(init.headers.get('access-control-allow-origin'), 'http://localhost:6274');
    assert.match(init.headers.get('access-control-expose-headers'), /Mcp-Session-Id/);
    assert.match(init.headers.get('mcp-session-id'), /^[0-9a-f-]{36}$/);
    await init.text();
  } finally {
    child.kill();
  }

  if (!IPV6) return;
  const only6 = await httpBin(['--root', root, '--host', '::1']);
  try {
    assert.match(only6.url, /^http:\/\/\[::1\]:\d+\/mcp$/);
    assert.equal(
      only6.line,
      `editkit-mcp: listening on ${only6.url} (no token required: local clients only)`,
    );
    const client = new Client({ name: 'editkit-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(only6.url)));
    const r = await client.callTool({ name: 'read_file', arguments: { path: 'a.txt' } });
    assert.equal(r.isError, false, text(r));
    await client.close();
  } finally {
    only6.child.kill();
  }
});

test("SiYuan's agent over HTTP: a session, the SSE GET it opens, list, call, close", async () => {
  const { url, child } = await httpBin(['--siyuan', kernelUrl, '--token', TOKEN]);
  const headers = (session) => ({
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'User-Agent': 'SiYuan/3.7.0',
    ...(session ? { 'Mcp-Session-Id': session, 'Mcp-Protocol-Version': '2025-11-25' } : {}),
  });
  // An answer comes as JSON or as one SSE event; SiYuan reads both.
  const answer = async (res) => {
    const body = await res.text();
    if (res.headers.get('content-type')?.startsWith('text/event-stream'))
      return JSON.parse(/^data: (.*)$/m.exec(body)[1]);
    return JSON.parse(body);
  };
  try {
    const init = await fetch(url, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: { roots: { listChanged: true } },
          clientInfo: { name: 'siyuan', version: '3.0' },
        },
      }),
    });
    assert.equal(init.status, 200);
    const session = init.headers.get('mcp-session-id');
    assert.match(session, /^[0-9a-f-]{36}$/);
    assert.equal((await answer(init)).result.protocolVersion, '2025-11-25');
    // The standalone SSE stream the client opens before `initialized`.
    const sse = new AbortController();
    const stream = await fetch(url, {
      headers: { Accept: 'text/event-stream', 'Mcp-Session-Id': session },
      signal: sse.signal,
    });
    assert.equal(stream.status, 200);
    sse.abort();
    const initialized = await fetch(url, {
      method: 'POST',
      headers: headers(session),
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    assert.equal(initialized.status, 202);
    const call = async (id, method, params) =>
      answer(
        await fetch(url, {
          method: 'POST',
          headers: headers(session),
          body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
        }),
      );
    const list = await call(2, 'tools/list', {});
    assert.equal(list.result.tools.length, 5);
    const read = await call(3, 'tools/call', { name: 'getBlockInfo', arguments: { ids: PARA } });
    assert.equal(read.result.isError, false);
    assert.equal(read.result.structuredContent.blocks[0].id, PARA);
    assert.ok(siyuanText(read.result).includes(PARA));
    // An unknown session is a 404 (SiYuan then reconnects).
    const lost = await fetch(url, {
      method: 'POST',
      headers: headers('00000000-0000-0000-0000-000000000000'),
      body: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/list' }),
    });
    assert.equal(lost.status, 404);
    const closed = await fetch(url, { method: 'DELETE', headers: headers(session) });
    assert.equal(closed.status, 200);
    const after = await fetch(url, {
      method: 'POST',
      headers: headers(session),
      body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list' }),
    });
    assert.equal(after.status, 404);
  } finally {
    child.kill();
  }
});

/** A file host whose next read or write waits until `release()`. */
function gatedFiles(files) {
  let gate;
  const host = {
    wrote: [],
    hold(kind) {
      let release;
      const reached = new Promise((resolve) => {
        gate = { kind, resolve, wait: new Promise((r) => (release = r)) };
      });
      return { reached, release: () => release() };
    },
    async readFile(path) {
      if (gate?.kind === 'read') {
        const g = gate;
        gate = undefined;
        g.resolve();
        await g.wait;
      }
      return files.get(path) ?? null;
    },
    async writeFile(path, content) {
      if (gate?.kind === 'write') {
        const g = gate;
        gate = undefined;
        g.resolve();
        await g.wait;
      }
      host.wrote.push(path);
      files.set(path, content);
    },
  };
  return host;
}

async function inProcess(files, options = {}) {
  const server = mcp.createEditkitMcpServer({ runner: ek.createToolRunner({ files }), ...options });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'editkit-test', version: '1.0.0' });
  await client.connect(b);
  return client;
}

test('a call cancelled before its first write writes nothing; one cancelled later completes and is reported', async () => {
  const files = new Map([['a.txt', 'one\ntwo\n']]);
  const host = gatedFiles(files);
  const client = await inProcess(host);
  const logs = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => logs.push(n.params));
  const edit = { name: 'edit', arguments: { path: 'a.txt', old_string: 'one', new_string: 'ONE' } };

  // Cancelled while the file is being read: nothing is written.
  let gate = host.hold('read');
  let abort = new AbortController();
  let call = client.callTool(edit, undefined, { signal: abort.signal });
  await gate.reached;
  abort.abort();
  await assert.rejects(call);
  gate.release();
  await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(host.wrote, []);
  assert.equal(files.get('a.txt'), 'one\ntwo\n');
  assert.deepEqual(logs, []);

  // Cancelled while the write is under way: the write completes, and the
  // client learns it from a warning with the result it did not get.
  gate = host.hold('write');
  abort = new AbortController();
  call = client.callTool(edit, undefined, { signal: abort.signal });
  await gate.reached;
  abort.abort();
  await assert.rejects(call);
  gate.release();
  await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(host.wrote, ['a.txt']);
  assert.equal(files.get('a.txt'), 'ONE\ntwo\n');
  assert.equal(logs.length, 1);
  assert.equal(logs[0].level, 'warning');
  assert.equal(logs[0].data.tool, 'edit');
  assert.equal(logs[0].data.result.structuredContent.strategy, 'exact');
  await client.close();
});

test('absolute paths under the hidden folders reach the tools relative; a hunk that quotes one is left alone', async () => {
  const files = new Map([
    ['a.txt', '-- /srv/p/a.txt\nb\n'],
    ['c.txt', 'c\n'],
  ]);
  const host = gatedFiles(files);
  host.deleteFile = async (path) => void files.delete(path);
  const client = await inProcess(host, { hiddenFolders: ['/srv/p'] });
  // The removed line reads `--- /srv/p/a.txt`: text, not a header.
  const r = await client.callTool({
    name: 'apply_diff',
    arguments: {
      diff: '--- a//srv/p/a.txt\t2024-01-01\n+++ b//srv/p/a.txt\t2024-01-01\n@@ -1,2 +1,2 @@\n--- /srv/p/a.txt\n+x\n b\n--- /srv/p/c.txt\n+++ /srv/p/c.txt\n@@ -1 +1 @@\n-c\n+C\n',
    },
  });
  assert.equal(r.isError, false, text(r));
  assert.deepEqual(r.structuredContent.written, ['a.txt', 'c.txt']);
  assert.equal(files.get('a.txt'), 'x\nb\n');
  assert.equal(files.get('c.txt'), 'C\n');
  const patched = await client.callTool({
    name: 'apply_patch',
    arguments: {
      patch:
        '*** Begin Patch\n*** Update File: /srv/p/c.txt\n*** Move to: /srv/p/sub/d.txt\n@@\n-C\n+D\n*** End Patch',
    },
  });
  assert.equal(patched.isError, false, text(patched));
  assert.deepEqual(patched.structuredContent.written, ['sub/d.txt', 'c.txt']);
  // Outside the folders, a path is left as given (the host decides).
  const outside = await client.callTool({
    name: 'read_file',
    arguments: { path: '/srv/pq/x.txt' },
  });
  assert.equal(outside.structuredContent.error.message.split(':')[0], '/srv/pq/x.txt');
  const read = await client.callTool({ name: 'read_file', arguments: { path: '/srv/p/a.txt' } });
  assert.equal(read.isError, false, text(read));
  assert.equal(read.structuredContent.path, 'a.txt');
  // `uri`, the other name of `path` (edit_file_search_replace).
  const replaced = await client.callTool({
    name: 'edit_file_search_replace',
    arguments: {
      uri: '/srv/p/a.txt',
      search_replace: '<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE',
    },
  });
  assert.equal(replaced.isError, false, text(replaced));
  assert.equal(replaced.structuredContent.path, 'a.txt');
  assert.equal(files.get('a.txt'), 'y\nb\n');
  await client.close();
});

test('progress: one notification per file a patch writes, with the total', async () => {
  const files = new Map([
    ['a.txt', 'a\n'],
    ['b.txt', 'b\n'],
  ]);
  const client = await inProcess(gatedFiles(files));
  const progress = [];
  const r = await client.callTool(
    {
      name: 'apply_patch',
      arguments: {
        patch:
          '*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-b\n+B\n*** Add File: c.txt\n+C\n*** End Patch',
      },
    },
    undefined,
    { onprogress: (p) => progress.push(p) },
  );
  assert.equal(r.isError, false, text(r));
  assert.deepEqual(r.structuredContent.written, ['a.txt', 'b.txt', 'c.txt']);
  assert.deepEqual(progress, [
    { progress: 1, total: 3, message: 'files.writeFile a.txt' },
    { progress: 2, total: 3, message: 'files.writeFile b.txt' },
    { progress: 3, total: 3, message: 'files.writeFile c.txt' },
  ]);
  progress.length = 0;
  const edit = await client.callTool(
    { name: 'edit', arguments: { path: 'a.txt', old_string: 'A', new_string: 'a' } },
    undefined,
    { onprogress: (p) => progress.push(p) },
  );
  assert.equal(edit.isError, false, text(edit));
  assert.deepEqual(progress, [{ progress: 1, total: 1, message: 'files.writeFile a.txt' }]);
  await client.close();
});

test('the bin: --version, --help, and refusals of bad flags', async () => {
  const run = (args) =>
    spawnSync(process.execPath, [BIN, ...args], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH },
    });
  const version = run(['--version']);
  assert.equal(version.status, 0);
  assert.equal(version.stdout, `${VERSION}\n`);
  const help = run(['-h']);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^Usage: editkit-mcp /);
  assert.match(help.stdout, /--http PORT/);
  for (const [args, said] of [
    [[], /give --root DIR, --siyuan URL, or both/],
    [['--rot', '.'], /Unknown option '--rot'/],
    [['--root', '.', '--lang', 'fr'], /--lang must be en or zh, got "fr"/],
    [['--root', '.', '--http', 'x'], /--http must be a port number/],
    [['--root', '.', '--http-token', 't'], /--host and --http-token go with --http PORT/],
    [['--root', '.', '--http', ''], /--http must be a port number/],
    [['--root', '.', '--token', 't'], /--token goes with --siyuan URL/],
    [['--root', '.', '--http', '0', '--host', '0.0.0.0'], /serving on 0\.0\.0\.0 needs a token/],
  ]) {
    const r = run(args);
    assert.equal(r.status, 2, args.join(' '));
    assert.match(r.stderr, said);
    assert.match(r.stderr, /\n\nUsage: editkit-mcp /, args.join(' '));
  }
  // Failures once the flags are right: one line, no usage, no library names.
  const missing = run(['--root', '/nonexistent/editkit-root']);
  assert.equal(missing.status, 1);
  assert.equal(
    missing.stderr,
    'editkit-mcp: --root /nonexistent/editkit-root is not an existing folder\n',
  );
  const busy = createServer();
  await new Promise((resolve) => busy.listen(0, '127.0.0.1', resolve));
  const { port } = busy.address();
  try {
    const taken = run(['--root', '.', '--http', String(port), '--host', '127.0.0.1']);
    assert.equal(taken.status, 1);
    assert.equal(
      taken.stderr,
      `editkit-mcp: cannot listen on 127.0.0.1:${port}: the port is in use (another program, or another editkit-mcp); choose another --http PORT, or 0 for any free one\n`,
    );
  } finally {
    busy.close();
  }
});

/** The SiYuan agent configurations the READMEs show (blocks with `trustToolAnnotations`). */
function siyuanConfigs() {
  const out = [];
  for (const readme of ['README.md', 'pkg-template/mcp/README.md']) {
    const text = readFileSync(join(repo, readme), 'utf8');
    for (const m of text.matchAll(/```json\n([\s\S]*?)\n```/g))
      if (m[1].includes('trustToolAnnotations')) out.push({ readme, config: JSON.parse(m[1]) });
  }
  return out;
}

test("the READMEs' SiYuan agent configurations have SiYuan's fields and start a working server", async () => {
  const configs = siyuanConfigs();
  assert.ok(configs.length >= 3, `${configs.length} configurations`);
  // SiYuan's conf.MCPServer (kernel/conf/ai.go): these fields, these types.
  const FIELDS = {
    id: 'string',
    name: 'string',
    enabled: 'boolean',
    type: 'string',
    command: 'string',
    args: 'object',
    url: 'string',
    headers: 'object',
    timeout: 'number',
    trustToolAnnotations: 'boolean',
  };
  for (const { readme, config } of configs) {
    assert.deepEqual(Object.keys(config).sort(), Object.keys(FIELDS).sort(), readme);
    for (const [k, type] of Object.entries(FIELDS))
      assert.equal(typeof config[k], type, `${readme} ${k}`);
    assert.ok(['stdio', 'http'].includes(config.type));
    assert.ok(
      Number.isInteger(config.timeout) && config.timeout > 30,
      'time for the first npx download',
    );
    if (config.type === 'http') {
      assert.match(config.url, /^http:\/\/127\.0\.0\.1:[A-Z0-9]+\/mcp$/);
      assert.match(config.headers.Authorization, /^Bearer /);
      continue;
    }
    assert.equal(config.command, 'npx');
    assert.deepEqual(config.args.slice(0, 2), ['-y', 'editkit-mcp']);
    // The flags after the package name, as the bin reads them, against the double.
    const args = config.args
      .slice(2)
      .map((a) => (a === 'http://127.0.0.1:6806' ? kernelUrl : a === '<API token>' ? TOKEN : a));
    const session = goStyleSession(args, {});
    try {
      const init = await session.request('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: { roots: { listChanged: true } },
        clientInfo: { name: 'siyuan', version: '3.0' },
      });
      assert.equal(init.result.serverInfo.name, 'editkit-mcp');
      session.notify('notifications/initialized');
      const read = await session.request('tools/call', {
        name: 'getBlockInfo',
        arguments: { ids: PARA },
      });
      assert.equal(read.result.isError, false, siyuanText(read.result));
    } finally {
      session.close();
    }
  }
});

test('every protocol revision the SDK serves is answered in kind; another gets the newest', async () => {
  const { SUPPORTED_PROTOCOL_VERSIONS, LATEST_PROTOCOL_VERSION } = mcp;
  assert.ok(SUPPORTED_PROTOCOL_VERSIONS.includes('2025-11-25'));
  for (const version of [...SUPPORTED_PROTOCOL_VERSIONS, '1999-01-01']) {
    const session = goStyleSession(['--root', scratchDir('editkit-mcp-versions-')], {});
    try {
      const init = await session.request('initialize', {
        protocolVersion: version,
        capabilities: {},
        clientInfo: { name: 'x', version: '1' },
      });
      const expected = SUPPORTED_PROTOCOL_VERSIONS.includes(version)
        ? version
        : LATEST_PROTOCOL_VERSION;
      assert.equal(init.result.protocolVersion, expected, version);
      session.notify('notifications/initialized');
      const list = await session.request('tools/list', {});
      assert.ok(list.result.tools.length > 0, version);
    } finally {
      session.close();
    }
  }
});

test("the redaction takes whole folders only, in the host's words only", () => {
  const redact = mcp.pathRedactor(['/home/u/proj', '/home/u/proj/']);
  assert.equal(
    redact(
      '/home/u/proj/a.txt is outside the root /home/u/proj; see /mnt/home/u/proj/x, https://h/home/u/proj/r, /home/u/projé/x, /home/u/project',
    ),
    'a.txt is outside the root <root>; see /mnt/home/u/proj/x, https://h/home/u/proj/r, /home/u/projé/x, /home/u/project',
  );
  assert.equal(mcp.pathRedactor(['/'])('/etc/x'), '/etc/x');
  // A match report quotes the file: left as it is.
  const notFound = mcp.toMcpResult(
    {
      isError: true,
      code: 'NOT_FOUND',
      text: 'Error [NOT_FOUND]: closest: data = /home/u/proj/x',
      data: { code: 'NOT_FOUND', message: 'closest: data = /home/u/proj/x' },
    },
    undefined,
    redact,
  );
  assert.equal(notFound.content[0].text, 'Error [NOT_FOUND]: closest: data = /home/u/proj/x');
  const outside = mcp.toMcpResult(
    {
      isError: true,
      code: 'PATH_OUTSIDE_ROOT',
      text: 'Error [PATH_OUTSIDE_ROOT]: ../x is outside the root /home/u/proj.',
      data: { code: 'PATH_OUTSIDE_ROOT', message: '../x is outside the root /home/u/proj.' },
    },
    undefined,
    redact,
  );
  assert.equal(
    outside.content[0].text,
    'Error [PATH_OUTSIDE_ROOT]: ../x is outside the root <root>.',
  );
  assert.equal(outside.structuredContent.error.message, '../x is outside the root <root>.');
});
