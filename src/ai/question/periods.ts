/**
 * The periods a question asks about, as people write them: "fiscal 2024", "FY24", "the 2024 fiscal year", "Q3 2024",
 * "Q3 FY25", "the third quarter of fiscal 2025", "last four quarters", "from 2022 to 2024", "each quarter of fiscal
 * 2024", "TTM", "latest". Quarters are fiscal quarters, labelled as the statements are (Q3-2025, FY2025).
 */
import { fiscalYear, quarter, type FiscalPeriod, type PeriodType } from '../../statements/fiscal-period';

export type PeriodAsk =
  /** One or more named periods (several for "FY2023 and FY2024"). */
  | { kind: 'exact'; periods: FiscalPeriod[] }
  /** Every period of a type from one to another, both included. */
  | { kind: 'range'; from: FiscalPeriod; to: FiscalPeriod }
  /** The newest `count` periods of a type. */
  | { kind: 'last'; count: number; type: PeriodType }
  /** The newest period of a type ("latest", or nothing said). */
  | { kind: 'latest'; type: PeriodType; said: boolean }
  /** The trailing twelve months: the newest four quarters added up. */
  | { kind: 'ttm' };

const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
};
const ORDINALS: Record<string, number> = {
  first: 1,
  '1st': 1,
  second: 2,
  '2nd': 2,
  third: 3,
  '3rd': 3,
  fourth: 4,
  '4th': 4,
};

/** A written year: "2024", "24" (two digits are this century), "'24". */
function year(text: string): number {
  const digits = text.replace(/\D/g, '');
  return digits.length === 2 ? 2000 + Number(digits) : Number(digits);
}

const YEAR = String.raw`(?:19|20)\d{2}`;
const SHORT_YEAR = String.raw`(?:(?:19|20)\d{2}|'?\d{2})`;
const QUARTER_WORD = String.raw`(?:first|1st|second|2nd|third|3rd|fourth|4th)`;

interface Found {
  at: number;
  length: number;
  period: FiscalPeriod;
}

/** Every single period the text names, in order of appearance, each label once. */
function namedPeriods(text: string): Found[] {
  return periodMentions(text).filter(
    (mention, index, all) => all.findIndex((f) => f.period.label === mention.period.label) === index,
  );
}

/** Every period mention of a text where it is written ("fiscal 2024", "Q3 FY25", "in 2023"), in order of appearance. */
export function periodMentions(text: string): Found[] {
  const found: Found[] = [];
  const covered: Array<[number, number]> = [];
  const free = (index: number, length: number) =>
    !covered.some(([start, end]) => index < end && index + length > start);
  const scan = (pattern: RegExp, make: (match: RegExpExecArray) => FiscalPeriod | null) => {
    for (const match of text.matchAll(pattern)) {
      if (!free(match.index as number, match[0].length)) continue;
      const period = make(match as RegExpExecArray);
      if (!period) continue;
      covered.push([match.index as number, (match.index as number) + match[0].length]);
      found.push({ at: match.index as number, length: match[0].length, period });
    }
  };
  // Quarters first, so "Q3 FY25" is not also read as FY2025.
  scan(
    new RegExp(
      String.raw`\b(?:fiscal\s+)?Q([1-4])(?:\s*(?:of|in)\s*)?[\s\-/']*(?:(?:fiscal(?:\s+year)?|FY)\s*)?(${SHORT_YEAR})\b`,
      'gi',
    ),
    (m) => quarter(year(m[2]), Number(m[1])),
  );
  scan(new RegExp(String.raw`\b(${SHORT_YEAR})[\s\-/]*Q([1-4])\b`, 'gi'), (m) => quarter(year(m[1]), Number(m[2])));
  scan(
    new RegExp(
      String.raw`\b(?:the\s+)?(${QUARTER_WORD})(?:\s+fiscal)?\s+quarter\s+(?:of\s+|in\s+)?(?:(?:the\s+)?(?:fiscal(?:\s+year)?|FY)\s*)?(${SHORT_YEAR})\b`,
      'gi',
    ),
    (m) => quarter(year(m[2]), ORDINALS[m[1].toLowerCase()]),
  );
  scan(new RegExp(String.raw`\b(?:the\s+)?(${YEAR})\s+fiscal\s+year\b`, 'gi'), (m) => fiscalYear(year(m[1])));
  scan(new RegExp(String.raw`\b(?:fiscal(?:\s+year)?|FY)\s*'?(${SHORT_YEAR})\b`, 'gi'), (m) => fiscalYear(year(m[1])));
  // A bare year ("in 2023") is read as that fiscal year.
  scan(new RegExp(String.raw`\b(${YEAR})\b`, 'g'), (m) => fiscalYear(year(m[1])));
  return found.sort((a, b) => a.at - b.at);
}

