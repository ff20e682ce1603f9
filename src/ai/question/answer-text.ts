/**
 * The built-in analyst's answer to a parsed question: it leads with what was asked (the value for the asked
 * company, period and metric, each period named as the statements label it), says first and plainly what is not in
 * the data, and only then offers the nearest stored period, labelled as such. "Why" and risk questions quote the
 * company's own driver and risk sentences, cited to their passages.
 */
import type { DocumentPassage, StatementFact } from '../facts';
import { formatFact } from '../writer';
import { formatPercent, formatPoints } from '../numbers';
import { changeFact, TTM, type AskedFacts, type AskedValue, type CompanyAnswer } from './asked-facts';
import { findMetrics, type Metric } from '../../understanding/metrics';
import type { ParsedQuestion } from './question';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

const possessive = (ticker: string) => `${ticker}\u2019s`;

function periodWords(question: ParsedQuestion, answer: CompanyAnswer): string {
  if (question.period?.kind === 'ttm')
    return `the trailing twelve months (${answer.periods[0]} to ${answer.periods[answer.periods.length - 1]})`;
  if (answer.periods.length === 1) return answer.periods[0];
  return `${answer.periods[0]} to ${answer.periods[answer.periods.length - 1]}`;
}

function asked(question: ParsedQuestion): string {
  const ask = question.period;
  if (!ask) return 'the newest stored period';
  if (ask.kind === 'exact') return ask.periods.map((p) => p.label).join(', ');
  if (ask.kind === 'range') return `${ask.from.label} to ${ask.to.label}`;
  if (ask.kind === 'last') return `the last ${ask.count} ${ask.type === 'QUARTER' ? 'quarters' : 'fiscal years'}`;
  if (ask.kind === 'ttm') return 'the trailing twelve months';
  return ask.type === 'QUARTER' ? 'the newest quarter' : 'the newest fiscal year';
}

const metricWords = (metrics: Metric[]) =>
  metrics.length === 0 ? 'figures' : metrics.map((m) => m.label).join(' and ');

/** A value as prose shows it; outflows (stored negative) by their size, since "capex of -$11 billion" reads wrong. */
function shown(fact: StatementFact, currency: string, outflow = false): string {
  return formatFact(outflow ? { ...fact, value: Math.abs(fact.value) } : fact, currency);
}

/** The lead figure of an answer, with its exact size in millions when it is a large amount ("$416.2 billion ($416,161 million)"). */
function exact(fact: StatementFact, currency: string, outflow = false): string {
  const value = outflow ? Math.abs(fact.value) : fact.value;
  if (fact.unit !== 'money' || Math.abs(value) < 1e9 || !Number.isInteger(value / 1e6))
    return shown(fact, currency, outflow);
  return `${shown(fact, currency, outflow)} (${currency === 'USD' ? '$' : `${currency} `}${(value / 1e6).toLocaleString('en-US')} million)`;
}

/** "rose 6.4%", "fell 1.2 percentage points", "rose": a change between two facts, with its direction (the size when it is a fact). */
export function changeWords(before: StatementFact, after: StatementFact): string {
  const delta = after.value - before.value;
  if (delta === 0) return 'was unchanged';
  const direction = delta > 0 ? 'rose' : 'fell';
  const change = changeFact(before, after);
  if (!change) return direction;
  return `${direction} ${change.unit === 'points' ? formatPoints(change.value) : formatPercent(Math.abs(change.value))}`;
}

