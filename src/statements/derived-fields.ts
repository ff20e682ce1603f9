import type { StatementKind } from './statement-kind';
import type { ImportedStatement, ValueSourceRow } from './imported-statement';

/**
 * Fields computed from other fields of the same statement when the filing does not tag them, each recorded with
 * `derived: true` and a concept that spells the formula (e.g. `Revenues − CostOfRevenue`). The rules, in order:
 *
 * - income: gross profit = revenue − cost of revenue.
 * - balance: restricted cash = (cash, equivalents and restricted cash) − cash and equivalents; temporary equity = its
 *   total, else the parent's temporary equity + redeemable non-controlling interests, else the equity component of
 *   convertible notes when it is exactly the gap in the filer's own liabilities-and-equity total; non-controlling interest =
 *   equity including it − parent equity (or parent equity the other way round); non-current long-term debt = long-term
 *   debt − its current portion; short-term debt = short-term borrowings (which include commercial paper; commercial
 *   paper alone when they are not reported) + current portion of long-term debt, else all current debt (DebtCurrent);
 *   total debt = short-term debt + long-term debt; total liabilities = liabilities and equity − equity −
 *   non-controlling interest − temporary equity; liabilities and equity = the sum of those when it is not tagged.
 * - cash flow: free cash flow = operating cash flow + capital expenditure (stored negative).
 */

type Part = { field: string; sign: 1 | -1 };
const plus = (field: string): Part => ({ field, sign: 1 });
const minus = (field: string): Part => ({ field, sign: -1 });

interface Rule {
  statement: StatementKind;
  field: string;
  /** The parts of the first alternative whose `required` parts are all present are used. */
  alternatives: Array<{ parts: Part[]; required: string[]; when?: (values: Record<string, number>) => boolean }>;
  /** Derive even when the field is already filled? Never: a tagged value wins. */
}

const has = (values: Record<string, number>, field: string) => values[field] !== undefined;

const RULES: Rule[] = [
  {
    statement: 'income',
    field: 'grossProfit',
    alternatives: [{ parts: [plus('revenue'), minus('costOfRevenue')], required: ['revenue', 'costOfRevenue'] }],
  },
  {
    statement: 'balance',
    field: 'restrictedCash',
    alternatives: [
      {
        parts: [plus('_cashAndRestrictedCash'), minus('cashAndEquivalents')],
        required: ['_cashAndRestrictedCash', 'cashAndEquivalents'],
      },
      {
        parts: [plus('_restrictedCashCurrent'), plus('_restrictedCashNoncurrent')],
        required: [],
        when: (v) => has(v, '_restrictedCashCurrent') || has(v, '_restrictedCashNoncurrent'),
      },
    ],
  },
  {
    statement: 'balance',
    field: 'nonControllingInterest',
    alternatives: [
      {
        parts: [plus('_equityIncludingNonControllingInterest'), minus('totalEquity')],
        required: ['_equityIncludingNonControllingInterest', 'totalEquity'],
      },
    ],
  },
  {
    statement: 'balance',
    field: 'totalEquity',
    alternatives: [
      {
        parts: [plus('_equityIncludingNonControllingInterest'), minus('nonControllingInterest')],
        required: ['_equityIncludingNonControllingInterest', 'nonControllingInterest'],
      },
    ],
  },
  {
    statement: 'balance',
    field: 'temporaryEquity',
    alternatives: [
      { parts: [plus('_temporaryEquityTotal')], required: ['_temporaryEquityTotal'] },
      {
        parts: [plus('_temporaryEquityOfParent'), plus('_redeemableNonControllingInterest')],
        required: [],
        when: (v) => has(v, '_temporaryEquityOfParent') || has(v, '_redeemableNonControllingInterest'),
      },
      {
        parts: [plus('_convertibleDebtEquityComponent')],
        required: ['_convertibleDebtEquityComponent', 'totalLiabilitiesAndEquity', 'totalLiabilities', 'totalEquity'],
        when: (v) =>
          v.totalLiabilitiesAndEquity - v.totalLiabilities - v.totalEquity - (v.nonControllingInterest ?? 0) ===
          v._convertibleDebtEquityComponent,
      },
    ],
  },
  {
    statement: 'balance',
    field: 'longTermDebt',
    alternatives: [
      {
        parts: [plus('_longTermDebtIncludingCurrent'), minus('currentPortionOfLongTermDebt')],
        required: ['_longTermDebtIncludingCurrent', 'currentPortionOfLongTermDebt'],
      },
      // Without short-term borrowings or commercial paper, all current debt is the current portion of long-term debt.
      {
        parts: [plus('_longTermDebtIncludingCurrent'), minus('_debtCurrent')],
        required: ['_longTermDebtIncludingCurrent', '_debtCurrent'],
        when: (v) => !has(v, 'shortTermBorrowings') && !has(v, 'commercialPaper'),
      },
    ],
  },
  {
    statement: 'balance',
    field: 'shortTermDebt',
    alternatives: [
      { parts: [plus('shortTermBorrowings'), plus('currentPortionOfLongTermDebt')], required: ['shortTermBorrowings'] },
      { parts: [plus('commercialPaper'), plus('currentPortionOfLongTermDebt')], required: ['commercialPaper'] },
      { parts: [plus('currentPortionOfLongTermDebt')], required: ['currentPortionOfLongTermDebt'] },
      { parts: [plus('_debtCurrent')], required: ['_debtCurrent'] },
    ],
  },
  {
    statement: 'balance',
    field: 'totalDebt',
    alternatives: [
      {
        parts: [plus('shortTermDebt'), plus('longTermDebt')],
        required: [],
        when: (v) => has(v, 'shortTermDebt') || has(v, 'longTermDebt'),
      },
    ],
  },
  {
    statement: 'balance',
    field: 'totalLiabilities',
    alternatives: [
      {
        parts: [
          plus('totalLiabilitiesAndEquity'),
          minus('totalEquity'),
          minus('nonControllingInterest'),
          minus('temporaryEquity'),
        ],
        required: ['totalLiabilitiesAndEquity', 'totalEquity'],
      },
    ],
  },
  {
    statement: 'balance',
    field: 'totalLiabilitiesAndEquity',
    alternatives: [
      {
        parts: [plus('totalLiabilities'), plus('totalEquity'), plus('nonControllingInterest'), plus('temporaryEquity')],
        required: ['totalLiabilities', 'totalEquity'],
      },
    ],
  },
  {
    statement: 'cashFlow',
    field: 'freeCashFlow',
    alternatives: [
      {
        parts: [plus('operatingCashFlow'), plus('capitalExpenditure')],
        required: ['operatingCashFlow', 'capitalExpenditure'],
      },
    ],
  },
];

