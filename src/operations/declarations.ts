import { snakeCase } from '../shared/case';
import { CAPS } from './caps';
import { ROLES } from './roles';
import { PERIOD_FORMS, POINT_PERIOD_FORMS } from './period-forms';
import type { JsonSchema, OperationDeclaration } from './declaration';

/**
 * Every operation of the service, declared once: each root field of the GraphQL schema, and each nested field that
 * REST serves as a route of its own. Resolvers (`@CatalogAuthorized`), the rate limiter, the cost estimator, REST
 * validation and variables, the OpenAPI document, the SDKs and the docs' route table all read this list.
 *
 * REST names are snake_case; a route's stored operation takes them in camelCase (`top_k` → `$topK`), and a mutation's
 * `$input` takes the body's fields. Enum values are accepted in any case.
 */

const ID: JsonSchema = { type: 'integer', minimum: 1 };
const ID_LIST: JsonSchema = { type: 'array', items: { type: 'integer' } };
const PERIOD: JsonSchema = {
  type: 'string',
  description: PERIOD_FORMS,
  examples: ['FY2024', 'Q3-2026', 'latest', 'ttm'],
};
const POINT_PERIOD: JsonSchema = {
  type: 'string',
  description: POINT_PERIOD_FORMS,
  examples: ['FY2024', 'Q3-2026', 'latest'],
};
const STRING_LIST: JsonSchema = {
  type: 'array',
  items: { type: 'string' },
  minItems: 1,
  maxItems: CAPS.search.maxListFilter,
};
const PERIOD_TYPES = ['annual', 'quarter'];

/** The input of a statement route: one period, or (type, limit) several, newest first. */
const STATEMENT_INPUT = {
  type: 'object',
  required: ['id'],
  additionalProperties: false,
  properties: {
    id: ID,
    period: { ...PERIOD, description: `One period: ${PERIOD_FORMS}. Leave it out to use type and limit.` },
    type: {
      enum: PERIOD_TYPES,
      description:
        'Several periods of this type, newest first: data is then an array (default quarter when limit is given)',
    },
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: CAPS.history.maxPeriods,
      default: CAPS.history.defaultPeriods,
      description: 'How many periods of `type`, newest first',
    },
    provenance: {
      type: 'boolean',
      default: false,
      description: 'Add `provenance`: the SEC source of each imported value',
    },
  },
};

const { companyProfile: PROFILE } = CAPS;
/** The fields of a company the API writes: required on creation, each optional on a change. */
const COMPANY_PROFILE: Record<string, JsonSchema> = {
  name: { type: 'string', minLength: 1, maxLength: PROFILE.maxName },
  ticker: {
    type: 'string',
    minLength: 1,
    maxLength: PROFILE.maxTicker,
    pattern: '^[A-Za-z0-9][A-Za-z0-9.-]*$',
    description: 'Letters, digits, "." or "-"; stored in upper case, unique in any case',
    examples: ['NWSC', 'BRK.B', '2330'],
  },
  sector: {
    type: 'string',
    minLength: 1,
    maxLength: PROFILE.maxSector,
    description: 'e.g. a GICS sector; an existing sector in any case is written as stored',
    examples: ['Information Technology'],
  },
  cik: {
    type: 'integer',
    minimum: 1,
    maximum: PROFILE.maxCik,
    description: 'SEC Central Index Key: a later SEC import of this CIK (or of this ticker) fills this company',
  },
  currency: {
    type: 'string',
    pattern: '^[A-Za-z]{3}$',
    description: 'ISO 4217 reporting currency (default USD)',
    examples: ['USD', 'EUR'],
  },
  fiscal_year_end_month: {
    type: 'integer',
    minimum: 1,
    maximum: 12,
    description: 'Month in which the fiscal year ends (default 12)',
  },
  description: {
    type: 'string',
    maxLength: PROFILE.maxDescription,
    description: 'On a change, an empty description removes it',
  },
};

const ONE_COMPANY = { type: 'object', required: ['id'], additionalProperties: false, properties: { id: ID } };
const NO_COMPANY = 'No company with id {id}';

