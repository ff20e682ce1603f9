import { createHash } from 'node:crypto';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { chunkText } from './chunker';
import { AppError, type ErrorCode } from '../shared/errors';
import { extractText } from './text-extraction';
import type { DocumentFormat } from './search.types';

/** A document's text as it is stored: extracted from its format, hashed (the same text is stored once), chunked. */
export interface PreparedText {
  text: string;
  contentHash: string;
  chunks: string[];
}

/**
 * Content from this size on is prepared on a worker thread: extracting and chunking a 5,000,000-character document
 * takes about half a second of CPU, for which the event loop would answer no request.
 */
export const WORKER_FROM_CHARS = 200_000;

export function prepareText(content: string, format: DocumentFormat): PreparedText {
  const text = extractText(content, format);
  return { text, contentHash: createHash('sha256').update(text).digest('hex'), chunks: text ? chunkText(text) : [] };
}

/** What the worker answers: the prepared text, or the AppError that refused the content (a thread passes no classes). */
export type WorkerAnswer = { prepared: PreparedText } | { refused: { code: ErrorCode; message: string } };

/** `prepareText`, on a worker thread for large content. */
export function prepareTextAside(content: string, format: DocumentFormat): Promise<PreparedText> {
  if (content.length < WORKER_FROM_CHARS) return Promise.resolve(prepareText(content, format));
  return new Promise((resolve, reject) => {
    const worker = new Worker(path.join(__dirname, 'text-preparation-worker.js'), { workerData: { content, format } });
    worker.once('message', (answer: WorkerAnswer) => ('refused' in answer ? reject(new AppError(answer.refused.code, answer.refused.message)) : resolve(answer.prepared)));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the text preparation worker stopped with code ${code}`)));
  });
}
