/**
 * A scale data set made from the real company facts of the project's data folder, for the scale bench only (never
 * shipped as data): N company-facts files zipped as the SEC ships them (`companyfacts.zip`, one `CIK##########.json`
 * per filer), the matching `submissions.zip`, and the `company_tickers.json` of the set.
 *
 * Company i takes the identity of entry i of the SEC's `company_tickers.json` (its CIK, ticker and title; past the
 * end of the list, the list again with a CIK above any real one and a suffix) and the facts of one real filer in
 * turn, trimmed to the concepts the import maps and to the filer's last ten fiscal years. Every amount and share
 * count of a company is multiplied by one factor of its own (0.05× to 5×, rounded to thousands), so the company's
 * identities (assets = liabilities + equity, a year = its quarters) hold as in the original within rounding, and
 * per-share figures stay as filed; dates are kept, so periods and filings stay consistent. The sector comes from a
 * SIC code drawn from the documented ranges. Seeded: the same N gives the same files.
 *
 *   npm run bench:scale-data -- <data folder> --count 10000 --out <folder>
 */
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { Readable } from 'node:stream';
import yazl from 'yazl';
import { MAPPED_CONCEPTS } from '../src/sec/concept-map';
import { SIC_SECTORS } from '../src/sec/submissions';
import type { CompanyFactsFile, RawFact } from '../src/sec/companyfacts';
import { BenchError, seededRandom } from './bench-support';

export interface ScaleDataSet {
  count: number;
  /** companyfacts.zip, submissions.zip and company_tickers.json of the generated companies. */
  facts: string;
  submissions: string;
  tickers: string;
}

type Units = CompanyFactsFile['facts'][string][string]['units'];
interface TickerEntry {
  cik_str: number;
  ticker: string;
  title: string;
}

const YEARS_KEPT = 10;
/** Above every CIK the SEC has given (about 2.1 million so far): the identities past the end of the ticker list. */
const SYNTHETIC_CIK_BASE = 90_000_000;

/** A real filer's facts, trimmed to the mapped concepts of its last ten fiscal years. */
function template(file: CompanyFactsFile): CompanyFactsFile {
  const facts: CompanyFactsFile['facts'] = {};
  const latestYear = Math.max(
    ...Object.values(file.facts).flatMap((concepts) =>
      Object.values(concepts).flatMap((concept) =>
        Object.values(concept.units).flatMap((list) => list.map((fact) => Number(fact.end.slice(0, 4)))),
      ),
    ),
  );
  for (const [taxonomy, concepts] of Object.entries(file.facts)) {
    for (const [name, concept] of Object.entries(concepts)) {
      if (taxonomy !== 'dei' && !MAPPED_CONCEPTS.has(name)) continue;
      const units: Units = {};
      for (const [unit, list] of Object.entries(concept.units)) {
        const kept = list.filter((fact) => Number(fact.end.slice(0, 4)) > latestYear - YEARS_KEPT);
        if (kept.length > 0) units[unit] = kept;
      }
      if (Object.keys(units).length > 0) (facts[taxonomy] ??= {})[name] = { units };
    }
  }
  return { cik: file.cik, entityName: file.entityName, facts };
}

/** Per-share amounts and ratios are not scaled; amounts (a currency) and share counts are. */
const scaled = (unit: string) => !unit.includes('/') && unit !== 'pure';

function generatedFacts(base: CompanyFactsFile, cik: number, name: string, factor: number): CompanyFactsFile {
  const facts: CompanyFactsFile['facts'] = {};
  for (const [taxonomy, concepts] of Object.entries(base.facts)) {
    facts[taxonomy] = {};
    for (const [concept, { units }] of Object.entries(concepts)) {
      const copy: Units = {};
      for (const [unit, list] of Object.entries(units))
        copy[unit] = scaled(unit)
          ? list.map((fact): RawFact => ({ ...fact, val: Math.round((fact.val * factor) / 1000) * 1000 }))
          : list;
      facts[taxonomy][concept] = { units: copy };
    }
  }
  return { cik, entityName: name, facts };
}

/** The month and day a template's fiscal years end, as submissions write it ("0928"). */
function fiscalYearEnd(base: CompanyFactsFile): string {
  const annual = Object.values(base.facts['us-gaap'] ?? base.facts['ifrs-full'] ?? {})
    .flatMap((concept) => Object.values(concept.units).flat())
    .find((fact) => fact.fp === 'FY' && fact.form.startsWith('10-K') && fact.start);
  return annual ? annual.end.slice(5, 7) + annual.end.slice(8, 10) : '1231';
}

const cikFileName = (cik: number) => `CIK${String(cik).padStart(10, '0')}.json`;

