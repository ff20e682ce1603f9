/**
 * Whether a question asks for a figure only the documents hold: a product, segment, region, KPI, headcount, backlog,
 * guidance or any figure narrowed beyond a stored field ("iPhone net sales", "Greater China operating income",
 * "Data Center revenue"). What narrows is derived from the question itself: the words left once the company, the
 * period, the metric's own name and the words of asking are set aside. A narrowed metric is never the stored total.
 */
import { coreName, findCompanies, normalizeWords, type CompanyRef } from '../../understanding/companies';
import { metricNames, withoutMarginSign, type Metric } from '../../understanding/metrics';
import { strongTerms } from '../../understanding/figure-terms';
import { periodMentions } from './periods';

export interface FigureAsk {
  /** Terms that narrow the metric ("iphone"), and the metric's own terms ("revenue"). */
  qualifier: string[];
  measure: string[];
  /** The company's own name where it starts a name of what is asked ("Walmart U.S."): a figure under it is the better one. */
  optional: string[];
  /** What was looked for, in the question's words ("iPhone net sales"). */
  wording: string;
  unit: 'money' | 'percent' | 'count' | null;
}

/** Words of asking, of time and of reporting in general: they narrow no figure. */
const ASKING_WORDS = new Set(
  (
    'what which who how much many was were is are be been being did does do done has have had the a an of in for at by on to from with as per about ' +
    'its their his her it they them this that these those company companies firm business corporation report reported reports reporting ' +
    'stated disclose disclosed disclosing give gave tell me show please say said according filing filings annual quarterly form ' +
    'approximately roughly around figure amount value level number count total overall end ended ending during period time fiscal year years ' +
    'unadjusted reported year-over-year yoy change ratio out ' +
    'quarter quarters month months week weeks first second third fourth full calendar latest last most recent current prior previous ' +
    'generate generated earn earned make made bring brought post posted record recorded achieve achieved deliver see saw come came ' +
    'us dollars dollar usd million millions billion billions thousand thousands percent percentage ' +
    'one two three four five six seven eight nine ten eleven twelve past next ' +
    'sell sold selling ship shipped produce produced spend spent employ employed pay paid hold held main key ' +
    'inc inc. corp corp. corporation co co. ltd plc llc before after ago earlier since develop developed evolve evolved ' +
    'and also then what\u2019s whats doing perform performance overview summary outlook financials financial position situation results highlight highlights ' +
    'compare compared versus vs growth grow grew change changed increase increased decrease decreased rise rose fall fell ' +
    'trend over each every series between big large much'
  ).split(/\s+/),
);

const PERCENT_ASK = /\b(?:margin|percent(?:age)?|rate|share of|growth|grow|grew)\b|%/i;
/** Words that name a kind of measure, not what narrows it ("advertising expense": the expense of advertising). */
const MEASURE_TERMS = new Set(['expense', 'revenue', 'income', 'cost', 'margin']);
/** Topics wider than one figure ("and its debt?", "how is its liquidity?"): answered from the statements as a topic. */
const TOPIC_TERMS = new Set(['debt', 'leverage', 'liquidity', 'solvency', 'profitability', 'cash', 'flow', 'flows']);
const COUNT_ASK = /\bhow many\b|\bnumber of\b|\bheadcount\b|\bemployees\b/i;

