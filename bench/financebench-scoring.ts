/**
 * Scoring of answers to FinanceBench questions whose answer is a figure (see docs/evaluation.md). Figures are read by
 * bench/figures.ts, not by the service's own parsers, so a parser bug cannot flatter the service.
 *
 * - A question is numeric when FinanceBench's `answer` starts with a figure ("$1577.00", "65.4%", "0.66",
 *   "$400,000,000 increase."); the others are printed for a person to read.
 * - The gold is read in the units the question asks for ("in USD millions" → 1577 stands for $1,577 million) and
 *   is matched within the rounding the question asks for (or the gold's written decimals), or 1%, whichever is wider.
 * - An answer is "not found" when it gives no figure, or when it says so (the refusal forms below) before its first
 *   figure. Otherwise its figure is the first one of the gold's kind (a percentage for a percentage, an amount for an
 *   amount, a plain number for a ratio), or its first figure when it has none of that kind: right when that figure
 *   matches, wrong when it does not (another figure given as the answer).
 */
import { figuresIn, periodsIn, type Figure } from './figures';

export type Verdict = 'right' | 'wrong' | 'not found';
export type GoldKind = 'money' | 'percent' | 'number';

export interface Gold {
  value: number;
  kind: GoldKind;
  /** The unit the question asks amounts in (1e6 for "in USD millions"); null when it names none. */
  askedScale: number | null;
  /** How far an answer may be from `value` and still be right. */
  tolerance: number;
}

export interface Judgement {
  verdict: Verdict;
  /** The figure taken as the answer, as written; null when not found. */
  figure: string | null;
  /** Whether the gold figure appears anywhere in the answer (a right figure not given first shows here). */
  goldAnywhere: boolean;
}

const SCALE_WORDS: Record<string, number> = {
  thousand: 1e3,
  thousands: 1e3,
  million: 1e6,
  millions: 1e6,
  billion: 1e9,
  billions: 1e9,
};
const NUMBER_WORDS: Record<string, number> = { zero: 0, no: 0, one: 1, two: 2, three: 3, four: 4 };

/** The unit a question asks amounts in: "(in USD millions)", "Answer in USD billions", "in millions of dollars", "USD thousands". */
export function askedScale(question: string): number | null {
  const match =
    /\b(?:USD|US\$|\$|dollars?)\s*(thousands?|millions?|billions?)\b/i.exec(question) ??
    /\bin\s+(?:units\s+of\s+)?(thousands?|millions?|billions?)\b(?:\s+(?:of\s+)?(?:USD|US\$|\$|dollars))?/i.exec(
      question,
    );
  return match ? SCALE_WORDS[match[1].toLowerCase()] : null;
}

/** Decimal places a question asks to round to: "round to one decimal place", "Round your answer to two decimal places". */
export function askedDecimals(question: string): number | null {
  const places = /\bround\w*\b[^.?]{0,40}?\bto\s+(?:the\s+nearest\s+)?(zero|no|one|two|three|four|\d)\s+decimal/i.exec(
    question,
  );
  if (places) return NUMBER_WORDS[places[1].toLowerCase()] ?? Number(places[1]);
  return /\b(?:nearest|to a) (?:whole number|integer)\b/i.test(question) ? 0 : null;
}

/** Whether the question asks for an amount of money: a currency unit or dollar sign in its wording. */
const ASKS_MONEY = /\bUSD\b|US\$|\$|\bdollars?\b/i;

/**
 * The gold figure of a FinanceBench question, or null when its answer does not start with one (a text answer).
 * A scale word in the gold ("$1.6 billion") is turned into the question's unit, or into plain units when it names none.
 */
