import { AppError } from '../src/shared/errors';
import { snakeCase } from '../src/shared/case';
import type { RequestParams } from './params';
import type { RequestBody } from './body';
import { ROLES } from '../src/auth/roles';
import { CAPS, CATALOG, type OperationName, type OperationSpec } from '../src/operations/catalog';
import { COMPARE_METRICS } from '../src/ai/ai.service';

/** What the OpenAPI document says of a route; response schemas come from its GraphQL operation. */
export interface RouteDoc {
  summary: string;
  /**
   * Where `data` sits in the operation's result, as field names. The first is the root field the route runs: its
   * catalog entry gives the route's role and rate class (routeSpec).
   */
  dataPath: [OperationName, ...string[]];
  /** JSON Schemas of the query parameters. */
  query?: Record<string, Record<string, unknown>>;
  /** JSON Schema of the body. */
  body?: Record<string, unknown>;
  /** Status of a success when not 200. */
  status?: number;
  /** Where `data` sits when the route answers several periods (an array of these), when it can. */
  historyPath?: [OperationName, ...string[]];
}

const PERIOD = { type: 'string', description: 'Q<1-4>-<yyyy>, FY<yyyy>, latest (newest quarter, the default), latest-fy or ttm (trailing twelve months: the last four quarters summed, the newest balance sheet; 404 naming the missing quarter when one is missing)', examples: ['FY2024', 'Q3-2026', 'latest', 'ttm'] };
const ID_LIST = { type: 'array', items: { type: 'integer' } };
const STRING_LIST = { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: CAPS.search.maxListFilter };
/** Filters of POST /v1/search beyond companies. */
const SEARCH_FILTERS = {
  periods: { ...STRING_LIST, description: 'Fiscal periods of the documents, e.g. ["FY2024", "Q3-2024"]' },
  doc_types: { ...STRING_LIST, description: 'Document types, e.g. ["10-K", "earnings-call"]' },
  sections: { ...STRING_LIST, description: 'Sections: an item ("Item 7") or words of a section title ("risk factors")' },
  published_from: { type: 'string', format: 'date', description: 'Documents published on or after this date' },
  published_to: { type: 'string', format: 'date', description: 'Documents published on or before this date' },
};

/** One `/v1` endpoint: which stored GraphQL operation serves it, with which variables, and which part of the result. */
export interface RestRoute {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path pattern; `:name` segments are parameters. */
  path: string;
  /** Name of the operation in `operations/<name>.graphql`. */
  operation: string;
  /** Query parameters the endpoint accepts; anything else is a 400. */
  query?: readonly string[];
  /** For POST: the JSON body fields the endpoint accepts; anything else is a 400. */
  body?: readonly string[];
  /** The route can answer text/csv (its data is an object or an array of flat objects). */
  csv?: true;
  /** Largest body accepted, when it differs from MAX_BODY_BYTES. */
  maxBodyBytes?: 'documents';
  variables(params: RequestParams, body: RequestBody | null): Record<string, unknown>;
  /** For the OpenAPI document (GET /v1/openapi.json). */
  doc: RouteDoc;
  /** Picks the response `data` out of the operation's result; throws NOT_FOUND for a missing resource. */
  data(result: any, variables: Record<string, any>): unknown;
  /** Optional `meta` next to `data` (e.g. paging totals). */
  meta?(result: any): unknown;
  /** HTTP status of a success (200 unless it says otherwise, e.g. 201 for a created resource). */
  status?(result: any): number;
  /**
   * The operation is a subscription of events: the GraphQL type of each kind REST sends (its `__typename`) → the name
   * of its Server-Sent Event; other kinds are not sent. With `Accept: text/event-stream` or `"stream": true` they are
   * sent as events; otherwise the `done` event is the response `data`. An `error` event is a failure (an error
   * response while nothing was sent yet).
   */
  events?: Readonly<Record<string, string>>;
}

/** The catalog entry of the operation a route runs: the role it needs and the budget it is charged to. */
export function routeSpec(route: RestRoute): OperationSpec {
  return CATALOG[route.doc.dataPath[0]];
}

/** A value the caller asked for by id or period; null means it does not exist. */
function found<T>(value: T | null | undefined, message: string): T {
  if (value === null || value === undefined) throw new AppError('NOT_FOUND', message);
  return value;
}

const companyNotFound = (variables: Record<string, unknown>) => `No company with id ${variables.id}`;

function periodText(variables: Record<string, unknown>): string {
  const period = variables.period as string | undefined;
  return period ? `period ${period}` : 'any quarter';
}

const PERIOD_TYPES = ['annual', 'quarter'];

