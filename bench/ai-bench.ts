/**
 * Time to the first streamed chat token with the built-in analyst, against a baseline measured in the same run.
 *
 *   npm run bench:ai [-- --rounds N] [--json]
 *
 * Starts the service on a fresh embedded database with the demo data and measures, over HTTP:
 * - baseline: a plain read, GET /v1/companies/{id}/income-statement (time to the whole response);
 * - chat: POST /v1/ai/chat streamed, time to the first `token` event and to the `done` event;
 * - summarize: POST /v1/ai/summarize (time to the whole response);
 * - a statement answer and a document-figure answer: the first token of "What was NWSC's revenue in FY…?" and of a
 *   product line's revenue read from a filing stored for the run (the target: within 2x of the statement answer's).
 * It prints p50/p95 per measure and each p50 as a ratio to the baseline's p50.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../src/shared/logger';
import { startApp } from '../src/app';
import { createApiKey } from '../src/auth/api-keys';
import { BenchError, messageOf, offlineServiceConfig, percentile, Teardown } from './bench-support';

const QUESTIONS = [
  'How is NWSC doing on cash flow?',
  'What are the risks at NWSC?',
  'Is NWSC profitable, and how did margins move?',
  'How much debt does NWSC carry?',
];

function readOptions(argv: string[]): { rounds: number; json: boolean } {
  const options = { rounds: 40, json: false };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--json') options.json = true;
    else if (argv[i] === '--rounds') options.rounds = Number(argv[++i]);
    else throw new BenchError(`unknown argument ${argv[i]}; usage: npm run bench:ai -- [--rounds N] [--json]`);
  }
  if (!Number.isInteger(options.rounds) || options.rounds < 1)
    throw new BenchError('--rounds must be a positive whole number');
  return options;
}

const elapsedMs = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e6;

function summary(samples: number[]): { p50: number; p95: number; runs: number } {
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), runs: samples.length };
}

/** Headers of every call: AI needs an analyst key. */
const headers: Record<string, string> = { 'content-type': 'application/json' };

async function timeRead(url: string): Promise<number> {
  const started = process.hrtime.bigint();
  const response = await fetch(url, { headers });
  await response.text();
  if (response.status !== 200) throw new BenchError(`GET ${url} answered ${response.status}`);
  return elapsedMs(started);
}

/** Streams one chat answer; returns the time to the first token and to `done`, and the number of token events. */
async function timeChat(
  baseUrl: string,
  question: string,
): Promise<{ firstToken: number; done: number; tokens: number }> {
  const started = process.hrtime.bigint();
  const response = await fetch(`${baseUrl}/v1/ai/chat`, {
    method: 'POST',
    headers: { ...headers, accept: 'text/event-stream' },
    body: JSON.stringify({ messages: [{ role: 'user', content: question }] }),
  });
  if (!response.body || response.status !== 200)
    throw new BenchError(`chat answered ${response.status}: ${await response.text()}`);
  let firstToken = NaN;
  let tokens = 0;
  let text = '';
  const decoder = new TextDecoder();
  for await (const chunk of response.body) {
    text += decoder.decode(chunk as Uint8Array, { stream: true });
    const count = text.split('event: token').length - 1;
    if (count > 0 && Number.isNaN(firstToken)) firstToken = elapsedMs(started);
    tokens = count;
  }
  if (!text.includes('event: done')) throw new BenchError(`chat ended without a done event: ${text.slice(-300)}`);
  return { firstToken, done: elapsedMs(started), tokens };
}

async function timeSummary(baseUrl: string, companyId: number): Promise<number> {
  const started = process.hrtime.bigint();
  const response = await fetch(`${baseUrl}/v1/ai/summarize`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ company_id: companyId, summary_type: 'overview' }),
  });
  await response.text();
  if (response.status !== 200) throw new BenchError(`summarize answered ${response.status}`);
  return elapsedMs(started);
}

