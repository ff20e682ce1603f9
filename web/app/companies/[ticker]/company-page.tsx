/** The company page for one range; shared by /companies/[ticker] (annual) and /companies/[ticker]/[view]. */
import { notFound } from 'next/navigation';
import { Chart } from '../../../lib/chart';
import type { Definition } from '../../../lib/company-query';
import {
  failedChecks,
  loadCompanyView,
  provenanceOf,
  seriesOf,
  VIEWS,
  type Column,
  type View,
} from '../../../lib/company-view';
import { publicApiUrl } from '../../../lib/config';
import {
  amountScale,
  checkName,
  formatMoney,
  formatPercent,
  formatPerShare,
  formatRatio,
  formatScaled,
  monthYear,
} from '../../../lib/format';
import { directionOf, trendOf, type TrendMark } from '../../../lib/ratio-direction';
import { refusedOrThrow } from '../../../lib/refusal';
import { ServiceRefusal } from '../../components/service-refusal';
import { TICKER } from '../../../lib/ticker';
import { isNotFound } from '../../../lib/service';
import { BALANCE_ROWS, CASH_ROWS, INCOME_ROWS, PER_SHARE, type Row } from '../../../lib/statement-rows';

function PeriodHeader({ column }: { column: Column }) {
  return (
    <th scope="col" className="num">
      {column.period}
      <br />
      <span className="muted small">
        {column.periodStart ? `${monthYear(column.periodStart)} – ${monthYear(column.periodEnd)}` : ''}
      </span>
    </th>
  );
}

