import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { chromium, type Browser } from 'playwright-core';
import type { App } from '../../src/app';
import { startTestApp, TARGET } from '../../test/helpers/test-app';
import { createWebServer, loadWebConfig } from '../src/server';
import { formatMoney } from '../src/html';
import { createApiKey } from '../../src/auth/api-keys';

/**
 * The web front end against the real service, in headless Chromium (Debian's package, never a download). Screenshots
 * of each page go to test-output/web/ for a person to look at.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = path.join(__dirname, '..', '..', '..', 'test-output', 'web');

describe('web front end (server-rendered pages and /api routes)', function () {
  this.timeout(180_000);
  let service: App;
  let web: ReturnType<typeof createWebServer>;
  let webUrl: string;
  let browser: Browser | null = null;

  before(async function () {
    if (TARGET !== 'embedded') this.skip(); // one run is enough: the front end does not care which database serves the API
    service = await startTestApp();
    web = createWebServer({ ...loadWebConfig({}), port: 0, host: '127.0.0.1', apiUrl: service.url, cookieSecure: false });
    webUrl = await web.listen();
    fs.mkdirSync(SHOTS, { recursive: true });
    if (fs.existsSync(CHROMIUM)) browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });

  after(async () => {
    await browser?.close();
    await web?.close();
    await service?.close();
  });

  const api = async (pathName: string) => {
    const response = await fetch(`${webUrl}${pathName}`);
    return { status: response.status, body: (await response.json()) as any };
  };

  it('relays companies, profiles and financials by ticker, with the service\u2019s error envelope', async () => {
    const list = await api('/api/companies?sector=Information%20Technology&limit=2');
    expect(list.status).to.equal(200);
    expect(list.body.data).to.have.length(2);
    expect(list.body.data[0]).to.have.keys('ticker', 'name', 'sector');
    expect(list.body.meta.total).to.be.above(2);
    const profile = await api('/api/companies/nwsc');
    expect(profile.body.data).to.include({ ticker: 'NWSC', name: 'Northwind Semiconductor' });
    const financials = await api('/api/financials/NWSC?period=FY2025');
    expect(financials.body.data.income_statement.period).to.equal('FY2025');
    expect(financials.body.data.history).to.have.length(8);
    const unknown = await api('/api/companies/NOPE');
    expect(unknown.status).to.equal(404);
    expect(unknown.body).to.deep.equal({ success: false, error: { code: 'NOT_FOUND', message: 'No company with ticker NOPE' } });
    expect((await api('/api/financials/NOPE')).status).to.equal(404);
  });

  it('renders the pages on the server, so they work without JavaScript, and caches them for an hour', async () => {
    const list = await fetch(`${webUrl}/companies?sector=Energy`);
    const markup = await list.text();
    expect(list.headers.get('cache-control')).to.include('s-maxage=3600');
    expect(markup).to.include('<table>').and.to.match(/companies in Energy/);
    const again = await fetch(`${webUrl}/companies?sector=Energy`);
    expect(Number(again.headers.get('age'))).to.be.at.least(0);
    await again.text();
    const company = await (await fetch(`${webUrl}/companies/NWSC`)).text();
    expect(company).to.include('Northwind Semiconductor').and.to.include('<svg class="chart"');
    const missing = await fetch(`${webUrl}/companies/NOPE`);
    expect(missing.status).to.equal(404);
  });

  it('in Chromium: list → sector filter → company page shows the same net income as the API, with charts', async function () {
    if (!browser) this.skip(); // no Chromium on this machine: .ci/run installs Debian's package
    const pageContext = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await pageContext.newPage();
    await page.goto(`${webUrl}/companies`);
    await page.screenshot({ path: path.join(SHOTS, 'companies.png'), fullPage: true });
    await page.selectOption('#sector', 'Information Technology');
    await page.click('button[type=submit]');
    await page.waitForURL(/sector=Information/);
    const sectors = await page.$$eval('tbody tr td.hide-narrow', (cells) => cells.map((c) => c.textContent));
    expect(sectors.length).to.be.above(0);
    expect(new Set(sectors)).to.deep.equal(new Set(['Information Technology']));
    await page.click('text=NWSC');
    await page.waitForSelector('[data-figure=net-income]');
    const shown = await page.textContent('[data-figure=net-income]');
    const ids = await (await fetch(`${service.url}/v1/companies?sector=Information%20Technology`)).json() as any;
    const id = ids.data.find((c: any) => c.ticker === 'NWSC').id;
    const statement = await (await fetch(`${service.url}/v1/companies/${id}/income-statement`)).json() as any;
    expect(shown).to.equal(formatMoney(statement.data.net_income, 'USD'));
    expect(await page.$$('svg[data-chart]')).to.have.length(3);
    expect(await page.$$eval('svg[data-chart] polyline', (lines) => lines.length)).to.equal(7);
    await page.screenshot({ path: path.join(SHOTS, 'company.png'), fullPage: true });
    // Keyboard: the period selector is reachable and labelled.
    expect(await page.getAttribute('label[for=period] select', 'name')).to.equal('period');
    await pageContext.close();

    const phone = await browser!.newContext({ viewport: { width: 375, height: 800 }, javaScriptEnabled: false });
    const small = await phone.newPage();
    await small.goto(`${webUrl}/companies/NWSC?period=FY2025`);
    expect(await small.textContent('h1')).to.include('Northwind Semiconductor');
    const overflow = await small.evaluate<number>('document.documentElement.scrollWidth');
    expect(overflow).to.be.at.most(400);
    await small.screenshot({ path: path.join(SHOTS, 'company-phone-no-js.png'), fullPage: true });
    await phone.close();
  });

  it('in Chromium: sign-in gates the dashboard; search highlights matches; compare cites; chat streams in steps', async function () {
    if (!browser) this.skip();
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const anonymous = await page.goto(`${webUrl}/dashboard`);
    expect(anonymous?.status()).to.equal(401);
    expect(await page.textContent('h1')).to.equal('Analyst access needed');
    await page.screenshot({ path: path.join(SHOTS, 'dashboard-anonymous.png'), fullPage: true });

    const viewer = (await createApiKey(service.database.dataSource, 'web viewer', 'viewer')).key;
    await page.goto(`${webUrl}/signin?next=/dashboard`);
    await page.fill('#api_key', viewer);
    await page.click('button[type=submit]');
    expect(await page.textContent('h1')).to.equal('Analyst access needed'); // signed in, but a viewer
    await page.goto(`${webUrl}/signin`);
    await page.fill('#api_key', 'fis_live_wrong');
    await page.click('button[type=submit]');
    expect(await page.textContent('[role=alert]')).to.include('Sign-in failed');

    const analyst = (await createApiKey(service.database.dataSource, 'web analyst', 'analyst')).key;
    await page.fill('#api_key', analyst);
    await page.click('button[type=submit]');
    await page.waitForURL(/\/dashboard$/);
    expect(await page.textContent('h1')).to.equal('Dashboard');
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'fis_web_session')).to.include({ httpOnly: true, sameSite: 'Lax' });
    await page.screenshot({ path: path.join(SHOTS, 'dashboard.png'), fullPage: true });

    await page.goto(`${webUrl}/search?q=${encodeURIComponent('export controls on advanced chips')}`);
    const marks = await page.$$eval('ol.results mark', (nodes) => nodes.map((n) => n.textContent?.toLowerCase()));
    expect(marks.length).to.be.above(2);
    expect(marks.some((m) => m?.startsWith('export'))).to.equal(true);
    expect(await page.getAttribute('ol.results li a', 'href')).to.match(/^\/companies\/[A-Z0-9]+$/);
    await page.screenshot({ path: path.join(SHOTS, 'search.png'), fullPage: true });

    await page.goto(`${webUrl}/compare`);
    const boxes = await page.$$('input[name=company]');
    await boxes[0].check();
    await boxes[1].check();
    await page.click('button[type=submit]');
    await page.waitForSelector('[data-comparison]');
    expect(await page.textContent('[data-comparison]')).to.match(/^Comparing /);
    expect((await page.$$('ul.citations li a')).length).to.be.above(2);
    await page.screenshot({ path: path.join(SHOTS, 'compare.png'), fullPage: true });

    await page.goto(`${webUrl}/chat`);
    await page.evaluate(`window.__steps = 0; new MutationObserver(() => { window.__steps += 1; }).observe(document.getElementById('answer'), { childList: true, characterData: true, subtree: true });`);
    await page.fill('#question', 'How is NWSC doing on cash flow?');
    await page.click('button[type=submit]');
    await page.waitForSelector('#citations li');
    const steps = await page.evaluate<number>('window.__steps');
    expect(steps, 'the answer grew in several steps').to.be.above(5);
    expect(await page.textContent('#answer')).to.include('NWSC');
    await page.screenshot({ path: path.join(SHOTS, 'chat.png'), fullPage: true });
    // A follow-up that names no company continues the conversation (the service remembers NWSC).
    await page.fill('#question', 'And its debt?');
    await page.click('button[type=submit]');
    await page.waitForSelector('#citations li');
    expect(await page.textContent('#answer')).to.include('NWSC').and.to.match(/debt/i);

    await page.click('form[action="/signout"] button', { trial: true }).catch(() => undefined);
    await context.close();
  });
});
