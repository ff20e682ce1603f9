import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, readJsonBody } from './body';
import type { RequestGuard } from './guard';
import { sendJson } from './respond';
import { AppError } from '../shared/errors';
import type { Authenticator } from '../auth/authenticator';
import { issueToken } from '../auth/tokens';

/**
 * The OAuth 2.0 token endpoint, client credentials grant (RFC 6749 §4.4): an API key is the client secret and is
 * exchanged for a short-lived JWT. The standard form is a `application/x-www-form-urlencoded` body with
 * `grant_type=client_credentials`, the secret in HTTP Basic (`client_id:client_secret`, client_id free) or as
 * `client_secret` in the body. The older forms keep working: the key in `X-API-Key` with no body, or a JSON body
 * `{grant_type, client_secret}`. Answers are OAuth's own, not the /v1 envelope, so OAuth client libraries read them:
 * `{access_token, token_type, expires_in, role}` and, on failure, `{error, error_description}` (RFC 6749 §5.2).
 */

/** The error codes of RFC 6749 §5.2 this endpoint answers with. */
type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'temporarily_unavailable'
  | 'server_error';

const OAUTH_ERROR = Symbol('oauth error');

/** An AppError that knows its OAuth error code (the HTTP status still comes from the AppError code). */
function oauthError(error: OAuthErrorCode, description: string): AppError {
  const code = error === 'invalid_client' ? 'UNAUTHENTICATED' : 'BAD_USER_INPUT';
  const headers = error === 'invalid_client' ? { 'www-authenticate': 'Basic realm="fis"' } : undefined;
  return Object.assign(new AppError(code, description, undefined, headers), { [OAUTH_ERROR]: error });
}

/** The OAuth error code of a failure: its own, or the nearest for a failure of the HTTP layer (413, 415, 429…). */
function oauthCodeOf(error: AppError): OAuthErrorCode {
  const own = (error as AppError & { [OAUTH_ERROR]?: OAuthErrorCode })[OAUTH_ERROR];
  if (own) return own;
  if (error.status === 401) return 'invalid_client';
  if (error.status === 429 || error.status === 503) return 'temporarily_unavailable';
  return error.status >= 500 ? 'server_error' : 'invalid_request';
}

/** Writes a failure of the token endpoint as RFC 6749 §5.2 says, keeping the status and headers (Retry-After, Allow). */
export function sendOAuthError(res: ServerResponse, error: AppError): void {
  sendJson(
    res,
    error.status,
    { error: oauthCodeOf(error), error_description: error.message },
    { pragma: 'no-cache', ...error.headers },
  );
}

interface TokenRequest {
  grantType: string | undefined;
  clientSecret: string | undefined;
  scope: string | undefined;
}

/** The parameters of a form body; a parameter given twice is refused, an empty one counts as absent (RFC 6749 §3.2). */
function formParameters(text: string): Map<string, string> {
  const parameters = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(text)) {
    if (parameters.has(name)) throw oauthError('invalid_request', `The parameter ${name} is given more than once`);
    if (value !== '') parameters.set(name, value);
  }
  return parameters;
}

const JSON_FIELDS = ['grant_type', 'client_id', 'client_secret', 'scope'];