/** The question's text with the company names and period expressions blanked out. */
function withoutCompaniesAndPeriods(text: string, companies: CompanyRef[]): string {
  let rest = text;
  for (const mention of periodMentions(text))
    rest = rest.slice(0, mention.at) + ' '.repeat(mention.length) + rest.slice(mention.at + mention.length);
  const words = rest.split(/(\s+)/);
  const names = (from: number, size: number) => {
    const span = words
      .slice(from, from + size * 2 - 1)
      .join('')
      .replace(/[\u2019']s\b/g, '');
    return span.trim() !== '' && findCompanies(span, companies).length > 0;
  };
  // The shortest spans (up to three words) that name one of the question's companies ("Coca-Cola", "Johnson and Johnson").
  for (let size = 1; size <= 3; size += 1) {
    for (let i = 0; i < words.length; i += 2) {
      if (!names(i, size) || (size > 1 && (names(i, size - 1) || names(i + 2, size - 1)))) continue;
      for (let j = i; j < i + size * 2 - 1 && j < words.length; j += 2) words[j] = ' '.repeat(words[j].length);
    }
  }
  // The words of the companies' names wherever they stand ("Voltaris Motors’": "Motors" names no figure).
  const nameWords = new Set(
    companies.flatMap((c) => [
      ...coreName(c.name).split(' '),
      ...normalizeWords(c.name).split(' '),
      c.ticker.toLowerCase(),
    ]),
  );
  return words.map((word) => (nameWords.has(normalizeWords(word)) ? ' '.repeat(word.length) : word)).join('');
}

/** Words of the companies' names that begin a name of something else in the question ("Walmart U.S.", not "Walmart's"). */
function namePrefixes(text: string, companies: CompanyRef[]): string[] {
  const nameWords = new Set(
    companies.flatMap((c) =>
      normalizeWords(c.name)
        .split(' ')
        .filter((w) => w.length >= 3),
    ),
  );
  // The next word is looked at, not taken, so that in "were Walmart U.S." the pair "Walmart U.S." is still seen.
  return [...text.matchAll(/\b([A-Za-z][\w&-]*)(?![\u2019']s\b)(?=\s+([A-Z][\w.&-]*))/g)]
    .filter(
      (m) =>
        nameWords.has(m[1].toLowerCase()) &&
        !nameWords.has(m[2].toLowerCase()) &&
        !ASKING_WORDS.has(m[2].toLowerCase()),
    )
    .flatMap((m) => strongTerms(m[1]));
}

/** The metric's names found in the text, blanked out, and the terms of the names found. */
function takeMetricNames(text: string, metrics: Metric[]): { rest: string; measure: string[]; named: string[] } {
  let rest = text;
  const measure: string[] = [];
  const named: string[] = [];
  const names = metrics.flatMap((m) => metricNames(m.key)).sort((a, b) => b.length - a.length);
  for (const name of names) {
    const pattern = new RegExp(
      `(?<![a-z0-9&])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/[\s-]+/g, '[\\s-]+')}(?![a-z0-9&])`,
      'gi',
    );
    rest = rest.replace(pattern, (found) => {
      measure.push(...strongTerms(found));
      named.push(found);
      return ' '.repeat(found.length);
    });
  }
  return { rest, measure: [...new Set(measure)], named };
}

/**
 * The document figure a question asks for, or null when it asks for a stored field or a metric over stored fields
 * (nothing narrows it) or for no figure at all.
 */
export function figureAsk(
  text: string,
  companies: CompanyRef[],
  metrics: Metric[],
  options: { followUp?: boolean } = {},
): FigureAsk | null {
  // "EBITDA % margin" names the metric "EBITDA margin", as the metric reader reads it.
  const lower = withoutMarginSign(text.replace(/[\u2019']s\b/g, '').replace(/s[\u2019'](?=\s|$)/g, 's'));
  const { rest, measure, named } = takeMetricNames(withoutCompaniesAndPeriods(lower, companies), metrics);
  const words = rest
    .split(/[^A-Za-z0-9&.-]+/)
    .map((w) => w.replace(/^[.-]+|[.-]+$/g, ''))
    .filter(Boolean);
  const kept = words.filter((word) => !ASKING_WORDS.has(word.toLowerCase()) && !/^\d+$/.test(word));
  const terms = strongTerms(kept.join(' ')).filter((term) => !ASKING_WORDS.has(term));
  const qualifier = terms.filter((term) => !MEASURE_TERMS.has(term));
  if (qualifier.length === 0 || qualifier.every((term) => TOPIC_TERMS.has(term))) return null;
  measure.push(...terms.filter((term) => MEASURE_TERMS.has(term) && !measure.includes(term)));
  const asksFigure =
    metrics.length > 0 ||
    options.followUp ||
    /\b(?:how many|how much|what (?:was|were|is|are|did)|number of)\b/i.test(text);
  if (!asksFigure) return null;
  const unit = COUNT_ASK.test(text)
    ? 'count'
    : PERCENT_ASK.test(text) || metrics.some((m) => m.unit === 'fraction')
      ? 'percent'
      : 'money';
  const wording = `${kept.join(' ')}${named.length > 0 ? ` ${named[0]}` : ''}`.trim();
  return { qualifier, measure, optional: namePrefixes(text, companies), wording, unit };
}
