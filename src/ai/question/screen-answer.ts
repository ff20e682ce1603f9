/**
 * The answer to a question about the whole market: the screener run over every stored company, the companies listed
 * in rank order with each value and its period, every value a fact the grounding check holds the answer to.
 */
import type { DataSource } from 'typeorm';
import { screenCompanies } from '../../companies/screener.service';
import type { StatementLoaders } from '../../statements/statement.loaders';
import type { Metric } from '../../understanding/metrics';
import type { FactSource, StatementFact } from '../statement-fact';
import { formatFact } from '../writer';
import type { PeriodAsk } from './periods';
import type { ScreenAsk } from './screen-ask';

const SOURCE: Record<Metric['source'], FactSource> = {
  income: 'income_statement',
  balance: 'balance_sheet',
  cashFlow: 'cash_flow',
  ratio: 'ratios',
};

export interface ScreenAnswer {
  text: string;
  facts: StatementFact[];
}

/** The period the screen reads: the one named, the newest quarter or trailing twelve months if asked, else each company's newest fiscal year. */
function screenPeriod(period: PeriodAsk | null): { argument: string; words: string } {
  if (period?.kind === 'exact' && period.periods.length === 1)
    return { argument: period.periods[0].label, words: `for ${period.periods[0].label}` };
  if (period?.kind === 'ttm') return { argument: 'ttm', words: 'over the trailing twelve months' };
  if (period?.kind === 'latest' && period.type === 'QUARTER')
    return { argument: 'latest', words: 'in their newest quarter' };
  return { argument: 'latest-fy', words: 'in their newest fiscal year' };
}

/** A condition's value as the filter writes it, in the stored unit. */
const filterTerm = ({ metric, op, value }: ScreenAsk['conditions'][number]) => `${metric.key}${op}${value}`;

export async function screenAnswer(
  dataSource: DataSource,
  loaders: StatementLoaders,
  ask: ScreenAsk,
  period: PeriodAsk | null,
): Promise<ScreenAnswer> {
  const { argument, words: periodWords } = screenPeriod(period);
  // Amounts in different currencies do not rank against each other: amounts are ranked among US-dollar reporters.
  const amounts = [ask.rankBy, ...ask.conditions.map((c) => c.metric)].some((m) => m.unit === 'money');
  const words = amounts ? `${periodWords}, among the companies reporting in US dollars` : periodWords;
  const page = await screenCompanies(dataSource, loaders, {
    currency: amounts ? 'USD' : null,
    filter: ask.conditions.map(filterTerm).join(','),
    sort: `${ask.descending ? '-' : ''}${ask.rankBy.key}`,
    fields: [...new Set([ask.rankBy.key, ...ask.conditions.map((c) => c.metric.key)])].join(','),
    period: argument,
    limit: ask.limit,
    offset: 0,
  });
  // A company without the ranking measure is ranked last by the screener, and not listed here.
  const rows = page.items.filter((row) => row.values.some((v) => v.field === ask.rankBy.key && v.value !== null));
  const metrics = new Map([ask.rankBy, ...ask.conditions.map((c) => c.metric)].map((m) => [m.key, m]));
  const facts: StatementFact[] = rows.flatMap((row) =>
    row.values.flatMap(({ field, value }) => {
      const metric = metrics.get(field);
      return metric && value !== null
        ? [
            {
              companyId: row.id,
              ticker: row.ticker,
              period: row.period,
              source: SOURCE[metric.source],
              field,
              label: metric.label,
              unit: metric.unit,
              value,
            },
          ]
        : [];
    }),
  );
  // The thresholds the question gave, which the answer restates.
  const asked: StatementFact[] = ask.conditions.map(({ metric, value }) => ({
    companyId: 0,
    ticker: '',
    period: '',
    source: 'question',
    field: metric.key,
    label: metric.label,
    unit: metric.unit,
    value,
  }));
  const valueOf = (row: (typeof rows)[number], metric: Metric) => {
    const fact = facts.find((f) => f.companyId === row.id && f.field === metric.key);
    if (!fact) return 'not reported';
    // Outflows are written by their size.
    return formatFact(metric.outflow ? { ...fact, value: Math.abs(fact.value) } : fact, row.currency);
  };
  const condition = ask.conditions.map((c) => c.words).join(' and ');
  const order = `${ask.rankBy.label}, ${ask.descending !== Boolean(ask.rankBy.outflow) ? 'highest' : 'lowest'} first`;
  if (rows.length === 0)
    return {
      text: `No stored company has ${condition || `a ${ask.rankBy.label}`} ${words}.`,
      facts: asked,
    };
  const listed = rows.map((row, i) => {
    const others = ask.conditions
      .filter((c) => c.metric.key !== ask.rankBy.key)
      .map((c) => `, ${c.metric.label} ${valueOf(row, c.metric)}`)
      .join('');
    return `${i + 1}. ${row.ticker} (${row.name}) ${valueOf(row, ask.rankBy)}${others} (${row.period})`;
  });
  const highest = ask.descending !== Boolean(ask.rankBy.outflow) ? 'highest' : 'lowest';
  if (ask.conditions.length === 0) {
    const [first] = rows;
    const lead = ask.single
      ? `${first.ticker} (${first.name}) has the ${highest} ${ask.rankBy.label} of the stored companies ${words}: ${valueOf(first, ask.rankBy)} (${first.period}). `
      : '';
    return { text: `${lead}By ${order}, ${words}, the top ${rows.length}: ${listed.join('; ')}.`, facts };
  }
  const scope = page.total > rows.length ? `the first ${rows.length} of ${page.total}` : `all ${page.total}`;
  const have = `${page.total} stored ${page.total === 1 ? 'company has' : 'companies have'} ${condition} ${words}.`;
  return { text: `${have} By ${order}, ${scope}: ${listed.join('; ')}.`, facts: [...facts, ...asked] };
}
