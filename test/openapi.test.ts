import { expect } from 'chai';
import Ajv2020 from 'ajv/dist/2020';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { ROUTES } from '../rest-facade/routes';
import { CAPS } from '../src/operations/catalog';
import { app } from './helpers/shared-app';
import { requestAs, type Data, type JsonResponse } from './helpers/http';
import { keysFor } from './helpers/keys';
import { postForEvents } from './helpers/sse';
import type { OpenApiDocument } from './helpers/openapi-document';
import type { CreatedApiKey } from '../sdk/typescript/src';

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('OpenAPI document (GET /v1/openapi.json)', function () {
  this.timeout(60_000);
  let doc: OpenApiDocument;
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });

  before(async () => {
    doc = (await requestAs<OpenApiDocument>(null, '/v1/openapi.json')).body;
  });

  /** A validator of a schema of the document: its `$ref`s point into the document's components. */
  const compile = (schema: object) => ajv.compile({ ...schema, components: doc.components });

  /** Validates a real response against the document's schema for its path, method and status. */
  function expectConforms(path: string, method: string, response: JsonResponse): void {
    const operation = doc.paths[path]?.[method];
    expect(operation, `${method} ${path} is documented`).to.not.equal(undefined);
    const documented = operation.responses[String(response.status)];
    expect(documented, `${method} ${path} documents status ${response.status}`).to.not.equal(undefined);
    const schema = documented.$ref
      ? { $ref: '#/components/schemas/Error' }
      : documented.content!['application/json'].schema;
    const validate = compile(schema);
    const valid = validate(response.body);
    expect(
      valid,
      `${method} ${path} ${response.status}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(response.body).slice(0, 300)}`,
    ).to.equal(true);
  }

  it("is a valid OpenAPI 3.1 document (Redocly's structural rules, every $ref resolved)", async () => {
    const config = await createConfig({ rules: { struct: 'error', 'no-unresolved-refs': 'error' } });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
    expect(problems.map((p) => `${p.message} at ${p.location[0]?.pointer}`)).to.deep.equal([]);
    const broken = {
      ...doc,
      info: { title: doc.info.title },
      components: { ...doc.components, schemas: { ...doc.components.schemas, Company: { type: 'record' } } },
    };
    const found = await lintFromString({ source: JSON.stringify(broken), absoluteRef: 'openapi.json', config });
    expect(found.map((p) => p.message).join('\n'))
      .to.match(/version/)
      .and.to.match(/type/);
  });

  it('is OpenAPI 3.1 and documents every /v1 route with its security and error responses', () => {
    expect(doc.openapi).to.equal('3.1.0');
    for (const route of ROUTES) {
      const operation = doc.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
      expect(operation, route.path).to.not.equal(undefined);
      expect(operation.responses).to.include.keys('400', '404', '429', '500');
      expect(operation.security.length).to.be.above(0);
    }
    expect(doc.components.securitySchemes).to.have.keys('apiKey', 'bearer', 'clientBasic', 'session');
    expect(doc.paths).to.include.keys('/v1/auth/token', '/v1/auth/session');
  });

  it('matches what the routes really answer, successes and failures', async () => {
    const analyst = { 'x-api-key': keysFor(app().url).analyst };
    const admin = { 'x-api-key': keysFor(app().url).admin };
    const get = (path: string) => requestAs(null, path);
    const post = <T = unknown>(path: string, body: unknown, headers: Record<string, string> = analyst) =>
      requestAs<T>(null, path, { ...json(body), headers: { 'content-type': 'application/json', ...headers } });
    const cases: Array<[string, string, Promise<JsonResponse>]> = [
      ['/v1/companies', 'get', get('/v1/companies?limit=3')],
      ['/v1/companies', 'get', get('/v1/companies?limit=0')],
      ['/v1/companies/{id}', 'get', get('/v1/companies/1')],
      ['/v1/companies/{id}', 'get', get('/v1/companies/999999')],
      ['/v1/companies/{id}/income-statement', 'get', get('/v1/companies/1/income-statement?period=FY2024')],
      ['/v1/companies/{id}/balance-sheet', 'get', get('/v1/companies/1/balance-sheet')],
      ['/v1/companies/{id}/cash-flow', 'get', get('/v1/companies/1/cash-flow?period=latest-fy')],
      ['/v1/companies/{id}/ratios', 'get', get('/v1/companies/1/ratios')],
      ['/v1/companies/{id}/ratios', 'get', get('/v1/companies/1/ratios?period=Q9-2024')],
      ['/v1/companies/{id}/periods', 'get', get('/v1/companies/1/periods?type=annual')],
      ['/v1/ratios/definitions', 'get', get('/v1/ratios/definitions')],
      ['/v1/search', 'post', post('/v1/search', { query: 'revenue growth', top_k: 3 })],
      ['/v1/search', 'post', post('/v1/search', { query: 'revenue' }, {})],
      [
        '/v1/documents',
        'post',
        post(
          '/v1/documents',
          { company_id: 1, title: 'OpenAPI check', doc_type: 'note', content: `A note ${Date.now()}.` },
          admin,
        ),
      ],
      [
        '/v1/documents',
        'post',
        post(
          '/v1/documents',
          { company_id: 1, title: 'OpenAPI check', doc_type: 'note', content: 'The same note, twice.' },
          admin,
        ),
      ],
      [
        '/v1/documents',
        'post',
        post(
          '/v1/documents',
          { company_id: 1, title: 'OpenAPI check', doc_type: 'note', content: 'The same note, twice.' },
          admin,
        ),
      ],
      ['/v1/ai/summarize', 'post', post('/v1/ai/summarize', { company_id: 1, summary_type: 'risks' })],
      ['/v1/ai/compare', 'post', post('/v1/ai/compare', { company_ids: [1, 2], metrics: ['revenue', 'net_margin'] })],
      [
        '/v1/ai/chat',
        'post',
        post('/v1/ai/chat', { company_ids: [1], messages: [{ role: 'user', content: 'Cash flow?' }] }),
      ],
      ['/v1/ai/chat', 'post', post('/v1/ai/chat', { messages: [] })],
      ['/v1/auth/token', 'post', post('/v1/auth/token', {}, analyst)],
      ['/v1/auth/session', 'post', post('/v1/auth/session', { api_key: keysFor(app().url).viewer }, {})],
      [
        '/v1/auth/token',
        'post',
        requestAs(null, '/v1/auth/token', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'grant_type=password',
        }),
      ],
      [
        '/v1/auth/token',
        'post',
        requestAs(null, '/v1/auth/token', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'grant_type=client_credentials',
        }),
      ],
      ['/v1/companies', 'get', get('/v1/companies?q=north&ticker=ncrf')],
      ['/v1/companies/{id}/income-statement', 'get', get('/v1/companies/1/income-statement?type=annual&limit=2')],
      ['/v1/companies/{id}/ratios', 'get', get('/v1/companies/1/ratios?type=quarter&limit=3')],
      ['/v1/admin/keys', 'get', requestAs(null, '/v1/admin/keys', { headers: admin })],
      ['/v1/admin/keys', 'get', requestAs(null, '/v1/admin/keys', { headers: analyst })],
      ['/v1/admin/keys', 'post', post('/v1/admin/keys', { name: 'OpenAPI check', role: 'viewer' }, admin)],
      ['/v1/admin/keys/{id}', 'delete', requestAs(null, '/v1/admin/keys/987654', { method: 'DELETE', headers: admin })],
    ];
    for (const [path, method, pending] of cases) expectConforms(path, method, await pending);
    const made = await post<Data<CreatedApiKey>>('/v1/admin/keys', { name: 'OpenAPI revoke', role: 'viewer' }, admin);
    expectConforms(
      '/v1/admin/keys/{id}',
      'delete',
      await requestAs(null, `/v1/admin/keys/${made.body.data.api_key.id}`, { method: 'DELETE', headers: admin }),
    );
  });
  it('lists every status a route can answer: 401 even on public routes, 403 for a missing CSRF header, 414, 429, 431, 503', () => {
    for (const route of ROUTES) {
      const path = route.path.replace(/:(\w+)/g, '{$1}');
      const operation = doc.paths[path][route.method.toLowerCase()];
      expect(operation.responses, `${route.method} ${route.path}`).to.include.keys(
        '400',
        '401',
        '404',
        '405',
        '414',
        '429',
        '431',
        '500',
        '503',
      );
      if (route.method === 'POST' || route.declaration.role !== 'viewer')
        expect(operation.responses, route.path).to.include.keys('403');
      if (route.method === 'POST') expect(operation.responses, route.path).to.include.keys('413', '415');
      if (route.method === 'GET')
        expect(doc.paths[path].head?.responses, `HEAD ${route.path}`).to.include.keys('200', '401', '404', '429');
    }
  });

  it('has enums where the API has them, caps from the operation catalog, and no null where a value is required', () => {
    const requestBody = (path: string) => {
      const { $ref } = doc.paths[path].post.requestBody!.content['application/json'].schema;
      return doc.components.schemas[$ref!.replace('#/components/schemas/', '')];
    };
    const documents = requestBody('/v1/documents');
    expect(documents.properties!.doc_type.enum).to.deep.equal([...CAPS.ingestDocument.docTypes]);
    const search = requestBody('/v1/search');
    expect(search.properties!.top_k.maximum).to.equal(CAPS.search.maxTopK);
    expect(search.properties!.query.maxLength).to.equal(CAPS.search.maxQueryChars);
    const chat = requestBody('/v1/ai/chat');
    expect(chat.properties!.messages.maxItems).to.equal(CAPS.chat.maxMessages);
    const body = compile(search);
    expect(body({ query: 'revenue', top_k: 3 })).to.equal(true);
    expect(body({ query: 'revenue', top_k: null })).to.equal(false);
  });

  it('matches what the routes answer to bad keys, long URLs, nulls and cookie writes without the CSRF header', async () => {
    const signIn = await fetch(`${app().url}/v1/auth/session`, json({ api_key: keysFor(app().url).analyst }));
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const analyst = { 'content-type': 'application/json', 'x-api-key': keysFor(app().url).analyst };
    const cases: Array<[string, string, number, Promise<JsonResponse>]> = [
      [
        '/v1/companies',
        'get',
        401,
        requestAs(null, '/v1/companies', { headers: { 'x-api-key': 'fis_live_not-a-key' } }),
      ],
      ['/v1/companies', 'get', 414, requestAs(null, `/v1/companies?sector=${'x'.repeat(9_000)}`)],
      [
        '/v1/search',
        'post',
        403,
        requestAs(null, '/v1/search', {
          ...json({ query: 'revenue' }),
          headers: { 'content-type': 'application/json', cookie },
        }),
      ],
      [
        '/v1/search',
        'post',
        400,
        requestAs(null, '/v1/search', { ...json({ query: 'revenue', top_k: null }), headers: analyst }),
      ],
      [
        '/v1/ai/summarize',
        'post',
        400,
        requestAs(null, '/v1/ai/summarize', { ...json({ company_id: 1, period: null }), headers: analyst }),
      ],
    ];
    for (const [path, method, status, pending] of cases) {
      const response = await pending;
      expect(response.status, `${method} ${path}: ${JSON.stringify(response.body).slice(0, 200)}`).to.equal(status);
      expectConforms(path, method, response);
    }
  });

  it('answers HEAD on a GET route as GET does, without a body', async () => {
    for (const path of ['/v1/companies?limit=2', '/v1/companies/1', '/v1/companies/999999', '/v1/openapi.json']) {
      const [got, head] = [await fetch(`${app().url}${path}`), await fetch(`${app().url}${path}`, { method: 'HEAD' })];
      const body = await got.text();
      expect(head.status, path).to.equal(got.status);
      expect(head.headers.get('content-type'), path).to.equal(got.headers.get('content-type'));
      expect(head.headers.get('ratelimit-policy'), path).to.equal(got.headers.get('ratelimit-policy'));
      expect(await head.text(), path).to.equal('');
      expect(body.length, path).to.be.above(0);
    }
  });

  it('documents the chat stream apart from the JSON answer, as a union of named events, and the events conform', async () => {
    const answer = doc.paths['/v1/ai/chat'].post.responses['200'].content!;
    expect(answer['application/json'].schema.properties!.data).to.deep.equal({
      $ref: '#/components/schemas/ChatDoneEvent',
    });
    expect(answer['text/event-stream'].schema.$ref).to.equal('#/components/schemas/ChatEvent');
    const union = doc.components.schemas.ChatEvent.oneOf as Array<{ properties: { event: { const: string } } }>;
    expect(union.map((variant) => variant.properties.event.const)).to.deep.equal([
      'status',
      'token',
      'citations',
      'done',
      'error',
    ]);
    const { events } = await postForEvents('/v1/ai/chat', {
      company_ids: [1],
      messages: [{ role: 'user', content: 'Cash flow?' }],
    });
    expect(events.map((e) => e.event)).to.include.members(['status', 'token', 'citations', 'done']);
    const validate = compile({ $ref: '#/components/schemas/ChatEvent' });
    for (const event of events)
      expect(validate(event), `${event.event}: ${ajv.errorsText(validate.errors)}`).to.equal(true);
  });

  it('names a schema for every response and request body, and their enums', () => {
    expect(doc.components.schemas).to.include.keys(
      'Company',
      'CompanyProfile',
      'IncomeStatement',
      'BalanceSheet',
      'CashFlow',
      'Ratios',
      'Period',
      'SearchResult',
      'Summary',
      'Comparison',
      'ChatEvent',
      'Error',
      'ErrorCode',
      'PageMeta',
      'Token',
      'SearchRequest',
      'CompareRequest',
      'ChatRequest',
      'PeriodType',
      'CitationKind',
    );
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (method === 'head') continue;
        const body = operation.requestBody?.content['application/json'].schema;
        if (body) expect(body.$ref, `${method} ${path} request body`).to.match(/^#\/components\/schemas\//);
        const success = (operation.responses['200'] ?? operation.responses['201'])?.content?.['application/json']
          ?.schema;
        // The token endpoint answers OAuth's own shape, the named Token itself, without the envelope.
        const data = path === '/v1/auth/token' ? success : success?.properties?.data;
        // One object, a list, or (statements and ratios) one period or its named array of several.
        const named = data?.$ref ?? data?.items?.$ref ?? data?.oneOf?.[0].$ref;
        if (data?.oneOf) expect(data.oneOf[1].$ref, `${method} ${path} history`).to.equal(`${named}History`);
        if (path !== '/v1/auth/session' || method !== 'delete')
          expect(named, `${method} ${path} data`).to.match(/^#\/components\/schemas\//);
      }
    }
    expect(doc.components.schemas.CompareRequest.properties!.metrics.items!.enum).to.include.members([
      'revenue',
      'net_margin',
      'free_cash_flow',
    ]);
    expect(doc.components.schemas.Error.properties!.error.properties!.code).to.deep.equal({
      $ref: '#/components/schemas/ErrorCode',
    });
    expect(doc.servers).to.deep.equal([{ url: '/', description: doc.servers[0].description }]);
    expect(doc.components.schemas.Error.properties!.error.properties!.details).to.deep.equal({
      $ref: '#/components/schemas/ErrorDetails',
    });
    expect(doc.components.schemas.IncomeStatementHistory).to.deep.include({
      type: 'array',
      items: { $ref: '#/components/schemas/IncomeStatement' },
    });
  });

  it('answers JSON only on a success (CSV is the format=csv variant), leaves defaults optional, declares Retry-After', () => {
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const success = operation.responses['200'] ?? operation.responses['201'];
        if (method === 'head' || path === '/v1/ai/chat') continue;
        expect(Object.keys(success.content ?? { 'application/json': {} }), `${method} ${path}`).to.deep.equal([
          'application/json',
        ]);
        for (const parameter of operation.parameters ?? [])
          expect(parameter.schema, `${method} ${path} ${parameter.name}`).to.not.have.property('default');
      }
    }
    expect(doc.paths['/v1/companies'].get.responses['200']['x-csv']!.mediaType).to.equal('text/csv');
    expect(doc.paths['/v1/companies'].get.parameters!.find((p) => p.name === 'format')).to.include({
      required: false,
    });
    expect(doc.components.schemas.SearchRequest.properties!.top_k).to.not.have.property('default');
    expect(doc.components.schemas.SearchRequest.required).to.deep.equal(['query']);
    expect(doc.components.responses.Error429.headers).to.include.keys('Retry-After', 'RateLimit', 'RateLimit-Policy');
    expect(doc.components.responses.Error503.headers).to.include.keys('Retry-After');
  });
});
