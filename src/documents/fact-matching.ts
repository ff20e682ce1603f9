/**
 * Which stored figure a question asks for: the one whose label (with the table title and row group it sits under)
 * holds every word of the asked figure — the words that narrow it ("iPhone", "Greater China") in its label or group,
 * never only in a sentence around it — and of the unit asked. Among those, the one with the fewest words beyond
 * what was asked (the line itself, not a sub-line), from a table before a sentence.
 */
import { strongTerms } from '../understanding/figure-terms';
import type { StoredDocumentFact } from './document-facts.repository';
import type { FactUnit } from './fact-extraction';

export interface FigureWanted {
  /** Terms that narrow the measure ("iphone"; "greater", "china"). */
  qualifier: string[];
  /** Terms of the measure ("revenue"; "operating", "income"); empty when the question names only the thing counted. */
  measure: string[];
  /** Terms a figure's label or heading may hold to be the better one (the company's name starting the asked name). */
  optional?: string[];
  unit: FactUnit | null;
}

interface Scored {
  fact: StoredDocumentFact;
  /** How many of the optional words (the company's name starting the asked name) the label or its heading holds. */
  wholeName: number;
  /** How many narrowing and optional words the label itself holds (the row "Converse" before the row "Other" under
   * "Converse"). */
  inLabel: number;
  extra: number;
  contextExtra: number;
}

const CHANGE_LABEL =
  /^(?:net )?(?:changes?|increases?|decreases?|\((?:increase|decrease)\)|\(?increase\)? \(?decrease\)?)\b/i;
const CHANGE_TERMS = /^(?:chang|increas|decreas)/;

function unitFits(wanted: FactUnit | null, unit: string): boolean {
  if (wanted === null) return true;
  // A table's plain numbers may be counts: "how many" accepts them; an amount is never a count.
  if (wanted === 'count') return unit === 'count' || unit === 'money';
  return wanted === unit;
}

/** Every stored figure of the asked kind, best first (any period). */
export function matchingFigures(wanted: FigureWanted, facts: StoredDocumentFact[]): StoredDocumentFact[] {
  const asked = new Set([...wanted.qualifier, ...wanted.measure]);
  if (asked.size === 0) return [];
  const optional = new Set(wanted.optional ?? []);
  const scored: Scored[] = [];
  const asksChange = [...asked].some((term) => CHANGE_TERMS.test(term));
  for (const fact of facts) {
    if (!unitFits(wanted.unit, fact.unit)) continue;
    // "Changes in working capital" is how much it moved, not what it is.
    if (!asksChange && CHANGE_LABEL.test(fact.label)) continue;
    const label = strongTerms(fact.label);
    const sentence = fact.kind === 'sentence';
    // A sentence's surroundings are a whole sentence: only its subject may narrow; a table's title and group may.
    const narrowing = new Set(sentence ? label : [...label, ...strongTerms(fact.context)]);
    const around = new Set([...label, ...strongTerms(fact.context)]);
    if (!wanted.qualifier.every((term) => narrowing.has(term))) continue;
    if (!wanted.measure.every((term) => around.has(term))) continue;
    // A count asked for is a count first: a table's plain number only when no sentence counts it.
    const uncounted = wanted.unit === 'count' && fact.unit !== 'count' ? 2 : 0;
    // The company's name in a label ("Walmart U.S.") is part of the name asked, not a word beyond it.
    const extra =
      label.filter((term) => !asked.has(term) && !optional.has(term)).length + (sentence ? 0.5 : 0) + uncounted;
    const contextExtra = sentence
      ? 0
      : strongTerms(fact.context).filter((term) => !asked.has(term) && !optional.has(term)).length;
    // The whole name asked ("Walmart U.S.") above a line beats a part of it in a line ("U.S. operations").
    const wholeName = [...optional].filter((term) => around.has(term)).length;
    const inLabel = [...wanted.qualifier, ...optional].filter((term) => label.includes(term)).length;
    scored.push({ fact, extra, contextExtra, wholeName, inLabel });
  }
  return scored
    .sort(
      (a, b) =>
        b.wholeName - a.wholeName ||
        b.inLabel - a.inLabel ||
        a.extra - b.extra ||
        a.contextExtra - b.contextExtra ||
        a.fact.id - b.fact.id,
    )
    .map((s) => s.fact);
}

const order = (label: string) => {
  const match = /^(?:Q([1-4])-|FY)(\d{4})$/.exec(label);
  return match ? Number(match[2]) * 10 + (match[1] ? Number(match[1]) : 5) : 0;
};

/**
 * The figure asked for one period (null: the newest the documents give), or null when no document gives it; with
 * the periods the documents do give it for.
 */
export function findFigure(
  wanted: FigureWanted,
  facts: StoredDocumentFact[],
  period: string | null,
): { figure: StoredDocumentFact | null; periods: string[] } {
  const matches = matchingFigures(wanted, facts);
  if (matches.length === 0) return { figure: null, periods: [] };
  // The best line's figures: the same label under the same heading, one per period.
  const best = matches[0];
  const line = matches.filter((f) => f.label === best.label && f.context === best.context);
  const periods = [...new Set(line.map((f) => f.period))].sort((a, b) => order(b) - order(a));
  const wantedPeriod = period ?? periods[0];
  const figure = line.find((f) => f.period === wantedPeriod) ?? matches.find((f) => f.period === wantedPeriod) ?? null;
  return { figure, periods };
}
