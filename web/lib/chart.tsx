/**
 * Charts drawn by ECharts on the server as SVG (server-side rendering: no browser script), each followed by the
 * same figures as a table, so nothing is visible only in the picture and the page reads without JavaScript.
 */
import * as echarts from 'echarts';

export interface Series {
  label: string;
  values: Array<number | null>;
}

const COLORS = ['#0b5cad', '#1b7f3b', '#b35900', '#6b3fa0', '#a4161a'];

/**
 * Two drawings of each chart, one for wide and one for narrow screens (CSS shows one): an SVG scales with its box,
 * so each is drawn near the width it is shown at and its text stays at least 11 px (the test measures it).
 */
const SIZES = { wide: { width: 640, height: 300, font: 15 }, narrow: { width: 360, height: 260, font: 12 } } as const;
export type ChartSize = keyof typeof SIZES;

/** The chart as an SVG string; `kind` bar suits amounts, line suits ratios. */
export function renderChartSvg(
  title: string,
  periods: string[],
  series: Series[],
  format: (v: number) => string,
  kind: 'bar' | 'line',
  size: ChartSize = 'wide',
): string {
  const { width, height, font } = SIZES[size];
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  try {
    chart.setOption({
      animation: false,
      color: COLORS,
      aria: { enabled: true, label: { description: `${title}. ${describe(periods, series, format)}` } },
      grid: { left: 16, right: 16, top: size === 'wide' ? 44 : 64, bottom: 8, containLabel: true },
      legend: { top: 4, textStyle: { color: '#14213d', fontSize: font } },
      xAxis: { type: 'category', data: periods, axisLabel: { color: '#4a5568', fontSize: font, hideOverlap: true } },
      yAxis: { type: 'value', axisLabel: { color: '#4a5568', fontSize: font, formatter: (v: number) => format(v) } },
      series: series.map((s) => ({ name: s.label, type: kind, data: s.values, symbolSize: 6, connectNulls: false })),
    });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

/** The figures in words, for screen readers (the SVG's label). */
function describe(periods: string[], series: Series[], format: (v: number) => string): string {
  return series
    .map(
      (s) =>
        `${s.label}: ${s.values.map((v, i) => `${periods[i]} ${v === null ? 'not reported' : format(v)}`).join(', ')}`,
    )
    .join('. ');
}

/** A chart with its caption and, right below, its figures as a table. */
export function Chart({
  id,
  title,
  periods,
  series,
  format,
  kind = 'line',
}: {
  id: string;
  title: string;
  periods: string[];
  series: Series[];
  format: (v: number) => string;
  kind?: 'bar' | 'line';
}) {
  const hasData = series.some((s) => s.values.some((v) => v !== null));
  if (!hasData || periods.length === 0)
    return <p className="muted">No figures for {title.toLowerCase()} in this range.</p>;
  return (
    <figure className="chart-figure" data-chart={id}>
      <figcaption>
        <strong>{title}</strong>
      </figcaption>
      <div
        className="chart chart-wide"
        dangerouslySetInnerHTML={{ __html: renderChartSvg(title, periods, series, format, kind, 'wide') }}
      />
      <div
        className="chart chart-narrow"
        dangerouslySetInnerHTML={{ __html: renderChartSvg(title, periods, series, format, kind, 'narrow') }}
      />
      <details>
        <summary>{title}: figures as a table</summary>
        <div className="scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Period</th>
                {series.map((s) => (
                  <th scope="col" className="num" key={s.label}>
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {periods.map((p, i) => (
                <tr key={p}>
                  <th scope="row">{p}</th>
                  {series.map((s) => (
                    <td className="num" key={s.label}>
                      {s.values[i] === null ? '—' : format(s.values[i] as number)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
