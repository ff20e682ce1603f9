/**
 * A measure the question composes of known ones, which no stored field or ratio is by itself:
 * - an amount's share of revenue: "COGS % margin", "D&A margin", "capex as a % of revenue", "SG&A to sales";
 * - a difference: "EBITDA less capex";
 * - an average over fiscal years: "the FY2018 - FY2020 3 year average net profit margin";
 * - a compound annual growth rate over them: "revenue CAGR from FY2018 to FY2021";
 * - common measures the service lists under no ratio: the retention ratio, fixed asset turnover.
 * It is read into the expression a question's own definition gives, so it is evaluated and cited the same way, and
 * names the question defines ("Define unadjusted EBITDA as …") stand for their definitions.
 */
import { metricMentions, metricByKey, normalizeMetricText, type Metric } from './metrics';
import { readFormula, type DefinedMetric, type Expression } from './defined-metric';
import type { FactUnit } from './fact-unit';

/** Measures analysts name that the service lists under no ratio, as formulas over stored fields. */
const NAMED_FORMULAS: Array<{ names: RegExp; formula: string; unit: FactUnit }> = [
  {
    names: /\b(?:(?:earnings |profit )?retention|plowback) ratio\b/i,
    formula: '(net income - dividends paid) / net income',
    unit: 'fraction',
  },
  {
    names: /\bfixed[- ]asset turnover(?: ratio)?\b/i,
    formula: 'revenue / average property, plant and equipment',
    unit: 'multiple',
  },
];

/** "% margin", "as a % of revenue", "as a percentage of net sales", "to sales": a share of revenue. */
const SHARE_OF_REVENUE =
  /^\s*(?:margins?\b|(?:as an? )?(?:%|percent(?:age)?|share|proportion|ratio) of (?:total )?(?:net )?(?:revenues?|sales)\b|to (?:total )?(?:net )?(?:revenues?|sales)\b)/i;
const LESS = /^\s+(?:less|minus)\s+$/i;
const CAGR = /\b(?:cagr|compound(?:ed)? annual growth(?: rate)?)\b/i;
/** "3 year average", "three-year average", "average". */
const AVERAGE = /\b(?:(?:\d{1,2}|two|three|four|five|six|seven|eight|nine|ten)[- ]year )?average\b(?:\s+of\b)?/i;

interface Part {
  start: number;
  end: number;
  expression: Expression;
  unit: FactUnit;
  metric: Metric | null;
}

const escape = (words: string) => words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
const value = (metric: Metric): Expression => ({ kind: 'field', metric, how: 'value', years: [], words: metric.label });
const divide = (left: Expression, right: Expression): Expression => ({
  kind: 'operation',
  operator: '/',
  left,
  right,
});

/** An expression in words: "(operating income + depreciation and amortization) - capital expenditure". */
export function formulaText(expression: Expression, nested = false): string {
  if (expression.kind === 'number') return String(expression.value);
  if (expression.kind === 'field') {
    const years = expression.years.map((year) => `FY${year}`).join(' and ');
    const at = years ? ` ${expression.how === 'value' ? 'in' : 'between'} ${years}` : '';
    const how = expression.how === 'value' ? '' : `${expression.how} `;
    return `${how}${expression.metric.label}${at}`;
  }
  if (expression.kind === 'yearsAverage')
    return `the mean over ${expression.years.map((year) => `FY${year}`).join(', ')} of ${formulaText(expression.expression)}`;
  if (expression.kind === 'yearsGrowth') {
    const [first, last] = [expression.years[0], expression.years[expression.years.length - 1]];
    const inner = formulaText(expression.expression, true);
    return `(${inner} in FY${last} / ${inner} in FY${first})^(1/${last - first}) - 1`;
  }
  const text = `${formulaText(expression.left, true)} ${expression.operator} ${formulaText(expression.right, true)}`;
  return nested ? `(${text})` : text;
}

