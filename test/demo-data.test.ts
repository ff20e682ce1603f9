import { expect } from 'chai';
import { generateDemoData, type DemoDataset } from '../src/demo/demo-data';

/** Rows of one company in reporting order, keyed by period label for lookups. */
function byPeriod<T extends { ticker: string; period: string }>(rows: T[], ticker: string): Map<string, T> {
  return new Map(rows.filter((row) => row.ticker === ticker).map((row) => [row.period, row]));
}

function quarterLabels(fiscalYear: number): string[] {
  return [1, 2, 3, 4].map((q) => `Q${q}-${fiscalYear}`);
}

/** The period whose closing cash a period's net change in cash starts from; null for the first period. */
function previousCashPeriod(row: { fiscalYear: number; fiscalQuarter: number | null }): string {
  if (row.fiscalQuarter === null) return `FY${row.fiscalYear - 1}`;
  return row.fiscalQuarter === 1 ? `Q4-${row.fiscalYear - 1}` : `Q${row.fiscalQuarter - 1}-${row.fiscalYear}`;
}

const INCOME_FLOW_ITEMS = [
  'revenue',
  'costOfRevenue',
  'grossProfit',
  'researchAndDevelopment',
  'sellingGeneralAndAdministrative',
  'operatingExpenses',
  'operatingIncome',
  'interestExpense',
  'incomeBeforeTax',
  'incomeTaxExpense',
  'netIncome',
  'depreciationAndAmortization',
  'ebitda',
] as const;

const CASH_FLOW_ITEMS = [
  'netIncome',
  'depreciationAndAmortization',
  'stockBasedCompensation',
  'changeInWorkingCapital',
  'operatingCashFlow',
  'capitalExpenditure',
  'investingCashFlow',
  'dividendsPaid',
  'shareRepurchases',
  'financingCashFlow',
  'netChangeInCash',
  'freeCashFlow',
] as const;

const BALANCE_ITEMS = [
  'cashAndEquivalents',
  'shortTermInvestments',
  'receivables',
  'inventory',
  'totalCurrentAssets',
  'ppeNet',
  'goodwillAndIntangibles',
  'totalAssets',
  'accountsPayable',
  'shortTermDebt',
  'totalCurrentLiabilities',
  'longTermDebt',
  'totalLiabilities',
  'retainedEarnings',
  'totalEquity',
] as const;

/** Plausible quarterly gross margins per sector: wide enough for company variation, narrow enough to mean something. */
const GROSS_MARGIN_BANDS: Record<string, [number, number]> = {
  'Information Technology': [0.05, 0.95],
  'Health Care': [0.1, 0.95],
  Financials: [0.2, 0.85],
  'Consumer Discretionary': [0.1, 0.6],
  'Consumer Staples': [0.15, 0.65],
  Energy: [0.05, 0.65],
  Industrials: [0.15, 0.5],
  Materials: [0.15, 0.5],
  Utilities: [0.25, 0.7],
  'Communication Services': [0.3, 0.85],
  'Real Estate': [0.4, 0.85],
};

