import { expect } from 'chai';
import { app } from './helpers/shared-app';
import { graphql, request, requestAs } from './helpers/http';
import type { GraphQLAnswer, GraphQLFailure } from './helpers/http';
import { generateDemoData } from '../src/demo/demo-data';
import type { Schema } from '../sdk/typescript/src';

// Other test files add companies to the shared service (some without statements, some sorting first by name),
// so the checks of what a page holds look at the demo companies on it.
const DEMO_TICKERS = new Set(generateDemoData().companies.map((company) => company.ticker));
const demoItems = <T extends { ticker: string }>(items: T[]) => items.filter((item) => DEMO_TICKERS.has(item.ticker));

/** The answer of a query for a page of companies. */
type CompaniesAnswer = GraphQLAnswer<Pick<Schema.Query, 'companies'>>;

const NESTED_PAGE = `
  query Page($limit: Int, $period: String) {
    companies(limit: $limit) {
      total
      items {
        id
        ticker
        incomeStatement(period: $period) { period netIncome revenue }
        balanceSheet(period: $period) { totalAssets }
        cashFlow(period: $period) { freeCashFlow }
      }
    }
  }`;

/** Runs a query and returns how many SQL statements the service sent for it. */
async function countQueries(
  query: string,
  variables: Record<string, unknown>,
): Promise<{ count: number; body: CompaniesAnswer }> {
  // Anonymous (reads are public): a key would add its own look-up to the count.
  const before = app().database.counter.count;
  const response = await requestAs<CompaniesAnswer>(null, '/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  expect(response.status).to.equal(200);
  expect(response.body.errors).to.equal(undefined);
  return { count: app().database.counter.count - before, body: response.body };
}

describe('GraphQL /graphql', () => {
  it('resolves a page of companies with three nested statements in a constant number of SQL statements', async () => {
    for (const period of ['FY2024', 'latest']) {
      const small = await countQueries(NESTED_PAGE, { limit: 2, period });
      const large = await countQueries(NESTED_PAGE, { limit: 20, period });
      expect(large.body.data.companies.items).to.have.length(20);
      const demo = demoItems(large.body.data.companies.items);
      expect(demo.length).to.be.at.least(10);
      expect(demo.filter((c) => c.incomeStatement !== null)).to.have.length(demo.length);
      expect(large.count, `SQL statements for 20 companies (${period})`).to.equal(small.count);
      // list + count + one per statement kind (+ one for the periods when "latest" must be resolved)
      expect(large.count).to.be.at.most(period === 'latest' ? 6 : 5);
    }
  });

  it('batches ratios and history the same way', async () => {
    const query = `query($limit: Int) { companies(limit: $limit) { items {
      ticker
      ratios(period: "FY2024") { grossMargin returnOnEquity revenueGrowth }
      statements(type: ANNUAL, last: 3) { period incomeStatement { netIncome } ratios { netMargin } }
    } } }`;
    const small = await countQueries(query, { limit: 3 });
    const large = await countQueries(query, { limit: 20 });
    expect(large.count).to.equal(small.count);
    const [first] = demoItems(large.body.data.companies.items);
    expect(first.statements.map((s) => s.period)).to.have.length(3);
    expect(first.statements[0].period).to.match(/^FY\d{4}$/);
  });

  it('finds a company by ticker in any case, and by id', async () => {
    const { body } = await graphql<CompaniesAnswer>(`
      {
        companies(limit: 1) {
          items {
            id
            ticker
          }
        }
      }
    `);
    const { id, ticker } = body.data.companies.items[0];
    const byTicker = await graphql<GraphQLAnswer<{ company: Schema.Company }>>(
      `
        query ($t: String) {
          company(ticker: $t) {
            id
          }
        }
      `,
      { t: ticker.toLowerCase() },
    );
    expect(byTicker.body.data.company.id).to.equal(id);
    const byId = await graphql<GraphQLAnswer<{ company: Schema.Company }>>(
      `
        query ($id: Int) {
          company(id: $id) {
            ticker
          }
        }
      `,
      { id },
    );
    expect(byId.body.data.company.ticker).to.equal(ticker);
    const missing = await graphql<GraphQLAnswer<Pick<Schema.Query, 'company'>>>(`
      {
        company(ticker: "NOPE-NOPE") {
          id
        }
      }
    `);
    expect(missing.status).to.equal(200);
    expect(missing.body.data.company).to.equal(null);
  });

  it('answers bad arguments with BAD_USER_INPUT: HTTP 400, or 200 beside partial data', async () => {
    const cases = [
      ['{ company(id: 1, ticker: "X") { id } }', /exactly one of id or ticker/],
      ['{ company { id } }', /exactly one of id or ticker/],
      ['{ companies(limit: 500) { total } }', /limit must be a whole number from 1 to 100/],
      ['{ companies(offset: -1) { total } }', /offset/],
      [
        '{ companies(limit: 1) { items { incomeStatement(period: "Q9-2024") { period } } } }',
        /Invalid period "Q9-2024"/,
      ],
      ['{ companies(limit: 1) { items { statements(last: 0) { period } } } }', /last must be from 1 to 40/],
      ['{ company(ticker: "A\\u0000B") { id } }', /NUL/],
      ['{ companies(sector: "\\u0000") { total } }', /NUL/],
    ] as const;
    for (const [query, message] of cases) {
      const response = await graphql<GraphQLFailure>(query);
      // A failed nested field leaves the rest of the data: that is a 200 (GraphQL over HTTP), the error says why.
      expect(response.status, query).to.equal(response.body.data ? 200 : 400);
      expect(response.body.errors[0].extensions.code, query).to.equal('BAD_USER_INPUT');
      expect(response.body.errors[0].message, query).to.match(message);
      expect(JSON.stringify(response.body), query).not.to.match(/stacktrace|at .*\.js:/);
    }
  });

  it('answers a NUL byte in a search with a 400, not a database error', async () => {
    const response = await graphql<GraphQLFailure>('query($q: String!) { search(query: $q) { chunkId } }', {
      q: 'a\u0000b',
    });
    expect(response.status).to.equal(400);
    expect(response.body.errors[0].extensions.code).to.equal('BAD_USER_INPUT');
  });

  it('refuses subscriptions with a pointer to the streaming endpoint', async () => {
    const response = await graphql<GraphQLFailure>('subscription { chat { token } }');
    expect(response.status).to.equal(400);
    expect(response.body.errors.map((e) => e.message).join(' ')).to.match(/\/graphql\/stream/);
  });

  it('answers transport errors with JSON in the GraphQL error shape', async () => {
    const malformed = await request<GraphQLFailure>('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query": ',
    });
    expect(malformed.status).to.equal(400);
    expect(malformed.body.errors[0].extensions.code).to.equal('BAD_REQUEST');
    expect(malformed.body.errors[0].message).to.match(/Malformed JSON/);

    const wrongType = await request('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{ sectors }',
    });
    expect(wrongType.status).to.equal(415);

    const wrongMethod = await request('/graphql', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(wrongMethod.status).to.equal(405);
    expect(wrongMethod.headers.get('allow')).to.equal('GET, HEAD, POST');
    const head = await fetch(`${app().url}/graphql?query=%7Bsectors%7D`, {
      method: 'HEAD',
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(head.status).to.equal(200);
    expect(head.headers.get('content-type')).to.match(/^application\/(graphql-response\+)?json/);
    expect(await head.text()).to.equal('');

    const syntax = await graphql<GraphQLFailure>('{ companies { ');
    expect(syntax.status).to.equal(400);
    expect(syntax.body.errors[0].extensions.code).to.equal('GRAPHQL_PARSE_FAILED');

    const unknownField = await graphql<GraphQLFailure>('{ companies { nope } }');
    expect(unknownField.status).to.equal(400);
    expect(unknownField.body.errors[0].extensions.code).to.equal('GRAPHQL_VALIDATION_FAILED');

    const huge = await request<GraphQLFailure>('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ sectors } #${'x'.repeat(2 * 1024 * 1024)}` }),
    });
    expect(huge.status).to.equal(413);
    expect(huge.body.errors[0].extensions.code).to.equal('PAYLOAD_TOO_LARGE');
  });

  it('serves queries over GET too', async () => {
    const response = await request<GraphQLAnswer<Pick<Schema.Query, 'sectors'>>>(
      `/graphql?query=${encodeURIComponent('{ sectors }')}`,
      {
        headers: { 'apollo-require-preflight': 'true' },
      },
    );
    expect(response.status).to.equal(200);
    expect(response.body.data.sectors.length).to.be.at.least(8);
  });
});
