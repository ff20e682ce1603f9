import type { Role } from '../operations/roles';

export { ROLES, hasRole, isRole, type Role } from '../operations/roles';

/** Who is calling: a key (directly, as a bearer token, or through a session cookie), or nobody. */
export interface Principal {
  role: Role | null;
  keyId: number | null;
  via: 'anonymous' | 'api_key' | 'bearer' | 'session';
  /**
   * A front end's key calling for its visitors (by key or bearer token, never by a browser session): a request that
   * names the visitor in X-Forwarded-For is rate-limited as that visitor.
   */
  forwardsClients: boolean;
}

export const ANONYMOUS: Principal = { role: null, keyId: null, via: 'anonymous', forwardsClients: false };
