import { normalize, type Embedder } from './embedder';
import { FINANCE_CONCEPTS } from './finance-lexicon';

/**
 * The offline embedder: no model to download, the same vector for the same text on every machine. It hashes
 * features into a fixed number of dimensions (signed feature hashing):
 * - stemmed words, so "expenditures" meets "expenditure";
 * - character 4-grams inside words, so spelling variants and compounds still overlap ("repurchase"/"repurchases");
 * - finance concepts from a synonym lexicon, so "capex" meets "purchases of property, plant and equipment";
 * - adjacent word pairs, weakly, for a little phrase order.
 * It knows nothing a corpus could teach it (no co-occurrence statistics); its job is to match what full-text search
 * misses on wording, and the hybrid fusion is what makes it pay.
 */
export const BUILTIN_MODEL = 'builtin-hash-v1';
export const BUILTIN_DIMENSIONS = 384;

const WEIGHT = { word: 1, concept: 1.6, ngram: 0.35, pair: 0.4 };
const YIELD_EVERY = 64;

const STOP_WORDS = new Set(
  ('a an and are as at be been being but by can could did do does for from had has have how i if in into is it its ' +
    'may might more most of on or our over such than that the their them then there these they this those through to ' +
    'under up was we were what when where which while who whom why will with would you your also any each other per ' +
    'about after again all am because before between both during few further here just only own same so some too very')
    .split(' '),
);

/** A light suffix stripper (a small Porter-like stemmer): enough to join plurals and common inflections. */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  const rules: Array<[RegExp, string]> = [
    [/ies$/, 'y'], [/sses$/, 'ss'], [/([^s])s$/, '$1'], [/ingly$/, ''], [/edly$/, ''], [/ing$/, ''], [/ed$/, ''],
    [/ational$/, 'ate'], [/ization$/, 'ize'], [/ness$/, ''], [/ments?$/, ''], [/ly$/, ''],
  ];
  for (const [pattern, replacement] of rules) {
    if (pattern.test(word)) {
      const stemmed = word.replace(pattern, replacement);
      return stemmed.length >= 3 ? stemmed : word;
    }
  }
  return word;
}

/** Lower-case words and numbers; accents are folded ("Nestlé" → "nestle") so spellings with and without meet. */
export function tokenize(text: string): string[] {
  const folded = text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().replace(/&/g, ' and ');
  return (folded.match(/[\p{L}\p{N}]+/gu) ?? []).filter((token) => token.length > 1 || /\d/.test(token));
}

/** Stemmed phrase → concept names, with phrases up to this many words. */
const CONCEPT_INDEX = new Map<string, string[]>();
let LONGEST_PHRASE = 1;
for (const [concept, phrases] of Object.entries(FINANCE_CONCEPTS)) {
  for (const phrase of phrases) {
    const words = tokenize(phrase).filter((word) => !STOP_WORDS.has(word)).map(stem);
    if (words.length === 0) continue;
    const key = words.join(' ');
    CONCEPT_INDEX.set(key, [...(CONCEPT_INDEX.get(key) ?? []), concept]);
    LONGEST_PHRASE = Math.max(LONGEST_PHRASE, words.length);
  }
}

/** 32-bit FNV-1a: fast, well spread, and stable across platforms. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The words the embedder looks at (stop words dropped), before stemming. */
export function contentWords(text: string): string[] {
  return tokenize(text).filter((word) => !STOP_WORDS.has(word));
}

/** Weight of a word in a query, e.g. its inverse document frequency; 1 when not given. */
export type TermWeight = (word: string) => number;

export function featuresOf(text: string, termWeight?: TermWeight): Map<string, number> {
  const tokens = contentWords(text);
  const words = tokens.map(stem);
  const weights = tokens.map((token) => termWeight?.(token) ?? 1);
  const counts = new Map<string, number>();
  const add = (feature: string, weight: number) => counts.set(feature, (counts.get(feature) ?? 0) + weight);
  words.forEach((word, i) => {
    const w = weights[i];
    add(`w:${word}`, WEIGHT.word * w);
    if (i > 0) add(`p:${words[i - 1]} ${word}`, (WEIGHT.pair * (w + weights[i - 1])) / 2);
    const padded = `<${word}>`;
    const grams = Math.max(1, padded.length - 3);
    for (let j = 0; j + 4 <= padded.length; j += 1) add(`g:${padded.slice(j, j + 4)}`, (WEIGHT.ngram * w) / grams);
    for (let length = 1; length <= LONGEST_PHRASE && i + length <= words.length; length += 1) {
      const phraseWeight = Math.max(...weights.slice(i, i + length));
      for (const concept of CONCEPT_INDEX.get(words.slice(i, i + length).join(' ')) ?? []) add(`c:${concept}`, WEIGHT.concept * phraseWeight);
    }
  });
  return counts;
}

/** Embeds one text: log-scaled (weighted) feature counts hashed into signed buckets, L2-normalized. */
export function embedText(text: string, dimensions = BUILTIN_DIMENSIONS, termWeight?: TermWeight): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const [feature, count] of featuresOf(text, termWeight)) {
    const hash = fnv1a(feature);
    const sign = hash & 0x80000000 ? -1 : 1;
    vector[hash % dimensions] += sign * Math.log1p(count);
  }
  return normalize(vector);
}

export class BuiltinEmbedder implements Embedder {
  readonly model = BUILTIN_MODEL;
  readonly dimensions = BUILTIN_DIMENSIONS;

  async embedDocuments(texts: string[]): Promise<number[][]> {
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += YIELD_EVERY) {
      // A large document is thousands of chunks: give other requests a turn between batches.
      if (start > 0) await new Promise((resolve) => setImmediate(resolve));
      for (const text of texts.slice(start, start + YIELD_EVERY)) vectors.push(embedText(text, this.dimensions));
    }
    return vectors;
  }

  /**
   * Documents are embedded without corpus statistics (so stored vectors never go stale); a query's words can be
   * weighted by their rarity in the searched documents, which lets a company name or "capex" outweigh "million".
   */
  readonly weighsQueryTerms = true;

  async embedQuery(text: string, termWeight?: TermWeight): Promise<number[]> {
    return embedText(text, this.dimensions, termWeight);
  }
}
