// editkit's tools as an MCP server on the official SDK (its low-level
// `Server`: the tools' JSON Schemas are editkit's own, not zod). The
// transports are the SDK's; see stdio.ts and http.ts.

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import type { Lang, McpTool, RegisteredTool, ToolRunner, WriteEvent } from 'editkit';
import { relativeArguments } from './paths.js';
import { pathRedactor, toMcpResult } from './results.js';

export interface EditkitMcpServerOptions {
  /** Executes the tools (`createToolRunner({ files, siyuan, lang })`). */
  runner: ToolRunner;
  /** Reported as `serverInfo` (default `editkit-mcp` and the package's version). */
  name?: string;
  version?: string;
  /** Shown to the client as the server's instructions (default: the runner's toolset guide). */
  instructions?: string;
  /**
   * Folders the model must not see spelt out (the file tools' root):
   * paths under them are shown relative, the folder itself as `<root>`.
   * A file path a client gives absolute under one (`path`, a patch's
   * headers) is made relative before the call, so results name it so.
   */
  hiddenFolders?: string[];
  /** The language of the runner (default `en`): the head of an error's text is in it. */
  lang?: Lang;
}

/** What the server reports of a call cancelled after it began writing. */
export interface LateCancel {
  tool: string;
  requestId: string | number;
  message: string;
  result: unknown;
}

/**
 * A new MCP server for the runner's tools (one per connection: the SDK
 * binds a server to one transport). Tool failures are results with
 * `isError: true`; an unknown tool is a protocol error, naming the tools.
 */
export function createEditkitMcpServer(options: EditkitMcpServerOptions): Server {
  // The runner's registry: the tool modules its hosts serve, each listed
  // and called as the runner runs it.
  const registry = options.runner.registry();
  const tools = new Map<string, { tool: RegisteredTool; listed: McpTool }>(
    registry.tools.map((t) => [t.name, { tool: t, listed: mcpTool(t) }]),
  );
  const listed = [...tools.values()].map((t) => t.listed);
  const folders = options.hiddenFolders ?? [];
  const redact = pathRedactor(folders);
  const server = new Server(
    { name: options.name ?? 'editkit-mcp', version: options.version ?? '0.0.0' },
    {
      capabilities: { tools: { listChanged: false }, logging: {} },
      instructions: options.instructions ?? registry.guide,
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    const entry = tools.get(name);
    if (!entry)
      throw new McpError(
        ErrorCode.InvalidParams,
        `unknown tool ${JSON.stringify(name)}; the tools are ${[...tools.keys()].join(', ')}`,
      );
    const progressToken = request.params._meta?.progressToken;
    const onWrite = (write: WriteEvent) => {
      if (progressToken === undefined) return;
      const target = write.target === undefined ? '' : ` ${redact(write.target)}`;
      void extra
        .sendNotification({
          method: 'notifications/progress',
          params: {
            progressToken,
            progress: write.count,
            // Known for the file tools; a SiYuan tool's writes are
            // counted as they come (see WriteEvent.total).
            ...(write.total !== undefined ? { total: write.total } : {}),
            message: `${write.callback}${target}`,
          },
        })
        .catch(() => {});
    };
    const args = request.params.arguments ?? {};
    const r = await entry.tool.call(relativeArguments(args, folders), {
      signal: extra.signal,
      onWrite,
    });
    const result = toMcpResult(r, entry.listed, redact, options.lang);
    if (r.cancelledLate) {
      // The SDK sends no answer to a cancelled request (the protocol says
      // so); a call that had begun writing was completed, and the client
      // learns it here, with the result it did not get.
      void server
        .sendLoggingMessage({
          level: 'warning',
          logger: 'editkit',
          data: {
            tool: name,
            requestId: extra.requestId,
            message:
              'the call was cancelled after it began writing, so it was completed: its result follows',
            result,
          } satisfies LateCancel,
        })
        .catch(() => {});
    }
    return result;
  });
  return server;
}

/** A registered tool as MCP lists it (what `toolDefinitions({ format: 'mcp' })` gives, field for field). */
function mcpTool(t: RegisteredTool): McpTool {
  return {
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: t.inputSchema,
    annotations: t.annotations,
    ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
  };
}
