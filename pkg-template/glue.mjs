// Edits the JavaScript glue wasm-bindgen generates, for every build that
// uses it (pkg-template/build.mjs: the package and the test build;
// pkg-template/plugin/build.mjs: the SiYuan kernel plugin). Each edit
// checks the generated code still has the shape it replaces and stops the
// build otherwise.

// wasm-bindgen copies ASCII strings into wasm memory with a JavaScript
// loop, one char at a time, before falling back to TextEncoder.encodeInto:
// ~1 ms for a 400 KB file, 30 times what encodeInto alone takes. Every
// editkit call passes whole files, so the glue encodes with encodeInto
// directly (same bytes, same allocation protocol). The build stops if the
// generated code no longer has the expected shape.
const ASCII_LOOP = `    let len = arg.length;
    let ptr = malloc(len, 1) >>> 0;

    const mem = getUint8ArrayMemory0();

    let offset = 0;

    for (; offset < len; offset++) {
        const code = arg.charCodeAt(offset);
        if (code > 0x7F) break;
        mem[ptr + offset] = code;
    }
    if (offset !== len) {
        if (offset !== 0) {
            arg = arg.slice(offset);
        }
        ptr = realloc(ptr, len, len = offset + arg.length * 3, 1) >>> 0;
        const view = getUint8ArrayMemory0().subarray(ptr + offset, ptr + len);
        const ret = cachedTextEncoder.encodeInto(arg, view);

        offset += ret.written;
        ptr = realloc(ptr, len, offset, 1) >>> 0;
    }

    WASM_VECTOR_LEN = offset;
    return ptr;`;
// (No realloc of a zero-size block: the allocator's realloc requires a
// non-empty old block, as the original code's control flow ensured.)
const ENCODE_INTO = `    // editkit: encodeInto for the whole string (see pkg-template/glue.mjs).
    const len = arg.length * 3;
    let ptr = malloc(len, 1) >>> 0;
    if (len === 0) {
        WASM_VECTOR_LEN = 0;
        return ptr;
    }
    const ret = cachedTextEncoder.encodeInto(arg, getUint8ArrayMemory0().subarray(ptr, ptr + len));
    if (ret.written !== len) ptr = realloc(ptr, len, ret.written, 1) >>> 0;
    WASM_VECTOR_LEN = ret.written;
    return ptr;`;
// An async export's future is polled from a microtask (js-sys queues each
// poll with queueMicrotask) and woken from a host promise's `then`
// callback, outside the stack of the JS call that started it. A trap there
// was an uncaught exception (it ends a Node process) and left the call's
// promise pending forever. The glue runs those callbacks through
// `editkitReporting`: what one throws goes to the handler the TS layer
// installs (boundary.ts: the instance is replaced and the calls in flight
// reject with INTERNAL_ERROR); a callback of an instance already replaced
// (a host that answers after the trap) is dropped, its call rejected
// already. The build stops if the glue no longer has the expected shape.
const REPORTED_CALLBACKS = [
  ['queueMicrotask(arg0);', 'queueMicrotask(editkitReporting(arg0));'],
  [
    'const ret = arg0.then(arg1, arg2);',
    'const ret = arg0.then(editkitReporting(arg1), editkitReporting(arg2));',
  ],
  ['const ret = arg0.then(arg1);', 'const ret = arg0.then(editkitReporting(arg1));'],
];
const REPORTING = `
// editkit: callbacks that poll or wake a future report what they throw
// (see pkg-template/glue.mjs); boundary.ts installs the handler.
let editkitAsyncFailure = (e) => {
    throw e;
};
export function __editkitOnAsyncFailure(handler) {
    editkitAsyncFailure = handler;
}
function editkitReporting(callback) {
    if (typeof callback !== 'function') return callback;
    const instance = __wbg_instance_id;
    return (...args) => {
        try {
            return callback(...args);
        } catch (e) {
            if (instance === __wbg_instance_id) editkitAsyncFailure(e);
        }
    };
}
`;
/**
 * Wraps the callbacks that poll or wake a future (see above). The glue of a
 * build with reference types passes JS values as they are (`arg0`); the
 * glue of the kernel plugin's build (no reference types) takes them from
 * its heap (`getObject(arg0)`): either form, exactly once.
 */
