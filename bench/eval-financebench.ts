/**
 * Answers to FinanceBench questions, asked of the service as a user would (not part of `npm test`: the data is not shipped).
 *
 *   npm run eval:financebench -- <data folder> [--questions <jsonl>] [--only id,id] [--limit N] [--keep <dir>] [--json] [--verbose]
 *
 * Starts the service on a fresh embedded database, creates the questions' companies (POST /v1/companies), stores
 * each of their filings as one document (POST /v1/documents, pages joined by form feeds), waits for the built-in
 * search model to cover the corpus, asks every question as written (POST /v1/ai/chat) and scores the answers whose
 * gold is a figure as bench/financebench-scoring.ts says: right, wrong or not found, and whether a right answer cites
 * a gold page. The other questions are printed with their answers, to read. `--keep <dir>` keeps the database there;
 * a later run with the same --keep and questions skips storing (for trying answer-side changes quickly).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../src/shared/logger';
import { startApp, type App } from '../src/app';
import { activeModel } from '../src/search/search-models.repository';
import { countChunks } from '../src/search/documents.repository';
import { LSA_MODEL_PREFIX, REFIT_FACTOR } from '../src/search/corpus-model';
import { BenchError, messageOf, offlineServiceConfig, Teardown } from './bench-support';
import {
  callApi,
  documentBody,
  fiscalYearEndMonth,
  readFilings,
  readJsonl,
  readSecTickers,
  tickerOf,
  type Filing,
} from './financebench-corpus';
import { citesGoldPage, goldOf, judge, type CitedPage, type Verdict } from './financebench-scoring';

export interface Question {
  id: string;
  question: string;
  company: string;
  doc_name: string;
  gics_sector: string;
  answer: string;
  question_type: string;
  question_reasoning: string | null;
  gold_passage_ids: string[];
  full_doc_in_corpus?: boolean;
}

export interface EvalOptions {
  folder: string;
  questions: string | null;
  only: string[] | null;
  limit: number | null;
  keep: string | null;
  json: boolean;
  verbose: boolean;
}

export interface QuestionResult {
  id: string;
  question: string;
  question_type: string;
  question_reasoning: string;
  gold: string;
  numeric: boolean;
  verdict: Verdict | null;
  figure: string | null;
  gold_anywhere: boolean;
  cites_gold_page: boolean;
  answer: string;
  ms: number;
}

interface Tally {
  questions: number;
  right: number;
  wrong: number;
  not_found: number;
  right_citing_gold_page: number;
}

export interface EvalReport {
  companies: number;
  filings: number;
  pages: number;
  chunks: number;
  store_seconds: number;
  search_model_seconds: number;
  answer_seconds: number;
  numeric: Tally;
  by_question_type: Record<string, Tally>;
  by_question_reasoning: Record<string, Tally>;
  results: QuestionResult[];
}

const USAGE =
  'usage: npm run eval:financebench -- <data folder> [--questions <jsonl>] [--only id,id] [--limit N] [--keep <dir>] [--json] [--verbose]';

export function readOptions(argv: string[]): EvalOptions {
  const options: EvalOptions = {
    folder: '',
    questions: null,
    only: null,
    limit: null,
    keep: null,
    json: false,
    verbose: false,
  };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--json') options.json = true;
    else if (arg === '--verbose') options.verbose = true;
    else if (arg === '--questions') options.questions = argv[++i];
    else if (arg === '--only') options.only = String(argv[++i]).split(',');
    else if (arg === '--limit') options.limit = Number(argv[++i]);
    else if (arg === '--keep') options.keep = path.resolve(argv[++i] ?? '');
    else if (!arg.startsWith('--') && !options.folder) options.folder = arg;
    else throw new BenchError(`unknown argument ${arg}\n${USAGE}`);
  }
  if (!options.folder) throw new BenchError(USAGE);
  if (options.limit !== null && !(options.limit > 0)) throw new BenchError('--limit needs a positive number');
  return options;
}

// ---------------------------------------------------------------------------------------------------------------
// Storing

interface Stored {
  adminKey: string;
  documentIds: Record<string, number>;
  pages: number;
  chunks: number;
  companies: number;
  storeSeconds: number;
}

/** Creates the companies and stores their filings through the REST API. */
async function storeCorpus(
  app: App,
  adminKey: string,
  folder: string,
  filings: Filing[],
  log: (message: string) => void,
): Promise<Stored> {
  const started = Date.now();
  const secTickers = readSecTickers(folder);
  const companyIds = new Map<string, number>();
  for (const name of [...new Set(filings.map((filing) => filing.company))]) {
    const own = filings.filter((filing) => filing.company === name);
    const { ticker, cik } = tickerOf(name, secTickers);
    const company = await callApi<{ id: number }>(app.url, adminKey, 'POST', '/v1/companies', {
      name,
      ticker,
      sector: own[0].sector,
      cik,
      fiscal_year_end_month: fiscalYearEndMonth(own) ?? undefined,
    });
    companyIds.set(name, company.id);
  }
  const documentIds: Record<string, number> = {};
  let pages = 0;
  let chunks = 0;
  for (const filing of filings) {
    const { document } = await callApi<{ document: { id: number; chunk_count: number } }>(
      app.url,
      adminKey,
      'POST',
      '/v1/documents',
      documentBody(filing, companyIds.get(filing.company) as number),
    );
    documentIds[filing.docName] = document.id;
    pages += filing.pages.length;
    chunks += document.chunk_count;
    log(`  ${filing.docName}: ${filing.pages.length} pages, ${document.chunk_count} chunks`);
  }
  return {
    adminKey,
    documentIds,
    pages,
    chunks,
    companies: companyIds.size,
    storeSeconds: (Date.now() - started) / 1000,
  };
}

