import { expect } from 'chai';
import { importCompanyFacts, type CompanyFactsFile, type RawFact } from '../src/sec/companyfacts';
import {
  balanceCheck,
  cashRollForwardCheck,
  money,
  roundingTolerance,
  roundingUnit,
  statementUnitCap,
  summarizeChecks,
  yearSumCheck,
} from '../src/statements/data-quality';
import { computeRatios, type RatioInputs } from '../src/statements/ratios';
import { sumQuarters, trailingQuarters } from '../src/statements/trailing';
import { quarter } from '../src/statements/fiscal-period';

/** Small companyfacts files: a calendar-year company filing one 10-K (FY2024) and three 10-Qs. */
type Units = Record<string, RawFact[]>;
const fact = (
  start: string | undefined,
  end: string,
  val: number,
  form = '10-K',
  filed = '2025-02-01',
  accn = 'k24',
): RawFact => ({
  ...(start ? { start } : {}),
  end,
  val,
  accn,
  fy: 2024,
  fp: form === '10-K' || form === '20-F' ? 'FY' : 'Q1',
  form,
  filed,
});
const year = (val: number) => fact('2024-01-01', '2024-12-31', val);
const atYearEnd = (val: number) => fact(undefined, '2024-12-31', val);

function gaap(concepts: Record<string, Units>): CompanyFactsFile {
  const facts: CompanyFactsFile['facts'] = { 'us-gaap': {} };
  for (const [concept, units] of Object.entries(concepts)) facts['us-gaap'][concept] = { units };
  return { cik: 999100, entityName: 'Reconcile Co', facts };
}

// Amounts that are not round, so the checks' rounding tolerance (half a unit of each amount's precision) is 0.5 each.
const BALANCED = {
  Revenues: { USD: [year(1003)] },
  Assets: { USD: [atYearEnd(1003)] },
  StockholdersEquity: { USD: [atYearEnd(301)] },
  MinorityInterest: { USD: [atYearEnd(51)] },
  TemporaryEquityCarryingAmountAttributableToParent: { USD: [atYearEnd(31)] },
  RedeemableNoncontrollingInterestEquityCarryingAmount: { USD: [atYearEnd(19)] },
  LiabilitiesAndStockholdersEquity: { USD: [atYearEnd(1003)] },
  ShortTermBorrowings: { USD: [atYearEnd(41)] },
  CommercialPaper: { USD: [atYearEnd(31)] },
  LongTermDebtCurrent: { USD: [atYearEnd(21)] },
  LongTermDebtNoncurrent: { USD: [atYearEnd(101)] },
};

