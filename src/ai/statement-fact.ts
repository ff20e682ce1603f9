import type { GroundingFact } from './grounding';

/** A figure of a statement (or derived from statements) as the AI pipeline states and checks it. */
export type FactSource = 'income_statement' | 'balance_sheet' | 'cash_flow' | 'ratios' | 'derived';

export interface StatementFact extends GroundingFact {
  companyId: number;
  ticker: string;
  period: string;
  source: FactSource;
  /** camelCase field name, e.g. "netIncome", "grossMargin", "revenueChange". */
  field: string;
  /** Words for prose, e.g. "net income". */
  label: string;
}
