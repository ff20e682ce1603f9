import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { requireAnalyst } from '../../lib/analyst';
import { AccessNeeded } from '../components/access-needed';
import { passageHref } from '../../lib/citations';
import { failureText } from '../../lib/failure-text';
import { ServiceProblem } from '../components/service-problem';
import { allCompanies, asFailure, type Company, search, type SearchResult } from '../../lib/service';

export const metadata: Metadata = { title: 'Search' };

const DOC_TYPES = ['10-K', '10-Q', '8-K', 'earnings-call', 'press-release', 'note'];
const PERIOD = /^(Q[1-4]-\d{4}|FY\d{4})$/;

/** The query's words marked in the passage (React escapes the text; only <mark> is added). */
function highlight(text: string, query: string): ReactNode[] {
  const words = [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [])].map((w) =>
    w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
  );
  if (words.length === 0) return [text];
  return text
    .split(new RegExp(`(\\b(?:${words.join('|')})\\w*)`, 'giu'))
    .map((part, i) => (i % 2 === 1 ? <mark key={i}>{part}</mark> : part));
}

/** The passage around its first match, for the result list. */
function snippet(content: string, query: string, size = 320): string {
  const lower = content.toLowerCase();
  const first =
    (query.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [])
      .map((w) => lower.indexOf(w))
      .filter((i) => i >= 0)
      .sort((a, b) => a - b)[0] ?? 0;
  const start = Math.max(0, first - 80);
  return `${start > 0 ? '…' : ''}${content.slice(start, start + size).replace(/\s+/g, ' ')}${start + size < content.length ? '…' : ''}`;
}

export default async function SearchPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const session = await requireAnalyst();
  if (!session) return <AccessNeeded />;
  const params = await searchParams;
  const q = params.q?.trim().slice(0, 500) ?? '';
  const companyId = Number(params.company) || null;
  const docType = DOC_TYPES.includes(params.type ?? '') ? (params.type as string) : '';
  const period = (params.period ?? '').trim().toUpperCase();
  let companies: Company[];
  try {
    companies = await allCompanies();
  } catch (error) {
    return (
      <>
        <h1>Search documents</h1>
        <ServiceProblem failure={asFailure(error)} />
      </>
    );
  }
  let hits: SearchResult[] | null = null;
  let problem: string | null = null;
  if (period && !PERIOD.test(period)) problem = `“${period}” is not a fiscal period: write FY2025 or Q3-2025.`;
  else if (q) {
    try {
      hits = await search(session.token, {
        query: q,
        companyIds: companyId ? [companyId] : undefined,
        docTypes: docType ? [docType] : undefined,
        periods: period ? [period] : undefined,
      });
    } catch (error) {
      problem = failureText(asFailure(error));
    }
  }
  return (
    <>
      <h1>Search documents</h1>
      <form method="get" action="/search" className="filters" role="search" aria-label="Documents">
        <label htmlFor="q">
          Search for
          <input id="q" name="q" type="search" defaultValue={q} required size={30} />
        </label>
        <label htmlFor="company">
          Company
          <select id="company" name="company" defaultValue={companyId ? String(companyId) : ''}>
            <option value="">All companies</option>
            {companies.map((c) => (
              <option key={c.id} value={c.id}>
                {c.ticker} · {c.name}
              </option>
            ))}
          </select>
        </label>
        <label htmlFor="type">
          Document type
          <select id="type" name="type" defaultValue={docType}>
            <option value="">All types</option>
            {DOC_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <label htmlFor="period">
          Period
          <input id="period" name="period" defaultValue={period} size={8} placeholder="FY2025" />
        </label>
        <button type="submit">Search</button>
      </form>
      {problem && (
        <p role="alert" className="error">
          {problem}
        </p>
      )}
      {hits && hits.length === 0 && <p role="status">No passages match.</p>}
      {hits && hits.length > 0 && (
        <>
          <p role="status" className="muted">
            {hits.length} passages, best first.
          </p>
          <ol className="results">
            {hits.map((hit) => (
              <li key={hit.chunk_id} id={`passage-${hit.chunk_id}`}>
                <p>
                  <a href={`/companies/${encodeURIComponent(hit.ticker)}`}>{hit.ticker}</a> ·{' '}
                  <a href={passageHref(hit.document_id, hit.chunk_id)}>{hit.title}</a>{' '}
                  <span className="muted">
                    ({hit.doc_type}
                    {hit.period ? `, ${hit.period}` : ''}
                    {hit.section ? `, ${hit.section}` : ''})
                  </span>
                </p>
                <p className="snippet">{highlight(snippet(hit.content, q), q)}</p>
                <details>
                  <summary>The whole passage</summary>
                  <p>{highlight(hit.content, q)}</p>
                </details>
              </li>
            ))}
          </ol>
        </>
      )}
    </>
  );
}
