// Malformed tool-call arguments (SPEC §9.1): every tool checks its
// arguments against its own JSON Schema before anything runs. A table of
// the kinds models send (tests/data/tool-arguments.json, exact refusals),
// then a sweep over every parameter of every tool with each wrong type.
// Nothing is ever written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ek, fixtureHost, minimalArgs, repo, writes } from './support.mjs';

const TABLE = join(repo, 'tests', 'data', 'tool-arguments.json');
const FILE = 'alpha\nbeta\ngamma\n';

function world(lang = 'en') {
  const files = new Map([['a.txt', FILE]]);
  const written = [];
  const host = fixtureHost();
  const runner = ek.createToolRunner({
    lang,
    siyuan: host,
    files: {
      readFile: (p) => files.get(p) ?? null,
      writeFile: (p, c) => {
        written.push(p);
        files.set(p, c);
      },
    },
  });
  const untouched = () => {
    assert.deepEqual(written, [], 'no file written');
    assert.equal(files.get('a.txt'), FILE);
    assert.deepEqual(writes(host), [], 'no kernel write');
  };
  return { runner, untouched };
}

test('malformed arguments from the table: the exact refusal, code INVALID_ARGUMENT, nothing written', async () => {
  const table = JSON.parse(readFileSync(TABLE, 'utf8'));
  const rewrite = process.env.TOOL_ARGS_WRITE === '1';
  const tools = new Set();
  for (const c of table.cases) {
    const { runner, untouched } = world(c.lang);
    const r = await runner.runDetailed(c.tool, c.args);
    tools.add(c.tool);
    if (rewrite) c.expected = r.text.split('\n');
    assert.deepEqual(r.text.split('\n'), c.expected, c.name);
    assert.equal(r.isError, true, c.name);
    assert.equal(r.code, 'INVALID_ARGUMENT', c.name);
    assert.equal(r.data.code, 'INVALID_ARGUMENT', c.name);
    untouched();
  }
  if (rewrite) writeFileSync(TABLE, `${JSON.stringify(table, null, 2)}\n`);
  // The table reaches every tool.
  assert.deepEqual([...tools].sort(), [...ek.TOOL_NAMES].sort());
});

// A value of every JSON kind that is not the schema's.
const WRONG = {
  string: [123, true, ['a', 'b'], { text: 'a' }],
  boolean: ['true', 'false', 1, 0, 'yes'],
  integer: ['1', 1.5, -1, true, [1]],
  array: ['a', { old_string: 'a' }, 3],
};

test('every parameter of every tool refuses each wrong kind of value by name, and unknown or missing fields', async () => {
  let refusals = 0;
  for (const tool of ek.toolDefinitions().tools) {
    const { properties, required } = tool.parameters;
    const base = minimalArgs(tool.parameters);
    for (const [field, schema] of Object.entries(properties)) {
      const kind = schema.anyOf ? 'integer' : schema.type;
      for (const bad of WRONG[kind] ?? []) {
        // occurrence also takes a string: a string is no wrong kind for it.
        if (schema.anyOf && typeof bad === 'string') continue;
        const { runner, untouched } = world();
        const args = { ...base, [field]: bad };
        if (field === 'uri') delete args.path;
        const r = await runner.runDetailed(tool.name, args);
        const what = `${tool.name}.${field} = ${JSON.stringify(bad)}`;
        assert.equal(r.code, 'INVALID_ARGUMENT', `${what}: ${r.text}`);
        assert.match(r.text, new RegExp(`\\n- ${field}(\\[0\\])?: expected `), what);
        untouched();
        refusals++;
      }
    }
    // A misspelt field is named with the right one.
    const name = Object.keys(properties).find((n) => n.length >= 3 && n !== 'uri');
    const misspelt = name.includes('_') ? name.replace(/_/g, '') : `${name}_`;
    const { runner, untouched } = world();
    const r = await runner.runDetailed(tool.name, { ...base, [misspelt]: base[name] ?? 'x' });
    assert.match(r.text, new RegExp(`- ${misspelt}: unknown argument; did you mean ${name}\\?`));
    untouched();
    // Required fields left out are listed together, once.
    if (required.length) {
      const r2 = await runner.runDetailed(tool.name, {});
      const missing = required.includes('search_replace') ? ['path or uri', ...required] : required;
      assert.match(r2.text, new RegExp(`- Missing arguments \\(${missing.join(', ')}\\)\\.`));
      untouched();
    }
  }
  assert.ok(refusals > 150, `${refusals} refusals`);
});

