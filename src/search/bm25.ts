import { termsOf } from './terms';

/**
 * Okapi BM25 (Robertson & Zaragoza 2009) with the usual constants: k1 saturates term frequency (the fifth mention of
 * "goodwill" adds little), b normalizes by chunk length (a long chunk mentions everything once).
 */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/** Collection statistics the text leg scores with; ingestion keeps them in `search_corpus_stats` and `search_terms`. */
export interface CorpusStats {
  chunks: number;
  averageLength: number;
}

/** BM25's inverse document frequency; positive even for a term in every chunk. */
export function inverseDocumentFrequency(chunks: number, chunksWithTerm: number): number {
  return Math.log(1 + (chunks - chunksWithTerm + 0.5) / (chunksWithTerm + 0.5));
}

/** The term-frequency part of BM25 for one term in one chunk: between 0 and k1 + 1. */
export function termImpact(frequency: number, length: number, averageLength: number): number {
  const norm = BM25_K1 * (1 - BM25_B + BM25_B * (length / Math.max(averageLength, 1)));
  return (frequency * (BM25_K1 + 1)) / (frequency + norm);
}

/** What one chunk contributes to the index: its length in terms and each distinct term's frequency. */
export interface ChunkTerms {
  length: number;
  frequencies: Map<string, number>;
}

export function countTerms(text: string): ChunkTerms {
  const terms = termsOf(text);
  const frequencies = new Map<string, number>();
  for (const term of terms) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
  return { length: terms.length, frequencies };
}

/** Query terms in order without repeats (a repeated word does not make a question about it twice as much). */
export function queryTerms(query: string, max: number): string[] {
  return [...new Set(termsOf(query))].slice(0, max);
}

/** Two query terms next to each other ("operating lease", "share repurchase"): found together, they are a phrase. */
const PROXIMITY_WINDOW = 3;

/**
 * The phrase part of the score: each pair of neighbouring query terms that also occurs within a few terms of each
 * other, in order, in the chunk adds the smaller of the two IDFs. Pairs that are a real phrase of the question thus
 * lift the chunks that keep the phrase together over chunks that merely mention both words somewhere.
 */
export function proximityBonus(queryTermList: string[], idf: Map<string, number>, chunkText: string): number {
  if (queryTermList.length < 2) return 0;
  const positions = new Map<string, number[]>();
  termsOf(chunkText).forEach((term, position) => {
    if (!idf.has(term)) return;
    const list = positions.get(term);
    if (list) list.push(position);
    else positions.set(term, [position]);
  });
  let bonus = 0;
  for (let i = 0; i + 1 < queryTermList.length; i += 1) {
    const first = positions.get(queryTermList[i]);
    const second = positions.get(queryTermList[i + 1]);
    if (!first || !second) continue;
    const near = first.some((a) => second.some((b) => b > a && b - a <= PROXIMITY_WINDOW));
    if (near) bonus += Math.min(idf.get(queryTermList[i]) ?? 0, idf.get(queryTermList[i + 1]) ?? 0);
  }
  return bonus;
}
