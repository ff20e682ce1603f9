import { expect } from 'chai';
import { buildSchema, printSchema } from 'graphql';
import type { App } from '../src/app';
import type { Role } from '../src/auth/roles';
import { hasRole } from '../src/auth/roles';
import { CATALOG, OPERATION_NAMES, type OperationName } from '../src/operations/catalog';
import { checkCatalogCoversSchema } from '../src/operations/catalog-schema';
import { DECLARATIONS } from '../src/operations/declarations';
import { buildAppSchema } from '../src/graphql/schema';
import { ROUTES, rootFieldOf } from '../rest-facade/routes';
import { createTestKeys, keysFor } from './helpers/keys';
import { startTestApp } from './helpers/test-app';

/**
 * One call of each catalogued operation: a GraphQL document (with variables) and, when REST exposes it, the route.
 * Inputs name a company that does not exist where that keeps the call cheap: an allowed caller then gets a domain
 * error (NOT_FOUND), never UNAUTHENTICATED or FORBIDDEN, which is all the role check is about.
 */
const MISSING = 987_654;
const CALLS: Record<
  OperationName,
  {
    query: string;
    variables?: Record<string, unknown>;
    rest?: { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; path: string; body?: unknown };
  }
> = {
  companies: { query: '{ companies(limit: 1) { total } }', rest: { method: 'GET', path: '/v1/companies?limit=1' } },
  company: { query: `{ company(id: ${MISSING}) { id } }`, rest: { method: 'GET', path: `/v1/companies/${MISSING}` } },
  sectors: { query: '{ sectors }' },
  screen: {
    query: '{ screen(filter: "grossMargin>0.5", limit: 1) { total } }',
    rest: { method: 'GET', path: '/v1/screener?filter=gross_margin%3E0.5&limit=1' },
  },
  // A ticker the service refuses: an allowed caller gets BAD_USER_INPUT and no company is made.
  createCompany: {
    query: 'mutation { createCompany(input: { name: "Catalog", ticker: "?!", sector: "Energy" }) { id } }',
    rest: { method: 'POST', path: '/v1/companies', body: { name: 'Catalog', ticker: '?!', sector: 'Energy' } },
  },
  updateCompany: {
    query: `mutation { updateCompany(id: ${MISSING}, input: { name: "Catalog" }) { id } }`,
    rest: { method: 'PATCH', path: `/v1/companies/${MISSING}`, body: { name: 'Catalog' } },
  },
  ratioDefinitions: { query: '{ ratioDefinitions { key } }', rest: { method: 'GET', path: '/v1/ratios/definitions' } },
  search: {
    query: '{ search(query: "revenue", topK: 1) { chunkId } }',
    rest: { method: 'POST', path: '/v1/search', body: { query: 'revenue', top_k: 1 } },
  },
  document: { query: `{ document(id: ${MISSING}) { id } }`, rest: { method: 'GET', path: `/v1/documents/${MISSING}` } },
  ingestDocument: {
    query: `mutation { ingestDocument(input: { companyId: ${MISSING}, title: "Catalog", docType: "note", content: "A note." }) { created } }`,
    rest: {
      method: 'POST',
      path: '/v1/documents',
      body: { company_id: MISSING, title: 'Catalog', doc_type: 'note', content: 'A note.' },
    },
  },
  summarize: {
    query: `mutation { summarize(input: { companyId: ${MISSING} }) { model } }`,
    rest: { method: 'POST', path: '/v1/ai/summarize', body: { company_id: MISSING } },
  },
  compare: {
    query: `mutation { compare(input: { companyIds: [${MISSING}, ${MISSING + 1}] }) { model } }`,
    rest: { method: 'POST', path: '/v1/ai/compare', body: { company_ids: [MISSING, MISSING + 1] } },
  },
  chat: {
    query: `subscription { chat(input: { companyIds: [${MISSING}], messages: [{ role: "user", content: "Revenue?" }] }) { type } }`,
    rest: {
      method: 'POST',
      path: '/v1/ai/chat',
      body: { company_ids: [MISSING], messages: [{ role: 'user', content: 'Revenue?' }] },
    },
  },
  apiKeys: { query: '{ apiKeys { id } }', rest: { method: 'GET', path: '/v1/admin/keys' } },
  // An unknown role: an allowed caller gets BAD_USER_INPUT and no key is made.
  createApiKey: {
    query: 'mutation { createApiKey(input: { name: "catalog", role: "root" }) { key } }',
    rest: { method: 'POST', path: '/v1/admin/keys', body: { name: 'catalog', role: 'root' } },
  },
  revokeApiKey: {
    query: `mutation { revokeApiKey(id: ${MISSING}) { id } }`,
    rest: { method: 'DELETE', path: `/v1/admin/keys/${MISSING}` },
  },
};

