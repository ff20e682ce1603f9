import type { DataSource } from 'typeorm';
import { CAPS } from '../operations/catalog';
import { AppError, badUserInput } from '../shared/errors';
import { RATIO_DEFINITIONS } from '../statements/ratios';
import { STATEMENT_KEY_COLUMNS } from '../statements/statement-fields';
import { statementColumnNames } from '../statements/statement.repository';
import { loadRatios, loadStatement } from '../statements/statement.service';
import type { StatementKind, StatementLoaders } from '../statements/statement.loaders';
import { refreshQueuedRatios } from '../statements/stored-ratios';
import {
  findScreenCandidates,
  type ScreenCandidate,
  type ScreenCandidateQuery,
  type ScreenedPeriod,
  type ScreenRead,
  type ScreenReadCondition,
} from './screener.repository';
import {
  inSize,
  meets,
  parseScreen,
  SIZE_BUCKETS,
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

/** A candidate's statements and ratios of the screened period (only the fields the screen reads, when stored). */
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

/** A candidate's trailing twelve months, through the request's batching loaders. */
async function trailingValues(
  loaders: StatementLoaders,
  candidate: ScreenCandidate,
  needs: { kinds: Set<StatementKind>; ratios: boolean },
): Promise<PeriodValues> {
  const period = 'ttm';
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

/** Text compared as localeCompare does, with the collator made once (a screen may sort ten thousand names). */
const compareText = new Intl.Collator().compare;

/** Sorted by the sort key (missing values last either way), then by name and id so pages never overlap. */
function compareBy(sort: ScreenSort) {
  return (a: ScreenedCompany, b: ScreenedCompany): number => {
    const [x, y] = [sortValue(a, sort), sortValue(b, sort)];
    if (x !== y) {
      if (x === null) return 1;
      if (y === null) return -1;
      const order = typeof x === 'string' ? compareText(x, y as string) : x - (y as number);
      if (order !== 0) return sort.descending ? -order : order;
    }
    return compareText(a.candidate.name, b.candidate.name) || a.candidate.id - b.candidate.id;
  };
}

function screenedPeriod(plan: ScreenPlan): ScreenedPeriod | null {
  if (plan.period.kind === 'ttm') return null;
  return plan.period.kind === 'exact' ? { label: plan.period.period.label } : { newest: plan.period.type };
}

const REVENUE: ScreenField = { key: 'revenue', source: { kind: 'statement', statement: 'income' } };

/** The fields a screen reads of each company: those it returns, filters on and sorts by, and revenue for its size. */
function fieldsRead(plan: ScreenPlan): ScreenField[] {
  const used = [
    ...plan.fields,
    ...plan.conditions.map((condition) => condition.field),
    ...(typeof plan.sort.key === 'string' ? [] : [plan.sort.key]),
    ...(plan.sizes.length > 0 || plan.sort.key === 'size' ? [REVENUE] : []),
  ];
  return [...new Map(used.map((field) => [`${field.source.kind}:${field.key}`, field])).values()];
}

function screenRead(field: ScreenField): ScreenRead {
  return field.source.kind === 'ratio'
    ? { ratio: field.key }
    : { statement: field.source.statement, property: field.key };
}

/** A stored period's values as the SQL read them, in the shape the loaders give (one object per statement). */
function storedValues(fields: readonly ScreenField[], values: ReadonlyArray<number | null>): PeriodValues {
  const read: PeriodValues = { statements: {}, ratios: {} };
  fields.forEach((field, index) => {
    const source = field.source.kind === 'ratio' ? read.ratios : (read.statements[field.source.statement] ??= {});
    (source as Record<string, unknown>)[field.key] = values[index];
  });
  return read;
}

/** What a trailing-twelve-months screen reads through the loaders: the statements and whether the ratios. */
function loaderReads(fields: readonly ScreenField[]): { kinds: Set<StatementKind>; ratios: boolean } {
  const kinds = new Set(fields.flatMap((field) => (field.source.kind === 'statement' ? [field.source.statement] : [])));
  // A trailing twelve months exists when its income statement does.
  kinds.add('income');
  return { kinds, ratios: fields.some((field) => field.source.kind === 'ratio') };
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

/** A sort by a number (a field or size), which SQL ranks exactly as compareBy orders (names are compared here). */
function numericSort(plan: ScreenPlan): ScreenCandidateQuery['rankedBy'] {
  const { key, descending } = plan.sort;
  const within = plan.offset + plan.limit;
  if (key === 'size') return { value: 'annualRevenue', descending, within };
  return typeof key === 'string' ? undefined : { value: screenRead(key), descending, within };
}

/**
 * The companies that pass a screen with its period's values, and how many pass it. A stored period is screened in SQL
 * on the stored ratios (computed first for any company whose statements changed) and its statements: conditions,
 * size and, for a sort by a number, only the companies that can be on the page come back. The trailing twelve months
 * are computed per company through the request's loaders, by the same definitions, and screened here.
 */
async function passingCompanies(
  dataSource: DataSource,
  loaders: StatementLoaders,
  plan: ScreenPlan,
): Promise<{ passing: ScreenedCompany[]; total: number }> {
  const fields = fieldsRead(plan);
  const period = screenedPeriod(plan);
  if (period) await refreshQueuedRatios(dataSource);
  const { candidates, total } = await findScreenCandidates(dataSource.manager, {
    period,
    sectors: plan.sectors,
    currencies: plan.currencies,
    conditions: period
      ? plan.conditions.map(({ field, op, values }): ScreenReadCondition => ({ read: screenRead(field), op, values }))
      : [],
    reads: period ? fields.map(screenRead) : [],
    revenueRanges: plan.sizes.map((size) => SIZE_BUCKETS[size]),
    rankedBy: numericSort(plan),
  });
  if (period) {
    const passing = candidates.map((candidate) => ({
      candidate,
      period: candidate.period as string,
      values: storedValues(fields, candidate.values),
    }));
    return { passing, total };
  }
  const reads = loaderReads(fields);
  const screened = await Promise.all(
    candidates.map(async (candidate) => ({
      candidate,
      period: 'TTM',
      values: await trailingValues(loaders, candidate, reads),
    })),
  );
  const passing = screened.filter(
    ({ values, period }) =>
      values.statements.income !== null &&
      plan.conditions.every((condition) => meets(valueOf(values, condition.field), condition)) &&
      inSize(annualRevenue(values, period), plan.sizes),
  );
  return { passing, total: passing.length };
}

/**
 * Companies that pass a screen: conditions on statement fields and ratios of one period per company, company filters
 * (sector, currency, size), sorted, one page of them with the total.
 */
export async function screenCompanies(
  dataSource: DataSource,
  loaders: StatementLoaders,
  args: ScreenArguments,
): Promise<ScreenPage> {
  checkArguments(args);
  const plan = parseScreen(args, vocabularyOf(dataSource));
  const { passing, total } = await passingCompanies(dataSource, loaders, plan);
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
  return { items, total, limit: plan.limit, offset: plan.offset };
}
