import type { Role } from '../operations/roles';

export { ROLES, hasRole, isRole, type Role } from '../operations/roles';

/** Who is calling: a key (directly, as a bearer token, or through a session cookie), or nobody. */
export interface Principal {
  role: Role | null;
  keyId: number | null;
  via: 'anonymous' | 'api_key' | 'bearer' | 'session';
}

export const ANONYMOUS: Principal = { role: null, keyId: null, via: 'anonymous' };
