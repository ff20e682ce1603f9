import { expect } from 'chai';
import Ajv2020 from 'ajv/dist/2020';
import { ROUTES } from '../rest-facade/routes';
import { app } from './helpers/shared-app';
import { requestAs, type JsonResponse } from './helpers/http';
import { keysFor } from './helpers/keys';
import { postForEvents } from './helpers/sse';

const json = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('OpenAPI document (GET /v1/openapi.json)', function () {
  this.timeout(60_000);
  let doc: any;
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });

  before(async () => {
    doc = (await requestAs(null, '/v1/openapi.json')).body;
  });

  /** Validates a real response against the document's schema for its path, method and status. */
  function expectConforms(path: string, method: string, response: JsonResponse): void {
    const operation = doc.paths[path]?.[method];
    expect(operation, `${method} ${path} is documented`).to.not.equal(undefined);
    const documented = operation.responses[String(response.status)];
    expect(documented, `${method} ${path} documents status ${response.status}`).to.not.equal(undefined);
    const schema = documented.$ref ? doc.components.schemas.Error : documented.content['application/json'].schema;
    const validate = ajv.compile(schema);
    const valid = validate(response.body);
    expect(valid, `${method} ${path} ${response.status}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(response.body).slice(0, 300)}`).to.equal(true);
  }

  it('is OpenAPI 3.1 and documents every /v1 route with its security and error responses', () => {
    expect(doc.openapi).to.equal('3.1.0');
    for (const route of ROUTES) {
      const operation = doc.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
      expect(operation, route.path).to.not.equal(undefined);
      expect(operation.responses).to.include.keys('400', '404', '429', '500');
      expect(operation.security.length).to.be.above(0);
    }
    expect(doc.components.securitySchemes).to.have.keys('apiKey', 'bearer', 'session');
    expect(doc.paths).to.include.keys('/v1/auth/token', '/v1/auth/session');
  });

  it('matches what the routes really answer, successes and failures', async () => {
    const analyst = { 'x-api-key': keysFor(app().url).analyst };
    const admin = { 'x-api-key': keysFor(app().url).admin };
    const get = (path: string) => requestAs(null, path);
    const post = (path: string, body: unknown, headers: Record<string, string> = analyst) => requestAs(null, path, { ...json(body), headers: { 'content-type': 'application/json', ...headers } });
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
      ['/v1/documents', 'post', post('/v1/documents', { company_id: 1, title: 'OpenAPI check', doc_type: 'note', content: `A note ${Date.now()}.` }, admin)],
      ['/v1/documents', 'post', post('/v1/documents', { company_id: 1, title: 'OpenAPI check', doc_type: 'note', content: 'The same note, twice.' }, admin)],
      ['/v1/documents', 'post', post('/v1/documents', { company_id: 1, title: 'OpenAPI check', doc_type: 'note', content: 'The same note, twice.' }, admin)],
      ['/v1/ai/summarize', 'post', post('/v1/ai/summarize', { company_id: 1, summary_type: 'risks' })],
      ['/v1/ai/compare', 'post', post('/v1/ai/compare', { company_ids: [1, 2], metrics: ['revenue', 'net_margin'] })],
      ['/v1/ai/chat', 'post', post('/v1/ai/chat', { company_ids: [1], messages: [{ role: 'user', content: 'Cash flow?' }] })],
      ['/v1/ai/chat', 'post', post('/v1/ai/chat', { messages: [] })],
      ['/v1/auth/token', 'post', post('/v1/auth/token', {}, analyst)],
      ['/v1/auth/session', 'post', post('/v1/auth/session', { api_key: keysFor(app().url).viewer }, {})],
    ];
    for (const [path, method, pending] of cases) expectConforms(path, method, await pending);
  });

  it('documents each streamed chat event, and the events conform', async () => {
    const stream = doc.paths['/v1/ai/chat'].post.responses['200'].content['text/event-stream'];
    expect(stream['x-events']).to.have.all.keys('token', 'citations', 'done', 'error');
    const { events } = await postForEvents('/v1/ai/chat', { company_ids: [1], messages: [{ role: 'user', content: 'Cash flow?' }] });
    expect(events.map((e) => e.event)).to.include.members(['token', 'citations', 'done']);
    for (const event of events) {
      const validate = ajv.compile(stream['x-events'][event.event]);
      expect(validate(event.data), `${event.event}: ${ajv.errorsText(validate.errors)}`).to.equal(true);
    }
  });
});
