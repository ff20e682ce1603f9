/**
 * Statements read from a company's stored filings: the rows of their income statements, balance sheets and cash-flow
 * statements (tables whose title names one), mapped to statement fields by the labels filers use, for every period
 * their columns show. Each (statement, period) comes whole from one document, the newest that shows it (a later
 * report restates earlier years); each value keeps its document, page and label as written. Pure: the caller
 * decides which of them become stored statements.
 */
import type { StoredDocumentFact } from './document-facts.repository';
import { COST_FIELDS, fieldOfLabel, OUTFLOW_FIELDS, statementKindOf } from './statement-labels';
import type { ImportedStatement, ValueSourceRow } from '../statements/imported-statement';
import type { StatementKind } from '../statements/statement-kind';
import { deriveFields } from '../statements/derived-fields';
import { compareNewestFirst, parseExactPeriod, periodDates } from '../statements/fiscal-period';

export interface FiledStatements {
  statements: ImportedStatement[];
  sources: ValueSourceRow[];
}

/** A field a statement needs before a table is taken for that statement (a note's table of a few lines is not). */
const ANCHOR_FIELDS: Record<StatementKind, string[]> = {
  income: ['revenue', 'netIncome', 'operatingIncome'],
  balance: ['totalAssets', 'totalCurrentAssets', 'totalLiabilities'],
  cashFlow: ['operatingCashFlow'],
};

/**
 * The candidates of one statement table: a report may also hold a subsidiary's or an affiliate's statements, or a
 * summary of a statement in its discussion. Of the runs of consecutive pages a statement's candidates are on, the one
 * with the most candidates (the earliest on a tie); nothing of another table is mixed in.
 */
function oneTable(candidates: Candidate[]): Candidate[] {
  const runs: Candidate[][] = [];
  for (const candidate of [...candidates].sort((a, b) => a.fact.page - b.fact.page || a.fact.id - b.fact.id)) {
    const run = runs.at(-1);
    if (run && candidate.fact.page - run[run.length - 1].fact.page <= 1) run.push(candidate);
    else runs.push([candidate]);
  }
  return runs.reduce((best, run) => (run.length > best.length ? run : best), runs[0] ?? []);
}

interface Candidate {
  fact: StoredDocumentFact;
  field: string;
  rank: number;
}

/** Newest document first: by the document's own period, then the later stored. */
function newestDocumentFirst(a: StoredDocumentFact, b: StoredDocumentFact): number {
  const periodA = a.documentPeriod ? parseExactPeriod(a.documentPeriod) : null;
  const periodB = b.documentPeriod ? parseExactPeriod(b.documentPeriod) : null;
  if (periodA && periodB) {
    const byPeriod = compareNewestFirst(periodA, periodB);
    if (byPeriod !== 0) return byPeriod;
  } else if (periodA || periodB) return periodA ? -1 : 1;
  return b.documentId - a.documentId;
}

/**
 * The sign that makes the income tax line an expense: a filer that writes the provision as a deduction ("(769)")
 * shows it negative, one that writes it as an amount shows it positive; income before taxes less the tax is the net
 * income (near it, with equity-method results between them) only with the right sign. 1 when it cannot be told.
 */
function incomeTaxSign(fields: Map<string, Candidate>): 1 | -1 {
  const [beforeTax, tax, net] = ['incomeBeforeTax', 'incomeTaxExpense', 'netIncome'].map(
    (field) => fields.get(field)?.fact.value,
  );
  if (beforeTax === undefined || tax === undefined || net === undefined || tax >= 0) return 1;
  return Math.abs(beforeTax + tax - net) < Math.abs(beforeTax - tax - net) ? -1 : 1;
}

/** Each field's value in one document's statement of one period: the best-named line, the first when tied. */
function fieldsOfDocument(candidates: Candidate[]): Map<string, Candidate> {
  const fields = new Map<string, Candidate>();
  for (const candidate of candidates) {
    const held = fields.get(candidate.field);
    if (!held || candidate.rank < held.rank) fields.set(candidate.field, candidate);
  }
  return fields;
}

