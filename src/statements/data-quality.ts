/**
 * Data-quality checks of statements, as data: each says whether an identity that must hold does, by how much it
 * misses, and why when it does. Pure: the same functions check imported statements in the evaluation and stored
 * ones in the API.
 *
 * Tolerance is the reported rounding. An amount's unit (units, thousands, millions) is the largest power of ten that
 * divides it, but no more than a thousandth of the largest amount of its statement (a statement of a few round
 * numbers is not taken for one in millions; an amount from a later filing in millions, kept in a statement otherwise
 * in thousands, is). Each compared amount may be off by half its unit; a comparison by the sum of those halves.
 */
import type { IncomeStatement } from './income-statement.entity';
import type { BalanceSheet } from './balance-sheet.entity';
import type { CashFlowStatement } from './cash-flow-statement.entity';
import type { StatementKind } from './statement-kind';

type Amounts<T> = { [K in keyof T]?: T[K] };
type Maybe = number | null | undefined;

export type CheckName = 'balance' | 'yearEqualsSumOfQuarters' | 'cashRollForward' | 'grossProfit' | 'filingsAgree';

export const CHECK_NAMES: CheckName[] = [
  'balance',
  'yearEqualsSumOfQuarters',
  'cashRollForward',
  'grossProfit',
  'filingsAgree',
];

export const CHECK_DESCRIPTIONS: Record<CheckName, string> = {
  balance:
    'total_assets = total_liabilities + total_equity + non_controlling_interest + temporary_equity (balance sheets)',
  yearEqualsSumOfQuarters:
    'each flow of a fiscal year = the sum of its four quarters, where all four are stored (income and cash-flow statements of a year)',
  cashRollForward:
    'net_change_in_cash = (cash_and_equivalents + restricted_cash) at the end − the same at the end of the previous period (cash-flow statements)',
  grossProfit: 'gross_profit = revenue − cost_of_revenue (income statements that have all three)',
  filingsAgree:
    'each value = the value a stored filing of the company shows for the same field and period (statements from XBRL facts or demo data that a stored filing also shows)',
};

export interface QualityCheck {
  check: CheckName;
  passed: boolean;
  /** Left side minus right side, in the reporting currency; null when an input is missing. */
  difference: number | null;
  tolerance: number;
  /** What was compared, and on a failure why it fails. */
  detail: string;
}

const known = (value: Maybe): value is number => value !== null && value !== undefined;

/** The rounding of a reported amount: the largest power of ten up to a million dividing it. */
export function roundingUnit(value: number): number {
  let unit = 1_000_000;
  if (Number.isSafeInteger(value)) {
    // A safe integer's quotient by a power of ten is a whole number exactly when it divides (the rounding error of
    // the division stays below the quotient's distance to a whole number). A division, because the remainder of an
    // amount beyond 32 bits is a call into the C library, and every check of every read works out dozens of units.
    while (unit > 1 && !Number.isInteger(value / unit)) unit /= 10;
    return unit;
  }
  while (unit > 1 && value % unit !== 0) unit /= 10;
  return unit;
}

const NOT_AMOUNTS = new Set([
  'id',
  'companyId',
  'fiscalYear',
  'fiscalQuarter',
  'epsBasic',
  'epsDiluted',
  'sharesBasic',
  'sharesDiluted',
]);

/**
 * The coarsest unit an amount of this statement can have: the largest power of ten up to a thousandth of its largest
 * amount. A check works out each statement's cap once and hands it to halfUnit.
 */
export function statementUnitCap(statement: object | null | undefined): number {
  if (!statement) return 1;
  // for…in, not Object.keys/entries: this runs for every statement a check reads, and builds no array of keys.
  let largest = 0;
  const values = statement as Record<string, unknown>;
  for (const key in values) {
    const value = values[key];
    if (typeof value === 'number' && Math.abs(value) > largest && !NOT_AMOUNTS.has(key)) largest = Math.abs(value);
  }
  let cap = 1;
  while (cap * 10 <= largest / 1000 && cap < 1_000_000) cap *= 10;
  return cap;
}

