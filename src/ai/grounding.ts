import { extractNumbers, type NumberKind, type NumberMention } from './numbers';

/** How a fact's value is meant: it decides which written forms may stand for it. */
export type FactUnit = 'money' | 'money_per_share' | 'shares' | 'fraction' | 'points' | 'multiple' | 'days';

/** A number the text may use: a statement field, a ratio, or a change derived from them. */
export interface GroundingFact {
  value: number;
  unit: FactUnit;
}

export interface GroundingReport {
  numbersChecked: number;
  numbersUnsupported: number;
  /** The unsupported numbers as written. */
  unsupported: string[];
}

/** Which fact units a written kind of number may stand for. */
const COMPATIBLE: Record<NumberKind, FactUnit[]> = {
  money: ['money', 'money_per_share'],
  percent: ['fraction'],
  points: ['points'],
  multiple: ['multiple', 'fraction'],
  number: ['money', 'money_per_share', 'shares', 'multiple', 'days'],
};

const close = (a: number, b: number, tolerance: number) => Math.abs(Math.abs(a) - Math.abs(b)) <= tolerance * (1 + 1e-9) + 1e-12;

/** The fact (by index) a mention stands for, or -1. Signs are ignored: "a loss of $1.2 billion" is -1.2e9. */
function supportingFact(mention: NumberMention, facts: GroundingFact[]): number {
  return facts.findIndex((fact) => {
    if (!COMPATIBLE[mention.kind].includes(fact.unit)) return false;
    // A bare number may be written in the statement's own units or in millions, as filings do.
    if (mention.kind === 'number') return close(mention.value, fact.value, mention.tolerance) || close(mention.value * 1e6, fact.value, mention.tolerance * 1e6);
    return close(mention.value, fact.value, mention.tolerance);
  });
}

/** Whether a quoted document passage contains the same figure (documents state scales apart, "in millions"). */
function inDocuments(mention: NumberMention, documentNumbers: NumberMention[]): boolean {
  return documentNumbers.some((number) => close(mention.printed, number.printed, Math.max(mention.printedTolerance, number.printedTolerance)));
}

/**
 * Checks every number of a text against the facts it was written from and the document passages it was given.
 * Returns the report and the indexes of the facts the text used (for citations).
 */
export function checkGrounding(
  text: string,
  facts: GroundingFact[],
  documents: string[],
  names: string[] = [],
): { report: GroundingReport; usedFacts: Set<number> } {
  const documentNumbers = documents.flatMap(extractNumbers);
  const usedFacts = new Set<number>();
  const unsupported: string[] = [];
  // Names that are written with digits (tickers such as "2330") are not figures.
  const escaped = names.filter((name) => /\d/.test(name)).map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const masked = escaped.length ? text.replace(new RegExp(`(?<![\\w.])(?:${escaped.join('|')})(?![\\w])`, 'g'), (name) => ' '.repeat(name.length)) : text;
  const mentions = extractNumbers(masked);
  for (const mention of mentions) {
    const fact = supportingFact(mention, facts);
    if (fact >= 0) usedFacts.add(fact);
    else if (!inDocuments(mention, documentNumbers)) unsupported.push(mention.text);
  }
  return { report: { numbersChecked: mentions.length, numbersUnsupported: unsupported.length, unsupported }, usedFacts };
}
