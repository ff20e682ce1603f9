import type { EntityManager } from 'typeorm';
import { findDocumentFacts } from './document-facts.repository';
import { filedStatements } from './filed-statements';
import { findCompanyById } from '../companies/company.repository';
import {
  deleteStatementsFromDocuments,
  findPeriodsNotFromDocuments,
  insertStatements,
  insertValueSources,
  replaceFiledValues,
  STATEMENT_ENTITIES,
  type StatementKind,
} from '../statements/statement.repository';

/**
 * Makes a company's statements read from its stored documents current: those read before are replaced by what the
 * documents show now. A period that has a statement from XBRL facts (or demo data) keeps it: XBRL wins. Runs in the
 * caller's transaction (the one that stores a document, or imports the company's facts), so a failure leaves the
 * statements as they were. Returns how many statements the documents gave.
 */
export async function refreshDocumentStatements(manager: EntityManager, companyId: number): Promise<number> {
  const company = await findCompanyById(manager, companyId);
  if (!company) return 0;
  const facts = await findDocumentFacts(manager, [companyId], 'table');
  // Statements from documents exist only where table figures do (a document is never removed once stored).
  if (facts.length === 0) return 0;
  const { statements, sources } = filedStatements(facts, company.fiscalYearEnd);
  await deleteStatementsFromDocuments(manager, companyId);
  const held = new Set(
    (await findPeriodsNotFromDocuments(manager, companyId)).map(({ statement, period }) => `${statement}|${period}`),
  );
  const free = (key: { statement: StatementKind; period: string }) => !held.has(`${key.statement}|${key.period}`);
  const stored = statements.filter(free);
  for (const kind of Object.keys(STATEMENT_ENTITIES) as StatementKind[]) {
    const rows = stored
      .filter((statement) => statement.statement === kind)
      .map(({ period, fiscalYear, fiscalQuarter, periodStart, periodEnd, values }) => ({
        companyId,
        period,
        fiscalYear,
        fiscalQuarter,
        periodStart,
        periodEnd,
        currency: company.currency,
        ...values,
      }));
    await insertStatements(manager, kind, rows);
  }
  await insertValueSources(manager, companyId, sources.filter(free));
  // What the filings show for the statements they did not make: the filings-agree check compares them.
  const shown = sources.filter((source) => !free(source) && !source.derived && source.documentId !== null);
  await replaceFiledValues(
    manager,
    companyId,
    shown.map(({ statement, period, field, value, documentId, page, concept }) => ({
      companyId,
      statement,
      period,
      field,
      value,
      documentId: documentId as number,
      page,
      label: concept,
    })),
  );
  return stored.length;
}