describe('reconciled statements: import', () => {
  const source = (file: CompanyFactsFile, field: string, period: string) =>
    importCompanyFacts(file).sources.find((s) => s.field === field && s.period === period);
  const values = (file: CompanyFactsFile, kind: string, period: string) =>
    importCompanyFacts(file).statements.find((s) => s.statement === kind && s.period === period)?.values;

  it('derives gross profit when it is not tagged, and says so in its provenance', () => {
    const file = gaap({ Revenues: { USD: [year(1000)] }, CostOfRevenue: { USD: [year(600)] } });
    expect(values(file, 'income', 'FY2024')?.grossProfit).to.equal(400);
    expect(source(file, 'grossProfit', 'FY2024')).to.include({ concept: 'Revenues − CostOfRevenue', derived: true });
    // A tagged gross profit wins.
    const tagged = gaap({
      Revenues: { USD: [year(1000)] },
      CostOfRevenue: { USD: [year(600)] },
      GrossProfit: { USD: [year(390)] },
    });
    expect(source(tagged, 'grossProfit', 'FY2024')).to.include({ concept: 'GrossProfit', derived: false, value: 390 });
  });

  it('fills non-controlling interest, temporary equity and liabilities (derived when untagged), so the sheet balances', () => {
    const balance = values(gaap(BALANCED), 'balance', 'FY2024');
    expect(balance).to.include({
      nonControllingInterest: 51,
      temporaryEquity: 50,
      totalLiabilitiesAndEquity: 1003,
      totalLiabilities: 601,
      totalEquity: 301,
    });
    expect(source(gaap(BALANCED), 'totalLiabilities', 'FY2024')).to.include({
      derived: true,
      concept:
        'LiabilitiesAndStockholdersEquity − StockholdersEquity − MinorityInterest − TemporaryEquityCarryingAmountAttributableToParent + RedeemableNoncontrollingInterestEquityCarryingAmount',
    });
    expect(balanceCheck(balance as never)).to.include({ passed: true, difference: 0 });
  });

  it('builds total debt from its lines without counting commercial paper inside short-term borrowings twice', () => {
    const balance = values(gaap(BALANCED), 'balance', 'FY2024');
    // 41 short-term borrowings (which include the 31 of commercial paper) + 21 current portion + 101 non-current.
    expect(balance).to.include({
      shortTermBorrowings: 41,
      commercialPaper: 31,
      currentPortionOfLongTermDebt: 21,
      shortTermDebt: 62,
      longTermDebt: 101,
      totalDebt: 163,
    });
    expect(source(gaap(BALANCED), 'shortTermDebt', 'FY2024')).to.include({
      concept: 'ShortTermBorrowings + LongTermDebtCurrent',
      derived: true,
    });
    // Without short-term borrowings, commercial paper counts; LongTermDebt (with its current part) loses that part.
    const paper = gaap({
      Revenues: { USD: [year(1003)] },
      Assets: { USD: [atYearEnd(501)] },
      CommercialPaper: { USD: [atYearEnd(11)] },
      LongTermDebtCurrent: { USD: [atYearEnd(5)] },
      LongTermDebt: { USD: [atYearEnd(105)] },
    });
    expect(values(paper, 'balance', 'FY2024')).to.include({ shortTermDebt: 16, longTermDebt: 100, totalDebt: 116 });
    expect(source(paper, 'longTermDebt', 'FY2024')).to.include({
      concept: 'LongTermDebt − LongTermDebtCurrent',
      derived: true,
    });
  });

  it('flags a sheet that does not balance with the difference and why', () => {
    const gap = gaap({
      ...BALANCED,
      TemporaryEquityCarryingAmountAttributableToParent: { USD: [] },
      RedeemableNoncontrollingInterestEquityCarryingAmount: { USD: [] },
      Liabilities: { USD: [atYearEnd(601)] },
    });
    const check = balanceCheck(values(gap, 'balance', 'FY2024') as never);
    expect(check).to.include({ check: 'balance', passed: false, difference: 50, tolerance: 2 });
    expect(check?.detail).to.match(/equals total assets, so 50 sits in a line between liabilities and equity/);
  });

  it('uses one concept per field for a year and all its quarters, the one covering most of them', () => {
    const file = gaap({
      Revenues: { USD: [year(1000)] },
      DepreciationDepletionAndAmortization: { USD: [year(95)] },
      DepreciationAndAmortization: {
        USD: [
          fact('2024-01-01', '2024-03-31', 20, '10-Q', '2024-04-30', 'q1'),
          fact('2024-04-01', '2024-06-30', 25, '10-Q', '2024-07-30', 'q2'),
          fact('2024-07-01', '2024-09-30', 25, '10-Q', '2024-10-30', 'q3'),
          fact('2024-01-01', '2024-09-30', 70, '10-Q', '2024-10-30', 'q3'),
          year(100),
        ],
      },
    });
    const depreciation = importCompanyFacts(file).sources.filter(
      (s) => s.field === 'depreciationAndAmortization' && s.statement === 'income',
    );
    expect(new Set(depreciation.map((s) => s.concept))).to.deep.equal(new Set(['DepreciationAndAmortization']));
    expect(values(file, 'income', 'FY2024')?.depreciationAndAmortization).to.equal(100);
    expect(values(file, 'income', 'Q4-2024')?.depreciationAndAmortization).to.equal(30);
  });

  it('imports an IFRS filer with the ifrs-full map, in its reporting currency, with interim balance sheets', () => {
    const ifrs: CompanyFactsFile = {
      cik: 1046179,
      entityName: 'Foundry IFRS Co',
      facts: {
        'ifrs-full': {
          Revenue: {
            units: {
              TWD: [fact('2024-01-01', '2024-12-31', 2_900_000, '20-F', '2025-04-17', 'f24')],
              USD: [fact('2024-01-01', '2024-12-31', 90_000, '20-F', '2025-04-17', 'f24')],
            },
          },
          CostOfSales: { units: { TWD: [fact('2024-01-01', '2024-12-31', 1_300_000, '20-F', '2025-04-17', 'f24')] } },
          BasicEarningsLossPerShare: {
            units: { 'TWD/shares': [fact('2024-01-01', '2024-12-31', 45.25, '20-F', '2025-04-17', 'f24')] },
          },
          Assets: {
            units: {
              TWD: [
                fact(undefined, '2024-12-31', 6_000_000, '20-F', '2025-04-17', 'f24'),
                fact(undefined, '2024-06-30', 5_500_000, '6-K', '2024-08-20', 'h24'),
              ],
            },
          },
          Liabilities: { units: { TWD: [fact(undefined, '2024-12-31', 2_000_000, '20-F', '2025-04-17', 'f24')] } },
          EquityAttributableToOwnersOfParent: {
            units: { TWD: [fact(undefined, '2024-12-31', 3_950_000, '20-F', '2025-04-17', 'f24')] },
          },
          NoncontrollingInterests: {
            units: { TWD: [fact(undefined, '2024-12-31', 50_000, '20-F', '2025-04-17', 'f24')] },
          },
        },
      },
    };
    const imported = importCompanyFacts(ifrs);
    expect(imported).to.include({ taxonomy: 'ifrs-full', currency: 'TWD', fiscalYearEndMonth: 12 });
    const income = imported.statements.find((s) => s.statement === 'income' && s.period === 'FY2024');
    expect(income?.values).to.include({ revenue: 2_900_000, grossProfit: 1_600_000, epsBasic: 45.25 });
    expect(
      imported.statements.find((s) => s.statement === 'balance' && s.period === 'Q2-2024')?.values.totalAssets,
    ).to.equal(5_500_000);
    const balance = imported.statements.find((s) => s.statement === 'balance' && s.period === 'FY2024')?.values;
    expect(balanceCheck(balance as never)).to.include({ passed: true });
  });
});

