import { lineChart } from './charts';
import { escape, formatMoney, formatPercent, html, Safe } from './html';
import type { CompanyRow, QuarterFigures } from './service';

const STYLES = `
:root { --ink: #14213d; --muted: #4a5568; --line: #d8dee9; --accent: #0b5cad; --bg: #ffffff; --soft: #f4f6fa; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
a { color: var(--accent); }
a:focus, button:focus, select:focus, input:focus, summary:focus { outline: 3px solid #f5a623; outline-offset: 2px; }
header.site { background: var(--ink); color: #fff; padding: .75rem 1rem; display: flex; gap: 1.5rem; align-items: center; flex-wrap: wrap; }
header.site a { color: #fff; text-decoration: none; font-weight: 600; }
header.site nav { display: flex; gap: 1rem; flex-wrap: wrap; }
main { max-width: 1100px; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.6rem; margin: .5rem 0 1rem; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; }
th, td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.muted { color: var(--muted); }
form.filters { display: flex; gap: .75rem; align-items: end; flex-wrap: wrap; margin-bottom: 1rem; }
label { display: flex; flex-direction: column; font-weight: 600; font-size: .9rem; gap: .25rem; }
select, input, button { font: inherit; padding: .4rem .6rem; border: 1px solid #8a94a6; border-radius: 4px; background: #fff; color: var(--ink); }
button { background: var(--accent); color: #fff; border-color: var(--accent); cursor: pointer; }
.pager { display: flex; gap: 1rem; align-items: center; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(180px, 1fr)); gap: .75rem; margin: 1rem 0; }
.card { background: var(--soft); border-radius: 6px; padding: .75rem; }
.card .value { font-size: 1.35rem; font-weight: 700; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 460px), 1fr)); gap: 1.5rem; }
.chart { width: 100%; height: auto; background: #fff; }
figure.chart-figure { margin: 0; }
.chart .grid { stroke: var(--line); }
.chart .axis { font-size: 13px; fill: var(--muted); }
.key { margin-left: .75rem; font-size: .85rem; white-space: nowrap; }
.swatch { display: inline-block; width: .8rem; height: .8rem; border-radius: 2px; margin-right: .25rem; vertical-align: middle; }
abbr { text-decoration: underline dotted; cursor: help; }
mark { background: #ffe58a; color: inherit; padding: 0 .1em; }
.error { color: #a4161a; font-weight: 600; }
fieldset { border: 1px solid var(--line); border-radius: 4px; }
.choices { display: flex; flex-wrap: wrap; gap: .25rem .75rem; max-height: 9rem; overflow: auto; }
.choice { flex-direction: row; font-weight: 400; align-items: center; gap: .3rem; }
ol.results li { margin-bottom: .75rem; }
@media (max-width: 600px) { th, td { padding: .3rem; font-size: .9rem; } .hide-narrow { display: none; } }
`;

export function page(title: string, body: Safe): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)} · Financial insights</title>
<style>${STYLES}</style>
</head>
<body>
<a href="#main" class="muted" style="position:absolute;left:-999px" onfocus="this.style.left='0'">Skip to content</a>
<header class="site"><a href="/companies">Financial insights</a><nav aria-label="Main"><a href="/companies">Companies</a><a href="/search">Search</a><a href="/compare">Compare</a><a href="/chat">Chat</a><a href="/dashboard">Dashboard</a><a href="/signin">Sign in</a></nav></header>
<main id="main">${body.markup}</main>
</body>
</html>`;
}

export function companiesPage(rows: CompanyRow[], total: number, sectors: string[], sector: string | null, pageNumber: number, pageSize: number): string {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const link = (n: number) => `/companies?${new URLSearchParams({ ...(sector ? { sector } : {}), page: String(n) })}`;
  const body = html`
<h1>Companies</h1>
<form class="filters" method="get" action="/companies">
  <label for="sector">Sector
    <select id="sector" name="sector">
      <option value="">All sectors</option>
      ${sectors.map((s) => html`<option value="${s}"${new Safe(s === sector ? ' selected' : '')}>${s}</option>`)}
    </select>
  </label>
  <button type="submit">Filter</button>
</form>
<form class="filters" method="get" action="/search" role="search">
  <label for="q">Search company documents <input id="q" name="q" type="search" size="32" placeholder="e.g. export controls"></label>
  <button type="submit">Search</button>
