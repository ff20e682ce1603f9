/** Turns text into vectors for the vector leg of search. Vectors are L2-normalized, so cosine = dot product. */
export interface Embedder {
  /** Stored with every embedding; chunks embedded by different models never mix. */
  readonly model: string;
  readonly dimensions: number;
  /** A model fitted on the corpus and stored in the database, which a later refit replaces and drops. */
  readonly stored?: boolean;
  embedDocuments(texts: string[]): Promise<number[][]>;
  embedQuery(text: string): Promise<number[]>;
}

export function normalize(vector: number[]): number[] {
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
  return norm === 0 ? vector : vector.map((value) => value / norm);
}

/** pgvector's text form: "[0.1,0.2,...]". */
export function toVectorLiteral(vector: number[]): string {
  return `[${vector.map((value) => (Number.isFinite(value) ? Number(value.toFixed(7)) : 0)).join(',')}]`;
}