/** The statements `facts` show, for a company whose fiscal year ends in `fiscalYearEndMonth`. */
export function filedStatements(facts: StoredDocumentFact[], fiscalYearEndMonth: number): FiledStatements {
  // (statement, period) → document → candidates, in reading order.
  const byStatement = new Map<string, Map<number, Candidate[]>>();
  for (const fact of facts) {
    if (fact.kind !== 'table' || fact.unit !== 'money') continue;
    const kind = statementKindOf(fact.context);
    const named = kind ? fieldOfLabel(kind, fact.label) : null;
    if (!kind || !named || !parseExactPeriod(fact.period)) continue;
    const key = `${kind}|${fact.period}`;
    const documents = byStatement.get(key) ?? new Map<number, Candidate[]>();
    byStatement.set(key, documents);
    documents.set(fact.documentId, [...(documents.get(fact.documentId) ?? []), { fact, ...named }]);
  }

  const statements: ImportedStatement[] = [];
  const sources: ValueSourceRow[] = [];
  for (const [key, documents] of byStatement) {
    const [kind, period] = key.split('|') as [StatementKind, string];
    const readings = [...documents.values()]
      .map((candidates) => fieldsOfDocument(oneTable(candidates)))
      .filter((fields) => ANCHOR_FIELDS[kind].some((field) => fields.has(field)))
      .sort((a, b) => newestDocumentFirst(first(a).fact, first(b).fact));
    if (readings.length === 0) continue;
    const [chosen, ...older] = readings;
    const fiscal = parseExactPeriod(period)!;
    const dates = periodDates(fiscal, fiscalYearEndMonth);
    const statement: ImportedStatement = {
      statement: kind,
      period,
      fiscalYear: fiscal.fiscalYear,
      fiscalQuarter: fiscal.fiscalQuarter,
      periodStart: dates.start,
      periodEnd: dates.end,
      values: {},
    };
    const taxSign = incomeTaxSign(chosen);
    for (const [field, { fact }] of chosen) {
      const value = OUTFLOW_FIELDS.has(field)
        ? -Math.abs(fact.value)
        : COST_FIELDS.has(field)
          ? Math.abs(fact.value)
          : field === 'incomeTaxExpense'
            ? taxSign * fact.value
            : fact.value;
      statement.values[field] = value;
      // An older report that showed another value for the same line: the newer one restated it.
      const restated = older.some((fields) => {
        const earlier = fields.get(field);
        return earlier !== undefined && earlier.fact.value !== fact.value;
      });
      // A value a later report shows unchanged is cited from the report of its own period, where it was first filed.
      const own = restated
        ? undefined
        : older.map((fields) => fields.get(field)?.fact).find((earlier) => earlier?.documentPeriod === period);
      const cited = own ?? fact;
      sources.push({
        statement: kind,
        period,
        field,
        value,
        reportedValue: fact.value,
        concept: cited.label,
        accession: null,
        form: cited.docType,
        filed: cited.documentDate,
        derived: false,
        restated,
        documentId: cited.documentId,
        page: cited.page,
      });
    }
    statements.push(statement);
  }
  return withEbitda(statements, deriveFields(statements, sources));
}

/**
 * EBITDA of each income statement: operating income plus the depreciation and amortization of the same period's
 * cash-flow statement (an income statement seldom has a line of its own for it), each value with its source.
 */
function withEbitda(statements: ImportedStatement[], sources: ValueSourceRow[]): FiledStatements {
  const sourceOf = (statement: StatementKind, period: string, field: string) =>
    sources.find((s) => s.statement === statement && s.period === period && s.field === field);
  const added: ValueSourceRow[] = [];
  for (const income of statements.filter((statement) => statement.statement === 'income')) {
    const cashFlowDepreciation = sourceOf('cashFlow', income.period, 'depreciationAndAmortization');
    const operating = sourceOf('income', income.period, 'operatingIncome');
    if (income.values.depreciationAndAmortization === undefined && cashFlowDepreciation) {
      income.values.depreciationAndAmortization = cashFlowDepreciation.value;
      added.push({ ...cashFlowDepreciation, statement: 'income' });
    }
    const depreciation = income.values.depreciationAndAmortization;
    if (income.values.ebitda !== undefined || !operating || depreciation === undefined) continue;
    const depreciationSource = sourceOf('income', income.period, 'depreciationAndAmortization') ?? added.at(-1)!;
    income.values.ebitda = operating.value + depreciation;
    added.push({
      ...operating,
      field: 'ebitda',
      value: income.values.ebitda,
      reportedValue: income.values.ebitda,
      concept: `${operating.concept} + ${depreciationSource.concept}`,
      derived: true,
      restated: operating.restated || depreciationSource.restated,
    });
  }
  return { statements, sources: [...sources, ...added] };
}

const first = (fields: Map<string, Candidate>): Candidate => fields.values().next().value as Candidate;
