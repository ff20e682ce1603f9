/**
 * Every statement field and ratio by the names people use for it ("net sales", "profit", "capex", "R&D", "cash
 * position", "EPS"…). Statement fields come from the statement entities; ratios from the ratio definitions.
 */
import { RATIO_DEFINITIONS } from '../statements/ratios';
import type { FactUnit } from './fact-unit';

export type MetricSource = 'income' | 'balance' | 'cashFlow' | 'ratio';

export interface Metric {
  /** camelCase field or ratio key, e.g. "revenue", "grossMargin". */
  key: string;
  source: MetricSource;
  /** Words for prose. */
  label: string;
  unit: FactUnit;
  /** Flows add up over quarters (revenue, cash flows); balances and ratios do not. */
  flow: boolean;
  /** Cash outflows are stored negative; comparisons rank them by size. */
  outflow?: boolean;
}

interface MetricNames extends Metric {
  names: string[];
}

const money = (
  key: string,
  source: MetricSource,
  label: string,
  names: string[],
  extra: Partial<Metric> = {},
): MetricNames => ({
  key,
  source,
  label,
  unit: 'money',
  flow: source !== 'balance',
  names,
  ...extra,
});

const STATEMENT_METRICS: MetricNames[] = [
  money('revenue', 'income', 'revenue', [
    'revenue',
    'revenues',
    'net revenue',
    'net revenues',
    'total revenue',
    'total revenues',
    'sales',
    'net sales',
    'total net sales',
    'total sales',
    'turnover',
    'top line',
    'top-line',
  ]),
  money('costOfRevenue', 'income', 'cost of revenue', [
    'cost of revenue',
    'cost of revenues',
    'cost of sales',
    'cost of goods sold',
    'cogs',
  ]),
  money('grossProfit', 'income', 'gross profit', ['gross profit', 'gross income']),
  money('researchAndDevelopment', 'income', 'research and development expense', [
    'research and development',
    'r&d',
    'r & d',
    'research & development',
    'rnd',
  ]),
  money('sellingGeneralAndAdministrative', 'income', 'selling, general and administrative expense', [
    'selling general and administrative',
    'sg&a',
    'sga',
    'selling, general and administrative',
  ]),
  money('operatingExpenses', 'income', 'operating expenses', [
    'operating expenses',
    'operating expense',
    'opex',
    'operating costs',
    'total operating expenses',
  ]),
  money('operatingIncome', 'income', 'operating income', [
    'operating income',
    'operating profit',
    'income from operations',
    'operating earnings',
    'ebit',
    'operating loss',
    'loss from operations',
  ]),
  money('interestExpense', 'income', 'interest expense', ['interest expense', 'interest costs', 'interest paid']),
  money('incomeBeforeTax', 'income', 'income before tax', [
    'income before tax',
    'income before taxes',
    'pretax income',
    'pre-tax income',
    'earnings before tax',
    'profit before tax',
  ]),
  money('incomeTaxExpense', 'income', 'income tax expense', [
    'income tax',
    'income taxes',
    'tax expense',
    'provision for income taxes',
    'taxes',
  ]),
  money('netIncome', 'income', 'net income', [
    'net income',
    'net earnings',
    'net profit',
    'profit',
    'profits',
    'earnings',
    'bottom line',
    'net loss',
    'net income (loss)',
    'net income attributable to shareholders',
    'net income attributable to common shareholders',
    'net income attributable to stockholders',
  ]),
  {
    key: 'epsDiluted',
    source: 'income',
    label: 'diluted EPS',
    unit: 'money_per_share',
    flow: true,
    names: ['diluted eps', 'eps', 'diluted earnings per share', 'earnings per share', 'eps diluted'],
  },
  {
    key: 'epsBasic',
    source: 'income',
    label: 'basic EPS',
    unit: 'money_per_share',
    flow: true,
    names: ['basic eps', 'basic earnings per share'],
  },
  {
    key: 'sharesDiluted',
    source: 'income',
    label: 'diluted shares outstanding',
    unit: 'shares',
    flow: false,
    names: ['diluted shares', 'share count', 'shares outstanding', 'diluted share count'],
  },
  money('depreciationAndAmortization', 'income', 'depreciation and amortization', [
    'depreciation and amortization',
    'depreciation',
    'd&a',
    'amortization',
  ]),
  money('ebitda', 'income', 'EBITDA', ['ebitda']),
  money('cashAndEquivalents', 'balance', 'cash and cash equivalents', [
    'cash and cash equivalents',
    'cash and equivalents',
    'cash position',
    'cash balance',
    'cash on hand',
    'cash pile',
    'cash',
  ]),
  money('shortTermInvestments', 'balance', 'short-term investments', [
    'short-term investments',
    'short term investments',
    'marketable securities',
  ]),
  money('receivables', 'balance', 'receivables', [
    'receivables',
    'accounts receivable',
    'net accounts receivable',
    'net receivables',
    'net ar',
  ]),
  money('inventory', 'balance', 'inventory', ['inventory', 'inventories']),
  money('totalCurrentAssets', 'balance', 'total current assets', ['current assets', 'total current assets']),
  money('ppeNet', 'balance', 'property, plant and equipment', [
    'property plant and equipment',
    'property, plant and equipment',
    'pp&e',
    'ppe',
    'fixed assets',
  ]),
  money('goodwillAndIntangibles', 'balance', 'goodwill and intangibles', [
    'goodwill',
    'intangibles',
    'intangible assets',
  ]),
  money('totalAssets', 'balance', 'total assets', ['total assets', 'assets']),
  money('accountsPayable', 'balance', 'accounts payable', ['accounts payable', 'payables']),
  money('shortTermDebt', 'balance', 'short-term debt', ['short-term debt', 'short term debt', 'current debt']),
  money('totalCurrentLiabilities', 'balance', 'total current liabilities', [
    'current liabilities',
    'total current liabilities',
  ]),
  money('longTermDebt', 'balance', 'long-term debt', ['long-term debt', 'long term debt']),
  money('totalLiabilities', 'balance', 'total liabilities', ['total liabilities', 'liabilities']),
  money('retainedEarnings', 'balance', 'retained earnings', ['retained earnings', 'accumulated deficit']),
  money('totalEquity', 'balance', 'shareholders\u2019 equity', [
    'shareholders equity',
    'shareholders\u2019 equity',
    'stockholders equity',
    'stockholders\u2019 equity',
    'total equity',
    'equity',
    'book value',
    'net worth',
  ]),
  money('operatingCashFlow', 'cashFlow', 'operating cash flow', [
    'operating cash flow',
    'cash from operations',
    'cash flow from operations',
    'cash flows from operations',
    'cash from operating activities',
    'cash flow from operating activities',
    'cash flows from operating activities',
    'cash provided by operating activities',
    'net cash from operating activities',
    'operating cash',
  ]),
  money(
    'capitalExpenditure',
    'cashFlow',
    'capital expenditure',
    ['capital expenditure', 'capital expenditures', 'capex', 'capital spending', 'purchases of property and equipment'],
    { outflow: true },
  ),
  money('investingCashFlow', 'cashFlow', 'investing cash flow', [
    'investing cash flow',
    'cash from investing',
    'cash used in investing activities',
  ]),
  money(
    'dividendsPaid',
    'cashFlow',
    'dividends paid',
    ['dividends', 'dividends paid', 'dividend payments', 'cash dividends', 'cash dividends paid'],
    {
      outflow: true,
    },
  ),
  money(
    'shareRepurchases',
    'cashFlow',
    'share repurchases',
    [
      'share repurchases',
      'buybacks',
      'buyback',
      'share buybacks',
      'stock buybacks',
      'repurchases',
      'repurchase of common stock',
    ],
    { outflow: true },
  ),
  money('financingCashFlow', 'cashFlow', 'financing cash flow', [
    'financing cash flow',
    'cash from financing',
    'cash used in financing activities',
  ]),
  money('stockBasedCompensation', 'cashFlow', 'stock-based compensation', [
    'stock-based compensation',
    'stock based compensation',
    'share-based compensation',
    'sbc',
  ]),
  money('freeCashFlow', 'cashFlow', 'free cash flow', ['free cash flow', 'fcf', 'free cashflow']),
];

