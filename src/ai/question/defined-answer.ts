/**
 * The answer to a question that defines its metric over stored fields: the definition evaluated on the company's
 * statements, the result first, then the formula and each input with its period, all of them facts the grounding
 * check holds the answer to. An input the statements do not hold is said, and no figure is given.
 */
import type { Company } from '../../companies/company.entity';
import type { StatementLoaders } from '../../statements/statement.loaders';
import type { Expression, DefinedMetric, FieldTerm } from '../../understanding/defined-metric';
import type { FactUnit } from '../../understanding/fact-unit';
import { formatMoney, formatMultiple, formatPercent } from '../numbers';
import type { FactSource, StatementFact } from '../statement-fact';

const SOURCE: Record<string, FactSource> = {
  income: 'income_statement',
  balance: 'balance_sheet',
  cashFlow: 'cash_flow',
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

function written(value: number, unit: FactUnit, currency: string): string {
  if (unit === 'days') return `${Number(value.toFixed(1)).toLocaleString('en-US')} days`;
  if (unit === 'fraction') return formatPercent(value);
  if (unit === 'multiple') return formatMultiple(value);
  return formatMoney(value, currency);
}

/**
 * Evaluates `defined` for `company` at `period` (FY<year> or a quarter label): the answer, or one that says which
 * input the statements lack.
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
  const valueAt = async (term: FieldTerm, label: string): Promise<number | null> => {
    const kind = term.metric.source as 'income' | 'balance' | 'cashFlow';
    const row = (await loaders[kind].load({ companyId: company.id, period: label })) as Record<string, unknown> | null;
    const value = row?.[term.metric.key];
    if (typeof value !== 'number') {
      missing.push(`${term.metric.label} for ${label}`);
      return null;
    }
    if (!inputs.some((fact) => fact.field === term.metric.key && fact.period === label))
      inputs.push({
        companyId: company.id,
        ticker: company.ticker,
        period: label,
        source: SOURCE[kind],
        field: term.metric.key,
        label: term.metric.label,
        unit: term.metric.unit,
        value,
      });
    return value;
  };
  const evaluate = async (expression: Expression): Promise<number | null> => {
    if (expression.kind === 'number') return expression.value;
    if (expression.kind === 'field') {
      const labels = expression.years.length > 0 ? expression.years.map((year) => `FY${year}`) : [period];
      const values = await Promise.all(labels.map((label) => valueAt(expression, label)));
      if (values.some((value) => value === null)) return null;
      const [first, last] = [values[0] as number, values[values.length - 1] as number];
      if (expression.how === 'average') return (first + last) / 2;
      if (expression.how === 'change') return last - first;
      return first;
    }
    const [left, right] = await Promise.all([evaluate(expression.left), evaluate(expression.right)]);
    if (left === null || right === null) return null;
    if (expression.operator === '+') return left + right;
    if (expression.operator === '-') return left - right;
    if (expression.operator === '*') return left * right;
    return right === 0 ? null : left / right;
  };
  const value = await evaluate(defined.expression);
  const whose = `${company.ticker}\u2019s ${defined.name} for ${period}`;
  if (value === null) {
    const why =
      missing.length > 0
        ? `the stored statements do not give ${[...new Set(missing)].join(', ')}`
        : 'it divides by zero';
    return { text: `${whose} as the question defines it is not available: ${why}.`, facts: [] };
  }
  const unit = unitOf(defined.expression, question);
  const result: StatementFact = {
    companyId: company.id,
    ticker: company.ticker,
    period,
    source: 'derived',
    field: 'definedMetric',
    label: defined.name,
    unit,
    value,
  };
  const listed = inputs.map((fact) => `${fact.label} ${fact.period} ${formatMoney(fact.value, company.currency)}`);
  return {
    text: `${whose}, as the question defines it, is ${written(value, unit, company.currency)}: \u201c${defined.formula}\u201d, from ${listed.join(', ')}.`,
    facts: [result, ...inputs],
  };
}
