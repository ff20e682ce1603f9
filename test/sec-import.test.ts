import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { importCompanyFacts, type CompanyFactsFile, type RawFact } from '../src/sec/companyfacts';
import { requestAs } from './helpers/http';
import type { Data, GraphQLAnswer, Refusal } from './helpers/http';
import type {
  CashFlow,
  CompanyProfile,
  DataQualityCheck,
  IncomeStatement,
  Schema,
  SearchResult,
} from '../sdk/typescript/src';
import { freshDataDir, startTestApp, TARGET } from './helpers/test-app';
import { createTestKeys } from './helpers/keys';
import { runCli } from './helpers/cli';

/** A small companyfacts file written by the tests: a company whose fiscal year ends on the last Saturday of September. */
type Concept = Record<string, RawFact[]>;
const fact = (
  start: string | undefined,
  end: string,
  val: number,
  form: string,
  filed: string,
  accn: string,
  fy = 0,
  fp = 'Q1',
): RawFact => ({ ...(start ? { start } : {}), end, val, accn, fy, fp, form, filed });

const K24 = ['10-K', '2024-11-01', 'k24'] as const;
const K25 = ['10-K', '2025-10-31', 'k25'] as const;
const Q1 = ['10-Q', '2024-02-01', 'q1'] as const;
const Q2 = ['10-Q', '2024-05-02', 'q2'] as const;
const Q3 = ['10-Q', '2024-08-02', 'q3'] as const;

function fixture(gaap: Record<string, Concept>): CompanyFactsFile {
  const facts: CompanyFactsFile['facts'] = { 'us-gaap': {} };
  for (const [concept, units] of Object.entries(gaap)) facts['us-gaap'][concept] = { units };
  return { cik: 999001, entityName: 'Fixture Devices Inc.', facts };
}

const FISCAL_2024 = {
  // Revenue: three quarters and the year filed; Q4 is never filed as such.
  Revenues: {
    USD: [
      fact('2023-10-01', '2023-12-30', 100, ...Q1, 2099, 'FY'), // fy/fp of the filing are wrong on purpose: dates decide
      fact('2023-12-31', '2024-03-30', 90, ...Q2, 2024, 'Q2'),
      fact('2023-10-01', '2024-03-30', 190, ...Q2, 2024, 'Q2'),
      fact('2024-03-31', '2024-06-29', 80, ...Q3, 2024, 'Q3'),
      fact('2023-10-01', '2024-06-29', 270, ...Q3, 2024, 'Q3'),
      fact('2023-10-01', '2024-09-28', 400, ...K24, 2024, 'FY'),
      // The next 10-K restates fiscal 2024.
      fact('2023-10-01', '2024-09-28', 410, ...K25, 2025, 'FY'),
    ],
  },
  // Cash flows are filed year to date only.
  NetCashProvidedByUsedInOperatingActivities: {
    USD: [
      fact('2023-10-01', '2023-12-30', 10, ...Q1),
      fact('2023-10-01', '2024-03-30', 25, ...Q2),
      fact('2023-10-01', '2024-06-29', 45, ...Q3),
      fact('2023-10-01', '2024-09-28', 70, ...K24),
    ],
  },
  PaymentsToAcquirePropertyPlantAndEquipment: {
    USD: [fact('2023-10-01', '2023-12-30', 4, ...Q1), fact('2023-10-01', '2024-09-28', 16, ...K24)],
  },
  EarningsPerShareDiluted: {
    'USD/shares': [
      fact('2023-10-01', '2023-12-30', 1.1, ...Q1),
      fact('2023-12-31', '2024-03-30', 1.0, ...Q2),
      fact('2024-03-31', '2024-06-29', 0.9, ...Q3),
      fact('2023-10-01', '2024-09-28', 4.2, ...K24),
    ],
  },
  Assets: {
    USD: [
      fact(undefined, '2023-12-30', 1000, ...Q1),
      fact(undefined, '2024-09-28', 1200, ...K24),
      // An adjusted opening balance dated the morning after the year end is not the year's balance.
      fact(undefined, '2024-09-29', 1190, ...K25),
    ],
  },
};

