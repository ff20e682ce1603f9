import { expect } from 'chai';
import { get, graphql, type Data, type GraphQLAnswer, type Page } from './helpers/http';
import type {
  BalanceSheet,
  CashFlow,
  Company,
  CompanyProfile,
  DataQualityCheck,
  IncomeStatement,
  Period,
  Ratios,
  Schema,
} from '../sdk/typescript/src';

const NEW_BALANCE_KEYS = [
  'restricted_cash',
  'short_term_borrowings',
  'commercial_paper',
  'current_portion_of_long_term_debt',
  'total_debt',
  'non_controlling_interest',
  'temporary_equity',
  'total_liabilities_and_equity',
];

describe('REST and GraphQL: reconciled statements, data quality, TTM', () => {
  let id: number;
  let quarters: string[];
  const read = async <T>(suffix: string) => (await get<Data<T>>(`/v1/companies/${id}${suffix}`)).body.data;

  before(async () => {
    id = (await get<Page<Company>>('/v1/companies?limit=1')).body.data[0].id;
    quarters = (await read<Period[]>('/periods?type=quarter')).map((p) => p.period);
  });

  it('serves the new balance-sheet fields and the checks that apply, balance passing', async () => {
    const { status, body } = await get<Data<BalanceSheet>>(`/v1/companies/${id}/balance-sheet?period=${quarters[0]}`);
    expect(status).to.equal(200);
    for (const key of NEW_BALANCE_KEYS) expect(body.data, key).to.have.property(key);
    expect(body.data.total_liabilities_and_equity).to.equal(body.data.total_assets);
    expect(body.data.total_debt).to.equal(body.data.short_term_debt! + body.data.long_term_debt!);
    expect(body.data.non_controlling_interest).to.equal(null);
    expect(body.data.data_quality).to.deep.equal([
      {
        check: 'balance',
        passed: true,
        difference: 0,
        tolerance: body.data.data_quality[0].tolerance,
        detail: body.data.data_quality[0].detail,
      },
    ]);
  });

  it('checks a fiscal year against its quarters and a cash-flow statement against its balance sheets', async () => {
    const year = (await read<Period[]>('/periods?type=annual'))[1].period;
    const income = await read<IncomeStatement>(`/income-statement?period=${year}`);
    expect(income.data_quality.map((c) => c.check)).to.deep.equal(['gross_profit', 'year_equals_sum_of_quarters']);
    expect(income.data_quality.every((c) => c.passed)).to.equal(true);
    const cashFlow = await read<CashFlow>(`/cash-flow?period=${quarters[0]}`);
    expect(cashFlow.data_quality).to.have.length(1);
    expect(cashFlow.data_quality[0]).to.include({ check: 'cash_roll_forward', passed: true, difference: 0 });
  });

  it('summarizes the checks of a company (REST and GraphQL) and marks its profile stale or current', async () => {
    const { status, body } = await get<Data<DataQualityCheck[]>>(`/v1/companies/${id}/data-quality`);
    expect(status).to.equal(200);
    expect(body.data.map((c) => c.check)).to.deep.equal([
      'balance',
      'year_equals_sum_of_quarters',
      'cash_roll_forward',
      'gross_profit',
      'filings_agree',
    ]);
    const balance = body.data[0];
    expect(balance.checked).to.be.at.least(15);
    expect(balance).to.include({ failed: 0, pass_rate: 1 });
    const { body: viaGraphql } = await graphql<GraphQLAnswer<{ company: Schema.Company }>>(
      'query ($id: Int!) { company(id: $id) { stale latestPeriodEnd dataQuality { check checked passed } } }',
      { id },
    );
    expect(viaGraphql.data.company.dataQuality[0]).to.deep.equal({
      check: 'balance',
      checked: balance.checked,
      passed: balance.passed,
    });
    const profile = await read<CompanyProfile>('');
    expect(profile.latest_period_end).to.equal(viaGraphql.data.company.latestPeriodEnd);
    const sixMonths = 183 * 86_400_000;
    expect(profile.stale).to.equal(Date.now() - Date.parse(profile.latest_period_end!) > sixMonths);
    expect((await get('/v1/companies/999999/data-quality')).status).to.equal(404);
  });

  it('serves period=ttm: four quarters summed for flows, the newest balance sheet, ratios on that basis', async () => {
    const last4 = await Promise.all(
      quarters.slice(0, 4).map((q) => read<IncomeStatement>(`/income-statement?period=${q}`)),
    );
    const ttm = await get<Data<IncomeStatement>>(`/v1/companies/${id}/income-statement?period=ttm`);
    expect(ttm.status).to.equal(200);
    expect(ttm.body.data).to.include({
      period: 'TTM',
      period_end: last4[0].period_end,
      period_start: last4[3].period_start,
    });
    expect(ttm.body.data.revenue).to.equal(last4.reduce((sum, q) => sum + q.revenue!, 0));
    expect(ttm.body.data.eps_diluted).to.be.closeTo(
      last4.reduce((sum, q) => sum + q.eps_diluted!, 0),
      1e-9,
    );
    const balance = await read<BalanceSheet>('/balance-sheet?period=TTM');
    expect(balance.period).to.equal(quarters[0]);
    const ratios = await read<Ratios>('/ratios?period=ttm');
    expect(ratios).to.include({ period: 'TTM', type: 'TTM' });
    expect(ratios.net_margin).to.be.closeTo(ttm.body.data.net_income! / ttm.body.data.revenue!, 1e-12);
    const { body: viaGraphql } = await graphql<GraphQLAnswer<{ company: Schema.Company }>>(
      'query ($id: Int!) { company(id: $id) { cashFlow(period: "ttm") { period operatingCashFlow } ratios(period: "ttm") { type } } }',
      { id },
    );
    expect(viaGraphql.data.company.cashFlow!.period).to.equal('TTM');
    expect(viaGraphql.data.company.ratios!.type).to.equal('TTM');
  });
});
