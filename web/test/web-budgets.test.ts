import http from 'node:http';
import { expect } from 'chai';
import type { App } from '../../src/app';
import { generateKey } from '../../src/shared/key-format';
import { startTestApp, testConfig, TARGET } from '../../test/helpers/test-app';
import { createTestKeys } from '../../test/helpers/keys';
import type { Data } from '../../test/helpers/http';
import { startWebProcess, type WebProcess } from './web-process';

/**
 * The front end under the service's real budgets: it reads with its own forwarding key (WEB_API_KEY), so each
 * visitor spends their own budget; cached company pages cost the service one GraphQL request each; a refusal is a
 * 429/503 page with its retry time; a crawl of every page of the demo data, 4 at a time, meets no refusal; and an
 * active session is renewed.
 */

/** GET from a chosen local address (127.0.0.x), as a different visitor would come. */
function getFrom(
  url: string,
  localAddress: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { localAddress, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on('error', reject);
  });
}

/** Requests the service has answered so far (its own counter, /metrics aside). */
async function serviceRequests(service: App): Promise<number> {
  const text = await (await fetch(`${service.url}/metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('fis_http_requests_total{') && !line.includes('route="/metrics"'))
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}

describe('web front end under the service’s budgets', function () {
  this.timeout(300_000);

  describe('a small read budget (3 a minute)', () => {
    let service: App;
    let web: WebProcess;
    let analystKey: string;

    before(async function () {
      if (TARGET !== 'embedded') this.skip();
      const key = generateKey();
      const defaults = testConfig().rateLimits;
      service = await startTestApp({
        webApiKey: key,
        // Short, so the renewal test waits only past half of it (the service's own floor, 30 s, is for operators).
        jwtTtlSeconds: 10,
        rateLimits: { ...defaults, reads: { limit: 3, windowSeconds: 60 } },
      });
      analystKey = (await createTestKeys(service)).analyst;
      web = await startWebProcess({ API_URL: service.url, WEB_API_KEY: key, LOG_LEVEL: 'silent' });
    });

    after(async () => {
      await web?.stop();
      await service?.close();
    });

    it('spends each visitor’s own budget, never one shared by all, and a refused visitor gets the 429 with Retry-After', async () => {
      const first = [];
      for (let i = 0; i < 4; i += 1) first.push(await getFrom(`${web.url}/api/companies?limit=1`, '127.0.0.2'));
      expect(first.map((r) => r.status)).to.deep.equal([200, 200, 200, 429]);
      expect(Number(first[3].headers['retry-after'])).to.be.above(0);
      expect(JSON.parse(first[3].body).error.code).to.equal('RATE_LIMITED');
      // Another visitor still has a whole budget: the front end does not pool its visitors.
      expect((await getFrom(`${web.url}/api/companies?limit=1`, '127.0.0.3')).status).to.equal(200);
      // A visitor cannot name someone else: what a browser sends as X-Forwarded-For is not believed.
      expect(
        (await getFrom(`${web.url}/api/companies?limit=1`, '127.0.0.2', { 'x-forwarded-for': '203.0.113.9' })).status,
      ).to.equal(429);
    });

    it('a cached company page costs one request to the service, and a refusal is a 429 page with the retry time, not a 500', async () => {
      const before = await serviceRequests(service);
      const page = await getFrom(`${web.url}/companies/NWSC`, '127.0.0.4');
      expect(page.status).to.equal(200);
      // One GraphQL request for the page, one for the company directory (kept an hour, shared by every page).
      expect((await serviceRequests(service)) - before).to.equal(2);
      const again = await getFrom(`${web.url}/companies/NWSC`, '127.0.0.4');
      expect(again.headers['x-nextjs-cache']).to.equal('HIT');
      const quarterly = await getFrom(`${web.url}/companies/NWSC/quarterly`, '127.0.0.4');
      expect((await serviceRequests(service)) - before, 'the directory is read once').to.equal(3);
      expect(quarterly.status).to.equal(200);
      // The key's own budget (pages rendered for everyone) is spent: the next page is refused.
      const refused = await getFrom(`${web.url}/companies/NWSC/ttm`, '127.0.0.4');
      expect(refused.status).to.equal(429);
      expect(Number(refused.headers['retry-after'])).to.be.above(0);
      expect(refused.headers['cache-control']).to.include('no-store');
      expect(refused.body)
        .to.include('Too many requests just now')
        .and.to.match(/Try again in \d+ s\./)
        .and.to.include('RATE_LIMITED');
      expect(refused.body).to.not.include('Something went wrong');
      // The refusal is not cached in place of the page: asked again, it is rendered (and refused) again.
      const still = await getFrom(`${web.url}/companies/NWSC/ttm`, '127.0.0.4');
      expect(still.status).to.equal(429);
      expect(still.headers['x-nextjs-cache']).to.not.equal('HIT');
    });

    it('renews an active session’s token, and says a session expired instead of "not signed in"', async () => {
      const signIn = await fetch(`${web.url.replace('127.0.0.1', 'localhost')}/api/signin`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `api_key=${analystKey}&next=/compare`,
      });
      expect(signIn.status).to.equal(303);
      const cookies = signIn.headers.getSetCookie().map((c) => c.split(';')[0]);
      expect(cookies.map((c) => c.split('=')[0])).to.include.members(['fis_web_session', 'fis_web_renewal']);
      const tokenOf = (cookie: string) =>
        JSON.parse(Buffer.from(cookie.split('=')[1].split('.')[1], 'base64url').toString('utf8')) as { exp: number };
      const firstExp = tokenOf(cookies.find((c) => c.startsWith('fis_web_session='))!).exp;
      // Past half of the 10 s token, with a second for `iat`, which counts whole seconds.
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      const active = await fetch(`${web.url}/api/session`, { headers: { cookie: cookies.join('; ') } });
      expect(((await active.json()) as Data<{ role: string }>).data.role).to.equal('analyst');
      const renewed = active.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .find((c) => c.startsWith('fis_web_session='));
      expect(renewed, 'a new token while the user is active').to.be.a('string');
      expect(tokenOf(renewed!).exp).to.be.above(firstExp);

      const expiredToken = [
        'e30',
        Buffer.from(JSON.stringify({ role: 'analyst', exp: Math.floor(Date.now() / 1000) - 60 })).toString('base64url'),
        'x',
      ].join('.');
      const expired = await fetch(`${web.url}/compare?company=1&company=4`, {
        headers: { cookie: `fis_web_session=${expiredToken}` },
      });
      expect(expired.status).to.equal(401);
      const text = await expired.text();
      expect(text).to.include('Your session expired');
      expect(text).to.include(
        `/signin?next=${encodeURIComponent('/compare?company=1&company=4')}`.replace(/&/g, '&amp;'),
      );
    });
  });

  describe('the default budgets', () => {
    let service: App;
    let web: WebProcess;

    before(async function () {
      if (TARGET !== 'embedded') this.skip();
      const key = generateKey();
      service = await startTestApp({
        webApiKey: key,
        rateLimits: {
          reads: { limit: 600, windowSeconds: 60 },
          search: { limit: 120, windowSeconds: 60 },
          ai: { limit: 30, windowSeconds: 60 },
        },
      });
      web = await startWebProcess({ API_URL: service.url, WEB_API_KEY: key, LOG_LEVEL: 'silent' });
    });

    after(async () => {
      await web?.stop();
      await service?.close();
    });

    it('a crawl of every page of the demo data, 4 at a time, meets no 5xx and no 429', async () => {
      const seen = new Set<string>(['/companies']);
      const queue = ['/companies'];
      const statuses = new Map<string, number>();
      let inFlight = 0;
      const visit = async (next: string) => {
        const response = await fetch(`${web.url}${next}`, { redirect: 'manual' });
        statuses.set(next, response.status);
        const body = await response.text();
        if (!(response.headers.get('content-type') ?? '').includes('text/html')) return;
        for (const [, href] of body.matchAll(/href="([^"#]+)[^"]*"/g)) {
          const path = href.replace(/&amp;/g, '&');
          if (!path.startsWith('/') || path.startsWith('//') || path.startsWith('/_next/') || seen.has(path)) continue;
          seen.add(path);
          queue.push(path);
        }
      };
      // Four crawlers share the queue; one that finds it empty waits while others may still add to it.
      const worker = async () => {
        for (;;) {
          const next = queue.shift();
          if (next === undefined) {
            if (inFlight === 0) return;
            await new Promise((resolve) => setTimeout(resolve, 20));
            continue;
          }
          inFlight += 1;
          try {
            await visit(next);
          } finally {
            inFlight -= 1;
          }
        }
      };
      await Promise.all(Array.from({ length: 4 }, worker));
      const companyPages = [...statuses.keys()].filter((p) => /^\/companies\/[^/?]+(\/(quarterly|ttm))?$/.test(p));
      const csvs = [...statuses.keys()].filter((p) => p.includes('/csv?'));
      expect(companyPages.length, 'every company in three ranges').to.equal(44 * 3);
      expect(csvs.length).to.equal(44 * 3);
      const failed = [...statuses].filter(([, status]) => status >= 500 || status === 429);
      expect(failed, 'refused or failed pages').to.deep.equal([]);
      process.stdout.write(
        `      crawled ${statuses.size} pages and downloads, 4 at a time: ${[...new Set(statuses.values())]
          .sort()
          .map((s) => `${[...statuses.values()].filter((v) => v === s).length} × ${s}`)
          .join(', ')}\n`,
      );
    });
  });
});
