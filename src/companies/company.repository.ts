/**
 * Store of companies: all company SQL lives here. Every function takes the EntityManager to run on, so it joins the
 * caller's transaction when there is one (PGlite has a single backend session).
 */
import type { EntityManager } from 'typeorm';
import { Company } from './company.entity';
import { plainColumnList } from '../db/plain-columns';
import { queryPrepared, sqlCount } from '../db/prepared-statements.repository';
import type { ReadAhead } from '../db/read-ahead';

export interface CompanyPageQuery {
  /** Compared case-insensitively; null or empty for every sector. */
  sector: string | null;
  /** Exactly this ticker, in any case. */
  ticker?: string | null;
  /** Words of a name or the start of a ticker, any case: the best matches first instead of name order. */
  q?: string | null;
  limit: number;
  offset: number;
}

export interface CompanyRef {
  id: number;
  ticker: string;
}

/** What the SEC import knows of a company. */
export interface ImportedCompanyRow {
  name: string;
  ticker: string;
  cik: number;
  fiscalYearEnd: number;
  sector: string;
  /** Reporting currency (ISO 4217). */
  currency: string;
  /** Null when the filing does not say (companyfacts of a foreign, IFRS filer). */
  country: string | null;
}

/** What another module reads with each company, in the company query's own statement (on the company row `c`). */
export type CompanyReadAhead = ReadAhead<Company>;

/** What a page reads besides its companies' identity, all of it optional. */
export interface CompanyPageReading {
  /** Count the companies that match (a window count in the same statement); the total is null without it. */
  withTotal?: boolean;
  /** Read with each company, in the same statement. */
  readAhead?: CompanyReadAhead;
  /** Only these properties of each company (its id always): the columns a GraphQL selection asks for. Every column without it. */
  properties?: ReadonlySet<string>;
}

