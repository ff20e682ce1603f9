/** What a parsed question needs from the stores: the companies to match names against, and the passages to quote. */
import type { DataSource } from 'typeorm';
import { parseExactPeriod } from '../../statements/fiscal-period';
import type { DocumentPassage } from '../facts';
import type { CompanyRef } from '../../understanding/companies';
import { periodsBetween } from './periods';
import { findCompanyDirectory } from '../../companies/company.repository';
import type { ParsedQuestion } from './question';

const lastDirectory = new WeakMap<DataSource, CompanyRef[]>();

const sameCompany = (a: CompanyRef, b: CompanyRef) =>
  a.id === b.id && a.ticker === b.ticker && a.name === b.name && a.size === b.size;

/**
 * Every stored company by id, ticker, name and size (the directory question understanding matches names against).
 * While the companies are unchanged it is the same array as before, so the index of names built on it is reused
 * rather than built again for every question.
 */
export async function companyDirectory(dataSource: DataSource): Promise<CompanyRef[]> {
  const rows = await findCompanyDirectory(dataSource.manager);
  const last = lastDirectory.get(dataSource);
  if (last && last.length === rows.length && rows.every((row, i) => sameCompany(row, last[i]))) return last;
  lastDirectory.set(dataSource, rows);
  return rows;
}

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
