// The TypeScript layer's modules use one another in one direction: no
// module imports, even for a type, a module that imports it back through
// any chain (a circle makes every module in it depend on all the others,
// and a value import in one is evaluated half-initialised). Relative
// imports and re-exports of pkg-template/src, mcp/src and plugin/src.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { repo } from './support.mjs';

/** Each .ts module of `root` and the modules of `root` it imports. */
function importGraph(root) {
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith('.ts') && !path.endsWith('.d.ts')) files.push(resolve(path));
    }
  };
  walk(root);
  const graph = new Map();
  for (const file of files) {
    const source = readFileSync(file, 'utf8');
    const uses = new Set();
    for (const m of source.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+'(\.{1,2}\/[^']+)'/gms))
      uses.add(resolve(dirname(file), m[1].replace(/\.js$/, '.ts')));
    graph.set(
      file,
      [...uses].filter((u) => files.includes(u)),
    );
  }
  return graph;
}

/** The strongly connected groups of more than one module (Tarjan). */
function circles(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const group = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1) found.push(group);
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

test('the TypeScript modules have no import circle, type imports included', () => {
  for (const root of ['pkg-template/src', 'pkg-template/mcp/src', 'pkg-template/plugin/src']) {
    const graph = importGraph(join(repo, root));
    assert.ok(graph.size >= 2, `${root} has modules`);
    const found = circles(graph).map((group) =>
      group.map((file) => relative(join(repo, root), file)).join(' ↔ '),
    );
    assert.deepEqual(found, [], `${root}: import circles`);
  }
});

test('the circle finder finds a circle', () => {
  const graph = new Map([
    ['a', ['b']],
    ['b', ['c']],
    ['c', ['a']],
    ['d', ['a']],
  ]);
  assert.deepEqual(
    circles(graph).map((g) => [...g].sort()),
    [['a', 'b', 'c']],
  );
});
