import { expect } from 'chai';
import type { App } from '../src/app';
import { limitClassOf, PREPAID_ABOVE_CHARS } from '../src/graphql/operation-admission';
import { parse } from 'graphql';
import { app } from './helpers/shared-app';
import type { Data, GraphQLFailure } from './helpers/http';
import type { components } from '../sdk/typescript/src';
import { createTestKeys, keysFor } from './helpers/keys';
import { startTestApp } from './helpers/test-app';

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  ms: number;
}

/** POSTs a GraphQL request to /graphql or /graphql/stream (asking for events there) and reads the whole answer. */
async function post(
  baseUrl: string,
  path: '/graphql' | '/graphql/stream',
  body: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const started = Date.now();
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(path === '/graphql/stream' ? { accept: 'text/event-stream' } : {}),
      ...headers,
    },
    body,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, ms: Date.now() - started };
}

/** The document of the fault drill: one field under 300,000 directives, about 0.9 MB. */
const directiveFlood = JSON.stringify({ query: `{ __typename ${'@a '.repeat(300_000)}}` });

describe('GraphQL admission: parser limits and the rate limit before parsing', function () {
  this.timeout(120_000);

  describe('rate class from the catalog', () => {
    it('charges the dearest root field and allows one AI answer per request', () => {
      expect(limitClassOf(parse('{ companies { total } sectors }'))).to.equal('reads');
      expect(limitClassOf(parse('{ sectors search(query: "x") { chunkId } }'))).to.equal('search');
      expect(limitClassOf(parse('mutation { summarize(input: { companyId: 1 }) { model } }'))).to.equal('ai');
      expect(() =>
        limitClassOf(
          parse(
            'mutation { a: summarize(input: { companyId: 1 }) { model } b: compare(input: { companyIds: [1, 2] }) { model } }',
          ),
        ),
      ).to.throw(/one AI answer/);
    });
  });

  for (const path of ['/graphql', '/graphql/stream'] as const) {
    describe(path, () => {
      it('refuses a 0.9 MB document of 300,000 directives with a 400 before parsing it', async () => {
        const answer = await post(app().url, path, directiveFlood);
        expect(answer.status).to.equal(400);
        expect(answer.text).to.match(/larger than \d+ bytes/);
      });

      it('stops the parser at the token limit, and refuses too many directives', async () => {
        const manyTokens = await post(
          app().url,
          path,
          JSON.stringify({ query: `{ __typename ${'@a '.repeat(6_000)}}` }),
        );
        expect(manyTokens.status).to.equal(400);
        expect(manyTokens.text).to.match(/more than \d+ tokens/);
        const manyDirectives = await post(
          app().url,
          path,
          JSON.stringify({ query: `{ __typename ${'@include(if: true) '.repeat(150)}}` }),
        );
        expect(manyDirectives.status).to.equal(400);
        expect(manyDirectives.text).to.match(/150 directives; the limit is 100/);
      });

      it('answers a syntax error as before, with the engine\u2019s own message', async () => {
        const answer = await post(app().url, path, JSON.stringify({ query: '{ companies { ' }));
        expect(answer.status).to.equal(400);
        expect(answer.text).to.include('Syntax Error');
      });
    });
  }

  describe('with a small read budget', () => {
    let limited: App;
    before(async () => {
      limited = await startTestApp({
        rateLimits: {
          reads: { limit: 3, windowSeconds: 60 },
          search: { limit: 50, windowSeconds: 60 },
          ai: { limit: 50, windowSeconds: 60 },
        },
      });
      await createTestKeys(limited);
    });
    after(() => limited?.close());

    it('counts long documents before parsing them, so a flood is refused with 429 for the price of a counter', async () => {
      const headers = { 'x-api-key': keysFor(limited.url).viewer };
      const statuses: number[] = [];
      for (let i = 0; i < 3; i += 1)
        statuses.push((await post(limited.url, '/graphql', directiveFlood, headers)).status);
      statuses.push((await post(limited.url, '/graphql/stream', directiveFlood, headers)).status);
      const refused = await post(limited.url, '/graphql', directiveFlood, headers);
      statuses.push(refused.status);
      expect(statuses).to.deep.equal([400, 400, 400, 429, 429]);
      expect(refused.headers.get('retry-after')).to.match(/^\d+$/);
    });

    it('gives the read back when a long document turns out to be an AI request, so it costs what REST charges', async () => {
      const headers = { 'x-api-key': keysFor(limited.url).analyst };
      const read = async () =>
        (await post(limited.url, '/graphql', JSON.stringify({ query: '{ sectors }' }), headers)).headers.get(
          'ratelimit',
        );
      expect(await read()).to.match(/^limit=3, remaining=2,/);
      // A long document (padded with a comment) asking for an AI answer: charged to reads first, then moved to ai.
      const padded = `# ${'x'.repeat(PREPAID_ABOVE_CHARS)}\nmutation { summarize(input: { companyId: 987654 }) { model } }`;
      const ai = await post(limited.url, '/graphql', JSON.stringify({ query: padded }), headers);
      expect(ai.headers.get('ratelimit-policy')).to.equal('50;w=60');
      expect(ai.headers.get('ratelimit')).to.match(/^limit=50, remaining=49,/);
      expect(await read()).to.match(/^limit=3, remaining=1,/);
    });
  });
});

