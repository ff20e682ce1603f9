import type { Metadata } from 'next';
import { CompanyPage } from './company-page';

/** Rendered on first visit, then served from the cache and regenerated at most hourly (ISR). */
export const revalidate = 3600;
export async function generateStaticParams() {
  return [];
}

export async function generateMetadata({ params }: { params: Promise<{ ticker: string }> }): Promise<Metadata> {
  return { title: `${(await params).ticker.toUpperCase()}: annual` };
}

export default async function Page({ params }: { params: Promise<{ ticker: string }> }) {
  return <CompanyPage ticker={(await params).ticker} view="annual" />;
}