export function reportAsyncFailures(text, file) {
  const heapForm = (s) => s.replace(/\barg(\d)\b/g, 'getObject(arg$1)');
  for (const [from, to] of REPORTED_CALLBACKS) {
    const form = [from, heapForm(from)].find((f) => text.includes(f)) ?? from;
    const found = text.split(form).length - 1;
    if (found !== 1)
      throw new Error(
        `wasm-bindgen glue changed: ${file} has ${found} of \`${form}\`, glue.mjs wraps exactly one`,
      );
    text = text.replace(form, form === from ? to : heapForm(to));
  }
  if (!text.includes('let __wbg_instance_id'))
    throw new Error(`wasm-bindgen glue changed: ${file} has no __wbg_instance_id`);
  return text + REPORTING;
}

/** The package's glue: strings encoded whole, async failures reported. */
export function patchGlue(text, file) {
  return reportAsyncFailures(encodeWholeStrings(text, file), file);
}

/** Replaces the ASCII loop of `passStringToWasm0` (see ASCII_LOOP). */
export function encodeWholeStrings(text, file) {
  if (!text.includes(ASCII_LOOP)) {
    throw new Error(
      `wasm-bindgen glue changed: ${file}'s passStringToWasm0 no longer has the ASCII loop glue.mjs replaces`,
    );
  }
  return text.replace(ASCII_LOOP, ENCODE_INTO);
}

// The glue keeps views over the wasm memory (a Uint8Array, a DataView)
// and makes new ones when the memory grew: it checks the old view's length
// (0 once a grown WebAssembly memory detached its buffer) or the buffer's
// `detached` flag. The kernel plugin's memory is JavaScript (wasm2js):
// growing it copies into a new ArrayBuffer and leaves the old one whole
// and not detached, so the glue would go on reading and writing where the
// code no longer does. The plugin's glue compares buffers instead, for
// every view, and the build stops if a view's check has another shape.
const VIEW_GETTER =
  /function get(\w+)Memory0\(\) \{\n {4}if \(cached\1Memory0 === null \|\| ([^\n]*)\) \{\n/g;
export function viewsFollowGrownBuffers(text, file) {
  let views = 0;
  const patched = text.replace(VIEW_GETTER, (whole, view, check) => {
    views += 1;
    const byLength = `cached${view}Memory0.byteLength === 0`;
    const byDetached = `cached${view}Memory0.buffer.detached === true || (cached${view}Memory0.buffer.detached === undefined && cached${view}Memory0.buffer !== wasm.memory.buffer)`;
    if (check !== byLength && check !== byDetached)
      throw new Error(
        `wasm-bindgen glue changed: ${file}'s get${view}Memory0 checks \`${check}\`, which glue.mjs does not know`,
      );
    return whole.replace(check, `cached${view}Memory0.buffer !== wasm.memory.buffer`);
  });
  if (
    views === 0 ||
    patched.includes('.byteLength === 0) {') ||
    patched.includes('buffer.detached')
  )
    throw new Error(`wasm-bindgen glue changed: ${file} has a memory view glue.mjs did not patch`);
  return patched;
}

// The plugin's core has no start function (wasm-bindgen adds one only to
// fill an externref table), but the glue's reset after a trap calls it:
// the new instance is in place by then, yet the reset throws. It is called
// only when there is one.
const START = '    wasm.__wbindgen_start();\n';
export function startIfThere(text, file) {
  if (text.split(START).length !== 2)
    throw new Error(
      `wasm-bindgen glue changed: ${file} has no single \`wasm.__wbindgen_start();\``,
    );
  return text.replace(START, '    if (wasm.__wbindgen_start) wasm.__wbindgen_start();\n');
}