/** A statement, newest period first; amounts share one scale named in the header, EPS is per share. */
function StatementTable({
  id,
  title,
  rows,
  columns,
  part,
  currency,
}: {
  id: string;
  title: string;
  rows: readonly Row[];
  columns: Column[];
  part: 'income' | 'balance' | 'cashFlow';
  currency: string;
}) {
  const shownColumns = columns.filter((c) => c[part] !== null);
  const shown = rows.filter(([field]) => seriesOf(shownColumns, part, field).some((v) => v !== null));
  if (shown.length === 0) return null;
  const scale = amountScale(
    shown.filter(([field]) => !PER_SHARE.has(field)).flatMap(([field]) => seriesOf(shownColumns, part, field)),
  );
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <div className="scroll" tabIndex={0} role="region" aria-label={`${title}, newest period first, scrollable`}>
        <table data-statement={id}>
          <thead>
            <tr>
              <th scope="col" className="label">
                {currency} {scale.word}
              </th>
              {shownColumns.map((c) => (
                <PeriodHeader key={c.period} column={c} />
              ))}
            </tr>
          </thead>
          <tbody>
            {shown.map(([field, label]) => {
              const perShare = PER_SHARE.has(field);
              return (
                <tr key={field}>
                  <th scope="row" className="label">
                    {label}
                    {perShare ? <span className="muted small"> ({currency} per share)</span> : null}
                  </th>
                  {seriesOf(shownColumns, part, field).map((value, i) => (
                    <td key={shownColumns[i].period} className="num" data-field={field}>
                      {perShare ? formatPerShare(value) : formatScaled(value, scale)}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** The same data from the service's API: a link where browsers can reach the service, else the path to ask for. */
function ApiLink({ path, label }: { path: string; label: string }) {
  const api = publicApiUrl();
  return api ? (
    <a data-api-link href={`${api}${path}`}>
      {label}
    </a>
  ) : (
    <span data-api-link>
      {label}: <code>GET {path}</code>
    </span>
  );
}

const SHAPES = { up: '▲', down: '▼', unchanged: '■' } as const;

/** Up or down in shape, better or worse in colour (and in words for screen readers and print). */
function Trend({ mark }: { mark: TrendMark | null }) {
  if (!mark) return null;
  const words =
    mark.shape === 'unchanged'
      ? 'unchanged'
      : `${mark.shape}, ${mark.verdict === 'neutral' ? 'neither better nor worse' : mark.verdict}`;
  return (
    <span className={`trend ${mark.verdict}`} data-trend={mark.shape} data-verdict={mark.verdict} title={words}>
      <span aria-hidden="true">{SHAPES[mark.shape]}</span>
      <span className="visually-hidden"> {words}</span>
    </span>
  );
}

const categoryName = (category: string) => category.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

/** Every ratio, newest period first, its trend beside the newest value; formulas in a list below, by name. */
function RatioTable({ columns, definitions }: { columns: Column[]; definitions: Definition[] }) {
  const shownColumns = columns.filter((c) => c.ratios !== null);
  const categories = [...new Set(definitions.map((d) => d.category))];
  return (
    <section aria-labelledby="ratios">
      <h2 id="ratios">Ratios ({definitions.length})</h2>
      <p className="small muted">
        Marks compare the newest column with the one next to it: ▲ up, ▼ down, ■ unchanged;{' '}
        <span className="better">green is better</span>, <span className="worse">red is worse</span>, grey is neither.
      </p>
      <div className="scroll" tabIndex={0} role="region" aria-label="Ratios, newest period first, scrollable">
        <table data-ratios>
          <thead>
            <tr>
              <th scope="col" className="label">
                Ratio
              </th>
              {shownColumns.map((c) => (
                <PeriodHeader key={c.period} column={c} />
              ))}
            </tr>
          </thead>
          {categories.map((category) => (
            <tbody key={category}>
              <tr>
                <th scope="colgroup" className="group" colSpan={shownColumns.length + 1}>
                  <span className="stay">{categoryName(category)}</span>
                </th>
              </tr>
              {definitions
                .filter((d) => d.category === category)
                .map((d) => {
                  const shown = seriesOf(shownColumns, 'ratios', d.key).map((value) => ({
                    value,
                    text: formatRatio(d.key, d.category, value),
                  }));
                  return (
                    <tr key={d.key} data-ratio={d.key} data-better-when={directionOf(d.key)}>
                      <th scope="row" className="label">
                        <a href={`#formula-${d.key}`} title={d.formula}>
                          {d.label}
                        </a>
                      </th>
                      {shown.map((cell, i) => (
                        <td key={shownColumns[i].period} className="num">
                          {cell.text}
                          {i === 0 ? (
                            <>
                              {' '}
                              <Trend mark={trendOf(d.key, shown)} />
                            </>
                          ) : null}
                        </td>
                      ))}
                    </tr>
                  );
                })}
            </tbody>
          ))}
        </table>
      </div>
      <details className="formulas">
        <summary>How each ratio is computed, and whether higher is better</summary>
        <dl>
          {definitions.map((d) => (
            <div key={d.key} id={`formula-${d.key}`}>
              <dt>{d.label}</dt>
              <dd>
                <code>{d.formula}</code> · {BETTER_WORDS[directionOf(d.key)]}
              </dd>
            </div>
          ))}
        </dl>
      </details>
    </section>
  );
}

const BETTER_WORDS = {
  higher: 'higher is better',
  lower: 'lower is better',
  neither: 'neither higher nor lower is better in itself',
} as const;

export async function CompanyPage({ ticker, view }: { ticker: string; view: View }) {
  if (!TICKER.test(ticker)) notFound();
  let data;
  try {
    data = await loadCompanyView(ticker, view);
  } catch (error) {
    if (isNotFound(error)) notFound();
    return <ServiceRefusal refusal={refusedOrThrow(error)} />;
  }
  const { company, columns, definitions, quality, peers } = data;
  const currency = company.currency;
  const money = (v: number) => formatMoney(v, currency);
  // Charts read left to right in time and follow the range; the TTM column sums four quarters, so it would dwarf
  // them in a chart: the tables have it.
  const charted = columns.filter((c) => c.period !== 'TTM').reverse();
  const periods = charted.map((c) => c.period);
  const latest = columns[0] as Column | undefined;
  const newestQuarterOrYear = charted[charted.length - 1];
  const flags = failedChecks(columns);
  const provenance = provenanceOf(columns);
  const base = `/companies/${encodeURIComponent(company.ticker)}`;
  const apiPeriod = view === 'ttm' ? 'ttm' : newestQuarterOrYear?.period;
  return (
    <>
      <p>
        <a href="/companies">← All companies</a>
      </p>
      <h1>
        {company.name} <span className="muted">({company.ticker})</span>
      </h1>
      <p>
        {[company.sector, company.industry, company.exchange, company.country].filter(Boolean).join(' · ')}
        {company.employees ? ` · ${company.employees.toLocaleString('en-US')} employees` : ''}
        {company.website ? (
          <>
            {' '}
            ·{' '}
            <a href={company.website} rel="noopener noreferrer">
              {company.website.replace(/^https?:\/\//, '')}
            </a>
          </>
        ) : null}
      </p>
      {company.description && <p>{company.description}</p>}

      <nav aria-label="Range">
        <ul className="tabs">
          {Object.entries(VIEWS).map(([key, label]) => (
            <li key={key}>
              <a href={key === 'annual' ? base : `${base}/${key}`} aria-current={key === view ? 'page' : undefined}>
                {label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <p className="small">
        <a href={`/api/financials/${encodeURIComponent(company.ticker)}/csv?view=${view}`} download>
          Download these statements as CSV
        </a>
        {apiPeriod ? (
          <>
            {' · '}
            <ApiLink
              path={`/v1/companies/${company.id}/income-statement?period=${apiPeriod}`}
              label={`The ${apiPeriod === 'ttm' ? 'TTM' : apiPeriod} income statement from the service’s API`}
            />
          </>
        ) : null}
      </p>

      {latest && (
        <section aria-labelledby="key-figures">
          <h2 id="key-figures">Key figures, {latest.period}</h2>
          <div className="cards">
            <div className="card">
              <div className="muted">Revenue</div>
              <div className="value" data-figure="revenue">
                {formatMoney(latest.income?.revenue, currency)}
              </div>
            </div>
            <div className="card">
              <div className="muted">Net income</div>
              <div className="value" data-figure="net-income">
                {formatMoney(latest.income?.netIncome, currency)}
              </div>
            </div>
            <div className="card">
              <div className="muted">Net margin</div>
              <div className="value" data-figure="net-margin">
                {formatPercent(latest.ratios?.netMargin)}
              </div>
            </div>
            <div className="card">
              <div className="muted">Free cash flow</div>
              <div className="value" data-figure="free-cash-flow">
                {formatMoney(latest.cashFlow?.freeCashFlow, currency)}
              </div>
            </div>
          </div>
        </section>
      )}

      <section aria-labelledby="charts">
        <h2 id="charts">
          {VIEWS[view]}: {periods[0]} to {periods[periods.length - 1]}
        </h2>
        <div className="charts">
          <Chart
            id="revenue-net-income"
            kind="bar"
            title="Revenue and net income"
            periods={periods}
            format={money}
            series={[
              { label: 'Revenue', values: seriesOf(charted, 'income', 'revenue') },
              { label: 'Net income', values: seriesOf(charted, 'income', 'netIncome') },
            ]}
          />
          <Chart
            id="margins"
            title="Margins"
            periods={periods}
            format={formatPercent}
            series={[
              { label: 'Gross margin', values: seriesOf(charted, 'ratios', 'grossMargin') },
              { label: 'Operating margin', values: seriesOf(charted, 'ratios', 'operatingMargin') },
              { label: 'Net margin', values: seriesOf(charted, 'ratios', 'netMargin') },
            ]}
          />
          <Chart
            id="cash-flow"
            kind="bar"
            title="Cash flow"
            periods={periods}
            format={money}
            series={[
              { label: 'Operating cash flow', values: seriesOf(charted, 'cashFlow', 'operatingCashFlow') },
              { label: 'Free cash flow', values: seriesOf(charted, 'cashFlow', 'freeCashFlow') },
            ]}
          />
        </div>
      </section>

      <StatementTable
        id="income-statement"
        title="Income statement"
        rows={INCOME_ROWS}
        columns={columns}
        part="income"
        currency={currency}
      />
      <StatementTable
        id="balance-sheet"
        title="Balance sheet"
        rows={BALANCE_ROWS}
        columns={columns}
        part="balance"
        currency={currency}
      />
      <StatementTable
        id="cash-flow-statement"
        title="Cash flow statement"
        rows={CASH_ROWS}
        columns={columns}
        part="cashFlow"
        currency={currency}
      />
      <RatioTable columns={columns} definitions={definitions} />

      {peers.length > 0 && (
        <section aria-labelledby="peers">
          <h2 id="peers">Peers in {company.sector}</h2>
          <ul className="tabs" data-peers>
            {peers.map((p) => (
              <li key={p.id}>
                <a href={`/companies/${encodeURIComponent(p.ticker)}${view === 'annual' ? '' : `/${view}`}`}>
                  {p.ticker} · {p.name}
                </a>
              </li>
            ))}
          </ul>
          <p className="small">
            <a
              href={`/compare?${[company.id, ...peers.slice(0, 4).map((p) => p.id)].map((id) => `company=${id}`).join('&')}`}
            >
              Compare {company.ticker} with these peers
            </a>
          </p>
        </section>
      )}

      <section aria-labelledby="quality">
        <h2 id="quality">Data quality</h2>
        {flags.length === 0 ? (
          <p data-quality-flags="0">Every check passes for the periods shown.</p>
        ) : (
          <ul data-quality-flags={flags.length}>
            {flags.map((f, i) => (
              <li key={i} className="error">
                {f.period} {f.statement}: “{checkName(f.check)}” fails{f.detail ? ` — ${f.detail}` : ''}
              </li>
            ))}
          </ul>
        )}
        <div className="scroll" tabIndex={0} role="region" aria-label="Data-quality checks, scrollable">
          <table>
            <thead>
              <tr>
                <th scope="col">Check (all stored statements)</th>
                <th scope="col" className="num">
                  Passed
                </th>
                <th scope="col" className="hide-narrow">
                  What it checks
                </th>
              </tr>
            </thead>
            <tbody>
              {quality.map((q) => (
                <tr key={q.check} data-check={q.check}>
                  <th scope="row">{checkName(q.check)}</th>
                  <td className="num">
                    {q.passed} of {q.checked}
                  </td>
                  <td className="hide-narrow small muted">{q.description}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby="provenance">
        <h2 id="provenance">Provenance</h2>
        {provenance.length === 0 ? (
          <p>
            The figures of {newestQuarterOrYear?.period ?? 'this range'} were not imported from SEC filings (demo or
            directly loaded data), so they carry no filing references.
          </p>
        ) : (
          <div className="scroll" tabIndex={0} role="region" aria-label="Provenance, scrollable">
            <table>
              <thead>
                <tr>
                  <th scope="col">Value ({provenance[0].period})</th>
                  <th scope="col">Concept</th>
                  <th scope="col">Filing</th>
                  <th scope="col">Note</th>
                </tr>
              </thead>
              <tbody>
                {provenance.map((p) => (
                  <tr key={`${p.statement}-${p.field}`}>
                    <th scope="row">
                      {p.statement}: {p.field}
                    </th>
                    <td>
                      <code>{p.concept ?? '—'}</code>
                    </td>
                    <td>
                      {p.form} {p.accession ?? (p.page ? `page ${p.page}` : '')} {p.filed ? `(filed ${p.filed})` : ''}
                    </td>
                    <td>{[p.derived && 'derived', p.restated && 'restated'].filter(Boolean).join(', ') || '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <p className="muted small">Figures in {currency}. This page is regenerated at most hourly.</p>
    </>
  );
}