describe('SEC companyfacts import', () => {
  const imported = importCompanyFacts(fixture(FISCAL_2024));
  const statement = (kind: string, period: string) =>
    imported.statements.find((s) => s.statement === kind && s.period === period);
  const source = (field: string, period: string) =>
    imported.sources.find((s) => s.field === field && s.period === period);

  it('derives fiscal periods from the facts\u2019 dates, not from fy/fp, for a September year end', () => {
    expect(imported.fiscalYearEndMonth).to.equal(9);
    expect(statement('income', 'Q1-2024')).to.include({
      fiscalYear: 2024,
      fiscalQuarter: 1,
      periodStart: '2023-10-01',
      periodEnd: '2023-12-30',
    });
    expect(statement('income', 'Q1-2024')?.values.revenue).to.equal(100);
    expect(statement('income', 'FY2024')).to.include({
      fiscalQuarter: null,
      periodStart: '2023-10-01',
      periodEnd: '2024-09-28',
    });
    expect(imported.statements.some((s) => s.period.endsWith('2099'))).to.equal(false);
  });

  it('turns year-to-date cash flows into quarters: Q2 = H1 − Q1, Q3 = 9M − H1, Q4 = FY − 9M', () => {
    expect(
      ['Q1', 'Q2', 'Q3', 'Q4'].map((q) => statement('cashFlow', `${q}-2024`)?.values.operatingCashFlow),
    ).to.deep.equal([10, 15, 20, 25]);
    expect(source('operatingCashFlow', 'Q1-2024')?.derived).to.equal(false);
    expect(source('operatingCashFlow', 'Q3-2024')).to.include({
      derived: true,
      concept: 'NetCashProvidedByUsedInOperatingActivities',
    });
    expect(statement('cashFlow', 'Q4-2024')).to.include({ periodStart: '2024-06-30', periodEnd: '2024-09-28' });
  });

  it('derives Q4 for income and cash-flow amounts only, from the values first reported', () => {
    // FY first reported 400 minus 9M 270; the later restatement of FY to 410 does not leak into the derived quarter.
    expect(statement('income', 'Q4-2024')?.values.revenue).to.equal(130);
    expect(source('revenue', 'Q4-2024')?.derived).to.equal(true);
    expect(statement('income', 'Q4-2024')?.values).not.to.have.property('epsDiluted');
    expect(statement('income', 'Q3-2024')?.values.epsDiluted).to.equal(0.9);
  });

  it('keeps the latest value of a restated figure and says it was restated', () => {
    expect(statement('income', 'FY2024')?.values.revenue).to.equal(410);
    expect(source('revenue', 'FY2024')).to.include({
      restated: true,
      accession: 'k25',
      form: '10-K',
      filed: '2025-10-31',
      derived: false,
    });
    expect(source('revenue', 'Q1-2024')?.restated).to.equal(false);
  });

  it('gives a fiscal year the balance sheet at its end (also its Q4), never an adjusted opening balance', () => {
    expect(statement('balance', 'FY2024')?.values.totalAssets).to.equal(1200);
    expect(statement('balance', 'Q4-2024')?.values.totalAssets).to.equal(1200);
    expect(source('totalAssets', 'FY2024')).to.include({ restated: false, derived: false });
    expect(statement('balance', 'Q1-2024')?.values.totalAssets).to.equal(1000);
  });

  it('stores payments as cash outflows and derives free cash flow, keeping the filed value', () => {
    expect(statement('cashFlow', 'FY2024')?.values).to.include({ capitalExpenditure: -16, freeCashFlow: 54 });
    expect(source('capitalExpenditure', 'FY2024')).to.include({ value: -16, reportedValue: 16 });
    expect(source('freeCashFlow', 'FY2024')).to.include({
      derived: true,
      concept: 'NetCashProvidedByUsedInOperatingActivities + PaymentsToAcquirePropertyPlantAndEquipment',
    });
  });

  it('falls back to other concepts when a company switches tags, and for banks without a revenue tag', () => {
    const switched = importCompanyFacts(
      fixture({
        SalesRevenueNet: { USD: [fact('2017-01-01', '2017-12-31', 50, '10-K', '2018-02-01', 'a', 2017, 'FY')] },
        RevenueFromContractWithCustomerExcludingAssessedTax: {
          USD: [fact('2018-01-01', '2018-12-31', 60, '10-K', '2019-02-01', 'b', 2018, 'FY')],
        },
      }),
    );
    expect(
      switched.sources.filter((s) => s.field === 'revenue').map((s) => [s.period, s.concept, s.value]),
    ).to.deep.equal([
      ['FY2018', 'RevenueFromContractWithCustomerExcludingAssessedTax', 60],
      ['FY2017', 'SalesRevenueNet', 50],
    ]);
    const bank = importCompanyFacts(
      fixture({
        RevenuesNetOfInterestExpense: {
          USD: [fact('2023-01-01', '2023-12-31', 77, '10-K', '2024-02-20', 'c', 2023, 'FY')],
        },
      }),
    );
    expect(bank.statements[0].values.revenue).to.equal(77);
  });

  it('refuses files with no statement facts, naming what is missing, and files that are not companyfacts', () => {
    const dei = { cik: 1046179, entityName: 'Cover Only Co', facts: { dei: {} } } as CompanyFactsFile;
    expect(() => importCompanyFacts(dei)).to.throw(/neither us-gaap nor ifrs-full facts \(taxonomies: dei\)/);
    const emptyIfrs = {
      cik: 1046179,
      entityName: 'Empty IFRS Co',
      facts: { dei: {}, 'ifrs-full': {} },
    } as CompanyFactsFile;
    expect(() => importCompanyFacts(emptyIfrs)).to.throw(/files no ifrs-full facts of the concepts the import maps/);
    expect(() => importCompanyFacts({} as CompanyFactsFile)).to.throw(/not a companyfacts file/);
  });
});