test('arguments as a JSON string (OpenAI’s raw form) run like the object', async () => {
  const { runner } = world();
  const asText = await runner.runDetailed(
    'read_file',
    JSON.stringify({ path: 'a.txt', range: '2~2' }),
  );
  const asObject = await runner.runDetailed('read_file', { path: 'a.txt', range: '2~2' });
  assert.equal(asText.isError, false);
  assert.equal(asText.text, asObject.text);
  assert.match(asText.text, /\n2 \| beta$|\n\s*2[:|]?\s*beta/m);
  // Empty or absent arguments are no arguments: the required ones are missing.
  for (const none of ['', '   ', null, undefined]) {
    const r = await runner.runDetailed('read_file', none);
    assert.match(r.text, /- Missing arguments \(path\)\./);
  }
});

test('null for an optional field is unset; "" and 0 keep meaning unset', async () => {
  const { runner } = world();
  const r = await runner.runDetailed('read_file', {
    path: 'a.txt',
    range: null,
    max_lines: 0,
    show_line_numbers: null,
  });
  assert.equal(r.isError, false, r.text);
  const plain = await runner.runDetailed('read_file', { path: 'a.txt' });
  assert.equal(r.text, plain.text);
});

test('a field with two names (path / uri): "", null and undefined on either are absent; the same value twice is fine', async () => {
  const sr = '<<<<<<< SEARCH\nalpha\n=======\nALPHA\n>>>>>>> REPLACE';
  for (const args of [
    { path: '', uri: 'a.txt', search_replace: sr },
    { path: null, uri: 'a.txt', search_replace: sr },
    { path: 'a.txt', uri: '', search_replace: sr },
    { path: 'a.txt', uri: null, search_replace: sr },
    { path: undefined, uri: 'a.txt', search_replace: sr },
    { path: 'a.txt', uri: 'a.txt', search_replace: sr },
  ]) {
    const { runner } = world();
    const r = await runner.runDetailed('edit_file_search_replace', args);
    assert.equal(r.isError, false, `${JSON.stringify(args)}: ${r.text}`);
  }
  // A JS caller's undefined is an absent field; each missing field counts.
  const { runner } = world();
  const r = await runner.runDetailed('read_file', { path: 'a.txt', range: undefined });
  assert.equal(r.isError, false, r.text);
  const none = await runner.runDetailed('edit', { path: undefined });
  assert.match(none.text, /: 3 argument problem\(s\);/);
  assert.match(none.text, /- Missing arguments \(path, old_string, new_string\)\./);
});

test('the edit tools speak their own field names; an unknown tool lists only the tools the runner can serve', async () => {
  const { runner } = world();
  const ambiguous = await runner.runDetailed('edit', {
    path: 'a.txt',
    old_string: 'a',
    new_string: 'b',
  });
  assert.equal(ambiguous.code, 'AMBIGUOUS');
  assert.match(ambiguous.text, /set replace_all to change every place/);
  assert.doesNotMatch(ambiguous.text, /replaceAll/);
  const filesOnly = ek.createToolRunner({ files: { readFile: () => null, writeFile() {} } });
  const unknown = await filesOnly.run('rm_rf', {});
  assert.match(unknown, /Available tools: read_file, /);
  assert.doesNotMatch(unknown, /applyBlockDiff/);
});