describe('reconciled statements: checks', () => {
  it('takes the rounding of an amount as the largest power of ten up to a million that divides it', () => {
    const byRemainder = (value: number) => {
      let unit = 1_000_000;
      while (unit > 1 && value % unit !== 0) unit /= 10;
      return unit;
    };
    const amounts = [0, -0, 5, 10, 12_072_867_000, -4_500_000, 1_000_000_000_000, 2 ** 53 - 1, 2 ** 53 - 10, 2 ** 53];
    amounts.push(9_007_199_254_000_001, 1e21, 1234.5, -0.25, Number.NaN, Infinity);
    for (let i = 0; i < 2_000; i += 1) {
      const digits = Math.floor(Math.random() * 16);
      const amount = Math.round(Math.random() * 10 ** digits) * 10 ** Math.floor(Math.random() * 7);
      amounts.push(Math.random() < 0.5 ? amount : -amount, amount + 1);
    }
    for (const amount of amounts) expect(roundingUnit(amount), String(amount)).to.equal(byRemainder(amount));
  });

  it('writes amounts in details as en-US formatting writes them', () => {
    const english = new Intl.NumberFormat('en-US');
    const amounts = [0, -0, 0.4, -0.4, 0.5, -0.5, 999, 1_000, -1_000, 12_345.5, 123_456, -1_234_567.49];
    amounts.push(2 ** 53 - 1, -(2 ** 53), 1e21, 1.5e300, Number.NaN, Infinity, -Infinity);
    for (let i = 0; i < 500; i += 1) amounts.push((Math.random() - 0.5) * 10 ** Math.floor(Math.random() * 16));
    for (const amount of amounts) expect(money(amount), String(amount)).to.equal(english.format(Math.round(amount)));
  });

  it('allows the reported rounding and no more', () => {
    // Cash from a filing in millions, a net change in thousands; a statement of a few round numbers is in units.
    const balance = { cashAndEquivalents: 395_000_000, totalAssets: 7_201_346_000 };
    expect(statementUnitCap(balance)).to.equal(1_000_000);
    expect(
      roundingTolerance([
        [395_000_000, balance],
        [101_971_000, { netChangeInCash: 101_971_000 }],
      ]),
    ).to.equal(500_000 + 500);
    expect(statementUnitCap({ revenue: 400, epsDiluted: 4.2 })).to.equal(1);
    expect(roundingTolerance([[400, { revenue: 400 }]])).to.equal(0.5);
    // Filed in millions: one million off is rounding; in units, two off is not.
    expect(
      balanceCheck({ totalAssets: 1_000_000_000, totalLiabilities: 600_000_000, totalEquity: 399_000_000 }),
    ).to.include({ passed: true, difference: 1_000_000 });
    expect(
      balanceCheck({ totalAssets: 1_000_000_001, totalLiabilities: 600_000_000, totalEquity: 399_000_000 }),
    ).to.include({ passed: false, difference: 1_000_001 });
    expect(balanceCheck({ totalAssets: 1_000_004, totalLiabilities: 600_001, totalEquity: 400_001 })).to.include({
      passed: false,
      difference: 2,
      tolerance: 1.5,
    });
  });

  it('checks a year against the sum of its quarters, and says the filings disagree when it misses', () => {
    const quarters = [
      { revenue: 101, epsDiluted: 1 },
      { revenue: 91, epsDiluted: 1 },
      { revenue: 81, epsDiluted: 1 },
      { revenue: 131, epsDiluted: 1 },
    ];
    expect(yearSumCheck({ revenue: 404, epsDiluted: 4.2 }, quarters, ['revenue', 'epsDiluted'])).to.include({
      passed: true,
      difference: 0,
    });
    const restated = yearSumCheck({ revenue: 414 }, quarters, ['revenue']);
    expect(restated).to.include({ passed: false, difference: 10 });
    expect(restated?.detail).to.match(/filings disagree.*revenue 10/);
    expect(yearSumCheck({ revenue: 404 }, [quarters[0], null, quarters[2], quarters[3]], ['revenue'])).to.equal(null);
  });

  it('rolls cash and restricted cash forward, or cash alone for statements from before restricted cash counted', () => {
    const opening = { cashAndEquivalents: 101, restrictedCash: 11 };
    const closing = { cashAndEquivalents: 123, restrictedCash: 17 };
    expect(cashRollForwardCheck({ netChangeInCash: 28 }, closing, opening)).to.include({ passed: true, difference: 0 });
    const cashAlone = cashRollForwardCheck({ netChangeInCash: 22 }, closing, opening);
    expect(cashAlone).to.include({ passed: true, difference: 0 });
    expect(cashAlone?.detail).to.match(/cash and equivalents alone/);
    expect(cashRollForwardCheck({ netChangeInCash: 43 }, closing, opening)).to.include({
      passed: false,
      difference: 15,
    });
  });

  it('summarizes every check per company with its failures', () => {
    const summary = summarizeChecks([
      {
        kind: 'balance',
        period: 'FY2024',
        periodEnd: '2024-12-31',
        values: { totalAssets: 13, totalLiabilities: 5, totalEquity: 8 },
      },
      {
        kind: 'balance',
        period: 'Q3-2024',
        periodEnd: '2024-09-30',
        values: { totalAssets: 13, totalLiabilities: 5, totalEquity: 5 },
      },
    ]);
    expect(summary.find((s) => s.check === 'balance')).to.deep.include({
      checked: 2,
      passed: 1,
      failed: 1,
      passRate: 0.5,
    });
    expect(summary.find((s) => s.check === 'balance')?.failures[0]).to.include({
      statement: 'balance',
      period: 'Q3-2024',
      difference: 3,
    });
    expect(summary.find((s) => s.check === 'grossProfit')).to.include({ checked: 0, passRate: null });
  });
});

