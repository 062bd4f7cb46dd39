// The declarations of this module import node:http: they bring Node's
// types along (`preserve` keeps the reference in the emitted .d.ts), so a
// project with TypeScript 6 and 7's default `types: []` compiles them.
/// <reference types="node" preserve="true" />
// The streamable HTTP transport (the SDK's), one session per client:
// POST /mcp with `initialize` opens a session (`Mcp-Session-Id`), later
// requests carry it, DELETE closes it. Bound to the loopback addresses by
// default (127.0.0.1 and ::1, so `localhost` reaches it whichever it
// resolves to first; never every interface); a bearer token, when set, is
// required on every request; on a loopback address, requests naming
// another host or coming from a page elsewhere are refused (DNS
// rebinding). A page served from a loopback origin (an MCP inspector's
// web UI, a local tool) gets CORS answers, its preflight included.

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
  /**
   * The address to bind. Default: both loopback addresses, `127.0.0.1`
   * and `::1` (the IPv6 one when the machine has it), as for `localhost`.
   */
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
  /** Every address it listens on, as URLs (`url` first; `http://[::1]:3000/mcp` beside it by default). */
  urls: string[];
  /** Whether a request needs `Authorization: Bearer <token>`. */
  tokenRequired: boolean;
  /** The listener of `url`. */
  server: HttpServer;
  /** Every listener (one per address). */
  servers: HttpServer[];
  /** Closes every session, then the listener. */
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
/** A POST body larger than this is refused (the SDK's own bound). */
const MAX_BODY = 4 * 1024 * 1024;

/** Whether `host` is a loopback address (or `localhost`): serving there needs no token. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.has(host);
}

/** What a browser page may send and read (CORS): the headers of the streamable HTTP transport. */
const CORS_ALLOW_HEADERS =
  'Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID';
const CORS_EXPOSE_HEADERS = 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate';
const CORS_METHODS = 'GET, POST, DELETE, OPTIONS';

/** The request's `Origin` when it is a page on a loopback host (`http://localhost:5173`, …). */
function loopbackOrigin(req: IncomingMessage): string | undefined {
  const origin = req.headers.origin;
  if (origin === undefined || origin === 'null') return undefined;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK.has(url.hostname)
      ? origin
      : undefined;
  } catch {
    return undefined;
  }
}

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
  // `[::1]` as a URL spells it is `::1`.
  const host = (options.host ?? 'localhost').replace(/^\[(.*)\]$/, '$1');
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
    // A page on a loopback origin may call and read the answers; a page
    // elsewhere gets no CORS answer, so its browser keeps it out.
    const origin = loopbackOrigin(req);
    if (origin !== undefined) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Expose-Headers', CORS_EXPOSE_HEADERS);
      res.setHeader('Vary', 'Origin');
    }
    // The preflight carries no token: answered before the token is asked for.
    if (req.method === 'OPTIONS') {
      if (origin !== undefined) {
        res.setHeader('Access-Control-Allow-Methods', CORS_METHODS);
        res.setHeader('Access-Control-Allow-Headers', CORS_ALLOW_HEADERS);
        res.setHeader('Access-Control-Max-Age', '600');
      }
      res.writeHead(204).end();
      return;
    }
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

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((e: unknown) =>
      jsonRpcError(res, 500, -32603, e instanceof Error ? e.message : String(e)),
    );
  };
  // `localhost` (the default) is both loopback addresses: a client may
  // resolve it to either. Never `::` or `0.0.0.0`: that is every interface.
  const both = host === 'localhost';
  const servers = both
    ? await listenBoth(listener, options.port)
    : [await listen(createServer(listener), options.port, host)];
  const primary = servers[0] as HttpServer;
  // Each address as bound (both loopbacks), or the host as given (a name stays a name).
  const urls = servers.map((s) => {
    const a = s.address() as AddressInfo;
    const name = both ? a.address : host;
    const shown = name.includes(':') ? `[${name}]` : name;
    return `http://${shown}:${a.port}${path}`;
  });
  return {
    url: urls[0] as string,
    urls,
    tokenRequired: options.token !== undefined,
    server: primary,
    servers,
    async close() {
      clearInterval(sweep);
      await Promise.all([...sessions.values()].map((t) => t.close()));
      await Promise.all(
        servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))),
      );
    },
  };
}

/** The errors of a bind to ::1 on a machine without IPv6. */
const NO_IPV6: ReadonlySet<string> = new Set(['EADDRNOTAVAIL', 'EAFNOSUPPORT', 'EINVAL']);

function listen(server: HttpServer, port: number, host: string): Promise<HttpServer> {
  return new Promise<HttpServer>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/** Listeners on 127.0.0.1 and ::1 at one port (`0`: a port free on both). */
async function listenBoth(
  listener: (req: IncomingMessage, res: ServerResponse) => void,
  port: number,
): Promise<HttpServer[]> {
  for (let attempt = 1; ; attempt++) {
    const v4 = await listen(createServer(listener), port, '127.0.0.1');
    const { port: bound } = v4.address() as AddressInfo;
    try {
      return [v4, await listen(createServer(listener), bound, '::1')];
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? '';
      // A machine without IPv6 serves 127.0.0.1 alone.
      if (NO_IPV6.has(code)) return [v4];
      await new Promise<void>((resolve) => v4.close(() => resolve()));
      // A free port picked on 127.0.0.1 may be taken on ::1: pick again.
      // A port asked for and taken on ::1 by another program is an error.
      if (!(port === 0 && code === 'EADDRINUSE' && attempt < 5)) throw e;
    }
  }
}
