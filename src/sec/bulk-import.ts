/**
 * The bulk SEC import: every company-facts file of `companyfacts.zip` (or a folder), with what `submissions.zip` says
 * of each filer, into companies and statements. Files are read one at a time from the archive, parsed in worker
 * threads by the same import as a single file, and written in batches (each company all or nothing). The fingerprint
 * of each company's files is stored with its data, so a second run skips what has not changed and a run stopped
 * halfway goes on where it stopped.
 */
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { DataSource } from 'typeorm';
import { AppError } from '../shared/errors';
import type { ImportedCompany } from './companyfacts';
import { openBulkSource, type BulkFile } from './bulk-source';
import { findImportedFingerprints } from './sec-import.repository';
import { storeImports, type ImportExtras } from './sec-store';
import { filerProfile, type FilerProfile } from './submissions';

export interface ParseRequest {
  id: number;
  bytes: ArrayBuffer;
}
export type ParseAnswer = { id: number; imported: ImportedCompany } | { id: number; refused: string };

export interface BulkProgress {
  done: number;
  total: number;
  imported: number;
  elapsedSeconds: number;
}

export interface BulkImportOptions {
  /** companyfacts.zip, or a folder of company-facts files. */
  facts: string;
  /** submissions.zip, or a folder of submissions files. */
  submissions?: string | null;
  /** CIK → ticker (company_tickers.json), for filers whose submissions list none. */
  tickers: ReadonlyMap<number, string>;
  workers?: number;
  /** Companies written per transaction. */
  batchSize?: number;
  onProgress?: (progress: BulkProgress) => void;
}

export interface BulkSummary {
  files: number;
  imported: number;
  /** Unchanged since the last import. */
  skipped: number;
  /** Files not imported, by reason, each with the files it held back. */
  refused: Map<string, string[]>;
  seconds: number;
}

const CIK_IN_NAME = /CIK0*(\d+)\.json$/i;
/** Files read ahead of the writer: enough to keep the workers busy while a batch is written. */
const READ_AHEAD = 16;

/** Worker threads that parse company-facts files, each answering in turn. */
class ParsePool {
  private readonly workers: Worker[];
  private readonly pending = new Map<number, (answer: ParseAnswer) => void>();
  private nextId = 0;

  constructor(size: number) {
    this.workers = Array.from({ length: size }, () => {
      const worker = new Worker(path.join(__dirname, 'companyfacts-worker.js'));
      worker.on('message', (answer: ParseAnswer) => {
        this.pending.get(answer.id)?.(answer);
        this.pending.delete(answer.id);
      });
      worker.on('error', (error) => {
        for (const [id, resolve] of this.pending) resolve({ id, refused: `failed: ${error.message}` });
        this.pending.clear();
      });
      return worker;
    });
  }

  parse(bytes: Buffer): Promise<ParseAnswer> {
    const id = this.nextId++;
    // A copy of its own, so the bytes move to the worker instead of being cloned.
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.workers[id % this.workers.length].postMessage({ id, bytes: buffer } satisfies ParseRequest, [buffer]);
    });
  }

  close(): Promise<number[]> {
    return Promise.all(this.workers.map((worker) => worker.terminate()));
  }
}

/** Every filer's profile from a submissions archive or folder, with its file's fingerprint, by CIK. */
async function readProfiles(location: string): Promise<Map<number, { profile: FilerProfile; fingerprint: string }>> {
  const profiles = new Map<number, { profile: FilerProfile; fingerprint: string }>();
  const source = await openBulkSource(location);
  try {
    for await (const file of source.files()) {
      // A long history continues in CIK…-submissions-001.json files: they add filings, not a profile.
      if (!CIK_IN_NAME.test(file.name)) continue;
      let profile: FilerProfile | null = null;
      try {
        profile = filerProfile(JSON.parse((await file.read()).toString('utf8')));
      } catch {
        continue; // a submissions file that cannot be read leaves its filer as company facts describe it
      }
      if (profile) profiles.set(profile.cik, { profile, fingerprint: file.fingerprint });
    }
  } finally {
    source.close();
  }
  return profiles;
}

