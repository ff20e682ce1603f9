import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';
import ipaddr from 'ipaddr.js';
import { AppError } from '../shared/errors';
import type { TrustProxy } from '../config/config';

type Trust = (address: string, hop: number) => boolean;

function trustOf(setting: TrustProxy): Trust {
  if (setting === null) return () => false;
  if ('hops' in setting) return (_address, hop) => hop < setting.hops;
  return proxyaddr.compile(setting.ranges);
}

/** One spelling per address, so a client counts against one budget: `::ffff:1.2.3.4` is `1.2.3.4`, IPv6 compressed. */
export function canonicalAddress(address: string): string {
  return ipaddr.process(address).toString();
}

function malformed(address: string): AppError {
  return new AppError('BAD_REQUEST', `X-Forwarded-For must list IP addresses; "${address.slice(0, 64)}" is not one`, {
    header: 'x-forwarded-for',
  });
}

/**
 * Who a request comes from, for the budgets of anonymous callers. The socket's address, unless TRUST_PROXY says the
 * socket is a proxy: then the nearest address of X-Forwarded-For that is not a trusted proxy (proxy-addr's walk, as
 * Express does it). A client can write anything into the header, so only the entries that trusted proxies added count.
 */
export class ClientAddresses {
  private readonly trust: Trust;

  constructor(setting: TrustProxy) {
    this.trust = trustOf(setting);
  }

  /** The caller's address: the socket's, or with TRUST_PROXY the first address before the trusted proxies. */
  client(req: IncomingMessage): string {
    if (!req.socket.remoteAddress) return 'unknown';
    const chain = proxyaddr.all(req, this.trust);
    return this.valid(chain[chain.length - 1]);
  }

  /**
   * The visitor a forwarding key's sender names: the X-Forwarded-For entry it added, one hop past the caller's own
   * address (its sender counts as one more trusted proxy). Null when it added none: the request is the key's own.
   */
  forwardedClient(req: IncomingMessage): string | null {
    if (!req.socket.remoteAddress) return null;
    const callerHop = proxyaddr.all(req, this.trust).length - 1;
    const entry = proxyaddr.all(req)[callerHop + 1];
    return entry === undefined ? null : this.valid(entry);
  }

  private valid(address: string): string {
    if (isIP(address) === 0) throw malformed(address);
    return canonicalAddress(address);
  }
}
