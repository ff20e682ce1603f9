import type { Metadata } from 'next';
import { requireAnalyst } from '../../lib/analyst';
import { AccessNeeded } from '../components/access-needed';
import { Chart } from '../../lib/chart';
import { Checks } from '../../lib/checks';
import { Citations } from '../../lib/citations';
import { pickCompany, pickText } from '../../lib/company-pick';
import { COMPARE_METRICS, DEFAULT_COMPARE_METRICS, metricLabel, type CompareMetric } from '../../lib/compare-metrics';
import { formatUnit } from '../../lib/format';
import { failureText } from '../../lib/failure-text';
import { refusedOrThrow } from '../../lib/refusal';
import { ServiceRefusal } from '../components/service-refusal';
import { allCompanies, asFailure, type Company, compare, type Comparison } from '../../lib/service';

export const metadata: Metadata = { title: 'Compare' };

const list = (value: string | string[] | undefined) => (Array.isArray(value) ? value : value ? [value] : []);
const SLOTS = 5;

type Row = Comparison['table'][number];

/**
 * One chart per reporting currency (amounts in different currencies never share an axis, and nothing is
 * converted); a bar is named with its period when the companies' periods differ.
 */
function ComparisonCharts({ row }: { row: Row }) {
  const currencies = [...new Set(row.values.map((v) => v.currency ?? ''))];
  const periods = new Set(row.values.map((v) => v.period));
  const samePeriod = periods.size === 1 ? [...periods][0] : null;
  const inMoney = !['fraction', 'percent', 'multiple', 'ratio', 'days'].includes(row.unit);
  const groups = inMoney
    ? currencies.map((currency) => row.values.filter((v) => (v.currency ?? '') === currency))
    : [row.values];
  return (
    <>
      {inMoney && currencies.length > 1 && (
        <p className="small muted" data-currency-note>
          Reported in {currencies.length} currencies ({currencies.join(', ')}): one chart per currency, nothing
          converted.
        </p>
      )}
      {groups.map((values) => {
        const currency = inMoney ? (values[0]?.currency ?? '') : '';
        const title = `${metricLabel(row.metric)}${currency ? ` (${currency})` : ''}, ${samePeriod ?? 'each company’s period'}`;
        return (
          <Chart
            key={currency || 'all'}
            id={`comparison${currency ? `-${currency}` : ''}`}
            kind="bar"
            title={title}
            periods={values.map((v) => (samePeriod ? v.ticker : `${v.ticker} ${v.period}`))}
            format={(n) => formatUnit(row.unit, n, values[0]?.currency ?? undefined)}
            series={[{ label: metricLabel(row.metric), values: values.map((v) => v.value) }]}
          />
        );
      })}
    </>
  );
}

