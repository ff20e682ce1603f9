import { expect } from 'chai';
import { app } from './helpers/shared-app';
import { request, type GraphQLFailure, type Refusal } from './helpers/http';
import { withCredentials } from './helpers/keys';
import { readSseEvents, type ServerSentEvent } from './helpers/sse-events';

/**
 * One error path: the same bad input gets the same code over REST, /graphql and /graphql/stream (graphql-sse), and
 * REST says it in REST's words (snake_case fields, accepted values), never in GraphQL's (`Variable "$input" …`).
 */

interface BadInput {
  name: string;
  rest: { method: 'GET' | 'POST'; path: string; body?: unknown };
  graphql: { query: string; variables: Record<string, unknown> };
  code: string;
  /** What the REST message must say. */
  restMessage: RegExp;
}

const SEARCH =
  'query($query: String!, $topK: Int, $mode: SearchMode) { search(query: $query, topK: $topK, mode: $mode) { chunkId } }';
const INGEST = 'mutation($input: IngestDocumentInput!) { ingestDocument(input: $input) { created } }';
const SUMMARIZE = 'mutation($input: SummarizeInput!) { summarize(input: $input) { model } }';
const INCOME =
  'query($id: Int!, $period: String) { company(id: $id) { incomeStatement(period: $period) { revenue } } }';
const DOCUMENT = { company_id: 1, title: 'Codes', doc_type: 'note', content: 'A note.' };
const DOCUMENT_INPUT = { companyId: 1, title: 'Codes', docType: 'note', content: 'A note.' };

const CASES: BadInput[] = [
  {
    name: 'an unknown company id',
    rest: { method: 'POST', path: '/v1/ai/summarize', body: { company_id: 999999 } },
    graphql: { query: SUMMARIZE, variables: { input: { companyId: 999999 } } },
    code: 'NOT_FOUND',
    restMessage: /999999/,
  },
  {
    name: 'a bad period string',
    rest: { method: 'GET', path: '/v1/companies/1/income-statement?period=Q5-2024' },
    graphql: { query: INCOME, variables: { id: 1, period: 'Q5-2024' } },
    code: 'BAD_USER_INPUT',
    restMessage: /Invalid period "Q5-2024"/,
  },
  {
    name: 'a value outside an enum',
    rest: { method: 'POST', path: '/v1/search', body: { query: 'revenue', mode: 'fuzzy' } },
    graphql: { query: SEARCH, variables: { query: 'revenue', mode: 'FUZZY' } },
    code: 'BAD_USER_INPUT',
    restMessage: /^mode must be one of hybrid, text, vector, got "fuzzy"$/,
  },
  {
    name: 'a value outside an enum inside the body of a mutation',
    rest: { method: 'POST', path: '/v1/documents', body: { ...DOCUMENT, format: 'pdf' } },
    graphql: { query: INGEST, variables: { input: { ...DOCUMENT_INPUT, format: 'PDF' } } },
    code: 'BAD_USER_INPUT',
    restMessage: /^format must be one of text, markdown, html, got "pdf"$/,
  },
  {
    name: 'a query that is too long',
    rest: { method: 'POST', path: '/v1/search', body: { query: 'x'.repeat(2001) } },
    graphql: { query: SEARCH, variables: { query: 'x'.repeat(2001) } },
    code: 'BAD_USER_INPUT',
    restMessage: /^query must be at most 2000 characters$/,
  },
  {
    name: 'a value of the wrong type',
    rest: { method: 'POST', path: '/v1/search', body: { query: 'revenue', top_k: 'ten' } },
    graphql: { query: SEARCH, variables: { query: 'revenue', topK: 'ten' } },
    code: 'BAD_USER_INPUT',
    restMessage: /^top_k must be an integer/,
  },
  {
    name: 'a value of the wrong type inside the body of a mutation',
    rest: { method: 'POST', path: '/v1/documents', body: { ...DOCUMENT, company_id: 1, period: 2024 } },
    graphql: { query: INGEST, variables: { input: { ...DOCUMENT_INPUT, period: 2024 } } },
    code: 'BAD_USER_INPUT',
    restMessage: /^period must be a string/,
  },
];