/** What is missing for a company, said first: unknown periods, with what the data holds instead. */
function missingSentences(question: ParsedQuestion, answer: CompanyAnswer): string[] {
  if (answer.missingPeriods.length === 0) return [];
  const ticker = answer.company.ticker;
  const range = answer.storedRange;
  const held = range
    ? ` The stored ${range.oldest.startsWith('FY') ? 'fiscal years' : 'quarters'} of ${ticker} run from ${range.oldest} to ${range.newest}.`
    : ` ${ticker} has no statements of that kind stored.`;
  const sentences = [
    `${possessive(ticker)} ${metricWords(question.metrics)} for ${answer.missingPeriods.join(', ')} ${answer.missingPeriods.length > 1 ? 'are' : 'is'} not available: the data holds no statements for ${answer.missingPeriods.length > 1 ? 'those periods' : 'that period'}.${held}`,
  ];
  // The nearest stored period, offered after the plain "not available" and labelled as another period.
  const offered = [...new Set(answer.nearest.values())];
  if (answer.periods.length === answer.missingPeriods.length && offered.length > 0 && question.metrics.length > 0) {
    const facts = answer.nearestValues.filter((v) => v.fact);
    if (facts.length > 0) {
      sentences.push(
        `For reference only, the nearest stored period is ${offered.join(', ')} (not the period asked): ${facts.map((v) => `${v.metric.label} ${shown(v.fact as StatementFact, answer.company.currency)} in ${v.period}`).join(', ')}.`,
      );
    }
  }
  return sentences;
}

function notStored(answer: CompanyAnswer, value: AskedValue): string {
  return `${possessive(answer.company.ticker)} ${value.metric.label} for ${value.period} is not available: the ${value.period} statements do not report it.`;
}

function valueAnswer(question: ParsedQuestion, answer: CompanyAnswer): string[] {
  const sentences: string[] = [];
  const ticker = answer.company.ticker;
  if (question.period?.kind === 'ttm' && answer.ttmValues.length > 0) {
    for (const value of answer.ttmValues) {
      if (!value.fact)
        sentences.push(
          `${possessive(ticker)} ${value.metric.label} for ${periodWords(question, answer)} is not available: a quarter of it is not stored.`,
        );
      else if (value.period === TTM)
        sentences.push(
          `${possessive(ticker)} ${value.metric.label} for ${periodWords(question, answer)} was ${shown(value.fact, answer.company.currency)}.`,
        );
      else
        sentences.push(
          `${possessive(ticker)} ${value.metric.label} at ${value.period}, the newest quarter, was ${shown(value.fact, answer.company.currency)}.`,
        );
    }
    return sentences;
  }
  for (const value of answer.values) {
    sentences.push(
      value.fact
        ? `${possessive(ticker)} ${value.metric.label} for ${value.period} was ${exact(value.fact, answer.company.currency, value.metric.outflow)}.`
        : notStored(answer, value),
    );
  }
  return sentences;
}

function changeAnswer(answer: CompanyAnswer): string[] {
  const ticker = answer.company.ticker;
  return answer.values.map((value) => {
    if (!value.fact) return notStored(answer, value);
    const prior = answer.priorValues.find((p) => p.metric.key === value.metric.key && p.fact);
    const now = `${possessive(ticker)} ${value.metric.label} for ${value.period} was ${exact(value.fact, answer.company.currency, value.metric.outflow)}`;
    if (!prior?.fact) return `${now}; the year before is not stored, so its change is not available.`;
    const change = changeWords(prior.fact, value.fact);
    return `${now}: it ${change} from ${shown(prior.fact, answer.company.currency, value.metric.outflow)} in ${prior.period}.`;
  });
}

function seriesAnswer(answer: CompanyAnswer): string[] {
  const ticker = answer.company.ticker;
  const sentences: string[] = [];
  const metrics = [...new Map(answer.values.map((v) => [v.metric.key, v.metric])).values()];
  for (const metric of metrics) {
    const values = answer.values.filter((v) => v.metric.key === metric.key);
    const listed = values
      .map((v) => `${v.period}: ${v.fact ? shown(v.fact, answer.company.currency, metric.outflow) : 'not reported'}`)
      .join('; ');
    sentences.push(`${possessive(ticker)} ${metric.label}, period by period \u2014 ${listed}.`);
    const known = values.filter((v) => v.fact);
    if (known.length >= 2) {
      const [first, last] = [known[0], known[known.length - 1]];
      sentences.push(
        `From ${first.period} to ${last.period} it ${changeWords(first.fact as StatementFact, last.fact as StatementFact)}.`,
      );
    }
  }
  return sentences;
}

