// The front end's HTTP server: Next.js's request handler behind node:http, so every request is logged as one JSON
// line in the service's format ({time, level, message: "request", requestId, method, path, status, ms}) on stderr.
'use strict';
const http = require('node:http');
const { randomUUID } = require('node:crypto');
const next = require('next');

const port = Number(process.env.WEB_PORT ?? 3000);
const host = process.env.WEB_HOST?.trim() || '0.0.0.0';
const quiet = (process.env.LOG_LEVEL ?? 'info') === 'silent';

function log(level, message, fields) {
  if (quiet) return;
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level, message, ...fields })}\n`);
}

const app = next({ dev: false, dir: __dirname, hostname: host, port });
const handle = app.getRequestHandler();

app.prepare().then(() => {
  const server = http.createServer((req, res) => {
    const started = process.hrtime.bigint();
    const requestId = randomUUID();
    res.setHeader('x-request-id', requestId);
    res.on('finish', () => {
      const ms = Math.round(Number(process.hrtime.bigint() - started) / 1e6);
      log('info', 'request', { requestId, method: req.method, path: (req.url ?? '').split('?')[0].slice(0, 200), status: res.statusCode, ms });
    });
    handle(req, res).catch((error) => {
      log('error', 'web request failed', { requestId, error: error?.stack ?? String(error) });
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: false, error: { code: 'INTERNAL', message: 'The page could not be rendered' } }));
    });
  });
  server.listen(port, host, () => {
    const { port: actual } = server.address();
    process.stdout.write(`Web front end listening on http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${actual}\n`);
  });
  const stop = () => server.close(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}).catch((error) => {
  log('error', 'web front end failed to start', { error: error?.stack ?? String(error) });
  process.exit(1);
});