export default async function ComparePage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const session = await requireAnalyst();
  if (!session) return <AccessNeeded />;
  const params = await searchParams;
  let companies: Company[];
  try {
    companies = await allCompanies();
  } catch (error) {
    return <ServiceRefusal refusal={refusedOrThrow(error)} />;
  }
  // Chosen by what was typed in the search boxes, or by id (the company pages' "compare with peers" link).
  const typed = list(params.pick)
    .map((t) => t.trim())
    .filter(Boolean);
  const picks = typed.map((text) => pickCompany(text, companies));
  const problems = picks.flatMap((p) => ('problem' in p ? [p.problem] : []));
  const byId = list(params.company)
    .map(Number)
    .flatMap((id) => companies.filter((c) => c.id === id));
  const chosen = [
    ...new Map([...byId, ...picks.flatMap((p) => ('company' in p ? [p.company] : []))].map((c) => [c.id, c])).values(),
  ];
  const asked = list(params.metric).filter((m): m is CompareMetric =>
    (COMPARE_METRICS as readonly string[]).includes(m),
  );
  const metrics = asked.length ? asked : DEFAULT_COMPARE_METRICS;
  const period = (Array.isArray(params.period) ? params.period[0] : params.period)?.trim() || 'latest-fy';
  let result: Comparison | null = null;
  if (problems.length === 0 && chosen.length === 1) problems.push('Choose at least two companies.');
  else if (chosen.length > SLOTS) problems.push(`Choose at most five companies (${chosen.length} chosen).`);
  else if (problems.length === 0 && chosen.length > 1) {
    try {
      result = await compare(session.token, { companyIds: chosen.map((c) => c.id), period, metrics });
    } catch (error) {
      problems.push(failureText(asFailure(error)));
    }
  }
  const charted =
    result?.table.find((row) => row.metric === (typeof params.chart === 'string' ? params.chart : '')) ??
    result?.table[0];
  // The boxes show the companies chosen, then what was typed and matched none (to be corrected).
  const unmatched = typed.filter((_, i) => 'problem' in picks[i]);
  const slots = [...chosen.map(pickText), ...unmatched, ...Array<string>(SLOTS).fill('')].slice(0, SLOTS);
  return (
    <>
      <h1>Compare companies</h1>
      <form method="get" action="/compare" className="filters" data-compare-form>
        <fieldset>
          <legend>Companies (2 to 5): type a ticker or a name</legend>
          <div className="picks">
            {slots.map((value, i) => (
              <label key={i} htmlFor={`pick-${i}`}>
                Company {i + 1}
                <input
                  id={`pick-${i}`}
                  name="pick"
                  type="search"
                  list="company-names"
                  defaultValue={value}
                  autoComplete="off"
                  placeholder={i === 0 ? 'e.g. NWSC or Northwind' : ''}
                />
              </label>
            ))}
          </div>
          <datalist id="company-names">
            {companies.map((c) => (
              <option key={c.id} value={pickText(c)} />
            ))}
          </datalist>
        </fieldset>
        <fieldset>
          <legend>Measures</legend>
          <div className="choices">
            {COMPARE_METRICS.map((m) => (
              <label className="choice" key={m}>
                <input type="checkbox" name="metric" value={m} defaultChecked={metrics.includes(m)} /> {metricLabel(m)}
              </label>
            ))}
          </div>
        </fieldset>
        <label htmlFor="period">
          Period
          <input id="period" name="period" defaultValue={period} size={10} placeholder="latest-fy" />
        </label>
        <button type="submit">Compare</button>
      </form>
      {problems.length > 0 && (
        <div role="alert" className="error">
          {problems.map((p) => (
            <p key={p}>{p}</p>
          ))}
        </div>
      )}
      {result && (
        <>
          {charted && <ComparisonCharts row={charted} />}
          <form method="get" action="/compare" className="filters">
            {chosen.map((c) => (
              <input key={c.id} type="hidden" name="company" value={c.id} />
            ))}
            {metrics.map((m) => (
              <input key={m} type="hidden" name="metric" value={m} />
            ))}
            <input type="hidden" name="period" value={period} />
            <label htmlFor="chart">
              Chart of
              <select id="chart" name="chart" defaultValue={charted?.metric}>
                {result.table.map((row) => (
                  <option key={row.metric} value={row.metric}>
                    {metricLabel(row.metric)}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit">Show chart</button>
          </form>
          <div className="scroll" tabIndex={0} role="region" aria-label="Comparison table, scrollable">
            <table data-comparison-table>
              <thead>
                <tr>
                  <th scope="col">Measure</th>
                  {result.table[0]?.values.map((v) => (
                    <th scope="col" className="num" key={v.ticker}>
                      {v.ticker} <span className="muted small">{v.period}</span>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {result.table.map((row) => (
                  <tr key={row.metric}>
                    <th scope="row">{metricLabel(row.metric)}</th>
                    {row.values.map((v) => (
                      <td className="num" key={v.ticker}>
                        {formatUnit(row.unit, v.value, v.currency ?? undefined)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <section aria-labelledby="analysis">
            <h2 id="analysis">Analysis</h2>
            <p data-comparison>{result.comparison}</p>
            <Checks grounding={result.grounding} claims={result.claims} model={result.model} />
            <h3>Citations</h3>
            <Citations citations={result.citations} />
          </section>
        </>
      )}
    </>
  );
}