/** How far one amount may be off through rounding alone: half its unit, capped by its statement's (statementUnitCap). */
const halfUnit = (value: number, cap: number) => Math.min(roundingUnit(value), cap) / 2;

/** How far a comparison may be off through rounding alone: half the unit of each amount (capped by its statement's). */
export function roundingTolerance(inputs: Array<[Maybe, object | null | undefined]>): number {
  let sum = 0;
  // Inputs come in runs from the same statement: its cap is worked out once a run.
  let statement: object | null | undefined;
  let cap = 1;
  for (const [value, from] of inputs) {
    if (!known(value)) continue;
    if (from !== statement) {
      statement = from;
      cap = statementUnitCap(from);
    }
    sum += halfUnit(value, cap);
  }
  return sum;
}

function result(
  check: CheckName,
  difference: number,
  inputs: Array<[Maybe, object | null | undefined]>,
  detail: string,
  failure: string,
): QualityCheck {
  const tolerance = roundingTolerance(inputs);
  const passed = Math.abs(difference) <= tolerance;
  return { check, passed, difference, tolerance, detail: passed ? detail : `${detail}. ${failure}` };
}

const MONEY = new Intl.NumberFormat('en-US');

/**
 * An amount as a whole number grouped by thousands, the text en-US formatting gives. Every check writes amounts into
 * its detail on every read, and Intl's formatter costs microseconds a call: whole numbers in the safe range are
 * grouped here; any other (huge, not finite) goes to Intl.
 */
export function money(value: number): string {
  const whole = Math.round(value);
  if (!Number.isSafeInteger(whole)) return MONEY.format(whole);
  const digits = String(Math.abs(whole));
  let grouped = digits.slice(0, digits.length % 3 || 3);
  for (let at = grouped.length; at < digits.length; at += 3) grouped += `,${digits.slice(at, at + 3)}`;
  return whole < 0 || Object.is(whole, -0) ? `-${grouped}` : grouped;
}

export function balanceCheck(b: Amounts<BalanceSheet>): QualityCheck | null {
  if (!known(b.totalAssets)) return null;
  const parts = [b.totalLiabilities, b.totalEquity, b.nonControllingInterest, b.temporaryEquity];
  if (!known(b.totalLiabilities) || !known(b.totalEquity)) {
    const missing = [!known(b.totalLiabilities) && 'total liabilities', !known(b.totalEquity) && 'total equity']
      .filter(Boolean)
      .join(' and ');
    return {
      check: 'balance',
      passed: false,
      difference: null,
      tolerance: 0,
      detail: `Cannot be checked: ${missing} not reported`,
    };
  }
  const right = parts.filter(known).reduce((sum, value) => sum + value, 0);
  const difference = b.totalAssets - right;
  const filedTotal = b.totalLiabilitiesAndEquity;
  const why =
    known(filedTotal) &&
    Math.abs(filedTotal - b.totalAssets) <=
      roundingTolerance([
        [filedTotal, b],
        [b.totalAssets, b],
      ])
      ? `The filing's own total liabilities and equity (${money(filedTotal)}) equals total assets, so ${money(difference)} sits in a line between liabilities and equity that the filer tagged with a concept of its own`
      : `The filing's own totals do not add up (total liabilities and equity ${known(filedTotal) ? money(filedTotal) : 'not reported'})`;
  return result(
    'balance',
    difference,
    [b.totalAssets, ...parts].map((value) => [value, b] as [Maybe, object]),
    `Total assets ${money(b.totalAssets)} against liabilities, equity, non-controlling interest and temporary equity ${money(right)}`,
    why,
  );
}

export function grossProfitCheck(i: Amounts<IncomeStatement>): QualityCheck | null {
  if (!known(i.grossProfit) || !known(i.revenue) || !known(i.costOfRevenue)) return null;
  const difference = i.grossProfit - (i.revenue - i.costOfRevenue);
  return result(
    'grossProfit',
    difference,
    [i.grossProfit, i.revenue, i.costOfRevenue].map((value) => [value, i] as [Maybe, object]),
    `Gross profit ${money(i.grossProfit)} against revenue − cost of revenue ${money(i.revenue - i.costOfRevenue)}`,
    'The filing tags a gross profit that is not revenue minus cost of revenue (a cost line outside cost of revenue, or a revenue concept other than the one stored)',
  );
}

