// editkit-mcp as a library: the server, its transports, and the result
// conversion, for hosts that embed it (the bin is cli.ts).
export { createEditkitMcpServer } from './server.js';
export type { EditkitMcpServerOptions, LateCancel } from './server.js';
export { serveHttp } from './http.js';
export type { HttpEndpoint, HttpOptions } from './http.js';
export { pathRedactor, toMcpResult, toolError } from './results.js';
export type { McpToolResult, Redact, ToolError } from './results.js';
export {
  SUPPORTED_PROTOCOL_VERSIONS,
  LATEST_PROTOCOL_VERSION,
} from '@modelcontextprotocol/sdk/types.js';
