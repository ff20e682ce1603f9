/**
 * Accuracy of the analyst's chat answers (not part of `npm test`: the data is not shipped).
 *
 *   npm run eval:ai -- <data folder> [--companies AAPL,NVDA,TSLA] [--questions <jsonl>] [--filings] [--all-names]
 *                       [--json] [--verbose]
 *
 * Imports the companies' SEC company facts (`<folder>/sec_xbrl/companyfacts/*.json`, tickers from
 * `<folder>/sec_xbrl/company_tickers.json`) into a fresh embedded database, starts the service, sends every question of
 * `<folder>/analyst/questions_dev.jsonl` to `POST /v1/ai/chat` (`stream: false`; a follow-up's second turn continues
 * the first answer's conversation) and scores the text of each answer as `analyst/README.md` says:
 * - answerable: every gold figure appears with its sign ("-$1.2 billion", "($1.2 billion)" or "a net loss of $1.2 billion"
 *   for a negative one) at the precision it is written, and a one-period question names its period;
 * - missing: a sentence says plainly that the data is not available before any figure, and every later figure sits in a
 *   sentence labelled as another (nearest, for reference) period;
 * - "another period as if asked": a figure of the asked metric in a sentence naming another period without that label,
 *   or figures with no period at all for a one-period question (the worst answer).
 * Figures and periods are read by bench/figures.ts, not by the service's own parsers, so a parser bug cannot flatter it.
 * With --filings, the raw 10-K/10-Q HTML files of `<folder>/filings/raw_html/` of those companies are ingested too.
 * With --all-names, every other company of `company_tickers.json` is present too (its name and first ticker, no
 * statements), so each question's company must be told from thousands of names: the run reports the questions whose
 * answer names another company or asks which one is meant.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../src/shared/logger';
import { startApp } from '../src/app';
import { createApiKey } from '../src/auth/api-keys';
import { importCompanyFacts } from '../src/sec/companyfacts';
import { storeImport, tickerIndex } from '../src/sec/sec-store';
import { parseFiling } from '../src/sec/filing-sections';
import { figuresIn, goldAppears, periodsIn, previousPeriod, type Figure } from './figures';
import { BenchError, messageOf, offlineServiceConfig, Teardown } from './bench-support';
import { insertCompanies, insertImportedCompany } from '../src/companies/company.repository';
import type { Company } from '../src/companies/company.entity';
import type { EntityManager } from 'typeorm';

interface Question {
  id: string;
  kind: string;
  messages: Array<{ role: string; content: string }>;
  ticker: string;
  period: string;
  metric: string;
  gold: number[] | null;
  unit: string;
  answerable: boolean;
}

interface Options {
  folder: string;
  companies: string[];
  questions: string | null;
  filings: boolean;
  /** Every company of company_tickers.json present by name (no statements). */
  allNames: boolean;
  /** The questions whose figures are in the filings' text, and the filings they are asked of (null: skip the block). */
  filingQuestions: string | null;
  json: boolean;
  verbose: boolean;
}

function readOptions(argv: string[]): Options {
  const options: Options = {
    folder: '',
    companies: ['AAPL', 'NVDA', 'TSLA'],
    questions: null,
    filings: false,
    allNames: false,
    json: false,
    verbose: false,
    filingQuestions: path.join(__dirname, '..', '..', 'bench', 'data', 'filing_questions_dev.jsonl'),
  };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--json') options.json = true;
    else if (arg === '--verbose') options.verbose = true;
    else if (arg === '--filings') options.filings = true;
    else if (arg === '--all-names') options.allNames = true;
    else if (arg === '--companies') options.companies = String(argv[++i]).toUpperCase().split(',');
    else if (arg === '--questions') options.questions = argv[++i];
    else if (arg === '--filing-questions') options.filingQuestions = argv[++i];
    else if (arg === '--no-filing-questions') options.filingQuestions = null;
    else if (!arg.startsWith('--') && !options.folder) options.folder = arg;
    else throw new BenchError(`unknown argument ${arg}`);
  }
  if (!options.folder)
    throw new BenchError(
      'usage: npm run eval:ai -- <data folder> [--companies AAPL,NVDA,TSLA] [--questions <jsonl>] [--filings] [--all-names] [--json] [--verbose]',
    );
  return options;
}

