/** The company page for one range; shared by /companies/[ticker] (annual) and /companies/[ticker]/[view]. */
import { notFound } from 'next/navigation';
import { Chart } from '../../../lib/chart';
import { failedChecks, loadCompanyView, provenanceOf, seriesOf, VIEWS, type Column, type View } from '../../../lib/company-view';
import { publicApiUrl } from '../../../lib/config';
import { formatMoney, formatPercent, formatRatio, monthYear } from '../../../lib/format';
import { isNotFound, type Statement } from '../../../lib/service';
import { BALANCE_ROWS, CASH_ROWS, INCOME_ROWS, PER_SHARE, snake, type Row } from '../../../lib/statement-rows';

export const TICKER = /^[A-Za-z0-9.\-]{1,16}$/;

function PeriodHeader({ column }: { column: Column }) {
  return (
    <th scope="col" className="num">
      {column.period === 'TTM' ? 'TTM' : column.period}
      <br /><span className="muted small">{column.periodStart ? `${monthYear(column.periodStart)} – ${monthYear(column.periodEnd)}` : ''}</span>
    </th>
  );
}

function StatementTable({ id, title, rows, columns, part, currency }: { id: string; title: string; rows: readonly Row[]; columns: Column[]; part: 'income' | 'balance' | 'cashFlow'; currency: string }) {
  const shown = rows.filter(([field]) => columns.some((c) => typeof c[part]?.[field] === 'number'));
  if (shown.length === 0) return null;
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <div className="scroll" tabIndex={0} role="region" aria-label={`${title}, scrollable`}>
        <table data-statement={id}>
          <thead><tr><th scope="col">Line item ({currency})</th>{columns.map((c) => <PeriodHeader key={c.period} column={c} />)}</tr></thead>
          <tbody>
            {shown.map(([field, label]) => (
              <tr key={field}>
                <th scope="row">{label}</th>
                {columns.map((c) => {
                  const value = c[part]?.[field];
                  return <td key={c.period} className="num" data-field={field}>{typeof value !== 'number' ? '—' : PER_SHARE.has(field) ? value.toFixed(2) : formatMoney(value, currency)}</td>;
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** ▲/▼ from the previous column to the newest, so a trend reads at a glance (and in words for screen readers). */
function Trend({ values }: { values: Array<number | null> }) {
  const known = values.filter((v): v is number => v !== null);
  if (known.length < 2) return <span className="muted">—</span>;
  const [before, now] = known.slice(-2);
  if (now === before) return <span>flat</span>;
  return now > before ? <span className="up">▲ <span className="small">up</span></span> : <span className="down">▼ <span className="small">down</span></span>;
}

export async function CompanyPage({ ticker, view }: { ticker: string; view: View }) {
  if (!TICKER.test(ticker)) notFound();
  let data;
  try {
    data = await loadCompanyView(ticker, view);
  } catch (error) {
    if (isNotFound(error)) notFound();
    throw error;
  }
  const { company, columns, definitions, quality, peers } = data;
  const currency = company.currency;
  const money = (v: number) => formatMoney(v, currency);
  // Charts follow the range; the TTM column sums four quarters, so it would dwarf them in a chart: the table has it.
  const charted = columns.filter((c) => c.period !== 'TTM');
  const periods = charted.map((c) => c.period);
  const latest = columns[columns.length - 1] as Column | undefined;
  const flags = failedChecks(columns);
  const provenance = provenanceOf(columns);
  const base = `/companies/${encodeURIComponent(company.ticker)}`;
  const number = (s: Statement | null | undefined, field: string) => (typeof s?.[field] === 'number' ? (s[field] as number) : null);
  const categories = [...new Set(definitions.map((d) => d.category))];
  return (
    <>
      <p><a href="/companies">← All companies</a></p>
      <h1>{company.name} <span className="muted">({company.ticker})</span></h1>
      <p>{[company.sector, company.industry, company.exchange, company.country].filter(Boolean).join(' · ')}
        {company.employees ? ` · ${company.employees.toLocaleString('en-US')} employees` : ''}
        {company.website ? <> · <a href={company.website} rel="noopener noreferrer">{company.website.replace(/^https?:\/\//, '')}</a></> : null}</p>
      {company.description && <p>{company.description}</p>}

      <nav aria-label="Range">
        <ul className="tabs">
          {Object.entries(VIEWS).map(([key, label]) => (
            <li key={key}><a href={key === 'annual' ? base : `${base}/${key}`} aria-current={key === view ? 'page' : undefined}>{label}</a></li>
          ))}
        </ul>
      </nav>
      <p className="small">
        <a href={`/api/financials/${encodeURIComponent(company.ticker)}/csv?view=${view}`} download>Download these statements as CSV</a>
        {' · '}<a href={`${publicApiUrl()}/v1/companies/${company.id}/income-statement`}>The same data from the service’s API</a>
      </p>

      {latest && (
        <section aria-labelledby="key-figures">
          <h2 id="key-figures">Key figures, {latest.period}</h2>
          <div className="cards">
            <div className="card"><div className="muted">Revenue</div><div className="value" data-figure="revenue">{formatMoney(number(latest.income, 'revenue'), currency)}</div></div>
            <div className="card"><div className="muted">Net income</div><div className="value" data-figure="net-income">{formatMoney(number(latest.income, 'net_income'), currency)}</div></div>
            <div className="card"><div className="muted">Net margin</div><div className="value" data-figure="net-margin">{formatPercent(number(latest.ratios, 'net_margin'))}</div></div>
            <div className="card"><div className="muted">Free cash flow</div><div className="value" data-figure="free-cash-flow">{formatMoney(number(latest.cashFlow, 'free_cash_flow'), currency)}</div></div>
          </div>
        </section>
      )}

      <section aria-labelledby="charts">
        <h2 id="charts">{VIEWS[view]}: {periods[0]} to {periods[periods.length - 1]}</h2>
        <div className="charts">
          <Chart id="revenue-net-income" kind="bar" title="Revenue and net income" periods={periods} format={money}
            series={[{ label: 'Revenue', values: seriesOf(charted, 'income', 'revenue') }, { label: 'Net income', values: seriesOf(charted, 'income', 'net_income') }]} />
          <Chart id="margins" title="Margins" periods={periods} format={formatPercent}
            series={[{ label: 'Gross margin', values: seriesOf(charted, 'ratios', 'gross_margin') }, { label: 'Operating margin', values: seriesOf(charted, 'ratios', 'operating_margin') }, { label: 'Net margin', values: seriesOf(charted, 'ratios', 'net_margin') }]} />
          <Chart id="cash-flow" kind="bar" title="Cash flow" periods={periods} format={money}
            series={[{ label: 'Operating cash flow', values: seriesOf(charted, 'cashFlow', 'operating_cash_flow') }, { label: 'Free cash flow', values: seriesOf(charted, 'cashFlow', 'free_cash_flow') }]} />
        </div>
      </section>

      <StatementTable id="income-statement" title="Income statement" rows={INCOME_ROWS} columns={columns} part="income" currency={currency} />
      <StatementTable id="balance-sheet" title="Balance sheet" rows={BALANCE_ROWS} columns={columns} part="balance" currency={currency} />
      <StatementTable id="cash-flow-statement" title="Cash flow statement" rows={CASH_ROWS} columns={columns} part="cashFlow" currency={currency} />

      <section aria-labelledby="ratios">
        <h2 id="ratios">Ratios ({definitions.length})</h2>
        <div className="scroll" tabIndex={0} role="region" aria-label="Ratios, scrollable">
          <table data-ratios>
            <thead><tr><th scope="col">Ratio</th>{columns.map((c) => <PeriodHeader key={c.period} column={c} />)}<th scope="col">Trend</th><th scope="col">Formula</th></tr></thead>
            {categories.map((category) => (
              <tbody key={category}>
                <tr><th scope="colgroup" colSpan={columns.length + 3}>{category.replace('_', ' ').replace(/^./, (c) => c.toUpperCase())}</th></tr>
                {definitions.filter((d) => d.category === category).map((d) => {
                  const values = seriesOf(charted, 'ratios', snake(d.key));
                  return (
                    <tr key={d.key} data-ratio={d.key}>
                      <th scope="row">{d.label}</th>
                      {columns.map((c) => <td key={c.period} className="num">{formatRatio(d.key, d.category, number(c.ratios, snake(d.key)))}</td>)}
                      <td className="trend"><Trend values={values} /></td>
                      <td className="small muted formula"><code>{d.formula}</code></td>
                    </tr>
                  );
                })}
              </tbody>
            ))}
          </table>
        </div>
      </section>

      {peers.length > 0 && (
        <section aria-labelledby="peers">
          <h2 id="peers">Peers in {company.sector}</h2>
          <ul className="tabs" data-peers>
            {peers.map((p) => <li key={p.id}><a href={`/companies/${encodeURIComponent(p.ticker)}${view === 'annual' ? '' : `/${view}`}`}>{p.ticker} · {p.name}</a></li>)}
          </ul>
          <p className="small"><a href={`/compare?${[company.id, ...peers.slice(0, 4).map((p) => p.id)].map((id) => `company=${id}`).join('&')}`}>Compare {company.ticker} with these peers</a></p>
        </section>
      )}

      <section aria-labelledby="quality">
        <h2 id="quality">Data quality</h2>
        {flags.length === 0
          ? <p data-quality-flags="0">Every check passes for the periods shown.</p>
          : <ul data-quality-flags={flags.length}>{flags.map((f, i) => <li key={i} className="error">{f.period} {f.statement}: {f.check} failed{f.detail ? ` — ${f.detail}` : ''}</li>)}</ul>}
        <div className="scroll" tabIndex={0} role="region" aria-label="Data-quality checks, scrollable">
          <table>
            <thead><tr><th scope="col">Check (all stored statements)</th><th scope="col" className="num">Passed</th><th scope="col" className="hide-narrow">What it checks</th></tr></thead>
            <tbody>{quality.map((q) => <tr key={q.check}><th scope="row">{q.check}</th><td className="num">{q.passed} of {q.checked}</td><td className="hide-narrow small muted">{q.description}</td></tr>)}</tbody>
          </table>
        </div>
      </section>

      <section aria-labelledby="provenance">
        <h2 id="provenance">Provenance</h2>
        {provenance.length === 0 ? <p>The figures of {latest?.period ?? 'this range'} were not imported from SEC filings (demo or directly loaded data), so they carry no filing references.</p> : (
          <div className="scroll" tabIndex={0} role="region" aria-label="Provenance, scrollable">
            <table>
              <thead><tr><th scope="col">Value ({provenance[0].period})</th><th scope="col">Concept</th><th scope="col">Filing</th><th scope="col">Note</th></tr></thead>
              <tbody>{provenance.map((p) => (
                <tr key={`${p.statement}-${p.field}`}><th scope="row">{p.statement}: {p.field}</th><td><code>{p.concept ?? '—'}</code></td><td>{p.form} {p.accession} {p.filed ? `(filed ${p.filed})` : ''}</td><td>{[p.derived && 'derived', p.restated && 'restated'].filter(Boolean).join(', ') || '—'}</td></tr>
              ))}</tbody>
            </table>
          </div>
        )}
      </section>
      <p className="muted small">Figures in {currency}. This page is regenerated at most hourly.</p>
    </>
  );
}