type Who = 'anonymous' | Role;
const WHO: Who[] = ['anonymous', 'viewer', 'analyst', 'admin'];

/** What a caller gets from an operation: refused (401/403 or their codes) or let through, and the budget charged. */
interface Outcome {
  access: 'UNAUTHENTICATED' | 'FORBIDDEN' | 'allowed';
  policy: string | null;
}

function accessOf(status: number, text: string): Outcome['access'] {
  if (status === 401 || text.includes('"UNAUTHENTICATED"')) return 'UNAUTHENTICATED';
  if (status === 403 || text.includes('"FORBIDDEN"')) return 'FORBIDDEN';
  return 'allowed';
}

describe('operation catalog', function () {
  this.timeout(120_000);

  describe('covers the schema', () => {
    it('declares every root field of the schema, with its kind', () => {
      expect(() => checkCatalogCoversSchema(buildAppSchema())).not.to.throw();
    });

    it('refuses a schema with a root field it does not declare, or an entry without a field', () => {
      const fields = OPERATION_NAMES.filter((name) => CATALOG[name].kind === 'query')
        .map((name) => `${name}: Int`)
        .join(' ');
      const mutations = OPERATION_NAMES.filter((name) => CATALOG[name].kind === 'mutation')
        .map((name) => `${name}: Int`)
        .join(' ');
      const subscriptions = OPERATION_NAMES.filter((name) => CATALOG[name].kind === 'subscription')
        .map((name) => `${name}: Int`)
        .join(' ');
      // Nested fields with routes of their own must be under their root field.
      const nested = DECLARATIONS.filter((entry) => entry.kind === 'field')
        .map((entry) => `${entry.name.split('.')[1]}: Int`)
        .join(' ');
      const complete = `type Query { ${fields.replace('company: Int', 'company: Company')} } type Company { ${nested} } type Mutation { ${mutations} } type Subscription { ${subscriptions} }`;
      expect(() => checkCatalogCoversSchema(buildSchema(complete))).not.to.throw();
      expect(() =>
        checkCatalogCoversSchema(buildSchema(complete.replace('type Query {', 'type Query { exportEverything: Int'))),
      ).to.throw(/query field "exportEverything" has no catalog entry/);
      expect(() => checkCatalogCoversSchema(buildSchema(complete.replace('sectors: Int', '')))).to.throw(
        /catalog entry "sectors" matches no root field/,
      );
      expect(() =>
        checkCatalogCoversSchema(
          buildSchema(complete.replace('sectors: Int', '').replace('type Mutation {', 'type Mutation { sectors: Int')),
        ),
      ).to.throw(/"sectors" is a mutation field but the catalog says query/);
    });

    it('gives every REST route the role and budget of its own declaration, never above what GraphQL lets through', () => {
      for (const route of ROUTES) {
        const root = CATALOG[rootFieldOf(route)];
        expect(root, route.path).to.not.equal(undefined);
        if (route.declaration.kind !== 'field') expect(route.declaration, route.path).to.equal(root);
        expect(hasRole(route.declaration.role, root.role), `${route.path} needs at least ${root.role}`).to.equal(true);
      }
    });

    it('refuses a nested field with a route of its own that the schema does not have', () => {
      const schema = printSchema(buildAppSchema());
      expect(() => checkCatalogCoversSchema(buildSchema(schema))).not.to.throw();
      const withoutQuality = schema.replace(/\n\s*"""[^"]*"""\n\s*dataQuality: \[DataQualitySummary!\]!/, '');
      expect(withoutQuality).to.not.equal(schema);
      expect(() => checkCatalogCoversSchema(buildSchema(withoutQuality))).to.throw(
        /nested field "company.dataQuality" is not in the schema/,
      );
    });
  });

  describe('the same role and budget on REST, /graphql and /graphql/stream', () => {
    let app: App;
    // Budgets of different sizes, so that RateLimit-Policy names the class a request was charged to.
    const POLICY = { reads: '1000;w=60', search: '900;w=60', ai: '800;w=60' };
    before(async () => {
      app = await startTestApp({
        rateLimits: {
          reads: { limit: 1000, windowSeconds: 60 },
          search: { limit: 900, windowSeconds: 60 },
          ai: { limit: 800, windowSeconds: 60 },
        },
      });
      await createTestKeys(app);
    });
    after(() => app?.close());

    const headersOf = (who: Who): Record<string, string> =>
      who === 'anonymous' ? {} : { 'x-api-key': keysFor(app.url)[who] };

    async function viaGraphQL(name: OperationName, who: Who): Promise<Outcome> {
      const response = await fetch(`${app.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headersOf(who) },
        body: JSON.stringify({ query: CALLS[name].query }),
      });
      return {
        access: accessOf(response.status, await response.text()),
        policy: response.headers.get('ratelimit-policy'),
      };
    }

    async function viaStream(name: OperationName, who: Who): Promise<Outcome> {
      const response = await fetch(`${app.url}/graphql/stream`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headersOf(who) },
        body: JSON.stringify({ query: CALLS[name].query }),
      });
      return {
        access: accessOf(response.status, await response.text()),
        policy: response.headers.get('ratelimit-policy'),
      };
    }

    async function viaRest(name: OperationName, who: Who): Promise<Outcome | null> {
      const rest = CALLS[name].rest;
      if (!rest) return null;
      const response = await fetch(`${app.url}${rest.path}`, {
        method: rest.method,
        headers: { 'content-type': 'application/json', ...headersOf(who) },
        ...(rest.body ? { body: JSON.stringify(rest.body) } : {}),
      });
      return {
        access: accessOf(response.status, await response.text()),
        policy: response.headers.get('ratelimit-policy'),
      };
    }

    it('has a call for every catalogued operation, and a REST call for every operation a route runs', () => {
      expect(Object.keys(CALLS).sort()).to.deep.equal([...OPERATION_NAMES].sort());
      for (const route of ROUTES) expect(CALLS[rootFieldOf(route)].rest, route.path).to.not.equal(undefined);
    });

    for (const name of OPERATION_NAMES) {
      const spec = CATALOG[name];
      it(`${name}: needs ${spec.role}, charged to ${spec.rateClass}, on every transport`, async () => {
        for (const who of WHO) {
          // PUBLIC_READS is on in tests: viewer operations are open to anonymous callers.
          const expected =
            who === 'anonymous'
              ? spec.role === 'viewer'
                ? 'allowed'
                : 'UNAUTHENTICATED'
              : hasRole(who, spec.role)
                ? 'allowed'
                : 'FORBIDDEN';
          const outcomes: Array<[string, Outcome | null]> = [
            ['/graphql/stream', await viaStream(name, who)],
            ['REST', await viaRest(name, who)],
            // Subscriptions are not served at /graphql (a validation error before any role check).
            ['/graphql', spec.kind === 'subscription' ? null : await viaGraphQL(name, who)],
          ];
          for (const [transport, outcome] of outcomes) {
            if (!outcome) continue;
            expect(outcome.access, `${name} as ${who} via ${transport}`).to.equal(expected);
            expect(outcome.policy, `${name} as ${who} via ${transport}: budget`).to.equal(POLICY[spec.rateClass]);
          }
        }
      });
    }
  });
});
