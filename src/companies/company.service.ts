import type { DataSource } from 'typeorm';
import { CAPS } from '../operations/catalog';
import { badUserInput } from '../shared/errors';
import type { Company } from './company.entity';
import {
  findCompanyById,
  findCompanyByTicker,
  findCompanyPage,
  findSectors,
  type CompanyPageReading,
  type CompanyReading,
} from './company.repository';
import type { CompanyPage } from './company.types';

export const { defaultPageSize: DEFAULT_PAGE_SIZE, maxPageSize: MAX_PAGE_SIZE, maxOffset: MAX_OFFSET } = CAPS.companies;

export interface CompanyFilter {
  sector?: string | null;
  ticker?: string | null;
  q?: string | null;
  limit?: number | null;
  offset?: number | null;
}

function checkPaging(limit: number, offset: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw badUserInput(`limit must be a whole number from 1 to ${MAX_PAGE_SIZE}, got ${limit}`);
  }
  if (!Number.isInteger(offset) || offset < 0 || offset > MAX_OFFSET) {
    throw badUserInput(`offset must be a whole number from 0 to ${MAX_OFFSET}, got ${offset}`);
  }
}

/** A text filter trimmed, or null when empty; NUL characters and overlong text are refused, naming the filter. */
function textFilter(name: string, value: string | null | undefined, maxLength: number): string | null {
  const trimmed = value?.trim();
  if (!trimmed) return null;
  if (trimmed.includes('\u0000')) throw badUserInput(`${name} must not contain NUL characters`, { field: name });
  if (trimmed.length > maxLength)
    throw badUserInput(`${name} must be at most ${maxLength} characters`, { field: name });
  return trimmed;
}

/**
 * A page of companies ordered by name (then id, so pages never overlap), optionally of one sector or ticker (any
 * case); with `q`, the companies whose name or ticker match it, best match first. The total that match is counted
 * unless `reading.withTotal` is false; see CompanyPageReading for the rest.
 */
export async function listCompanies(
  dataSource: DataSource,
  filter: CompanyFilter,
  reading: CompanyPageReading = {},
): Promise<CompanyPage> {
  const withTotal = reading.withTotal ?? true;
  const limit = filter.limit ?? DEFAULT_PAGE_SIZE;
  const offset = filter.offset ?? 0;
  checkPaging(limit, offset);
  // Sectors are stored in at most 64 characters and tickers in 16: a longer filter is a mistake, not an empty result.
  const sector = textFilter('sector', filter.sector, 64);
  const ticker = textFilter('ticker', filter.ticker, 16);
  const q = textFilter('q', filter.q, 100);
  const [items, total] = await findCompanyPage(
    dataSource.manager,
    { sector, ticker, q, limit, offset },
    { ...reading, withTotal },
  );
  // Without withTotal the caller promised not to read the total (GraphQL, when the selection leaves it out).
  return { items, total: total ?? Number.NaN, limit, offset };
}

/** The sectors that have at least one company, alphabetically. */
export function listSectors(dataSource: DataSource): Promise<string[]> {
  return findSectors(dataSource.manager);
}

/**
 * Finds a company by exactly one of id or ticker (ticker in any case); null when there is none. `reading` says what
 * is read with it, in the same statement, and which of its columns (all without it).
 */
export async function findCompany(
  dataSource: DataSource,
  id?: number | null,
  ticker?: string | null,
  reading?: CompanyReading,
): Promise<Company | null> {
  const hasId = id !== null && id !== undefined;
  const hasTicker = ticker !== null && ticker !== undefined;
  if (hasId === hasTicker) throw badUserInput('company needs exactly one of id or ticker');
  if (ticker?.includes('\u0000')) throw badUserInput('ticker must not contain NUL characters');
  if (hasId) return findCompanyById(dataSource.manager, id as number, reading);
  return findCompanyByTicker(dataSource.manager, (ticker as string).trim(), reading);
}
