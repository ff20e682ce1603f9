/**
 * How the AI module writes numbers, and how it reads them back out of any text (its own, a language model's, or a
 * document's) for the grounding check. Both sides live here so that what the writer prints, the checker can parse.
 */

export type NumberKind = 'money' | 'percent' | 'points' | 'multiple' | 'number';

/** A number as written in a text, with the value it stands for and how precisely it was written. */
export interface NumberMention {
  /** The text as written, e.g. "$1.2B", "12.5%", "USD 8.95 billion". */
  text: string;
  /** Value in base units: dollars, or a fraction for percentages and percentage points (12.5% → 0.125). */
  value: number;
  /** The figure as printed before its scale word, e.g. 1.2 for "$1.2B": documents often state "in millions" apart. */
  printed: number;
  kind: NumberKind;
  /** Half of the last printed digit, in base units: how far a correctly rounded figure can be from the truth. */
  tolerance: number;
  /** The same, in printed units (before the scale word). */
  printedTolerance: number;
}

/** Scale words and letters written after a figure ("million", "bn", "B"), lower case. */
export const SCALES: Record<string, number> = {
  thousand: 1e3,
  k: 1e3,
  million: 1e6,
  mn: 1e6,
  m: 1e6,
  mm: 1e6,
  billion: 1e9,
  bn: 1e9,
  b: 1e9,
  trillion: 1e12,
  tn: 1e12,
  t: 1e12,
};

/**
 * A number with an optional currency before it and an optional scale, percent or multiple after it. Period labels
 * (Q3-2024, FY2024), digits inside words (10-K, Item 1A) and references to passages (chunk 318, page 14) are not numbers of the analysis
 * and are skipped.
 */
const MENTION = new RegExp(
  String.raw`(?<![\w.])(?<negative>[-−–](?=\s?(?:\$|USD|\d)))?(?<currency>\$|USD\s?)?(?<digits>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)` +
    String.raw`(?:\s?(?<percent>%|percent\b|per\s?cent\b)|\s?(?<points>percentage points?\b|pp\b|points?\b)|(?<multiple>x\b|×)|\s?(?<scale>thousand|million|billion|trillion|mn|bn|tn|mm|[kmbt])\b)?`,
  'giu',
);
const PERIOD_LABEL =
  /\b(?:Q[1-4][-\s]?\d{4}|FY\s?\d{2,4}|H[12][-\s]?\d{4}|\d{1,2}-[A-Z]|Item\s+\d+[A-Z]?|chunk\s+\d+|page\s+\d+)\b/gi;

/** Every number in a text that the grounding check should account for. */
export function extractNumbers(text: string): NumberMention[] {
  const masked = text.replace(PERIOD_LABEL, (label) => ' '.repeat(label.length));
  const mentions: NumberMention[] = [];
  for (const match of masked.matchAll(MENTION)) {
    const groups = match.groups as Record<string, string | undefined>;
    const digits = groups.digits as string;
    const printed = Number(digits.replace(/,/g, ''));
    const decimals = digits.includes('.') ? digits.split('.')[1].length : 0;
    // A lone letter after a number is a scale in "$1.2B" or "$3m", but in "5 m" (metres?) only with a currency.
    const loneLetter = groups.scale?.length === 1 && !groups.currency && groups.scale !== groups.scale.toUpperCase();
    const scaleWord = loneLetter ? undefined : groups.scale?.toLowerCase();
    const kind: NumberKind = groups.percent
      ? 'percent'
      : groups.points
        ? 'points'
        : groups.multiple
          ? 'multiple'
          : groups.currency || scaleWord
            ? 'money'
            : 'number';
    // A bare year or a small count ("3 risks", "2025") is not a figure of the analysis.
    if (
      kind === 'number' &&
      decimals === 0 &&
      !digits.includes(',') &&
      (printed <= 12 || (printed >= 1900 && printed <= 2100))
    )
      continue;
    const scale = (kind === 'percent' || kind === 'points' ? 0.01 : 1) * (scaleWord ? SCALES[scaleWord] : 1);
    const sign = groups.negative ? -1 : 1;
    mentions.push({
      text: match[0].trim(),
      value: sign * printed * scale,
      printed: sign * printed,
      kind,
      tolerance: 0.5 * 10 ** -decimals * scale,
      printedTolerance: 0.5 * 10 ** -decimals,
    });
  }
  return mentions;
}

const trim = (value: number, digits: number) =>
  Number(value.toFixed(digits)).toLocaleString('en-US', { maximumFractionDigits: digits });

/** "$8.95 billion", "$512.3 million", "$48,200": three significant figures at most, in words a reader scans. */
export function formatMoney(value: number, currency = 'USD'): string {
  const symbol = currency === 'USD' ? '$' : `${currency} `;
  const sign = value < 0 ? '-' : '';
  const size = Math.abs(value);
  const scaled = (divisor: number, word: string) => {
    const figure = size / divisor;
    return `${sign}${symbol}${trim(figure, figure >= 100 ? 1 : 2)} ${word}`;
  };
  if (size >= 1e12) return scaled(1e12, 'trillion');
  if (size >= 1e9) return scaled(1e9, 'billion');
  if (size >= 1e6) return scaled(1e6, 'million');
  return `${sign}${symbol}${trim(size, size >= 100 ? 0 : 2)}`;
}

/** A fraction as a percentage with one decimal: 0.1254 → "12.5%". */
export function formatPercent(fraction: number): string {
  return `${trim(fraction * 100, 1)}%`;
}

/** A difference of two fractions in percentage points: 0.012 → "1.2 percentage points". */
export function formatPoints(fraction: number): string {
  return `${trim(Math.abs(fraction) * 100, 1)} percentage points`;
}

/** A multiple such as a coverage or turnover: 3.456 → "3.46x", 18.81 → "18.8x" (two decimals below 10, so 0.96 is not "1x"). */
export function formatMultiple(value: number): string {
  return `${trim(value, Math.abs(value) < 10 ? 2 : 1)}x`;
}

/** A per-share amount: 2.153 → "$2.15". */
export function formatPerShare(value: number, currency = 'USD'): string {
  return `${value < 0 ? '-' : ''}${currency === 'USD' ? '$' : `${currency} `}${trim(Math.abs(value), 2)}`;
}
