// `editkit/testing`: in-memory SiYuan stand-ins for tests, demos and trying
// agents offline. Not needed in production.
//   createMemoryHost  — implements the host callbacks directly (no HTTP shapes)
//   createKernelDouble — serves the kernel HTTP endpoints; pair it with
//                        createSiyuanHost({ request: double.request })
export { createMemoryHost, splitBlocks } from './memory-host.js';
export type {
  FixtureDocument,
  HostCall,
  MarkdownDocument,
  MemoryHost,
  MemoryHostOptions,
  TreeNode,
} from './memory-host.js';
export { createKernelDouble } from './kernel-double.js';
export type {
  KernelCall,
  KernelDouble,
  KernelDoubleOptions,
  KernelNotebook,
} from './kernel-double.js';
export { kernelLute, loadLute } from './lute.js';
export type { LuteEngine, LuteNamespace } from './lute.js';