/** The measures of a text in order: names the question defines first, then the metrics the service knows. */
function partsOf(text: string, named: Map<string, Expression>): Part[] {
  const parts: Part[] = [];
  for (const [name, expression] of named)
    for (const match of text.matchAll(new RegExp(`(?<![\\w&])${escape(name)}(?![\\w&])`, 'gi')))
      parts.push({ start: match.index, end: match.index + match[0].length, expression, unit: 'money', metric: null });
  for (const mention of metricMentions(text)) {
    if (parts.some((part) => mention.start < part.end && mention.end > part.start)) continue;
    const { metric } = mention;
    parts.push({ start: mention.start, end: mention.end, expression: value(metric), unit: metric.unit, metric });
  }
  return parts.sort((a, b) => a.start - b.start);
}

/** The measure a part and the words after it compose: a share of revenue, a difference, or the part itself. */
function composed(
  text: string,
  parts: Part[],
): { expression: Expression; unit: FactUnit; end: number; composite: boolean } | null {
  const [first, second] = parts;
  if (!first) return null;
  const after = text.slice(first.end);
  const revenue = metricByKey('revenue') as Metric;
  if (first.unit === 'money' && first.metric?.key !== 'revenue' && SHARE_OF_REVENUE.test(after)) {
    const end = first.end + (SHARE_OF_REVENUE.exec(after) as RegExpExecArray)[0].length;
    return { expression: divide(first.expression, value(revenue)), unit: 'fraction', end, composite: true };
  }
  if (second && first.unit === 'money' && second.unit === 'money' && LESS.test(text.slice(first.end, second.start)))
    return {
      expression: { kind: 'operation', operator: '-', left: first.expression, right: second.expression },
      unit: 'money',
      end: second.end,
      composite: true,
    };
  return { expression: first.expression, unit: first.unit, end: first.end, composite: false };
}

/** "revenue CAGR", "the compound annual growth rate of net income": an amount's growth over the years named. */
function compoundGrowth(text: string, named: Map<string, Expression>, years: number[]): DefinedMetric | null {
  const said = CAGR.exec(text);
  if (!said) return null;
  const [part] = partsOf(text.replace(CAGR, ' '.repeat(said[0].length)), named);
  if (!part || part.unit !== 'money') return null;
  const expression: Expression = { kind: 'yearsGrowth', years, expression: part.expression };
  const words = text.slice(part.start, part.end).trim();
  return { name: `${words} CAGR`, formula: formulaText(expression), expression, unit: 'fraction', composed: true };
}

/**
 * The measure the question composes, or null when it asks for one stored field or ratio (or nothing known).
 * `named` holds the names the question's definitions define; `years` the fiscal years of the range it names, if any
 * (an average is over them).
 */
export function composedMetric(
  question: string,
  named: Map<string, Expression>,
  years: number[] | null,
): DefinedMetric | null {
  const text = normalizeMetricText(question);
  const growth = years && years.length > 1 ? compoundGrowth(text, named, years) : null;
  if (growth) return growth;
  const average = years && years.length > 1 ? AVERAGE.exec(text) : null;
  const from = average ? average.index + average[0].length : 0;
  const rest = text.slice(from);
  // The question's own definition of such a measure is the one answered.
  const formula = NAMED_FORMULAS.find(
    (candidate) => candidate.names.test(rest) && ![...named.keys()].some((name) => candidate.names.test(name)),
  );
  let measure: { expression: Expression; unit: FactUnit; words: string; composite: boolean } | null = null;
  if (formula) {
    const expression = readFormula(formula.formula);
    if (expression) {
      const words = (formula.names.exec(rest) as RegExpExecArray)[0];
      measure = { expression, unit: formula.unit, words, composite: true };
    }
  } else {
    const parts = partsOf(rest, named);
    const found = composed(rest, parts);
    if (found) measure = { ...found, words: rest.slice(parts[0].start, found.end).trim() };
  }
  if (!measure || (!measure.composite && !average)) return null;
  const { unit, words } = measure;
  const expression: Expression =
    average && years ? { kind: 'yearsAverage', years, expression: measure.expression } : measure.expression;
  const name = average ? `${text.slice(average.index, from).trim()} ${words}` : words;
  return { name, formula: formulaText(expression), expression, unit, composed: true };
}
