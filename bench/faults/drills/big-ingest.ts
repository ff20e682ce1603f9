/**
 * Big ingest (embedded database): a 5,000,000-character document is stored while a reader asks for a company every
 * 50 ms, then three large documents are stored at once. Counts 5xx (a busy database must never answer 503 "down"),
 * acknowledged documents that cannot be read back in full, and the reader's latency (target: p99 ≤ 250 ms).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Teardown } from '../../bench-support';
import { AnswerTally, type DrillResult } from '../drill';
import { sleep, startDrillService, type DrillService } from '../service';
import type { Data } from '../../../test/helpers/http';
import type { Document, IngestedDocument } from '../../../sdk/typescript/src';

export const name = 'big-ingest';

const BIG_CHARS = 5_000_000;
const CONCURRENT_INGESTS = 3;
const CONCURRENT_CHARS = 1_500_000;
const READ_EVERY_MS = 50;
const READ_P99_TARGET_MS = 250;

const WORDS = (
  'revenue margin segment guidance backlog liquidity covenant impairment goodwill inventory receivable payable ' +
  'dividend repurchase capital expenditure depreciation amortization lease pension hedging currency exposure tariff demand ' +
  'supplier customer contract warranty litigation restructuring acquisition divestiture subsidiary jurisdiction taxation'
).split(' ');

/** Filing-like prose of `chars` characters: sentences of common words, figures and a few rarer words per paragraph. */
export function filingText(chars: number, seed: number): string {
  let state = seed;
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2_147_483_648);
  const paragraphs: string[] = [];
  let length = 0;
  for (let p = 0; length < chars; p++) {
    const sentences = Array.from({ length: 6 }, () => {
      const words = Array.from({ length: 14 }, () => WORDS[next() % WORDS.length]);
      return `The ${words.join(' ')} was ${(next() % 9000) / 10} million in term${next() % 5000}.`;
    });
    const paragraph = `Section ${seed}.${p}. ${sentences.join(' ')}`;
    paragraphs.push(paragraph);
    length += paragraph.length + 2;
  }
  return paragraphs.join('\n\n').slice(0, chars);
}

function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return 0;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Reads a company every READ_EVERY_MS until `stopped()`; returns each read's latency. */
async function readWhile(service: DrillService, tally: AnswerTally, stopped: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  while (!stopped() && !service.exited()) {
    const started = performance.now();
    const answer = await service.call('GET', '/v1/companies/1');
    latencies.push(performance.now() - started);
    if (answer) tally.record('GET /v1/companies/1', answer, answer.body);
    else tally.recordNoAnswer();
    await sleep(READ_EVERY_MS);
  }
  return latencies;
}

interface Stored {
  id: number;
  chunkCount: number;
}

async function store(
  service: DrillService,
  tally: AnswerTally,
  title: string,
  content: string,
): Promise<Stored | null> {
  const answer = await service.call<Data<IngestedDocument>>('POST', '/v1/documents', {
    company_id: 1,
    title,
    doc_type: '10-K',
    content,
  });
  if (!answer) {
    tally.recordNoAnswer();
    return null;
  }
  tally.record(`POST /v1/documents ${title}`, answer, answer.body);
  return answer.status === 201
    ? { id: answer.body!.data.document.id, chunkCount: answer.body!.data.document.chunk_count }
    : null;
}

/** Stores `contents` (at once) while the reader reads; returns what was acknowledged, the latencies and the seconds taken. */
async function storeWhileReading(
  service: DrillService,
  tally: AnswerTally,
  contents: string[],
): Promise<{ stored: Array<Stored | null>; latencies: number[]; seconds: number }> {
  let done = false;
  const reading = readWhile(service, tally, () => done);
  const started = performance.now();
  const stored = await Promise.all(
    contents.map((content, i) => store(service, tally, `Big filing ${i} ${Date.now()}`, content)),
  );
  const seconds = (performance.now() - started) / 1000;
  done = true;
  return { stored, latencies: await reading, seconds };
}

/** Acknowledged documents whose passages cannot be read back in full. */
async function unreadable(service: DrillService, stored: Array<Stored | null>): Promise<number> {
  let missing = 0;
  for (const document of stored) {
    if (!document) continue;
    const answer = await service.call<Data<Document>>('GET', `/v1/documents/${document.id}`);
    if (answer?.status !== 200 || answer.body!.data.passages.length !== document.chunkCount) missing++;
  }
  return missing;
}

export async function run(): Promise<DrillResult> {
  const teardown = new Teardown();
  try {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fis-faults-'));
    teardown.add('remove data dir', () => fs.rmSync(dataDir, { recursive: true, force: true }));
    const service = await startDrillService({ DATA_DIR: dataDir, DATABASE_URL: '' });
    teardown.add('stop service', () => service.stop());
    const tally = new AnswerTally();

    const big = await storeWhileReading(service, tally, [filingText(BIG_CHARS, 1)]);
    const many = await storeWhileReading(
      service,
      tally,
      Array.from({ length: CONCURRENT_INGESTS }, (_, i) => filingText(CONCURRENT_CHARS, i + 2)),
    );
    const lost = (await unreadable(service, big.stored)) + (await unreadable(service, many.stored));
    const refused = [...big.stored, ...many.stored].filter((document) => document === null).length;

    const p99 = percentile(big.latencies, 99);
    const describe = (label: string, run: { latencies: number[]; seconds: number }) =>
      `${label}: stored in ${run.seconds.toFixed(1)} s; company read p50 ${percentile(run.latencies, 50).toFixed(0)} ms, p99 ${percentile(run.latencies, 99).toFixed(0)} ms, max ${Math.max(...run.latencies).toFixed(0)} ms over ${run.latencies.length} reads`;
    const missed: string[] = [];
    if (p99 > READ_P99_TARGET_MS)
      missed.push(
        `company read p99 ${p99.toFixed(0)} ms while a 5 MB document is stored (target ≤ ${READ_P99_TARGET_MS} ms)`,
      );
    if (refused > 0) missed.push(`${refused} of ${1 + CONCURRENT_INGESTS} large ingests were not stored`);
    return {
      ...tally.counts(),
      crashes: service.exited() ? 1 : 0,
      lostWrites: lost,
      recoveryMs: [],
      notes: [
        describe(`one ${(BIG_CHARS / 1e6).toFixed(0)} M-character document`, big),
        describe(`${CONCURRENT_INGESTS} × ${(CONCURRENT_CHARS / 1e6).toFixed(1)} M characters at once`, many),
        ...tally.defects.map((defect) => `defect: ${defect}`),
      ],
      missedTargets: missed,
    };
  } finally {
    const leftovers = await teardown.runAll();
    if (leftovers.length > 0) process.stderr.write(`big-ingest: teardown incomplete: ${leftovers.join('; ')}\n`);
  }
}
