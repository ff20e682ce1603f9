/**
 * The answers that speed work on the read path must not change: a nested page of companies with their statement
 * history, ratios and latest statements, the REST list, and full statements over REST, compared as JSON with the
 * answers kept in test/fixtures/nested-page-golden.json.
 *
 * After an intended change of the demo data or of these answers, rewrite the fixture with WRITE_GOLDEN=1 and review
 * its diff.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { graphql, get } from './helpers/http';

const GOLDEN_FILE = path.resolve(__dirname, '../../test/fixtures/nested-page-golden.json');

/** The nested page of the benchmark, widened to every kind of nested field the loaders serve. */
const NESTED_PAGE = `query NestedPage($limit: Int) {
  companies(limit: $limit) {
    total
    items {
      id
      name
      ticker
      sector
      statements(type: ANNUAL, last: 4) {
        period
        type
        fiscalYear
        fiscalQuarter
        periodStart
        periodEnd
        incomeStatement { revenue grossProfit operatingIncome netIncome epsDiluted }
        balanceSheet { totalAssets totalLiabilities totalEquity cashAndEquivalents }
        cashFlow { operatingCashFlow capitalExpenditure freeCashFlow }
      }
      quarters: statements(type: QUARTER, last: 2) { period incomeStatement { revenue netIncome } ratios { netMargin } }
      periods(type: ANNUAL) { period periodEnd }
      incomeStatement { period currency revenue netIncome }
      balanceSheet(period: "latest-fy") { period totalAssets }
      cashFlow(period: "ttm") { period freeCashFlow }
      ratios(period: "FY2024") { type grossMargin returnOnEquity revenueGrowth currentRatio }
    }
  }
}`;

async function currentAnswers(): Promise<Record<string, unknown>> {
  const answers: Record<string, unknown> = {};
  const nested = await graphql(NESTED_PAGE, { limit: 100 });
  expect(nested.status).to.equal(200);
  answers['POST /graphql NestedPage(limit: 100)'] = nested.body;
  for (const route of [
    '/v1/companies',
    '/v1/companies?limit=100&offset=3',
    '/v1/companies/1',
    '/v1/companies/2/periods',
  ]) {
    answers[`GET ${route}`] = (await get(route)).body;
  }
  for (const statement of ['income-statement', 'balance-sheet', 'cash-flow']) {
    for (const period of ['FY2024', 'Q2-2024', 'ttm']) {
      const route = `/v1/companies/3/${statement}?period=${period}`;
      answers[`GET ${route}`] = (await get(route)).body;
    }
  }
  return answers;
}

describe('Answers on the demo data stay as they were before the performance work', () => {
  it('gives the golden JSON for a nested page of 100 companies, the REST list and full statements', async function () {
    this.timeout(60_000);
    const answers = await currentAnswers();
    if (process.env.WRITE_GOLDEN === '1') fs.writeFileSync(GOLDEN_FILE, `${JSON.stringify(answers, null, 1)}\n`);
    const golden = JSON.parse(fs.readFileSync(GOLDEN_FILE, 'utf8'));
    // Key by key, so a failure names the request whose answer changed.
    for (const request of Object.keys(golden)) expect(answers[request], request).to.deep.equal(golden[request]);
    expect(Object.keys(answers)).to.deep.equal(Object.keys(golden));
  });

  it('gives them again when the operations run compiled (a query is compiled on its second run)', async function () {
    this.timeout(60_000);
    const golden = JSON.parse(fs.readFileSync(GOLDEN_FILE, 'utf8'));
    for (let run = 0; run < 2; run += 1) {
      const answers = await currentAnswers();
      for (const request of Object.keys(golden))
        expect(answers[request], `${request}, run ${run + 2}`).to.deep.equal(golden[request]);
    }
  });
});