/**
 * Waits until the built-in search model covers the stored corpus as the service would leave it: no refit under way
 * and none due. Questions asked during a refit would be searched with a model fitted on part of the corpus.
 */
export async function waitForSearchModel(app: App): Promise<void> {
  if (!app.database.vectorAvailable) return;
  const manager = app.database.dataSource.manager;
  for (;;) {
    const [lease] = await manager.query('SELECT holder FROM search_refit_lease WHERE expires_at > now()');
    const active = await activeModel(manager, LSA_MODEL_PREFIX);
    const chunks = await countChunks(manager);
    if (!lease && active && chunks < active.corpus_chunks * REFIT_FACTOR) return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Asking and scoring

interface ChatAnswer {
  answer: string;
  citations: Array<{ document_id: number | null; page: number | null }>;
}

async function ask(app: App, key: string, question: string): Promise<ChatAnswer> {
  try {
    return await callApi<ChatAnswer>(app.url, key, 'POST', '/v1/ai/chat', {
      messages: [{ role: 'user', content: question }],
      stream: false,
    });
  } catch (error) {
    // An error answer is no figure: it counts as not found, and is shown.
    return { answer: `[${messageOf(error)}]`, citations: [] };
  }
}

const emptyTally = (): Tally => ({ questions: 0, right: 0, wrong: 0, not_found: 0, right_citing_gold_page: 0 });

function count(tally: Tally, result: QuestionResult): void {
  tally.questions += 1;
  if (result.verdict === 'right') tally.right += 1;
  if (result.verdict === 'wrong') tally.wrong += 1;
  if (result.verdict === 'not found') tally.not_found += 1;
  if (result.verdict === 'right' && result.cites_gold_page) tally.right_citing_gold_page += 1;
}

function scoreOne(
  question: Question,
  reply: ChatAnswer,
  documentIds: Record<string, number>,
  ms: number,
): QuestionResult {
  const gold = goldOf(question.question, question.answer);
  const judgement = gold ? judge(reply.answer, gold) : null;
  const goldPages = question.gold_passage_ids.map((id) => {
    const [docName, page] = id.split('#p');
    return { documentId: documentIds[docName] ?? -1, page: Number(page) };
  });
  const citations: CitedPage[] = reply.citations.map((cited) => ({ documentId: cited.document_id, page: cited.page }));
  return {
    id: question.id,
    question: question.question,
    question_type: question.question_type,
    question_reasoning: question.question_reasoning ?? 'none given',
    gold: question.answer,
    numeric: gold !== null,
    verdict: judgement?.verdict ?? null,
    figure: judgement?.figure ?? null,
    gold_anywhere: judgement?.goldAnywhere ?? false,
    cites_gold_page: citesGoldPage(citations, goldPages),
    answer: reply.answer,
    ms,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Running

const KEPT_STATE = 'financebench-state.json';

// A long filing as one document: about 1.4 million characters of text.
const serviceConfig = (dataDir: string) =>
  offlineServiceConfig(dataDir, { ADMIN_API_KEY: '', MAX_BODY_BYTES: String(16 * 1_048_576) });

/** Runs the whole evaluation; `log` gets progress lines, `afterStoring` may look at the service once the filings are stored. */
export async function evaluateFinanceBench(
  options: EvalOptions,
  log: (message: string) => void,
  afterStoring: (app: App, adminKey: string, documentIds: Record<string, number>) => Promise<void> = async () =>
    undefined,
): Promise<EvalReport> {
  const file = options.questions ?? path.join(options.folder, 'financebench', 'queries_dev.jsonl');
  let questions = await readJsonl<Question>(file, (question) => !options.only || options.only.includes(question.id));
  if (options.limit) questions = questions.slice(0, options.limit);
  if (questions.length === 0) throw new BenchError(`no questions to ask in ${file}`);
  const filings = await readFilings(options.folder, new Set(questions.map((question) => question.doc_name)));

  const teardown = new Teardown();
  const dataDir = options.keep ?? fs.mkdtempSync(path.join(os.tmpdir(), 'fis-eval-financebench-'));
  fs.mkdirSync(dataDir, { recursive: true });
  if (!options.keep)
    teardown.add('remove data directory', async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  try {
    const app = await startApp(serviceConfig(dataDir), createLogger('error'));
    teardown.add('stop service', () => app.close());
    const stateFile = path.join(dataDir, KEPT_STATE);
    const corpusKey = filings.map((filing) => filing.docName).join(',');
    const kept =
      options.keep && fs.existsSync(stateFile)
        ? (JSON.parse(fs.readFileSync(stateFile, 'utf8')) as Stored & { corpusKey: string })
        : null;
    let stored: Stored;
    if (kept && kept.corpusKey === corpusKey) {
      stored = kept;
      log(`kept database: ${filings.length} filings already stored`);
    } else {
      if (!app.firstAdminKey) throw new BenchError(`${dataDir} holds another database: use a new --keep folder`);
      log(
        `storing ${filings.length} filings (${filings.reduce((sum, filing) => sum + filing.pages.length, 0)} pages) through the API`,
      );
      stored = await storeCorpus(app, app.firstAdminKey, options.folder, filings, log);
      if (options.keep) fs.writeFileSync(stateFile, JSON.stringify({ ...stored, corpusKey }));
    }
    await afterStoring(app, stored.adminKey, stored.documentIds);
    const modelStarted = Date.now();
    await waitForSearchModel(app);
    const searchModelSeconds = (Date.now() - modelStarted) / 1000;
    log(`search model ready after ${searchModelSeconds.toFixed(1)} s; asking ${questions.length} questions`);

    const answersStarted = Date.now();
    const results: QuestionResult[] = [];
    for (const question of questions) {
      const started = Date.now();
      const reply = await ask(app, stored.adminKey, question.question);
      const result = scoreOne(question, reply, stored.documentIds, Date.now() - started);
      results.push(result);
      if (options.verbose) log(`${result.id} ${result.verdict ?? 'text'}: ${result.answer.slice(0, 300)}`);
    }
    const numeric = emptyTally();
    const byType: Record<string, Tally> = {};
    const byReasoning: Record<string, Tally> = {};
    for (const result of results.filter((r) => r.numeric)) {
      count(numeric, result);
      count((byType[result.question_type] ??= emptyTally()), result);
      count((byReasoning[result.question_reasoning] ??= emptyTally()), result);
    }
    return {
      companies: stored.companies,
      filings: filings.length,
      pages: stored.pages,
      chunks: stored.chunks,
      store_seconds: stored.storeSeconds,
      search_model_seconds: searchModelSeconds,
      answer_seconds: (Date.now() - answersStarted) / 1000,
      numeric,
      by_question_type: byType,
      by_question_reasoning: byReasoning,
      results,
    };
  } finally {
    for (const failure of await teardown.runAll()) log(`teardown: ${failure}`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Printing

const percent = (part: number, whole: number) => (whole ? `${((100 * part) / whole).toFixed(0)}%` : '-');

function tallyRows(title: string, tallies: Record<string, Tally>): string {
  const header = `${title.padEnd(44)}${'questions'.padStart(10)}${'right'.padStart(12)}${'wrong'.padStart(12)}${'not found'.padStart(12)}${'right citing a gold page'.padStart(26)}`;
  const rows = Object.entries(tallies).map(
    ([name, t]) =>
      `${name.slice(0, 43).padEnd(44)}${String(t.questions).padStart(10)}${`${t.right} (${percent(t.right, t.questions)})`.padStart(12)}` +
      `${`${t.wrong} (${percent(t.wrong, t.questions)})`.padStart(12)}${`${t.not_found} (${percent(t.not_found, t.questions)})`.padStart(12)}${`${t.right_citing_gold_page} of ${t.right}`.padStart(26)}`,
  );
  return [header, ...rows].join('\n');
}

export function printReport(report: EvalReport): string {
  const lines: string[] = [];
  const oneLine = (text: string, max: number) =>
    (text.length > max ? `${text.slice(0, max)}…` : text).replace(/\s+/g, ' ');
  lines.push(
    `${report.filings} filings of ${report.companies} companies (${report.pages} pages, ${report.chunks} chunks) stored in ${report.store_seconds.toFixed(0)} s; ` +
      `search model ready ${report.search_model_seconds.toFixed(0)} s later; ${report.results.length} questions answered in ${report.answer_seconds.toFixed(0)} s`,
  );
  lines.push(
    '',
    `Questions whose answer is a figure: ${report.numeric.questions} of ${report.results.length}`,
    tallyRows('all', { all: report.numeric }),
  );
  lines.push(
    '',
    tallyRows('by question_type', report.by_question_type),
    '',
    tallyRows('by question_reasoning', report.by_question_reasoning),
  );
  lines.push('', 'Each question whose answer is a figure:');
  for (const result of report.results.filter((r) => r.numeric)) {
    const cited =
      result.verdict === 'right' ? (result.cites_gold_page ? ', gold page cited' : ', gold page not cited') : '';
    const elsewhere =
      result.verdict !== 'right' && result.gold_anywhere ? ' (the gold figure appears later in the answer)' : '';
    lines.push(
      `  ${result.id} ${(result.verdict ?? '').toUpperCase()}${cited}${elsewhere}: gold ${oneLine(result.gold, 40)}, answered ${result.figure ?? '-'}`,
    );
    lines.push(`    Q: ${oneLine(result.question, 200)}`, `    A: ${oneLine(result.answer, 300)}`);
  }
  lines.push('', 'Questions whose answer is text, to read:');
  for (const result of report.results.filter((r) => !r.numeric)) {
    lines.push(
      `  ${result.id} (${result.question_type}, ${result.question_reasoning})`,
      `    Q: ${oneLine(result.question, 300)}`,
    );
    lines.push(`    gold: ${oneLine(result.gold, 300)}`, `    A: ${oneLine(result.answer, 600)}`);
  }
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  const log = (message: string) => process.stderr.write(`${message}\n`);
  const report = await evaluateFinanceBench(options, log);
  process.stdout.write(options.json ? `${JSON.stringify(report)}\n` : printReport(report));
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`eval:financebench failed: ${messageOf(error)}\n`);
    process.exit(1);
  });
}
