import type { DataSource, EntityManager } from 'typeorm';
import { findCompanyByCikOrTicker, insertImportedCompany, updateImportedCompany } from '../companies/company.repository';
import { deleteCompanyStatements, insertStatements, insertValueSources, STATEMENT_ENTITIES, type StatementKind } from '../statements/statement.repository';
import type { ImportedCompany } from './companyfacts';

/** Sector of imported companies: companyfacts carries no industry classification. */
export const UNCLASSIFIED_SECTOR = 'Unclassified';

export interface StoredImport {
  companyId: number;
  ticker: string;
  statements: number;
  values: number;
}

/**
 * Writes one imported company in one transaction: the company (found by CIK or ticker, else created), and its
 * statements and value sources, replacing what an earlier import stored for it. All of it lands, or none.
 */
export function storeImport(dataSource: DataSource, imported: ImportedCompany, ticker: string): Promise<StoredImport> {
  return dataSource.transaction(async (manager: EntityManager) => {
    const company = { name: imported.name, ticker, cik: imported.cik, fiscalYearEnd: imported.fiscalYearEndMonth, currency: imported.currency };
    const existing = await findCompanyByCikOrTicker(manager, imported.cik, ticker);
    // A us-gaap filer files with the SEC as a US company; companyfacts does not say where a foreign (IFRS) filer is.
    const country = imported.taxonomy === 'us-gaap' ? 'US' : null;
    const companyId = existing?.id ?? (await insertImportedCompany(manager, { ...company, sector: UNCLASSIFIED_SECTOR, country }));
    if (existing) await updateImportedCompany(manager, companyId, company);
    await deleteCompanyStatements(manager, companyId);
    for (const kind of Object.keys(STATEMENT_ENTITIES) as StatementKind[]) {
      const rows = imported.statements.filter((s) => s.statement === kind).map((s) => ({
        companyId, period: s.period, fiscalYear: s.fiscalYear, fiscalQuarter: s.fiscalQuarter, periodStart: s.periodStart, periodEnd: s.periodEnd, currency: imported.currency, ...s.values,
      }));
      await insertStatements(manager, kind, rows);
    }
    await insertValueSources(manager, companyId, imported.sources);
    return { companyId, ticker, statements: imported.statements.length, values: imported.sources.length };
  });
}

/** CIK → ticker from the SEC's company_tickers.json ({"0": {cik_str, ticker, title}, …}); the first listed ticker wins. */
export function tickerIndex(json: unknown): Map<number, string> {
  const index = new Map<number, string>();
  for (const entry of Object.values((json ?? {}) as Record<string, { cik_str?: number; ticker?: string }>)) {
    if (typeof entry?.cik_str === 'number' && typeof entry.ticker === 'string' && !index.has(entry.cik_str)) index.set(entry.cik_str, entry.ticker);
  }
  return index;
}