/** Extra names of ratios beyond their labels. */
const RATIO_NAMES: Record<string, string[]> = {
  grossMargin: ['gross margin', 'gross profit margin'],
  operatingMargin: ['operating margin', 'operating profit margin', 'operating income margin', 'ebit margin'],
  netMargin: ['net margin', 'net profit margin', 'profit margin', 'net income margin'],
  pretaxMargin: ['pretax margin', 'pre-tax margin'],
  effectiveTaxRate: ['tax rate', 'effective tax rate'],
  returnOnAssets: ['roa', 'return on assets'],
  returnOnEquity: ['roe', 'return on equity'],
  returnOnInvestedCapital: ['roic', 'return on invested capital', 'return on capital'],
  debtToEquity: ['debt to equity', 'debt-to-equity', 'd/e', 'leverage'],
  netDebtToEbitda: ['net debt to ebitda', 'net debt/ebitda'],
  freeCashFlowMargin: ['fcf margin', 'free cash flow margin'],
  payoutRatio: ['payout ratio', 'dividend payout ratio'],
  currentRatio: ['current ratio', 'working capital ratio'],
  daysSalesOutstanding: ['days sales outstanding', 'dso'],
  daysInventoryOutstanding: ['days inventory outstanding', 'days in inventory', 'dio'],
  daysPayablesOutstanding: ['days payables outstanding', 'days payable outstanding', 'dpo'],
  cashConversionCycle: ['cash conversion cycle', 'ccc'],
  revenueGrowth: ['revenue growth rate'],
};

