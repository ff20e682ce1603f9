/**
 * The ratios of every stored period that has an income statement, kept in the database so a screen filters and sorts
 * them in SQL. They are computed here by the same definitions and from the same statements as the ratios a client
 * reads (see loadRatios); triggers queue a company whenever its statements change, and a screen computes the queued
 * ones before it reads. Writers of many statements (the SEC import) compute their companies' ratios in their own
 * transaction, so the ratios land with the statements.
 */
import type { DataSource, EntityManager } from 'typeorm';
import {
  compareNewestFirst,
  parseExactPeriod,
  previousPeriod,
  samePeriodLastYear,
  type FiscalPeriod,
} from './fiscal-period';
import { computeRatios, RATIO_DEFINITIONS } from './ratios';
import { findStatementsOfCompanies, STATEMENT_ENTITIES, type StatementOf } from './statement.repository';
import type { StatementKind } from './statement-kind';
import {
  dequeueRatioRefresh,
  findRatioLayout,
  hasQueuedRatioRefresh,
  replaceRatioLayout,
  replaceStoredRatios,
  takeQueuedRatioRefresh,
  type StoredRatiosRow,
} from './stored-ratios.repository';

/** Companies computed in one transaction: each has up to ~50 periods of three statements. */
const REFRESH_BATCH = 200;

/** The order of the stored arrays: the definitions' own. */
const LAYOUT = RATIO_DEFINITIONS.map((definition) => definition.key);
const POSITIONS = new Map(LAYOUT.map((key, index) => [key, index + 1]));

/** Where a ratio sits in a stored array (SQL arrays count from 1). */
export function storedRatioPosition(key: string): number {
  const position = POSITIONS.get(key);
  if (position === undefined) throw new Error(`No ratio "${key}"`);
  return position;
}

// Checked once a process for each database: a version whose definitions differ from those the stored arrays follow
// queues every company.
const layoutChecked = new WeakSet<DataSource>();

async function ensureLayout(manager: EntityManager): Promise<void> {
  if (layoutChecked.has(manager.connection)) return;
  const stored = await findRatioLayout(manager);
  if (stored === null || stored.join(',') !== LAYOUT.join(',')) await replaceRatioLayout(manager, LAYOUT);
  layoutChecked.add(manager.connection);
}

type StatementsByLabel = { [K in StatementKind]: Map<string, StatementOf<K>> };

/**
 * A company's stored ratios: one row per period that has an income statement (the periods a screen reads), as
 * loadRatios computes them, its newest fiscal year and newest quarter marked.
 */
function ratiosOfCompany(companyId: number, statements: StatementsByLabel): StoredRatiosRow[] {
  const at = <K extends StatementKind>(kind: K, period: FiscalPeriod) => statements[kind].get(period.label) ?? null;
  const periods = [...statements.income.keys()]
    .map(parseExactPeriod)
    .filter((period): period is FiscalPeriod => period !== null)
    .sort(compareNewestFirst);
  const newest = new Set(['ANNUAL', 'QUARTER'].map((type) => periods.find((period) => period.type === type)));
  return periods.map((period) => {
    const computed = computeRatios({
      periodType: period.type,
      income: at('income', period),
      balance: at('balance', period),
      cashFlow: at('cashFlow', period),
      previousBalance: at('balance', previousPeriod(period)),
      priorYearIncome: at('income', samePeriodLastYear(period)),
    });
    return { companyId, period: period.label, ratios: LAYOUT.map((key) => computed[key]), newest: newest.has(period) };
  });
}

/** Computes and stores the ratios of the given companies in the caller's transaction. */
async function computeStoredRatios(manager: EntityManager, companyIds: readonly number[]): Promise<void> {
  const byCompany = new Map<number, StatementsByLabel>(
    companyIds.map((id) => [id, { income: new Map(), balance: new Map(), cashFlow: new Map() }]),
  );
  for (const kind of Object.keys(STATEMENT_ENTITIES) as StatementKind[]) {
    for (const row of await findStatementsOfCompanies(manager, kind, companyIds))
      (byCompany.get(row.companyId)?.[kind] as Map<string, unknown>).set(row.period, row);
  }
  const rows = [...byCompany].flatMap(([companyId, statements]) => ratiosOfCompany(companyId, statements));
  await replaceStoredRatios(manager, companyIds, rows);
}

/** Stores the ratios of companies whose statements the caller's transaction wrote, and takes them off the queue. */
export async function storeRatiosOf(manager: EntityManager, companyIds: readonly number[]): Promise<void> {
  if (companyIds.length === 0) return;
  await ensureLayout(manager);
  await dequeueRatioRefresh(manager, companyIds);
  await computeStoredRatios(manager, companyIds);
}

/**
 * Computes the ratios of every queued company, a batch a transaction, so stored ratios match the statements; answers
 * how many companies it computed.
 */
export async function refreshQueuedRatios(dataSource: DataSource): Promise<number> {
  await ensureLayout(dataSource.manager);
  if (!(await hasQueuedRatioRefresh(dataSource.manager))) return 0;
  let computed = 0;
  for (;;) {
    const taken = await dataSource.transaction(async (manager) => {
      const companyIds = await takeQueuedRatioRefresh(manager, REFRESH_BATCH);
      if (companyIds.length > 0) await computeStoredRatios(manager, companyIds);
      return companyIds.length;
    });
    computed += taken;
    if (taken < REFRESH_BATCH) return computed;
  }
}
