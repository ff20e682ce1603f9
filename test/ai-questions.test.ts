import { expect } from 'chai';
import { request, requestAs, get } from './helpers/http';
import { graphql } from './helpers/http';
import type { Data, GraphQLAnswer, Page, Refusal } from './helpers/http';
import { formatMoney, formatPercent } from '../src/ai/numbers';
import type {
  CashFlow,
  ChatDoneEvent,
  Company,
  CompanyProfile,
  Comparison,
  IngestedDocument,
  Schema,
  Summary,
} from '../sdk/typescript/src';

/** The figures of an income statement these tests read (the demo company has them all). */
interface Income {
  period: string;
  revenue: number;
  net_income: number;
}

const chatAs = <T = Data<ChatDoneEvent>>(as: 'analyst' | 'admin', content: string, conversationId?: string) =>
  requestAs<T>(as, '/v1/ai/chat', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      messages: [{ role: 'user', content }],
      stream: false,
      ...(conversationId ? { conversation_id: conversationId } : {}),
    }),
  });
const ask = async (content: string, conversationId?: string) => {
  const response = await chatAs('analyst', content, conversationId);
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  return response.body.data;
};

async function companyByTicker(ticker: string): Promise<{ id: number; name: string }> {
  const { body } = await graphql<GraphQLAnswer<{ company: Schema.Company }>>(
    `
      query ($t: String) {
        company(ticker: $t) {
          id
          name
        }
      }
    `,
    { t: ticker },
  );
  return body.data.company;
}

