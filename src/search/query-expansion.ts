import { findMetrics, metricNames } from '../understanding/metrics';
import { RATIO_DEFINITIONS } from '../statements/ratios';

/**
 * The words filings use for what a question asks: a question says "capex" or "operating margin", the filing's page
 * says "purchases of property and equipment" and "operating income … net sales" under "Consolidated Statements of
 * Cash Flows". For each metric the question names (the analyst's metric vocabulary), the expansion holds the
 * metric's other names, the statement it is reported in, and for a ratio the fields of its formula.
 */

const STATEMENT_WORDS: Record<string, string> = {
  income: 'consolidated statements of operations income earnings',
  balance: 'consolidated balance sheets',
  cashFlow: 'consolidated statements of cash flows',
};

/** Words of a ratio formula: "total_current_assets / total_current_liabilities" → "total current assets total current liabilities". */
function formulaWords(key: string): string {
  const formula = RATIO_DEFINITIONS.find((definition) => definition.key === key)?.formula ?? '';
  return formula
    .replace(/\(null[^)]*\)/g, ' ')
    .replace(/[^a-z_ ]+/gi, ' ')
    .replace(/_/g, ' ')
    .replace(/\b(avg|annualized|null|when)\b/g, ' ');
}

/** Extra query text for the metrics a query names; empty when it names none. */
export function expansionOf(query: string): string {
  const parts: string[] = [];
  for (const metric of findMetrics(query)) {
    parts.push(...metricNames(metric.key));
    if (metric.source === 'ratio') parts.push(formulaWords(metric.key));
    else parts.push(STATEMENT_WORDS[metric.source] ?? '');
  }
  return parts.join(' ');
}
