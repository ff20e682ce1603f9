/**
 * The screener's query language, parsed into a plan the repository and the service run. Names are statement fields
 * and ratios in snake_case or camelCase (`gross_margin`, `grossMargin`); a request is refused with BAD_USER_INPUT
 * naming the wrong part and listing what is accepted, so a typo never silently matches nothing.
 *
 * - filter: terms joined by commas, each `name<op>value` with op one of `>`, `>=`, `<`, `<=`, `=`, `!=`, or a range
 *   `name=low..high` (both ends included). A value is a number, optionally with `%` (50% = 0.5) or a scale suffix
 *   `K`, `M`, `B`, `T` (thousand, million, billion, trillion): `revenue>10B`.
 * - sort: one name, `-` in front for descending; besides fields: `name`, `ticker`, `sector`, `currency`, `size`.
 * - fields: names joined by commas, the values each row returns.
 * - size: buckets of annual revenue joined by commas (see SIZE_BUCKETS).
 */
import { badUserInput } from '../shared/errors';
import { snakeCase } from '../shared/case';
import { parsePeriodRequest, type PeriodRequest } from '../statements/fiscal-period';
import type { StatementKind } from '../statements/statement-kind';

export type Comparison = '>' | '>=' | '<' | '<=' | '=' | '!=';

/** Where a screened value comes from: a statement's line item or a computed ratio. */
export type ScreenSource = { kind: 'statement'; statement: StatementKind } | { kind: 'ratio' };

/** A screened name: `key` is its camelCase (GraphQL) name. */
export interface ScreenField {
  key: string;
  source: ScreenSource;
}

export interface ScreenCondition {
  field: ScreenField;
  op: Comparison | 'between';
  /** One value, or for `between` the low and high end. */
  values: number[];
}

/** Attributes of the company a screen may sort by, besides its fields. */
export const COMPANY_SORT_KEYS = ['name', 'ticker', 'sector', 'currency', 'size'] as const;
export type CompanySortKey = (typeof COMPANY_SORT_KEYS)[number];

export interface ScreenSort {
  key: ScreenField | CompanySortKey;
  descending: boolean;
}

/**
 * Size by annual revenue in the reporting currency (a quarter's times four; the trailing twelve months as they are):
 * the usual market-capitalisation cut-offs, applied to revenue since the service stores no share prices.
 */
export const SIZE_BUCKETS = {
  mega: { min: 200e9, max: Infinity },
  large: { min: 10e9, max: 200e9 },
  mid: { min: 2e9, max: 10e9 },
  small: { min: 300e6, max: 2e9 },
  micro: { min: -Infinity, max: 300e6 },
} as const;
export type SizeBucket = keyof typeof SIZE_BUCKETS;

export interface ScreenPlan {
  period: PeriodRequest;
  conditions: ScreenCondition[];
  sort: ScreenSort;
  /** The values each row returns, in the order asked. */
  fields: ScreenField[];
  sectors: string[];
  currencies: string[];
  sizes: SizeBucket[];
  limit: number;
  offset: number;
}

export interface ScreenArguments {
  filter?: string | null;
  period?: string | null;
  sort?: string | null;
  fields?: string | null;
  sector?: string | null;
  currency?: string | null;
  size?: string | null;
  limit: number;
  offset: number;
}

/** The fields a screen may name, by camelCase key, in the order the accepted list shows them. */
export type ScreenVocabulary = ReadonlyMap<string, ScreenField>;

