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
export type Role = Schemas['Role'];
export type ErrorEnvelope = Schemas['Error'];

/** Query parameters of a route, by its operation id. */
export type QueryOf<Operation extends keyof operations> = NonNullable<operations[Operation]['parameters']['query']>;

export type ListCompaniesQuery = QueryOf<'ListCompanies'>;
export type StatementQuery = QueryOf<'GetIncomeStatement'>;
export type RatiosQuery = QueryOf<'GetRatios'>;
export type PeriodsQuery = QueryOf<'ListPeriods'>;

/** One page of a list and where it sits in the whole. */
export interface Page<T> {
  data: T[];
  meta: PageMeta;
}

export type { components, operations, paths } from './generated/openapi.js';
export type { ChatSubscription } from './generated/graphql-chat.js';
