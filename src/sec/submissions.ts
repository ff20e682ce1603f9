/**
 * What a filer's SEC submissions file (`CIK##########.json` of `submissions.zip`, or
 * `https://data.sec.gov/submissions/CIK##########.json`) says of it: its industry (SIC code), fiscal year end,
 * tickers, exchanges and former names. The SIC code is mapped to one of SECTORS (see SIC_SECTORS).
 */

/** Sector of imported companies whose industry is not known: company facts carry no industry classification. */
export const UNCLASSIFIED_SECTOR = 'Unclassified';

/** The sectors an imported company gets: the eleven GICS sectors, and Unclassified when the SIC code says nothing. */
export const SECTORS = [
  'Communication Services',
  'Consumer Discretionary',
  'Consumer Staples',
  'Energy',
  'Financials',
  'Health Care',
  'Industrials',
  'Information Technology',
  'Materials',
  'Real Estate',
  'Utilities',
  UNCLASSIFIED_SECTOR,
] as const;
export type Sector = (typeof SECTORS)[number];

/**
 * SIC code ranges (both ends included) and their sector; the first range that holds a code wins, so the narrow
 * ranges come before the broad ones they sit in.
 */
export const SIC_SECTORS: ReadonlyArray<[number, number, Sector]> = [
  [1300, 1399, 'Energy'], // crude oil and gas, drilling, oilfield services
  [2830, 2836, 'Health Care'], // pharmaceuticals, biologicals
  [2840, 2844, 'Consumer Staples'], // soaps, cosmetics
  [2900, 2999, 'Energy'], // petroleum refining
  [2700, 2799, 'Communication Services'], // publishing
  [3100, 3199, 'Consumer Discretionary'], // leather goods
  [3570, 3579, 'Information Technology'], // computers and office equipment
  [3630, 3639, 'Consumer Discretionary'], // household appliances
  [3600, 3699, 'Information Technology'], // electronic equipment, semiconductors
  [3710, 3716, 'Consumer Discretionary'], // motor vehicles and parts
  [3840, 3851, 'Health Care'], // medical instruments and supplies
  [3800, 3899, 'Information Technology'], // measuring and control instruments
  [5122, 5122, 'Health Care'], // drug wholesale
  [5140, 5149, 'Consumer Staples'], // grocery wholesale
  [5400, 5499, 'Consumer Staples'], // food stores
  [5912, 5912, 'Consumer Staples'], // drug stores
  [6798, 6798, 'Real Estate'], // real estate investment trusts
  [7370, 7379, 'Information Technology'], // software and computer services
  [7800, 7899, 'Communication Services'], // motion pictures
  [100, 999, 'Consumer Staples'], // agriculture
  [1000, 1499, 'Materials'], // mining
  [1500, 1799, 'Industrials'], // construction
  [2000, 2199, 'Consumer Staples'], // food, beverages, tobacco
  [2200, 2399, 'Consumer Discretionary'], // textiles, apparel
  [2400, 2499, 'Materials'], // lumber
  [2500, 2599, 'Consumer Discretionary'], // furniture
  [2600, 2699, 'Materials'], // paper
  [2800, 2899, 'Materials'], // chemicals
  [3000, 3399, 'Materials'], // rubber, plastics, glass, metals
  [3400, 3799, 'Industrials'], // fabricated metal, machinery, aircraft and other transport equipment
  [3900, 3999, 'Consumer Discretionary'], // other manufacturing (toys, jewelry…)
  [4000, 4799, 'Industrials'], // transportation
  [4800, 4899, 'Communication Services'], // telecommunications, broadcasting
  [4900, 4999, 'Utilities'], // electricity, gas, water
  [5000, 5199, 'Industrials'], // wholesale
  [5200, 5999, 'Consumer Discretionary'], // retail
  [6000, 6499, 'Financials'], // banks, credit, brokers, insurance
  [6500, 6599, 'Real Estate'], // real estate
  [6700, 6799, 'Financials'], // holding and investment offices
  [7000, 7299, 'Consumer Discretionary'], // hotels, personal services
  [7300, 7399, 'Industrials'], // business services
  [7900, 7999, 'Consumer Discretionary'], // amusement and recreation
  [8000, 8099, 'Health Care'], // health services
  [8100, 8999, 'Industrials'], // legal, engineering, management and other services
];

/** The sector of a SIC code (a number or its text); Unclassified for none or a code outside every range. */
export function sectorOfSic(sic: number | string | null | undefined): Sector {
  const code = Number(sic);
  if (sic === null || sic === undefined || sic === '' || !Number.isInteger(code)) return UNCLASSIFIED_SECTOR;
  return SIC_SECTORS.find(([from, to]) => code >= from && code <= to)?.[2] ?? UNCLASSIFIED_SECTOR;
}

export interface FilerProfile {
  cik: number;
  sector: Sector;
  sic: number | null;
  /** Month (1–12) in which the fiscal year ends; null when the file does not say. */
  fiscalYearEndMonth: number | null;
  tickers: string[];
  /** The exchange of the first ticker (NYSE, Nasdaq…), or null. */
  exchange: string | null;
  /** Names the filer had before, newest first. */
  formerNames: string[];
}

interface SubmissionsFile {
  cik?: string | number;
  sic?: string | number;
  fiscalYearEnd?: string | null;
  tickers?: unknown[];
  exchanges?: unknown[];
  formerNames?: Array<{ name?: unknown; from?: unknown; to?: unknown }>;
}

const strings = (values: unknown[] | undefined) =>
  (values ?? []).filter((value): value is string => typeof value === 'string' && value.trim() !== '');

/** Reads a submissions file; null when it is not one (no CIK), e.g. the continuation files of a long history. */
export function filerProfile(json: unknown): FilerProfile | null {
  const file = (json ?? {}) as SubmissionsFile;
  const cik = Number(file.cik);
  if (!Number.isInteger(cik) || cik <= 0) return null;
  const sic = file.sic === undefined || file.sic === '' ? null : Number(file.sic);
  // "0928": month and day of the fiscal year's end.
  const month = file.fiscalYearEnd ? Number(file.fiscalYearEnd.slice(0, 2)) : NaN;
  const formerNames = (file.formerNames ?? [])
    .filter((former): former is { name: string; to?: unknown } => typeof former?.name === 'string')
    .sort((a, b) => String(b.to ?? '').localeCompare(String(a.to ?? '')))
    .map((former) => former.name);
  return {
    cik,
    sector: sectorOfSic(sic),
    sic: Number.isInteger(sic) ? sic : null,
    fiscalYearEndMonth: month >= 1 && month <= 12 ? month : null,
    tickers: strings(file.tickers).map((ticker) => ticker.toUpperCase()),
    exchange: strings(file.exchanges)[0] ?? null,
    formerNames,
  };
}
