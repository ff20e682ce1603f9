/**
 * The front end's one way to the service: its TypeScript SDK (@financial-insights/sdk), pointed at API_URL. Pages
 * and route handlers call these functions; nothing else here knows a URL or a response shape of the API.
 */
import { unstable_cache } from 'next/cache';
import { ApiError, FinancialInsightsClient, NotFoundError } from '@financial-insights/sdk';
import type {
  Citation,
  Company,
  CompanyProfile,
  Comparison,
  DataQualityCheck,
  Document,
  Period,
  RatioDefinition,
  SearchResult,
  IncomeStatement,
  BalanceSheet,
  CashFlow,
  Ratios,
  ScreenRow,
} from '@financial-insights/sdk';
import { serverApiUrl, webApiKey } from './config';
import { COMPANY_PAGE_QUERY, type CompanyPageData } from './company-query';

export type {
  Citation,
  Company,
  CompanyProfile,
  Comparison,
  DataQualityCheck,
  Document,
  Period,
  RatioDefinition,
  ScreenRow,
  SearchResult,
};
/** The statement of each kind, as the SDK types the REST answer (net_income, gross_margin …). */
export interface StatementOfKind {
  income: IncomeStatement;
  balance: BalanceSheet;
  cashFlow: CashFlow;
  ratios: Ratios;
}

/**
 * Reads go with the front end's own key (WEB_API_KEY, a forwarding key): with the visitor's address in
 * X-Forwarded-For the service counts them against that visitor's budget; without one (a cached page rendered for
 * everyone) against the key's. Reads may be retried by the SDK, but a refusal with a long Retry-After is shown at
 * once instead of holding the page; a person waiting on AI sees a refusal at once.
 */
const reader = (visitor: string | null = null) =>
  new FinancialInsightsClient({
    baseUrl: serverApiUrl(),
    apiKey: webApiKey(),
    maxRetries: 1,
    maxRetryDelayMs: 2_000,
    ...(visitor ? { headers: { 'x-forwarded-for': visitor } } : {}),
  });
const asUser = (token: string) =>
  new FinancialInsightsClient({ baseUrl: serverApiUrl(), accessToken: token, maxRetries: 0, timeoutMs: 120_000 });

/** What a page or route says of a failure: the service's status, code, message and Retry-After, or 502 when unreachable. */
export interface Failure {
  status: number;
  code: string;
  message: string;
  retryAfterSeconds: number | null;
}

export function asFailure(error: unknown): Failure {
  if (error instanceof ApiError && error.status > 0)
    return {
      status: error.status,
      code: error.code,
      message: error.message,
      retryAfterSeconds: error.retryAfterSeconds ?? null,
    };
  const message = error instanceof Error ? error.message : String(error);
  return {
    status: 502,
    code: 'UPSTREAM_ERROR',
    message: `The financial insights service is not reachable: ${message}`,
    retryAfterSeconds: null,
  };
}

export const isNotFound = (error: unknown) => error instanceof NotFoundError;

export async function listCompanies(
  query: { sector?: string | null; limit: number; offset: number },
  visitor: string | null,
): Promise<{ items: Company[]; total: number }> {
  const { data, meta } = await reader(visitor).companies.list({
    limit: query.limit,
    offset: query.offset,
    ...(query.sector ? { sector: query.sector } : {}),
  });
  return { items: data, total: meta.total };
}

async function readDirectory(): Promise<Company[]> {
  const all: Company[] = [];
  for await (const company of reader().companies.all({ limit: 100 })) all.push(company);
  return all;
}

/**
 * Every tracked company (the service pages them), kept by this server for an hour, as the company pages are: the
 * list, the pickers and the peers all read it, and companies are rarely added. A failed read is not kept.
 */
export const allCompanies = unstable_cache(readDirectory, ['company-directory'], { revalidate: 3600 });

/** The companies that pass a screen (the service's screener), one page with the total. */
export async function screen(
  query: { filter?: string; period?: string; sort?: string; sector?: string; limit: number; offset: number },
  visitor: string | null,
): Promise<{ items: ScreenRow[]; total: number }> {
  const defined = Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined && value !== ''));
  const { data, meta } = await reader(visitor).companies.screen(defined);
  return { items: data, total: meta.total };
}