/** A page of companies ordered by name (then id, so pages never overlap), and the total that match (see `reading`). */
export async function findCompanyPage(
  manager: EntityManager,
  { sector, ticker, q, limit, offset }: CompanyPageQuery,
  { withTotal = false, readAhead, properties }: CompanyPageReading = {},
): Promise<[Company[], number | null]> {
  // Plain rows shaped like the entity: hydrating TypeORM entities costs more CPU than the SQL of a list.
  const values: unknown[] = [];
  const param = (value: unknown) => `$${values.push(value)}`;
  const conditions: string[] = [];
  const sectorParam = sector ? param(sector) : null;
  if (sectorParam) conditions.push(`lower(c.sector) = lower(${sectorParam})`);
  if (ticker) conditions.push(`upper(c.ticker) = upper(${param(ticker)})`);
  let prefix = '';
  if (q) {
    // LIKE's own wildcards in the text are meant literally.
    prefix = param(q.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`));
    conditions.push(`(lower(c.ticker) LIKE ${prefix} || '%' OR lower(c.name) LIKE '%' || ${prefix} || '%')`);
  }
  const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
  // The count takes the filter's parameters only, which come first.
  const filterValues = [...values];
  let order = 'c.name, c.id';
  if (q) {
    // Ranked: the ticker itself, the name itself, a ticker that starts so, a name that starts so, a word of the
    // name that starts so, then any name containing it.
    const exact = param(q.toLowerCase());
    order = `CASE WHEN lower(c.ticker) = ${exact} THEN 0 WHEN lower(c.name) = ${exact} THEN 1
      WHEN lower(c.ticker) LIKE ${prefix} || '%' THEN 2 WHEN lower(c.name) LIKE ${prefix} || '%' THEN 3
      WHEN lower(c.name) LIKE '% ' || ${prefix} || '%' THEN 4 ELSE 5 END, ${order}`;
  }
  // The total comes with the page, in the same statement: for all companies or a sector, from the counts triggers
  // keep; for a ticker or a name, counted (a count of its own, not a window over the filter, which would read and
  // sort every matching company rather than the page's rows from the name index).
  const counted = q || ticker ? `SELECT count(*)::int FROM companies AS c ${where}` : storedCount(sectorParam);
  const matching = withTotal ? `, (${counted}) AS matching` : '';
  const ahead = readAhead ? `, ${readAhead.expression(param)} AS "readAhead"` : '';
  const rows: Array<Company & { matching?: number; readAhead?: unknown }> = await queryPrepared(
    manager,
    `SELECT ${plainColumnList(manager.getRepository(Company).metadata, 'c', properties)}${matching}${ahead}
       FROM companies AS c ${where} ORDER BY ${order} LIMIT ${sqlCount(limit)} OFFSET ${sqlCount(offset)}`,
    values,
  );
  // Instances of the entity: type-graphql hands a resolver an instance as it is (it copies plain objects), so what a
  // page read ahead for its companies can be found by the object (history-prefetch).
  const page = rows.map(({ matching: _matching, readAhead: value, ...row }) => {
    const company = Object.assign(new Company(), row);
    readAhead?.receive(company, value);
    return company;
  });
  if (!withTotal) return [page, null];
  if (rows.length > 0) return [page, rows[0].matching as number];
  // An offset past the end leaves no row to carry the count.
  const [{ total }]: Array<{ total: number }> = await manager.query(
    `SELECT count(*)::int AS total FROM companies AS c ${where}`,
    filterValues,
  );
  return [page, total];
}

/** The number of companies (of a sector, `$n` in any case), from the counts the `companies` triggers keep. */
const storedCount = (sectorParam: string | null) =>
  `SELECT coalesce(sum(n.companies), 0)::int FROM company_counts AS n${sectorParam ? ` WHERE n.sector_key = lower(${sectorParam})` : ''}`;

/** The sectors that have at least one company, alphabetically. */
export async function findSectors(manager: EntityManager): Promise<string[]> {
  const rows: Array<{ sector: string }> = await manager.query('SELECT DISTINCT sector FROM companies ORDER BY sector');
  return rows.map((row) => row.sector);
}

/** What a read of one company reads besides its row: as for a page, without the total. */
export type CompanyReading = Omit<CompanyPageReading, 'withTotal'>;

/** The company matching `condition` (SQL on alias `c`), as the page reads them: a plain row in an entity instance. */
async function findOneCompany(
  manager: EntityManager,
  condition: string,
  values: unknown[],
  { readAhead, properties }: CompanyReading = {},
): Promise<Company | null> {
  const param = (value: unknown) => `$${values.push(value)}`;
  const ahead = readAhead ? `, ${readAhead.expression(param)} AS "readAhead"` : '';
  const [row] = await queryPrepared<Company & { readAhead?: unknown }>(
    manager,
    `SELECT ${plainColumnList(manager.getRepository(Company).metadata, 'c', properties)}${ahead} FROM companies AS c WHERE ${condition} ORDER BY c.id LIMIT 1`,
    values,
  );
  if (!row) return null;
  const { readAhead: value, ...columns } = row;
  const company = Object.assign(new Company(), columns);
  readAhead?.receive(company, value);
  return company;
}

export function findCompanyById(manager: EntityManager, id: number, reading?: CompanyReading): Promise<Company | null> {
  return findOneCompany(manager, 'c.id = $1', [id], reading);
}

/** Tickers match in any case. */
export function findCompanyByTicker(
  manager: EntityManager,
  ticker: string,
  reading?: CompanyReading,
): Promise<Company | null> {
  return findOneCompany(manager, 'upper(c.ticker) = upper($1)', [ticker], reading);
}

/** A company as names are matched against it: id, ticker, name, and its newest annual revenue as its size. */
export interface DirectoryCompany {
  id: number;
  ticker: string;
  name: string;
  size: number | null;
}

/**
 * Every company by id, ticker and name, with its newest annual revenue as its size: the directory that question
 * understanding matches names against (of two companies a name fits alike, the larger is meant).
 */
export function findCompanyDirectory(manager: EntityManager): Promise<DirectoryCompany[]> {
  return manager.query(
    `SELECT c.id, c.ticker, c.name, newest.revenue::float8 AS size
       FROM companies AS c
       LEFT JOIN LATERAL (
         SELECT i.revenue FROM income_statements AS i
          WHERE i.company_id = c.id AND i.fiscal_quarter IS NULL AND i.revenue IS NOT NULL
          ORDER BY i.fiscal_year DESC LIMIT 1
       ) AS newest ON true
      ORDER BY c.id`,
  );
}

/**
 * A number that changes whenever the directory above may have (kept by triggers on companies and income
 * statements); null when its row is missing, so nothing is taken as unchanged.
 */
export async function findDirectoryVersion(manager: EntityManager): Promise<string | null> {
  const [row]: Array<{ version: string }> = await manager.query(
    'SELECT version::text AS version FROM company_directory_version',
  );
  return row?.version ?? null;
}

export function findAllCompanyRefs(manager: EntityManager): Promise<CompanyRef[]> {
  return manager.query('SELECT id, ticker FROM companies ORDER BY id');
}

export function countCompanies(manager: EntityManager): Promise<number> {
  return manager.getRepository(Company).count();
}

/** Inserts companies; returns their ids and tickers. */
export async function insertCompanies(
  manager: EntityManager,
  companies: Array<Partial<Company>>,
): Promise<CompanyRef[]> {
  const inserted = await manager
    .createQueryBuilder()
    .insert()
    .into(Company)
    .values(companies)
    .returning(['id', 'ticker'])
    .execute();
  return inserted.raw as CompanyRef[];
}

/** Creates the company of an SEC import; returns its id. */
export async function insertImportedCompany(manager: EntityManager, company: ImportedCompanyRow): Promise<number> {
  const [{ id }]: Array<{ id: number }> = await manager.query(
    `INSERT INTO companies (name, ticker, sector, currency, fiscal_year_end, cik, country) VALUES ($1, $2, $3, $6, $4, $5, $7) RETURNING id`,
    [
      company.name,
      company.ticker,
      company.sector,
      company.fiscalYearEnd,
      company.cik,
      company.currency,
      company.country,
    ],
  );
  return id;
}

/** Updates what an SEC import says of a company it already stored (the sector is kept: it may have been set by hand). */
export async function updateImportedCompany(
  manager: EntityManager,
  id: number,
  company: Omit<ImportedCompanyRow, 'sector' | 'country'>,
): Promise<void> {
  await manager.query(
    'UPDATE companies SET name = $2, ticker = $3, cik = $4, fiscal_year_end = $5, currency = $6 WHERE id = $1',
    [id, company.name, company.ticker, company.cik, company.fiscalYearEnd, company.currency],
  );
}

/** What a filer's SEC submissions say of it: its sector (written only over Unclassified), exchange and former names. */
export async function updateFilerProfile(
  manager: EntityManager,
  id: number,
  profile: { sector: string; exchange: string | null; formerNames: string[] },
  unclassified: string,
): Promise<void> {
  await manager.query(
    `UPDATE companies SET sector = CASE WHEN sector = $5 THEN $2 ELSE sector END, exchange = COALESCE($3, exchange), former_names = $4::jsonb WHERE id = $1`,
    [id, profile.sector, profile.exchange, JSON.stringify(profile.formerNames), unclassified],
  );
}

/** Removes every company and, by cascade, everything that belongs to one; ids start again at 1. */
export async function deleteAllCompanies(manager: EntityManager): Promise<void> {
  await manager.query('TRUNCATE companies RESTART IDENTITY CASCADE');
}

/** The profile fields the API writes, by entity property. */
export type CompanyProfileFields = Pick<
  Company,
  'name' | 'ticker' | 'sector' | 'cik' | 'currency' | 'fiscalYearEnd' | 'description'
>;

/** Companies other than `exceptId` that hold this ticker (any case) or this CIK: what a write must not take from them. */
export function findTickerOrCikHolders(
  manager: EntityManager,
  ticker: string | null,
  cik: number | null,
  exceptId: number | null,
): Promise<Array<{ id: number; name: string; ticker: string; cik: number | null }>> {
  return manager.query(
    'SELECT id, name, ticker, cik FROM companies WHERE (upper(ticker) = upper($1) OR cik = $2) AND ($3::int IS NULL OR id <> $3) ORDER BY id',
    [ticker, cik, exceptId],
  );
}

/** The spelling a sector is stored with when some company has it in any case, else null. */
export async function findSectorSpelling(manager: EntityManager, sector: string): Promise<string | null> {
  const [row]: Array<{ sector: string }> = await manager.query(
    'SELECT sector FROM companies WHERE lower(sector) = lower($1) ORDER BY sector LIMIT 1',
    [sector],
  );
  return row?.sector ?? null;
}

/** Inserts a company; returns its id. */
export async function insertCompanyProfile(manager: EntityManager, fields: CompanyProfileFields): Promise<number> {
  const inserted = await manager.createQueryBuilder().insert().into(Company).values(fields).returning(['id']).execute();
  return (inserted.raw as Array<{ id: number }>)[0].id;
}

/** Changes the given fields of a company. */
export async function updateCompanyProfile(
  manager: EntityManager,
  id: number,
  fields: Partial<CompanyProfileFields>,
): Promise<void> {
  await manager.createQueryBuilder().update(Company).set(fields).where('id = :id', { id }).execute();
}
