import { termsOf } from './terms';

/**
 * Latent semantic analysis: a truncated SVD of the TF-IDF matrix of the stored chunks. Terms that occur in the same
 * passages ("repurchase", "buyback", "treasury") end up close in the reduced space, so a passage can match a
 * question that shares few of its words. The fit is pure arithmetic on the corpus: nothing is downloaded, and the
 * same corpus gives the same model on every machine (the random start is seeded).
 */

/** A fitted model: the vocabulary with its IDF weights, and a term → latent-space projection. */
export interface LsaModel {
  terms: string[];
  idf: Float32Array<ArrayBuffer>;
  /** terms.length × dimensions, row-major; columns beyond `rank` are zero. */
  projection: Float32Array<ArrayBuffer>;
  dimensions: number;
  /** Latent dimensions actually used (a small corpus supports fewer than `dimensions`). */
  rank: number;
  /** Chunks the model was fitted on. */
  documents: number;
}

export interface LsaOptions {
  dimensions: number;
  /** Extra random directions and power iterations of the randomized SVD (Halko, Martinsson & Tropp 2011). */
  oversampling: number;
  powerIterations: number;
  /** Terms kept, the most frequent first. */
  maxTerms: number;
}

export const DEFAULT_LSA_OPTIONS: LsaOptions = {
  dimensions: 256,
  oversampling: 20,
  powerIterations: 2,
  maxTerms: 50_000,
};

/**
 * Latent coordinates are scaled by √σ: between plain LSI (σ⁰, every concept equal) and the full SVD (σ¹, the
 * broadest concepts dominate), which ranks best on FinanceBench.
 */
const SINGULAR_VALUE_EXPONENT = 0.5;

/** Sparse rows (compressed sparse row form) of the TF-IDF matrix, each row L2-normalized. */
interface SparseMatrix {
  rows: number;
  columns: number;
  rowStart: Int32Array;
  column: Int32Array;
  value: Float64Array;
}

function termCounts(terms: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}

/** The vocabulary: terms in at least two chunks and, in a corpus of some size, in at most half of them. */
function chooseVocabulary(
  documents: Array<Map<string, number>>,
  maxTerms: number,
): { terms: string[]; idf: Float32Array<ArrayBuffer> } {
  const df = new Map<string, number>();
  for (const counts of documents) for (const term of counts.keys()) df.set(term, (df.get(term) ?? 0) + 1);
  const n = documents.length;
  const minDf = n >= 20 ? 2 : 1;
  const maxDf = n >= 20 ? n / 2 : n;
  const terms = [...df]
    .filter(([, count]) => count >= minDf && count <= maxDf)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, maxTerms)
    .map(([term]) => term);
  // Plain log(N/df) (kept positive for a term in every text of a tiny corpus): rare terms must dominate.
  const idf = Float32Array.from(terms, (term) => Math.log((n + 1) / (df.get(term) as number)));
  return { terms, idf };
}

/** One text's TF-IDF weights over the vocabulary, as (column, value) pairs; sublinear term frequency. */
function weigh(
  counts: Map<string, number>,
  index: Map<string, number>,
  idf: Float32Array<ArrayBuffer>,
): Array<[number, number]> {
  const entries: Array<[number, number]> = [];
  for (const [term, count] of counts) {
    const column = index.get(term);
    if (column !== undefined) entries.push([column, (1 + Math.log(count)) * idf[column]]);
  }
  return entries;
}

function buildMatrix(
  documents: Array<Map<string, number>>,
  index: Map<string, number>,
  idf: Float32Array<ArrayBuffer>,
): SparseMatrix {
  const rowStart = new Int32Array(documents.length + 1);
  const columns: number[] = [];
  const values: number[] = [];
  documents.forEach((counts, row) => {
    const entries = weigh(counts, index, idf);
    const norm = Math.sqrt(entries.reduce((sum, [, value]) => sum + value * value, 0)) || 1;
    for (const [column, value] of entries) {
      columns.push(column);
      values.push(value / norm);
    }
    rowStart[row + 1] = columns.length;
  });
  return {
    rows: documents.length,
    columns: index.size,
    rowStart,
    column: Int32Array.from(columns),
    value: Float64Array.from(values),
  };
}

