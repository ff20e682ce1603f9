import type { DataSource } from 'typeorm';
import { CAPS } from '../operations/catalog';
import { AppError, badUserInput } from '../shared/errors';
import { RATIO_DEFINITIONS } from '../statements/ratios';
import { STATEMENT_KEY_COLUMNS } from '../statements/statement-fields';
import { statementColumnNames } from '../statements/statement.repository';
import { loadRatios, loadStatement } from '../statements/statement.service';
import type { StatementKind, StatementLoaders } from '../statements/statement.loaders';
import {
  findScreenCandidates,
  type ScreenCandidate,
  type ScreenedPeriod,
  type StatementCondition,
} from './screener.repository';
import {
  inSize,
  meets,
  parseScreen,
  screenVocabulary,
  type ScreenArguments,
  type ScreenField,
  type ScreenPlan,
  type ScreenSort,
  type ScreenVocabulary,
} from './screen-query';
import type { ScreenPage, ScreenRow } from './screener.types';

export const {
  defaultPageSize: SCREEN_PAGE_SIZE,
  maxPageSize: MAX_SCREEN_PAGE_SIZE,
  maxOffset: MAX_SCREEN_OFFSET,
  maxArgumentChars: MAX_ARGUMENT_CHARS,
} = CAPS.screener;

const STATEMENT_ORDER: StatementKind[] = ['income', 'balance', 'cashFlow'];

/** The names a screen accepts: every line item of the statements (from the entities) and every ratio. */
function vocabularyOf(dataSource: DataSource): ScreenVocabulary {
  const columns = statementColumnNames(dataSource.manager);
  const lineItems = STATEMENT_ORDER.map(
    (kind) =>
      [kind, [...columns[kind]].filter((name) => !STATEMENT_KEY_COLUMNS.has(name))] as [StatementKind, string[]],
  );
  return screenVocabulary(
    lineItems,
    RATIO_DEFINITIONS.map((definition) => definition.key),
  );
}

/** A candidate's statements and ratios of the screened period, read through the request's batching loaders. */
interface PeriodValues {
  statements: Partial<Record<StatementKind, Record<string, unknown> | null>>;
  ratios: Record<string, unknown> | null;
}

/** A trailing-twelve-months read that is missing a quarter screens as "no data", as a company without the period does. */
async function orNothing<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') return null;
    throw error;
  }
}

async function periodValues(
  loaders: StatementLoaders,
  candidate: ScreenCandidate,
  needs: { kinds: Set<StatementKind>; ratios: boolean },
): Promise<PeriodValues> {
  const period = candidate.period ?? 'ttm';
  const statements: PeriodValues['statements'] = {};
  await Promise.all(
    [...needs.kinds].map(async (kind) => {
      statements[kind] = (await orNothing(loadStatement(loaders, kind, candidate.id, period))) as Record<
        string,
        unknown
      > | null;
    }),
  );
  const ratios = needs.ratios
    ? ((await orNothing(loadRatios(loaders, candidate.id, period))) as Record<string, unknown> | null)
    : null;
  return { statements, ratios };
}

function valueOf(values: PeriodValues, field: ScreenField): number | null {
  const source = field.source.kind === 'ratio' ? values.ratios : values.statements[field.source.statement];
  const value = source?.[field.key];
  return typeof value === 'number' ? value : null;
}

/** Revenue over a year: a quarter's times four, a fiscal year's or the trailing twelve months' as they are. */
function annualRevenue(values: PeriodValues, period: string): number | null {
  const revenue = values.statements.income?.revenue;
  if (typeof revenue !== 'number') return null;
  return period.startsWith('Q') ? revenue * 4 : revenue;
}

interface ScreenedCompany {
  candidate: ScreenCandidate;
  period: string;
  values: PeriodValues;
}

function sortValue(company: ScreenedCompany, sort: ScreenSort): number | string | null {
  if (typeof sort.key !== 'string') return valueOf(company.values, sort.key);
  if (sort.key === 'size') return annualRevenue(company.values, company.period);
  return company.candidate[sort.key];
}

/** Sorted by the sort key (missing values last either way), then by name and id so pages never overlap. */
function compareBy(sort: ScreenSort) {
  return (a: ScreenedCompany, b: ScreenedCompany): number => {
    const [x, y] = [sortValue(a, sort), sortValue(b, sort)];
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      const order = typeof x === 'string' ? x.localeCompare(y as string) : x - (y as number);
      if (order !== 0) return sort.descending ? -order : order;
    }
    return a.candidate.name.localeCompare(b.candidate.name) || a.candidate.id - b.candidate.id;
  };
}

