import net from 'node:net';
import { expect } from 'chai';
import { app } from './helpers/shared-app';

/** Sends raw bytes and returns the raw HTTP response, for requests fetch() would refuse to send. */
function raw(payload: string): Promise<string> {
  const { hostname, port } = new URL(app().url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.end(payload));
    let response = '';
    socket.on('data', (chunk) => (response += chunk));
    socket.on('close', () => resolve(response));
    socket.on('error', reject);
  });
}

function expectJsonError(response: string, label: string): void {
  const [head, body] = response.split('\r\n\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
  expect(status, label).to.be.within(400, 499);
  expect(head.toLowerCase(), label).to.include('content-type: application/json');
  const parsed = JSON.parse(body);
  const code = parsed.error?.code ?? parsed.errors?.[0]?.extensions?.code;
  expect(code, label).to.be.a('string');
  expect(body, label).not.to.match(/<html|at \S+\.js:\d+/i);
}

describe('no request gets a 500, an HTML page or a stack', () => {
  const requests: Array<[string, RequestInit & { path: string }]> = [
    ['OPTIONS on a REST route', { path: '/v1/companies', method: 'OPTIONS' }],
    ['PATCH on a profile', { path: '/v1/companies/1', method: 'PATCH', body: '{}' }],
    [
      'POST to a GET route with a body',
      { path: '/v1/companies', method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' },
    ],
    [
      'GraphQL with a non-object body',
      { path: '/graphql', method: 'POST', headers: { 'content-type': 'application/json' }, body: '[1,2,3]' },
    ],
    [
      'GraphQL with a query that is not a string',
      { path: '/graphql', method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query": 42}' },
    ],
    [
      'GraphQL with variables of the wrong type',
      {
        path: '/graphql',
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"query":"query($l: Int){ companies(limit: $l) { total } }","variables":{"l":"ten"}}',
      },
    ],
    [
      'GraphQL with an empty body',
      { path: '/graphql', method: 'POST', headers: { 'content-type': 'application/json' }, body: '' },
    ],
    ['GraphQL GET without a query', { path: '/graphql', method: 'GET' }],
    [
      'GraphQL with a mutation over GET',
      {
        path: `/graphql?query=${encodeURIComponent('mutation { x }')}`,
        method: 'GET',
        headers: { 'apollo-require-preflight': '1' },
      },
    ],
    ['a deeply nested path', { path: `/v1/${'a/'.repeat(200)}`, method: 'GET' }],
    ['a path with encoded slashes and dots', { path: '/v1/companies/..%2F..%2Fetc%2Fpasswd', method: 'GET' }],
    ['a huge integer id', { path: `/v1/companies/${'9'.repeat(400)}`, method: 'GET' }],
    ['a NUL byte in a parameter', { path: '/v1/companies?sector=%00', method: 'GET' }],
    [
      'a period with SQL in it',
      {
        path: `/v1/companies/1/ratios?period=${encodeURIComponent("FY2024'; DROP TABLE companies; --")}`,
        method: 'GET',
      },
    ],
  ];

  for (const [label, { path, ...init }] of requests) {
    it(label, async () => {
      const response = await fetch(`${app().url}${path}`, init);
      const text = await response.text();
      expect(response.status, `${label}: ${text}`).to.be.below(500);
      expect(response.headers.get('content-type'), label).to.match(/application\/json/);
      expect(() => JSON.parse(text), label).not.to.throw();
      expect(text, label).not.to.match(/<html|at \S+\.js:\d+/i);
    });
  }

  it('answers malformed HTTP and oversized headers with JSON', async () => {
    expectJsonError(await raw('THIS IS NOT HTTP\r\n\r\n'), 'garbage request line');
    expectJsonError(
      await raw(`GET /v1/companies HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(70_000)}\r\n\r\n`),
      'oversized header',
    );
    expectJsonError(
      await raw(
        'POST /graphql HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 5\r\n\r\n{"q":',
      ),
      'truncated JSON',
    );
  });

  it('still serves normally afterwards', async () => {
    const response = await fetch(`${app().url}/v1/companies?limit=1`);
    expect(response.status).to.equal(200);
  });
});
