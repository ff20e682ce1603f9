/**
 * A page of companies reads the statement histories its selection names ahead, in one statement
 * (src/statements/history-prefetch.ts); one company (`company(id)`) reads them through the loaders. Whatever the
 * selection (fragments, directives, aliases that ask different columns of the same history, computed fields, both
 * period types), every company's history on the page must equal the same selection asked of that company alone.
 */
import { expect } from 'chai';
import { graphql } from './helpers/http';

const HISTORY_SELECTION = `
  id
  annual: statements(type: ANNUAL, last: 3) {
    ...Dates
    incomeStatement { revenue netIncome }
    balanceSheet @include(if: $withBalance) { totalAssets totalEquity }
  }
  again: statements(type: ANNUAL, last: 3) {
    period
    incomeStatement { costOfRevenue epsDiluted __typename }
    cashFlow { freeCashFlow dataQuality { check passed } }
  }
  quarters: statements(type: QUARTER, last: 5) {
    period fiscalQuarter
    incomeStatement { revenue }
    balanceSheet @skip(if: $withBalance) { totalAssets }
    ratios { netMargin }
  }
  longer: statements(type: ANNUAL, last: 6) { period periodEnd cashFlow { operatingCashFlow } }
`;

const PAGE = `query Page($withBalance: Boolean!) {
  companies(limit: 100) { items { ...History } }
}
fragment History on Company { ${HISTORY_SELECTION} }
fragment Dates on FinancialPeriod { period type fiscalYear periodStart periodEnd }`;

const ONE = `query One($id: Int!, $withBalance: Boolean!) {
  company(id: $id) { ${HISTORY_SELECTION} }
}
fragment Dates on FinancialPeriod { period type fiscalYear periodStart periodEnd }`;

describe('Statement histories read ahead for a page of companies', () => {
  for (const withBalance of [true, false]) {
    it(`answers every company's histories as the company alone would (withBalance: ${withBalance})`, async () => {
      const page = await graphql(PAGE, { withBalance });
      expect(page.status, JSON.stringify(page.body)).to.equal(200);
      expect(page.body.errors).to.equal(undefined);
      const items: Array<{ id: number }> = page.body.data.companies.items;
      expect(items.length).to.be.greaterThan(10);
      let periodsSeen = 0;
      for (const item of items) {
        const one = await graphql(ONE, { id: item.id, withBalance });
        expect(one.body.errors).to.equal(undefined);
        expect(item, `company ${item.id}`).to.deep.equal(one.body.data.company);
        periodsSeen += (item as unknown as { annual: unknown[] }).annual.length;
      }
      // The demo data has histories to compare: the test cannot pass on empty lists.
      expect(periodsSeen).to.be.greaterThan(items.length);
    });
  }

  it('answers two pages of one request from their own reads when they select different columns of the same history', async () => {
    const response = await graphql(`{
      first: companies(limit: 5) { items { id statements(type: ANNUAL, last: 2) { period incomeStatement { revenue } } } }
      second: companies(limit: 5) { items { id statements(type: ANNUAL, last: 2) { period incomeStatement { netIncome } } } }
    }`);
    expect(response.body.errors).to.equal(undefined);
    const { first, second } = response.body.data;
    for (const [index, company] of first.items.entries()) {
      const alone = await graphql(`{ company(id: ${company.id}) { statements(type: ANNUAL, last: 2) { period incomeStatement { revenue netIncome } } } }`);
      const history = alone.body.data.company.statements;
      expect(company.statements).to.deep.equal(history.map((p: any) => ({ period: p.period, incomeStatement: p.incomeStatement && { revenue: p.incomeStatement.revenue } })));
      expect(second.items[index].statements).to.deep.equal(history.map((p: any) => ({ period: p.period, incomeStatement: p.incomeStatement && { netIncome: p.incomeStatement.netIncome } })));
      expect(history.some((p: any) => p.incomeStatement?.revenue !== null && p.incomeStatement?.netIncome !== null)).to.equal(true);
    }
  });

  it('leaves an out-of-range `last` to the resolver, with the same error as without the read-ahead', async () => {
    const response = await graphql('{ companies(limit: 2) { items { statements(type: ANNUAL, last: 0) { period incomeStatement { revenue } } } } }');
    expect(response.body.data).to.equal(null);
    expect(response.body.errors[0].message).to.equal('last must be from 1 to 40, got 0');
    expect(response.body.errors[0].extensions.code).to.equal('BAD_USER_INPUT');
  });

  it('counts the total only when it is selected, and then right', async () => {
    const withTotal = await graphql('{ companies(limit: 3, offset: 1) { total items { id } } }');
    const everyone = await graphql('{ companies(limit: 100) { items { id } } }');
    expect(withTotal.body.data.companies.total).to.equal(everyone.body.data.companies.items.length);
    const withoutTotal = await graphql('{ companies(limit: 3, offset: 1) { limit offset items { id } } }');
    expect(withoutTotal.body.data.companies).to.deep.equal({ limit: 3, offset: 1, items: withTotal.body.data.companies.items });
  });
});
