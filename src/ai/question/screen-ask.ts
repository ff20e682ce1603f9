/**
 * A question about the whole market rather than named companies: "Which company has the highest net margin in
 * fiscal 2024?", "Show me companies with gross margin above 60%", "Top 5 companies by revenue growth". It is read
 * into a screen (conditions on statement fields and ratios, a ranking measure, how many to show), which the screener
 * answers over every stored company.
 */
import { metricMentions, normalizeMetricText, type Metric } from '../../understanding/metrics';
import { SCALES } from '../numbers';

export interface ScreenCondition {
  metric: Metric;
  op: '>' | '>=' | '<' | '<=';
  /** In the metric's stored unit: a fraction for a margin ("60%" is 0.6), an amount in units. */
  value: number;
  /** The condition as written ("gross margin above 60%"). */
  words: string;
}

export interface ScreenAsk {
  /** The measure companies are ranked by. */
  rankBy: Metric;
  /** Highest first, or lowest first. */
  descending: boolean;
  conditions: ScreenCondition[];
  /** How many companies the answer lists. */
  limit: number;
  /** "Which company has the highest …": one company is asked for (the answer still lists the next ones). */
  single: boolean;
}

const ABOUT_COMPANIES =
  /\b(?:which|what)\s+(?:of\s+(?:the|our|these|all)\s+)?(?:compan(?:y|ies)|stocks?|firms?|ones?)\b|\b(?:show|list|find|give|screen|rank)\b[^.?!]*\bcompanies\b|\bcompanies\s+(?:with|that|whose|having|where)\b|\btop\s+(?:\d{1,2}|three|five|ten)\s+compan/i;
const HIGHEST = /\b(?:highest|largest|biggest|greatest|most|best|strongest|fastest)\b/i;
const LOWEST = /\b(?:lowest|smallest|least|weakest|worst|fewest|slowest)\b/i;
const TOP_N = /\btop\s+(\d{1,2}|three|five|ten)\b/i;
const NUMBER_WORDS: Record<string, number> = { three: 3, five: 5, ten: 10 };
const COMPARISON =
  /^\s*(?:of\s+|is\s+|was\s+|are\s+|were\s+|that\s+is\s+)?(above|over|greater than|more than|higher than|exceeding|at least|below|under|less than|lower than|at most)\s+(-?\$?\d+(?:\.\d+)?)\s*(%|percent\b|x\b|times\b|billion\b|bn\b|million\b|mn\b|thousand\b|[bmk]\b)?/i;
const OPERATOR: Record<string, ScreenCondition['op']> = {
  above: '>',
  over: '>',
  'greater than': '>',
  'more than': '>',
  'higher than': '>',
  exceeding: '>',
  'at least': '>=',
  below: '<',
  under: '<',
  'less than': '<',
  'lower than': '<',
  'at most': '<=',
};

/** A written figure in the metric's stored unit: a share as a fraction ("60%", or a bare 60 for a margin). */
function storedValue(metric: Metric, figure: string, unit: string | undefined): number {
  const number = Number(figure.replace('$', ''));
  const word = unit?.toLowerCase();
  if (metric.unit === 'fraction')
    return word === '%' || word === 'percent' || Math.abs(number) > 1.5 ? number / 100 : number;
  if (metric.unit === 'money' && word && SCALES[word]) return number * SCALES[word];
  return number;
}

/**
 * The screen a question asks for, or null when it is not about ranking or filtering companies. Only for a question
 * that names no company: one about named companies is answered for them.
 */
export function screenAsk(text: string): ScreenAsk | null {
  if (!ABOUT_COMPANIES.test(text)) return null;
  const normalized = normalizeMetricText(text);
  const mentions = metricMentions(text).filter((mention) => !mention.asMargin);
  if (mentions.length === 0) return null;
  const conditions: ScreenCondition[] = [];
  for (const mention of mentions) {
    const found = COMPARISON.exec(normalized.slice(mention.end));
    if (!found) continue;
    conditions.push({
      metric: mention.metric,
      op: OPERATOR[found[1].toLowerCase()],
      value: storedValue(mention.metric, found[2], found[3]),
      words: normalized.slice(mention.start, mention.end + found[0].length).trim(),
    });
  }
  const highest = HIGHEST.exec(normalized);
  const lowest = LOWEST.exec(normalized);
  const top = TOP_N.exec(normalized);
  // "Top 5 companies by revenue" ranks highest first, as "the highest" does.
  const superlative = highest ?? lowest ?? top;
  if (!superlative && conditions.length === 0) return null;
  // Ranked by the measure the superlative names (the first named after it), else by the first condition's.
  const ranked = superlative
    ? (mentions.find((mention) => mention.start > superlative.index) ?? mentions[0]).metric
    : conditions[0].metric;
  const low = lowest !== null && (highest === null || lowest.index < highest.index);
  // Outflows are stored negative: the largest capex is the most negative value.
  const descending = (superlative ? !low : conditions[0].op.startsWith('>')) !== Boolean(ranked.outflow);
  const count = top ? (NUMBER_WORDS[top[1].toLowerCase()] ?? Number(top[1])) : null;
  const single = !top && /\b(?:which|what)\s+(?:of\s+\w+\s+)?(?:company|stock|firm|one)\b/i.test(normalized);
  return {
    rankBy: ranked,
    descending,
    conditions,
    limit: Math.min(Math.max(count ?? (single ? 5 : 10), 1), 25),
    single,
  };
}
