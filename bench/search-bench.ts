/**
 * Ingestion throughput and query latency of search, printed as figures (no pass/fail).
 *
 *   npm run bench:search -- <data folder> [--target-chunks 100000] [--rounds 3] [--json] [--keep <dir> [--refit]]
 *
 * Stage 1 ingests `<folder>/filings/corpus.jsonl` (35 real 10-K/10-Q filings, one document per filing section).
 * Stage 2 grows the index to --target-chunks with synthetic documents: the same filings' paragraphs reshuffled
 * (deterministically) under new companies, so vocabulary and lengths stay realistic. After each stage every query
 * runs --rounds times per mode and p50/p95 latencies are reported. DATABASE_URL runs it on a PostgreSQL server, in a
 * database created for the run and dropped after it; otherwise on a fresh embedded database. While each refit runs, a
 * search and a small ingestion are timed every few hundred milliseconds, to show how long a refit holds them up.
 * `--keep <dir>` keeps the embedded database in <dir> after the run; a later run with the same --keep only measures the
 * queries on it (to compare query-side changes at 100,000 chunks without ingesting again), cold and warm: cold, each
 * query kind's 20 queries once on a database just started (its buffers empty, as after a restart of the service),
 * then warm, the rounds after one pass of every kind; with `--refit` as well, it refits the built-in model on the kept
 * corpus once more, with the probes, instead (to measure a refit at that size). DB_SHARED_BUFFERS_MB applies.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config/config';
import { createLogger } from '../src/shared/logger';
import { migrate, openDatabase, withStartupLock, type Database } from '../src/db/database';
import { prepareSearch } from '../src/search/search-backend';
import { ingestDocument } from '../src/search/ingestion.service';
import type { SearchBackend } from '../src/search/search-backend.types';
import { search } from '../src/search/search.service';
import type { SearchMode } from '../src/search/search.types';
import { BenchError, Teardown, createThrowawayDatabase, messageOf, residentMb, seededRandom } from './bench-support';

const QUERIES = [
  'Apple net income fiscal 2024',
  'NVIDIA data center revenue growth',
  'risk factors supply chain disruption',
  'share repurchase program authorization',
  'goodwill impairment testing',
  'foreign currency exchange rate risk',
  'cybersecurity incident response',
  'capital expenditures property and equipment',
  'litigation and legal proceedings',
  'dividends declared per share',
  'operating lease liabilities',
  'revenue recognition performance obligations',
  'income tax provision effective rate',
  'inventory valuation reserves',
  'long-term debt senior notes maturities',
  'employees headcount human capital',
  'climate change regulation emissions',
  'interest rate sensitivity',
  'Tesla vehicle deliveries',
  'Walmart comparable sales e-commerce',
];

interface Options {
  folder: string;
  targetChunks: number;
  rounds: number;
  json: boolean;
  keep: string | null;
  refit: boolean;
}

function readOptions(argv: string[]): Options {
  const options: Options = { folder: '', targetChunks: 100_000, rounds: 3, json: false, keep: null, refit: false };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--json') options.json = true;
    else if (arg === '--target-chunks') options.targetChunks = Number(argv[++i]);
    else if (arg === '--rounds') options.rounds = Number(argv[++i]);
    else if (arg === '--keep') options.keep = path.resolve(argv[++i] ?? '');
    else if (arg === '--refit') options.refit = true;
    else if (!arg.startsWith('--') && !options.folder) options.folder = arg;
    else throw new BenchError(`unknown argument ${arg}`);
  }
  if (!options.folder)
    throw new BenchError(
      'usage: npm run bench:search -- <data folder> [--target-chunks 100000] [--rounds 3] [--json] [--keep <dir> [--refit]]',
    );
  if (options.refit && !options.keep) throw new BenchError('--refit refits a kept database: give --keep <dir> too');
  if (!Number.isInteger(options.targetChunks) || options.targetChunks < 1)
    throw new BenchError('--target-chunks must be a positive integer');
  if (!Number.isInteger(options.rounds) || options.rounds < 1)
    throw new BenchError('--rounds must be a positive integer');
  return options;
}

interface SectionDocument {
  ticker: string;
  company: string;
  title: string;
  docType: string;
  text: string;
}

/** A line of the filings corpus: one chunk of one section of one filing. */
interface CorpusChunk {
  filing_id: string;
  section: string;
  chunk_index: number;
  text: string;
  ticker: string;
  company: string;
  form: string;
}

