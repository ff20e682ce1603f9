import type { DataSource } from 'typeorm';
import { findCompanyDirectory, findDirectoryVersion, type DirectoryCompany } from './company.repository';

const lastRead = new WeakMap<DataSource, { version: string; companies: DirectoryCompany[] }>();

/**
 * Every stored company by id, ticker, name and size, for questions and searches to match names against. Read again
 * only when the stored version says the companies or their income statements changed (any instance's write bumps
 * it); until then it is the same array, so what is built on it (the index of names) is built once.
 */
export async function companyDirectory(dataSource: DataSource): Promise<DirectoryCompany[]> {
  // The version is read first: a write between the two reads leaves a newer directory under an older version,
  // which the next call reads again, never the reverse.
  const version = await findDirectoryVersion(dataSource.manager);
  const last = lastRead.get(dataSource);
  if (version !== null && last?.version === version) return last.companies;
  const companies = await findCompanyDirectory(dataSource.manager);
  if (version !== null) lastRead.set(dataSource, { version, companies });
  return companies;
}