/** A · X for a dense X of A.columns × width (row-major). */
function multiply(a: SparseMatrix, x: Float64Array, width: number): Float64Array {
  const out = new Float64Array(a.rows * width);
  for (let row = 0; row < a.rows; row += 1) {
    const target = row * width;
    for (let k = a.rowStart[row]; k < a.rowStart[row + 1]; k += 1) {
      const source = a.column[k] * width;
      const value = a.value[k];
      for (let c = 0; c < width; c += 1) out[target + c] += value * x[source + c];
    }
  }
  return out;
}

/** Aᵀ · Y for a dense Y of A.rows × width. */
function multiplyTransposed(a: SparseMatrix, y: Float64Array, width: number): Float64Array {
  const out = new Float64Array(a.columns * width);
  for (let row = 0; row < a.rows; row += 1) {
    const source = row * width;
    for (let k = a.rowStart[row]; k < a.rowStart[row + 1]; k += 1) {
      const target = a.column[k] * width;
      const value = a.value[k];
      for (let c = 0; c < width; c += 1) out[target + c] += value * y[source + c];
    }
  }
  return out;
}

/** Gram matrix YᵀY (width × width) of a dense Y with `rows` rows. */
function gram(y: Float64Array, rows: number, width: number): Float64Array {
  const g = new Float64Array(width * width);
  for (let r = 0; r < rows; r += 1) {
    const o = r * width;
    for (let i = 0; i < width; i += 1) {
      const yi = y[o + i];
      if (yi === 0) continue;
      for (let j = i; j < width; j += 1) g[i * width + j] += yi * y[o + j];
    }
  }
  for (let i = 0; i < width; i += 1) for (let j = 0; j < i; j += 1) g[i * width + j] = g[j * width + i];
  return g;
}

/**
 * Orthonormalizes the columns of Y in place by Cholesky QR, twice for accuracy ("CholeskyQR2"): it reads Y row by
 * row, which is far faster here than Gram-Schmidt. Columns that are (numerically) dependent become zero.
 */
function orthonormalize(y: Float64Array, rows: number, width: number): Float64Array {
  for (let pass = 0; pass < 2; pass += 1) {
    const g = gram(y, rows, width);
    const scale = Math.max(...Array.from({ length: width }, (_, i) => g[i * width + i]), 1e-300);
    const r = new Float64Array(width * width); // upper triangular, RᵀR = G
    const dead = new Uint8Array(width);
    for (let i = 0; i < width; i += 1) {
      let diagonal = g[i * width + i];
      for (let k = 0; k < i; k += 1) diagonal -= r[k * width + i] * r[k * width + i];
      if (diagonal <= scale * 1e-10) {
        dead[i] = 1;
        continue;
      }
      r[i * width + i] = Math.sqrt(diagonal);
      for (let j = i + 1; j < width; j += 1) {
        let sum = g[i * width + j];
        for (let k = 0; k < i; k += 1) sum -= r[k * width + i] * r[k * width + j];
        r[i * width + j] = sum / r[i * width + i];
      }
    }
    const solved = new Float64Array(width);
    for (let row = 0; row < rows; row += 1) {
      const o = row * width;
      for (let j = 0; j < width; j += 1) {
        if (dead[j]) {
          solved[j] = 0;
          continue;
        }
        let sum = y[o + j];
        for (let k = 0; k < j; k += 1) sum -= solved[k] * r[k * width + j];
        solved[j] = sum / r[j * width + j];
      }
      y.set(solved, o);
    }
  }
  return y;
}

/** Eigenvalues and eigenvectors (columns) of a small symmetric matrix, by cyclic Jacobi rotations. */
function symmetricEigen(matrix: Float64Array, n: number): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(matrix);
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i += 1) v[i * n + i] = 1;
  const total = a.reduce((sum, value) => sum + value * value, 0);
  for (let sweep = 0; sweep < 60; sweep += 1) {
    let off = 0;
    for (let p = 0; p < n; p += 1) for (let q = p + 1; q < n; q += 1) off += a[p * n + q] * a[p * n + q];
    if (off <= total * 1e-24) break;
    for (let p = 0; p < n; p += 1) {
      for (let q = p + 1; q < n; q += 1) {
        const apq = a[p * n + q];
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q * n + q] - a[p * n + p]) / (2 * apq);
        const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k += 1) {
          const akp = a[k * n + p];
          const akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k += 1) {
          const apk = a[p * n + k];
          const aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k += 1) {
          const vkp = v[k * n + p];
          const vkq = v[k * n + q];
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  return { values: Float64Array.from({ length: n }, (_, i) => a[i * n + i]), vectors: v };
}

