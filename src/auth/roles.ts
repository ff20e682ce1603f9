/** Roles, each including the one before: viewers read data, analysts also search and use AI, admins also ingest and manage. */
export const ROLES = ['viewer', 'analyst', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function hasRole(actual: Role, required: Role): boolean {
  return ROLES.indexOf(actual) >= ROLES.indexOf(required);
}

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
