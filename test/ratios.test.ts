import { expect } from 'chai';
import { computeRatios, RATIO_DEFINITIONS, type RatioInputs } from '../src/statements/ratios';

/** A hand-made annual period whose ratios are easy to check by hand. */
function sample(): RatioInputs {
  return {
    periodType: 'ANNUAL',
    income: {
      revenue: 1000,
      costOfRevenue: 600,
      grossProfit: 400,
      operatingIncome: 200,
      ebitda: 250,
      incomeBeforeTax: 180,
      incomeTaxExpense: 45,
      netIncome: 135,
      interestExpense: 20,
      epsDiluted: 1.35,
    },
    balance: {
      cashAndEquivalents: 100,
      shortTermInvestments: 50,
      receivables: 150,
      inventory: 100,
      totalCurrentAssets: 450,
      totalCurrentLiabilities: 300,
      accountsPayable: 80,
      shortTermDebt: 50,
      longTermDebt: 250,
      totalAssets: 1200,
      totalEquity: 600,
    },
    cashFlow: { operatingCashFlow: 240, capitalExpenditure: -90, freeCashFlow: 150, dividendsPaid: -54 },
    previousBalance: {
      receivables: 130,
      inventory: 140,
      accountsPayable: 70,
      totalAssets: 1000,
      totalEquity: 500,
      cashAndEquivalents: 80,
      shortTermDebt: 50,
      longTermDebt: 250,
    },
    priorYearIncome: { revenue: 800, netIncome: 150, epsDiluted: 1.5 },
  };
}

describe('ratios', () => {
  it('defines at least 25 ratios, each with a formula and a unique key', () => {
    expect(RATIO_DEFINITIONS.length).to.be.at.least(25);
    expect(new Set(RATIO_DEFINITIONS.map((d) => d.key)).size).to.equal(RATIO_DEFINITIONS.length);
    for (const definition of RATIO_DEFINITIONS) expect(definition.formula, definition.key).to.have.length.above(5);
  });

  it('computes each ratio as its formula says, on hand-checked numbers', () => {
    const r = computeRatios(sample());
    const expected: Record<string, number> = {
      grossMargin: 0.4,
      operatingMargin: 0.2,
      ebitdaMargin: 0.25,
      pretaxMargin: 0.18,
      netMargin: 0.135,
      effectiveTaxRate: 0.25,
      returnOnAssets: 135 / 1100,
      returnOnEquity: 135 / 550,
      // NOPAT 200 × 0.75 = 150; invested capital (600+300−100 = 800, 500+300−80 = 720) averages 760.
      returnOnInvestedCapital: 150 / 760,
      currentRatio: 1.5,
      quickRatio: 1,
      cashRatio: 0.5,
      operatingCashFlowRatio: 0.8,
      debtToEquity: 0.5,
      debtToAssets: 0.25,
      interestCoverage: 10,
      netDebtToEbitda: 150 / 250,
      assetTurnover: 1000 / 1100,
      inventoryTurnover: 600 / 120,
      receivablesTurnover: 1000 / 140,
      daysSalesOutstanding: (365 * 140) / 1000,
      daysInventoryOutstanding: (365 * 120) / 600,
      daysPayablesOutstanding: (365 * 75) / 600,
      cashConversionCycle: (365 * 140) / 1000 + (365 * 120) / 600 - (365 * 75) / 600,
      freeCashFlowMargin: 0.15,
      freeCashFlowConversion: 150 / 135,
      capexToRevenue: 0.09,
      payoutRatio: 0.4,
      revenueGrowth: 0.25,
      netIncomeGrowth: -0.1,
      epsGrowth: -0.1,
    };
    expect(Object.keys(r).sort()).to.deep.equal(Object.keys(expected).sort());
    for (const [key, value] of Object.entries(expected)) expect(r[key], key).to.be.closeTo(value, 1e-12);
  });

  it('annualizes flows for a quarter (×4) in ratios of a flow to a balance', () => {
    const inputs = { ...sample(), periodType: 'QUARTER' as const };
    const r = computeRatios(inputs);
    expect(r.returnOnEquity).to.be.closeTo((135 * 4) / 550, 1e-12);
    expect(r.daysSalesOutstanding).to.be.closeTo((365 * 140) / 4000, 1e-12);
    expect(r.grossMargin).to.equal(0.4);
  });

  it('is null, never NaN, Infinity or 0, when inputs are missing or a denominator is zero', () => {
    const empty = computeRatios({
      periodType: 'QUARTER',
      income: null,
      balance: null,
      cashFlow: null,
      previousBalance: null,
      priorYearIncome: null,
    });
    for (const [key, value] of Object.entries(empty)) expect(value, key).to.equal(null);

    const zeroes = sample();
    zeroes.income = { ...zeroes.income, revenue: 0, interestExpense: 0 };
    zeroes.balance = { ...zeroes.balance, totalCurrentLiabilities: 0 };
    zeroes.priorYearIncome = { revenue: 0, netIncome: null, epsDiluted: 0 };
    const r = computeRatios(zeroes);
    for (const key of [
      'grossMargin',
      'netMargin',
      'interestCoverage',
      'currentRatio',
      'quickRatio',
      'revenueGrowth',
      'netIncomeGrowth',
      'epsGrowth',
    ]) {
      expect(r[key], key).to.equal(null);
    }
    for (const value of Object.values(r)) expect(value === null || Number.isFinite(value)).to.equal(true);
  });

  it('needs the opening balance for averaged ratios and a profit for payout and tax rate', () => {
    const noOpening = { ...sample(), previousBalance: null };
    const r = computeRatios(noOpening);
    expect(r.returnOnEquity).to.equal(null);
    expect(r.inventoryTurnover).to.equal(null);
    expect(r.currentRatio).to.equal(1.5);

    const loss = sample();
    loss.income = { ...loss.income, incomeBeforeTax: -50, incomeTaxExpense: -10, netIncome: -40 };
    const l = computeRatios(loss);
    expect(l.effectiveTaxRate).to.equal(null);
    expect(l.payoutRatio).to.equal(null);
    expect(l.freeCashFlowConversion).to.equal(null);
    // Growth is measured against |prior|, so a fall into a loss reads negative.
    expect(l.netIncomeGrowth).to.be.closeTo((-40 - 150) / 150, 1e-12);
  });
});
