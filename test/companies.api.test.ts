import { expect } from 'chai';
import { get, request } from './helpers/http';
import type { Data, Page, Refusal } from './helpers/http';
import type { Company, CompanyProfile } from '../sdk/typescript/src';

const list = (query = '') => get<Page<Company>>(`/v1/companies${query}`);

describe('REST /v1/companies', () => {
  it('lists 20 companies by default with id, name, ticker and sector, and the paging meta', async () => {
    const { status, body } = await list();
    expect(status).to.equal(200);
    expect(body.success).to.equal(true);
    expect(body.data).to.have.length(20);
    expect(Object.keys(body.data[0]).sort()).to.deep.equal(['id', 'name', 'sector', 'ticker']);
    expect(body.meta).to.deep.equal({ total: body.meta.total, limit: 20, offset: 0 });
    expect(body.meta.total).to.be.at.least(40);
    expect(body.data.every((c) => Number.isInteger(c.id) && typeof c.ticker === 'string')).to.equal(true);
  });

  it('pages without gaps or overlaps, and an offset past the end is an empty page', async () => {
    const first = await list('?limit=100');
    const total = first.body.meta.total;
    expect(first.body.data).to.have.length(Math.min(total, 100));
    const seen: number[] = [];
    for (let offset = 0; offset < total; offset += 7) {
      const page = await list(`?limit=7&offset=${offset}`);
      expect(page.status).to.equal(200);
      seen.push(...page.body.data.map((c) => c.id));
    }
    expect(seen).to.deep.equal(first.body.data.map((c) => c.id));
    const last = await list(`?limit=7&offset=${total - 1}`);
    expect(last.body.data).to.have.length(1);
    const beyond = await list(`?offset=${total}`);
    expect(beyond.status).to.equal(200);
    expect(beyond.body.data).to.deep.equal([]);
    expect(beyond.body.meta.total).to.equal(total);
  });

  it('filters by sector, in any case, with the total of that sector', async () => {
    const all = await list('?limit=100');
    const sector = all.body.data[0].sector;
    const expected = all.body.data.filter((c) => c.sector === sector).map((c) => c.id);
    const filtered = await list(`?sector=${encodeURIComponent(sector.toUpperCase())}&limit=100`);
    expect(filtered.status).to.equal(200);
    expect(filtered.body.data.map((c) => c.id)).to.deep.equal(expected);
    expect(filtered.body.meta.total).to.equal(expected.length);
    const none = await list('?sector=No%20Such%20Sector');
    expect(none.body).to.deep.equal({ success: true, data: [], meta: { total: 0, limit: 20, offset: 0 } });
  });

  it('serves a profile by id, with snake_case keys', async () => {
    const one = await list('?limit=1');
    const { status, body } = await get<Data<CompanyProfile>>(`/v1/companies/${one.body.data[0].id}`);
    expect(status).to.equal(200);
    expect(body.data).to.include(one.body.data[0]);
    for (const key of [
      'industry',
      'exchange',
      'country',
      'currency',
      'fiscal_year_end',
      'description',
      'website',
      'employees',
    ]) {
      expect(body.data, key).to.have.property(key);
    }
    expect(body.data.fiscal_year_end).to.be.within(1, 12);
  });

  it('keeps all-digit tickers as strings', async () => {
    const all = await list('?limit=100');
    const digits = all.body.data.filter((c) => /^\d+$/.test(c.ticker));
    expect(digits.length).to.be.at.least(1);
    expect(typeof digits[0].ticker).to.equal('string');
  });

  describe('bad input gets a 4xx JSON envelope', () => {
    const cases: Array<[string, number, RegExp]> = [
      ['/v1/companies?limit=0', 400, /limit/],
      ['/v1/companies?limit=101', 400, /limit/],
      ['/v1/companies?limit=-5', 400, /limit/],
      ['/v1/companies?limit=abc', 400, /limit/],
      ['/v1/companies?limit=1.5', 400, /limit/],
      ['/v1/companies?limit=', 400, /limit/],
      ['/v1/companies?offset=-1', 400, /offset/],
      ['/v1/companies?offset=ten', 400, /offset/],
      ['/v1/companies?offset=99999999999', 400, /offset/],
      ['/v1/companies?limit=5&limit=6', 400, /more than once/],
      ['/v1/companies?limt=5', 400, /Unknown query parameter "limt"/],
      ['/v1/companies/abc', 400, /id must be a positive integer/],
      ['/v1/companies/1.5', 400, /id/],
      ['/v1/companies/-3', 400, /id/],
      ['/v1/companies/0', 400, /id must be a positive integer, got "0"/],
      // Only the canonical spelling names a row: these are not company 1.
      ['/v1/companies/01', 400, /id must be a positive integer, got "01"/],
      ['/v1/companies/+1', 400, /id must be a positive integer, got "\+1"/],
      ['/v1/companies/%201', 400, /id must be a positive integer, got " 1"/],
      ['/v1/companies/%091', 400, /id must be a positive integer, got "\t1"/],
      ['/v1/companies/1%20', 400, /id must be a positive integer, got "1 "/],
      ['/v1/companies/99999999999', 400, /id/],
      ['/v1/companies/%E0%A4%A', 400, /percent-encoding/],
      ['/v1/companies/999999', 404, /No company with id 999999/],
      ['/v1/nothing-here', 404, /No route/],
      ['/v1/companies/1/unknown', 404, /No route/],
      ['/nowhere', 404, /No route/],
    ];
    for (const [path, status, message] of cases) {
      it(`${path} → ${status}`, async () => {
        const response = await get<Refusal>(path);
        expect(response.status).to.equal(status);
        expect(response.headers.get('content-type')).to.match(/application\/json/);
        expect(response.body.success).to.equal(false);
        const expectedCode = status === 404 ? 'NOT_FOUND' : path.includes('%E0') ? 'BAD_REQUEST' : 'BAD_USER_INPUT';
        expect(response.body.error.code).to.equal(expectedCode);
        expect(response.body.error.message).to.match(message);
      });
    }

    it('answers a wrong method with 405 and an Allow header', async () => {
      const response = await request<Refusal>('/v1/companies', { method: 'DELETE' });
      expect(response.status).to.equal(405);
      expect(response.headers.get('allow')).to.equal('GET, HEAD, POST');
      expect(response.body.error.code).to.equal('METHOD_NOT_ALLOWED');
    });
  });
});
