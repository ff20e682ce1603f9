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
export function reciprocalRankFusion<Id>(lists: Id[][], k = RRF_K, weights: number[] = lists.map(() => 1)): Array<FusedResult<Id>> {
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
