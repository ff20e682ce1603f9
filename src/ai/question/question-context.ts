/** What a parsed question needs from the stores: the passages to quote (the companies come from the directory). */
import { parseExactPeriod } from '../../statements/fiscal-period';
import type { DocumentPassage } from '../facts';
import { periodsBetween } from './periods';
import type { ParsedQuestion } from './question';

const QUERIES = {
  risks: 'risk factors could adversely affect harm demand supply competition regulation',
  drivers: 'increase decrease compared driven by due to primarily reflecting results of operations',
  general: 'results operations revenue margin outlook',
};

/** The search query for a question's passages: its own words plus the vocabulary of what it asks. */
export function passageQuery(question: ParsedQuestion): string {
  const extra = question.intent === 'risks' ? QUERIES.risks : question.intent === 'drivers' ? QUERIES.drivers : '';
  const metrics = question.metrics.map((m) => m.label).join(' ');
  return `${question.text.slice(0, 800)} ${metrics} ${extra}`.trim();
}

/** The fiscal years a question's periods fall in (null: it names none, so any period will do). */
function askedYears(question: ParsedQuestion): Set<number> | null {
  const ask = question.period;
  if (!ask || ask.kind === 'latest' || ask.kind === 'last' || ask.kind === 'ttm') return null;
  const periods = ask.kind === 'exact' ? ask.periods : periodsBetween(ask.from, ask.to);
  return new Set(periods.map((p) => p.fiscalYear));
}

/** Passages of one fiscal year (that of `label`, e.g. FY2024 or Q2-2024); null for no period (any passage). */
export function fiscalYearFilter(label: string | null): ((passage: DocumentPassage) => boolean) | undefined {
  const wanted = label ? parseExactPeriod(label) : null;
  if (!wanted) return undefined;
  return (passage) => (passage.period ? parseExactPeriod(passage.period)?.fiscalYear === wanted.fiscalYear : false);
}

/**
 * Which passages a question may quote: of its companies (the search filters that), of the fiscal years it names,
 * and of the document type it names ("10-K", "annual report", "10-Q", "quarterly report").
 */
export function passageFilter(question: ParsedQuestion): (passage: DocumentPassage) => boolean {
  const years = askedYears(question);
  const docType = /\b10-?K\b|\bannual report\b/i.test(question.text)
    ? '10-K'
    : /\b10-?Q\b|\bquarterly report\b/i.test(question.text)
      ? '10-Q'
      : null;
  const companies = new Set(question.companies.map((c) => c.id));
  return (passage) => {
    if (companies.size > 0 && !companies.has(passage.companyId)) return false;
    if (docType && passage.docType.toUpperCase() !== docType) return false;
    if (years) {
      const period = passage.period ? parseExactPeriod(passage.period) : null;
      if (!period || !years.has(period.fiscalYear)) return false;
    }
    return true;
  };
}
