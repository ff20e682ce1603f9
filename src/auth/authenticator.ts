import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { DataSource } from 'typeorm';
import { AppError } from '../shared/errors';
import { hashKey, isWellFormedKey } from './api-keys';
import { findActiveKeyById, findActiveKeyByHash, markApiKeyUsed, type ActiveKeyRow } from './api-key.repository';
import { ANONYMOUS, isRole, type Principal, type Role } from './roles';
import { verifyToken, type TokenSettings } from './tokens';

export const SESSION_COOKIE = 'fis_session';
export const CSRF_COOKIE = 'fis_csrf';
export const CSRF_HEADER = 'x-csrf-token';
/** A revoked key stops working within this long on every instance. */
const KEY_CACHE_MS = 1_000;
/** last_used_at is written at most this often per key. */
const LAST_USED_EVERY_MS = 60_000;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The same answer for every bad credential, so a caller learns nothing about why. */
export function invalidCredentials(): AppError {
  return new AppError('UNAUTHENTICATED', 'Invalid, expired or revoked credentials', undefined, {
    'www-authenticate': 'Bearer realm="fis"',
  });
}

export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index > 0) cookies.set(part.slice(0, index).trim(), part.slice(index + 1).trim());
  }
  return cookies;
}

/** Compares two secrets in constant time (for equal lengths), so a wrong guess tells nothing of the right one. */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Works out who is calling from the request's credentials; throws 401 for any credential that is present but bad. */
/**
 * The double-submit check of a cookie-authenticated request: the CSRF header equals the CSRF cookie. Writes need it
 * always; /graphql/stream also needs it on GET, where a subscription starts work (an AI answer) like a write.
 */
export function requireCsrfHeader(req: IncomingMessage): void {
  const header = req.headers[CSRF_HEADER];
  const cookie = parseCookies(req.headers.cookie).get(CSRF_COOKIE);
  if (typeof header !== 'string' || !cookie || !sameSecret(header, cookie)) {
    throw new AppError(
      'FORBIDDEN',
      `A write with a session cookie needs the ${CSRF_HEADER} header equal to the ${CSRF_COOKIE} cookie`,
    );
  }
}

/** A key that is not revoked, with a role this version knows. */
export interface ActiveKey {
  id: number;
  role: Role;
  forwardsClients: boolean;
}

export class Authenticator {
  private readonly cache = new Map<string, { key: ActiveKey | null; at: number }>();
  private readonly lastUsed = new Map<number, number>();

  constructor(
    private readonly dataSource: DataSource,
    readonly tokens: TokenSettings,
  ) {}

  async authenticate(req: IncomingMessage): Promise<Principal> {
    const apiKey = req.headers['x-api-key'];
    const authorization = req.headers.authorization;
    const session = parseCookies(req.headers.cookie).get(SESSION_COOKIE);
    if (apiKey !== undefined && authorization !== undefined) throw invalidCredentials();
    if (apiKey !== undefined) {
      const key = await this.activeKey(Array.isArray(apiKey) ? '' : apiKey);
      if (!key) throw invalidCredentials();
      return { role: key.role, keyId: key.id, via: 'api_key', forwardsClients: key.forwardsClients };
    }
    if (authorization !== undefined) {
      const match = /^Bearer ([A-Za-z0-9_\-.]{1,4096})$/.exec(authorization);
      return this.fromToken(match?.[1] ?? '', 'bearer');
    }
    if (session !== undefined) {
      // A stale session cookie (expired, revoked key, restarted secret) cannot be cleared by the page (HttpOnly):
      // it counts as no credential, so signing in again and reading public data keep working.
      const principal = await this.fromToken(session, 'session').catch(() => ANONYMOUS);
      if (principal.role === null) return ANONYMOUS;
      // A cookie is sent by the browser on its own: a write must also prove it comes from our page (double submit).
      if (!SAFE_METHODS.has(req.method ?? 'GET')) requireCsrfHeader(req);
      return principal;
    }
    return ANONYMOUS;
  }

  /** The key behind an API key string, or null when it is malformed, unknown or revoked. */
  async activeKey(key: string): Promise<ActiveKey | null> {
    if (!isWellFormedKey(key)) return null;
    const found = await this.lookup(`hash:${hashKey(key)}`, () =>
      findActiveKeyByHash(this.dataSource.manager, hashKey(key)),
    );
    if (found) this.touch(found.id);
    return found;
  }

  private async fromToken(token: string, via: Principal['via']): Promise<Principal> {
    const claims = await verifyToken(this.tokens, token);
    // A token lives on after its key is revoked only until the key cache expires.
    const key = claims
      ? await this.lookup(`id:${claims.keyId}`, () => findActiveKeyById(this.dataSource.manager, claims.keyId))
      : null;
    if (!claims || !key) throw invalidCredentials();
    // A session is the browser's own credential: the browser could write any X-Forwarded-For, so it never forwards.
    return { role: key.role, keyId: key.id, via, forwardsClients: via === 'bearer' && key.forwardsClients };
  }

  private async lookup(cacheKey: string, find: () => Promise<ActiveKeyRow | null>): Promise<ActiveKey | null> {
    const cached = this.cache.get(cacheKey);
    if (cached && Date.now() - cached.at < KEY_CACHE_MS) return cached.key;
    const row = await find();
    const key = row && isRole(row.role) ? { id: row.id, role: row.role, forwardsClients: row.forwardsClients } : null;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(cacheKey, { key, at: Date.now() });
    return key;
  }

  private touch(id: number): void {
    const last = this.lastUsed.get(id) ?? 0;
    if (Date.now() - last < LAST_USED_EVERY_MS) return;
    this.lastUsed.set(id, Date.now());
    markApiKeyUsed(this.dataSource.manager, id).catch(() => undefined);
  }
}