function screenedPeriod(plan: ScreenPlan): ScreenedPeriod | null {
  if (plan.period.kind === 'ttm') return null;
  return plan.period.kind === 'exact' ? { label: plan.period.period.label } : { newest: plan.period.type };
}

/** Conditions the SQL applies: on statement fields of a stored period (the trailing twelve months are computed). */
function statementConditions(plan: ScreenPlan): StatementCondition[] {
  if (plan.period.kind === 'ttm') return [];
  return plan.conditions.flatMap(({ field, op, values }) =>
    field.source.kind === 'statement' ? [{ statement: field.source.statement, property: field.key, op, values }] : [],
  );
}

/** What the rows need read: the statements and whether the ratios. */
function readsOf(plan: ScreenPlan): { kinds: Set<StatementKind>; ratios: boolean } {
  const used = [
    ...plan.fields,
    ...plan.conditions.map((condition) => condition.field),
    ...(typeof plan.sort.key === 'string' ? [] : [plan.sort.key]),
  ];
  const kinds = new Set(used.flatMap((field) => (field.source.kind === 'statement' ? [field.source.statement] : [])));
  // Size reads revenue; a trailing twelve months exists when its income statement does.
  if (plan.sizes.length > 0 || plan.sort.key === 'size' || plan.period.kind === 'ttm') kinds.add('income');
  return { kinds, ratios: used.some((field) => field.source.kind === 'ratio') };
}

function checkArguments(args: ScreenArguments): void {
  if (!Number.isInteger(args.limit) || args.limit < 1 || args.limit > MAX_SCREEN_PAGE_SIZE)
    throw badUserInput(`limit must be a whole number from 1 to ${MAX_SCREEN_PAGE_SIZE}, got ${args.limit}`, {
      field: 'limit',
    });
  if (!Number.isInteger(args.offset) || args.offset < 0 || args.offset > MAX_SCREEN_OFFSET)
    throw badUserInput(`offset must be a whole number from 0 to ${MAX_SCREEN_OFFSET}, got ${args.offset}`, {
      field: 'offset',
    });
  for (const name of ['filter', 'period', 'sort', 'fields', 'sector', 'currency', 'size'] as const) {
    const value = args[name];
    if (typeof value === 'string' && value.length > MAX_ARGUMENT_CHARS)
      throw badUserInput(`${name} must be at most ${MAX_ARGUMENT_CHARS} characters`, { field: name });
  }
}

/**
 * Companies that pass a screen: conditions on statement fields and ratios of one period per company, company filters
 * (sector, currency, size), sorted, one page of them with the total. The store narrows the companies by their
 * attributes and statement fields with the period's index; ratios are computed here by the same definitions as
 * everywhere else, for the companies left.
 */
export async function screenCompanies(
  dataSource: DataSource,
  loaders: StatementLoaders,
  args: ScreenArguments,
): Promise<ScreenPage> {
  checkArguments(args);
  const plan = parseScreen(args, vocabularyOf(dataSource));
  const candidates = await findScreenCandidates(dataSource.manager, {
    period: screenedPeriod(plan),
    sectors: plan.sectors,
    currencies: plan.currencies,
    conditions: statementConditions(plan),
  });
  const reads = readsOf(plan);
  const screened: ScreenedCompany[] = await Promise.all(
    candidates.map(async (candidate) => ({
      candidate,
      period: candidate.period ?? 'TTM',
      values: await periodValues(loaders, candidate, reads),
    })),
  );
  const passing = screened.filter(
    ({ values, period }) =>
      (plan.period.kind !== 'ttm' || values.statements.income !== null) &&
      plan.conditions.every((condition) => meets(valueOf(values, condition.field), condition)) &&
      inSize(annualRevenue(values, period), plan.sizes),
  );
  passing.sort(compareBy(plan.sort));
  const items: ScreenRow[] = passing
    .slice(plan.offset, plan.offset + plan.limit)
    .map(({ candidate, period, values }) => ({
      id: candidate.id,
      name: candidate.name,
      ticker: candidate.ticker,
      sector: candidate.sector,
      currency: candidate.currency,
      period,
      values: plan.fields.map((field) => ({ field: field.key, value: valueOf(values, field) })),
    }));
  return { items, total: passing.length, limit: plan.limit, offset: plan.offset };
}
