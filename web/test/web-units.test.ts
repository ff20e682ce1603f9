import { expect } from 'chai';
import { listHref, parseListQuery, selectCompanies, PAGE_SIZE } from '../lib/company-list';
import { secureCookieWouldBeDropped } from '../lib/transport';
import { amountScale, checkName, formatMoney, formatRatio, formatScaled, monthYear } from '../lib/format';
import { failureText } from '../lib/failure-text';
import { BETTER_WHEN, trendOf } from '../lib/ratio-direction';
import { RATIO_FIELDS } from '../lib/company-query';
import { pickCompany } from '../lib/company-pick';
import { localPath } from '../lib/local-path';
import { readSession } from '../lib/session-token';

/** The front end's pure logic: the companies query, the plain-HTTP cookie rule, formats, refusals in words. */
describe('web front end (unit)', () => {
  const companies = Array.from({ length: 45 }, (_, i) => ({
    id: i + 1,
    ticker: `T${String(i).padStart(2, '0')}`,
    name: `Company ${String.fromCharCode(90 - (i % 26))}${i}`,
    sector: i % 3 === 0 ? 'Energy' : 'Utilities',
  }));

  it('searches ticker and name in any case, filters the sector, sorts and pages', () => {
    const byName = selectCompanies(companies, parseListQuery({ q: 'company z', sector: '' }));
    expect(byName.rows.map((c) => c.name)).to.deep.equal(['Company Z0', 'Company Z26']);
    const energy = selectCompanies(companies, parseListQuery({ sector: 'energy', sort: 'ticker' }));
    expect(energy.total).to.equal(15);
    expect(energy.rows.every((c) => c.sector === 'Energy')).to.equal(true);
    expect(energy.rows.map((c) => c.ticker)).to.deep.equal(energy.rows.map((c) => c.ticker).sort());
    const last = selectCompanies(companies, parseListQuery({ page: '9' }));
    expect(last.pages).to.equal(Math.ceil(45 / PAGE_SIZE));
    expect(last.rows).to.have.length(45 - 2 * PAGE_SIZE); // a page past the end shows the last one
    expect(parseListQuery({ sort: 'price', page: '-3' })).to.include({ sort: 'name', page: 1 });
    expect(listHref(parseListQuery({ q: 'a b', sector: 'Energy' }), { page: 2 })).to.equal(
      '/companies?q=a+b&sector=Energy&page=2',
    );
  });

  it('knows a Secure cookie is dropped over plain HTTP on a network address, not on localhost or behind HTTPS', () => {
    const headers = (host: string, proto?: string) =>
      new Headers({ host, ...(proto ? { 'x-forwarded-proto': proto } : {}) });
    expect(secureCookieWouldBeDropped(headers('192.168.1.20:3000'), true)).to.equal(true);
    expect(secureCookieWouldBeDropped(headers('192.168.1.20:3000'), false)).to.equal(false);
    expect(secureCookieWouldBeDropped(headers('localhost:3000'), true)).to.equal(false);
    expect(secureCookieWouldBeDropped(headers('127.0.0.1:3000'), true)).to.equal(false);
    expect(secureCookieWouldBeDropped(headers('insights.example.com', 'https'), true)).to.equal(false);
  });

  it('writes money, ratios by category, period dates and refusals as a reader expects', () => {
    expect(formatMoney(-2_496_583_000)).to.equal('-$2.5B');
    expect(formatMoney(669_200_000, 'EUR')).to.equal('EUR 669.2M');
    expect(formatMoney(null)).to.equal('—');
    expect(formatMoney(950_000)).to.equal('$950K');
    expect(formatMoney(994_420_000)).to.equal('$994.4M');
    expect(formatMoney(-5_300_000_000, 'SEK')).to.equal('-SEK 5.3B');
    expect(formatRatio('grossMargin', 'margins', 0.5817)).to.equal('58.2%');
    expect(formatRatio('daysSalesOutstanding', 'efficiency', 61.4)).to.equal('61 days');
    expect(formatRatio('cash_conversion_cycle', 'efficiency', 87.2)).to.equal('87 days');
    expect(formatRatio('currentRatio', 'liquidity', 5.634)).to.equal('5.63x');
    expect(monthYear('2025-10-01')).to.equal('Oct 2025');
    expect(failureText({ message: 'Too many requests', code: 'RATE_LIMITED', retryAfterSeconds: 12 })).to.equal(
      'Too many requests (RATE_LIMITED) Try again in 12 s.',
    );
    expect(
      failureText({ message: 'Rate limit exceeded; retry in 12 s', code: 'RATE_LIMITED', retryAfterSeconds: 12 }),
    ).to.equal('Rate limit exceeded; retry in 12 s (RATE_LIMITED)');
  });

  it('writes a table of amounts in one scale with one decimal, and names data-quality checks in words', () => {
    const scale = amountScale([3_920_100_000, 994_400_000, null, -12_300_000]);
    expect(scale.word).to.equal('millions');
    expect([3_920_100_000, 1_040_000_000, 994_400_000, -12_300_000].map((v) => formatScaled(v, scale))).to.deep.equal([
      '3,920.1',
      '1,040.0',
      '994.4',
      '-12.3',
    ]);
    expect(amountScale([450_000, 12_000]).word).to.equal('thousands');
    expect(checkName('yearEqualsSumOfQuarters')).to.equal('Fiscal year equals the sum of its quarters');
    expect(checkName('year_equals_sum_of_quarters')).to.equal('Fiscal year equals the sum of its quarters');
    expect(checkName('some_new_check')).to.equal('Some new check');
  });

  it('marks a trend better or worse by whether higher is better, unchanged when the shown values are equal', () => {
    expect(Object.keys(BETTER_WHEN).sort(), 'every ratio of the schema has a direction').to.deep.equal(
      [...RATIO_FIELDS].sort(),
    );
    const shown = (
      now: number | null,
      before: number | null,
      format = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)}%`),
    ) => [
      { value: now, text: format(now) },
      { value: before, text: format(before) },
    ];
    expect(trendOf('debtToEquity', shown(0.4, 0.5))).to.deep.equal({ shape: 'down', verdict: 'better' });
    expect(trendOf('daysSalesOutstanding', shown(61, 55))).to.deep.equal({ shape: 'up', verdict: 'worse' });
    expect(trendOf('netMargin', shown(0.2231, 0.2229))).to.deep.equal({ shape: 'unchanged', verdict: 'neutral' }); // both 22.3%
    expect(trendOf('netMargin', shown(0.25, 0.2))).to.deep.equal({ shape: 'up', verdict: 'better' });
    expect(trendOf('payoutRatio', shown(0.5, 0.4))).to.deep.equal({ shape: 'up', verdict: 'neutral' });
    expect(trendOf('netMargin', shown(null, 0.2))).to.equal(null);
  });

  it('picks companies by ticker, name, part of a name or a suggestion, and asks for more when several match', () => {
    const list = [
      { id: 1, ticker: 'NWSC', name: 'Northwind Semiconductor', sector: 'IT' },
      { id: 2, ticker: 'NWFD', name: 'Northwind Foods', sector: 'Staples' },
      { id: 3, ticker: 'CRVP', name: 'Corvalis Pharma AG', sector: 'Health' },
    ];
    expect(pickCompany('crvp', list)).to.deep.equal({ company: list[2] });
    expect(pickCompany('NWSC · Northwind Semiconductor', list)).to.deep.equal({ company: list[0] });
    expect(pickCompany('semicon', list)).to.deep.equal({ company: list[0] });
    expect((pickCompany('northwind', list) as { problem: string }).problem).to.match(
      /matches 2 companies \(NWSC, NWFD\)/,
    );
    expect((pickCompany('zzz', list) as { problem: string }).problem).to.equal('No company matches “zzz”.');
  });

  it('tells an expired session from none, and leads back only to pages of this site', () => {
    const token = (payload: object) =>
      ['e30', Buffer.from(JSON.stringify(payload)).toString('base64url'), 'x'].join('.');
    const now = Date.now();
    expect(readSession(token({ role: 'analyst', exp: now / 1000 - 5 }), now)).to.include({
      state: 'expired',
      role: 'analyst',
    });
    expect(readSession(token({ role: 'analyst', exp: now / 1000 + 60, iat: now / 1000 - 60 }), now).state).to.equal(
      'active',
    );
    expect(readSession(undefined).state).to.equal('none');
    expect(readSession('garbage').state).to.equal('none');
    expect(localPath('/compare?company=1&company=4')).to.equal('/compare?company=1&company=4');
    for (const bad of [
      '//evil.example/x',
      'https://evil.example',
      '/\\evil.example',
      '/signin?next=/x',
      '/api/signout',
      42,
    ])
      expect(localPath(bad), String(bad)).to.equal('/compare');
  });
});
