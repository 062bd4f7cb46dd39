// Loading the web build with hostile values: every failure is an
// EditkitError INVALID_ARGUMENT naming the argument (the loader's own error
// as `cause`), nothing is left half-loaded, and a later good call works.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openBlank } from './support.mjs';

// Runs in the page: each case → { code, subject, message, cause } or 'ok'.
async function runCases(cases) {
  const ek = await import('/pkg/web.js');
  const EMPTY_MODULE = [0, 97, 115, 109, 1, 0, 0, 0]; // "\0asm" version 1, no sections: valid, but not editkit's
  const make = {
    beforeInit: () => ek.findMatch('a', 'a'),
    sessionBeforeInit: () => new ek.FileEditSession(),
    number: () => ek.default(42),
    bareUrl: () => ek.default('/pkg/editkit_bg.wasm'),
    array: () => ek.default([]),
    notFound: () => ek.default({ module_or_path: '/no-such.wasm' }),
    truncated: () => ek.default({ module_or_path: new Uint8Array([0, 97, 115, 109]) }),
    rejected: () => ek.default({ module_or_path: Promise.reject(new Error('boom')) }),
    notWasmResponse: () =>
      ek.default({
        module_or_path: new Response('not wasm', {
          headers: { 'content-type': 'application/wasm' },
        }),
      }),
    plainObject: () => ek.default({ module_or_path: { url: '/pkg/editkit_bg.wasm' } }),
    foreignModule: () => ek.default({ module_or_path: new Uint8Array(EMPTY_MODULE) }),
    syncGarbage: () => ek.initSync({ module: new Uint8Array([1, 2, 3]) }),
    syncMissing: () => ek.initSync({}),
    syncBare: () => ek.initSync(new Uint8Array(8)),
    syncUrl: () => ek.initSync({ module: '/pkg/editkit_bg.wasm' }),
    syncForeign: () =>
      ek.initSync({ module: new WebAssembly.Module(new Uint8Array(EMPTY_MODULE)) }),
    stillNotLoaded: () => ek.findMatch('a', 'a'),
    good: () => ek.default({ module_or_path: '/pkg/editkit_bg.wasm' }),
    // The fast start the package README recommends: a fetch still in
    // flight, handed over as it is.
    pendingResponse: () => ek.default({ module_or_path: fetch('/pkg/editkit_bg.wasm') }),
    goodAgain: () => Promise.all([ek.default(), ek.default({ module_or_path: '/no-such.wasm' })]),
    works: () => {
      if (ek.findMatch('a\nb', 'b').matches[0].startLine !== 2)
        throw new Error('findMatch gave the wrong line');
    },
    argsStillChecked: () => ek.default(42),
    syncBytes: async () =>
      ek.initSync({ module: await (await fetch('/pkg/editkit_bg.wasm')).arrayBuffer() }),
    syncAfterInit: () =>
      ek.initSync({ module: new WebAssembly.Module(new Uint8Array(EMPTY_MODULE)) }),
  };
  const out = {};
  for (const name of cases) {
    try {
      await make[name]();
      out[name] = 'ok';
    } catch (e) {
      out[name] = ek.isEditkitError(e)
        ? {
            code: e.code,
            subject: e.subject,
            message: e.message,
            cause: e.cause ? `${e.cause.name}: ${e.cause.message}` : undefined,
          }
        : { notEditkit: `${e?.name}: ${e?.message}` };
    }
  }
  return out;
}

const invalid = (subject, message, cause) => ({
  code: 'INVALID_ARGUMENT',
  subject,
  message,
  cause,
});