function statement(field: string, path: string, operation: string, noun: string): OperationDeclaration {
  return {
    name: `company.${field}`,
    kind: 'field',
    role: 'viewer',
    rateClass: 'reads',
    rest: {
      method: 'GET',
      path,
      operation,
      summary: `One ${noun} of a company for a period, or (type, limit) the ${noun} of the last periods, newest first`,
      input: STATEMENT_INPUT,
      data: `company.${field}`,
      missing: NO_COMPANY,
      csv: true,
    },
  };
}

export const DECLARATIONS: readonly OperationDeclaration[] = [
  {
    name: 'companies',
    kind: 'query',
    role: 'viewer',
    rateClass: 'reads',
    cost: { sizeArgument: 'limit', defaultSize: CAPS.companies.defaultPageSize },
    rest: {
      method: 'GET',
      path: '/v1/companies',
      operation: 'ListCompanies',
      summary:
        'Tracked companies, ordered by name, with sector and ticker filters, a name or ticker search (q, best match first) and offset paging',
      input: {
        type: 'object',
        additionalProperties: false,
        properties: {
          sector: { type: 'string', description: 'A sector in any case, e.g. information technology' },
          ticker: { type: 'string', maxLength: 16, description: 'Exactly this ticker, any case, e.g. NWSC' },
          q: {
            type: 'string',
            maxLength: 100,
            description:
              'Part of a name or the start of a ticker, any case; best matches first (exact ticker, exact name, ticker prefix, name prefix, a word of the name, anywhere in the name)',
          },
          limit: {
            type: 'integer',
            minimum: 1,
            maximum: CAPS.companies.maxPageSize,
            default: CAPS.companies.defaultPageSize,
          },
          offset: { type: 'integer', minimum: 0, maximum: CAPS.companies.maxOffset, default: 0 },
        },
      },
      data: 'companies',
      page: true,
      csv: true,
    },
  },
  {
    name: 'screen',
    kind: 'query',
    role: 'viewer',
    rateClass: 'reads',
    cost: { sizeArgument: 'limit', defaultSize: CAPS.screener.defaultPageSize },
    rest: {
      method: 'GET',
      path: '/v1/screener',
      operation: 'Screen',
      summary:
        'Companies whose statement fields and ratios of a period pass a filter, with sector, currency and size filters, sorted, with offset paging and a total',
      input: {
        type: 'object',
        additionalProperties: false,
        properties: {
          filter: {
            type: 'string',
            maxLength: CAPS.screener.maxArgumentChars,
            description:
              'Conditions joined by commas, each name>value (>=, <, <=, =, !=) or a range name=low..high (ends included); a name is a statement field or ratio in snake_case, a value a number that may end in %, K, M, B or T',
            examples: ['gross_margin>0.5,revenue_growth>0.2', 'net_margin=10%..30%,revenue>=1B'],
          },
          period: {
            ...PERIOD,
            description: `The period screened for each company: ${PERIOD_FORMS}`,
            default: 'latest-fy',
          },
          sort: {
            type: 'string',
            maxLength: CAPS.screener.maxArgumentChars,
            description:
              'A field or ratio, or name, ticker, sector, currency or size; "-" in front for descending (companies without the value come last)',
            default: 'name',
            examples: ['-net_margin'],
          },
          fields: {
            type: 'string',
            maxLength: CAPS.screener.maxArgumentChars,
            description:
              'The fields and ratios each row returns, joined by commas (default: those filtered and sorted on, else revenue, net_income, gross_margin, net_margin)',
            examples: ['revenue,gross_margin,net_margin'],
          },
          sector: {
            type: 'string',
            maxLength: CAPS.screener.maxArgumentChars,
            description: 'Sectors joined by commas, any case',
          },
          currency: {
            type: 'string',
            maxLength: CAPS.screener.maxArgumentChars,
            description: 'Reporting currencies joined by commas (ISO 4217), e.g. USD',
          },
          size: {
            type: 'string',
            maxLength: CAPS.screener.maxArgumentChars,
            description:
              'Sizes by annual revenue joined by commas: mega (200B and over), large (10B to 200B), mid (2B to 10B), small (300M to 2B), micro (under 300M)',
          },
          limit: {
            type: 'integer',
            minimum: 1,
            maximum: CAPS.screener.maxPageSize,
            default: CAPS.screener.defaultPageSize,
          },
          offset: { type: 'integer', minimum: 0, maximum: CAPS.screener.maxOffset, default: 0 },
        },
      },
      data: 'screen',
      page: true,
    },
  },
  {
    name: 'company',
    kind: 'query',
    role: 'viewer',
    rateClass: 'reads',
    rest: {
      method: 'GET',
      path: '/v1/companies/:id',
      operation: 'GetCompany',
      summary: 'A company\u2019s profile',
      input: ONE_COMPANY,
      data: 'company',
      missing: NO_COMPANY,
    },
  },
  statement('incomeStatement', '/v1/companies/:id/income-statement', 'GetIncomeStatement', 'income statement'),
  statement('balanceSheet', '/v1/companies/:id/balance-sheet', 'GetBalanceSheet', 'balance sheet'),
  statement('cashFlow', '/v1/companies/:id/cash-flow', 'GetCashFlow', 'cash flow statement'),
  statement('ratios', '/v1/companies/:id/ratios', 'GetRatios', 'ratios'),
  {
    name: 'company.dataQuality',
    kind: 'field',
    role: 'viewer',
    rateClass: 'reads',
    rest: {
      method: 'GET',
      path: '/v1/companies/:id/data-quality',
      operation: 'GetDataQuality',
      summary:
        'Data-quality checks over all of a company\u2019s statements: pass rates per check and the failing statements',
      input: ONE_COMPANY,
      data: 'company.dataQuality',
      missing: NO_COMPANY,
    },
  },
  {
    name: 'company.periods',
    kind: 'field',
    role: 'viewer',
    rateClass: 'reads',
    rest: {
      method: 'GET',
      path: '/v1/companies/:id/periods',
      operation: 'ListPeriods',
      summary: 'Periods with data, newest first',
      input: {
        type: 'object',
        required: ['id'],
        additionalProperties: false,
        properties: { id: ID, type: { enum: ['quarter', 'annual'] } },
      },
      data: 'company.periods',
      missing: NO_COMPANY,
      csv: true,
    },
  },
  {
    name: 'createCompany',
    kind: 'mutation',
    role: 'admin',
    rateClass: 'reads',
    rest: {
      method: 'POST',
      path: '/v1/companies',
      operation: 'CreateCompany',
      summary: 'Start tracking a company: 409 when its ticker or CIK is already another company\u2019s',
      input: {
        type: 'object',
        required: ['name', 'ticker', 'sector'],
        additionalProperties: false,
        properties: COMPANY_PROFILE,
      },
      data: 'createCompany',
      status: 201,
    },
  },
  {
    name: 'updateCompany',
    kind: 'mutation',
    role: 'admin',
    rateClass: 'reads',
    rest: {
      method: 'PATCH',
      path: '/v1/companies/:id',
      operation: 'UpdateCompany',
      summary:
        'Change the given fields of a company (the others keep their value); 409 for a ticker or CIK of another company',
      input: {
        type: 'object',
        required: ['id'],
        additionalProperties: false,
        properties: { id: ID, ...COMPANY_PROFILE },
      },
      data: 'updateCompany',
    },
  },
  { name: 'sectors', kind: 'query', role: 'viewer', rateClass: 'reads' },
  {
    name: 'search',
    kind: 'query',
    role: 'analyst',
    rateClass: 'search',
    cost: { sizeArgument: 'topK', defaultSize: CAPS.search.defaultTopK },
    rest: {
      method: 'POST',
      path: '/v1/search',
      operation: 'Search',
      summary: 'Hybrid search over company documents (full text and vectors, fused)',
      input: {
        type: 'object',
        required: ['query'],
        additionalProperties: false,
        properties: {
          query: { type: 'string', minLength: 1, maxLength: CAPS.search.maxQueryChars },
          company_ids: { ...ID_LIST, minItems: 1, maxItems: CAPS.search.maxCompanyFilter },
          top_k: { type: 'integer', minimum: 1, maximum: CAPS.search.maxTopK, default: CAPS.search.defaultTopK },
          mode: { enum: ['hybrid', 'text', 'vector'] },
          periods: { ...STRING_LIST, description: 'Fiscal periods of the documents, e.g. ["FY2024", "Q3-2024"]' },
          doc_types: { ...STRING_LIST, description: 'Document types, e.g. ["10-K", "earnings-call"]' },
          sections: {
            ...STRING_LIST,
            description: 'Sections: an item ("Item 7") or words of a section title ("risk factors")',
          },
          published_from: { type: 'string', format: 'date', description: 'Documents published on or after this date' },
          published_to: { type: 'string', format: 'date', description: 'Documents published on or before this date' },
        },
      },
      data: 'search',
    },
  },
  {
    name: 'document',
    kind: 'query',
    role: 'analyst',
    rateClass: 'reads',
    rest: {
      method: 'GET',
      path: '/v1/documents/:id',
      operation: 'GetDocument',
      summary:
        'A stored document with its passages (chunks) in reading order; a search result\u2019s chunk_id is one of them',
      input: { type: 'object', required: ['id'], additionalProperties: false, properties: { id: ID } },
      data: 'document',
    },
  },
  {
    name: 'ingestDocument',
    kind: 'mutation',
    role: 'admin',
    rateClass: 'search',
    rest: {
      method: 'POST',
      path: '/v1/documents',
      operation: 'IngestDocument',
      summary:
        'Store a document of a company (text, or a PDF in base64) and index it page by page (idempotent on its text)',
      input: {
        type: 'object',
        required: ['company_id', 'title', 'doc_type'],
        additionalProperties: false,
        properties: {
          company_id: { type: 'integer' },
          title: { type: 'string' },
          doc_type: { enum: CAPS.ingestDocument.docTypes },
          content: {
            type: 'string',
            description: 'The text of the document, written in `format`; or send its bytes in `content_base64` instead',
          },
          format: {
            enum: ['text', 'markdown', 'html'],
            description: 'How `content` is written (default text); form feeds in text separate pages',
          },
          content_base64: {
            type: 'string',
            contentEncoding: 'base64',
            description:
              'The document\u2019s bytes in standard base64, instead of `content`: a PDF (its text is read page by page), or UTF-8 text',
          },
          content_type: {
            type: 'string',
            examples: ['application/pdf'],
            description: 'Media type of `content_base64`: application/pdf, text/plain, text/markdown or text/html',
          },
          period: {
            type: 'string',
            description: 'The fiscal period the document covers: Q<1-4>-<yyyy> or FY<yyyy>',
            examples: ['FY2024', 'Q3-2026'],
          },
          published_at: { type: 'string', format: 'date' },
          source_url: { type: 'string', format: 'uri' },
          section: {
            type: 'string',
            maxLength: 300,
            description: 'Section title when the document is one section of a filing',
          },
        },
      },
      data: 'ingestDocument',
      status: 201,
      documentBody: true,
    },
  },
  {
    name: 'summarize',
    kind: 'mutation',
    role: 'analyst',
    rateClass: 'ai',
    onePerRequest: true,
    rest: {
      method: 'POST',
      path: '/v1/ai/summarize',
      operation: 'Summarize',
      summary: 'An AI summary of a company and period, with citations and a grounding check',
      input: {
        type: 'object',
        required: ['company_id'],
        additionalProperties: false,
        properties: {
          company_id: { type: 'integer' },
          period: POINT_PERIOD,
          summary_type: { enum: CAPS.summarize.summaryTypes },
        },
      },
      data: 'summarize',
    },
  },
  {
    name: 'compare',
    kind: 'mutation',
    role: 'analyst',
    rateClass: 'ai',
    onePerRequest: true,
    rest: {
      method: 'POST',
      path: '/v1/ai/compare',
      operation: 'Compare',
      summary: 'An AI comparison of 2 to 5 companies, with a table of the compared measures',
      input: {
        type: 'object',
        required: ['company_ids'],
        additionalProperties: false,
        properties: {
          company_ids: { ...ID_LIST, minItems: CAPS.compare.minCompanies, maxItems: CAPS.compare.maxCompanies },
          period: POINT_PERIOD,
          metrics: {
            type: 'array',
            minItems: 1,
            maxItems: CAPS.compare.maxMetrics,
            items: { enum: CAPS.compare.metrics.map(snakeCase) },
            description:
              'Measures to compare (default: revenue, growth, margins, free cash flow, leverage, liquidity, return on equity)',
          },
        },
      },
      data: 'compare',
    },
  },
  {
    name: 'chat',
    kind: 'subscription',
    role: 'analyst',
    rateClass: 'ai',
    onePerRequest: true,
    rest: {
      method: 'POST',
      path: '/v1/ai/chat',
      operation: 'Chat',
      summary: 'Chat about companies; streamed as Server-Sent Events with Accept: text/event-stream or "stream": true',
      input: {
        type: 'object',
        required: ['messages'],
        additionalProperties: false,
        properties: {
          messages: {
            type: 'array',
            minItems: 1,
            maxItems: CAPS.chat.maxMessages,
            items: {
              type: 'object',
              required: ['role', 'content'],
              additionalProperties: false,
              properties: {
                role: { enum: ['user', 'assistant'] },
                content: { type: 'string', minLength: 1, maxLength: CAPS.chat.maxMessageChars },
              },
            },
          },
          company_ids: ID_LIST,
          conversation_id: { type: 'string', format: 'uuid' },
          stream: { type: 'boolean' },
        },
      },
      data: 'chat',
      events: {
        ChatStatusEvent: 'status',
        ChatTokenEvent: 'token',
        ChatCitationsEvent: 'citations',
        ChatDoneEvent: 'done',
        ChatErrorEvent: 'error',
      },
    },
  },
  {
    name: 'apiKeys',
    kind: 'query',
    role: 'admin',
    rateClass: 'reads',
    rest: {
      method: 'GET',
      path: '/v1/admin/keys',
      operation: 'ListApiKeys',
      summary: 'Every API key, revoked ones included, oldest first; never the keys themselves',
      data: 'apiKeys',
    },
  },
  {
    name: 'createApiKey',
    kind: 'mutation',
    role: 'admin',
    rateClass: 'reads',
    rest: {
      method: 'POST',
      path: '/v1/admin/keys',
      operation: 'CreateApiKey',
      summary: 'Create an API key: `key` is in this answer and nowhere else',
      input: {
        type: 'object',
        required: ['name', 'role'],
        additionalProperties: false,
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 100 },
          role: { enum: [...ROLES] },
          forwards_clients: {
            type: 'boolean',
            description:
              "A front end's key: its requests that name a visitor in X-Forwarded-For are rate-limited as that visitor",
          },
        },
      },
      data: 'createApiKey',
      status: 201,
    },
  },
  {
    name: 'revokeApiKey',
    kind: 'mutation',
    role: 'admin',
    rateClass: 'reads',
    rest: {
      method: 'DELETE',
      path: '/v1/admin/keys/:id',
      operation: 'RevokeApiKey',
      summary: 'Revoke an API key; every instance refuses it within a second (revoking again keeps the first date)',
      input: { type: 'object', required: ['id'], additionalProperties: false, properties: { id: ID } },
      data: 'revokeApiKey',
    },
  },
  {
    name: 'ratioDefinitions',
    kind: 'query',
    role: 'viewer',
    rateClass: 'reads',
    rest: {
      method: 'GET',
      path: '/v1/ratios/definitions',
      operation: 'ListRatioDefinitions',
      summary: 'Every ratio with its key, category, label and formula',
      data: 'ratioDefinitions',
      csv: true,
    },
  },
];
