/**
 * The eval's own reading of figures and periods in an answer. Deliberately independent of src/ai (numbers, question
 * parser): a bug in the service's parser must not make the service's answers look right.
 */

export interface Figure {
  value: number;
  /** Half a unit of the last digit written: "$391 billion" stands for anything within 0.5 billion. */
  tolerance: number;
  kind: 'money' | 'percent' | 'number';
  /** What the scale word multiplied the written number by ("$1.2 billion": 1e9); 1 without one. */
  scale: number;
  start: number;
  end: number;
}

const SCALE: Record<string, number> = {
  trillion: 1e12,
  billion: 1e9,
  bn: 1e9,
  b: 1e9,
  million: 1e6,
  mn: 1e6,
  m: 1e6,
  thousand: 1e3,
  k: 1e3,
};
const FIGURE =
  /(\(\s*)?(?<![\w.,])([-−–]\s*)?((?:\$|US\$|USD\b|€|£)\s*)?(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?:\s*(%|percent\b|trillion\b|billion\b|bn\b|million\b|mn\b|thousand\b|[BMK]\b))?(\s*\))?/gi;
/** A loss or decline word right before a figure ("a net loss of", "declined by") or right after it ("$1.2 billion loss"). */
const NEGATIVE_BEFORE =
  /\b(?:loss(?:es)?|deficit|declin\w*|decreas\w*|fell|falling|down|negative|dropp?\w*|shr[ai]nk\w*|contract\w*)(?:\s+(?:of|by|was|were|is|at|a|an|net))*\s*$/i;
const NEGATIVE_AFTER = /^\s*(?:net\s+|operating\s+)?(?:loss|decline|decrease|drop|lower|less)\b/i;

/** Every figure written in the text, signed: "-$1.2 billion", "($1.2 billion)" and "a loss of $1.2 billion" are negative. */
export function figuresIn(text: string): Figure[] {
  const figures: Figure[] = [];
  for (const match of text.matchAll(FIGURE)) {
    const [whole, open, minus, dollar, digits, fraction, unitWord, close] = match;
    const start = match.index ?? 0;
    const unit = (unitWord ?? '').toLowerCase();
    if (!dollar && !unit && /^(?:19|20)\d\d$/.test(digits) && !fraction) continue; // a year
    // A lone letter makes a scale only after a currency sign ("$1.6B"); "3M" is a name.
    if (!dollar && unit.length === 1 && unit !== '%') continue;
    const scale = SCALE[unit] ?? 1;
    const decimals = (fraction ?? '').length;
    const magnitude = (Number(digits.replace(/,/g, '')) + (fraction ? Number(`0.${fraction}`) : 0)) * scale;
    // "($1.2 billion)" alone is negative; "$416.2 billion ($416,161 million)" restates the figure before it.
    const restates = /\d\s*(?:[a-z%]+\s*)?$/i.test(text.slice(Math.max(0, start - 20), start));
    const negative =
      Boolean(minus) ||
      (Boolean(open) && Boolean(close) && !restates) ||
      NEGATIVE_BEFORE.test(text.slice(Math.max(0, start - 40), start)) ||
      NEGATIVE_AFTER.test(text.slice(start + whole.length, start + whole.length + 20));
    const kind = unit === '%' || unit === 'percent' ? 'percent' : dollar ? 'money' : 'number';
    figures.push({
      value: negative ? -magnitude : magnitude,
      tolerance: 0.5 * 10 ** -decimals * scale,
      kind,
      scale,
      start,
      end: start + whole.length,
    });
  }
  return figures;
}

/** Whether a gold figure appears, with its sign, at the precision it is written (percent gold in percent, e.g. 46.21). */
export function goldAppears(figures: Figure[], gold: number, unit: 'usd' | 'percent'): boolean {
  const decimals = (String(gold).split('.')[1] ?? '').length;
  const goldTolerance = unit === 'percent' ? 0.5 * 10 ** -decimals : 0;
  return figures.some((figure) => {
    if (unit === 'percent' ? figure.kind !== 'percent' : figure.kind === 'percent') return false;
    return Math.abs(figure.value - gold) <= figure.tolerance + goldTolerance + 1e-9;
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Periods

const QUARTER_WORDS: Record<string, string> = {
  first: '1',
  second: '2',
  third: '3',
  fourth: '4',
  '1st': '1',
  '2nd': '2',
  '3rd': '3',
  '4th': '4',
};
const fullYear = (year: string) => (year.length === 2 ? `20${year}` : year);

/** Period patterns, most specific first; each yields a label (FY2024, Q3-2024) and is masked before the next runs. */
const PERIOD_PATTERNS: Array<[RegExp, (m: RegExpExecArray) => string]> = [
  [
    /\b(?:fiscal\s+)?Q([1-4])(?:\s+of)?[-\s]*(?:fiscal(?:\s+year)?|FY)?\s*'?(\d{4}|\d{2})\b/gi,
    (m) => `Q${m[1]}-${fullYear(m[2])}`,
  ],
  [
    /\b(first|second|third|fourth|1st|2nd|3rd|4th)\s+(?:fiscal\s+)?quarter(?:\s+of)?\s+(?:fiscal(?:\s+year)?\s+|FY\s?)?(\d{4})\b/gi,
    (m) => `Q${QUARTER_WORDS[m[1].toLowerCase()]}-${m[2]}`,
  ],
  [
    /\b(?:fiscal(?:\s+year)?\s+|FY\s?)(\d{4})\s+(first|second|third|fourth)\s+quarter\b/gi,
    (m) => `Q${QUARTER_WORDS[m[2].toLowerCase()]}-${m[1]}`,
  ],
  [/\b(?:FY\s?'?|fiscal(?:[\s-]+year)?\s+)(\d{4}|\d{2})\b/gi, (m) => `FY${fullYear(m[1])}`],
  [/\b((?:19|20)\d\d)\s+fiscal\s+year\b/gi, (m) => `FY${m[1]}`],
  // A bare year where it labels a figure: "in 2024", "for 2024", "2024 revenue".
  [/\b(?:in|for|during|of|year)\s+((?:19|20)\d\d)\b/gi, (m) => `FY${m[1]}`],
  [
    /\b((?:19|20)\d\d)(?=\s+(?:revenue|net|sales|operating|gross|earnings|EPS|profit|results?|figures?|margin|capital|cash|total|research)\b)/gi,
    (m) => `FY${m[1]}`,
  ],
];

/** The periods a text names, as labels, and the text with those period mentions masked (so years are not figures). */
export function periodsIn(text: string): { labels: string[]; masked: string } {
  const labels: string[] = [];
  let masked = text;
  for (const [pattern, label] of PERIOD_PATTERNS) {
    masked = masked.replace(pattern, (...args) => {
      const match = args.slice(0, -2) as unknown as RegExpExecArray;
      labels.push(label(match));
      return ' '.repeat(String(args[0]).length);
    });
  }
  return { labels, masked };
}

/** The period before: FY2024 → FY2023, Q3-2024 → Q3-2023 (what a growth answer compares with). */
export function previousPeriod(label: string): string {
  const annual = /^FY(\d{4})$/.exec(label);
  if (annual) return `FY${Number(annual[1]) - 1}`;
  const quarter = /^Q([1-4])-(\d{4})$/.exec(label);
  return quarter ? `Q${quarter[1]}-${Number(quarter[2]) - 1}` : label;
}
