import { escape, html, Safe } from './html';

export interface Series {
  label: string;
  color: string;
  values: Array<number | null>;
}

/**
 * A line chart drawn on the server as SVG (works without JavaScript), with a title and a description for screen
 * readers, and the same figures in a table right below (`tableFallback`), so nothing is only visible in the picture.
 */
export function lineChart(title: string, periods: string[], series: Series[], format: (v: number) => string): Safe {
  const width = 640;
  const height = 240;
  const pad = { left: 72, right: 16, top: 16, bottom: 36 };
  const all = series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  if (all.length === 0 || periods.length === 0) return html`<p class="muted">No data for ${title}.</p>`;
  const min = Math.min(0, ...all);
  const max = Math.max(...all) || 1;
  const x = (i: number) => pad.left + (periods.length === 1 ? 0 : (i * (width - pad.left - pad.right)) / (periods.length - 1));
  const y = (v: number) => pad.top + ((max - v) * (height - pad.top - pad.bottom)) / (max - min || 1);
  const ticks = [min, (min + max) / 2, max];
  const lines = series.map((s) => {
    const points = s.values.map((v, i) => (v === null ? null : `${x(i).toFixed(1)},${y(v).toFixed(1)}`)).filter(Boolean).join(' ');
    return `<polyline fill="none" stroke="${escape(s.color)}" stroke-width="2.5" points="${points}"/>` +
      s.values.map((v, i) => (v === null ? '' : `<circle cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3" fill="${escape(s.color)}"><title>${escape(`${s.label} ${periods[i]}: ${format(v)}`)}</title></circle>`)).join('');
  });
  const id = title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const svg = `<svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="${id}-t ${id}-d" data-chart="${escape(id)}">
<title id="${id}-t">${escape(title)}</title><desc id="${id}-d">${escape(series.map((s) => `${s.label}: ${s.values.map((v, i) => `${periods[i]} ${v === null ? 'n/a' : format(v)}`).join(', ')}`).join('. '))}</desc>
${ticks.map((t) => `<line x1="${pad.left}" x2="${width - pad.right}" y1="${y(t).toFixed(1)}" y2="${y(t).toFixed(1)}" class="grid"/><text x="${pad.left - 6}" y="${(y(t) + 4).toFixed(1)}" text-anchor="end" class="axis">${escape(format(t))}</text>`).join('')}
${periods.map((p, i) => `<text x="${x(i).toFixed(1)}" y="${height - 12}" text-anchor="middle" class="axis">${escape(p)}</text>`).join('')}
${lines.join('')}
</svg>`;
  const legend = series.map((s) => `<span class="key"><span class="swatch" style="background:${escape(s.color)}"></span>${escape(s.label)}</span>`).join(' ');
  return new Safe(`<figure class="chart-figure"><figcaption><strong>${escape(title)}</strong> ${legend}</figcaption>${svg}${tableFallback(periods, series, format).markup}</figure>`);
}

/** The chart's figures as a table (collapsed under a summary; screen readers and text browsers get them whole). */
export function tableFallback(periods: string[], series: Series[], format: (v: number) => string): Safe {
  return html`<details><summary>Figures as a table</summary><table><thead><tr><th scope="col">Period</th>${series.map((s) => html`<th scope="col">${s.label}</th>`)}</tr></thead><tbody>${periods.map(
    (p, i) => html`<tr><th scope="row">${p}</th>${series.map((s) => html`<td>${s.values[i] === null ? '—' : format(s.values[i] as number)}</td>`)}</tr>`,
  )}</tbody></table></details>`;
}
