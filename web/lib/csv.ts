/** The statements of a company page as CSV: one row per line item, one column per period (RFC 4180 quoting). */
import type { Column } from './company-view';
import { BALANCE_ROWS, CASH_ROWS, INCOME_ROWS, type Row } from './statement-rows';

const cell = (value: unknown) => {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

export function statementsCsv(columns: Column[]): string {
  const lines = [['statement', 'line_item', ...columns.map((c) => c.period)], ['', 'period_end', ...columns.map((c) => c.periodEnd ?? '')]];
  const parts: Array<[string, 'income' | 'balance' | 'cashFlow', readonly Row[]]> = [['income_statement', 'income', INCOME_ROWS], ['balance_sheet', 'balance', BALANCE_ROWS], ['cash_flow', 'cashFlow', CASH_ROWS]];
  for (const [name, part, rows] of parts) for (const [field] of rows) lines.push([name, field, ...columns.map((c) => (c[part]?.[field] as number | null | undefined) ?? '')].map(String));
  return `${lines.map((line) => line.map(cell).join(',')).join('\r\n')}\r\n`;
}
