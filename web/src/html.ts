/** HTML building blocks: every value put into a page goes through `escape` (or `html` templates, which escape). */

export function escape(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** A piece of markup that is already safe. */
export class Safe {
  constructor(readonly markup: string) {}
  toString(): string {
    return this.markup;
  }
}

/** Tagged template: interpolated values are escaped unless they are Safe (or arrays of Safe). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Safe {
  let out = strings[0];
  values.forEach((value, i) => {
    const rendered = Array.isArray(value) ? value.map((v) => (v instanceof Safe ? v.markup : escape(v))).join('') : value instanceof Safe ? value.markup : escape(value);
    out += rendered + strings[i + 1];
  });
  return new Safe(out);
}

export function formatMoney(value: number | null | undefined, currency = 'USD'): string {
  if (value === null || value === undefined) return '—';
  const sign = value < 0 ? '-' : '';
  const size = Math.abs(value);
  const symbol = currency === 'USD' ? '$' : `${currency} `;
  const scaled = (d: number, w: string) => `${sign}${symbol}${(size / d).toLocaleString('en-US', { maximumFractionDigits: size / d >= 100 ? 1 : 2 })}${w}`;
  if (size >= 1e9) return scaled(1e9, 'B');
  if (size >= 1e6) return scaled(1e6, 'M');
  return `${sign}${symbol}${size.toLocaleString('en-US', { maximumFractionDigits: 2 })}`;
}

export function formatPercent(value: number | null | undefined): string {
  return value === null || value === undefined ? '—' : `${(value * 100).toFixed(1)}%`;
}
