import DataLoader from 'dataloader';
import type { DataSource } from 'typeorm';
import { Ctx, Field, FieldResolver, Float, ObjectType, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../graphql/context';
import { IncomeStatement } from './income-statement.entity';
import { BalanceSheet } from './balance-sheet.entity';
import { CashFlowStatement } from './cash-flow-statement.entity';
import type { StatementKey, StatementKind } from './statement.loaders';

@ObjectType({ description: 'Where an imported value came from: the SEC filing and its us-gaap or ifrs-full concept, and whether it was derived or restated.' })
export class ValueSource {
  @Field({ description: 'The statement field, camelCase (e.g. revenue).' })
  field!: string;

  @Field({ description: 'us-gaap or ifrs-full concept, e.g. RevenueFromContractWithCustomerExcludingAssessedTax; for a derived value its formula, e.g. Revenues − CostOfRevenue.' })
  concept!: string;

  @Field({ description: 'Accession number of the filing the value was taken from (the newest that reports it).' })
  accession!: string;

  @Field({ description: '10-K, 10-Q, 10-K/A…' })
  form!: string;

  @Field({ description: 'Filing date, YYYY-MM-DD.' })
  filed!: string;

  @Field({ description: 'Computed from filed values (Q2 = H1 − Q1, Q4 = FY − 9M, gross profit, total debt, free cash flow…) rather than filed as such.' })
  derived!: boolean;

  @Field({ description: 'A later filing changed the value first reported; the later value is the one stored.' })
  restated!: boolean;

  @Field(() => Float, { description: 'The value as filed (payments are stored negated as cash outflows).' })
  reportedValue!: number;
}

/** Value sources of (company, period) per statement, batched: a page of statements costs one query per kind. */
export function provenanceLoader(dataSource: DataSource, statement: StatementKind) {
  return new DataLoader<StatementKey, ValueSource[], string>(
    async (keys) => {
      const rows: Array<ValueSource & { companyId: number; period: string }> = await dataSource.query(
        `SELECT company_id AS "companyId", period, field, concept, accession, form, to_char(filed, 'YYYY-MM-DD') AS filed, derived, restated,
                reported_value::float8 AS "reportedValue"
           FROM statement_value_sources
          WHERE statement = $1 AND (company_id, period) IN (SELECT * FROM unnest($2::int[], $3::text[]))
          ORDER BY field`,
        [statement, keys.map((k) => k.companyId), keys.map((k) => k.period)],
      );
      const byKey = new Map<string, ValueSource[]>();
      for (const { companyId, period, ...source } of rows) {
        const key = `${companyId}|${period}`;
        byKey.set(key, [...(byKey.get(key) ?? []), source]);
      }
      return keys.map((k) => byKey.get(`${k.companyId}|${k.period}`) ?? []);
    },
    { cacheKeyFn: (k) => `${k.companyId}|${k.period}` },
  );
}

const DESCRIPTION = 'Sources of the values of an imported (SEC) statement, one per field; empty for demo data.';

@Resolver(() => IncomeStatement)
export class IncomeStatementProvenanceResolver {
  @FieldResolver(() => [ValueSource], { description: DESCRIPTION })
  provenance(@Root() statement: IncomeStatement, @Ctx() { loaders }: RequestContext) {
    return loaders.provenance.income.load({ companyId: statement.companyId, period: statement.period });
  }
}

@Resolver(() => BalanceSheet)
export class BalanceSheetProvenanceResolver {
  @FieldResolver(() => [ValueSource], { description: DESCRIPTION })
  provenance(@Root() statement: BalanceSheet, @Ctx() { loaders }: RequestContext) {
    return loaders.provenance.balance.load({ companyId: statement.companyId, period: statement.period });
  }
}

@Resolver(() => CashFlowStatement)
export class CashFlowProvenanceResolver {
  @FieldResolver(() => [ValueSource], { description: DESCRIPTION })
  provenance(@Root() statement: CashFlowStatement, @Ctx() { loaders }: RequestContext) {
    return loaders.provenance.cashFlow.load({ companyId: statement.companyId, period: statement.period });
  }
}
