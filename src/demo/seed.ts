import type { EntityManager } from 'typeorm';
import {
  countCompanies,
  deleteAllCompanies,
  findAllCompanyRefs,
  insertCompanies,
} from '../companies/company.repository';
import { insertStatements } from '../statements/statement.repository';
import { generateDemoData } from './demo-data';
import { generateDemoDocuments } from './demo-documents';
import { Document } from '../search/document.entity';
import { ingestDocument } from '../search/ingestion.service';
import type { SearchBackend } from '../search/search-backend.types';

export interface SeedReport {
  companies: number;
  statements: number;
}

async function insertDemoData(manager: EntityManager): Promise<SeedReport> {
  const data = generateDemoData();
  const inserted = await insertCompanies(manager, data.companies);
  const companyIds = new Map<string, number>(inserted.map((row) => [row.ticker, row.id]));
  const withCompany = <R extends { ticker: string }>(rows: R[]) =>
    rows.map(({ ticker, ...row }) => ({ ...row, companyId: companyIds.get(ticker) as number }));
  await insertStatements(manager, 'income', withCompany(data.incomeStatements));
  await insertStatements(manager, 'balance', withCompany(data.balanceSheets));
  await insertStatements(manager, 'cashFlow', withCompany(data.cashFlowStatements));
  return {
    companies: data.companies.length,
    statements: data.incomeStatements.length + data.balanceSheets.length + data.cashFlowStatements.length,
  };
}

/** Seeds the demo data when the database holds no company yet; returns null when it already had some. */
export async function seedIfEmpty(manager: EntityManager): Promise<SeedReport | null> {
  return manager.transaction(async (manager) => {
    if ((await countCompanies(manager)) > 0) return null;
    return insertDemoData(manager);
  });
}

/** Replaces every company and statement with the demo data, in one transaction: all or nothing. */
export async function reseed(manager: EntityManager): Promise<SeedReport> {
  return manager.transaction(async (manager) => {
    await deleteAllCompanies(manager);
    return insertDemoData(manager);
  });
}

/** Adds the demo documents (and their embeddings) when no document is stored yet; returns how many were added. */
export async function seedDemoDocuments(backend: SearchBackend): Promise<number> {
  if ((await backend.dataSource.getRepository(Document).count()) > 0) return 0;
  const companies = await findAllCompanyRefs(backend.dataSource.manager);
  const idOf = new Map(companies.map((company) => [company.ticker, company.id]));
  let added = 0;
  for (const document of generateDemoDocuments(generateDemoData())) {
    const companyId = idOf.get(document.ticker);
    if (companyId === undefined) continue; // a demo company removed by hand
    const result = await ingestDocument(backend, { ...document, companyId, format: 'TEXT' });
    if (result.created) added += 1;
  }
  return added;
}
