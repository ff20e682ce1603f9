import type { DataSource, EntityManager } from 'typeorm';
import { IncomeStatement } from '../statements/income-statement.entity';
import { BalanceSheet } from '../statements/balance-sheet.entity';
import { CashFlowStatement } from '../statements/cash-flow-statement.entity';
import type { StatementKind } from './concept-map';
import type { ImportedCompany } from './companyfacts';

const ENTITIES: Record<StatementKind, typeof IncomeStatement | typeof BalanceSheet | typeof CashFlowStatement> = {
  income: IncomeStatement,
  balance: BalanceSheet,
  cashFlow: CashFlowStatement,
};

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
    const [existing]: Array<{ id: number }> = await manager.query('SELECT id FROM companies WHERE cik = $1 OR upper(ticker) = upper($2) ORDER BY (cik = $1) DESC LIMIT 1', [imported.cik, ticker]);
    let companyId: number;
    if (existing) {
      companyId = existing.id;
      await manager.query('UPDATE companies SET name = $2, ticker = $3, cik = $4, fiscal_year_end = $5, currency = $6 WHERE id = $1', [companyId, imported.name, ticker, imported.cik, imported.fiscalYearEndMonth, imported.currency]);
    } else {
      [{ id: companyId }] = await manager.query(
        // A us-gaap filer files with the SEC as a US company; companyfacts does not say where a foreign (IFRS) filer is.
        `INSERT INTO companies (name, ticker, sector, currency, fiscal_year_end, cik, country) VALUES ($1, $2, $3, $6, $4, $5, $7) RETURNING id`,
        [imported.name, ticker, UNCLASSIFIED_SECTOR, imported.fiscalYearEndMonth, imported.cik, imported.currency, imported.taxonomy === 'us-gaap' ? 'US' : null],
      );
    }
    for (const entity of Object.values(ENTITIES)) await manager.getRepository(entity).delete({ companyId });
    await manager.query('DELETE FROM statement_value_sources WHERE company_id = $1', [companyId]);
    for (const [kind, entity] of Object.entries(ENTITIES) as Array<[StatementKind, (typeof ENTITIES)[StatementKind]]>) {
      const rows = imported.statements.filter((s) => s.statement === kind).map((s) => ({
        companyId, period: s.period, fiscalYear: s.fiscalYear, fiscalQuarter: s.fiscalQuarter, periodStart: s.periodStart, periodEnd: s.periodEnd, currency: imported.currency, ...s.values,
      }));
      for (let i = 0; i < rows.length; i += 200) await manager.getRepository(entity).insert(rows.slice(i, i + 200) as never);
    }
    const sources = imported.sources;
    for (let i = 0; i < sources.length; i += 500) {
      const batch = sources.slice(i, i + 500);
      await manager.query(
        `INSERT INTO statement_value_sources (company_id, statement, period, field, value, reported_value, concept, accession, form, filed, derived, restated)
         SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::numeric[], $6::numeric[], $7::text[], $8::text[], $9::text[], $10::date[], $11::bool[], $12::bool[])`,
        [
          companyId, batch.map((s) => s.statement), batch.map((s) => s.period), batch.map((s) => s.field), batch.map((s) => s.value), batch.map((s) => s.reportedValue),
          batch.map((s) => s.concept), batch.map((s) => s.accession), batch.map((s) => s.form), batch.map((s) => s.filed), batch.map((s) => s.derived), batch.map((s) => s.restated),
        ],
      );
    }
    return { companyId, ticker, statements: imported.statements.length, values: sources.length };
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
