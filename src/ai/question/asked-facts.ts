/**
 * The facts a parsed question asks for, read from the stored statements: for each company, each asked period and
 * each metric, the stored value or a plain "not stored". Nothing is substituted: a missing period stays missing,
 * and the nearest stored period is reported apart, labelled as such.
 */
import type { Company } from '../../companies/company.entity';
import {
  parseExactPeriod,
  samePeriodLastYear,
  type FiscalPeriod,
  type PeriodType,
} from '../../statements/fiscal-period';
import type { AvailablePeriod, StatementLoaders } from '../../statements/statement.loaders';
import { loadRatios } from '../../statements/statement.service';
import type { StatementFact } from '../statement-fact';
import type { Metric } from '../../understanding/metrics';
import { periodsBetween, type PeriodAsk } from './periods';
import type { ParsedQuestion } from './question';

export interface AskedValue {
  period: string;
  metric: Metric;
  /** Null: not stored for this period (the period exists but lacks the field, or the period is not stored). */
  fact: StatementFact | null;
}

export interface CompanyAnswer {
  company: Company;
  /** The periods asked, oldest first, as the statements label them ("TTM" for trailing twelve months). */
  periods: string[];
  /** Asked periods the company has no statements for. */
  missingPeriods: string[];
  /** For a missing period: the nearest stored period of the same type, to offer labelled. */
  nearest: Map<string, string>;
  /** The stored periods of the asked type, oldest and newest (to say what range exists). */
  storedRange: { oldest: string; newest: string } | null;
  values: AskedValue[];
  /** Change questions: the same metrics one year before each asked period. */
  priorValues: AskedValue[];
  /** The facts of the nearest periods offered instead of missing ones (labelled as such in the answer). */
  nearestValues: AskedValue[];
  /** Trailing twelve months: flows added up over the four newest quarters, balances and ratios of the newest. */
  ttmValues: AskedValue[];
  /** Changes the answer states (a period against the year before, or a series' first against its last), as facts. */
  changes: StatementFact[];
}

export interface AskedFacts {
  question: ParsedQuestion;
  companies: CompanyAnswer[];
}

const SOURCE_OF: Record<Metric['source'], StatementFact['source']> = {
  income: 'income_statement',
  balance: 'balance_sheet',
  cashFlow: 'cash_flow',
  ratio: 'ratios',
};

function typeOf(ask: PeriodAsk | null): PeriodType {
  if (!ask) return 'ANNUAL';
  if (ask.kind === 'exact') return ask.periods[0].type;
  if (ask.kind === 'range') return ask.from.type;
  if (ask.kind === 'ttm') return 'QUARTER';
  return ask.type;
}

/** The period labels asked, for one company's stored periods (newest first). */
function askedLabels(ask: PeriodAsk | null, stored: AvailablePeriod[]): string[] {
  const ofType = (type: PeriodType) => stored.filter((p) => p.type === type);
  if (ask === null)
    return ofType('ANNUAL')
      .slice(0, 1)
      .map((p) => p.period);
  switch (ask.kind) {
    case 'exact':
      return ask.periods.map((p) => p.label);
    case 'range':
      return periodsBetween(ask.from, ask.to).map((p) => p.label);
    case 'last':
      return ofType(ask.type)
        .slice(0, ask.count)
        .map((p) => p.period)
        .reverse();
    case 'latest':
      return ofType(ask.type)
        .slice(0, 1)
        .map((p) => p.period);
    case 'ttm':
      return ofType('QUARTER')
        .slice(0, 4)
        .map((p) => p.period)
        .reverse();
  }
}

const order = (p: Pick<FiscalPeriod, 'fiscalYear' | 'fiscalQuarter'>) => p.fiscalYear * 4 + (p.fiscalQuarter ?? 4);

function nearestStored(label: string, stored: AvailablePeriod[]): string | null {
  const wanted = parseExactPeriod(label);
  if (!wanted) return null;
  const sameType = stored.filter((p) => p.type === wanted.type);
  if (sameType.length === 0) return null;
  return sameType.reduce((best, p) =>
    Math.abs(order(p) - order(wanted)) < Math.abs(order(best) - order(wanted)) ? p : best,
  ).period;
}

/** Reads one metric of one period; null when it is not stored. */
async function readValue(
  loaders: StatementLoaders,
  company: Company,
  period: string,
  metric: Metric,
): Promise<StatementFact | null> {
  const key = { companyId: company.id, period };
  let row: Record<string, unknown> | null;
  if (metric.source === 'ratio')
    row = (await loadRatios(loaders, company.id, period)) as unknown as Record<string, unknown> | null;
  else row = (await loaders[metric.source].load(key)) as unknown as Record<string, unknown> | null;
  const value = row?.[metric.key];
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  return {
    companyId: company.id,
    ticker: company.ticker,
    period,
    source: SOURCE_OF[metric.source],
    field: metric.key,
    label: metric.label,
    unit: metric.unit,
    value,
  };
}

