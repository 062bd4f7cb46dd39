// The kernel double over stdin/stdout, for the Rust integration suites:
// one JSON request per line, one JSON answer per line. SiYuan's rules live
// in one place — the double (`pkg-template/src/testing/kernel/`) — and the
// Rust core is tested against it through the real adapter
// (`createSiyuanHost`), exactly as the wasm build is in `tests/node`.
//
// Bundled by `tests/suite/kernel_host.rs` with esbuild into
// `target/kernel-double/server.mjs` and started once per test binary.
//
// Requests:
//   {"op":"new","now":"2024-06-15T07:30:00Z"}     → {"ok": session}
//   {"op":"new","options":{"documents":[…]}}      → a double over those documents only
//   {"op":"host","session":s,"name":"getBlocks","args":[…]}
//        → {"ok": result} | {"error": message, "timeout"?: true}
//   {"op":"kernel","session":s,"name":"flush"|…,"args":[…]} → {"ok": result}
//   {"op":"drop","session":s}
//
// The double's randomness (attribute order, re-IDed duplicates) is seeded
// from EDITKIT_DOUBLE_SEED (default 1), unless `options.seed` is given.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createSiyuanHost } from '../../pkg-template/src/siyuan/adapter.js';
import { createKernelDouble } from '../../pkg-template/src/testing/kernel/double.js';
import type { KernelDouble } from '../../pkg-template/src/testing/kernel/double.js';
import { loadLute } from '../../pkg-template/src/testing/lute.js';
import type { SiyuanKernelHost } from '../../pkg-template/src/types.js';

const [repo, shared] = process.argv.slice(2) as [string, string];
const require = createRequire(join(repo, 'package.json'));
const Lute = loadLute(
  readFileSync(join(repo, 'node_modules', 'vditor', 'dist', 'js', 'lute', 'lute.min.js'), 'utf8'),
  require,
);
const fixtureDir = join(shared, 'fixtures', 'siyuan');
const read = (name: string): unknown => JSON.parse(readFileSync(join(fixtureDir, name), 'utf8'));
const FIXTURES = [
  'doc1-weekly-report.json',
  'doc2-plugin-dev.json',
  'doc3-reading-list.json',
  'doc4-daily-note.json',
].map(read);
const INDEX = read('notebook-index.json') as {
  notebook: { id: string; name: string };
  documents: unknown[];
};

const SEED = Number(process.env.EDITKIT_DOUBLE_SEED ?? 1);

interface Session {
  kernel: KernelDouble;
  host: SiyuanKernelHost;
}
const sessions = new Map<number, Session>();
let next = 0;

type Request = {
  op: string;
  session?: number;
  name?: string;
  args?: unknown[];
  now?: string;
  options?: Record<string, unknown>;
};

async function serve(req: Request): Promise<unknown> {
  if (req.op === 'new') {
    // The fixtures, or (with `options.documents`) only the documents given.
    const own = req.options?.documents !== undefined;
    const kernel = createKernelDouble({
      fixtures: own ? [] : (structuredClone(FIXTURES) as never),
      documentRows: own ? [] : (INDEX.documents as never),
      notebooks: [INDEX.notebook],
      lute: Lute,
      now: () => new Date(req.now ?? '2099-01-01T00:00:00Z'),
      seed: SEED,
      ...(req.options ?? {}),
    });
    const host = createSiyuanHost({ request: kernel.request, lute: Lute });
    next += 1;
    sessions.set(next, { kernel, host });
    return next;
  }
  const session = sessions.get(req.session ?? -1);
  if (!session) throw new Error(`no session ${req.session}`);
  if (req.op === 'drop') {
    sessions.delete(req.session!);
    return null;
  }
  const name = req.name ?? '';
  const args = req.args ?? [];
  if (req.op === 'host') {
    const f = (session.host as unknown as Record<string, unknown>)[name];
    if (typeof f !== 'function') throw new Error(`the adapter has no ${name}`);
    const result = await (f as (...a: unknown[]) => unknown).apply(session.host, args);
    return result ?? null;
  }
  if (req.op === 'kernel') {
    const k = session.kernel;
    switch (name) {
      case 'flush':
        return k.flush();
      case 'advance':
        return k.clock.advance(args[0] as number);
      case 'block':
        return k.block(args[0] as string) ?? null;
      case 'kramdown':
        return k.kramdown(args[0] as string);
      case 'snapshot':
        return k.snapshot(args[0] as string);
      case 'topLevel':
        return k.topLevel(args[0] as string).map((id) => [id, k.block(id)?.markdown ?? '']);
      case 'countId':
        return k.countId(args[0] as string);
      case 'failNextTransaction':
        return k.failNextTransaction(args[0] as string | undefined);
      case 'editorUpdate':
        return k.editor.updateBlock(args[0] as string, args[1] as string);
      case 'request':
        return k.request(args[0] as string, args[1] as Record<string, unknown>);
      case 'editorSetAttrs':
        return k.editor.setAttrs(args[0] as string, args[1] as Record<string, string>);
      case 'editorDelete':
        return k.editor.deleteBlock(args[0] as string);
      case 'editorInsert':
        return k.editor.insertBlock(args[0] as string, args[1] as { previousID?: string });
      case 'txErrors':
        return k.txErrors;
      case 'attrs':
        return k.attrs(args[0] as string) ?? null;
      case 'databaseRows':
        return k.databaseRows(args[0] as string);
      case 'seed':
        return k.seed;
      default:
        throw new Error(`unknown kernel op ${name}`);
    }
  }
  throw new Error(`unknown op ${req.op}`);
}

const lines = createInterface({ input: process.stdin });
let queue = Promise.resolve();
lines.on('line', (line) => {
  queue = queue.then(async () => {
    let answer: unknown;
    try {
      answer = { ok: await serve(JSON.parse(line) as Request) };
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      const timeout = (e as { code?: unknown }).code === 'HOST_TIMEOUT';
      answer = timeout ? { error: message, timeout: true } : { error: message };
    }
    process.stdout.write(`${JSON.stringify(answer)}\n`);
  });
});