function ratioUnit(key: string, category: string): FactUnit {
  if (key.startsWith('days') || key === 'cashConversionCycle') return 'days';
  if (category === 'liquidity' || category === 'leverage' || key.endsWith('Turnover')) return 'multiple';
  return 'fraction';
}

const RATIO_METRICS: MetricNames[] = RATIO_DEFINITIONS.map((definition) => {
  const label = definition.label.replace(/\s*\(.*\)\s*$/, '');
  const abbreviation = /\(([A-Z]{2,5})\)/.exec(definition.label)?.[1];
  const names = [
    label.toLowerCase(),
    ...(abbreviation ? [abbreviation.toLowerCase()] : []),
    ...(RATIO_NAMES[definition.key] ?? []),
  ];
  return {
    key: definition.key,
    source: 'ratio' as const,
    // "Gross margin" reads "gross margin" in prose; an acronym keeps its capitals ("EBITDA margin").
    label: /^[A-Z][a-z]/.test(label) ? label.charAt(0).toLowerCase() + label.slice(1) : label,
    unit: ratioUnit(definition.key, definition.category),
    flow: false,
    names,
  };
});

const ALL_METRICS = [...RATIO_METRICS, ...STATEMENT_METRICS];

/** Every name, longest first, so "net income margin" wins over "net income" and "gross profit" over "profit". */
const NAME_INDEX: Array<{ pattern: RegExp; metric: Metric }> = ALL_METRICS.flatMap(({ names, ...metric }) =>
  [...new Set(names)].map((name) => ({ name, metric })),
)
  .sort((a, b) => b.name.length - a.name.length)
  .map(({ name, metric }) => ({
    pattern: new RegExp(
      `(?<![a-z0-9&])${name
        .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        .replace(/[\s-]+/g, '[\\s-]+')
        .replace(/\u2019/g, "[\u2019']?")}(?![a-z0-9&])`,
      'gi',
    ),
    metric,
  }));

/** Every name of a metric (empty for an unknown key). */
export function metricNames(key: string): string[] {
  return ALL_METRICS.find((metric) => metric.key === key)?.names ?? [];
}

export function metricByKey(key: string): Metric | undefined {
  const found = ALL_METRICS.find((metric) => metric.key === key);
  if (!found) return undefined;
  const { names: _names, ...metric } = found;
  return metric;
}

const TOPIC_WORDS =
  /(?<![a-z])(?<!(?:operating|free|investing|financing)[\s-]+)cash[\s-]+flows?(?![\s-]+(?:from|margin|conversion))(?![a-z])/gi;

/** A metric named in a text: where (in the text as `metricMentions` normalizes it) and as what. */
export interface MetricMention {
  metric: Metric;
  start: number;
  end: number;
  /** An amount named as a share of revenue ("COGS margin", "D&A % margin"): not the amount itself. */
  asMargin: boolean;
}

/** "EBITDA % margin", "COGS % margin": the sign names no other metric; read as "EBITDA margin". */
export const withoutMarginSign = (text: string) => text.replace(/\s*%\s*(?=margin\b)/gi, ' ');

/** The text as metrics are read in it: possessives and apostrophes dropped, "% margin" read as "margin". */
export function normalizeMetricText(text: string): string {
  return withoutMarginSign(text.replace(/[’']s\b/g, '').replace(/[’']/g, ''));
}

/** Every metric mention of a text (as `normalizeMetricText` writes it), in order, the longest name winning. */
export function metricMentions(text: string): MetricMention[] {
  const lower = normalizeMetricText(text);
  // Topics wider than one field ("cash flow", "debt") name no single metric: the caller answers them as a topic.
  const taken: Array<[number, number]> = [...lower.matchAll(TOPIC_WORDS)].map((m) => [
    m.index as number,
    (m.index as number) + m[0].length,
  ]);
  const found: MetricMention[] = [];
  for (const { pattern, metric } of NAME_INDEX) {
    for (const match of lower.matchAll(pattern)) {
      const start = match.index as number;
      const end = start + match[0].length;
      if (taken.some(([s, e]) => start < e && end > s)) continue;
      taken.push([start, end]);
      const asMargin = metric.unit === 'money' && /^\s+margins?\b/.test(lower.slice(end));
      found.push({ metric, start, end, asMargin });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/** The metrics a question names, in the order they are named (each once). */
export function findMetrics(text: string): Metric[] {
  // "COGS margin", "D&A margin": an amount's share of revenue, which is not the amount.
  const named = metricMentions(text).filter((mention) => !mention.asMargin);
  return named
    .filter((mention, index) => named.findIndex((other) => other.metric.key === mention.metric.key) === index)
    .map((mention) => mention.metric);
}