describe('the analyst answers the question that was asked', function () {
  this.timeout(60_000);
  let company: { id: number; name: string };
  let fy: Income;
  let previousFy: Income;

  before(async () => {
    company = await companyByTicker('VLTM');
    fy = (await get<Data<Income>>(`/v1/companies/${company.id}/income-statement?period=latest-fy`)).body.data;
    const year = Number(fy.period.slice(2));
    previousFy = (await get<Data<Income>>(`/v1/companies/${company.id}/income-statement?period=FY${year - 1}`)).body
      .data;
  });

  it('answers a value for the company (by its name, any case), period and metric asked, naming the period', async () => {
    const year = fy.period.slice(2);
    const { answer, grounding, claims } = await ask(
      `what were ${company.name.toLowerCase()} net sales in the ${year} fiscal year?`,
    );
    expect(answer).to.include(fy.period).and.include(formatMoney(fy.revenue));
    expect(grounding.numbers_unsupported).to.equal(0);
    // Each figure is bound to the company, period and metric its sentence gives it, and checked.
    expect(claims.length).to.be.above(0);
    expect(
      claims.every(
        (c) => c.verdict === 'SUPPORTED' && c.ticker === 'VLTM' && c.period === fy.period && c.metric === 'revenue',
      ),
    ).to.equal(true);
    expect(grounding.claims_checked).to.equal(claims.length);
    expect(grounding.claims_flagged).to.equal(0);
  });

  it('answers a change with both years and the growth, with its direction', async () => {
    const { answer } = await ask(`By how much did VLTM revenue grow in FY${fy.period.slice(2)}?`);
    const growth = (fy.revenue - previousFy.revenue) / previousFy.revenue;
    expect(answer)
      .to.include(formatMoney(previousFy.revenue))
      .and.include(previousFy.period)
      .and.include(formatPercent(Math.abs(growth)));
    expect(answer).to.match(growth >= 0 ? /\brose\b/ : /\bfell\b/);
  });

  it('says plainly that a period is not stored, first, and labels the nearest stored period as another one', async () => {
    const { answer } = await ask('What was VLTM revenue in fiscal 1990?');
    expect(answer).to.match(/^VLTM’s revenue for FY1990 is not available/);
    expect(answer).to.match(/nearest stored period is FY\d{4} \(not the period asked\)/);
  });

  it('calls a company that is not in the data unknown', async () => {
    const { answer } = await ask('What was Zephyrine Holdings\u2019 revenue in fiscal 2024?');
    expect(answer)
      .to.match(/^Zephyrine Holdings is an unknown company/)
      .and.match(/not available/);
  });

  it('says that a company listed beside a known one is unknown, and still answers for the known one', async () => {
    const { answer } = await ask('Compare VLTM and Quillfeather revenue');
    expect(answer)
      .to.match(/^Quillfeather is an unknown company/)
      .and.match(/VLTM/);
  });

  it('lists every period of a series', async () => {
    const { answer } = await ask('How did VLTM gross margin change over the last four quarters?');
    expect(answer.match(/\bQ[1-4]-\d{4}: \d/g) ?? []).to.have.length(4);
  });

  it('lets a follow-up inherit the company and the period of its conversation', async () => {
    const first = await ask(`What was Voltaris Motors' revenue in FY${fy.period.slice(2)}?`);
    const second = await ask('And the net income in that year?', first.conversation_id);
    expect(second.answer)
      .to.include(fy.period)
      .and.include(formatMoney(fy.net_income))
      .and.match(/net income/);
  });

  it('keeps a conversation to the key that started it: another key gets 404', async () => {
    const first = await ask('VLTM revenue in the latest fiscal year');
    const stranger = await chatAs<Refusal>('admin', 'And its net income?', first.conversation_id);
    expect(stranger.status).to.equal(404);
    expect(stranger.body.error.code).to.equal('NOT_FOUND');
    const owner = await chatAs('analyst', 'And its net income?', first.conversation_id);
    expect(owner.status).to.equal(200);
  });

  describe('drivers and risks from the documents', () => {
    let documentIds: number[] = [];
    before(async () => {
      const post = (body: unknown) =>
        request<Data<IngestedDocument>>('/v1/documents', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const documents = [
        {
          title: 'VLTM 10-K MD&A',
          doc_type: '10-K',
          period: fy.period,
          content:
            'The following discussion should be read together with the consolidated financial statements. ' +
            'Revenue increased compared with the prior year, driven primarily by demand for our Larkspur electric trucks in fleet markets. ' +
            'Revenue increased compared with the prior year, driven primarily by demand for our Larkspur electric trucks in fleet markets.',
        },
        {
          title: 'VLTM 10-K Risk Factors',
          doc_type: '10-K',
          period: fy.period,
          content:
            'The following risk factors should be considered carefully in addition to the other information in this report. ' +
            'A shortage of cobalt cathode cells from our single Ostrava supplier could materially harm our production of Larkspur trucks.',
        },
        {
          title: 'VLTM old 10-K Risk Factors',
          doc_type: '10-K',
          period: 'FY1999',
          content:
            'Our dependence on the Quenby dealer network could adversely affect our sales of Larkspur trucks in rural regions.',
        },
      ];
      documentIds = [];
      for (const document of documents)
        documentIds.push((await post({ company_id: company.id, ...document })).body.data.document.id);
    });

    it('quotes the specific driver sentence once, cited to its passage', async () => {
      const { answer, citations } = await ask(`Why did VLTM revenue grow in fiscal ${fy.period.slice(2)}?`);
      expect(answer).to.include('driven primarily by demand for our Larkspur electric trucks');
      expect(answer.split('Larkspur electric trucks').length - 1).to.equal(1);
      expect(answer).not.to.match(/should be read together/);
      expect(citations.some((c) => c.kind === 'DOCUMENT' && documentIds.includes(c.document_id!))).to.equal(true);
    });

    it('quotes specific risks of the period asked, without boilerplate or another period\u2019s filing', async () => {
      const { answer } = await ask(`What are the risks for Voltaris Motors in fiscal ${fy.period.slice(2)}?`);
      expect(answer).to.include('single Ostrava supplier could materially harm');
      expect(answer).not.to.match(/following risk factors should be considered/i);
      expect(answer).not.to.include('Quenby');
    });

    it('summarizes the risks of a named year from that year’s filings, without boilerplate', async () => {
      const { body } = await request<Data<Summary>>('/v1/ai/summarize', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ company_id: company.id, period: fy.period, summary_type: 'risks' }),
      });
      expect(body.data.summary).to.include('single Ostrava supplier');
      expect(body.data.summary).not.to.match(/following risk factors should be considered/i);
      expect(body.data.summary).not.to.include('Quenby');
    });
  });

  it('compares outflows by their size: the largest buyback leads', async () => {
    const list = (await get<Page<Company>>('/v1/companies?limit=40')).body.data;
    const buybacks: Array<{ id: number; ticker: string; value: number }> = [];
    for (const c of list) {
      // Amounts in one currency, so they are ranked (different currencies are listed side by side, unranked).
      if ((await get<Data<CompanyProfile>>(`/v1/companies/${c.id}`)).body.data.currency !== 'USD') continue;
      const flows = (await get<Data<CashFlow | undefined>>(`/v1/companies/${c.id}/cash-flow?period=latest`)).body.data;
      if (flows?.share_repurchases) buybacks.push({ id: c.id, ticker: c.ticker, value: flows.share_repurchases });
      if (buybacks.length === 3) break;
    }
    expect(buybacks.length, 'demo companies with buybacks').to.be.at.least(2);
    const { body } = await request<Data<Comparison>>('/v1/ai/compare', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ company_ids: buybacks.map((b) => b.id), metrics: ['share_repurchases'] }),
    });
    const largest = [...buybacks].sort((a, b) => Math.abs(b.value) - Math.abs(a.value))[0];
    expect(body.data.comparison).to.include(`${largest.ticker} leads at ${formatMoney(Math.abs(largest.value))}`);
  });
});
