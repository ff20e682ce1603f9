/**
 * The answer to a question about a figure only the documents hold: the value with its scale and period, the label
 * as the filing writes it, and where it stands (document and chunk). Where no document gives it, that is said first,
 * naming what was looked for; a figure of another period may follow, labelled as not the one asked.
 */
import type { Company } from '../../companies/company.entity';
import { findFigure } from '../../documents/fact-matching';
import type { StoredDocumentFact } from '../../documents/document-facts.repository';
import { strongTerms } from '../../understanding/figure-terms';
import { DOCUMENT_FIGURE, type DocumentFigureFact } from '../statement-fact';
import { formatMoney } from '../numbers';
import type { FigureAsk } from './asked-figure';

/** Words that offer a figure as related, not as the one asked. */
export const RELATED_FIGURE = /\b(?:for reference only|not the (?:period|figure) asked|a related figure)\b/i;

export interface FigureFacts {
  ask: FigureAsk;
  /** The period asked (FY2024, Q2-2025), null for none named (the newest the documents give). */
  period: string | null;
  companies: Array<{ company: Pick<Company, 'id' | 'ticker' | 'currency'>; facts: StoredDocumentFact[] }>;
}

/** A stored document figure as a fact the grounding check binds written figures to (percentages as fractions). */
export function figureFact(fact: StoredDocumentFact, ticker: string): DocumentFigureFact {
  return {
    companyId: fact.companyId,
    ticker,
    period: fact.period,
    source: 'document',
    field: DOCUMENT_FIGURE,
    label: fact.label,
    unit: fact.unit === 'percent' ? 'fraction' : 'money',
    value: fact.unit === 'percent' ? fact.value / 100 : fact.value,
    terms: strongTerms(`${fact.label} ${fact.kind === 'table' ? fact.context : ''}`),
    chunkId: fact.chunkId,
    documentId: fact.documentId,
    title: fact.title,
    page: fact.page,
  };
}

function written(fact: StoredDocumentFact, currency: string): string {
  if (fact.unit === 'percent') return `${fact.value}%`;
  if (fact.unit === 'count') return fact.value.toLocaleString('en-US', { maximumFractionDigits: 2 });
  const short = formatMoney(fact.value, currency);
  const millions = fact.value / 1e6;
  if (Math.abs(fact.value) < 1e9 || !Number.isInteger(Math.round(millions * 1000) / 1000)) return short;
  return `${short} (${currency === 'USD' ? '$' : `${currency} `}${millions.toLocaleString('en-US', { maximumFractionDigits: 3 })} million)`;
}

const where = (fact: StoredDocumentFact) =>
  `[${fact.title}${fact.documentPeriod ? `, ${fact.documentPeriod}` : ''}, page ${fact.page}, chunk ${fact.chunkId}]`;

/** The figures an answer states, for the grounding check and citations. */
export function answeredFigures(figures: FigureFacts | null | undefined): DocumentFigureFact[] {
  if (!figures) return [];
  return figures.companies.flatMap(({ company, facts }) => {
    const { figure, periods } = findFigure(figures.ask, facts, figures.period);
    // Where the asked period is not given, the newest period given is offered as related: it is checked too.
    const stated = figure ?? (periods.length > 0 ? findFigure(figures.ask, facts, periods[0]).figure : null);
    return stated ? [figureFact(stated, company.ticker)] : [];
  });
}

function companyAnswer(ask: FigureAsk, asked: string | null, company: FigureFacts['companies'][number]): string[] {
  const ticker = `${company.company.ticker}\u2019s`;
  const { figure, periods } = findFigure(ask, company.facts, asked);
  if (figure) {
    const under = figure.kind === 'table' && figure.context ? ` under \u201c${figure.context}\u201d` : '';
    return [
      `${ticker} ${ask.wording} for ${figure.period} was ${written(figure, company.company.currency)}: the filing writes it as \u201c${figure.label}\u201d${under} ${where(figure)}.`,
    ];
  }
  const documents = new Set(company.facts.map((f) => f.documentId)).size;
  const scope = asked ? ` for ${asked}` : '';
  const lead = `No stored filing of ${company.company.ticker} gives ${ask.wording}${scope}: I looked for \u201c${ask.wording}\u201d among the figures read from its ${documents} stored document${documents === 1 ? '' : 's'}${periods.length > 0 ? '' : ' and found none'}.`;
  if (periods.length === 0) return [lead];
  const { figure: other } = findFigure(ask, company.facts, periods[0]);
  const related = other
    ? ` For reference only, not the period asked: ${periods[0]}, ${written(other, company.company.currency)}, \u201c${other.label}\u201d ${where(other)}.`
    : '';
  return [`${lead} The filings give it for ${periods.join(', ')} only.${related}`];
}

/** The whole answer, company by company. */
export function answerFigure(figures: FigureFacts): string {
  if (figures.companies.length === 0) return `No company was named, so I cannot look up ${figures.ask.wording}.`;
  return figures.companies.flatMap((company) => companyAnswer(figures.ask, figures.period, company)).join(' ');
}
