import { CAPS } from '../operations/catalog';
import type { FactSheet, StatementFact } from './facts';
import { formatMoney, formatMultiple, formatPercent, formatPerShare, formatPoints } from './numbers';

export const SUMMARY_TYPES = CAPS.summarize.summaryTypes;
export type SummaryType = (typeof SUMMARY_TYPES)[number];

export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

/**
 * The service's own operations, for a writer that calls tools (the language-model agent); they run in-process on the
 * caller's request (its loaders, so its role), and what they return joins the sheet's facts and passages, which the
 * answer is then checked against.
 */
export interface ToolRunner {
  run(name: string, args: Record<string, unknown>): Promise<string>;
}

/** What to write, with the facts it must be written from. */
export type WritingTask = (
  | { kind: 'summary'; summaryType: SummaryType; sheet: FactSheet }
  | { kind: 'comparison'; sheet: FactSheet; metrics: string[] }
  | { kind: 'chat'; sheet: FactSheet; messages: ChatTurn[] }
) & { tools?: ToolRunner };

/** Progress a writer reports between pieces of text, e.g. a tool call ("Looking up AAPL revenue FY2024"). */
export interface WriterStatus {
  status: string;
}

/** Writes analysis text from facts, piece by piece (pieces are streamed to chat clients as they come). */
export interface Writer {
  /** Reported with every answer, e.g. "builtin-analyst-v1" or "openai:api.openai.com/gpt-4o-mini". */
  readonly model: string;
  write(task: WritingTask, signal: AbortSignal): AsyncIterable<string | WriterStatus>;
}

/** A fact as prose shows it: the unit decides the form ("$8.95 billion", "12.5%", "1.8x", "3.1 percentage points"). */
export function formatFact(fact: Pick<StatementFact, 'value' | 'unit'>, currency = 'USD'): string {
  switch (fact.unit) {
    case 'money':
      return formatMoney(fact.value, currency);
    case 'money_per_share':
      return formatPerShare(fact.value, currency);
    case 'fraction':
      return formatPercent(fact.value);
    case 'points':
      return formatPoints(fact.value);
    case 'multiple':
      return formatMultiple(fact.value);
    default:
      return fact.value.toLocaleString('en-US', { maximumFractionDigits: 1 });
  }
}