/** The query parameters of a statement route: one period, or several newest first (`type`, `limit`). */
function statementQuery(params: RequestParams) {
  const history = params.has('type') || params.has('limit');
  if (history && params.has('period')) {
    throw new AppError('BAD_USER_INPUT', 'Ask for one period (period) or several (type and limit), not both', { field: 'period' });
  }
  return {
    history,
    period: params.queryString('period'),
    type: params.queryEnum('type', PERIOD_TYPES),
    limit: params.queryIntBetween('limit', 1, CAPS.history.maxPeriods),
  };
}

/**
 * A statement route: one statement for a period (the company must exist and have it), or with `type` and `limit`
 * the last periods of that type, newest first, as an array (periods without this statement are left out).
 */
function statementRoute(path: string, operation: string, field: string, noun: string): RestRoute {
  return {
    method: 'GET',
    path,
    operation,
    query: ['period', 'type', 'limit', 'provenance'],
    csv: true,
    doc: {
      summary: `One ${noun} of a company for a period, or (type, limit) the ${noun} of the last periods, newest first`,
      dataPath: ['company', field],
      historyPath: ['company', 'statements', field],
      query: {
        period: { ...PERIOD, description: `One period: ${PERIOD.description}. Leave it out to use type and limit.` },
        type: { enum: PERIOD_TYPES, description: 'Several periods of this type, newest first: data is then an array (default quarter when limit is given)' },
        limit: { type: 'integer', minimum: 1, maximum: CAPS.history.maxPeriods, default: CAPS.history.defaultPeriods, description: 'How many periods of `type`, newest first' },
        provenance: { type: 'boolean', default: false, description: 'Add `provenance`: the SEC source of each imported value' },
      },
    },
    variables: (params) => ({ id: params.pathInt('id'), ...statementQuery(params), provenance: params.queryBool('provenance') }),
    data: (result, variables) => {
      const company = found(result.company, companyNotFound(variables));
      if (variables.history) return company.statements.map((period: Record<string, unknown>) => period[field]).filter((row: unknown) => row !== null);
      return found(company[field], `Company ${variables.id} has no ${noun} for ${periodText(variables)}`);
    },
  };
}

