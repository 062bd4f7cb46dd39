// Everything public except loading (see web.ts / node.ts).
export { EditkitError, isEditkitError } from './errors.js';
export * from './api.js';
export * from './files.js';
export * from './content.js';
export type * from './types.js';
