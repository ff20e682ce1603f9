/** A citation as a link: a figure opens its company page; a passage opens its document, scrolled to it. */
import type { Citation } from './service';

/** A passage in its document: the page marks the passage the fragment names. */
export function passageHref(documentId: number, chunkId: number): string {
  return `/documents/${documentId}#passage-${chunkId}`;
}

/** The company page's section that shows a cited statement's figures. */
const SECTION: Record<string, string> = {
  income_statement: '#income-statement',
  balance_sheet: '#balance-sheet',
  cash_flow: '#cash-flow-statement',
  ratios: '#ratios',
  derived: '#ratios',
};

export function citationHref(c: Citation): string {
  if (c.document_id && c.chunk_id) return passageHref(c.document_id, c.chunk_id);
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
      {citations.map((c, i) => (
        <li key={i}>
          <a href={citationHref(c)}>{citationText(c)}</a>
        </li>
      ))}
    </ul>
  );
}