/** The ratios' definitions (key, category, label, formula), kept an hour: they change only with the service. */
export const ratioDefinitions = unstable_cache(() => reader().statements.ratioDefinitions(), ['ratio-definitions'], {
  revalidate: 3600,
});

/** What a company page shows, in one GraphQL request (see company-query.ts). */
export function companyPageData(
  ticker: string,
  last: number,
  type: 'ANNUAL' | 'QUARTER',
  ttm: boolean,
  visitor: string | null = null,
): Promise<CompanyPageData> {
  return reader(visitor).graphql<CompanyPageData>(COMPANY_PAGE_QUERY, { ticker, last, type, ttm });
}

/** The company with this ticker (any case); NotFoundError naming it otherwise. */
export function companyByTicker(ticker: string, visitor: string | null): Promise<CompanyProfile> {
  return reader(visitor).companies.byTicker(ticker);
}

export function periods(companyId: number, type: 'annual' | 'quarter', visitor: string | null): Promise<Period[]> {
  return reader(visitor).companies.periods(companyId, { type });
}

export type StatementKind = 'income' | 'balance' | 'cashFlow' | 'ratios';

/** One statement of a period (FY2024, Q3-2025, ttm) with the SEC provenance of imported values; null when absent. */
export async function statement<K extends StatementKind>(
  companyId: number,
  kind: K,
  period: string,
  visitor: string | null,
): Promise<StatementOfKind[K] | null> {
  const client = reader(visitor);
  const read: { [Kind in StatementKind]: () => Promise<StatementOfKind[Kind]> } = {
    income: () => client.statements.income(companyId, { period, provenance: true }),
    balance: () => client.statements.balanceSheet(companyId, { period, provenance: true }),
    cashFlow: () => client.statements.cashFlow(companyId, { period, provenance: true }),
    ratios: () => client.statements.ratios(companyId, { period }),
  };
  try {
    return await read[kind]();
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** Exchanges an API key for a short-lived access token (OAuth 2.0 client credentials); the role comes with it. */
export async function signIn(apiKey: string): Promise<{ token: string; role: string; expiresIn: number }> {
  const token = await new FinancialInsightsClient({
    baseUrl: serverApiUrl(),
    apiKey: undefined,
    maxRetries: 0,
  }).auth.token(apiKey);
  return { token: token.access_token, role: token.role, expiresIn: token.expires_in };
}

export function search(
  token: string,
  query: { query: string; companyIds?: number[]; docTypes?: string[]; periods?: string[]; topK?: number },
): Promise<SearchResult[]> {
  return asUser(token).search({
    query: query.query,
    top_k: query.topK ?? 10,
    ...(query.companyIds?.length ? { company_ids: query.companyIds } : {}),
    ...(query.docTypes?.length ? { doc_types: query.docTypes } : {}),
    ...(query.periods?.length ? { periods: query.periods } : {}),
  });
}

/** A stored document with its passages in reading order (analysts only, as search). */
export function readDocument(token: string, id: number): Promise<Document> {
  return asUser(token).documents.get(id);
}

export function compare(
  token: string,
  input: { companyIds: number[]; period?: string; metrics?: string[] },
): Promise<Comparison> {
  return asUser(token).ai.compare({
    company_ids: input.companyIds,
    ...(input.period ? { period: input.period } : {}),
    ...(input.metrics?.length ? { metrics: input.metrics as never } : {}),
  });
}

/** A chat answer as the service writes it: status, tokens, citations, done (an error is thrown, typed). */
export function chat(
  token: string,
  messages: Array<{ role: 'user' | 'assistant'; content: string }>,
  conversationId: string | null,
  signal: AbortSignal,
) {
  return asUser(token)
    .ai.chat({ messages, ...(conversationId ? { conversation_id: conversationId } : {}) }, { signal })
    [Symbol.asyncIterator]();
}
