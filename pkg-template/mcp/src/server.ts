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
import type { Lang, McpTool, ToolRunner, WriteEvent } from 'editkit';
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
  const { runner } = options;
  const definitions = runner.definitions({ format: 'mcp' });
  const tools = new Map<string, McpTool>(definitions.tools.map((t) => [t.name, t]));
  const redact = pathRedactor(options.hiddenFolders ?? []);
  const server = new Server(
    { name: options.name ?? 'editkit-mcp', version: options.version ?? '0.0.0' },
    {
      capabilities: { tools: { listChanged: false }, logging: {} },
      instructions: options.instructions ?? definitions.guide,
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: definitions.tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name } = request.params;
    const tool = tools.get(name);
    if (!tool)
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
          params: { progressToken, progress: write.count, message: `${write.callback}${target}` },
        })
        .catch(() => {});
    };
    const r = await runner.runDetailed(name, request.params.arguments ?? {}, {
      signal: extra.signal,
      onWrite,
    });
    const result = toMcpResult(r, tool, redact, options.lang);
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
