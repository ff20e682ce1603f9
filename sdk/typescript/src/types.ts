/**
 * Names for the generated types (src/generated, never edited by hand): the REST schemas of the OpenAPI document and
 * the request bodies, as a caller imports them.
 */
import type { components, operations } from './generated/openapi.js';

type Schemas = components['schemas'];

export type Company = Schemas['Company'];
export type ScreenRow = Schemas['ScreenRow'];
export type ScreenValue = Schemas['ScreenValue'];
export type CompanyProfile = Schemas['CompanyProfile'];
export type CreateCompanyRequest = Schemas['CreateCompanyRequest'];
export type UpdateCompanyRequest = Schemas['UpdateCompanyRequest'];
export type PageMeta = Schemas['PageMeta'];
export type IncomeStatement = Schemas['IncomeStatement'];
export type BalanceSheet = Schemas['BalanceSheet'];
export type CashFlow = Schemas['CashFlow'];
export type Ratios = Schemas['Ratios'];
export type RatioDefinition = Schemas['RatioDefinition'];
export type Period = Schemas['Period'];
export type PeriodType = Schemas['PeriodType'];
export type DataQualityCheck = Schemas['DataQualityCheck'];
export type SearchResult = Schemas['SearchResult'];
export type SearchRequest = Schemas['SearchRequest'];
export type Document = Schemas['Document'];
export type Passage = Schemas['Passage'];
export type StoredDocument = Schemas['StoredDocument'];
export type IngestedDocument = Schemas['IngestedDocument'];
export type IngestDocumentRequest = Schemas['IngestDocumentRequest'];
export type Summary = Schemas['Summary'];
/**
 * A period as the service reads it (any case): FY2024, Q3-2024, latest (the newest quarter), latest-fy or ttm. Any
 * string is taken too, such as a `Period.period` the service answered; the service refuses one it cannot read.
 */
export type PeriodName = `FY${number}` | `Q${1 | 2 | 3 | 4}-${number}` | 'latest' | 'latest-fy' | 'ttm' | (string & {});
/** A period that is one reported period (everything but ttm). */
export type PointPeriodName = Exclude<PeriodName, 'ttm'>;

export type SummarizeRequest = Omit<Schemas['SummarizeRequest'], 'period'> & { period?: PointPeriodName };
export type Comparison = Schemas['Comparison'];
export type CompareRequest = Omit<Schemas['CompareRequest'], 'period'> & { period?: PointPeriodName };
export type Citation = Schemas['Citation'];
export type Claim = Schemas['Claim'];
export type Grounding = Schemas['Grounding'];
export type ChatRequest = Schemas['ChatRequest'];
/** One event of a streamed chat answer (REST): `{event: 'status' | 'token' | 'citations' | 'done' | 'error', data}`. */
export type ChatEvent = Schemas['ChatEvent'];
export type ChatDoneEvent = Schemas['ChatDoneEvent'];
export type Token = Schemas['Token'];
export type ApiKey = Schemas['ApiKey'];
export type CreatedApiKey = Schemas['CreatedApiKey'];
export type CreateApiKeyRequest = Schemas['CreateApiKeyRequest'];
export type Role = Schemas['Role'];
export type ErrorEnvelope = Schemas['Error'];

/** Query parameters of a route, by its operation id (`format` left out: the SDK reads JSON, not CSV). */
export type QueryOf<Operation extends keyof operations> = Omit<
  NonNullable<operations[Operation]['parameters']['query']>,
  'format'
>;

export type ListCompaniesQuery = QueryOf<'ListCompanies'>;
/** A screen: `filter` (e.g. `gross_margin>0.5,revenue_growth>20%`), `period` (default latest-fy), `sort`, `fields`, `sector`, `currency`, `size`, paging. */
export type ScreenQuery = Omit<QueryOf<'Screen'>, 'period'> & { period?: PeriodName };
/** One period of a statement (`period`, default the newest quarter). */
export type StatementQuery = Omit<QueryOf<'GetIncomeStatement'>, 'type' | 'limit' | 'period'> & { period?: PeriodName };
/** The last periods of a statement, newest first (`type`, default quarter; `limit`). */
export type StatementHistoryQuery = Omit<QueryOf<'GetIncomeStatement'>, 'period'>;
export type RatiosQuery = Omit<QueryOf<'GetRatios'>, 'type' | 'limit' | 'period'> & { period?: PeriodName };
export type RatiosHistoryQuery = Omit<QueryOf<'GetRatios'>, 'period'>;
export type PeriodsQuery = QueryOf<'ListPeriods'>;

/** One page of a list and where it sits in the whole. */
export interface Page<T> {
  data: T[];
  meta: PageMeta;
}

export type { components, operations, paths } from './generated/openapi.js';
export type { ChatSubscription } from './generated/graphql-chat.js';
/** The GraphQL schema's types (Company, IncomeStatement, Ratios …), to type the data of `client.graphql()`. */
export type * as Schema from './generated/graphql.js';
