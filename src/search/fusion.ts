/** Reciprocal rank fusion: each list adds weight / (k + rank) for every id it ranks (rank 1 = best). */
export const RRF_K = 60;

export interface FusedResult<Id> {
  id: Id;
  score: number;
  /** Rank in each input list (1-based), or null when that list did not return the id. */
  ranks: Array<number | null>;
}

/**
 * Fuses ranked id lists into one, best first. Ties keep the order of first appearance, so the result is stable.
 * k damps the weight of the very top ranks (60 is the value of the original RRF paper).
 */
export function reciprocalRankFusion<Id>(
  lists: Id[][],
  k = RRF_K,
  weights: number[] = lists.map(() => 1),
): Array<FusedResult<Id>> {
  const fused = new Map<Id, FusedResult<Id>>();
  lists.forEach((list, listIndex) => {
    list.forEach((id, position) => {
      let entry = fused.get(id);
      if (!entry) {
        entry = { id, score: 0, ranks: lists.map(() => null) };
        fused.set(id, entry);
      }
      if (entry.ranks[listIndex] !== null) return; // a duplicate within one list counts once, at its best rank
      entry.ranks[listIndex] = position + 1;
      entry.score += weights[listIndex] / (k + position + 1);
    });
  });
  return [...fused.values()].sort((a, b) => b.score - a.score);
}

/** An id with a list's own score for it (BM25, cosine similarity …), higher is better. */
export interface ScoredId<Id> {
  id: Id;
  score: number;
}

/**
 * Fuses lists that each score one whole population (every id a filter allows), best first: each list's scores are
 * min-max normalized to [0, 1] over the population and added with the weights. Rank fusion is the right choice for
 * lists cut at some length, whose scores say nothing of what lies beyond the cut; over a whole population the scores
 * are comparable, and they keep what ranks drop — how far ahead a list's first is. An id a list does not name has
 * that list's `absentScores` entry (0 for BM25: the chunk has none of the query's words), counted in its minimum when
 * such ids exist; a non-finite score (a text with no known term has no direction) counts as the list's lowest. Ties
 * keep the order of first appearance.
 */
export function minMaxFusion<Id>(
  lists: Array<Array<ScoredId<Id>>>,
  weights: number[],
  absentScores: number[],
): Array<FusedResult<Id>> {
  const population = new Set(lists.flatMap((list) => list.map((entry) => entry.id)));
  const fused = new Map<Id, FusedResult<Id>>(
    [...population].map((id) => [id, { id, score: 0, ranks: lists.map(() => null) }]),
  );
  lists.forEach((list, listIndex) => {
    const scores = new Map<Id, number>();
    list.forEach((entry, position) => {
      const result = fused.get(entry.id) as FusedResult<Id>;
      if (result.ranks[listIndex] !== null) return; // a duplicate within one list counts once, at its best rank
      result.ranks[listIndex] = position + 1;
      scores.set(entry.id, entry.score);
    });
    const finite = [...scores.values()].filter(Number.isFinite);
    if (finite.length === 0) return;
    if (scores.size < population.size) finite.push(absentScores[listIndex]);
    const max = Math.max(...finite);
    const min = Math.min(...finite);
    for (const result of fused.values()) {
      const score = scores.get(result.id) ?? absentScores[listIndex];
      const normalized = !Number.isFinite(score) ? 0 : max > min ? (score - min) / (max - min) : 1;
      result.score += weights[listIndex] * normalized;
    }
  });
  return [...fused.values()].sort((a, b) => b.score - a.score);
}
