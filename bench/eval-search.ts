/**
 * Retrieval evaluation of the search module on real public data (not part of `npm test`: the data is not shipped).
 *
 *   npm run eval:search -- <data folder> [--queries <file>] [--json] [--fusion-grid] [--skip-tatqa] [--skip-financebench] [--tatqa-limit N] [--quick] [--keep <dir>] [--details <file>]
 *
 * FinanceBench: every page of `<folder>/financebench/corpus.jsonl` is stored as one document of its company; each
 * question of `queries_dev.jsonl` (or --queries) is searched and the chunks are mapped back to pages. Reports
 * Recall@5, Recall@10, MRR@10 and document Hit@1 for the text leg, the vector leg and hybrid, globally and filtered
 * by company. TAT-QA: every context of the questions' split becomes a "company", so a company-filtered search ranks
 * the passages of one context; reports Recall@1, Recall@3 and MRR. `--quick` is for development iterations: the
 * FinanceBench companies of the first QUICK_COMPANIES questions' companies only (their whole filings), no TAT-QA.
 * `--keep <dir>` keeps the embedded database and what was stored in <dir>; a later run with the same --keep (and the
 * same --quick and --tatqa-limit) skips the ingestion and the fit, to compare query-side changes quickly.
 * `--details <file>` writes, per question and setting/mode, the rank of the first gold passage and the passages ranked
 * first (FinanceBench pages globally and by company, TAT-QA passages within the context), for looking at why questions
 * fail and at what a change moved.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { loadConfig } from '../src/config/config';
import { createLogger } from '../src/shared/logger';
import { migrate, openDatabase, withStartupLock, type Database } from '../src/db/database';
import { prepareSearch } from '../src/search/search-backend';
import { ingestDocument } from '../src/search/ingestion.service';
import type { SearchBackend } from '../src/search/search-backend.types';
import { search } from '../src/search/search.service';
import { reciprocalRankFusion, RRF_K } from '../src/search/fusion';
import type { SearchMode } from '../src/search/search.types';

const MODES: SearchMode[] = ['TEXT', 'VECTOR', 'HYBRID'];
const CHUNKS_PER_QUERY = 50;
const QUICK_COMPANIES = 8;

interface Options {
  folder: string;
  queries: string | null;
  json: boolean;
  fusionGrid: boolean;
  skipTatqa: boolean;
  skipFinancebench: boolean;
  tatqaLimit: number | null;
  quick: boolean;
  keep: string | null;
  details: string | null;
}

function readOptions(argv: string[]): Options {
  const options: Options = {
    folder: '',
    queries: null,
    json: false,
    fusionGrid: false,
    skipTatqa: false,
    skipFinancebench: false,
    tatqaLimit: null,
    quick: false,
    keep: null,
    details: null,
  };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--json') options.json = true;
    else if (arg === '--skip-tatqa') options.skipTatqa = true;
    else if (arg === '--skip-financebench') options.skipFinancebench = true;
    else if (arg === '--fusion-grid') options.fusionGrid = true;
    else if (arg === '--quick') options.quick = options.skipTatqa = true;
    else if (arg === '--queries') options.queries = argv[++i];
    else if (arg === '--tatqa-limit') options.tatqaLimit = Number(argv[++i]);
    else if (arg === '--keep') options.keep = path.resolve(argv[++i] ?? '');
    else if (arg === '--details') options.details = argv[++i];
    else if (!arg.startsWith('--') && !options.folder) options.folder = arg;
    else throw new Error(`unknown argument ${arg}`);
  }
  if (!options.folder)
    throw new Error(
      'usage: npm run eval:search -- <data folder> [--queries <file>] [--json] [--fusion-grid] [--skip-tatqa] [--skip-financebench] [--tatqa-limit N] [--quick] [--keep <dir>] [--details <file>]',
    );
  return options;
}

async function readJsonl<T>(file: string): Promise<T[]> {
  const rows: T[] = [];
  const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
  for await (const line of lines) if (line.trim()) rows.push(JSON.parse(line) as T);
  return rows;
}

function progress(json: boolean, message: string): void {
  if (!json) process.stderr.write(`${message}\n`);
}

/** Companies for the evaluation corpus; returns name → id. */
async function createCompanies(
  database: Database,
  prefix: string,
  names: string[],
  sectorOf: (name: string) => string,
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const [index, name] of names.entries()) {
    const [row] = await database.dataSource.query(
      `INSERT INTO companies (name, ticker, sector, currency, fiscal_year_end) VALUES ($1, $2, $3, 'USD', 12) RETURNING id`,
      [name.slice(0, 200), `${prefix}${index}`, sectorOf(name).slice(0, 64)],
    );
    ids.set(name, row.id);
  }
  return ids;
}

