import type { DataSource } from 'typeorm';
import { AppError } from '../shared/errors';
import type { Company } from '../companies/company.entity';
import { findCompany } from '../companies/company.service';
import { samePeriodLastYear } from '../statements/fiscal-period';
import type { StatementLoaders } from '../statements/statement.loaders';
import { loadRatios, resolvePeriod } from '../statements/statement.service';
import type { SearchBackend } from '../search/search-backend.types';
import { search } from '../search/search.service';
import type { FactUnit } from './grounding';
import type { FactSource, StatementFact } from './statement-fact';
import { askedFactList, type AskedFacts } from './question/asked-facts';
import { answeredFigures, type FigureFacts } from './question/figure-answer';

/**
 * Facts first: everything an analysis may say, gathered from the database before a word is written. A writer
 * states these facts and nothing else; the grounding check holds it to that.
 */

export type { FactSource, StatementFact } from './statement-fact';

export interface DocumentPassage {
  chunkId: number;
  documentId: number;
  companyId: number;
  ticker: string;
  title: string;
  docType: string;
  period: string | null;
  /** Page of the document the passage is on, from 1. */
  page: number;
  content: string;
}

export interface CompanyFacts {
  company: Company;
  period: string;
  priorPeriod: string;
  /** The period's facts by field; a field the company does not report is absent. */
  current: Map<string, StatementFact>;
  /** The same fields one fiscal year earlier (absent when not stored). */
  prior: Map<string, StatementFact>;
}

export interface FactSheet {
  companies: CompanyFacts[];
  passages: DocumentPassage[];
  /** Chat: the facts the question asked for (each asked company, period and metric), when it named them. */
  asked?: AskedFacts | null;
  /** Figures the language-model agent looked up with its tools (the answer is checked against these too). */
  toolFacts?: StatementFact[];
  /** Chat: the figures of the companies' documents, when the question asks for a figure only documents hold. */
  figures?: FigureFacts | null;
  /** Chat: why no figure is given, when the question defines its metric otherwise than the service computes it. */
  notComputed?: string | null;
  /** Chat: the answer to a metric the question defines, with its result and inputs as facts. */
  defined?: { text: string; facts: StatementFact[] } | null;
  /** Chat: the answer to a question about the whole market, with each listed value as a fact. */
  screened?: { text: string; facts: StatementFact[] } | null;
  /** Statement values read from a stored document, by `statementSourceKey`: the document and page to cite. */
  statementDocuments?: Map<string, { documentId: number; title: string; page: number | null }>;
}

const STATEMENT_OF_SOURCE: Partial<Record<FactSource, string>> = {
  income_statement: 'income',
  balance_sheet: 'balance',
  cash_flow: 'cashFlow',
};

/** The key of a statement value: company, statement kind (income, balance, cashFlow), period and field. */
export function statementValueKey(companyId: number, statement: string, period: string, field: string): string {
  return `${companyId}|${statement}|${period}|${field}`;
}

/** The key of the statement value a fact states. */
export function statementSourceKey(companyId: number, source: FactSource, period: string, field: string): string {
  return statementValueKey(companyId, STATEMENT_OF_SOURCE[source] ?? source, period, field);
}

interface FieldSpec {
  source: Exclude<FactSource, 'derived' | 'document' | 'question'>;
  field: string;
  label: string;
  unit: FactUnit;
}