export function goldOf(question: string, answer: string): Gold | null {
  const first = figuresIn(answer)[0];
  if (!first || !/^[\s(\-−–$€£]*(?:US\$?|USD)?\s*$/.test(answer.slice(0, first.start))) return null;
  const kind: GoldKind =
    first.kind === 'percent' ? 'percent' : first.kind === 'money' || ASKS_MONEY.test(question) ? 'money' : 'number';
  const scale = kind === 'money' ? askedScale(question) : null;
  const value = scale && first.scale > 1 ? first.value / scale : first.value;
  const written = /\.(\d+)/.exec(answer.slice(first.start, first.end));
  const decimals = askedDecimals(question) ?? (written ? written[1].length : 0);
  return { value, kind, askedScale: scale, tolerance: Math.max(0.01 * Math.abs(value), 0.5 * 10 ** -decimals) };
}

/**
 * What the service says when it has no answer: "… is not available", "No stored filing of X gives …", "found none",
 * "could not find", "cannot look up", "is an unknown company", "no data/figures/statements for …". A general list of
 * refusal wordings, not one per question.
 */
export const SAYS_NOT_FOUND = new RegExp(
  [
    String.raw`\b(?:is|are|was|were) not (?:available|stored|reported|given|disclosed|found)\b`,
    String.raw`\bunavailable\b`,
    String.raw`\bnot found\b`,
    String.raw`\bfound none\b`,
    String.raw`\bno stored (?:filing|document|statement|figure)s?\b`,
    String.raw`\b(?:could|can) ?not (?:find|locate|look up|answer|compute|calculate|tell)\b`,
    String.raw`\b(?:do|does|did) not (?:have|hold|give|report|contain|state)\b`,
    String.raw`\bno (?:stored )?(?:data|figures?|statements?|filings?|documents?) (?:for|on|about|of|gives?)\b`,
    String.raw`\bunknown company\b`,
  ].join('|'),
  'i',
);

const MONTHS =
  'January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec';

/**
 * Things that look like numbers and are not figures, blanked out (same length, so positions hold): citations in
 * brackets, page, chunk, item and note numbers, form names (10-K), dates ("May 26, 2023"), a bare quarter (Q2) and
 * spans of years ("3-year average").
 */
const NOT_FIGURES = [
  /\[[^\]\n]*\]/g,
  /\b(?:pages?|p\.|chunks?|items?|notes?|sections?|exhibits?|part)\s+\d+[A-Z]?\b/gi,
  /\b(?:10-K|10-Q|8-K|20-F|6-K|S-1|DEF 14A)\b/gi,
  new RegExp(String.raw`\b(?:${MONTHS})\.?\s+\d{1,2}(?:st|nd|rd|th)?\b(?:,?\s+\d{4})?`, 'gi'),
  new RegExp(String.raw`\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:${MONTHS})\b`, 'gi'),
  /\bQ[1-4]\b/gi,
  /(?<![\d.,])\b\d{1,2}[-\s](?:year|month|quarter)s?\b/gi,
];

function blank(text: string, pattern: RegExp): string {
  return text.replace(pattern, (found) => ' '.repeat(found.length));
}

/** The figures an answer gives, in order, with references, dates and periods left out. */
export function answerFigures(answer: string): Figure[] {
  const withoutReferences = NOT_FIGURES.reduce(blank, answer);
  return figuresIn(periodsIn(withoutReferences).masked);
}

function sameKind(figure: Figure, kind: GoldKind): boolean {
  if (kind === 'percent') return figure.kind === 'percent';
  if (kind === 'money') return figure.kind === 'money' || (figure.kind === 'number' && figure.scale > 1);
  return figure.kind === 'number' && figure.scale === 1;
}

/** The values a written figure may stand for in the gold's units (a percentage for a fraction and back). */
export function inGoldUnits(figure: Figure, gold: Gold): number[] {
  if (gold.kind === 'percent') return figure.kind === 'percent' ? [figure.value] : [figure.value * 100];
  if (gold.kind === 'number') return figure.kind === 'percent' ? [figure.value / 100] : [figure.value];
  if (figure.scale === 1) return [figure.value];
  // "$1,577 million" asked in USD millions is 1,577; asked in no unit it is 1.577e9, or 1,577 as written.
  return gold.askedScale ? [figure.value / gold.askedScale] : [figure.value, figure.value / figure.scale];
}

const matches = (figure: Figure, gold: Gold) =>
  inGoldUnits(figure, gold).some((value) => Math.abs(value - gold.value) <= gold.tolerance + 1e-9);

export function judge(answer: string, gold: Gold): Judgement {
  const figures = answerFigures(answer);
  const goldAnywhere = figures.some((figure) => matches(figure, gold));
  const refusal = SAYS_NOT_FOUND.exec(answer);
  if (figures.length === 0 || (refusal && refusal.index < figures[0].start))
    return { verdict: 'not found', figure: null, goldAnywhere };
  const given = figures.find((figure) => sameKind(figure, gold.kind)) ?? figures[0];
  return {
    verdict: matches(given, gold) ? 'right' : 'wrong',
    figure: answer.slice(given.start, given.end).trim(),
    goldAnywhere,
  };
}

export interface CitedPage {
  documentId: number | null;
  page: number | null;
}

/** Whether a citation points at a gold page: FinanceBench pages are 0-based, the service's from 1. */
export function citesGoldPage(citations: CitedPage[], goldPages: Array<{ documentId: number; page: number }>): boolean {
  return citations.some((cited) =>
    goldPages.some((gold) => cited.documentId === gold.documentId && cited.page === gold.page + 1),
  );
}
