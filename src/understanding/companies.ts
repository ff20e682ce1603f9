/**
 * Which companies a question names: by ticker, by name or by a well-known brand, matched against the companies
 * the database holds. Names are compared without case, punctuation and legal suffixes ("Tesla, Inc." → "tesla").
 */

export interface CompanyRef {
  id: number;
  ticker: string;
  name: string;
}

export interface CompanyMention {
  company: CompanyRef;
  /** Where in the question it was named (companies are reported in the order they were named). */
  at: number;
}

/** Legal forms and share classes that are not part of what people call a company. */
const SUFFIXES = new Set([
  'inc',
  'incorporated',
  'corp',
  'corporation',
  'co',
  'company',
  'companies',
  'ltd',
  'limited',
  'plc',
  'llc',
  'lp',
  'sa',
  'ag',
  'nv',
  'se',
  'spa',
  'ab',
  'asa',
  'holding',
  'holdings',
  'group',
  'the',
  'class',
  'a',
  'b',
  'c',
  'adr',
  'ads',
  'new',
  'de',
  'technologies',
  'technology',
]);

/** Brand names people use for a company whose registered name differs (matched against the stored names). */
const BRANDS: Record<string, string> = {
  google: 'alphabet',
  youtube: 'alphabet',
  facebook: 'meta platforms',
  instagram: 'meta platforms',
  meta: 'meta platforms',
  tsmc: 'taiwan semiconductor manufacturing',
  'taiwan semiconductor': 'taiwan semiconductor manufacturing',
  amazon: 'amazon com',
  aws: 'amazon com',
  berkshire: 'berkshire hathaway',
  jpmorgan: 'jpmorgan chase',
  'jp morgan': 'jpmorgan chase',
  walmart: 'walmart',
  'coca cola': 'coca cola',
  coke: 'coca cola',
  marvell: 'marvell technology',
  snowflake: 'snowflake',
  'j&j': 'johnson johnson',
  'johnson and johnson': 'johnson johnson',
  'p&g': 'procter gamble',
  'procter and gamble': 'procter gamble',
};

/** Words too common to name a company on their own, even when a company's name starts with one. */
const GENERIC_WORDS = new Set([
  'american',
  'general',
  'first',
  'united',
  'international',
  'national',
  'global',
  'new',
  'capital',
  'financial',
  'energy',
  'bank',
  'data',
  'digital',
  'health',
  'home',
  'royal',
  'southern',
  'western',
  'eastern',
  'northern',
  'public',
  'service',
  'services',
  'systems',
  'micro',
  'advanced',
  'applied',
  'revenue',
  'income',
  'cash',
  'net',
  'gross',
  'total',
  'operating',
  'free',
  'debt',
  'profit',
  'margin',
  'growth',
  'fiscal',
  'year',
  'quarter',
]);

/**
 * Tickers that are also everyday words ("cost", "snow", "meta"): they count only written in capitals, so "the cost of
 * revenue" does not name Costco.
 */
const WORD_TICKERS = new Set([
  'cost',
  'snow',
  'meta',
  'data',
  'cash',
  'well',
  'home',
  'main',
  'real',
  'life',
  'gold',
  'fast',
  'core',
  'true',
  'live',
  'open',
  'play',
  'beat',
  'plus',
  'next',
  'sale',
  'land',
  'fund',
  'bank',
  'care',
  'mind',
  'work',
  'good',
  'best',
  'more',
  'most',
  'what',
  'that',
  'this',
  'with',
  'from',
  'have',
  'year',
  'hold',
  'rate',
  'earn',
  'loss',
  'debt',
  'grow',
  'tech',
  'team',
  'edge',
  'peak',
  'blue',
  'star',
  'rock',
  'safe',
  'wise',
  'path',
]);