/** Stores passages as documents; returns document id → the passage ids it stands for (identical texts share one). */
async function ingestPassages(
  backend: SearchBackend,
  passages: Array<{ id: string; companyId: number; text: string; docType: string; period?: string | null }>,
  json: boolean,
): Promise<{ passagesOf: Map<number, string[]>; seconds: number; fitSeconds: number; chunks: number }> {
  const passagesOf = new Map<number, string[]>();
  const started = Date.now();
  let chunks = 0;
  for (const [index, passage] of passages.entries()) {
    if (!passage.text.trim()) continue;
    const { document, created } = await ingestDocument(backend, {
      companyId: passage.companyId,
      title: passage.id.slice(0, 300),
      docType: passage.docType,
      period: passage.period ?? null,
      content: passage.text,
      format: 'TEXT',
    });
    if (created) chunks += document.chunkCount;
    passagesOf.set(document.id, [...(passagesOf.get(document.id) ?? []), passage.id]);
    if ((index + 1) % 1000 === 0) progress(json, `  ingested ${index + 1}/${passages.length} passages`);
  }
  const fitStarted = Date.now();
  await backend.models.refitIfStale();
  return { passagesOf, seconds: (fitStarted - started) / 1000, fitSeconds: (Date.now() - fitStarted) / 1000, chunks };
}

interface StoredCorpus {
  companyIds: Map<string, number>;
  passagesOf: Map<number, string[]>;
  seconds: number;
  fitSeconds: number;
  chunks: number;
}

/** The file in a --keep folder that records what each corpus stored (company and document ids). */
const KEPT_STATE = 'eval-state.json';

/** Runs `store` unless the --keep folder already holds this corpus (`key`); records what it stored for next time. */
async function storedOnce(options: Options, key: string, store: () => Promise<StoredCorpus>): Promise<StoredCorpus> {
  const file = options.keep ? path.join(options.keep, KEPT_STATE) : null;
  const state = file && fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
  if (state[key]) {
    const kept = state[key];
    return { ...kept, companyIds: new Map(kept.companyIds), passagesOf: new Map(kept.passagesOf) };
  }
  const stored = await store();
  if (file) {
    state[key] = { ...stored, companyIds: [...stored.companyIds], passagesOf: [...stored.passagesOf] };
    fs.writeFileSync(file, JSON.stringify(state));
  }
  return stored;
}

/** Passage ids for ranked chunks: each chunk mapped to its passages, first occurrence wins. */
function toPassages(passagesOf: Map<number, string[]>, documentIds: number[]): string[] {
  const ranked: string[] = [];
  for (const documentId of documentIds)
    for (const id of passagesOf.get(documentId) ?? []) if (!ranked.includes(id)) ranked.push(id);
  return ranked;
}

async function rankChunks(backend: SearchBackend, query: string, mode: SearchMode, companyIds: number[] | null) {
  const hits = await search(backend, { query: query.slice(0, 2000), mode, topK: CHUNKS_PER_QUERY, companyIds });
  return hits.map((hit) => ({ chunkId: hit.chunkId, documentId: hit.documentId }));
}

async function rankPassages(
  backend: SearchBackend,
  passagesOf: Map<number, string[]>,
  query: string,
  mode: SearchMode,
  companyIds: number[] | null,
): Promise<string[]> {
  return toPassages(
    passagesOf,
    (await rankChunks(backend, query, mode, companyIds)).map((hit) => hit.documentId),
  );
}

/** Vector-leg weights tried by --fusion-grid (the text leg weighs 1), fused from the two legs' own rankings. */
const GRID_WEIGHTS = [0.25, 0.5, 0.75, 1, 1.5];

