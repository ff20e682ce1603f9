/**
 * Accuracy of the analyst's chat answers (not part of `npm test`: the data is not shipped).
 *
 *   npm run eval:ai -- <data folder> [--companies AAPL,NVDA,TSLA] [--questions <jsonl>] [--filings] [--json] [--verbose]
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
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config/config';
import { createLogger } from '../src/shared/logger';
import { startApp } from '../src/app';
import { createApiKey } from '../src/auth/api-keys';
import { importCompanyFacts } from '../src/sec/companyfacts';
import { storeImport, tickerIndex } from '../src/sec/sec-store';
import { parseFiling } from '../src/sec/filing-sections';
import { figuresIn, goldAppears, periodsIn, previousPeriod, type Figure } from './figures';
import { BenchError, messageOf, Teardown } from './bench-support';

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
  json: boolean;
  verbose: boolean;
}

function readOptions(argv: string[]): Options {
  const options: Options = { folder: '', companies: ['AAPL', 'NVDA', 'TSLA'], questions: null, filings: false, json: false, verbose: false };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--json') options.json = true;
    else if (arg === '--verbose') options.verbose = true;
    else if (arg === '--filings') options.filings = true;
    else if (arg === '--companies') options.companies = String(argv[++i]).toUpperCase().split(',');
    else if (arg === '--questions') options.questions = argv[++i];
    else if (!arg.startsWith('--') && !options.folder) options.folder = arg;
    else throw new BenchError(`unknown argument ${arg}`);
  }
  if (!options.folder) throw new BenchError('usage: npm run eval:ai -- <data folder> [--companies AAPL,NVDA,TSLA] [--questions <jsonl>] [--filings] [--json] [--verbose]');
  return options;
}

// ---------------------------------------------------------------------------------------------------------------
// Scoring

/** "Not available"-type sentences that really say the asked data is not in the store (not "has no debt"). */
export const SAYS_MISSING = /\b(?:(?:is|are|was|were) not available|unavailable|(?:is|are) not (?:in|part of) the (?:stored )?data|(?:is|are) not stored|no (?:stored )?(?:data|figures?|statements?|filings?) (?:for|on|about)|(?:do|does) not have (?:data|figures?|statements?)|don't have (?:data|figures?|statements?)|is an unknown company|is not a company (?:I know|in the data))\b/i;

/** A sentence that labels its figures as another period than the one asked. */
const LABELLED_OTHER = /\b(?:nearest|closest|earliest|latest (?:available|stored|reported)|most recent|instead|not the period asked|another period|other period|for reference|for comparison|by comparison|compared (?:with|to)|versus|vs\.?|(?:up|down|rose|grew|increased|decreased|fell) from|year before|prior year|previous year)\b/i;

/** Words that name each metric, to tell a figure of the asked metric from a figure of another one. */
const METRIC_WORDS: Record<string, RegExp> = {
  revenue: /\b(?:revenue|sales)\b/i, revenue_growth: /\b(?:revenue|sales|grew|growth)\b/i, net_income: /\b(?:net income|net earnings|profit|net loss)\b/i,
  operating_income: /\boperating (?:income|profit|loss)\b/i, gross_profit: /\bgross (?:profit|loss)\b/i, gross_margin: /\bgross margin\b/i,
  net_margin: /\bnet (?:profit )?margin\b/i, eps_diluted: /\b(?:EPS|earnings per share)\b/i, capital_expenditure: /\b(?:capital expenditure|capex)/i,
  cash_and_equivalents: /\bcash\b/i, operating_cash_flow: /\boperating cash flow|cash (?:provided by|from) operat/i,
  research_and_development: /\b(?:research|R&D)\b/i, total_assets: /\btotal assets\b/i, total_equity: /\b(?:equity)\b/i,
};
const ANY_METRIC = new RegExp(Object.values(METRIC_WORDS).map((pattern) => pattern.source).join('|'), 'i');

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
  const unlabelledOther = withFigures.some((sentence) => aboutAskedMetric(sentence.text)
    && sentence.periods.some((label) => !allowed.has(label)) && !LABELLED_OTHER.test(sentence.text));
  const noPeriodAtAll = asked.length === 1 && withFigures.length > 0 && sentences.every((sentence) => sentence.periods.length === 0);
  const otherPeriod = unlabelledOther || noPeriodAtAll;
  if (!question.answerable) {
    const said = SAYS_MISSING.exec(answer);
    if (!said) return { right: false, otherPeriod, why: 'did not say the data is missing' };
    const saidAt = said.index;
    const before = withFigures.filter((sentence) => sentence.start + (sentence.figures[0]?.start ?? 0) < saidAt);
    if (before.length > 0) return { right: false, otherPeriod, why: 'gave a figure before saying the data is missing' };
    const unlabelled = withFigures.filter((sentence) => sentence.start > saidAt && !LABELLED_OTHER.test(sentence.text));
    if (unlabelled.length > 0) return { right: false, otherPeriod: true, why: 'a figure after "not available" is not labelled as another period' };
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
// Running

interface Flagged {
  text: string;
  verdict: string;
}

async function chat(baseUrl: string, key: string, content: string, conversationId: string | null): Promise<{ answer: string; conversationId: string | null; flagged: Flagged[] }> {
  const response = await fetch(`${baseUrl}/v1/ai/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ messages: [{ role: 'user', content }], stream: false, ...(conversationId ? { conversation_id: conversationId } : {}) }),
  });
  const body = (await response.json()) as { data?: { answer: string; conversation_id: string; claims?: Flagged[] }; error?: { code: string; message: string } };
  if (!body.data) return { answer: `[${response.status} ${body.error?.code}: ${body.error?.message}]`, conversationId: null, flagged: [] };
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
    const config = loadConfig({
      ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', SEED_DEMO_DATA: 'false', OPENAI_API_KEY: '', LOG_LEVEL: 'error',
      RATE_LIMIT_READS: '1000000/60', RATE_LIMIT_AI: '1000000/60',
    });
    const app = await startApp(config, createLogger('error'));
    teardown.add('stop service', () => app.close());
    const dataSource = app.database.dataSource;

    const xbrl = path.join(options.folder, 'sec_xbrl');
    const tickers = tickerIndex(JSON.parse(fs.readFileSync(path.join(xbrl, 'company_tickers.json'), 'utf8')));
    const wanted = new Set(options.companies);
    for (const file of fs.readdirSync(path.join(xbrl, 'companyfacts')).filter((f) => f.endsWith('.json')).sort()) {
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

    const key = (await createApiKey(dataSource, 'eval:ai', 'analyst')).key;
    const questionsFile = options.questions ?? path.join(options.folder, 'analyst', 'questions_dev.jsonl');
    const questions: Question[] = fs.readFileSync(questionsFile, 'utf8').split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line));
    type Tally = { questions: number; right: number; otherPeriod: number };
    const byKind: Record<string, Tally> = {};
    const totals = { answerable: { questions: 0, right: 0, otherPeriod: 0 }, missing: { questions: 0, right: 0, otherPeriod: 0 } };
    const results: Array<{ id: string; kind: string; right: boolean; otherPeriod: boolean; why: string; answer: string }> = [];
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
      for (const tally of [(byKind[question.kind] ??= { questions: 0, right: 0, otherPeriod: 0 }), question.answerable ? totals.answerable : totals.missing]) {
        tally.questions += 1;
        if (verdict.right) tally.right += 1;
        if (verdict.otherPeriod) tally.otherPeriod += 1;
      }
      results.push({ id: question.id, kind: question.kind, ...verdict, answer });
      if (options.verbose || !verdict.right) log(`${verdict.right ? 'RIGHT' : 'WRONG'} ${question.id} (${verdict.why}${verdict.otherPeriod ? '; another period as if asked' : ''}): ${question.messages.map((m) => m.content).join(' / ')}\n    → ${answer.slice(0, 400)}`);
    }
    const percent = (t: Tally) => (t.questions ? `${((100 * t.right) / t.questions).toFixed(1)}%` : '-');
    if (options.json) {
      process.stdout.write(`${JSON.stringify({ by_kind: byKind, totals, results })}\n`);
      return;
    }
    process.stdout.write(`\n${'kind'.padEnd(12)}${'questions'.padStart(10)}${'right'.padStart(8)}${'rate'.padStart(8)}${'other period as if asked'.padStart(26)}\n`);
    for (const [kind, tally] of Object.entries(byKind)) {
      process.stdout.write(`${kind.padEnd(12)}${String(tally.questions).padStart(10)}${String(tally.right).padStart(8)}${percent(tally).padStart(8)}${String(tally.otherPeriod).padStart(26)}\n`);
    }
    const { answerable, missing } = totals;
    process.stdout.write(`\nanswerable: ${answerable.right}/${answerable.questions} right (${percent(answerable)})\n`);
    process.stdout.write(`missing:    ${missing.right}/${missing.questions} said missing (${percent(missing)})\n`);
    process.stdout.write(`another period given as if asked: ${answerable.otherPeriod + missing.otherPeriod}\n`);
    process.stdout.write(`claims flagged by the grounding check: ${flaggedClaims}\n`);
  } finally {
    for (const failure of await teardown.runAll()) process.stderr.write(`teardown: ${failure}\n`);
  }
}

/** The raw 10-K/10-Q HTML files of the chosen companies, section by section, through POST /v1/documents. */
async function ingestFilings(app: Awaited<ReturnType<typeof startApp>>, folder: string, tickers: Set<string>, log: (message: string) => void): Promise<void> {
  if (!fs.existsSync(folder)) return;
  const adminKey = (await createApiKey(app.database.dataSource, 'eval:ai admin', 'admin')).key;
  for (const file of fs.readdirSync(folder).filter((f) => f.endsWith('.html')).sort()) {
    const filing = parseFiling(fs.readFileSync(path.join(folder, file), 'utf8'));
    const ticker = filing.ticker?.toUpperCase() ?? file.split('-')[0].toUpperCase();
    if (!tickers.has(ticker) || !filing.form || !/^10-[KQ]/.test(filing.form)) continue;
    const [company]: Array<{ id: number }> = await app.database.dataSource.query('SELECT id FROM companies WHERE upper(ticker) = $1', [ticker]);
    if (!company) continue;
    for (const section of filing.sections) {
      const response = await fetch(`${app.url}/v1/documents`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': adminKey },
        body: JSON.stringify({
          company_id: company.id, title: `${ticker} ${filing.form} ${filing.period ?? ''}: ${section.title}`.replace(/\s+/g, ' ').slice(0, 300),
          doc_type: filing.form.replace(/\/A$/, ''), period: filing.period ?? undefined, content: section.text, format: 'text',
        }),
      });
      if (!response.ok) throw new BenchError(`ingesting ${file} answered ${response.status}: ${await response.text()}`);
    }
    log(`${file}: ${ticker} ${filing.form} ${filing.period ?? ''}: ${filing.sections.length} sections`);
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`eval:ai failed: ${messageOf(error)}\n`);
    process.exit(1);
  });
}
