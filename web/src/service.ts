/** The web front end's only way to data: the service's own API (API_URL), from the server side. */

export class ServiceError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

export interface CompanyRow {
  id: number;
  ticker: string;
  name: string;
  sector: string;
}

export interface QuarterFigures {
  period: string;
  revenue: number | null;
  netIncome: number | null;
  grossMargin: number | null;
  operatingMargin: number | null;
  netMargin: number | null;
  operatingCashFlow: number | null;
  freeCashFlow: number | null;
}

export class ServiceClient {
  constructor(private readonly baseUrl: string, private readonly timeoutMs = 15_000) {}

  /** A GraphQL query against the service; service errors keep their code and status. `token`: the signed-in user's. */
  async graphql<T>(query: string, variables: Record<string, unknown> = {}, token: string | null = null): Promise<T> {
    const response = await fetch(`${this.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const body = (await response.json()) as { data?: T; errors?: Array<{ message: string; extensions?: { code?: string } }> };
    if (body.errors?.length) {
      const [error] = body.errors;
      throw new ServiceError(response.status >= 400 ? response.status : 400, error.extensions?.code ?? 'BAD_REQUEST', error.message);
    }
    return body.data as T;
  }

  /** A REST call; the service's envelope is unwrapped. */
  async rest<T>(path: string): Promise<{ data: T; meta?: Record<string, number> }> {
    const response = await fetch(`${this.baseUrl}${path}`, { signal: AbortSignal.timeout(this.timeoutMs) });
    const body = (await response.json()) as { success: boolean; data: T; meta?: Record<string, number>; error?: { code: string; message: string } };
    if (!body.success) throw new ServiceError(response.status, body.error?.code ?? 'BAD_REQUEST', body.error?.message ?? 'The service refused the request');
    return { data: body.data, meta: body.meta };
  }

  async companies(sector: string | null, limit: number, offset: number) {
    const params = new URLSearchParams({ limit: String(limit), offset: String(offset), ...(sector ? { sector } : {}) });
    return this.rest<CompanyRow[]>(`/v1/companies?${params}`);
  }

  async sectors(): Promise<string[]> {
    return (await this.graphql<{ sectors: string[] }>('{ sectors }')).sectors;
  }

  /** The profile, or a 404 ServiceError naming the ticker. */
  async profile(ticker: string) {
    const { company } = await this.graphql<{ company: Record<string, unknown> & { id: number; ticker: string; name: string; currency: string } | null }>(
      `query($t: String) { company(ticker: $t) { id ticker name sector industry exchange country currency fiscalYearEnd description website employees } }`,
      { t: ticker },
    );
    if (!company) throw new ServiceError(404, 'NOT_FOUND', `No company with ticker ${ticker}`);
    return company;
  }

  /** Income statement of a period (newest quarter when omitted), its ratios, and the last `quarters` quarters for charts. */
  async financials(ticker: string, period: string | null, quarters = 8) {
    const { company } = await this.graphql<{ company: null | {
      ticker: string;
      currency: string;
      periods: Array<{ period: string; type: string }>;
      incomeStatement: Record<string, number | string | null> | null;
      balanceSheet: Record<string, number | string | null> | null;
      cashFlow: Record<string, number | string | null> | null;
      ratios: Record<string, number | string | null> | null;
      statements: Array<{ period: string; incomeStatement: { revenue: number | null; netIncome: number | null } | null; cashFlow: { operatingCashFlow: number | null; freeCashFlow: number | null } | null; ratios: { grossMargin: number | null; operatingMargin: number | null; netMargin: number | null } | null }>;
    } }>(
      `query($t: String, $p: String, $n: Int!) { company(ticker: $t) {
        ticker currency
        periods { period type }
        incomeStatement(period: $p) { period fiscalYear fiscalQuarter periodStart periodEnd currency revenue costOfRevenue grossProfit researchAndDevelopment sellingGeneralAndAdministrative operatingExpenses operatingIncome interestExpense incomeBeforeTax incomeTaxExpense netIncome epsBasic epsDiluted sharesDiluted ebitda }
        balanceSheet(period: $p) { cashAndEquivalents shortTermInvestments receivables inventory totalCurrentAssets ppeNet totalAssets accountsPayable shortTermDebt totalCurrentLiabilities longTermDebt totalLiabilities totalEquity }
        cashFlow(period: $p) { netIncome depreciationAndAmortization stockBasedCompensation operatingCashFlow capitalExpenditure investingCashFlow dividendsPaid shareRepurchases financingCashFlow freeCashFlow }
        ratios(period: $p) { grossMargin operatingMargin netMargin returnOnEquity returnOnAssets currentRatio debtToEquity interestCoverage freeCashFlowMargin revenueGrowth }
        statements(type: QUARTER, last: $n) { period incomeStatement { revenue netIncome } cashFlow { operatingCashFlow freeCashFlow } ratios { grossMargin operatingMargin netMargin } }
      } }`,
      { t: ticker, p: period, n: quarters },
    );
    if (!company) throw new ServiceError(404, 'NOT_FOUND', `No company with ticker ${ticker}`);
    const history: QuarterFigures[] = [...company.statements].reverse().map((s) => ({
      period: s.period,
      revenue: s.incomeStatement?.revenue ?? null,
      netIncome: s.incomeStatement?.netIncome ?? null,
      grossMargin: s.ratios?.grossMargin ?? null,
      operatingMargin: s.ratios?.operatingMargin ?? null,
      netMargin: s.ratios?.netMargin ?? null,
      operatingCashFlow: s.cashFlow?.operatingCashFlow ?? null,
      freeCashFlow: s.cashFlow?.freeCashFlow ?? null,
    }));
    return {
      ticker: company.ticker, currency: company.currency, periods: company.periods,
      incomeStatement: company.incomeStatement, balanceSheet: company.balanceSheet, cashFlow: company.cashFlow, ratios: company.ratios, history,
    };
  }

  /** Exchanges an API key for a session token through the service's session endpoint; the role comes with it. */
  async signIn(apiKey: string): Promise<{ token: string; role: string; expiresIn: number }> {
    const response = await fetch(`${this.baseUrl}/v1/auth/session`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ api_key: apiKey }), signal: AbortSignal.timeout(this.timeoutMs),
    });
    const body = (await response.json()) as { success: boolean; data?: { role: string; expires_in: number }; error?: { code: string; message: string } };
    if (!body.success || !body.data) throw new ServiceError(response.status, body.error?.code ?? 'UNAUTHENTICATED', body.error?.message ?? 'Sign-in failed');
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('fis_session='));
    const token = cookie?.split(';')[0].slice('fis_session='.length);
    if (!token) throw new ServiceError(502, 'UPSTREAM_ERROR', 'The service did not return a session');
    return { token, role: body.data.role, expiresIn: body.data.expires_in };
  }

  async search(token: string, query: string, companyIds: number[] | null) {
    return (await this.graphql<{ search: Array<{ content: string; ticker: string; title: string; docType: string; period: string | null; score: number }> }>(
      'query($q: String!, $c: [Int!]) { search(query: $q, companyIds: $c, topK: 10) { content ticker title docType period score } }',
      { q: query, c: companyIds }, token,
    )).search;
  }

  async compare(token: string, companyIds: number[], period: string | null) {
    return (await this.graphql<{ compare: { comparison: string; table: Array<{ metric: string; label: string; unit: string; values: Array<{ ticker: string; period: string; currency: string; value: number | null }> }>; citations: Array<{ kind: string; ticker: string; period: string | null; field: string | null; title: string | null }>; grounding: { numbersChecked: number; numbersUnsupported: number }; model: string } }>(
      'mutation($c: [Int!]!, $p: String) { compare(input: { companyIds: $c, period: $p }) { comparison table { metric label unit values { ticker period currency value } } citations { kind ticker period field title } grounding { numbersChecked numbersUnsupported } model } }',
      { c: companyIds, p: period }, token,
    )).compare;
  }

  /** The chat answer as the service streams it (Server-Sent Events), for relaying to the browser. */
  async chatStream(token: string, question: string, conversationId: string | null, signal: AbortSignal): Promise<Response> {
    return fetch(`${this.baseUrl}/v1/ai/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${token}` },
      body: JSON.stringify({ messages: [{ role: 'user', content: question }], ...(conversationId ? { conversation_id: conversationId } : {}) }),
      signal,
    });
  }

  async ratioDefinitions(): Promise<Array<{ key: string; label: string; formula: string }>> {
    return (await this.graphql<{ ratioDefinitions: Array<{ key: string; label: string; formula: string }> }>('{ ratioDefinitions { key label formula } }')).ratioDefinitions;
  }
}
