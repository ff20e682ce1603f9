import { extractNumbers, type NumberKind, type NumberMention } from './numbers';
import { metricByKey } from '../understanding/metrics';
import { periodMentions } from './question/periods';
import type { FactUnit } from '../understanding/fact-unit';

export type { FactUnit } from '../understanding/fact-unit';

/** A number the text may use: a statement field, a ratio, or a change derived from them. */
export interface GroundingFact {
  value: number;
  unit: FactUnit;
  /** The statement field (camelCase) it is the value of, where known: outflows are written by their size. */
  field?: string;
}

export interface GroundingReport {
  numbersChecked: number;
  numbersUnsupported: number;
  /** The unsupported numbers as written. */
  unsupported: string[];
}

/** Which fact units a written kind of number may stand for. */
const COMPATIBLE: Record<NumberKind, FactUnit[]> = {
  money: ['money', 'money_per_share'],
  percent: ['fraction'],
  points: ['points'],
  multiple: ['multiple', 'fraction'],
  number: ['money', 'money_per_share', 'shares', 'multiple', 'days'],
};

const close = (a: number, b: number, tolerance: number) =>
  Math.abs(Math.abs(a) - Math.abs(b)) <= tolerance * (1 + 1e-9) + 1e-12;

/** A number as the check reads it: where it stands, and whether its words make it negative. */
interface ReadMention extends NumberMention {
  at: number;
  /** A loss or decline word says the figure is negative ("a net loss of $862 million", "fell 3.2%"). */
  saidNegative: boolean;
}

const NEGATIVE_BEFORE =
  /\b(?:(?:net |operating |gross )?loss(?:es)?|deficit|fell|declined?|decreased?|dropped|narrowed|slipped|down|shrank|contracted|negative)(?:\s+(?:of|by|was|were|is|at|a|an))*\s*\(?$/i;
const NEGATIVE_AFTER = /^\)?\s*(?:(?:net |operating |gross )?loss|decline|decrease|drop|lower)\b/i;

