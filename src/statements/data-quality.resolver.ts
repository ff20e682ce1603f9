import { Ctx, Field, FieldResolver, Float, Int, ObjectType, Resolver, Root } from 'type-graphql';
import { LocalDateResolver } from 'graphql-scalars';
import type { RequestContext } from '../graphql/context';
import { Company } from '../companies/company.entity';
import { IncomeStatement } from './income-statement.entity';
import { BalanceSheet } from './balance-sheet.entity';
import { CashFlowStatement } from './cash-flow-statement.entity';
import { checkInputs, relatedPeriods, statementChecks, summarizeChecks, type StatementKindName } from './data-quality';
import type { StatementLoaders } from './statement.loaders';

@ObjectType('QualityCheck', { description: 'One data-quality identity checked on a statement: whether it holds, by how much it misses, and why.' })
export class QualityCheckType {
  @Field({ description: 'balance, yearEqualsSumOfQuarters, cashRollForward or grossProfit.' })
  check!: string;

  @Field()
  passed!: boolean;

  @Field(() => Float, { nullable: true, description: 'Left side minus right side, in the reporting currency; null when an input is missing.' })
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
async function checksOf(loaders: StatementLoaders, kind: StatementKindName, statement: Keyed & Values) {
  const { quarters, previous } = relatedPeriods(statement.period);
  const load = (k: StatementKindName, period: string) => (loaders[k] as unknown as { load(key: Keyed): Promise<Values | null> }).load({ companyId: statement.companyId, period });
  const wanted: Array<[StatementKindName, string]> = [
    ...(kind !== 'balance' && quarters ? quarters.map((q) => [kind, q] as [StatementKindName, string]) : []),
    ...(kind === 'cashFlow' ? [['balance', statement.period] as [StatementKindName, string], ...(previous ? [['balance', previous] as [StatementKindName, string]] : [])] : []),
  ];
  const loaded = await Promise.all(wanted.map(([k, period]) => load(k, period)));
  const found = new Map(wanted.map(([k, period], i) => [`${k}|${period}`, loaded[i]]));
  return statementChecks(checkInputs(kind, statement.period, statement, (k, period) => found.get(`${k}|${period}`) ?? null));
}

const DESCRIPTION = 'The data-quality checks that apply to this statement (balance, year = sum of quarters, cash roll-forward, gross profit), with pass or fail and the difference.';

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

/** A company whose newest statement ends longer ago than this is stale (a quarter is filed within ~45 days). */
export const STALE_AFTER_DAYS = 183;

@Resolver(() => Company)
export class CompanyQualityResolver {
  @FieldResolver(() => [DataQualitySummaryType], { description: 'Every data-quality check over all of the company\u2019s statements, with pass rates and the failing statements.' })
  async dataQuality(@Root() company: Company, @Ctx() { loaders }: RequestContext) {
    const periods = await loaders.periods.load(company.id);
    const wanted = periods.flatMap((period) => [...period.statements].map((kind) => ({ kind, period: period.period, periodEnd: period.periodEnd })));
    const rows = await Promise.all(wanted.map(({ kind, period }) => (loaders[kind] as unknown as { load(key: Keyed): Promise<Values | null> }).load({ companyId: company.id, period })));
    return summarizeChecks(wanted.flatMap((w, i) => (rows[i] ? [{ ...w, values: rows[i] as Values }] : [])));
  }

  @FieldResolver(() => LocalDateResolver, { nullable: true, description: 'End of the newest period with a statement; null when there is none.' })
  async latestPeriodEnd(@Root() company: Company, @Ctx() { loaders }: RequestContext): Promise<string | null> {
    const periods = await loaders.periods.load(company.id);
    return periods.reduce<string | null>((latest, period) => (latest === null || period.periodEnd > latest ? period.periodEnd : latest), null);
  }

  @FieldResolver(() => Boolean, { description: `True when the newest statement ends more than ${STALE_AFTER_DAYS} days ago: its figures are not current (false when it has no statements).` })
  async stale(@Root() company: Company, @Ctx() context: RequestContext): Promise<boolean> {
    const latest = await this.latestPeriodEnd(company, context);
    return latest !== null && Date.now() - Date.parse(latest) > STALE_AFTER_DAYS * 86_400_000;
  }
}
