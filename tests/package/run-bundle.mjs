// Runs a browser bundle in Node as a page would load it (support.mjs,
// runBundle): node --experimental-vm-modules run-bundle.mjs <url> module|script
// The bundle is fetched from <url>; an ES module gets that URL as
// import.meta.url, a classic script is document.currentScript. `document`
// is the little a bundle's runtime reads at start (webpack's public path,
// Vite's modulepreload check). Prints { result, fetched } when the app calls
// globalThis.report(result); any error ends the process with its stack.
import vm from 'node:vm';

const [url, kind] = process.argv.slice(2);
const fetched = [];
const networkFetch = globalThis.fetch;
// A page's fetch: a relative URL is resolved against the document.
globalThis.fetch = (input, init) => {
  const target =
    typeof input === 'string' || input instanceof URL
      ? new URL(input, globalThis.document.baseURI)
      : input;
  fetched.push(String(target?.url ?? target));
  return networkFetch(target, init);
};
globalThis.document = {
  baseURI: new URL('/', url).href,
  currentScript: kind === 'script' ? { tagName: 'SCRIPT', src: url } : null,
  createElement: () => ({ relList: { supports: () => true } }),
};
globalThis.report = (result) => console.log(JSON.stringify({ result, fetched }));

const source = await (await networkFetch(url)).text();
if (kind === 'module') {
  const module = new vm.SourceTextModule(source, {
    identifier: url,
    initializeImportMeta(meta) {
      meta.url = url;
    },
  });
  await module.link((specifier) => {
    throw new Error(`the bundle imports ${specifier}; a single-file bundle was expected`);
  });
  await module.evaluate();
} else {
  vm.runInThisContext(source, { filename: url });
}
