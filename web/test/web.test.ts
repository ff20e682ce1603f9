import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { expect } from 'chai';
import { chromium, type Browser, type Page } from 'playwright-core';
import axe from 'axe-core';
import type { App } from '../../src/app';
import { generateKey } from '../../src/shared/key-format';
import { startTestApp, testConfig, TARGET } from '../../test/helpers/test-app';
import { createTestKeys, type TestKeys } from '../../test/helpers/keys';
import type { Data, Page as ListPage, Refusal } from '../../test/helpers/http';
import { startWebProcess, type WebProcess } from './web-process';
import type { Company, IncomeStatement, Period, RatioDefinition, ScreenRow } from '../../sdk/typescript/src';

/** What the checks below call in the page, where it runs (the tests compile without the DOM library). */
interface InPage {
  getComputedStyle(element: unknown): { overflowX: string; fontSize: string };
}

/**
 * The Next.js front end (built, served by web/server.js as `npm start` serves it) against the real service, and in
 * Debian's Chromium through playwright-core (never a browser download). Every page is checked with axe (WCAG 2 A
 * and AA) and for sideways scrolling at 390 px; screenshots at 1280 and 390 px go to test-output/web/.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const SHOTS = path.join(__dirname, '..', '..', '..', 'test-output', 'web');
/** The AI budget of the service under test: two comparisons and two chat turns fit, the third turn is refused. */
const AI_BUDGET = 4;