/** Fields of a fiscal year that are sums of its quarters (amounts; not per-share figures or share counts). */
const NOT_ADDITIVE = new Set(['epsBasic', 'epsDiluted', 'sharesBasic', 'sharesDiluted']);

export function yearSumCheck(
  year: Record<string, unknown>,
  quarters: Array<Record<string, unknown> | null>,
  fields: string[],
): QualityCheck | null {
  if (quarters.length !== 4 || quarters.some((q) => q === null)) return null;
  let worst: { field: string; difference: number; tolerance: number } | null = null;
  const failing: string[] = [];
  let compared = 0;
  const [q1, q2, q3, q4] = quarters as Array<Record<string, unknown>>;
  const caps = [year, q1, q2, q3, q4].map(statementUnitCap);
  // Plain arithmetic, no arrays per field: a year's check compares ~17 fields with its four quarters on every read.
  for (const field of fields) {
    if (NOT_ADDITIVE.has(field)) continue;
    const total = year[field] as Maybe;
    const a = q1[field] as Maybe;
    const b = q2[field] as Maybe;
    const c = q3[field] as Maybe;
    const d = q4[field] as Maybe;
    if (!known(total) || !known(a) || !known(b) || !known(c) || !known(d)) continue;
    compared += 1;
    const difference = total - (a + b + c + d);
    const tolerance =
      halfUnit(total, caps[0]) +
      halfUnit(a, caps[1]) +
      halfUnit(b, caps[2]) +
      halfUnit(c, caps[3]) +
      halfUnit(d, caps[4]);
    if (Math.abs(difference) > tolerance) failing.push(`${field} ${money(difference)}`);
    if (!worst || Math.abs(difference) - tolerance > Math.abs(worst.difference) - worst.tolerance)
      worst = { field, difference, tolerance };
  }
  if (!worst) return null;
  const detail = `${compared} amounts of the year compared with the sum of its four quarters`;
  return failing.length === 0
    ? {
        check: 'yearEqualsSumOfQuarters',
        passed: true,
        difference: worst.difference,
        tolerance: worst.tolerance,
        detail,
      }
    : {
        check: 'yearEqualsSumOfQuarters',
        passed: false,
        difference: worst.difference,
        tolerance: worst.tolerance,
        detail: `${detail}. The filings disagree (a quarter restated after the year was filed, or a year-to-date figure that is not the sum of its quarters): ${failing.join(', ')}`,
      };
}

export function cashRollForwardCheck(
  c: Amounts<CashFlowStatement>,
  closing: Amounts<BalanceSheet> | null,
  opening: Amounts<BalanceSheet> | null,
): QualityCheck | null {
  if (!known(c.netChangeInCash) || !known(closing?.cashAndEquivalents) || !known(opening?.cashAndEquivalents))
    return null;
  const [closingCash, openingCash] = [closing?.cashAndEquivalents as number, opening?.cashAndEquivalents as number];
  // Since ASU 2016-18 the statement rolls cash and restricted cash forward together; before it, cash alone.
  const withRestricted = result(
    'cashRollForward',
    c.netChangeInCash - (closingCash + (closing?.restrictedCash ?? 0) - openingCash - (opening?.restrictedCash ?? 0)),
    [
      [c.netChangeInCash, c],
      [closingCash, closing],
      [closing?.restrictedCash, closing],
      [openingCash, opening],
      [opening?.restrictedCash, opening],
    ],
    `Net change in cash ${money(c.netChangeInCash)} against cash and restricted cash ${money(openingCash + (opening?.restrictedCash ?? 0))} → ${money(closingCash + (closing?.restrictedCash ?? 0))}`,
    !known(closing?.restrictedCash) || !known(opening?.restrictedCash)
      ? 'Restricted cash is not reported at both dates, and the net change of the cash-flow statement may include it'
      : 'The cash-flow statement rolls forward a different cash total (e.g. cash held for sale or in a disposal group)',
  );
  if (withRestricted.passed || (!known(closing?.restrictedCash) && !known(opening?.restrictedCash)))
    return withRestricted;
  const cashAlone = result(
    'cashRollForward',
    c.netChangeInCash - (closingCash - openingCash),
    [
      [c.netChangeInCash, c],
      [closingCash, closing],
      [openingCash, opening],
    ],
    `Net change in cash ${money(c.netChangeInCash)} against cash and equivalents alone ${money(openingCash)} → ${money(closingCash)} (a statement from before restricted cash was rolled forward with it)`,
    '',
  );
  return cashAlone.passed ? cashAlone : withRestricted;
}

