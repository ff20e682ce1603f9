import { expect } from 'chai';
import { ClientCredentials } from 'simple-oauth2';
import { requestAs } from './helpers/http';
import { keysFor } from './helpers/keys';
import { app } from './helpers/shared-app';
import type { components, Token } from '../sdk/typescript/src';

/** How simple-oauth2 reports a refused token request: a Boom error with the status and the parsed answer. */
interface OAuthFailure {
  output: { statusCode: number };
  data: { payload: unknown };
}

/** A maintained OAuth 2.0 client library, as a user of the API would configure it. */
function oauthClient(secret: string, authorizationMethod: 'header' | 'body') {
  return new ClientCredentials({
    client: { id: 'my-app', secret },
    auth: { tokenHost: app().url, tokenPath: '/v1/auth/token' },
    options: { authorizationMethod },
  });
}

const form = (body: string, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body,
});
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

describe('OAuth 2.0 token endpoint (RFC 6749 §4.4)', function () {
  this.timeout(60_000);

  for (const method of ['header', 'body'] as const) {
    it(`issues a token to an OAuth client library sending the secret in the ${method === 'header' ? 'HTTP Basic header' : 'form body'}`, async () => {
      const accessToken = await oauthClient(keysFor(app().url).analyst, method).getToken({});
      const token = accessToken.token as Record<string, unknown>;
      expect(token).to.include({ token_type: 'Bearer', expires_in: 900, role: 'analyst' });
      expect(accessToken.expired()).to.equal(false);
      const search = await requestAs(null, '/v1/search', {
        method: 'POST',
        headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'revenue', top_k: 1 }),
      });
      expect(search.status).to.equal(200);
    });
  }

  it('answers a wrong secret with invalid_client (401), as the library reports it', async () => {
    const failure = (await oauthClient('fis_live_not-a-real-key', 'header')
      .getToken({})
      .catch((error: unknown) => error)) as OAuthFailure;
    expect(failure.output.statusCode).to.equal(401);
    expect(failure.data.payload).to.deep.equal({
      error: 'invalid_client',
      error_description: 'Invalid or revoked client secret (API key)',
    });
  });

  it('answers the standard response with no-store, and RFC errors with their status codes', async () => {
    const key = keysFor(app().url).viewer;
    const ok = await requestAs<Token>(
      null,
      '/v1/auth/token',
      form(`grant_type=client_credentials&client_secret=${key}`),
    );
    expect(ok.status).to.equal(200);
    expect(Object.keys(ok.body).sort()).to.deep.equal(['access_token', 'expires_in', 'role', 'token_type']);
    expect(ok.headers.get('cache-control')).to.equal('no-store');
    expect(ok.headers.get('pragma')).to.equal('no-cache');

    const cases: Array<[RequestInit, number, string]> = [
      [form('grant_type=password&username=a&password=b'), 400, 'unsupported_grant_type'],
      [form(`client_secret=${key}`), 400, 'invalid_request'],
      [
        form(`grant_type=client_credentials&grant_type=client_credentials&client_secret=${key}`),
        400,
        'invalid_request',
      ],
      [form(`grant_type=client_credentials&scope=all&client_secret=${key}`), 400, 'invalid_scope'],
      [form('grant_type=client_credentials'), 401, 'invalid_client'],
      [
        form(`grant_type=client_credentials&client_secret=${key}`, { authorization: basic('my-app', key) }),
        400,
        'invalid_request',
      ],
      [form('grant_type=client_credentials', { authorization: basic('my-app', 'wrong') }), 401, 'invalid_client'],
      [
        { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'grant_type=client_credentials' },
        415,
        'invalid_request',
      ],
      [{ method: 'GET' }, 405, 'invalid_request'],
    ];
    for (const [init, status, error] of cases) {
      const response = await requestAs<components['schemas']['OAuthError']>(null, '/v1/auth/token', init);
      expect(response.status, `${init.body}`).to.equal(status);
      expect(response.body.error, `${init.body}`).to.equal(error);
      expect(response.body.error_description).to.be.a('string');
      if (status === 401) expect(response.headers.get('www-authenticate')).to.equal('Basic realm="fis"');
    }
  });

  it('keeps the JSON body and the X-API-Key header working', async () => {
    const key = keysFor(app().url).admin;
    const viaJson = await requestAs(null, '/v1/auth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'client_credentials', client_secret: key }),
    });
    expect(viaJson.body).to.include({ token_type: 'Bearer', role: 'admin' });
    const viaHeader = await requestAs(null, '/v1/auth/token', { method: 'POST', headers: { 'x-api-key': key } });
    expect(viaHeader.body).to.include({ token_type: 'Bearer', role: 'admin' });
  });
});
