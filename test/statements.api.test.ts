import { expect } from 'chai';
import { get, type Data, type Page, type Refusal } from './helpers/http';
import type {
  BalanceSheet,
  CashFlow,
  Company,
  CompanyProfile,
  IncomeStatement,
  Period,
  RatioDefinition,
  Ratios,
} from '../sdk/typescript/src';

const INCOME_KEYS = [
  'revenue',
  'cost_of_revenue',
  'gross_profit',
  'research_and_development',
  'selling_general_and_administrative',
  'operating_expenses',
  'operating_income',
  'interest_expense',
  'income_before_tax',
  'income_tax_expense',
  'net_income',
  'eps_basic',
  'eps_diluted',
  'shares_basic',
  'shares_diluted',
  'depreciation_and_amortization',
  'ebitda',
];
const BALANCE_KEYS = [
  'cash_and_equivalents',
  'short_term_investments',
  'receivables',
  'inventory',
  'total_current_assets',
  'ppe_net',
  'goodwill_and_intangibles',
  'total_assets',
  'accounts_payable',
  'short_term_debt',
  'total_current_liabilities',
  'long_term_debt',
  'total_liabilities',
  'retained_earnings',
  'total_equity',
];
const CASH_FLOW_KEYS = [
  'net_income',
  'depreciation_and_amortization',
  'stock_based_compensation',
  'change_in_working_capital',
  'operating_cash_flow',
  'capital_expenditure',
  'investing_cash_flow',
  'dividends_paid',
  'share_repurchases',
  'financing_cash_flow',
  'net_change_in_cash',
  'free_cash_flow',
];
const PERIOD_KEYS = ['period', 'fiscal_year', 'fiscal_quarter', 'period_start', 'period_end', 'currency'];

async function firstCompany(): Promise<CompanyProfile> {
  const list = await get<Page<Company>>('/v1/companies?limit=1');
  return (await get<Data<CompanyProfile>>(`/v1/companies/${list.body.data[0].id}`)).body.data;
}

