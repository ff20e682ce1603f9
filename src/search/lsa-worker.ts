/** Worker-thread entry: fits an LSA model off the main thread, so the service keeps answering during a refit. */
import { parentPort, workerData } from 'node:worker_threads';
import { fitLsa, type LsaOptions } from './lsa';

const { texts, options } = workerData as { texts: string[]; options: LsaOptions };
const model = fitLsa(texts, options);
parentPort?.postMessage(model, [model.idf.buffer, model.projection.buffer]);