describe('npm run import:sec', function () {
  this.timeout(180_000);
  // Each test imports into a database of its own; on a shared server that would be the suite's database, whose
  // demo-data checks must not see imported companies.
  before(function () {
    if (TARGET !== 'embedded') this.skip();
  });
  // No SEC_USER_AGENT: nothing may try the network.
  const run = (args: string[], env: Record<string, string | undefined>) =>
    runCli('import-sec', args, { SEC_USER_AGENT: '', ...env });
  // The evaluation data of the project's workspace, when present (never shipped, never required).
  const SEC_DATA = path.join(__dirname, '..', '..', '..', 'shared', 'data', 'sec_xbrl');

  it('imports a companyfacts file into a stopped service\u2019s database, with provenance in GraphQL and on request in REST', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'fis-sec-'));
    fs.writeFileSync(path.join(folder, 'CIK0000999001.json'), JSON.stringify(fixture(FISCAL_2024)));
    fs.writeFileSync(
      path.join(folder, 'ifrs.json'),
      JSON.stringify({ cik: 5, entityName: 'IFRS Co', facts: { 'ifrs-full': {} } }),
    );
    // A company with quarters missing: Q1 and Q3 of fiscal 2024 only.
    const gap = fixture({
      Revenues: {
        USD: [
          fact('2022-10-02', '2023-09-30', 300, ...K24),
          fact('2023-10-01', '2023-12-30', 100, ...Q1),
          fact('2024-03-31', '2024-06-29', 80, ...Q3),
        ],
      },
    });
    fs.writeFileSync(
      path.join(folder, 'CIK0000999002.json'),
      JSON.stringify({ ...gap, cik: 999002, entityName: 'Gap Devices Inc.' }),
    );
    fs.writeFileSync(
      path.join(folder, 'tickers.json'),
      JSON.stringify({
        0: { cik_str: 999001, ticker: 'FXD', title: 'Fixture Devices' },
        1: { cik_str: 999001, ticker: 'FXD-B', title: 'Fixture Devices' },
        2: { cik_str: 999002, ticker: 'GAP', title: 'Gap Devices' },
      }),
    );
    const env = { DATA_DIR: freshDataDir() };
    const result = await run(
      [
        path.join(folder, 'CIK0000999001.json'),
        path.join(folder, 'CIK0000999002.json'),
        path.join(folder, 'ifrs.json'),
        '--tickers',
        path.join(folder, 'tickers.json'),
      ],
      env,
    );
    expect(result.stdout).to.match(
      /FXD Fixture Devices Inc\.: \d+ statements, \d+ values \(\d+ derived, 1 restated\), fiscal year ends in month 9, us-gaap in USD/,
    );
    expect(result.stdout).to.match(
      /ifrs\.json: refused: IFRS Co files no ifrs-full facts of the concepts the import maps/,
    );
    expect(result.status).to.equal(1); // one file was refused
    // Importing again replaces, never duplicates.
    expect(
      (await run([path.join(folder, 'CIK0000999001.json'), '--tickers', path.join(folder, 'tickers.json')], env))
        .status,
    ).to.equal(0);

    const service = await startTestApp({ dataDir: env.DATA_DIR });
    try {
      const { body: company } = await requestAs<GraphQLAnswer<{ company: Schema.Company }>>(
        null,
        '/graphql',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            query:
              '{ company(ticker: "FXD") { id fiscalYearEnd incomeStatement(period: "FY2024") { revenue provenance { field concept accession form filed derived restated reportedValue } } } }',
          }),
        },
        service.url,
      );
      const fxd = company.data.company;
      expect(fxd.fiscalYearEnd).to.equal(9);
      expect(fxd.incomeStatement!.revenue).to.equal(410);
      expect(fxd.incomeStatement!.provenance.find((p) => p.field === 'revenue')).to.deep.equal({
        field: 'revenue',
        concept: 'Revenues',
        accession: 'k25',
        form: '10-K',
        filed: '2025-10-31',
        derived: false,
        restated: true,
        reportedValue: 410,
      });
      const plain = await requestAs<Data<CashFlow>>(
        null,
        `/v1/companies/${fxd.id}/cash-flow?period=Q3-2024`,
        {},
        service.url,
      );
      expect(plain.body.data).not.to.have.property('provenance');
      const traced = await requestAs<Data<CashFlow>>(
        null,
        `/v1/companies/${fxd.id}/cash-flow?period=Q3-2024&provenance=true`,
        {},
        service.url,
      );
      expect(traced.body.data.operating_cash_flow).to.equal(20);
      expect(traced.body.data.provenance!.find((p) => p.field === 'operating_cash_flow')).to.include({
        derived: true,
        accession: 'q3',
      });
      expect(
        (await requestAs(null, `/v1/companies/${fxd.id}/cash-flow?provenance=maybe`, {}, service.url)).status,
      ).to.equal(400);
      // Ratios work on imported data like on any other.
      const ratios = await requestAs(null, `/v1/companies/${fxd.id}/ratios?period=FY2024`, {}, service.url);
      expect(ratios.status).to.equal(200);
      // The year was restated (410) after its quarters were filed (100 + 90 + 80 + Q4 130 from the first 10-K): flagged;
      // its cash flows (10 + 15 + 20 + 25 = 70) add up.
      const read = async <T>(route: string) => (await requestAs<Data<T>>(null, route, {}, service.url)).body.data;
      const year = await read<IncomeStatement>(`/v1/companies/${fxd.id}/income-statement?period=FY2024`);
      const sum = year.data_quality.find((c) => c.check === 'year_equals_sum_of_quarters');
      expect(sum).to.include({ passed: false, difference: 10 });
      expect(sum!.detail).to.match(/filings disagree.*revenue 10/);
      const summary = await read<DataQualityCheck[]>(`/v1/companies/${fxd.id}/data-quality`);
      expect(summary.find((c) => c.check === 'year_equals_sum_of_quarters')).to.deep.include({
        checked: 2,
        failed: 1,
        failures: [{ statement: 'income', period: 'FY2024', difference: 10, detail: sum!.detail }],
      });
      // Its newest statement ends in September 2024: stale, in US dollars.
      expect(await read<CompanyProfile>(`/v1/companies/${fxd.id}`)).to.include({
        stale: true,
        latest_period_end: '2024-09-28',
        currency: 'USD',
      });
      expect((await read<IncomeStatement>(`/v1/companies/${fxd.id}/income-statement?period=ttm`)).revenue).to.equal(
        400,
      );
      // TTM with quarters missing: none, with the reason.
      const gapCompany = (
        await requestAs<GraphQLAnswer<{ company: Schema.Company }>>(
          null,
          '/graphql',
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ query: '{ company(ticker: "GAP") { id } }' }),
          },
          service.url,
        )
      ).body.data.company;
      const noTtm = await requestAs<Refusal>(
        null,
        `/v1/companies/${gapCompany.id}/income-statement?period=ttm`,
        {},
        service.url,
      );
      expect(noTtm.status).to.equal(404);
      expect(noTtm.body.error.message).to.equal(
        'No trailing twelve months ending Q3-2024: Q4-2023, Q2-2024 have no income statement',
      );
    } finally {
      await service.close();
    }
  });

  it('imports the real Apple and NVIDIA company facts when the evaluation data is present', async function () {
    if (!fs.existsSync(path.join(SEC_DATA, 'companyfacts', 'CIK0000320193.json'))) this.skip();
    const env = { DATA_DIR: freshDataDir() };
    const files = ['CIK0000320193.json', 'CIK0001045810.json'].map((f) => path.join(SEC_DATA, 'companyfacts', f));
    const filings = ['aapl-10-k-2024-11-01.html', 'nvda-10-q-2025-08-27.html'].map((f) =>
      path.join(SEC_DATA, '..', 'filings', 'raw_html', f),
    );
    const result = await run(
      [...files, '--tickers', path.join(SEC_DATA, 'company_tickers.json'), '--filings', ...filings],
      env,
    );
    expect(result.status, result.stdout + result.stderr).to.equal(0);
    expect(result.stdout).to.match(/aapl-10-k-2024-11-01\.html: AAPL 10-K FY2024: 1\d sections \(1\d new documents\)/);
    expect(result.stdout).to.match(/nvda-10-q-2025-08-27\.html: NVDA 10-Q Q2-2026: \d sections/);
    const service = await startTestApp({ dataDir: env.DATA_DIR });
    try {
      const read = async (ticker: string, period: string) => {
        const { body } = await requestAs<GraphQLAnswer<{ company: Schema.Company }>>(
          null,
          '/graphql',
          {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              query: `{ company(ticker: "${ticker}") { incomeStatement(period: "${period}") { netIncome periodEnd } } }`,
            }),
          },
          service.url,
        );
        return body.data.company.incomeStatement;
      };
      expect(await read('AAPL', 'FY2024')).to.deep.equal({ netIncome: 93_736_000_000, periodEnd: '2024-09-28' });
      expect(await read('NVDA', 'FY2025')).to.deep.equal({ netIncome: 72_880_000_000, periodEnd: '2025-01-26' });
      expect(await read('NVDA', 'Q2-2026')).to.deep.equal({ netIncome: 26_422_000_000, periodEnd: '2025-07-27' });
      // The filings' sections are titled, searchable documents of their companies.
      const keys = await createTestKeys(service);
      const { body } = await requestAs<Data<SearchResult[]>>(
        null,
        '/v1/search',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': keys.analyst },
          body: JSON.stringify({ query: 'risk factors supply chain manufacturing outsourcing partners', top_k: 3 }),
        },
        service.url,
      );
      expect(body.data[0].ticker).to.be.oneOf(['AAPL', 'NVDA']);
      expect(body.data.map((hit) => hit.title).join(' ')).to.include('Item 1A. Risk Factors');
      expect(body.data[0].doc_type).to.match(/^10-[KQ]$/);
    } finally {
      await service.close();
    }
  });
});
