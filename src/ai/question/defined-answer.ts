/**
 * The answer to a question that defines its metric over stored fields: the definition evaluated on the company's
 * statements, the result first, then the formula and each input with its period, all of them facts the grounding
 * check holds the answer to. An input the statements do not hold is said, and no figure is given.
 */
import type { Company } from '../../companies/company.entity';
import type { StatementLoaders } from '../../statements/statement.loaders';
import {
  yearsSpanned,
  type Expression,
  type DefinedMetric,
  type FieldTerm,
  type Rounding,
} from '../../understanding/defined-metric';
import type { FactUnit } from '../../understanding/fact-unit';
import { formatMoney, formatMultiple, formatPercent } from '../numbers';
import { metricByKey } from '../../understanding/metrics';
import { loadRatios } from '../../statements/statement.service';
import { parseExactPeriod, previousPeriod } from '../../statements/fiscal-period';
import type { FactSource, StatementFact } from '../statement-fact';

const SOURCE: Record<string, FactSource> = {
  income: 'income_statement',
  balance: 'balance_sheet',
  cashFlow: 'cash_flow',
  ratio: 'ratios',
};

export interface DefinedAnswer {
  text: string;
  /** The result and its inputs, for the grounding check and citations. */
  facts: StatementFact[];
}

/** How the result is written: days when the formula counts 365 days, a share, a multiple, or an amount. */
function unitOf(expression: Expression, question: string): FactUnit {
  const formula = JSON.stringify(expression);
  if (/"value":365\b/.test(formula)) return 'days';
  if (expression.kind === 'operation' && expression.operator === '/')
    return /%|percent|margin/i.test(question) ? 'fraction' : 'multiple';
  return 'money';
}

const SCALE_OF: Record<NonNullable<Rounding['scale']>, number> = { thousands: 1e3, millions: 1e6, billions: 1e9 };

/** A figure written to the decimals given: 2 → "1,234.50". */
const fixed = (value: number, decimals: number) =>
  value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });

/** The result as the question asks it written (its decimals, an amount in its scale), else as the service writes it. */
function written(value: number, unit: FactUnit, currency: string, rounding?: Rounding): string {
  const decimals = rounding?.decimals ?? null;
  if (unit === 'days') return `${fixed(value, decimals ?? 1)} days`;
  if (unit === 'fraction') return decimals === null ? formatPercent(value) : `${fixed(value * 100, decimals)}%`;
  if (unit === 'multiple') return decimals === null ? formatMultiple(value) : `${fixed(value, decimals)}x`;
  if (rounding?.scale) {
    const sign = value < 0 ? '-' : '';
    const symbol = currency === 'USD' ? '$' : `${currency} `;
    const size = Math.abs(value) / SCALE_OF[rounding.scale];
    return `${sign}${symbol}${decimals === null ? size.toLocaleString('en-US', { maximumFractionDigits: 2 }) : fixed(size, decimals)} ${rounding.scale.slice(0, -1)}`;
  }
  return formatMoney(value, currency);
}

/** The period before a fiscal year or quarter label: an average balance is over its end and the period's own. */
function periodBefore(label: string): string | null {
  const period = parseExactPeriod(label);
  return period ? previousPeriod(period).label : null;
}

/**
 * Evaluates `defined` for `company` at `period` (FY<year> or a quarter label): the answer, or one that says which
 * input the statements lack. Outflows (capex, dividends paid) are stored negative and written as sizes, so a formula
 * over them ("EBITDA less capex") reads their size.
 */
