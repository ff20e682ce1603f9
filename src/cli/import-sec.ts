/**
 * `npm run import:sec -- <companyfacts .json files> [--tickers company_tickers.json]`
 * `npm run import:sec -- --ticker AAPL [--ticker NVDA]`   (downloads from the SEC; needs SEC_USER_AGENT)
 * `npm run import:sec -- --filings <10-K/10-Q .html files>`   (sections into searchable documents)
 * `npm run import:sec -- --bulk companyfacts.zip [--submissions submissions.zip] [--tickers company_tickers.json]`
 *   (every filer of the SEC's nightly archives, or of folders of their files; resumable)
 *
 * Imports SEC XBRL company facts into companies and statements, with the provenance of every value, into the
 * service's database (DATA_DIR or DATABASE_URL). An embedded database is opened by one process at a time: stop the
 * service first, or import into a PostgreSQL server (DATABASE_URL) the service also uses.
 */
import 'reflect-metadata';
import fs from 'node:fs';
import { loadConfig } from '../config/config';
import { createLogger } from '../shared/logger';
import { migrate, openDatabase, withStartupLock } from '../db/database';
import { importCompanyFacts, UnsupportedFiling, type CompanyFactsFile } from '../sec/companyfacts';
import { storeImport, tickerIndex } from '../sec/sec-store';
import { findFiler } from '../companies/company-writing.service';
import { parseFiling } from '../sec/filing-sections';
import { prepareSearch } from '../search/search-backend';
import { ingestDocument } from '../search/ingestion.service';
import type { Database } from '../db/database';
import { maintainEmbeddedTables } from '../db/maintenance';
import type { AppConfig } from '../config/config';
import { importBulk, type BulkProgress, type BulkSummary } from '../sec/bulk-import';

const USAGE =
  'usage: npm run import:sec -- <companyfacts .json files> [--tickers company_tickers.json]\n       npm run import:sec -- --ticker AAPL   (downloads from the SEC; set SEC_USER_AGENT="Your Name you@example.com")\n       npm run import:sec -- --filings <10-K/10-Q .html files>\n       npm run import:sec -- --bulk companyfacts.zip [--submissions submissions.zip] [--tickers company_tickers.json]';
const SEC_MIN_INTERVAL_MS = 110; // the SEC allows at most 10 requests per second

interface Options {
  files: string[];
  tickersFile: string | null;
  download: string[];
  filings: string[];
  bulk: string | null;
  submissions: string | null;
}

function readOptions(argv: string[]): Options {
  const options: Options = { files: [], tickersFile: null, download: [], filings: [], bulk: null, submissions: null };
  let target = options.files;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--tickers') options.tickersFile = argv[++i];
    else if (arg === '--ticker') options.download.push(String(argv[++i] ?? '').toUpperCase());
    else if (arg === '--filings')
      target = options.filings; // the files after it are filings
    else if (arg === '--bulk') options.bulk = argv[++i] ?? null;
    else if (arg === '--submissions') options.submissions = argv[++i] ?? null;
    else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}\n${USAGE}`);
    else target.push(arg);
  }
  if (options.files.length === 0 && options.download.length === 0 && options.filings.length === 0 && !options.bulk)
    throw new Error(USAGE);
  for (const location of [options.bulk, options.submissions])
    if (location !== null && !fs.existsSync(location)) throw new Error(`no such archive or folder: ${location}`);
  if (options.download.some((t) => !/^[A-Z0-9.-]{1,10}$/.test(t)))
    throw new Error('--ticker needs a ticker such as AAPL');
  return options;
}

/** GETs from the SEC, politely: the required User-Agent, and never more than 10 requests a second. */
function secClient(userAgent: string | null) {
  let last = 0;
  return async (url: string): Promise<unknown> => {
    if (!userAgent)
      throw new Error(
        'downloading from the SEC needs SEC_USER_AGENT, e.g. "Example Corp admin@example.com" (the SEC refuses anonymous clients)',
      );
    const wait = last + SEC_MIN_INTERVAL_MS - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    last = Date.now();
    const response = await fetch(url, { headers: { 'user-agent': userAgent, accept: 'application/json' } });
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    return response.json();
  };
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  const config = loadConfig();
  if (options.bulk) return runBulk(options, config);
  const get = secClient(config.secUserAgent);
  const tickers = tickerIndex(
    options.tickersFile
      ? JSON.parse(fs.readFileSync(options.tickersFile, 'utf8'))
      : options.download.length > 0 || options.files.length > 0
        ? await get('https://www.sec.gov/files/company_tickers.json').catch((error: Error) => {
            if (options.download.length > 0) throw error;
            return {}; // offline: files need --tickers (or fail below, naming the CIK)
          })
        : {},
  );
  const sources: Array<{ label: string; load: () => Promise<CompanyFactsFile> }> = [
    ...options.files.map((file) => ({
      label: file,
      load: async () => JSON.parse(fs.readFileSync(file, 'utf8')) as CompanyFactsFile,
    })),
    ...options.download.map((ticker) => ({
      label: ticker,
      load: async () => {
        const cik = [...tickers].find(([, t]) => t === ticker)?.[0];
        if (!cik) throw new Error(`the SEC lists no company with ticker ${ticker}`);
        return (await get(
          `https://data.sec.gov/api/xbrl/companyfacts/CIK${String(cik).padStart(10, '0')}.json`,
        )) as CompanyFactsFile;
      },
    })),
  ];

  const database = await openDatabase(config, createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel));
  let failed = 0;
  try {
    await withStartupLock(database, (runner) => migrate(database, runner));
    for (const source of sources) {
      try {
        const imported = importCompanyFacts(await source.load());
        const ticker = tickers.get(imported.cik);
        if (!ticker)
          throw new Error(`no ticker for CIK ${imported.cik} (${imported.name}): pass --tickers company_tickers.json`);
        const stored = await storeImport(database.dataSource, imported, ticker);
        const derived = imported.sources.filter((s) => s.derived).length;
        const restated = imported.sources.filter((s) => s.restated).length;
        process.stdout.write(
          `${source.label}: ${ticker} ${imported.name}: ${stored.statements} statements, ${stored.values} values (${derived} derived, ${restated} restated), fiscal year ends in month ${imported.fiscalYearEndMonth}, ${imported.taxonomy} in ${imported.currency}\n`,
        );
      } catch (error) {
        failed += 1;
        const reason =
          error instanceof UnsupportedFiling ? `refused: ${error.message}` : `failed: ${(error as Error).message}`;
        process.stdout.write(`${source.label}: ${reason}\n`);
      }
    }
    if (options.filings.length > 0) failed += await importFilings(database, config, options.filings);
    await maintainEmbeddedTables(database, createLogger('warn'));
  } finally {
    await database.close();
  }
  process.stdout.write(`Done: ${sources.length + options.filings.length - failed} imported, ${failed} not imported\n`);
  if (failed > 0) process.exitCode = 1;
}

