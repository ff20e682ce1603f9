import type { GroundingFact } from './grounding';

/**
 * A figure of a statement (or derived from statements) as the AI pipeline states and checks it. `question`: a figure
 * the question itself gave (a screen's threshold, "gross margin above 60%"), which an answer may restate; never cited.
 */
export type FactSource =
  'income_statement' | 'balance_sheet' | 'cash_flow' | 'ratios' | 'derived' | 'document' | 'question';

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

/** The field of a figure read from a document (its label and chunk say what it is). */
export const DOCUMENT_FIGURE = 'documentFigure';

/** A figure read from a document, as the pipeline states and checks it. */
export interface DocumentFigureFact extends StatementFact {
  source: 'document';
  /** The terms of its label and what it sits under, to check that it is the figure asked. */
  terms: string[];
  chunkId: number;
  documentId: number;
  title: string;
  page: number;
}
