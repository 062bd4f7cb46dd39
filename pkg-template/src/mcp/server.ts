// The Model Context Protocol over stdio (newline-delimited JSON-RPC 2.0),
// as far as a tools-only server needs it: initialize, ping, tools/list and
// tools/call. Written here rather than taken from the MCP SDK so the
// package gains no dependency; the tests drive it with the SDK's own client.

import { jsError, readOptions } from '../errors.js';
import type { ToolRunner } from '../tools/runner.js';

/** The protocol revisions this server speaks, newest first. */
export const MCP_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];

/** Where requests arrive: `process.stdin` or any readable stream of text lines. */
export interface McpInput {
  on(event: 'data', listener: (chunk: string | Uint8Array) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  setEncoding?(encoding: 'utf8'): unknown;
}

/** Where answers go: `process.stdout` or any writable stream. */
export interface McpOutput {
  write(chunk: string): unknown;
}

export interface McpServerOptions {
  /** Executes the tools (`createToolRunner({ files, siyuan, lang })`). */
  runner: ToolRunner;
  /** Where requests arrive (default `process.stdin`). */
  input?: McpInput;
  /** Where answers go (default `process.stdout`). */
  output?: McpOutput;
  /** Reported as `serverInfo`. */
  name?: string;
  version?: string;
  /** Shown to the client as the server's instructions (default: the runner's toolset guide). */
  instructions?: string;
}

type Id = string | number | null;
interface Message {
  jsonrpc?: unknown;
  id?: Id;
  method?: unknown;
  params?: unknown;
}

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;

/**
 * Serves `runner`'s tools over MCP on a pair of streams; resolves when the
 * input ends. Tool errors are tool results with `isError: true`, never
 * protocol errors, so the model reads them.
 */
export function serveMcp(options: McpServerOptions): Promise<void> {
  const o = readOptions(
    options,
    ['runner', 'input', 'output', 'name', 'version', 'instructions'] as const,
    'options',
  );
  const runner = o.runner as ToolRunner;
  if (typeof runner?.runDetailed !== 'function' || typeof runner.definitions !== 'function')
    throw jsError(
      'INVALID_ARGUMENT',
      'invalidArgument',
      'en',
      ['runner', 'expected a tool runner (createToolRunner)'],
      { subject: 'runner' },
    );
  const stream = (value: unknown, name: string, method: 'on' | 'write') => {
    if (value === undefined) return undefined;
    if (
      typeof value === 'object' &&
      value !== null &&
      typeof (value as Record<string, unknown>)[method] === 'function'
    )
      return value;
    throw jsError('INVALID_ARGUMENT', 'invalidArgument', 'en', [name, 'expected a stream'], {
      subject: name,
    });
  };
  const input = (stream(o.input, 'input', 'on') as McpInput | undefined) ?? process.stdin;
  const output = (stream(o.output, 'output', 'write') as McpOutput | undefined) ?? process.stdout;
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const serverInfo = { name: text(o.name) ?? 'editkit', version: text(o.version) ?? '0.0.0' };
  const definitions = runner.definitions({ format: 'mcp' });
  const send = (message: object) => {
    output.write(`${JSON.stringify(message)}\n`);
  };
  const failure = (id: Id, code: number, message: string) => ({
    jsonrpc: '2.0',
    id,
    error: { code, message },
  });

  const toolNames = new Set(definitions.tools.map((t) => t.name));

  /** The answer to one message, or undefined (notifications, responses). */
  async function handle(message: unknown): Promise<object | undefined> {
    if (typeof message !== 'object' || message === null || Array.isArray(message))
      return failure(null, INVALID_REQUEST, 'expected a JSON-RPC message object');
    const { id, method, jsonrpc } = message as Message;
    const isRequest = id !== undefined;
    if (typeof method !== 'string') {
      // A response to a request we never send, or junk: answer only what has an id.
      if (isRequest && !('result' in message) && !('error' in message))
        return failure(id ?? null, INVALID_REQUEST, 'expected a JSON-RPC request with a method');
      return undefined;
    }
    if (jsonrpc !== '2.0')
      return isRequest ? failure(id ?? null, INVALID_REQUEST, 'jsonrpc must be "2.0"') : undefined;
    if (!isRequest) return undefined; // notifications: initialized, cancelled, …
    if (id === null || (typeof id !== 'string' && typeof id !== 'number'))
      return failure(null, INVALID_REQUEST, 'a request id is a string or a number, never null');
    return answer(id, method, message as Message);
  }

  async function answer(id: string | number, method: string, message: Message): Promise<object> {
    const params = (typeof message.params === 'object' && message.params) || {};
    switch (method) {
      case 'initialize': {
        const asked = (params as { protocolVersion?: unknown }).protocolVersion;
        const protocolVersion =
          typeof asked === 'string' && MCP_PROTOCOL_VERSIONS.includes(asked)
            ? asked
            : MCP_PROTOCOL_VERSIONS[0];
        return {
          id,
          result: {
            protocolVersion,
            capabilities: { tools: { listChanged: false } },
            serverInfo,
            instructions: text(o.instructions) ?? definitions.guide,
          },
        };
      }
      case 'ping':
        return { id, result: {} };
      case 'tools/list':
        return { id, result: { tools: definitions.tools } };
      case 'tools/call': {
        const { name, arguments: args } = params as { name?: unknown; arguments?: unknown };
        if (typeof name !== 'string')
          return failure(id, INVALID_PARAMS, 'tools/call needs params.name (a string)');
        // An unknown tool is a protocol error (MCP spec), listing the tools.
        if (!toolNames.has(name))
          return failure(
            id,
            INVALID_PARAMS,
            `unknown tool ${JSON.stringify(name)}; the tools are ${[...toolNames].join(', ')}`,
          );
        const r = await runner.runDetailed(name, args ?? {});
        return { id, result: { content: [{ type: 'text', text: r.text }], isError: r.isError } };
      }
      default:
        return failure(id, METHOD_NOT_FOUND, `method not found: ${method}`);
    }
  }

  return new Promise((resolve, reject) => {
    let buffered = '';
    const pending = new Set<Promise<void>>();
    // One message, with its answer's JSON-RPC envelope; a failure inside
    // is a bug in editkit, answered as an internal error.
    const reply = (message: unknown): Promise<object | undefined> =>
      handle(message)
        .catch((e: unknown) =>
          failure(
            (message as Message | null)?.id ?? null,
            -32603,
            e instanceof Error ? e.message : String(e),
          ),
        )
        .then((r) => (r ? { jsonrpc: '2.0', ...r } : undefined));
    const dispatch = (line: string) => {
      if (!line.trim()) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        send(failure(null, PARSE_ERROR, 'the line is not valid JSON'));
        return;
      }
      // Calls run concurrently; each answers under its own id. A batch
      // (protocol 2025-03-26) is answered with one array, in its order.
      const task = Array.isArray(parsed)
        ? parsed.length === 0
          ? Promise.resolve(send(failure(null, INVALID_REQUEST, 'an empty batch')))
          : Promise.all(parsed.map(reply)).then((answers) => {
              const some = answers.filter((x) => x !== undefined);
              if (some.length) send(some);
            })
        : reply(parsed).then((r) => {
            if (r) send(r);
          });
      pending.add(task);
      void task.finally(() => pending.delete(task));
    };
    input.setEncoding?.('utf8');
    const decoder = new TextDecoder();
    input.on('data', (chunk: string | Uint8Array) => {
      buffered += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline).replace(/\r$/, '');
        buffered = buffered.slice(newline + 1);
        dispatch(line);
      }
    });
    input.on('end', () => {
      dispatch(buffered);
      void Promise.all(pending).then(() => resolve());
    });
    input.on('error', reject);
  });
}