// ---------------------------------------------------------------------------------------------------------------
// Scoring

/** "Not available"-type sentences that really say the asked data is not in the store (not "has no debt"). */
export const SAYS_MISSING =
  /\b(?:(?:is|are|was|were) not available|unavailable|(?:is|are) not (?:in|part of) the (?:stored )?data|(?:is|are) not stored|no (?:stored )?(?:data|figures?|statements?|filings?) (?:for|on|about)|(?:do|does) not have (?:data|figures?|statements?)|don't have (?:data|figures?|statements?)|is an unknown company|is not a company (?:I know|in the data))\b/i;

/** A sentence that labels its figures as another period than the one asked. */
const LABELLED_OTHER =
  /\b(?:nearest|closest|earliest|latest (?:available|stored|reported)|most recent|instead|not the period asked|another period|other period|for reference|for comparison|by comparison|compared (?:with|to)|versus|vs\.?|(?:up|down|rose|grew|increased|decreased|fell) from|year before|prior year|previous year)\b/i;

/** Words that name each metric, to tell a figure of the asked metric from a figure of another one. */
const METRIC_WORDS: Record<string, RegExp> = {
  revenue: /\b(?:revenue|sales)\b/i,
  revenue_growth: /\b(?:revenue|sales|grew|growth)\b/i,
  net_income: /\b(?:net income|net earnings|profit|net loss)\b/i,
  operating_income: /\boperating (?:income|profit|loss)\b/i,
  gross_profit: /\bgross (?:profit|loss)\b/i,
  gross_margin: /\bgross margin\b/i,
  net_margin: /\bnet (?:profit )?margin\b/i,
  eps_diluted: /\b(?:EPS|earnings per share)\b/i,
  capital_expenditure: /\b(?:capital expenditure|capex)/i,
  cash_and_equivalents: /\bcash\b/i,
  operating_cash_flow: /\boperating cash flow|cash (?:provided by|from) operat/i,
  research_and_development: /\b(?:research|R&D)\b/i,
  total_assets: /\btotal assets\b/i,
  total_equity: /\b(?:equity)\b/i,
};
const ANY_METRIC = new RegExp(
  Object.values(METRIC_WORDS)
    .map((pattern) => pattern.source)
    .join('|'),
  'i',
);

export interface Verdict {
  right: boolean;
  /** Figures about another period given as if they were the one asked (or figures with no period at all). */
  otherPeriod: boolean;
  why: string;
}

interface Sentence {
  text: string;
  start: number;
  periods: string[];
  figures: Figure[];
}

function sentencesOf(answer: string): Sentence[] {
  const sentences: Sentence[] = [];
  const pattern = /[^\n]+?(?:[.!?;](?=\s|$)|\n|$)/g;
  for (const match of answer.matchAll(pattern)) {
    const { labels, masked } = periodsIn(match[0]);
    // A figure is something a reader takes as a value: money, a percent, or a large plain number.
    const figures = figuresIn(masked).filter((figure) => figure.kind !== 'number' || Math.abs(figure.value) >= 1000);
    sentences.push({ text: match[0], start: match.index ?? 0, periods: labels, figures });
  }
  return sentences;
}

export function score(question: Question, answer: string): Verdict {
  const asked = question.period.split(',');
  const allowed = new Set(question.kind === 'growth' ? [...asked, ...asked.map(previousPeriod)] : asked);
  const sentences = sentencesOf(answer);
  const askedMetric = METRIC_WORDS[question.metric];
  const aboutAskedMetric = (text: string) => !askedMetric || askedMetric.test(text) || !ANY_METRIC.test(text);
  const namesAsked = sentences.some((sentence) => sentence.periods.some((label) => asked.includes(label)));
  const withFigures = sentences.filter((sentence) => sentence.figures.length > 0);
  const unlabelledOther = withFigures.some(
    (sentence) =>
      aboutAskedMetric(sentence.text) &&
      sentence.periods.some((label) => !allowed.has(label)) &&
      !LABELLED_OTHER.test(sentence.text),
  );
  const noPeriodAtAll =
    asked.length === 1 && withFigures.length > 0 && sentences.every((sentence) => sentence.periods.length === 0);
  const otherPeriod = unlabelledOther || noPeriodAtAll;
  if (!question.answerable) {
    const said = SAYS_MISSING.exec(answer);
    if (!said) return { right: false, otherPeriod, why: 'did not say the data is missing' };
    const saidAt = said.index;
    const before = withFigures.filter((sentence) => sentence.start + (sentence.figures[0]?.start ?? 0) < saidAt);
    if (before.length > 0) return { right: false, otherPeriod, why: 'gave a figure before saying the data is missing' };
    const unlabelled = withFigures.filter((sentence) => sentence.start > saidAt && !LABELLED_OTHER.test(sentence.text));
    if (unlabelled.length > 0)
      return {
        right: false,
        otherPeriod: true,
        why: 'a figure after "not available" is not labelled as another period',
      };
    return { right: true, otherPeriod, why: 'said missing' };
  }
  const unit = question.kind === 'growth' || question.kind === 'ratio' ? 'percent' : 'usd';
  const figures = sentences.flatMap((sentence) => sentence.figures);
  const absent = (question.gold ?? []).filter((gold) => !goldAppears(figures, gold, unit));
  if (absent.length > 0) return { right: false, otherPeriod, why: `missing figure(s) ${absent.join(', ')}` };
  if (asked.length === 1 && !namesAsked) return { right: false, otherPeriod, why: `does not name ${question.period}` };
  return { right: true, otherPeriod, why: 'right' };
}

// ---------------------------------------------------------------------------------------------------------------
// Figures from the filings' text

interface FilingQuestion {
  id: string;
  kind: string;
  ticker: string;
  period: string;
  messages: Array<{ role: string; content: string }>;
  gold: number[] | null;
  unit: 'usd' | 'percent';
  answerable: boolean;
}

/** The answer says that no filing gives the figure (and names no other as if it were it). */
export const SAYS_NOT_FOUND =
  /\b(?:no (?:stored )?(?:filing|document)s? (?:of \S+ )?(?:gives?|states?|reports?|discloses?)|not found|(?:is|are) not (?:given|disclosed|reported|available)|do(?:es)? not (?:give|disclose|report|break out))\b/i;
/** A figure offered after "not found" as a related one, not as the answer. */
const LABELLED_RELATED =
  /\b(?:for reference only|related figure|not the (?:period|figure) asked|instead|nearest|closest)\b/i;

export type FilingVerdict = 'right' | 'wrong' | 'not found' | 'no figure';

/**
 * right: every gold figure at its written precision and the asked period named (answerable), or "not found" said
 * before any figure with every later figure labelled as related (no figure in the filings); wrong: another figure
 * given as the answer; not found: the answer says no filing gives it (for an answerable question, a miss).
 */
export function scoreFiling(question: FilingQuestion, answer: string): FilingVerdict {
  const sentences = sentencesOf(answer);
  const withFigures = sentences.filter((sentence) => sentence.figures.length > 0);
  const said = SAYS_NOT_FOUND.exec(answer);
  const answered = withFigures.filter(
    (sentence) => !LABELLED_RELATED.test(sentence.text) && (!said || sentence.start < said.index),
  );
  if (question.answerable) {
    const figures = sentences.flatMap((sentence) => sentence.figures);
    const found = (question.gold ?? []).every((gold) => goldAppears(figures, gold, question.unit));
    const namesPeriod = sentences.some((sentence) => sentence.periods.includes(question.period));
    if (found && namesPeriod && !(said && said.index < (withFigures[0]?.start ?? Infinity))) return 'right';
    if (answered.length > 0) return 'wrong';
    return said ? 'not found' : 'no figure';
  }
  if (answered.length > 0) return 'wrong';
  return said ? 'not found' : 'no figure';
}

// ---------------------------------------------------------------------------------------------------------------
// Running

interface Flagged {
  text: string;
  verdict: string;
}

async function chat(
  baseUrl: string,
  key: string,
  content: string,
  conversationId: string | null,
): Promise<{ answer: string; conversationId: string | null; flagged: Flagged[] }> {
  const response = await fetch(`${baseUrl}/v1/ai/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({
      messages: [{ role: 'user', content }],
      stream: false,
      ...(conversationId ? { conversation_id: conversationId } : {}),
    }),
  });
  const body = (await response.json()) as {
    data?: { answer: string; conversation_id: string; claims?: Flagged[] };
    error?: { code: string; message: string };
  };
  if (!body.data)
    return {
      answer: `[${response.status} ${body.error?.code}: ${body.error?.message}]`,
      conversationId: null,
      flagged: [],
    };
  const flagged = (body.data.claims ?? []).filter((claim) => claim.verdict !== 'SUPPORTED');
  return { answer: body.data.answer, conversationId: body.data.conversation_id, flagged };
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  const log = (message: string) => !options.json && process.stderr.write(`${message}\n`);
  const teardown = new Teardown();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fis-eval-ai-'));
  teardown.add('remove data directory', async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  try {
    const config = offlineServiceConfig(dataDir, { ADMIN_API_KEY: process.env.ADMIN_API_KEY ?? '' });
    const app = await startApp(config, createLogger('error'));
    teardown.add('stop service', () => app.close());
    const dataSource = app.database.dataSource;

    const xbrl = path.join(options.folder, 'sec_xbrl');
    const tickers = tickerIndex(JSON.parse(fs.readFileSync(path.join(xbrl, 'company_tickers.json'), 'utf8')));
    const wanted = new Set(options.companies);
    for (const file of fs
      .readdirSync(path.join(xbrl, 'companyfacts'))
      .filter((f) => f.endsWith('.json'))
      .sort()) {
      const facts = JSON.parse(fs.readFileSync(path.join(xbrl, 'companyfacts', file), 'utf8'));
      const ticker = tickers.get(Number(facts.cik));
      if (!ticker || !wanted.has(ticker)) continue;
      try {
        const stored = await storeImport(dataSource, importCompanyFacts(facts), ticker);
        log(`${file}: ${ticker}: ${stored.statements} statements`);
      } catch (error) {
        // A company the importer refuses (an IFRS filer) is simply not in the data: questions about it are "missing".
        log(`${file}: ${ticker}: not imported: ${messageOf(error).split('.')[0]}`);
      }
    }
    if (options.filings) await ingestFilings(app, path.join(options.folder, 'filings', 'raw_html'), wanted, log);
    if (options.allNames) {
      const added = await addEveryName(
        dataSource.manager,
        JSON.parse(fs.readFileSync(path.join(xbrl, 'company_tickers.json'), 'utf8')),
      );
      log(`every name of company_tickers.json present: ${added} more companies`);
    }

    const key = (await createApiKey(dataSource, 'eval:ai', 'analyst')).key;
    const questionsFile = options.questions ?? path.join(options.folder, 'analyst', 'questions_dev.jsonl');
    const questions: Question[] = fs
      .readFileSync(questionsFile, 'utf8')
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line));
    type Tally = { questions: number; right: number; otherPeriod: number };
    const byKind: Record<string, Tally> = {};
    const totals = {
      answerable: { questions: 0, right: 0, otherPeriod: 0 },
      missing: { questions: 0, right: 0, otherPeriod: 0 },
    };
    const results: Array<{
      id: string;
      kind: string;
      right: boolean;
      otherPeriod: boolean;
      why: string;
      answer: string;
    }> = [];
    let flaggedClaims = 0;
    for (const question of questions) {
      let conversationId: string | null = null;
      let answer = '';
      let flagged: Flagged[] = [];
      for (const message of question.messages.filter((m) => m.role === 'user')) {
        ({ answer, conversationId, flagged } = await chat(app.url, key, message.content, conversationId));
      }
      const verdict = score(question, answer);
      flaggedClaims += flagged.length;
      if (flagged.length > 0) log(`FLAGGED ${question.id}: ${flagged.map((c) => `${c.text} ${c.verdict}`).join(', ')}`);
      for (const tally of [
        (byKind[question.kind] ??= { questions: 0, right: 0, otherPeriod: 0 }),
        question.answerable ? totals.answerable : totals.missing,
      ]) {
        tally.questions += 1;
        if (verdict.right) tally.right += 1;
        if (verdict.otherPeriod) tally.otherPeriod += 1;
      }
      results.push({ id: question.id, kind: question.kind, ...verdict, answer });
      if (options.verbose || !verdict.right)
        log(
          `${verdict.right ? 'RIGHT' : 'WRONG'} ${question.id} (${verdict.why}${verdict.otherPeriod ? '; another period as if asked' : ''}): ${question.messages.map((m) => m.content).join(' / ')}\n    → ${answer.slice(0, 400)}`,
        );
    }
    const percent = (t: Tally) => (t.questions ? `${((100 * t.right) / t.questions).toFixed(1)}%` : '-');
    const filingBlock = options.filingQuestions
      ? await runFilingQuestions(app, options.folder, options.filingQuestions, key, options.verbose, log)
      : null;
    if (options.json) {
      process.stdout.write(
        `${JSON.stringify({ by_kind: byKind, totals, asked_which_company: askedWhich(results), results, filings: filingBlock })}\n`,
      );
      return;
    }
    process.stdout.write(
      `\n${'kind'.padEnd(12)}${'questions'.padStart(10)}${'right'.padStart(8)}${'rate'.padStart(8)}${'other period as if asked'.padStart(26)}\n`,
    );
    for (const [kind, tally] of Object.entries(byKind)) {
      process.stdout.write(
        `${kind.padEnd(12)}${String(tally.questions).padStart(10)}${String(tally.right).padStart(8)}${percent(tally).padStart(8)}${String(tally.otherPeriod).padStart(26)}\n`,
      );
    }
    const { answerable, missing } = totals;
    process.stdout.write(`\nanswerable: ${answerable.right}/${answerable.questions} right (${percent(answerable)})\n`);
    process.stdout.write(`missing:    ${missing.right}/${missing.questions} said missing (${percent(missing)})\n`);
    process.stdout.write(`another period given as if asked: ${answerable.otherPeriod + missing.otherPeriod}\n`);
    process.stdout.write(`claims flagged by the grounding check: ${flaggedClaims}\n`);
    process.stdout.write(`answers that asked which company was meant: ${askedWhich(results)}\n`);
    if (filingBlock) printFilingBlock(filingBlock);
  } finally {
    for (const failure of await teardown.runAll()) process.stderr.write(`teardown: ${failure}\n`);
  }
}

/** How many answers asked which of several companies a name meant instead of answering. */
const askedWhich = (results: Array<{ answer: string }>) =>
  results.filter((result) => /fits several companies/.test(result.answer)).length;

/** Adds every company of company_tickers.json not yet present (by CIK or ticker): its name and first ticker. */
async function addEveryName(manager: EntityManager, json: unknown): Promise<number> {
  const present: Array<{ ticker: string; cik: number | null }> = await manager.query(
    'SELECT ticker, cik FROM companies',
  );
  const tickers = new Set(present.map((company) => company.ticker.toUpperCase()));
  const ciks = new Set(present.map((company) => company.cik));
  const rows: Array<Partial<Company>> = [];
  for (const entry of Object.values(json as Record<string, { cik_str: number; ticker: string; title: string }>)) {
    if (ciks.has(entry.cik_str) || tickers.has(entry.ticker.toUpperCase())) continue;
    ciks.add(entry.cik_str);
    tickers.add(entry.ticker.toUpperCase());
    rows.push({
      name: entry.title.slice(0, 200),
      ticker: entry.ticker,
      cik: entry.cik_str,
      sector: 'Unclassified',
      currency: 'USD',
      fiscalYearEnd: 12,
    });
  }
  for (let at = 0; at < rows.length; at += 500) await insertCompanies(manager, rows.slice(at, at + 500));
  return rows.length;
}

/** The raw 10-K/10-Q HTML files of the chosen companies, section by section, through POST /v1/documents. */
async function ingestFilings(
  app: Awaited<ReturnType<typeof startApp>>,
  folder: string,
  tickers: Set<string>,
  log: (message: string) => void,
): Promise<void> {
  if (!fs.existsSync(folder)) return;
  const adminKey = (await createApiKey(app.database.dataSource, 'eval:ai admin', 'admin')).key;
  for (const file of fs
    .readdirSync(folder)
    .filter((f) => f.endsWith('.html'))
    .sort()) {
    const filing = parseFiling(fs.readFileSync(path.join(folder, file), 'utf8'));
    const ticker = filing.ticker?.toUpperCase() ?? file.split('-')[0].toUpperCase();
    if (!tickers.has(ticker) || !filing.form || !/^10-[KQ]/.test(filing.form)) continue;
    const [company]: Array<{ id: number }> = await app.database.dataSource.query(
      'SELECT id FROM companies WHERE upper(ticker) = $1',
      [ticker],
    );
    if (!company) continue;
    for (const section of filing.sections) {
      const response = await fetch(`${app.url}/v1/documents`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': adminKey },
        body: JSON.stringify({
          company_id: company.id,
          title: `${ticker} ${filing.form} ${filing.period ?? ''}: ${section.title}`.replace(/\s+/g, ' ').slice(0, 300),
          doc_type: filing.form.replace(/\/A$/, ''),
          period: filing.period ?? undefined,
          content: section.text,
          format: 'text',
        }),
      });
      if (!response.ok) throw new BenchError(`ingesting ${file} answered ${response.status}: ${await response.text()}`);
    }
    log(`${file}: ${ticker} ${filing.form} ${filing.period ?? ''}: ${filing.sections.length} sections`);
  }
}

interface FilingBlock {
  answerable: Record<FilingVerdict, number> & { questions: number };
  notFound: Record<FilingVerdict, number> & { questions: number };
  claimsFlagged: number;
  ingestSeconds: number;
  results: Array<{ id: string; verdict: FilingVerdict; answer: string }>;
}

const emptyTally = () => ({ questions: 0, right: 0, wrong: 0, 'not found': 0, 'no figure': 0 });

/**
 * The filings of the questions' companies (all but those kept for scoring: Apple, NVIDIA, Alphabet), every section
 * through POST /v1/documents; companies without company facts are created as they would be by an import; then every
 * question, scored by `scoreFiling`.
 */
async function runFilingQuestions(
  app: Awaited<ReturnType<typeof startApp>>,
  folder: string,
  file: string,
  key: string,
  verbose: boolean,
  log: (message: string) => void,
): Promise<FilingBlock> {
  const questions: FilingQuestion[] = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));
  const tickers = new Set(questions.map((q) => q.ticker));
  const dataSource = app.database.dataSource;
  const adminKey = (await createApiKey(dataSource, 'eval:ai filings', 'admin')).key;
  const started = process.hrtime.bigint();
  for (const line of fs.readFileSync(path.join(folder, 'filings', 'filings_sections.jsonl'), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const filing = JSON.parse(line) as {
      filing_id: string;
      ticker: string;
      cik: string;
      company: string;
      form: string;
      period_end: string;
      fiscal_year: string;
      fiscal_period: string;
      sections: Record<string, string>;
      section_titles: Record<string, string>;
    };
    if (!tickers.has(filing.ticker)) continue;
    let [company]: Array<{ id: number }> = await dataSource.query('SELECT id FROM companies WHERE upper(ticker) = $1', [
      filing.ticker,
    ]);
    if (!company) {
      const id = await insertImportedCompany(dataSource.manager, {
        name: filing.company,
        ticker: filing.ticker,
        sector: 'Unclassified',
        currency: 'USD',
        fiscalYearEnd: Number(filing.period_end.slice(5, 7)),
        cik: Number(filing.cik),
        country: 'US',
      });
      company = { id };
    }
    const period =
      filing.fiscal_period === 'FY' ? `FY${filing.fiscal_year}` : `${filing.fiscal_period}-${filing.fiscal_year}`;
    for (const [section, text] of Object.entries(filing.sections)) {
      if (!text.trim()) continue;
      const response = await fetch(`${app.url}/v1/documents`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': adminKey },
        body: JSON.stringify({
          company_id: company.id,
          title: `${filing.ticker} ${filing.form} ${period}: ${filing.section_titles[section] ?? section}`.slice(
            0,
            300,
          ),
          doc_type: filing.form,
          period,
          content: text,
          format: 'text',
        }),
      });
      if (!response.ok)
        throw new BenchError(
          `ingesting ${filing.filing_id} ${section} answered ${response.status}: ${await response.text()}`,
        );
    }
    log(`${filing.filing_id}: ${Object.keys(filing.sections).length} sections`);
  }
  const ingestSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const block: FilingBlock = {
    answerable: emptyTally(),
    notFound: emptyTally(),
    claimsFlagged: 0,
    ingestSeconds,
    results: [],
  };
  for (const question of questions) {
    let conversationId: string | null = null;
    let answer = '';
    let flagged: Flagged[] = [];
    for (const message of question.messages.filter((m) => m.role === 'user'))
      ({ answer, conversationId, flagged } = await chat(app.url, key, message.content, conversationId));
    const verdict = scoreFiling(question, answer);
    const tally = question.answerable ? block.answerable : block.notFound;
    tally.questions += 1;
    tally[verdict] += 1;
    block.claimsFlagged += flagged.length;
    if (flagged.length > 0) log(`FLAGGED ${question.id}: ${flagged.map((c) => `${c.text} ${c.verdict}`).join(', ')}`);
    block.results.push({ id: question.id, verdict, answer });
    const good = question.answerable ? verdict === 'right' : verdict === 'not found';
    if (verbose || !good)
      log(
        `${verdict.toUpperCase()} ${question.id}: ${question.messages.map((m) => m.content).join(' / ')}\n    → ${answer.slice(0, 400)}`,
      );
  }
  return block;
}

function printFilingBlock(block: FilingBlock): void {
  const { answerable: a, notFound: n } = block;
  const rate = (count: number, of: number) => (of ? `${((100 * count) / of).toFixed(1)}%` : '-');
  process.stdout.write(`\nfigures from the filings' text (filings ingested in ${block.ingestSeconds.toFixed(1)} s)\n`);
  process.stdout.write(
    `figure in a filing:    ${a.right}/${a.questions} right (${rate(a.right, a.questions)}), ${a.wrong} wrong (another figure given as the answer), ${a['not found']} not found, ${a['no figure']} no figure\n`,
  );
  process.stdout.write(
    `figure in no filing:   ${n['not found']}/${n.questions} said not found (${rate(n['not found'], n.questions)}), ${n.wrong} wrong, ${n['no figure']} no figure\n`,
  );
  process.stdout.write(`claims flagged by the grounding check: ${block.claimsFlagged}\n`);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`eval:ai failed: ${messageOf(error)}\n`);
    process.exit(1);
  });
}
