/**
 * The period of a figure in a document: a column header's year read against the document's own period. The newest
 * year of a header is the document's period; older columns are the same span that many years before. A header whose
 * years run forward (a maturity schedule) or lie away from the document's year names no period of this document.
 */
export interface DocumentPeriod {
  /** FY2024 or Q2-2025; null when the document was stored without a period. */
  label: string | null;
  type: 'ANNUAL' | 'QUARTER' | null;
  fiscalYear: number | null;
  quarter: number | null;
}

/** What a column's values cover: a quarter, a year-to-date span, a year, or whatever the document covers. */
export type ColumnSpan = 'quarter' | 'ytd' | 'year' | 'same';

export function documentPeriod(label: string | null): DocumentPeriod {
  const annual = label ? /^FY(\d{4})$/.exec(label) : null;
  if (annual) return { label, type: 'ANNUAL', fiscalYear: Number(annual[1]), quarter: null };
  const quarter = label ? /^Q([1-4])-(\d{4})$/.exec(label) : null;
  if (quarter) return { label, type: 'QUARTER', fiscalYear: Number(quarter[2]), quarter: Number(quarter[1]) };
  return { label: null, type: null, fiscalYear: null, quarter: null };
}

/** The period label of a column of `year` among a header's `years`; null when it is none this document reports. */
export function periodOfColumn(
  year: number,
  years: number[],
  span: ColumnSpan,
  document: DocumentPeriod,
): string | null {
  const newest = Math.max(...years);
  // Years that run forward are a schedule (maturities, commitments) unless they end at the document's own year, as
  // filers that show the oldest year first write them ("2017 | 2018 | 2019" in a 2019 report).
  if (years[0] < years[years.length - 1] && newest !== document.fiscalYear) return null;
  if (document.fiscalYear !== null && Math.abs(newest - document.fiscalYear) > 1) return null;
  const back = newest - year;
  if (span === 'ytd') return null;
  const fiscalYear = (document.fiscalYear ?? newest) - back;
  if (span === 'year') return `FY${fiscalYear}`;
  if (document.type === 'QUARTER') {
    // A quarter's columns; a column of another span in a quarterly report (a year-end balance) is no quarter's.
    if (span === 'quarter' || back === 0) return `Q${document.quarter}-${fiscalYear}`;
    return null;
  }
  if (span === 'quarter') return null;
  return `FY${fiscalYear}`;
}
