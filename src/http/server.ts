import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import { AppError, toAppError } from '../shared/errors';
import type { Logger } from '../shared/logger';
import { sendAppError, sendJson } from './respond';
import { runWithRequestId } from '../shared/request-context';
import type { Metrics } from './metrics';

// An id a client or proxy sent along is kept (so logs join up across services) if it is a sane token.
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const MAX_URL_LENGTH = 8_192;

/** A handler for one URL prefix; it throws AppError for expected failures. */
export type RouteHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>;

export interface Mount {
  /** Exact path, or a prefix ending in "/". */
  path: string;
  handler: RouteHandler;
  /** Writes errors for this mount in its own format (GraphQL's `errors` array at /graphql). */
  sendError?: (res: ServerResponse, error: AppError) => void;
}

export interface HttpServer {
  server: http.Server;
  /** Stops accepting, lets in-flight requests finish (closing them after `timeoutMs`), then resolves. */
  shutdown(timeoutMs: number): Promise<void>;
}

function findMount(mounts: Mount[], pathname: string): Mount | undefined {
  return mounts.find((mount) => (mount.path.endsWith('/') ? pathname.startsWith(mount.path) : pathname === mount.path));
}

/** The service's one HTTP server: routes by path to mounts and turns every failure into a JSON error. */
export function createHttpServer(mounts: Mount[], logger: Logger, metrics?: Metrics): HttpServer {
  let shuttingDown = false;
  // Sockets with a request in progress; at shutdown the others are closed at once and these once they answer.
  const sockets = new Set<Socket>();
  const busy = new Set<Socket>();
  // Handlers still running; a client that hangs up does not stop its handler, so shutdown waits for these too.
  const handlers = new Set<Promise<void>>();

  const server = http.createServer((req, res) => {
    busy.add(req.socket);
    res.once('close', () => {
      busy.delete(req.socket);
      if (shuttingDown) req.socket.end();
    });
    const handling = handle(req, res);
    handlers.add(handling);
    void handling.finally(() => handlers.delete(handling));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const sent = req.headers['x-request-id'];
    const requestId = typeof sent === 'string' && CLIENT_REQUEST_ID.test(sent) ? sent : randomUUID();
    return runWithRequestId(requestId, () => serve(req, res, requestId));
  }

  async function serve(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
    const started = process.hrtime.bigint();
    res.setHeader('x-request-id', requestId);
    if (shuttingDown) res.setHeader('connection', 'close');
    let mount: Mount | undefined;
    res.once('close', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      metrics?.observe(req.method ?? 'GET', res, mount?.path ?? 'unmatched', seconds);
      logger.info('request', { method: req.method, path: (req.url ?? '').split('?')[0].slice(0, 200), status: res.statusCode, ms: Math.round(seconds * 1000) });
    });
    try {
      if ((req.url ?? '').length > MAX_URL_LENGTH) throw new AppError('URI_TOO_LONG', `The URL is longer than ${MAX_URL_LENGTH} characters`);
      const url = new URL(req.url ?? '/', 'http://service.invalid');
      mount = findMount(mounts, url.pathname);
      if (!mount) throw new AppError('NOT_FOUND', `No route ${req.method} ${url.pathname}`);
      await mount.handler(req, res, url);
    } catch (caught) {
      const error = toAppError(caught, logger);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      // An unread body would otherwise be parsed as the next request on this connection.
      if (!req.readableEnded) res.setHeader('connection', 'close');
      (mount?.sendError ?? sendAppError)(res, error);
    }
  }
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // Slow or stuck clients must not hold connections forever.
  server.headersTimeout = 20_000;
  server.requestTimeout = 60_000;
  server.keepAliveTimeout = 5_000;
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return;
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const body = JSON.stringify({ success: false, error: { code: 'BAD_REQUEST', message: `Malformed HTTP request: ${error.code ?? error.message}` } });
    socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
  });

  return {
    server,
    shutdown(timeoutMs) {
      shuttingDown = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) if (!busy.has(socket)) socket.end();
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          server.closeAllConnections();
          resolve();
        }, timeoutMs);
      });
      const drained = closed.then(() => Promise.allSettled([...handlers]));
      return Promise.race([drained, deadline]).then(() => clearTimeout(timer));
    },
  };
}

export function sendOk(res: ServerResponse, data: unknown): void {
  sendJson(res, 200, { success: true, data });
}
