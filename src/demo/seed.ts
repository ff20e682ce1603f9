import type { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { Company } from '../companies/company.entity';
import { IncomeStatement } from '../statements/income-statement.entity';
import { BalanceSheet } from '../statements/balance-sheet.entity';
import { CashFlowStatement } from '../statements/cash-flow-statement.entity';
import { generateDemoData } from './demo-data';
import { generateDemoDocuments } from './demo-documents';
import { Document } from '../search/document.entity';
import { ingestDocument, type SearchBackend } from '../search/ingestion.service';

export interface SeedReport {
  companies: number;
  statements: number;
}

// Keeps each INSERT well under PostgreSQL's 65,535 bind-parameter limit (≈25 columns a row).
const ROWS_PER_INSERT = 500;

async function insertInChunks<T extends ObjectLiteral>(manager: EntityManager, entity: EntityTarget<T>, rows: T[]): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    await manager.createQueryBuilder().insert().into(entity).values(rows.slice(start, start + ROWS_PER_INSERT)).execute();
  }
}

async function insertDemoData(manager: EntityManager): Promise<SeedReport> {
  const data = generateDemoData();
  const inserted = await manager.createQueryBuilder().insert().into(Company).values(data.companies).returning(['id', 'ticker']).execute();
  const companyIds = new Map<string, number>(
    (inserted.raw as Array<{ id: number; ticker: string }>).map((row) => [row.ticker, row.id]),
  );
  const withCompany = <R extends { ticker: string }>(rows: R[]) =>
    rows.map(({ ticker, ...row }) => ({ ...row, companyId: companyIds.get(ticker) as number }));
  await insertInChunks(manager, IncomeStatement, withCompany(data.incomeStatements) as IncomeStatement[]);
  await insertInChunks(manager, BalanceSheet, withCompany(data.balanceSheets) as BalanceSheet[]);
  await insertInChunks(manager, CashFlowStatement, withCompany(data.cashFlowStatements) as CashFlowStatement[]);
  return {
    companies: data.companies.length,
    statements: data.incomeStatements.length + data.balanceSheets.length + data.cashFlowStatements.length,
  };
}

/** Seeds the demo data when the database holds no company yet; returns null when it already had some. */
export async function seedIfEmpty(manager: EntityManager): Promise<SeedReport | null> {
  return manager.transaction(async (manager) => {
    if ((await manager.getRepository(Company).count()) > 0) return null;
    return insertDemoData(manager);
  });
}

/** Replaces every company and statement with the demo data, in one transaction: all or nothing. */
export async function reseed(manager: EntityManager): Promise<SeedReport> {
  return manager.transaction(async (manager) => {
    await manager.query('TRUNCATE companies RESTART IDENTITY CASCADE');
    return insertDemoData(manager);
  });
}

/** Adds the demo documents (and their embeddings) when no document is stored yet; returns how many were added. */
export async function seedDemoDocuments(backend: SearchBackend): Promise<number> {
  if ((await backend.dataSource.getRepository(Document).count()) > 0) return 0;
  const companies: Array<{ id: number; ticker: string }> = await backend.dataSource.query('SELECT id, ticker FROM companies');
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
