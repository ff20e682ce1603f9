/**
 * The front end's one way to the service. Every page and route handler goes through these functions, which call
 * the service's TypeScript SDK; nothing else here knows a URL of the API.
 */
import { serverApiUrl } from './config';

export class ServiceError extends Error {
  constructor(readonly status: number, readonly code: string, message: string, readonly retryAfterSeconds: number | null = null) {
    super(message);
  }
}

/** The service's failure as this front end reports it: its own error, or a 502 when it cannot be reached. */
export function asServiceError(error: unknown): ServiceError {
  if (error instanceof ServiceError) return error;
  return new ServiceError(502, 'UPSTREAM_ERROR', `The financial insights service is not reachable: ${(error as Error)?.message ?? String(error)}`);
}

export interface Company { id: number; ticker: string; name: string; sector: string; industry?: string | null; exchange?: string | null; country?: string | null; currency: string; fiscal_year_end?: number; description?: string | null; website?: string | null; employees?: number | null }
export interface Period { period: string; type: string; fiscal_year: number; fiscal_quarter: number | null; period_start: string; period_end: string }
export type Statement = Record<string, unknown> & { period: string; period_start?: string; period_end?: string; currency?: string };
export interface RatioDefinition { key: string; category: string; label: string; formula: string }
export interface QualityCheck { check: string; description: string; checked: number; passed: number; failed: number; pass_rate: number | null; failures: Array<{ statement: string; period: string; difference: number | null; detail: string }> }
export interface SearchHit { content: string; score: number; chunk_id: number; document_id: number; company_id: number; ticker: string; title: string; doc_type: string; period: string | null; section: string | null }
export interface Citation { kind: string; company_id: number | null; ticker: string | null; period: string | null; statement: string | null; field: string | null; value: number | null; chunk_id: number | null; document_id: number | null; title: string | null }
export interface Comparison { comparison: string; period: string; table: Array<{ metric: string; label: string; unit: string; values: Array<{ company_id: number; ticker: string; period: string; currency: string; value: number | null }> }>; citations: Citation[]; grounding: { numbers_checked: number; numbers_unsupported: number }; model: string }
export interface Session { token: string; role: string; expiresIn: number }

async function call<T>(path: string, init: RequestInit & { token?: string | null } = {}): Promise<{ data: T; meta?: Record<string, number> }> {
  const { token, ...rest } = init;
  const response = await fetch(`${serverApiUrl()}${path}`, {
    ...rest,
    headers: { ...(rest.body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}), ...(rest.headers as Record<string, string> | undefined) },
    signal: rest.signal ?? AbortSignal.timeout(30_000),
  });
  const body = (await response.json()) as { success: boolean; data: T; meta?: Record<string, number>; error?: { code: string; message: string } };
  if (!body.success) {
    const retryAfter = Number(response.headers.get('retry-after')) || null;
    throw new ServiceError(response.status, body.error?.code ?? 'BAD_REQUEST', body.error?.message ?? 'The service refused the request', retryAfter);
  }
  return { data: body.data, meta: body.meta };
}

export async function listCompanies(options: { sector?: string | null; limit: number; offset: number }): Promise<{ items: Company[]; total: number }> {
  const params = new URLSearchParams({ limit: String(options.limit), offset: String(options.offset), ...(options.sector ? { sector: options.sector } : {}) });
  const { data, meta } = await call<Company[]>(`/v1/companies?${params}`);
  return { items: data, total: meta?.total ?? data.length };
}

/** Every tracked company (the service pages by 100). */
export async function allCompanies(): Promise<Company[]> {
  const all: Company[] = [];
  for (let offset = 0; ; offset += 100) {
    const { items, total } = await listCompanies({ limit: 100, offset });
    all.push(...items);
    if (all.length >= total || items.length === 0) return all;
  }
}

/** The company with this ticker (any case), or a 404 naming it. */
export async function companyByTicker(ticker: string): Promise<Company> {
  const wanted = ticker.toUpperCase();
  const match = (await allCompanies()).find((c) => c.ticker.toUpperCase() === wanted);
  if (!match) throw new ServiceError(404, 'NOT_FOUND', `No company with ticker ${wanted}`);
  return (await call<Company>(`/v1/companies/${match.id}`)).data;
}

export async function periods(companyId: number, type: 'annual' | 'quarter'): Promise<Period[]> {
  return (await call<Period[]>(`/v1/companies/${companyId}/periods?type=${type}`)).data;
}

export type StatementKind = 'income-statement' | 'balance-sheet' | 'cash-flow' | 'ratios';

/** One statement of a period (FY2024, Q3-2025, ttm), with the SEC provenance of imported values; null when absent. */
export async function statement(companyId: number, kind: StatementKind, period: string): Promise<Statement | null> {
  try {
    return (await call<Statement>(`/v1/companies/${companyId}/${kind}?period=${encodeURIComponent(period)}${kind === 'ratios' ? '' : '&provenance=true'}`)).data;
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) return null;
    throw error;
  }
}

export async function ratioDefinitions(): Promise<RatioDefinition[]> {
  return (await call<RatioDefinition[]>('/v1/ratios/definitions')).data;
}

export async function dataQuality(companyId: number): Promise<QualityCheck[]> {
  return (await call<QualityCheck[]>(`/v1/companies/${companyId}/data-quality`)).data;
}

/** Exchanges an API key for an access token; the role comes with it. */
export async function signIn(apiKey: string): Promise<Session> {
  const { data } = await call<{ access_token: string; role: string; expires_in: number }>('/v1/auth/token', { method: 'POST', headers: { 'x-api-key': apiKey } });
  return { token: data.access_token, role: data.role, expiresIn: data.expires_in };
}

export async function search(token: string, query: { query: string; companyIds?: number[]; docTypes?: string[]; periods?: string[]; topK?: number }): Promise<SearchHit[]> {
  const body = { query: query.query, top_k: query.topK ?? 10, ...(query.companyIds?.length ? { company_ids: query.companyIds } : {}), ...(query.docTypes?.length ? { doc_types: query.docTypes } : {}), ...(query.periods?.length ? { periods: query.periods } : {}) };
  return (await call<SearchHit[]>('/v1/search', { method: 'POST', body: JSON.stringify(body), token })).data;
}

export async function compare(token: string, input: { companyIds: number[]; period?: string; metrics?: string[] }): Promise<Comparison> {
  const body = { company_ids: input.companyIds, ...(input.period ? { period: input.period } : {}), ...(input.metrics?.length ? { metrics: input.metrics } : {}) };
  return (await call<Comparison>('/v1/ai/compare', { method: 'POST', body: JSON.stringify(body), token })).data;
}

/** The chat answer as the service streams it (Server-Sent Events), for the route handler to relay to the browser. */
export async function chatStream(token: string, messages: Array<{ role: 'user' | 'assistant'; content: string }>, conversationId: string | null, signal: AbortSignal): Promise<Response> {
  return fetch(`${serverApiUrl()}/v1/ai/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${token}` },
    body: JSON.stringify({ messages, ...(conversationId ? { conversation_id: conversationId } : {}) }),
    signal,
    cache: 'no-store',
  });
}