</form>
<p class="muted" role="status">${total} ${total === 1 ? 'company' : 'companies'}${sector ? html` in ${sector}` : ''}; page ${pageNumber} of ${pages}.</p>
<table>
  <caption class="muted" style="text-align:left">Tracked companies, by name</caption>
  <thead><tr><th scope="col">Ticker</th><th scope="col">Name</th><th scope="col" class="hide-narrow">Sector</th></tr></thead>
  <tbody>${rows.map((c) => html`<tr><td><a href="/companies/${encodeURIComponent(c.ticker)}">${c.ticker}</a></td><td>${c.name}</td><td class="hide-narrow">${c.sector}</td></tr>`)}</tbody>
</table>
<nav class="pager" aria-label="Pages">
  ${pageNumber > 1 ? html`<a href="${link(pageNumber - 1)}" rel="prev">← Previous</a>` : ''}
  ${pageNumber < pages ? html`<a href="${link(pageNumber + 1)}" rel="next">Next →</a>` : ''}
</nav>`;
  return page('Companies', body);
}

const INCOME_ROWS: Array<[string, string]> = [
  ['revenue', 'Revenue'], ['costOfRevenue', 'Cost of revenue'], ['grossProfit', 'Gross profit'], ['researchAndDevelopment', 'Research and development'],
  ['sellingGeneralAndAdministrative', 'Selling, general and administrative'], ['operatingIncome', 'Operating income'], ['interestExpense', 'Interest expense'],
  ['incomeBeforeTax', 'Income before tax'], ['incomeTaxExpense', 'Income tax'], ['netIncome', 'Net income'], ['ebitda', 'EBITDA'],
];
const BALANCE_ROWS: Array<[string, string]> = [
  ['cashAndEquivalents', 'Cash and equivalents'], ['shortTermInvestments', 'Short-term investments'], ['receivables', 'Receivables'], ['inventory', 'Inventory'],
  ['totalCurrentAssets', 'Total current assets'], ['ppeNet', 'Property, plant and equipment'], ['totalAssets', 'Total assets'], ['accountsPayable', 'Accounts payable'],
  ['shortTermDebt', 'Short-term debt'], ['totalCurrentLiabilities', 'Total current liabilities'], ['longTermDebt', 'Long-term debt'], ['totalLiabilities', 'Total liabilities'],
  ['totalEquity', 'Shareholders\u2019 equity'],
];
const CASH_ROWS: Array<[string, string]> = [
  ['netIncome', 'Net income'], ['depreciationAndAmortization', 'Depreciation and amortization'], ['stockBasedCompensation', 'Stock-based compensation'],
  ['operatingCashFlow', 'Operating cash flow'], ['capitalExpenditure', 'Capital expenditure'], ['investingCashFlow', 'Investing cash flow'],
  ['dividendsPaid', 'Dividends paid'], ['shareRepurchases', 'Share repurchases'], ['financingCashFlow', 'Financing cash flow'], ['freeCashFlow', 'Free cash flow'],
];
const RATIO_ROWS = ['grossMargin', 'operatingMargin', 'netMargin', 'returnOnEquity', 'returnOnAssets', 'freeCashFlowMargin', 'revenueGrowth', 'currentRatio', 'debtToEquity', 'interestCoverage'];
const MULTIPLES = new Set(['currentRatio', 'debtToEquity', 'interestCoverage']);

export interface CompanyView {
  profile: Record<string, unknown> & { ticker: string; name: string; currency: string };
  financials: {
    periods: Array<{ period: string; type: string }>;
    incomeStatement: Record<string, number | string | null> | null;
    balanceSheet: Record<string, number | string | null> | null;
    cashFlow: Record<string, number | string | null> | null;
    ratios: Record<string, number | string | null> | null;
    history: QuarterFigures[];
  };
  /** The service as a browser reaches it, for the link to its API. */
  publicApiUrl: string;
  definitions: Array<{ key: string; label: string; formula: string }>;
}

/** One statement as a two-column table (line item, amount); absent values show as a dash. */
function statementTable(id: string, title: string, period: string, rows: Array<[string, string]>, values: Record<string, number | string | null>, money: (v: number) => string): Safe {
  return html`<section aria-labelledby="${id}"><h2 id="${id}">${title}, ${period}</h2>
<table><thead><tr><th scope="col">Line item</th><th scope="col" class="num">${period}</th></tr></thead>
<tbody>${rows.map(([key, label]) => html`<tr><th scope="row">${label}</th><td class="num" data-field="${key}">${typeof values[key] === 'number' ? money(values[key] as number) : '—'}</td></tr>`)}</tbody></table></section>`;
}

export function companyPage({ profile, financials, definitions, publicApiUrl }: CompanyView): string {
  const money = (v: number) => formatMoney(v, profile.currency);
  const income = financials.incomeStatement;
  const period = (income?.period as string | undefined) ?? null;
  const history = financials.history;
  const periods = history.map((h) => h.period);
  const definition = new Map(definitions.map((d) => [d.key, d]));
  const figure = (label: string, value: string, id: string) => html`<div class="card"><div class="muted">${label}</div><div class="value" data-figure="${id}">${value}</div></div>`;
  const ratioValue = (key: string) => {
    const value = financials.ratios?.[key];
    if (typeof value !== 'number') return '—';
    return MULTIPLES.has(key) ? `${value.toFixed(2)}x` : formatPercent(value);
  };
  const body = html`