/** The numbers of a text with their positions and sign words; "($1.2 billion)" is negative as accountants write it. */
function readMentions(text: string): ReadMention[] {
  let from = 0;
  return extractNumbers(text).map((mention) => {
    const at = Math.max(text.indexOf(mention.text, from), 0);
    from = at + mention.text.length;
    const before = text.slice(Math.max(0, at - 40), at);
    const after = text.slice(from, from + 20);
    // "(862)" alone is negative; "$416.2 billion ($416,161 million)" restates the figure before it.
    const parenthesized = /\(\s*$/.test(before) && !/\d\s*(?:[a-z%]+\s*)?\(\s*$/i.test(before) && /^\s*\)/.test(after);
    return {
      ...mention,
      at,
      saidNegative: NEGATIVE_BEFORE.test(before) || NEGATIVE_AFTER.test(after) || parenthesized,
    };
  });
}

/**
 * Whether a mention and a fact agree in sign: a negative fact needs a minus, parentheses or a loss/decline word
 * ("$862 million" is not a loss of $862 million), except outflows, which prose gives by their size ("capex of $11 billion").
 */
function sameSign(mention: ReadMention, fact: GroundingFact): boolean {
  const factNegative = fact.value < 0;
  const mentionNegative = mention.value < 0 || mention.saidNegative;
  if (factNegative === mentionNegative || fact.value === 0) return true;
  return factNegative && fact.field !== undefined && Boolean(metricByKey(fact.field)?.outflow);
}

/** The fact (by index) a mention stands for, or -1: the same size, as written, and the same sign. */
function supportingFact(mention: ReadMention, facts: GroundingFact[]): number {
  return facts.findIndex((fact) => {
    if (!COMPATIBLE[mention.kind].includes(fact.unit) || !sameSign(mention, fact)) return false;
    // A bare number may be written in the statement's own units or in millions, as filings do.
    if (mention.kind === 'number')
      return (
        close(mention.value, fact.value, mention.tolerance) ||
        close(mention.value * 1e6, fact.value, mention.tolerance * 1e6)
      );
    return close(mention.value, fact.value, mention.tolerance);
  });
}

/** Whether a quoted document passage contains the same figure (documents state scales apart, "in millions"). */
function inDocuments(mention: NumberMention, documentNumbers: NumberMention[]): boolean {
  return documentNumbers.some((number) =>
    close(mention.printed, number.printed, Math.max(mention.printedTolerance, number.printedTolerance)),
  );
}

/**
 * Checks every number of a text against the facts it was written from and the document passages it was given.
 * Returns the report and the indexes of the facts the text used (for citations).
 */
export function checkGrounding(
  text: string,
  facts: GroundingFact[],
  documents: string[],
  names: string[] = [],
): { report: GroundingReport; usedFacts: Set<number> } {
  const documentNumbers = documents.flatMap(extractNumbers);
  const usedFacts = new Set<number>();
  const unsupported: string[] = [];
  // Names that are written with digits (tickers such as "2330") are not figures.
  const escaped = names.filter((name) => /\d/.test(name)).map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const masked = escaped.length
    ? text.replace(new RegExp(`(?<![\\w.])(?:${escaped.join('|')})(?![\\w])`, 'g'), (name) => ' '.repeat(name.length))
    : text;
  const mentions = readMentions(masked);
  for (const mention of mentions) {
    const fact = supportingFact(mention, facts);
    if (fact >= 0) usedFacts.add(fact);
    else if (!inDocuments(mention, documentNumbers)) unsupported.push(mention.text);
  }
  return {
    report: { numbersChecked: mentions.length, numbersUnsupported: unsupported.length, unsupported },
    usedFacts,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Claims: each figure bound to what it is said to be

/** A fact with what it is about: the company, the period and the field (camelCase) it is the value of. */
export interface AttributedFact extends GroundingFact {
  companyId: number;
  ticker: string;
  period: string;
  field: string;
  /** A figure read from a document: the terms of its label and heading (what it is the figure of). */
  terms?: string[];
}

export interface ClaimPassage {
  chunkId: number;
  companyId: number;
  content: string;
}

export type ClaimVerdict =
  | 'SUPPORTED'
  | 'UNSUPPORTED'
  | 'WRONG_COMPANY'
  | 'WRONG_PERIOD'
  | 'WRONG_METRIC'
  | 'WRONG_DIRECTION'
  | 'CONTRADICTS_STATEMENT';

export interface Claim {
  /** The figure as written. */
  text: string;
  /** The sentence it is in. */
  sentence: string;
  verdict: ClaimVerdict;
  /** What the sentence says the figure is (null where it does not say). */
  ticker: string | null;
  period: string | null;
  metric: string | null;
  /** What vouches for it: the index of a fact, or a passage's chunk. */
  factIndex: number | null;
  chunkId: number | null;
}

/** What a sentence says about its figures: the companies it names, and the nearest period label and metric name of each figure. */
export interface ClaimReader {
  companies(sentence: string): Array<{ companyId: number; ticker: string }>;
  /** camelCase metric keys named in a text, in order. */
  metrics(text: string): string[];
}

const RISE = /\b(?:rose|grew|increased|climbed|improved|widened|up|gained|expanded)\b/i;
const FALL = /\b(?:fell|declined|decreased|dropped|narrowed|down|shrank|contracted|slipped)\b/i;
const order = (label: string) => {
  const match = /^(?:Q([1-4])-|FY)(\d{4})$/.exec(label);
  return match ? Number(match[2]) * 10 + (match[1] ? Number(match[1]) : 5) : 0;
};

interface PeriodInText {
  label: string;
  at: number;
  length: number;
}

/**
 * The period label a figure belongs to: the one it is written "in"/"for" right after it ("$391 billion in FY2024"),
 * else the nearest by distance, the one before it winning a tie ("for FY2025 was $416.2 billion").
 */
function periodOf(sentence: string, periods: PeriodInText[], start: number, end: number): string | null {
  if (periods.length === 0) return null;
  const following = periods.find(
    (p) => p.at >= end && /^\s*(?:\([^)]*\)\s*)?(?:in|for|during|at)\s+$/.test(sentence.slice(end, p.at)),
  );
  if (following) return following.label;
  const distance = (p: PeriodInText) => (p.at + p.length <= start ? start - (p.at + p.length) : p.at - end + 0.5);
  return periods.reduce((best, p) => (distance(p) < distance(best) ? p : best)).label;
}

/** The same period a year before: what a change of `label` is measured against (FY2024 → FY2023, Q3-2025 → Q3-2024). */
function periodBefore(label: string): string | null {
  const match = /^(Q[1-4]-|FY)(\d{4})$/.exec(label);
  return match ? `${match[1]}${Number(match[2]) - 1}` : null;
}

/** A fact's field stands for a metric when it is the metric or a change of it ("revenueChange" for revenue; "revenueGrowth" is one too). */
function sameMetric(field: string, metric: string): boolean {
  const base = metric.replace(/Growth$/, '');
  return field === metric || field === `${base}Change` || (metric.endsWith('Growth') && field === base);
}

function sentencesWithOffsets(text: string): Array<{ sentence: string; start: number }> {
  const result: Array<{ sentence: string; start: number }> = [];
  // Split after ., ! or ? followed by a space (so "$416.2" stays whole).
  let start = 0;
  // A quotation may close the sentence ("…by price increases.” Return on equity…"): it ends after the quote mark.
  for (const match of text.matchAll(/[.!?][\u201d"]?(?=\s+[A-Z\u201c"(]|\s*$)/g)) {
    const end = (match.index as number) + match[0].length;
    result.push({ sentence: text.slice(start, end), start });
    start = end;
  }
  if (start < text.length && text.slice(start).trim()) result.push({ sentence: text.slice(start), start });
  return result;
}

/**
 * Binds every figure of a text to the fact it claims to be — the company, period and metric its sentence gives
 * it — or to a passage. A figure equal to a fact of another company, period or metric than its sentence says is
 * flagged as such; a statement metric's figure that only a passage holds, while the stored statement says otherwise,
 * contradicts the statement; a direction word against the stored figures ("rose" for a fall) is flagged.
 */
export function checkClaims(
  text: string,
  facts: AttributedFact[],
  passages: ClaimPassage[],
  reader: ClaimReader,
  names: string[] = [],
): Claim[] {
  const claims: Claim[] = [];
  let lastCompanies: Array<{ companyId: number; ticker: string }> = [];
  const passageNumbers = passages.map((p) => ({ passage: p, numbers: extractNumbers(p.content) }));
  const escaped = names.filter((name) => /\d/.test(name)).map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  for (const { sentence } of sentencesWithOffsets(text)) {
    const masked = escaped.length
      ? sentence.replace(new RegExp(`(?<![\\w.])(?:${escaped.join('|')})(?![\\w])`, 'g'), (n) => ' '.repeat(n.length))
      : sentence;
    const named = reader.companies(sentence);
    const companies = named.length > 0 ? named : lastCompanies;
    if (named.length > 0) lastCompanies = named;
    // Periods as people write them ("fiscal 2024", "Q3 FY25", "the third quarter of 2024"), read as the question parser reads them.
    const periods = periodMentions(sentence).map((m) => ({ label: m.period.label, at: m.at, length: m.length }));
    const trailing = /\bTTM\b|trailing twelve months/i.test(sentence);
    // Text in quotation marks is what a document says: its figures are the document's to vouch for.
    const quotes = [...sentence.matchAll(/\u201c[^\u201d]*\u201d|"[^"]*"/g)].map((m) => [
      m.index as number,
      (m.index as number) + m[0].length,
    ]);
    const mentions = readMentions(masked);
    let windowStart = 0;
    const bound: Array<{ claim: Claim; fact: AttributedFact | null }> = [];
    for (const mention of mentions) {
      const at = mention.at;
      const before = sentence.slice(Math.max(windowStart, at - 80), Math.max(at, 0));
      windowStart = at >= 0 ? at + mention.text.length : windowStart;
      const metric = reader.metrics(before).at(-1) ?? null;
      const period = periodOf(sentence, periods, at, at + mention.text.length);
      const claim: Claim = {
        text: mention.text,
        sentence: sentence.trim(),
        verdict: 'UNSUPPORTED',
        ticker: companies.length === 1 ? companies[0].ticker : null,
        period,
        metric,
        factIndex: null,
        chunkId: null,
      };
      const candidates = facts
        .map((fact, index) => ({ fact, index }))
        .filter(({ fact }) => supportingFact(mention, [fact]) === 0);
      const fits = (fact: AttributedFact) => ({
        company: companies.length === 0 || companies.some((c) => c.companyId === fact.companyId),
        // A change belongs to the later of the two periods its sentence names, wherever that label stands.
        // A change belongs to its period, also when the sentence names only what it is compared with ("grew 2.9% on Q3-2025").
        period:
          period === null ||
          fact.period === period ||
          (/Change$/.test(fact.field) &&
            periods.some((p) => p.label === fact.period || p.label === periodBefore(fact.period))) ||
          (trailing && fact.period === 'TTM'),
        // A document's figure is named by its own label, which no statement metric's name covers.
        metric: metric === null || sameMetric(fact.field, metric) || fact.terms !== undefined,
      });
      const match = candidates.find(({ fact }) => Object.values(fits(fact)).every(Boolean));
      if (match) {
        Object.assign(claim, { verdict: 'SUPPORTED', factIndex: match.index });
        bound.push({ claim, fact: match.fact });
      } else {
        const inPassage = passageNumbers.find(({ numbers }) => inDocuments(mention, numbers));
        // A statement metric's stored value for the company and period the sentence names: a passage cannot overrule it.
        const stored =
          metric && period
            ? facts.find(
                (f) =>
                  f.field === metric &&
                  f.period === period &&
                  COMPATIBLE[mention.kind].includes(f.unit) &&
                  companies.some((c) => c.companyId === f.companyId),
              )
            : undefined;
        const quoted = quotes.some(([start, end]) => at > start && at < end);
        if (quoted && inPassage && !stored)
          Object.assign(claim, { verdict: 'SUPPORTED', chunkId: inPassage.passage.chunkId });
        else if (candidates.length > 0) {
          // The nearest miss: the candidate that fits the sentence on the most counts names what is wrong.
          const score = (fact: AttributedFact) => Object.values(fits(fact)).filter(Boolean).length;
          const miss = fits(candidates.reduce((best, c) => (score(c.fact) > score(best.fact) ? c : best)).fact);
          claim.verdict = !miss.company ? 'WRONG_COMPANY' : !miss.period ? 'WRONG_PERIOD' : 'WRONG_METRIC';
        } else if (stored) claim.verdict = 'CONTRADICTS_STATEMENT';
        else if (inPassage) Object.assign(claim, { verdict: 'SUPPORTED', chunkId: inPassage.passage.chunkId });
        bound.push({ claim, fact: null });
      }
      claims.push(claim);
    }
    checkDirection(sentence, bound);
  }
  return claims;
}

/** "rose"/"fell" against the stored figures: two figures of one company and field in a sentence, or a signed change. */
function checkDirection(sentence: string, bound: Array<{ claim: Claim; fact: AttributedFact | null }>): void {
  const rise = RISE.test(sentence);
  const fall = FALL.test(sentence);
  if (rise === fall) return; // no direction word, or both (then the sentence describes two moves)
  const said = rise ? 1 : -1;
  const known = bound.filter((b): b is { claim: Claim; fact: AttributedFact } => b.fact !== null);
  for (const change of known.filter((b) => /Change$/.test(b.fact.field) && b.fact.value !== 0)) {
    if (Math.sign(change.fact.value) !== said) change.claim.verdict = 'WRONG_DIRECTION';
  }
  const levels = known.filter((b) => !/Change$/.test(b.fact.field));
  for (let i = 0; i < levels.length; i += 1) {
    for (let j = i + 1; j < levels.length; j += 1) {
      const [a, b] = [levels[i].fact, levels[j].fact];
      if (a.companyId !== b.companyId || a.field !== b.field || a.period === b.period || a.value === b.value) continue;
      const [older, newer] = order(a.period) < order(b.period) ? [levels[i], levels[j]] : [levels[j], levels[i]];
      if (Math.sign(newer.fact.value - older.fact.value) !== said) newer.claim.verdict = 'WRONG_DIRECTION';
    }
  }
}

/**
 * An answer to a narrowed figure ("iPhone net sales", "Greater China operating income") must give that figure: a
 * figure bound to a stored total, or to a document figure whose label and heading lack the narrowing words, is
 * WRONG_METRIC, unless its sentence offers it as a related figure rather than as the answer.
 */
export function checkAskedFigure(claims: Claim[], facts: AttributedFact[], qualifier: string[], related: RegExp): void {
  for (const claim of claims) {
    if (claim.verdict !== 'SUPPORTED' || claim.factIndex === null || related.test(claim.sentence)) continue;
    const terms = facts[claim.factIndex].terms;
    if (!terms || !qualifier.every((term) => terms.includes(term))) claim.verdict = 'WRONG_METRIC';
  }
}