/** Fills the derived fields of every statement, with their sources, then drops the `_inputs`. */
export function deriveFields(statements: Iterable<ImportedStatement>, sources: ValueSourceRow[]): ValueSourceRow[] {
  const byStatement = new Map<string, ValueSourceRow[]>();
  for (const source of sources) {
    const key = `${source.statement}|${source.period}`;
    byStatement.set(key, [...(byStatement.get(key) ?? []), source]);
  }
  const added: ValueSourceRow[] = [];
  for (const statement of statements) {
    const own = byStatement.get(`${statement.statement}|${statement.period}`) ?? [];
    for (const rule of RULES) {
      if (rule.statement !== statement.statement || has(statement.values, rule.field)) continue;
      const values = statement.values;
      const chosen = rule.alternatives.find(
        (alt) => alt.required.every((field) => has(values, field)) && (alt.when?.(values) ?? true),
      );
      if (!chosen) continue;
      const present = chosen.parts.filter((part) => has(values, part.field));
      const parts = present.map((part) => ({
        part,
        source: own.find((s) => s.field === part.field) as ValueSourceRow,
      }));
      const value = present.reduce((sum, part) => sum + part.sign * values[part.field], 0);
      values[rule.field] = value;
      const newest = parts.map((p) => p.source).sort((a, b) => b.filed.localeCompare(a.filed))[0];
      const concept = parts
        .map(
          ({ part, source }, i) =>
            `${i === 0 ? (part.sign < 0 ? '− ' : '') : part.sign < 0 ? ' − ' : ' + '}${source.concept}`,
        )
        .join('');
      const source: ValueSourceRow = {
        statement: statement.statement,
        period: statement.period,
        field: rule.field,
        value,
        reportedValue: value,
        concept,
        accession: newest.accession,
        form: newest.form,
        filed: newest.filed,
        documentId: newest.documentId,
        page: newest.page,
        // One part passed through (e.g. DebtCurrent as short-term debt) is that part's own value.
        derived: parts.length > 1 || parts[0].source.derived,
        restated: parts.some((p) => p.source.restated),
      };
      own.push(source);
      added.push(source);
    }
    for (const field of Object.keys(statement.values)) if (field.startsWith('_')) delete statement.values[field];
  }
  return [...sources, ...added].filter((source) => !source.field.startsWith('_'));
}
