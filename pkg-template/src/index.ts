// Everything public except loading (see web.ts / node.ts).
export { EditkitError, isEditkitError } from './errors.js';
export * from './api.js';
export * from './files.js';
export * from './content.js';
export * from './matcher.js';
export * from './patches.js';
export * from './tools/index.js';
export type * from './types.js';
export {
  createSiyuanHost,
  kernelRequest,
  isBlockId,
  SiyuanApiError,
  BLOCK_ID_PATTERN,
  KERNEL_SQL_DEFAULT_LIMIT,
} from './siyuan/adapter.js';
export type { KernelRequestOptions } from './siyuan/adapter.js';