/** Why a company could not be stored, in a few words that group alike failures. */
function reasonOf(error: unknown): string {
  if (error instanceof AppError && error.code === 'CONFLICT') return `conflict: ${error.message}`;
  return `failed: ${error instanceof Error ? error.message : String(error)}`;
}

interface Parsed {
  file: BulkFile;
  answer: ParseAnswer;
  profile: FilerProfile | null;
  fingerprint: string;
}

/** Runs a bulk import; see the module's comment. */
export async function importBulk(dataSource: DataSource, options: BulkImportOptions): Promise<BulkSummary> {
  const started = Date.now();
  const profiles = options.submissions
    ? await readProfiles(options.submissions)
    : new Map<number, { profile: FilerProfile; fingerprint: string }>();
  const source = await openBulkSource(options.facts);
  const pool = new ParsePool(Math.max(1, options.workers ?? Math.min(4, os.availableParallelism() - 1)));
  const summary: BulkSummary = { files: 0, imported: 0, skipped: 0, refused: new Map(), seconds: 0 };
  const refuse = (reason: string, file: string) =>
    summary.refused.set(reason, [...(summary.refused.get(reason) ?? []), file]);
  const report = () =>
    options.onProgress?.({
      done: summary.files,
      total: source.count,
      imported: summary.imported,
      elapsedSeconds: (Date.now() - started) / 1000,
    });

  const writeBatch = async (parsed: Parsed[]) => {
    const items: Array<{ file: string; imported: ImportedCompany; ticker: string; extras: ImportExtras }> = [];
    for (const { file, answer, profile, fingerprint } of parsed) {
      if ('refused' in answer) {
        refuse(
          answer.refused.startsWith('failed') || answer.refused.startsWith('not JSON')
            ? answer.refused
            : `refused: ${answer.refused}`,
          file.name,
        );
        continue;
      }
      const ticker = profile?.tickers[0] ?? options.tickers.get(answer.imported.cik);
      if (!ticker) refuse('no ticker: neither the submissions nor company_tickers.json list one', file.name);
      else items.push({ file: file.name, imported: answer.imported, ticker, extras: { profile, fingerprint } });
    }
    const batchSize = options.batchSize ?? 25;
    for (let start = 0; start < items.length; start += batchSize) {
      const batch = items.slice(start, start + batchSize);
      const outcomes = await storeImports(dataSource, batch);
      outcomes.forEach((outcome, i) =>
        'stored' in outcome ? (summary.imported += 1) : refuse(reasonOf(outcome.error), batch[i].file),
      );
    }
  };

  // One chunk is written while the next is read and parsed: the database and the workers work at the same time.
  let writing: Promise<void> = Promise.resolve();
  try {
    let chunk: Array<{ file: BulkFile; cik: number | null }> = [];
    const flush = async () => {
      const known = await findImportedFingerprints(
        dataSource.manager,
        chunk.flatMap(({ cik }) => (cik === null ? [] : [cik])),
      );
      const parsing: Array<Promise<Parsed>> = [];
      for (const { file, cik } of chunk) {
        const submitted = cik === null ? undefined : profiles.get(cik);
        const fingerprint = submitted ? `${file.fingerprint}|${submitted.fingerprint}` : file.fingerprint;
        if (cik !== null && known.get(cik) === fingerprint) {
          summary.skipped += 1;
          continue;
        }
        const bytes = await file.read();
        parsing.push(
          pool.parse(bytes).then((answer) => ({ file, answer, profile: submitted?.profile ?? null, fingerprint })),
        );
      }
      const files = chunk.length;
      chunk = [];
      const previous = writing;
      writing = Promise.all(parsing).then(async (parsed) => {
        await previous;
        await writeBatch(parsed);
        summary.files += files;
        report();
      });
      // Handled here, thrown where it is awaited: before the next chunk is parsed, or at the end.
      writing.catch(() => undefined);
      await previous;
    };
    for await (const file of source.files()) {
      const match = CIK_IN_NAME.exec(file.name);
      chunk.push({ file, cik: match ? Number(match[1]) : null });
      if (chunk.length >= READ_AHEAD) await flush();
    }
    if (chunk.length > 0) await flush();
    await writing;
  } finally {
    await writing.catch(() => undefined);
    source.close();
    await pool.close();
  }
  summary.seconds = (Date.now() - started) / 1000;
  return summary;
}