interface Metrics {
  queries: number;
  [metric: string]: number;
}

function score(rankings: Array<{ ranked: string[]; gold: string[] }>, cutoffs: number[], mrrAt: number): Metrics {
  const metrics: Metrics = { queries: rankings.length };
  for (const k of cutoffs) {
    metrics[`recall@${k}`] = mean(
      rankings.map(({ ranked, gold }) => gold.filter((id) => ranked.slice(0, k).includes(id)).length / gold.length),
    );
  }
  metrics[`mrr@${mrrAt}`] = mean(
    rankings.map(({ ranked, gold }) => {
      const position = ranked.slice(0, mrrAt).findIndex((id) => gold.includes(id));
      return position < 0 ? 0 : 1 / (position + 1);
    }),
  );
  return metrics;
}

const mean = (values: number[]) =>
  values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length;
const round = (value: number) => Math.round(value * 1000) / 1000;

interface FinanceBenchQuery {
  id: string;
  question: string;
  company: string;
  doc_name: string;
  gold_passage_ids: string[];
  full_doc_in_corpus: boolean;
}

/** The fiscal period a filing covers, as its ingestion would state it: FY<year> for a 10-K, Q<n>-<year> for a 10-Q. */
function periodOf(page: { doc_name: string; doc_type: string; doc_period: number }): string | null {
  if (page.doc_type === '10k') return `FY${page.doc_period}`;
  const quarter = /(\d{4})Q([1-4])/.exec(page.doc_name);
  return page.doc_type === '10q' && quarter ? `Q${quarter[2]}-${quarter[1]}` : null;
}

/** One line of --details: where a question's first gold passage came in one setting and mode, and what came first. */
type Detail = Record<string, unknown>;

function detailOf(
  query: { id: string; question: string },
  setting: string,
  mode: SearchMode,
  ranked: string[],
  gold: string[],
  extra: Detail = {},
): Detail {
  const goldRank = ranked.findIndex((id) => gold.includes(id)) + 1;
  return { id: query.id, setting, mode, goldRank, gold, top: ranked.slice(0, 5), question: query.question, ...extra };
}

