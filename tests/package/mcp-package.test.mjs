// editkit-mcp as a user installs it: both packages packed, installed from
// the tarballs into a scratch project, and `npx -y editkit-mcp` started
// there by the MCP SDK's client. editkit alone brings no MCP SDK.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const work = mkdtempSync(join(tmpdir(), 'editkit-mcp-package-'));
after(() => rmSync(work, { recursive: true, force: true }));

const npm = (args, cwd) =>
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd,
    encoding: 'utf8',
  });
const pack = (dir) =>
  join(work, npm(['pack', dir, '--pack-destination', work], work).trim().split('\n').pop());

let project;
before(() => {
  const editkit = pack(join(repo, 'pkg'));
  const server = pack(join(repo, 'pkg-mcp'));
  project = join(work, 'agent');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({
      name: 'agent',
      private: true,
      version: '0.0.0',
      // The server's tarball names editkit by version; the tarball beside
      // it stands in for the registry.
      dependencies: { editkit: `file:${editkit}`, 'editkit-mcp': `file:${server}` },
      overrides: { editkit: `file:${editkit}` },
    }),
  );
  npm(['install', '--prefer-offline'], project);
});

test('the packages: editkit has no bin and no dependencies; editkit-mcp depends on it and on the SDK', () => {
  const read = (name) =>
    JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8'));
  const editkit = read('editkit');
  const server = read('editkit-mcp');
  assert.equal(editkit.bin, undefined);
  assert.equal(editkit.dependencies, undefined);
  assert.deepEqual(Object.keys(server.dependencies).sort(), [
    '@modelcontextprotocol/sdk',
    'editkit',
  ]);
  assert.equal(server.dependencies.editkit, editkit.version);
  assert.equal(server.version, editkit.version);
  assert.deepEqual(server.bin, { 'editkit-mcp': './dist/cli.js' });
});

test('npx -y editkit-mcp --root DIR serves the tools to the SDK client', async () => {
  const root = join(work, 'files');
  mkdirSync(root);
  writeFileSync(join(root, 'todo.md'), '# Todo\n\n- [ ] write\n');
  const version = execFileSync('npx', ['-y', 'editkit-mcp', '--version'], {
    cwd: project,
    encoding: 'utf8',
  });
  assert.equal(version.trim(), JSON.parse(readFileSync(join(repo, 'pkg', 'package.json'))).version);
  const client = new Client({ name: 'package-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: 'npx',
      args: ['-y', 'editkit-mcp', '--root', root],
      cwd: project,
      stderr: 'pipe',
    }),
  );
  try {
    const { tools } = await client.listTools();
    const edit = tools.find((t) => t.name === 'edit');
    assert.equal(edit.annotations.destructiveHint, true);
    assert.equal(edit.outputSchema.type, 'object');
    const r = await client.callTool({
      name: 'edit',
      arguments: { path: 'todo.md', old_string: '- [ ] write', new_string: '- [x] write' },
    });
    assert.equal(r.isError, false, r.content[0].text);
    assert.equal(r.structuredContent.path, 'todo.md');
    assert.equal(readFileSync(join(root, 'todo.md'), 'utf8'), '# Todo\n\n- [x] write\n');
  } finally {
    await client.close();
  }
});
