// The streamable HTTP transport (the SDK's), one session per client:
// POST /mcp with `initialize` opens a session (`Mcp-Session-Id`), later
// requests carry it, DELETE closes it. Bound to 127.0.0.1 by default; a
// bearer token, when set, is required on every request; on a loopback
// address, requests naming another host or coming from a page elsewhere
// are refused (DNS rebinding).

import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

export interface HttpOptions {
  /** A new MCP server for each session. */
  createServer: () => Server;
  /** 0: any free port (read it from the result's `url`). */
  port: number;
  /** Default `127.0.0.1`. */
  host?: string;
  /** When set, every request needs `Authorization: Bearer <token>`. */
  token?: string;
  /** The endpoint's path (default `/mcp`). */
  path?: string;
  /** A session without a request for this long is closed (default 30 minutes). */
  idleMs?: number;
}

export interface HttpEndpoint {
  /** Where clients connect, e.g. `http://127.0.0.1:3000/mcp`. */
  url: string;
  server: HttpServer;
  /** Closes every session, then the listener. */
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
/** A POST body larger than this is refused (the SDK's own bound). */
const MAX_BODY = 4 * 1024 * 1024;

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string) {
  if (res.headersSent) return;
  res
    .writeHead(status, { 'Content-Type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error('body too large'));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sameToken(given: string | undefined, token: string): boolean {
  const expected = Buffer.from(`Bearer ${token}`);
  const actual = Buffer.from(given ?? '');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Whether a loopback server's request names a loopback host and comes from no page elsewhere. */
function localRequest(req: IncomingMessage): boolean {
  const hostname = (req.headers.host ?? '').replace(/:\d+$/, '');
  if (!LOOPBACK.has(hostname)) return false;
  const origin = req.headers.origin;
  if (origin === undefined || origin === 'null') return origin === undefined;
  try {
    return LOOPBACK.has(new URL(origin).hostname);
  } catch {
    return false;
  }
}

export async function serveHttp(options: HttpOptions): Promise<HttpEndpoint> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const loopback = LOOPBACK.has(host);
  // Anyone who reaches a non-loopback address could use the tools.
  if (!loopback && options.token === undefined)
    throw new Error(
      `serving on ${host} needs a token (a non-loopback address is reachable by others)`,
    );
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const lastSeen = new Map<string, number>();
  const idleMs = options.idleMs ?? 30 * 60_000;
  // Sessions a client never closed are closed once idle: the map does not grow for ever.
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [sid, seen] of lastSeen) if (now - seen > idleMs) void sessions.get(sid)?.close();
    },
    Math.min(idleMs, 60_000),
  );
  sweep.unref();

  async function handle(req: IncomingMessage, res: ServerResponse) {
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== path)
      return jsonRpcError(res, 404, -32000, `not found: the MCP endpoint is ${path}`);
    if (loopback && !localRequest(req))
      return jsonRpcError(res, 403, -32000, 'forbidden: this server answers local clients only');
    if (options.token !== undefined && !sameToken(req.headers.authorization, options.token)) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      return jsonRpcError(res, 401, -32000, 'unauthorized: send Authorization: Bearer <token>');
    }
    const id = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(id) ? id[0] : id;
    let body: unknown;
    if (req.method === 'POST') {
      try {
        body = JSON.parse(await readBody(req));
      } catch {
        return jsonRpcError(res, 400, -32700, 'the body is not JSON (or over 4 MiB)');
      }
    }
    if (sessionId !== undefined) {
      const transport = sessions.get(sessionId);
      if (!transport) return jsonRpcError(res, 404, -32001, 'session not found');
      lastSeen.set(sessionId, Date.now());
      return transport.handleRequest(req, res, body);
    }
    if (req.method !== 'POST' || !isInitializeRequest(body))
      return jsonRpcError(res, 400, -32000, 'no session: start with an initialize request');
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => {
        sessions.set(sid, transport);
        lastSeen.set(sid, Date.now());
      },
    });
    transport.onclose = () => {
      if (!transport.sessionId) return;
      sessions.delete(transport.sessionId);
      lastSeen.delete(transport.sessionId);
    };
    await options.createServer().connect(transport);
    return transport.handleRequest(req, res, body);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) =>
      jsonRpcError(res, 500, -32603, e instanceof Error ? e.message : String(e)),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}${path}`,
    server,
    async close() {
      clearInterval(sweep);
      await Promise.all([...sessions.values()].map((t) => t.close()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
