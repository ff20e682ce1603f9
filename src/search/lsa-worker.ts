/** Worker-thread entry: fits an LSA model off the main thread, so the service keeps answering during a refit. */
import { parentPort, workerData } from 'node:worker_threads';
import { fitLsa, sampleTexts, type LsaOptions, type SampleTexts } from './lsa';

const { sample, options } = workerData as { sample: SampleTexts; options: LsaOptions };
const model = fitLsa(sampleTexts(sample), options);
// Transferred, not copied: the projection is tens of megabytes.
parentPort?.postMessage(model, [model.idf.buffer, model.projection.buffer]);