/** One document per filing section, its chunks joined back in order. */
function readFilings(folder: string): SectionDocument[] {
  const rows = fs
    .readFileSync(path.join(folder, 'filings', 'corpus.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as CorpusChunk);
  const sections = new Map<string, { row: CorpusChunk; parts: string[] }>();
  for (const row of rows) {
    const key = `${row.filing_id}#${row.section}`;
    const entry = sections.get(key) ?? { row, parts: [] };
    entry.parts[row.chunk_index] = row.text;
    sections.set(key, entry);
  }
  return [...sections.entries()].map(([key, { row, parts }]) => ({
    ticker: row.ticker,
    company: row.company,
    title: key,
    docType: row.form === '10-Q' ? '10-Q' : '10-K',
    text: parts.filter(Boolean).join('\n\n'),
  }));
}

async function createCompany(database: Database, name: string, ticker: string): Promise<number> {
  const [row] = await database.dataSource.query(
    `INSERT INTO companies (name, ticker, sector, currency, fiscal_year_end) VALUES ($1, $2, 'Benchmark', 'USD', 12) RETURNING id`,
    [name, ticker],
  );
  return row.id;
}

/** Ingests documents in order, stopping once `stopAtChunks` chunks are stored. */
async function ingestAll(
  backend: SearchBackend,
  documents: Iterable<SectionDocument & { companyId: number }>,
  log: (m: string) => void,
  stopAtChunks = Infinity,
) {
  const started = process.hrtime.bigint();
  let chunks = 0;
  let ingested = 0;
  for (const document of documents) {
    if (chunks >= stopAtChunks) break;
    const index = ingested;
    ingested += 1;
    const result = await ingestDocument(backend, {
      companyId: document.companyId,
      title: document.title.slice(0, 300),
      docType: document.docType,
      content: document.text,
      format: 'TEXT',
    });
    if (result.created) chunks += result.document.chunkCount;
    if ((index + 1) % 200 === 0) log(`  ${index + 1} documents, ${chunks} chunks`);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return {
    documents: ingested,
    chunks,
    seconds,
    chunksPerSecond: chunks / seconds,
    fitSeconds: 0,
    duringRefit: null as null | Awaited<ReturnType<typeof timedRefit>>['during'],
  };
}

const PROBE_INTERVAL_MS = 250;
const RUN = new Date().toISOString();
/** Probes timed before a refit starts: how long the same search and ingestion take without one. */
const BASELINE_PROBES = 20;

const millisecondsSince = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e6;

/** Times a hybrid search, then the ingestion of a one-paragraph document, every PROBE_INTERVAL_MS while `running()`. */
async function probeRequests(backend: SearchBackend, companyId: number, running: (probes: number) => boolean) {
  const searches: number[] = [];
  const ingestions: number[] = [];
  for (let i = 0; running(i); i += 1) {
    let started = process.hrtime.bigint();
    await search(backend, { query: QUERIES[i % QUERIES.length], mode: 'HYBRID', topK: 10 });
    searches.push(millisecondsSince(started));
    started = process.hrtime.bigint();
    // The run's start in the text: a probe identical to one of an earlier run would not be stored again, and `--refit`
    // needs the baseline probes' new chunks to change the corpus the model is fitted on.
    await ingestDocument(backend, {
      companyId,
      title: `refit probe ${i}`,
      docType: 'other',
      content: `Probe paragraph ${i} of run ${RUN} written while the model is refitted.`,
      format: 'TEXT',
    });
    ingestions.push(millisecondsSince(started));
    await new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS));
  }
  const longest = (values: number[]) => (values.length > 0 ? Math.max(...values) : 0);
  const median = (values: number[]) =>
    values.length > 0
      ? percentile(
          [...values].sort((a, b) => a - b),
          50,
        )
      : 0;
  return {
    searches: searches.length,
    longestSearchMs: longest(searches),
    medianSearchMs: median(searches),
    ingestions: ingestions.length,
    longestIngestionMs: longest(ingestions),
    medianIngestionMs: median(ingestions),
  };
}

/**
 * Refits the built-in model on the grown corpus and re-embeds every chunk; meanwhile a hybrid search and the ingestion
 * of a one-paragraph document are timed every PROBE_INTERVAL_MS, so the longest wait either saw is what the refit
 * held them up at most. The same probes are timed BASELINE_PROBES times first, without a refit, for comparison.
 */
async function timedRefit(backend: SearchBackend, companyId: number, log: (m: string) => void) {
  const baseline = await probeRequests(backend, companyId, (probes) => probes < BASELINE_PROBES);
  let refitting = true;
  const probe = probeRequests(backend, companyId, () => refitting);
  const started = process.hrtime.bigint();
  const refitted = await backend.models.refitIfStale().finally(() => {
    refitting = false;
  });
  const seconds = millisecondsSince(started) / 1000;
  const during = { ...(await probe), baseline };
  if (refitted) {
    log(
      `  model fitted and every chunk re-embedded in ${seconds.toFixed(1)} s; meanwhile ${during.searches} searches (longest ${during.longestSearchMs.toFixed(0)} ms) and ${during.ingestions} ingestions (longest ${during.longestIngestionMs.toFixed(0)} ms)`,
    );
  }
  return { fitSeconds: refitted ? seconds : 0, during };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

type Latency = Record<string, { p50: number; p95: number; max: number; queries: number }>;

/** The query kinds measured: every mode, for all companies and for one. */
function queryKinds(backend: SearchBackend): Array<{ name: string; mode: SearchMode; filtered: boolean }> {
  const modes: SearchMode[] = backend.vectorAvailable ? ['TEXT', 'VECTOR', 'HYBRID'] : ['TEXT'];
  return [false, true].flatMap((filtered) =>
    modes.map((mode) => ({
      name: `${filtered ? 'one company' : 'all companies'}/${mode.toLowerCase()}`,
      mode,
      filtered,
    })),
  );
}

async function timeQueries(
  backend: SearchBackend,
  { mode, filtered }: { mode: SearchMode; filtered: boolean },
  rounds: number,
  companyId: number,
): Promise<Latency[string]> {
  const timings: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    for (const query of QUERIES) {
      const started = process.hrtime.bigint();
      await search(backend, { query, mode, topK: 10, companyIds: filtered ? [companyId] : null });
      timings.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  }
  timings.sort((a, b) => a - b);
  return {
    p50: percentile(timings, 50),
    p95: percentile(timings, 95),
    max: timings[timings.length - 1],
    queries: timings.length,
  };
}

async function measureQueries(backend: SearchBackend, rounds: number, companyId: number): Promise<Latency> {
  const figures: Latency = {};
  for (const kind of queryKinds(backend)) figures[kind.name] = await timeQueries(backend, kind, rounds, companyId);
  return figures;
}

interface Stage {
  name: string;
  totalChunks: number;
  ingestion: Awaited<ReturnType<typeof ingestAll>> | null;
  latency: Latency;
  /** Each query kind's 20 queries once, right after the embedded database started (kept index only). */
  cold?: Latency;
  /** Resident memory of the embedded database's process after the queries, in MB (Linux only). */
  databaseRssMb?: number | null;
}

async function countChunks(database: Database): Promise<number> {
  const [{ chunks }] = await database.dataSource.query('SELECT count(*)::int AS chunks FROM document_chunks');
  return chunks;
}

/** What a kept database needs for a later run: the company the one-company queries use and how big the index is. */
const KEPT_STATE = 'bench-state.json';

async function buildIndex(database: Database, backend: SearchBackend, options: Options, log: (m: string) => void) {
  const filings = readFilings(options.folder);
  const companyIds = new Map<string, number>();
  for (const document of filings) {
    if (!companyIds.has(document.ticker))
      companyIds.set(document.ticker, await createCompany(database, document.company, document.ticker));
  }
  log(`stage 1: ${filings.length} filing sections of ${companyIds.size} companies`);
  const firstCompany = companyIds.get('AAPL') ?? [...companyIds.values()][0];
  const real = await ingestAll(
    backend,
    filings.map((d) => ({ ...d, companyId: companyIds.get(d.ticker) as number })),
    log,
  );
  ({ fitSeconds: real.fitSeconds, during: real.duringRefit } = await timedRefit(backend, firstCompany, log));
  const stages: Stage[] = [
    {
      name: 'filings',
      totalChunks: real.chunks,
      ingestion: real,
      latency: await measureQueries(backend, options.rounds, firstCompany),
    },
  ];

  let totalChunks = real.chunks;
  if (options.targetChunks > totalChunks) {
    log(`stage 2: synthetic documents up to ${options.targetChunks} chunks`);
    const paragraphs = filings.flatMap((d) => d.text.split(/\n\s*\n/)).filter((p) => p.length > 80);
    const next = seededRandom(42);
    const syntheticCompanies: number[] = [];
    for (let i = 0; i < 200; i += 1)
      syntheticCompanies.push(await createCompany(database, `Synthetic company ${i}`, `SYN${i}`));
    // Generated lazily: ingestion stops as soon as the target is reached.
    const synthetic = (function* () {
      for (let i = 0; ; i += 1) {
        const count = 5 + Math.floor(next() * 40);
        const text = Array.from({ length: count }, () => paragraphs[Math.floor(next() * paragraphs.length)]).join(
          '\n\n',
        );
        yield {
          ticker: '',
          company: '',
          title: `synthetic ${i}`,
          docType: 'other',
          text,
          companyId: syntheticCompanies[i % syntheticCompanies.length],
        };
      }
    })();
    const grown = await ingestAll(backend, synthetic, log, options.targetChunks - totalChunks);
    ({ fitSeconds: grown.fitSeconds, during: grown.duringRefit } = await timedRefit(backend, firstCompany, log));
    totalChunks += grown.chunks;
    if (options.keep)
      fs.writeFileSync(path.join(options.keep, KEPT_STATE), JSON.stringify({ firstCompany, totalChunks }));
    stages.push({
      name: 'synthetic scale-up',
      totalChunks,
      ingestion: grown,
      latency: await measureQueries(backend, options.rounds, firstCompany),
    });
  } else if (options.keep) {
    fs.writeFileSync(path.join(options.keep, KEPT_STATE), JSON.stringify({ firstCompany, totalChunks }));
  }
  return stages;
}

/**
 * `--keep <dir> --refit`: the model in use is marked as fitted on a corpus a third smaller than the kept one, so a
 * refit is due, then refitted with the probes as after a stage. (The probes stored by earlier runs change the sample,
 * so the fit is a new model, never the same one again.)
 */
async function refitKept(
  database: Database,
  backend: SearchBackend,
  companyId: number,
  log: (m: string) => void,
): Promise<Stage> {
  const totalChunks = await countChunks(database);
  await database.dataSource.query(
    'UPDATE embedding_models SET corpus_chunks = floor($1 / 1.5) WHERE ready_at IS NOT NULL',
    [totalChunks],
  );
  log(`refitting the built-in model on the kept ${totalChunks} chunks`);
  const { fitSeconds, during } = await timedRefit(backend, companyId, log);
  const ingestion = { documents: 0, chunks: 0, seconds: 0, chunksPerSecond: 0, fitSeconds, duringRefit: during };
  return { name: 'kept index, refitted', totalChunks, ingestion, latency: {} };
}

type Opened = { database: Database; backend: SearchBackend; close: () => Promise<void> };

/** Each query kind's 20 queries once, each kind on a database just started (so on empty buffers). */
async function measureCold(open: () => Promise<Opened>, companyId: number, log: (m: string) => void): Promise<Latency> {
  const figures: Latency = {};
  let kinds: ReturnType<typeof queryKinds> | null = null;
  for (let i = 0; kinds === null || i < kinds.length; i += 1) {
    const { backend, close } = await open();
    try {
      kinds ??= queryKinds(backend);
      figures[kinds[i].name] = await timeQueries(backend, kinds[i], 1, companyId);
      log(`  cold ${kinds[i].name}: p95 ${figures[kinds[i].name].p95.toFixed(0)} ms`);
    } finally {
      await close();
    }
  }
  return figures;
}

/** The kept index warm: one pass of every query kind first (not counted), then the rounds. */
async function measureKept(
  database: Database,
  backend: SearchBackend,
  rounds: number,
  companyId: number,
  cold: Latency,
): Promise<Stage> {
  await measureQueries(backend, 1, companyId);
  const latency = await measureQueries(backend, rounds, companyId);
  return {
    name: 'kept index',
    totalChunks: await countChunks(database),
    ingestion: null,
    latency,
    cold,
    databaseRssMb: residentMb(database.childPid),
  };
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  const log = (message: string) => options.json || process.stderr.write(`${message}\n`);
  const teardown = new Teardown();
  const dataDir = options.keep ?? fs.mkdtempSync(path.join(os.tmpdir(), 'fis-search-bench-'));
  if (options.keep) fs.mkdirSync(dataDir, { recursive: true });
  else teardown.add('remove temp dir', () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const kept =
    options.keep && fs.existsSync(path.join(dataDir, KEPT_STATE))
      ? (JSON.parse(fs.readFileSync(path.join(dataDir, KEPT_STATE), 'utf8')) as {
          firstCompany: number;
          totalChunks: number;
        })
      : null;
  try {
    const serverUrl = process.env.DATABASE_URL?.trim() || null;
    if (serverUrl && options.keep) throw new BenchError('--keep keeps an embedded database; leave DATABASE_URL unset');
    const throwaway = serverUrl ? await createThrowawayDatabase(serverUrl, teardown) : null;
    const config = loadConfig({
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: throwaway?.url,
      SEED_DEMO_DATA: 'false',
      LOG_LEVEL: 'error',
    });
    const open = async () => {
      const database = await openDatabase(config, createLogger('error'));
      await withStartupLock(database, (runner) => migrate(database, runner));
      // Bulk loading: the built-in model is fitted once after each stage (timed), not again and again as it grows.
      const backend = await prepareSearch(database, config, createLogger('error'), { backgroundRefit: false });
      return {
        database,
        backend,
        close: async () => {
          await backend.models.close();
          await database.close();
        },
      };
    };
    // A kept index is measured cold first: each query kind right after the database started, its buffers empty.
    const cold = kept && !options.refit ? await measureCold(open, kept.firstCompany, log) : undefined;
    const { database, backend, close } = await open();
    teardown.add('close database', close);

    const stages = kept
      ? [
          options.refit
            ? await refitKept(database, backend, kept.firstCompany, log)
            : await measureKept(database, backend, options.rounds, kept.firstCompany, cold as Latency),
        ]
      : await buildIndex(database, backend, options, log);

    const report = {
      database: throwaway?.description ?? 'embedded PostgreSQL (PGlite)',
      embedder: (await backend.models.current())?.model ?? 'none',
      vector: backend.vectorAvailable,
      stages,
    };
    if (options.json) {
      process.stdout.write(`${JSON.stringify(report)}\n`);
      return;
    }
    process.stdout.write(
      `\nsearch benchmark: ${report.database}, embedder ${report.embedder}${report.vector ? '' : ' (no pgvector: text leg only)'}\n`,
    );
    for (const stage of stages) {
      const { ingestion } = stage;
      if (!ingestion || ingestion.documents === 0)
        process.stdout.write(`\n${stage.name}: ${stage.totalChunks} chunks, reused from ${dataDir}\n`);
      else
        process.stdout.write(
          `\n${stage.name}: ${ingestion.documents} documents, ${ingestion.chunks} chunks in ${ingestion.seconds.toFixed(1)} s = ${ingestion.chunksPerSecond.toFixed(0)} chunks/s; index now ${stage.totalChunks} chunks\n`,
        );
      if (ingestion && ingestion.fitSeconds > 0)
        process.stdout.write(
          `built-in model refitted on ${stage.totalChunks} chunks and every chunk re-embedded: ${ingestion.fitSeconds.toFixed(1)} s\n`,
        );
      const during = ingestion?.duringRefit;
      if (during && ingestion && ingestion.fitSeconds > 0) {
        process.stdout.write(
          `during the refit: ${during.searches} hybrid searches, longest ${during.longestSearchMs.toFixed(0)} ms (median ${during.medianSearchMs.toFixed(0)}); ${during.ingestions} ingestions, longest ${during.longestIngestionMs.toFixed(0)} ms (median ${during.medianIngestionMs.toFixed(0)})\n`,
        );
        const { baseline } = during;
        process.stdout.write(
          `the same probes before the refit: ${baseline.searches} hybrid searches, longest ${baseline.longestSearchMs.toFixed(0)} ms (median ${baseline.medianSearchMs.toFixed(0)}); ${baseline.ingestions} ingestions, longest ${baseline.longestIngestionMs.toFixed(0)} ms (median ${baseline.medianIngestionMs.toFixed(0)})\n`,
        );
      }
      if (Object.keys(stage.latency).length === 0) continue;
      const table = (title: string, latency: Latency) => {
        process.stdout.write(
          `${title.padEnd(24)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}${'max ms'.padStart(9)}${'runs'.padStart(7)}\n`,
        );
        for (const [name, figures] of Object.entries(latency)) {
          process.stdout.write(
            `${name.padEnd(24)}${figures.p50.toFixed(1).padStart(9)}${figures.p95.toFixed(1).padStart(9)}${figures.max.toFixed(1).padStart(9)}${String(figures.queries).padStart(7)}\n`,
          );
        }
      };
      if (stage.cold) table('cold (top 10)', stage.cold);
      table(stage.cold ? 'warm (top 10)' : 'query (top 10)', stage.latency);
      if (stage.databaseRssMb)
        process.stdout.write(
          `embedded database process: ${stage.databaseRssMb.toFixed(0)} MB resident after the queries\n`,
        );
    }
  } finally {
    const failures = await teardown.runAll();
    for (const failure of failures) process.stderr.write(`teardown: ${failure}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:search failed: ${messageOf(error)}\n`);
  process.exit(1);
});