export const ROUTES: readonly RestRoute[] = [
  {
    method: 'GET',
    path: '/v1/companies',
    operation: 'ListCompanies',
    query: ['sector', 'ticker', 'q', 'limit', 'offset'],
    doc: {
      summary: 'Tracked companies, ordered by name, with sector and ticker filters, a name or ticker search (q, best match first) and offset paging',
      dataPath: ['companies', 'items'],
      query: {
        sector: { type: 'string', description: 'A sector in any case, e.g. information technology' },
        ticker: { type: 'string', maxLength: 16, description: 'Exactly this ticker, any case, e.g. NWSC' },
        q: { type: 'string', maxLength: 100, description: 'Part of a name or the start of a ticker, any case; best matches first (exact ticker, exact name, ticker prefix, name prefix, a word of the name, anywhere in the name)' },
        limit: { type: 'integer', minimum: 1, maximum: CAPS.companies.maxPageSize, default: CAPS.companies.defaultPageSize },
        offset: { type: 'integer', minimum: 0, maximum: CAPS.companies.maxOffset, default: 0 },
      },
    },
    variables: (params) => ({
      sector: params.queryString('sector'),
      ticker: params.queryString('ticker'),
      q: params.queryString('q'),
      limit: params.queryInt('limit'),
      offset: params.queryInt('offset'),
    }),
    csv: true,
    data: (result) => result.companies.items,
    meta: (result) => ({ total: result.companies.total, limit: result.companies.limit, offset: result.companies.offset }),
  },
  {
    method: 'GET',
    path: '/v1/companies/:id',
    operation: 'GetCompany',
    doc: { summary: 'A company\u2019s profile', dataPath: ['company'] },
    variables: (params) => ({ id: params.pathInt('id') }),
    data: (result, variables) => found(result.company, companyNotFound(variables)),
  },
  statementRoute('/v1/companies/:id/income-statement', 'GetIncomeStatement', 'incomeStatement', 'income statement'),
  statementRoute('/v1/companies/:id/balance-sheet', 'GetBalanceSheet', 'balanceSheet', 'balance sheet'),
  statementRoute('/v1/companies/:id/cash-flow', 'GetCashFlow', 'cashFlow', 'cash flow statement'),
  statementRoute('/v1/companies/:id/ratios', 'GetRatios', 'ratios', 'ratios'),
  {
    method: 'GET',
    path: '/v1/companies/:id/data-quality',
    operation: 'GetDataQuality',
    doc: { summary: 'Data-quality checks over all of a company\u2019s statements: pass rates per check and the failing statements', dataPath: ['company', 'dataQuality'] },
    variables: (params) => ({ id: params.pathInt('id') }),
    data: (result, variables) => found(result.company, companyNotFound(variables)).dataQuality,
  },
  {
    method: 'GET',
    path: '/v1/companies/:id/periods',
    operation: 'ListPeriods',
    query: ['type'],
    csv: true,
    doc: { summary: 'Periods with data, newest first', dataPath: ['company', 'periods'], query: { type: { enum: ['quarter', 'annual'] } } },
    variables: (params) => ({ id: params.pathInt('id'), type: params.queryString('type')?.toUpperCase() }),
    data: (result, variables) => found(result.company, companyNotFound(variables)).periods,
  },
  {
    method: 'POST',
    path: '/v1/search',
    operation: 'Search',
    doc: {
      summary: 'Hybrid search over company documents (full text and vectors, fused)',
      dataPath: ['search'],
      body: {
        type: 'object', required: ['query'], additionalProperties: false,
        properties: {
          query: { type: 'string', minLength: 1, maxLength: CAPS.search.maxQueryChars },
          company_ids: { ...ID_LIST, minItems: 1, maxItems: CAPS.search.maxCompanyFilter },
          top_k: { type: 'integer', minimum: 1, maximum: CAPS.search.maxTopK, default: CAPS.search.defaultTopK },
          mode: { enum: ['hybrid', 'text', 'vector'] },
          ...SEARCH_FILTERS,
        },
      },
    },
    body: ['query', 'company_ids', 'top_k', 'mode', 'periods', 'doc_types', 'sections', 'published_from', 'published_to'],
    variables: (_params, body) => ({
      query: body!.requiredString('query'),
      companyIds: body!.intArray('company_ids'),
      topK: body!.int('top_k'),
      mode: body!.string('mode')?.toUpperCase(),
      periods: body!.stringArray('periods'),
      docTypes: body!.stringArray('doc_types'),
      sections: body!.stringArray('sections'),
      publishedFrom: body!.string('published_from'),
      publishedTo: body!.string('published_to'),
    }),
    data: (result) => result.search,
  },
  {
    method: 'GET',
    path: '/v1/documents/:id',
    operation: 'GetDocument',
    doc: { summary: 'A stored document with its passages (chunks) in reading order; a search result\u2019s chunk_id is one of them', dataPath: ['document'] },
    variables: (params) => ({ id: params.pathInt('id') }),
    data: (result) => result.document,
  },
  {
    method: 'POST',
    path: '/v1/documents',
    operation: 'IngestDocument',
    doc: {
      summary: 'Store a document of a company and index it (idempotent on its text)',
      dataPath: ['ingestDocument'],
      status: 201,
      body: {
        type: 'object', required: ['company_id', 'title', 'doc_type', 'content'], additionalProperties: false,
        properties: {
          company_id: { type: 'integer' }, title: { type: 'string' }, doc_type: { enum: CAPS.ingestDocument.docTypes }, content: { type: 'string' },
          format: { enum: ['text', 'markdown', 'html'] }, period: PERIOD, published_at: { type: 'string', format: 'date' }, source_url: { type: 'string', format: 'uri' },
          section: { type: 'string', maxLength: 300, description: 'Section title when the document is one section of a filing' },
        },
      },
    },
    body: ['company_id', 'title', 'doc_type', 'content', 'format', 'period', 'published_at', 'source_url', 'section'],
    maxBodyBytes: 'documents',
    variables: (_params, body) => ({
      input: {
        companyId: body!.requiredInt('company_id'),
        title: body!.requiredString('title'),
        docType: body!.requiredString('doc_type'),
        content: body!.requiredString('content'),
        format: body!.string('format')?.toUpperCase(),
        period: body!.string('period'),
        publishedAt: body!.string('published_at'),
        sourceUrl: body!.string('source_url'),
        section: body!.string('section'),
      },
    }),
    data: (result) => result.ingestDocument,
    status: (result) => (result.ingestDocument.created ? 201 : 200),
  },
  {
    method: 'POST',
    path: '/v1/ai/summarize',
    operation: 'Summarize',
    doc: {
      summary: 'An AI summary of a company and period, with citations and a grounding check',
      dataPath: ['summarize'],
      body: {
        type: 'object', required: ['company_id'], additionalProperties: false,
        properties: { company_id: { type: 'integer' }, period: PERIOD, summary_type: { enum: ['overview', 'profitability', 'balance_sheet', 'cash_flow', 'risks'] } },
      },
    },
    body: ['company_id', 'period', 'summary_type'],
    variables: (_params, body) => ({
      input: { companyId: body!.requiredInt('company_id'), period: body!.string('period'), summaryType: body!.string('summary_type') },
    }),
    data: (result) => result.summarize,
  },
  {
    method: 'POST',
    path: '/v1/ai/compare',
    operation: 'Compare',
    doc: {
      summary: 'An AI comparison of 2 to 5 companies, with a table of the compared measures',
      dataPath: ['compare'],
      body: {
        type: 'object', required: ['company_ids'], additionalProperties: false,
        properties: { company_ids: { ...ID_LIST, minItems: CAPS.compare.minCompanies, maxItems: CAPS.compare.maxCompanies }, period: PERIOD, metrics: { type: 'array', minItems: 1, maxItems: 20, items: { enum: COMPARE_METRICS.map(snakeCase) }, description: 'Measures to compare (default: revenue, growth, margins, free cash flow, leverage, liquidity, return on equity)' } },
      },
    },
    body: ['company_ids', 'period', 'metrics'],
    variables: (_params, body) => ({
      input: { companyIds: body!.intArray('company_ids') ?? [], period: body!.string('period'), metrics: body!.stringArray('metrics') },
    }),
    data: (result) => result.compare,
  },
  {
    method: 'POST',
    path: '/v1/ai/chat',
    operation: 'Chat',
    doc: {
      summary: 'Chat about companies; streamed as Server-Sent Events with Accept: text/event-stream or "stream": true',
      dataPath: ['chat'],
      body: {
        type: 'object', required: ['messages'], additionalProperties: false,
        properties: {
          messages: {
            type: 'array', minItems: 1, maxItems: CAPS.chat.maxMessages,
            items: { type: 'object', required: ['role', 'content'], additionalProperties: false, properties: { role: { enum: ['user', 'assistant'] }, content: { type: 'string', minLength: 1, maxLength: CAPS.chat.maxMessageChars } } },
          },
          company_ids: ID_LIST,
          conversation_id: { type: 'string', format: 'uuid' },
          stream: { type: 'boolean' },
        },
      },
    },
    body: ['messages', 'company_ids', 'conversation_id', 'stream'],
    events: { ChatStatusEvent: 'status', ChatTokenEvent: 'token', ChatCitationsEvent: 'citations', ChatDoneEvent: 'done', ChatErrorEvent: 'error' },
    variables: (_params, body) => ({
      input: { messages: body!.objectArray('messages', ['role', 'content']), companyIds: body!.intArray('company_ids'), conversationId: body!.string('conversation_id') },
    }),
    data: (event) => event,
  },
  {
    method: 'GET',
    path: '/v1/admin/keys',
    operation: 'ListApiKeys',
    doc: { summary: 'Every API key, revoked ones included, oldest first; never the keys themselves', dataPath: ['apiKeys'] },
    variables: () => ({}),
    data: (result) => result.apiKeys,
  },
  {
    method: 'POST',
    path: '/v1/admin/keys',
    operation: 'CreateApiKey',
    doc: {
      summary: 'Create an API key: `key` is in this answer and nowhere else',
      dataPath: ['createApiKey'],
      status: 201,
      body: {
        type: 'object', required: ['name', 'role'], additionalProperties: false,
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 100 },
          role: { enum: [...ROLES] },
          forwards_clients: { type: 'boolean', description: "A front end's key: its requests that name a visitor in X-Forwarded-For are rate-limited as that visitor" },
        },
      },
    },
    body: ['name', 'role', 'forwards_clients'],
    variables: (_params, body) => ({ input: { name: body!.requiredString('name'), role: body!.requiredString('role'), forwardsClients: body!.bool('forwards_clients') } }),
    data: (result) => result.createApiKey,
    status: () => 201,
  },
  {
    method: 'DELETE',
    path: '/v1/admin/keys/:id',
    operation: 'RevokeApiKey',
    doc: { summary: 'Revoke an API key; every instance refuses it within a second (revoking again keeps the first date)', dataPath: ['revokeApiKey'] },
    variables: (params) => ({ id: params.pathInt('id') }),
    data: (result) => result.revokeApiKey,
  },
  {
    method: 'GET',
    path: '/v1/ratios/definitions',
    operation: 'ListRatioDefinitions',
    csv: true,
    doc: { summary: 'Every ratio with its key, category, label and formula', dataPath: ['ratioDefinitions'] },
    variables: () => ({}),
    // A ratio's key as REST names it everywhere else (the ratios route's keys).
    data: (result) => result.ratioDefinitions.map((definition: { key: string }) => ({ ...definition, key: snakeCase(definition.key) })),
  },
];
