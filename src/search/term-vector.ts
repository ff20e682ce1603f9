/**
 * A chunk's term frequencies as stored in `chunk_term_vectors.terms`: for each distinct term, its id in `search_terms`
 * (4 bytes) and its frequency in the chunk (2 bytes, at most 32,767), big-endian (as PostgreSQL's int4send and
 * int2send write them), in order of term id. Six bytes a term instead of about 22 as JSON keys and numbers, so the term
 * vectors of a large corpus fit in the embedded database's page cache.
 */

export const TERM_ENTRY_BYTES = 6;
export const MAX_TERM_FREQUENCY = 32_767;

/** Encodes term id → frequency pairs (frequencies above the maximum are stored as the maximum). */
export function encodeTermVector(frequencies: Iterable<readonly [number, number]>): Buffer {
  const entries = [...frequencies].sort((a, b) => a[0] - b[0]);
  const vector = Buffer.alloc(entries.length * TERM_ENTRY_BYTES);
  entries.forEach(([termId, frequency], i) => {
    vector.writeInt32BE(termId, i * TERM_ENTRY_BYTES);
    vector.writeInt16BE(Math.min(frequency, MAX_TERM_FREQUENCY), i * TERM_ENTRY_BYTES + 4);
  });
  return vector;
}

/**
 * The frequency of each of `termIds` in an encoded vector, in the order of `termIds` (0 when absent). `position` maps
 * a term id to its index in `termIds`; built once per query, it makes this one pass over the vector.
 */
export function frequenciesIn(vector: Buffer, position: ReadonlyMap<number, number>, count: number): number[] {
  const frequencies = new Array<number>(count).fill(0);
  for (let offset = 0; offset + TERM_ENTRY_BYTES <= vector.length; offset += TERM_ENTRY_BYTES) {
    const index = position.get(vector.readInt32BE(offset));
    if (index !== undefined) frequencies[index] = vector.readInt16BE(offset + 4);
  }
  return frequencies;
}
