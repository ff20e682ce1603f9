/** How figures are written on the pages: money in K/M/B/T with the currency, fractions as percentages, multiples with x. */

// Formatters by currency and precision, made once: Intl.NumberFormat is costly to build and cheap to reuse.
const moneyFormats = new Map<string, Intl.NumberFormat>();

function moneyFormat(currency: string, fractionDigits: number): Intl.NumberFormat {
  const key = `${currency}|${fractionDigits}`;
  let format = moneyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency,
      // "$" for dollars; every other currency by its code, so EUR and SEK never read as dollars.
      currencyDisplay: currency === 'USD' ? 'narrowSymbol' : 'code',
      notation: 'compact',
      compactDisplay: 'short',
      minimumFractionDigits: 0,
      maximumFractionDigits: fractionDigits,
    });
    moneyFormats.set(key, format);
  }
  return format;
}

/** Money in compact form with its currency: $3.92B, -$2.5B, EUR 669.2M, $950K (one decimal from 100 of a unit up). */
export function formatMoney(value: number | null | undefined, currency = 'USD'): string {
  if (value === null || value === undefined) return '—';
  const size = Math.abs(value);
  const unit = size >= 1e9 ? 1e9 : size >= 1e6 ? 1e6 : size >= 1e3 ? 1e3 : 1;
  // Intl writes a no-break space after a currency code; pages and CSV files read better with a plain one.
  return moneyFormat(currency, size / unit >= 100 ? 1 : 2)
    .format(value)
    .replace(/\u00a0/g, ' ');
}

const PERCENT = new Intl.NumberFormat('en-US', {
  style: 'percent',
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});

/** A fraction as a percentage with one decimal: 0.5817 → 58.2%. */
export function formatPercent(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : PERCENT.format(value);
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