describe('REST statements, ratios and periods', () => {
  let company: CompanyProfile;
  let periods: Period[];
  const read = async <T>(suffix: string) => (await get<Data<T>>(`/v1/companies/${company.id}${suffix}`)).body.data;

  before(async () => {
    company = await firstCompany();
    periods = await read<Period[]>('/periods');
  });

  it('lists periods newest first, quarters and fiscal years, filterable by type', async () => {
    expect(periods.length).to.be.at.least(15);
    const ends = periods.map((p) => p.period_end);
    expect([...ends].sort().reverse()).to.deep.equal(ends);
    const annual = await read<Period[]>('/periods?type=annual');
    expect(annual.length).to.be.at.least(3);
    expect(
      annual.every((p) => p.type === 'ANNUAL' && /^FY\d{4}$/.test(p.period) && p.fiscal_quarter === null),
    ).to.equal(true);
    const quarters = await read<Period[]>('/periods?type=QUARTER');
    expect(quarters.length).to.be.at.least(12);
    expect(quarters.length + annual.length).to.equal(periods.length);
  });

  it('serves an income statement for a fiscal year with every field, in any case of the period', async () => {
    const fy = periods.find((p) => p.type === 'ANNUAL')!;
    const { status, body } = await get<Data<IncomeStatement>>(
      `/v1/companies/${company.id}/income-statement?period=${fy.period.toLowerCase()}`,
    );
    expect(status).to.equal(200);
    for (const key of [...INCOME_KEYS, ...PERIOD_KEYS]) expect(body.data, key).to.have.property(key);
    expect(body.data.period).to.equal(fy.period);
    expect(body.data.fiscal_quarter).to.equal(null);
    expect(body.data.currency).to.equal(company.currency);
    expect(body.data.net_income).to.be.a('number');
    expect(body.data.gross_profit).to.equal(body.data.revenue! - body.data.cost_of_revenue!);
  });

  it('serves the balance sheet and cash flow with every field', async () => {
    const quarter = periods.find((p) => p.type === 'QUARTER')!;
    const balance = await get<Data<BalanceSheet>>(`/v1/companies/${company.id}/balance-sheet?period=${quarter.period}`);
    expect(balance.status).to.equal(200);
    for (const key of [...BALANCE_KEYS, ...PERIOD_KEYS]) expect(balance.body.data, key).to.have.property(key);
    expect(balance.body.data.total_assets).to.equal(
      balance.body.data.total_liabilities! + balance.body.data.total_equity!,
    );
    const cashFlow = await get<Data<CashFlow>>(`/v1/companies/${company.id}/cash-flow?period=${quarter.period}`);
    expect(cashFlow.status).to.equal(200);
    for (const key of [...CASH_FLOW_KEYS, ...PERIOD_KEYS]) expect(cashFlow.body.data, key).to.have.property(key);
    expect(cashFlow.body.data.free_cash_flow).to.equal(
      cashFlow.body.data.operating_cash_flow! + cashFlow.body.data.capital_expenditure!,
    );
  });

  it('reads an omitted period or "latest" as the newest quarter, and "latest-fy" as the newest fiscal year', async () => {
    const newestQuarter = periods.find((p) => p.type === 'QUARTER')!.period;
    const newestYear = periods.find((p) => p.type === 'ANNUAL')!.period;
    expect((await read<IncomeStatement>('/income-statement')).period).to.equal(newestQuarter);
    expect((await read<CashFlow>('/cash-flow?period=latest')).period).to.equal(newestQuarter);
    expect((await read<BalanceSheet>('/balance-sheet?period=LATEST-FY')).period).to.equal(newestYear);
  });

  it('serves ratios as fractions under snake_case keys, consistent with the statements', async () => {
    const fy = periods.filter((p) => p.type === 'ANNUAL')[0];
    const { status, body } = await get<Data<Ratios>>(`/v1/companies/${company.id}/ratios?period=${fy.period}`);
    expect(status).to.equal(200);
    const keys = [
      'gross_margin',
      'operating_margin',
      'net_margin',
      'return_on_equity',
      'current_ratio',
      'debt_to_equity',
      'free_cash_flow_margin',
    ];
    for (const key of keys) expect(body.data, key).to.have.property(key);
    const income = await read<IncomeStatement>(`/income-statement?period=${fy.period}`);
    const balance = await read<BalanceSheet>(`/balance-sheet?period=${fy.period}`);
    expect(body.data.gross_margin).to.be.closeTo(income.gross_profit! / income.revenue!, 1e-12);
    expect(body.data.net_margin).to.be.closeTo(income.net_income! / income.revenue!, 1e-12);
    expect(body.data.current_ratio).to.be.closeTo(
      balance.total_current_assets! / balance.total_current_liabilities!,
      1e-12,
    );
    expect(body.data.gross_margin).to.be.within(0, 1);
    for (const value of Object.values(body.data))
      expect(value === null || typeof value !== 'number' || Number.isFinite(value)).to.equal(true);
  });

  it('has null averaged ratios for the oldest period, which has no opening balance', async () => {
    const oldest = periods.filter((p) => p.type === 'QUARTER').at(-1)!;
    const { body } = await get<Data<Ratios>>(`/v1/companies/${company.id}/ratios?period=${oldest.period}`);
    expect(body.data.return_on_equity).to.equal(null);
    expect(body.data.revenue_growth).to.equal(null);
    expect(body.data.gross_margin).to.be.a('number');
  });

  it('lists every ratio with its formula', async () => {
    const { status, body } = await get<Data<RatioDefinition[]>>('/v1/ratios/definitions');
    expect(status).to.equal(200);
    expect(body.data.length).to.be.at.least(25);
    expect(body.data.find((d) => d.key === 'gross_margin')!.formula).to.equal('gross_profit / revenue');
  });

  describe('errors', () => {
    const cases: Array<[string, number, string, RegExp]> = [
      ['/income-statement?period=Q5-2024', 400, 'BAD_USER_INPUT', /Invalid period "Q5-2024".*Q<1-4>-<yyyy>/],
      ['/balance-sheet?period=2024', 400, 'BAD_USER_INPUT', /Invalid period/],
      ['/cash-flow?period=FY20x4', 400, 'BAD_USER_INPUT', /Invalid period/],
      ['/ratios?period=H1-2024', 400, 'BAD_USER_INPUT', /Invalid period/],
      ['/income-statement?period=FY1990', 404, 'NOT_FOUND', /no income statement for period FY1990/],
      ['/balance-sheet?period=Q1-2100', 404, 'NOT_FOUND', /no balance sheet for period Q1-2100/],
      ['/ratios?period=FY1990', 404, 'NOT_FOUND', /no ratios/],
      ['/periods?type=monthly', 400, 'BAD_USER_INPUT', /type must be one of quarter, annual, got "monthly"/],
      ['/income-statement?quarter=Q1-2024', 400, 'BAD_USER_INPUT', /Unknown query parameter "quarter"/],
    ];
    for (const [suffix, status, code, message] of cases) {
      it(`${suffix} → ${status}`, async () => {
        const response = await get<Refusal>(`/v1/companies/${company.id}${suffix}`);
        expect(response.status).to.equal(status);
        expect(response.body).to.have.keys('success', 'error');
        expect(response.body.error.code).to.equal(code);
        expect(response.body.error.message).to.match(message);
      });
    }

    it('is 404 for the statements of an unknown company', async () => {
      for (const path of ['income-statement', 'balance-sheet', 'cash-flow', 'ratios', 'periods']) {
        const response = await get<Refusal>(
          `/v1/companies/424242/${path}?${path === 'periods' ? '' : 'period=FY2024'}`,
        );
        expect(response.status, path).to.equal(404);
        expect(response.body.error.message).to.equal('No company with id 424242');
      }
    });
  });
});
