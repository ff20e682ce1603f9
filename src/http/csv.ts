import { stringify } from 'csv-stringify/sync';

/**
 * REST data as CSV (RFC 4180: CRLF line ends, a header row, fields quoted when they need it). One object is one row,
 * an array of objects one row each. Columns are the scalar fields, in the order they first appear; nested values
 * (data_quality checks, provenance) have no cell and stay in the JSON form. A text cell that a spreadsheet would take
 * for a formula (=, +, -, @ first) is prefixed with a quote mark.
 */
export function toCsv(data: unknown): string {
  const rows = (Array.isArray(data) ? data : [data]).filter(
    (row): row is Record<string, unknown> => row !== null && typeof row === 'object',
  );
  const columns: string[] = [];
  for (const row of rows) {
    for (const [key, value] of Object.entries(row)) if (!columns.includes(key) && isScalar(value)) columns.push(key);
  }
  if (columns.length === 0) return '';
  return stringify(rows, {
    header: true,
    columns,
    record_delimiter: 'windows',
    escape_formulas: true,
    cast: { boolean: (value) => String(value) },
  });
}

function isScalar(value: unknown): boolean {
  return value === null || value === undefined || ['string', 'number', 'boolean'].includes(typeof value);
}

/** Whether a request asks for CSV: `?format=csv`, or an Accept header naming text/csv. */
export function wantsCsv(format: string | null, accept: string | undefined): boolean {
  if (format !== null) return format.trim().toLowerCase() === 'csv';
  return /(^|,)\s*text\/csv\s*(;|,|$)/i.test(accept ?? '');
}