async function evaluateFinanceBench(backend: SearchBackend, database: Database, options: Options, details: Detail[]) {
  let corpus = await readJsonl<{
    id: string;
    company: string;
    doc_name: string;
    doc_type: string;
    doc_period: number;
    gics_sector: string;
    text: string;
  }>(path.join(options.folder, 'financebench', 'corpus.jsonl'));
  let queries = await readJsonl<FinanceBenchQuery>(
    options.queries ?? path.join(options.folder, 'financebench', 'queries_dev.jsonl'),
  );
  if (options.quick) {
    const kept = new Set([...new Set(queries.map((query) => query.company))].slice(0, QUICK_COMPANIES));
    queries = queries.filter((query) => kept.has(query.company));
    corpus = corpus.filter((page) => kept.has(page.company));
  }
  const sectors = new Map(corpus.map((page) => [page.company, page.gics_sector]));
  const docTypes: Record<string, string> = { '10k': '10-K', '10q': '10-Q', '8k': '8-K', earnings: 'press-release' };
  const ingestion = await storedOnce(options, options.quick ? 'financebench-quick' : 'financebench', async () => {
    const companyIds = await createCompanies(
      database,
      'FB',
      [...sectors.keys()],
      (name) => sectors.get(name) ?? 'Unknown',
    );
    progress(options.json, `FinanceBench: ingesting ${corpus.length} pages of ${companyIds.size} companies`);
    const stored = await ingestPassages(
      backend,
      corpus.map((page) => ({
        id: page.id,
        companyId: companyIds.get(page.company) as number,
        text: page.text,
        docType: docTypes[page.doc_type] ?? 'other',
        period: periodOf(page),
      })),
      options.json,
    );
    return { ...stored, companyIds };
  });
  const { companyIds } = ingestion;
  const docOf = new Map(corpus.map((page) => [page.id, page.doc_name]));

  const results: Record<string, Record<string, Metrics>> = {};
  const grid: Record<string, Metrics> = {};
  for (const setting of ['global', 'company'] as const) {
    const filterOf = (query: FinanceBenchQuery) =>
      setting === 'company' ? [companyIds.get(query.company)].filter((id): id is number => id !== undefined) : null;
    if (options.fusionGrid) {
      const legs = [];
      for (const query of queries) {
        const [text, vector] = [
          await rankChunks(backend, query.question, 'TEXT', filterOf(query)),
          await rankChunks(backend, query.question, 'VECTOR', filterOf(query)),
        ];
        legs.push({ query, text, vector });
      }
      for (const weight of GRID_WEIGHTS) {
        const rankings = legs
          .filter(({ query }) => query.full_doc_in_corpus)
          .map(({ query, text, vector }) => {
            const documentOf = new Map([...text, ...vector].map((hit) => [hit.chunkId, hit.documentId]));
            const fused = reciprocalRankFusion([text.map((h) => h.chunkId), vector.map((h) => h.chunkId)], RRF_K, [
              1,
              weight,
            ]);
            return {
              ranked: toPassages(
                ingestion.passagesOf,
                fused.map((f) => documentOf.get(f.id) as number),
              ),
              gold: query.gold_passage_ids,
            };
          });
        grid[`${setting}/vector×${weight}`] = score(rankings, [5, 10], 10);
      }
    }
    for (const mode of MODES) {
      const rankings = [];
      for (const query of queries) {
        const ranked = await rankPassages(backend, ingestion.passagesOf, query.question, mode, filterOf(query));
        rankings.push({ ranked, gold: query.gold_passage_ids, full: query.full_doc_in_corpus, doc: query.doc_name });
        if (options.details && query.full_doc_in_corpus)
          details.push(detailOf(query, setting, mode, ranked, query.gold_passage_ids));
      }
      const full = rankings.filter((r) => r.full);
      const key = `${setting}/${mode.toLowerCase()}`;
      results[key] = {
        full_doc: {
          ...score(full, [5, 10], 10),
          'doc_hit@1': mean(full.map((r) => (docOf.get(r.ranked[0]) === r.doc ? 1 : 0))),
        },
        all: score(rankings, [5, 10], 10),
      };
      progress(options.json, `  ${key}: recall@5 ${round(results[key].full_doc['recall@5'])} (full-document queries)`);
    }
  }
  return {
    pages: corpus.length,
    queries: queries.length,
    chunks: ingestion.chunks,
    ingest_seconds: round(ingestion.seconds),
    fit_seconds: round(ingestion.fitSeconds),
    results,
    fusion_grid: grid,
  };
}

async function evaluateTatqa(backend: SearchBackend, database: Database, options: Options, details: Detail[]) {
  const queries = await readJsonl<{
    id: string;
    split: string;
    context_id: string;
    question: string;
    gold_passage_ids: string[];
    answer_from: string;
  }>(path.join(options.folder, 'tatqa', 'queries_dev.jsonl'));
  const limited = options.tatqaLimit ? queries.slice(0, options.tatqaLimit) : queries;
  const contexts = [...new Set(limited.map((query) => query.context_id))];
  const wanted = new Set(contexts);
  const corpus = (
    await readJsonl<{ id: string; context_id: string; text: string }>(
      path.join(options.folder, 'tatqa', 'corpus.jsonl'),
    )
  ).filter((passage) => wanted.has(passage.context_id));
  const ingestion = await storedOnce(options, `tatqa-${limited.length}`, async () => {
    const companyIds = await createCompanies(
      database,
      'TQ',
      contexts.map((id) => `tatqa ${id}`),
      () => 'TAT-QA',
    );
    progress(options.json, `TAT-QA: ingesting ${corpus.length} passages of ${contexts.length} contexts`);
    const stored = await ingestPassages(
      backend,
      corpus.map((passage) => ({
        id: passage.id,
        companyId: companyIds.get(`tatqa ${passage.context_id}`) as number,
        text: passage.text,
        docType: 'annual-report',
      })),
      options.json,
    );
    return { ...stored, companyIds };
  });
  const { companyIds } = ingestion;
  const results: Record<string, Metrics> = {};
  for (const mode of MODES) {
    const rankings = [];
    for (const query of limited) {
      const filter = [companyIds.get(`tatqa ${query.context_id}`) as number];
      const ranked = await rankPassages(backend, ingestion.passagesOf, query.question, mode, filter);
      rankings.push({ ranked, gold: query.gold_passage_ids });
      if (options.details)
        details.push(
          detailOf(query, 'tatqa-context', mode, ranked, query.gold_passage_ids, { answer_from: query.answer_from }),
        );
    }
    results[`within_context/${mode.toLowerCase()}`] = score(rankings, [1, 3], 10);
    progress(
      options.json,
      `  within_context/${mode.toLowerCase()}: recall@1 ${round(results[`within_context/${mode.toLowerCase()}`]['recall@1'])}`,
    );
  }
  return {
    passages: corpus.length,
    queries: limited.length,
    ingest_seconds: round(ingestion.seconds),
    fit_seconds: round(ingestion.fitSeconds),
    results,
  };
}