const MAX_TERMS = 20;
const DEFAULT_FIELDS = ['revenue', 'netIncome', 'grossMargin', 'netMargin'];
const SCALE: Record<string, number> = { K: 1e3, M: 1e6, B: 1e9, T: 1e12, '%': 0.01 };
const TERM_PATTERN = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(>=|<=|!=|>|<|=)\s*(.+?)\s*$/;
const NUMBER_PATTERN = /^([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)\s*([KMBT%]?)$/i;

/** Builds the vocabulary from the statement kinds' line items and the ratio keys (a statement field comes first). */
export function screenVocabulary(
  lineItems: ReadonlyArray<[StatementKind, readonly string[]]>,
  ratioKeys: readonly string[],
): ScreenVocabulary {
  const vocabulary = new Map<string, ScreenField>();
  // A name reported by two statements (net income: income statement and cash flow) reads the first one listed.
  for (const [statement, keys] of lineItems)
    for (const key of keys)
      if (!vocabulary.has(key)) vocabulary.set(key, { key, source: { kind: 'statement', statement } });
  for (const key of ratioKeys) vocabulary.set(key, { key, source: { kind: 'ratio' } });
  return vocabulary;
}

const accepted = (vocabulary: ScreenVocabulary) => [...vocabulary.keys()].map((key) => snakeCase(key));

function fieldNamed(
  name: string,
  vocabulary: ScreenVocabulary,
  argument: string,
  extra: readonly string[] = [],
): ScreenField {
  const field = [...vocabulary.values()].find((candidate) => looseName(candidate.key) === looseName(name));
  if (field) return field;
  const names = [...accepted(vocabulary), ...extra];
  throw badUserInput(`Unknown field "${name}" in ${argument}; accepted: ${names.join(', ')}`, {
    field: argument,
    name,
    accepted: names,
  });
}

/** snake_case and camelCase spellings of a name, in any case, compare equal. */
function looseName(name: string): string {
  return name.trim().toLowerCase().replace(/_/g, '');
}

function parseNumber(text: string, argument: string, name: string): number {
  const match = NUMBER_PATTERN.exec(text.trim());
  const value = match ? Number(match[1]) * (match[2] ? SCALE[match[2].toUpperCase()] : 1) : NaN;
  if (!Number.isFinite(value)) {
    throw badUserInput(
      `Invalid value "${text}" for "${name}" in ${argument}: use a number, optionally with %, K, M, B or T (e.g. 0.5, 50%, 10B)`,
      { field: argument, name },
    );
  }
  return value;
}

function parseCondition(term: string, vocabulary: ScreenVocabulary): ScreenCondition {
  const match = TERM_PATTERN.exec(term);
  if (!match) {
    throw badUserInput(
      `Invalid filter term "${term}": use name>value, >=, <, <=, =, != or a range name=low..high, joined by commas`,
      { field: 'filter', accepted: accepted(vocabulary) },
    );
  }
  const [, name, op, value] = match;
  const field = fieldNamed(name, vocabulary, 'filter');
  const range = value.split('..');
  if (range.length === 2 && op === '=') {
    const [low, high] = range.map((end) => parseNumber(end, 'filter', name));
    if (low > high)
      throw badUserInput(`Invalid range "${value}" for "${name}" in filter: the low end comes first`, {
        field: 'filter',
        name,
      });
    return { field, op: 'between', values: [low, high] };
  }
  return { field, op: op as Comparison, values: [parseNumber(value, 'filter', name)] };
}

function parseConditions(filter: string | null | undefined, vocabulary: ScreenVocabulary): ScreenCondition[] {
  const terms = (filter ?? '').split(',').filter((term) => term.trim() !== '');
  if (terms.length > MAX_TERMS)
    throw badUserInput(`A filter has at most ${MAX_TERMS} terms, got ${terms.length}`, { field: 'filter' });
  return terms.map((term) => parseCondition(term, vocabulary));
}

function parseSort(sort: string | null | undefined, vocabulary: ScreenVocabulary): ScreenSort {
  const text = (sort ?? '').trim();
  if (text === '') return { key: 'name', descending: false };
  const descending = text.startsWith('-');
  const name = text.replace(/^[-+]/, '').trim();
  const companyKey = COMPANY_SORT_KEYS.find((key) => key === name.toLowerCase());
  return { key: companyKey ?? fieldNamed(name, vocabulary, 'sort', COMPANY_SORT_KEYS), descending };
}

function listOf(text: string | null | undefined): string[] {
  return [
    ...new Set(
      (text ?? '')
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== ''),
    ),
  ];
}

function parseSizes(size: string | null | undefined): SizeBucket[] {
  const buckets = Object.keys(SIZE_BUCKETS);
  return listOf(size).map((name) => {
    const bucket = name.toLowerCase();
    if (!buckets.includes(bucket))
      throw badUserInput(`Unknown size "${name}"; accepted: ${buckets.join(', ')}`, {
        field: 'size',
        name,
        accepted: buckets,
      });
    return bucket as SizeBucket;
  });
}

/** The fields to return: those asked for, else the filtered and sorted ones, else a default set. */
function parseFields(
  fields: string | null | undefined,
  conditions: ScreenCondition[],
  sort: ScreenSort,
  vocabulary: ScreenVocabulary,
): ScreenField[] {
  const named = listOf(fields);
  if (named.length > 0) return named.map((name) => fieldNamed(name, vocabulary, 'fields'));
  const used = [...conditions.map((condition) => condition.field), ...(typeof sort.key === 'string' ? [] : [sort.key])];
  const chosen =
    used.length > 0
      ? used
      : DEFAULT_FIELDS.map((key) => vocabulary.get(key)).filter((field): field is ScreenField => field !== undefined);
  return [...new Map(chosen.map((field) => [field.key, field])).values()];
}

/** Parses and checks a screen's arguments; BAD_USER_INPUT names the argument and what it accepts. */
export function parseScreen(args: ScreenArguments, vocabulary: ScreenVocabulary): ScreenPlan {
  const conditions = parseConditions(args.filter, vocabulary);
  const sort = parseSort(args.sort, vocabulary);
  return {
    period: parsePeriodRequest(args.period ?? 'latest-fy'),
    conditions,
    sort,
    fields: parseFields(args.fields, conditions, sort, vocabulary),
    sectors: listOf(args.sector),
    currencies: listOf(args.currency).map((code) => code.toUpperCase()),
    sizes: parseSizes(args.size),
    limit: args.limit,
    offset: args.offset,
  };
}

/** Whether a value meets a condition; a missing value (not reported, or a ratio that is undefined) never does. */
export function meets(value: number | null | undefined, condition: ScreenCondition): boolean {
  if (value === null || value === undefined) return false;
  const [first, second] = condition.values;
  switch (condition.op) {
    case '>':
      return value > first;
    case '>=':
      return value >= first;
    case '<':
      return value < first;
    case '<=':
      return value <= first;
    case '=':
      return value === first;
    case '!=':
      return value !== first;
    case 'between':
      return value >= first && value <= second;
  }
}

/** Whether an annual revenue falls in one of the buckets (any revenue when none is asked for). */
export function inSize(annualRevenue: number | null, sizes: readonly SizeBucket[]): boolean {
  if (sizes.length === 0) return true;
  if (annualRevenue === null) return false;
  return sizes.some((size) => annualRevenue >= SIZE_BUCKETS[size].min && annualRevenue < SIZE_BUCKETS[size].max);
}
