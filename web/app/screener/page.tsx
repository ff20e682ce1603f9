import type { Metadata } from 'next';
import { InvalidRequestError } from '@financial-insights/sdk';
import { refusedOrThrow } from '../../lib/refusal';
import { ServiceRefusal } from '../components/service-refusal';
import { CompanyCells, CompanyHeaders } from '../components/company-cells';
import { Pager } from '../components/pager';
import { ratioDefinitions, screen, type RatioDefinition, type ScreenRow } from '../../lib/service';
import { visitorAddress } from '../../lib/visitor';
import { formatMoney, formatRatio } from '../../lib/format';
import {
  parseScreenQuery,
  screenHref,
  SCREEN_PAGE_SIZE,
  SCREEN_PERIODS,
  type ScreenQuery,
} from '../../lib/screen-query';

export const metadata: Metadata = { title: 'Screener' };

/** A value as its field reads: a ratio by its category, a statement amount in the company's currency. */
function shown(field: string, value: number | null, currency: string, definitions: RatioDefinition[]): string {
  const loose = (key: string) => key.replace(/_/g, '').toLowerCase();
  const ratio = definitions.find((d) => loose(d.key) === loose(field));
  return ratio ? formatRatio(field, ratio.category, value) : formatMoney(value, currency);
}

const words = (field: string) => field.replace(/_/g, ' ');

export default async function ScreenerPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const query: ScreenQuery = parseScreenQuery(await searchParams);
  let rows: ScreenRow[] = [];
  let total = 0;
  let refused: string | null = null;
  let definitions: RatioDefinition[] = [];
  try {
    const visitor = await visitorAddress();
    [definitions, { items: rows, total }] = await Promise.all([
      ratioDefinitions(),
      screen(
        {
          filter: query.filter,
          period: query.period,
          sort: query.sort,
          sector: query.sector,
          limit: SCREEN_PAGE_SIZE,
          offset: (query.page - 1) * SCREEN_PAGE_SIZE,
        },
        visitor,
      ),
    ]);
  } catch (error) {
    // A filter the service cannot read is the visitor's to fix: its message names the field and the accepted names.
    if (error instanceof InvalidRequestError) refused = error.message;
    else return <ServiceRefusal refusal={refusedOrThrow(error)} />;
  }
  const fields = rows[0]?.values.map((value) => value.field) ?? [];
  const pages = Math.max(1, Math.ceil(total / SCREEN_PAGE_SIZE));
  return (
    <>
      <h1>Screener</h1>
      <form className="filters" method="get" action="/screener" role="search" aria-label="Screen companies">
        <label htmlFor="filter">
          Conditions
          <input
            id="filter"
            name="filter"
            type="search"
            defaultValue={query.filter}
            placeholder="gross_margin>50%, revenue>1B"
            aria-describedby="filter-help"
          />
        </label>
        <label htmlFor="period">
          Period
          <select id="period" name="period" defaultValue={query.period}>
            {Object.entries(SCREEN_PERIODS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label htmlFor="sort">
          Sort by
          <input id="sort" name="sort" type="text" defaultValue={query.sort} placeholder="-net_margin" />
        </label>
        <label htmlFor="sector">
          Sector
          <input id="sector" name="sector" type="text" defaultValue={query.sector} placeholder="any" />
        </label>
        <button type="submit">Screen</button>
      </form>
      <p id="filter-help" className="muted">
        Conditions on any statement field or ratio, joined by commas: <code>name&gt;value</code>, <code>&gt;=</code>,{' '}
        <code>&lt;</code>, <code>&lt;=</code>, <code>=</code>, <code>!=</code> or a range <code>name=low..high</code>;
        values take <code>%</code>, <code>K</code>, <code>M</code>, <code>B</code>. Sort by a name, <code>-</code> first
        for highest first. This page’s address keeps the screen: bookmark or share it.
      </p>
      {refused !== null ? (
        <p role="alert" className="error">
          {refused}
        </p>
      ) : rows.length === 0 ? (
        <p role="status">No company passes this screen.</p>
      ) : (
        <>
          <p className="muted" role="status">
            {total} {total === 1 ? 'company passes' : 'companies pass'}; page {query.page} of {pages}.
          </p>
          <div className="scroll" tabIndex={0} role="region" aria-label="Companies that pass the screen, scrollable">
            <table>
              <caption className="muted" style={{ textAlign: 'left' }}>
                Companies that pass the screen,{' '}
                {query.sort ? `by ${words(query.sort.replace(/^[-+]/, ''))}` : 'by name'}
              </caption>
              <thead>
                <tr>
                  <CompanyHeaders />
                  <th scope="col">Period</th>
                  {fields.map((field) => (
                    <th key={field} scope="col" className="num">
                      {words(field)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.id}>
                    <CompanyCells company={row} />
                    <td>{row.period}</td>
                    {row.values.map(({ field, value }) => (
                      <td key={field} className="num">
                        {shown(field, value, row.currency, definitions)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={query.page} pages={pages} href={(to) => screenHref(query, { page: to })} />
        </>
      )}
    </>
  );
}
