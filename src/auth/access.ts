import type { AuthChecker } from 'type-graphql';
import { AppError } from '../shared/errors';
import { hasRole, isRole, type Principal, type Role } from './roles';

/** What a resolver's role check reads from the request context. */
export interface AccessContext {
  principal: Principal;
  publicReads: boolean;
}

/**
 * The role check behind type-graphql's `@Authorized(role)`, for GraphQL and REST alike (REST runs the same schema):
 * 401 without credentials, 403 with a role below the one required. `viewer` operations are open to anonymous
 * callers while PUBLIC_READS is on.
 */
export const authChecker: AuthChecker<AccessContext> = ({ context }, roles) => {
  const [required] = roles;
  if (!isRole(required)) throw new Error(`@Authorized needs one role, got ${JSON.stringify(roles)}`);
  requireRole(context, required);
  return true;
};

/** Throws UNAUTHENTICATED or FORBIDDEN unless the caller has the role (also for work done on a caller's behalf, e.g. agent tools). */
export function requireRole({ principal, publicReads }: AccessContext, required: Role): void {
  if (principal.role === null) {
    if (required === 'viewer' && publicReads) return;
    throw new AppError(
      'UNAUTHENTICATED',
      `This needs credentials with the ${required} role: send X-API-Key or Authorization: Bearer`,
    );
  }
  if (!hasRole(principal.role, required))
    throw new AppError('FORBIDDEN', `This needs the ${required} role; these credentials have ${principal.role}`);
}