type Values = Record<string, unknown>;

/** A statement and what its checks compare it with. */
export interface CheckInputs {
  kind: StatementKind;
  values: Values;
  /** For a fiscal year's income or cash-flow statement: its four quarters' statements of the same kind (null where missing). */
  quarters: Array<Values | null> | null;
  /** For a cash-flow statement: the balance sheets at its end and at the end of the previous period. */
  closing: Values | null;
  opening: Values | null;
}

const PERIOD_KEYS = new Set(['id', 'companyId', 'fiscalYear', 'fiscalQuarter']);
const amountFields = (values: Values) =>
  Object.keys(values).filter((key) => typeof values[key] === 'number' && !PERIOD_KEYS.has(key));

/** The checks that apply to one statement (those whose inputs are all stored). */
export function statementChecks(inputs: CheckInputs): QualityCheck[] {
  const checks: Array<QualityCheck | null> = [];
  if (inputs.kind === 'balance') checks.push(balanceCheck(inputs.values as Amounts<BalanceSheet>));
  if (inputs.kind === 'income') checks.push(grossProfitCheck(inputs.values as Amounts<IncomeStatement>));
  if (inputs.kind !== 'balance' && inputs.quarters)
    checks.push(yearSumCheck(inputs.values, inputs.quarters, amountFields(inputs.values)));
  if (inputs.kind === 'cashFlow')
    checks.push(
      cashRollForwardCheck(
        inputs.values as Amounts<CashFlowStatement>,
        inputs.closing as Amounts<BalanceSheet> | null,
        inputs.opening as Amounts<BalanceSheet> | null,
      ),
    );
  return checks.filter((check): check is QualityCheck => check !== null);
}

/** The labels a statement's checks read: a year's quarters, the previous period (for opening balances). */
export function relatedPeriods(period: string): { quarters: string[] | null; previous: string | null } {
  const year = /^FY(\d{4})$/.exec(period);
  if (year) return { quarters: [1, 2, 3, 4].map((q) => `Q${q}-${year[1]}`), previous: `FY${Number(year[1]) - 1}` };
  const quarter = /^Q([1-4])-(\d{4})$/.exec(period);
  if (!quarter) return { quarters: null, previous: null };
  const [q, y] = [Number(quarter[1]), Number(quarter[2])];
  return { quarters: null, previous: q === 1 ? `Q4-${y - 1}` : `Q${q - 1}-${y}` };
}

/** The other statements a statement's checks compare it with: its year's quarters; for cash flow, its opening and closing balance sheets. */
export function comparedStatements(kind: StatementKind, period: string): Array<[StatementKind, string]> {
  const { quarters, previous } = relatedPeriods(period);
  const compared: Array<[StatementKind, string]> =
    kind !== 'balance' && quarters ? quarters.map((quarter) => [kind, quarter]) : [];
  if (kind === 'cashFlow')
    compared.push(['balance', period], ...(previous ? [['balance', previous] as [StatementKind, string]] : []));
  return compared;
}

/** A value a stored filing of the company shows for a statement that XBRL facts (or demo data) made. */
export interface FiledValue {
  field: string;
  /** As stored (payments negated into outflows). */
  value: number;
  documentId: number;
  page: number | null;
  /** The line's label as the filing writes it. */
  label: string;
}

/**
 * Whether a statement's values agree with what the company's stored filings show for them, each within the rounding
 * of both; null when no filing shows any of its values. The stored value is kept either way: a disagreement is
 * flagged, never settled here.
 */
