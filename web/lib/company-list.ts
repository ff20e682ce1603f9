/** The companies page's query: ticker or name search, sector filter, sort and paging over the tracked companies. */
import type { Company } from './service';

export const PAGE_SIZE = 20;
export const SORTS = { name: 'Name', ticker: 'Ticker', sector: 'Sector' } as const;
export type SortKey = keyof typeof SORTS;

export interface ListQuery {
  q: string;
  sector: string;
  sort: SortKey;
  page: number;
}

export function parseListQuery(params: Record<string, string | string[] | undefined>): ListQuery {
  const one = (key: string) => (Array.isArray(params[key]) ? params[key]![0] : params[key]) ?? '';
  const sort = one('sort') as SortKey;
  return {
    q: one('q').trim().slice(0, 100),
    sector: one('sector').trim(),
    sort: sort in SORTS ? sort : 'name',
    page: Math.max(1, Math.floor(Number(one('page'))) || 1),
  };
}

/** Companies whose ticker or name contains the words, in the sector, sorted, and the page asked for. */
export function selectCompanies(
  companies: Company[],
  query: ListQuery,
): { rows: Company[]; total: number; pages: number } {
  const needle = query.q.toLowerCase();
  const matching = companies
    .filter((c) => !needle || c.ticker.toLowerCase().includes(needle) || c.name.toLowerCase().includes(needle))
    .filter((c) => !query.sector || c.sector.toLowerCase() === query.sector.toLowerCase())
    .sort((a, b) => a[query.sort].localeCompare(b[query.sort]) || a.name.localeCompare(b.name));
  const pages = Math.max(1, Math.ceil(matching.length / PAGE_SIZE));
  const start = (Math.min(query.page, pages) - 1) * PAGE_SIZE;
  return { rows: matching.slice(start, start + PAGE_SIZE), total: matching.length, pages };
}

export function listHref(query: ListQuery, changes: Partial<ListQuery>): string {
  const next = { ...query, ...changes };
  const params = new URLSearchParams();
  if (next.q) params.set('q', next.q);
  if (next.sector) params.set('sector', next.sector);
  if (next.sort !== 'name') params.set('sort', next.sort);
  if (next.page > 1) params.set('page', String(next.page));
  const text = params.toString();
  return `/companies${text ? `?${text}` : ''}`;
}
