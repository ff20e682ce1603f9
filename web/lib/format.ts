/** How figures are written on the pages: money in B/M with the currency, fractions as percentages, multiples with x. */

export function formatMoney(value: number | null | undefined, currency = 'USD'): string {
  if (value === null || value === undefined) return '—';
  const sign = value < 0 ? '-' : '';
  const size = Math.abs(value);
  const symbol = currency === 'USD' ? '$' : `${currency} `;
  const scaled = (divisor: number, suffix: string) =>
    `${sign}${symbol}${(size / divisor).toLocaleString('en-US', { maximumFractionDigits: size / divisor >= 100 ? 1 : 2 })}${suffix}`;
  if (size >= 1e9) return scaled(1e9, 'B');
  if (size >= 1e6) return scaled(1e6, 'M');
  return `${sign}${symbol}${size.toLocaleString('en-US', { maximumFractionDigits: 2 })}`;
}

export function formatPercent(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `${(value * 100).toFixed(1)}%`;
}

/** A value in its unit as the service names it: fraction, multiple, per-share, days, or an amount of money. */
export function formatUnit(unit: string, value: number | null | undefined, currency = 'USD'): string {
  if (value === null || value === undefined) return '—';
  if (unit === 'fraction' || unit === 'percent') return formatPercent(value);
  if (unit === 'multiple' || unit === 'ratio') return `${value.toFixed(2)}x`;
  if (unit === 'days') return `${value.toFixed(0)} days`;
  if (unit === 'per_share' || unit === 'per-share') return value.toFixed(2);
  return formatMoney(value, currency);
}

/** "2024-01-01" → "Jan 2024", for period headers. */
export function monthYear(date: string | null | undefined): string {
  if (!date) return '';
  const parsed = new Date(`${date}T00:00:00Z`);
  return Number.isNaN(parsed.getTime())
    ? date
    : parsed.toLocaleDateString('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });
}

/** A ratio as its category reads: margins, returns and growth in %, days in days, the rest as multiples. */
export function formatRatio(key: string, category: string, value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  if (/^days|^cash_?conversion_?cycle$/i.test(key)) return `${value.toFixed(0)} days`;
  if (['margins', 'returns', 'cash_quality', 'growth'].includes(category)) return formatPercent(value);
  return `${value.toFixed(2)}x`;
}

/** One scale for a whole table of amounts: millions (thousands when every figure is smaller), named in its header. */
export interface AmountScale {
  divisor: number;
  word: 'millions' | 'thousands';
}

export function amountScale(values: Array<number | null>): AmountScale {
  const largest = Math.max(0, ...values.map((v) => Math.abs(v ?? 0)));
  return largest >= 1e6 ? { divisor: 1e6, word: 'millions' } : { divisor: 1e3, word: 'thousands' };
}

/** An amount in the table's scale, always one decimal, grouped: 3,920.1 (negative as -3,920.1). */
export function formatScaled(value: number | null | undefined, scale: AmountScale): string {
  if (value === null || value === undefined) return '—';
  return (value / scale.divisor).toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/** A per-share amount: always two decimals. */
export function formatPerShare(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : value.toFixed(2);
}

/** The names the data-quality checks go by on the pages. */
const CHECK_NAMES: Record<string, string> = {
  balance: 'Assets equal liabilities plus equity',
  yearEqualsSumOfQuarters: 'Fiscal year equals the sum of its quarters',
  cashRollForward: 'Cash roll-forward',
  grossProfit: 'Gross profit equals revenue less cost of revenue',
  filingsAgree: 'Agrees with the stored filings',
};

/** A check's name for people: known names, else its identifier in words (year_equals_sum → Year equals sum). */
export function checkName(check: string): string {
  const words = check
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase();
  const camel = words.replace(/ (.)/g, (_, c: string) => c.toUpperCase());
  return CHECK_NAMES[check] ?? CHECK_NAMES[camel] ?? words.replace(/^./, (c) => c.toUpperCase());
}
