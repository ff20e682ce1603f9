import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readJsonBody } from './body';
import type { RequestGuard } from './guard';
import { sendJson } from './respond';
import { AppError } from '../shared/errors';
import {
  CSRF_COOKIE,
  CSRF_HEADER,
  invalidCredentials,
  SESSION_COOKIE,
  type Authenticator,
} from '../auth/authenticator';
import { issueToken } from '../auth/tokens';

/**
 * The browser session (an access token in an HttpOnly cookie, with a CSRF cookie for the double-submit check). It
 * speaks HTTP (headers, cookies) rather than data, so, with the token endpoint (oauth-token.ts), it is the part of
 * /v1 not mapped onto a GraphQL operation.
 */
export function createAuthRoutes(
  authenticator: Authenticator,
  guard: RequestGuard,
  options: { cookieSecure: boolean; maxBodyBytes: number },
) {
  const cookie = (name: string, value: string, maxAge: number, httpOnly: boolean) =>
    [
      `${name}=${value}`,
      'Path=/',
      `Max-Age=${maxAge}`,
      'SameSite=Strict',
      ...(httpOnly ? ['HttpOnly'] : []),
      ...(options.cookieSecure ? ['Secure'] : []),
    ].join('; ');

  /** The key a session is asked for with: the X-API-Key header, or `api_key` in the body. */
  async function presentedKey(
    req: IncomingMessage,
    fields: string[],
  ): Promise<{ id: number; role: 'viewer' | 'analyst' | 'admin' }> {
    let key = req.headers['x-api-key'];
    if (key === undefined) {
      const body = await readJsonBody(req, options.maxBodyBytes);
      if (body === null || typeof body !== 'object' || Array.isArray(body))
        throw new AppError('BAD_USER_INPUT', 'The request body must be a JSON object');
      const unknown = Object.keys(body).filter((field) => !fields.includes(field));
      if (unknown.length > 0)
        throw new AppError('BAD_USER_INPUT', `Unknown field "${unknown[0]}": accepted are ${fields.join(', ')}`);
      const record = body as Record<string, unknown>;
      key = record.api_key as string | undefined;
      if (typeof key !== 'string')
        throw new AppError(
          'UNAUTHENTICATED',
          'Send an API key: the X-API-Key header, or api_key in the body',
          undefined,
          { 'www-authenticate': 'Bearer realm="fis"' },
        );
    }
    const found = await authenticator.activeKey(Array.isArray(key) ? '' : key);
    if (!found) throw invalidCredentials();
    return found;
  }

  function onlyMethods(req: IncomingMessage, path: string, allowed: string[]): void {
    if (!allowed.includes(req.method ?? '')) {
      throw new AppError(
        'METHOD_NOT_ALLOWED',
        `Method ${req.method} is not allowed on ${path}; use ${allowed.join(', ')}`,
        undefined,
        { allow: allowed.join(', ') },
      );
    }
  }

  return {
    async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
      // Guessing keys is throttled like any read, per address.
      await guard.limit(req, res, 'reads');
      if (url.pathname === '/v1/auth/session') {
        onlyMethods(req, url.pathname, ['POST', 'DELETE']);
        if (req.method === 'DELETE') {
          sendJson(
            res,
            200,
            { success: true, data: { signed_out: true } },
            {
              'set-cookie': [cookie(SESSION_COOKIE, '', 0, true), cookie(CSRF_COOKIE, '', 0, false)],
            },
          );
          return;
        }
        const key = await presentedKey(req, ['api_key']);
        const token = await issueToken(authenticator.tokens, key.id, key.role);
        const csrf = randomBytes(24).toString('base64url');
        const ttl = authenticator.tokens.ttlSeconds;
        sendJson(
          res,
          200,
          { success: true, data: { role: key.role, expires_in: ttl, csrf_token: csrf, csrf_header: CSRF_HEADER } },
          {
            'set-cookie': [cookie(SESSION_COOKIE, token, ttl, true), cookie(CSRF_COOKIE, csrf, ttl, false)],
          },
        );
        return;
      }
      throw new AppError('NOT_FOUND', `No route ${req.method} ${url.pathname}`);
    },
  };
}