const STATEMENT_FIELDS: FieldSpec[] = [
  { source: 'income_statement', field: 'revenue', label: 'revenue', unit: 'money' },
  { source: 'income_statement', field: 'grossProfit', label: 'gross profit', unit: 'money' },
  { source: 'income_statement', field: 'operatingIncome', label: 'operating income', unit: 'money' },
  { source: 'income_statement', field: 'netIncome', label: 'net income', unit: 'money' },
  { source: 'income_statement', field: 'ebitda', label: 'EBITDA', unit: 'money' },
  {
    source: 'income_statement',
    field: 'researchAndDevelopment',
    label: 'research and development spending',
    unit: 'money',
  },
  { source: 'income_statement', field: 'interestExpense', label: 'interest expense', unit: 'money' },
  { source: 'income_statement', field: 'epsDiluted', label: 'diluted EPS', unit: 'money_per_share' },
  { source: 'balance_sheet', field: 'cashAndEquivalents', label: 'cash and equivalents', unit: 'money' },
  { source: 'balance_sheet', field: 'totalAssets', label: 'total assets', unit: 'money' },
  { source: 'balance_sheet', field: 'totalLiabilities', label: 'total liabilities', unit: 'money' },
  { source: 'balance_sheet', field: 'totalEquity', label: 'shareholders\u2019 equity', unit: 'money' },
  { source: 'balance_sheet', field: 'shortTermDebt', label: 'short-term debt', unit: 'money' },
  { source: 'balance_sheet', field: 'longTermDebt', label: 'long-term debt', unit: 'money' },
  { source: 'cash_flow', field: 'operatingCashFlow', label: 'operating cash flow', unit: 'money' },
  { source: 'cash_flow', field: 'capitalExpenditure', label: 'capital expenditure', unit: 'money' },
  { source: 'cash_flow', field: 'freeCashFlow', label: 'free cash flow', unit: 'money' },
  { source: 'cash_flow', field: 'dividendsPaid', label: 'dividends paid', unit: 'money' },
  { source: 'cash_flow', field: 'shareRepurchases', label: 'share repurchases', unit: 'money' },
  { source: 'ratios', field: 'grossMargin', label: 'gross margin', unit: 'fraction' },
  { source: 'ratios', field: 'operatingMargin', label: 'operating margin', unit: 'fraction' },
  { source: 'ratios', field: 'netMargin', label: 'net margin', unit: 'fraction' },
  { source: 'ratios', field: 'returnOnEquity', label: 'return on equity', unit: 'fraction' },
  { source: 'ratios', field: 'freeCashFlowMargin', label: 'free cash flow margin', unit: 'fraction' },
  { source: 'ratios', field: 'currentRatio', label: 'current ratio', unit: 'multiple' },
  { source: 'ratios', field: 'debtToEquity', label: 'debt to equity', unit: 'multiple' },
  { source: 'ratios', field: 'interestCoverage', label: 'interest coverage', unit: 'multiple' },
  { source: 'ratios', field: 'netDebtToEbitda', label: 'net debt to EBITDA', unit: 'multiple' },
];

/** Year-over-year changes worth stating: growth of amounts (a fraction) and shifts of margins (percentage points). */
const GROWTH_FIELDS = ['revenue', 'operatingIncome', 'netIncome', 'operatingCashFlow', 'freeCashFlow'];
const MARGIN_FIELDS = ['grossMargin', 'operatingMargin', 'netMargin'];

/** Every fact of a sheet, current and prior, in a stable order (indexes are used for citations). */
export function allFacts(sheet: FactSheet): StatementFact[] {
  return [
    ...sheet.companies.flatMap((company) => [...company.current.values(), ...company.prior.values()]),
    ...askedFactList(sheet.asked),
    ...answeredFigures(sheet.figures),
    ...(sheet.defined?.facts ?? []),
    ...(sheet.screened?.facts ?? []),
    ...(sheet.toolFacts ?? []),
  ];
}

type Row = Record<string, unknown> | null;

/** The facts of one period: statement fields, ratios, and derived totals. */
function periodFacts(
  company: Company,
  period: string,
  statements: Record<FieldSpec['source'], Row>,
): Map<string, StatementFact> {
  const facts = new Map<string, StatementFact>();
  const add = (source: FactSource, field: string, label: string, unit: FactUnit, value: unknown) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) return;
    facts.set(field, { companyId: company.id, ticker: company.ticker, period, source, field, label, unit, value });
  };
  for (const spec of STATEMENT_FIELDS)
    add(spec.source, spec.field, spec.label, spec.unit, statements[spec.source]?.[spec.field]);
  const debt = ['shortTermDebt', 'longTermDebt']
    .map((field) => facts.get(field)?.value)
    .filter((value) => value !== undefined);
  if (debt.length > 0)
    add(
      'derived',
      'totalDebt',
      'total debt',
      'money',
      debt.reduce((sum, value) => sum + value, 0),
    );
  return facts;
}