/** A filing section with a product-line table, stored for the company: what the document-figure answer reads. */
async function storeProductLines(
  baseUrl: string,
  companyId: number,
  fiscalYear: string,
  adminKey: string,
): Promise<void> {
  const year = Number(fiscalYear.slice(2));
  const content = [
    'Revenue by product line',
    `Year Ended | ${year} | ${year - 1}`,
    `(in millions) | ${year} | ${year - 1}`,
    'Edge Accelerators | $1,234 | $1,010',
    'Data Center Chips | 2,410 | 2,388',
    'Licensing | 310 | 295',
  ].join('\n');
  const response = await fetch(`${baseUrl}/v1/documents`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': adminKey },
    body: JSON.stringify({
      company_id: companyId,
      title: `NWSC 10-K ${fiscalYear}: MD&A`,
      doc_type: '10-K',
      period: fiscalYear,
      content,
    }),
  });
  if (!response.ok)
    throw new BenchError(`storing the product lines answered ${response.status}: ${await response.text()}`);
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  const teardown = new Teardown();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fis-bench-ai-'));
  teardown.add('remove data directory', async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  try {
    // The demo data: the questions are asked of its companies.
    const config = offlineServiceConfig(dataDir, { SEED_DEMO_DATA: process.env.SEED_DEMO_DATA ?? 'true' });
    const app = await startApp(config, createLogger('error'));
    teardown.add('stop service', () => app.close());
    headers['x-api-key'] = (await createApiKey(app.database.dataSource, 'bench:ai', 'analyst')).key;
    const companyId = 1;
    const readUrl = `${app.url}/v1/companies/${companyId}/income-statement?period=latest`;
    // Warm-up: first calls compile code paths and fill caches.
    for (let i = 0; i < 5; i += 1) {
      await timeRead(readUrl);
      await timeChat(app.url, QUESTIONS[i % QUESTIONS.length]);
    }
    const latestYear = (await (
      await fetch(`${app.url}/v1/companies/${companyId}/income-statement?period=latest-fy`, { headers })
    ).json()) as { data: { period: string } };
    const fiscalYear = latestYear.data.period;
    await storeProductLines(
      app.url,
      companyId,
      fiscalYear,
      (await createApiKey(app.database.dataSource, 'bench:ai admin', 'admin')).key,
    );
    const statementQuestion = `What was NWSC's revenue in ${fiscalYear}?`;
    const figureQuestion = `What was NWSC's Edge Accelerators revenue in ${fiscalYear}?`;
    for (let i = 0; i < 3; i += 1) {
      await timeChat(app.url, statementQuestion);
      await timeChat(app.url, figureQuestion);
    }
    const statementFirst: number[] = [];
    const figureFirst: number[] = [];
    const baseline: number[] = [];
    const firstToken: number[] = [];
    const done: number[] = [];
    const summaries: number[] = [];
    let tokens = 0;
    // Interleaved, so machine noise hits every measure alike.
    for (let round = 0; round < options.rounds; round += 1) {
      baseline.push(await timeRead(readUrl));
      const chat = await timeChat(app.url, QUESTIONS[round % QUESTIONS.length]);
      firstToken.push(chat.firstToken);
      done.push(chat.done);
      tokens += chat.tokens;
      summaries.push(await timeSummary(app.url, companyId));
      statementFirst.push((await timeChat(app.url, statementQuestion)).firstToken);
      figureFirst.push((await timeChat(app.url, figureQuestion)).firstToken);
    }
    const report = {
      writer: 'builtin-analyst-v1',
      database: 'embedded PostgreSQL (PGlite)',
      baseline_read: summary(baseline),
      chat_first_token: summary(firstToken),
      chat_done: summary(done),
      summarize: summary(summaries),
      tokens_per_answer: tokens / options.rounds,
      statement_answer_first_token: summary(statementFirst),
      document_figure_first_token: summary(figureFirst),
    };
    if (options.json) {
      process.stdout.write(`${JSON.stringify(report)}\n`);
      return;
    }
    const base = report.baseline_read.p50;
    process.stdout.write(`\nAI streaming benchmark: ${report.writer}, ${report.database}, ${options.rounds} rounds\n`);
    process.stdout.write(
      `${'measure'.padEnd(34)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}${'p50 / baseline'.padStart(16)}\n`,
    );
    const rows: Array<[string, { p50: number; p95: number }]> = [
      ['baseline: GET income statement', report.baseline_read],
      ['chat: first streamed token', report.chat_first_token],
      ['chat: done (whole answer)', report.chat_done],
      ['summarize (whole response)', report.summarize],
      ['statement answer: first token', report.statement_answer_first_token],
      ['document figure: first token', report.document_figure_first_token],
    ];
    for (const [name, figures] of rows) {
      process.stdout.write(
        `${name.padEnd(34)}${figures.p50.toFixed(1).padStart(9)}${figures.p95.toFixed(1).padStart(9)}${`${(figures.p50 / base).toFixed(2)}x`.padStart(16)}\n`,
      );
    }
    process.stdout.write(`token events per chat answer: ${report.tokens_per_answer.toFixed(0)}\n`);
    process.stdout.write(
      `document figure against statement answer, first token p50: ${(report.document_figure_first_token.p50 / report.statement_answer_first_token.p50).toFixed(2)}x (target ≤ 2x)\n`,
    );
  } finally {
    for (const failure of await teardown.runAll()) process.stderr.write(`teardown: ${failure}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:ai failed: ${messageOf(error)}\n`);
  process.exit(1);
});
