import type { StatementKind } from './statement-kind';

export type { ValueSourceRow } from './statement.repository';

/**
 * What an import makes of a company's filings (its XBRL company facts, or the statement tables of a stored document):
 * statements, and where each of their values came from.
 */

export interface ImportedStatement {
  statement: StatementKind;
  period: string;
  fiscalYear: number;
  fiscalQuarter: number | null;
  periodStart: string;
  periodEnd: string;
  values: Record<string, number>;
}
