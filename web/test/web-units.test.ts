import { expect } from 'chai';
import { listHref, parseListQuery, selectCompanies, PAGE_SIZE } from '../lib/company-list';
import { secureCookieWouldBeDropped } from '../lib/transport';
import { formatMoney, formatRatio, monthYear } from '../lib/format';
import { failureText } from '../lib/failure-text';

/** The front end's pure logic: the companies query, the plain-HTTP cookie rule, formats, refusals in words. */
describe('web front end (unit)', () => {
  const companies = Array.from({ length: 45 }, (_, i) => ({ id: i + 1, ticker: `T${String(i).padStart(2, '0')}`, name: `Company ${String.fromCharCode(90 - (i % 26))}${i}`, sector: i % 3 === 0 ? 'Energy' : 'Utilities' }));

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
    expect(listHref(parseListQuery({ q: 'a b', sector: 'Energy' }), { page: 2 })).to.equal('/companies?q=a+b&sector=Energy&page=2');
  });

  it('knows a Secure cookie is dropped over plain HTTP on a network address, not on localhost or behind HTTPS', () => {
    const headers = (host: string, proto?: string) => new Headers({ host, ...(proto ? { 'x-forwarded-proto': proto } : {}) });
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
    expect(formatRatio('grossMargin', 'margins', 0.5817)).to.equal('58.2%');
    expect(formatRatio('daysSalesOutstanding', 'efficiency', 61.4)).to.equal('61 days');
    expect(formatRatio('cash_conversion_cycle', 'efficiency', 87.2)).to.equal('87 days');
    expect(formatRatio('currentRatio', 'liquidity', 5.634)).to.equal('5.63x');
    expect(monthYear('2025-10-01')).to.equal('Oct 2025');
    expect(failureText({ message: 'Too many requests', code: 'RATE_LIMITED', retryAfterSeconds: 12 })).to.equal('Too many requests (RATE_LIMITED) Try again in 12 s.');
    expect(failureText({ message: 'Rate limit exceeded; retry in 12 s', code: 'RATE_LIMITED', retryAfterSeconds: 12 })).to.equal('Rate limit exceeded; retry in 12 s (RATE_LIMITED)');
  });
});
