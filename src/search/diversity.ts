import { termsOf } from './terms';

/**
 * Choosing what to show from a ranked list: passages that say the same thing (the same paragraph in Item 1 and in
 * Item 7, a boilerplate note repeated across filings) are shown once, and one document does not fill the page.
 */

/** Passages whose sets of terms overlap at least this much (Jaccard) are the same passage. */
export const NEAR_DUPLICATE_SIMILARITY = 0.8;
/** Chunks of one document shown before the chunks of other documents get their turn. */
export const MAX_CHUNKS_PER_DOCUMENT = 2;

/**
 * Content words and years of a passage. (Counting every number too, so that tables alike but for their figures
 * differ, collapses fewer copies and ranks worse: docs/evaluation.md.)
 */
export function termSet(text: string): Set<string> {
  return new Set(termsOf(text));
}

export function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const term of small) if (large.has(term)) shared += 1;
  return shared / (a.size + b.size - shared);
}

export interface Candidate<Id> {
  id: Id;
  documentId: number;
  content: string;
}

/**
 * The first `count` candidates in rank order, skipping near-duplicates of a passage already chosen and deferring a
 * document's chunks beyond `perDocument`; deferred chunks fill what is left when other documents run out.
 */
export function diversify<Id>(
  ranked: Array<Candidate<Id>>,
  count: number,
  perDocument = MAX_CHUNKS_PER_DOCUMENT,
): Id[] {
  const chosen: Array<{ id: Id; terms: Set<string> }> = [];
  const deferred: Array<{ id: Id; terms: Set<string> }> = [];
  const perDocumentCount = new Map<number, number>();
  const isDuplicate = (terms: Set<string>) =>
    chosen.some((kept) => jaccard(kept.terms, terms) >= NEAR_DUPLICATE_SIMILARITY);
  for (const candidate of ranked) {
    if (chosen.length >= count) break;
    const terms = termSet(candidate.content);
    if (isDuplicate(terms)) continue;
    const shown = perDocumentCount.get(candidate.documentId) ?? 0;
    if (shown >= perDocument) {
      deferred.push({ id: candidate.id, terms });
      continue;
    }
    perDocumentCount.set(candidate.documentId, shown + 1);
    chosen.push({ id: candidate.id, terms });
  }
  for (const candidate of deferred) {
    if (chosen.length >= count) break;
    if (!isDuplicate(candidate.terms)) chosen.push(candidate);
  }
  return chosen.map((entry) => entry.id);
}
