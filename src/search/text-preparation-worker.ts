/** Worker-thread entry: prepares a PDF's or a large document's text off the main thread (see text-preparation.ts). */
import { parentPort, workerData } from 'node:worker_threads';
import { AppError } from '../shared/errors';
import type { DocumentSource } from './document-source';
import { prepareSource, type WorkerAnswer } from './text-preparation';

async function answer({ source, period }: { source: DocumentSource; period: string | null }): Promise<WorkerAnswer> {
  try {
    return { prepared: await prepareSource(source, period) };
  } catch (error) {
    // Anything else is a bug: thrown on, it reaches the service as the worker's 'error'.
    if (!(error instanceof AppError)) throw error;
    return { refused: { code: error.code, message: error.message, details: error.details } };
  }
}

void answer(workerData as { source: DocumentSource; period: string | null }).then((result) =>
  parentPort?.postMessage(result),
);
