/** Companies chosen by what a person types: a ticker, a name or part of one, or a suggestion ("NWSC · Northwind …"). */
import type { Company } from './service';

export const pickText = (c: Pick<Company, 'ticker' | 'name'>) => `${c.ticker} · ${c.name}`;

export type Choice = { company: Company } | { problem: string };

export function pickCompany(typed: string, companies: Company[]): Choice {
  const text = typed.trim().toLowerCase();
  const ticker = text.split(' · ')[0];
  const exact = companies.find((c) => c.ticker.toLowerCase() === ticker || c.name.toLowerCase() === text);
  if (exact) return { company: exact };
  const matching = companies.filter(
    (c) => c.name.toLowerCase().includes(text) || c.ticker.toLowerCase().startsWith(text),
  );
  if (matching.length === 1) return { company: matching[0] };
  if (matching.length === 0) return { problem: `No company matches “${typed.trim()}”.` };
  return {
    problem: `“${typed.trim()}” matches ${matching.length} companies (${matching
      .slice(0, 4)
      .map((c) => c.ticker)
      .join(', ')}${matching.length > 4 ? ' …' : ''}): type more of the name or the ticker.`,
  };
}
