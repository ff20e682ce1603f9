import { createHash } from 'node:crypto';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { chunkPages, type PageChunk } from './chunker';
import { AppError, type ErrorCode } from '../shared/errors';
import type { DocumentSource } from './document-source';
import { pdfPages } from './pdf-text';
import { extractText, hasText, joinPages } from './text-extraction';
import type { DocumentFormat } from './search.types';
import { extractFacts, placeInChunks, type PlacedFact } from '../documents/fact-extraction';
import { documentPeriod } from '../documents/fact-periods';

/**
 * A document's text as it is stored: extracted from its format, hashed (the same text is stored once), chunked, and
 * the figures it states, each placed in its chunk.
 */
export interface PreparedText {
  text: string;
  contentHash: string;
  chunks: PageChunk[];
  facts: PlacedFact[];
}

/**
 * Content from this size on is prepared on a worker thread: extracting and chunking a document of millions of
 * characters keeps the CPU long enough to hold up every request the event loop has waiting. A PDF always is: reading
 * one takes as long.
 */
export const WORKER_FROM_CHARS = 200_000;

/** `period`: the document's period (FY2024, Q2-2025, or null), which the figures' periods are checked against. */
function prepared(text: string, period: string | null): PreparedText {
  const chunks = hasText(text) ? chunkPages(text) : [];
  const facts =
    chunks.length > 0
      ? placeInChunks(
          extractFacts(text, documentPeriod(period)),
          chunks.map((chunk) => chunk.content),
        )
      : [];
  return { text, contentHash: createHash('sha256').update(text).digest('hex'), chunks, facts };
}

export function prepareText(content: string, format: DocumentFormat, period: string | null = null): PreparedText {
  return prepared(extractText(content, format), period);
}

/** The text of a document from its source, its pages separated by form feeds; a PDF's read page by page. */
export async function prepareSource(source: DocumentSource, period: string | null = null): Promise<PreparedText> {
  if (source.kind === 'text') return prepareText(source.content, source.format, period);
  return prepared(joinPages(await pdfPages(source.bytes)), period);
}

/** What the worker answers: the prepared text, or the AppError that refused the content (a thread passes no classes). */
export type WorkerAnswer =
  { prepared: PreparedText } | { refused: { code: ErrorCode; message: string; details?: unknown } };

/** `prepareSource`, on a worker thread for a PDF or large content. */
export function prepareSourceAside(source: DocumentSource, period: string | null = null): Promise<PreparedText> {
  if (source.kind === 'text' && source.content.length < WORKER_FROM_CHARS)
    return Promise.resolve(prepareText(source.content, source.format, period));
  return new Promise((resolve, reject) => {
    const worker = new Worker(path.join(__dirname, 'text-preparation-worker.js'), { workerData: { source, period } });
    worker.once('message', (answer: WorkerAnswer) =>
      'refused' in answer
        ? reject(new AppError(answer.refused.code, answer.refused.message, answer.refused.details))
        : resolve(answer.prepared),
    );
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the text preparation worker stopped with code ${code}`)));
  });
}