/** Adds the year-over-year changes to the current period's facts. */
function addChanges(current: Map<string, StatementFact>, prior: Map<string, StatementFact>): void {
  const derive = (field: string, label: string, unit: FactUnit, value: number) => {
    const anchor = current.get(field.replace(/Change$/, '')) as StatementFact;
    current.set(field, { ...anchor, source: 'derived', field, label, unit, value });
  };
  for (const field of GROWTH_FIELDS) {
    const now = current.get(field)?.value;
    const before = prior.get(field)?.value;
    if (now === undefined || before === undefined || before <= 0) continue; // growth from a loss has no meaning
    derive(`${field}Change`, `${current.get(field)?.label} growth`, 'fraction', (now - before) / before);
  }
  for (const field of MARGIN_FIELDS) {
    const now = current.get(field)?.value;
    const before = prior.get(field)?.value;
    if (now === undefined || before === undefined) continue;
    derive(`${field}Change`, `${current.get(field)?.label} change`, 'points', now - before);
  }
}

async function statementsAt(loaders: StatementLoaders, companyId: number, period: string) {
  const key = { companyId, period };
  const [income, balance, cashFlow, ratios] = await Promise.all([
    loaders.income.load(key),
    loaders.balance.load(key),
    loaders.cashFlow.load(key),
    loadRatios(loaders, companyId, period),
  ]);
  return {
    income_statement: income as unknown as Row,
    balance_sheet: balance as unknown as Row,
    cash_flow: cashFlow as unknown as Row,
    ratios: ratios as unknown as Row,
  };
}

/**
 * The facts of one company for a period argument (a label, "latest", "latest-fy" or omitted for the newest quarter).
 * 404 when the company or its statements for the period do not exist.
 */
export async function companyFacts(
  dataSource: DataSource,
  loaders: StatementLoaders,
  companyId: number,
  periodArgument?: string | null,
): Promise<CompanyFacts> {
  const company = await findCompany(dataSource, companyId);
  if (!company) throw new AppError('NOT_FOUND', `No company with id ${companyId}`);
  const period = await resolvePeriod(loaders, companyId, periodArgument, 'income');
  const statements = period ? await statementsAt(loaders, companyId, period.label) : null;
  if (!period || !statements?.income_statement) {
    throw new AppError(
      'NOT_FOUND',
      `Company ${company.ticker} has no income statement for ${periodArgument ?? 'any quarter'}`,
    );
  }
  const priorPeriod = samePeriodLastYear(period).label;
  const current = periodFacts(company, period.label, statements);
  const prior = periodFacts(company, priorPeriod, await statementsAt(loaders, companyId, priorPeriod));
  addChanges(current, prior);
  return { company, period: period.label, priorPeriod, current, prior };
}

/** The passages of the companies' documents that best match a query (hybrid search), at most `limit`. */
export async function relevantPassages(
  backend: SearchBackend,
  query: string,
  companyIds: number[] | null,
  limit: number,
  keep?: (passage: DocumentPassage) => boolean,
): Promise<DocumentPassage[]> {
  // Filters the search does not offer (period, document type) are applied here, over a wider set of hits.
  const filtered = keep !== undefined && limit < 50;
  const hits = await search(backend, {
    query,
    companyIds,
    topK: filtered ? Math.min(50, limit * 8) : limit,
    mode: 'HYBRID',
  });
  return hits
    .filter((hit) => !keep || keep(hit as DocumentPassage))
    .slice(0, limit)
    .map(({ chunkId, documentId, companyId, ticker, title, docType, period, page, content }) => ({
      chunkId,
      documentId,
      companyId,
      ticker,
      title,
      docType,
      period,
      page,
      content,
    }));
}
