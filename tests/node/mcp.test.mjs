// editkit-mcp end to end with the MCP SDK's own client (SPEC §9.1): the bin
// is spawned over stdio, file tools act on a real folder, SiYuan tools on
// the kernel double served over HTTP on 127.0.0.1.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ek, repo, scratchDir } from './support.mjs';
import { fixtureDouble } from './kernel-support.mjs';

const BIN = join(repo, 'pkg', 'dist', 'mcp.js');
const TOKEN = 'test-token';
const PARA = '20240614083000-a1b2c3d';
let server;
let url;
let double;
const seenTokens = [];

before(async () => {
  double = fixtureDouble();
  server = createServer((req, res) => {
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
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${server.address().port}`;
});

after(() => server.close());

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

test('files: list the tools, land an edit on disk, refuse a path outside the root', async () => {
  const base = scratchDir('editkit-mcp-');
  const root = join(base, 'project');
  mkdirSync(root);
  writeFileSync(join(base, 'secret.txt'), 'keep out\n');
  writeFileSync(join(root, 'app.py'), 'def main():\n    print("hi")\n');
  const client = await connect(['--root', root]);
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name).sort(),
      ek
        .toolDefinitions({ toolsets: ['files'] })
        .tools.map((t) => t.name)
        .sort(),
    );
    for (const t of tools) assert.equal(t.inputSchema.type, 'object', t.name);
    assert.match(client.getInstructions(), /^# Editing text files/);

    const edit = await client.callTool({
      name: 'edit',
      arguments: { path: 'app.py', old_string: 'print("hi")', new_string: 'print("hello")' },
    });
    assert.equal(edit.isError, false, text(edit));
    assert.match(text(edit), /^Edited app\.py: 1 replacement\(s\) at line 2 \(strategy: exact\)\./);
    assert.equal(readFileSync(join(root, 'app.py'), 'utf8'), 'def main():\n    print("hello")\n');

    const outside = await client.callTool({
      name: 'read_file',
      arguments: { path: '../secret.txt' },
    });
    assert.equal(outside.isError, true);
    assert.match(text(outside), /^Error \[PATH_OUTSIDE_ROOT\]/);
    const overwrite = await client.callTool({
      name: 'create_new_file',
      arguments: { path: join(base, 'planted.txt'), content: 'x' },
    });
    assert.equal(overwrite.isError, true);
    assert.equal(readFileSync(join(base, 'secret.txt'), 'utf8'), 'keep out\n');

    // A malformed call is a tool error the model reads, not a protocol error.
    const bad = await client.callTool({
      name: 'edit',
      arguments: { path: 'app.py', old_string: 'x', new_string: 'y', replace_all: 'true' },
    });
    assert.equal(bad.isError, true);
    assert.match(text(bad), /- replace_all: expected true or false, got the string "true"\./);
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

test('SiYuan: read a block, apply a block diff, then its undo, against the double over HTTP', async () => {
  // The kernel address and token from the environment; no --root: SiYuan tools only.
  const client = await connect(['--lang', 'zh'], { SIYUAN_URL: url, SIYUAN_TOKEN: TOKEN });
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['getBlockInfo', 'getBlockContent', 'appendContent', 'createNewDoc', 'applyBlockDiff'],
    );
    const read = await client.callTool({
      name: 'getBlockContent',
      arguments: { blockId: PARA, showId: true },
    });
    assert.equal(read.isError, false);
    assert.equal(
      text(read),
      `@@${PARA}@@段落\n本周主要完成了插件 **diff 编辑** 功能的重构，并修复了若干问题。`,
    );
    const before = double.kramdown(PARA);
    const applied = await client.callTool({
      name: 'applyBlockDiff',
      arguments: {
        diff: `@@${PARA}@@\n<<<<<<< SEARCH\n若干问题\n=======\n三个问题\n>>>>>>> REPLACE`,
      },
    });
    assert.equal(applied.isError, false, text(applied));
    assert.match(double.kramdown(PARA), /三个问题/);
    const undo = /```\n([\s\S]*?)\n```\s*$/.exec(text(applied))[1];
    const undone = await client.callTool({ name: 'applyBlockDiff', arguments: { diff: undo } });
    assert.equal(undone.isError, false, text(undone));
    assert.equal(double.kramdown(PARA), before);
    // A stale edit is refused as a tool error; nothing is written.
    const stale = await client.callTool({
      name: 'applyBlockDiff',
      arguments: {
        diff: `@@${PARA}@@\n<<<<<<< SEARCH\n三个问题\n=======\n四个问题\n>>>>>>> REPLACE`,
      },
    });
    assert.equal(stale.isError, true);
    assert.match(text(stale), /CONTENT_MISMATCH/);
    assert.equal(double.kramdown(PARA), before);
    assert.ok(seenTokens.length > 0 && seenTokens.every((t) => t === `Token ${TOKEN}`));
  } finally {
    await client.close();
  }
});

test('the bin refuses to start without a root or a kernel, and explains its flags', async () => {
  const { spawnSync } = await import('node:child_process');
  const none = spawnSync(process.execPath, [BIN], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH },
  });
  assert.equal(none.status, 2);
  assert.match(none.stderr, /give --root DIR, --siyuan URL, or both/);
  const help = spawnSync(process.execPath, [BIN, '--help'], { encoding: 'utf8' });
  assert.equal(help.status, 0);
  assert.match(help.stdout, /^Usage: editkit-mcp /);
  const typo = spawnSync(process.execPath, [BIN, '--rot', '.'], { encoding: 'utf8' });
  assert.equal(typo.status, 2);
  assert.match(typo.stderr, /unknown argument "--rot"/);
});

test('the protocol edges: batches, a missing jsonrpc, a null id, junk, CRLF and split UTF-8', async () => {
  const { PassThrough } = await import('node:stream');
  const input = new PassThrough();
  const output = new PassThrough();
  let out = '';
  output.on('data', (c) => (out += c));
  const done = ek.serveMcp({ runner: ek.createToolRunner({}), input, output, version: '9.9.9' });
  const init = JSON.stringify({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: {
      protocolVersion: '1999-01-01',
      capabilities: {},
      clientInfo: { name: 'x', version: '1' },
    },
  });
  input.write(`${init}\r\n`);
  input.write(
    `${JSON.stringify([
      { jsonrpc: '2.0', id: 'a', method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'b', method: 'nope' },
    ])}\n`,
  );
  input.write(`${JSON.stringify({ id: 1, method: 'ping' })}\n`);
  input.write(`${JSON.stringify({ jsonrpc: '2.0', id: null, method: 'ping' })}\n`);
  input.write('not json\n');
  // A request whose UTF-8 is split between two chunks.
  const call = Buffer.from(
    `${JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'edit', arguments: { path: '文件.txt' } } })}\n`,
  );
  const cut = call.indexOf(Buffer.from('文')) + 1;
  input.write(call.subarray(0, cut));
  input.write(call.subarray(cut));
  input.end();
  await done;
  // Answers come as calls finish, not in input order: find each by id.
  const answers = out
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const byId = (id) => answers.find((a) => !Array.isArray(a) && a.id === id);
  const first = byId(0);
  const batch = answers.find(Array.isArray);
  const noVersion = byId(1);
  const nullIds = answers.filter((a) => !Array.isArray(a) && a.id === null);
  const edit = byId(7);
  assert.equal(first.id, 0);
  assert.equal(first.result.protocolVersion, ek.MCP_PROTOCOL_VERSIONS[0]);
  assert.equal(first.result.serverInfo.version, '9.9.9');
  assert.deepEqual(batch, [
    { jsonrpc: '2.0', id: 'a', result: {} },
    { jsonrpc: '2.0', id: 'b', error: { code: -32601, message: 'method not found: nope' } },
  ]);
  assert.equal(noVersion.error.code, -32600);
  assert.deepEqual(nullIds.map((a) => a.error.code).sort(), [-32600, -32700]);
  assert.equal(edit.id, 7);
  assert.equal(edit.result.isError, true);
  assert.match(edit.result.content[0].text, /- Missing arguments \(old_string, new_string\)\./);
  assert.equal(answers.length, 6);
});
