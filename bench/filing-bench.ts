/**
 * How long storing one long filing takes (not part of `npm test`: the data is not shipped).
 *
 *   npm run bench:filing -- <data folder> [--doc <FinanceBench doc_name>] [--pages N] [--json]
 *
 * Takes a real filing of `<folder>/financebench/corpus.jsonl` with exactly --pages pages (default 150), or, when none
 * has that many, real filings' pages one after the other up to that count; starts the service on a fresh embedded
 * database, creates its company (POST /v1/companies) and stores the filing as one document, pages joined by form feeds
 * (POST /v1/documents). Prints the request's time (the total), and within it the time of the two steps that read the
 * text, measured on the same text with the service's own functions: splitting it into pages and cutting the pages
 * into chunks; the rest is storing (chunks, search postings, and figures and statements where the service reads
 * them). It also prints what was stored and when the search model covered the new chunks (in the background, after
 * the answer).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../src/shared/logger';
import { startApp } from '../src/app';
import { extractText } from '../src/search/text-extraction';
import { chunkPages } from '../src/search/chunker';
import { BenchError, messageOf, offlineServiceConfig, Teardown } from './bench-support';
import { callApi, documentBody, readFilings, readSecTickers, tickerOf, type Filing } from './financebench-corpus';
import { waitForSearchModel } from './eval-financebench';

interface Options {
  folder: string;
  doc: string | null;
  pages: number;
  json: boolean;
}

function readOptions(argv: string[]): Options {
  const options: Options = { folder: '', doc: null, pages: 150, json: false };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--json') options.json = true;
    else if (arg === '--doc') options.doc = argv[++i];
    else if (arg === '--pages') options.pages = Number(argv[++i]);
    else if (!arg.startsWith('--') && !options.folder) options.folder = arg;
    else throw new BenchError(`unknown argument ${arg}`);
  }
  if (!options.folder)
    throw new BenchError('usage: npm run bench:filing -- <data folder> [--doc <doc_name>] [--pages N] [--json]');
  if (!(options.pages > 0)) throw new BenchError('--pages needs a positive number');
  return options;
}

/** The named filing, a filing of exactly `pages` pages, or pages of several filings one after the other. */
function filingToStore(filings: Filing[], options: Options): Filing {
  if (options.doc) {
    const named = filings.find((filing) => filing.docName === options.doc);
    if (!named) throw new BenchError(`no filing ${options.doc} in the corpus`);
    return named;
  }
  const exact = filings.find((filing) => filing.pages.length === options.pages && filing.docType === '10k');
  if (exact) return exact;
  const pages = filings
    .filter((filing) => filing.docType === '10k')
    .flatMap((filing) => filing.pages)
    .slice(0, options.pages);
  return { ...filings[0], docName: `${pages.length} pages of ${filings[0].company}'s and other annual reports`, pages };
}

const seconds = (since: bigint) => Number(process.hrtime.bigint() - since) / 1e9;

async function countFigures(app: Awaited<ReturnType<typeof startApp>>, documentId: number): Promise<number> {
  const [row] = await app.database.dataSource.query(
    'SELECT count(*)::int AS n FROM document_facts WHERE document_id = $1',
    [documentId],
  );
  return row.n;
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  const log = (message: string) => process.stderr.write(`${message}\n`);
  const filing = filingToStore(await readFilings(options.folder, null), options);
  const body = documentBody(filing, 0);
  const content = body.content as string;

  // The two reading steps of the service, timed on the same text (the request runs them once more).
  const pagesStarted = process.hrtime.bigint();
  const text = extractText(content, 'TEXT');
  const pagesSeconds = seconds(pagesStarted);
  const chunksStarted = process.hrtime.bigint();
  const chunks = chunkPages(text);
  const chunksSeconds = seconds(chunksStarted);

  const teardown = new Teardown();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fis-bench-filing-'));
  teardown.add('remove data directory', async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  try {
    const app = await startApp(
      offlineServiceConfig(dataDir, {
        ADMIN_API_KEY: '',
        OPENAI_API_KEY: process.env.OPENAI_API_KEY ?? '',
        MAX_BODY_BYTES: String(16 * 1_048_576),
      }),
      createLogger('error'),
    );
    teardown.add('stop service', () => app.close());
    const key = app.firstAdminKey as string;
    const { ticker, cik } = tickerOf(filing.company, readSecTickers(options.folder));
    const company = await callApi<{ id: number }>(app.url, key, 'POST', '/v1/companies', {
      name: filing.company,
      ticker,
      sector: filing.sector,
      cik,
    });
    log(
      `storing ${filing.docName}: ${filing.pages.length} pages, ${content.length.toLocaleString('en-US')} characters`,
    );
    const storeStarted = process.hrtime.bigint();
    const { document } = await callApi<{ document: { id: number; chunk_count: number } }>(
      app.url,
      key,
      'POST',
      '/v1/documents',
      { ...body, company_id: company.id },
    );
    const totalSeconds = seconds(storeStarted);
    const facts = await countFigures(app, document.id);
    const modelStarted = process.hrtime.bigint();
    await waitForSearchModel(app);
    const modelSeconds = seconds(modelStarted);

    const report = {
      filing: filing.docName,
      pages: filing.pages.length,
      characters: content.length,
      chunks: document.chunk_count,
      chunks_in_this_process: chunks.length,
      pages_seconds: pagesSeconds,
      chunks_seconds: chunksSeconds,
      rest_of_storing_seconds: Math.max(0, totalSeconds - pagesSeconds - chunksSeconds),
      total_seconds: totalSeconds,
      document_facts: facts,
      search_model_seconds_after: modelSeconds,
      target_seconds: 30,
    };
    if (options.json) {
      process.stdout.write(`${JSON.stringify(report)}\n`);
      return;
    }
    const s = (value: number) => `${value.toFixed(2)} s`;
    process.stdout.write(
      [
        `${report.filing}: ${report.pages} pages, ${report.characters.toLocaleString('en-US')} characters, ${report.chunks} chunks`,
        `  pages (split and normalized)      ${s(pagesSeconds)}`,
        `  chunks                            ${s(chunksSeconds)}`,
        `  storing (chunks, postings, figures) ${s(report.rest_of_storing_seconds)}`,
        `  total (POST /v1/documents)        ${s(totalSeconds)}  (target ≤ 30 s: ${totalSeconds <= 30 ? 'met' : 'missed'})`,
        `  figures read from the document    ${facts}`,
        `  search model covering it, after the answer: ${s(modelSeconds)}`,
      ].join('\n') + '\n',
    );
  } finally {
    for (const failure of await teardown.runAll()) log(`teardown: ${failure}`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:filing failed: ${messageOf(error)}\n`);
  process.exit(1);
});