export async function definedAnswer(
  loaders: StatementLoaders,
  company: Pick<Company, 'id' | 'ticker' | 'currency'>,
  defined: DefinedMetric,
  period: string,
  question: string,
): Promise<DefinedAnswer> {
  const inputs: StatementFact[] = [];
  const missing: string[] = [];
  let undefinedBecause: string | null = null;
  const valueAt = async (term: FieldTerm, label: string): Promise<number | null> => {
    const { metric } = term;
    const row = (
      metric.source === 'ratio'
        ? await loadRatios(loaders, company.id, label)
        : await loaders[metric.source].load({ companyId: company.id, period: label })
    ) as Record<string, unknown> | null;
    const stored = row?.[metric.key];
    if (typeof stored !== 'number' || !Number.isFinite(stored)) {
      missing.push(`${metric.label} for ${label}`);
      return null;
    }
    if (!inputs.some((fact) => fact.field === metric.key && fact.period === label))
      inputs.push({
        companyId: company.id,
        ticker: company.ticker,
        period: label,
        source: SOURCE[metric.source],
        field: metric.key,
        label: metric.label,
        unit: metric.unit,
        value: stored,
      });
    return metric.outflow ? -stored : stored;
  };
  const evaluate = async (expression: Expression, at: string): Promise<number | null> => {
    if (expression.kind === 'number') return expression.value;
    if (expression.kind === 'yearsAverage') {
      const values = await Promise.all(expression.years.map((year) => evaluate(expression.expression, `FY${year}`)));
      return values.some((v) => v === null) ? null : (values as number[]).reduce((a, b) => a + b, 0) / values.length;
    }
    if (expression.kind === 'yearsGrowth') {
      const [firstYear, lastYear] = [expression.years[0], expression.years[expression.years.length - 1]];
      const [first, last] = await Promise.all(
        [firstYear, lastYear].map((year) => evaluate(expression.expression, `FY${year}`)),
      );
      if (first === null || last === null) return null;
      // Growth from zero or a loss has no rate.
      if (first <= 0 || last <= 0) {
        undefinedBecause = 'a compound growth rate needs a positive value at both ends';
        return null;
      }
      return (last / first) ** (1 / (lastYear - firstYear)) - 1;
    }
    if (expression.kind === 'field') {
      let labels = expression.years.map((year) => `FY${year}`);
      if (labels.length === 0) labels = expression.how === 'value' ? [at] : [periodBefore(at) ?? at, at];
      const values = await Promise.all(labels.map((label) => valueAt(expression, label)));
      if (values.some((value) => value === null)) return null;
      const [first, last] = [values[0] as number, values[values.length - 1] as number];
      if (expression.how === 'average') return (first + last) / 2;
      if (expression.how === 'change') return last - first;
      return first;
    }
    const [left, right] = await Promise.all([evaluate(expression.left, at), evaluate(expression.right, at)]);
    if (left === null || right === null) return null;
    if (expression.operator === '+') return left + right;
    if (expression.operator === '-') return left - right;
    if (expression.operator === '*') return left * right;
    return right === 0 ? null : left / right;
  };
  const value = await evaluate(defined.expression, period);
  const years = yearsSpanned(defined.expression);
  const over = years.length > 0 ? `FY${years[0]} to FY${years[years.length - 1]}` : period;
  const whose = `${company.ticker}\u2019s ${defined.name} for ${over}`;
  const how = defined.composed ? '' : ' as the question defines it';
  if (value === null) {
    const why =
      missing.length > 0
        ? `the stored statements do not give ${[...new Set(missing)].join(', ')}`
        : (undefinedBecause ?? 'it divides by zero');
    return { text: `${whose}${how} is not available: ${why}.`, facts: [] };
  }
  const unit = defined.unit ?? unitOf(defined.expression, question);
  const result: StatementFact = {
    companyId: company.id,
    ticker: company.ticker,
    period: years.length > 0 ? `FY${years[years.length - 1]}` : period,
    source: 'derived',
    field: 'definedMetric',
    label: defined.name,
    unit,
    value,
  };
  const listed = inputs.map((fact) => `${fact.label} ${fact.period} ${writtenInput(fact, company.currency)}`);
  const computedAs = defined.composed ? `computed as ${defined.formula}` : `\u201c${defined.formula}\u201d`;
  return {
    text: `${whose}${how ? `,${how},` : ''} is ${written(value, unit, company.currency, defined.rounding)}: ${computedAs}, from ${listed.join(', ')}.`,
    facts: [result, ...inputs],
  };
}

/** An input as the formula reads it: an outflow by its size, an amount in the company's currency, a ratio by its unit. */
function writtenInput(fact: StatementFact, currency: string): string {
  const outflow = metricByKey(fact.field)?.outflow === true;
  if (fact.unit !== 'money') return written(fact.value, fact.unit, currency);
  return outflow ? `${formatMoney(-fact.value, currency)} paid` : formatMoney(fact.value, currency);
}