function printTable(title: string, results: Record<string, Record<string, number>>): void {
  const columns = [...new Set(Object.values(results).flatMap((metrics) => Object.keys(metrics)))];
  process.stdout.write(`\n${title}\n${['setting/mode'.padEnd(22), ...columns.map((c) => c.padStart(10))].join(' ')}\n`);
  for (const [name, metrics] of Object.entries(results)) {
    process.stdout.write(
      `${[name.padEnd(22), ...columns.map((c) => String(round(metrics[c] ?? NaN)).padStart(10))].join(' ')}\n`,
    );
  }
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  const dataDir = options.keep ?? fs.mkdtempSync(path.join(os.tmpdir(), 'fis-eval-'));
  fs.mkdirSync(dataDir, { recursive: true });
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, SEED_DEMO_DATA: 'false', LOG_LEVEL: 'error' });
  const database = await openDatabase(config, createLogger('error'));
  let backend: SearchBackend | null = null;
  try {
    await withStartupLock(database, (runner) => migrate(database, runner));
    // Every passage is stored first; the built-in model is then fitted once on the whole corpus (see ingestPassages).
    backend = await prepareSearch(database, config, createLogger('error'), { backgroundRefit: false });
    const report: Record<string, unknown> = { embedder: null, database: database.kind };
    const details: Detail[] = [];
    if (!options.skipFinancebench)
      report.financebench = await evaluateFinanceBench(backend, database, options, details);
    report.embedder = (await backend.models.current())?.model ?? 'none';
    if (!options.skipTatqa) report.tatqa = await evaluateTatqa(backend, database, options, details);
    if (options.details) fs.writeFileSync(options.details, details.map((row) => JSON.stringify(row)).join('\n'));
    if (options.json) {
      process.stdout.write(
        `${JSON.stringify(report, (_key, value) => (typeof value === 'number' ? round(value) : value))}\n`,
      );
      return;
    }
    const fb = report.financebench as Awaited<ReturnType<typeof evaluateFinanceBench>> | undefined;
    if (fb) {
      process.stdout.write(
        `\nembedder ${report.embedder}; FinanceBench ${fb.pages} pages (${fb.chunks} chunks, ingested in ${fb.ingest_seconds} s, model fitted in ${fb.fit_seconds} s), ${fb.queries} queries\n`,
      );
      printTable(
        'FinanceBench, queries whose document is fully in the corpus',
        Object.fromEntries(Object.entries(fb.results).map(([k, v]) => [k, v.full_doc])),
      );
      printTable(
        'FinanceBench, all queries',
        Object.fromEntries(Object.entries(fb.results).map(([k, v]) => [k, v.all])),
      );
      if (options.fusionGrid)
        printTable('FinanceBench fusion grid (full-document queries; text leg weight 1)', fb.fusion_grid);
    }
    if (report.tatqa) {
      const tq = report.tatqa as Awaited<ReturnType<typeof evaluateTatqa>>;
      printTable(
        `TAT-QA dev, ${tq.queries} questions ranked within their context (${tq.passages} passages)`,
        tq.results,
      );
    }
  } finally {
    await backend?.models.close();
    await database.close();
    if (!options.keep) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`eval:search failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
