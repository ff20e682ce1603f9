/**
 * The terms the built-in embedder counts in a text: stemmed content words and years. No finance synonym
 * lexicon: its concepts occur in nearly every filing passage and blur the fitted model, which learns such relations
 * from co-occurrence instead (docs/evaluation.md).
 */

const STOP_WORDS = new Set(
  (
    'a an and are as at be been being but by can could did do does for from had has have how i if in into is it its ' +
    'may might more most of on or our over such than that the their them then there these they this those through to ' +
    'under up was we were what when where which while who whom why will with would you your also any each other per ' +
    'about after again all am because before between both during few further here just only own same so some too very'
  ).split(' '),
);

const SUFFIX_RULES: Array<[RegExp, string]> = [
  [/ies$/, 'y'],
  [/sses$/, 'ss'],
  [/([^s])s$/, '$1'],
  [/ingly$/, ''],
  [/edly$/, ''],
  [/ing$/, ''],
  [/ed$/, ''],
  [/ational$/, 'ate'],
  [/ization$/, 'ize'],
  [/ness$/, ''],
  [/ments?$/, ''],
  [/ly$/, ''],
];

/**
 * Stems already worked out: a query tokenizes a hundred passages for its phrase boost and near-duplicate checks, and
 * filings repeat the same few thousand words. Bounded, and emptied when full, so odd tokens cannot grow it forever.
 */
const STEMS = new Map<string, string>();
const MAX_STEMS = 50_000;

/** A light suffix stripper (a small Porter-like stemmer): enough to join plurals and common inflections. */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  const known = STEMS.get(word);
  if (known !== undefined) return known;
  let stemmed = word;
  for (const [pattern, replacement] of SUFFIX_RULES) {
    if (pattern.test(word)) {
      const stripped = word.replace(pattern, replacement);
      stemmed = stripped.length >= 3 ? stripped : word;
      break;
    }
  }
  if (STEMS.size >= MAX_STEMS) STEMS.clear();
  STEMS.set(word, stemmed);
  return stemmed;
}

/** Lower-case words and numbers; accents are folded ("Nestlé" → "nestle") so spellings with and without meet. */
export function tokenize(text: string): string[] {
  const folded = text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ');
  return (folded.match(/[\p{L}\p{N}]+/gu) ?? []).filter((token) => token.length > 1 || /\d/.test(token));
}

/** The words that carry meaning (stop words dropped), before stemming. */
export function contentWords(text: string): string[] {
  return tokenize(text).filter((word) => !STOP_WORDS.has(word));
}

// Amounts and page numbers say nothing about the topic of a passage; years do.
const isTopicWord = (word: string) => !/^\d+$/.test(word) || /^(19|20)\d\d$/.test(word);

/** Longest word indexed: longer than the ordinary words of any language, shorter than the index's column (100). */
export const MAX_TERM_LENGTH = 64;
/** Longest run of letters mixed with digits indexed: codes people search for (an ISIN has 12, an LEI 20) fit. */
export const MAX_CODE_LENGTH = 20;
/** A longer run is still a word when it switches between letters and digits at most this often ("model2025", "q3revenue"). */
const MAX_WORD_SWITCHES = 2;

/**
 * Whether a word is worth a search term. Machine strings are not: a hex digest, a base64 blob or a key is a long
 * run of letters and digits switching back and forth, or longer than any word, and nobody types it into a search box. Such words are
 * left out of the index and out of queries alike; the text itself is stored and shown in full.
 */
export function isSearchableWord(word: string): boolean {
  if (word.length > MAX_TERM_LENGTH) return false;
  if (word.length <= MAX_CODE_LENGTH) return true;
  return (word.match(/(?=\p{L}\d|\d\p{L})/gu) ?? []).length <= MAX_WORD_SWITCHES;
}

/** Terms of a text in order, with repeats. */
export function termsOf(text: string): string[] {
  return contentWords(text).filter(isSearchableWord).map(stem).filter(isTopicWord);
}

/**
 * Words with which a question says how to answer ("round to one decimal place", "give a response relying on the
 * details shown"), not what the passage is about; they are left out of what a query looks for.
 */
const INSTRUCTION_WORDS = new Set(
  (
    'answer answers answering question questions response respond responding give provide please calculate calculating ' +
    'compute computing round rounded rounding decimal decimals place places unit units define defined definition ' +
    'using use based basing shown show details detail information relying rely perspective analyst assume assuming ' +
    'outlined clearly plainly stated state explain want need help us me judgment judgments reasonable approximation ' +
    'exact possible resource resources only following asked'
  ).split(' '),
);

/** The query without its instruction words; the query itself when nothing else is left. */
export function withoutInstructions(query: string): string {
  const kept = query
    .split(/\s+/)
    .filter((word) => !INSTRUCTION_WORDS.has(word.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '')));
  return kept.length > 0 ? kept.join(' ') : query;
}
