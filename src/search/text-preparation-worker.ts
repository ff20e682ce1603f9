/** Worker-thread entry: prepares a large document's text off the main thread (see text-preparation.ts). */
import { parentPort, workerData } from 'node:worker_threads';
import { AppError } from '../shared/errors';
import { prepareText, type WorkerAnswer } from './text-preparation';
import type { DocumentFormat } from './search.types';

const { content, format } = workerData as { content: string; format: DocumentFormat };
let answer: WorkerAnswer;
try {
  answer = { prepared: prepareText(content, format) };
} catch (error) {
  // Anything else is a bug: thrown on, it reaches the service as the worker's 'error'.
  if (!(error instanceof AppError)) throw error;
  answer = { refused: { code: error.code, message: error.message } };
}
parentPort?.postMessage(answer);
