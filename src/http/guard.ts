import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Authenticator } from '../auth/authenticator';
import type { Principal } from '../auth/roles';
import type { LimitClass, RateLimiter } from '../limits/rate-limiter';
import { requestIdOf } from '../shared/request-context';

const address = (req: IncomingMessage) => req.socket.remoteAddress ?? 'unknown';

/** Authentication and rate limits for one request, shared by the REST facade, /graphql and /graphql/stream. */
export class RequestGuard {
  private readonly principals = new WeakMap<IncomingMessage, Promise<Principal>>();

  constructor(
    private readonly authenticator: Authenticator,
    private readonly limiter: RateLimiter,
  ) {}

  /**
   * Who is calling; a present but bad credential is a 401 here, before anything else happens. A failed attempt
   * counts against the address's read budget, so guessing keys is throttled like any read.
   */
  principal(req: IncomingMessage, res: ServerResponse): Promise<Principal> {
    let principal = this.principals.get(req);
    if (!principal) {
      principal = this.authenticator.authenticate(req).catch(async (error: unknown) => {
        await this.limiter.check(`ip:${address(req)}`, 'reads', res);
        throw error;
      });
      this.principals.set(req, principal);
    }
    return principal;
  }

  /** Counts the request against its caller's budget for the class; sets the RateLimit headers; 429 past the limit. */
  async limit(req: IncomingMessage, res: ServerResponse, limitClass: LimitClass): Promise<void> {
    await this.limiter.check(await this.caller(req, res), limitClass, res);
  }

  /**
   * Counts the request against its address's budget without looking at its credentials: for the token endpoint,
   * where an `Authorization: Basic` header is the client's secret, not a credential of this API.
   */
  async limitAddress(req: IncomingMessage, res: ServerResponse, limitClass: LimitClass): Promise<void> {
    await this.limiter.check(`ip:${address(req)}`, limitClass, res);
  }

  /** Takes back a request counted provisionally against a class it turned out not to belong to. */
  async refund(req: IncomingMessage, res: ServerResponse, limitClass: LimitClass): Promise<void> {
    await this.limiter.refund(await this.caller(req, res), limitClass, requestIdOf(req));
  }

  private async caller(req: IncomingMessage, res: ServerResponse): Promise<string> {
    const principal = await this.principal(req, res);
    return principal.keyId !== null ? `key:${principal.keyId}` : `ip:${address(req)}`;
  }
}
