/**
 * Words of a figure's name as terms that compare across wordings: lower case, singular, and the common synonyms of
 * financial reporting folded together ("net sales" and "revenues", "operating profit" and "operating income",
 * "headcount" and "employees"). Shared by the reading of questions and of the figures documents state.
 */

const SYNONYMS: Record<string, string> = {
  sale: 'revenue',
  revenue: 'revenue',
  turnover: 'revenue',
  profit: 'income',
  earning: 'income',
  headcount: 'employee',
  staff: 'employee',
  workforce: 'employee',
  personnel: 'employee',
  people: 'employee',
  person: 'employee',
  associate: 'employee',
  expenditure: 'expense',
  spending: 'expense',
  cost: 'cost',
  us: 'u.s',
  'united states': 'u.s',
};

/** Words that do not narrow a figure: a total is the figure, "net" and "segment" name no other one. */
export const WEAK_TERMS = new Set([
  'net',
  'total',
  'segment',
  'region',
  'geographic',
  'division',
  'reportable',
  'consolidated',
  'and',
  'of',
  'the',
  'a',
  'an',
  'in',
  'for',
  'by',
  'from',
  'on',
  'to',
  'other',
  'at',
]);

function singular(word: string): string {
  if (word.length <= 3 || /(?:ss|us|is)$/.test(word)) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(?:ches|shes|xes)$/.test(word)) return word.slice(0, -2);
  return word.endsWith('s') ? word.slice(0, -1) : word;
}

/** The terms of a name, in order ("Net sales by category" → net, revenue, by, category). */
export function figureTerms(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[\u2019']s\b/g, '')
    .replace(/&/g, ' and ')
    .split(/[^a-z0-9.-]+|(?<=[a-z])\.(?=\s|$)|-(?=\s|$)/)
    .map((word) => word.replace(/^[.-]+|[.-]+$/g, ''))
    .filter((word) => word.length > 0 && !/^\d+$/.test(word))
    .map((word) => {
      const one = singular(word);
      return SYNONYMS[one] ?? one;
    });
}

/** The terms that narrow a figure (weak words left out). */
export function strongTerms(text: string): string[] {
  return [...new Set(figureTerms(text).filter((term) => !WEAK_TERMS.has(term)))];
}