describe('demo data', () => {
  let data: DemoDataset;

  before(() => {
    data = generateDemoData();
  });

  it('is deterministic', () => {
    expect(generateDemoData()).to.deep.equal(data);
  });

  describe('companies', () => {
    it('has at least 40 fictional companies across at least 8 sectors, three or more per sector', () => {
      expect(data.companies.length).to.be.at.least(40);
      const perSector = new Map<string, number>();
      for (const company of data.companies) perSector.set(company.sector, (perSector.get(company.sector) ?? 0) + 1);
      expect(perSector.size).to.be.at.least(8);
      for (const [sector, count] of perSector) expect(count, sector).to.be.at.least(3);
      for (const sector of perSector.keys()) expect(GROSS_MARGIN_BANDS, sector).to.have.property(sector);
    });

    it('has unique upper-case tickers, some of them all digits', () => {
      const tickers = data.companies.map((company) => company.ticker);
      expect(new Set(tickers).size).to.equal(tickers.length);
      for (const ticker of tickers) expect(ticker).to.match(/^[A-Z0-9]{1,16}$/);
      expect(tickers.filter((ticker) => /^\d+$/.test(ticker)).length).to.be.at.least(3);
    });

    it('mixes fiscal year ends and currencies', () => {
      const nonDecember = data.companies.filter((company) => company.fiscalYearEnd !== 12);
      expect(nonDecember.length).to.be.at.least(1);
      for (const company of data.companies) {
        expect(company.fiscalYearEnd).to.be.within(1, 12);
        expect(company.currency).to.match(/^[A-Z]{3}$/);
        expect(company.country).to.match(/^[A-Z]{2}$/);
      }
      expect(new Set(data.companies.map((company) => company.currency)).size).to.be.at.least(3);
    });

    it('uses only reserved .example websites and describes each company', () => {
      for (const company of data.companies) {
        expect(company.website, company.ticker).to.match(/^https:\/\/[a-z0-9-]+\.example$/);
        expect(company.description?.length ?? 0, company.ticker).to.be.greaterThan(30);
        expect(company.employees ?? 0, company.ticker).to.be.greaterThan(0);
      }
    });
  });

  describe('periods', () => {
    it('gives every company at least 12 quarters and 3 fiscal years, each with all three statements', () => {
      for (const company of data.companies) {
        const income = data.incomeStatements.filter((row) => row.ticker === company.ticker);
        const quarters = income.filter((row) => row.fiscalQuarter !== null);
        const years = income.filter((row) => row.fiscalQuarter === null);
        expect(quarters.length, company.ticker).to.be.at.least(12);
        expect(years.length, company.ticker).to.be.at.least(3);
        const labels = income.map((row) => row.period).sort();
        expect(new Set(labels).size, company.ticker).to.equal(labels.length);
        expect([...byPeriod(data.balanceSheets, company.ticker).keys()].sort(), company.ticker).to.deep.equal(labels);
        expect([...byPeriod(data.cashFlowStatements, company.ticker).keys()].sort(), company.ticker).to.deep.equal(
          labels,
        );
      }
    });

    it('starts at fiscal 2022, ends by 2026-09-30, and reports a fiscal year only when its four quarters exist', () => {
      for (const company of data.companies) {
        const income = byPeriod(data.incomeStatements, company.ticker);
        expect(income.has('Q1-2022'), company.ticker).to.equal(true);
        for (const row of income.values()) {
          expect(row.periodEnd <= '2026-09-30', `${company.ticker} ${row.period}`).to.equal(true);
          expect(row.currency).to.equal(company.currency);
          if (row.fiscalQuarter === null) {
            for (const label of quarterLabels(row.fiscalYear))
              expect(income.has(label), `${company.ticker} ${label}`).to.equal(true);
            expect(row.periodStart).to.equal(income.get(`Q1-${row.fiscalYear}`)?.periodStart);
            expect(row.periodEnd).to.equal(income.get(`Q4-${row.fiscalYear}`)?.periodEnd);
          }
        }
      }
    });

    it('dates quarters by the fiscal year end: a September company’s Q1-2025 is October–December 2024', () => {
      const september = data.companies.find((company) => company.fiscalYearEnd === 9);
      expect(september).to.not.equal(undefined);
      const row = byPeriod(data.incomeStatements, september!.ticker).get('Q1-2025');
      expect(row?.periodStart).to.equal('2024-10-01');
      expect(row?.periodEnd).to.equal('2024-12-31');
    });
  });

  describe('statement identities', () => {
    it('balances every balance sheet exactly and adds up its subtotals', () => {
      for (const row of data.balanceSheets) {
        const where = `${row.ticker} ${row.period}`;
        expect(row.totalAssets, where).to.equal(row.totalLiabilities! + row.totalEquity!);
        const listedCurrent =
          row.cashAndEquivalents! + row.shortTermInvestments! + row.receivables! + (row.inventory ?? 0);
        expect(row.totalCurrentAssets!, where).to.be.at.least(listedCurrent);
        expect(row.totalAssets!, where).to.be.at.least(
          row.totalCurrentAssets! + row.ppeNet! + row.goodwillAndIntangibles!,
        );
        expect(row.totalCurrentLiabilities!, where).to.be.at.least(row.accountsPayable! + row.shortTermDebt!);
        expect(row.totalLiabilities!, where).to.be.at.least(row.totalCurrentLiabilities! + row.longTermDebt!);
        expect(row.cashAndEquivalents!, where).to.be.greaterThan(0);
      }
    });

    it('keeps all money in whole thousands', () => {
      for (const row of data.balanceSheets) {
        for (const item of BALANCE_ITEMS) {
          const value = row[item];
          if (value !== null) expect(value % 1000, `${row.ticker} ${row.period} ${item}`).to.equal(0);
        }
      }
      for (const row of data.incomeStatements) {
        for (const item of INCOME_FLOW_ITEMS) {
          const value = row[item];
          if (value !== null) expect(value % 1000, `${row.ticker} ${row.period} ${item}`).to.equal(0);
        }
      }
    });

    it('derives income statement lines from each other', () => {
      for (const row of data.incomeStatements) {
        const where = `${row.ticker} ${row.period}`;
        expect(row.revenue!, where).to.be.greaterThan(0);
        expect(row.grossProfit, where).to.equal(row.revenue! - row.costOfRevenue!);
        expect(row.operatingExpenses, where).to.equal(
          (row.researchAndDevelopment ?? 0) + row.sellingGeneralAndAdministrative!,
        );
        expect(row.operatingIncome, where).to.equal(row.grossProfit! - row.operatingExpenses!);
        expect(row.incomeBeforeTax, where).to.equal(row.operatingIncome! - row.interestExpense!);
        expect(row.netIncome, where).to.equal(row.incomeBeforeTax! - row.incomeTaxExpense!);
        expect(row.ebitda, where).to.equal(row.operatingIncome! + row.depreciationAndAmortization!);
        expect(row.sharesDiluted!, where).to.be.at.least(row.sharesBasic!);
        expect(row.epsBasic, where).to.be.closeTo(row.netIncome! / row.sharesBasic!, 0.005 + 1e-9);
        expect(row.epsDiluted, where).to.be.closeTo(row.netIncome! / row.sharesDiluted!, 0.005 + 1e-9);
      }
    });

    it('keeps gross margins plausible for each sector', () => {
      const sectorOf = new Map(data.companies.map((company) => [company.ticker, company.sector]));
      for (const row of data.incomeStatements) {
        const [low, high] = GROSS_MARGIN_BANDS[sectorOf.get(row.ticker)!];
        expect(row.grossProfit! / row.revenue!, `${row.ticker} ${row.period}`).to.be.within(low, high);
      }
    });

    it('derives cash flow subtotals and ties net income to the income statement', () => {
      for (const company of data.companies) {
        const income = byPeriod(data.incomeStatements, company.ticker);
        for (const row of byPeriod(data.cashFlowStatements, company.ticker).values()) {
          const where = `${row.ticker} ${row.period}`;
          expect(row.netIncome, where).to.equal(income.get(row.period)?.netIncome);
          expect(row.depreciationAndAmortization, where).to.equal(income.get(row.period)?.depreciationAndAmortization);
          expect(row.operatingCashFlow, where).to.equal(
            row.netIncome! +
              row.depreciationAndAmortization! +
              row.stockBasedCompensation! +
              row.changeInWorkingCapital!,
          );
          expect(row.freeCashFlow, where).to.equal(row.operatingCashFlow! + row.capitalExpenditure!);
          expect(row.netChangeInCash, where).to.equal(
            row.operatingCashFlow! + row.investingCashFlow! + row.financingCashFlow!,
          );
          expect(row.capitalExpenditure!, where).to.be.at.most(0);
          expect(row.dividendsPaid!, where).to.be.at.most(0);
          expect(row.shareRepurchases!, where).to.be.at.most(0);
        }
      }
    });

    it('moves cash by exactly the net change in cash from the previous period', () => {
      let checked = 0;
      for (const company of data.companies) {
        const balances = byPeriod(data.balanceSheets, company.ticker);
        for (const row of byPeriod(data.cashFlowStatements, company.ticker).values()) {
          const previous = balances.get(previousCashPeriod(row));
          // The first quarter and first fiscal year start from the unreported opening balance.
          if (!previous) continue;
          const current = balances.get(row.period)!;
          expect(row.netChangeInCash, `${row.ticker} ${row.period}`).to.equal(
            current.cashAndEquivalents! - previous.cashAndEquivalents!,
          );
          checked++;
        }
      }
      expect(checked).to.be.greaterThan(data.companies.length * 15);
    });

    it('makes every fiscal year the sum of its quarters, with the fourth quarter’s balance sheet', () => {
      for (const company of data.companies) {
        const income = byPeriod(data.incomeStatements, company.ticker);
        const cash = byPeriod(data.cashFlowStatements, company.ticker);
        const balances = byPeriod(data.balanceSheets, company.ticker);
        for (const year of [...income.values()].filter((row) => row.fiscalQuarter === null)) {
          const labels = quarterLabels(year.fiscalYear);
          const where = `${company.ticker} ${year.period}`;
          for (const item of INCOME_FLOW_ITEMS) {
            const quarters = labels.map((label) => income.get(label)![item]);
            const expected = quarters.includes(null) ? null : quarters.reduce((sum, value) => sum! + value!, 0);
            expect(year[item], `${where} ${item}`).to.equal(expected);
          }
          const cashYear = cash.get(year.period)!;
          for (const item of CASH_FLOW_ITEMS) {
            const expected = labels.reduce((sum, label) => sum + cash.get(label)![item]!, 0);
            expect(cashYear[item], `${where} ${item}`).to.equal(expected);
          }
          const averageBasic = labels.reduce((sum, label) => sum + income.get(label)!.sharesBasic!, 0) / 4;
          expect(year.sharesBasic, where).to.equal(Math.round(averageBasic));
          expect(year.epsBasic, where).to.be.closeTo(year.netIncome! / year.sharesBasic!, 0.005 + 1e-9);
          const fourth = balances.get(`Q4-${year.fiscalYear}`)!;
          const yearBalance = balances.get(year.period)!;
          for (const item of BALANCE_ITEMS) expect(yearBalance[item], `${where} ${item}`).to.equal(fourth[item]);
        }
      }
    });
  });

  describe('model behaviour', () => {
    it('includes loss-making periods for a few growth companies but profits for most', () => {
      const quarters = data.incomeStatements.filter((row) => row.fiscalQuarter !== null);
      const lossMakers = new Set(quarters.filter((row) => row.netIncome! < 0).map((row) => row.ticker));
      expect(lossMakers.size).to.be.within(2, 6);
      const losses = quarters.filter((row) => row.netIncome! < 0);
      for (const row of losses) expect(row.incomeTaxExpense!, `${row.ticker} ${row.period}`).to.be.at.most(0);
    });

    it('reports no inventory for financials and real estate, and no R&D where the sector does not report it', () => {
      const sectorOf = new Map(data.companies.map((company) => [company.ticker, company.sector]));
      for (const row of data.balanceSheets) {
        if (['Financials', 'Real Estate'].includes(sectorOf.get(row.ticker)!))
          expect(row.inventory, row.ticker).to.equal(null);
      }
      for (const row of data.incomeStatements) {
        if (['Financials', 'Real Estate', 'Utilities'].includes(sectorOf.get(row.ticker)!)) {
          expect(row.researchAndDevelopment, row.ticker).to.equal(null);
        }
      }
    });
  });
});
