import type { StatementKind } from './concept-map';

/** What the import makes of a company's facts: statements, and where each of their values came from. */

/** Where one stored value came from. */
export interface ValueSource {
  statement: StatementKind;
  period: string;
  field: string;
  /** As stored (payments negated into cash outflows). */
  value: number;
  /** As filed (or as derived from filed values). */
  reportedValue: number;
  concept: string;
  accession: string;
  form: string;
  filed: string;
  /** Computed from other periods (Q2 = H1 − Q1, Q4 = FY − 9M…) rather than filed as such. */
  derived: boolean;
  /** A later filing changed the value first reported; the later one is kept. */
  restated: boolean;
}

export interface ImportedStatement {
  statement: StatementKind;
  period: string;
  fiscalYear: number;
  fiscalQuarter: number | null;
  periodStart: string;
  periodEnd: string;
  values: Record<string, number>;
}
