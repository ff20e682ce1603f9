import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { requireAnalyst } from '../../../lib/analyst';
import { AccessNeeded } from '../../components/access-needed';
import { asFailure, type Document, isNotFound, readDocument } from '../../../lib/service';
import { ServiceProblem } from '../../components/service-problem';

export const metadata: Metadata = { title: 'Document' };

/** "2025-04-02T00:00:00.000Z" → "Apr 2, 2025". */
function publishedOn(date: string | null | undefined): string | null {
  const parsed = date ? new Date(date) : null;
  return parsed && !Number.isNaN(parsed.getTime())
    ? parsed.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' })
    : null;
}

/**
 * A stored document and its passages in reading order. Search results and citations link to
 * /documents/<id>#passage-<chunk id>: the browser scrolls to that passage and CSS (:target) marks it.
 */
export default async function DocumentPage({ params }: { params: Promise<{ id: string }> }) {
  const session = await requireAnalyst();
  if (!session) return <AccessNeeded />;
  const { id } = await params;
  if (!/^[1-9]\d{0,9}$/.test(id)) notFound();
  let document: Document;
  try {
    document = await readDocument(session.token, Number(id));
  } catch (error) {
    if (isNotFound(error)) notFound();
    return (
      <>
        <h1>Document</h1>
        <ServiceProblem failure={asFailure(error)} />
      </>
    );
  }
  const published = publishedOn(document.published_at);
  return (
    <article aria-labelledby="document-title">
      <h1 id="document-title">{document.title}</h1>
      <dl className="facts">
        <dt>Company</dt>
        <dd>
          <a href={`/companies/${encodeURIComponent(document.ticker)}`}>{document.ticker}</a>
        </dd>
        <dt>Type</dt>
        <dd>{document.doc_type}</dd>
        {document.period && (
          <>
            <dt>Period</dt>
            <dd>{document.period}</dd>
          </>
        )}
        {published && (
          <>
            <dt>Published</dt>
            <dd>{published}</dd>
          </>
        )}
        {document.source_url && (
          <>
            <dt>Source</dt>
            <dd>
              <a href={document.source_url} rel="noopener noreferrer">
                {document.source_url}
              </a>
            </dd>
          </>
        )}
      </dl>
      <h2>{document.passages.length === 1 ? '1 passage' : `${document.passages.length} passages`}</h2>
      <ol className="passages">
        {document.passages.map((passage) => (
          <li key={passage.chunk_id} id={`passage-${passage.chunk_id}`}>
            {passage.content}
          </li>
        ))}
      </ol>
    </article>
  );
}
