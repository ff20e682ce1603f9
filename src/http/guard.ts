import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Authenticator } from '../auth/authenticator';
import type { Principal } from '../auth/roles';
import type { LimitClass, RateLimiter } from '../limits/rate-limiter';
import type { ClientAddresses } from './client-address';

/** Authentication and rate limits for one request, shared by the REST facade, /graphql and /graphql/stream. */
export class RequestGuard {
  private readonly principals = new WeakMap<IncomingMessage, Promise<Principal>>();

  constructor(
    private readonly authenticator: Authenticator,
    private readonly limiter: RateLimiter,
    private readonly addresses: ClientAddresses,
  ) {}

  /**
   * Who is calling; a present but bad credential is a 401 here, before anything else happens. A failed attempt
   * counts against the address's read budget, so guessing keys is throttled like any read.
   */
  principal(req: IncomingMessage, res: ServerResponse): Promise<Principal> {
    let principal = this.principals.get(req);
    if (!principal) {
      principal = this.authenticator.authenticate(req).catch(async (error: unknown) => {
        await this.limiter.check(this.addressOf(req), 'reads', res);
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
    await this.limiter.check(this.addressOf(req), limitClass, res);
  }

  /** Takes back a request counted provisionally against a class it turned out not to belong to. */
  async refund(req: IncomingMessage, res: ServerResponse, limitClass: LimitClass): Promise<void> {
    await this.limiter.refund(await this.caller(req, res), limitClass);
  }

  /**
   * Whose budget a request spends: the key's, or the address's when anonymous. A forwarding key (a front end's) that
   * names its visitor in X-Forwarded-For spends that visitor's budget, the one the visitor has when calling directly,
   * so a front end neither pools its visitors into one budget nor gives any of them more than their own.
   */
  private async caller(req: IncomingMessage, res: ServerResponse): Promise<string> {
    const principal = await this.principal(req, res);
    if (principal.keyId === null) return this.addressOf(req);
    const visitor = principal.forwardsClients ? this.addresses.forwardedClient(req) : null;
    return visitor === null ? `key:${principal.keyId}` : `ip:${visitor}`;
  }

  private addressOf(req: IncomingMessage): string {
    return `ip:${this.addresses.client(req)}`;
  }
}