async function readValues(
  loaders: StatementLoaders,
  company: Company,
  periods: string[],
  metrics: Metric[],
): Promise<AskedValue[]> {
  const values: AskedValue[] = [];
  for (const period of periods) {
    for (const metric of metrics)
      values.push({ period, metric, fact: await readValue(loaders, company, period, metric) });
  }
  return values;
}

export const TTM = 'TTM';

function trailingTwelveMonths(company: Company, values: AskedValue[], quarters: string[]): AskedValue[] {
  const metrics = [...new Map(values.map((v) => [v.metric.key, v.metric])).values()];
  return metrics.map((metric) => {
    const facts = values.filter((v) => v.metric.key === metric.key).map((v) => v.fact);
    const newest = facts[facts.length - 1];
    if (!metric.flow || metric.unit === 'money_per_share') {
      return { period: quarters[quarters.length - 1], metric, fact: newest };
    }
    if (facts.some((f) => f === null)) return { period: TTM, metric, fact: null };
    const value = facts.reduce((sum, f) => sum + (f as StatementFact).value, 0);
    return {
      period: TTM,
      metric,
      fact: {
        companyId: company.id,
        ticker: company.ticker,
        period: TTM,
        source: 'derived',
        field: metric.key,
        label: metric.label,
        unit: metric.unit,
        value,
      },
    };
  });
}

/**
 * The change from one fact to a later one of the same field: growth as a fraction of the earlier size for amounts, a
 * difference in points for ratios (fractions); null when growth has no meaning (from zero or a loss) or for multiples.
 */
export function changeFact(before: StatementFact, after: StatementFact): StatementFact | null {
  const common = {
    ...after,
    source: 'derived' as const,
    field: `${after.field}Change`,
    label: `${after.label} change`,
  };
  if (after.unit === 'fraction') return { ...common, unit: 'points', value: after.value - before.value };
  if (after.unit === 'multiple' || after.unit === 'days' || before.value <= 0) return null;
  return { ...common, unit: 'fraction', value: (after.value - before.value) / before.value };
}

/** First against last stored value of each metric of a series. */
function seriesChanges(values: AskedValue[]): Array<StatementFact | null> {
  const keys = [...new Set(values.map((v) => v.metric.key))];
  return keys.map((key) => {
    const known = values.filter((v) => v.metric.key === key && v.fact);
    return known.length >= 2
      ? changeFact(known[0].fact as StatementFact, known[known.length - 1].fact as StatementFact)
      : null;
  });
}

/** The facts a question asks for, company by company. */
export async function askedFacts(
  loaders: StatementLoaders,
  companies: Company[],
  question: ParsedQuestion,
): Promise<AskedFacts> {
  const answers: CompanyAnswer[] = [];
  for (const company of companies) {
    const stored = await loaders.periods.load(company.id);
    const type = typeOf(question.period);
    const periods = askedLabels(question.period, stored);
    const storedLabels = new Set(stored.map((p) => p.period));
    const missingPeriods = periods.filter((label) => !storedLabels.has(label));
    const nearest = new Map<string, string>();
    for (const label of missingPeriods) {
      const near = nearestStored(label, stored);
      if (near) nearest.set(label, near);
    }
    const ofType = stored.filter((p) => p.type === type);
    const storedRange =
      ofType.length > 0 ? { oldest: ofType[ofType.length - 1].period, newest: ofType[0].period } : null;
    const present = periods.filter((label) => storedLabels.has(label));
    const values = await readValues(loaders, company, present, question.metrics);
    const priorLabels =
      question.intent === 'change' || question.intent === 'drivers'
        ? present.map((label) => samePeriodLastYear(parseExactPeriod(label) as FiscalPeriod).label)
        : [];
    const priorValues = await readValues(loaders, company, priorLabels, question.metrics);
    const nearestValues = await readValues(loaders, company, [...new Set(nearest.values())], question.metrics);
    const ttmValues =
      question.period?.kind === 'ttm' && present.length === 4 ? trailingTwelveMonths(company, values, present) : [];
    const changes = [
      ...values.flatMap((value) => {
        const prior = priorValues.find(
          (p) =>
            p.metric.key === value.metric.key &&
            p.period === samePeriodLastYear(parseExactPeriod(value.period) as FiscalPeriod).label,
        );
        return value.fact && prior?.fact ? [changeFact(prior.fact, value.fact)] : [];
      }),
      ...(question.intent === 'series' ? seriesChanges(values) : []),
    ].filter((fact): fact is StatementFact => fact !== null);
    answers.push({
      company,
      periods,
      missingPeriods,
      nearest,
      storedRange,
      values,
      priorValues,
      nearestValues,
      ttmValues,
      changes,
    });
  }
  return { question, companies: answers };
}

/** Every fact an answer may state, for the grounding check and citations. */
export function askedFactList(asked: AskedFacts | null | undefined): StatementFact[] {
  if (!asked) return [];
  return asked.companies
    .flatMap((c) => [...c.values, ...c.priorValues, ...c.nearestValues, ...c.ttmValues])
    .flatMap((v) => (v.fact ? [v.fact] : []))
    .concat(asked.companies.flatMap((c) => c.changes));
}
