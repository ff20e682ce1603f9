/**
 * Which companies a question names: by ticker, by name or by a well-known brand, matched against the companies
 * the database holds. Names are compared without case, punctuation and legal suffixes ("Tesla, Inc." → "tesla").
 */

export interface CompanyRef {
  id: number;
  ticker: string;
  name: string;
  /** The newest annual revenue, when stored: of two companies a name fits equally well, the larger is meant. */
  size?: number | null;
}

export interface CompanyMention {
  company: CompanyRef;
  /** Where in the question it was named (companies are reported in the order they were named). */
  at: number;
  /** The words as the question writes them (normalized). */
  words: string;
  /** Other companies the same words fit as well (an ambiguous name): the question must say which one it means. */
  alternatives: CompanyRef[];
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

/** The position where `phrase` (normalized words) first occurs as whole words in the normalized question, or -1. */
function phraseAt(normalizedQuestion: string, phrase: string): number {
  if (!phrase) return -1;
  const match = new RegExp(`(?:^|\\s)${escape(phrase)}(?=\\s|$)`).exec(normalizedQuestion);
  return match ? match.index + (match[0].startsWith(' ') ? 1 : 0) : -1;
}

/** How surely words name a company: a ticker in capitals, its name or a brand, its name's first word. */
const enum Strength {
  FirstWord = 1,
  Name = 2,
  Ticker = 3,
}

/** Words a shortened name does not end on ("Bank of"). */
const JOINING_WORDS = new Set(['of', 'and', 'the', '&', 'for', 'de', 'in', 'on']);

interface NameIndex {
  /** Normalized words → the companies they name, and how surely. */
  phrases: Map<string, Array<{ company: CompanyRef; strength: Strength }>>;
  /** Upper-case ticker → companies. */
  tickers: Map<string, CompanyRef[]>;
  /** The most words any phrase has. */
  longest: number;
}

const indexes = new WeakMap<CompanyRef[], NameIndex>();

/** The names of a directory by their words, built once per directory (thousands of companies are looked up, not scanned). */
function nameIndex(directory: CompanyRef[]): NameIndex {
  const known = indexes.get(directory);
  if (known) return known;
  const index: NameIndex = { phrases: new Map(), tickers: new Map(), longest: 1 };
  const add = (phrase: string, company: CompanyRef, strength: Strength) => {
    if (!phrase) return;
    const entries = index.phrases.get(phrase) ?? [];
    const held = entries.find((entry) => entry.company.id === company.id);
    if (held) held.strength = Math.max(held.strength, strength);
    else entries.push({ company, strength });
    index.phrases.set(phrase, entries);
    index.longest = Math.max(index.longest, phrase.split(' ').length);
  };
  // Companies by their whole core name and by the first words of a longer one, for the brands below.
  const byCore = new Map<string, CompanyRef[]>();
  const byBeginning = new Map<string, CompanyRef[]>();
  const push = (map: Map<string, CompanyRef[]>, key: string, company: CompanyRef) => {
    const held = map.get(key);
    if (held) held.push(company);
    else map.set(key, [company]);
  };
  for (const company of directory) {
    const ticker = company.ticker.trim().toUpperCase();
    if (ticker.length >= 2) push(index.tickers, ticker, company);
    const core = coreName(company.name);
    add(core, company, Strength.Name);
    push(byCore, core, company);
    const words = core.split(' ');
    if (words[0].length >= 5 && !GENERIC_WORDS.has(words[0]) && words.length > 1)
      add(words[0], company, Strength.FirstWord);
    for (let count = 1; count < words.length; count += 1) {
      const prefix = words.slice(0, count);
      push(byBeginning, prefix.join(' '), company);
      // The first words of a longer name, as people shorten it ("First Citizens", "Delta Air").
      if (count >= 2 && !JOINING_WORDS.has(prefix[count - 1]) && !prefix.every((word) => GENERIC_WORDS.has(word)))
        add(prefix.join(' '), company, Strength.FirstWord);
    }
  }
  // A brand names the company of exactly its registered name; failing that, those whose name begins with it.
  for (const [brand, target] of Object.entries(BRANDS))
    for (const company of byCore.get(target) ?? byBeginning.get(target) ?? [])
      add(normalizeWords(brand), company, Strength.Name);
  indexes.set(directory, index);
  return index;
}

interface Candidate {
  company: CompanyRef;
  at: number;
  end: number;
  strength: Strength;
}

/** Whether a one-word name is written as a name ("Target", "Block"), not as the word ("the margin target"). */
function writtenAsName(question: string, words: string): boolean {
  if (words.includes(' ')) return true;
  return new RegExp(`(?<![A-Za-z0-9])${escape(words)}`, 'i').exec(question)?.[0].match(/^[A-Z0-9]/) !== null;
}

/** Every company words of the question could name, with where and how surely. */
function candidatesOf(question: string, normalized: string, index: NameIndex): Candidate[] {
  const candidates: Candidate[] = [];
  const words = [...normalized.matchAll(/\S+/g)].map((m) => ({ text: m[0], at: m.index as number }));
  for (let i = 0; i < words.length; i += 1)
    for (let n = 1; n <= index.longest && i + n <= words.length; n += 1) {
      const phrase = words
        .slice(i, i + n)
        .map((w) => w.text)
        .join(' ');
      const named = index.phrases.get(phrase);
      if (!named || !writtenAsName(question, phrase)) continue;
      const end = words[i + n - 1].at + words[i + n - 1].text.length;
      for (const { company, strength } of named) candidates.push({ company, at: words[i].at, end, strength });
    }
  // A ticker counts written in capitals (from two letters: "AAPL", "GE"), or in any case from four characters ("nvda")
  // unless it is also an everyday word.
  for (const token of question.matchAll(/[A-Za-z0-9]+(?:[.-][A-Za-z0-9]+)*/g)) {
    const written = token[0];
    const companies = index.tickers.get(written.toUpperCase());
    if (!companies) continue;
    const lower = written.toLowerCase();
    // In lower case only a company the service holds figures for: "apps" and "well" are words first.
    const lowerCase = written === lower && written.length >= 4 && !WORD_TICKERS.has(lower) && !GENERIC_WORDS.has(lower);
    if (written !== written.toUpperCase() && !lowerCase) continue;
    const at = phraseAt(normalized, normalizeWords(written));
    if (at < 0) continue;
    const end = at + normalizeWords(written).length;
    for (const company of companies)
      if (written === written.toUpperCase() || company.size != null)
        candidates.push({ company, at, end, strength: written === company.ticker ? Strength.Ticker : Strength.Name });
  }
  return candidates;
}

/** Better first: more words ("Apple Hospitality" over "Apple"), then how surely, then the larger company. */
function better(a: Candidate, b: Candidate): number {
  return b.end - b.at - (a.end - a.at) || b.strength - a.strength || (b.company.size ?? -1) - (a.company.size ?? -1);
}

/**
 * Companies named in a question, in the order they are named. A name counts by its ticker, its core name ("tesla",
 * "meta platforms"), a well-known brand, or its first word when that word is distinctive (five letters or more, not
 * generic); a one-word name only written as a name (capitalized). Where words fit several companies, the longest and
 * surest reading wins, then the larger company; companies the words fit exactly as well are the mention's
 * alternatives, and a question naming one of them is ambiguous.
 */
export function findCompanies(question: string, directory: CompanyRef[]): CompanyMention[] {
  const normalized = normalizeWords(question);
  const candidates = candidatesOf(question, normalized, nameIndex(directory));
  const found = new Map<number, CompanyMention>();
  const taken: Array<[number, number]> = [];
  // The best reading of each stretch of words first; words inside a reading taken name nothing else.
  for (const best of [...candidates].sort(better)) {
    if (taken.some(([at, end]) => best.at < end && best.end > at)) continue;
    // A word right after a company's name qualifies it ("NIKE Brand", "Apple Services"): no second company.
    if (
      best.strength === Strength.FirstWord &&
      candidates.some((other) => other.end + 1 === best.at && other.strength > best.strength)
    )
      continue;
    taken.push([best.at, best.end]);
    const tied = candidates.filter(
      (other) =>
        other.at === best.at &&
        other.end === best.end &&
        other.company.id !== best.company.id &&
        other.strength === best.strength &&
        // A known larger size settles it; unknown or equal sizes do not.
        !(best.company.size != null && other.company.size != null && best.company.size > other.company.size),
    );
    const alternatives = [...new Map(tied.map((other) => [other.company.id, other.company])).values()];
    const known = found.get(best.company.id);
    if (!known || best.at < known.at)
      found.set(best.company.id, {
        company: best.company,
        at: best.at,
        words: normalized.slice(best.at, best.end),
        alternatives,
      });
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
