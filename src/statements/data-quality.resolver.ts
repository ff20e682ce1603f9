import { Ctx, Field, FieldResolver, Float, Int, ObjectType, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../graphql/context';
import { IncomeStatement } from './income-statement.entity';
import { BalanceSheet } from './balance-sheet.entity';
import { CashFlowStatement } from './cash-flow-statement.entity';
import { checkInputs, comparedStatements, filingsAgreeCheck, statementChecks } from './data-quality';
import type { StatementKind } from './statement-kind';
import type { StatementLoaders } from './statement.loaders';

@ObjectType('QualityCheck', {
  description: 'One data-quality identity checked on a statement: whether it holds, by how much it misses, and why.',
})
export class QualityCheckType {
  @Field({ description: 'balance, yearEqualsSumOfQuarters, cashRollForward, grossProfit or filingsAgree.' })
  check!: string;

  @Field()
  passed!: boolean;

  @Field(() => Float, {
    nullable: true,
    description: 'Left side minus right side, in the reporting currency; null when an input is missing.',
  })
  difference!: number | null;

  @Field(() => Float, { description: 'The difference the reported rounding allows.' })
  tolerance!: number;

  @Field({ description: 'What was compared; on a failure, why it fails.' })
  detail!: string;
}

@ObjectType('QualityFailure', { description: 'A statement on which a data-quality check fails.' })
export class QualityFailureType {
  @Field({ description: 'income, balance or cashFlow.' })
  statement!: string;

  @Field()
  period!: string;

  @Field(() => Float, { nullable: true })
  difference!: number | null;

  @Field()
  detail!: string;
}

@ObjectType('DataQualitySummary', { description: 'One data-quality check over all statements of a company.' })
export class DataQualitySummaryType {
  @Field()
  check!: string;

  @Field()
  description!: string;

  @Field(() => Int, { description: 'Statements the check applies to (its inputs are stored).' })
  checked!: number;

  @Field(() => Int)
  passed!: number;

  @Field(() => Int)
  failed!: number;

  @Field(() => Float, { nullable: true, description: 'passed / checked; null when nothing was checked.' })
  passRate!: number | null;

  @Field(() => [QualityFailureType], { description: 'The failing statements, newest first.' })
  failures!: QualityFailureType[];
}

type Values = Record<string, unknown>;
type Keyed = { companyId: number; period: string };

/** The checks of one statement, with the statements they compare it with loaded through the request's loaders. */
async function checksOf(loaders: StatementLoaders, kind: StatementKind, statement: Keyed & Values) {
  const load = (k: StatementKind, period: string) =>
    (loaders[k] as unknown as { load(key: Keyed): Promise<Values | null> }).load({
      companyId: statement.companyId,
      period,
    });
  const wanted = comparedStatements(kind, statement.period);
  const [loaded, filed] = await Promise.all([
    Promise.all(wanted.map(([k, period]) => load(k, period))),
    loaders.filed[kind].load({ companyId: statement.companyId, period: statement.period }),
  ]);
  // At most six statements: a look-up by position, without keys to build on every read.
  const lookup = (k: StatementKind, period: string) => {
    const at = wanted.findIndex(([wantedKind, wantedPeriod]) => wantedKind === k && wantedPeriod === period);
    return at === -1 ? null : loaded[at];
  };
  const checks = statementChecks(checkInputs(kind, statement.period, statement, lookup));
  const agreement = filingsAgreeCheck(statement, filed);
  return agreement ? [...checks, agreement] : checks;
}

const DESCRIPTION =
  'The data-quality checks that apply to this statement (balance, year = sum of quarters, cash roll-forward, gross profit, agreement with the stored filings), with pass or fail and the difference.';

@Resolver(() => IncomeStatement)
export class IncomeStatementQualityResolver {
  @FieldResolver(() => [QualityCheckType], { description: DESCRIPTION })
  dataQuality(@Root() statement: IncomeStatement, @Ctx() { loaders }: RequestContext) {
    return checksOf(loaders, 'income', statement as unknown as Keyed & Values);
  }
}

@Resolver(() => BalanceSheet)
export class BalanceSheetQualityResolver {
  @FieldResolver(() => [QualityCheckType], { description: DESCRIPTION })
  dataQuality(@Root() statement: BalanceSheet, @Ctx() { loaders }: RequestContext) {
    return checksOf(loaders, 'balance', statement as unknown as Keyed & Values);
  }
}

@Resolver(() => CashFlowStatement)
export class CashFlowQualityResolver {
  @FieldResolver(() => [QualityCheckType], { description: DESCRIPTION })
  dataQuality(@Root() statement: CashFlowStatement, @Ctx() { loaders }: RequestContext) {
    return checksOf(loaders, 'cashFlow', statement as unknown as Keyed & Values);
  }
}