describe('/graphql/stream under the rules of /graphql', function () {
  this.timeout(120_000);
  const analyst = () => ({ 'x-api-key': keysFor(app().url).analyst });

  it('runs one AI answer per request: aliased summaries are refused before any generation', async () => {
    const aliases = Array.from({ length: 30 }, (_, i) => `s${i}: summarize(input: { companyId: 1 }) { model }`).join(
      ' ',
    );
    const answer = await post(
      app().url,
      '/graphql/stream',
      JSON.stringify({ query: `mutation { ${aliases} }` }),
      analyst(),
    );
    expect(answer.status).to.equal(400);
    expect(answer.text).to.match(/one AI answer/);
    expect(answer.text).not.to.include('"model"');
  });

  it('answers every request error with the same 4xx and code as /graphql (POST and GET), never 200 or 500', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      [
        'an operationName that names no operation',
        { query: 'query A { sectors }', operationName: 'B' },
        'OPERATION_RESOLUTION_FAILURE',
      ],
      [
        'two operations and no operationName',
        { query: 'query A { sectors } query B { sectors }' },
        'OPERATION_RESOLUTION_FAILURE',
      ],
      ['a syntax error', { query: 'query A { sectors ' }, 'GRAPHQL_PARSE_FAILED'],
      ['a field the schema does not have', { query: '{ nosuchfield }' }, 'GRAPHQL_VALIDATION_FAILED'],
      [
        'a variable of the wrong type',
        { query: 'query A($id: Int!) { company(id: $id) { id } }', variables: { id: 'one' } },
        'BAD_USER_INPUT',
      ],
      ['a required variable left out', { query: 'query A($id: Int!) { company(id: $id) { id } }' }, 'BAD_USER_INPUT'],
    ];
    for (const [name, request, code] of cases) {
      for (const path of ['/graphql', '/graphql/stream'] as const) {
        const answer = await post(app().url, path, JSON.stringify(request), analyst());
        expect(answer.status, `${name} on ${path}`).to.equal(400);
        expect(answer.headers.get('content-type'), `${name} on ${path}`).to.match(/^application\/json/);
        expect(JSON.parse(answer.text).errors[0].extensions.code, `${name} on ${path}`).to.equal(code);
      }
      const search = new URLSearchParams(
        Object.entries(request).map(([key, value]): [string, string] => [
          key,
          typeof value === 'string' ? value : JSON.stringify(value),
        ]),
      );
      const viaGet = await fetch(`${app().url}/graphql?${search}`, {
        headers: { ...analyst(), 'apollo-require-preflight': 'true' },
      });
      expect(viaGet.status, `${name} on GET /graphql`).to.equal(400);
      expect(((await viaGet.json()) as GraphQLFailure).errors[0].extensions.code, `${name} on GET /graphql`).to.equal(
        code,
      );
    }
  });

  describe('in production', () => {
    let production: App;
    before(async () => {
      production = await startTestApp({ environment: 'production', graphqlIntrospection: false });
      await createTestKeys(production);
    });
    after(() => production?.close());

    it('does not suggest field names, as /graphql does not', async () => {
      const headers = { 'x-api-key': keysFor(production.url).analyst };
      for (const path of ['/graphql', '/graphql/stream'] as const) {
        const answer = await post(production.url, path, JSON.stringify({ query: '{ compani { total } }' }), headers);
        expect(answer.text, path).to.include('Cannot query field');
        expect(answer.text, path).not.to.include('Did you mean');
      }
    });
  });

  it('needs the CSRF header with a session cookie, on GET too (a GET here starts a chat)', async () => {
    const signIn = await fetch(`${app().url}/v1/auth/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: keysFor(app().url).analyst }),
    });
    const cookies = signIn.headers.getSetCookie();
    const cookie = cookies.map((c) => c.split(';')[0]).join('; ');
    const csrf = ((await signIn.json()) as Data<components['schemas']['Session']>).data.csrf_token;
    const query = encodeURIComponent(
      'subscription { chat(input: { companyIds: [987654], messages: [{ role: "user", content: "Revenue?" }] }) { type } }',
    );
    const get = (headers: Record<string, string>) =>
      fetch(`${app().url}/graphql/stream?query=${query}`, {
        headers: { accept: 'text/event-stream', cookie, ...headers },
      });
    const withoutHeader = await get({});
    expect(withoutHeader.status).to.equal(403);
    expect(await withoutHeader.text()).to.include('x-csrf-token');
    const withHeader = await get({ 'x-csrf-token': csrf });
    expect(withHeader.status).to.equal(200);
    expect(await withHeader.text()).to.include('event: next');
  });
});