/** Lowercase words without punctuation: "Tesla, Inc.'s" → "tesla inc s"; "&" is kept as a word joiner. */
export function normalizeWords(text: string): string {
  return text
    .toLowerCase()
    .replace(/[’']s\b/g, ' ')
    .replace(/[^a-z0-9&]+/g, ' ')
    .trim();
}

/** A registered name as people say it: "NVIDIA CORP" → "nvidia", "Apple Inc." → "apple", "Alphabet Inc. Class A" → "alphabet". */
export function coreName(name: string): string {
  const words = normalizeWords(name).replace(/&/g, ' ').split(/\s+/).filter(Boolean);
  while (words.length > 1 && SUFFIXES.has(words[words.length - 1])) words.pop();
  while (words.length > 1 && words[0] === 'the') words.shift();
  return words.join(' ');
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The positions where `phrase` (normalized words) occurs as whole words in the normalized question. */
function phraseAt(normalizedQuestion: string, phrase: string): number {
  if (!phrase) return -1;
  const match = new RegExp(`(?:^|\\s)${escape(phrase)}(?=\\s|$)`).exec(normalizedQuestion);
  return match ? match.index : -1;
}

/**
 * Companies named in a question, in the order they are named. A ticker counts when written in capitals (any length
 * from two letters: "AAPL", "GE") or in any case from four characters ("nvda"); a name counts by its core name
 * ("tesla", "meta platforms") or its first word when that word is distinctive (five letters or more, not generic).
 */
export function findCompanies(question: string, directory: CompanyRef[]): CompanyMention[] {
  const normalized = normalizeWords(question);
  const found = new Map<number, CompanyMention>();
  const note = (company: CompanyRef, at: number) => {
    if (at < 0) return;
    const known = found.get(company.id);
    if (!known || at < known.at) found.set(company.id, { company, at });
  };
  const brandTargets = Object.entries(BRANDS)
    .map(([brand, target]) => ({ at: phraseAt(normalized, normalizeWords(brand)), target }))
    .filter((brand) => brand.at >= 0);
  for (const company of directory) {
    const ticker = company.ticker.trim();
    if (ticker.length >= 2) {
      // Positions are compared in the normalized text, so find the ticker there too (case decides only whether it counts).
      const exact = new RegExp(`(?<![A-Za-z0-9])${escape(ticker)}(?![A-Za-z0-9])`).test(question);
      const anyCase =
        ticker.length >= 4 &&
        !WORD_TICKERS.has(ticker.toLowerCase()) &&
        !GENERIC_WORDS.has(ticker.toLowerCase()) &&
        new RegExp(`(?<![A-Za-z0-9])${escape(ticker)}(?![A-Za-z0-9])`, 'i').test(question);
      if (exact || anyCase) note(company, phraseAt(normalized, normalizeWords(ticker)));
    }
    const core = coreName(company.name);
    note(company, phraseAt(normalized, core));
    const first = core.split(' ')[0];
    if (first.length >= 5 && !GENERIC_WORDS.has(first)) note(company, phraseAt(normalized, first));
    for (const brand of brandTargets)
      if (core === brand.target || core.startsWith(`${brand.target} `)) note(company, brand.at);
  }
  return [...found.values()].sort((a, b) => a.at - b.at);
}

/**
 * A name the question seems to give for a company that is not in the data ("Quillfeather Robotics' revenue"): capitalized
 * words before a possessive, or after "of", "for" or "about". Null when there is none.
 */
export function unknownCompanyName(question: string): string | null {
  const capitalized = String.raw`[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*)*`;
  const possessive = new RegExp(`(${capitalized})(?:[’']s?)(?=\\s|$)`).exec(question);
  const named = possessive ?? new RegExp(`\\b(?:of|for|about|at)\\s+(${capitalized})`).exec(question);
  if (!named) return null;
  const name = named[1].replace(/^(?:What|How|Did|Does|Show|Compare|Was|Is|The)\s+/, '').trim();
  if (!name || /^(?:FY|Q[1-4])/.test(name)) return null;
  return name;
}