/** A zip of the entries, each made only when the zip reaches it: one company's JSON in memory at a time. */
async function writeZip(file: string, entries: Array<[string, () => Buffer]>): Promise<void> {
  const zip = new yazl.ZipFile();
  const output = fs.createWriteStream(file);
  zip.outputStream.pipe(output);
  for (const [name, make] of entries)
    zip.addReadStream(
      Readable.from(
        (function* () {
          yield make();
        })(),
      ),
      name,
    );
  zip.end();
  await once(output, 'close');
}

/** Writes a data set of `count` companies to `outDir` (made if missing); see the module's comment. */
export async function generateScaleData(dataFolder: string, count: number, outDir: string): Promise<ScaleDataSet> {
  if (!Number.isInteger(count) || count < 1) throw new BenchError(`--count must be a positive whole number`);
  const factsDir = path.join(dataFolder, 'sec_xbrl', 'companyfacts');
  const tickersFile = path.join(dataFolder, 'sec_xbrl', 'company_tickers.json');
  if (!fs.existsSync(factsDir) || !fs.existsSync(tickersFile))
    throw new BenchError(`${dataFolder} holds no sec_xbrl/companyfacts folder and company_tickers.json`);
  const templates = fs
    .readdirSync(factsDir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => template(JSON.parse(fs.readFileSync(path.join(factsDir, name), 'utf8')) as CompanyFactsFile));
  const yearEnds = templates.map(fiscalYearEnd);
  // One identity per CIK, its first ticker (the list names a filer once per share class: GOOGL and GOOG).
  const seen = new Set<number>();
  const listed = Object.values(JSON.parse(fs.readFileSync(tickersFile, 'utf8')) as Record<string, TickerEntry>).filter(
    (entry) => !seen.has(entry.cik_str) && seen.add(entry.cik_str),
  );
  const random = seededRandom(count);
  const sicCodes = SIC_SECTORS.map(([from]) => from);

  const companies = Array.from({ length: count }, (_, i) => {
    const entry = listed[i % listed.length];
    const round = Math.floor(i / listed.length);
    return {
      cik: round === 0 ? entry.cik_str : SYNTHETIC_CIK_BASE + i,
      ticker: round === 0 ? entry.ticker : `${entry.ticker}-${round}`,
      name: round === 0 ? entry.title : `${entry.title} ${round + 1}`,
      templateIndex: i % templates.length,
      // Log-uniform from 0.05× to 5×: small and large companies alike.
      factor: Math.exp(Math.log(0.05) + random() * Math.log(100)),
      sic: sicCodes[Math.floor(random() * sicCodes.length)],
    };
  });
  fs.mkdirSync(outDir, { recursive: true });
  const set: ScaleDataSet = {
    count,
    facts: path.join(outDir, 'companyfacts.zip'),
    submissions: path.join(outDir, 'submissions.zip'),
    tickers: path.join(outDir, 'company_tickers.json'),
  };
  await writeZip(
    set.facts,
    companies.map((company): [string, () => Buffer] => [
      cikFileName(company.cik),
      () =>
        Buffer.from(
          JSON.stringify(generatedFacts(templates[company.templateIndex], company.cik, company.name, company.factor)),
        ),
    ]),
  );
  await writeZip(
    set.submissions,
    companies.map((company): [string, () => Buffer] => [
      cikFileName(company.cik),
      () =>
        Buffer.from(
          JSON.stringify({
            cik: String(company.cik),
            name: company.name,
            sic: String(company.sic),
            tickers: [company.ticker],
            exchanges: [company.cik % 2 === 0 ? 'NYSE' : 'Nasdaq'],
            fiscalYearEnd: yearEnds[company.templateIndex],
            formerNames: [],
          }),
        ),
    ]),
  );
  fs.writeFileSync(
    set.tickers,
    JSON.stringify(
      Object.fromEntries(
        companies.map((company, i) => [i, { cik_str: company.cik, ticker: company.ticker, title: company.name }]),
      ),
    ),
  );
  return set;
}

async function main(): Promise<void> {
  const [dataFolder] = process.argv.slice(2);
  const option = (name: string) => {
    const at = process.argv.indexOf(`--${name}`);
    return at >= 0 ? process.argv[at + 1] : undefined;
  };
  const out = option('out');
  if (!dataFolder || dataFolder.startsWith('--') || !out)
    throw new BenchError('usage: npm run bench:scale-data -- <data folder> --count N --out <folder>');
  const started = Date.now();
  const set = await generateScaleData(dataFolder, Number(option('count') ?? '1000'), out);
  const size = (file: string) => `${(fs.statSync(file).size / 1e6).toFixed(1)} MB`;
  process.stdout.write(
    `${set.count} companies in ${((Date.now() - started) / 1000).toFixed(1)} s: ${set.facts} (${size(set.facts)}), ` +
      `${set.submissions} (${size(set.submissions)}), ${set.tickers}\n`,
  );
}

if (require.main === module)
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
