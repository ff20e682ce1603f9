import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { AppError, toAppError } from '../shared/errors';
import type { Logger } from '../shared/logger';
import { sendAppError, sendJson } from './respond';
import { nameRequest, runInDebugScope } from '../shared/request-context';
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
  /** Served even while the service is unavailable (health, readiness, metrics). */
  alwaysOpen?: boolean;
}

export interface HttpServerOptions {
  metrics?: Metrics;
  /** The early answer for every request while a dependency is known to be down (the database); null when it is up. */
  unavailable?: () => AppError | null;
  /**
   * Aborted (with an AppError SHUTTING_DOWN) at the shutdown deadline while requests still run: long work (an AI
   * stream) listens to it and ends by telling its client instead of being cut off.
   */
  shutdownDeadline?: AbortController;
}

// At the shutdown deadline, running streams are told SHUTTING_DOWN; this long they have to write it before the cut.
const STREAM_FAREWELL_MS = 1_000;

export interface HttpServer {
  server: http.Server;
  /** Stops accepting, lets in-flight requests finish (closing them after `timeoutMs`), then resolves. */
  shutdown(timeoutMs: number): Promise<void>;
}

function findMount(mounts: Mount[], pathname: string): Mount | undefined {
  return mounts.find((mount) => (mount.path.endsWith('/') ? pathname.startsWith(mount.path) : pathname === mount.path));
}

/** The service's one HTTP server: routes by path to mounts and turns every failure into a JSON error. */
export function createHttpServer(
  mounts: Mount[],
  logger: Logger,
  { metrics, unavailable, shutdownDeadline = new AbortController() }: HttpServerOptions = {},
): HttpServer {
  let shuttingDown = false;
  // Responses in progress: at shutdown the ones not yet answered are told to close their connection.
  const inFlight = new Set<ServerResponse>();
  // Handlers still running; a client that hangs up does not stop its handler, so shutdown waits for these too.
  const handlers = new Set<Promise<void>>();

  const server = http.createServer((req, res) => {
    inFlight.add(res);
    res.once('close', () => {
      inFlight.delete(res);
      // The response said `connection: close`, or began before the shutdown: either way the socket goes now.
      if (shuttingDown) req.socket.end();
    });
    const handling = handle(req, res);
    handlers.add(handling);
    void handling.finally(() => handlers.delete(handling));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const sent = req.headers['x-request-id'];
    const requestId = typeof sent === 'string' && CLIENT_REQUEST_ID.test(sent) ? sent : randomUUID();
    nameRequest(req, requestId);
    return logger.level === 'debug' ? runInDebugScope(requestId, () => serve(req, res, requestId)) : serve(req, res, requestId);
  }

  async function serve(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
    const started = process.hrtime.bigint();
    res.setHeader('x-request-id', requestId);
    if (shuttingDown) res.setHeader('connection', 'close');
    let mount: Mount | undefined;
    res.once('close', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      metrics?.observe(req.method ?? 'GET', res, mount?.path ?? 'unmatched', seconds);
      logger.info('request', { requestId, method: req.method, path: (req.url ?? '').split('?')[0].slice(0, 200), status: res.statusCode, ms: Math.round(seconds * 1000) });
    });
    try {
      if ((req.url ?? '').length > MAX_URL_LENGTH) throw new AppError('URI_TOO_LONG', `The URL is longer than ${MAX_URL_LENGTH} characters`);
      const url = new URL(req.url ?? '/', 'http://service.invalid');
      mount = findMount(mounts, url.pathname);
      if (!mount) throw new AppError('NOT_FOUND', `No route ${req.method} ${url.pathname}`);
      const early = mount.alwaysOpen ? null : unavailable?.();
      if (early) throw early;
      await mount.handler(req, res, url);
    } catch (caught) {
      const error = toAppError(caught, logger, 'request failed', requestId);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      // An unread body would otherwise be parsed as the next request on this connection; a request without one
      // (a GET) keeps its connection.
      if (hasUnreadBody(req)) res.setHeader('connection', 'close');
      (mount?.sendError ?? sendAppError)(res, error);
    }
  }
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
      // Stops accepting and closes the connections that are idle by the parser's account: one that is receiving a
      // request is not idle, so a client half-way through writing is answered rather than reset.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close');
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          shutdownDeadline.abort(new AppError('SHUTTING_DOWN', 'The service is shutting down; retry on another instance or shortly'));
          const farewell = setTimeout(() => {
            server.closeAllConnections();
            resolve();
          }, STREAM_FAREWELL_MS);
          void Promise.allSettled([...handlers]).then(() => {
            clearTimeout(farewell);
            server.closeAllConnections();
            resolve();
          });
        }, timeoutMs);
      });
      const drained = closed.then(() => Promise.allSettled([...handlers]));
      return Promise.race([drained, deadline]).then(() => clearTimeout(timer));
    },
  };
}

/** Whether the request announced a body that the handler has not read (to the end). */
function hasUnreadBody(req: IncomingMessage): boolean {
  if (req.readableEnded) return false;
  const length = Number(req.headers['content-length'] ?? 0);
  return req.headers['transfer-encoding'] !== undefined || length > 0;
}

export function sendOk(res: ServerResponse, data: unknown): void {
  sendJson(res, 200, { success: true, data });
}
