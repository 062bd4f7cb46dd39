// Every TypeScript snippet (```ts) of the READMEs, type-checked under
// `strict` against the built packages, as a user who pastes it into a .ts
// file of a project of its section's kind would (readme-run.test.mjs runs
// them). A snippet names what it uses (a `declare const` for a value the
// reader supplies); the only ambient declarations are those a project of
// the snippet's kind has anyway: SiYuan's `siyuan` module and a bundler's
// asset imports.
//
// Two projects, with `types` as TypeScript 6 and 7 default it (`[]`) unless
// the README says to list some:
// - Node (NodeNext, `types: ["node"]`, as pkg-template/README.md's "In Node"
//   says a strict TS 7 project needs): every snippet but those below.
// - A browser bundle or SiYuan plugin (`bundler` resolution, which reads the
//   browser build's types, and `types: []`): the snippets of the sections in
//   BROWSER, which must need nothing of Node.
// EDITKIT_TSC=<path to a tsc script> checks with another TypeScript (e.g.
// typescript@7, installed apart); default, the repository's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readmeSnippets, repo } from './support.mjs';

const READMES = ['README.md', 'pkg-template/README.md', 'pkg-template/mcp/README.md'];
/** Sections whose snippets are browser or SiYuan-plugin code: checked with `types: []`. */
const BROWSER = {
  'pkg-template/README.md': ['In a SiYuan plugin', 'In the browser', 'With a bundler'],
};
const TSC = process.env.EDITKIT_TSC ?? join(repo, 'node_modules', 'typescript', 'bin', 'tsc');

/** The project: its own folder, the built packages installed, the ambient file. */
function project(name) {
  const dir = join(repo, 'target', name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  // The packages as a user installs them (the built ones).
  symlinkSync(join(repo, 'pkg'), join(dir, 'node_modules', 'editkit'), 'dir');
  symlinkSync(join(repo, 'pkg-mcp'), join(dir, 'node_modules', 'editkit-mcp'), 'dir');
  writeFileSync(join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  writeFileSync(join(dir, 'ambient.d.ts'), AMBIENT);
  return dir;
}

/** tsc -p over `files` in `dir` with these options; its status and output. */
function tsc(dir, files, options) {
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2022', 'DOM'],
        typeRoots: [join(repo, 'node_modules', '@types')],
        strict: true,
        noEmit: true,
        ...options,
      },
      files: ['ambient.d.ts', ...files],
    }),
  );
  const r = spawnSync(process.execPath, [TSC, '-p', dir], { encoding: 'utf8' });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
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
  const dir = project('readme-snippets');
  const files = { node: [], browser: [] };
  for (const readme of READMES) {
    const found = readmeSnippets(readFileSync(join(repo, readme), 'utf8'), ['ts']);
    assert.ok(found.length > 0, `${readme} has TypeScript snippets`);
    for (const { line, heading, code } of found) {
      const kind = BROWSER[readme]?.includes(heading) ? 'browser' : 'node';
      const name = `${readme.replace(/[/.]/g, '_')}_line${line}.ts`;
      // Each snippet is a module of its own (its names do not clash).
      writeFileSync(join(dir, name), `${code}\nexport {};\n`);
      files[kind].push(name);
    }
  }
  const node = tsc(dir, files.node, {
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    types: ['node'],
    skipLibCheck: true,
  });
  assert.equal(node.status, 0, `tsc over ${files.node.length} Node snippets:\n${node.output}`);
  const browser = tsc(dir, files.browser, {
    module: 'ESNext',
    moduleResolution: 'bundler',
    types: [],
    skipLibCheck: true,
  });
  assert.equal(
    browser.status,
    0,
    `tsc over ${files.browser.length} browser snippets (types: []):\n${browser.output}`,
  );
  assert.ok(files.node.length >= 6 && files.browser.length >= 4, JSON.stringify(files));
});

// A declaration file that imports node:* says so (`/// <reference types="node" />`),
// so a project with `types: []` (TypeScript 6 and 7's default) that uses the
// library gets Node's types from it instead of TS2591 "Cannot find name
// 'node:http'". editkit's own declarations import nothing of Node.
test("the packages' declarations stand alone under types: [] (no lib check skipped)", () => {
  const dir = project('readme-declarations');
  writeFileSync(
    join(dir, 'uses.ts'),
    [
      "import { applyBlockDiff, createNodeFileHost } from 'editkit';",
      "import { createKernelDouble } from 'editkit/testing';",
      "import { createEditkitMcpServer, serveHttp } from 'editkit-mcp';",
      'void applyBlockDiff; void createNodeFileHost; void createKernelDouble;',
      'void createEditkitMcpServer; void serveHttp;',
      '',
    ].join('\n'),
  );
  const r = tsc(dir, ['uses.ts'], {
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    types: [],
    skipLibCheck: false,
  });
  // The MCP SDK's own declarations (and zod's under them) are not ours.
  const ours = r.output
    .split('\n')
    .filter((l) => /error TS/.test(l) && !/node_modules\/(@modelcontextprotocol|zod)\//.test(l));
  assert.deepEqual(ours, [], r.output);
});
