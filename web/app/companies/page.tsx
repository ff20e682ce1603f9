import type { Metadata } from 'next';
import { refusedOrThrow } from '../../lib/refusal';
import { ServiceRefusal } from '../components/service-refusal';
import { CompanyCells, CompanyHeaders } from '../components/company-cells';
import { Pager } from '../components/pager';
import { allCompanies, type Company } from '../../lib/service';
import { listHref, parseListQuery, selectCompanies, SORTS } from '../../lib/company-list';

export const metadata: Metadata = { title: 'Companies' };

export default async function CompaniesPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const query = parseListQuery(await searchParams);
  let companies: Company[];
  try {
    companies = await allCompanies();
  } catch (error) {
    return <ServiceRefusal refusal={refusedOrThrow(error)} />;
  }
  const sectors = [...new Set(companies.map((c) => c.sector))].sort();
  const { rows, total, pages } = selectCompanies(companies, query);
  const page = Math.min(query.page, pages);
  return (
    <>
      <h1>Companies</h1>
      <form className="filters" method="get" action="/companies" role="search" aria-label="Companies">
        <label htmlFor="q">
          Ticker or name
          <input id="q" name="q" type="search" defaultValue={query.q} placeholder="e.g. NWSC or Northwind" />
        </label>
        <label htmlFor="sector">
          Sector
          <select id="sector" name="sector" defaultValue={query.sector}>
            <option value="">All sectors</option>
            {sectors.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label htmlFor="sort">
          Sort by
          <select id="sort" name="sort" defaultValue={query.sort}>
            {Object.entries(SORTS).map(([key, label]) => (
              <option key={key} value={key}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Show</button>
      </form>
      <p className="muted" role="status">
        {total} {total === 1 ? 'company' : 'companies'}
        {query.sector ? ` in ${query.sector}` : ''}
        {query.q ? ` matching “${query.q}”` : ''}; page {page} of {pages}.
      </p>
      {rows.length === 0 ? (
        <p>
          No company matches. <a href="/companies">Show all companies</a>
        </p>
      ) : (
        <table>
          <caption className="muted" style={{ textAlign: 'left' }}>
            Tracked companies, by {SORTS[query.sort].toLowerCase()}
          </caption>
          <thead>
            <tr>
              <CompanyHeaders />
            </tr>
          </thead>
          <tbody>
            {rows.map((c) => (
              <tr key={c.id}>
                <CompanyCells company={c} />
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager page={page} pages={pages} href={(to) => listHref(query, { page: to })} />
    </>
  );
}