describe('web front end (Next.js on the service)', function () {
  this.timeout(240_000);
  let service: App;
  let keys: TestKeys;
  let web: WebProcess;
  let browser: Browser | null = null;
  /** The front end as the browser opens it: localhost, where browsers keep Secure cookies over plain HTTP. */
  let site: string;

  before(async function () {
    if (TARGET !== 'embedded') this.skip(); // one run is enough: the front end does not care which database serves the API
    const defaults = testConfig().rateLimits;
    const webKey = generateKey();
    service = await startTestApp({
      webApiKey: webKey,
      rateLimits: { ...defaults, ai: { limit: AI_BUDGET, windowSeconds: 600 } },
    });
    keys = await createTestKeys(service);
    web = await startWebProcess({
      API_URL: service.url,
      WEB_API_KEY: webKey,
      NEXT_PUBLIC_API_URL: 'http://api.example.test:8181',
    });
    site = web.url.replace('127.0.0.1', 'localhost');
    fs.mkdirSync(SHOTS, { recursive: true });
    if (fs.existsSync(CHROMIUM)) browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });

  after(async () => {
    await browser?.close();
    await web?.stop();
    await service?.close();
  });

  /** A route of the front end, its answer read as the `T` a test expects. */
  const json = async <T = unknown>(pathName: string) => {
    const response = await fetch(`${web.url}${pathName}`);
    return { status: response.status, body: (await response.json()) as T };
  };
  /** The data of a route of the service, read as the `T` a test expects. */
  const apiData = async <T>(pathName: string) =>
    ((await (await fetch(`${service.url}${pathName}`)).json()) as Data<T>).data;

  /** axe (WCAG 2 A/AA) finds nothing at 1280 px; at 390 px nothing scrolls sideways; both widths are photographed. */
  async function inspect(page: Page, name: string): Promise<void> {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.addScriptTag({ content: axe.source });
    const result = await page.evaluate<axe.AxeResults>('axe.run(document, { runOnly: ["wcag2a", "wcag2aa"] })');
    expect(
      result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      `axe on ${name}`,
    ).to.deep.equal([]);
    await page.screenshot({ path: path.join(SHOTS, `${name}-1280.png`), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(
      await page.evaluate<number>('document.documentElement.scrollWidth'),
      `${name} scrolls sideways at 390 px`,
    ).to.be.at.most(390);
    await page.screenshot({ path: path.join(SHOTS, `${name}-390.png`), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  /**
   * At the page's current width: in every statement and ratio table the newest period is the first column and is
   * visible without scrolling, the labels stay put when the table scrolls, the scroll area is drawn, no ratio row
   * grows tall, and no chart text is smaller than 11 px.
   */
  async function checkTables(page: Page, where: string): Promise<void> {
    const tables = await page.$$eval('table[data-statement], table[data-ratios]', (found) =>
      found.map((table) => {
        const box = table.parentElement!;
        const area = box.getBoundingClientRect();
        const newest = table.querySelector('thead th:nth-child(2)')!.getBoundingClientRect();
        const rows = [...table.querySelectorAll('tbody tr[data-ratio]')].map(
          (row) => row.getBoundingClientRect().height,
        );
        box.scrollLeft = box.scrollWidth;
        const label = table.querySelector('tbody th[scope=row]')!.getBoundingClientRect();
        const stuck = Math.abs(label.left - area.left) <= 2;
        box.scrollLeft = 0;
        return {
          name: table.getAttribute('data-statement') ?? 'ratios',
          visible: newest.left >= area.left && newest.right <= area.right + 0.5,
          stuck,
          overflow: (globalThis as typeof globalThis & InPage).getComputedStyle(box).overflowX,
          tallest: Math.max(0, ...rows),
        };
      }),
    );
    expect(tables.length, where).to.be.at.least(3);
    for (const t of tables) {
      expect(t.visible, `${where}: the newest period of ${t.name} is in view`).to.equal(true);
      expect(t.stuck, `${where}: the labels of ${t.name} stay when it scrolls`).to.equal(true);
      expect(t.overflow, `${where}: the scroll area of ${t.name} is drawn`).to.equal('scroll');
      expect(t.tallest, `${where}: ratio rows stay short (no formula wraps in them)`).to.be.below(80);
    }
    const smallest = await page.$$eval('[data-chart] .chart svg', (svgs) =>
      Math.min(
        ...svgs
          .filter((svg) => svg.getBoundingClientRect().width > 0)
          .flatMap((svg) => {
            const scale = svg.getBoundingClientRect().width / Number(svg.getAttribute('width'));
            return [...svg.querySelectorAll('text')].map(
              (text) => parseFloat((globalThis as typeof globalThis & InPage).getComputedStyle(text).fontSize) * scale,
            );
          }),
      ),
    );
    expect(smallest, `${where}: the smallest chart text, in px`).to.be.at.least(11);
  }

  /** Each trend mark agrees with the two columns it compares and with whether higher is better for its ratio. */
  async function checkTrends(page: Page): Promise<number> {
    const rows = await page.$$eval('tr[data-ratio]', (found) =>
      found.map((row) => ({
        better: row.getAttribute('data-better-when'),
        cells: [...row.querySelectorAll('td')].slice(0, 2).map((td) => (td.childNodes[0]?.textContent ?? '').trim()),
        shape: row.querySelector('[data-trend]')?.getAttribute('data-trend') ?? null,
        verdict: row.querySelector('[data-trend]')?.getAttribute('data-verdict') ?? null,
      })),
    );
    let marked = 0;
    for (const row of rows) {
      const [now, before] = row.cells.map((text) => (text === '—' ? null : Number(text.replace(/[^0-9.-]/g, ''))));
      if (now === null || before === null || now === undefined || before === undefined) {
        expect(row.shape).to.equal(null);
        continue;
      }
      marked += 1;
      const shape = row.cells[0] === row.cells[1] ? 'unchanged' : now > before ? 'up' : 'down';
      expect(row.shape, JSON.stringify(row)).to.equal(shape);
      const verdict =
        shape === 'unchanged' || row.better === 'neither'
          ? 'neutral'
          : (shape === 'up') === (row.better === 'higher')
            ? 'better'
            : 'worse';
      expect(row.verdict, JSON.stringify(row)).to.equal(verdict);
    }
    return marked;
  }

  it('route handlers relay companies, profiles and financials by ticker in the service’s envelope, and log each request as a JSON line', async () => {
    const list = await json<ListPage<Omit<Company, 'id'>>>('/api/companies?sector=Information%20Technology&limit=2');
    expect(list.status).to.equal(200);
    expect(list.body.data).to.have.length(2);
    expect(list.body.data[0]).to.have.keys('ticker', 'name', 'sector');
    expect(list.body.meta).to.include({ limit: 2, offset: 0 }).and.to.have.property('total').above(2);
    const profile = await json<Data<{ ticker: string; name: string }>>('/api/companies/nwsc');
    expect(profile.body.data).to.include({ ticker: 'NWSC', name: 'Northwind Semiconductor' });
    const financials = await json<Data<{ income_statement: IncomeStatement; history: Array<{ period: string }> }>>(
      '/api/financials/NWSC?period=FY2025',
    );
    expect(financials.body.data.income_statement).to.include({
      period: 'FY2025',
      net_income: (await apiData<IncomeStatement>('/v1/companies/1/income-statement?period=FY2025')).net_income,
    });
    expect(financials.body.data.history.map((h) => h.period))
      .to.have.length(8)
      .and.to.include('Q4-2025');
    const unknown = await json('/api/companies/NOPE');
    expect(unknown).to.deep.equal({
      status: 404,
      body: { success: false, error: { code: 'NOT_FOUND', message: 'No company with ticker NOPE' } },
    });
    expect((await json('/api/financials/NOPE')).status).to.equal(404);
    const badLimit = await json<Refusal>('/api/companies?limit=500');
    expect(badLimit.status).to.equal(400);
    expect(badLimit.body.error.code).to.equal('BAD_USER_INPUT');
    expect((await json<Refusal>('/api/financials/NWSC?period=Q5-2024')).body.error.code).to.equal('BAD_USER_INPUT');

    const logged = web.logLines
      .map((line) => {
        try {
          return JSON.parse(line);
        } catch {
          return null;
        }
      })
      .filter((entry) => entry?.message === 'request');
    const line = logged.find((entry) => entry.path === '/api/companies/NOPE');
    expect(line).to.include({ level: 'info', method: 'GET', status: 404 });
    expect(line).to.have.keys('time', 'level', 'message', 'requestId', 'method', 'path', 'status', 'ms');
  });

  it('company pages are rendered on the server (readable without JavaScript), cached, and regenerated at most hourly; CSV follows the range', async () => {
    const first = await fetch(`${web.url}/companies/NWSC/quarterly`);
    const markup = await first.text();
    expect(first.status).to.equal(200);
    expect(first.headers.get('cache-control')).to.include('s-maxage=3600');
    expect(markup).to.include('Northwind Semiconductor').and.to.include('<svg');
    const again = await fetch(`${web.url}/companies/NWSC/quarterly`);
    await again.text();
    expect(again.headers.get('x-nextjs-cache')).to.equal('HIT');
    expect((await fetch(`${web.url}/companies/NOPE`)).status).to.equal(404);
    expect((await fetch(`${web.url}/companies/NWSC/weekly`)).status).to.equal(404);

    // The company pages and the list have nothing interactive: they are sent without scripts, compressed.
    for (const pathName of [
      '/companies',
      '/companies/NWSC',
      '/companies/NWSC/quarterly',
      '/companies/NWSC/ttm',
      '/screener',
    ]) {
      const page = await fetch(`${web.url}${pathName}`, { headers: { 'accept-encoding': 'br, gzip' } });
      expect(page.headers.get('content-encoding'), pathName).to.equal('br');
      const html = await page.text();
      expect(html, pathName)
        .to.include('</html>')
        .and.to.not.match(/<script\b|as="script"/);
    }
    expect(await (await fetch(`${web.url}/signin`)).text(), 'pages with a script keep it').to.match(/<script\b/);

    const csv = await fetch(`${web.url}/api/financials/NWSC/csv?view=annual`);
    expect(csv.headers.get('content-type')).to.include('text/csv');
    expect(csv.headers.get('content-disposition')).to.include('NWSC-annual.csv');
    const rows = (await csv.text())
      .trim()
      .split('\r\n')
      .map((row) => row.split(','));
    const fiscalYears = (await apiData<Period[]>('/v1/companies/1/periods?type=annual'))
      .map((p) => p.period)
      .slice(0, 5)
      .reverse();
    expect(rows[0]).to.deep.equal(['statement', 'line_item', ...fiscalYears]);
    const netIncome = rows.find((row) => row[0] === 'income_statement' && row[1] === 'net_income');
    expect(Number(netIncome?.[netIncome.length - 1])).to.equal(
      (await apiData<IncomeStatement>(`/v1/companies/1/income-statement?period=${fiscalYears[fiscalYears.length - 1]}`))
        .net_income,
    );
  });

  it('the screener page lists the companies the service’s screener finds, keeps the screen in its address, and explains a bad filter', async () => {
    const expected = (await (
      await fetch(`${service.url}/v1/screener?filter=gross_margin%3E0.5&sort=-net_margin&limit=25`)
    ).json()) as ListPage<ScreenRow>;
    const address = `/screener?filter=${encodeURIComponent('gross_margin>50%')}&sort=-net_margin`;
    const response = await fetch(`${web.url}${address}`);
    const html = await response.text();
    expect(response.status).to.equal(200);
    // The words as a reader sees them (React parts text with comments).
    expect(html.replace(/<[^>]+>/g, '')).to.include(`${expected.meta.total} companies pass`);
    // In the service's order, each linked to its company page.
    const listed = [...html.matchAll(/<a href="\/companies\/([^"]+)">/g)].map((m) => decodeURIComponent(m[1]));
    expect(listed).to.deep.equal(expected.data.map((row) => row.ticker));
    const bad = await fetch(`${web.url}/screener?filter=${encodeURIComponent('profitability>1')}`);
    expect(bad.status).to.equal(200);
    expect(await bad.text())
      .to.include('profitability')
      .and.to.include('gross_margin');
    if (!browser) return;
    const page = await browser.newPage();
    try {
      await page.goto(`${site}${address}`);
      await inspect(page, 'screener');
      expect(await page.locator('table tbody tr').count()).to.equal(expected.data.length);
    } finally {
      await page.close();
    }
  });

  it('says so when the service cannot be reached: a 502 envelope from the routes, a 503 page with the cause', async () => {
    const down = await startWebProcess({ API_URL: 'http://127.0.0.1:9', LOG_LEVEL: 'silent' }); // nothing listens on port 9
    try {
      const list = await fetch(`${down.url}/api/companies`);
      expect(list.status).to.equal(502);
      expect(((await list.json()) as Refusal).error.code).to.equal('UPSTREAM_ERROR');
      const response = await fetch(`${down.url}/companies`);
      expect(response.status, 'a 503 page, not a 500').to.equal(503);
      expect(await response.text())
        .to.include('not reachable')
        .and.to.include('UPSTREAM_ERROR')
        .and.to.include('Try again');
    } finally {
      await down.stop();
    }
  });

  it('in Chromium: companies search, sector filter, sort and paging; the company page by range with charts, statements, 31 ratios, quality and provenance', async function () {
    if (!browser) this.skip(); // no Chromium on this machine: .ci/run installs Debian's package
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${site}/companies`);
    await inspect(page, 'companies');
    expect(await page.locator('a[rel=next]').count(), 'more than one page of companies').to.equal(1);
    await page.fill('#q', 'northwind');
    await page.click('form[role=search] button');
    await page.waitForURL(/q=northwind/);
    expect(await page.$$eval('tbody tr td:first-child', (cells) => cells.map((c) => c.textContent))).to.deep.equal([
      'NWSC',
    ]);
    await page.goto(`${site}/companies?sector=Information%20Technology&sort=ticker`);
    const tickers = await page.$$eval('tbody tr td:first-child', (cells) => cells.map((c) => c.textContent ?? ''));
    expect(tickers.length).to.be.above(1);
    expect(tickers).to.deep.equal([...tickers].sort());
    expect(
      new Set(await page.$$eval('tbody tr td.hide-narrow', (cells) => cells.map((c) => c.textContent))),
    ).to.deep.equal(new Set(['Information Technology']));

    await page.click('text=NWSC');
    await page.waitForSelector('[data-figure=net-income]');
    const fiscalYears = (await apiData<Period[]>('/v1/companies/1/periods?type=annual'))
      .map((p) => p.period)
      .slice(0, 5)
      .reverse();
    const newest = await apiData<IncomeStatement>(
      `/v1/companies/1/income-statement?period=${fiscalYears[fiscalYears.length - 1]}`,
    );
    expect(await page.textContent('[data-figure=net-income]')).to.equal(
      `$${(newest.net_income! / 1e9).toLocaleString('en-US', { maximumFractionDigits: 2 })}B`,
    );
    const headers = await page.$$eval('[data-statement=income-statement] thead th', (cells) =>
      cells.slice(1).map((c) => c.textContent ?? ''),
    );
    expect(
      headers.map((h) => h.slice(0, 6)),
      'newest first',
    ).to.deep.equal([...fiscalYears].reverse());
    expect(headers[0]).to.match(/FY\d{4}[A-Z][a-z]{2} \d{4} – [A-Z][a-z]{2} \d{4}/); // the period's dates under its name
    // One scale and one precision for the whole table, named in its header: every amount has one decimal.
    expect(await page.textContent('[data-statement=income-statement] thead th:first-child')).to.equal('USD millions');
    const amounts = await page.$$eval(
      '[data-statement=income-statement] td[data-field=revenue], [data-statement=income-statement] td[data-field=netIncome]',
      (cells) => cells.map((c) => c.textContent ?? ''),
    );
    expect(
      amounts.every((text) => /^-?[\d,]+\.\d$/.test(text)),
      amounts.join(' '),
    ).to.equal(true);
    expect(Number(amounts[0].replace(/,/g, ''))).to.be.closeTo(newest.revenue! / 1e6, 0.051);
    expect(await page.locator('[data-chart]').count()).to.equal(3);
    expect(await page.locator('[data-chart] svg').count(), 'each chart drawn for wide and narrow screens').to.equal(6);
    expect(await page.locator('[data-chart] details table').count(), 'every chart has its table').to.equal(3);
    const camel = (key: string) => key.replace(/_(.)/g, (_, c: string) => c.toUpperCase());
    const definitions = (await apiData<RatioDefinition[]>('/v1/ratios/definitions')).map((d) => ({
      ...d,
      key: camel(d.key),
    }));
    expect(await page.locator('[data-ratios] tr[data-ratio]').count()).to.equal(definitions.length);
    expect(await page.textContent(`[data-ratio=${definitions[0].key}]`), 'formulas are out of the rows').to.not.include(
      definitions[0].formula,
    );
    expect(await page.getAttribute(`[data-ratio=${definitions[0].key}] th a`, 'title')).to.equal(
      definitions[0].formula,
    );
    expect(await page.textContent(`#formula-${definitions[0].key}`)).to.include(definitions[0].formula);
    expect(await page.getAttribute('[data-ratio=debtToEquity]', 'data-better-when')).to.equal('lower');
    expect(await page.getAttribute('[data-ratio=daysSalesOutstanding]', 'data-better-when')).to.equal('lower');
    expect(await page.getAttribute('[data-ratio=netMargin]', 'data-better-when')).to.equal('higher');
    expect(await checkTrends(page), 'ratios with a trend mark').to.be.above(10);
    const checks = await page.$$eval('[data-check] th', (cells) => cells.map((c) => c.textContent ?? ''));
    expect(checks.length).to.be.above(0);
    expect(
      checks.filter((name) => /_|[a-z][A-Z]/.test(name)),
      'data-quality checks go by readable names',
    ).to.deep.equal([]);
    expect(await page.locator('link[rel=icon]').count(), 'a favicon').to.be.above(0);
    expect((await fetch(`${web.url}${await page.getAttribute('link[rel=icon]', 'href')}`)).status).to.equal(200);
    const sameSector = (await apiData<Company[]>('/v1/companies?sector=Information%20Technology&limit=100'))
      .map((c) => c.ticker)
      .filter((t) => t !== 'NWSC');
    const peers = await page.$$eval('[data-peers] a', (links) =>
      links.map((a) => (a.textContent ?? '').split(' · ')[0]),
    );
    expect(peers.length).to.be.above(0);
    expect(sameSector, 'peers are companies of the same sector').to.include.members(peers);
    expect(await page.getAttribute('[data-quality-flags]', 'data-quality-flags')).to.equal('0');
    expect(await page.textContent('#provenance + p')).to.include('not imported from SEC filings');
    // The API link asks for the newest period the page shows, where browsers reach the service.
    expect(await page.getAttribute('a[data-api-link]', 'href')).to.equal(
      `http://api.example.test:8181/v1/companies/1/income-statement?period=${fiscalYears[fiscalYears.length - 1]}`,
    );
    await inspect(page, 'company-annual');
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await checkTables(page, `annual at ${width} px`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.click('.tabs >> text=Quarterly');
    await page.waitForURL(/\/quarterly$/);
    const quarters = (await apiData<Period[]>('/v1/companies/1/periods?type=quarter'))
      .map((p) => p.period)
      .slice(0, 8)
      .reverse();
    const chartTable = await page.$$eval('[data-chart=revenue-net-income] tbody th', (cells) =>
      cells.map((c) => c.textContent),
    );
    expect(chartTable, 'the charts follow the range, oldest to newest').to.deep.equal(quarters);
    const quarterHeaders = await page.$$eval('[data-ratios] thead th', (cells) =>
      cells.slice(1).map((c) => (c.textContent ?? '').slice(0, 7)),
    );
    expect(quarterHeaders, 'ratios newest first').to.deep.equal([...quarters].reverse());
    await inspect(page, 'company-quarterly');
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await checkTables(page, `quarterly at ${width} px`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.click('.tabs >> text=Trailing twelve months');
    await page.waitForURL(/\/ttm$/);
    const ttmHeaders = await page.$$eval('[data-statement=income-statement] thead th', (cells) =>
      cells.slice(1).map((c) => (c.textContent ?? '').replace(/[A-Z][a-z]{2} \d{4}.*$/, '')),
    );
    expect(ttmHeaders).to.deep.equal(['TTM', ...quarters.slice(-4).reverse()]);
    const balanceHeaders = await page.$$eval('[data-statement=balance-sheet] thead th', (cells) =>
      cells.slice(1).map((c) => (c.textContent ?? '').slice(0, 7)),
    );
    expect(balanceHeaders, 'no TTM balance sheet: it is the newest quarter’s').to.deep.equal(
      quarters.slice(-4).reverse(),
    );
    expect(await checkTrends(page), 'the TTM column counts in the trend').to.be.above(10);
    expect(await page.textContent('#key-figures')).to.include('TTM');
    await inspect(page, 'company-ttm');
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await checkTables(page, `TTM at ${width} px`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await context.close();

    // No JavaScript at phone width: the page still reads, tables and all.
    const phone = await browser!.newContext({ viewport: { width: 390, height: 844 }, javaScriptEnabled: false });
    const small = await phone.newPage();
    await small.goto(`${site}/companies/NWSC`);
    expect(await small.textContent('h1')).to.include('Northwind Semiconductor');
    expect(await small.evaluate<number>('document.documentElement.scrollWidth')).to.be.at.most(390);
    await small.screenshot({ path: path.join(SHOTS, 'company-390-no-js.png'), fullPage: true });
    const notFound = await small.goto(`${site}/companies/NOPE`);
    expect(notFound?.status()).to.equal(404);
    await phone.close();
  });

  it('sign-in explains COOKIE_SECURE over plain HTTP on a network address, refuses a wrong key, and tells a viewer what is missing', async function () {
    const lanPost = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const request = http.request(
        `${web.url}/api/signin`,
        { method: 'POST', headers: { host: '192.168.1.20:3000', 'content-type': 'application/x-www-form-urlencoded' } },
        resolve,
      );
      request.on('error', reject);
      request.end(`api_key=${keys.analyst}&next=/compare`);
    });
    lanPost.resume();
    expect(lanPost.statusCode).to.equal(303);
    expect(lanPost.headers['set-cookie'], 'no cookie the browser would drop').to.equal(undefined);
    expect(lanPost.headers.location).to.include('error=insecure');
    if (!browser) this.skip();

    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const anonymous = await page.goto(`${site}/compare`);
    expect(anonymous?.status()).to.equal(401);
    expect(await page.textContent('h1')).to.equal('Analyst access needed');
    await inspect(page, 'compare-anonymous');
    await page.goto(`${site}/signin?next=/compare&error=insecure`);
    expect(await page.textContent('[role=alert]')).to.include('COOKIE_SECURE=false');
    await page.goto(`${site}/signin`);
    await page.fill('#api_key', 'fis_live_wrong');
    await page.click('main button[type=submit]');
    await page.waitForURL(/error=refused/);
    expect(await page.textContent('[role=alert]')).to.match(/^Sign-in failed: /);
    await inspect(page, 'signin-refused');
    await page.fill('#api_key', keys.viewer);
    await page.click('main button[type=submit]');
    await page.waitForURL(/\/compare$/);
    expect(await page.textContent('h1')).to.equal('Analyst access needed');
    expect(await page.textContent('main')).to.include('needs the analyst role');
    expect(await page.textContent('header [data-signed-in]')).to.include('viewer');
    await inspect(page, 'compare-viewer');
    expect((await page.goto(`${site}/companies/NOPE`))?.status()).to.equal(404);
    await inspect(page, 'not-found');
    await context.close();
  });

  it('in Chromium, as an analyst: search with filters, compare with chart and citations, a streamed conversation, a refusal with its retry time, sign-out', async function () {
    if (!browser) this.skip();
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    // Not signed in, from a company page's peers to compare: sign-in leads back to the comparison asked for.
    await page.goto(`${site}/companies/AMBF`);
    await page.click('text=Compare AMBF with these peers');
    await page.waitForURL(/\/compare\?company=/);
    const asked = page.url();
    expect(await page.textContent('h1')).to.equal('Analyst access needed');
    await page.click('main a[href^="/signin?next="]');
    await page.fill('#api_key', keys.analyst);
    await page.click('main button[type=submit]');
    await page.waitForURL((url) => url.href === asked, { waitUntil: 'commit', timeout: 120_000 });
    await page.waitForSelector('[data-comparison]', { timeout: 120_000 }); // five companies: the analysis takes a while
    expect(await page.inputValue('#pick-0')).to.match(/^AMBF · /);
    await page.goto(`${site}/signin?next=/search`);
    await page.fill('#api_key', keys.analyst);
    await page.click('main button[type=submit]');
    await page.waitForURL(/\/search$/);
    expect(await page.textContent('header [data-signed-in]')).to.include('Signed in (analyst)');
    const cookie = (await context.cookies()).find((c) => c.name === 'fis_web_session');
    expect(cookie).to.include({ httpOnly: true, sameSite: 'Lax', secure: true });

    await page.goto(`${site}/search?q=${encodeURIComponent('export controls on advanced chips')}&company=1&type=10-K`);
    const marks = await page.$$eval('ol.results mark', (nodes) => nodes.map((n) => n.textContent?.toLowerCase() ?? ''));
    expect(marks.some((m) => m.startsWith('export'))).to.equal(true);
    expect(
      new Set(
        await page.$$eval('ol.results li > p:first-child a:first-child', (links) => links.map((a) => a.textContent)),
      ),
    ).to.deep.equal(new Set(['NWSC']));
    await inspect(page, 'search');

    // A hit opens its document at the passage, which CSS marks (:target), with or without JavaScript. The document
    // has many passages and the hit is one in the middle.
    const marker = `lanthorn${Date.now()}`;
    const sections = Array.from(
      { length: 12 },
      (_, i) =>
        `Plant ${i} report. ${i === 7 ? `The ${marker} line doubled its yield.` : 'Output was steady.'} ${'Demand held up across regions. '.repeat(14)}`,
    );
    const ingested = await fetch(`${service.url}/v1/documents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': keys.admin },
      body: JSON.stringify({
        company_id: 1,
        title: 'Plant reports',
        doc_type: 'note',
        period: 'FY2025',
        published_at: '2025-05-06',
        content: sections.join('\n\n'),
      }),
    });
    expect(ingested.status).to.equal(201);
    await page.goto(`${site}/search?q=${marker}`);
    const hitPassage = (await page.textContent('ol.results li:first-child details p'))!;
    expect(hitPassage).to.include(marker);
    await page.click('ol.results li:first-child > p:first-child a[href^="/documents/"]');
    await page.waitForURL(/\/documents\/\d+#passage-\d+$/);
    const fragment = new URL(page.url()).hash;
    expect(await page.textContent(`${fragment}`)).to.equal(hitPassage);
    expect(await page.$eval('.passages li:target', (li) => li.id)).to.equal(fragment.slice(1));
    expect(
      await page.evaluate<string>('getComputedStyle(document.querySelector(".passages li:target")).backgroundColor'),
      'the targeted passage is marked',
    ).to.not.equal('rgba(0, 0, 0, 0)');
    expect(await page.locator('.passages li').count(), 'the whole document, not just the hit').to.be.above(2);
    expect(await page.textContent('.passages li:first-child')).to.include('Plant 0 report');
    expect(await page.textContent('.facts'))
      .to.include('NWSC')
      .and.to.include('note')
      .and.to.include('FY2025')
      .and.to.include('May 6, 2025');
    await inspect(page, 'document');
    const noScript = await browser!.newContext({
      viewport: { width: 390, height: 844 },
      javaScriptEnabled: false,
      storageState: await context.storageState(),
    });
    const reader = await noScript.newPage();
    await reader.goto(page.url());
    expect(await reader.$eval('.passages li:target', (li) => li.id)).to.equal(fragment.slice(1));
    expect(await reader.evaluate<number>('document.documentElement.scrollWidth')).to.be.at.most(390);
    await reader.screenshot({ path: path.join(SHOTS, 'document-390-no-js.png') });
    expect((await reader.goto(`${site}/documents/987654`))?.status()).to.equal(404);
    await noScript.close();
    await page.goto(`${site}/search?q=chips&period=FY20`);
    expect(await page.textContent('[role=alert]')).to.include('not a fiscal period');

    // Companies by name or ticker in search boxes (the list suggests them), in three currencies and two fiscal
    // calendars; measures by their names.
    await page.goto(`${site}/compare`);
    expect(await page.locator('datalist#company-names option').count()).to.equal(44);
    const measures = await page.$$eval('[data-compare-form] .choice', (labels) =>
      labels.map((l) => (l.textContent ?? '').trim()),
    );
    expect(measures).to.include.members(['EBITDA', 'EPS (diluted)', 'Revenue growth']);
    await page.fill('#pick-0', 'northwind');
    await page.fill('#pick-1', 'CRVP');
    await page.fill('#pick-2', 'Thamesbury');
    await page.click('[data-compare-form] button[type=submit]');
    await page.waitForSelector('[data-comparison]');
    expect(await page.textContent('[data-comparison]')).to.match(/^Comparing /);
    expect(await page.locator('[data-comparison-table] tbody tr').count()).to.equal(9); // the default measures
    expect(
      await page.$$eval('[data-comparison-table] tbody th', (cells) => cells.map((c) => c.textContent)),
    ).to.include('Return on equity (ROE)');
    // Revenue in USD, EUR and GBP: one chart each, never one axis; a bar names its period when periods differ.
    expect(
      await page.$$eval('[data-chart^=comparison]', (charts) => charts.map((c) => c.getAttribute('data-chart'))),
    ).to.have.members(['comparison-USD', 'comparison-EUR', 'comparison-GBP']);
    expect(await page.textContent('[data-currency-note]')).to.include('nothing converted');
    const periodsShown = await page.$$eval('[data-comparison-table] thead th span', (spans) =>
      spans.map((s) => s.textContent),
    );
    const bars = await page.$$eval('[data-chart^=comparison] details tbody th', (cells) =>
      cells.map((c) => c.textContent ?? ''),
    );
    if (new Set(periodsShown).size > 1)
      expect(
        bars.every((bar) => /(FY|Q\d-)\d{4}/.test(bar)),
        bars.join(', '),
      ).to.equal(true);
    const euro = await page.$$eval('[data-chart=comparison-EUR] details td', (cells) =>
      cells.map((c) => c.textContent ?? ''),
    );
    expect(
      euro.every((text) => text.startsWith('EUR ')),
      euro.join(', '),
    ).to.equal(true);
    expect(await page.textContent('[data-checks]')).to.match(
      /\d+ figures? checked against the statements, \d+ unsupported/,
    );
    const citation = await page.getAttribute('ul.citations li a', 'href');
    expect(citation).to.match(/^\/(companies|documents)/);
    await inspect(page, 'compare');

    await page.goto(`${site}/chat`);
    await page.evaluate(
      `window.__steps = 0; new MutationObserver(() => { window.__steps += 1; }).observe(document.querySelector('.conversation'), { childList: true, characterData: true, subtree: true });`,
    );
    await page.fill('#question', 'How is NWSC doing on cash flow?');
    await page.click('#chat-form button');
    await page.waitForSelector('li[data-turn=assistant] ul.citations li a');
    expect(await page.evaluate<number>('window.__steps'), 'the answer grew in several steps').to.be.above(5);
    expect(await page.textContent('li[data-turn=assistant] [data-checks]'), 'the chat shows its checks').to.match(
      /\d+ figures? checked against the statements, \d+ unsupported; \d+ claims? checked, \d+ flagged/,
    );
    await page.fill('#question', 'And its debt?');
    await page.click('#chat-form button');
    await page.waitForFunction('document.querySelectorAll("li[data-turn=assistant] ul.citations").length === 2');
    const turns = await page.$$eval('ol.conversation > li', (items) => items.map((li) => li.getAttribute('data-turn')));
    expect(turns, 'the whole conversation stays on the page').to.deep.equal(['user', 'assistant', 'user', 'assistant']);
    expect(await page.textContent('ol.conversation > li:nth-child(4)'))
      .to.include('NWSC')
      .and.to.match(/debt/i);
    await inspect(page, 'chat');
    // The AI budget is spent: the refusal says why and when to try again.
    await page.fill('#question', 'And its margins?');
    await page.click('#chat-form button');
    await page.waitForSelector('[data-chat-error]');
    expect(await page.textContent('[data-chat-error]'))
      .to.match(/RATE_LIMITED/)
      .and.to.match(/retry in \d+ s/i);
    await page.screenshot({ path: path.join(SHOTS, 'chat-rate-limited-1280.png'), fullPage: true });

    await page.click('header button:has-text("Sign out")');
    await page.waitForURL(/\/companies$/);
    expect((await page.goto(`${site}/chat`))?.status()).to.equal(401);
    await context.close();
  });
});