/**
 * 10-K/10-Q HTML: each section (Item 1A, Item 7…) becomes a titled document of the filing's company, through the
 * same ingestion as POST /v1/documents; the search model is refitted once at the end. Returns the files that failed.
 */
async function importFilings(database: Database, config: AppConfig, files: string[]): Promise<number> {
  const search = await prepareSearch(database, config, createLogger('warn'), { backgroundRefit: false });
  let failed = 0;
  try {
    for (const file of files) {
      try {
        const filing = parseFiling(fs.readFileSync(file, 'utf8'));
        if (!filing.form || !/^10-[KQ]/.test(filing.form))
          throw new Error(`not a 10-K or 10-Q (document type ${filing.form ?? 'unknown'})`);
        const company = await findFiler(database.dataSource.manager, filing.cik ?? null, filing.ticker ?? null);
        if (!company)
          throw new Error(
            `no company ${filing.ticker ?? ''} (CIK ${filing.cik ?? '?'}): import its company facts first`,
          );
        let stored = 0;
        for (const section of filing.sections) {
          const result = await ingestDocument(search, {
            companyId: company.id,
            title: `${company.ticker} ${filing.form} ${filing.period ?? ''}: ${section.title}`
              .replace(/\s+/g, ' ')
              .slice(0, 300),
            docType: filing.form.replace(/\/A$/, ''),
            period: filing.period,
            content: section.text,
            format: 'TEXT',
            section: section.title.slice(0, 300),
          });
          if (result.created) stored += 1;
        }
        process.stdout.write(
          `${file}: ${company.ticker} ${filing.form} ${filing.period ?? ''}: ${filing.sections.length} sections (${stored} new documents)\n`,
        );
      } catch (error) {
        failed += 1;
        process.stdout.write(`${file}: failed: ${(error as Error).message}\n`);
      }
    }
    await search.models.refitIfStale();
  } finally {
    await search.models.close();
  }
  return failed;
}

const duration = (seconds: number) =>
  seconds >= 3600
    ? `${Math.floor(seconds / 3600)}h ${Math.round((seconds % 3600) / 60)}m`
    : seconds >= 60
      ? `${Math.floor(seconds / 60)}m ${Math.round(seconds % 60)}s`
      : `${Math.round(seconds)}s`;

/** One line of progress: a bar, files, companies per second and the time left; redrawn in place on a terminal. */
function showProgress({ done, total, imported, elapsedSeconds }: BulkProgress): void {
  const share = total > 0 ? done / total : 1;
  const width = 30;
  const bar = '#'.repeat(Math.round(share * width)).padEnd(width, '.');
  const rate = elapsedSeconds > 0 ? done / elapsedSeconds : 0;
  const eta = rate > 0 ? duration((total - done) / rate) : '?';
  const line = `[${bar}] ${done}/${total} files, ${imported} imported, ${rate.toFixed(1)} companies/s, ETA ${eta}`;
  process.stderr.write(process.stderr.isTTY ? `\r${line}` : `${line}\n`);
}

function printSummary(summary: BulkSummary): void {
  if (process.stderr.isTTY) process.stderr.write('\n');
  const refused = [...summary.refused.values()].reduce((count, files) => count + files.length, 0);
  process.stdout.write(
    `Done in ${duration(summary.seconds)}: ${summary.files} files, ${summary.imported} imported, ${summary.skipped} skipped (unchanged since the last import), ${refused} not imported\n`,
  );
  for (const [reason, files] of [...summary.refused].sort((a, b) => b[1].length - a[1].length)) {
    process.stdout.write(
      `  ${files.length} × ${reason} (${files.slice(0, 3).join(', ')}${files.length > 3 ? ', …' : ''})\n`,
    );
  }
}

/** `--bulk`: a whole archive or folder of company facts, with the filers' submissions. */
async function runBulk(options: Options, config: AppConfig): Promise<void> {
  const tickers = tickerIndex(options.tickersFile ? JSON.parse(fs.readFileSync(options.tickersFile, 'utf8')) : {});
  const database = await openDatabase(config, createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel));
  try {
    await withStartupLock(database, (runner) => migrate(database, runner));
    const summary = await importBulk(database.dataSource, {
      facts: options.bulk as string,
      submissions: options.submissions,
      tickers,
      onProgress: showProgress,
    });
    printSummary(summary);
    await maintainEmbeddedTables(database, createLogger('warn'));
    if (summary.imported + summary.skipped === 0 && summary.files > 0) process.exitCode = 1;
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`import:sec failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
