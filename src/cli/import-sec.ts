/**
 * `npm run import:sec -- <companyfacts .json files> [--tickers company_tickers.json]`
 * `npm run import:sec -- --ticker AAPL [--ticker NVDA]`   (downloads from the SEC; needs SEC_USER_AGENT)
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

const USAGE = 'usage: npm run import:sec -- <companyfacts .json files> [--tickers company_tickers.json]\n       npm run import:sec -- --ticker AAPL   (downloads from the SEC; set SEC_USER_AGENT="Your Name you@example.com")';
const SEC_MIN_INTERVAL_MS = 110; // the SEC allows at most 10 requests per second

interface Options {
  files: string[];
  tickersFile: string | null;
  download: string[];
}

function readOptions(argv: string[]): Options {
  const options: Options = { files: [], tickersFile: null, download: [] };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--tickers') options.tickersFile = argv[++i];
    else if (arg === '--ticker') options.download.push(String(argv[++i] ?? '').toUpperCase());
    else if (arg === '--filings') throw new Error('--filings (10-K/10-Q HTML into documents) is not implemented yet; use npm run ingest -- <files> --company <ticker> --type 10-K');
    else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}\n${USAGE}`);
    else options.files.push(arg);
  }
  if (options.files.length === 0 && options.download.length === 0) throw new Error(USAGE);
  if (options.download.some((t) => !/^[A-Z0-9.-]{1,10}$/.test(t))) throw new Error('--ticker needs a ticker such as AAPL');
  return options;
}

/** GETs from the SEC, politely: the required User-Agent, and never more than 10 requests a second. */
function secClient(userAgent: string | null) {
  let last = 0;
  return async (url: string): Promise<unknown> => {
    if (!userAgent) throw new Error('downloading from the SEC needs SEC_USER_AGENT, e.g. "Example Corp admin@example.com" (the SEC refuses anonymous clients)');
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
    ...options.files.map((file) => ({ label: file, load: async () => JSON.parse(fs.readFileSync(file, 'utf8')) as CompanyFactsFile })),
    ...options.download.map((ticker) => ({
      label: ticker,
      load: async () => {
        const cik = [...tickers].find(([, t]) => t === ticker)?.[0];
        if (!cik) throw new Error(`the SEC lists no company with ticker ${ticker}`);
        return (await get(`https://data.sec.gov/api/xbrl/companyfacts/CIK${String(cik).padStart(10, '0')}.json`)) as CompanyFactsFile;
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
        if (!ticker) throw new Error(`no ticker for CIK ${imported.cik} (${imported.name}): pass --tickers company_tickers.json`);
        const stored = await storeImport(database.dataSource, imported, ticker);
        const derived = imported.sources.filter((s) => s.derived).length;
        const restated = imported.sources.filter((s) => s.restated).length;
        process.stdout.write(`${source.label}: ${ticker} ${imported.name}: ${stored.statements} statements, ${stored.values} values (${derived} derived, ${restated} restated), fiscal year ends in month ${imported.fiscalYearEndMonth}\n`);
      } catch (error) {
        failed += 1;
        const reason = error instanceof UnsupportedFiling ? `refused: ${error.message}` : `failed: ${(error as Error).message}`;
        process.stdout.write(`${source.label}: ${reason}\n`);
      }
    }
  } finally {
    await database.close();
  }
  process.stdout.write(`Done: ${sources.length - failed} imported, ${failed} not imported\n`);
  if (failed > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`import:sec failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
