import type { Metadata } from 'next';
import { requireAnalyst } from '../../lib/analyst';
import { Chart } from '../../lib/chart';
import { Citations } from '../../lib/citations';
import { COMPARE_METRICS, DEFAULT_COMPARE_METRICS, metricLabel } from '../../lib/compare-metrics';
import { formatUnit } from '../../lib/format';
import { failureText } from '../../lib/failure-text';
import { ServiceProblem } from '../components/service-problem';
import { allCompanies, asFailure, type Company, compare, type Comparison } from '../../lib/service';

export const metadata: Metadata = { title: 'Compare' };

const list = (value: string | string[] | undefined) => (Array.isArray(value) ? value : value ? [value] : []);

export default async function ComparePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const session = await requireAnalyst();
  const params = await searchParams;
  const chosen = [...new Set(list(params.company).map(Number).filter((n) => Number.isInteger(n) && n > 0))];
  const asked = list(params.metric).filter((m): m is (typeof COMPARE_METRICS)[number] => (COMPARE_METRICS as readonly string[]).includes(m));
  const metrics = asked.length ? asked : DEFAULT_COMPARE_METRICS;
  const period = (Array.isArray(params.period) ? params.period[0] : params.period)?.trim() || 'latest-fy';
  let companies: Company[];
  try {
    companies = await allCompanies();
  } catch (error) {
    return <><h1>Compare companies</h1><ServiceProblem failure={asFailure(error)} /></>;
  }
  let result: Comparison | null = null;
  let problem: string | null = null;
  if (chosen.length === 1) problem = 'Choose at least two companies.';
  else if (chosen.length > 5) problem = `Choose at most five companies (${chosen.length} chosen).`;
  else if (chosen.length > 1) {
    try {
      result = await compare(session.token, { companyIds: chosen, period, metrics });
    } catch (error) {
      problem = failureText(asFailure(error));
    }
  }
  const charted = result?.table.find((row) => row.metric === (typeof params.chart === 'string' ? params.chart : '')) ?? result?.table[0];
  return (
    <>
      <h1>Compare companies</h1>
      <form method="get" action="/compare" className="filters">
        <fieldset><legend>Companies (2 to 5)</legend>
          <div className="choices">{companies.map((c) => (
            <label className="choice" key={c.id}><input type="checkbox" name="company" value={c.id} defaultChecked={chosen.includes(c.id)} /> {c.ticker}</label>
          ))}</div>
        </fieldset>
        <fieldset><legend>Measures</legend>
          <div className="choices">{COMPARE_METRICS.map((m) => (
            <label className="choice" key={m}><input type="checkbox" name="metric" value={m} defaultChecked={metrics.includes(m)} /> {metricLabel(m)}</label>
          ))}</div>
        </fieldset>
        <label htmlFor="period">Period<input id="period" name="period" defaultValue={period} size={10} placeholder="latest-fy" /></label>
        <button type="submit">Compare</button>
      </form>
      {problem && <p role="alert" className="error">{problem}</p>}
      {result && (
        <>
          {charted && (
            <Chart id="comparison" kind="bar" title={`${metricLabel(charted.metric)}, ${charted.values[0]?.period ?? period}`}
              periods={charted.values.map((v) => v.ticker)} format={(v) => formatUnit(charted.unit, v, charted.values[0]?.currency)}
              series={[{ label: metricLabel(charted.metric), values: charted.values.map((v) => v.value) }]} />
          )}
          <form method="get" action="/compare" className="filters">
            {chosen.map((id) => <input key={id} type="hidden" name="company" value={id} />)}
            {metrics.map((m) => <input key={m} type="hidden" name="metric" value={m} />)}
            <input type="hidden" name="period" value={period} />
            <label htmlFor="chart">Chart of<select id="chart" name="chart" defaultValue={charted?.metric}>{result.table.map((row) => <option key={row.metric} value={row.metric}>{metricLabel(row.metric)}</option>)}</select></label>
            <button type="submit">Show chart</button>
          </form>
          <div className="scroll" tabIndex={0} role="region" aria-label="Comparison table, scrollable">
            <table data-comparison-table>
              <thead><tr><th scope="col">Measure</th>{result.table[0]?.values.map((v) => <th scope="col" className="num" key={v.ticker}>{v.ticker} <span className="muted small">{v.period}</span></th>)}</tr></thead>
              <tbody>{result.table.map((row) => (
                <tr key={row.metric}><th scope="row">{metricLabel(row.label || row.metric)}</th>{row.values.map((v) => <td className="num" key={v.ticker}>{formatUnit(row.unit, v.value, v.currency)}</td>)}</tr>
              ))}</tbody>
            </table>
          </div>
          <section aria-labelledby="analysis">
            <h2 id="analysis">Analysis</h2>
            <p data-comparison>{result.comparison}</p>
            <p className="muted small">Written by {result.model}; {result.grounding.numbers_checked} figures checked against the statements, {result.grounding.numbers_unsupported} unsupported.</p>
            <h3>Citations</h3>
            <Citations citations={result.citations} />
          </section>
        </>
      )}
    </>
  );
}