/** A seeded standard normal generator (Box–Muller over a 32-bit LCG), so fits are reproducible. */
function gaussian(seed: number): () => number {
  let state = seed >>> 0;
  const uniform = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return (state + 1) / 4294967297;
  };
  return () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
}

/** Texts to fit on as they cross to the fit's worker: batches of UTF-8 bytes, each its texts joined by SAMPLE_SEPARATOR. */
export interface SampleTexts {
  batches: Uint8Array<ArrayBuffer>[];
}

/** NUL: PostgreSQL text cannot contain it, so it never occurs inside a stored chunk's text. */
export const SAMPLE_SEPARATOR = '\0';

export function sampleTexts(sample: SampleTexts): string[] {
  const decoder = new TextDecoder();
  return sample.batches.flatMap((batch) => decoder.decode(batch).split(SAMPLE_SEPARATOR));
}

/** Fits a model on chunk texts. Cost grows with chunks × dimensions²; 45k chunks take under a minute. */
export function fitLsa(texts: string[], options: LsaOptions = DEFAULT_LSA_OPTIONS): LsaModel {
  const documents = texts.map((text) => termCounts(termsOf(text)));
  const { terms, idf } = chooseVocabulary(documents, options.maxTerms);
  const { dimensions } = options;
  const projection = new Float32Array(terms.length * dimensions);
  const rank = Math.min(dimensions, documents.length, terms.length);
  if (rank === 0) return { terms, idf, projection, dimensions, rank: 0, documents: texts.length };

  const index = new Map(terms.map((term, i) => [term, i]));
  const a = buildMatrix(documents, index, idf);
  const width = Math.min(rank + options.oversampling, a.rows, a.columns);
  // Range finder for A's row space: Q spans the top right singular vectors of A.
  const random = gaussian(0x5eed);
  const start = Float64Array.from({ length: a.rows * width }, random);
  let q = orthonormalize(multiplyTransposed(a, start, width), a.columns, width);
  for (let i = 0; i < options.powerIterations; i += 1) {
    const left = orthonormalize(multiply(a, q, width), a.rows, width);
    q = orthonormalize(multiplyTransposed(a, left, width), a.columns, width);
  }
  // A ≈ (AQ) Qᵀ; the eigenvectors W of (AQ)ᵀ(AQ) turn Q into A's right singular vectors, the eigenvalues are σ².
  const b = multiply(a, q, width);
  const { values, vectors } = symmetricEigen(gram(b, a.rows, width), width);
  const order = Array.from(values.keys())
    .sort((x, y) => values[y] - values[x])
    .slice(0, rank);
  const scales = order.map((i) => Math.pow(Math.sqrt(Math.max(values[i], 0)), SINGULAR_VALUE_EXPONENT));
  // Directions with no weight (a corpus of repeated texts) are left out rather than filled with noise.
  const used = scales.filter((scale) => scale > 1e-6).length;
  for (let term = 0; term < terms.length; term += 1) {
    for (let k = 0; k < used; k += 1) {
      const eigen = order[k];
      let sum = 0;
      for (let c = 0; c < width; c += 1) sum += q[term * width + c] * vectors[c * width + eigen];
      projection[term * dimensions + k] = sum * scales[k];
    }
  }
  return { terms, idf, projection, dimensions, rank: used, documents: texts.length };
}

/** Embeds texts with a fitted model: their TF-IDF vector projected into the latent space, L2-normalized. */
export class LsaProjector {
  private readonly index: Map<string, number>;

  constructor(readonly model: LsaModel) {
    this.index = new Map(model.terms.map((term, i) => [term, i]));
  }

  /** A zero vector when the text has no term of the vocabulary (nothing is near it). */
  embed(text: string): number[] {
    const { dimensions, projection, idf } = this.model;
    const out = new Float64Array(dimensions);
    for (const [column, weight] of weigh(termCounts(termsOf(text)), this.index, idf)) {
      const row = column * dimensions;
      for (let k = 0; k < dimensions; k += 1) out[k] += weight * projection[row + k];
    }
    const norm = Math.sqrt(out.reduce((sum, value) => sum + value * value, 0));
    return Array.from(out, (value) => (norm === 0 ? 0 : value / norm));
  }
}
