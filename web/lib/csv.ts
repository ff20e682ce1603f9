/**
 * The statements of a company page as CSV: one row per line item (its REST name), one column per period, oldest
 * first as spreadsheets read (RFC 4180 quoting).
 */
import type { Column } from './company-view';
import { BALANCE_ROWS, CASH_ROWS, INCOME_ROWS, snake, type Row } from './statement-rows';

const cell = (value: unknown) => {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

export function statementsCsv(newestFirst: Column[]): string {
  const columns = [...newestFirst].reverse();
  const lines = [
    ['statement', 'line_item', ...columns.map((c) => c.period)],
    ['', 'period_end', ...columns.map((c) => c.periodEnd ?? '')],
  ];
  const parts: Array<[string, 'income' | 'balance' | 'cashFlow', readonly Row[]]> = [
    ['income_statement', 'income', INCOME_ROWS],
    ['balance_sheet', 'balance', BALANCE_ROWS],
    ['cash_flow', 'cashFlow', CASH_ROWS],
  ];
  for (const [name, part, rows] of parts)
    for (const [field] of rows)
      lines.push(
        [
          name,
          snake(field),
          ...columns.map(
            (c) => ((c[part] as Record<string, unknown> | null)?.[field] as number | null | undefined) ?? '',
          ),
        ].map(String),
      );
  return `${lines.map((line) => line.map(cell).join(',')).join('\r\n')}\r\n`;
}
