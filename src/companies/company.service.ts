import type { DataSource } from 'typeorm';
import { CAPS } from '../operations/catalog';
import { badUserInput } from '../shared/errors';
import type { Company } from './company.entity';
import { findCompanyById, findCompanyByTicker, findCompanyPage, findSectors } from './company.repository';
import type { CompanyPage } from './company.types';

export const { defaultPageSize: DEFAULT_PAGE_SIZE, maxPageSize: MAX_PAGE_SIZE, maxOffset: MAX_OFFSET } = CAPS.companies;

export interface CompanyFilter {
  sector?: string | null;
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

/** A page of companies ordered by name (then id, so pages never overlap), optionally of one sector (any case). */
export async function listCompanies(dataSource: DataSource, filter: CompanyFilter): Promise<CompanyPage> {
  const limit = filter.limit ?? DEFAULT_PAGE_SIZE;
  const offset = filter.offset ?? 0;
  checkPaging(limit, offset);
  const sector = filter.sector?.trim();
  if (sector?.includes('\u0000')) throw badUserInput('sector must not contain NUL characters');
  // Sectors are stored in at most 64 characters: a longer filter is a mistake, not an empty result.
  if (sector && sector.length > 64) throw badUserInput('sector must be at most 64 characters');
  const [items, total] = await findCompanyPage(dataSource.manager, { sector: sector || null, limit, offset });
  return { items, total, limit, offset };
}

/** The sectors that have at least one company, alphabetically. */
export function listSectors(dataSource: DataSource): Promise<string[]> {
  return findSectors(dataSource.manager);
}

/** Finds a company by exactly one of id or ticker (ticker in any case); null when there is none. */
export async function findCompany(dataSource: DataSource, id?: number | null, ticker?: string | null): Promise<Company | null> {
  const hasId = id !== null && id !== undefined;
  const hasTicker = ticker !== null && ticker !== undefined;
  if (hasId === hasTicker) throw badUserInput('company needs exactly one of id or ticker');
  if (ticker?.includes('\u0000')) throw badUserInput('ticker must not contain NUL characters');
  if (hasId) return findCompanyById(dataSource.manager, id as number);
  return findCompanyByTicker(dataSource.manager, (ticker as string).trim());
}
