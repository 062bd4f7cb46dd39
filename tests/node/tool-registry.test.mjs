// The tool modules and the registry over them (issue 44, item 4): one
// module per tool, and a registry (createToolRegistry, runner.registry)
// that lists each with the runner's definitions and MCP metadata and calls
// it as the runner does. A SiYuan plugin registers the SiYuan tools from
// it in goja, where there is no Node: nothing the tools import may be.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { ek, fixtureHost, repo } from './support.mjs';

const P = '20240614083000-a1b2c3d';

test('TOOL_MODULES: one frozen module per tool, in the order of TOOL_NAMES, with its definition', () => {
  assert.deepEqual(
    ek.TOOL_MODULES.map((m) => m.name),
    [...ek.TOOL_NAMES],
  );
  assert.ok(Object.isFrozen(ek.TOOL_MODULES));
  const defined = ek.toolDefinitions({ format: 'mcp', lang: 'zh' }).tools;
  for (const m of ek.TOOL_MODULES) {
    assert.ok(Object.isFrozen(m), m.name);
    const d = m.describe('zh');
    const mcp = defined.find((t) => t.name === m.name);
    assert.deepEqual(
      { ...mcp, outputSchema: mcp.outputSchema },
      {
        name: d.name,
        title: d.title,
        description: d.description,
        inputSchema: d.inputSchema,
        annotations: d.annotations,
        outputSchema: d.outputSchema,
      },
    );
    assert.equal(d.toolset, m.toolset);
    assert.equal(d.readOnlyHint, mcp.annotations.readOnlyHint);
  }
});

test('createToolRegistry lists every SiYuan tool as the runner defines it, and calls it as runner.run does', async () => {
  for (const lang of ['en', 'zh']) {
    const registry = ek.createToolRegistry({
      siyuan: fixtureHost(),
      lang,
      toolsets: ['siyuan'],
    });
    // Three hosts with the same notes: each route makes the same writes.
    const runner = ek.createToolRunner({ siyuan: fixtureHost(), lang });
    const textRunner = ek.createToolRunner({ siyuan: fixtureHost(), lang });
    const plain = runner.definitions({ toolsets: ['siyuan'] });
    const mcp = runner.definitions({ format: 'mcp', toolsets: ['siyuan'] });
    assert.deepEqual(
      registry.tools.map((t) => t.name),
      plain.tools.map((t) => t.name),
    );
    assert.equal(registry.tools.length, 5);
    assert.equal(registry.guide, plain.guide);
    for (const tool of registry.tools) {
      const def = plain.tools.find((t) => t.name === tool.name);
      const meta = mcp.tools.find((t) => t.name === tool.name);
      assert.equal(tool.toolset, 'siyuan');
      assert.equal(tool.description, def.description, tool.name);
      assert.deepEqual(tool.inputSchema, def.parameters, tool.name);
      assert.equal(tool.title, meta.title, tool.name);
      assert.deepEqual(tool.outputSchema, meta.outputSchema, tool.name);
      assert.deepEqual(tool.annotations, meta.annotations, tool.name);
      assert.equal(tool.readOnlyHint, meta.annotations.readOnlyHint, tool.name);
      assert.equal(tool.readOnlyHint, tool.name.startsWith('get'), tool.name);
    }
    const call = (name, args) => registry.tools.find((t) => t.name === name).call(args);
    // A read, a write, a refused argument and a diff that matches
    // nothing: the same result each way.
    const cases = [
      ['getBlockContent', { blockId: P, showId: true }],
      ['getBlockInfo', { ids: [P] }],
      [
        'applyBlockDiff',
        { diff: `@@${P}@@\n<<<<<<< SEARCH\n若干问题\n=======\n三个问题\n>>>>>>> REPLACE` },
      ],
      ['getBlockContent', { blockId: P, showIds: true }],
      ['applyBlockDiff', { diff: `@@${P}@@\n<<<<<<< SEARCH\n不存在\n=======\nx\n>>>>>>> REPLACE` }],
    ];
    for (const [name, args] of cases) {
      const viaRegistry = await call(name, args);
      const viaRunner = await runner.runDetailed(name, args);
      assert.deepEqual(viaRegistry, viaRunner, `${lang} ${name}`);
      assert.equal(viaRegistry.text, await textRunner.run(name, args), `${lang} ${name}`);
    }
    assert.match((await call('getBlockContent', { blockId: P })).text, /三个问题/);
  }
});

test("runner.registry: the runner's tools, language and toolsets unless told otherwise", async () => {
  const files = new Map([['a.txt', 'one\n']]);
  const host = {
    readFile: (p) => files.get(p) ?? null,
    writeFile: (p, c) => void files.set(p, c),
  };
  const runner = ek.createToolRunner({ files: host, lang: 'zh' });
  const registry = runner.registry();
  assert.deepEqual(
    registry.tools.map((t) => t.name),
    ek.toolDefinitions({ toolsets: ['files'] }).tools.map((t) => t.name),
  );
  assert.equal(registry.guide, runner.definitions().guide);
  const en = runner.registry({ lang: 'en', toolsets: ['siyuan', 'files'] });
  assert.equal(en.tools.length, 21);
  assert.equal(en.guide, ek.toolDefinitions({ lang: 'en' }).guide);
  const edit = registry.tools.find((t) => t.name === 'edit');
  assert.equal(edit.readOnlyHint, false);
  const r = await edit.call({ path: 'a.txt', old_string: 'one', new_string: 'two' });
  assert.equal(r.isError, false, r.text);
  assert.equal(files.get('a.txt'), 'two\n');
  // A SiYuan tool on a runner without a SiYuan host is not listed, and
  // its call through the runner is refused as before.
  assert.ok(!registry.tools.some((t) => t.toolset === 'siyuan'));
  assert.throws(() => runner.registry(42), { code: 'INVALID_ARGUMENT' });
});

test('the tools import nothing of Node (a SiYuan plugin runs them in goja)', () => {
  const src = join(repo, 'pkg-template', 'src');
  const node = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const [, spec] of text.matchAll(/^(?:import|export)\s[^'";]*?from\s+'([^']+)'/gms)) {
      assert.ok(!node.has(spec) && !spec.startsWith('node:'), `${file} imports ${spec}`);
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
    }
  };
  // The tool layer's entry: every module, the runner and the registry.
  visit(join(src, 'tools', 'index.ts'));
  assert.ok(seen.has(join(src, 'tools', 'impl', 'apply-block-diff.ts')));
  assert.ok(seen.size > 30, `${seen.size} files`);
});
