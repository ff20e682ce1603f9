import { expect } from 'chai';
import type { App } from '../src/app';
import { startTestApp } from './helpers/test-app';
import type { Refusal } from './helpers/http';

describe('/metrics access (METRICS_TOKEN, METRICS_PORT)', function () {
  this.timeout(60_000);
  const token = 'metrics-token-of-some-length';
  let app: App;
  before(async () => {
    app = await startTestApp({ seedDemoData: false, metricsToken: token, metricsPort: 0 });
  });
  after(() => app?.close());

  it('serves metrics on their own port only, and only with the token', async () => {
    expect(app.metricsUrl).to.be.a('string').and.not.equal(app.url);
    expect((await fetch(`${app.url}/metrics`)).status).to.equal(404);
    const anonymous = await fetch(`${app.metricsUrl}/metrics`);
    expect(anonymous.status).to.equal(401);
    expect(((await anonymous.json()) as Refusal).error.code).to.equal('UNAUTHENTICATED');
    expect(
      (await fetch(`${app.metricsUrl}/metrics`, { headers: { authorization: 'Bearer wrong-token-of-some-length' } }))
        .status,
    ).to.equal(401);
    const allowed = await fetch(`${app.metricsUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(allowed.status).to.equal(200);
    expect(await allowed.text()).to.include('fis_http_requests_total');
    // The API port serves nothing else of the metrics listener.
    expect(
      (await fetch(`${app.metricsUrl}/v1/companies`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).to.equal(404);
  });
});
