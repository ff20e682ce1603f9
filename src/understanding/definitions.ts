/**
 * A metric the question defines itself ("DPO is defined as: 365 * (average accounts payable …) / (COGS + change in
 * inventory …)") is answered with the service's own formula only when that formula reads the same: no stored field
 * the definition uses is missing from it, and both average the balances or neither does. Otherwise the service's
 * figure is another one, and the answer says so instead of giving it.
 */
import { RATIO_DEFINITIONS } from '../statements/ratios';
import { findMetrics, type Metric } from './metrics';
import { definedMetric, definitionParts } from './defined-metric';

const FORMULAS = new Map(RATIO_DEFINITIONS.map((definition) => [definition.key, definition.formula]));
/** Stored fields that are sums of others: a definition may spell them out. */
const PARTS: Record<string, string[]> = {
  ebitda: ['operatingIncome', 'depreciationAndAmortization'],
  freeCashFlow: ['operatingCashFlow', 'capitalExpenditure'],
  grossProfit: ['revenue', 'costOfRevenue'],
};
const ABBREVIATIONS: Record<string, string> = {
  DSO: 'daysSalesOutstanding',
  DIO: 'daysInventoryOutstanding',
  DPO: 'daysPayablesOutstanding',
};

const camelCase = (name: string) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** The stored fields a ratio's formula reads, the fields of the ratios it is made of included. */
function formulaFields(key: string, seen = new Set<string>()): { fields: Set<string>; averaged: boolean } {
  const formula = FORMULAS.get(key) ?? '';
  const fields = new Set<string>();
  let averaged = /\bavg\b/.test(formula);
  seen.add(key);
  for (const token of formula.match(/[a-z]+(?:_[a-z]+)*|[A-Z]{3}/g) ?? []) {
    const name = ABBREVIATIONS[token] ?? camelCase(token);
    if (FORMULAS.has(name) && !seen.has(name)) {
      const inner = formulaFields(name, seen);
      inner.fields.forEach((field) => fields.add(field));
      averaged ||= inner.averaged;
    } else if (!FORMULAS.has(name)) for (const field of PARTS[name] ?? [name]) fields.add(field);
  }
  return { fields, averaged };
}

/** Whether a formula reads only fields `ours` reads, and averages balances as it does (when it names fields itself). */
function readsTheSame(formula: string, ours: { fields: Set<string>; averaged: boolean }): boolean {
  const named = findMetrics(formula);
  const used = named.flatMap((found) =>
    found.source === 'ratio' ? [...formulaFields(found.key).fields] : (PARTS[found.key] ?? [found.key]),
  );
  const namesFields = named.some((found) => found.source !== 'ratio');
  const averaged = /\baverage\b|\bavg\b/i.test(formula);
  return used.every((field) => ours.fields.has(field)) && (!namesFields || averaged === ours.averaged);
}

/** A metric the question defines otherwise than the service computes it: the question's formula and the service's. */
export interface DefinitionGap {
  metric: Metric;
  /** The question's formula(s), as written. */
  defined: string;
  /** The service's formula. */
  computed: string;
}

/**
 * The gap between the question's definition of `metric` and the service's formula, or null when they read the same
 * stored fields (or there is no definition, or the metric is a stored field).
 */
export function definitionGap(metric: Metric, definitions: string[]): DefinitionGap | null {
  if (metric.source !== 'ratio') return null;
  const defined = definitions.map(definitionParts).filter((found) => found !== null);
  if (defined.length === 0) return null;
  // Each definition is checked against the ratio it defines (a part, "DPO is defined as …", or the metric asked).
  const differs = defined.filter(({ name, formula }) => {
    const [named] = findMetrics(name).filter((found) => found.source === 'ratio');
    return !readsTheSame(formula, formulaFields(named?.key ?? metric.key));
  });
  // A definition with words the service cannot read is not known to be its own formula either.
  if (differs.length === 0 && definedMetric(definitions) !== null) return null;
  const shown = differs.length > 0 ? differs : defined;
  return { metric, defined: shown.map((d) => d.formula).join('; '), computed: FORMULAS.get(metric.key) ?? '' };
}
