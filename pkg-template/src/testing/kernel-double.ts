// `createKernelDouble` lives in ./kernel/ (one module per part of the
// kernel's behaviour); this file keeps the import path stable.
export { createKernelDouble } from './kernel/double.js';
export { API_IAL_KEYS, canonicalIal } from './kernel/attrs.js';
export type {
  KernelCall,
  KernelDouble,
  KernelDoubleOptions,
  KernelEditor,
  KernelNotebook,
} from './kernel/double.js';