<p><a href="/companies">← All companies</a></p>
<h1>${profile.name} <span class="muted">(${profile.ticker})</span></h1>
<p>${[profile.sector, profile.industry, profile.exchange, profile.country].filter(Boolean).join(' · ')}${profile.employees ? html` · ${Number(profile.employees).toLocaleString('en-US')} employees` : ''}</p>
${profile.description ? html`<p>${profile.description}</p>` : ''}
<form class="filters" method="get">
  <label for="period">Period
    <select id="period" name="period">
      ${financials.periods.map((p) => html`<option value="${p.period}"${new Safe(p.period === period ? ' selected' : '')}>${p.period}</option>`)}
    </select>
  </label>
  <button type="submit">Show</button>
</form>
${income ? html`
<section aria-labelledby="key-figures"><h2 id="key-figures">Key figures, ${period}</h2>
<div class="cards">
  ${figure('Revenue', money(income.revenue as number), 'revenue')}
  ${figure('Net income', typeof income.netIncome === 'number' ? money(income.netIncome) : '—', 'net-income')}
  ${figure('Net margin', ratioValue('netMargin'), 'net-margin')}
  ${figure('Diluted EPS', typeof income.epsDiluted === 'number' ? income.epsDiluted.toFixed(2) : '—', 'eps')}
</div></section>` : html`<p>No income statement for this period.</p>`}
<section aria-labelledby="history"><h2 id="history">Last ${periods.length} quarters</h2>
<div class="charts">
  ${lineChart('Revenue and net income', periods, [
    { label: 'Revenue', color: '#0b5cad', values: history.map((h) => h.revenue) },
    { label: 'Net income', color: '#1b7f3b', values: history.map((h) => h.netIncome) },
  ], money)}
  ${lineChart('Margins', periods, [
    { label: 'Gross margin', color: '#0b5cad', values: history.map((h) => h.grossMargin) },
    { label: 'Operating margin', color: '#b35900', values: history.map((h) => h.operatingMargin) },
    { label: 'Net margin', color: '#1b7f3b', values: history.map((h) => h.netMargin) },
  ], formatPercent)}
  ${lineChart('Cash flow', periods, [
    { label: 'Operating cash flow', color: '#0b5cad', values: history.map((h) => h.operatingCashFlow) },
    { label: 'Free cash flow', color: '#6b3fa0', values: history.map((h) => h.freeCashFlow) },
  ], money)}
</div></section>
${income ? html`
${statementTable('statement', 'Income statement', period as string, INCOME_ROWS, income, money)}
${financials.balanceSheet ? statementTable('balance', 'Balance sheet', period as string, BALANCE_ROWS, financials.balanceSheet, money) : ''}
${financials.cashFlow ? statementTable('cash-flow', 'Cash flow statement', period as string, CASH_ROWS, financials.cashFlow, money) : ''}
<section aria-labelledby="ratios"><h2 id="ratios">Ratios, ${period}</h2>
<table><thead><tr><th scope="col">Ratio</th><th scope="col" class="num">Value</th><th scope="col" class="hide-narrow">Formula</th></tr></thead>
<tbody>${RATIO_ROWS.map((key) => {
  const d = definition.get(key);
  return html`<tr><th scope="row"><abbr title="${d?.formula ?? ''}">${d?.label ?? key}</abbr></th><td class="num">${ratioValue(key)}</td><td class="hide-narrow muted">${d?.formula ?? ''}</td></tr>`;
})}</tbody></table>
</section>` : ''}
<p class="muted">Figures are in ${profile.currency}. This page is regenerated at most hourly. The same data as JSON: <a href="${publicApiUrl}/v1/openapi.json">the service's API</a>.</p>`;
  return page(`${profile.name} (${profile.ticker})`, body);
}

export function errorPage(status: number, message: string): string {
  return page(status === 404 ? 'Not found' : 'Error', html`<h1>${status === 404 ? 'Not found' : 'Something went wrong'}</h1><p>${message}</p><p><a href="/companies">Back to the companies</a></p>`);
}
