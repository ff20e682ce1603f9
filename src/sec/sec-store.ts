import type { DataSource, EntityManager } from 'typeorm';
import { insertImportedCompany, updateFilerProfile, updateImportedCompany } from '../companies/company.repository';
import { findFiler } from '../companies/company-writing.service';
import {
  deleteCompanyStatements,
  insertStatements,
  insertValueSources,
  STATEMENT_ENTITIES,
  type StatementKind,
} from '../statements/statement.repository';
import type { ImportedCompany } from './companyfacts';
import { UNCLASSIFIED_SECTOR, type FilerProfile } from './submissions';
import { inSavepoint, recordImportedFile } from './sec-import.repository';
import { refreshDocumentStatements } from '../documents/document-statements.service';
import { storeRatiosOf } from '../statements/stored-ratios';

export interface StoredImport {
  companyId: number;
  ticker: string;
  statements: number;
  values: number;
}

/** What the bulk import adds to a company's facts: its submissions profile, and the fingerprint of its files. */
export interface ImportExtras {
  profile?: FilerProfile | null;
  fingerprint?: string;
}

/**
 * Writes one imported company in one transaction: the company (found by CIK or ticker, else created; a company made
 * through the API is filled, its sector and description kept), and its statements and value sources, replacing what
 * an earlier import stored for it. All of it lands, or none; a CIK and a ticker of two different companies are
 * refused (CONFLICT) rather than merged.
 */
export function storeImport(
  dataSource: DataSource,
  imported: ImportedCompany,
  ticker: string,
  extras: ImportExtras = {},
): Promise<StoredImport> {
  return dataSource.transaction(async (manager: EntityManager) => {
    const stored = await storeImportWith(manager, imported, ticker, extras);
    await storeRatiosOf(manager, [stored.companyId]);
    return stored;
  });
}

/** One company of a batch: stored, or the error that refused it (its own writes undone, the batch's kept). */
export type BatchOutcome = { stored: StoredImport } | { error: unknown };

/** Writes several imported companies in one transaction, each all or nothing on its own (see storeImport). */
export function storeImports(
  dataSource: DataSource,
  items: ReadonlyArray<{ imported: ImportedCompany; ticker: string; extras: ImportExtras }>,
): Promise<BatchOutcome[]> {
  return dataSource.transaction(async (manager: EntityManager) => {
    const outcomes: BatchOutcome[] = [];
    for (const { imported, ticker, extras } of items) {
      try {
        outcomes.push({ stored: await inSavepoint(manager, () => storeImportWith(manager, imported, ticker, extras)) });
      } catch (error) {
        outcomes.push({ error });
      }
    }
    await storeRatiosOf(
      manager,
      outcomes.flatMap((outcome) => ('stored' in outcome ? [outcome.stored.companyId] : [])),
    );
    return outcomes;
  });
}

async function storeImportWith(
  manager: EntityManager,
  imported: ImportedCompany,
  ticker: string,
  { profile, fingerprint }: ImportExtras,
): Promise<StoredImport> {
  const fiscalYearEnd = profile?.fiscalYearEndMonth ?? imported.fiscalYearEndMonth;
  const company = { name: imported.name, ticker, cik: imported.cik, fiscalYearEnd, currency: imported.currency };
  const existing = await findFiler(manager, imported.cik, ticker);
  // A us-gaap filer files with the SEC as a US company; companyfacts does not say where a foreign (IFRS) filer is.
  const country = imported.taxonomy === 'us-gaap' ? 'US' : null;
  const companyId =
    existing?.id ?? (await insertImportedCompany(manager, { ...company, sector: UNCLASSIFIED_SECTOR, country }));
  if (existing) await updateImportedCompany(manager, companyId, company);
  if (profile) await updateFilerProfile(manager, companyId, profile, UNCLASSIFIED_SECTOR);
  await deleteCompanyStatements(manager, companyId);
  for (const kind of Object.keys(STATEMENT_ENTITIES) as StatementKind[]) {
    const rows = imported.statements
      .filter((s) => s.statement === kind)
      .map((s) => ({
        companyId,
        period: s.period,
        fiscalYear: s.fiscalYear,
        fiscalQuarter: s.fiscalQuarter,
        periodStart: s.periodStart,
        periodEnd: s.periodEnd,
        currency: imported.currency,
        ...s.values,
      }));
    await insertStatements(manager, kind, rows);
  }
  await insertValueSources(manager, companyId, imported.sources);
  // The periods XBRL does not cover keep the statements the company's documents show.
  await refreshDocumentStatements(manager, companyId);
  if (fingerprint) await recordImportedFile(manager, imported.cik, fingerprint);
  return { companyId, ticker, statements: imported.statements.length, values: imported.sources.length };
}

/** CIK → ticker from the SEC's company_tickers.json ({"0": {cik_str, ticker, title}, …}); the first listed ticker wins. */
export function tickerIndex(json: unknown): Map<number, string> {
  const index = new Map<number, string>();
  for (const entry of Object.values((json ?? {}) as Record<string, { cik_str?: number; ticker?: string }>)) {
    if (typeof entry?.cik_str === 'number' && typeof entry.ticker === 'string' && !index.has(entry.cik_str))
      index.set(entry.cik_str, entry.ticker);
  }
  return index;
}