/** The period question of a text, or null when it names none (the caller decides: inherited, or the newest). */
export function parsePeriods(text: string): PeriodAsk | null {
  const count = (word: string) => NUMBER_WORDS[word.toLowerCase()] ?? Number(word);
  const last = new RegExp(
    String.raw`\b(?:last|past|previous|trailing|recent)\s+(\d{1,2}|${Object.keys(NUMBER_WORDS).join('|')})\s+(?:fiscal\s+)?(quarters?|years?)\b`,
    'i',
  ).exec(text);
  if (last)
    return {
      kind: 'last',
      count: Math.min(Math.max(count(last[1]), 1), 40),
      type: /^quarter/i.test(last[2]) ? 'QUARTER' : 'ANNUAL',
    };
  if (/\b(?:TTM|LTM|trailing\s+(?:twelve|12)\s+months|last\s+(?:twelve|12)\s+months)\b/i.test(text))
    return { kind: 'ttm' };

  const named = namedPeriods(text);
  // "each quarter of fiscal 2024", "quarterly … in fiscal 2024": the four quarters of the year.
  const eachQuarter = /\b(?:each|every|all|the four|by)\s+quarters?\b|\bquarter[- ]by[- ]quarter\b|\bquarterly\b/i.test(
    text,
  );
  if (eachQuarter && named.length === 1 && named[0].period.type === 'ANNUAL') {
    const y = named[0].period.fiscalYear;
    return { kind: 'range', from: quarter(y, 1), to: quarter(y, 4) };
  }
  const between =
    /\b(?:from|between)\b[^.?!]*?\b(?:to|and|through|until|till)\b/i.test(text) ||
    /\d\s*[-–]\s*(?:FY\s*)?\d/.test(text);
  if (named.length === 2 && between && named[0].period.type === named[1].period.type) {
    const [a, b] = named.map((f) => f.period);
    const ordered =
      a.fiscalYear * 10 + (a.fiscalQuarter ?? 0) <= b.fiscalYear * 10 + (b.fiscalQuarter ?? 0) ? [a, b] : [b, a];
    return { kind: 'range', from: ordered[0], to: ordered[1] };
  }
  if (named.length > 0) return { kind: 'exact', periods: named.map((f) => f.period) };
  if (/\b(?:latest|newest|most recent|current|last)\s+(?:fiscal\s+)?(?:year|annual)\b|\bannual(?:ly)?\b/i.test(text))
    return { kind: 'latest', type: 'ANNUAL', said: true };
  if (/\b(?:latest|newest|most recent|current|last)\b/i.test(text))
    return { kind: 'latest', type: 'QUARTER', said: true };
  return null;
}

/** Every label from one period to another of the same type, oldest first. */
export function periodsBetween(from: FiscalPeriod, to: FiscalPeriod): FiscalPeriod[] {
  const periods: FiscalPeriod[] = [];
  if (from.type === 'ANNUAL') {
    for (let y = from.fiscalYear; y <= to.fiscalYear && periods.length < 40; y += 1) periods.push(fiscalYear(y));
    return periods;
  }
  for (
    let y = from.fiscalYear, q = from.fiscalQuarter as number;
    (y < to.fiscalYear || (y === to.fiscalYear && q <= (to.fiscalQuarter as number))) && periods.length < 40;
  ) {
    periods.push(quarter(y, q));
    [y, q] = q === 4 ? [y + 1, 1] : [y, q + 1];
  }
  return periods;
}
