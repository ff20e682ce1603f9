// The front end's HTTP server: Next.js's request handler behind node:http, so every request is logged as one JSON
// line in the service's format ({time, level, message: "request", requestId, method, path, status, ms}) on stderr.
'use strict';
const http = require('node:http');
const { randomUUID } = require('node:crypto');
const { AsyncLocalStorage } = require('node:async_hooks');
const zlib = require('node:zlib');
const next = require('next');

const port = Number(process.env.WEB_PORT ?? 3000);
const host = process.env.WEB_HOST?.trim() || '0.0.0.0';
const quiet = (process.env.LOG_LEVEL ?? 'info') === 'silent';

function log(level, message, fields) {
  if (quiet) return;
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level, message, ...fields })}\n`);
}

// Each request's slot (web/lib/request-slot.ts): a page sets the status its answer must carry, which a server
// component cannot do itself: 401/403 for an access page, 429/503 with Retry-After when the service refused (the
// page then fails, so Next would answer 500, and nothing is cached).
const requests = new AsyncLocalStorage();
globalThis[Symbol.for('financial-insights.web.request')] = requests;

function answerWithSlotStatus(res, slot) {
  const writeHead = res.writeHead.bind(res);
  res.writeHead = (status, ...rest) => {
    if (!slot.status || (status !== 200 && status < 500)) return writeHead(status, ...rest);
    res.setHeader('cache-control', 'no-store');
    if (slot.retryAfterSeconds) res.setHeader('retry-after', String(slot.retryAfterSeconds));
    return writeHead(slot.status, ...rest.filter((arg) => typeof arg !== 'string'));
  };
}

// Pages with nothing interactive (the company pages, the list of companies and the screener: links and plain forms)
// are sent without scripts: Next's runtime and the page's data for it only serve client-side navigation there, which
// these pages do not need. Their HTML is taken uncompressed from Next, stripped, then compressed here.
const LIGHT_PAGES = /^\/(?:companies(\/[^/]+(\/(quarterly|ttm))?)?|screener)\/?$/;
const SCRIPTS = /<script\b[^>]*>[\s\S]*?<\/script>|<link\b[^>]*\b(?:as="script"|rel="modulepreload")[^>]*>/g;

function isLightPage(req) {
  const pathName = (req.url ?? '').split('?')[0];
  return req.method === 'GET' && LIGHT_PAGES.test(pathName) && !req.headers.rsc && !req.headers['next-router-prefetch'];
}

/** Buffers the page, strips its scripts and compresses it as the browser accepts (br, gzip, or not at all). */
function sendWithoutScripts(req, res) {
  const accepts = String(req.headers['accept-encoding'] ?? '');
  delete req.headers['accept-encoding'];
  const writeHead = res.writeHead.bind(res);
  const end = res.end.bind(res);
  const chunks = [];
  let head = null;
  res.writeHead = (status, ...rest) => {
    head = [status, ...rest];
    return res;
  };
  res.flushHeaders = () => undefined;
  res.write = (chunk, encoding, callback) => {
    if (chunk) chunks.push(Buffer.from(chunk, typeof encoding === 'string' ? encoding : undefined));
    if (typeof encoding === 'function') encoding();
    else if (typeof callback === 'function') callback();
    return true;
  };
  res.end = (chunk, encoding, callback) => {
    if (chunk && typeof chunk !== 'function')
      chunks.push(Buffer.from(chunk, typeof encoding === 'string' ? encoding : undefined));
    let body = Buffer.concat(chunks);
    // Only a page rendered whole is stripped: Next sends a not-found or failed page as a shell its runtime completes.
    const rendered = (head?.[0] ?? res.statusCode) === 200;
    if (rendered && String(res.getHeader('content-type') ?? '').includes('text/html'))
      body = Buffer.from(body.toString('utf8').replace(SCRIPTS, ''), 'utf8');
    const encodingName = /\bbr\b/.test(accepts) ? 'br' : /\bgzip\b/.test(accepts) ? 'gzip' : null;
    if (encodingName) {
      body = encodingName === 'br' ? zlib.brotliCompressSync(body) : zlib.gzipSync(body);
      res.setHeader('content-encoding', encodingName);
    }
    res.setHeader('vary', 'Accept-Encoding');
    res.removeHeader('transfer-encoding');
    res.setHeader('content-length', String(body.length));
    const [status, ...rest] = head ?? [res.statusCode];
    for (const arg of rest) {
      if (arg && typeof arg === 'object' && !Array.isArray(arg)) {
        for (const [name, value] of Object.entries(arg))
          if (!/^(content-length|content-encoding|transfer-encoding)$/i.test(name)) res.setHeader(name, value);
      }
    }
    writeHead(status, ...rest.filter((arg) => typeof arg === 'string'));
    return end(body, typeof chunk === 'function' ? chunk : typeof encoding === 'function' ? encoding : callback);
  };
}

const app = next({ dev: false, dir: __dirname, hostname: host, port });
const handle = app.getRequestHandler();

app
  .prepare()
  .then(() => {
    const server = http.createServer((req, res) => {
      const started = process.hrtime.bigint();
      const requestId = randomUUID();
      res.setHeader('x-request-id', requestId);
      // Who the visitor is, for the service's per-visitor budgets: the socket's address, never a header a browser sent.
      req.headers['x-web-visitor'] = req.socket.remoteAddress ?? '';
      // The page asked for, so a sign-in page can lead back to it (with its query: the user's selection).
      req.headers['x-web-url'] = (req.url ?? '/').slice(0, 2000);
      res.on('finish', () => {
        const ms = Math.round(Number(process.hrtime.bigint() - started) / 1e6);
        log('info', 'request', {
          requestId,
          method: req.method,
          path: (req.url ?? '').split('?')[0].slice(0, 200),
          status: res.statusCode,
          ms,
        });
      });
      const slot = {};
      answerWithSlotStatus(res, slot);
      if (isLightPage(req)) sendWithoutScripts(req, res);
      requests
        .run(slot, () => handle(req, res))
        .catch((error) => {
          log('error', 'web request failed', { requestId, error: error?.stack ?? String(error) });
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({ success: false, error: { code: 'INTERNAL', message: 'The page could not be rendered' } }),
          );
        });
    });
    server.listen(port, host, () => {
      const { port: actual } = server.address();
      process.stdout.write(`Web front end listening on http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${actual}\n`);
    });
    const stop = () => server.close(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  })
  .catch((error) => {
    log('error', 'web front end failed to start', { error: error?.stack ?? String(error) });
    process.exit(1);
  });
