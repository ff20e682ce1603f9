/**
 * Names for the generated types (src/generated, never edited by hand): the REST schemas of the OpenAPI document and
 * the request bodies, as a caller imports them.
 */
import type { components, operations } from './generated/openapi.js';

type Schemas = components['schemas'];

export type Company = Schemas['Company'];
export type CompanyProfile = Schemas['CompanyProfile'];
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
export type SummarizeRequest = Schemas['SummarizeRequest'];
export type Comparison = Schemas['Comparison'];
export type CompareRequest = Schemas['CompareRequest'];
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
export type QueryOf<Operation extends keyof operations> = Omit<NonNullable<operations[Operation]['parameters']['query']>, 'format'>;

export type ListCompaniesQuery = QueryOf<'ListCompanies'>;
/** One period of a statement (`period`, default the newest quarter). */
export type StatementQuery = Omit<QueryOf<'GetIncomeStatement'>, 'type' | 'limit'>;
/** The last periods of a statement, newest first (`type`, default quarter; `limit`). */
export type StatementHistoryQuery = Omit<QueryOf<'GetIncomeStatement'>, 'period'>;
export type RatiosQuery = Omit<QueryOf<'GetRatios'>, 'type' | 'limit'>;
export type RatiosHistoryQuery = Omit<QueryOf<'GetRatios'>, 'period'>;
export type PeriodsQuery = QueryOf<'ListPeriods'>;

/** One page of a list and where it sits in the whole. */
export interface Page<T> {
  data: T[];
  meta: PageMeta;
}

export type { components, operations, paths } from './generated/openapi.js';
export type { ChatSubscription } from './generated/graphql-chat.js';
