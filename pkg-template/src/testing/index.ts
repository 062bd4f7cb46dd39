// `editkit/testing`: an in-memory SiYuan host for tests, demos and trying
// agents offline. Not needed in production.
export { createMemoryHost, splitBlocks } from './memory-host.js';
export type { FixtureDocument, HostCall, MarkdownDocument, MemoryHost, MemoryHostOptions, TreeNode } from './memory-host.js';
