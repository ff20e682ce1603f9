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

/** How long a client has to send its request: the headers, and the whole request with its body (docs/api.md, Limits). */
export const HEADERS_TIMEOUT_MS = 20_000;
export const REQUEST_TIMEOUT_MS = 60_000;

export interface HttpServerOptions {
  metrics?: Metrics;
  /** The timeouts above, shorter in tests. */
  timeouts?: { headersMs: number; requestMs: number };
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
  {
    metrics,
    unavailable,
    shutdownDeadline = new AbortController(),
    timeouts = { headersMs: HEADERS_TIMEOUT_MS, requestMs: REQUEST_TIMEOUT_MS },
  }: HttpServerOptions = {},
): HttpServer {
  let shuttingDown = false;
  // Responses in progress: at shutdown the ones not yet answered are told to close their connection.
  const inFlight = new Set<ServerResponse>();
  // Handlers still running; a client that hangs up does not stop its handler, so shutdown waits for these too.
  const handlers = new Set<Promise<void>>();

  // Node looks for expired requests on this interval (30 s by default): a timeout fires at most this much late.
  const server = http.createServer(
    { connectionsCheckingInterval: Math.min(1_000, timeouts.headersMs / 2) },
    (req, res) => {
      inFlight.add(res);
      res.once('close', () => {
        inFlight.delete(res);
        // The response said `connection: close`, or began before the shutdown: either way the socket goes now.
        if (shuttingDown) req.socket.end();
      });
      const handling = handle(req, res);
      handlers.add(handling);
      void handling.finally(() => handlers.delete(handling));
    },
  );

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const sent = req.headers['x-request-id'];
    const requestId = typeof sent === 'string' && CLIENT_REQUEST_ID.test(sent) ? sent : randomUUID();
    nameRequest(req, requestId);
    return logger.level === 'debug'
      ? runInDebugScope(requestId, () => serve(req, res, requestId))
      : serve(req, res, requestId);
  }

  async function serve(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
    const started = process.hrtime.bigint();
    res.setHeader('x-request-id', requestId);
    if (shuttingDown) res.setHeader('connection', 'close');
    let mount: Mount | undefined;
    res.once('close', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      metrics?.observe(req.method ?? 'GET', res, mount?.path ?? 'unmatched', seconds);
      logger.info('request', {
        requestId,
        method: req.method,
        path: (req.url ?? '').split('?')[0].slice(0, 200),
        status: res.statusCode,
        ms: Math.round(seconds * 1000),
      });
    });
    try {
      if ((req.url ?? '').length > MAX_URL_LENGTH)
        throw new AppError('URI_TOO_LONG', `The URL is longer than ${MAX_URL_LENGTH} characters`);
      const url = parseUrl(req.url ?? '/');
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
  server.headersTimeout = timeouts.headersMs;
  server.requestTimeout = timeouts.requestMs;
  server.keepAliveTimeout = 5_000;
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket) => {
    // As Node itself does: answer only while no response of this connection has begun, or the client reads garbage.
    const current = [...inFlight].find((res) => res.socket === socket);
    if (!socket.writable || current?.headersSent) {
      socket.destroy();
      return;
    }
    const { status, code, message } = clientErrorAnswer(error, timeouts);
    const body = JSON.stringify({ success: false, error: { code, message } });
    // A HEAD is answered without a body, even when its request line could not be parsed.
    const head = current?.req.method === 'HEAD' || error.rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
    socket.end(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${head ? '' : body}`,
    );
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
          shutdownDeadline.abort(
            new AppError('SHUTTING_DOWN', 'The service is shutting down; retry on another instance or shortly'),
          );
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

/** The request target as a URL; an absolute-form target that is no URL (`http://[bad/`) is the client's error. */
function parseUrl(target: string): URL {
  try {
    return new URL(target, 'http://service.invalid');
  } catch {
    throw new AppError('BAD_REQUEST', `Malformed request target: "${target.slice(0, 100)}"`);
  }
}

/**
 * The answer to a request Node's parser refused or timed out. Node counts the request line within its 16 KB header
 * limit, so an over-long URL overflows it: when the refused bytes start a request line that runs past the URL limit
 * without ending, the URL is what is too long (414), otherwise the headers (431).
 */
function clientErrorAnswer(
  error: NodeJS.ErrnoException & { rawPacket?: Buffer },
  timeouts: { headersMs: number; requestMs: number },
): { status: number; code: string; message: string } {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return {
      status: 408,
      code: 'REQUEST_TIMEOUT',
      message: `The request was not received in time: headers are due within ${timeouts.headersMs / 1000} s, the whole request within ${timeouts.requestMs / 1000} s`,
    };
  }
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    const packet = error.rawPacket?.toString('latin1') ?? '';
    const lineEnd = packet.indexOf('\r\n');
    const requestLine = lineEnd === -1 ? packet : packet.slice(0, lineEnd);
    if (/^[A-Z]+ /.test(requestLine) && requestLine.length > MAX_URL_LENGTH) {
      return { status: 414, code: 'URI_TOO_LONG', message: `The URL is longer than ${MAX_URL_LENGTH} characters` };
    }
    return { status: 431, code: 'BAD_REQUEST', message: 'Request headers are larger than 16 KB' };
  }
  return { status: 400, code: 'BAD_REQUEST', message: `Malformed HTTP request: ${error.code ?? error.message}` };
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
