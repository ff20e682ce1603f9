/**
 * The words filers use for the primary statements and their lines: which table is an income statement, a balance
 * sheet or a cash-flow statement (by its title), and which statement field a row's label names. A label no rule
 * names is left out: a line that is not certainly a field is never stored as one.
 */
import type { StatementKind } from '../statements/statement-kind';

/** The kind of primary statement a table's title (and row groups) names; null for any other table. */
export function statementKindOf(context: string): StatementKind | null {
  // Without spaces: text read from a PDF splits words ("Statement of Incom e", "Cash Flow s").
  const title = context.toLowerCase().replace(/\s+/g, '');
  // "Balance Sheet Data" of selected financial data, a quarterly summary: figures from the statements, not them.
  if (/data|selected|summary|highlights|supplement|quarterly/.test(title)) return null;
  if (/statements?of(?:consolidated)?cashflows?|cashflowstatements?/.test(title)) return 'cashFlow';
  if (/balancesheets?|statements?of(?:consolidated)?financial(?:position|condition)/.test(title)) return 'balance';
  if (/statements?of(?:consolidated)?(?:operations|income|earnings)|incomestatements?/.test(title)) return 'income';
  return null;
}

/** A row label as compared: lower case, plain apostrophes and dashes, no footnote marks or trailing colon. */
function normalized(label: string): string {
  return (
    label
      .toLowerCase()
      .replace(/[’‘`]/g, "'")
      .replace(/\s*[—–]\s*/g, ', ')
      .replace(/\s*\((?:\d|[a-z])\)\s*$/, '')
      .replace(/\s*\((?:pp&e|ppe)\)/g, '')
      .replace(/[\s:*]+$/, '')
      .replace(/\s+/g, ' ')
      // A company's legal form is part of its name, not a clause: "Best Buy Co., Inc. shareholders".
      .replace(/,(?= (?:inc|co|corp|ltd|llc|plc|n\.v|s\.a)\b)/g, '')
      .trim()
  );
}

/** One field's patterns, best first: a label matched by an earlier pattern wins over one matched by a later. */
type Vocabulary = Array<[field: string, patterns: RegExp[]]>;

const NET_INCOME = /^net (?:income|earnings)(?: \(loss\))?$|^net \(loss\) (?:income|earnings)$/;

const INCOME: Vocabulary = [
  [
    'revenue',
    [
      /^total (?:net )?(?:operating )?(?:revenues?|sales)$/,
      /^(?:net )?(?:operating )?(?:revenues?|sales)(?: to customers)?$/,
      /^revenues?, net$|^net sales and revenues?$|^total net sales and revenues?$/,
    ],
  ],
  [
    'costOfRevenue',
    [
      /^total cost of (?:goods sold|sales|revenues?|products sold|net sales|net revenues?)$/,
      /^costs? of (?:goods sold|sales|revenues?|products sold|net sales|net revenues?)(?: \(exclusive of [^)]*\))?$/,
    ],
  ],
  ['grossProfit', [/^gross (?:profit|margin)$/]],
  [
    'researchAndDevelopment',
    [/^research,? (?:and |& )?development(?: and related| and engineering)?(?: expenses?| costs?)?$/],
  ],
  [
    'sellingGeneralAndAdministrative',
    [/^(?:selling|sales|marketing),? general,? (?:and|&) administrative(?: expenses?| costs?)?$/],
  ],
  [
    'operatingIncome',
    [
      /^(?:total )?operating income(?: \(loss\))?$|^operating \(loss\) income$|^operating (?:profit|loss)$/,
      /^income(?: \(loss\))? from operations$|^\(loss\) income from operations$/,
    ],
  ],
  ['interestExpense', [/^interest expense$/]],
  [
    'incomeBeforeTax',
    [
      /^(?:income|earnings|\(loss\) income|income \(loss\)|\(loss\) earnings|earnings \(loss\))(?: from continuing operations)? before (?:provision for |\(benefit\) provision for )?income taxes?$/,
    ],
  ],
  [
    'incomeTaxExpense',
    [
      /^(?:provision for|\(benefit from\) provision for|provision for \(benefit from\)) income taxes$/,
      /^income tax(?:es)?(?: expense| provision)?(?: \(benefit\))?$/,
    ],
  ],
  [
    'netIncome',
    [
      /^net (?:income|earnings)(?: \(loss\))? attributable to (?!.*\b(?:non-?controlling|minority|redeemable)\b)[^,]+$/,
      NET_INCOME,
    ],
  ],
];

const BALANCE: Vocabulary = [
  ['cashAndEquivalents', [/^cash and (?:cash )?equivalents$/]],
  [
    'shortTermInvestments',
    [/^(?:short-term|current) (?:investments|marketable securities)$/, /^marketable securities(?:, current)?$/],
  ],
  ['receivables', [/^(?:accounts|trade(?: accounts)?) receivables?(?! and\b)/, /^receivables(?:, net)?$/]],
  ['inventory', [/^(?:total )?inventor(?:y|ies)(?:, net)?$/]],
  ['totalCurrentAssets', [/^total current assets$/]],
  [
    'ppeNet',
    [
      /^(?:total )?property,? (?:plant,? )?(?:and |& )?equipment,? (?:net|less accumulated depreciation)\b/,
      /^(?:total )?property and equipment, net\b/,
    ],
  ],
  ['totalAssets', [/^total assets$/]],
  ['accountsPayable', [/^(?:trade )?accounts payable(?:, trade)?$/]],
  [
    'shortTermDebt',
    [/^short-term (?:borrowings|debt) and current (?:portion|maturities) of long-term (?:debt|borrowings)$/],
  ],
  ['shortTermBorrowings', [/^short-term (?:borrowings|debt)$/]],
  ['commercialPaper', [/^commercial paper$/]],
  ['currentPortionOfLongTermDebt', [/^current (?:portion|maturities) of long-term (?:debt|borrowings)$/]],
  ['totalCurrentLiabilities', [/^total current liabilities$/]],
  [
    'longTermDebt',
    [
      /^long-term (?:debt|borrowings),? (?:excluding|net of|less) current (?:portion|maturities)$/,
      /^long-term (?:debt|borrowings)(?:, net|, non-?current(?: portion)?)?$/,
    ],
  ],
  ['totalLiabilities', [/^total liabilities$/]],
  ['retainedEarnings', [/^retained earnings(?: \(accumulated deficit\))?$|^accumulated deficit$/]],
  [
    'totalEquity',
    [
      /^total (?!liabilities)(?:[\w.&,'-]+ )*(?:shareholders|stockholders|shareowners)'? equity(?: \(deficit\))?$/,
      /^total equity$/,
    ],
  ],
  ['nonControllingInterest', [/^non-?controlling interests?(?: in (?:consolidated )?subsidiaries)?$/]],
  [
    'totalLiabilitiesAndEquity',
    [/^total liabilities(?:,)? (?:[\w'-]+ )*(?:and |& )(?:[\w'-]+ )*equity(?: \(deficit\))?$/],
  ],
];

const CASH_FLOW: Vocabulary = [
  ['netIncome', [/^net (?:income|earnings)(?: \(loss\))?(?: including non-?controlling interests?)?$/, NET_INCOME]],
  [
    'depreciationAndAmortization',
    [
      /^depreciation,? (?:depletion )?(?:and |& )amortization(?: expense)?$/,
      // "Depreciation and amortization of property, equipment and intangibles" (not of content or debt costs).
      /^depreciation,? (?:and |& )amortization of (?:property|plant|fixed assets)\b[\w ,&]*$/,
    ],
  ],
  ['stockBasedCompensation', [/^(?:stock|share)-based compensation(?: expense)?$/]],
  ['operatingCashFlow', [/^net cash (?!.*discontinued).*\boperating activities$/]],
  [
    'capitalExpenditure',
    [
      /^capital (?:expenditures?|spending)$/,
      // "… property, plant and equipment", "… land, buildings, and equipment", "… property and equipment".
      /^(?:purchases?|acquisitions?|additions?|payments for|expenditures for) (?:of |to )?(?:property|land|buildings?|plant)\b[\w ,&]*\bequipment$/,
      // As some filers report it: "Capital expenditures, net of construction payable".
      /^capital (?:expenditures?|spending),? (?:net of|excluding|including) [^,]+$/,
    ],
  ],
  ['investingCashFlow', [/^net cash (?!.*discontinued).*\binvesting activities$/]],
  [
    'dividendsPaid',
    [/^(?:cash )?dividends(?: paid)?(?: to (?:shareholders|stockholders|common stockholders|shareowners))?$/],
  ],
  [
    'shareRepurchases',
    [/^(?:purchases?|repurchases?|payments for repurchases?) of (?:treasury stock|common stock|company stock)$/],
  ],
  ['financingCashFlow', [/^net cash (?!.*discontinued).*\bfinancing activities$/]],
  ['netChangeInCash', [/^net (?:increase|decrease|change)\b.*\bcash\b/]],
];

const VOCABULARIES: Record<StatementKind, Vocabulary> = { income: INCOME, balance: BALANCE, cashFlow: CASH_FLOW };

/** Fields a cash-flow statement writes as payments: stored negative (an outflow) whatever sign the table shows. */
export const OUTFLOW_FIELDS = new Set(['capitalExpenditure', 'dividendsPaid', 'shareRepurchases']);

/** Costs an income statement may write in parentheses (as deductions): stored as positive amounts. */
export const COST_FIELDS = new Set([
  'costOfRevenue',
  'researchAndDevelopment',
  'sellingGeneralAndAdministrative',
  'interestExpense',
]);

/** The field a row label of a statement of `kind` names, and how good the match is (0 best); null for none. */
export function fieldOfLabel(kind: StatementKind, label: string): { field: string; rank: number } | null {
  const text = normalized(label);
  for (const [field, patterns] of VOCABULARIES[kind]) {
    const rank = patterns.findIndex((pattern) => pattern.test(text));
    if (rank >= 0) return { field, rank };
  }
  return null;
}
