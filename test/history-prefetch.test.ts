/**
 * A page of companies reads the statement histories its selection names ahead, in one statement
 * (src/statements/history-prefetch.ts); one company (`company(id)`) reads them through the loaders. Whatever the
 * selection (fragments, directives, aliases that ask different columns of the same history, computed fields, both
 * period types), every company's history on the page must equal the same selection asked of that company alone.
 */
import { expect } from 'chai';
import { graphql } from './helpers/http';
import type { GraphQLAnswer, GraphQLFailure } from './helpers/http';
import { app } from './helpers/shared-app';
import type { Schema } from '../sdk/typescript/src';

/** A company as HISTORY_SELECTION reads it (its histories under their aliases, compared whole). */
interface Histories {
  id: number;
  annual: unknown[];
  again: unknown[];
  quarters: unknown[];
  longer: unknown[];
}

/** A page of companies whose items are what a query selected of them. */
type PageOf<T> = GraphQLAnswer<{ companies: Omit<Schema.CompanyPage, 'items'> & { items: T[] } }>;

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
      const page = await graphql<PageOf<Histories>>(PAGE, { withBalance });
      expect(page.status, JSON.stringify(page.body)).to.equal(200);
      expect(page.body.errors).to.equal(undefined);
      const items = page.body.data.companies.items;
      expect(items.length).to.be.greaterThan(10);
      let periodsSeen = 0;
      for (const item of items) {
        const one = await graphql<GraphQLAnswer<{ company: Histories }>>(ONE, { id: item.id, withBalance });
        expect(one.body.errors).to.equal(undefined);
        expect(item, `company ${item.id}`).to.deep.equal(one.body.data.company);
        periodsSeen += item.annual.length;
      }
      // The demo data has histories to compare: the test cannot pass on empty lists.
      expect(periodsSeen).to.be.greaterThan(items.length);
    });
  }

  it('answers as the company alone when the statement tables disagree: a period only some kinds have, dates that differ by kind', async () => {
    const db = app().database.dataSource;
    const [{ id, newest, before }] = await db.query(
      `SELECT company_id AS id, max(period) AS newest, (array_agg(period ORDER BY period DESC))[2] AS before
         FROM income_statements WHERE period LIKE 'FY%' GROUP BY company_id ORDER BY company_id LIMIT 1`,
    );
    expect(`${newest} ${before}`).to.match(/^FY\d{4} FY\d{4}$/);
    // The newest fiscal year loses its income statement (balance sheet and cash flow keep it), and the year before's
    // balance sheet starts a day earlier than its income statement says: the dates must come from the first kind that
    // has the period, in the order income, balance sheet, cash flow, as for the company alone. Put back afterwards
    // (the suite shares this database).
    await db.query(
      `CREATE TABLE history_test_income AS SELECT * FROM income_statements WHERE company_id = ${Number(id)} AND period = '${newest}'`,
    );
    try {
      await db.query('DELETE FROM income_statements WHERE company_id = $1 AND period = $2', [id, newest]);
      await db.query(
        `UPDATE balance_sheets SET period_start = period_start - 1 WHERE company_id = $1 AND period IN ($2, $3)`,
        [id, newest, before],
      );
      const selection =
        'statements(type: ANNUAL, last: 3) { period periodStart periodEnd incomeStatement { revenue } balanceSheet { totalAssets } }';
      const page = await graphql<PageOf<Schema.Company>>(`{ companies(limit: 100) { items { id ${selection} } } }`);
      const alone = await graphql<GraphQLAnswer<{ company: Schema.Company }>>(
        `{ company(id: ${Number(id)}) { id ${selection} } }`,
      );
      const onPage = page.body.data.companies.items.find((item) => item.id === Number(id));
      expect(onPage).to.deep.equal(alone.body.data.company);
      const [first, second] = onPage!.statements;
      expect([first.period, first.incomeStatement, second.period]).to.deep.equal([newest, null, before]);
      // The newest year's dates are the balance sheet's (a day earlier); the year before's are the income statement's.
      const startOf = async (table: string, period: string) =>
        (
          await db.query(
            `SELECT to_char(period_start, 'YYYY-MM-DD') AS start FROM ${table} WHERE company_id = $1 AND period = $2`,
            [id, period],
          )
        )[0].start;
      expect(first.periodStart).to.equal(await startOf('balance_sheets', newest));
      expect(second.periodStart).to.equal(await startOf('income_statements', before));
      expect(second.periodStart).not.to.equal(await startOf('balance_sheets', before));
    } finally {
      await db.query(
        `UPDATE balance_sheets SET period_start = period_start + 1 WHERE company_id = $1 AND period IN ($2, $3)`,
        [id, newest, before],
      );
      await db.query('INSERT INTO income_statements SELECT * FROM history_test_income');
      await db.query('DROP TABLE history_test_income');
    }
  });

  it('answers two pages of one request from their own reads when they select different columns of the same history', async () => {
    const response = await graphql<GraphQLAnswer<Record<'first' | 'second', Schema.CompanyPage>>>(`
      {
        first: companies(limit: 5) {
          items {
            id
            statements(type: ANNUAL, last: 2) {
              period
              incomeStatement {
                revenue
              }
            }
          }
        }
        second: companies(limit: 5) {
          items {
            id
            statements(type: ANNUAL, last: 2) {
              period
              incomeStatement {
                netIncome
              }
            }
          }
        }
      }
    `);
    expect(response.body.errors).to.equal(undefined);
    const { first, second } = response.body.data;
    for (const [index, company] of first.items.entries()) {
      const alone = await graphql<GraphQLAnswer<{ company: Schema.Company }>>(
        `{ company(id: ${company.id}) { statements(type: ANNUAL, last: 2) { period incomeStatement { revenue netIncome } } } }`,
      );
      const history = alone.body.data.company.statements;
      expect(company.statements).to.deep.equal(
        history.map((p) => ({
          period: p.period,
          incomeStatement: p.incomeStatement && { revenue: p.incomeStatement.revenue },
        })),
      );
      expect(second.items[index].statements).to.deep.equal(
        history.map((p) => ({
          period: p.period,
          incomeStatement: p.incomeStatement && { netIncome: p.incomeStatement.netIncome },
        })),
      );
      expect(
        history.some((p) => p.incomeStatement?.revenue !== null && p.incomeStatement?.netIncome !== null),
      ).to.equal(true);
    }
  });

  it('leaves an out-of-range `last` to the resolver, with the same error as without the read-ahead', async () => {
    const response = await graphql<GraphQLFailure>(
      '{ companies(limit: 2) { items { statements(type: ANNUAL, last: 0) { period incomeStatement { revenue } } } } }',
    );
    expect(response.body.data).to.equal(null);
    expect(response.body.errors[0].message).to.equal('last must be from 1 to 40, got 0');
    expect(response.body.errors[0].extensions.code).to.equal('BAD_USER_INPUT');
  });

  it('counts the total only when it is selected, and then right', async () => {
    const withTotal = await graphql<PageOf<{ id: number }>>(
      '{ companies(limit: 3, offset: 1) { total items { id } } }',
    );
    const everyone = await graphql<PageOf<{ id: number }>>('{ companies(limit: 100) { items { id } } }');
    expect(withTotal.body.data.companies.total).to.equal(everyone.body.data.companies.items.length);
    const withoutTotal = await graphql<PageOf<{ id: number }>>(
      '{ companies(limit: 3, offset: 1) { limit offset items { id } } }',
    );
    expect(withoutTotal.body.data.companies).to.deep.equal({
      limit: 3,
      offset: 1,
      items: withTotal.body.data.companies.items,
    });
  });
});
