import type { AuthChecker } from 'type-graphql';
import { AppError } from '../shared/errors';
import { hasRole, isRole, type Principal } from './roles';

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
  const { principal, publicReads } = context;
  if (principal.role === null) {
    if (required === 'viewer' && publicReads) return true;
    throw new AppError('UNAUTHENTICATED', `This needs credentials with the ${required} role: send X-API-Key or Authorization: Bearer`);
  }
  if (!hasRole(principal.role, required)) throw new AppError('FORBIDDEN', `This needs the ${required} role; these credentials have ${principal.role}`);
  return true;
};
