import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Authenticator } from '../auth/authenticator';
import type { Principal } from '../auth/roles';
import type { LimitClass, RateLimiter } from '../limits/rate-limiter';

/** Authentication and rate limits for one request, shared by the REST facade, /graphql and /graphql/stream. */
export class RequestGuard {
  private readonly principals = new WeakMap<IncomingMessage, Promise<Principal>>();

  constructor(
    private readonly authenticator: Authenticator,
    private readonly limiter: RateLimiter,
  ) {}

  /** Who is calling; a present but bad credential is a 401 here, before anything else happens. */
  principal(req: IncomingMessage): Promise<Principal> {
    let principal = this.principals.get(req);
    if (!principal) {
      principal = this.authenticator.authenticate(req);
      this.principals.set(req, principal);
    }
    return principal;
  }

  /** Counts the request against its caller's budget for the class; sets the RateLimit headers; 429 past the limit. */
  async limit(req: IncomingMessage, res: ServerResponse, limitClass: LimitClass): Promise<void> {
    const principal = await this.principal(req);
    const caller = principal.keyId !== null ? `key:${principal.keyId}` : `ip:${req.socket.remoteAddress ?? 'unknown'}`;
    await this.limiter.check(caller, limitClass, res);
  }
}
