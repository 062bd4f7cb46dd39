// `editkit/testing`: in-memory SiYuan stand-ins for tests, demos and trying
// agents offline. Not needed in production. Both need Lute (SiYuan's
// Markdown engine, `vditor/dist/js/lute/lute.min.js`; see `loadLute`).
//   createKernelDouble — serves the kernel HTTP endpoints as the real kernel
//                        behaves (shared/KERNEL-FACTS.md); pair it with
//                        createSiyuanHost({ request: double.request })
//   createMemoryHost   — the double behind createSiyuanHost, with recorded
//                        calls and injected write failures
export { createMemoryHost } from './memory-host.js';
export type {
  FixtureDocument,
  HostCall,
  MarkdownDocument,
  MemoryHost,
  MemoryHostOptions,
  TreeNode,
} from './memory-host.js';
export { API_IAL_KEYS, canonicalIal, createKernelDouble } from './kernel-double.js';
export type {
  KernelCall,
  KernelDouble,
  KernelDoubleOptions,
  KernelEditor,
  KernelNotebook,
} from './kernel-double.js';
export { kernelLute, loadLute } from './lute.js';
export type { LuteEngine, LuteNamespace } from './lute.js';
