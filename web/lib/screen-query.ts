/** The screener page's query, as its address keeps it (a screen is a link to bookmark or share). */

export const SCREEN_PAGE_SIZE = 25;

export const SCREEN_PERIODS: Record<string, string> = {
  'latest-fy': 'Newest fiscal year',
  latest: 'Newest quarter',
  ttm: 'Trailing twelve months',
};

export interface ScreenQuery {
  filter: string;
  period: string;
  sort: string;
  sector: string;
  page: number;
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? '';

/** The query of the page's address; a period that is not a choice reads as the newest fiscal year. */
export function parseScreenQuery(params: Record<string, string | string[] | undefined>): ScreenQuery {
  const period = first(params.period);
  const page = Number(first(params.page));
  return {
    filter: first(params.filter).slice(0, 500),
    period: period in SCREEN_PERIODS || /^(?:FY\d{4}|Q[1-4]-\d{4})$/i.test(period) ? period : 'latest-fy',
    sort: first(params.sort).slice(0, 100) || '-revenue',
    sector: first(params.sector).slice(0, 100),
    page: Number.isInteger(page) && page >= 1 && page <= 1000 ? page : 1,
  };
}

/** The address of the screen with some of its query changed. */
export function screenHref(query: ScreenQuery, change: Partial<ScreenQuery>): string {
  const next = { ...query, ...change };
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(next))
    if (value !== '' && !(key === 'page' && value === 1)) params.set(key, String(value));
  return `/screener?${params}`;
}
