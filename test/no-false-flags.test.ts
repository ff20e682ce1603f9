import { expect } from 'chai';
import { request, requestAs, type Data, type Page } from './helpers/http';
import type { Company, Comparison, Summary } from '../sdk/typescript/src';

const post = <T>(path: string, body: unknown) =>
  requestAs<T>('analyst', path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

type Claim = { text: string; verdict: string; period: string | null; metric: string | null };

describe('the built-in writer’s own figures carry no flags', function () {
  this.timeout(300_000);
  let companies: Array<{ id: number; ticker: string }>;

  before(async () => {
    companies = (await request<Page<Company>>('/v1/companies?limit=100')).body.data;
    expect(companies.length).to.be.above(2);
  });

  it('summaries of every type, on every demo company, for the newest period and the newest fiscal year', async () => {
    const flagged: string[] = [];
    for (const company of companies) {
      for (const summaryType of ['overview', 'profitability', 'balance_sheet', 'cash_flow', 'risks']) {
        for (const period of [undefined, 'latest-fy']) {
          const response = await post<Data<Summary>>('/v1/ai/summarize', {
            company_id: company.id,
            summary_type: summaryType,
            ...(period ? { period } : {}),
          });
          if (response.status === 404) continue; // a company without statements of that kind
          expect(response.status, JSON.stringify(response.body)).to.equal(200);
          const claims: Claim[] = response.body.data.claims;
          expect(claims.length, `${company.ticker} ${summaryType}: its figures are checked`).to.be.above(0);
          for (const claim of claims.filter((c) => c.verdict !== 'SUPPORTED'))
            flagged.push(
              `${company.ticker} ${summaryType} ${period ?? 'latest'}: ${claim.text} ${claim.verdict} (${claim.period}, ${claim.metric}) in: ${(claim as Claim & { sentence?: string }).sentence ?? ''}`,
            );
          if (process.env.SHOW_FLAGGED && claims.some((c) => c.verdict !== 'SUPPORTED'))
            console.log(response.body.data.summary, JSON.stringify(claims.filter((c) => c.verdict !== 'SUPPORTED')));
        }
      }
    }
    expect(flagged).to.deep.equal([]);
  });

  it('comparisons of the demo companies, with the default measures and every measure', async () => {
    const flagged: string[] = [];
    for (let i = 0; i + 1 < companies.length; i += 2) {
      const response = await post<Data<Comparison>>('/v1/ai/compare', {
        company_ids: [companies[i].id, companies[i + 1].id],
        period: 'latest-fy',
      });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      for (const claim of response.body.data.claims.filter((c) => c.verdict !== 'SUPPORTED'))
        flagged.push(`${companies[i].ticker}/${companies[i + 1].ticker}: ${claim.text} ${claim.verdict}`);
    }
    expect(flagged).to.deep.equal([]);
  });
});