async function readTokenRequest(req: IncomingMessage, maxBodyBytes: number): Promise<TokenRequest> {
  const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
  if (!hasBody) return { grantType: undefined, clientSecret: undefined, scope: undefined };
  const contentType = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (contentType === 'application/x-www-form-urlencoded') {
    const parameters = formParameters((await readBody(req, maxBodyBytes)).toString('utf8'));
    // Unknown parameters are ignored, as the RFC asks; grant_type is required in its form.
    if (!parameters.has('grant_type'))
      throw oauthError('invalid_request', 'grant_type is required: grant_type=client_credentials');
    return {
      grantType: parameters.get('grant_type'),
      clientSecret: parameters.get('client_secret'),
      scope: parameters.get('scope'),
    };
  }
  const body = await readJsonBody(req, maxBodyBytes).catch((error: AppError) => {
    // Name both accepted types, not only JSON's.
    if (error.code === 'UNSUPPORTED_MEDIA_TYPE') {
      throw new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        `Content-Type must be application/x-www-form-urlencoded or application/json, got "${contentType || 'none'}"`,
      );
    }
    throw error;
  });
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw oauthError('invalid_request', 'The request body must be a JSON object');
  const unknown = Object.keys(body).filter((field) => !JSON_FIELDS.includes(field));
  if (unknown.length > 0)
    throw oauthError('invalid_request', `Unknown field "${unknown[0]}": accepted are ${JSON_FIELDS.join(', ')}`);
  const record = body as Record<string, unknown>;
  for (const field of JSON_FIELDS) {
    if (record[field] !== undefined && typeof record[field] !== 'string')
      throw oauthError('invalid_request', `${field} must be a string`);
  }
  return {
    grantType: record.grant_type as string | undefined,
    clientSecret: record.client_secret as string | undefined,
    scope: record.scope as string | undefined,
  };
}

/** The secret of `Authorization: Basic base64(client_id:client_secret)`, each part form-encoded (RFC 6749 §2.3.1). */
function basicSecret(authorization: string): string {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(authorization.trim());
  const decoded = match ? Buffer.from(match[1], 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon < 0)
    throw oauthError('invalid_client', 'Malformed HTTP Basic credentials: base64 of client_id:client_secret');
  try {
    return decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
  } catch {
    throw oauthError('invalid_client', 'Malformed HTTP Basic credentials: the secret is not form-encoded');
  }
}

/** The one client secret presented; more than one way at once is refused (RFC 6749 §2.3). */
function presentedSecret(req: IncomingMessage, request: TokenRequest): string {
  const header = req.headers['x-api-key'];
  const authorization = req.headers.authorization;
  const ways = [
    ...(typeof header === 'string' || Array.isArray(header) ? [Array.isArray(header) ? '' : header] : []),
    ...(authorization !== undefined ? [basicSecret(authorization)] : []),
    ...(request.clientSecret !== undefined ? [request.clientSecret] : []),
  ];
  if (ways.length > 1)
    throw oauthError(
      'invalid_request',
      'Send the client secret one way only: HTTP Basic, client_secret in the body, or X-API-Key',
    );
  if (ways.length === 0)
    throw oauthError(
      'invalid_client',
      'Send an API key as the client secret: HTTP Basic, client_secret in the body, or the X-API-Key header',
    );
  return ways[0];
}

export function createTokenEndpoint(
  authenticator: Authenticator,
  guard: RequestGuard,
  options: { maxBodyBytes: number },
) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // Guessing keys is throttled like any read, per address.
    await guard.limitAddress(req, res, 'reads');
    if (req.method !== 'POST')
      throw new AppError(
        'METHOD_NOT_ALLOWED',
        `Method ${req.method} is not allowed on /v1/auth/token; use POST`,
        undefined,
        { allow: 'POST' },
      );
    const request = await readTokenRequest(req, options.maxBodyBytes);
    if (request.grantType !== undefined && request.grantType !== 'client_credentials') {
      throw oauthError(
        'unsupported_grant_type',
        `grant_type must be client_credentials, got "${request.grantType.slice(0, 40)}"`,
      );
    }
    if (request.scope !== undefined)
      throw oauthError(
        'invalid_scope',
        'This server has no scopes: leave scope out (the key\u2019s role decides access)',
      );
    const key = await authenticator.activeKey(presentedSecret(req, request));
    if (!key) throw oauthError('invalid_client', 'Invalid or revoked client secret (API key)');
    const token = await issueToken(authenticator.tokens, key.id, key.role);
    sendJson(
      res,
      200,
      { access_token: token, token_type: 'Bearer', expires_in: authenticator.tokens.ttlSeconds, role: key.role },
      { pragma: 'no-cache' },
    );
  };
}