async function overRest({ method, path, body }: BadInput['rest']): Promise<Refusal['error']> {
  const response = await request<Refusal>(
    path,
    method === 'POST' ? { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {},
  );
  expect(response.body.success, `${method} ${path}`).to.equal(false);
  return response.body.error;
}

async function overGraphQL({ query, variables }: BadInput['graphql']): Promise<string> {
  const { body } = await request<GraphQLFailure>('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return body.errors?.[0]?.extensions?.code;
}

/** graphql-sse in its distinct-connections mode: a refusal before the operation runs is JSON, the rest `next` events. */
async function overStream({ query, variables }: BadInput['graphql']): Promise<string> {
  const response = await fetch(`${app().url}/graphql/stream`, {
    method: 'POST',
    headers: withCredentials(app().url, { 'content-type': 'application/json', accept: 'text/event-stream' }),
    body: JSON.stringify({ query, variables }),
  });
  if (!response.headers.get('content-type')?.startsWith('text/event-stream'))
    return ((await response.json()) as GraphQLFailure).errors?.[0]?.extensions?.code;
  // A `next` event's data is an execution result, errors and all.
  for await (const event of readSseEvents<ServerSentEvent<Partial<GraphQLFailure> | null>>(response.body!)) {
    if (event.event === 'next' && event.data?.errors?.length) return event.data.errors[0].extensions?.code;
  }
  return 'no error';
}

describe('The same bad input gets the same code on every transport', function () {
  this.timeout(60_000);

  for (const testCase of CASES) {
    it(`${testCase.name}: ${testCase.code} over REST, /graphql and /graphql/stream`, async () => {
      const rest = await overRest(testCase.rest);
      expect(rest.code, 'REST').to.equal(testCase.code);
      expect(await overGraphQL(testCase.graphql), '/graphql').to.equal(testCase.code);
      expect(await overStream(testCase.graphql), '/graphql/stream').to.equal(testCase.code);
      expect(rest.message).to.match(testCase.restMessage);
      // REST speaks REST: no GraphQL variables, no camelCase names.
      expect(rest.message).to.not.match(/Variable "\$|\$input|companyId|topK|docType/);
    });
  }

  it('lists the accepted values of an enum in the REST details', async () => {
    const error = await overRest({ method: 'POST', path: '/v1/search', body: { query: 'revenue', mode: 'fuzzy' } });
    expect(error.details).to.deep.equal({ field: 'mode', accepted: ['hybrid', 'text', 'vector'] });
  });

  it('names the field at fault and lists what it accepts as an array, whichever layer refused the value', async () => {
    const cases = [
      [{ method: 'GET', path: '/v1/companies/1/income-statement?period=Q9-2024' }, 'period'],
      [{ method: 'POST', path: '/v1/ai/summarize', body: { company_id: 1, summary_type: 'bogus' } }, 'summary_type'],
      [{ method: 'POST', path: '/v1/search', body: { query: 'revenue', doc_types: ['memo-of-nothing'] } }, 'doc_types'],
      [{ method: 'GET', path: '/v1/companies/1/periods?type=yearly' }, 'type'],
    ] as const;
    for (const [input, field] of cases) {
      const error = await overRest(input as BadInput['rest']);
      expect(error.details?.field, input.path).to.equal(field);
      expect(error.details?.accepted, input.path).to.be.an('array').that.is.not.empty;
    }
  });

  it('names a nested field as the REST body does', async () => {
    const error = await overRest({
      method: 'POST',
      path: '/v1/ai/chat',
      body: { messages: [{ role: 'user', content: 7 }] },
    });
    expect(error).to.deep.include({ code: 'BAD_USER_INPUT', message: 'messages[0].content must be a string, got 7' });
  });

  it('gives a document the schema refuses GRAPHQL_VALIDATION_FAILED on /graphql and /graphql/stream', async () => {
    const unknownField = { query: '{ companies { items { nosuchfield } } }', variables: {} };
    expect(await overGraphQL(unknownField)).to.equal('GRAPHQL_VALIDATION_FAILED');
    expect(await overStream(unknownField)).to.equal('GRAPHQL_VALIDATION_FAILED');
    const syntax = { query: '{ companies { ', variables: {} };
    expect(await overGraphQL(syntax)).to.equal('GRAPHQL_PARSE_FAILED');
    expect(await overStream(syntax)).to.equal('GRAPHQL_PARSE_FAILED');
  });
});
