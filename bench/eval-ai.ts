/**
 * Accuracy of the analyst's chat answers (not part of `npm test`: the data is not shipped).
 *
 *   npm run eval:ai -- <data folder> [--companies AAPL,NVDA,TSLA] [--questions <jsonl>] [--filings] [--json] [--verbose]
 *
 * Imports the companies' SEC company facts (`<folder>/sec_xbrl/companyfacts/*.json`, tickers from
 * `<folder>/sec_xbrl/company_tickers.json`) into a fresh embedded database, starts the service, sends every question of
 * `<folder>/analyst/questions_dev.jsonl` to `POST /v1/ai/chat` (`stream: false`; a follow-up's second turn continues
 * the first answer's conversation) and scores the text of each answer as `analyst/README.md` says:
 * - answerable: every gold figure appears at the precision it is written, and a one-period question names its period;
 * - missing: the answer says plainly that the data is not available;
 * - "another period as if asked": the answer gives figures, names some other period and neither the asked one nor a
 *   word that the asked data is missing (the worst answer).
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
import { extractNumbers } from '../src/ai/numbers';
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

/** Written forms of a period label: FY2024 → "FY2024", "FY 2024", "fiscal 2024", "fiscal year 2024"; Q3-2025 → "Q3-2025", "Q3 2025", "Q3 FY2025". */
export function periodPattern(label: string): RegExp {
  const annual = /^FY(\d{4})$/.exec(label);
  if (annual) return new RegExp(String.raw`\b(?:FY\s?${annual[1]}|fiscal(?: year)? ${annual[1]}|${annual[1]} fiscal year)\b`, 'i');
  const quarter = /^Q([1-4])-(\d{4})$/.exec(label);
  if (quarter) return new RegExp(String.raw`\b(?:Q${quarter[1]}[-\s](?:FY\s?)?${quarter[2]}|Q${quarter[1]} of fiscal(?: year)? ${quarter[2]})\b`, 'i');
  return new RegExp(label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
}

const ANY_PERIOD = /\b(?:FY\s?\d{4}|fiscal(?: year)? \d{4}|Q[1-4][-\s](?:FY\s?)?\d{4})\b/gi;

/** "not available", "no data", "not stored", "unknown company"… said plainly. */
export const SAYS_MISSING = /\b(?:not available|unavailable|no (?:stored )?(?:data|figures?|statements?)|not (?:in|part of) the (?:stored )?data|not stored|has no|have no|unknown company|is not known|does not know|don't have|do not have|not on file)\b/i;

/** Whether a gold figure appears in the text at the precision it is written there. */
export function figureAppears(text: string, gold: number, unit: string): boolean {
  const decimals = (String(gold).split('.')[1] ?? '').length;
  const goldTolerance = unit === 'percent' ? 0.5 * 10 ** -decimals : 0;
  return extractNumbers(text).some((mention) => {
    if (unit === 'percent') {
      if (mention.kind !== 'percent') return false;
      return Math.abs(Math.abs(mention.value * 100) - Math.abs(gold)) <= mention.tolerance * 100 + goldTolerance + 1e-9;
    }
    if (mention.kind !== 'money' && mention.kind !== 'number') return false;
    return Math.abs(Math.abs(mention.value) - Math.abs(gold)) <= mention.tolerance + 1e-9;
  });
}

export interface Verdict {
  right: boolean;
  /** Figures about another period given as if they were the one asked. */
  otherPeriod: boolean;
  why: string;
}

export function score(question: Question, answer: string): Verdict {
  const periods = question.period.split(',');
  const namesAsked = periods.some((p) => periodPattern(p).test(answer));
  const saysMissing = SAYS_MISSING.test(answer);
  const otherNamed = (answer.match(ANY_PERIOD) ?? []).filter((written) => !periods.some((p) => periodPattern(p).test(written)));
  const givesFigures = extractNumbers(answer).some((m) => m.kind !== 'number' || Math.abs(m.value) >= 1000);
  const otherPeriod = givesFigures && !saysMissing && !namesAsked && otherNamed.length > 0;
  if (!question.answerable) {
    return { right: saysMissing, otherPeriod, why: saysMissing ? 'said missing' : 'did not say the data is missing' };
  }
  const unit = question.kind === 'growth' || question.kind === 'ratio' ? 'percent' : 'usd';
  const absent = (question.gold ?? []).filter((gold) => !figureAppears(answer, gold, unit));
  if (absent.length > 0) return { right: false, otherPeriod, why: `missing figure(s) ${absent.join(', ')}` };
  if (periods.length === 1 && !namesAsked) return { right: false, otherPeriod, why: `does not name ${question.period}` };
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