export function filingsAgreeCheck(values: Values, filed: readonly FiledValue[]): QualityCheck | null {
  const cap = statementUnitCap(values);
  const compared = filed
    .filter((shown) => known(values[shown.field] as Maybe))
    .map((shown) => {
      const stored = values[shown.field] as number;
      const tolerance = roundingUnit(shown.value) / 2 + halfUnit(stored, cap);
      return { shown, stored, difference: stored - shown.value, tolerance };
    });
  if (compared.length === 0) return null;
  const off = compared
    .filter((c) => Math.abs(c.difference) > c.tolerance)
    .sort((a, b) => Math.abs(b.difference) - Math.abs(a.difference));
  const where = (c: (typeof compared)[number]) =>
    `document ${c.shown.documentId}${c.shown.page ? `, page ${c.shown.page}` : ''}`;
  return {
    check: 'filingsAgree',
    passed: off.length === 0,
    difference: off.length > 0 ? off[0].difference : 0,
    tolerance: off.length > 0 ? off[0].tolerance : Math.max(...compared.map((c) => c.tolerance)),
    detail:
      off.length === 0
        ? `${compared.length} value${compared.length === 1 ? '' : 's'} agree with the stored filings`
        : off
            .map(
              (c) =>
                `${c.shown.field} is ${money(c.stored)}; ${where(c)} shows ${money(c.shown.value)} as “${c.shown.label}”`,
            )
            .join('; '),
  };
}

/** Inputs of a statement's checks, from a lookup of the company's statements by kind and period label. */
export function checkInputs(
  kind: StatementKind,
  period: string,
  values: Values,
  lookup: (kind: StatementKind, period: string) => Values | null,
): CheckInputs {
  const { quarters, previous } = relatedPeriods(period);
  return {
    kind,
    values,
    quarters: quarters && kind !== 'balance' ? quarters.map((label) => lookup(kind, label)) : null,
    closing: kind === 'cashFlow' ? lookup('balance', period) : null,
    opening: kind === 'cashFlow' && previous ? lookup('balance', previous) : null,
  };
}

export interface CheckSummary {
  check: CheckName;
  description: string;
  /** Statements the check applies to (its inputs are stored). */
  checked: number;
  passed: number;
  failed: number;
  /** passed / checked; null when nothing was checked. */
  passRate: number | null;
  /** The failing statements, newest first: statement kind, period, difference and why. */
  failures: Array<{ statement: StatementKind; period: string; difference: number | null; detail: string }>;
}

/** Every check over all of a company's statements, per check. */
export function summarizeChecks(
  statements: Array<{
    kind: StatementKind;
    period: string;
    periodEnd: string;
    values: Values;
    filed?: readonly FiledValue[];
  }>,
): CheckSummary[] {
  const byKey = new Map(statements.map((s) => [`${s.kind}|${s.period}`, s.values]));
  const lookup = (kind: StatementKind, period: string) => byKey.get(`${kind}|${period}`) ?? null;
  const summaries = new Map<CheckName, CheckSummary>(
    CHECK_NAMES.map((check) => [
      check,
      { check, description: CHECK_DESCRIPTIONS[check], checked: 0, passed: 0, failed: 0, passRate: null, failures: [] },
    ]),
  );
  const newestFirst = [...statements].sort(
    (a, b) => b.periodEnd.localeCompare(a.periodEnd) || a.period.localeCompare(b.period),
  );
  for (const statement of newestFirst) {
    const filed = filingsAgreeCheck(statement.values, statement.filed ?? []);
    const checks = statementChecks(checkInputs(statement.kind, statement.period, statement.values, lookup));
    for (const check of filed ? [...checks, filed] : checks) {
      const summary = summaries.get(check.check) as CheckSummary;
      summary.checked += 1;
      if (check.passed) summary.passed += 1;
      else {
        summary.failed += 1;
        summary.failures.push({
          statement: statement.kind,
          period: statement.period,
          difference: check.difference,
          detail: check.detail,
        });
      }
    }
  }
  for (const summary of summaries.values())
    summary.passRate = summary.checked === 0 ? null : summary.passed / summary.checked;
  return [...summaries.values()];
}
