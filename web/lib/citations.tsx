/** A citation as a link: a figure opens its company page; a passage opens the search result that holds it. */
import type { Citation } from './service';

/** The company page's section that shows a cited statement's figures. */
const SECTION: Record<string, string> = { income_statement: '#income-statement', balance_sheet: '#balance-sheet', cash_flow: '#cash-flow-statement', ratios: '#ratios', derived: '#ratios' };

export function citationHref(c: Citation): string {
  if (c.kind === 'DOCUMENT' || c.chunk_id) {
    const params = new URLSearchParams({ q: c.title ?? c.ticker ?? '', ...(c.company_id ? { company: String(c.company_id) } : {}) });
    return `/search?${params}#passage-${c.chunk_id}`;
  }
  const view = c.period?.startsWith('Q') ? '/quarterly' : '';
  return `/companies/${encodeURIComponent(c.ticker ?? '')}${view}${SECTION[c.statement ?? ''] ?? ''}`;
}

export function citationText(c: Citation): string {
  return [c.ticker, c.period, c.field?.replace(/_/g, ' ') ?? c.title].filter(Boolean).join(' · ');
}

export function Citations({ citations }: { citations: Citation[] }) {
  if (citations.length === 0) return null;
  return (
    <ul className="citations">
      {citations.map((c, i) => <li key={i}><a href={citationHref(c)}>{citationText(c)}</a></li>)}
    </ul>
  );
}