test('web build: init rejects hostile values with INVALID_ARGUMENT, then loads', async () => {
  const blank = await openBlank();
  try {
    const r = await blank.page.evaluate(runCases, [
      'beforeInit',
      'sessionBeforeInit',
      'number',
      'bareUrl',
      'array',
      'notFound',
      'truncated',
      'rejected',
      'notWasmResponse',
      'plainObject',
      'foreignModule',
      'stillNotLoaded',
      'good',
      'goodAgain',
      'works',
      'argsStillChecked',
      'syncAfterInit',
      'works',
    ]);
    const notLoaded =
      'editkit is not initialised: with the browser build, await init() (or call initSync({ module })) before calling any other editkit function.';
    assert.deepEqual(r.beforeInit, {
      code: 'INTERNAL_ERROR',
      subject: 'init',
      message: notLoaded,
      cause: "TypeError: Cannot read properties of undefined (reading 'findMatch')",
    });
    assert.equal(r.sessionBeforeInit.code, 'INTERNAL_ERROR');
    assert.equal(r.sessionBeforeInit.message, notLoaded);
    assert.deepEqual(
      r.number,
      invalid('module_or_path', 'init(options): expected { module_or_path }, got number'),
    );
    assert.deepEqual(
      r.bareUrl,
      invalid(
        'module_or_path',
        'init(options): expected { module_or_path }, got "/pkg/editkit_bg.wasm"',
      ),
    );
    assert.deepEqual(
      r.array,
      invalid('module_or_path', 'init(options): expected { module_or_path }, got an Array'),
    );
    assert.equal(r.notFound.code, 'INVALID_ARGUMENT');
    assert.match(
      r.notFound.message,
      /^init: could not load the wasm module from "\/no-such\.wasm": HTTP 404 Not Found fetching http:\/\/127\.0\.0\.1:\d+\/no-such\.wasm\. editkit_bg\.wasm is not at that URL\. /,
    );
    // A 404 says where the wasm must be and how to put it there (Vite, SiYuan).
    assert.match(r.notFound.message, /import wasmUrl from "editkit\/editkit_bg\.wasm\?url"/);
    assert.match(r.notFound.message, /\/plugins\/<plugin name>\/editkit_bg\.wasm/);
    assert.match(r.notFound.cause, /^Error: HTTP 404/);
    assert.equal(r.truncated.subject, 'module_or_path');
    assert.match(r.truncated.message, /^init: could not load the wasm module from 4 bytes: /);
    assert.match(r.truncated.cause, /^CompileError: /);
    assert.deepEqual(
      r.rejected,
      invalid(
        'module_or_path',
        'init: could not load the wasm module from a Promise: boom',
        'Error: boom',
      ),
    );
    assert.match(
      r.notWasmResponse.message,
      /^init: could not load the wasm module from a Response \(200\): .*expected magic word 00 61 73 6d/,
    );
    assert.match(r.notWasmResponse.cause, /^CompileError: /);
    assert.deepEqual(
      r.plainObject,
      invalid(
        'module_or_path',
        'init: expected module_or_path to be a URL, a Response, the wasm bytes or a WebAssembly.Module, got an Object',
      ),
    );
    assert.equal(r.foreignModule.code, 'INVALID_ARGUMENT');
    assert.match(
      r.foreignModule.message,
      /^init: this wasm module is not editkit's \(it lacks memory, version, /,
    );
    // None of that loaded anything half-way: the next good init works.
    assert.equal(r.stillNotLoaded.message, notLoaded);
    assert.equal(r.good, 'ok');
    assert.equal(
      r.goodAgain,
      'ok',
      'init is idempotent once loaded (the argument is not fetched again)',
    );
    assert.equal(r.works, 'ok');
    assert.deepEqual(
      r.argsStillChecked,
      invalid('module_or_path', 'init(options): expected { module_or_path }, got number'),
    );
    assert.equal(r.syncAfterInit, 'ok', 'initSync after a successful init is a no-op');
    assert.deepEqual(blank.errors, []);
  } finally {
    await blank.close();
  }
});

test('web build: init takes a pending Response (the download started before it)', async () => {
  const blank = await openBlank();
  try {
    const r = await blank.page.evaluate(runCases, ['pendingResponse', 'works']);
    assert.deepEqual(r, { pendingResponse: 'ok', works: 'ok' });
    assert.deepEqual(blank.errors, []);
  } finally {
    await blank.close();
  }
});

test('web build: initSync rejects hostile values with INVALID_ARGUMENT, then loads from bytes', async () => {
  const blank = await openBlank();
  try {
    const r = await blank.page.evaluate(runCases, [
      'syncGarbage',
      'syncMissing',
      'syncBare',
      'syncUrl',
      'syncForeign',
      'stillNotLoaded',
      'syncBytes',
      'works',
    ]);
    assert.equal(r.syncGarbage.subject, 'module');
    assert.match(
      r.syncGarbage.message,
      /^initSync: could not compile the wasm module from 3 bytes: /,
    );
    assert.match(r.syncGarbage.cause, /^CompileError: /);
    assert.deepEqual(
      r.syncMissing,
      invalid(
        'module',
        'initSync: expected { module } with the wasm bytes (ArrayBuffer or a typed array) or a WebAssembly.Module, got undefined',
      ),
    );
    assert.deepEqual(
      r.syncBare,
      invalid('module', 'initSync(options): expected { module }, got 8 bytes'),
    );
    assert.deepEqual(
      r.syncUrl,
      invalid(
        'module',
        'initSync: expected { module } with the wasm bytes (ArrayBuffer or a typed array) or a WebAssembly.Module, got "/pkg/editkit_bg.wasm"',
      ),
    );
    assert.equal(r.syncForeign.code, 'INVALID_ARGUMENT');
    assert.match(r.syncForeign.message, /^initSync: this wasm module is not editkit's/);
    assert.equal(r.stillNotLoaded.code, 'INTERNAL_ERROR');
    assert.equal(r.syncBytes, 'ok');
    assert.equal(r.works, 'ok');
    assert.deepEqual(blank.errors, []);
  } finally {
    await blank.close();
  }
});
