/**
 * One company's statements at exact periods are read with the company, in its own statement
 * (src/statements/statement-read-ahead.ts); a page of companies reads the same statements through the loaders. Every
 * column, the data-quality checks (which compare a statement with its quarters and balance sheets) and a period
 * without a statement must answer the same either way.
 */
import { expect } from 'chai';
import { graphql } from './helpers/http';
import type { GraphQLAnswer, GraphQLFailure } from './helpers/http';
import { app } from './helpers/shared-app';

const KINDS = {
  incomeStatement: 'IncomeStatement',
  balanceSheet: 'BalanceSheet',
  cashFlow: 'CashFlowStatement',
} as const;

/** Every scalar field of a statement type, from the schema itself, so a new line item is compared too. */
async function scalarFields(typeName: string): Promise<string[]> {
  type Field = { name: string; args: unknown[]; type: { kind: string; ofType: { kind: string } | null } };
  const response = await graphql<GraphQLAnswer<{ __type: { fields: Field[] } }>>(
    `{ __type(name: "${typeName}") { fields { name args { name } type { kind ofType { kind } } } } }`,
  );
  return response.body.data.__type.fields
    .filter((field) => field.args.length === 0 && [field.type.kind, field.type.ofType?.kind].includes('SCALAR'))
    .map((field) => field.name);
}

/** One kind's statements at the periods, aliased by position (one kind at a time keeps under the field limit). */
async function selectionFor(field: keyof typeof KINDS, periods: string[]): Promise<string> {
  const scalars = (await scalarFields(KINDS[field])).join(' ');
  return periods
    .map(
      (period, index) =>
        `s${index}: ${field}(period: "${period}") { ${scalars} dataQuality { check passed difference tolerance detail } }`,
    )
    .join('\n');
}

describe('Statements at exact periods read with their company', () => {
  it('answer as the loaders do: every column, the data-quality checks, and null for a period without a statement', async () => {
    const rows: Array<{ id: number; ticker: string; periods: string[] }> = await app().database.dataSource.query(
      `SELECT c.id, c.ticker, (array_agg(DISTINCT s.period))[1:6] AS periods
         FROM companies c JOIN income_statements s ON s.company_id = c.id GROUP BY c.id, c.ticker ORDER BY c.id LIMIT 5`,
    );
    expect(rows.length).to.be.greaterThan(1);
    let statementsSeen = 0;
    for (const { id, ticker, periods } of rows) {
      // A year with no statement, and a period in lower case with spaces around, which names the same period.
      const asked = [...periods, 'FY1990', ` ${periods[0].toLowerCase()} `];
      for (const field of Object.keys(KINDS) as Array<keyof typeof KINDS>) {
        const selection = await selectionFor(field, asked);
        // The statements under their aliases (s0, s1, ...): null where the company has none.
        type Statements = Record<string, unknown>;
        const alone = await graphql<GraphQLAnswer<{ company: Statements }>>(`{ company(id: ${id}) { ${selection} } }`);
        const onPage = await graphql<GraphQLAnswer<{ companies: { items: Statements[] } }>>(
          `{ companies(ticker: "${ticker}") { items { ${selection} } } }`,
        );
        expect(alone.body.errors, JSON.stringify(alone.body.errors)).to.equal(undefined);
        expect(onPage.body.errors, JSON.stringify(onPage.body.errors)).to.equal(undefined);
        expect(alone.body.data.company, `${field} of ${ticker}`).to.deep.equal(onPage.body.data.companies.items[0]);
        expect(alone.body.data.company[`s${periods.length}`], 'FY1990').to.equal(null);
        statementsSeen += Object.values(alone.body.data.company).filter((statement) => statement !== null).length;
      }
    }
    expect(statementsSeen).to.be.greaterThan(rows.length * 6);
  });

  it('leaves a malformed period to the resolver, with its own error', async () => {
    const response = await graphql<GraphQLFailure>(
      '{ company(id: 1) { incomeStatement(period: "FY20x4") { revenue } } }',
    );
    expect(response.body.errors?.[0]?.extensions?.code).to.equal('BAD_USER_INPUT');
    expect(response.body.errors?.[0]?.message).to.match(/Invalid period "FY20x4"/);
  });
});