describe('reconciled statements: ratios and trailing twelve months', () => {
  const inputs = (income: RatioInputs['income'], balance: RatioInputs['balance']): RatioInputs => ({
    periodType: 'ANNUAL',
    income,
    balance,
    cashFlow: null,
    previousBalance: null,
    priorYearIncome: null,
  });

  it('has no interest coverage when operating income or interest expense is negative', () => {
    expect(computeRatios(inputs({ operatingIncome: 200, interestExpense: 20 }, null)).interestCoverage).to.equal(10);
    expect(computeRatios(inputs({ operatingIncome: -4320, interestExpense: 20 }, null)).interestCoverage).to.equal(
      null,
    );
    expect(computeRatios(inputs({ operatingIncome: 200, interestExpense: -20 }, null)).interestCoverage).to.equal(null);
  });

  it('reads debt as 0 only when it is reported as 0, and has no debt ratio on negative equity', () => {
    expect(computeRatios(inputs(null, { totalAssets: 100, totalEquity: 50 })).debtToEquity).to.equal(null);
    expect(computeRatios(inputs(null, { totalAssets: 100, totalEquity: 50, totalDebt: 0 })).debtToEquity).to.equal(0);
    expect(
      computeRatios(inputs(null, { totalAssets: 100, totalEquity: 50, totalDebt: 25, shortTermDebt: 999 }))
        .debtToAssets,
    ).to.equal(0.25);
    expect(computeRatios(inputs(null, { totalAssets: 100, totalEquity: -50, totalDebt: 25 })).debtToEquity).to.equal(
      null,
    );
  });

  it('has no quick or cash ratio when one of their inputs is not reported', () => {
    const full = { cashAndEquivalents: 30, shortTermInvestments: 20, receivables: 50, totalCurrentLiabilities: 100 };
    expect(computeRatios(inputs(null, full)).quickRatio).to.equal(1);
    expect(computeRatios(inputs(null, full)).cashRatio).to.equal(0.5);
    const { shortTermInvestments: _sti, ...withoutInvestments } = full;
    expect(computeRatios(inputs(null, withoutInvestments)).quickRatio).to.equal(null);
    expect(computeRatios(inputs(null, withoutInvestments)).cashRatio).to.equal(null);
  });

  it('sums four quarters for TTM flows, averages share counts and nulls a field missing in one quarter', () => {
    expect(trailingQuarters(quarter(2025, 2)).map((q) => q.label)).to.deep.equal([
      'Q3-2024',
      'Q4-2024',
      'Q1-2025',
      'Q2-2025',
    ]);
    const q = (n: number, extra: Record<string, unknown> = {}) => ({
      period: `Q${n}-2025`,
      periodStart: `2025-0${n}-01`,
      periodEnd: `2025-0${n}-28`,
      revenue: n * 10,
      sharesDiluted: n * 100,
      ...extra,
    });
    const ttm = sumQuarters([q(1, { capex: 1 }), q(2, { capex: 1 }), q(3, { capex: null }), q(4, { capex: 1 })]);
    expect(ttm).to.include({
      period: 'TTM',
      periodStart: '2025-01-01',
      periodEnd: '2025-04-28',
      revenue: 100,
      sharesDiluted: 250,
      capex: null,
    });
  });
});
