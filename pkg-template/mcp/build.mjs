// Assembles pkg-mcp/ (the npm package `editkit-mcp`) from pkg-template/mcp/,
// beside pkg/ (`editkit`, which it depends on at the same version). Run by
// pkg-template/build.mjs after pkg/ is assembled.
//   node pkg-template/mcp/build.mjs
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const out = join(root, 'pkg-mcp');
const dist = join(out, 'dist');
const version = JSON.parse(readFileSync(join(root, 'pkg', 'package.json'), 'utf8')).version;

rmSync(out, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
const common = {
  bundle: true,
  // editkit and the SDK are dependencies, not copies.
  packages: 'external',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  legalComments: 'none',
};
await build({
  ...common,
  entryPoints: [join(here, 'src', 'index.ts')],
  outfile: join(dist, 'index.js'),
});
await build({
  ...common,
  entryPoints: [join(here, 'src', 'cli.ts')],
  outfile: join(dist, 'cli.js'),
  banner: { js: '#!/usr/bin/env node' },
});
execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', join(here, 'tsconfig.json')], {
  stdio: 'inherit',
});

const pkg = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));
pkg.version = version;
pkg.dependencies.editkit = version;
writeFileSync(join(out, 'package.json'), JSON.stringify(pkg, null, 2) + '\n');
copyFileSync(join(here, 'README.md'), join(out, 'README.md'));
// In the repo, `editkit` is the package built beside this one (a user's
// install gets it from the registry or a tarball, like any dependency).
mkdirSync(join(out, 'node_modules'), { recursive: true });
symlinkSync(join('..', '..', 'pkg'), join(out, 'node_modules', 'editkit'), 'dir');
console.log(`pkg-mcp/ assembled: editkit-mcp@${version}`);
