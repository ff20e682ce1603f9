import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { isView, VIEWS } from '../../../../lib/company-view';
import { CompanyPage } from '../company-page';

/** Rendered on first visit, then served from the cache and regenerated at most hourly (ISR). */
export const revalidate = 3600;
export async function generateStaticParams() {
  return [];
}

export async function generateMetadata({
  params,
}: {
  params: Promise<{ ticker: string; view: string }>;
}): Promise<Metadata> {
  const { ticker, view } = await params;
  return { title: `${ticker.toUpperCase()}: ${isView(view) ? VIEWS[view].toLowerCase() : 'not found'}` };
}

export default async function Page({ params }: { params: Promise<{ ticker: string; view: string }> }) {
  const { ticker, view } = await params;
  if (!isView(view)) notFound();
  return <CompanyPage ticker={ticker} view={view} />;
}