function comparisonAnswer(question: ParsedQuestion, facts: AskedFacts): string[] {
  const sentences: string[] = [];
  const companies = facts.companies;
  const present = companies.filter((c) => c.values.length > 0);
  for (const metric of question.metrics) {
    const rows = present.map((c) => ({ c, value: c.values.find((v) => v.metric.key === metric.key && v.fact) }));
    const listed = rows.map(({ c, value }) =>
      value?.fact
        ? `${c.company.ticker} ${shown(value.fact, c.company.currency, metric.outflow)} (${value.period})`
        : `${c.company.ticker} not reported`,
    );
    if (listed.length === 0) continue;
    sentences.push(`${metric.label.charAt(0).toUpperCase()}${metric.label.slice(1)}: ${listed.join(', ')}.`);
    const known = rows.filter((r) => r.value?.fact) as Array<{
      c: CompanyAnswer;
      value: AskedValue & { fact: StatementFact };
    }>;
    if (known.length < 2) continue;
    if (new Set(known.map((r) => r.c.company.currency)).size > 1) {
      sentences.push(
        `They are reported in different currencies (${known.map((r) => `${r.c.company.ticker} in ${r.c.company.currency}`).join(', ')}), so they are not ranked.`,
      );
      continue;
    }
    // Outflows (capex, buybacks, dividends) are stored negative: the larger one is the larger amount spent.
    const size = (fact: StatementFact) => (metric.outflow ? Math.abs(fact.value) : fact.value);
    const ranked = [...known].sort((a, b) => size(b.value.fact) - size(a.value.fact));
    const word = metric.outflow
      ? 'spent the most'
      : metric.unit === 'fraction' || metric.unit === 'multiple'
        ? 'is the highest'
        : 'is the largest';
    sentences.push(
      metric.outflow
        ? `${ranked[0].c.company.ticker} ${word}, compared by the size of the outflow.`
        : `${ranked[0].c.company.ticker}\u2019s ${metric.label} ${word}.`,
    );
  }
  const months = new Set(present.map((c) => c.company.fiscalYearEnd));
  if (months.size > 1) {
    sentences.push(
      `Their fiscal years end in different months (${present.map((c) => `${c.company.ticker} in ${MONTHS[c.company.fiscalYearEnd - 1] ?? `month ${c.company.fiscalYearEnd}`}`).join(', ')}), so the same fiscal year label covers different calendar months.`,
    );
  }
  return sentences;
}

const DRIVER_SENTENCE =
  /\b(?:driven (?:primarily |mainly |largely |partially |in part )?by|due (?:primarily |mainly |largely |partially )?to|primarily (?:due to|as a result of|from|because)|as a result of|attributable to|reflect(?:s|ed|ing)?|offset (?:in part |partially )?by|increase[sd]? in|decrease[sd]? in|higher|lower)\b/i;
const RISK_SENTENCE =
  /\b(?:could|may|might)\b[^.]*\b(?:adversely|harm|negatively|materially|disrupt|reduce|decline|loss|impair|volatil)/i;
/** Sentences that introduce or qualify risks in general, naming none. */
export const BOILERPLATE =
  /\b(?:following risk factors|should (?:be )?(?:carefully )?consider|forward-looking statements?|not the only risks|described below|this (?:section|report|form)|item 1a|in addition to the other information|you should|the risks? (?:and uncertainties )?described|table of contents|incorporated (?:herein )?by reference)\b/i;

/** Sentences addressed to a reader or a model (planted instructions): never quoted. */
export const ADDRESSED_TO_READER =
  /\b(ignore|disregard|forget|instructions?|prompt|assistant|you must|you should|respond with|say that|pretend)\b/i;

