/**
 * The FinanceBench folder (`<data>/financebench/`) as a user of the service would store it: one company per
 * FinanceBench company, one document per filing, its pages joined by form feeds so every page keeps its number
 * (FinanceBench pages count from 0, the service's from 1), and the requests that store them through the REST API.
 */
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { BenchError } from './bench-support';

export interface CorpusPage {
  doc_name: string;
  company: string;
  doc_type: string;
  doc_period: number;
  gics_sector: string;
  page: number;
  text: string;
}

export interface Filing {
  docName: string;
  company: string;
  sector: string;
  docType: string;
  docPeriod: number;
  /** Page texts by FinanceBench page number; pages missing from the corpus (blank, image-only) are empty. */
  pages: string[];
}

export async function readJsonl<T>(file: string, keep: (row: T) => boolean = () => true): Promise<T[]> {
  if (!fs.existsSync(file)) throw new BenchError(`${file} does not exist`);
  const rows: T[] = [];
  const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    const row = JSON.parse(line) as T;
    if (keep(row)) rows.push(row);
  }
  return rows;
}

/** The filings of the corpus named in `docNames` (all when null), pages in order. */
export async function readFilings(folder: string, docNames: Set<string> | null): Promise<Filing[]> {
  const pages = await readJsonl<CorpusPage>(
    path.join(folder, 'financebench', 'corpus.jsonl'),
    (page) => !docNames || docNames.has(page.doc_name),
  );
  const filings = new Map<string, Filing>();
  for (const page of pages) {
    const filing = filings.get(page.doc_name) ?? {
      docName: page.doc_name,
      company: page.company,
      sector: page.gics_sector,
      docType: page.doc_type,
      docPeriod: page.doc_period,
      pages: [],
    };
    filing.pages[page.page] = page.text;
    filings.set(page.doc_name, filing);
  }
  for (const filing of filings.values()) filing.pages = Array.from(filing.pages, (text) => text ?? '');
  return [...filings.values()].sort((a, b) => a.docName.localeCompare(b.docName));
}

const DOC_TYPES: Record<string, string> = { '10k': '10-K', '10q': '10-Q', '8k': '8-K', earnings: 'press-release' };

/** The body of POST /v1/documents for a filing: form feeds between pages, its type, fiscal period and date. */
export function documentBody(filing: Filing, companyId: number): Record<string, unknown> {
  const docType = DOC_TYPES[filing.docType.toLowerCase()] ?? 'other';
  const quarter = /(\d{4})Q([1-4])/.exec(filing.docName);
  const period =
    docType === '10-K'
      ? `FY${filing.docPeriod}`
      : docType === '10-Q' && quarter
        ? `Q${quarter[2]}-${quarter[1]}`
        : undefined;
  const dated = /dated-(\d{4}-\d{2}-\d{2})/.exec(filing.docName)?.[1];
  const title = `${filing.company} ${docType === 'press-release' ? 'earnings release' : docType} ${dated ?? period ?? filing.docPeriod}`;
  return {
    company_id: companyId,
    title,
    doc_type: docType,
    period,
    published_at: dated,
    content: filing.pages.join('\f'),
    format: 'text',
  };
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/**
 * The month a company's fiscal year ends, read from an annual report's cover ("For the fiscal year ended May 31,
 * 2019"); null when none says. A year that ends in the first days of a month is a 52/53-week year closing on the
 * weekday nearest the end of the month before ("January 1, 2023" closes a December year).
 */
export function fiscalYearEndMonth(filings: Filing[]): number | null {
  for (const filing of filings.filter((f) => f.docType.toLowerCase() === '10k')) {
    const cover = filing.pages.slice(0, 3).join('\n');
    const ended = /fiscal\s+year\s+ended:?\s+([A-Za-z]+)\s+(\d{1,2})/i.exec(cover);
    const month = ended ? MONTHS.indexOf(ended[1].toLowerCase()) : -1;
    if (month >= 0) return Number(ended?.[2]) <= 7 ? ((month + 11) % 12) + 1 : month + 1;
  }
  return null;
}

interface SecTicker {
  cik_str: number;
  ticker: string;
  title: string;
}

const LEGAL_WORDS = new Set([
  'inc',
  'corp',
  'corporation',
  'co',
  'company',
  'ltd',
  'plc',
  'the',
  'holdings',
  'international',
  'group',
  'llc',
  'lp',
  'sa',
  'nv',
  'ag',
  'de',
  'ny',
]);
const nameWords = (name: string) =>
  name
    .toLowerCase()
    .replace(/-/g, ' ')
    .replace(/[^a-z0-9& ]/g, ' ')
    .split(/\s+/)
    .filter((word) => word && !LEGAL_WORDS.has(word));

/**
 * Ticker and CIK of a company named as FinanceBench names it, from the SEC's company_tickers.json when the folder has
 * it: the same name without legal words, else the first SEC name that starts with its words, else a ticker of that
 * name. Without a match the ticker is made of the name's letters (the service needs one).
 */
export function tickerOf(name: string, secTickers: SecTicker[]): { ticker: string; cik?: number } {
  const words = nameWords(name).join(' ');
  const found =
    secTickers.find((row) => nameWords(row.title).join(' ') === words) ??
    secTickers.find((row) => `${nameWords(row.title).join(' ')} `.startsWith(`${words} `)) ??
    secTickers.find((row) => row.ticker.toLowerCase() === name.toLowerCase());
  if (found) return { ticker: found.ticker, cik: found.cik_str };
  return {
    ticker:
      name
        .toUpperCase()
        .replace(/[^A-Z0-9]/g, '')
        .slice(0, 8) || 'FB',
  };
}

export function readSecTickers(folder: string): SecTicker[] {
  const file = path.join(folder, 'sec_xbrl', 'company_tickers.json');
  return fs.existsSync(file)
    ? Object.values(JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, SecTicker>)
    : [];
}

/** A JSON request to the service; throws with the answer's status and body when it is not a success. */
export async function callApi<T>(
  baseUrl: string,
  key: string,
  method: string,
  route: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${baseUrl}${route}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new BenchError(`${method} ${route} answered ${response.status}: ${text.slice(0, 500)}`);
  return (JSON.parse(text) as { data: T }).data;
}
