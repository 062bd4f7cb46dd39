// Every TypeScript snippet (```ts) of the READMEs, type-checked under
// `strict` against the built packages, as a user who pastes it into a .ts
// file of a Node ESM project would. A snippet names what it uses (a
// `declare const` for a value the reader supplies); the only ambient
// declarations are those a project of the snippet's kind has anyway:
// SiYuan's `siyuan` module and a bundler's asset imports.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repo } from './support.mjs';

const READMES = ['README.md', 'pkg-template/README.md', 'pkg-template/mcp/README.md'];

/** The ```ts blocks of a Markdown text, with the line each starts on. */
function snippets(markdown) {
  const out = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '```ts') continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end] !== '```') end++;
    out.push({ line: start + 1, code: lines.slice(start, end).join('\n') });
    i = end;
  }
  return out;
}

// What a SiYuan plugin project (the `siyuan` package's typings) and a
// bundler project (Vite's client types) declare.
const AMBIENT = `
declare module 'siyuan' {
  export class Plugin {
    name: string;
    onload(): void | Promise<void>;
  }
  export function fetchSyncPost(url: string, data?: unknown): Promise<unknown>;
}
declare module '*?url' {
  const url: string;
  export default url;
}
declare module '*.wasm' {
  const url: string;
  export default url;
}
`;

test('every TypeScript snippet of the READMEs compiles under strict', () => {
  const dir = join(repo, 'target', 'readme-snippets');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  // The packages as a user installs them (the built ones).
  symlinkSync(join(repo, 'pkg'), join(dir, 'node_modules', 'editkit'), 'dir');
  symlinkSync(join(repo, 'pkg-mcp'), join(dir, 'node_modules', 'editkit-mcp'), 'dir');
  writeFileSync(join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  writeFileSync(join(dir, 'ambient.d.ts'), AMBIENT);
  const files = [];
  for (const readme of READMES) {
    const found = snippets(readFileSync(join(repo, readme), 'utf8'));
    assert.ok(found.length > 0, `${readme} has TypeScript snippets`);
    for (const { line, code } of found) {
      const name = `${readme.replace(/[/.]/g, '_')}_line${line}.ts`;
      // Each snippet is a module of its own (its names do not clash).
      writeFileSync(join(dir, name), `${code}\nexport {};\n`);
      files.push(name);
    }
  }
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2022', 'DOM'],
        types: ['node'],
        typeRoots: [join(repo, 'node_modules', '@types')],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
      },
      files: ['ambient.d.ts', ...files],
    }),
  );
  const tsc = spawnSync(
    process.execPath,
    [join(repo, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir],
    { encoding: 'utf8' },
  );
  assert.equal(tsc.status, 0, `tsc over ${files.length} snippets:\n${tsc.stdout}${tsc.stderr}`);
  assert.ok(files.length >= 10, `only ${files.length} snippets`);
});