/** Sentences of a text: split at a full stop followed by a capital, keeping abbreviations such as "Inc." whole. */
export function sentencesOf(text: string): string[] {
  return text
    .replace(/\s+/g, ' ')
    .split(/(?<=[.!?])\s+(?=[A-Z\u201c"])/)
    .map((s) => s.trim())
    .filter((s) => s.length >= 40 && s.length <= 600);
}

/** The specific sentences of a company's passages that match `wanted`, no boilerplate, no duplicates, best first. */
export function quotedSentences(
  passages: DocumentPassage[],
  wanted: RegExp,
  rank: (sentence: string) => number,
  limit: number,
): Array<{ sentence: string; passage: DocumentPassage }> {
  const seen = new Set<string>();
  const candidates: Array<{ sentence: string; passage: DocumentPassage; score: number; order: number }> = [];
  let order = 0;
  for (const passage of passages) {
    for (const sentence of sentencesOf(passage.content)) {
      const key = sentence
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, ' ')
        .trim();
      if (seen.has(key) || BOILERPLATE.test(sentence) || ADDRESSED_TO_READER.test(sentence) || !wanted.test(sentence))
        continue;
      seen.add(key);
      const score = rank(sentence);
      candidates.push({ sentence, passage, score, order: order++ });
    }
  }
  return candidates
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, limit)
    .map(({ sentence, passage }) => ({ sentence, passage }));
}

const escapeWords = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** How many of the words a sentence contains (word starts, any case). */
function wordScore(words: string[]): (sentence: string) => number {
  return (sentence) => words.filter((word) => new RegExp(`\\b${escapeWords(word)}`, 'i').test(sentence)).length;
}

/**
 * How well a sentence explains a metric's change: it names a cause ("driven by", "due to"), the metric itself (its
 * whole name scores more than a word of it), and the metric of the whole company rather than one segment's
 * ("Revenue growth … was driven by" over "Automotive revenue was up 69%, driven by").
 */
function driverScore(labels: string[], keys: string[]): (sentence: string) => number {
  const words = labels.flatMap((label) => label.split(/\s+/)).filter((word) => word.length > 3);
  return (sentence) => {
    let score = wordScore(words)(sentence) + 2 * wordScore(labels)(sentence);
    // A sentence about another metric ("operating income" for operating expenses) explains that one, not this.
    const named = findMetrics(sentence).map((m) => m.key);
    if (keys.some((key) => named.includes(key))) score += 3;
    else if (named.length > 0 && keys.length > 0) score -= 2;
    if (/\b(?:driven|due to|primarily|as a result of|attributable)\b/i.test(sentence)) score += 3;
    // "may" and "could" speak of what might happen (a risk), not of what drove the figure.
    if (/\b(?:may|could|might)\b/i.test(sentence)) score -= 3;
    for (const label of labels) {
      const named = new RegExp(`(^|\\b(?:total|our|net)\\s+)${escapeWords(label)}`, 'i').test(sentence);
      const segment = new RegExp(`\\b[A-Z][\\w&-]*\\s+${escapeWords(label)}\\b`).test(sentence.slice(1)) && !named;
      if (named) score += 2;
      if (segment) score -= 2;
    }
    return score;
  };
}

const cite = (passage: DocumentPassage) =>
  `[${passage.title}${passage.period ? `, ${passage.period}` : ''}, chunk ${passage.chunkId}]`;

function documentAnswer(question: ParsedQuestion, answer: CompanyAnswer, passages: DocumentPassage[]): string[] {
  const ticker = answer.company.ticker;
  const own = passages.filter((p) => p.companyId === answer.company.id);
  const risks = question.intent === 'risks';
  const labels =
    question.metrics.length > 0 ? question.metrics.map((m) => m.label) : ['revenue', 'net sales', 'margin'];
  const rank = risks
    ? wordScore(['risk', 'compet', 'supply', 'regulat', 'demand', 'customer'])
    : driverScore(
        labels,
        question.metrics.map((m) => m.key),
      );
  const quotes = quotedSentences(own, risks ? RISK_SENTENCE : DRIVER_SENTENCE, rank, risks ? 4 : 3);
  const scope = answer.periods.length > 0 ? ` for ${answer.periods.join(', ')}` : '';
  if (quotes.length === 0) {
    return [
      `The stored documents of ${ticker}${scope} contain no ${risks ? 'specific risk' : 'driver'} sentences${risks ? '' : ` for its ${metricWords(question.metrics)}`}, so I cannot say ${risks ? 'what its risks are' : 'why'} from them.`,
    ];
  }
  const intro = risks
    ? `${possessive(ticker)} filings${scope} name these risks:`
    : `${possessive(ticker)} filings${scope} give these reasons:`;
  return [intro, ...quotes.map((q) => `\u201c${q.sentence}\u201d ${cite(q.passage)}`)];
}

/**
 * The answer to a parsed question, or null when the question names no metric, company or document topic this
 * writer answers precisely (then the general analysis is written instead).
 */
export function answerQuestion(facts: AskedFacts, passages: DocumentPassage[]): string | null {
  const question = facts.question;
  const ambiguity = question.ambiguousCompany ? ambiguousSentence(question.ambiguousCompany) : null;
  if (ambiguity && facts.companies.length === 0) return ambiguity;
  const answer = answerNamedCompanies(facts, passages);
  return ambiguity ? [ambiguity, answer].filter(Boolean).join(' ') : answer;
}

/** "“Delta” fits several companies: …": the candidates, largest first, and how to say which one is meant. */
function ambiguousSentence({ words, candidates }: NonNullable<ParsedQuestion['ambiguousCompany']>): string {
  const listed = [...candidates]
    .sort((a, b) => (b.size ?? -1) - (a.size ?? -1))
    .slice(0, 8)
    .map((company) => `${company.name} (${company.ticker})`);
  const more = candidates.length > listed.length ? ` and ${candidates.length - listed.length} more` : '';
  return `\u201c${words}\u201d fits several companies: ${listed.join(', ')}${more}. Ask again with the ticker or the full name of the one you mean.`;
}

function answerNamedCompanies(facts: AskedFacts, passages: DocumentPassage[]): string | null {
  const question = facts.question;
  if (facts.companies.length === 0) {
    if (!question.unknownCompany) return null;
    const what =
      question.metrics.length > 0
        ? ` its ${metricWords(question.metrics)}${question.period ? ` for ${asked(question)}` : ''}`
        : ' its figures';
    return `${question.unknownCompany} is an unknown company: no company of that name or ticker is in the data, so${what} ${question.metrics.length > 1 ? 'are' : 'is'} not available.`;
  }
  const documents = question.intent === 'risks' || question.intent === 'drivers';
  if (question.metrics.length === 0 && !documents && facts.companies.every((c) => c.missingPeriods.length === 0))
    return null;
  const parts: string[] = [];
  // A company named beside the known ones that is not in the data: said first, not dropped silently.
  if (question.unknownCompany)
    parts.push(
      `${question.unknownCompany} is an unknown company: no company of that name or ticker is in the data, so its figures are not available.`,
    );
  for (const answer of facts.companies) parts.push(...missingSentences(question, answer));
  if (question.metrics.length > 0) {
    if (question.intent === 'comparison' && facts.companies.length > 1)
      parts.push(...comparisonAnswer(question, facts));
    else {
      for (const answer of facts.companies) {
        if (answer.values.length === 0 && answer.ttmValues.length === 0) continue;
        if (question.intent === 'series') parts.push(...seriesAnswer(answer));
        else if (question.intent === 'change' || question.intent === 'drivers') parts.push(...changeAnswer(answer));
        else parts.push(...valueAnswer(question, answer));
      }
    }
  }
  if (documents) for (const answer of facts.companies) parts.push(...documentAnswer(question, answer, passages));
  if (parts.length === 0) return null;
  return parts.join(' ');
}
