// The built package on its own (`npm test` in sdk/typescript): its ESM and CommonJS builds, and how a chat stream
// ends, against a small local server that answers as the service does. The suite at the repository root runs the
// SDK against the real service.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { createRequire } from 'node:module';
import { FinancialInsightsClient, NotFoundError, StreamInterruptedError, UpstreamError } from '../../dist/esm/index.js';

const EVENTS = [
  ['status', { message: 'Reading the figures' }],
  ['token', { text: 'Revenue was ' }],
  ['token', { text: 'up.' }],
  ['done', { answer: 'Revenue was up.', citations: [], grounding: {}, claims: [], conversation_id: 'c1', model: 'm' }],
];

const event = ([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
let server;
let baseUrl;
let unavailable = 0;
const gatewayCalls = [];

before(async () => {
  server = http.createServer((req, res) => {
    const headers = { 'content-type': 'text/event-stream', 'x-request-id': 'req-1' };
    if (req.url === '/whole/v1/ai/chat') return res.writeHead(200, headers).end(EVENTS.map(event).join(''));
    if (req.url === '/ended/v1/ai/chat') return res.writeHead(200, headers).end(EVENTS.slice(0, 2).map(event).join(''));
    if (req.url === '/reset/v1/ai/chat') {
      res.writeHead(200, headers);
      return res.write(EVENTS.slice(0, 2).map(event).join(''), () => res.socket.destroy());
    }
    if (req.url === '/failed/v1/ai/chat') {
      return res
        .writeHead(200, headers)
        .end(event(EVENTS[1]) + event(['error', { code: 'UPSTREAM_ERROR', message: 'The provider failed' }]));
    }
    if (req.url === '/busy/v1/ratios/definitions' && unavailable++ === 0) {
      return res
        .writeHead(503, { 'content-type': 'application/json', 'retry-after': '0', 'x-request-id': 'req-2' })
        .end(JSON.stringify({ success: false, error: { code: 'SERVICE_UNAVAILABLE', message: 'busy' } }));
    }
    if (req.url === '/busy/v1/ratios/definitions')
      return res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"data":[]}');
    if (req.url.startsWith('/gateway/')) {
      gatewayCalls.push(`${req.method} ${req.url}`);
      if (gatewayCalls.length % 2 === 1) {
        return res
          .writeHead(502, { 'content-type': 'application/json' })
          .end(JSON.stringify({ success: false, error: { code: 'UPSTREAM_ERROR', message: 'bad gateway' } }));
      }
      return res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true,"data":[]}');
    }
    res
      .writeHead(404, { 'content-type': 'application/json', 'x-request-id': 'req-3' })
      .end(JSON.stringify({ success: false, error: { code: 'NOT_FOUND', message: 'No company with id 9' } }));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${server.address().port}`;
});

after(
  () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(resolve);
    }),
);

const client = (prefix) => new FinancialInsightsClient({ baseUrl: `${baseUrl}/${prefix}`, apiKey: 'fis_live_test' });
const chat = (prefix) => client(prefix).ai.chat({ messages: [{ role: 'user', content: 'Revenue?' }] });

test('a whole stream ends with done, and finalAnswer() returns it', async () => {
  const names = [];
  for await (const e of chat('whole')) names.push(e.event);
  assert.deepEqual(names, ['status', 'token', 'token', 'done']);
  assert.equal((await chat('whole').finalAnswer()).answer, 'Revenue was up.');
});

test('a stream that ends or breaks before done throws StreamInterruptedError with the partial text', async () => {
  for (const prefix of ['ended', 'reset']) {
    const error = await chat(prefix)
      .finalAnswer()
      .catch((caught) => caught);
    assert.ok(error instanceof StreamInterruptedError, `${prefix}: ${error}`);
    assert.equal(error.partialText, 'Revenue was ');
    assert.equal(error.requestId, 'req-1');
  }
});

test('an error event throws the typed error of its code', async () => {
  const error = await chat('failed')
    .finalAnswer()
    .catch((caught) => caught);
  assert.ok(error instanceof UpstreamError);
  assert.equal(error.code, 'UPSTREAM_ERROR');
});

test('errors carry the request id; a 503 is retried after Retry-After', async () => {
  const error = await client('none')
    .companies.get(9)
    .catch((caught) => caught);
  assert.ok(error instanceof NotFoundError);
  assert.equal(error.requestId, 'req-3');
  assert.deepEqual(await client('busy').statements.ratioDefinitions(), []);
});

test('a 502 is retried on a read, not on a write that may have run', async () => {
  assert.deepEqual(await client('gateway').statements.ratioDefinitions(), []);
  const refused = await client('gateway')
    .ai.summarize({ company_id: 1 })
    .catch((caught) => caught);
  assert.ok(refused instanceof UpstreamError);
  assert.deepEqual(gatewayCalls, [
    'GET /gateway/v1/ratios/definitions',
    'GET /gateway/v1/ratios/definitions',
    'POST /gateway/v1/ai/summarize',
  ]);
});

test('the CommonJS build exports the same client', () => {
  const sdk = createRequire(import.meta.url)('../../dist/cjs/index.js');
  assert.equal(typeof sdk.FinancialInsightsClient, 'function');
  assert.equal(typeof sdk.StreamInterruptedError, 'function');
});
